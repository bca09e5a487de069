// Shift counts at or beyond the operand width: VALU and SALU shifts use the
// low 5 (32-bit) or 6 (64-bit) bits of the count (ISA pseudocode
// "S0.u32[4:0]", "S1.u32[5:0]"); bit-field ops mask offset and width to 5
// bits (V_BFE_U32: S1[4:0], S2[4:0]); S_BFE takes the width from S1[22:16].
// s0 = 1, s1 = 0x80000000, s[2:3] = 0x8000000000000001, s4 = 0xf0f0f0f0
	v_lshlrev_b32 v1, 33, s0             // 1 << (33 & 31) = 2
	// CHECK: v1 = 2
	v_lshrrev_b32 v2, 32, s1             // >> 0: unchanged
	// CHECK: v2 = 0x80000000
	v_ashrrev_i32 v3, 63, s1             // >> 31: -1
	// CHECK: v3 = 0xffffffff
	v_mov_b32 v20, s2
	v_mov_b32 v21, s3
	v_lshlrev_b64 v[4:5], 64, v[20:21]   // << 0: unchanged
	// CHECK: v4 = 1
	// CHECK: v5 = 0x80000000
	v_lshlrev_b64 v[6:7], 65, v[20:21]   // << 1: 0x0000000000000002
	// CHECK: v6 = 2
	// CHECK: v7 = 0
	v_lshrrev_b64 v[8:9], 127, v[20:21]  // >> 63: 1
	// CHECK: v8 = 1
	// CHECK: v9 = 0
	v_ashrrev_i64 v[10:11], 63, v[20:21] // -1
	// CHECK: v10 = 0xffffffff
	// CHECK: v11 = 0xffffffff
	v_bfe_u32 v12, s4, 36, 4             // offset 36 & 31 = 4: 0xf
	// CHECK: v12 = 0xf
	v_bfe_i32 v13, s4, 4, 32             // width 32 & 31 = 0: 0
	// CHECK: v13 = 0
	v_alignbit_b32 v14, s1, s0, 32       // shift 32 & 31 = 0: the low operand (1)
	// CHECK: v14 = 1
	v_bfm_b32 v15, 32, 0                 // width 0: 0
	// CHECK: v15 = 0
	s_lshl_b32 s10, s0, 32               // 1 << 0
	// CHECK: s10 = 1
	s_lshr_b64 s[12:13], s[2:3], 64      // >> 0
	// CHECK: s12 = 1
	// CHECK: s13 = 0x80000000
	s_ashr_i32 s14, s1, 33               // >> 1: 0xc0000000
	// CHECK: s14 = 0xc0000000
	s_bfm_b32 s16, 32, 0                 // width 0
	// CHECK: s16 = 0
	s_lshl_b64 s[18:19], s[2:3], 127     // << 63: 0x8000000000000000
	// CHECK: s18 = 0
	// CHECK: s19 = 0x80000000
	v_lshlrev_b16 v16, 17, 0x8001        // 16-bit: << (17 & 15) = 1 -> 0x0002
	// CHECK: v16 = 0x0002
	v_ashrrev_i16 v17, 31, 0x8000        // >> 15: 0xffff
	// CHECK: v17 = 0xffff
	s_endpgm
	// CHECK: status = ended
