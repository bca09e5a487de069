// LLVM's unsigned 32-bit division expansion (as clang-15 emits it for
// gfx1030, tests/e2e corpus/int_divrem) run with a zero divisor: the result
// follows from each step's ISA definition, nothing faults.
// V_RCP_IFLAG_F32(0) = +inf ("can only raise integer DIV_BY_ZERO"),
// V_MUL_F32(0x4f7ffffe, inf) = inf, V_CVT_U32_F32(inf) = 0xffffffff
// (saturation). v0 = lane (the numerator), s0 = 0 (the divisor).
	v_cvt_f32_u32 v1, s0                 // 0.0
	v_rcp_iflag_f32 v1, v1               // +inf
	v_mul_f32 v1, 0x4f7ffffe, v1         // +inf
	v_cvt_u32_f32 v1, v1                 // z = 0xffffffff
	v_mov_b32 v10, v1
	// CHECK: v10 = 0xffffffff
	s_sub_i32 s1, 0, s0                  // -d = 0
	v_mul_lo_u32 v2, s1, v1              // 0
	v_mul_hi_u32 v2, v1, v2              // 0
	v_add_nc_u32 v1, v1, v2              // z = 0xffffffff
	v_mul_hi_u32 v3, v0, v1              // q = mulhi(n, 2^32 - 1) = n - 1 (n > 0), 0 (n = 0)
	v_mul_lo_u32 v4, v3, s0              // q * d = 0
	v_sub_nc_u32 v4, v0, v4              // r = n
	v_add_nc_u32 v5, 1, v3               // q + 1
	v_subrev_nc_u32 v6, s0, v4           // r - d = n
	v_cmp_le_u32 vcc_lo, s0, v4          // r >= d: always
	v_cndmask_b32 v3, v3, v5, vcc_lo     // q = q + 1
	v_cndmask_b32 v4, v4, v6, vcc_lo     // r = r - d = n
	// CHECK: v4 = lane
	v_add_nc_u32 v5, 1, v3
	v_cmp_le_u32 vcc_lo, s0, v4          // r >= d: always
	v_cndmask_b32 v3, v3, v5, vcc_lo     // q + 1: n + 1 (n > 0), 2 (n = 0)
	// CHECK: v3 = lane ? lane + 1 : 2
	s_endpgm
	// CHECK: status = ended
