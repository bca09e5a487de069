/* Corpus: private arrays indexed with run-time values, which clang places
 * in scratch (buffer/scratch instructions on the swizzled private segment):
 * an insertion sort, a private histogram, a private struct array and a
 * large array that stays in scratch even at -O2. */

__kernel void priv_sort(__global const uint *in, __global uint *out)
{
	size_t i = get_global_id(0);
	uint v[16];
	for (int k = 0; k < 16; k++)
		v[k] = in[i * 16 + k];
	for (int k = 1; k < 16; k++) {
		uint x = v[k];
		int j = k - 1;
		while (j >= 0 && v[j] > x) {
			v[j + 1] = v[j];
			j--;
		}
		v[j + 1] = x;
	}
	for (int k = 0; k < 16; k++)
		out[i * 16 + k] = v[k];
}

typedef struct cell {
	ushort key;
	uchar tag;
	float w;
} cell;

__kernel void priv_struct(__global const uint *in, __global uint *out)
{
	size_t i = get_global_id(0);
	cell c[12];
	uint seed = in[i];
	for (int k = 0; k < 12; k++) {
		seed = seed * 1103515245u + 12345u;
		c[k].key = (ushort)(seed >> 16);
		c[k].tag = (uchar)seed;
		c[k].w = (float)(seed >> 20) * 0.25f;
	}
	uint acc = 0;
	for (int k = 0; k < 24; k++) {
		uint j = (seed >> (k % 20)) % 12u;
		cell t = c[j];
		c[j] = c[(j + 5) % 12];
		c[(j + 5) % 12] = t;
		acc = acc * 31u + t.key + t.tag + (uint)t.w;
	}
	out[i] = acc;
}

__kernel void priv_big(__global const uint *in, __global uint *out)
{
	size_t i = get_global_id(0);
	uint buf[256];
	uint x = in[i];
	for (int k = 0; k < 256; k++)
		buf[k] = (uint)k * 2654435761u ^ x;
	for (int k = 0; k < 64; k++) {
		uint a = (x >> (k & 15)) & 255u, b = (x * (uint)k) & 255u;
		uint t = buf[a];
		buf[a] = buf[b] + (uint)k;
		buf[b] = t ^ a;
		x = x * 1664525u + 1013904223u;
	}
	uint h = 0;
	for (int k = 0; k < 256; k += 3)
		h = h * 33u + buf[k];
	out[i] = h;
}
