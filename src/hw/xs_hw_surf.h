/*
 * xs12's surface layouts [model]: render targets, depth buffers and the
 * textures the D3D12 layer places for them are linear, row after row, and
 * the GPU model and the D3D12 layer agree on the row pitch through this one
 * function. The alignment is D3D12's D3D12_TEXTURE_DATA_PITCH_ALIGNMENT (256
 * bytes), so a placed footprint (GetCopyableFootprints) and the surface the
 * GPU writes have the same rows.
 *
 * Also here: the strides of the per-target and per-viewport register
 * blocks of src/hw/gfx103_regs.txt (Mesa: CB_COLOR0..7 at 0x3C apart).
 */
#ifndef XS_HW_SURF_H
#define XS_HW_SURF_H

#include <stdint.h>

#define XS_LINEAR_PITCH_ALIGN 256u

/* Row pitch in bytes of a linear surface width texels wide. */
static inline uint32_t xs_hw_linear_pitch(uint32_t width, uint32_t bytes_per_pixel)
{
	uint64_t row = (uint64_t)width * bytes_per_pixel;
	return (uint32_t)((row + XS_LINEAR_PITCH_ALIGN - 1) & ~(uint64_t)(XS_LINEAR_PITCH_ALIGN - 1));
}

#define XS_NUM_COLOR_TARGETS 8
/* CB_COLOR<n>_BASE .. CB_COLOR<n>_ATTRIB: R_028C60_CB_COLOR0_* + n x this. */
#define XS_CB_COLOR_STRIDE 0x3Cu
/* CB_COLOR<n>_BASE_EXT, _ATTRIB2, _ATTRIB3 and CB_BLEND<n>_CONTROL: + n x 4. */
#define XS_CB_COLOR_EXT_STRIDE 4u
#define XS_CB_BLEND_STRIDE 4u
/* Viewport n: PA_CL_VPORT_XSCALE.. + n x 0x18; PA_SC_VPORT_SCISSOR_n_TL/BR and
 * PA_SC_VPORT_ZMIN_n/ZMAX_n + n x 8. */
#define XS_VPORT_STRIDE 0x18u
#define XS_VPORT_SCISSOR_STRIDE 8u
#define XS_VPORT_ZRANGE_STRIDE 8u

#endif
