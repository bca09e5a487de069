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
	v_add_f32 v2, 1.0, v2                // no lane
	v_cmp_eq_u32 vcc_lo, v0, v0          // all false: 0
	v_add_co_u32 v3, s10, v0, -1         // carry mask 0
	v_readfirstlane_b32 s11, v0          // EXEC == 0: lane 0
	v_writelane_b32 v4, s12, 3           // lane 3 written anyway
	ds_write_b32 v0, v1                  // nothing written
	global_store_dword v[8:9], v1, off   // unmapped, but no lane: no fault
	global_load_dword v5, v[8:9], off    // likewise, v5 untouched
	global_atomic_add v[8:9], v1, off    // likewise
	s_mov_b32 exec_lo, 0x0000ff00        // lanes 8..15
	v_mov_b32 v6, 7
	v_cmp_gt_u32 vcc_lo, 12, v0          // lanes 8..11 true: 0x00000f00
	s_mov_b32 s13, vcc_lo
	v_mov_b32 v7, 0x10
	global_atomic_add v13, v[10:11], v7, off glc  // the dword (5): 8 lanes add 0x10, returns 5, 0x15, ...
	s_mov_b32 exec_lo, -1
	ds_read_b32 v12, v0                  // LDS untouched by the EXEC = 0 write: 0
	s_endpgm
