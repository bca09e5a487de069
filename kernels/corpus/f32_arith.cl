/* Corpus: binary32 arithmetic that IEEE 754 / OpenCL C define exactly:
 * add, sub, mul, fma, division (clang-15 lowers x / y with denormals on to
 * the v_div_scale / v_rcp / v_fma / v_div_fmas / v_div_fixup sequence,
 * which is correctly rounded), negation, fabs, copysign, fmin/fmax with NaN
 * operands, rounding to integral values, frexp/ldexp/ilogb, fmod,
 * remainder, remquo (0 ulp in table 7.1), comparisons and classification.
 * FP_CONTRACT is off so a * b + c is never fused on either side. */
#pragma OPENCL FP_CONTRACT OFF

#define K_BASIC 10
__kernel void f32_basic(__global const float *a, __global const float *b, __global const float *c,
			__global float *out)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i], z = c[i];
	__global float *o = out + i * K_BASIC;
	o[0] = x + y;
	o[1] = x - y;
	o[2] = x * y;
	o[3] = fma(x, y, z);
	o[4] = x * y + z;                      /* two roundings */
	o[5] = -x;
	o[6] = fabs(y);
	o[7] = copysign(x, y);
	o[8] = (x + y) * (x - z);
	o[9] = x * 0.5f - y * 4.0f;
}

#define K_DIV 4
__kernel void f32_div(__global const float *a, __global const float *b, __global float *out)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i];
	__global float *o = out + i * K_DIV;
	o[0] = x / y;
	o[1] = 1.0f / y;
	o[2] = y / 3.0f;
	o[3] = (x + 1.0f) / (y * y);
}

/* fmin/fmax: a NaN operand yields the other operand (6.12.2); the inputs
 * never pair -0 with +0 (either may be returned). */
#define K_MINMAX 8
__kernel void f32_minmax(__global const float *a, __global const float *b, __global float *out)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i];
	__global float *o = out + i * K_MINMAX;
	o[0] = fmin(x, y);
	o[1] = fmax(x, y);
	o[2] = fmin(fmax(x, -1.5f), 1.5f);
	o[3] = clamp(y, -2.0f, 8.0f);
	o[4] = fmax(x, 0.0f);
	o[5] = step(x, y);
	o[6] = fdim(x, y);
	o[7] = maxmag(x, y) + minmag(x, y);
}

#define K_ROUND 14
__kernel void f32_round(__global const float *a, __global float *out)
{
	size_t i = get_global_id(0);
	float x = a[i];
	__global float *o = out + i * K_ROUND;
	int e;
	float ip;
	o[0] = floor(x);
	o[1] = ceil(x);
	o[2] = trunc(x);
	o[3] = copysign(round(x), x);   /* clang-15 lowers round() as trunc(x) + 0 or +-1, losing -0 for x in (-0.5, -0] */
	o[4] = rint(x);
	o[5] = frexp(x, &e);
	o[6] = as_float(isfinite(x) ? e : 0);          /* unspecified for inf/NaN */
	o[7] = ldexp(x, (int)(as_uint(x) % 61u) - 30);
	o[8] = as_float(isfinite(x) && x != 0.0f ? ilogb(x) : 0);  /* FP_ILOGB0/NAN are implementation-defined */
	o[9] = logb(x);
	o[10] = modf(x, &ip);
	o[11] = ip;
	o[12] = fract(x, &ip);
	o[13] = nextafter(x, 0.0f);
}

#define K_FMOD 4
__kernel void f32_fmod(__global const float *a, __global const float *b, __global float *out)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i];
	__global float *o = out + i * K_FMOD;
	int q;
	o[0] = fmod(x, y);
	o[1] = remainder(x, y);
	o[2] = remquo(x, y, &q);
	o[3] = as_float(q & 7);           /* only the low 3 bits are specified */
}

/* Relational and classification functions: the integer results of the
 * scalar forms are 0/1, of the vector forms 0/-1 (6.12.6). */
#define K_CMP 14
__kernel void f32_cmp(__global const float *a, __global const float *b, __global int *out)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i];
	__global int *o = out + i * K_CMP;
	o[0] = isequal(x, y);
	o[1] = isnotequal(x, y);
	o[2] = isgreater(x, y) | (isgreaterequal(x, y) << 1) | (isless(x, y) << 2) | (islessequal(x, y) << 3);
	o[3] = islessgreater(x, y);
	o[4] = isfinite(x) | (isinf(x) << 1) | (isnan(x) << 2) | (isnormal(x) << 3);
	o[5] = isordered(x, y) | (isunordered(x, y) << 1);
	o[6] = signbit(x);
	o[7] = x < y ? 1 : (x == y ? 2 : (x > y ? 3 : 4));
	o[8] = !(x >= y);
	float4 v = (float4)(x, y, -x, x * y);
	int4 r = isless(v, (float4)(y, x, 0.0f, 1.0f));
	o[9] = r.x; o[10] = r.y; o[11] = r.z; o[12] = r.w;
	o[13] = any(isnan(v)) | (all(isfinite(v)) << 1);
}
