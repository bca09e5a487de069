/*
 * The Xbox methods of ID3D12GraphicsCommandList6 (slots 80-83 after the
 * official ones, as vkd3d-proton keeps its extensions apart):
 *
 *   SetShaderScratchSpaceX             S1: the list's compute and graphics rings
 *   SetComputeShaderLaunchParametersX  S3: LDS and group shape overrides
 *   DispatchRaysX                      S2: in xs_d3d12_command_rays.c, with DispatchRays
 *   SetGraphicsShaderLimitsX           S4: registers from xs_d3d12_limits.c
 */
#include "d3d12/xs_d3d12_private.h"
#include "d3d12/xs_d3d12_limits.h"

void STDMETHODCALLTYPE d3d12_list_SetShaderScratchSpaceX(ID3D12GraphicsCommandList6 *This,
							 D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS flags,
							 D3D12_GPU_VIRTUAL_ADDRESS dst, UINT64 size, UINT per_wave)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	d3d12_device *d = l->obj.device;
	if (!l->open) {
		d3d12_list_error(l, XS_MSG_LIST_CLOSED, "SetShaderScratchSpaceX on a closed command list");
		return;
	}
	l->launch_kept = false; /* the next Dispatch's ring may differ */
	d3d12_list_breadcrumb(l, XS12_AUTO_BREADCRUMB_OP_SETSHADERSCRATCHSPACEX);
	if (!flags || (flags & ~D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_BOTH)) {
		d3d12_list_error(l, XS_MSG_SCRATCH_FLAGS, "SetShaderScratchSpaceX: Flags 0x%x: COMPUTE (0x1), GRAPHICS "
				 "(0x2) or both", (unsigned)flags);
		return;
	}
	if ((flags & D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_GRAPHICS) && l->type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
		d3d12_list_error(l, XS_MSG_SCRATCH_GRAPHICS_ON_COMPUTE_LIST,
				 "SetShaderScratchSpaceX: FLAGS_GRAPHICS on a COMPUTE command list: an async compute queue "
				 "has no graphics ring");
		return;
	}
	xs_err e;
	if (xs_rt_check_scratch_space(d->rt, dst, size, per_wave, &e)) {
		d3d12_list_error_err(l, &e);
		return;
	}
	uint64_t cap = (uint64_t)d->rt->info->max_scratch_waves_per_cu * d->rt->info->num_cu;
	/* size / per_wave > cap, without a 64-bit division (tens of cycles) per call */
	if (per_wave && size >= (cap + 1) * per_wave)
		d3d12_message(d, XS_MSG_SCRATCH_SLOTS_OVER_CAP,
			      "SetShaderScratchSpaceX: %llu slots of %u KB; tmpring expresses at most 32 waves per CU, "
			      "%llu on %s: the rest of the memory is not used", (unsigned long long)(size / per_wave),
			      per_wave / 1024, (unsigned long long)cap, d->rt->info->name);
	/* S1.10: no synchronization is added; the title orders its memory. */
	xs_rt_ring ring = { dst, dst ? size : 0, dst ? per_wave : 0 }; /* null: back to the default (S1.4) */
	if (flags & D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE)
		l->compute_ring = ring;
	if (flags & D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_GRAPHICS)
		l->graphics_ring = ring;
}

bool d3d12_check_launch_parameters(d3d12_device *d, const D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS *p, xs_err *e)
{
	const unsigned known = D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_LDS_SIZE |
			       D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_NUM_THREADS;
	if (p->Flags & ~known) {
		xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_LAUNCH_FLAGS, "launch parameters: Flags 0x%x has bits xs12 does "
			   "not know (0x1 LDSSize, 0x2 NumThreadX/Y/Z)", (unsigned)p->Flags);
		return false;
	}
	if ((p->Flags & D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_LDS_SIZE) &&
	    p->LDSSize * d->rt->info->lds_encode_granule > d->rt->info->lds_max_per_group) {
		xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_LAUNCH_LDS_RANGE,
			   "launch parameters: LDSSize %u units of 512 bytes: at most %u (64 KB per group)", p->LDSSize,
			   d->rt->info->lds_max_per_group / d->rt->info->lds_encode_granule);
		return false;
	}
	if (p->Flags & D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_NUM_THREADS) {
		UINT dim[3] = { p->NumThreadX, p->NumThreadY, p->NumThreadZ };
		for (int i = 0; i < 3; i++)
			if (dim[i] < 1 || dim[i] > 2048) {
				xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_LAUNCH_DIM_RANGE,
					   "launch parameters: NumThread%c %u: 1..2048", "XYZ"[i], dim[i]);
				return false;
			}
		uint64_t t = (uint64_t)dim[0] * dim[1] * dim[2];
		if (t > 2048) {
			xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_LAUNCH_GROUP_WAVES,
				   "launch parameters: %ux%ux%u = %llu threads: a group holds at most 32 waves, 2048 threads "
				   "of wave64 (1024 of wave32)", dim[0], dim[1], dim[2], (unsigned long long)t);
			return false;
		}
	}
	return true;
}

void STDMETHODCALLTYPE d3d12_list_SetComputeShaderLaunchParametersX(
	ID3D12GraphicsCommandList6 *This, const D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS *p)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	if (!l->open) {
		d3d12_list_error(l, XS_MSG_LIST_CLOSED, "SetComputeShaderLaunchParametersX on a closed command list");
		return;
	}
	l->launch_kept = false; /* the next Dispatch's shape and LDS may differ */
	d3d12_list_breadcrumb(l, XS12_AUTO_BREADCRUMB_OP_SETCOMPUTESHADERLAUNCHPARAMETERSX);
	if (!p) {
		d3d12_list_error(l, XS_MSG_LAUNCH_FLAGS, "SetComputeShaderLaunchParametersX: NULL parameters");
		return;
	}
	xs_err e;
	if (!d3d12_check_launch_parameters(l->obj.device, p, &e)) {
		d3d12_list_error_err(l, &e);
		return;
	}
	/* S3.7: applies to the following dispatches until the next call. */
	l->launch = *p;
	l->launch_set = p->Flags != 0;
}

/* S4: validated against the device's topology, recorded now (the GPU
 * model reads the registers when the draws after it launch waves), and kept
 * for the list's draws (xs_d3d12_limits.c). */
void STDMETHODCALLTYPE d3d12_list_SetGraphicsShaderLimitsX(ID3D12GraphicsCommandList6 *This,
							   const D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC *desc)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	if (!l->open) {
		d3d12_list_error(l, XS_MSG_LIST_CLOSED, "SetGraphicsShaderLimitsX on a closed command list");
		return;
	}
	d3d12_list_breadcrumb(l, XS12_AUTO_BREADCRUMB_OP_SETGRAPHICSSHADERLIMITSX);
	if (l->type != D3D12_COMMAND_LIST_TYPE_DIRECT) {
		d3d12_list_error(l, XS_MSG_GFX_LIST_TYPE, "SetGraphicsShaderLimitsX on a %s command list: graphics "
				 "limits belong to DIRECT lists", l->type == D3D12_COMMAND_LIST_TYPE_COMPUTE ? "COMPUTE" : "COPY");
		return;
	}
	if (!desc) {
		d3d12_list_error(l, XS_MSG_GFX_LIMITS_MASK, "SetGraphicsShaderLimitsX: NULL description (use "
				 "D3D12XboxInitializeDefaultGraphicsShaderLimits for the defaults)");
		return;
	}
	d3d12_gfx_limits_regs r;
	xs_err e;
	if (!d3d12_gfx_limits_compute(l->obj.device, desc, &r, &e)) {
		d3d12_list_error_err(l, &e);
		return;
	}
	l->gfx_limits = r;
	l->gfx_limits_explicit = true;
	d3d12_gfx_limits_emit(&l->pm4, &r, r.late_alloc_limit);
	l->late_alloc_now = r.late_alloc_limit;
}
