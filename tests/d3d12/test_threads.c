/* D3D12 objects are free-threaded: threads that record their own lists,
 * share a queue and wait on their own fences get their own results, and a
 * thread that only polls fences does not disturb them. */
#include "d3d12_util.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const char *vadd_path;

enum { THREADS = 4, ROUNDS = 5, DISPATCHES = 8, N = 4096 };

typedef struct worker {
	t_ctx *shared;               /* device and queue */
	ID3D12PipelineState *pso;
	int id;
	int bad;                     /* wrong results seen */
	pthread_t th;
} worker;

static void *work(void *arg)
{
	worker *w = arg;
	t_ctx c = *w->shared;        /* the device and queue; its own allocator, list, fence */
	assert_int_equal(ID3D12Device_CreateCommandAllocator(c.dev, c.type, &IID_ID3D12CommandAllocator,
							     (void **)&c.alloc), S_OK);
	assert_int_equal(ID3D12Device_CreateCommandList(c.dev, 0, c.type, c.alloc, NULL, &IID_ID3D12GraphicsCommandList6,
							(void **)&c.list), S_OK);
	assert_int_equal(ID3D12Device_CreateFence(c.dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&c.fence), S_OK);
	c.fence_value = 0;
	static float a[THREADS][N], b[THREADS][N], out[THREADS][N];
	for (int i = 0; i < N; i++) {
		a[w->id][i] = (float)(i + w->id);
		b[w->id][i] = (float)(w->id * 1000);
	}
	ID3D12Resource *ua = t_upload(&c, a[w->id], sizeof(a[0])), *ub = t_upload(&c, b[w->id], sizeof(b[0]));
	ID3D12Resource *uc[DISPATCHES];
	for (int k = 0; k < DISPATCHES; k++)
		uc[k] = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, sizeof(out[0]));
	for (int r = 0; r < ROUNDS; r++) {
		for (int k = 0; k < DISPATCHES; k++) {
			t_set_pipeline(&c, w->pso);
			ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 0, ID3D12Resource_GetGPUVirtualAddress(ua));
			ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(c.list, 1, ID3D12Resource_GetGPUVirtualAddress(ub));
			ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(c.list, 2,
										      ID3D12Resource_GetGPUVirtualAddress(uc[k]));
			ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(c.list, 3, N - k, 0);
			ID3D12GraphicsCommandList6_Dispatch(c.list, N / 64, 1, 1);
		}
		if (t_run(&c) != S_OK)
			w->bad++;
		for (int k = 0; k < DISPATCHES; k += 3) {
			t_read(&c, uc[k], out[w->id], sizeof(out[0]));
			for (int i = 0; i < N - k; i++)
				if (out[w->id][i] != a[w->id][i] + b[w->id][i])
					w->bad++;
		}
	}
	for (int k = 0; k < DISPATCHES; k++)
		ID3D12Resource_Release(uc[k]);
	ID3D12Resource_Release(ua);
	ID3D12Resource_Release(ub);
	ID3D12Fence_Release(c.fence);
	ID3D12GraphicsCommandList6_Release(c.list);
	ID3D12CommandAllocator_Release(c.alloc);
	return NULL;
}

/* atomic: volatile orders nothing between threads (ThreadSanitizer's report) */
static atomic_int stop_polling;

static void *poll_fences(void *arg)
{
	ID3D12Fence *f = arg;
	while (!atomic_load(&stop_polling))
		(void)ID3D12Fence_GetCompletedValue(f);
	return NULL;
}

static void threads_share_a_queue(void **state)
{
	(void)state;
	for (int type = 0; type < 2; type++) {
		t_ctx c;
		t_open(&c, true, type ? D3D12_COMMAND_LIST_TYPE_COMPUTE : D3D12_COMMAND_LIST_TYPE_DIRECT);
		HRESULT hr;
		ID3D12PipelineState *p = t_pipeline(&c, vadd_path, NULL, &hr);
		assert_int_equal(hr, S_OK);
		worker w[THREADS];
		pthread_t poller;
		atomic_store(&stop_polling, 0);
		pthread_create(&poller, NULL, poll_fences, c.fence);
		for (int i = 0; i < THREADS; i++) {
			w[i] = (worker){ .shared = &c, .pso = p, .id = i };
			pthread_create(&w[i].th, NULL, work, &w[i]);
		}
		for (int i = 0; i < THREADS; i++) {
			pthread_join(w[i].th, NULL);
			assert_int_equal(w[i].bad, 0);
		}
		atomic_store(&stop_polling, 1);
		pthread_join(poller, NULL);
		assert_int_equal(ID3D12Device_GetDeviceRemovedReason(c.dev), S_OK);
		assert_int_equal(t_last_message(&c, NULL, 0), 0);
		ID3D12PipelineState_Release(p);
		t_close(&c);
	}
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	vadd_path = argv[1];
	const struct CMUnitTest tests[] = { cmocka_unit_test(threads_share_a_queue) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
