// Corpus: HIP tiled matrix multiply (unsigned, wrapping) with __shared__
// tiles, __syncthreads and a 2-D grid of 16x16 blocks; also atomicAdd and
// atomicMax on a global checksum. OpenCL twin: matmul_hip.cl.
#include <hip/hip_runtime.h>

#define T 16
extern "C" __global__ void matmul_hip(const unsigned *a, const unsigned *b, unsigned *c, unsigned *sum,
				      unsigned n)
{
	__shared__ unsigned ta[T][T], tb[T][T];
	unsigned row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
	unsigned acc = 0;
	for (unsigned t = 0; t < n / T; t++) {
		ta[threadIdx.y][threadIdx.x] = a[row * n + t * T + threadIdx.x];
		tb[threadIdx.y][threadIdx.x] = b[(t * T + threadIdx.y) * n + col];
		__syncthreads();
		for (unsigned k = 0; k < T; k++)
			acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
		__syncthreads();
	}
	c[row * n + col] = acc;
	atomicAdd(&sum[0], acc);
	atomicMax(&sum[1], acc);
}
