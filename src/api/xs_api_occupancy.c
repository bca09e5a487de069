/* Machine figures and the theoretical occupancy of a kernel on a machine
 * (the rules live in src/gpu/xs_gpu_occupancy.c, shared with the SPI). */
#include "api/xs_api_priv.h"
#include "gpu/xs_gpu_occupancy.h"

XS_API xs_status xs_machine_describe(xs_machine m, xs_machine_info *out)
{
	const xs_devinfo *d = xs_devinfo_get(m);
	if (!d || !out)
		return xs_api_failf(NULL, XS_E_INVALID_ARG, "xs_machine_describe: bad machine or NULL argument");
	*out = (xs_machine_info){
		.name = d->name, .num_se = d->num_se, .num_cu = d->num_cu, .simds_per_cu = d->simds_per_cu,
		.lds_max_per_group = d->lds_max_per_group,
		.wave_slots_per_simd = d->wave_slots_per_simd,
		.default_scratch_waves = d->default_scratch_waves_per_cu * d->num_cu,
		.max_scratch_waves = d->max_scratch_waves_per_cu * d->num_cu,
		.sclk_mhz = d->sclk_mhz,
	};
	return XS_OK;
}

XS_API const char *xs_limiter_name(xs_limiter l)
{
	static const char *const names[] = {
		[XS_LIMIT_WAVE_SLOTS] = "wave-slots", [XS_LIMIT_VGPR] = "vgpr", [XS_LIMIT_LDS] = "lds",
		[XS_LIMIT_WORKGROUP] = "workgroup", [XS_LIMIT_SCRATCH] = "scratch",
	};
	return (unsigned)l < XS_ARRAY_SIZE(names) ? names[l] : "?";
}

XS_API uint64_t xs_kernel_scratch_per_wave(const xs_kernel_info *k)
{
	/* The granule is gfx10.3's, the same on every machine. */
	return k ? xs_gpu_scratch_per_wave(xs_devinfo_get(XS_MACHINE_SERIES_X), k->rsrc2,
					   k->private_segment_fixed_size, k->wavefront_size)
		 : 0;
}

XS_API xs_status xs_kernel_occupancy(xs_machine m, const xs_kernel_info *k, const xs_occupancy_query *q,
				     xs_occupancy *out)
{
	const xs_devinfo *d = xs_devinfo_get(m);
	if (!d || !k || !out)
		return xs_api_failf(NULL, XS_E_INVALID_ARG, "xs_kernel_occupancy: bad machine or NULL argument");
	xs_occupancy_query none = { 0 };
	if (!q)
		q = &none;
	uint32_t ws = k->wavefront_size;
	xs_occ_params p = {
		.wave_size = ws,
		/* The metadata's count; the descriptor's RSRC1.VGPRS is coarser. */
		.vgprs = k->vgpr_count ? k->vgpr_count : xs_gpu_vgprs_from_rsrc1(d, ws, k->rsrc1),
		.lds_bytes = (uint64_t)k->group_segment_fixed_size + q->dynamic_lds,
		.group_threads = q->group_size ? q->group_size : k->max_flat_workgroup_size,
		.wgp_mode = k->wgp_mode,
		.scratch_en = G_00B84C_SCRATCH_EN(k->rsrc2),
		.scratch_slots = q->scratch_slots ? q->scratch_slots : d->default_scratch_waves_per_cu * d->num_cu,
	};
	if (p.group_threads == 0 || p.group_threads > d->max_group_threads)
		return xs_api_failf(NULL, XS_E_INVALID_ARG, "group size %u is not 1..%u", p.group_threads,
				    d->max_group_threads);
	xs_gpu_occupancy(d, &p, out);
	out->scratch_per_wave = xs_kernel_scratch_per_wave(k);
	return XS_OK;
}
