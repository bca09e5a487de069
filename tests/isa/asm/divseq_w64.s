// clang-15's f32 and f64 division sequences for gfx1030 (as emitted for
// x / y, see tests/e2e corpus/f32_div and f64_basic), wave64. The test feeds
// random operand pairs (biased towards huge, tiny and denormal values) and
// requires the correctly rounded quotient of IEEE 754 (the host's division)
// for every pair: the v_div_scale / v_div_fmas / v_div_fixup semantics are
// right only if the whole macro is.
// v1 = n, v2 = d (f32); v[10:11] = n, v[12:13] = d (f64)
	v_div_scale_f32 v3, null, v2, v2, v1
	v_rcp_f32 v4, v3
	v_fma_f32 v5, -v3, v4, 1.0
	v_fmac_f32 v4, v5, v4
	v_div_scale_f32 v5, vcc, v1, v2, v1
	v_mul_f32 v6, v5, v4
	v_fma_f32 v7, -v3, v6, v5
	v_fmac_f32 v6, v7, v4
	v_fma_f32 v3, -v3, v6, v5
	v_div_fmas_f32 v3, v3, v4, v6
	v_div_fixup_f32 v3, v3, v2, v1
	v_div_scale_f64 v[14:15], null, v[12:13], v[12:13], v[10:11]
	v_rcp_f64 v[16:17], v[14:15]
	v_fma_f64 v[18:19], -v[14:15], v[16:17], 1.0
	v_fma_f64 v[16:17], v[16:17], v[18:19], v[16:17]
	v_fma_f64 v[18:19], -v[14:15], v[16:17], 1.0
	v_fma_f64 v[16:17], v[16:17], v[18:19], v[16:17]
	v_div_scale_f64 v[18:19], vcc, v[10:11], v[12:13], v[10:11]
	v_mul_f64 v[20:21], v[18:19], v[16:17]
	v_fma_f64 v[14:15], -v[14:15], v[20:21], v[18:19]
	v_div_fmas_f64 v[14:15], v[14:15], v[16:17], v[20:21]
	v_div_fixup_f64 v[14:15], v[14:15], v[12:13], v[10:11]
	s_endpgm
	// CHECK: status = ended
