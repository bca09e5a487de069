/*
 * The DXGI formats xs12's textures and views take, and the linear layout
 * of a texture in GPU memory (docs/graphics.md: render targets and depth
 * buffers are linear [model]): row after row, each row's pitch aligned to
 * 256 bytes, which is also D3D12_TEXTURE_DATA_PITCH_ALIGNMENT, so a
 * texture's rows and its copyable footprint have the same pitch.
 */
#ifndef XS_D3D12_FORMAT_H
#define XS_D3D12_FORMAT_H

#include "d3d12/xs_d3d12_private.h"

typedef struct d3d12_format {
	DXGI_FORMAT format;
	const char *name;
	uint32_t bpp;        /* bytes per pixel */
	uint32_t components; /* 4 colour channels, or 1 (depth) */
	bool depth;          /* a depth format (DSV only) */
	bool is_float;       /* channels are f32; else UNORM bytes */
} d3d12_format;

/* NULL for a format xs12 does not take. */
const d3d12_format *d3d12_format_get(DXGI_FORMAT f);
/* "R8G8B8A8_UNORM, R32G32B32A32_FLOAT or D32_FLOAT", for messages. */
#define D3D12_FORMATS_TAKEN "R8G8B8A8_UNORM, R32G32B32A32_FLOAT or D32_FLOAT"
/* The row pitch of a linear texture: width x bpp rounded up to 256 bytes. */
uint64_t d3d12_texture_pitch(uint64_t width, uint32_t bpp);
/* Bytes of a linear 2D texture of one mip and one array slice. */
uint64_t d3d12_texture_bytes(const D3D12_RESOURCE_DESC *desc, const d3d12_format *f);
/* Packs a clear colour (RGBA floats) as one pixel of the format: bpp bytes. */
void d3d12_format_pack(const d3d12_format *f, const float rgba[4], uint8_t *out);

#endif
