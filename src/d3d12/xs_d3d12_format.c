/*
 * Formats and the linear texture layout (xs_d3d12_format.h).
 */
#include "d3d12/xs_d3d12_format.h"
#include "hw/xs_hw_surf.h"

#include <math.h>
#include <string.h>

static const d3d12_format formats[] = {
	{ DXGI_FORMAT_R8G8B8A8_UNORM, "R8G8B8A8_UNORM", 4, 4, false, false },
	{ DXGI_FORMAT_R32G32B32A32_FLOAT, "R32G32B32A32_FLOAT", 16, 4, false, true },
	{ DXGI_FORMAT_D32_FLOAT, "D32_FLOAT", 4, 1, true, true },
};

const d3d12_format *d3d12_format_get(DXGI_FORMAT f)
{
	for (size_t i = 0; i < XS_ARRAY_SIZE(formats); i++)
		if (formats[i].format == f)
			return &formats[i];
	return NULL;
}

uint64_t d3d12_texture_pitch(uint64_t width, uint32_t bpp)
{
	/* the GPU model finds a target's rows with the same function */
	_Static_assert(XS_LINEAR_PITCH_ALIGN == D3D12_TEXTURE_DATA_PITCH_ALIGNMENT, "footprints are the surface's rows");
	return xs_hw_linear_pitch((uint32_t)width, bpp);
}

uint64_t d3d12_texture_bytes(const D3D12_RESOURCE_DESC *desc, const d3d12_format *f)
{
	return d3d12_texture_pitch(desc->Width, f->bpp) * desc->Height;
}

/* Float -> UNORM8: clamp to [0, 1], scale by 255, round to nearest with
 * halves up (the D3D functional spec allows 0.6 ULP; this is the rule the
 * CB model's export conversion is to use too, so clears and draws agree). */
static uint8_t unorm8(float v)
{
	if (!(v > 0.0f)) /* NaN too */
		return 0;
	if (v >= 1.0f)
		return 255;
	return (uint8_t)floorf(v * 255.0f + 0.5f);
}

void d3d12_format_pack(const d3d12_format *f, const float rgba[4], uint8_t *out)
{
	if (f->is_float) {
		memcpy(out, rgba, 4 * f->components);
		return;
	}
	for (uint32_t i = 0; i < f->components; i++)
		out[i] = unorm8(rgba[i]);
}
