/* LDS bank conflicts on purpose (docs/hardware.md section 8, "LDS banks"):
 * lane l of a wave32 reads word (l * stride + 32 * i) mod 1024 of a tile.
 * With stride 32 every lane asks the same bank for a different word: 32
 * clocks where one would do. Stride 33 (each row of a 32 x 32 tile padded
 * by a word, the usual cure) puts lane l in bank l: no conflict. The mask
 * keeps the reads ds_read_b32 (no offset the compiler could fold into a
 * ds_read2). tests/gpu/lds_banks.py runs both. */
__kernel void lds_banks(__global uint *out, uint stride, uint iters)
{
	__local uint tile[1024];
	uint lid = get_local_id(0);
	for (uint k = lid; k < 1024; k += get_local_size(0))
		tile[k] = k;
	barrier(CLK_LOCAL_MEM_FENCE);
	uint acc = 0, base = (lid & 31) * stride;
	for (uint i = 0; i < iters; i++)
		acc += tile[(base + 32 * i) & 1023];
	out[get_global_id(0)] = acc;
}
