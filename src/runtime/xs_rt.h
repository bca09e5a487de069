/*
 * The runtime: what ROCr and the command processor's firmware do for a
 * dispatch, and what a D3D12 driver does around it, shared by the native
 * xs_ API (src/api) and the D3D12 layer (src/d3d12). It turns launches into
 * PM4 and GPU memory; the GPU model (src/gpu) sees nothing else.
 *
 *   xs_rt_device   the GPU and its address space, the driver's default
 *                  scratch (S1.8), the hardware queues and fences, removal
 *   xs_rt_cmdmem   GPU memory a command allocator owns: kernarg segments, AQL
 *                  packets, PM4 of closed lists (written once, executed many
 *                  times, freed with the allocator)
 *   launches       the kernarg segment with hidden arguments, the AQL packet,
 *                  the user SGPRs the descriptor enables, the scratch ring and
 *                  its V#, the COMPUTE_* registers, DISPATCH_DIRECT/INDIRECT
 *   rules          every check returns a message ID of xs12_messages.def,
 *                  with the SPEC rule and the values in the text
 *   queues         submissions, fences (RELEASE_MEM / WAIT_REG_MEM64), host
 *                  waits that run the GPU, deadlock detection
 *
 * Thread safety: one device lock covers the GPU, the queues and the default
 * scratch; command memory and builders belong to one recording thread.
 */
#ifndef XS_RT_H
#define XS_RT_H

#include "codeobj/xs_codeobj.h"
#include "gpu/xs_gpu.h"
#include "mem/xs_vm.h"
#include "pm4/xs_pm4_build.h"

#include <pthread.h>
#include <stdio.h>

/* ---- messages -------------------------------------------------------------------- */

/* Severities and categories, numbered as D3D12_MESSAGE_SEVERITY / _CATEGORY. */
typedef enum xs_rt_severity {
	XS_SEV_CORRUPTION = 0, XS_SEV_ERROR = 1, XS_SEV_WARNING = 2, XS_SEV_INFO = 3, XS_SEV_MESSAGE = 4,
} xs_rt_severity;
typedef enum xs_rt_category {
	XS_CAT_MISC = 1, XS_CAT_INITIALIZATION = 2, XS_CAT_CLEANUP = 3, XS_CAT_COMPILATION = 4,
	XS_CAT_STATE_CREATION = 5, XS_CAT_STATE_SETTING = 6, XS_CAT_STATE_GETTING = 7,
	XS_CAT_RESOURCE = 8, XS_CAT_EXECUTION = 9, XS_CAT_SHADER = 10,
} xs_rt_category;

typedef enum xs_rt_msg_id {
	XS_MSG_NONE = 0,
#define XS_MSG(name, sev, cat, rule, summary) XS_MSG_##name,
#include "xs12/xs12_messages.def"
#undef XS_MSG
	XS_MSG_COUNT
} xs_rt_msg_id;

/* xs12's D3D12 message IDs: XS_MSG_ID_BASE + id, above
 * D3D12_MESSAGE_ID_D3D12_MESSAGES_END (1362 in DirectX-Headers 1.606). */
#define XS_MSG_ID_BASE 10000u

typedef struct xs_rt_msg_info {
	const char *name;      /* "SCRATCH_DEST_ALIGN" */
	xs_rt_severity severity;
	xs_rt_category category;
	const char *rule;      /* "S1.3", or "D3D12" for the API's own rules */
	const char *summary;
} xs_rt_msg_info;
const xs_rt_msg_info *xs_rt_msg(xs_rt_msg_id id);
/* Fills e with status st, message id and "RULE: <formatted text>". */
xs_status xs_rt_fail(xs_err *e, xs_status st, xs_rt_msg_id id, const char *fmt, ...) XS_PRINTF(4, 5);

/* ---- device ---------------------------------------------------------------------- */

typedef struct xs_rt_config {
	xs_machine machine;
	uint32_t scratch_waves;       /* default ring slots; 0 = the driver default (S1.8) */
	bool functional;
	uint32_t threads;             /* 0 = all cores */
	uint32_t timing_threads;      /* 0 or 1 = one; 2 = the run-ahead on a second (xs_gpu_set_timing_threads) */
	uint32_t hang_gpu_us, hang_host_ms; /* 0 = default, XS_WATCHDOG_OFF = off */
	uint64_t watchdog_wave_insts; /* 0 = none */
	void (*progress)(void *user, uint64_t launched, uint64_t total, uint64_t cycles);
	void *progress_user;
} xs_rt_config;

typedef struct xs_rt_queue xs_rt_queue;
typedef struct xs_rt_fence xs_rt_fence;

typedef struct xs_rt_device {
	const xs_devinfo *info;
	xs_vm *vm;
	xs_gpu *gpu;
	pthread_mutex_t lock;
	pthread_cond_t changed;       /* fences, submissions, removal: host waiters look again */
	uint64_t changes;             /* host signals, submissions and completed items so far: a host wait's
				       * host-time limit counts from the last (xs_rt_fence_wait) */
	bool functional;
	uint32_t threads;
	uint64_t watchdog;            /* per-wave instruction budget, 0 = none */
	uint64_t hang_cycles;         /* GPU-time hang limit, 0 = off */
	double hang_host_s;           /* host-time limit of GPU runs and host waits, 0 = off */
	uint64_t queue_va;            /* amd_queue_t stand-in (zeroed page) */
	uint64_t dispatch_id;
	/* S1.8: one allocation shared by every queue and ring. It grows for
	 * the largest per-wave need and never shrinks; an outgrown one stays
	 * mapped (recorded lists point at it) until the device goes. */
	uint32_t scratch_waves;
	uint64_t scratch_va, scratch_size;
	uint64_t scratch_per_wave;    /* its slot size: the largest need so far */
	uint64_t *old_scratch;
	uint32_t nold_scratch;
	struct xs_rt_queue *queues;   /* XS_GPU_MAX_QUEUES */
	xs_rt_fence *fences;          /* every live fence: removal sets them to UINT64_MAX */
	uint32_t host_threads_known, host_threads_waiting;
	double alone_since;           /* when every known host thread began waiting (deadlock grace) */
	pthread_t known[16];
	/* removal */
	bool removed;
	xs_status removed_status;
	xs_fault removed_fault;       /* kind of the fault (hang, VM, ...) */
	xs_err removed_report;
	char removed_positions[480];  /* the CPs' IB positions at the removal */
	/* recording (xs_rt_record_*): written to record_tmp beside record_path,
	 * which it replaces at the close when whole */
	FILE *record;
	char *record_path, *record_tmp;
	uint32_t record_batches;
	int record_errno;             /* the first write's failure, 0 = none */
	struct xs_rt_module *modules; /* loaded code objects, newest first */
	/* Modules freed while a profile was on: their code objects stay (not
	 * their GPU memory) so that the profile can still name and disassemble
	 * what ran, e.g. a D3D12 program's pipelines released before its
	 * device writes XS12_PROFILE. Freed with the profile or the device. */
	struct xs_rt_module *retired;
	bool profile_traced;          /* the profile turned the trace on (xs_rt_profile_enable) */
} xs_rt_device;

xs_status xs_rt_device_create(const xs_rt_config *cfg, xs_rt_device **out, xs_err *e);
void xs_rt_device_destroy(xs_rt_device *d);

/* ---- code objects ---------------------------------------------------------------- */

typedef struct xs_rt_module {
	xs_codeobj *co;
	uint64_t load_va;             /* GPU address of the image's vaddr 0 */
	/* the device's loaded modules (under its lock), for naming code in
	 * profiles (xs_rt_profile.c) */
	struct xs_rt_module *next, *prev;
} xs_rt_module;

xs_status xs_rt_module_load(xs_rt_device *d, const void *bytes, size_t size, xs_rt_module **out, xs_err *e);
void xs_rt_module_free(xs_rt_device *d, xs_rt_module *m);
/* Drops the code objects kept for a profile (the device's lock held, or
 * its last reference). */
void xs_rt_module_free_retired(xs_rt_device *d);

/* ---- command memory ------------------------------------------------------------------ */

/* Host-mapped GPU memory in chunks, bump-allocated; a reset empties them
 * all for reuse, xs_rt_cmdmem_free unmaps them. */
typedef struct xs_rt_chunk {
	uint64_t va;
	uint8_t *host;
	size_t size, used;
} xs_rt_chunk;

typedef struct xs_rt_cmdmem {
	xs_rt_device *dev;
	xs_rt_chunk *chunks;           /* 0..cur in use, then empty ones kept from earlier recordings */
	uint32_t nchunks, cap, cur;
	const char *name;             /* for the allocations' names in fault reports */
} xs_rt_cmdmem;

void xs_rt_cmdmem_init(xs_rt_cmdmem *m, xs_rt_device *d, const char *name);
/* The allocation when the current chunk has no room: a kept or a new chunk. */
xs_status xs_rt_cmdmem_alloc_chunk(xs_rt_cmdmem *m, size_t size, bool locked, uint64_t *va, uint8_t **host,
				   xs_err *e);
/* The common case inline (a Dispatch allocates twice, nearly always in the
 * current chunk); locked: the caller holds the device lock. */
static inline xs_status xs_rt_cmdmem_alloc_in(xs_rt_cmdmem *m, size_t size, size_t align, bool locked, uint64_t *va,
					      uint8_t **host, xs_err *e)
{
	if (m->nchunks) {
		xs_rt_chunk *c = &m->chunks[m->cur];
		size_t at = XS_ALIGN_UP(c->used, align);
		if (at + size <= c->size) {
			c->used = at + size;
			*va = c->va + at;
			*host = c->host + at;
			return XS_OK;
		}
	}
	return xs_rt_cmdmem_alloc_chunk(m, size, locked, va, host, e);
}
/* size bytes at va (aligned, align <= 4096), host pointer in *host (zeroed). */
static inline xs_status xs_rt_cmdmem_alloc(xs_rt_cmdmem *m, size_t size, size_t align, uint64_t *va, uint8_t **host,
					   xs_err *e)
{
	return xs_rt_cmdmem_alloc_in(m, size, align, false, va, host, e);
}
/* Empties (and zeroes) every chunk for reuse; the memory stays mapped. */
void xs_rt_cmdmem_reset(xs_rt_cmdmem *m);
void xs_rt_cmdmem_free(xs_rt_cmdmem *m);
/* Forgets the memory without unmapping it: the GPU may still read it (the
 * device's VM frees it when the device goes). */
void xs_rt_cmdmem_abandon(xs_rt_cmdmem *m);

/* ---- scratch rings (S1) ---------------------------------------------------------------- */

/* A compute ring as the title set it (SetShaderScratchSpaceX); va 0 = the
 * driver's default (S1.4). */
typedef struct xs_rt_ring {
	uint64_t va, size;
	uint32_t per_wave;
} xs_rt_ring;

/* The rules of SetShaderScratchSpaceX for one ring (S1.3-S1.6, and the
 * memory allocated); flags are checked by the caller (S1.2, S1.14). */
xs_status xs_rt_check_scratch_space(const xs_rt_device *d, uint64_t va, uint64_t size, uint64_t per_wave, xs_err *e);

/* ---- launches --------------------------------------------------------------------- */

/* A root argument of ExecuteIndirect: bytes the CP copies (CP DMA) from an
 * argument buffer into the launch's kernarg segment before its dispatch. */
typedef struct xs_rt_kernarg_copy {
	uint32_t offset, bytes;       /* in the kernarg segment */
	uint64_t src_va;
} xs_rt_kernarg_copy;

typedef struct xs_rt_launch {
	const xs_rt_module *mod;
	const xs_codeobj_kernel *k;
	uint32_t groups[3], block[3];
	const uint8_t *kernargs;      /* explicit arguments at their metadata offsets */
	size_t kernargs_size;
	uint32_t dynamic_lds;         /* bytes beyond the static LDS (__local pointer arguments, S3.7) */
	uint32_t work_dim;            /* 0 = highest dimension with more than one thread */
	uint64_t cu_mask;             /* 0 = all CUs */
	unsigned queue;               /* hardware queue (0 direct, 1..3 async compute) */
	xs_rt_ring ring;              /* va 0 = the driver default */
	/* ExecuteIndirect: the CP reads the group counts (12 bytes) and the
	 * launch parameters (8 bytes, S3.1) from these addresses when it gets
	 * there; 0 = given above. */
	uint64_t indirect_dims_va, indirect_launch_va;
	const xs_rt_kernarg_copy *copies;
	uint32_t ncopies;
	/* Allow kernels' .max_flat_workgroup_size to be exceeded up to the
	 * hardware's limit? No: S3.7. Set by the D3D12 layer for launch
	 * parameter overrides so messages name S3 rules. */
	bool launch_override;
} xs_rt_launch;

/* What a recorded launch came to (statistics and the scratch-reuse checks). */
typedef struct xs_rt_launch_info {
	bool scratch_en, default_ring;
	uint64_t per_wave;            /* scratch bytes per wave (S1.11) */
	uint64_t ring_va, ring_bytes; /* the memory the ring's V# points at */
	uint32_t ring_slots;          /* COMPUTE_TMPRING_SIZE.WAVES */
	uint64_t karg_va, pkt_va;
} xs_rt_launch_info;

/* The launch rules (groups, block, LDS, kernargs, CU mask): a message ID each. */
xs_status xs_rt_check_launch(const xs_rt_device *d, const xs_rt_launch *l, xs_err *e);
/* Writes the kernarg segment and AQL packet into m and the dispatch's PM4
 * into b (checks first). Sizes the default scratch allocation when needed. */
xs_status xs_rt_record_launch(xs_rt_device *d, xs_rt_cmdmem *m, xs_pm4_builder *b, const xs_rt_launch *l,
			      xs_rt_launch_info *out, xs_err *e);

/* The part of a launch its group counts and explicit arguments do not
 * change, worked out once (what a driver keeps with its bound pipeline):
 * the registers and user SGPRs, their PM4 already encoded, the AQL packet
 * and the hidden arguments, with the places each dispatch fills in. */
#define XS_RT_LAUNCH_PM4_DW 64        /* the dispatch's PM4: 51 dwords of registers + DISPATCH_DIRECT */
#define XS_RT_LAUNCH_PM4_AGAIN_DW 32  /* ... with the SH registers set: 2 + at most 16 + 5 */
#define XS_RT_LAUNCH_RUNS 8           /* runs of consecutive hidden arguments */
#define XS_RT_LAUNCH_PATCHES 8        /* hidden arguments the group counts decide */

typedef struct xs_rt_launch_regs {
	uint32_t pgm[2], rsrc[2], rsrc3, start_nt[6], tmpring, cu[XS_MAX_SE];
	uint32_t ud[XS_COMPUTE_USER_DATA_COUNT];
} xs_rt_launch_regs;

typedef struct xs_rt_launch_tmpl {
	bool valid;                   /* prepared for the launch below, and reusable */
	/* the launch it was prepared for (xs_rt_launch without the counts and arguments) */
	const xs_rt_module *mod;
	const xs_codeobj_kernel *k;
	uint32_t block[3], dynamic_lds, work_dim;
	uint64_t cu_mask;
	unsigned queue;
	xs_rt_ring ring;
	bool launch_override, predicate;
	/* what it came to */
	xs_rt_launch_info info;       /* the scratch fields (karg_va, pkt_va 0) */
	uint32_t karg_alloc, initiator;
	xs_rt_launch_regs regs;       /* user SGPRs of the addresses are 0 here */
	int8_t ud_pkt, ud_karg, ud_id; /* their index in regs.ud (-1: not enabled) */
	uint32_t pm4[XS_RT_LAUNCH_PM4_DW], ndw_regs, ndw; /* ndw: with DISPATCH_DIRECT */
	/* The same launch when the builder's SH registers are still this
	 * template's (b->sh_tag == tag): only the user SGPRs of the addresses,
	 * COMPUTE_USER_DATA_<lo>.., then DISPATCH_DIRECT, as a driver sends
	 * only its dirty state. */
	uint64_t tag;
	uint32_t pm4_again[XS_RT_LAUNCH_PM4_AGAIN_DW], ndw_again_regs, ndw_again;
	int8_t again_lo;              /* first user SGPR in pm4_again */
	uint8_t aql[64];
	/* Hidden arguments as runs of the image (their bytes at their offsets)
	 * and the ones set per dispatch; nruns < 0: per argument, as xs_rt_record_launch. */
	int nruns, npatches;
	bool explicit_apart;          /* no explicit argument shares a byte with a hidden one */
	uint16_t image_blocks;        /* 32-byte blocks of image up to the last hidden argument */
	struct { uint16_t lo, hi; } runs[XS_RT_LAUNCH_RUNS];
	struct { uint16_t offset; uint8_t size, kind; } patches[XS_RT_LAUNCH_PATCHES];
	uint8_t image[XS_CODEOBJ_MAX_KERNARG];
} xs_rt_launch_tmpl;

/* xs_rt_record_launch for a recording that keeps t (initially zeroed, or
 * invalid) from one launch to the next: when the launch matches t's (the
 * same kernel, group shape, LDS, ring, queue) it writes t's PM4, AQL
 * packet and hidden arguments with this launch's counts, addresses and
 * explicit arguments, the same bytes xs_rt_record_launch writes, without
 * doing its work again. Otherwise it does, and prepares t. Launches with
 * the driver's default scratch ring (which can move when it grows) and
 * ExecuteIndirect's are never kept. */
xs_status xs_rt_record_launch_cached(xs_rt_device *d, xs_rt_launch_tmpl *t, xs_rt_cmdmem *m, xs_pm4_builder *b,
				     const xs_rt_launch *l, xs_rt_launch_info *out, xs_err *e);
/* The launch t was prepared for, again with other group counts, for a
 * caller that knows nothing else of it changed since (a D3D12 list: the
 * same pipeline, launch parameters and ring) and writes the explicit
 * arguments itself, straight into the kernarg segment, *karg (zero but for
 * the hidden arguments): the bytes xs_rt_record_launch writes, as explicit
 * and hidden arguments do not overlap. Needs t->valid and
 * t->explicit_apart, and counts of 1..65535 (D3D12's), which no rule of
 * xs_rt_check_launch can refuse for a launch it let through. */
xs_status xs_rt_record_again(xs_rt_device *d, const xs_rt_launch_tmpl *t, xs_rt_cmdmem *m, xs_pm4_builder *b,
			     const uint32_t groups[3], xs_rt_launch_info *out, uint8_t **karg, xs_err *e);

/* ---- queues and fences ---------------------------------------------------------------- */

struct xs_rt_fence {
	xs_rt_device *dev;
	uint64_t va;                  /* 8 bytes of host-mapped GPU memory: the value */
	volatile uint64_t *value;
	char name[64];
	xs_rt_fence *next;
};

xs_status xs_rt_fence_create(xs_rt_device *d, uint64_t initial, xs_rt_fence **out, xs_err *e);
void xs_rt_fence_destroy(xs_rt_fence *f);
/* The value the GPU has reached (runs submitted work first: the GPU model
 * advances when the host looks). UINT64_MAX after a removal. */
uint64_t xs_rt_fence_completed(xs_rt_fence *f);
/* The host sets the value (ID3D12Fence::Signal). */
/* false when the device is removed (the value stays UINT64_MAX) */
bool xs_rt_fence_host_signal(xs_rt_fence *f, uint64_t value);
/* Blocks until the fence reaches value, the device is removed, or a
 * deadlock is found (then the device is removed: DEVICE_HUNG). */
xs_status xs_rt_fence_wait(xs_rt_fence *f, uint64_t value, xs_err *e);
/* Waits at most seconds (the GPU runs meanwhile); true if reached. Not a
 * deadlock when it is not: the host gets control back. */
bool xs_rt_fence_wait_timeout(xs_rt_fence *f, uint64_t value, double seconds);

/* A submission: PM4 in GPU memory on a hardware queue; results[k] gets the
 * k-th dispatch's figures (may be NULL: the runtime keeps them until the
 * submission completes). Queue ops: fence signal / wait. */
/* *seq (may be NULL): the item's sequence number on its queue; it has
 * completed when xs_rt_queue_done(d, queue) >= *seq. */
xs_status xs_rt_submit(xs_rt_device *d, unsigned queue, uint64_t va, uint32_t ndw,
		       xs_gpu_dispatch_result *results, uint32_t nresults, uint64_t *seq, xs_err *e);
xs_status xs_rt_queue_signal(xs_rt_device *d, unsigned queue, xs_rt_fence *f, uint64_t value, uint64_t *seq,
			     xs_err *e);
xs_status xs_rt_queue_wait(xs_rt_device *d, unsigned queue, xs_rt_fence *f, uint64_t value, uint64_t *seq,
			   xs_err *e);
/* The sequence number the queue has completed (what the GPU has run so far). */
uint64_t xs_rt_queue_done(const xs_rt_device *d, unsigned queue);
/* The figures of the dispatches of a work item still pending (NULL once
 * it completed and was retired): for DRED's breadcrumbs. */
const xs_gpu_dispatch_result *xs_rt_item_results(const xs_rt_device *d, unsigned queue, uint64_t seq, uint32_t *n);
/* The host looks at the GPU's results: the submitted work runs (as far as it can). */
void xs_rt_poll(xs_rt_device *d);
/* Runs every queue until idle or blocked on waits (lock held by the caller). */
xs_status xs_rt_run_locked(xs_rt_device *d, xs_err *e);
/* Runs until every submission so far has completed (the native API's
 * synchronous dispatch). A queue blocked on a wait nothing will satisfy
 * is a hang. */
xs_status xs_rt_finish(xs_rt_device *d, xs_err *e);
/* The native API's devices live on after a removal (each call is a new
 * submission): the removal is forgotten and the pending work dropped.
 * D3D12 devices never recover. */
void xs_rt_recover(xs_rt_device *d);
/* The device was removed: its report; NULL if not. */
const xs_err *xs_rt_removed(const xs_rt_device *d);
/* Removes the device for a reason of the host's (e: its status and report,
 * e.g. XS_E_OUT_OF_MEMORY for a submission that could not be made): every
 * fence reads UINT64_MAX and every wait returns, as after a GPU fault. */
void xs_rt_remove(xs_rt_device *d, const xs_err *e);

/* ---- recording (xs12 replay) ---------------------------------------------------------------- */

xs_status xs_rt_record_open(xs_rt_device *d, const char *path, xs_err *e);
/* Ends the recording: when at least one batch was written and every write
 * worked, the file replaces what was at the path; otherwise the path keeps
 * what it had (a run that failed before any GPU work does not empty an
 * earlier recording there) and a write error is returned. */
xs_status xs_rt_record_close(xs_rt_device *d, xs_err *e);
/* Is this a recording (its magic)? */
bool xs_rt_is_recording(const void *bytes, size_t size);
/* Reads a recording batch by batch and calls fn for each submission: its
 * queue, its command buffer's address and size, and the batch's memory as
 * it was at submission (to read the command buffer and what it calls).
 * fn's non-OK status stops the walk and is returned. */
typedef xs_status (*xs_rt_walk_fn)(void *user, uint32_t batch, uint32_t queue, uint64_t va, uint32_t ndw,
				   xs_vm *vm, xs_err *e);
xs_status xs_rt_record_walk(const char *path, xs_rt_walk_fn fn, void *user, xs_err *e);
/* The same over a recording in memory (the fuzz harness, tests/fuzz);
 * name stands for the path in messages. */
xs_status xs_rt_record_walk_mem(const void *bytes, size_t size, const char *name, xs_rt_walk_fn fn, void *user,
				xs_err *e);
/* Replays a recording through the GPU model alone (xs12 replay). */
xs_status xs_rt_replay(const char *path, xs_replay_report *rep, xs_err *e);
/* The same with the command processor's register overrides (xs12 sweep
 * --override), each dispatch's result and each batch's memory digest and
 * status handed to the callbacks (either may be NULL); hits[i] (may be NULL)
 * counts the register writes override i replaced. With overrides the run
 * differs from the recording by design: the recorded cycles and waves no
 * longer bound it (the recording's GPU-time watchdog and a host-time one do). */
typedef struct xs_rt_replay_opts {
	const struct xs_gpu_override *overrides;
	uint32_t num_overrides;
	uint64_t *hits;
	/* after each dispatch; timing: the recording ran the timing model (its
	 * cache and DRAM counters are modelled) */
	void (*dispatch)(void *user, const struct xs_gpu_dispatch_result *r, const struct xs_devinfo *info, bool timing);
	/* after each batch: its status and message (a device removal, a hang) */
	void (*batch)(void *user, uint64_t memory_digest, xs_status status, const char *message);
	void *user;
} xs_rt_replay_opts;
xs_status xs_rt_replay_ex(const char *path, const xs_rt_replay_opts *o, xs_replay_report *rep, xs_err *e);

#endif
