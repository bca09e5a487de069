// The instruction forms tests/isa/test_isa_lockstep.c runs one at a time on
// groups of waves, in lockstep (xs_isa_run_lockstep: group handlers where an
// op has one) and one wave after another (xs_isa_run): the states must match.
// The forms that streaming and tiled kernels run most, variants that a group
// handler must decline (modifiers, literals, scalar and constant sources), and
// the branches (SCC is random per wave, so some steps part the waves).
v_fmac_f32_e32 v6, v13, v15
v_fmac_f32_e32 v6, s1, v15
v_fma_f32 v6, v1, v2, v3
v_fma_f32 v6, -v1, v2, v3
v_fma_f32 v6, v1, s2, s3
v_fma_f32 v6, v1, v2, v3 clamp
v_fma_f32 v6, v1, 1.0, v3
v_fma_f32 v6, v1, 0x40490fdb, s3
v_fmac_f32_e32 v6, 0.5, v15
v_add_co_u32 v2, vcc_lo, s0, v0
v_add_co_u32 v2, vcc_lo, v1, v0
v_add_co_u32 v2, s5, v1, 7
v_add_co_u32 v2, vcc_lo, v1, v0 clamp
v_add_co_ci_u32_e32 v3, vcc_lo, s1, v1, vcc_lo
v_add_co_ci_u32_e32 v3, vcc_lo, v2, v1, vcc_lo
v_add_co_ci_u32_e64 v1, null, s1, 0, s0
v_add_co_ci_u32_e64 v1, s4, v2, v1, s0 clamp
v_sub_co_u32 v2, vcc_lo, v1, v0
v_sub_co_ci_u32_e32 v3, vcc_lo, v2, v1, vcc_lo
v_mad_u64_u32 v[0:1], null, s8, s3, v[0:1]
v_mad_u64_u32 v[3:4], null, s7, v3, v[0:1]
v_mad_u64_u32 v[3:4], s6, v5, v3, v[0:1]
v_mad_u64_u32 v[0:1], null, v0, v3, v[0:1] clamp
v_mad_u64_u32 v[0:1], s6, s8, s3, v[0:1]
v_mad_u64_u32 v[1:2], null, s8, 0x12345, v[0:1]
v_lshlrev_b64 v[0:1], 2, v[0:1]
v_lshlrev_b64 v[11:12], 2, v[1:2]
v_lshlrev_b64 v[4:5], v9, v[4:5]
v_lshlrev_b64 v[0:1], s6, v[0:1]
v_lshlrev_b64 v[2:3], 40, v[0:1]
v_add_nc_u32_e32 v3, s7, v3
v_add_nc_u32_e32 v1, 16, v1
v_add_nc_u32_e64 v1, v2, v1 clamp
v_add_nc_u32_e32 v1, 0x12345, v1
v_mov_b32_e32 v4, v2
v_mov_b32_e32 v4, 0
v_mov_b32_e32 v4, s9
v_mov_b32_e32 v4, 0x3f800000
v_mov_b32_sdwa v4, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0
v_mov_b32_dpp v4, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_lshlrev_b32_e32 v6, 2, v1
v_lshrrev_b32_e32 v3, 4, v0
v_and_b32_e32 v1, 15, v0
v_or_b32_e32 v8, 0x400, v6
v_or_b32_e32 v9, v7, v6
v_lshl_add_u32 v1, v2, 2, 4
v_lshl_add_u32 v1, v1, v3, v1
v_lshl_add_u32 v1, s3, 2, v4
v_lshl_add_u32 v1, v2, 2, 0x12345
v_add3_u32 v5, v1, v2, v3
v_add3_u32 v5, s4, 7, v5
v_lshl_or_b32 v6, v2, 16, v3
v_lshl_or_b32 v6, v2, v1, s5
v_and_or_b32 v7, v1, 0xff00, v2
v_and_or_b32 v7, v7, s2, v7
s_waitcnt vmcnt(0) lgkmcnt(0)
s_waitcnt_vscnt null, 0x0
s_nop 0
s_clause 0x1
buffer_gl0_inv
ds_write_b32 v9, v4
ds_read2_b32 v[11:12], v7 offset0:4 offset1:5
ds_read2_b32 v[15:16], v8 offset1:16
ds_read2st64_b32 v[15:16], v8 offset1:1
ds_read_b32 v10, v9 offset:4
ds_read_b64 v[10:11], v8
ds_read_b128 v[12:15], v7 offset:16
ds_write_b64 v9, v[2:3]
ds_write2_b32 v8, v2, v3 offset1:3
ds_write_b32 v9, v4 gds
ds_read2_b32 v[11:12], v14 offset0:4 offset1:5
global_load_dword v2, v[20:21], off
global_load_dword v4, v18, s[20:21] offset:16
global_load_dwordx4 v[0:3], v[20:21], off
global_load_dwordx2 v[4:5], v[20:21], off offset:-8
global_store_dword v[20:21], v2, off
global_store_dwordx4 v[20:21], v[0:3], off offset:32
global_store_dword v18, v3, s[20:21]
global_load_dword v2, v[16:17], off
buffer_load_dword v5, v19, s[24:27], 0 offen
buffer_store_dword v5, v19, s[24:27], 0 offen offset:4
buffer_load_dword v6, off, s[24:27], s28 offset:8
buffer_store_dword v5, off, s[32:35], s29 offset:16
buffer_load_dword v6, off, s[32:35], s29 offset:20
buffer_store_dword v5, off, s[32:35], 0 offset:8
buffer_load_dword v6, off, s[32:35], s29 offset:3
buffer_load_dword v6, off, s[32:35], s29 offset:4092
buffer_load_dword v5, v22, s[32:35], s29 offen
buffer_store_dword v5, v22, s[32:35], s29 offen offset:4
buffer_load_dwordx2 v[5:6], off, s[32:35], s29 offset:24
s_add_i32 s6, s6, -1
s_mov_b32 s3, 0
s_mov_b32 s0, exec_lo
s_mov_b64 s[4:5], exec
s_mov_b32 s9, 0x12345678
s_mov_b32 s4, s7
s_mov_b32 s5, -16
s_mov_b32 s6, 64
s_mov_b32 m0, s8
s_mov_b32 s7, vcc_hi
s_mov_b32 vcc_lo, s2
s_mov_b32 s3, 0.5
s_and_saveexec_b32 s10, s11
s_or_b32 exec_lo, exec_lo, s10
s_cmp_lt_u32 s6, s7
s_cselect_b32 s2, s3, s4
s_addc_u32 s1, s1, 0
s_lshl_b32 s8, s9, 3
s_mul_i32 s8, s9, s10
s_movk_i32 s12, 0x7fff
v_readlane_b32 s5, v3, s6
v_writelane_b32 v4, s7, 5
v_readlane_b32 s5, v3, 7
v_readlane_b32 s5, v3, 40
.long 0xd76000fc, 0x00010702               // v_readlane_b32 to SGPR 252 (LLVM refuses): dropped, not m0
v_readlane_b32 vcc_lo, v3, 0
v_writelane_b32 v4, s7, s6
v_writelane_b32 v4, 7, 3
v_writelane_b32 v4, m0, 63
s_load_dword s3, s[20:21], 0x4
s_load_dwordx4 s[8:11], s[20:21], 0x10
s_buffer_load_dword s3, s[24:27], 0x8
s_load_dwordx2 s[14:15], s[30:31], 0x0
v_cndmask_b32_e32 v1, s0, v1, vcc_lo
v_cmp_gt_u32_e32 vcc_lo, s2, v0
v_cmp_lt_i32_e64 s10, v1, v2
v_cmp_eq_f32_e32 vcc_lo, v2, v3
v_cmp_gt_u64_e32 vcc_lo, s[2:3], v[0:1]
v_cmp_lt_i64_e64 s10, v[0:1], v[2:3]
v_cmp_ne_u64_e64 s10, v[4:5], s[6:7]
v_cmp_eq_u64_e32 vcc_lo, 0, v[2:3]
v_cmpx_gt_u64_e32 s[2:3], v[0:1]
v_cmpx_gt_u32_e32 s2, v0
v_cmpx_le_i32_e32 v1, v2
v_add_f32_e32 v2, v2, v3
s_branch .Lforms_end
s_cbranch_scc0 .Lforms_end
s_cbranch_scc1 .Lforms_end
s_cbranch_vccz .Lforms_end
s_cbranch_vccnz .Lforms_end
s_cbranch_execz .Lforms_end
s_cbranch_execnz .Lforms_end
.Lforms_end:
