/* Work-group sum in LDS with barriers (tree reduction). Two flavours: a
 * static __local array, and a __local pointer argument (dynamic LDS). */
#define BLOCK 256

__kernel __attribute__((reqd_work_group_size(BLOCK, 1, 1)))
void lds_reduce(__global const uint *in, __global uint *out)
{
	__local uint tmp[BLOCK];
	uint lid = get_local_id(0);
	tmp[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint s = BLOCK / 2; s > 0; s >>= 1) {
		if (lid < s)
			tmp[lid] += tmp[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = tmp[0];
}

__kernel void lds_reduce_dyn(__global const uint *in, __global uint *out, __local uint *tmp)
{
	uint lid = get_local_id(0);
	uint n = get_local_size(0);
	tmp[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint s = n / 2; s > 0; s >>= 1) {
		if (lid < s)
			tmp[lid] += tmp[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = tmp[0];
}
