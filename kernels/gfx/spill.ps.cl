/* PS that needs scratch: a private array indexed by the pixel's x. */
float4 ps_main(float4 color, float4 frag_coord, __global const uint *root)
{
	float table[64];
	float s = as_float(root[0]);
	for (int i = 0; i < 64; i++)
		table[i] = s + (float)i * color.x;
	uint x = (uint)frag_coord.x;
	return (float4)(table[x & 63], table[(x * 5u) & 63], color.z, 1.0f);
}
