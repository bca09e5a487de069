/*
 * Texture copies and clears of a command list: CopyTextureRegion between a
 * texture and a buffer footprint (or two textures), ClearRenderTargetView
 * and ClearDepthStencilView. Textures are linear (xs_d3d12_format.h), so a
 * copy is CP DMA of rows, and a clear is one XS_FILL per rectangle: xs12's
 * firmware packet repeats the packed clear texel over the rows (what a
 * console driver's clear does with a kernel or the CB's fast clear), in
 * order with the list's other work.
 */
#include "d3d12/xs_d3d12_private.h"
#include "d3d12/xs_d3d12_format.h"
#include "hw/xs_hw_pm4.h"

#include <string.h>

/* A copy location as memory: base, pitch, texel size, extent. */
typedef struct copy_loc {
	d3d12_resource *r;
	uint64_t va, pitch;
	uint32_t width, height;
	const d3d12_format *fmt;
} copy_loc;

/* Do height rows of row_bytes each, pitch apart from off on, lie inside
 * size bytes? Compared without wrapping: Offset is any UINT64 a program
 * passes, and a sum past 2^64 would look small and let the copy write
 * another resource. */
static bool footprint_inside(uint64_t off, uint64_t pitch, uint32_t height, uint64_t row_bytes, uint64_t size)
{
	uint64_t extent;
	if (off > size || __builtin_mul_overflow(pitch, (uint64_t)height - 1, &extent) ||
	    __builtin_add_overflow(extent, row_bytes, &extent))
		return false;
	return extent <= size - off;
}

static bool loc_of(d3d12_list *l, const D3D12_TEXTURE_COPY_LOCATION *t, copy_loc *c, const char *which)
{
	c->r = t ? d3d12_resource_from_iface(t->pResource) : NULL;
	if (!c->r) {
		d3d12_list_error(l, XS_MSG_COPY_TEXTURE, "CopyTextureRegion: the %s is NULL or not an xs12 resource", which);
		return false;
	}
	if (t->Type == D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX) {
		if (!c->r->fmt || t->SubresourceIndex) {
			d3d12_list_error(l, XS_MSG_COPY_TEXTURE, "CopyTextureRegion: the %s is %s subresource %u: xs12's "
					 "textures have one subresource (0); give buffers as PLACED_FOOTPRINT", which,
					 c->r->fmt ? "texture" : "a buffer's", t->SubresourceIndex);
			return false;
		}
		*c = (copy_loc){ c->r, c->r->va, c->r->pitch, (uint32_t)c->r->desc.Width, c->r->desc.Height, c->r->fmt };
		return true;
	}
	const D3D12_SUBRESOURCE_FOOTPRINT *f = &t->PlacedFootprint.Footprint;
	const d3d12_format *fmt = d3d12_format_get(f->Format);
	uint64_t off = t->PlacedFootprint.Offset;
	if (t->Type != D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT || c->r->fmt || !fmt || f->Depth != 1 ||
	    off % D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT || f->RowPitch % D3D12_TEXTURE_DATA_PITCH_ALIGNMENT ||
	    (uint64_t)f->Width * fmt->bpp > f->RowPitch || !f->Height ||
	    !footprint_inside(off, f->RowPitch, f->Height, (uint64_t)f->Width * fmt->bpp, c->r->size)) {
		d3d12_list_error(l, XS_MSG_COPY_TEXTURE,
				 "CopyTextureRegion: the %s footprint (type %d, offset %llu, %ux%ux%u, row pitch %u, "
				 "format %d) is not a buffer footprint xs12 copies: a buffer, an offset 512-aligned, "
				 "a row pitch 256-aligned and at least a row, depth 1, format " D3D12_FORMATS_TAKEN
				 ", all inside the buffer", which, (int)t->Type, (unsigned long long)off, f->Width,
				 f->Height, f->Depth, f->RowPitch, (int)f->Format);
		return false;
	}
	*c = (copy_loc){ c->r, c->r->va + off, f->RowPitch, f->Width, f->Height, fmt };
	return true;
}

void STDMETHODCALLTYPE d3d12_list_CopyTextureRegion(ID3D12GraphicsCommandList6 *This,
						     const D3D12_TEXTURE_COPY_LOCATION *dst, UINT dx, UINT dy, UINT dz,
						     const D3D12_TEXTURE_COPY_LOCATION *src, const D3D12_BOX *box)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	if (!l->open) {
		d3d12_list_error(l, XS_MSG_LIST_CLOSED, "CopyTextureRegion on a closed command list");
		return;
	}
	copy_loc d, s;
	if (!loc_of(l, dst, &d, "destination") || !loc_of(l, src, &s, "source"))
		return;
	if (!d.r->fmt && !s.r->fmt) {
		d3d12_list_error(l, XS_MSG_COPY_TEXTURE, "CopyTextureRegion between two buffer footprints: copy buffers "
				 "with CopyBufferRegion");
		return;
	}
	if (d.fmt != s.fmt) {
		d3d12_list_error(l, XS_MSG_COPY_TEXTURE, "CopyTextureRegion: %s to %s: xs12 copies between locations of "
				 "one format", s.fmt->name, d.fmt->name);
		return;
	}
	D3D12_BOX b = box ? *box : (D3D12_BOX){ 0, 0, 0, s.width, s.height, 1 };
	if (b.left >= b.right || b.top >= b.bottom || b.right > s.width || b.bottom > s.height || b.front != 0 ||
	    b.back != 1 || dz != 0 || (uint64_t)dx + (b.right - b.left) > d.width ||
	    (uint64_t)dy + (b.bottom - b.top) > d.height) {
		d3d12_list_error(l, XS_MSG_COPY_TEXTURE,
				 "CopyTextureRegion: box (%u,%u,%u)-(%u,%u,%u) of a %ux%u source to (%u,%u,%u) of a "
				 "%ux%u destination: outside one of them (or empty)", b.left, b.top, b.front, b.right,
				 b.bottom, b.back, s.width, s.height, dx, dy, dz, d.width, d.height);
		return;
	}
	uint32_t bpp = d.fmt->bpp, w = b.right - b.left, h = b.bottom - b.top;
	uint64_t sva = s.va + (uint64_t)b.top * s.pitch + (uint64_t)b.left * bpp;
	uint64_t dva = d.va + (uint64_t)dy * d.pitch + (uint64_t)dx * bpp;
	if (d.pitch == s.pitch && (uint64_t)w * bpp == d.pitch) /* whole rows of one pitch: one copy */
		xs_pm4_dma_data(&l->pm4, dva, sva, (uint64_t)h * d.pitch);
	else
		for (uint32_t y = 0; y < h; y++)
			xs_pm4_dma_data(&l->pm4, dva + y * d.pitch, sva + y * s.pitch, (uint64_t)w * bpp);
	d3d12_list_use(l, d.r->va);
	d3d12_list_use(l, s.r->va);
	d3d12_list_breadcrumb(l, D3D12_AUTO_BREADCRUMB_OP_COPYTEXTUREREGION);
}

/* Fills rectangles of a view with one pixel value. */
static void fill_view(d3d12_list *l, const d3d12_view *v, const uint8_t *pixel, UINT nrects, const D3D12_RECT *rects,
		      const char *method)
{
	D3D12_RECT whole = { 0, 0, (LONG)v->width, (LONG)v->height };
	if (!nrects) {
		nrects = 1;
		rects = &whole;
	} else if (!rects) {
		d3d12_list_error(l, XS_MSG_CLEAR_VIEW, "%s: %u rects and a NULL pRects", method, nrects);
		return;
	}
	uint32_t bpp = v->fmt->bpp, pattern[4];
	memcpy(pattern, pixel, bpp); /* one texel: 1 dword (RGBA8, D32) or 4 (RGBA32F) */
	for (UINT i = 0; i < nrects; i++) {
		/* D3D12 clips clear rects to the view */
		LONG x0 = rects[i].left < 0 ? 0 : rects[i].left, y0 = rects[i].top < 0 ? 0 : rects[i].top;
		LONG x1 = rects[i].right > (LONG)v->width ? (LONG)v->width : rects[i].right;
		LONG y1 = rects[i].bottom > (LONG)v->height ? (LONG)v->height : rects[i].bottom;
		if (x0 >= x1 || y0 >= y1)
			continue;
		xs_pm4_xs_fill(&l->pm4, v->va + (uint64_t)y0 * v->pitch + (uint64_t)x0 * bpp, (uint32_t)v->pitch,
			       (uint32_t)(x1 - x0) * bpp, (uint32_t)(y1 - y0), pattern, bpp / 4);
	}
	d3d12_list_use(l, v->va);
}

void STDMETHODCALLTYPE d3d12_list_ClearRenderTargetView(ID3D12GraphicsCommandList6 *This, D3D12_CPU_DESCRIPTOR_HANDLE h,
							const FLOAT rgba[4], UINT nrects, const D3D12_RECT *rects)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	if (!l->open) {
		d3d12_list_error(l, XS_MSG_LIST_CLOSED, "ClearRenderTargetView on a closed command list");
		return;
	}
	if (l->type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
		d3d12_list_error(l, XS_MSG_GFX_LIST_TYPE, "ClearRenderTargetView on a non-DIRECT command list");
		return;
	}
	const d3d12_view *v = d3d12_view_get(h, D3D12_VIEW_RTV);
	if (!v || !rgba) {
		d3d12_list_error(l, XS_MSG_CLEAR_VIEW, "ClearRenderTargetView: %s", !rgba ? "NULL colour"
				 : "the descriptor holds no render-target view (CreateRenderTargetView)");
		return;
	}
	uint8_t pixel[16];
	d3d12_format_pack(v->fmt, rgba, pixel);
	fill_view(l, v, pixel, nrects, rects, "ClearRenderTargetView");
	d3d12_list_breadcrumb(l, D3D12_AUTO_BREADCRUMB_OP_CLEARRENDERTARGETVIEW);
}

void STDMETHODCALLTYPE d3d12_list_ClearDepthStencilView(ID3D12GraphicsCommandList6 *This, D3D12_CPU_DESCRIPTOR_HANDLE h,
							D3D12_CLEAR_FLAGS flags, FLOAT depth, UINT8 stencil, UINT nrects,
							const D3D12_RECT *rects)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	if (!l->open) {
		d3d12_list_error(l, XS_MSG_LIST_CLOSED, "ClearDepthStencilView on a closed command list");
		return;
	}
	if (l->type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
		d3d12_list_error(l, XS_MSG_GFX_LIST_TYPE, "ClearDepthStencilView on a non-DIRECT command list");
		return;
	}
	const d3d12_view *v = d3d12_view_get(h, D3D12_VIEW_DSV);
	if (!v) {
		d3d12_list_error(l, XS_MSG_CLEAR_VIEW, "ClearDepthStencilView: the descriptor holds no depth-stencil "
				 "view (CreateDepthStencilView)");
		return;
	}
	if (!flags || (flags & ~(D3D12_CLEAR_FLAG_DEPTH | D3D12_CLEAR_FLAG_STENCIL))) {
		d3d12_list_error(l, XS_MSG_CLEAR_VIEW, "ClearDepthStencilView: ClearFlags 0x%x (DEPTH 0x1, STENCIL 0x2)",
				 (unsigned)flags);
		return;
	}
	(void)stencil; /* D32_FLOAT has no stencil: a STENCIL clear of it does nothing */
	if (!(depth >= 0.0f && depth <= 1.0f)) {
		d3d12_list_error(l, XS_MSG_CLEAR_VIEW, "ClearDepthStencilView: Depth %g outside [0, 1] (D3D12)", (double)depth);
		return;
	}
	if (flags & D3D12_CLEAR_FLAG_DEPTH) {
		float rgba[4] = { depth, 0, 0, 0 };
		uint8_t pixel[16];
		d3d12_format_pack(v->fmt, rgba, pixel);
		fill_view(l, v, pixel, nrects, rects, "ClearDepthStencilView");
	}
	d3d12_list_breadcrumb(l, D3D12_AUTO_BREADCRUMB_OP_CLEARDEPTHSTENCILVIEW);
}
