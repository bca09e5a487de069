// LDS: lds_size is 4096 bytes; v0 = lane id
	v_lshlrev_b32 v1, 2, v0          // byte address lane*4
	v_add_nc_u32 v2, 100, v0
	v_add_nc_u32 v3, 200, v0
	ds_write_b32 v1, v0
	ds_write2_b32 v1, v2, v3 offset0:32 offset1:64     // +128, +256
	ds_read_b32 v4, v1
	// CHECK: v4 = lane
	ds_read2_b32 v[5:6], v1 offset0:32 offset1:64
	// CHECK: v[5:6] = 100 + lane, 200 + lane
	ds_read2st64_b32 v[7:8], v1 offset1:1               // +0, +256
	// CHECK: v[7:8] = lane, 200 + lane
	v_mov_b32 v9, 0x10000
	ds_read_b32 v10, v9                                  // outside: 0
	// CHECK: v10 = 0
	ds_write_b32 v9, v0                                  // outside: dropped
	v_mov_b32 v12, 0x400
	ds_add_rtn_u32 v11, v12, v0                          // all lanes add to one word
	// ds_add_rtn returns the word before each lane's add, in lane order
	// CHECK: v11 = lane * (lane - 1) / 2
	ds_read_b32 v13, v12
	// 0 + 1 + ... + 31
	// CHECK: v13 = 496
	ds_read_u16 v14, v1 offset:130                       // high half of v2's word
	// the high half of 100 + lane
	// CHECK: v14 = 0
	ds_bpermute_b32 v15, v1, v0 offset:4                 // lane l reads lane l+1
	// CHECK: v15 = (lane + 1) & 31
	s_endpgm
	// CHECK: status = ended
