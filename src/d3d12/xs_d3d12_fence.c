/*
 * ID3D12Fence1: a 64-bit value in GPU memory. The GPU writes it with
 * RELEASE_MEM (ID3D12CommandQueue::Signal), the host with Signal; waits run
 * the GPU model (it advances when the host looks). SetEventOnCompletion with
 * a NULL event blocks until the value is reached, as D3D12 documents; with
 * an event of XS12CreateEvent the event is set when a wait on it finds the
 * value reached. After a removal the value reads UINT64_MAX and waits return.
 */
#include "d3d12/xs_d3d12_private.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

static d3d12_fence *impl_from_ID3D12Fence1(ID3D12Fence1 *iface)
{
	return container_of(iface, d3d12_fence, iface);
}

static HRESULT STDMETHODCALLTYPE fence_QueryInterface(ID3D12Fence1 *This, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	if (iid_is(riid, &IID_ID3D12Fence) || iid_is(riid, &IID_ID3D12Fence1) || iid_is(riid, &IID_ID3D12Pageable) ||
	    iid_is(riid, &IID_ID3D12DeviceChild) || iid_is(riid, &IID_ID3D12Object) || iid_is(riid, &IID_IUnknown)) {
		ID3D12Fence1_AddRef(This);
		*out = This;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE fence_AddRef(ID3D12Fence1 *This)
{
	return atomic_fetch_add(&impl_from_ID3D12Fence1(This)->obj.refcount, 1) + 1;
}

static ULONG STDMETHODCALLTYPE fence_Release(ID3D12Fence1 *This)
{
	d3d12_fence *f = impl_from_ID3D12Fence1(This);
	ULONG n = atomic_fetch_sub(&f->obj.refcount, 1) - 1;
	if (!n) {
		xs_rt_fence_destroy(f->rt);
		d3d12_object_fini(&f->obj);
		free(f);
	}
	return n;
}

D3D12_OBJECT_METHODS(fence, ID3D12Fence1, d3d12_fence)

/* SetName also names the fence in deadlock reports. */
static HRESULT STDMETHODCALLTYPE fence_SetName_labelled(ID3D12Fence1 *This, LPCWSTR name)
{
	d3d12_fence *f = impl_from_ID3D12Fence1(This);
	HRESULT hr = fence_SetName(This, name);
	if (SUCCEEDED(hr)) {
		char lab[160];
		pthread_mutex_lock(&f->rt->dev->lock);
		snprintf(f->rt->name, sizeof(f->rt->name), "%s", d3d12_object_label(&f->obj, lab, sizeof(lab)));
		pthread_mutex_unlock(&f->rt->dev->lock);
	}
	return hr;
}

static UINT64 STDMETHODCALLTYPE fence_GetCompletedValue(ID3D12Fence1 *This)
{
	d3d12_fence *f = impl_from_ID3D12Fence1(This);
	UINT64 v = xs_rt_fence_completed(f->rt);
	d3d12_device_note_removal(f->obj.device);
	return v;
}

/* ---- events (the HANDLE of SetEventOnCompletion) ------------------------------------------ */

typedef struct xs12_event {
	uint32_t magic;
	int fd;                        /* an eventfd: readable once set */
	d3d12_fence *fence;            /* the pending completion, if any (AddRef'ed) */
	UINT64 value;
} xs12_event;
#define XS12_EVENT_MAGIC 0x78733132u

XS_D3D12_EXPORT HANDLE XS12CreateEvent(void)
{
	xs12_event *ev = xs_calloc(1, sizeof(*ev));
	if (!ev)
		return NULL;
	ev->magic = XS12_EVENT_MAGIC;
	ev->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ev->fd < 0) {
		free(ev);
		return NULL;
	}
	return ev;
}

static xs12_event *event_of(HANDLE h)
{
	xs12_event *ev = h;
	return ev && ev->magic == XS12_EVENT_MAGIC ? ev : NULL;
}

static void event_set(xs12_event *ev)
{
	uint64_t one = 1;
	if (write(ev->fd, &one, 8) < 0 && errno != EAGAIN)
		return;
}

XS_D3D12_EXPORT DWORD XS12WaitForEvent(HANDLE h, DWORD ms)
{
	xs12_event *ev = event_of(h);
	if (!ev)
		return 0xFFFFFFFFu; /* WAIT_FAILED */
	bool waited = false;
	if (ev->fence) {
		waited = true;
		/* The GPU runs when the host waits: wait for the completion the
		 * event stands for (a deadlock removes the device and returns). */
		xs_err e;
		if (ms == 0xFFFFFFFFu)
			xs_rt_fence_wait(ev->fence->rt, ev->value, &e);
		else
			xs_rt_fence_wait_timeout(ev->fence->rt, ev->value, ms / 1000.0);
		d3d12_device_note_removal(ev->fence->obj.device);
		if (*ev->fence->rt->value >= ev->value) {
			ID3D12Fence1_Release(&ev->fence->iface);
			ev->fence = NULL;
			event_set(ev);
		}
	}
	struct pollfd p = { ev->fd, POLLIN, 0 };
	int r = poll(&p, 1, waited ? 0 : ms == 0xFFFFFFFFu ? -1 : (int)XS_MIN(ms, (DWORD)INT32_MAX));
	if (r <= 0)
		return 0x102; /* WAIT_TIMEOUT */
	uint64_t v;
	if (read(ev->fd, &v, 8) < 0 && errno != EAGAIN)
		return 0xFFFFFFFFu;
	return 0; /* WAIT_OBJECT_0 */
}

XS_D3D12_EXPORT BOOL XS12CloseEvent(HANDLE h)
{
	xs12_event *ev = event_of(h);
	if (!ev)
		return FALSE;
	if (ev->fence)
		ID3D12Fence1_Release(&ev->fence->iface);
	close(ev->fd);
	ev->magic = 0;
	free(ev);
	return TRUE;
}

static HRESULT STDMETHODCALLTYPE fence_SetEventOnCompletion(ID3D12Fence1 *This, UINT64 value, HANDLE event)
{
	d3d12_fence *f = impl_from_ID3D12Fence1(This);
	if (!event) {
		xs_err e;
		xs_status st = xs_rt_fence_wait(f->rt, value, &e);
		d3d12_device_note_removal(f->obj.device);
		return st ? d3d12_hresult(st) : S_OK;
	}
	xs12_event *ev = event_of(event);
	if (!ev) {
		d3d12_message(f->obj.device, XS_MSG_NOT_IMPLEMENTED,
			      "SetEventOnCompletion: the event is not one of XS12CreateEvent");
		return E_INVALIDARG;
	}
	if (*f->rt->value >= value) {
		event_set(ev);
		return S_OK;
	}
	if (ev->fence)
		ID3D12Fence1_Release(&ev->fence->iface);
	ID3D12Fence1_AddRef(This);
	ev->fence = f;
	ev->value = value;
	return S_OK;
}

static HRESULT STDMETHODCALLTYPE fence_Signal(ID3D12Fence1 *This, UINT64 value)
{
	/* a removed device's fences stay at UINT64_MAX and the call fails, as
	 * D3D12's do (docs/architecture.md, "Removal") */
	return xs_rt_fence_host_signal(impl_from_ID3D12Fence1(This)->rt, value) ? S_OK : DXGI_ERROR_DEVICE_REMOVED;
}

static D3D12_FENCE_FLAGS STDMETHODCALLTYPE fence_GetCreationFlags(ID3D12Fence1 *This)
{
	return impl_from_ID3D12Fence1(This)->flags;
}

static const ID3D12Fence1Vtbl fence_vtbl = {
	XS_D3D12_STUBS_ID3D12Fence1,
	.QueryInterface = fence_QueryInterface, .AddRef = fence_AddRef, .Release = fence_Release,
	D3D12_OBJECT_SLOTS(fence), .SetName = fence_SetName_labelled,
	.GetCompletedValue = fence_GetCompletedValue, .SetEventOnCompletion = fence_SetEventOnCompletion,
	.Signal = fence_Signal, .GetCreationFlags = fence_GetCreationFlags,
};

d3d12_fence *d3d12_fence_from_iface(ID3D12Fence *iface)
{
	if (!iface || iface->lpVtbl != (const ID3D12FenceVtbl *)(const void *)&fence_vtbl)
		return NULL;
	return container_of((ID3D12Fence1 *)(void *)iface, d3d12_fence, iface);
}

HRESULT d3d12_fence_create(d3d12_device *d, UINT64 initial, D3D12_FENCE_FLAGS flags, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	d3d12_fence *f = xs_calloc(1, sizeof(*f));
	if (!f)
		return E_OUTOFMEMORY;
	f->iface.lpVtbl = &fence_vtbl;
	d3d12_object_init(&f->obj, d, "ID3D12Fence");
	f->flags = flags;
	xs_err e;
	if (xs_rt_fence_create(d->rt, initial, &f->rt, &e)) {
		d3d12_object_fini(&f->obj);
		free(f);
		return E_OUTOFMEMORY;
	}
	HRESULT hr = ID3D12Fence1_QueryInterface(&f->iface, riid, out);
	ID3D12Fence1_Release(&f->iface);
	return hr;
}
