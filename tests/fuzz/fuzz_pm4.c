/*
 * PM4 decoder and printers (src/pm4): the input is a dword stream (a
 * trailing partial dword is dropped). Iterates every packet, then runs both
 * printers, which decode again and format every register field.
 * Oracles: the iterator ends (each call consumes a dword: at most n packets),
 * every packet's body lies inside the stream, an error is sticky, and the
 * printers agree with the iterator on whether the stream is well formed.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pm4/xs_pm4_parse.h"
#include "pm4/xs_pm4_print.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the printers write several lines a dword: 256 KiB of stream is plenty */
	if (size > FUZZ_MAX_INPUT / 4)
		return 0;
	size_t n = size / 4;
	uint32_t *dw = malloc(n ? n * 4 : 4);
	if (!dw)
		return 0;
	memcpy(dw, data, n * 4);

	xs_pm4_iter it;
	xs_pm4_packet pkt;
	xs_err err = { 0 };
	xs_pm4_iter_init(&it, dw, n);
	size_t packets = 0;
	int r;
	while ((r = xs_pm4_next(&it, &pkt, &err)) > 0) {
		packets++;
		FUZZ_CHECK(packets <= n, "%zu packets from %zu dwords", packets, n);
		FUZZ_CHECK(pkt.index < n, "packet at dword %zu of %zu", pkt.index, n);
		FUZZ_CHECK(pkt.body_len == 0 || (pkt.body >= dw + pkt.index + 1 && pkt.body + pkt.body_len <= dw + n),
			   "packet at dword %zu: body of %u dwords outside the stream", pkt.index, pkt.body_len);
		FUZZ_CHECK(pkt.type != 3 || pkt.info, "type-3 packet at dword %zu without opcode info", pkt.index);
	}
	bool ok = r == 0;
	if (!ok) {
		FUZZ_CHECK(it.error_dword < n || n == 0, "error at dword %zu of %zu", it.error_dword, n);
		FUZZ_CHECK(memchr(err.msg, 0, sizeof(err.msg)) && err.msg[0], "error without a message");
		FUZZ_CHECK(xs_pm4_next(&it, &pkt, NULL) < 0, "error not sticky");
	}

	xs_err e1 = { 0 }, e2 = { 0 };
	int p1 = xs_pm4_print(fuzz_sink(), dw, n, &e1);
	int p2 = xs_pm4_print_json(fuzz_sink(), "fuzz", dw, n, &e2);
	FUZZ_CHECK((p1 == 0) == ok && (p2 == 0) == ok, "iterator %d, printers %d %d", r, p1, p2);
	free(dw);
	return 0;
}
