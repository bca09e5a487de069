/*
 * gfx10.3 registers that xs12 programs, in AMD's vocabulary (Mesa src/amd:
 * R_<byte address>_<NAME>, S_<addr>_<FIELD>(x) to set a field, G_ to get it,
 * C_ to clear it). Offsets and fields: docs/hardware.md
 * sections 2 and 4 (from Mesa gfx103.json, PAL gfx9_plus_merged_registers.h).
 */
#ifndef XS_GPU_REGS_H
#define XS_GPU_REGS_H

#include <stdint.h>

#define XS_FIELD_S(x, lo, w) ((((uint32_t)(x)) & ((w) == 32 ? 0xffffffffu : ((1u << (w)) - 1))) << (lo))
#define XS_FIELD_G(x, lo, w) ((((uint32_t)(x)) >> (lo)) & ((w) == 32 ? 0xffffffffu : ((1u << (w)) - 1)))
#define XS_FIELD_C(lo, w) (~XS_FIELD_S(0xffffffffu, lo, w))

/* Register spaces (byte addresses) and their PM4 dword bases. */
#define XS_SH_REG_OFFSET 0xB000
#define XS_SH_REG_END 0xC000
#define XS_SH_REG_COUNT ((XS_SH_REG_END - XS_SH_REG_OFFSET) / 4)
#define XS_CONTEXT_REG_OFFSET 0x28000
#define XS_CONTEXT_REG_END 0x30000
#define XS_UCONFIG_REG_OFFSET 0x30000
#define XS_UCONFIG_REG_END 0x40000

/* ---- compute (SH space) ---- */
#define R_00B800_COMPUTE_DISPATCH_INITIATOR 0xB800
#define S_00B800_COMPUTE_SHADER_EN(x) XS_FIELD_S(x, 0, 1)
#define G_00B800_COMPUTE_SHADER_EN(x) XS_FIELD_G(x, 0, 1)
#define S_00B800_PARTIAL_TG_EN(x) XS_FIELD_S(x, 1, 1)
#define G_00B800_PARTIAL_TG_EN(x) XS_FIELD_G(x, 1, 1)
#define S_00B800_FORCE_START_AT_000(x) XS_FIELD_S(x, 2, 1)
#define S_00B800_ORDER_MODE(x) XS_FIELD_S(x, 6, 1)
#define S_00B800_CS_W32_EN(x) XS_FIELD_S(x, 15, 1)
#define G_00B800_CS_W32_EN(x) XS_FIELD_G(x, 15, 1)
#define R_00B804_COMPUTE_DIM_X 0xB804
#define R_00B808_COMPUTE_DIM_Y 0xB808
#define R_00B80C_COMPUTE_DIM_Z 0xB80C
#define R_00B810_COMPUTE_START_X 0xB810
#define R_00B814_COMPUTE_START_Y 0xB814
#define R_00B818_COMPUTE_START_Z 0xB818
#define R_00B81C_COMPUTE_NUM_THREAD_X 0xB81C
#define R_00B820_COMPUTE_NUM_THREAD_Y 0xB820
#define R_00B824_COMPUTE_NUM_THREAD_Z 0xB824
#define S_00B81C_NUM_THREAD_FULL(x) XS_FIELD_S(x, 0, 16)
#define G_00B81C_NUM_THREAD_FULL(x) XS_FIELD_G(x, 0, 16)
#define S_00B81C_NUM_THREAD_PARTIAL(x) XS_FIELD_S(x, 16, 16)
#define G_00B81C_NUM_THREAD_PARTIAL(x) XS_FIELD_G(x, 16, 16)
#define R_00B830_COMPUTE_PGM_LO 0xB830 /* code VA >> 8 */
#define R_00B834_COMPUTE_PGM_HI 0xB834
#define S_00B834_DATA(x) XS_FIELD_S(x, 0, 8) /* VA >> 40 */
#define G_00B834_DATA(x) XS_FIELD_G(x, 0, 8)
#define R_00B840_COMPUTE_DISPATCH_SCRATCH_BASE_LO 0xB840
#define R_00B844_COMPUTE_DISPATCH_SCRATCH_BASE_HI 0xB844

#define R_00B848_COMPUTE_PGM_RSRC1 0xB848
#define S_00B848_VGPRS(x) XS_FIELD_S(x, 0, 6)
#define G_00B848_VGPRS(x) XS_FIELD_G(x, 0, 6)
#define S_00B848_SGPRS(x) XS_FIELD_S(x, 6, 4)
#define G_00B848_SGPRS(x) XS_FIELD_G(x, 6, 4)
#define G_00B848_PRIORITY(x) XS_FIELD_G(x, 10, 2)
#define S_00B848_FLOAT_MODE(x) XS_FIELD_S(x, 12, 8)
#define G_00B848_FLOAT_MODE(x) XS_FIELD_G(x, 12, 8)
#define G_00B848_PRIV(x) XS_FIELD_G(x, 20, 1)
#define S_00B848_DX10_CLAMP(x) XS_FIELD_S(x, 21, 1)
#define G_00B848_DX10_CLAMP(x) XS_FIELD_G(x, 21, 1)
#define G_00B848_DEBUG_MODE(x) XS_FIELD_G(x, 22, 1)
#define S_00B848_IEEE_MODE(x) XS_FIELD_S(x, 23, 1)
#define G_00B848_IEEE_MODE(x) XS_FIELD_G(x, 23, 1)
#define G_00B848_BULKY(x) XS_FIELD_G(x, 24, 1)
#define G_00B848_FP16_OVFL(x) XS_FIELD_G(x, 26, 1)
#define S_00B848_WGP_MODE(x) XS_FIELD_S(x, 29, 1)
#define G_00B848_WGP_MODE(x) XS_FIELD_G(x, 29, 1)
#define G_00B848_MEM_ORDERED(x) XS_FIELD_G(x, 30, 1)
#define G_00B848_FWD_PROGRESS(x) XS_FIELD_G(x, 31, 1)

#define R_00B84C_COMPUTE_PGM_RSRC2 0xB84C
#define S_00B84C_SCRATCH_EN(x) XS_FIELD_S(x, 0, 1)
#define G_00B84C_SCRATCH_EN(x) XS_FIELD_G(x, 0, 1)
#define S_00B84C_USER_SGPR(x) XS_FIELD_S(x, 1, 5)
#define G_00B84C_USER_SGPR(x) XS_FIELD_G(x, 1, 5)
#define G_00B84C_TRAP_PRESENT(x) XS_FIELD_G(x, 6, 1)
#define G_00B84C_TGID_X_EN(x) XS_FIELD_G(x, 7, 1)
#define G_00B84C_TGID_Y_EN(x) XS_FIELD_G(x, 8, 1)
#define G_00B84C_TGID_Z_EN(x) XS_FIELD_G(x, 9, 1)
#define G_00B84C_TG_SIZE_EN(x) XS_FIELD_G(x, 10, 1)
#define G_00B84C_TIDIG_COMP_CNT(x) XS_FIELD_G(x, 11, 2)
#define S_00B84C_LDS_SIZE(x) XS_FIELD_S(x, 15, 9)
#define G_00B84C_LDS_SIZE(x) XS_FIELD_G(x, 15, 9)
#define C_00B84C_LDS_SIZE XS_FIELD_C(15, 9)

#define R_00B854_COMPUTE_RESOURCE_LIMITS 0xB854
#define S_00B854_WAVES_PER_SH(x) XS_FIELD_S(x, 0, 10)
#define G_00B854_WAVES_PER_SH(x) XS_FIELD_G(x, 0, 10)
#define S_00B854_TG_PER_CU(x) XS_FIELD_S(x, 12, 4)
#define G_00B854_TG_PER_CU(x) XS_FIELD_G(x, 12, 4)
#define G_00B854_LOCK_THRESHOLD(x) XS_FIELD_G(x, 16, 6)
#define G_00B854_CU_GROUP_COUNT(x) XS_FIELD_G(x, 24, 3)

/* COMPUTE_STATIC_THREAD_MGMT_SE0..3 (COMPUTE_DESTINATION_EN_SEn on gfx10):
 * SA0_CU_EN bits 0..15, SA1_CU_EN bits 16..31; logical CU index within the SA. */
#define R_00B858_COMPUTE_STATIC_THREAD_MGMT_SE0 0xB858
#define R_00B85C_COMPUTE_STATIC_THREAD_MGMT_SE1 0xB85C
#define R_00B864_COMPUTE_STATIC_THREAD_MGMT_SE2 0xB864
#define R_00B868_COMPUTE_STATIC_THREAD_MGMT_SE3 0xB868

/* Scratch ring (SPEC S1.1): WAVES slots of WAVESIZE KiB, whole chip on gfx10.3. */
#define R_00B860_COMPUTE_TMPRING_SIZE 0xB860
#define S_00B860_WAVES(x) XS_FIELD_S(x, 0, 12)
#define G_00B860_WAVES(x) XS_FIELD_G(x, 0, 12)
#define S_00B860_WAVESIZE(x) XS_FIELD_S(x, 12, 13)
#define G_00B860_WAVESIZE(x) XS_FIELD_G(x, 12, 13)

#define R_00B8A0_COMPUTE_PGM_RSRC3 0xB8A0
#define G_00B8A0_SHARED_VGPR_CNT(x) XS_FIELD_G(x, 0, 4)
#define R_00B900_COMPUTE_USER_DATA_0 0xB900 /* .. _15 at 0xB93C */
#define XS_COMPUTE_USER_DATA_COUNT 16

/* ---- graphics scratch ring (CONTEXT space) ---- */
#define R_0286E8_SPI_TMPRING_SIZE 0x286E8
#define S_0286E8_WAVES(x) XS_FIELD_S(x, 0, 12)
#define G_0286E8_WAVES(x) XS_FIELD_G(x, 0, 12)
#define S_0286E8_WAVESIZE(x) XS_FIELD_S(x, 12, 13)
#define G_0286E8_WAVESIZE(x) XS_FIELD_G(x, 12, 13)

/* ---- buffer resource descriptor (V#), gfx10 (Mesa gfx10-rsrc.json) ---- */
#define S_008F04_BASE_ADDRESS_HI(x) XS_FIELD_S(x, 0, 16)
#define S_008F04_STRIDE(x) XS_FIELD_S(x, 16, 14)
#define S_008F04_SWIZZLE_ENABLE(x) XS_FIELD_S(x, 31, 1)
#define S_008F0C_DST_SEL_X(x) XS_FIELD_S(x, 0, 3)
#define S_008F0C_DST_SEL_Y(x) XS_FIELD_S(x, 3, 3)
#define S_008F0C_DST_SEL_Z(x) XS_FIELD_S(x, 6, 3)
#define S_008F0C_DST_SEL_W(x) XS_FIELD_S(x, 9, 3)
#define S_008F0C_FORMAT(x) XS_FIELD_S(x, 12, 7)
#define S_008F0C_INDEX_STRIDE(x) XS_FIELD_S(x, 21, 2)
#define S_008F0C_ADD_TID_ENABLE(x) XS_FIELD_S(x, 23, 1)
#define S_008F0C_RESOURCE_LEVEL(x) XS_FIELD_S(x, 24, 1)
#define S_008F0C_OOB_SELECT(x) XS_FIELD_S(x, 28, 2)
#define S_008F0C_TYPE(x) XS_FIELD_S(x, 30, 2)
#define V_008F0C_SQ_SEL_X 4
#define V_008F0C_SQ_SEL_Y 5
#define V_008F0C_SQ_SEL_Z 6
#define V_008F0C_SQ_SEL_W 7
#define V_008F0C_GFX10_FORMAT_32_UINT 20
#define V_008F0C_INDEX_STRIDE_32 2
#define V_008F0C_INDEX_STRIDE_64 3
#define V_008F0C_OOB_SELECT_DISABLED 2

/* HW_REG_MODE (s_getreg/s_setreg) layout the SPI initialises from RSRC1:
 * FP_ROUND 3:0 + FP_DENORM 7:4 (= RSRC1.FLOAT_MODE), DX10_CLAMP 8, IEEE 9,
 * FP16_OVFL 23. */
#define XS_MODE_FROM_RSRC1(r)                                                                   \
	(G_00B848_FLOAT_MODE(r) | (G_00B848_DX10_CLAMP(r) << 8) | (G_00B848_IEEE_MODE(r) << 9) | \
	 (G_00B848_FP16_OVFL(r) << 23))

#endif
