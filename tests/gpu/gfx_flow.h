/* A draw's wave flow over the graphics SPI (src/gpu/xs_gpu_spi_gfx.c), for
 * the S4 tests: VS waves, one per batch, run to their first export, wait
 * there when late without parameter-cache lines, end; their primitives
 * become PS waves in batch order (a batch that ends before an earlier one
 * waits); when the last PS wave of a batch has launched its lines are free.
 * At every launch opportunity the VS stage is served before the PS stage.
 * The shaders' run times are fixed here; the placement, the parameter
 * cache, late allocation, the limits and the deadlock diagnosis are the
 * GPU model's. */
#ifndef TESTS_GPU_GFX_FLOW_H
#define TESTS_GPU_GFX_FLOW_H

#include "gpu/xs_gpu_spi_gfx.h"

#include <stdlib.h>
#include <string.h>

typedef struct flow_desc {
	uint32_t nvs;            /* VS waves (batches) */
	uint32_t verts, params;  /* per VS wave */
	uint32_t ps_per_vs;      /* PS waves its primitives make */
	uint32_t ps_lds;         /* attribute bytes per PS wave */
	uint64_t t_vs_exp, t_vs_end, t_ps;
} flow_desc;

typedef struct flow_result {
	bool deadlock;
	char report[600];
	uint32_t vs_done, ps_done;
	uint64_t cycles;
} flow_result;

enum { VS_PENDING, VS_TO_EXP, VS_WAIT, VS_TO_END, VS_ENDED };

static inline void flow_run(xs_gfx_spi *s, const flow_desc *d, flow_result *res)
{
	xs_gpu *g = s->g;
	uint32_t nps = d->nvs * d->ps_per_vs;
	xs_gfx_wave *vw = calloc(d->nvs, sizeof(*vw)), *pw = calloc(nps ? nps : 1, sizeof(*pw));
	uint8_t *vst = calloc(d->nvs, 1);
	uint64_t *vt = calloc(d->nvs, sizeof(uint64_t)), *pt = calloc(nps ? nps : 1, sizeof(uint64_t));
	bool *prun = calloc(nps ? nps : 1, 1);
	uint32_t next_vs = 0, raster = 0, ps_queued = 0, next_ps = 0;
	memset(res, 0, sizeof(*res));
	uint64_t t0 = g->now;
	int ps_cause = -1;
	for (;;) {
		/* launch opportunity: VS first, then PS */
		int r = -1;
		while (next_vs < d->nvs &&
		       (r = xs_gfx_spi_launch(s, XS_GPU_STAGE_VS, xs_gfx_pc_need(d->verts, d->params), &vw[next_vs])) < 0) {
			vst[next_vs] = VS_TO_EXP;
			vt[next_vs] = g->now + d->t_vs_exp;
			next_vs++;
		}
		ps_cause = -1;
		while (next_ps < ps_queued && (r = xs_gfx_spi_launch(s, XS_GPU_STAGE_PS, d->ps_lds, &pw[next_ps])) < 0) {
			prun[next_ps] = true;
			pt[next_ps] = g->now + d->t_ps;
			uint32_t b = next_ps / d->ps_per_vs;
			next_ps++;
			if (next_ps % d->ps_per_vs == 0) { /* the batch's last PS wave launched */
				xs_gfx_wave *woken[64];
				uint32_t n = xs_gfx_spi_pc_free(s, &vw[b], woken, 64);
				for (uint32_t k = 0; k < n && k < 64; k++) {
					uint32_t i = (uint32_t)(woken[k] - vw);
					vst[i] = VS_TO_END;
					vt[i] = g->now + d->t_vs_end;
				}
			}
		}
		if (next_ps < ps_queued)
			ps_cause = r;
		/* next event */
		uint64_t tmin = UINT64_MAX;
		for (uint32_t i = 0; i < next_vs; i++)
			if ((vst[i] == VS_TO_EXP || vst[i] == VS_TO_END) && vt[i] < tmin)
				tmin = vt[i];
		for (uint32_t i = 0; i < next_ps; i++)
			if (prun[i] && pt[i] < tmin)
				tmin = pt[i];
		if (tmin == UINT64_MAX)
			break;
		g->now = tmin;
		for (uint32_t i = 0; i < next_vs; i++) {
			if (vt[i] != tmin)
				continue;
			if (vst[i] == VS_TO_EXP) {
				if (xs_gfx_spi_export_ready(s, &vw[i])) {
					vst[i] = VS_TO_END;
					vt[i] = tmin + d->t_vs_end;
				} else {
					vst[i] = VS_WAIT;
				}
			} else if (vst[i] == VS_TO_END) {
				xs_gfx_spi_retire(s, &vw[i]);
				vst[i] = VS_ENDED;
				res->vs_done++;
			}
		}
		for (uint32_t i = 0; i < next_ps; i++)
			if (prun[i] && pt[i] == tmin) {
				xs_gfx_spi_retire(s, &pw[i]);
				prun[i] = false;
				res->ps_done++;
			}
		/* rasterize in batch order */
		while (raster < next_vs && vst[raster] == VS_ENDED) {
			if (d->ps_per_vs == 0)
				xs_gfx_spi_pc_free(s, &vw[raster], NULL, 0);
			ps_queued += d->ps_per_vs;
			raster++;
		}
	}
	res->cycles = g->now - t0;
	if (res->vs_done < d->nvs || res->ps_done < nps)
		res->deadlock = xs_gfx_spi_deadlock(s, ps_queued - next_ps, ps_cause, res->report, sizeof(res->report));
	/* leave the GPU empty for the next case */
	for (uint32_t i = 0; i < next_vs; i++)
		if (vw[i].resident)
			xs_gfx_spi_retire(s, &vw[i]);
	for (uint32_t i = 0; i < next_ps; i++)
		if (pw[i].resident)
			xs_gfx_spi_retire(s, &pw[i]);
	free(vw);
	free(pw);
	free(vst);
	free(vt);
	free(pt);
	free(prun);
}

/* Register values */
#define SH_IDX(r) (((r) - XS_SH_REG_OFFSET) / 4)
static inline void flow_set_sh(xs_gpu *g, uint32_t reg, uint32_t v)
{
	g->queue[0].sh[SH_IDX(reg)] = v;
}
static inline void flow_set_ctx(xs_gpu *g, uint32_t reg, uint32_t v)
{
	g->queue[0].ctx[(reg - XS_CONTEXT_REG_OFFSET) / 4] = v;
}

/* RSRC1.VGPRS for n VGPRs of a wave of `lanes` (granule 8 for wave32, 4 for wave64). */
static inline uint32_t flow_vgprs_field(uint32_t lanes, uint32_t n)
{
	return n / (lanes == 32 ? 8 : 4) - 1;
}

typedef struct flow_stage {
	uint32_t lanes, vgprs, cu_en, wave_limit16, lock4;
	bool scratch;
} flow_stage;

static inline void flow_program(xs_gpu *g, flow_stage vs, flow_stage ps, uint32_t late_limit, uint32_t tmpring)
{
	memset(&g->queue[0], 0, sizeof(g->queue[0]));
	flow_set_sh(g, R_00B128_SPI_SHADER_PGM_RSRC1_VS, S_00B128_VGPRS(flow_vgprs_field(vs.lanes, vs.vgprs)));
	flow_set_sh(g, R_00B028_SPI_SHADER_PGM_RSRC1_PS, S_00B128_VGPRS(flow_vgprs_field(ps.lanes, ps.vgprs)));
	flow_set_sh(g, R_00B12C_SPI_SHADER_PGM_RSRC2_VS, S_00B12C_SCRATCH_EN(vs.scratch));
	flow_set_sh(g, R_00B02C_SPI_SHADER_PGM_RSRC2_PS, S_00B02C_SCRATCH_EN(ps.scratch));
	flow_set_sh(g, R_00B118_SPI_SHADER_PGM_RSRC3_VS,
		    S_00B01C_CU_EN(vs.cu_en) | S_00B01C_WAVE_LIMIT(vs.wave_limit16) | S_00B01C_LOCK_LOW_THRESHOLD(vs.lock4));
	flow_set_sh(g, R_00B01C_SPI_SHADER_PGM_RSRC3_PS,
		    S_00B01C_CU_EN(ps.cu_en) | S_00B01C_WAVE_LIMIT(ps.wave_limit16) | S_00B01C_LOCK_LOW_THRESHOLD(ps.lock4));
	flow_set_sh(g, R_00B104_SPI_SHADER_PGM_RSRC4_VS, 0);
	flow_set_sh(g, R_00B004_SPI_SHADER_PGM_RSRC4_PS, 0);
	flow_set_sh(g, R_00B11C_SPI_SHADER_LATE_ALLOC_VS, S_00B11C_LIMIT(late_limit));
	flow_set_ctx(g, R_0286E8_SPI_TMPRING_SIZE, tmpring);
}

#endif
