/* Internal state of the simulated GPU, shared by xs_gpu.c and xs_gpu_spi.c. */
#ifndef XS_GPU_PRIV_H
#define XS_GPU_PRIV_H

#include "gpu/xs_gpu.h"
#include "gpu/xs_gpu_occupancy.h"

#define XS_GPU_MAX_WAVES_PER_GROUP 32

typedef struct xs_gpu_group xs_gpu_group;

typedef struct xs_gpu_wave {
	xs_wave w;               /* architectural state, run by the interpreter */
	uint32_t simd, slot;     /* where it sits */
	uint32_t scratch_slot;   /* ring slot, UINT32_MAX when SCRATCH_EN = 0 */
	xs_gpu_group *group;
} xs_gpu_wave;

struct xs_gpu_group {
	uint32_t id[3];
	uint32_t cu;             /* CU (CU mode) or first CU of the WGP (WGP mode) */
	uint32_t nwaves, live, at_barrier;
	xs_gpu_wave *waves[XS_GPU_MAX_WAVES_PER_GROUP];
	uint8_t *lds;
	uint32_t lds_cap;
};

typedef struct xs_gpu_simd {
	xs_gpu_wave *wave[16];   /* wave slots (devinfo wave_slots_per_simd <= 16) */
	uint32_t nwaves;
	uint32_t vgprs_used;     /* wave32 VGPRs */
	uint32_t rr;
	uint64_t clock;
} xs_gpu_simd;

typedef struct xs_gpu_cu {
	uint32_t se, sa, wgp, cu_in_sa;  /* sa: chip-wide SA index */
	uint32_t groups, lds_used, barriers_used, scratch_waves;
} xs_gpu_cu;

typedef struct xs_gpu_wgp {
	uint32_t first_cu;
	uint32_t lds_used, barriers_used;
} xs_gpu_wgp;

/* One dispatch's launch state, decoded once from the registers. */
typedef struct xs_spi_dispatch {
	const uint32_t *sh;
	uint64_t pgm_va;
	uint32_t rsrc1, rsrc2, rsrc3;
	uint32_t wave_size, user_sgprs;
	uint32_t block[3], group_threads, waves_per_group;
	uint32_t vgprs, vgprs_w32;
	uint32_t lds_alloc;
	bool wgp_mode, scratch_en;
	uint32_t scratch_slots, scratch_wavesize;
	uint32_t tg_per_cu, waves_per_se;
} xs_spi_dispatch;

struct xs_gpu {
	const xs_devinfo *info;
	xs_vm *vm;
	xs_isa_ctx ctx;
	uint64_t watchdog;
	xs_gpu_queue_regs queue[XS_GPU_MAX_QUEUES];

	uint32_t nsimd, ncu, nwgp;
	xs_gpu_simd *simd;
	xs_gpu_cu *cu;
	xs_gpu_wgp *wgp;
	uint32_t se_waves[XS_MAX_SE];
	xs_gpu_wave *waves;      /* one per (SIMD, slot) */
	uint32_t (*vgpr_arena)[XS_MAX_LANES]; /* 256 VGPRs per wave slot, mmap'ed lazily */
	size_t vgpr_arena_bytes;
	xs_gpu_group *groups;    /* at most one resident group per wave slot */
	uint32_t *free_groups, nfree_groups, ngroups;
	uint64_t *scratch_bitmap;
	uint32_t scratch_bitmap_words;
	uint32_t scratch_in_use;
	uint32_t resident;
	uint64_t now;
	xs_gpu_dispatch_result *result;
};

void xs_gpu_reset_state(xs_gpu *g, const xs_spi_dispatch *d);
void xs_gpu_release_barrier(xs_gpu *g, xs_gpu_group *grp);

#endif
