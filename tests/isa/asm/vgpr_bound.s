	v_mov_b32 v1, 1
	v_mov_b32 v10, 2
	s_endpgm
