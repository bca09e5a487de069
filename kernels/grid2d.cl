/* A 2-D grid: out(x, y) = 3x3 box filter of in, clamped at the edges, plus
 * the coordinates so that a wrong work-item id shows in the result. */
__kernel void grid2d(__global const float *in, __global float *out, uint w, uint h)
{
	uint x = get_global_id(0), y = get_global_id(1);
	if (x >= w || y >= h)
		return;
	float s = 0.0f;
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) {
			int xx = clamp((int)x + dx, 0, (int)w - 1);
			int yy = clamp((int)y + dy, 0, (int)h - 1);
			s += in[yy * w + xx];
		}
	out[y * w + x] = s * (1.0f / 9.0f) + (float)(x * 1000u + y);
}
