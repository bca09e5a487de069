// A wave64 through a swizzled V# of INDEX_STRIDE 32 (a wave32 dispatch's
// scratch V#), STRIDE 16: lane l's dword o at
// base + soffset + ((l / 32) * 16 + o * 4) * 32 + (l % 32) * 4. The
// whole-wave row forms (one 256-byte row) must not take it.
	buffer_store_dword v1, off, s[0:3], s4 offset:8
	// CHECK: mem[base + 0x100 + ((lane / 32) * 16 + 8) * 32 + lane % 32 * 4] = 0x1000 + lane
	buffer_store_dword v2, v3, s[0:3], s4 offen offset:4
	// CHECK: mem[base + 0x100 + ((lane / 32) * 16 + 20) * 32 + lane % 32 * 4] = 0x2000 + lane
	buffer_load_dword v5, off, s[0:3], s4 offset:8
	// CHECK: v5 = 0x1000 + lane
	buffer_load_dword v6, v3, s[0:3], s4 offen offset:4
	// CHECK: v6 = 0x2000 + lane
	s_endpgm
	// CHECK: status = ended
