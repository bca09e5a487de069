/*
 * Compute pipelines from code objects (ID3D12PipelineState) and command
 * signatures (ID3D12CommandSignature).
 *
 * D3D12_COMPUTE_PIPELINE_STATE_DESC.CS holds an AMDGPU code object (ELF or
 * offload bundle), or an XS12_KERNEL_BYTECODE naming one kernel of it. The
 * thread-group shape ([numthreads]) is the kernel's reqd_work_group_size,
 * else 64 x 1 x 1 (fewer when .max_flat_workgroup_size is smaller); S3's
 * launch parameters override it. The root signature embedded in the shader
 * (pRootSignature NULL) follows the kernel's explicit arguments in order: a
 * global pointer is a root UAV (SRV when const), a by-value argument root
 * 32-bit constants; __local pointer arguments are filled by the runtime
 * (the dynamic LDS of S3.7). An explicit root signature must match that,
 * parameter by parameter.
 */
#include "d3d12/xs_d3d12_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_GROUP 64

static d3d12_pipeline *impl_from_ID3D12PipelineState(ID3D12PipelineState *iface)
{
	return container_of(iface, d3d12_pipeline, iface);
}

static HRESULT STDMETHODCALLTYPE pso_QueryInterface(ID3D12PipelineState *This, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	if (iid_is(riid, &IID_ID3D12PipelineState) || iid_is(riid, &IID_ID3D12Pageable) ||
	    iid_is(riid, &IID_ID3D12DeviceChild) || iid_is(riid, &IID_ID3D12Object) || iid_is(riid, &IID_IUnknown)) {
		ID3D12PipelineState_AddRef(This);
		*out = This;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE pso_AddRef(ID3D12PipelineState *This)
{
	return atomic_fetch_add(&impl_from_ID3D12PipelineState(This)->obj.refcount, 1) + 1;
}

static ULONG STDMETHODCALLTYPE pso_Release(ID3D12PipelineState *This)
{
	d3d12_pipeline *p = impl_from_ID3D12PipelineState(This);
	ULONG n = atomic_fetch_sub(&p->obj.refcount, 1) - 1;
	if (!n) {
		if (p->root)
			ID3D12RootSignature_Release(&p->root->iface);
		if (p->gfx)
			d3d12_gfx_pipeline_free(p->obj.device, p->gfx);
		else
			xs_rt_module_free(p->obj.device->rt, p->mod);
		d3d12_object_fini(&p->obj);
		free(p);
	}
	return n;
}

D3D12_OBJECT_METHODS(pso, ID3D12PipelineState, d3d12_pipeline)

const ID3D12PipelineStateXVtbl d3d12_pipeline_vtbl = {
	.Base = {
		XS_D3D12_STUBS_ID3D12PipelineState,
		.QueryInterface = pso_QueryInterface, .AddRef = pso_AddRef, .Release = pso_Release,
		D3D12_OBJECT_SLOTS(pso),
	},
	.GetInformationX = d3d12_pipeline_GetInformationX,
};
_Static_assert(offsetof(ID3D12PipelineStateXVtbl, GetInformationX) == XS_D3D12_SLOTS_ID3D12PipelineState * sizeof(void *),
	       "GetInformationX follows the official slots (slot 9)");

d3d12_pipeline *d3d12_pipeline_alloc(d3d12_device *d)
{
	d3d12_pipeline *p = xs_calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->iface.lpVtbl = &d3d12_pipeline_vtbl.Base;
	d3d12_object_init(&p->obj, d, "ID3D12PipelineState");
	return p;
}

d3d12_pipeline *d3d12_pipeline_from_iface(ID3D12PipelineState *iface)
{
	if (!iface || iface->lpVtbl != &d3d12_pipeline_vtbl.Base)
		return NULL;
	return impl_from_ID3D12PipelineState(iface);
}

/* The root signature a kernel's explicit arguments give (the "embedded" one). */
static HRESULT embedded_root_signature(d3d12_device *d, const xs_codeobj_kernel *k, ID3D12RootSignature **out)
{
	D3D12_ROOT_PARAMETER params[D3D12_MAX_ROOT_PARAMS];
	UINT n = 0, u = 0, t = 0, b = 0;
	for (uint32_t i = 0; i < k->info.num_args && n < D3D12_MAX_ROOT_PARAMS; i++) {
		const xs_kernel_arg *a = &k->info.args[i];
		D3D12_ROOT_PARAMETER *p = &params[n];
		memset(p, 0, sizeof(*p));
		p->ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
		if (a->kind == XS_ARG_GLOBAL_BUFFER) {
			bool srv = k->arg_const[i];
			p->ParameterType = srv ? D3D12_ROOT_PARAMETER_TYPE_SRV : D3D12_ROOT_PARAMETER_TYPE_UAV;
			p->Descriptor.ShaderRegister = srv ? t++ : u++;
			n++;
		} else if (a->kind == XS_ARG_BY_VALUE) {
			p->ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
			p->Constants.ShaderRegister = b++;
			p->Constants.Num32BitValues = XS_DIV_ROUND_UP(a->size, 4u);
			n++;
		}
	}
	D3D12_VERSIONED_ROOT_SIGNATURE_DESC vd = { .Version = D3D_ROOT_SIGNATURE_VERSION_1_0,
						   .Desc_1_0 = { .NumParameters = n, .pParameters = params } };
	ID3DBlob *blob;
	HRESULT hr = d3d12_root_signature_serialize(&vd, &blob, NULL);
	if (FAILED(hr))
		return hr;
	hr = d3d12_root_signature_create(d, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
					 &IID_ID3D12RootSignature, (void **)out);
	ID3D10Blob_Release(blob);
	return hr;
}

/* The CS bytecode of a pipeline (a code object, or an XS12_KERNEL_BYTECODE
 * naming a kernel of one): its kernel, in *co (parsed; the caller frees). */
static const xs_codeobj_kernel *bytecode_kernel(d3d12_device *d, const void *code, size_t size, xs_codeobj **co,
						const char *what, HRESULT *hr)
{
	*hr = E_INVALIDARG;
	const char *name = NULL;
	const XS12_KERNEL_BYTECODE *kb = code;
	*co = NULL;
	if (size == sizeof(*kb) && kb->Magic == XS12_KERNEL_BYTECODE_MAGIC) {
		code = kb->pCodeObject;
		size = kb->CodeObjectSize;
		name = kb->KernelName;
	}
	xs_err e;
	if (!code || xs_codeobj_parse(code, size, co, &e)) {
		d3d12_message(d, XS_MSG_PIPELINE_CODE_OBJECT, "%s: the bytecode: %s", what, code ? e.msg : "NULL code object");
		if (code)
			*hr = d3d12_hresult(e.status); /* E_OUTOFMEMORY is no bad bytecode */
		return NULL;
	}
	const xs_codeobj_kernel *k = name ? xs_codeobj_find(*co, name) : (*co)->nkernels == 1 ? &(*co)->kernels[0] : NULL;
	if (!k)
		d3d12_message(d, XS_MSG_PIPELINE_KERNEL, "%s: %s", what,
			      name ? "the code object has no kernel of that name"
				   : "the code object has several kernels: name one with an XS12_KERNEL_BYTECODE");
	return k;
}

bool d3d12_bytecode_is_code_object(const void *blob, size_t size)
{
	const XS12_KERNEL_BYTECODE *kb = blob;
	if (size == sizeof(*kb) && kb->Magic == XS12_KERNEL_BYTECODE_MAGIC)
		return true;
	return (size >= 4 && !memcmp(blob, "\x7f" "ELF", 4)) || (size >= 24 && !memcmp(blob, "__CLANG_OFFLOAD_BUNDLE__", 24));
}

/* CreateRootSignature from shader bytecode, as D3D12 takes a shader with an
 * embedded root signature: here the one the kernel's arguments give. */
HRESULT d3d12_root_signature_from_code(d3d12_device *d, const void *code, size_t size, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	xs_codeobj *co;
	HRESULT hr;
	const xs_codeobj_kernel *k = bytecode_kernel(d, code, size, &co, "CreateRootSignature", &hr);
	ID3D12RootSignature *rs;
	if (k && SUCCEEDED(hr = embedded_root_signature(d, k, &rs))) {
		hr = ID3D12RootSignature_QueryInterface(rs, riid, out);
		ID3D12RootSignature_Release(rs);
	}
	xs_codeobj_free(co);
	return hr;
}

static const char *param_type(D3D12_ROOT_PARAMETER_TYPE t)
{
	switch (t) {
	case D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS: return "32-bit constants";
	case D3D12_ROOT_PARAMETER_TYPE_CBV: return "a root CBV";
	case D3D12_ROOT_PARAMETER_TYPE_SRV: return "a root SRV";
	case D3D12_ROOT_PARAMETER_TYPE_UAV: return "a root UAV";
	default: return "a descriptor table";
	}
}

/* Binds root parameters to kernel arguments; false (with a message) if the
 * root signature does not fit the kernel. */
static bool bind(d3d12_device *d, d3d12_pipeline *p)
{
	const xs_codeobj_kernel *k = p->k;
	UINT np = 0;
	for (uint32_t i = 0; i < k->info.num_args; i++) {
		const xs_kernel_arg *a = &k->info.args[i];
		if (a->kind == XS_ARG_HIDDEN)
			continue;
		if (a->kind == XS_ARG_DYNAMIC_SHARED_POINTER) {
			if (p->ndynamic_lds_args < XS_ARRAY_SIZE(p->dynamic_lds_args))
				p->dynamic_lds_args[p->ndynamic_lds_args++] = a->offset;
			continue;
		}
		if (a->kind != XS_ARG_GLOBAL_BUFFER && a->kind != XS_ARG_BY_VALUE) {
			d3d12_message(d, XS_MSG_ROOT_SIGNATURE_MISMATCH,
				      "%s: argument %u '%s' is a %s, which no root parameter can give", k->info.name, i,
				      a->name, a->value_kind);
			return false;
		}
		if (np == p->root->nparams) {
			d3d12_message(d, XS_MSG_ROOT_SIGNATURE_MISMATCH,
				      "%s: the root signature has %u parameters but the kernel has more explicit arguments "
				      "(argument %u '%s' has none)", k->info.name, p->root->nparams, i, a->name);
			return false;
		}
		const d3d12_root_param *rp = &p->root->params[np];
		bool ptr = a->kind == XS_ARG_GLOBAL_BUFFER;
		bool ok = ptr ? rp->type == D3D12_ROOT_PARAMETER_TYPE_CBV || rp->type == D3D12_ROOT_PARAMETER_TYPE_SRV ||
				    rp->type == D3D12_ROOT_PARAMETER_TYPE_UAV
			      : rp->type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS &&
				    rp->num32 == XS_DIV_ROUND_UP(a->size, 4u);
		if (!ok) {
			d3d12_message(d, XS_MSG_ROOT_SIGNATURE_MISMATCH,
				      "%s: root parameter %u is %s%s, but kernel argument %u '%s' (%s) needs %s", k->info.name,
				      np, param_type(rp->type), rp->type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS ? "" : "",
				      i, a->name, a->type_name,
				      ptr ? "a root CBV, SRV or UAV (a GPU virtual address)" : "32-bit constants of its size");
			return false;
		}
		p->slots[np] = (d3d12_arg_slot){ a->offset, a->size, a };
		np++;
	}
	if (np != p->root->nparams) {
		d3d12_message(d, XS_MSG_ROOT_SIGNATURE_MISMATCH,
			      "%s: the root signature has %u parameters, the kernel %u explicit arguments", k->info.name,
			      p->root->nparams, np);
		return false;
	}
	return true;
}

HRESULT d3d12_pipeline_create_compute(d3d12_device *d, const D3D12_COMPUTE_PIPELINE_STATE_DESC *desc, REFIID riid,
				      void **out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	if (!desc || !desc->CS.pShaderBytecode || !desc->CS.BytecodeLength) {
		d3d12_message(d, XS_MSG_PIPELINE_CODE_OBJECT, "CreateComputePipelineState: no CS bytecode");
		return E_INVALIDARG;
	}
	const void *code = desc->CS.pShaderBytecode;
	size_t size = desc->CS.BytecodeLength;
	const char *name = NULL;
	const XS12_KERNEL_BYTECODE *kb = code;
	if (size == sizeof(*kb) && kb->Magic == XS12_KERNEL_BYTECODE_MAGIC) {
		code = kb->pCodeObject;
		size = kb->CodeObjectSize;
		name = kb->KernelName;
	}
	d3d12_pipeline *p = xs_calloc(1, sizeof(*p));
	if (!p)
		return E_OUTOFMEMORY;
	p->iface.lpVtbl = &d3d12_pipeline_vtbl.Base;
	d3d12_object_init(&p->obj, d, "ID3D12PipelineState");
	xs_err e;
	HRESULT hr = E_INVALIDARG;
	if (!code || xs_rt_module_load(d->rt, code, size, &p->mod, &e)) {
		d3d12_message(d, XS_MSG_PIPELINE_CODE_OBJECT, "CreateComputePipelineState: the CS bytecode: %s",
			      code ? e.msg : "NULL code object");
		if (code)
			hr = d3d12_hresult(e.status);
		goto fail;
	}
	const xs_codeobj *co = p->mod->co;
	if (name) {
		p->k = xs_codeobj_find(co, name);
	} else if (co->nkernels == 1) {
		p->k = &co->kernels[0];
	}
	if (!p->k) {
		char list[400] = "";
		size_t n = 0;
		for (uint32_t i = 0; i < co->nkernels && n < sizeof(list) - 80; i++)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s'%s'", i ? ", " : "", co->kernels[i].info.name);
		if (name)
			d3d12_message(d, XS_MSG_PIPELINE_KERNEL, "CreateComputePipelineState: the code object has no kernel "
				      "'%s'; its kernels: %s", name, list);
		else
			d3d12_message(d, XS_MSG_PIPELINE_KERNEL, "CreateComputePipelineState: the code object has %u kernels "
				      "(%s): name one with an XS12_KERNEL_BYTECODE", co->nkernels, list);
		goto fail;
	}
	if (desc->pRootSignature) {
		if (!(p->root = d3d12_root_signature_from_iface(desc->pRootSignature))) {
			d3d12_message(d, XS_MSG_ROOT_SIGNATURE_MISMATCH, "CreateComputePipelineState: pRootSignature is "
				      "not an xs12 root signature");
			goto fail;
		}
		ID3D12RootSignature_AddRef(&p->root->iface);
	} else {
		ID3D12RootSignature *rs;
		if (FAILED(hr = embedded_root_signature(d, p->k, &rs)))
			goto fail;
		p->root = d3d12_root_signature_from_iface(rs);
		hr = E_INVALIDARG;
	}
	if (!bind(d, p))
		goto fail;
	const xs_kernel_info *ki = &p->k->info;
	if (p->k->reqd_workgroup_size[0]) {
		memcpy(p->block, p->k->reqd_workgroup_size, sizeof(p->block));
	} else {
		p->block[0] = XS_MIN((UINT)DEFAULT_GROUP, ki->max_flat_workgroup_size);
		p->block[1] = p->block[2] = 1;
	}
	p->scratch_per_wave = xs_kernel_scratch_per_wave(ki);
	char lab[200];
	snprintf(lab, sizeof(lab), "%s", ki->name);
	hr = ID3D12PipelineState_QueryInterface(&p->iface, riid, out);
	ID3D12PipelineState_Release(&p->iface);
	return hr;
fail:
	ID3D12PipelineState_Release(&p->iface);
	return hr;
}

/* ---- command signatures --------------------------------------------------------------------- */

static d3d12_command_signature *impl_from_ID3D12CommandSignature(ID3D12CommandSignature *iface)
{
	return container_of(iface, d3d12_command_signature, iface);
}

static HRESULT STDMETHODCALLTYPE cs_QueryInterface(ID3D12CommandSignature *This, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	if (iid_is(riid, &IID_ID3D12CommandSignature) || iid_is(riid, &IID_ID3D12Pageable) ||
	    iid_is(riid, &IID_ID3D12DeviceChild) || iid_is(riid, &IID_ID3D12Object) || iid_is(riid, &IID_IUnknown)) {
		ID3D12CommandSignature_AddRef(This);
		*out = This;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE cs_AddRef(ID3D12CommandSignature *This)
{
	return atomic_fetch_add(&impl_from_ID3D12CommandSignature(This)->obj.refcount, 1) + 1;
}

static ULONG STDMETHODCALLTYPE cs_Release(ID3D12CommandSignature *This)
{
	d3d12_command_signature *s = impl_from_ID3D12CommandSignature(This);
	ULONG n = atomic_fetch_sub(&s->obj.refcount, 1) - 1;
	if (!n) {
		if (s->root)
			ID3D12RootSignature_Release(&s->root->iface);
		d3d12_object_fini(&s->obj);
		free(s);
	}
	return n;
}

D3D12_OBJECT_METHODS(cs, ID3D12CommandSignature, d3d12_command_signature)

static const ID3D12CommandSignatureVtbl command_signature_vtbl = {
	XS_D3D12_STUBS_ID3D12CommandSignature,
	.QueryInterface = cs_QueryInterface, .AddRef = cs_AddRef, .Release = cs_Release, D3D12_OBJECT_SLOTS(cs),
};

d3d12_command_signature *d3d12_command_signature_from_iface(ID3D12CommandSignature *iface)
{
	if (!iface || iface->lpVtbl != &command_signature_vtbl)
		return NULL;
	return impl_from_ID3D12CommandSignature(iface);
}

/* The root parameter type a CBV, SRV or UAV indirect argument sets. */
static D3D12_ROOT_PARAMETER_TYPE view_param_type(D3D12_INDIRECT_ARGUMENT_TYPE t)
{
	return t == D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW	? D3D12_ROOT_PARAMETER_TYPE_CBV
	       : t == D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW ? D3D12_ROOT_PARAMETER_TYPE_SRV
									: D3D12_ROOT_PARAMETER_TYPE_UAV;
}

HRESULT d3d12_command_signature_create(d3d12_device *d, const D3D12_COMMAND_SIGNATURE_DESC *desc,
				       ID3D12RootSignature *root, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	if (!desc || !desc->NumArgumentDescs || desc->NumArgumentDescs > 8 || !desc->pArgumentDescs) {
		d3d12_message(d, XS_MSG_INDIRECT_SIGNATURE, "CreateCommandSignature: 1..8 argument descriptions");
		return E_INVALIDARG;
	}
	d3d12_root_signature *rs = root ? d3d12_root_signature_from_iface(root) : NULL;
	UINT off = 0;
	bool needs_root = false;
	for (UINT i = 0; i < desc->NumArgumentDescs; i++) {
		const D3D12_INDIRECT_ARGUMENT_DESC *a = &desc->pArgumentDescs[i];
		UINT size;
		bool last = i + 1 == desc->NumArgumentDescs;
		switch ((int)a->Type) {
		case D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH:
			if (!last) {
				d3d12_message(d, XS_MSG_INDIRECT_SIGNATURE,
					      "CreateCommandSignature: DISPATCH must be the last argument");
				return E_INVALIDARG;
			}
			size = sizeof(D3D12_DISPATCH_ARGUMENTS);
			break;
		case (int)D3D12XBOX_INDIRECT_ARGUMENT_TYPE_COMPUTE_SHADER_LAUNCH_PARAMETERSX:
			size = sizeof(D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS);
			break;
		case D3D12_INDIRECT_ARGUMENT_TYPE_DRAW:
		case D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED:
			/* DRAW_INDIRECT / DRAW_INDEX_INDIRECT read the arguments themselves */
			if (desc->NumArgumentDescs != 1) {
				d3d12_message(d, XS_MSG_INDIRECT_SIGNATURE, "CreateCommandSignature: a draw argument with "
					      "others: xs12 executes DRAW and DRAW_INDEXED alone");
				return E_INVALIDARG;
			}
			size = a->Type == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW ? sizeof(D3D12_DRAW_ARGUMENTS)
									      : sizeof(D3D12_DRAW_INDEXED_ARGUMENTS);
			break;
		case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT:
			needs_root = true;
			/* the range in 64 bits: DestOffset + Num in 32 would wrap past a
			 * short parameter (and 4 * Num, the record's size, with it) */
			if (rs && (a->Constant.RootParameterIndex >= rs->nparams ||
				   rs->params[a->Constant.RootParameterIndex].type != D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS ||
				   (uint64_t)a->Constant.DestOffsetIn32BitValues + a->Constant.Num32BitValuesToSet >
					   rs->params[a->Constant.RootParameterIndex].num32)) {
				d3d12_message(d, XS_MSG_INDIRECT_SIGNATURE, "CreateCommandSignature: argument %u: root parameter "
					      "%u has no 32-bit constants %u..%llu", i, a->Constant.RootParameterIndex,
					      a->Constant.DestOffsetIn32BitValues,
					      (unsigned long long)a->Constant.DestOffsetIn32BitValues +
						      a->Constant.Num32BitValuesToSet - 1);
				return E_INVALIDARG;
			}
			size = 4 * a->Constant.Num32BitValuesToSet; /* at most 4 * 64 when rs checked it */
			break;
		case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW:
		case D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW:
		case D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW:
			needs_root = true;
			size = 8;
			/* D3D12: a view argument sets a root descriptor of its own kind;
			 * ExecuteIndirect copies its 8 bytes into that parameter's slot */
			if (rs && (a->ConstantBufferView.RootParameterIndex >= rs->nparams ||
				   rs->params[a->ConstantBufferView.RootParameterIndex].type != view_param_type(a->Type))) {
				d3d12_message(d, XS_MSG_INDIRECT_SIGNATURE, "CreateCommandSignature: argument %u: root "
					      "parameter %u is not a root %s", i, a->ConstantBufferView.RootParameterIndex,
					      a->Type == D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW ? "CBV"
					      : a->Type == D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW ? "SRV" : "UAV");
				return E_INVALIDARG;
			}
			break;
		default:
			d3d12_message(d, XS_MSG_NOT_IMPLEMENTED, "CreateCommandSignature: argument %u of type %d: xs12 "
				      "executes DISPATCH, DRAW, DRAW_INDEXED, root constants and views, and the launch "
				      "parameters", i, (int)a->Type);
			return E_NOTIMPL;
		}
		off += size;
	}
	D3D12_INDIRECT_ARGUMENT_TYPE lt = desc->pArgumentDescs[desc->NumArgumentDescs - 1].Type;
	if (lt != D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH && lt != D3D12_INDIRECT_ARGUMENT_TYPE_DRAW &&
	    lt != D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED) {
		d3d12_message(d, XS_MSG_INDIRECT_SIGNATURE, "CreateCommandSignature: the last argument must be DISPATCH, "
			      "DRAW or DRAW_INDEXED");
		return E_INVALIDARG;
	}
	if (needs_root && !rs) {
		d3d12_message(d, XS_MSG_INDIRECT_SIGNATURE,
			      "CreateCommandSignature: root arguments need the root signature they change");
		return E_INVALIDARG;
	}
	if (desc->ByteStride < off || desc->ByteStride % 4) {
		d3d12_message(d, XS_MSG_INDIRECT_SIGNATURE, "CreateCommandSignature: ByteStride %u: at least the "
			      "arguments' %u bytes, a multiple of 4", desc->ByteStride, off);
		return E_INVALIDARG;
	}
	d3d12_command_signature *s = xs_calloc(1, sizeof(*s));
	if (!s)
		return E_OUTOFMEMORY;
	s->iface.lpVtbl = &command_signature_vtbl;
	d3d12_object_init(&s->obj, d, "ID3D12CommandSignature");
	s->nargs = desc->NumArgumentDescs;
	s->stride = desc->ByteStride;
	memcpy(s->args, desc->pArgumentDescs, s->nargs * sizeof(*s->args));
	off = 0;
	for (UINT i = 0; i < s->nargs; i++) {
		s->offset_of[i] = off;
		const D3D12_INDIRECT_ARGUMENT_DESC *a = &s->args[i];
		off += a->Type == D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH ? 12
		       : a->Type == D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT ? 4 * a->Constant.Num32BitValuesToSet : 8;
	}
	if ((s->root = rs))
		ID3D12RootSignature_AddRef(root);
	HRESULT hr = ID3D12CommandSignature_QueryInterface(&s->iface, riid, out);
	ID3D12CommandSignature_Release(&s->iface);
	return hr;
}
