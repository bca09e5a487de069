/*
 * Instruction timing and counters of the native API (xs12.h): thin methods
 * over the runtime's profile (src/runtime/xs_rt_profile.c), which the D3D12
 * layer shares.
 */
#include "api/xs_api_priv.h"
#include "runtime/xs_rt_profile.h"

#include <string.h>

XS_API const char *xs_stall_name(xs_stall s)
{
	return xs_rt_stall_name((unsigned)s);
}

XS_API const char *xs_inst_class_name(xs_inst_class c)
{
	static const char *const names[] = {
		"salu", "smem", "branch", "message", "valu", "valu-trans", "valu-fp64", "lds", "vmem-load",
		"vmem-store", "vmem-atomic", "export", "internal",
	};
	_Static_assert(XS_ARRAY_SIZE(names) == XS_INST_CLASS_COUNT, "a name per class");
	_Static_assert((int)XS_INST_CLASS_COUNT == (int)XS_IC_COUNT && (int)XS_INST_LDS == (int)XS_IC_LDS &&
			       (int)XS_INST_VALU_FP64 == (int)XS_IC_VALU_DP && (int)XS_INST_EXPORT == (int)XS_IC_EXPORT,
		       "the ISA's classes in the same order");
	return (unsigned)c < XS_ARRAY_SIZE(names) ? names[c] : "?";
}

XS_API xs_status xs_device_profile(xs_device *dev, bool on)
{
	if (!dev)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_device_profile: NULL device");
	xs_err e = { 0 };
	xs_status st = xs_rt_profile_enable(dev->rt, on, &e);
	return st ? xs_api_fail(dev, &e) : XS_OK;
}

XS_API xs_status xs_profile_take(xs_device *dev, xs_profile **out)
{
	if (out)
		*out = NULL;
	if (!dev || !out)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_profile_take: NULL argument");
	xs_err e = { 0 };
	xs_status st = xs_rt_profile_take(dev->rt, out, &e);
	return st ? xs_api_fail(dev, &e) : XS_OK;
}

XS_API uint32_t xs_profile_function_count(const xs_profile *p)
{
	return p ? p->nfn : 0;
}

XS_API const xs_profile_function *xs_profile_function_get(const xs_profile *p, uint32_t index)
{
	return p && index < p->nfn ? &p->fn[index] : NULL;
}

XS_API xs_status xs_profile_write(const xs_profile *p, const char *path)
{
	if (!p || !path)
		return xs_api_failf(NULL, XS_E_INVALID_ARG, "xs_profile_write: NULL argument");
	xs_err e = { 0 };
	xs_status st = xs_rt_profile_write(p, path, &e);
	return st ? xs_api_fail(NULL, &e) : XS_OK;
}

XS_API void xs_profile_destroy(xs_profile *p)
{
	xs_rt_profile_free(p);
}

void xs_api_fill_counters(const xs_devinfo *info, bool timing, const xs_gpu_dispatch_result *r,
			  xs_dispatch_counters *c)
{
	const xs_gpu_counters *g = &r->ctr;
	_Static_assert(sizeof(c->insts) == sizeof(g->insts) && sizeof(c->valu_busy) == sizeof(g->valu_busy) &&
			       sizeof(c->waves_per_se) == sizeof(g->waves_per_se),
		       "counter arrays of one shape");
	*c = (xs_dispatch_counters){
		.valid = timing,
		.l0_hits = g->l0_hits, .l0_misses = g->l0_misses, .l2_hits = g->l2_hits, .l2_misses = g->l2_misses,
		.dram_read_lines = g->dram_read_lines, .dram_write_lines = g->dram_write_lines,
		.vmem_read_bytes = g->vmem_read_bytes, .vmem_write_bytes = g->vmem_write_bytes,
		.scratch_read_bytes = g->scratch_read_bytes, .scratch_write_bytes = g->scratch_write_bytes,
		.lds_bytes = g->lds_bytes, .lds_bank_conflict_cycles = g->lds_bank_conflict_cycles,
		.num_simd = info->num_cu * info->simds_per_cu, .num_se = info->num_se, .line_bytes = info->l2_line_bytes,
	};
	memcpy(c->insts, g->insts, sizeof(c->insts));
	memcpy(c->salu_busy, g->salu_busy, sizeof(c->salu_busy));
	memcpy(c->valu_busy, g->valu_busy, sizeof(c->valu_busy));
	memcpy(c->waves_per_se, g->waves_per_se, sizeof(c->waves_per_se));
	/* GB/s = bytes per cycle x cycles per second (MHz x 1e6) / 1e9 */
	if (timing && r->cycles)
		c->dram_gbps = (double)(g->dram_read_lines + g->dram_write_lines) * info->l2_line_bytes /
			       (double)r->cycles * info->sclk_mhz / 1e3;
}
