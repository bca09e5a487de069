/*
 * Occupancy rules (docs/hardware.md section 7):
 *  - 16 wave slots per SIMD (gfx10.3);
 *  - VGPRs: 1024 wave32 / 512 wave64 per SIMD, allocated in granules of 16 / 8;
 *  - LDS: 64 KiB per CU in CU mode, 128 KiB per WGP in WGP mode, shared by the
 *    SIMDs there (2 or 4), allocated in 1 KiB steps;
 *  - workgroups: all waves of a group sit in one CU (CU mode) or WGP (WGP
 *    mode); a group of more than one wave takes one of 16 barriers per CU.
 * Waves per SIMD is the pool's total divided by its SIMDs, rounded down.
 * clang-15's "; Occupancy:" agrees for VGPR and wave-slot limits; for LDS it
 * counts waves per CU (a FIXME fixed in later LLVM); docs/occupancy.md.
 */
#include "gpu/xs_gpu_occupancy.h"
#include "hw/xs_hw_regs.h"

uint32_t xs_gpu_vgpr_alloc(const xs_devinfo *d, uint32_t wave_size, uint32_t vgprs)
{
	uint32_t g = wave_size == 32 ? d->vgpr_granule_w32 : d->vgpr_granule_w64;
	return XS_ALIGN_UP(XS_MAX(vgprs, 1u), g);
}

uint32_t xs_gpu_vgprs_from_rsrc1(const xs_devinfo *d, uint32_t wave_size, uint32_t rsrc1)
{
	uint32_t g = wave_size == 32 ? d->vgpr_encode_granule_w32 : d->vgpr_encode_granule_w64;
	return (G_00B848_VGPRS(rsrc1) + 1) * g;
}

uint64_t xs_gpu_lds_alloc(const xs_devinfo *d, uint64_t lds_bytes)
{
	return XS_ALIGN_UP(lds_bytes, (uint64_t)d->lds_alloc_granule);
}

uint64_t xs_gpu_scratch_per_wave(const xs_devinfo *d, uint32_t rsrc2, uint32_t lane_bytes, uint32_t wave_size)
{
	if (!G_00B84C_SCRATCH_EN(rsrc2))
		return 0;
	uint64_t g = d->scratch_wavesize_granule;
	uint64_t b = XS_ALIGN_UP((uint64_t)lane_bytes * wave_size, g);
	return b ? b : g;
}

/* Waves per SIMD when `waves` spread over `simds`: rounded down, but at
 * least 1 when any wave fits (one 64 KiB group per CU still runs a wave). */
static uint32_t per_simd(uint32_t waves, uint32_t simds)
{
	return waves == 0 ? 0 : XS_MAX(1u, waves / simds);
}

void xs_gpu_occupancy(const xs_devinfo *d, const xs_occ_params *p, xs_occupancy *o)
{
	const uint32_t slots = d->wave_slots_per_simd;
	const uint32_t simds = xs_gpu_simds_per_pool(d, p->wgp_mode);
	const uint32_t wpg = XS_MAX(1u, XS_DIV_ROUND_UP(p->group_threads, p->wave_size));

	*o = (xs_occupancy){ 0 };
	o->waves_per_group = wpg;
	o->by_slots = slots;

	uint32_t total_vgprs = p->wave_size == 32 ? d->vgprs_per_simd_w32 : d->vgprs_per_simd_w32 / 2;
	o->vgpr_alloc = xs_gpu_vgpr_alloc(d, p->wave_size, p->vgprs);
	o->by_vgpr = XS_MIN(slots, total_vgprs / o->vgpr_alloc);

	o->lds_alloc = xs_gpu_lds_alloc(d, p->lds_bytes);
	if (o->lds_alloc == 0) {
		o->by_lds = slots;
	} else {
		uint32_t pool = p->wgp_mode ? d->lds_per_wgp : d->lds_per_wgp / d->cus_per_wgp;
		uint32_t groups = o->lds_alloc > d->lds_max_per_group ? 0 : (uint32_t)(pool / o->lds_alloc);
		o->by_lds = XS_MIN(slots, per_simd(groups * wpg, simds));
	}

	/* Groups that fit by wave slots in the pool, and by barriers. */
	uint32_t groups = slots * simds / wpg;
	if (wpg > 1) {
		uint32_t barriers = d->barriers_per_cu * (p->wgp_mode ? d->cus_per_wgp : 1);
		groups = XS_MIN(groups, barriers);
	}
	o->by_workgroup = XS_MIN(slots, per_simd(groups * wpg, simds));

	/* The smallest limit wins; ties go to the first in this order, so that a
	 * kernel limited by nothing else reports "wave-slots". */
	o->waves_per_simd = o->by_slots;
	o->limiter = XS_LIMIT_WAVE_SLOTS;
	if (o->by_vgpr < o->waves_per_simd) {
		o->waves_per_simd = o->by_vgpr;
		o->limiter = XS_LIMIT_VGPR;
	}
	if (o->by_lds < o->waves_per_simd) {
		o->waves_per_simd = o->by_lds;
		o->limiter = XS_LIMIT_LDS;
	}
	if (o->by_workgroup < o->waves_per_simd) {
		o->waves_per_simd = o->by_workgroup;
		o->limiter = XS_LIMIT_WORKGROUP;
	}

	/* Hint: the most VGPRs a wave may use for one more wave per SIMD. */
	if (o->by_vgpr < slots) {
		uint32_t g = p->wave_size == 32 ? d->vgpr_granule_w32 : d->vgpr_granule_w64;
		uint32_t v = total_vgprs / (o->by_vgpr + 1) / g * g;
		if (v >= g) {
			o->vgprs_for_next_step = v;
			o->next_step_waves = o->by_vgpr + 1;
		}
	}

	/* Scratch: the ring is one pool for the chip (SPEC S1.1, S1.13). */
	o->scratch_en = p->scratch_en;
	if (p->scratch_en) {
		uint32_t nsimd = d->num_cu * d->simds_per_cu, cap = d->max_scratch_waves_per_cu * d->num_cu;
		o->scratch_slots = p->scratch_slots;
		o->scratch_slots_usable = XS_MIN(p->scratch_slots, cap);
		uint32_t waves = o->scratch_slots_usable / wpg * wpg; /* whole groups */
		o->by_scratch = XS_MIN(slots, per_simd(waves, nsimd));
		o->scratch_waves_per_simd = (double)waves / nsimd;
		if (o->scratch_waves_per_simd < o->waves_per_simd) {
			o->waves_per_simd = o->by_scratch;
			o->limiter = XS_LIMIT_SCRATCH;
		}
		/* Slots for the occupancy the other limits allow. */
		uint32_t other = XS_MIN(XS_MIN(o->by_slots, o->by_vgpr), XS_MIN(o->by_lds, o->by_workgroup));
		uint64_t need = XS_ALIGN_UP((uint64_t)other * nsimd, (uint64_t)wpg);
		o->scratch_slots_for_full = (uint32_t)XS_MIN(need, (uint64_t)cap / wpg * wpg);
	}
}
