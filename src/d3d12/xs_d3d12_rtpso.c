/*
 * Ray-tracing pipelines from code objects (ID3D12StateObject,
 * ID3D12StateObjectProperties with the Xbox GetInformationX; docs/d3d12.md,
 * SPEC S2).
 *
 * A DXIL_LIBRARY's bytecode is an AMDGPU code object (what `xs12 cc` or
 * hipcc makes of a HIP file using include/xs12/xs12_rt.h): HIP device
 * functions with C linkage are the shaders, called by indirect calls
 * through shader identifiers, and one kernel is the entry DispatchRays
 * launches. A function's identifier holds its GPU virtual address, the
 * module's load address plus its ELF symbol's value. Stack sizes (S2.7)
 * come from the code object's .stack_sizes section (clang's
 * -fstack-size-section, which `xs12 cc` passes), each function's frame in
 * bytes per lane; without it, from LLVM's own assumption for an external
 * call.
 */
#include "d3d12/xs_d3d12_rt.h"
#include "codeobj/xs_codeobj_syms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LLVM 15's stack for each external (indirect) call when it cannot see the
 * callee: -amdgpu-assume-external-call-stack-size's default. */
#define LLVM_ASSUMED_CALL_STACK 16384u

static d3d12_state_object *impl_from_ID3D12StateObject(ID3D12StateObject *iface)
{
	return container_of(iface, d3d12_state_object, iface);
}

static d3d12_state_object *impl_from_ID3D12StateObjectProperties(ID3D12StateObjectProperties *iface)
{
	return container_of(iface, d3d12_state_object, props);
}

/* LPCWSTR is wchar_t on Linux (4 bytes): code points, as UTF-8. */
static bool utf8_of(LPCWSTR w, char *out, size_t n)
{
	size_t k = 0;
	if (!w)
		return false;
	for (; *w; w++) {
		uint32_t c = (uint32_t)*w;
		char b[4];
		size_t m;
		if (c < 0x80) {
			b[0] = (char)c;
			m = 1;
		} else if (c < 0x800) {
			b[0] = (char)(0xc0 | c >> 6);
			b[1] = (char)(0x80 | (c & 0x3f));
			m = 2;
		} else if (c < 0x10000) {
			b[0] = (char)(0xe0 | c >> 12);
			b[1] = (char)(0x80 | (c >> 6 & 0x3f));
			b[2] = (char)(0x80 | (c & 0x3f));
			m = 3;
		} else {
			b[0] = (char)(0xf0 | c >> 18);
			b[1] = (char)(0x80 | (c >> 12 & 0x3f));
			b[2] = (char)(0x80 | (c >> 6 & 0x3f));
			b[3] = (char)(0x80 | (c & 0x3f));
			m = 4;
		}
		if (k + m + 1 > n)
			return false;
		memcpy(out + k, b, m);
		k += m;
	}
	out[k] = 0;
	return true;
}

/* ---- IUnknown, ID3D12Object ---------------------------------------------------------- */

static HRESULT STDMETHODCALLTYPE so_QueryInterface(ID3D12StateObject *This, REFIID riid, void **out)
{
	d3d12_state_object *so = impl_from_ID3D12StateObject(This);
	if (!out)
		return E_POINTER;
	if (iid_is(riid, &IID_ID3D12StateObject) || iid_is(riid, &IID_ID3D12Pageable) ||
	    iid_is(riid, &IID_ID3D12DeviceChild) || iid_is(riid, &IID_ID3D12Object) || iid_is(riid, &IID_IUnknown)) {
		ID3D12StateObject_AddRef(This);
		*out = This;
		return S_OK;
	}
	if (iid_is(riid, &IID_ID3D12StateObjectProperties)) {
		ID3D12StateObject_AddRef(This);
		*out = &so->props;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE so_AddRef(ID3D12StateObject *This)
{
	return atomic_fetch_add(&impl_from_ID3D12StateObject(This)->obj.refcount, 1) + 1;
}

static ULONG STDMETHODCALLTYPE so_Release(ID3D12StateObject *This)
{
	d3d12_state_object *so = impl_from_ID3D12StateObject(This);
	ULONG n = atomic_fetch_sub(&so->obj.refcount, 1) - 1;
	if (!n) {
		if (so->global_root)
			ID3D12RootSignature_Release(&so->global_root->iface);
		for (uint32_t i = 0; i < so->nmods; i++)
			xs_rt_module_free(so->obj.device->rt, so->mods[i]);
		free(so->exports);
		d3d12_object_fini(&so->obj);
		free(so);
	}
	return n;
}

D3D12_OBJECT_METHODS(so, ID3D12StateObject, d3d12_state_object)

static const ID3D12StateObjectVtbl state_object_vtbl = {
	XS_D3D12_STUBS_ID3D12StateObject,
	.QueryInterface = so_QueryInterface, .AddRef = so_AddRef, .Release = so_Release, D3D12_OBJECT_SLOTS(so),
};

d3d12_state_object *d3d12_state_object_from_iface(ID3D12StateObject *iface)
{
	if (!iface || iface->lpVtbl != &state_object_vtbl)
		return NULL;
	return impl_from_ID3D12StateObject(iface);
}

/* ---- ID3D12StateObjectProperties ------------------------------------------------------ */

static HRESULT STDMETHODCALLTYPE props_QueryInterface(ID3D12StateObjectProperties *This, REFIID riid, void **out)
{
	return so_QueryInterface(&impl_from_ID3D12StateObjectProperties(This)->iface, riid, out);
}

static ULONG STDMETHODCALLTYPE props_AddRef(ID3D12StateObjectProperties *This)
{
	return so_AddRef(&impl_from_ID3D12StateObjectProperties(This)->iface);
}

static ULONG STDMETHODCALLTYPE props_Release(ID3D12StateObjectProperties *This)
{
	return so_Release(&impl_from_ID3D12StateObjectProperties(This)->iface);
}

static const d3d12_rt_export *find_export(const d3d12_state_object *so, const char *name)
{
	for (uint32_t i = 0; i < so->nexports; i++)
		if (!strcmp(so->exports[i].name, name))
			return &so->exports[i];
	return NULL;
}

static void *STDMETHODCALLTYPE props_GetShaderIdentifier(ID3D12StateObjectProperties *This, LPCWSTR name)
{
	d3d12_state_object *so = impl_from_ID3D12StateObjectProperties(This);
	char n[128];
	const d3d12_rt_export *x = utf8_of(name, n, sizeof(n)) ? find_export(so, n) : NULL;
	return x ? (void *)&x->id : NULL;
}

/* "name", or "hitgroup::closesthit" / "::anyhit" / "::intersection"; an
 * unknown name or a hit group's own is 0xffffffff, D3D12's documented
 * answer (a 32-bit value, so that sums of stack sizes keep the error). */
#define STACK_SIZE_INVALID 0xffffffffull
static UINT64 STDMETHODCALLTYPE props_GetShaderStackSize(ID3D12StateObjectProperties *This, LPCWSTR name)
{
	d3d12_state_object *so = impl_from_ID3D12StateObjectProperties(This);
	char n[160];
	if (!utf8_of(name, n, sizeof(n)))
		return STACK_SIZE_INVALID;
	char *sep = strstr(n, "::");
	if (!sep) {
		const d3d12_rt_export *x = find_export(so, n);
		return x && !x->hit_group ? x->stack : STACK_SIZE_INVALID;
	}
	*sep = 0;
	const d3d12_rt_export *g = find_export(so, n);
	static const char *const parts[3] = { "closesthit", "anyhit", "intersection" };
	for (int i = 0; g && g->hit_group && i < 3; i++)
		if (!strcmp(sep + 2, parts[i]))
			return g->member[i] >= 0 ? so->exports[g->member[i]].stack : STACK_SIZE_INVALID;
	return STACK_SIZE_INVALID;
}

static UINT64 STDMETHODCALLTYPE props_GetPipelineStackSize(ID3D12StateObjectProperties *This)
{
	return impl_from_ID3D12StateObjectProperties(This)->stack;
}

static void STDMETHODCALLTYPE props_SetPipelineStackSize(ID3D12StateObjectProperties *This, UINT64 bytes)
{
	/* Taken as the title's promise, as D3D12 does; DispatchRays reads it
	 * when it is recorded. Over 0xffffffff (likely a sum with an invalid
	 * GetShaderStackSize) D3D12 drops the call, saying so. */
	d3d12_state_object *so = impl_from_ID3D12StateObjectProperties(This);
	if (bytes > 0xffffffffull) {
		d3d12_message(so->obj.device, XS_MSG_RTPSO_STACK_SIZE, "SetPipelineStackSize(%llu): over 0xffffffff, "
			      "dropped (a sum with GetShaderStackSize's 0xffffffff for an unknown shader?); the stack size "
			      "stays %llu", (unsigned long long)bytes, (unsigned long long)so->stack);
		return;
	}
	so->stack = bytes;
}

uint64_t d3d12_state_object_scratch_per_lane(const d3d12_state_object *so)
{
	return so->entry_frame + so->stack;
}

/* S2.4: the scratch bytes per LANE the pipeline needs. */
static HRESULT STDMETHODCALLTYPE props_GetInformationX(ID3D12StateObjectProperties *This, UINT flags,
						       D3D12XBOX_RAYTRACING_INFORMATION *info)
{
	d3d12_state_object *so = impl_from_ID3D12StateObjectProperties(This);
	if (flags || !info) {
		d3d12_message(so->obj.device, XS_MSG_RTPSO_INFO_FLAGS, "GetInformationX(Flags 0x%x, %s): Flags is 0 "
			      "and the information a D3D12XBOX_RAYTRACING_INFORMATION", flags, info ? "info" : "NULL");
		if (info)
			info->ScratchSize = 0;
		return E_INVALIDARG;
	}
	uint64_t lane = d3d12_state_object_scratch_per_lane(so);
	info->ScratchSize = lane > UINT32_MAX ? UINT32_MAX : (UINT)lane;
	return S_OK;
}

static const ID3D12StateObjectPropertiesXVtbl props_vtbl = {
	.Base = {
		XS_D3D12_STUBS_ID3D12StateObjectProperties,
		.QueryInterface = props_QueryInterface, .AddRef = props_AddRef, .Release = props_Release,
		.GetShaderIdentifier = props_GetShaderIdentifier, .GetShaderStackSize = props_GetShaderStackSize,
		.GetPipelineStackSize = props_GetPipelineStackSize, .SetPipelineStackSize = props_SetPipelineStackSize,
	},
	.GetInformationX = props_GetInformationX,
};
_Static_assert(offsetof(ID3D12StateObjectPropertiesXVtbl, GetInformationX) == 7 * sizeof(void *),
	       "GetInformationX follows the official slots (slot 7)");

/* ---- creation -------------------------------------------------------------------------- */

/* The entry: the code object's one kernel taking a single global pointer. */
static const xs_codeobj_kernel *find_entry(const xs_codeobj *co, uint32_t *arg_offset, uint32_t *n)
{
	const xs_codeobj_kernel *found = NULL;
	*n = 0;
	for (uint32_t i = 0; i < co->nkernels; i++) {
		const xs_codeobj_kernel *k = &co->kernels[i];
		uint32_t explicit = 0, off = 0;
		bool ptr = false;
		for (uint32_t j = 0; j < k->info.num_args; j++) {
			if (k->info.args[j].kind == XS_ARG_HIDDEN)
				continue;
			explicit++;
			ptr = k->info.args[j].kind == XS_ARG_GLOBAL_BUFFER;
			off = k->info.args[j].offset;
		}
		if (explicit == 1 && ptr) {
			found = k;
			*arg_offset = off;
			++*n;
		}
	}
	return *n == 1 ? found : NULL;
}

typedef struct lib_fn {
	char name[128];
	uint64_t va, frame;
	bool taken;
} lib_fn;

typedef struct builder {
	d3d12_device *d;
	d3d12_state_object *so;
	lib_fn *fns;
	uint32_t nfns, cap;
	uint32_t cap_exports;
	HRESULT oom; /* E_OUTOFMEMORY once the host's memory ran out: the call's result, not E_INVALIDARG */
} builder;

static d3d12_rt_export *new_export(builder *b, const char *name)
{
	d3d12_state_object *so = b->so;
	if (find_export(so, name)) {
		d3d12_message(b->d, XS_MSG_RTPSO_DUPLICATE, "CreateStateObject: two exports named '%s'", name);
		return NULL;
	}
	if (so->nexports == b->cap_exports) {
		uint32_t ncap = b->cap_exports ? 2 * b->cap_exports : 16;
		d3d12_rt_export *n = xs_realloc(so->exports, ncap * sizeof(*n));
		if (!n) {
			b->oom = E_OUTOFMEMORY;
			return NULL;
		}
		so->exports = n;
		b->cap_exports = ncap;
	}
	d3d12_rt_export *x = &so->exports[so->nexports++];
	memset(x, 0, sizeof(*x));
	snprintf(x->name, sizeof(x->name), "%s", name);
	x->member[0] = x->member[1] = x->member[2] = -1;
	return x;
}

/* One DXIL_LIBRARY: its code object loaded, its functions, its exports. */
static bool add_library(builder *b, const D3D12_DXIL_LIBRARY_DESC *lib, uint32_t index)
{
	d3d12_device *d = b->d;
	d3d12_state_object *so = b->so;
	xs_err e;
	if (so->nmods == D3D12_RT_MAX_LIBRARIES) {
		d3d12_message(d, XS_MSG_RTPSO_SUBOBJECT, "CreateStateObject: more than %u DXIL libraries",
			      D3D12_RT_MAX_LIBRARIES);
		return false;
	}
	const void *code = lib->DXILLibrary.pShaderBytecode;
	size_t size = lib->DXILLibrary.BytecodeLength;
	xs_rt_module *m;
	if (!code || !size || xs_rt_module_load(d->rt, code, size, &m, &e)) {
		d3d12_message(d, XS_MSG_PIPELINE_CODE_OBJECT, "CreateStateObject: DXIL library %u: %s", index,
			      code && size ? e.msg : "no bytecode");
		if (code && size && e.status == XS_E_OUT_OF_MEMORY)
			b->oom = E_OUTOFMEMORY;
		return false;
	}
	so->mods[so->nmods++] = m;
	for (uint32_t i = 0; i < m->co->nkernels; i++)
		if (m->co->kernels[i].info.wavefront_size != 32) {
			d3d12_message(d, XS_MSG_RTPSO_NOT_WAVE32, "CreateStateObject: DXIL library %u: kernel '%s' is "
				      "wave%u; ray tracing always runs wave32 (compile without -mwavefrontsize64)", index,
				      m->co->kernels[i].info.name, m->co->kernels[i].info.wavefront_size);
			return false;
		}
	uint32_t arg_off = 0, nentries;
	const xs_codeobj_kernel *k = find_entry(m->co, &arg_off, &nentries);
	if (!k) {
		d3d12_message(d, XS_MSG_RTPSO_NO_ENTRY, "CreateStateObject: DXIL library %u has %s kernel taking one "
			      "pointer (XS12_RT_ENTRY of <xs12/xs12_rt.h>): it needs exactly one", index,
			      nentries ? "more than one" : "no");
		return false;
	}
	/* The functions: the code's STT_FUNC symbols but the kernels. */
	xs_codeobj_code *c;
	if (xs_codeobj_code_open(code, size, &c, &e)) {
		d3d12_message(d, XS_MSG_PIPELINE_CODE_OBJECT, "CreateStateObject: DXIL library %u: %s", index, e.msg);
		if (e.status == XS_E_OUT_OF_MEMORY)
			b->oom = E_OUTOFMEMORY;
		return false;
	}
	size_t nsym = xs_codeobj_code_functions(c, NULL, 0);
	xs_codeobj_symbol *syms = xs_calloc(nsym ? nsym : 1, sizeof(*syms));
	if (!syms) {
		xs_codeobj_code_free(c);
		b->oom = E_OUTOFMEMORY;
		return false;
	}
	xs_codeobj_code_functions(c, syms, nsym);
	uint32_t first = b->nfns;
	bool measured = true;
	for (size_t i = 0; i < nsym; i++) {
		bool kernel = false;
		for (uint32_t j = 0; j < m->co->nkernels && !kernel; j++)
			kernel = !strcmp(syms[i].name, m->co->kernels[j].info.name);
		bool dup = false;
		for (uint32_t j = first; j < b->nfns && !dup; j++)
			dup = !strcmp(b->fns[j].name, syms[i].name);
		if (kernel || dup || strlen(syms[i].name) >= sizeof(b->fns[0].name))
			continue;
		if (b->nfns == b->cap) {
			uint32_t ncap = b->cap ? 2 * b->cap : 32;
			lib_fn *n = xs_realloc(b->fns, ncap * sizeof(*n));
			if (!n) { /* not a shorter function list: a pipeline without some exports */
				free(syms);
				xs_codeobj_code_free(c);
				b->oom = E_OUTOFMEMORY;
				return false;
			}
			b->fns = n;
			b->cap = ncap;
		}
		lib_fn *f = &b->fns[b->nfns++];
		memset(f, 0, sizeof(*f));
		snprintf(f->name, sizeof(f->name), "%s", syms[i].name);
		f->va = m->load_va + syms[i].addr;
		if (!xs_codeobj_code_stack_size(c, syms[i].addr, &f->frame)) {
			f->frame = LLVM_ASSUMED_CALL_STACK;
			measured = false;
		}
	}
	uint64_t entry_frame = 0;
	uint64_t entry_addr = k->entry_vaddr;
	if (!xs_codeobj_code_stack_size(c, entry_addr, &entry_frame)) {
		/* LLVM counts one assumed external call into a kernel that makes them */
		uint32_t psfs = k->info.private_segment_fixed_size;
		entry_frame = k->info.uses_dynamic_stack && psfs >= LLVM_ASSUMED_CALL_STACK ? psfs - LLVM_ASSUMED_CALL_STACK
											       : psfs;
		measured = false;
	}
	free(syms);
	xs_codeobj_code_free(c);
	if (!so->entry) {
		so->entry = k;
		so->entry_arg_offset = arg_off;
		so->entry_frame = entry_frame;
		so->measured = measured;
	} else {
		so->measured = so->measured && measured;
	}
	/* Exports: the ones named (ExportToRename: the function's name in the
	 * library), or every function. */
	if (!lib->NumExports) {
		for (uint32_t j = first; j < b->nfns; j++) {
			d3d12_rt_export *x = new_export(b, b->fns[j].name);
			if (!x)
				return false;
			x->id = (xs12_rt_shader_id){ .function = b->fns[j].va, .kind = XS12_RT_KIND_FUNCTION };
			x->stack = b->fns[j].frame;
		}
		return true;
	}
	if (!lib->pExports) {
		d3d12_message(d, XS_MSG_RTPSO_SUBOBJECT, "CreateStateObject: DXIL library %u: NumExports %u, pExports NULL",
			      index, lib->NumExports);
		return false;
	}
	for (UINT i = 0; i < lib->NumExports; i++) {
		const D3D12_EXPORT_DESC *xd = &lib->pExports[i];
		char name[128], from[128];
		if (!utf8_of(xd->Name, name, sizeof(name)) ||
		    !utf8_of(xd->ExportToRename ? xd->ExportToRename : xd->Name, from, sizeof(from))) {
			d3d12_message(d, XS_MSG_RTPSO_EXPORT, "CreateStateObject: DXIL library %u, export %u: no name (or "
				      "one over 127 bytes)", index, i);
			return false;
		}
		const lib_fn *f = NULL;
		for (uint32_t j = first; j < b->nfns && !f; j++)
			if (!strcmp(b->fns[j].name, from))
				f = &b->fns[j];
		if (!f) {
			d3d12_message(d, XS_MSG_RTPSO_EXPORT, "CreateStateObject: DXIL library %u exports '%s'%s%s%s, which "
				      "is no function of its code object (an extern \"C\" __device__ function kept by "
				      "XS12_RT_SHADER)", index, from, strcmp(name, from) ? " (as '" : "",
				      strcmp(name, from) ? name : "", strcmp(name, from) ? "')" : "");
			return false;
		}
		d3d12_rt_export *x = new_export(b, name);
		if (!x)
			return false;
		x->id = (xs12_rt_shader_id){ .function = f->va, .kind = XS12_RT_KIND_FUNCTION };
		x->stack = f->frame;
	}
	return true;
}

static bool add_hit_group(builder *b, const D3D12_HIT_GROUP_DESC *g)
{
	d3d12_device *d = b->d;
	d3d12_state_object *so = b->so;
	char name[128];
	if (!utf8_of(g->HitGroupExport, name, sizeof(name)) ||
	    (g->Type != D3D12_HIT_GROUP_TYPE_TRIANGLES && g->Type != D3D12_HIT_GROUP_TYPE_PROCEDURAL_PRIMITIVE)) {
		d3d12_message(d, XS_MSG_RTPSO_SUBOBJECT, "CreateStateObject: a hit group with no name or of type %d",
			      (int)g->Type);
		return false;
	}
	LPCWSTR imports[3] = { g->ClosestHitShaderImport, g->AnyHitShaderImport, g->IntersectionShaderImport };
	static const char *const what[3] = { "closest hit", "any hit", "intersection" };
	int member[3] = { -1, -1, -1 };
	for (int i = 0; i < 3; i++) {
		char imp[128];
		if (!imports[i])
			continue;
		const d3d12_rt_export *x = utf8_of(imports[i], imp, sizeof(imp)) ? find_export(so, imp) : NULL;
		if (!x || x->hit_group) {
			d3d12_message(d, XS_MSG_RTPSO_EXPORT, "CreateStateObject: hit group '%s' imports the %s shader '%s', "
				      "which no DXIL library exports", name, what[i], x ? imp : imp);
			return false;
		}
		member[i] = (int)(x - so->exports);
	}
	/* D3D12_HIT_GROUP_TYPE: a TRIANGLES group can't contain an intersection
	 * shader, a PROCEDURAL_PRIMITIVE one must */
	if ((g->Type == D3D12_HIT_GROUP_TYPE_TRIANGLES) != (member[2] < 0)) {
		d3d12_message(d, XS_MSG_RTPSO_SUBOBJECT, "CreateStateObject: hit group '%s' of type %s %s an intersection "
			      "shader: D3D12 wants one in a procedural-primitive hit group and none in a triangles one",
			      name, g->Type == D3D12_HIT_GROUP_TYPE_TRIANGLES ? "TRIANGLES" : "PROCEDURAL_PRIMITIVE",
			      member[2] < 0 ? "without" : "with");
		return false;
	}
	d3d12_rt_export *x = new_export(b, name);
	if (!x)
		return false;
	x->hit_group = true;
	memcpy(x->member, member, sizeof(member));
	x->id.kind = XS12_RT_KIND_HIT_GROUP;
	x->id.function = member[0] >= 0 ? so->exports[member[0]].id.function : 0;
	x->id.any_hit = member[1] >= 0 ? so->exports[member[1]].id.function : 0;
	x->id.intersection = member[2] >= 0 ? so->exports[member[2]].id.function : 0;
	return true;
}

/* S2.7: the default pipeline stack, D3D12's formula for it
 *   RGS + max(CHS, MS, IS + AHS) x min(1, depth) + max(CHS, MS) x max(depth - 1, 0) + 2 x CS
 * with two changes: a function export may be any of ray generation, miss
 * and callable (a code object does not say which), so RGS, MS and CS are
 * the largest frame of them all; and min(1, depth) is 1, since
 * xs12_rt_call_miss calls a miss shader from the ray generation without
 * TraceRay. TraceRay's own frame (its traversal stack, ray and hit record)
 * needs no term: xs12_rt_trace_ray is always inlined, so it is in the
 * .stack_sizes frame of each shader that calls it, and a TraceRay beyond
 * max_recursion faults rather than going deeper. */
static uint64_t default_stack(const d3d12_state_object *so)
{
	uint64_t fn = 0, chs = 0, ahs = 0, is = 0;
	for (uint32_t i = 0; i < so->nexports; i++) {
		const d3d12_rt_export *x = &so->exports[i];
		if (!x->hit_group) {
			fn = XS_MAX(fn, x->stack);
			continue;
		}
		if (x->member[0] >= 0)
			chs = XS_MAX(chs, so->exports[x->member[0]].stack);
		if (x->member[1] >= 0)
			ahs = XS_MAX(ahs, so->exports[x->member[1]].stack);
		if (x->member[2] >= 0)
			is = XS_MAX(is, so->exports[x->member[2]].stack);
	}
	uint64_t depth = so->max_recursion;
	uint64_t first = XS_MAX(XS_MAX(chs, fn), is + ahs);
	uint64_t deeper = XS_MAX(chs, fn) * (depth > 1 ? depth - 1 : 0);
	return fn + first + deeper + 2 * fn;
}

HRESULT d3d12_state_object_create(d3d12_device *d, const D3D12_STATE_OBJECT_DESC *desc, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	if (!desc || (desc->NumSubobjects && !desc->pSubobjects)) {
		d3d12_message(d, XS_MSG_RTPSO_SUBOBJECT, "CreateStateObject: no description");
		return E_INVALIDARG;
	}
	if (desc->Type != D3D12_STATE_OBJECT_TYPE_RAYTRACING_PIPELINE) {
		d3d12_message(d, XS_MSG_NOT_IMPLEMENTED, "CreateStateObject: type %d: xs12 makes ray-tracing pipelines "
			      "only (no collections)", (int)desc->Type);
		return E_NOTIMPL;
	}
	d3d12_state_object *so = xs_calloc(1, sizeof(*so));
	if (!so)
		return E_OUTOFMEMORY;
	so->iface.lpVtbl = &state_object_vtbl;
	so->props.lpVtbl = &props_vtbl.Base;
	d3d12_object_init(&so->obj, d, "ID3D12StateObject");
	builder b = { .d = d, .so = so };
	HRESULT hr = E_INVALIDARG;
	bool shader_config = false, pipeline_config = false;
	/* Libraries first, hit groups after them (they import the libraries' exports). */
	uint32_t nlib = 0;
	for (UINT i = 0; i < desc->NumSubobjects; i++)
		if (desc->pSubobjects[i].Type == D3D12_STATE_SUBOBJECT_TYPE_DXIL_LIBRARY) {
			const D3D12_DXIL_LIBRARY_DESC *lib = desc->pSubobjects[i].pDesc;
			if (!lib) { /* failed without a message before: say which */
				d3d12_message(d, XS_MSG_RTPSO_SUBOBJECT,
					      "CreateStateObject: subobject %u (DXIL_LIBRARY) has no pDesc", i);
				goto fail;
			}
			if (!add_library(&b, lib, nlib++))
				goto fail;
		}
	for (UINT i = 0; i < desc->NumSubobjects; i++) {
		const D3D12_STATE_SUBOBJECT *s = &desc->pSubobjects[i];
		if (!s->pDesc && s->Type != D3D12_STATE_SUBOBJECT_TYPE_DXIL_LIBRARY) {
			d3d12_message(d, XS_MSG_RTPSO_SUBOBJECT, "CreateStateObject: subobject %u (type %d) has no pDesc", i,
				      (int)s->Type);
			goto fail;
		}
		switch (s->Type) {
		case D3D12_STATE_SUBOBJECT_TYPE_DXIL_LIBRARY:
			break;
		case D3D12_STATE_SUBOBJECT_TYPE_HIT_GROUP:
			if (!add_hit_group(&b, s->pDesc))
				goto fail;
			break;
		case D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_SHADER_CONFIG: {
			const D3D12_RAYTRACING_SHADER_CONFIG *c = s->pDesc;
			if (c->MaxAttributeSizeInBytes > D3D12_RAYTRACING_MAX_ATTRIBUTE_SIZE_IN_BYTES) {
				d3d12_message(d, XS_MSG_RTPSO_CONFIG, "CreateStateObject: MaxAttributeSizeInBytes %u is over "
					      "%u (D3D12_RAYTRACING_MAX_ATTRIBUTE_SIZE_IN_BYTES)", c->MaxAttributeSizeInBytes,
					      D3D12_RAYTRACING_MAX_ATTRIBUTE_SIZE_IN_BYTES);
				goto fail;
			}
			so->max_payload = c->MaxPayloadSizeInBytes;
			so->max_attributes = c->MaxAttributeSizeInBytes;
			shader_config = true;
			break;
		}
		case D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_PIPELINE_CONFIG:
		case D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_PIPELINE_CONFIG1: {
			UINT depth = s->Type == D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_PIPELINE_CONFIG
					     ? ((const D3D12_RAYTRACING_PIPELINE_CONFIG *)s->pDesc)->MaxTraceRecursionDepth
					     : ((const D3D12_RAYTRACING_PIPELINE_CONFIG1 *)s->pDesc)->MaxTraceRecursionDepth;
			if (s->Type == D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_PIPELINE_CONFIG1)
				so->pipeline_flags = (UINT)((const D3D12_RAYTRACING_PIPELINE_CONFIG1 *)s->pDesc)->Flags;
			if (depth > D3D12_RAYTRACING_MAX_DECLARABLE_TRACE_RECURSION_DEPTH) {
				d3d12_message(d, XS_MSG_RTPSO_RECURSION, "CreateStateObject: MaxTraceRecursionDepth %u is over "
					      "%u (D3D12_RAYTRACING_MAX_DECLARABLE_TRACE_RECURSION_DEPTH)", depth,
					      D3D12_RAYTRACING_MAX_DECLARABLE_TRACE_RECURSION_DEPTH);
				goto fail;
			}
			so->max_recursion = depth;
			pipeline_config = true;
			break;
		}
		case D3D12_STATE_SUBOBJECT_TYPE_GLOBAL_ROOT_SIGNATURE: {
			ID3D12RootSignature *rs = ((const D3D12_GLOBAL_ROOT_SIGNATURE *)s->pDesc)->pGlobalRootSignature;
			d3d12_root_signature *r = d3d12_root_signature_from_iface(rs);
			if (!r || r->nparams > XS12_RT_MAX_GLOBAL_PARAMS) {
				d3d12_message(d, XS_MSG_RTPSO_SUBOBJECT, "CreateStateObject: the global root signature is "
					      "not an xs12 root signature of at most %u parameters", XS12_RT_MAX_GLOBAL_PARAMS);
				goto fail;
			}
			if (so->global_root)
				ID3D12RootSignature_Release(&so->global_root->iface);
			ID3D12RootSignature_AddRef(rs);
			so->global_root = r;
			break;
		}
		case D3D12_STATE_SUBOBJECT_TYPE_LOCAL_ROOT_SIGNATURE:
			/* local arguments are the record's bytes after the identifier
			 * (xs12_rt_local): the layout is the shaders' and the title's */
			if (!d3d12_root_signature_from_iface(((const D3D12_LOCAL_ROOT_SIGNATURE *)s->pDesc)->pLocalRootSignature)) {
				d3d12_message(d, XS_MSG_RTPSO_SUBOBJECT, "CreateStateObject: the local root signature of "
					      "subobject %u is not an xs12 root signature", i);
				goto fail;
			}
			so->nlocal_roots++;
			break;
		case D3D12_STATE_SUBOBJECT_TYPE_SUBOBJECT_TO_EXPORTS_ASSOCIATION:
		case D3D12_STATE_SUBOBJECT_TYPE_DXIL_SUBOBJECT_TO_EXPORTS_ASSOCIATION:
			so->nassociations++;
			break;
		case D3D12_STATE_SUBOBJECT_TYPE_STATE_OBJECT_CONFIG:
		case D3D12_STATE_SUBOBJECT_TYPE_NODE_MASK:
			break;
		default:
			d3d12_message(d, XS_MSG_RTPSO_SUBOBJECT, "CreateStateObject: subobject %u of type %d: xs12 takes "
				      "libraries, hit groups, configs, root signatures and associations (no collections)",
				      i, (int)s->Type);
			goto fail;
		}
	}
	if (!nlib) {
		d3d12_message(d, XS_MSG_RTPSO_NO_ENTRY, "CreateStateObject: a ray-tracing pipeline without a DXIL "
			      "library");
		goto fail;
	}
	if (!shader_config || !pipeline_config) {
		d3d12_message(d, XS_MSG_RTPSO_CONFIG, "CreateStateObject: a ray-tracing pipeline needs a "
			      "RAYTRACING_SHADER_CONFIG and a RAYTRACING_PIPELINE_CONFIG subobject; %s missing",
			      !shader_config && !pipeline_config ? "both are" : !shader_config ? "the shader config is"
											: "the pipeline config is");
		goto fail;
	}
	so->default_stack = so->stack = default_stack(so);
	free(b.fns);
	hr = ID3D12StateObject_QueryInterface(&so->iface, riid, out);
	ID3D12StateObject_Release(&so->iface);
	return hr;
fail:
	free(b.fns);
	ID3D12StateObject_Release(&so->iface);
	return FAILED(b.oom) ? b.oom : hr;
}
