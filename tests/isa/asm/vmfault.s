	s_nop 0
	s_nop 0
	global_load_dword v2, v[0:1], off offset:16
	// CHECK: status = fault
	// CHECK: fault = vm
	// CHECK: fault.pc = code + 8
	// CHECK: fault.addr = 0x7f0000000000 + 4 * 0x100 + 16
	// CHECK: fault.what ~ "global_load_dword"
	s_endpgm
