	s_nop 0
	s_nop 0
	global_load_dword v2, v[0:1], off offset:16
	s_endpgm
