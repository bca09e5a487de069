	s_nop 0
	image_load v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D
	s_endpgm
