/*
 * Running waves: the functional loop and the timing model. Both drive the
 * same interpreter; all cost accounting is here, around xs_isa_run, never in
 * instruction bodies.
 *
 * Functional: each SIMD has an issue-count clock (one cycle per wave32
 * instruction, two per wave64); the SIMD with the lowest clock runs next,
 * XS_QUANTUM instructions at a time.
 *
 * Timing (execution-driven, deterministic): waves issue one instruction at a
 * time in order of (ready cycle, launch order). Per SIMD one instruction per
 * pipe per cycle (VALU, SALU, SMEM, LDS, VMEM, branch: the RDNA whitepaper's
 * issue model, docs/hardware.md section 8); wave64 VALU takes two passes; dependent VALU
 * waits for the producer's latency; s_waitcnt waits for the counted memory
 * operations (vmcnt, vscnt, lgkmcnt) to complete; LDS shares a bus per CU
 * (CU mode) or per WGP (WGP mode) of 128 B/clock (SPEC S3.6); vector memory
 * shares the DRAM channel at the machine's bandwidth. Latencies and rates
 * come from the device-info table.
 *
 * The interpreter runs each wave up to XS_GPU_RA instructions ahead of its
 * issue (run_ahead), recording per instruction what the model needs: class,
 * s_waitcnt limits, VALU dependency, LDS bytes, cache lines touched, branch
 * taken, end/barrier/fault. The model then issues these entries in the same
 * order and at the same cycles as if each instruction ran at its issue,
 * since a wave's results depend only on its program order as long as it
 * reads nothing another wave writes except across a barrier (the run stops
 * at one). What moves earlier is when other waves or the CP can see its
 * stores: waves that communicate otherwise (atomics' returned values, spin
 * flags) see a different, still legal, interleaving.
 */
#include "gpu/xs_gpu_priv.h"
#include "gpu/xs_gpu_occupancy.h"
#include "hw/xs_hw_isa.h"
#include "isa/xs_isa_disasm.h"

#include <stdio.h>
#include <string.h>

#define XS_QUANTUM 512
_Static_assert(XS_QUANTUM < 1 << 13, "a quantum run ahead is recorded in 13 bits (xs_gpu_wave.fa)");

/* ---- heap of waves by (ready, seq) ---------------------------------------- */

static inline bool before(const xs_gpu_heap_ent *a, const xs_gpu_heap_ent *b)
{
	return a->ready < b->ready || (a->ready == b->ready && a->seq < b->seq);
}

static void heap_push(xs_gpu_heap *h, xs_gpu_wave *w)
{
	/* The heap holds at most one entry per wave slot: sized at GPU creation. */
	xs_gpu_heap_ent e = { w->ready, w->seq, w };
	uint32_t i = h->n++;
	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (!before(&e, &h->a[p]))
			break;
		h->a[i] = h->a[p];
		i = p;
	}
	h->a[i] = e;
}

static xs_gpu_wave *heap_pop(xs_gpu_heap *h)
{
	if (h->n == 0)
		return NULL;
	xs_gpu_wave *top = h->a[0].w;
	xs_gpu_heap_ent last = h->a[--h->n];
	uint32_t i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && before(&h->a[c + 1], &h->a[c]))
			c++;
		if (!before(&h->a[c], &last))
			break;
		h->a[i] = h->a[c];
		i = c;
	}
	if (h->n)
		h->a[i] = last;
	return top;
}

/* ---- event queue: timing wheel + overflow heap ------------------------------ */

static void wheel_append(xs_gpu *g, xs_gpu_wave *w)
{
	uint32_t b = (uint32_t)(w->ready % XS_GPU_WHEEL), id = (uint32_t)(w - g->waves) + 1;
	g->ev_next[id - 1] = 0;
	if (g->wheel_tail[b])
		g->ev_next[g->wheel_tail[b] - 1] = id;
	else
		g->wheel_head[b] = id;
	g->wheel_tail[b] = id;
	g->wheel_n++;
}

/* In line in this file's timing loop (a push and a pop per issue, 2.8 M
 * of each in scratch_chase: their calls were a sixth of their cost);
 * xs_gpu_evq_push and xs_gpu_evq_pop for the rest of the GPU. */
static inline void evq_push(xs_gpu *g, xs_gpu_wave *w)
{
	if (w->ready < g->wheel_cur)
		w->ready = g->wheel_cur;
	if (w->ready - g->wheel_cur < XS_GPU_WHEEL)
		wheel_append(g, w);
	else
		heap_push(&g->heap, w);
}

/* Moves overflow waves that came within the wheel's reach into it. */
static inline void wheel_refill(xs_gpu *g)
{
	while (g->heap.n && g->heap.a[0].ready < g->wheel_cur + XS_GPU_WHEEL)
		wheel_append(g, heap_pop(&g->heap));
}

/* The next wave to issue, or NULL. Thousands of waves are resident and the
 * model switches wave at every issue, so their bookkeeping is cold: the
 * first host lines of the two waves after it in the bucket are prefetched.
 * (Prefetching what the next wave's line points at, its run-ahead entry and
 * lines, needs that line loaded here: where issues are cheap, fma_peak, the
 * load stalled every pop and halved the timing mode's speed.) */
static inline xs_gpu_wave *evq_pop(xs_gpu *g)
{
	if (!g->wheel_n) {
		if (!g->heap.n)
			return NULL;
		g->wheel_cur = g->heap.a[0].ready;
		wheel_refill(g);
	}
	for (;;) {
		uint32_t b = (uint32_t)(g->wheel_cur % XS_GPU_WHEEL);
		uint32_t id = g->wheel_head[b];
		if (id) {
			uint32_t n1 = g->ev_next[id - 1];
			g->wheel_head[b] = n1;
			if (!n1)
				g->wheel_tail[b] = 0;
			g->wheel_n--;
			if (n1) {
				uint32_t n2 = g->ev_next[n1 - 1];
				__builtin_prefetch(&g->waves[n1 - 1]);
				if (n2)
					__builtin_prefetch(&g->waves[n2 - 1]);
			}
			return &g->waves[id - 1];
		}
		g->wheel_cur++;
		if (g->heap.n)
			wheel_refill(g);
	}
}

void xs_gpu_evq_push(xs_gpu *g, xs_gpu_wave *w)
{
	evq_push(g, w);
}

xs_gpu_wave *xs_gpu_evq_pop(xs_gpu *g)
{
	return evq_pop(g);
}

static void evq_clear(xs_gpu *g)
{
	memset(g->wheel_head, 0, sizeof(g->wheel_head));
	memset(g->wheel_tail, 0, sizeof(g->wheel_tail));
	g->wheel_n = 0;
	g->heap.n = 0;
}

/* ---- reports ----------------------------------------------------------------- */

/* "wave 0 of group (0,0,0) of dispatch 1 on queue 0, SE0 SA0 CU3 SIMD1 slot 2" */
static int wave_place(const xs_gpu *g, const xs_gpu_wave *gw, char *buf, size_t n)
{
	const xs_gpu_cu *c = &g->cu[gw->simd / g->info->simds_per_cu];
	const xs_gpu_group *grp = gw->group;
	return snprintf(buf, n, "wave %u of group (%u,%u,%u) of dispatch %u on queue %u, SE%u SA%u CU%u SIMD%u slot %u",
			gw->w.wave_in_group, grp->id[0], grp->id[1], grp->id[2], grp->disp->id, grp->disp->queue,
			c->se, c->sa % g->info->num_sa_per_se, c->cu_in_sa, gw->simd % g->info->simds_per_cu,
			gw->slot);
}

/* The instruction at pc as llvm-objdump prints it, or "" if not in memory. */
static void inst_text(const xs_gpu *g, uint64_t pc, char *buf, size_t n)
{
	uint32_t words[5] = { 0 };   /* the longest: MIMG with 3 NSA address dwords */
	size_t nw = 5;
	while (nw && !xs_vm_read(g->vm, pc, words, nw * 4, NULL))
		nw--;
	buf[0] = 0;
	if (nw) {
		xs_disasm_result r;
		xs_isa_disasm(words, nw, pc, NULL, buf, n, &r);
	}
}

void xs_gpu_fault_report(xs_gpu *g, xs_gpu_wave *gw, xs_err *e)
{
	static const char *const kind[] = {
		[XS_FAULT_NONE] = "fault", [XS_FAULT_VM] = "VM fault", [XS_FAULT_ILLEGAL] = "illegal instruction",
		[XS_FAULT_UNIMPLEMENTED] = "unimplemented instruction", [XS_FAULT_LDS] = "LDS fault",
		[XS_FAULT_WATCHDOG] = "watchdog: the wave ran past its instruction budget",
		[XS_FAULT_HANG] = "hang", [XS_FAULT_HOST_MEMORY] = "host out of memory",
	};
	const xs_fault *f = &g->ctx.fault;
	char addr[400] = "", place[160];
	if (f->kind == XS_FAULT_VM) {
		char where[340];
		xs_vm_describe(g->vm, f->addr, where, sizeof(where));
		snprintf(addr, sizeof(addr), " at address 0x%llx (%s)", (unsigned long long)f->addr, where);
	} else if (f->kind == XS_FAULT_LDS) {
		snprintf(addr, sizeof(addr), " at LDS address 0x%llx", (unsigned long long)f->addr);
	}
	wave_place(g, gw, place, sizeof(place));
	xs_err_set(e, XS_E_DEVICE_REMOVED, "device removed: %s%s, PC 0x%llx (%s); %s, after %llu instructions, cycle %llu",
		   kind[f->kind < XS_ARRAY_SIZE(kind) && kind[f->kind] ? f->kind : 0], addr, (unsigned long long)f->pc,
		   f->what[0] ? f->what : "?", place, (unsigned long long)gw->w.insts, (unsigned long long)g->now);
}

/* Every dispatch in flight ends where it is and its waves leave the GPU
 * (device removed). */
void xs_gpu_abandon_all(xs_gpu *g)
{
	xs_gpu_rap_discard(g);
	for (int i = 0; i < XS_GPU_MAX_ACTIVE; i++)
		if (xs_gpu_disp_live(g, i))
			xs_gpu_disp_finish(g, &g->disp[i]);
	xs_gpu_spi_evict_all(g);
	evq_clear(g);
}

/* A fault removes the device: every dispatch in flight is abandoned. */
xs_status xs_gpu_remove_device(xs_gpu *g, xs_gpu_wave *gw, xs_err *e)
{
	xs_gpu_rap_stop(g); /* (the report reads the waves) */
	xs_gpu_disp *bad = gw->group->disp;
	if (g->ctx.fault.kind == XS_FAULT_LDS && gw->group->lds_missing) {
		/* no fault of the shader's: its group's LDS found no host memory */
		g->ctx.fault.kind = XS_FAULT_HOST_MEMORY;
		snprintf(g->ctx.fault.what, sizeof(g->ctx.fault.what), "no host memory for the group's LDS");
	}
	bool oom = g->ctx.fault.kind == XS_FAULT_HOST_MEMORY;
	bad->r->fault = g->ctx.fault;
	bad->r->wave_insts += gw->w.insts;
	xs_gpu_fault_report(g, gw, e);
	xs_gpu_abandon_all(g);
	if (oom)
		e->status = XS_E_OUT_OF_MEMORY;
	return oom ? XS_E_OUT_OF_MEMORY : XS_E_DEVICE_REMOVED;
}

static xs_status no_progress(xs_gpu *g, xs_err *e)
{
	xs_gpu_rap_stop(g);
	uint32_t resident = g->resident;
	char why[600];
	if (g->host_oom) {
		/* a draw dropped work for want of host memory (xs_gpu_draw.c): it
		 * never completes, and the device goes with E_OUTOFMEMORY */
		g->host_oom = false;
		for (int i = 0; i < XS_GPU_MAX_ACTIVE; i++)
			if (xs_gpu_disp_live(g, i))
				g->disp[i].r->fault = (xs_fault){ .kind = XS_FAULT_HOST_MEMORY, .what = "host out of memory" };
		xs_gpu_abandon_all(g);
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "device removed: a draw's pixel-shader waves found no host memory");
	}
	if (g->draw_ops && g->draw_ops->diagnose(g, why, sizeof(why))) {
		for (int i = 0; i < XS_GPU_MAX_ACTIVE; i++)
			if (xs_gpu_disp_live(g, i))
				g->disp[i].r->fault = (xs_fault){ .kind = XS_FAULT_HANG, .what = "deadlock (SPEC S4.2)" };
		xs_gpu_abandon_all(g);
		return xs_err_set(e, XS_E_DEVICE_REMOVED, "device removed: %s", why);
	}
	for (int i = 0; i < XS_GPU_MAX_ACTIVE; i++)
		if (xs_gpu_disp_live(g, i))
			g->disp[i].r->fault = (xs_fault){ .kind = XS_FAULT_HANG, .what = "no wave can make progress" };
	xs_gpu_abandon_all(g);
	return xs_err_set(e, XS_E_DEVICE_REMOVED,
			  "device removed: no wave can make progress (%u resident) and thread groups are waiting "
			  "to launch", resident);
}

/* Removes the device for a dispatch that stopped making progress (or ran
 * past its replay bounds): the report says why and lists the dispatch's
 * resident waves with their PCs and instructions, as a driver's hang dump
 * does. */
static xs_status hang(xs_gpu *g, xs_gpu_disp *disp, const char *why, xs_err *e)
{
	xs_gpu_rap_stop(g); /* (the report reads the waves) */
	char waves[640];
	size_t len = 0;
	uint32_t n = 0, shown = 0;
	const xs_gpu_wave *first = NULL;
	for (uint32_t s = 0; s < g->nsimd; s++)
		for (uint32_t k = 0; k < g->info->wave_slots_per_simd; k++) {
			const xs_gpu_wave *gw = g->simd[s].wave[k];
			if (!gw || gw->group->disp != disp)
				continue;
			disp->r->wave_insts += gw->w.insts;
			first = first ? first : gw;
			if (n++ >= 3 || len + 200 >= sizeof(waves))
				continue;
			char place[160], inst[XS_DISASM_TEXT_MAX];
			wave_place(g, gw, place, sizeof(place));
			inst_text(g, gw->w.pc, inst, sizeof(inst));
			len += (size_t)snprintf(waves + len, sizeof(waves) - len, "%s%s at PC 0x%llx `%.60s` after %llu instructions",
						shown++ ? "; " : "", place, (unsigned long long)gw->w.pc, inst,
						(unsigned long long)gw->w.insts);
		}
	if (n > shown)
		snprintf(waves + len, sizeof(waves) - len, "; and %u more", n - shown);
	disp->r->fault = (xs_fault){ .kind = XS_FAULT_HANG, .pc = first ? first->w.pc : 0 };
	snprintf(disp->r->fault.what, sizeof(disp->r->fault.what), "no forward progress");
	xs_err_set(e, XS_E_DEVICE_REMOVED, "device removed: %s; %u of its waves resident: %s", why, n,
		   n ? waves : "none");
	xs_gpu_abandon_all(g);
	return XS_E_DEVICE_REMOVED;
}

/* Cycles from then to now, 0 when then is later. In functional mode g->now
 * is the clock of the SIMD that runs (run_functional takes the one furthest
 * behind), so a group another SIMD completed may carry a later cycle than
 * now: the plain difference wrapped around to 2^64 and a healthy dispatch
 * of many groups was removed as hung. */
static uint64_t cycles_since(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

xs_status xs_gpu_watch(xs_gpu *g, xs_err *e)
{
	g->watch_count = 0;
	if (g->interrupt) {
		g->interrupt = 0;
		uint64_t launched = 0, total = 0;
		for (int i = 0; i < XS_GPU_MAX_ACTIVE; i++)
			if (xs_gpu_disp_live(g, i)) {
				launched += g->disp[i].next;
				total += g->disp[i].total;
			}
		xs_gpu_abandon_all(g);
		return xs_err_set(e, XS_E_INTERRUPTED,
				  "interrupted: stopped by the host at cycle %llu, %llu of %llu thread groups launched",
				  (unsigned long long)g->now, (unsigned long long)launched, (unsigned long long)total);
	}
	double host = g->hang_host_s > 0 ? xs_now_seconds() : 0;
	for (int i = 0; i < XS_GPU_MAX_ACTIVE; i++) {
		xs_gpu_disp *d = &g->disp[i];
		if (!xs_gpu_disp_live(g, i))
			continue;
		const xs_gpu_dispatch_result *r = d->r;
		char why[300];
		if (r->limit_waves && r->waves_launched > r->limit_waves) {
			snprintf(why, sizeof(why), "the replay left its recording: dispatch %u on queue %u launched %llu "
				 "waves, more than the %llu recorded", d->id, d->queue, (unsigned long long)r->waves_launched,
				 (unsigned long long)r->limit_waves);
			return hang(g, d, why, e);
		}
		if (r->limit_cycles && cycles_since(g->now, r->start_cycle) > r->limit_cycles) {
			snprintf(why, sizeof(why), "the replay left its recording: dispatch %u on queue %u ran %llu "
				 "cycles, more than twice its recorded ones", d->id, d->queue,
				 (unsigned long long)cycles_since(g->now, r->start_cycle));
			return hang(g, d, why, e);
		}
		if (d->groups_live == 0) {
			d->host_stamp = host; /* nothing of it on the GPU: nothing owed */
			continue;
		}
		uint64_t idle = cycles_since(g->now, d->progress_cycle);
		if (g->hang_cycles && idle > g->hang_cycles) {
			snprintf(why, sizeof(why), "hang: no thread group of dispatch %u on queue %u completed for %.3f ms "
				 "of simulated GPU time (%llu cycles at %u MHz: the GPU-time limit)", d->id, d->queue,
				 (double)idle / (g->info->sclk_mhz * 1e3), (unsigned long long)idle, g->info->sclk_mhz);
			return hang(g, d, why, e);
		}
		if (g->hang_host_s > 0) {
			if (d->groups_done != d->host_seen_done) {
				d->host_seen_done = d->groups_done;
				d->host_stamp = host;
			} else if (host - d->host_stamp > g->hang_host_s) {
				snprintf(why, sizeof(why), "hang: no thread group of dispatch %u on queue %u completed for "
					 "%.1f s of host time (the host-time limit; %.3f ms of simulated GPU time passed)",
					 d->id, d->queue, host - d->host_stamp,
					 (double)idle / (g->info->sclk_mhz * 1e3));
				return hang(g, d, why, e);
			}
		}
	}
	return XS_OK;
}

static bool watchdog_hit(xs_gpu *g, xs_gpu_wave *gw)
{
	if (gw->w.insts < g->watchdog)
		return false;
	g->ctx.fault = (xs_fault){ .kind = XS_FAULT_WATCHDOG, .pc = gw->w.pc };
	snprintf(g->ctx.fault.what, sizeof(g->ctx.fault.what), "budget %llu",
		 (unsigned long long)g->watchdog);
	return true;
}

#define XS_PROGRESS_EVERY (1u << 22) /* wave instructions between progress calls */

static void progress(xs_gpu *g, uint64_t insts)
{
	g->progress_count += insts;
	if (!g->progress || g->progress_count < XS_PROGRESS_EVERY)
		return;
	g->progress_count = 0;
	uint64_t launched = 0, total = 0;
	for (int i = 0; i < XS_GPU_MAX_ACTIVE; i++)
		if (xs_gpu_disp_live(g, i)) {
			launched += g->disp[i].next;
			total += g->disp[i].total;
		}
	g->progress(g->progress_user, launched, total, g->now);
}

/* ---- functional ------------------------------------------------------------ */

static xs_gpu_wave *pick_wave(xs_gpu *g, xs_gpu_simd **out_simd)
{
	/* The lowest clock (the first SIMD of equals) among SIMDs with a READY
	 * wave. The scan runs once per quantum over every SIMD: the best clock
	 * is kept in a local (no reload through best per SIMD). */
	xs_gpu_simd *best = NULL;
	uint64_t best_clock = UINT64_MAX;
	const uint32_t nslots = g->info->wave_slots_per_simd, nsimd = g->nsimd;
	for (uint32_t s = 0; s < nsimd; s++) {
		xs_gpu_simd *sm = &g->simd[s];
		if (!sm->nwaves || sm->clock >= best_clock)
			continue;
		for (uint32_t k = 0; k < nslots; k++)
			if (sm->wave[k] && sm->wave[k]->w.status == XS_WAVE_READY) {
				best = sm;
				best_clock = sm->clock;
				break;
			}
	}
	if (!best)
		return NULL;
	*out_simd = best;
	for (uint32_t i = 1; i <= nslots; i++) {
		uint32_t k = (best->rr + i) % nslots;
		xs_gpu_wave *gw = best->wave[k];
		if (gw && gw->w.status == XS_WAVE_READY) {
			best->rr = k;
			return gw;
		}
	}
	return NULL;
}

/* The functional pick without a scan of every SIMD per quantum (a streaming
 * wave is one quantum). key[s] is what pick_wave compares: SIMD s's clock
 * when it has a READY wave, else UINT64_MAX; the pick is the lowest key,
 * the first SIMD of equals, as pick_wave's scan. ready[s] has bit k set
 * when slot k holds a READY wave, so that neither the keys nor the round
 * robin in the SIMD read the records of waves that do not run. Between two
 * picks only the picked wave acts: it runs (its SIMD's clock and its
 * status), it may end (its slot frees, and a launch may fill it) or meet a
 * barrier (releasing its group's waves), and a launch places waves in some
 * slots (each marks its slot in g->slots_started). So after a quantum the
 * wave's slot and SIMD, its group's pool when it was released, and the
 * slots that started waves are looked at again. The keys are the leaves of
 * a tournament tree: node i holds the lowest key under it (key[i]) and
 * its leaf (win[i]; the left one of equals, so the lowest SIMD), leaves at
 * PICK_LEAVES + s, the root at 1; a key's change replays its path to the
 * root. callgrind, stream_copy (65,536 one-quantum waves): the loop and pick
 * 59.5 M -> 16 M host instructions (the linear min search over 104 keys and
 * the all-keys pass after every launch). A node keeps its winner's key, not
 * only the leaf: the replay then reads each sibling's key straight away, the
 * seven loads independent of each other, where reading the key through the
 * leaf's number made two dependent loads a level (perf: the replay's
 * compares were a third of the functional loop's samples). */
#define PICK_LEAVES 128
#define PICK_MAX_SLOTS 32

typedef struct pick_cache {
	uint64_t key[2 * PICK_LEAVES]; /* SIMD s's at PICK_LEAVES + s */
	uint32_t ready[PICK_LEAVES];
	uint8_t win[2 * PICK_LEAVES];
} pick_cache;

static inline bool slot_ready(const xs_gpu_simd *sm, uint32_t k)
{
	return sm->wave[k] && sm->wave[k]->w.status == XS_WAVE_READY;
}

/* Node i's key and winner from its children's. */
static inline void pick_node(pick_cache *pc, uint32_t i)
{
	uint32_t c = pc->key[2 * i] <= pc->key[2 * i + 1] ? 2 * i : 2 * i + 1;
	pc->key[i] = pc->key[c];
	pc->win[i] = pc->win[c];
}

/* SIMD s's key from its ready slots, and its path in the tree: at each
 * node the sibling wins when its key is lower, or equal and it is the left
 * child (as pick_node). */
static void pick_key(xs_gpu *g, pick_cache *pc, uint32_t s)
{
	uint64_t k = pc->ready[s] ? g->simd[s].clock : UINT64_MAX;
	if (k == pc->key[PICK_LEAVES + s])
		return;
	pc->key[PICK_LEAVES + s] = k;
	uint8_t w = (uint8_t)s;
	for (uint32_t i = PICK_LEAVES + s; i > 1; i /= 2) {
		uint64_t sk = pc->key[i ^ 1];
		if (sk < k || (sk == k && (i & 1))) {
			k = sk;
			w = pc->win[i ^ 1];
		}
		pc->key[i / 2] = k;
		pc->win[i / 2] = w;
	}
}

/* Slot k of SIMD s looked at again. */
static inline void pick_slot(const xs_gpu *g, pick_cache *pc, uint32_t s, uint32_t k)
{
	if (slot_ready(&g->simd[s], k))
		pc->ready[s] |= 1u << k;
	else
		pc->ready[s] &= ~(1u << k);
}

/* Every SIMD's slots and key (the ones past nsimd never win), and the tree. */
static void pick_init(xs_gpu *g, pick_cache *pc)
{
	for (uint32_t s = 0; s < PICK_LEAVES; s++) {
		pc->ready[s] = 0;
		if (s < g->nsimd)
			for (uint32_t k = 0; k < g->info->wave_slots_per_simd; k++)
				pick_slot(g, pc, s, k);
		pc->key[PICK_LEAVES + s] = pc->ready[s] ? g->simd[s].clock : UINT64_MAX;
		pc->win[PICK_LEAVES + s] = (uint8_t)s;
	}
	for (uint32_t i = PICK_LEAVES - 1; i >= 1; i--)
		pick_node(pc, i);
	memset(g->simd_started, 0, sizeof(g->simd_started));
	memset(g->slots_started, 0, sizeof(g->slots_started));
}

/* The slot round robin in SIMD s takes next, as pick_wave's: the first
 * ready one after rr, else the first one (rr itself included, last). */
static inline uint32_t pick_rr(const pick_cache *pc, const xs_gpu_simd *sm, uint32_t s)
{
	uint64_t m = pc->ready[s], after = m >> (sm->rr + 1);
	return after ? sm->rr + 1 + (uint32_t)__builtin_ctzll(after) : (uint32_t)__builtin_ctzll(m);
}

static xs_gpu_wave *pick_cached(xs_gpu *g, pick_cache *pc, xs_gpu_simd **out_simd)
{
	for (uint32_t j = 0; j < XS_ARRAY_SIZE(g->simd_started); j++) {
		for (uint64_t m = g->simd_started[j]; m; m &= m - 1) {
			uint32_t s = j * 8 * (uint32_t)sizeof(g->simd_started[0]) + (uint32_t)__builtin_ctzll(m);
			for (uint32_t b = g->slots_started[s]; b; b &= b - 1)
				pick_slot(g, pc, s, (uint32_t)__builtin_ctz(b));
			g->slots_started[s] = 0;
			pick_key(g, pc, s);
		}
		g->simd_started[j] = 0;
	}
	uint32_t bi = pc->win[1];
	if (pc->key[1] == UINT64_MAX)
		return NULL;
	xs_gpu_simd *sm = &g->simd[bi];
	*out_simd = sm;
	sm->rr = pick_rr(pc, sm, bi);
	return sm->wave[sm->rr];
}

/* Asks the host for a wave's first nrows VGPR rows (row_bytes each), to be
 * written: its rows are cold whenever every resident wave ran since it did. */
static inline void prefetch_rows(const uint32_t (*rows)[XS_MAX_LANES], uint32_t nrows, uint32_t row_bytes)
{
	for (uint32_t r = 0; r < nrows; r++)
		for (uint32_t b = 0; b < row_bytes; b += XS_HOST_LINE)
			__builtin_prefetch((const char *)rows[r] + b, 1, 3);
}

/* The wave the next pick will likely take, fetched into the host's caches
 * while the picked one retires or goes on and the next pick is made: with
 * 1,664 waves resident, a wave's record and VGPR rows have left them since
 * it last ran (or launched), and its first status read, register writes
 * (xs_gpu_spi_wave_regs) and row loads each waited for memory. Issued after
 * the picked wave's quantum, the prefetches do not compete with its own
 * accesses (best of 6, stream_copy 0.0311 -> 0.0291 s against issuing them
 * before). The guess is the lowest key but SIMD s's (its clock moves on by
 * the quantum), else s itself; then that SIMD's round robin. Only a guess:
 * nothing but the host's caches depends on it. The rows are where
 * xs_gpu_create puts wave slot i's (vgpr_arena + i * XS_MAX_VGPRS), as
 * many as the picked wave has (usually the same kernel). When cur's quantum
 * was taken from its run-ahead (taken), so likely is next's: then only the
 * lines taking it reads (its count, first quanta and fields). Nothing of
 * next is read here: a load of its cold line would wait. */
static void pick_prefetch(const xs_gpu *g, const pick_cache *pc, uint32_t s, const xs_gpu_wave *cur, bool taken)
{
	uint32_t best = s;
	uint64_t best_key = UINT64_MAX;
	for (uint32_t i = PICK_LEAVES + s; i > 1; i /= 2) {
		uint32_t c = pc->win[i ^ 1];
		if (pc->key[i ^ 1] < best_key || (pc->key[i ^ 1] == best_key && c < best)) {
			best_key = pc->key[i ^ 1];
			best = c;
		}
	}
	if (best_key == UINT64_MAX)
		best = s;
	const xs_gpu_simd *sm = &g->simd[best];
	if (!pc->ready[best])
		return;
	const xs_gpu_wave *next = sm->wave[pick_rr(pc, sm, best)];
	if (!next || next == cur)
		return;
	if (taken) { /* cur's quantum was run ahead, so likely next's: its status and first quanta */
		__builtin_prefetch(&next->fa_n, 1, 3);
		__builtin_prefetch(&next->fa[0], 1, 3);
		__builtin_prefetch(&next->w, 1, 3);
		return;
	}
	/* the record's lines up to about s15 (its fields, the user and system
	 * SGPRs) and EXEC's: the set-up (xs_gpu_spi_wave_regs) only stores to
	 * the SGPRs between, and a store waits for no line, while prefetching
	 * them too took fill buffers (best of 8, stream_copy 0.0288 -> 0.0268 s,
	 * vadd 0.0180 -> 0.0164 s) */
	for (const char *p = (const char *)&next->w; p <= (const char *)&next->w.s[15]; p += XS_HOST_LINE)
		__builtin_prefetch(p, 1, 3);
	__builtin_prefetch(&next->w.s[XS_SREG_EXEC_LO], 1, 3);
	__builtin_prefetch(&next->group, 0, 3);
	prefetch_rows(g->vgpr_arena + (size_t)(next - g->waves) * XS_MAX_VGPRS, XS_MIN(cur->w.nvgpr, 16u),
		      cur->w.lanes * 4);
}

/* What the quantum of the wave in slot k of SIMD s may have changed: the
 * slot (the wave's status; it may have ended and a launch filled the slot
 * with a wave it marks in slots_started), s's clock, and when the wave's
 * group was released from a barrier (by its arrival or its end), the slots
 * of the group's waves: a release changes no other wave's status. (Every
 * slot of the group's pool was looked at before: 64 records, most of other
 * groups and cold, at each of a tiled kernel's barriers. A group that ended
 * and was launched again at once lists its new waves, which slots_started
 * has anyway; looking again at a slot is always exact.) */
static void pick_touched(xs_gpu *g, pick_cache *pc, uint32_t s, uint32_t k, const xs_gpu_group *grp)
{
	pick_slot(g, pc, s, k);
	pick_key(g, pc, s);
	for (uint32_t i = 0; grp && i < grp->nwaves; i++) {
		const xs_gpu_wave *w = grp->waves[i];
		pick_slot(g, pc, w->simd, w->slot);
		pick_key(g, pc, w->simd);
	}
}

/* A group's waves as the run-ahead has them. */
typedef struct ahead_grp {
	xs_gpu *g;
	xs_isa_ctx *ctx;
	xs_gpu_group *grp;
	bool record;
	uint32_t nw;
	uint8_t st[XS_GPU_MAX_WAVES_PER_GROUP];   /* each wave's own status, ahead of the scheduler's */
	uint8_t nq[XS_GPU_MAX_WAVES_PER_GROUP];   /* its quanta run */
	xs_wave *wv[XS_GPU_MAX_WAVES_PER_GROUP];  /* where each runs */
	uint64_t qs[XS_GPU_MAX_WAVES_PER_GROUP];  /* its insts when its current quantum began */
	uint64_t run[XS_GPU_MAX_WAVES_PER_GROUP]; /* that quantum's instructions run in lockstep (not in insts yet) */
} ahead_grp;

/* Wave i's quantum: what xs_isa_run is given (the watchdog's budget may cut it short). */
static inline uint64_t quantum_len(const ahead_grp *a, uint32_t i)
{
	return XS_MIN(a->g->watchdog - a->qs[i], (uint64_t)XS_QUANTUM);
}

/* Wave i's quantum ends with status ws: its count and status recorded. */
static void quantum_end(ahead_grp *a, uint32_t i, xs_wave_status ws)
{
	xs_gpu_wave *gw = a->grp->waves[i];
	xs_wave *w = a->wv[i];
	w->insts += a->run[i];
	a->run[i] = 0;
	a->nq[i]++;
	if (a->record)
		gw->fa[gw->fa_n++] = (uint16_t)((w->insts - a->qs[i]) << 3 | (uint32_t)ws);
	a->qs[i] = w->insts;
	a->st[i] = (uint8_t)ws;
}

/* Runs wave i's quantum, or what lockstep left of it, on its own. */
static xs_wave_status quantum_run(ahead_grp *a, uint32_t i)
{
	xs_gpu_wave *gw = a->grp->waves[i];
	xs_wave *w = a->wv[i];
	xs_wave_status ws = XS_WAVE_FAULT;
	if (a->qs[i] >= a->g->watchdog) { /* as watchdog_hit */
		gw->ra_fault = (xs_fault){ .kind = XS_FAULT_WATCHDOG, .pc = w->pc };
		snprintf(gw->ra_fault.what, sizeof(gw->ra_fault.what), "budget %llu",
			 (unsigned long long)a->g->watchdog);
		w->status = XS_WAVE_FAULT;
	} else {
		ws = xs_isa_run(a->ctx, w, quantum_len(a, i) - a->run[i]);
		if (ws == XS_WAVE_FAULT)
			gw->ra_fault = a->ctx->fault;
	}
	quantum_end(a, i, ws);
	return ws;
}

/* The group's running waves in lockstep while they are at one PC (a step
 * is one instruction of each, xs_isa_run_lockstep: one look-up and the
 * same handler back to back), each quantum ending where xs_isa_run would
 * have ended it. Stops when they part, are fewer than two or one has used
 * its budget (the quanta one by one go on from there); false when one
 * faulted, the others' quanta then completed one by one. */
static bool ahead_lockstep(ahead_grp *a)
{
	for (;;) {
		xs_wave *cw[XS_GPU_MAX_WAVES_PER_GROUP];
		uint8_t ci[XS_GPU_MAX_WAVES_PER_GROUP];
		uint64_t crun[XS_GPU_MAX_WAVES_PER_GROUP], steps = UINT64_MAX;
		uint32_t k = 0;
		for (uint32_t i = 0; i < a->nw; i++) {
			if (a->st[i] != XS_WAVE_READY || a->nq[i] >= XS_GPU_FA)
				continue;
			if (a->qs[i] >= a->g->watchdog || (k && a->wv[i]->pc != cw[0]->pc))
				return true;
			steps = XS_MIN(steps, quantum_len(a, i) - a->run[i]);
			crun[k] = a->run[i];
			ci[k] = (uint8_t)i;
			cw[k++] = a->wv[i];
		}
		if (k < 2)
			return true;
		uint32_t f = xs_isa_run_lockstep(a->ctx, cw, k, steps, crun);
		for (uint32_t j = 0; j < k; j++) {
			uint32_t i = ci[j];
			a->run[i] = crun[j];
			if (j == f)
				a->grp->waves[i]->ra_fault = a->ctx->fault;
			if (cw[j]->status != XS_WAVE_READY || a->run[i] == quantum_len(a, i))
				quantum_end(a, i, cw[j]->status);
		}
		if (f < k)
			return false;
	}
}

/* Functional run-ahead. With 1,664 waves resident the pick goes round all
 * of them between two quanta of one wave, so a wave's registers, its
 * scratch and its group's LDS have left the host's caches each time it
 * runs again: a tiled kernel (a quantum between two barriers is ~35
 * instructions) spent about as long waiting for them as executing. So when
 * the scheduler first picks a wave of a group, the whole group runs, each
 * wave quantum after quantum as xs_isa_run would run it (in lockstep while
 * the waves are at one PC: ahead_lockstep), across its barriers (released
 * when every live wave of the group has arrived), until
 * every wave has ended or filled XS_GPU_FA quanta; the scheduler then takes
 * each recorded quantum (its instruction count and status) when it picks
 * the wave, as if it ran it then, and runs the wave itself once they are
 * used up. Cycles, counts and the order of launches and retirements are
 * the same as without; memory sees the group's work earlier (and, in
 * lockstep, its waves' accesses interleaved instruction by instruction). As with the
 * timing model's run-ahead: results are the same whenever no wave reads
 * what another wave writes except across a barrier of its group; waves
 * that do (an atomic's returned value, a flag spun on) see another legal
 * interleaving. A fault stops the group; the device goes when the
 * scheduler reaches the faulting quantum, with the fault kept in ra_fault.
 * Without record (several host threads, xs_gpu_threads.c) nothing is
 * recorded: the waves are left as they ran, for the caller to account. */
void xs_gpu_group_ahead(xs_gpu *g, xs_isa_ctx *ctx, xs_gpu_group *grp, bool record)
{
	const uint32_t nw = grp->nwaves;
	/* Not an initializer: it would zero the arrays for the most waves a
	 * group has, a memset call of 0.9 KiB per group; the loop below sets
	 * them for the group's waves, the only ones read. */
	ahead_grp a;
	a.g = g;
	a.ctx = ctx;
	a.grp = grp;
	a.record = record;
	a.nw = nw;
	/* In stand-ins (g->hot, rows from g->hot_v) when the group's rows fit:
	 * they are in the host's caches from the group before, the slots' are
	 * not, and a wave that ends in the run (a streaming kernel's every wave)
	 * needs its registers no more — cachegrind (2 MB LL), stream_copy:
	 * 3.0 M of the 8.1 M LL misses were the set-up writing cold rows. The
	 * stand-ins are the GPU's: one host thread's (record). */
	const uint32_t nvgpr = grp->waves[0]->w.nvgpr;
	const bool hot = record && nw * nvgpr <= XS_GPU_HOT_ROWS;
	/* the slots' records are cold: their lines read below (the fields before
	 * the SGPRs, the quanta's count) fetched at once, not one wave's after
	 * another's (their loads were a third of the functional loop's samples) */
	for (uint32_t i = 0; i < nw; i++) {
		const xs_gpu_wave *gw = grp->waves[i];
		for (const char *p = (const char *)&gw->w; p < (const char *)gw->w.s; p += XS_HOST_LINE)
			__builtin_prefetch(p, 1, 3);
		__builtin_prefetch((const char *)gw->w.s - 1, 1, 3);
		__builtin_prefetch(&gw->fa_n, 1, 3);
	}
	for (uint32_t i = 0; i < nw; i++) {
		xs_gpu_wave *gw = grp->waves[i];
		xs_wave *w = &gw->w;
		if (hot) {
			w = &g->hot[i];
			memcpy(w, &gw->w, offsetof(xs_wave, s));
			w->v = g->hot_v + (size_t)i * nvgpr;
		}
		xs_gpu_spi_wave_regs(gw, w);
		a.wv[i] = w;
		a.st[i] = XS_WAVE_READY;
		a.nq[i] = 0;
		a.qs[i] = w->insts;
		a.run[i] = 0;
	}
	/* The waves run to their ends, a barrier (released when every live
	 * wave of the group has arrived) or XS_GPU_FA quanta: in lockstep while
	 * they can, each on its own from where they part. */
	bool fault = false;
	for (;;) {
		if (!ahead_lockstep(&a)) {
			fault = true;
			break;
		}
		uint32_t live = 0, waiting = 0;
		for (uint32_t i = 0; i < nw && !fault; i++) {
			while (a.st[i] == XS_WAVE_READY && a.nq[i] < XS_GPU_FA && !fault)
				fault = quantum_run(&a, i) == XS_WAVE_FAULT;
			live += a.st[i] != XS_WAVE_ENDED;
			waiting += a.st[i] == XS_WAVE_BARRIER;
		}
		if (fault || !live || waiting != live)
			break; /* every wave ended, or one ran its quanta */
		for (uint32_t i = 0; i < nw; i++) /* the barrier releases them (xs_isa_run resumes a BARRIER wave) */
			if (a.st[i] == XS_WAVE_BARRIER)
				a.st[i] = XS_WAVE_READY;
	}
	/* A fault stops the group; a quantum begun in lockstep is completed
	 * (the scheduler takes whole quanta, as xs_isa_run would have run them). */
	for (uint32_t i = 0; fault && i < nw; i++)
		if (a.st[i] == XS_WAVE_READY && a.run[i])
			quantum_run(&a, i);
	for (uint32_t i = 0; record && i < nw; i++) {
		xs_gpu_wave *gw = grp->waves[i];
		if (hot) { /* back to the slot: the fields, and the registers unless the wave ended */
			uint32_t(*rows)[XS_MAX_LANES] = gw->w.v;
			const xs_wave *h = a.wv[i];
			memcpy(&gw->w, h, a.st[i] == XS_WAVE_ENDED ? offsetof(xs_wave, s) : sizeof(*h));
			gw->w.v = rows;
			for (uint32_t r = 0; a.st[i] != XS_WAVE_ENDED && r < nvgpr; r++)
				memcpy(rows[r], h->v[r], h->lanes * sizeof(rows[0][0]));
		}
		g->fa_waves += gw->fa_n != 0;
		gw->w.status = XS_WAVE_READY; /* where the scheduler has it; each quantum taken sets its status */
	}
}

/* The next quantum run ahead: its wave instructions, the status it left. */
static uint64_t take_ahead(xs_gpu *g, xs_gpu_wave *gw, xs_wave_status *ws)
{
	uint16_t q = gw->fa[gw->fa_head++];
	if (--gw->fa_n == 0) {
		gw->fa_head = 0;
		g->fa_waves--;
	}
	*ws = (xs_wave_status)(q & 7);
	gw->w.status = *ws;
	if (*ws == XS_WAVE_FAULT)
		g->ctx.fault = gw->ra_fault;
	return q >> 3;
}

static xs_status run_functional(xs_gpu *g, bool until_one, xs_err *e)
{
	uint64_t c0 = g->completions;
	xs_gpu_spi_launch_pending(g);
	/* Draws' waves wake each other (an export taken frees a wave waiting at
	 * exp, wherever it sits): with a draw in flight every pick scans. New
	 * dispatches and draws start between calls (the CP), not inside one. */
	bool cached = g->nsimd <= PICK_LEAVES && g->info->wave_slots_per_simd <= PICK_MAX_SLOTS;
	for (int i = 0; i < XS_GPU_MAX_ACTIVE; i++)
		if (xs_gpu_disp_live(g, i) && g->disp[i].draw)
			cached = false;
	pick_cache pc;
	if (cached)
		pick_init(g, &pc);
	const bool ahead = cached && !g->prof && !g->no_ahead; /* (the profile times instructions one by one) */
	while (xs_gpu_ndisp(g) && !(until_one && g->completions != c0)) {
		if (g->run_stop_at && g->now >= g->run_stop_at)
			break; /* a CP's firmware work ends: it goes on (xs_gpu_execute) */
		xs_gpu_simd *sm;
		xs_gpu_wave *gw = cached ? pick_cached(g, &pc, &sm) : pick_wave(g, &sm);
		if (!gw)
			return no_progress(g, e);
		g->now = sm->clock;
		xs_wave_status ws = XS_WAVE_FAULT;
		uint64_t n;
		if (gw->regs_pending && ahead)
			xs_gpu_group_ahead(g, &g->ctx, gw->group, true);
		bool taken = gw->fa_n != 0;
		if (taken) {
			n = take_ahead(g, gw, &ws);
		} else {
			uint64_t before_insts = gw->w.insts;
			if (gw->regs_pending)
				xs_gpu_spi_wave_regs(gw, &gw->w);
			if (!watchdog_hit(g, gw))
				ws = xs_isa_run(&g->ctx, &gw->w, XS_MIN(g->watchdog - before_insts, (uint64_t)XS_QUANTUM));
			n = gw->w.insts - before_insts;
		}
		if (cached)
			pick_prefetch(g, &pc, (uint32_t)(sm - g->simd), gw, taken);
		sm->clock += n * (gw->w.lanes / 32);
		progress(g, n);
		g->now = sm->clock;
		if (ws == XS_WAVE_FAULT)
			return xs_gpu_remove_device(g, gw, e);
		/* a group's release from its barrier sets at_barrier to 0 */
		const xs_gpu_group *released = NULL;
		if (ws == XS_WAVE_ENDED) {
			xs_gpu_group *grp = gw->group;
			bool waiting = grp->at_barrier != 0;
			xs_gpu_spi_retire(g, gw);
			xs_gpu_spi_launch_pending(g);
			released = waiting && grp->at_barrier == 0 ? grp : NULL;
		} else if (ws == XS_WAVE_BARRIER) {
			xs_gpu_spi_barrier_arrive(g, gw);
			released = gw->group->at_barrier == 0 ? gw->group : NULL;
		} else if (ws != XS_WAVE_READY) {
			released = gw->group; /* (an exp waiting for its sink) */
		}
		if (cached)
			pick_touched(g, &pc, (uint32_t)(sm - g->simd), gw->slot, released);
		/* a quantum is up to XS_QUANTUM instructions: check every few */
		if ((g->watch_count += 64) >= XS_GPU_WATCH_EVERY) {
			xs_status st = xs_gpu_watch(g, e);
			if (st)
				return st;
		}
	}
	return XS_OK;
}

/* ---- timing -------------------------------------------------------------------- */

enum { PIPE_SALU, PIPE_SMEM, PIPE_BRANCH, PIPE_VALU, PIPE_LDS, PIPE_VMEM, PIPE_EXPORT, PIPE_COUNT };
_Static_assert(PIPE_COUNT == XS_GPU_PIPES, "xs_gpu_simd.pipe");

static const uint8_t pipe_of[XS_IC_COUNT] = {
	[XS_IC_SALU] = PIPE_SALU, [XS_IC_SMEM] = PIPE_SMEM, [XS_IC_BRANCH] = PIPE_BRANCH,
	[XS_IC_MSG] = PIPE_SALU, [XS_IC_VALU] = PIPE_VALU, [XS_IC_VALU_TRANS] = PIPE_VALU,
	[XS_IC_VALU_DP] = PIPE_VALU, [XS_IC_LDS] = PIPE_LDS, [XS_IC_VMEM_LOAD] = PIPE_VMEM,
	[XS_IC_VMEM_STORE] = PIPE_VMEM, [XS_IC_VMEM_ATOMIC] = PIPE_VMEM, [XS_IC_EXPORT] = PIPE_EXPORT,
	[XS_IC_INTERNAL] = PIPE_SALU,
};

/* Cycle by which at most `limit` operations of counter k are outstanding;
 * the ones that must complete are dropped. */
static uint64_t cnt_wait(xs_gpu_wave *gw, int k, uint32_t limit)
{
	xs_gpu_cnt *c = &gw->cnt[k];
	uint64_t t = 0;
	while (c->n > limit) {
		t = XS_MAX(t, gw->cnt_done[k][c->head]);
		c->head = (uint8_t)((c->head + 1) % XS_GPU_VMQ);
		c->n--;
	}
	return t;
}

/* Records an operation of counter k completing at `done`; memory
 * operations of one counter complete in order. */
static void cnt_push(xs_gpu_wave *gw, int k, uint64_t now, uint64_t done)
{
	xs_gpu_cnt *c = &gw->cnt[k];
	const uint64_t *d = gw->cnt_done[k];
	while (c->n && d[c->head] <= now) { /* completed: drop */
		c->head = (uint8_t)((c->head + 1) % XS_GPU_VMQ);
		c->n--;
	}
	if (c->n) {
		uint64_t last = d[(c->head + c->n - 1) % XS_GPU_VMQ];
		done = XS_MAX(done, last);
	}
	gw->cnt_done[k][(c->head + c->n) % XS_GPU_VMQ] = done;
	c->n++;
}

/* One DRAM line transfer on the shared channel; returns when it is done. */
static uint64_t dram_line(xs_gpu *g, uint64_t t)
{
	double start = XS_MAX((double)t, g->dram_free);
	g->dram_free = start + g->dram_line_clks;
	return (uint64_t)g->dram_free;
}

/* When a vector memory instruction issued at t completes: each line it
 * touched goes through the CU's L0 (write-through, no allocation on store)
 * and the L2 (write-back); L2 misses and dirty evictions use the DRAM
 * channel. Stores complete when the L2 has them; atomics run at the L2. */
static uint64_t vmem_cost(xs_gpu *g, const xs_gpu_wave *gw, uint32_t iclass, uint64_t t, const uint64_t *lines,
			  uint32_t nlines, xs_gpu_counters *ctr)
{
	const xs_devinfo *di = g->info;
	xs_gpu_cache *l0 = &g->l0[g->simd[gw->simd].cu];
	bool store = iclass == XS_IC_VMEM_STORE, atomic = iclass == XS_IC_VMEM_ATOMIC;
	uint64_t done = t + (store ? di->lat_l2 : di->lat_l0);
	if (nlines > 1) /* a gather: its L2 sets miss the host caches in parallel */
		for (uint32_t i = 0; i < nlines; i++)
			xs_gpu_cache_prefetch(&g->l2, lines[i]);
	for (uint32_t i = 0; i < nlines; i++) {
		uint64_t line = lines[i], h = xs_gpu_cache_hash(line);
		if (!store && !atomic) {
			if (xs_gpu_cache_access_h(l0, line, h, true, false, NULL)) {
				ctr->l0_hits++;
				done = XS_MAX(done, t + di->lat_l0);
				continue;
			}
			ctr->l0_misses++;
		}
		bool evicted = false;
		bool hit = xs_gpu_cache_access_h(&g->l2, line, h, true, store || atomic, &evicted);
		ctr->l2_hits += hit;
		ctr->l2_misses += !hit;
		if (evicted) {
			dram_line(g, t); /* write-back of the dirty victim */
			ctr->dram_write_lines++;
		}
		/* a store that misses allocates its line without a fill (the
		 * whole line's bytes are not known to be written, but the
		 * model keeps no byte masks: no read is charged) */
		ctr->dram_read_lines += !hit && !store;
		uint64_t ready = hit || store ? t + di->lat_l2 : dram_line(g, t) + di->lat_dram;
		done = XS_MAX(done, ready);
	}
	return done;
}

/* When an image_bvh*_intersect_ray issued at t completes: its nodes arrive
 * (fetched) through the caches like any load, then queue for the CU's ray
 * accelerator, which does ray_box_tests_per_clk box or ray_tri_tests_per_clk
 * triangle tests per clock, and answer lat_ray cycles after their last
 * test. The accelerator is reserved in issue order. */
static uint64_t ray_cost(xs_gpu *g, const xs_gpu_wave *gw, uint64_t fetched, uint32_t cycles)
{
	xs_gpu_cu *c = &g->cu[g->simd[gw->simd].cu];
	uint64_t start = XS_MAX(fetched, c->ray_free);
	c->ray_free = start + cycles;
	return c->ray_free + g->info->lat_ray;
}

/* ---- run-ahead ------------------------------------------------------------------ */

/* Accelerator cycles of one instruction's tests (a box node is 4 tests). */
static uint8_t ray_cycles(const xs_devinfo *di, uint32_t box_tests, uint32_t tri_tests)
{
	uint32_t c = XS_DIV_ROUND_UP(box_tests, di->ray_box_tests_per_clk) +
		     XS_DIV_ROUND_UP(tri_tests, di->ray_tri_tests_per_clk);
	return (uint8_t)XS_MIN(c, 255u);   /* at most 64 lanes x 1 clock */
}

static uint8_t wait_limit(uint32_t n)
{
	return n >= XS_GPU_RA_NOWAIT ? XS_GPU_RA_NOWAIT : (uint8_t)n; /* >= 64 never waits */
}

/* Whether one of the first three sources is a VGPR operand (256 and up)
 * overlapping [lo, hi), the previous VALU's destination. A source is as
 * wide as the opcode table says (XS_OPF_S<i>_64: two registers), so a
 * 64-bit source whose high half alone was written waits too. */
static bool reads_vgprs(const xs_inst *in, uint32_t op_flags, uint16_t lo, uint16_t hi)
{
	static const uint32_t wide[3] = { XS_OPF_S0_64, XS_OPF_S1_64, XS_OPF_S2_64 };
	for (int i = 0; i < 3; i++) {
		uint32_t s = in->src[i];
		uint32_t end = s + ((op_flags & wide[i]) ? 2u : 1u);
		if (s >= 256 && end > lo && s < hi)
			return true;
	}
	return false;
}

/* What the model needs to time `in`, read before it executes (EXEC for the
 * LDS bytes, the SGPR of s_waitcnt_*cnt, the VGPRs of the wave's previous
 * VALU: all in program order, which is issue order). */
/* Whether an LDS-class instruction reads or writes LDS memory at its lanes'
 * addresses (the lane permutes and swizzle use the LDS's crossbar only; GWS,
 * append and ordered count carry no element size). */
static bool lds_memory(const xs_inst *in, uint32_t op_flags)
{
	/* (the addtid forms address M0 + 4 x lane: consecutive dwords, no
	 * address VGPR) */
	return XS_OPF_DW_OF(op_flags) != 0 && in->op != XS_OP_ds_swizzle_b32 && in->op != XS_OP_ds_permute_b32 &&
	       in->op != XS_OP_ds_bpermute_b32 && in->op != XS_OP_ds_write_addtid_b32 &&
	       in->op != XS_OP_ds_read_addtid_b32;
}

/* Bytes a vector memory instruction's active lanes move, into the
 * dispatch's counters (read before it executes: EXEC and the V# are in
 * program order). Private memory is what a swizzled ADD_TID V# (the
 * private segment buffer) or a scratch_* instruction reaches. */
static void vmem_bytes(const xs_gpu_wave *gw, const xs_inst *in, const xs_op_info *oi, xs_gpu_ra_sums *ctr)
{
	/* a lane's own bytes (a ubyte load 1, a short store 2, a dwordx4 16).
	 * The opcode gives no size for a typed load (one element of its
	 * FORMAT), nor for an image_bvh*_intersect_ray, whose node bytes are
	 * known once it has run (ra_fill adds xs_isa_ctx.ray_node_bytes): 0
	 * here; nor for the unimplemented image and format-store forms, which
	 * fault before moving anything. */
	unsigned lane = xs_isa_vmem_lane_bytes(in->op);
	if (XS_UNLIKELY(lane == 0))
		lane = xs_isa_vmem_format_bytes(&gw->w, in);
	uint64_t bytes = (uint64_t)__builtin_popcountll(xs_wave_exec(&gw->w)) * lane;
	bool priv = in->enc == XS_ENC_SCRATCH;
	if ((in->enc == XS_ENC_MUBUF || in->enc == XS_ENC_MTBUF) && in->src[1] < 125)
		priv = G_008F0C_ADD_TID_ENABLE(gw->w.s[in->src[1] + 3]) && G_008F04_SWIZZLE_ENABLE(gw->w.s[in->src[1] + 1]);
	if (oi->flags & (XS_OPF_LOAD | XS_OPF_ATOMIC)) {
		ctr->vmem_read_bytes += bytes;
		ctr->scratch_read_bytes += priv ? bytes : 0;
	}
	if (oi->flags & (XS_OPF_STORE | XS_OPF_ATOMIC)) {
		ctr->vmem_write_bytes += bytes;
		ctr->scratch_write_bytes += priv ? bytes : 0;
	}
}

/* An LDS entry's clocks on the bus (xs_gpu_lds_clocks), its bank
 * conflicts into the run's sums and the profile's entry for its
 * PC (run_ahead keeps that index before it describes the entry); lds->addr
 * is cleared (done). Counted when recorded: a recorded entry issues. */
static void lds_clocks(xs_gpu *g, const xs_gpu_wave *gw, xs_gpu_ra_ent *e, xs_gpu_lds_access *lds,
		       xs_gpu_ra_sums *sums)
{
	uint32_t conflict;
	e->lds_clk = (uint16_t)xs_gpu_lds_clocks(g->info->lds_banks, lds, &conflict);
	sums->lds_bank_conflict_cycles += conflict;
	if (XS_UNLIKELY(g->prof != NULL) && conflict)
		g->prof->ent[g->prof->ra_idx[(size_t)(gw - g->waves) * XS_GPU_RA + (size_t)(e - gw->ra)]].lds_conflict +=
			conflict;
	lds->addr = NULL;
}

/* lds: an LDS access whose clocks are still to be found (lds->addr set),
 * from its lanes' addresses after it executes (run_ahead). In line in both
 * of ra_fill's copies: called, it cost the timing loop 5 % more host
 * instructions (fma_peak). */
static inline __attribute__((always_inline)) void ra_describe(xs_gpu *g, xs_gpu_wave *gw, const xs_inst *in,
								xs_gpu_ra_ent *e, xs_gpu_lds_access *lds,
								xs_gpu_ra_sums *sums)
{
	memset(e, 0, sizeof(*e));
	memset(e->wait, XS_GPU_RA_NOWAIT, sizeof(e->wait));
	if (!in) { /* cannot be fetched: it faults when it issues, with no checks */
		e->iclass = XS_IC_SALU;
		e->flags = XS_GPU_RA_NOCHECK;
		return;
	}
	const xs_op_info *oi = &xs_op_table[in->op];
	e->iclass = oi->iclass;
	switch (in->op) {
	case XS_OP_s_waitcnt: { /* expcnt: exports are not modelled */
		xs_waitcnt wc = xs_waitcnt_decode((uint32_t)in->imm & 0xffff);
		e->wait[XS_GPU_CNT_VM] = wait_limit(wc.vm);
		e->wait[XS_GPU_CNT_LGKM] = wait_limit(wc.lgkm);
		if (e->wait[XS_GPU_CNT_VM] != XS_GPU_RA_NOWAIT || e->wait[XS_GPU_CNT_LGKM] != XS_GPU_RA_NOWAIT)
			e->flags |= XS_GPU_RA_WAIT;
		break;
	}
	case XS_OP_s_waitcnt_vscnt:
	case XS_OP_s_waitcnt_vmcnt:
	case XS_OP_s_waitcnt_lgkmcnt: {
		uint32_t n = (uint32_t)in->imm & 0xffff;
		if (in->dst != XS_SREG_NULL && in->dst < 128)
			n += gw->w.s[in->dst];
		e->wait[in->op == XS_OP_s_waitcnt_vmcnt   ? XS_GPU_CNT_VM
			: in->op == XS_OP_s_waitcnt_vscnt ? XS_GPU_CNT_VS
							  : XS_GPU_CNT_LGKM] = wait_limit(n);
		if (wait_limit(n) != XS_GPU_RA_NOWAIT)
			e->flags |= XS_GPU_RA_WAIT;
		break;
	}
	default:
		break;
	}
	if (e->iclass >= XS_IC_VALU && e->iclass <= XS_IC_VALU_DP) {
		if (reads_vgprs(in, oi->flags, gw->valu_dst_lo, gw->valu_dst_hi))
			e->flags |= XS_GPU_RA_DEP;
		if (in->dst >= 256) {
			gw->valu_dst_lo = in->dst;
			gw->valu_dst_hi = (uint16_t)(in->dst + ((oi->flags & XS_OPF_D64) ? 2 : 1));
		}
	} else if (e->iclass == XS_IC_LDS) {
		uint32_t ndw = XS_MAX(1u, XS_OPF_DW_OF(oi->flags));
		xs_gpu_lds_access a = { .exec = xs_wave_exec(&gw->w), .lanes = gw->w.lanes, .ndw = ndw };
		a.naddr = xs_isa_ds_elements(in, ndw, a.off);
		e->n = (uint16_t)(__builtin_popcountll(a.exec) * 4 * ndw * a.naddr);
		if ((in->op == XS_OP_ds_append || in->op == XS_OP_ds_consume) && a.exec)
			e->n = 4; /* one counter for the wave */
		if (lds_memory(in, oi->flags) && in->src[0] >= XS_SRC_VGPR) {
			/* The clocks come from the lanes' addresses, read once the
			 * instruction has run (run_ahead) unless it overwrites its
			 * address VGPR (then here). Read here, the row's load waited
			 * on the previous instruction's VGPR stores (rows 4 KiB apart
			 * look alike to the host's store forwarding): a tenth of
			 * sgemm_tiled's timing run, against a twentieth after. */
			uint32_t av = in->src[0] - XS_SRC_VGPR, dv = in->dst - XS_SRC_VGPR;
			a.addr = gw->w.v[av];
			*lds = a;
			if ((oi->flags & (XS_OPF_LOAD | XS_OPF_ATOMIC)) && in->dst >= XS_SRC_VGPR && dv <= av &&
			    av < dv + ndw * a.naddr)
				lds_clocks(g, gw, e, lds, sums);
		} else {
			/* no lane addresses: the bytes at a dword per bank a clock */
			e->lds_clk = (uint16_t)XS_DIV_ROUND_UP(e->n, sizeof(uint32_t) * g->info->lds_banks);
		}
	} else if (xs_iclass_is_vmem(e->iclass)) {
		vmem_bytes(gw, in, oi, sums);
	}
}

/* Runs the wave ahead of the model, filling ent[] and lines[] with ctx's
 * interpreter (the model's own, or the pipeline thread's: xs_gpu_rap.c;
 * ctx->mtrace is where it records lines); returns the entries recorded,
 * the fault of a FAULT entry in *fault, and adds to the counters' *sums.
 * Stops after s_endpgm, s_barrier or a fault, when the entries are full, or
 * before a memory instruction whose lines might not fit. */
static inline __attribute__((always_inline)) uint32_t ra_fill(xs_gpu *g, xs_isa_ctx *ctx, xs_isa_mtrace *mt,
							       xs_gpu_wave *gw, const xs_gpu_ra_out *o)
{
	xs_wave *w = &gw->w;
	xs_gpu_ra_ent *const ent = o->ent;
	const uint64_t watchdog = g->watchdog;
	uint32_t used = 0, n = 0;
	if (gw->regs_pending) /* (its first run: the lines are hot for it now) */
		xs_gpu_spi_wave_regs(gw, w);
	xs_isa_peek_cache pk = XS_ISA_PEEK_CACHE_INIT;
	while (n < XS_GPU_RA) {
		const xs_inst *in = xs_isa_peek_cached(ctx, &pk, w->pc);
		xs_gpu_ra_ent *e = &ent[n];
		if (XS_UNLIKELY(g->prof != NULL))
			g->prof->ra_idx[(size_t)(gw - g->waves) * XS_GPU_RA + n] = xs_gpu_prof_index(g->prof, w->pc);
		/* a memory instruction whose lines might not fit waits for the next
		 * run ahead (used > 0: an entry is recorded), and is described only
		 * then: describing adds its bytes to the sums, which counted them
		 * twice (a gathering kernel's read bytes 3.7 % high) */
		if (xs_iclass_is_vmem(in ? xs_op_table[in->op].iclass : XS_IC_SALU) &&
		    used + XS_MTRACE_MAX > XS_GPU_RA_LINES)
			break;
		xs_gpu_lds_access lds = { .addr = NULL };
		ra_describe(g, gw, in, e, &lds, o->sums);
		n++;
		if (w->insts >= watchdog) {
			*o->fault = (xs_fault){ .kind = XS_FAULT_WATCHDOG, .pc = w->pc };
			snprintf(o->fault->what, sizeof(o->fault->what), "budget %llu", (unsigned long long)watchdog);
			e->flags |= XS_GPU_RA_FAULT;
			break;
		}
		*mt = (xs_isa_mtrace){ .cap = XS_GPU_RA_LINES - used, .line = o->lines + used };
		uint64_t next_pc = w->pc + (in ? in->size : 0);
		xs_wave_status ws = in ? xs_isa_step(ctx, w, in) : xs_isa_run(ctx, w, 1); /* NULL: it faults */
		if (mt->n)
			e->n = (uint16_t)mt->n;
		if (lds.addr)
			lds_clocks(g, gw, e, &lds, o->sums);
		if (XS_UNLIKELY(ctx->ray_box_tests | ctx->ray_tri_tests)) {
			e->ray = ray_cycles(g->info, ctx->ray_box_tests, ctx->ray_tri_tests);
			/* the nodes read (a node read is a test): the bytes of the
			 * lines mtrace holds for the caches, which vmem_bytes could
			 * not know before the lanes' pointers were followed */
			o->sums->vmem_read_bytes += ctx->ray_node_bytes;
			ctx->ray_box_tests = ctx->ray_tri_tests = ctx->ray_node_bytes = 0;
		}
		used += mt->n;
		if (ws == XS_WAVE_FAULT) {
			*o->fault = ctx->fault;
			e->flags |= XS_GPU_RA_FAULT;
			break;
		}
		if (in && (xs_op_table[in->op].flags & XS_OPF_BRANCH) && w->pc != next_pc)
			e->flags |= XS_GPU_RA_TAKEN;
		if (ws == XS_WAVE_ENDED) {
			e->flags |= XS_GPU_RA_ENDED;
			break;
		}
		if (ws == XS_WAVE_BARRIER) {
			e->flags |= XS_GPU_RA_BARRIER;
			break;
		}
		if (ws == XS_WAVE_EXP_WAIT) {
			e->flags |= XS_GPU_RA_PARK;
			break;
		}
	}
	return n;
}

uint32_t xs_gpu_ra_fill(xs_gpu *g, xs_isa_ctx *ctx, xs_gpu_wave *gw, const xs_gpu_ra_out *o)
{
	return ra_fill(g, ctx, ctx->mtrace, gw, o);
}

/* The wave's next entries, run ahead on the model's thread into its own
 * buffers (in line: the timing loop's; xs_gpu_run_ahead for xs_gpu_rap.c). */
static inline __attribute__((always_inline)) void run_ahead(xs_gpu *g, xs_gpu_wave *gw)
{
	gw->ra_head = 0;
	gw->ra_line = 0;
	/* Its registers have left the host's caches since its last run ahead
	 * (every resident wave ran between): fetched at once, not one miss
	 * after another as its instructions reach them. */
	const xs_wave *w = &gw->w;
	prefetch_rows((const uint32_t(*)[XS_MAX_LANES])w->v, w->nvgpr, w->lanes * 4);
	for (const char *p = (const char *)w->s; p < (const char *)(w->s + XS_ARRAY_SIZE(w->s)); p += XS_HOST_LINE)
		__builtin_prefetch(p, 1, 3);
	xs_gpu_ra_sums sums = { 0 };
	const xs_gpu_ra_out o = { gw->ra, gw->ra_lines, &gw->ra_fault, &sums };
	gw->ra_n = gw->ra_stop = (uint8_t)ra_fill(g, &g->ctx, &g->mtrace, gw, &o); /* (g->ctx.mtrace) */
	xs_gpu_ra_sums_add(&g->disp[gw->disp_slot].r->ctr, &sums);
}

void xs_gpu_run_ahead(xs_gpu *g, xs_gpu_wave *gw)
{
	run_ahead(g, gw);
}

/* ---- profile (xs_gpu_profile.c) ------------------------------------------------------- */

/* The wave comes back from a hold: its cycles count on the held entry. */
static inline void prof_resume(xs_gpu_prof *p, const xs_gpu *g, const xs_gpu_wave *gw, uint64_t t)
{
	xs_gpu_prof_wave *pw = &p->wv[gw - g->waves];
	if (!pw->hold)
		return;
	uint64_t d = t > pw->hold_t ? t - pw->hold_t : 0;
	xs_gpu_prof_ent *en = &p->ent[pw->hold_idx];
	en->stall[pw->hold - 1] += d;
	en->cycles += d;
	pw->since = XS_MAX(pw->since, t);
	pw->hold = 0;
}

static inline void prof_hold(xs_gpu_prof *p, const xs_gpu *g, const xs_gpu_wave *gw, uint32_t idx, int why,
			     uint64_t t)
{
	xs_gpu_prof_wave *pw = &p->wv[gw - g->waves];
	if (t > pw->since) { /* due since `since`, held from t: the gap is the issue's own */
		p->ent[idx].cycles += t - pw->since;
		pw->since = t;
	}
	pw->hold = (uint8_t)(why + 1);
	pw->hold_idx = idx;
	pw->hold_t = t;
}

static inline uint32_t prof_head(const xs_gpu_prof *p, const xs_gpu *g, const xs_gpu_wave *gw)
{
	return p->ra_idx[(size_t)(gw - g->waves) * XS_GPU_RA + gw->ra_head];
}

/* ---- issue ------------------------------------------------------------------------ */

/* Issues the wave's next instruction at g->now if nothing holds it,
 * else queues the wave for when it may. */
static xs_status issue_one(xs_gpu *g, xs_gpu_wave *gw, xs_err *e)
{
	const xs_devinfo *di = g->info;
	xs_gpu_simd *sm = &g->simd[gw->simd];
	uint64_t t = g->now;
	if (gw->ra_head == gw->ra_stop) { /* (one test for both, on the path of every issue) */
		if (gw->ra_head != gw->ra_n)
			xs_gpu_rap_ask_next(g, gw); /* two timing threads: time to ask for the next entries */
		else if (XS_UNLIKELY(g->rap != NULL))
			xs_gpu_rap_take(g, gw); /* (xs_gpu_rap.c) */
		else
			run_ahead(g, gw);
	}
	const xs_gpu_ra_ent *en = &gw->ra[gw->ra_head];
	xs_gpu_prof *pf = g->prof;
	if (XS_UNLIKELY(pf != NULL))
		prof_resume(pf, g, gw, t);
	if (XS_UNLIKELY(en->flags & XS_GPU_RA_PARK)) {
		/* waits at exp (late alloc, S4.1): off the queue until woken. The
		 * run ahead met the exp earlier, so the wake may have come first:
		 * then the wave goes on (the exp runs again). */
		if (XS_UNLIKELY(pf != NULL))
			prof_hold(pf, g, gw, prof_head(pf, g, gw), XS_GPU_STALL_EXPORT, t);
		gw->ra_head++;
		if (gw->w.status == XS_WAVE_EXP_WAIT) {
			gw->parked = true;
		} else {
			gw->ready = t;
			evq_push(g, gw);
		}
		return XS_OK;
	}
	const bool w64 = gw->w64;
	uint32_t iclass = en->iclass;
	uint32_t pipe = pipe_of[iclass];

	if (!(en->flags & XS_GPU_RA_NOCHECK)) {
		/* s_waitcnt: the counted operations must complete (XS_MAX evaluates
		 * twice). `why` is the stall reason of the latest of them, for the
		 * profile: xs_gpu_stall's first three are the counters'. */
		uint64_t ok = 0;
		int why = XS_GPU_STALL_COUNT;
		_Static_assert((int)XS_GPU_STALL_VMCNT == (int)XS_GPU_CNT_VM && (int)XS_GPU_STALL_VSCNT == (int)XS_GPU_CNT_VS &&
			       (int)XS_GPU_STALL_LGKMCNT == (int)XS_GPU_CNT_LGKM, "counters and their stall reasons");
		for (int k = 0; (en->flags & XS_GPU_RA_WAIT) && k < XS_GPU_NCNT; k++) {
			if (en->wait[k] != XS_GPU_RA_NOWAIT) {
				uint64_t c = cnt_wait(gw, k, en->wait[k]);
				if (c > ok) {
					ok = c;
					why = k;
				}
			}
		}
		if ((en->flags & XS_GPU_RA_DEP) && gw->valu_done > XS_MAX(t, ok)) {
			ok = gw->valu_done;
			why = XS_GPU_STALL_VALU_DEP;
		}
		/* A full counter stalls the next operation of its kind. */
		uint64_t full = 0;
		if (xs_iclass_is_vmem(iclass)) {
			int k = iclass == XS_IC_VMEM_STORE ? XS_GPU_CNT_VS : XS_GPU_CNT_VM;
			if (gw->cnt[k].n == XS_GPU_VMQ)
				full = gw->cnt_done[k][gw->cnt[k].head];
		} else if ((iclass == XS_IC_LDS || iclass == XS_IC_SMEM) && gw->cnt[XS_GPU_CNT_LGKM].n == XS_GPU_VMQ) {
			full = gw->cnt_done[XS_GPU_CNT_LGKM][gw->cnt[XS_GPU_CNT_LGKM].head];
		}
		if (full > ok) {
			ok = full;
			why = XS_GPU_STALL_CNT_FULL;
		}
		if (ok > t) {
			if (XS_UNLIKELY(pf != NULL))
				prof_hold(pf, g, gw, prof_head(pf, g, gw), why, t);
			gw->ready = ok;
			evq_push(g, gw);
			return XS_OK;
		}
		if (sm->pipe[pipe].free > t) {
			/* Only the pipe is busy. One waiter (the retrier) sits in the
			 * event queue for when it frees; later ones queue here and are
			 * woken one per issue. */
			if (XS_UNLIKELY(pf != NULL))
				prof_hold(pf, g, gw, prof_head(pf, g, gw), XS_GPU_STALL_PIPE, t);
			if (!sm->pipe[pipe].retrier || sm->pipe[pipe].retrier == gw) {
				sm->pipe[pipe].retrier = gw;
				gw->ready = sm->pipe[pipe].free;
				evq_push(g, gw);
			} else {
				xs_gpu_pipe *pp = &sm->pipe[pipe];
				pp->waitq |= (uint64_t)xs_gpu_wave_slot(g, gw) << (4 * pp->waitq_n++);
			}
			return XS_OK;
		}
	}

	/* Issue: the interpreter has already executed it. */
	uint32_t pidx = XS_UNLIKELY(pf != NULL) ? prof_head(pf, g, gw) : 0;
	gw->ra_head++;
	const uint64_t *lines = gw->ra_lines + gw->ra_line;
	bool vmem = xs_iclass_is_vmem(iclass);
	if (vmem)
		gw->ra_line = (uint16_t)(gw->ra_line + en->n);
	if (en->flags & XS_GPU_RA_FAULT) {
		g->ctx.fault = gw->ra_fault;
		return xs_gpu_remove_device(g, gw, e);
	}

	/* Costs of what was issued at t. */
	xs_gpu_counters *ctr = &g->disp[gw->disp_slot].r->ctr;
	ctr->insts[iclass]++;
	uint32_t passes = w64 ? 2 : 1;
	uint32_t occupy = 1, next = 1;
	switch (iclass) {
	case XS_IC_VALU:
		occupy = next = passes;
		gw->valu_done = t + di->lat_valu + passes - 1;
		break;
	case XS_IC_VALU_TRANS:
		occupy = di->issue_valu_trans * passes;
		next = passes;
		gw->valu_done = t + di->lat_valu_trans + occupy - 1;
		break;
	case XS_IC_VALU_DP:
		occupy = di->issue_valu_dp * passes;
		next = passes;
		gw->valu_done = t + di->lat_valu_dp + occupy - 1;
		break;
	case XS_IC_SMEM:
		cnt_push(gw, XS_GPU_CNT_LGKM, t, t + di->lat_smem);
		break;
	case XS_IC_LDS: {
		uint32_t bytes = en->n;
		xs_gpu_cu *c = &g->cu[gw->group->cu];
		uint64_t *bus = gw->group->disp->d.wgp_mode ? &g->wgp[c->wgp].lds_bus_free : &c->lds_bus_free;
		uint64_t start = XS_MAX(t, *bus);
		*bus = start + en->lds_clk;
		ctr->lds_bytes += bytes;
		cnt_push(gw, XS_GPU_CNT_LGKM, t, *bus + di->lat_lds);
		break;
	}
	case XS_IC_VMEM_LOAD:
	case XS_IC_VMEM_STORE:
	case XS_IC_VMEM_ATOMIC: {
		uint64_t done = vmem_cost(g, gw, iclass, t, lines, en->n, ctr);
		if (en->ray)
			done = ray_cost(g, gw, done, en->ray);
		if (iclass == XS_IC_VMEM_STORE)
			cnt_push(gw, XS_GPU_CNT_VS, t, done);
		else
			cnt_push(gw, XS_GPU_CNT_VM, t, done);
		occupy = passes;
		break;
	}
	default:
		break;
	}
	sm->pipe[pipe].free = t + occupy;
	if (pipe == PIPE_VALU)
		ctr->valu_busy[gw->simd] += occupy;
	else if (iclass == XS_IC_SALU)
		ctr->salu_busy[gw->simd] += occupy; /* (rocprof's SQ_INST_CYCLES_SALU: the
						     * message and internal ops that share the
						     * pipe here, s_waitcnt and the like, are
						     * not SALU work) */
	gw->ready = t + next;
	if (sm->pipe[pipe].retrier == gw)
		sm->pipe[pipe].retrier = NULL;
	if (sm->pipe[pipe].waitq_n && !sm->pipe[pipe].retrier) {
		/* The pipe took an instruction: the oldest waiter retries next. */
		xs_gpu_pipe *pp = &sm->pipe[pipe];
		xs_gpu_wave *wk = xs_gpu_slot_wave(g, gw->simd, (uint32_t)(pp->waitq & 15));
		pp->waitq >>= 4;
		pp->waitq_n--;
		sm->pipe[pipe].retrier = wk;
		wk->ready = sm->pipe[pipe].free;
		evq_push(g, wk);
	}
	if (en->flags & XS_GPU_RA_TAKEN)
		gw->ready += di->branch_taken;
	if (XS_UNLIKELY(pf != NULL)) {
		/* its cycles: from when it became due to when the next may issue */
		xs_gpu_prof_wave *pw = &pf->wv[gw - g->waves];
		xs_gpu_prof_ent *pe = &pf->ent[pidx];
		pe->issues++;
		pe->cycles += gw->ready - XS_MIN(pw->since, gw->ready);
		pw->since = gw->ready;
		if (en->flags & (XS_GPU_RA_ENDED | XS_GPU_RA_BARRIER))
			prof_hold(pf, g, gw, pidx, en->flags & XS_GPU_RA_ENDED ? XS_GPU_STALL_END : XS_GPU_STALL_BARRIER,
				  gw->ready);
	}

	/* The wave's next entry and the first of its lines, fetched now: their
	 * addresses are in the wave's first host line, in the caches at this
	 * point, and the issues of every other ready wave (1,664 resident) come
	 * before this one's next. The entry's load was a tenth of scratch_chase's
	 * timing samples; with this, paired runs in three batches: scratch_chase
	 * 1.03-1.08x, stream_copy 1.09-1.18x, sgemm_tiled 1.05x, fma_peak 1.00x
	 * (the batches disagreed by a few per cent; docs/performance-log.md). */
	__builtin_prefetch(&gw->ra[gw->ra_head]);
	__builtin_prefetch(gw->ra_lines + gw->ra_line);
	if (en->flags & XS_GPU_RA_ENDED) {
		/* The wave's slot frees when its last stores and loads are done
		 * (end of pipe waits for memory writes to be confirmed). */
		gw->ending = true;
		uint64_t vs = cnt_wait(gw, XS_GPU_CNT_VS, 0), vm = cnt_wait(gw, XS_GPU_CNT_VM, 0),
			 lgkm = cnt_wait(gw, XS_GPU_CNT_LGKM, 0);
		gw->ready = XS_MAX(XS_MAX(gw->ready, vs), XS_MAX(vm, lgkm));
		evq_push(g, gw);
	} else if (en->flags & XS_GPU_RA_BARRIER) {
		xs_gpu_spi_barrier_arrive(g, gw);
	} else {
		evq_push(g, gw);
	}
	return XS_OK;
}

static xs_status run_timing_loop(xs_gpu *g, bool until_one, xs_err *e)
{
	uint64_t c0 = g->completions;
	xs_gpu_spi_launch_pending(g);
	while (xs_gpu_ndisp(g) && !(until_one && g->completions != c0)) {
		if (g->run_stop_at && g->now >= g->run_stop_at)
			break; /* a CP's firmware work ends: it goes on (xs_gpu_execute) */
		xs_gpu_wave *gw = evq_pop(g);
		if (!gw)
			return no_progress(g, e);
		if (gw->ready > g->now)
			g->now = gw->ready;
		if (gw->ending) {
			if (XS_UNLIKELY(g->prof != NULL))
				prof_resume(g->prof, g, gw, g->now);
			xs_gpu_spi_retire(g, gw);
			xs_gpu_spi_launch_pending(g);
			continue;
		}
		xs_status st = issue_one(g, gw, e);
		if (st)
			return st;
		/* the watchdog and the progress callback every XS_GPU_WATCH_EVERY
		 * issues (the callback wants one per XS_PROGRESS_EVERY) */
		if (++g->watch_count >= XS_GPU_WATCH_EVERY) {
			progress(g, g->watch_count);
			if ((st = xs_gpu_watch(g, e)))
				return st;
		}
	}
	return XS_OK;
}

/* With two timing threads the run-ahead runs on the second while the model
 * runs here (xs_gpu_rap.c), stopped before this returns: the CP runs next. */
static xs_status run_timing(xs_gpu *g, bool until_one, xs_err *e)
{
	bool piped = g->timing_threads > 1 && xs_gpu_rap_start(g);
	xs_status st = run_timing_loop(g, until_one, e);
	if (piped)
		xs_gpu_rap_stop(g);
	return st;
}

xs_status xs_gpu_run_until(xs_gpu *g, bool until_one, xs_err *e)
{
	if (g->timing)
		return run_timing(g, until_one, e);
	/* Draws run on one host thread: primitive order, the parameter cache
	 * and the colour writes are shared by all their waves. */
	bool draw = false;
	for (int i = 0; i < XS_GPU_MAX_ACTIVE; i++)
		draw |= xs_gpu_disp_live(g, i) && g->disp[i].draw;
	/* (quanta run ahead are taken by the one-thread loop) */
	return g->threads > 1 && !draw && !g->fa_waves ? xs_gpu_run_functional_mt(g, until_one, e)
						      : run_functional(g, until_one, e);
}

