/*
 * Command allocators and command lists (ID3D12CommandAllocator,
 * ID3D12GraphicsCommandList6 with the Xbox methods appended).
 *
 * A list records PM4 through the runtime into a builder; kernarg segments
 * and AQL packets go into its allocator's GPU memory at record time, and
 * Close writes the PM4 there too, so a closed list is executed as often as
 * it is submitted and the allocator's Reset frees it all (D3D12's rule:
 * not while its lists are in flight). The first broken rule is kept
 * (vkd3d's is_valid): Close then fails with E_INVALIDARG and nothing of the
 * list runs. The Xbox methods are in xs_d3d12_command_xbox.c.
 */
#include "d3d12/xs_d3d12_private.h"
#include "d3d12/xs_d3d12_limits.h"
#include "d3d12/xs_d3d12_rt.h"
#include "hw/xs_hw_pm4.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- allocators ------------------------------------------------------------------------- */

static d3d12_allocator *impl_from_ID3D12CommandAllocator(ID3D12CommandAllocator *iface)
{
	return container_of(iface, d3d12_allocator, iface);
}

static HRESULT STDMETHODCALLTYPE alloc_QueryInterface(ID3D12CommandAllocator *This, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	if (iid_is(riid, &IID_ID3D12CommandAllocator) || iid_is(riid, &IID_ID3D12Pageable) ||
	    iid_is(riid, &IID_ID3D12DeviceChild) || iid_is(riid, &IID_ID3D12Object) || iid_is(riid, &IID_IUnknown)) {
		ID3D12CommandAllocator_AddRef(This);
		*out = This;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE alloc_AddRef(ID3D12CommandAllocator *This)
{
	return atomic_fetch_add(&impl_from_ID3D12CommandAllocator(This)->obj.refcount, 1) + 1;
}

static bool allocator_in_flight(d3d12_allocator *a, unsigned *hw)
{
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
		if (a->last_seq[q] > xs_rt_queue_done(a->obj.device->rt, q)) {
			*hw = q;
			return true;
		}
	return false;
}

static ULONG STDMETHODCALLTYPE alloc_Release(ID3D12CommandAllocator *This)
{
	d3d12_allocator *a = impl_from_ID3D12CommandAllocator(This);
	ULONG n = atomic_fetch_sub(&a->obj.refcount, 1) - 1;
	if (!n) {
		unsigned hw;
		if (allocator_in_flight(a, &hw)) {
			/* Its memory holds PM4 the GPU will still read: it stays until the device goes. */
			char lab[200];
			d3d12_message(a->obj.device, XS_MSG_ALLOCATOR_IN_FLIGHT,
				      "releasing %s while lists recorded from it are in flight on hardware queue %u",
				      d3d12_object_label(&a->obj, lab, sizeof(lab)), hw);
			d3d12_dred_allocator_gone(a->obj.device, a, true);
			xs_rt_cmdmem_abandon(&a->mem);
		} else {
			d3d12_dred_allocator_gone(a->obj.device, a, false);
			xs_rt_cmdmem_free(&a->mem);
		}
		d3d12_object_fini(&a->obj);
		free(a);
	}
	return n;
}

D3D12_OBJECT_METHODS(alloc, ID3D12CommandAllocator, d3d12_allocator)

static HRESULT STDMETHODCALLTYPE alloc_Reset(ID3D12CommandAllocator *This)
{
	d3d12_allocator *a = impl_from_ID3D12CommandAllocator(This);
	char lab[200];
	unsigned hw;
	if (allocator_in_flight(a, &hw)) {
		d3d12_message(a->obj.device, XS_MSG_ALLOCATOR_IN_FLIGHT,
			      "Reset of %s: a list recorded from it is still in flight on hardware queue %u (wait on a "
			      "fence the queue signals after it first)", d3d12_object_label(&a->obj, lab, sizeof(lab)), hw);
		return E_FAIL;
	}
	if (a->recording) {
		d3d12_message(a->obj.device, XS_MSG_ALLOCATOR_IN_USE,
			      "Reset of %s while a command list records into it", d3d12_object_label(&a->obj, lab, sizeof(lab)));
		return E_FAIL;
	}
	d3d12_dred_allocator_gone(a->obj.device, a, false);
	xs_rt_cmdmem_reset(&a->mem);
	return S_OK;
}

static const ID3D12CommandAllocatorVtbl allocator_vtbl = {
	XS_D3D12_STUBS_ID3D12CommandAllocator,
	.QueryInterface = alloc_QueryInterface, .AddRef = alloc_AddRef, .Release = alloc_Release,
	D3D12_OBJECT_SLOTS(alloc), .Reset = alloc_Reset,
};

d3d12_allocator *d3d12_allocator_from_iface(ID3D12CommandAllocator *iface)
{
	if (!iface || iface->lpVtbl != &allocator_vtbl)
		return NULL;
	return impl_from_ID3D12CommandAllocator(iface);
}

HRESULT d3d12_allocator_create(d3d12_device *d, D3D12_COMMAND_LIST_TYPE type, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	if (type != D3D12_COMMAND_LIST_TYPE_DIRECT && type != D3D12_COMMAND_LIST_TYPE_COMPUTE &&
	    type != D3D12_COMMAND_LIST_TYPE_COPY) {
		d3d12_message(d, XS_MSG_LIST_TYPE, "CreateCommandAllocator: type %d (DIRECT, COMPUTE or COPY)", (int)type);
		return E_INVALIDARG;
	}
	d3d12_allocator *a = xs_calloc(1, sizeof(*a));
	if (!a)
		return E_OUTOFMEMORY;
	a->iface.lpVtbl = &allocator_vtbl;
	d3d12_object_init(&a->obj, d, "ID3D12CommandAllocator");
	a->type = type;
	xs_rt_cmdmem_init(&a->mem, d->rt, "a command allocator's memory (kernargs, AQL packets, PM4)");
	HRESULT hr = ID3D12CommandAllocator_QueryInterface(&a->iface, riid, out);
	ID3D12CommandAllocator_Release(&a->iface);
	return hr;
}

/* ---- lists: errors and breadcrumbs ------------------------------------------------------- */

static d3d12_list *impl_from_ID3D12GraphicsCommandList6(ID3D12GraphicsCommandList6 *iface)
{
	return container_of(iface, d3d12_list, iface);
}

d3d12_list *d3d12_list_from_iface(ID3D12GraphicsCommandList6 *iface)
{
	return impl_from_ID3D12GraphicsCommandList6(iface);
}

d3d12_list *d3d12_list_from_command_list(ID3D12CommandList *iface)
{
	if (!iface || iface->lpVtbl != (const ID3D12CommandListVtbl *)(const void *)&d3d12_list_vtbl.Base)
		return NULL;
	return container_of((ID3D12GraphicsCommandList6 *)(void *)iface, d3d12_list, iface);
}

static void keep_error(d3d12_list *l, const xs_err *e)
{
	if (!l->err.status)
		l->err = *e;
}

void d3d12_list_error(d3d12_list *l, xs_rt_msg_id id, const char *fmt, ...)
{
	xs_err e;
	const xs_rt_msg_info *m = xs_rt_msg(id);
	int n = snprintf(e.msg, sizeof(e.msg), "%s: ", m->rule);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e.msg + n, sizeof(e.msg) - (size_t)n, fmt, ap);
	va_end(ap);
	e.status = m->severity <= XS_SEV_ERROR ? XS_E_INVALID_ARG : XS_OK;
	e.id = id;
	d3d12_message_err(l->obj.device, &e);
	if (e.status)
		keep_error(l, &e);
}

void d3d12_list_error_err(d3d12_list *l, const xs_err *e)
{
	d3d12_message_err(l->obj.device, e);
	keep_error(l, e);
}

/* Host memory ran out while recording: Close fails with E_OUTOFMEMORY (as
 * D3D12's), rather than the list running without what was lost. */
static void list_out_of_memory(d3d12_list *l, const char *what)
{
	xs_err e;
	xs_err_set(&e, XS_E_OUT_OF_MEMORY, "host out of memory for the list's %s", what);
	keep_error(l, &e);
}

void d3d12_list_breadcrumb_add(d3d12_list *l, D3D12_AUTO_BREADCRUMB_OP op)
{
	if (l->nops == l->cap_ops) {
		uint32_t ncap = l->cap_ops ? 2 * l->cap_ops : 32;
		D3D12_AUTO_BREADCRUMB_OP *n = xs_realloc(l->ops, ncap * sizeof(*n));
		if (!n) {
			list_out_of_memory(l, "breadcrumbs");
			return;
		}
		l->ops = n;
		l->cap_ops = ncap;
	}
	l->ops[l->nops++] = op;
	/* DRED: the GPU counts the ops it completed, as D3D12's breadcrumbs:
	 * an end-of-pipe write after the op's work (docs/d3d12.md). */
	if (l->crumb)
		xs_pm4_fence(&l->pm4, l->crumb_va, l->nops, false);
}

void d3d12_list_note_use(d3d12_list *l, uint64_t va)
{
	if (!va || (l->nused && l->used_va[l->nused - 1] == va))
		return;
	if (l->nused == l->cap_used) {
		uint32_t ncap = l->cap_used ? 2 * l->cap_used : 16;
		uint64_t *n = xs_realloc(l->used_va, ncap * sizeof(*n));
		if (!n) {
			list_out_of_memory(l, "resource list");
			return;
		}
		l->used_va = n;
		l->cap_used = ncap;
	}
	l->used_va[l->nused++] = va;
}

/* A recording call on a closed list, or after a broken rule: ignored (the
 * first is an error of its own). */
static bool recording(d3d12_list *l, const char *method)
{
	if (!l->open) {
		d3d12_list_error(l, XS_MSG_LIST_CLOSED, "%s on a closed command list", method);
		return false;
	}
	return true;
}

static bool same_layout(const d3d12_scratch_use *u, const xs_rt_launch_info *info)
{
	return u->va == info->ring_va && u->size == info->ring_bytes && u->per_wave == info->per_wave &&
	       u->slots == info->ring_slots;
}

/* A dispatch's scratch use. S1.7: a ring laid over memory that an earlier
 * ring of the list, not separated by a full flush, laid out differently may
 * still hold needs that flush (the debug layer says so; false then). */
bool d3d12_list_add_scratch_use(d3d12_list *l, const xs_rt_launch_info *info, const char *kernel)
{
	d3d12_device *d = l->obj.device;
	for (uint32_t i = 0; d->debug && i < l->nuses; i++) {
		const d3d12_scratch_use *u = &l->uses[i];
		if (u->epoch == l->flush_epoch && !same_layout(u, info) && u->va < info->ring_va + info->ring_bytes &&
		    info->ring_va < u->va + u->size) {
			d3d12_list_error(l, XS_MSG_SCRATCH_REUSE_NO_FLUSH,
					 "dispatch %u (%s) lays a ring of %u slots of %llu KB over 0x%llx (%llu bytes), memory "
					 "that %s's ring of %u slots of %u KB still uses: reusing the memory under a ring needs "
					 "a full pipeline flush (a ResourceBarrier) between them", l->ndispatches, kernel,
					 info->ring_slots, (unsigned long long)info->per_wave / 1024,
					 (unsigned long long)info->ring_va, (unsigned long long)info->ring_bytes, u->who,
					 u->slots, u->per_wave / 1024);
			return false;
		}
	}
	for (uint32_t i = 0; i < l->nuses; i++)
		if (same_layout(&l->uses[i], info) && l->uses[i].epoch == l->flush_epoch)
			return true;
	if (l->nuses == l->cap_uses) {
		uint32_t ncap = l->cap_uses ? 2 * l->cap_uses : 8;
		d3d12_scratch_use *n = xs_realloc(l->uses, ncap * sizeof(*n));
		if (!n) {
			list_out_of_memory(l, "scratch uses");
			return false;
		}
		l->uses = n;
		l->cap_uses = ncap;
	}
	d3d12_scratch_use *u = &l->uses[l->nuses++];
	memset(u, 0, sizeof(*u));
	u->va = info->ring_va;
	u->size = info->ring_bytes;
	u->per_wave = (uint32_t)info->per_wave;
	u->slots = info->ring_slots;
	u->epoch = l->flush_epoch;
	u->default_ring = info->default_ring;
	u->list_id = l->id;
	char lab[200];
	snprintf(u->who, sizeof(u->who), "%s (dispatch %u, %s)", d3d12_object_label(&l->obj, lab, sizeof(lab)),
		 l->ndispatches, kernel);
	return true;
}

/* ---- lists: dispatches ------------------------------------------------------------------------ */

/* A Dispatch when the launch of the last one holds (nothing it depends on
 * changed since, every rule it passed still passes) and nothing is to be
 * said: it again with these counts, the root arguments written straight
 * into its kernarg segment. The hot path: no launch built, no rule checked
 * again, no buffer gathered. */
static bool dispatch_again(d3d12_list *l, const d3d12_pipeline *p, const d3d12_root_signature *rs, UINT x, UINT y,
			   UINT z, xs_rt_launch_info *info)
{
	d3d12_device *d = l->obj.device;
	uint32_t groups[3] = { x, y, z };
	uint8_t *karg;
	xs_err e;
	if (xs_rt_record_again(d->rt, &l->launch_tmpl, &l->allocator->mem, &l->pm4, groups, info, &karg, &e)) {
		d3d12_list_error_err(l, &e);
		return false;
	}
	/* Locals: the stores through karg may alias anything, which would
	 * reload these from the list at every argument. */
	const UINT n = rs->nparams;
	const d3d12_arg_slot *slots = p->slots;
	const uint8_t(*args)[sizeof(l->root_args[0])] = l->root_args;
	for (UINT i = 0; i < n; i++) {
		/* root views and single constants: one store, not a call */
		if (slots[i].size == 8)
			memcpy(karg + slots[i].kernarg_offset, args[i], 8);
		else if (slots[i].size == 4)
			memcpy(karg + slots[i].kernarg_offset, args[i], 4);
		else
			memcpy(karg + slots[i].kernarg_offset, args[i], XS_MIN(slots[i].size, (UINT)sizeof(args[i])));
	}
	uint32_t lds_start = XS_ALIGN_UP(p->k->info.group_segment_fixed_size, 16u);
	for (UINT i = 0; i < p->ndynamic_lds_args; i++)
		memcpy(karg + p->dynamic_lds_args[i], &lds_start, 4);
	if (d->debug)
		for (UINT i = 0; i < n; i++)
			if (rs->params[i].type != D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS) {
				uint64_t va;
				memcpy(&va, args[i], 8);
				d3d12_list_note_use(l, va);
			}
	return true;
}

/* Any other Dispatch (and ExecuteIndirect's): the explicit arguments
 * gathered here (only the kernel's segment zeroed, not the whole 4 KB
 * buffer: that memset was a fifth of a Dispatch), the rules said in their
 * order, the launch built and recorded (its fixed part kept when it can be).
 * Not inlined: its 4 KB buffer would enlarge every Dispatch's frame. */
static __attribute__((noinline)) bool dispatch_long(d3d12_list *l, const d3d12_pipeline *p, const d3d12_root_signature *rs, UINT x, UINT y,
			  UINT z, uint64_t dims_va, uint64_t launch_va, const xs_rt_kernarg_copy *copies,
			  uint32_t ncopies, xs_rt_launch_info *info)
{
	d3d12_device *d = l->obj.device;
	const xs_codeobj_kernel *k = p->k;
	const xs_kernel_info *ki = &k->info;
	l->launch_kept = false; /* until this one is recorded */
	uint8_t kargs[XS_CODEOBJ_MAX_KERNARG];
	memset(kargs, 0, ki->kernarg_size);
	for (UINT i = 0; i < rs->nparams; i++) {
		const d3d12_arg_slot *s = &p->slots[i];
		if (!(l->root_set >> i & 1) && !dims_va) {
			char arg[96];
			if (s->arg->name && *s->arg->name)
				snprintf(arg, sizeof(arg), "argument '%s'", s->arg->name);
			else
				snprintf(arg, sizeof(arg), "argument %u", (unsigned)(s->arg - ki->args));
			d3d12_list_error(l, XS_MSG_ROOT_ARGUMENT_UNSET, "Dispatch of %s: root parameter %u (%s) was never "
					 "set; it reads 0", ki->name, i, arg);
		}
		memcpy(kargs + s->kernarg_offset, l->root_args[i], XS_MIN(s->size, (UINT)sizeof(l->root_args[i])));
		if (rs->params[i].type != D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS) {
			uint64_t va;
			memcpy(&va, l->root_args[i], 8);
			d3d12_list_use(l, va);
		}
	}
	/* The launch parameters (S3): shape and LDS. */
	xs_rt_launch L = {
		.mod = p->mod, .k = k, .groups = { x, y, z }, .block = { p->block[0], p->block[1], p->block[2] },
		.kernargs = kargs, .kernargs_size = ki->kernarg_size, .ring = l->compute_ring,
		.indirect_dims_va = dims_va, .indirect_launch_va = launch_va, .copies = copies, .ncopies = ncopies,
		.launch_override = l->launch_set,
		.queue = l->type == D3D12_COMMAND_LIST_TYPE_DIRECT ? 0 : 1, /* for the rules only: the queue decides at execution */
	};
	if (l->launch_set) {
		if (l->launch.Flags & D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_NUM_THREADS) {
			L.block[0] = l->launch.NumThreadX;
			L.block[1] = l->launch.NumThreadY;
			L.block[2] = l->launch.NumThreadZ;
		}
		if (l->launch.Flags & D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_LDS_SIZE) {
			uint32_t lds = l->launch.LDSSize * d->rt->info->lds_encode_granule;
			if (lds < ki->group_segment_fixed_size) {
				d3d12_list_error(l, XS_MSG_LAUNCH_LDS_BELOW_STATIC,
						 "Dispatch of %s: LDSSize %u (%u bytes) is below the kernel's %u bytes of static LDS",
						 ki->name, l->launch.LDSSize, lds, ki->group_segment_fixed_size);
				return false;
			}
			L.dynamic_lds = lds - ki->group_segment_fixed_size;
		}
	}
	/* S3.7: what __local pointer arguments get is the LDS beyond the static;
	 * with none, the kernel's accesses through them leave the group's LDS */
	bool warned = false;
	if (d->debug && p->ndynamic_lds_args && !L.dynamic_lds && !launch_va) {
		d3d12_list_error(l, XS_MSG_LAUNCH_LOCAL_NO_LDS,
				 "Dispatch of %s: it has %u __local pointer argument%s, but the group has no LDS beyond the "
				 "kernel's %u bytes of static LDS: give it some with the launch parameters' LDSSize",
				 ki->name, p->ndynamic_lds_args, p->ndynamic_lds_args == 1 ? "" : "s",
				 ki->group_segment_fixed_size);
		warned = true;
	}
	/* __local pointer arguments: the LDS beyond the static (S3.7), from its 16-byte aligned start. */
	uint32_t lds_start = XS_ALIGN_UP(ki->group_segment_fixed_size, 16u);
	for (UINT i = 0; i < p->ndynamic_lds_args; i++)
		memcpy(kargs + p->dynamic_lds_args[i], &lds_start, 4);
	xs_err e;
	if (xs_rt_record_launch_cached(d->rt, &l->launch_tmpl, &l->allocator->mem, &l->pm4, &L, info, &e)) {
		d3d12_list_error_err(l, &e);
		return false;
	}
	/* The next Dispatch may record it again, until the state changes. */
	l->launch_kept = !dims_va && !warned && l->launch_tmpl.valid && l->launch_tmpl.explicit_apart;
	return true;
}

/* A COPY list records copies, barriers and queries; a dispatch on it is
 * refused (the D3D12 debug layer's rule), not run on the queue's compute
 * engine as xs12 otherwise would. */
bool d3d12_list_can_dispatch(d3d12_list *l, const char *method)
{
	if (l->type != D3D12_COMMAND_LIST_TYPE_COPY)
		return true;
	d3d12_list_error(l, XS_MSG_COMPUTE_LIST_TYPE, "%s on a COPY command list: D3D12 takes dispatches on DIRECT and "
			 "COMPUTE lists only", method);
	return false;
}

void d3d12_list_dispatch(d3d12_list *l, UINT x, UINT y, UINT z, uint64_t dims_va, uint64_t launch_va,
			 const xs_rt_kernarg_copy *copies, uint32_t ncopies)
{
	d3d12_device *d = l->obj.device;
	d3d12_pipeline *p = l->pso;
	if (!d3d12_list_can_dispatch(l, dims_va ? "ExecuteIndirect" : "Dispatch"))
		return;
	if (!p) {
		d3d12_list_error(l, XS_MSG_DISPATCH_NO_PIPELINE, "Dispatch(%u, %u, %u) with no compute pipeline set", x, y, z);
		return;
	}
	if (p->gfx) {
		d3d12_list_error(l, XS_MSG_DISPATCH_NO_PIPELINE, "Dispatch(%u, %u, %u) with a graphics pipeline set",
				 x, y, z);
		return;
	}
	d3d12_root_signature *rs = l->root ? l->root : p->root;
	if (rs != p->root && (rs->nparams != p->root->nparams ||
			      memcmp(rs->params, p->root->params, rs->nparams * sizeof(rs->params[0])))) {
		d3d12_list_error(l, XS_MSG_ROOT_SIGNATURE_PIPELINE,
				 "Dispatch: the list's root signature (%u parameters) is not the pipeline's (%u)", rs->nparams,
				 p->root->nparams);
		return;
	}
	if (!dims_va) {
		UINT g[3] = { x, y, z };
		for (int i = 0; i < 3; i++)
			if (g[i] > D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION) {
				d3d12_list_error(l, XS_MSG_DISPATCH_GROUPS_RANGE,
						 "Dispatch(%u, %u, %u): ThreadGroupCount%c %u is over %u "
						 "(D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION)", x, y, z, "XYZ"[i], g[i],
						 D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION);
				return;
			}
		if (!x || !y || !z) {
			d3d12_list_error(l, XS_MSG_DISPATCH_EMPTY, "Dispatch(%u, %u, %u) launches no thread group", x, y, z);
			return;
		}
	}
	const xs_codeobj_kernel *k = p->k;
	const xs_kernel_info *ki = &k->info;
	/* S1.8: a COMPUTE list runs on an async compute queue; with the driver's
	 * default scratch, a shader that uses scratch may not run there. */
	if (d->debug && l->type != D3D12_COMMAND_LIST_TYPE_DIRECT && p->scratch_per_wave && !l->compute_ring.va) {
		d3d12_list_error(l, XS_MSG_SCRATCH_DEFAULT_ON_ASYNC,
				 "Dispatch of %s (%llu KB of scratch per wave) in a COMPUTE list: the driver's default "
				 "scratch is one allocation shared with graphics, which async compute may not use; give "
				 "the list a ring of its own with SetShaderScratchSpaceX (S1.9)", ki->name,
				 (unsigned long long)p->scratch_per_wave / 1024);
		return;
	}
	xs_rt_launch_info info;
	uint64_t all = rs->nparams >= 64 ? ~0ull : (1ull << rs->nparams) - 1;
	bool ok = l->launch_kept && !dims_va && (l->root_set & all) == all
			  ? dispatch_again(l, p, rs, x, y, z, &info)
			  : dispatch_long(l, p, rs, x, y, z, dims_va, launch_va, copies, ncopies, &info);
	if (!ok)
		return;
	if (info.scratch_en)
		d3d12_list_add_scratch_use(l, &info, ki->name);
	l->ndispatches++;
	d3d12_list_breadcrumb(l, dims_va ? D3D12_AUTO_BREADCRUMB_OP_EXECUTEINDIRECT : D3D12_AUTO_BREADCRUMB_OP_DISPATCH);
}

/* ---- ID3D12GraphicsCommandList6 ------------------------------------------------------------- */

static HRESULT STDMETHODCALLTYPE list_QueryInterface(ID3D12GraphicsCommandList6 *This, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	/* Not List7/8: their official slots 80 and 81 are the Xbox methods here. */
	if (iid_is(riid, &IID_ID3D12GraphicsCommandList) || iid_is(riid, &IID_ID3D12GraphicsCommandList1) ||
	    iid_is(riid, &IID_ID3D12GraphicsCommandList2) || iid_is(riid, &IID_ID3D12GraphicsCommandList3) ||
	    iid_is(riid, &IID_ID3D12GraphicsCommandList4) || iid_is(riid, &IID_ID3D12GraphicsCommandList5) ||
	    iid_is(riid, &IID_ID3D12GraphicsCommandList6) || iid_is(riid, &IID_ID3D12CommandList) ||
	    iid_is(riid, &IID_ID3D12DeviceChild) || iid_is(riid, &IID_ID3D12Object) || iid_is(riid, &IID_IUnknown)) {
		ID3D12GraphicsCommandList6_AddRef(This);
		*out = This;
		return S_OK;
	}
	*out = NULL;
	return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE list_AddRef(ID3D12GraphicsCommandList6 *This)
{
	return atomic_fetch_add(&impl_from_ID3D12GraphicsCommandList6(This)->obj.refcount, 1) + 1;
}

static void drop_state(d3d12_list *l)
{
	l->launch_kept = false;
	l->launch_tmpl.valid = false;
	if (l->pso)
		ID3D12PipelineState_Release(&l->pso->iface);
	if (l->root)
		ID3D12RootSignature_Release(&l->root->iface);
	l->pso = NULL;
	l->root = NULL;
	d3d12_list_drop_rays(l);
	d3d12_list_gfx_reset(l); /* D3D12: a list's graphics state starts empty too */
}

static ULONG STDMETHODCALLTYPE list_Release(ID3D12GraphicsCommandList6 *This)
{
	d3d12_list *l = impl_from_ID3D12GraphicsCommandList6(This);
	ULONG n = atomic_fetch_sub(&l->obj.refcount, 1) - 1;
	if (!n) {
		drop_state(l);
		d3d12_exec_forget_list(l->obj.device, l->id);
		if (l->allocator) {
			if (l->allocator->recording == l)
				l->allocator->recording = NULL;
			ID3D12CommandAllocator_Release(&l->allocator->iface);
		}
		xs_pm4_builder_free(&l->pm4);
		free(l->ops);
		free(l->uses);
		free(l->used_va);
		d3d12_object_fini(&l->obj);
		free(l);
	}
	return n;
}

D3D12_OBJECT_METHODS(list, ID3D12GraphicsCommandList6, d3d12_list)

static D3D12_COMMAND_LIST_TYPE STDMETHODCALLTYPE list_GetType(ID3D12GraphicsCommandList6 *This)
{
	return impl_from_ID3D12GraphicsCommandList6(This)->type;
}

static HRESULT STDMETHODCALLTYPE list_Close(ID3D12GraphicsCommandList6 *This)
{
	d3d12_list *l = impl_from_ID3D12GraphicsCommandList6(This);
	if (!l->open) {
		d3d12_list_error(l, XS_MSG_LIST_CLOSED, "Close of a command list that is not open");
		return E_FAIL;
	}
	l->open = false;
	if (l->allocator->recording == l)
		l->allocator->recording = NULL;
	if (xs_pm4_builder_failed(&l->pm4) && !l->err.status)
		keep_error(l, &l->pm4.err);
	if (l->err.status) /* E_OUTOFMEMORY is no broken rule */
		return l->err.status == XS_E_OUT_OF_MEMORY ? E_OUTOFMEMORY : E_INVALIDARG;
	if (l->pm4.cdw) {
		uint8_t *host;
		xs_err e;
		if (xs_rt_cmdmem_alloc(&l->allocator->mem, l->pm4.cdw * 4, 256, &l->pm4_va, &host, &e)) {
			keep_error(l, &e);
			return E_OUTOFMEMORY;
		}
		memcpy(host, l->pm4.dw, l->pm4.cdw * 4);
	}
	return S_OK;
}

static void begin(d3d12_list *l, d3d12_allocator *a, d3d12_pipeline *pso)
{
	drop_state(l);
	if (l->allocator != a) {
		if (l->allocator)
			ID3D12CommandAllocator_Release(&l->allocator->iface);
		l->allocator = a;
		ID3D12CommandAllocator_AddRef(&a->iface);
	}
	a->recording = l;
	xs_pm4_builder_reset(&l->pm4);
	xs_err_clear(&l->err);
	l->open = true;
	l->pm4_va = 0;
	/* the packets recorded, one result slot each at execution: counted per
	 * recording, so ClearState (drop_state) leaves them */
	l->ndispatches = l->ndraws = 0;
	l->nops = l->nuses = l->nused = 0;
	l->flush_epoch = 0;
	l->root_set = 0;
	memset(l->root_args, 0, sizeof(l->root_args));
	/* S1.14: every list starts from the driver default; so do S3's overrides. */
	l->compute_ring = l->graphics_ring = (xs_rt_ring){ 0 };
	l->launch_set = false;
	l->implicit_root_said = false;
	d3d12_list_limits_reset(l); /* S4.6: each list starts from the defaults */
	if ((l->pso = pso))
		ID3D12PipelineState_AddRef(&pso->iface);
	l->crumb = NULL;
	l->crumb_va = 0;
	if (l->obj.device->dred_breadcrumbs) {
		uint8_t *host;
		xs_err e;
		if (xs_rt_cmdmem_alloc(&a->mem, 4, 4, &l->crumb_va, &host, &e)) {
			keep_error(l, &e);
			return;
		}
		l->crumb = (volatile UINT *)(void *)host;
		uint32_t zero = 0;
		xs_pm4_write_data(&l->pm4, l->crumb_va, &zero, 1); /* each execution counts from 0 */
	}
}

static HRESULT STDMETHODCALLTYPE list_Reset(ID3D12GraphicsCommandList6 *This, ID3D12CommandAllocator *alloc,
					    ID3D12PipelineState *pso)
{
	d3d12_list *l = impl_from_ID3D12GraphicsCommandList6(This);
	d3d12_allocator *a = d3d12_allocator_from_iface(alloc);
	if (!a)
		return E_INVALIDARG;
	if (l->open) {
		d3d12_message(l->obj.device, XS_MSG_LIST_NOT_CLOSED, "Reset of a command list that is still open (Close it first)");
		return E_FAIL;
	}
	if (a->recording && a->recording != l) {
		d3d12_message(l->obj.device, XS_MSG_ALLOCATOR_IN_USE,
			      "Reset onto an allocator another open command list records into");
		return E_INVALIDARG;
	}
	if (a->type != l->type)
		return E_INVALIDARG;
	begin(l, a, pso ? d3d12_pipeline_from_iface(pso) : NULL);
	return S_OK;
}

static void STDMETHODCALLTYPE list_ClearState(ID3D12GraphicsCommandList6 *This, ID3D12PipelineState *pso)
{
	d3d12_list *l = impl_from_ID3D12GraphicsCommandList6(This);
	drop_state(l);
	l->root_set = 0;
	l->compute_ring = l->graphics_ring = (xs_rt_ring){ 0 };
	l->launch_set = false;
	d3d12_list_limits_reset(l);
	if ((l->pso = pso ? d3d12_pipeline_from_iface(pso) : NULL))
		ID3D12PipelineState_AddRef(pso);
}

static void STDMETHODCALLTYPE list_Dispatch(ID3D12GraphicsCommandList6 *This, UINT x, UINT y, UINT z)
{
	d3d12_list *l = impl_from_ID3D12GraphicsCommandList6(This);
	if (recording(l, "Dispatch"))
		d3d12_list_dispatch(l, x, y, z, 0, 0, NULL, 0);
}

static void STDMETHODCALLTYPE list_SetPipelineState(ID3D12GraphicsCommandList6 *This, ID3D12PipelineState *pso)
{
	d3d12_list *l = impl_from_ID3D12GraphicsCommandList6(This);
	if (!recording(l, "SetPipelineState"))
		return;
	d3d12_pipeline *p = d3d12_pipeline_from_iface(pso);
	if (pso && !p) {
		d3d12_list_error(l, XS_MSG_DISPATCH_NO_PIPELINE, "SetPipelineState: not an xs12 pipeline state");
		return;
	}
	if (p)
		ID3D12PipelineState_AddRef(pso);
	if (l->pso)
		ID3D12PipelineState_Release(&l->pso->iface);
	if (p != l->pso) /* a pipeline can be made at a freed one's address: no pointer compare */
		l->launch_kept = l->launch_tmpl.valid = false;
	l->pso = p; /* S3.7: the launch parameters stay */
}

static void STDMETHODCALLTYPE list_SetComputeRootSignature(ID3D12GraphicsCommandList6 *This, ID3D12RootSignature *rs)
{
	d3d12_list *l = impl_from_ID3D12GraphicsCommandList6(This);
	if (!recording(l, "SetComputeRootSignature"))
		return;
	d3d12_root_signature *r = d3d12_root_signature_from_iface(rs);
	if (rs && !r) {
		d3d12_list_error(l, XS_MSG_ROOT_SIGNATURE_NONE, "SetComputeRootSignature: not an xs12 root signature");
		return;
	}
	if (r)
		ID3D12RootSignature_AddRef(rs);
	if (l->root)
		ID3D12RootSignature_Release(&l->root->iface);
	if (r != l->root) { /* D3D12: a new root signature forgets the root arguments */
		l->root_set = 0;
		memset(l->root_args, 0, sizeof(l->root_args));
	}
	l->root = r;
}

/* The root signature root arguments go to: the one set, or the pipeline's. */
static d3d12_root_signature *root_for_args(d3d12_list *l, const char *method)
{
	d3d12_root_signature *r = l->root ? l->root : l->pso ? l->pso->root : NULL;
	if (!r)
		d3d12_list_error(l, XS_MSG_ROOT_SIGNATURE_NONE, "%s before SetComputeRootSignature", method);
	else if (!l->root && !l->implicit_root_said) {
		/* D3D12 needs SetComputeRootSignature; code written against xs12
		 * should run on D3D12 too, so say it once per recording. */
		l->implicit_root_said = true;
		d3d12_list_error(l, XS_MSG_ROOT_SIGNATURE_IMPLICIT, "%s with no SetComputeRootSignature: D3D12 requires "
				 "one; xs12 uses the pipeline's (the root signature its kernel's arguments give)", method);
	}
	return r;
}

static void set_constants(d3d12_list *l, UINT index, UINT n, const void *data, UINT offset, const char *method)
{
	if (!recording(l, method))
		return;
	d3d12_root_signature *r = root_for_args(l, method);
	if (!r)
		return;
	if (index >= r->nparams) {
		d3d12_list_error(l, XS_MSG_ROOT_INDEX, "%s: root parameter %u: the root signature has %u", method, index,
				 r->nparams);
		return;
	}
	const d3d12_root_param *p = &r->params[index];
	if (p->type != D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS) {
		d3d12_list_error(l, XS_MSG_ROOT_TYPE, "%s: root parameter %u is not 32-bit constants", method, index);
		return;
	}
	if ((uint64_t)offset + n > p->num32 || !data) {
		d3d12_list_error(l, XS_MSG_ROOT_CONSTANTS_RANGE,
				 "%s: root parameter %u holds %u 32-bit values: values %u..%u are outside it", method, index,
				 p->num32, offset, offset + n - 1);
		return;
	}
	memcpy(l->root_args[index] + 4 * offset, data, 4 * n);
	l->root_set |= 1ull << index;
}

static void STDMETHODCALLTYPE list_SetComputeRoot32BitConstant(ID3D12GraphicsCommandList6 *This, UINT index, UINT v,
							       UINT offset)
{
	set_constants(impl_from_ID3D12GraphicsCommandList6(This), index, 1, &v, offset, "SetComputeRoot32BitConstant");
}

static void STDMETHODCALLTYPE list_SetComputeRoot32BitConstants(ID3D12GraphicsCommandList6 *This, UINT index, UINT n,
								const void *data, UINT offset)
{
	set_constants(impl_from_ID3D12GraphicsCommandList6(This), index, n, data, offset, "SetComputeRoot32BitConstants");
}

static void set_view(d3d12_list *l, UINT index, D3D12_GPU_VIRTUAL_ADDRESS va, D3D12_ROOT_PARAMETER_TYPE type,
		     const char *method)
{
	if (!recording(l, method))
		return;
	d3d12_root_signature *r = root_for_args(l, method);
	if (!r)
		return;
	if (index >= r->nparams) {
		d3d12_list_error(l, XS_MSG_ROOT_INDEX, "%s: root parameter %u: the root signature has %u", method, index,
				 r->nparams);
		return;
	}
	if (r->params[index].type != type) {
		d3d12_list_error(l, XS_MSG_ROOT_TYPE, "%s: root parameter %u is not of that type", method, index);
		return;
	}
	memcpy(l->root_args[index], &va, 8);
	l->root_set |= 1ull << index;
}

static void STDMETHODCALLTYPE list_SetComputeRootConstantBufferView(ID3D12GraphicsCommandList6 *This, UINT index,
								    D3D12_GPU_VIRTUAL_ADDRESS va)
{
	set_view(impl_from_ID3D12GraphicsCommandList6(This), index, va, D3D12_ROOT_PARAMETER_TYPE_CBV,
		 "SetComputeRootConstantBufferView");
}

static void STDMETHODCALLTYPE list_SetComputeRootShaderResourceView(ID3D12GraphicsCommandList6 *This, UINT index,
								    D3D12_GPU_VIRTUAL_ADDRESS va)
{
	set_view(impl_from_ID3D12GraphicsCommandList6(This), index, va, D3D12_ROOT_PARAMETER_TYPE_SRV,
		 "SetComputeRootShaderResourceView");
}

static void STDMETHODCALLTYPE list_SetComputeRootUnorderedAccessView(ID3D12GraphicsCommandList6 *This, UINT index,
								     D3D12_GPU_VIRTUAL_ADDRESS va)
{
	set_view(impl_from_ID3D12GraphicsCommandList6(This), index, va, D3D12_ROOT_PARAMETER_TYPE_UAV,
		 "SetComputeRootUnorderedAccessView");
}

/* Barriers: the dispatches before finish, then caches are made coherent
 * (CS_PARTIAL_FLUSH, ACQUIRE_MEM). */
static void STDMETHODCALLTYPE list_ResourceBarrier(ID3D12GraphicsCommandList6 *This, UINT n,
						   const D3D12_RESOURCE_BARRIER *b)
{
	d3d12_list *l = impl_from_ID3D12GraphicsCommandList6(This);
	if (!recording(l, "ResourceBarrier"))
		return;
	for (UINT i = 0; i < n; i++)
		if (b[i].Type != D3D12_RESOURCE_BARRIER_TYPE_TRANSITION && b[i].Type != D3D12_RESOURCE_BARRIER_TYPE_UAV &&
		    b[i].Type != D3D12_RESOURCE_BARRIER_TYPE_ALIASING) {
			d3d12_list_error(l, XS_MSG_BARRIER, "ResourceBarrier %u: type %d", i, (int)b[i].Type);
			return;
		}
	if (!n)
		return;
	/* the L2 is coherent for every CU: the vector and scalar L0s and the
	 * GL1 go, the L2 stays (as RADV's compute barriers on gfx10) */
	xs_pm4_event_write(&l->pm4, V_028A90_CS_PARTIAL_FLUSH);
	xs_pm4_acquire_mem(&l->pm4, S_586_GLV_INV(1) | S_586_GL1_INV(1) | S_586_GLK_INV(1));
	l->flush_epoch++; /* S1.7: ring memory may be reused after this */
	d3d12_list_breadcrumb(l, D3D12_AUTO_BREADCRUMB_OP_RESOURCEBARRIER);
}

static void STDMETHODCALLTYPE list_CopyBufferRegion(ID3D12GraphicsCommandList6 *This, ID3D12Resource *dst, UINT64 doff,
						    ID3D12Resource *src, UINT64 soff, UINT64 n)
{
	d3d12_list *l = impl_from_ID3D12GraphicsCommandList6(This);
	if (!recording(l, "CopyBufferRegion"))
		return;
	d3d12_resource *d = d3d12_resource_from_iface(dst), *s = d3d12_resource_from_iface(src);
	if (d && s && (d->fmt || s->fmt)) {
		d3d12_list_error(l, XS_MSG_COPY_RANGE, "CopyBufferRegion with a texture: copy textures with "
				 "CopyTextureRegion or CopyResource");
		return;
	}
	if (!d || !s || doff > d->desc.Width || n > d->desc.Width - doff || soff > s->desc.Width ||
	    n > s->desc.Width - soff) {
		d3d12_list_error(l, XS_MSG_COPY_RANGE, "CopyBufferRegion: %llu bytes from +%llu to +%llu lie outside the "
				 "buffers", (unsigned long long)n, (unsigned long long)soff, (unsigned long long)doff);
		return;
	}
	if (n)
		xs_pm4_dma_data(&l->pm4, d->va + doff, s->va + soff, n);
	d3d12_list_use(l, d->va);
	d3d12_list_use(l, s->va);
	d3d12_list_breadcrumb(l, D3D12_AUTO_BREADCRUMB_OP_COPYBUFFERREGION);
}

static void STDMETHODCALLTYPE list_CopyResource(ID3D12GraphicsCommandList6 *This, ID3D12Resource *dst,
						ID3D12Resource *src)
{
	d3d12_list *l = impl_from_ID3D12GraphicsCommandList6(This);
	d3d12_resource *d = d3d12_resource_from_iface(dst), *s = d3d12_resource_from_iface(src);
	if (d && s && d != s && d->fmt && s->fmt && d->fmt == s->fmt && d->desc.Width == s->desc.Width &&
	    d->desc.Height == s->desc.Height) {
		/* two textures of one layout: their memory is the same shape */
		if (recording(l, "CopyResource")) {
			xs_pm4_dma_data(&l->pm4, d->va, s->va, d->size);
			d3d12_list_use(l, d->va);
			d3d12_list_use(l, s->va);
			d3d12_list_breadcrumb(l, D3D12_AUTO_BREADCRUMB_OP_COPYRESOURCE);
		}
		return;
	}
	if (!d || !s || d->fmt || s->fmt || d->desc.Width != s->desc.Width) {
		if (recording(l, "CopyResource"))
			d3d12_list_error(l, XS_MSG_COPY_RANGE, "CopyResource: two buffers of the same size, or two "
					 "textures of the same format and size");
		return;
	}
	list_CopyBufferRegion(This, dst, 0, src, 0, d->desc.Width);
}

/* D3D12: the command signature's root signature is the one bound when
 * ExecuteIndirect is recorded, since its arguments are laid out for that
 * signature's parameters (a root view's 8 bytes, constants at an offset).
 * The same object, or one of identical parameters (made of the same blob:
 * what Dispatch holds a list's and its pipeline's to); a parameter count
 * alone let a view's 8 bytes land on a constant's 4. */
static bool same_root_signature(const d3d12_root_signature *a, const d3d12_root_signature *b)
{
	return a == b ||
	       (a->nparams == b->nparams && !memcmp(a->params, b->params, a->nparams * sizeof(a->params[0])));
}

/* ExecuteIndirect: per command, root arguments copied by the CP (CP DMA)
 * from the argument buffer into that command's kernarg segment, the launch
 * parameters and group counts read by the CP when it gets there; with a
 * count buffer each command runs only while its index is below the count
 * (COND_WRITE of a flag, COND_EXEC on it). */
static void STDMETHODCALLTYPE list_ExecuteIndirect(ID3D12GraphicsCommandList6 *This, ID3D12CommandSignature *sig,
						   UINT max, ID3D12Resource *args, UINT64 args_off, ID3D12Resource *count,
						   UINT64 count_off)
{
	d3d12_list *l = impl_from_ID3D12GraphicsCommandList6(This);
	if (!recording(l, "ExecuteIndirect"))
		return;
	d3d12_command_signature *s = d3d12_command_signature_from_iface(sig);
	d3d12_resource *a = d3d12_resource_from_iface(args), *c = count ? d3d12_resource_from_iface(count) : NULL;
	if (!s || !a || (count && !c)) {
		d3d12_list_error(l, XS_MSG_INDIRECT_SIGNATURE, "ExecuteIndirect: a NULL or foreign signature or buffer");
		return;
	}
	/* offsets compared without sums that wrap past 2^64 */
	if (args_off > a->desc.Width || (uint64_t)max * s->stride > a->desc.Width - args_off ||
	    (c && (count_off % 4 || count_off > c->desc.Width || c->desc.Width - count_off < 4))) {
		d3d12_list_error(l, XS_MSG_INDIRECT_BUFFER,
				 "ExecuteIndirect: %u commands of %u bytes from +%llu do not fit the %llu-byte argument "
				 "buffer (or the count is outside its buffer)", max, s->stride, (unsigned long long)args_off,
				 (unsigned long long)a->desc.Width);
		return;
	}
	D3D12_INDIRECT_ARGUMENT_TYPE t0 = s->args[0].Type;
	bool draw = t0 == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW || t0 == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED;
	d3d12_root_signature *bound = draw ? l->gfx_root : l->root ? l->root : l->pso ? l->pso->root : NULL;
	if (s->root && bound && !same_root_signature(s->root, bound)) {
		d3d12_list_error(l, XS_MSG_INDIRECT_SIGNATURE, "ExecuteIndirect: the signature's root signature (%u "
				 "parameters) is not the one bound (%u parameters)", s->root->nparams, bound->nparams);
		return;
	}
	d3d12_list_use(l, a->va);
	if (c)
		d3d12_list_use(l, c->va);
	for (UINT i = 0; draw && i < max && !l->err.status; i++) {
		/* a draw per command: DRAW_INDIRECT / DRAW_INDEX_INDIRECT, under the count's guard */
		size_t guard = 0;
		if (c) {
			uint64_t flag_va;
			uint8_t *host;
			xs_err e;
			if (xs_rt_cmdmem_alloc(&l->allocator->mem, 4, 4, &flag_va, &host, &e)) {
				d3d12_list_error_err(l, &e);
				return;
			}
			uint32_t zero = 0;
			xs_pm4_write_data(&l->pm4, flag_va, &zero, 1);
			xs_pm4_cond_write(&l->pm4, WAIT_REG_MEM_GREATER, c->va + count_off, i, 0xffffffffu, flag_va, 1);
			guard = xs_pm4_cond_exec_begin(&l->pm4, flag_va);
		}
		d3d12_list_draw(l, t0 == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED, 0, 0, 0, 0, 0,
				a->va + args_off + (uint64_t)i * s->stride);
		if (c)
			xs_pm4_cond_exec_end(&l->pm4, guard);
	}
	for (UINT i = 0; !draw && i < max && !l->err.status; i++) {
		uint64_t rec = a->va + args_off + (uint64_t)i * s->stride;
		size_t guard = 0;
		uint64_t flag_va = 0;
		if (c) {
			uint8_t *host;
			xs_err e;
			if (xs_rt_cmdmem_alloc(&l->allocator->mem, 4, 4, &flag_va, &host, &e)) {
				d3d12_list_error_err(l, &e);
				return;
			}
			uint32_t zero = 0;
			xs_pm4_write_data(&l->pm4, flag_va, &zero, 1);
			xs_pm4_cond_write(&l->pm4, WAIT_REG_MEM_GREATER, c->va + count_off, i, 0xffffffffu, flag_va, 1);
			guard = xs_pm4_cond_exec_begin(&l->pm4, flag_va);
		}
		uint64_t launch_va = 0, dims_va = 0;
		/* this command's root arguments: the list's, with the buffer's over them (CP DMA) */
		xs_rt_kernarg_copy copies[8];
		uint32_t ncopies = 0;
		uint64_t saved_set = l->root_set;
		for (UINT j = 0; j < s->nargs; j++) {
			const D3D12_INDIRECT_ARGUMENT_DESC *ad = &s->args[j];
			uint64_t at = rec + s->offset_of[j];
			const d3d12_arg_slot *sl = NULL;
			switch ((int)ad->Type) {
			case D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH: dims_va = at; break;
			case (int)D3D12XBOX_INDIRECT_ARGUMENT_TYPE_COMPUTE_SHADER_LAUNCH_PARAMETERSX: launch_va = at; break;
			case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT:
				if (l->pso && ad->Constant.RootParameterIndex < l->pso->root->nparams) {
					sl = &l->pso->slots[ad->Constant.RootParameterIndex];
					copies[ncopies++] = (xs_rt_kernarg_copy){
						sl->kernarg_offset + 4 * ad->Constant.DestOffsetIn32BitValues,
						4 * ad->Constant.Num32BitValuesToSet, at };
				}
				l->root_set |= 1ull << ad->Constant.RootParameterIndex;
				break;
			default:
				if (l->pso && ad->ShaderResourceView.RootParameterIndex < l->pso->root->nparams) {
					sl = &l->pso->slots[ad->ShaderResourceView.RootParameterIndex];
					copies[ncopies++] = (xs_rt_kernarg_copy){ sl->kernarg_offset, 8, at };
				}
				l->root_set |= 1ull << ad->ShaderResourceView.RootParameterIndex;
				break;
			}
		}
		d3d12_list_dispatch(l, 1, 1, 1, dims_va, launch_va, copies, ncopies);
		l->root_set = saved_set;
		if (c)
			xs_pm4_cond_exec_end(&l->pm4, guard);
	}
}

static void STDMETHODCALLTYPE list_SetMarker(ID3D12GraphicsCommandList6 *This, UINT meta, const void *data, UINT size) {}
static void STDMETHODCALLTYPE list_BeginEvent(ID3D12GraphicsCommandList6 *This, UINT meta, const void *data, UINT size) {}
static void STDMETHODCALLTYPE list_EndEvent(ID3D12GraphicsCommandList6 *This) {}

const ID3D12GraphicsCommandList6XVtbl d3d12_list_vtbl = {
	.Base = {
		XS_D3D12_STUBS_ID3D12GraphicsCommandList6,
		.QueryInterface = list_QueryInterface, .AddRef = list_AddRef, .Release = list_Release,
		D3D12_OBJECT_SLOTS(list), .GetType = list_GetType, .Close = list_Close, .Reset = list_Reset,
		.ClearState = list_ClearState, .Dispatch = list_Dispatch, .SetPipelineState = list_SetPipelineState,
		.SetComputeRootSignature = list_SetComputeRootSignature,
		.SetComputeRoot32BitConstant = list_SetComputeRoot32BitConstant,
		.SetComputeRoot32BitConstants = list_SetComputeRoot32BitConstants,
		.SetComputeRootConstantBufferView = list_SetComputeRootConstantBufferView,
		.SetComputeRootShaderResourceView = list_SetComputeRootShaderResourceView,
		.SetComputeRootUnorderedAccessView = list_SetComputeRootUnorderedAccessView,
		.ResourceBarrier = list_ResourceBarrier, .CopyBufferRegion = list_CopyBufferRegion,
		.CopyResource = list_CopyResource, .ExecuteIndirect = list_ExecuteIndirect,
		.CopyTextureRegion = d3d12_list_CopyTextureRegion,
		.ClearRenderTargetView = d3d12_list_ClearRenderTargetView,
		.ClearDepthStencilView = d3d12_list_ClearDepthStencilView,
#define D3D12_GFX_SLOT(name, args) .name = d3d12_list_##name,
		D3D12_GFX_METHODS(D3D12_GFX_SLOT)
#undef D3D12_GFX_SLOT
		.SetMarker = list_SetMarker, .BeginEvent = list_BeginEvent, .EndEvent = list_EndEvent,
		.BeginQuery = d3d12_list_BeginQuery, .EndQuery = d3d12_list_EndQuery,
		.ResolveQueryData = d3d12_list_ResolveQueryData,
		.BuildRaytracingAccelerationStructure = d3d12_list_BuildRaytracingAccelerationStructure,
		.EmitRaytracingAccelerationStructurePostbuildInfo = d3d12_list_EmitRaytracingAccelerationStructurePostbuildInfo,
		.CopyRaytracingAccelerationStructure = d3d12_list_CopyRaytracingAccelerationStructure,
		.SetPipelineState1 = d3d12_list_SetPipelineState1, .DispatchRays = d3d12_list_DispatchRays,
	},
	.SetShaderScratchSpaceX = d3d12_list_SetShaderScratchSpaceX,
	.DispatchRaysX = d3d12_list_DispatchRaysX,
	.SetComputeShaderLaunchParametersX = d3d12_list_SetComputeShaderLaunchParametersX,
	.SetGraphicsShaderLimitsX = d3d12_list_SetGraphicsShaderLimitsX,
};
_Static_assert(offsetof(ID3D12GraphicsCommandList6XVtbl, SetShaderScratchSpaceX) == 80 * sizeof(void *), "slot 80");
_Static_assert(offsetof(ID3D12GraphicsCommandList6XVtbl, DispatchRaysX) == 81 * sizeof(void *), "slot 81");
_Static_assert(offsetof(ID3D12GraphicsCommandList6XVtbl, SetComputeShaderLaunchParametersX) == 82 * sizeof(void *),
	       "slot 82");
_Static_assert(offsetof(ID3D12GraphicsCommandList6XVtbl, SetGraphicsShaderLimitsX) == 83 * sizeof(void *), "slot 83");
_Static_assert(XS_D3D12_SLOTS_ID3D12GraphicsCommandList6 == 80, "DirectX-Headers' List6 has 80 slots");

static uint32_t next_list_id;

HRESULT d3d12_list_create(d3d12_device *d, D3D12_COMMAND_LIST_TYPE type, ID3D12CommandAllocator *alloc,
			  ID3D12PipelineState *pso, REFIID riid, void **out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	/* CreateCommandList1 has no allocator to take the type from: check it here */
	if (type != D3D12_COMMAND_LIST_TYPE_DIRECT && type != D3D12_COMMAND_LIST_TYPE_COMPUTE &&
	    type != D3D12_COMMAND_LIST_TYPE_COPY) {
		d3d12_message(d, XS_MSG_LIST_TYPE, "CreateCommandList: type %d (DIRECT, COMPUTE or COPY)", (int)type);
		return E_INVALIDARG;
	}
	d3d12_allocator *a = alloc ? d3d12_allocator_from_iface(alloc) : NULL;
	if ((alloc && !a) || (a && a->type != type)) {
		d3d12_message(d, XS_MSG_LIST_TYPE, "CreateCommandList: the allocator is not an xs12 allocator of type %d",
			      (int)type);
		return E_INVALIDARG;
	}
	if (a && a->recording) {
		d3d12_message(d, XS_MSG_ALLOCATOR_IN_USE, "CreateCommandList: another open list records into the allocator");
		return E_INVALIDARG;
	}
	d3d12_list *l = xs_calloc(1, sizeof(*l));
	if (!l)
		return E_OUTOFMEMORY;
	l->iface.lpVtbl = &d3d12_list_vtbl.Base;
	d3d12_object_init(&l->obj, d, "ID3D12GraphicsCommandList");
	l->type = type;
	l->id = __atomic_add_fetch(&next_list_id, 1, __ATOMIC_RELAXED);
	xs_pm4_builder_init(&l->pm4, 0);
	if (a)
		begin(l, a, pso ? d3d12_pipeline_from_iface(pso) : NULL); /* created open, as D3D12's */
	HRESULT hr = ID3D12GraphicsCommandList6_QueryInterface(&l->iface, riid, out);
	ID3D12GraphicsCommandList6_Release(&l->iface);
	return hr;
}
