/*
 * Source lines of a code object built with -g: its DWARF line table
 * (.debug_line), read with elfutils' libdw. For the profile's annotated
 * disassembly (docs/cli.md, xs12 run --profile).
 */
#ifndef XS_CODEOBJ_LINES_H
#define XS_CODEOBJ_LINES_H

#include "common/xs_common.h"

typedef struct xs_codeobj_line {
	uint64_t addr;           /* address in the image (ET_DYN vaddr) */
	const char *file;        /* full path as the compiler recorded it */
	uint32_t line;
} xs_codeobj_line;

typedef struct xs_codeobj_lines {
	xs_codeobj_line *v;      /* sorted by address; rows of line 0 dropped */
	size_t n;
	char **files;            /* storage of the file names */
	size_t nfiles;
} xs_codeobj_lines;

#define XS_CODEOBJ_LINES_MAX (1u << 20) /* rows kept at most */

/* Reads the line table of an ELF image (the code object's own, not a
 * bundle). XS_OK with n = 0 when there is none; XS_E_UNSUPPORTED when xs12
 * was built without libdw; XS_E_BAD_CODE_OBJECT naming libdw's complaint. */
xs_status xs_codeobj_lines_read(const uint8_t *image, size_t size, xs_codeobj_lines *out, xs_err *e);
void xs_codeobj_lines_free(xs_codeobj_lines *l);
/* The row that covers addr (the last at or below it), or NULL. */
const xs_codeobj_line *xs_codeobj_lines_find(const xs_codeobj_lines *l, uint64_t addr);

#endif
