/* Corpus: conversions between binary32 and integers with the explicit
 * rounding modes and saturation of OpenCL C 6.2.3 (the _sat forms define
 * NaN -> 0 and clamp out-of-range values; plain conversions are only fed
 * in-range values), integer -> float with every rounding mode, and
 * reinterpretation. */
#pragma OPENCL FP_CONTRACT OFF

#define K_F2I 16
__kernel void f32_to_int(__global const float *a, __global int *out)
{
	size_t i = get_global_id(0);
	float x = a[i];
	__global int *o = out + i * K_F2I;
	o[0] = convert_int_sat(x);
	o[1] = convert_int_sat_rte(x);
	o[2] = convert_int_sat_rtp(x);
	o[3] = convert_int_sat_rtn(x);
	o[4] = (int)convert_uint_sat(x);
	o[5] = (int)convert_uint_sat_rte(x);
	o[6] = convert_short_sat(x);
	o[7] = convert_uchar_sat_rtp(x);
	o[8] = convert_char_sat_rtn(x);
	o[9] = (int)convert_ushort_sat_rte(x);
	long l = convert_long_sat(x);
	o[10] = (int)l;
	o[11] = (int)(l >> 32);
	ulong ul = convert_ulong_sat_rtp(x);
	o[12] = (int)ul;
	o[13] = (int)(ul >> 32);
	float c = clamp(x, -1.0e6f, 1.0e6f);   /* in range for the unsaturated forms */
	o[14] = isnan(c) ? 0 : convert_int(c);
	o[15] = isnan(c) ? 0 : convert_int_rtp(c) * 3 + convert_int_rte(c);
}

#define K_I2F 12
__kernel void int_to_f32(__global const int *a, __global const long *b, __global float *out)
{
	size_t i = get_global_id(0);
	int x = a[i];
	long y = b[i];
	__global float *o = out + i * K_I2F;
	o[0] = convert_float(x);
	o[1] = convert_float_rtz(x);
	o[2] = convert_float_rtp(x);
	o[3] = convert_float_rtn(x);
	o[4] = convert_float((uint)x);
	o[5] = convert_float_rtp((uint)x);
	o[6] = convert_float(y);
	o[7] = convert_float_rtz(y);
	o[8] = convert_float_rtn((ulong)y);
	o[9] = convert_float((short)x) + convert_float((uchar)y);
	o[10] = (float)(char)x * 0.25f;
	o[11] = convert_float_rtp((ulong)y);
}

#define K_BITS 8
__kernel void f32_bitcast(__global const float *a, __global const double *d, __global uint *out)
{
	size_t i = get_global_id(0);
	float x = a[i];
	__global uint *o = out + i * K_BITS;
	uint2 u2 = as_uint2(d[i]);
	uchar4 c4 = as_uchar4(x);
	o[0] = as_uint(x);
	o[1] = u2.x;
	o[2] = u2.y;
	o[3] = as_uint(as_float(as_uint(x) ^ 0x80000000u));
	o[4] = c4.x | (c4.w << 8) | ((uint)c4.y << 16) | ((uint)c4.z << 24);
	o[5] = as_uint(as_float(u2.x | 0x3f800000u));
	o[6] = as_uint((float)d[i]);                 /* double -> float, round to nearest */
	o[7] = as_uint(convert_float_rtz(d[i]));
}
