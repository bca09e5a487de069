/*
 * Queues, fences, and when the GPU runs.
 *
 * Each hardware queue has a timeline of items (work, fence signals, fence
 * waits), each submitted to the command processor as a small IB of the
 * runtime's: the work's PM4 called by INDIRECT_BUFFER, or RELEASE_MEM of
 * the fence value, or WAIT_REG_MEM64 on it; then a RELEASE_MEM that writes
 * the item's sequence number to the queue's done word.
 *
 * The GPU model runs when the host looks (a fence's completed value, a
 * wait, the native API's synchronous dispatch): every queue runs until it
 * is idle or blocked on a wait, from the simulated time it reached. So work
 * submitted to two queues back to back overlaps, and runs are as
 * deterministic as the host's sequence of calls. A wait that only a later
 * host Signal can release is legal; a host wait that nothing can satisfy
 * (the GPU blocked, no other host thread able to act) is a deadlock, and
 * the device is removed with a report naming the queues, fences and values.
 */
#include "runtime/xs_rt_priv.h"
#include "hw/xs_hw_pm4.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static void note_thread(xs_rt_device *d);

xs_status xs_rt_queues_init(xs_rt_device *d, xs_err *e)
{
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++) {
		xs_rt_queue *Q = &d->queues[q];
		Q->hw = q;
		xs_rt_cmdmem_init(&Q->mem, d, "a queue's signal, wait and completion packets");
		uint8_t *host;
		xs_status st = xs_vm_alloc_host(d->vm, 8, 8, &Q->done_va, &host, e);
		if (st)
			return st;
		xs_vm_set_name(d->vm, Q->done_va, "a queue's completion word", NULL);
		Q->done = (volatile uint64_t *)(void *)host;
		Q->next_seq = 1;
	}
	return XS_OK;
}

static void item_release(xs_rt_item *it)
{
	if (it->own_results)
		free(it->results);
	it->results = NULL;
}

void xs_rt_queues_fini(xs_rt_device *d)
{
	if (!d->queues)
		return;
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++) {
		xs_rt_queue *Q = &d->queues[q];
		for (uint32_t i = 0; i < Q->nitems; i++)
			item_release(&Q->items[i]);
		free(Q->items);
		xs_rt_cmdmem_free_locked(&Q->mem);
	}
}

/* Drops the items the CP has completed. */
static void retire(xs_rt_device *d)
{
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++) {
		xs_rt_queue *Q = &d->queues[q];
		uint64_t done = *Q->done;
		/* release: what the completed work wrote (its results, statistics)
		 * is visible to whoever reads this value */
		__atomic_store_n(&Q->completed, done, __ATOMIC_RELEASE);
		uint32_t k = 0;
		while (k < Q->nitems && (Q->items[k].seq <= done || d->removed))
			item_release(&Q->items[k++]);
		if (k) {
			memmove(Q->items, Q->items + k, (Q->nitems - k) * sizeof(*Q->items));
			Q->nitems -= k;
			d->changes++;
		}
		if (!Q->nitems && Q->mem.nchunks)
			xs_rt_cmdmem_reset_locked(&Q->mem);
	}
}

/* The device is removed: every fence reads UINT64_MAX, as D3D12's do, and
 * every wait returns. */
static void remove_device(xs_rt_device *d, const xs_err *e)
{
	if (d->removed)
		return;
	d->removed_report = *e;
	snprintf(d->removed_positions, sizeof(d->removed_positions), "%s", xs_gpu_cp_positions(d->gpu));
	d->removed_status = e->status;
	/* published last (release): xs_rt_removed reads it without the lock
	 * and then the report */
	__atomic_store_n(&d->removed, true, __ATOMIC_RELEASE);
	for (xs_rt_fence *f = d->fences; f; f = f->next)
		*f->value = UINT64_MAX;
	/* nothing is in flight any more: allocators may be reset */
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
		*d->queues[q].done = d->queues[q].next_seq - 1;
	retire(d);
	pthread_cond_broadcast(&d->changed);
}

void xs_rt_recover(xs_rt_device *d)
{
	pthread_mutex_lock(&d->lock);
	if (d->removed) {
		xs_gpu_abandon(d->gpu);
		__atomic_store_n(&d->removed, false, __ATOMIC_RELEASE);
		d->removed_fault = (xs_fault){ .kind = XS_FAULT_NONE };
		for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
			*d->queues[q].done = d->queues[q].next_seq - 1; /* what was pending is gone */
		retire(d);
	}
	pthread_mutex_unlock(&d->lock);
}

void xs_rt_remove(xs_rt_device *d, const xs_err *e)
{
	pthread_mutex_lock(&d->lock);
	remove_device(d, e);
	pthread_mutex_unlock(&d->lock);
}

const xs_err *xs_rt_removed(const xs_rt_device *d)
{
	/* without the device lock: creation methods ask from any thread */
	return __atomic_load_n(&d->removed, __ATOMIC_ACQUIRE) ? &d->removed_report : NULL;
}

xs_status xs_rt_run_locked(xs_rt_device *d, xs_err *e)
{
	if (d->removed)
		return xs_err_set(e, d->removed_status, "%s", d->removed_report.msg);
	bool blocked = false;
	xs_rt_record_before(d);
	xs_status st = xs_gpu_execute(d->gpu, &blocked, e);
	xs_rt_record_after(d, st, blocked);
	if (st == XS_E_DEVICE_REMOVED || st == XS_E_INTERRUPTED) {
		/* which fault: the dispatch results say (for D3D12's removal
		 * reason); an interrupt stops the GPU as a removal does */
		d->removed_fault = (xs_fault){ .kind = XS_FAULT_HANG };
		xs_fault cpf = xs_gpu_cp_fault(d->gpu); /* the CP's own page fault */
		if (cpf.kind != XS_FAULT_NONE)
			d->removed_fault = cpf;
		for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
			for (uint32_t i = 0; i < d->queues[q].nitems; i++) {
				const xs_rt_item *it = &d->queues[q].items[i];
				for (uint32_t k = 0; k < it->nresults; k++)
					if (it->results && it->results[k].fault.kind != XS_FAULT_NONE)
						d->removed_fault = it->results[k].fault;
			}
		remove_device(d, e);
		return st;
	}
	if (st == XS_E_INVALID_ARG || st == XS_E_UNSUPPORTED) {
		/* malformed PM4 stops the CP as a removal would */
		d->removed_fault = (xs_fault){ .kind = XS_FAULT_ILLEGAL };
		remove_device(d, e);
		return st;
	}
	if (st == XS_E_OUT_OF_MEMORY) {
		/* the host ran out of memory in the middle of the work (a CP
		 * fetch, a group's LDS): the CPs cannot go back, and a fence
		 * must not say the work ran; D3D12's reason is E_OUTOFMEMORY */
		d->removed_fault = (xs_fault){ .kind = XS_FAULT_NONE };
		remove_device(d, e);
		return st;
	}
	retire(d);
	if (st == XS_OK)
		pthread_cond_broadcast(&d->changed);
	return st;
}

/* ---- submission ------------------------------------------------------------------ */

static xs_rt_item *push_item(xs_rt_device *d, xs_rt_queue *Q, xs_err *e)
{
	if (Q->nitems == Q->cap) {
		uint32_t ncap = Q->cap ? 2 * Q->cap : 16;
		xs_rt_item *n = xs_realloc(Q->items, ncap * sizeof(*n));
		if (!n) {
			xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
			return NULL;
		}
		Q->items = n;
		Q->cap = ncap;
	}
	(void)d;
	xs_rt_item *it = &Q->items[Q->nitems];
	memset(it, 0, sizeof(*it));
	it->seq = Q->next_seq;
	return it;
}

/* Writes the item's IB (body, then the completion write) and hands it to
 * the CP. Lock held. */
static xs_status submit_item(xs_rt_device *d, xs_rt_queue *Q, xs_rt_item *it, xs_pm4_builder *b, xs_err *e)
{
	xs_pm4_fence(b, Q->done_va, it->seq, true);
	if (xs_pm4_builder_failed(b))
		return xs_err_set(e, b->err.status, "%s", b->err.msg);
	uint8_t *host;
	xs_status st = xs_rt_cmdmem_alloc_locked(&Q->mem, b->cdw * 4, 256, &it->va, &host, e);
	if (st)
		return st;
	memcpy(host, b->dw, b->cdw * 4);
	it->ndw = (uint32_t)b->cdw;
	if ((st = xs_gpu_submit(d->gpu, Q->hw, it->va, it->ndw, it->results, it->nresults, e)))
		return st;
	Q->next_seq++;
	Q->nitems++;
	d->changes++;
	pthread_cond_broadcast(&d->changed);
	return XS_OK;
}

static xs_status check_queue(xs_rt_device *d, unsigned queue, xs_err *e)
{
	if (queue >= XS_GPU_MAX_QUEUES)
		return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_DISPATCH_QUEUE, "hardware queue %u: there are %u", queue,
				  XS_GPU_MAX_QUEUES);
	if (d->removed)
		return xs_rt_fail(e, XS_E_DEVICE_REMOVED, XS_MSG_CALL_AFTER_REMOVAL, "the device was removed: %s",
				  d->removed_report.msg);
	return XS_OK;
}

uint64_t xs_rt_queue_done(const xs_rt_device *d, unsigned queue)
{
	return queue < XS_GPU_MAX_QUEUES ? __atomic_load_n(&d->queues[queue].completed, __ATOMIC_ACQUIRE) : 0;
}

const xs_gpu_dispatch_result *xs_rt_item_results(const xs_rt_device *d, unsigned queue, uint64_t seq, uint32_t *n)
{
	*n = 0;
	if (queue >= XS_GPU_MAX_QUEUES)
		return NULL;
	const xs_rt_queue *Q = &d->queues[queue];
	for (uint32_t i = 0; i < Q->nitems; i++)
		if (Q->items[i].seq == seq) {
			*n = Q->items[i].nresults;
			return Q->items[i].results;
		}
	return NULL;
}

xs_status xs_rt_submit(xs_rt_device *d, unsigned queue, uint64_t va, uint32_t ndw, xs_gpu_dispatch_result *results,
		       uint32_t nresults, uint64_t *seq, xs_err *e)
{
	pthread_mutex_lock(&d->lock);
	note_thread(d);
	xs_status st = check_queue(d, queue, e);
	xs_rt_queue *Q = &d->queues[queue % XS_GPU_MAX_QUEUES];
	xs_rt_item *it = st ? NULL : push_item(d, Q, e);
	if (it) {
		it->kind = XS_RT_WORK;
		it->results = results;
		it->nresults = nresults;
		if (!results && nresults) {
			it->results = xs_calloc(nresults, sizeof(*it->results));
			it->own_results = true;
			if (!it->results)
				st = xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
		}
		xs_pm4_builder b;
		xs_pm4_builder_init(&b, 0);
		if (!st) {
			/* Every submission starts with the caches invalidated, as a
			 * driver starts a command buffer: its figures do not depend on
			 * what ran before it, and a replay of it matches. */
			xs_pm4_acquire_mem(&b, S_586_GLI_INV(1) | S_586_GLK_INV(1) | S_586_GLV_INV(1) | S_586_GL1_INV(1) |
					       S_586_GL2_INV(1) | S_586_GL2_WB(1));
			xs_pm4_indirect_buffer(&b, va, ndw, false);
			if (seq)
				*seq = it->seq;
			st = submit_item(d, Q, it, &b, e);
		}
		xs_pm4_builder_free(&b);
		if (st)
			item_release(it);
	} else if (!st) {
		st = e->status;
	}
	pthread_mutex_unlock(&d->lock);
	return st;
}

static xs_status fence_op(xs_rt_device *d, unsigned queue, xs_rt_fence *f, uint64_t value, bool signal,
			  uint64_t *seq, xs_err *e)
{
	pthread_mutex_lock(&d->lock);
	note_thread(d);
	xs_status st = check_queue(d, queue, e);
	xs_rt_queue *Q = &d->queues[queue % XS_GPU_MAX_QUEUES];
	xs_rt_item *it = st ? NULL : push_item(d, Q, e);
	if (it) {
		it->kind = signal ? XS_RT_SIGNAL : XS_RT_WAIT;
		it->fence = f;
		it->value = value;
		xs_pm4_builder b;
		xs_pm4_builder_init(&b, 0);
		if (signal)
			xs_pm4_fence(&b, f->va, value, true); /* end of pipe: after the queue's earlier work */
		else
			xs_pm4_wait_reg_mem64(&b, WAIT_REG_MEM_GREATER_OR_EQUAL, f->va, value, ~0ull);
		if (seq)
			*seq = it->seq;
		st = submit_item(d, Q, it, &b, e);
		xs_pm4_builder_free(&b);
	} else if (!st) {
		st = e->status;
	}
	pthread_mutex_unlock(&d->lock);
	return st;
}

xs_status xs_rt_queue_signal(xs_rt_device *d, unsigned queue, xs_rt_fence *f, uint64_t value, uint64_t *seq,
			     xs_err *e)
{
	return fence_op(d, queue, f, value, true, seq, e);
}

xs_status xs_rt_queue_wait(xs_rt_device *d, unsigned queue, xs_rt_fence *f, uint64_t value, uint64_t *seq,
			   xs_err *e)
{
	return fence_op(d, queue, f, value, false, seq, e);
}

/* ---- fences ---------------------------------------------------------------------- */

xs_status xs_rt_fence_create(xs_rt_device *d, uint64_t initial, xs_rt_fence **out, xs_err *e)
{
	*out = NULL;
	xs_rt_fence *f = xs_calloc(1, sizeof(*f));
	if (!f)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
	uint8_t *host;
	pthread_mutex_lock(&d->lock);
	xs_status st = xs_vm_alloc_host(d->vm, 8, 8, &f->va, &host, e);
	if (!st) {
		f->dev = d;
		f->value = (volatile uint64_t *)(void *)host;
		*f->value = d->removed ? UINT64_MAX : initial;
		snprintf(f->name, sizeof(f->name), "fence 0x%llx", (unsigned long long)f->va);
		xs_vm_set_name(d->vm, f->va, "a fence's value", NULL);
		f->next = d->fences;
		d->fences = f;
	}
	pthread_mutex_unlock(&d->lock);
	if (st) {
		free(f);
		return st;
	}
	*out = f;
	return XS_OK;
}

void xs_rt_fence_destroy(xs_rt_fence *f)
{
	if (!f)
		return;
	xs_rt_device *d = f->dev;
	pthread_mutex_lock(&d->lock);
	for (xs_rt_fence **p = &d->fences; *p; p = &(*p)->next)
		if (*p == f) {
			*p = f->next;
			break;
		}
	xs_vm_free(d->vm, f->va, NULL);
	pthread_mutex_unlock(&d->lock);
	free(f);
}

void xs_rt_poll(xs_rt_device *d)
{
	pthread_mutex_lock(&d->lock);
	xs_err e;
	xs_rt_run_locked(d, &e);
	pthread_mutex_unlock(&d->lock);
}

uint64_t xs_rt_fence_completed(xs_rt_fence *f)
{
	xs_rt_device *d = f->dev;
	pthread_mutex_lock(&d->lock);
	xs_err e;
	xs_rt_run_locked(d, &e); /* a removal sets the value to UINT64_MAX */
	uint64_t v = *f->value;
	pthread_mutex_unlock(&d->lock);
	return v;
}

bool xs_rt_fence_host_signal(xs_rt_fence *f, uint64_t value)
{
	xs_rt_device *d = f->dev;
	pthread_mutex_lock(&d->lock);
	note_thread(d);
	const bool live = !d->removed;
	if (live && *f->value != value) {
		*f->value = value;
		d->changes++;
	}
	pthread_cond_broadcast(&d->changed);
	pthread_mutex_unlock(&d->lock);
	return live;
}

/* ---- waits and deadlocks --------------------------------------------------------
 * A host wait nothing queued can satisfy is a deadlock when every host
 * thread the device has seen (any that submitted, signalled or waited)
 * waits too. A thread that has not called the device yet cannot be
 * counted: when the process has other threads, the report waits a second
 * (DEADLOCK_GRACE_S) for one of them to act. */

#define DEADLOCK_GRACE_S 1.0

/* Threads of this process (Linux: /proc/self/status), 0 if unknown. */
static unsigned process_threads(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	unsigned n = 0;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Threads: %u", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

static const char *queue_name(unsigned q)
{
	static const char *const n[XS_GPU_MAX_QUEUES] = { "queue 0 (direct)", "queue 1 (compute)",
							  "queue 2 (compute)", "queue 3 (compute)" };
	return q < XS_GPU_MAX_QUEUES ? n[q] : "queue ?";
}

/* What each blocked queue waits for, and who could signal it. */
static void deadlock_report(xs_rt_device *d, const xs_rt_fence *hf, uint64_t hv, const char *why, xs_err *e)
{
	char buf[900];
	size_t n = 0;
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "the host waits for %s to reach %llu (it is %llu)", hf->name,
			      (unsigned long long)hv, (unsigned long long)*hf->value);
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES && n < sizeof(buf) - 200; q++) {
		const xs_rt_queue *Q = &d->queues[q];
		if (!Q->nitems || Q->items[0].kind != XS_RT_WAIT)
			continue;
		const xs_rt_item *w = &Q->items[0];
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "; %s waits for %s >= %llu (it is %llu)", queue_name(q),
				      w->fence->name, (unsigned long long)w->value, (unsigned long long)*w->fence->value);
		bool any = false;
		for (unsigned o = 0; o < XS_GPU_MAX_QUEUES; o++)
			for (uint32_t i = 0; i < d->queues[o].nitems; i++) {
				const xs_rt_item *s = &d->queues[o].items[i];
				if (s->kind == XS_RT_SIGNAL && s->fence == w->fence && s->value >= w->value && !any) {
					any = true;
					n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", which only %s signals, after its own wait",
							      queue_name(o));
				}
			}
		if (!any)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", which no queued work signals");
	}
	xs_rt_fail(e, XS_E_DEVICE_REMOVED, XS_MSG_DEADLOCK, "device removed: deadlock (%s): %s", why, buf);
}

static void note_thread(xs_rt_device *d)
{
	pthread_t self = pthread_self();
	for (uint32_t i = 0; i < d->host_threads_known; i++)
		if (pthread_equal(d->known[i], self))
			return;
	if (d->host_threads_known < XS_ARRAY_SIZE(d->known))
		d->known[d->host_threads_known++] = self;
}

static void deadline_in(struct timespec *ts, double s)
{
	clock_gettime(CLOCK_REALTIME, ts);
	long ns = (long)(s * 1e9);
	ts->tv_sec += ns / 1000000000;
	ts->tv_nsec += ns % 1000000000;
	if (ts->tv_nsec >= 1000000000) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000;
	}
}

bool xs_rt_fence_wait_timeout(xs_rt_fence *f, uint64_t value, double seconds)
{
	xs_rt_device *d = f->dev;
	pthread_mutex_lock(&d->lock);
	double end = xs_now_seconds() + seconds;
	xs_err e;
	for (;;) {
		if (*f->value >= value || d->removed)
			break;
		xs_status r = xs_rt_run_locked(d, &e);
		if ((r && r != XS_E_DEVICE_REMOVED) || *f->value >= value || d->removed)
			break;
		double left = end - xs_now_seconds();
		if (left <= 0)
			break;
		/* A timed wait is no deadlock: the host gets control back. */
		struct timespec ts;
		deadline_in(&ts, XS_MIN(left, 0.05));
		pthread_cond_timedwait(&d->changed, &d->lock, &ts);
	}
	bool reached = *f->value >= value;
	pthread_mutex_unlock(&d->lock);
	return reached;
}

xs_status xs_rt_fence_wait(xs_rt_fence *f, uint64_t value, xs_err *e)
{
	xs_rt_device *d = f->dev;
	pthread_mutex_lock(&d->lock);
	note_thread(d);
	xs_status st = XS_OK;
	/* the host-time limit counts from the last change anywhere on the
	 * device (a signal, a submission, completed work), not from the wait's
	 * start: a long wait on a thread while another makes progress is no
	 * deadlock ("nothing changed within the host-time limit") */
	double since = xs_now_seconds();
	uint64_t seen = d->changes;
	for (;;) {
		if (*f->value >= value || d->removed)
			break;
		xs_status r = xs_rt_run_locked(d, e);
		if (r && r != XS_E_DEVICE_REMOVED) {
			st = r;
			break;
		}
		if (*f->value >= value || d->removed)
			break;
		/* The GPU can do no more. Another host thread may still signal or
		 * submit: wait for it, unless every thread the device knows waits. */
		d->host_threads_waiting++;
		bool alone = d->host_threads_waiting >= d->host_threads_known;
		/* Every thread the device knows waits. If the process has others, one
		 * of them may be about to call the device for the first time: give it
		 * a second before calling it a deadlock. */
		if (alone && process_threads() > 1) {
			if (!d->alone_since)
				d->alone_since = xs_now_seconds();
			alone = xs_now_seconds() - d->alone_since > DEADLOCK_GRACE_S;
			if (!alone) {
				struct timespec ts;
				deadline_in(&ts, 0.05);
				pthread_cond_timedwait(&d->changed, &d->lock, &ts);
				d->host_threads_waiting--;
				continue;
			}
		}
		d->alone_since = 0;
		bool timed_out = false;
		if (!alone) {
			struct timespec ts;
			deadline_in(&ts, 0.05);
			pthread_cond_timedwait(&d->changed, &d->lock, &ts);
			if (d->changes != seen) {
				seen = d->changes;
				since = xs_now_seconds();
			}
			timed_out = d->hang_host_s > 0 && xs_now_seconds() - since > d->hang_host_s;
		}
		d->host_threads_waiting--;
		if (alone || timed_out) {
			xs_err r2;
			deadlock_report(d, f, value, alone ? "no other host thread can signal"
							   : "nothing changed within the host-time limit", &r2);
			d->removed_fault = (xs_fault){ .kind = XS_FAULT_HANG };
			xs_gpu_abandon(d->gpu);
			remove_device(d, &r2);
			break;
		}
	}
	pthread_mutex_unlock(&d->lock); /* after a removal too: fences read UINT64_MAX */
	return st;
}

xs_status xs_rt_finish(xs_rt_device *d, xs_err *e)
{
	pthread_mutex_lock(&d->lock);
	xs_status st = xs_rt_run_locked(d, e);
	if (!st)
		for (unsigned q = 0; q < XS_GPU_MAX_QUEUES && !st; q++)
			if (d->queues[q].nitems) {
				uint64_t va, ref;
				if (xs_gpu_queue_waiting(d->gpu, q, &va, &ref)) {
					st = xs_err_set(e, XS_E_DEVICE_REMOVED,
							"device removed: hang: %s waits at WAIT_REG_MEM on 0x%llx for %llu and "
							"nothing left can write it", queue_name(q), (unsigned long long)va,
							(unsigned long long)ref);
					d->removed_fault = (xs_fault){ .kind = XS_FAULT_HANG };
					xs_gpu_abandon(d->gpu);
					remove_device(d, e);
				}
			}
	pthread_mutex_unlock(&d->lock);
	return st;
}
