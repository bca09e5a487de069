// Swizzled scratch through a MUBUF V# in s[0:3] (ADD_TID_ENABLE, set by the
// test); s4 = per-wave scratch offset; v3 = per-lane byte offset.
	buffer_store_dword v1, off, s[0:3], s4 offset:8
	// swizzled: byte offset o of lane l at base + soffset + o / 4 * 4 * 32 + l * 4 + o % 4
	// CHECK: mem[base + 0x100 + lane * 4 + 8 * 32] = 0x1000 + lane
	buffer_store_dword v2, v3, s[0:3], s4 offen offset:4
	// CHECK: mem[base + 0x100 + lane * 4 + 20 * 32] = 0x2000 + lane
	buffer_store_dwordx2 v[7:8], off, s[0:3], s4 offset:32
	// CHECK: mem[base + 0x100 + lane * 4 + 32 * 32] = 0x7000 + lane
	// CHECK: mem[base + 0x100 + lane * 4 + 36 * 32] = 0x8000 + lane
	buffer_store_byte v11, off, s[0:3], s4 offset:65
	// CHECK: mem8[base + 0x100 + lane * 4 + 64 * 32 + 1] = 0x80 + lane
	buffer_load_dword v5, off, s[0:3], s4 offset:8
	// CHECK: v5 = 0x1000 + lane
	buffer_load_dword v6, v3, s[0:3], s4 offen offset:4
	// CHECK: v6 = 0x2000 + lane
	buffer_load_dwordx2 v[9:10], off, s[0:3], s4 offset:32
	// CHECK: v[9:10] = 0x7000 + lane, 0x8000 + lane
	buffer_load_ubyte v12, off, s[0:3], s4 offset:65
	// CHECK: v12 = 0x80 + lane
	buffer_load_sbyte v13, off, s[0:3], s4 offset:65
	// CHECK: v13 = 0xffffff80 + lane
	s_endpgm
	// CHECK: status = ended
