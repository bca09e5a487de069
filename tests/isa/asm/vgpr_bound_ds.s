// A lane permute's data VGPR counts in the wave's VGPR range (4 here): it
// was left out, and v10's row was read past the allocation.
	ds_bpermute_b32 v1, v0, v10
	// CHECK: status = fault
	// CHECK: fault = illegal
	// CHECK: fault.pc = code
	// CHECK: fault.what ~ "uses VGPRs up to v10, the wave has 4"
	s_endpgm
