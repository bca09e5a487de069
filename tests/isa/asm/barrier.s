	s_mov_b32 s0, 1
	s_barrier
	// The first run stops here, already past the barrier (tag BARRIER):
	// CHECK-BARRIER: status = barrier
	// CHECK-BARRIER: s0 = 1
	// CHECK-BARRIER: s1 = 0
	// CHECK-BARRIER: pc = code + 8
	s_mov_b32 s1, 2
	// The SPI releases the group; the second run ends:
	// CHECK: s1 = 2
	s_endpgm
	// CHECK: status = ended
