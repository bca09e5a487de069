/*
 * The recording reader (src/runtime/xs_rt_record.c; `xs12 run --record`
 * writes recordings, `xs12 replay` and `xs12 pm4` read them): the input is
 * a recording in memory, read batch by batch by xs_rt_record_walk_mem, the
 * reader `xs12 replay` uses too (read_batch: allocations, memory pages,
 * submissions, results). For each submission, as `xs12 pm4` does, its
 * command buffer is read from the batch's memory image and decoded, with
 * the buffers it calls (INDIRECT_BUFFER, one level).
 * The replay's GPU run is not done here: a hostile recording may ask for
 * any amount of GPU work, which the replay bounds by the recorded cycles,
 * not by the reader.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "hw/xs_hw_pm4.h"
#include "mem/xs_vm.h"
#include "pm4/xs_pm4_parse.h"
#include "runtime/xs_rt.h"

/* per command buffer: a recording's are a few thousand dwords */
#define MAX_IB_DWORDS (1u << 16)

static size_t decode(xs_vm *vm, uint64_t va, uint32_t ndw, bool follow)
{
	if (!ndw || ndw > MAX_IB_DWORDS)
		return 0;
	uint32_t *dw = malloc((size_t)ndw * 4);
	if (!dw)
		return 0;
	size_t packets = 0;
	if (xs_vm_read(vm, va, dw, (size_t)ndw * 4, NULL)) {
		xs_pm4_iter it;
		xs_pm4_packet p;
		xs_err e;
		xs_pm4_iter_init(&it, dw, ndw);
		while (xs_pm4_next(&it, &p, &e) > 0) {
			packets++;
			if (follow && p.type == 3 && p.opcode == PKT3_INDIRECT_BUFFER)
				packets += decode(vm, (uint64_t)p.body[0] | ((uint64_t)p.body[1] << 32),
						  G_3F2_IB_SIZE(p.body[2]), false);
		}
	}
	free(dw);
	return packets;
}

static xs_status sub(void *user, uint32_t batch, uint32_t queue, uint64_t va, uint32_t ndw, xs_vm *vm, xs_err *e)
{
	(void)batch, (void)queue, (void)e;
	*(size_t *)user += decode(vm, va, ndw, true);
	return XS_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	size_t packets = 0;
	xs_err e = { 0 };
	xs_status st = xs_rt_record_walk_mem(data, size, "fuzz", sub, &packets, &e);
	FUZZ_SAY("walk: %s, %zu packets", st ? e.msg : "done", packets);
	if (st)
		FUZZ_CHECK(e.msg[0] && memchr(e.msg, 0, sizeof(e.msg)), "refused without a message");
	return 0;
}
