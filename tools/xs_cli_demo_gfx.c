/* xs12 demo, the graphics part (docs/graphics.md), told through D3D12 as a
 * title calls it, with what the GPU model measured (XS12GetDrawStatistics):
 *
 *   4. a draw through the graphics pipe (VS waves, rasterizer, depth, PS
 *      waves), written as a PNG next to the kernels' directory;
 *   5. the S1.12 recipe: a graphics ring of 8 waves bounds the pixel-shader
 *      waves that spill, against larger rings;
 *   6. a draw and an async-compute dispatch, both with scratch: rings of
 *      their own overlap (S1.9); the driver's one allocation is refused by
 *      the debug layer on the async queue, and without it the two share
 *      scratch memory (S1.8, S1.10).
 *
 * Pixels are checked against the host (the shaders are simple enough). */
#include "xs_cli_demo_dx.h"

#ifdef XS_HAVE_PNG
#include <png.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W = 256, H = 256 };

/* Where the demo's files go: the build directory, the kernels' parent. */
static void out_path(const char *kdir, const char *name, char *buf, size_t n)
{
	size_t len = strlen(kdir);
	while (len > 1 && kdir[len - 1] == '/')
		len--;
	if (len >= 8 && !strncmp(kdir + len - 8, "/kernels", 8))
		snprintf(buf, n, "%.*s/%s", (int)(len - 8), kdir, name);
	else
		snprintf(buf, n, "%.*s/../%s", (int)len, kdir, name);
}

typedef struct vtx {
	float pos[4], color[4];
} vtx;

typedef struct gfx_pipe {
	ID3D12PipelineState *pso;
	ID3D12RootSignature *rs;
	UINT scratch_per_wave;    /* GetInformationX x 1024 (S1.11) */
} gfx_pipe;

/* A VS/PS pipeline of kernels/gfx objects with one root constant (the
 * spilling PS's table base), RGBA8 target, optional D32 depth (LESS). */
static bool gfx_pipeline(dctx *c, const char *kdir, const char *vs_file, const char *ps_file, bool depth,
			 gfx_pipe *p)
{
	memset(p, 0, sizeof(*p));
	char path[2][1024];
	uint8_t *code[2] = { NULL, NULL };
	size_t n[2];
	xs_err e;
	snprintf(path[0], sizeof(path[0]), "%s/gfx/%s", kdir, vs_file);
	snprintf(path[1], sizeof(path[1]), "%s/gfx/%s", kdir, ps_file);
	for (int i = 0; i < 2; i++)
		if (xs_read_file(path[i], 16u << 20, &code[i], &n[i], &e)) {
			fprintf(stderr, "xs12 demo: %s\n", e.msg);
			free(code[0]);
			return false;
		}
	D3D12_ROOT_PARAMETER rp = { .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS,
				    .Constants = { .Num32BitValues = 1 }, .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL };
	D3D12_ROOT_SIGNATURE_DESC rsd = { .NumParameters = 1, .pParameters = &rp };
	ID3DBlob *blob = NULL;
	bool ok = SUCCEEDED(D3D12SerializeRootSignature(&rsd, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, NULL)) &&
		  SUCCEEDED(ID3D12Device_CreateRootSignature(c->dev, 0, ID3DBlob_GetBufferPointer(blob),
							     ID3DBlob_GetBufferSize(blob), &IID_ID3D12RootSignature,
							     (void **)&p->rs));
	if (blob)
		ID3DBlob_Release(blob);
	static const D3D12_INPUT_ELEMENT_DESC layout[2] = {
		{ "POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
		{ "COLOR", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 16, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
	};
	D3D12_GRAPHICS_PIPELINE_STATE_DESC d;
	memset(&d, 0, sizeof(d));
	d.pRootSignature = p->rs;
	d.VS = (D3D12_SHADER_BYTECODE){ code[0], n[0] };
	d.PS = (D3D12_SHADER_BYTECODE){ code[1], n[1] };
	d.BlendState.RenderTarget[0].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
	d.SampleMask = UINT32_MAX;
	d.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
	d.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
	d.RasterizerState.DepthClipEnable = TRUE;
	d.DepthStencilState.DepthEnable = depth;
	d.DepthStencilState.DepthWriteMask = depth ? D3D12_DEPTH_WRITE_MASK_ALL : D3D12_DEPTH_WRITE_MASK_ZERO;
	d.DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_LESS;
	d.DSVFormat = depth ? DXGI_FORMAT_D32_FLOAT : DXGI_FORMAT_UNKNOWN;
	d.InputLayout = (D3D12_INPUT_LAYOUT_DESC){ layout, 2 };
	d.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
	d.NumRenderTargets = 1;
	d.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
	d.SampleDesc.Count = 1;
	ok = ok && SUCCEEDED(ID3D12Device_CreateGraphicsPipelineState(c->dev, &d, &IID_ID3D12PipelineState,
								      (void **)&p->pso));
	if (ok && SUCCEEDED(ID3D12PipelineState_GetInformationX(
			  p->pso, D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW, 0,
			  &blob))) {
		p->scratch_per_wave = *(const UINT *)ID3DBlob_GetBufferPointer(blob) * 1024;
		ID3DBlob_Release(blob);
	}
	if (!ok)
		fprintf(stderr, "xs12 demo: no graphics pipeline of %s and %s\n", path[0], path[1]);
	free(code[0]);
	free(code[1]);
	return ok;
}

static void gfx_pipe_free(gfx_pipe *p)
{
	if (p->pso) ID3D12PipelineState_Release(p->pso);
	if (p->rs) ID3D12RootSignature_Release(p->rs);
}

/* A render target (RGBA8) and, when depth, a D32 buffer, with their views. */
typedef struct target {
	ID3D12Resource *rt, *ds, *readback;
	ID3D12DescriptorHeap *rtvs, *dsvs;
	D3D12_CPU_DESCRIPTOR_HANDLE rtv, dsv;
	D3D12_PLACED_SUBRESOURCE_FOOTPRINT fp;
} target;

static bool target_make(dctx *c, bool depth, target *t)
{
	memset(t, 0, sizeof(*t));
	D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
	D3D12_RESOURCE_DESC td = { .Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D, .Width = W, .Height = H,
				   .DepthOrArraySize = 1, .MipLevels = 1, .Format = DXGI_FORMAT_R8G8B8A8_UNORM,
				   .SampleDesc = { 1, 0 }, .Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET };
	D3D12_DESCRIPTOR_HEAP_DESC hd = { .Type = D3D12_DESCRIPTOR_HEAP_TYPE_RTV, .NumDescriptors = 1 };
	if (FAILED(ID3D12Device_CreateCommittedResource(c->dev, &hp, D3D12_HEAP_FLAG_NONE, &td,
							D3D12_RESOURCE_STATE_RENDER_TARGET, NULL, &IID_ID3D12Resource,
							(void **)&t->rt)) ||
	    FAILED(ID3D12Device_CreateDescriptorHeap(c->dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&t->rtvs)))
		return false;
	t->rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(t->rtvs);
	ID3D12Device_CreateRenderTargetView(c->dev, t->rt, NULL, t->rtv);
	if (depth) {
		td.Format = DXGI_FORMAT_D32_FLOAT;
		td.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
		hd.Type = D3D12_DESCRIPTOR_HEAP_TYPE_DSV;
		if (FAILED(ID3D12Device_CreateCommittedResource(c->dev, &hp, D3D12_HEAP_FLAG_NONE, &td,
								D3D12_RESOURCE_STATE_DEPTH_WRITE, NULL, &IID_ID3D12Resource,
								(void **)&t->ds)) ||
		    FAILED(ID3D12Device_CreateDescriptorHeap(c->dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&t->dsvs)))
			return false;
		t->dsv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(t->dsvs);
		ID3D12Device_CreateDepthStencilView(c->dev, t->ds, NULL, t->dsv);
	}
	D3D12_RESOURCE_DESC rd = ID3D12Resource_GetDesc(t->rt);
	UINT64 total = 0;
	ID3D12Device_GetCopyableFootprints(c->dev, &rd, 0, 1, 0, &t->fp, NULL, NULL, &total);
	t->readback = buffer(c, D3D12_HEAP_TYPE_READBACK, total, NULL);
	return t->readback != NULL;
}

static void target_free(target *t)
{
	rel(t->rt);
	rel(t->ds);
	rel(t->readback);
	if (t->rtvs) ID3D12DescriptorHeap_Release(t->rtvs);
	if (t->dsvs) ID3D12DescriptorHeap_Release(t->dsvs);
}

/* Records a draw of n vertices (a triangle list) into the target, cleared first. */
static void record_draw(dctx *c, const gfx_pipe *p, const target *t, ID3D12Resource *vb, UINT n, float root0)
{
	ID3D12GraphicsCommandList6 *l = c->l;
	ID3D12GraphicsCommandList6_SetPipelineState(l, p->pso);
	ID3D12GraphicsCommandList6_SetGraphicsRootSignature(l, p->rs);
	UINT bits;
	memcpy(&bits, &root0, 4);
	ID3D12GraphicsCommandList6_SetGraphicsRoot32BitConstant(l, 0, bits, 0);
	ID3D12GraphicsCommandList6_IASetPrimitiveTopology(l, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
	D3D12_VERTEX_BUFFER_VIEW vbv = { ID3D12Resource_GetGPUVirtualAddress(vb), n * (UINT)sizeof(vtx), sizeof(vtx) };
	ID3D12GraphicsCommandList6_IASetVertexBuffers(l, 0, 1, &vbv);
	D3D12_VIEWPORT vp = { 0, 0, W, H, 0, 1 };
	D3D12_RECT sc = { 0, 0, W, H };
	ID3D12GraphicsCommandList6_RSSetViewports(l, 1, &vp);
	ID3D12GraphicsCommandList6_RSSetScissorRects(l, 1, &sc);
	ID3D12GraphicsCommandList6_OMSetRenderTargets(l, 1, &t->rtv, FALSE, t->ds ? &t->dsv : NULL);
	const float clear[4] = { 0.05f, 0.05f, 0.1f, 1.0f };
	ID3D12GraphicsCommandList6_ClearRenderTargetView(l, t->rtv, clear, 0, NULL);
	if (t->ds)
		ID3D12GraphicsCommandList6_ClearDepthStencilView(l, t->dsv, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 0, NULL);
	ID3D12GraphicsCommandList6_DrawInstanced(l, n, 1, 0, 0);
}

/* Copies the target to its readback buffer (at the end of the list). */
static void record_readback(dctx *c, const target *t)
{
	D3D12_RESOURCE_BARRIER b = { .Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION,
				     .Transition = { t->rt, 0, D3D12_RESOURCE_STATE_RENDER_TARGET,
						     D3D12_RESOURCE_STATE_COPY_SOURCE } };
	ID3D12GraphicsCommandList6_ResourceBarrier(c->l, 1, &b);
	D3D12_TEXTURE_COPY_LOCATION dst = { .pResource = t->readback, .Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT,
					    .PlacedFootprint = t->fp };
	D3D12_TEXTURE_COPY_LOCATION src = { .pResource = t->rt, .Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX };
	ID3D12GraphicsCommandList6_CopyTextureRegion(c->l, &dst, 0, 0, 0, &src, NULL);
}

/* The pixels, tightly packed (W x H x 4 bytes). */
static uint8_t *target_pixels(const target *t)
{
	uint8_t *px = malloc((size_t)W * H * 4);
	const uint8_t *m;
	if (!px || FAILED(ID3D12Resource_Map(t->readback, 0, NULL, (void **)&m))) {
		free(px);
		return NULL;
	}
	for (int y = 0; y < H; y++)
		memcpy(px + (size_t)y * W * 4, m + (size_t)y * t->fp.Footprint.RowPitch, (size_t)W * 4);
	ID3D12Resource_Unmap(t->readback, 0, NULL);
	return px;
}

static bool write_png(const char *path, const uint8_t *px)
{
#ifndef XS_HAVE_PNG
	(void)path;
	(void)px;
	return false;
#else
	png_image img;
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	img.width = W;
	img.height = H;
	img.format = PNG_FORMAT_RGBA;
	/* replaced whole or not at all, as every output file (xs_outfile.h) */
	xs_outfile o;
	xs_outfile_begin(&o, path);
	return !xs_outfile_end(&o, png_image_write_to_file(&img, o.tmp, 0, px, W * 4, NULL) != 0);
#endif
}

static uint8_t unorm8(float v)
{
	return (uint8_t)(v <= 0.0f ? 0 : v >= 1.0f ? 255 : (int)(v * 255.0f + 0.5f));
}

/* ---- 4. a picture ------------------------------------------------------------------------------- */

/* A fan of 24 coloured triangles around the centre, over a triangle that
 * crosses them in depth (half in front, half behind): 25 triangles. */
static UINT picture_vertices(vtx *v)
{
	UINT n = 0;
	for (int k = 0; k < 24; k++) {
		float a0 = (float)k * 0.2617994f, a1 = (float)(k + 1) * 0.2617994f;
		float r = k % 2 ? 0.9f : 0.7f;
		float c[4] = { 0.5f + 0.5f * __builtin_cosf(a0), 0.5f + 0.5f * __builtin_sinf(a0 * 2.0f),
			       0.5f - 0.5f * __builtin_cosf(a0), 1.0f };
		vtx centre = { { 0, 0, 0.5f, 1 }, { 1, 1, 1, 1 } };
		vtx p0 = { { r * __builtin_cosf(a0), r * __builtin_sinf(a0), 0.5f, 1 }, { c[0], c[1], c[2], 1 } };
		vtx p1 = { { r * __builtin_cosf(a1), r * __builtin_sinf(a1), 0.5f, 1 }, { c[0], c[1], c[2], 1 } };
		v[n++] = centre;
		v[n++] = p0;
		v[n++] = p1;
	}
	v[n++] = (vtx){ { -0.95f, -0.2f, 0.2f, 1 }, { 1.0f, 0.85f, 0.2f, 1 } };
	v[n++] = (vtx){ { 0.95f, -0.35f, 0.8f, 1 }, { 1.0f, 0.85f, 0.2f, 1 } };
	v[n++] = (vtx){ { 0.95f, -0.05f, 0.8f, 1 }, { 1.0f, 0.4f, 0.1f, 1 } };
	return n;
}

static int story_picture(const char *kdir)
{
	dctx c;
	gfx_pipe p;
	target t;
	vtx v[80];
	UINT n = picture_vertices(v);
	int failures = 1;
	if (!dopen(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT, NULL))
		return 1;
	ID3D12Resource *vb = NULL;
	if (gfx_pipeline(&c, kdir, "gfx_color_vs.pal.o", "gfx_color_ps.pal.o", true, &p) && target_make(&c, true, &t) &&
	    (vb = buffer(&c, D3D12_HEAP_TYPE_UPLOAD, sizeof(v), v)) != NULL) {
		record_draw(&c, &p, &t, vb, n, 0.0f);
		record_readback(&c, &t);
		XS12_DRAW_STATISTICS st;
		uint8_t *px = NULL;
		if (SUCCEEDED(submit(&c)) && SUCCEEDED(finish(&c)) &&
		    SUCCEEDED(XS12GetDrawStatistics((ID3D12GraphicsCommandList *)c.l, 0, &st)) &&
		    (px = target_pixels(&t)) != NULL) {
			char path[1100];
			out_path(kdir, "graphics.png", path, sizeof(path));
			bool png = write_png(path, px);
			/* the centre pixel is the fan's white centre vertex region; a corner the clear colour */
			const uint8_t *corner = px, *mid = px + ((size_t)(H / 2) * W + W / 2) * 4;
			bool right = corner[0] == unorm8(0.05f) && corner[2] == unorm8(0.1f) && mid[0] > 200 &&
				     st.Primitives == n / 3;
			printf("\nD3D12: a draw through the graphics pipe (DrawInstanced(%u, 1, 0, 0), %dx%d RGBA8, depth LESS):\n"
			       "  %llu triangles (%llu clipped, %llu culled) -> %llu VS waves, %llu quads -> %llu PS waves,\n"
			       "  %llu pixels shaded, %llu written after the depth test, %llu cycles%s%s\n",
			       n, W, H, (unsigned long long)st.Primitives, (unsigned long long)st.PrimitivesClipped,
			       (unsigned long long)st.PrimitivesCulled, (unsigned long long)st.VSWaves,
			       (unsigned long long)st.Quads, (unsigned long long)st.PSWaves,
			       (unsigned long long)st.PixelsShaded, (unsigned long long)st.PixelsWritten,
			       (unsigned long long)st.Cycles, png ? "; picture: " : "", png ? path : "");
			failures = right ? 0 : 1;
		}
		free(px);
	}
	rel(vb);
	target_free(&t);
	gfx_pipe_free(&p);
	dclose(&c);
	return failures;
}

/* ---- 5. the S1.12 recipe ---------------------------------------------------------------------------- */

/* Two triangles covering the target (colour (0.25, 0.5, 0.75, 1)). */
static UINT cover_vertices(vtx *v)
{
	static const float q[6][2] = { { -1, -1 }, { -1, 1 }, { 1, 1 }, { -1, -1 }, { 1, 1 }, { 1, -1 } };
	for (int i = 0; i < 6; i++)
		v[i] = (vtx){ { q[i][0], q[i][1], 0.5f, 1 }, { 0.25f, 0.5f, 0.75f, 1 } };
	return 6;
}

/* The spilling PS's colour at pixel x (kernels/gfx/spill.ps.cl), as UNORM8. */
static bool spill_right(const uint8_t *px, float base)
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *p = px + ((size_t)y * W + x) * 4;
			float r = base + (float)(x & 63) * 0.25f, g = base + (float)((x * 5) & 63) * 0.25f;
			if (p[0] != unorm8(r) || p[1] != unorm8(g) || p[2] != unorm8(0.75f) || p[3] != 255)
				return false;
		}
	return true;
}

/* The spilling PS over the target with a graphics ring of `slots` waves (0:
 * the driver's default, shared with compute: S1.8). */
static bool spill_draw(const char *kdir, UINT slots, float base, XS12_DRAW_STATISTICS *st, UINT *per_wave)
{
	dctx c;
	gfx_pipe p;
	target t;
	vtx v[6];
	bool ok = false;
	if (!dopen(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT, NULL))
		return false;
	ID3D12Resource *vb = NULL, *ring = NULL;
	cover_vertices(v);
	if (gfx_pipeline(&c, kdir, "gfx_color_vs.pal.o", "gfx_spill_ps.pal.o", false, &p) && target_make(&c, false, &t) &&
	    (vb = buffer(&c, D3D12_HEAP_TYPE_UPLOAD, sizeof(v), v)) != NULL) {
		*per_wave = p.scratch_per_wave;
		if (slots) {
			/* S1.12: per wave = GetInformationX x 1024; total = per wave x slots */
			UINT64 total = (UINT64)p.scratch_per_wave * slots;
			ring = buffer(&c, D3D12_HEAP_TYPE_DEFAULT, total, NULL);
			ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.l, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_GRAPHICS,
									  ID3D12Resource_GetGPUVirtualAddress(ring), total,
									  p.scratch_per_wave);
		}
		record_draw(&c, &p, &t, vb, 6, base);
		record_readback(&c, &t);
		uint8_t *px = NULL;
		ok = SUCCEEDED(submit(&c)) && SUCCEEDED(finish(&c)) &&
		     SUCCEEDED(XS12GetDrawStatistics((ID3D12GraphicsCommandList *)c.l, 0, st)) &&
		     (px = target_pixels(&t)) != NULL && spill_right(px, base);
		free(px);
	}
	rel(ring);
	rel(vb);
	target_free(&t);
	gfx_pipe_free(&p);
	dclose(&c);
	return ok;
}

static int story_recipe(const char *kdir)
{
	static const struct { UINT slots; const char *what; } rings[] = {
		{ 8, "S1.12's recipe: 8 waves" }, { 0, "the driver's default ring" }, { 64, "64 waves" }, { 416, "416 waves" },
	};
	int failures = 0;
	UINT per_wave = 0;
	XS12_DRAW_STATISTICS st;
	for (unsigned i = 0; i < sizeof(rings) / sizeof(rings[0]); i++) {
		bool ok = spill_draw(kdir, rings[i].slots, 0.0f, &st, &per_wave);
		if (i == 0)
			printf("\nD3D12: a pixel shader that spills (kernels/gfx/spill.ps.cl, %u bytes of scratch per wave by\n"
			       "  GetInformationX), over %dx%d pixels, on graphics rings of different sizes (S1.12, S1.13):\n"
			       "  %-28s %-7s %-13s %-13s %s\n", per_wave, W, H, "graphics ring", "slots", "peak scratch",
			       "peak PS waves", "cycles");
		if (!ok || (rings[i].slots && st.PeakScratchSlots > rings[i].slots)) {
			failures++;
			printf("  %-28s FAILED\n", rings[i].what);
			continue;
		}
		printf("  %-28s %-7u %-13u %-13u %llu\n", rings[i].what, st.ScratchSlots, st.PeakScratchSlots, st.PeakPSWaves,
		       (unsigned long long)st.Cycles);
	}
	printf("  The ring bounds the waves that spill: with 8 slots, 8 PS waves at a time.\n");
	return failures;
}

/* ---- 6. a draw beside async compute --------------------------------------------------------------------- */

/* The spilling draw on the direct queue and scratch_chase on an async
 * compute queue of the same device at once; own = a ring each. */
static int gfx_async(const char *kdir, bool debug, bool own, const uint32_t *in, bool *draw_right, bool *chase_ok,
		     XS12_DRAW_STATISTICS *ds, XS12_DISPATCH_STATISTICS *cs, char *msg, size_t msgn, HRESULT *run,
		     const char *trace)
{
	dctx d, a;
	gfx_pipe gp;
	pipe cp;
	target t;
	vtx v[6];
	cover_vertices(v);
	enum { N = 4096 };
	*draw_right = *chase_ok = false;
	msg[0] = 0;
	if (!dopen_traced(&d, debug, D3D12_COMMAND_LIST_TYPE_DIRECT, NULL, trace) ||
	    !dopen(&a, debug, D3D12_COMMAND_LIST_TYPE_COMPUTE, d.dev) ||
	    !gfx_pipeline(&d, kdir, "gfx_color_vs.pal.o", "gfx_spill_ps.pal.o", false, &gp) ||
	    !pipeline(&d, kdir, "scratch_chase.O2.w32.hsaco", "scratch_chase", &cp) || !target_make(&d, false, &t))
		return 1;
	ID3DBlob *blob = NULL;
	UINT cs_wave = 0;
	if (SUCCEEDED(ID3D12PipelineState_GetInformationX(
		    cp.pso, D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW, 0, &blob))) {
		cs_wave = *(const UINT *)ID3DBlob_GetBufferPointer(blob) * 1024;
		ID3DBlob_Release(blob);
	}
	ID3D12Resource *vb = buffer(&d, D3D12_HEAP_TYPE_UPLOAD, sizeof(v), v);
	ID3D12Resource *cin = buffer(&d, D3D12_HEAP_TYPE_UPLOAD, 4096, in);
	ID3D12Resource *cout = buffer(&d, D3D12_HEAP_TYPE_DEFAULT, N * 4, NULL);
	ID3D12Resource *gring = buffer(&d, D3D12_HEAP_TYPE_DEFAULT, (UINT64)gp.scratch_per_wave * 208, NULL);
	ID3D12Resource *cring = buffer(&d, D3D12_HEAP_TYPE_DEFAULT, (UINT64)cs_wave * 208, NULL);
	if (own) {
		ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(d.l, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_GRAPHICS,
								  ID3D12Resource_GetGPUVirtualAddress(gring),
								  (UINT64)gp.scratch_per_wave * 208, gp.scratch_per_wave);
		ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(a.l, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
								  ID3D12Resource_GetGPUVirtualAddress(cring),
								  (UINT64)cs_wave * 208, cs_wave);
	}
	record_draw(&d, &gp, &t, vb, 6, 0.0f);
	record_readback(&d, &t);
	chase(&a, &cp, cin, cout, N / 64, 64);
	HRESULT hr = submit(&d);
	if (SUCCEEDED(hr))
		hr = submit(&a);
	if (FAILED(hr) && d.iq) {
		UINT64 k = ID3D12InfoQueue_GetNumStoredMessages(d.iq);
		SIZE_T len = 0;
		if (k && SUCCEEDED(ID3D12InfoQueue_GetMessage(d.iq, k - 1, NULL, &len))) {
			D3D12_MESSAGE *m = malloc(len);
			if (m && SUCCEEDED(ID3D12InfoQueue_GetMessage(d.iq, k - 1, m, &len)))
				snprintf(msg, msgn, "#%d %s", (int)m->ID, m->pDescription);
			free(m);
		}
		finish(&d);
	}
	HRESULT hd = SUCCEEDED(hr) ? finish(&d) : hr, ha = SUCCEEDED(hr) ? finish(&a) : hr;
	*run = FAILED(hd) ? hd : ha;
	if (SUCCEEDED(hr) && SUCCEEDED(hd) && SUCCEEDED(ha)) {
		XS12GetDrawStatistics((ID3D12GraphicsCommandList *)d.l, 0, ds);
		XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)a.l, 0, cs);
		uint8_t *px = target_pixels(&t);
		*draw_right = px && spill_right(px, 0.0f);
		free(px);
		reopen(&a);
		*chase_ok = chase_right(&a, cout, in, N, 64);
	}
	rel(vb);
	rel(cin);
	rel(cout);
	rel(gring);
	rel(cring);
	target_free(&t);
	gfx_pipe_free(&gp);
	pipe_free(&cp);
	dclose(&a);
	dclose(&d);
	return 0;
}

static int story_gfx_async(const char *kdir, const uint32_t *in)
{
	printf("\nD3D12: the spilling draw on the direct queue and scratch_chase on an async compute queue at once:\n");
	XS12_DRAW_STATISTICS ds;
	XS12_DISPATCH_STATISTICS cs;
	bool dr, cr;
	char msg[1200];
	int failures = 0;
	HRESULT run;
	memset(&ds, 0, sizeof(ds));
	memset(&cs, 0, sizeof(cs));
	fflush(stdout);
	char trace[1100];
	out_path(kdir, "graphics_async.json", trace, sizeof(trace));
	if (gfx_async(kdir, true, true, in, &dr, &cr, &ds, &cs, msg, sizeof(msg), &run, trace) || !dr || !cr ||
	    cs.StartCycle >= ds.EndCycle || ds.StartCycle >= cs.EndCycle) {
		failures++;
		printf("  a ring each (S1.9): FAILED\n");
	} else {
		printf("  a ring each (S1.9):              draw %6llu..%-7llu compute %6llu..%-7llu cycles: they overlap,\n"
		       "                                   pixels and compute results right\n",
		       (unsigned long long)ds.StartCycle, (unsigned long long)ds.EndCycle,
		       (unsigned long long)cs.StartCycle, (unsigned long long)cs.EndCycle);
		printf("                                   timeline: %s (Perfetto: a track per stage,\n"
		       "                                   per queue and per wave slot)\n", trace);
	}
	if (gfx_async(kdir, true, false, in, &dr, &cr, &ds, &cs, msg, sizeof(msg), &run, NULL) || !msg[0]) {
		failures++;
		printf("  the driver's allocation, debug layer: FAILED (no message)\n");
	} else {
		printf("  the driver's allocation, debug layer: the compute list fails to Close:\n    %.300s\n", msg);
	}
	memset(&ds, 0, sizeof(ds));
	memset(&cs, 0, sizeof(cs));
	fflush(stdout);
	if (gfx_async(kdir, false, false, in, &dr, &cr, &ds, &cs, msg, sizeof(msg), &run, NULL)) {
		failures++;
	} else if (FAILED(run)) {
		/* the pixel shader's table values, read back as scratch_chase's indices, send
		 * its loads out of every allocation: the device is removed (report above) */
		printf("  the driver's allocation, no debug:    the device is REMOVED (0x%08x): scratch_chase read the pixel\n"
		       "    shader's spilled floats as its own indices and faulted (the report above)\n"
		       "    (graphics and compute waves use the one allocation's slots at once: what S1.8 forbids, S1.10)\n",
		       (unsigned)run);
	} else {
		printf("  the driver's allocation, no debug:    draw %6llu..%-7llu compute %6llu..%-7llu cycles: %s\n",
		       (unsigned long long)ds.StartCycle, (unsigned long long)ds.EndCycle,
		       (unsigned long long)cs.StartCycle, (unsigned long long)cs.EndCycle,
		       dr && cr ? "both right this time (the shared slots did not collide)"
				: !dr && !cr ? "pixels AND compute results WRONG"
				: !dr ? "pixels WRONG" : "compute results WRONG");
		printf("    (graphics and compute waves use the one allocation's slots at once: what S1.8 forbids, S1.10)\n");
	}
	return failures;
}

int xs_cli_demo_gfx(const char *kdir, const uint32_t *in)
{
	int failures = story_picture(kdir);
	failures += story_recipe(kdir);
	failures += story_gfx_async(kdir, in);
	return failures;
}
