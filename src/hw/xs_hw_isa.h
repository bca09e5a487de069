/*
 * ISA encodings and wave state that more than one layer reads, so that each
 * is written once:
 *  - the s_waitcnt simm16 layout, decoded by the timing model
 *    (src/gpu/xs_gpu_sched.c) and printed by the disassembler
 *    (src/isa/xs_isa_disasm.c);
 *  - the MODE register a wave starts with, which the SPI derives from
 *    COMPUTE_PGM_RSRC1 (src/gpu/xs_gpu_spi.c).
 * Header-only, like the rest of src/hw.
 */
#ifndef XS_HW_ISA_H
#define XS_HW_ISA_H

#include <stdint.h>

#include "hw/xs_hw_regs.h"

/* s_waitcnt simm16 on gfx10 (RDNA 2 ISA guide "S_WAITCNT"; LLVM
 * AMDGPUBaseInfo.cpp getVmcntBitShiftLo/Hi, getExpcntBitShift,
 * getLgkmcntBitShift/Width): vmcnt is bits 3:0 with bits 15:14 above them,
 * expcnt bits 6:4, lgkmcnt bits 13:8. A counter at its maximum does not wait
 * (llvm-objdump leaves it out of the text). */
#define XS_WAITCNT_VM_LO(x) XS_FIELD_G(x, 0, 4)
#define XS_WAITCNT_VM_HI(x) XS_FIELD_G(x, 14, 2)
#define XS_WAITCNT_VM_LO_BITS 4
#define XS_WAITCNT_EXP(x) XS_FIELD_G(x, 4, 3)
#define XS_WAITCNT_LGKM(x) XS_FIELD_G(x, 8, 6)
#define XS_WAITCNT_VM_MAX 63
#define XS_WAITCNT_EXP_MAX 7
#define XS_WAITCNT_LGKM_MAX 63

typedef struct xs_waitcnt {
	unsigned vm, exp, lgkm;
} xs_waitcnt;

static inline xs_waitcnt xs_waitcnt_decode(uint32_t simm16)
{
	xs_waitcnt w = {
		.vm = XS_WAITCNT_VM_LO(simm16) | XS_WAITCNT_VM_HI(simm16) << XS_WAITCNT_VM_LO_BITS,
		.exp = XS_WAITCNT_EXP(simm16),
		.lgkm = XS_WAITCNT_LGKM(simm16),
	};
	return w;
}

/* MODE at wave launch: RSRC1.FLOAT_MODE is laid out as MODE[7:0] (FP_DENORM
 * over FP_ROUND: AMDGPUUsage "compute_pgm_rsrc1", FLOAT_ROUND_MODE_* and
 * FLOAT_DENORM_MODE_*), so it is copied whole; DX10_CLAMP, IEEE_MODE and
 * FP16_OVFL go to their MODE bits. */
#define XS_MODE_FROM_RSRC1(r)                                                                          \
	(G_00B848_FLOAT_MODE(r) | S_000404_DX10_CLAMP(G_00B848_DX10_CLAMP(r)) |                        \
	 S_000404_IEEE(G_00B848_IEEE_MODE(r)) | S_000404_FP16_OVFL(G_00B848_FP16_OVFL(r)))
_Static_assert((S_000404_FP_ROUND(~0u) | S_000404_FP_DENORM(~0u)) == G_00B848_FLOAT_MODE(~0u),
	       "RSRC1.FLOAT_MODE is MODE's FP_DENORM:FP_ROUND");

#endif
