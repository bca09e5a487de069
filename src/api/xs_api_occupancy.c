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
		.name = d->name, .num_se = d->num_se, .num_cu = d->num_cu,
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

XS_API xs_status xs_kernel_occupancy(xs_machine m, const xs_kernel_info *k, uint32_t group_size,
				     uint32_t dynamic_lds, xs_occupancy *out)
{
	const xs_devinfo *d = xs_devinfo_get(m);
	if (!d || !k || !out)
		return xs_api_failf(NULL, XS_E_INVALID_ARG, "xs_kernel_occupancy: bad machine or NULL argument");
	uint32_t ws = k->wavefront_size;
	xs_occ_params p = {
		.wave_size = ws,
		/* The metadata's count; the descriptor's RSRC1.VGPRS is coarser. */
		.vgprs = k->vgpr_count ? k->vgpr_count : xs_gpu_vgprs_from_rsrc1(d, ws, k->rsrc1),
		.lds_bytes = k->group_segment_fixed_size + dynamic_lds,
		.group_threads = group_size ? group_size : k->max_flat_workgroup_size,
		.wgp_mode = k->wgp_mode,
	};
	if (p.group_threads == 0 || p.group_threads > d->max_group_threads)
		return xs_api_failf(NULL, XS_E_INVALID_ARG, "group size %u is not 1..%u", p.group_threads,
				    d->max_group_threads);
	xs_gpu_occupancy(d, &p, out);
	return XS_OK;
}
