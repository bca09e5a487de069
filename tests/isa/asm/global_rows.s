// Coalesced global accesses (the interpreter's whole-wave row path) and the
// shapes that must fall back to the per-lane path. v[2:3]: source address,
// v[8:9]: destination address, v10: 32-bit offset from s[0:1].
	global_load_dwordx4 v[4:7], v[2:3], off
	s_waitcnt vmcnt(0)
	global_store_dwordx4 v[8:9], v[4:7], off
	global_load_dword v11, v10, s[0:1] offset:16
	s_waitcnt vmcnt(0)
	global_store_dword v10, v11, s[2:3]
	s_waitcnt_vscnt null, 0x0
	s_endpgm
	// CHECK: status = ended
