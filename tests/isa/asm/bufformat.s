// Typed buffer loads (test_bufformat in test_isa_exec.c): s[4:7] is a V#
// the test builds (structured: index = v0 = lane, STRIDE 16, NUM_RECORDS 4)
// with the FORMAT under test; lanes 4.. are out of range and read 0.
	buffer_load_format_xyzw v[20:23], v0, s[4:7], 0 idxen
	buffer_load_format_x v24, v0, s[4:7], 0 idxen
	tbuffer_load_format_xy v[26:27], v0, s[4:7], format:64, 0 idxen
	s_endpgm
	// CHECK: status = ended
