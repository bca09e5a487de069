/*
 * Clang offload bundles, standalone or in a host ELF's .hip_fatbin section.
 *
 * Layout (clang "ClangOffloadBundler" documentation, "Binary Bundle File
 * Layout"): the 24-byte magic "__CLANG_OFFLOAD_BUNDLE__", a u64 number of
 * entries, then per entry a u64 offset and u64 size of its code object
 * (relative to the start of the bundle), a u64 id length and the id, e.g.
 * "hipv4-amdgcn-amd-amdhsa--gfx1030". All integers little-endian.
 *
 * A host ELF linked by hipcc keeps one such bundle per translation unit in
 * .hip_fatbin, each starting on an alignment boundary (4096 bytes with
 * clang-15), so the next bundle is found by looking for the magic after the
 * end of the previous one.
 */
#include <stdio.h>
#include <string.h>

#include "codeobj/xs_codeobj_priv.h"

#define BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"
#define BUNDLE_MAGIC_LEN 24
#define BUNDLE_HEADER 32        /* magic + u64 count */
#define BUNDLE_ENTRY_MIN 25     /* three u64 + an id of at least one byte */
/* Compressed bundles (clang --offload-compress) start with "CCOB". */
#define CCOB_MAGIC "CCOB"

/* Device targets seen, for the "no gfx10.3 entry" message. */
typedef struct target_list {
	char s[256];
	bool truncated;
} target_list;

static void target_list_add(target_list *t, const char *name)
{
	size_t len = strlen(t->s), n = strlen(name);
	/* skip exact duplicates: ", name," tokens */
	for (const char *p = t->s; (p = strstr(p, name)) != NULL; p += n) {
		bool start = p == t->s || p[-1] == ' ';
		bool end = p[n] == 0 || p[n] == ',';
		if (start && end)
			return;
	}
	if (len + n + 3 >= sizeof(t->s)) {
		t->truncated = true;
		return;
	}
	snprintf(t->s + len, sizeof(t->s) - len, "%s%s", len ? ", " : "", name);
}

/* Parses and checks the bundle at in[off] whose bytes may extend to
 * in[limit]. Sets *found and src when an entry is for the gfx10.3 family
 * (the first one wins); *end is the input offset just past the bundle. */
static xs_status parse_bundle(const uint8_t *in, size_t limit, size_t off, const char *where,
                              xs_codeobj_source *src, bool *found, size_t *end, target_list *t,
                              xs_err *e)
{
	const uint8_t *b = in + off;
	size_t n = limit - off;
	if (n < BUNDLE_HEADER)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "%soffload bundle at offset 0x%zx: header truncated (%zu bytes, needs %d)",
		                  where, off, n, BUNDLE_HEADER);
	uint64_t count = xs_codeobj_rd64(b + BUNDLE_MAGIC_LEN);
	if (count == 0)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "%soffload bundle at offset 0x%zx: number of entries is 0", where, off);
	/* Every entry takes at least BUNDLE_ENTRY_MIN header bytes: a count the
	 * bytes cannot hold is hostile, and this bounds the loop below. */
	if (count > XS_CODEOBJ_MAX_BUNDLE_ENTRIES || count > (n - BUNDLE_HEADER) / BUNDLE_ENTRY_MIN)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "%soffload bundle at offset 0x%zx: number of entries %llu is more than "
		                  "its %zu bytes can hold (limit %d)",
		                  where, off, (unsigned long long)count, n, XS_CODEOBJ_MAX_BUNDLE_ENTRIES);
	size_t pos = BUNDLE_HEADER;
	uint64_t last = BUNDLE_HEADER;
	for (uint64_t i = 0; i < count; i++) {
		if (!xs_codeobj_in_bounds(pos, 24, n))
			return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
			                  "%soffload bundle at offset 0x%zx: entry %llu header at bundle "
			                  "offset 0x%zx runs past the end (%zu bytes)",
			                  where, off, (unsigned long long)i, pos, n);
		uint64_t eoff = xs_codeobj_rd64(b + pos), esize = xs_codeobj_rd64(b + pos + 8);
		uint64_t idlen = xs_codeobj_rd64(b + pos + 16);
		if (idlen == 0 || idlen > XS_CODEOBJ_MAX_STRING)
			return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
			                  "%soffload bundle at offset 0x%zx: entry %llu id length %llu at bundle "
			                  "offset 0x%zx (must be 1..%d)",
			                  where, off, (unsigned long long)i, (unsigned long long)idlen, pos + 16,
			                  XS_CODEOBJ_MAX_STRING);
		if (!xs_codeobj_in_bounds(pos + 24, idlen, n))
			return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
			                  "%soffload bundle at offset 0x%zx: entry %llu id (%llu bytes at bundle "
			                  "offset 0x%zx) runs past the end (%zu bytes)",
			                  where, off, (unsigned long long)i, (unsigned long long)idlen, pos + 24, n);
		char id[XS_CODEOBJ_MAX_STRING + 1];
		memcpy(id, b + pos + 24, idlen);
		id[idlen] = 0;
		if (strlen(id) != idlen)
			return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
			                  "%soffload bundle at offset 0x%zx: entry %llu id at bundle offset 0x%zx "
			                  "contains a NUL byte",
			                  where, off, (unsigned long long)i, pos + 24);
		if (!xs_codeobj_in_bounds(eoff, esize, n))
			return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
			                  "%soffload bundle at offset 0x%zx: entry %llu ('%.100s'): offset 0x%llx "
			                  "+ size 0x%llx runs past the end of the bundle (%zu bytes)",
			                  where, off, (unsigned long long)i, id, (unsigned long long)eoff,
			                  (unsigned long long)esize, n);
		pos += 24 + (size_t)idlen;
		last = XS_MAX(last, eoff + esize);

		char kind[32], proc[64];
		bool amdhsa;
		if (!xs_codeobj_split_bundle_id(id, kind, sizeof(kind), &amdhsa, proc, sizeof(proc)))
			return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
			                  "%soffload bundle at offset 0x%zx: entry %llu id '%.100s' is not "
			                  "<kind>-<triple>-<target>",
			                  where, off, (unsigned long long)i, id);
		if (strcmp(kind, "host") == 0)
			continue;
		target_list_add(t, amdhsa && proc[0] ? proc : id);
		if (!*found && amdhsa && xs_codeobj_is_gfx103(proc)) {
			*found = true;
			src->offset = off + (size_t)eoff;
			src->size = (size_t)esize;
			snprintf(src->origin, sizeof(src->origin),
			         "%soffload bundle entry '%.100s' (bytes 0x%zx..0x%zx of the input)", where, id,
			         src->offset, src->offset + src->size);
		}
	}
	*end = off + (size_t)XS_MAX(last, (uint64_t)pos);
	return XS_OK;
}

static xs_status no_gfx103(const target_list *t, const char *what, xs_err *e)
{
	return xs_err_set(e, XS_E_UNSUPPORTED,
	                  "%s has no entry for the gfx10.3 family (gfx1030-gfx1036) that xs12 runs; "
	                  "targets present: %s%s",
	                  what, t->s[0] ? t->s : "none (host code only)", t->truncated ? ", ..." : "");
}

xs_status xs_codeobj_bundle_select(const uint8_t *in, size_t in_size, size_t bundle_off,
                                   xs_codeobj_source *src, xs_err *e)
{
	bool found = false;
	size_t end;
	target_list t = {{0}, false};
	xs_status s = parse_bundle(in, in_size, bundle_off, "", src, &found, &end, &t, e);
	if (s != XS_OK)
		return s;
	return found ? XS_OK : no_gfx103(&t, "the offload bundle", e);
}

/* ELF64 little-endian section header fields (System V gABI "Section Header"). */
#define SH_NAME 0
#define SH_TYPE 4
#define SH_OFFSET 24
#define SH_SIZE 32

xs_status xs_codeobj_fatbin_select(const uint8_t *in, size_t n, xs_codeobj_source *src, xs_err *e)
{
	unsigned machine = n >= 20 ? xs_codeobj_rd16(in + 18) : 0;
	if (n < 64)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "ELF header truncated: the input has %zu bytes, an ELF64 header needs 64", n);
	if (in[EI_CLASS] != ELFCLASS64 || in[EI_DATA] != ELFDATA2LSB)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "ELF e_machine %u is not EM_AMDGPU (%d), and as a host ELF it is not "
		                  "ELFCLASS64 little-endian (EI_CLASS %u, EI_DATA %u)",
		                  machine, XS_EM_AMDGPU, in[EI_CLASS], in[EI_DATA]);
	uint64_t shoff = xs_codeobj_rd64(in + 0x28);
	unsigned shentsize = xs_codeobj_rd16(in + 0x3a), shnum = xs_codeobj_rd16(in + 0x3c);
	unsigned shstrndx = xs_codeobj_rd16(in + 0x3e);
	if (shnum == 0)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "ELF e_machine %u is not EM_AMDGPU (%d) and it has no section headers, so "
		                  "no .hip_fatbin section",
		                  machine, XS_EM_AMDGPU);
	if (shentsize < 64)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "host ELF (e_machine %u): e_shentsize %u is less than 64", machine, shentsize);
	if (!xs_codeobj_in_bounds(shoff, (uint64_t)shnum * shentsize, n))
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "host ELF (e_machine %u): e_shoff 0x%llx + %u section headers of %u bytes "
		                  "runs past the end of the input (%zu bytes)",
		                  machine, (unsigned long long)shoff, shnum, shentsize, n);
	if (shstrndx >= shnum)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "host ELF (e_machine %u): e_shstrndx %u is not below e_shnum %u", machine,
		                  shstrndx, shnum);
	const uint8_t *strh = in + shoff + (uint64_t)shstrndx * shentsize;
	uint64_t str_off = xs_codeobj_rd64(strh + SH_OFFSET), str_size = xs_codeobj_rd64(strh + SH_SIZE);
	if (!xs_codeobj_in_bounds(str_off, str_size, n))
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "host ELF (e_machine %u): section name table [%u]: offset 0x%llx + size "
		                  "0x%llx runs past the end of the input (%zu bytes)",
		                  machine, shstrndx, (unsigned long long)str_off, (unsigned long long)str_size, n);
	static const char want[] = ".hip_fatbin";
	for (unsigned i = 1; i < shnum; i++) {
		const uint8_t *sh = in + shoff + (uint64_t)i * shentsize;
		uint32_t name = xs_codeobj_rd32(sh + SH_NAME);
		if (!xs_codeobj_in_bounds(name, sizeof(want), str_size) ||
		    memcmp(in + str_off + name, want, sizeof(want)) != 0)
			continue;
		uint64_t off = xs_codeobj_rd64(sh + SH_OFFSET), size = xs_codeobj_rd64(sh + SH_SIZE);
		if (xs_codeobj_rd32(sh + SH_TYPE) == SHT_NOBITS || !xs_codeobj_in_bounds(off, size, n))
			return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
			                  "host ELF section [%u] .hip_fatbin: offset 0x%llx + size 0x%llx is not "
			                  "inside the input (%zu bytes)",
			                  i, (unsigned long long)off, (unsigned long long)size, n);
		const uint8_t *sec = in + off;
		if (size >= 4 && memcmp(sec, CCOB_MAGIC, 4) == 0)
			return xs_err_set(e, XS_E_UNSUPPORTED,
			                  "host ELF section .hip_fatbin (offset 0x%llx) holds a compressed offload "
			                  "bundle (CCOB); rebuild without --offload-compress",
			                  (unsigned long long)off);
		if (size < BUNDLE_MAGIC_LEN || memcmp(sec, BUNDLE_MAGIC, BUNDLE_MAGIC_LEN) != 0)
			return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
			                  "host ELF section .hip_fatbin (offset 0x%llx, 0x%llx bytes) does not "
			                  "start with " BUNDLE_MAGIC,
			                  (unsigned long long)off, (unsigned long long)size);
		char where[64];
		snprintf(where, sizeof(where), "host ELF section .hip_fatbin: ");
		target_list t = {{0}, false};
		size_t pos = (size_t)off, limit = (size_t)(off + size);
		unsigned nbundles = 0;
		for (;;) {
			bool found = false;
			size_t end;
			xs_status s = parse_bundle(in, limit, pos, where, src, &found, &end, &t, e);
			if (s != XS_OK)
				return s;
			nbundles++;
			if (found)
				return XS_OK;
			/* end > pos always (a bundle has at least its header), so this terminates */
			const uint8_t *next = end < limit ? memmem(in + end, limit - end, BUNDLE_MAGIC,
			                                           BUNDLE_MAGIC_LEN)
			                                  : NULL;
			if (!next)
				break;
			pos = (size_t)(next - in);
		}
		char what[96];
		snprintf(what, sizeof(what), "host ELF section .hip_fatbin (%u offload bundle%s)", nbundles,
		         nbundles == 1 ? "" : "s");
		return no_gfx103(&t, what, e);
	}
	return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
	                  "ELF e_machine %u is not EM_AMDGPU (%d) and it has no .hip_fatbin section: not an "
	                  "AMDGPU code object",
	                  machine, XS_EM_AMDGPU);
}
