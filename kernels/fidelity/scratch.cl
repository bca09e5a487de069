/* Scratch (bench/fidelity.py: the scratch rows): a private array indexed by
 * data lives in scratch memory (buffer_load_dword / scratch_load_dword). */

/* Latency: a dependent chain through the private array. */
__kernel void scratch_lat(__global const uint *in, __global uint *out, uint steps)
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

/* Throughput: eight independent reads of the private array per step, at
 * an index that depends neither on the data nor on the lane (one scratch
 * line per read and wave32). */
__kernel void scratch_bw(__global const uint *in, __global uint *out, uint steps)
{
	uint p[64];
	uint i = get_global_id(0);
	for (int k = 0; k < 64; k++)
		p[k] = in[(i * 7u + (uint)k) & 1023u];
	uint a = 0, b = 0;
	for (uint s = 0; s < steps; s++) {
		uint j = s & 7u;
		a ^= p[j] ^ p[j + 8] ^ p[j + 16] ^ p[j + 24];
		b ^= p[j + 32] ^ p[j + 40] ^ p[j + 48] ^ p[j + 56];
	}
	out[i] = a + b;
}
