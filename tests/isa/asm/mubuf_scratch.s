// Swizzled scratch through a MUBUF V# in s[0:3] (ADD_TID_ENABLE, set by the
// test); s4 = per-wave scratch offset; v3 = per-lane byte offset.
	buffer_store_dword v1, off, s[0:3], s4 offset:8
	buffer_store_dword v2, v3, s[0:3], s4 offen offset:4
	buffer_store_dwordx2 v[7:8], off, s[0:3], s4 offset:32
	buffer_store_byte v11, off, s[0:3], s4 offset:65
	buffer_load_dword v5, off, s[0:3], s4 offset:8
	buffer_load_dword v6, v3, s[0:3], s4 offen offset:4
	buffer_load_dwordx2 v[9:10], off, s[0:3], s4 offset:32
	buffer_load_ubyte v12, off, s[0:3], s4 offset:65
	buffer_load_sbyte v13, off, s[0:3], s4 offset:65
	s_endpgm
