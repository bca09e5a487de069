/*
 * Strict, bounded PM4 decoder: an iterator over a dword stream.
 *
 *   xs_pm4_iter it;
 *   xs_pm4_packet pkt;
 *   xs_err err;
 *   xs_pm4_iter_init(&it, dwords, n);
 *   int r;
 *   while ((r = xs_pm4_next(&it, &pkt, &err)) > 0)
 *           ... pkt.opcode, pkt.body[0 .. pkt.body_len-1], pkt.reg_addr ...
 *   if (r < 0)  ... err.msg names the dword and the rule, it.error_dword the index
 *
 * Accepted: type-2 filler (exactly 0x80000000) and type-3 packets with an
 * opcode of docs/hardware.md section 4, whose body fits in the stream and
 * has the size gfx10 gives that opcode. Everything else is an error: type-0
 * and type-1 packets, unknown opcodes, truncated bodies, SET_*_REG writes
 * outside their register space, INDIRECT_BUFFER of 0 dwords, misaligned
 * fence/IB addresses, and so on (each rule is in xs_pm4_parse.c). Errors are
 * sticky: after -1 every call returns -1 again. Each call consumes at least one
 * dword, so a stream of n dwords yields at most n packets.
 */
#ifndef XS_PM4_PARSE_H
#define XS_PM4_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/xs_common.h"
#include "pm4/xs_pm4_regdb.h"

/* What the decoder knows about an opcode. */
typedef struct xs_pm4_opinfo {
	uint8_t op;
	const char *name;   /* "SET_SH_REG" */
	uint16_t min_body;  /* body dwords (count + 1) allowed on gfx10 */
	uint16_t max_body;
	uint8_t space;      /* SET_*_REG*: the register space written, else XS_PM4_SPACE_NONE */
	bool has_index;     /* SET_*_REG_INDEX: index in bits 28..31 of the offset dword */
} xs_pm4_opinfo;

const xs_pm4_opinfo *xs_pm4_opinfo_get(unsigned opcode); /* NULL if unknown */
const char *xs_pm4_opcode_name(unsigned opcode);         /* NULL if unknown */

typedef struct xs_pm4_packet {
	size_t index;          /* dword index of the header in the stream */
	uint32_t header;
	uint8_t type;          /* 2 (filler) or 3 */
	uint8_t opcode;        /* type 3 */
	uint16_t count;        /* header count field; body_len = count + 1, except the
	                        * header-only NOP (count 0x3FFF, body_len 0) */
	bool shader_type;      /* header bit 1: compute */
	bool predicate;        /* header bit 0 */
	const uint32_t *body;  /* body_len dwords after the header (NULL when 0) */
	uint32_t body_len;
	const xs_pm4_opinfo *info; /* type 3: never NULL */
	/* SET_*_REG, SET_*_REG_INDEX: */
	uint32_t reg_addr;     /* byte address of the first register written */
	uint32_t reg_count;    /* registers written = body_len - 1 */
	uint8_t reg_index;     /* *_INDEX packets: bits 28..31 of the offset dword */
	uint8_t space;         /* xs_pm4_space */
} xs_pm4_packet;

typedef struct xs_pm4_iter {
	const uint32_t *dw;
	size_t n;
	size_t pos;          /* next dword to decode */
	bool failed;
	size_t error_dword;  /* after an error: the dword the message names */
} xs_pm4_iter;

void xs_pm4_iter_init(xs_pm4_iter *it, const uint32_t *dwords, size_t n);

/* 1: *pkt is the next packet; 0: end of stream; -1: malformed, err (may be
 * NULL) says "dword <i>: <rule>" and it->error_dword is i. */
int xs_pm4_next(xs_pm4_iter *it, xs_pm4_packet *pkt, xs_err *err);

#endif
