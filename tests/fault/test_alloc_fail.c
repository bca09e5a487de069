/* Host allocation failure at every allocation site of a creation path
 * (the fault-injection hook of src/common/xs_alloc.h). Each path is run
 * once to count its allocations, then again failing the 1st, the 2nd, ...
 * of them in turn. Each failing run must return the API's out-of-memory
 * error with a NULL out pointer and leave nothing behind: the device's
 * reference count is where it was, LeakSanitizer (the san build) finds no
 * block at exit, and the device still runs vadd with the CPU's sums. */
#include "../d3d12/d3d12_util.h"
#include "common/xs_alloc.h"
#include "xs12/xs12.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const char *vadd_path, *vs_path, *ps_path, *rt_path, *fat_vs_path;

enum { N = 256 };

/* A device with the vadd pipeline and its buffers: the "device still
 * works" check of every failing run. */
typedef struct env {
	t_ctx c;
	ID3D12PipelineState *vadd;
	ID3D12Resource *a, *b, *out;
	ID3D12CommandAllocator *list_alloc;
	ID3D12PipelineState *draw_pso; /* the draw walk's, made on first use */
	ID3D12Resource *rt;
	ID3D12DescriptorHeap *rtvs;
	float ha[N], hb[N];
	void *vadd_code;
	size_t vadd_size;
	uint32_t round; /* changes the inputs, so a stale result shows */
} env;

static void env_open(env *e, bool debug)
{
	memset(e, 0, sizeof(*e));
	t_open(&e->c, debug, D3D12_COMMAND_LIST_TYPE_DIRECT);
	HRESULT hr;
	e->vadd = t_pipeline(&e->c, vadd_path, NULL, &hr);
	assert_int_equal(hr, S_OK);
	e->a = t_buffer(&e->c, D3D12_HEAP_TYPE_UPLOAD, sizeof(e->ha));
	e->b = t_buffer(&e->c, D3D12_HEAP_TYPE_UPLOAD, sizeof(e->hb));
	e->out = t_buffer(&e->c, D3D12_HEAP_TYPE_DEFAULT, sizeof(e->ha));
	e->vadd_code = t_read_file(vadd_path, &e->vadd_size);
	assert_int_equal(ID3D12Device_CreateCommandAllocator(e->c.dev, D3D12_COMMAND_LIST_TYPE_DIRECT,
							     &IID_ID3D12CommandAllocator, (void **)&e->list_alloc), S_OK);
}

static void env_close(env *e)
{
	ID3D12PipelineState_Release(e->vadd);
	ID3D12Resource_Release(e->a);
	ID3D12Resource_Release(e->b);
	ID3D12Resource_Release(e->out);
	free(e->vadd_code);
	if (e->draw_pso) {
		ID3D12PipelineState_Release(e->draw_pso);
		ID3D12Resource_Release(e->rt);
		ID3D12DescriptorHeap_Release(e->rtvs);
	}
	ID3D12CommandAllocator_Release(e->list_alloc);
	t_close(&e->c);
}

static void put(ID3D12Resource *r, const float *v)
{
	void *p;
	assert_int_equal(ID3D12Resource_Map(r, 0, NULL, &p), S_OK);
	memcpy(p, v, N * sizeof(float));
	ID3D12Resource_Unmap(r, 0, NULL);
}

/* vadd on the device of c with fresh inputs, against the CPU's sums. */
static void vadd_on(t_ctx *c, ID3D12PipelineState *p, ID3D12Resource *a, ID3D12Resource *b, ID3D12Resource *out,
		    uint32_t round)
{
	float ha[N], hb[N], got[N];
	for (int i = 0; i < N; i++) {
		ha[i] = (float)(i + round);
		hb[i] = 0.25f * (float)i - (float)round;
	}
	put(a, ha);
	put(b, hb);
	t_set_pipeline(c, p);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c->list, 0, ID3D12Resource_GetGPUVirtualAddress(a));
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c->list, 1, ID3D12Resource_GetGPUVirtualAddress(b));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c->list, 2, ID3D12Resource_GetGPUVirtualAddress(out));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c->list, 3, N, 0);
	ID3D12GraphicsCommandList6_Dispatch(c->list, N / 64, 1, 1);
	assert_int_equal(t_run(c), S_OK);
	t_read(c, out, got, sizeof(got));
	for (int i = 0; i < N; i++)
		if (got[i] != ha[i] + hb[i])
			fail_msg("vadd after a failed allocation: c[%d] = %g, want %g", i, (double)got[i], (double)(ha[i] + hb[i]));
}

static void works(env *e) { vadd_on(&e->c, e->vadd, e->a, e->b, e->out, ++e->round); }

static ULONG device_refs(ID3D12Device *d)
{
	ID3D12Device_AddRef(d);
	return ID3D12Device_Release(d);
}

/* One creation path: makes its object (or runs its calls) and returns the
 * first failing HRESULT; *out is the object made, or whatever the API left
 * there. release undoes a success. */
typedef struct path {
	const char *name;
	HRESULT (*make)(env *e, void **out);
	void (*release)(env *e, void *obj);
	HRESULT oom; /* the error the API documents for out of memory */
	bool no_out; /* the path has no out pointer (execution) */
	void (*prepare)(env *e);          /* before the hook is armed */
	void (*check)(env *e, HRESULT hr); /* after it is disarmed */
	bool removes; /* a failure removes the device (the walk checks that and makes a new one) */
} path;

static void release_unknown(env *e, void *obj)
{
	(void)e;
	IUnknown_Release((IUnknown *)obj);
}

#define PATH(n, m, r, o) { .name = n, .make = m, .release = r, .oom = o }

/* Counts the path's allocations, then fails each in turn: only that one
 * (sticky = false: the error paths run with memory, which finds the ones
 * that swallow a failure), or that one and every later one (sticky: the
 * cleanup paths have none either). A path may allocate less once a cache
 * is warm, so the walk goes on until a run no injected failure reached. */
static void walk_mode(env *e, const path *p, bool sticky)
{
	void *obj = NULL;
	if (p->prepare)
		p->prepare(e);
	long n0 = xs_alloc_count();
	assert_int_equal(p->make(e, &obj), S_OK);
	long n = xs_alloc_count() - n0;
	if (p->check)
		p->check(e, S_OK);
	if (p->release && obj)
		p->release(e, obj);
	works(e);
	long failed_clean = 0, absorbed = 0;
	for (long k = 0;; k++) {
		assert_true(k < 4 * n + 16); /* a walk ends */
		obj = (void *)(uintptr_t)0x5a5a; /* must become NULL on failure */
		if (p->prepare)
			p->prepare(e);
		ULONG refs = device_refs(e->c.dev);
		long f0 = xs_alloc_failed();
		xs_alloc_fail_after(k, sticky);
		HRESULT hr = p->make(e, &obj);
		xs_alloc_fail_after(-1, false);
		if (p->check)
			p->check(e, hr);
		bool hit = xs_alloc_failed() > f0;
		if (!hit) {
			assert_int_equal(hr, S_OK);
			if (p->release && obj)
				p->release(e, obj);
			if (k >= n)
				break;
			continue;
		}
		if (SUCCEEDED(hr)) {
			/* the failure was absorbed (an optional allocation): the
			 * object must then be whole, which works() and the
			 * release below check */
			absorbed++;
			if (getenv("XS12_FAULT_VERBOSE"))
				printf("#   absorbed: allocation %ld\n", k + 1);
			if (p->release && obj)
				p->release(e, obj);
		} else {
			if (hr != p->oom)
				fail_msg("%s: allocation %ld of %ld failed: HRESULT 0x%08x, want 0x%08x", p->name, k + 1, n,
					 (unsigned)hr, (unsigned)p->oom);
			if (!p->no_out && obj != NULL)
				fail_msg("%s: allocation %ld of %ld failed: the out pointer is %p, not NULL", p->name, k + 1,
					 n, obj);
			failed_clean++;
		}
		if (p->removes && FAILED(hr)) {
			/* removed: the fence reads UINT64_MAX, later calls fail cleanly */
			assert_true(ID3D12Fence_GetCompletedValue(e->c.fence) == UINT64_MAX);
			assert_int_equal(ID3D12CommandQueue_Signal(e->c.queue, e->c.fence, 1), DXGI_ERROR_DEVICE_REMOVED);
			bool debug = e->c.iq != NULL;
			env_close(e);
			env_open(e, debug);
			works(e);
			continue;
		}
		if (device_refs(e->c.dev) != refs)
			fail_msg("%s: allocation %ld failed: the device holds %u references, %u before (a half-made object)",
				 p->name, k + 1, (unsigned)device_refs(e->c.dev), (unsigned)refs);
		works(e);
	}
	printf("# %-40s %4ld allocations: %ld failed with 0x%08x, %ld absorbed (%s)\n", p->name, n, failed_clean,
	       (unsigned)p->oom, absorbed, sticky ? "sticky" : "one at a time");
	assert_true(failed_clean > 0 || n == 0);
}

static void walk(env *e, const path *p)
{
	walk_mode(e, p, false);
	walk_mode(e, p, true);
}

/* ---- the paths ------------------------------------------------------------------ */

static HRESULT make_device(env *e, void **out, bool debug)
{
	(void)e;
	XS12_DEVICE_DESC d = { .Machine = XS12_MACHINE_SERIES_X, .DebugLayer = debug };
	return XS12CreateDevice(&d, &IID_ID3D12Device, out);
}
static HRESULT make_device_plain(env *e, void **out) { return make_device(e, out, false); }
static HRESULT make_device_debug(env *e, void **out) { return make_device(e, out, true); }
static HRESULT make_d3d12_device(env *e, void **out)
{
	(void)e;
	return D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_12_0, &IID_ID3D12Device, out);
}

static HRESULT make_committed(env *e, void **out)
{
	D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
	D3D12_RESOURCE_DESC rd = {
		.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = 1 << 20, .Height = 1, .DepthOrArraySize = 1,
		.MipLevels = 1, .SampleDesc = { 1, 0 }, .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
		.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS,
	};
	return ID3D12Device_CreateCommittedResource(e->c.dev, &hp, D3D12_HEAP_FLAG_NONE, &rd, D3D12_RESOURCE_STATE_COMMON,
						    NULL, &IID_ID3D12Resource, out);
}

static HRESULT make_texture(env *e, void **out)
{
	D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
	D3D12_RESOURCE_DESC rd = {
		.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D, .Width = 64, .Height = 64, .DepthOrArraySize = 1,
		.MipLevels = 1, .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { 1, 0 },
		.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
	};
	return ID3D12Device_CreateCommittedResource(e->c.dev, &hp, D3D12_HEAP_FLAG_NONE, &rd,
						    D3D12_RESOURCE_STATE_RENDER_TARGET, NULL, &IID_ID3D12Resource, out);
}

static HRESULT make_rtv_heap(env *e, void **out)
{
	D3D12_DESCRIPTOR_HEAP_DESC hd = { .Type = D3D12_DESCRIPTOR_HEAP_TYPE_RTV, .NumDescriptors = 8 };
	return ID3D12Device_CreateDescriptorHeap(e->c.dev, &hd, &IID_ID3D12DescriptorHeap, out);
}

static HRESULT make_query_heap(env *e, void **out)
{
	D3D12_QUERY_HEAP_DESC qd = { .Type = D3D12_QUERY_HEAP_TYPE_TIMESTAMP, .Count = 16 };
	return ID3D12Device_CreateQueryHeap(e->c.dev, &qd, &IID_ID3D12QueryHeap, out);
}

static HRESULT make_fence(env *e, void **out)
{
	return ID3D12Device_CreateFence(e->c.dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, out);
}

static HRESULT make_queue(env *e, void **out)
{
	D3D12_COMMAND_QUEUE_DESC qd = { .Type = D3D12_COMMAND_LIST_TYPE_COMPUTE };
	return ID3D12Device_CreateCommandQueue(e->c.dev, &qd, &IID_ID3D12CommandQueue, out);
}

static HRESULT make_allocator(env *e, void **out)
{
	return ID3D12Device_CreateCommandAllocator(e->c.dev, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator, out);
}

/* A list records into an allocator of its own: t_ctx's has its list open. */
static HRESULT make_list(env *e, void **out)
{
	return ID3D12Device_CreateCommandList(e->c.dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, e->list_alloc, NULL,
					      &IID_ID3D12GraphicsCommandList, out);
}

static HRESULT make_command_signature(env *e, void **out)
{
	D3D12_INDIRECT_ARGUMENT_DESC a = { .Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH };
	D3D12_COMMAND_SIGNATURE_DESC d = { .ByteStride = 12, .NumArgumentDescs = 1, .pArgumentDescs = &a };
	return ID3D12Device_CreateCommandSignature(e->c.dev, &d, NULL, &IID_ID3D12CommandSignature, out);
}

static HRESULT make_root_signature(env *e, void **out)
{
	return ID3D12Device_CreateRootSignature(e->c.dev, 0, e->vadd_code, e->vadd_size, &IID_ID3D12RootSignature, out);
}

static HRESULT make_serialized_root_signature(env *e, void **out)
{
	D3D12_ROOT_PARAMETER p[2] = {
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV, .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, .Constants = { 0, 0, 4 },
		  .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL },
	};
	D3D12_ROOT_SIGNATURE_DESC d = { .NumParameters = 2, .pParameters = p };
	ID3DBlob *blob = NULL;
	HRESULT hr = D3D12SerializeRootSignature(&d, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, NULL);
	if (FAILED(hr)) {
		*out = blob;
		return hr;
	}
	hr = ID3D12Device_CreateRootSignature(e->c.dev, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
					      &IID_ID3D12RootSignature, out);
	ID3D10Blob_Release(blob);
	return hr;
}

static HRESULT make_compute_pso(env *e, void **out)
{
	ID3D12RootSignature *rs = NULL;
	HRESULT hr = ID3D12Device_CreateRootSignature(e->c.dev, 0, e->vadd_code, e->vadd_size, &IID_ID3D12RootSignature,
						      (void **)&rs);
	if (FAILED(hr)) {
		*out = NULL;
		return hr;
	}
	D3D12_COMPUTE_PIPELINE_STATE_DESC d = { .pRootSignature = rs, .CS = { e->vadd_code, e->vadd_size } };
	hr = ID3D12Device_CreateComputePipelineState(e->c.dev, &d, &IID_ID3D12PipelineState, out);
	ID3D12RootSignature_Release(rs);
	return hr;
}

static void *vs_code, *ps_code;
static size_t vs_size, ps_size;

static HRESULT make_graphics_pso(env *e, void **out)
{
	static const D3D12_INPUT_ELEMENT_DESC layout[2] = {
		{ "POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
		{ "COLOR", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, D3D12_APPEND_ALIGNED_ELEMENT,
		  D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
	};
	ID3D12RootSignature *rs = NULL;
	D3D12_ROOT_SIGNATURE_DESC rd = { .Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT };
	ID3DBlob *blob = NULL;
	HRESULT hr = D3D12SerializeRootSignature(&rd, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, NULL);
	if (SUCCEEDED(hr)) {
		hr = ID3D12Device_CreateRootSignature(e->c.dev, 0, ID3D10Blob_GetBufferPointer(blob),
						      ID3D10Blob_GetBufferSize(blob), &IID_ID3D12RootSignature, (void **)&rs);
		ID3D10Blob_Release(blob);
	}
	if (FAILED(hr)) {
		*out = NULL;
		return hr;
	}
	D3D12_GRAPHICS_PIPELINE_STATE_DESC d = t_gfx_desc(vs_code, vs_size, ps_code, ps_size);
	d.pRootSignature = rs;
	d.InputLayout.pInputElementDescs = layout;
	d.InputLayout.NumElements = 2;
	hr = ID3D12Device_CreateGraphicsPipelineState(e->c.dev, &d, &IID_ID3D12PipelineState, out);
	ID3D12RootSignature_Release(rs);
	return hr;
}

static void *rt_code;
static size_t rt_size;

static HRESULT make_state_object(env *e, void **out)
{
	D3D12_ROOT_PARAMETER p[2] = {
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV, .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, .Constants = { 0, 0, 1 },
		  .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL },
	};
	D3D12_ROOT_SIGNATURE_DESC rd = { .NumParameters = 2, .pParameters = p };
	ID3DBlob *blob = NULL;
	ID3D12RootSignature *rs = NULL;
	HRESULT hr = D3D12SerializeRootSignature(&rd, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, NULL);
	if (SUCCEEDED(hr)) {
		hr = ID3D12Device_CreateRootSignature(e->c.dev, 0, ID3D10Blob_GetBufferPointer(blob),
						      ID3D10Blob_GetBufferSize(blob), &IID_ID3D12RootSignature, (void **)&rs);
		ID3D10Blob_Release(blob);
	}
	if (FAILED(hr)) {
		*out = NULL;
		return hr;
	}
	static const D3D12_EXPORT_DESC named[] = {
		{ L"RayGen", L"rg_calls", 0 }, { L"MissA", L"miss_add", 0 }, { L"MissB", L"miss_mul", 0 },
		{ L"Sq", L"callable_sq", 0 }, { L"Chs", L"chs_nop", 0 }, { L"Ahs", L"ahs_nop", 0 },
	};
	D3D12_DXIL_LIBRARY_DESC lib = { { rt_code, rt_size }, 6, (D3D12_EXPORT_DESC *)named };
	D3D12_HIT_GROUP_DESC hit = { L"HG", D3D12_HIT_GROUP_TYPE_TRIANGLES, L"Ahs", L"Chs", NULL };
	D3D12_RAYTRACING_SHADER_CONFIG sc = { 16, 8 };
	D3D12_RAYTRACING_PIPELINE_CONFIG pc = { 2 };
	D3D12_GLOBAL_ROOT_SIGNATURE g = { rs };
	D3D12_STATE_SUBOBJECT sub[] = {
		{ D3D12_STATE_SUBOBJECT_TYPE_DXIL_LIBRARY, &lib }, { D3D12_STATE_SUBOBJECT_TYPE_HIT_GROUP, &hit },
		{ D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_SHADER_CONFIG, &sc },
		{ D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_PIPELINE_CONFIG, &pc },
		{ D3D12_STATE_SUBOBJECT_TYPE_GLOBAL_ROOT_SIGNATURE, &g },
	};
	D3D12_STATE_OBJECT_DESC d = { D3D12_STATE_OBJECT_TYPE_RAYTRACING_PIPELINE, 5, sub };
	ID3D12Device5 *dev5;
	assert_int_equal(ID3D12Device_QueryInterface(e->c.dev, &IID_ID3D12Device5, (void **)&dev5), S_OK);
	hr = ID3D12Device5_CreateStateObject(dev5, &d, &IID_ID3D12StateObject, out);
	ID3D12Device5_Release(dev5);
	ID3D12RootSignature_Release(rs);
	return hr;
}

/* Recording: a fresh allocator and list (an allocator keeps its chunks
 * through Reset, so a reused one would allocate nothing), many dispatches
 * (more PM4 and kernarg memory than one chunk holds) and Close. Recording
 * calls return nothing: the first failure is Close's (D3D12's rule). */
static ID3D12CommandAllocator *rec_alloc;
static const GUID root_guid = { 0x78733132, 0x7274, 0x4f6f, { 0x80, 0x01, 0x72, 0x6f, 0x6f, 0x74, 0x73, 0x67 } };

static HRESULT make_recording(env *e, void **out)
{
	*out = NULL;
	rec_alloc = NULL;
	ID3D12GraphicsCommandList *l = NULL;
	HRESULT hr = ID3D12Device_CreateCommandAllocator(e->c.dev, D3D12_COMMAND_LIST_TYPE_DIRECT,
							 &IID_ID3D12CommandAllocator, (void **)&rec_alloc);
	if (SUCCEEDED(hr))
		hr = ID3D12Device_CreateCommandList(e->c.dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, rec_alloc, NULL,
						    &IID_ID3D12GraphicsCommandList, (void **)&l);
	if (FAILED(hr)) {
		if (rec_alloc)
			ID3D12CommandAllocator_Release(rec_alloc);
		return hr;
	}
	ID3D12RootSignature *rs = NULL;
	UINT size = sizeof(rs);
	/* t_pipeline keeps the pipeline's root signature as private data */
	assert_int_equal(ID3D12PipelineState_GetPrivateData(e->vadd, &root_guid, &size, &rs), S_OK);
	ID3D12GraphicsCommandList_SetComputeRootSignature(l, rs);
	ID3D12RootSignature_Release(rs);
	ID3D12GraphicsCommandList_SetPipelineState(l, e->vadd);
	D3D12_RESOURCE_BARRIER bar = { .Type = D3D12_RESOURCE_BARRIER_TYPE_UAV };
	for (int i = 0; i < 300; i++) {
		ID3D12GraphicsCommandList_SetComputeRootShaderResourceView(l, 0, ID3D12Resource_GetGPUVirtualAddress(e->a));
		ID3D12GraphicsCommandList_SetComputeRootShaderResourceView(l, 1, ID3D12Resource_GetGPUVirtualAddress(e->b));
		ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(l, 2, ID3D12Resource_GetGPUVirtualAddress(e->out));
		ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(l, 3, N - (UINT)i % 7, 0);
		ID3D12GraphicsCommandList_Dispatch(l, N / 64, 1, 1);
		ID3D12GraphicsCommandList_ResourceBarrier(l, 1, &bar);
	}
	hr = ID3D12GraphicsCommandList_Close(l);
	if (FAILED(hr)) {
		ID3D12GraphicsCommandList_Release(l);
		ID3D12CommandAllocator_Release(rec_alloc);
		return hr;
	}
	*out = l;
	return S_OK;
}

/* Runs the recorded list: the walk's last one, recorded without a failure. */
static void release_recording(env *e, void *obj)
{
	ID3D12CommandList *l = obj;
	ID3D12CommandQueue_ExecuteCommandLists(e->c.queue, 1, &l);
	assert_int_equal(ID3D12CommandQueue_Signal(e->c.queue, e->c.fence, ++e->c.fence_value), S_OK);
	assert_int_equal(ID3D12Fence_SetEventOnCompletion(e->c.fence, e->c.fence_value, NULL), S_OK);
	assert_int_equal(ID3D12Device_GetDeviceRemovedReason(e->c.dev), S_OK);
	ID3D12CommandList_Release(l);
	ID3D12CommandAllocator_Release(rec_alloc);
}

static void walk_paths(bool debug, const path *paths, size_t n)
{
	env e;
	env_open(&e, debug);
	for (size_t i = 0; i < n; i++)
		walk(&e, &paths[i]);
	env_close(&e);
}

static void device_creation(void **state)
{
	(void)state;
	const path paths[] = {
		PATH("XS12CreateDevice", make_device_plain, release_unknown, E_OUTOFMEMORY),
		PATH("XS12CreateDevice (debug layer)", make_device_debug, release_unknown, E_OUTOFMEMORY),
		PATH("D3D12CreateDevice", make_d3d12_device, release_unknown, E_OUTOFMEMORY),
	};
	walk_paths(false, paths, sizeof(paths) / sizeof(paths[0]));
	/* a device made after the walk works */
	env e;
	env_open(&e, true);
	works(&e);
	env_close(&e);
}

static const path object_paths[] = {
	PATH("CreateCommittedResource (buffer)", make_committed, release_unknown, E_OUTOFMEMORY),
	PATH("CreateCommittedResource (texture)", make_texture, release_unknown, E_OUTOFMEMORY),
	PATH("CreateDescriptorHeap (RTV)", make_rtv_heap, release_unknown, E_OUTOFMEMORY),
	PATH("CreateQueryHeap", make_query_heap, release_unknown, E_OUTOFMEMORY),
	PATH("CreateFence", make_fence, release_unknown, E_OUTOFMEMORY),
	PATH("CreateCommandQueue", make_queue, release_unknown, E_OUTOFMEMORY),
	PATH("CreateCommandAllocator", make_allocator, release_unknown, E_OUTOFMEMORY),
	PATH("CreateCommandList", make_list, release_unknown, E_OUTOFMEMORY),
	PATH("CreateCommandSignature", make_command_signature, release_unknown, E_OUTOFMEMORY),
	PATH("CreateRootSignature (from code object)", make_root_signature, release_unknown, E_OUTOFMEMORY),
	PATH("CreateRootSignature (serialized)", make_serialized_root_signature, release_unknown, E_OUTOFMEMORY),
	PATH("CreateComputePipelineState", make_compute_pso, release_unknown, E_OUTOFMEMORY),
};

static void object_creation(void **state)
{
	(void)state;
	walk_paths(false, object_paths, sizeof(object_paths) / sizeof(object_paths[0]));
}

static void object_creation_debug(void **state)
{
	(void)state;
	walk_paths(true, object_paths, sizeof(object_paths) / sizeof(object_paths[0]));
}

static void graphics_pipeline(void **state)
{
	(void)state;
	vs_code = t_read_file(vs_path, &vs_size);
	ps_code = t_read_file(ps_path, &ps_size);
	const path p = PATH("CreateGraphicsPipelineState", make_graphics_pso, release_unknown, E_OUTOFMEMORY);
	walk_paths(true, &p, 1);
	free(vs_code);
	free(ps_code);
}

static void state_object(void **state)
{
	(void)state;
	if (!rt_path)
		skip();
	rt_code = t_read_file(rt_path, &rt_size);
	const path p = PATH("CreateStateObject (ray pipeline)", make_state_object, release_unknown, E_OUTOFMEMORY);
	walk_paths(true, &p, 1);
	free(rt_code);
}

static void recording(void **state)
{
	(void)state;
	const path p[] = {
		PATH("recording + Close", make_recording, release_recording, E_OUTOFMEMORY),
	};
	walk_paths(false, p, 1);
	const path q[] = {
		PATH("recording + Close (debug layer)", make_recording, release_recording, E_OUTOFMEMORY),
	};
	walk_paths(true, q, 1);
}

/* ExecuteCommandLists (and Signal, the wait): vadd recorded before the
 * hook is armed, run under it. ExecuteCommandLists returns nothing: a
 * submission that ran out of memory must not look like one that ran, so
 * either the sums are right or the device says why not. */
static float exec_want[N];

static void prepare_execute(env *e)
{
	float ha[N], hb[N];
	e->round++;
	for (int i = 0; i < N; i++) {
		ha[i] = (float)(2 * i) - (float)e->round;
		hb[i] = (float)e->round * 0.5f;
		exec_want[i] = ha[i] + hb[i];
	}
	put(e->a, ha);
	put(e->b, hb);
	float zero[N] = { 0 };
	ID3D12Resource *z = t_upload(&e->c, zero, sizeof(zero));
	ID3D12GraphicsCommandList6_CopyBufferRegion(e->c.list, e->out, 0, z, 0, sizeof(zero));
	assert_int_equal(t_run(&e->c), S_OK);
	ID3D12Resource_Release(z);
	t_set_pipeline(&e->c, e->vadd);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(e->c.list, 0, ID3D12Resource_GetGPUVirtualAddress(e->a));
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(e->c.list, 1, ID3D12Resource_GetGPUVirtualAddress(e->b));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(e->c.list, 2, ID3D12Resource_GetGPUVirtualAddress(e->out));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(e->c.list, 3, N, 0);
	ID3D12GraphicsCommandList6_Dispatch(e->c.list, N / 64, 1, 1);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(e->c.list), S_OK);
}

static HRESULT make_execute(env *e, void **out)
{
	*out = NULL;
	ID3D12CommandList *l = (ID3D12CommandList *)e->c.list;
	ID3D12CommandQueue_ExecuteCommandLists(e->c.queue, 1, &l);
	HRESULT hr = ID3D12CommandQueue_Signal(e->c.queue, e->c.fence, ++e->c.fence_value);
	if (SUCCEEDED(hr))
		hr = ID3D12Fence_SetEventOnCompletion(e->c.fence, e->c.fence_value, NULL);
	/* after a removal Signal says DEVICE_REMOVED; the reason is the device's */
	HRESULT why = ID3D12Device_GetDeviceRemovedReason(e->c.dev);
	return FAILED(why) ? why : hr;
}

static void check_execute(env *e, HRESULT hr)
{
	assert_int_equal(ID3D12CommandAllocator_Reset(e->c.alloc), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(e->c.list, e->c.alloc, NULL), S_OK);
	if (FAILED(hr) || ID3D12Device_GetDeviceRemovedReason(e->c.dev) != S_OK)
		return;
	float got[N];
	t_read(&e->c, e->out, got, sizeof(got));
	for (int i = 0; i < N; i++)
		if (got[i] != exec_want[i])
			fail_msg("ExecuteCommandLists under a failed allocation: S_OK, but c[%d] = %g, want %g (the "
				 "work was lost)", i, (double)got[i], (double)exec_want[i]);
}

static void execution(void **state)
{
	(void)state;
	const path p = { .name = "ExecuteCommandLists + Signal + wait", .make = make_execute, .oom = E_OUTOFMEMORY,
			 .no_out = true, .prepare = prepare_execute, .check = check_execute, .removes = true };
	walk_paths(false, &p, 1);
	const path q = { .name = "ExecuteCommandLists (debug layer)", .make = make_execute, .oom = E_OUTOFMEMORY,
			 .no_out = true, .prepare = prepare_execute, .check = check_execute, .removes = true };
	walk_paths(true, &q, 1);
}

/* A draw through ExecuteCommandLists: the graphics pipe's allocations at
 * draw time (draw state, parameter cache, PS waves, LDS). A draw that ran
 * writes as many pixels as the walk's first, unfailed one. */
static void *fat_vs_code;
static size_t fat_vs_size;
static UINT64 draw_pixels;

static void prepare_draw(env *e)
{
	if (!e->draw_pso) {
		D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
		D3D12_RESOURCE_DESC rd = { .Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D, .Width = 16, .Height = 16,
					   .DepthOrArraySize = 1, .MipLevels = 1, .Format = DXGI_FORMAT_R8G8B8A8_UNORM,
					   .SampleDesc = { 1, 0 }, .Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET };
		assert_int_equal(ID3D12Device_CreateCommittedResource(e->c.dev, &hp, D3D12_HEAP_FLAG_NONE, &rd,
								      D3D12_RESOURCE_STATE_RENDER_TARGET, NULL,
								      &IID_ID3D12Resource, (void **)&e->rt), S_OK);
		D3D12_DESCRIPTOR_HEAP_DESC hd = { .Type = D3D12_DESCRIPTOR_HEAP_TYPE_RTV, .NumDescriptors = 1 };
		assert_int_equal(ID3D12Device_CreateDescriptorHeap(e->c.dev, &hd, &IID_ID3D12DescriptorHeap,
								   (void **)&e->rtvs), S_OK);
		ID3D12Device_CreateRenderTargetView(e->c.dev, e->rt, NULL,
						    ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(e->rtvs));
		D3D12_GRAPHICS_PIPELINE_STATE_DESC d = t_gfx_desc(fat_vs_code, fat_vs_size, ps_code, ps_size);
		assert_int_equal(ID3D12Device_CreateGraphicsPipelineState(e->c.dev, &d, &IID_ID3D12PipelineState,
									  (void **)&e->draw_pso), S_OK);
	}
	ID3D12GraphicsCommandList6 *l = e->c.list;
	ID3D12GraphicsCommandList6_SetPipelineState(l, e->draw_pso);
	ID3D12GraphicsCommandList6_IASetPrimitiveTopology(l, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
	D3D12_VIEWPORT vp = { 0, 0, 16, 16, 0, 1 };
	D3D12_RECT sc = { 0, 0, 16, 16 };
	ID3D12GraphicsCommandList6_RSSetViewports(l, 1, &vp);
	ID3D12GraphicsCommandList6_RSSetScissorRects(l, 1, &sc);
	D3D12_CPU_DESCRIPTOR_HANDLE rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(e->rtvs);
	ID3D12GraphicsCommandList6_OMSetRenderTargets(l, 1, &rtv, FALSE, NULL);
	ID3D12GraphicsCommandList6_DrawInstanced(l, 3 * 64, 1, 0, 0);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(l), S_OK);
}

static void check_draw(env *e, HRESULT hr)
{
	if (SUCCEEDED(hr) && ID3D12Device_GetDeviceRemovedReason(e->c.dev) == S_OK) {
		XS12_DRAW_STATISTICS st;
		assert_int_equal(XS12GetDrawStatistics((ID3D12GraphicsCommandList *)e->c.list, 0, &st), S_OK);
		if (!draw_pixels)
			draw_pixels = st.PixelsWritten; /* the counting run's */
		assert_true(draw_pixels > 0);
		if (st.PixelsWritten != draw_pixels)
			fail_msg("a draw under a failed allocation wrote %llu pixels, the unfailed one %llu",
				 (unsigned long long)st.PixelsWritten, (unsigned long long)draw_pixels);
	}
	assert_int_equal(ID3D12CommandAllocator_Reset(e->c.alloc), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(e->c.list, e->c.alloc, NULL), S_OK);
}

static void draw_execution(void **state)
{
	(void)state;
	fat_vs_code = t_read_file(fat_vs_path, &fat_vs_size);
	ps_code = t_read_file(ps_path, &ps_size);
	const path p = { .name = "ExecuteCommandLists of a draw", .make = make_execute, .oom = E_OUTOFMEMORY,
			 .no_out = true, .prepare = prepare_draw, .check = check_draw, .removes = true };
	walk_paths(true, &p, 1);
	free(fat_vs_code);
	free(ps_code);
}

/* Small paths: SetPrivateData (a new GUID: the entry and its copy), SetName,
 * and XS12CreateEvent (NULL when it cannot make one). */
static const GUID test_guid = { 0x12345678, 0x1234, 0x5678, { 1, 2, 3, 4, 5, 6, 7, 8 } };

static HRESULT make_private_data(env *e, void **out)
{
	(void)out;
	static const char data[] = "private bytes";
	HRESULT hr = ID3D12Resource_SetPrivateData(e->out, &test_guid, sizeof(data), data);
	char back[sizeof(data)] = "";
	UINT size = sizeof(back);
	HRESULT got = ID3D12Resource_GetPrivateData(e->out, &test_guid, &size, back);
	if (SUCCEEDED(hr)) {
		assert_int_equal(got, S_OK);
		assert_string_equal(back, data);
		ID3D12Resource_SetPrivateData(e->out, &test_guid, 0, NULL); /* removes it */
	} else {
		assert_int_equal(got, DXGI_ERROR_NOT_FOUND); /* no entry without its data */
	}
	return hr;
}

static HRESULT make_event(env *e, void **out)
{
	(void)e;
	(void)out;
	HANDLE ev = XS12CreateEvent();
	if (!ev)
		return E_OUTOFMEMORY;
	XS12CloseEvent(ev);
	return S_OK;
}

static void small_paths(void **state)
{
	(void)state;
	const path p[] = {
		{ .name = "SetPrivateData", .make = make_private_data, .oom = E_OUTOFMEMORY, .no_out = true },
		{ .name = "XS12CreateEvent", .make = make_event, .oom = E_OUTOFMEMORY, .no_out = true },
	};
	walk_paths(true, p, 2);
}

/* With DRED on (breadcrumbs: the list's op history and its copy at
 * submission), recording and execution again. */
static void with_dred(void **state)
{
	(void)state;
	ID3D12DeviceRemovedExtendedDataSettings *s;
	assert_int_equal(D3D12GetDebugInterface(&IID_ID3D12DeviceRemovedExtendedDataSettings, (void **)&s), S_OK);
	ID3D12DeviceRemovedExtendedDataSettings_SetAutoBreadcrumbsEnablement(s, D3D12_DRED_ENABLEMENT_FORCED_ON);
	ID3D12DeviceRemovedExtendedDataSettings_SetPageFaultEnablement(s, D3D12_DRED_ENABLEMENT_FORCED_ON);
	const path p[] = {
		PATH("recording + Close (DRED)", make_recording, release_recording, E_OUTOFMEMORY),
		{ .name = "ExecuteCommandLists (DRED)", .make = make_execute, .oom = E_OUTOFMEMORY, .no_out = true,
		  .prepare = prepare_execute, .check = check_execute, .removes = true },
	};
	walk_paths(true, p, 2);
	ID3D12DeviceRemovedExtendedDataSettings_SetAutoBreadcrumbsEnablement(s, D3D12_DRED_ENABLEMENT_FORCED_OFF);
	ID3D12DeviceRemovedExtendedDataSettings_SetPageFaultEnablement(s, D3D12_DRED_ENABLEMENT_FORCED_OFF);
	ID3D12DeviceRemovedExtendedDataSettings_Release(s);
}

/* ---- the xs_ C API ---------------------------------------------------------------- */

static void vadd_xs(xs_device *dev, xs_module *mod, uint32_t round)
{
	uint64_t va[3];
	for (int i = 0; i < 3; i++)
		assert_int_equal(xs_mem_alloc(dev, N * 4, 256, &va[i]), XS_OK);
	float a[N], b[N], c[N];
	for (int i = 0; i < N; i++) {
		a[i] = (float)(i * 3 + round);
		b[i] = (float)round - 0.5f * (float)i;
	}
	assert_int_equal(xs_mem_write(dev, va[0], a, sizeof(a)), XS_OK);
	assert_int_equal(xs_mem_write(dev, va[1], b, sizeof(b)), XS_OK);
	uint8_t kargs[28] = { 0 };
	memcpy(kargs, &va[0], 8);
	memcpy(kargs + 8, &va[1], 8);
	memcpy(kargs + 16, &va[2], 8);
	uint32_t n = N;
	memcpy(kargs + 24, &n, 4);
	xs_dispatch_desc d = { .kernel = xs_module_find_kernel(mod, "vadd"), .module = mod, .groups = { N / 64, 1, 1 },
			       .block = { 64, 1, 1 }, .kernargs = kargs, .kernargs_size = sizeof(kargs) };
	assert_non_null(d.kernel);
	assert_int_equal(xs_dispatch(dev, &d, NULL), XS_OK);
	assert_int_equal(xs_mem_read(dev, va[2], c, sizeof(c)), XS_OK);
	for (int i = 0; i < N; i++)
		assert_true(c[i] == a[i] + b[i]);
	for (int i = 0; i < 3; i++)
		assert_int_equal(xs_mem_free(dev, va[i]), XS_OK);
}

/* xs_device_create, xs_module_load_file and xs_dispatch: each failing
 * allocation gives XS_E_OUT_OF_MEMORY (a NULL out pointer), then the
 * device runs vadd right. */
static void xs_api(void **state)
{
	(void)state;
	xs_device_desc dd = { .machine = XS_MACHINE_SERIES_X };
	xs_device *dev = NULL;
	assert_int_equal(xs_device_create(&dd, &dev), XS_OK);
	xs_module *mod = NULL;
	assert_int_equal(xs_module_load_file(dev, vadd_path, &mod), XS_OK);
	vadd_xs(dev, mod, 0);
	const char *names[3] = { "xs_device_create", "xs_module_load_file", "xs_dispatch" };
	for (int which = 0; which < 3; which++) {
		long n0 = xs_alloc_count(), n = 0, clean = 0, absorbed = 0;
		for (long k = -1;; k++) {
			long f0 = xs_alloc_failed();
			if (k >= 0)
				xs_alloc_fail_after(k, false);
			xs_status st;
			if (which == 0) {
				xs_device *d2 = (xs_device *)(uintptr_t)0x5a5a;
				st = xs_device_create(&dd, &d2);
				xs_alloc_fail_after(-1, false);
				if (st == XS_OK)
					xs_device_destroy(d2);
				else
					assert_null(d2);
			} else if (which == 1) {
				xs_module *m2 = (xs_module *)(uintptr_t)0x5a5a;
				st = xs_module_load_file(dev, vadd_path, &m2);
				xs_alloc_fail_after(-1, false);
				if (st == XS_OK)
					xs_module_destroy(m2);
				else
					assert_null(m2);
			} else {
				uint64_t va;
				assert_int_equal(xs_mem_alloc(dev, 4096, 256, &va), XS_OK);
				uint8_t kargs[28] = { 0 };
				memcpy(kargs, &va, 8);
				memcpy(kargs + 8, &va, 8);
				memcpy(kargs + 16, &va, 8);
				xs_dispatch_desc d = { .kernel = xs_module_find_kernel(mod, "vadd"), .module = mod,
						       .groups = { 1, 1, 1 }, .block = { 64, 1, 1 }, .kernargs = kargs,
						       .kernargs_size = sizeof(kargs) };
				if (k >= 0)
					xs_alloc_fail_after(k, false);
				st = xs_dispatch(dev, &d, NULL);
				xs_alloc_fail_after(-1, false);
				assert_int_equal(xs_mem_free(dev, va), XS_OK);
			}
			bool hit = xs_alloc_failed() > f0;
			if (k < 0) {
				assert_int_equal(st, XS_OK);
				n = xs_alloc_count() - n0;
				continue;
			}
			if (!hit) {
				assert_int_equal(st, XS_OK);
				if (k >= n)
					break;
				continue;
			}
			if (st == XS_OK)
				absorbed++;
			else if (st != XS_E_OUT_OF_MEMORY)
				fail_msg("%s: allocation %ld of %ld failed: %s, want XS_E_OUT_OF_MEMORY", names[which], k + 1, n,
					 xs_status_name(st));
			else
				clean++;
			vadd_xs(dev, mod, (uint32_t)k + 1);
			assert_true(k < 4 * n + 16);
		}
		printf("# %-40s %4ld allocations: %ld failed with XS_E_OUT_OF_MEMORY, %ld absorbed\n", names[which], n, clean,
		       absorbed);
		assert_true(clean > 0);
	}
	xs_module_destroy(mod);
	xs_device_destroy(dev);
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: test_alloc_fail VADD.hsaco COLOR.vs.o COLOR.ps.o FAT.vs.o [RT_BASIC.hip.co]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0); /* the walk's lines in order with a debugger's */
	vadd_path = argv[1];
	vs_path = argv[2];
	ps_path = argv[3];
	fat_vs_path = argv[4];
	rt_path = argc > 5 ? argv[5] : NULL;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(device_creation),
		cmocka_unit_test(object_creation),
		cmocka_unit_test(object_creation_debug),
		cmocka_unit_test(graphics_pipeline),
		cmocka_unit_test(state_object),
		cmocka_unit_test(recording),
		cmocka_unit_test(execution),
		cmocka_unit_test(draw_execution),
		cmocka_unit_test(small_paths),
		cmocka_unit_test(with_dred),
		cmocka_unit_test(xs_api),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
