/* Writes ExecuteIndirect's arguments on the GPU (tests/d3d12/test_launch.c):
 * per command i < count, { root UAV address, root constant n, launch
 * parameters (Dword0, Dword1), ThreadGroupCountX, Y, Z }, and the count.
 * The record layout is the command signature's, 4-byte packed. */
__kernel void write_args(__global uint *args, __global uint *count, ulong out_base, ulong out_stride, uint n,
			 uint ncommands, uint block)
{
	uint i = get_global_id(0);
	if (i == 0)
		*count = ncommands;
	__global uint *r = args + i * 8;
	ulong va = out_base + i * out_stride;
	r[0] = (uint)va;
	r[1] = (uint)(va >> 32);
	r[2] = n;
	r[3] = 0x2u | (1u << 16);                 /* Flags = NUM_THREADS, LDSSize 0, NumThreadZ 1 */
	r[4] = block | (1u << 16);                /* NumThreadX = block, NumThreadY = 1 */
	r[5] = (n + block - 1) / block;
	r[6] = 1;
	r[7] = 1;
}
