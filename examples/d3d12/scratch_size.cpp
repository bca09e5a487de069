// scratch_size.cpp — the documented SetShaderScratchSpaceX recipe (SPEC
// S1.11, S1.12) in C++ with ComPtr, the documentation's lines as written:
// ask the pipeline how much scratch a wave needs, make a ring of 8 such
// waves, point the list's ring at it, dispatch a kernel that spills a
// private array to scratch.
//
//   c++ -std=c++17 scratch_size.cpp $(pkg-config --cflags --libs xs12) -o scratch_size
//   ./scratch_size build/kernels
#include "helpers.hpp"

int main(int argc, char **argv)
try {
	if (argc != 2) {
		std::fprintf(stderr, "usage: %s KERNEL_DIR (build/kernels)\n", argv[0]);
		return 2;
	}
	const std::string kernels = argv[1];
	const UINT threads = 4096, group = 64;

	ComPtr<ID3D12Debug> debug;
	ThrowIfFailed(D3D12GetDebugInterface(IID_PPV_ARGS(&debug)));
	debug->EnableDebugLayer(); // every rule of S1 is checked as the list records
	ComPtr<ID3D12Device> device;
	ThrowIfFailed(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_12_0, IID_PPV_ARGS(&device)), "D3D12CreateDevice");

	D3D12_COMMAND_QUEUE_DESC queueDesc = {};
	queueDesc.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
	ComPtr<ID3D12CommandQueue> queue;
	ComPtr<ID3D12CommandAllocator> allocator;
	ComPtr<ID3D12GraphicsCommandList6> pCmdList;
	ThrowIfFailed(device->CreateCommandQueue(&queueDesc, IID_PPV_ARGS(&queue)));
	ThrowIfFailed(device->CreateCommandAllocator(queueDesc.Type, IID_PPV_ARGS(&allocator)));
	ThrowIfFailed(device->CreateCommandList(0, queueDesc.Type, allocator.Get(), nullptr, IID_PPV_ARGS(&pCmdList)));
	GpuFence fence(device.Get());

	ComputePipeline spill = CreateComputePipeline(device.Get(), kernels + "/private_spill.O2.w32.hsaco");
	ComPtr<ID3D12PipelineState> pPso = spill.pso;

	// S1.11, S1.12, as the documentation writes them:
	ComPtr<ID3DBlob> blob;
	pPso->GetInformationX(D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW, 0, &blob);
	UINT scratchSize = *(UINT*)blob->GetBufferPointer();
	const UINT scratchUnits = scratchSize;
	UINT scratchSizePerWaveBytes = scratchSize * 1024;
	scratchSize = scratchSizePerWaveBytes * 8; // eight waves share the space
	ComPtr<ID3D12Resource> pScratch0 = CreateBuffer(device.Get(), D3D12_HEAP_TYPE_DEFAULT, scratchSize);

	std::vector<uint32_t> in(1024), out(threads);
	for (uint32_t i = 0; i < in.size(); i++)
		in[i] = i * 2654435761u + 7;
	auto input = CreateUploadBuffer(device.Get(), in);
	auto output = CreateBuffer(device.Get(), D3D12_HEAP_TYPE_DEFAULT, threads * 4);
	auto readback = CreateBuffer(device.Get(), D3D12_HEAP_TYPE_READBACK, threads * 4 + 16);
	D3D12_QUERY_HEAP_DESC queryDesc = { D3D12_QUERY_HEAP_TYPE_TIMESTAMP, 2, 0 };
	ComPtr<ID3D12QueryHeap> timestamps;
	ThrowIfFailed(device->CreateQueryHeap(&queryDesc, IID_PPV_ARGS(&timestamps)));

	// The documentation's line sets the graphics ring, for its draws (xs12
	// has no graphics pipe yet); the same with COMPUTE is the dispatch's.
	pCmdList->SetShaderScratchSpaceX(D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_GRAPHICS, pScratch0->GetGPUVirtualAddress(), scratchSize, scratchSizePerWaveBytes);
	pCmdList->SetShaderScratchSpaceX(D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE, pScratch0->GetGPUVirtualAddress(), scratchSize, scratchSizePerWaveBytes);
	pCmdList->SetComputeRootSignature(spill.rootSignature.Get());
	pCmdList->SetPipelineState(pPso.Get());
	pCmdList->SetComputeRootShaderResourceView(0, input->GetGPUVirtualAddress());
	pCmdList->SetComputeRootUnorderedAccessView(1, output->GetGPUVirtualAddress());
	pCmdList->SetComputeRoot32BitConstant(2, static_cast<UINT>(in.size()), 0);
	pCmdList->EndQuery(timestamps.Get(), D3D12_QUERY_TYPE_TIMESTAMP, 0);
	pCmdList->Dispatch(threads / group, 1, 1);
	pCmdList->EndQuery(timestamps.Get(), D3D12_QUERY_TYPE_TIMESTAMP, 1);
	auto toCopy = CD3DX12_RESOURCE_BARRIER::Transition(output.Get(), D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
							   D3D12_RESOURCE_STATE_COPY_SOURCE);
	pCmdList->ResourceBarrier(1, &toCopy);
	pCmdList->CopyBufferRegion(readback.Get(), 0, output.Get(), 0, threads * 4);
	pCmdList->ResolveQueryData(timestamps.Get(), D3D12_QUERY_TYPE_TIMESTAMP, 0, 2, readback.Get(), threads * 4);
	ExecuteAndWait(queue.Get(), pCmdList.Get(), fence);

	out = ReadBack<uint32_t>(readback.Get(), threads);
	auto ts = ReadBack<UINT64>(readback.Get(), 2, threads * 4);
	UINT64 frequency;
	ThrowIfFailed(queue->GetTimestampFrequency(&frequency));
	XS12_DISPATCH_STATISTICS st;
	ThrowIfFailed(XS12GetDispatchStatistics(pCmdList.Get(), 0, &st), "XS12GetDispatchStatistics");
	UINT right = 0;
	for (UINT i = 0; i < threads; i++)
		right += out[i] == PrivateSpillReference(in, i);

	std::printf("GetInformationX: %u x 256 DWORDs = %u bytes of scratch per wave\n", scratchUnits,
		    scratchSizePerWaveBytes);
	std::printf("SetShaderScratchSpaceX: a ring of %u bytes = %u waves of %u bytes\n", scratchSize,
		    scratchSize / scratchSizePerWaveBytes, scratchSizePerWaveBytes);
	std::printf("private_spill: %llu waves through %u scratch slots, peak %u at once (%u per SIMD at most)\n",
		    static_cast<unsigned long long>(st.WavesLaunched), st.ScratchSlots, st.PeakScratchSlots,
		    st.PeakWavesPerSimd);
	std::printf("time: %llu cycles = %.2f us (timestamps: %.2f us)\n", static_cast<unsigned long long>(st.Cycles),
		    st.Microseconds, static_cast<double>(ts[1] - ts[0]) * 1e6 / static_cast<double>(frequency));
	std::printf("results: %u of %u match the CPU\n", right, threads);
	return st.PeakScratchSlots == 8 && st.ScratchSlots == 8 && right == threads ? 0 : 1;
} catch (const std::exception &e) {
	std::fprintf(stderr, "%s\n", e.what());
	return 1;
}
