/* LDS-bound: each lane sums 128 float4 of a 16 KB tile, lanes of a wave on
 * neighbouring 16-byte words. A ds_read_b128 of a wave32 moves 512 bytes,
 * 4 clocks of the CU's 128 B/clock LDS bus (SPEC S3.6), against its 4
 * v_add_f32 on one of the CU's two SIMDs: the bus, not the VALU, sets the
 * time (tests/api/test_profile.c expects lgkmcnt as the top stall). */
__kernel void lds_stream(__global float *out)
{
	__local float4 tile[1024];
	uint lid = get_local_id(0);
	for (uint i = lid; i < 1024; i += get_local_size(0))
		tile[i] = (float4)((float)i);
	barrier(CLK_LOCAL_MEM_FENCE);
	float4 acc = 0.0f;
#pragma unroll 16
	for (uint k = 0; k < 128; k++)
		acc += tile[(lid & 31) + k * 8];
	out[get_global_id(0)] = acc.x + acc.y + acc.z + acc.w;
}
