// wave64: VCC and EXEC are 64-bit; v0 = lane id
	v_cmp_gt_u32 vcc, 40, v0         // lanes 0..39
	s_mov_b64 s[10:11], vcc
	// lanes 0..39
	// CHECK: s[10:11] = 0x000000ffffffffff
	v_mov_b32 v2, 9
	v_cndmask_b32 v1, 7, v2, vcc
	// CHECK: v1 = lane < 40 ? 9 : 7
	s_and_saveexec_b64 s[12:13], vcc
	// CHECK: s[12:13] = 0xffffffffffffffff
	v_mov_b32 v3, 1                  // lanes 0..39
	// CHECK: v3 = lane < 40 ? 1 : 0
	s_mov_b64 exec, s[12:13]
	v_cmp_eq_u32_e64 s[14:15], 33, v0
	// lane 33
	// CHECK: s[14:15] = 1 << 33
	v_cmpx_le_u32 48, v0             // EXEC = lanes 48..63
	s_mov_b64 s[16:17], exec
	// CHECK: s[16:17] = 0xffff000000000000
	v_mov_b32 v4, 2                  // lanes 48..63
	// CHECK: v4 = lane >= 48 ? 2 : 0
	s_mov_b64 exec, -1
	v_add_co_u32 v5, s[18:19], v0, -1    // carry out for lanes >= 1
	// lane + 0xffffffff carries out for lanes >= 1
	// CHECK: s[18:19] = 0xfffffffffffffffe
	// CHECK: v5 = lane - 1
	s_endpgm
	// CHECK: status = ended
