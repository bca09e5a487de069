/* FMA-bound: 8 independent chains per lane, 8192 FLOPs per lane (the
 * roofline test counts 2 FLOPs per FMA x 8 chains x 512 steps). */
__kernel void fma_peak(__global float *out, float a, float b)
{
	float x0 = (float)get_global_id(0), x1 = x0 + 1.0f, x2 = x0 + 2.0f, x3 = x0 + 3.0f;
	float x4 = x0 + 4.0f, x5 = x0 + 5.0f, x6 = x0 + 6.0f, x7 = x0 + 7.0f;
#pragma unroll 16
	for (int i = 0; i < 512; i++) {
		x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b);
		x4 = fma(x4, a, b); x5 = fma(x5, a, b); x6 = fma(x6, a, b); x7 = fma(x7, a, b);
	}
	out[get_global_id(0)] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
}
