// Division helpers, ISA pseudocode of V_DIV_SCALE_F32/F64, V_DIV_FMAS_F32,
// V_DIV_FIXUP_F64 and V_TRIG_PREOP_F64 (RDNA3/CDNA instruction reference;
// the denormal reciprocal/quotient tests in the operand's precision, see
// xs_isa_exec_valu_f.c). s0 = 1.0, s1 = 2^127, s2 = 2^-127 (denormal), s3 = 2^100,
// s4 = 2^-10, s5 = 2^-110, s6 = 2.0, s7 = 0, s8 = 2^-60
	v_div_scale_f32 v1, s10, s2, s2, s8  // denormal denominator 2^-127 (N = 2^-60): * 2^64 = 2^-63, vcc 0
	// CHECK: v1 = 0x20000000
	// CHECK: s10 = 0
	v_div_scale_f32 v2, s11, s1, s1, s0  // 1/2^127 and 1/2^127 denormal: den * 2^-64 = 2^63, vcc 1
	// CHECK: v2 = 0x5f000000
	// CHECK: s11 = 0xffffffff
	v_div_scale_f32 v3, s12, s0, s1, s0  // the numerator of that pair: unchanged, vcc 1
	// CHECK: v3 = 0x3f800000
	// CHECK: s12 = 0xffffffff
	v_div_scale_f32 v4, s13, s3, s4, s3  // exponent(N) - exponent(D) >= 96: vcc 1, N unchanged
	// CHECK: v4 = 0x71800000
	// CHECK: s13 = 0xffffffff
	v_div_scale_f32 v5, s14, s4, s4, s3  //   the denominator of that pair: * 2^64 = 2^54
	// CHECK: v5 = 0x5a800000
	// CHECK: s14 = 0xffffffff
	v_div_scale_f32 v6, s15, s5, s0, s5  // tiny numerator (exponent <= 23): * 2^64 = 2^-46, vcc 0
	// CHECK: v6 = 0x28800000
	// CHECK: s15 = 0
	v_div_scale_f32 v7, s16, s0, s7, s0  // zero denominator: NaN
	// CHECK: v7 = nan
	// CHECK: s16 = 0
	v_mov_b32 v26, s0
	v_mov_b32 v27, s6
	s_mov_b32 vcc_lo, -1
	v_div_fmas_f32 v8, v26, v26, v27     // vcc, exponent(2.0) > 127: 3 * 2^64 = 0x60400000
	// CHECK: v8 = 0x60400000
	v_div_fmas_f32 v9, v26, v26, v26     // vcc, exponent(1.0) = 127: 2 * 2^-64
	// CHECK: v9 = 0x20000000
	s_mov_b32 vcc_lo, 0
	v_div_fmas_f32 v10, v26, v26, v26    // no vcc: 2.0
	// CHECK: v10 = 0x40000000
	v_mov_b32 v20, 0
	v_mov_b32 v21, 0x3ff00000            // v[20:21] = 1.0
	v_mov_b32 v22, 0
	v_mov_b32 v23, 0
	v_div_fixup_f64 v[11:12], v[20:21], v[22:23], v[22:23]   // 0 / 0: 0xfff8000000000000
	// CHECK: v11 = 0
	// CHECK: v12 = 0xfff80000
	v_div_fixup_f64 v[13:14], v[20:21], v[22:23], v[20:21]   // 1 / 0: +inf
	// CHECK: v13 = 0
	// CHECK: v14 = 0x7ff00000
	v_trig_preop_f64 v[15:16], v[20:21], 0                   // 2/pi bits 1..53: 0x3fe45f306dc9c882
	// CHECK: v15 = 0x6dc9c882
	// CHECK: v16 = 0x3fe45f30
	v_trig_preop_f64 v[17:18], v[20:21], 1                   // bits 54..106, scaled 2^-106
	// CHECK: v17 = 0x9d5f47d4
	// CHECK: v18 = 0x3c94a7f0
	v_div_scale_f64 v[24:25], s17, v[22:23], v[22:23], v[20:21] // zero denominator: NaN
	// CHECK: v25 = 0x7ff80000
	// CHECK: s17 = 0
	s_endpgm
	// CHECK: status = ended
