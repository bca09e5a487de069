	s_mov_b32 s0, 1
	s_barrier
	s_mov_b32 s1, 2
	s_endpgm
