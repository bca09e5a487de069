/* A GPU pass that writes ExecuteIndirect's arguments (launch_params.c):
 * for each job with work (sizes[i] > 0), in order, one record of the
 * command signature { root UAV address, root constant n, launch parameters
 * Dword0 and Dword1, ThreadGroupCountX, Y, Z } (8 dwords, 4-byte packed),
 * with a group of 256 threads for large jobs and of 64 for small ones; and
 * the number of records. */
__kernel void write_args(__global const uint *sizes, __global uint *args, __global uint *count, ulong out_base,
			 ulong out_stride, uint njobs)
{
	uint i = get_global_id(0);
	if (i >= njobs)
		return;
	uint n = sizes[i];
	uint slot = 0;
	for (uint k = 0; k < i; k++)
		slot += sizes[k] > 0;
	if (i == njobs - 1)
		*count = slot + (n > 0);
	if (n == 0)
		return;
	uint block = n >= 1024 ? 256 : 64;
	__global uint *r = args + slot * 8;
	ulong va = out_base + i * out_stride;
	r[0] = (uint)va;
	r[1] = (uint)(va >> 32);
	r[2] = n;
	r[3] = 0x2u | (1u << 16);  /* Flags = NUM_THREADS, LDSSize 0, NumThreadZ 1 */
	r[4] = block | (1u << 16); /* NumThreadX = block, NumThreadY 1 */
	r[5] = (n + block - 1) / block;
	r[6] = 1;
	r[7] = 1;
}
