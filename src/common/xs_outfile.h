/*
 * xs_outfile — output files replaced whole or not at all (docs/cli.md,
 * "Output files"). The new contents are written beside PATH under a
 * temporary name (.xs12-tmp.PID.N with PATH's extension) and renamed over
 * PATH only once every byte is written, so a write that fails midway (disk
 * full, ulimit -f) leaves the file PATH held before, and the temporary is
 * removed (a process killed meanwhile leaves it). PATH is written in place
 * when it is not a regular file (/dev/stdout, /dev/null, a FIFO: a rename
 * would replace the device or pipe rather than write to it), when it is a
 * dangling symbolic link, or when no temporary can be made beside it (a
 * folder that is not writable although the file is). A symbolic link to a
 * regular file stays a link: its target is replaced.
 *
 * Plain POSIX, no xs12 headers: the CLI, the D3D12 layer (XS12_TRACE) and
 * the PoCL and D3D12 runners of the tests (with xs_argspec.c) build it.
 */
#ifndef XS_OUTFILE_H
#define XS_OUTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct xs_outfile {
	const char *path;     /* as given, for messages */
	char final[PATH_MAX]; /* what the temporary is renamed to (symbolic links resolved) */
	char tmp[PATH_MAX];   /* the name to write: a temporary with PATH's extension, or PATH */
	bool in_place;
} xs_outfile;

/* Picks the name to write PATH under (o->tmp) and creates it, with PATH's
 * permissions if it exists (else 0666 less the umask, as fopen). Cannot
 * fail: at worst PATH is written in place. */
void xs_outfile_begin(xs_outfile *o, const char *path);
/* ok: renames the temporary over PATH: 0, or -1 with errno (the temporary
 * removed). !ok: removes the temporary, PATH untouched; -1, errno kept. */
int xs_outfile_end(xs_outfile *o, bool ok);
/* begin, then fopen(o->tmp, mode): NULL with errno (nothing left behind). */
FILE *xs_outfile_open(xs_outfile *o, const char *path, const char *mode);
/* For a FILE from xs_outfile_open: 0 when every write and the close
 * succeeded and PATH is replaced, else -1 (errno the close's or rename's,
 * 0 for a write that failed before) and PATH untouched. */
int xs_outfile_close(xs_outfile *o, FILE *f);
/* msg with the temporary's name replaced by PATH: a writer that was given
 * o->tmp names that in its messages, the user gave PATH. */
const char *xs_outfile_msg(const xs_outfile *o, const char *msg, char *buf, size_t n);

#endif
