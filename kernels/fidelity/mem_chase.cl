/* Pointer chasing (bench/fidelity.py: the latency rows). buf holds byte
 * offsets into itself forming one cycle over the working set, a line (128
 * bytes) apart, so each step is one load that depends on the one before.
 * The offset is added to the buffer's base by the load itself (the SADDR
 * form), so the chain has no address arithmetic between its loads. */

/* Vector path: the first offset comes from the lane id, so the compiler
 * cannot prove it uniform: global_load_dword, one lane active. */
__kernel void chase_v(__global const uint *buf, __global uint *out, uint steps)
{
	uint x = get_global_id(0) * 4u;
	for (uint s = 0; s < steps; s++)
		x = *(__global const uint *)((__global const uchar *)buf + x);
	out[get_global_id(0)] = x;
}

/* Scalar path: a uniform offset into a read-only buffer: s_load_dword. */
__kernel void chase_s(__global const uint *restrict buf, __global uint *restrict out, uint steps, uint start)
{
	uint x = start;
	for (uint s = 0; s < steps; s++)
		x = *(__global const uint *)((__global const uchar *)buf + x);
	out[0] = x;
}
