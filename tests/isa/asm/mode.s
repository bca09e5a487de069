// MODE.FP_ROUND (s_round_mode: [1:0] f32, [3:2] f64/f16; 0 nearest even,
// 1 +inf, 2 -inf, 3 toward zero) and MODE.FP_DENORM (s_denorm_mode: [1:0]
// f32, [3:2] f64/f16; bit 0 allows input denormals, bit 1 output
// denormals) per CLRX GcnState.md / LLVM SIDefines.h FP_ROUND_* /
// FP_DENORM_*; exact results per IEEE 754 directed rounding.
// s0 = 1.0, s1 = 1.5 * 2^-24 (0.75 ulp of 1.0), s2 = -1.0, s3 = 2^-126
// (smallest normal), s4 = 0x00000001 (smallest denormal), s[6:7] = 1.0,
// s[8:9] = 2^-60 (as f64), s10 = 0x7fffffff, s11 = 65520.0, s12 = 3.0
	v_add_f32 v1, s0, s1                 // nearest: 1 + 2^-23 (0x3f800001)
	// CHECK: v1 = 0x3f800001
	s_round_mode 0x3                     // f32 toward zero
	v_add_f32 v2, s0, s1                 // 1.0
	// CHECK: v2 = 0x3f800000
	v_cvt_f32_i32 v3, s10                // 2^31 - 128 (0x4effffff)
	// CHECK: v3 = 0x4effffff
	v_mov_b32 v30, s1
	v_fma_f32 v4, s2, s0, -v30           // -1 - 0.75 ulp toward zero: -1.0
	// CHECK: v4 = 0xbf800000
	s_round_mode 0x2                     // f32 toward -inf
	v_fma_f32 v5, s2, s0, -v30           // -(1 + 2^-23) (0xbf800001)
	// CHECK: v5 = 0xbf800001
	v_sub_f32 v6, s0, s0                 // x - x: -0
	// CHECK: v6 = 0x80000000
	v_mul_f32 v7, s12, s1                // 4.5 * 2^-24 exactly: 0x34900000
	// CHECK: v7 = 0x34900000
	s_round_mode 0x1                     // f32 toward +inf
	v_add_f32 v8, s0, s1                 // 0x3f800001
	// CHECK: v8 = 0x3f800001
	v_sub_f32 v9, s0, s0                 // +0
	// CHECK: v9 = 0x00000000
	s_round_mode 0x4                     // f64/f16 toward +inf, f32 nearest
	v_add_f64 v[10:11], s[6:7], s[8:9]   // 1 + 2^-60 up: 1 + 2^-52
	// CHECK: v10 = 0x00000001
	// CHECK: v11 = 0x3ff00000
	v_cvt_f16_f32 v12, s0                // 1.0 exact: 0x3c00
	// CHECK: v12 = 0x3c00
	v_mov_b32 v31, 0x3c00
	v_add_f16 v13, v31, 0x0001           // 1 + 2^-24 up: 0x3c01
	// CHECK: v13 = 0x3c01
	s_round_mode 0xc                     // f64/f16 toward zero
	v_cvt_f16_f32 v14, s11               // 65520 -> 65504 (0x7bff), not inf
	// CHECK: v14 = 0x7bff
	v_mul_f64 v[15:16], s[6:7], s[8:9]   // exact: 2^-60
	// CHECK: v15 = 0x00000000
	// CHECK: v16 = 0x3c300000
	s_round_mode 0x0
	s_denorm_mode 0x0                    // flush f32 inputs and outputs
	v_add_f32 v17, s4, s4                // inputs flushed: +0
	// CHECK: v17 = 0
	v_mul_f32 v18, s3, 0.5               // result 2^-127 flushed: +0
	// CHECK: v18 = 0
	v_min_f32 v19, s4, 1.0               // input flushed: +0
	// CHECK: v19 = 0
	s_denorm_mode 0x1                    // f32 denormal inputs kept, outputs flushed
	v_add_f32 v20, s4, s3                // 2^-126 + 2^-149: normal, kept
	// CHECK: v20 = 0x00800001
	v_sub_f32 v21, s3, s4                // 2^-126 - 2^-149: denormal result, flushed: +0
	// CHECK: v21 = 0
	s_denorm_mode 0x2                    // f32 inputs flushed, outputs kept
	v_add_f32 v22, s4, s4                // +0
	// CHECK: v22 = 0
	v_mul_f32 v23, s3, 0.5               // 2^-127 kept: 0x00400000
	// CHECK: v23 = 0x00400000
	s_denorm_mode 0xf
	v_mul_f32_e64 v24, s0, 1.0 mul:2     // output denormals allowed: omod ignored, 1.0
	// CHECK: v24 = 0x3f800000
	s_denorm_mode 0xc                    // f32 flushed: omod works
	v_mul_f32_e64 v25, s0, 1.0 mul:2     // 2.0
	// CHECK: v25 = 0x40000000
	s_denorm_mode 0xf
	s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 3   // f32 toward zero through s_setreg
	v_add_f32 v26, s0, s1                // 1.0
	// CHECK: v26 = 0x3f800000
	s_getreg_b32 s20, hwreg(HW_REG_MODE, 0, 8)
	// CHECK: s20 = 0xf3
	v_mov_b32 v32, 0x7f7fffff            // FLT_MAX
	v_add_f32 v27, v32, v32              // overflow toward zero: FLT_MAX
	// CHECK: v27 = 0x7f7fffff
	s_round_mode 0x2
	v_mul_f32 v28, v32, -2.0             // toward -inf: -inf
	// CHECK: v28 = 0xff800000
	v_mul_f32 v29, v32, 2.0              // toward -inf: FLT_MAX
	// CHECK: v29 = 0x7f7fffff
	s_round_mode 0x0
	v_add_f32 v31, v32, v32              // nearest: +inf
	// CHECK: v31 = 0x7f800000
	s_denorm_mode 0xc                    // f32 denormals flushed (-cl-denorms-are-zero)
	v_mov_b32 v34, 5
	v_ldexp_f32 v33, 1.0, v34            // S1 is an integer, never flushed: 2^5 = 32.0
	// CHECK: v33 = 0x42000000
	v_ldexp_f32 v35, s0, s4              // s4 = 1 (a denormal's bits): 2.0
	// CHECK: v35 = 0x40000000
	v_ldexp_f32 v36, s0, -3              // 0.125
	// CHECK: v36 = 0x3e000000
	v_ldexp_f32 v37, s4, 10              // S0 flushed: +0
	// CHECK: v37 = 0
	s_endpgm
	// CHECK: status = ended
