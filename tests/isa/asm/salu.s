// SALU: carries, SCC, 64-bit ops, literals, bit ops. Inputs (set by the test):
// s0 = 0xffffffff, s1 = 2, s2 = 5, s3 = 7, s4 = 0x7fffffff,
// s[6:7] = 0x0123456789abcdef, s8 = 0xf0
	s_add_u32 s10, s0, s1            // 1, carry -> SCC = 1
	// CHECK: s10 = 1
	s_cselect_b32 s11, 1, 0
	// CHECK: s11 = 1
	s_addc_u32 s12, s2, 0            // 5 + 0 + SCC = 6, SCC = 0
	// CHECK: s12 = 6
	s_cselect_b32 s13, 1, 0
	// CHECK: s13 = 0
	s_sub_u32 s14, s2, s3            // 0xfffffffe, borrow -> SCC = 1
	// CHECK: s14 = 0xfffffffe
	s_subb_u32 s15, s2, 0            // 5 - 0 - 1 = 4, SCC = 0
	// CHECK: s15 = 4
	s_add_i32 s16, s4, s4            // signed overflow -> SCC = 1
	// CHECK: s16 = 0xfffffffe
	s_cselect_b32 s17, 1, 0
	// CHECK: s17 = 1
	s_mov_b64 s[18:19], s[6:7]
	// CHECK: s[18:19] = 0x0123456789abcdef
	s_lshl_b64 s[20:21], s[6:7], 4
	// CHECK: s[20:21] = 0x123456789abcdef0
	s_and_b64 s[22:23], s[6:7], 0xffff0000   // 32-bit literal, zero-extended
	// CHECK: s[22:23] = 0x0000000089ab0000
	s_lshr_b32 s24, s7, 8
	// CHECK: s24 = 0x00012345
	s_ashr_i32 s25, s0, 4
	// CHECK: s25 = 0xffffffff
	s_bfe_i32 s26, s8, 0x40004       // offset 4, width 4: 0xf -> -1
	// CHECK: s26 = 0xffffffff
	s_bfe_u32 s27, s8, 0x40004
	// CHECK: s27 = 0xf
	s_min_i32 s28, s0, s2            // -1, SCC = 1
	// CHECK: s28 = 0xffffffff
	s_cselect_b32 s29, 1, 0
	// CHECK: s29 = 1
	s_mul_hi_u32 s30, s0, s0
	// CHECK: s30 = 0xfffffffe
	s_movk_i32 s31, 0x8000
	// CHECK: s31 = 0xffff8000
	s_cmpk_lg_u32 s2, 5              // SCC = 0
	s_cselect_b32 s32, 7, 9
	// CHECK: s32 = 9
	s_bcnt1_i32_b64 s33, s[6:7]
	// CHECK: s33 = 32
	s_ff1_i32_b32 s34, s8
	// CHECK: s34 = 4
	s_flbit_i32_b32 s35, s8
	// CHECK: s35 = 24
	s_not_b32 s36, s2
	// CHECK: s36 = ~5
	s_xor_b64 s[38:39], s[6:7], -1   // inline -1 sign-extends to 64 bits
	// CHECK: s[38:39] = ~0x0123456789abcdef
	s_mul_i32 s40, s2, -3
	// CHECK: s40 = -15
	s_lshl2_add_u32 s41, s2, s3      // 5*4 + 7
	// CHECK: s41 = 27
	s_mov_b32 s42, null              // NULL reads 0
	// CHECK: s42 = 0
	s_mov_b32 null, s2               // dropped
	// CHECK: null = 0
	s_endpgm
	// CHECK: status = ended
