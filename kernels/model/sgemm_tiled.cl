/* LDS-heavy tiled SGEMM, C = A x B for n x n row-major matrices (n a multiple
 * of 16): one 256-lane group per 16 x 16 tile of C (launched 1D: group g is
 * tile row g / (n/16), tile column g % (n/16)). Each step stages a 16 x 16
 * tile of A and of B in __local, then every lane runs 16 multiply-adds out of
 * LDS: its row of the A tile (the same address for all 16 lanes of a row: a
 * broadcast) and its column of the B tile (16 neighbouring words). clang
 * pairs the reads into ds_read2_b32 / ds_read2st64_b32, the interpreter's
 * two-address LDS path (bench/xs12_bench.py). */
__kernel void sgemm_tiled(__global const float *a, __global const float *b, __global float *c, uint n)
{
	__local float ta[16][16];
	__local float tb[16][16];
	uint lid = get_local_id(0), tx = lid & 15, ty = lid >> 4;
	uint tiles = n / 16, g = get_group_id(0);
	uint row = (g / tiles) * 16 + ty, col = (g % tiles) * 16 + tx;
	float acc = 0.0f;
	for (uint t = 0; t < tiles; t++) {
		ta[ty][tx] = a[row * n + t * 16 + tx];
		tb[ty][tx] = b[(t * 16 + ty) * n + col];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (uint k = 0; k < 16; k++)
			acc += ta[ty][k] * tb[k][tx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	c[row * n + col] = acc;
}
