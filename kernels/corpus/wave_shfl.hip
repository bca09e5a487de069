// Corpus: HIP wave-level operations (wave32 on gfx1030): __shfl, __shfl_xor,
// __shfl_up, __shfl_down (ds_bpermute_b32), __ballot (v_cmp to an SGPR
// mask), __any, __all, __popcll, __lane_id-style mbcnt. The OpenCL twin
// wave_shfl.cl computes the same through LDS on PoCL. Blocks of 64 = two
// waves; no lane ever reads an inactive lane.
#include <hip/hip_runtime.h>

#define K 9
extern "C" __global__ void wave_shfl(const int *in, int *out)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned lane = threadIdx.x & 31u;
	int v = in[i];
	int *o = out + i * K;
	o[0] = __shfl(v, (int)((lane * 7u + 3u) & 31u));
	o[1] = __shfl_xor(v, 5);
	o[2] = __shfl_up(v, 3);
	o[3] = __shfl_down(v, 4);
	unsigned long long b = __ballot(v & 1);
	o[4] = (int)(unsigned)b;
	o[5] = (int)(unsigned)(b >> 32);
	o[6] = __any(v > 1000000) | (__all(v != 0) << 1);
	o[7] = __popcll(__ballot(v < 0));
	o[8] = (int)((unsigned)__shfl(v, 31) + (unsigned)__shfl(v, 0));
}
