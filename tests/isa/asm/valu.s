// VALU forms: SDWA, DPP16/DPP8, VOP3b carries, literals, 64-bit, f32.
// v0 = lane id; v1 = 0xaaaaaaaa; v2 = 0x1234ff56; v3 = 0xffffffff; v4 = 0xdead;
// v20 = lane + 0x10000, v21 = 0x10001, v[22:23] = 0x100000000 + lane;
// vcc_lo = 0x0000ffff, v14 = 1.0
	v_and_b32_sdwa v1, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 src1_sel:DWORD
	v_mov_b32_dpp v4, v0 row_shr:1 row_mask:0xf bank_mask:0xf
	v_mov_b32_dpp v5, v0 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
	v_add_co_u32 v6, s10, v0, -1
	v_add_co_ci_u32_e32 v7, vcc_lo, 0, v0, vcc_lo
	v_mad_u64_u32 v[8:9], s11, v20, v21, v[22:23]
	v_cvt_f32_u32 v11, v0
	v_add_f32 v12, 0.5, v11
	v_mul_f32 v13, 0.15915494, v11
	v_fmac_f32 v14, v11, v11
	v_rcp_iflag_f32 v15, v11
	v_cvt_u32_f32 v16, v12
	v_lshlrev_b64 v[17:18], 33, v[22:23]
	v_add_nc_u32 v19, 0x12345678, v0
	v_add3_u32 v24, 0x1234, v0, 0x1234
	v_readlane_b32 s12, v20, 5
	v_writelane_b32 v25, s12, 3
	v_mov_b32_dpp v26, v0 dpp8:[7,6,5,4,3,2,1,0]
	v_sub_nc_u32_e64 v27, v0, 5 clamp
	v_mul_hi_u32 v28, v20, v20
	v_bfe_u32 v29, v2, 8, 8
	v_lshl_add_u32 v30, v0, 4, 3
	s_mov_b32 exec_lo, 0xff00
	v_readfirstlane_b32 s13, v0
	s_mov_b32 exec_lo, -1
	s_endpgm
