// The clocks: s_memtime (shader clock) and s_memrealtime (100 MHz reference)
// both read the wave's instruction count at the start of the run (the test
// sets it to 1000), deterministic; not the host's time.
	s_memtime s[0:1]
	s_memrealtime s[2:3]
	s_waitcnt lgkmcnt(0)
	// CHECK: s[0:1] = 1000
	// CHECK: s[2:3] = 1000
	s_endpgm
	// CHECK: status = ended
