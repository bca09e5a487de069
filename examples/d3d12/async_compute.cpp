// async_compute.cpp — scratch work on the direct queue and on an async
// compute queue at the same time (SPEC S1.8, S1.9):
//
//   1. each queue's list points its compute ring at memory of its own
//      (SetShaderScratchSpaceX): the two dispatches overlap and both are
//      right;
//   2. the driver's default scratch instead, one allocation both queues
//      share: the debug layer refuses the async dispatch (S1.8), and
//      without it both run over the same scratch memory and corrupt each
//      other's results.
//
//   c++ -std=c++17 async_compute.cpp $(pkg-config --cflags --libs xs12) -o async_compute
//   ./async_compute build/kernels
#include "helpers.hpp"

#include <algorithm>

namespace {

const UINT kThreads = 8192, kGroup = 64, kInputs = 1024;

// One queue with its allocator and list, and the buffers of one dispatch.
struct QueueWork {
	ComPtr<ID3D12CommandQueue> queue;
	ComPtr<ID3D12CommandAllocator> allocator;
	ComPtr<ID3D12GraphicsCommandList6> list;
	std::vector<uint32_t> in;
	ComPtr<ID3D12Resource> input, output, readback;
};

QueueWork CreateQueueWork(ID3D12Device *device, D3D12_COMMAND_LIST_TYPE type, uint32_t seed)
{
	QueueWork w;
	D3D12_COMMAND_QUEUE_DESC desc = {};
	desc.Type = type;
	ThrowIfFailed(device->CreateCommandQueue(&desc, IID_PPV_ARGS(&w.queue)));
	ThrowIfFailed(device->CreateCommandAllocator(type, IID_PPV_ARGS(&w.allocator)));
	ThrowIfFailed(device->CreateCommandList(0, type, w.allocator.Get(), nullptr, IID_PPV_ARGS(&w.list)));
	w.in.resize(kInputs);
	for (uint32_t i = 0; i < kInputs; i++)
		w.in[i] = i * 2654435761u + seed; // each queue its own input
	w.input = CreateUploadBuffer(device, w.in);
	w.output = CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, kThreads * 4);
	w.readback = CreateBuffer(device, D3D12_HEAP_TYPE_READBACK, kThreads * 4);
	return w;
}

// private_spill over the list's ring (none: the driver's default), and
// the copy of its results to the readback buffer.
void Record(QueueWork &w, const ComputePipeline &spill, ID3D12Resource *ring, UINT perWaveBytes)
{
	ID3D12GraphicsCommandList6 *list = w.list.Get();
	if (ring)
		list->SetShaderScratchSpaceX(D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE, ring->GetGPUVirtualAddress(),
					     ring->GetDesc().Width, perWaveBytes);
	list->SetComputeRootSignature(spill.rootSignature.Get());
	list->SetPipelineState(spill.pso.Get());
	list->SetComputeRootShaderResourceView(0, w.input->GetGPUVirtualAddress());
	list->SetComputeRootUnorderedAccessView(1, w.output->GetGPUVirtualAddress());
	list->SetComputeRoot32BitConstant(2, kInputs, 0);
	list->Dispatch(kThreads / kGroup, 1, 1);
	D3D12_RESOURCE_BARRIER toCopy = CD3DX12_RESOURCE_BARRIER::Transition(
		w.output.Get(), D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
	list->ResourceBarrier(1, &toCopy);
	list->CopyBufferRegion(w.readback.Get(), 0, w.output.Get(), 0, kThreads * 4);
	D3D12_RESOURCE_BARRIER back = CD3DX12_RESOURCE_BARRIER::Transition(
		w.output.Get(), D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
	list->ResourceBarrier(1, &back);
}

void Submit(QueueWork &w)
{
	ID3D12CommandList *lists[] = { w.list.Get() };
	w.queue->ExecuteCommandLists(1, lists);
}

UINT WrongResults(const QueueWork &w)
{
	auto out = ReadBack<uint32_t>(w.readback.Get(), kThreads);
	UINT wrong = 0;
	for (UINT i = 0; i < kThreads; i++)
		wrong += out[i] != PrivateSpillReference(w.in, i);
	return wrong;
}

XS12_DISPATCH_STATISTICS Statistics(const QueueWork &w)
{
	XS12_DISPATCH_STATISTICS st;
	ThrowIfFailed(XS12GetDispatchStatistics(w.list.Get(), 0, &st), "XS12GetDispatchStatistics");
	return st;
}

bool Overlap(const XS12_DISPATCH_STATISTICS &a, const XS12_DISPATCH_STATISTICS &b)
{
	return a.StartCycle < b.EndCycle && b.StartCycle < a.EndCycle;
}

// Both queues at once: submitted back to back, then waited for.
void RunTogether(QueueWork &direct, QueueWork &compute, GpuFence &directFence, GpuFence &computeFence)
{
	Submit(direct);
	Submit(compute);
	UINT64 d = directFence.Signal(direct.queue.Get()), c = computeFence.Signal(compute.queue.Get());
	directFence.Wait(d);
	computeFence.Wait(c);
}

void PrintPair(const char *what, const XS12_DISPATCH_STATISTICS &d, const XS12_DISPATCH_STATISTICS &c)
{
	std::printf("  %s: direct queue cycles %llu..%llu, compute queue %llu..%llu%s\n", what,
		    static_cast<unsigned long long>(d.StartCycle), static_cast<unsigned long long>(d.EndCycle),
		    static_cast<unsigned long long>(c.StartCycle), static_cast<unsigned long long>(c.EndCycle),
		    Overlap(d, c) ? " (overlapping)" : "");
}

} // namespace

int main(int argc, char **argv)
try {
	if (argc != 2) {
		std::fprintf(stderr, "usage: %s KERNEL_DIR (build/kernels)\n", argv[0]);
		return 2;
	}
	const std::string spillPath = std::string(argv[1]) + "/private_spill.O2.w32.hsaco";
	bool ok = true;

	// ---- 1. S1.9: a ring per queue ---------------------------------------------------
	{
		ComPtr<ID3D12Device> device;
		XS12_DEVICE_DESC desc = {};
		desc.DebugLayer = TRUE;
		ThrowIfFailed(XS12CreateDevice(&desc, IID_PPV_ARGS(&device)), "XS12CreateDevice");
		ComputePipeline spill = CreateComputePipeline(device.Get(), spillPath);
		ComPtr<ID3DBlob> blob;
		ThrowIfFailed(spill.pso->GetInformationX(
			D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW, 0, &blob));
		const UINT perWave = *static_cast<const UINT *>(blob->GetBufferPointer()) * 1024;
		const UINT slots = 416; // 8 per CU each: both rings together fit the L2
		auto ringA = CreateBuffer(device.Get(), D3D12_HEAP_TYPE_DEFAULT, UINT64(slots) * perWave);
		auto ringB = CreateBuffer(device.Get(), D3D12_HEAP_TYPE_DEFAULT, UINT64(slots) * perWave);

		QueueWork direct = CreateQueueWork(device.Get(), D3D12_COMMAND_LIST_TYPE_DIRECT, 11);
		QueueWork compute = CreateQueueWork(device.Get(), D3D12_COMMAND_LIST_TYPE_COMPUTE, 99);
		GpuFence directFence(device.Get()), computeFence(device.Get());
		Record(direct, spill, ringA.Get(), perWave);
		Record(compute, spill, ringB.Get(), perWave);
		ThrowIfFailed(direct.list->Close());
		ThrowIfFailed(compute.list->Close());

		std::printf("S1.9: each queue its own ring of %u slots of %u bytes\n", slots, perWave);
		// one after the other, for comparison ...
		Submit(direct);
		directFence.Wait(directFence.Signal(direct.queue.Get()));
		Submit(compute);
		computeFence.Wait(computeFence.Signal(compute.queue.Get()));
		XS12_DISPATCH_STATISTICS d1 = Statistics(direct), c1 = Statistics(compute);
		PrintPair("one after the other", d1, c1);
		// ... and at once
		RunTogether(direct, compute, directFence, computeFence);
		XS12_DISPATCH_STATISTICS d2 = Statistics(direct), c2 = Statistics(compute);
		PrintPair("at once            ", d2, c2);
		UINT64 span = std::max(d2.EndCycle, c2.EndCycle) - std::min(d2.StartCycle, c2.StartCycle);
		std::printf("  both done in %llu cycles at once, %llu one after the other\n",
			    static_cast<unsigned long long>(span), static_cast<unsigned long long>(d1.Cycles + c1.Cycles));
		UINT wrongD = WrongResults(direct), wrongC = WrongResults(compute);
		std::printf("  results: %u and %u of %u wrong\n", wrongD, wrongC, kThreads);
		ok = ok && Overlap(d2, c2) && span < d1.Cycles + c1.Cycles && wrongD == 0 && wrongC == 0;
	}

	// ---- 2. S1.8: the driver's default scratch, with the debug layer --------------------
	{
		ComPtr<ID3D12Device> device;
		XS12_DEVICE_DESC desc = {};
		desc.DebugLayer = TRUE;
		ThrowIfFailed(XS12CreateDevice(&desc, IID_PPV_ARGS(&device)), "XS12CreateDevice");
		ComPtr<ID3D12InfoQueue> infoQueue;
		ThrowIfFailed(device.As(&infoQueue), "QueryInterface(ID3D12InfoQueue)");
		infoQueue->SetMuteDebugOutput(TRUE); // printed below instead of on stderr
		ComputePipeline spill = CreateComputePipeline(device.Get(), spillPath);
		QueueWork compute = CreateQueueWork(device.Get(), D3D12_COMMAND_LIST_TYPE_COMPUTE, 99);
		Record(compute, spill, nullptr, 0);
		HRESULT close = compute.list->Close();

		std::printf("S1.8 with the debug layer: a scratch kernel on the async compute queue, default scratch\n");
		bool named = false;
		for (UINT64 i = 0; i < infoQueue->GetNumStoredMessages(); i++) {
			SIZE_T length = 0;
			infoQueue->GetMessage(i, nullptr, &length);
			std::vector<char> storage(length);
			auto *message = reinterpret_cast<D3D12_MESSAGE *>(storage.data());
			infoQueue->GetMessage(i, message, &length);
			const bool s18 = message->ID == static_cast<D3D12_MESSAGE_ID>(XS12_MESSAGE_ID_SCRATCH_DEFAULT_ON_ASYNC);
			std::printf("  ID3D12InfoQueue: %s #%d%s: %s\n",
				    message->Severity == D3D12_MESSAGE_SEVERITY_ERROR ? "ERROR" : "message",
				    static_cast<int>(message->ID), s18 ? " (XS12_MESSAGE_ID_SCRATCH_DEFAULT_ON_ASYNC)" : "",
				    message->pDescription);
			named = named || s18;
		}
		std::printf("  Close: 0x%08x%s\n", static_cast<unsigned>(close), close == E_INVALIDARG ? " (E_INVALIDARG)" : "");
		ok = ok && named && close == E_INVALIDARG;
	}

	// ---- 3. S1.8: the same without the debug layer --------------------------------------
	{
		ComPtr<ID3D12Device> device;
		XS12_DEVICE_DESC desc = {};
		ThrowIfFailed(XS12CreateDevice(&desc, IID_PPV_ARGS(&device)), "XS12CreateDevice");
		ComputePipeline spill = CreateComputePipeline(device.Get(), spillPath);
		QueueWork direct = CreateQueueWork(device.Get(), D3D12_COMMAND_LIST_TYPE_DIRECT, 11);
		QueueWork compute = CreateQueueWork(device.Get(), D3D12_COMMAND_LIST_TYPE_COMPUTE, 99);
		GpuFence directFence(device.Get()), computeFence(device.Get());
		Record(direct, spill, nullptr, 0);
		Record(compute, spill, nullptr, 0);
		ThrowIfFailed(direct.list->Close());
		ThrowIfFailed(compute.list->Close());
		RunTogether(direct, compute, directFence, computeFence);

		std::printf("S1.8 without the debug layer: both queues on the default scratch\n");
		XS12_DISPATCH_STATISTICS d = Statistics(direct), c = Statistics(compute);
		PrintPair("at once", d, c);
		UINT wrongD = WrongResults(direct), wrongC = WrongResults(compute);
		std::printf("  results: %u and %u of %u wrong: their waves used the same scratch memory\n", wrongD, wrongC,
			    kThreads);
		ok = ok && Overlap(d, c) && wrongD + wrongC > 0;
	}
	return ok ? 0 : 1;
} catch (const std::exception &e) {
	std::fprintf(stderr, "%s\n", e.what());
	return 1;
}
