/*
 * Ray dispatches of a command list: SetPipelineState1, DispatchRays and the
 * Xbox DispatchRaysX (slot 81; SPEC S2).
 *
 * A ray dispatch is one launch of the state object's entry kernel
 * (XS12_RT_ENTRY of include/xs12/xs12_rt.h) in groups of 8 x 4 x 1 wave32
 * lanes, ceil(Width / 8) x ceil(Height / 4) x Depth groups, recorded
 * through xs_rt_record_launch. Its one argument points at the dispatch
 * block written here into command memory: the D3D12_DISPATCH_RAYS_DESC, the
 * pipeline's configuration and the global root arguments. The shader
 * tables are read by the GPU when the lanes run, so records written after
 * recording count. The entry kernel's private segment is the pipeline's
 * scratch per lane (S2.4, S2.7), not what LLVM assumed for its indirect
 * calls: DispatchRays puts it on the driver's default ring (S2.2),
 * DispatchRaysX on the title's memory for this one dispatch (S2.1, S2.7).
 */
#include "d3d12/xs_d3d12_rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void STDMETHODCALLTYPE d3d12_list_SetPipelineState1(ID3D12GraphicsCommandList6 *This, ID3D12StateObject *iface)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	if (!l->open) {
		d3d12_list_error(l, XS_MSG_LIST_CLOSED, "SetPipelineState1 on a closed command list");
		return;
	}
	d3d12_state_object *so = d3d12_state_object_from_iface(iface);
	if (iface && !so) {
		d3d12_list_error(l, XS_MSG_RAYS_NO_STATE_OBJECT, "SetPipelineState1: not an xs12 state object");
		return;
	}
	if (so)
		ID3D12StateObject_AddRef(iface);
	if (l->rtpso)
		ID3D12StateObject_Release(&l->rtpso->iface);
	l->rtpso = so;
}

/* Per wave, S2.5: roundup(ScratchSize x 32, 1 KB), at least one 1 KB block. */
static uint64_t rays_per_wave(const d3d12_state_object *so)
{
	return XS_MAX(XS_ALIGN_UP(d3d12_state_object_scratch_per_lane(so) * 32, 1024ull), 1024ull);
}

static bool check_table(d3d12_list *l, const char *method, const char *what, uint64_t start, uint64_t stride,
			bool has_stride)
{
	/* D3D12_DISPATCH_RAYS_DESC: a table's stride is a multiple of 32 in
	 * [0, 4096] (D3D12_RAYTRACING_MAX_SHADER_RECORD_STRIDE), 0 allowed */
	if (start % D3D12_RAYTRACING_SHADER_TABLE_BYTE_ALIGNMENT ||
	    (has_stride && (stride % D3D12_RAYTRACING_SHADER_RECORD_BYTE_ALIGNMENT ||
			    stride > D3D12_RAYTRACING_MAX_SHADER_RECORD_STRIDE))) {
		d3d12_list_error(l, XS_MSG_RAYS_ARGS, "%s: the %s table at 0x%llx with stride %llu: D3D12 wants its start "
				 "%u-byte aligned (D3D12_RAYTRACING_SHADER_TABLE_BYTE_ALIGNMENT) and its stride a multiple "
				 "of %u (D3D12_RAYTRACING_SHADER_RECORD_BYTE_ALIGNMENT) of at most %u "
				 "(D3D12_RAYTRACING_MAX_SHADER_RECORD_STRIDE)", method, what, (unsigned long long)start,
				 (unsigned long long)stride, D3D12_RAYTRACING_SHADER_TABLE_BYTE_ALIGNMENT,
				 D3D12_RAYTRACING_SHADER_RECORD_BYTE_ALIGNMENT, D3D12_RAYTRACING_MAX_SHADER_RECORD_STRIDE);
		return false;
	}
	return true;
}

static xs12_rt_table table_of(const D3D12_GPU_VIRTUAL_ADDRESS_RANGE_AND_STRIDE *t)
{
	return (xs12_rt_table){ t->StartAddress, t->SizeInBytes, t->StrideInBytes };
}

/* Is W x H x D at most D3D12_RAYTRACING_MAX_RAY_GENERATION_SHADER_THREADS?
 * Each factor against what the others leave, by division: the product of
 * three UINTs needs 96 bits and in 64 wraps (2^22 x 2^21 x 2^21 is 0). */
static bool rays_within_limit(uint64_t w, uint64_t h, uint64_t d)
{
	const uint64_t max = D3D12_RAYTRACING_MAX_RAY_GENERATION_SHADER_THREADS;
	if (!w || !h || !d)
		return true; /* no rays */
	return w <= max && h <= max / w && d <= max / (w * h);
}

/* Both methods: ring {0} is the driver's default (DispatchRays). */
static void dispatch_rays(d3d12_list *l, const D3D12_DISPATCH_RAYS_DESC *desc, const xs_rt_ring *ring,
			  const char *method, D3D12_AUTO_BREADCRUMB_OP op)
{
	d3d12_device *d = l->obj.device;
	d3d12_state_object *so = l->rtpso;
	const uint64_t W = desc->Width, H = desc->Height, D = desc->Depth;
	if (!rays_within_limit(W, H, D)) {
		d3d12_list_error(l, XS_MSG_RAYS_ARGS, "%s(%llu x %llu x %llu): more than %u rays "
				 "(D3D12_RAYTRACING_MAX_RAY_GENERATION_SHADER_THREADS)", method, (unsigned long long)W,
				 (unsigned long long)H, (unsigned long long)D, D3D12_RAYTRACING_MAX_RAY_GENERATION_SHADER_THREADS);
		return;
	}
	if (!desc->RayGenerationShaderRecord.StartAddress) {
		d3d12_list_error(l, XS_MSG_RAYS_ARGS, "%s: no ray-generation shader record", method);
		return;
	}
	if (!check_table(l, method, "ray-generation", desc->RayGenerationShaderRecord.StartAddress, 0, false) ||
	    !check_table(l, method, "miss", desc->MissShaderTable.StartAddress, desc->MissShaderTable.StrideInBytes, true) ||
	    !check_table(l, method, "hit-group", desc->HitGroupTable.StartAddress, desc->HitGroupTable.StrideInBytes, true) ||
	    !check_table(l, method, "callable", desc->CallableShaderTable.StartAddress,
			 desc->CallableShaderTable.StrideInBytes, true))
		return;
	/* The global root arguments: the list's, under the pipeline's global root signature. */
	d3d12_root_signature *rs = so->global_root;
	if (rs && l->root != rs &&
	    (!l->root || l->root->nparams != rs->nparams ||
	     memcmp(l->root->params, rs->params, rs->nparams * sizeof(rs->params[0])))) {
		d3d12_list_error(l, XS_MSG_ROOT_SIGNATURE_PIPELINE, "%s: the list's root signature (%s) is not the state "
				 "object's global root signature (set it with SetComputeRootSignature)", method,
				 l->root ? "another" : "none");
		return;
	}
	if (!rs)
		rs = l->root;
	uint32_t nglobal = rs ? rs->nparams : 0;
	size_t bytes = sizeof(xs12_rt_dispatch);
	uint32_t offsets[XS12_RT_MAX_GLOBAL_PARAMS], sizes[XS12_RT_MAX_GLOBAL_PARAMS];
	for (uint32_t i = 0; i < nglobal && i < XS12_RT_MAX_GLOBAL_PARAMS; i++) {
		const d3d12_root_param *p = &rs->params[i];
		sizes[i] = p->type == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS ? 4 * p->num32 : 8;
		bytes = XS_ALIGN_UP(bytes, 8u);
		offsets[i] = (uint32_t)bytes;
		bytes += sizes[i];
		if (!(l->root_set >> i & 1))
			d3d12_list_error(l, XS_MSG_ROOT_ARGUMENT_UNSET, "%s: global root parameter %u was never set; it reads 0",
					 method, i);
	}
	uint64_t block_va;
	uint8_t *host;
	xs_err e;
	if (xs_rt_cmdmem_alloc(&l->allocator->mem, bytes, 256, &block_va, &host, &e)) {
		d3d12_list_error_err(l, &e);
		return;
	}
	xs12_rt_dispatch *b = (xs12_rt_dispatch *)(void *)host;
	memset(host, 0, bytes);
	b->width = desc->Width;
	b->height = desc->Height;
	b->depth = desc->Depth;
	b->max_recursion = so->max_recursion;
	b->raygen_start = desc->RayGenerationShaderRecord.StartAddress;
	b->raygen_size = desc->RayGenerationShaderRecord.SizeInBytes;
	b->miss = table_of(&desc->MissShaderTable);
	b->hit = table_of(&desc->HitGroupTable);
	b->callable = table_of(&desc->CallableShaderTable);
	b->max_payload_size = so->max_payload;
	b->max_attribute_size = so->max_attributes;
	b->num_global = nglobal;
	for (uint32_t i = 0; i < nglobal; i++) {
		b->global_offset[i] = offsets[i];
		memcpy(host + offsets[i], l->root_args[i], XS_MIN(sizes[i], (uint32_t)sizeof(l->root_args[i])));
		if (rs->params[i].type != D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS) {
			uint64_t va;
			memcpy(&va, l->root_args[i], 8);
			d3d12_list_use(l, va);
		}
	}
	d3d12_list_use(l, desc->RayGenerationShaderRecord.StartAddress);
	d3d12_list_use(l, desc->MissShaderTable.StartAddress);
	d3d12_list_use(l, desc->HitGroupTable.StartAddress);
	d3d12_list_use(l, desc->CallableShaderTable.StartAddress);
	/* The entry kernel as the driver launches it: its private segment the
	 * pipeline's scratch per lane (LLVM's figure assumed a stack for each
	 * indirect call, S2.7). */
	xs_codeobj_kernel k = *so->entry;
	uint64_t lane = d3d12_state_object_scratch_per_lane(so);
	k.info.private_segment_fixed_size = (uint32_t)XS_MIN(lane, (uint64_t)UINT32_MAX);
	uint8_t kargs[XS_CODEOBJ_MAX_KERNARG];
	memset(kargs, 0, k.info.kernarg_size);
	memcpy(kargs + so->entry_arg_offset, &block_va, 8);
	xs_rt_launch L = {
		.mod = so->mods[0], .k = &k,
		.groups = { (uint32_t)XS_DIV_ROUND_UP(W, XS12_RT_GROUP_X), (uint32_t)XS_DIV_ROUND_UP(H, XS12_RT_GROUP_Y),
			    (uint32_t)D },
		.block = { XS12_RT_GROUP_X, XS12_RT_GROUP_Y, 1 },
		.kernargs = kargs, .kernargs_size = k.info.kernarg_size, .ring = *ring,
		.queue = l->type == D3D12_COMMAND_LIST_TYPE_DIRECT ? 0 : 1,
	};
	xs_rt_launch_info info;
	l->launch_kept = false; /* the registers are this launch's now */
	if (xs_rt_record_launch(d->rt, &l->allocator->mem, &l->pm4, &L, &info, &e)) {
		d3d12_list_error_err(l, &e);
		return;
	}
	if (info.scratch_en && !d3d12_list_add_scratch_use(l, &info, so->entry->info.name))
		return;
	l->ndispatches++;
	d3d12_list_breadcrumb(l, op);
}

static bool rays_ready(d3d12_list *l, const void *desc, const char *method)
{
	if (!l->open) {
		d3d12_list_error(l, XS_MSG_LIST_CLOSED, "%s on a closed command list", method);
		return false;
	}
	if (!d3d12_list_can_dispatch(l, method))
		return false;
	if (!desc) {
		d3d12_list_error(l, XS_MSG_RAYS_ARGS, "%s: NULL description", method);
		return false;
	}
	if (!l->rtpso) {
		d3d12_list_error(l, XS_MSG_RAYS_NO_STATE_OBJECT, "%s with no ray-tracing state object set "
				 "(SetPipelineState1)", method);
		return false;
	}
	return true;
}

void STDMETHODCALLTYPE d3d12_list_DispatchRays(ID3D12GraphicsCommandList6 *This, const D3D12_DISPATCH_RAYS_DESC *desc)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	if (!rays_ready(l, desc, "DispatchRays"))
		return;
	if (!desc->Width || !desc->Height || !desc->Depth)
		return; /* no rays: nothing recorded, as D3D12 */
	/* S2.2: the driver's default scratch, which the runtime sizes for the
	 * largest need so far and orders as it does every dispatch's. */
	xs_rt_ring ring = { 0 };
	dispatch_rays(l, desc, &ring, "DispatchRays", D3D12_AUTO_BREADCRUMB_OP_DISPATCHRAYS);
}

void STDMETHODCALLTYPE d3d12_list_DispatchRaysX(ID3D12GraphicsCommandList6 *This, const D3D12XBOX_DISPATCH_RAYS_DESC *x)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	d3d12_device *d = l->obj.device;
	if (!rays_ready(l, x, "DispatchRaysX"))
		return;
	const D3D12_DISPATCH_RAYS_DESC *desc = &x->DispatchArgs;
	if (!desc->Width || !desc->Height || !desc->Depth)
		return;
	uint64_t per_wave = rays_per_wave(l->rtpso);
	if (x->Scratch.SizeInBytes < per_wave) {
		d3d12_list_error(l, XS_MSG_RAYS_SCRATCH_BELOW_WAVE,
				 "DispatchRaysX: %llu bytes of scratch at 0x%llx are less than one wave needs: "
				 "roundup(ScratchSize %llu x 32, 1024) = %llu bytes (S2.5); nothing runs",
				 (unsigned long long)x->Scratch.SizeInBytes, (unsigned long long)x->Scratch.StartAddress,
				 (unsigned long long)d3d12_state_object_scratch_per_lane(l->rtpso),
				 (unsigned long long)per_wave);
		return;
	}
	xs_err e;
	/* S1.3, S1.5, S1.6 as for SetShaderScratchSpaceX: 1 KB aligned, in one allocation */
	if (xs_rt_check_scratch_space(d->rt, x->Scratch.StartAddress, x->Scratch.SizeInBytes, (uint32_t)per_wave, &e)) {
		d3d12_list_error_err(l, &e);
		return;
	}
	/* S2.7: this dispatch's compute ring, WAVES = SizeInBytes / per-wave;
	 * the list's ring (SetShaderScratchSpaceX) is untouched and back in
	 * force after it. No synchronization is added (S2.2). */
	xs_rt_ring ring = { x->Scratch.StartAddress, x->Scratch.SizeInBytes, (uint32_t)per_wave };
	dispatch_rays(l, desc, &ring, "DispatchRaysX", XS12_AUTO_BREADCRUMB_OP_DISPATCHRAYSX);
}

void d3d12_list_drop_rays(d3d12_list *l)
{
	if (l->rtpso)
		ID3D12StateObject_Release(&l->rtpso->iface);
	l->rtpso = NULL;
}
