/*
 * Register overrides: the command processor replaces a field of a register
 * whenever a PM4 SET_SH_REG / SET_CONTEXT_REG / SET_UCONFIG_REG packet sets
 * it, so a captured workload (a recording) can be run with another scratch
 * ring, wave limit or CU mask without its program (xs12 sweep --override).
 */
#ifndef XS_GPU_OVERRIDE_H
#define XS_GPU_OVERRIDE_H

#include <stdint.h>
#include "common/xs_common.h"

#define XS_GPU_MAX_OVERRIDES 16

typedef struct xs_gpu_override {
	uint32_t addr;  /* byte address of the register (xs_pm4_reg.addr) */
	uint32_t mask;  /* the field's bits */
	uint32_t value; /* already shifted into the field */
	char name[96];  /* "COMPUTE_TMPRING_SIZE.WAVES" */
} xs_gpu_override;

typedef struct xs_gpu xs_gpu;

/* "REG.FIELD=V" or "REG=V" by the register database (src/hw/gfx103_regs.txt):
 * V decimal or 0x hex, within the field's width. Errors name the part. */
xs_status xs_gpu_override_parse(const char *s, xs_gpu_override *o, xs_err *e);
/* Replaces the GPU's overrides (at most XS_GPU_MAX_OVERRIDES; n = 0 none). */
void xs_gpu_set_overrides(xs_gpu *g, const xs_gpu_override *o, uint32_t n);
/* How many register writes override i changed or kept (it fired). */
uint64_t xs_gpu_override_hits(const xs_gpu *g, uint32_t i);
/* What a PM4 write of v to addr leaves in the register. */
uint32_t xs_gpu_override_apply(xs_gpu *g, uint32_t addr, uint32_t v);

#endif
