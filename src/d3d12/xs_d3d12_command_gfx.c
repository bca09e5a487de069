/*
 * A command list's graphics state and draws (DIRECT lists): IA, RS and OM
 * state, the graphics root signature and arguments, DrawInstanced and
 * DrawIndexedInstanced. A draw records the PM4 of docs/graphics.md section
 * 2: the pipeline's SH and context registers, the list's render targets,
 * viewport and scissor, SPI_TMPRING_SIZE for the graphics scratch ring, and
 * the user SGPRs of the xs12 ABI (section 1.1) pointing at three tables it
 * writes into command memory per draw:
 *
 *   ring table    the graphics ring's scratch base (PAL: a whole V#)
 *   vertex table  32 bytes per input element: V#, per-instance flag
 *   root table    the graphics root arguments in parameter order
 *
 * The GPU model reads only those registers and that memory.
 */
#include "d3d12/xs_d3d12_private.h"
#include "d3d12/xs_d3d12_format.h"
#include "d3d12/xs_d3d12_limits.h"
#include "codeobj/xs_codeobj_gfx.h"
#include "hw/xs_hw_pm4.h"
#include "hw/xs_hw_regs.h"
#include "hw/xs_hw_surf.h"
#include "hw/xs_hw_gfx.h"
#include "runtime/xs_rt_priv.h" /* xs_rt_default_scratch: S1.8's shared allocation */

#include <math.h>
#include <stdio.h>
#include <string.h>

static bool gfx_recording(d3d12_list *l, const char *method)
{
	if (!l->open) {
		d3d12_list_error(l, XS_MSG_LIST_CLOSED, "%s on a closed command list", method);
		return false;
	}
	if (l->type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
		d3d12_list_error(l, XS_MSG_GFX_LIST_TYPE, "%s on a %s command list: graphics work is for DIRECT lists",
				 method, l->type == D3D12_COMMAND_LIST_TYPE_COMPUTE ? "COMPUTE" : "COPY");
		return false;
	}
	return true;
}

void d3d12_list_gfx_reset(d3d12_list *l)
{
	if (l->gfx_root)
		ID3D12RootSignature_Release(&l->gfx_root->iface);
	l->gfx_root = NULL;
	l->gfx_root_set = 0;
	l->topology = D3D_PRIMITIVE_TOPOLOGY_UNDEFINED;
	memset(l->vbs, 0, sizeof(l->vbs));
	memset(&l->ibv, 0, sizeof(l->ibv));
	l->viewport_set = l->scissor_set = false;
	l->nrt = 0;
	l->has_ds = false;
	/* not ndraws: ClearState comes here too, and the draws recorded before
	 * it stay in the list (begin counts from 0) */
}

/* ---- state ------------------------------------------------------------------------- */

void STDMETHODCALLTYPE d3d12_list_IASetPrimitiveTopology(ID3D12GraphicsCommandList6 *This, D3D12_PRIMITIVE_TOPOLOGY t)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	if (!gfx_recording(l, "IASetPrimitiveTopology"))
		return;
	if (t != D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST && t != D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP) {
		d3d12_list_error(l, XS_MSG_GFX_DRAW_STATE, "IASetPrimitiveTopology %d: xs12 draws TRIANGLELIST and "
				 "TRIANGLESTRIP", (int)t);
		return;
	}
	l->topology = t;
}

void STDMETHODCALLTYPE d3d12_list_IASetVertexBuffers(ID3D12GraphicsCommandList6 *This, UINT start, UINT n,
						     const D3D12_VERTEX_BUFFER_VIEW *views)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	if (!gfx_recording(l, "IASetVertexBuffers"))
		return;
	if (start >= D3D12_MAX_VERTEX_SLOTS || n > D3D12_MAX_VERTEX_SLOTS - start) {
		d3d12_list_error(l, XS_MSG_GFX_DRAW_STATE, "IASetVertexBuffers: slots %u..%u: xs12 has slots 0..%u",
				 start, start + n - 1, D3D12_MAX_VERTEX_SLOTS - 1);
		return;
	}
	for (UINT i = 0; i < n; i++) {
		D3D12_VERTEX_BUFFER_VIEW v = views ? views[i] : (D3D12_VERTEX_BUFFER_VIEW){ 0 }; /* NULL unbinds */
		if (v.StrideInBytes >= 1u << 14) {
			d3d12_list_error(l, XS_MSG_GFX_DRAW_STATE, "IASetVertexBuffers: slot %u stride %u: the V#'s "
					 "STRIDE holds at most 16383", start + i, v.StrideInBytes);
			return;
		}
		l->vbs[start + i] = v;
	}
}

void STDMETHODCALLTYPE d3d12_list_IASetIndexBuffer(ID3D12GraphicsCommandList6 *This, const D3D12_INDEX_BUFFER_VIEW *v)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	if (!gfx_recording(l, "IASetIndexBuffer"))
		return;
	if (v && v->Format != DXGI_FORMAT_R16_UINT && v->Format != DXGI_FORMAT_R32_UINT) {
		d3d12_list_error(l, XS_MSG_GFX_DRAW_STATE, "IASetIndexBuffer: format %d: R16_UINT or R32_UINT", (int)v->Format);
		return;
	}
	l->ibv = v ? *v : (D3D12_INDEX_BUFFER_VIEW){ 0 };
}

void STDMETHODCALLTYPE d3d12_list_RSSetViewports(ID3D12GraphicsCommandList6 *This, UINT n, const D3D12_VIEWPORT *vp)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	if (!gfx_recording(l, "RSSetViewports"))
		return;
	if (n != 1 || !vp || !(vp->Width > 0) || !(vp->Height > 0) || !(vp->MinDepth >= 0 && vp->MaxDepth <= 1)) {
		d3d12_list_error(l, XS_MSG_GFX_DRAW_STATE, "RSSetViewports: %u viewports: xs12 takes one, with a positive "
				 "size and depths in [0, 1]", n);
		return;
	}
	l->viewport = *vp;
	l->viewport_set = true;
}

void STDMETHODCALLTYPE d3d12_list_RSSetScissorRects(ID3D12GraphicsCommandList6 *This, UINT n, const D3D12_RECT *r)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	if (!gfx_recording(l, "RSSetScissorRects"))
		return;
	if (n != 1 || !r) {
		d3d12_list_error(l, XS_MSG_GFX_DRAW_STATE, "RSSetScissorRects: %u rects: xs12 takes one", n);
		return;
	}
	l->scissor = *r;
	l->scissor_set = true;
}

void STDMETHODCALLTYPE d3d12_list_OMSetRenderTargets(ID3D12GraphicsCommandList6 *This, UINT n,
						     const D3D12_CPU_DESCRIPTOR_HANDLE *rts, BOOL single_range,
						     const D3D12_CPU_DESCRIPTOR_HANDLE *ds)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	if (!gfx_recording(l, "OMSetRenderTargets"))
		return;
	if (n > 8 || (n && !rts)) {
		d3d12_list_error(l, XS_MSG_GFX_DRAW_STATE, "OMSetRenderTargets: %u render targets: at most 8", n);
		return;
	}
	for (UINT i = 0; i < n; i++) {
		D3D12_CPU_DESCRIPTOR_HANDLE h = single_range ? (D3D12_CPU_DESCRIPTOR_HANDLE){ rts[0].ptr + i * D3D12_VIEW_STRIDE }
							     : rts[i];
		const d3d12_view *v = d3d12_view_get(h, D3D12_VIEW_RTV);
		if (!v) {
			d3d12_list_error(l, XS_MSG_CLEAR_VIEW, "OMSetRenderTargets: render target %u: the descriptor holds "
					 "no render-target view", i);
			return;
		}
		l->rt[i] = *v; /* D3D12: the descriptor may change after the call */
	}
	l->nrt = n;
	l->has_ds = false;
	if (ds) {
		const d3d12_view *v = d3d12_view_get(*ds, D3D12_VIEW_DSV);
		if (!v) {
			d3d12_list_error(l, XS_MSG_CLEAR_VIEW, "OMSetRenderTargets: the depth-stencil descriptor holds no "
					 "depth-stencil view");
			return;
		}
		l->ds = *v;
		l->has_ds = true;
	}
}

void STDMETHODCALLTYPE d3d12_list_SetGraphicsRootSignature(ID3D12GraphicsCommandList6 *This, ID3D12RootSignature *rs)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	if (!gfx_recording(l, "SetGraphicsRootSignature"))
		return;
	d3d12_root_signature *r = d3d12_root_signature_from_iface(rs);
	if (rs && !r) {
		d3d12_list_error(l, XS_MSG_ROOT_SIGNATURE_NONE, "SetGraphicsRootSignature: not an xs12 root signature");
		return;
	}
	if (r)
		ID3D12RootSignature_AddRef(rs);
	if (l->gfx_root)
		ID3D12RootSignature_Release(&l->gfx_root->iface);
	if (r != l->gfx_root) /* a new root signature forgets the arguments */
		l->gfx_root_set = 0;
	l->gfx_root = r;
}

static const d3d12_root_param *gfx_param(d3d12_list *l, UINT index, D3D12_ROOT_PARAMETER_TYPE type, const char *method)
{
	if (!gfx_recording(l, method))
		return NULL;
	if (!l->gfx_root) {
		d3d12_list_error(l, XS_MSG_ROOT_SIGNATURE_NONE, "%s before SetGraphicsRootSignature", method);
		return NULL;
	}
	if (index >= l->gfx_root->nparams) {
		d3d12_list_error(l, XS_MSG_ROOT_INDEX, "%s: root parameter %u: the root signature has %u", method, index,
				 l->gfx_root->nparams);
		return NULL;
	}
	const d3d12_root_param *p = &l->gfx_root->params[index];
	if (p->type != type) {
		d3d12_list_error(l, XS_MSG_ROOT_TYPE, "%s: root parameter %u is not of that type", method, index);
		return NULL;
	}
	return p;
}

static void gfx_constants(d3d12_list *l, UINT index, UINT n, const void *data, UINT offset, const char *method)
{
	const d3d12_root_param *p = gfx_param(l, index, D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, method);
	if (!p)
		return;
	if ((uint64_t)offset + n > p->num32 || !data) {
		d3d12_list_error(l, XS_MSG_ROOT_CONSTANTS_RANGE, "%s: root parameter %u holds %u 32-bit values: values "
				 "%u..%u are outside it", method, index, p->num32, offset, offset + n - 1);
		return;
	}
	memcpy(l->gfx_root_args[index] + 4 * offset, data, 4 * n);
	l->gfx_root_set |= 1ull << index;
}

void STDMETHODCALLTYPE d3d12_list_SetGraphicsRoot32BitConstant(ID3D12GraphicsCommandList6 *This, UINT index, UINT v,
							       UINT offset)
{
	gfx_constants(d3d12_list_from_iface(This), index, 1, &v, offset, "SetGraphicsRoot32BitConstant");
}

void STDMETHODCALLTYPE d3d12_list_SetGraphicsRoot32BitConstants(ID3D12GraphicsCommandList6 *This, UINT index, UINT n,
								const void *data, UINT offset)
{
	gfx_constants(d3d12_list_from_iface(This), index, n, data, offset, "SetGraphicsRoot32BitConstants");
}

static void gfx_view(d3d12_list *l, UINT index, D3D12_GPU_VIRTUAL_ADDRESS va, D3D12_ROOT_PARAMETER_TYPE type,
		     const char *method)
{
	if (!gfx_param(l, index, type, method))
		return;
	memcpy(l->gfx_root_args[index], &va, 8);
	l->gfx_root_set |= 1ull << index;
	d3d12_list_use(l, va);
}

void STDMETHODCALLTYPE d3d12_list_SetGraphicsRootConstantBufferView(ID3D12GraphicsCommandList6 *This, UINT index,
								    D3D12_GPU_VIRTUAL_ADDRESS va)
{
	gfx_view(d3d12_list_from_iface(This), index, va, D3D12_ROOT_PARAMETER_TYPE_CBV, "SetGraphicsRootConstantBufferView");
}

void STDMETHODCALLTYPE d3d12_list_SetGraphicsRootShaderResourceView(ID3D12GraphicsCommandList6 *This, UINT index,
								    D3D12_GPU_VIRTUAL_ADDRESS va)
{
	gfx_view(d3d12_list_from_iface(This), index, va, D3D12_ROOT_PARAMETER_TYPE_SRV, "SetGraphicsRootShaderResourceView");
}

void STDMETHODCALLTYPE d3d12_list_SetGraphicsRootUnorderedAccessView(ID3D12GraphicsCommandList6 *This, UINT index,
								     D3D12_GPU_VIRTUAL_ADDRESS va)
{
	gfx_view(d3d12_list_from_iface(This), index, va, D3D12_ROOT_PARAMETER_TYPE_UAV,
		 "SetGraphicsRootUnorderedAccessView");
}

void STDMETHODCALLTYPE d3d12_list_SetGraphicsRootDescriptorTable(ID3D12GraphicsCommandList6 *This, UINT index,
								 D3D12_GPU_DESCRIPTOR_HANDLE h)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	d3d12_list_error(l, XS_MSG_NOT_IMPLEMENTED, "SetGraphicsRootDescriptorTable (parameter %u): descriptor tables "
			 "are not implemented (root views give shaders buffers): the list fails to Close", index);
}

/* ---- draws ------------------------------------------------------------------------- */

static void ctx1(d3d12_list *l, uint32_t reg, uint32_t v)
{
	xs_pm4_set_context_reg(&l->pm4, reg, &v, 1);
}

static LONG clamp(LONG v, LONG lo, LONG hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static uint32_t fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* The render targets, depth buffer, viewport and scissor. */
static void record_targets(d3d12_list *l, const d3d12_gfx_pipeline *g)
{
	uint32_t w = 16384, h = 16384;
	for (UINT i = 0; i < 8; i++) {
		uint32_t off = i * XS_CB_COLOR_STRIDE, ext = i * XS_CB_COLOR_EXT_STRIDE;
		if (i >= l->nrt || g->rtv[i] == DXGI_FORMAT_UNKNOWN) {
			ctx1(l, R_028C70_CB_COLOR0_INFO + off, S_028C70_FORMAT(V_028C70_COLOR_INVALID));
			continue;
		}
		const d3d12_view *v = &l->rt[i];
		bool fl = v->fmt->is_float;
		ctx1(l, R_028C60_CB_COLOR0_BASE + off, (uint32_t)(v->va >> 8));
		ctx1(l, R_028C6C_CB_COLOR0_VIEW + off, 0);
		ctx1(l, R_028C70_CB_COLOR0_INFO + off,
		     S_028C70_FORMAT(fl ? V_028C70_COLOR_32_32_32_32 : V_028C70_COLOR_8_8_8_8) |
			     S_028C70_NUMBER_TYPE(fl ? V_028C70_NUMBER_FLOAT : V_028C70_NUMBER_UNORM));
		ctx1(l, R_028C74_CB_COLOR0_ATTRIB + off, 0); /* one sample, one fragment */
		ctx1(l, R_028E40_CB_COLOR0_BASE_EXT + ext, S_028E40_BASE_256B((uint32_t)(v->va >> 40)));
		ctx1(l, R_028EC0_CB_COLOR0_ATTRIB2 + ext, S_028EC0_MIP0_WIDTH(v->width - 1) | S_028EC0_MIP0_HEIGHT(v->height - 1));
		ctx1(l, R_028EE0_CB_COLOR0_ATTRIB3 + ext, S_028EE0_MIP0_DEPTH(0) | S_028EE0_RESOURCE_TYPE(1) /* 2D */);
		w = XS_MIN(w, v->width);
		h = XS_MIN(h, v->height);
	}
	if (l->has_ds && g->dsv != DXGI_FORMAT_UNKNOWN) {
		const d3d12_view *v = &l->ds;
		ctx1(l, R_028040_DB_Z_INFO, S_028040_FORMAT(V_028040_Z_32_FLOAT));
		ctx1(l, R_028048_DB_Z_READ_BASE, (uint32_t)(v->va >> 8));
		ctx1(l, R_028050_DB_Z_WRITE_BASE, (uint32_t)(v->va >> 8));
		ctx1(l, R_028068_DB_Z_READ_BASE_HI, (uint32_t)(v->va >> 40));
		ctx1(l, R_028070_DB_Z_WRITE_BASE_HI, (uint32_t)(v->va >> 40));
		ctx1(l, R_02801C_DB_DEPTH_SIZE_XY, S_02801C_X_MAX(v->width - 1) | S_02801C_Y_MAX(v->height - 1));
		ctx1(l, R_028008_DB_DEPTH_VIEW, 0);
		w = XS_MIN(w, v->width);
		h = XS_MIN(h, v->height);
	} else {
		ctx1(l, R_028040_DB_Z_INFO, S_028040_FORMAT(V_028040_Z_INVALID));
	}
	/* viewport 0: x' = x * w/2 + (X + w/2), y' = -y * h/2 + (Y + h/2), z' = z (max - min) + min */
	const D3D12_VIEWPORT *vp = &l->viewport;
	uint32_t vpr[6] = { fbits(vp->Width * 0.5f), fbits(vp->TopLeftX + vp->Width * 0.5f), fbits(-vp->Height * 0.5f),
			    fbits(vp->TopLeftY + vp->Height * 0.5f), fbits(vp->MaxDepth - vp->MinDepth), fbits(vp->MinDepth) };
	xs_pm4_set_context_reg(&l->pm4, R_02843C_PA_CL_VPORT_XSCALE, vpr, 6);
	uint32_t zr[2] = { fbits(vp->MinDepth), fbits(vp->MaxDepth) };
	xs_pm4_set_context_reg(&l->pm4, R_0282D0_PA_SC_VPORT_ZMIN_0, zr, 2);
	/* D3D12 clips to the viewport's rectangle and the scissor: their intersection */
	LONG x0 = XS_MAX(l->scissor.left, (LONG)floorf(vp->TopLeftX)), y0 = XS_MAX(l->scissor.top, (LONG)floorf(vp->TopLeftY));
	LONG x1 = XS_MIN(l->scissor.right, (LONG)ceilf(vp->TopLeftX + vp->Width));
	LONG y1 = XS_MIN(l->scissor.bottom, (LONG)ceilf(vp->TopLeftY + vp->Height));
	x0 = clamp(x0, 0, 16384), y0 = clamp(y0, 0, 16384);
	x1 = clamp(x1, x0, 16384), y1 = clamp(y1, y0, 16384);
	uint32_t sc[2] = { S_028250_TL_X((uint32_t)x0) | S_028250_TL_Y((uint32_t)y0) | S_028250_WINDOW_OFFSET_DISABLE(1),
			   S_028254_BR_X((uint32_t)x1) | S_028254_BR_Y((uint32_t)y1) };
	xs_pm4_set_context_reg(&l->pm4, R_028250_PA_SC_VPORT_SCISSOR_0_TL, sc, 2);
	uint32_t ss[2] = { S_028030_TL_X(0) | S_028030_TL_Y(0), S_028034_BR_X(w) | S_028034_BR_Y(h) };
	xs_pm4_set_context_reg(&l->pm4, R_028030_PA_SC_SCREEN_SCISSOR_TL, ss, 2);
	/* The guard band as radeonsi programs it: as far as the rasterizer's
	 * 16.8 fixed-point screen range reaches (XS_SC_SCREEN_RANGE_PX) from the
	 * viewport's centre, in units of the viewport's half-size; only a
	 * triangle beyond it is clipped in x/y (the scissor bounds the pixels).
	 * Clipping at the viewport's edges instead would cut triangles into
	 * fans whose new vertices snap differently, for no pixel of difference
	 * in coverage but some in interpolation. */
	float hx = fabsf(vp->Width * 0.5f), hy = fabsf(vp->Height * 0.5f);
	float gbx = hx > 0 ? ((float)XS_SC_SCREEN_RANGE_PX - 1.0f - fabsf(vp->TopLeftX + hx)) / hx : 1.0f;
	float gby = hy > 0 ? ((float)XS_SC_SCREEN_RANGE_PX - 1.0f - fabsf(vp->TopLeftY + hy)) / hy : 1.0f;
	gbx = gbx < 1.0f ? 1.0f : gbx;
	gby = gby < 1.0f ? 1.0f : gby;
	uint32_t gb[4] = { fbits(gby), fbits(1.0f), fbits(gbx), fbits(1.0f) };
	xs_pm4_set_context_reg(&l->pm4, R_028BE8_PA_CL_GB_VERT_CLIP_ADJ, gb, 4);
}

/* The checks of a draw's state; false: recorded as an error. */
static bool draw_state_ok(d3d12_list *l, const char *method, bool indexed)
{
	d3d12_pipeline *p = l->pso;
	if (!p || !p->gfx) {
		d3d12_list_error(l, XS_MSG_GFX_DRAW_STATE, "%s with %s set (SetPipelineState of a graphics pipeline)", method,
				 p ? "a compute pipeline" : "no pipeline");
		return false;
	}
	const d3d12_gfx_pipeline *g = p->gfx;
	const char *why = NULL;
	char buf[200];
	if (l->topology == D3D_PRIMITIVE_TOPOLOGY_UNDEFINED)
		why = "no primitive topology (IASetPrimitiveTopology)";
	else if (!l->viewport_set || !l->scissor_set)
		why = "no viewport or scissor rect (RSSetViewports, RSSetScissorRects)";
	else if (indexed && !l->ibv.BufferLocation)
		why = "no index buffer (IASetIndexBuffer)";
	else if (g->depth && !l->has_ds)
		why = "depth enabled and no depth-stencil view (OMSetRenderTargets)";
	if (!why) {
		for (UINT i = 0; i < 8 && !why; i++) {
			DXGI_FORMAT have = i < l->nrt ? l->rt[i].fmt->format : DXGI_FORMAT_UNKNOWN;
			if (have != g->rtv[i]) {
				snprintf(buf, sizeof(buf), "render target %u is %s, the pipeline's RTVFormats[%u] %s", i,
					 i < l->nrt ? l->rt[i].fmt->name : "not set", i,
					 g->rtv[i] == DXGI_FORMAT_UNKNOWN ? "UNKNOWN" : d3d12_format_get(g->rtv[i])->name);
				why = buf;
			}
		}
	}
	for (UINT i = 0; i < g->nelems && !why; i++)
		if (!l->vbs[g->elems[i].slot].BufferLocation) {
			snprintf(buf, sizeof(buf), "input element %u reads vertex buffer slot %u, which has no view", i,
				 g->elems[i].slot);
			why = buf;
		}
	d3d12_root_signature *rs = l->gfx_root ? l->gfx_root : p->root;
	if (!why && rs && (l->gfx_root_set & ((rs->nparams >= 64 ? 0 : 1ull << rs->nparams) - 1)) !=
				  ((rs->nparams >= 64 ? 0 : 1ull << rs->nparams) - 1))
		why = "a root parameter of the graphics root signature is not set";
	if (why) {
		d3d12_list_error(l, XS_MSG_GFX_DRAW_STATE, "%s: %s", method, why);
		return false;
	}
	return true;
}

/* The graphics ring (S1.8): the list's own (SetShaderScratchSpaceX with
 * FLAGS_GRAPHICS), else the driver's allocation shared with compute. */
static bool graphics_ring(d3d12_list *l, const d3d12_pipeline *p, uint64_t *base, uint32_t *tmpring, const char *label)
{
	d3d12_device *d = l->obj.device;
	const xs_devinfo *di = d->rt->info;
	*base = 0;
	*tmpring = 0;
	if (!p->gfx->uses_scratch)
		return true;
	xs_rt_launch_info info;
	memset(&info, 0, sizeof(info));
	info.scratch_en = true;
	uint64_t per_wave = p->scratch_per_wave;
	uint32_t waves;
	if (l->graphics_ring.va) {
		if (per_wave > l->graphics_ring.per_wave) {
			d3d12_list_error(l, XS_MSG_SCRATCH_SLOT_TOO_SMALL, "%s needs %llu KB of scratch per wave; the "
					 "graphics ring's slots (SetShaderScratchSpaceX) hold %u KB", label,
					 (unsigned long long)(per_wave / 1024), l->graphics_ring.per_wave / 1024);
			return false;
		}
		per_wave = l->graphics_ring.per_wave;
		waves = (uint32_t)XS_MIN(l->graphics_ring.size / per_wave, (uint64_t)G_0286E8_WAVES(~0u));
		info.ring_va = *base = l->graphics_ring.va;
		info.ring_bytes = l->graphics_ring.size;
	} else {
		xs_err e;
		pthread_mutex_lock(&d->rt->lock);
		xs_status st = xs_rt_default_scratch(d->rt, per_wave, &e);
		waves = d->rt->scratch_waves;
		info.ring_va = *base = d->rt->scratch_va;
		info.ring_bytes = d->rt->scratch_size;
		per_wave = d->rt->scratch_per_wave;
		pthread_mutex_unlock(&d->rt->lock);
		if (st) {
			d3d12_list_error_err(l, &e);
			return false;
		}
		info.default_ring = true;
	}
	info.per_wave = (uint32_t)per_wave;
	info.ring_slots = waves;
	*tmpring = S_0286E8_WAVES(waves) | S_0286E8_WAVESIZE((uint32_t)(per_wave / di->scratch_wavesize_granule));
	/* S1.7 / S1.8 / S1.10: the same bookkeeping as a dispatch's */
	return d3d12_list_add_scratch_use(l, &info, label);
}

void d3d12_list_draw(d3d12_list *l, bool indexed, UINT count, UINT instances, UINT start, INT base_vertex,
		     UINT start_instance, uint64_t args_va)
{
	const char *method = args_va ? "ExecuteIndirect" : indexed ? "DrawIndexedInstanced" : "DrawInstanced";
	if (!gfx_recording(l, method) || !draw_state_ok(l, method, indexed))
		return;
	d3d12_pipeline *p = l->pso;
	const d3d12_gfx_pipeline *g = p->gfx;
	char label[200];
	d3d12_object_label(&p->obj, label, sizeof(label));
	if (!args_va && (!count || !instances))
		return; /* D3D12: an empty draw draws nothing */
	/* ---- tables: ring (16 bytes), vertex (32 per element), root ---- */
	d3d12_root_signature *rs = l->gfx_root ? l->gfx_root : p->root;
	uint32_t root_bytes = 0, root_off[D3D12_MAX_ROOT_PARAMS];
	for (UINT i = 0; rs && i < rs->nparams; i++) {
		bool view = rs->params[i].type != D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
		root_bytes = view ? XS_ALIGN_UP(root_bytes, 8u) : root_bytes;
		root_off[i] = root_bytes;
		root_bytes += view ? 8 : 4 * rs->params[i].num32;
	}
	uint64_t tva;
	uint8_t *t;
	xs_err e;
	if (xs_rt_cmdmem_alloc(&l->allocator->mem, 16 + 32 * g->nelems + root_bytes + 16, 256, &tva, &t, &e)) {
		d3d12_list_error_err(l, &e);
		return;
	}
	if (g->pal && (tva >> 32) != (g->code_va >> 32)) {
		d3d12_list_error(l, XS_MSG_GFX_DRAW_STATE, "%s of %s: the ring table at 0x%llx is outside the 4 GiB window "
				 "of the pipeline's code at 0x%llx, where a PAL shader looks for it (docs/graphics.md 1.1)",
				 method, label, (unsigned long long)tva, (unsigned long long)g->code_va);
		return;
	}
	uint64_t scratch;
	uint32_t tmpring;
	if (!graphics_ring(l, p, &scratch, &tmpring, label))
		return;
	uint32_t ring[4] = {
		(uint32_t)scratch, S_008F04_BASE_ADDRESS_HI((uint32_t)(scratch >> 32)) | S_008F04_SWIZZLE_ENABLE(1),
		/* PAL reads the whole V#; LLVM clears INDEX_STRIDE's bit 21 for wave32 */
		S_008F08_NUM_RECORDS(0xffffffffu),
		S_008F0C_DST_SEL_X(V_008F0C_SQ_SEL_X) | S_008F0C_DST_SEL_Y(V_008F0C_SQ_SEL_Y) |
			S_008F0C_DST_SEL_Z(V_008F0C_SQ_SEL_Z) | S_008F0C_DST_SEL_W(V_008F0C_SQ_SEL_W) |
			S_008F0C_FORMAT(V_008F0C_GFX10_FORMAT_32_UINT) | S_008F0C_INDEX_STRIDE(V_008F0C_INDEX_STRIDE_64) |
			S_008F0C_ADD_TID_ENABLE(1) | S_008F0C_RESOURCE_LEVEL(1) |
			S_008F0C_OOB_SELECT(V_008F0C_OOB_SELECT_DISABLED),
	};
	memcpy(t, ring, 16);
	uint64_t vtx_va = tva + 16, root_va = vtx_va + 32 * g->nelems;
	for (UINT i = 0; i < g->nelems; i++) {
		const d3d12_input_element *el = &g->elems[i];
		const D3D12_VERTEX_BUFFER_VIEW *vb = &l->vbs[el->slot];
		/* the base moves by BaseVertexLocation (indexed) or StartInstanceLocation records */
		int64_t first = el->per_instance ? (int64_t)start_instance : indexed ? base_vertex : 0;
		uint64_t skip = el->offset + (uint64_t)((int64_t)vb->StrideInBytes * first);
		uint64_t base = vb->BufferLocation + skip;
		/* NUM_RECORDS counts records (vertices) with OOB_SELECT structured:
		 * the fetch compares the index with it, as RADV sets it for a
		 * stride; the element's whole copies inside the view from skip on
		 * (D3D12: a fetch past the view reads zeros), every index when the
		 * stride is 0. In bytes, the bound was stride times too loose. */
		uint32_t records = 0;
		if (skip < vb->SizeInBytes && vb->SizeInBytes - skip >= el->bytes)
			records = vb->StrideInBytes
					  ? (uint32_t)XS_MIN((vb->SizeInBytes - skip - el->bytes) / vb->StrideInBytes + 1,
							     (uint64_t)UINT32_MAX)
					  : UINT32_MAX;
		uint32_t v[8] = {
			(uint32_t)base, S_008F04_BASE_ADDRESS_HI((uint32_t)(base >> 32)) | S_008F04_STRIDE(vb->StrideInBytes),
			S_008F08_NUM_RECORDS(records),
			S_008F0C_DST_SEL_X(V_008F0C_SQ_SEL_X) | S_008F0C_DST_SEL_Y(V_008F0C_SQ_SEL_Y) |
				S_008F0C_DST_SEL_Z(V_008F0C_SQ_SEL_Z) | S_008F0C_DST_SEL_W(V_008F0C_SQ_SEL_W) |
				S_008F0C_FORMAT(el->buf_format) | S_008F0C_RESOURCE_LEVEL(1) |
				S_008F0C_OOB_SELECT(V_008F0C_OOB_SELECT_STRUCTURED),
			el->per_instance, 0, 0, 0,
		};
		memcpy(t + 16 + 32 * i, v, 32);
		d3d12_list_use(l, vb->BufferLocation);
	}
	for (UINT i = 0; rs && i < rs->nparams; i++) {
		bool view = rs->params[i].type != D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
		memcpy(t + (root_va - tva) + root_off[i], l->gfx_root_args[i], view ? 8 : 4 * rs->params[i].num32);
	}
	/* ---- registers ---- */
	d3d12_list_limits_for_draw(l, g->uses_scratch, label);
	xs_pm4_set_sh_reg(&l->pm4, R_00B120_SPI_SHADER_PGM_LO_VS, g->sh_vs, 4);
	xs_pm4_set_sh_reg(&l->pm4, R_00B020_SPI_SHADER_PGM_LO_PS, g->sh_ps, 4);
	uint32_t vsu[6] = { (uint32_t)tva, (uint32_t)(tva >> 32), (uint32_t)vtx_va, (uint32_t)(vtx_va >> 32),
			    (uint32_t)root_va, (uint32_t)(root_va >> 32) };
	uint32_t psu[4] = { (uint32_t)tva, (uint32_t)(tva >> 32), (uint32_t)root_va, (uint32_t)(root_va >> 32) };
	xs_pm4_set_sh_reg(&l->pm4, R_00B130_SPI_SHADER_USER_DATA_VS_0, vsu, 6);
	xs_pm4_set_sh_reg(&l->pm4, R_00B030_SPI_SHADER_USER_DATA_PS_0, psu, 4);
	for (uint32_t i = 0; i < g->nctx; i++)
		ctx1(l, g->ctx[i].reg, g->ctx[i].value);
	ctx1(l, R_0286E8_SPI_TMPRING_SIZE, tmpring);
	record_targets(l, g);
	uint32_t prim = S_030908_PRIM_TYPE(l->topology == D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP ? V_030908_DI_PT_TRISTRIP
												: V_030908_DI_PT_TRILIST);
	xs_pm4_set_uconfig_reg(&l->pm4, R_030908_VGT_PRIMITIVE_TYPE, &prim, 1);
	ctx1(l, R_028408_VGT_INDX_OFFSET, indexed ? 0 : start);
	if (indexed) {
		uint32_t isz = l->ibv.Format == DXGI_FORMAT_R16_UINT ? 2 : 4;
		uint32_t total = l->ibv.SizeInBytes / isz;
		xs_pm4_index_type(&l->pm4, isz == 2 ? V_03090C_VGT_INDEX_16 : V_03090C_VGT_INDEX_32);
		d3d12_list_use(l, l->ibv.BufferLocation);
		if (args_va) {
			xs_pm4_index_base(&l->pm4, l->ibv.BufferLocation);
			xs_pm4_index_buffer_size(&l->pm4, total);
		} else {
			uint32_t avail = start < total ? total - start : 0;
			uint64_t first = l->ibv.BufferLocation + (uint64_t)start * isz;
			xs_pm4_index_base(&l->pm4, first);
			xs_pm4_index_buffer_size(&l->pm4, avail);
			xs_pm4_num_instances(&l->pm4, instances);
			xs_pm4_draw_index_2(&l->pm4, avail, first, count);
		}
	} else if (!args_va) {
		xs_pm4_num_instances(&l->pm4, instances);
		xs_pm4_draw_index_auto(&l->pm4, count);
	}
	if (args_va) /* the CP reads the D3D12 arguments; no user SGPRs take BaseVertex / StartInstance */
		xs_pm4_draw_indirect(&l->pm4, indexed, args_va, 0, 0, 0);
	l->ndraws++;
	for (UINT i = 0; i < l->nrt; i++)
		d3d12_list_use(l, l->rt[i].va);
	if (l->has_ds)
		d3d12_list_use(l, l->ds.va);
	d3d12_list_breadcrumb(l, indexed ? D3D12_AUTO_BREADCRUMB_OP_DRAWINDEXEDINSTANCED
					 : D3D12_AUTO_BREADCRUMB_OP_DRAWINSTANCED);
}

void STDMETHODCALLTYPE d3d12_list_DrawInstanced(ID3D12GraphicsCommandList6 *This, UINT count, UINT instances, UINT start,
						UINT start_instance)
{
	d3d12_list_draw(d3d12_list_from_iface(This), false, count, instances, start, 0, start_instance, 0);
}

void STDMETHODCALLTYPE d3d12_list_DrawIndexedInstanced(ID3D12GraphicsCommandList6 *This, UINT count, UINT instances,
						       UINT start, INT base_vertex, UINT start_instance)
{
	d3d12_list_draw(d3d12_list_from_iface(This), true, count, instances, start, base_vertex, start_instance, 0);
}
