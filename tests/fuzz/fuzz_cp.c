/*
 * The command processor's execution (src/gpu/xs_gpu_cp.c and what it
 * drives: the SPI, waves on the interpreter, draws, fences, waits, CP DMA,
 * XS_LAUNCH / XS_BUILD_AS / XS_FILL, IB calls and chains): the input is a
 * small GPU world, a header and a memory image (fuzz_layouts.h, FUZZ_CP_*):
 * one or two command buffers in the image are submitted to the queues the
 * header names, and every address a packet gives may point into the image
 * (FUZZ_CP_VA + offset): kernels' code, dispatch and draw arguments, values
 * waited for, DMA sources, IBs called.
 *
 * Each input gets a fresh address space and GPU (a run leaves registers,
 * caches and decoded code behind; a fresh world keeps an input's outcome its
 * own), bounded so that it ends in well under a second under ASan:
 *  - GPU memory is the image's 64 KiB allocation (and the harness's page for
 *    its fence; the address space's limit, 64 MiB, is the device memory):
 *    every copy, fill, build or fetch past it is a page fault, so each
 *    packet's memory work is at most 64 KiB, and a submission's packets are
 *    bounded by the CP's count of the dwords it fetches (2^24);
 *  - every wave stops at WATCHDOG instructions, and each submission has
 *    NRESULTS result slots with limits on waves and cycles, recorded as a
 *    replay's are (xs_gpu_set_results_recorded): a dispatch or draw past
 *    them, or over their limits, removes the device;
 *  - no thread group completing for HANG_CYCLES simulated cycles is a hang;
 *  - a queue blocked at a WAIT_REG_MEM is released by the host writing the
 *    reference (header bit FUZZ_CP_HOST_WAITS) at most FUZZ_CP_HOST_ROUNDS
 *    times; without that bit such a wait is a hang (xs_gpu_execute's rule).
 * Any status is an outcome; crashes, sanitizer reports, leaks (the GPU is
 * destroyed with work pending too) and hangs are findings.
 * Oracles: a failure has a message; an XS_OK run without the host waiting
 * leaves no queue waiting; no wave ran more instructions than the watchdog
 * allows; afterwards (the work done, or dropped by a removal) the GPU runs
 * a fence on the same queue, as after a device reset.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_layouts.h"
#include "gpu/xs_gpu.h"
#include "mem/xs_vm.h"
#include "pm4/xs_pm4_build.h"

#define WATCHDOG 4096         /* wave instructions, per wave */
#define HANG_CYCLES 1000000   /* simulated cycles without a group completing */
#define NRESULTS 8            /* dispatches and draws per submission */
#define LIMIT_WAVES 64        /* per dispatch or draw */
#define LIMIT_CYCLES 200000   /* per dispatch or draw */
#define VM_LIMIT (64ull << 20)
/* The harness's own fence after the run (not in the image's allocation). */
#define CHECK_VA FUZZ_CP_CHECK_VA

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static bool any_waiting(const xs_gpu *g)
{
	uint64_t va, ref;
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
		if (xs_gpu_queue_waiting(g, q, &va, &ref))
			return true;
	return false;
}

static void check_results(const xs_gpu_dispatch_result *r, const char *which)
{
	for (unsigned i = 0; i < NRESULTS; i++)
		FUZZ_CHECK(r[i].wave_insts <= r[i].waves_launched * (uint64_t)WATCHDOG,
			   "%s result %u: %llu wave instructions from %llu waves, watchdog %u", which, i,
			   (unsigned long long)r[i].wave_insts, (unsigned long long)r[i].waves_launched, WATCHDOG);
}

/* After the input's work: a fence on queue q runs and lands. */
static void fence_after(xs_vm *vm, xs_gpu *g, unsigned q)
{
	xs_pm4_builder b;
	xs_pm4_builder_init(&b, 64);
	xs_pm4_fence(&b, CHECK_VA + 256, 0x600df00d, false);
	FUZZ_CHECK(!xs_pm4_builder_failed(&b), "fence stream");
	FUZZ_CHECK(xs_vm_write(vm, CHECK_VA, b.dw, b.cdw * 4, NULL), "fence stream upload");
	xs_err e = { 0 };
	xs_status st = xs_gpu_submit(g, q, CHECK_VA, (uint32_t)b.cdw, NULL, 0, &e);
	if (st == XS_OK)
		st = xs_gpu_execute(g, NULL, &e);
	uint32_t v = 0;
	FUZZ_CHECK(st == XS_OK && xs_vm_read(vm, CHECK_VA + 256, &v, 4, NULL) && v == 0x600df00d,
		   "queue %u after the input: status %d (%s), fence 0x%x", q, (int)st, e.msg, v);
	xs_pm4_builder_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < FUZZ_CP_HDR || size > FUZZ_CP_HDR + FUZZ_CP_MEM)
		return 0;
	const uint8_t flags = data[0], machine = data[1];
	const uint8_t *img = data + FUZZ_CP_HDR;
	const size_t n = size - FUZZ_CP_HDR, ndw = n / 4;
	xs_vm *vm = xs_vm_create();
	if (!vm)
		return 0;
	xs_vm_set_limit(vm, VM_LIMIT);
	xs_gpu *g = NULL;
	xs_gpu_dispatch_result *res = NULL;
	xs_err e = { 0 };
	if (xs_vm_alloc_at(vm, FUZZ_CP_VA, FUZZ_CP_MEM, &e) || xs_vm_alloc_at(vm, CHECK_VA, 4096, &e))
		goto out;
	if (n && !xs_vm_write(vm, FUZZ_CP_VA, img, n, NULL))
		goto out;
	g = xs_gpu_create(xs_devinfo_get(machine & FUZZ_CP_SERIES_S ? XS_MACHINE_SERIES_S : XS_MACHINE_SERIES_X), vm);
	res = calloc(2 * NRESULTS, sizeof(*res));
	if (!g || !res)
		goto out;
	xs_gpu_set_timing(g, flags & FUZZ_CP_TIMING);
	xs_gpu_set_watchdog(g, WATCHDOG);
	xs_gpu_set_hang_limits(g, HANG_CYCLES, 0);
	xs_gpu_set_results_recorded(g, true);
	for (unsigned i = 0; i < 2 * NRESULTS; i++)
		res[i] = (xs_gpu_dispatch_result){ .limit_waves = LIMIT_WAVES, .limit_cycles = LIMIT_CYCLES };

	/* the submissions: A from dword 0, B (optional) anywhere in the image */
	struct submission {
		unsigned q;
		uint32_t first, ndw;
		xs_gpu_dispatch_result *r;
	} sub[2];
	unsigned nsub = 0;
	uint32_t a_ndw = rd16(data + 2);
	sub[nsub++] = (struct submission){ FUZZ_CP_A_QUEUE(flags), 0, a_ndw && a_ndw < ndw ? a_ndw : (uint32_t)ndw, res };
	if (flags & FUZZ_CP_B) {
		uint32_t first = rd16(data + 4), bn = rd16(data + 6);
		if (first < ndw) {
			if (!bn || bn > ndw - first)
				bn = (uint32_t)(ndw - first);
			sub[nsub++] = (struct submission){ FUZZ_CP_B_QUEUE(flags), first, bn, res + NRESULTS };
			if (flags & FUZZ_CP_B_FIRST) {
				struct submission t = sub[0];
				sub[0] = sub[1];
				sub[1] = t;
			}
		}
	}
	bool submitted = false;
	for (unsigned i = 0; i < nsub; i++) {
		if (!sub[i].ndw)
			continue; /* (the CP refuses an empty command buffer when it reaches it: a removal) */
		xs_status st = xs_gpu_submit(g, sub[i].q, FUZZ_CP_VA + 4ull * sub[i].first, sub[i].ndw, sub[i].r,
					     NRESULTS, &e);
		FUZZ_CHECK(st == XS_OK, "submission %u: %s", i, e.msg);
		submitted = true;
	}
	if (!submitted)
		goto out;

	const bool host_waits = flags & FUZZ_CP_HOST_WAITS;
	xs_status st = XS_OK;
	bool blocked = false;
	for (unsigned round = 0; round <= FUZZ_CP_HOST_ROUNDS; round++) {
		memset(&e, 0, sizeof(e));
		st = xs_gpu_execute(g, host_waits ? &blocked : NULL, &e);
		FUZZ_SAY("round %u: %s%s", round, st ? e.msg : "done", blocked ? " (blocked)" : "");
		if (st || !blocked)
			break;
		/* the host writes what the waits want (it may not satisfy every function) */
		for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++) {
			uint64_t va, ref;
			if (xs_gpu_queue_waiting(g, q, &va, &ref))
				xs_vm_write(vm, va, &ref, 8, NULL);
		}
	}
	FUZZ_CHECK(st != XS_E_INTERRUPTED, "interrupted without an interrupt: %s", e.msg);
	if (st) {
		FUZZ_CHECK(e.msg[0] && memchr(e.msg, 0, sizeof(e.msg)), "status %d without a message", (int)st);
		xs_fault f = xs_gpu_cp_fault(g);
		const char *pos = xs_gpu_cp_positions(g);
		FUZZ_SAY("CP fault %d at 0x%llx (%s); positions: %s", (int)f.kind, (unsigned long long)f.addr, f.what, pos);
		FUZZ_CHECK(memchr(f.what, 0, sizeof(f.what)), "CP fault text not terminated");
	} else if (!host_waits) {
		FUZZ_CHECK(!any_waiting(g), "XS_OK with a queue waiting");
	}
	check_results(res, "A");
	check_results(res + NRESULTS, "B");
	/* the GPU goes on after the input, unless a queue still waits (the
	 * host gave up on it: a fence behind it would wait too) */
	if (!any_waiting(g))
		fence_after(vm, g, FUZZ_CP_A_QUEUE(flags));
out:
	xs_gpu_destroy(g);
	free(res);
	xs_vm_destroy(vm);
	return 0;
}
