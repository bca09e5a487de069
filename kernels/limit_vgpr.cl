/* Made to be limited by VGPRs: many live values per lane. */
__kernel void limit_vgpr(__global const float4 *in, __global float4 *out)
{
	uint i = get_global_id(0);
	float4 r[40];
	for (int k = 0; k < 40; k++)
		r[k] = in[i + k];
	float4 acc = 0;
	for (int j = 0; j < 8; j++)
		for (int k = 0; k < 40; k++)
			acc = acc * r[k] + r[(k + j) % 40];
	for (int k = 0; k < 40; k++)
		out[i * 40 + k] = r[k] + acc;
}
