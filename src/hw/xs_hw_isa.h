/*
 * ISA encodings and wave state that more than one layer reads, so that each
 * is written once:
 *  - the MODE register a wave starts with, which the SPI derives from
 *    COMPUTE_PGM_RSRC1 (src/gpu/xs_gpu_spi.c).
 * Header-only, like the rest of src/hw.
 */
#ifndef XS_HW_ISA_H
#define XS_HW_ISA_H

#include <stdint.h>

#include "hw/xs_hw_regs.h"

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
