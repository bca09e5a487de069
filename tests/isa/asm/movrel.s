// Indexing through M0 (v0 = lane id, 16 VGPRs): the M0[31:0] forms and the
// gfx10 forms whose source (first) index is M0[9:0] and destination
// (second) index M0[25:16].
	s_mov_b32 s7, 7
	s_mov_b32 s8, 8
	s_mov_b32 s10, 10
	s_mov_b32 s15, 15
	s_mov_b32 s17, 17
	s_mov_b32 m0, 0x3000a                   // M0[9:0] = 10, M0[25:16] = 3
	s_movrelsd_2_b32 s5, s7                 // s[5 + 3] = s[7 + 10]
	// CHECK: s8 = 17
	// CHECK: s15 = 15
	s_mov_b32 m0, 2
	s_movrels_b32 s20, s8                   // s20 = s[8 + 2]
	// CHECK: s20 = 10
	s_movreld_b32 s20, s7                   // s[20 + 2] = s7
	// CHECK: s22 = 7
	v_add_nc_u32 v1, 100, v0
	v_add_nc_u32 v2, 200, v0
	v_add_nc_u32 v3, 300, v0
	v_mov_b32 v9, 0
	v_mov_b32 v10, 0
	s_mov_b32 m0, 1
	v_movrels_b32 v4, v1                    // v4 = v[1 + 1]
	// CHECK: v4 = 200 + lane
	v_movreld_b32 v5, v1                    // v[5 + 1] = v1
	// CHECK: v6 = 100 + lane
	v_movrelsd_b32 v7, v1                   // v[7 + 1] = v[1 + 1]
	// CHECK: v8 = 200 + lane
	s_mov_b32 m0, 0x80002                   // M0[9:0] = 2, M0[25:16] = 8
	v_movrelsd_2_b32 v1, v1                 // v[1 + 8] = v[1 + 2]
	// CHECK: v9 = 300 + lane
	// CHECK: v3 = 300 + lane
	s_mov_b32 exec_lo, 0xffff               // lanes 0..15 only
	v_swaprel_b32 v2, v0                    // v[0 + 2] (src) and v[2 + 8] (dst) exchange
	s_mov_b32 exec_lo, -1
	// CHECK: v2 lanes 0..15 = 0
	// CHECK: v10 lanes 0..15 = 200 + lane
	// CHECK: v2 lanes 16..31 = 200 + lane
	// CHECK: v10 lanes 16..31 = 0
	s_mov_b32 m0, 0x100000                  // destination 16 past v0: outside the 16 VGPRs
	v_movrelsd_2_b32 v0, v1
	// CHECK: status = fault
	// CHECK: fault = illegal
	// CHECK: fault.what ~ "M0-relative VGPR index out of range"
	s_endpgm
