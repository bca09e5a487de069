// FLAT_SCRATCH set with s_setreg (as LLVM's prolog does), scratch_* and flat
// accesses to the private and shared apertures. s[0:1] = scratch base,
// v1 = 8 (private offset), v2 = lane + 1000, s6 = 32
	s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s0
	s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s1
	// CHECK: flat_scratch = scr
	s_getreg_b32 s2, hwreg(HW_REG_FLAT_SCR_LO)
	// CHECK: s2 = scr & 0xffffffff
	s_getreg_b32 s3, hwreg(HW_REG_SH_MEM_BASES)
	// CHECK: s3 = sh_mem_bases
	s_getreg_b32 s4, hwreg(HW_REG_MODE)
	// FloatMode 0xf0 | IEEE (bit 9)
	// CHECK: s4 = 0x2f0
	s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 3
	s_getreg_b32 s5, hwreg(HW_REG_MODE)
	// round bits set by s_setreg_imm32
	// CHECK: s5 = 0x2f3
	scratch_store_dword v1, v2, off
	// private byte p of lane l at scratch + p / 4 * 32 * 4 + l * 4 + p % 4 (p = 8)
	// CHECK: mem[scr + 2 * 128 + lane * 4] = 1000 + lane
	scratch_load_dword v3, v1, off
	// CHECK: v3 = 1000 + lane
	v_add_nc_u32 v4, 1, v2
	v_add_nc_u32 v5, 2, v2
	scratch_store_dwordx2 off, v[4:5], s6 offset:16        // private 48
	// CHECK: mem[scr + 12 * 128 + lane * 4] = 1001 + lane
	// CHECK: mem[scr + 13 * 128 + lane * 4] = 1002 + lane
	scratch_load_dwordx2 v[8:9], off, s6 offset:16
	// CHECK: v[8:9] = 1001 + lane, 1002 + lane
	s_mov_b64 s[8:9], src_private_base
	// CHECK: s9 = private_base >> 32
	v_mov_b32 v6, 20
	v_mov_b32 v7, s9
	flat_store_dword v[6:7], v2                             // private 20
	// CHECK: mem[scr + 5 * 128 + lane * 4] = 1000 + lane
	flat_load_dword v10, v[6:7]
	// CHECK: v10 = 1000 + lane
	v_lshlrev_b32 v11, 2, v0
	ds_write_b32 v11, v2
	s_mov_b64 s[10:11], src_shared_base
	// CHECK: s11 = shared_base >> 32
	v_mov_b32 v12, s11
	flat_load_dword v13, v[11:12]                           // LDS through flat
	// LDS through the shared aperture
	// CHECK: v13 = 1000 + lane
	// the limits: each aperture's last byte (4 GiB from its base)
	s_mov_b64 s[12:13], src_shared_limit
	// CHECK: s[12:13] = shared_base | 0xffffffff
	s_mov_b64 s[14:15], src_private_limit
	// CHECK: s[14:15] = private_base | 0xffffffff
	s_endpgm
	// CHECK: status = ended
