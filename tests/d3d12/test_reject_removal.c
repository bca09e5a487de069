/*
 * Rejections around ExecuteIndirect and device removal, by message ID:
 * command signatures xs12 cannot execute, argument and count buffers the
 * commands do not fit in (offsets near 2^64 included), the removal itself
 * (DEVICE_REMOVED with the debug layer on) and calls after it
 * (CALL_AFTER_REMOVAL, DXGI_ERROR_DEVICE_REMOVED). The inventory is
 * tests/api/rejections.md. argv: faults.O2.w32.
 */
#include "d3d12_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const char *faults_path;

static void list_rejected(t_ctx *c, XS12_MESSAGE_ID id)
{
	char text[600];
	D3D12_MESSAGE_ID got = t_last_message(c, text, sizeof(text));
	if (got != (D3D12_MESSAGE_ID)id)
		fail_msg("message %d '%s', expected %d", (int)got, text, (int)id);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c->list), E_INVALIDARG);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c->list, c->alloc, NULL), S_OK);
}

static void indirect_rejects(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	void *out = (void *)1;
	assert_int_equal(ID3D12Device_CreateCommandSignature(c.dev, NULL, NULL, &IID_ID3D12CommandSignature, &out),
			 E_INVALIDARG);
	assert_null(out);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_INDIRECT_SIGNATURE);
	D3D12_INDIRECT_ARGUMENT_DESC disp = { .Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH };
	D3D12_COMMAND_SIGNATURE_DESC sd = { .ByteStride = 12, .NumArgumentDescs = 0, .pArgumentDescs = &disp };
	assert_int_equal(ID3D12Device_CreateCommandSignature(c.dev, &sd, NULL, &IID_ID3D12CommandSignature, &out),
			 E_INVALIDARG);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_INDIRECT_SIGNATURE);
	sd.NumArgumentDescs = 1, sd.ByteStride = 8; /* a dispatch's 3 dwords do not fit */
	assert_int_equal(ID3D12Device_CreateCommandSignature(c.dev, &sd, NULL, &IID_ID3D12CommandSignature, &out),
			 E_INVALIDARG);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_INDIRECT_SIGNATURE);
	D3D12_INDIRECT_ARGUMENT_DESC two[2] = { disp, disp }; /* DISPATCH must be last */
	sd = (D3D12_COMMAND_SIGNATURE_DESC){ .ByteStride = 24, .NumArgumentDescs = 2, .pArgumentDescs = two };
	assert_int_equal(ID3D12Device_CreateCommandSignature(c.dev, &sd, NULL, &IID_ID3D12CommandSignature, &out),
			 E_INVALIDARG);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_INDIRECT_SIGNATURE);
	D3D12_INDIRECT_ARGUMENT_DESC cst[2] = {
		{ .Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = { 0, 0, 1 } }, disp };
	sd = (D3D12_COMMAND_SIGNATURE_DESC){ .ByteStride = 16, .NumArgumentDescs = 2, .pArgumentDescs = cst };
	assert_int_equal(ID3D12Device_CreateCommandSignature(c.dev, &sd, NULL, &IID_ID3D12CommandSignature, &out),
			 E_INVALIDARG); /* a root argument needs a root signature */
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_INDIRECT_SIGNATURE);

	sd = (D3D12_COMMAND_SIGNATURE_DESC){ .ByteStride = 12, .NumArgumentDescs = 1, .pArgumentDescs = &disp };
	ID3D12CommandSignature *sig;
	assert_int_equal(ID3D12Device_CreateCommandSignature(c.dev, &sd, NULL, &IID_ID3D12CommandSignature,
							     (void **)&sig), S_OK);
	ID3D12Resource *args = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 48);
	ID3D12Resource *count = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 8);
	ID3D12GraphicsCommandList6_ExecuteIndirect(c.list, NULL, 1, args, 0, NULL, 0);
	list_rejected(&c, XS12_MESSAGE_ID_INDIRECT_SIGNATURE);
	ID3D12GraphicsCommandList6_ExecuteIndirect(c.list, sig, 1, NULL, 0, NULL, 0);
	list_rejected(&c, XS12_MESSAGE_ID_INDIRECT_SIGNATURE);
	ID3D12GraphicsCommandList6_ExecuteIndirect(c.list, sig, 5, args, 0, NULL, 0); /* 60 > 48 bytes */
	list_rejected(&c, XS12_MESSAGE_ID_INDIRECT_BUFFER);
	ID3D12GraphicsCommandList6_ExecuteIndirect(c.list, sig, 1, args, 40, NULL, 0);
	list_rejected(&c, XS12_MESSAGE_ID_INDIRECT_BUFFER);
	/* an offset that wraps past 2^64 with the commands' bytes */
	ID3D12GraphicsCommandList6_ExecuteIndirect(c.list, sig, 1, args, UINT64_MAX - 3, NULL, 0);
	list_rejected(&c, XS12_MESSAGE_ID_INDIRECT_BUFFER);
	ID3D12GraphicsCommandList6_ExecuteIndirect(c.list, sig, 1, args, 0, count, 6); /* count off 6: not 4-aligned */
	list_rejected(&c, XS12_MESSAGE_ID_INDIRECT_BUFFER);
	ID3D12GraphicsCommandList6_ExecuteIndirect(c.list, sig, 1, args, 0, count, 8); /* past its end */
	list_rejected(&c, XS12_MESSAGE_ID_INDIRECT_BUFFER);
	ID3D12GraphicsCommandList6_ExecuteIndirect(c.list, sig, 1, args, 0, count, UINT64_MAX - 1);
	list_rejected(&c, XS12_MESSAGE_ID_INDIRECT_BUFFER);
	ID3D12Resource_Release(count);
	ID3D12Resource_Release(args);
	ID3D12CommandSignature_Release(sig);
	t_close(&c);
}

/* Root arguments a command signature may not carry, as D3D12 refuses them
 * (E_INVALIDARG): constants past their parameter by a range whose 32-bit
 * end wraps (and whose 4 * Num wraps the record's size under ByteStride),
 * and views on a parameter of another type. At ExecuteIndirect, the
 * signature's root signature must be the one bound: one of the same
 * parameter count but other types is refused, not copied through. */
static void indirect_root_arguments_rejects(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	const D3D12_ROOT_PARAMETER uav_const[2] = {
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, .Constants = { 0, 0, 1 } },
	};
	const D3D12_ROOT_PARAMETER const_uav[2] = { uav_const[1], uav_const[0] };
	ID3D12RootSignature *rs = t_root_signature(&c, uav_const, 2), *other = t_root_signature(&c, const_uav, 2);
	const D3D12_INDIRECT_ARGUMENT_DESC disp = { .Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH };
	const struct {
		D3D12_INDIRECT_ARGUMENT_DESC arg;
		UINT stride;
	} bad[] = {
		{ { .Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = { 1, 0xffffffffu, 1 } }, 16 },
		{ { .Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = { 1, 1, 0xffffffffu } }, 8 },
		{ { .Type = D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, .UnorderedAccessView = { 1 } }, 20 },
		{ { .Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW, .ConstantBufferView = { 0 } }, 20 },
		{ { .Type = D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, .ShaderResourceView = { 0 } }, 20 },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		D3D12_INDIRECT_ARGUMENT_DESC ad[2] = { bad[i].arg, disp };
		D3D12_COMMAND_SIGNATURE_DESC sd = { .ByteStride = bad[i].stride, .NumArgumentDescs = 2, .pArgumentDescs = ad };
		void *out = (void *)1;
		if (ID3D12Device_CreateCommandSignature(c.dev, &sd, rs, &IID_ID3D12CommandSignature, &out) != E_INVALIDARG)
			fail_msg("case %zu: CreateCommandSignature did not return E_INVALIDARG", i);
		assert_null(out);
		assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_INDIRECT_SIGNATURE);
	}
	/* a UAV argument on rs's UAV: created; executed with `other` bound, refused */
	D3D12_INDIRECT_ARGUMENT_DESC ad[2] = {
		{ .Type = D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, .UnorderedAccessView = { 0 } }, disp };
	D3D12_COMMAND_SIGNATURE_DESC sd = { .ByteStride = 20, .NumArgumentDescs = 2, .pArgumentDescs = ad };
	ID3D12CommandSignature *sig;
	assert_int_equal(ID3D12Device_CreateCommandSignature(c.dev, &sd, rs, &IID_ID3D12CommandSignature, (void **)&sig),
			 S_OK);
	ID3D12Resource *args = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 20);
	ID3D12GraphicsCommandList6_SetComputeRootSignature(c.list, other);
	ID3D12GraphicsCommandList6_ExecuteIndirect(c.list, sig, 1, args, 0, NULL, 0);
	list_rejected(&c, XS12_MESSAGE_ID_INDIRECT_SIGNATURE);
	/* with rs bound the signature passes (and no pipeline is the error) */
	ID3D12GraphicsCommandList6_SetComputeRootSignature(c.list, rs);
	ID3D12GraphicsCommandList6_ExecuteIndirect(c.list, sig, 1, args, 0, NULL, 0);
	list_rejected(&c, XS12_MESSAGE_ID_DISPATCH_NO_PIPELINE);
	ID3D12Resource_Release(args);
	ID3D12CommandSignature_Release(sig);
	ID3D12RootSignature_Release(other);
	ID3D12RootSignature_Release(rs);
	t_close(&c);
}

static void removal_and_calls_after_it(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(&c, faults_path, "store_to", &hr);
	assert_int_equal(hr, S_OK);
	ID3D12Resource *victim = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 65536);
	D3D12_GPU_VIRTUAL_ADDRESS gone = ID3D12Resource_GetGPUVirtualAddress(victim);
	ID3D12Resource_Release(victim);
	t_set_pipeline(&c, p);
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 0, gone);
	ID3D12GraphicsCommandList6_Dispatch(c.list, 1, 1, 1);
	assert_int_equal(t_run(&c), DXGI_ERROR_DEVICE_RESET);
	assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_DEVICE_REMOVED));
	ID3D12InfoQueue_ClearStoredMessages(c.iq);
	/* after it: submissions and signals fail with the removal's code and
	 * the debug layer says why */
	assert_int_equal(ID3D12CommandQueue_Signal(c.queue, c.fence, 9), DXGI_ERROR_DEVICE_REMOVED);
	assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_CALL_AFTER_REMOVAL));
	ID3D12InfoQueue_ClearStoredMessages(c.iq);
	t_set_pipeline(&c, p); /* a list with work in it (an empty one is not submitted at all) */
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 0, gone);
	ID3D12GraphicsCommandList6_Dispatch(c.list, 1, 1, 1);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	ID3D12CommandList *one[1] = { (ID3D12CommandList *)c.list };
	ID3D12CommandQueue_ExecuteCommandLists(c.queue, 1, one);
	assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_CALL_AFTER_REMOVAL));
	assert_true(ID3D12Fence_GetCompletedValue(c.fence) == UINT64_MAX);
	assert_int_equal(ID3D12Device_GetDeviceRemovedReason(c.dev), DXGI_ERROR_DEVICE_RESET);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
	ID3D12PipelineState_Release(p);
	t_close(&c);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s faults.co\n", argv[0]);
		return 2;
	}
	faults_path = argv[1];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(indirect_rejects),
		cmocka_unit_test(indirect_root_arguments_rejects),
		cmocka_unit_test(removal_and_calls_after_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
