/*
 * PM4 printer, in the manner of Mesa's ac_parse_ib (src/amd/common/ac_debug.c):
 * one line per packet header with the packet name and header flags, then one
 * line per body dword, with register writes as "NAME <- 0x%08x" followed by
 * their decoded fields, one per line. Every dword line starts with its index
 * in the stream and its raw value:
 *
 *      0  c0017600  SET_SH_REG:
 *      1  00000218      REG_OFFSET = 0x218 (COMPUTE_TMPRING_SIZE)
 *      2  000030d0      COMPUTE_TMPRING_SIZE <- 0x000030d0
 *                           WAVES = 208
 *                           WAVESIZE = 3 (3 KiB)
 *
 * Both printers decode with xs_pm4_next and stop at the first malformed
 * packet: what decoded before it is printed, then they return -1 with err
 * naming the dword and the rule (the caller prints it).
 */
#ifndef XS_PM4_PRINT_H
#define XS_PM4_PRINT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/xs_common.h"

/* 0 when the whole stream decoded, -1 otherwise (err says why). */
int xs_pm4_print(FILE *f, const uint32_t *dw, size_t n, xs_err *err);

/* JSON: {"file": name, "dwords": n, "packets": [{"dword", "header", "type",
 * "opcode", "name", "count", "shader_type", "predicate", "body": ["0x..."],
 * "decoded": [{"dword", "name", "value", "address"?, "note"?, "fields"?: {..}}]}],
 * "error": null | {"dword", "message"}}. name may be NULL (then no "file"). */
int xs_pm4_print_json(FILE *f, const char *name, const uint32_t *dw, size_t n, xs_err *err);

#endif
