/*
 * Ray-tracing pipelines from code objects (docs/d3d12.md, SPEC S2): the
 * state object (xs_d3d12_rtpso.c) and what the command list's DispatchRays,
 * DispatchRaysX and SetPipelineState1 need of it (xs_d3d12_command_rays.c).
 * The ABI shared with the shaders is include/xs12/xs12_rt.h.
 */
#ifndef XS_D3D12_RT_H
#define XS_D3D12_RT_H

#include "d3d12/xs_d3d12_private.h"
#include "codeobj/xs_codeobj.h"

#include <xs12/xs12_rt.h>

#define D3D12_RT_MAX_LIBRARIES 16

typedef struct d3d12_rt_export {
	char name[128];                /* UTF-8 */
	xs12_rt_shader_id id;          /* GetShaderIdentifier's 32 bytes */
	bool hit_group;
	uint64_t stack;                /* bytes per lane: the function's frame (hit group: unused) */
	int member[3];                 /* hit groups: the function exports of closest hit, any hit, intersection (-1) */
} d3d12_rt_export;

typedef struct d3d12_state_object {
	ID3D12StateObject iface;
	ID3D12StateObjectProperties props;  /* lpVtbl -> the official part of an ID3D12StateObjectPropertiesXVtbl */
	d3d12_object obj;
	xs_rt_module *mods[D3D12_RT_MAX_LIBRARIES];
	uint32_t nmods;
	const xs_codeobj_kernel *entry;     /* the first library's XS12_RT_ENTRY kernel */
	uint32_t entry_arg_offset;          /* its kernarg offset of the block pointer */
	uint64_t entry_frame;               /* its own frame, bytes per lane */
	bool measured;                      /* frames from .stack_sizes (else LLVM's assumption, S2.7) */
	d3d12_rt_export *exports;
	uint32_t nexports;
	d3d12_root_signature *global_root;  /* AddRef'ed, or NULL */
	uint32_t nlocal_roots, nassociations; /* recorded, not used: local arguments are the record's bytes */
	UINT max_payload, max_attributes, max_recursion, pipeline_flags;
	uint64_t default_stack, stack;      /* GetPipelineStackSize: the default, and SetPipelineStackSize's */
} d3d12_state_object;

HRESULT d3d12_state_object_create(d3d12_device *d, const D3D12_STATE_OBJECT_DESC *desc, REFIID riid, void **out);
d3d12_state_object *d3d12_state_object_from_iface(ID3D12StateObject *iface);
/* S2.4: scratch bytes per lane (the entry's frame + the pipeline stack). */
uint64_t d3d12_state_object_scratch_per_lane(const d3d12_state_object *so);

void STDMETHODCALLTYPE d3d12_list_SetPipelineState1(ID3D12GraphicsCommandList6 *This, ID3D12StateObject *so);
void STDMETHODCALLTYPE d3d12_list_DispatchRays(ID3D12GraphicsCommandList6 *This, const D3D12_DISPATCH_RAYS_DESC *desc);

#endif
