/* OpenCL twin of wave_dpp.hip (PoCL oracle): DPP16, ds_swizzle,
 * ds_permute/bpermute, readlane and permlanex16 results computed through
 * local memory. Wave32 semantics, blocks of 64 (two waves). */
#define K 14
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void wave_dpp(__global const int *in, __global int *out)
{
	__local int v[64];
	__local int perm[64];
	uint lid = get_local_id(0), lane = lid & 31u, w = lid & ~31u;
	uint r = lid & ~15u, ri = lid & 15u;            /* DPP rows of 16 lanes */
	size_t i = get_global_id(0);
	int x = in[i], old = -7;
	v[lid] = x;
	perm[w + ((lane * 5u) & 31u)] = x;              /* ds_permute: push to lane 5*lane */
	barrier(CLK_LOCAL_MEM_FENCE);
	__global int *o = out + i * K;
	o[0] = v[(lid & ~3u) | ((lid & 3u) ^ 1u)];
	o[1] = ri + 1u < 16u ? v[lid + 1] : old;
	o[2] = ri >= 3u ? v[lid - 3] : 0;
	o[3] = v[r | ((ri - 4u) & 15u)];
	o[4] = v[r | (15u - ri)];
	o[5] = v[(lid & ~7u) | (7u - (lid & 7u))];
	o[6] = v[r | (ri ^ 3u)];
	o[7] = v[w + (lane ^ 2u)];
	o[8] = v[(lid & ~3u) | (3u - (lid & 3u))];
	o[9] = perm[lid];
	o[10] = v[w + ((lane + 9u) & 31u)];
	o[11] = v[w + 13] ^ v[w];
	uint sel = ri < 8u ? (0x76543210u >> (4u * ri)) & 15u : (0xfedcba98u >> (4u * (ri - 8u))) & 15u;
	o[12] = v[w + ((lane & 16u) ^ 16u) + sel];
	/* row_shr:1 with row_mask 0xa (rows 1, 3) and bank_mask 0x5 (banks 0, 2) */
	uint row = lane >> 4, bank = (lane >> 2) & 3u;
	int en = ((0xau >> row) & 1u) && ((0x5u >> bank) & 1u);
	o[13] = en ? (ri >= 1u ? v[lid - 1] : old) : old;
}
