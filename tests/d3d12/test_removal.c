/* Device removal through D3D12: a VM fault, a hang and a deadlock each
 * remove the device with the documented reason, the host returns, fences
 * read UINT64_MAX, and DRED says which op of which list was running and
 * what memory lay around the faulting address, freed memory included. */
#include "d3d12_util.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

static const char *faults_path;

static void enable_dred(bool on)
{
	ID3D12DeviceRemovedExtendedDataSettings *s;
	assert_int_equal(D3D12GetDebugInterface(&IID_ID3D12DeviceRemovedExtendedDataSettings, (void **)&s), S_OK);
	D3D12_DRED_ENABLEMENT e = on ? D3D12_DRED_ENABLEMENT_FORCED_ON : D3D12_DRED_ENABLEMENT_FORCED_OFF;
	ID3D12DeviceRemovedExtendedDataSettings_SetAutoBreadcrumbsEnablement(s, e);
	ID3D12DeviceRemovedExtendedDataSettings_SetPageFaultEnablement(s, e);
	ID3D12DeviceRemovedExtendedDataSettings_Release(s);
}

static void store_to(t_ctx *c, ID3D12PipelineState *p, D3D12_GPU_VIRTUAL_ADDRESS va, UINT groups)
{
	t_set_pipeline(c, p);
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c->list, 0, va);
	ID3D12GraphicsCommandList6_Dispatch(c->list, groups, 1, 1);
}

/* A store into a buffer released before the dispatch: DEVICE_RESET, and
 * DRED's page fault names the freed buffer and the breadcrumbs stop at the
 * faulting dispatch. */
static void vm_fault_with_dred(void **state)
{
	(void)state;
	enable_dred(true);
	t_ctx c;
	t_open(&c, false, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enable_dred(false); /* read at device creation, as D3D12's */
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(&c, faults_path, "store_to", &hr);
	assert_int_equal(hr, S_OK);
	ID3D12Resource *good = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 64 * 256 * 4);
	ID3D12Resource_SetName(good, L"good");
	ID3D12Resource *victim = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 65536);
	ID3D12Resource_SetName(victim, L"victim");
	D3D12_GPU_VIRTUAL_ADDRESS gone = ID3D12Resource_GetGPUVirtualAddress(victim);
	ID3D12Resource_Release(victim);
	ID3D12GraphicsCommandList6_SetName(c.list, L"frame list");
	store_to(&c, p, ID3D12Resource_GetGPUVirtualAddress(good), 4);   /* op 0 */
	D3D12_RESOURCE_BARRIER bar = { .Type = D3D12_RESOURCE_BARRIER_TYPE_UAV };
	ID3D12GraphicsCommandList6_ResourceBarrier(c.list, 1, &bar);    /* op 1 */
	store_to(&c, p, gone, 4);                                        /* op 2: faults */
	store_to(&c, p, ID3D12Resource_GetGPUVirtualAddress(good), 4);   /* op 3 */
	double t0 = (double)clock() / CLOCKS_PER_SEC;
	assert_int_equal(t_run(&c), DXGI_ERROR_DEVICE_RESET);
	assert_true((double)clock() / CLOCKS_PER_SEC - t0 < 10);
	assert_int_equal(ID3D12Device_GetDeviceRemovedReason(c.dev), DXGI_ERROR_DEVICE_RESET);
	assert_true(ID3D12Fence_GetCompletedValue(c.fence) == UINT64_MAX);

	ID3D12DeviceRemovedExtendedData2 *dred;
	assert_int_equal(ID3D12Device_QueryInterface(c.dev, &IID_ID3D12DeviceRemovedExtendedData2, (void **)&dred), S_OK);
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetDeviceState(dred), D3D12_DRED_DEVICE_STATE_PAGEFAULT);
	D3D12_DRED_AUTO_BREADCRUMBS_OUTPUT1 bc;
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetAutoBreadcrumbsOutput1(dred, &bc), S_OK);
	const D3D12_AUTO_BREADCRUMB_NODE1 *n = bc.pHeadAutoBreadcrumbNode;
	assert_non_null(n);
	assert_null(n->pNext);
	assert_string_equal(n->pCommandListDebugNameA, "frame list"); /* SetName's, as D3D12's DRED */
	assert_null(n->pCommandQueueDebugNameA);                      /* the queue has none */
	assert_int_equal(n->BreadcrumbCount, 4);
	assert_int_equal(n->pCommandHistory[2], D3D12_AUTO_BREADCRUMB_OP_DISPATCH);
	assert_int_equal(*n->pLastBreadcrumbValue, 2); /* the dispatch and the barrier before the fault completed */
	D3D12_DRED_PAGE_FAULT_OUTPUT2 pf;
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetPageFaultAllocationOutput2(dred, &pf), S_OK);
	assert_true(pf.PageFaultVA >= gone && pf.PageFaultVA < gone + 65536);
	const D3D12_DRED_ALLOCATION_NODE1 *a = pf.pHeadRecentFreedAllocationNode;
	assert_non_null(a);
	assert_non_null(strstr(a->ObjectNameA, "victim"));
	assert_int_equal(a->AllocationType, D3D12_DRED_ALLOCATION_TYPE_RESOURCE);
	ID3D12DeviceRemovedExtendedData2_Release(dred);
	/* after the removal: calls fail, nothing hangs */
	assert_int_equal(ID3D12CommandQueue_Signal(c.queue, c.fence, 9), DXGI_ERROR_DEVICE_REMOVED);
	ID3D12Resource_Release(good);
	ID3D12PipelineState_Release(p);
	t_close(&c);
}

/* The command processor's own page fault (a resolve into a released
 * buffer): DEVICE_RESET and DRED's page fault, as a shader's. */
static void cp_page_fault(void **state)
{
	(void)state;
	enable_dred(true);
	t_ctx c;
	t_open(&c, false, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enable_dred(false);
	D3D12_QUERY_HEAP_DESC qd = { .Type = D3D12_QUERY_HEAP_TYPE_TIMESTAMP, .Count = 2 };
	ID3D12QueryHeap *qh;
	assert_int_equal(ID3D12Device_CreateQueryHeap(c.dev, &qd, &IID_ID3D12QueryHeap, (void **)&qh), S_OK);
	ID3D12Resource *dst = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 4096);
	ID3D12Resource_SetName(dst, L"resolve target");
	ID3D12GraphicsCommandList6_EndQuery(c.list, qh, D3D12_QUERY_TYPE_TIMESTAMP, 0);
	ID3D12GraphicsCommandList6_ResolveQueryData(c.list, qh, D3D12_QUERY_TYPE_TIMESTAMP, 0, 1, dst, 0);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	D3D12_GPU_VIRTUAL_ADDRESS gone = ID3D12Resource_GetGPUVirtualAddress(dst);
	ID3D12Resource_Release(dst); /* before the GPU ran the resolve */
	ID3D12CommandList *l = (ID3D12CommandList *)c.list;
	ID3D12CommandQueue_ExecuteCommandLists(c.queue, 1, &l);
	ID3D12CommandQueue_Signal(c.queue, c.fence, 1);
	ID3D12Fence_SetEventOnCompletion(c.fence, 1, NULL);
	assert_int_equal(ID3D12Device_GetDeviceRemovedReason(c.dev), DXGI_ERROR_DEVICE_RESET);
	ID3D12DeviceRemovedExtendedData2 *dred;
	assert_int_equal(ID3D12Device_QueryInterface(c.dev, &IID_ID3D12DeviceRemovedExtendedData2, (void **)&dred), S_OK);
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetDeviceState(dred), D3D12_DRED_DEVICE_STATE_PAGEFAULT);
	D3D12_DRED_PAGE_FAULT_OUTPUT2 pf;
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetPageFaultAllocationOutput2(dred, &pf), S_OK);
	assert_true(pf.PageFaultVA == gone);
	assert_non_null(pf.pHeadRecentFreedAllocationNode);
	assert_non_null(strstr(pf.pHeadRecentFreedAllocationNode->ObjectNameA, "resolve target"));
	ID3D12DeviceRemovedExtendedData2_Release(dred);
	ID3D12QueryHeap_Release(qh);
	t_close(&c);
}

/* Without DRED enabled before creation the outputs are unavailable. */
static void dred_off_is_unsupported(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, false, D3D12_COMMAND_LIST_TYPE_DIRECT);
	ID3D12DeviceRemovedExtendedData2 *dred;
	assert_int_equal(ID3D12Device_QueryInterface(c.dev, &IID_ID3D12DeviceRemovedExtendedData2, (void **)&dred), S_OK);
	D3D12_DRED_AUTO_BREADCRUMBS_OUTPUT1 bc;
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetAutoBreadcrumbsOutput1(dred, &bc), DXGI_ERROR_UNSUPPORTED);
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetDeviceState(dred), D3D12_DRED_DEVICE_STATE_UNKNOWN);
	ID3D12DeviceRemovedExtendedData2_Release(dred);
	t_close(&c);
}

/* A shader that never ends: DEVICE_HUNG within the GPU-time limit. */
static void hang_is_device_hung(void **state)
{
	(void)state;
	enable_dred(true);
	XS12_DEVICE_DESC dd = { .Machine = XS12_MACHINE_SERIES_X, .HangGpuMicroseconds = 2000 };
	t_ctx c;
	t_open_desc(&c, &dd, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enable_dred(false);
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(&c, faults_path, "spin", &hr);
	ID3D12Resource *flag = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 4096), *out = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 4096);
	t_set_pipeline(&c, p);
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 0, ID3D12Resource_GetGPUVirtualAddress(flag));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 1, ID3D12Resource_GetGPUVirtualAddress(out));
	ID3D12GraphicsCommandList6_Dispatch(c.list, 2, 1, 1);
	assert_int_equal(t_run(&c), DXGI_ERROR_DEVICE_HUNG);
	ID3D12DeviceRemovedExtendedData2 *dred;
	assert_int_equal(ID3D12Device_QueryInterface(c.dev, &IID_ID3D12DeviceRemovedExtendedData2, (void **)&dred), S_OK);
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetDeviceState(dred), D3D12_DRED_DEVICE_STATE_HUNG);
	D3D12_DRED_AUTO_BREADCRUMBS_OUTPUT bc;
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetAutoBreadcrumbsOutput(dred, &bc), S_OK);
	assert_non_null(bc.pHeadAutoBreadcrumbNode);
	assert_int_equal(*bc.pHeadAutoBreadcrumbNode->pLastBreadcrumbValue, 0);
	ID3D12DeviceRemovedExtendedData2_Release(dred);
	ID3D12Resource_Release(flag);
	ID3D12Resource_Release(out);
	ID3D12PipelineState_Release(p);
	t_close(&c);
}

/* A queue waits for a value nothing will signal, and the host waits for
 * the queue: a deadlock. The wait returns, the device is removed
 * (DEVICE_HUNG) and the message names the queue and the fence. */
static void deadlock_is_reported(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	ID3D12Fence *never;
	assert_int_equal(ID3D12Device_CreateFence(c.dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&never), S_OK);
	ID3D12Fence_SetName(never, L"never");
	assert_int_equal(ID3D12CommandQueue_Wait(c.queue, never, 1), S_OK);
	assert_int_equal(ID3D12CommandQueue_Signal(c.queue, c.fence, 1), S_OK);
	assert_int_equal(ID3D12Fence_SetEventOnCompletion(c.fence, 1, NULL), S_OK); /* returns */
	assert_int_equal(ID3D12Device_GetDeviceRemovedReason(c.dev), DXGI_ERROR_DEVICE_HUNG);
	assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_DEADLOCK));
	assert_true(ID3D12Fence_GetCompletedValue(never) == UINT64_MAX);
	assert_true(ID3D12Fence_GetCompletedValue(c.fence) == UINT64_MAX);
	/* a cycle: each queue waits for what the other signals after its wait */
	t_ctx e;
	t_open(&e, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	D3D12_COMMAND_QUEUE_DESC qd = { .Type = D3D12_COMMAND_LIST_TYPE_COMPUTE };
	ID3D12CommandQueue *cq;
	ID3D12Fence *f1;
	assert_int_equal(ID3D12Device_CreateCommandQueue(e.dev, &qd, &IID_ID3D12CommandQueue, (void **)&cq), S_OK);
	assert_int_equal(ID3D12Device_CreateFence(e.dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&f1), S_OK);
	ID3D12Fence_SetName(e.fence, L"F0");
	ID3D12Fence_SetName(f1, L"F1");
	assert_int_equal(ID3D12CommandQueue_Wait(e.queue, f1, 1), S_OK);
	assert_int_equal(ID3D12CommandQueue_Signal(e.queue, e.fence, 1), S_OK);
	assert_int_equal(ID3D12CommandQueue_Wait(cq, e.fence, 1), S_OK);
	assert_int_equal(ID3D12CommandQueue_Signal(cq, f1, 1), S_OK);
	assert_int_equal(ID3D12Fence_SetEventOnCompletion(e.fence, 1, NULL), S_OK);
	assert_int_equal(ID3D12Device_GetDeviceRemovedReason(e.dev), DXGI_ERROR_DEVICE_HUNG);
	char text[2000] = "";
	UINT64 k = ID3D12InfoQueue_GetNumStoredMessages(e.iq);
	for (UINT64 m = 0; m < k; m++) {
		SIZE_T len = 0;
		ID3D12InfoQueue_GetMessage(e.iq, m, NULL, &len);
		D3D12_MESSAGE *msg = malloc(len);
		ID3D12InfoQueue_GetMessage(e.iq, m, msg, &len);
		if (msg->ID == (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_DEADLOCK)
			snprintf(text, sizeof(text), "%s", msg->pDescription);
		free(msg);
	}
	assert_non_null(strstr(text, "queue 0 (direct) waits for ID3D12Fence 'F1' >= 1"));
	assert_non_null(strstr(text, "queue 1 (compute) waits for ID3D12Fence 'F0' >= 1"));
	assert_non_null(strstr(text, "after its own wait"));
	ID3D12Fence_Release(f1);
	ID3D12CommandQueue_Release(cq);
	t_close(&e);
	/* a timed wait is no deadlock: on a live device it times out */
	t_ctx d;
	t_open(&d, false, D3D12_COMMAND_LIST_TYPE_DIRECT);
	assert_int_equal(ID3D12CommandQueue_Wait(d.queue, d.fence, 5), S_OK);
	assert_int_equal(ID3D12CommandQueue_Signal(d.queue, d.fence, 6), S_OK);
	HANDLE ev = XS12CreateEvent();
	assert_int_equal(ID3D12Fence_SetEventOnCompletion(d.fence, 6, ev), S_OK);
	assert_int_equal(XS12WaitForEvent(ev, 20), 0x102u);
	assert_int_equal(ID3D12Device_GetDeviceRemovedReason(d.dev), S_OK);
	XS12CloseEvent(ev);
	t_close(&d);
	ID3D12Fence_Release(never);
	t_close(&c);
}

/* A host wait longer than the host-time limit is no deadlock while another
 * thread keeps signalling: the limit counts from the last change, not from
 * the wait's start ("nothing changed within the host-time limit"). Once a
 * wait with nothing changing has removed the device, a signal fails. */
static ID3D12Fence *steps;

static void *signal_steps(void *arg)
{
	(void)arg;
	for (UINT64 i = 1; i <= 8; i++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 }; /* 100 ms: 800 ms in all, over the 500 ms limit */
		nanosleep(&ts, NULL);
		ID3D12Fence_Signal(steps, i);
	}
	return NULL;
}

static void long_wait_with_progress_is_no_deadlock(void **state)
{
	(void)state;
	t_ctx c;
	XS12_DEVICE_DESC desc = { .Machine = XS12_MACHINE_SERIES_X, .HangHostMilliseconds = 500 };
	t_open_desc(&c, &desc, D3D12_COMMAND_LIST_TYPE_DIRECT);
	assert_int_equal(ID3D12Device_CreateFence(c.dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&steps), S_OK);
	/* the waiter waits for a value the GPU will write after the host's */
	assert_int_equal(ID3D12CommandQueue_Wait(c.queue, steps, 8), S_OK);
	assert_int_equal(ID3D12CommandQueue_Signal(c.queue, c.fence, 1), S_OK);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, signal_steps, NULL), 0);
	assert_int_equal(ID3D12Fence_SetEventOnCompletion(c.fence, 1, NULL), S_OK);
	pthread_join(t, NULL);
	assert_int_equal(ID3D12Device_GetDeviceRemovedReason(c.dev), S_OK);
	assert_true(ID3D12Fence_GetCompletedValue(c.fence) == 1);
	/* nothing changes now: the wait removes the device after 500 ms */
	assert_int_equal(ID3D12CommandQueue_Wait(c.queue, steps, 9), S_OK);
	assert_int_equal(ID3D12CommandQueue_Signal(c.queue, c.fence, 2), S_OK);
	assert_int_equal(ID3D12Fence_SetEventOnCompletion(c.fence, 2, NULL), S_OK);
	assert_int_equal(ID3D12Device_GetDeviceRemovedReason(c.dev), DXGI_ERROR_DEVICE_HUNG);
	assert_int_equal(ID3D12Fence_Signal(steps, 10), DXGI_ERROR_DEVICE_REMOVED);
	assert_true(ID3D12Fence_GetCompletedValue(steps) == UINT64_MAX);
	ID3D12Fence_Release(steps);
	t_close(&c);
}

/* A device with DRED's breadcrumbs, whose list copied a buffer and completed
 * (its breadcrumb entry stays until the next execution with ops). */
static void copy_and_complete(t_ctx *c, ID3D12Resource **a, ID3D12Resource **b)
{
	enable_dred(true);
	t_open(c, false, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enable_dred(false);
	*a = t_buffer(c, D3D12_HEAP_TYPE_DEFAULT, 256);
	*b = t_buffer(c, D3D12_HEAP_TYPE_DEFAULT, 256);
	ID3D12GraphicsCommandList6_CopyBufferRegion(c->list, *b, 0, *a, 0, 256);
	assert_int_equal(t_run(c), S_OK);
}

/* A host wait nothing can satisfy removes the device (DEVICE_HUNG); DRED
 * still has the completed copy's node, with the count it reached: 1 of 1. */
static void remove_and_expect_the_copy(t_ctx *c)
{
	assert_int_equal(ID3D12Fence_SetEventOnCompletion(c->fence, 100, NULL), S_OK);
	assert_int_equal(ID3D12Device_GetDeviceRemovedReason(c->dev), DXGI_ERROR_DEVICE_HUNG);
	ID3D12DeviceRemovedExtendedData2 *dred;
	assert_int_equal(ID3D12Device_QueryInterface(c->dev, &IID_ID3D12DeviceRemovedExtendedData2, (void **)&dred), S_OK);
	D3D12_DRED_AUTO_BREADCRUMBS_OUTPUT1 bc;
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetAutoBreadcrumbsOutput1(dred, &bc), S_OK);
	const D3D12_AUTO_BREADCRUMB_NODE1 *n = bc.pHeadAutoBreadcrumbNode;
	assert_non_null(n);
	assert_null(n->pNext);
	assert_int_equal(n->BreadcrumbCount, 1);
	assert_int_equal(n->pCommandHistory[0], D3D12_AUTO_BREADCRUMB_OP_COPYBUFFERREGION);
	assert_int_equal(*n->pLastBreadcrumbValue, 1);
	ID3D12DeviceRemovedExtendedData2_Release(dred);
}

/* The list and its allocator released after their execution completed,
 * then a removal: DRED reads no breadcrumb out of the freed memory. */
static void dred_after_allocator_freed(void **state)
{
	(void)state;
	t_ctx c;
	ID3D12Resource *a, *b;
	copy_and_complete(&c, &a, &b);
	ID3D12GraphicsCommandList6_Release(c.list);
	ID3D12CommandAllocator_Release(c.alloc);
	c.list = NULL;
	c.alloc = NULL;
	remove_and_expect_the_copy(&c);
	ID3D12Resource_Release(a);
	ID3D12Resource_Release(b);
	t_close(&c);
}

/* The allocator Reset and reused by a list without ops (no new entry, no
 * pruning), whose execution zeroes its breadcrumb word in the same bytes:
 * DRED does not show that count as the completed copy's. */
static void dred_after_allocator_reset(void **state)
{
	(void)state;
	t_ctx c;
	ID3D12Resource *a, *b;
	copy_and_complete(&c, &a, &b); /* t_run reset the allocator and the list */
	assert_int_equal(t_run(&c), S_OK);
	remove_and_expect_the_copy(&c);
	ID3D12Resource_Release(a);
	ID3D12Resource_Release(b);
	t_close(&c);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_removal FAULTS.hsaco\n");
		return 2;
	}
	faults_path = argv[1];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vm_fault_with_dred),
		cmocka_unit_test(dred_off_is_unsupported),
		cmocka_unit_test(cp_page_fault),
		cmocka_unit_test(hang_is_device_hung),
		cmocka_unit_test(deadlock_is_reported),
		cmocka_unit_test(long_wait_with_progress_is_no_deadlock),
		cmocka_unit_test(dred_after_allocator_freed),
		cmocka_unit_test(dred_after_allocator_reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
