// A full wave's global load whose lanes are 2^44 bytes apart (lane 0 on a
// mapped page, the rest far above it): the span path took the distance for
// one page (a count of 2^32 + 1 pages truncated to 32 bits) and read the far
// lanes off the first page's host memory, a host crash. A VM fault now.
	global_load_dword v3, v[1:2], off
	// CHECK: status = fault
	// CHECK: fault = vm
	// CHECK: fault.addr = far
	s_endpgm
