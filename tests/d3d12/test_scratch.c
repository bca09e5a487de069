/* SetShaderScratchSpaceX and GetInformationX (SPEC S1) through D3D12:
 * every rule broken gives its message ID and a failed Close; the
 * documented usage (S1.12) computes what the CPU computes; the default
 * scratch on an async queue (S1.8), separate rings (S1.9) and memory reuse
 * without ordering (S1.10) with and without the debug layer. */
#include "d3d12_util.h"

#include <xs12/xs12.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const char *spill_path; /* private_spill: a private array in scratch */

/* S1.11's figure from the code object's own metadata (through the native
 * API's loader, not the D3D12 layer): lane bytes x wave size, up to 1 KB. */
static uint32_t scratch_units_from_metadata(void)
{
	xs_device *dev;
	xs_module *m;
	assert_int_equal(xs_device_create(NULL, &dev), XS_OK);
	assert_int_equal(xs_module_load_file(dev, spill_path, &m), XS_OK);
	const xs_kernel_info *k = xs_module_kernel(m, 0);
	uint64_t bytes = (uint64_t)k->private_segment_fixed_size * k->wavefront_size;
	uint32_t units = (uint32_t)((bytes + 1023) / 1024);
	xs_module_destroy(m);
	xs_device_destroy(dev);
	return units;
}

typedef struct spill_run {
	ID3D12Resource *in, *out;
	uint32_t n, threads;
	uint32_t data[4096];
} spill_run;

static void spill_setup(t_ctx *c, spill_run *r, uint32_t threads, uint32_t seed)
{
	r->n = 1024;
	r->threads = threads;
	for (uint32_t i = 0; i < r->n; i++)
		r->data[i] = i * 2654435761u + seed;
	r->in = t_upload(c, r->data, r->n * 4);
	r->out = t_buffer(c, D3D12_HEAP_TYPE_DEFAULT, threads * 4);
}

static void spill_record(t_ctx *c, ID3D12PipelineState *p, spill_run *r)
{
	ID3D12GraphicsCommandList6 *l = c->list;
	t_set_pipeline(c, p);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(l, 0, ID3D12Resource_GetGPUVirtualAddress(r->in));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(l, 1, ID3D12Resource_GetGPUVirtualAddress(r->out));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(l, 2, r->n, 0);
	ID3D12GraphicsCommandList6_Dispatch(l, r->threads / 64, 1, 1);
}

/* Every output equals the CPU's? */
static bool spill_right(t_ctx *c, spill_run *r)
{
	uint32_t *got = malloc(r->threads * 4);
	t_read(c, r->out, got, r->threads * 4);
	bool ok = true;
	for (uint32_t i = 0; i < r->threads && ok; i++)
		ok = got[i] == t_spill_ref(r->data, r->n, i);
	free(got);
	return ok;
}

static void spill_free(spill_run *r)
{
	ID3D12Resource_Release(r->in);
	ID3D12Resource_Release(r->out);
}

/* ---- S1.2-S1.6, S1.13, S1.14: each rule broken ---------------------------------- */

typedef struct bad_call {
	D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS flags;
	int64_t dst_off;     /* from the buffer's start; -1 = null */
	UINT64 size;
	UINT per_wave;
	XS12_MESSAGE_ID id;
	const char *rule;
} bad_call;

static void each_rule_broken(void **state)
{
	(void)state;
	const bad_call calls[] = {
		{ 0, 0, 65536, 4096, XS12_MESSAGE_ID_SCRATCH_FLAGS, "S1.2" },
		{ 0x4, 0, 65536, 4096, XS12_MESSAGE_ID_SCRATCH_FLAGS, "S1.2" },
		{ 1, 512, 65536, 4096, XS12_MESSAGE_ID_SCRATCH_DEST_ALIGN, "S1.3" },
		{ 1, 0, 65536 + 100, 4096, XS12_MESSAGE_ID_SCRATCH_SIZE_ALIGN, "S1.5" },
		{ 1, -1, 65536, 0, XS12_MESSAGE_ID_SCRATCH_NULL_WITH_SIZES, "S1.5" },
		{ 1, 0, 65536, 1000, XS12_MESSAGE_ID_SCRATCH_PER_WAVE_ALIGN, "S1.6" },
		{ 1, 0, 65536, 0, XS12_MESSAGE_ID_SCRATCH_PER_WAVE_RANGE, "S1.6" },
		{ 1, 0, 4096, 8192, XS12_MESSAGE_ID_SCRATCH_PER_WAVE_RANGE, "S1.6" },
		{ 1, -1, 0, 4096, XS12_MESSAGE_ID_SCRATCH_NULL_WITH_SIZES, "S1.5" },
		{ 1, 0, 1 << 22, 1 << 22, XS12_MESSAGE_ID_SCRATCH_NOT_ALLOCATED, "S1.5" },
		{ 1, 1 << 20, 65536, 4096, XS12_MESSAGE_ID_SCRATCH_NOT_ALLOCATED, "S1.5" },
	};
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	ID3D12Resource *buf = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 1 << 20);
	D3D12_GPU_VIRTUAL_ADDRESS va = ID3D12Resource_GetGPUVirtualAddress(buf);
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		const bad_call *b = &calls[i];
		ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.list, b->flags, b->dst_off < 0 ? 0 : va + (UINT64)b->dst_off,
								  b->size, b->per_wave);
		char text[600];
		D3D12_MESSAGE_ID id = t_last_message(&c, text, sizeof(text));
		if (id != (D3D12_MESSAGE_ID)b->id || strncmp(text, b->rule, strlen(b->rule)))
			fail_msg("call %zu: message %d '%s', expected %d naming %s", i, (int)id, text, (int)b->id, b->rule);
		/* the list remembers the broken rule: Close fails, nothing runs */
		assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
		assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
	}
	/* S1.6: a slot larger than COMPUTE_TMPRING_SIZE.WAVESIZE holds (8191 KB) */
	ID3D12Resource *huge = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 16u << 20);
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
							  ID3D12Resource_GetGPUVirtualAddress(huge), 16u << 20, 8192u << 10);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_SCRATCH_WAVESIZE_FIELD);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
	ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL);
	ID3D12Resource_Release(huge);
	/* S1.14: GRAPHICS on a COMPUTE list */
	t_ctx cc;
	t_open(&cc, true, D3D12_COMMAND_LIST_TYPE_COMPUTE);
	ID3D12Resource *b2 = t_buffer(&cc, D3D12_HEAP_TYPE_DEFAULT, 65536);
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(cc.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_GRAPHICS,
							  ID3D12Resource_GetGPUVirtualAddress(b2), 65536, 4096);
	assert_int_equal(t_last_message(&cc, NULL, 0), XS12_MESSAGE_ID_SCRATCH_GRAPHICS_ON_COMPUTE_LIST);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(cc.list), E_INVALIDARG);
	ID3D12Resource_Release(b2);
	t_close(&cc);
	/* S1.13: more slots than 32 per CU is a warning; Close succeeds */
	ID3D12Resource *big = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 2000u << 10);
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
							  ID3D12Resource_GetGPUVirtualAddress(big), 2000u << 10, 1024);
	char text[600];
	assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_SCRATCH_SLOTS_OVER_CAP);
	assert_non_null(strstr(text, "1664"));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	ID3D12Resource_Release(big);
	ID3D12Resource_Release(buf);
	t_close(&c);
}

/* ---- S1.11, S1.12: the query and the documented usage ---------------------------- */

static void information_x_and_documented_usage(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(&c, spill_path, NULL, &hr);
	assert_int_equal(hr, S_OK);
	ID3DBlob *blob = NULL;
	assert_int_equal(ID3D12PipelineState_GetInformationX(
				 p, D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW, 0, &blob),
			 S_OK);
	assert_int_equal(ID3DBlob_GetBufferSize(blob), sizeof(UINT));
	UINT units = *(const UINT *)ID3DBlob_GetBufferPointer(blob);
	ID3DBlob_Release(blob);
	assert_int_equal(units, scratch_units_from_metadata());
	assert_true(units > 0);
	/* a failed query: an error, no blob (the documentation: it means 0) */
	blob = (ID3DBlob *)1;
	assert_int_equal(ID3D12PipelineState_GetInformationX(p, (D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE)7, 0, &blob),
			 E_INVALIDARG);
	assert_null(blob);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_PIPELINE_INFO_TYPE);

	/* S1.12: per-wave = query x 1024, total = per-wave x 8 */
	UINT per_wave = units * 1024;
	UINT64 total = (UINT64)per_wave * 8;
	ID3D12Resource *scratch = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, total);
	spill_run r;
	spill_setup(&c, &r, 4096, 7);
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
							  ID3D12Resource_GetGPUVirtualAddress(scratch), total, per_wave);
	spill_record(&c, p, &r);
	assert_int_equal(t_run(&c), S_OK);
	assert_int_equal(t_last_message(&c, NULL, 0), 0);
	assert_true(spill_right(&c, &r));
	/* S1.4: a null Destination restores the default; S1.6: too small slots */
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
							  ID3D12Resource_GetGPUVirtualAddress(scratch), total, 1024);
	spill_record(&c, p, &r);
	assert_int_equal(t_last_message(&c, NULL, 0), units > 1 ? XS12_MESSAGE_ID_SCRATCH_SLOT_TOO_SMALL : 0);
	ID3D12GraphicsCommandList6_Close(c.list);
	ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL);
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE, 0, 0, 0);
	spill_record(&c, p, &r);
	assert_int_equal(t_run(&c), S_OK);
	assert_true(spill_right(&c, &r));
	spill_free(&r);
	ID3D12Resource_Release(scratch);
	ID3D12PipelineState_Release(p);
	t_close(&c);
}

/* ---- S1.6 at the dispatch, and S1.14's lifetime ------------------------------------------- */

/* A ring of one slot cannot hold a group of two waves: the dispatch is
 * refused (it could never launch). A Reset list starts from the driver's
 * default ring again (S1.14), where the same dispatch runs. */
static void ring_below_a_group_and_reset(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(&c, spill_path, NULL, &hr);
	UINT per_wave = scratch_units_from_metadata() * 1024;
	ID3D12Resource *ring = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, per_wave);
	spill_run r;
	spill_setup(&c, &r, 1024, 9);
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
							  ID3D12Resource_GetGPUVirtualAddress(ring), per_wave, per_wave);
	spill_record(&c, p, &r); /* 64-thread groups: 2 wave32 waves */
	assert_true(t_has_message(&c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_SCRATCH_RING_BELOW_GROUP));
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
	ID3D12InfoQueue_ClearStoredMessages(c.iq);
	spill_record(&c, p, &r);
	assert_int_equal(t_run(&c), S_OK);
	assert_int_equal(t_last_message(&c, NULL, 0), 0);
	assert_true(spill_right(&c, &r));
	spill_free(&r);
	ID3D12Resource_Release(ring);
	ID3D12PipelineState_Release(p);
	t_close(&c);
}

/* ---- S1.13: at most 32 scratch waves per CU, 16 per SIMD ----------------------------------- */

/* A ring of more slots than tmpring can express: the warning, and the GPU
 * uses 32 per CU (1664 on Series X), never more than 16 waves per SIMD. */
static void at_most_32_scratch_waves_per_cu(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(&c, spill_path, NULL, &hr);
	UINT per_wave = scratch_units_from_metadata() * 1024;
	UINT64 bytes = (UINT64)per_wave * 2400;
	ID3D12Resource *ring = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, bytes);
	spill_run r;
	spill_setup(&c, &r, 4096 * 32, 1);
	ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
							  ID3D12Resource_GetGPUVirtualAddress(ring), bytes, per_wave);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_SCRATCH_SLOTS_OVER_CAP);
	spill_record(&c, p, &r);
	assert_int_equal(t_run(&c), S_OK);
	XS12_DISPATCH_STATISTICS st;
	assert_int_equal(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)c.list, 0, &st), S_OK);
	assert_int_equal(st.ScratchSlots, 52 * 32);
	assert_true(st.PeakScratchSlots <= 52 * 32 && st.PeakScratchSlots > 52 * 16);
	assert_true(st.PeakWavesPerSimd <= 16);
	assert_true(spill_right(&c, &r));
	spill_free(&r);
	ID3D12Resource_Release(ring);
	ID3D12PipelineState_Release(p);
	t_close(&c);
}

/* ---- S1.8, S1.9: the default scratch and async compute --------------------------- */

static void default_scratch_on_async_compute(void **state)
{
	(void)state;
	for (int debug = 1; debug >= 0; debug--) {
		t_ctx c;
		t_open(&c, debug, D3D12_COMMAND_LIST_TYPE_COMPUTE);
		HRESULT hr;
		ID3D12PipelineState *p = t_pipeline(&c, spill_path, NULL, &hr);
		spill_run r;
		spill_setup(&c, &r, 1024, 3);
		spill_record(&c, p, &r);
		if (debug) {
			/* S1.8: refused, naming S1.8 and pointing at S1.9 */
			char text[800];
			assert_int_equal(t_last_message(&c, text, sizeof(text)), XS12_MESSAGE_ID_SCRATCH_DEFAULT_ON_ASYNC);
			assert_non_null(strstr(text, "S1.8"));
			assert_non_null(strstr(text, "S1.9"));
			assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
			ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL);
			/* S1.9: a ring of the list's own runs */
			ID3D12Resource *ring = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 1 << 20);
			ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(
				c.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE, ID3D12Resource_GetGPUVirtualAddress(ring),
				1 << 20, 16384);
			spill_record(&c, p, &r);
			assert_int_equal(t_run(&c), S_OK);
			assert_true(spill_right(&c, &r));
			ID3D12Resource_Release(ring);
		} else {
			/* without the debug layer it runs, on the shared allocation */
			assert_int_equal(t_run(&c), S_OK);
			assert_true(spill_right(&c, &r));
		}
		spill_free(&r);
		ID3D12PipelineState_Release(p);
		t_close(&c);
	}
}

/* ---- S1.10: scratch memory reused by unordered work -------------------------------- */

/* Two queues, two lists pointing their rings at the same memory: without
 * a fence wait between them the debug layer refuses the second
 * submission; without the debug layer both run at once and corrupt each
 * other's scratch; with a fence wait between them both are right. */
static void reuse_without_ordering(void **state)
{
	(void)state;
	for (int mode = 0; mode < 3; mode++) { /* 0 debug, 1 no debug, 2 ordered by a fence */
		t_ctx d, q2;
		t_open(&d, mode == 0, D3D12_COMMAND_LIST_TYPE_DIRECT);
		memset(&q2, 0, sizeof(q2));
		q2.dev = d.dev;
		D3D12_COMMAND_QUEUE_DESC qd = { .Type = D3D12_COMMAND_LIST_TYPE_COMPUTE };
		assert_int_equal(ID3D12Device_CreateCommandQueue(d.dev, &qd, &IID_ID3D12CommandQueue, (void **)&q2.queue), S_OK);
		assert_int_equal(ID3D12Device_CreateCommandAllocator(d.dev, D3D12_COMMAND_LIST_TYPE_COMPUTE,
								     &IID_ID3D12CommandAllocator, (void **)&q2.alloc), S_OK);
		assert_int_equal(ID3D12Device_CreateCommandList(d.dev, 0, D3D12_COMMAND_LIST_TYPE_COMPUTE, q2.alloc, NULL,
								&IID_ID3D12GraphicsCommandList6, (void **)&q2.list), S_OK);
		HRESULT hr;
		ID3D12PipelineState *p = t_pipeline(&d, spill_path, NULL, &hr);
		ID3D12Resource *ring = t_buffer(&d, D3D12_HEAP_TYPE_DEFAULT, 1 << 20);
		D3D12_GPU_VIRTUAL_ADDRESS rva = ID3D12Resource_GetGPUVirtualAddress(ring);
		spill_run a, b;
		spill_setup(&d, &a, 8192, 11);
		spill_setup(&d, &b, 8192, 99);
		ID3D12GraphicsCommandList6 *lists[2] = { d.list, q2.list };
		spill_run *runs[2] = { &a, &b };
		for (int i = 0; i < 2; i++) {
			t_ctx tmp = d;
			tmp.list = lists[i];
			ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(lists[i], D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE,
									  rva, 1 << 20, 16384);
			spill_record(&tmp, p, runs[i]);
			assert_int_equal(ID3D12GraphicsCommandList6_Close(lists[i]), S_OK);
		}
		ID3D12CommandList *l0 = (ID3D12CommandList *)d.list, *l1 = (ID3D12CommandList *)q2.list;
		ID3D12Fence *f = d.fence, *f2;
		assert_int_equal(ID3D12Device_CreateFence(d.dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&f2), S_OK);
		ID3D12CommandQueue_ExecuteCommandLists(d.queue, 1, &l0);
		ID3D12CommandQueue_Signal(d.queue, f, ++d.fence_value);
		if (mode == 2)
			ID3D12CommandQueue_Wait(q2.queue, f, d.fence_value); /* S1.10: the title orders its memory */
		t_last_message(&d, NULL, 0);
		ID3D12CommandQueue_ExecuteCommandLists(q2.queue, 1, &l1);
		ID3D12CommandQueue_Signal(q2.queue, f2, 1);
		char text[900];
		D3D12_MESSAGE_ID id = t_last_message(&d, text, sizeof(text));
		if (mode == 0) {
			assert_int_equal(id, XS12_MESSAGE_ID_SCRATCH_REUSE);
			assert_non_null(strstr(text, "S1.10"));
			/* the refused submission did not run; the first did */
			assert_int_equal(ID3D12Fence_SetEventOnCompletion(f2, 1, NULL), S_OK);
			assert_int_equal(ID3D12Fence_SetEventOnCompletion(f, 1, NULL), S_OK);
			uint32_t first;
			assert_int_equal(ID3D12CommandAllocator_Reset(d.alloc), S_OK);
			assert_int_equal(ID3D12GraphicsCommandList6_Reset(d.list, d.alloc, NULL), S_OK);
			t_read(&d, b.out, &first, 4);
			assert_int_equal(first, 0);
		} else {
			assert_int_equal(id, 0);
			assert_int_equal(ID3D12Fence_SetEventOnCompletion(f2, 1, NULL), S_OK);
			assert_int_equal(ID3D12Fence_SetEventOnCompletion(f, 1, NULL), S_OK);
			assert_int_equal(ID3D12CommandAllocator_Reset(d.alloc), S_OK);
			assert_int_equal(ID3D12GraphicsCommandList6_Reset(d.list, d.alloc, NULL), S_OK);
			bool ok = spill_right(&d, &a) && spill_right(&d, &b);
			if (mode == 1)
				assert_false(ok); /* both waves used the same slots at once */
			else
				assert_true(ok);
		}
		spill_free(&a);
		spill_free(&b);
		ID3D12Resource_Release(ring);
		ID3D12PipelineState_Release(p);
		ID3D12Fence_Release(f2);
		ID3D12GraphicsCommandList6_Release(q2.list);
		ID3D12CommandAllocator_Release(q2.alloc);
		ID3D12CommandQueue_Release(q2.queue);
		t_close(&d);
	}
}

/* ---- S1.7: tmpring changes pipelined, memory reuse needs a full flush ---------- */

/* Two dispatches of one list, the second's ring laid over the first's memory
 * with another slot size: without a barrier the debug layer refuses it and,
 * without the debug layer, the two corrupt each other; with a barrier both
 * are right. Rings over separate memory change size without a flush, and the
 * dispatches overlap (the change is pipelined). */
static void reuse_needs_a_flush(void **state)
{
	(void)state;
	enum { NOFLUSH_DEBUG, NOFLUSH, FLUSH, SEPARATE };
	for (int mode = 0; mode < 4; mode++) {
		t_ctx c;
		t_open(&c, mode != NOFLUSH, D3D12_COMMAND_LIST_TYPE_DIRECT);
		HRESULT hr;
		ID3D12PipelineState *p = t_pipeline(&c, spill_path, NULL, &hr);
		ID3D12Resource *m1 = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 2u << 20);
		ID3D12Resource *m2 = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 2u << 20);
		spill_run a, b;
		spill_setup(&c, &a, 16384, 5);
		spill_setup(&c, &b, 16384, 77);
		D3D12_GPU_VIRTUAL_ADDRESS va1 = ID3D12Resource_GetGPUVirtualAddress(m1);
		D3D12_GPU_VIRTUAL_ADDRESS va2 = ID3D12Resource_GetGPUVirtualAddress(mode == SEPARATE ? m2 : m1);
		ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE, va1,
								  2u << 20, 16384);
		spill_record(&c, p, &a);
		if (mode == FLUSH) {
			D3D12_RESOURCE_BARRIER bar = { .Type = D3D12_RESOURCE_BARRIER_TYPE_UAV };
			ID3D12GraphicsCommandList6_ResourceBarrier(c.list, 1, &bar);
		}
		ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE, va2,
								  2u << 20, 12288);
		spill_record(&c, p, &b);
		char text[800];
		D3D12_MESSAGE_ID id = t_last_message(&c, text, sizeof(text));
		if (mode == NOFLUSH_DEBUG) {
			assert_int_equal(id, XS12_MESSAGE_ID_SCRATCH_REUSE_NO_FLUSH);
			assert_non_null(strstr(text, "S1.7"));
			assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), E_INVALIDARG);
		} else {
			assert_int_equal(id, 0);
			assert_int_equal(t_run(&c), S_OK);
			XS12_DISPATCH_STATISTICS s0, s1;
			ID3D12GraphicsCommandList *gl = (ID3D12GraphicsCommandList *)c.list;
			assert_int_equal(XS12GetDispatchStatistics(gl, 0, &s0), S_OK);
			assert_int_equal(XS12GetDispatchStatistics(gl, 1, &s1), S_OK);
			if (mode == SEPARATE) /* no flush: the second starts while the first runs */
				assert_true(s1.StartCycle < s0.EndCycle);
			else if (mode == FLUSH)
				assert_true(s1.StartCycle >= s0.EndCycle);
			bool ok = spill_right(&c, &a) && spill_right(&c, &b);
			if (mode == NOFLUSH) {
				assert_false(ok);
			} else {
				assert_true(ok);
			}
		}
		spill_free(&a);
		spill_free(&b);
		ID3D12Resource_Release(m1);
		ID3D12Resource_Release(m2);
		ID3D12PipelineState_Release(p);
		t_close(&c);
	}
}

/* S1.10 on one queue: a second list lays a ring of another slot size over
 * the first list's ring memory, executed in the same ExecuteCommandLists or
 * the next one, with no flush: the debug layer refuses it; a barrier at the
 * start of the second list orders it. */
static void reuse_on_one_queue(void **state)
{
	(void)state;
	for (int mode = 0; mode < 3; mode++) { /* 0 one call, 1 two calls, 2 two calls and a barrier first */
		t_ctx c;
		t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
		ID3D12CommandAllocator *a2;
		ID3D12GraphicsCommandList6 *l2;
		assert_int_equal(ID3D12Device_CreateCommandAllocator(c.dev, c.type, &IID_ID3D12CommandAllocator, (void **)&a2), S_OK);
		assert_int_equal(ID3D12Device_CreateCommandList(c.dev, 0, c.type, a2, NULL, &IID_ID3D12GraphicsCommandList6,
								(void **)&l2), S_OK);
		HRESULT hr;
		ID3D12PipelineState *p = t_pipeline(&c, spill_path, NULL, &hr);
		ID3D12Resource *m = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 2u << 20);
		D3D12_GPU_VIRTUAL_ADDRESS va = ID3D12Resource_GetGPUVirtualAddress(m);
		spill_run a, b;
		spill_setup(&c, &a, 16384, 5);
		spill_setup(&c, &b, 16384, 77);
		t_ctx c2 = c;
		c2.list = l2;
		ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(c.list, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE, va,
								  2u << 20, 16384);
		spill_record(&c, p, &a);
		if (mode == 2) {
			D3D12_RESOURCE_BARRIER bar = { .Type = D3D12_RESOURCE_BARRIER_TYPE_UAV };
			ID3D12GraphicsCommandList6_ResourceBarrier(l2, 1, &bar);
		}
		ID3D12GraphicsCommandList6_SetShaderScratchSpaceX(l2, D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_COMPUTE, va,
								  2u << 20, 12288);
		spill_record(&c2, p, &b);
		assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
		assert_int_equal(ID3D12GraphicsCommandList6_Close(l2), S_OK);
		ID3D12CommandList *ls[2] = { (ID3D12CommandList *)c.list, (ID3D12CommandList *)l2 };
		t_last_message(&c, NULL, 0);
		if (mode == 0) {
			ID3D12CommandQueue_ExecuteCommandLists(c.queue, 2, ls);
		} else {
			ID3D12CommandQueue_ExecuteCommandLists(c.queue, 1, &ls[0]);
			ID3D12CommandQueue_ExecuteCommandLists(c.queue, 1, &ls[1]);
		}
		D3D12_MESSAGE_ID id = t_last_message(&c, NULL, 0);
		assert_int_equal(id, mode == 2 ? 0 : XS12_MESSAGE_ID_SCRATCH_REUSE);
		ID3D12CommandQueue_Signal(c.queue, c.fence, ++c.fence_value);
		assert_int_equal(ID3D12Fence_SetEventOnCompletion(c.fence, c.fence_value, NULL), S_OK);
		assert_int_equal(ID3D12CommandAllocator_Reset(c.alloc), S_OK);
		assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
		if (mode == 2)
			assert_true(spill_right(&c, &a) && spill_right(&c, &b));
		spill_free(&a);
		spill_free(&b);
		ID3D12Resource_Release(m);
		ID3D12PipelineState_Release(p);
		ID3D12GraphicsCommandList6_Release(l2);
		ID3D12CommandAllocator_Release(a2);
		t_close(&c);
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_scratch PRIVATE_SPILL.hsaco\n");
		return 2;
	}
	spill_path = argv[1];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_rule_broken),
		cmocka_unit_test(information_x_and_documented_usage),
		cmocka_unit_test(ring_below_a_group_and_reset),
		cmocka_unit_test(at_most_32_scratch_waves_per_cu),
		cmocka_unit_test(default_scratch_on_async_compute),
		cmocka_unit_test(reuse_without_ordering),
		cmocka_unit_test(reuse_needs_a_flush),
		cmocka_unit_test(reuse_on_one_queue),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
