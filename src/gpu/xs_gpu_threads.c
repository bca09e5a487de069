/*
 * Functional mode on several host threads. The WGPs are dealt out to the
 * threads (WGP w to thread w mod T); a thread runs only the waves on its
 * WGPs, so a group's waves, its LDS and its barriers stay on one thread. The
 * SPI state (launch, retire, barriers, rings, trace) is shared and changed
 * under one lock, once per group run ahead (run_group) and then once per
 * quantum of a wave that went on; instruction execution runs unlocked,
 * each thread with its own predecode cache. GPU memory pages are backed
 * atomically (src/mem) and vector atomics are host atomics (src/isa).
 *
 * Results equal one thread's for kernels whose result does not depend on
 * the order of atomics between groups. Cycles in functional mode are issue
 * counts per SIMD; with several threads they depend on which group launched
 * where first, so they can differ from run to run (the timing model is
 * always one thread and deterministic).
 */
#include "gpu/xs_gpu_priv.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XS_MT_QUANTUM 2048

typedef struct mt_worker mt_worker;

typedef struct mt_shared {
	xs_gpu *g;
	mt_worker *wk;           /* the workers, nthreads of them */
	pthread_mutex_t lock;
	pthread_cond_t cv;
	uint32_t nthreads;
	uint64_t c0;
	bool until_one;
	bool stop;
	xs_status status;
	xs_err *e;
	uint32_t running;        /* threads executing a quantum right now */
} mt_shared;

struct mt_worker {
	mt_shared *sh;
	uint32_t id;
	xs_isa_ctx ctx;
	pthread_t th;
	uint32_t nmine;
	uint16_t mine[XS_GPU_MAX_CU * 2]; /* its SIMDs (on its WGPs), in SIMD order */
};

static bool done(const mt_shared *sh)
{
	const xs_gpu *g = sh->g;
	return sh->stop || xs_gpu_ndisp(g) == 0 || (sh->until_one && g->completions != sh->c0);
}

/* The ready wave on the worker's SIMDs with the lowest SIMD clock (the
 * first SIMD of equals, then its round robin). Under the lock, once per
 * group and per quantum: the worker's own SIMDs are listed (mine), no
 * division per SIMD. */
static xs_gpu_wave *pick_mine(xs_gpu *g, const mt_worker *wk, xs_gpu_simd **out)
{
	const uint32_t nslots = g->info->wave_slots_per_simd;
	xs_gpu_simd *best = NULL;
	xs_gpu_wave *bw = NULL;
	for (uint32_t j = 0; j < wk->nmine; j++) {
		xs_gpu_simd *sm = &g->simd[wk->mine[j]];
		if (!sm->nwaves || (best && sm->clock >= best->clock))
			continue;
		for (uint32_t i = 1, k = sm->rr; i <= nslots; i++) {
			k = k + 1 == nslots ? 0 : k + 1;
			xs_gpu_wave *gw = sm->wave[k];
			if (gw && gw->w.status == XS_WAVE_READY && !gw->running) {
				best = sm;
				bw = gw;
				break;
			}
		}
	}
	if (bw) {
		best->rr = bw->slot;
		*out = best;
	}
	return bw;
}

/* A fresh group runs ahead (xs_gpu_group_ahead) unlocked, its waves as
 * far as they go — to their ends, or a barrier the group stops at, or
 * their quanta's limit — and then is accounted under the lock at once:
 * its SIMDs' clocks, then each wave by where it stopped (ended: retired;
 * at the barrier: arrived; ready: left to run on; a fault: the device
 * goes). A group costs one pick and one trip through the lock instead of
 * one per quantum of each wave (called and returning with the lock held;
 * the group's waves are this thread's: its WGP's). */
static void run_group(mt_worker *wk, xs_gpu_group *grp)
{
	mt_shared *sh = wk->sh;
	xs_gpu *g = sh->g;
	const uint32_t nw = grp->nwaves;
	xs_gpu_wave *gws[XS_GPU_MAX_WAVES_PER_GROUP];
	uint64_t before[XS_GPU_MAX_WAVES_PER_GROUP];
	for (uint32_t i = 0; i < nw; i++) {
		gws[i] = grp->waves[i];
		gws[i]->running = true;
		before[i] = gws[i]->w.insts;
	}
	sh->running++;
	pthread_mutex_unlock(&sh->lock);
	xs_gpu_group_ahead(g, &wk->ctx, grp, false);
	pthread_mutex_lock(&sh->lock);
	sh->running--;
	for (uint32_t i = 0; i < nw; i++) {
		xs_gpu_wave *gw = gws[i];
		xs_gpu_simd *sm = &g->simd[gw->simd];
		gw->running = false;
		sm->clock += (gw->w.insts - before[i]) * (gw->w.lanes / 32);
		if (sm->clock > g->now)
			g->now = sm->clock;
	}
	for (uint32_t i = 0; i < nw && !sh->stop; i++) {
		xs_gpu_wave *gw = gws[i]; /* (retiring the last wave frees the group: its records are not read after) */
		if (gw->w.status == XS_WAVE_FAULT) {
			g->ctx.fault = gw->ra_fault;
			sh->status = xs_gpu_remove_device(g, gw, sh->e);
			sh->stop = true;
		} else if (gw->w.status == XS_WAVE_ENDED) {
			xs_gpu_spi_retire(g, gw);
		} else if (gw->w.status == XS_WAVE_BARRIER) {
			xs_gpu_spi_barrier_arrive(g, gw);
		}
	}
	if (!sh->stop)
		xs_gpu_spi_launch_pending(g);
	if (!sh->stop && (g->watch_count += 256) >= XS_GPU_WATCH_EVERY && (sh->status = xs_gpu_watch(g, sh->e)))
		sh->stop = true;
	pthread_cond_broadcast(&sh->cv);
}

static void *worker_main(void *arg)
{
	mt_worker *wk = arg;
	mt_shared *sh = wk->sh;
	xs_gpu *g = sh->g;
	pthread_mutex_lock(&sh->lock);
	for (;;) {
		xs_gpu_simd *sm = NULL;
		xs_gpu_wave *gw = NULL;
		while (!done(sh) && !(gw = pick_mine(g, wk, &sm))) {
			if (sh->running == 0) {
				/* Nobody runs and this thread has nothing: if no thread has
				 * anything either, nothing can make progress. */
				bool any = false;
				for (uint32_t t = 0; t < sh->nthreads && !any; t++) {
					xs_gpu_simd *s2;
					any = pick_mine(g, &sh->wk[t], &s2) != NULL;
				}
				if (!any) {
					sh->stop = true;
					sh->status = xs_err_set(sh->e, XS_E_DEVICE_REMOVED,
						"device removed: no wave can make progress (%u resident) and thread groups "
						"are waiting to launch", g->resident);
					pthread_cond_broadcast(&sh->cv);
					break;
				}
			}
			pthread_cond_wait(&sh->cv, &sh->lock);
		}
		if (done(sh))
			break;
		if (gw->regs_pending && !g->no_ahead) {
			run_group(wk, gw->group);
			continue;
		}
		gw->running = true;
		sh->running++;
		uint64_t before = gw->w.insts;
		bool dog = before >= g->watchdog;
		pthread_mutex_unlock(&sh->lock);

		xs_wave_status ws = XS_WAVE_FAULT;
		if (gw->regs_pending) /* the wave is this thread's while running */
			xs_gpu_spi_wave_regs(gw, &gw->w);
		if (!dog)
			ws = xs_isa_run(&wk->ctx, &gw->w, XS_MIN(g->watchdog - before, (uint64_t)XS_MT_QUANTUM));

		pthread_mutex_lock(&sh->lock);
		gw->running = false;
		sh->running--;
		sm->clock += (gw->w.insts - before) * (gw->w.lanes / 32);
		if (sm->clock > g->now)
			g->now = sm->clock;
		if (sh->stop)
			break;
		if (dog) {
			wk->ctx.fault = (xs_fault){ .kind = XS_FAULT_WATCHDOG, .pc = gw->w.pc };
			snprintf(wk->ctx.fault.what, sizeof(wk->ctx.fault.what), "budget %llu",
				 (unsigned long long)g->watchdog);
		}
		if (ws == XS_WAVE_FAULT) {
			g->ctx.fault = wk->ctx.fault;
			sh->status = xs_gpu_remove_device(g, gw, sh->e);
			sh->stop = true;
		} else if (ws == XS_WAVE_ENDED) {
			xs_gpu_spi_retire(g, gw);
			xs_gpu_spi_launch_pending(g);
		} else if (ws == XS_WAVE_BARRIER) {
			xs_gpu_spi_barrier_arrive(g, gw);
		}
		if (!sh->stop && (g->watch_count += 256) >= XS_GPU_WATCH_EVERY &&
		    (sh->status = xs_gpu_watch(g, sh->e)))
			sh->stop = true;
		pthread_cond_broadcast(&sh->cv);
	}
	pthread_cond_broadcast(&sh->cv);
	pthread_mutex_unlock(&sh->lock);
	return NULL;
}

xs_status xs_gpu_run_functional_mt(xs_gpu *g, bool until_one, xs_err *e)
{
	mt_shared sh = { .g = g, .nthreads = g->threads, .c0 = g->completions, .until_one = until_one, .e = e };
	mt_worker wk[XS_GPU_MAX_THREADS];
	sh.wk = wk;
	/* every worker's SIMDs are listed before any starts (a deadlock check reads them all) */
	for (uint32_t t = 0; t < sh.nthreads; t++) {
		wk[t] = (mt_worker){ .sh = &sh, .id = t, .ctx = { .vm = g->vm, .icache = t ? NULL : g->ctx.icache } };
		for (uint32_t s = 0; s < g->nsimd && s < XS_ARRAY_SIZE(wk[t].mine); s++) /* (WGP w is thread w mod T's) */
			if (g->cu[g->simd[s].cu].wgp % sh.nthreads == t)
				wk[t].mine[wk[t].nmine++] = (uint16_t)s;
	}
	pthread_mutex_init(&sh.lock, NULL);
	pthread_cond_init(&sh.cv, NULL);
	xs_gpu_spi_launch_pending(g);
	uint32_t started = 0;
	for (uint32_t t = 0; t < sh.nthreads; t++) {
		if (t && !(wk[t].ctx.icache = xs_icache_create()))
			break;
		if (pthread_create(&wk[t].th, NULL, worker_main, &wk[t])) {
			if (t)
				xs_icache_destroy(wk[t].ctx.icache);
			break;
		}
		started++;
	}
	if (started < sh.nthreads) {
		/* Could not start them all: the ones that run cover only some WGPs. */
		pthread_mutex_lock(&sh.lock);
		sh.stop = true;
		sh.status = xs_err_set(e, XS_E_OUT_OF_MEMORY, "could not start %u host threads", sh.nthreads);
		pthread_cond_broadcast(&sh.cv);
		pthread_mutex_unlock(&sh.lock);
	}
	for (uint32_t t = 0; t < started; t++) {
		pthread_join(wk[t].th, NULL);
		if (t)
			xs_icache_destroy(wk[t].ctx.icache);
	}
	pthread_cond_destroy(&sh.cv);
	pthread_mutex_destroy(&sh.lock);
	if (sh.status && sh.status != XS_E_DEVICE_REMOVED) {
		for (int i = 0; i < XS_GPU_MAX_ACTIVE; i++)
			if (xs_gpu_disp_live(g, i))
				xs_gpu_disp_finish(g, &g->disp[i]);
	}
	return sh.status;
}
