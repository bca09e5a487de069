/* Made to be limited by LDS: 24 KB of static LDS for a 64-thread group. */
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void limit_lds(__global const uint *in, __global uint *out)
{
	__local uint big[6144];
	uint lid = get_local_id(0);
	for (uint k = lid; k < 6144; k += 64)
		big[k] = in[(get_group_id(0) * 6144 + k) % 4096] + k;
	barrier(CLK_LOCAL_MEM_FENCE);
	uint acc = 0;
	for (uint k = 0; k < 96; k++)
		acc += big[(lid * 97 + k * 64) % 6144];
	out[get_global_id(0)] = acc;
}
