/* Free-threaded load: one device, three queues (one direct, two compute),
 * host threads that each record their own lists and submit to the queues
 * at once, thousands of submissions, and fences between the queues: a
 * consumer thread makes its queue wait (ID3D12CommandQueue::Wait) on the
 * fence value a producer thread signals on another queue, then reads the
 * producer's output. D3D12's threading rules: devices, queues and fences
 * are free-threaded, a command list and its allocator are used by one
 * thread at a time (each thread here owns its own).
 *
 * Every output buffer of every round is read back and compared with the
 * CPU: the producer's private_spill (scratch in its own ring, set with
 * SetShaderScratchSpaceX) over an input whose length changes each round, a
 * vadd over a length that changes each round under launch parameters
 * (SetComputeShaderLaunchParametersX: 128-thread groups) after the output
 * was cleared, and the consumer's private_spill of the producer's output.
 * A stale buffer (a wait that did not order, a copy before the dispatch, a
 * reused slot overwritten too early) gives wrong bytes. Another thread only
 * polls the fences: their values never go down, and never pass what was
 * signalled.
 *
 *   test_load SPILL.hsaco VADD.hsaco [ROUNDS]
 *
 * ROUNDS (default 400; also XS12_LOAD_ROUNDS) scales the run: the
 * ThreadSanitizer build runs fewer. The run repeats in timing mode and in
 * functional mode on two host threads (src/gpu/xs_gpu_threads.c). */
#include "../d3d12/d3d12_util.h"

#include <xs12/xs12.h>

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

static const char *spill_path, *vadd_path;
static unsigned rounds = 400;

enum {
	SLOTS = 4,       /* rounds in flight per thread: allocators and buffers in a ring */
	N = 256,         /* spill threads per dispatch (4 groups of 64) */
	VN = 1024,       /* vadd elements at most */
	PAIRS = 2,
	RING_SLOTS = 64, /* scratch waves of each thread's own ring */
};

/* The input length of round k (1..N): every round differs from the last. */
static uint32_t spill_n(unsigned k)
{
	return 1 + (k * 37u) % N;
}
/* The vadd length of round k: not a multiple of the group. */
static uint32_t vadd_n(unsigned k)
{
	return 1 + (k * 113u) % VN;
}

typedef struct shared {
	ID3D12Device *dev;
	ID3D12CommandQueue *queue[3];  /* direct, compute, compute */
	ID3D12PipelineState *spill, *vadd;
	ID3D12RootSignature *spill_rs, *vadd_rs;
	UINT per_wave;                 /* scratch bytes per wave of private_spill (S1.11) */
	ID3D12Resource *vin_a, *vin_b; /* vadd's inputs, shared read-only */
	ID3D12Resource *zeros;         /* cleared vadd output */
	float a[VN], b[VN];
} shared;

/* A host thread with its own allocators, lists and fence (one per slot). */
typedef struct worker {
	shared *sh;
	const char *role;
	int id;
	ID3D12CommandQueue *queue;
	ID3D12CommandAllocator *alloc[SLOTS];
	ID3D12GraphicsCommandList6 *list[SLOTS];
	ID3D12Fence *fence;
	ID3D12Resource *ring;          /* its own scratch ring */
	ID3D12Resource *in;            /* producer: its spill input */
	uint32_t data[N];
	ID3D12Resource *out[SLOTS], *vout[SLOTS], *rb[SLOTS], *vrb[SLOTS];
	struct worker *peer;           /* consumer: its producer; producer: its consumer */
	atomic_uint submitted;         /* rounds submitted */
	int bad;                       /* wrong bytes or failed calls */
	char first_bad[200];
	pthread_t th;
} worker;

static void wrong(worker *w, const char *fmt, unsigned k, unsigned i, uint32_t got, uint32_t want)
{
	if (!w->bad++)
		snprintf(w->first_bad, sizeof(w->first_bad), "%s %d round %u: %s at %u: 0x%08x, want 0x%08x", w->role,
			 w->id, k, fmt, i, got, want);
}

static ID3D12Resource *buffer(ID3D12Device *dev, D3D12_HEAP_TYPE heap, UINT64 bytes)
{
	t_ctx c = { .dev = dev };
	return t_buffer(&c, heap, bytes);
}

static void *map(ID3D12Resource *r, UINT64 bytes)
{
	void *p = NULL;
	D3D12_RANGE all = { 0, bytes };
	assert_int_equal(ID3D12Resource_Map(r, 0, &all, &p), S_OK);
	return p;
}

static void uav_barrier(ID3D12GraphicsCommandList6 *l)
{
	D3D12_RESOURCE_BARRIER b = { .Type = D3D12_RESOURCE_BARRIER_TYPE_UAV };
	ID3D12GraphicsCommandList6_ResourceBarrier(l, 1, &b);
}

static void spill_dispatch(worker *w, ID3D12GraphicsCommandList6 *l, ID3D12Resource *in, uint32_t n,
			   ID3D12Resource *out)
{
	shared *sh = w->sh;
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(l, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
							  ID3D12Resource_GetGPUVirtualAddress(w->ring),
							  (UINT64)sh->per_wave * RING_SLOTS, sh->per_wave);
	ID3D12GraphicsCommandList6_SetComputeRootSignature(l, sh->spill_rs);
	ID3D12GraphicsCommandList6_SetPipelineState(l, sh->spill);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(l, 0, ID3D12Resource_GetGPUVirtualAddress(in));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(l, 1, ID3D12Resource_GetGPUVirtualAddress(out));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(l, 2, n, 0);
	ID3D12GraphicsCommandList6_Dispatch(l, N / 64, 1, 1);
}

/* vadd over n elements in 128-thread groups (S3), into a cleared buffer. */
static void vadd_dispatch(worker *w, ID3D12GraphicsCommandList6 *l, uint32_t n, ID3D12Resource *out)
{
	shared *sh = w->sh;
	ID3D12GraphicsCommandList6_CopyBufferRegion(l, out, 0, sh->zeros, 0, VN * 4);
	uav_barrier(l);
	D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS p;
	memset(&p, 0, sizeof(p));
	p.Flags = D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAG_NUM_THREADS;
	p.NumThreadX = 128;
	p.NumThreadY = p.NumThreadZ = 1;
	ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(l, &p);
	ID3D12GraphicsCommandList6_SetComputeRootSignature(l, sh->vadd_rs);
	ID3D12GraphicsCommandList6_SetPipelineState(l, sh->vadd);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(l, 0, ID3D12Resource_GetGPUVirtualAddress(sh->vin_a));
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(l, 1, ID3D12Resource_GetGPUVirtualAddress(sh->vin_b));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(l, 2, ID3D12Resource_GetGPUVirtualAddress(out));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(l, 3, n, 0);
	ID3D12GraphicsCommandList6_Dispatch(l, (n + 127) / 128, 1, 1);
	/* back to the pipeline's own group shape for the next list user (S3.7) */
	memset(&p, 0, sizeof(p));
	ID3D12GraphicsCommandList6_SetComputeShaderLaunchParametersX(l, &p);
}

static void wait_own(worker *w, UINT64 value)
{
	if (ID3D12Fence_GetCompletedValue(w->fence) < value &&
	    ID3D12Fence_SetEventOnCompletion(w->fence, value, NULL) != S_OK)
		wrong(w, "SetEventOnCompletion failed", (unsigned)value, 0, 0, 0);
}

/* The producer's own output of round k, bytes: spill of its input. */
static void check_producer(worker *w, unsigned k)
{
	unsigned s = k % SLOTS;
	const uint32_t *got = map(w->rb[s], N * 4);
	uint32_t n = spill_n(k);
	for (uint32_t i = 0; i < N; i++)
		if (got[i] != t_spill_ref(w->data, n, i)) {
			wrong(w, "spill output", k, i, got[i], t_spill_ref(w->data, n, i));
			break;
		}
	ID3D12Resource_Unmap(w->rb[s], 0, NULL);
	const float *v = map(w->vrb[s], VN * 4);
	uint32_t vn = vadd_n(k);
	for (uint32_t i = 0; i < VN; i++) {
		float want = i < vn ? w->sh->a[i] + w->sh->b[i] : 0.0f;
		if (v[i] != want) {
			wrong(w, "vadd output", k, i, (uint32_t)v[i], (uint32_t)want);
			break;
		}
	}
	ID3D12Resource_Unmap(w->vrb[s], 0, NULL);
}

/* The consumer's output of round k: spill of the producer's round-k output. */
static void check_consumer(worker *w, unsigned k)
{
	unsigned s = k % SLOTS;
	uint32_t mid[N];
	uint32_t n = spill_n(k);
	for (uint32_t i = 0; i < N; i++)
		mid[i] = t_spill_ref(w->peer->data, n, i);
	const uint32_t *got = map(w->rb[s], N * 4);
	for (uint32_t i = 0; i < N; i++)
		if (got[i] != t_spill_ref(mid, N, i)) {
			wrong(w, "output of the producer's output", k, i, got[i], t_spill_ref(mid, N, i));
			break;
		}
	ID3D12Resource_Unmap(w->rb[s], 0, NULL);
}

static void submit(worker *w, ID3D12GraphicsCommandList6 *l, unsigned k)
{
	if (ID3D12GraphicsCommandList6_Close(l) != S_OK) {
		wrong(w, "Close failed", k, 0, 0, 0);
		return;
	}
	ID3D12CommandList *cl = (ID3D12CommandList *)l;
	ID3D12CommandQueue_ExecuteCommandLists(w->queue, 1, &cl);
	atomic_store(&w->submitted, k); /* before the signal: the poller never sees the fence ahead of it */
	if (ID3D12CommandQueue_Signal(w->queue, w->fence, k) != S_OK)
		wrong(w, "Signal failed", k, 0, 0, 0);
}

/* Round k: spill of the input into out[s] and vadd into vout[s], both
 * copied to read-back buffers. The slot's previous round must be done, on
 * this queue (its allocator) and on the consumer's (it read out[s]). */
static void *producer(void *arg)
{
	worker *w = arg;
	for (unsigned k = 1; k <= rounds && !w->bad; k++) {
		unsigned s = k % SLOTS;
		if (k > SLOTS) {
			wait_own(w, k - SLOTS);
			check_producer(w, k - SLOTS);
			if (ID3D12Fence_SetEventOnCompletion(w->peer->fence, k - SLOTS, NULL) != S_OK)
				wrong(w, "waiting for the consumer failed", k, 0, 0, 0);
			if (ID3D12CommandAllocator_Reset(w->alloc[s]) != S_OK ||
			    ID3D12GraphicsCommandList6_Reset(w->list[s], w->alloc[s], NULL) != S_OK)
				wrong(w, "Reset failed", k, 0, 0, 0);
		}
		ID3D12GraphicsCommandList6 *l = w->list[s];
		spill_dispatch(w, l, w->in, spill_n(k), w->out[s]);
		vadd_dispatch(w, l, vadd_n(k), w->vout[s]);
		uav_barrier(l);
		ID3D12GraphicsCommandList6_CopyBufferRegion(l, w->rb[s], 0, w->out[s], 0, N * 4);
		ID3D12GraphicsCommandList6_CopyBufferRegion(l, w->vrb[s], 0, w->vout[s], 0, VN * 4);
		submit(w, l, k);
	}
	for (unsigned k = rounds > SLOTS ? rounds - SLOTS + 1 : 1; k <= rounds && !w->bad; k++) {
		wait_own(w, k);
		check_producer(w, k);
	}
	return NULL;
}

/* Round k: the queue waits for the producer's fence to reach k (the GPU
 * waits, not this thread), then spills the producer's out[s]. */
static void *consumer(void *arg)
{
	worker *w = arg;
	worker *p = w->peer;
	for (unsigned k = 1; k <= rounds && !w->bad; k++) {
		unsigned s = k % SLOTS;
		if (k > SLOTS) {
			wait_own(w, k - SLOTS);
			check_consumer(w, k - SLOTS);
			if (ID3D12CommandAllocator_Reset(w->alloc[s]) != S_OK ||
			    ID3D12GraphicsCommandList6_Reset(w->list[s], w->alloc[s], NULL) != S_OK)
				wrong(w, "Reset failed", k, 0, 0, 0);
		}
		if (ID3D12CommandQueue_Wait(w->queue, p->fence, k) != S_OK)
			wrong(w, "Wait failed", k, 0, 0, 0);
		ID3D12GraphicsCommandList6 *l = w->list[s];
		spill_dispatch(w, l, p->out[s], N, w->out[s]);
		uav_barrier(l);
		ID3D12GraphicsCommandList6_CopyBufferRegion(l, w->rb[s], 0, w->out[s], 0, N * 4);
		submit(w, l, k);
	}
	for (unsigned k = rounds > SLOTS ? rounds - SLOTS + 1 : 1; k <= rounds && !w->bad; k++) {
		wait_own(w, k);
		check_consumer(w, k);
	}
	return NULL;
}

/* A thread of its own work on a queue: vadd under launch parameters, no
 * fences but its own (its lists mix with the pairs' on that queue). */
static void *loner(void *arg)
{
	worker *w = arg;
	for (unsigned k = 1; k <= rounds && !w->bad; k++) {
		unsigned s = k % SLOTS;
		if (k > SLOTS) {
			wait_own(w, k - SLOTS);
			const float *v = map(w->vrb[s], VN * 4);
			uint32_t vn = vadd_n(k - SLOTS);
			for (uint32_t i = 0; i < VN; i++)
				if (v[i] != (i < vn ? w->sh->a[i] + w->sh->b[i] : 0.0f)) {
					wrong(w, "vadd output", k - SLOTS, i, (uint32_t)v[i], 0);
					break;
				}
			ID3D12Resource_Unmap(w->vrb[s], 0, NULL);
			if (ID3D12CommandAllocator_Reset(w->alloc[s]) != S_OK ||
			    ID3D12GraphicsCommandList6_Reset(w->list[s], w->alloc[s], NULL) != S_OK)
				wrong(w, "Reset failed", k, 0, 0, 0);
		}
		ID3D12GraphicsCommandList6 *l = w->list[s];
		vadd_dispatch(w, l, vadd_n(k), w->vout[s]);
		uav_barrier(l);
		ID3D12GraphicsCommandList6_CopyBufferRegion(l, w->vrb[s], 0, w->vout[s], 0, VN * 4);
		submit(w, l, k);
	}
	wait_own(w, rounds);
	return NULL;
}

typedef struct poller {
	worker *w;
	unsigned nw;
	atomic_int stop;
	unsigned long polls;
	int bad;
	pthread_t th;
} poller;

/* Only GetCompletedValue: a fence's value never goes down and never passes
 * what its thread has signalled (read before, so it can only be larger). */
static void *poll_fences(void *arg)
{
	poller *p = arg;
	UINT64 last[8] = { 0 };
	while (!atomic_load(&p->stop)) {
		for (unsigned i = 0; i < p->nw; i++) {
			UINT64 v = ID3D12Fence_GetCompletedValue(p->w[i].fence);
			unsigned sub = atomic_load(&p->w[i].submitted); /* after: at least what v saw */
			if (v < last[i] || v > sub)
				p->bad++;
			last[i] = v;
			p->polls++;
		}
		usleep(200);
	}
	return NULL;
}

static void worker_init(worker *w, shared *sh, const char *role, int id, ID3D12CommandQueue *q, D3D12_COMMAND_LIST_TYPE t)
{
	memset(w, 0, sizeof(*w));
	w->sh = sh;
	w->role = role;
	w->id = id;
	w->queue = q;
	for (int s = 0; s < SLOTS; s++) {
		assert_int_equal(ID3D12Device_CreateCommandAllocator(sh->dev, t, &IID_ID3D12CommandAllocator,
								     (void **)&w->alloc[s]), S_OK);
		assert_int_equal(ID3D12Device_CreateCommandList(sh->dev, 0, t, w->alloc[s], NULL,
								&IID_ID3D12GraphicsCommandList6, (void **)&w->list[s]), S_OK);
		w->out[s] = buffer(sh->dev, D3D12_HEAP_TYPE_DEFAULT, N * 4);
		w->vout[s] = buffer(sh->dev, D3D12_HEAP_TYPE_DEFAULT, VN * 4);
		w->rb[s] = buffer(sh->dev, D3D12_HEAP_TYPE_READBACK, N * 4);
		w->vrb[s] = buffer(sh->dev, D3D12_HEAP_TYPE_READBACK, VN * 4);
	}
	assert_int_equal(ID3D12Device_CreateFence(sh->dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&w->fence),
			 S_OK);
	w->ring = buffer(sh->dev, D3D12_HEAP_TYPE_DEFAULT, (UINT64)sh->per_wave * RING_SLOTS);
	for (uint32_t i = 0; i < N; i++)
		w->data[i] = i * 2654435761u + (uint32_t)id * 977u + 1;
	t_ctx c = { .dev = sh->dev };
	w->in = t_upload(&c, w->data, sizeof(w->data));
}

static void worker_fini(worker *w)
{
	for (int s = 0; s < SLOTS; s++) {
		ID3D12GraphicsCommandList6_Release(w->list[s]);
		ID3D12CommandAllocator_Release(w->alloc[s]);
		ID3D12Resource_Release(w->out[s]);
		ID3D12Resource_Release(w->vout[s]);
		ID3D12Resource_Release(w->rb[s]);
		ID3D12Resource_Release(w->vrb[s]);
	}
	ID3D12Resource_Release(w->ring);
	ID3D12Resource_Release(w->in);
	ID3D12Fence_Release(w->fence);
}

/* private_spill's scratch per wave from its own metadata (S1.11). */
static UINT spill_per_wave(void)
{
	xs_device *dev;
	xs_module *m;
	assert_int_equal(xs_device_create(NULL, &dev), XS_OK);
	assert_int_equal(xs_module_load_file(dev, spill_path, &m), XS_OK);
	const xs_kernel_info *k = xs_module_kernel(m, 0);
	uint64_t bytes = (uint64_t)k->private_segment_fixed_size * k->wavefront_size;
	xs_module_destroy(m);
	xs_device_destroy(dev);
	return (UINT)((bytes + 1023) / 1024 * 1024);
}

static ID3D12RootSignature *root_of(t_ctx *c, const char *path)
{
	size_t n;
	void *code = t_read_file(path, &n);
	ID3D12RootSignature *rs = NULL;
	assert_int_equal(ID3D12Device_CreateRootSignature(c->dev, 0, code, n, &IID_ID3D12RootSignature, (void **)&rs),
			 S_OK);
	free(code);
	return rs;
}

static void load(const XS12_DEVICE_DESC *desc)
{
	static shared sh;
	memset(&sh, 0, sizeof(sh));
	t_ctx c;
	t_open_desc(&c, desc, D3D12_COMMAND_LIST_TYPE_DIRECT);
	sh.dev = c.dev;
	sh.queue[0] = c.queue;
	for (int q = 1; q < 3; q++) {
		D3D12_COMMAND_QUEUE_DESC qd = { .Type = D3D12_COMMAND_LIST_TYPE_COMPUTE };
		assert_int_equal(ID3D12Device_CreateCommandQueue(c.dev, &qd, &IID_ID3D12CommandQueue, (void **)&sh.queue[q]),
				 S_OK);
	}
	HRESULT hr;
	sh.spill = t_pipeline(&c, spill_path, NULL, &hr);
	assert_int_equal(hr, S_OK);
	sh.vadd = t_pipeline(&c, vadd_path, NULL, &hr);
	assert_int_equal(hr, S_OK);
	sh.spill_rs = root_of(&c, spill_path);
	sh.vadd_rs = root_of(&c, vadd_path);
	sh.per_wave = spill_per_wave();
	for (int i = 0; i < VN; i++) {
		sh.a[i] = (float)i * 0.5f;
		sh.b[i] = (float)(VN - i);
	}
	sh.vin_a = t_upload(&c, sh.a, sizeof(sh.a));
	sh.vin_b = t_upload(&c, sh.b, sizeof(sh.b));
	static const float zero[VN];
	sh.zeros = t_upload(&c, zero, sizeof(zero));

	/* pair 0: producer on compute queue 1, consumer on compute queue 2;
	 * pair 1: producer on the direct queue, consumer on compute queue 1
	 * (behind pair 0's producer). The waits form no cycle: each waits for
	 * a queue whose own waits are satisfiable without it. The loner mixes
	 * its lists into compute queue 2. */
	enum { NW = 2 * PAIRS + 1 };
	static worker w[NW];
	const int pq[PAIRS] = { 1, 0 }, cq[PAIRS] = { 2, 1 };
	for (int p = 0; p < PAIRS; p++) {
		worker *pr = &w[2 * p], *co = &w[2 * p + 1];
		worker_init(pr, &sh, "producer", p, sh.queue[pq[p]],
			    pq[p] ? D3D12_COMMAND_LIST_TYPE_COMPUTE : D3D12_COMMAND_LIST_TYPE_DIRECT);
		worker_init(co, &sh, "consumer", p, sh.queue[cq[p]], D3D12_COMMAND_LIST_TYPE_COMPUTE);
		pr->peer = co;
		co->peer = pr;
	}
	worker_init(&w[NW - 1], &sh, "loner", 0, sh.queue[2], D3D12_COMMAND_LIST_TYPE_COMPUTE);
	poller pl = { .w = w, .nw = NW };
	pthread_create(&pl.th, NULL, poll_fences, &pl);
	struct timespec ts0, ts1;
	clock_gettime(CLOCK_MONOTONIC, &ts0);
	for (int i = 0; i < NW; i++)
		pthread_create(&w[i].th, NULL, i == NW - 1 ? loner : i % 2 ? consumer : producer, &w[i]);
	for (int i = 0; i < NW; i++)
		pthread_join(w[i].th, NULL);
	clock_gettime(CLOCK_MONOTONIC, &ts1);
	atomic_store(&pl.stop, 1);
	pthread_join(pl.th, NULL);
	double secs = (double)(ts1.tv_sec - ts0.tv_sec) + (double)(ts1.tv_nsec - ts0.tv_nsec) * 1e-9;
	unsigned lists = 0;
	for (int i = 0; i < NW; i++) {
		if (w[i].bad)
			fprintf(stderr, "%s (%d wrong)\n", w[i].first_bad, w[i].bad);
		lists += atomic_load(&w[i].submitted);
	}
	printf("%s: %u threads, %u lists executed (%u fence signals, %u queue waits) in %.1f s; %lu fence polls\n",
	       desc->Functional ? "functional, 2 host threads" : "timing", NW, lists, lists, PAIRS * rounds, secs,
	       pl.polls);
	for (int i = 0; i < NW; i++)
		assert_int_equal(w[i].bad, 0);
	assert_int_equal(pl.bad, 0);
	assert_int_equal(lists, NW * rounds);
	assert_int_equal(ID3D12Device_GetDeviceRemovedReason(c.dev), S_OK);
	assert_int_equal(t_last_message(&c, NULL, 0), 0);
	for (int i = 0; i < NW; i++)
		worker_fini(&w[i]);
	ID3D12Resource_Release(sh.vin_a);
	ID3D12Resource_Release(sh.vin_b);
	ID3D12Resource_Release(sh.zeros);
	ID3D12RootSignature_Release(sh.spill_rs);
	ID3D12RootSignature_Release(sh.vadd_rs);
	ID3D12PipelineState_Release(sh.spill);
	ID3D12PipelineState_Release(sh.vadd);
	for (int q = 1; q < 3; q++)
		ID3D12CommandQueue_Release(sh.queue[q]);
	t_close(&c);
}

static void load_timing(void **state)
{
	(void)state;
	XS12_DEVICE_DESC d = { .Machine = XS12_MACHINE_SERIES_X, .DebugLayer = TRUE };
	load(&d);
}

static void load_functional_threads(void **state)
{
	(void)state;
	XS12_DEVICE_DESC d = { .Machine = XS12_MACHINE_SERIES_X, .DebugLayer = TRUE, .Functional = TRUE, .HostThreads = 2 };
	load(&d);
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	spill_path = argv[1];
	vadd_path = argv[2];
	const char *r = argc > 3 ? argv[3] : getenv("XS12_LOAD_ROUNDS");
	if (r && atoi(r) > 0)
		rounds = (unsigned)atoi(r);
	const struct CMUnitTest tests[] = { cmocka_unit_test(load_timing), cmocka_unit_test(load_functional_threads) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
