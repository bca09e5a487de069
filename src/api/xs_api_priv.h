/* The runtime layer behind include/xs12/xs12.h: it plays the part ROCr and
 * the CP firmware play for an AQL dispatch (kernarg segment, dispatch
 * packet, scratch ring, user-data registers) and hands the GPU model only
 * registers and memory. */
#ifndef XS_API_PRIV_H
#define XS_API_PRIV_H

#include "codeobj/xs_codeobj.h"
#include "gpu/xs_gpu.h"
#include "mem/xs_vm.h"

#include <stdio.h>

/* A queue's compute scratch ring as the title set it (SetShaderScratchSpaceX);
 * va 0 = the driver's default (S1.4, S1.8). */
typedef struct xs_scratch_ring {
	uint64_t va, size;
	uint32_t per_wave;
} xs_scratch_ring;

struct xs_device {
	const xs_devinfo *info;
	xs_vm *vm;
	xs_gpu *gpu;
	xs_err err;
	uint32_t scratch_waves;   /* compute ring slots (COMPUTE_TMPRING_SIZE.WAVES) */
	uint64_t scratch_va, scratch_size; /* the ring's memory; grows on demand */
	uint64_t queue_va;        /* amd_queue_t stand-in (zeroed) */
	uint64_t dispatch_id;
	xs_scratch_ring ring[XS_GPU_MAX_QUEUES];
	bool functional;
	uint64_t watchdog;        /* per-wave instruction budget, 0 = none */
	uint64_t hang_cycles;     /* GPU-time hang limit in cycles, 0 = off (recorded: deterministic) */
	uint32_t threads;
	FILE *record;             /* xs_device_record */
};

/* One queue submission of a batch (for recordings). */
typedef struct xs_api_sub {
	uint32_t queue;
	uint64_t va;
	uint32_t ndw, nresults;
} xs_api_sub;
void xs_api_record_before(xs_device *dev, const xs_api_sub *subs, uint32_t nsub);
void xs_api_record_after(xs_device *dev, xs_status st, const xs_gpu_dispatch_result *res, uint32_t nres);

struct xs_module {
	xs_device *dev;
	xs_codeobj *co;
	uint64_t load_va;         /* GPU address of the image's vaddr 0 */
};

/* Records an error on the device (or the thread's no-device slot). */
xs_status xs_api_fail(const xs_device *dev, const xs_err *e);
xs_status xs_api_failf(const xs_device *dev, xs_status s, const char *fmt, ...) XS_PRINTF(3, 4);

#endif
