// EXEC = 0 and partial EXEC: inactive lanes are untouched by VALU writes,
// lane-mask results have inactive lanes cleared, memory instructions do not
// access memory for inactive lanes (no fault even from a bad address),
// v_readfirstlane reads lane 0 when EXEC is 0 and v_writelane ignores EXEC
// (ISA pseudocode of V_READFIRSTLANE_B32 / V_WRITELANE_B32 and "VOPC: bits
// for inactive threads are written 0").
// v0 = lane, v1 = 0x11, v2 = 0x22, v[8:9] = an unmapped address,
// s12 = 0x77, v[10:11] = a mapped dword (holds 5)
	s_mov_b32 exec_lo, 0
	v_mov_b32 v1, 5                      // no lane
	// CHECK: v1 = 0x11
	v_add_f32 v2, 1.0, v2                // no lane
	// CHECK: v2 = 0x22
	v_cmp_eq_u32 vcc_lo, v0, v0          // all false: 0
	v_add_co_u32 v3, s10, v0, -1         // carry mask 0
	// CHECK: s10 = 0
	v_readfirstlane_b32 s11, v0          // EXEC == 0: lane 0
	// CHECK: s11 = 0
	v_writelane_b32 v4, s12, 3           // lane 3 written anyway
	// CHECK: v4 = lane == 3 ? 0x77 : 0
	ds_write_b32 v0, v1                  // nothing written
	global_store_dword v[8:9], v1, off   // unmapped, but no lane: no fault
	global_load_dword v5, v[8:9], off    // likewise, v5 untouched
	// CHECK: v5 = 0x55
	global_atomic_add v[8:9], v1, off    // likewise
	s_mov_b32 exec_lo, 0x0000ff00        // lanes 8..15
	v_mov_b32 v6, 7
	// CHECK: v6 = lane >= 8 && lane < 16 ? 7 : 0
	v_cmp_gt_u32 vcc_lo, 12, v0          // lanes 8..11 true: 0x00000f00
	// from the partial-EXEC compare
	// CHECK: vcc_lo = 0x00000f00
	s_mov_b32 s13, vcc_lo
	// CHECK: s13 = 0x00000f00
	v_mov_b32 v7, 0x10
	// CHECK: v7 = lane >= 8 && lane < 16 ? 0x10 : 0
	global_atomic_add v13, v[10:11], v7, off glc  // the dword (5): 8 lanes add 0x10, returns 5, 0x15, ...
	// CHECK: v13 = lane >= 8 && lane < 16 ? 5 + (lane - 8) * 0x10 : 0
	// CHECK: mem[word] = 5 + 8 * 0x10
	s_mov_b32 exec_lo, -1
	ds_read_b32 v12, v0                  // LDS untouched by the EXEC = 0 write: 0
	// CHECK: v12 = 0
	s_endpgm
	// CHECK: status = ended
