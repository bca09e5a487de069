/*
 * S4: D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC into registers.
 *
 * How each member reaches the hardware (docs/spec.md S4.6 and
 * docs/graphics.md section 2; the units are those PAL's and Mesa's
 * sources give the fields):
 *
 *   xxDisableFlags            a bit per CU of a shader array (applied to every
 *                             SA): CU_EN = ~mask, CUs 0..15 in RSRC3, 16..31 in RSRC4
 *   xxMaxWaves                chip-wide waves -> WAVE_LIMIT, units of 16 waves
 *                             per SE: ceil(ceil(W / SEs) / 16); 0 = no limit
 *   xxMaxWavesForCuLocking    -> LOCK_LOW_THRESHOLD, units of 4 waves per SA
 *                             [inference, as COMPUTE_RESOURCE_LIMITS.LOCK_THRESHOLD]
 *   MaxWavesWithLate...Cache  wave32 waves per SA -> SPI_SHADER_LATE_ALLOC_VS.LIMIT,
 *                             wave64 units: ceil(W / 2)
 *
 * The hardware stages are xs12's legacy (non-NGG) pipe: VS, PS, GS (ES and
 * GS merged) and HS (LS and HS merged). A domain shader runs in the merged
 * ES-GS stage there, so the DS members narrow the GS registers too; xs12's
 * pipelines have neither stage, so those values are carried, not simulated.
 * There is no HS mask in the structure (S4.3): HS keeps every CU.
 */
#include "d3d12/xs_d3d12_limits.h"
#include "hw/xs_hw_gfx.h"
#include "hw/xs_hw_pm4.h"
#include "hw/xs_hw_regs.h"

/* The widest shader array's CU count: the mask bits that name a CU. */
static uint32_t cus_per_sa(const xs_devinfo *info)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < info->num_se * info->num_sa_per_se; i++)
		if (info->wgps_per_sa[i] * info->cus_per_wgp > n)
			n = info->wgps_per_sa[i] * info->cus_per_wgp;
	return n;
}

static uint32_t cu_mask_all(const xs_devinfo *info)
{
	uint32_t n = cus_per_sa(info);
	return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

static bool check_mask(const xs_devinfo *info, const char *name, UINT mask, xs_err *e)
{
	uint32_t n = cus_per_sa(info), all = cu_mask_all(info);
	if (mask & ~all) {
		xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_GFX_LIMITS_MASK,
			   "SetGraphicsShaderLimitsX: %s 0x%x names CUs a shader array of %s does not have (it has "
			   "%u: bits 0x%x)", name, mask, info->name, n, all);
		return false;
	}
	if ((mask & all) == all) {
		xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_GFX_LIMITS_MASK,
			   "SetGraphicsShaderLimitsX: %s 0x%x disables every CU of the shader arrays: no wave of the "
			   "stage could launch", name, mask);
		return false;
	}
	return true;
}

/* Chip-wide waves in WAVE_LIMIT's unit (16 waves per SE), rounded up. */
static bool wave_limit(d3d12_device *d, const char *name, UINT waves, uint32_t *field, xs_err *e)
{
	const xs_devinfo *info = d->rt->info;
	uint32_t per_se = (waves + info->num_se - 1) / info->num_se;
	uint32_t units = (per_se + XS_WAVE_LIMIT_UNIT - 1) / XS_WAVE_LIMIT_UNIT;
	if (units > XS_WAVE_LIMIT_MAX) {
		xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_GFX_LIMITS_MAX_WAVES,
			   "SetGraphicsShaderLimitsX: %s %u: WAVE_LIMIT holds at most 63 x 16 waves per SE, %u on %s's %u "
			   "SEs (0 = no limit)", name, waves, XS_WAVE_LIMIT_MAX * XS_WAVE_LIMIT_UNIT * info->num_se, info->name, info->num_se);
		return false;
	}
	if (units * XS_WAVE_LIMIT_UNIT * info->num_se != waves)
		d3d12_message(d, XS_MSG_GFX_LIMITS_ROUNDED,
			      "SetGraphicsShaderLimitsX: %s %u is programmed as WAVE_LIMIT %u (%u waves per SE on %u "
			      "SEs): %u waves on the chip", name, waves, units, units * XS_WAVE_LIMIT_UNIT, info->num_se,
			      units * XS_WAVE_LIMIT_UNIT * info->num_se);
	*field = units;
	return true;
}

/* Chip-wide waves in LOCK_LOW_THRESHOLD's unit (4 waves per SA), rounded up. */
static bool lock_threshold(d3d12_device *d, const char *name, UINT waves, uint32_t *field, xs_err *e)
{
	const xs_devinfo *info = d->rt->info;
	uint32_t nsa = info->num_se * info->num_sa_per_se;
	uint32_t per_sa = (waves + nsa - 1) / nsa;
	uint32_t units = (per_sa + XS_LOCK_THRESHOLD_UNIT - 1) / XS_LOCK_THRESHOLD_UNIT;
	if (units > XS_LOCK_THRESHOLD_MAX) {
		xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_GFX_LIMITS_CU_LOCKING,
			   "SetGraphicsShaderLimitsX: %s %u: LOCK_LOW_THRESHOLD holds at most 15 x 4 waves per SA, %u "
			   "on %s's %u SAs", name, waves, XS_LOCK_THRESHOLD_MAX * XS_LOCK_THRESHOLD_UNIT * nsa, info->name, nsa);
		return false;
	}
	if (units * XS_LOCK_THRESHOLD_UNIT * nsa != waves)
		d3d12_message(d, XS_MSG_GFX_LIMITS_ROUNDED,
			      "SetGraphicsShaderLimitsX: %s %u is programmed as LOCK_LOW_THRESHOLD %u (%u waves per SA "
			      "on %u SAs): %u waves on the chip", name, waves, units, units * XS_LOCK_THRESHOLD_UNIT, nsa, units * XS_LOCK_THRESHOLD_UNIT * nsa);
	*field = units;
	return true;
}

/* The smaller of two limits where 0 means none. */
static uint32_t min_limit(uint32_t a, uint32_t b)
{
	return !a ? b : !b ? a : a < b ? a : b;
}

bool d3d12_gfx_limits_compute(d3d12_device *d, const D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC *desc,
			      d3d12_gfx_limits_regs *out, xs_err *e)
{
	const xs_devinfo *info = d->rt->info;
	if (!check_mask(info, "VSDisableFlags", desc->VSDisableFlags, e) ||
	    !check_mask(info, "DSDisableFlags", desc->DSDisableFlags, e) ||
	    !check_mask(info, "GSDisableFlags", desc->GSDisableFlags, e) ||
	    !check_mask(info, "PSDisableFlags", desc->PSDisableFlags, e))
		return false;
	if ((desc->DSDisableFlags | desc->GSDisableFlags) == cu_mask_all(info)) {
		/* each leaves a CU, together they leave none for the merged ES-GS stage */
		xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_GFX_LIMITS_MASK,
			   "SetGraphicsShaderLimitsX: DSDisableFlags 0x%x | GSDisableFlags 0x%x disables every CU of "
			   "the merged ES-GS stage", desc->DSDisableFlags, desc->GSDisableFlags);
		return false;
	}
	uint32_t wl[5], lk[5]; /* VS, HS, DS, GS, PS as the structure orders them */
	const UINT waves[5] = { desc->VSMaxWaves, desc->HSMaxWaves, desc->DSMaxWaves, desc->GSMaxWaves, desc->PSMaxWaves };
	const UINT locks[5] = { desc->VSMaxWavesForCuLocking, desc->HSMaxWavesForCuLocking, desc->DSMaxWavesForCuLocking,
				desc->GSMaxWavesForCuLocking, desc->PSMaxWavesForCuLocking };
	static const char *const wname[5] = { "VSMaxWaves", "HSMaxWaves", "DSMaxWaves", "GSMaxWaves", "PSMaxWaves" };
	static const char *const lname[5] = { "VSMaxWavesForCuLocking", "HSMaxWavesForCuLocking",
					      "DSMaxWavesForCuLocking", "GSMaxWavesForCuLocking",
					      "PSMaxWavesForCuLocking" };
	for (int i = 0; i < 5; i++)
		if (!wave_limit(d, wname[i], waves[i], &wl[i], e) || !lock_threshold(d, lname[i], locks[i], &lk[i], e))
			return false;
	UINT la = desc->MaxWavesWithLateAllocParameterCache;
	if (la > 2 * 63) {
		xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_GFX_LIMITS_LATE_ALLOC_RANGE,
			   "SetGraphicsShaderLimitsX: MaxWavesWithLateAllocParameterCache %u: SPI_SHADER_LATE_ALLOC_VS."
			   "LIMIT holds 63 wave64 waves per SA, 126 wave32 waves", la);
		return false;
	}
	out->late_alloc_limit = (la + 1) / 2;
	if (la & 1)
		d3d12_message(d, XS_MSG_GFX_LIMITS_ROUNDED,
			      "SetGraphicsShaderLimitsX: MaxWavesWithLateAllocParameterCache %u is programmed as "
			      "SPI_SHADER_LATE_ALLOC_VS.LIMIT %u wave64 waves per SA: %u wave32 waves", la,
			      out->late_alloc_limit, 2 * out->late_alloc_limit);
	if (la > 22 && !desc->VSDisableFlags)
		d3d12_message(d, XS_MSG_GFX_LIMITS_LATE_ALLOC_DEADLOCK,
			      "SetGraphicsShaderLimitsX: MaxWavesWithLateAllocParameterCache %u is above 22 with "
			      "VSDisableFlags 0: the GPU may deadlock, seldom and hard to reproduce (a VS wave waiting "
			      "at its exp for parameter-cache space pending PS waves hold); keep vertex shaders off one "
			      "CU (any non-zero VSDisableFlags, e.g. 0x2)", la);
	uint32_t vs_en = ~desc->VSDisableFlags, ps_en = ~desc->PSDisableFlags;
	uint32_t gs_en = ~(desc->GSDisableFlags | desc->DSDisableFlags), hs_en = 0xffffffffu;
	out->rsrc3[D3D12_HW_VS] = S_00B01C_CU_EN(vs_en & 0xffff) | S_00B01C_WAVE_LIMIT(wl[0]) |
				  S_00B01C_LOCK_LOW_THRESHOLD(lk[0]);
	out->rsrc3[D3D12_HW_PS] = S_00B01C_CU_EN(ps_en & 0xffff) | S_00B01C_WAVE_LIMIT(wl[4]) |
				  S_00B01C_LOCK_LOW_THRESHOLD(lk[4]);
	out->rsrc3[D3D12_HW_GS] = S_00B21C_CU_EN(gs_en & 0xffff) | S_00B21C_WAVE_LIMIT(min_limit(wl[2], wl[3])) |
				  S_00B21C_LOCK_LOW_THRESHOLD(min_limit(lk[2], lk[3]));
	/* RSRC3_HS orders its fields differently (WAVE_LIMIT at bit 0, CU_EN at 16) */
	out->rsrc3[D3D12_HW_HS] = S_00B41C_CU_EN(hs_en & 0xffff) | S_00B41C_WAVE_LIMIT(wl[1]) |
				  S_00B41C_LOCK_LOW_THRESHOLD(lk[1]);
	out->rsrc4[D3D12_HW_VS] = S_00B004_CU_EN(vs_en >> 16);
	out->rsrc4[D3D12_HW_PS] = S_00B004_CU_EN(ps_en >> 16);
	out->rsrc4[D3D12_HW_GS] = S_00B204_CU_EN(gs_en >> 16); /* SPI_SHADER_LATE_ALLOC_GS: NGG only, 0 */
	out->rsrc4[D3D12_HW_HS] = S_00B004_CU_EN(hs_en >> 16);
	return true;
}

uint32_t d3d12_gfx_ge_pc_alloc(uint32_t late_alloc)
{
	/* NUM_PC_LINES as Mesa programs it for gfx10.3: a quarter of the 1024
	 * parameter-cache lines, minus one [inference: xs12 models no
	 * oversubscription factor] */
	return S_030980_OVERSUB_EN(late_alloc != 0) | S_030980_NUM_PC_LINES(late_alloc ? 1024 / 4 - 1 : 0);
}

void d3d12_gfx_limits_emit(xs_pm4_builder *b, const d3d12_gfx_limits_regs *r, uint32_t late_alloc)
{
	static const uint32_t rsrc3[D3D12_HW_STAGES] = { R_00B118_SPI_SHADER_PGM_RSRC3_VS, R_00B01C_SPI_SHADER_PGM_RSRC3_PS,
							 R_00B21C_SPI_SHADER_PGM_RSRC3_GS, R_00B41C_SPI_SHADER_PGM_RSRC3_HS };
	static const uint32_t rsrc4[D3D12_HW_STAGES] = { R_00B104_SPI_SHADER_PGM_RSRC4_VS, R_00B004_SPI_SHADER_PGM_RSRC4_PS,
							 R_00B204_SPI_SHADER_PGM_RSRC4_GS, R_00B404_SPI_SHADER_PGM_RSRC4_HS };
	/* CU masks go with index 3, as Mesa and PAL write them on gfx10: the CP
	 * ANDs them with the kernel driver's CU reservation */
	for (int i = 0; i < D3D12_HW_STAGES; i++) {
		xs_pm4_set_sh_reg_index(b, rsrc3[i], V_SET_SH_REG_INDEX_APPLY_KMD_CU_AND_MASK, &r->rsrc3[i], 1);
		xs_pm4_set_sh_reg_index(b, rsrc4[i], V_SET_SH_REG_INDEX_APPLY_KMD_CU_AND_MASK, &r->rsrc4[i], 1);
	}
	xs_pm4_set_sh_reg1(b, R_00B11C_SPI_SHADER_LATE_ALLOC_VS, S_00B11C_LIMIT(late_alloc));
	uint32_t pc = d3d12_gfx_ge_pc_alloc(late_alloc);
	xs_pm4_set_uconfig_reg(b, R_030980_GE_PC_ALLOC, &pc, 1);
}

void d3d12_list_limits_reset(d3d12_list *l)
{
	D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC def;
	D3D12XboxInitializeDefaultGraphicsShaderLimits(&def);
	xs_err e;
	bool ok = d3d12_gfx_limits_compute(l->obj.device, &def, &l->gfx_limits, &e); /* the defaults round to nothing */
	(void)ok;
	l->gfx_limits_explicit = false;
	l->late_alloc_now = UINT32_MAX;
}

void d3d12_list_limits_for_draw(d3d12_list *l, bool uses_scratch, const char *pipeline)
{
	uint32_t want = l->gfx_limits.late_alloc_limit;
	if (uses_scratch && want) {
		if (!l->gfx_limits_explicit)
			want = 0; /* the driver's choice under the defaults (docs/spec.md S4.1) */
		else
			d3d12_list_error(l, XS_MSG_GFX_LATE_ALLOC_SCRATCH,
					 "a draw of %s, whose shaders use scratch, with late alloc on "
					 "(SPI_SHADER_LATE_ALLOC_VS.LIMIT %u from SetGraphicsShaderLimitsX): VS waves "
					 "waiting for parameter-cache space hold scratch slots the PS waves they wait for "
					 "need, and S1.8 shares the ring with compute: the GPU can deadlock (Mesa turns late "
					 "alloc off for such shaders)", pipeline, want);
	}
	if (l->late_alloc_now == UINT32_MAX) {
		d3d12_gfx_limits_emit(&l->pm4, &l->gfx_limits, want);
	} else if (l->late_alloc_now != want) {
		uint32_t pc = d3d12_gfx_ge_pc_alloc(want);
		xs_pm4_set_sh_reg1(&l->pm4, R_00B11C_SPI_SHADER_LATE_ALLOC_VS, S_00B11C_LIMIT(want));
		xs_pm4_set_uconfig_reg(&l->pm4, R_030980_GE_PC_ALLOC, &pc, 1);
	}
	l->late_alloc_now = want;
}
