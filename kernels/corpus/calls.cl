/* Corpus: real calls (noinline functions: s_swappc_b64, frames and spills
 * in scratch, stack pointer s32): many arguments (more than the argument
 * VGPRs, so some go on the stack), a struct returned by value, private
 * arrays passed by pointer, calls four deep, calls from divergent
 * branches, and functions taking __local and __global pointers. No
 * recursion (OpenCL C forbids it). */
#pragma OPENCL FP_CONTRACT OFF

typedef struct res3 {
	int a;
	float b;
	long c;
} res3;

__attribute__((noinline)) int leaf(int x, int y)
{
	return (x * 3) ^ (y + 17);
}

__attribute__((noinline)) int many_args(int a0, int a1, int a2, int a3, int a4, int a5, int a6, int a7,
					int a8, int a9, int a10, int a11, int a12, int a13, int a14,
					int a15, int a16, int a17, int a18, int a19, int a20, int a21,
					int a22, int a23, int a24, int a25, int a26, int a27, int a28,
					int a29, int a30, int a31, int a32, int a33, int a34, int a35)
{
	return a0 - a1 + a2 * 2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 + a15 +
	       a16 + a17 + a18 + a19 + a20 + a21 + a22 + a23 + a24 + a25 + a26 + a27 + a28 + a29 +
	       a30 + a31 + a32 + a33 * 5 + a34 + a35 * 7;
}

__attribute__((noinline)) res3 make_res(int x, float f)
{
	res3 r;
	r.a = leaf(x, x >> 2);
	r.b = f * 1.5f + (float)r.a;
	r.c = (long)x * 100000L + r.a;
	return r;
}

__attribute__((noinline)) void fill(int *arr, int n, int seed)
{
	for (int k = 0; k < n; k++)
		arr[k] = leaf(seed, k);
}

__attribute__((noinline)) int sum_rev(const int *arr, int n)
{
	uint s = 0;
	for (int k = n - 1; k >= 0; k--)
		s = s * 7u + (uint)arr[k];
	return (int)s;
}

__attribute__((noinline)) int depth3(int x);
__attribute__((noinline)) int depth4(int x) { return leaf(x, 1) + 1; }
__attribute__((noinline)) int depth3(int x) { return depth4(x + 1) * 2; }
__attribute__((noinline)) int depth2(int x)
{
	int arr[10];
	fill(arr, 10, x);
	return (int)((uint)depth3(x) + (uint)sum_rev(arr, 10));
}

__kernel void call_noinline(__global const int *in, __global int *out)
{
	size_t i = get_global_id(0);
	int x = in[i] & 0xfffff;                  /* no signed overflow anywhere */
	int r0 = many_args(x, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
			   21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, x >> 3, (int)i, x & 7);
	res3 r = make_res(x, (float)i);
	int r2 = 0;
	if (x & 1)
		r2 = depth2(x);                   /* called from a divergent branch */
	else if (i & 2)
		r2 = leaf(x, (int)i);
	__global int *o = out + i * 6;
	o[0] = r0;
	o[1] = r.a;
	o[2] = as_int(r.b);
	o[3] = (int)r.c;
	o[4] = (int)(r.c >> 32);
	o[5] = r2;
}

__attribute__((noinline)) void to_local(__local int *l, __global const int *g, uint i)
{
	l[i] = g[i] * 2 + 1;
}

__attribute__((noinline)) int from_local(__local const int *l, uint i, uint n)
{
	return l[(i + 1) % n] - l[i];
}

__kernel void call_local(__global const int *in, __global int *out)
{
	__local int buf[64];
	uint lid = get_local_id(0), n = get_local_size(0);
	to_local(buf, in + get_group_id(0) * n, lid);
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = from_local(buf, lid, n);
}
