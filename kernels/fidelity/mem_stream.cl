/* Streaming reads (bench/fidelity.py: the bandwidth rows). Each group is one
 * wave; per step it reads a block of 8 x wave-size x 16 bytes (4 KB in
 * wave32), eight independent global_load_dwordx4, and folds them with two
 * v_xor3_b32 each so that no load is dead. Block b of group g is block
 * (g * group_stride + b) & (wrap - 1) of the buffer: wrap, a power of
 * two, sets the working set. */
#define WS __AMDGCN_WAVEFRONT_SIZE

__kernel void stream_rd(__global const uint4 *in, __global uint *out, uint steps, uint wrap, uint group_stride)
{
	uint lid = get_local_id(0);
	uint blk = get_group_id(0) * group_stride;
	uint a = 0, b = 0;
	for (uint k = 0; k < steps; k++) {
		__global const uint4 *p = in + (size_t)((blk + k) & (wrap - 1u)) * (8 * WS) + lid;
#pragma unroll
		for (int j = 0; j < 8; j++) {
			uint4 v = p[j * WS];
			a ^= v.x ^ v.y;
			b ^= v.z ^ v.w;
		}
	}
	out[get_global_id(0)] = a + b;
}
