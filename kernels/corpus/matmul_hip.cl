/* OpenCL twin of matmul_hip.hip (PoCL oracle). */
#define T 16
__kernel __attribute__((reqd_work_group_size(T, T, 1)))
void matmul_hip(__global const uint *a, __global const uint *b, __global uint *c, __global uint *sum,
		uint n)
{
	__local uint ta[T][T], tb[T][T];
	uint lx = get_local_id(0), ly = get_local_id(1);
	uint row = get_group_id(1) * T + ly, col = get_group_id(0) * T + lx;
	uint acc = 0;
	for (uint t = 0; t < n / T; t++) {
		ta[ly][lx] = a[row * n + t * T + lx];
		tb[ly][lx] = b[(t * T + ly) * n + col];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (uint k = 0; k < T; k++)
			acc += ta[ly][k] * tb[k][lx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	c[row * n + col] = acc;
	atomic_add(&sum[0], acc);
	atomic_max(&sum[1], acc);
}
