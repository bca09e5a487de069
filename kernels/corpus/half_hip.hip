// Corpus: HIP binary16 arithmetic (_Float16 scalars -> v_add_f16, v_mul_f16,
// v_fma_f16 / v_fmac_f16, v_max_f16 ...; 2-element vectors -> v_pk_add_f16,
// v_pk_mul_f16, v_pk_fma_f16). The OpenCL twin half_hip.cl computes in
// float/double and rounds once with vstore_half (exact: see the twin).
#include <hip/hip_runtime.h>

// HIP contracts a * b + c by default; every fused operation here is explicit.
#pragma clang fp contract(off)

typedef _Float16 h2 __attribute__((ext_vector_type(2)));

#define K 10
extern "C" __global__ void half_hip(const _Float16 *a, const _Float16 *b, const _Float16 *c,
				    _Float16 *out)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	_Float16 x = a[i], y = b[i], z = c[i];
	_Float16 *o = out + i * K;
	o[0] = x + y;
	o[1] = x - z;
	o[2] = x * y;
	o[3] = __builtin_fmaf16(x, y, z);
	o[4] = __builtin_fmaxf16(x, z);
	o[5] = __builtin_fminf16(y, z);
	h2 p = (h2){x, y} + (h2){z, x};
	h2 q = (h2){x, z} * (h2){y, y};
	h2 r;
	{
#pragma clang fp contract(fast)
		r = (h2){y, z} * (h2){z, x} + (h2){x, y};   // one v_pk_fma_f16
	}
	o[6] = p.x; o[7] = p.y + q.x;
	o[8] = q.y; o[9] = r.x - r.y;
}
