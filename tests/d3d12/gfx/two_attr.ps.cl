/* A PS reading attributes 0 and 1: with kernels/gfx/color.vs (PARAM0 only)
 * the pipeline's linkage check refuses it. */
float4 ps_main(float4 a, float4 b)
{
	return a + b;
}
