/*
 * xs_argspec — the kernel-argument specs of `xs12 run --arg SPEC` and of the
 * PoCL oracle (tests/e2e/pocl_run.c). One SPEC per explicit kernel argument,
 * in order:
 *
 *   i32:V u32:V i64:V u64:V   by-value integer: decimal, 0x hex (strtoll base 0,
 *                             so a leading 0 means octal); '-' only for signed
 *   f32:V f64:V               by-value float (strtod/strtof: hex floats, inf, nan)
 *   in:FILE                   buffer filled from FILE
 *   out:FILE:BYTES            zeroed buffer of BYTES, written to FILE after the run
 *   inout:FILE:OUTFILE        buffer filled from FILE, written to OUTFILE after the run
 *   local:BYTES               dynamic LDS for a __local pointer argument
 *
 * BYTES: decimal or 0x hex, optional suffix K (KiB), M (MiB) or G (GiB), 1 .. 1 GiB.
 * out:FILE:BYTES splits at the LAST ':' (FILE may hold ':'); inout:FILE:OUTFILE
 * splits at the FIRST ':' (OUTFILE may hold ':').
 *
 * Pure parsing plus file helpers; no globals. Error messages name the spec:
 *   --arg 'f32:abc': not a number
 */
#ifndef XS_ARGSPEC_H
#define XS_ARGSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Upper bound of out/local sizes and of in/inout files. */
#define XS_ARGSPEC_MAX_BYTES (UINT64_C(1) << 30)

typedef enum xs_argspec_kind {
	XS_AS_I32, XS_AS_U32, XS_AS_I64, XS_AS_U64, XS_AS_F32, XS_AS_F64,
	XS_AS_IN, XS_AS_OUT, XS_AS_INOUT, XS_AS_LOCAL
} xs_argspec_kind;

typedef struct xs_argspec {
	xs_argspec_kind kind;
	union { uint64_t u; int64_t i; double f; } val; /* by-value (f32: the float, exactly, as double) */
	const char *file;     /* in / inout source, out destination */
	const char *outfile;  /* inout destination */
	uint64_t bytes;       /* out / local size; in/inout: set by xs_argspec_load */
	uint8_t *data;        /* in / inout contents after xs_argspec_load (owned) */
	char *strings_;       /* private, owned: the spec text, then the copy file/outfile point into */
} xs_argspec;

/* Parses one SPEC into *out (file/outfile point into a copy owned by *out, so s
 * need not outlive it). Returns 0, or -1 with a message naming the problem in
 * err (and *out left empty). After success call xs_argspec_free. */
int xs_argspec_parse(const char *s, xs_argspec *out, char *err, size_t errlen);

/* A byte count: decimal or 0x hex with an optional K, M or G suffix (KiB,
 * MiB, GiB), 1 .. max. *suffixed (may be NULL) says whether a suffix was
 * given. 0, or -1 with the reason in err. */
int xs_argspec_bytes(const char *v, uint64_t max, uint64_t *out, bool *suffixed, char *err, size_t errlen);

/* "i32", "u32", ..., "local". */
const char *xs_argspec_kind_name(xs_argspec_kind k);

/* 4 or 8 for the by-value kinds, 0 otherwise. */
size_t xs_argspec_value_size(const xs_argspec *a);

/* Writes the by-value argument's little-endian bytes (value_size of them) to
 * dst; returns the count (0 for non-value kinds). */
size_t xs_argspec_value_bytes(const xs_argspec *a, void *dst);

/* in / out / inout */
bool xs_argspec_is_buffer(const xs_argspec *a);

/* in / inout: reads the file (≤ XS_ARGSPEC_MAX_BYTES, not empty) into a->data,
 * a->bytes. Other kinds: nothing to do, returns 0. */
int xs_argspec_load(xs_argspec *a, char *err, size_t errlen);

/* out: writes n bytes of data to a->file; inout: to a->outfile; other kinds:
 * nothing to do, returns 0. */
int xs_argspec_store(const xs_argspec *a, const void *data, size_t n, char *err, size_t errlen);

/* Frees data and the owned strings; the spec is left empty (safe to repeat). */
void xs_argspec_free(xs_argspec *a);

#endif
