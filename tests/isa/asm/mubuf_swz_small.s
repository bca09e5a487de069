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
	// An unaligned 16-byte access is five pieces (2 + 4 + 4 + 4 + 2 bytes,
	// each dword of it on its own); its last two bytes were neither stored
	// nor loaded (the load kept host stack bytes there).
	// (at soffset 0x4100: memory of its own)
	v_mov_b32 v4, 0x12345678
	s_add_u32 s5, s4, 0x4000
	buffer_store_dwordx4 v[1:4], off, s[0:3], s5 offset:66
	buffer_load_dwordx4 v[8:11], off, s[0:3], s5 offset:66
	// CHECK: v[8:11] = 0x1000 + lane, 0x2000 + lane, 16, 0x12345678
	// the last piece: bytes 80-81 of the element, v4's high half
	// CHECK: mem[base + 0x4100 + ((lane / is) * 16 + 80) * is + lane % is * 4] & 0xffff = 0x1234
	s_endpgm
	// CHECK: status = ended
