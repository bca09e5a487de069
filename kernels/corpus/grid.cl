/* Corpus: work-item functions in 1-D, 2-D and 3-D NDRanges (ids, sizes,
 * group ids, number of groups, work dimension, global offset) and a 3-D
 * integer stencil. */

__kernel void grid1d_ids(__global uint *out)
{
	size_t i = get_global_id(0);
	__global uint *o = out + i * 6;
	o[0] = (uint)get_local_id(0);
	o[1] = (uint)get_group_id(0);
	o[2] = (uint)get_local_size(0);
	o[3] = (uint)get_num_groups(0) * 1000u + get_work_dim();
	o[4] = (uint)get_global_size(0);
	o[5] = (uint)get_global_offset(0) + (uint)get_local_size(1) * 10u + (uint)get_global_size(2) * 100u;
}

__kernel void grid2d_ids(__global uint *out)
{
	size_t x = get_global_id(0), y = get_global_id(1);
	size_t i = y * get_global_size(0) + x;
	__global uint *o = out + i * 4;
	o[0] = (uint)(get_local_id(0) | get_local_id(1) << 8 | get_group_id(0) << 16 | get_group_id(1) << 24);
	o[1] = (uint)(get_local_size(0) * get_local_size(1));
	o[2] = (uint)(get_num_groups(0) << 8 | get_num_groups(1)) + get_work_dim() * 100000u;
	o[3] = (uint)(x * 3 + y * 7);
}

__kernel void grid3d_ids(__global uint *out)
{
	size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
	size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;
	__global uint *o = out + i * 3;
	o[0] = (uint)(get_local_id(0) | get_local_id(1) << 8 | get_local_id(2) << 16) + get_work_dim() * 0x1000000u;
	o[1] = (uint)(get_group_id(0) | get_group_id(1) << 8 | get_group_id(2) << 16);
	o[2] = (uint)(get_num_groups(0) | get_num_groups(1) << 8 | get_num_groups(2) << 16) ^
	       (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2) << 24);
}

__kernel void grid3d_stencil(__global const int *in, __global int *out)
{
	int x = (int)get_global_id(0), y = (int)get_global_id(1), z = (int)get_global_id(2);
	int nx = (int)get_global_size(0), ny = (int)get_global_size(1), nz = (int)get_global_size(2);
#define AT(a, b, c) in[((clamp(c, 0, nz - 1) * ny) + clamp(b, 0, ny - 1)) * nx + clamp(a, 0, nx - 1)]
	int v = 6 * AT(x, y, z) - AT(x - 1, y, z) - AT(x + 1, y, z) - AT(x, y - 1, z) - AT(x, y + 1, z) -
		AT(x, y, z - 1) - AT(x, y, z + 1);
	out[(z * ny + y) * nx + x] = v;
}
