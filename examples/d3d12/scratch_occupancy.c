/*
 * scratch_occupancy.c — the driver's default scratch ring against rings of
 * the title's own (SPEC S1.8, S1.9, S1.13). A kernel with scratch can have
 * only as many waves in flight as its ring has slots: the default ring has
 * 4 per CU (2 waves per SIMD); SetShaderScratchSpaceX with 32 slots per CU
 * lets it reach 16 waves per SIMD, the most tmpring can describe. Whether
 * that is faster depends on what else runs out: here the L2.
 *
 *   cc -std=c11 scratch_occupancy.c $(pkg-config --cflags --libs xs12) -o scratch_occupancy
 *   ./scratch_occupancy build/kernels
 */
#include "helpers.h"

enum {
	N_IN = 1024, THREADS = 65536, GROUP = 64,
	SERIES_X_CUS = 52,         /* 26 WGPs of 2 CUs, 2 SIMDs per CU */
	MAX_SCRATCH_WAVES_PER_CU = 32, /* S1.13: what COMPUTE_TMPRING_SIZE.WAVES describes */
};

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s KERNEL_DIR (build/kernels)\n", argv[0]);
		return 2;
	}
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
	ID3DBlob *blob;
	CHECK(ID3D12PipelineState_GetInformationX(
		pso, D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW, 0, &blob));
	UINT per_wave = *(const UINT *)ID3DBlob_GetBufferPointer(blob) * 1024;
	ID3DBlob_Release(blob);

	/* One ring for all: the largest; smaller rings use its start. */
	const UINT full = MAX_SCRATCH_WAVES_PER_CU * SERIES_X_CUS;
	ID3D12Resource *scratch = create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, (UINT64)full * per_wave);
	static uint32_t in[N_IN], out[THREADS];
	for (uint32_t i = 0; i < N_IN; i++)
		in[i] = i * 2654435761u + 7;
	ID3D12Resource *input = create_upload_buffer(device, in, sizeof(in));
	ID3D12Resource *output = create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, sizeof(out));
	ID3D12Resource *readback = create_buffer(device, D3D12_HEAP_TYPE_READBACK, sizeof(out));

	const struct { const char *what; UINT slots; } rings[] = {
		{ "driver default (S1.8)", 0 },
		{ "title ring", full / 4 },
		{ "title ring", full / 2 },
		{ "title ring, full (S1.13)", full },
	};
	double average[4];
	UINT64 cycles[4];
	UINT slots[4];
	bool all_right = true;
	printf("private_spill, %u waves of %u bytes of scratch each:\n", THREADS / 32, per_wave);
	printf("  %-26s %6s %6s %16s %10s %10s\n", "ring", "slots", "MB", "waves per SIMD", "cycles", "us");
	for (int r = 0; r < 4; r++) {
		UINT64 bytes = (UINT64)rings[r].slots * per_wave;
		D3D12_GPU_VIRTUAL_ADDRESS base = bytes ? ID3D12Resource_GetGPUVirtualAddress(scratch) : 0;
		/* a null Destination is the driver's default (S1.4) */
		ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
								  base, bytes, bytes ? per_wave : 0);
		ID3D12GraphicsCommandList6_SetComputeRootSignature(list, root_signature);
		ID3D12GraphicsCommandList6_SetPipelineState(list, pso);
		ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(list, 0, ID3D12Resource_GetGPUVirtualAddress(input));
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(list, 1,
									     ID3D12Resource_GetGPUVirtualAddress(output));
		ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(list, 2, N_IN, 0);
		ID3D12GraphicsCommandList6_Dispatch(list, THREADS / GROUP, 1, 1);
		transition(list, output, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
		ID3D12GraphicsCommandList6_CopyBufferRegion(list, readback, 0, output, 0, sizeof(out));
		transition(list, output, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
		execute_and_wait(queue, list, fence, &fence_value, event);

		XS12_DISPATCH_STATISTICS st;
		CHECK(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)list, 0, &st));
		void *mapped;
		CHECK(ID3D12Resource_Map(readback, 0, NULL, &mapped));
		memcpy(out, mapped, sizeof(out));
		ID3D12Resource_Unmap(readback, 0, NULL);
		for (uint32_t i = 0; i < THREADS && all_right; i++)
			all_right = out[i] == private_spill_reference(in, N_IN, i);
		average[r] = st.AverageWavesPerSimd;
		cycles[r] = st.Cycles;
		slots[r] = st.ScratchSlots;
		char waves[32];
		snprintf(waves, sizeof(waves), "%.1f (peak %u)", st.AverageWavesPerSimd, st.PeakWavesPerSimd);
		printf("  %-26s %6u %6.1f %16s %10llu %10.2f\n", rings[r].what, st.ScratchSlots,
		       (double)st.ScratchSlots * per_wave / (1 << 20), waves, (unsigned long long)st.Cycles,
		       st.Microseconds);
		CHECK(ID3D12CommandAllocator_Reset(allocator));
		CHECK(ID3D12GraphicsCommandList6_Reset(list, allocator, NULL));
	}
	printf("results: %s\n", all_right ? "every ring computes what the CPU computes" : "WRONG");
	int fastest = 0;
	for (int r = 1; r < 4; r++)
		if (cycles[r] < cycles[fastest])
			fastest = r;
	printf("fastest: %u slots (%.1fx the default); larger rings' scratch outgrows the 5 MB L2: "
	       "occupancy is not free\n", slots[fastest], (double)cycles[0] / (double)cycles[fastest]);

	ID3D12GraphicsCommandList6_Close(list);
	XS12CloseEvent(event);
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
	/* the default's 4 slots per CU are 2 waves per SIMD; the full ring's, 16 */
	return all_right && average[0] < 2.05 && average[3] > 15.0 ? 0 : 1;
}
