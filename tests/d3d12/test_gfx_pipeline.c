/*
 * Graphics pipelines and draws through the official interfaces, with the
 * shaders of kernels/gfx built by `xs12 cc --vs/--ps`: creation (both
 * ABIs), each pipeline rule broken and kept, GetInformationX (S1.11: the
 * larger stage), and the PM4 of a draw decoded register by register with
 * the project's decoder (src/pm4) against the contract of
 * docs/graphics.md section 2; the tables the draw writes read back from
 * GPU memory; S4 under the defaults and with the title's limits.
 *
 * argv: color.vs color.ps spill.vs spill.ps mrt2.ps color.vs.mesa
 *       color.ps.mesa two_attr.ps vadd.hsaco many_sgprs.vs
 */
#include "d3d12_util.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gfx_pm4.h"
#ifdef SCENE_HAVE_PNG
#include "scene.h" /* scene_png_write_rows: the shared PNG helper (examples/d3d12/scene) */
#endif
#include "codeobj/xs_codeobj_gfx.h"
#include "hw/xs_hw_pm4.h"
#include "hw/xs_hw_regs.h"

enum { COLOR_VS, COLOR_PS, SPILL_VS, SPILL_PS, MRT2_PS, COLOR_VS_MESA, COLOR_PS_MESA, TWO_ATTR_PS, VADD, MANY_SGPRS_VS,
       NFILES };
static void *bin[NFILES];
static size_t bin_size[NFILES];

static D3D12_SHADER_BYTECODE code(int i)
{
	D3D12_SHADER_BYTECODE b = { bin[i], bin_size[i] };
	return b;
}

static const D3D12_INPUT_ELEMENT_DESC layout[2] = {
	{ "POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
	{ "COLOR", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, D3D12_APPEND_ALIGNED_ELEMENT,
	  D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
};

static D3D12_GRAPHICS_PIPELINE_STATE_DESC base_desc(int vs, int ps)
{
	D3D12_GRAPHICS_PIPELINE_STATE_DESC d = t_gfx_desc(NULL, 0, NULL, 0);
	d.VS = code(vs);
	d.PS = code(ps);
	d.InputLayout.pInputElementDescs = layout;
	d.InputLayout.NumElements = 2;
	return d;
}

static ID3D12PipelineState *create(t_ctx *c, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *d, HRESULT want)
{
	ID3D12PipelineState *p = NULL;
	assert_int_equal(ID3D12Device_CreateGraphicsPipelineState(c->dev, d, &IID_ID3D12PipelineState, (void **)&p), want);
	return p;
}

/* Created and released (d3d12.h's C macros evaluate their object twice:
 * never pass them a call). */
static void kept(t_ctx *c, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *d)
{
	ID3D12PipelineState *p = create(c, d, S_OK);
	ID3D12PipelineState_Release(p);
}

static void refused(t_ctx *c, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *d, int id, const char *what)
{
	char text[1024];
	assert_null(create(c, d, E_INVALIDARG));
	assert_int_equal(t_last_message(c, text, sizeof(text)), id);
	if (!strstr(text, what))
		fail_msg("message \"%s\" does not name \"%s\"", text, what);
}

static UINT scratch_units(ID3D12PipelineState *p)
{
	ID3DBlob *b = NULL;
	assert_int_equal(ID3D12PipelineState_GetInformationX(p, D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW,
							     0, &b), S_OK);
	UINT u;
	memcpy(&u, ID3D10Blob_GetBufferPointer(b), 4);
	ID3D10Blob_Release(b);
	return u;
}

static uint32_t loader_scratch_per_wave(int i)
{
	xs_gfx_shader sh;
	xs_err e;
	assert_int_equal(xs_gfx_shader_parse(bin[i], bin_size[i], NULL, &sh, &e), XS_OK);
	uint32_t w = sh.scratch_bytes_per_wave;
	xs_gfx_shader_free(&sh);
	return w;
}

static void pipelines_are_created_and_refused(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	D3D12_GRAPHICS_PIPELINE_STATE_DESC d = base_desc(COLOR_VS, COLOR_PS);
	ID3D12PipelineState *p = create(&c, &d, S_OK);
	assert_int_equal(scratch_units(p), 0);
	ID3D12PipelineState_Release(p);
	d = base_desc(COLOR_VS_MESA, COLOR_PS_MESA); /* the Mesa ABI */
	kept(&c, &d);
	/* S1.11: the larger of the stages' needs */
	d = base_desc(SPILL_VS, SPILL_PS);
	d.InputLayout.NumElements = 2;
	p = create(&c, &d, S_OK);
	uint32_t want = loader_scratch_per_wave(SPILL_VS) > loader_scratch_per_wave(SPILL_PS)
				? loader_scratch_per_wave(SPILL_VS) : loader_scratch_per_wave(SPILL_PS);
	assert_true(want > 0);
	assert_int_equal(scratch_units(p), want / 1024);
	ID3D12PipelineState_Release(p);
	/* shaders */
	d = base_desc(VADD, COLOR_PS);
	refused(&c, &d, XS12_MESSAGE_ID_GFX_PSO_SHADER, "VS");
	d = base_desc(COLOR_PS, COLOR_PS);
	refused(&c, &d, XS12_MESSAGE_ID_GFX_PSO_SHADER, "pixel shader");
	d = base_desc(COLOR_VS, COLOR_PS);
	d.PS.BytecodeLength = 0;
	refused(&c, &d, XS12_MESSAGE_ID_GFX_PSO_SHADER, "PS is empty");
	/* the ABI: a VS reading s0..s7 (llc-15 from tests/d3d12/gfx/many_sgprs.vs.ll) */
	d = base_desc(MANY_SGPRS_VS, COLOR_PS);
	d.InputLayout.NumElements = 0;
	refused(&c, &d, XS12_MESSAGE_ID_GFX_PSO_ABI, "reads s0..s7");
	/* linkage: the PS reads attribute 1, the VS exports PARAM0 */
	d = base_desc(COLOR_VS, TWO_ATTR_PS);
	refused(&c, &d, XS12_MESSAGE_ID_GFX_PSO_LINKAGE, "attributes 0x3");
	/* targets vs the PS's exports */
	d = base_desc(COLOR_VS, COLOR_PS);
	d.NumRenderTargets = 0;
	refused(&c, &d, XS12_MESSAGE_ID_GFX_PSO_TARGETS, "exports MRT0");
	d = base_desc(COLOR_VS, MRT2_PS);
	refused(&c, &d, XS12_MESSAGE_ID_GFX_PSO_TARGETS, "MRT1");
	d.NumRenderTargets = 2;
	d.RTVFormats[1] = DXGI_FORMAT_R32G32B32A32_FLOAT;
	kept(&c, &d); /* kept */
	d = base_desc(COLOR_VS, COLOR_PS);
	d.RTVFormats[0] = DXGI_FORMAT_B8G8R8A8_UNORM;
	refused(&c, &d, XS12_MESSAGE_ID_GFX_PSO_TARGETS, "RTVFormats[0]");
	d = base_desc(COLOR_VS, COLOR_PS);
	d.DepthStencilState.DepthEnable = TRUE;
	d.DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_LESS;
	refused(&c, &d, XS12_MESSAGE_ID_GFX_PSO_TARGETS, "DSVFormat UNKNOWN");
	d.DSVFormat = DXGI_FORMAT_D32_FLOAT;
	kept(&c, &d); /* kept */
	/* state */
	d = base_desc(COLOR_VS, COLOR_PS);
	d.DepthStencilState.StencilEnable = TRUE;
	refused(&c, &d, XS12_MESSAGE_ID_GFX_PSO_STENCIL, "StencilEnable");
	d = base_desc(COLOR_VS, COLOR_PS);
	d.RasterizerState.FillMode = D3D12_FILL_MODE_WIREFRAME;
	refused(&c, &d, XS12_MESSAGE_ID_GFX_PSO_STATE, "FillMode");
	d = base_desc(COLOR_VS, COLOR_PS);
	d.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE;
	refused(&c, &d, XS12_MESSAGE_ID_GFX_PSO_STATE, "TRIANGLE");
	d = base_desc(COLOR_VS, COLOR_PS);
	d.BlendState.RenderTarget[0].BlendEnable = TRUE;
	d.BlendState.RenderTarget[0].SrcBlend = D3D12_BLEND_ONE;
	d.BlendState.RenderTarget[0].DestBlend = D3D12_BLEND_ONE;
	d.BlendState.RenderTarget[0].BlendOp = D3D12_BLEND_OP_ADD;
	refused(&c, &d, XS12_MESSAGE_ID_GFX_PSO_STATE, "straight alpha");
	D3D12_RENDER_TARGET_BLEND_DESC *b = &d.BlendState.RenderTarget[0];
	b->SrcBlend = D3D12_BLEND_SRC_ALPHA, b->DestBlend = D3D12_BLEND_INV_SRC_ALPHA;
	b->SrcBlendAlpha = D3D12_BLEND_ONE, b->DestBlendAlpha = D3D12_BLEND_INV_SRC_ALPHA;
	b->BlendOpAlpha = D3D12_BLEND_OP_ADD;
	kept(&c, &d); /* kept: straight alpha */
	/* input layout */
	D3D12_INPUT_ELEMENT_DESC bad[2];
	memcpy(bad, layout, sizeof(bad));
	bad[1].Format = DXGI_FORMAT_R16G16_FLOAT;
	d = base_desc(COLOR_VS, COLOR_PS);
	d.InputLayout.pInputElementDescs = bad;
	refused(&c, &d, XS12_MESSAGE_ID_GFX_PSO_INPUT_LAYOUT, "input element 1 (COLOR0");
	memcpy(bad, layout, sizeof(bad));
	bad[1].InputSlotClass = D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA;
	bad[1].InstanceDataStepRate = 2;
	refused(&c, &d, XS12_MESSAGE_ID_GFX_PSO_INPUT_LAYOUT, "step rate");
	bad[1].InstanceDataStepRate = 1;
	bad[1].InputSlot = 1;
	kept(&c, &d); /* kept: per-instance colour */
	t_close(&c);
}

/* CreatePipelineState: a stream laid out as d3dx12.h's subobjects (each
 * pointer-aligned: type, then the inner structure). */
#define SUBOBJECT(T) struct { _Alignas(void *) D3D12_PIPELINE_STATE_SUBOBJECT_TYPE type; T v; }
static void pipeline_state_streams(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	struct gfx_stream {
		SUBOBJECT(D3D12_SHADER_BYTECODE) vs, ps;
		SUBOBJECT(D3D12_INPUT_LAYOUT_DESC) il;
		SUBOBJECT(D3D12_PRIMITIVE_TOPOLOGY_TYPE) topo;
		SUBOBJECT(struct D3D12_RT_FORMAT_ARRAY) rtv;
		SUBOBJECT(D3D12_DEPTH_STENCIL_DESC) ds;
	} g;
	memset(&g, 0, sizeof(g));
	g.vs.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS, g.vs.v = code(COLOR_VS);
	g.ps.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS, g.ps.v = code(COLOR_PS);
	g.il.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_INPUT_LAYOUT, g.il.v.pInputElementDescs = layout, g.il.v.NumElements = 2;
	g.topo.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY, g.topo.v = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
	g.rtv.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS, g.rtv.v.NumRenderTargets = 1;
	g.rtv.v.RTFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
	g.ds.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL; /* depth off (the default is on) */
	D3D12_PIPELINE_STATE_STREAM_DESC sd = { sizeof(g), &g };
	ID3D12Device2 *dev2;
	assert_int_equal(ID3D12Device_QueryInterface(c.dev, &IID_ID3D12Device2, (void **)&dev2), S_OK);
	ID3D12PipelineState *p = NULL;
	assert_int_equal(ID3D12Device2_CreatePipelineState(dev2, &sd, &IID_ID3D12PipelineState, (void **)&p), S_OK);
	assert_int_equal(scratch_units(p), 0);
	ID3D12PipelineState_Release(p);
	/* without the depth subobject D3D12's default (depth on) needs a DSV format */
	sd.SizeInBytes = offsetof(struct gfx_stream, ds);
	assert_int_equal(ID3D12Device2_CreatePipelineState(dev2, &sd, &IID_ID3D12PipelineState, (void **)&p), E_INVALIDARG);
	char text[512];
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_GFX_PSO_TARGETS);
	/* a type xs12 does not take, named with its byte */
	sd.SizeInBytes = sizeof(g);
	g.topo.type = (D3D12_PIPELINE_STATE_SUBOBJECT_TYPE)99;
	assert_int_equal(ID3D12Device2_CreatePipelineState(dev2, &sd, &IID_ID3D12PipelineState, (void **)&p), E_INVALIDARG);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_GFX_PSO_STATE);
	assert_non_null(strstr(text, "type 99"));
	/* a CS stream is a compute pipeline */
	struct {
		SUBOBJECT(D3D12_SHADER_BYTECODE) cs;
	} cstream = { { D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS, code(VADD) } };
	sd = (D3D12_PIPELINE_STATE_STREAM_DESC){ sizeof(cstream), &cstream };
	assert_int_equal(ID3D12Device2_CreatePipelineState(dev2, &sd, &IID_ID3D12PipelineState, (void **)&p), S_OK);
	ID3D12PipelineState_Release(p);
	ID3D12Device2_Release(dev2);
	t_close(&c);
}

/* Everything a draw needs: a target, buffers, state. */
typedef struct draw_setup {
	ID3D12Resource *rt, *vb, *ib;
	ID3D12DescriptorHeap *rtvs;
	ID3D12PipelineState *pso;
	ID3D12RootSignature *root;
} draw_setup;

static const float tri[3][8] = {
	{ -0.5f, -0.5f, 0.5f, 1.0f, 1.0f, 0.0f, 0.0f, 1.0f },
	{ 0.0f, 0.5f, 0.5f, 1.0f, 0.0f, 1.0f, 0.0f, 1.0f },
	{ 0.5f, -0.5f, 0.5f, 1.0f, 0.0f, 0.0f, 1.0f, 1.0f },
};

static void setup_open(t_ctx *c, draw_setup *s, int vs, int ps, UINT w, UINT h)
{
	memset(s, 0, sizeof(*s));
	D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
	D3D12_RESOURCE_DESC rd = { .Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D, .Width = w, .Height = h,
				   .DepthOrArraySize = 1, .MipLevels = 1, .Format = DXGI_FORMAT_R8G8B8A8_UNORM,
				   .SampleDesc = { 1, 0 }, .Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET };
	assert_int_equal(ID3D12Device_CreateCommittedResource(c->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd,
							      D3D12_RESOURCE_STATE_RENDER_TARGET, NULL,
							      &IID_ID3D12Resource, (void **)&s->rt), S_OK);
	D3D12_DESCRIPTOR_HEAP_DESC hd = { .Type = D3D12_DESCRIPTOR_HEAP_TYPE_RTV, .NumDescriptors = 1 };
	assert_int_equal(ID3D12Device_CreateDescriptorHeap(c->dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&s->rtvs), S_OK);
	ID3D12Device_CreateRenderTargetView(c->dev, s->rt, NULL, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(s->rtvs));
	s->vb = t_upload(c, tri, sizeof(tri));
	const uint16_t idx[3] = { 0, 1, 2 };
	s->ib = t_upload(c, idx, sizeof(idx));
	D3D12_ROOT_PARAMETER rp = { .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS,
				    .Constants = { 0, 0, 1 } };
	s->root = t_root_signature(c, &rp, 1);
	D3D12_GRAPHICS_PIPELINE_STATE_DESC d = base_desc(vs, ps);
	d.pRootSignature = s->root;
	s->pso = create(c, &d, S_OK);
}

static void setup_state(t_ctx *c, draw_setup *s, UINT w, UINT h)
{
	ID3D12GraphicsCommandList6 *l = c->list;
	ID3D12GraphicsCommandList6_SetPipelineState(l, s->pso);
	ID3D12GraphicsCommandList6_SetGraphicsRootSignature(l, s->root);
	ID3D12GraphicsCommandList6_SetGraphicsRoot32BitConstant(l, 0, 0x3f800000u, 0);
	ID3D12GraphicsCommandList6_IASetPrimitiveTopology(l, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
	D3D12_VERTEX_BUFFER_VIEW vbv = { ID3D12Resource_GetGPUVirtualAddress(s->vb), sizeof(tri), sizeof(tri[0]) };
	ID3D12GraphicsCommandList6_IASetVertexBuffers(l, 0, 1, &vbv);
	D3D12_INDEX_BUFFER_VIEW ibv = { ID3D12Resource_GetGPUVirtualAddress(s->ib), 6, DXGI_FORMAT_R16_UINT };
	ID3D12GraphicsCommandList6_IASetIndexBuffer(l, &ibv);
	D3D12_VIEWPORT vp = { 0, 0, (float)w, (float)h, 0, 1 };
	D3D12_RECT sc = { 0, 0, (LONG)w, (LONG)h };
	ID3D12GraphicsCommandList6_RSSetViewports(l, 1, &vp);
	ID3D12GraphicsCommandList6_RSSetScissorRects(l, 1, &sc);
	D3D12_CPU_DESCRIPTOR_HANDLE h0 = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(s->rtvs);
	ID3D12GraphicsCommandList6_OMSetRenderTargets(l, 1, &h0, FALSE, NULL);
}

static void setup_close(draw_setup *s)
{
	ID3D12PipelineState_Release(s->pso);
	ID3D12RootSignature_Release(s->root);
	ID3D12Resource_Release(s->ib);
	ID3D12Resource_Release(s->vb);
	ID3D12DescriptorHeap_Release(s->rtvs);
	ID3D12Resource_Release(s->rt);
}

static void gpu_read(t_ctx *c, uint64_t va, void *out, size_t n)
{
	d3d12_device *d = container_of((ID3D12Device5 *)(void *)c->dev, d3d12_device, iface);
	uint64_t bad;
	assert_true(xs_vm_read(d->rt->vm, va, out, n, &bad));
}

/* The PM4 of DrawInstanced, register by register (docs/graphics.md 2). */
static void draw_pm4_is_the_contract(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enum { W = 64, H = 48 };
	draw_setup s;
	setup_open(&c, &s, COLOR_VS, COLOR_PS, W, H);
	setup_state(&c, &s, W, H);
	ID3D12GraphicsCommandList6_DrawInstanced(c.list, 3, 2, 5, 0);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	regfile rf;
	regfile_of_list(c.list, &rf);
	/* code: 256-aligned, PGM_LO = va >> 8 */
	assert_true(reg_value(&rf, "SPI_SHADER_PGM_LO_VS") > 0);
	assert_true(reg_value(&rf, "SPI_SHADER_PGM_LO_PS") > reg_value(&rf, "SPI_SHADER_PGM_LO_VS"));
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC2_VS", "USER_SGPR"), 6);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC2_PS", "USER_SGPR"), 4);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC2_VS", "SCRATCH_EN"), 0);
	assert_int_equal(field(&rf, "VGT_SHADER_STAGES_EN", "VS_W32_EN"), 1);
	assert_int_equal(field(&rf, "SPI_PS_IN_CONTROL", "NUM_INTERP"), 1);
	assert_int_equal(field(&rf, "SPI_PS_IN_CONTROL", "PS_W32_EN"), 1);
	assert_int_equal(field(&rf, "SPI_VS_OUT_CONFIG", "VS_EXPORT_COUNT"), 0); /* one parameter */
	assert_int_equal(field(&rf, "SPI_SHADER_POS_FORMAT", "POS0_EXPORT_FORMAT"), 4); /* 4COMP */
	assert_int_equal(field(&rf, "SPI_SHADER_COL_FORMAT", "COL0_EXPORT_FORMAT"), 9); /* 32_ABGR */
	assert_int_equal(field(&rf, "SPI_PS_INPUT_CNTL_0", "OFFSET"), 0);
	assert_int_equal(reg_value(&rf, "CB_TARGET_MASK"), 0xF);
	assert_int_equal(reg_value(&rf, "CB_SHADER_MASK"), 0xF);
	assert_int_equal(field(&rf, "CB_BLEND0_CONTROL", "ENABLE"), 0);
	assert_int_equal(field(&rf, "PA_SU_SC_MODE_CNTL", "CULL_BACK"), 0);
	assert_int_equal(field(&rf, "PA_SU_SC_MODE_CNTL", "FACE"), 1); /* clockwise front */
	assert_int_equal(field(&rf, "PA_CL_CLIP_CNTL", "DX_CLIP_SPACE_DEF"), 1);
	assert_int_equal(field(&rf, "PA_SU_VTX_CNTL", "QUANT_MODE"), 5); /* 1/256: 8-bit subpixel */
	assert_int_equal(field(&rf, "PA_SU_VTX_CNTL", "PIX_CENTER"), 1);
	assert_int_equal(field(&rf, "DB_DEPTH_CONTROL", "Z_ENABLE"), 0);
	assert_int_equal(field(&rf, "DB_Z_INFO", "FORMAT"), 0);
	/* the target */
	uint64_t rt_va = ID3D12Resource_GetGPUVirtualAddress(s.rt);
	assert_int_equal(reg_value(&rf, "CB_COLOR0_BASE"), (int64_t)(rt_va >> 8));
	assert_int_equal(field(&rf, "CB_COLOR0_INFO", "FORMAT"), 10);      /* COLOR_8_8_8_8 */
	assert_int_equal(field(&rf, "CB_COLOR0_INFO", "NUMBER_TYPE"), 0);  /* UNORM */
	assert_int_equal(field(&rf, "CB_COLOR0_ATTRIB2", "MIP0_WIDTH"), W - 1);
	assert_int_equal(field(&rf, "CB_COLOR0_ATTRIB2", "MIP0_HEIGHT"), H - 1);
	assert_int_equal(field(&rf, "CB_COLOR1_INFO", "FORMAT"), 0);       /* the others off */
	/* viewport: x * W/2 + W/2, y * -H/2 + H/2 */
	float f;
	int64_t v = reg_value(&rf, "PA_CL_VPORT_XSCALE");
	uint32_t u = (uint32_t)v;
	memcpy(&f, &u, 4);
	assert_true(f == W / 2.0f);
	u = (uint32_t)reg_value(&rf, "PA_CL_VPORT_YSCALE");
	memcpy(&f, &u, 4);
	assert_true(f == -H / 2.0f);
	u = (uint32_t)reg_value(&rf, "PA_CL_VPORT_YOFFSET");
	memcpy(&f, &u, 4);
	assert_true(f == H / 2.0f);
	assert_int_equal(field(&rf, "PA_SC_VPORT_SCISSOR_0_BR", "BR_X"), W);
	assert_int_equal(field(&rf, "PA_SC_VPORT_SCISSOR_0_BR", "BR_Y"), H);
	/* the draw */
	assert_int_equal(field(&rf, "VGT_PRIMITIVE_TYPE", "PRIM_TYPE"), 4); /* DI_PT_TRILIST */
	assert_int_equal(reg_value(&rf, "VGT_INDX_OFFSET"), 5);             /* StartVertexLocation */
	assert_int_equal(rf.packets[PKT3_DRAW_INDEX_AUTO], 1);
	assert_int_equal(rf.packets[PKT3_NUM_INSTANCES], 1);
	assert_int_equal(rf.packets[PKT3_DRAW_INDEX_2], 0);
	/* the tables the user SGPRs point at */
	uint64_t ring = (uint64_t)reg_value(&rf, "SPI_SHADER_USER_DATA_VS_0") |
			(uint64_t)reg_value(&rf, "SPI_SHADER_USER_DATA_VS_1") << 32;
	uint64_t vtx = (uint64_t)reg_value(&rf, "SPI_SHADER_USER_DATA_VS_2") |
		       (uint64_t)reg_value(&rf, "SPI_SHADER_USER_DATA_VS_3") << 32;
	uint64_t root = (uint64_t)reg_value(&rf, "SPI_SHADER_USER_DATA_VS_4") |
			(uint64_t)reg_value(&rf, "SPI_SHADER_USER_DATA_VS_5") << 32;
	assert_int_equal(reg_value(&rf, "SPI_SHADER_USER_DATA_PS_0"), (int64_t)(uint32_t)ring);
	assert_int_equal(reg_value(&rf, "SPI_SHADER_USER_DATA_PS_2"), (int64_t)(uint32_t)root);
	uint32_t e[16];
	gpu_read(&c, vtx, e, sizeof(e));
	uint64_t vb = ID3D12Resource_GetGPUVirtualAddress(s.vb);
	assert_int_equal(e[0], (uint32_t)vb);                                      /* element 0 at +0 */
	assert_int_equal(G_008F04_STRIDE(e[1]), 32);
	assert_int_equal(e[2], 3);                             /* NUM_RECORDS: the view's 3 vertices */
	assert_int_equal(G_008F0C_FORMAT(e[3]), 77); /* BUF_FMT_32_32_32_32_FLOAT in llvm-mc's table */
	assert_int_equal(e[4], 0);                                                 /* per-vertex */
	assert_int_equal(e[8], (uint32_t)vb + 16);                                 /* element 1: APPEND_ALIGNED */
	assert_int_equal(e[10], 3);
	uint32_t rootv;
	gpu_read(&c, root, &rootv, 4);
	assert_int_equal(rootv, 0x3f800000u);
	/* PAL: the ring table in the code's 4 GiB window (s_getpc gives the high half) */
	uint64_t code = ((uint64_t)reg_value(&rf, "SPI_SHADER_PGM_LO_VS") << 8) |
			((uint64_t)reg_value(&rf, "SPI_SHADER_PGM_HI_VS") << 40);
	assert_int_equal(ring >> 32, code >> 32);
	/* indexed: INDEX_TYPE, INDEX_BASE, INDEX_BUFFER_SIZE, DRAW_INDEX_2 */
	assert_int_equal(ID3D12CommandAllocator_Reset(c.alloc), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
	setup_state(&c, &s, W, H);
	ID3D12GraphicsCommandList6_DrawIndexedInstanced(c.list, 3, 1, 1, 2, 0);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	regfile_of_list(c.list, &rf);
	assert_int_equal(rf.packets[PKT3_DRAW_INDEX_2], 1);
	assert_int_equal(rf.packets[PKT3_INDEX_TYPE], 1);
	assert_int_equal(rf.packets[PKT3_INDEX_BASE], 1);
	assert_int_equal(rf.packets[PKT3_INDEX_BUFFER_SIZE], 1);
	assert_int_equal(reg_value(&rf, "VGT_INDX_OFFSET"), 0);
	vtx = (uint64_t)reg_value(&rf, "SPI_SHADER_USER_DATA_VS_2") | (uint64_t)reg_value(&rf, "SPI_SHADER_USER_DATA_VS_3") << 32;
	gpu_read(&c, vtx, e, sizeof(e));
	assert_int_equal(e[0], (uint32_t)(vb + 2 * 32)); /* BaseVertexLocation 2 records in */
	assert_int_equal(e[2], 1);                       /* ... leaving 1 of the view's 3 */
	setup_close(&s);
	t_close(&c);
}

/* A draw's state rules: each missing piece is a message and Close fails. */
static void draw_state_is_checked(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	draw_setup s;
	setup_open(&c, &s, COLOR_VS, COLOR_PS, 16, 16);
	char text[1024];
	ID3D12GraphicsCommandList6_DrawInstanced(c.list, 3, 1, 0, 0);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_GFX_DRAW_STATE);
	assert_non_null(strstr(text, "no pipeline"));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
	assert_int_equal(ID3D12CommandAllocator_Reset(c.alloc), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
	setup_state(&c, &s, 16, 16);
	ID3D12GraphicsCommandList6_IASetPrimitiveTopology(c.list, D3D_PRIMITIVE_TOPOLOGY_LINELIST);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_GFX_DRAW_STATE);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
	assert_int_equal(ID3D12CommandAllocator_Reset(c.alloc), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
	setup_state(&c, &s, 16, 16);
	ID3D12GraphicsCommandList6_OMSetRenderTargets(c.list, 0, NULL, FALSE, NULL);
	ID3D12GraphicsCommandList6_DrawInstanced(c.list, 3, 1, 0, 0);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_GFX_DRAW_STATE);
	assert_non_null(strstr(text, "render target 0"));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
	/* a COMPUTE list has no graphics */
	setup_close(&s);
	t_close(&c);
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_COMPUTE);
	ID3D12GraphicsCommandList6_IASetPrimitiveTopology(c.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_GFX_LIST_TYPE);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
	t_close(&c);
}

/* S4 at draws: a scratch-using pipeline runs with late alloc off under the
 * defaults; with the title's limits it keeps them and the debug layer warns. */
static void late_alloc_and_scratch(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	draw_setup s, plain;
	setup_open(&c, &s, SPILL_VS, SPILL_PS, 16, 16);
	setup_open(&c, &plain, COLOR_VS, COLOR_PS, 16, 16);
	setup_state(&c, &plain, 16, 16);
	ID3D12GraphicsCommandList6_DrawInstanced(c.list, 3, 1, 0, 0);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	regfile rf;
	regfile_of_list(c.list, &rf);
	assert_int_equal(field(&rf, "SPI_SHADER_LATE_ALLOC_VS", "LIMIT"), 11); /* the defaults: 22 wave32 */
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_VS", "CU_EN"), 0xffff);
	/* defaults + scratch: LIMIT 0, and the ring in SPI_TMPRING_SIZE */
	assert_int_equal(ID3D12CommandAllocator_Reset(c.alloc), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
	setup_state(&c, &s, 16, 16);
	ID3D12GraphicsCommandList6_DrawInstanced(c.list, 3, 1, 0, 0);
	assert_false(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_GFX_LATE_ALLOC_SCRATCH));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	regfile_of_list(c.list, &rf);
	assert_int_equal(field(&rf, "SPI_SHADER_LATE_ALLOC_VS", "LIMIT"), 0);
	assert_int_equal(field(&rf, "GE_PC_ALLOC", "OVERSUB_EN"), 0);
	assert_true(field(&rf, "SPI_TMPRING_SIZE", "WAVES") > 0);
	assert_int_equal(field(&rf, "SPI_TMPRING_SIZE", "WAVESIZE"), scratch_units(s.pso));
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC2_PS", "SCRATCH_EN") | field(&rf, "SPI_SHADER_PGM_RSRC2_VS", "SCRATCH_EN"), 1);
	/* the title's limits: kept, and the S4.1 / S1.8 warning */
	assert_int_equal(ID3D12CommandAllocator_Reset(c.alloc), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
	D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC d;
	D3D12XboxInitializeDefaultGraphicsShaderLimits(&d);
	d.VSDisableFlags = 0x2;
	ID3D12GraphicsCommandList6_SetGraphicsShaderLimitsX(c.list, &d);
	setup_state(&c, &s, 16, 16);
	ID3D12GraphicsCommandList6_DrawInstanced(c.list, 3, 1, 0, 0);
	char text[1024];
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_GFX_LATE_ALLOC_SCRATCH);
	assert_non_null(strstr(text, "S4.1"));
	assert_non_null(strstr(text, "S1.8"));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK); /* a warning */
	regfile_of_list(c.list, &rf);
	assert_int_equal(field(&rf, "SPI_SHADER_LATE_ALLOC_VS", "LIMIT"), 11);
	assert_int_equal(field(&rf, "SPI_SHADER_PGM_RSRC3_VS", "CU_EN"), 0xfffd);
	/* SetShaderScratchSpaceX(GRAPHICS): the draw's ring is the title's */
	assert_int_equal(ID3D12CommandAllocator_Reset(c.alloc), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
	UINT per_wave = scratch_units(s.pso) * 1024;
	ID3D12Resource *ring = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, (UINT64)per_wave * 8);
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_GRAPHICS,
							  ID3D12Resource_GetGPUVirtualAddress(ring), (UINT64)per_wave * 8,
							  per_wave);
	setup_state(&c, &s, 16, 16);
	ID3D12GraphicsCommandList6_DrawInstanced(c.list, 3, 1, 0, 0);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	regfile_of_list(c.list, &rf);
	assert_int_equal(field(&rf, "SPI_TMPRING_SIZE", "WAVES"), 8);
	uint64_t rt = (uint64_t)reg_value(&rf, "SPI_SHADER_USER_DATA_VS_0") | (uint64_t)reg_value(&rf, "SPI_SHADER_USER_DATA_VS_1") << 32;
	uint32_t v[4];
	gpu_read(&c, rt, v, 16);
	assert_int_equal(v[0], (uint32_t)ID3D12Resource_GetGPUVirtualAddress(ring));
	ID3D12Resource_Release(ring);
	setup_close(&plain);
	setup_close(&s);
	t_close(&c);
}

/* Copies a target into a READBACK buffer by its footprint; the mapped bytes and pitch. */
static ID3D12Resource *read_target(t_ctx *c, ID3D12Resource *tex, uint8_t **px, UINT *pitch)
{
	D3D12_RESOURCE_DESC d = ID3D12Resource_GetDesc(tex);
	D3D12_PLACED_SUBRESOURCE_FOOTPRINT fp;
	UINT64 total = 0;
	ID3D12Device_GetCopyableFootprints(c->dev, &d, 0, 1, 0, &fp, NULL, NULL, &total);
	ID3D12Resource *rb = t_buffer(c, D3D12_HEAP_TYPE_READBACK, total);
	D3D12_TEXTURE_COPY_LOCATION dst = { .pResource = rb, .Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT,
					    .PlacedFootprint = fp };
	D3D12_TEXTURE_COPY_LOCATION src = { .pResource = tex, .Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX };
	ID3D12GraphicsCommandList6_CopyTextureRegion(c->list, &dst, 0, 0, 0, &src, NULL);
	assert_int_equal(t_run(c), S_OK);
	assert_int_equal(ID3D12Resource_Map(rb, 0, NULL, (void **)px), S_OK);
	*pitch = fp.Footprint.RowPitch;
	return rb;
}

/* A CPU oracle of D3D12's rasterization of one triangle at pixel centres:
 * edge functions on 8-bit subpixel coordinates, the top-left rule, and the
 * barycentric colour (UNORM rounding). */
static bool oracle(const float v[3][8], int w, int h, int x, int y, float rgb[3])
{
	int64_t X[3], Y[3];
	for (int i = 0; i < 3; i++) {
		X[i] = llrintf((v[i][0] * 0.5f + 0.5f) * (float)w * 256.0f);
		Y[i] = llrintf((-v[i][1] * 0.5f + 0.5f) * (float)h * 256.0f);
	}
	int64_t px = x * 256 + 128, py = y * 256 + 128;
	int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) - (Y[1] - Y[0]) * (X[2] - X[0]);
	int64_t e[3];
	for (int i = 0; i < 3; i++) {
		int a = (i + 1) % 3, b = (i + 2) % 3; /* edge a->b, weight of vertex i */
		e[i] = (X[b] - X[a]) * (py - Y[a]) - (Y[b] - Y[a]) * (px - X[a]);
		if (area < 0)
			e[i] = -e[i];
		/* top-left: a pixel on an edge belongs to it only for top and left edges */
		int64_t dx = X[b] - X[a], dy = Y[b] - Y[a];
		if (area < 0)
			dx = -dx, dy = -dy;
		bool top_left = (dy == 0 && dx > 0) || dy < 0;
		if (e[i] < 0 || (e[i] == 0 && !top_left))
			return false;
	}
	int64_t sum = e[0] + e[1] + e[2];
	for (int k = 0; k < 3; k++)
		rgb[k] = ((float)e[0] * v[0][4 + k] + (float)e[1] * v[1][4 + k] + (float)e[2] * v[2][4 + k]) / (float)sum;
	return true;
}

/* A triangle drawn by the GPU model and read back: coverage exactly the
 * oracle's, colours within 2 of 255. */
static void triangle_renders(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enum { W = 64, H = 48 };
	draw_setup s;
	setup_open(&c, &s, COLOR_VS, COLOR_PS, W, H);
	setup_state(&c, &s, W, H);
	const float black[4] = { 0, 0, 0, 0 };
	ID3D12GraphicsCommandList6_ClearRenderTargetView(c.list, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(s.rtvs),
							 black, 0, NULL);
	ID3D12GraphicsCommandList6_DrawInstanced(c.list, 3, 1, 0, 0);
	assert_int_equal(t_run(&c), S_OK);
	uint8_t *px;
	UINT pitch;
	ID3D12Resource *rb = read_target(&c, s.rt, &px, &pitch);
	unsigned covered = 0, cover_wrong = 0, colour_wrong = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			float rgb[3];
			bool in = oracle(tri, W, H, x, y, rgb);
			const uint8_t *p = px + y * pitch + x * 4;
			bool drawn = p[3] != 0;
			covered += in;
			cover_wrong += in != drawn;
			if (in && drawn)
				for (int k = 0; k < 3; k++)
					colour_wrong += abs((int)p[k] - (int)(rgb[k] * 255.0f + 0.5f)) > 2;
		}
	print_message("triangle: %u pixels covered, %u coverage and %u colour differences\n", covered, cover_wrong,
		      colour_wrong);
	assert_true(covered > 300); /* half of 32 x 24 */
	assert_int_equal(cover_wrong, 0);
	assert_int_equal(colour_wrong, 0);
#ifdef SCENE_HAVE_PNG
	/* the frame as a PNG (triangle.png in the test's folder), read back the same */
	char err[256];
	assert_int_equal(scene_png_write_rows("triangle.png", px, W, H, pitch, err, sizeof(err)), 0);
	uint8_t *back;
	uint32_t bw, bh;
	assert_int_equal(scene_png_read("triangle.png", &back, &bw, &bh, err, sizeof(err)), 0);
	assert_int_equal(bw, W);
	assert_int_equal(bh, H);
	for (int y = 0; y < H; y++)
		assert_memory_equal(back + y * W * 4, px + y * pitch, W * 4);
	free(back);
#endif
	ID3D12Resource_Unmap(rb, 0, NULL);
	ID3D12Resource_Release(rb);
	setup_close(&s);
	t_close(&c);
}

/* Depth test and straight-alpha blending on the GPU model: a near red
 * quad, then a far green one (LESS: hidden where they overlap), then a
 * half-transparent blue one with blending over it. */
static void depth_and_blend(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enum { W = 32, H = 32 };
	draw_setup s;
	setup_open(&c, &s, COLOR_VS, COLOR_PS, W, H);
	D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
	D3D12_RESOURCE_DESC zd = { .Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D, .Width = W, .Height = H,
				   .DepthOrArraySize = 1, .MipLevels = 1, .Format = DXGI_FORMAT_D32_FLOAT,
				   .SampleDesc = { 1, 0 }, .Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL };
	ID3D12Resource *z;
	assert_int_equal(ID3D12Device_CreateCommittedResource(c.dev, &hp, D3D12_HEAP_FLAG_NONE, &zd,
							      D3D12_RESOURCE_STATE_DEPTH_WRITE, NULL, &IID_ID3D12Resource,
							      (void **)&z), S_OK);
	D3D12_DESCRIPTOR_HEAP_DESC hd = { .Type = D3D12_DESCRIPTOR_HEAP_TYPE_DSV, .NumDescriptors = 1 };
	ID3D12DescriptorHeap *dsvs;
	assert_int_equal(ID3D12Device_CreateDescriptorHeap(c.dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&dsvs), S_OK);
	D3D12_CPU_DESCRIPTOR_HANDLE dsv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(dsvs);
	ID3D12Device_CreateDepthStencilView(c.dev, z, NULL, dsv);
	D3D12_GRAPHICS_PIPELINE_STATE_DESC d = base_desc(COLOR_VS, COLOR_PS);
	d.pRootSignature = s.root;
	d.DepthStencilState.DepthEnable = TRUE;
	d.DepthStencilState.DepthWriteMask = D3D12_DEPTH_WRITE_MASK_ALL;
	d.DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_LESS;
	d.DSVFormat = DXGI_FORMAT_D32_FLOAT;
	ID3D12PipelineState *depth = create(&c, &d, S_OK);
	d.DepthStencilState.DepthEnable = FALSE;
	d.DSVFormat = DXGI_FORMAT_UNKNOWN;
	D3D12_RENDER_TARGET_BLEND_DESC *b = &d.BlendState.RenderTarget[0];
	b->BlendEnable = TRUE;
	b->SrcBlend = D3D12_BLEND_SRC_ALPHA, b->DestBlend = D3D12_BLEND_INV_SRC_ALPHA, b->BlendOp = D3D12_BLEND_OP_ADD;
	b->SrcBlendAlpha = D3D12_BLEND_ONE, b->DestBlendAlpha = D3D12_BLEND_INV_SRC_ALPHA, b->BlendOpAlpha = D3D12_BLEND_OP_ADD;
	ID3D12PipelineState *blend = create(&c, &d, S_OK);
	/* three quads (6 vertices each): red left half z 0.2, green whole z 0.6, blue right half alpha 0.5 */
	float q[18][8];
	const float rect[3][4] = { { -1, -1, 0, 1 }, { -1, -1, 1, 1 }, { 0, -1, 1, 1 } }; /* x0 y0 x1 y1 */
	const float col[3][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 0.5f } }, zs[3] = { 0.2f, 0.6f, 0.1f };
	for (int k = 0; k < 3; k++) {
		const float xy[6][2] = { { rect[k][0], rect[k][1] }, { rect[k][0], rect[k][3] }, { rect[k][2], rect[k][3] },
					 { rect[k][0], rect[k][1] }, { rect[k][2], rect[k][3] }, { rect[k][2], rect[k][1] } };
		for (int i = 0; i < 6; i++) {
			float *v = q[6 * k + i];
			v[0] = xy[i][0], v[1] = xy[i][1], v[2] = zs[k], v[3] = 1;
			memcpy(v + 4, col[k], 16);
		}
	}
	ID3D12Resource *vb = t_upload(&c, q, sizeof(q));
	setup_state(&c, &s, W, H);
	D3D12_VERTEX_BUFFER_VIEW vbv = { ID3D12Resource_GetGPUVirtualAddress(vb), sizeof(q), sizeof(q[0]) };
	ID3D12GraphicsCommandList6_IASetVertexBuffers(c.list, 0, 1, &vbv);
	D3D12_CPU_DESCRIPTOR_HANDLE rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(s.rtvs);
	ID3D12GraphicsCommandList6_OMSetRenderTargets(c.list, 1, &rtv, FALSE, &dsv);
	const float black[4] = { 0, 0, 0, 1 };
	ID3D12GraphicsCommandList6_ClearRenderTargetView(c.list, rtv, black, 0, NULL);
	ID3D12GraphicsCommandList6_ClearDepthStencilView(c.list, dsv, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 0, NULL);
	ID3D12GraphicsCommandList6_SetPipelineState(c.list, depth);
	ID3D12GraphicsCommandList6_DrawInstanced(c.list, 6, 1, 0, 0);  /* red, near */
	ID3D12GraphicsCommandList6_DrawInstanced(c.list, 6, 1, 6, 0);  /* green, far: only the right half */
	ID3D12GraphicsCommandList6_SetPipelineState(c.list, blend);
	ID3D12GraphicsCommandList6_DrawInstanced(c.list, 6, 1, 12, 0); /* blue at half alpha over the right half */
	assert_int_equal(t_run(&c), S_OK);
	uint8_t *px;
	UINT pitch;
	ID3D12Resource *rb = read_target(&c, s.rt, &px, &pitch);
	const uint8_t *left = px + 16 * pitch + 4 * 4, *right = px + 16 * pitch + 28 * 4;
	print_message("left %u %u %u %u, right %u %u %u %u\n", left[0], left[1], left[2], left[3], right[0], right[1],
		      right[2], right[3]);
	assert_true(left[0] == 255 && left[1] == 0 && left[2] == 0);       /* red kept: green failed LESS */
	assert_true(right[0] == 0 && abs((int)right[1] - 128) <= 1 && abs((int)right[2] - 128) <= 1); /* green/2 + blue/2 */
	ID3D12Resource_Unmap(rb, 0, NULL);
	ID3D12Resource_Release(rb);
	ID3D12Resource_Release(vb);
	ID3D12PipelineState_Release(blend);
	ID3D12PipelineState_Release(depth);
	ID3D12DescriptorHeap_Release(dsvs);
	ID3D12Resource_Release(z);
	setup_close(&s);
	t_close(&c);
}

/* ClearState resets the list's state, not what it recorded: a draw, then
 * ClearState, then a dispatch keep a result each (the draw's slot and the
 * dispatch's), so the statistics find both. */
static void clear_state_keeps_recorded_draws(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enum { W = 64, H = 48 };
	draw_setup s;
	setup_open(&c, &s, COLOR_VS, COLOR_PS, W, H);
	setup_state(&c, &s, W, H);
	ID3D12GraphicsCommandList6_DrawInstanced(c.list, 3, 1, 0, 0);
	ID3D12GraphicsCommandList6_ClearState(c.list, NULL);
	ID3D12RootSignature *rs;
	assert_int_equal(ID3D12Device_CreateRootSignature(c.dev, 0, bin[VADD], bin_size[VADD], &IID_ID3D12RootSignature,
							  (void **)&rs), S_OK);
	D3D12_COMPUTE_PIPELINE_STATE_DESC cd = { .pRootSignature = rs, .CS = code(VADD) };
	ID3D12PipelineState *vadd;
	assert_int_equal(ID3D12Device_CreateComputePipelineState(c.dev, &cd, &IID_ID3D12PipelineState, (void **)&vadd),
			 S_OK);
	ID3D12Resource *buf = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 4096);
	D3D12_GPU_VIRTUAL_ADDRESS va = ID3D12Resource_GetGPUVirtualAddress(buf);
	ID3D12GraphicsCommandList6_SetComputeRootSignature(c.list, rs);
	ID3D12GraphicsCommandList6_SetPipelineState(c.list, vadd);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 0, va);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 1, va);
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 2, va);
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c.list, 3, 64, 0);
	ID3D12GraphicsCommandList6_Dispatch(c.list, 1, 1, 1);
	assert_int_equal(t_run(&c), S_OK);
	XS12_DISPATCH_STATISTICS st;
	assert_int_equal(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.list, 0, &st), S_OK);
	assert_true(st.WavesLaunched > 0);
	XS12_DRAW_STATISTICS ds;
	assert_int_equal(XS12GetDrawStatistics((ID3D12GraphicsCommandList *)c.list, 0, &ds), S_OK);
	ID3D12Resource_Release(buf);
	ID3D12PipelineState_Release(vadd);
	ID3D12RootSignature_Release(rs);
	setup_close(&s);
	t_close(&c);
}

/* ExecuteIndirect with DRAW and DRAW_INDEXED: a DRAW_INDIRECT /
 * DRAW_INDEX_INDIRECT per command, reading the record; the triangle drawn
 * from GPU memory covers what DrawInstanced covers. */
static void indirect_draws(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enum { W = 64, H = 48 };
	draw_setup s;
	setup_open(&c, &s, COLOR_VS, COLOR_PS, W, H);
	D3D12_INDIRECT_ARGUMENT_DESC ad = { .Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW };
	D3D12_COMMAND_SIGNATURE_DESC sd = { sizeof(D3D12_DRAW_ARGUMENTS), 1, &ad, 0 };
	ID3D12CommandSignature *sig, *sig_indexed;
	assert_int_equal(ID3D12Device_CreateCommandSignature(c.dev, &sd, NULL, &IID_ID3D12CommandSignature, (void **)&sig), S_OK);
	ad.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED;
	sd.ByteStride = sizeof(D3D12_DRAW_INDEXED_ARGUMENTS);
	assert_int_equal(ID3D12Device_CreateCommandSignature(c.dev, &sd, NULL, &IID_ID3D12CommandSignature,
							     (void **)&sig_indexed), S_OK);
	/* a draw argument with another is refused */
	D3D12_INDIRECT_ARGUMENT_DESC two[2] = { { .Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT },
						{ .Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW } };
	D3D12_COMMAND_SIGNATURE_DESC sd2 = { 32, 2, two, 0 };
	ID3D12CommandSignature *bad = NULL;
	assert_int_equal(ID3D12Device_CreateCommandSignature(c.dev, &sd2, s.root, &IID_ID3D12CommandSignature, (void **)&bad),
			 E_INVALIDARG);
	const D3D12_DRAW_ARGUMENTS da[2] = { { 3, 1, 0, 0 }, { 0, 1, 0, 0 } };
	const D3D12_DRAW_INDEXED_ARGUMENTS dia = { 3, 1, 0, 0, 0 };
	ID3D12Resource *args = t_upload(&c, da, sizeof(da)), *iargs = t_upload(&c, &dia, sizeof(dia));
	setup_state(&c, &s, W, H);
	const float black[4] = { 0, 0, 0, 0 };
	ID3D12GraphicsCommandList6_ClearRenderTargetView(c.list, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(s.rtvs),
							 black, 0, NULL);
	ID3D12GraphicsCommandList6_ExecuteIndirect(c.list, sig, 2, args, 0, NULL, 0);
	ID3D12GraphicsCommandList6_ExecuteIndirect(c.list, sig_indexed, 1, iargs, 0, NULL, 0);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	regfile rf;
	regfile_of_list(c.list, &rf);
	assert_int_equal(rf.packets[PKT3_DRAW_INDIRECT], 2);
	assert_int_equal(rf.packets[PKT3_DRAW_INDEX_INDIRECT], 1);
	assert_int_equal(rf.packets[PKT3_DRAW_INDEX_AUTO], 0);
	ID3D12CommandList *cl = (ID3D12CommandList *)c.list;
	ID3D12CommandQueue_ExecuteCommandLists(c.queue, 1, &cl);
	assert_int_equal(ID3D12CommandQueue_Signal(c.queue, c.fence, ++c.fence_value), S_OK);
	assert_int_equal(ID3D12Fence_SetEventOnCompletion(c.fence, c.fence_value, NULL), S_OK);
	assert_int_equal(ID3D12Device_GetDeviceRemovedReason(c.dev), S_OK);
	assert_int_equal(ID3D12CommandAllocator_Reset(c.alloc), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
	uint8_t *px;
	UINT pitch;
	ID3D12Resource *rb = read_target(&c, s.rt, &px, &pitch);
	unsigned wrong = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			float rgb[3];
			wrong += oracle(tri, W, H, x, y, rgb) != (px[y * pitch + x * 4 + 3] != 0);
		}
	assert_int_equal(wrong, 0);
	ID3D12Resource_Unmap(rb, 0, NULL);
	ID3D12Resource_Release(rb);
	ID3D12Resource_Release(iargs);
	ID3D12Resource_Release(args);
	ID3D12CommandSignature_Release(sig_indexed);
	ID3D12CommandSignature_Release(sig);
	setup_close(&s);
	t_close(&c);
}

int main(int argc, char **argv)
{
	if (argc < 1 + NFILES) {
		fprintf(stderr, "usage: %s color.vs color.ps spill.vs spill.ps mrt2.ps color.vs.mesa color.ps.mesa "
			"two_attr.ps vadd.hsaco many_sgprs.vs\n", argv[0]);
		return 1;
	}
	for (int i = 0; i < NFILES; i++)
		if (!(bin[i] = t_read_file(argv[1 + i], &bin_size[i])))
			return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pipelines_are_created_and_refused),
		cmocka_unit_test(draw_pm4_is_the_contract),
		cmocka_unit_test(draw_state_is_checked),
		cmocka_unit_test(late_alloc_and_scratch),
		cmocka_unit_test(triangle_renders),
		cmocka_unit_test(indirect_draws),
		cmocka_unit_test(clear_state_keeps_recorded_draws),
		cmocka_unit_test(depth_and_blend),
		cmocka_unit_test(pipeline_state_streams),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
