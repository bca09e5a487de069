// FLAT_SCRATCH set with s_setreg (as LLVM's prolog does), scratch_* and flat
// accesses to the private and shared apertures. s[0:1] = scratch base,
// v1 = 8 (private offset), v2 = lane + 1000, s6 = 32
	s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s0
	s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s1
	s_getreg_b32 s2, hwreg(HW_REG_FLAT_SCR_LO)
	s_getreg_b32 s3, hwreg(HW_REG_SH_MEM_BASES)
	s_getreg_b32 s4, hwreg(HW_REG_MODE)
	s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 3
	s_getreg_b32 s5, hwreg(HW_REG_MODE)
	scratch_store_dword v1, v2, off
	scratch_load_dword v3, v1, off
	v_add_nc_u32 v4, 1, v2
	v_add_nc_u32 v5, 2, v2
	scratch_store_dwordx2 off, v[4:5], s6 offset:16        // private 48
	scratch_load_dwordx2 v[8:9], off, s6 offset:16
	s_mov_b64 s[8:9], src_private_base
	v_mov_b32 v6, 20
	v_mov_b32 v7, s9
	flat_store_dword v[6:7], v2                             // private 20
	flat_load_dword v10, v[6:7]
	v_lshlrev_b32 v11, 2, v0
	ds_write_b32 v11, v2
	s_mov_b64 s[10:11], src_shared_base
	v_mov_b32 v12, s11
	flat_load_dword v13, v[11:12]                           // LDS through flat
	s_endpgm
