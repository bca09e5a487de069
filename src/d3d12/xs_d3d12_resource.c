/*
 * ID3D12Resource2: committed buffers in GPU memory. DEFAULT-heap buffers
 * are backed as the GPU touches them; UPLOAD and READBACK buffers (and
 * custom heaps the CPU can reach) have one contiguous host mapping, which
 * Map returns and the GPU reads and writes in place. Buffers are valid to
 * the byte of their Width: an access past it faults, and the fault report
 * names the resource (SetName). Textures (2D, one mip, one sample, one
 * slice; the formats of xs_d3d12_format.c) are linear in DEFAULT-heap
 * memory, rows 256-byte aligned: render targets, depth buffers, and copy
 * sources and destinations (CopyTextureRegion with a buffer footprint).
 */
#include "d3d12/xs_d3d12_private.h"
#include "d3d12/xs_d3d12_format.h"

#include <stdlib.h>
#include <string.h>

static d3d12_resource *impl_from_ID3D12Resource2(ID3D12Resource2 *iface)
{
	return container_of(iface, d3d12_resource, iface);
}

static HRESULT STDMETHODCALLTYPE res_QueryInterface(ID3D12Resource2 *This, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	if (iid_is(riid, &IID_ID3D12Resource) || iid_is(riid, &IID_ID3D12Resource1) ||
	    iid_is(riid, &IID_ID3D12Resource2) || iid_is(riid, &IID_ID3D12Pageable) ||
	    iid_is(riid, &IID_ID3D12DeviceChild) || iid_is(riid, &IID_ID3D12Object) || iid_is(riid, &IID_IUnknown)) {
		ID3D12Resource2_AddRef(This);
		*out = This;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE res_AddRef(ID3D12Resource2 *This)
{
	return atomic_fetch_add(&impl_from_ID3D12Resource2(This)->obj.refcount, 1) + 1;
}

static ULONG STDMETHODCALLTYPE res_Release(ID3D12Resource2 *This)
{
	d3d12_resource *r = impl_from_ID3D12Resource2(This);
	ULONG n = atomic_fetch_sub(&r->obj.refcount, 1) - 1;
	if (n)
		return n;
	d3d12_device *d = r->obj.device;
	char lab[200];
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
		if (r->last_use_seq[q] > xs_rt_queue_done(d->rt, q)) {
			if (d->debug)
				d3d12_message(d, XS_MSG_RESOURCE_IN_USE,
					      "releasing %s at 0x%llx, which work submitted on hardware queue %u and not "
					      "yet waited for may still use: a GPU access after this faults",
					      d3d12_object_label(&r->obj, lab, sizeof(lab)), (unsigned long long)r->va, q);
			break;
		}
	pthread_mutex_lock(&d->rt->lock);
	xs_vm_free(d->rt->vm, r->va, NULL);
	pthread_mutex_unlock(&d->rt->lock);
	d3d12_object_fini(&r->obj);
	free(r);
	return 0;
}

static HRESULT STDMETHODCALLTYPE res_GetPrivateData(ID3D12Resource2 *This, REFGUID g, UINT *size, void *data)
{
	return d3d12_object_get_private_data(&impl_from_ID3D12Resource2(This)->obj, g, size, data);
}

static HRESULT STDMETHODCALLTYPE res_SetPrivateData(ID3D12Resource2 *This, REFGUID g, UINT size, const void *data)
{
	return d3d12_object_set_private_data(&impl_from_ID3D12Resource2(This)->obj, g, size, data);
}

static HRESULT STDMETHODCALLTYPE res_SetPrivateDataInterface(ID3D12Resource2 *This, REFGUID g, const IUnknown *data)
{
	return d3d12_object_set_private_data_interface(&impl_from_ID3D12Resource2(This)->obj, g, data);
}

/* The name also goes to the allocation, for VM fault reports and DRED. */
static HRESULT STDMETHODCALLTYPE res_SetName(ID3D12Resource2 *This, LPCWSTR name)
{
	d3d12_resource *r = impl_from_ID3D12Resource2(This);
	HRESULT hr = d3d12_object_set_name(&r->obj, name);
	char lab[200];
	d3d12_object_label(&r->obj, lab, sizeof(lab));
	pthread_mutex_lock(&r->obj.device->rt->lock);
	xs_vm_set_name(r->obj.device->rt->vm, r->va, lab, NULL);
	pthread_mutex_unlock(&r->obj.device->rt->lock);
	return hr;
}

static HRESULT STDMETHODCALLTYPE res_GetDevice(ID3D12Resource2 *This, REFIID riid, void **out)
{
	return d3d12_device_query(impl_from_ID3D12Resource2(This)->obj.device, riid, out);
}

static HRESULT STDMETHODCALLTYPE res_Map(ID3D12Resource2 *This, UINT sub, const D3D12_RANGE *read, void **data)
{
	d3d12_resource *r = impl_from_ID3D12Resource2(This);
	char lab[200];
	if (sub != 0) {
		d3d12_message(r->obj.device, XS_MSG_RESOURCE_MAP, "Map of %s: subresource %u: a buffer has only 0",
			      d3d12_object_label(&r->obj, lab, sizeof(lab)), sub);
		return E_INVALIDARG;
	}
	if (!r->host) {
		d3d12_message(r->obj.device, XS_MSG_RESOURCE_MAP,
			      "Map of %s: it is in a DEFAULT heap, which the CPU cannot reach; copy it to a READBACK buffer",
			      d3d12_object_label(&r->obj, lab, sizeof(lab)));
		return E_INVALIDARG;
	}
	r->map_count++;
	if (data)
		*data = r->host;
	return S_OK;
}

static void STDMETHODCALLTYPE res_Unmap(ID3D12Resource2 *This, UINT sub, const D3D12_RANGE *written)
{
	d3d12_resource *r = impl_from_ID3D12Resource2(This);
	if (r->map_count)
		r->map_count--; /* the mapping is the GPU's memory itself: nothing to copy */
}

static D3D12_RESOURCE_DESC STDMETHODCALLTYPE res_GetDesc(ID3D12Resource2 *This)
{
	return impl_from_ID3D12Resource2(This)->desc;
}

static D3D12_GPU_VIRTUAL_ADDRESS STDMETHODCALLTYPE res_GetGPUVirtualAddress(ID3D12Resource2 *This)
{
	return impl_from_ID3D12Resource2(This)->va;
}

static HRESULT STDMETHODCALLTYPE res_GetHeapProperties(ID3D12Resource2 *This, D3D12_HEAP_PROPERTIES *p,
						       D3D12_HEAP_FLAGS *flags)
{
	d3d12_resource *r = impl_from_ID3D12Resource2(This);
	if (p)
		*p = r->heap;
	if (flags)
		*flags = r->heap_flags;
	return S_OK;
}

static D3D12_RESOURCE_DESC1 STDMETHODCALLTYPE res_GetDesc1(ID3D12Resource2 *This)
{
	const D3D12_RESOURCE_DESC *d = &impl_from_ID3D12Resource2(This)->desc;
	D3D12_RESOURCE_DESC1 r = {
		.Dimension = d->Dimension, .Alignment = d->Alignment, .Width = d->Width, .Height = d->Height,
		.DepthOrArraySize = d->DepthOrArraySize, .MipLevels = d->MipLevels, .Format = d->Format,
		.SampleDesc = d->SampleDesc, .Layout = d->Layout, .Flags = d->Flags,
	};
	return r;
}

static const ID3D12Resource2Vtbl resource_vtbl = {
	XS_D3D12_STUBS_ID3D12Resource2,
	.QueryInterface = res_QueryInterface, .AddRef = res_AddRef, .Release = res_Release,
	.GetPrivateData = res_GetPrivateData, .SetPrivateData = res_SetPrivateData,
	.SetPrivateDataInterface = res_SetPrivateDataInterface, .SetName = res_SetName, .GetDevice = res_GetDevice,
	.Map = res_Map, .Unmap = res_Unmap, .GetDesc = res_GetDesc, .GetGPUVirtualAddress = res_GetGPUVirtualAddress,
	.GetHeapProperties = res_GetHeapProperties, .GetDesc1 = res_GetDesc1,
};

bool d3d12_texture_desc_check(d3d12_device *d, const D3D12_RESOURCE_DESC *desc, const char *method,
			      const struct d3d12_format **out)
{
	const d3d12_format *f = d3d12_format_get(desc->Format);
	if (!f) {
		d3d12_message(d, XS_MSG_TEXTURE_DESC, "%s: texture format %d: xs12's textures are " D3D12_FORMATS_TAKEN,
			      method, (int)desc->Format);
		return false;
	}
	const UINT64 max_dim = D3D12_REQ_TEXTURE2D_U_OR_V_DIMENSION;
	if (!desc->Width || !desc->Height || desc->Width > max_dim || desc->Height > max_dim ||
	    desc->DepthOrArraySize != 1 || desc->MipLevels != 1 ||
	    desc->SampleDesc.Count != 1 || desc->SampleDesc.Quality != 0 ||
	    (desc->Layout != D3D12_TEXTURE_LAYOUT_UNKNOWN && desc->Layout != D3D12_TEXTURE_LAYOUT_ROW_MAJOR)) {
		d3d12_message(d, XS_MSG_TEXTURE_DESC,
			      "%s: a %s texture of %llux%u, %u slices, %u mips, %u samples (quality %u), layout %d: xs12's "
			      "textures are 2D, 1..16384 on a side, one slice, MipLevels 1, one sample, "
			      "layout UNKNOWN or ROW_MAJOR", method, f->name, (unsigned long long)desc->Width,
			      desc->Height, desc->DepthOrArraySize, desc->MipLevels, desc->SampleDesc.Count,
			      desc->SampleDesc.Quality, (int)desc->Layout);
		return false;
	}
	if (f->depth && (desc->Flags & D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET)) {
		d3d12_message(d, XS_MSG_TEXTURE_DESC, "%s: a %s texture with ALLOW_RENDER_TARGET: depth formats take "
			      "ALLOW_DEPTH_STENCIL", method, f->name);
		return false;
	}
	if (!f->depth && (desc->Flags & D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL)) {
		d3d12_message(d, XS_MSG_TEXTURE_DESC, "%s: a %s texture with ALLOW_DEPTH_STENCIL: only D32_FLOAT is a "
			      "depth format", method, f->name);
		return false;
	}
	if (out)
		*out = f;
	return true;
}

d3d12_resource *d3d12_resource_from_iface(ID3D12Resource *iface)
{
	if (!iface || iface->lpVtbl != (const ID3D12ResourceVtbl *)(const void *)&resource_vtbl)
		return NULL;
	return container_of((ID3D12Resource2 *)(void *)iface, d3d12_resource, iface);
}

HRESULT d3d12_resource_create_committed(d3d12_device *d, const D3D12_HEAP_PROPERTIES *heap, D3D12_HEAP_FLAGS flags,
					const D3D12_RESOURCE_DESC *desc, D3D12_RESOURCE_STATES state, REFIID riid,
					void **out)
{
	if (out)
		*out = NULL;
	if (!heap || !desc) {
		d3d12_message(d, XS_MSG_RESOURCE_DESC, "CreateCommittedResource: NULL heap properties or description");
		return E_INVALIDARG;
	}
	const d3d12_format *fmt = NULL;
	uint64_t bytes = desc->Width;
	if (desc->Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE2D) {
		if (!d3d12_texture_desc_check(d, desc, "CreateCommittedResource", &fmt))
			return E_INVALIDARG;
		if (heap->Type != D3D12_HEAP_TYPE_DEFAULT) {
			d3d12_message(d, XS_MSG_TEXTURE_DESC, "CreateCommittedResource: a texture in heap type %d: xs12 "
				      "places textures in DEFAULT heaps (read them back with CopyTextureRegion into a "
				      "READBACK buffer)", (int)heap->Type);
			return E_INVALIDARG;
		}
		bytes = d3d12_texture_bytes(desc, fmt);
	} else if (desc->Dimension != D3D12_RESOURCE_DIMENSION_BUFFER) {
		d3d12_message(d, XS_MSG_NOT_IMPLEMENTED,
			      "CreateCommittedResource: dimension %d: xs12 creates buffers and 2D textures",
			      (int)desc->Dimension);
		return E_NOTIMPL;
	}
	if (fmt) {
		/* checked above */
	} else if (desc->Width == 0 || desc->Height != 1 || desc->DepthOrArraySize != 1 || desc->MipLevels != 1 ||
	    desc->Format != DXGI_FORMAT_UNKNOWN || desc->SampleDesc.Count != 1 ||
	    desc->Layout != D3D12_TEXTURE_LAYOUT_ROW_MAJOR) {
		d3d12_message(d, XS_MSG_RESOURCE_DESC,
			      "CreateCommittedResource: a buffer needs Width >= 1, Height, DepthOrArraySize, MipLevels and "
			      "SampleDesc.Count 1, Format UNKNOWN and ROW_MAJOR layout (got Width %llu, Height %u, "
			      "Format %d, Layout %d)", (unsigned long long)desc->Width, desc->Height, (int)desc->Format,
			      (int)desc->Layout);
		return E_INVALIDARG;
	}
	bool cpu = heap->Type == D3D12_HEAP_TYPE_UPLOAD || heap->Type == D3D12_HEAP_TYPE_READBACK ||
		   (heap->Type == D3D12_HEAP_TYPE_CUSTOM && heap->CPUPageProperty != D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE);
	if (heap->Type != D3D12_HEAP_TYPE_DEFAULT && !cpu && heap->Type != D3D12_HEAP_TYPE_CUSTOM) {
		d3d12_message(d, XS_MSG_RESOURCE_DESC, "CreateCommittedResource: heap type %d", (int)heap->Type);
		return E_INVALIDARG;
	}
	if (!out)
		return S_FALSE; /* D3D12: a NULL output only checks the arguments */
	d3d12_resource *r = xs_calloc(1, sizeof(*r));
	if (!r)
		return E_OUTOFMEMORY;
	r->iface.lpVtbl = &resource_vtbl;
	d3d12_object_init(&r->obj, d, "ID3D12Resource");
	r->desc = *desc;
	r->desc.Alignment = D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT;
	r->size = bytes;
	r->fmt = fmt;
	r->pitch = fmt ? d3d12_texture_pitch(desc->Width, fmt->bpp) : 0;
	r->heap = *heap;
	r->heap_flags = flags;
	(void)state;
	xs_err e;
	pthread_mutex_lock(&d->rt->lock);
	xs_status st = cpu ? xs_vm_alloc_host(d->rt->vm, bytes, D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT, &r->va,
					      &r->host, &e)
			   : xs_vm_alloc(d->rt->vm, bytes, D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT, &r->va, &e);
	if (!st) {
		char lab[200];
		xs_vm_set_name(d->rt->vm, r->va, d3d12_object_label(&r->obj, lab, sizeof(lab)), NULL);
		xs_vm_set_owner(d->rt->vm, r->va, r); /* for the debug layer's in-use tracking */
	}
	pthread_mutex_unlock(&d->rt->lock);
	if (st) {
		d3d12_object_fini(&r->obj);
		free(r);
		d3d12_message(d, XS_MSG_RESOURCE_DESC, "CreateCommittedResource: %s", e.msg);
		return E_OUTOFMEMORY;
	}
	HRESULT hr = ID3D12Resource2_QueryInterface(&r->iface, riid, out);
	ID3D12Resource2_Release(&r->iface);
	return hr;
}
