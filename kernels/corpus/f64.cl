/* Corpus: binary64 (cl_khr_fp64). add/sub/mul/fma, division and sqrt are
 * correctly rounded for double in OpenCL (table 7.2: 0 ulp), so they
 * compare bit for bit: clang-15 lowers x / y to v_div_scale_f64 /
 * v_rcp_f64 / v_fma_f64 / v_div_fmas_f64 / v_div_fixup_f64 and sqrt to
 * v_rsq_f64 with Newton-Raphson steps and scaling. Conversions use the
 * explicit rounding modes; the transcendental functions are compared within
 * the table 7.2 ulp bounds (see tests/e2e/corpus_cases.py). */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

#define K_BASIC 10
__kernel void f64_basic(__global const double *a, __global const double *b, __global const double *c,
			__global double *out)
{
	size_t i = get_global_id(0);
	double x = a[i], y = b[i], z = c[i];
	__global double *o = out + i * K_BASIC;
	o[0] = x + y;
	o[1] = x - y;
	o[2] = x * y;
	o[3] = fma(x, y, z);
	o[4] = x / y;
	o[5] = sqrt(fabs(x));
	o[6] = sqrt(x);
	o[7] = fmin(x, y) + fmax(y, z);
	o[8] = copysign(z, x) * 0.125;
	o[9] = 1.0 / z;
}

#define K_CONV 14
__kernel void f64_conv(__global const double *a, __global const long *b, __global long *out)
{
	size_t i = get_global_id(0);
	double x = a[i];
	long y = b[i];
	__global long *o = out + i * K_CONV;
	o[0] = as_uint(convert_float(x));
	o[1] = as_uint(convert_float_rtz(x));
	o[2] = as_uint(convert_float_rtp(x));
	o[3] = as_uint(convert_float_rtn(x));
	o[4] = convert_int_sat(x);
	o[5] = convert_int_sat_rtp(x);
	o[6] = convert_uint_sat_rtn(x);
	o[7] = convert_long_sat(x);
	o[8] = (long)convert_ulong_sat_rte(x);
	o[9] = as_long(convert_double(y));
	o[10] = as_long(convert_double_rtz(y));
	o[11] = as_long(convert_double_rtp((ulong)y));
	o[12] = as_long(convert_double((int)y) + convert_double((uint)(y >> 32)));
	o[13] = as_long((double)as_float((uint)y));  /* float -> double, NaN payloads included */
}

#define K_ROUND 12
__kernel void f64_round(__global const double *a, __global const double *b, __global double *out)
{
	size_t i = get_global_id(0);
	double x = a[i], y = b[i];
	__global double *o = out + i * K_ROUND;
	int e;
	double ip;
	o[0] = floor(x);
	o[1] = ceil(x);
	o[2] = trunc(x);
	o[3] = copysign(round(x), x);   /* see f32_round */
	o[4] = rint(x);
	o[5] = frexp(x, &e);
	o[6] = as_double((long)(isfinite(x) ? e : 0));
	o[7] = ldexp(x, (int)(as_ulong(x) % 2001ul) - 1000);
	o[8] = fract(x, &ip);
	o[9] = ip;
	o[10] = fmod(x, y);
	o[11] = remainder(x, y);
}

#define K_MATH 10
__kernel void f64_math(__global const double *a, __global const double *b, __global double *out)
{
	size_t i = get_global_id(0);
	double x = a[i], y = b[i];
	__global double *o = out + i * K_MATH;
	o[0] = exp(x);
	o[1] = log(fabs(x));
	o[2] = sin(x);
	o[3] = cos(x);
	o[4] = pow(fabs(x), y);
	o[5] = atan2(x, y);
	o[6] = cbrt(x);
	o[7] = exp2(y);
	o[8] = log2(fabs(y));
	o[9] = tanh(x);
}
