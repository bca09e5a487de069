/* Corpus: integer division and remainder. The divisors are never 0 and
 * INT_MIN / -1 is never formed (both unspecified in OpenCL C 6.3), so every
 * result is defined; clang expands 32-bit division into v_rcp_iflag_f32 +
 * correction steps, 64-bit division into a long integer sequence, and
 * division by constants into multiply-high sequences. */

#define K_DIV 8
__kernel void int_divrem(__global const int *a, __global const int *b, __global int *out)
{
	size_t i = get_global_id(0);
	int x = a[i], y = b[i];
	uint ux = (uint)x, uy = (uint)y;
	__global int *o = out + i * K_DIV;
	o[0] = x / y;
	o[1] = x % y;
	o[2] = (int)(ux / uy);
	o[3] = (int)(ux % uy);
	o[4] = (int)((ushort)x / (ushort)(uy | 1u));
	o[5] = (int)((char)x / (char)(y | 1));
	o[6] = (int)((short)x % (short)(y | 1));
	o[7] = (int)((uchar)x % (uchar)(uy | 1u));
}

#define K_DIVC 10
__kernel void int_divconst(__global const int *a, __global int *out)
{
	size_t i = get_global_id(0);
	int x = a[i];
	uint ux = (uint)x;
	__global int *o = out + i * K_DIVC;
	o[0] = x / 7;
	o[1] = x % 7;
	o[2] = x / -3;
	o[3] = (int)(ux / 10u);
	o[4] = (int)(ux % 1000u);
	o[5] = x / 16;
	o[6] = x % 16;
	o[7] = (int)(ux / 0x80000001u);
	o[8] = x / 641;
	o[9] = (int)(ux / 3u * 3u + ux % 3u);
}

#define K_LDIV 6
__kernel void long_divrem(__global const long *a, __global const long *b, __global long *out)
{
	size_t i = get_global_id(0);
	long x = a[i], y = b[i];
	ulong ux = (ulong)x, uy = (ulong)y;
	__global long *o = out + i * K_LDIV;
	o[0] = x / y;
	o[1] = x % y;
	o[2] = (long)(ux / uy);
	o[3] = (long)(ux % uy);
	o[4] = x / 1000000007L;
	o[5] = (long)(ux % 0xfffffffbul);
}
