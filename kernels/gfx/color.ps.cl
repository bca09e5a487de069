/* PS: outputs the interpolated colour (attribute 0) to MRT0. */
float4 ps_main(float4 color)
{
	return color;
}
