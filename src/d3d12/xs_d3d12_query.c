/*
 * Timestamp queries (ID3D12QueryHeap of D3D12_QUERY_HEAP_TYPE_TIMESTAMP):
 * EndQuery records an end-of-pipe RELEASE_MEM that writes the GPU clock
 * (shader-clock cycles; GetTimestampFrequency says so) to the heap's
 * memory when the work before it is done; ResolveQueryData waits for the
 * queue's dispatches (CS_PARTIAL_FLUSH, so the writes have landed) and
 * copies the values with CP DMA, as drivers resolve queries. Other query
 * types are E_NOTIMPL.
 */
#include "d3d12/xs_d3d12_private.h"
#include "hw/xs_hw_pm4.h"

#include <stdio.h>
#include <stdlib.h>

static d3d12_query_heap *impl_from_ID3D12QueryHeap(ID3D12QueryHeap *iface)
{
	return container_of(iface, d3d12_query_heap, iface);
}

static HRESULT STDMETHODCALLTYPE qh_QueryInterface(ID3D12QueryHeap *This, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	if (iid_is(riid, &IID_ID3D12QueryHeap) || iid_is(riid, &IID_ID3D12Pageable) ||
	    iid_is(riid, &IID_ID3D12DeviceChild) || iid_is(riid, &IID_ID3D12Object) || iid_is(riid, &IID_IUnknown)) {
		ID3D12QueryHeap_AddRef(This);
		*out = This;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE qh_AddRef(ID3D12QueryHeap *This)
{
	return atomic_fetch_add(&impl_from_ID3D12QueryHeap(This)->obj.refcount, 1) + 1;
}

static ULONG STDMETHODCALLTYPE qh_Release(ID3D12QueryHeap *This)
{
	d3d12_query_heap *h = impl_from_ID3D12QueryHeap(This);
	ULONG n = atomic_fetch_sub(&h->obj.refcount, 1) - 1;
	if (!n) {
		d3d12_device *d = h->obj.device;
		pthread_mutex_lock(&d->rt->lock);
		xs_vm_free(d->rt->vm, h->va, NULL);
		pthread_mutex_unlock(&d->rt->lock);
		d3d12_object_fini(&h->obj);
		free(h);
	}
	return n;
}

D3D12_OBJECT_METHODS(qh, ID3D12QueryHeap, d3d12_query_heap)

static const ID3D12QueryHeapVtbl query_heap_vtbl = {
	XS_D3D12_STUBS_ID3D12QueryHeap,
	.QueryInterface = qh_QueryInterface, .AddRef = qh_AddRef, .Release = qh_Release, D3D12_OBJECT_SLOTS(qh),
};

static d3d12_query_heap *query_heap_from_iface(ID3D12QueryHeap *iface)
{
	return iface && iface->lpVtbl == &query_heap_vtbl ? impl_from_ID3D12QueryHeap(iface) : NULL;
}

HRESULT d3d12_query_heap_create(d3d12_device *d, const D3D12_QUERY_HEAP_DESC *desc, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	if (!desc || !desc->Count || desc->Count > (1u << 20) || desc->NodeMask > 1) {
		d3d12_message(d, XS_MSG_QUERY, "CreateQueryHeap: Count %u: 1 to 2^20 queries", desc ? desc->Count : 0);
		return E_INVALIDARG;
	}
	if (desc->Type != D3D12_QUERY_HEAP_TYPE_TIMESTAMP) {
		d3d12_message(d, XS_MSG_NOT_IMPLEMENTED, "CreateQueryHeap: type %d: xs12 has TIMESTAMP heaps only",
			      (int)desc->Type);
		return E_NOTIMPL;
	}
	d3d12_query_heap *h = xs_calloc(1, sizeof(*h));
	if (!h)
		return E_OUTOFMEMORY;
	h->iface.lpVtbl = &query_heap_vtbl;
	d3d12_object_init(&h->obj, d, "ID3D12QueryHeap");
	h->desc = *desc;
	xs_err e;
	pthread_mutex_lock(&d->rt->lock);
	xs_status st = xs_vm_alloc(d->rt->vm, (uint64_t)desc->Count * 8, 256, &h->va, &e);
	if (!st) {
		char lab[200];
		xs_vm_set_name(d->rt->vm, h->va, d3d12_object_label(&h->obj, lab, sizeof(lab)), NULL);
	}
	pthread_mutex_unlock(&d->rt->lock);
	if (st) {
		d3d12_object_fini(&h->obj);
		free(h);
		return E_OUTOFMEMORY;
	}
	HRESULT hr = ID3D12QueryHeap_QueryInterface(&h->iface, riid, out);
	ID3D12QueryHeap_Release(&h->iface);
	return hr;
}

void STDMETHODCALLTYPE d3d12_list_BeginQuery(ID3D12GraphicsCommandList6 *This, ID3D12QueryHeap *heap,
					      D3D12_QUERY_TYPE type, UINT index)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	d3d12_list_error(l, type == D3D12_QUERY_TYPE_TIMESTAMP ? XS_MSG_QUERY : XS_MSG_NOT_IMPLEMENTED,
			 "BeginQuery of type %d: timestamps take EndQuery only; other queries are not implemented",
			 (int)type);
}

static d3d12_query_heap *check(d3d12_list *l, ID3D12QueryHeap *heap, D3D12_QUERY_TYPE type, UINT first, UINT n,
			       const char *method)
{
	d3d12_query_heap *h = query_heap_from_iface(heap);
	if (!l->open) {
		d3d12_list_error(l, XS_MSG_LIST_CLOSED, "%s on a closed command list", method);
		return NULL;
	}
	if (!h || type != D3D12_QUERY_TYPE_TIMESTAMP) {
		d3d12_list_error(l, XS_MSG_QUERY, "%s: a TIMESTAMP query heap and D3D12_QUERY_TYPE_TIMESTAMP", method);
		return NULL;
	}
	if (first >= h->desc.Count || n > h->desc.Count - first) {
		d3d12_list_error(l, XS_MSG_QUERY, "%s: queries %u..%u of a heap of %u", method, first, first + n - 1,
				 h->desc.Count);
		return NULL;
	}
	return h;
}

void STDMETHODCALLTYPE d3d12_list_EndQuery(ID3D12GraphicsCommandList6 *This, ID3D12QueryHeap *heap, D3D12_QUERY_TYPE type,
					    UINT index)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	d3d12_query_heap *h = check(l, heap, type, index, 1, "EndQuery");
	if (!h)
		return;
	xs_pm4_release_mem_desc rm = { .event_type = V_028A90_BOTTOM_OF_PIPE_TS, .dst_sel = EOP_DST_SEL_MEM,
				       .data_sel = EOP_DATA_SEL_TIMESTAMP, .va = h->va + 8ull * index };
	xs_pm4_release_mem(&l->pm4, &rm);
	d3d12_list_use(l, h->va);
}

void STDMETHODCALLTYPE d3d12_list_ResolveQueryData(ID3D12GraphicsCommandList6 *This, ID3D12QueryHeap *heap,
						    D3D12_QUERY_TYPE type, UINT first, UINT n, ID3D12Resource *dst,
						    UINT64 offset)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	d3d12_query_heap *h = check(l, heap, type, first, n, "ResolveQueryData");
	d3d12_resource *r = d3d12_resource_from_iface(dst);
	if (!h)
		return;
	if (!r || offset % 8 || offset > r->desc.Width || (uint64_t)n * 8 > r->desc.Width - offset) {
		d3d12_list_error(l, XS_MSG_QUERY, "ResolveQueryData: %u timestamps at +%llu: an 8-byte aligned range of "
				 "the destination buffer", n, (unsigned long long)offset);
		return;
	}
	/* the values land at the end of the pipe: wait for it, then copy */
	xs_pm4_event_write(&l->pm4, V_028A90_CS_PARTIAL_FLUSH);
	xs_pm4_dma_data(&l->pm4, r->va + offset, h->va + 8ull * first, (uint64_t)n * 8);
	d3d12_list_use(l, r->va);
}
