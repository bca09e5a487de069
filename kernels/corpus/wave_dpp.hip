// Corpus: HIP lane operations through the AMDGPU builtins: DPP16 moves
// (quad_perm, row_shl, row_shr, row_ror, row_mirror, row_half_mirror,
// row_xmask, with bound_ctrl and with the old value kept), ds_swizzle_b32
// (bit-mask and quad-permute modes), ds_permute_b32 / ds_bpermute_b32,
// v_readlane / v_readfirstlane and v_permlanex16. Wave32, blocks of 64.
// The OpenCL twin wave_dpp.cl computes the same through LDS.
#include <hip/hip_runtime.h>

#define K 14
extern "C" __global__ void wave_dpp(const int *in, int *out)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned lane = threadIdx.x & 31u;
	int v = in[i], old = -7;
	int *o = out + i * K;
	o[0] = __builtin_amdgcn_update_dpp(old, v, 0xb1, 0xf, 0xf, false);   // quad_perm:[1,0,3,2]
	o[1] = __builtin_amdgcn_update_dpp(old, v, 0x101, 0xf, 0xf, false);  // row_shl:1, keep old
	o[2] = __builtin_amdgcn_update_dpp(old, v, 0x113, 0xf, 0xf, true);   // row_shr:3, bound_ctrl -> 0
	o[3] = __builtin_amdgcn_update_dpp(old, v, 0x124, 0xf, 0xf, false);  // row_ror:4
	o[4] = __builtin_amdgcn_update_dpp(old, v, 0x140, 0xf, 0xf, false);  // row_mirror
	o[5] = __builtin_amdgcn_update_dpp(old, v, 0x141, 0xf, 0xf, false);  // row_half_mirror
	o[6] = __builtin_amdgcn_update_dpp(old, v, 0x163, 0xf, 0xf, false);  // row_xmask:3
	o[7] = __builtin_amdgcn_ds_swizzle(v, 0x081f);                       // bit mode: and 0x1f, xor 2
	o[8] = __builtin_amdgcn_ds_swizzle(v, 0x801b);                       // quad perm [3,2,1,0]
	o[9] = __builtin_amdgcn_ds_permute((int)(((lane * 5u) & 31u) << 2), v); // lane -> 5*lane mod 32
	o[10] = __builtin_amdgcn_ds_bpermute((int)(((lane + 9u) & 31u) << 2), v);
	o[11] = __builtin_amdgcn_readlane(v, 13) ^ __builtin_amdgcn_readfirstlane(v);
	o[12] = __builtin_amdgcn_permlanex16(old, v, 0x76543210u, 0xfedcba98u, false, false);
	o[13] = __builtin_amdgcn_update_dpp(old, v, 0x111, 0xa, 0x5, false); // row_shr:1, row/bank masks
}
