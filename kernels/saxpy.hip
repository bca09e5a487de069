// saxpy in HIP: y[i] = a * x[i] + y[i]. The OpenCL twin is saxpy.cl (PoCL oracle).
#include <hip/hip_runtime.h>

extern "C" __global__ void saxpy(float a, const float *x, float *y, unsigned n)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}
