/* Corpus: 64-bit integer arithmetic: wrapping add/sub/mul through ulong,
 * mul_hi, shifts and rotates by 0..140 (masked to 6 bits by OpenCL C),
 * bit counting, saturating and halving arithmetic, comparisons. */

#define K_LONG 16
__kernel void long_arith(__global const long *a, __global const long *b, __global long *out)
{
	size_t i = get_global_id(0);
	long x = a[i], y = b[i];
	ulong ux = (ulong)x, uy = (ulong)y;
	uint s = (uint)uy % 141u;
	__global long *o = out + i * K_LONG;
	o[0] = (long)(ux + uy);
	o[1] = (long)(ux - uy);
	o[2] = (long)(ux * uy);
	o[3] = mul_hi(x, y);
	o[4] = (long)mul_hi(ux, uy);
	o[5] = (long)(ux << s);
	o[6] = x >> s;
	o[7] = (long)(ux >> s);
	o[8] = rotate(x, (long)s);
	o[9] = clz(x) + 100 * popcount(y);
	o[10] = add_sat(x, y);
	o[11] = (long)sub_sat(ux, uy);
	o[12] = hadd(x, y) ^ rhadd(x, y);
	o[13] = (long)(abs(x) + abs_diff(x, y));
	o[14] = (x < y) | ((ux < uy) << 1) | ((x == y) << 2) | ((long)(x >= 0) << 3);
	o[15] = (long)(ux * 0x9e3779b97f4a7c15ul) >> 7;
}

/* Mixed 32/64-bit: widening multiplies, sign/zero extension, truncation. */
#define K_MIX 8
__kernel void long_mixed(__global const int *a, __global const int *b, __global long *out)
{
	size_t i = get_global_id(0);
	int x = a[i], y = b[i];
	__global long *o = out + i * K_MIX;
	o[0] = (long)x * (long)y;
	o[1] = (long)((ulong)(uint)x * (ulong)(uint)y);
	o[2] = (long)x + (long)(uint)y;
	o[3] = (long)(int)((long)x * 3 >> 1);
	o[4] = upsample(x, (uint)y);
	o[5] = (long)(short)x * (long)(char)y;
	o[6] = (long)((ulong)(long)x << 32) / (long)((y & 0x7fffffff) | 1);
	o[7] = (long)convert_int_sat((long)x * 65537L);
}
