/* Determinism (issue 12 section 4). The GPU model runs when the host looks,
 * from the simulated time each queue reached, so a program that makes the
 * same calls in the same order gets the same GPU, to the cycle:
 *
 * (a) a mixed workload on three queues (private_spill with scratch rings
 *     on two compute queues, the direct queue waiting for one of them
 *     before a draw and a ray dispatch) run twice in timing mode, the
 *     second time on two host threads (TimingHostThreads: the run-ahead on
 *     the second, off while the draw is in flight): the same
 *     cycles of every dispatch and draw (XS12GetDispatchStatistics,
 *     XS12GetDrawStatistics, whole records), the same bytes of every
 *     output, and the same timeline (TracePath), byte for byte;
 * (b) the same workload recorded (RecordPath) and replayed through the GPU
 *     model alone (xs_replay): identical by the replay's own comparison,
 *     and the replayed cycles sum to what the statistics said;
 * (c) functional mode on N host threads (N = 2, 4; RUNS times each) gives
 *     the bytes one thread gives, for kernels whose results do not depend
 *     on the order of groups (spill, vadd, lds_reduce's per-group sums).
 *     Cycles are not compared there: with several threads they depend on
 *     which group launched where first (src/gpu/xs_gpu_threads.c).
 *
 *   test_determinism SPILL VADD LDS COLOR.vs COLOR.ps [RT_BASIC.hip.co] [--runs RUNS]
 *
 * XS12_DETERMINISM_ONLY=functional runs only (c) (the ThreadSanitizer
 * build: its graphics shaders are given as "-").
 *
 * Without RT_BASIC (no hipcc) the workload has no ray dispatch. */
#include "../d3d12/d3d12_util.h"

#include <xs12/xs12.h>
#include <xs12/xs12_rt.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static const char *spill_path, *vadd_path, *lds_path, *vs_path, *ps_path, *rt_path;
static unsigned runs = 20;

/* ---- the mixed workload ------------------------------------------------------------ */

enum { SN = 2048, W = 64, H = 48, RW = 16, RH = 8, MAXSTATS = 8 };

/* What one run of the workload gave. */
typedef struct outcome {
	uint32_t spill[2][SN];
	uint8_t target[W * H * 4];
	uint32_t rays[RW * RH * 4];
	XS12_DISPATCH_STATISTICS disp[MAXSTATS];
	XS12_DRAW_STATISTICS draw;
	unsigned ndisp;
	uint64_t cycles;          /* every dispatch's and the draw's, summed */
	char *trace;
	size_t trace_size;
} outcome;

static uint32_t spill_in[2][1024];

static const float tri[3][8] = {
	{ -0.5f, -0.5f, 0.5f, 1.0f, 1.0f, 0.0f, 0.0f, 1.0f },
	{ 0.0f, 0.5f, 0.5f, 1.0f, 0.0f, 1.0f, 0.0f, 1.0f },
	{ 0.5f, -0.5f, 0.5f, 1.0f, 0.0f, 0.0f, 1.0f, 1.0f },
};

static const D3D12_INPUT_ELEMENT_DESC layout[2] = {
	{ "POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
	{ "COLOR", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, D3D12_APPEND_ALIGNED_ELEMENT,
	  D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
};

static UINT spill_per_wave(void)
{
	xs_device *dev;
	xs_module *m;
	assert_int_equal(xs_device_create(NULL, &dev), XS_OK);
	assert_int_equal(xs_module_load_file(dev, spill_path, &m), XS_OK);
	const xs_kernel_info *k = xs_module_kernel(m, 0);
	uint64_t bytes = (uint64_t)k->private_segment_fixed_size * k->wavefront_size;
	xs_module_destroy(m);
	xs_device_destroy(dev);
	return (UINT)((bytes + 1023) / 1024 * 1024);
}

typedef struct lane {
	D3D12_COMMAND_LIST_TYPE type;
	ID3D12CommandQueue *queue;
	ID3D12CommandAllocator *alloc;
	ID3D12GraphicsCommandList6 *list;
	ID3D12Fence *fence;
} lane;

static void lane_open(t_ctx *c, lane *l, D3D12_COMMAND_LIST_TYPE type)
{
	l->type = type;
	D3D12_COMMAND_QUEUE_DESC qd = { .Type = type };
	assert_int_equal(ID3D12Device_CreateCommandQueue(c->dev, &qd, &IID_ID3D12CommandQueue, (void **)&l->queue), S_OK);
	assert_int_equal(ID3D12Device_CreateCommandAllocator(c->dev, type, &IID_ID3D12CommandAllocator, (void **)&l->alloc),
			 S_OK);
	assert_int_equal(ID3D12Device_CreateCommandList(c->dev, 0, type, l->alloc, NULL, &IID_ID3D12GraphicsCommandList6,
							(void **)&l->list), S_OK);
	assert_int_equal(ID3D12Device_CreateFence(c->dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&l->fence),
			 S_OK);
}

static void lane_close(lane *l)
{
	ID3D12Fence_Release(l->fence);
	ID3D12GraphicsCommandList6_Release(l->list);
	ID3D12CommandAllocator_Release(l->alloc);
	ID3D12CommandQueue_Release(l->queue);
}

static void lane_execute(lane *l)
{
	assert_int_equal(ID3D12GraphicsCommandList6_Close(l->list), S_OK);
	ID3D12CommandList *cl = (ID3D12CommandList *)l->list;
	ID3D12CommandQueue_ExecuteCommandLists(l->queue, 1, &cl);
	assert_int_equal(ID3D12CommandQueue_Signal(l->queue, l->fence, 1), S_OK);
}

/* The statistics of every dispatch of a lane's executed list, appended. */
static void lane_stats(lane *l, outcome *o, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		assert_true(o->ndisp < MAXSTATS);
		XS12_DISPATCH_STATISTICS *s = &o->disp[o->ndisp++];
		memset(s, 0, sizeof(*s));
		assert_int_equal(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)l->list, i, s), S_OK);
		o->cycles += s->Cycles;
	}
}

static ID3D12StateObject *ray_pipeline(t_ctx *c, void *code, size_t size, ID3D12RootSignature *rs)
{
	D3D12_DXIL_LIBRARY_DESC lib = { { code, size }, 0, NULL };
	D3D12_RAYTRACING_SHADER_CONFIG sc = { 16, 8 };
	D3D12_RAYTRACING_PIPELINE_CONFIG pc = { 1 };
	D3D12_GLOBAL_ROOT_SIGNATURE gr = { rs };
	D3D12_STATE_SUBOBJECT sub[4] = {
		{ D3D12_STATE_SUBOBJECT_TYPE_DXIL_LIBRARY, &lib },
		{ D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_SHADER_CONFIG, &sc },
		{ D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_PIPELINE_CONFIG, &pc },
		{ D3D12_STATE_SUBOBJECT_TYPE_GLOBAL_ROOT_SIGNATURE, &gr },
	};
	D3D12_STATE_OBJECT_DESC d = { D3D12_STATE_OBJECT_TYPE_RAYTRACING_PIPELINE, 4, sub };
	ID3D12Device5 *dev5;
	assert_int_equal(ID3D12Device_QueryInterface(c->dev, &IID_ID3D12Device5, (void **)&dev5), S_OK);
	ID3D12StateObject *so = NULL;
	assert_int_equal(ID3D12Device5_CreateStateObject(dev5, &d, &IID_ID3D12StateObject, (void **)&so), S_OK);
	ID3D12Device5_Release(dev5);
	return so;
}

static char *slurp(const char *path, size_t *n)
{
	*n = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *p = malloc((size_t)len + 1);
	if (p && fread(p, 1, (size_t)len, f) == (size_t)len) {
		p[len] = 0;
		*n = (size_t)len;
	}
	fclose(f);
	return p;
}

/* One run of the workload on a fresh device (timing mode, debug layer on):
 * compute queue 1 spills input 0 in its own scratch ring, compute queue 2
 * input 1 in another; the direct queue waits for queue 1's fence, then
 * draws a triangle and dispatches rays (rt_basic's rg_index). */
static void workload(const char *trace, const char *record, UINT timing_threads, outcome *o)
{
	memset(o, 0, sizeof(*o));
	XS12_DEVICE_DESC dd = { .Machine = XS12_MACHINE_SERIES_X, .DebugLayer = TRUE, .TracePath = trace,
				.RecordPath = record, .TimingHostThreads = timing_threads };
	t_ctx c;
	t_open_desc(&c, &dd, D3D12_COMMAND_LIST_TYPE_DIRECT);
	lane lc[2], ld;
	lane_open(&c, &lc[0], D3D12_COMMAND_LIST_TYPE_COMPUTE);
	lane_open(&c, &lc[1], D3D12_COMMAND_LIST_TYPE_COMPUTE);
	lane_open(&c, &ld, D3D12_COMMAND_LIST_TYPE_DIRECT);
	HRESULT hr;
	ID3D12PipelineState *spill = t_pipeline(&c, spill_path, NULL, &hr);
	assert_int_equal(hr, S_OK);
	size_t n;
	void *code = t_read_file(spill_path, &n);
	ID3D12RootSignature *spill_rs;
	assert_int_equal(ID3D12Device_CreateRootSignature(c.dev, 0, code, n, &IID_ID3D12RootSignature, (void **)&spill_rs),
			 S_OK);
	free(code);
	UINT per_wave = spill_per_wave();

	/* compute: private_spill in scratch rings of 16 and 24 slots */
	ID3D12Resource *in[2], *out[2], *ring[2];
	for (int q = 0; q < 2; q++) {
		in[q] = t_upload(&c, spill_in[q], sizeof(spill_in[q]));
		out[q] = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, SN * 4);
		UINT slots = q ? 24 : 16;
		ring[q] = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, (UINT64)per_wave * slots);
		ID3D12GraphicsCommandList6 *l = lc[q].list;
		ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(l, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
								  ID3D12Resource_GetGPUVirtualAddress(ring[q]),
								  (UINT64)per_wave * slots, per_wave);
		ID3D12GraphicsCommandList6_SetComputeRootSignature(l, spill_rs);
		ID3D12GraphicsCommandList6_SetPipelineState(l, spill);
		ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(l, 0, ID3D12Resource_GetGPUVirtualAddress(in[q]));
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(l, 1, ID3D12Resource_GetGPUVirtualAddress(out[q]));
		ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(l, 2, 1024, 0);
		ID3D12GraphicsCommandList6_Dispatch(l, SN / 64, 1, 1);
	}

	/* direct: a triangle */
	D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
	D3D12_RESOURCE_DESC rd = { .Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D, .Width = W, .Height = H,
				   .DepthOrArraySize = 1, .MipLevels = 1, .Format = DXGI_FORMAT_R8G8B8A8_UNORM,
				   .SampleDesc = { 1, 0 }, .Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET };
	ID3D12Resource *rt;
	assert_int_equal(ID3D12Device_CreateCommittedResource(c.dev, &hp, D3D12_HEAP_FLAG_NONE, &rd,
							      D3D12_RESOURCE_STATE_RENDER_TARGET, NULL, &IID_ID3D12Resource,
							      (void **)&rt), S_OK);
	D3D12_DESCRIPTOR_HEAP_DESC hd = { .Type = D3D12_DESCRIPTOR_HEAP_TYPE_RTV, .NumDescriptors = 1 };
	ID3D12DescriptorHeap *rtvs;
	assert_int_equal(ID3D12Device_CreateDescriptorHeap(c.dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&rtvs), S_OK);
	D3D12_CPU_DESCRIPTOR_HANDLE rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(rtvs);
	ID3D12Device_CreateRenderTargetView(c.dev, rt, NULL, rtv);
	ID3D12Resource *vb = t_upload(&c, tri, sizeof(tri));
	D3D12_ROOT_PARAMETER rp = { .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, .Constants = { 0, 0, 1 } };
	ID3D12RootSignature *gfx_rs = t_root_signature(&c, &rp, 1);
	size_t vsn, psn;
	void *vs = t_read_file(vs_path, &vsn), *ps = t_read_file(ps_path, &psn);
	D3D12_GRAPHICS_PIPELINE_STATE_DESC gd = t_gfx_desc(vs, vsn, ps, psn);
	gd.pRootSignature = gfx_rs;
	gd.InputLayout = (D3D12_INPUT_LAYOUT_DESC){ layout, 2 };
	ID3D12PipelineState *gfx;
	assert_int_equal(ID3D12Device_CreateGraphicsPipelineState(c.dev, &gd, &IID_ID3D12PipelineState, (void **)&gfx), S_OK);
	free(vs);
	free(ps);
	ID3D12GraphicsCommandList6 *l = ld.list;
	ID3D12GraphicsCommandList6_SetPipelineState(l, gfx);
	ID3D12GraphicsCommandList6_SetGraphicsRootSignature(l, gfx_rs);
	ID3D12GraphicsCommandList6_SetGraphicsRoot32BitConstant(l, 0, 0x3f800000u, 0);
	ID3D12GraphicsCommandList6_IASetPrimitiveTopology(l, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
	D3D12_VERTEX_BUFFER_VIEW vbv = { ID3D12Resource_GetGPUVirtualAddress(vb), sizeof(tri), sizeof(tri[0]) };
	ID3D12GraphicsCommandList6_IASetVertexBuffers(l, 0, 1, &vbv);
	D3D12_VIEWPORT vp = { 0, 0, (float)W, (float)H, 0, 1 };
	D3D12_RECT sc = { 0, 0, W, H };
	ID3D12GraphicsCommandList6_RSSetViewports(l, 1, &vp);
	ID3D12GraphicsCommandList6_RSSetScissorRects(l, 1, &sc);
	ID3D12GraphicsCommandList6_OMSetRenderTargets(l, 1, &rtv, FALSE, NULL);
	const float black[4] = { 0, 0, 0, 0 };
	ID3D12GraphicsCommandList6_ClearRenderTargetView(l, rtv, black, 0, NULL);
	ID3D12GraphicsCommandList6_DrawInstanced(l, 3, 1, 0, 0);

	/* direct: rays, one lane per pixel of RW x RH */
	ID3D12StateObject *so = NULL;
	ID3D12RootSignature *ray_rs = NULL;
	ID3D12Resource *ray_out = NULL, *table = NULL;
	void *rt_code = NULL;
	unsigned ray_dispatches = 0;
	if (rt_path) {
		D3D12_ROOT_PARAMETER p[2] = {
			{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV, .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL },
			{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, .Constants = { 0, 0, 1 },
			  .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL },
		};
		ray_rs = t_root_signature(&c, p, 2);
		size_t rn;
		rt_code = t_read_file(rt_path, &rn);
		so = ray_pipeline(&c, rt_code, rn, ray_rs);
		ray_out = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, sizeof(o->rays));
		table = t_buffer(&c, D3D12_HEAP_TYPE_UPLOAD, 256);
		uint8_t *tab;
		assert_int_equal(ID3D12Resource_Map(table, 0, NULL, (void **)&tab), S_OK);
		memset(tab, 0, 256);
		ID3D12StateObjectProperties *pp;
		assert_int_equal(ID3D12StateObject_QueryInterface(so, &IID_ID3D12StateObjectProperties, (void **)&pp), S_OK);
		const void *id = ID3D12StateObjectProperties_GetShaderIdentifier(pp, L"rg_index");
		assert_non_null(id);
		memcpy(tab, id, XS12_RT_SHADER_ID_SIZE);
		ID3D12StateObjectProperties_Release(pp);
		ID3D12Resource_Unmap(table, 0, NULL);
		ID3D12GraphicsCommandList6_SetComputeRootSignature(l, ray_rs);
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(l, 0, ID3D12Resource_GetGPUVirtualAddress(ray_out));
		ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(l, 1, 0x5eedu, 0);
		ID3D12GraphicsCommandList6_SetPipelineState1(l, so);
		D3D12_DISPATCH_RAYS_DESC r = { .RayGenerationShaderRecord = { ID3D12Resource_GetGPUVirtualAddress(table), 64 },
					       .Width = RW, .Height = RH, .Depth = 1 };
		ID3D12GraphicsCommandList6_DispatchRays(l, &r);
		ray_dispatches = 1;
	}

	/* submission order is part of the program: compute 1, compute 2, then
	 * the direct queue behind a GPU wait on compute 1's fence */
	lane_execute(&lc[0]);
	lane_execute(&lc[1]);
	assert_int_equal(ID3D12CommandQueue_Wait(ld.queue, lc[0].fence, 1), S_OK);
	lane_execute(&ld);
	for (int q = 0; q < 2; q++)
		assert_int_equal(ID3D12Fence_SetEventOnCompletion(lc[q].fence, 1, NULL), S_OK);
	assert_int_equal(ID3D12Fence_SetEventOnCompletion(ld.fence, 1, NULL), S_OK);
	lane_stats(&lc[0], o, 1);
	lane_stats(&lc[1], o, 1);
	lane_stats(&ld, o, ray_dispatches);
	memset(&o->draw, 0, sizeof(o->draw));
	assert_int_equal(XS12GetDrawStatistics((ID3D12GraphicsCommandList *)ld.list, 0, &o->draw), S_OK);
	o->cycles += o->draw.Cycles;

	/* the bytes: both spills, the target by its footprint, the rays */
	for (int q = 0; q < 2; q++)
		t_read(&c, out[q], o->spill[q], sizeof(o->spill[q]));
	D3D12_PLACED_SUBRESOURCE_FOOTPRINT fp;
	UINT64 total = 0;
	ID3D12Device_GetCopyableFootprints(c.dev, &rd, 0, 1, 0, &fp, NULL, NULL, &total);
	ID3D12Resource *rb = t_buffer(&c, D3D12_HEAP_TYPE_READBACK, total);
	D3D12_TEXTURE_COPY_LOCATION dst = { .pResource = rb, .Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT,
					    .PlacedFootprint = fp };
	D3D12_TEXTURE_COPY_LOCATION src = { .pResource = rt, .Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX };
	ID3D12GraphicsCommandList6_CopyTextureRegion(c.list, &dst, 0, 0, 0, &src, NULL);
	assert_int_equal(t_run(&c), S_OK);
	uint8_t *px;
	assert_int_equal(ID3D12Resource_Map(rb, 0, NULL, (void **)&px), S_OK);
	for (int y = 0; y < H; y++)
		memcpy(o->target + y * W * 4, px + (size_t)y * fp.Footprint.RowPitch, W * 4);
	ID3D12Resource_Unmap(rb, 0, NULL);
	ID3D12Resource_Release(rb);
	if (ray_out)
		t_read(&c, ray_out, o->rays, sizeof(o->rays));
	assert_int_equal(ID3D12Device_GetDeviceRemovedReason(c.dev), S_OK);
	assert_int_equal(t_last_message(&c, NULL, 0), 0);

	if (so) {
		ID3D12StateObject_Release(so);
		ID3D12RootSignature_Release(ray_rs);
		ID3D12Resource_Release(ray_out);
		ID3D12Resource_Release(table);
		free(rt_code);
	}
	ID3D12PipelineState_Release(gfx);
	ID3D12RootSignature_Release(gfx_rs);
	ID3D12Resource_Release(vb);
	ID3D12DescriptorHeap_Release(rtvs);
	ID3D12Resource_Release(rt);
	for (int q = 0; q < 2; q++) {
		ID3D12Resource_Release(in[q]);
		ID3D12Resource_Release(out[q]);
		ID3D12Resource_Release(ring[q]);
	}
	ID3D12RootSignature_Release(spill_rs);
	ID3D12PipelineState_Release(spill);
	lane_close(&lc[0]);
	lane_close(&lc[1]);
	lane_close(&ld);
	t_close(&c); /* the device's release writes the trace */
	if (trace)
		o->trace = slurp(trace, &o->trace_size);
}

/* The run did what it should: the CPU's spill, a triangle, every ray lane. */
static void outcome_right(const outcome *o)
{
	for (int q = 0; q < 2; q++)
		for (uint32_t i = 0; i < SN; i++)
			assert_int_equal(o->spill[q][i], t_spill_ref(spill_in[q], 1024, i));
	unsigned lit = 0;
	for (int i = 0; i < W * H; i++)
		lit += o->target[4 * i + 3] != 0;
	assert_true(lit > 300 && lit < W * H / 2);
	if (rt_path)
		for (uint32_t y = 0; y < RH; y++)
			for (uint32_t x = 0; x < RW; x++) {
				const uint32_t *r = o->rays + 4 * (y * RW + x);
				assert_int_equal(r[0], x | y << 10);
				assert_int_equal(r[2], 0x5eedu);
				assert_int_equal(r[3], 1);
			}
	assert_int_equal(o->ndisp, rt_path ? 3 : 2);
	for (unsigned i = 0; i < o->ndisp; i++)
		assert_true(o->disp[i].Cycles > 0);
	assert_true(o->draw.Cycles > 0 && o->draw.PSWaves > 0);
	assert_true(o->disp[0].ScratchSlots == 16 && o->disp[1].ScratchSlots == 24);
}

static void temp_path(char *buf, size_t n, const char *what)
{
	const char *dir = getenv("TMPDIR");
	snprintf(buf, n, "%s/xs12-determinism-%ld-%s", dir && *dir ? dir : "/tmp", (long)getpid(), what);
}

static void mixed_workload_twice(void **state)
{
	(void)state;
	char t1[256], t2[256];
	temp_path(t1, sizeof(t1), "1.json");
	temp_path(t2, sizeof(t2), "2.json");
	static outcome a, b;
	workload(t1, NULL, 1, &a);
	workload(t2, NULL, 2, &b);
	unlink(t1);
	unlink(t2);
	outcome_right(&a);
	outcome_right(&b);
	for (unsigned i = 0; i < a.ndisp; i++) {
		print_message("dispatch %u: cycles %llu-%llu (%llu), %llu waves, %llu instructions\n", i,
			      (unsigned long long)a.disp[i].StartCycle, (unsigned long long)a.disp[i].EndCycle,
			      (unsigned long long)a.disp[i].Cycles, (unsigned long long)a.disp[i].WavesLaunched,
			      (unsigned long long)a.disp[i].WaveInstructions);
		assert_int_equal(a.disp[i].Cycles, b.disp[i].Cycles);
		assert_int_equal(a.disp[i].StartCycle, b.disp[i].StartCycle);
		assert_memory_equal(&a.disp[i], &b.disp[i], sizeof(a.disp[i])); /* every figure */
	}
	print_message("draw: cycles %llu-%llu (%llu), %llu pixels shaded\n", (unsigned long long)a.draw.StartCycle,
		      (unsigned long long)a.draw.EndCycle, (unsigned long long)a.draw.Cycles,
		      (unsigned long long)a.draw.PixelsShaded);
	assert_memory_equal(&a.draw, &b.draw, sizeof(a.draw));
	assert_memory_equal(a.spill, b.spill, sizeof(a.spill));
	assert_memory_equal(a.target, b.target, sizeof(a.target));
	assert_memory_equal(a.rays, b.rays, sizeof(a.rays));
	/* the timelines: non-trivial (the queues' tracks and a draw) and equal */
	assert_non_null(a.trace);
	assert_non_null(b.trace);
	print_message("trace: %zu bytes\n", a.trace_size);
	assert_true(a.trace_size > 1000);
	assert_non_null(strstr(a.trace, "\"traceEvents\""));
	assert_int_equal(a.trace_size, b.trace_size);
	assert_memory_equal(a.trace, b.trace, a.trace_size);
	free(a.trace);
	free(b.trace);
}

static void recorded_and_replayed(void **state)
{
	(void)state;
	char rec[256];
	temp_path(rec, sizeof(rec), "run.xsr");
	static outcome a, b;
	workload(NULL, rec, 1, &a);
	outcome_right(&a);
	xs_replay_report rep;
	xs_status st = xs_replay(rec, &rep);
	unlink(rec);
	print_message("replay: %u batches, %u dispatches and draws, %llu cycles (the run: %llu): %s %s\n", rep.batches,
		      rep.dispatches, (unsigned long long)rep.cycles, (unsigned long long)a.cycles,
		      rep.identical ? "identical" : "DIFFERENT", rep.detail);
	assert_int_equal(st, XS_OK);
	assert_true(rep.identical);
	assert_int_equal(rep.dispatches, a.ndisp + 1);
	assert_int_equal(rep.cycles, a.cycles);
	/* and a run without the recording is the same run */
	workload(NULL, NULL, 1, &b);
	assert_memory_equal(a.disp, b.disp, sizeof(a.disp));
	assert_memory_equal(&a.draw, &b.draw, sizeof(a.draw));
	assert_memory_equal(a.spill, b.spill, sizeof(a.spill));
	assert_memory_equal(a.target, b.target, sizeof(a.target));
}

/* ---- functional mode on host threads ----------------------------------------------- */

enum { FN = 16 * 1024, VN = 64 * 1024, LG = 256, LN = 64 * LG };

typedef struct fbytes {
	uint32_t spill[FN];
	float vadd[VN];
	uint32_t sums[LN / LG];
} fbytes;

static float fa[VN], fb[VN];
static uint32_t lin[LN];

static void functional_run(UINT threads, fbytes *o)
{
	XS12_DEVICE_DESC dd = { .Machine = XS12_MACHINE_SERIES_X, .Functional = TRUE, .HostThreads = threads };
	t_ctx c;
	t_open_desc(&c, &dd, D3D12_COMMAND_LIST_TYPE_COMPUTE);
	HRESULT hr;
	ID3D12PipelineState *spill = t_pipeline(&c, spill_path, NULL, &hr), *vadd = t_pipeline(&c, vadd_path, NULL, &hr),
			    *lds = t_pipeline(&c, lds_path, "lds_reduce", &hr);
	assert_non_null(spill);
	assert_non_null(vadd);
	assert_non_null(lds);
	ID3D12Resource *sin = t_upload(&c, spill_in[0], sizeof(spill_in[0])), *sout = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, sizeof(o->spill));
	ID3D12Resource *va = t_upload(&c, fa, sizeof(fa)), *vb = t_upload(&c, fb, sizeof(fb));
	ID3D12Resource *vout = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, sizeof(o->vadd));
	ID3D12Resource *lbuf = t_upload(&c, lin, sizeof(lin)), *lout = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, sizeof(o->sums));
	t_set_pipeline(&c, spill);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 0, ID3D12Resource_GetGPUVirtualAddress(sin));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 1, ID3D12Resource_GetGPUVirtualAddress(sout));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c.list, 2, 1024, 0);
	ID3D12GraphicsCommandList6_Dispatch(c.list, FN / 64, 1, 1);
	t_set_pipeline(&c, vadd);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 0, ID3D12Resource_GetGPUVirtualAddress(va));
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 1, ID3D12Resource_GetGPUVirtualAddress(vb));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 2, ID3D12Resource_GetGPUVirtualAddress(vout));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c.list, 3, VN, 0);
	ID3D12GraphicsCommandList6_Dispatch(c.list, VN / 64, 1, 1);
	t_set_pipeline(&c, lds);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 0, ID3D12Resource_GetGPUVirtualAddress(lbuf));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 1, ID3D12Resource_GetGPUVirtualAddress(lout));
	ID3D12GraphicsCommandList6_Dispatch(c.list, LN / LG, 1, 1);
	assert_int_equal(t_run(&c), S_OK);
	t_read(&c, sout, o->spill, sizeof(o->spill));
	t_read(&c, vout, o->vadd, sizeof(o->vadd));
	t_read(&c, lout, o->sums, sizeof(o->sums));
	ID3D12Resource *all[] = { sin, sout, va, vb, vout, lbuf, lout };
	for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		ID3D12Resource_Release(all[i]);
	ID3D12PipelineState_Release(spill);
	ID3D12PipelineState_Release(vadd);
	ID3D12PipelineState_Release(lds);
	t_close(&c);
}

static void functional_threads_same_bytes(void **state)
{
	(void)state;
	for (int i = 0; i < VN; i++) {
		fa[i] = (float)i * 0.75f;
		fb[i] = 1.0f / (float)(i + 1);
	}
	for (int i = 0; i < LN; i++)
		lin[i] = (uint32_t)i * 2654435761u;
	static fbytes one, many;
	functional_run(1, &one);
	/* one thread against the CPU, so that "the same" is the right thing */
	for (uint32_t i = 0; i < FN; i++)
		assert_int_equal(one.spill[i], t_spill_ref(spill_in[0], 1024, i));
	for (int i = 0; i < VN; i++)
		assert_true(one.vadd[i] == fa[i] + fb[i]);
	for (int g = 0; g < LN / LG; g++) {
		uint32_t s = 0;
		for (int i = 0; i < LG; i++)
			s += lin[g * LG + i];
		assert_int_equal(one.sums[g], s);
	}
	const UINT ns[2] = { 2, 4 };
	for (int t = 0; t < 2; t++)
		for (unsigned r = 0; r < runs; r++) {
			memset(&many, 0xee, sizeof(many));
			functional_run(ns[t], &many);
			if (memcmp(&one, &many, sizeof(one)))
				fail_msg("%u host threads, run %u: bytes differ from one thread's", ns[t], r + 1);
		}
	print_message("functional: %u runs each on 2 and 4 host threads, bytes equal to one thread's\n", runs);
}

int main(int argc, char **argv)
{
	const char *pos[6] = { 0 };
	int np = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = (unsigned)atoi(argv[++i]);
		else if (np < 6)
			pos[np++] = argv[i];
	}
	if (np < 5)
		return 2;
	spill_path = pos[0];
	vadd_path = pos[1];
	lds_path = pos[2];
	vs_path = pos[3];
	ps_path = pos[4];
	rt_path = pos[5];
	for (int q = 0; q < 2; q++)
		for (int i = 0; i < 1024; i++)
			spill_in[q][i] = (uint32_t)i * 2654435761u + (uint32_t)q * 12345u;
	const char *only = getenv("XS12_DETERMINISM_ONLY"); /* "functional": the TSan build's part */
	const struct CMUnitTest all[] = { cmocka_unit_test(mixed_workload_twice), cmocka_unit_test(recorded_and_replayed),
					  cmocka_unit_test(functional_threads_same_bytes) };
	const struct CMUnitTest threads_only[] = { cmocka_unit_test(functional_threads_same_bytes) };
	if (only && !strcmp(only, "functional"))
		return cmocka_run_group_tests(threads_only, NULL, NULL);
	return cmocka_run_group_tests(all, NULL, NULL);
}
