/*
 * SPI, graphics: VS and PS wave placement, the parameter cache and late
 * allocation, SPEC S4 limits (xs_gpu_spi_gfx.h; docs/graphics.md section 3).
 *
 *   placement   a wave goes on one SIMD of a CU its stage's CU_EN enables
 *               (RSRC3.CU_EN for CUs 0..15 of each SA, RSRC4.CU_EN for
 *               16..31, the same mask in every SA), within the stage's
 *               WAVE_LIMIT per SE, taking a wave slot, VGPRs, LDS (PS
 *               attributes) and a slot of the graphics scratch ring.
 *   PC          [model] a VS wave needs a line per vertex and parameter in
 *               its SE's parameter cache. Lines free: it takes them at
 *               launch. Else, while its SA has fewer late waves than
 *               LATE_ALLOC_VS allows, it launches without them (late) and
 *               stops at its first exp until lines free, in launch order;
 *               it holds its slot, VGPRs and scratch slot meanwhile (S4.1).
 *   locking     S4.5: a stage with fewer waves in an SA than its
 *               LOCK_LOW_THRESHOLD whose ready wave fits nowhere reserves a
 *               CU: no wave of another stage or pipe starts there until a
 *               wave of the stage has launched.
 */
#include "gpu/xs_gpu_spi_gfx.h"
#include "hw/xs_hw_gfx.h"
#include "hw/xs_hw_isa.h"

#include <stdio.h>
#include <string.h>

static const char *const stage_name[XS_GPU_NSTAGES] = { [XS_GPU_STAGE_VS] = "VS", [XS_GPU_STAGE_PS] = "PS" };

const char *xs_gfx_wait_cause_text(int cause)
{
	static const char *const t[XS_GPU_GFX_WAIT_COUNT] = {
		[XS_GPU_WAIT_WAVE_SLOT] = "wave slots", [XS_GPU_WAIT_VGPR] = "VGPRs", [XS_GPU_WAIT_LDS] = "LDS",
		[XS_GPU_WAIT_BARRIER] = "barriers", [XS_GPU_WAIT_SCRATCH] = "scratch-ring slots",
		[XS_GPU_WAIT_LIMIT] = "CU mask, wave limit or a locked CU",
		[XS_GPU_WAIT_PARAM_CACHE] = "parameter-cache space",
	};
	return cause >= 0 && cause < XS_GPU_GFX_WAIT_COUNT ? t[cause] : "?";
}

/* ---- registers ------------------------------------------------------------- */

xs_status xs_gfx_spi_decode(const xs_gpu *g, const xs_gpu_queue_regs *q, bool vs_w32, bool ps_w32,
			    xs_gfx_spi_cfg *c, xs_err *e)
{
	const xs_devinfo *di = g->info;
#define SH(r) q->sh[((r) - XS_SH_REG_OFFSET) / 4]
	static const struct {
		uint32_t rsrc1, rsrc2, rsrc3, rsrc4;
		const char *name;
	} regs[XS_GPU_NSTAGES] = {
		[XS_GPU_STAGE_VS] = { R_00B128_SPI_SHADER_PGM_RSRC1_VS, R_00B12C_SPI_SHADER_PGM_RSRC2_VS,
				      R_00B118_SPI_SHADER_PGM_RSRC3_VS, R_00B104_SPI_SHADER_PGM_RSRC4_VS, "VS" },
		[XS_GPU_STAGE_PS] = { R_00B028_SPI_SHADER_PGM_RSRC1_PS, R_00B02C_SPI_SHADER_PGM_RSRC2_PS,
				      R_00B01C_SPI_SHADER_PGM_RSRC3_PS, R_00B004_SPI_SHADER_PGM_RSRC4_PS, "PS" },
	};
	memset(c, 0, sizeof(*c));
	for (int k = 0; k < XS_GPU_NSTAGES; k++) {
		xs_gfx_stage_cfg *t = &c->st[k];
		t->lanes = (k == XS_GPU_STAGE_VS ? vs_w32 : ps_w32) ? 32 : 64;
		/* RSRC1.VGPRS has the same encoding as COMPUTE_PGM_RSRC1.VGPRS [5:0]. */
		t->vgprs = xs_gpu_vgprs_from_rsrc1(di, t->lanes, SH(regs[k].rsrc1));
		t->vgprs_w32 = xs_gpu_vgpr_alloc(di, t->lanes, t->vgprs) * (t->lanes / 32);
		if (t->vgprs_w32 > di->vgprs_per_simd_w32)
			return xs_err_set(e, XS_E_INVALID_ARG, "SPI_SHADER_PGM_RSRC1_%s.VGPRS gives %u VGPRs: more than a SIMD has",
					  regs[k].name, t->vgprs);
		/* SCRATCH_EN is bit 0 of both RSRC2 registers. */
		t->scratch = G_00B12C_SCRATCH_EN(SH(regs[k].rsrc2));
		uint32_t r3 = SH(regs[k].rsrc3);
		t->cu_en_sa = G_00B01C_CU_EN(r3) | G_00B004_CU_EN(SH(regs[k].rsrc4)) << 16;
		t->wave_limit = G_00B01C_WAVE_LIMIT(r3) * XS_WAVE_LIMIT_UNIT;
		t->lock_threshold = G_00B01C_LOCK_LOW_THRESHOLD(r3) * XS_LOCK_THRESHOLD_UNIT;
		for (uint32_t cu = 0; cu < di->num_cu; cu++)
			if ((t->cu_en_sa >> g->cu[cu].cu_in_sa) & 1)
				t->cu_en |= 1ull << cu;
		if (!t->cu_en)
			return xs_err_set(e, XS_E_INVALID_ARG,
					  "SPI_SHADER_PGM_RSRC3_%s.CU_EN / RSRC4_%s.CU_EN enable no CU (0x%x): no %s wave can launch",
					  regs[k].name, regs[k].name, t->cu_en_sa, regs[k].name);
	}
	c->late_alloc_limit = G_00B11C_LIMIT(SH(R_00B11C_SPI_SHADER_LATE_ALLOC_VS));
	/* The limit counts wave64 waves: the hardware launches twice as many wave32 waves. */
	c->late_per_sa = c->late_alloc_limit * (vs_w32 ? 2 : 1);
	c->pc_lines = di->pc_lines;
	c->tmpring = q->ctx[(R_0286E8_SPI_TMPRING_SIZE - XS_CONTEXT_REG_OFFSET) / 4];
	c->scratch_wavesize = G_00B860_WAVESIZE(c->tmpring) * di->scratch_wavesize_granule;
	c->scratch_slots = XS_MIN(G_00B860_WAVES(c->tmpring), di->max_scratch_waves_per_cu * di->num_cu);
	if (c->st[XS_GPU_STAGE_VS].scratch || c->st[XS_GPU_STAGE_PS].scratch) {
		if (c->scratch_slots == 0)
			return xs_err_set(e, XS_E_INVALID_ARG,
					  "SPI_TMPRING_SIZE.WAVES = 0 with SCRATCH_EN set: no wave can launch");
		if (c->scratch_wavesize == 0)
			return xs_err_set(e, XS_E_INVALID_ARG, "SPI_TMPRING_SIZE.WAVESIZE = 0 with SCRATCH_EN set");
	}
#undef SH
	return XS_OK;
}

/* ---- life ---------------------------------------------------------------- */

xs_status xs_gfx_spi_init(xs_gfx_spi *s, xs_gpu *g, const xs_gfx_spi_cfg *cfg, xs_gpu_gfx_stats *st, xs_err *e)
{
	memset(s, 0, sizeof(*s));
	s->g = g;
	s->cfg = *cfg;
	s->st = st;
	s->lock_cu = -1;
	st->is_draw = true;
	st->pc_lines = cfg->pc_lines * g->info->num_se;
	if (cfg->st[XS_GPU_STAGE_VS].scratch || cfg->st[XS_GPU_STAGE_PS].scratch) {
		s->ring = xs_gpu_ring_get(g, 0, true, cfg->tmpring, cfg->scratch_slots, cfg->scratch_wavesize);
		if (!s->ring)
			return xs_err_set(e, XS_E_UNSUPPORTED, "more than %d scratch rings in use", XS_GPU_MAX_RINGS);
	}
	return XS_OK;
}

static void unlock(xs_gfx_spi *s)
{
	if (s->lock_cu < 0)
		return;
	xs_gpu *g = s->g;
	s->st->cu_lock_cycles += g->now - s->lock_since;
	g->cu_locked &= ~(1ull << s->lock_cu);
	xs_gpu_spi_placement_changed(g, (uint32_t)s->lock_cu, NULL);
	s->lock_cu = -1;
}

void xs_gfx_spi_fini(xs_gfx_spi *s)
{
	unlock(s);
	xs_gpu_release_ring(s->g, s->ring);
	s->ring = NULL;
}

/* ---- placement -------------------------------------------------------------- */

/* The SIMD of cu a wave of the stage fits on (most free VGPRs, then fewest
 * waves, then lowest), or -1 with *cause. */
static int pick_simd(const xs_gfx_spi *s, const xs_gfx_stage_cfg *t, uint32_t cu, int *cause)
{
	const xs_gpu *g = s->g;
	const xs_devinfo *di = g->info;
	int best = -1;
	uint32_t best_free = 0, best_n = 0;
	bool slot = false;
	for (uint32_t k = 0; k < di->simds_per_cu; k++) {
		const xs_gpu_simd *sm = &g->simd[cu * di->simds_per_cu + k];
		if (sm->nwaves >= di->wave_slots_per_simd)
			continue;
		slot = true;
		uint32_t fr = di->vgprs_per_simd_w32 - sm->vgprs_used;
		if (fr < t->vgprs_w32)
			continue;
		if (best < 0 || fr > best_free || (fr == best_free && sm->nwaves < best_n)) {
			best = (int)(cu * di->simds_per_cu + k);
			best_free = fr;
			best_n = sm->nwaves;
		}
	}
	if (best < 0)
		*cause = slot ? XS_GPU_WAIT_VGPR : XS_GPU_WAIT_WAVE_SLOT;
	return best;
}

/* Can a wave of the stage go on cu now: -1 (and its SIMD) or the cause.
 * *late: a VS wave would launch without lines. */
static int try_cu(const xs_gfx_spi *s, xs_gpu_stage stage, uint32_t need, uint32_t cu, int *simd, bool *late)
{
	const xs_gpu *g = s->g;
	const xs_devinfo *di = g->info;
	const xs_gfx_stage_cfg *t = &s->cfg.st[stage];
	const xs_gpu_cu *c = &g->cu[cu];
	int cause = -1;
	if (t->wave_limit && s->se_res[stage][c->se] >= t->wave_limit)
		return XS_GPU_WAIT_LIMIT;
	if (((g->cu_locked >> cu) & 1) && !(s->lock_cu == (int)cu && s->lock_stage == stage))
		return XS_GPU_WAIT_LIMIT;
	*simd = pick_simd(s, t, cu, &cause);
	if (*simd < 0)
		return cause;
	if (stage == XS_GPU_STAGE_PS && need) {
		uint32_t half = di->lds_per_wgp / di->cus_per_wgp;
		if (c->lds_used + need > half || g->wgp[c->wgp].lds_used + need > di->lds_per_wgp)
			return XS_GPU_WAIT_LDS;
	}
	if (t->scratch && (s->ring->in_use >= s->ring->slots || c->scratch_waves >= di->max_scratch_waves_per_cu))
		return XS_GPU_WAIT_SCRATCH;
	*late = false;
	if (stage == XS_GPU_STAGE_VS) {
		/* Lines are given in launch order: none while an earlier late wave waits for them. */
		bool room = !s->late_head[c->se] && s->pc_used[c->se] + need <= s->cfg.pc_lines;
		if (!room) {
			if (s->late[c->sa] >= s->cfg.late_per_sa)
				return XS_GPU_WAIT_PARAM_CACHE;
			*late = true;
		}
	}
	return -1;
}

/* S4.5: the CU to reserve for the stage's waiting wave: an enabled CU in an
 * SA where the stage has fewer waves than the threshold, with the most free
 * VGPRs (then wave slots; then the lowest index). */
static void maybe_lock(xs_gfx_spi *s, xs_gpu_stage stage, int cause)
{
	xs_gpu *g = s->g;
	const xs_devinfo *di = g->info;
	const xs_gfx_stage_cfg *t = &s->cfg.st[stage];
	if (!t->lock_threshold || s->lock_cu >= 0 || cause > XS_GPU_WAIT_SCRATCH)
		return; /* locking helps only against other stages' and pipes' resources */
	int best = -1;
	uint32_t best_v = 0, best_s = 0;
	for (uint64_t m = t->cu_en; m; m &= m - 1) {
		uint32_t cu = (uint32_t)__builtin_ctzll(m);
		if (s->sa_res[stage][g->cu[cu].sa] >= t->lock_threshold || ((g->cu_locked >> cu) & 1))
			continue;
		uint32_t v = 0, sl = 0;
		for (uint32_t k = 0; k < di->simds_per_cu; k++) {
			const xs_gpu_simd *sm = &g->simd[cu * di->simds_per_cu + k];
			v += di->vgprs_per_simd_w32 - sm->vgprs_used;
			sl += di->wave_slots_per_simd - sm->nwaves;
		}
		if (best < 0 || v > best_v || (v == best_v && sl > best_s)) {
			best = (int)cu;
			best_v = v;
			best_s = sl;
		}
	}
	if (best < 0)
		return;
	s->lock_cu = best;
	s->lock_stage = stage;
	s->lock_since = g->now;
	g->cu_locked |= 1ull << best;
	s->st->cu_lock_events++;
	xs_gpu_spi_placement_changed(g, (uint32_t)best, NULL);
}

static void take(xs_gfx_spi *s, xs_gpu_stage stage, uint32_t need, uint32_t cu, uint32_t simd, bool late,
		 xs_gfx_wave *w)
{
	xs_gpu *g = s->g;
	const xs_devinfo *di = g->info;
	const xs_gfx_stage_cfg *t = &s->cfg.st[stage];
	xs_gpu_cu *c = &g->cu[cu];
	xs_gpu_simd *sm = &g->simd[simd];
	uint32_t slot = 0;
	while (sm->wave[slot])
		slot++;
	memset(w, 0, sizeof(*w));
	w->stage = stage;
	w->cu = cu;
	w->simd = simd;
	w->slot = slot;
	w->se = c->se;
	w->sa = c->sa;
	w->resident = true;
	w->seq = s->seq++;
	w->scratch_slot = UINT32_MAX;
	xs_gpu_wave *gw = xs_gpu_slot_wave(g, simd, slot);
	gw->simd = simd;
	gw->slot = slot;
	gw->scratch_slot = UINT32_MAX;
	sm->wave[slot] = gw;
	sm->nwaves++;
	sm->vgprs_used += t->vgprs_w32;
	if (sm->clock < g->now)
		sm->clock = g->now;
	g->resident++;
	if (t->scratch) {
		w->scratch_slot = gw->scratch_slot = xs_gpu_ring_slot_take(g, s->ring);
		c->scratch_waves++;
		s->st->peak_scratch_slots = XS_MAX(s->st->peak_scratch_slots, s->ring->in_use);
	}
	if (stage == XS_GPU_STAGE_PS) {
		w->lds = need;
		c->lds_used += need;
		g->wgp[c->wgp].lds_used += need;
	} else {
		w->pc_lines = need;
		if (late) {
			w->late = true;
			s->late[c->sa]++;
			if (s->late_tail[c->se])
				s->late_tail[c->se]->next_late = w;
			else
				s->late_head[c->se] = w;
			s->late_tail[c->se] = w;
			s->st->late_alloc_waves++;
		} else {
			w->pc_held = true;
			s->pc_used[c->se] += need;
			s->pc_holders++;
		}
		uint32_t used = 0;
		for (uint32_t k = 0; k < di->num_se; k++)
			used += s->pc_used[k];
		s->st->peak_pc_lines = XS_MAX(s->st->peak_pc_lines, used);
	}
	s->resident[stage]++;
	s->sa_res[stage][c->sa]++;
	s->se_res[stage][c->se]++;
	s->st->waves[stage]++;
	s->st->peak_waves[stage] = XS_MAX(s->st->peak_waves[stage], s->resident[stage]);
	s->st->cu_used[stage] |= 1ull << cu;
	xs_gpu_spi_placement_changed(g, cu, w->scratch_slot != UINT32_MAX ? s->ring : NULL);
}

int xs_gfx_spi_launch(xs_gfx_spi *s, xs_gpu_stage stage, uint32_t need, xs_gfx_wave *w)
{
	xs_gpu *g = s->g;
	const xs_devinfo *di = g->info;
	const xs_gfx_stage_cfg *t = &s->cfg.st[stage];
	int cause = XS_GPU_GFX_WAIT_COUNT;
	/* The scan goes round the enabled CUs from the one after the last launch. */
	uint32_t start = s->next_cu[stage] % di->num_cu;
	uint64_t part[2] = { t->cu_en & (~0ull << start), t->cu_en & ~(~0ull << start) };
	/* A CU the stage locked is tried first: the lock is for this wave. */
	if (s->lock_cu >= 0 && s->lock_stage == stage) {
		int simd;
		bool late;
		int r = try_cu(s, stage, need, (uint32_t)s->lock_cu, &simd, &late);
		if (r < 0) {
			uint32_t cu = (uint32_t)s->lock_cu;
			unlock(s);
			take(s, stage, need, cu, (uint32_t)simd, late, w);
			s->next_cu[stage] = cu + 1;
			return -1;
		}
	}
	for (int p = 0; p < 2; p++)
		for (uint64_t m = part[p]; m; m &= m - 1) {
			uint32_t cu = (uint32_t)__builtin_ctzll(m);
			int simd;
			bool late;
			int r = try_cu(s, stage, need, cu, &simd, &late);
			if (r < 0) {
				if (s->lock_cu >= 0 && s->lock_stage == stage)
					unlock(s); /* the waiting wave found room elsewhere */
				take(s, stage, need, cu, (uint32_t)simd, late, w);
				s->next_cu[stage] = cu + 1;
				return -1;
			}
			cause = XS_MIN(cause, r);
		}
	maybe_lock(s, stage, cause);
	return cause;
}

/* ---- parameter cache ---------------------------------------------------------- */

bool xs_gfx_spi_export_ready(xs_gfx_spi *s, xs_gfx_wave *w)
{
	if (w->stage != XS_GPU_STAGE_VS || !w->late)
		return true;
	if (!w->exp_waiting) {
		w->exp_waiting = true;
		w->wait_since = s->g->now;
		s->exp_waiting++;
		s->st->peak_late_waiting = XS_MAX(s->st->peak_late_waiting, s->exp_waiting);
	}
	return false;
}

void xs_gfx_spi_retire(xs_gfx_spi *s, xs_gfx_wave *w)
{
	xs_gpu *g = s->g;
	const xs_devinfo *di = g->info;
	const xs_gfx_stage_cfg *t = &s->cfg.st[w->stage];
	xs_gpu_simd *sm = &g->simd[w->simd];
	xs_gpu_cu *c = &g->cu[w->cu];
	sm->wave[w->slot] = NULL;
	sm->nwaves--;
	sm->vgprs_used -= t->vgprs_w32;
	g->resident--;
	if (w->scratch_slot != UINT32_MAX) {
		xs_gpu_ring_slot_give(g, s->ring, w->scratch_slot);
		c->scratch_waves--;
	}
	if (w->lds) {
		c->lds_used -= w->lds;
		g->wgp[c->wgp].lds_used -= w->lds;
	}
	s->resident[w->stage]--;
	s->sa_res[w->stage][w->sa]--;
	s->se_res[w->stage][w->se]--;
	w->resident = false;
	(void)di;
	xs_gpu_spi_placement_changed(g, w->cu, w->scratch_slot != UINT32_MAX ? s->ring : NULL);
}

uint32_t xs_gfx_spi_pc_free(xs_gfx_spi *s, xs_gfx_wave *w, xs_gfx_wave **woken, uint32_t max)
{
	if (!w->pc_held)
		return 0;
	w->pc_held = false;
	s->pc_used[w->se] -= w->pc_lines;
	s->pc_holders--;
	uint32_t n = 0;
	/* The oldest late waves of the SE get lines while they fit. */
	xs_gfx_wave *l;
	while ((l = s->late_head[w->se]) && s->pc_used[w->se] + l->pc_lines <= s->cfg.pc_lines) {
		s->late_head[w->se] = l->next_late;
		if (!l->next_late)
			s->late_tail[w->se] = NULL;
		l->next_late = NULL;
		l->late = false;
		l->pc_held = true;
		s->pc_used[w->se] += l->pc_lines;
		s->pc_holders++;
		s->late[l->sa]--;
		if (l->exp_waiting) {
			l->exp_waiting = false;
			s->exp_waiting--;
			s->st->exp_stall_cycles += s->g->now - l->wait_since;
			if (n < max)
				woken[n] = l;
			n++;
		}
	}
	return n;
}

/* ---- deadlock ---------------------------------------------------------------- */

bool xs_gfx_spi_deadlock(const xs_gfx_spi *s, uint32_t ps_pending, int ps_cause, char *buf, size_t n)
{
	const xs_gpu *g = s->g;
	if (!s->exp_waiting)
		return false;
	uint32_t used = 0;
	for (uint32_t k = 0; k < g->info->num_se; k++)
		used += s->pc_used[k];
	const xs_gfx_stage_cfg *vs = &s->cfg.st[XS_GPU_STAGE_VS], *ps = &s->cfg.st[XS_GPU_STAGE_PS];
	/* What S4.2 asks about: CUs the PS may use that VS waves may not. */
	uint32_t barred = (uint32_t)__builtin_popcountll(ps->cu_en & ~vs->cu_en);
	char ex[96];
	if (!barred)
		snprintf(ex, sizeof(ex), "no CU excluded from VS");
	else
		snprintf(ex, sizeof(ex), "%u of the PS's CUs excluded from VS", barred);
	snprintf(buf, n,
		 "deadlock (SPEC S4.2): %u VS waves wait at exp for parameter-cache space; the parameter cache holds "
		 "%u/%u lines for %u VS waves whose %u PS waves cannot launch (no CU has room: %s); late-alloc limit "
		 "%u per SA, %s",
		 s->exp_waiting, used, s->cfg.pc_lines * g->info->num_se, s->pc_holders, ps_pending,
		 xs_gfx_wait_cause_text(ps_cause), s->cfg.late_per_sa, ex);
	(void)stage_name;
	return true;
}
