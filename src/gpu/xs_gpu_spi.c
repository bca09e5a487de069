/*
 * SPI: wave launch and the dispatch loop.
 *
 * Groups launch in order (the dispatcher does not reorder): a group that
 * does not fit blocks the ones behind it until resources free up. A group
 * launches whole — all its waves get a SIMD slot, VGPRs and (with
 * SCRATCH_EN) a scratch slot, and the group gets its LDS and barrier — so
 * that a barrier can never wait for a wave that cannot launch; a group
 * needing more scratch slots than the ring has is rejected up front.
 *
 * Time: until the timing model lands (GPU-model issue) each SIMD has a
 * clock that advances by one cycle per wave32 instruction and two per wave64
 * instruction; the SIMD with the lowest clock runs next, XS_SPI_QUANTUM
 * instructions at a time. This is deterministic: same input, same cycles.
 */
#include "gpu/xs_gpu_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define XS_SPI_QUANTUM 512

/* ---- resources --------------------------------------------------------- */

static bool cu_enabled(const xs_gpu *g, const uint32_t *sh, uint32_t cu)
{
	static const uint32_t mask_regs[XS_MAX_SE] = {
		R_00B858_COMPUTE_STATIC_THREAD_MGMT_SE0, R_00B85C_COMPUTE_STATIC_THREAD_MGMT_SE1,
		R_00B864_COMPUTE_STATIC_THREAD_MGMT_SE2, R_00B868_COMPUTE_STATIC_THREAD_MGMT_SE3,
	};
	const xs_gpu_cu *c = &g->cu[cu];
	uint32_t m = sh[(mask_regs[c->se] - XS_SH_REG_OFFSET) / 4];
	uint32_t sa_in_se = c->sa % g->info->num_sa_per_se;
	return (m >> (sa_in_se * 16 + c->cu_in_sa)) & 1;
}

/* Can `need` waves of `vgprs` each go on the SIMDs of this pool, and where. */
static bool pool_place_waves(xs_gpu *g, const xs_spi_dispatch *d, uint32_t first_simd,
			     uint32_t nsimd, uint32_t need, uint8_t *simd_of_wave)
{
	uint32_t free_slots[4], free_vgprs[4];
	for (uint32_t s = 0; s < nsimd; s++) {
		const xs_gpu_simd *sm = &g->simd[first_simd + s];
		free_slots[s] = g->info->wave_slots_per_simd - sm->nwaves;
		free_vgprs[s] = g->info->vgprs_per_simd_w32 - sm->vgprs_used;
	}
	/* Round-robin over the pool's SIMDs, as the SPI balances a group. */
	uint32_t s = 0;
	for (uint32_t w = 0; w < need; w++) {
		uint32_t tries = 0;
		while (tries < nsimd && (free_slots[s] == 0 || free_vgprs[s] < d->vgprs_w32))
			s = (s + 1) % nsimd, tries++;
		if (tries == nsimd)
			return false;
		free_slots[s]--;
		free_vgprs[s] -= d->vgprs_w32;
		simd_of_wave[w] = (uint8_t)s;
		s = (s + 1) % nsimd;
	}
	return true;
}

typedef enum { FIT_OK, FIT_SLOTS, FIT_VGPR, FIT_LDS, FIT_BARRIER, FIT_SCRATCH, FIT_LIMIT } fit_result;

static fit_result try_place(xs_gpu *g, xs_spi_dispatch *d, uint32_t cu, uint8_t *simd_of_wave,
			    uint32_t *first_simd)
{
	const xs_devinfo *di = g->info;
	xs_gpu_cu *c = &g->cu[cu];
	uint32_t wgp = c->wgp;
	uint32_t nsimd = xs_gpu_simds_per_pool(di, d->wgp_mode);
	/* WGP mode uses both CUs of the WGP: start at the WGP's first CU. */
	uint32_t base_cu = d->wgp_mode ? g->wgp[wgp].first_cu : cu;
	if (d->wgp_mode && cu != base_cu)
		return FIT_LIMIT;
	*first_simd = base_cu * di->simds_per_cu;

	if (d->tg_per_cu && c->groups >= d->tg_per_cu)
		return FIT_LIMIT;
	if (d->waves_per_se && g->se_waves[c->se] + d->waves_per_group > d->waves_per_se)
		return FIT_LIMIT;
	/* LDS: CU mode takes from the CU's half of the WGP's LDS, WGP mode from
	 * the whole 128 KiB (SPEC S3.6). */
	if (d->lds_alloc) {
		uint32_t half = di->lds_per_wgp / di->cus_per_wgp;
		if (d->wgp_mode) {
			if (g->wgp[wgp].lds_used + d->lds_alloc > di->lds_per_wgp)
				return FIT_LDS;
		} else if (c->lds_used + d->lds_alloc > half ||
			   g->wgp[wgp].lds_used + d->lds_alloc > di->lds_per_wgp) {
			return FIT_LDS;
		}
	}
	if (d->waves_per_group > 1) {
		uint32_t used = d->wgp_mode ? g->wgp[wgp].barriers_used : c->barriers_used;
		uint32_t cap = di->barriers_per_cu * (d->wgp_mode ? di->cus_per_wgp : 1);
		if (used >= cap)
			return FIT_BARRIER;
	}
	if (d->scratch_en) {
		if (g->scratch_in_use + d->waves_per_group > d->scratch_slots)
			return FIT_SCRATCH;
		uint32_t cu_scratch = c->scratch_waves;
		if (d->wgp_mode)
			cu_scratch = XS_MAX(cu_scratch, g->cu[base_cu + 1].scratch_waves);
		if (cu_scratch + d->waves_per_group > di->max_scratch_waves_per_cu * (d->wgp_mode ? 2u : 1u))
			return FIT_SCRATCH;
	}
	if (!pool_place_waves(g, d, *first_simd, nsimd, d->waves_per_group, simd_of_wave)) {
		/* Tell slots from VGPRs apart for the stall statistics. */
		uint32_t free_slots = 0;
		for (uint32_t s = 0; s < nsimd; s++)
			free_slots += di->wave_slots_per_simd - g->simd[*first_simd + s].nwaves;
		return free_slots < d->waves_per_group ? FIT_SLOTS : FIT_VGPR;
	}
	return FIT_OK;
}

static uint32_t scratch_slot_take(xs_gpu *g)
{
	/* Lowest free slot: deterministic, and keeps the ring's used part dense. */
	for (uint32_t i = 0; i < g->scratch_bitmap_words; i++) {
		uint64_t free_bits = ~g->scratch_bitmap[i];
		if (free_bits) {
			uint32_t b = (uint32_t)__builtin_ctzll(free_bits);
			g->scratch_bitmap[i] |= 1ull << b;
			return i * 64 + b;
		}
	}
	return UINT32_MAX; /* cannot happen: checked by try_place */
}

static void scratch_slot_give(xs_gpu *g, uint32_t slot)
{
	g->scratch_bitmap[slot / 64] &= ~(1ull << (slot % 64));
}

/* ---- wave set-up (AMDGPUUsage "Initial Kernel Execution State") -------- */

static void init_wave(xs_gpu *g, xs_spi_dispatch *d, xs_gpu_group *grp, xs_gpu_wave *gw,
		      uint32_t wave_in_group)
{
	xs_wave *w = &gw->w;
	const uint32_t *sh = d->sh;
	uint32_t rsrc2 = d->rsrc2;
	uint32_t lanes = d->wave_size;

	memset(w->s, 0, sizeof(w->s));
	uint32_t n = 0;
	for (; n < d->user_sgprs; n++)
		w->s[n] = sh[(R_00B900_COMPUTE_USER_DATA_0 - XS_SH_REG_OFFSET) / 4 + n];
	if (G_00B84C_TGID_X_EN(rsrc2))
		w->s[n++] = grp->id[0];
	if (G_00B84C_TGID_Y_EN(rsrc2))
		w->s[n++] = grp->id[1];
	if (G_00B84C_TGID_Z_EN(rsrc2))
		w->s[n++] = grp->id[2];
	if (G_00B84C_TG_SIZE_EN(rsrc2)) /* {first_wave[31], ..., waves_in_group[5:0]} */
		w->s[n++] = (wave_in_group == 0 ? 1u << 31 : 0) | (d->waves_per_group & 0x3f);
	if (d->scratch_en) /* Private Segment Wavefront Offset: the slot's byte offset */
		w->s[n++] = gw->scratch_slot * d->scratch_wavesize;

	/* Work-item ids in v0/v1/v2 (unpacked on gfx10.3), EXEC = live lanes. */
	uint32_t cnt = G_00B84C_TIDIG_COMP_CNT(rsrc2);
	uint32_t bx = d->block[0], by = d->block[1];
	uint64_t exec = 0;
	w->nvgpr = d->vgprs;
	uint32_t nv = w->nvgpr;
	memset(w->v, 0, (size_t)nv * sizeof(w->v[0]));
	for (uint32_t l = 0; l < lanes; l++) {
		uint32_t t = wave_in_group * lanes + l;
		if (t >= d->group_threads)
			break;
		exec |= 1ull << l;
		w->v[0][l] = t % bx;
		if (cnt >= 1 && nv > 1)
			w->v[1][l] = (t / bx) % by;
		if (cnt >= 2 && nv > 2)
			w->v[2][l] = t / (bx * by);
	}
	w->s[XS_SREG_EXEC_LO] = (uint32_t)exec;
	w->s[XS_SREG_EXEC_HI] = (uint32_t)(exec >> 32);
	w->pc = d->pgm_va;
	w->scc = 0;
	w->mode = XS_MODE_FROM_RSRC1(d->rsrc1);
	w->trapsts = 0;
	w->flat_scratch = 0;
	w->lanes = lanes;
	w->lds = grp->lds;
	w->lds_size = d->lds_alloc;
	w->status = XS_WAVE_READY;
	w->insts = 0;
	w->wave_in_group = wave_in_group;
	w->owner = gw;
	/* HW_ID: wave slot [3:0], SIMD [9:8], WGP [13:10], SA [16], SE [19:18]. */
	const xs_gpu_cu *c = &g->cu[gw->simd / g->info->simds_per_cu];
	w->hw_id2 = 0;
	w->hw_id = gw->slot | ((gw->simd % g->info->simds_per_cu + (c->cu_in_sa % 2) * 2) << 8) |
		   ((c->cu_in_sa / 2) << 10) | ((c->sa % g->info->num_sa_per_se) << 16) | (c->se << 18);
}

static void launch_group(xs_gpu *g, xs_spi_dispatch *d, uint32_t cu, uint32_t first_simd,
			 const uint8_t *simd_of_wave, const uint32_t id[3])
{
	const xs_devinfo *di = g->info;
	xs_gpu_group *grp = &g->groups[g->free_groups[--g->nfree_groups]];
	memset(grp->id, 0, sizeof(grp->id));
	memcpy(grp->id, id, sizeof(grp->id));
	grp->cu = cu;
	grp->live = d->waves_per_group;
	grp->nwaves = d->waves_per_group;
	grp->at_barrier = 0;
	if (d->lds_alloc) {
		if (grp->lds_cap < d->lds_alloc) {
			free(grp->lds);
			grp->lds = malloc(d->lds_alloc);
			grp->lds_cap = d->lds_alloc;
		}
		/* LDS contents are undefined at launch; zero them so runs repeat. */
		memset(grp->lds, 0, d->lds_alloc);
	}
	xs_gpu_cu *c = &g->cu[cu];
	c->groups++;
	c->lds_used += d->wgp_mode ? 0 : d->lds_alloc;
	g->wgp[c->wgp].lds_used += d->lds_alloc;
	if (d->waves_per_group > 1) {
		if (d->wgp_mode)
			g->wgp[c->wgp].barriers_used++;
		else
			c->barriers_used++;
	}
	g->se_waves[c->se] += d->waves_per_group;

	for (uint32_t wi = 0; wi < d->waves_per_group; wi++) {
		uint32_t simd = first_simd + simd_of_wave[wi];
		xs_gpu_simd *sm = &g->simd[simd];
		uint32_t slot = 0;
		while (sm->wave[slot] != NULL)
			slot++;
		xs_gpu_wave *gw = &g->waves[simd * di->wave_slots_per_simd + slot];
		sm->wave[slot] = gw;
		sm->nwaves++;
		sm->vgprs_used += d->vgprs_w32;
		if (sm->clock < g->now)
			sm->clock = g->now; /* an idle SIMD starts the new wave now */
		gw->simd = simd;
		gw->slot = slot;
		gw->group = grp;
		grp->waves[wi] = gw;
		gw->scratch_slot = UINT32_MAX;
		if (d->scratch_en) {
			gw->scratch_slot = scratch_slot_take(g);
			g->scratch_in_use++;
			g->cu[simd / di->simds_per_cu].scratch_waves++;
		}
		init_wave(g, d, grp, gw, wi);
		g->resident++;
	}
	g->result->waves_launched += d->waves_per_group;
	g->result->groups_launched++;
	g->result->peak_waves = XS_MAX(g->result->peak_waves, g->resident);
	g->result->peak_scratch_slots = XS_MAX(g->result->peak_scratch_slots, g->scratch_in_use);
}

static void retire_wave(xs_gpu *g, xs_spi_dispatch *d, xs_gpu_wave *gw)
{
	const xs_devinfo *di = g->info;
	xs_gpu_simd *sm = &g->simd[gw->simd];
	sm->wave[gw->slot] = NULL;
	sm->nwaves--;
	sm->vgprs_used -= d->vgprs_w32;
	if (gw->scratch_slot != UINT32_MAX) {
		scratch_slot_give(g, gw->scratch_slot);
		g->scratch_in_use--;
		g->cu[gw->simd / di->simds_per_cu].scratch_waves--;
	}
	g->resident--;
	xs_gpu_group *grp = gw->group;
	xs_gpu_cu *c = &g->cu[grp->cu];
	g->se_waves[c->se]--;
	if (--grp->live == 0) {
		c->groups--;
		c->lds_used -= d->wgp_mode ? 0 : d->lds_alloc;
		g->wgp[c->wgp].lds_used -= d->lds_alloc;
		if (d->waves_per_group > 1) {
			if (d->wgp_mode)
				g->wgp[c->wgp].barriers_used--;
			else
				c->barriers_used--;
		}
		g->free_groups[g->nfree_groups++] = (uint32_t)(grp - g->groups);
	} else if (grp->at_barrier == grp->live) {
		/* Ended waves no longer count toward the barrier. */
		xs_gpu_release_barrier(g, grp);
	}
}

void xs_gpu_release_barrier(xs_gpu *g, xs_gpu_group *grp)
{
	(void)g;
	grp->at_barrier = 0;
	for (uint32_t i = 0; i < grp->nwaves; i++)
		if (grp->waves[i]->w.status == XS_WAVE_BARRIER)
			grp->waves[i]->w.status = XS_WAVE_READY;
}

/* ---- dispatch ------------------------------------------------------------ */

static xs_status read_dispatch_state(xs_gpu *g, const uint32_t *sh, uint32_t initiator,
				     xs_spi_dispatch *d, xs_err *e)
{
	const xs_devinfo *di = g->info;
#define SH(r) sh[((r) - XS_SH_REG_OFFSET) / 4]
	memset(d, 0, sizeof(*d));
	d->sh = sh;
	if (!G_00B800_COMPUTE_SHADER_EN(initiator))
		return xs_err_set(e, XS_E_INVALID_ARG,
				  "COMPUTE_DISPATCH_INITIATOR.COMPUTE_SHADER_EN is 0: nothing to dispatch");
	d->wave_size = G_00B800_CS_W32_EN(initiator) ? 32 : 64;
	d->pgm_va = ((uint64_t)SH(R_00B830_COMPUTE_PGM_LO) << 8) |
		    ((uint64_t)G_00B834_DATA(SH(R_00B834_COMPUTE_PGM_HI)) << 40);
	d->rsrc1 = SH(R_00B848_COMPUTE_PGM_RSRC1);
	d->rsrc2 = SH(R_00B84C_COMPUTE_PGM_RSRC2);
	d->rsrc3 = SH(R_00B8A0_COMPUTE_PGM_RSRC3);
	d->wgp_mode = G_00B848_WGP_MODE(d->rsrc1);
	d->user_sgprs = G_00B84C_USER_SGPR(d->rsrc2);
	if (d->user_sgprs > XS_COMPUTE_USER_DATA_COUNT)
		return xs_err_set(e, XS_E_INVALID_ARG,
				  "COMPUTE_PGM_RSRC2.USER_SGPR = %u: compute has %u user-data registers",
				  d->user_sgprs, XS_COMPUTE_USER_DATA_COUNT);
	for (int i = 0; i < 3; i++) {
		uint32_t nt = SH(R_00B81C_COMPUTE_NUM_THREAD_X + 4 * i);
		d->block[i] = G_00B81C_NUM_THREAD_FULL(nt);
		if (d->block[i] == 0)
			return xs_err_set(e, XS_E_INVALID_ARG,
					  "COMPUTE_NUM_THREAD_%c.NUM_THREAD_FULL is 0", "XYZ"[i]);
	}
	d->group_threads = d->block[0] * d->block[1] * d->block[2];
	d->waves_per_group = XS_DIV_ROUND_UP(d->group_threads, d->wave_size);
	if (d->waves_per_group > di->max_waves_per_group)
		return xs_err_set(e, XS_E_INVALID_ARG,
				  "a thread group of %u threads is %u wave%u waves: at most %u (SPEC S3.5)",
				  d->group_threads, d->waves_per_group, d->wave_size, di->max_waves_per_group);
	uint32_t vgprs = xs_gpu_vgprs_from_rsrc1(di, d->wave_size, d->rsrc1);
	if (d->wave_size == 64)
		vgprs += G_00B8A0_SHARED_VGPR_CNT(d->rsrc3) * 8;
	if (vgprs > di->max_vgprs_per_wave)
		return xs_err_set(e, XS_E_INVALID_ARG,
				  "COMPUTE_PGM_RSRC1.VGPRS gives %u VGPRs: at most %u per wave", vgprs,
				  di->max_vgprs_per_wave);
	d->vgprs = vgprs;
	/* SIMD register file accounting in wave32 VGPRs (a wave64 VGPR is two). */
	d->vgprs_w32 = xs_gpu_vgpr_alloc(di, d->wave_size, vgprs) * (d->wave_size / 32);
	uint32_t lds_units = G_00B84C_LDS_SIZE(d->rsrc2);
	if (lds_units * di->lds_encode_granule > di->lds_max_per_group)
		return xs_err_set(e, XS_E_INVALID_ARG,
				  "COMPUTE_PGM_RSRC2.LDS_SIZE = %u (x 512 B): at most %u KiB per group (SPEC S3.3)",
				  lds_units, di->lds_max_per_group / 1024);
	d->lds_alloc = xs_gpu_lds_alloc(di, lds_units * di->lds_encode_granule);

	uint32_t limits = SH(R_00B854_COMPUTE_RESOURCE_LIMITS);
	d->tg_per_cu = G_00B854_TG_PER_CU(limits);
	d->waves_per_se = G_00B854_WAVES_PER_SH(limits); /* per SE despite the name (PAL) */
	if (d->waves_per_se && d->waves_per_se < d->waves_per_group)
		return xs_err_set(e, XS_E_INVALID_ARG,
				  "COMPUTE_RESOURCE_LIMITS.WAVES_PER_SH = %u is below one group's %u waves: "
				  "the dispatch can never launch", d->waves_per_se, d->waves_per_group);

	d->scratch_en = G_00B84C_SCRATCH_EN(d->rsrc2);
	uint32_t tmpring = SH(R_00B860_COMPUTE_TMPRING_SIZE);
	d->scratch_wavesize = G_00B860_WAVESIZE(tmpring) * di->scratch_wavesize_granule;
	/* SPEC S1.13: the ring cannot give a CU more than 32 scratch waves. */
	d->scratch_slots = XS_MIN(G_00B860_WAVES(tmpring), di->max_scratch_waves_per_cu * di->num_cu);
	if (d->scratch_en) {
		if (d->scratch_slots < d->waves_per_group)
			return xs_err_set(e, XS_E_INVALID_ARG,
					  "COMPUTE_TMPRING_SIZE.WAVES = %u scratch slots, but one thread group "
					  "has %u waves with SCRATCH_EN: the dispatch can never launch",
					  G_00B860_WAVES(tmpring), d->waves_per_group);
		if (d->scratch_wavesize == 0)
			return xs_err_set(e, XS_E_INVALID_ARG,
					  "COMPUTE_TMPRING_SIZE.WAVESIZE = 0 with SCRATCH_EN set");
	}
	bool any_cu = false;
	for (uint32_t c = 0; c < di->num_cu; c++)
		any_cu |= cu_enabled(g, sh, c);
	if (!any_cu)
		return xs_err_set(e, XS_E_INVALID_ARG,
				  "COMPUTE_STATIC_THREAD_MGMT_SE0..%u enable no CU: the dispatch can never launch",
				  di->num_se - 1);
#undef SH
	return XS_OK;
}

static xs_gpu_wave *pick_wave(xs_gpu *g, xs_gpu_simd **out_simd)
{
	xs_gpu_simd *best = NULL;
	for (uint32_t s = 0; s < g->nsimd; s++) {
		xs_gpu_simd *sm = &g->simd[s];
		if (!sm->nwaves || (best && sm->clock >= best->clock))
			continue;
		for (uint32_t k = 0; k < g->info->wave_slots_per_simd; k++)
			if (sm->wave[k] && sm->wave[k]->w.status == XS_WAVE_READY) {
				best = sm;
				break;
			}
	}
	if (!best)
		return NULL;
	*out_simd = best;
	/* Round-robin among the SIMD's ready waves. */
	uint32_t n = g->info->wave_slots_per_simd;
	for (uint32_t i = 1; i <= n; i++) {
		uint32_t k = (best->rr + i) % n;
		xs_gpu_wave *gw = best->wave[k];
		if (gw && gw->w.status == XS_WAVE_READY) {
			best->rr = k;
			return gw;
		}
	}
	return NULL;
}

static void fault_report(xs_gpu *g, xs_gpu_wave *gw, xs_err *e)
{
	static const char *const kind[] = {
		[XS_FAULT_NONE] = "fault", [XS_FAULT_VM] = "VM fault", [XS_FAULT_ILLEGAL] = "illegal instruction",
		[XS_FAULT_UNIMPLEMENTED] = "unimplemented instruction", [XS_FAULT_LDS] = "LDS fault",
		[XS_FAULT_WATCHDOG] = "watchdog: wave ran past its instruction budget (hang?)",
	};
	const xs_fault *f = &g->ctx.fault;
	const xs_gpu_cu *c = &g->cu[gw->simd / g->info->simds_per_cu];
	char addr[48] = "";
	if (f->kind == XS_FAULT_VM || f->kind == XS_FAULT_LDS)
		snprintf(addr, sizeof(addr), " at address 0x%llx", (unsigned long long)f->addr);
	xs_err_set(e, XS_E_DEVICE_REMOVED,
		   "device removed: %s%s, PC 0x%llx (%s); wave %u of group (%u,%u,%u) on SE%u SA%u CU%u "
		   "SIMD%u slot %u, after %llu instructions",
		   kind[f->kind <= XS_FAULT_WATCHDOG ? f->kind : 0], addr, (unsigned long long)f->pc,
		   f->what[0] ? f->what : "?", gw->w.wave_in_group, gw->group->id[0], gw->group->id[1],
		   gw->group->id[2], c->se, c->sa % g->info->num_sa_per_se, c->cu_in_sa,
		   gw->simd % g->info->simds_per_cu, gw->slot, (unsigned long long)gw->w.insts);
}

xs_status xs_gpu_dispatch_direct(xs_gpu *g, unsigned queue, uint32_t dim_x, uint32_t dim_y,
				 uint32_t dim_z, uint32_t initiator, xs_gpu_dispatch_result *r,
				 xs_err *e)
{
	memset(r, 0, sizeof(*r));
	if (queue >= XS_GPU_MAX_QUEUES)
		return xs_err_set(e, XS_E_INVALID_ARG, "no hardware queue %u", queue);
	xs_spi_dispatch d;
	xs_status st = read_dispatch_state(g, g->queue[queue].sh, initiator, &d, e);
	if (st)
		return st;
	r->scratch_slots = d.scratch_slots;
	uint64_t total = (uint64_t)dim_x * dim_y * dim_z;
	if (total == 0)
		return XS_OK;
	xs_gpu_reset_state(g, &d);
	g->result = r;

	const xs_devinfo *di = g->info;
	uint64_t next = 0;          /* next group, x fastest */
	uint32_t next_cu = 0;       /* round-robin start for placement */
	uint8_t simd_of_wave[64];
	xs_status status = XS_OK;

	for (;;) {
		/* Launch groups in order while they fit. */
		while (next < total) {
			uint32_t id[3] = { (uint32_t)(next % dim_x), (uint32_t)((next / dim_x) % dim_y),
					   (uint32_t)(next / ((uint64_t)dim_x * dim_y)) };
			bool placed = false;
			for (uint32_t k = 0; k < di->num_cu && !placed; k++) {
				uint32_t cu = (next_cu + k) % di->num_cu;
				uint32_t first_simd;
				if (!cu_enabled(g, d.sh, cu))
					continue;
				if (try_place(g, &d, cu, simd_of_wave, &first_simd) == FIT_OK) {
					launch_group(g, &d, cu, first_simd, simd_of_wave, id);
					next_cu = cu + 1;
					placed = true;
				}
			}
			if (!placed)
				break;
			next++;
		}

		xs_gpu_simd *sm;
		xs_gpu_wave *gw = pick_wave(g, &sm);
		if (!gw) {
			if (g->resident == 0 && next >= total)
				break;
			/* Resident waves exist but none can run: cannot happen with whole-
			 * group launch; report it rather than spin. */
			return xs_err_set(e, XS_E_DEVICE_REMOVED,
					  "device removed: no wave can make progress (%u resident, group %llu of %llu "
					  "waiting to launch)", g->resident, (unsigned long long)next,
					  (unsigned long long)total);
		}
		g->now = sm->clock;
		uint64_t before = gw->w.insts;
		uint64_t budget = g->watchdog > before ? g->watchdog - before : 0;
		xs_wave_status ws = XS_WAVE_FAULT;
		if (budget == 0) {
			g->ctx.fault = (xs_fault){ .kind = XS_FAULT_WATCHDOG, .pc = gw->w.pc };
			snprintf(g->ctx.fault.what, sizeof(g->ctx.fault.what), "budget %llu",
				 (unsigned long long)g->watchdog);
		} else {
			ws = xs_isa_run(&g->ctx, &gw->w, XS_MIN(budget, (uint64_t)XS_SPI_QUANTUM));
		}
		uint64_t ran = gw->w.insts - before;
		r->wave_insts += ran;
		sm->clock += ran * (d.wave_size / 32);
		g->now = sm->clock;
		r->cycles = XS_MAX(r->cycles, sm->clock);

		if (ws == XS_WAVE_FAULT) {
			r->fault = g->ctx.fault;
			fault_report(g, gw, e);
			status = XS_E_DEVICE_REMOVED;
			break;
		} else if (ws == XS_WAVE_ENDED) {
			retire_wave(g, &d, gw);
		} else if (ws == XS_WAVE_BARRIER) {
			xs_gpu_group *grp = gw->group;
			if (++grp->at_barrier == grp->live)
				xs_gpu_release_barrier(g, grp);
		}
	}
	g->result = NULL;
	return status;
}
