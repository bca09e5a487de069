/* A private array indexed by data: it cannot live in VGPRs, so it goes to
 * scratch (private_segment_fixed_size > 0) even at -O2. */
__kernel void private_spill(__global const uint *in, __global uint *out, uint n)
{
	uint i = get_global_id(0);
	uint hist[64];
	for (int k = 0; k < 64; k++)
		hist[k] = k * 3u + i;
	uint v = in[i % n];
	for (int k = 0; k < 32; k++) {
		uint idx = (v >> (k % 26)) & 63u;
		hist[idx] += v ^ (uint)k;
		v = v * 1664525u + 1013904223u;
	}
	uint acc = 0;
	for (int k = 0; k < 64; k++)
		acc = acc * 31u + hist[(k * 7) & 63];
	out[i] = acc;
}
