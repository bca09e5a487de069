/* OpenCL twin of half_hip.hip (PoCL oracle, no cl_khr_fp16): every binary16
 * operation is computed in float (sum, difference, product of binary16
 * values: rounding the binary32 result once to binary16 is exact rounding)
 * or, for fma, in double (the inputs are normal with exponents in [-7, 7],
 * so a * b + c is exact in binary64) and rounded once with vstore_half. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

static float rh(float v)
{
	ushort t[1];
	vstore_half_rte(v, 0, (half *)t);
	return vload_half(0, (half *)t);
}

static float rhd(double v)
{
	ushort t[1];
	vstore_half_rte(v, 0, (half *)t);
	return vload_half(0, (half *)t);
}

#define K 10
__kernel void half_hip(__global const half *a, __global const half *b, __global const half *c,
		       __global half *out)
{
	size_t i = get_global_id(0);
	float x = vload_half(i, a), y = vload_half(i, b), z = vload_half(i, c);
	__global half *o = out + i * K;
	vstore_half_rte(x + y, 0, o);
	vstore_half_rte(x - z, 1, o);
	vstore_half_rte(x * y, 2, o);
	vstore_half_rte((double)x * (double)y + (double)z, 3, o);
	vstore_half_rte(fmax(x, z), 4, o);
	vstore_half_rte(fmin(y, z), 5, o);
	float px = rh(x + z), py = rh(y + x);
	float qx = rh(x * y), qy = rh(z * y);
	float rx = rhd((double)y * (double)z + (double)x), ry = rhd((double)z * (double)x + (double)y);
	vstore_half_rte(px, 6, o);
	vstore_half_rte(py + qx, 7, o);
	vstore_half_rte(qy, 8, o);
	vstore_half_rte(rx - ry, 9, o);
}
