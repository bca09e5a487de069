/* Corpus: binary16. PoCL has no cl_khr_fp16, so storage goes through
 * vload_half / vstore_half (core OpenCL C 1.2, 6.12.7) with every rounding
 * mode; half_arith computes in `half` where the device has cl_khr_fp16
 * (clang for gfx1030: v_add_f16, v_mul_f16, v_fma_f16 ...) and in float
 * elsewhere. Both give the same bits: a sum, difference, product or sqrt
 * of binary16 values computed in binary32 and rounded once to binary16 is
 * the correctly rounded binary16 result (24 >= 2 * 11 + 2), and the fma
 * inputs are limited so that a*b+c is exact in binary32. */
#pragma OPENCL FP_CONTRACT OFF

#define K_HCONV 10
__kernel void half_conv(__global const float *a, __global const ushort *h, __global ushort *out,
			__global float *outf)
{
	size_t i = get_global_id(0);
	float x = a[i];
	__global half *o = (__global half *)(out + i * K_HCONV);
	vstore_half(x, 0, o);
	vstore_half_rte(x, 1, o);
	vstore_half_rtz(x, 2, o);
	vstore_half_rtp(x, 3, o);
	vstore_half_rtn(x, 4, o);
	float4 v = (float4)(x, -x, x * 0.5f, x * 1024.0f);
	vstore_half4_rtz(v, 0, o + 5);
	vstore_half(x * 3.0f, 9, o);
	__global const half *hp = (__global const half *)h;
	float4 r = vload_half4(i, hp);
	outf[i * 5 + 0] = vload_half(0, hp + i * 4 + 1);
	vstore4(r, 0, outf + i * 5 + 1);
}

#define K_HARITH 8
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef half hreal;
typedef half2 hreal2;
#define HLOAD(p, i) ((p)[i])
#define HSTORE(v, p, i) ((p)[i] = (v))
#else
typedef float hreal;
typedef float2 hreal2;
#define HLOAD(p, i) vload_half(i, p)
#define HSTORE(v, p, i) vstore_half_rte(v, i, p)
#endif
/* rounds a float to binary16 precision on the float path (identity in half) */
#ifdef cl_khr_fp16
#define RH2(v) (v)
#else
static float2 RH2(float2 v)
{
	ushort t[2];
	vstore_half2_rte(v, 0, (half *)t);
	return vload_half2(0, (half *)t);
}
#endif
__kernel void half_arith(__global const ushort *a, __global const ushort *b, __global const ushort *c,
			 __global ushort *out)
{
	size_t i = get_global_id(0);
#ifdef cl_khr_fp16
	__global const half *pa = (__global const half *)a, *pb = (__global const half *)b,
			    *pc = (__global const half *)c;
	__global half *po = (__global half *)(out + i * K_HARITH);
#else
	__global const half *pa = (__global const half *)a, *pb = (__global const half *)b,
			    *pc = (__global const half *)c;
	__global half *po = (__global half *)(out + i * K_HARITH);
#endif
	hreal x = HLOAD(pa, i), y = HLOAD(pb, i), z = HLOAD(pc, i);
	HSTORE(x + y, po, 0);
	HSTORE(x - y, po, 1);
	HSTORE(x * y, po, 2);
	HSTORE(fmin(x, y), po, 3);
	HSTORE(fmax(x, z), po, 4);
	HSTORE(sqrt(fabs(x)), po, 5);
	HSTORE(-x * 4.0f, po, 6);                    /* exact scaling */
	HSTORE(y / 2.0f - z * 0.25f, po, 7);
}

/* Packed math: half2 multiply then add (v_pk_mul_f16 + v_pk_add_f16 on
 * gfx1030). The inputs have at most 5 significant bits and exponents in
 * [-6, 6], so every product is exact in binary16 and both sides round only
 * the final sum. */
#define K_HPK 4
__kernel void half_pk(__global const ushort *a, __global const ushort *b, __global const ushort *c,
		      __global ushort *out)
{
	size_t i = get_global_id(0);
	__global const half *pa = (__global const half *)a, *pb = (__global const half *)b,
			    *pc = (__global const half *)c;
	__global half *po = (__global half *)(out + i * K_HPK);
	hreal x = HLOAD(pa, i), y = HLOAD(pb, i), z = HLOAD(pc, i);
	hreal2 p = RH2((hreal2)(x, y) * (hreal2)(z, x));
	hreal2 q = RH2(p + (hreal2)(y, z));
	hreal2 r = RH2(q - (hreal2)(z, y));
	HSTORE(q.x, po, 0);
	HSTORE(q.y, po, 1);
	HSTORE(r.x, po, 2);
	HSTORE(r.y, po, 3);
}
