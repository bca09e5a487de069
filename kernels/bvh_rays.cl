// Ray/node intersections through the ray accelerator's instructions
// (tests/isa/test_bvh_kernel.c checks them against a CPU reference).
// Ray i: rays[3i] = (extent, origin.xyz), rays[3i+1] = dir, rays[3i+2] =
// inv_dir; halves[2i], halves[2i+1] = dir and inv_dir as f16 (.w unused);
// nodes[i] = its node pointer (byte offset / 8 | type) below the T# desc's
// base. desc0 is the same T# with base 0, for the 64-bit forms, which get
// the absolute pointer bvh_va / 8 + nodes[i].
// out[4i..4i+3]: image_bvh_intersect_ray, image_bvh64_intersect_ray, and
// their a16 forms.
__kernel void bvh_rays(uint4 desc, uint4 desc0, ulong bvh_va,
                       __global const uint *nodes, __global const float4 *rays,
                       __global const ushort4 *halves, __global uint4 *out)
{
	uint i = get_global_id(0);
	uint node = nodes[i];
	float4 a = rays[3 * i], d = rays[3 * i + 1], v = rays[3 * i + 2];
	float4 org = (float4)(a.y, a.z, a.w, 0.0f);
	ulong node64 = (bvh_va >> 3) + node;
	half4 hd = as_half4(halves[2 * i]), hv = as_half4(halves[2 * i + 1]);
	out[4 * i] = __builtin_amdgcn_image_bvh_intersect_ray(node, a.x, org, d, v, desc);
	out[4 * i + 1] = __builtin_amdgcn_image_bvh_intersect_ray_l(node64, a.x, org, d, v, desc0);
	out[4 * i + 2] = __builtin_amdgcn_image_bvh_intersect_ray_h(node, a.x, org, hd, hv, desc);
	out[4 * i + 3] = __builtin_amdgcn_image_bvh_intersect_ray_lh(node64, a.x, org, hd, hv, desc0);
}
