/* VALU throughput by class (bench/fidelity.py: the VALU rows): eight
 * independent chains per lane, 256 steps, so that dependent-issue latency is
 * hidden by the other chains and waves and the pipe's rate shows. The
 * results are folded and stored so nothing is dead. */
#define CHAINS(T, init, op)                                                            \
	T x0 = init, x1 = x0 + (T)1, x2 = x0 + (T)2, x3 = x0 + (T)3;                    \
	T x4 = x0 + (T)4, x5 = x0 + (T)5, x6 = x0 + (T)6, x7 = x0 + (T)7;               \
	for (int i = 0; i < 256; i++) {                                                 \
		x0 = op(x0); x1 = op(x1); x2 = op(x2); x3 = op(x3);                         \
		x4 = op(x4); x5 = op(x5); x6 = op(x6); x7 = op(x7);                         \
	}

/* v_fma_f32 (v_fmac_f32): 2048 per lane */
__kernel void valu_fma(__global float *out, float a, float b)
{
#define FMA32(x) fma(x, a, b)
	CHAINS(float, (float)get_global_id(0), FMA32)
	out[get_global_id(0)] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
}

/* v_exp_f32 (transcendental unit): 2048 per lane */
__kernel void valu_trans(__global float *out, float a)
{
#define EXP32(x) native_exp2(x)
	CHAINS(float, (float)get_global_id(0) * a, EXP32)
	out[get_global_id(0)] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
}

/* v_fma_f64: 2048 per lane */
__kernel void valu_fp64(__global double *out, double a, double b)
{
#define FMA64(x) fma(x, a, b)
	CHAINS(double, (double)get_global_id(0), FMA64)
	out[get_global_id(0)] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
}

/* v_xad_u32 (xor then add, 32-bit integer): 2048 per lane */
__kernel void valu_int(__global uint *out, uint a, uint b)
{
#define XAD(x) ((x ^ a) + b)
	CHAINS(uint, (uint)get_global_id(0), XAD)
	out[get_global_id(0)] = ((x0 ^ x1) ^ (x2 ^ x3)) ^ ((x4 ^ x5) ^ (x6 ^ x7));
}
