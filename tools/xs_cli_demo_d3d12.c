/* xs12 demo, the D3D12 part: the scratch and launch-parameter story told
 * through the D3D12 API as a title calls it (d3d12_xs.h), with what the
 * GPU model measured (XS12GetDispatchStatistics, timestamp queries):
 *
 *   1. GetInformationX and SetShaderScratchSpaceX: ring slots bound the
 *      scratch waves in flight (S1.11-S1.13), from the documented 8 to 32
 *      per CU;
 *   2. async compute: rings of their own overlap and compute right (S1.9);
 *      the driver's one shared allocation is a debug-layer error on an
 *      async queue, and without the debug layer the corruption it prevents
 *      (S1.8, S1.10);
 *   3. launch parameters: the LDSSize of S3 trades occupancy (the group
 *      shape and ExecuteIndirect are in examples/d3d12/launch_params.c).
 *
 * Each result is checked against a host computation. */
#include "xs_cli.h"

#define COBJMACROS
#include <xs12/d3d12_xs.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dctx {
	ID3D12Device *dev;
	ID3D12InfoQueue *iq;
	ID3D12CommandQueue *q;
	ID3D12CommandAllocator *a;
	ID3D12GraphicsCommandList6 *l;
	ID3D12Fence *f;
	UINT64 fv;
	D3D12_COMMAND_LIST_TYPE type;
} dctx;

static bool dopen(dctx *c, bool debug, D3D12_COMMAND_LIST_TYPE type, ID3D12Device *share)
{
	memset(c, 0, sizeof(*c));
	c->type = type;
	XS12_DEVICE_DESC dd = { .Machine = XS12_MACHINE_SERIES_X, .DebugLayer = debug };
	if (share) {
		c->dev = share;
		ID3D12Device_AddRef(share);
	} else if (FAILED(XS12CreateDevice(&dd, &IID_ID3D12Device, (void **)&c->dev))) {
		return false;
	}
	if (FAILED(ID3D12Device_QueryInterface(c->dev, &IID_ID3D12InfoQueue, (void **)&c->iq)))
		c->iq = NULL;
	if (c->iq)
		ID3D12InfoQueue_SetMuteDebugOutput(c->iq, TRUE); /* the demo prints what it wants */
	D3D12_COMMAND_QUEUE_DESC qd = { .Type = type };
	return SUCCEEDED(ID3D12Device_CreateCommandQueue(c->dev, &qd, &IID_ID3D12CommandQueue, (void **)&c->q)) &&
	       SUCCEEDED(ID3D12Device_CreateCommandAllocator(c->dev, type, &IID_ID3D12CommandAllocator, (void **)&c->a)) &&
	       SUCCEEDED(ID3D12Device_CreateCommandList(c->dev, 0, type, c->a, NULL, &IID_ID3D12GraphicsCommandList6,
							(void **)&c->l)) &&
	       SUCCEEDED(ID3D12Device_CreateFence(c->dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&c->f));
}

static void dclose(dctx *c)
{
	if (c->f) ID3D12Fence_Release(c->f);
	if (c->l) ID3D12GraphicsCommandList6_Release(c->l);
	if (c->a) ID3D12CommandAllocator_Release(c->a);
	if (c->q) ID3D12CommandQueue_Release(c->q);
	if (c->iq) ID3D12InfoQueue_Release(c->iq);
	if (c->dev) ID3D12Device_Release(c->dev);
	memset(c, 0, sizeof(*c));
}

/* Close, execute, signal: the GPU runs when someone waits. */
static HRESULT submit(dctx *c)
{
	HRESULT hr = ID3D12GraphicsCommandList6_Close(c->l);
	if (FAILED(hr))
		return hr;
	ID3D12CommandList *l = (ID3D12CommandList *)c->l;
	ID3D12CommandQueue_ExecuteCommandLists(c->q, 1, &l);
	return ID3D12CommandQueue_Signal(c->q, c->f, ++c->fv);
}

static HRESULT finish(dctx *c)
{
	HRESULT hr = ID3D12Fence_SetEventOnCompletion(c->f, c->fv, NULL);
	if (SUCCEEDED(hr))
		hr = ID3D12Device_GetDeviceRemovedReason(c->dev);
	return hr;
}

static void reopen(dctx *c)
{
	ID3D12CommandAllocator_Reset(c->a);
	ID3D12GraphicsCommandList6_Reset(c->l, c->a, NULL);
}

static ID3D12Resource *buffer(dctx *c, D3D12_HEAP_TYPE heap, UINT64 bytes, const void *data)
{
	D3D12_HEAP_PROPERTIES hp = { .Type = heap };
	D3D12_RESOURCE_DESC rd = { .Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = bytes, .Height = 1,
				   .DepthOrArraySize = 1, .MipLevels = 1, .SampleDesc = { 1, 0 },
				   .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR };
	ID3D12Resource *r = NULL;
	if (FAILED(ID3D12Device_CreateCommittedResource(c->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd,
							heap == D3D12_HEAP_TYPE_UPLOAD ? D3D12_RESOURCE_STATE_GENERIC_READ
											: D3D12_RESOURCE_STATE_COMMON,
							NULL, &IID_ID3D12Resource, (void **)&r)))
		return NULL;
	void *p;
	if (data && SUCCEEDED(ID3D12Resource_Map(r, 0, NULL, &p))) {
		memcpy(p, data, bytes);
		ID3D12Resource_Unmap(r, 0, NULL);
	}
	return r;
}

static void rel(ID3D12Resource *r)
{
	if (r)
		ID3D12Resource_Release(r);
}

/* A buffer's bytes, through a READBACK copy. */
static bool readback(dctx *c, ID3D12Resource *src, void *out, UINT64 bytes)
{
	ID3D12Resource *rb = buffer(c, D3D12_HEAP_TYPE_READBACK, bytes, NULL);
	if (!rb)
		return false;
	ID3D12GraphicsCommandList6_CopyBufferRegion(c->l, rb, 0, src, 0, bytes);
	bool ok = SUCCEEDED(submit(c)) && SUCCEEDED(finish(c));
	void *p;
	if (ok && SUCCEEDED(ID3D12Resource_Map(rb, 0, NULL, &p))) {
		memcpy(out, p, bytes);
		ID3D12Resource_Unmap(rb, 0, NULL);
	}
	reopen(c);
	rel(rb);
	return ok;
}

typedef struct pipe {
	ID3D12PipelineState *pso;
	ID3D12RootSignature *rs;
} pipe;

/* A pipeline of a code object's kernel, its root signature the one the
 * bytecode embeds (CreateRootSignature from the same bytes). */
static bool pipeline(dctx *c, const char *kdir, const char *file, const char *kernel, pipe *p)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", kdir, file);
	uint8_t *code;
	size_t n;
	xs_err e;
	memset(p, 0, sizeof(*p));
	if (xs_read_file(path, 64u << 20, &code, &n, &e)) {
		fprintf(stderr, "xs12 demo: %s\n", e.msg);
		return false;
	}
	XS12_KERNEL_BYTECODE kb = { .Magic = XS12_KERNEL_BYTECODE_MAGIC, .KernelName = kernel, .pCodeObject = code,
				    .CodeObjectSize = n };
	bool ok = SUCCEEDED(ID3D12Device_CreateRootSignature(c->dev, 0, &kb, sizeof(kb), &IID_ID3D12RootSignature,
							     (void **)&p->rs));
	D3D12_COMPUTE_PIPELINE_STATE_DESC d = { .pRootSignature = p->rs, .CS = { &kb, sizeof(kb) } };
	ok = ok && SUCCEEDED(ID3D12Device_CreateComputePipelineState(c->dev, &d, &IID_ID3D12PipelineState,
								     (void **)&p->pso));
	free(code);
	if (!ok)
		fprintf(stderr, "xs12 demo: %s: no pipeline of %s\n", path, kernel);
	return ok;
}

static void pipe_free(pipe *p)
{
	if (p->pso) ID3D12PipelineState_Release(p->pso);
	if (p->rs) ID3D12RootSignature_Release(p->rs);
}

static void bind(dctx *c, const pipe *p)
{
	ID3D12GraphicsCommandList6_SetComputeRootSignature(c->l, p->rs);
	ID3D12GraphicsCommandList6_SetPipelineState(c->l, p->pso);
}

/* kernels/model/scratch_chase.cl on the host. */
static uint32_t chase_ref(const uint32_t *in, uint32_t i, uint32_t steps)
{
	uint32_t p[64], x = i & 63u;
	for (uint32_t k = 0; k < 64; k++)
		p[k] = (in[(i * 7u + k) & 1023u] + k) & 63u;
	for (uint32_t s = 0; s < steps; s++)
		x = p[x];
	return x;
}

static bool chase_right(dctx *c, ID3D12Resource *out, const uint32_t *in, uint32_t n, uint32_t steps)
{
	uint32_t *got = malloc(n * 4);
	bool ok = got && readback(c, out, got, n * 4);
	for (uint32_t i = 0; ok && i < n; i++)
		ok = got[i] == chase_ref(in, i, steps);
	free(got);
	return ok;
}

/* scratch_chase(in, out, steps) with the list's ring. */
static void chase(dctx *c, const pipe *p, ID3D12Resource *in, ID3D12Resource *out, UINT groups, UINT steps)
{
	bind(c, p);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c->l, 0, ID3D12Resource_GetGPUVirtualAddress(in));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c->l, 1, ID3D12Resource_GetGPUVirtualAddress(out));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c->l, 2, steps, 0);
	ID3D12GraphicsCommandList6_Dispatch(c->l, groups, 1, 1);
}

/* ---- 1. ring slots ------------------------------------------------------------------------- */

static int story_slots(const char *kdir, const uint32_t *in_host)
{
	dctx c;
	pipe p;
	if (!dopen(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT, NULL) ||
	    !pipeline(&c, kdir, "scratch_chase.O2.w32.hsaco", "scratch_chase", &p))
		return 1;
	ID3DBlob *blob = NULL;
	UINT units = 0;
	if (SUCCEEDED(ID3D12PipelineState_GetInformationX(
		    p.pso, D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW, 0, &blob))) {
		units = *(const UINT *)ID3DBlob_GetBufferPointer(blob);
		ID3DBlob_Release(blob);
	}
	UINT per_wave = units * 1024; /* S1.12 */
	printf("\nD3D12: GetInformationX says scratch_chase needs %u x 256 DWORDs = %u KB of scratch per wave (S1.11).\n"
	       "SetShaderScratchSpaceX(COMPUTE, base, slots x %u KB, %u KB) on 65536 threads, latency-bound:\n",
	       units, per_wave / 1024, per_wave / 1024, per_wave / 1024);
	printf("  %-30s %-8s %-13s %-14s %-10s %s\n", "ring", "slots", "peak scratch", "waves per SIMD", "cycles",
	       "microseconds");
	enum { N = 65536 };
	ID3D12Resource *in = buffer(&c, D3D12_HEAP_TYPE_UPLOAD, 4096, in_host);
	ID3D12Resource *out = buffer(&c, D3D12_HEAP_TYPE_DEFAULT, N * 4, NULL);
	ID3D12Resource *ring = buffer(&c, D3D12_HEAP_TYPE_DEFAULT, (UINT64)per_wave * 1664, NULL);
	const struct { UINT slots; const char *what; } rings[] = {
		{ 8, "8 waves (the documented usage)" }, { 0, "the driver default (S1.8)" },
		{ 416, "a title ring" }, { 1664, "32 per CU, the most (S1.13)" },
	};
	int failures = 0;
	for (size_t i = 0; i < sizeof(rings) / sizeof(rings[0]) && in && out && ring; i++) {
		UINT slots = rings[i].slots;
		ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.l, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
								  slots ? ID3D12Resource_GetGPUVirtualAddress(ring) : 0,
								  (UINT64)per_wave * slots, slots ? per_wave : 0);
		chase(&c, &p, in, out, N / 64, 64); /* the PSO's shape: 64 threads */
		XS12_DISPATCH_STATISTICS st;
		bool ok = SUCCEEDED(submit(&c)) && SUCCEEDED(finish(&c)) &&
			  SUCCEEDED(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.l, 0, &st));
		reopen(&c);
		ok = ok && chase_right(&c, out, in_host, N, 64);
		if (ok)
			printf("  %-30s %-8u %-13u %-14u %-10llu %.1f\n", rings[i].what, st.ScratchSlots, st.PeakScratchSlots,
			       st.PeakWavesPerSimd, (unsigned long long)st.Cycles, st.Microseconds);
		else
			printf("  %-30s FAILED\n", rings[i].what);
		failures += !ok;
	}
	printf("  More slots, more waves in flight to hide latency, until the waves' private arrays\n"
	       "  (about 9 KB each) no longer fit the L2 and thrash it.\n");
	rel(in);
	rel(out);
	rel(ring);
	pipe_free(&p);
	dclose(&c);
	return failures;
}

/* ---- 2. async compute ------------------------------------------------------------------------ */

/* scratch_chase on the direct queue and on an async compute queue at the
 * same time, two inputs; ring = their own rings, else the driver's. */
static int async_pair(const char *kdir, bool debug, bool own, const uint32_t *in1, const uint32_t *in2, bool *right,
		      XS12_DISPATCH_STATISTICS st[2], char *msg, size_t msgn)
{
	dctx d, a;
	pipe p;
	enum { N = 4096 };
	if (!dopen(&d, debug, D3D12_COMMAND_LIST_TYPE_DIRECT, NULL) ||
	    !dopen(&a, debug, D3D12_COMMAND_LIST_TYPE_COMPUTE, d.dev) ||
	    !pipeline(&d, kdir, "scratch_chase.O2.w32.hsaco", "scratch_chase", &p))
		return 1;
	ID3DBlob *blob = NULL;
	UINT per_wave = 0;
	if (SUCCEEDED(ID3D12PipelineState_GetInformationX(
		    p.pso, D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW, 0, &blob))) {
		per_wave = *(const UINT *)ID3DBlob_GetBufferPointer(blob) * 1024;
		ID3DBlob_Release(blob);
	}
	ID3D12Resource *in[2] = { buffer(&d, D3D12_HEAP_TYPE_UPLOAD, 4096, in1), buffer(&d, D3D12_HEAP_TYPE_UPLOAD, 4096, in2) };
	ID3D12Resource *out[2] = { buffer(&d, D3D12_HEAP_TYPE_DEFAULT, N * 4, NULL), buffer(&d, D3D12_HEAP_TYPE_DEFAULT, N * 4, NULL) };
	ID3D12Resource *ring[2] = { buffer(&d, D3D12_HEAP_TYPE_DEFAULT, (UINT64)per_wave * 208, NULL),
				    buffer(&d, D3D12_HEAP_TYPE_DEFAULT, (UINT64)per_wave * 208, NULL) };
	dctx *q[2] = { &d, &a };
	for (int i = 0; i < 2; i++) {
		if (own)
			ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(q[i]->l, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
									  ID3D12Resource_GetGPUVirtualAddress(ring[i]),
									  (UINT64)per_wave * 208, per_wave);
		chase(q[i], &p, in[i], out[i], N / 64, 64);
	}
	*right = false;
	msg[0] = 0;
	HRESULT hr = S_OK;
	for (int i = 0; i < 2 && SUCCEEDED(hr); i++)
		hr = submit(q[i]);
	if (FAILED(hr) && d.iq) {
		/* the debug layer's message: why the compute list failed to Close */
		UINT64 k = ID3D12InfoQueue_GetNumStoredMessages(d.iq);
		SIZE_T len = 0;
		if (k && SUCCEEDED(ID3D12InfoQueue_GetMessage(d.iq, k - 1, NULL, &len))) {
			D3D12_MESSAGE *m = malloc(len);
			if (m && SUCCEEDED(ID3D12InfoQueue_GetMessage(d.iq, k - 1, m, &len)))
				snprintf(msg, msgn, "#%d %s", (int)m->ID, m->pDescription);
			free(m);
		}
	}
	if (SUCCEEDED(hr) && SUCCEEDED(finish(&d)) && SUCCEEDED(finish(&a))) {
		for (int i = 0; i < 2; i++)
			XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)q[i]->l, 0, &st[i]);
		reopen(&d);
		reopen(&a);
		*right = chase_right(&d, out[0], in1, N, 64) && chase_right(&d, out[1], in2, N, 64);
	}
	for (int i = 0; i < 2; i++) {
		rel(in[i]);
		rel(out[i]);
		rel(ring[i]);
	}
	pipe_free(&p);
	dclose(&a);
	dclose(&d);
	return 0;
}

static int story_async(const char *kdir, const uint32_t *in1, const uint32_t *in2)
{
	printf("\nD3D12: scratch_chase on the direct queue and on an async compute queue at once (4096 threads each):\n");
	XS12_DISPATCH_STATISTICS st[2];
	bool right;
	char msg[1200];
	int failures = 0;
	if (async_pair(kdir, true, true, in1, in2, &right, st, msg, sizeof(msg)) || !right ||
	    st[1].StartCycle >= st[0].EndCycle || st[0].StartCycle >= st[1].EndCycle)
		failures++;
	else
		printf("  a ring each (S1.9):              direct %5llu..%-6llu compute %5llu..%-6llu cycles: they overlap, "
		       "results right\n", (unsigned long long)st[0].StartCycle, (unsigned long long)st[0].EndCycle,
		       (unsigned long long)st[1].StartCycle, (unsigned long long)st[1].EndCycle);
	if (async_pair(kdir, true, false, in1, in2, &right, st, msg, sizeof(msg)) || !msg[0])
		failures++;
	else
		printf("  the driver's ring, debug layer:  the compute list fails to Close:\n    %.300s\n", msg);
	if (async_pair(kdir, false, false, in1, in2, &right, st, msg, sizeof(msg)) || right)
		failures++;
	else
		printf("  the driver's ring, no debug:     direct %5llu..%-6llu compute %5llu..%-6llu cycles: the results are "
		       "WRONG\n    (both queues' waves use the one allocation's slots at once: what S1.8 forbids, S1.10)\n",
		       (unsigned long long)st[0].StartCycle, (unsigned long long)st[0].EndCycle,
		       (unsigned long long)st[1].StartCycle, (unsigned long long)st[1].EndCycle);
	return failures;
}

/* ---- 3. launch parameters ---------------------------------------------------------------------- */

static int story_launch(const char *kdir)
{
	dctx c;
	pipe p;
	if (!dopen(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT, NULL) ||
	    !pipeline(&c, kdir, "lds_reduce.O2.w32.hsaco", "lds_reduce_dyn", &p))
		return 1;
	enum { G = 256, NG = 1024, N = G * NG };
	uint32_t *host = malloc(N * 4), *sums = malloc(NG * 4);
	for (uint32_t i = 0; host && i < N; i++)
		host[i] = i * 2654435761u >> 7;
	ID3D12Resource *in = buffer(&c, D3D12_HEAP_TYPE_UPLOAD, N * 4, host);
	ID3D12Resource *out = buffer(&c, D3D12_HEAP_TYPE_DEFAULT, NG * 4, NULL);
	printf("\nD3D12: SetComputeShaderLaunchParametersX on lds_reduce_dyn (sums of 256-thread groups, %u groups):\n"
	       "  %-28s %-14s %-10s %s\n", NG, "LDSSize", "waves per SIMD", "cycles", "result");
	int failures = 0;
	const UINT lds_units[] = { 2, 32, 64, 128 }; /* 1 KB .. 64 KB: fewer groups fit a WGP's 128 KB (S3.3, S3.6) */
	for (size_t i = 0; i < sizeof(lds_units) / sizeof(lds_units[0]) && in && out && host && sums; i++) {
		D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS lp;
		memset(&lp, 0, sizeof(lp));
		lp.Flags = D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_LDS_SIZE |
			   D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_NUM_THREADS;
		lp.LDSSize = lds_units[i];
		lp.NumThreadX = G;
		lp.NumThreadY = lp.NumThreadZ = 1;
		ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(c.l, &lp);
		bind(&c, &p);
		ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.l, 0, ID3D12Resource_GetGPUVirtualAddress(in));
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.l, 1, ID3D12Resource_GetGPUVirtualAddress(out));
		ID3D12GraphicsCommandList6_Dispatch(c.l, NG, 1, 1);
		XS12_DISPATCH_STATISTICS st;
		bool ok = SUCCEEDED(submit(&c)) && SUCCEEDED(finish(&c)) &&
			  SUCCEEDED(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.l, 0, &st));
		reopen(&c);
		ok = ok && readback(&c, out, sums, NG * 4);
		for (uint32_t g = 0; ok && g < NG; g++) {
			uint32_t s = 0;
			for (uint32_t k = 0; k < G; k++)
				s += host[g * G + k];
			ok = sums[g] == s;
		}
		char what[64];
		snprintf(what, sizeof(what), "%u x 512 B = %u KB", lds_units[i], lds_units[i] / 2);
		printf("  %-28s %-14u %-10llu %s\n", what, st.PeakWavesPerSimd, (unsigned long long)st.Cycles,
		       ok ? "ok" : "WRONG");
		failures += !ok;
	}
	printf("  The kernel asks for no LDS of its own size: what it gets is the launch parameters'\n"
	       "  LDSSize, and the more a group takes, the fewer groups share a WGP's 128 KB.\n");
	free(host);
	free(sums);
	rel(in);
	rel(out);
	pipe_free(&p);
	dclose(&c);
	return failures;
}

int xs_cli_demo_d3d12(const char *kdir)
{
	uint32_t *in1 = malloc(4096), *in2 = malloc(4096);
	if (!in1 || !in2)
		return 1;
	for (uint32_t i = 0; i < 1024; i++) {
		in1[i] = i * 2654435761u >> 5;
		in2[i] = (i * 7u + 3u) * 40503u;
	}
	int failures = story_slots(kdir, in1);
	failures += story_async(kdir, in1, in2);
	failures += story_launch(kdir);
	free(in1);
	free(in2);
	return failures;
}
