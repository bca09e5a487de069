/*
 * Units and ranges of the graphics pipe's registers and layouts that more
 * than one layer needs (the D3D12 layer programs them, the GPU model reads
 * them, the interpreter follows the SPI's layout). docs/graphics.md.
 */
#ifndef XS_HW_GFX_H
#define XS_HW_GFX_H

/* SPI_SHADER_PGM_RSRC3_*.WAVE_LIMIT counts waves per SE in units of 16
 * (PAL CalcMaxWavesPerSeInUnitsOf16); 0 = no limit, 63 the most. */
#define XS_WAVE_LIMIT_UNIT 16u
#define XS_WAVE_LIMIT_MAX 63u
/* SPI_SHADER_PGM_RSRC3_*.LOCK_LOW_THRESHOLD: waves per SA in units of 4
 * [inference, as COMPUTE_RESOURCE_LIMITS.LOCK_THRESHOLD]; 15 the most. */
#define XS_LOCK_THRESHOLD_UNIT 4u
#define XS_LOCK_THRESHOLD_MAX 15u
/* The rasterizer's screen coordinates are 16.8 fixed point: |x|, |y| below
 * this many pixels (the guard band and the vertex range end there). */
#define XS_SC_SCREEN_RANGE_PX 32768.0
/* A primitive's parameter data in a PS wave's LDS [model layout]: per
 * attribute P0.xyzw, P10.xyzw, P20.xyzw as f32 (xs_isa.h, interp_prim_stride). */
#define XS_INTERP_ATTR_BYTES 48u

#endif
