	s_nop 0
	image_load v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D
	// CHECK: status = fault
	// CHECK: fault = unimplemented
	// CHECK: fault.pc = code + 4
	// CHECK: fault.what ~ "image_load"
	s_endpgm
