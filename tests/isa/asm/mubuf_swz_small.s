// Swizzled scratch whose INDEX_STRIDE `is` (8 lanes for a wave32, 32 for a
// wave64: set by the test, with the V# in s[0:3]) is below the wave's lanes.
// With STRIDE 16, lane l's dword o of an access lies at
// base + soffset + ((l / is) * 16 + o * 4) * is + (l % is) * 4. The
// whole-wave row and gather forms must not take it.
	buffer_store_dword v1, off, s[0:3], s4 offset:8
	// CHECK: mem[base + 0x100 + ((lane / is) * 16 + 8) * is + lane % is * 4] = 0x1000 + lane
	buffer_store_dword v2, v3, s[0:3], s4 offen offset:4
	// CHECK: mem[base + 0x100 + ((lane / is) * 16 + 20) * is + lane % is * 4] = 0x2000 + lane
	buffer_load_dword v5, off, s[0:3], s4 offset:8
	// CHECK: v5 = 0x1000 + lane
	buffer_load_dword v6, v3, s[0:3], s4 offen offset:4
	// CHECK: v6 = 0x2000 + lane
	s_endpgm
	// CHECK: status = ended
