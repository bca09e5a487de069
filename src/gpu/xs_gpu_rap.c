/*
 * Timing mode on two host threads: the run-ahead pipelined. The model
 * (xs_gpu_sched.c, the calling thread) issues a wave's recorded entries
 * while a second thread interprets the wave's next ones (xs_gpu_ra_fill
 * into a side buffer per wave slot), asked for when RAP_ASK_LEFT of the
 * current ones are left (ra_stop).
 *
 * Deterministic: the second thread makes the entries one run at a time, in
 * the order the model asked for them (a FIFO), and the entries nobody asked
 * for (a wave's first, its first after a barrier) are made on the model's
 * thread once the FIFO is empty, so the runs happen in an order that only
 * the model decides, the same in every run. That order is not one
 * thread's (there a wave runs ahead when its entries run out, here up to
 * RAP_ASK_LEFT entries earlier), but a wave's entries depend only on its
 * own program order as long as it reads nothing another wave writes except
 * across a barrier (no run passes one): for such kernels cycles, counters
 * and bytes equal one thread's; waves that communicate otherwise (an
 * atomic's returned value, a flag spun on) see another legal, and
 * repeatable, interleaving. The CP and the hang and fault reports run with
 * the thread stopped (xs_gpu_rap_stop: every run asked for is made first),
 * so nothing else touches the waves or memory while it runs; a hang report
 * then shows the waves where their runs stopped, further ahead than one
 * thread's. Not for draws (their exports wake waves) or the profile.
 */
#include "gpu/xs_gpu_priv.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { RAP_NONE, RAP_ASKED, RAP_DONE };

struct xs_gpu_rap {
	xs_gpu *g;
	uint32_t nslots;
	_Atomic uint8_t *st;              /* per wave slot: RAP_* */
	xs_gpu_ra_ent (*ent)[XS_GPU_RA];  /* per wave slot: the entries made */
	uint8_t *n;                       /* how many */
	xs_fault *fault;                  /* the fault of a FAULT entry */
	xs_gpu_ra_sums *sums;             /* the counters' sums of the entries */
	uint64_t **lines;                 /* per wave slot: its line buffer (swapped with the wave's) */
	uint64_t *arena;                  /* the line buffers, XS_GPU_RA_LINES per slot */
	size_t arena_bytes;
	/* the FIFO of wave slots asked for: one writer (the model), one reader;
	 * what each side writes in host lines of its own */
	uint32_t *q, qmask;
	_Alignas(64) _Atomic uint32_t tail;
	_Atomic bool stop;
	_Alignas(64) _Atomic uint32_t head;
	_Atomic bool sleeping;
	xs_isa_ctx ctx;                   /* the thread's interpreter context */
	xs_isa_mtrace mtrace;
	_Alignas(64) pthread_mutex_t lock;
	pthread_cond_t cv;
	pthread_t th;
};

#if defined(__x86_64__) || defined(__i386__)
#define rap_pause() __builtin_ia32_pause()
#else
#define rap_pause() ((void)0)
#endif

/* Spins before the waiting side yields (the model) or sleeps (the thread). */
#define RAP_SPINS 4096

/* The model's thread waiting for the other: spins, then gives up the core. */
static inline void rap_backoff(uint32_t spin)
{
	if (spin < RAP_SPINS)
		rap_pause();
	else
		sched_yield();
}
/* Entries left when a wave's next run is asked for: late enough that the
 * FIFO holds only waves about to need theirs (a wave about to issue its
 * first waits for the FIFO to empty), early enough that the run is made
 * before it is needed. Waves of a uniform kernel ask at nearly the same
 * time: fma_peak's waited for half their runs with 64, a sixth with 192
 * (docs/performance-log.md). */
#define RAP_ASK_LEFT 192

static void *rap_main(void *arg)
{
	xs_gpu_rap *r = arg;
	xs_gpu *g = r->g;
	uint32_t h = atomic_load_explicit(&r->head, memory_order_relaxed);
	for (;;) {
		uint32_t t = atomic_load_explicit(&r->tail, memory_order_acquire);
		for (uint32_t spin = 0; h == t && spin < RAP_SPINS; spin++) {
			rap_pause();
			t = atomic_load_explicit(&r->tail, memory_order_acquire);
		}
		if (h == t) {
			/* Nothing asked: sleep. (sleeping and tail are sequentially
			 * consistent with xs_gpu_rap_request's tail and sleeping, so
			 * one of the two sides sees the other's store.) */
			pthread_mutex_lock(&r->lock);
			atomic_store(&r->sleeping, true);
			while (atomic_load(&r->tail) == h && !atomic_load(&r->stop))
				pthread_cond_wait(&r->cv, &r->lock);
			atomic_store(&r->sleeping, false);
			pthread_mutex_unlock(&r->lock);
			if (atomic_load(&r->tail) == h) /* (stopped, and everything asked is made) */
				break;
			continue;
		}
		uint32_t i = r->q[h & r->qmask];
		r->sums[i] = (xs_gpu_ra_sums){ 0 };
		const xs_gpu_ra_out o = { r->ent[i], r->lines[i], &r->fault[i], &r->sums[i] };
		r->n[i] = (uint8_t)xs_gpu_ra_fill(g, &r->ctx, &g->waves[i], &o);
		atomic_store_explicit(&r->st[i], RAP_DONE, memory_order_release);
		atomic_store_explicit(&r->head, ++h, memory_order_release);
	}
	return NULL;
}

static bool rap_alloc(xs_gpu *g)
{
	const uint32_t nslots = g->nsimd * g->info->wave_slots_per_simd;
	xs_gpu_rap *r = aligned_alloc(_Alignof(xs_gpu_rap), sizeof(*r)); /* (a multiple of it) */
	if (!r)
		return false;
	memset(r, 0, sizeof(*r));
	r->g = g;
	r->nslots = nslots;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cv, NULL);
	uint32_t cap = 1;
	while (cap < nslots)
		cap <<= 1;
	r->qmask = cap - 1;
	r->st = calloc(nslots, sizeof(*r->st));
	r->ent = malloc(nslots * sizeof(*r->ent));
	r->n = calloc(nslots, 1);
	r->fault = calloc(nslots, sizeof(*r->fault));
	r->sums = calloc(nslots, sizeof(*r->sums));
	r->lines = malloc(nslots * sizeof(*r->lines));
	r->q = malloc(cap * sizeof(*r->q));
	r->arena_bytes = (size_t)nslots * XS_GPU_RA_LINES * sizeof(uint64_t);
	void *a = mmap(NULL, r->arena_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
		       0);
	r->arena = a == MAP_FAILED ? NULL : a;
	g->rap = r;
	if (!r->st || !r->ent || !r->n || !r->fault || !r->sums || !r->lines || !r->q || !r->arena) {
		xs_gpu_rap_free(g);
		return false;
	}
	for (uint32_t i = 0; i < nslots; i++)
		r->lines[i] = r->arena + (size_t)i * XS_GPU_RA_LINES;
	return true;
}

/* With the GPU (the waves may hold line buffers of the arena: swapped in). */
void xs_gpu_rap_free(xs_gpu *g)
{
	xs_gpu_rap *r = g->rap;
	if (!r)
		return;
	xs_gpu_rap_stop(g);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->cv);
	if (r->arena)
		munmap(r->arena, r->arena_bytes);
	free((void *)r->st);
	free(r->ent);
	free(r->n);
	free(r->fault);
	free(r->sums);
	free(r->lines);
	free(r->q);
	free(r);
	g->rap = NULL;
}

bool xs_gpu_rap_start(xs_gpu *g)
{
	if (g->rap_on || g->prof)
		return false;
	for (int i = 0; i < XS_GPU_MAX_ACTIVE; i++)
		if (xs_gpu_disp_live(g, i) && g->disp[i].draw)
			return false;
	if (!g->rap && !rap_alloc(g))
		return false;
	xs_gpu_rap *r = g->rap;
	/* The thread's own context, sharing the predecode cache: while it
	 * runs, the model's thread interprets nothing. */
	r->ctx = (xs_isa_ctx){ .vm = g->vm, .icache = g->ctx.icache, .mtrace = &r->mtrace };
	atomic_store(&r->stop, false);
	atomic_store(&r->sleeping, false);
	if (pthread_create(&r->th, NULL, rap_main, r))
		return false;
	g->rap_on = true;
	return true;
}

void xs_gpu_rap_stop(xs_gpu *g)
{
	xs_gpu_rap *r = g->rap;
	if (!g->rap_on)
		return;
	pthread_mutex_lock(&r->lock);
	atomic_store(&r->stop, true);
	pthread_cond_signal(&r->cv);
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->th, NULL);
	g->rap_on = false;
}

static void rap_request(xs_gpu *g, xs_gpu_wave *gw)
{
	xs_gpu_rap *r = g->rap;
	uint32_t i = (uint32_t)(gw - g->waves);
	uint32_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);
	/* (at most one request per slot is outstanding: the FIFO never fills) */
	atomic_store_explicit(&r->st[i], RAP_ASKED, memory_order_relaxed);
	r->q[t & r->qmask] = i;
	atomic_store(&r->tail, t + 1);
	if (atomic_load(&r->sleeping)) {
		pthread_mutex_lock(&r->lock);
		pthread_cond_signal(&r->cv);
		pthread_mutex_unlock(&r->lock);
	}
}

/* The next entries of a wave that took n, asked for while these issue
 * (when RAP_ASK_LEFT are left: ra_stop), unless it stops here. */
static void ask_next(xs_gpu *g, xs_gpu_wave *gw, uint32_t n)
{
	const uint8_t last = gw->ra[n - 1].flags; /* (a run records at least one entry) */
	gw->ra_stop = (uint8_t)n;
	if (g->rap_on && !(last & (XS_GPU_RA_ENDED | XS_GPU_RA_BARRIER | XS_GPU_RA_FAULT | XS_GPU_RA_PARK))) {
		if (n > RAP_ASK_LEFT)
			gw->ra_stop = (uint8_t)(n - RAP_ASK_LEFT);
		else
			rap_request(g, gw);
	}
}

void xs_gpu_rap_take(xs_gpu *g, xs_gpu_wave *gw)
{
	xs_gpu_rap *r = g->rap;
	uint32_t i = (uint32_t)(gw - g->waves);
	if (atomic_load_explicit(&r->st[i], memory_order_acquire) == RAP_NONE) {
		/* Not asked for (the wave's first entries, or its first after a
		 * barrier): made here, once the thread has made every entry asked
		 * for before, so in the same order as there. */
		for (uint32_t spin = 0; g->rap_on && atomic_load_explicit(&r->head, memory_order_acquire) !=
							   atomic_load_explicit(&r->tail, memory_order_relaxed);
		     spin++)
			rap_backoff(spin);
		xs_gpu_run_ahead(g, gw);
		ask_next(g, gw, gw->ra_n);
		return;
	}
	for (uint32_t spin = 0; atomic_load_explicit(&r->st[i], memory_order_acquire) != RAP_DONE; spin++)
		rap_backoff(spin);
	uint32_t n = r->n[i];
	memcpy(gw->ra, r->ent[i], n * sizeof(gw->ra[0]));
	uint64_t *lines = gw->ra_lines;
	gw->ra_lines = r->lines[i];
	r->lines[i] = lines;
	const uint8_t last = gw->ra[n - 1].flags; /* (a run records at least one entry) */
	if (last & XS_GPU_RA_FAULT)
		gw->ra_fault = r->fault[i];
	xs_gpu_ra_sums_add(&g->disp[gw->disp_slot].r->ctr, &r->sums[i]);
	gw->ra_head = 0;
	gw->ra_line = 0;
	gw->ra_n = (uint8_t)n;
	atomic_store_explicit(&r->st[i], RAP_NONE, memory_order_relaxed);
	ask_next(g, gw, n);
}

void xs_gpu_rap_ask_next(xs_gpu *g, xs_gpu_wave *gw)
{
	gw->ra_stop = gw->ra_n;
	if (g->rap_on) /* (else the thread stopped since: the model's thread makes them) */
		rap_request(g, gw);
}

void xs_gpu_rap_discard(xs_gpu *g)
{
	xs_gpu_rap *r = g->rap;
	if (!r)
		return;
	xs_gpu_rap_stop(g);
	for (uint32_t i = 0; i < r->nslots; i++)
		atomic_store_explicit(&r->st[i], RAP_NONE, memory_order_relaxed);
}
