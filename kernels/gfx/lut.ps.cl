/* PS reading a __constant table with a dynamic index: LLVM puts the table
 * in .rodata and addresses it PC-relatively, with R_AMDGPU_REL32_LO/HI
 * relocations the loader applies (the addends are in the literals). */
__constant float lut[16] = { 0.0f, 0.0625f, 0.125f, 0.1875f, 0.25f, 0.3125f, 0.375f, 0.4375f,
                             0.5f, 0.5625f, 0.625f, 0.6875f, 0.75f, 0.8125f, 0.875f, 0.9375f };

float4 ps_main(float4 color, float4 frag_coord)
{
	uint x = (uint)frag_coord.x & 15u, y = (uint)frag_coord.y & 15u;
	return (float4)(lut[x], lut[y], color.z, 1.0f);
}
