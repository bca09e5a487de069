/*
 * The test scene (scene.h) through D3D12 against the reference
 * rasterizer (ref_raster.h), pixel for pixel: a D3D12 program's way —
 * root signature, graphics pipelines of a VS and a PS, a render target
 * and a depth buffer, vertex and index buffers, DrawIndexedInstanced,
 * CopyTextureRegion to a READBACK buffer (docs/graphics.md section 4).
 *
 *   test_gfx_scene VS.o PS.o OUTDIR [SIZE]
 *   test_gfx_scene --reference-only OUTDIR [SIZE]   (the reference's PNGs only)
 *   test_gfx_scene --self-check OUTDIR [SIZE]       (the comparison itself: the reference
 *                                                   passes against itself, fails when altered)
 *
 * Colour (R8G8B8A8_UNORM) must be equal in every byte, except that a
 * pixel whose reference value came within REF_TIE_EPS of a rounding
 * boundary may be 1 off (their number is printed); colour in
 * R32G32B32A32_FLOAT within FLOAT_TOLERANCE; depth (D32_FLOAT) within
 * DEPTH_TOLERANCE. The coverage scene is the write-count check on the
 * GPU's own output: each of its pixels must read 64 (written once).
 * When images differ, OUTDIR gets gpu_*.png, ref_*.png and diff_*.png.
 * Exit 77 (skipped) while CreateGraphicsPipelineState is E_NOTIMPL.
 */
#include "d3d12_util.h"
#include "scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef SCENE_HAVE_PNG
/* examples/d3d12/scene/scene_png.c (libpng's simplified API), through its header */
#include "../../examples/d3d12/scene/scene.h"
#endif

/* Depth is interpolated in float by the hardware and in double here:
 * they may differ in the last bits of a value in [0, 1]. */
#define DEPTH_TOLERANCE (1.0f / (1 << 20))
/* A float target's colour: the same float-against-double difference of
 * perspective-correct interpolation and blending, in values up to 1. */
#define FLOAT_TOLERANCE 1e-5f

#define FAILF(...) do { fprintf(stderr, "test_gfx_scene: " __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)
#define OK(hr, what) do { HRESULT hr_ = (hr); if (FAILED(hr_)) FAILF("%s failed: 0x%08x", what, (unsigned)hr_); } while (0)

static void write_png(const char *dir, const char *name, const char *kind, const uint8_t *rgba, uint32_t w,
		      uint32_t h)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s_%s.png", dir, kind, name);
#ifdef SCENE_HAVE_PNG
	char err[256];
	if (scene_png_write(path, rgba, w, h, err, sizeof(err)))
		fprintf(stderr, "test_gfx_scene: %s\n", err);
	else
		fprintf(stderr, "test_gfx_scene: wrote %s\n", path);
#else
	(void)rgba;
	(void)w;
	(void)h;
	fprintf(stderr, "test_gfx_scene: no libpng: %s not written\n", path);
#endif
}

static D3D12_SHADER_BYTECODE shader(const char *path, void **keep)
{
	size_t n = 0;
	FILE *f = fopen(path, "rb");   /* t_read_file aborts on a missing file: say which one instead */
	if (!f)
		FAILF("%s: cannot open the shader", path);
	fclose(f);
	*keep = t_read_file(path, &n);
	if (!*keep)
		FAILF("%s: cannot read", path);
	D3D12_SHADER_BYTECODE b = { *keep, n };
	return b;
}

static D3D12_BLEND_DESC blend_desc(ref_blend b)
{
	D3D12_BLEND_DESC d;
	memset(&d, 0, sizeof(d));
	D3D12_RENDER_TARGET_BLEND_DESC *rt = &d.RenderTarget[0];
	rt->SrcBlend = D3D12_BLEND_ONE;
	rt->DestBlend = D3D12_BLEND_ZERO;
	rt->BlendOp = D3D12_BLEND_OP_ADD;
	rt->SrcBlendAlpha = D3D12_BLEND_ONE;
	rt->DestBlendAlpha = D3D12_BLEND_ZERO;
	rt->BlendOpAlpha = D3D12_BLEND_OP_ADD;
	rt->LogicOp = D3D12_LOGIC_OP_NOOP;
	rt->RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
	if (b == REF_BLEND_STRAIGHT_ALPHA) {
		rt->BlendEnable = TRUE;
		rt->SrcBlend = D3D12_BLEND_SRC_ALPHA;
		rt->DestBlend = D3D12_BLEND_INV_SRC_ALPHA;
		rt->DestBlendAlpha = D3D12_BLEND_INV_SRC_ALPHA;
	}
	return d;
}

/* The pipeline of a draw's state; NULL (and *hr) when it was refused. */
static ID3D12PipelineState *pipeline(t_ctx *c, ID3D12RootSignature *rs, D3D12_SHADER_BYTECODE vs,
				     D3D12_SHADER_BYTECODE ps, const ref_state *s, DXGI_FORMAT rt_format, HRESULT *hr)
{
	static const D3D12_INPUT_ELEMENT_DESC elems[2] = {
		{ "POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
		{ "COLOR", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 16, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
	};
	D3D12_GRAPHICS_PIPELINE_STATE_DESC d;
	memset(&d, 0, sizeof(d));
	d.pRootSignature = rs;
	d.VS = vs;
	d.PS = ps;
	d.BlendState = blend_desc(s->blend);
	d.SampleMask = 0xffffffffu;
	d.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
	d.RasterizerState.CullMode = (D3D12_CULL_MODE)s->cull;          /* same values (ref_raster.h) */
	d.RasterizerState.FrontCounterClockwise = s->front_ccw;
	d.RasterizerState.DepthClipEnable = TRUE;
	d.DepthStencilState.DepthEnable = s->depth_enable;
	d.DepthStencilState.DepthWriteMask = s->depth_write ? D3D12_DEPTH_WRITE_MASK_ALL : D3D12_DEPTH_WRITE_MASK_ZERO;
	d.DepthStencilState.DepthFunc = (D3D12_COMPARISON_FUNC)s->depth_func;
	d.InputLayout.pInputElementDescs = elems;
	d.InputLayout.NumElements = 2;
	d.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
	d.NumRenderTargets = 1;
	d.RTVFormats[0] = rt_format;
	d.DSVFormat = DXGI_FORMAT_D32_FLOAT;
	d.SampleDesc.Count = 1;
	ID3D12PipelineState *p = NULL;
	*hr = ID3D12Device_CreateGraphicsPipelineState(c->dev, &d, &IID_ID3D12PipelineState, (void **)&p);
	return SUCCEEDED(*hr) ? p : NULL;
}

static ID3D12Resource *texture(t_ctx *c, DXGI_FORMAT f, uint32_t w, uint32_t h, D3D12_RESOURCE_FLAGS flags,
			       D3D12_RESOURCE_STATES st)
{
	D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
	D3D12_RESOURCE_DESC rd = {
		.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D, .Width = w, .Height = h, .DepthOrArraySize = 1,
		.MipLevels = 1, .Format = f, .SampleDesc = { 1, 0 }, .Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN,
		.Flags = flags,
	};
	ID3D12Resource *r = NULL;
	OK(ID3D12Device_CreateCommittedResource(c->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd, st, NULL, &IID_ID3D12Resource,
						(void **)&r), "CreateCommittedResource (texture)");
	return r;
}

static void barrier(t_ctx *c, ID3D12Resource *r, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after)
{
	D3D12_RESOURCE_BARRIER b;
	memset(&b, 0, sizeof(b));
	b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
	b.Transition.pResource = r;
	b.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
	b.Transition.StateBefore = before;
	b.Transition.StateAfter = after;
	ID3D12GraphicsCommandList6_ResourceBarrier(c->list, 1, &b);
}

/* A texture's texels (bpp bytes each) into a READBACK buffer (rows 256-byte aligned) and out. */
static void read_texture(t_ctx *c, ID3D12Resource *tex, DXGI_FORMAT f, uint32_t bpp, uint32_t w, uint32_t h,
			 void *out)
{
	uint32_t pitch = (w * bpp + 255) & ~255u;
	ID3D12Resource *rb = t_buffer(c, D3D12_HEAP_TYPE_READBACK, (UINT64)pitch * h);
	D3D12_TEXTURE_COPY_LOCATION dst = { .pResource = rb, .Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT };
	dst.PlacedFootprint.Footprint.Format = f;
	dst.PlacedFootprint.Footprint.Width = w;
	dst.PlacedFootprint.Footprint.Height = h;
	dst.PlacedFootprint.Footprint.Depth = 1;
	dst.PlacedFootprint.Footprint.RowPitch = pitch;
	D3D12_TEXTURE_COPY_LOCATION src = { .pResource = tex, .Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX };
	src.SubresourceIndex = 0;
	ID3D12GraphicsCommandList6_CopyTextureRegion(c->list, &dst, 0, 0, 0, &src, NULL);
	OK(t_run(c), "the read-back copy");
	void *p;
	D3D12_RANGE all = { 0, (SIZE_T)pitch * h };
	OK(ID3D12Resource_Map(rb, 0, &all, &p), "Map");
	for (uint32_t y = 0; y < h; y++)
		memcpy((uint8_t *)out + (size_t)y * w * bpp, (const uint8_t *)p + (size_t)y * pitch, (size_t)w * bpp);
	ID3D12Resource_Unmap(rb, 0, NULL);
	ID3D12Resource_Release(rb);
}

/* Draws the scene through D3D12; returns 77 when the pipe is not there. */
static int render_gpu(t_ctx *c, const gfx_scene *sc, D3D12_SHADER_BYTECODE vs, D3D12_SHADER_BYTECODE ps,
		      ref_format format, void *rgba, float *depth)
{
	D3D12_ROOT_SIGNATURE_DESC rsd = { .Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT };
	ID3DBlob *blob = NULL;
	OK(D3D12SerializeRootSignature(&rsd, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, NULL), "D3D12SerializeRootSignature");
	ID3D12RootSignature *rs = NULL;
	OK(ID3D12Device_CreateRootSignature(c->dev, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
					    &IID_ID3D12RootSignature, (void **)&rs), "CreateRootSignature");
	ID3D10Blob_Release(blob);
	DXGI_FORMAT rtf = format == REF_FMT_R32G32B32A32_FLOAT ? DXGI_FORMAT_R32G32B32A32_FLOAT
							     : DXGI_FORMAT_R8G8B8A8_UNORM;
	ID3D12PipelineState *pso[GFX_SCENE_MAX_DRAWS] = { NULL };
	for (unsigned k = 0; k < sc->num_draws; k++) {
		HRESULT hr;
		pso[k] = pipeline(c, rs, vs, ps, &sc->draws[k].state, rtf, &hr);
		if (hr == E_NOTIMPL) {
			printf("CreateGraphicsPipelineState is not implemented (E_NOTIMPL): skipped\n");
			for (unsigned i = 0; i < k; i++)
				ID3D12PipelineState_Release(pso[i]);
			ID3D12RootSignature_Release(rs);
			return 77;
		}
		OK(hr, "CreateGraphicsPipelineState");
	}
	uint32_t w = sc->width, h = sc->height;
	ID3D12Resource *rt = texture(c, rtf, w, h, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
				     D3D12_RESOURCE_STATE_RENDER_TARGET);
	ID3D12Resource *ds = texture(c, DXGI_FORMAT_D32_FLOAT, w, h, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL,
				     D3D12_RESOURCE_STATE_DEPTH_WRITE);
	D3D12_DESCRIPTOR_HEAP_DESC hd = { .Type = D3D12_DESCRIPTOR_HEAP_TYPE_RTV, .NumDescriptors = 1 };
	ID3D12DescriptorHeap *rtv_heap = NULL, *dsv_heap = NULL;
	OK(ID3D12Device_CreateDescriptorHeap(c->dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&rtv_heap), "RTV heap");
	hd.Type = D3D12_DESCRIPTOR_HEAP_TYPE_DSV;
	OK(ID3D12Device_CreateDescriptorHeap(c->dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&dsv_heap), "DSV heap");
	D3D12_CPU_DESCRIPTOR_HANDLE rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(rtv_heap);
	D3D12_CPU_DESCRIPTOR_HANDLE dsv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(dsv_heap);
	ID3D12Device_CreateRenderTargetView(c->dev, rt, NULL, rtv);
	ID3D12Device_CreateDepthStencilView(c->dev, ds, NULL, dsv);

	UINT vb_bytes = sc->num_vertices * (UINT)sizeof(gfx_vertex), ib_bytes = sc->num_indices * 4u;
	ID3D12Resource *vb = t_upload(c, sc->vertices, vb_bytes);
	ID3D12Resource *ib = t_upload(c, sc->indices, ib_bytes);
	D3D12_VERTEX_BUFFER_VIEW vbv = { ID3D12Resource_GetGPUVirtualAddress(vb), vb_bytes, (UINT)sizeof(gfx_vertex) };
	D3D12_INDEX_BUFFER_VIEW ibv = { ID3D12Resource_GetGPUVirtualAddress(ib), ib_bytes, DXGI_FORMAT_R32_UINT };

	ID3D12GraphicsCommandList6 *l = c->list;
	ID3D12GraphicsCommandList6_OMSetRenderTargets(l, 1, &rtv, FALSE, &dsv);
	ID3D12GraphicsCommandList6_ClearRenderTargetView(l, rtv, sc->clear, 0, NULL);
	ID3D12GraphicsCommandList6_ClearDepthStencilView(l, dsv, D3D12_CLEAR_FLAG_DEPTH, sc->clear_depth, 0, 0, NULL);
	ID3D12GraphicsCommandList6_SetGraphicsRootSignature(l, rs);
	ID3D12GraphicsCommandList6_IASetPrimitiveTopology(l, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
	ID3D12GraphicsCommandList6_IASetVertexBuffers(l, 0, 1, &vbv);
	ID3D12GraphicsCommandList6_IASetIndexBuffer(l, &ibv);
	for (unsigned k = 0; k < sc->num_draws; k++) {
		const gfx_draw *d = &sc->draws[k];
		const ref_state *s = &d->state;
		D3D12_VIEWPORT vp = { s->vp_x, s->vp_y, s->vp_width, s->vp_height, s->vp_min_depth, s->vp_max_depth };
		D3D12_RECT sr = { s->sc_left, s->sc_top, s->sc_right, s->sc_bottom };
		ID3D12GraphicsCommandList6_RSSetViewports(l, 1, &vp);
		ID3D12GraphicsCommandList6_RSSetScissorRects(l, 1, &sr);
		ID3D12GraphicsCommandList6_SetPipelineState(l, pso[k]);
		ID3D12GraphicsCommandList6_DrawIndexedInstanced(l, d->index_count, 1, d->first_index, 0, 0);
	}
	barrier(c, rt, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE);
	barrier(c, ds, D3D12_RESOURCE_STATE_DEPTH_WRITE, D3D12_RESOURCE_STATE_COPY_SOURCE);
	OK(t_run(c), "the scene's command list");
	read_texture(c, rt, rtf, format == REF_FMT_R32G32B32A32_FLOAT ? 16 : 4, w, h, rgba);
	read_texture(c, ds, DXGI_FORMAT_D32_FLOAT, 4, w, h, depth);

	ID3D12Resource_Release(vb);
	ID3D12Resource_Release(ib);
	ID3D12Resource_Release(rt);
	ID3D12Resource_Release(ds);
	ID3D12DescriptorHeap_Release(rtv_heap);
	ID3D12DescriptorHeap_Release(dsv_heap);
	for (unsigned k = 0; k < sc->num_draws; k++)
		ID3D12PipelineState_Release(pso[k]);
	ID3D12RootSignature_Release(rs);
	return 0;
}

/* A float image as RGBA8, for the PNG files. */
static void to_rgba8(uint8_t *out, const float *in, size_t n)
{
	for (size_t i = 0; i < 4 * n; i++)
		out[i] = ref_unorm8(in[i]);
}

/* Compares one scene; returns the number of failed checks. */
static int compare(const char *outdir, const char *name, const gfx_scene *sc, const ref_target *ref,
		   const void *image, const float *depth)
{
	uint32_t w = sc->width, h = sc->height;
	size_t n = (size_t)w * h;
	bool is_float = ref->format == REF_FMT_R32G32B32A32_FLOAT;
	const uint8_t *rgba = image;
	const float *rgbaf = image;
	size_t colour_bad = 0, depth_bad = 0, count_bad = 0, ties = 0;
	double worst = 0;
	float worst_depth = 0;
	uint8_t *diff = calloc(n, 4), *gpu8 = calloc(n, 4), *ref8 = calloc(n, 4);
	if (!diff || !gpu8 || !ref8)
		FAILF("out of memory");
	if (is_float) {
		to_rgba8(gpu8, rgbaf, n);
		to_rgba8(ref8, ref->rgba32f, n);
	} else {
		memcpy(gpu8, rgba, 4 * n);
		memcpy(ref8, ref->rgba8, 4 * n);
	}
	for (size_t i = 0; i < n; i++) {
		double d = 0;
		for (int k = 0; k < 4; k++) {
			double e = is_float ? fabs((double)rgbaf[4 * i + k] - ref->rgba32f[4 * i + k])
					    : abs((int)rgba[4 * i + k] - (int)ref->rgba8[4 * i + k]);
			d = e > d || e != e ? e : d;
		}
		bool colour_ok = is_float ? d <= FLOAT_TOLERANCE : d == 0 || (ref->tie[i] && d <= 1);
		if (!is_float && ref->tie[i] && d != 0)
			ties++;
		if (!colour_ok) {
			if (!colour_bad++)
				fprintf(stderr, "%s: first colour difference at (%zu, %zu), largest channel difference %g\n",
					name, i % w, i / w, d);
			worst = d > worst ? d : worst;
		}
		float dz = fabsf(depth[i] - ref->depth[i]);
		if (!(dz <= DEPTH_TOLERANCE)) {
			if (!depth_bad++)
				fprintf(stderr, "%s: first depth difference at (%zu, %zu): GPU %.9g, reference %.9g\n", name,
					i % w, i / w, depth[i], ref->depth[i]);
			worst_depth = dz > worst_depth || dz != dz ? dz : worst_depth;
		}
		/* the write count as the GPU image shows it: once is 64 in every channel */
		if (sc->kind == GFX_SCENE_COVERAGE && !is_float &&
		    (rgba[4 * i] != 64 || rgba[4 * i + 1] != 64 || rgba[4 * i + 2] != 64 || rgba[4 * i + 3] != 64)) {
			if (!count_bad++)
				fprintf(stderr, "%s: pixel (%zu, %zu) reads %u, not 64: written %s\n", name, i % w, i / w,
					rgba[4 * i], rgba[4 * i] == 0 ? "never" : "more than once");
		}
		/* difference image: red where colour differs (brighter = more), blue where depth does */
		double lsb = is_float ? d * 255.0 : d;
		diff[4 * i] = colour_ok ? 0 : (uint8_t)(lsb * 4 > 191 || lsb != lsb ? 255 : 64 + lsb * 4);
		diff[4 * i + 2] = dz <= DEPTH_TOLERANCE ? 0 : 255;
		diff[4 * i + 3] = 255;
	}
	printf("%s: %ux%u %s, %zu pixels differ in colour (worst %g; tolerance %s), %zu in depth (worst %g, "
	       "tolerance %g)\n", name, w, h, is_float ? "R32G32B32A32_FLOAT" : "R8G8B8A8_UNORM", colour_bad, worst,
	       is_float ? "1e-5" : "0", depth_bad, (double)worst_depth, (double)DEPTH_TOLERANCE);
	if (!is_float)
		printf("%s: %zu pixels 1 off where the reference value lies within %g of a rounding boundary\n", name,
		       ties, REF_TIE_EPS);
	if (sc->kind == GFX_SCENE_COVERAGE)
		printf("%s: %zu pixels not written exactly once\n", name, count_bad);
	int bad = (colour_bad != 0) + (depth_bad != 0) + (count_bad != 0);
	if (bad) {
		write_png(outdir, name, "gpu", gpu8, w, h);
		write_png(outdir, name, "ref", ref8, w, h);
		write_png(outdir, name, "diff", diff, w, h);
	}
	free(diff);
	free(gpu8);
	free(ref8);
	return bad;
}

/* The reference's own count check: the coverage grid writes each pixel
 * once (a failure here is the reference's or the scene's, not the GPU's). */
static int check_reference(const char *name, const gfx_scene *sc, const ref_target *ref)
{
	if (sc->kind != GFX_SCENE_COVERAGE)
		return 0;
	for (size_t i = 0; i < (size_t)sc->width * sc->height; i++)
		if (ref->count[i] != 1) {
			fprintf(stderr, "%s: the reference wrote pixel (%zu, %zu) %u times\n", name, i % sc->width,
				i / sc->width, ref->count[i]);
			return 1;
		}
	return 0;
}

/* The comparison on known answers (it cannot meet the GPU before the pipe
 * lands): the reference's own images pass; one colour byte off, one depth
 * off, or a coverage pixel written twice (112) each fail. */
static int self_check(const char *outdir, const gfx_scene *sc, const ref_target *ref, const char *name)
{
	size_t n = (size_t)sc->width * sc->height;
	size_t bpp = ref->rgba32f ? 16 : 4;
	void *img = malloc(n * bpp);
	float *depth = malloc(n * sizeof(float));
	if (!img || !depth)
		FAILF("out of memory");
	char label[64];
	int bad = 0;
	memcpy(img, ref->rgba32f ? (const void *)ref->rgba32f : (const void *)ref->rgba8, n * bpp);
	memcpy(depth, ref->depth, n * sizeof(float));
	snprintf(label, sizeof(label), "selfcheck_%s_same", name);
	if (compare(outdir, label, sc, ref, img, depth) != 0) {
		fprintf(stderr, "%s: the reference differs from itself\n", name);
		bad++;
	}
	/* a pixel in the middle, where the scenes draw */
	size_t i = n / 2 + sc->width / 2;
	if (ref->rgba32f)
		((float *)img)[4 * i] += 1e-3f;
	else
		((uint8_t *)img)[4 * i + 1] ^= 2;
	snprintf(label, sizeof(label), "selfcheck_%s_colour", name);
	if (compare(outdir, label, sc, ref, img, depth) == 0) {
		fprintf(stderr, "%s: an altered colour passed\n", name);
		bad++;
	}
	memcpy(img, ref->rgba32f ? (const void *)ref->rgba32f : (const void *)ref->rgba8, n * bpp);
	depth[i] += 1e-4f;
	snprintf(label, sizeof(label), "selfcheck_%s_depth", name);
	if (compare(outdir, label, sc, ref, img, depth) == 0) {
		fprintf(stderr, "%s: an altered depth passed\n", name);
		bad++;
	}
	depth[i] = ref->depth[i];
	if (sc->kind == GFX_SCENE_COVERAGE && !ref->rgba32f) {
		/* 0.25 + 0.75 * 64/255 = 0.438 -> 112: what a second write leaves */
		memset((uint8_t *)img + 4 * i, 112, 4);
		snprintf(label, sizeof(label), "selfcheck_%s_twice", name);
		if (compare(outdir, label, sc, ref, img, depth) == 0) {
			fprintf(stderr, "%s: a pixel written twice passed\n", name);
			bad++;
		}
	}
	free(img);
	free(depth);
	return bad;
}

int main(int argc, char **argv)
{
	bool self = argc >= 3 && !strcmp(argv[1], "--self-check");
	bool ref_only = self || (argc >= 3 && !strcmp(argv[1], "--reference-only"));
	if (!ref_only && argc < 4) {
		fprintf(stderr, "usage: %s VS.o PS.o OUTDIR [SIZE] | --reference-only OUTDIR [SIZE] | --self-check OUTDIR "
			"[SIZE]\n", argv[0]);
		return 2;
	}
	const char *outdir = ref_only ? argv[2] : argv[3];
	const char *size_arg = ref_only ? (argc > 3 ? argv[3] : NULL) : (argc > 4 ? argv[4] : NULL);
	uint32_t size = size_arg ? (uint32_t)strtoul(size_arg, NULL, 0) : 128;
	mkdir(outdir, 0777);   /* the PNGs' folder; an existing one is fine */
	static const struct { const char *name; gfx_scene_kind kind; ref_format format; } runs[3] = {
		{ "scene", GFX_SCENE_MAIN, REF_FMT_R8G8B8A8_UNORM },
		{ "coverage", GFX_SCENE_COVERAGE, REF_FMT_R8G8B8A8_UNORM },
		{ "scene_float", GFX_SCENE_MAIN, REF_FMT_R32G32B32A32_FLOAT },
	};
	char err[256];
	int bad = 0;
	t_ctx c;
	memset(&c, 0, sizeof(c));
	void *vs_code = NULL, *ps_code = NULL;
	D3D12_SHADER_BYTECODE vs = { NULL, 0 }, ps = { NULL, 0 };
	if (!ref_only) {
		vs = shader(argv[1], &vs_code);
		ps = shader(argv[2], &ps_code);
		t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	}
	for (int k = 0; k < 3; k++) {
		const char *name = runs[k].name;
		gfx_scene sc;
		if (gfx_scene_build(&sc, runs[k].kind, size, err, sizeof(err)))
			FAILF("%s", err);
		ref_target ref;
		ref_stats st;
		memset(&st, 0, sizeof(st));
		if (gfx_scene_render(&sc, runs[k].format, &ref, &st, err, sizeof(err)))
			FAILF("%s", err);
		printf("%s: %u vertices, %llu triangles: %llu clipped, %llu culled, %llu fragments, %llu written\n",
		       name, sc.num_vertices, (unsigned long long)st.triangles, (unsigned long long)st.clipped,
		       (unsigned long long)st.culled, (unsigned long long)st.fragments, (unsigned long long)st.written);
		bad += check_reference(name, &sc, &ref);
		size_t n = (size_t)sc.width * sc.height;
		if (self) {
			bad += self_check(outdir, &sc, &ref, name);
		} else if (ref_only) {
			uint8_t *ref8 = malloc(4 * n);
			if (!ref8)
				FAILF("out of memory");
			if (ref.rgba32f)
				to_rgba8(ref8, ref.rgba32f, n);
			else
				memcpy(ref8, ref.rgba8, 4 * n);
			write_png(outdir, name, "ref", ref8, sc.width, sc.height);
			free(ref8);
		} else {
			void *rgba = calloc(n, 16);
			float *depth = calloc(n, sizeof(float));
			if (!rgba || !depth)
				FAILF("out of memory");
			int rc = render_gpu(&c, &sc, vs, ps, runs[k].format, rgba, depth);
			if (rc == 77) {
				free(rgba);
				free(depth);
				ref_target_free(&ref);
				gfx_scene_free(&sc);
				t_close(&c);
				free(vs_code);
				free(ps_code);
				return 77;
			}
			bad += compare(outdir, name, &sc, &ref, rgba, depth);
			free(rgba);
			free(depth);
		}
		ref_target_free(&ref);
		gfx_scene_free(&sc);
	}
	if (!ref_only)
		t_close(&c);
	free(vs_code);
	free(ps_code);
	printf("%s\n", bad ? "FAILED" : "ok");
	return bad ? 1 : 0;
}
