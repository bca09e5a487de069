/*
 * Machine descriptions. Sources:
 *  [R]  register and launch rules (docs/hardware.md sections 6-8; Mesa ac_gpu_info.c,
 *       PAL gfx9Device.cpp / gfx9Chip.h, LLVM AMDGPUBaseInfo.cpp).
 *  [E]  published console figures (Hot Chips 2020 coverage for Series X;
 *       tomshardware / techpowerup for Series S).
 *  [W]  AMD's RDNA 2 material (whitepaper, Hot Chips 2020 Series X talk).
 *  [D]  AMD ROCm documentation: rocprofiler-compute, RDNA "Workgroup Manager
 *       (SPI)" metrics (rocm.docs.amd.com/projects/rocprofiler-compute).
 *  [O]  AMD's programming guides on the LDS: 32 banks, each a dword wide,
 *       the bank from address bits 6:2 (AMD APP OpenCL Programming Guide,
 *       "Local Memory (LDS) Optimization"); a wave's lanes served in phases
 *       by access width (ROCm Composable Kernel docs, "LDS bank conflicts").
 *  [model] a modelling choice: the public record does not fix the figure.
 */
#include "gpu/xs_gpu_devinfo.h"

#include <string.h>

#define GFX103_COMMON                                                                          \
	.processor = "gfx1030",                                                                 \
	.cus_per_wgp = 2,                    /* [R] LLVM AMDGPUUsage, memory model GFX10 */     \
	.simds_per_cu = 2,                   /* [R] Mesa num_simd_per_compute_unit */           \
	.wave_slots_per_simd = XS_GFX103_WAVE_SLOTS_PER_SIMD, /* [R] xs_gpu_devinfo.h */        \
	.vgprs_per_simd_w32 = 1024,          /* [R] = 512 wave64 VGPRs, 128 KiB */              \
	.vgpr_granule_w32 = 16,              /* [R] LLVM getVGPRAllocGranule, gfx10.3 */        \
	.vgpr_granule_w64 = 8,                                                                  \
	.vgpr_encode_granule_w32 = 8,        /* [R] RSRC1.VGPRS encoding */                     \
	.vgpr_encode_granule_w64 = 4,                                                           \
	.max_vgprs_per_wave = 256,                                                              \
	.sgprs_per_wave = 128,               /* [R] always 128 allocated on gfx10 */            \
	.lds_per_wgp = 128 * 1024,           /* [R] 64 KiB per CU in CU mode */                 \
	.lds_alloc_granule = 1024,           /* [R] 10.3 allocates 256 dwords per step */       \
	.lds_encode_granule = 512,           /* [R] RSRC2.LDS_SIZE in 128 dwords */             \
	.lds_max_per_group = 64 * 1024,      /* [R] SPEC S3.3 */                                \
	.barriers_per_cu = 16,               /* [R] PAL numSqcBarriersPerCu */                  \
	.max_group_threads = 1024,           /* [R] wave32: 32 waves */                         \
	.max_waves_per_group = XS_GFX103_MAX_WAVES_PER_GROUP, /* SPEC S3.5 */                   \
	.max_scratch_waves_per_cu = 32,      /* [R] PAL MaxScratchWavesPerCu; SPEC S1.13 */     \
	.scratch_wavesize_granule = 1024,    /* [R] WAVESIZE unit on gfx10.3 */                 \
	.max_wave_scratch = 8191 * 1024,     /* [R] ROCr MAX_WAVE_SCRATCH */                    \
	.default_scratch_waves_per_cu = 4,   /* [model] S1.8 "a few waves per SIMD": 2 per SIMD; \
	                                        RADV's comment recommends at most 4 per CU */ \
	.pc_lines = 1024,                    /* [R] Mesa radeon_info.pc_lines for Sienna       \
	                                        Cichlid / Navy Flounder (gfx10.3); per SE is   \
	                                        [inference]: the figure does not grow with SEs */ \
	/* Timing. [L] LLVM SISchedule.td GFX10SpeedModel; [A] Mesa aco_statistics.cpp; \
	 * [C] Chips and Cheese RX 6800 XT/6900 XT latencies at 1.825 GHz \
	 * (docs/hardware.md section 8). */                                           \
	.lat_salu = 2,                       /* [L] [A] */                                      \
	.lat_valu = 5,                       /* [L] [A] dependent-issue distance */             \
	.lat_valu_trans = 10,                /* [L] */                                          \
	.issue_valu_trans = 4,               /* [A] quarter rate on the transcendental unit */   \
	.lat_valu_dp = 22,                   /* [L] */                                          \
	.issue_valu_dp = 16,                 /* [A] Navi21 FP64 is 1/16 rate */                 \
	.lat_smem = 30,                      /* [A] hit-ish */                                  \
	.lat_lds = 20,                       /* [L] [A] */                                      \
	.lds_banks = 32,                     /* [O] SPEC S3.6: 32 banks of 4 bytes, 128 bytes a clock */ \
	.l0_bytes = 16 * 1024,               /* [E] RDNA vector L0 per CU (NaviSim) */          \
	.l0_ways = 4, .l2_ways = 16,         /* [model] */                                      \
	.l2_line_bytes = XS_GFX103_L2_LINE_BYTES, /* [model] xs_gpu_devinfo.h */                \
	.lat_l0 = 64,                        /* [model] between SMEM hit and L2 */              \
	.lat_l2 = 120,                       /* [C] 66 ns on RX 6800 XT */                      \
	.lat_dram = 410,                     /* [C] 226 ns; the consoles have no Infinity Cache */ \
	.dram_efficiency_pct = 90,           /* [model] GDDR6 sustains ~90 % of peak */         \
	/* [W] AMD RDNA 2 whitepaper / Hot Chips 2020 (Series X): one ray accelerator per CU, \
	 * 4 ray/box or 1 ray/triangle intersections per clock (Series X: 380 G box / 95 G \
	 * triangle tests per second = 52 CUs x 1.825 GHz x 4 / x 1). */                    \
	.ray_box_tests_per_clk = 4,          /* [W] */                                          \
	.ray_tri_tests_per_clk = 1,          /* [W] */                                          \
	.lat_ray = 24,                       /* [model] no public figure: a short fixed-function \
	                                        pipeline after the texture unit's fetch */     \
	.branch_taken = 4,                   /* [model] */                                      \
	.wave_launch = 8,                    /* [model] */                                      \
	.se_launch_interval = 1,             /* [D] one wave per clock per SE: AMD's RDNA SPI   \
	                                        profiler metrics say dispatch rates above one  \
	                                        wave per cycle come from several SEs */        \
	.barrier_release = 4                 /* [model] */

static const xs_devinfo devinfo_table[] = {
	{
		.machine = XS_MACHINE_SERIES_X,
		.name = "Xbox Series X",
		.cli_name = "seriesx",
		GFX103_COMMON,
		/* [E] 52 active CUs in 26 WGPs. The SE/SA split (2 SE x 2 SA, 7 WGPs
		 * per SA on die with 2 disabled) is unverified: [model] 7,6,7,6. */
		.num_se = 2,
		.num_sa_per_se = 2,
		.wgps_per_sa = { 7, 6, 7, 6 },
		.num_cu = 52,
		.sclk_mhz = 1825,           /* [E] fixed clock */
		.mem_bandwidth_gbs = 560,   /* [E] the 10 GB GPU-optimal pool */
		.memory_bytes = 16ull << 30, /* [E] 16 GB GDDR6: the 10 GB pool and a 6 GB one */
		.l2_bytes = 5 * 1024 * 1024, /* [E] unverified */
	},
	{
		.machine = XS_MACHINE_SERIES_S,
		.name = "Xbox Series S",
		.cli_name = "seriess",
		GFX103_COMMON,
		/* [E] 20 active CUs = 10 WGPs; [model] 1 SE x 2 SA x 5 WGPs. */
		.num_se = 1,
		.num_sa_per_se = 2,
		.wgps_per_sa = { 5, 5 },
		.num_cu = 20,
		.sclk_mhz = 1565,           /* [E] */
		.mem_bandwidth_gbs = 224,   /* [E] the 8 GB pool */
		.memory_bytes = 10ull << 30, /* [E] 10 GB GDDR6: the 8 GB pool and a 2 GB one */
		.l2_bytes = 2 * 1024 * 1024, /* [model] */
	},
};

const xs_devinfo *xs_devinfo_get(xs_machine m)
{
	for (size_t i = 0; i < XS_ARRAY_SIZE(devinfo_table); i++)
		if (devinfo_table[i].machine == m)
			return &devinfo_table[i];
	return NULL;
}

const xs_devinfo *xs_devinfo_by_name(const char *name)
{
	for (size_t i = 0; i < XS_ARRAY_SIZE(devinfo_table); i++)
		if (!strcmp(devinfo_table[i].cli_name, name))
			return &devinfo_table[i];
	return NULL;
}

uint32_t xs_devinfo_num_wgp(const xs_devinfo *d)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < d->num_se * d->num_sa_per_se; i++)
		n += d->wgps_per_sa[i];
	return n;
}
