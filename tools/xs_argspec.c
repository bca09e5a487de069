/* xs_argspec — kernel-argument specs shared by `xs12 run` and the PoCL
 * oracle. See xs_argspec.h for the syntax. */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L   /* fileno, mkdtemp */
#endif
#include "xs_argspec.h"
#include "common/xs_outfile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const kind_names[] = {
	[XS_AS_I32] = "i32", [XS_AS_U32] = "u32", [XS_AS_I64] = "i64", [XS_AS_U64] = "u64",
	[XS_AS_F32] = "f32", [XS_AS_F64] = "f64",
	[XS_AS_IN] = "in", [XS_AS_OUT] = "out", [XS_AS_INOUT] = "inout", [XS_AS_LOCAL] = "local",
};
#define KIND_COUNT (sizeof(kind_names) / sizeof(kind_names[0]))
#define KIND_LIST "i32 u32 i64 u64 f32 f64 in out inout local"

__attribute__((format(printf, 4, 5)))
static int fail(char *err, size_t errlen, const char *spec, const char *fmt, ...)
{
	if (err && errlen) {
		char msg[512];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		snprintf(err, errlen, "--arg '%s': %s", spec, msg);
	}
	return -1;
}

const char *xs_argspec_kind_name(xs_argspec_kind k)
{
	return (unsigned)k < KIND_COUNT ? kind_names[k] : "?";
}

/* Digits of an unsigned number: "0x" hex or decimal, nothing else (no sign,
 * no blanks). *end gets the first character after the digits. */
static int parse_digits(const char *v, uint64_t *out, const char **end)
{
	int base = 10;
	if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		base = 16;
		v += 2;
	}
	if (base == 16 ? !isxdigit((unsigned char)*v) : !isdigit((unsigned char)*v))
		return -1;
	errno = 0;
	char *e;
	unsigned long long x = strtoull(v, &e, base);
	*out = x;
	*end = e;
	return errno == ERANGE ? -2 : 0;
}

static int parse_int(const char *spec, const char *v, xs_argspec *a, char *err, size_t errlen)
{
	bool is_signed = a->kind == XS_AS_I32 || a->kind == XS_AS_I64;
	bool is32 = a->kind == XS_AS_I32 || a->kind == XS_AS_U32;
	const char *name = kind_names[a->kind];
	if (!*v)
		return fail(err, errlen, spec, "missing value");
	bool neg = false;
	if (*v == '-' || *v == '+') {
		neg = *v == '-';
		if (neg && !is_signed)
			return fail(err, errlen, spec, "negative value for unsigned %s", name);
		v++;
	}
	uint64_t mag;
	const char *end;
	int r = parse_digits(v, &mag, &end);
	if (r == -1)
		return fail(err, errlen, spec, "not an integer (decimal or 0x hex)");
	if (r == -2)
		return fail(err, errlen, spec, "out of range for %s", name);
	if (*end)
		return fail(err, errlen, spec, "not an integer: junk '%s' after the number", end);
	if (is_signed) {
		uint64_t lim = is32 ? UINT64_C(1) << 31 : UINT64_C(1) << 63;
		if (neg ? mag > lim : mag >= lim)
			return fail(err, errlen, spec, "out of range for %s (%s)", name,
			            is32 ? "-2147483648..2147483647"
			                 : "-9223372036854775808..9223372036854775807");
		/* two's complement without signed overflow */
		a->val.u = neg ? (uint64_t)0 - mag : mag;
	} else {
		if (is32 && mag > UINT32_MAX)
			return fail(err, errlen, spec, "out of range for u32 (0..4294967295)");
		a->val.u = mag;
	}
	return 0;
}

static int parse_float(const char *spec, const char *v, xs_argspec *a, char *err, size_t errlen)
{
	if (!*v)
		return fail(err, errlen, spec, "missing value");
	if (isspace((unsigned char)*v))
		return fail(err, errlen, spec, "not a number");
	char *end;
	errno = 0;
	if (a->kind == XS_AS_F32) {
		/* strtof rounds once; strtod then a cast could round twice */
		float x = strtof(v, &end);
		if (end == v || *end)
			return fail(err, errlen, spec, "not a number");
		if (errno == ERANGE && isinf(x))
			return fail(err, errlen, spec, "out of range for f32");
		a->val.f = x;
	} else {
		double x = strtod(v, &end);
		if (end == v || *end)
			return fail(err, errlen, spec, "not a number");
		if (errno == ERANGE && isinf(x))
			return fail(err, errlen, spec, "out of range for f64");
		a->val.f = x;
	}
	return 0;
}

int xs_argspec_bytes(const char *v, uint64_t max, uint64_t *out, bool *suffixed, char *err, size_t errlen)
{
	if (!*v) {
		snprintf(err, errlen, "missing byte count");
		return -1;
	}
	uint64_t n;
	const char *end;
	int r = parse_digits(v, &n, &end);
	if (r == -1) {
		snprintf(err, errlen, "byte count '%s' is not a number (decimal or 0x hex, optional K, M or G suffix)", v);
		return -1;
	}
	uint64_t mul = 1;
	if (*end == 'K' || *end == 'k')
		mul = 1ull << 10, end++;
	else if (*end == 'M' || *end == 'm')
		mul = 1ull << 20, end++;
	else if (*end == 'G' || *end == 'g')
		mul = 1ull << 30, end++;
	if (suffixed)
		*suffixed = mul != 1;
	if (*end) {
		snprintf(err, errlen, "byte count '%s': junk '%s' (suffixes: K, M, G)", v, end);
		return -1;
	}
	if (r == -2 || n > max / mul) {
		snprintf(err, errlen, "byte count '%s' is over the limit of %llu bytes", v, (unsigned long long)max);
		return -1;
	}
	if (n == 0) {
		snprintf(err, errlen, "byte count must be at least 1");
		return -1;
	}
	*out = n * mul;
	return 0;
}

static int parse_bytes(const char *spec, const char *v, uint64_t *out, char *err, size_t errlen)
{
	char msg[300];
	if (xs_argspec_bytes(v, XS_ARGSPEC_MAX_BYTES, out, NULL, msg, sizeof(msg)))
		return fail(err, errlen, spec, "%s%s", msg, strstr(msg, "limit") ? " (1 GiB)" : "");
	return 0;
}

int xs_argspec_parse(const char *s, xs_argspec *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	if (err && errlen)
		err[0] = '\0';
	if (!s)
		s = "";
	const char *colon = strchr(s, ':');
	if (!colon)
		return fail(err, errlen, s, "expected KIND:VALUE (kinds: " KIND_LIST ")");
	size_t klen = (size_t)(colon - s);
	unsigned k;
	for (k = 0; k < KIND_COUNT; k++)
		if (strlen(kind_names[k]) == klen && memcmp(kind_names[k], s, klen) == 0)
			break;
	if (k == KIND_COUNT)
		return fail(err, errlen, s, "unknown kind '%.*s' (kinds: " KIND_LIST ")", (int)klen, s);

	xs_argspec a = { .kind = (xs_argspec_kind)k };
	const char *v = colon + 1;
	switch (a.kind) {
	case XS_AS_I32: case XS_AS_U32: case XS_AS_I64: case XS_AS_U64:
		if (parse_int(s, v, &a, err, errlen))
			return -1;
		break;
	case XS_AS_F32: case XS_AS_F64:
		if (parse_float(s, v, &a, err, errlen))
			return -1;
		break;
	case XS_AS_LOCAL:
		/* local:0 is allowed: the LDS may come from --launch lds= (S3.3) */
		if (strcmp(v, "0") && parse_bytes(s, v, &a.bytes, err, errlen))
			return -1;
		break;
	case XS_AS_IN: case XS_AS_OUT: case XS_AS_INOUT: {
		/* strings_ = the whole spec (for later messages), then a copy of
		 * the part after "KIND:" cut with NULs */
		size_t slen = strlen(s), vlen = strlen(v);
		char *whole = malloc(slen + 1 + vlen + 1);
		if (!whole)
			return fail(err, errlen, s, "out of memory");
		memcpy(whole, s, slen + 1);
		char *buf = whole + slen + 1;
		memcpy(buf, v, vlen + 1);
		char *sep = NULL;
		if (a.kind == XS_AS_OUT)
			sep = strrchr(buf, ':');
		else if (a.kind == XS_AS_INOUT)
			sep = strchr(buf, ':');
		if (a.kind != XS_AS_IN && !sep) {
			free(whole);
			return fail(err, errlen, s, a.kind == XS_AS_OUT ? "expected out:FILE:BYTES"
			                                                : "expected inout:FILE:OUTFILE");
		}
		if (sep)
			*sep = '\0';
		if (!buf[0]) {
			free(whole);
			return fail(err, errlen, s, "missing file name");
		}
		if (a.kind == XS_AS_OUT && parse_bytes(s, sep + 1, &a.bytes, err, errlen)) {
			free(whole);
			return -1;
		}
		if (a.kind == XS_AS_INOUT) {
			if (!sep[1]) {
				free(whole);
				return fail(err, errlen, s, "missing output file name");
			}
			a.outfile = sep + 1;
		}
		a.file = buf;
		a.strings_ = whole;
		break;
	}
	}
	*out = a;
	return 0;
}

size_t xs_argspec_value_size(const xs_argspec *a)
{
	switch (a->kind) {
	case XS_AS_I32: case XS_AS_U32: case XS_AS_F32:
		return 4;
	case XS_AS_I64: case XS_AS_U64: case XS_AS_F64:
		return 8;
	default:
		return 0;
	}
}

size_t xs_argspec_value_bytes(const xs_argspec *a, void *dst)
{
	uint64_t bits;
	switch (a->kind) {
	case XS_AS_I32: case XS_AS_U32: case XS_AS_I64: case XS_AS_U64:
		bits = a->val.u;
		break;
	case XS_AS_F32: {
		float f = (float)a->val.f;
		uint32_t b32;
		memcpy(&b32, &f, 4);
		bits = b32;
		break;
	}
	case XS_AS_F64:
		memcpy(&bits, &a->val.f, 8);
		break;
	default:
		return 0;
	}
	size_t n = xs_argspec_value_size(a);
	uint8_t *d = dst;
	for (size_t i = 0; i < n; i++)
		d[i] = (uint8_t)(bits >> (8 * i));
	return n;
}

bool xs_argspec_is_buffer(const xs_argspec *a)
{
	return a->kind == XS_AS_IN || a->kind == XS_AS_OUT || a->kind == XS_AS_INOUT;
}

int xs_argspec_load(xs_argspec *a, char *err, size_t errlen)
{
	if (a->kind != XS_AS_IN && a->kind != XS_AS_INOUT)
		return 0;
	const char *spec = a->strings_ ? a->strings_ : a->file;
	free(a->data);
	a->data = NULL;
	a->bytes = 0;
	FILE *f = fopen(a->file, "rb");
	if (!f)
		return fail(err, errlen, spec, "cannot open input file '%s': %s", a->file, strerror(errno));
	struct stat st;
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		fclose(f);
		return fail(err, errlen, spec, "input is not a regular file");
	}
	if ((uint64_t)st.st_size > XS_ARGSPEC_MAX_BYTES) {
		fclose(f);
		return fail(err, errlen, spec, "input file of %lld bytes is over the limit of %llu (1 GiB)",
		            (long long)st.st_size, (unsigned long long)XS_ARGSPEC_MAX_BYTES);
	}
	if (st.st_size == 0) {
		fclose(f);
		return fail(err, errlen, spec, "input file is empty (a buffer needs at least 1 byte)");
	}
	size_t n = (size_t)st.st_size;
	uint8_t *buf = malloc(n);
	if (!buf) {
		fclose(f);
		return fail(err, errlen, spec, "out of memory for %zu bytes", n);
	}
	size_t got = fread(buf, 1, n, f);
	bool bad = ferror(f) != 0;
	fclose(f);
	if (bad || got != n) {
		free(buf);
		return fail(err, errlen, spec, "short read (%zu of %zu bytes)", got, n);
	}
	a->data = buf;
	a->bytes = n;
	return 0;
}

int xs_argspec_store(const xs_argspec *a, const void *data, size_t n, char *err, size_t errlen)
{
	const char *spec = a->strings_ ? a->strings_ : a->file, *path;
	if (a->kind == XS_AS_OUT)
		path = a->file;
	else if (a->kind == XS_AS_INOUT)
		path = a->outfile;
	else
		return 0;
	/* Replaced whole or not at all: a failed write keeps the file's old bytes. */
	xs_outfile o;
	FILE *f = xs_outfile_open(&o, path, "wb");
	if (!f)
		return fail(err, errlen, spec, "cannot create output file '%s': %s", path, strerror(errno));
	size_t put = n ? fwrite(data, 1, n, f) : 0;
	int e = put != n ? errno : 0;
	if (xs_outfile_close(&o, f) || put != n) {
		e = e ? e : errno;
		char part[64] = ""; /* a short fwrite; else the close's flush failed */
		if (put != n)
			snprintf(part, sizeof(part), " (%zu of %zu bytes)", put, n);
		return fail(err, errlen, spec, "writing '%s' failed%s: %s%s", path, part, e ? strerror(e) : "write error",
		            o.in_place ? "" : "; the file is unchanged");
	}
	return 0;
}

void xs_argspec_free(xs_argspec *a)
{
	if (!a)
		return;
	free(a->data);
	free(a->strings_);
	memset(a, 0, sizeof(*a));
}
