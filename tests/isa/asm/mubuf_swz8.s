// Swizzled scratch whose INDEX_STRIDE (8 lanes) is below the wave's 32:
// the V# in s[0:3] (set by the test) has STRIDE 16, so lane l's dword o of
// an access lies at base + soffset + ((l / 8) * 16 + o * 4) * 8 + (l % 8) * 4.
// The whole-wave row forms (one 128-byte row) must not take it.
	buffer_store_dword v1, off, s[0:3], s4 offset:8
	// CHECK: mem[base + 0x100 + ((lane / 8) * 16 + 8) * 8 + lane % 8 * 4] = 0x1000 + lane
	buffer_store_dword v2, v3, s[0:3], s4 offen offset:4
	// CHECK: mem[base + 0x100 + ((lane / 8) * 16 + 20) * 8 + lane % 8 * 4] = 0x2000 + lane
	buffer_load_dword v5, off, s[0:3], s4 offset:8
	// CHECK: v5 = 0x1000 + lane
	buffer_load_dword v6, v3, s[0:3], s4 offen offset:4
	// CHECK: v6 = 0x2000 + lane
	s_endpgm
	// CHECK: status = ended
