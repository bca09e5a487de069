/*
 * The simulated GPU. It reads only register state (what the command
 * processor set from PM4) and GPU memory (xs_vm); it never sees API objects.
 *
 *   queue register state --DISPATCH_DIRECT--> SPI: places thread groups on
 *   WGPs/CUs/SIMDs by resources (wave slots, VGPRs, LDS, barriers, scratch
 *   slots of COMPUTE_TMPRING_SIZE, CU masks, COMPUTE_RESOURCE_LIMITS),
 *   initialises each wave's SGPRs/VGPRs (AMDGPUUsage "Initial Kernel
 *   Execution State"), runs waves on the ISA interpreter, retires them.
 */
#ifndef XS_GPU_H
#define XS_GPU_H

#include "gpu/xs_gpu_devinfo.h"
#include "hw/xs_hw_regs.h"
#include "isa/xs_isa.h"

#include <stdio.h>

#define XS_GPU_MAX_QUEUES 4 /* queue 0: graphics ring; 1..3: async compute (ACE) queues */
#define XS_GPU_MAX_CU 64
#define XS_GPU_MAX_ACTIVE 8 /* dispatches in flight at once, all queues */

/* Why a thread group that is ready to launch waits (SPI resources). */
typedef enum xs_gpu_wait_cause {
	XS_GPU_WAIT_WAVE_SLOT, XS_GPU_WAIT_VGPR, XS_GPU_WAIT_LDS, XS_GPU_WAIT_BARRIER,
	XS_GPU_WAIT_SCRATCH, XS_GPU_WAIT_LIMIT, /* CU mask, COMPUTE_RESOURCE_LIMITS, WAVE_LIMIT, a locked CU */
	XS_GPU_WAIT_COUNT,
	/* Graphics only (xs_gpu_gfx_stats.stage_wait_cycles): a VS wave found no
	 * parameter-cache space and its SA at the late-alloc limit (S4.1). After
	 * the count, so that the compute observables (and the API's arrays
	 * sized by it) keep their shape. */
	XS_GPU_WAIT_PARAM_CACHE = XS_GPU_WAIT_COUNT,
	XS_GPU_GFX_WAIT_COUNT
} xs_gpu_wait_cause;

typedef struct xs_gpu_queue_regs {
	uint32_t sh[XS_SH_REG_COUNT]; /* persistent SH registers, by (addr - 0xB000) / 4 */
	uint32_t ctx[(XS_CONTEXT_REG_END - XS_CONTEXT_REG_OFFSET) / 4];
	uint32_t uconfig[(XS_UCONFIG_REG_END - XS_UCONFIG_REG_OFFSET) / 4];
	/* Draw state that packets set and no register holds: INDEX_BASE (the
	 * index buffer's address) and INDEX_BUFFER_SIZE (its size in indices).
	 * INDEX_TYPE and NUM_INSTANCES write VGT_INDEX_TYPE / VGT_NUM_INSTANCES. */
	uint64_t index_base;
	uint32_t index_buffer_size;
} xs_gpu_queue_regs;

/* What a draw did (xs_gpu_dispatch_result.gfx; zero for dispatches). The
 * observables of the graphics pipe and of SPEC S4 (docs/graphics.md). */
typedef enum { XS_GPU_STAGE_VS, XS_GPU_STAGE_PS, XS_GPU_NSTAGES } xs_gpu_stage;
typedef struct xs_gpu_gfx_stats {
	bool is_draw;
	uint64_t vertices, primitives, prims_culled, prims_clipped;
	uint64_t quads, pixels_shaded, pixels_written, quads_depth_killed;
	uint64_t waves[XS_GPU_NSTAGES];          /* launched */
	uint32_t peak_waves[XS_GPU_NSTAGES];     /* resident at once (S4.4) */
	uint64_t cu_used[XS_GPU_NSTAGES];        /* bit per CU (chip-wide index) that ran a wave of the stage (S4.3) */
	uint32_t late_alloc_waves;               /* VS waves launched without parameter-cache space (S4.1) */
	uint32_t peak_late_waiting;              /* of those, waiting at their first exp at once */
	uint64_t exp_stall_cycles;               /* wave-cycles VS waves waited at exp (S4.1) */
	uint32_t pc_lines, peak_pc_lines;        /* parameter cache: capacity, peak in use */
	uint64_t cu_lock_events, cu_lock_cycles; /* S4.5 */
	uint64_t stage_wait_cycles[XS_GPU_NSTAGES][XS_GPU_GFX_WAIT_COUNT]; /* wave-cycles ready waves waited to launch */
	uint64_t limit_wait_cycles[XS_GPU_NSTAGES]; /* ... of which held by the stage's WAVE_LIMIT (S4.4) */
	uint32_t peak_scratch_slots;             /* of the graphics ring (SPI_TMPRING_SIZE) */
	uint32_t peak_ps_pending;                /* PS waves gathered and not committed at once [model]: at most
						  * the draw's bound (docs/graphics.md 3.4) */
} xs_gpu_gfx_stats;

/* Hardware counters of one dispatch or draw, as rocprof reads them
 * (timing mode; functional mode fills only waves_per_se). Lines are the
 * L2's (xs_devinfo.l2_line_bytes). Vector memory goes through the CU's L0
 * (loads; write-through, stores do not allocate) and the L2 (write-back);
 * L2 misses fill from DRAM and dirty victims go back to it. */
typedef struct xs_gpu_counters {
	uint64_t insts[XS_IC_COUNT];       /* wave instructions issued, by class */
	uint64_t l0_hits, l0_misses;       /* load lines looked up in the L0 */
	uint64_t l2_hits, l2_misses;       /* lines looked up in the L2 (L0 misses, stores, atomics) */
	uint64_t dram_read_lines, dram_write_lines; /* fills, write-backs of dirty victims */
	uint64_t vmem_read_bytes, vmem_write_bytes; /* bytes the active lanes asked for */
	uint64_t scratch_read_bytes, scratch_write_bytes; /* of them, private (scratch) memory */
	uint64_t lds_bytes;                /* moved over the LDS bus */
	uint64_t lds_bank_conflict_cycles; /* LDS bus clocks lost to bank conflicts (xs_gpu_lds_clocks) */
	uint64_t salu_busy[XS_GPU_MAX_CU * 2], valu_busy[XS_GPU_MAX_CU * 2]; /* cycles, per SIMD */
	uint64_t waves_per_se[XS_MAX_SE];
} xs_gpu_counters;

typedef struct xs_gpu_dispatch_result {
	/* Inputs, kept by xs_gpu_submit: bounds a replay knows from its
	 * recording (0 = none). A dispatch that launches more waves or runs
	 * more cycles is stopped and the device removed, naming the bound. */
	uint64_t limit_waves, limit_cycles;
	/* Outputs. */
	uint64_t waves_launched;
	uint64_t groups_launched;
	uint64_t wave_insts;
	uint64_t start_cycle, end_cycle, cycles; /* cycles = end - start */
	uint32_t peak_waves;
	uint32_t peak_waves_per_simd;
	double avg_waves_per_simd;  /* time-averaged over the dispatch, all SIMDs */
	uint32_t peak_scratch_slots; /* of the dispatch's ring */
	uint32_t scratch_slots;   /* usable ring slots: min(WAVES, 32 x CUs) */
	uint64_t wait_cycles[XS_GPU_WAIT_COUNT]; /* wave-cycles ready waves waited to launch */
	uint64_t cu_busy[XS_GPU_MAX_CU]; /* cycles each CU held a wave of this dispatch */
	xs_fault fault;           /* kind != NONE when the device was removed */
	xs_gpu_gfx_stats gfx;     /* draws (DRAW_* packets) */
	xs_gpu_counters ctr;
} xs_gpu_dispatch_result;

typedef struct xs_gpu xs_gpu;

xs_gpu *xs_gpu_create(const xs_devinfo *info, xs_vm *vm);
void xs_gpu_destroy(xs_gpu *gpu);
/* Per-wave instruction budget before the device is removed; 0 = none. */
void xs_gpu_set_watchdog(xs_gpu *gpu, uint64_t wave_insts);
/* Hang detection (no forward progress): the device is removed when a
 * dispatch with waves resident completes no thread group for gpu_cycles
 * simulated cycles or host_seconds of host time; 0 = that limit off. */
void xs_gpu_set_hang_limits(xs_gpu *gpu, uint64_t gpu_cycles, double host_seconds);
/* A replay: every dispatch and draw of a submission has its result slot
 * (xs_gpu_submit's results, bounded by their limits); one past them leaves
 * the recording and removes the device, where a live run gives it a
 * scratch slot. */
void xs_gpu_set_results_recorded(xs_gpu *gpu, bool on);
/* Stops the running work at the next check (any thread; only sets a
 * flag): the run returns XS_E_INTERRUPTED. */
void xs_gpu_interrupt(xs_gpu *gpu);
/* Called every so many wave instructions while running (progress lines). */
typedef void (*xs_gpu_progress_fn)(void *user, uint64_t groups_launched, uint64_t groups_total,
				   uint64_t cycles);
void xs_gpu_set_progress(xs_gpu *gpu, xs_gpu_progress_fn fn, void *user);
/* Host threads for functional mode (1 = deterministic issue-count cycles). */
void xs_gpu_set_threads(xs_gpu *gpu, uint32_t n);
/* Host threads for timing mode: 1 (default), or 2 to run the waves'
 * run-ahead on a second thread (xs_gpu_rap.c: the same results for waves
 * that share data only across barriers, repeatable for all). */
void xs_gpu_set_timing_threads(xs_gpu *gpu, uint32_t n);
/* Timing model on (default) or functional execution only. */
void xs_gpu_set_timing(xs_gpu *gpu, bool on);
/* Functional run-ahead (run_functional's group_ahead) on (default) or off:
 * the same cycles and, for waves that share data only across barriers, the
 * same bytes either way; off is for telling the two apart. */
void xs_gpu_set_run_ahead(xs_gpu *gpu, bool on);

void xs_gpu_set_sh_reg(xs_gpu *gpu, unsigned queue, uint32_t reg, uint32_t value);
uint32_t xs_gpu_get_sh_reg(const xs_gpu *gpu, unsigned queue, uint32_t reg);

/* DISPATCH_DIRECT on a queue: starts dim_x/y/z thread groups with the
 * queue's current register state at the current simulated time; *r is
 * filled as the dispatch runs. XS_E_INVALID_ARG for register state that can
 * never launch (the message names the register and field). */
xs_status xs_gpu_dispatch_begin(xs_gpu *gpu, unsigned queue, uint32_t dim_x, uint32_t dim_y,
				uint32_t dim_z, uint32_t initiator, xs_gpu_dispatch_result *r, xs_err *e);
/* Queues a command buffer of ndw dwords at va (in GPU memory) on a queue,
 * as a doorbell would: the queue's CP runs it after earlier submissions.
 * results[k] gets the figures of its k-th dispatch packet. */
xs_status xs_gpu_submit(xs_gpu *gpu, unsigned queue, uint64_t va, uint32_t ndw,
			xs_gpu_dispatch_result *results, uint32_t nresults, xs_err *e);
/* Free entries of a queue's submission ring (XS_GPU_CP_MAX_SUBS). */
uint32_t xs_gpu_submit_room(const xs_gpu *gpu, unsigned queue);
/* Runs every queue's command processor and the shader engines until all
 * queues are idle, or blocked on a wait. Malformed PM4 is XS_E_INVALID_ARG
 * naming the queue, IB and dword; a fault or a hang (a wave past the
 * watchdog, no forward progress) is XS_E_DEVICE_REMOVED with a report.
 * With blocked NULL, a WAIT_REG_MEM nothing on the GPU will satisfy is a
 * hang too; otherwise *blocked says some queue waits (the host may write
 * the value later: run again then). */
xs_status xs_gpu_execute(xs_gpu *gpu, bool *blocked, xs_err *e);
/* Is queue q's CP waiting at a WAIT_REG_MEM(64)? Its address and reference. */
bool xs_gpu_queue_waiting(const xs_gpu *gpu, unsigned queue, uint64_t *va, uint64_t *ref);
/* The page fault of a command processor that removed the device (kind
 * XS_FAULT_NONE if none: the removal was a shader's, or a hang); reading
 * it clears it. */
xs_fault xs_gpu_cp_fault(xs_gpu *gpu);
/* Where each queue's command processor stood (IB addresses and dword
 * positions, innermost first) when the work was last dropped; "" if none. */
const char *xs_gpu_cp_positions(const xs_gpu *gpu);
/* Drops every queue's pending work and the dispatches in flight (a removal). */
void xs_gpu_abandon(xs_gpu *gpu);
/* Timeline recording (for Chrome trace / Perfetto JSON and SVG charts). */
typedef struct xs_gpu_trace_wave {
	uint64_t start, end;      /* cycles */
	uint32_t dispatch, queue;
	uint32_t cu, simd, slot;  /* simd: within the CU */
	uint32_t group[3];
	uint32_t wave_in_group;
	bool scratch;
	uint8_t stage;            /* xs_gpu_trace_stage: a track per stage */
} xs_gpu_trace_wave;
typedef enum { XS_GPU_TRACE_CS, XS_GPU_TRACE_VS, XS_GPU_TRACE_PS } xs_gpu_trace_stage;

typedef struct xs_gpu_trace_sample {
	uint64_t t;
	uint32_t waves;           /* resident waves, all dispatches */
	uint32_t scratch_slots;   /* ring slots in use, all rings */
	/* per queue: resident waves, scratch slots in use, and the slots of
	 * the rings its dispatches in flight use (the ring's capacity) */
	uint16_t q_waves[XS_GPU_MAX_QUEUES], q_scratch[XS_GPU_MAX_QUEUES], q_ring[XS_GPU_MAX_QUEUES];
} xs_gpu_trace_sample;

typedef struct xs_gpu_trace_disp {
	uint32_t id, queue;
	uint64_t start, end;      /* cycles */
	uint64_t groups, waves;
	bool removed;             /* ended by a device removal */
} xs_gpu_trace_disp;

typedef struct xs_gpu_trace {
	xs_gpu_trace_wave *waves;
	size_t nwaves, cap_waves;
	xs_gpu_trace_sample *samples;
	size_t nsamples, cap_samples;
	xs_gpu_trace_disp *disps;
	size_t ndisps, cap_disps;
	bool truncated;           /* hit XS_GPU_TRACE_MAX records */
} xs_gpu_trace;
#define XS_GPU_TRACE_MAX (4u << 20)

void xs_gpu_trace_enable(xs_gpu *gpu, bool on);
bool xs_gpu_tracing(const xs_gpu *gpu);
/* Where a CU (chip-wide index) sits: its SE, SA within the SE, WGP within the
 * SA and CU within the WGP (for naming trace tracks). */
void xs_gpu_cu_place(const xs_gpu *gpu, uint32_t cu, uint32_t *se, uint32_t *sa, uint32_t *wgp, uint32_t *cu_in_wgp);
const xs_gpu_trace *xs_gpu_trace_get(const xs_gpu *gpu);
/* The trace as Chrome trace / Perfetto JSON (xs_gpu_trace_json.c). */
void xs_gpu_trace_write_json(const xs_gpu *gpu, FILE *f);
/* Queues the trace's dispatches and waves ran on (a bit per queue); a queue's name. */
unsigned xs_gpu_trace_queues_used(const xs_gpu_trace *t);
const char *xs_gpu_queue_name(unsigned q, char *buf, size_t n);

/* Per-instruction timing, as RGP's instruction timing shows it (timing
 * mode; xs_gpu_profile.c). Per PC: how often waves issued it, the cycles
 * waves spent on it (from the cycle it became the wave's next instruction
 * to the cycle the wave could issue the following one: the sum over a
 * wave's instructions is its life) and of them the stall cycles by reason.
 * A barrier's or exp's wait and the memory a wave waits for at s_endpgm
 * count on that instruction. Instruction fetch is not modelled. An LDS
 * instruction also carries its bank-conflict clocks (xs_gpu_lds_clocks):
 * not stall cycles of its own (the wave waits for them at an s_waitcnt
 * lgkmcnt), so that the wait can be traced to the access that caused it. */
typedef enum xs_gpu_stall {
	XS_GPU_STALL_VMCNT,      /* s_waitcnt vmcnt: vector loads */
	XS_GPU_STALL_VSCNT,      /* s_waitcnt_vscnt: vector stores */
	XS_GPU_STALL_LGKMCNT,    /* s_waitcnt lgkmcnt: LDS, scalar loads */
	XS_GPU_STALL_VALU_DEP,   /* a VALU reading the previous VALU's result */
	XS_GPU_STALL_PIPE,       /* the SIMD's pipe (or the LDS/VMEM port) was busy */
	XS_GPU_STALL_BARRIER,    /* s_barrier: the group's other waves */
	XS_GPU_STALL_EXPORT,     /* exp: no parameter-cache / export space (S4.1) */
	XS_GPU_STALL_CNT_FULL,   /* a memory counter at its limit */
	XS_GPU_STALL_END,        /* s_endpgm: the wave's last memory operations */
	XS_GPU_STALL_COUNT
} xs_gpu_stall;
typedef struct xs_gpu_prof_ent {
	uint64_t pc;
	uint64_t issues, cycles;
	uint64_t stall[XS_GPU_STALL_COUNT];
	uint64_t lds_conflict;   /* LDS bus clocks its accesses lost to bank conflicts */
} xs_gpu_prof_ent;
/* Starts (clears) or stops collecting; false when the host has no memory
 * for it. Collected in timing mode only. */
bool xs_gpu_profile_enable(xs_gpu *gpu, bool on);
bool xs_gpu_profiling(const xs_gpu *gpu);
/* What was collected, in PC order of first issue; *overflow when more
 * distinct PCs ran than it keeps (XS_GPU_PROF_MAX). */
const xs_gpu_prof_ent *xs_gpu_profile_get(const xs_gpu *gpu, uint32_t *n, bool *overflow);
#define XS_GPU_PROF_MAX (1u << 18)
/* The dispatches and draws that ended while the profile was on (at most
 * XS_GPU_PROF_MAX_DISPS), and the launch waits of all of them. */
typedef struct xs_gpu_prof_disp {
	uint32_t id, queue;
	uint64_t start, end, waves, insts;
	uint64_t pgm_va;          /* the compute program (0 for a draw) */
	bool draw;
} xs_gpu_prof_disp;
#define XS_GPU_PROF_MAX_DISPS (1u << 16)
const xs_gpu_prof_disp *xs_gpu_profile_disps(const xs_gpu *gpu, uint32_t *n, const uint64_t **waits,
					     const xs_gpu_counters **ctr);

/* COMPUTE_STATIC_THREAD_MGMT_SE0..3 values enabling the CUs of a chip-wide
 * CU bitmap (each CU's SA0_CU_EN or SA1_CU_EN bit of its SE). */
void xs_gpu_cu_mask_regs(const xs_gpu *gpu, uint64_t mask, uint32_t regs[XS_MAX_SE]);

#endif
