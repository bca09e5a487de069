/* The GPU object: topology built from the device-info table, register state
 * per hardware queue, and the storage the SPI reuses from dispatch to dispatch. */
#include "gpu/xs_gpu_priv.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void set_default_regs(xs_gpu_queue_regs *q)
{
	memset(q, 0, sizeof(*q));
	/* Every CU enabled until the driver says otherwise. */
	static const uint32_t masks[] = {
		R_00B858_COMPUTE_STATIC_THREAD_MGMT_SE0, R_00B85C_COMPUTE_STATIC_THREAD_MGMT_SE1,
		R_00B864_COMPUTE_STATIC_THREAD_MGMT_SE2, R_00B868_COMPUTE_STATIC_THREAD_MGMT_SE3,
	};
	for (size_t i = 0; i < XS_ARRAY_SIZE(masks); i++)
		q->sh[(masks[i] - XS_SH_REG_OFFSET) / 4] = 0xffffffffu;
}

xs_gpu *xs_gpu_create(const xs_devinfo *info, xs_vm *vm)
{
	/* The model's fixed arrays must hold the machine's figures, and the
	 * interpreter must report lines of its L2's size (the gfx10.3 figures are
	 * also checked at compile time, xs_gpu_priv.h). */
	if (info->wave_slots_per_simd > XS_GPU_MAX_WAVE_SLOTS ||
	    info->max_waves_per_group > XS_GPU_MAX_WAVES_PER_GROUP || info->num_cu > XS_GPU_MAX_CU ||
	    info->l2_line_bytes != 1u << XS_MTRACE_LINE_SHIFT || !info->lds_banks ||
	    info->lds_banks > XS_GPU_LDS_MAX_BANKS || (info->lds_banks & (info->lds_banks - 1)))
		return NULL;
	xs_gpu *g = xs_calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->info = info;
	g->vm = vm;
	g->watchdog = UINT64_MAX;
	g->timing = true;
	g->threads = 1;
	g->timing_threads = 1;
	g->dram_bytes_per_clk = (double)info->mem_bandwidth_gbs * 1e9 * info->dram_efficiency_pct / 100.0 /
				((double)info->sclk_mhz * 1e6);
	g->dram_line_clks = info->l2_line_bytes / g->dram_bytes_per_clk;
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
		set_default_regs(&g->queue[q]);

	g->ncu = info->num_cu;
	g->nwgp = xs_devinfo_num_wgp(info);
	g->nsimd = g->ncu * info->simds_per_cu;
	g->cu = xs_calloc(g->ncu, sizeof(*g->cu));
	g->wgp = xs_calloc(g->nwgp, sizeof(*g->wgp));
	g->simd = xs_calloc(g->nsimd, sizeof(*g->simd));
	uint32_t nslots = g->nsimd * info->wave_slots_per_simd;
	/* cache-line aligned: the scheduler's fields of a wave are one line */
	g->waves = xs_aligned_alloc(_Alignof(xs_gpu_wave), nslots * sizeof(*g->waves));
	if (g->waves)
		memset(g->waves, 0, nslots * sizeof(*g->waves));
	g->ev_next = xs_calloc(nslots, sizeof(*g->ev_next));
	g->hot = xs_aligned_alloc(64, XS_GPU_MAX_WAVES_PER_GROUP * sizeof(*g->hot));
	g->hot_v = xs_aligned_alloc(64, XS_GPU_HOT_ROWS * sizeof(*g->hot_v));
	g->groups = xs_calloc(nslots, sizeof(*g->groups));
	g->free_groups = xs_calloc(nslots, sizeof(*g->free_groups));
	g->ngroups = nslots;
	g->nfree_groups = nslots;
	for (uint32_t i = 0; g->free_groups && i < nslots; i++) /* (its failure is handled below) */
		g->free_groups[i] = nslots - 1 - i; /* pop order 0, 1, 2, ... */
	g->heap.a = xs_calloc(nslots, sizeof(*g->heap.a));
	g->heap.cap = nslots;
	g->scratch_bitmap_words = XS_DIV_ROUND_UP(info->max_scratch_waves_per_cu * info->num_cu, 64);
	bool rings_ok = true;
	for (int i = 0; i < XS_GPU_MAX_RINGS; i++)
		rings_ok &= (g->rings[i].bitmap = xs_calloc(g->scratch_bitmap_words, sizeof(uint64_t))) != NULL;
	/* 256 VGPRs x 64 lanes per wave slot; reserved, committed only as used. */
	g->vgpr_arena_bytes = (size_t)nslots * XS_MAX_VGPRS * sizeof(uint32_t[XS_MAX_LANES]);
	void *arena = mmap(NULL, g->vgpr_arena_bytes, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	/* Run-ahead line buffers, XS_GPU_RA_LINES per wave slot, likewise. */
	g->ra_arena_bytes = (size_t)nslots * XS_GPU_RA_LINES * sizeof(uint64_t);
	void *ra = mmap(NULL, g->ra_arena_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			-1, 0);
	g->ra_arena = ra == MAP_FAILED ? NULL : ra;
	g->ctx.vm = vm;
	g->ctx.icache = xs_icache_create();
	g->ctx.mtrace = &g->mtrace; /* timing mode records lines; functional clears it */
	bool caches_ok = (g->l0 = xs_calloc(info->num_cu, sizeof(*g->l0))) != NULL &&
			 xs_gpu_cache_init(&g->l2, info->l2_bytes, info->l2_ways, info->l2_line_bytes);
	for (uint32_t i = 0; caches_ok && i < info->num_cu; i++)
		caches_ok = xs_gpu_cache_init(&g->l0[i], info->l0_bytes, info->l0_ways, info->l2_line_bytes);
	if (!g->cu || !g->wgp || !g->simd || !g->waves || !g->ev_next || !g->hot || !g->hot_v || !g->groups ||
	    !g->free_groups || !g->heap.a || !rings_ok || !caches_ok || arena == MAP_FAILED || !g->ra_arena || !g->ctx.icache) {
		if (arena != MAP_FAILED)
			munmap(arena, g->vgpr_arena_bytes);
		g->vgpr_arena = NULL;
		xs_gpu_destroy(g);
		return NULL;
	}
	g->vgpr_arena = arena;
	for (uint32_t i = 0; i < nslots; i++) {
		g->waves[i].w.v = g->vgpr_arena + (size_t)i * XS_MAX_VGPRS;
		g->waves[i].ra_lines = g->ra_arena + (size_t)i * XS_GPU_RA_LINES;
	}

	/* SE -> SA -> WGP -> 2 CUs; CU numbers are chip-wide, SA-major. */
	uint32_t cu = 0, wgp = 0;
	for (uint32_t se = 0; se < info->num_se; se++)
		for (uint32_t sa = 0; sa < info->num_sa_per_se; sa++) {
			uint32_t sa_global = se * info->num_sa_per_se + sa;
			for (uint32_t k = 0; k < info->wgps_per_sa[sa_global]; k++, wgp++) {
				g->wgp[wgp].first_cu = cu;
				for (uint32_t c = 0; c < info->cus_per_wgp; c++, cu++)
					g->cu[cu] = (xs_gpu_cu){ .se = se, .sa = sa_global, .wgp = wgp,
								 .cu_in_sa = k * info->cus_per_wgp + c };
			}
		}
	/* HW_ID1 (but WAVE_ID) of each SIMD's waves: the SIMD within its WGP, the
	 * WGP within its SA, the SA within its SE, the SE. */
	for (uint32_t s = 0; s < g->nsimd; s++) {
		const xs_gpu_cu *c = &g->cu[s / info->simds_per_cu];
		uint32_t simd_in_wgp = (c->cu_in_sa % info->cus_per_wgp) * info->simds_per_cu + s % info->simds_per_cu;
		g->simd[s].cu = s / info->simds_per_cu;
		g->simd[s].hw_id = S_00045C_SIMD_ID(simd_in_wgp) | S_00045C_WGP_ID(c->cu_in_sa / info->cus_per_wgp) |
				   S_00045C_SA_ID(c->sa % info->num_sa_per_se) | S_00045C_SE_ID(c->se);
	}
	/* Every dispatch without a CU mask enables every CU: its registers are
	 * worked out once here, not per recorded dispatch (xs_gpu_cu_mask_regs). */
	g->cu_all = g->ncu >= 64 ? ~0ull : (1ull << g->ncu) - 1;
	for (uint32_t c = 0; c < g->ncu; c++)
		g->cu_regs_all[g->cu[c].se] |= xs_gpu_cu_en_bit(g, &g->cu[c]);
	return g;
}

void xs_gpu_destroy(xs_gpu *g)
{
	if (!g)
		return;
	xs_gpu_rap_free(g);
	if (g->groups)
		for (uint32_t i = 0; i < g->ngroups; i++)
			free(g->groups[i].lds);
	if (g->vgpr_arena)
		munmap(g->vgpr_arena, g->vgpr_arena_bytes);
	if (g->ra_arena)
		munmap(g->ra_arena, g->ra_arena_bytes);
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
		for (uint32_t i = 0; i < g->cp[q].depth; i++)
			free(g->cp[q].ib[i].dw);
	if (g->ctx.icache)
		xs_icache_destroy(g->ctx.icache);
	free(g->cu);
	free(g->wgp);
	free(g->simd);
	free(g->waves);
	free(g->ev_next);
	free(g->hot);
	free(g->hot_v);
	free(g->groups);
	free(g->free_groups);
	free(g->heap.a);
	for (uint32_t i = 0; g->l0 && i < g->info->num_cu; i++)
		xs_gpu_cache_free(&g->l0[i]);
	free(g->l0);
	xs_gpu_cache_free(&g->l2);
	free(g->trace.waves);
	free(g->trace.samples);
	free(g->trace.disps);
	xs_gpu_profile_enable(g, false);
	for (int i = 0; i < XS_GPU_MAX_RINGS; i++)
		free(g->rings[i].bitmap);
	free(g);
}

void xs_gpu_set_watchdog(xs_gpu *g, uint64_t n) { g->watchdog = n ? n : UINT64_MAX; }
void xs_gpu_set_results_recorded(xs_gpu *g, bool on) { g->results_recorded = on; }
void xs_gpu_set_hang_limits(xs_gpu *g, uint64_t gpu_cycles, double host_seconds)
{
	g->hang_cycles = gpu_cycles;
	g->hang_host_s = host_seconds;
}
void xs_gpu_interrupt(xs_gpu *g) { g->interrupt = 1; }
void xs_gpu_set_timing(xs_gpu *g, bool on)
{
	g->timing = on;
	g->ctx.mtrace = on ? &g->mtrace : NULL;
}
void xs_gpu_set_run_ahead(xs_gpu *g, bool on) { g->no_ahead = !on; }
void xs_gpu_set_threads(xs_gpu *g, uint32_t n) { g->threads = XS_MAX(1u, XS_MIN(n, (uint32_t)XS_GPU_MAX_THREADS)); }
void xs_gpu_set_timing_threads(xs_gpu *g, uint32_t n) { g->timing_threads = XS_MAX(1u, XS_MIN(n, 2u)); }

void xs_gpu_set_progress(xs_gpu *g, xs_gpu_progress_fn fn, void *user)
{
	g->progress = fn;
	g->progress_user = user;
}

void xs_gpu_set_sh_reg(xs_gpu *g, unsigned queue, uint32_t reg, uint32_t value)
{
	if (queue < XS_GPU_MAX_QUEUES && reg >= XS_SH_REG_OFFSET && reg < XS_SH_REG_END && !(reg & 3))
		g->queue[queue].sh[(reg - XS_SH_REG_OFFSET) / 4] = value;
}

uint32_t xs_gpu_get_sh_reg(const xs_gpu *g, unsigned queue, uint32_t reg)
{
	if (queue < XS_GPU_MAX_QUEUES && reg >= XS_SH_REG_OFFSET && reg < XS_SH_REG_END && !(reg & 3))
		return g->queue[queue].sh[(reg - XS_SH_REG_OFFSET) / 4];
	return 0;
}


void xs_gpu_cu_place(const xs_gpu *g, uint32_t cu, uint32_t *se, uint32_t *sa, uint32_t *wgp, uint32_t *cu_in_wgp)
{
	const xs_gpu_cu *c = &g->cu[cu < g->ncu ? cu : 0];
	*se = c->se;
	*sa = c->sa % g->info->num_sa_per_se;
	*wgp = c->cu_in_sa / g->info->cus_per_wgp;
	*cu_in_wgp = c->cu_in_sa % g->info->cus_per_wgp;
}

void xs_gpu_cu_mask_regs(const xs_gpu *g, uint64_t mask, uint32_t regs[XS_MAX_SE])
{
	if ((mask & g->cu_all) == g->cu_all) {
		memcpy(regs, g->cu_regs_all, sizeof(g->cu_regs_all));
		return;
	}
	for (int i = 0; i < XS_MAX_SE; i++)
		regs[i] = 0;
	for (uint32_t c = 0; c < g->ncu; c++)
		if ((mask >> c) & 1)
			regs[g->cu[c].se] |= xs_gpu_cu_en_bit(g, &g->cu[c]);
}
