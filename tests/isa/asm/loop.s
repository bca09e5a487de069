	s_mov_b32 s0, 0
	s_mov_b32 s1, 0
.Lloop:
	s_add_u32 s1, s1, s0
	// CHECK: s1 = 45
	s_add_u32 s0, s0, 1
	// CHECK: s0 = 10
	s_cmp_lt_u32 s0, 10
	s_cbranch_scc1 .Lloop
	s_endpgm
	// CHECK: insts = 2 + 10 * 4 + 1
	// CHECK: status = ended
