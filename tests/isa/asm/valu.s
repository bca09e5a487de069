// VALU forms: SDWA, DPP16/DPP8, VOP3b carries, literals, 64-bit, f32.
// v0 = lane id; v1 = 0xaaaaaaaa; v2 = 0x1234ff56; v3 = 0xffffffff; v4 = 0xdead;
// v20 = lane + 0x10000, v21 = 0x10001, v[22:23] = 0x100000000 + lane;
// vcc_lo = 0x0000ffff, v14 = 1.0
	v_and_b32_sdwa v1, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 src1_sel:DWORD
	// byte 1 of v2 (0xff) & v3 into WORD_1; the low word preserved
	// CHECK: v1 = 0x00ffaaaa
	v_mov_b32_dpp v4, v0 row_shr:1 row_mask:0xf bank_mask:0xf
	// row_shr:1 without bound_ctrl: lane 0 of each row of 16 keeps v4
	// CHECK: v4 = (lane & 15) == 0 ? 0xdead : lane - 1
	v_mov_b32_dpp v5, v0 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
	// CHECK: v5 = (lane & ~3) | (3 - (lane & 3))
	v_add_co_u32 v6, s10, v0, -1
	// CHECK: v6 = lane - 1
	// CHECK: s10 = 0xfffffffe
	v_add_co_ci_u32_e32 v7, vcc_lo, 0, v0, vcc_lo
	// the VCC carry-in: lanes 0..15 add 1
	// CHECK: v7 = lane + (lane < 16)
	v_mad_u64_u32 v[8:9], s11, v20, v21, v[22:23]
	// CHECK: v[8:9] = (0x10000 + lane) * 0x10001 + 0x100000000 + lane
	// no carry out of 64 bits
	// CHECK: s11 = 0
	v_cvt_f32_u32 v11, v0
	// v12..v15 are checked in C against the host's f32 arithmetic
	// CHECK: v11 = f32(lane)
	v_add_f32 v12, 0.5, v11
	v_mul_f32 v13, 0.15915494, v11
	v_fmac_f32 v14, v11, v11
	v_rcp_iflag_f32 v15, v11
	v_cvt_u32_f32 v16, v12
	// trunc(lane + 0.5)
	// CHECK: v16 = lane
	v_lshlrev_b64 v[17:18], 33, v[22:23]
	// CHECK: v[17:18] = (0x100000000 + lane) << 33
	v_add_nc_u32 v19, 0x12345678, v0
	// CHECK: v19 = 0x12345678 + lane
	v_add3_u32 v24, 0x1234, v0, 0x1234
	// one literal, used twice
	// CHECK: v24 = 0x2468 + lane
	v_readlane_b32 s12, v20, 5
	// CHECK: s12 = 0x10005
	v_writelane_b32 v25, s12, 3
	// CHECK: v25 = lane == 3 ? 0x10005 : 0x5555
	v_mov_b32_dpp v26, v0 dpp8:[7,6,5,4,3,2,1,0]
	// dpp8: lanes reversed within each 8
	// CHECK: v26 = (lane & ~7) | (7 - (lane & 7))
	v_sub_nc_u32_e64 v27, v0, 5 clamp
	// clamp: no wrap
	// CHECK: v27 = lane < 5 ? 0 : lane - 5
	v_mul_hi_u32 v28, v20, v20
	// CHECK: v28 = (0x10000 + lane) * (0x10000 + lane) >> 32
	v_bfe_u32 v29, v2, 8, 8
	// CHECK: v29 = 0xff
	v_lshl_add_u32 v30, v0, 4, 3
	// CHECK: v30 = (lane << 4) + 3
	s_mov_b32 exec_lo, 0xff00
	v_readfirstlane_b32 s13, v0
	// the first active lane of 0xff00
	// CHECK: s13 = 8
	s_mov_b32 exec_lo, -1
	s_endpgm
	// CHECK: status = ended
