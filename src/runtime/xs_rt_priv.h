/* Internal state of the runtime, shared by the files of src/runtime. */
#ifndef XS_RT_PRIV_H
#define XS_RT_PRIV_H

#include "runtime/xs_rt.h"

/* One entry of a queue's timeline: work (a command list's PM4 or a native
 * batch), a fence signal or a fence wait. It completes when the CP writes
 * its sequence number to the queue's done word (a RELEASE_MEM after it). */
typedef enum { XS_RT_WORK, XS_RT_SIGNAL, XS_RT_WAIT } xs_rt_item_kind;

typedef struct xs_rt_item {
	xs_rt_item_kind kind;
	uint64_t seq;
	xs_rt_fence *fence;           /* signal / wait */
	uint64_t value;
	uint64_t va;                  /* the item's PM4 (the runtime's IB) */
	uint32_t ndw;
	xs_gpu_dispatch_result *results;
	uint32_t nresults;
	bool own_results;
	bool recorded;                /* its submission is in the recording */
	bool record_pending;          /* its results are still to be written */
} xs_rt_item;

struct xs_rt_queue {
	unsigned hw;
	uint64_t done_va;
	volatile uint64_t *done;      /* sequence number of the last completed item */
	/* *done as the runtime last saw it, under the device lock (retire): the
	 * word itself is GPU memory the CP writes while it runs, under that
	 * lock, so a reader without the lock (the D3D12 layer's allocator
	 * and resource checks) reads this copy, atomically. */
	uint64_t completed;
	uint64_t next_seq;
	xs_rt_item *items;            /* pending, oldest first */
	uint32_t nitems, cap;
	xs_rt_cmdmem mem;             /* the items' PM4; reset when the queue empties */
};

/* Command memory calls for a caller that holds the device lock. */
static inline xs_status xs_rt_cmdmem_alloc_locked(xs_rt_cmdmem *m, size_t size, size_t align, uint64_t *va,
						  uint8_t **host, xs_err *e)
{
	return xs_rt_cmdmem_alloc_in(m, size, align, true, va, host, e);
}
void xs_rt_cmdmem_reset_locked(xs_rt_cmdmem *m);
void xs_rt_cmdmem_free_locked(xs_rt_cmdmem *m);

xs_status xs_rt_queues_init(xs_rt_device *d, xs_err *e);
void xs_rt_queues_fini(xs_rt_device *d);
/* Makes sure the default scratch allocation holds per_wave x its slots
 * (lock held). */
xs_status xs_rt_default_scratch(xs_rt_device *d, uint64_t per_wave, xs_err *e);
/* XS12_RUN_AHEAD=0 in the environment: the functional run-ahead off
 * (xs_gpu_set_run_ahead) for a device's GPU and a replay's alike. */
void xs_rt_run_ahead_from_env(xs_gpu *gpu);
/* Recording of one GPU run (lock held). */
void xs_rt_record_before(xs_rt_device *d);
void xs_rt_record_after(xs_rt_device *d, xs_status st, bool blocked);

#endif
