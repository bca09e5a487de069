/* Latency-bound scratch: a dependent chain of loads through a private
 * array indexed by data, so each step waits for the previous one. More
 * waves in flight (more scratch ring slots) hide more of the latency. */
__kernel void scratch_chase(__global const uint *in, __global uint *out, uint steps)
{
	uint p[64];
	uint i = get_global_id(0);
	for (int k = 0; k < 64; k++)
		p[k] = (in[(i * 7u + (uint)k) & 1023u] + (uint)k) & 63u;
	uint x = i & 63u;
	for (uint s = 0; s < steps; s++)
		x = p[x];
	out[i] = x;
}
