/* What every D3D12 object has: a reference count, its device, a name and
 * private data (ID3D12Object); and ID3DBlob. */
#include "d3d12/xs_d3d12_private.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

void d3d12_object_init(d3d12_object *o, d3d12_device *device, const char *kind)
{
	memset(o, 0, sizeof(*o));
	atomic_init(&o->refcount, 1);
	o->device = device;
	o->kind = kind;
	pthread_mutex_init(&o->lock, NULL);
	if (device)
		d3d12_device_addref(device);
}

void d3d12_object_fini(d3d12_object *o)
{
	for (uint32_t i = 0; i < o->npriv; i++) {
		if (o->priv[i].iface)
			IUnknown_Release(o->priv[i].iface);
		free(o->priv[i].data);
	}
	free(o->priv);
	pthread_mutex_destroy(&o->lock);
	if (o->device)
		d3d12_device_release(o->device);
}

static d3d12_private_data *find(d3d12_object *o, REFGUID guid)
{
	for (uint32_t i = 0; i < o->npriv; i++)
		if (iid_is(guid, &o->priv[i].guid))
			return &o->priv[i];
	return NULL;
}

HRESULT d3d12_object_get_private_data(d3d12_object *o, REFGUID guid, UINT *size, void *data)
{
	if (!guid || !size)
		return E_INVALIDARG;
	pthread_mutex_lock(&o->lock);
	d3d12_private_data *p = find(o, guid);
	HRESULT hr = S_OK;
	if (!p) {
		*size = 0;
		hr = DXGI_ERROR_NOT_FOUND;
	} else if (p->iface) {
		if (data && *size < sizeof(IUnknown *))
			hr = DXGI_ERROR_MORE_DATA;
		else if (data) {
			IUnknown_AddRef(p->iface);
			memcpy(data, &p->iface, sizeof(IUnknown *));
		}
		*size = sizeof(IUnknown *);
	} else {
		if (data && *size < p->size)
			hr = DXGI_ERROR_MORE_DATA;
		else if (data)
			memcpy(data, p->data, p->size);
		*size = p->size;
	}
	pthread_mutex_unlock(&o->lock);
	return hr;
}

static HRESULT set(d3d12_object *o, REFGUID guid, UINT size, const void *data, const IUnknown *iface)
{
	if (!guid)
		return E_INVALIDARG;
	pthread_mutex_lock(&o->lock);
	d3d12_private_data *p = find(o, guid);
	bool added = false;
	if (!p && (data || iface)) {
		d3d12_private_data *n = xs_realloc(o->priv, (o->npriv + 1) * sizeof(*n));
		if (!n) {
			pthread_mutex_unlock(&o->lock);
			return E_OUTOFMEMORY;
		}
		o->priv = n;
		p = &o->priv[o->npriv++];
		memset(p, 0, sizeof(*p));
		p->guid = *guid;
		added = true;
	}
	if (p) {
		void *copy = NULL;
		if (data && size && !(copy = xs_malloc(size))) {
			if (added) /* no entry without its data: GetPrivateData finds none */
				o->npriv--;
			pthread_mutex_unlock(&o->lock);
			return E_OUTOFMEMORY;
		}
		if (copy)
			memcpy(copy, data, size);
		if (p->iface)
			IUnknown_Release(p->iface);
		free(p->data);
		p->data = copy;
		p->size = copy ? size : 0;
		p->iface = (IUnknown *)iface;
		if (p->iface)
			IUnknown_AddRef(p->iface);
		if (!copy && !iface) /* set to nothing: removed */
			*p = o->priv[--o->npriv];
	}
	pthread_mutex_unlock(&o->lock);
	return S_OK;
}

HRESULT d3d12_object_set_private_data(d3d12_object *o, REFGUID guid, UINT size, const void *data)
{
	return set(o, guid, size, data, NULL);
}

HRESULT d3d12_object_set_private_data_interface(d3d12_object *o, REFGUID guid, const IUnknown *iface)
{
	return set(o, guid, 0, NULL, iface);
}

HRESULT d3d12_object_set_name(d3d12_object *o, LPCWSTR name)
{
	/* LPCWSTR is wchar_t, 4 bytes on Linux: code points, written as UTF-8. */
	size_t n = 0;
	for (const wchar_t *p = name; p && *p && n + 5 < sizeof(o->name); p++) {
		uint32_t c = (uint32_t)*p;
		if (c < 0x80)
			o->name[n++] = (char)c;
		else if (c < 0x800)
			o->name[n++] = (char)(0xc0 | c >> 6), o->name[n++] = (char)(0x80 | (c & 0x3f));
		else if (c < 0x10000)
			o->name[n++] = (char)(0xe0 | c >> 12), o->name[n++] = (char)(0x80 | (c >> 6 & 0x3f)),
			o->name[n++] = (char)(0x80 | (c & 0x3f));
		else
			o->name[n++] = (char)(0xf0 | c >> 18), o->name[n++] = (char)(0x80 | (c >> 12 & 0x3f)),
			o->name[n++] = (char)(0x80 | (c >> 6 & 0x3f)), o->name[n++] = (char)(0x80 | (c & 0x3f));
	}
	o->name[n] = 0;
	return S_OK;
}

const char *d3d12_object_label(const d3d12_object *o, char *buf, size_t n)
{
	if (o->name[0])
		snprintf(buf, n, "%s '%s'", o->kind, o->name);
	else
		snprintf(buf, n, "%s %p", o->kind, (const void *)o);
	return buf;
}

/* ---- ID3DBlob -------------------------------------------------------------------------- */

typedef struct d3d12_blob {
	ID3D10Blob iface;
	atomic_uint refcount;
	size_t size;
	unsigned char data[];
} d3d12_blob;

static d3d12_blob *impl_from_ID3D10Blob(ID3D10Blob *iface)
{
	return container_of(iface, d3d12_blob, iface);
}

static HRESULT STDMETHODCALLTYPE blob_QueryInterface(ID3D10Blob *This, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	if (iid_is(riid, &IID_ID3D10Blob) || iid_is(riid, &IID_IUnknown)) {
		ID3D10Blob_AddRef(This);
		*out = This;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE blob_AddRef(ID3D10Blob *This)
{
	return atomic_fetch_add(&impl_from_ID3D10Blob(This)->refcount, 1) + 1;
}

static ULONG STDMETHODCALLTYPE blob_Release(ID3D10Blob *This)
{
	d3d12_blob *b = impl_from_ID3D10Blob(This);
	ULONG n = atomic_fetch_sub(&b->refcount, 1) - 1;
	if (!n)
		free(b);
	return n;
}

static LPVOID STDMETHODCALLTYPE blob_GetBufferPointer(ID3D10Blob *This)
{
	return impl_from_ID3D10Blob(This)->data;
}

static SIZE_T STDMETHODCALLTYPE blob_GetBufferSize(ID3D10Blob *This)
{
	return impl_from_ID3D10Blob(This)->size;
}

static const ID3D10BlobVtbl blob_vtbl = {
	XS_D3D12_STUBS_ID3D10Blob,
	.QueryInterface = blob_QueryInterface, .AddRef = blob_AddRef, .Release = blob_Release,
	.GetBufferPointer = blob_GetBufferPointer, .GetBufferSize = blob_GetBufferSize,
};

HRESULT d3d12_blob_create(const void *data, size_t size, ID3DBlob **out)
{
	if (!out)
		return E_POINTER;
	d3d12_blob *b = xs_malloc(sizeof(*b) + (size ? size : 1));
	if (!b)
		return E_OUTOFMEMORY;
	b->iface.lpVtbl = &blob_vtbl;
	atomic_init(&b->refcount, 1);
	b->size = size;
	if (size)
		memcpy(b->data, data, size);
	*out = &b->iface;
	return S_OK;
}

HRESULT d3d12_hresult(xs_status st)
{
	switch (st) {
	case XS_OK: return S_OK;
	case XS_E_INVALID_ARG: case XS_E_BAD_CODE_OBJECT: case XS_E_NOT_FOUND: return E_INVALIDARG;
	case XS_E_UNSUPPORTED: return E_NOTIMPL;
	case XS_E_OUT_OF_MEMORY: return E_OUTOFMEMORY;
	case XS_E_DEVICE_REMOVED: return DXGI_ERROR_DEVICE_REMOVED;
	case XS_E_IO: return E_FAIL;
	case XS_E_INTERRUPTED: return E_ABORT;
	}
	return E_FAIL;
}
