/* VS: passes position and colour through (input 0: position, 1: colour).
 * PARAM0 = colour. Body convention: docs/graphics.md section 1.5. */
typedef struct { float4 pos; float4 color; } VSOut;

VSOut vs_main(float4 position, float4 color)
{
	VSOut o;
	o.pos = position;
	o.color = color;
	return o;
}
