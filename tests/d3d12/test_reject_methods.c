/*
 * The D3D12 methods no feature test calls: what each answers and how it
 * refuses NULL pointers, out-of-range enums and flags, bounds and state
 * it has no room for. The info queue's filters and counters, DRED's
 * outputs before any removal, the device's and objects' small queries,
 * the list's markers and ClearState. The inventory is
 * tests/api/rejections.md; tests/api/check_rejections.py fails when a method
 * xs12 implements is called by no C test.
 */
#include "d3d12_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* ---- the info queue ---------------------------------------------------------------------- */

static int calls;
static void STDMETHODCALLTYPE on_message(D3D12_MESSAGE_CATEGORY c, D3D12_MESSAGE_SEVERITY s, D3D12_MESSAGE_ID id,
					  LPCSTR text, void *ctx)
{
	(void)c, (void)s, (void)id, (void)text;
	(*(int *)ctx)++;
}

static void info_queue(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	ID3D12InfoQueue *q = c.iq;
	ID3D12InfoQueue1 *q1;
	assert_int_equal(ID3D12InfoQueue_QueryInterface(q, &IID_ID3D12InfoQueue1, (void **)&q1), S_OK);
	ID3D12InfoQueue_ClearStoredMessages(q);

	/* application messages are stored, counted and passed to callbacks */
	DWORD cookie = 0;
	assert_int_equal(ID3D12InfoQueue1_RegisterMessageCallback(q1, NULL, D3D12_MESSAGE_CALLBACK_FLAG_NONE, &calls,
								  &cookie), E_INVALIDARG);
	assert_int_equal(ID3D12InfoQueue1_RegisterMessageCallback(q1, on_message, D3D12_MESSAGE_CALLBACK_FLAG_NONE,
								  &calls, NULL), E_INVALIDARG);
	assert_int_equal(ID3D12InfoQueue1_RegisterMessageCallback(q1, on_message, D3D12_MESSAGE_CALLBACK_FLAG_NONE,
								  &calls, &cookie), S_OK);
	assert_int_equal(ID3D12InfoQueue_AddApplicationMessage(q, D3D12_MESSAGE_SEVERITY_INFO, "hello"), S_OK);
	assert_int_equal(ID3D12InfoQueue_AddApplicationMessage(q, D3D12_MESSAGE_SEVERITY_INFO, NULL), S_OK);
	assert_int_equal(ID3D12InfoQueue_AddMessage(q, D3D12_MESSAGE_CATEGORY_MISCELLANEOUS,
						    D3D12_MESSAGE_SEVERITY_WARNING, (D3D12_MESSAGE_ID)4242, NULL), S_OK);
	assert_int_equal(calls, 3);
	/* a severity past MESSAGE or a category past SHADER is refused, not
	 * looked up in the break-on tables (severity 5 is the byte after them) */
	assert_int_equal(ID3D12InfoQueue_SetBreakOnCategory(q, D3D12_MESSAGE_CATEGORY_APPLICATION_DEFINED, TRUE), S_OK);
	assert_int_equal(ID3D12InfoQueue_AddMessage(q, D3D12_MESSAGE_CATEGORY_STATE_CREATION, (D3D12_MESSAGE_SEVERITY)5,
						    D3D12_MESSAGE_ID_UNKNOWN, "x"), E_INVALIDARG);
	assert_int_equal(ID3D12InfoQueue_AddMessage(q, D3D12_MESSAGE_CATEGORY_STATE_CREATION,
						    (D3D12_MESSAGE_SEVERITY)100000000, D3D12_MESSAGE_ID_UNKNOWN, "x"),
			 E_INVALIDARG);
	assert_int_equal(ID3D12InfoQueue_AddMessage(q, (D3D12_MESSAGE_CATEGORY)11, D3D12_MESSAGE_SEVERITY_INFO,
						    D3D12_MESSAGE_ID_UNKNOWN, "x"), E_INVALIDARG);
	assert_int_equal(ID3D12InfoQueue_AddMessage(q, (D3D12_MESSAGE_CATEGORY)-1, D3D12_MESSAGE_SEVERITY_INFO,
						    D3D12_MESSAGE_ID_UNKNOWN, "x"), E_INVALIDARG);
	assert_int_equal(ID3D12InfoQueue_AddApplicationMessage(q, (D3D12_MESSAGE_SEVERITY)5, "x"), E_INVALIDARG);
	assert_int_equal(ID3D12InfoQueue_AddApplicationMessage(q, (D3D12_MESSAGE_SEVERITY)-1, "x"), E_INVALIDARG);
	assert_int_equal(ID3D12InfoQueue_SetBreakOnCategory(q, D3D12_MESSAGE_CATEGORY_APPLICATION_DEFINED, FALSE), S_OK);
	assert_int_equal(calls, 3); /* nothing stored or passed on */
	assert_int_equal(ID3D12InfoQueue_GetNumStoredMessagesAllowedByRetrievalFilter(q), 3);
	assert_int_equal(ID3D12InfoQueue1_UnregisterMessageCallback(q1, cookie), S_OK);
	assert_int_equal(ID3D12InfoQueue1_UnregisterMessageCallback(q1, cookie), E_INVALIDARG); /* twice */
	assert_int_equal(ID3D12InfoQueue1_UnregisterMessageCallback(q1, 0xdead), E_INVALIDARG);
	ID3D12InfoQueue_AddApplicationMessage(q, D3D12_MESSAGE_SEVERITY_INFO, "after");
	assert_int_equal(calls, 3);

	/* the count limit: the oldest go, and are counted */
	ID3D12InfoQueue_ClearStoredMessages(q);
	assert_int_equal(ID3D12InfoQueue_SetMessageCountLimit(q, 2), S_OK);
	assert_int_equal(ID3D12InfoQueue_GetMessageCountLimit(q), 2);
	for (int i = 0; i < 5; i++)
		ID3D12InfoQueue_AddApplicationMessage(q, D3D12_MESSAGE_SEVERITY_INFO, "m");
	assert_int_equal(ID3D12InfoQueue_GetNumStoredMessages(q), 2);
	assert_int_equal(ID3D12InfoQueue_GetNumMessagesDiscardedByMessageCountLimit(q), 3);
	/* a huge limit is kept as given, and is no huge table that fails to
	 * allocate and drops every message: the ring grows with its messages */
	assert_int_equal(ID3D12InfoQueue_SetMessageCountLimit(q, 1ull << 40), S_OK);
	assert_true(ID3D12InfoQueue_GetMessageCountLimit(q) == 1ull << 40);
	ID3D12InfoQueue_AddApplicationMessage(q, D3D12_MESSAGE_SEVERITY_INFO, "kept");
	assert_int_equal(ID3D12InfoQueue_GetNumStoredMessages(q), 1);
	assert_int_equal(ID3D12InfoQueue_SetMessageCountLimit(q, (UINT64)-1), S_OK);
	assert_int_equal(ID3D12InfoQueue_GetMessageCountLimit(q), 1u << 20);

	/* storage filters: a stack, bounded; NULL filters refused */
	assert_int_equal(ID3D12InfoQueue_AddStorageFilterEntries(q, NULL), E_INVALIDARG);
	SIZE_T size = 0;
	assert_int_equal(ID3D12InfoQueue_GetStorageFilter(q, NULL, NULL), E_INVALIDARG);
	assert_int_equal(ID3D12InfoQueue_GetStorageFilter(q, NULL, &size), S_OK);
	assert_true(size >= sizeof(D3D12_INFO_QUEUE_FILTER));
	UINT depth = ID3D12InfoQueue_GetStorageFilterStackSize(q);
	D3D12_MESSAGE_SEVERITY info = D3D12_MESSAGE_SEVERITY_INFO;
	D3D12_INFO_QUEUE_FILTER deny = { .DenyList = { .NumSeverities = 1, .pSeverityList = &info } };
	assert_int_equal(ID3D12InfoQueue_PushStorageFilter(q, &deny), S_OK);
	assert_int_equal(ID3D12InfoQueue_GetStorageFilterStackSize(q), depth + 1);
	UINT64 denied = ID3D12InfoQueue_GetNumMessagesDeniedByStorageFilter(q);
	UINT64 allowed = ID3D12InfoQueue_GetNumMessagesAllowedByStorageFilter(q);
	ID3D12InfoQueue_ClearStoredMessages(q);
	ID3D12InfoQueue_AddApplicationMessage(q, D3D12_MESSAGE_SEVERITY_INFO, "denied");
	ID3D12InfoQueue_AddApplicationMessage(q, D3D12_MESSAGE_SEVERITY_WARNING, "allowed");
	assert_int_equal(ID3D12InfoQueue_GetNumStoredMessages(q), 1);
	assert_int_equal(ID3D12InfoQueue_GetNumMessagesDeniedByStorageFilter(q), denied + 1);
	assert_int_equal(ID3D12InfoQueue_GetNumMessagesAllowedByStorageFilter(q), allowed + 1);
	assert_int_equal(ID3D12InfoQueue_PushCopyOfStorageFilter(q), S_OK);
	assert_int_equal(ID3D12InfoQueue_PushEmptyStorageFilter(q), S_OK);
	HRESULT hr = S_OK;
	for (int i = 0; i < 100 && hr == S_OK; i++)
		hr = ID3D12InfoQueue_PushEmptyStorageFilter(q);
	assert_int_equal(hr, E_OUTOFMEMORY); /* the stack is bounded */
	for (int i = 0; i < 200; i++)
		ID3D12InfoQueue_PopStorageFilter(q); /* more pops than pushes: the base stays */
	assert_int_equal(ID3D12InfoQueue_GetStorageFilterStackSize(q), 1);
	ID3D12InfoQueue_ClearStorageFilter(q);

	/* breaks and muting: out-of-range categories and severities refused */
	assert_int_equal(ID3D12InfoQueue_SetBreakOnSeverity(q, (D3D12_MESSAGE_SEVERITY)9, TRUE), E_INVALIDARG);
	assert_int_equal(ID3D12InfoQueue_SetBreakOnCategory(q, (D3D12_MESSAGE_CATEGORY)99, TRUE), E_INVALIDARG);
	assert_false(ID3D12InfoQueue_GetBreakOnSeverity(q, (D3D12_MESSAGE_SEVERITY)9));
	assert_false(ID3D12InfoQueue_GetBreakOnCategory(q, (D3D12_MESSAGE_CATEGORY)99));
	assert_int_equal(ID3D12InfoQueue_SetBreakOnSeverity(q, D3D12_MESSAGE_SEVERITY_CORRUPTION, FALSE), S_OK);
	assert_int_equal(ID3D12InfoQueue_SetBreakOnCategory(q, D3D12_MESSAGE_CATEGORY_EXECUTION, FALSE), S_OK);
	ID3D12InfoQueue_SetMuteDebugOutput(q, TRUE);
	assert_true(ID3D12InfoQueue_GetMuteDebugOutput(q));
	ID3D12InfoQueue_SetMuteDebugOutput(q, FALSE);
	ID3D12InfoQueue1_Release(q1);
	t_close(&c);
}

/* ---- DRED and the debug objects ----------------------------------------------------------- */

static void dred_before_removal(void **state)
{
	(void)state;
	ID3D12DeviceRemovedExtendedDataSettings1 *s;
	assert_int_equal(D3D12GetDebugInterface(&IID_ID3D12DeviceRemovedExtendedDataSettings1, (void **)&s), S_OK);
	ID3D12DeviceRemovedExtendedDataSettings1_SetBreadcrumbContextEnablement(s, D3D12_DRED_ENABLEMENT_FORCED_ON);
	ID3D12DeviceRemovedExtendedDataSettings1_SetWatsonDumpEnablement(s, D3D12_DRED_ENABLEMENT_FORCED_OFF);
	ID3D12DeviceRemovedExtendedDataSettings1_SetPageFaultEnablement(s, D3D12_DRED_ENABLEMENT_FORCED_ON);
	t_ctx c;
	t_open(&c, false, D3D12_COMMAND_LIST_TYPE_DIRECT);
	ID3D12DeviceRemovedExtendedDataSettings1_SetPageFaultEnablement(s, D3D12_DRED_ENABLEMENT_FORCED_OFF);
	ID3D12DeviceRemovedExtendedDataSettings1_Release(s);
	ID3D12DeviceRemovedExtendedData2 *dred;
	assert_int_equal(ID3D12Device_QueryInterface(c.dev, &IID_ID3D12DeviceRemovedExtendedData2, (void **)&dred), S_OK);
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetPageFaultAllocationOutput(dred, NULL), E_INVALIDARG);
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetPageFaultAllocationOutput1(dred, NULL), E_INVALIDARG);
	/* no removal yet: D3D12 says not currently available */
	D3D12_DRED_PAGE_FAULT_OUTPUT pf;
	D3D12_DRED_PAGE_FAULT_OUTPUT1 pf1;
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetPageFaultAllocationOutput(dred, &pf),
			 DXGI_ERROR_NOT_CURRENTLY_AVAILABLE);
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetPageFaultAllocationOutput1(dred, &pf1),
			 DXGI_ERROR_NOT_CURRENTLY_AVAILABLE);
	assert_int_equal(pf.PageFaultVA, 0);
	ID3D12DeviceRemovedExtendedData2_Release(dred);
	t_close(&c);

	ID3D12Debug *dbg;
	assert_int_equal(D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&dbg), S_OK);
	ID3D12Debug_EnableDebugLayer(dbg); /* devices made from now on have it */
	ULONG refs = ID3D12Debug_AddRef(dbg);
	assert_true(refs >= 1);
	ID3D12Debug_Release(dbg);
	ID3D12Debug_Release(dbg);
	ID3D12Device *dev;
	assert_int_equal(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_12_0, &IID_ID3D12Device, (void **)&dev), S_OK);
	ID3D12InfoQueue *iq = NULL;
	assert_int_equal(ID3D12Device_QueryInterface(dev, &IID_ID3D12InfoQueue, (void **)&iq), S_OK);
	ID3D12InfoQueue_Release(iq);
	ID3D12Device_Release(dev);
}

/* ---- the device's and objects' small queries ----------------------------------------------- */

static void small_queries(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	ID3D12Device5 *d5;
	assert_int_equal(ID3D12Device_QueryInterface(c.dev, &IID_ID3D12Device5, (void **)&d5), S_OK);
	assert_int_equal(ID3D12Device5_GetNodeCount(d5), 1);
	LUID a = ID3D12Device5_GetAdapterLuid(d5), b = ID3D12Device5_GetAdapterLuid(d5);
	assert_memory_equal(&a, &b, sizeof(a));
	D3D12_HEAP_PROPERTIES hp = ID3D12Device5_GetCustomHeapProperties(d5, 0, D3D12_HEAP_TYPE_DEFAULT);
	assert_int_equal(hp.Type, D3D12_HEAP_TYPE_CUSTOM);
	assert_int_equal(hp.CPUPageProperty, D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE);
	hp = ID3D12Device5_GetCustomHeapProperties(d5, 0, D3D12_HEAP_TYPE_READBACK);
	assert_int_not_equal(hp.CPUPageProperty, D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE);
	assert_int_equal(ID3D12Device5_SetStablePowerState(d5, TRUE), S_OK);
	/* CreateCommandList1: node masks past node 0, flags, types */
	void *l = (void *)1;
	assert_int_equal(ID3D12Device5_CreateCommandList1(d5, 2, D3D12_COMMAND_LIST_TYPE_DIRECT,
							  D3D12_COMMAND_LIST_FLAG_NONE, &IID_ID3D12GraphicsCommandList, &l),
			 E_INVALIDARG);
	assert_int_equal(ID3D12Device5_CreateCommandList1(d5, 0, D3D12_COMMAND_LIST_TYPE_DIRECT,
							  (D3D12_COMMAND_LIST_FLAGS)1, &IID_ID3D12GraphicsCommandList, &l),
			 E_INVALIDARG);
	l = (void *)1;
	assert_int_equal(ID3D12Device5_CreateCommandList1(d5, 0, (D3D12_COMMAND_LIST_TYPE)77, D3D12_COMMAND_LIST_FLAG_NONE,
							  &IID_ID3D12GraphicsCommandList, &l), E_INVALIDARG);
	assert_null(l);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_LIST_TYPE);
	ID3D12GraphicsCommandList *cl;
	assert_int_equal(ID3D12Device5_CreateCommandList1(d5, 0, D3D12_COMMAND_LIST_TYPE_COMPUTE,
							  D3D12_COMMAND_LIST_FLAG_NONE, &IID_ID3D12GraphicsCommandList,
							  (void **)&cl), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList_GetType(cl), D3D12_COMMAND_LIST_TYPE_COMPUTE);
	/* created closed: recording into it is an error until Reset */
	ID3D12GraphicsCommandList_Dispatch(cl, 1, 1, 1);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_LIST_CLOSED);
	ID3D12GraphicsCommandList_Release(cl);
	/* private data: NULL GUIDs refused */
	UINT v = 7;
	assert_int_equal(ID3D12Device5_SetPrivateData(d5, NULL, sizeof(v), &v), E_INVALIDARG);
	static const GUID g = { 0x12345678, 0x1234, 0x1234, { 1, 2, 3, 4, 5, 6, 7, 8 } };
	assert_int_equal(ID3D12Device5_SetPrivateData(d5, &g, sizeof(v), &v), S_OK);
	UINT back = 0, n = sizeof(back);
	assert_int_equal(ID3D12Device5_GetPrivateData(d5, &g, &n, &back), S_OK);
	assert_int_equal(back, 7);
	ID3D12Device5_Release(d5);

	ID3D12Resource *r = t_buffer(&c, D3D12_HEAP_TYPE_UPLOAD, 1000);
	ID3D12Resource2 *r2;
	assert_int_equal(ID3D12Resource_QueryInterface(r, &IID_ID3D12Resource2, (void **)&r2), S_OK);
	D3D12_RESOURCE_DESC1 rd = ID3D12Resource2_GetDesc1(r2);
	assert_int_equal(rd.Width, 1000);
	assert_int_equal(rd.Dimension, D3D12_RESOURCE_DIMENSION_BUFFER);
	assert_int_equal(ID3D12Resource2_GetHeapProperties(r2, NULL, NULL), S_OK); /* both optional */
	D3D12_HEAP_PROPERTIES rhp;
	assert_int_equal(ID3D12Resource2_GetHeapProperties(r2, &rhp, NULL), S_OK);
	assert_int_equal(rhp.Type, D3D12_HEAP_TYPE_UPLOAD);
	assert_int_equal(ID3D12Resource2_SetPrivateData(r2, NULL, 4, &v), E_INVALIDARG);
	ID3D12Resource2_Release(r2);
	ID3D12Resource_Release(r);

	ID3D12Fence1 *f1;
	assert_int_equal(ID3D12Fence_QueryInterface(c.fence, &IID_ID3D12Fence1, (void **)&f1), S_OK);
	assert_int_equal(ID3D12Fence1_GetCreationFlags(f1), D3D12_FENCE_FLAG_NONE);
	ID3D12Fence1_Release(f1);

	UINT64 gpu, cpu;
	assert_int_equal(ID3D12CommandQueue_GetClockCalibration(c.queue, NULL, &cpu), E_INVALIDARG);
	assert_int_equal(ID3D12CommandQueue_GetClockCalibration(c.queue, &gpu, NULL), E_INVALIDARG);
	assert_int_equal(ID3D12CommandQueue_GetClockCalibration(c.queue, &gpu, &cpu), S_OK);
	ID3D12CommandQueue_SetMarker(c.queue, 0, "m", 2);
	ID3D12CommandQueue_BeginEvent(c.queue, 0, NULL, 0);
	ID3D12CommandQueue_EndEvent(c.queue);

	D3D12_DESCRIPTOR_HEAP_DESC hd = { .Type = D3D12_DESCRIPTOR_HEAP_TYPE_RTV, .NumDescriptors = 2 };
	ID3D12DescriptorHeap *heap;
	assert_int_equal(ID3D12Device_CreateDescriptorHeap(c.dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&heap), S_OK);
	/* not shader-visible: D3D12 gives a null GPU handle */
	assert_int_equal(ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(heap).ptr, 0);
	ID3D12DescriptorHeap_Release(heap);
	t_close(&c);
}

/* ---- the list's markers, ClearState, a CBV root argument ------------------------------------- */

static void list_state(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	ID3D12GraphicsCommandList6_SetMarker(c.list, 0, "marker", 7);
	ID3D12GraphicsCommandList6_BeginEvent(c.list, 0, NULL, 0);
	ID3D12GraphicsCommandList6_EndEvent(c.list);
	assert_int_equal(t_last_message(&c, NULL, 0), 0);
	/* a CBV argument on a UAV parameter is of the wrong type */
	D3D12_ROOT_PARAMETER p[2] = { { .ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV },
				      { .ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV } };
	ID3D12RootSignature *rs = t_root_signature(&c, p, 2);
	ID3D12Resource *buf = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 256);
	D3D12_GPU_VIRTUAL_ADDRESS va = ID3D12Resource_GetGPUVirtualAddress(buf);
	ID3D12GraphicsCommandList6_SetComputeRootSignature(c.list, rs);
	ID3D12GraphicsCommandList6_SetComputeRootConstantBufferView(c.list, 1, va);
	assert_int_equal(t_last_message(&c, NULL, 0), 0);
	ID3D12GraphicsCommandList6_SetComputeRootConstantBufferView(c.list, 0, va);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_ROOT_TYPE);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
	ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL);
	ID3D12GraphicsCommandList6_SetComputeRootSignature(c.list, rs);
	ID3D12GraphicsCommandList6_SetComputeRootConstantBufferView(c.list, 2, va);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_ROOT_INDEX);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
	ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL);
	/* ClearState drops the root signature: arguments need one again */
	ID3D12GraphicsCommandList6_SetComputeRootSignature(c.list, rs);
	ID3D12GraphicsCommandList6_ClearState(c.list, NULL);
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 0, va);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_ROOT_SIGNATURE_NONE);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
	ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL);
	/* reference counts: AddRef returns the new count */
	ULONG n0 = ID3D12RootSignature_AddRef(rs);
	assert_int_equal(ID3D12RootSignature_Release(rs), n0 - 1);
	ID3D12Resource_Release(buf);
	ID3D12RootSignature_Release(rs);
	t_close(&c);
}

/* ---- the exported entry points' rejections ------------------------------------------------ */

static void exports_reject(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	XS12_DRAW_STATISTICS ds;
	XS12_DISPATCH_STATISTICS st;
	assert_int_equal(XS12GetDrawStatistics(NULL, 0, &ds), E_INVALIDARG);
	assert_int_equal(XS12GetDrawStatistics((ID3D12GraphicsCommandList *)c.list, 0, NULL), E_INVALIDARG);
	assert_int_equal(XS12GetDispatchStatistics(NULL, 0, &st), E_INVALIDARG);
	assert_int_equal(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.list, 0, NULL), E_INVALIDARG);
	/* an empty list is not submitted: it has no execution whose figures
	 * could be read */
	assert_int_equal(t_run(&c), S_OK);
	assert_int_equal(XS12GetDrawStatistics((ID3D12GraphicsCommandList *)c.list, 0, &ds),
			 DXGI_ERROR_NOT_CURRENTLY_AVAILABLE);
	assert_int_equal(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.list, 0, &st),
			 DXGI_ERROR_NOT_CURRENTLY_AVAILABLE);
	ID3DBlob *blob = (ID3DBlob *)1, *err = (ID3DBlob *)1;
	assert_int_equal(D3D12SerializeVersionedRootSignature(NULL, &blob, &err), E_INVALIDARG);
	assert_null(err);
	D3D12_VERSIONED_ROOT_SIGNATURE_DESC vd = { .Version = D3D_ROOT_SIGNATURE_VERSION_1_0 };
	assert_int_equal(D3D12SerializeVersionedRootSignature(&vd, NULL, &err), E_INVALIDARG);
	assert_int_equal(D3D12SerializeVersionedRootSignature(&vd, &blob, &err), S_OK);
	ID3D10Blob_Release(blob);
	assert_int_equal(D3D12SerializeRootSignature(NULL, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &err), E_INVALIDARG);
	void *dbg = (void *)1;
	assert_int_equal(D3D12GetDebugInterface(&IID_ID3D12Device, &dbg), E_NOINTERFACE);
	assert_null(dbg);
	assert_int_equal(D3D12GetDebugInterface(&IID_ID3D12Debug, NULL), E_POINTER);
	void *dev = (void *)1;
	XS12_DEVICE_DESC bad = { .Machine = (XS12_MACHINE)9 };
	assert_true(FAILED(XS12CreateDevice(&bad, &IID_ID3D12Device, &dev)));
	assert_null(dev);
	/* NULL out: D3D12 answers S_FALSE ("would succeed"), a level past 12_2 E_INVALIDARG */
	assert_int_equal(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_12_0, &IID_ID3D12Device, NULL), S_FALSE);
	assert_int_equal(D3D12CreateDevice(NULL, (D3D_FEATURE_LEVEL)0xd000, &IID_ID3D12Device, &dev), E_INVALIDARG);
	t_close(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(info_queue),
		cmocka_unit_test(dred_before_removal),
		cmocka_unit_test(small_queries),
		cmocka_unit_test(list_state),
		cmocka_unit_test(exports_reject),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
