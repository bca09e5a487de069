/*
 * The register database (see xs_pm4_regdb.h). Rows are sorted by address.
 *
 * Addresses: the R_ macros of src/gpu/xs_gpu_regs.h where that header has
 * them, otherwise the byte address from docs/hardware.md (Mesa
 * gfx103.json). Fields: docs/hardware.md sections 2-3 and Mesa gfx103.json;
 * DEBUG_MODE and CDBG_USER of COMPUTE_PGM_RSRC1 and the SA*_CU_EN fields of
 * COMPUTE_STATIC_THREAD_MGMT_SE* are from PAL (gfx103.json lists none).
 * tests/pm4/check_regdb.py compares every macro of xs_gpu_regs.h with this
 * table, and test_pm4.c checks the layout rules (sorted, fields inside 32 bits,
 * no overlap, right space).
 */
#include "pm4/xs_pm4_regdb.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/xs_common.h"
#include "pm4/xs_pm4.h"

#define F(n, lo, w) { n, lo, w, XS_PM4_FMT_DEC, 0, NULL, NULL, 0 }
#define FN(n, lo, w, note) { n, lo, w, XS_PM4_FMT_DEC, 0, note, NULL, 0 }
#define FH(n, lo, w) { n, lo, w, XS_PM4_FMT_HEX, 0, NULL, NULL, 0 }
#define FS(n, lo, w, scale, unit) { n, lo, w, XS_PM4_FMT_SCALED, scale, unit, NULL, 0 }
#define FE(n, lo, w, tbl) { n, lo, w, XS_PM4_FMT_ENUM, 0, NULL, tbl, (uint8_t)XS_ARRAY_SIZE(tbl) }

/* ---- field lists ---- */

static const xs_pm4_field f_dispatch_initiator[] = {
	F("COMPUTE_SHADER_EN", 0, 1),
	F("PARTIAL_TG_EN", 1, 1),
	F("FORCE_START_AT_000", 2, 1),
	F("ORDERED_APPEND_ENBL", 3, 1),
	F("ORDERED_APPEND_MODE", 4, 1),
	F("USE_THREAD_DIMENSIONS", 5, 1),
	F("ORDER_MODE", 6, 1),
	F("SCALAR_L1_INV_VOL", 10, 1),
	F("VECTOR_L1_INV_VOL", 11, 1),
	F("RESERVED", 12, 1),
	F("TUNNEL_ENABLE", 13, 1),
	F("RESTORE", 14, 1),
	F("CS_W32_EN", 15, 1),
};
static const xs_pm4_field f_num_thread[] = {
	FN("NUM_THREAD_FULL", 0, 16, "threads"),
	FN("NUM_THREAD_PARTIAL", 16, 16, "threads"),
};
static const xs_pm4_field f_pgm_hi[] = { FH("DATA", 0, 8) };
static const xs_pm4_field f_compute_rsrc1[] = {
	FN("VGPRS", 0, 6, "(VGPRs-1)/8 wave32, (VGPRs-1)/4 wave64"),
	F("SGPRS", 6, 4),
	F("PRIORITY", 10, 2),
	FH("FLOAT_MODE", 12, 8),
	F("PRIV", 20, 1),
	F("DX10_CLAMP", 21, 1),
	F("DEBUG_MODE", 22, 1),
	F("IEEE_MODE", 23, 1),
	F("BULKY", 24, 1),
	F("CDBG_USER", 25, 1),
	F("FP16_OVFL", 26, 1),
	F("WGP_MODE", 29, 1),
	F("MEM_ORDERED", 30, 1),
	F("FWD_PROGRESS", 31, 1),
};
static const xs_pm4_field f_compute_rsrc2[] = {
	F("SCRATCH_EN", 0, 1),
	F("USER_SGPR", 1, 5),
	F("TRAP_PRESENT", 6, 1),
	F("TGID_X_EN", 7, 1),
	F("TGID_Y_EN", 8, 1),
	F("TGID_Z_EN", 9, 1),
	F("TG_SIZE_EN", 10, 1),
	F("TIDIG_COMP_CNT", 11, 2),
	FH("EXCP_EN_MSB", 13, 2),
	FS("LDS_SIZE", 15, 9, 512, "B"),
	FH("EXCP_EN", 24, 7),
};
static const xs_pm4_field f_resource_limits[] = {
	FN("WAVES_PER_SH", 0, 10, "waves per SE, 0 = no limit"),
	FN("TG_PER_CU", 12, 4, "0 = no limit"),
	FS("LOCK_THRESHOLD", 16, 6, 4, "waves"),
	F("SIMD_DEST_CNTL", 22, 1),
	F("FORCE_SIMD_DIST", 23, 1),
	FN("CU_GROUP_COUNT", 24, 3, "groups per CU - 1"),
};
static const xs_pm4_field f_static_thread_mgmt[] = {
	FH("SA0_CU_EN", 0, 16),
	FH("SA1_CU_EN", 16, 16),
};
static const xs_pm4_field f_tmpring_size[] = {
	FN("WAVES", 0, 12, "scratch slots"),
	FS("WAVESIZE", 12, 13, 1, "KiB"),
};
static const xs_pm4_field f_compute_rsrc3[] = {
	FS("SHARED_VGPR_CNT", 0, 4, 8, "VGPRs"),
};

/* graphics stages */
static const xs_pm4_field f_rsrc4[] = { FH("CU_EN", 0, 16) }; /* CUs 16..31 */
static const xs_pm4_field f_rsrc4_gs[] = {
	FH("CU_EN", 0, 16),
	FN("SPI_SHADER_LATE_ALLOC_GS", 16, 7, "wave64 waves per SA"),
};
static const xs_pm4_field f_rsrc3_ps_vs[] = {
	FH("CU_EN", 0, 16),
	FS("WAVE_LIMIT", 16, 6, 16, "waves per SE"),
	F("LOCK_LOW_THRESHOLD", 22, 4),
};
static const xs_pm4_field f_rsrc3_gs[] = {
	FH("CU_EN", 0, 16),
	FS("WAVE_LIMIT", 16, 6, 16, "waves per SE"),
	F("LOCK_LOW_THRESHOLD", 22, 4),
	F("GROUP_FIFO_DEPTH", 26, 6),
};
static const xs_pm4_field f_rsrc3_hs[] = {
	FS("WAVE_LIMIT", 0, 6, 16, "waves per SE"),
	F("LOCK_LOW_THRESHOLD", 6, 4),
	F("GROUP_FIFO_DEPTH", 10, 6),
	FH("CU_EN", 16, 16),
};
static const xs_pm4_field f_late_alloc_vs[] = { FN("LIMIT", 0, 6, "wave64 waves per SA") };
static const xs_pm4_field f_pgm_hi_gfx[] = { FH("MEM_BASE", 0, 8) };
static const xs_pm4_field f_rsrc1_ps[] = {
	F("VGPRS", 0, 6),
	F("SGPRS", 6, 4),
	F("PRIORITY", 10, 2),
	FH("FLOAT_MODE", 12, 8),
	F("PRIV", 20, 1),
	F("DX10_CLAMP", 21, 1),
	F("IEEE_MODE", 23, 1),
	F("CU_GROUP_DISABLE", 24, 1),
	F("MEM_ORDERED", 25, 1),
	F("FWD_PROGRESS", 26, 1),
	F("LOAD_PROVOKING_VTX", 27, 1),
	F("FP16_OVFL", 29, 1),
};
static const xs_pm4_field f_rsrc2_ps[] = {
	F("SCRATCH_EN", 0, 1),
	F("USER_SGPR", 1, 5),
	F("TRAP_PRESENT", 6, 1),
	F("WAVE_CNT_EN", 7, 1),
	F("EXTRA_LDS_SIZE", 8, 8),
	FH("EXCP_EN", 16, 9),
	F("LOAD_COLLISION_WAVEID", 25, 1),
	F("LOAD_INTRAWAVE_COLLISION", 26, 1),
	F("USER_SGPR_MSB", 27, 1),
	F("SHARED_VGPR_CNT", 28, 4),
};
static const xs_pm4_field f_rsrc1_vs[] = {
	F("VGPRS", 0, 6),
	F("SGPRS", 6, 4),
	F("PRIORITY", 10, 2),
	FH("FLOAT_MODE", 12, 8),
	F("PRIV", 20, 1),
	F("DX10_CLAMP", 21, 1),
	F("IEEE_MODE", 23, 1),
	F("VGPR_COMP_CNT", 24, 2),
	F("CU_GROUP_ENABLE", 26, 1),
	F("MEM_ORDERED", 27, 1),
	F("FWD_PROGRESS", 28, 1),
	F("FP16_OVFL", 31, 1),
};
static const xs_pm4_field f_rsrc2_vs[] = {
	F("SCRATCH_EN", 0, 1),
	F("USER_SGPR", 1, 5),
	F("TRAP_PRESENT", 6, 1),
	F("OC_LDS_EN", 7, 1),
	F("SO_BASE0_EN", 8, 1),
	F("SO_BASE1_EN", 9, 1),
	F("SO_BASE2_EN", 10, 1),
	F("SO_BASE3_EN", 11, 1),
	F("SO_EN", 12, 1),
	FH("EXCP_EN", 13, 9),
	F("PC_BASE_EN", 22, 1),
	F("DISPATCH_DRAW_EN", 24, 1),
	F("USER_SGPR_MSB", 27, 1),
	F("SHARED_VGPR_CNT", 28, 4),
};
static const xs_pm4_field f_rsrc1_gs[] = {
	F("VGPRS", 0, 6),
	F("SGPRS", 6, 4),
	F("PRIORITY", 10, 2),
	FH("FLOAT_MODE", 12, 8),
	F("PRIV", 20, 1),
	F("DX10_CLAMP", 21, 1),
	F("IEEE_MODE", 23, 1),
	F("CU_GROUP_ENABLE", 24, 1),
	F("MEM_ORDERED", 25, 1),
	F("FWD_PROGRESS", 26, 1),
	F("WGP_MODE", 27, 1),
	F("GS_VGPR_COMP_CNT", 29, 2),
	F("FP16_OVFL", 31, 1),
};
static const xs_pm4_field f_rsrc2_gs[] = {
	F("SCRATCH_EN", 0, 1),
	F("USER_SGPR", 1, 5),
	F("TRAP_PRESENT", 6, 1),
	FH("EXCP_EN", 7, 9),
	F("ES_VGPR_COMP_CNT", 16, 2),
	F("OC_LDS_EN", 18, 1),
	F("LDS_SIZE", 19, 8),
	F("USER_SGPR_MSB", 27, 1),
	F("SHARED_VGPR_CNT", 28, 4),
};
static const xs_pm4_field f_rsrc1_hs[] = {
	F("VGPRS", 0, 6),
	F("SGPRS", 6, 4),
	F("PRIORITY", 10, 2),
	FH("FLOAT_MODE", 12, 8),
	F("PRIV", 20, 1),
	F("DX10_CLAMP", 21, 1),
	F("IEEE_MODE", 23, 1),
	F("MEM_ORDERED", 24, 1),
	F("FWD_PROGRESS", 25, 1),
	F("WGP_MODE", 26, 1),
	F("LS_VGPR_COMP_CNT", 28, 2),
	F("FP16_OVFL", 30, 1),
};
static const xs_pm4_field f_rsrc2_hs[] = {
	F("SCRATCH_EN", 0, 1),
	F("USER_SGPR", 1, 5),
	F("TRAP_PRESENT", 6, 1),
	F("OC_LDS_EN", 7, 1),
	F("TG_SIZE_EN", 8, 1),
	FH("EXCP_EN", 9, 9),
	F("LDS_SIZE", 18, 9),
	F("USER_SGPR_MSB", 27, 1),
	F("SHARED_VGPR_CNT", 28, 4),
};
static const xs_pm4_field f_ps_in_control[] = {
	F("NUM_INTERP", 0, 6),
	F("OFFCHIP_PARAM_EN", 7, 1),
	F("LATE_PC_DEALLOC", 8, 1),
	F("NUM_PRIM_INTERP", 9, 5),
	F("BC_OPTIMIZE_DISABLE", 14, 1),
	F("PS_W32_EN", 15, 1),
};
static const char *const v_di_source_select[] = {
	"DI_SRC_SEL_DMA", "DI_SRC_SEL_IMMEDIATE", "DI_SRC_SEL_AUTO_INDEX", "DI_SRC_SEL_RESERVED",
};
static const char *const v_di_major_mode[] = { "DI_MAJOR_MODE_0", "DI_MAJOR_MODE_1" };
static const xs_pm4_field f_draw_initiator[] = {
	FE("SOURCE_SELECT", 0, 2, v_di_source_select),
	FE("MAJOR_MODE", 2, 2, v_di_major_mode),
	F("SPRITE_EN_R6XX", 4, 1),
	F("NOT_EOP", 5, 1),
	F("USE_OPAQUE", 6, 1),
	F("REG_RT_INDEX", 29, 3),
};
static const xs_pm4_field f_grbm_gfx_index[] = {
	F("INSTANCE_INDEX", 0, 8),
	F("SA_INDEX", 8, 8),
	F("SE_INDEX", 16, 8),
	F("SA_BROADCAST_WRITES", 29, 1),
	F("INSTANCE_BROADCAST_WRITES", 30, 1),
	F("SE_BROADCAST_WRITES", 31, 1),
};
static const xs_pm4_field f_ge_pc_alloc[] = {
	F("OVERSUB_EN", 0, 1),
	F("NUM_PC_LINES", 1, 10),
};
/* GRAN encoding not confirmed by public sources (docs/hardware.md section 9). */
static const xs_pm4_field f_wave_limit_cntl[] = {
	F("PS_WAVE_GRAN", 0, 2),
	F("VS_WAVE_GRAN", 2, 2),
	F("GS_WAVE_GRAN", 4, 2),
	F("HS_WAVE_GRAN", 6, 2),
};

/* ---- the table ---- */

#define SH XS_PM4_SPACE_SH
#define CTX XS_PM4_SPACE_CONTEXT
#define UCFG XS_PM4_SPACE_UCONFIG
#define REG(addr, name, space, flds) { addr, name, space, (uint8_t)XS_ARRAY_SIZE(flds), flds }
#define REG0(addr, name, space) { addr, name, space, 0, NULL }
#define UD(base, pfx, i) REG0((base) + 4 * (i), pfx #i, SH)
#define UD16(base, pfx)                                                                       \
	UD(base, pfx, 0), UD(base, pfx, 1), UD(base, pfx, 2), UD(base, pfx, 3), UD(base, pfx, 4), \
	UD(base, pfx, 5), UD(base, pfx, 6), UD(base, pfx, 7), UD(base, pfx, 8), UD(base, pfx, 9), \
	UD(base, pfx, 10), UD(base, pfx, 11), UD(base, pfx, 12), UD(base, pfx, 13),              \
	UD(base, pfx, 14), UD(base, pfx, 15)
#define UD32(base, pfx)                                                                  \
	UD16(base, pfx), UD(base, pfx, 16), UD(base, pfx, 17), UD(base, pfx, 18),            \
	UD(base, pfx, 19), UD(base, pfx, 20), UD(base, pfx, 21), UD(base, pfx, 22),          \
	UD(base, pfx, 23), UD(base, pfx, 24), UD(base, pfx, 25), UD(base, pfx, 26),          \
	UD(base, pfx, 27), UD(base, pfx, 28), UD(base, pfx, 29), UD(base, pfx, 30),          \
	UD(base, pfx, 31)

static const xs_pm4_reg regs[] = {
	/* pixel shader */
	REG(0xB004, "SPI_SHADER_PGM_RSRC4_PS", SH, f_rsrc4),
	REG(0xB01C, "SPI_SHADER_PGM_RSRC3_PS", SH, f_rsrc3_ps_vs),
	REG0(0xB020, "SPI_SHADER_PGM_LO_PS", SH),
	REG(0xB024, "SPI_SHADER_PGM_HI_PS", SH, f_pgm_hi_gfx),
	REG(0xB028, "SPI_SHADER_PGM_RSRC1_PS", SH, f_rsrc1_ps),
	REG(0xB02C, "SPI_SHADER_PGM_RSRC2_PS", SH, f_rsrc2_ps),
	UD32(0xB030, "SPI_SHADER_USER_DATA_PS_"),
	/* vertex shader */
	REG(0xB104, "SPI_SHADER_PGM_RSRC4_VS", SH, f_rsrc4),
	REG(0xB118, "SPI_SHADER_PGM_RSRC3_VS", SH, f_rsrc3_ps_vs),
	REG(0xB11C, "SPI_SHADER_LATE_ALLOC_VS", SH, f_late_alloc_vs),
	REG0(0xB120, "SPI_SHADER_PGM_LO_VS", SH),
	REG(0xB124, "SPI_SHADER_PGM_HI_VS", SH, f_pgm_hi_gfx),
	REG(0xB128, "SPI_SHADER_PGM_RSRC1_VS", SH, f_rsrc1_vs),
	REG(0xB12C, "SPI_SHADER_PGM_RSRC2_VS", SH, f_rsrc2_vs),
	UD32(0xB130, "SPI_SHADER_USER_DATA_VS_"),
	/* geometry (NGG) shader */
	REG(0xB204, "SPI_SHADER_PGM_RSRC4_GS", SH, f_rsrc4_gs),
	REG0(0xB208, "SPI_SHADER_USER_DATA_ADDR_LO_GS", SH),
	REG0(0xB20C, "SPI_SHADER_USER_DATA_ADDR_HI_GS", SH),
	REG(0xB21C, "SPI_SHADER_PGM_RSRC3_GS", SH, f_rsrc3_gs),
	REG0(0xB220, "SPI_SHADER_PGM_LO_GS", SH),
	REG(0xB224, "SPI_SHADER_PGM_HI_GS", SH, f_pgm_hi_gfx),
	REG(0xB228, "SPI_SHADER_PGM_RSRC1_GS", SH, f_rsrc1_gs),
	REG(0xB22C, "SPI_SHADER_PGM_RSRC2_GS", SH, f_rsrc2_gs),
	UD32(0xB230, "SPI_SHADER_USER_DATA_GS_"),
	REG0(0xB320, "SPI_SHADER_PGM_LO_ES", SH),
	REG(0xB324, "SPI_SHADER_PGM_HI_ES", SH, f_pgm_hi_gfx),
	/* hull shader */
	REG(0xB404, "SPI_SHADER_PGM_RSRC4_HS", SH, f_rsrc4),
	REG0(0xB408, "SPI_SHADER_USER_DATA_ADDR_LO_HS", SH),
	REG0(0xB40C, "SPI_SHADER_USER_DATA_ADDR_HI_HS", SH),
	REG(0xB41C, "SPI_SHADER_PGM_RSRC3_HS", SH, f_rsrc3_hs),
	REG0(0xB420, "SPI_SHADER_PGM_LO_HS", SH),
	REG(0xB424, "SPI_SHADER_PGM_HI_HS", SH, f_pgm_hi_gfx),
	REG(0xB428, "SPI_SHADER_PGM_RSRC1_HS", SH, f_rsrc1_hs),
	REG(0xB42C, "SPI_SHADER_PGM_RSRC2_HS", SH, f_rsrc2_hs),
	UD32(0xB430, "SPI_SHADER_USER_DATA_HS_"),
	REG0(0xB520, "SPI_SHADER_PGM_LO_LS", SH),
	REG(0xB524, "SPI_SHADER_PGM_HI_LS", SH, f_pgm_hi_gfx),
	/* compute */
	REG(R_00B800_COMPUTE_DISPATCH_INITIATOR, "COMPUTE_DISPATCH_INITIATOR", SH, f_dispatch_initiator),
	REG0(R_00B804_COMPUTE_DIM_X, "COMPUTE_DIM_X", SH),
	REG0(R_00B808_COMPUTE_DIM_Y, "COMPUTE_DIM_Y", SH),
	REG0(R_00B80C_COMPUTE_DIM_Z, "COMPUTE_DIM_Z", SH),
	REG0(R_00B810_COMPUTE_START_X, "COMPUTE_START_X", SH),
	REG0(R_00B814_COMPUTE_START_Y, "COMPUTE_START_Y", SH),
	REG0(R_00B818_COMPUTE_START_Z, "COMPUTE_START_Z", SH),
	REG(R_00B81C_COMPUTE_NUM_THREAD_X, "COMPUTE_NUM_THREAD_X", SH, f_num_thread),
	REG(R_00B820_COMPUTE_NUM_THREAD_Y, "COMPUTE_NUM_THREAD_Y", SH, f_num_thread),
	REG(R_00B824_COMPUTE_NUM_THREAD_Z, "COMPUTE_NUM_THREAD_Z", SH, f_num_thread),
	REG0(R_00B830_COMPUTE_PGM_LO, "COMPUTE_PGM_LO", SH),
	REG(R_00B834_COMPUTE_PGM_HI, "COMPUTE_PGM_HI", SH, f_pgm_hi),
	REG0(R_00B840_COMPUTE_DISPATCH_SCRATCH_BASE_LO, "COMPUTE_DISPATCH_SCRATCH_BASE_LO", SH),
	REG(R_00B844_COMPUTE_DISPATCH_SCRATCH_BASE_HI, "COMPUTE_DISPATCH_SCRATCH_BASE_HI", SH, f_pgm_hi),
	REG(R_00B848_COMPUTE_PGM_RSRC1, "COMPUTE_PGM_RSRC1", SH, f_compute_rsrc1),
	REG(R_00B84C_COMPUTE_PGM_RSRC2, "COMPUTE_PGM_RSRC2", SH, f_compute_rsrc2),
	REG(R_00B854_COMPUTE_RESOURCE_LIMITS, "COMPUTE_RESOURCE_LIMITS", SH, f_resource_limits),
	REG(R_00B858_COMPUTE_STATIC_THREAD_MGMT_SE0, "COMPUTE_STATIC_THREAD_MGMT_SE0", SH, f_static_thread_mgmt),
	REG(R_00B85C_COMPUTE_STATIC_THREAD_MGMT_SE1, "COMPUTE_STATIC_THREAD_MGMT_SE1", SH, f_static_thread_mgmt),
	REG(R_00B860_COMPUTE_TMPRING_SIZE, "COMPUTE_TMPRING_SIZE", SH, f_tmpring_size),
	REG(R_00B864_COMPUTE_STATIC_THREAD_MGMT_SE2, "COMPUTE_STATIC_THREAD_MGMT_SE2", SH, f_static_thread_mgmt),
	REG(R_00B868_COMPUTE_STATIC_THREAD_MGMT_SE3, "COMPUTE_STATIC_THREAD_MGMT_SE3", SH, f_static_thread_mgmt),
	REG(R_00B8A0_COMPUTE_PGM_RSRC3, "COMPUTE_PGM_RSRC3", SH, f_compute_rsrc3),
	UD16(R_00B900_COMPUTE_USER_DATA_0, "COMPUTE_USER_DATA_"),
	/* context */
	REG(0x286D8, "SPI_PS_IN_CONTROL", CTX, f_ps_in_control),
	REG(R_0286E8_SPI_TMPRING_SIZE, "SPI_TMPRING_SIZE", CTX, f_tmpring_size),
	REG(R_0287F0_VGT_DRAW_INITIATOR, "VGT_DRAW_INITIATOR", CTX, f_draw_initiator),
	/* uconfig */
	REG(0x30800, "GRBM_GFX_INDEX", UCFG, f_grbm_gfx_index),
	REG(0x30980, "GE_PC_ALLOC", UCFG, f_ge_pc_alloc),
	REG(0x3110C, "SPI_WAVE_LIMIT_CNTL", UCFG, f_wave_limit_cntl),
};

_Static_assert(XS_COMPUTE_USER_DATA_COUNT == 16, "COMPUTE_USER_DATA_0..15 rows");

size_t xs_pm4_reg_count(void)
{
	return XS_ARRAY_SIZE(regs);
}

const xs_pm4_reg *xs_pm4_reg_at(size_t i)
{
	return i < XS_ARRAY_SIZE(regs) ? &regs[i] : NULL;
}

const xs_pm4_reg *xs_pm4_reg_find(uint32_t addr)
{
	size_t lo = 0, hi = XS_ARRAY_SIZE(regs);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (regs[mid].addr == addr)
			return &regs[mid];
		if (regs[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const xs_pm4_reg *xs_pm4_reg_by_name(const char *name)
{
	for (size_t i = 0; name && i < XS_ARRAY_SIZE(regs); i++)
		if (!strcmp(regs[i].name, name))
			return &regs[i];
	return NULL;
}

const xs_pm4_field *xs_pm4_reg_field(const xs_pm4_reg *r, const char *name)
{
	for (unsigned i = 0; r && name && i < r->num_fields; i++)
		if (!strcmp(r->fields[i].name, name))
			return &r->fields[i];
	return NULL;
}

xs_pm4_space xs_pm4_space_of(uint32_t addr)
{
	for (int s = XS_PM4_SPACE_CONFIG; s <= XS_PM4_SPACE_UCONFIG; s++)
		if (addr >= xs_pm4_space_base(s) && addr < xs_pm4_space_end(s))
			return s;
	return XS_PM4_SPACE_NONE;
}

uint32_t xs_pm4_space_base(xs_pm4_space s)
{
	switch (s) {
	case XS_PM4_SPACE_CONFIG: return XS_CONFIG_REG_OFFSET;
	case XS_PM4_SPACE_SH: return XS_SH_REG_OFFSET;
	case XS_PM4_SPACE_CONTEXT: return XS_CONTEXT_REG_OFFSET;
	case XS_PM4_SPACE_UCONFIG: return XS_UCONFIG_REG_OFFSET;
	default: return 0;
	}
}

uint32_t xs_pm4_space_end(xs_pm4_space s)
{
	switch (s) {
	case XS_PM4_SPACE_CONFIG: return XS_CONFIG_REG_END;
	case XS_PM4_SPACE_SH: return XS_SH_REG_END;
	case XS_PM4_SPACE_CONTEXT: return XS_CONTEXT_REG_END;
	case XS_PM4_SPACE_UCONFIG: return XS_UCONFIG_REG_END;
	default: return 0;
	}
}

const char *xs_pm4_space_name(xs_pm4_space s)
{
	switch (s) {
	case XS_PM4_SPACE_CONFIG: return "CONFIG";
	case XS_PM4_SPACE_SH: return "SH";
	case XS_PM4_SPACE_CONTEXT: return "CONTEXT";
	case XS_PM4_SPACE_UCONFIG: return "UCONFIG";
	default: return "none";
	}
}

int xs_pm4_field_format(const xs_pm4_field *f, uint32_t v, char *buf, size_t size)
{
	switch (f->fmt) {
	case XS_PM4_FMT_HEX:
		return snprintf(buf, size, "0x%" PRIx32, v);
	case XS_PM4_FMT_SCALED:
		return snprintf(buf, size, "%" PRIu32 " (%" PRIu64 " %s)", v, (uint64_t)v * f->scale,
				f->unit ? f->unit : "");
	case XS_PM4_FMT_ENUM:
		if (f->values && v < f->num_values && f->values[v])
			return snprintf(buf, size, "%" PRIu32 " (%s)", v, f->values[v]);
		return snprintf(buf, size, "%" PRIu32, v);
	default:
		return snprintf(buf, size, "%" PRIu32, v);
	}
}

/* snprintf at the end of buf; *len is the length the whole text would have. */
XS_PRINTF(4, 5) static void cat(char *buf, size_t size, int *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t off = (size_t)*len;
	int n = vsnprintf(off < size ? buf + off : NULL, off < size ? size - off : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += n;
}

int xs_pm4_reg_format(const xs_pm4_reg *r, uint32_t value, char *buf, size_t size)
{
	int len = 0;
	char tmp[96];
	if (size)
		buf[0] = 0;
	if (!r || !r->num_fields) {
		cat(buf, size, &len, "0x%08" PRIx32, value);
		return len;
	}
	uint32_t covered = 0;
	for (unsigned i = 0; i < r->num_fields; i++) {
		const xs_pm4_field *f = &r->fields[i];
		covered |= xs_pm4_field_mask(f);
		xs_pm4_field_format(f, xs_pm4_field_get(f, value), tmp, sizeof(tmp));
		cat(buf, size, &len, "%s%s=%s", i ? ", " : "", f->name, tmp);
	}
	if (value & ~covered)
		cat(buf, size, &len, ", reserved bits 0x%08" PRIx32, value & ~covered);
	return len;
}

/* VGT_EVENT_TYPE names (Mesa gfx103.json enum). */
const char *const xs_pm4_event_names[64] = {
	"Reserved_0x00", "SAMPLE_STREAMOUTSTATS1", "SAMPLE_STREAMOUTSTATS2", "SAMPLE_STREAMOUTSTATS3",
	"CACHE_FLUSH_TS", "CONTEXT_DONE", "CACHE_FLUSH", "CS_PARTIAL_FLUSH",
	"VGT_STREAMOUT_SYNC", "SET_FE_ID", "VGT_STREAMOUT_RESET", "END_OF_PIPE_INCR_DE",
	"END_OF_PIPE_IB_END", "RST_PIX_CNT", "BREAK_BATCH", "VS_PARTIAL_FLUSH",
	"PS_PARTIAL_FLUSH", "FLUSH_HS_OUTPUT", "FLUSH_DFSM", "RESET_TO_LOWEST_VGT",
	"CACHE_FLUSH_AND_INV_TS_EVENT", "ZPASS_DONE", "CACHE_FLUSH_AND_INV_EVENT", "PERFCOUNTER_START",
	"PERFCOUNTER_STOP", "PIPELINESTAT_START", "PIPELINESTAT_STOP", "PERFCOUNTER_SAMPLE",
	"FLUSH_ES_OUTPUT", "BIN_CONF_OVERRIDE_CHECK", "SAMPLE_PIPELINESTAT", "SO_VGTSTREAMOUT_FLUSH",
	"SAMPLE_STREAMOUTSTATS", "RESET_VTX_CNT", "BLOCK_CONTEXT_DONE", "CS_CONTEXT_DONE",
	"VGT_FLUSH", "TGID_ROLLOVER", "SQ_NON_EVENT", "SC_SEND_DB_VPZ",
	"BOTTOM_OF_PIPE_TS", "FLUSH_SX_TS", "DB_CACHE_FLUSH_AND_INV", "FLUSH_AND_INV_DB_DATA_TS",
	"FLUSH_AND_INV_DB_META", "FLUSH_AND_INV_CB_DATA_TS", "FLUSH_AND_INV_CB_META", "CS_DONE",
	"PS_DONE", "FLUSH_AND_INV_CB_PIXEL_DATA", "SX_CB_RAT_ACK_REQUEST", "THREAD_TRACE_START",
	"THREAD_TRACE_STOP", "THREAD_TRACE_MARKER", "THREAD_TRACE_DRAW", "THREAD_TRACE_FINISH",
	"PIXEL_PIPE_STAT_CONTROL", "PIXEL_PIPE_STAT_DUMP", "PIXEL_PIPE_STAT_RESET", "CONTEXT_SUSPEND",
	"OFFCHIP_HS_DEALLOC", "ENABLE_NGG_PIPELINE", "ENABLE_LEGACY_PIPELINE", "DRAW_DONE",
};
_Static_assert(V_028A90_BOTTOM_OF_PIPE_TS == 40 && V_028A90_CS_PARTIAL_FLUSH == 7, "event table");

const char *xs_pm4_event_name(unsigned type)
{
	return type < 64 ? xs_pm4_event_names[type] : NULL;
}
