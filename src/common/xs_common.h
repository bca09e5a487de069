/*
 * Internal helpers shared by every layer: error reporting, bit fields,
 * arithmetic. Nothing here is exported (the library is built with
 * -fvisibility=hidden; only XS_API symbols in include/xs12/ are public).
 */
#ifndef XS_COMMON_H
#define XS_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "xs12/xs12.h"
#include "common/xs_alloc.h"

#define XS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* Both evaluate an argument twice: never pass a call with side effects. */
#define XS_MIN(a, b) ((a) < (b) ? (a) : (b))
#define XS_MAX(a, b) ((a) > (b) ? (a) : (b))
#define XS_DIV_ROUND_UP(a, b) (((a) + (b) - 1) / (b))
/* The host's cache line: the step of the simulator's own prefetches (not a GPU figure). */
#define XS_HOST_LINE 64u
#define XS_ALIGN_UP(a, b) (XS_DIV_ROUND_UP(a, b) * (b))
#define XS_IS_POW2(x) ((x) != 0 && ((x) & ((x) - 1)) == 0)
#define XS_LIKELY(x) __builtin_expect(!!(x), 1)
#define XS_UNLIKELY(x) __builtin_expect(!!(x), 0)
/* The loop after it has no dependences between iterations: vectorise it.
 * GCC's pragma only: clang warns on it as unknown, and its own request
 * warns whenever the loop cannot be vectorised (-O1 of the sanitizer
 * build), which -Werror makes an error; clang decides alone. */
#if defined(__GNUC__) && !defined(__clang__)
#define XS_IVDEP _Pragma("GCC ivdep")
#else
#define XS_IVDEP
#endif
#define XS_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* Bit-field extract / insert: XS_BITS(v, lo, hi) is bits lo..hi inclusive. */
static inline uint32_t xs_bits(uint32_t v, unsigned lo, unsigned hi)
{
	return (v >> lo) & (hi - lo == 31 ? 0xffffffffu : ((1u << (hi - lo + 1)) - 1));
}

/* An error: status plus a message that names the rule, field, byte or
 * argument at fault. Filled once; callers add context with xs_err_prefix(). */
typedef struct xs_err {
	xs_status status;
	uint32_t id;       /* the message's ID in the runtime's table (include/xs12/xs12_messages.def), 0 = none */
	char msg[1024];
} xs_err;

xs_status xs_err_set(xs_err *e, xs_status s, const char *fmt, ...) XS_PRINTF(3, 4);
/* Prepends "<context>: " to an existing message. */
void xs_err_prefix(xs_err *e, const char *fmt, ...) XS_PRINTF(2, 3);
static inline void xs_err_clear(xs_err *e) { e->status = XS_OK; e->id = 0; e->msg[0] = 0; }

/* Whole file into memory, bounded by max_size (no unbounded allocation). */
xs_status xs_read_file(const char *path, size_t max_size, uint8_t **data, size_t *size, xs_err *e);

double xs_now_seconds(void);

#endif
