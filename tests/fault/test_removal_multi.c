/* Device removal in the middle of a multi-queue workload: one device with
 * three queues (two compute, one direct), each running long vadd lists,
 * chained by fences across the queues, and in the middle one of
 *   (a) a GPU VM fault: a dispatch storing to a released buffer,
 *   (b) a watchdog removal: a dispatch that never ends (kernels/faults.cl
 *       spin) past XS12_DEVICE_DESC.HangGpuMicroseconds,
 *   (c) a graphics deadlock (SPEC S4.2: late alloc 23 with the VS and PS
 *       kept to three CUs, as tests/d3d12/test_gfx_deadlock.c).
 * Checked: every host thread waiting on a fence returns within a bound;
 * the fences read UINT64_MAX, as D3D12's do after a removal;
 * GetDeviceRemovedReason gives the documented reason; later calls fail
 * with DXGI_ERROR_DEVICE_REMOVED; a device made before and one made after
 * run vadd with the CPU's sums; everything is released (LeakSanitizer in
 * the san build).
 *
 * argv: vadd.hsaco faults.hsaco fat.vs color.ps
 */
#include "../d3d12/d3d12_util.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

static const char *vadd_path, *faults_path;
static void *vs_code, *ps_code;
static size_t vs_size, ps_size;

enum { N = 4096, DISPATCHES = 24, NQ = 3 };

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds a host wait may take: the sanitized build runs several times
 * slower (its XS12_HANG_HOST_MS says how much slower it is allowed to be). */
static double wait_bound(void)
{
	const char *ms = getenv("XS12_HANG_HOST_MS");
	double b = ms ? 2.0 * atof(ms) / 1000.0 : 0.0;
	return b > 30.0 ? b : 30.0;
}

/* vadd on c's device: c = a + b with inputs of this round, read back. */
static void vadd_check(t_ctx *c, uint32_t round)
{
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(c, vadd_path, NULL, &hr);
	assert_int_equal(hr, S_OK);
	static float a[N], b[N], got[N];
	for (int i = 0; i < N; i++) {
		a[i] = (float)(i % 977) + (float)round;
		b[i] = 0.5f * (float)i - (float)round;
	}
	ID3D12Resource *ua = t_upload(c, a, sizeof(a)), *ub = t_upload(c, b, sizeof(b));
	ID3D12Resource *uc = t_buffer(c, D3D12_HEAP_TYPE_DEFAULT, sizeof(got));
	t_set_pipeline(c, p);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c->list, 0, ID3D12Resource_GetGPUVirtualAddress(ua));
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c->list, 1, ID3D12Resource_GetGPUVirtualAddress(ub));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c->list, 2, ID3D12Resource_GetGPUVirtualAddress(uc));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c->list, 3, N, 0);
	ID3D12GraphicsCommandList6_Dispatch(c->list, N / 64, 1, 1);
	assert_int_equal(t_run(c), S_OK);
	t_read(c, uc, got, sizeof(got));
	for (int i = 0; i < N; i++)
		if (got[i] != a[i] + b[i])
			fail_msg("vadd on the other device: c[%d] = %g, want %g", i, (double)got[i], (double)(a[i] + b[i]));
	ID3D12Resource_Release(ua);
	ID3D12Resource_Release(ub);
	ID3D12Resource_Release(uc);
	ID3D12PipelineState_Release(p);
}

/* A host thread blocked on one fence value (SetEventOnCompletion with no
 * event blocks until the fence gets there, or the device is removed). */
typedef struct waiter {
	pthread_t thread;
	ID3D12Fence *fence;
	UINT64 value;
	HRESULT hr;
	double seconds;
	atomic_bool done;
} waiter;

static void *wait_thread(void *arg)
{
	waiter *w = arg;
	double t0 = now();
	w->hr = ID3D12Fence_SetEventOnCompletion(w->fence, w->value, NULL);
	w->seconds = now() - t0;
	atomic_store(&w->done, true);
	return NULL;
}

typedef enum removal { VM_FAULT, WATCHDOG, GFX_DEADLOCK } removal;

typedef struct queue_set {
	ID3D12CommandQueue *q[NQ];
	ID3D12CommandAllocator *alloc[NQ][3];
	ID3D12GraphicsCommandList6 *list[NQ][3];
	ID3D12Fence *f[NQ];
} queue_set;

static const D3D12_COMMAND_LIST_TYPE qtype[NQ] = { D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COMPUTE,
						   D3D12_COMMAND_LIST_TYPE_DIRECT };

static ID3D12GraphicsCommandList6 *new_list(t_ctx *c, queue_set *s, int q, int k)
{
	assert_int_equal(ID3D12Device_CreateCommandAllocator(c->dev, qtype[q], &IID_ID3D12CommandAllocator,
							     (void **)&s->alloc[q][k]), S_OK);
	assert_int_equal(ID3D12Device_CreateCommandList(c->dev, 0, qtype[q], s->alloc[q][k], NULL,
							&IID_ID3D12GraphicsCommandList6, (void **)&s->list[q][k]), S_OK);
	return s->list[q][k];
}

/* A long list: DISPATCHES vadds into out, with UAV barriers between them. */
static void long_work(ID3D12GraphicsCommandList6 *l, ID3D12PipelineState *p, ID3D12RootSignature *rs,
		      ID3D12Resource *a, ID3D12Resource *b, ID3D12Resource *out)
{
	ID3D12GraphicsCommandList6_SetComputeRootSignature(l, rs);
	ID3D12GraphicsCommandList6_SetPipelineState(l, p);
	D3D12_RESOURCE_BARRIER bar = { .Type = D3D12_RESOURCE_BARRIER_TYPE_UAV };
	for (int i = 0; i < DISPATCHES; i++) {
		ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(l, 0, ID3D12Resource_GetGPUVirtualAddress(a));
		ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(l, 1, ID3D12Resource_GetGPUVirtualAddress(b));
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(l, 2, ID3D12Resource_GetGPUVirtualAddress(out));
		ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(l, 3, N, 0);
		ID3D12GraphicsCommandList6_Dispatch(l, N / 64, 1, 1);
		ID3D12GraphicsCommandList6_ResourceBarrier(l, 1, &bar);
	}
}

static ID3D12RootSignature *root_of(t_ctx *c, const char *path, const char *kernel)
{
	size_t n;
	void *code = t_read_file(path, &n);
	XS12_KERNEL_BYTECODE kb = { .Magic = XS12_KERNEL_BYTECODE_MAGIC, .pCodeObject = code, .CodeObjectSize = n,
				    .KernelName = kernel };
	ID3D12RootSignature *rs = NULL;
	assert_int_equal(ID3D12Device_CreateRootSignature(c->dev, 0, kernel ? (const void *)&kb : code,
							  kernel ? sizeof(kb) : n, &IID_ID3D12RootSignature, (void **)&rs),
			 S_OK);
	free(code);
	return rs;
}

/* The S4.2 deadlock: the draw of test_gfx_deadlock.c (late alloc 23, VS
 * and PS on three CUs of each SA) recorded into l. */
typedef struct gfx_parts {
	ID3D12Resource *rt;
	ID3D12DescriptorHeap *rtvs;
	ID3D12PipelineState *pso;
} gfx_parts;

static void deadlock_draw(t_ctx *c, ID3D12GraphicsCommandList6 *l, gfx_parts *g)
{
	D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
	D3D12_RESOURCE_DESC rd = { .Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D, .Width = 8, .Height = 8,
				   .DepthOrArraySize = 1, .MipLevels = 1, .Format = DXGI_FORMAT_R8G8B8A8_UNORM,
				   .SampleDesc = { 1, 0 }, .Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET };
	assert_int_equal(ID3D12Device_CreateCommittedResource(c->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd,
							      D3D12_RESOURCE_STATE_RENDER_TARGET, NULL, &IID_ID3D12Resource,
							      (void **)&g->rt), S_OK);
	D3D12_DESCRIPTOR_HEAP_DESC hd = { .Type = D3D12_DESCRIPTOR_HEAP_TYPE_RTV, .NumDescriptors = 1 };
	assert_int_equal(ID3D12Device_CreateDescriptorHeap(c->dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&g->rtvs),
			 S_OK);
	D3D12_CPU_DESCRIPTOR_HANDLE rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(g->rtvs);
	ID3D12Device_CreateRenderTargetView(c->dev, g->rt, NULL, rtv);
	D3D12_GRAPHICS_PIPELINE_STATE_DESC d = t_gfx_desc(vs_code, vs_size, ps_code, ps_size);
	assert_int_equal(ID3D12Device_CreateGraphicsPipelineState(c->dev, &d, &IID_ID3D12PipelineState, (void **)&g->pso),
			 S_OK);
	D3D12XBOX_GRAPHICS_SHADER_LIMITS_DESC lim;
	D3D12XboxInitializeDefaultGraphicsShaderLimits(&lim);
	lim.MaxWavesWithLateAllocParameterCache = 23;
	lim.VSDisableFlags = 0x3ff8;
	lim.PSDisableFlags = 0x3ff8;
	ID3D12GraphicsCommandList6_SetGraphicsShaderLimitsX(l, &lim);
	ID3D12GraphicsCommandList6_SetPipelineState(l, g->pso);
	ID3D12GraphicsCommandList6_IASetPrimitiveTopology(l, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
	D3D12_VIEWPORT vp = { 0, 0, 8, 8, 0, 1 };
	D3D12_RECT sc = { 0, 0, 8, 8 };
	ID3D12GraphicsCommandList6_RSSetViewports(l, 1, &vp);
	ID3D12GraphicsCommandList6_RSSetScissorRects(l, 1, &sc);
	ID3D12GraphicsCommandList6_OMSetRenderTargets(l, 1, &rtv, FALSE, NULL);
	ID3D12GraphicsCommandList6_DrawInstanced(l, 64 * 3 * 64, 1, 0, 0);
}

static void execute(ID3D12CommandQueue *q, ID3D12GraphicsCommandList6 *l)
{
	assert_int_equal(ID3D12GraphicsCommandList6_Close(l), S_OK);
	ID3D12CommandList *cl = (ID3D12CommandList *)l;
	ID3D12CommandQueue_ExecuteCommandLists(q, 1, &cl);
}

static void removal_in_the_middle(removal kind)
{
	/* the bystander: made before, works after */
	t_ctx before;
	t_open(&before, false, D3D12_COMMAND_LIST_TYPE_DIRECT);
	vadd_check(&before, 1);

	XS12_DEVICE_DESC dd = { .Machine = XS12_MACHINE_SERIES_X, .DebugLayer = kind == GFX_DEADLOCK,
				.HangGpuMicroseconds = kind == WATCHDOG ? 2000 : 0 };
	t_ctx c;
	t_open_desc(&c, &dd, D3D12_COMMAND_LIST_TYPE_DIRECT);
	HRESULT hr;
	ID3D12PipelineState *vadd = t_pipeline(&c, vadd_path, NULL, &hr);
	assert_int_equal(hr, S_OK);
	ID3D12RootSignature *vadd_rs = root_of(&c, vadd_path, NULL);
	static float a[N], b[N];
	for (int i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = 2.0f * (float)i;
	}
	ID3D12Resource *ua = t_upload(&c, a, sizeof(a)), *ub = t_upload(&c, b, sizeof(b)), *out[NQ];
	for (int q = 0; q < NQ; q++)
		out[q] = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, sizeof(a));
	queue_set s;
	memset(&s, 0, sizeof(s));
	for (int q = 0; q < NQ; q++) {
		D3D12_COMMAND_QUEUE_DESC qd = { .Type = qtype[q] };
		assert_int_equal(ID3D12Device_CreateCommandQueue(c.dev, &qd, &IID_ID3D12CommandQueue, (void **)&s.q[q]), S_OK);
		assert_int_equal(ID3D12Device_CreateFence(c.dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&s.f[q]),
				 S_OK);
	}
	/* the bad work, on compute queue 1 or the direct queue 2 */
	ID3D12PipelineState *bad = NULL;
	ID3D12Resource *flag = NULL, *spin_out = NULL;
	gfx_parts g = { 0 };
	int bad_q = kind == GFX_DEADLOCK ? 2 : 1;
	ID3D12GraphicsCommandList6 *bl = new_list(&c, &s, bad_q, 2);
	if (kind == VM_FAULT) {
		bad = t_pipeline(&c, faults_path, "store_to", &hr);
		assert_int_equal(hr, S_OK);
		ID3D12Resource *victim = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 65536);
		D3D12_GPU_VIRTUAL_ADDRESS gone = ID3D12Resource_GetGPUVirtualAddress(victim);
		ID3D12Resource_Release(victim); /* unmapped from here on */
		t_ctx bc = c;
		bc.list = bl;
		t_set_pipeline(&bc, bad);
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(bl, 0, gone);
		ID3D12GraphicsCommandList6_Dispatch(bl, 4, 1, 1);
	} else if (kind == WATCHDOG) {
		bad = t_pipeline(&c, faults_path, "spin", &hr);
		assert_int_equal(hr, S_OK);
		flag = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 4096); /* 0: spin never ends */
		spin_out = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 4096);
		t_ctx bc = c;
		bc.list = bl;
		t_set_pipeline(&bc, bad);
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(bl, 0, ID3D12Resource_GetGPUVirtualAddress(flag));
		ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(bl, 1, ID3D12Resource_GetGPUVirtualAddress(spin_out));
		ID3D12GraphicsCommandList6_Dispatch(bl, 2, 1, 1);
	} else {
		deadlock_draw(&c, bl, &g);
	}
	/* The timeline (every wait is submitted after the signal it waits for):
	 *   q0: work, F0=1                      | wait F2>=1, work, F0=2
	 *   q1: wait F0>=1, work, F1=1          | (bad), work, F1=2
	 *   q2: wait F1>=1, work, F2=1          | (bad), work, F2=2
	 * For the S4.2 deadlock, q2's second half is submitted first and q0
	 * and q1 wait for its end (F2>=2) instead: the deadlock forms only when
	 * the VS waves take every place of CUs 0..2 before other waves do
	 * (S4.2: it "may show up seldom"), and compute waves started in the
	 * same cycle could win that race, so the draw would end and the test
	 * would hang on timing alone. Waiting makes the deadlock certain and
	 * the removal still has to end three queues' host waits. */
	for (int q = 0; q < NQ; q++) {
		if (q > 0)
			assert_int_equal(ID3D12CommandQueue_Wait(s.q[q], s.f[q - 1], 1), S_OK);
		ID3D12GraphicsCommandList6 *l = new_list(&c, &s, q, 0);
		long_work(l, vadd, vadd_rs, ua, ub, out[q]);
		execute(s.q[q], l);
		assert_int_equal(ID3D12CommandQueue_Signal(s.q[q], s.f[q], 1), S_OK);
	}
	static const int order[NQ] = { 0, 1, 2 }, deadlock_order[NQ] = { 2, 0, 1 };
	for (int i = 0; i < NQ; i++) {
		int q = kind == GFX_DEADLOCK ? deadlock_order[i] : order[i];
		if (kind == GFX_DEADLOCK && q != bad_q)
			assert_int_equal(ID3D12CommandQueue_Wait(s.q[q], s.f[bad_q], 2), S_OK);
		else if (q == 0)
			assert_int_equal(ID3D12CommandQueue_Wait(s.q[0], s.f[2], 1), S_OK);
		if (q == bad_q)
			execute(s.q[q], bl);
		ID3D12GraphicsCommandList6 *l = new_list(&c, &s, q, 1);
		long_work(l, vadd, vadd_rs, ua, ub, out[q]);
		execute(s.q[q], l);
		assert_int_equal(ID3D12CommandQueue_Signal(s.q[q], s.f[q], 2), S_OK);
	}
	/* host threads wait on each queue's last value */
	waiter w[NQ];
	memset(w, 0, sizeof(w));
	for (int q = 0; q < NQ; q++) {
		w[q].fence = s.f[q];
		w[q].value = 2;
		assert_int_equal(pthread_create(&w[q].thread, NULL, wait_thread, &w[q]), 0);
	}
	double t0 = now(), bound = wait_bound();
	for (;;) {
		bool all = true;
		for (int q = 0; q < NQ; q++)
			all = all && atomic_load(&w[q].done);
		if (all)
			break;
		if (now() - t0 > bound) {
			fprintf(stderr, "a host wait did not return within %.0f s\n", bound);
			abort(); /* the waiting threads cannot be joined */
		}
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	for (int q = 0; q < NQ; q++) {
		pthread_join(w[q].thread, NULL);
		assert_int_equal(w[q].hr, S_OK); /* the wait ended: the removal completes it */
		print_message("queue %d's host wait returned after %.2f s\n", q, w[q].seconds);
	}
	HRESULT want = kind == VM_FAULT ? DXGI_ERROR_DEVICE_RESET : DXGI_ERROR_DEVICE_HUNG;
	assert_int_equal(ID3D12Device_GetDeviceRemovedReason(c.dev), want);
	for (int q = 0; q < NQ; q++)
		assert_true(ID3D12Fence_GetCompletedValue(s.f[q]) == UINT64_MAX);
	/* an event set after the removal is signalled at once */
	HANDLE ev = XS12CreateEvent();
	assert_int_equal(ID3D12Fence_SetEventOnCompletion(s.f[1], 1000, ev), S_OK);
	assert_int_equal(XS12WaitForEvent(ev, 1000), 0u);
	XS12CloseEvent(ev);
	/* later calls fail cleanly */
	for (int q = 0; q < NQ; q++) {
		assert_int_equal(ID3D12CommandQueue_Signal(s.q[q], s.f[q], 3), DXGI_ERROR_DEVICE_REMOVED);
		assert_int_equal(ID3D12CommandQueue_Wait(s.q[q], s.f[(q + 1) % NQ], 3), DXGI_ERROR_DEVICE_REMOVED);
	}
	ID3D12Resource *late = (ID3D12Resource *)(uintptr_t)1;
	D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
	D3D12_RESOURCE_DESC rd = { .Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = 4096, .Height = 1,
				   .DepthOrArraySize = 1, .MipLevels = 1, .SampleDesc = { 1, 0 },
				   .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR };
	assert_int_equal(ID3D12Device_CreateCommittedResource(c.dev, &hp, D3D12_HEAP_FLAG_NONE, &rd,
							      D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
							      (void **)&late), DXGI_ERROR_DEVICE_REMOVED);
	assert_null(late);
	ID3D12CommandList *again = (ID3D12CommandList *)s.list[0][0];
	ID3D12CommandQueue_ExecuteCommandLists(s.q[0], 1, &again); /* nothing runs; no crash, no hang */
	assert_true(ID3D12Fence_GetCompletedValue(s.f[0]) == UINT64_MAX);
	/* allocators reset: nothing is in flight on a removed device */
	for (int q = 0; q < NQ; q++)
		for (int k = 0; k < 3; k++)
			if (s.alloc[q][k])
				assert_int_equal(ID3D12CommandAllocator_Reset(s.alloc[q][k]), S_OK);

	/* the bystander and a device made after work */
	vadd_check(&before, 2);
	t_ctx after;
	t_open(&after, kind == GFX_DEADLOCK, D3D12_COMMAND_LIST_TYPE_DIRECT);
	vadd_check(&after, 3);
	t_close(&after);
	t_close(&before);

	for (int q = 0; q < NQ; q++) {
		for (int k = 0; k < 3; k++)
			if (s.list[q][k]) {
				ID3D12GraphicsCommandList6_Release(s.list[q][k]);
				ID3D12CommandAllocator_Release(s.alloc[q][k]);
			}
		ID3D12CommandQueue_Release(s.q[q]);
		ID3D12Fence_Release(s.f[q]);
		ID3D12Resource_Release(out[q]);
	}
	if (bad)
		ID3D12PipelineState_Release(bad);
	if (flag)
		ID3D12Resource_Release(flag);
	if (spin_out)
		ID3D12Resource_Release(spin_out);
	if (g.pso) {
		ID3D12PipelineState_Release(g.pso);
		ID3D12DescriptorHeap_Release(g.rtvs);
		ID3D12Resource_Release(g.rt);
	}
	ID3D12Resource_Release(ua);
	ID3D12Resource_Release(ub);
	ID3D12RootSignature_Release(vadd_rs);
	ID3D12PipelineState_Release(vadd);
	t_close(&c);
}

static void vm_fault(void **state)
{
	(void)state;
	removal_in_the_middle(VM_FAULT);
}

static void watchdog(void **state)
{
	(void)state;
	removal_in_the_middle(WATCHDOG);
}

static void gfx_deadlock(void **state)
{
	(void)state;
	removal_in_the_middle(GFX_DEADLOCK);
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: %s vadd.hsaco faults.hsaco fat.vs color.ps\n", argv[0]);
		return 2;
	}
	vadd_path = argv[1];
	faults_path = argv[2];
	vs_code = t_read_file(argv[3], &vs_size);
	ps_code = t_read_file(argv[4], &ps_size);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vm_fault),
		cmocka_unit_test(watchdog),
		cmocka_unit_test(gfx_deadlock),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	free(vs_code);
	free(ps_code);
	return rc;
}
