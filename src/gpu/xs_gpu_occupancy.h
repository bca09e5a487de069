/*
 * Theoretical occupancy (waves per SIMD) from the hardware's rules, and the
 * per-wave / per-group resource sizes the SPI allocates. One place computes
 * VGPR and LDS rounding so that `xs12 info` and the SPI cannot disagree.
 */
#ifndef XS_GPU_OCCUPANCY_H
#define XS_GPU_OCCUPANCY_H

#include "gpu/xs_gpu_devinfo.h"

typedef struct xs_occ_params {
	uint32_t wave_size;      /* 32 or 64 */
	uint32_t vgprs;          /* VGPRs the kernel uses (metadata .vgpr_count) */
	uint64_t lds_bytes;      /* per group: static + dynamic (64 bits: a code object may declare 2^32 - 1) */
	uint32_t group_threads;
	bool wgp_mode;
	bool scratch_en;         /* COMPUTE_PGM_RSRC2.SCRATCH_EN */
	uint32_t scratch_slots;  /* COMPUTE_TMPRING_SIZE.WAVES of the ring it runs with */
} xs_occ_params;

/* VGPRs a wave really takes: rounded up to the allocation granule. */
uint32_t xs_gpu_vgpr_alloc(const xs_devinfo *d, uint32_t wave_size, uint32_t vgprs);
/* VGPRs covered by COMPUTE_PGM_RSRC1.VGPRS (what the SPI allocates from registers). */
uint32_t xs_gpu_vgprs_from_rsrc1(const xs_devinfo *d, uint32_t wave_size, uint32_t rsrc1);
/* LDS bytes a group really takes (1 KiB steps on gfx10.3). */
uint64_t xs_gpu_lds_alloc(const xs_devinfo *d, uint64_t lds_bytes);
/* SIMDs that share a group's LDS pool and wave slots: 2 (CU mode) or 4 (WGP mode). */
static inline uint32_t xs_gpu_simds_per_pool(const xs_devinfo *d, bool wgp_mode)
{
	return d->simds_per_cu * (wgp_mode ? d->cus_per_wgp : 1);
}
/* Scratch bytes per wave (SPEC S1.11): lane bytes x wave size rounded up
 * to the COMPUTE_TMPRING_SIZE.WAVESIZE granule (1 KB); one granule for
 * SCRATCH_EN with no private bytes (a slot is still taken); 0 without
 * SCRATCH_EN. 64-bit: a hostile 2^32 - 1 lane bytes must not wrap. */
uint64_t xs_gpu_scratch_per_wave(const xs_devinfo *d, uint32_t rsrc2, uint32_t lane_bytes, uint32_t wave_size);
void xs_gpu_occupancy(const xs_devinfo *d, const xs_occ_params *p, xs_occupancy *out);

#endif
