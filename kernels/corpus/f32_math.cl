/* Corpus: binary32 elementary functions (device-library code built on
 * v_exp_f32, v_log_f32, v_rcp_f32, v_rsq_f32, v_sqrt_f32, v_sin_f32,
 * v_cos_f32, v_frexp_*, v_ldexp_f32, v_fract_f32 ...). Compared with a
 * double-precision reference within the OpenCL 1.2 table 7.1 bound of each
 * function (the bounds are in tests/e2e/corpus_cases.py next to the case). */
#pragma OPENCL FP_CONTRACT OFF

#define K_TRIG 11
__kernel void f32_trig(__global const float *a, __global const float *b, __global float *out)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i];
	__global float *o = out + i * K_TRIG;
	o[0] = sin(x);
	o[1] = cos(x);
	o[2] = tan(x);
	o[3] = asin(y);
	o[4] = acos(y);
	o[5] = atan(x);
	o[6] = atan2(y, x);
	o[7] = sinpi(x);
	o[8] = cospi(x);
	float c;
	o[9] = sincos(x, &c);
	o[10] = c;
}

#define K_EXPLOG 12
__kernel void f32_explog(__global const float *a, __global const float *b, __global float *out)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i];
	__global float *o = out + i * K_EXPLOG;
	o[0] = exp(x);
	o[1] = exp2(x);
	o[2] = exp10(x);
	o[3] = expm1(x);
	o[4] = log(y);
	o[5] = log2(y);
	o[6] = log10(y);
	o[7] = log1p(y);
	o[8] = pow(y, x);
	o[9] = powr(y, x);
	o[10] = pown(x, (int)(as_uint(y) % 9u) - 4);
	o[11] = cbrt(x);
}

#define K_SQRT 6
__kernel void f32_sqrt(__global const float *a, __global const float *b, __global float *out)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i];
	__global float *o = out + i * K_SQRT;
	o[0] = sqrt(x);
	o[1] = rsqrt(x);
	o[2] = hypot(x, y);
	o[3] = sqrt(fabs(y));
	o[4] = rootn(x, 3);
	o[5] = sqrt(x * x + y * y);
}

#define K_HYP 8
__kernel void f32_hyper(__global const float *a, __global float *out)
{
	size_t i = get_global_id(0);
	float x = a[i];
	__global float *o = out + i * K_HYP;
	o[0] = sinh(x);
	o[1] = cosh(x);
	o[2] = tanh(x);
	o[3] = asinh(x);
	o[4] = acosh(fabs(x) + 1.0f);
	o[5] = atanh(x * 0.25f);
	o[6] = erf(x);
	o[7] = erfc(x);
}

/* native_* accuracy is implementation-defined (6.12.2) and half_* is bound
 * to 8192 ulp; the test holds both to the half_ bound on moderate inputs. */
#define K_NATIVE 12
__kernel void f32_native(__global const float *a, __global const float *b, __global float *out)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i];
	__global float *o = out + i * K_NATIVE;
	o[0] = native_sin(x);
	o[1] = native_cos(x);
	o[2] = native_exp(x);
	o[3] = native_exp2(x);
	o[4] = native_log(y);
	o[5] = native_log2(y);
	o[6] = native_sqrt(y);
	o[7] = native_rsqrt(y);
	o[8] = native_recip(y);
	o[9] = native_divide(x, y);
	o[10] = half_exp(x);
	o[11] = half_log(y);
}
