/* Ray-accelerator-bound: 8 independent image_bvh64_intersect_ray per step,
 * 16 steps, 128 node tests per lane, all on one node (node = its pointer:
 * byte offset / 8 | type below bvh, which holds it). The T# is a constant
 * (base 0, sorting, IJ) and the 64-bit pointer absolute, so that the T#
 * stays in SGPRs (a T# computed from the buffer's address ends up in VGPRs
 * and clang then wraps every instruction in a readfirstlane loop). The rays move a little
 * each step so that no test can be hoisted; the results are folded so
 * that none is dead. tests/gpu/model.py ray-rate counts one node per lane
 * per instruction. */
__kernel void ray_peak(__global const uint *bvh, __global uint *out, uint node)
{
	ulong ptr = ((ulong)bvh >> 3) + node;
	const uint4 desc = (uint4)(0u, 0x80000000u, 0xffffffffu, 0x810003ffu);
	float g = (float)get_global_id(0) * 0x1p-12f;
	float4 dir = (float4)(0.25f, 0.5f, 1.0f, 0.0f), inv = (float4)(4.0f, 2.0f, 1.0f, 0.0f);
	uint acc = 0;
	for (int i = 0; i < 16; i++) {
		float s = g + (float)i * 0x1p-16f;
		uint4 r0 = __builtin_amdgcn_image_bvh_intersect_ray_l(ptr, 100.0f, (float4)(s, 0.0f, -2.0f, 0.0f), dir, inv, desc);
		uint4 r1 = __builtin_amdgcn_image_bvh_intersect_ray_l(ptr, 100.0f, (float4)(0.0f, s, -2.0f, 0.0f), dir, inv, desc);
		uint4 r2 = __builtin_amdgcn_image_bvh_intersect_ray_l(ptr, 100.0f, (float4)(-s, 0.0f, -2.0f, 0.0f), dir, inv, desc);
		uint4 r3 = __builtin_amdgcn_image_bvh_intersect_ray_l(ptr, 100.0f, (float4)(0.0f, -s, -2.0f, 0.0f), dir, inv, desc);
		uint4 r4 = __builtin_amdgcn_image_bvh_intersect_ray_l(ptr, 100.0f, (float4)(s, s, -2.0f, 0.0f), dir, inv, desc);
		uint4 r5 = __builtin_amdgcn_image_bvh_intersect_ray_l(ptr, 100.0f, (float4)(-s, s, -2.0f, 0.0f), dir, inv, desc);
		uint4 r6 = __builtin_amdgcn_image_bvh_intersect_ray_l(ptr, 100.0f, (float4)(s, -s, -2.0f, 0.0f), dir, inv, desc);
		uint4 r7 = __builtin_amdgcn_image_bvh_intersect_ray_l(ptr, 100.0f, (float4)(-s, -s, -2.0f, 0.0f), dir, inv, desc);
		acc += (r0.x ^ r1.y) + (r2.z ^ r3.w) + (r4.x ^ r5.y) + (r6.z ^ r7.w);
	}
	out[get_global_id(0)] = acc;
}
