// SOFFSET 255 asks for a literal, which MUBUF and MTBUF do not take on
// gfx10.3: llvm-mc refuses `buffer_store_dword v4, off, s[48:51], 0x12345`,
// so the words are written by hand (the encoding of `..., s0` with SOFFSET
// 0xff, then the dword llvm-objdump would read as the literal). The
// interpreter refuses the instruction before it touches memory.
	.long 0xe0700000, 0xff0c0400, 0x00012345
	// CHECK: status = fault
	// CHECK: fault = illegal
	// CHECK: fault.pc = code
	// CHECK: fault.what ~ "SOFFSET 255"
	s_endpgm
