/*
 * The library's D3D12 entry points, the functions d3d12.h declares and a
 * program calls by name: D3D12CreateDevice, D3D12GetDebugInterface, the
 * root signature serializers, and xs12's XS12CreateDevice for a device of
 * chosen settings (d3d12_xs.h). Everything else of libxs12 is hidden.
 *
 * As D3D12, D3D12CreateDevice returns the live device if there is one
 * (one adapter here: the simulated GPU); XS12CreateDevice always makes a
 * new one.
 */
#include "d3d12/xs_d3d12_private.h"

#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t default_lock = PTHREAD_MUTEX_INITIALIZER;
static d3d12_device *default_device;

void d3d12_device_forget(d3d12_device *d)
{
	pthread_mutex_lock(&default_lock);
	if (default_device == d)
		default_device = NULL;
	pthread_mutex_unlock(&default_lock);
}

/* AddRef unless the count already reached 0 (the device is going). */
static bool try_addref(d3d12_device *d)
{
	unsigned n = atomic_load(&d->obj.refcount);
	while (n)
		if (atomic_compare_exchange_weak(&d->obj.refcount, &n, n + 1))
			return true;
	return false;
}

XS_D3D12_EXPORT HRESULT WINAPI D3D12CreateDevice(IUnknown *adapter, D3D_FEATURE_LEVEL level, REFIID riid, void **out)
{
	(void)adapter; /* one adapter: the simulated GPU */
	/* RDNA2 with DXR 1.1 and mesh shaders in hardware: feature level 12_2 */
	if (level < D3D_FEATURE_LEVEL_11_0 || level > D3D_FEATURE_LEVEL_12_2) {
		fprintf(stderr, "xs12 D3D12: D3D12CreateDevice: minimum feature level 0x%x: the GPU offers 11_0 to 12_2\n",
			(unsigned)level);
		return E_INVALIDARG;
	}
	if (!out)
		return S_FALSE; /* "would succeed", as D3D12 answers a NULL ppDevice */
	*out = NULL;
	/* The reference taken here is dropped only after default_lock is
	 * released: when QueryInterface fails (an IID the device does not
	 * answer) it can be the last one, and device_Release then calls
	 * d3d12_device_forget, which takes default_lock (not recursive). */
	d3d12_device *held = NULL;
	HRESULT hr;
	pthread_mutex_lock(&default_lock);
	if (default_device && try_addref(default_device)) {
		held = default_device;
		hr = d3d12_device_query(held, riid, out);
	} else {
		XS12_DEVICE_DESC desc = { .Machine = XS12_MACHINE_SERIES_X };
		void *dev = NULL;
		hr = d3d12_device_create(&desc, &IID_ID3D12Device, &dev);
		if (SUCCEEDED(hr)) {
			held = default_device = container_of(dev, d3d12_device, iface);
			hr = d3d12_device_query(held, riid, out);
		}
	}
	pthread_mutex_unlock(&default_lock);
	if (held)
		d3d12_device_release(held);
	return hr;
}

XS_D3D12_EXPORT HRESULT WINAPI XS12CreateDevice(const XS12_DEVICE_DESC *desc, REFIID riid, void **out)
{
	XS12_DEVICE_DESC def = { .Machine = XS12_MACHINE_SERIES_X };
	return d3d12_device_create(desc ? desc : &def, riid, out);
}

XS_D3D12_EXPORT HRESULT WINAPI D3D12GetDebugInterface(REFIID riid, void **out)
{
	return d3d12_debug_get_interface(riid, out);
}

XS_D3D12_EXPORT HRESULT WINAPI D3D12SerializeRootSignature(const D3D12_ROOT_SIGNATURE_DESC *desc,
							    D3D_ROOT_SIGNATURE_VERSION version, ID3DBlob **blob,
							    ID3DBlob **error)
{
	if (error)
		*error = NULL;
	if (!desc || !blob)
		return E_INVALIDARG;
	if (version != D3D_ROOT_SIGNATURE_VERSION_1_0)
		return E_INVALIDARG; /* D3D12SerializeRootSignature takes 1.0 descriptions only */
	D3D12_VERSIONED_ROOT_SIGNATURE_DESC vd = { .Version = D3D_ROOT_SIGNATURE_VERSION_1_0, .Desc_1_0 = *desc };
	return d3d12_root_signature_serialize(&vd, blob, error);
}

XS_D3D12_EXPORT HRESULT WINAPI D3D12SerializeVersionedRootSignature(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *desc,
								     ID3DBlob **blob, ID3DBlob **error)
{
	if (error)
		*error = NULL;
	if (!desc || !blob)
		return E_INVALIDARG;
	return d3d12_root_signature_serialize(desc, blob, error);
}
