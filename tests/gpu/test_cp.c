/* The command processor on PM4 alone (no shader): fences, waits, IBs,
 * hangs and malformed streams. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bvh/xs_bvh.h"
#include "gpu/xs_gpu.h"
#include "hw/xs_hw_pm4.h"
#include "pm4/xs_pm4_build.h"
#include "pm4/xs_pm4_parse.h"

#include <stdio.h>

typedef struct fx {
	xs_vm *vm;
	xs_gpu *gpu;
	uint64_t mem;   /* 64 KiB scratch area for fences */
	xs_pm4_builder b;
} fx;

static int setup(void **state)
{
	static fx f;
	f.vm = xs_vm_create();
	f.gpu = xs_gpu_create(xs_devinfo_get(XS_MACHINE_SERIES_X), f.vm);
	xs_pm4_builder_init(&f.b, 0);
	if (!f.gpu || xs_vm_alloc(f.vm, 65536, 0, &f.mem, NULL))
		return -1;
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	fx *f = *state;
	xs_pm4_builder_free(&f->b);
	xs_gpu_destroy(f->gpu);
	xs_vm_destroy(f->vm);
	return 0;
}

/* Uploads the builder's stream and submits it to a queue. */
static uint64_t submit(fx *f, unsigned q)
{
	uint64_t va;
	assert_false(xs_pm4_builder_failed(&f->b));
	assert_int_equal(xs_vm_alloc(f->vm, f->b.cdw * 4, 256, &va, NULL), XS_OK);
	assert_true(xs_vm_write(f->vm, va, f->b.dw, f->b.cdw * 4, NULL));
	assert_int_equal(xs_gpu_submit(f->gpu, q, va, (uint32_t)f->b.cdw, NULL, 0, NULL), XS_OK);
	xs_pm4_builder_reset(&f->b);
	return va;
}

static uint32_t rd32(fx *f, uint64_t va)
{
	uint32_t v = 0;
	assert_true(xs_vm_read(f->vm, va, &v, 4, NULL));
	return v;
}

static void registers_and_fences(void **state)
{
	fx *f = *state;
	xs_pm4_set_sh_reg1(&f->b, R_00B860_COMPUTE_TMPRING_SIZE, S_00B860_WAVES(208) | S_00B860_WAVESIZE(3));
	uint32_t words[2] = { 0x11111111, 0x22222222 };
	xs_pm4_write_data(&f->b, f->mem + 16, words, 2);
	xs_pm4_fence(&f->b, f->mem, 7, false);
	submit(f, 1);
	xs_err e = { 0 };
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_OK);
	assert_int_equal(xs_gpu_get_sh_reg(f->gpu, 1, R_00B860_COMPUTE_TMPRING_SIZE), 0x30d0);
	assert_int_equal(xs_gpu_get_sh_reg(f->gpu, 0, R_00B860_COMPUTE_TMPRING_SIZE), 0); /* per queue */
	assert_int_equal(rd32(f, f->mem), 7);
	assert_int_equal(rd32(f, f->mem + 20), 0x22222222);
	/* WRITE_DATA with WR_ONE_ADDR writes every dword to the one address:
	 * the last stays, the next dwords are untouched */
	uint64_t one = f->mem + 32;
	const uint32_t wd[6] = { S_370_DST_SEL(V_370_MEM) | S_370_WR_ONE_ADDR(1), (uint32_t)one,
				 (uint32_t)(one >> 32), 0xa, 0xb, 0xc };
	xs_pm4_emit_pkt3(&f->b, PKT3_WRITE_DATA, wd, 6, 0);
	submit(f, 1);
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_OK);
	assert_int_equal(rd32(f, one), 0xc);
	assert_int_equal(rd32(f, one + 4), 0);
	assert_int_equal(rd32(f, one + 8), 0);
}

static void cross_queue_wait(void **state)
{
	fx *f = *state;
	/* Queue 2 waits for a value queue 0 writes after it; the order of
	 * submission does not matter. */
	xs_pm4_wait_reg_mem(&f->b, WAIT_REG_MEM_EQUAL, f->mem + 64, 5, 0xffffffff);
	xs_pm4_fence(&f->b, f->mem + 68, 9, false);
	submit(f, 2);
	xs_pm4_fence(&f->b, f->mem + 64, 5, false);
	submit(f, 0);
	xs_err e = { 0 };
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_OK);
	assert_int_equal(rd32(f, f->mem + 68), 9);
}

static void wait_forever_is_a_hang(void **state)
{
	fx *f = *state;
	xs_pm4_wait_reg_mem(&f->b, WAIT_REG_MEM_GREATER_OR_EQUAL, f->mem + 128, 1, 0xffffffff);
	submit(f, 3);
	xs_err e = { 0 };
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "hang: queue 3 waits at dword 0"));
	/* The GPU is usable again afterwards. */
	xs_pm4_fence(&f->b, f->mem + 132, 1, false);
	submit(f, 3);
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_OK);
	assert_int_equal(rd32(f, f->mem + 132), 1);
}

static void indirect_buffers(void **state)
{
	fx *f = *state;
	xs_pm4_fence(&f->b, f->mem + 256, 3, false);
	uint64_t inner = submit(f, 0); /* runs once as a submission ... */
	xs_err e = { 0 };
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_OK);
	uint32_t zero = 0;
	xs_vm_write(f->vm, f->mem + 256, &zero, 4, NULL);
	xs_pm4_indirect_buffer(&f->b, inner, 8, false); /* ... and once called */
	xs_pm4_fence(&f->b, f->mem + 260, 4, false);
	submit(f, 0);
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_OK);
	assert_int_equal(rd32(f, f->mem + 256), 3);
	assert_int_equal(rd32(f, f->mem + 260), 4);
}

/* An IB that chains to itself never ends on the GPU either: the CP counts
 * the submission's command buffers and removes the device as hung. */
static void chain_loop_is_a_hang(void **state)
{
	fx *f = *state;
	uint64_t va;
	assert_int_equal(xs_vm_alloc(f->vm, 4096, 256, &va, NULL), XS_OK);
	xs_pm4_indirect_buffer(&f->b, va, 4, true); /* 4 dwords: itself */
	assert_int_equal(f->b.cdw, 4);
	assert_true(xs_vm_write(f->vm, va, f->b.dw, 16, NULL));
	xs_pm4_builder_reset(&f->b);
	assert_int_equal(xs_gpu_submit(f->gpu, 2, va, 4, NULL, 0, NULL), XS_OK);
	xs_err e = { 0 };
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "hang: queue 2"));
	assert_non_null(strstr(e.msg, "command buffers in one submission"));
	xs_pm4_fence(&f->b, f->mem + 136, 2, false);
	submit(f, 2);
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_OK);
	assert_int_equal(rd32(f, f->mem + 136), 2);
}

/* ... and counts their dwords: a chain back to itself of a 16 Ki-dword IB
 * (type-2 filler, the chain at its end) stayed under the count of IBs for
 * 2^34 dwords fetched and decoded (fuzz_cp: over 2 minutes; 16 bytes of
 * input did the same with zeros). */
static void chain_loop_of_a_large_ib_is_a_hang(void **state)
{
	fx *f = *state;
	enum { N = 16384 };
	uint64_t va;
	assert_int_equal(xs_vm_alloc(f->vm, 4 * N, 256, &va, NULL), XS_OK);
	static uint32_t dw[N];
	for (int i = 0; i < N - 4; i++)
		dw[i] = 0x80000000u; /* type-2 filler */
	xs_pm4_indirect_buffer(&f->b, va, N, true);
	assert_int_equal(f->b.cdw, 4);
	memcpy(dw + N - 4, f->b.dw, 16);
	xs_pm4_builder_reset(&f->b);
	assert_true(xs_vm_write(f->vm, va, dw, sizeof(dw), NULL));
	assert_int_equal(xs_gpu_submit(f->gpu, 1, va, N, NULL, 0, NULL), XS_OK);
	xs_err e = { 0 };
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "hang: queue 1"));
	assert_non_null(strstr(e.msg, "over 16777216 dwords"));
	xs_pm4_fence(&f->b, f->mem + 140, 3, false);
	submit(f, 1);
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_OK);
	assert_int_equal(rd32(f, f->mem + 140), 3);
}

/* The builder's packets, then an INDIRECT_BUFFER that chains back to them:
 * submitted to queue 1 and run; the status, with the report in *e. */
static xs_status run_chain_loop(fx *f, xs_err *e)
{
	uint64_t va;
	const uint32_t n = (uint32_t)f->b.cdw + 4;
	assert_int_equal(xs_vm_alloc(f->vm, 4ull * n, 256, &va, NULL), XS_OK);
	xs_pm4_indirect_buffer(&f->b, va, n, true);
	assert_int_equal(f->b.cdw, n);
	assert_true(xs_vm_write(f->vm, va, f->b.dw, 4ull * n, NULL));
	xs_pm4_builder_reset(&f->b);
	assert_int_equal(xs_gpu_submit(f->gpu, 1, va, n, NULL, 0, NULL), XS_OK);
	return xs_gpu_execute(f->gpu, NULL, e);
}

/* A build descriptor for one triangle (its vertices at `in`) into a
 * structure at dst, written at desc: its size in bytes. */
static size_t one_triangle_build(fx *f, uint64_t in, uint64_t desc, uint64_t dst)
{
	float tri[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
	assert_true(xs_vm_write(f->vm, in, tri, sizeof(tri), NULL));
	uint8_t d[XS_AS_BUILD_BYTES + XS_AS_GEOM_BYTES] = { 0 };
	uint32_t count = 1, vcount = 3;
	uint64_t cap = 4096, stride = 12;
	memcpy(d + 8, &count, 4);
	memcpy(d + 16, &dst, 8);
	memcpy(d + 24, &cap, 8);
	memcpy(d + XS_AS_BUILD_BYTES + 12, &vcount, 4);
	memcpy(d + XS_AS_BUILD_BYTES + 24, &in, 8);
	memcpy(d + XS_AS_BUILD_BYTES + 32, &stride, 8);
	assert_true(xs_vm_write(f->vm, desc, d, sizeof(d), NULL));
	return sizeof(d);
}

/* ... and bounds the firmware work they ask for: a DMA_DATA of 1 MiB
 * chained to itself stayed under both counts for 2^20 copies, 1 TiB
 * (a minute; at 64 MiB a copy, hours), and XS_FILL and XS_BUILD_AS the
 * same way. The CP charges each packet's modelled time to the submission
 * and removes the device as hung past the budget (2^27 cycles, 8 GiB at
 * the CP DMA's 64 bytes a cycle): under a second here. */
static void firmware_loop_is_a_hang(void **state)
{
	fx *f = *state;
	enum { MIB = 1 << 20 };
	uint64_t src, dst;
	assert_int_equal(xs_vm_alloc(f->vm, MIB, 256, &src, NULL), XS_OK);
	assert_int_equal(xs_vm_alloc(f->vm, MIB, 256, &dst, NULL), XS_OK);
	xs_err e = { 0 };
	xs_pm4_dma_data(&f->b, dst, src, MIB);
	assert_int_equal(run_chain_loop(f, &e), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "hang: queue 1"));
	assert_non_null(strstr(e.msg, "DMA_DATA of 16384 cycles"));
	assert_non_null(strstr(e.msg, "over its budget of 134217728 cycles"));

	const uint32_t pattern = 0x5a5a5a5a;
	xs_pm4_xs_fill(&f->b, dst, MIB, MIB, 1, &pattern, 1);
	assert_int_equal(run_chain_loop(f, &e), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "hang: queue 1"));
	assert_non_null(strstr(e.msg, "XS_FILL of 16484 cycles"));
	assert_non_null(strstr(e.msg, "over its budget of 134217728 cycles"));
	assert_int_equal(rd32(f, dst + MIB - 4), pattern);

	/* a one-triangle build: charged its modelled time when it is done */
	uint64_t desc = f->mem + 8192;
	xs_pm4_xs_build_as(&f->b, XS_AS_OP_BUILD, desc, one_triangle_build(f, f->mem + 4096, desc, f->mem + 16384));
	assert_int_equal(run_chain_loop(f, &e), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "hang: queue 1"));
	assert_non_null(strstr(e.msg, "XS_BUILD_AS of "));
	assert_non_null(strstr(e.msg, "over its budget of 134217728 cycles"));

	/* the budget is the submission's: the next one starts afresh */
	xs_pm4_dma_data(&f->b, dst, src, MIB);
	xs_pm4_fence(&f->b, f->mem + 144, 4, false);
	submit(f, 1);
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_OK);
	assert_int_equal(rd32(f, f->mem + 144), 4);
	assert_int_equal(rd32(f, dst), 0);
}

/* A replay gives every dispatch its recorded result (whose limits bound
 * it); a dispatch past them has left the recording, where a live run gives
 * it the CP's scratch slot (and no bound: 2^32 groups ran for hours). */
static void replay_dispatch_past_its_results(void **state)
{
	fx *f = *state;
	xs_gpu_set_results_recorded(f->gpu, true);
	xs_pm4_dispatch_direct(&f->b, 65535, 65535, 1, S_00B800_COMPUTE_SHADER_EN(1));
	submit(f, 1);
	xs_err e = { 0 };
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "the replay left its recording"));
	assert_non_null(strstr(e.msg, "DISPATCH_DIRECT is the submission's work item 1, but 0 were recorded"));
	xs_gpu_set_results_recorded(f->gpu, false);
}

/* XS_LAUNCH's rules on what the packet and memory say: static plus
 * dynamic LDS is summed without wrapping (0xfffffff0 + 0x20 passed S3.3 as
 * 16 bytes), and a group count over 65535 names the address it was read
 * from (the recorded counts at the output when none are given). */
static void xs_launch_rules(void **state)
{
	fx *f = *state;
	const uint32_t dims[3] = { 70000, 1, 1 }, ok[3] = { 1, 1, 1 };
	uint64_t out = f->mem + 1024, aql = f->mem + 2048, karg = f->mem + 4096;
	assert_true(xs_vm_write(f->vm, out, ok, sizeof(ok), NULL));
	xs_pm4_launch_desc d = { .dims_out_va = out, .aql_va = aql, .kernarg_va = karg, .wave_size = 32,
				 .block = { 64, 1, 1 }, .static_lds = 0xfffffff0u, .dynamic_lds = 0x20 };
	xs_pm4_xs_launch(&f->b, &d);
	submit(f, 1);
	xs_err e = { 0 };
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "S3.3: 4294967312 bytes of LDS per group"));

	assert_true(xs_vm_write(f->vm, out, dims, sizeof(dims), NULL));
	d.static_lds = d.dynamic_lds = 0;
	xs_pm4_xs_launch(&f->b, &d);
	submit(f, 1);
	e = (xs_err){ 0 };
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_E_DEVICE_REMOVED);
	char at[64];
	snprintf(at, sizeof(at), "dispatch at 0x%llx has ThreadGroupCountX = 70000", (unsigned long long)out);
	assert_non_null(strstr(e.msg, at));
}

static void malformed_and_unsupported(void **state)
{
	fx *f = *state;
	xs_err e = { 0 };
	/* A SET_SH_REG whose count runs past the end of the buffer. */
	uint32_t bad[3] = { PKT3(PKT3_SET_SH_REG, 5, 0), 0x218, 1 };
	xs_pm4_emit_raw(&f->b, bad, 3);
	submit(f, 0);
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "dword 0"));
	/* A draw on a compute queue: valid PM4, but only the graphics ring draws. */
	uint32_t draw[3] = { PKT3(PKT3_DRAW_INDEX_AUTO, 1, 0), 3, 2 };
	xs_pm4_emit_raw(&f->b, draw, 3);
	submit(f, 1);
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "DRAW_INDEX_AUTO"));
	assert_non_null(strstr(e.msg, "queue 0"));
	/* An IB in no allocation. */
	xs_pm4_indirect_buffer(&f->b, 0x7000000000ull, 16, false);
	submit(f, 0);
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "not in GPU memory"));
	/* A dispatch whose registers can never launch names the field. */
	xs_pm4_dispatch_direct(&f->b, 1, 1, 1, S_00B800_COMPUTE_SHADER_EN(1));
	submit(f, 1);
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "NUM_THREAD_FULL"));
}

static void timestamp(fx *f, uint64_t va)
{
	xs_pm4_release_mem(&f->b, &(xs_pm4_release_mem_desc){ .event_type = V_028A90_BOTTOM_OF_PIPE_TS,
		.dst_sel = EOP_DST_SEL_MEM, .data_sel = EOP_DATA_SEL_TIMESTAMP, .va = va });
}

/* XS_BUILD_AS from PM4 alone: the CP reads a descriptor and a triangle from
 * memory, writes a structure whose header counts it, is busy for the cost
 * model's cycles (a timestamp after it is later), and a malformed
 * descriptor or an unmapped vertex buffer removes the device. */
static void build_as(void **state)
{
	fx *f = *state;
	uint64_t in = f->mem + 4096, desc = f->mem + 8192, dst = f->mem + 16384;
	const size_t dsz = one_triangle_build(f, in, desc, dst);
	timestamp(f, f->mem + 64);
	xs_pm4_xs_build_as(&f->b, XS_AS_OP_BUILD, desc, dsz);
	timestamp(f, f->mem + 72);
	submit(f, 2);
	/* the decoder and the printer know the packet */
	xs_pm4_iter it;
	xs_pm4_packet p;
	xs_err e = { 0 };
	xs_pm4_xs_build_as(&f->b, XS_AS_OP_COPY, desc, 24);
	xs_pm4_iter_init(&it, f->b.dw, f->b.cdw);
	assert_int_equal(xs_pm4_next(&it, &p, &e), 1);
	assert_string_equal(p.info->name, "XS_BUILD_AS");
	xs_pm4_builder_reset(&f->b);
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_OK);
	assert_int_equal(rd32(f, dst + 64), 0x53415358); /* "XSAS" */
	assert_int_equal(rd32(f, dst + 48), 1);          /* one leaf */
	uint64_t t0 = 0, t1 = 0;
	assert_true(xs_vm_read(f->vm, f->mem + 64, &t0, 8, NULL));
	assert_true(xs_vm_read(f->vm, f->mem + 72, &t1, 8, NULL));
	assert_true(t1 - t0 >= 4000 + 32); /* [model] 4000 + 32 per primitive + bytes / 64 */
	/* a vertex buffer in no allocation: the CP's page fault */
	uint64_t nowhere = 0x7000000000ull;
	assert_true(xs_vm_write(f->vm, desc + XS_AS_BUILD_BYTES + 24, &nowhere, 8, NULL)); /* its vertex buffer */
	xs_pm4_xs_build_as(&f->b, XS_AS_OP_BUILD, desc, dsz);
	submit(f, 2);
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "vertex buffer"));
	xs_fault cpf = xs_gpu_cp_fault(f->gpu);
	assert_int_equal(cpf.kind, XS_FAULT_VM);
	assert_true(cpf.addr == nowhere);
	/* a descriptor whose size does not match its counts */
	xs_pm4_xs_build_as(&f->b, XS_AS_OP_BUILD, desc, dsz - 8);
	submit(f, 2);
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "build descriptor"));
	assert_int_equal(xs_gpu_cp_fault(f->gpu).kind, XS_FAULT_ILLEGAL);
	/* a COPY descriptor of 1 byte: refused by its size before any field is
	 * read (its mode was read past the end: a fuzz finding,
	 * tests/fuzz/regress/accel/copy-descriptor-of-1-byte) */
	xs_pm4_xs_build_as(&f->b, XS_AS_OP_COPY, desc, 1);
	submit(f, 2);
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "a copy descriptor of 1 bytes (24)"));
}

/* A 56-byte top-level descriptor may declare up to 2^24 instances; the CP
 * checks that the GPU memory holding them exists before it allocates host
 * memory for them (1.6 GB here): the build removes the device with a page
 * fault at the first byte past the 64 KiB allocation, the instance array's
 * first missing byte. (Found while writing the accel fuzz target; its
 * input is tests/fuzz/regress/accel/tlas-16M-instances-in-8K.) */
static void build_as_counts_need_memory(void **state)
{
	fx *f = *state;
	uint64_t desc = f->mem + 8192, inst = f->mem + 16384, dst = f->mem + 32768;
	uint8_t d[XS_AS_BUILD_BYTES] = { 0 };
	uint32_t type = XS_BVH_TYPE_TOP, count = 1u << 24;
	uint64_t cap = 4096;
	memcpy(d + 0, &type, 4);
	memcpy(d + 8, &count, 4);
	memcpy(d + 16, &dst, 8);
	memcpy(d + 24, &cap, 8);
	memcpy(d + 32, &inst, 8);
	assert_true(xs_vm_write(f->vm, desc, d, sizeof(d), NULL));
	xs_pm4_xs_build_as(&f->b, XS_AS_OP_BUILD, desc, sizeof(d));
	submit(f, 2);
	xs_err e = { 0 };
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "instance desc read"));
	xs_fault cpf = xs_gpu_cp_fault(f->gpu);
	assert_int_equal(cpf.kind, XS_FAULT_VM);
	assert_true(cpf.addr == f->mem + 65536);
	/* a bottom-level desc of index format 65536 claiming 11 M triangles is
	 * refused for its format before its counts size anything (the CP
	 * allocated 490 MB first: a fuzz finding,
	 * tests/fuzz/regress/accel/blas-index-format-65536-11M-triangles) */
	uint8_t b[XS_AS_BUILD_BYTES + XS_AS_GEOM_BYTES] = { 0 };
	uint32_t one = 1, ifmt = 65536, icount = 33601024;
	memcpy(b + 8, &one, 4);
	memcpy(b + 16, &dst, 8);
	memcpy(b + 24, &cap, 8);
	memcpy(b + XS_AS_BUILD_BYTES + 4, &ifmt, 4);
	memcpy(b + XS_AS_BUILD_BYTES + 8, &icount, 4);
	assert_true(xs_vm_write(f->vm, desc, b, sizeof(b), NULL));
	xs_pm4_xs_build_as(&f->b, XS_AS_OP_BUILD, desc, sizeof(b));
	submit(f, 2);
	assert_int_equal(xs_gpu_execute(f->gpu, NULL, &e), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "geometry 0: index format 65536"));
	assert_int_equal(xs_gpu_cp_fault(f->gpu).kind, XS_FAULT_ILLEGAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(registers_and_fences, setup, teardown),
		cmocka_unit_test_setup_teardown(cross_queue_wait, setup, teardown),
		cmocka_unit_test_setup_teardown(wait_forever_is_a_hang, setup, teardown),
		cmocka_unit_test_setup_teardown(indirect_buffers, setup, teardown),
		cmocka_unit_test_setup_teardown(chain_loop_is_a_hang, setup, teardown),
		cmocka_unit_test_setup_teardown(chain_loop_of_a_large_ib_is_a_hang, setup, teardown),
		cmocka_unit_test_setup_teardown(firmware_loop_is_a_hang, setup, teardown),
		cmocka_unit_test_setup_teardown(replay_dispatch_past_its_results, setup, teardown),
		cmocka_unit_test_setup_teardown(xs_launch_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(malformed_and_unsupported, setup, teardown),
		cmocka_unit_test_setup_teardown(build_as, setup, teardown),
		cmocka_unit_test_setup_teardown(build_as_counts_need_memory, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
