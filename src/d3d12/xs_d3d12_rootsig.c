/*
 * Root signatures: ID3D12RootSignature, D3D12SerializeRootSignature and
 * D3D12SerializeVersionedRootSignature.
 *
 * The serialized form is D3D12's own: a DXBC container with one RTS0
 * chunk (the layout vkd3d-shader reads): version, parameter count and
 * offset, static-sampler count and offset, flags; per parameter its type,
 * visibility and payload offset; payloads of 32-bit constants (register,
 * space, count), root descriptors (register, space [, flags in 1.1]) and
 * descriptor tables (ranges). xs12 writes the DXBC checksum as zeros and
 * does not check it on input (a blob from dxc, with a real checksum,
 * parses). The reader is strict and bounded: every count and offset is
 * checked against the blob before it is used.
 */
#include "d3d12/xs_d3d12_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define DXBC_HEADER 32 /* magic, checksum[16], version, size, chunk count */
#define RTS0_HEADER 24

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* ---- reading ------------------------------------------------------------------------- */

static HRESULT bad(char *why, size_t n, const char *fmt, ...) XS_PRINTF(3, 4);
static HRESULT bad(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
	return E_INVALIDARG;
}

static bool inside(size_t off, size_t len, size_t size)
{
	return off <= size && len <= size - off;
}

HRESULT d3d12_root_signature_parse(const void *blob, size_t size, d3d12_root_param *params, UINT *nparams, char *why,
				   size_t n)
{
	const uint8_t *b = blob, *rts = b;
	size_t rsize = size;
	if (!blob || size < 4)
		return bad(why, n, "a blob of %zu bytes", size);
	if (rd32(b) == TAG('D', 'X', 'B', 'C')) {
		if (size < DXBC_HEADER)
			return bad(why, n, "DXBC header truncated at %zu bytes", size);
		uint32_t total = rd32(b + 24), nchunks = rd32(b + 28);
		if (total > size)
			return bad(why, n, "DXBC size %u is over the blob's %zu bytes", total, size);
		if (nchunks > 64 || !inside(DXBC_HEADER, (size_t)nchunks * 4, total))
			return bad(why, n, "DXBC: %u chunks do not fit", nchunks);
		rts = NULL;
		for (uint32_t i = 0; i < nchunks && !rts; i++) {
			uint32_t off = rd32(b + DXBC_HEADER + 4 * i);
			if (!inside(off, 8, total))
				return bad(why, n, "DXBC chunk %u at byte %u is outside the blob", i, off);
			uint32_t csize = rd32(b + off + 4);
			if (!inside(off + 8, csize, total))
				return bad(why, n, "DXBC chunk %u of %u bytes runs past the blob", i, csize);
			if (rd32(b + off) == TAG('R', 'T', 'S', '0')) {
				rts = b + off + 8;
				rsize = csize;
			}
		}
		if (!rts)
			return bad(why, n, "the DXBC container has no RTS0 (root signature) chunk");
	}
	if (rsize < RTS0_HEADER)
		return bad(why, n, "RTS0 truncated at %zu bytes", rsize);
	uint32_t version = rd32(rts), np = rd32(rts + 4), poff = rd32(rts + 8);
	if (version != 1 && version != 2)
		return bad(why, n, "RTS0 version %u: 1 (1.0) or 2 (1.1)", version);
	if (np > D3D12_MAX_ROOT_PARAMS || !inside(poff, (size_t)np * 12, rsize))
		return bad(why, n, "RTS0: %u parameters at byte %u do not fit (at most %d)", np, poff, D3D12_MAX_ROOT_PARAMS);
	for (uint32_t i = 0; i < np; i++) {
		const uint8_t *p = rts + poff + 12 * i;
		d3d12_root_param *o = &params[i];
		memset(o, 0, sizeof(*o));
		o->type = (D3D12_ROOT_PARAMETER_TYPE)rd32(p);
		o->visibility = (D3D12_SHADER_VISIBILITY)rd32(p + 4);
		uint32_t off = rd32(p + 8);
		switch (o->type) {
		case D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS:
			if (!inside(off, 12, rsize))
				return bad(why, n, "root parameter %u: constants at byte %u outside the blob", i, off);
			o->reg = rd32(rts + off), o->space = rd32(rts + off + 4), o->num32 = rd32(rts + off + 8);
			if (o->num32 == 0 || o->num32 > 64)
				return bad(why, n, "root parameter %u: %u 32-bit values (1..64)", i, o->num32);
			break;
		case D3D12_ROOT_PARAMETER_TYPE_CBV: case D3D12_ROOT_PARAMETER_TYPE_SRV: case D3D12_ROOT_PARAMETER_TYPE_UAV:
			if (!inside(off, version == 1 ? 8 : 12, rsize))
				return bad(why, n, "root parameter %u: descriptor at byte %u outside the blob", i, off);
			o->reg = rd32(rts + off), o->space = rd32(rts + off + 4);
			break;
		case D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE: {
			if (!inside(off, 8, rsize))
				return bad(why, n, "root parameter %u: table at byte %u outside the blob", i, off);
			uint32_t nr = rd32(rts + off), roff = rd32(rts + off + 4);
			if (nr > 256 || !inside(roff, (size_t)nr * (version == 1 ? 20 : 24), rsize))
				return bad(why, n, "root parameter %u: %u descriptor ranges do not fit", i, nr);
			break;
		}
		default:
			return bad(why, n, "root parameter %u: type %u is not a D3D12_ROOT_PARAMETER_TYPE", i, (unsigned)o->type);
		}
	}
	*nparams = np;
	return S_OK;
}

/* ---- writing --------------------------------------------------------------------------- */

typedef struct wbuf {
	uint8_t *p;
	size_t n, cap;
	bool oom;
} wbuf;

static size_t put32(wbuf *w, uint32_t v)
{
	if (w->n + 4 > w->cap) {
		size_t ncap = w->cap ? 2 * w->cap : 256;
		uint8_t *np = xs_realloc(w->p, ncap);
		if (!np) {
			w->oom = true;
			return w->n;
		}
		w->p = np;
		w->cap = ncap;
	}
	memcpy(w->p + w->n, &v, 4);
	w->n += 4;
	return w->n - 4;
}

static void at32(wbuf *w, size_t at, uint32_t v)
{
	if (!w->oom)
		memcpy(w->p + at, &v, 4);
}

static HRESULT error_blob(ID3DBlob **error, const char *msg)
{
	if (error)
		d3d12_blob_create(msg, strlen(msg) + 1, error);
	return E_INVALIDARG;
}

HRESULT d3d12_root_signature_serialize(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *vd, ID3DBlob **blob, ID3DBlob **error)
{
	if (error)
		*error = NULL;
	if (!vd || !blob)
		return E_INVALIDARG;
	*blob = NULL;
	bool v11 = vd->Version == D3D_ROOT_SIGNATURE_VERSION_1_1;
	if (!v11 && vd->Version != D3D_ROOT_SIGNATURE_VERSION_1_0)
		return error_blob(error, "root signature version: 1.0 or 1.1");
	UINT np = v11 ? vd->Desc_1_1.NumParameters : vd->Desc_1_0.NumParameters;
	UINT ns = v11 ? vd->Desc_1_1.NumStaticSamplers : vd->Desc_1_0.NumStaticSamplers;
	if (np > D3D12_MAX_ROOT_PARAMS || (np && !(v11 ? (const void *)vd->Desc_1_1.pParameters
						       : (const void *)vd->Desc_1_0.pParameters)) ||
	    (ns && !(v11 ? (const void *)vd->Desc_1_1.pStaticSamplers : (const void *)vd->Desc_1_0.pStaticSamplers)))
		return error_blob(error, "root signature: too many parameters, or a NULL parameter or sampler array");
	wbuf w = { 0 };
	/* RTS0 */
	put32(&w, v11 ? 2 : 1);
	put32(&w, np);
	size_t at_poff = put32(&w, 0);
	put32(&w, ns);
	size_t at_soff = put32(&w, 0);
	put32(&w, v11 ? vd->Desc_1_1.Flags : vd->Desc_1_0.Flags);
	at32(&w, at_poff, (uint32_t)w.n);
	size_t at_param[D3D12_MAX_ROOT_PARAMS];
	for (UINT i = 0; i < np; i++) {
		D3D12_ROOT_PARAMETER_TYPE t = v11 ? vd->Desc_1_1.pParameters[i].ParameterType
						  : vd->Desc_1_0.pParameters[i].ParameterType;
		D3D12_SHADER_VISIBILITY vis = v11 ? vd->Desc_1_1.pParameters[i].ShaderVisibility
						  : vd->Desc_1_0.pParameters[i].ShaderVisibility;
		put32(&w, t);
		put32(&w, vis);
		at_param[i] = put32(&w, 0);
	}
	/* A parameter's body: the 1.0 and 1.1 structs differ only in the flags
	 * 1.1 adds to ranges and root descriptors (the V11 arguments). */
#define PUT_PARAM(P, RANGE, V11_RANGE_FLAGS, V11_DESC_FLAGS)                                                       \
	switch ((P)->ParameterType) {                                                                              \
	case D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS:                                                            \
		put32(&w, (P)->Constants.ShaderRegister), put32(&w, (P)->Constants.RegisterSpace),                  \
			put32(&w, (P)->Constants.Num32BitValues);                                                   \
		break;                                                                                             \
	case D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE: {                                                         \
		put32(&w, (P)->DescriptorTable.NumDescriptorRanges);                                               \
		size_t at = put32(&w, 0);                                                                          \
		at32(&w, at, (uint32_t)w.n);                                                                       \
		for (UINT r = 0; r < (P)->DescriptorTable.NumDescriptorRanges && (P)->DescriptorTable.pDescriptorRanges; \
		     r++) {                                                                                        \
			const RANGE *g = &(P)->DescriptorTable.pDescriptorRanges[r];                               \
			put32(&w, g->RangeType), put32(&w, g->NumDescriptors), put32(&w, g->BaseShaderRegister),   \
				put32(&w, g->RegisterSpace);                                                       \
			V11_RANGE_FLAGS;                                                                           \
			put32(&w, g->OffsetInDescriptorsFromTableStart);                                           \
		}                                                                                                  \
		break;                                                                                             \
	}                                                                                                          \
	default:                                                                                                   \
		put32(&w, (P)->Descriptor.ShaderRegister), put32(&w, (P)->Descriptor.RegisterSpace);                \
		V11_DESC_FLAGS;                                                                                    \
		break;                                                                                             \
	}
	for (UINT i = 0; i < np; i++) {
		at32(&w, at_param[i], (uint32_t)w.n);
		if (v11) {
			const D3D12_ROOT_PARAMETER1 *p = &vd->Desc_1_1.pParameters[i];
			PUT_PARAM(p, D3D12_DESCRIPTOR_RANGE1, put32(&w, g->Flags), put32(&w, p->Descriptor.Flags))
		} else {
			const D3D12_ROOT_PARAMETER *p = &vd->Desc_1_0.pParameters[i];
			PUT_PARAM(p, D3D12_DESCRIPTOR_RANGE, (void)0, (void)0)
		}
	}
#undef PUT_PARAM
	at32(&w, at_soff, (uint32_t)w.n);
	for (UINT i = 0; i < ns; i++) {
		const D3D12_STATIC_SAMPLER_DESC *s = v11 ? &vd->Desc_1_1.pStaticSamplers[i] : &vd->Desc_1_0.pStaticSamplers[i];
		uint32_t f[13];
		float mip = s->MipLODBias, mn = s->MinLOD, mx = s->MaxLOD;
		f[0] = s->Filter, f[1] = s->AddressU, f[2] = s->AddressV, f[3] = s->AddressW;
		memcpy(&f[4], &mip, 4);
		f[5] = s->MaxAnisotropy, f[6] = s->ComparisonFunc, f[7] = s->BorderColor;
		memcpy(&f[8], &mn, 4);
		memcpy(&f[9], &mx, 4);
		f[10] = s->ShaderRegister, f[11] = s->RegisterSpace, f[12] = s->ShaderVisibility;
		for (int k = 0; k < 13; k++)
			put32(&w, f[k]);
	}
	if (w.oom) {
		free(w.p);
		return E_OUTOFMEMORY;
	}
	/* the DXBC container around it */
	size_t total = DXBC_HEADER + 4 + 8 + w.n;
	uint8_t *out = xs_calloc(1, total);
	if (!out) {
		free(w.p);
		return E_OUTOFMEMORY;
	}
	uint32_t hdr[] = { TAG('D', 'X', 'B', 'C'), 0, 0, 0, 0, 1, (uint32_t)total, 1, DXBC_HEADER + 4,
			   TAG('R', 'T', 'S', '0'), (uint32_t)w.n };
	memcpy(out, hdr, sizeof(hdr));
	memcpy(out + sizeof(hdr), w.p, w.n);
	free(w.p);
	HRESULT hr = d3d12_blob_create(out, total, blob);
	free(out);
	return hr;
}

/* ---- ID3D12RootSignature -------------------------------------------------------------------- */

static d3d12_root_signature *impl_from_ID3D12RootSignature(ID3D12RootSignature *iface)
{
	return container_of(iface, d3d12_root_signature, iface);
}

static HRESULT STDMETHODCALLTYPE rs_QueryInterface(ID3D12RootSignature *This, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	if (iid_is(riid, &IID_ID3D12RootSignature) || iid_is(riid, &IID_ID3D12DeviceChild) ||
	    iid_is(riid, &IID_ID3D12Object) || iid_is(riid, &IID_IUnknown)) {
		ID3D12RootSignature_AddRef(This);
		*out = This;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE rs_AddRef(ID3D12RootSignature *This)
{
	return atomic_fetch_add(&impl_from_ID3D12RootSignature(This)->obj.refcount, 1) + 1;
}

static ULONG STDMETHODCALLTYPE rs_Release(ID3D12RootSignature *This)
{
	d3d12_root_signature *r = impl_from_ID3D12RootSignature(This);
	ULONG n = atomic_fetch_sub(&r->obj.refcount, 1) - 1;
	if (!n) {
		free(r->blob);
		d3d12_object_fini(&r->obj);
		free(r);
	}
	return n;
}

D3D12_OBJECT_METHODS(rs, ID3D12RootSignature, d3d12_root_signature)

static const ID3D12RootSignatureVtbl root_signature_vtbl = {
	XS_D3D12_STUBS_ID3D12RootSignature,
	.QueryInterface = rs_QueryInterface, .AddRef = rs_AddRef, .Release = rs_Release, D3D12_OBJECT_SLOTS(rs),
};

d3d12_root_signature *d3d12_root_signature_from_iface(ID3D12RootSignature *iface)
{
	if (!iface || iface->lpVtbl != &root_signature_vtbl)
		return NULL;
	return impl_from_ID3D12RootSignature(iface);
}

HRESULT d3d12_root_signature_create(d3d12_device *d, const void *blob, SIZE_T size, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	d3d12_root_signature *r = xs_calloc(1, sizeof(*r));
	if (!r)
		return E_OUTOFMEMORY;
	char why[300];
	HRESULT hr = d3d12_root_signature_parse(blob, size, r->params, &r->nparams, why, sizeof(why));
	if (FAILED(hr)) {
		d3d12_message(d, XS_MSG_ROOT_SIGNATURE_BLOB, "CreateRootSignature: %s", why);
		free(r);
		return hr;
	}
	for (UINT i = 0; i < r->nparams; i++)
		if (r->params[i].type == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
			d3d12_message(d, XS_MSG_NOT_IMPLEMENTED,
				      "CreateRootSignature: parameter %u is a descriptor table, which xs12 does not implement "
				      "yet: use root descriptors (CBV/SRV/UAV) and 32-bit constants", i);
			free(r);
			return E_NOTIMPL;
		}
	/* the blob kept as given: no root signature without it */
	if (!(r->blob = xs_malloc(size ? size : 1))) {
		free(r);
		return E_OUTOFMEMORY;
	}
	memcpy(r->blob, blob, size);
	r->blob_size = size;
	r->iface.lpVtbl = &root_signature_vtbl;
	d3d12_object_init(&r->obj, d, "ID3D12RootSignature");
	hr = ID3D12RootSignature_QueryInterface(&r->iface, riid, out);
	ID3D12RootSignature_Release(&r->iface);
	return hr;
}
