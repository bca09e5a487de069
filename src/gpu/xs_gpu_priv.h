/* Internal state of the simulated GPU, shared by the files of src/gpu. */
#ifndef XS_GPU_PRIV_H
#define XS_GPU_PRIV_H

#include "gpu/xs_gpu.h"
#include "gpu/xs_gpu_cache.h"
#include "gpu/xs_gpu_occupancy.h"
#include "gpu/xs_gpu_override.h"
#include "pm4/xs_pm4_parse.h"

#include <assert.h>
#include <signal.h>
#include <stddef.h>

/* Capacities of xs_gpu_simd.wave and xs_gpu_group.waves: at least the
 * device-info figures they hold (checked here for gfx10.3 and, for every
 * machine's row, by xs_gpu_create). */
#define XS_GPU_MAX_WAVE_SLOTS 16
#define XS_GPU_MAX_WAVES_PER_GROUP 32
_Static_assert(XS_GPU_MAX_WAVE_SLOTS >= XS_GFX103_WAVE_SLOTS_PER_SIMD, "a SIMD's wave slots fit xs_gpu_simd.wave");
_Static_assert(XS_GPU_MAX_WAVES_PER_GROUP >= XS_GFX103_MAX_WAVES_PER_GROUP,
	       "a thread group's waves fit xs_gpu_group.waves");
/* The interpreter reports the cache lines an access touches at its own
 * granule (src/isa cannot see the device table); it is the L2's line. */
_Static_assert(XS_GPU_MAX_ACTIVE < 32, "xs_gpu.disp_mask has a bit per dispatch slot");
_Static_assert((1u << XS_MTRACE_LINE_SHIFT) == XS_GFX103_L2_LINE_BYTES, "the interpreter reports L2 lines");
#define XS_GPU_MAX_RINGS (2 * XS_GPU_MAX_QUEUES)
#define XS_GPU_VMQ 64            /* outstanding memory operations tracked per wave and counter */
#define XS_GPU_WHEEL 4096        /* cycles the timing wheel covers */
#define XS_GPU_LDS_MAX_BANKS 64  /* xs_devinfo.lds_banks at most (a phase's dwords, xs_gpu_lds.c) */

/* xs_gpu_lds.c: one LDS instruction's accesses, as the timing model reads
 * them from the wave (run_ahead): each active lane l of exec moves naddr
 * (1 or 2) elements of ndw (1..4) dwords, element i at addr[l] + off[i]
 * bytes. */
typedef struct xs_gpu_lds_access {
	const uint32_t *addr;   /* the address VGPR's row */
	uint64_t exec;
	uint32_t lanes;         /* the wave's */
	uint32_t off[2];
	uint32_t naddr, ndw;
} xs_gpu_lds_access;

typedef struct xs_gpu_group xs_gpu_group;
typedef struct xs_gpu_disp xs_gpu_disp;
typedef struct xs_gpu_rap xs_gpu_rap;

/* Outstanding operations of one counter (vmcnt, vscnt, lgkmcnt): completion
 * times in issue order, a ring in xs_gpu_wave.cnt_done; its position sits
 * in the wave's first host line, read at every issue. */
enum { XS_GPU_CNT_VM, XS_GPU_CNT_VS, XS_GPU_CNT_LGKM, XS_GPU_NCNT };
typedef struct xs_gpu_cnt {
	uint8_t head, n;
} xs_gpu_cnt;

/* Run-ahead (timing mode): the interpreter runs a wave several instructions
 * ahead of the timing model, recording for each what the model needs to
 * time it; the model then issues the entries one by one, exactly as it
 * would issue the instructions. The wave's state stays hot in the host
 * caches for the whole run, instead of the model switching waves (and
 * their cold registers) at every instruction. Cycles and bytes are those
 * of executing each instruction at its issue whenever no wave reads what
 * another wave of the same dispatch writes except across a barrier (where
 * the run stops). Waves that do — an atomic's returned value, a flag
 * spun on — still see a legal interleaving, only an earlier one. */
/* 255 (the most a byte counts), not 128: a scratch gather loop's wave then
 * brings its registers and scratch into the host's caches half as often
 * (scratch_chase timing 1.03-1.07x, the rest of the mix alike; cachegrind
 * with a 2 MB LL: 9 % fewer of its misses). */
#define XS_GPU_RA 255            /* entries run ahead per wave */
#define XS_GPU_RA_LINES 1024     /* cache lines they may record */
#define XS_GPU_RA_NOWAIT 0xff
_Static_assert(XS_GPU_RA_LINES >= XS_MTRACE_MAX, "a run always has room for one memory instruction's lines");
_Static_assert(XS_GPU_RA <= 255 && XS_GPU_RA_LINES <= 65535, "ra_head/ra_n are bytes, ra_line 16 bits");

enum {
	XS_GPU_RA_TAKEN = 1,     /* a branch that was taken */
	XS_GPU_RA_ENDED = 2,     /* s_endpgm */
	XS_GPU_RA_BARRIER = 4,   /* s_barrier */
	XS_GPU_RA_FAULT = 8,     /* faulted (or the watchdog stopped it): the device is removed at issue */
	XS_GPU_RA_DEP = 16,      /* a VALU reading the VGPRs the wave's previous VALU wrote */
	XS_GPU_RA_NOCHECK = 32,  /* could not be fetched: issues (and faults) at once */
	XS_GPU_RA_PARK = 64,     /* an exp the sink could not take (EXP_WAIT): the wave leaves the
	                          * event queue until the draw wakes it; the exp then runs again */
	XS_GPU_RA_WAIT = 128,    /* an s_waitcnt* with a limit in wait[] (others skip the counters) */
};

/* What a run-ahead adds to its dispatch's counters (the xs_gpu_counters
 * fields of the same names): kept apart while it runs, as a second thread
 * may run it (xs_gpu_rap.c), then added (xs_gpu_ra_sums_add). */
typedef struct xs_gpu_ra_sums {
	uint64_t vmem_read_bytes, vmem_write_bytes, scratch_read_bytes, scratch_write_bytes;
	uint64_t lds_bank_conflict_cycles;
} xs_gpu_ra_sums;

typedef struct xs_gpu_ra_ent {
	uint8_t iclass, flags;
	union {
		struct {
			uint8_t wait[XS_GPU_NCNT]; /* s_waitcnt*: limits for vm, vs, lgkm; XS_GPU_RA_NOWAIT */
			uint8_t ray;       /* VMEM: cycles of the CU's ray accelerator (image_bvh*) */
		};
		uint16_t lds_clk;  /* LDS: clocks on the LDS bus (xs_gpu_lds_clocks) */
	};
	uint16_t n;              /* LDS: bytes moved; VMEM: lines recorded (next in the line buffer) */
} xs_gpu_ra_ent;
_Static_assert(sizeof(xs_gpu_ra_ent) == 8, "a run-ahead entry is 8 bytes");

/* Functional run-ahead: quanta a wave may run ahead of the scheduler; VGPR
 * rows of the stand-ins its group runs in (a group needing more runs in
 * its slots). */
#define XS_GPU_FA 64
#define XS_GPU_HOT_ROWS 1024
_Static_assert(XS_GPU_FA <= 255, "fa_head/fa_n are bytes");

typedef struct xs_gpu_wave {
	/* timing model: what the scheduler reads at every issue, in the first
	 * host cache line (it switches waves at every instruction) */
	uint64_t ready;          /* earliest cycle of its next issue */
	uint64_t seq;            /* launch order: breaks ties deterministically */
	uint64_t valu_done;
	uint64_t *ra_lines;      /* XS_GPU_RA_LINES, in the GPU's run-ahead arena */
	uint32_t simd;           /* where it sits */
	uint16_t ra_line;        /* next line of the entry at ra_head */
	uint8_t ra_stop;         /* issue leaves the entries at this ra_head: ra_n, or before it (two timing
				  * threads) where the next ones are asked for (xs_gpu_rap_ask_next) */
	uint8_t ra_head, ra_n;   /* run-ahead entries: next to issue, recorded */
	bool ending;             /* ran s_endpgm; retires when its memory operations complete */
	bool w64;                /* w.lanes == 64 (VALU and VMEM take two passes), kept in this line */
	xs_gpu_cnt cnt[XS_GPU_NCNT];
	uint8_t disp_slot;       /* its dispatch: g->disp[disp_slot] (the counters of each issue) */
	/* the records, from the second line on */
	_Alignas(64) xs_gpu_ra_ent ra[XS_GPU_RA];
	xs_wave w;               /* architectural state, run by the interpreter */
	uint32_t slot;           /* wave slot in its SIMD */
	bool running;            /* functional, several threads: a thread is executing it */
	bool regs_pending;       /* a dispatch's wave: its registers are set when it first runs */
	/* run-ahead: VGPRs [lo, hi) the last VALU wrote (with the interpreter's
	 * state, not in the first line: a second thread may run it, xs_gpu_rap.c) */
	uint16_t valu_dst_lo, valu_dst_hi;
	bool parked;             /* timing: issued an XS_GPU_RA_PARK entry and left the event queue */
	uint8_t fa_head, fa_n;   /* quanta run ahead (fa): the next, how many (in the pick's line) */
	uint32_t scratch_slot;   /* ring slot, UINT32_MAX when SCRATCH_EN = 0 */
	xs_gpu_group *group;
	uint64_t launched;
	/* functional, one host thread: quanta its group ran ahead of the
	 * scheduler (run_functional's group_ahead), taken from fa_head on, each
	 * its wave instructions << 3 | the xs_wave_status it ended with */
	uint16_t fa[XS_GPU_FA];
	uint64_t cnt_done[XS_GPU_NCNT][XS_GPU_VMQ];
	xs_fault ra_fault;       /* the fault of a FAULT entry, reported when it issues */
} __attribute__((aligned(64))) xs_gpu_wave;
_Static_assert(offsetof(xs_gpu_wave, ra) == 64, "the per-issue fields of a wave fill one 64-byte line");

struct xs_gpu_group {
	xs_gpu_disp *disp;
	uint32_t id[3];
	uint32_t cu;             /* CU (CU mode) or first CU of the WGP (WGP mode) */
	uint32_t nwaves, live, at_barrier;
	xs_gpu_wave *waves[XS_GPU_MAX_WAVES_PER_GROUP];
	uint8_t *lds;
	uint32_t lds_cap;
	bool lds_missing;        /* the host had no memory for its LDS: an LDS fault of it is E_OUTOFMEMORY's */
	uint8_t stage;           /* xs_gpu_trace_stage: compute, or a draw's VS / PS wave (one wave per group) */
	void *gfx;               /* a draw's record of the wave (xs_gpu_draw.c) */
};

/* A SIMD's issue port for one kind of instruction. Waves whose next
 * instruction waits only for the busy pipe queue here, oldest first: one
 * (the retrier) sits in the event queue for when it frees, the next is
 * woken each time the pipe takes an instruction, so a contended pipe costs
 * O(1) per issue instead of a retry per wave. */
#define XS_GPU_PIPES 7
typedef struct xs_gpu_pipe {
	uint64_t free;           /* when it takes the next instruction */
	struct xs_gpu_wave *retrier;
	/* The rest, oldest first: their wave slots in the SIMD, a nibble each
	 * (the lowest the oldest; at most 15 of them, the retrier being
	 * another of the SIMD's 16 slots). In the pipe, not linked through the waves:
	 * waking the oldest read its cold first line for the next link
	 * (scratch_chase timing: 7 % of the samples). */
	uint64_t waitq;
	uint8_t waitq_n;
} __attribute__((aligned(32))) xs_gpu_pipe;
_Static_assert(XS_GPU_MAX_WAVE_SLOTS <= 16, "a pipe's waiting slots are nibbles of one word");

typedef struct xs_gpu_simd {
	xs_gpu_wave *wave[XS_GPU_MAX_WAVE_SLOTS]; /* wave slots: devinfo wave_slots_per_simd */
	uint32_t nwaves;
	uint32_t vgprs_used;     /* wave32 VGPRs */
	uint32_t cu;             /* its CU (chip-wide), and its waves' HW_ID1 but WAVE_ID: worked out */
	uint32_t hw_id;          /* once (xs_gpu_create), not by divisions at every launch */
	uint32_t rr;
	uint64_t clock;          /* functional mode: issue-count clock */
	/* timing mode: one entry per pipe (SALU, SMEM, branch, VALU, LDS,
	 * VMEM, export), the fields an issue touches side by side */
	xs_gpu_pipe pipe[XS_GPU_PIPES];
} xs_gpu_simd;

typedef struct xs_gpu_cu {
	uint32_t se, sa, wgp, cu_in_sa;  /* sa: chip-wide SA index */
	uint32_t groups, lds_used, barriers_used, scratch_waves;
	uint64_t lds_bus_free;   /* timing: LDS bus (CU mode: one per CU) */
	uint64_t ray_free;       /* timing: when the CU's ray accelerator takes more work */
} xs_gpu_cu;

typedef struct xs_gpu_wgp {
	uint32_t first_cu;
	uint32_t lds_used, barriers_used;
	uint64_t lds_bus_free;   /* timing: the WGP-mode LDS bus */
} xs_gpu_wgp;

/* A scratch ring in use: the slots of one queue's tmpring register value.
 * Rings of different queues are separate slot pools, as each pipe has its
 * own tmpring register (SPEC S1.1, S1.9); what memory backs them is the
 * V# in the waves' user SGPRs, which the GPU does not check (S1.10). */
typedef struct xs_gpu_ring {
	bool used;
	unsigned queue;
	bool gfx;                /* the graphics pipe's ring (SPI_TMPRING_SIZE), not compute's */
	uint32_t tmpring;
	uint32_t slots, wavesize;
	uint32_t in_use, peak;
	uint32_t refs;
	uint64_t *bitmap;
} xs_gpu_ring;

/* One dispatch's launch state, decoded once from the registers and kept
 * (the queue may program the next dispatch while this one runs). */
typedef struct xs_spi_dispatch {
	uint32_t user_data[XS_COMPUTE_USER_DATA_COUNT];
	uint64_t pgm_va;
	uint32_t rsrc1, rsrc2, rsrc3;
	uint32_t wave_size, user_sgprs;
	uint32_t block[3], group_threads, waves_per_group;
	uint32_t vgprs, vgprs_w32;
	uint32_t lds_alloc;
	bool wgp_mode, scratch_en;
	uint32_t tmpring, scratch_slots, scratch_wavesize;
	uint32_t tg_per_cu, waves_per_se;
	uint64_t cu_enabled;     /* bit per CU (chip-wide index) from the CU masks */
} xs_spi_dispatch;

struct xs_gpu_draw;
struct xs_gpu_disp {
	/* A draw is an entry like a dispatch (the CP, fences, WAIT_IDLE, results,
	 * removal, hang detection and the trace treat both alike): total = 1,
	 * next = 1 once every wave of it has launched; groups_live counts its
	 * resident waves (each is a group of one). */
	struct xs_gpu_draw *draw;
	uint32_t id;
	unsigned queue;
	xs_spi_dispatch d;
	uint32_t dim[3];
	uint64_t total, next, groups_live;
	uint32_t next_cu;
	xs_gpu_ring *ring;
	xs_gpu_dispatch_result *r;
	/* observables */
	uint32_t resident;
	uint64_t area, last_change; /* integral of resident waves over time */
	uint32_t cu_resident[XS_GPU_MAX_CU];
	uint64_t cu_since[XS_GPU_MAX_CU];
	/* Placement: per CU, 0 when unknown, else 1 + the cause try_place gave
	 * the last time. A failed CU is not tried again until its resources
	 * (or the SE's or the ring's) change, so a retire costs O(1) and not a
	 * scan of every CU. */
	uint8_t cu_fail[XS_GPU_MAX_CU];
	uint64_t cu_unknown;     /* bit per CU whose cu_fail is 0 */
	/* bit per CU in the mask of the cause it failed with (cu_fail), none
	 * while unknown: the blocked cause without a CU walk */
	uint64_t fail_mask[XS_GPU_WAIT_COUNT];
	uint64_t cu_cand;        /* CUs the scan visits (enabled; first CU of a WGP in WGP mode) */
	int blocked;             /* xs_gpu_wait_cause of the first pending group, -1 none */
	uint64_t blocked_since;
	/* Forward progress (hang detection, xs_gpu_watch): the cycle its last
	 * group completed (or its first wave launched onto an empty GPU slot
	 * after none of its groups was resident), and for the host-time limit
	 * the groups done when the host clock was last read. */
	uint64_t progress_cycle;
	uint64_t groups_done, host_seen_done;
	double host_stamp;
};

/* Command processor state of one queue (xs_gpu_cp.c). */
#define XS_GPU_CP_MAX_DEPTH 3
/* Command buffers one submission may fetch (its own, and every IB it calls
 * or chains to): a chain that leads back to itself never ends, as on the
 * GPU, where the OS's timeout detection removes the device; the runtime's
 * submissions fetch one IB per work item. */
#define XS_GPU_CP_MAX_FETCHES (1u << 20)
/* ... and the dwords they hold together: a chain back to itself of a large
 * IB stays under the count for 2^40 dwords fetched and decoded (hours, from
 * a 16-byte IB in 64 KiB of memory). 16 IBs of the largest size; the
 * runtime's submissions fetch one IB of at most that size per work item. */
#define XS_GPU_CP_MAX_FETCH_DWORDS (16ull << 20)
/* ... and the firmware work they ask for: DMA_DATA, XS_FILL and XS_BUILD_AS
 * work in proportion to a size field, not to their dwords, so repeated
 * through IBs within the counts above they were bounded only in principle
 * (2^24 / 7 DMA_DATA packets of 64 MiB copy 150 TiB: hours on the host).
 * The CP charges each one's modelled time to its submission and removes the
 * device as hung, as the OS's timeout detection would, when a packet would
 * take it past this: DMA_DATA and XS_FILL before their work (their sizes
 * say it), XS_BUILD_AS when done (its cost is known then; one build is
 * bounded by its own limits, xs_gpu_accel.c). The model's own limit, in
 * time rather than bytes because a build costs per primitive more than per
 * byte (on the host too: about 20-30 ns a cycle building, 5-10
 * copying). 2^27 cycles are 8 GiB at the CP DMA's rate or builds of 4 M
 * triangles, 74 ms of GPU time at 1825 MHz: 32 times the demo's largest
 * submission (the ray-tracing scene's BLAS, 4.2 M cycles) and 2400 times
 * the tests'; on the host about 1 s of copying or 4 s of building at most
 * (the last build runs before it is charged). A title that builds more
 * than 4 M triangles in one submission must split it. */
#define XS_GPU_CP_MAX_FW_CYCLES (1ull << 27)
/* [model] The CP DMA's rate: DMA_DATA, XS_FILL and XS_BUILD_AS move 64
 * bytes a cycle (XS_FILL's and XS_BUILD_AS's busy time, the firmware budget). */
#define XS_GPU_CP_DMA_BYTES_PER_CYCLE 64u
#define XS_GPU_CP_MAX_SUBS 1024   /* the ring a doorbell writes into: submissions pending per queue */
#define XS_GPU_CP_MAX_RELEASES 256 /* end-of-pipe writes pending (fences, DRED breadcrumbs) */

typedef struct xs_gpu_cp_ib {
	uint32_t *dw;            /* fetched from GPU memory */
	size_t n;
	uint64_t va;
	xs_pm4_iter it;
} xs_gpu_cp_ib;

typedef struct xs_gpu_cp_sub {
	uint64_t va;
	uint32_t ndw;
	xs_gpu_dispatch_result *results;
	uint32_t nresults;
} xs_gpu_cp_sub;

typedef struct xs_gpu_cp_release {
	uint32_t before_id;      /* written when the queue's dispatches below this id are done */
	unsigned data_sel;
	uint64_t va, data;
	size_t dword;
} xs_gpu_cp_release;

typedef enum { XS_CP_IDLE, XS_CP_RUN, XS_CP_WAIT_IDLE, XS_CP_WAIT_MEM, XS_CP_WAIT_SLOT, XS_CP_BUSY } xs_cp_state;

typedef struct xs_gpu_cp {
	xs_cp_state state;
	xs_gpu_cp_sub sub[XS_GPU_CP_MAX_SUBS];
	uint32_t sub_head, sub_tail;
	xs_gpu_cp_ib ib[XS_GPU_CP_MAX_DEPTH];
	uint32_t depth;
	uint32_t fetches;        /* IBs the current submission fetched (XS_GPU_CP_MAX_FETCHES) */
	uint64_t fetched_dw;     /* their dwords (XS_GPU_CP_MAX_FETCH_DWORDS) */
	uint64_t fw_cycles;      /* its firmware work so far (XS_GPU_CP_MAX_FW_CYCLES) */
	xs_gpu_dispatch_result *results, scratch_result;
	uint32_t nresults, next_result;
	uint32_t wait_id;        /* WAIT_IDLE: dispatches below this id */
	unsigned wait_func;
	uint64_t wait_va;
	uint64_t wait_ref, wait_mask;
	bool wait_64;            /* WAIT_REG_MEM64 */
	size_t wait_dword;
	xs_gpu_cp_release rel[XS_GPU_CP_MAX_RELEASES];
	uint32_t nrel;
	uint64_t base_va;        /* SET_BASE for DISPATCH_INDIRECT */
	uint64_t busy_until;     /* BUSY: the firmware's work (XS_BUILD_AS) ends at this cycle */
} xs_gpu_cp;

/* Min-heap of waves by (ready, seq): the timing model's issue order. The
 * keys live in the entries so that sifting stays in one array. */
typedef struct xs_gpu_heap_ent {
	uint64_t ready, seq;
	xs_gpu_wave *w;
} xs_gpu_heap_ent;

typedef struct xs_gpu_heap {
	xs_gpu_heap_ent *a;
	uint32_t n, cap;
} xs_gpu_heap;

/* Per-instruction timing being collected (xs_gpu_profile.c): entries by
 * PC through an open-addressed hash; entry 0 is a sink for PCs past
 * XS_GPU_PROF_MAX, so the hot path has no branch for it. Run-ahead records
 * each entry's profile index beside it (ra_idx); per wave, the cycle its
 * next instruction became due and the hold it is in. */
typedef struct xs_gpu_prof_wave {
	uint64_t since;          /* when the instruction at the run-ahead head became due */
	uint64_t hold_t;         /* when the current hold began */
	uint32_t hold_idx;       /* the entry it counts on */
	uint8_t hold;            /* xs_gpu_stall + 1; 0 = none */
} xs_gpu_prof_wave;

typedef struct xs_gpu_prof {
	xs_gpu_prof_ent *ent;
	uint32_t n, cap;
	uint32_t *hash, hmask;   /* entry index per bucket, 0 = empty */
	uint32_t *ra_idx;        /* [wave slot][XS_GPU_RA] */
	xs_gpu_prof_wave *wv;    /* per wave slot */
	bool overflow;
	xs_gpu_prof_disp *disps;
	uint32_t ndisps, cap_disps;
	uint64_t waits[XS_GPU_WAIT_COUNT];
	xs_gpu_counters ctr;     /* of every dispatch that ended, added */
} xs_gpu_prof;

uint32_t xs_gpu_prof_index(xs_gpu_prof *p, uint64_t pc);
void xs_gpu_prof_disp_end(xs_gpu *g, const xs_gpu_disp *d);

struct xs_gpu {
	const xs_devinfo *info;
	xs_vm *vm;
	xs_isa_ctx ctx;
	uint64_t watchdog;       /* per-wave instruction budget; UINT64_MAX = none */
	uint64_t hang_cycles;    /* no-progress limits; 0 = off */
	double hang_host_s;
	volatile sig_atomic_t interrupt; /* xs_gpu_interrupt */
	bool timing;
	bool no_ahead;           /* functional run-ahead off (xs_gpu_set_run_ahead) */
	bool results_recorded;   /* xs_gpu_set_results_recorded */
	uint32_t threads;        /* host threads for functional mode */
	uint32_t timing_threads; /* host threads for timing mode: 2 pipelines the run-ahead (xs_gpu_rap.c) */
	bool rap_on;             /* that pipeline's thread runs (within one xs_gpu_run_until) */
	xs_gpu_rap *rap;         /* its buffers, from its first use; NULL before */
	xs_gpu_override ovr[XS_GPU_MAX_OVERRIDES]; /* register overrides of the CP (xs_gpu_override.c) */
	uint32_t novr;
	uint64_t ovr_hits[XS_GPU_MAX_OVERRIDES];
	xs_gpu_queue_regs queue[XS_GPU_MAX_QUEUES];
	xs_gpu_cp cp[XS_GPU_MAX_QUEUES];
	xs_fault cp_fault;       /* the last page fault of a CP (not a shader's): xs_gpu_cp_fault */
	bool host_oom;           /* a draw lost work for want of host memory: the device goes (no_progress) */
	char cp_positions[480];  /* where the CPs stood when work was last dropped */
	uint64_t completions;    /* dispatches finished so far */
	uint64_t run_stop_at;    /* xs_gpu_run_until also returns at this cycle (a CP's busy end); 0 = never */

	uint32_t nsimd, ncu, nwgp;
	xs_gpu_simd *simd;
	xs_gpu_cu *cu;
	xs_gpu_wgp *wgp;
	uint64_t cu_all;         /* a bit per CU */
	uint32_t cu_regs_all[XS_MAX_SE]; /* xs_gpu_cu_mask_regs of cu_all */
	uint32_t se_waves[XS_MAX_SE];
	uint64_t se_launch_free[XS_MAX_SE]; /* timing: when each SE's SPI launches its next wave */
	xs_gpu_wave *waves;      /* one per (SIMD, slot) */
	uint32_t (*vgpr_arena)[XS_MAX_LANES]; /* 256 VGPRs per wave slot, mmap'ed lazily */
	/* functional run-ahead: where a group's waves run (group_ahead), their
	 * XS_GPU_HOT_ROWS VGPR rows shared out by wave */
	xs_wave *hot;            /* XS_GPU_MAX_WAVES_PER_GROUP */
	uint32_t (*hot_v)[XS_MAX_LANES];
	size_t vgpr_arena_bytes;
	xs_gpu_group *groups;    /* at most one resident group per wave slot */
	uint32_t *free_groups, nfree_groups, ngroups;
	xs_gpu_ring rings[XS_GPU_MAX_RINGS];
	uint32_t scratch_bitmap_words;
	uint32_t resident;
	uint64_t now;            /* simulated time of the event being handled */
	/* events since the last xs_gpu_watch: written at every issue, so not
	 * beside the watchdog's budget, which a second timing thread reads at
	 * every instruction (xs_gpu_rap.c) */
	uint32_t watch_count;
	uint64_t seq;
	uint32_t fa_waves;       /* waves with quanta run ahead (fa_n > 0): the one-thread loop takes them */
	/* SIMDs that started a wave since the functional pick last read them
	 * (xs_gpu_spi_wave_start sets, run_functional clears): only their keys
	 * can have changed by a launch, and only in these slots. */
	uint64_t simd_started[XS_GPU_MAX_CU * 2 / 64];
	uint32_t slots_started[XS_GPU_MAX_CU * 2]; /* per SIMD in simd_started: the slots */
	double dram_free;        /* timing: when the DRAM channel takes the next byte */
	xs_gpu_cache *l0;        /* timing: one vector L0 per CU */
	xs_gpu_cache l2;
	xs_isa_mtrace mtrace;    /* timing: where the interpreter records lines (run-ahead) */
	uint64_t *ra_arena;      /* run-ahead line buffers of every wave slot */
	size_t ra_arena_bytes;
	double dram_bytes_per_clk;
	double dram_line_clks;   /* a line's transfer: a division once, not one per DRAM line */
	xs_gpu_disp disp[XS_GPU_MAX_ACTIVE];
	/* Bit i: disp[i] holds a dispatch or draw in flight (xs_gpu_disp_live);
	 * the SPI's loops over dispatches (after every retire) visit only these. */
	uint32_t disp_mask;
	uint32_t next_disp_id;
	/* Timing: waves by ready cycle. A wheel of one FIFO bucket per cycle
	 * for the next XS_GPU_WHEEL cycles (O(1) per event; FIFO keeps equal
	 * cycles in a deterministic order), and a heap for waves further out. */
	/* Buckets are lists of wave-slot numbers + 1 (0 ends a list), linked
	 * through ev_next: the links stay in a few host lines instead of one
	 * cold line per wave. */
	uint32_t wheel_head[XS_GPU_WHEEL], wheel_tail[XS_GPU_WHEEL];
	uint32_t *ev_next;       /* per wave slot */
	uint64_t wheel_cur;
	uint32_t wheel_n;
	xs_gpu_heap heap;
	xs_gpu_progress_fn progress;
	void *progress_user;
	uint64_t progress_count;
	bool tracing;
	xs_gpu_trace trace;
	xs_gpu_prof *prof;       /* per-instruction timing, NULL when off */
	uint32_t scratch_in_use; /* all rings, for the trace */
	uint64_t cu_locked;      /* S4.5: CUs a graphics stage holds for a waiting wave (xs_gpu_spi_gfx.c) */
	const struct xs_gpu_draw_ops *draw_ops; /* set by the first draw */
};

/* Whether dispatch slot i holds a dispatch or draw in flight: begun
 * (xs_gpu_dispatch_begin, xs_gpu_draw_begin) and not yet finished
 * (xs_gpu_disp_finish). */
static inline bool xs_gpu_disp_live(const xs_gpu *g, int i)
{
	return (g->disp_mask >> i) & 1;
}

/* The record of wave slot `slot` of SIMD `simd`: the slots are laid out
 * SIMD by SIMD (xs_gpu_create). */
static inline xs_gpu_wave *xs_gpu_slot_wave(const xs_gpu *g, uint32_t simd, uint32_t slot)
{
	return &g->waves[simd * g->info->wave_slots_per_simd + slot];
}

/* gw->slot from where the record sits and its SIMD (in the first line):
 * the timing model's issue reads no more of a wave than that line, its
 * run-ahead entry and lines (slot, in the record's cold part, was a
 * twelfth of scratch_chase's reads past a 1 MiB cache, callgrind). */
static inline uint32_t xs_gpu_wave_slot(const xs_gpu *g, const xs_gpu_wave *gw)
{
	uint32_t slot = (uint32_t)(gw - g->waves) - gw->simd * g->info->wave_slots_per_simd;
	assert(slot == gw->slot); /* (the launches take the record from xs_gpu_slot_wave) */
	return slot;
}

/* How many dispatches and draws are in flight. */
static inline uint32_t xs_gpu_ndisp(const xs_gpu *g)
{
	return (uint32_t)__builtin_popcount(g->disp_mask);
}

/* The draw's side of the shared loops (xs_gpu_draw.c), reached through
 * pointers that the first draw sets: the compute-only library then links
 * without the graphics front. */
typedef struct xs_gpu_draw_ops {
	bool (*launch)(xs_gpu *g, xs_gpu_disp *d);          /* serve VS, then PS; true if a wave launched */
	void (*wave_end)(xs_gpu *g, xs_gpu_wave *gw);        /* a draw's wave retires */
	void (*release)(xs_gpu *g, xs_gpu_disp *d);          /* the draw's entry ends (done or abandoned) */
	bool (*diagnose)(xs_gpu *g, char *buf, size_t n);    /* nothing can move: the S4.2 deadlock? */
} xs_gpu_draw_ops;

/* The bit that enables CU cu in its SE's COMPUTE_STATIC_THREAD_MGMT_SE*
 * register: its logical index within its SA, in SA0_CU_EN or SA1_CU_EN.
 * Used both ways: to write a CU mask (xs_gpu_cu_mask_regs) and to read one
 * (xs_gpu_spi_decode). */
static inline uint32_t xs_gpu_cu_en_bit(const xs_gpu *g, const xs_gpu_cu *cu)
{
	uint32_t bit = 1u << cu->cu_in_sa;
	return cu->sa % g->info->num_sa_per_se ? S_00B858_SA1_CU_EN(bit) : S_00B858_SA0_CU_EN(bit);
}

void xs_gpu_trace_wave_end(xs_gpu *g, const xs_gpu_wave *gw);
void xs_gpu_trace_record(xs_gpu *g);
void xs_gpu_trace_disp_end(xs_gpu *g, const xs_gpu_disp *d, bool removed);

/* xs_gpu_spi.c: launch and retire */
xs_status xs_gpu_spi_decode(xs_gpu *g, const uint32_t *sh, uint32_t initiator, xs_spi_dispatch *d,
			    xs_err *e);
void xs_gpu_spi_launch_pending(xs_gpu *g);
void xs_gpu_spi_retire(xs_gpu *g, xs_gpu_wave *gw);
/* A compute wave's initial registers (init_wave defers them: call before
 * it first runs when regs_pending), written into w: its
 * own gw->w, or a stand-in with gw->w's fields before the SGPRs and rows of
 * its own (group_ahead's hot waves). */
void xs_gpu_spi_wave_regs(xs_gpu_wave *gw, xs_wave *w);
void xs_gpu_spi_evict_all(xs_gpu *g);
/* xs_gpu_sched.c: runs a fresh group (every wave regs_pending) ahead, on
 * ctx: with record its quanta go into each wave's fa for the one-thread
 * scheduler; without, each wave is left with the status it reached. */
void xs_gpu_group_ahead(xs_gpu *g, xs_isa_ctx *ctx, xs_gpu_group *grp, bool record);
void xs_gpu_abandon_all(xs_gpu *g);
void xs_gpu_spi_barrier_arrive(xs_gpu *g, xs_gpu_wave *gw);
void xs_gpu_release_ring(xs_gpu *g, xs_gpu_ring *ring);
xs_gpu_ring *xs_gpu_ring_get(xs_gpu *g, unsigned queue, bool gfx, uint32_t tmpring, uint32_t slots,
			     uint32_t wavesize);
uint32_t xs_gpu_ring_slot_take(xs_gpu *g, xs_gpu_ring *r);
void xs_gpu_ring_slot_give(xs_gpu *g, xs_gpu_ring *r, uint32_t slot);
/* The resources of cu (and its WGP, or the ring) changed outside compute
 * placement: compute's cached placement failures there are stale. */
void xs_gpu_spi_placement_changed(xs_gpu *g, uint32_t cu, const xs_gpu_ring *ring);
void xs_gpu_disp_finish(xs_gpu *g, xs_gpu_disp *disp);
/* Launch-time state every wave gets (timing start, counters, run-ahead). */
void xs_gpu_spi_wave_start(xs_gpu *g, xs_gpu_wave *gw, uint32_t lanes);
/* Clocks the access holds the LDS bus of `banks` dword-wide banks (a power
 * of two, <= XS_GPU_LDS_MAX_BANKS); *conflict gets those beyond one per
 * phase (bank-conflict cycles). */
uint32_t xs_gpu_lds_clocks(uint32_t banks, const xs_gpu_lds_access *a, uint32_t *conflict);
/* xs_gpu_sched.c: running waves */
#define XS_GPU_MAX_THREADS 64
xs_status xs_gpu_run_functional_mt(xs_gpu *g, bool until_one, xs_err *e);

/* Timing run-ahead (xs_gpu_sched.c): wave gw's next entries into o->ent and
 * o->lines with ctx's interpreter; returns how many, a FAULT entry's fault
 * in o->fault, and adds to o->sums. */
typedef struct xs_gpu_ra_out {
	xs_gpu_ra_ent *ent;      /* XS_GPU_RA */
	uint64_t *lines;         /* XS_GPU_RA_LINES */
	xs_fault *fault;
	xs_gpu_ra_sums *sums;
} xs_gpu_ra_out;
uint32_t xs_gpu_ra_fill(xs_gpu *g, xs_isa_ctx *ctx, xs_gpu_wave *gw, const xs_gpu_ra_out *o);
/* The same on the model's thread into the wave's own buffers, its sums
 * added to the dispatch's counters (ra_head, ra_n, ra_stop set). */
void xs_gpu_run_ahead(xs_gpu *g, xs_gpu_wave *gw);
static inline void xs_gpu_ra_sums_add(xs_gpu_counters *c, const xs_gpu_ra_sums *s)
{
	c->vmem_read_bytes += s->vmem_read_bytes;
	c->vmem_write_bytes += s->vmem_write_bytes;
	c->scratch_read_bytes += s->scratch_read_bytes;
	c->scratch_write_bytes += s->scratch_write_bytes;
	c->lds_bank_conflict_cycles += s->lds_bank_conflict_cycles;
}
/* The run-ahead on a second host thread (xs_gpu_rap.c). start: for one
 * xs_gpu_run_until in timing mode (false: not now, the model's thread runs
 * it); stop: every run-ahead asked for is made and the thread is gone
 * (before anything else reads the waves or memory; nothing when it is not
 * running); take: the wave's next entries into its own buffers, their
 * sums into its dispatch's counters (g->rap set); ask_next: the entries
 * after these, asked for (ra_head reached ra_stop before ra_n); discard: the
 * entries made are dropped (the waves left the GPU); free: with the GPU. */
bool xs_gpu_rap_start(xs_gpu *g);
void xs_gpu_rap_stop(xs_gpu *g);
void xs_gpu_rap_take(xs_gpu *g, xs_gpu_wave *gw);
void xs_gpu_rap_ask_next(xs_gpu *g, xs_gpu_wave *gw);
void xs_gpu_rap_discard(xs_gpu *g);
void xs_gpu_rap_free(xs_gpu *g);
/* A fault: report, abandon every dispatch, XS_E_DEVICE_REMOVED. */
xs_status xs_gpu_remove_device(xs_gpu *g, xs_gpu_wave *gw, xs_err *e);
/* Runs waves until every dispatch has completed, or (until_one) until one has. */
xs_status xs_gpu_run_until(xs_gpu *g, bool until_one, xs_err *e);
/* Hang detection, replay bounds and interrupts, checked every
 * XS_GPU_WATCH_EVERY events: XS_OK, or the device is removed
 * (XS_E_DEVICE_REMOVED with a report) or the work stopped (XS_E_INTERRUPTED). */
#define XS_GPU_WATCH_EVERY 4096u
xs_status xs_gpu_watch(xs_gpu *g, xs_err *e);
/* Queues a wave to issue at w->ready (>= the current cycle). */
void xs_gpu_evq_push(xs_gpu *g, xs_gpu_wave *w);
/* The next wave to issue (lowest ready cycle; equal cycles in the order
 * they were queued), or NULL; advances the wheel to its cycle. Hidden, for
 * the scheduler's unit test (tests/gpu/test_sched.c) and run_timing. */
xs_gpu_wave *xs_gpu_evq_pop(xs_gpu *g);
void xs_gpu_fault_report(xs_gpu *g, xs_gpu_wave *gw, xs_err *e);
/* ---- draws (xs_gpu_cp.c decodes the DRAW_* packets, the SPI runs them) ----
 * One draw as the CP hands it over, after it has read any indirect
 * arguments (D3D12_DRAW_ARGUMENTS / D3D12_DRAW_INDEXED_ARGUMENTS). The rest
 * of the draw's state is the queue's registers: xs_gfx_state_decode, then
 * xs_gfx_state_set_draw for what the packet itself carries. */
typedef struct xs_gpu_draw_args {
	bool indexed;            /* DRAW_INDEX_2 / DRAW_INDEX_INDIRECT */
	bool indirect;           /* DRAW_INDIRECT / DRAW_INDEX_INDIRECT */
	uint32_t count;          /* indices (indexed) or vertices, per instance */
	uint32_t instance_count; /* VGT_NUM_INSTANCES, or the indirect InstanceCount (0: nothing drawn) */
	uint32_t start_vertex;   /* not indexed: VertexID of the draw's vertex 0 (VGT_INDX_OFFSET) */
	uint32_t start_index;    /* indexed: the first index's position in the buffer at INDEX_BASE */
	int32_t base_vertex;     /* indexed indirect: BaseVertexLocation (direct draws fold it into the vertex table) */
	uint32_t start_instance; /* indirect: StartInstanceLocation (direct draws: 0, in the vertex table) */
	uint64_t index_va;       /* indexed: address of the draw's first index */
	uint32_t max_indices;    /* indexed: indices readable from index_va; a fetch past them reads 0 */
	uint32_t index_size;     /* indexed: 2 or 4 (VGT_INDEX_TYPE) */
	unsigned opcode;         /* PKT3_DRAW_*, for messages */
	size_t dword;            /* the packet's dword in its IB, for messages */
} xs_gpu_draw_args;
/* Starts a draw on queue q (0, the graphics ring) with the queue's current
 * registers; *r is filled as it runs (r->gfx). Implemented by the SPI
 * (xs_gpu_spi*.c); XS_E_INVALID_ARG names the register and field of state
 * that cannot draw. */
xs_status xs_gpu_draw_begin(xs_gpu *g, unsigned q, const xs_gpu_draw_args *a, xs_gpu_dispatch_result *r,
			    xs_err *e);
/* xs_gpu_cp.c: a DRAW_* packet's arguments (reading indirect ones from
 * memory and writing the registers the indirect forms set), as the CP
 * gives them to xs_gpu_draw_begin. ib_va is for messages. */
xs_status xs_gpu_cp_draw_args(xs_gpu *g, unsigned q, uint64_t ib_va, const xs_pm4_packet *p, xs_gpu_draw_args *a,
			      xs_err *e);
struct xs_gfx_state;
/* Puts the draw's own figures into a decoded state: index address, bound,
 * size, instance count, VGT_INDX_OFFSET for indirect draws. */
void xs_gfx_state_set_draw(struct xs_gfx_state *s, const xs_gpu_draw_args *a);

/* xs_gpu_accel.c: XS_BUILD_AS; *cycles the CP is busy for afterwards. */
xs_status xs_gpu_cp_build_as(xs_gpu *g, unsigned q, const xs_pm4_packet *p, uint64_t *cycles, xs_err *e);

#endif
