/* Soak: many small submissions on one device, and whether the process
 * grows with them (issue 12 section 3). Each submission is a list of one
 * small dispatch (vadd over 256 elements: 4 groups, 8 wave32 waves), on the direct
 * queue and followed by a fence signal; lists and allocators come from a
 * ring of RING, each reused once its fence value has passed, as a program
 * with frames in flight does. The resident memory (VmRSS) is read after
 * the first WINDOW submissions and after the last; growth of 5 % or more
 * between them fails (exit 1): something kept per submission is never
 * given back. Every RING-th output is checked against the CPU.
 *
 * --scratch SPILL.hsaco adds to each list a private_spill dispatch (64
 * threads) in a scratch ring of its slot's own, set by SetShaderScratchSpaceX:
 * thousands of ring changes, properly fenced, on one queue (the debug
 * layer's reuse table, S1.10, must stay bounded).
 *
 *   soak VADD.hsaco [SUBMISSIONS [WINDOW]] [--debug] [--functional] [--scratch SPILL.hsaco]
 *
 * Defaults: 20000 submissions, windows of 1000 (make bench); the test of
 * bench/meson.build runs 2000. Prints one line of figures, and JSON with
 * --json. */
#define COBJMACROS
#include <xs12/d3d12_xs.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { RING = 8, N = 256 };

/* AddressSanitizer keeps freed memory in quarantine (256 MB by default):
 * the resident size grows with every free until that is full, leak or not.
 * There the growth is reported, not judged; LeakSanitizer judges leaks. */
#if defined(__SANITIZE_ADDRESS__)
#define SOAK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SOAK_ASAN 1
#endif
#endif
#ifndef SOAK_ASAN
#define SOAK_ASAN 0
#endif

#define CHECK(x)                                                                      \
	do {                                                                          \
		HRESULT hr_ = (x);                                                    \
		if (FAILED(hr_)) {                                                    \
			fprintf(stderr, "soak: %s failed: 0x%08x\n", #x, (unsigned)hr_); \
			exit(2);                                                      \
		}                                                                     \
	} while (0)

/* VmRSS of this process in KB (Linux), 0 if unknown. */
static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	long kb = 0;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static ID3D12Resource *buffer(ID3D12Device *dev, D3D12_HEAP_TYPE heap, UINT64 bytes)
{
	D3D12_HEAP_PROPERTIES hp = { .Type = heap };
	D3D12_RESOURCE_DESC rd = {
		.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = bytes, .Height = 1, .DepthOrArraySize = 1,
		.MipLevels = 1, .SampleDesc = { 1, 0 }, .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
		.Flags = heap == D3D12_HEAP_TYPE_DEFAULT ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE,
	};
	D3D12_RESOURCE_STATES st = heap == D3D12_HEAP_TYPE_UPLOAD     ? D3D12_RESOURCE_STATE_GENERIC_READ
				   : heap == D3D12_HEAP_TYPE_READBACK ? D3D12_RESOURCE_STATE_COPY_DEST
								      : D3D12_RESOURCE_STATE_COMMON;
	ID3D12Resource *r = NULL;
	CHECK(ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, &rd, st, NULL, &IID_ID3D12Resource,
						   (void **)&r));
	return r;
}

static void *read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "soak: cannot open %s\n", path);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	void *p = malloc((size_t)len);
	if (!p || fread(p, 1, (size_t)len, f) != (size_t)len)
		exit(2);
	fclose(f);
	*n = (size_t)len;
	return p;
}

int main(int argc, char **argv)
{
	const char *vadd = NULL, *spill_path = NULL;
	long count = 20000, window = 1000;
	int debug = 0, functional = 0, json = 0, npos = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--debug"))
			debug = 1;
		else if (!strcmp(argv[i], "--functional"))
			functional = 1;
		else if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (!strcmp(argv[i], "--scratch") && i + 1 < argc)
			spill_path = argv[++i];
		else if (npos == 0 && ++npos)
			vadd = argv[i];
		else if (npos == 1 && ++npos)
			count = atol(argv[i]);
		else if (npos == 2 && ++npos)
			window = atol(argv[i]);
	}
	if (!vadd || window < 1 || count < 2 * window) {
		fprintf(stderr, "usage: soak VADD.hsaco [SUBMISSIONS [WINDOW]] [--debug] [--functional] [--json] "
				"[--scratch SPILL.hsaco]\n"
				"(SUBMISSIONS at least twice WINDOW)\n");
		return 2;
	}
	XS12_DEVICE_DESC dd = { .Machine = XS12_MACHINE_SERIES_X, .DebugLayer = debug, .Functional = functional,
				.HostThreads = 1 };
	ID3D12Device *dev;
	CHECK(XS12CreateDevice(&dd, &IID_ID3D12Device, (void **)&dev));
	D3D12_COMMAND_QUEUE_DESC qd = { .Type = D3D12_COMMAND_LIST_TYPE_DIRECT };
	ID3D12CommandQueue *q;
	CHECK(ID3D12Device_CreateCommandQueue(dev, &qd, &IID_ID3D12CommandQueue, (void **)&q));
	ID3D12Fence *fence;
	CHECK(ID3D12Device_CreateFence(dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence));
	size_t n;
	void *code = read_file(vadd, &n);
	ID3D12RootSignature *rs;
	CHECK(ID3D12Device_CreateRootSignature(dev, 0, code, n, &IID_ID3D12RootSignature, (void **)&rs));
	D3D12_COMPUTE_PIPELINE_STATE_DESC pd = { .pRootSignature = rs, .CS = { code, n } };
	ID3D12PipelineState *pso;
	CHECK(ID3D12Device_CreateComputePipelineState(dev, &pd, &IID_ID3D12PipelineState, (void **)&pso));
	free(code);

	static float a[N], b[N];
	for (int i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = 0.25f * (float)i;
	}
	ID3D12Resource *in = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, 2 * sizeof(a));
	void *p;
	CHECK(ID3D12Resource_Map(in, 0, NULL, &p));
	memcpy(p, a, sizeof(a));
	memcpy((char *)p + sizeof(a), b, sizeof(b));
	ID3D12Resource_Unmap(in, 0, NULL);
	ID3D12CommandAllocator *alloc[RING];
	ID3D12GraphicsCommandList *list[RING];
	ID3D12Resource *out[RING], *rb[RING];
	for (int s = 0; s < RING; s++) {
		CHECK(ID3D12Device_CreateCommandAllocator(dev, qd.Type, &IID_ID3D12CommandAllocator, (void **)&alloc[s]));
		CHECK(ID3D12Device_CreateCommandList(dev, 0, qd.Type, alloc[s], NULL, &IID_ID3D12GraphicsCommandList,
						     (void **)&list[s]));
		CHECK(ID3D12GraphicsCommandList_Close(list[s]));
		out[s] = buffer(dev, D3D12_HEAP_TYPE_DEFAULT, sizeof(a));
		rb[s] = buffer(dev, D3D12_HEAP_TYPE_READBACK, sizeof(a));
	}
	D3D12_GPU_VIRTUAL_ADDRESS va_in = ID3D12Resource_GetGPUVirtualAddress(in);

	/* --scratch: private_spill with 16 KB of scratch per wave (4 slots per ring) */
	enum { SPILL_PER_WAVE = 16384, SPILL_SLOTS = 4 };
	ID3D12PipelineState *spill = NULL;
	ID3D12RootSignature *spill_rs = NULL;
	ID3D12Resource *ring[RING] = { 0 }, *spill_out = NULL;
	if (spill_path) {
		code = read_file(spill_path, &n);
		CHECK(ID3D12Device_CreateRootSignature(dev, 0, code, n, &IID_ID3D12RootSignature, (void **)&spill_rs));
		D3D12_COMPUTE_PIPELINE_STATE_DESC sd = { .pRootSignature = spill_rs, .CS = { code, n } };
		CHECK(ID3D12Device_CreateComputePipelineState(dev, &sd, &IID_ID3D12PipelineState, (void **)&spill));
		free(code);
		for (int s = 0; s < RING; s++)
			ring[s] = buffer(dev, D3D12_HEAP_TYPE_DEFAULT, SPILL_PER_WAVE * SPILL_SLOTS);
		spill_out = buffer(dev, D3D12_HEAP_TYPE_DEFAULT, 64 * 4);
	}

	long rss_first = 0, rss_last = 0, wrong = 0;
	double t0 = now_s(), t_first = 0, t_last_start = 0;
	for (long k = 1; k <= count; k++) {
		int s = (int)(k % RING);
		if (k > RING) {
			UINT64 back = (UINT64)(k - RING);
			if (ID3D12Fence_GetCompletedValue(fence) < back)
				CHECK(ID3D12Fence_SetEventOnCompletion(fence, back, NULL));
			if (back % RING == 0) { /* this slot's last output, against the CPU */
				const float *got;
				D3D12_RANGE all = { 0, sizeof(a) };
				CHECK(ID3D12Resource_Map(rb[s], 0, &all, (void **)&got));
				for (int i = 0; i < N; i++)
					if (got[i] != a[i] + b[i])
						wrong++;
				ID3D12Resource_Unmap(rb[s], 0, NULL);
			}
		}
		CHECK(ID3D12CommandAllocator_Reset(alloc[s]));
		CHECK(ID3D12GraphicsCommandList_Reset(list[s], alloc[s], NULL));
		ID3D12GraphicsCommandList *l = list[s];
		ID3D12GraphicsCommandList_SetComputeRootSignature(l, rs);
		ID3D12GraphicsCommandList_SetPipelineState(l, pso);
		ID3D12GraphicsCommandList_SetComputeRootShaderResourceView(l, 0, va_in);
		ID3D12GraphicsCommandList_SetComputeRootShaderResourceView(l, 1, va_in + sizeof(a));
		ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(l, 2, ID3D12Resource_GetGPUVirtualAddress(out[s]));
		ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(l, 3, N, 0);
		ID3D12GraphicsCommandList_Dispatch(l, N / 64, 1, 1);
		if (spill) {
			ID3D12GraphicsCommandList6 *l6 = (ID3D12GraphicsCommandList6 *)(void *)l;
			ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(l6, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
									  ID3D12Resource_GetGPUVirtualAddress(ring[s]),
									  SPILL_PER_WAVE * SPILL_SLOTS, SPILL_PER_WAVE);
			ID3D12GraphicsCommandList_SetComputeRootSignature(l, spill_rs);
			ID3D12GraphicsCommandList_SetPipelineState(l, spill);
			ID3D12GraphicsCommandList_SetComputeRootShaderResourceView(l, 0, va_in);
			ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(l, 1,
										    ID3D12Resource_GetGPUVirtualAddress(spill_out));
			ID3D12GraphicsCommandList_SetComputeRoot32BitConstant(l, 2, N, 0);
			ID3D12GraphicsCommandList_Dispatch(l, 1, 1, 1);
		}
		if (k % RING == 0) {
			D3D12_RESOURCE_BARRIER bar = { .Type = D3D12_RESOURCE_BARRIER_TYPE_UAV };
			ID3D12GraphicsCommandList_ResourceBarrier(l, 1, &bar);
			ID3D12GraphicsCommandList_CopyBufferRegion(l, rb[s], 0, out[s], 0, sizeof(a));
		}
		CHECK(ID3D12GraphicsCommandList_Close(l));
		ID3D12CommandQueue_ExecuteCommandLists(q, 1, (ID3D12CommandList *const *)&l);
		CHECK(ID3D12CommandQueue_Signal(q, fence, (UINT64)k));
		if (k == window) {
			CHECK(ID3D12Fence_SetEventOnCompletion(fence, (UINT64)k, NULL));
			rss_first = rss_kb();
			t_first = now_s();
		}
		if (k == count - window)
			t_last_start = now_s();
	}
	CHECK(ID3D12Fence_SetEventOnCompletion(fence, (UINT64)count, NULL));
	double t1 = now_s();
	rss_last = rss_kb();
	HRESULT removed = ID3D12Device_GetDeviceRemovedReason(dev);

	double rate = (double)count / (t1 - t0);
	double rate_first = (double)window / (t_first - t0), rate_last = (double)window / (t1 - t_last_start);
	double growth = rss_first ? 100.0 * (double)(rss_last - rss_first) / (double)rss_first : 0.0;
	if (json)
		printf("{\"submissions\": %ld, \"window\": %ld, \"debug_layer\": %s, \"functional\": %s, "
		       "\"submissions_per_second\": %.0f, \"first_window_per_second\": %.0f, "
		       "\"last_window_per_second\": %.0f, \"rss_first_kb\": %ld, \"rss_last_kb\": %ld, "
		       "\"rss_growth_percent\": %.2f, \"wrong\": %ld, \"scratch\": %s}\n",
		       count, window, debug ? "true" : "false", functional ? "true" : "false", rate, rate_first,
		       rate_last, rss_first, rss_last, growth, wrong, spill ? "true" : "false");
	else
		printf("soak: %ld submissions (debug layer %s, %s%s): %.0f/s (first %ld: %.0f/s, last %ld: %.0f/s); "
		       "VmRSS %ld KB after the first %ld, %ld KB after the last: %+.2f %%\n",
		       count, debug ? "on" : "off", functional ? "functional" : "timing", spill ? ", scratch rings" : "", rate,
		       window, rate_first, window,
		       rate_last, rss_first, window, rss_last, growth);

	for (int s = 0; s < RING; s++) {
		ID3D12GraphicsCommandList_Release(list[s]);
		ID3D12CommandAllocator_Release(alloc[s]);
		ID3D12Resource_Release(out[s]);
		ID3D12Resource_Release(rb[s]);
	}
	if (spill) {
		for (int s = 0; s < RING; s++)
			ID3D12Resource_Release(ring[s]);
		ID3D12Resource_Release(spill_out);
		ID3D12PipelineState_Release(spill);
		ID3D12RootSignature_Release(spill_rs);
	}
	ID3D12Resource_Release(in);
	ID3D12PipelineState_Release(pso);
	ID3D12RootSignature_Release(rs);
	ID3D12Fence_Release(fence);
	ID3D12CommandQueue_Release(q);
	ID3D12Device_Release(dev);

	if (removed != S_OK || wrong) {
		fprintf(stderr, "soak: %s\n", wrong ? "wrong outputs" : "the device was removed");
		return 1;
	}
	if (growth >= 5.0 && SOAK_ASAN) {
		printf("soak: growth not judged under AddressSanitizer (its quarantine holds freed memory)\n");
	} else if (growth >= 5.0) {
		fprintf(stderr, "soak: resident memory grew %.2f %% (limit: under 5 %%)\n", growth);
		return 1;
	}
	return 0;
}
