/*
 * SPI: thread-group placement, wave launch and retirement, for every
 * dispatch in flight on any queue.
 *
 * Groups of one dispatch launch in order (the dispatcher does not reorder);
 * a group that does not fit blocks the ones behind it, and the cause is
 * counted (xs_gpu_wait_cause). Dispatches of different queues take turns.
 * A group launches whole — each wave gets a SIMD slot, VGPRs and, with
 * SCRATCH_EN, a slot of its queue's scratch ring; the group gets its LDS and
 * a barrier — so a barrier never waits for a wave that cannot launch, and a
 * group needing more scratch slots than the ring has is rejected up front.
 */
#include "gpu/xs_gpu_priv.h"
#include "hw/xs_hw_isa.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- register state -> launch state ------------------------------------ */

static const uint32_t cu_mask_regs[XS_MAX_SE] = {
	R_00B858_COMPUTE_STATIC_THREAD_MGMT_SE0, R_00B85C_COMPUTE_STATIC_THREAD_MGMT_SE1,
	R_00B864_COMPUTE_STATIC_THREAD_MGMT_SE2, R_00B868_COMPUTE_STATIC_THREAD_MGMT_SE3,
};

xs_status xs_gpu_spi_decode(xs_gpu *g, const uint32_t *sh, uint32_t initiator, xs_spi_dispatch *d,
			    xs_err *e)
{
	const xs_devinfo *di = g->info;
#define SH(r) sh[((r) - XS_SH_REG_OFFSET) / 4]
	memset(d, 0, sizeof(*d));
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
	for (uint32_t i = 0; i < XS_COMPUTE_USER_DATA_COUNT; i++)
		d->user_data[i] = SH(R_00B900_COMPUTE_USER_DATA_0 + 4 * i);
	for (int i = 0; i < 3; i++) {
		uint32_t nt = SH(R_00B81C_COMPUTE_NUM_THREAD_X + 4 * i);
		d->block[i] = G_00B81C_NUM_THREAD_FULL(nt);
		if (d->block[i] == 0)
			return xs_err_set(e, XS_E_INVALID_ARG,
					  "COMPUTE_NUM_THREAD_%c.NUM_THREAD_FULL is 0", "XYZ"[i]);
	}
	/* In 64 bits: each NUM_THREAD_FULL is 16 bits, so the product reaches
	 * 2^48, and 32768 x 32768 x 4 wrapped to a group of 0 threads, 0 waves,
	 * which every CU took (no slot needed) and none ever retired. */
	const uint64_t threads = (uint64_t)d->block[0] * d->block[1] * d->block[2];
	const uint64_t waves = XS_DIV_ROUND_UP(threads, d->wave_size);
	if (waves > di->max_waves_per_group)
		return xs_err_set(e, XS_E_INVALID_ARG,
				  "a thread group of %u x %u x %u = %llu threads is %llu wave%u waves: at most %u "
				  "(SPEC S3.5)",
				  d->block[0], d->block[1], d->block[2], (unsigned long long)threads,
				  (unsigned long long)waves, d->wave_size, di->max_waves_per_group);
	d->group_threads = (uint32_t)threads;
	d->waves_per_group = (uint32_t)waves;
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
	d->tmpring = SH(R_00B860_COMPUTE_TMPRING_SIZE);
	d->scratch_wavesize = G_00B860_WAVESIZE(d->tmpring) * di->scratch_wavesize_granule;
	/* SPEC S1.13: the ring cannot give a CU more than 32 scratch waves. */
	d->scratch_slots = XS_MIN(G_00B860_WAVES(d->tmpring), di->max_scratch_waves_per_cu * di->num_cu);
	if (d->scratch_en) {
		if (d->scratch_slots < d->waves_per_group)
			return xs_err_set(e, XS_E_INVALID_ARG,
					  "COMPUTE_TMPRING_SIZE.WAVES = %u scratch slots, but one thread group "
					  "has %u waves with SCRATCH_EN: the dispatch can never launch",
					  G_00B860_WAVES(d->tmpring), d->waves_per_group);
		if (d->scratch_wavesize == 0)
			return xs_err_set(e, XS_E_INVALID_ARG,
					  "COMPUTE_TMPRING_SIZE.WAVESIZE = 0 with SCRATCH_EN set");
	}
	/* CU masks: each CU's SA0_CU_EN / SA1_CU_EN bit of its SE's register;
	 * in WGP mode a WGP takes groups only when both its CUs are enabled. */
	for (uint32_t c = 0; c < di->num_cu; c++) {
		const xs_gpu_cu *cu = &g->cu[c];
		if (SH(cu_mask_regs[cu->se]) & xs_gpu_cu_en_bit(g, cu))
			d->cu_enabled |= 1ull << c;
	}
	if (d->wgp_mode)
		for (uint32_t w = 0; w < g->nwgp; w++) {
			uint32_t c0 = g->wgp[w].first_cu;
			if (!((d->cu_enabled >> c0) & 1) || !((d->cu_enabled >> (c0 + 1)) & 1))
				d->cu_enabled &= ~(3ull << c0);
		}
	if (!d->cu_enabled)
		return xs_err_set(e, XS_E_INVALID_ARG,
				  "COMPUTE_STATIC_THREAD_MGMT_SE0..%u enable no %s: the dispatch can never launch",
				  di->num_se - 1, d->wgp_mode ? "whole WGP (WGP mode needs both CUs)" : "CU");
#undef SH
	return XS_OK;
}

/* ---- rings ---------------------------------------------------------------- */

/* The ring of one pipe's tmpring register value: the compute pipe's
 * COMPUTE_TMPRING_SIZE and queue 0's graphics SPI_TMPRING_SIZE are separate
 * slot pools even when the values match (gfx); the memory behind them is
 * whatever V# the waves get (S1.8 sharing is the base address's business). */
xs_gpu_ring *xs_gpu_ring_get(xs_gpu *g, unsigned queue, bool gfx, uint32_t tmpring, uint32_t slots,
			     uint32_t wavesize)
{
	xs_gpu_ring *free_ring = NULL;
	for (int i = 0; i < XS_GPU_MAX_RINGS; i++) {
		xs_gpu_ring *r = &g->rings[i];
		if (r->used && r->queue == queue && r->gfx == gfx && r->tmpring == tmpring) {
			r->refs++;
			return r;
		}
		if (!r->used && !free_ring)
			free_ring = r;
	}
	if (!free_ring)
		return NULL;
	uint64_t *bm = free_ring->bitmap;
	memset(free_ring, 0, sizeof(*free_ring));
	free_ring->bitmap = bm;
	memset(bm, 0, g->scratch_bitmap_words * sizeof(uint64_t));
	free_ring->used = true;
	free_ring->queue = queue;
	free_ring->gfx = gfx;
	free_ring->tmpring = tmpring;
	free_ring->slots = slots;
	free_ring->wavesize = wavesize;
	free_ring->refs = 1;
	return free_ring;
}

static xs_gpu_ring *ring_get(xs_gpu *g, unsigned queue, const xs_spi_dispatch *d)
{
	return xs_gpu_ring_get(g, queue, false, d->tmpring, d->scratch_slots, d->scratch_wavesize);
}

void xs_gpu_release_ring(xs_gpu *g, xs_gpu_ring *r)
{
	(void)g;
	if (r && --r->refs == 0)
		r->used = false;
}

uint32_t xs_gpu_ring_slot_take(xs_gpu *g, xs_gpu_ring *r)
{
	/* Lowest free slot: deterministic, and keeps the used part of the ring dense. */
	for (uint32_t i = 0; i < g->scratch_bitmap_words; i++) {
		uint64_t free_bits = ~r->bitmap[i];
		if (free_bits) {
			uint32_t b = (uint32_t)__builtin_ctzll(free_bits);
			r->bitmap[i] |= 1ull << b;
			r->in_use++;
			r->peak = XS_MAX(r->peak, r->in_use);
			g->scratch_in_use++;
			return i * 64 + b;
		}
	}
	return UINT32_MAX; /* cannot happen: placement checked the count */
}

void xs_gpu_ring_slot_give(xs_gpu *g, xs_gpu_ring *r, uint32_t slot)
{
	r->bitmap[slot / 64] &= ~(1ull << (slot % 64));
	r->in_use--;
	g->scratch_in_use--;
}

/* ---- begin --------------------------------------------------------------- */

xs_status xs_gpu_dispatch_begin(xs_gpu *g, unsigned queue, uint32_t dim_x, uint32_t dim_y,
				uint32_t dim_z, uint32_t initiator, xs_gpu_dispatch_result *r, xs_err *e)
{
	*r = (xs_gpu_dispatch_result){ .limit_waves = r->limit_waves, .limit_cycles = r->limit_cycles };
	r->start_cycle = r->end_cycle = g->now;
	if (queue >= XS_GPU_MAX_QUEUES)
		return xs_err_set(e, XS_E_INVALID_ARG, "no hardware queue %u", queue);
	xs_gpu_disp *disp = NULL;
	for (int i = 0; i < XS_GPU_MAX_ACTIVE && !disp; i++)
		if (!xs_gpu_disp_live(g, i))
			disp = &g->disp[i];
	if (!disp)
		return xs_err_set(e, XS_E_UNSUPPORTED, "more than %d dispatches in flight", XS_GPU_MAX_ACTIVE);
	xs_spi_dispatch d;
	xs_status st = xs_gpu_spi_decode(g, g->queue[queue].sh, initiator, &d, e);
	if (st)
		return st;
	r->scratch_slots = d.scratch_en ? d.scratch_slots : 0;
	uint64_t total = (uint64_t)dim_x * dim_y * dim_z;
	if (total == 0)
		return XS_OK;
	xs_gpu_ring *ring = NULL;
	if (d.scratch_en && !(ring = ring_get(g, queue, &d)))
		return xs_err_set(e, XS_E_UNSUPPORTED, "more than %d scratch rings in use", XS_GPU_MAX_RINGS);
	memset(disp, 0, sizeof(*disp));
	g->disp_mask |= 1u << (disp - g->disp);
	disp->id = g->next_disp_id++;
	disp->queue = queue;
	disp->d = d;
	disp->dim[0] = dim_x;
	disp->dim[1] = dim_y;
	disp->dim[2] = dim_z;
	disp->total = total;
	disp->ring = ring;
	disp->r = r;
	disp->last_change = g->now;
	disp->progress_cycle = g->now;
	disp->host_stamp = xs_now_seconds();
	disp->blocked = -1;
	disp->cu_unknown = ~0ull;
	for (uint32_t cu = 0; cu < g->info->num_cu; cu++) {
		uint32_t c = d.wgp_mode ? g->wgp[g->cu[cu].wgp].first_cu : cu;
		if ((d.cu_enabled >> c) & 1)
			disp->cu_cand |= 1ull << c;
	}
	return XS_OK;
}

/* ---- placement ------------------------------------------------------------ */

static void note_resident(xs_gpu *g, xs_gpu_disp *disp, uint32_t cu, int delta)
{
	disp->area += (uint64_t)disp->resident * (g->now - disp->last_change);
	disp->last_change = g->now;
	disp->resident = (uint32_t)((int)disp->resident + delta);
	xs_gpu_dispatch_result *r = disp->r;
	r->peak_waves = XS_MAX(r->peak_waves, disp->resident);
	if (delta > 0 && disp->cu_resident[cu] == 0)
		disp->cu_since[cu] = g->now;
	disp->cu_resident[cu] = (uint32_t)((int)disp->cu_resident[cu] + delta);
	if (delta < 0 && disp->cu_resident[cu] == 0 && cu < XS_GPU_MAX_CU)
		r->cu_busy[cu] += g->now - disp->cu_since[cu];
}

/* Can `need` waves go on the pool's SIMDs, and where (round-robin). */
static bool pool_place_waves(xs_gpu *g, const xs_spi_dispatch *d, uint32_t first_simd,
			     uint32_t nsimd, uint32_t need, uint8_t *simd_of_wave)
{
	uint32_t free_slots[4], free_vgprs[4];
	for (uint32_t s = 0; s < nsimd; s++) {
		const xs_gpu_simd *sm = &g->simd[first_simd + s];
		free_slots[s] = g->info->wave_slots_per_simd - sm->nwaves;
		free_vgprs[s] = g->info->vgprs_per_simd_w32 - sm->vgprs_used;
	}
	uint32_t s = 0;
	for (uint32_t w = 0; w < need; w++) {
		uint32_t tries = 0;
		/* (s + 1) % nsimd, without a division by the pool's size */
		while (tries < nsimd && (free_slots[s] == 0 || free_vgprs[s] < d->vgprs_w32))
			s = s + 1 == nsimd ? 0 : s + 1, tries++;
		if (tries == nsimd)
			return false;
		free_slots[s]--;
		free_vgprs[s] -= d->vgprs_w32;
		simd_of_wave[w] = (uint8_t)s;
		s = s + 1 == nsimd ? 0 : s + 1;
	}
	return true;
}

/* Wave slots free on the pool of nsimd SIMDs from first_simd. */
static uint32_t pool_free_slots(const xs_gpu *g, uint32_t first_simd, uint32_t nsimd)
{
	uint32_t free_slots = 0;
	for (uint32_t s = 0; s < nsimd; s++)
		free_slots += g->info->wave_slots_per_simd - g->simd[first_simd + s].nwaves;
	return free_slots;
}

static int try_place(xs_gpu *g, const xs_gpu_disp *disp, uint32_t cu, uint8_t *simd_of_wave,
		     uint32_t *first_simd)
{
	const xs_devinfo *di = g->info;
	const xs_spi_dispatch *d = &disp->d;
	const xs_gpu_cu *c = &g->cu[cu];
	uint32_t wgp = c->wgp;
	uint32_t nsimd = xs_gpu_simds_per_pool(di, d->wgp_mode);
	*first_simd = cu * di->simds_per_cu;

	if (d->tg_per_cu && c->groups >= d->tg_per_cu)
		return XS_GPU_WAIT_LIMIT;
	/* S4.5: a CU a graphics stage locked takes no wave of another pipe. */
	if ((g->cu_locked >> cu) & 1)
		return XS_GPU_WAIT_LIMIT;
	if (d->waves_per_se && g->se_waves[c->se] + d->waves_per_group > d->waves_per_se)
		return XS_GPU_WAIT_LIMIT;
	/* LDS: CU mode takes from the CU's half of the WGP's LDS, WGP mode from
	 * the whole 128 KiB (SPEC S3.6). */
	if (d->lds_alloc) {
		uint32_t half = di->lds_per_wgp / di->cus_per_wgp;
		if (g->wgp[wgp].lds_used + d->lds_alloc > di->lds_per_wgp ||
		    (!d->wgp_mode && c->lds_used + d->lds_alloc > half))
			return XS_GPU_WAIT_LDS;
	}
	if (d->waves_per_group > 1) {
		uint32_t used = d->wgp_mode ? g->wgp[wgp].barriers_used : c->barriers_used;
		if (used >= di->barriers_per_cu * (d->wgp_mode ? di->cus_per_wgp : 1))
			return XS_GPU_WAIT_BARRIER;
	}
	if (d->scratch_en) {
		if (disp->ring->in_use + d->waves_per_group > disp->ring->slots)
			return XS_GPU_WAIT_SCRATCH;
		uint32_t cus = d->wgp_mode ? di->cus_per_wgp : 1;
		uint32_t cu_scratch = 0;
		for (uint32_t k = 0; k < cus; k++)
			cu_scratch += g->cu[cu + k].scratch_waves;
		if (cu_scratch + d->waves_per_group > di->max_scratch_waves_per_cu * cus)
			return XS_GPU_WAIT_SCRATCH;
	}
	/* Fewer free slots than waves: the placement below would fail, and
	 * this is its cause (a CU full of a streaming kernel's waves, tried
	 * again at every retire). */
	if (pool_free_slots(g, *first_simd, nsimd) < d->waves_per_group)
		return XS_GPU_WAIT_WAVE_SLOT;
	if (!pool_place_waves(g, d, *first_simd, nsimd, d->waves_per_group, simd_of_wave))
		return XS_GPU_WAIT_VGPR;
	return -1;
}

/* ---- wave set-up (AMDGPUUsage "Initial Kernel Execution State") -------- */

/* The registers of a wave of a compute dispatch: SGPRs (user data, then
 * the system values RSRC2 enables), the work-item ids in v0/v1/v2, EXEC. */
static void init_regs(const xs_spi_dispatch *d, const xs_gpu_group *grp, const xs_gpu_wave *gw, xs_wave *w)
{
	uint32_t rsrc2 = d->rsrc2;
	uint32_t lanes = d->wave_size, wave_in_group = w->wave_in_group;

	memset(w->s, 0, sizeof(w->s));
	uint32_t n = 0;
	for (; n < d->user_sgprs; n++)
		w->s[n] = d->user_data[n];
	if (G_00B84C_TGID_X_EN(rsrc2))
		w->s[n++] = grp->id[0];
	if (G_00B84C_TGID_Y_EN(rsrc2))
		w->s[n++] = grp->id[1];
	if (G_00B84C_TGID_Z_EN(rsrc2))
		w->s[n++] = grp->id[2];
	if (G_00B84C_TG_SIZE_EN(rsrc2)) /* work-group info; ORDERED_APPEND_TERM 0 */
		w->s[n++] = S_TG_SIZE_FIRST_WAVE(wave_in_group == 0) | S_TG_SIZE_WAVES_IN_GROUP(d->waves_per_group);
	if (d->scratch_en) /* Private Segment Wavefront Offset: the slot's byte offset */
		w->s[n++] = gw->scratch_slot * d->scratch_wavesize;

	/* Work-item ids in v0/v1/v2 (unpacked on gfx10.3), EXEC = live lanes. */
	uint32_t cnt = G_00B84C_TIDIG_COMP_CNT(rsrc2);
	uint32_t bx = d->block[0], by = d->block[1];
	uint64_t exec = 0;
	/* VGPRs start at zero (defined runs); a wave never reads lanes past its
	 * size, so a wave32 clears only the half of each row it uses. */
	if (lanes == 32) /* constant sizes: stores in line, not a call per row */
		for (uint32_t r = 0; r < w->nvgpr; r++)
			memset(w->v[r], 0, 32 * sizeof(w->v[0][0]));
	else
		for (uint32_t r = 0; r < w->nvgpr; r++)
			memset(w->v[r], 0, 64 * sizeof(w->v[0][0]));
	uint32_t t = wave_in_group * lanes;
	uint32_t x = t % bx, y = (t / bx) % by, z = t / (bx * by); /* then stepped: no division per lane */
	if (cnt == 0 && t + lanes <= d->group_threads && x + lanes <= bx) {
		/* the common 1D wave, whole and inside one row of the block: v0 =
		 * x .. x + lanes - 1 (what the loop below writes, as a loop that
		 * vectorises) */
		for (uint32_t l = 0; l < lanes; l++)
			w->v[0][l] = x + l;
		exec = lanes == 64 ? ~0ull : 0xffffffffull;
	} else {
		for (uint32_t l = 0; l < lanes && t < d->group_threads; l++, t++) {
			exec |= 1ull << l;
			w->v[0][l] = x;
			if (cnt >= 1 && w->nvgpr > 1)
				w->v[1][l] = y;
			if (cnt >= 2 && w->nvgpr > 2)
				w->v[2][l] = z;
			if (++x == bx) {
				x = 0;
				if (++y == by) {
					y = 0;
					z++;
				}
			}
		}
	}
	w->s[XS_SREG_EXEC_LO] = (uint32_t)exec;
	w->s[XS_SREG_EXEC_HI] = (uint32_t)(exec >> 32);
}

void xs_gpu_spi_wave_regs(xs_gpu_wave *gw, xs_wave *w)
{
	gw->regs_pending = false;
	init_regs(&gw->group->disp->d, gw->group, gw, w);
}

/* A wave's registers are written when it first runs (xs_gpu_spi_wave_regs:
 * the functional loop, or the timing model's first run ahead): a streaming
 * kernel keeps 1,664 waves resident, and registers written at launch had
 * left the host's caches by the time the wave ran, 1,664 waves' memory
 * traffic later. Nothing reads them before (the pick reads the status,
 * reports the PC; the timing queue reads the records). */
static void init_wave(xs_gpu *g, const xs_spi_dispatch *d, xs_gpu_group *grp, xs_gpu_wave *gw,
		      uint32_t wave_in_group)
{
	xs_wave *w = &gw->w;
	uint32_t lanes = d->wave_size;

	w->nvgpr = d->vgprs;
	w->wave_in_group = wave_in_group;
	w->pc = d->pgm_va;
	w->scc = 0;
	w->mode = XS_MODE_FROM_RSRC1(d->rsrc1);
	w->trapsts = 0;
	w->flat_scratch = 0;
	w->lanes = lanes;
	w->lds = grp->lds;
	w->lds_size = grp->lds ? d->lds_alloc : 0; /* no host memory for it: every access faults (XS_FAULT_LDS) */
	w->status = XS_WAVE_READY;
	w->insts = 0;
	w->owner = gw;
	w->end_fault = NULL; /* (the slot's last wave may have been a VS) */
	/* HW_ID1: wave slot, and the SIMD's part (SIMD within the WGP, WGP
	 * within the SA, SA, SE: xs_gpu_create). */
	w->hw_id2 = 0;
	w->hw_id = S_00045C_WAVE_ID(gw->slot) | g->simd[gw->simd].hw_id;

	xs_gpu_spi_wave_start(g, gw, lanes);
	gw->regs_pending = true;
}

void xs_gpu_spi_wave_start(xs_gpu *g, xs_gpu_wave *gw, uint32_t lanes)
{
	const xs_gpu_cu *c = &g->cu[g->simd[gw->simd].cu];
	/* Timing: an SE's SPI starts one wave per se_launch_interval; the wave's
	 * resources are held from placement on. */
	gw->ready = g->now;
	gw->disp_slot = (uint8_t)(gw->group->disp - g->disp);
	gw->group->disp->r->ctr.waves_per_se[c->se]++;
	if (g->timing) {
		uint64_t start = XS_MAX(g->now, g->se_launch_free[c->se]);
		g->se_launch_free[c->se] = start + g->info->se_launch_interval;
		gw->ready = start + g->info->wave_launch;
	}
	gw->launched = g->now;
	gw->seq = g->seq++;
	/* for the functional pick (run_functional), which caches only GPUs
	 * whose SIMDs and slots fit these masks */
	const uint32_t word = 8 * sizeof(g->simd_started[0]);
	if (gw->simd / word < XS_ARRAY_SIZE(g->simd_started) && gw->slot < 8 * sizeof(g->slots_started[0])) {
		g->simd_started[gw->simd / word] |= 1ull << (gw->simd % word);
		g->slots_started[gw->simd] |= 1u << gw->slot;
	}
	memset(gw->cnt, 0, sizeof(gw->cnt));
	gw->valu_dst_lo = gw->valu_dst_hi = 0;
	gw->valu_done = 0;
	gw->ending = false;
	gw->regs_pending = false; /* a draw's wave has its registers (init_wave defers a dispatch's) */
	gw->ra_head = gw->ra_n = 0;
	gw->ra_line = 0;
	gw->ra_stop = 0;
	gw->fa_head = gw->fa_n = 0;
	gw->w64 = lanes == 64;
	if (XS_UNLIKELY(g->prof != NULL))
		g->prof->wv[gw - g->waves] = (xs_gpu_prof_wave){ .since = gw->ready };
}

/* The CUs of cu's WGP, as a mask. */
static uint64_t wgp_cus(const xs_gpu *g, uint32_t cu)
{
	return ((1ull << g->info->cus_per_wgp) - 1) << g->wgp[g->cu[cu].wgp].first_cu;
}

/* Dispatch o's failures cached for the CUs of `cus` are known no more. */
static void forget_cus(xs_gpu_disp *o, uint64_t cus)
{
	for (uint64_t m = cus; m; m &= m - 1)
		o->cu_fail[__builtin_ctzll(m)] = 0;
	o->cu_unknown |= cus;
	for (int k = 0; k < XS_GPU_WAIT_COUNT; k++)
		o->fail_mask[k] &= ~cus;
}

/* The resources try_place reads for `cu` changed: the CUs of its WGP (they
 * share LDS, barriers and, in WGP mode, the SIMD pool) must be tried again,
 * and every CU for a dispatch bound by the SE's wave limit or drawing on
 * the same scratch ring. */
void xs_gpu_spi_placement_changed(xs_gpu *g, uint32_t cu, const xs_gpu_ring *ring)
{
	const uint64_t cus = wgp_cus(g, cu);
	for (uint32_t am = g->disp_mask; am; am &= am - 1) {
		xs_gpu_disp *o = &g->disp[__builtin_ctz(am)];
		if (o->d.waves_per_se || (ring && o->ring == ring)) {
			memset(o->cu_fail, 0, sizeof(o->cu_fail));
			memset(o->fail_mask, 0, sizeof(o->fail_mask));
			o->cu_unknown = ~0ull;
		} else {
			forget_cus(o, cus);
		}
	}
}

/* A wave whose group lives on ended (xs_gpu_spi_retire): it gave back its
 * slot, its VGPRs, its scratch slot (ring, when it had one) and its count
 * in the SE, and nothing else. So a failure try_place cached for a CU of
 * its WGP still holds when it came from a check none of these moves: the
 * group limit or a locked CU (without an SE wave limit), LDS, barriers,
 * scratch when no slot came back, and too few free slots in the pool when
 * they are still too few. The others are tried again, as
 * xs_gpu_spi_placement_changed has them. A streaming kernel's WGP is full
 * of its waves: most retires free one slot of the eight a group needs, and
 * the launch scan and try_place after each found the cached cause again
 * (callgrind, x86-64-v3, an empty kernel's 65,536 waves: the marking, the
 * scan and try_place were 28 M of the dispatch's 134 M host instructions,
 * 20 M with this). Debug builds check each kept failure against try_place. */
static void wave_freed(xs_gpu *g, uint32_t cu, const xs_gpu_ring *ring)
{
	const xs_devinfo *di = g->info;
	const uint64_t cus = wgp_cus(g, cu);
	for (uint32_t am = g->disp_mask; am; am &= am - 1) {
		xs_gpu_disp *o = &g->disp[__builtin_ctz(am)];
		if (o->draw || o->d.waves_per_se || (ring && o->ring == ring)) {
			/* every dispatch as before (forgetting more than needed
			 * is always exact) */
			xs_gpu_spi_placement_changed(g, cu, ring);
			return;
		}
		/* the WGP's CUs with a cached failure (cu_fail is 0 exactly
		 * for the ones in cu_unknown) */
		for (uint64_t m = cus & ~o->cu_unknown; m; m &= m - 1) {
			uint32_t c = (uint32_t)__builtin_ctzll(m);
			int r = o->cu_fail[c] - 1;
			bool holds = r == XS_GPU_WAIT_LIMIT || r == XS_GPU_WAIT_LDS || r == XS_GPU_WAIT_BARRIER ||
				     (r == XS_GPU_WAIT_SCRATCH && !ring);
			if (r == XS_GPU_WAIT_WAVE_SLOT) /* (the pool as try_place counts it) */
				holds = pool_free_slots(g, c * di->simds_per_cu, xs_gpu_simds_per_pool(di, o->d.wgp_mode)) <
					o->d.waves_per_group;
#ifndef NDEBUG
			assert(r >= 0);
			if (holds) {
				uint8_t simd_of_wave[XS_GPU_MAX_WAVES_PER_GROUP];
				uint32_t first_simd;
				assert(try_place(g, o, c, simd_of_wave, &first_simd) == r);
			}
#endif
			if (!holds)
				forget_cus(o, 1ull << c);
		}
	}
}

static void launch_group(xs_gpu *g, xs_gpu_disp *disp, uint32_t cu, uint32_t first_simd,
			 const uint8_t *simd_of_wave)
{
	const xs_spi_dispatch *d = &disp->d;
	uint64_t k = disp->next++;
	xs_gpu_group *grp = &g->groups[g->free_groups[--g->nfree_groups]];
	grp->disp = disp;
	grp->id[0] = (uint32_t)(k % disp->dim[0]);
	grp->id[1] = (uint32_t)((k / disp->dim[0]) % disp->dim[1]);
	grp->id[2] = (uint32_t)(k / ((uint64_t)disp->dim[0] * disp->dim[1]));
	grp->cu = cu;
	grp->stage = XS_GPU_TRACE_CS;
	grp->gfx = NULL;
	grp->nwaves = grp->live = d->waves_per_group;
	grp->at_barrier = 0;
	grp->lds_missing = false;
	if (d->lds_alloc) {
		if (grp->lds_cap < d->lds_alloc) {
			free(grp->lds);
			grp->lds = xs_malloc(d->lds_alloc);
			grp->lds_cap = grp->lds ? d->lds_alloc : 0;
		}
		grp->lds_missing = !grp->lds;
		/* LDS contents are undefined at launch; zero them so runs repeat. */
		if (grp->lds)
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
	if (disp->groups_live++ == 0)
		disp->progress_cycle = g->now; /* progress is owed from when it has waves on the GPU */

	for (uint32_t wi = 0; wi < d->waves_per_group; wi++) {
		uint32_t simd = first_simd + simd_of_wave[wi];
		xs_gpu_simd *sm = &g->simd[simd];
		uint32_t slot = 0;
		while (sm->wave[slot] != NULL)
			slot++;
		xs_gpu_wave *gw = xs_gpu_slot_wave(g, simd, slot);
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
		uint32_t wave_cu = sm->cu;
		if (d->scratch_en) {
			gw->scratch_slot = xs_gpu_ring_slot_take(g, disp->ring);
			g->cu[wave_cu].scratch_waves++;
		}
		init_wave(g, d, grp, gw, wi);
		g->resident++;
		note_resident(g, disp, wave_cu, +1);
		if (g->timing)
			xs_gpu_evq_push(g, gw);
		uint32_t per_simd = sm->nwaves;
		disp->r->peak_waves_per_simd = XS_MAX(disp->r->peak_waves_per_simd, per_simd);
	}
	xs_gpu_spi_placement_changed(g, cu, d->scratch_en ? disp->ring : NULL);
	disp->r->waves_launched += d->waves_per_group;
	disp->r->groups_launched++;
	if (g->tracing)
		xs_gpu_trace_record(g);
	if (disp->ring)
		disp->r->peak_scratch_slots = XS_MAX(disp->r->peak_scratch_slots, disp->ring->in_use);
}

static void note_blocked(xs_gpu *g, xs_gpu_disp *disp, int cause)
{
	if (disp->blocked >= 0)
		disp->r->wait_cycles[disp->blocked] +=
			(g->now - disp->blocked_since) * disp->d.waves_per_group;
	disp->blocked = cause;
	disp->blocked_since = g->now;
}

/* A queue's dispatcher takes dispatches in order: a dispatch launches no
 * group while an earlier one on its queue still has groups to launch. */
static bool queue_busy_before(const xs_gpu *g, const xs_gpu_disp *disp)
{
	for (uint32_t am = g->disp_mask; am; am &= am - 1) {
		const xs_gpu_disp *o = &g->disp[__builtin_ctz(am)];
		if (o->queue == disp->queue && o->id < disp->id && o->next < o->total)
			return true;
	}
	return false;
}

/* Launches, in turn across dispatches, every group that fits now. */
void xs_gpu_spi_launch_pending(xs_gpu *g)
{
	const xs_devinfo *di = g->info;
	uint8_t simd_of_wave[XS_GPU_MAX_WAVES_PER_GROUP];
	bool progress = true;
	while (progress) {
		progress = false;
		/* The active dispatches in slot order, as they take turns; the
		 * mask is read afresh at each step. */
		for (uint32_t i = 0, am; (am = g->disp_mask & (~0u << i)) != 0; i++) {
			i = (uint32_t)__builtin_ctz(am);
			xs_gpu_disp *disp = &g->disp[i];
			if (disp->next >= disp->total || queue_busy_before(g, disp))
				continue;
			if (disp->draw) {
				if (g->draw_ops->launch(g, disp))
					progress = true;
				continue;
			}
			/* Every CU failed before and none changed: the same cause holds. */
			if (!(disp->cu_unknown & disp->cu_cand))
				continue;
			/* The scan of the hardware goes round the CUs from next_cu; the
			 * ones whose failure is cached would fail again, so only the
			 * others are tried, in the same order (bits at and above the
			 * start, then the ones below). */
			uint32_t step = disp->d.wgp_mode ? di->cus_per_wgp : 1;
			uint32_t start = disp->next_cu % di->num_cu;
			if (disp->d.wgp_mode)
				start = g->wgp[g->cu[start].wgp].first_cu;
			uint64_t todo = disp->cu_unknown & disp->cu_cand;
			uint64_t part[2] = { todo & (~0ull << start), todo & ~(~0ull << start) };
			bool placed = false;
			for (int p = 0; p < 2 && !placed; p++) {
				for (uint64_t m = part[p]; m && !placed; m &= m - 1) {
					uint32_t cu = (uint32_t)__builtin_ctzll(m), first_simd;
					int r = try_place(g, disp, cu, simd_of_wave, &first_simd);
					if (r < 0) {
						launch_group(g, disp, cu, first_simd, simd_of_wave);
						disp->next_cu = cu + step;
						placed = true;
					} else {
						disp->cu_fail[cu] = (uint8_t)(r + 1);
						disp->cu_unknown &= ~(1ull << cu);
						disp->fail_mask[r] |= 1ull << cu;
					}
				}
			}
			/* Blocked: report the most basic resource that was short on
			 * any CU (every candidate's failure is known now: the lowest
			 * cause whose mask has one). */
			int cause = XS_GPU_WAIT_LIMIT;
			for (int k = 0; !placed && k < XS_GPU_WAIT_LIMIT; k++)
				if (disp->fail_mask[k] & disp->cu_cand) {
					cause = k;
					break;
				}
#ifndef NDEBUG
			/* debug builds check that every cached failure still holds,
			 * and the cause is the lowest of them */
			int lowest = XS_GPU_WAIT_LIMIT;
			for (uint64_t m = placed ? 0 : disp->cu_cand; m; m &= m - 1) {
				uint32_t cu = (uint32_t)__builtin_ctzll(m);
				int r = disp->cu_fail[cu] - 1;
				uint32_t first_simd;
				assert(r >= 0 && try_place(g, disp, cu, simd_of_wave, &first_simd) == r);
				assert((disp->fail_mask[r] >> cu) & 1);
				lowest = XS_MIN(lowest, r);
			}
			assert(placed || cause == lowest);
#endif
			if (placed) {
				progress = true;
				if (disp->blocked >= 0)
					note_blocked(g, disp, -1);
			} else if (disp->blocked != cause) {
				note_blocked(g, disp, cause);
			}
		}
	}
}

/* ---- retire ------------------------------------------------------------------ */

static void barrier_release(xs_gpu *g, xs_gpu_group *grp);

void xs_gpu_disp_finish(xs_gpu *g, xs_gpu_disp *disp)
{
	xs_gpu_dispatch_result *r = disp->r;
	if (disp->draw)
		g->draw_ops->release(g, disp); /* its waves' records, the graphics ring, a CU lock */
	note_resident(g, disp, 0, 0);
	if (disp->blocked >= 0)
		note_blocked(g, disp, -1);
	r->end_cycle = g->now;
	r->cycles = r->end_cycle - r->start_cycle;
	if (r->cycles)
		r->avg_waves_per_simd = (double)disp->area / ((double)r->cycles * g->nsimd);
	if (g->tracing)
		xs_gpu_trace_disp_end(g, disp, disp->groups_live != 0 || disp->next < disp->total);
	if (g->prof)
		xs_gpu_prof_disp_end(g, disp);
	xs_gpu_release_ring(g, disp->ring);
	g->disp_mask &= ~(1u << (disp - g->disp));
	g->completions++;
}

/* Device removed: every resident wave goes, with what it held (slots,
 * VGPRs, LDS, barriers, scratch counts, groups), so that the device can run
 * the next dispatch from an empty GPU. Call after finishing the dispatches;
 * the waves themselves are left alone (another host thread may still be
 * returning from one), which is why this does not retire them one by one. */
void xs_gpu_spi_evict_all(xs_gpu *g)
{
	for (uint32_t s = 0; s < g->nsimd; s++) {
		xs_gpu_simd *sm = &g->simd[s];
		memset(sm->wave, 0, sizeof(sm->wave));
		sm->nwaves = 0;
		sm->vgprs_used = 0;
		for (int p = 0; p < XS_GPU_PIPES; p++) {
			sm->pipe[p].retrier = NULL;
			sm->pipe[p].waitq = 0;
			sm->pipe[p].waitq_n = 0;
		}
	}
	for (uint32_t c = 0; c < g->ncu; c++)
		g->cu[c].groups = g->cu[c].lds_used = g->cu[c].barriers_used = g->cu[c].scratch_waves = 0;
	for (uint32_t w = 0; w < g->nwgp; w++)
		g->wgp[w].lds_used = g->wgp[w].barriers_used = 0;
	memset(g->se_waves, 0, sizeof(g->se_waves));
	for (uint32_t i = 0; i < g->ngroups; i++)
		g->free_groups[i] = i;
	g->nfree_groups = g->ngroups;
	g->resident = 0;
	g->fa_waves = 0; /* (a wave's quanta run ahead are reset when its slot launches again) */
	g->scratch_in_use = 0;
	g->cu_locked = 0;
}

/* A wave ends: it gives back what launch_group took (xs_gpu_spi_evict_all
 * gives back the same for every wave at once: keep the two in step). */
void xs_gpu_spi_retire(xs_gpu *g, xs_gpu_wave *gw)
{
	xs_gpu_group *grp = gw->group;
	xs_gpu_disp *disp = grp->disp;
	if (disp->draw) {
		g->draw_ops->wave_end(g, gw);
		return;
	}
	const xs_spi_dispatch *d = &disp->d;
	xs_gpu_simd *sm = &g->simd[gw->simd];
	uint32_t wave_cu = sm->cu;
	sm->wave[gw->slot] = NULL;
	sm->nwaves--;
	sm->vgprs_used -= d->vgprs_w32;
	if (gw->scratch_slot != UINT32_MAX) {
		xs_gpu_ring_slot_give(g, disp->ring, gw->scratch_slot);
		g->cu[wave_cu].scratch_waves--;
	}
	g->resident--;
	note_resident(g, disp, wave_cu, -1);
	const xs_gpu_ring *ring = gw->scratch_slot != UINT32_MAX ? disp->ring : NULL;
	if (grp->live > 1)
		wave_freed(g, wave_cu, ring);
	else /* the group ends below: its CU's groups, LDS and barrier come back too */
		xs_gpu_spi_placement_changed(g, wave_cu, ring);
	if (g->tracing) {
		xs_gpu_trace_wave_end(g, gw);
		xs_gpu_trace_record(g);
	}
	disp->r->wave_insts += gw->w.insts;
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
		disp->groups_live--;
		disp->groups_done++;
		disp->progress_cycle = g->now;
		if (disp->next >= disp->total && disp->groups_live == 0)
			xs_gpu_disp_finish(g, disp);
	} else if (grp->at_barrier == grp->live) {
		/* Ended waves no longer count toward the barrier. */
		barrier_release(g, grp);
	}
}

static void barrier_release(xs_gpu *g, xs_gpu_group *grp)
{
	grp->at_barrier = 0;
	uint64_t t = g->now + (g->timing ? g->info->barrier_release : 0);
	for (uint32_t i = 0; i < grp->nwaves; i++) {
		xs_gpu_wave *w = grp->waves[i];
		if (w->w.status != XS_WAVE_BARRIER)
			continue;
		w->w.status = XS_WAVE_READY;
		if (g->timing) {
			w->ready = XS_MAX(w->ready, t);
			xs_gpu_evq_push(g, w);
		}
	}
}

/* A wave reached s_barrier: the group goes on when all its live waves have. */
void xs_gpu_spi_barrier_arrive(xs_gpu *g, xs_gpu_wave *gw)
{
	xs_gpu_group *grp = gw->group;
	if (++grp->at_barrier == grp->live)
		barrier_release(g, grp);
}
