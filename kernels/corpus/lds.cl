/* Corpus: local memory (LDS) with barriers: a 2-D tile transpose, an
 * inclusive scan (Hillis-Steele), local atomics (histogram, min/max/and/
 * or/xor/add/sub, cmpxchg and xchg) and sub-dword / vector LDS accesses.
 * Every result is independent of the order in which lanes and waves run. */
#pragma OPENCL FP_CONTRACT OFF

#define TILE 16
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void lds_transpose(__global const float *in, __global float *out, uint w, uint h)
{
	__local float tile[TILE][TILE + 1];
	uint x = get_global_id(0), y = get_global_id(1);
	uint lx = get_local_id(0), ly = get_local_id(1);
	tile[ly][lx] = in[y * w + x];
	barrier(CLK_LOCAL_MEM_FENCE);
	uint ox = get_group_id(1) * TILE + lx, oy = get_group_id(0) * TILE + ly;
	out[oy * h + ox] = tile[lx][ly];
}

#define SCAN 128
__kernel __attribute__((reqd_work_group_size(SCAN, 1, 1)))
void lds_scan(__global const uint *in, __global uint *out)
{
	__local uint buf[2][SCAN];
	uint lid = get_local_id(0);
	int p = 0;
	buf[0][lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint off = 1; off < SCAN; off <<= 1) {
		uint v = buf[p][lid];
		if (lid >= off)
			v += buf[p][lid - off];
		buf[p ^ 1][lid] = v;
		p ^= 1;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	out[get_global_id(0)] = buf[p][lid];
}

#define BINS 32
__kernel void lds_histogram(__global const uint *in, __global uint *hist, uint n)
{
	__local uint h[BINS];
	uint lid = get_local_id(0);
	if (lid < BINS)
		h[lid] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint k = get_global_id(0); k < n; k += get_global_size(0))
		atomic_inc(&h[in[k] % BINS]);
	barrier(CLK_LOCAL_MEM_FENCE);
	if (lid < BINS)
		atomic_add(&hist[lid], h[lid]);
}

/* out per group: add, sub, min, max, umin, umax, and, or, xor, the sum of
 * xchg results plus the final value (order independent), cmpxchg counter. */
#define K_LAT 11
__kernel void lds_atomics(__global const int *in, __global int *out)
{
	__local int v[K_LAT];
	uint lid = get_local_id(0);
	if (lid == 0) {
		v[0] = 0; v[1] = 0; v[2] = 0x7fffffff; v[3] = (int)0x80000000; v[4] = -1;
		v[5] = 0; v[6] = -1; v[7] = 0; v[8] = 0; v[9] = 12345; v[10] = 0;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	int x = in[get_global_id(0)];
	atomic_add(&v[0], x);
	atomic_sub(&v[1], x >> 3);
	atomic_min(&v[2], x);
	atomic_max(&v[3], x);
	atomic_min((volatile __local uint *)&v[4], (uint)x);
	atomic_max((volatile __local uint *)&v[5], (uint)x);
	atomic_and(&v[6], x | (int)(1u << (lid & 31)));
	atomic_or(&v[7], x & 0x01010101);
	atomic_xor(&v[8], x);
	int old = atomic_xchg(&v[9], x);
	int cur, seen;
	do {
		cur = v[10];
		seen = atomic_cmpxchg(&v[10], cur, cur + 3);
	} while (seen != cur);
	barrier(CLK_LOCAL_MEM_FENCE);
	__local int xsum[1];
	if (lid == 0)
		xsum[0] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	atomic_add(&xsum[0], old);
	barrier(CLK_LOCAL_MEM_FENCE);
	if (lid == 0) {
		__global int *o = out + get_group_id(0) * (K_LAT + 1);
		for (int k = 0; k < K_LAT; k++)
			o[k] = v[k];
		o[9] = v[9] + xsum[0];            /* initial + sum of all x */
		o[K_LAT] = (int)get_local_size(0);
	}
}

/* LDS accessed as bytes, shorts, float4 and double, with a barrier between
 * the writes and the crossed reads. */
__kernel void lds_subdword(__global const uint *in, __global uint *out)
{
	__local uchar bytes[256];
	__local ushort shorts[128];
	__local float4 vec[64];
	uint lid = get_local_id(0);                   /* 64 work-items */
	uint x = in[get_global_id(0)];
	bytes[lid * 4 + 0] = (uchar)x;
	bytes[lid * 4 + 1] = (uchar)(x >> 8);
	bytes[lid * 4 + 2] = (uchar)(x >> 16);
	bytes[lid * 4 + 3] = (uchar)(x >> 24);
	shorts[lid * 2] = (ushort)(x ^ 0xa5a5u);
	shorts[lid * 2 + 1] = (ushort)(x >> 16);
	vec[lid] = (float4)((float)lid, (float)(x & 0xffff), -(float)lid, 0.5f);
	barrier(CLK_LOCAL_MEM_FENCE);
	uint j = 63u - lid;
	uint r0 = bytes[j * 4 + 3] | (uint)bytes[(j * 4 + 5) & 255] << 8;
	int r1 = (short)shorts[(j * 2 + 1) & 127] + (char)bytes[lid];
	float4 f = vec[j] + vec[(lid + 1) & 63];
	__global uint *o = out + get_global_id(0) * 6;
	o[0] = r0;
	o[1] = (uint)r1;
	o[2] = as_uint(f.x);
	o[3] = as_uint(f.y);
	o[4] = as_uint(f.z);
	o[5] = as_uint(f.w);
}
