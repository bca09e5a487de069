/* LDS (bench/fidelity.py: the LDS rows). */

/* Latency: every lane follows its own chain through the group's LDS, each
 * ds_read_b32 waiting for the one before (the 32 lanes read 128 bytes: one
 * clock of the bus). The table holds byte offsets, so no arithmetic sits
 * between the reads; lane l's chain stays in bank l (words l, l + 32, ...),
 * so the lanes never ask one bank for two words (docs/hardware.md section 8,
 * "LDS banks"): the latency alone, no bank conflict. */
__kernel void lds_chase(__global const uint *in, __global uint *out, uint steps)
{
	__local uint l[1024];
	uint lid = get_local_id(0);
	for (uint i = lid; i < 1024; i += get_local_size(0))
		l[i] = ((in[i] & 31u) * 32u + (i & 31u)) * 4u;
	barrier(CLK_LOCAL_MEM_FENCE);
	uint x = lid * 4u;
	for (uint s = 0; s < steps; s++)
		x = *(__local const uint *)((__local const uchar *)l + x);
	out[get_global_id(0)] = x;
}

/* Bandwidth: eight independent ds_read_b128 per step at addresses that do
 * not depend on the data, folded by v_xor3_b32. */
__kernel void lds_stream(__global const uint4 *in, __global uint *out, uint steps)
{
	__local uint4 l[1024];
	uint lid = get_local_id(0), n = get_local_size(0);
	for (uint i = lid; i < 1024; i += n)
		l[i] = in[i];
	barrier(CLK_LOCAL_MEM_FENCE);
	uint a = 0, b = 0;
	for (uint s = 0; s < steps; s++) {
		uint base = (lid + s * 8u) & 127u;
#pragma unroll
		for (int j = 0; j < 8; j++) {
			uint4 v = l[base + j * 128];
			a ^= v.x ^ v.y;
			b ^= v.z ^ v.w;
		}
	}
	out[get_global_id(0)] = a + b;
}
