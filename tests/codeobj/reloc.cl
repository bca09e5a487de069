/* A table of __constant pointers: lld must emit dynamic relocations for it
 * (R_AMDGPU_RELATIVE64, or R_AMDGPU_ABS64 with -fvisibility=default). */
__constant int tbl[4] = {1, 2, 3, 4};
__constant int tbl2[4] = {5, 6, 7, 8};
__constant int *__constant ptrs[2] = {tbl, tbl2};
__kernel void pick(__global int *out, uint i)
{
	out[0] = ptrs[i & 1][i & 3];
}
