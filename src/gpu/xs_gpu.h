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
#include "gpu/xs_gpu_regs.h"
#include "isa/xs_isa.h"

#define XS_GPU_MAX_QUEUES 4 /* graphics ring + async compute queues (GPU-model issue) */

typedef struct xs_gpu_queue_regs {
	uint32_t sh[XS_SH_REG_COUNT]; /* persistent SH registers, by (addr - 0xB000) / 4 */
} xs_gpu_queue_regs;

typedef struct xs_gpu_dispatch_result {
	uint64_t waves_launched;
	uint64_t groups_launched;
	uint64_t wave_insts;
	uint64_t cycles;
	uint32_t peak_waves;
	uint32_t peak_scratch_slots;
	uint32_t scratch_slots;   /* usable ring slots: min(WAVES, 32 x CUs) */
	xs_fault fault;           /* kind != NONE when the device was removed */
} xs_gpu_dispatch_result;

typedef struct xs_gpu xs_gpu;

xs_gpu *xs_gpu_create(const xs_devinfo *info, xs_vm *vm);
void xs_gpu_destroy(xs_gpu *gpu);
const xs_devinfo *xs_gpu_info(const xs_gpu *gpu);
xs_vm *xs_gpu_vm(xs_gpu *gpu);
/* Per-wave instruction budget before the watchdog removes the device. */
void xs_gpu_set_watchdog(xs_gpu *gpu, uint64_t wave_insts);

void xs_gpu_set_sh_reg(xs_gpu *gpu, unsigned queue, uint32_t reg, uint32_t value);
uint32_t xs_gpu_get_sh_reg(const xs_gpu *gpu, unsigned queue, uint32_t reg);

/* DISPATCH_DIRECT on a queue: dim_x/y/z thread groups with the queue's
 * current register state; runs to completion. Returns XS_E_INVALID_ARG for
 * register state that can never launch (message names the register and
 * field), XS_E_DEVICE_REMOVED when a wave faulted or hung (r->fault, and a
 * report naming the wave, its place and PC in *e). */
xs_status xs_gpu_dispatch_direct(xs_gpu *gpu, unsigned queue, uint32_t dim_x, uint32_t dim_y,
				 uint32_t dim_z, uint32_t initiator, xs_gpu_dispatch_result *r,
				 xs_err *e);

#endif
