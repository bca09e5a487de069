// 64-bit SGPR destinations LLVM refuses (the words written out): a pair
// starting at m0 has NULL for its high half, one starting at EXEC_HI runs
// off the file. The parts past them are dropped: NULL still reads 0, s0 is
// not written in place of SGPR 128.
	s_mov_b32 s0, 7
	s_mov_b32 s2, 5
	.long 0xbefc04c1                        // s_mov_b64 s[124:125], -1
	// CHECK: m0 = 0xffffffff
	s_mov_b32 s2, null
	// CHECK: s2 = 0
	.long 0xbeff04c1                        // s_mov_b64 s[127:128], -1
	// CHECK: exec_hi = 0xffffffff
	// CHECK: s0 = 7
	s_endpgm
	// CHECK: status = ended
