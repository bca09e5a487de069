/*
 * A draw's waves (docs/graphics.md section 3): the CP's DRAW_* packet ->
 * xs_gpu_draw_begin -> the VGT's batches become VS waves (one per batch)
 * -> their exports fill the batch's positions and its parameter-cache
 * allocation -> when a VS wave ends, its primitives are rasterized in draw
 * order (a batch that ends before an earlier one waits) -> quads gather
 * into PS waves (lanes / 4 quads, at most 16 primitives) -> PS waves launch
 * in order, their attributes copied to LDS (then the VS wave's lines may
 * free) -> colour exports are buffered per wave and committed in launch
 * (primitive) order through the CB.
 *
 * Placement, the parameter cache, late allocation and the S4 limits are
 * xs_gpu_spi_gfx.c's; this file owns the waves' lives and the order.
 */
#include "gpu/xs_gpu_gfx.h"
#include "hw/xs_hw_gfx.h"
#include "gpu/xs_gpu_spi_gfx.h"
#include "hw/xs_hw_isa.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VS_RING 64            /* VS waves of a draw launched and not yet rasterized */
#define PS_MAX_PRIMS 16       /* NEW_PRIM_MASK has a bit per quad; the SPI starts at most 16 primitives per wave [model] */

typedef struct vs_rec {
	xs_gfx_batch b;
	xs_gfx_wave hw;
	xs_gpu_wave *gw;
	float pos[64][4];
	float *param;             /* lane x num_params x 4 */
	bool used, ended;
	bool pos0;                /* its wave has exported POS0 */
	uint32_t ps_left;         /* PS waves of its primitives not launched yet */
	bool rasterized;
} vs_rec;

typedef struct ps_rec {
	uint32_t vs;              /* ring index of the batch its primitives come from */
	uint32_t nquads, nprims;
	xs_gfx_quad quad[16];
	uint16_t prim[PS_MAX_PRIMS]; /* batch-local primitive of each of its primitives */
	uint16_t new_prim_mask;
	xs_gfx_wave hw;
	xs_gpu_wave *gw;
	bool launched, ended;
	/* Exports, bounded by the wave (docs/graphics.md 3.4): a colour per lane
	 * and target, the last export of a target wins; the lanes that exported
	 * anything (a discarded lane never does), exp mrtz's depth. */
	float (*col)[XS_GFX_MAX_RT][4]; /* per lane, allocated at the first colour export */
	uint8_t tgt[64];          /* per lane: the targets it exported */
	uint64_t alive;           /* covered lanes in EXEC at an export (mrt, mrtz or null) */
	float z[64];
	uint64_t zset;
} ps_rec;

typedef struct xs_gpu_draw {
	xs_gpu_disp *disp;
	xs_gfx_state s;
	xs_gfx_spi spi;
	xs_gfx_vgt vgt;
	bool vgt_done, have_batch;
	xs_gfx_batch next;
	vs_rec vs[VS_RING];
	uint64_t vs_head, vs_tail;   /* [head, tail): launched, not rasterized */
	ps_rec *ps;                  /* ring of PS waves: [commit, tail) */
	uint64_t ps_commit, ps_launch, ps_tail;
	uint32_t ps_cap;
	uint32_t ps_limit;           /* at most this many PS waves gathered and not committed (ps_room) */
	bool building;               /* ps[ps_tail] is being filled */
	uint32_t cur_prim;
	/* The rasterizer's place in the batch at vs_head: its primitive
	 * raster_prim, mid-way (job) when raster_mid; paused when it stopped
	 * for want of PS-wave room. */
	uint32_t raster_prim;
	bool raster_mid, paused;
	xs_gfx_raster_job job;
	bool early_z;
	bool oom;                    /* a quad found no PS wave record (host memory): the draw never completes */
	int blocked[XS_GPU_NSTAGES];
	uint64_t blocked_since[XS_GPU_NSTAGES];
	xs_gfx_raster_stats rst;
} xs_gpu_draw;

static xs_gpu_draw *draw_of(const xs_gpu_wave *gw)
{
	return gw->group->disp->draw;
}

/* ---- launch ---------------------------------------------------------------- */

static xs_gpu_group *group_take(xs_gpu *g, xs_gpu_draw *d, xs_gpu_wave *gw, uint32_t stage, void *rec)
{
	xs_gpu_group *grp = &g->groups[g->free_groups[--g->nfree_groups]];
	grp->disp = d->disp;
	memset(grp->id, 0, sizeof(grp->id));
	grp->cu = gw->simd / g->info->simds_per_cu;
	grp->nwaves = grp->live = 1;
	grp->at_barrier = 0;
	grp->waves[0] = gw;
	grp->stage = (uint8_t)stage;
	grp->gfx = rec;
	gw->group = grp;
	return grp;
}

static void wave_common(xs_gpu *g, xs_gpu_wave *gw, const xs_gfx_wave *hw, uint32_t lanes, uint32_t nvgpr,
			uint64_t pc, uint32_t rsrc1)
{
	xs_wave *w = &gw->w;
	memset(w->s, 0, sizeof(w->s));
	w->nvgpr = nvgpr;
	for (uint32_t r = 0; r < nvgpr; r++)
		memset(w->v[r], 0, lanes * sizeof(w->v[0][0]));
	w->pc = pc;
	w->lanes = lanes;
	w->scc = 0;
	w->mode = XS_MODE_FROM_RSRC1(rsrc1); /* FLOAT_MODE and DX10_CLAMP sit where compute's do */
	w->trapsts = 0;
	w->flat_scratch = 0;
	w->status = XS_WAVE_READY;
	w->insts = 0;
	w->wave_in_group = 0;
	w->interp_prim_stride = 0;
	w->lds = NULL;
	w->lds_size = 0;
	w->owner = gw;
	w->end_fault = NULL;
	w->hw_id2 = 0;
	w->hw_id = S_00045C_WAVE_ID(hw->slot) | g->simd[hw->simd].hw_id; /* (the SIMD's part: xs_gpu_create) */
	gw->scratch_slot = hw->scratch_slot;
	gw->parked = false;
	xs_gpu_spi_wave_start(g, gw, lanes);
}

static void resident_change(xs_gpu *g, xs_gpu_disp *disp, uint32_t cu, int delta)
{
	disp->area += (uint64_t)disp->resident * (g->now - disp->last_change);
	disp->last_change = g->now;
	disp->resident = (uint32_t)((int)disp->resident + delta);
	disp->r->peak_waves = XS_MAX(disp->r->peak_waves, disp->resident);
	if (delta > 0 && disp->cu_resident[cu]++ == 0)
		disp->cu_since[cu] = g->now;
	if (delta < 0 && --disp->cu_resident[cu] == 0)
		disp->r->cu_busy[cu] += g->now - disp->cu_since[cu];
	if (delta > 0) {
		if (disp->groups_live++ == 0)
			disp->progress_cycle = g->now;
		disp->r->waves_launched++;
		disp->r->groups_launched++;
	} else {
		disp->groups_live--;
		disp->groups_done++;
		disp->progress_cycle = g->now;
	}
	if (g->tracing)
		xs_gpu_trace_record(g);
}

static void vs_start(xs_gpu *g, xs_gpu_draw *d, vs_rec *v)
{
	const xs_gfx_state *s = &d->s;
	xs_gpu_wave *gw = xs_gpu_slot_wave(g, v->hw.simd, v->hw.slot);
	v->gw = gw;
	group_take(g, d, gw, XS_GPU_TRACE_VS, v);
	const xs_gfx_stage_cfg *t = &d->spi.cfg.st[XS_GPU_STAGE_VS];
	wave_common(g, gw, &v->hw, t->lanes, t->vgprs, s->vs_va, s->vs_rsrc1);
	xs_wave *w = &gw->w;
	/* docs/graphics.md 1.1/1.2: user SGPRs, then the scratch wave offset;
	 * v0 VertexID, v1/v2 0, v3 InstanceID; EXEC = the batch's vertices. */
	uint32_t n = 0;
	for (; n < s->vs_user_sgprs; n++)
		w->s[n] = s->vs_user[n];
	if (t->scratch)
		w->s[n++] = v->hw.scratch_slot * d->spi.cfg.scratch_wavesize;
	uint64_t exec = 0;
	for (uint32_t l = 0; l < v->b.nverts; l++) {
		exec |= 1ull << l;
		w->v[0][l] = v->b.vertex_id[l];
		if (w->nvgpr > 3)
			w->v[3][l] = v->b.instance_id[l];
	}
	w->s[XS_SREG_EXEC_LO] = (uint32_t)exec;
	w->s[XS_SREG_EXEC_HI] = (uint32_t)(exec >> 32);
	/* A VS must export position (docs/graphics.md 1.3): its s_endpgm faults
	 * until it has (draw_export). Else its primitives would be rasterized
	 * from the ring record's stale positions, and a late wave that never
	 * reached an exp would stay on its SE's late list, to be given lines
	 * after it ended that nothing frees. */
	v->pos0 = false;
	w->end_fault = "VS wave ended without exporting position (exp pos0 with done)";
	resident_change(g, d->disp, v->hw.cu, +1);
	d->disp->r->gfx.vertices += v->b.nverts;
	if (g->timing)
		xs_gpu_evq_push(g, gw);
}

/* SPI_PS_INPUT_ADDR slots 0..15 in order, and the VGPRs each takes: LLVM packs the
 * PS input arguments so (docs/graphics.md 1.2). */
static const uint8_t ps_slot_vgprs[16] = { 2, 2, 2, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1 };

static float f_of(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* IEEE half to float (exp compr: f16 pairs). */
static float half_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h >> 15) << 31, ex = (h >> 10) & 0x1f, man = h & 0x3ff;
	float v;
	if (ex == 0)
		v = ldexpf((float)man, -24); /* zero, subnormal */
	else if (ex == 31)
		return f_of(sign | 0x7f800000u | man << 13);
	else
		v = ldexpf((float)(man | 0x400), (int)ex - 25);
	return sign ? -v : v;
}

static uint32_t u_of(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static void ps_start(xs_gpu *g, xs_gpu_draw *d, ps_rec *p)
{
	const xs_gfx_state *s = &d->s;
	vs_rec *v = &d->vs[p->vs];
	xs_gpu_wave *gw = xs_gpu_slot_wave(g, p->hw.simd, p->hw.slot);
	p->gw = gw;
	xs_gpu_group *grp = group_take(g, d, gw, XS_GPU_TRACE_PS, (void *)(uintptr_t)d->ps_launch);
	const xs_gfx_stage_cfg *t = &d->spi.cfg.st[XS_GPU_STAGE_PS];
	wave_common(g, gw, &p->hw, t->lanes, t->vgprs, s->ps_va, s->ps_rsrc1);
	xs_wave *w = &gw->w;
	/* Attributes to LDS: P0, P10, P20 per primitive and attribute (docs/graphics.md 1.4). */
	uint32_t stride = s->num_interp * XS_INTERP_ATTR_BYTES, bytes = p->nprims * stride;
	if (grp->lds_cap < bytes) {
		free(grp->lds);
		grp->lds = xs_malloc(bytes);
		grp->lds_cap = grp->lds ? bytes : 0;
	}
	grp->lds_missing = bytes && !grp->lds;
	if (bytes && grp->lds) {
		memset(grp->lds, 0, bytes);
		for (uint32_t k = 0; k < p->nprims; k++) {
			const uint8_t *lane = v->b.prim_lane[p->prim[k]];
			for (uint32_t a = 0; a < s->num_interp; a++) {
				uint32_t cntl = s->ps_input_cntl[a], off = G_028644_OFFSET(cntl);
				float q[12] = { 0 };
				if (off < s->num_params) {
					const float *p0 = v->param + ((size_t)lane[0] * s->num_params + off) * 4;
					const float *p1 = v->param + ((size_t)lane[1] * s->num_params + off) * 4;
					const float *p2 = v->param + ((size_t)lane[2] * s->num_params + off) * 4;
					bool flat = G_028644_FLAT_SHADE(cntl);
					for (int c = 0; c < 4; c++) {
						q[c] = p0[c]; /* flat: the provoking (first) vertex */
						q[4 + c] = flat ? 0.0f : p1[c] - p0[c];
						q[8 + c] = flat ? 0.0f : p2[c] - p0[c];
					}
				} else {
					/* no such parameter: DEFAULT_VAL (0: 0,0,0,0; 1: 0,0,0,1; 2: 1,1,1,0; 3: 1,1,1,1) */
					uint32_t dv = G_028644_DEFAULT_VAL(cntl);
					for (int c = 0; c < 3; c++)
						q[c] = dv >= 2 ? 1.0f : 0.0f;
					q[3] = dv & 1 ? 1.0f : 0.0f;
				}
				memcpy(grp->lds + k * stride + a * XS_INTERP_ATTR_BYTES, q, XS_INTERP_ATTR_BYTES);
			}
		}
	}
	w->lds = grp->lds;
	w->lds_size = grp->lds ? bytes : 0; /* no host memory: every access faults, none writes through NULL */
	w->interp_prim_stride = stride;
	/* SGPRs: user data, PRIM_MASK = NEW_PRIM_MASK << 16 | LDS_PARAM_OFFSET 0, the scratch offset. */
	uint32_t n = 0;
	for (; n < s->ps_user_sgprs; n++)
		w->s[n] = s->ps_user[n];
	w->s[n++] = (uint32_t)p->new_prim_mask << 16;
	if (t->scratch)
		w->s[n++] = p->hw.scratch_slot * d->spi.cfg.scratch_wavesize;
	/* VGPRs in SPI_PS_INPUT_ADDR order, the ENA slots written; EXEC = every
	 * lane of every quad, helpers included (derivatives need them). */
	uint64_t exec = 0;
	for (uint32_t qi = 0; qi < p->nquads; qi++) {
		const xs_gfx_quad *q = &p->quad[qi];
		for (uint32_t px = 0; px < 4; px++) {
			uint32_t l = qi * 4 + px, r = 0;
			exec |= 1ull << l;
			float x = (float)(q->x + (int32_t)(px & 1)) + 0.5f, y = (float)(q->y + (int32_t)(px >> 1)) + 0.5f;
			for (uint32_t b = 0; b < 16; b++) {
				if (!((s->ps_input_addr >> b) & 1))
					continue;
				uint32_t vals[3] = { 0, 0, 0 };
				switch (b) {
				case 0: case 1: case 2: case 4: case 5: case 6: /* one sample: all at the centre [model] */
					vals[0] = u_of(q->i[px]);
					vals[1] = u_of(q->j[px]);
					break;
				case 3:
					vals[0] = u_of(q->w_inv[px]);
					vals[1] = u_of(q->i[px] * q->w_inv[px]);
					vals[2] = u_of(q->j[px] * q->w_inv[px]);
					break;
				case 8: vals[0] = u_of(x); break;
				case 9: vals[0] = u_of(y); break;
				case 10: vals[0] = u_of(q->z[px]); break;
				case 11: vals[0] = u_of(q->w_inv[px]); break;
				case 12: vals[0] = u_of(q->front ? 1.0f : -1.0f); break; /* sign says the face in both readings */
				case 14: vals[0] = (q->inside >> px) & 1; break;
				case 15: vals[0] = (uint32_t)(q->x + (int32_t)(px & 1)) | (uint32_t)(q->y + (int32_t)(px >> 1)) << 16; break;
				default: break;
				}
				if ((s->ps_input_ena >> b) & 1)
					for (uint32_t k = 0; k < ps_slot_vgprs[b]; k++)
						if (r + k < w->nvgpr)
							w->v[r + k][l] = vals[k];
				r += ps_slot_vgprs[b];
			}
			if (q->cover >> px & 1)
				d->disp->r->gfx.pixels_shaded++;
		}
	}
	w->s[XS_SREG_EXEC_LO] = (uint32_t)exec;
	w->s[XS_SREG_EXEC_HI] = (uint32_t)(exec >> 32);
	resident_change(g, d->disp, p->hw.cu, +1);
	if (g->timing)
		xs_gpu_evq_push(g, gw);
}

static void note_wait(xs_gpu *g, xs_gpu_draw *d, int stage, int cause)
{
	xs_gpu_gfx_stats *st = &d->disp->r->gfx;
	if (d->blocked[stage] >= 0) {
		uint64_t dt = g->now - d->blocked_since[stage];
		st->stage_wait_cycles[stage][d->blocked[stage]] += dt;
		if (d->blocked[stage] == XS_GPU_WAIT_LIMIT)
			st->limit_wait_cycles[stage] += dt;
	}
	d->blocked[stage] = cause;
	d->blocked_since[stage] = g->now;
}

static void wake(xs_gpu *g, xs_gfx_wave **woken, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++) {
		vs_rec *v = (vs_rec *)((char *)woken[k] - offsetof(vs_rec, hw));
		xs_gpu_wave *gw = v->gw;
		if (gw->w.status != XS_WAVE_EXP_WAIT)
			continue; /* the exp has not run yet (it will find its lines) */
		gw->w.status = XS_WAVE_READY;
		if (g->timing && gw->parked) {
			/* else its PARK entry is still to issue, and it goes on then */
			gw->parked = false;
			gw->ready = g->now;
			xs_gpu_evq_push(g, gw);
		}
	}
}

static void vs_lines_maybe_free(xs_gpu *g, xs_gpu_draw *d, vs_rec *v)
{
	if (!v->rasterized || v->ps_left)
		return;
	xs_gfx_wave *woken[VS_RING];
	uint32_t n = xs_gfx_spi_pc_free(&d->spi, &v->hw, woken, VS_RING);
	wake(g, woken, XS_MIN(n, (uint32_t)VS_RING));
}

static bool all_launched(const xs_gpu_draw *d)
{
	return d->vgt_done && !d->have_batch && d->vs_head == d->vs_tail && d->ps_launch == d->ps_tail && !d->building;
}

static bool draw_launch(xs_gpu *g, xs_gpu_disp *disp)
{
	xs_gpu_draw *d = disp->draw;
	bool any = false;
	/* [model] the VS stage first, then the PS stage (S4.2: this is what
	 * lets late-alloc VS waves take every place a PS wave could use). */
	for (;;) {
		if (!d->have_batch && !d->vgt_done) {
			d->have_batch = xs_gfx_vgt_next(&d->vgt, &d->next);
			d->vgt_done = !d->have_batch;
		}
		if (!d->have_batch || d->vs_tail - d->vs_head >= VS_RING)
			break;
		vs_rec *v = &d->vs[d->vs_tail % VS_RING];
		if (v->used && (v->ps_left || v->hw.pc_held || v->hw.late))
			break; /* the record's batch still holds lines its PS waves need */
		int r = xs_gfx_spi_launch(&d->spi, XS_GPU_STAGE_VS, xs_gfx_pc_need(d->next.nverts, d->s.num_params), &v->hw);
		if (r >= 0) {
			if (d->blocked[XS_GPU_STAGE_VS] != r)
				note_wait(g, d, XS_GPU_STAGE_VS, r);
			break;
		}
		if (d->blocked[XS_GPU_STAGE_VS] >= 0)
			note_wait(g, d, XS_GPU_STAGE_VS, -1);
		v->b = d->next;
		v->used = true;
		v->ended = v->rasterized = false;
		v->ps_left = 0;
		d->have_batch = false;
		d->vs_tail++;
		vs_start(g, d, v);
		any = true;
	}
	while (d->ps_launch < d->ps_tail) {
		ps_rec *p = &d->ps[d->ps_launch % d->ps_cap];
		int r = xs_gfx_spi_launch(&d->spi, XS_GPU_STAGE_PS, p->nprims * d->s.num_interp * XS_INTERP_ATTR_BYTES, &p->hw);
		if (r >= 0) {
			if (d->blocked[XS_GPU_STAGE_PS] != r)
				note_wait(g, d, XS_GPU_STAGE_PS, r);
			break;
		}
		if (d->blocked[XS_GPU_STAGE_PS] >= 0)
			note_wait(g, d, XS_GPU_STAGE_PS, -1);
		p->launched = true;
		ps_start(g, d, p); /* its group keeps the wave's number: the ring may move */
		d->ps_launch++;
		vs_rec *v = &d->vs[p->vs];
		v->ps_left--;
		vs_lines_maybe_free(g, d, v);
		any = true;
	}
	if (all_launched(d)) {
		disp->next = disp->total;
		if (d->ps_commit == d->ps_tail && disp->groups_live == 0) {
			/* nothing left to run (a draw of no whole primitive) */
			xs_gpu_disp_finish(g, disp);
			return true;
		}
	}
	return any;
}

/* ---- exports -------------------------------------------------------------- */

static int draw_export(void *user, xs_wave *w, const xs_isa_export *e)
{
	(void)user; /* the wave's owner leads to its draw */
	xs_gpu_wave *gw = w->owner;
	xs_gpu_draw *d = draw_of(gw);
	if (!d)
		return -1; /* a compute wave: exp is for graphics stages */
	if (gw->group->stage == XS_GPU_TRACE_VS) {
		vs_rec *v = gw->group->gfx;
		bool pos = e->tgt >= XS_EXP_TGT_POS0 && e->tgt < XS_EXP_TGT_POS0 + 4;
		bool param = e->tgt >= XS_EXP_TGT_PARAM0 && e->tgt < XS_EXP_TGT_PARAM0 + 32;
		if (!pos && !param)
			return e->tgt == XS_EXP_TGT_NULL ? XS_EXPORT_OK : -1;
		if (!xs_gfx_spi_export_ready(&d->spi, &v->hw))
			return XS_EXPORT_WAIT;
		for (uint32_t l = 0; l < v->b.nverts; l++) {
			if (!((e->exec >> l) & 1))
				continue;
			float *dst = NULL;
			if (e->tgt == XS_EXP_TGT_POS0)
				dst = v->pos[l];
			else if (param && e->tgt - XS_EXP_TGT_PARAM0 < d->s.num_params)
				dst = v->param + ((size_t)l * d->s.num_params + (e->tgt - XS_EXP_TGT_PARAM0)) * 4;
			if (!dst)
				continue; /* pos1..3, parameters past VS_EXPORT_COUNT: dropped */
			for (int c = 0; c < 4; c++)
				if (e->src[c] && ((e->en >> c) & 1))
					dst[c] = f_of(e->src[c][l]);
		}
		/* Position is exported with POS0 and done on the last position
		 * export (POS0, or POS1..3 after it): the wave may end then. */
		v->pos0 |= e->tgt == XS_EXP_TGT_POS0;
		if (pos && e->done && v->pos0)
			w->end_fault = NULL;
		return XS_EXPORT_OK;
	}
	ps_rec *p = &d->ps[(uintptr_t)gw->group->gfx % d->ps_cap];
	bool mrt = e->tgt < XS_GFX_MAX_RT;
	if (e->tgt != XS_EXP_TGT_NULL && e->tgt != XS_EXP_TGT_MRTZ && !mrt)
		return -1;
	if (mrt && !p->col) {
		p->col = xs_malloc(d->spi.cfg.st[XS_GPU_STAGE_PS].lanes * sizeof(*p->col));
		if (!p->col)
			return XS_EXPORT_NO_MEMORY;
	}
	for (uint32_t l = 0; l < p->nquads * 4; l++) {
		const xs_gfx_quad *q = &p->quad[l / 4];
		if (!((e->exec >> l) & 1) || !((q->cover >> (l % 4)) & 1))
			continue; /* helper lanes and lanes off write nothing */
		p->alive |= 1ull << l;
		if (e->tgt == XS_EXP_TGT_MRTZ) {
			if (e->src[0]) {
				p->z[l] = f_of(e->src[0][l]);
				p->zset |= 1ull << l;
			}
			continue;
		}
		if (!mrt)
			continue; /* exp null: the lane lives on, for late Z */
		/* Exporting a target again replaces the lane's colour: the CB sees one
		 * value per pixel and target, as D3D12's SV_Target is one output (the
		 * shader's last write); the buffer stays lanes x 8 targets however
		 * often the shader exports. */
		float *o = p->col[l][e->tgt];
		p->tgt[l] |= (uint8_t)(1u << e->tgt);
		if (e->compr) {
			/* VSRC0 = R|G << 16, VSRC1 = B|A << 16 as f16 */
			for (int c = 0; c < 4; c++) {
				uint32_t word = e->src[c / 2] ? e->src[c / 2][l] : 0;
				uint16_t h = (uint16_t)(c & 1 ? word >> 16 : word & 0xffff);
				o[c] = half_to_float(h);
			}
		} else {
			for (int c = 0; c < 4; c++)
				o[c] = e->src[c] && ((e->en >> c) & 1) ? f_of(e->src[c][l]) : 0.0f;
		}
	}
	return XS_EXPORT_OK;
}

/* ---- rasterization --------------------------------------------------------- */

static void ps_close(xs_gpu_draw *d)
{
	if (!d->building)
		return;
	d->building = false;
	d->ps_tail++;
}

static bool ps_grow(xs_gpu_draw *d)
{
	uint64_t live = d->ps_tail + (d->building ? 1 : 0) - d->ps_commit;
	if (live < d->ps_cap)
		return true;
	uint32_t nc = d->ps_cap * 2;
	ps_rec *n = xs_calloc(nc, sizeof(*n));
	if (!n)
		return false;
	/* Records move to their number's place in the bigger ring; the
	 * others' buffers go. */
	for (uint64_t i = d->ps_commit; i < d->ps_commit + live; i++) {
		n[i % nc] = d->ps[i % d->ps_cap];
		d->ps[i % d->ps_cap].col = NULL;
	}
	for (uint32_t j = 0; j < d->ps_cap; j++)
		free(d->ps[j].col);
	free(d->ps);
	d->ps = n;
	d->ps_cap = nc;
	return true;
}

static void quad_in(void *user, const xs_gfx_quad *q)
{
	xs_gpu_draw *d = user;
	uint32_t per_wave = d->spi.cfg.st[XS_GPU_STAGE_PS].lanes / 4;
	ps_rec *p = d->building ? &d->ps[d->ps_tail % d->ps_cap] : NULL;
	bool new_prim = !p || !p->nprims || p->prim[p->nprims - 1] != d->cur_prim;
	if (p && (p->nquads == per_wave || (new_prim && p->nprims == PS_MAX_PRIMS))) {
		ps_close(d);
		p = NULL;
	}
	if (!p) {
		if (!ps_grow(d)) {
			d->oom = true; /* out of host memory: a draw without the quad must not complete */
			return;
		}
		p = &d->ps[d->ps_tail % d->ps_cap];
		float (*keep)[XS_GFX_MAX_RT][4] = p->col;
		memset(p, 0, sizeof(*p));
		p->col = keep;
		p->vs = (uint32_t)(d->vs_head % VS_RING);
		d->building = true;
		new_prim = true;
		d->vs[p->vs].ps_left++;
	}
	if (new_prim) {
		p->new_prim_mask |= (uint16_t)(1u << p->nquads);
		p->prim[p->nprims++] = (uint16_t)d->cur_prim;
	}
	p->quad[p->nquads++] = *q;
	uint64_t live = d->ps_tail + 1 - d->ps_commit;
	if (live > d->disp->r->gfx.peak_ps_pending)
		d->disp->r->gfx.peak_ps_pending = (uint32_t)live;
}

/* Whether quad_in can take the next quad without a PS wave record past
 * ps_limit: the rasterizer asks before each quad and stops there if not
 * (the same test quad_in makes to close the wave it fills). */
static bool ps_room(void *user)
{
	xs_gpu_draw *d = user;
	uint64_t live = d->ps_tail + (d->building ? 1 : 0) - d->ps_commit;
	if (live < d->ps_limit)
		return true;
	if (!d->building)
		return false;
	const ps_rec *p = &d->ps[d->ps_tail % d->ps_cap];
	bool new_prim = !p->nprims || p->prim[p->nprims - 1] != d->cur_prim;
	return p->nquads < d->spi.cfg.st[XS_GPU_STAGE_PS].lanes / 4 && !(new_prim && p->nprims == PS_MAX_PRIMS);
}

/* Rasterizes every ended batch at the head, in draw order, the quads
 * gathering into PS-wave records. The records not yet committed are bounded
 * (ps_limit): when they reach it the rasterizer stops at the quad it is on
 * and goes on from there when committed waves free records (draw_wave_end),
 * so that host memory stays bounded whatever a batch's primitives cover --
 * a batch of up to 128 triangles over a 32767-pixel scissor would otherwise
 * gather millions of records before its first PS wave launched. Below the
 * bound nothing changes: the same quads, waves and order. */
static void raster_ready(xs_gpu *g, xs_gpu_draw *d)
{
	xs_gpu_gfx_stats *st = &d->disp->r->gfx;
	d->paused = false;
	while (d->vs_head < d->vs_tail && d->vs[d->vs_head % VS_RING].ended) {
		vs_rec *v = &d->vs[d->vs_head % VS_RING];
		for (; d->raster_prim < v->b.nprims; d->raster_prim++) {
			uint32_t k = d->raster_prim;
			if (!d->raster_mid) {
				xs_gfx_vtx vt[3];
				for (int c = 0; c < 3; c++) {
					uint32_t l = v->b.prim_lane[k][c];
					memcpy(vt[c].pos, v->pos[l], sizeof(vt[c].pos));
					vt[c].param = v->param + (size_t)l * d->s.num_params * 4;
				}
				if (!xs_gfx_raster_setup(&d->s, vt, &d->job, &d->rst))
					continue; /* culled */
				d->raster_mid = true;
			}
			d->cur_prim = k;
			if (!xs_gfx_raster_run(&d->s, g->vm, &d->job, d->early_z, quad_in, ps_room, d, &d->rst)) {
				d->paused = true;
				goto out;
			}
			d->raster_mid = false;
		}
		d->raster_prim = 0;
		st->primitives += v->b.nprims;
		ps_close(d); /* a PS wave holds one batch's primitives [model] */
		v->rasterized = true;
		d->vs_head++;
		vs_lines_maybe_free(g, d, v);
	}
out:
	st->prims_culled = d->rst.culled;
	st->prims_clipped = d->rst.clipped;
	st->quads = d->rst.quads;
	st->quads_depth_killed = d->rst.depth_killed_quads;
}

/* Commits the exports of ended PS waves in launch order (primitive order),
 * a pixel (lane) at a time. Late Z (DB_SHADER_CONTROL.Z_EXPORT_ENABLE or
 * KILL_ENABLE turned early Z off): the pixel's depth is tested and written
 * once, before any of its colour targets, and a pixel that fails writes
 * none of them -- the DB tests a pixel, not a (pixel, target) pair. The
 * depth is the shader's exp mrtz when Z_EXPORT_ENABLE (mrtz is ignored
 * without it, as the DB takes no shader depth then), else the rasterized
 * one: a PS that only discards (D3D12 sets KILL_ENABLE for clip/discard)
 * still has its surviving pixels depth tested and written. */
static void commit_ready(xs_gpu *g, xs_gpu_draw *d)
{
	const xs_gfx_state *s = &d->s;
	bool late_z = s->z_enable && !d->early_z;
	bool z_export = G_02880C_Z_EXPORT_ENABLE(s->db_shader_control);
	while (d->ps_commit < d->ps_launch && d->ps[d->ps_commit % d->ps_cap].ended) {
		ps_rec *p = &d->ps[d->ps_commit % d->ps_cap];
		for (uint32_t l = 0; l < p->nquads * 4; l++) {
			if (!((p->alive >> l) & 1))
				continue;
			const xs_gfx_quad *q = &p->quad[l / 4];
			int32_t x = q->x + (int32_t)(l & 1), y = q->y + (int32_t)((l >> 1) & 1);
			if (late_z) {
				float z = z_export && ((p->zset >> l) & 1) ? xs_gfx_depth_clamp(s, p->z[l]) : q->z[l % 4];
				if (!xs_gfx_depth_test(s, g->vm, x, y, z))
					continue;
			}
			for (unsigned t = 0; t < XS_GFX_MAX_RT; t++)
				if ((p->tgt[l] >> t) & 1 && xs_gfx_cb_write(s, g->vm, t, x, y, p->col[l][t], NULL))
					d->disp->r->gfx.pixels_written++;
		}
		d->ps_commit++;
	}
}

static void maybe_done(xs_gpu *g, xs_gpu_draw *d)
{
	if (d->oom) {
		g->host_oom = true; /* the scheduler, finding nothing to run, removes the device */
		return;
	}
	if (all_launched(d) && d->ps_commit == d->ps_tail && d->disp->groups_live == 0) {
		d->disp->next = d->disp->total;
		xs_gpu_disp_finish(g, d->disp);
	}
}

static void draw_wave_end(xs_gpu *g, xs_gpu_wave *gw)
{
	xs_gpu_group *grp = gw->group;
	xs_gpu_draw *d = grp->disp->draw;
	if (g->tracing)
		xs_gpu_trace_wave_end(g, gw);
	d->disp->r->wave_insts += gw->w.insts;
	if (grp->stage == XS_GPU_TRACE_VS) {
		vs_rec *v = grp->gfx;
		xs_gfx_spi_retire(&d->spi, &v->hw);
		v->ended = true;
	} else {
		ps_rec *p = &d->ps[(uintptr_t)grp->gfx % d->ps_cap];
		xs_gfx_spi_retire(&d->spi, &p->hw);
		p->ended = true;
	}
	g->free_groups[g->nfree_groups++] = (uint32_t)(grp - g->groups);
	resident_change(g, d->disp, gw->simd / g->info->simds_per_cu, -1);
	raster_ready(g, d);
	commit_ready(g, d);
	if (d->paused)
		raster_ready(g, d); /* the commits freed records: go on */
	maybe_done(g, d);
}

/* ---- begin / end -------------------------------------------------------------- */

static void draw_release(xs_gpu *g, xs_gpu_disp *disp)
{
	xs_gpu_draw *d = disp->draw;
	for (uint32_t i = 0; i < VS_RING; i++)
		free(d->vs[i].param);
	for (uint32_t i = 0; i < d->ps_cap; i++)
		free(d->ps[i].col);
	free(d->ps);
	if (disp->resident == 0) {
		for (int k = 0; k < XS_GPU_NSTAGES; k++)
			if (d->blocked[k] >= 0)
				note_wait(g, d, k, -1);
	}
	xs_gfx_spi_fini(&d->spi);
	free(d);
	disp->draw = NULL;
}

static bool draw_diagnose(xs_gpu *g, char *buf, size_t n)
{
	for (int i = 0; i < XS_GPU_MAX_ACTIVE; i++) {
		xs_gpu_disp *disp = &g->disp[i];
		if (!xs_gpu_disp_live(g, i) || !disp->draw)
			continue;
		xs_gpu_draw *d = disp->draw;
		int cause = d->blocked[XS_GPU_STAGE_PS] >= 0 ? d->blocked[XS_GPU_STAGE_PS] : XS_GPU_WAIT_LIMIT;
		if (xs_gfx_spi_deadlock(&d->spi, (uint32_t)(d->ps_tail - d->ps_launch), cause, buf, n))
			return true;
	}
	return false;
}

static const xs_gpu_draw_ops draw_ops = {
	.launch = draw_launch, .wave_end = draw_wave_end, .release = draw_release, .diagnose = draw_diagnose,
};

xs_status xs_gpu_draw_begin(xs_gpu *g, unsigned q, const xs_gpu_draw_args *a, xs_gpu_dispatch_result *r,
			    xs_err *e)
{
	*r = (xs_gpu_dispatch_result){ .limit_waves = r->limit_waves, .limit_cycles = r->limit_cycles };
	r->start_cycle = r->end_cycle = g->now;
	r->gfx.is_draw = true;
	if (q != 0)
		return xs_err_set(e, XS_E_INVALID_ARG, "queue %u: dword %zu: draws run on the graphics ring (queue 0)", q,
				  a->dword);
	xs_gpu_disp *disp = NULL;
	for (int i = 0; i < XS_GPU_MAX_ACTIVE && !disp; i++)
		if (!xs_gpu_disp_live(g, i))
			disp = &g->disp[i];
	if (!disp)
		return xs_err_set(e, XS_E_UNSUPPORTED, "more than %d dispatches and draws in flight", XS_GPU_MAX_ACTIVE);
	xs_gpu_draw *d = xs_calloc(1, sizeof(*d));
	if (!d)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "draw state");
	xs_status st = xs_gfx_state_decode(&g->queue[q], &d->s, e);
	if (!st) {
		xs_gfx_state_set_draw(&d->s, a);
		xs_gfx_spi_cfg cfg;
		st = xs_gfx_spi_decode(g, &g->queue[q], d->s.vs_w32, d->s.ps_w32, &cfg, e);
		if (!st && d->s.num_params > XS_GFX_MAX_PARAMS)
			st = xs_err_set(e, XS_E_INVALID_ARG, "SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT gives %u parameters: at most %u",
					d->s.num_params, XS_GFX_MAX_PARAMS);
		uint32_t vs_lanes = d->s.vs_w32 ? 32 : 64;
		if (!st && xs_gfx_pc_need(vs_lanes, d->s.num_params) > cfg.pc_lines)
			st = xs_err_set(e, XS_E_INVALID_ARG,
					"SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT: a wave%u VS with %u parameters needs %u "
					"parameter-cache lines, more than an SE's %u: no VS wave could launch",
					vs_lanes, d->s.num_params, xs_gfx_pc_need(vs_lanes, d->s.num_params), cfg.pc_lines);
		if (!st)
			st = xs_gfx_spi_init(&d->spi, g, &cfg, &r->gfx, e);
		r->scratch_slots = cfg.scratch_slots; /* usable slots of the graphics ring */
	}
	d->ps_cap = 64;
	/* [model] PS waves gathered and not committed, at most: twice the wave
	 * slots of the chip (more than can run at once, so that the bound only
	 * binds when a batch covers far more pixels than the GPU holds), a power
	 * of two that the ring's doubling reaches. */
	const xs_devinfo *di = g->info;
	d->ps_limit = d->ps_cap;
	while (d->ps_limit < 2 * di->num_cu * di->simds_per_cu * di->wave_slots_per_simd)
		d->ps_limit *= 2;
	d->ps = st ? NULL : xs_calloc(d->ps_cap, sizeof(*d->ps));
	for (uint32_t i = 0; !st && i < VS_RING; i++)
		if (!(d->vs[i].param = xs_calloc((size_t)64 * XS_MAX(d->s.num_params, 1u) * 4, sizeof(float))))
			st = xs_err_set(e, XS_E_OUT_OF_MEMORY, "parameter cache");
	if (!st && !d->ps)
		st = xs_err_set(e, XS_E_OUT_OF_MEMORY, "PS waves");
	if (st) {
		if (d->spi.g)
			xs_gfx_spi_fini(&d->spi);
		for (uint32_t i = 0; i < VS_RING; i++)
			free(d->vs[i].param);
		free(d->ps);
		free(d);
		return st;
	}
	if (a->count == 0 || a->instance_count == 0) {
		xs_gfx_spi_fini(&d->spi);
		for (uint32_t i = 0; i < VS_RING; i++)
			free(d->vs[i].param);
		free(d->ps);
		free(d);
		return XS_OK;
	}
	xs_gfx_vgt_init(&d->vgt, &d->s, g->vm, a->count, d->s.vs_w32 ? 32 : 64);
	d->early_z = d->s.early_z; /* DB_SHADER_CONTROL: a PS that exports depth (or kills) tests it late */
	d->blocked[0] = d->blocked[1] = -1;
	memset(disp, 0, sizeof(*disp));
	g->disp_mask |= 1u << (disp - g->disp);
	disp->id = g->next_disp_id++;
	disp->queue = q;
	disp->total = 1;
	disp->r = r;
	disp->draw = d;
	disp->last_change = g->now;
	disp->progress_cycle = g->now;
	disp->host_stamp = xs_now_seconds();
	disp->blocked = -1;
	d->disp = disp;
	g->draw_ops = &draw_ops;
	g->ctx.export_fn = draw_export;
	g->ctx.export_user = g;
	return XS_OK;
}
