// Cross-lane operations, wave32. ISA / LLVM sources: DS_SWIZZLE_B32 offset
// modes (bit 15: quad permute, 2 bits per lane; else and [4:0], or [9:5],
// xor [14:10] within 32 lanes; the data is the ADDR operand), DS_PERMUTE_B32
// (push to lane addr/4, "the highest-numbered source thread wins", lanes
// nothing is pushed to get 0), DS_BPERMUTE_B32 (pull; an inactive source lane
// gives 0), DPP16 row_shl/row_ror/row_xmask/quad_perm with bound_ctrl,
// row_mask/bank_mask (lanes disabled by the masks or reading outside the row
// without bound_ctrl keep their value), DPP8, V_PERMLANE16/X16_B32 (4-bit
// lane selects from src1 (lanes 0-7) and src2 (8-15)), SDWA selects,
// sign extension and dst_unused (CLRX GcnSdwaDpp.md).
// v0 = lane, v1 = lane * 4, v2 = 100 + lane, v12 = v13 = 0xdead,
// s0 = 0x89abcdef, s1 = 0x01234567, s2 = 0
	ds_swizzle_b32 v3, v2 offset:0x041f          // lane ^ 1
	// CHECK: v3 = 100 + (lane ^ 1)
	ds_swizzle_b32 v4, v2 offset:0x8055          // quad perm [1,1,1,1]
	// CHECK: v4 = 100 + ((lane & ~3) | 1)
	ds_swizzle_b32 v5, v2 offset:0x03e0          // and 0, or 31: lane 31
	// CHECK: v5 = 131
	v_sub_nc_u32 v7, 31, v0
	v_lshlrev_b32 v7, 2, v7
	ds_permute_b32 v8, v7, v2                    // lane 31 - l gets v2[l]
	// CHECK: v8 = 100 + 31 - lane
	v_mov_b32 v9, 0
	ds_permute_b32 v10, v9, v2                   // everyone pushes to lane 0: lane 31 wins
	// CHECK: v10 = lane == 0 ? 131 : 0
	v_add_nc_u32 v11, 64, v1                     // (lane + 16) * 4
	s_mov_b32 exec_lo, 0xffff
	ds_bpermute_b32 v12, v11, v2                 // lanes 16..31 inactive: 0
	// CHECK: v12 = lane < 16 ? 0 : 0xdead
	ds_bpermute_b32 v13, v1, v2 offset:8         // lane + 2: lanes 14, 15 read inactive lanes
	// CHECK: v13 = lane < 14 ? 102 + lane : lane < 16 ? 0 : 0xdead
	s_mov_b32 exec_lo, -1
	v_mov_b32 v14, -1
	v_mov_b32_dpp v14, v2 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
	// CHECK: v14 = (lane & 15) == 15 ? 0 : 101 + lane
	v_mov_b32 v15, -1
	v_mov_b32_dpp v15, v2 row_shl:1 row_mask:0xf bank_mask:0xf
	// CHECK: v15 = (lane & 15) == 15 ? 0xffffffff : 101 + lane
	v_mov_b32 v16, -1
	v_mov_b32_dpp v16, v2 row_ror:1 row_mask:0x1 bank_mask:0x3
	// CHECK: v16 = lane < 8 ? 100 + ((lane - 1) & 15) : 0xffffffff
	v_mov_b32 v17, -1
	v_mov_b32_dpp v17, v2 row_xmask:15 row_mask:0xf bank_mask:0xf
	// CHECK: v17 = 100 + ((lane & ~15) | ((lane & 15) ^ 15))
	v_add_nc_u32_dpp v18, v2, v2 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf
	// CHECK: v18 = 200 + (lane & ~3) + lane
	v_permlane16_b32 v19, v2, s0, s1             // lane 15 - i within the row
	// CHECK: v19 = 100 + (lane & ~15) + 15 - (lane & 15)
	v_permlanex16_b32 v20, v2, s2, s2            // lane 0 of the other row
	// CHECK: v20 = lane < 16 ? 116 : 100
	v_readlane_b32 s3, v2, 3
	// CHECK: s3 = 103
	v_mov_b32 v21, 0x8080ff7f
	v_add_nc_u32_sdwa v22, sext(v21), v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:DWORD
	// CHECK: v22 = lane - 1
	v_mov_b32_sdwa v23, v21 dst_sel:BYTE_2 dst_unused:UNUSED_SEXT src0_sel:BYTE_3
	// CHECK: v23 = 0xff800000
	v_mov_b32 v24, 0x12345678
	v_mov_b32_sdwa v24, v21 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1
	// CHECK: v24 = 0x12348080
	v_mov_b32_dpp v25, v2 dpp8:[1,0,3,2,5,4,7,6]
	// CHECK: v25 = 100 + (lane ^ 1)
	s_endpgm
	// CHECK: status = ended
