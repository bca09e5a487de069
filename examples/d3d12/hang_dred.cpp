// hang_dred.cpp — a GPU hang and what DRED says about it, as a title's
// crash handler prints it: DRED's auto-breadcrumbs and page-fault
// reporting are turned on before the device exists, a shader that never
// ends (kernels/faults.cl 'spin') removes the device with
// DXGI_ERROR_DEVICE_HUNG, and the breadcrumbs name the list, the queue
// and the op the GPU was in.
//
//   c++ -std=c++17 hang_dred.cpp $(pkg-config --cflags --libs xs12) -o hang_dred
//   ./hang_dred build/kernels
#include "helpers.hpp"

namespace {

const char *OpName(D3D12_AUTO_BREADCRUMB_OP op)
{
	switch (static_cast<int>(op)) {
	case D3D12_AUTO_BREADCRUMB_OP_SETMARKER: return "SetMarker";
	case D3D12_AUTO_BREADCRUMB_OP_BEGINEVENT: return "BeginEvent";
	case D3D12_AUTO_BREADCRUMB_OP_ENDEVENT: return "EndEvent";
	case D3D12_AUTO_BREADCRUMB_OP_DISPATCH: return "Dispatch";
	case D3D12_AUTO_BREADCRUMB_OP_EXECUTEINDIRECT: return "ExecuteIndirect";
	case D3D12_AUTO_BREADCRUMB_OP_COPYBUFFERREGION: return "CopyBufferRegion";
	case D3D12_AUTO_BREADCRUMB_OP_COPYRESOURCE: return "CopyResource";
	case D3D12_AUTO_BREADCRUMB_OP_RESOURCEBARRIER: return "ResourceBarrier";
	case D3D12_AUTO_BREADCRUMB_OP_RESOLVEQUERYDATA: return "ResolveQueryData";
	case static_cast<int>(XS12_AUTO_BREADCRUMB_OP_SETSHADERSCRATCHSPACEX): return "SetShaderScratchSpaceX";
	case static_cast<int>(XS12_AUTO_BREADCRUMB_OP_SETCOMPUTESHADERLAUNCHPARAMETERSX):
		return "SetComputeShaderLaunchParametersX";
	default: return "(op)";
	}
}

const char *RemovedReasonName(HRESULT hr)
{
	switch (hr) {
	case DXGI_ERROR_DEVICE_HUNG: return "DXGI_ERROR_DEVICE_HUNG";
	case DXGI_ERROR_DEVICE_RESET: return "DXGI_ERROR_DEVICE_RESET";
	case DXGI_ERROR_DEVICE_REMOVED: return "DXGI_ERROR_DEVICE_REMOVED";
	case S_OK: return "S_OK";
	default: return "another error";
	}
}

const char *StateName(D3D12_DRED_DEVICE_STATE s)
{
	switch (s) {
	case D3D12_DRED_DEVICE_STATE_HUNG: return "HUNG";
	case D3D12_DRED_DEVICE_STATE_FAULT: return "FAULT";
	case D3D12_DRED_DEVICE_STATE_PAGEFAULT: return "PAGEFAULT";
	default: return "UNKNOWN";
	}
}

// What a crash handler prints after GetDeviceRemovedReason failed.
// Returns the op each in-flight list stopped at (of the first list).
UINT32 PrintDred(ID3D12Device *device)
{
	ComPtr<ID3D12DeviceRemovedExtendedData2> dred;
	ThrowIfFailed(device->QueryInterface(IID_PPV_ARGS(&dred)), "QueryInterface(ID3D12DeviceRemovedExtendedData2)");
	std::printf("DRED: device state %s\n", StateName(dred->GetDeviceState()));
	D3D12_DRED_AUTO_BREADCRUMBS_OUTPUT1 breadcrumbs = {};
	ThrowIfFailed(dred->GetAutoBreadcrumbsOutput1(&breadcrumbs), "GetAutoBreadcrumbsOutput1");
	UINT32 stoppedAt = UINT32_MAX;
	for (const D3D12_AUTO_BREADCRUMB_NODE1 *node = breadcrumbs.pHeadAutoBreadcrumbNode; node; node = node->pNext) {
		const UINT32 completed = *node->pLastBreadcrumbValue;
		std::printf("  command list \"%s\" on queue \"%s\": %u of %u ops completed\n",
			    node->pCommandListDebugNameA ? node->pCommandListDebugNameA : "?",
			    node->pCommandQueueDebugNameA ? node->pCommandQueueDebugNameA : "?", completed,
			    node->BreadcrumbCount);
		for (UINT32 i = 0; i < node->BreadcrumbCount; i++)
			if (i <= completed)
				std::printf("    %2u %-36s%s\n", i, OpName(node->pCommandHistory[i]),
					    i < completed ? "done" : "<- the GPU was here");
			else
				std::printf("    %2u %s\n", i, OpName(node->pCommandHistory[i]));
		if (stoppedAt == UINT32_MAX)
			stoppedAt = completed;
	}
	D3D12_DRED_PAGE_FAULT_OUTPUT2 pageFault = {};
	if (SUCCEEDED(dred->GetPageFaultAllocationOutput2(&pageFault)) && pageFault.PageFaultVA)
		std::printf("  page fault at 0x%llx\n", static_cast<unsigned long long>(pageFault.PageFaultVA));
	else
		std::printf("  no page fault\n");
	return stoppedAt;
}

} // namespace

int main(int argc, char **argv)
try {
	if (argc != 2) {
		std::fprintf(stderr, "usage: %s KERNEL_DIR (build/kernels)\n", argv[0]);
		return 2;
	}
	// DRED is read when the device is created.
	ComPtr<ID3D12DeviceRemovedExtendedDataSettings> dredSettings;
	ThrowIfFailed(D3D12GetDebugInterface(IID_PPV_ARGS(&dredSettings)), "D3D12GetDebugInterface");
	dredSettings->SetAutoBreadcrumbsEnablement(D3D12_DRED_ENABLEMENT_FORCED_ON);
	dredSettings->SetPageFaultEnablement(D3D12_DRED_ENABLEMENT_FORCED_ON);
	// A short timeout detection (TDR) so that the example does not wait
	// the default 2 s of GPU time.
	XS12_DEVICE_DESC desc = {};
	desc.Machine = XS12_MACHINE_SERIES_X;
	desc.HangGpuMicroseconds = 1000;
	ComPtr<ID3D12Device> device;
	ThrowIfFailed(XS12CreateDevice(&desc, IID_PPV_ARGS(&device)), "XS12CreateDevice");

	D3D12_COMMAND_QUEUE_DESC queueDesc = {};
	queueDesc.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
	ComPtr<ID3D12CommandQueue> queue;
	ComPtr<ID3D12CommandAllocator> allocator;
	ComPtr<ID3D12GraphicsCommandList6> pCmdList;
	ThrowIfFailed(device->CreateCommandQueue(&queueDesc, IID_PPV_ARGS(&queue)));
	ThrowIfFailed(device->CreateCommandAllocator(queueDesc.Type, IID_PPV_ARGS(&allocator)));
	ThrowIfFailed(device->CreateCommandList(0, queueDesc.Type, allocator.Get(), nullptr, IID_PPV_ARGS(&pCmdList)));
	queue->SetName(L"main queue");
	pCmdList->SetName(L"frame 1 compute");
	GpuFence fence(device.Get());

	const std::string faults = std::string(argv[1]) + "/faults.O2.w32.hsaco";
	ComputePipeline storeTo = CreateComputePipeline(device.Get(), faults, "store_to");
	ComputePipeline spin = CreateComputePipeline(device.Get(), faults, "spin"); // while (flag[0] == 0) ...
	auto flag = CreateBuffer(device.Get(), D3D12_HEAP_TYPE_DEFAULT, 4096);     // zero: it never ends
	auto out = CreateBuffer(device.Get(), D3D12_HEAP_TYPE_DEFAULT, 4096);
	auto readback = CreateBuffer(device.Get(), D3D12_HEAP_TYPE_READBACK, 4096);

	pCmdList->SetComputeRootSignature(storeTo.rootSignature.Get());
	pCmdList->SetPipelineState(storeTo.pso.Get());
	pCmdList->SetComputeRootUnorderedAccessView(0, out->GetGPUVirtualAddress());
	pCmdList->Dispatch(4, 1, 1);                                            // op 0: fine
	D3D12_RESOURCE_BARRIER uav = CD3DX12_RESOURCE_BARRIER::UAV(out.Get());
	pCmdList->ResourceBarrier(1, &uav);                                     // op 1
	D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS p = {};
	p.Flags = D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_NUM_THREADS;
	p.NumThreadX = 32;
	p.NumThreadY = 1;
	p.NumThreadZ = 1;
	pCmdList->SetComputeShaderLaunchParametersX(&p);                        // op 2
	pCmdList->SetComputeRootSignature(spin.rootSignature.Get());
	pCmdList->SetPipelineState(spin.pso.Get());
	pCmdList->SetComputeRootUnorderedAccessView(0, flag->GetGPUVirtualAddress());
	pCmdList->SetComputeRootUnorderedAccessView(1, out->GetGPUVirtualAddress());
	pCmdList->Dispatch(2, 1, 1);                                            // op 3: never ends
	auto toCopy = CD3DX12_RESOURCE_BARRIER::Transition(out.Get(), D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
							   D3D12_RESOURCE_STATE_COPY_SOURCE);
	pCmdList->ResourceBarrier(1, &toCopy);                                  // op 4
	pCmdList->CopyBufferRegion(readback.Get(), 0, out.Get(), 0, 4096);      // op 5
	ThrowIfFailed(pCmdList->Close());
	ID3D12CommandList *lists[] = { pCmdList.Get() };
	queue->ExecuteCommandLists(1, lists);

	// The frame's fence wait returns when the device is removed ...
	HRESULT signal = queue->Signal(fence.Get(), 1);
	if (SUCCEEDED(signal))
		fence.Wait(1);
	// ... and the crash handler asks why.
	HRESULT reason = device->GetDeviceRemovedReason();
	std::printf("GetDeviceRemovedReason: 0x%08x %s; the fence reads 0x%llx\n", static_cast<unsigned>(reason),
		    RemovedReasonName(reason), static_cast<unsigned long long>(fence.Get()->GetCompletedValue()));
	if (reason != DXGI_ERROR_DEVICE_HUNG)
		return 1;
	UINT32 stoppedAt = PrintDred(device.Get());
	return stoppedAt == 3 ? 0 : 1;
} catch (const std::exception &e) {
	std::fprintf(stderr, "%s\n", e.what());
	return 1;
}
