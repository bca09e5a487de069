#include "common/xs_common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

xs_status xs_err_set(xs_err *e, xs_status s, const char *fmt, ...)
{
	if (!e)
		return s;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	e->status = s;
	e->id = 0;
	return s;
}

void xs_err_prefix(xs_err *e, const char *fmt, ...)
{
	if (!e)
		return;
	char pre[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(pre, sizeof(pre) - 2, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	size_t plen = strlen(pre);
	memcpy(pre + plen, ": ", 3);
	plen += 2;
	size_t mlen = strnlen(e->msg, sizeof(e->msg) - 1);
	if (plen + mlen >= sizeof(e->msg))
		mlen = sizeof(e->msg) - 1 - plen;
	memmove(e->msg + plen, e->msg, mlen);
	memcpy(e->msg, pre, plen);
	e->msg[plen + mlen] = 0;
}

xs_status xs_read_file(const char *path, size_t max_size, uint8_t **data, size_t *size, xs_err *e)
{
	*data = NULL;
	*size = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return xs_err_set(e, XS_E_IO, "%s: cannot open: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) != 0) {
		fclose(f);
		return xs_err_set(e, XS_E_IO, "%s: cannot seek (not a regular file?)", path);
	}
	long n = ftell(f);
	if (n < 0 || (unsigned long)n > max_size) {
		fclose(f);
		return xs_err_set(e, XS_E_IO, "%s: size %ld is over the limit of %zu bytes", path, n, max_size);
	}
	rewind(f);
	uint8_t *buf = xs_malloc(n ? (size_t)n : 1);
	if (!buf) {
		fclose(f);
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "%s: out of memory for %ld bytes", path, n);
	}
	if (n && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		return xs_err_set(e, XS_E_IO, "%s: short read", path);
	}
	fclose(f);
	*data = buf;
	*size = (size_t)n;
	return XS_OK;
}

double xs_now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}
