/*
 * Rejections of the D3D12 calls xs12 implements that the feature tests do
 * not reach: command allocators and lists in the wrong state or of the
 * wrong type, root signatures and arguments, pipelines from bad bytecode,
 * resources xs12 cannot create or map, copies, barriers, queries,
 * ExecuteIndirect's buffers. Each case asserts the HRESULT and, with the
 * debug layer on, the exact message ID (include/xs12/xs12_messages.def);
 * a list error also makes Close fail with E_INVALIDARG. The inventory is
 * tests/api/rejections.md. argv: vadd.O2.w32.
 */
#include "d3d12_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const char *vadd_path;

/* The last message is id; the list's Close fails; the list is reopened. */
static void list_rejected(t_ctx *c, XS12_MESSAGE_ID id)
{
	char text[600];
	D3D12_MESSAGE_ID got = t_last_message(c, text, sizeof(text));
	if (got != (D3D12_MESSAGE_ID)id)
		fail_msg("message %d '%s', expected %d", (int)got, text, (int)id);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c->list), E_INVALIDARG);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c->list, c->alloc, NULL), S_OK);
}

static void device_rejected(t_ctx *c, XS12_MESSAGE_ID id)
{
	char text[600];
	D3D12_MESSAGE_ID got = t_last_message(c, text, sizeof(text));
	if (got != (D3D12_MESSAGE_ID)id)
		fail_msg("message %d '%s', expected %d", (int)got, text, (int)id);
}

/* ---- allocators and lists ------------------------------------------------------------ */

static void lists_and_allocators(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	void *out = (void *)1;
	/* a type D3D12 does not have (BUNDLE and VIDEO_* are not xs12's) */
	assert_int_equal(ID3D12Device_CreateCommandAllocator(c.dev, (D3D12_COMMAND_LIST_TYPE)77,
							     &IID_ID3D12CommandAllocator, &out), E_INVALIDARG);
	assert_null(out);
	device_rejected(&c, XS12_MESSAGE_ID_LIST_TYPE);
	/* a COMPUTE list on a DIRECT allocator */
	out = (void *)1;
	assert_int_equal(ID3D12Device_CreateCommandList(c.dev, 0, D3D12_COMMAND_LIST_TYPE_COMPUTE, c.alloc, NULL,
							&IID_ID3D12GraphicsCommandList, &out), E_INVALIDARG);
	assert_null(out);
	device_rejected(&c, XS12_MESSAGE_ID_LIST_TYPE);
	/* a second open list on the allocator c.list records into */
	out = (void *)1;
	assert_int_equal(ID3D12Device_CreateCommandList(c.dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, c.alloc, NULL,
							&IID_ID3D12GraphicsCommandList, &out), E_INVALIDARG);
	device_rejected(&c, XS12_MESSAGE_ID_ALLOCATOR_IN_USE);
	/* ... or a Reset onto it of another, closed, list */
	ID3D12CommandAllocator *a2;
	assert_int_equal(ID3D12Device_CreateCommandAllocator(c.dev, D3D12_COMMAND_LIST_TYPE_DIRECT,
							     &IID_ID3D12CommandAllocator, (void **)&a2), S_OK);
	ID3D12GraphicsCommandList *l2;
	assert_int_equal(ID3D12Device_CreateCommandList(c.dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, a2, NULL,
							&IID_ID3D12GraphicsCommandList, (void **)&l2), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList_Close(l2), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList_Reset(l2, c.alloc, NULL), E_INVALIDARG);
	device_rejected(&c, XS12_MESSAGE_ID_ALLOCATOR_IN_USE);
	/* resetting the allocator an open list records into */
	assert_int_equal(ID3D12CommandAllocator_Reset(c.alloc), E_FAIL);
	device_rejected(&c, XS12_MESSAGE_ID_ALLOCATOR_IN_USE);

	/* recording into, and closing, a closed list */
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	ID3D12GraphicsCommandList6_Dispatch(c.list, 1, 1, 1);
	device_rejected(&c, XS12_MESSAGE_ID_LIST_CLOSED);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_FAIL);
	device_rejected(&c, XS12_MESSAGE_ID_LIST_CLOSED);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);

	/* more lists at once than xs12 takes, and a list that is not xs12's */
	ID3D12CommandList *many[65];
	for (int i = 0; i < 65; i++)
		many[i] = (ID3D12CommandList *)l2;
	ID3D12CommandQueue_ExecuteCommandLists(c.queue, 65, many);
	device_rejected(&c, XS12_MESSAGE_ID_LIST_TYPE);
	ID3D12CommandList *none[1] = { NULL };
	ID3D12CommandQueue_ExecuteCommandLists(c.queue, 1, none);
	device_rejected(&c, XS12_MESSAGE_ID_LIST_TYPE);
	/* a COPY list on a DIRECT queue */
	ID3D12CommandAllocator *ca;
	ID3D12GraphicsCommandList *cl;
	assert_int_equal(ID3D12Device_CreateCommandAllocator(c.dev, D3D12_COMMAND_LIST_TYPE_COPY,
							     &IID_ID3D12CommandAllocator, (void **)&ca), S_OK);
	assert_int_equal(ID3D12Device_CreateCommandList(c.dev, 0, D3D12_COMMAND_LIST_TYPE_COPY, ca, NULL,
							&IID_ID3D12GraphicsCommandList, (void **)&cl), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList_Close(cl), S_OK);
	ID3D12CommandList *one[1] = { (ID3D12CommandList *)cl };
	ID3D12CommandQueue_ExecuteCommandLists(c.queue, 1, one);
	device_rejected(&c, XS12_MESSAGE_ID_LIST_TYPE);
	ID3D12GraphicsCommandList_Release(cl);
	ID3D12CommandAllocator_Release(ca);
	ID3D12GraphicsCommandList_Release(l2);
	ID3D12CommandAllocator_Release(a2);
	t_close(&c);
}

/* ---- root signatures and arguments ---------------------------------------------------------- */

static void root_signatures_and_arguments(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	ID3D12Resource *buf = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 4096);
	D3D12_GPU_VIRTUAL_ADDRESS va = ID3D12Resource_GetGPUVirtualAddress(buf);

	/* a malformed serialized root signature */
	static const uint32_t junk[8] = { 0x43425844, 1, 2, 3 };
	void *rs = (void *)1;
	assert_int_equal(ID3D12Device_CreateRootSignature(c.dev, 0, junk, sizeof(junk), &IID_ID3D12RootSignature, &rs),
			 E_INVALIDARG);
	assert_null(rs);
	device_rejected(&c, XS12_MESSAGE_ID_ROOT_SIGNATURE_BLOB);

	/* an argument before any root signature */
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 0, va);
	list_rejected(&c, XS12_MESSAGE_ID_ROOT_SIGNATURE_NONE);

	/* constants past the parameter's Num32BitValues */
	D3D12_ROOT_PARAMETER p[2] = {
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS,
		  .Constants = { .ShaderRegister = 0, .Num32BitValues = 2 } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV },
	};
	ID3D12RootSignature *small = t_root_signature(&c, p, 2);
	ID3D12GraphicsCommandList6_SetComputeRootSignature(c.list, small);
	uint32_t vals[3] = { 1, 2, 3 };
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstants(c.list, 0, 2, vals, 0);
	assert_int_equal(t_last_message(&c, NULL, 0), 0);
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstants(c.list, 0, 3, vals, 0);
	list_rejected(&c, XS12_MESSAGE_ID_ROOT_CONSTANTS_RANGE);
	ID3D12GraphicsCommandList6_SetComputeRootSignature(c.list, small);
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c.list, 0, 1, 2);
	list_rejected(&c, XS12_MESSAGE_ID_ROOT_CONSTANTS_RANGE);
	ID3D12GraphicsCommandList6_SetComputeRootSignature(c.list, small);
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstants(c.list, 0, 1, NULL, 0);
	list_rejected(&c, XS12_MESSAGE_ID_ROOT_CONSTANTS_RANGE);

	/* a dispatch whose list root signature is not the pipeline's */
	HRESULT hr;
	ID3D12PipelineState *vadd = t_pipeline(&c, vadd_path, NULL, &hr);
	assert_int_equal(hr, S_OK);
	ID3D12GraphicsCommandList6_SetComputeRootSignature(c.list, small);
	ID3D12GraphicsCommandList6_SetPipelineState(c.list, vadd);
	ID3D12GraphicsCommandList6_Dispatch(c.list, 1, 1, 1);
	assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_ROOT_SIGNATURE_PIPELINE));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
	ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL);

	/* a dispatch with a root parameter never set: a warning, Close succeeds */
	t_set_pipeline(&c, vadd);
	ID3D12GraphicsCommandList6_Dispatch(c.list, 1, 1, 1);
	assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_ROOT_ARGUMENT_UNSET));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL);

	ID3D12PipelineState_Release(vadd);
	ID3D12RootSignature_Release(small);
	ID3D12Resource_Release(buf);
	t_close(&c);
}

/* ---- pipelines ------------------------------------------------------------------------ */

static void pipelines_from_bad_bytecode(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	static const uint8_t junk[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	D3D12_COMPUTE_PIPELINE_STATE_DESC pd = { .CS = { junk, sizeof(junk) } };
	void *p = (void *)1;
	assert_int_equal(ID3D12Device_CreateComputePipelineState(c.dev, &pd, &IID_ID3D12PipelineState, &p),
			 E_INVALIDARG);
	assert_null(p);
	device_rejected(&c, XS12_MESSAGE_ID_PIPELINE_CODE_OBJECT);
	pd.CS.pShaderBytecode = NULL;
	assert_int_equal(ID3D12Device_CreateComputePipelineState(c.dev, &pd, &IID_ID3D12PipelineState, &p),
			 E_INVALIDARG);
	device_rejected(&c, XS12_MESSAGE_ID_PIPELINE_CODE_OBJECT);
	assert_int_equal(ID3D12Device_CreateComputePipelineState(c.dev, NULL, &IID_ID3D12PipelineState, &p),
			 E_INVALIDARG);
	device_rejected(&c, XS12_MESSAGE_ID_PIPELINE_CODE_OBJECT);
	/* a kernel the code object does not have */
	HRESULT hr;
	ID3D12PipelineState *none = t_pipeline(&c, vadd_path, "no_such_kernel", &hr);
	assert_null(none);
	assert_int_equal(hr, E_INVALIDARG);
	assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_PIPELINE_KERNEL));
	t_close(&c);
}

/* ---- resources ------------------------------------------------------------------------- */

static void resources(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
	D3D12_RESOURCE_DESC rd = { .Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = 4096, .Height = 1,
				   .DepthOrArraySize = 1, .MipLevels = 1, .SampleDesc = { 1, 0 },
				   .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR };
	void *r = (void *)1;
	assert_int_equal(ID3D12Device_CreateCommittedResource(c.dev, NULL, 0, &rd, D3D12_RESOURCE_STATE_COMMON, NULL,
							      &IID_ID3D12Resource, &r), E_INVALIDARG);
	assert_null(r);
	device_rejected(&c, XS12_MESSAGE_ID_RESOURCE_DESC);
	assert_int_equal(ID3D12Device_CreateCommittedResource(c.dev, &hp, 0, NULL, D3D12_RESOURCE_STATE_COMMON, NULL,
							      &IID_ID3D12Resource, &r), E_INVALIDARG);
	device_rejected(&c, XS12_MESSAGE_ID_RESOURCE_DESC);
	D3D12_RESOURCE_DESC bad = rd;
	bad.Width = 0;
	assert_int_equal(ID3D12Device_CreateCommittedResource(c.dev, &hp, 0, &bad, D3D12_RESOURCE_STATE_COMMON, NULL,
							      &IID_ID3D12Resource, &r), E_INVALIDARG);
	device_rejected(&c, XS12_MESSAGE_ID_RESOURCE_DESC);
	bad = rd, bad.Height = 2;
	assert_int_equal(ID3D12Device_CreateCommittedResource(c.dev, &hp, 0, &bad, D3D12_RESOURCE_STATE_COMMON, NULL,
							      &IID_ID3D12Resource, &r), E_INVALIDARG);
	device_rejected(&c, XS12_MESSAGE_ID_RESOURCE_DESC);
	D3D12_HEAP_PROPERTIES badh = { .Type = (D3D12_HEAP_TYPE)42 };
	assert_int_equal(ID3D12Device_CreateCommittedResource(c.dev, &badh, 0, &rd, D3D12_RESOURCE_STATE_COMMON, NULL,
							      &IID_ID3D12Resource, &r), E_INVALIDARG);
	device_rejected(&c, XS12_MESSAGE_ID_RESOURCE_DESC);
	/* more than the 48-bit space: a clean failure, not an allocation */
	bad = rd, bad.Width = UINT64_MAX;
	assert_true(FAILED(ID3D12Device_CreateCommittedResource(c.dev, &hp, 0, &bad, D3D12_RESOURCE_STATE_COMMON, NULL,
								&IID_ID3D12Resource, &r)));
	device_rejected(&c, XS12_MESSAGE_ID_RESOURCE_DESC);

	/* Map of a DEFAULT buffer, and of a subresource a buffer lacks */
	ID3D12Resource *def = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 4096);
	ID3D12Resource *up = t_buffer(&c, D3D12_HEAP_TYPE_UPLOAD, 4096);
	void *ptr = (void *)1;
	assert_int_equal(ID3D12Resource_Map(def, 0, NULL, &ptr), E_INVALIDARG);
	device_rejected(&c, XS12_MESSAGE_ID_RESOURCE_MAP);
	assert_int_equal(ID3D12Resource_Map(up, 1, NULL, &ptr), E_INVALIDARG);
	device_rejected(&c, XS12_MESSAGE_ID_RESOURCE_MAP);
	assert_int_equal(ID3D12Resource_Map(up, 0, NULL, &ptr), S_OK);
	ID3D12Resource_Unmap(up, 0, NULL);

	/* copies outside their buffers */
	ID3D12GraphicsCommandList6_CopyBufferRegion(c.list, def, 4000, up, 0, 100);
	list_rejected(&c, XS12_MESSAGE_ID_COPY_RANGE);
	ID3D12GraphicsCommandList6_CopyBufferRegion(c.list, def, 0, up, UINT64_MAX - 10, 100);
	list_rejected(&c, XS12_MESSAGE_ID_COPY_RANGE);
	ID3D12GraphicsCommandList6_CopyBufferRegion(c.list, def, 0, NULL, 0, 100);
	list_rejected(&c, XS12_MESSAGE_ID_COPY_RANGE);
	ID3D12Resource *big = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 8192);
	ID3D12GraphicsCommandList6_CopyResource(c.list, big, def); /* sizes differ */
	list_rejected(&c, XS12_MESSAGE_ID_COPY_RANGE);

	/* a barrier of a type D3D12 does not have */
	D3D12_RESOURCE_BARRIER b = { .Type = (D3D12_RESOURCE_BARRIER_TYPE)9 };
	ID3D12GraphicsCommandList6_ResourceBarrier(c.list, 1, &b);
	list_rejected(&c, XS12_MESSAGE_ID_BARRIER);

	ID3D12Resource_Release(big);
	ID3D12Resource_Release(up);
	ID3D12Resource_Release(def);
	t_close(&c);
}

/* ---- queries ---------------------------------------------------------------------------- */

static void queries(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	D3D12_QUERY_HEAP_DESC qd = { .Type = D3D12_QUERY_HEAP_TYPE_TIMESTAMP, .Count = 0 };
	void *h = (void *)1;
	assert_int_equal(ID3D12Device_CreateQueryHeap(c.dev, &qd, &IID_ID3D12QueryHeap, &h), E_INVALIDARG);
	assert_null(h);
	device_rejected(&c, XS12_MESSAGE_ID_QUERY);
	qd.Count = (1u << 20) + 1;
	assert_int_equal(ID3D12Device_CreateQueryHeap(c.dev, &qd, &IID_ID3D12QueryHeap, &h), E_INVALIDARG);
	device_rejected(&c, XS12_MESSAGE_ID_QUERY);
	qd.Count = 4;
	ID3D12QueryHeap *heap;
	assert_int_equal(ID3D12Device_CreateQueryHeap(c.dev, &qd, &IID_ID3D12QueryHeap, (void **)&heap), S_OK);
	ID3D12GraphicsCommandList6_EndQuery(c.list, heap, D3D12_QUERY_TYPE_TIMESTAMP, 4);
	list_rejected(&c, XS12_MESSAGE_ID_QUERY);
	ID3D12GraphicsCommandList6_EndQuery(c.list, heap, D3D12_QUERY_TYPE_OCCLUSION, 0);
	list_rejected(&c, XS12_MESSAGE_ID_QUERY);
	ID3D12GraphicsCommandList6_BeginQuery(c.list, heap, D3D12_QUERY_TYPE_TIMESTAMP, 0); /* timestamps only end */
	list_rejected(&c, XS12_MESSAGE_ID_QUERY);
	ID3D12Resource *rb = t_buffer(&c, D3D12_HEAP_TYPE_READBACK, 16);
	ID3D12GraphicsCommandList6_ResolveQueryData(c.list, heap, D3D12_QUERY_TYPE_TIMESTAMP, 0, 4, rb, 0); /* 32 B */
	list_rejected(&c, XS12_MESSAGE_ID_QUERY);
	ID3D12GraphicsCommandList6_ResolveQueryData(c.list, heap, D3D12_QUERY_TYPE_TIMESTAMP, 2, 3, rb, 0);
	list_rejected(&c, XS12_MESSAGE_ID_QUERY);
	ID3D12Resource_Release(rb);
	ID3D12QueryHeap_Release(heap);
	t_close(&c);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s vadd.co\n", argv[0]);
		return 2;
	}
	vadd_path = argv[1];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lists_and_allocators),
		cmocka_unit_test(root_signatures_and_arguments),
		cmocka_unit_test(pipelines_from_bad_bytecode),
		cmocka_unit_test(resources),
		cmocka_unit_test(queries),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
