// wave32: v_cmpx writes EXEC only, v_cndmask e32/e64, saveexec, execz branches.
// v0 = lane id; vcc_lo preset to 0x5a5a5a5a
	v_mov_b32 v1, 0
	v_cmpx_gt_u32 10, v0             // EXEC = lanes 0..9
	s_mov_b32 s10, exec_lo
	s_mov_b32 s11, vcc_lo            // unchanged by v_cmpx on gfx10
	v_mov_b32 v1, 5                  // lanes 0..9 only
	s_mov_b32 exec_lo, -1
	v_cmp_lt_u32 vcc_lo, v0, 3       // lanes 0..2
	s_mov_b32 s14, vcc_lo
	v_mov_b32 v5, 9
	v_cndmask_b32 v2, 7, v5, vcc_lo  // e32: VCC selects src1
	v_cmp_eq_u32_e64 s15, 4, v0
	v_cndmask_b32_e64 v3, 100, v5, s15    // literal in VOP3
	s_and_saveexec_b32 s12, vcc_lo   // s12 = old EXEC, EXEC = lanes 0..2, SCC = 1
	s_cbranch_execz .Lskip
	v_mov_b32 v4, 77
.Lskip:
	s_mov_b32 exec_lo, 0
	s_cbranch_execz .Lskip2
	s_mov_b32 s13, 1                 // skipped
.Lskip2:
	s_mov_b32 exec_lo, s12
	s_endpgm
