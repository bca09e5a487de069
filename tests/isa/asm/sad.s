// The masked and quad SADs; the inputs and the reference are in
// test_isa_exec.c (test_sad): v1, v2, v3 = src0, src1, src2 of the 32-bit
// forms, v[8:9] the 64-bit src0, v[10:11] the packed u16 accumulators,
// v[20:23] the u32 ones.
	v_msad_u8 v4, v1, v2, v3
	v_msad_u8 v5, v1, v2, v3 clamp
	v_qsad_pk_u16_u8 v[6:7], v[8:9], v2, v[10:11]
	v_qsad_pk_u16_u8 v[12:13], v[8:9], v2, v[10:11] clamp
	v_mqsad_pk_u16_u8 v[14:15], v[8:9], v2, v[10:11]
	v_mqsad_pk_u16_u8 v[16:17], v[8:9], v2, v[10:11] clamp
	v_mqsad_u32_u8 v[24:27], v[8:9], v2, v[20:23]
	v_mqsad_u32_u8 v[28:31], v[8:9], v2, v[20:23] clamp
	// a scalar reference and 64-bit source
	v_mqsad_pk_u16_u8 v[32:33], s[0:1], s2, v[10:11]
	s_endpgm
	// CHECK: status = ended
