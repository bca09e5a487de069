	s_getpc_b64 s[0:1]
.Lpc:
	s_add_u32 s0, s0, .Lfunc-.Lpc
	s_addc_u32 s1, s1, 0
	s_swappc_b64 s[30:31], s[0:1]
	// CHECK: s[30:31] = code + 20
	s_mov_b32 s5, 2                  // return address: code + 20
	// CHECK: s5 = 2
	s_endpgm
	// CHECK: status = ended
.Lfunc:
	s_mov_b32 s4, 1
	// CHECK: s4 = 1
	s_setpc_b64 s[30:31]
