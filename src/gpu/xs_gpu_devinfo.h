/*
 * Hardware facts, one const table per machine. Every number the GPU model
 * uses lives here (or in the register / opcode tables), with its source;
 * figures marked [model] are modelling choices, not published facts.
 */
#ifndef XS_GPU_DEVINFO_H
#define XS_GPU_DEVINFO_H

#include "common/xs_common.h"

#define XS_MAX_SE 4
#define XS_MAX_SA_PER_SE 2

/* gfx10.3 figures that other files size arrays by or build into constants.
 * They are named here so that those files can check them with
 * _Static_assert (a member of the const table is not a constant
 * expression); GFX103_COMMON in xs_gpu_devinfo.c uses them, and
 * xs_gpu_create checks every machine's row again at run time. */
#define XS_GFX103_WAVE_SLOTS_PER_SIMD 16 /* [R] gfx10.3: 16 (gfx10.1: 20) */
#define XS_GFX103_MAX_WAVES_PER_GROUP 32 /* SPEC S3.5 */
#define XS_GFX103_L2_LINE_BYTES 128      /* [model] L0 and L2 lines (docs/hardware.md section 8) */

typedef struct xs_devinfo {
	xs_machine machine;
	const char *name;          /* "Xbox Series X" */
	const char *cli_name;      /* "seriesx" */
	const char *processor;     /* LLVM processor the ISA matches: "gfx1030" */

	/* Topology. */
	uint32_t num_se;
	uint32_t num_sa_per_se;
	uint32_t wgps_per_sa[XS_MAX_SE * XS_MAX_SA_PER_SE]; /* active WGPs, SA-major */
	uint32_t num_cu;           /* active CUs = 2 x sum(wgps_per_sa) */
	uint32_t cus_per_wgp;
	uint32_t simds_per_cu;

	/* Per-SIMD / per-CU limits. */
	uint32_t wave_slots_per_simd;
	uint32_t vgprs_per_simd_w32;   /* wave32 VGPRs in a SIMD's register file */
	uint32_t vgpr_granule_w32;     /* allocation granule, wave32 */
	uint32_t vgpr_granule_w64;
	uint32_t vgpr_encode_granule_w32; /* RSRC1.VGPRS unit */
	uint32_t vgpr_encode_granule_w64;
	uint32_t max_vgprs_per_wave;
	uint32_t sgprs_per_wave;
	uint32_t lds_per_wgp;          /* bytes; CU mode gives each CU half */
	uint32_t lds_alloc_granule;    /* bytes actually allocated per step */
	uint32_t lds_encode_granule;   /* RSRC2.LDS_SIZE unit, bytes */
	uint32_t lds_max_per_group;
	uint32_t barriers_per_cu;      /* CU mode; WGP mode has 2x per WGP */
	uint32_t max_group_threads;
	uint32_t max_waves_per_group;  /* SPEC S3.5 */

	/* Scratch. */
	uint32_t max_scratch_waves_per_cu; /* SPEC S1.13 */
	uint32_t scratch_wavesize_granule; /* bytes per COMPUTE_TMPRING_SIZE.WAVESIZE unit */
	uint32_t max_wave_scratch;         /* bytes: 8191 x 1 KiB */
	uint32_t default_scratch_waves_per_cu; /* driver default, SPEC S1.8 [model] */

	/* Graphics. */
	uint32_t pc_lines;             /* parameter-cache lines per SE (one line: one vertex's
	                                * one parameter, 4 dwords) */

	/* Clocks and memory. */
	uint32_t sclk_mhz;
	uint32_t mem_bandwidth_gbs;
	uint64_t memory_bytes;         /* GDDR6 in all: what the allocations may span (xs_vm_set_limit) */
	uint32_t l2_bytes;

	/* Timing, in shader-clock cycles (see xs_gpu_devinfo.c for sources). */
	uint32_t lat_salu;           /* SALU result latency */
	uint32_t lat_valu;           /* dependent VALU issue distance */
	uint32_t lat_valu_trans;     /* transcendental result latency */
	uint32_t issue_valu_trans;   /* cycles the transcendental unit is busy per wave32 op */
	uint32_t lat_valu_dp;        /* FP64 result latency */
	uint32_t issue_valu_dp;      /* cycles per wave32 FP64 op (1/16 rate) */
	uint32_t lat_smem;           /* scalar memory load */
	uint32_t lat_lds;            /* LDS access */
	uint32_t lds_banks;          /* dword-wide banks behind one LDS bus, a dword each a clock: one
	                              * bus per CU in CU mode, per WGP in WGP mode (S3.6); a power of
	                              * two, at most XS_GPU_LDS_MAX_BANKS */
	uint32_t l0_bytes;           /* vector L0 per CU */
	uint32_t l0_ways, l2_ways;
	uint32_t l2_line_bytes;      /* L0 and L2 line; the interpreter reports lines of this
	                              * size (XS_MTRACE_LINE_SHIFT, checked by xs_gpu_create) */
	uint32_t lat_l0;             /* vector load that hits the L0 */
	uint32_t lat_l2;             /* vector load that hits the L2 */
	uint32_t lat_dram;           /* vector memory load that misses to DRAM */
	uint32_t dram_efficiency_pct;/* sustained share of peak DRAM bandwidth */
	uint32_t ray_box_tests_per_clk; /* ray accelerator (one per CU): ray/box tests per clock */
	uint32_t ray_tri_tests_per_clk; /* ... or ray/triangle tests per clock */
	uint32_t lat_ray;            /* from the nodes' arrival to the intersection results */
	uint32_t branch_taken;       /* extra cycles for a taken branch (instruction refetch) */
	uint32_t wave_launch;        /* cycles from wave launch to its first issue */
	uint32_t se_launch_interval; /* cycles between two wave launches of one SE's SPI */
	uint32_t barrier_release;    /* cycles from the last arrival to the waves' next issue */
} xs_devinfo;

const xs_devinfo *xs_devinfo_get(xs_machine m);
/* By CLI name ("seriesx", "seriess"); NULL if unknown. */
const xs_devinfo *xs_devinfo_by_name(const char *name);
uint32_t xs_devinfo_num_wgp(const xs_devinfo *d);

#endif
