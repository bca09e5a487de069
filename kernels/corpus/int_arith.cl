/* Corpus: 32-bit integer arithmetic (wrapping add/sub/mul through uint,
 * mul_hi, mad24/mul24, abs, abs_diff), shifts and rotates by amounts up to
 * 70 (OpenCL C masks the shift count to the operand width: 6.3.j), bit
 * counting and saturating / halving arithmetic on int, uint, short, char.
 * Every work-item reads a[i], b[i] and writes K results at out[i*K ...]. */

#define K_ADDSUB 12
__kernel void int_addsub(__global const int *a, __global const int *b, __global int *out)
{
	size_t i = get_global_id(0);
	int x = a[i], y = b[i];
	uint ux = (uint)x, uy = (uint)y;
	__global int *o = out + i * K_ADDSUB;
	o[0] = (int)(ux + uy);
	o[1] = (int)(ux - uy);
	o[2] = (int)(0u - ux);
	o[3] = (int)(ux * uy);
	o[4] = mul_hi(x, y);
	o[5] = (int)mul_hi(ux, uy);
	o[6] = (int)((uint)mul24((int)((uint)x << 8) >> 8, y >> 8) + ux);   /* 24-bit operands in range */
	o[7] = (int)mul24(ux & 0x7fffff, uy & 0x7fffff);
	o[8] = (int)abs(x);                            /* abs(INT_MIN) = INT_MIN as uint */
	o[9] = (int)abs_diff(x, y);
	o[10] = (int)mad_hi(ux, uy, ux);
	o[11] = (int)(ux * 0x9e3779b9u + (uy ^ 0x7f4a7c15u));
}

#define K_SHIFT 10
__kernel void int_shift(__global const int *a, __global const int *b, __global int *out)
{
	size_t i = get_global_id(0);
	int x = a[i];
	uint s = (uint)b[i] % 71u;                     /* 0..70: counts >= 32 are masked */
	__global int *o = out + i * K_SHIFT;
	o[0] = (int)((uint)x << s);
	o[1] = x >> s;                                 /* arithmetic */
	o[2] = (int)((uint)x >> s);
	o[3] = rotate(x, (int)s);
	o[4] = (int)rotate((uint)x, (uint)(32u - (s & 31u)));
	o[5] = (int)((uint)x << 31);
	o[6] = x >> 31;
	o[7] = (int)((uint)(ushort)x << (s & 15u));
	o[8] = (int)(short)((short)x >> (s % 17u));
	o[9] = (int)(uchar)((uchar)x << (s % 9u));
}

#define K_BITS 12
__kernel void int_bits(__global const int *a, __global const int *b, __global int *out)
{
	size_t i = get_global_id(0);
	int x = a[i], y = b[i];
	__global int *o = out + i * K_BITS;
	o[0] = clz(x);
	o[1] = popcount(x);
	o[2] = clz((uint)x >> 7);
	o[3] = (x & y) | (~x ^ y);
	o[4] = (int)upsample((short)x, (ushort)y);
	o[5] = (int)upsample((uchar)x, (uchar)y);
	o[6] = (int)bitselect((uint)x, (uint)y, 0x0ff00ff0u);
	o[7] = popcount(((uint)x & (0u - (uint)x)) - 1u);   /* ctz, 32 for 0 */
	o[8] = (int)clz((ushort)x);
	o[9] = (int)popcount((char)y);
	o[10] = (x > y) - (x < y);
	o[11] = select(x, y, x > y);
}

#define K_SAT 16
__kernel void int_sat(__global const int *a, __global const int *b, __global int *out)
{
	size_t i = get_global_id(0);
	int x = a[i], y = b[i];
	uint ux = (uint)x, uy = (uint)y;
	short sx = (short)x, sy = (short)y;
	char cx = (char)x, cy = (char)y;
	__global int *o = out + i * K_SAT;
	o[0] = add_sat(x, y);
	o[1] = sub_sat(x, y);
	o[2] = (int)add_sat(ux, uy);
	o[3] = (int)sub_sat(ux, uy);
	o[4] = hadd(x, y);
	o[5] = rhadd(x, y);
	o[6] = (int)hadd(ux, uy);
	o[7] = (int)rhadd(ux, uy);
	o[8] = add_sat(sx, sy);
	o[9] = sub_sat(cx, cy);
	o[10] = (int)add_sat((uchar)cx, (uchar)cy);
	o[11] = mad_sat(x, 3, y);
	o[12] = clamp(x, -1000, 1000);
	o[13] = (int)clamp(ux, 5u, 0x80000000u);
	o[14] = min(x, y) ^ max(x, y);
	o[15] = (int)(min(ux, uy) + max(sx, sy));
}
