// Integer operands at the edges of their range, where the C behind an op
// would overflow a signed type (or shift a negative value) unless it
// computes in unsigned arithmetic: the results are the ISA's modular ones.
// s0 = 0x80000000 (INT_MIN), s1 = 0xffffffff (-1), s2 = 0x7fffffff (INT_MAX),
// s3 = 0x00800000 (i24 min), s4 = 0x007fffff (i24 max), s5 = 0x80008000
// (i16 min in both halves), s6 = 0x80808080 (i8 min in every byte),
// s7 = 0x88888888 (i4 min in every nibble)
	v_mul_i32_i24 v1, s3, s4             // -2^23 * (2^23 - 1) = -2^46 + 2^23: low 0x00800000
	// CHECK: v1 = 0x00800000
	v_mul_hi_i32_i24 v2, s3, s4          // high: 0xffffc000
	// CHECK: v2 = 0xffffc000
	v_mad_i32_i24 v3, s3, s3, s1         // 2^46 - 1: low 0xffffffff
	// CHECK: v3 = 0xffffffff
	v_mul_i32_i24 v4, s2, s3             // -1 * -2^23 = 0x00800000
	// CHECK: v4 = 0x00800000
	v_dot2_i32_i16 v5, s5, s5, s1        // 2 * 2^30 - 1 = 0x7fffffff
	// CHECK: v5 = 0x7fffffff
	v_mad_i64_i32 v[6:7], s20, s0, s0, 0 // 2^62: 0x40000000_00000000, no carry
	// CHECK: v6 = 0
	// CHECK: v7 = 0x40000000
	// CHECK: s20 = 0
	v_mul_hi_i32 v8, s0, s0              // 2^62 >> 32 = 0x40000000
	// CHECK: v8 = 0x40000000
	v_mul_lo_u32 v9, s0, s1              // -INT_MIN wraps: 0x80000000
	// CHECK: v9 = 0x80000000
	v_sub_nc_i32 v10, s0, 1 clamp        // INT_MIN - 1 saturates: 0x80000000
	// CHECK: v10 = 0x80000000
	v_add_nc_i32 v11, s2, 1 clamp        // INT_MAX + 1 saturates: 0x7fffffff
	// CHECK: v11 = 0x7fffffff
	v_mad_i32_i16 v12, s5, s5, s1        // 2^30 - 1 = 0x3fffffff
	// CHECK: v12 = 0x3fffffff
	v_mad_i16 v13, s5, s5, s5            // 2^30 - 2^15: low half 0x8000
	// CHECK: v13 = 0x8000
	v_pk_mad_i16 v14, s5, s5, s5         // the same per half: 0x80008000
	// CHECK: v14 = 0x80008000
	v_sad_u32 v15, s0, s2, -1            // |INT_MIN - INT_MAX| as unsigned (1) + -1 = 0
	// CHECK: v15 = 0
	v_mov_b32 v29, 0xdead0000
	v_sad_u16 v29, 0x10, 1, 0x12340000   // a 32-bit result (the destination's high half not kept): 0x1234000f
	// CHECK: v29 = 0x1234000f
	v_sad_u16 v30, s1, 0, s1             // both halves: 0xffff + 0xffff + 0xffffffff wraps: 0x1fffd
	// CHECK: v30 = 0x1fffd
	v_cvt_pk_i16_i32 v16, s0, s2         // saturated halves: 0x7fff8000
	// CHECK: v16 = 0x7fff8000
	v_dot4_i32_i8 v17, s6, s6, s2        // 4 * 2^14 + INT_MAX wraps: 0x8000ffff
	// CHECK: v17 = 0x8000ffff
	v_dot8_i32_i4 v18, s7, s7, 0         // 8 * 64 = 0x200
	// CHECK: v18 = 0x200
	v_mul_u32_u24 v19, s1, s1            // 0xffffff^2 = 0xfffffe000001: low 0xfe000001
	// CHECK: v19 = 0xfe000001
	v_mul_hi_u32_u24 v20, s1, s1         // high: 0xffff
	// CHECK: v20 = 0xffff
	v_mad_u32_u24 v21, s1, s1, s1        // 0xfe000001 - 1 = 0xfe000000
	// CHECK: v21 = 0xfe000000
	v_bfe_i32 v22, s0, 31, 1             // the sign bit extended: 0xffffffff
	// CHECK: v22 = 0xffffffff
	v_ffbh_i32 v23, s0                   // 1
	// CHECK: v23 = 1
	v_mad_i32_i24 v24, s4, s4, s2        // (2^23 - 1)^2 + INT_MAX wraps: 0x7f000000
	// CHECK: v24 = 0x7f000000
	v_sad_u8 v25, s1, s0, 0              // 0x7f + 3 * 0xff = 0x37c
	// CHECK: v25 = 0x37c
	v_lshl_add_u32 v26, s0, 1, s1        // 0 + -1 = 0xffffffff
	// CHECK: v26 = 0xffffffff
	v_mad_u64_u32 v[27:28], s21, s1, s1, -1 // (2^32 - 1)^2 + 2^64 - 1: 0xfffffffe_00000000, carry
	// CHECK: v27 = 0
	// CHECK: v28 = 0xfffffffe
	// CHECK: s21 = 0xffffffff
// With clamp the integer mads saturate the exact result to their type's
// range (without it they wrap, as above)
	v_mov_b32 v31, 0
	v_mad_u16 v31, s1, s1, s1 clamp      // 0xffff^2 + 0xffff -> 0xffff (high half kept: 0)
	// CHECK: v31 = 0xffff
	v_mov_b32 v32, 0
	v_mad_i16 v32, s5, s5, s5 clamp      // 2^30 - 2^15 -> 0x7fff
	// CHECK: v32 = 0x7fff
	v_mov_b32 v38, 0
	v_mad_i16 v38, s5, s4, s5 clamp      // -2^15 * -1 (s4's low half) + -2^15 = 0: in range
	// CHECK: v38 = 0
	v_mad_u32_u24 v33, s1, s1, s1 clamp  // 0xfffffe000001 + 0xffffffff -> 0xffffffff
	// CHECK: v33 = 0xffffffff
	v_mad_i32_i24 v34, s3, s3, s1 clamp  // 2^46 - 1 -> 0x7fffffff (wrapped: 0xffffffff)
	// CHECK: v34 = 0x7fffffff
	v_mov_b32 v35, s0
	v_mad_i32_i24 v35, s3, s4, v35 clamp // -2^46 + 2^23 + INT_MIN -> 0x80000000
	// CHECK: v35 = 0x80000000
	v_mad_u32_u16 v36, s1, s1, s1 clamp  // 0xfffe0001 + 0xffffffff -> 0xffffffff
	// CHECK: v36 = 0xffffffff
	v_mad_i32_i16 v37, s5, s5, s2 clamp  // 2^30 + INT_MAX -> 0x7fffffff
	// CHECK: v37 = 0x7fffffff
// The VOP3 forms of the 24-bit multiplies and the SADs saturate the same
// way with clamp (LLVM's clamp: integer results clamped to the type's range)
	v_mul_u32_u24_e64 v39, s1, s1 clamp  // 0xfffffe000001 -> 0xffffffff (wrapped: 0xfe000001)
	// CHECK: v39 = 0xffffffff
	v_mul_i32_i24_e64 v40, s3, s4 clamp  // -2^46 + 2^23 -> 0x80000000 (wrapped: 0x00800000, v1)
	// CHECK: v40 = 0x80000000
	v_mul_i32_i24_e64 v41, s3, s3 clamp  // 2^46 -> 0x7fffffff (wrapped: 0)
	// CHECK: v41 = 0x7fffffff
	v_mul_u32_u24_e64 v47, s4, 2 clamp   // in range: 0xfffffe
	// CHECK: v47 = 0xfffffe
	v_sad_u8 v42, s6, 0, s1 clamp        // 4 * 0x80 + 0xffffffff -> 0xffffffff (wrapped: 0x1ff)
	// CHECK: v42 = 0xffffffff
	v_sad_hi_u8 v43, s6, 0, s1 clamp     // 0x200 << 16 + 0xffffffff -> 0xffffffff
	// CHECK: v43 = 0xffffffff
	v_sad_u16 v44, s1, 0, s1 clamp       // 0x1fffe + 0xffffffff -> 0xffffffff (wrapped: 0x1fffd, v30)
	// CHECK: v44 = 0xffffffff
	v_sad_u32 v45, s0, s2, -1 clamp      // 1 + 0xffffffff -> 0xffffffff (wrapped: 0, v15)
	// CHECK: v45 = 0xffffffff
	v_sad_u32 v46, s2, 0, 1 clamp        // in range: 0x80000000
	// CHECK: v46 = 0x80000000
	s_mul_i32 s10, s0, s1                // 0x80000000
	// CHECK: s10 = 0x80000000
	s_mul_hi_i32 s11, s0, s0             // 0x40000000
	// CHECK: s11 = 0x40000000
	s_add_i32 s12, s0, s1                // INT_MIN + -1 wraps: 0x7fffffff, SCC = 1
	// CHECK: s12 = 0x7fffffff
	s_cselect_b32 s13, 1, 0
	// CHECK: s13 = 1
	s_sub_i32 s14, s2, s1                // INT_MAX - -1 wraps: 0x80000000, SCC = 1
	// CHECK: s14 = 0x80000000
	s_cselect_b32 s15, 1, 0
	// CHECK: s15 = 1
	s_abs_i32 s16, s0                    // |INT_MIN| wraps: 0x80000000, SCC = 1
	// CHECK: s16 = 0x80000000
	s_cselect_b32 s17, 1, 0
	// CHECK: s17 = 1
	s_absdiff_i32 s18, s2, s0            // 32-bit: INT_MAX - INT_MIN wraps to -1, |-1| = 1
	// CHECK: s18 = 1
	s_absdiff_i32 s30, s0, 1             // INT_MIN - 1 wraps to INT_MAX (ISA example): 0x7fffffff
	// CHECK: s30 = 0x7fffffff
	s_absdiff_i32 s31, s0, 0             // |INT_MIN| wraps (ISA example): 0x80000000, SCC = 1
	// CHECK: s31 = 0x80000000
	s_cselect_b32 s32, 1, 0
	// CHECK: s32 = 1
	s_mov_b32 s19, s2
	s_addk_i32 s19, 0x1                  // INT_MAX + 1 wraps: 0x80000000, SCC = 1
	// CHECK: s19 = 0x80000000
	s_cselect_b32 s22, 1, 0
	// CHECK: s22 = 1
	s_mov_b32 s23, s0
	s_mulk_i32 s23, 0xffff               // INT_MIN * -1 wraps: 0x80000000
	// CHECK: s23 = 0x80000000
	s_bfe_i32 s24, s0, 0x200000          // width 32, offset 0: 0x80000000
	// CHECK: s24 = 0x80000000
	s_bfe_i32 s25, s0, 0x1001f           // width 1, offset 31: 0xffffffff
	// CHECK: s25 = 0xffffffff
	s_ashr_i32 s26, s0, 31               // 0xffffffff
	// CHECK: s26 = 0xffffffff
	s_flbit_i32 s27, s0                  // 1
	// CHECK: s27 = 1
	s_bfe_i64 s[28:29], s[0:1], 0x40001f // width 64 from bit 31: 0xffffffff_ffffffff
	// CHECK: s28 = 0xffffffff
	// CHECK: s29 = 0xffffffff
	s_endpgm
	// CHECK: status = ended
