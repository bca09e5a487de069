/*
 * launch_params.c — D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS (SPEC S3):
 *
 *   1. SetComputeShaderLaunchParametersX directly: vadd in groups of 128
 *      threads where its pipeline says 64; lds_reduce_dyn, whose LDS is
 *      only what LDSSize gives it, with 1 KB and with 64 KB per group;
 *   2. ExecuteIndirect with a command signature of a root UAV, a root
 *      constant, the launch parameters and the dispatch, whose arguments
 *      and count a previous dispatch wrote (write_args.cl).
 *
 *   cc -std=c11 launch_params.c $(pkg-config --cflags --libs xs12) -o launch_params
 *   ./launch_params build/kernels build/examples/d3d12/write_args.hsaco
 */
#include "helpers.h"

#define NUM_THREADS D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_NUM_THREADS
#define LDS_SIZE D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_LDS_SIZE

static ID3D12Device *device;
static ID3D12CommandQueue *queue;
static ID3D12CommandAllocator *allocator;
static ID3D12GraphicsCommandList6 *list;
static ID3D12Fence *fence;
static UINT64 fence_value;
static HANDLE event;

/* Executes the list, waits, copies `bytes` of buf back; the list is reset. */
static void run_and_read(ID3D12Resource *buf, void *out, UINT64 bytes, XS12_DISPATCH_STATISTICS *st)
{
	ID3D12Resource *readback = create_buffer(device, D3D12_HEAP_TYPE_READBACK, bytes);
	transition(list, buf, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
	ID3D12GraphicsCommandList6_CopyBufferRegion(list, readback, 0, buf, 0, bytes);
	execute_and_wait(queue, list, fence, &fence_value, event);
	CHECK(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)list, 0, st));
	void *p;
	CHECK(ID3D12Resource_Map(readback, 0, NULL, &p));
	memcpy(out, p, bytes);
	ID3D12Resource_Unmap(readback, 0, NULL);
	ID3D12Resource_Release(readback);
	CHECK(ID3D12CommandAllocator_Reset(allocator));
	CHECK(ID3D12GraphicsCommandList6_Reset(list, allocator, NULL));
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s KERNEL_DIR WRITE_ARGS.hsaco\n", argv[0]);
		return 2;
	}
	ID3D12Debug *debug;
	CHECK(D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&debug));
	ID3D12Debug_EnableDebugLayer(debug); /* S3's rules are checked as the list records */
	ID3D12Debug_Release(debug);
	CHECK(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_12_0, &IID_ID3D12Device, (void **)&device));
	D3D12_COMMAND_QUEUE_DESC qd = { .Type = D3D12_COMMAND_LIST_TYPE_DIRECT };
	CHECK(ID3D12Device_CreateCommandQueue(device, &qd, &IID_ID3D12CommandQueue, (void **)&queue));
	CHECK(ID3D12Device_CreateCommandAllocator(device, qd.Type, &IID_ID3D12CommandAllocator, (void **)&allocator));
	CHECK(ID3D12Device_CreateCommandList(device, 0, qd.Type, allocator, NULL, &IID_ID3D12GraphicsCommandList6,
					     (void **)&list));
	CHECK(ID3D12Device_CreateFence(device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence));
	event = XS12CreateEvent();
	bool ok = true;

	/* ---- 1a. vadd in groups of 128 -------------------------------------------------- */
	enum { N = 8192 };
	static float a[N], b[N], c[N];
	for (int i = 0; i < N; i++)
		a[i] = (float)i, b[i] = 0.5f * (float)i;
	ID3D12Resource *ua = create_upload_buffer(device, a, sizeof(a)), *ub = create_upload_buffer(device, b, sizeof(b));
	ID3D12Resource *uc = create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, sizeof(c));
	ID3D12RootSignature *vadd_rs;
	ID3D12PipelineState *vadd;
	create_compute_pipeline(device, kernel_file(argv[1], "vadd.O2.w32.hsaco"), NULL, &vadd_rs, &vadd);

	D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS p = { 0 };
	p.Flags = NUM_THREADS;
	p.NumThreadX = 128;
	p.NumThreadY = 1;
	p.NumThreadZ = 1;
	ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(list, &p); /* until the next call (S3.7) */
	ID3D12GraphicsCommandList6_SetComputeRootSignature(list, vadd_rs);
	ID3D12GraphicsCommandList6_SetPipelineState(list, vadd);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(list, 0, ID3D12Resource_GetGPUVirtualAddress(ua));
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(list, 1, ID3D12Resource_GetGPUVirtualAddress(ub));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(list, 2, ID3D12Resource_GetGPUVirtualAddress(uc));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(list, 3, N, 0);
	ID3D12GraphicsCommandList6_Dispatch(list, N / 128, 1, 1);
	XS12_DISPATCH_STATISTICS st;
	run_and_read(uc, c, sizeof(c), &st);
	int right = 0;
	for (int i = 0; i < N; i++)
		right += c[i] == a[i] + b[i];
	printf("vadd, NumThreadX 128 (the pipeline's group is 64): %d groups, %llu waves, %d of %d sums right, %.2f us\n",
	       N / 128, (unsigned long long)st.WavesLaunched, right, N, st.Microseconds);
	ok = ok && right == N && st.WavesLaunched == N / 32;

	/* ---- 1b. lds_reduce_dyn: LDS from LDSSize ---------------------------------------- */
	enum { G = 256, M = 65536 };
	static uint32_t in[M], sums[M / G];
	for (int i = 0; i < M; i++)
		in[i] = (uint32_t)(i * 7 + 1);
	ID3D12Resource *uin = create_upload_buffer(device, in, sizeof(in));
	ID3D12Resource *usum = create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, sizeof(sums));
	ID3D12RootSignature *dyn_rs;
	ID3D12PipelineState *dyn;
	create_compute_pipeline(device, kernel_file(argv[1], "lds_reduce.O2.w32.hsaco"), "lds_reduce_dyn", &dyn_rs, &dyn);
	const UINT lds_units[2] = { 2, 128 }; /* units of 512 bytes: 1 KB (what 256 uints need), 64 KB */
	UINT peak[2];
	for (int k = 0; k < 2; k++) {
		D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS q = { 0 };
		q.Flags = NUM_THREADS | LDS_SIZE;
		q.LDSSize = lds_units[k];
		q.NumThreadX = G; /* get_local_size(0) in the kernel */
		q.NumThreadY = 1;
		q.NumThreadZ = 1;
		ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(list, &q);
		ID3D12GraphicsCommandList6_SetComputeRootSignature(list, dyn_rs);
		ID3D12GraphicsCommandList6_SetPipelineState(list, dyn);
		ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(list, 0, ID3D12Resource_GetGPUVirtualAddress(uin));
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(list, 1,
									     ID3D12Resource_GetGPUVirtualAddress(usum));
		ID3D12GraphicsCommandList6_Dispatch(list, M / G, 1, 1);
		run_and_read(usum, sums, sizeof(sums), &st);
		int good = 0;
		for (int g = 0; g < M / G; g++) {
			uint32_t s = 0;
			for (int i = 0; i < G; i++)
				s += in[g * G + i];
			good += sums[g] == s;
		}
		peak[k] = st.PeakWavesInFlight;
		printf("lds_reduce_dyn, LDSSize %3u (%2u KB per group): %d of %d sums right, peak %u waves in flight, %.2f us\n",
		       lds_units[k], lds_units[k] / 2, good, M / G, st.PeakWavesInFlight, st.Microseconds);
		ok = ok && good == M / G;
	}
	ok = ok && peak[1] < peak[0]; /* 64 KB of LDS a group: fewer groups fit a WGP */

	/* ---- 2. ExecuteIndirect with arguments a dispatch wrote ------------------------- */
	enum { JOBS = 6, STRIDE = 32, OUT_STRIDE = N * 4 };
	static const uint32_t sizes[JOBS] = { 5000, 0, 300, 8192, 0, 64 }; /* 4 jobs with work */
	static float got[JOBS * N];
	ID3D12Resource *usizes = create_upload_buffer(device, sizes, sizeof(sizes));
	ID3D12Resource *args = create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, JOBS * STRIDE);
	ID3D12Resource *count = create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, 4);
	ID3D12Resource *outs = create_buffer(device, D3D12_HEAP_TYPE_DEFAULT, JOBS * OUT_STRIDE);
	ID3D12RootSignature *writer_rs;
	ID3D12PipelineState *writer;
	create_compute_pipeline(device, argv[2], NULL, &writer_rs, &writer);

	/* The records: vadd's output UAV (root parameter 2), its n (3), the
	 * launch parameters and the group counts. */
	D3D12_INDIRECT_ARGUMENT_DESC ad[4] = {
		{ .Type = D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, .UnorderedAccessView = { 2 } },
		{ .Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, .Constant = { 3, 0, 1 } },
		{ .Type = D3D12XBOX_INDIRECT_ARGUMENT_TYPE_COMPUTE_SHADER_LAUNCH_PARAMETERSX },
		{ .Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH },
	};
	D3D12_COMMAND_SIGNATURE_DESC sd = { .ByteStride = STRIDE, .NumArgumentDescs = 4, .pArgumentDescs = ad };
	ID3D12CommandSignature *signature;
	CHECK(ID3D12Device_CreateCommandSignature(device, &sd, vadd_rs, &IID_ID3D12CommandSignature, (void **)&signature));

	D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS none = { 0 }; /* back to each pipeline's own shape */
	ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(list, &none);
	ID3D12GraphicsCommandList6_SetComputeRootSignature(list, writer_rs);
	ID3D12GraphicsCommandList6_SetPipelineState(list, writer);
	UINT64 base = ID3D12Resource_GetGPUVirtualAddress(outs), out_stride = OUT_STRIDE;
	UINT base32[2] = { (UINT)base, (UINT)(base >> 32) }, stride32[2] = { (UINT)out_stride, (UINT)(out_stride >> 32) };
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(list, 0, ID3D12Resource_GetGPUVirtualAddress(usizes));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(list, 1, ID3D12Resource_GetGPUVirtualAddress(args));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(list, 2, ID3D12Resource_GetGPUVirtualAddress(count));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstants(list, 3, 2, base32, 0);
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstants(list, 4, 2, stride32, 0);
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(list, 5, JOBS, 0);
	ID3D12GraphicsCommandList6_Dispatch(list, 1, 1, 1);
	transition(list, args, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
	transition(list, count, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);

	ID3D12GraphicsCommandList6_SetComputeRootSignature(list, vadd_rs);
	ID3D12GraphicsCommandList6_SetPipelineState(list, vadd);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(list, 0, ID3D12Resource_GetGPUVirtualAddress(ua));
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(list, 1, ID3D12Resource_GetGPUVirtualAddress(ub));
	ID3D12GraphicsCommandList6_ExecuteIndirect(list, signature, JOBS, args, 0, count, 0);
	ID3D12Resource *readback = create_buffer(device, D3D12_HEAP_TYPE_READBACK, sizeof(got) + 4);
	transition(list, outs, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
	transition(list, count, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT, D3D12_RESOURCE_STATE_COPY_SOURCE);
	ID3D12GraphicsCommandList6_CopyBufferRegion(list, readback, 0, outs, 0, sizeof(got));
	ID3D12GraphicsCommandList6_CopyBufferRegion(list, readback, sizeof(got), count, 0, 4);
	execute_and_wait(queue, list, fence, &fence_value, event);

	void *mapped;
	CHECK(ID3D12Resource_Map(readback, 0, NULL, &mapped));
	memcpy(got, mapped, sizeof(got));
	uint32_t commands;
	memcpy(&commands, (const char *)mapped + sizeof(got), 4);
	ID3D12Resource_Unmap(readback, 0, NULL);
	/* Statistics: write_args is dispatch 0, ExecuteIndirect's commands 1.. */
	XS12_DISPATCH_STATISTICS ws;
	CHECK(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)list, 0, &ws));
	printf("ExecuteIndirect: write_args wrote %u commands of at most %d (%.2f us):\n", commands, JOBS,
	       ws.Microseconds);
	UINT command = 0;
	for (int j = 0; j < JOBS; j++) {
		int good = 0;
		for (int i = 0; i < N; i++)
			good += got[j * N + i] == ((uint32_t)i < sizes[j] ? a[i] + b[i] : 0.0f);
		ok = ok && good == N;
		if (!sizes[j]) {
			printf("  job %d: no work, no command; output %s\n", j, good == N ? "untouched" : "WRITTEN");
			continue;
		}
		XS12_DISPATCH_STATISTICS cs;
		CHECK(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)list, 1 + command, &cs));
		UINT block = sizes[j] >= 1024 ? 256 : 64, groups = (sizes[j] + block - 1) / block;
		printf("  command %u: job %d, n %4u, %2u groups of %3u threads, %3llu waves, %.2f us: %s\n", command, j,
		       sizes[j], groups, block, (unsigned long long)cs.WavesLaunched, cs.Microseconds,
		       good == N ? "sums right" : "WRONG");
		ok = ok && cs.WavesLaunched == (UINT64)groups * block / 32;
		command++;
	}
	for (; command < JOBS; command++) { /* past the count: nothing ran */
		XS12_DISPATCH_STATISTICS cs;
		CHECK(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)list, 1 + command, &cs));
		ok = ok && cs.WavesLaunched == 0;
	}
	ok = ok && commands == 4;

	ID3D12Resource_Release(readback);
	ID3D12CommandSignature_Release(signature);
	ID3D12PipelineState_Release(writer);
	ID3D12RootSignature_Release(writer_rs);
	ID3D12Resource_Release(outs);
	ID3D12Resource_Release(count);
	ID3D12Resource_Release(args);
	ID3D12Resource_Release(usizes);
	ID3D12PipelineState_Release(dyn);
	ID3D12RootSignature_Release(dyn_rs);
	ID3D12Resource_Release(usum);
	ID3D12Resource_Release(uin);
	ID3D12PipelineState_Release(vadd);
	ID3D12RootSignature_Release(vadd_rs);
	ID3D12Resource_Release(uc);
	ID3D12Resource_Release(ub);
	ID3D12Resource_Release(ua);
	XS12CloseEvent(event);
	ID3D12Fence_Release(fence);
	ID3D12GraphicsCommandList6_Release(list);
	ID3D12CommandAllocator_Release(allocator);
	ID3D12CommandQueue_Release(queue);
	ID3D12Device_Release(device);
	return ok ? 0 : 1;
}
