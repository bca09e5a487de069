/*
 * ID3D12DescriptorHeap for render-target and depth-stencil views, and the
 * views themselves (CreateRenderTargetView, CreateDepthStencilView). A
 * descriptor is a d3d12_view in host memory: RTV and DSV heaps are never
 * shader-visible, and a view is only read when a list records
 * OMSetRenderTargets or a clear, which copies what it needs into the PM4
 * (D3D12: a descriptor may be overwritten once the call has returned).
 * CBV_SRV_UAV and SAMPLER heaps are not implemented: root views are xs12's
 * way to give shaders buffers.
 */
#include "d3d12/xs_d3d12_private.h"
#include "d3d12/xs_d3d12_format.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(d3d12_view) <= D3D12_VIEW_STRIDE, "a view fits its descriptor stride");

typedef struct d3d12_descriptor_heap {
	ID3D12DescriptorHeap iface;
	d3d12_object obj;
	D3D12_DESCRIPTOR_HEAP_DESC desc;
	uint8_t *mem;                   /* NumDescriptors x D3D12_VIEW_STRIDE */
} d3d12_descriptor_heap;

static d3d12_descriptor_heap *impl_from_ID3D12DescriptorHeap(ID3D12DescriptorHeap *iface)
{
	return container_of(iface, d3d12_descriptor_heap, iface);
}

static HRESULT STDMETHODCALLTYPE heap_QueryInterface(ID3D12DescriptorHeap *This, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	if (iid_is(riid, &IID_ID3D12DescriptorHeap) || iid_is(riid, &IID_ID3D12Pageable) ||
	    iid_is(riid, &IID_ID3D12DeviceChild) || iid_is(riid, &IID_ID3D12Object) || iid_is(riid, &IID_IUnknown)) {
		ID3D12DescriptorHeap_AddRef(This);
		*out = This;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE heap_AddRef(ID3D12DescriptorHeap *This)
{
	return atomic_fetch_add(&impl_from_ID3D12DescriptorHeap(This)->obj.refcount, 1) + 1;
}

static ULONG STDMETHODCALLTYPE heap_Release(ID3D12DescriptorHeap *This)
{
	d3d12_descriptor_heap *h = impl_from_ID3D12DescriptorHeap(This);
	ULONG n = atomic_fetch_sub(&h->obj.refcount, 1) - 1;
	if (!n) {
		free(h->mem);
		d3d12_object_fini(&h->obj);
		free(h);
	}
	return n;
}

D3D12_OBJECT_METHODS(heap, ID3D12DescriptorHeap, d3d12_descriptor_heap)

static D3D12_DESCRIPTOR_HEAP_DESC STDMETHODCALLTYPE heap_GetDesc(ID3D12DescriptorHeap *This)
{
	return impl_from_ID3D12DescriptorHeap(This)->desc;
}

static D3D12_CPU_DESCRIPTOR_HANDLE STDMETHODCALLTYPE heap_GetCPUDescriptorHandleForHeapStart(ID3D12DescriptorHeap *This)
{
	D3D12_CPU_DESCRIPTOR_HANDLE h = { (SIZE_T)impl_from_ID3D12DescriptorHeap(This)->mem };
	return h;
}

static D3D12_GPU_DESCRIPTOR_HANDLE STDMETHODCALLTYPE heap_GetGPUDescriptorHandleForHeapStart(ID3D12DescriptorHeap *This)
{
	D3D12_GPU_DESCRIPTOR_HANDLE h = { 0 }; /* D3D12: 0 for a heap that is not shader-visible */
	return h;
}

static const ID3D12DescriptorHeapVtbl heap_vtbl = {
	XS_D3D12_STUBS_ID3D12DescriptorHeap,
	.QueryInterface = heap_QueryInterface, .AddRef = heap_AddRef, .Release = heap_Release,
	D3D12_OBJECT_SLOTS(heap), .GetDesc = heap_GetDesc,
	.GetCPUDescriptorHandleForHeapStart = heap_GetCPUDescriptorHandleForHeapStart,
	.GetGPUDescriptorHandleForHeapStart = heap_GetGPUDescriptorHandleForHeapStart,
};

HRESULT d3d12_descriptor_heap_create(d3d12_device *d, const D3D12_DESCRIPTOR_HEAP_DESC *desc, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	if (!desc) {
		d3d12_message(d, XS_MSG_DESCRIPTOR_HEAP, "CreateDescriptorHeap: NULL description");
		return E_INVALIDARG;
	}
	if (desc->Type == D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV || desc->Type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER) {
		d3d12_message(d, XS_MSG_NOT_IMPLEMENTED, "CreateDescriptorHeap: type %s: xs12 makes RTV and DSV heaps "
			      "(give shaders buffers through root views)",
			      desc->Type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER ? "SAMPLER" : "CBV_SRV_UAV");
		return E_NOTIMPL;
	}
	if ((desc->Type != D3D12_DESCRIPTOR_HEAP_TYPE_RTV && desc->Type != D3D12_DESCRIPTOR_HEAP_TYPE_DSV) ||
	    !desc->NumDescriptors || desc->NumDescriptors > (1u << 20) ||
	    (desc->Flags & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE)) {
		d3d12_message(d, XS_MSG_DESCRIPTOR_HEAP, "CreateDescriptorHeap: type %d, %u descriptors, flags 0x%x: RTV "
			      "and DSV heaps hold 1..1048576 descriptors and are not shader-visible (D3D12)",
			      (int)desc->Type, desc->NumDescriptors, (unsigned)desc->Flags);
		return E_INVALIDARG;
	}
	d3d12_descriptor_heap *h = xs_calloc(1, sizeof(*h));
	if (!h || !(h->mem = xs_calloc(desc->NumDescriptors, D3D12_VIEW_STRIDE))) {
		free(h);
		return E_OUTOFMEMORY;
	}
	h->iface.lpVtbl = &heap_vtbl;
	d3d12_object_init(&h->obj, d, "ID3D12DescriptorHeap");
	h->desc = *desc;
	HRESULT hr = ID3D12DescriptorHeap_QueryInterface(&h->iface, riid, out);
	ID3D12DescriptorHeap_Release(&h->iface);
	return hr;
}

UINT d3d12_descriptor_increment(D3D12_DESCRIPTOR_HEAP_TYPE type)
{
	return type == D3D12_DESCRIPTOR_HEAP_TYPE_RTV || type == D3D12_DESCRIPTOR_HEAP_TYPE_DSV ? D3D12_VIEW_STRIDE : 0;
}

/* A view of a texture, kind D3D12_VIEW_RTV or _DSV. */
static void create_view(d3d12_device *d, ID3D12Resource *res, DXGI_FORMAT format, bool format_given,
			D3D12_CPU_DESCRIPTOR_HANDLE h, uint32_t kind, const char *method)
{
	d3d12_view *v = (d3d12_view *)(void *)h.ptr;
	if (!v) {
		d3d12_message(d, XS_MSG_VIEW_DESC, "%s: a NULL descriptor handle", method);
		return;
	}
	memset(v, 0, sizeof(*v));
	d3d12_resource *r = d3d12_resource_from_iface(res);
	if (!r) {
		/* D3D12: a NULL resource makes a null view; xs12 keeps it empty */
		if (res)
			d3d12_message(d, XS_MSG_VIEW_DESC, "%s: not an xs12 resource", method);
		v->kind = res ? 0 : kind | D3D12_VIEW_NULL;
		return;
	}
	char lab[200];
	bool want_depth = kind == D3D12_VIEW_DSV;
	const d3d12_format *f = d3d12_format_get(format_given ? format : r->desc.Format);
	if (!r->fmt || !f || f != r->fmt || f->depth != want_depth ||
	    !(r->desc.Flags & (want_depth ? D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL : D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET))) {
		d3d12_message(d, XS_MSG_VIEW_DESC, "%s of %s: %s; a %s view needs a texture created with %s, viewed in "
			      "its own format (xs12 does not reinterpret formats)", method,
			      d3d12_object_label(&r->obj, lab, sizeof(lab)),
			      !r->fmt ? "a buffer" : !f ? "a view format xs12 does not take" : "format or flags do not match",
			      want_depth ? "depth-stencil" : "render-target",
			      want_depth ? "ALLOW_DEPTH_STENCIL" : "ALLOW_RENDER_TARGET");
		return;
	}
	v->kind = kind;
	v->fmt = f;
	v->res = r;
	v->va = r->va;
	v->pitch = r->pitch;
	v->width = (uint32_t)r->desc.Width;
	v->height = r->desc.Height;
}

void STDMETHODCALLTYPE d3d12_device_CreateRenderTargetView(ID3D12Device5 *This, ID3D12Resource *res,
							   const D3D12_RENDER_TARGET_VIEW_DESC *desc,
							   D3D12_CPU_DESCRIPTOR_HANDLE h)
{
	d3d12_device *d = container_of(This, d3d12_device, iface);
	if (desc && desc->ViewDimension != D3D12_RTV_DIMENSION_TEXTURE2D) {
		d3d12_message(d, XS_MSG_VIEW_DESC, "CreateRenderTargetView: view dimension %d: xs12 views 2D textures "
			      "(TEXTURE2D, MipSlice 0)", (int)desc->ViewDimension);
		return;
	}
	if (desc && (desc->Texture2D.MipSlice || desc->Texture2D.PlaneSlice)) {
		d3d12_message(d, XS_MSG_VIEW_DESC, "CreateRenderTargetView: MipSlice %u, PlaneSlice %u: textures have "
			      "one mip and one plane", desc->Texture2D.MipSlice, desc->Texture2D.PlaneSlice);
		return;
	}
	create_view(d, res, desc ? desc->Format : DXGI_FORMAT_UNKNOWN, desc && desc->Format != DXGI_FORMAT_UNKNOWN, h,
		    D3D12_VIEW_RTV, "CreateRenderTargetView");
}

void STDMETHODCALLTYPE d3d12_device_CreateDepthStencilView(ID3D12Device5 *This, ID3D12Resource *res,
							   const D3D12_DEPTH_STENCIL_VIEW_DESC *desc,
							   D3D12_CPU_DESCRIPTOR_HANDLE h)
{
	d3d12_device *d = container_of(This, d3d12_device, iface);
	if (desc && (desc->ViewDimension != D3D12_DSV_DIMENSION_TEXTURE2D || desc->Texture2D.MipSlice)) {
		d3d12_message(d, XS_MSG_VIEW_DESC, "CreateDepthStencilView: view dimension %d, mip %u: xs12 views 2D "
			      "textures (TEXTURE2D, MipSlice 0)", (int)desc->ViewDimension, desc->Texture2D.MipSlice);
		return;
	}
	if (desc && desc->Flags) {
		d3d12_message(d, XS_MSG_VIEW_DESC, "CreateDepthStencilView: Flags 0x%x: read-only depth views are not "
			      "implemented", (unsigned)desc->Flags);
		return;
	}
	create_view(d, res, desc ? desc->Format : DXGI_FORMAT_UNKNOWN, desc && desc->Format != DXGI_FORMAT_UNKNOWN, h,
		    D3D12_VIEW_DSV, "CreateDepthStencilView");
}

const d3d12_view *d3d12_view_get(D3D12_CPU_DESCRIPTOR_HANDLE h, uint32_t kind)
{
	const d3d12_view *v = (const d3d12_view *)(const void *)h.ptr;
	return v && v->kind == kind ? v : NULL;
}
