	v_mov_b32 v1, 1
	// CHECK: v1 lane 0 = 1
	v_mov_b32 v10, 2
	// CHECK: status = fault
	// CHECK: fault = illegal
	// CHECK: fault.pc = code + 4
	s_endpgm
