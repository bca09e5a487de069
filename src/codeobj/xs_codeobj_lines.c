/*
 * DWARF line tables through libdw (elfutils), not a parser of our own: the
 * line-number program (DWARF 5 as clang-15 writes it for gfx1030) is read
 * by a library that debuggers rely on. An AMDGPU image needs no libdw
 * backend for this: the linked code object has no relocations to apply to
 * its debug sections.
 */
#include "codeobj/xs_codeobj_lines.h"

#include <stdlib.h>
#include <string.h>

#if XS_HAVE_LIBDW
#include <elfutils/libdw.h>
#include <libelf.h>
#endif

void xs_codeobj_lines_free(xs_codeobj_lines *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nfiles; i++)
		free(l->files[i]);
	free(l->files);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

const xs_codeobj_line *xs_codeobj_lines_find(const xs_codeobj_lines *l, uint64_t addr)
{
	if (!l || !l->n || addr < l->v[0].addr)
		return NULL;
	size_t lo = 0, hi = l->n; /* the last row with v.addr <= addr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return &l->v[lo];
}

#if XS_HAVE_LIBDW
static int by_addr(const void *a, const void *b)
{
	const xs_codeobj_line *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* File names kept once (rows point at them), found again through an
 * open-addressing table of their hashes: a hostile line table may name up
 * to XS_CODEOBJ_LINES_MAX files in any order, and a search of the list per
 * row would make that quadratic. */
typedef struct name_set {
	uint32_t *slot; /* index into files + 1; 0 = empty */
	size_t cap;     /* a power of two, kept above twice the files */
} name_set;

static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
	return h;
}

static bool name_set_grow(name_set *ns, const xs_codeobj_lines *l)
{
	size_t cap = ns->cap ? 2 * ns->cap : 64;
	uint32_t *slot = xs_calloc(cap, sizeof(*slot));
	if (!slot)
		return false;
	for (size_t i = 0; i < l->nfiles; i++) {
		size_t k = (size_t)name_hash(l->files[i]) & (cap - 1);
		while (slot[k])
			k = (k + 1) & (cap - 1);
		slot[k] = (uint32_t)i + 1;
	}
	free(ns->slot);
	ns->slot = slot;
	ns->cap = cap;
	return true;
}

static const char *intern(xs_codeobj_lines *l, name_set *ns, const char *name)
{
	if (2 * (l->nfiles + 1) > ns->cap && !name_set_grow(ns, l))
		return NULL;
	size_t k = (size_t)name_hash(name) & (ns->cap - 1);
	for (; ns->slot[k]; k = (k + 1) & (ns->cap - 1))
		if (!strcmp(l->files[ns->slot[k] - 1], name))
			return l->files[ns->slot[k] - 1];
	char **f = xs_realloc(l->files, (l->nfiles + 1) * sizeof(*f));
	if (!f)
		return NULL;
	l->files = f;
	if (!(f[l->nfiles] = xs_strdup(name)))
		return NULL;
	ns->slot[k] = (uint32_t)l->nfiles + 1;
	return f[l->nfiles++];
}

xs_status xs_codeobj_lines_read(const uint8_t *image, size_t size, xs_codeobj_lines *out, xs_err *e)
{
	memset(out, 0, sizeof(*out));
	elf_version(EV_CURRENT);
	Elf *elf = elf_memory((char *)image, size);
	if (!elf)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT, "line table: libelf cannot open the image: %s", elf_errmsg(-1));
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (!dw) {
		/* no DWARF at all: a code object built without -g */
		elf_end(elf);
		return XS_OK;
	}
	xs_status st = XS_OK;
	size_t cap = 0;
	name_set names = { 0 };
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (!st && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t nl;
		if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_getsrclines(&cu, &lines, &nl) == 0) {
			for (size_t i = 0; i < nl && !st; i++) {
				Dwarf_Line *ln = dwarf_onesrcline(lines, i);
				Dwarf_Addr a;
				int lineno;
				bool end = false;
				if (!ln || dwarf_lineaddr(ln, &a) || dwarf_lineno(ln, &lineno) || dwarf_lineendsequence(ln, &end))
					continue;
				const char *src = dwarf_linesrc(ln, NULL, NULL);
				if (end || lineno <= 0 || !src)
					continue;
				if (out->n == XS_CODEOBJ_LINES_MAX)
					break; /* bounded: a hostile table does not grow without end */
				if (out->n == cap) {
					size_t ncap = cap ? 2 * cap : 256;
					xs_codeobj_line *v = xs_realloc(out->v, ncap * sizeof(*v));
					if (!v) {
						st = xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
						break;
					}
					out->v = v;
					cap = ncap;
				}
				const char *f = intern(out, &names, src);
				if (!f) {
					st = xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
					break;
				}
				out->v[out->n++] = (xs_codeobj_line){ .addr = a, .file = f, .line = (uint32_t)lineno };
			}
		}
		off = next;
	}
	free(names.slot);
	dwarf_end(dw);
	elf_end(elf);
	if (st) {
		xs_codeobj_lines_free(out);
		return st;
	}
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), by_addr);
	return XS_OK;
}
#else
xs_status xs_codeobj_lines_read(const uint8_t *image, size_t size, xs_codeobj_lines *out, xs_err *e)
{
	(void)image;
	(void)size;
	memset(out, 0, sizeof(*out));
	return xs_err_set(e, XS_E_UNSUPPORTED, "line table: xs12 was built without libdw (libdw-dev)");
}
#endif
