/*
 * ID3D12Device2::CreatePipelineState: a pipeline state stream read into a
 * D3D12_GRAPHICS_PIPELINE_STATE_DESC (or a compute one when it holds CS),
 * then created as CreateGraphicsPipelineState / CreateComputePipelineState
 * would. A stream is a sequence of subobjects, each pointer-aligned: the
 * type, then the inner structure at its own alignment (how d3dx12.h's
 * CD3DX12_PIPELINE_STATE_STREAM_SUBOBJECT lays them out). A type xs12 does
 * not know, a size that leaves the stream or a subobject given twice is
 * GFX_PSO_STATE naming the byte offset.
 */
#include "d3d12/xs_d3d12_private.h"

#include <string.h>

typedef struct stream_type {
	size_t size, align;
	size_t gfx_off;      /* where it goes in the graphics description (SIZE_MAX: nowhere) */
} stream_type;

#define GFX(member) offsetof(D3D12_GRAPHICS_PIPELINE_STATE_DESC, member)
#define T(type, member) { sizeof(type), _Alignof(type), member }

static const stream_type types[] = {
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE] = T(ID3D12RootSignature *, GFX(pRootSignature)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS] = T(D3D12_SHADER_BYTECODE, GFX(VS)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS] = T(D3D12_SHADER_BYTECODE, GFX(PS)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DS] = T(D3D12_SHADER_BYTECODE, GFX(DS)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_HS] = T(D3D12_SHADER_BYTECODE, GFX(HS)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_GS] = T(D3D12_SHADER_BYTECODE, GFX(GS)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS] = T(D3D12_SHADER_BYTECODE, SIZE_MAX),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_STREAM_OUTPUT] = T(D3D12_STREAM_OUTPUT_DESC, GFX(StreamOutput)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_BLEND] = T(D3D12_BLEND_DESC, GFX(BlendState)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_MASK] = T(UINT, GFX(SampleMask)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER] = T(D3D12_RASTERIZER_DESC, GFX(RasterizerState)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL] = T(D3D12_DEPTH_STENCIL_DESC, GFX(DepthStencilState)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_INPUT_LAYOUT] = T(D3D12_INPUT_LAYOUT_DESC, GFX(InputLayout)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_IB_STRIP_CUT_VALUE] = T(D3D12_INDEX_BUFFER_STRIP_CUT_VALUE, GFX(IBStripCutValue)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY] = T(D3D12_PRIMITIVE_TOPOLOGY_TYPE, GFX(PrimitiveTopologyType)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS] = T(struct D3D12_RT_FORMAT_ARRAY, SIZE_MAX),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL_FORMAT] = T(DXGI_FORMAT, GFX(DSVFormat)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_DESC] = T(DXGI_SAMPLE_DESC, GFX(SampleDesc)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_NODE_MASK] = T(UINT, GFX(NodeMask)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CACHED_PSO] = T(D3D12_CACHED_PIPELINE_STATE, GFX(CachedPSO)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_FLAGS] = T(D3D12_PIPELINE_STATE_FLAGS, GFX(Flags)),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL1] = T(D3D12_DEPTH_STENCIL_DESC1, SIZE_MAX),
	[D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VIEW_INSTANCING] = T(D3D12_VIEW_INSTANCING_DESC, SIZE_MAX),
};

HRESULT d3d12_pipeline_create_from_stream(d3d12_device *d, const D3D12_PIPELINE_STATE_STREAM_DESC *desc, REFIID riid,
					  void **out)
{
	if (!out)
		return E_POINTER;
	*out = NULL;
	if (!desc || !desc->pPipelineStateSubobjectStream || !desc->SizeInBytes) {
		d3d12_message(d, XS_MSG_GFX_PSO_STATE, "CreatePipelineState: an empty pipeline state stream");
		return E_INVALIDARG;
	}
	/* D3D12's defaults for what a stream leaves out (d3dx12's CD3DX12 defaults) */
	D3D12_GRAPHICS_PIPELINE_STATE_DESC g;
	memset(&g, 0, sizeof(g));
	g.SampleMask = UINT32_MAX;
	g.SampleDesc.Count = 1;
	g.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
	g.RasterizerState.CullMode = D3D12_CULL_MODE_BACK;
	g.RasterizerState.DepthClipEnable = TRUE;
	g.DepthStencilState.DepthEnable = TRUE;
	g.DepthStencilState.DepthWriteMask = D3D12_DEPTH_WRITE_MASK_ALL;
	g.DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_LESS;
	for (UINT i = 0; i < 8; i++)
		g.BlendState.RenderTarget[i].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
	D3D12_SHADER_BYTECODE cs = { 0 };
	ID3D12RootSignature *root = NULL;
	uint32_t seen = 0;
	const uint8_t *p = desc->pPipelineStateSubobjectStream;
	size_t n = desc->SizeInBytes, at = 0;
	while (at < n) {
		D3D12_PIPELINE_STATE_SUBOBJECT_TYPE t;
		if (n - at < sizeof(t)) {
			d3d12_message(d, XS_MSG_GFX_PSO_STATE, "CreatePipelineState: byte %zu: a subobject's type runs "
				      "past the stream's %zu bytes", at, n);
			return E_INVALIDARG;
		}
		memcpy(&t, p + at, sizeof(t));
		if ((unsigned)t >= XS_ARRAY_SIZE(types) || !types[t].size) {
			d3d12_message(d, XS_MSG_GFX_PSO_STATE, "CreatePipelineState: byte %zu: subobject type %d xs12 does "
				      "not take", at, (int)t);
			return E_INVALIDARG;
		}
		const stream_type *st = &types[t];
		size_t inner = XS_ALIGN_UP(at + sizeof(t), st->align);
		if (inner + st->size > n || (seen >> t & 1)) {
			d3d12_message(d, XS_MSG_GFX_PSO_STATE, "CreatePipelineState: byte %zu: subobject type %d %s", at,
				      (int)t, inner + st->size > n ? "runs past the stream" : "given twice");
			return E_INVALIDARG;
		}
		seen |= 1u << t;
		if (t == D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS) {
			memcpy(&cs, p + inner, sizeof(cs));
		} else if (t == D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS) {
			struct D3D12_RT_FORMAT_ARRAY f;
			memcpy(&f, p + inner, sizeof(f));
			g.NumRenderTargets = f.NumRenderTargets;
			memcpy(g.RTVFormats, f.RTFormats, sizeof(g.RTVFormats));
		} else if (t == D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL1) {
			D3D12_DEPTH_STENCIL_DESC1 ds;
			memcpy(&ds, p + inner, sizeof(ds));
			if (ds.DepthBoundsTestEnable) {
				d3d12_message(d, XS_MSG_GFX_PSO_STATE, "CreatePipelineState: DepthBoundsTestEnable is not "
					      "implemented");
				return E_INVALIDARG;
			}
			memcpy(&g.DepthStencilState, &ds, sizeof(g.DepthStencilState)); /* the common prefix */
		} else if (t == D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VIEW_INSTANCING) {
			D3D12_VIEW_INSTANCING_DESC vi;
			memcpy(&vi, p + inner, sizeof(vi));
			if (vi.ViewInstanceCount > 1) {
				d3d12_message(d, XS_MSG_GFX_PSO_STATE, "CreatePipelineState: view instancing is not "
					      "implemented");
				return E_INVALIDARG;
			}
		} else {
			memcpy((uint8_t *)&g + st->gfx_off, p + inner, st->size);
			if (t == D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE)
				root = g.pRootSignature;
		}
		at = XS_ALIGN_UP(inner + st->size, sizeof(void *));
	}
	if (cs.BytecodeLength) {
		D3D12_COMPUTE_PIPELINE_STATE_DESC c = { root, cs, g.NodeMask, g.CachedPSO, g.Flags };
		return d3d12_pipeline_create_compute(d, &c, riid, out);
	}
	return d3d12_pipeline_create_graphics(d, &g, riid, out);
}
