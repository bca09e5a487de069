/*
 * xs12 — public C API.
 *
 * A simulated Xbox Series GPU (RDNA2, gfx10.3) that runs real AMDGPU code
 * objects. This header is the runtime layer (device, GPU memory, code objects,
 * dispatch); the D3D12 interfaces are a second public header built on the
 * same runtime.
 *
 * Every call returns an xs_status; on failure xs_last_error() gives a message
 * that names the rule, field, byte offset or argument at fault.
 */
#ifndef XS12_H
#define XS12_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(XS_BUILDING)
#define XS_API __attribute__((visibility("default")))
#else
#define XS_API
#endif

#define XS12_VERSION_STRING "0.1.0"

typedef enum xs_status {
	XS_OK = 0,
	XS_E_INVALID_ARG,       /* an argument breaks the documented rule named in the message */
	XS_E_BAD_CODE_OBJECT,   /* malformed / truncated / hostile code object */
	XS_E_UNSUPPORTED,       /* valid input that xs12 does not model (e.g. another GPU target) */
	XS_E_NOT_FOUND,         /* no such kernel / symbol */
	XS_E_OUT_OF_MEMORY,     /* host or GPU virtual address space exhausted */
	XS_E_IO,                /* file could not be read or written */
	XS_E_DEVICE_REMOVED,    /* a shader faulted, hung or hit an unimplemented instruction */
	XS_E_INTERRUPTED,       /* xs_device_interrupt() stopped the work (e.g. Ctrl-C) */
} xs_status;

typedef enum xs_machine {
	XS_MACHINE_SERIES_X = 0,
	XS_MACHINE_SERIES_S = 1,
} xs_machine;

typedef struct xs_device xs_device;
typedef struct xs_module xs_module;

/* ---- machines ---------------------------------------------------------- */

/* A few figures of a machine's device-info table, for tools and reports. */
typedef struct xs_machine_info {
	const char *name;                  /* "Xbox Series X" */
	uint32_t num_se, num_cu;
	uint32_t simds_per_cu;
	uint32_t wave_slots_per_simd;
	uint32_t lds_max_per_group;        /* bytes (S3.3) */
	uint32_t default_scratch_waves;    /* the driver's compute ring (SPEC S1.8) */
	uint32_t max_scratch_waves;        /* 32 per CU (S1.13) */
	uint32_t sclk_mhz;
} xs_machine_info;

XS_API xs_status xs_machine_describe(xs_machine m, xs_machine_info *out);

/* ---- device ---------------------------------------------------------- */

typedef struct xs_device_desc {
	xs_machine machine;
	/* Compute scratch ring slots (COMPUTE_TMPRING_SIZE.WAVES); 0 = driver
	 * default (SPEC S1.8). More than 32 per CU is an error (S1.13). */
	uint32_t scratch_waves;
	/* Hang detection, as a GPU driver's timeout detection does it (Windows
	 * resets a GPU that stops responding for 2 s): the device is removed
	 * when a dispatch that has waves on the GPU completes no thread group
	 * for hang_gpu_us microseconds of simulated GPU time (deterministic, the
	 * same in a replay) or for hang_host_ms of host time (catches a
	 * simulation that runs slower than the GPU would). A grid whose groups
	 * keep completing is never stopped. 0 = the default
	 * (XS_HANG_GPU_US_DEFAULT, XS_HANG_HOST_MS_DEFAULT; the environment
	 * variable XS12_HANG_HOST_MS replaces the host one, for slow hosts);
	 * XS_WATCHDOG_OFF = never. */
	uint32_t hang_gpu_us, hang_host_ms;
	/* Wave instructions one wave may execute before the device is removed;
	 * 0 = no per-wave budget (hang detection above still applies). */
	uint64_t watchdog_wave_insts;
	/* Functional execution only: no timing model (fastest); cycles then
	 * count one per wave32 instruction per SIMD. Default: timing on. */
	bool functional;
	/* Host threads for functional mode: 0 = all cores, 1 = one (its
	 * issue-count cycles are then deterministic). Results are the same for
	 * kernels whose result does not depend on the order of atomics between
	 * groups. The timing model runs on timing_threads. */
	uint32_t threads;
	/* Called now and then during long runs: groups launched of the groups
	 * of the dispatches in flight, and simulated cycles. May be NULL. */
	void (*progress)(void *user, uint64_t groups_launched, uint64_t groups_total, uint64_t cycles);
	void *progress_user;
	/* The debug layer's checks, as D3D12's: a scratch-using dispatch on an
	 * async compute queue with the driver's default scratch is refused
	 * (SPEC S1.8). Without it such dispatches run on the shared memory. */
	bool debug_layer;
	/* Host threads for the timing model: 0 or 1 = one; 2 = the waves'
	 * instructions run ahead on a second thread while the model issues
	 * them. Cycles, counters and bytes are the same as one thread's for
	 * kernels whose waves share data only across barriers; for others,
	 * another legal interleaving, the same in every run (docs/performance-log.md). */
	uint32_t timing_threads;
} xs_device_desc;

#define XS_HANG_GPU_US_DEFAULT 2000000u
#define XS_HANG_HOST_MS_DEFAULT 10000u
#define XS_WATCHDOG_OFF 0xffffffffu

XS_API xs_status xs_device_create(const xs_device_desc *desc, xs_device **out);
/* Asks the device to stop the work it is running as soon as it can (from
 * any thread, or a signal handler: it only sets a flag). The running call
 * returns XS_E_INTERRUPTED with what was done so far; later calls run
 * normally. */
XS_API void xs_device_interrupt(xs_device *dev);
XS_API void xs_device_destroy(xs_device *dev);
/* Message for the calling thread's last failed call (dev is not needed:
 * each thread has its own). Messages start with the rule they name
 * ("S1.3: ...", "D3D12: ..."). Never NULL. */
XS_API const char *xs_last_error(const xs_device *dev);
XS_API const char *xs_status_name(xs_status s);

/* ---- GPU memory (48-bit virtual address space, lazily backed) -------- */

/* An allocation is valid to the byte asked for: a shader access past
 * va + size faults (a device-removed report) even inside the last page,
 * where hardware would let it pass. */
XS_API xs_status xs_mem_alloc(xs_device *dev, uint64_t size, uint64_t align, uint64_t *va);
XS_API xs_status xs_mem_free(xs_device *dev, uint64_t va);
/* Names the allocation that starts at va; VM fault reports then say which
 * allocation the faulting address falls in or is nearest to. */
XS_API xs_status xs_mem_set_name(xs_device *dev, uint64_t va, const char *name);
XS_API xs_status xs_mem_write(xs_device *dev, uint64_t va, const void *src, size_t size);
XS_API xs_status xs_mem_read(xs_device *dev, uint64_t va, void *dst, size_t size);

/* ---- code objects ------------------------------------------------------ */

typedef enum xs_arg_kind {
	XS_ARG_BY_VALUE,
	XS_ARG_GLOBAL_BUFFER,
	XS_ARG_DYNAMIC_SHARED_POINTER,   /* __local pointer: dynamic LDS */
	XS_ARG_HIDDEN,                   /* filled by the runtime (hidden_*) */
	XS_ARG_OTHER,
} xs_arg_kind;

typedef struct xs_kernel_arg {
	const char *name;        /* may be "" */
	const char *type_name;   /* may be "" */
	const char *value_kind;  /* as in the metadata: "by_value", "hidden_block_count_x", ... */
	xs_arg_kind kind;
	uint32_t offset, size;
} xs_kernel_arg;

typedef struct xs_kernel_info {
	const char *name;
	uint32_t group_segment_fixed_size;    /* static LDS bytes */
	uint32_t private_segment_fixed_size;  /* scratch bytes per lane */
	uint32_t kernarg_size;
	uint32_t wavefront_size;              /* 32 or 64 */
	uint32_t vgpr_count, sgpr_count;      /* from the metadata */
	uint32_t max_flat_workgroup_size;
	uint32_t rsrc1, rsrc2, rsrc3;         /* COMPUTE_PGM_RSRC1/2/3 from the descriptor */
	uint16_t kernel_code_properties;
	bool wgp_mode;
	bool uses_dynamic_stack;
	uint32_t num_args;
	const xs_kernel_arg *args;
} xs_kernel_info;

/* Loads an AMDGPU code object (ELF, clang offload bundle, or host ELF with a
 * .hip_fatbin section) and uploads its code into the device's GPU memory. */
XS_API xs_status xs_module_load(xs_device *dev, const void *bytes, size_t size, xs_module **out);
XS_API xs_status xs_module_load_file(xs_device *dev, const char *path, xs_module **out);
XS_API void xs_module_destroy(xs_module *mod);
XS_API uint32_t xs_module_kernel_count(const xs_module *mod);
XS_API const xs_kernel_info *xs_module_kernel(const xs_module *mod, uint32_t index);
XS_API const xs_kernel_info *xs_module_find_kernel(const xs_module *mod, const char *name);
XS_API const char *xs_module_target(const xs_module *mod);  /* e.g. "amdgcn-amd-amdhsa--gfx1030" */
XS_API uint32_t xs_module_code_object_version(const xs_module *mod); /* 4 or 5 */

/* ---- occupancy (hardware rules, SPEC S1.13, S3.6) ---------------------- */

typedef enum xs_limiter {
	XS_LIMIT_WAVE_SLOTS = 0,  /* 16 waves per SIMD */
	XS_LIMIT_VGPR,
	XS_LIMIT_LDS,
	XS_LIMIT_WORKGROUP,       /* barrier / workgroup-per-CU limits */
	XS_LIMIT_SCRATCH,
} xs_limiter;

typedef struct xs_occupancy {
	uint32_t waves_per_simd;          /* theoretical, 0..16 (0: a group can never launch) */
	xs_limiter limiter;
	uint32_t vgpr_alloc;              /* VGPRs allocated per wave after granule rounding */
	uint64_t lds_alloc;               /* LDS bytes allocated per workgroup after rounding */
	uint32_t waves_per_group;
	uint32_t by_slots, by_vgpr, by_lds, by_workgroup; /* each limit on its own */
	/* Scratch (kernels with SCRATCH_EN): the ring's slots are shared by the
	 * whole chip on gfx10.3, so they bound the waves in flight on all SIMDs
	 * together; by_scratch is their average per SIMD (rounded down, at least
	 * 1 while a group fits), scratch_waves_per_simd the exact average. A
	 * SIMD may hold more than the average (up to by_slots) while others
	 * hold none. */
	bool scratch_en;
	uint64_t scratch_per_wave;        /* bytes, S1.11 (xs_kernel_scratch_per_wave) */
	uint32_t scratch_slots;           /* ring slots (COMPUTE_TMPRING_SIZE.WAVES) used for this */
	uint32_t scratch_slots_usable;    /* of them, what 32 waves per CU allow (S1.13) */
	uint32_t by_scratch;
	double scratch_waves_per_simd;
	/* RGA-style hints: VGPRs per wave at most for the next occupancy step
	 * (0 when VGPRs do not bind); ring slots that reach the occupancy the
	 * other limits allow (0 without scratch). */
	uint32_t vgprs_for_next_step, next_step_waves;
	uint32_t scratch_slots_for_full;
} xs_occupancy;

typedef struct xs_occupancy_query {
	uint32_t group_size;      /* threads per group; 0 = the kernel's .max_flat_workgroup_size */
	uint32_t dynamic_lds;     /* bytes added to the static LDS (S3.7) */
	/* Scratch ring slots; 0 = the machine's driver default (S1.8). */
	uint32_t scratch_slots;
} xs_occupancy_query;

XS_API const char *xs_limiter_name(xs_limiter l);
/* Theoretical occupancy of k on machine m, with the ring's limit for a
 * kernel that uses scratch. q may be NULL (all defaults). */
XS_API xs_status xs_kernel_occupancy(xs_machine m, const xs_kernel_info *k, const xs_occupancy_query *q,
                                     xs_occupancy *out);
/* Scratch bytes one wave of k needs (SPEC S1.11): the lane bytes times the
 * wave size, rounded up to 1 KB; 1 KB when SCRATCH_EN is set with no
 * private bytes; 0 without SCRATCH_EN. What GetInformationX reports, in
 * units of 1 KB. */
XS_API uint64_t xs_kernel_scratch_per_wave(const xs_kernel_info *k);

/* ---- dispatch ---------------------------------------------------------- */

typedef struct xs_dispatch_desc {
	const xs_kernel_info *kernel;     /* from xs_module_kernel() */
	const xs_module *module;
	uint32_t groups[3];               /* thread groups, as D3D12 Dispatch */
	uint32_t block[3];                /* threads per group */
	const void *kernargs;             /* explicit arguments laid out at their metadata offsets */
	size_t kernargs_size;             /* bytes valid in kernargs */
	uint32_t dynamic_lds;             /* bytes of LDS for __local pointer arguments */
	uint32_t work_dim;                /* 1..3 for get_work_dim(); 0 = highest dimension with size > 1 */
	uint32_t queue;                   /* 0 = direct (graphics ring), 1..XS_MAX_QUEUES-1 = async compute */
	uint64_t cu_mask;                 /* CUs the dispatch may use, bit per CU (chip-wide); 0 = all */
	/* block and dynamic_lds are D3D12XBOX launch parameters (SPEC S3): the
	 * S3 rules apply and the messages name them. */
	bool launch_parameters;
} xs_dispatch_desc;

/* Why thread groups that were ready to launch waited (SPI resources). */
typedef enum xs_wait_cause {
	XS_WAIT_WAVE_SLOT, XS_WAIT_VGPR, XS_WAIT_LDS, XS_WAIT_BARRIER, XS_WAIT_SCRATCH_SLOT,
	XS_WAIT_CU_LIMIT, /* CU masks, COMPUTE_RESOURCE_LIMITS */
	XS_WAIT_COUNT
} xs_wait_cause;
XS_API const char *xs_wait_cause_name(xs_wait_cause c);

#define XS_MAX_CUS 64

/* Hardware counters of one dispatch, as rocprof reads them (timing mode:
 * `valid`; functional mode has no caches or pipes and fills only
 * waves_per_se). Lines are the L2's 128 bytes. Loads look up the CU's
 * vector L0 and, on a miss, the L2; stores and atomics go to the L2
 * (the L0 is write-through and does not allocate on a store). Bytes per
 * level: what the lanes asked for (vmem_*_bytes), L2 to L0 (l0_misses
 * lines), DRAM to L2 (dram_read_lines), L2 to DRAM (dram_write_lines:
 * dirty lines evicted). LDS: the bytes the lanes moved, and the bus clocks
 * lost to bank conflicts (lds_bank_conflict_cycles, as rocprof's
 * SQ_LDS_BANK_CONFLICT: 32 dword-wide banks, lanes served in phases). */
typedef enum xs_inst_class {
	XS_INST_SALU, XS_INST_SMEM, XS_INST_BRANCH, XS_INST_MESSAGE, XS_INST_VALU, XS_INST_VALU_TRANS,
	XS_INST_VALU_FP64, XS_INST_LDS, XS_INST_VMEM_LOAD, XS_INST_VMEM_STORE, XS_INST_VMEM_ATOMIC,
	XS_INST_EXPORT, XS_INST_INTERNAL,
	XS_INST_CLASS_COUNT
} xs_inst_class;
XS_API const char *xs_inst_class_name(xs_inst_class c); /* "salu", "valu-trans", ... */

#define XS_MAX_SIMDS (2 * XS_MAX_CUS)
#define XS_MAX_SES 4
#define XS_MAX_QUEUES 4 /* xs_dispatch_desc.queue: the direct queue and three async compute queues */

typedef struct xs_dispatch_counters {
	bool valid;                       /* timing mode */
	uint64_t insts[XS_INST_CLASS_COUNT]; /* wave instructions by class */
	uint64_t l0_hits, l0_misses;      /* load lines */
	uint64_t l2_hits, l2_misses;      /* lines: L0 misses, stores, atomics */
	uint64_t dram_read_lines, dram_write_lines;
	uint64_t vmem_read_bytes, vmem_write_bytes;       /* asked for by the active lanes */
	uint64_t scratch_read_bytes, scratch_write_bytes; /* of them, private memory (scratch) */
	uint64_t lds_bytes;               /* moved over the LDS bus */
	double dram_gbps;                 /* DRAM bytes both ways over the dispatch's time */
	uint32_t num_simd, num_se;
	uint32_t line_bytes;              /* of the lines above: the L2's (128 on gfx10.3) */
	uint64_t salu_busy[XS_MAX_SIMDS], valu_busy[XS_MAX_SIMDS]; /* cycles each SIMD's pipe was taken */
	uint64_t waves_per_se[XS_MAX_SES];
	uint64_t lds_bank_conflict_cycles; /* LDS bus clocks lost to bank conflicts (docs/hardware.md section 8) */
} xs_dispatch_counters;

typedef struct xs_dispatch_stats {
	uint64_t waves_launched;
	uint64_t wave_instructions;
	uint64_t start_cycle, end_cycle;  /* simulated time at the shader clock */
	uint64_t cycles;                  /* end - start */
	double microseconds;              /* cycles at the machine's clock */
	uint32_t peak_waves_in_flight;
	uint32_t peak_waves_per_simd;
	double avg_waves_per_simd;        /* time-averaged over the dispatch and all SIMDs */
	uint32_t peak_scratch_slots;      /* of the dispatch's scratch ring */
	uint32_t scratch_waves;           /* COMPUTE_TMPRING_SIZE.WAVES used */
	uint32_t scratch_wavesize_kb;     /* COMPUTE_TMPRING_SIZE.WAVESIZE used */
	uint64_t wait_cycles[XS_WAIT_COUNT]; /* wave-cycles that ready waves waited to launch */
	uint32_t num_cu;
	uint64_t cu_busy_cycles[XS_MAX_CUS]; /* cycles each CU held a wave of the dispatch */
	double host_seconds;
	xs_dispatch_counters counters;
} xs_dispatch_stats;

/* Runs one dispatch to completion. A faulting or looping shader gives
 * XS_E_DEVICE_REMOVED with a report (address, wave, PC) in xs_last_error(). */
XS_API xs_status xs_dispatch(xs_device *dev, const xs_dispatch_desc *desc, xs_dispatch_stats *stats);
/* Starts n (<= 8) dispatches at the same simulated time, each on its queue,
 * and runs until all complete; stats[i] for descs[i]. Dispatches on one
 * queue launch in order; dispatches on different queues overlap. With the
 * driver's default scratch (one allocation shared by all queues, SPEC
 * S1.8) overlapping scratch-using dispatches share its memory, as on the
 * hardware; xs_device_desc.debug_layer refuses them on async queues. */
XS_API xs_status xs_dispatch_batch(xs_device *dev, const xs_dispatch_desc *descs, uint32_t n,
				   xs_dispatch_stats *stats);

/* SetShaderScratchSpaceX for a queue's compute ring (SPEC S1): scratch at
 * va (1 KB aligned, S1.3) of size_bytes (S1.5) in slots of size_per_wave
 * (S1.6): WAVES = size_bytes / size_per_wave, at most 32 per CU used
 * (S1.13). va = 0 with both sizes 0 restores the driver default (S1.4). The
 * memory is not checked for reuse (S1.10). */
XS_API xs_status xs_set_scratch_space(xs_device *dev, uint32_t queue, uint64_t va, uint64_t size_bytes,
				      uint32_t size_per_wave);

/* ---- timelines ---------------------------------------------------------- */

/* Records every wave (launch to retire, CU/SIMD/slot) and the waves and
 * scratch slots in use over simulated time, from now on (clears the record). */
XS_API void xs_device_trace(xs_device *dev, bool on);
/* Chrome trace / Perfetto JSON: one track per wave slot, counters for
 * occupancy and scratch slots. */
XS_API xs_status xs_trace_write_json(xs_device *dev, const char *path);
/* An SVG chart of waves in flight and scratch slots in use over time. */
XS_API xs_status xs_trace_write_svg(xs_device *dev, const char *path);

/* ---- instruction timing, as RGP shows it ---------------------------------- */

/* Why a wave's next instruction waited (timing mode). */
typedef enum xs_stall {
	XS_STALL_VMCNT,          /* s_waitcnt vmcnt: vector memory loads */
	XS_STALL_VSCNT,          /* s_waitcnt_vscnt: vector memory stores */
	XS_STALL_LGKMCNT,        /* s_waitcnt lgkmcnt: LDS and scalar memory */
	XS_STALL_VALU_DEP,       /* a VALU reading the previous VALU's result */
	XS_STALL_PIPE_BUSY,      /* the SIMD's pipe for its kind was taken */
	XS_STALL_BARRIER,        /* s_barrier: the group's other waves */
	XS_STALL_EXPORT,         /* exp: no export / parameter-cache space (S4.1) */
	XS_STALL_COUNTER_FULL,   /* a memory counter at its limit */
	XS_STALL_END_OF_PROGRAM, /* s_endpgm: the wave's last memory operations */
	XS_STALL_COUNT
} xs_stall;
XS_API const char *xs_stall_name(xs_stall s); /* "vmcnt", "valu-dep", "pipe-busy", ... */

typedef struct xs_profile_inst {
	uint64_t pc;
	uint32_t offset;                  /* bytes from the function's first instruction */
	const char *text;                 /* as llvm-objdump-15 prints it */
	uint64_t issues;                  /* times waves issued it */
	/* Wave-cycles spent on it: from the cycle it became the wave's next
	 * instruction to the cycle the wave could issue the one after (a
	 * wave's instructions add up to its life); of them, stalled by reason.
	 * A barrier's, an exp's and s_endpgm's waits count on them. */
	uint64_t cycles;
	uint64_t stall[XS_STALL_COUNT];
	const char *source_file;          /* from the code object's line table (-g), else NULL */
	uint32_t source_line;
	const char *source_text;          /* that line of the file, if it could be read, else NULL */
	/* An LDS instruction's clocks on the LDS bus lost to bank conflicts
	 * (docs/hardware.md section 8), summed over its issues: not cycles of
	 * its own (the wave waits for them at an s_waitcnt lgkmcnt), they say
	 * which access caused such a wait. */
	uint64_t lds_bank_conflict_cycles;
} xs_profile_inst;

typedef struct xs_profile_function {
	const char *name;                 /* the kernel or function symbol, or "code at 0x..." */
	uint64_t start_pc, end_pc;
	uint64_t wave_instructions, cycles;
	uint64_t stall[XS_STALL_COUNT];
	int top_stall;                    /* the xs_stall with most cycles, -1 when none stalled */
	uint32_t num_insts;               /* every instruction of the function, in address order */
	const xs_profile_inst *insts;
	uint32_t num_hot;                 /* the most expensive (at most 20), most cycles first */
	const uint32_t *hot;              /* indices into insts */
	uint64_t lds_bank_conflict_cycles; /* its instructions' */
} xs_profile_function;

typedef struct xs_profile xs_profile;

/* Starts collecting per-instruction timing on the device (clearing what
 * was collected), or stops. Timing mode only (XS_E_UNSUPPORTED in
 * functional mode). While on, the device also records its timeline
 * (xs_device_trace) for the occupancy chart, unless tracing was on already. */
XS_API xs_status xs_device_profile(xs_device *dev, bool on);
/* What was collected until now, per function of the loaded code objects
 * (code in no loaded module is named by its address). */
XS_API xs_status xs_profile_take(xs_device *dev, xs_profile **out);
XS_API uint32_t xs_profile_function_count(const xs_profile *p);
XS_API const xs_profile_function *xs_profile_function_get(const xs_profile *p, uint32_t index);
/* Writes the profile: FILE.json (format "xs12-profile-1"), FILE.html (one
 * self-contained page: annotated ISA, hot spots, stalls, occupancy over
 * time, dispatches per queue), anything else as text. */
XS_API xs_status xs_profile_write(const xs_profile *p, const char *path);
XS_API void xs_profile_destroy(xs_profile *p);

/* ---- recording and replay ------------------------------------------------ */

/* Records every following batch (GPU memory at submission, the PM4 command
 * buffers, and what came out) to path; NULL stops. The file is written
 * beside path and replaces it when the recording stops (NULL, another
 * path, or the device's destruction) with at least one batch and every
 * write done: a run that failed before the GPU ran, or a full disk, leaves
 * what was at path. Stopping returns XS_E_IO when a write failed. */
XS_API xs_status xs_device_record(xs_device *dev, const char *path);

typedef struct xs_replay_report {
	uint32_t batches, dispatches;
	uint64_t cycles;          /* sum of the replayed dispatches' cycles */
	bool identical;           /* same statuses, cycles, waves, instructions and memory */
	char detail[256];         /* the first difference, when not identical */
} xs_replay_report;
/* Replays a recording on fresh devices through the GPU model alone and
 * compares what comes out with what was recorded. */
XS_API xs_status xs_replay(const char *path, xs_replay_report *report);

/* A replay with register fields replaced, and each dispatch's figures (what
 * xs12 sweep --override runs): the command processor writes each override,
 * "REG.FIELD=V" or "REG=V" (decimal or 0x hex, e.g.
 * "COMPUTE_TMPRING_SIZE.WAVES=52"), into its register whenever a PM4 packet
 * of the recording sets that register, so a captured workload runs with
 * another scratch ring, wave limit or CU mask without its program. */
#define XS_REPLAY_MAX_OVERRIDES 16
typedef struct xs_replay_options {
	const char *const *overrides;
	uint32_t num_overrides;          /* at most XS_REPLAY_MAX_OVERRIDES */
	xs_dispatch_stats *stats;        /* the first max_stats dispatches' figures, in replay order; or NULL */
	uint32_t max_stats;
} xs_replay_options;
/* report->dispatches counts every replayed dispatch; report->identical says
 * whether the run still matched the recording. XS_E_INVALID_ARG for an
 * override the register database does not know, or one the recording never
 * triggers (it would change nothing); a batch that fails (a rule the
 * overridden registers break, a device removal) returns its status and
 * message, with the figures of the dispatches before it. */
XS_API xs_status xs_replay_ex(const char *path, const xs_replay_options *opts, xs_replay_report *report);

#ifdef __cplusplus
}
#endif
#endif /* XS12_H */
