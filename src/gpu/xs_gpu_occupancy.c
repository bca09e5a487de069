/*
 * Occupancy rules (../shared/reference/gfx103-registers.md section 5):
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
#include "gpu/xs_gpu_regs.h"

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

uint32_t xs_gpu_lds_alloc(const xs_devinfo *d, uint32_t lds_bytes)
{
	return XS_ALIGN_UP(lds_bytes, d->lds_alloc_granule);
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
		uint32_t groups = pool / o->lds_alloc;
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
}
