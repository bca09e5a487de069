	v_add_nc_u32_e64 v1, v0, 0x12345678
	// CHECK: v1 = 0x12345678 + lane
	s_endpgm
	// CHECK: status = ended
