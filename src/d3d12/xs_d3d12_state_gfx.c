/*
 * Graphics pipelines (CreateGraphicsPipelineState): VS and PS bytecode are
 * graphics code objects (src/codeobj/xs_codeobj_gfx.h: amdgpu_vs /
 * amdgpu_ps for amdgcn--amdpal or amdgcn-mesa-mesa3d, gfx1030). The
 * pipeline checks that the two shaders fit each other, the xs12 ABI
 * (docs/graphics.md section 1) and the state xs12 implements, loads both
 * images into GPU memory (256-byte aligned, SPI_SHADER_PGM_LO = va >> 8),
 * and computes the registers of docs/graphics.md section 2 that depend on
 * it alone; a draw records them with the list's state
 * (xs_d3d12_command_gfx.c).
 */
#include "d3d12/xs_d3d12_private.h"
#include "d3d12/xs_d3d12_format.h"
#include "codeobj/xs_codeobj_gfx.h"
#include "hw/xs_hw_regs.h"
#include "hw/xs_hw_surf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The gfx10 buffer formats of vertex elements (the V#'s FORMAT; the order
 * of the table src/isa's disassembler prints them from: 32_UINT is 20). */
enum { BUF_FMT_32_FLOAT = 22, BUF_FMT_8_8_8_8_UNORM = 56, BUF_FMT_32_32_FLOAT = 64, BUF_FMT_32_32_32_FLOAT = 74,
       BUF_FMT_32_32_32_32_FLOAT = 77 };

/* User SGPRs the xs12 ABI gives (docs/graphics.md 1.1). */
#define VS_USER_SGPRS 6
#define PS_USER_SGPRS 4

static uint32_t vertex_format(DXGI_FORMAT f, UINT *bytes)
{
	switch (f) {
	case DXGI_FORMAT_R32_FLOAT: *bytes = 4; return BUF_FMT_32_FLOAT;
	case DXGI_FORMAT_R32G32_FLOAT: *bytes = 8; return BUF_FMT_32_32_FLOAT;
	case DXGI_FORMAT_R32G32B32_FLOAT: *bytes = 12; return BUF_FMT_32_32_32_FLOAT;
	case DXGI_FORMAT_R32G32B32A32_FLOAT: *bytes = 16; return BUF_FMT_32_32_32_32_FLOAT;
	case DXGI_FORMAT_R8G8B8A8_UNORM: *bytes = 4; return BUF_FMT_8_8_8_8_UNORM;
	default: return 0;
	}
}

static const char *stage_name(xs_gfx_stage s)
{
	return s == XS_GFX_STAGE_VS ? "vertex" : "pixel";
}

/* Parses one stage's bytecode; a message naming the problem if it is not
 * one (E_INVALIDARG), E_OUTOFMEMORY when the host's memory ran out. */
static HRESULT parse_stage(d3d12_device *d, const D3D12_SHADER_BYTECODE *bc, xs_gfx_stage want, const char *member,
			   xs_gfx_shader **out)
{
	if (!bc->pShaderBytecode || !bc->BytecodeLength) {
		d3d12_message(d, XS_MSG_GFX_PSO_SHADER, "CreateGraphicsPipelineState: %s is empty: xs12 needs a %s shader",
			      member, stage_name(want));
		return E_INVALIDARG;
	}
	xs_gfx_shader *sh = xs_calloc(1, sizeof(*sh));
	if (!sh)
		return E_OUTOFMEMORY;
	xs_err e;
	if (xs_gfx_shader_parse(bc->pShaderBytecode, bc->BytecodeLength, NULL, sh, &e)) {
		d3d12_message(d, XS_MSG_GFX_PSO_SHADER, "CreateGraphicsPipelineState: %s: %s", member, e.msg);
		free(sh);
		return d3d12_hresult(e.status);
	}
	if (sh->stage != want) {
		d3d12_message(d, XS_MSG_GFX_PSO_SHADER, "CreateGraphicsPipelineState: %s holds a %s shader (%s), not a %s "
			      "shader", member, stage_name(sh->stage), sh->entry, stage_name(want));
		xs_gfx_shader_free(sh);
		free(sh);
		return E_INVALIDARG;
	}
	*out = sh;
	return S_OK;
}

void d3d12_gfx_pipeline_free(d3d12_device *d, d3d12_gfx_pipeline *g)
{
	if (!g)
		return;
	if (g->code_va) {
		pthread_mutex_lock(&d->rt->lock);
		xs_vm_free(d->rt->vm, g->code_va, NULL);
		pthread_mutex_unlock(&d->rt->lock);
	}
	xs_gfx_shader *sh[2] = { g->vs, g->ps };
	for (int i = 0; i < 2; i++)
		if (sh[i]) {
			xs_gfx_shader_free(sh[i]);
			free(sh[i]);
		}
	free(g);
}

static void ctx(d3d12_gfx_pipeline *g, uint32_t reg, uint32_t value)
{
	if (g->nctx < D3D12_GFX_MAX_REGS) {
		g->ctx[g->nctx].reg = reg;
		g->ctx[g->nctx].value = value;
		g->nctx++;
	}
}

static uint32_t zfunc(D3D12_COMPARISON_FUNC f)
{
	/* D3D12's order NEVER..ALWAYS (1..8) is the hardware's (0..7) */
	return f >= D3D12_COMPARISON_FUNC_NEVER && f <= D3D12_COMPARISON_FUNC_ALWAYS ? (uint32_t)f - 1 : 8;
}

static bool check_input_layout(d3d12_device *d, const D3D12_INPUT_LAYOUT_DESC *il, d3d12_gfx_pipeline *g)
{
	if (il->NumElements > D3D12_MAX_INPUT_ELEMENTS || (il->NumElements && !il->pInputElementDescs)) {
		d3d12_message(d, XS_MSG_GFX_PSO_INPUT_LAYOUT, "CreateGraphicsPipelineState: %u input elements: xs12 takes "
			      "at most %u", il->NumElements, D3D12_MAX_INPUT_ELEMENTS);
		return false;
	}
	UINT next[D3D12_MAX_VERTEX_SLOTS] = { 0 };
	for (UINT i = 0; i < il->NumElements; i++) {
		const D3D12_INPUT_ELEMENT_DESC *e = &il->pInputElementDescs[i];
		UINT bytes = 0;
		uint32_t fmt = vertex_format(e->Format, &bytes);
		bool inst = e->InputSlotClass == D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA;
		const char *why = !fmt ? "a format xs12 does not fetch (R32, R32G32, R32G32B32, R32G32B32A32_FLOAT, "
					 "R8G8B8A8_UNORM)"
			: e->InputSlot >= D3D12_MAX_VERTEX_SLOTS ? "an input slot over 15"
			: (!inst && e->InputSlotClass != D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA) ? "an unknown classification"
			: (!inst && e->InstanceDataStepRate) ? "a step rate on per-vertex data (D3D12: 0)"
			: (inst && e->InstanceDataStepRate != 1) ? "an instance step rate other than 1 (xs12 steps every instance)"
			: NULL;
		if (why) {
			d3d12_message(d, XS_MSG_GFX_PSO_INPUT_LAYOUT, "CreateGraphicsPipelineState: input element %u (%s%u, "
				      "format %d, slot %u, step rate %u): %s", i, e->SemanticName ? e->SemanticName : "",
				      e->SemanticIndex, (int)e->Format, e->InputSlot, e->InstanceDataStepRate, why);
			return false;
		}
		UINT off = e->AlignedByteOffset == D3D12_APPEND_ALIGNED_ELEMENT ? next[e->InputSlot] : e->AlignedByteOffset;
		if (off % 4) {
			d3d12_message(d, XS_MSG_GFX_PSO_INPUT_LAYOUT, "CreateGraphicsPipelineState: input element %u at byte "
				      "%u: vertex fetch needs 4-byte aligned elements", i, off);
			return false;
		}
		next[e->InputSlot] = off + bytes;
		g->elems[i] = (d3d12_input_element){ e->InputSlot, off, fmt, bytes, inst };
	}
	g->nelems = il->NumElements;
	return true;
}

/* The blend of one target: off, or the straight alpha blend (SRC_ALPHA,
 * INV_SRC_ALPHA, ADD; alpha ONE, INV_SRC_ALPHA, ADD, or the same as colour). */
static bool blend_control(d3d12_device *d, const D3D12_RENDER_TARGET_BLEND_DESC *b, UINT rt, uint32_t *out)
{
	if (b->LogicOpEnable) {
		d3d12_message(d, XS_MSG_GFX_PSO_STATE, "CreateGraphicsPipelineState: render target %u: LogicOpEnable: "
			      "xs12 has no logic ops", rt);
		return false;
	}
	if (!b->BlendEnable) {
		*out = 0;
		return true;
	}
	bool straight = b->SrcBlend == D3D12_BLEND_SRC_ALPHA && b->DestBlend == D3D12_BLEND_INV_SRC_ALPHA &&
			b->BlendOp == D3D12_BLEND_OP_ADD && b->BlendOpAlpha == D3D12_BLEND_OP_ADD &&
			b->DestBlendAlpha == D3D12_BLEND_INV_SRC_ALPHA &&
			(b->SrcBlendAlpha == D3D12_BLEND_ONE || b->SrcBlendAlpha == D3D12_BLEND_SRC_ALPHA);
	if (!straight) {
		d3d12_message(d, XS_MSG_GFX_PSO_STATE, "CreateGraphicsPipelineState: render target %u blends with "
			      "factors %d/%d op %d, alpha %d/%d op %d: xs12 blends straight alpha only (SRC_ALPHA, "
			      "INV_SRC_ALPHA, ADD; alpha ONE or SRC_ALPHA, INV_SRC_ALPHA, ADD)", rt, (int)b->SrcBlend,
			      (int)b->DestBlend, (int)b->BlendOp, (int)b->SrcBlendAlpha, (int)b->DestBlendAlpha,
			      (int)b->BlendOpAlpha);
		return false;
	}
	uint32_t asrc = b->SrcBlendAlpha == D3D12_BLEND_ONE ? V_028780_BLEND_ONE : V_028780_BLEND_SRC_ALPHA;
	*out = S_028780_ENABLE(1) | S_028780_SEPARATE_ALPHA_BLEND(1) | S_028780_COLOR_SRCBLEND(V_028780_BLEND_SRC_ALPHA) |
	       S_028780_COLOR_DESTBLEND(V_028780_BLEND_ONE_MINUS_SRC_ALPHA) |
	       S_028780_COLOR_COMB_FCN(V_028780_COMB_DST_PLUS_SRC) | S_028780_ALPHA_SRCBLEND(asrc) |
	       S_028780_ALPHA_DESTBLEND(V_028780_BLEND_ONE_MINUS_SRC_ALPHA) |
	       S_028780_ALPHA_COMB_FCN(V_028780_COMB_DST_PLUS_SRC);
	return true;
}

static bool check_state(d3d12_device *d, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc)
{
	const char *why = NULL;
	if (desc->PrimitiveTopologyType != D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE)
		why = "PrimitiveTopologyType: xs12 draws triangles (TRIANGLE)";
	else if (desc->RasterizerState.FillMode != D3D12_FILL_MODE_SOLID)
		why = "FillMode: xs12 fills (SOLID)";
	else if (desc->RasterizerState.CullMode < D3D12_CULL_MODE_NONE || desc->RasterizerState.CullMode > D3D12_CULL_MODE_BACK)
		why = "CullMode: NONE, FRONT or BACK";
	else if (desc->RasterizerState.DepthBias || desc->RasterizerState.SlopeScaledDepthBias != 0.0f ||
		 desc->RasterizerState.MultisampleEnable || desc->RasterizerState.AntialiasedLineEnable ||
		 desc->RasterizerState.ForcedSampleCount ||
		 desc->RasterizerState.ConservativeRaster != D3D12_CONSERVATIVE_RASTERIZATION_MODE_OFF)
		why = "rasterizer: depth bias, multisampling, line antialiasing and conservative rasterization are not "
		      "implemented";
	else if (desc->SampleDesc.Count != 1 || desc->SampleDesc.Quality)
		why = "SampleDesc: one sample per pixel";
	else if (desc->BlendState.AlphaToCoverageEnable)
		why = "AlphaToCoverageEnable: one sample per pixel";
	else if (desc->StreamOutput.NumEntries || desc->HS.BytecodeLength || desc->DS.BytecodeLength ||
		 desc->GS.BytecodeLength)
		why = "stream output, HS, DS and GS: xs12's pipe is VS and PS";
	else if (desc->IBStripCutValue != D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_DISABLED)
		why = "IBStripCutValue: primitive restart is not implemented";
	if (why) {
		d3d12_message(d, XS_MSG_GFX_PSO_STATE, "CreateGraphicsPipelineState: %s", why);
		return false;
	}
	if (desc->DepthStencilState.StencilEnable) {
		d3d12_message(d, XS_MSG_GFX_PSO_STENCIL, "CreateGraphicsPipelineState: StencilEnable: xs12's depth "
			      "buffers are D32_FLOAT, without stencil");
		return false;
	}
	const D3D12_DEPTH_STENCIL_DESC *ds = &desc->DepthStencilState;
	if (ds->DepthEnable && zfunc(ds->DepthFunc) > 7) {
		d3d12_message(d, XS_MSG_GFX_PSO_STATE, "CreateGraphicsPipelineState: DepthFunc %d: NEVER..ALWAYS",
			      (int)ds->DepthFunc);
		return false;
	}
	return true;
}

/* The PS's colour exports against the render-target formats. */
static bool check_targets(d3d12_device *d, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, const xs_gfx_shader *ps)
{
	if (desc->NumRenderTargets > 8) {
		d3d12_message(d, XS_MSG_GFX_PSO_TARGETS, "CreateGraphicsPipelineState: NumRenderTargets %u: at most 8",
			      desc->NumRenderTargets);
		return false;
	}
	for (UINT i = 0; i < 8; i++) {
		DXGI_FORMAT f = i < desc->NumRenderTargets ? desc->RTVFormats[i] : DXGI_FORMAT_UNKNOWN;
		const d3d12_format *fmt = d3d12_format_get(f);
		bool exported = ps->mrt_mask >> i & 1;
		if (f != DXGI_FORMAT_UNKNOWN && (!fmt || fmt->depth)) {
			d3d12_message(d, XS_MSG_GFX_PSO_TARGETS, "CreateGraphicsPipelineState: RTVFormats[%u] %d: xs12 "
				      "renders R8G8B8A8_UNORM and R32G32B32A32_FLOAT", i, (int)f);
			return false;
		}
		if (exported != (f != DXGI_FORMAT_UNKNOWN)) {
			d3d12_message(d, XS_MSG_GFX_PSO_TARGETS, "CreateGraphicsPipelineState: render target %u: the PS "
				      "%s MRT%u but RTVFormats[%u] is %s (NumRenderTargets %u, PS exports 0x%x)", i,
				      exported ? "exports" : "does not export", i, i,
				      f == DXGI_FORMAT_UNKNOWN ? "UNKNOWN" : fmt->name, desc->NumRenderTargets, ps->mrt_mask);
			return false;
		}
	}
	if (desc->DSVFormat != DXGI_FORMAT_UNKNOWN && desc->DSVFormat != DXGI_FORMAT_D32_FLOAT) {
		d3d12_message(d, XS_MSG_GFX_PSO_TARGETS, "CreateGraphicsPipelineState: DSVFormat %d: xs12's depth buffers "
			      "are D32_FLOAT", (int)desc->DSVFormat);
		return false;
	}
	const D3D12_DEPTH_STENCIL_DESC *ds = &desc->DepthStencilState;
	if (ds->DepthEnable && desc->DSVFormat == DXGI_FORMAT_UNKNOWN) {
		d3d12_message(d, XS_MSG_GFX_PSO_TARGETS, "CreateGraphicsPipelineState: DepthEnable with DSVFormat UNKNOWN");
		return false;
	}
	return true;
}

/* The registers of the pipeline alone (docs/graphics.md section 2). */
static void pipeline_registers(d3d12_gfx_pipeline *g, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc)
{
	const xs_gfx_shader *vs = g->vs, *ps = g->ps;
	bool vs_scratch = G_00B12C_SCRATCH_EN(vs->rsrc2), ps_scratch = G_00B02C_SCRATCH_EN(ps->rsrc2);
	g->sh_vs[0] = (uint32_t)(g->vs_va >> 8);
	g->sh_vs[1] = S_00B024_MEM_BASE((uint32_t)(g->vs_va >> 40)); /* the PS layout (MEM_BASE) */
	/* VGPR_COMP_CNT is in RSRC1 for the VS on gfx10: the input VGPRs it reads */
	g->sh_vs[2] = (vs->rsrc1 & C_00B128_VGPR_COMP_CNT) | S_00B128_VGPR_COMP_CNT(vs->vgpr_comp_cnt);
	g->sh_vs[3] = vs->rsrc2 | S_00B12C_USER_SGPR(VS_USER_SGPRS);
	g->sh_ps[0] = (uint32_t)(g->ps_va >> 8);
	g->sh_ps[1] = S_00B024_MEM_BASE((uint32_t)(g->ps_va >> 40));
	g->sh_ps[2] = ps->rsrc1;
	g->sh_ps[3] = ps->rsrc2 | S_00B02C_USER_SGPR(PS_USER_SGPRS);
	g->uses_scratch = vs_scratch || ps_scratch;
	g->vs_user_sgprs = VS_USER_SGPRS;
	g->ps_user_sgprs = PS_USER_SGPRS;

	ctx(g, R_028B54_VGT_SHADER_STAGES_EN, S_028B54_VS_W32_EN(!vs->wave64));
	uint32_t nparam = 32 - (uint32_t)__builtin_clz(vs->param_mask | 1);
	ctx(g, R_0286C4_SPI_VS_OUT_CONFIG, S_0286C4_VS_EXPORT_COUNT(nparam - 1));
	ctx(g, R_02870C_SPI_SHADER_POS_FORMAT, S_02870C_POS0_EXPORT_FORMAT(V_02870C_SPI_SHADER_4COMP));
	ctx(g, R_0286D8_SPI_PS_IN_CONTROL, S_0286D8_NUM_INTERP(ps->num_interp) | S_0286D8_PS_W32_EN(!ps->wave64));
	ctx(g, R_0286CC_SPI_PS_INPUT_ENA, ps->ps_input_ena);
	ctx(g, R_0286D0_SPI_PS_INPUT_ADDR, ps->ps_input_addr);
	for (uint32_t a = 0; a < ps->num_interp; a++) /* attribute a reads parameter a */
		ctx(g, R_028644_SPI_PS_INPUT_CNTL_0 + 4 * a, S_028644_OFFSET(a));
	uint32_t col = 0, shader_mask = 0, target_mask = 0;
	for (UINT i = 0; i < 8; i++) {
		if (!(ps->mrt_mask >> i & 1))
			continue;
		col |= (ps->mrt_compr_mask >> i & 1 ? V_028714_SPI_SHADER_FP16_ABGR : V_028714_SPI_SHADER_32_ABGR) << (4 * i);
		shader_mask |= 0xFu << (4 * i);
		UINT b = desc->BlendState.IndependentBlendEnable ? i : 0;
		target_mask |= (desc->BlendState.RenderTarget[b].RenderTargetWriteMask & 0xFu) << (4 * i);
	}
	ctx(g, R_028714_SPI_SHADER_COL_FORMAT, col);
	ctx(g, R_028710_SPI_SHADER_Z_FORMAT, S_028710_Z_EXPORT_FORMAT(ps->writes_z ? V_028710_SPI_SHADER_32_R
										: V_028710_SPI_SHADER_ZERO));
	ctx(g, R_02823C_CB_SHADER_MASK, shader_mask);
	ctx(g, R_028238_CB_TARGET_MASK, target_mask);
	ctx(g, R_028808_CB_COLOR_CONTROL, S_028808_MODE(V_028808_CB_NORMAL) | S_028808_ROP3(0xCC)); /* ROP3 copy */
	const D3D12_DEPTH_STENCIL_DESC *ds = &desc->DepthStencilState;
	bool zwrite = ds->DepthEnable && ds->DepthWriteMask == D3D12_DEPTH_WRITE_MASK_ALL;
	ctx(g, R_028800_DB_DEPTH_CONTROL, S_028800_Z_ENABLE(ds->DepthEnable) | S_028800_Z_WRITE_ENABLE(zwrite) |
						  S_028800_ZFUNC(ds->DepthEnable ? zfunc(ds->DepthFunc) : V_028800_FRAG_ALWAYS));
	g->depth = ds->DepthEnable;
	/* early Z unless the shader decides depth or coverage itself */
	ctx(g, R_02880C_DB_SHADER_CONTROL, S_02880C_Z_EXPORT_ENABLE(ps->writes_z) | S_02880C_KILL_ENABLE(ps->kills) |
						   S_02880C_Z_ORDER(ps->writes_z || ps->kills ? V_02880C_LATE_Z
											      : V_02880C_EARLY_Z_THEN_LATE_Z));
	const D3D12_RASTERIZER_DESC *rs = &desc->RasterizerState;
	/* D3D clip space (0 <= z <= w); depth clip off disables both z planes */
	ctx(g, R_028810_PA_CL_CLIP_CNTL, S_028810_DX_CLIP_SPACE_DEF(1) | S_028810_DX_LINEAR_ATTR_CLIP_ENA(1) |
						 S_028810_ZCLIP_NEAR_DISABLE(!rs->DepthClipEnable) |
						 S_028810_ZCLIP_FAR_DISABLE(!rs->DepthClipEnable));
	/* FACE 1: clockwise triangles are front-facing (D3D12's default) */
	ctx(g, R_028814_PA_SU_SC_MODE_CNTL, S_028814_CULL_FRONT(rs->CullMode == D3D12_CULL_MODE_FRONT) |
						    S_028814_CULL_BACK(rs->CullMode == D3D12_CULL_MODE_BACK) |
						    S_028814_FACE(!rs->FrontCounterClockwise));
	ctx(g, R_028818_PA_CL_VTE_CNTL, S_028818_VPORT_X_SCALE_ENA(1) | S_028818_VPORT_X_OFFSET_ENA(1) |
						S_028818_VPORT_Y_SCALE_ENA(1) | S_028818_VPORT_Y_OFFSET_ENA(1) |
						S_028818_VPORT_Z_SCALE_ENA(1) | S_028818_VPORT_Z_OFFSET_ENA(1) |
						S_028818_VTX_W0_FMT(1));
	ctx(g, R_02881C_PA_CL_VS_OUT_CNTL, 0);
	/* D3D12 rasterization: pixel centres at .5, 8 bits of subpixel precision */
	ctx(g, R_028BE4_PA_SU_VTX_CNTL, S_028BE4_PIX_CENTER(1) | S_028BE4_ROUND_MODE(V_028BE4_X_ROUND_TO_EVEN) |
						S_028BE4_QUANT_MODE(V_028BE4_X_16_8_FIXED_POINT_1_256TH));
	for (UINT i = 0; i < 8; i++) {
		UINT b = desc->BlendState.IndependentBlendEnable ? i : 0;
		uint32_t v = 0;
		if (ps->mrt_mask >> i & 1)
			blend_control(NULL, &desc->BlendState.RenderTarget[b], i, &v); /* checked before */
		ctx(g, R_028780_CB_BLEND0_CONTROL + 4 * i, v);
	}
}

HRESULT d3d12_pipeline_create_graphics(d3d12_device *d, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *desc, REFIID riid,
				       void **out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	if (!desc) {
		d3d12_message(d, XS_MSG_GFX_PSO_STATE, "CreateGraphicsPipelineState: NULL description");
		return E_INVALIDARG;
	}
	if (!check_state(d, desc))
		return E_INVALIDARG;
	for (UINT i = 0; i < 8; i++) {
		uint32_t v;
		if ((i == 0 || desc->BlendState.IndependentBlendEnable) &&
		    !blend_control(d, &desc->BlendState.RenderTarget[i], i, &v))
			return E_INVALIDARG;
	}
	d3d12_gfx_pipeline *g = xs_calloc(1, sizeof(*g));
	if (!g)
		return E_OUTOFMEMORY;
	HRESULT hr = parse_stage(d, &desc->VS, XS_GFX_STAGE_VS, "VS", &g->vs);
	if (SUCCEEDED(hr))
		hr = parse_stage(d, &desc->PS, XS_GFX_STAGE_PS, "PS", &g->ps);
	if (FAILED(hr))
		goto fail;
	hr = E_INVALIDARG;
	const xs_gfx_shader *vs = g->vs, *ps = g->ps;
	g->pal = vs->abi == XS_GFX_ABI_PAL || ps->abi == XS_GFX_ABI_PAL;
	/* the xs12 ABI: s[0:5] for a VS, s[0:3] + PRIM_MASK for a PS, then the scratch wave offset */
	uint32_t vs_max = VS_USER_SGPRS + (G_00B12C_SCRATCH_EN(vs->rsrc2) ? 1 : 0);
	uint32_t ps_max = PS_USER_SGPRS + 1 + (G_00B02C_SCRATCH_EN(ps->rsrc2) ? 1 : 0);
	if (vs->user_sgprs_used > vs_max || ps->user_sgprs_used > ps_max) {
		bool v = vs->user_sgprs_used > vs_max;
		d3d12_message(d, XS_MSG_GFX_PSO_ABI, "CreateGraphicsPipelineState: the %s (%s) reads s0..s%u as inputs; the "
			      "xs12 ABI gives a %s %u (docs/graphics.md 1.1)", v ? "VS" : "PS", v ? vs->entry : ps->entry,
			      (v ? vs->user_sgprs_used : ps->user_sgprs_used) - 1, v ? "VS" : "PS", v ? vs_max : ps_max);
		goto fail;
	}
	if (!(vs->pos_mask & 1)) {
		d3d12_message(d, XS_MSG_GFX_PSO_LINKAGE, "CreateGraphicsPipelineState: the VS (%s) exports no position "
			      "(exp pos0)", vs->entry);
		goto fail;
	}
	if (ps->interp_mask & ~vs->param_mask) {
		d3d12_message(d, XS_MSG_GFX_PSO_LINKAGE, "CreateGraphicsPipelineState: the PS (%s) reads attributes 0x%x "
			      "(NUM_INTERP %u) but the VS (%s) exports parameters 0x%x: attribute n is PARAMn", ps->entry,
			      ps->interp_mask, ps->num_interp, vs->entry, vs->param_mask);
		goto fail;
	}
	if (!check_targets(d, desc, ps) || !check_input_layout(d, &desc->InputLayout, g))
		goto fail;
	/* both images in one allocation the CPU writes once: VS, then PS */
	uint64_t vs_bytes = XS_ALIGN_UP((uint64_t)vs->image_size, 256u), bytes = vs_bytes + ps->image_size;
	uint8_t *host;
	xs_err e;
	pthread_mutex_lock(&d->rt->lock);
	xs_status st = xs_vm_alloc_host(d->rt->vm, bytes, 256, &g->code_va, &host, &e);
	if (!st)
		xs_vm_set_name(d->rt->vm, g->code_va, "a graphics pipeline's VS and PS code", NULL);
	pthread_mutex_unlock(&d->rt->lock);
	if (st) {
		d3d12_message(d, XS_MSG_RUNTIME, "CreateGraphicsPipelineState: %s", e.msg);
		hr = E_OUTOFMEMORY;
		goto fail;
	}
	memcpy(host, vs->image, vs->image_size);
	memcpy(host + vs_bytes, ps->image, ps->image_size);
	/* PGM_LO holds va >> 8: the entry must be 256-aligned too */
	g->vs_va = g->code_va + vs->entry_offset;
	g->ps_va = g->code_va + vs_bytes + ps->entry_offset;
	if ((g->vs_va | g->ps_va) & 0xff) {
		d3d12_message(d, XS_MSG_GFX_PSO_SHADER, "CreateGraphicsPipelineState: an entry point at +0x%llx / +0x%llx "
			      "of its image: SPI_SHADER_PGM_LO needs 256-byte aligned entries",
			      (unsigned long long)vs->entry_offset, (unsigned long long)ps->entry_offset);
		goto fail;
	}
	g->nrt = desc->NumRenderTargets;
	for (UINT i = 0; i < 8; i++)
		g->rtv[i] = i < desc->NumRenderTargets ? desc->RTVFormats[i] : DXGI_FORMAT_UNKNOWN;
	g->dsv = desc->DSVFormat;
	pipeline_registers(g, desc);
	d3d12_pipeline *p = d3d12_pipeline_alloc(d);
	if (!p) {
		hr = E_OUTOFMEMORY;
		goto fail;
	}
	p->gfx = g;
	/* S1.11: the larger of the two stages' per-wave needs */
	p->scratch_per_wave = XS_MAX(vs->scratch_bytes_per_wave, ps->scratch_bytes_per_wave);
	if (desc->pRootSignature) {
		p->root = d3d12_root_signature_from_iface(desc->pRootSignature);
		if (p->root)
			ID3D12RootSignature_AddRef(desc->pRootSignature);
	}
	hr = ID3D12PipelineState_QueryInterface(&p->iface, riid, out);
	ID3D12PipelineState_Release(&p->iface);
	return hr;
fail:
	d3d12_gfx_pipeline_free(d, g);
	return hr;
}
