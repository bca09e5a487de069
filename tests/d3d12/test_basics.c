/* The D3D12 layer's basics: every vtable slot is filled, a kernel runs
 * through the official API and computes what the CPU computes, objects
 * answer QueryInterface as D3D12's do, fences and events. */
#include "d3d12_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <cmocka.h>

static const char *vadd_path;

/* No slot of any object's vtable may be NULL: a program calling a method
 * xs12 lacks gets E_NOTIMPL or a failed Close, never a jump to 0. */
static void no_null_slot(const void *obj, size_t slots, const char *what)
{
	const void *const *vtbl = *(const void *const *const *)obj;
	for (size_t i = 0; i < slots; i++)
		if (!vtbl[i])
			fail_msg("%s: vtable slot %zu is NULL", what, i);
}
#define SLOTS(T) (sizeof(T##Vtbl) / sizeof(void *))

static void vtables_have_no_null_slot(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	no_null_slot(c.dev, SLOTS(ID3D12Device5), "ID3D12Device5");
	no_null_slot(c.iq, SLOTS(ID3D12InfoQueue1), "ID3D12InfoQueue1");
	no_null_slot(c.queue, SLOTS(ID3D12CommandQueue), "ID3D12CommandQueue");
	no_null_slot(c.alloc, SLOTS(ID3D12CommandAllocator), "ID3D12CommandAllocator");
	no_null_slot(c.list, SLOTS(ID3D12GraphicsCommandList6) + 4, "ID3D12GraphicsCommandList6 + 4 X methods");
	no_null_slot(c.fence, SLOTS(ID3D12Fence1), "ID3D12Fence1");
	ID3D12Resource *r = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 256);
	no_null_slot(r, SLOTS(ID3D12Resource2), "ID3D12Resource2");
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(&c, vadd_path, NULL, &hr);
	assert_int_equal(hr, S_OK);
	no_null_slot(p, SLOTS(ID3D12PipelineState) + 1, "ID3D12PipelineState + GetInformationX");
	ID3D12Device *back = NULL;
	assert_int_equal(ID3D12PipelineState_GetDevice(p, &IID_ID3D12Device, (void **)&back), S_OK);
	assert_ptr_equal(back, c.dev);
	ID3D12Device_Release(back);
	ID3D12DeviceRemovedExtendedData2 *dred;
	assert_int_equal(ID3D12Device_QueryInterface(c.dev, &IID_ID3D12DeviceRemovedExtendedData2, (void **)&dred), S_OK);
	no_null_slot(dred, SLOTS(ID3D12DeviceRemovedExtendedData2), "ID3D12DeviceRemovedExtendedData2");
	ID3D12DeviceRemovedExtendedData2_Release(dred);
	ID3D12Debug *dbg;
	assert_int_equal(D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&dbg), S_OK);
	no_null_slot(dbg, SLOTS(ID3D12Debug), "ID3D12Debug");
	ID3D12Debug_Release(dbg);
	ID3DBlob *blob, *err;
	D3D12_ROOT_SIGNATURE_DESC rd = { 0 };
	assert_int_equal(D3D12SerializeRootSignature(&rd, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &err), S_OK);
	no_null_slot(blob, SLOTS(ID3D10Blob), "ID3DBlob");
	ID3D10Blob_Release(blob);
	ID3D12PipelineState_Release(p);
	ID3D12Resource_Release(r);
	t_close(&c);
}

/* An unimplemented method fails as documented: HRESULT methods give
 * E_NOTIMPL, a list's methods make Close fail, with a message naming it. */
static void unimplemented_methods_fail_cleanly(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	D3D12_DESCRIPTOR_HEAP_DESC hd = { .Type = D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, .NumDescriptors = 4 };
	void *heap = (void *)1;
	assert_int_equal(ID3D12Device_CreateDescriptorHeap(c.dev, &hd, &IID_ID3D12DescriptorHeap, &heap), E_NOTIMPL);
	char text[512];
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_NOT_IMPLEMENTED);
	assert_non_null(strstr(text, "CreateDescriptorHeap"));
	ID3D12GraphicsCommandList6_OMSetStencilRef(c.list, 1);
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_NOT_IMPLEMENTED);
	assert_non_null(strstr(text, "OMSetStencilRef"));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
	t_close(&c);
}

/* vadd through D3D12: root UAVs/SRVs and a root constant, a barrier, a
 * copy back; the CPU's sums. */
static void vadd_runs_and_adds(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enum { N = 1000 };
	float a[N], b[N], out[N];
	for (int i = 0; i < N; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = 1000.0f - (float)i;
	}
	ID3D12Resource *ua = t_upload(&c, a, sizeof(a)), *ub = t_upload(&c, b, sizeof(b));
	ID3D12Resource *uc = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, sizeof(out));
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(&c, vadd_path, NULL, &hr);
	assert_int_equal(hr, S_OK);
	t_set_pipeline(&c, p);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 0, ID3D12Resource_GetGPUVirtualAddress(ua));
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 1, ID3D12Resource_GetGPUVirtualAddress(ub));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 2, ID3D12Resource_GetGPUVirtualAddress(uc));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c.list, 3, N, 0);
	ID3D12GraphicsCommandList6_Dispatch(c.list, (N + 63) / 64, 1, 1);
	D3D12_RESOURCE_BARRIER bar = { .Type = D3D12_RESOURCE_BARRIER_TYPE_UAV };
	ID3D12GraphicsCommandList6_ResourceBarrier(c.list, 1, &bar);
	assert_int_equal(t_run(&c), S_OK);
	t_read(&c, uc, out, sizeof(out));
	for (int i = 0; i < N; i++)
		assert_true(out[i] == a[i] + b[i]);
	assert_int_equal(ID3D12Fence_GetCompletedValue(c.fence), c.fence_value);
	ID3D12PipelineState_Release(p);
	ID3D12Resource_Release(ua);
	ID3D12Resource_Release(ub);
	ID3D12Resource_Release(uc);
	t_close(&c);
}

/* An allocator keeps its memory through Reset: a list of more dispatches
 * than one chunk of command memory holds (kernarg segments, AQL packets),
 * recorded again into the reset allocator with other inputs, computes the
 * new sums (its memory reused, zeroed as new). */
static void reset_allocator_memory_is_reused(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, false, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enum { N = 1024, DISPATCHES = 700 };
	float a[N], b[N], out[N];
	for (int i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = 2.0f * (float)i;
	}
	ID3D12Resource *ua = t_upload(&c, a, sizeof(a)), *ub = t_upload(&c, b, sizeof(b));
	ID3D12Resource *uc = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, sizeof(out));
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(&c, vadd_path, NULL, &hr);
	assert_int_equal(hr, S_OK);
	for (int round = 0; round < 2; round++) {
		ID3D12Resource *first = round ? ub : ua; /* round 1: c = b + b */
		t_set_pipeline(&c, p);
		ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 0,
									    ID3D12Resource_GetGPUVirtualAddress(first));
		ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 1, ID3D12Resource_GetGPUVirtualAddress(ub));
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 2, ID3D12Resource_GetGPUVirtualAddress(uc));
		for (UINT i = 0; i < DISPATCHES; i++) {
			ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c.list, 3, N - i, 0);
			ID3D12GraphicsCommandList6_Dispatch(c.list, N / 64, 1, 1);
		}
		assert_int_equal(t_run(&c), S_OK); /* Close, execute, wait; allocator and list Reset */
		t_read(&c, uc, out, sizeof(out));
		for (int i = 0; i < N; i++)
			assert_true(out[i] == (round ? b[i] : a[i]) + b[i]);
	}
	ID3D12PipelineState_Release(p);
	ID3D12Resource_Release(ua);
	ID3D12Resource_Release(ub);
	ID3D12Resource_Release(uc);
	t_close(&c);
}

/* The D3D12 API's own rules, through the info queue. */
static void d3d12_rules(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(&c, vadd_path, NULL, &hr);
	ID3D12Resource *buf = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 65536);
	D3D12_GPU_VIRTUAL_ADDRESS va = ID3D12Resource_GetGPUVirtualAddress(buf);
	/* zero groups: D3D12's EMPTY_DISPATCH warning, a legal no-op */
	t_set_pipeline(&c, p);
	for (UINT i = 0; i < 3; i++)
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, i, va);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_ROOT_TYPE); /* 0 and 1 are SRVs */
	ID3D12GraphicsCommandList6_Close(c.list);
	ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL);
	t_set_pipeline(&c, p);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 0, va);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 1, va);
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 2, va);
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c.list, 3, 16, 0);
	ID3D12GraphicsCommandList6_Dispatch(c.list, 0, 1, 1);
	assert_int_equal(t_last_message(&c, NULL, 0), D3D12_MESSAGE_ID_EMPTY_DISPATCH);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	/* executing an open list; more than 65535 groups; root index out of range */
	ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL);
	ID3D12CommandList *l = (ID3D12CommandList *)c.list;
	ID3D12CommandQueue_ExecuteCommandLists(c.queue, 1, &l);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_LIST_NOT_CLOSED);
	ID3D12GraphicsCommandList6_Dispatch(c.list, 65536, 1, 1);
	assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_DISPATCH_NO_PIPELINE));
	t_set_pipeline(&c, p);
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c.list, 9, 1, 0);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_ROOT_INDEX);
	ID3D12GraphicsCommandList6_Dispatch(c.list, 65536, 1, 1);
	assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_DISPATCH_GROUPS_RANGE));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
	ID3D12CommandQueue_ExecuteCommandLists(c.queue, 1, &l);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_LIST_CLOSE_FAILED);
	/* root arguments without SetComputeRootSignature: a warning, once */
	ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL);
	ID3D12GraphicsCommandList6_SetPipelineState(c.list, p);
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c.list, 3, 16, 0);
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c.list, 3, 16, 0);
	assert_int_equal(ID3D12InfoQueue_GetNumStoredMessages(c.iq), 1);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_ROOT_SIGNATURE_IMPLICIT);
	ID3D12GraphicsCommandList6_Close(c.list);
	/* in flight: the allocator may not be reset, the resource not released quietly */
	ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL);
	ID3D12Resource *out = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 65536);
	t_set_pipeline(&c, p);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 0, va);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 1, va);
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 2, ID3D12Resource_GetGPUVirtualAddress(out));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c.list, 3, 16, 0);
	ID3D12GraphicsCommandList6_Dispatch(c.list, 1, 1, 1);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	ID3D12CommandQueue_ExecuteCommandLists(c.queue, 1, &l);
	assert_int_equal(ID3D12CommandAllocator_Reset(c.alloc), E_FAIL);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_ALLOCATOR_IN_FLIGHT);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK); /* legal in D3D12 */
	ID3D12GraphicsCommandList6_Close(c.list);
	ID3D12Resource_Release(out);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_RESOURCE_IN_USE);
	/* an explicit root signature that does not fit the kernel */
	D3D12_ROOT_PARAMETER rp = { .ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV };
	D3D12_ROOT_SIGNATURE_DESC rd = { .NumParameters = 1, .pParameters = &rp };
	ID3DBlob *blob, *err;
	assert_int_equal(D3D12SerializeRootSignature(&rd, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &err), S_OK);
	ID3D12RootSignature *rs;
	assert_int_equal(ID3D12Device_CreateRootSignature(c.dev, 0, ID3DBlob_GetBufferPointer(blob),
							  ID3DBlob_GetBufferSize(blob), &IID_ID3D12RootSignature, (void **)&rs), S_OK);
	ID3DBlob_Release(blob);
	size_t n;
	void *code = t_read_file(vadd_path, &n);
	D3D12_COMPUTE_PIPELINE_STATE_DESC pd = { .pRootSignature = rs, .CS = { code, n } };
	ID3D12PipelineState *bad = NULL;
	assert_int_equal(ID3D12Device_CreateComputePipelineState(c.dev, &pd, &IID_ID3D12PipelineState, (void **)&bad),
			 E_INVALIDARG);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_ROOT_SIGNATURE_MISMATCH);
	free(code);
	ID3D12RootSignature_Release(rs);
	/* a 1.1 description serializes and fits the kernel as the 1.0 one does */
	D3D12_ROOT_PARAMETER1 p11[4] = {
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV, .Descriptor = { 0, 0, D3D12_ROOT_DESCRIPTOR_FLAG_DATA_STATIC } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV, .Descriptor = { 1, 0, D3D12_ROOT_DESCRIPTOR_FLAG_NONE } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV, .Descriptor = { 0, 0, D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, .Constants = { 0, 0, 1 } },
	};
	D3D12_VERSIONED_ROOT_SIGNATURE_DESC vd = { .Version = D3D_ROOT_SIGNATURE_VERSION_1_1,
						   .Desc_1_1 = { .NumParameters = 4, .pParameters = p11 } };
	assert_int_equal(D3D12SerializeVersionedRootSignature(&vd, &blob, &err), S_OK);
	assert_int_equal(ID3D12Device_CreateRootSignature(c.dev, 0, ID3DBlob_GetBufferPointer(blob),
							  ID3DBlob_GetBufferSize(blob), &IID_ID3D12RootSignature, (void **)&rs), S_OK);
	ID3DBlob_Release(blob);
	code = t_read_file(vadd_path, &n);
	pd = (D3D12_COMPUTE_PIPELINE_STATE_DESC){ .pRootSignature = rs, .CS = { code, n } };
	assert_int_equal(ID3D12Device_CreateComputePipelineState(c.dev, &pd, &IID_ID3D12PipelineState, (void **)&bad), S_OK);
	ID3D12PipelineState_Release(bad);
	free(code);
	ID3D12RootSignature_Release(rs);
	/* List7/8 would put their slots 80/81 where the Xbox methods are */
	void *l7 = (void *)1;
	assert_int_equal(ID3D12GraphicsCommandList6_QueryInterface(c.list, &IID_ID3D12GraphicsCommandList7, &l7),
			 E_NOINTERFACE);
	assert_null(l7);
	ID3D12CommandQueue_Signal(c.queue, c.fence, ++c.fence_value);
	ID3D12Fence_SetEventOnCompletion(c.fence, c.fence_value, NULL);
	ID3D12Resource_Release(buf);
	ID3D12PipelineState_Release(p);
	t_close(&c);
}

/* Timestamps around a dispatch (EndQuery, ResolveQueryData) and the
 * dispatch's own figures (XS12GetDispatchStatistics) tell the same time. */
static void timestamps_and_statistics(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enum { N = 64 * 1024 };
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(&c, vadd_path, NULL, &hr);
	ID3D12Resource *buf = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, N * 4);
	ID3D12Resource *rb = t_buffer(&c, D3D12_HEAP_TYPE_READBACK, 16);
	D3D12_QUERY_HEAP_DESC qd = { .Type = D3D12_QUERY_HEAP_TYPE_TIMESTAMP, .Count = 2 };
	ID3D12QueryHeap *qh;
	assert_int_equal(ID3D12Device_CreateQueryHeap(c.dev, &qd, &IID_ID3D12QueryHeap, (void **)&qh), S_OK);
	D3D12_GPU_VIRTUAL_ADDRESS va = ID3D12Resource_GetGPUVirtualAddress(buf);
	ID3D12GraphicsCommandList6_EndQuery(c.list, qh, D3D12_QUERY_TYPE_TIMESTAMP, 0);
	t_set_pipeline(&c, p);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 0, va);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 1, va);
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 2, va);
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c.list, 3, N, 0);
	ID3D12GraphicsCommandList6_Dispatch(c.list, N / 64, 1, 1);
	ID3D12GraphicsCommandList6_EndQuery(c.list, qh, D3D12_QUERY_TYPE_TIMESTAMP, 1);
	ID3D12GraphicsCommandList6_ResolveQueryData(c.list, qh, D3D12_QUERY_TYPE_TIMESTAMP, 0, 2, rb, 0);
	XS12_DISPATCH_STATISTICS st;
	assert_int_equal(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.list, 0, &st),
			 DXGI_ERROR_NOT_CURRENTLY_AVAILABLE); /* not executed yet */
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	ID3D12CommandList *l = (ID3D12CommandList *)c.list;
	ID3D12CommandQueue_ExecuteCommandLists(c.queue, 1, &l);
	ID3D12CommandQueue_Signal(c.queue, c.fence, ++c.fence_value);
	assert_int_equal(ID3D12Fence_SetEventOnCompletion(c.fence, c.fence_value, NULL), S_OK);
	UINT64 *ts;
	assert_int_equal(ID3D12Resource_Map(rb, 0, NULL, (void **)&ts), S_OK);
	UINT64 freq;
	assert_int_equal(ID3D12CommandQueue_GetTimestampFrequency(c.queue, &freq), S_OK);
	assert_int_equal(freq, 1825000000ull);
	assert_int_equal(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.list, 0, &st), S_OK);
	assert_int_equal(st.WavesLaunched, N / 32);
	assert_true(st.Cycles > 0 && st.PeakWavesInFlight > 0);
	assert_true(ts[1] > ts[0]);
	assert_true(ts[0] <= st.StartCycle && ts[1] >= st.EndCycle);
	assert_int_equal(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.list, 1, &st), E_INVALIDARG);
	ID3D12Resource_Unmap(rb, 0, NULL);
	ID3D12QueryHeap_Release(qh);
	ID3D12Resource_Release(rb);
	ID3D12Resource_Release(buf);
	ID3D12PipelineState_Release(p);
	t_close(&c);
}

/* D3D12CreateDevice returns the live device, as D3D12 does for an adapter. */
static void create_device_returns_the_live_one(void **state)
{
	(void)state;
	ID3D12Device *a = NULL, *b = NULL;
	assert_int_equal(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_12_0, &IID_ID3D12Device, (void **)&a), S_OK);
	assert_int_equal(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&b), S_OK);
	assert_ptr_equal(a, b);
	assert_int_equal(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_12_0, &IID_ID3D12Device, NULL), S_FALSE);
	assert_int_equal(D3D12CreateDevice(NULL, (D3D_FEATURE_LEVEL)0xd000, &IID_ID3D12Device, (void **)&b), E_INVALIDARG);
	ID3D12Device_Release(a);
	ID3D12Device_Release(a);
	assert_int_equal(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_12_0, &IID_ID3D12Device, (void **)&b), S_OK);
	ID3D12Device_Release(b);
}

static void create_device_hung(int sig)
{
	(void)sig;
	static const char m[] = "D3D12CreateDevice did not return in 20 s (deadlock)\n";
	(void)!write(2, m, sizeof m - 1);
	_exit(1);
}

/* D3D12CreateDevice for an interface the device does not implement answers
 * E_NOINTERFACE and a NULL pointer, whether it made the device (whose last
 * reference then goes inside the call) or found the live one, and keeps no
 * reference: a deadlock here ends the test by SIGALRM. */
static void create_device_unknown_interface(void **state)
{
	(void)state;
	void (*old)(int) = signal(SIGALRM, create_device_hung);
	alarm(20);
	void *p = (void *)1;
	assert_int_equal(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Fence, &p), E_NOINTERFACE);
	assert_null(p);
	ID3D12Device *a = NULL;
	assert_int_equal(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_12_0, &IID_ID3D12Device, (void **)&a), S_OK);
	p = (void *)1;
	assert_int_equal(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_12_0, &IID_ID3D12Fence, &p), E_NOINTERFACE);
	assert_null(p);
	assert_int_equal(ID3D12Device_Release(a), 0);
	alarm(0);
	signal(SIGALRM, old);
}

/* Fences: host signals, queue waits on them, events. */
static void fences_and_events(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, false, D3D12_COMMAND_LIST_TYPE_DIRECT);
	ID3D12Fence *f = c.fence;
	/* a queue wait the host releases later */
	assert_int_equal(ID3D12CommandQueue_Wait(c.queue, f, 5), S_OK);
	assert_int_equal(ID3D12CommandQueue_Signal(c.queue, f, 6), S_OK);
	HANDLE ev = XS12CreateEvent();
	assert_non_null(ev);
	assert_int_equal(ID3D12Fence_SetEventOnCompletion(f, 6, ev), S_OK);
	assert_int_equal(XS12WaitForEvent(ev, 0), 0x102u); /* not yet: the queue waits for 5 */
	assert_true(ID3D12Fence_GetCompletedValue(f) < 5);
	assert_int_equal(ID3D12Fence_Signal(f, 5), S_OK); /* the host releases the queue */
	assert_int_equal(XS12WaitForEvent(ev, 0xFFFFFFFFu), 0u);
	assert_int_equal(ID3D12Fence_GetCompletedValue(f), 6);
	assert_true(XS12CloseEvent(ev));
	t_close(&c);
}

/* A dispatch on a COPY list is refused and the list fails to Close (the
 * API-sequence fuzz target found vadd running on a copy queue: xs12's
 * copy queues are compute queues underneath). A COMPUTE list still runs
 * it; copies on the COPY list still run. */
static void copy_list_refuses_dispatches(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_COPY);
	ID3D12InfoQueue_SetMuteDebugOutput(c.iq, TRUE);
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(&c, vadd_path, NULL, &hr);
	assert_int_equal(hr, S_OK);
	ID3D12Resource *buf = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 65536);
	D3D12_GPU_VIRTUAL_ADDRESS va = ID3D12Resource_GetGPUVirtualAddress(buf);
	t_set_pipeline(&c, p);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 0, va);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 1, va);
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 2, va);
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c.list, 3, 64, 0);
	ID3D12InfoQueue_ClearStoredMessages(c.iq);
	ID3D12GraphicsCommandList6_Dispatch(c.list, 1, 1, 1);
	char text[300];
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_COMPUTE_LIST_TYPE);
	assert_non_null(strstr(text, "Dispatch on a COPY command list"));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
	ID3D12CommandList *l = (ID3D12CommandList *)c.list;
	ID3D12CommandQueue_ExecuteCommandLists(c.queue, 1, &l); /* nothing of it runs */
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_LIST_CLOSE_FAILED);
	/* a copy on the same list still records and runs */
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
	uint32_t data[4] = { 1, 2, 3, 4 }, back[4] = { 0 };
	ID3D12Resource *up = t_upload(&c, data, sizeof(data));
	ID3D12GraphicsCommandList6_CopyBufferRegion(c.list, buf, 0, up, 0, sizeof(data));
	assert_int_equal(t_run(&c), S_OK);
	t_read(&c, buf, back, sizeof(back));
	assert_memory_equal(back, data, sizeof(data));
	ID3D12Resource_Release(up);
	ID3D12Resource_Release(buf);
	ID3D12PipelineState_Release(p);
	t_close(&c);
}

/* One stored message of a broken S1.2 (flags 0); the text names the rule. */
static void one_message(t_ctx *c)
{
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c->list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_NONE, 0, 0, 0);
}

/* The info queue's limit is a count of messages, not an allocation: any
 * limit keeps the messages that come (up to it), the oldest going first.
 * (The API-sequence fuzz target found a limit of 2 billion making the
 * next message allocate a ring for all of them: 48 GB.) */
static void info_queue_limits(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	ID3D12InfoQueue_SetMuteDebugOutput(c.iq, TRUE);
	const UINT64 huge = 1ull << 40;
	assert_int_equal(ID3D12InfoQueue_SetMessageCountLimit(c.iq, huge), S_OK);
	assert_true(ID3D12InfoQueue_GetMessageCountLimit(c.iq) == huge);
	for (int i = 0; i < 40; i++)
		one_message(&c);
	assert_int_equal(ID3D12InfoQueue_GetNumStoredMessages(c.iq), 40);
	assert_int_equal(ID3D12InfoQueue_GetNumMessagesDiscardedByMessageCountLimit(c.iq), 0);
	char text[200];
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_SCRATCH_FLAGS);
	assert_non_null(strstr(text, "S1.2"));
	/* a limit of 3: the ring keeps the last 3 of 20 */
	assert_int_equal(ID3D12InfoQueue_SetMessageCountLimit(c.iq, 3), S_OK);
	for (int i = 0; i < 20; i++)
		one_message(&c);
	assert_int_equal(ID3D12InfoQueue_GetNumStoredMessages(c.iq), 3);
	assert_int_equal(ID3D12InfoQueue_GetNumMessagesDiscardedByMessageCountLimit(c.iq), 17);
	/* and past it, each message still reads back whole */
	for (UINT64 i = 0; i < 3; i++) {
		SIZE_T len = 0;
		assert_int_equal(ID3D12InfoQueue_GetMessage(c.iq, i, NULL, &len), S_OK);
		D3D12_MESSAGE *m = malloc(len);
		assert_int_equal(ID3D12InfoQueue_GetMessage(c.iq, i, m, &len), S_OK);
		assert_int_equal(m->ID, XS12_MESSAGE_ID_SCRATCH_FLAGS);
		assert_int_equal(m->DescriptionByteLength, strlen(m->pDescription) + 1);
		free(m);
	}
	ID3D12GraphicsCommandList6_Close(c.list); /* fails: S1.2 was broken */
	t_close(&c);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_basics VADD.hsaco\n");
		return 2;
	}
	vadd_path = argv[1];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vtables_have_no_null_slot),
		cmocka_unit_test(unimplemented_methods_fail_cleanly),
		cmocka_unit_test(vadd_runs_and_adds),
		cmocka_unit_test(reset_allocator_memory_is_reused),
		cmocka_unit_test(d3d12_rules),
		cmocka_unit_test(timestamps_and_statistics),
		cmocka_unit_test(create_device_returns_the_live_one),
		cmocka_unit_test(create_device_unknown_interface),
		cmocka_unit_test(fences_and_events),
		cmocka_unit_test(info_queue_limits),
		cmocka_unit_test(copy_list_refuses_dispatches),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
