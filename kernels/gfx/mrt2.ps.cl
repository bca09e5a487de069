/* PS with two render targets: MRT0 = the colour, MRT1 = its complement
 * with the front-face flag in w. */
typedef struct { float4 c0; float4 c1; } PSOut;

PSOut ps_main(float4 color, uint front_face)
{
	PSOut o;
	o.c0 = color;
	o.c1 = (float4)(1.0f - color.x, 1.0f - color.y, 1.0f - color.z, front_face ? 1.0f : 0.0f);
	return o;
}
