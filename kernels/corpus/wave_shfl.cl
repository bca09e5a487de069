/* OpenCL twin of wave_shfl.hip (PoCL oracle): the same wave32 shuffles,
 * ballots and votes computed through local memory. Blocks of 64. */
#define K 9
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void wave_shfl(__global const int *in, __global int *out)
{
	__local int v[64];
	uint lid = get_local_id(0), lane = lid & 31u, w = lid & ~31u;
	size_t i = get_global_id(0);
	int x = in[i];
	v[lid] = x;
	barrier(CLK_LOCAL_MEM_FENCE);
	__global int *o = out + i * K;
	o[0] = v[w + ((lane * 7u + 3u) & 31u)];
	o[1] = v[w + (lane ^ 5u)];
	o[2] = lane >= 3u ? v[lid - 3] : x;
	o[3] = lane + 4u < 32u ? v[lid + 4] : x;
	uint b = 0, neg = 0;
	int any = 0, all = 1;
	for (uint k = 0; k < 32u; k++) {
		b |= (uint)(v[w + k] & 1) << k;
		neg += v[w + k] < 0;
		any |= v[w + k] > 1000000;
		all &= v[w + k] != 0;
	}
	o[4] = (int)b;
	o[5] = 0;
	o[6] = any | (all << 1);
	o[7] = (int)neg;
	o[8] = (int)((uint)v[w + 31] + (uint)v[w]);
}
