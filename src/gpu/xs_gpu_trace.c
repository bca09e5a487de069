/* Timeline recording: one record per wave (launch to retire, with its
 * place) and a sample of waves and scratch slots in use at every change.
 * Bounded: past XS_GPU_TRACE_MAX records the trace is marked truncated. */
#include "gpu/xs_gpu_priv.h"

#include <stdlib.h>

static bool grow(void **a, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return true;
	if (n >= XS_GPU_TRACE_MAX)
		return false;
	size_t ncap = *cap ? *cap * 2 : 4096;
	void *p = xs_realloc(*a, ncap * elem);
	if (!p)
		return false;
	*a = p;
	*cap = ncap;
	return true;
}

void xs_gpu_trace_enable(xs_gpu *g, bool on)
{
	g->tracing = on;
	g->trace.nwaves = g->trace.nsamples = g->trace.ndisps = 0;
	g->trace.truncated = false;
}

bool xs_gpu_tracing(const xs_gpu *g)
{
	return g->tracing;
}

const xs_gpu_trace *xs_gpu_trace_get(const xs_gpu *g)
{
	return &g->trace;
}

void xs_gpu_trace_wave_end(xs_gpu *g, const xs_gpu_wave *gw)
{
	xs_gpu_trace *t = &g->trace;
	if (!grow((void **)&t->waves, &t->cap_waves, t->nwaves, sizeof(*t->waves))) {
		t->truncated = true;
		return;
	}
	const xs_gpu_group *grp = gw->group;
	t->waves[t->nwaves++] = (xs_gpu_trace_wave){
		.start = gw->launched, .end = g->now, .dispatch = grp->disp->id, .queue = grp->disp->queue,
		.cu = gw->simd / g->info->simds_per_cu, .simd = gw->simd % g->info->simds_per_cu,
		.slot = gw->slot, .group = { grp->id[0], grp->id[1], grp->id[2] },
		.wave_in_group = gw->w.wave_in_group, .scratch = gw->scratch_slot != UINT32_MAX,
		.stage = grp->stage,
	};
}

void xs_gpu_trace_disp_end(xs_gpu *g, const xs_gpu_disp *d, bool removed)
{
	xs_gpu_trace *t = &g->trace;
	if (!grow((void **)&t->disps, &t->cap_disps, t->ndisps, sizeof(*t->disps))) {
		t->truncated = true;
		return;
	}
	t->disps[t->ndisps++] = (xs_gpu_trace_disp){ .id = d->id, .queue = d->queue, .start = d->r->start_cycle,
						     .end = g->now, .groups = d->r->groups_launched,
						     .waves = d->r->waves_launched, .removed = removed };
}

void xs_gpu_trace_record(xs_gpu *g)
{
	xs_gpu_trace *t = &g->trace;
	xs_gpu_trace_sample s = { .t = g->now, .waves = g->resident, .scratch_slots = g->scratch_in_use };
	for (int i = 0; i < XS_GPU_MAX_ACTIVE; i++)
		if (xs_gpu_disp_live(g, i))
			s.q_waves[g->disp[i].queue] += (uint16_t)g->disp[i].resident;
	for (int i = 0; i < XS_GPU_MAX_RINGS; i++)
		if (g->rings[i].used) {
			s.q_scratch[g->rings[i].queue] += (uint16_t)g->rings[i].in_use;
			s.q_ring[g->rings[i].queue] += (uint16_t)g->rings[i].slots;
		}
	if (t->nsamples && t->samples[t->nsamples - 1].t == g->now) {
		t->samples[t->nsamples - 1] = s; /* same cycle: keep the last */
		return;
	}
	if (!grow((void **)&t->samples, &t->cap_samples, t->nsamples, sizeof(*t->samples))) {
		t->truncated = true;
		return;
	}
	t->samples[t->nsamples++] = s;
}
