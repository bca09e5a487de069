/*
 * Acceleration-structure reads of the CP (src/gpu/xs_gpu_accel.c): the
 * input is GPU memory as an XS_BUILD_AS packet finds it. Layout:
 *   u32 control (the packet's first body dword: the op, BUILD / COPY /
 *   POSTBUILD), u32 offset of the descriptor in the memory image, u32 its
 *   size in bytes, then the memory image itself, mapped at MEM_VA (the
 *   descriptor's pointers to vertices, indices, instances, BLASes and
 *   destinations are addresses in it; the seeds' use MEM_VA).
 * The packet goes through the PM4 decoder first (its rules on the control
 * word, alignment and size, as the CP sees it), then to the CP's handler
 * with a GPU on that memory. GPU memory is the image rounded up to a page
 * (at most 1 MiB): every read the builder makes past it is a page fault,
 * which bounds the work an input can ask for.
 * Oracles: a failure is a device removal or a host-memory error with a
 * message; what the CP reports is bounded.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_layouts.h"
#include "gpu/xs_gpu_priv.h"
#include "hw/xs_hw_pm4.h"
#include "mem/xs_vm.h"
#include "pm4/xs_pm4_parse.h"

#define MEM_VA FUZZ_ACCEL_VA

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < FUZZ_ACCEL_HDR || size > FUZZ_MAX_INPUT)
		return 0;
	const uint8_t *img = data + FUZZ_ACCEL_HDR;
	size_t n = size - FUZZ_ACCEL_HDR;
	/* One GPU and address space for the whole run (creating a GPU costs
	 * more than most builds); each input maps its memory and unmaps it. */
	static xs_vm *vm;
	static xs_gpu *g;
	if (!vm && (vm = xs_vm_create()))
		g = xs_gpu_create(xs_devinfo_get(XS_MACHINE_SERIES_X), vm);
	if (!g)
		return 0;
	xs_err e = { 0 };
	uint64_t mem = XS_ALIGN_UP((uint64_t)XS_MAX(n, (size_t)1), (uint64_t)XS_VM_PAGE_SIZE);
	if (xs_vm_alloc_at(vm, MEM_VA, mem, &e))
		return 0;
	if (n && !xs_vm_write(vm, MEM_VA, img, n, NULL))
		goto out;
	uint64_t desc = MEM_VA + rd32(data + 4);
	uint32_t pkt[1 + PKT3_XS_BUILD_AS_BODY_DW] = {
		PKT3(PKT3_XS_BUILD_AS, PKT3_XS_BUILD_AS_BODY_DW - 1, 0), rd32(data), (uint32_t)desc,
		(uint32_t)(desc >> 32), rd32(data + 8),
	};
	xs_pm4_iter it;
	xs_pm4_packet p;
	xs_pm4_iter_init(&it, pkt, 1 + PKT3_XS_BUILD_AS_BODY_DW);
	if (xs_pm4_next(&it, &p, &e) <= 0)
		FUZZ_SAY("packet refused: %s", e.msg);
	else if (p.type == 3 && p.opcode == PKT3_XS_BUILD_AS) {
		uint64_t cycles = 0;
		memset(&e, 0, sizeof(e));
		xs_status st = xs_gpu_cp_build_as(g, 0, &p, &cycles, &e);
		FUZZ_SAY("XS_BUILD_AS: %s, %llu cycles", st ? e.msg : "done", (unsigned long long)cycles);
		FUZZ_CHECK(!st || ((st == XS_E_DEVICE_REMOVED || st == XS_E_OUT_OF_MEMORY) && e.msg[0]),
			   "status %d without a removal message", (int)st);
		/* 4000 + 32 per primitive + bytes / 64: far below this for 1 MiB of memory */
		FUZZ_CHECK(cycles < (1ull << 40), "%llu CP cycles", (unsigned long long)cycles);
	}
out:
	xs_vm_free(vm, MEM_VA, NULL);
	return 0;
}
