/*
 * SPEC S4.2 through D3D12: MaxWavesWithLateAllocParameterCache above 22
 * can deadlock the GPU. A wave64 VS of 256 VGPRs with eight parameters
 * (tests/d3d12/gfx/fat.vs.ll) and a PS, both kept to CUs 0..2 of every SA
 * by VSDisableFlags / PSDisableFlags 0x3ff8: 3 CUs x 2 SIMDs x 2 waves = 12
 * places per SA. 23 becomes LATE_ALLOC_VS.LIMIT 12: late VS waves can take
 * all 12, waiting at their exp for parameter-cache space only PS waves
 * would free, and no PS wave finds room: the device is removed as hung
 * (the debug layer warned at the call). 22 (LIMIT 11) leaves a place and
 * the frame completes, and so does 23 with VS also off CU 1 (0x3ffa), the
 * remedy S4.2 gives.
 *
 * argv: fat.vs color.ps
 */
#include "d3d12_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static void *vs, *ps;
static size_t vs_size, ps_size;

static HRESULT frame(UINT late_alloc, UINT vs_mask, bool *warned)
{
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
	D3D12_RESOURCE_DESC rd = { .Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D, .Width = 8, .Height = 8,
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
	D3D12_GRAPHICS_PIPELINE_STATE_DESC d = t_gfx_desc(vs, vs_size, ps, ps_size);
	ID3D12PipelineState *pso;
	assert_int_equal(ID3D12Device_CreateGraphicsPipelineState(c.dev, &d, &IID_ID3D12PipelineState, (void **)&pso), S_OK);
	D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC lim;
	D3D12XboxInitializeDefaultGraphicsShaderLimits(&lim);
	lim.MaxWavesWithLateAllocParameterCache = late_alloc;
	lim.VSDisableFlags = vs_mask;
	lim.PSDisableFlags = 0x3ff8;
	ID3D12GraphicsCommandList6_SetGraphicsShaderLimitsX(c.list, &lim);
	*warned = t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_GFX_LIMITS_LATE_ALLOC_DEADLOCK);
	ID3D12GraphicsCommandList6_SetPipelineState(c.list, pso);
	ID3D12GraphicsCommandList6_IASetPrimitiveTopology(c.list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
	D3D12_VIEWPORT vp = { 0, 0, 8, 8, 0, 1 };
	D3D12_RECT sc = { 0, 0, 8, 8 };
	ID3D12GraphicsCommandList6_RSSetViewports(c.list, 1, &vp);
	ID3D12GraphicsCommandList6_RSSetScissorRects(c.list, 1, &sc);
	ID3D12GraphicsCommandList6_OMSetRenderTargets(c.list, 1, &rtv, FALSE, NULL);
	ID3D12GraphicsCommandList6_DrawInstanced(c.list, 64 * 3 * 64, 1, 0, 0);
	HRESULT hr = t_run(&c);
	ID3D12PipelineState_Release(pso);
	ID3D12DescriptorHeap_Release(rtvs);
	ID3D12Resource_Release(rt);
	t_close(&c);
	return hr;
}

static void above_22_deadlocks(void **state)
{
	(void)state;
	bool warned;
	HRESULT hr = frame(23, 0x3ff8, &warned);
	print_message("MaxWavesWithLateAllocParameterCache 23: 0x%08x\n", (unsigned)hr);
	assert_int_equal(hr, DXGI_ERROR_DEVICE_HUNG);
}

static void at_22_completes(void **state)
{
	(void)state;
	bool warned;
	HRESULT hr = frame(22, 0x3ff8, &warned);
	print_message("MaxWavesWithLateAllocParameterCache 22: 0x%08x\n", (unsigned)hr);
	assert_int_equal(hr, S_OK);
	assert_false(warned);
}

/* S4.2's remedy: VS barred from one of the PS's CUs (CU 1: 0x3ffa). */
static void barring_a_cu_prevents_it(void **state)
{
	(void)state;
	bool warned;
	HRESULT hr = frame(23, 0x3ffa, &warned);
	print_message("23 with VS off CU 1: 0x%08x\n", (unsigned)hr);
	assert_int_equal(hr, S_OK);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s fat.vs color.ps\n", argv[0]);
		return 1;
	}
	if (!(vs = t_read_file(argv[1], &vs_size)) || !(ps = t_read_file(argv[2], &ps_size)))
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(above_22_deadlocks),
		cmocka_unit_test(at_22_completes),
		cmocka_unit_test(barring_a_cu_prevents_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
