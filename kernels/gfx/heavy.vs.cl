/* A VS that keeps many values live at once (>= 128 VGPRs in wave32): 48
 * float4 accumulators fed by a loop, all summed at the end. For occupancy
 * and the S4.2 late-alloc deadlock tests. */
typedef struct { float4 pos; float4 p0; } VSOut;

VSOut vs_main(float4 position, uint vertex_id, __global const uint *root)
{
	float4 acc[48];
	float f = (float)vertex_id;
	for (int k = 0; k < 48; k++)
		acc[k] = position * (float)(k + 1) + f;
	uint n = root[0];
	for (uint it = 0; it < n; it++)
		for (int k = 0; k < 48; k++)
			acc[k] = acc[k] * acc[(k + 1) % 48] + (float4)((float)k);
	float4 sum = (float4)(0.0f);
	for (int k = 0; k < 48; k++)
		sum += acc[k] * (float)(k & 3);
	VSOut o;
	o.pos = position;
	o.p0 = sum;
	return o;
}
