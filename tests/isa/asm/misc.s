// Assorted semantics: atomics with return, f16 conversion rounding, class
// compares, v_perm_b32, ds_swizzle, f64 compare, packed f16, div_fixup.
// v[6:7] = address of a dword holding 10; v8 = 1; v10 = 100; v11 = 42;
// v3 = 1.0 except lane 0 = NaN; v[14:15] = (double)lane; v[16:17] = 5.0
	global_atomic_add v5, v[6:7], v8, off glc
	// atomics run lane by lane: add returns 10, 11, ...; the word ends at 42,
	// CHECK: v5 = 10 + lane
	global_atomic_cmpswap v9, v[6:7], v[10:11], off glc
	// then only lane 0's cmpswap (compare 42) succeeds
	// CHECK: v9 = lane == 0 ? 42 : 100
	// CHECK: mem[word] = 100
	v_cvt_f16_f32 v1, 0x3f801000        // 1 + 2^-11: tie -> even (1.0)
	// CHECK: v1 & 0xffff = 0x3c00
	v_cvt_f16_f32 v2, 0x3f801800        // above the tie -> 0x3c01
	// CHECK: v2 & 0xffff = 0x3c01
	v_cvt_f32_f16 v13, 1                // smallest f16 denormal: 2^-24
	// CHECK: v13 = 0x33800000
	v_cmp_class_f32 vcc_lo, v3, 3       // signalling or quiet NaN
	s_mov_b32 s10, vcc_lo
	// CHECK: s10 = 1
	v_mov_b32 v22, 0x55667788
	v_mov_b32 v23, 0x0c0d0400
	v_perm_b32 v4, 0x11223344, v22, v23
	// CHECK: v4 = 0x00ff4488
	ds_swizzle_b32 v12, v0 offset:0x41f  // and 0x1f, or 0, xor 1
	// CHECK: v12 = lane ^ 1
	v_cmp_lt_f64_e64 s11, v[14:15], v[16:17]
	// CHECK: s11 = 0x1f
	v_mov_b32 v19, 0x40003c00           // {1.0, 2.0}
	v_mov_b32 v20, 0x34003800           // {0.5, 0.25}
	v_pk_add_f16 v18, v19, v20
	// {1.5, 2.25}
	// CHECK: v18 = 0x40803e00
	v_div_fixup_f32 v21, v22, 0, 1.0    // 1 / 0 -> +inf
	// CHECK: v21 = 0x7f800000
	s_endpgm
	// CHECK: status = ended
