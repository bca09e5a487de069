/*
 * scratch_size.c — the documented SetShaderScratchSpaceX recipe (SPEC
 * S1.11, S1.12) in C with COBJMACROS: ask the pipeline how much scratch a
 * wave needs, make a ring of 8 such waves, point the list's ring at it,
 * dispatch a kernel that spills a private array to scratch.
 *
 *   cc -std=c11 scratch_size.c $(pkg-config --cflags --libs xs12) -o scratch_size
 *   ./scratch_size build/kernels
 */
#include "helpers.h"

enum { N_IN = 1024, THREADS = 4096, GROUP = 64 };

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s KERNEL_DIR (build/kernels)\n", argv[0]);
		return 2;
	}

	/* The debug layer checks every rule of S1 as the list records. */
	ID3D12Debug *debug;
	CHECK(D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&debug));
	ID3D12Debug_EnableDebugLayer(debug);
	ID3D12Debug_Release(debug);
	ID3D12Device *device;
	CHECK(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_12_0, &IID_ID3D12Device, (void **)&device));

	D3D12_COMMAND_QUEUE_DESC qd = { .Type = D3D12_COMMAND_LIST_TYPE_DIRECT };
	ID3D12CommandQueue *queue;
	ID3D12CommandAllocator *allocator;
	ID3D12GraphicsCommandList6 *list;
	ID3D12Fence *fence;
	UINT64 fence_value = 0;
	CHECK(ID3D12Device_CreateCommandQueue(device, &qd, &IID_ID3D12CommandQueue, (void **)&queue));
	CHECK(ID3D12Device_CreateCommandAllocator(device, qd.Type, &IID_ID3D12CommandAllocator, (void **)&allocator));
	CHECK(ID3D12Device_CreateCommandList(device, 0, qd.Type, allocator, NULL, &IID_ID3D12GraphicsCommandList6,
					     (void **)&list));
	CHECK(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence));
	HANDLE event = XS12CreateEvent();

	ID3D12RootSignature *root_signature;
	ID3D12PipelineState *pso;
	create_compute_pipeline(device, kernel_file(argv[1], "private_spill.O2.w32.hsaco"), NULL, &root_signature, &pso);

	/* S1.11: the blob is one UINT, in units of 256 DWORDs (1 KB). */
	ID3DBlob *blob;
	CHECK(ID3D12PipelineState_GetInformationX(
		pso, D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW, 0, &blob));
	UINT scratch_units = *(const UINT *)ID3DBlob_GetBufferPointer(blob);
	ID3DBlob_Release(blob);
	/* S1.12: per wave = the answer x 1024; the ring holds 8 such waves. */
	UINT per_wave_bytes = scratch_units * 1024;
	UINT64 ring_bytes = (UINT64)per_wave_bytes * 8;
	ID3D12Resource *scratch = create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, ring_bytes);

	static uint32_t in[N_IN], out[THREADS];
	for (uint32_t i = 0; i < N_IN; i++)
		in[i] = i * 2654435761u + 7;
	ID3D12Resource *input = create_upload_buffer(device, in, sizeof(in));
	ID3D12Resource *output = create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, sizeof(out));
	ID3D12Resource *readback = create_buffer(device, D3D12_HEAP_TYPE_READBACK, sizeof(out) + 16);
	D3D12_QUERY_HEAP_DESC qhd = { .Type = D3D12_QUERY_HEAP_TYPE_TIMESTAMP, .Count = 2 };
	ID3D12QueryHeap *timestamps;
	CHECK(ID3D12Device_CreateQueryHeap(device, &qhd, &IID_ID3D12QueryHeap, (void **)&timestamps));

	/* The seed's line sets the graphics ring (for its draws; xs12 has no
	 * graphics pipe yet), the same call with COMPUTE the dispatch's ring. */
	D3D12_GPU_VIRTUAL_ADDRESS ring = ID3D12Resource_GetGPUVirtualAddress(scratch);
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_GRAPHICS, ring,
							  ring_bytes, per_wave_bytes);
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE, ring,
							  ring_bytes, per_wave_bytes);
	ID3D12GraphicsCommandList6_SetComputeRootSignature(list, root_signature);
	ID3D12GraphicsCommandList6_SetPipelineState(list, pso);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(list, 0, ID3D12Resource_GetGPUVirtualAddress(input));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(list, 1, ID3D12Resource_GetGPUVirtualAddress(output));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(list, 2, N_IN, 0);
	ID3D12GraphicsCommandList6_EndQuery(list, timestamps, D3D12_QUERY_TYPE_TIMESTAMP, 0);
	ID3D12GraphicsCommandList6_Dispatch(list, THREADS / GROUP, 1, 1);
	ID3D12GraphicsCommandList6_EndQuery(list, timestamps, D3D12_QUERY_TYPE_TIMESTAMP, 1);
	transition(list, output, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
	ID3D12GraphicsCommandList6_CopyBufferRegion(list, readback, 0, output, 0, sizeof(out));
	ID3D12GraphicsCommandList6_ResolveQueryData(list, timestamps, D3D12_QUERY_TYPE_TIMESTAMP, 0, 2, readback,
						    sizeof(out));
	execute_and_wait(queue, list, fence, &fence_value, event);

	void *mapped;
	CHECK(ID3D12Resource_Map(readback, 0, NULL, &mapped));
	memcpy(out, mapped, sizeof(out));
	UINT64 ts[2];
	memcpy(ts, (const char *)mapped + sizeof(out), sizeof(ts));
	ID3D12Resource_Unmap(readback, 0, NULL);
	UINT64 frequency;
	CHECK(ID3D12CommandQueue_GetTimestampFrequency(queue, &frequency));
	XS12_DISPATCH_STATISTICS st;
	CHECK(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)list, 0, &st));
	unsigned right = 0;
	for (uint32_t i = 0; i < THREADS; i++)
		right += out[i] == private_spill_reference(in, N_IN, i);

	printf("GetInformationX: %u x 256 DWORDs = %u bytes of scratch per wave\n", scratch_units, per_wave_bytes);
	printf("SetShaderScratchSpaceX: a ring of %llu bytes = %llu waves of %u bytes\n", (unsigned long long)ring_bytes,
	       (unsigned long long)(ring_bytes / per_wave_bytes), per_wave_bytes);
	printf("private_spill: %llu waves through %u scratch slots, peak %u at once (%u per SIMD at most)\n",
	       (unsigned long long)st.WavesLaunched, st.ScratchSlots, st.PeakScratchSlots, st.PeakWavesPerSimd);
	printf("time: %llu cycles = %.2f us (timestamps: %.2f us)\n", (unsigned long long)st.Cycles, st.Microseconds,
	       (double)(ts[1] - ts[0]) * 1e6 / (double)frequency);
	printf("results: %u of %u match the CPU\n", right, THREADS);

	XS12CloseEvent(event);
	ID3D12QueryHeap_Release(timestamps);
	ID3D12Resource_Release(readback);
	ID3D12Resource_Release(output);
	ID3D12Resource_Release(input);
	ID3D12Resource_Release(scratch);
	ID3D12PipelineState_Release(pso);
	ID3D12RootSignature_Release(root_signature);
	ID3D12Fence_Release(fence);
	ID3D12GraphicsCommandList6_Release(list);
	ID3D12CommandAllocator_Release(allocator);
	ID3D12CommandQueue_Release(queue);
	ID3D12Device_Release(device);
	return st.PeakScratchSlots == 8 && st.ScratchSlots == 8 && right == THREADS ? 0 : 1;
}
