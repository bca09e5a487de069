/*
 * ID3D12CommandQueue: a D3D12 queue on a hardware queue (DIRECT on the
 * graphics ring, queue 0; COMPUTE and COPY queues on the async compute
 * queues 1..3 in turn, sharing them beyond three as drivers do).
 * ExecuteCommandLists submits the lists' PM4 (written at Close); Signal
 * and Wait become RELEASE_MEM and WAIT_REG_MEM64 on the fence's memory.
 * The debug layer checks here what only submission can tell: lists that
 * are not closed or failed to Close, and scratch memory another unordered
 * use may still hold (S1.10).
 */
#include "d3d12/xs_d3d12_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static d3d12_queue *impl_from_ID3D12CommandQueue(ID3D12CommandQueue *iface)
{
	return container_of(iface, d3d12_queue, iface);
}

static HRESULT STDMETHODCALLTYPE queue_QueryInterface(ID3D12CommandQueue *This, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	if (iid_is(riid, &IID_ID3D12CommandQueue) || iid_is(riid, &IID_ID3D12Pageable) ||
	    iid_is(riid, &IID_ID3D12DeviceChild) || iid_is(riid, &IID_ID3D12Object) || iid_is(riid, &IID_IUnknown)) {
		ID3D12CommandQueue_AddRef(This);
		*out = This;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE queue_AddRef(ID3D12CommandQueue *This)
{
	return atomic_fetch_add(&impl_from_ID3D12CommandQueue(This)->obj.refcount, 1) + 1;
}

static ULONG STDMETHODCALLTYPE queue_Release(ID3D12CommandQueue *This)
{
	d3d12_queue *q = impl_from_ID3D12CommandQueue(This);
	ULONG n = atomic_fetch_sub(&q->obj.refcount, 1) - 1;
	if (!n) {
		d3d12_object_fini(&q->obj);
		free(q);
	}
	return n;
}

D3D12_OBJECT_METHODS(queue, ID3D12CommandQueue, d3d12_queue)

/* ---- S1.10: scratch memory reuse ------------------------------------------------------ */

/* Is a submitted use ordered before a new one on hardware queue n->hw? It
 * is when it has completed (the host waited), or a fence wait on the new
 * one's queue followed a signal after it; on the same queue, when both lay
 * the same ring over the memory (the SPI shares its slots), or a full flush
 * of the new list came before the new use (S1.7). */
static bool same_ring(const d3d12_scratch_use *a, const d3d12_scratch_use *b)
{
	return a->va == b->va && a->size == b->size && a->per_wave == b->per_wave && a->slots == b->slots;
}

static bool ordered(const d3d12_device *d, const d3d12_scratch_use *u, const d3d12_scratch_use *n)
{
	if (u->seq && xs_rt_queue_done(d->rt, u->hw) >= u->seq)
		return true;
	if (u->hw == n->hw)
		return same_ring(u, n) || n->epoch > 0;
	return u->seq && d->order[n->hw][u->hw] >= u->seq;
}

static bool overlap(const d3d12_scratch_use *a, const d3d12_scratch_use *b)
{
	return a->va < b->va + b->size && b->va < a->va + a->size;
}

static bool conflict(d3d12_queue *q, const d3d12_scratch_use *u, const d3d12_scratch_use *nu)
{
	d3d12_device *d = q->obj.device;
	if (!overlap(u, nu) || ordered(d, u, nu))
		return false;
	d3d12_message(d, XS_MSG_SCRATCH_REUSE,
		      "%s on %s points a scratch ring at 0x%llx (%llu bytes), which %s on hardware queue %u, %s and not "
		      "ordered before it by a fence wait or a flush, may still use (0x%llx, %llu bytes): the submission "
		      "does not run", nu->who, q->label, (unsigned long long)nu->va, (unsigned long long)nu->size, u->who,
		      u->hw, u->seq ? "submitted earlier" : "earlier in the same ExecuteCommandLists",
		      (unsigned long long)u->va, (unsigned long long)u->size);
	return true;
}

/* The debug layer's check of a submission's scratch uses against the
 * submitted ones and against those of the call's earlier lists; true if
 * the submission may run. */
static bool check_reuse(d3d12_queue *q, d3d12_list *const *lists, UINT n)
{
	d3d12_device *d = q->obj.device;
	/* completed uses are forgotten */
	UINT k = 0;
	for (UINT i = 0; i < d->nuses; i++)
		if (xs_rt_queue_done(d->rt, d->uses[i].hw) < d->uses[i].seq)
			d->uses[k++] = d->uses[i];
	d->nuses = k;
	for (UINT l = 0; l < n; l++)
		for (uint32_t i = 0; i < lists[l]->nuses; i++) {
			d3d12_scratch_use nu = lists[l]->uses[i];
			nu.hw = q->hw;
			for (UINT j = 0; j < d->nuses; j++)
				if (conflict(q, &d->uses[j], &nu))
					return false;
			/* a list of the same call runs after the earlier ones on the
			 * same queue, with no flush between lists */
			for (UINT e = 0; e < l; e++)
				for (uint32_t m = 0; m < lists[e]->nuses; m++) {
					d3d12_scratch_use eu = lists[e]->uses[m];
					eu.hw = q->hw;
					eu.seq = 0;
					if (conflict(q, &eu, &nu))
						return false;
				}
		}
	return true;
}

static void remember_uses(d3d12_queue *q, d3d12_list *l, uint64_t seq)
{
	d3d12_device *d = q->obj.device;
	for (uint32_t i = 0; i < l->nuses; i++) {
		if (d->nuses == d->cap_uses) {
			UINT ncap = d->cap_uses ? 2 * d->cap_uses : 32;
			d3d12_scratch_use *u = xs_realloc(d->uses, ncap * sizeof(*u));
			if (!u)
				return;
			d->uses = u;
			d->cap_uses = ncap;
		}
		d3d12_scratch_use u = l->uses[i];
		u.hw = q->hw;
		u.seq = seq;
		/* one entry per range and queue: the latest */
		bool merged = false;
		for (UINT j = 0; j < d->nuses && !merged; j++)
			if (d->uses[j].hw == u.hw && same_ring(&d->uses[j], &u)) {
				d->uses[j].seq = seq;
				merged = true;
			}
		if (!merged)
			d->uses[d->nuses++] = u;
	}
}

/* The resources behind the addresses the list uses: in use until seq
 * completes (the debug layer's RESOURCE_IN_USE at release). */
static void mark_resources(d3d12_queue *q, d3d12_list *l, uint64_t seq)
{
	d3d12_device *d = q->obj.device;
	if (!l->nused)
		return;
	pthread_mutex_lock(&d->rt->lock);
	for (uint32_t i = 0; i < l->nused; i++) {
		const xs_vm_alloc_rec *rec = xs_vm_find(d->rt->vm, l->used_va[i]);
		d3d12_resource *r = rec ? rec->owner : NULL;
		if (r && seq > r->last_use_seq[q->hw])
			r->last_use_seq[q->hw] = seq;
	}
	pthread_mutex_unlock(&d->rt->lock);
}

/* ---- DRED breadcrumbs of an execution ---------------------------------------------------- */

static void note_breadcrumbs(d3d12_queue *q, d3d12_list *l, uint64_t seq)
{
	d3d12_device *d = q->obj.device;
	if (!d->dred_breadcrumbs || !l->nops || !l->crumb)
		return;
	/* Executions that completed are forgotten (their allocators may be
	 * reset); DRED shows what was in flight. */
	UINT k = 0;
	for (UINT i = 0; i < d->ncrumbs; i++) {
		if (xs_rt_queue_done(d->rt, d->crumbs[i].hw) >= d->crumbs[i].seq)
			free(d->crumbs[i].ops);
		else
			d->crumbs[k++] = d->crumbs[i];
	}
	d->ncrumbs = k;
	d3d12_breadcrumb_list *n = xs_realloc(d->crumbs, (d->ncrumbs + 1) * sizeof(*n));
	if (!n)
		return;
	d->crumbs = n;
	d3d12_breadcrumb_list *c = &d->crumbs[d->ncrumbs];
	memset(c, 0, sizeof(*c));
	if (!(c->ops = xs_malloc(l->nops * sizeof(*c->ops))))
		return;
	memcpy(c->ops, l->ops, l->nops * sizeof(*c->ops));
	d3d12_object_label(&l->obj, c->list_name, sizeof(c->list_name));
	snprintf(c->queue_name, sizeof(c->queue_name), "%s", q->label);
	snprintf(c->list_debug_name, sizeof(c->list_debug_name), "%s", l->obj.name);
	snprintf(c->queue_debug_name, sizeof(c->queue_debug_name), "%s", q->obj.name);
	c->node.BreadcrumbCount = l->nops;
	c->node.pCommandHistory = c->ops;
	c->node.pCommandList = (ID3D12GraphicsCommandList *)(void *)&l->iface;
	c->node.pCommandQueue = &q->iface;
	c->word = l->crumb;
	c->alloc = l->allocator; /* l->crumb is in its memory (d3d12_dred_allocator_gone) */
	c->hw = q->hw;
	c->seq = seq;
	c->node.pLastBreadcrumbValue = (const UINT *)l->crumb; /* live until a removal copies it */
	d->ncrumbs++;
}

static void STDMETHODCALLTYPE queue_ExecuteCommandLists(ID3D12CommandQueue *This, UINT n, ID3D12CommandList *const *in)
{
	d3d12_queue *q = impl_from_ID3D12CommandQueue(This);
	d3d12_device *d = q->obj.device;
	d3d12_list *lists[64];
	if (n > 64) {
		d3d12_message(d, XS_MSG_LIST_TYPE, "ExecuteCommandLists: %u lists at once: xs12 takes at most 64", n);
		return;
	}
	for (UINT i = 0; i < n; i++) {
		d3d12_list *l = lists[i] = in ? d3d12_list_from_command_list(in[i]) : NULL;
		char lab[200];
		if (!l) {
			d3d12_message(d, XS_MSG_LIST_TYPE, "ExecuteCommandLists: list %u is not an xs12 command list", i);
			return;
		}
		if (l->open) {
			d3d12_message(d, XS_MSG_LIST_NOT_CLOSED, "ExecuteCommandLists on %s: %s is still open (not closed): "
				      "nothing of the call runs", q->label, d3d12_object_label(&l->obj, lab, sizeof(lab)));
			return;
		}
		if (l->err.status) {
			d3d12_message(d, XS_MSG_LIST_CLOSE_FAILED, "ExecuteCommandLists on %s: %s failed to Close (%s): "
				      "nothing of the call runs", q->label, d3d12_object_label(&l->obj, lab, sizeof(lab)),
				      l->err.msg);
			return;
		}
		if (l->type != q->desc.Type) {
			d3d12_message(d, XS_MSG_LIST_TYPE, "ExecuteCommandLists on %s: %s is a list of type %d, the queue "
				      "takes type %d", q->label, d3d12_object_label(&l->obj, lab, sizeof(lab)), (int)l->type,
				      (int)q->desc.Type);
			return;
		}
	}
	pthread_mutex_lock(&d->submit_lock);
	if (d->debug && !check_reuse(q, lists, n)) {
		pthread_mutex_unlock(&d->submit_lock);
		return;
	}
	for (UINT i = 0; i < n; i++) {
		d3d12_list *l = lists[i];
		if (!l->pm4.cdw && !l->pm4_va)
			continue; /* an empty list */
		uint64_t seq = 0;
		xs_err e;
		uint32_t nres = l->ndispatches + l->ndraws; /* one result per DISPATCH_* and DRAW_* packet */
		xs_gpu_dispatch_result *res = d3d12_exec_begin(d, l->id, nres);
		if (!res || xs_rt_submit(d->rt, q->hw, l->pm4_va, (uint32_t)l->pm4.cdw, res, nres, &seq, &e)) {
			if (res)
				d3d12_exec_failed(d);
			else
				xs_err_set(&e, XS_E_OUT_OF_MEMORY, "host out of memory");
			d3d12_message_err(d, &e);
			/* ExecuteCommandLists returns nothing: lists it could not
			 * submit for want of host memory remove the device (reason
			 * E_OUTOFMEMORY), so no fence says that their work ran */
			if (e.status == XS_E_OUT_OF_MEMORY) {
				xs_err_prefix(&e, "ExecuteCommandLists on %s", q->label);
				xs_rt_remove(d->rt, &e);
			}
			break;
		}
		d3d12_exec_submitted(d, q->hw, seq);
		if (l->allocator && seq > l->allocator->last_seq[q->hw])
			l->allocator->last_seq[q->hw] = seq;
		remember_uses(q, l, seq);
		note_breadcrumbs(q, l, seq);
		mark_resources(q, l, seq);
	}
	pthread_mutex_unlock(&d->submit_lock);
}

static HRESULT STDMETHODCALLTYPE queue_Signal(ID3D12CommandQueue *This, ID3D12Fence *fence, UINT64 value)
{
	d3d12_queue *q = impl_from_ID3D12CommandQueue(This);
	d3d12_fence *f = d3d12_fence_from_iface(fence);
	if (!f)
		return E_INVALIDARG;
	d3d12_device *d = q->obj.device;
	xs_err e;
	uint64_t seq;
	pthread_mutex_lock(&d->submit_lock);
	xs_status st = xs_rt_queue_signal(d->rt, q->hw, f->rt, value, &seq, &e);
	if (!st) { /* remembered for the order of waits on it (S1.10) */
		d->signals[d->nsignals % XS_ARRAY_SIZE(d->signals)].fence = f->rt;
		d->signals[d->nsignals % XS_ARRAY_SIZE(d->signals)].value = value;
		d->signals[d->nsignals % XS_ARRAY_SIZE(d->signals)].seq = seq;
		d->signals[d->nsignals % XS_ARRAY_SIZE(d->signals)].hw = q->hw;
		d->nsignals++;
	}
	pthread_mutex_unlock(&d->submit_lock);
	if (st)
		d3d12_message_err(d, &e);
	return d3d12_hresult(st);
}

static HRESULT STDMETHODCALLTYPE queue_Wait(ID3D12CommandQueue *This, ID3D12Fence *fence, UINT64 value)
{
	d3d12_queue *q = impl_from_ID3D12CommandQueue(This);
	d3d12_fence *f = d3d12_fence_from_iface(fence);
	if (!f)
		return E_INVALIDARG;
	d3d12_device *d = q->obj.device;
	xs_err e;
	pthread_mutex_lock(&d->submit_lock);
	xs_status st = xs_rt_queue_wait(d->rt, q->hw, f->rt, value, NULL, &e);
	if (!st) {
		/* Work after the wait follows, on each queue, the first signal that
		 * satisfies it (a host Signal would order nothing). */
		UINT n = XS_MIN(d->nsignals, (UINT)XS_ARRAY_SIZE(d->signals));
		for (unsigned o = 0; o < XS_GPU_MAX_QUEUES; o++) {
			uint64_t first = 0;
			for (UINT i = 0; i < n; i++)
				if (d->signals[i].fence == f->rt && d->signals[i].value >= value && d->signals[i].hw == o &&
				    (!first || d->signals[i].seq < first))
					first = d->signals[i].seq;
			if (first > d->order[q->hw][o])
				d->order[q->hw][o] = first;
		}
	}
	pthread_mutex_unlock(&d->submit_lock);
	if (st)
		d3d12_message_err(d, &e);
	return d3d12_hresult(st);
}

static HRESULT STDMETHODCALLTYPE queue_GetTimestampFrequency(ID3D12CommandQueue *This, UINT64 *freq)
{
	if (!freq)
		return E_INVALIDARG;
	/* RELEASE_MEM timestamps count shader-clock cycles here */
	*freq = (UINT64)impl_from_ID3D12CommandQueue(This)->obj.device->rt->info->sclk_mhz * 1000000;
	return S_OK;
}

static HRESULT STDMETHODCALLTYPE queue_GetClockCalibration(ID3D12CommandQueue *This, UINT64 *gpu, UINT64 *cpu)
{
	if (!gpu || !cpu)
		return E_INVALIDARG;
	*gpu = 0; /* simulated time does not follow the host's */
	*cpu = (UINT64)(xs_now_seconds() * 1e9);
	return S_OK;
}

static D3D12_COMMAND_QUEUE_DESC STDMETHODCALLTYPE queue_GetDesc(ID3D12CommandQueue *This)
{
	return impl_from_ID3D12CommandQueue(This)->desc;
}

static void STDMETHODCALLTYPE queue_SetMarker(ID3D12CommandQueue *This, UINT meta, const void *data, UINT size) {}
static void STDMETHODCALLTYPE queue_BeginEvent(ID3D12CommandQueue *This, UINT meta, const void *data, UINT size) {}
static void STDMETHODCALLTYPE queue_EndEvent(ID3D12CommandQueue *This) {}

static const ID3D12CommandQueueVtbl queue_vtbl = {
	XS_D3D12_STUBS_ID3D12CommandQueue,
	.QueryInterface = queue_QueryInterface, .AddRef = queue_AddRef, .Release = queue_Release,
	D3D12_OBJECT_SLOTS(queue),
	.ExecuteCommandLists = queue_ExecuteCommandLists, .Signal = queue_Signal, .Wait = queue_Wait,
	.GetTimestampFrequency = queue_GetTimestampFrequency, .GetClockCalibration = queue_GetClockCalibration,
	.GetDesc = queue_GetDesc, .SetMarker = queue_SetMarker, .BeginEvent = queue_BeginEvent,
	.EndEvent = queue_EndEvent,
};

HRESULT d3d12_queue_create(d3d12_device *d, const D3D12_COMMAND_QUEUE_DESC *desc, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	if (!desc || desc->NodeMask > 1 ||
	    (desc->Type != D3D12_COMMAND_LIST_TYPE_DIRECT && desc->Type != D3D12_COMMAND_LIST_TYPE_COMPUTE &&
	     desc->Type != D3D12_COMMAND_LIST_TYPE_COPY)) {
		d3d12_message(d, XS_MSG_LIST_TYPE, "CreateCommandQueue: type %d: xs12 makes DIRECT, COMPUTE and COPY queues",
			      desc ? (int)desc->Type : -1);
		return E_INVALIDARG;
	}
	d3d12_queue *q = xs_calloc(1, sizeof(*q));
	if (!q)
		return E_OUTOFMEMORY;
	q->iface.lpVtbl = &queue_vtbl;
	d3d12_object_init(&q->obj, d, "ID3D12CommandQueue");
	q->desc = *desc;
	if (desc->Type == D3D12_COMMAND_LIST_TYPE_DIRECT) {
		q->hw = 0;
	} else {
		q->hw = 1 + __atomic_fetch_add(&d->compute_queues, 1, __ATOMIC_RELAXED) % (XS_GPU_MAX_QUEUES - 1);
	}
	snprintf(q->label, sizeof(q->label), "the %s queue (hardware queue %u)",
		 desc->Type == D3D12_COMMAND_LIST_TYPE_DIRECT ? "direct" : desc->Type == D3D12_COMMAND_LIST_TYPE_COMPUTE
												? "compute" : "copy",
		 q->hw);
	HRESULT hr = ID3D12CommandQueue_QueryInterface(&q->iface, riid, out);
	ID3D12CommandQueue_Release(&q->iface);
	return hr;
}
