/*
 * Per-instruction timing (xs_gpu.h "Per-instruction timing"): the table the
 * timing model fills when a profile is on. The model (xs_gpu_sched.c) looks
 * a PC up once, when the run-ahead executes it, and adds to the entry at
 * issue through the index it kept; lookups are an open-addressed hash of
 * the PC, grown by doubling up to XS_GPU_PROF_MAX entries, past which PCs
 * count on the sink entry 0 and the profile says it overflowed.
 */
#include "gpu/xs_gpu_priv.h"

#include <stdlib.h>
#include <string.h>

static void prof_free(xs_gpu_prof *p)
{
	if (!p)
		return;
	free(p->ent);
	free(p->hash);
	free(p->ra_idx);
	free(p->wv);
	free(p->disps);
	free(p);
}

static inline uint32_t pc_hash(uint64_t pc)
{
	uint64_t h = (pc >> 2) * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(h >> 32);
}

static bool grow(xs_gpu_prof *p)
{
	uint32_t ncap = p->cap * 2, nh = ncap * 2;
	xs_gpu_prof_ent *e = xs_realloc(p->ent, (size_t)ncap * sizeof(*e));
	if (!e)
		return false;
	p->ent = e;
	uint32_t *h = xs_calloc(nh, sizeof(*h));
	if (!h)
		return false;
	for (uint32_t i = 1; i < p->n; i++) {
		uint32_t b = pc_hash(p->ent[i].pc) & (nh - 1);
		while (h[b])
			b = (b + 1) & (nh - 1);
		h[b] = i;
	}
	free(p->hash);
	p->hash = h;
	p->hmask = nh - 1;
	p->cap = ncap;
	return true;
}

uint32_t xs_gpu_prof_index(xs_gpu_prof *p, uint64_t pc)
{
	uint32_t b = pc_hash(pc) & p->hmask;
	for (;;) {
		uint32_t i = p->hash[b];
		if (!i)
			break;
		if (p->ent[i].pc == pc)
			return i;
		b = (b + 1) & p->hmask;
	}
	/* the hash has twice the array's entries: at most half full */
	if (p->n == p->cap && (p->cap >= XS_GPU_PROF_MAX || !grow(p))) {
		p->overflow = true;
		return 0;
	}
	uint32_t i = p->n++;
	memset(&p->ent[i], 0, sizeof(p->ent[i]));
	p->ent[i].pc = pc;
	b = pc_hash(pc) & p->hmask;
	while (p->hash[b])
		b = (b + 1) & p->hmask;
	p->hash[b] = i;
	return i;
}

bool xs_gpu_profile_enable(xs_gpu *g, bool on)
{
	prof_free(g->prof);
	g->prof = NULL;
	if (!on)
		return true;
	uint32_t nslots = g->nsimd * g->info->wave_slots_per_simd;
	xs_gpu_prof *p = xs_calloc(1, sizeof(*p));
	if (!p)
		return false;
	p->cap = 1024;
	p->n = 1; /* the sink */
	p->ent = xs_calloc(p->cap, sizeof(*p->ent));
	p->hash = xs_calloc(2 * p->cap, sizeof(*p->hash));
	p->hmask = 2 * p->cap - 1;
	p->ra_idx = xs_calloc((size_t)nslots * XS_GPU_RA, sizeof(*p->ra_idx));
	p->wv = xs_calloc(nslots, sizeof(*p->wv));
	if (!p->ent || !p->hash || !p->ra_idx || !p->wv) {
		prof_free(p);
		return false;
	}
	p->ent[0].pc = UINT64_MAX;
	/* Waves already resident start counting from now. */
	for (uint32_t i = 0; i < nslots; i++)
		p->wv[i].since = g->now;
	g->prof = p;
	return true;
}

bool xs_gpu_profiling(const xs_gpu *g)
{
	return g->prof != NULL;
}

const xs_gpu_prof_ent *xs_gpu_profile_get(const xs_gpu *g, uint32_t *n, bool *overflow)
{
	const xs_gpu_prof *p = g->prof;
	*n = p ? p->n - 1 : 0;
	*overflow = p && p->overflow;
	return p ? p->ent + 1 : NULL;
}

void xs_gpu_prof_disp_end(xs_gpu *g, const xs_gpu_disp *d)
{
	xs_gpu_prof *p = g->prof;
	const xs_gpu_dispatch_result *r = d->r;
	for (int i = 0; i < XS_GPU_WAIT_COUNT; i++)
		p->waits[i] += r->wait_cycles[i];
	/* the counters, as 64-bit words added one by one (the struct is nothing else) */
	_Static_assert(sizeof(xs_gpu_counters) % sizeof(uint64_t) == 0, "counters are 64-bit words");
	uint64_t *to = (uint64_t *)(void *)&p->ctr;
	const uint64_t *from = (const uint64_t *)(const void *)&r->ctr;
	for (size_t i = 0; i < sizeof(xs_gpu_counters) / sizeof(uint64_t); i++)
		to[i] += from[i];
	if (p->ndisps == p->cap_disps) {
		uint32_t ncap = p->cap_disps ? 2 * p->cap_disps : 64;
		xs_gpu_prof_disp *v = ncap <= XS_GPU_PROF_MAX_DISPS ? xs_realloc(p->disps, ncap * sizeof(*v)) : NULL;
		if (!v) {
			p->overflow = true;
			return;
		}
		p->disps = v;
		p->cap_disps = ncap;
	}
	p->disps[p->ndisps++] = (xs_gpu_prof_disp){
		.id = d->id, .queue = d->queue, .start = r->start_cycle, .end = g->now, .waves = r->waves_launched,
		.insts = r->wave_insts, .pgm_va = d->draw ? 0 : d->d.pgm_va, .draw = d->draw != NULL,
	};
}

const xs_gpu_prof_disp *xs_gpu_profile_disps(const xs_gpu *g, uint32_t *n, const uint64_t **waits,
					     const xs_gpu_counters **ctr)
{
	const xs_gpu_prof *p = g->prof;
	*n = p ? p->ndisps : 0;
	*waits = p ? p->waits : NULL;
	*ctr = p ? &p->ctr : NULL;
	return p ? p->disps : NULL;
}
