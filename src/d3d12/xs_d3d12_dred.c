/*
 * DRED (ID3D12DeviceRemovedExtendedData2): what the GPU was doing when the
 * device was removed, as D3D12's Device Removed Extended Data gives it.
 *
 *   auto-breadcrumbs  each command list of an execution still in flight,
 *                     its ops and how many the GPU completed: the list's
 *                     breadcrumb word, written at the end of the pipe after
 *                     each op's work (d3d12_list_breadcrumb)
 *   page fault        the faulting GPU address, the live allocations and
 *                     the recently freed ones within 64 KB of it
 *
 * Both must be enabled before the device is created
 * (ID3D12DeviceRemovedExtendedDataSettings, as in D3D12). The removal's
 * report also goes to stderr once, with the breadcrumbs and the fault's
 * place, so a removal in a test log explains itself.
 */
#include "d3d12/xs_d3d12_private.h"

#include <stdio.h>
#include <string.h>

#define DRED_WINDOW (64u << 10)

static d3d12_device *impl_from_dred(ID3D12DeviceRemovedExtendedData2 *iface)
{
	return container_of(iface, d3d12_device, dred_iface);
}

static HRESULT STDMETHODCALLTYPE dred_QueryInterface(ID3D12DeviceRemovedExtendedData2 *This, REFIID riid, void **out)
{
	return d3d12_device_query(impl_from_dred(This), riid, out);
}

static ULONG STDMETHODCALLTYPE dred_AddRef(ID3D12DeviceRemovedExtendedData2 *This)
{
	return ID3D12Device5_AddRef(&impl_from_dred(This)->iface);
}

static ULONG STDMETHODCALLTYPE dred_Release(ID3D12DeviceRemovedExtendedData2 *This)
{
	return ID3D12Device5_Release(&impl_from_dred(This)->iface);
}

const char *d3d12_breadcrumb_op_name(D3D12_AUTO_BREADCRUMB_OP op)
{
	switch ((int)op) {
	case D3D12_AUTO_BREADCRUMB_OP_SETMARKER: return "SetMarker";
	case D3D12_AUTO_BREADCRUMB_OP_BEGINEVENT: return "BeginEvent";
	case D3D12_AUTO_BREADCRUMB_OP_ENDEVENT: return "EndEvent";
	case D3D12_AUTO_BREADCRUMB_OP_EXECUTEINDIRECT: return "ExecuteIndirect";
	case D3D12_AUTO_BREADCRUMB_OP_DISPATCH: return "Dispatch";
	case D3D12_AUTO_BREADCRUMB_OP_COPYBUFFERREGION: return "CopyBufferRegion";
	case D3D12_AUTO_BREADCRUMB_OP_COPYRESOURCE: return "CopyResource";
	case D3D12_AUTO_BREADCRUMB_OP_RESOURCEBARRIER: return "ResourceBarrier";
	case D3D12_AUTO_BREADCRUMB_OP_DISPATCHRAYS: return "DispatchRays";
	case (int)XS12_AUTO_BREADCRUMB_OP_SETSHADERSCRATCHSPACEX: return "SetShaderScratchSpaceX";
	case (int)XS12_AUTO_BREADCRUMB_OP_DISPATCHRAYSX: return "DispatchRaysX";
	case (int)XS12_AUTO_BREADCRUMB_OP_SETCOMPUTESHADERLAUNCHPARAMETERSX: return "SetComputeShaderLaunchParametersX";
	case (int)XS12_AUTO_BREADCRUMB_OP_SETGRAPHICSSHADERLIMITSX: return "SetGraphicsShaderLimitsX";
	default: return "op";
	}
}

static D3D12_DRED_ALLOCATION_TYPE allocation_type(const char *name)
{
	if (!name)
		return D3D12_DRED_ALLOCATION_TYPE_HEAP;
	if (!strncmp(name, "ID3D12Resource", 14))
		return D3D12_DRED_ALLOCATION_TYPE_RESOURCE;
	if (strstr(name, "command allocator"))
		return D3D12_DRED_ALLOCATION_TYPE_COMMAND_ALLOCATOR;
	if (strstr(name, "fence"))
		return D3D12_DRED_ALLOCATION_TYPE_FENCE;
	if (strstr(name, "code object"))
		return D3D12_DRED_ALLOCATION_TYPE_PIPELINE_STATE;
	if (strstr(name, "queue"))
		return D3D12_DRED_ALLOCATION_TYPE_COMMAND_QUEUE;
	return D3D12_DRED_ALLOCATION_TYPE_HEAP; /* the driver's own memory (default scratch, ...) */
}

/* A breadcrumb entry reads the count the GPU reached through a pointer
 * (word) into the command memory of the allocator its list was recorded
 * from, and completed entries stay until the next ExecuteCommandLists with
 * breadcrumbs prunes them. So when that memory is reset or freed, the
 * entries of the allocator copy the count into completed and drop the
 * pointer (word NULL: completed holds it): no entry outlives the memory it
 * points into, and another list recorded into the Reset allocator's bytes
 * cannot show its count through an old entry. The copy is final: Reset and
 * the freeing Release happen only once the allocator's lists completed
 * (in flight, Reset is refused and Release abandons the memory, which
 * stays until the device goes: those entries keep their pointer and only
 * forget the allocator, whose address may be reused). The lock is the
 * removal's, which reads the words too. */
void d3d12_dred_allocator_gone(d3d12_device *d, const d3d12_allocator *a, bool kept)
{
	pthread_mutex_lock(&d->submit_lock);
	for (UINT i = 0; i < d->ncrumbs; i++) {
		d3d12_breadcrumb_list *c = &d->crumbs[i];
		if (c->alloc != a)
			continue;
		c->alloc = NULL;
		if (!kept && c->word) {
			c->completed = *c->word;
			c->word = NULL;
		}
	}
	pthread_mutex_unlock(&d->submit_lock);
}

/* Allocation nodes near va: a chain of up to 4 in nodes[first...]. */
static const D3D12_DRED_ALLOCATION_NODE1 *fault_chain(d3d12_device *d, uint64_t va, bool freed, unsigned first)
{
	const xs_vm_alloc_rec *near[4];
	uint32_t n = xs_vm_near(d->rt->vm, va, DRED_WINDOW, freed, near, 4);
	for (uint32_t i = 0; i < n; i++) {
		D3D12_DRED_ALLOCATION_NODE1 *a = &d->fault_nodes[first + i];
		D3D12_DRED_ALLOCATION_NODE *a0 = &d->fault_nodes0[first + i];
		snprintf(d->fault_names[first + i], sizeof(d->fault_names[0]), "%s [0x%llx, +%llu)",
			 near[i]->name ? near[i]->name : "(unnamed)", (unsigned long long)near[i]->va,
			 (unsigned long long)near[i]->bytes);
		a->ObjectNameA = a0->ObjectNameA = d->fault_names[first + i];
		a->AllocationType = a0->AllocationType = allocation_type(near[i]->name);
		a->pNext = i + 1 < n ? &d->fault_nodes[first + i + 1] : NULL;
		a0->pNext = i + 1 < n ? &d->fault_nodes0[first + i + 1] : NULL;
	}
	return n ? &d->fault_nodes[first] : NULL;
}

void d3d12_device_note_removal(d3d12_device *d)
{
	const xs_err *why = xs_rt_removed(d->rt);
	if (!why)
		return;
	pthread_mutex_lock(&d->submit_lock);
	if (d->removal_noted) {
		pthread_mutex_unlock(&d->submit_lock);
		return;
	}
	d->removal_noted = true;
	/* Breadcrumbs: the executions in flight, with the count the GPU reached. */
	for (UINT i = 0; i < d->ncrumbs; i++) {
		d3d12_breadcrumb_list *c = &d->crumbs[i];
		if (c->word) /* NULL: its allocator's memory went, completed holds the copy */
			c->completed = *c->word;
		c->word = NULL;
		c->node.pLastBreadcrumbValue = &c->completed;
		/* the names SetName gave, as D3D12's DRED has them */
		c->node.pCommandListDebugNameA = c->list_debug_name[0] ? c->list_debug_name : NULL;
		c->node.pCommandQueueDebugNameA = c->queue_debug_name[0] ? c->queue_debug_name : NULL;
		c->node.pNext = i + 1 < d->ncrumbs ? &d->crumbs[i + 1].node : NULL;
		memcpy(&c->node0, &c->node, offsetof(D3D12_AUTO_BREADCRUMB_NODE, pNext));
		c->node0.pNext = i + 1 < d->ncrumbs ? &d->crumbs[i + 1].node0 : NULL;
	}
	const xs_fault *f = &d->rt->removed_fault;
	if (f->kind == XS_FAULT_VM && d->dred_page_faults) {
		d->fault.PageFaultVA = f->addr;
		d->fault.pHeadExistingAllocationNode = fault_chain(d, f->addr, false, 0);
		d->fault.pHeadRecentFreedAllocationNode = fault_chain(d, f->addr, true, 4);
	}
	/* The report, once: one message (the debug layer stores it; stderr
	 * shows it either way), with the breadcrumbs and the fault's place. */
	HRESULT hr = d3d12_device_removed_reason(d);
	char text[4096];
	size_t n = (size_t)snprintf(text, sizeof(text), "device removed (%s): %s",
				    hr == DXGI_ERROR_DEVICE_HUNG ? "DXGI_ERROR_DEVICE_HUNG"
				    : hr == E_OUTOFMEMORY	 ? "E_OUTOFMEMORY"
								 : "DXGI_ERROR_DEVICE_RESET", why->msg);
	for (UINT i = 0; i < d->ncrumbs && n < sizeof(text) - 200; i++) {
		const d3d12_breadcrumb_list *c = &d->crumbs[i];
		n += (size_t)snprintf(text + n, sizeof(text) - n, "\n  DRED: %s on %s completed %u of %u ops:", c->list_name,
				      c->queue_name, c->completed, c->node.BreadcrumbCount);
		for (UINT k = 0; k < c->node.BreadcrumbCount && k < 32 && n < sizeof(text) - 100; k++)
			n += (size_t)snprintf(text + n, sizeof(text) - n, " %s%s", d3d12_breadcrumb_op_name(c->ops[k]),
					      k == c->completed ? " <- here" : "");
	}
	if (d->rt->removed_positions[0] && n < sizeof(text) - 100)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "\n  command processors: %s", d->rt->removed_positions);
	if (f->kind == XS_FAULT_VM && n < sizeof(text) - 100) {
		char where[400];
		xs_vm_describe(d->rt->vm, f->addr, where, sizeof(where));
		snprintf(text + n, sizeof(text) - n, "\n  page fault at 0x%llx: %s", (unsigned long long)f->addr, where);
	}
	xs_rt_msg_id id = why->id ? (xs_rt_msg_id)why->id : XS_MSG_DEVICE_REMOVED;
	pthread_mutex_unlock(&d->submit_lock);
	const xs_rt_msg_info *m = xs_rt_msg(id);
	d3d12_info_queue_add(d, (D3D12_MESSAGE_CATEGORY)m->category, (D3D12_MESSAGE_SEVERITY)m->severity,
			     d3d12_message_id(id), text);
}

static HRESULT not_available(d3d12_device *d, bool enabled)
{
	d3d12_device_note_removal(d);
	if (!enabled)
		return DXGI_ERROR_UNSUPPORTED; /* not enabled before the device was made */
	return xs_rt_removed(d->rt) ? S_OK : DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;
}

static HRESULT STDMETHODCALLTYPE dred_GetAutoBreadcrumbsOutput(ID3D12DeviceRemovedExtendedData2 *This,
							       D3D12_DRED_AUTO_BREADCRUMBS_OUTPUT *out)
{
	d3d12_device *d = impl_from_dred(This);
	HRESULT hr = not_available(d, d->dred_breadcrumbs);
	if (!out)
		return E_INVALIDARG;
	out->pHeadAutoBreadcrumbNode = SUCCEEDED(hr) && d->ncrumbs ? &d->crumbs[0].node0 : NULL;
	return hr;
}

static HRESULT STDMETHODCALLTYPE dred_GetAutoBreadcrumbsOutput1(ID3D12DeviceRemovedExtendedData2 *This,
								D3D12_DRED_AUTO_BREADCRUMBS_OUTPUT1 *out)
{
	d3d12_device *d = impl_from_dred(This);
	HRESULT hr = not_available(d, d->dred_breadcrumbs);
	if (!out)
		return E_INVALIDARG;
	out->pHeadAutoBreadcrumbNode = SUCCEEDED(hr) && d->ncrumbs ? &d->crumbs[0].node : NULL;
	return hr;
}

static HRESULT STDMETHODCALLTYPE dred_GetPageFaultAllocationOutput(ID3D12DeviceRemovedExtendedData2 *This,
								   D3D12_DRED_PAGE_FAULT_OUTPUT *out)
{
	d3d12_device *d = impl_from_dred(This);
	HRESULT hr = not_available(d, d->dred_page_faults);
	if (!out)
		return E_INVALIDARG;
	memset(out, 0, sizeof(*out));
	if (SUCCEEDED(hr)) {
		out->PageFaultVA = d->fault.PageFaultVA;
		out->pHeadExistingAllocationNode = d->fault.pHeadExistingAllocationNode ? &d->fault_nodes0[0] : NULL;
		out->pHeadRecentFreedAllocationNode = d->fault.pHeadRecentFreedAllocationNode ? &d->fault_nodes0[4] : NULL;
	}
	return hr;
}

static HRESULT STDMETHODCALLTYPE dred_GetPageFaultAllocationOutput1(ID3D12DeviceRemovedExtendedData2 *This,
								    D3D12_DRED_PAGE_FAULT_OUTPUT1 *out)
{
	d3d12_device *d = impl_from_dred(This);
	HRESULT hr = not_available(d, d->dred_page_faults);
	if (!out)
		return E_INVALIDARG;
	memset(out, 0, sizeof(*out));
	if (SUCCEEDED(hr)) {
		out->PageFaultVA = d->fault.PageFaultVA;
		out->pHeadExistingAllocationNode = d->fault.pHeadExistingAllocationNode;
		out->pHeadRecentFreedAllocationNode = d->fault.pHeadRecentFreedAllocationNode;
	}
	return hr;
}

static HRESULT STDMETHODCALLTYPE dred_GetPageFaultAllocationOutput2(ID3D12DeviceRemovedExtendedData2 *This,
								    D3D12_DRED_PAGE_FAULT_OUTPUT2 *out)
{
	d3d12_device *d = impl_from_dred(This);
	HRESULT hr = not_available(d, d->dred_page_faults);
	if (!out)
		return E_INVALIDARG;
	memset(out, 0, sizeof(*out));
	if (SUCCEEDED(hr))
		*out = d->fault;
	return hr;
}

static D3D12_DRED_DEVICE_STATE STDMETHODCALLTYPE dred_GetDeviceState(ID3D12DeviceRemovedExtendedData2 *This)
{
	d3d12_device *d = impl_from_dred(This);
	d3d12_device_note_removal(d);
	if (!xs_rt_removed(d->rt))
		return D3D12_DRED_DEVICE_STATE_UNKNOWN;
	switch (d->rt->removed_fault.kind) {
	case XS_FAULT_VM: return D3D12_DRED_DEVICE_STATE_PAGEFAULT;
	case XS_FAULT_HANG: case XS_FAULT_WATCHDOG: return D3D12_DRED_DEVICE_STATE_HUNG;
	default: return D3D12_DRED_DEVICE_STATE_FAULT;
	}
}

const ID3D12DeviceRemovedExtendedData2Vtbl d3d12_dred_vtbl = {
	.QueryInterface = dred_QueryInterface, .AddRef = dred_AddRef, .Release = dred_Release,
	.GetAutoBreadcrumbsOutput = dred_GetAutoBreadcrumbsOutput,
	.GetPageFaultAllocationOutput = dred_GetPageFaultAllocationOutput,
	.GetAutoBreadcrumbsOutput1 = dred_GetAutoBreadcrumbsOutput1,
	.GetPageFaultAllocationOutput1 = dred_GetPageFaultAllocationOutput1,
	.GetPageFaultAllocationOutput2 = dred_GetPageFaultAllocationOutput2,
	.GetDeviceState = dred_GetDeviceState,
};
