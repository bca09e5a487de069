/* VS that needs scratch: a private array indexed by a value known only at
 * run time (the vertex id) cannot live in VGPRs. Root constant 0 scales. */
typedef struct { float4 pos; float4 color; } VSOut;

VSOut vs_main(float4 position, uint vertex_id, __global const uint *root)
{
	float table[64];
	float s = as_float(root[0]);
	for (int i = 0; i < 64; i++)
		table[i] = s * (float)i;
	VSOut o;
	o.pos = position;
	float v = table[vertex_id & 63];
	o.color = (float4)(v, table[(vertex_id * 7u) & 63], 0.0f, 1.0f);
	return o;
}
