/* Corpus: global memory shapes: sub-dword loads and stores (char, uchar2,
 * short3, ushort4, byte stores of neighbouring lanes into one dword),
 * vectors (float4, int8, float16, double2, vload3/vstore3 and unaligned
 * vloadN offsets, shuffles and swizzles), structs with mixed fields and
 * padding, and 64-bit pointer arithmetic. */
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void mem_subdword(__global const char *c, __global const uchar2 *u2, __global const short *s,
			   __global const ushort4 *u4, __global uchar *ob, __global short *os,
			   __global int *oi)
{
	size_t i = get_global_id(0);
	char x = c[i];
	uchar2 y = u2[i];
	short z = s[i];
	ushort4 w = u4[i];
	ob[i] = (uchar)(x + y.x);                      /* neighbouring lanes share dwords */
	ob[get_global_size(0) + i * 2] = y.y;
	ob[get_global_size(0) + i * 2 + 1] = (uchar)(x ^ y.x);
	short3 t = vload3(i, s + 1);                   /* 6-byte stride, unaligned */
	vstore3((short3)(t.z, t.x, (short)(t.y + z)), i, os);
	oi[i * 4 + 0] = x;                             /* sign extension */
	oi[i * 4 + 1] = (int)y.x + (int)y.y * 1000;
	oi[i * 4 + 2] = z * (int)w.w;
	oi[i * 4 + 3] = (int)(w.x ^ w.y ^ w.z) - (short)w.w;
}

__kernel void mem_vector(__global const float4 *f4, __global const int8 *i8, __global const float *f,
			 __global const double2 *d2, __global float4 *of4, __global int8 *oi8,
			 __global float16 *of16, __global double2 *od2)
{
	size_t i = get_global_id(0);
	float4 a = f4[i];
	int8 b = i8[i];
	float4 u = vload4(0, f + i * 4 + 1);           /* misaligned by one float */
	float3 v3 = vload3(i, f + 2);
	of4[i] = a.wzyx + u.xxyy * (float4)(1.0f, 2.0f, 0.5f, -1.0f) + (float4)(v3, 1.0f);
	int8 s = shuffle(b, (uint8)(7, 6, 5, 4, 0, 1, 2, 3));
	oi8[i] = s + (int8)(b.s0123, b.s4567 >> 1) - (int8)((int)i);
	float16 w = (float16)(a, u, a.yxwz, (float4)((float)i));
	of16[i] = w * 2.0f + shuffle2(a, u, (uint16)(0, 4, 1, 5, 2, 6, 3, 7, 7, 3, 6, 2, 5, 1, 4, 0));
	double2 d = d2[i];
	od2[i] = d.yx + (double2)((double)a.x, (double)b.s7);
}

typedef struct rec {
	char tag;
	short count;
	int id;
	float weight;
	double value;
	uchar flags[3];
	long big;
} rec;

typedef struct pair {
	rec r;
	float2 pos;
	int link;
} pair;

__kernel void mem_struct(__global const pair *in, __global pair *out, __global int *sizes)
{
	size_t i = get_global_id(0), n = get_global_size(0);
	pair p = in[i];
	pair q = in[(i + 1) % n];
	p.r.tag = (char)(p.r.tag + q.r.tag);
	p.r.count = (short)(p.r.count - q.r.count);
	p.r.id ^= q.link;
	p.r.weight = p.r.weight * 2.0f + q.pos.y;
	p.r.value = p.r.value - (double)q.r.id;
	p.r.flags[1] = (uchar)(p.r.flags[0] | q.r.flags[2]);
	p.r.big += q.r.big >> 3;
	p.pos = p.pos.yx;
	p.link = (int)i;
	out[n - 1 - i] = p;
	if (i == 0) {
		sizes[0] = (int)sizeof(rec);
		sizes[1] = (int)sizeof(pair);
		sizes[2] = (int)__builtin_offsetof(rec, value);
		sizes[3] = (int)__builtin_offsetof(pair, link);
	}
}

/* Pointer arithmetic in 64 bits: an index table walked as a linked list,
 * long strides, pointer differences and comparisons, selects of pointers. */
__kernel void mem_ptr64(__global const uint *next, __global const long *vals, __global long *out,
			ulong stride)
{
	size_t i = get_global_id(0), n = get_global_size(0);
	__global const long *base = vals;
	__global const long *p = base + i;
	long acc = 0;
	uint k = (uint)i;
	for (int step = 0; step < 12; step++) {
		k = next[k];
		acc += *(base + k) ^ (long)(p - base);
		p = (k & 1) ? base + k : p;
	}
	__global const long *far = base + (i * stride) % (n * 4);
	__global const char *cp = (__global const char *)far + 3;
	ulong diff = (ulong)((__global const char *)p - (__global const char *)base);
	out[i * 4 + 0] = acc;
	out[i * 4 + 1] = *far + (long)(p > far) - (long)(p == far);
	out[i * 4 + 2] = (long)diff;
	out[i * 4 + 3] = (long)*cp + (long)(((ulong)cp - (ulong)base) & 0xfff);
}

/* Dword gathers and a scatter by computed indices, the shapes the
 * interpreter takes apart: a stride of 7 dwords over a 4 KiB table (a
 * wave's lanes in one or two host pages), an index read from the data over
 * 64 KiB (lanes in many pages), and a scatter that is a permutation (13 is
 * odd: i * 13 mod 4096 never repeats for i < 4096). */
__kernel void mem_gather(__global const uint *in, __global uint *out, __global uint *sc)
{
	uint i = get_global_id(0);
	uint a = 0;
	for (uint k = 0; k < 4; k++)
		a = a * 3u + in[(i * 7u + k) & 1023u];
	uint b = in[in[i] & 16383u];
	out[i] = a ^ (b << 1);
	sc[(i * 13u) & 4095u] = a + i;
}
