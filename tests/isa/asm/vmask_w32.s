// wave32: v_cmpx writes EXEC only, v_cndmask e32/e64, saveexec, execz branches.
// v0 = lane id; vcc_lo preset to 0x5a5a5a5a
	v_mov_b32 v1, 0
	v_cmpx_gt_u32 10, v0             // EXEC = lanes 0..9
	s_mov_b32 s10, exec_lo
	// CHECK: s10 = 0x3ff
	s_mov_b32 s11, vcc_lo            // unchanged by v_cmpx on gfx10
	// CHECK: s11 = 0x5a5a5a5a
	v_mov_b32 v1, 5                  // lanes 0..9 only
	// CHECK: v1 = lane < 10 ? 5 : 0
	s_mov_b32 exec_lo, -1
	v_cmp_lt_u32 vcc_lo, v0, 3       // lanes 0..2
	s_mov_b32 s14, vcc_lo
	// CHECK: s14 = 0x7
	v_mov_b32 v5, 9
	v_cndmask_b32 v2, 7, v5, vcc_lo  // e32: VCC selects src1
	// CHECK: v2 = lane < 3 ? 9 : 7
	v_cmp_eq_u32_e64 s15, 4, v0
	// CHECK: s15 = 1 << 4
	v_cndmask_b32_e64 v3, 100, v5, s15    // literal in VOP3
	// CHECK: v3 = lane == 4 ? 9 : 100
	s_and_saveexec_b32 s12, vcc_lo   // s12 = old EXEC, EXEC = lanes 0..2, SCC = 1
	// CHECK: s12 = 0xffffffff
	s_cbranch_execz .Lskip
	v_mov_b32 v4, 77
	// CHECK: v4 = lane < 3 ? 77 : 0
.Lskip:
	s_mov_b32 exec_lo, 0
	s_cbranch_execz .Lskip2
	s_mov_b32 s13, 1                 // skipped
	// CHECK: s13 = 0
.Lskip2:
	s_mov_b32 exec_lo, s12
	// CHECK: exec_lo = 0xffffffff
	s_endpgm
	// CHECK: status = ended
