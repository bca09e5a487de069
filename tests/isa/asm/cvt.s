// Conversions and the clamp bit. Sources: ISA notes for V_CVT_I32_F32 /
// V_CVT_U32_F32 ("out-of-range floating point values (including infinity)
// saturate. NAN is converted to 0"), V_CVT_FLR_I32_F32 / V_CVT_RPI_I32_F32
// pseudocode (floor(S0), floor(S0 + 0.5)), V_CVT_F16_F32 (IEEE rounding of
// the MODE: nearest even here), V_CVT_PKRTZ_F16_F32 (toward zero), the VOP3
// clamp bit (float: [0, 1], NaN -> 0 with DX10_CLAMP; integer add/sub:
// saturate, LLVM AMDGPU clamp tests), V_CVT_PK_U8_F32 / V_SAT_PK_U8_I16.
// s0 = NaN, s1 = +inf, s2 = -inf, s3 = 3e9, s4 = -2.5, s5 = -1.0, s6 = 5e9,
// s7 = -0.5, s8 = 2.5, s9 = 65520.0, s10 = 65519.0, s11 = 2^-25,
// s12 = 1.5 * 2^-25, s13 = 0x7fffffff, s14 = 300.0, s15 = 2.0
	v_cvt_i32_f32 v1, s0                 // NaN -> 0
	// CHECK: v1 = 0
	v_cvt_i32_f32 v2, s1                 // +inf -> 0x7fffffff
	// CHECK: v2 = 0x7fffffff
	v_cvt_i32_f32 v3, s2                 // -inf -> 0x80000000
	// CHECK: v3 = 0x80000000
	v_cvt_i32_f32 v4, s3                 // 3e9 -> 0x7fffffff
	// CHECK: v4 = 0x7fffffff
	v_cvt_i32_f32 v5, s4                 // -2.5 -> -2 (toward zero)
	// CHECK: v5 = -2
	v_cvt_u32_f32 v6, s5                 // -1 -> 0
	// CHECK: v6 = 0
	v_cvt_u32_f32 v7, s6                 // 5e9 -> 0xffffffff
	// CHECK: v7 = 0xffffffff
	v_cvt_u32_f32 v8, s0                 // NaN -> 0
	// CHECK: v8 = 0
	v_cvt_flr_i32_f32 v9, s7             // floor(-0.5) = -1
	// CHECK: v9 = -1
	v_cvt_rpi_i32_f32 v10, s4            // floor(-2.5 + 0.5) = -2
	// CHECK: v10 = -2
	v_cvt_rpi_i32_f32 v11, s8            // floor(2.5 + 0.5) = 3
	// CHECK: v11 = 3
	v_cvt_f16_f32 v12, s9                // 65520 -> +inf (0x7c00)
	// CHECK: v12 = 0x7c00
	v_cvt_f16_f32 v13, s10               // 65519 -> 65504 (0x7bff)
	// CHECK: v13 = 0x7bff
	v_cvt_f16_f32 v14, s11               // 2^-25: tie between 0 and 2^-24 -> +0
	// CHECK: v14 = 0x0000
	v_cvt_f16_f32 v15, s12               // 1.5 * 2^-25 -> 2^-24 (0x0001)
	// CHECK: v15 = 0x0001
	v_cvt_pkrtz_f16_f32 v16, s9, -s9     // toward zero: {0x7bff, 0xfbff}
	// CHECK: v16 = 0xfbff7bff
	v_cvt_f32_i32 v17, s13               // 2^31 - 1 -> 2^31 (nearest even)
	// CHECK: v17 = 0x4f000000
	v_add_f32_e64 v18, s15, 0 clamp      // 2 -> 1.0
	// CHECK: v18 = 0x3f800000
	v_add_f32_e64 v19, s5, 0 clamp       // -1 -> 0
	// CHECK: v19 = 0x00000000
	v_add_f32_e64 v20, s0, 0 clamp       // NaN -> 0 (DX10_CLAMP)
	// CHECK: v20 = 0x00000000
	v_mov_b32 v30, -1
	v_add_nc_u32_e64 v21, v30, 2 clamp   // 0xffffffff + 2 -> 0xffffffff
	// CHECK: v21 = 0xffffffff
	v_sub_nc_u32_e64 v22, 1, 2 clamp     // 1 - 2 -> 0
	// CHECK: v22 = 0
	v_mov_b32 v31, 0x7fffffff
	v_add_nc_i32 v23, v31, 1 clamp       // INT_MAX + 1 -> INT_MAX
	// CHECK: v23 = 0x7fffffff
	v_bfrev_b32 v32, 1                   // 0x80000000
	v_sub_nc_i32 v24, v32, 1 clamp       // INT_MIN - 1 -> INT_MIN
	// CHECK: v24 = 0x80000000
	v_add_co_u32 v25, s20, v30, 3 clamp  // carry out, saturated: 0xffffffff
	// CHECK: v25 = 0xffffffff
	// CHECK: s20 = 0xffffffff
	v_cvt_pk_u8_f32 v26, s14, 1, 0       // 300 -> 255 in byte 1: 0x0000ff00
	// CHECK: v26 = 0x0000ff00
	v_mov_b32 v33, 0x0180ff7f            // {0xff7f, 0x0180} = {-129, 384}
	v_sat_pk_u8_i16 v27, v33             // {0, 255} -> 0xff00
	// CHECK: v27 = 0x0000ff00
	v_cvt_u16_f16 v28, 0xbc00            // -1.0 -> 0
	// CHECK: v28 = 0
	v_cvt_i16_f16 v29, 0x7c00            // +inf -> 0x7fff
	// CHECK: v29 = 0x7fff
	s_endpgm
	// CHECK: status = ended
