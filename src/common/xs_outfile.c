/* Output files replaced whole or not at all: see xs_outfile.h. */
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* realpath, O_CLOEXEC */
#endif
#include "common/xs_outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void xs_outfile_begin(xs_outfile *o, const char *path)
{
	static unsigned serial;
	o->path = path;
	o->in_place = true;
	snprintf(o->tmp, sizeof(o->tmp), "%s", path);
	snprintf(o->final, sizeof(o->final), "%s", path);
	int saved = errno;
	struct stat st;
	bool existed = !stat(path, &st);
	if (existed && (!S_ISREG(st.st_mode) || !realpath(path, o->final))) {
		snprintf(o->final, sizeof(o->final), "%s", path);
		goto out;
	}
	if (!existed && (errno != ENOENT || !lstat(path, &st))) /* a dangling link: written through, as fopen does */
		goto out;
	/* The temporary keeps PATH's extension: writers choose the format by it
	 * (a profile's .json / .html / text). */
	const char *slash = strrchr(o->final, '/'), *base = slash ? slash + 1 : o->final;
	const char *dot = strrchr(base, '.');
	const char *ext = dot && dot != base && strlen(dot) <= 16 ? dot : "";
	int dl = slash ? (int)(slash - o->final) + 1 : 0;
	char t[PATH_MAX];
	for (int tries = 0; tries < 100; tries++) {
		/* O_EXCL: never an existing file; 0666 less the umask, as fopen */
		if ((size_t)snprintf(t, sizeof(t), "%.*s.xs12-tmp.%ld.%u%s", dl, o->final, (long)getpid(), serial++,
				     ext) >= sizeof(t))
			goto out;
		int fd = open(t, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			goto out;
		/* the file replaced keeps its permissions */
		if (existed && fchmod(fd, st.st_mode & 07777)) {
			close(fd);
			unlink(t);
			goto out;
		}
		close(fd);
		memcpy(o->tmp, t, sizeof(t));
		o->in_place = false;
		break;
	}
out:
	errno = saved;
}

int xs_outfile_end(xs_outfile *o, bool ok)
{
	if (o->in_place)
		return ok ? 0 : -1;
	int e = errno;
	if (ok && !rename(o->tmp, o->final))
		return 0;
	if (ok)
		e = errno;
	unlink(o->tmp);
	errno = e;
	return -1;
}

FILE *xs_outfile_open(xs_outfile *o, const char *path, const char *mode)
{
	xs_outfile_begin(o, path);
	FILE *f = fopen(o->tmp, mode);
	if (!f)
		xs_outfile_end(o, false);
	return f;
}

int xs_outfile_close(xs_outfile *o, FILE *f)
{
	errno = 0;
	bool bad = ferror(f) != 0;
	if (fclose(f))
		bad = true;
	else if (bad)
		errno = 0; /* the failed write's errno is gone: do not name a stale one */
	return xs_outfile_end(o, !bad);
}

const char *xs_outfile_msg(const xs_outfile *o, const char *msg, char *buf, size_t n)
{
	const char *at = o->in_place ? NULL : strstr(msg, o->tmp);
	if (!at)
		return msg;
	snprintf(buf, n, "%.*s%s%s", (int)(at - msg), msg, o->path, at + strlen(o->tmp));
	return buf;
}
