// A rounding mode the interpreter does not model for an op (f64 fma toward
// zero) faults with the mnemonic instead of rounding to nearest.
	s_round_mode 0xc
	v_fma_f64 v[0:1], v[2:3], v[4:5], v[6:7]
	// CHECK: status = fault
	// CHECK: fault = unimplemented
	// CHECK: fault.pc = code + 4
	// CHECK: fault.what ~ "v_fma_f64"
	s_endpgm
