/*
 * D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC (S4) as register values: the
 * per-stage CU masks, wave limits and CU-locking thresholds of
 * SPI_SHADER_PGM_RSRC3/RSRC4_{VS,PS,GS,HS}, SPI_SHADER_LATE_ALLOC_VS and
 * GE_PC_ALLOC. A command list keeps the title's values (or the defaults of
 * D3D12XboxInitializeDefaultGraphicsShaderLimits) and records them as PM4;
 * the GPU model reads only those registers.
 */
#ifndef XS_D3D12_LIMITS_H
#define XS_D3D12_LIMITS_H

#include "d3d12/xs_d3d12_private.h"

/* Checks every member against the device's topology and computes the
 * registers. false: e names the first broken rule (S4.1, S4.3-S4.5). The
 * rounding each limit needs is reported as INFO (S4.6), the S4.2 risk as a
 * WARNING, through the device's debug layer. */
bool d3d12_gfx_limits_compute(d3d12_device *d, const D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC *desc,
			      d3d12_gfx_limits_regs *out, xs_err *e);
/* The registers as PM4. late_alloc: the LIMIT to program (the computed one,
 * or 0 when the driver turns late alloc off for a scratch-using pipeline). */
void d3d12_gfx_limits_emit(xs_pm4_builder *b, const d3d12_gfx_limits_regs *r, uint32_t late_alloc);
/* GE_PC_ALLOC for a late-alloc LIMIT: OVERSUB_EN when it is not 0. */
uint32_t d3d12_gfx_ge_pc_alloc(uint32_t late_alloc);
/* A list's limits back to the defaults (Reset, ClearState); nothing recorded. */
void d3d12_list_limits_reset(d3d12_list *l);
/* Before a draw: the limits recorded if the list has not yet, and the
 * late-alloc LIMIT the pipeline gets: under the defaults a pipeline whose
 * VS or PS uses scratch runs with late alloc off (as Mesa does: S4.1 and
 * S1.8), with the title's limits it runs as set and the debug layer warns. */
void d3d12_list_limits_for_draw(d3d12_list *l, bool uses_scratch, const char *pipeline);

#endif
