// Float special values (f32), MODE = FloatMode 240 | IEEE | DX10_CLAMP.
// Sources: the AMD ISA pseudocode and functional examples for V_MIN_F32,
// V_MAX_F32, V_MED3_F32, V_RCP_F32, V_RSQ_F32, V_SQRT_F32, V_LOG_F32,
// V_EXP_F32, V_SIN_F32, V_COS_F32, V_FRACT_F32, V_FREXP_*, V_DIV_FIXUP_F32
// (instruction reference text as carried by the RDNA3/CDNA ISA guides; RDNA2
// uses the same definitions), LLVM's v_cmp_class mask layout.
// s0 = +inf, s1 = -inf, s2 = +0, s3 = qNaN 0x7fc00000, s4 = 1.0,
// s5 = sNaN 0x7fa00000, s6 = -0, s7 = 2.0, s8 = 3.0, s9 = denormal 0x00000001,
// s10 = 0.25, s11 = -FLT_MAX, s12 = -127.5, s13 = -1e-30, s14 = 0x7f800001
	v_add_f32 v1, s0, s1                 // inf + -inf: NaN
	// CHECK: v1 = nan
	v_mul_f32 v2, s2, s0                 // 0 * inf: NaN
	// CHECK: v2 = nan
	v_min_f32 v3, s3, s4                 // quiet NaN: the other operand (1.0)
	// CHECK: v3 = 0x3f800000
	v_min_f32 v4, s5, s4                 // IEEE mode, signalling NaN: quieted NaN 0x7fe00000
	// CHECK: v4 = 0x7fe00000
	v_max_f32 v5, s6, s2                 // max(-0, +0) = +0
	// CHECK: v5 = 0x00000000
	v_min_f32 v6, s2, s6                 // min(+0, -0) = -0
	// CHECK: v6 = 0x80000000
	v_mov_b32 v40, s7
	v_med3_f32 v7, s3, s4, v40           // a NaN: min3 -> min(1, 2) = 1
	// CHECK: v7 = 0x3f800000
	v_med3_f32 v8, s8, s4, v40           // median(3, 1, 2) = 2
	// CHECK: v8 = 0x40000000
	v_rcp_f32 v9, s9                     // denormal input flushed: +inf
	// CHECK: v9 = 0x7f800000
	v_sqrt_f32 v10, s9                   // denormal input flushed: +0
	// CHECK: v10 = 0x00000000
	v_rsq_f32 v11, s6                    // rsq(-0) = -inf
	// CHECK: v11 = 0xff800000
	v_log_f32 v12, s6                    // log(-0) = -inf
	// CHECK: v12 = 0xff800000
	v_exp_f32 v13, s1                    // exp(-inf) = 0
	// CHECK: v13 = 0x00000000
	v_exp_f32 v14, s12                   // 2^-127.5 is denormal: flushed to 0
	// CHECK: v14 = 0x00000000
	v_sin_f32 v15, s10                   // sin(0.25 rev) = 1.0
	// CHECK: v15 = 0x3f800000
	v_cos_f32 v16, s10                   // cos(0.25 rev) = +0
	// CHECK: v16 = 0x00000000
	v_sin_f32 v17, s11                   // -FLT_MAX is an integer: +0
	// CHECK: v17 = 0x00000000
	v_cos_f32 v18, s0                    // cos(+inf) = 0xffc00000
	// CHECK: v18 = 0xffc00000
	v_frexp_mant_f32 v19, s0             // inf stays inf
	// CHECK: v19 = 0x7f800000
	v_frexp_exp_i32_f32 v20, s9          // 2^-149 = 0.5 * 2^-148: -148
	// CHECK: v20 = -148
	v_ldexp_f32 v21, s4, 0xffffff6b      // 1.0 * 2^-149: smallest denormal
	// CHECK: v21 = 0x00000001
	v_ldexp_f32 v22, s4, 0xffffff6a      // 2^-150: tie, rounds to even (+0)
	// CHECK: v22 = 0x00000000
	v_fract_f32 v23, s13                 // -1e-30 - floor = 1.0 after rounding: clamped 0x3f7fffff
	// CHECK: v23 = 0x3f7fffff
	v_cmp_class_f32 s20, s9, 0x80        // +denormal is class 7
	// CHECK: s20 = 0xffffffff
	v_cmp_class_f32 s21, s14, 1          // 0x7f800001 is a signalling NaN (class 0)
	// CHECK: s21 = 0xffffffff
	v_mov_b32 v41, s8
	v_div_fixup_f32 v24, s4, s2, s2      // 0 / 0: 0xffc00000
	// CHECK: v24 = 0xffc00000
	v_div_fixup_f32 v25, s4, s6, s4      // 1 / -0: -inf
	// CHECK: v25 = 0xff800000
	v_div_fixup_f32 v26, s4, s0, s4      // 1 / inf: +0
	// CHECK: v26 = 0x00000000
	v_div_fixup_f32 v27, s4, s4, s14     // sNaN numerator: quieted 0x7fc00001
	// CHECK: v27 = 0x7fc00001
	v_div_fixup_f32 v28, s3, s7, v41     // NaN quotient (overflow in the macro): +inf
	// CHECK: v28 = 0x7f800000
	v_div_fixup_f32 v29, -s8, s7, -v41   // |q| with the sign of 2 * -3: -3
	// CHECK: v29 = 0xc0400000
	v_mov_b32 v42, s6
	v_max3_f32 v30, s1, s3, v42          // max3(-inf, NaN, -0) = -0
	// CHECK: v30 = 0x80000000
	v_mul_legacy_f32 v31, s2, s0         // legacy: 0 * inf = 0
	// CHECK: v31 = 0x00000000
	s_endpgm
	// CHECK: status = ended
