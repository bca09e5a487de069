// v_permlane16_b32 with an SGPR for src0 (an encoding LLVM refuses): the
// source row was read as VGPR 256 + 3 - 256 & 0xff, past the wave's VGPRs.
// It halts as v_swap_b32 does.
	.long 0xd7770013, 0x00040003            // v_permlane16_b32 v19, s3, s0, s1
	// CHECK: status = fault
	// CHECK: fault = unimplemented
	// CHECK: fault.what ~ "v_permlane16_b32: scalar source"
	s_endpgm
