/*
 * Broken, truncated and hostile code objects: each test damages a real code
 * object (or builds a bundle / metadata by hand) and asserts the specific
 * error: its status and a substring naming the field, section or offset.
 * Ends with a deterministic fuzz loop that must never crash or hang.
 *
 * The damage is placed with a small ELF walker of this file's own (<elf.h>
 * structs), independent of the loader under test.
 *
 * argv: vadd.O2.w32.hsaco vadd.gfx90a.hsaco bundle.gfx90a_gfx1030.co
 *       bundle.gfx90a.co reloc.relative.hsaco reloc.abs.hsaco [saxpy.hip.host.o]
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <msgpack.h>

#include "codeobj/xs_codeobj.h"
#include "codeobj/xs_codeobj_priv.h"

enum { F_VADD, F_GFX90A, F_BUNDLE2, F_BUNDLE90A, F_RELOC_REL, F_RELOC_ABS, F_HIPHOST, F_COUNT };
static const char *g_path[F_COUNT];

typedef struct buf {
	uint8_t *p;
	size_t n;
} buf;

static buf load(int which)
{
	buf b = {0};
	xs_err e;
	assert_non_null(g_path[which]);
	assert_int_equal(xs_read_file(g_path[which], 1u << 28, &b.p, &b.n, &e), XS_OK);
	return b;
}

static buf bdup(buf b, size_t extra)
{
	buf c = {malloc(b.n + extra), b.n};
	assert_non_null(c.p);
	memcpy(c.p, b.p, b.n);
	memset(c.p + b.n, 0, extra);
	return c;
}

/* Parses; asserts the status and that the message contains each substring. */
static void expect(const uint8_t *p, size_t n, xs_status want, ...)
{
	xs_err e;
	xs_err_clear(&e);
	xs_codeobj *co = (xs_codeobj *)1;
	xs_status s = xs_codeobj_parse(p, n, &co, &e);
	if (s != want)
		fail_msg("status %d, wanted %d; message: %s", s, want, e.msg);
	if (want == XS_OK) {
		xs_codeobj_free(co);
		return;
	}
	assert_null(co);
	va_list ap;
	va_start(ap, want);
	for (const char *sub; (sub = va_arg(ap, const char *)) != NULL;)
		if (!strstr(e.msg, sub))
			fail_msg("message lacks \"%s\": %s", sub, e.msg);
	va_end(ap);
}
#define EXPECT(b, st, ...) expect((b).p, (b).n, st, __VA_ARGS__, (const char *)NULL)

/* ---- a minimal ELF64 walker (test-side) -------------------------------------- */

static Elf64_Ehdr get_ehdr(buf b)
{
	Elf64_Ehdr h;
	memcpy(&h, b.p, sizeof(h));
	return h;
}

static size_t shdr_at(buf b, unsigned i)
{
	return get_ehdr(b).e_shoff + (size_t)i * sizeof(Elf64_Shdr);
}

static Elf64_Shdr get_shdr(buf b, unsigned i)
{
	Elf64_Shdr s;
	memcpy(&s, b.p + shdr_at(b, i), sizeof(s));
	return s;
}

static void put_shdr(buf b, unsigned i, const Elf64_Shdr *s)
{
	memcpy(b.p + shdr_at(b, i), s, sizeof(*s));
}

static unsigned sec_index(buf b, const char *name)
{
	Elf64_Ehdr h = get_ehdr(b);
	Elf64_Shdr str = get_shdr(b, h.e_shstrndx);
	for (unsigned i = 1; i < h.e_shnum; i++)
		if (strcmp((const char *)b.p + str.sh_offset + get_shdr(b, i).sh_name, name) == 0)
			return i;
	fail_msg("no section %s", name);
	return 0;
}

/* Symbol of a table section (".symtab" / ".dynsym"): its index and copy. */
static unsigned sym_index(buf b, const char *table, const char *name, Elf64_Sym *out)
{
	Elf64_Shdr t = get_shdr(b, sec_index(b, table)), str = get_shdr(b, t.sh_link);
	for (unsigned j = 1; j < t.sh_size / sizeof(Elf64_Sym); j++) {
		memcpy(out, b.p + t.sh_offset + j * sizeof(Elf64_Sym), sizeof(*out));
		if (strcmp((const char *)b.p + str.sh_offset + out->st_name, name) == 0)
			return j;
	}
	fail_msg("no symbol %s in %s", name, table);
	return 0;
}

static size_t vaddr_to_off(buf b, uint64_t vaddr)
{
	Elf64_Ehdr h = get_ehdr(b);
	for (unsigned i = 1; i < h.e_shnum; i++) {
		Elf64_Shdr s = get_shdr(b, i);
		if ((s.sh_flags & SHF_ALLOC) && s.sh_type != SHT_NOBITS && vaddr >= s.sh_addr &&
		    vaddr < s.sh_addr + s.sh_size)
			return s.sh_offset + (vaddr - s.sh_addr);
	}
	fail_msg("vaddr 0x%llx is in no section", (unsigned long long)vaddr);
	return 0;
}

/* File offset of the descriptor vadd.kd. */
static size_t kd_off(buf b, const char *sym)
{
	Elf64_Sym s;
	sym_index(b, ".symtab", sym, &s);
	return vaddr_to_off(b, s.st_value);
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* ---- good inputs --------------------------------------------------------------- */

static void test_good_vadd(void **state)
{
	buf b = load(F_VADD);
	xs_err e;
	xs_codeobj *co;
	assert_int_equal(xs_codeobj_parse(b.p, b.n, &co, &e), XS_OK);
	const xs_codeobj_kernel *k = xs_codeobj_find(co, "vadd");
	assert_non_null(k);
	assert_null(xs_codeobj_find(co, "vad"));
	assert_string_equal(co->processor, "gfx1030");
	assert_int_equal(k->info.num_args, 11);
	assert_int_equal(k->info.args[3].kind, XS_ARG_BY_VALUE);
	assert_int_equal(k->info.args[4].kind, XS_ARG_HIDDEN);
	assert_true(xs_codeobj_is_gfx103("gfx1036"));
	assert_false(xs_codeobj_is_gfx103("gfx1037"));
	assert_false(xs_codeobj_is_gfx103("gfx103"));
	xs_codeobj_free(co);
	free(b.p);
}

static void test_hip_host_object(void **state)
{
	if (!g_path[F_HIPHOST])
		skip();
	buf b = load(F_HIPHOST);
	xs_err e;
	xs_codeobj *co;
	if (xs_codeobj_parse(b.p, b.n, &co, &e) != XS_OK)
		fail_msg("%s", e.msg);
	assert_int_not_equal(get_ehdr(b).e_machine, XS_EM_AMDGPU);  /* really a host ELF */
	const xs_codeobj_kernel *k = xs_codeobj_find(co, "saxpy");
	assert_non_null(k);
	assert_string_equal(co->processor, "gfx1030");
	assert_int_equal(k->info.num_args, 4);
	xs_codeobj_free(co);
	free(b.p);
}

/* ---- truncation ------------------------------------------------------------------ */

static void test_truncated_everywhere(void **state)
{
	buf b = load(F_VADD);
	Elf64_Ehdr h = get_ehdr(b);
	size_t note = get_shdr(b, sec_index(b, ".note")).sh_offset;
	size_t kd = kd_off(b, "vadd.kd");
	/* named cut points: inside the ELF header, the program headers, the note,
	 * the descriptor, the section header table */
	expect(b.p, 40, XS_E_BAD_CODE_OBJECT, "ELF header truncated", "40 bytes", NULL);
	expect(b.p, h.e_phoff + 60, XS_E_BAD_CODE_OBJECT, "program header table", "e_phoff", NULL);
	expect(b.p, note + 20, XS_E_BAD_CODE_OBJECT, "section header table", "e_shoff", NULL);
	expect(b.p, kd + 8, XS_E_BAD_CODE_OBJECT, "section header table", "e_shoff", NULL);
	expect(b.p, h.e_shoff + 100, XS_E_BAD_CODE_OBJECT, "section header table", NULL);
	/* and every other length */
	for (size_t n = 0; n < b.n; n++) {
		xs_err e;
		xs_codeobj *co;
		xs_status s = xs_codeobj_parse(b.p, n, &co, &e);
		if (s != XS_E_BAD_CODE_OBJECT || e.msg[0] == 0 || co)
			fail_msg("cut at %zu: status %d, message '%s'", n, s, e.msg);
	}
	free(b.p);
}

/* ---- section table and sections ------------------------------------------------- */

static void test_shoff_beyond_end(void **state)
{
	buf b = load(F_VADD);
	put64(b.p + offsetof(Elf64_Ehdr, e_shoff), b.n);
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "e_shoff", "runs past the end");
	put64(b.p + offsetof(Elf64_Ehdr, e_shoff), UINT64_MAX - 10);  /* wraps */
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "e_shoff 0xfffffffffffffff5");
	free(b.p);
}

static void test_section_offset_beyond_end(void **state)
{
	buf b = load(F_VADD);
	unsigned i = sec_index(b, ".note");
	Elf64_Shdr s = get_shdr(b, i);
	s.sh_offset = b.n + 16;
	put_shdr(b, i, &s);
	char want[64];
	snprintf(want, sizeof(want), "section [%u] '.note'", i);
	EXPECT(b, XS_E_BAD_CODE_OBJECT, want, "runs past the end of the image");
	free(b.p);
}

static void test_section_size_overflow(void **state)
{
	buf b = load(F_VADD);
	unsigned i = sec_index(b, ".rodata");
	Elf64_Shdr s = get_shdr(b, i);
	s.sh_size = UINT64_MAX - 0x100;  /* offset + size wraps around */
	put_shdr(b, i, &s);
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "'.rodata'", "size 0xfffffffffffffeff");
	free(b.p);
}

static void test_symtab_entsize(void **state)
{
	buf b = load(F_VADD);
	unsigned i = sec_index(b, ".dynsym");
	Elf64_Shdr s = get_shdr(b, i);
	s.sh_size -= 5;
	put_shdr(b, i, &s);
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "'.dynsym'", "24-byte entries");
	free(b.p);
}

static void test_segment_beyond_end(void **state)
{
	buf b = load(F_VADD);
	Elf64_Ehdr h = get_ehdr(b);
	for (unsigned i = 0; i < h.e_phnum; i++) {
		Elf64_Phdr ph;
		memcpy(&ph, b.p + h.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		ph.p_filesz = b.n;  /* offset + filesz beyond the end */
		ph.p_memsz = b.n;
		memcpy(b.p + h.e_phoff + i * sizeof(ph), &ph, sizeof(ph));
		char want[64];
		snprintf(want, sizeof(want), "program header %u (PT_LOAD)", i);
		EXPECT(b, XS_E_BAD_CODE_OBJECT, want, "p_filesz");
		free(b.p);
		return;
	}
	fail_msg("no executable PT_LOAD");
}

/* ---- header: machine, target, version --------------------------------------------- */

static void test_wrong_machine(void **state)
{
	buf b = load(F_VADD);
	uint16_t m = EM_X86_64;
	memcpy(b.p + offsetof(Elf64_Ehdr, e_machine), &m, 2);
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "e_machine 62", "no .hip_fatbin");
	free(b.p);
}

static void test_other_target_compiled(void **state)
{
	buf b = load(F_GFX90A);
	EXPECT(b, XS_E_UNSUPPORTED, "code object is for gfx90a", "gfx10.3 family (gfx1030-gfx1036)");
	free(b.p);
}

static void test_other_target_patched(void **state)
{
	buf b = load(F_VADD);
	put32(b.p + offsetof(Elf64_Ehdr, e_flags), 0x41);  /* EF_AMDGPU_MACH_AMDGCN_GFX1100 */
	EXPECT(b, XS_E_UNSUPPORTED, "gfx1100");
	put32(b.p + offsetof(Elf64_Ehdr, e_flags), 0xee);  /* not a known processor */
	EXPECT(b, XS_E_UNSUPPORTED, "unknown processor", "0xee");
	free(b.p);
}

static void test_target_disagreement(void **state)
{
	buf b = load(F_VADD);
	/* gfx1031 is in the family, but the metadata says gfx1030 */
	put32(b.p + offsetof(Elf64_Ehdr, e_flags), 0x37);
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "amdhsa.target 'amdgcn-amd-amdhsa--gfx1030'",
	       "names gfx1030 but e_flags name gfx1031");
	free(b.p);
}

static void test_code_object_versions(void **state)
{
	buf b = load(F_VADD);
	b.p[EI_ABIVERSION] = 1;
	EXPECT(b, XS_E_UNSUPPORTED, "code object v3", "EI_ABIVERSION 1");
	b.p[EI_ABIVERSION] = 4;
	EXPECT(b, XS_E_UNSUPPORTED, "code object v6");
	b.p[EI_ABIVERSION] = 2;
	b.p[EI_OSABI] = 65;
	EXPECT(b, XS_E_UNSUPPORTED, "EI_OSABI 65", "AMDGPU_PAL");
	b.p[EI_OSABI] = 64;
	b.p[EI_CLASS] = ELFCLASS32;
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "EI_CLASS 1");
	b.p[EI_CLASS] = ELFCLASS64;
	uint16_t t = ET_REL;
	memcpy(b.p + offsetof(Elf64_Ehdr, e_type), &t, 2);
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "ET_REL", "ld.lld -shared");
	free(b.p);
}

/* ---- symbols and descriptors ------------------------------------------------------- */

static void rename_in(buf b, const char *sec, const char *from, const char *to)
{
	Elf64_Shdr s = get_shdr(b, sec_index(b, sec));
	uint8_t *p = b.p + s.sh_offset, *end = p + s.sh_size;
	size_t n = strlen(from) + 1;
	int hits = 0;
	while ((p = memmem(p, (size_t)(end - p), from, n)) != NULL) {
		memcpy(p, to, n);
		p += n;
		hits++;
	}
	assert_true(hits > 0);
}

static void test_missing_kd(void **state)
{
	buf b = load(F_VADD);
	rename_in(b, ".strtab", "vadd.kd", "vadd.kx");
	rename_in(b, ".dynstr", "vadd.kd", "vadd.kx");
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "kernel 'vadd'", "descriptor symbol 'vadd.kd'", "not defined");
	free(b.p);
}

static void test_kd_outside_segments(void **state)
{
	buf b = load(F_VADD);
	Elf64_Sym s;
	const char *tables[] = {".symtab", ".dynsym"};
	for (int t = 0; t < 2; t++) {
		unsigned j = sym_index(b, tables[t], "vadd.kd", &s);
		Elf64_Shdr sh = get_shdr(b, sec_index(b, tables[t]));
		s.st_value = 0x100000;  /* 64-byte aligned, in no PT_LOAD */
		memcpy(b.p + sh.sh_offset + j * sizeof(s), &s, sizeof(s));
	}
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "descriptor 'vadd.kd' at 0x100000", "PT_LOAD");
	free(b.p);
}

static void test_meta_kd_mismatch(void **state)
{
	buf b = load(F_VADD);
	size_t kd = kd_off(b, "vadd.kd");
	buf c = bdup(b, 0);
	c.p[kd + XS_KD_GROUP_SEGMENT_FIXED_SIZE] = 16;
	EXPECT(c, XS_E_BAD_CODE_OBJECT, "kernel 'vadd'", "group_segment_fixed_size",
	       "metadata says 0", "descriptor vadd.kd says 16");
	memcpy(c.p, b.p, b.n);
	c.p[kd + XS_KD_PRIVATE_SEGMENT_FIXED_SIZE] = 32;
	EXPECT(c, XS_E_BAD_CODE_OBJECT, "private_segment_fixed_size", "says 32");
	memcpy(c.p, b.p, b.n);
	put32(c.p + kd + XS_KD_KERNARG_SIZE, 96);
	EXPECT(c, XS_E_BAD_CODE_OBJECT, "kernarg_size", "metadata says 88", "says 96");
	memcpy(c.p, b.p, b.n);
	c.p[kd + XS_KD_KERNEL_CODE_PROPERTIES + 1] ^= XS_KCP_ENABLE_WAVEFRONT_SIZE32 >> 8;
	EXPECT(c, XS_E_BAD_CODE_OBJECT, "wavefront_size", "metadata says 32", "says 64");
	free(c.p);
	free(b.p);
}

static void test_bad_entry(void **state)
{
	buf b = load(F_VADD);
	size_t kd = kd_off(b, "vadd.kd");
	uint64_t off = get64(b.p + kd + XS_KD_KERNEL_CODE_ENTRY_BYTE_OFFSET);
	put64(b.p + kd + XS_KD_KERNEL_CODE_ENTRY_BYTE_OFFSET, off + 4);
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "256-byte aligned", "kernel_code_entry_byte_offset");
	Elf64_Sym s;
	sym_index(b, ".symtab", "vadd.kd", &s);
	/* entry = 0: aligned, but in the read-only first segment */
	put64(b.p + kd + XS_KD_KERNEL_CODE_ENTRY_BYTE_OFFSET, (uint64_t) - (int64_t)s.st_value);
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "entry 0x0", "not inside an executable PT_LOAD");
	put64(b.p + kd + XS_KD_KERNEL_CODE_ENTRY_BYTE_OFFSET, (uint64_t)INT64_MIN);
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "leaves the address space");
	free(b.p);
}

/* ---- the metadata note ------------------------------------------------------------ */

static void test_note_descsz(void **state)
{
	buf b = load(F_VADD);
	Elf64_Shdr s = get_shdr(b, sec_index(b, ".note"));
	put32(b.p + s.sh_offset + 4, (uint32_t)s.sh_size);  /* descsz of the first note */
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "'.note'", "descsz", "run past the end of the section");
	/* an owner other than AMDGPU: no metadata note left */
	buf c = load(F_VADD);
	memcpy(c.p + s.sh_offset + 12, "AMDGPX", 6);
	EXPECT(c, XS_E_BAD_CODE_OBJECT, "no NT_AMDGPU_METADATA note");
	free(c.p);
	free(b.p);
}

/* Metadata parser driven directly with msgpack built here. */
static xs_status meta(const void *p, size_t n, xs_err *e)
{
	xs_codeobj *co = calloc(1, sizeof(*co));
	assert_non_null(co);
	xs_err_clear(e);
	xs_status s = xs_codeobj_meta_parse(p, n, 0x200, co, e);
	if (s == XS_OK && co->nkernels) {
		/* kinds as the issue maps them */
		const xs_codeobj_kernel *k = &co->kernels[0];
		assert_int_equal(k->info.num_args, 4);
		assert_int_equal(k->info.args[0].kind, XS_ARG_DYNAMIC_SHARED_POINTER);
		assert_int_equal(k->info.args[1].kind, XS_ARG_OTHER);
		assert_int_equal(k->info.args[2].kind, XS_ARG_HIDDEN);
		assert_int_equal(k->info.args[3].kind, XS_ARG_OTHER);
		assert_string_equal(k->info.args[0].name, "lds");
		assert_string_equal(k->arg_address_space[0], "local");
		assert_string_equal(k->symbol, "k.kd");
	}
	xs_codeobj_free(co);
	return s;
}

static void pk_str(msgpack_packer *pk, const char *s)
{
	msgpack_pack_str(pk, strlen(s));
	msgpack_pack_str_body(pk, s, strlen(s));
}

/* A metadata document with one kernel; `drop` omits a kernel key, the
 * overrides change values. */
typedef struct meta_opts {
	const char *drop;
	uint64_t arg3_offset, wave, kernarg;
	const char *target;
} meta_opts;

static msgpack_sbuffer build_meta(meta_opts o)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 3);
	pk_str(&pk, "amdhsa.version");
	msgpack_pack_array(&pk, 2);
	msgpack_pack_uint32(&pk, 1);
	msgpack_pack_uint32(&pk, 1);
	pk_str(&pk, "amdhsa.target");
	pk_str(&pk, o.target ? o.target : "amdgcn-amd-amdhsa--gfx1030");
	pk_str(&pk, "amdhsa.kernels");
	msgpack_pack_array(&pk, 1);
	static const char *keys[] = {".name", ".symbol", ".group_segment_fixed_size",
	                             ".private_segment_fixed_size", ".kernarg_segment_size",
	                             ".kernarg_segment_align", ".wavefront_size", ".sgpr_count",
	                             ".vgpr_count", ".max_flat_workgroup_size", ".args"};
	size_t nkeys = sizeof(keys) / sizeof(keys[0]);
	msgpack_pack_map(&pk, nkeys - (o.drop ? 1 : 0));
	for (size_t i = 0; i < nkeys; i++) {
		if (o.drop && strcmp(o.drop, keys[i]) == 0)
			continue;
		pk_str(&pk, keys[i]);
		if (i == 0)
			pk_str(&pk, "k");
		else if (i == 1)
			pk_str(&pk, "k.kd");
		else if (i == 4)
			msgpack_pack_uint64(&pk, o.kernarg ? o.kernarg : 32);
		else if (i == 6)
			msgpack_pack_uint64(&pk, o.wave ? o.wave : 32);
		else if (i == 5)
			msgpack_pack_uint32(&pk, 8);
		else if (i < 10)
			msgpack_pack_uint32(&pk, 0);
		else {
			static const char *vk[] = {"dynamic_shared_pointer", "image", "hidden_multigrid_sync_arg",
			                           "hiddenx"};
			msgpack_pack_array(&pk, 4);
			for (int a = 0; a < 4; a++) {
				msgpack_pack_map(&pk, a == 0 ? 5 : 3);
				if (a == 0) {
					pk_str(&pk, ".name");
					pk_str(&pk, "lds");
					pk_str(&pk, ".address_space");
					pk_str(&pk, "local");
				}
				pk_str(&pk, ".offset");
				msgpack_pack_uint64(&pk, a == 3 && o.arg3_offset ? o.arg3_offset : 8u * a);
				pk_str(&pk, ".size");
				msgpack_pack_uint32(&pk, 8);
				pk_str(&pk, ".value_kind");
				pk_str(&pk, vk[a]);
			}
		}
	}
	return sb;
}

static void expect_meta(meta_opts o, xs_status want, const char *sub)
{
	msgpack_sbuffer sb = build_meta(o);
	xs_err e;
	xs_status s = meta(sb.data, sb.size, &e);
	msgpack_sbuffer_destroy(&sb);
	if (s != want || (sub && !strstr(e.msg, sub)))
		fail_msg("status %d (wanted %d), message '%s' (wanted '%s')", s, want, e.msg,
		         sub ? sub : "");
}

static void test_metadata_fields(void **state)
{
	expect_meta((meta_opts){0}, XS_OK, NULL);
	expect_meta((meta_opts){.drop = ".symbol"}, XS_E_BAD_CODE_OBJECT, "kernel 0 'k': .symbol is missing");
	expect_meta((meta_opts){.drop = ".kernarg_segment_size"}, XS_E_BAD_CODE_OBJECT,
	            ".kernarg_segment_size is missing");
	expect_meta((meta_opts){.drop = ".name"}, XS_E_BAD_CODE_OBJECT, "amdhsa.kernels[0]: .name is missing");
	expect_meta((meta_opts){.arg3_offset = 28}, XS_E_BAD_CODE_OBJECT,
	            "kernel 0 'k' .args[3]: .offset 28 + .size 8 is beyond .kernarg_segment_size 32");
	expect_meta((meta_opts){.wave = 48}, XS_E_BAD_CODE_OBJECT, ".wavefront_size 48 is neither");
	expect_meta((meta_opts){.kernarg = 1ull << 32}, XS_E_BAD_CODE_OBJECT,
	            ".kernarg_segment_size = 4294967296 does not fit in 32 bits");
	char longt[5000];
	memset(longt, 'a', sizeof(longt) - 1);
	longt[sizeof(longt) - 1] = 0;
	expect_meta((meta_opts){.target = longt}, XS_E_BAD_CODE_OBJECT, "amdhsa.target is 4999 bytes long");
}

static void test_metadata_hostile_msgpack(void **state)
{
	xs_err e;
	/* {"amdhsa.kernels": array32 of 2^32-1 elements} in 21 bytes */
	uint8_t huge[] = {0x81, 0xae, 'a', 'm', 'd', 'h', 's', 'a', '.', 'k', 'e', 'r', 'n', 'e', 'l', 's',
	                  0xdd, 0xff, 0xff, 0xff, 0xff};
	assert_int_equal(meta(huge, sizeof(huge), &e), XS_E_BAD_CODE_OBJECT);
	assert_non_null(strstr(e.msg, "claims 4294967295 elements"));
	/* nested 100 deep */
	uint8_t deep[101];
	memset(deep, 0x91, 100);
	deep[100] = 0xc0;
	assert_int_equal(meta(deep, sizeof(deep), &e), XS_E_BAD_CODE_OBJECT);
	assert_non_null(strstr(e.msg, "nest deeper than"));
	/* a string longer than the note */
	uint8_t str[] = {0xdb, 0x7f, 0xff, 0xff, 0xff, 'x'};
	assert_int_equal(meta(str, sizeof(str), &e), XS_E_BAD_CODE_OBJECT);
	assert_non_null(strstr(e.msg, "payload bytes, past the end"));
	/* trailing bytes, reserved type byte, not a map */
	uint8_t trail[] = {0x80, 0x00};
	assert_int_equal(meta(trail, sizeof(trail), &e), XS_E_BAD_CODE_OBJECT);
	assert_non_null(strstr(e.msg, "1 trailing bytes"));
	uint8_t c1[] = {0xc1};
	assert_int_equal(meta(c1, sizeof(c1), &e), XS_E_BAD_CODE_OBJECT);
	assert_non_null(strstr(e.msg, "invalid type byte 0xc1 at byte 0"));
	uint8_t arr[] = {0x90};
	assert_int_equal(meta(arr, sizeof(arr), &e), XS_E_BAD_CODE_OBJECT);
	assert_non_null(strstr(e.msg, "the root is a array, not a map"));
	/* more kernels than the limit: 4097 nils */
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 3);
	pk_str(&pk, "amdhsa.version");
	msgpack_pack_array(&pk, 2);
	msgpack_pack_uint32(&pk, 1);
	msgpack_pack_uint32(&pk, 2);
	pk_str(&pk, "amdhsa.target");
	pk_str(&pk, "amdgcn-amd-amdhsa--gfx1030");
	pk_str(&pk, "amdhsa.kernels");
	msgpack_pack_array(&pk, XS_CODEOBJ_MAX_KERNELS + 1);
	for (int i = 0; i <= XS_CODEOBJ_MAX_KERNELS; i++)
		msgpack_pack_nil(&pk);
	assert_int_equal(meta(sb.data, sb.size, &e), XS_E_BAD_CODE_OBJECT);
	assert_non_null(strstr(e.msg, "amdhsa.kernels has 4097 entries (limit 4096)"));
	msgpack_sbuffer_destroy(&sb);
}

/* ---- relocations --------------------------------------------------------------------- */

static size_t rela_off(buf b, unsigned j)
{
	Elf64_Shdr s = get_shdr(b, sec_index(b, ".rela.dyn"));
	assert_true(j < s.sh_size / sizeof(Elf64_Rela));
	return s.sh_offset + j * sizeof(Elf64_Rela);
}

static void test_relocations(void **state)
{
	buf b = load(F_RELOC_REL);
	xs_err e;
	xs_codeobj *co;
	assert_int_equal(xs_codeobj_parse(b.p, b.n, &co, &e), XS_OK);
	assert_int_equal(co->nrelocs, 2);
	xs_codeobj_free(co);

	/* R_AMDGPU_REL64 (5) is not a dynamic relocation */
	size_t r = rela_off(b, 1);
	Elf64_Rela rel;
	memcpy(&rel, b.p + r, sizeof(rel));
	buf c = bdup(b, 0);
	put64(c.p + r + offsetof(Elf64_Rela, r_info), ELF64_R_INFO(0, 5));
	char want[96];
	snprintf(want, sizeof(want), "relocation type 5 (R_AMDGPU_REL64) at offset 0x%llx",
	         (unsigned long long)rel.r_offset);
	EXPECT(c, XS_E_UNSUPPORTED, "'.rela.dyn' entry 1", want);
	/* R_AMDGPU_NONE is ignored */
	put64(c.p + r + offsetof(Elf64_Rela, r_info), ELF64_R_INFO(0, 0));
	assert_int_equal(xs_codeobj_parse(c.p, c.n, &co, &e), XS_OK);
	assert_int_equal(co->nrelocs, 1);
	xs_codeobj_free(co);
	/* writing outside every segment */
	memcpy(c.p, b.p, b.n);
	put64(c.p + r + offsetof(Elf64_Rela, r_offset), 0x7ffffff0);
	EXPECT(c, XS_E_BAD_CODE_OBJECT, "R_AMDGPU_RELATIVE64 at offset 0x7ffffff0",
	       "outside every PT_LOAD");
	free(c.p);
	free(b.p);

	/* R_AMDGPU_ABS64: S + A, and an error against an undefined symbol */
	b = load(F_RELOC_ABS);
	assert_int_equal(xs_codeobj_parse(b.p, b.n, &co, &e), XS_OK);
	assert_int_equal(co->nrelocs, 3);
	Elf64_Sym tbl;
	unsigned ti = sym_index(b, ".dynsym", "tbl", &tbl);
	int found = 0;
	for (uint32_t i = 0; i < co->nrelocs; i++)
		found += co->relocs[i].value == tbl.st_value;
	assert_int_equal(found, 1);
	xs_codeobj_free(co);
	Elf64_Shdr ds = get_shdr(b, sec_index(b, ".dynsym"));
	tbl.st_shndx = SHN_UNDEF;
	memcpy(b.p + ds.sh_offset + ti * sizeof(tbl), &tbl, sizeof(tbl));
	EXPECT(b, XS_E_UNSUPPORTED, "R_AMDGPU_ABS64", "undefined symbol 'tbl'");
	free(b.p);
}

/* ---- offload bundles -------------------------------------------------------------------- */

typedef struct entry {
	const char *id;
	buf img;
} entry;

/* A bundle in clang-offload-bundler's layout, images 8-byte aligned. */
static buf make_bundle(const entry *es, int n)
{
	size_t hdr = 32;
	for (int i = 0; i < n; i++)
		hdr += 24 + strlen(es[i].id);
	size_t total = XS_ALIGN_UP(hdr, 8);
	for (int i = 0; i < n; i++)
		total += XS_ALIGN_UP(es[i].img.n, 8);
	buf b = {calloc(1, total), total};
	memcpy(b.p, "__CLANG_OFFLOAD_BUNDLE__", 24);
	put64(b.p + 24, (uint64_t)n);
	size_t pos = 32, data = XS_ALIGN_UP(hdr, 8);
	for (int i = 0; i < n; i++) {
		size_t l = strlen(es[i].id);
		put64(b.p + pos, data);
		put64(b.p + pos + 8, es[i].img.n);
		put64(b.p + pos + 16, l);
		memcpy(b.p + pos + 24, es[i].id, l);
		pos += 24 + l;
		if (es[i].img.n)
			memcpy(b.p + data, es[i].img.p, es[i].img.n);
		data += XS_ALIGN_UP(es[i].img.n, 8);
	}
	return b;
}

static void test_bundles(void **state)
{
	buf vadd = load(F_VADD), v90a = load(F_GFX90A), none = {NULL, 0};
	xs_err e;
	xs_codeobj *co;

	/* made by clang-offload-bundler: gfx90a first, gfx1030 second */
	buf b2 = load(F_BUNDLE2);
	assert_int_equal(xs_codeobj_parse(b2.p, b2.n, &co, &e), XS_OK);
	assert_string_equal(co->processor, "gfx1030");
	assert_non_null(xs_codeobj_find(co, "vadd"));
	xs_codeobj_free(co);
	/* entry 2's offset past the end */
	size_t id2 = 32 + 24 + strlen("host-x86_64-unknown-linux") + 24 +
	             strlen("hipv4-amdgcn-amd-amdhsa--gfx90a");
	put64(b2.p + id2, b2.n);
	EXPECT(b2, XS_E_BAD_CODE_OBJECT, "entry 2 ('hipv4-amdgcn-amd-amdhsa--gfx1030')",
	       "runs past the end of the bundle");
	free(b2.p);

	buf b90 = load(F_BUNDLE90A);
	EXPECT(b90, XS_E_UNSUPPORTED, "no entry for the gfx10.3 family", "targets present: gfx90a");
	free(b90.p);

	entry two[] = {{"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+", v90a},
	               {"hip-amdgcn-amd-amdhsa--gfx1100", v90a},
	               {"host-x86_64-unknown-linux", none}};
	buf b = make_bundle(two, 3);
	EXPECT(b, XS_E_UNSUPPORTED, "targets present: gfx90a, gfx1100");
	put64(b.p + 24, 1000000);
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "number of entries 1000000");
	put64(b.p + 24, 0);
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "number of entries is 0");
	put64(b.p + 24, 3);
	put64(b.p + 32 + 16, 1ull << 40);  /* id length */
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "entry 0 id length 1099511627776");
	free(b.p);
	expect((const uint8_t *)"__CLANG_OFFLOAD_BUNDLE__\1\0\0", 27, XS_E_BAD_CODE_OBJECT,
	       "header truncated", NULL);

	/* the first gfx10.3 entry wins; an error inside it names the entry */
	buf cut = {vadd.p, 40};
	entry bad[] = {{"hipv4-amdgcn-amd-amdhsa--gfx1030", cut}, {"hipv4-amdgcn-amd-amdhsa--gfx1031", vadd}};
	b = make_bundle(bad, 2);
	EXPECT(b, XS_E_BAD_CODE_OBJECT, "offload bundle entry 'hipv4-amdgcn-amd-amdhsa--gfx1030'",
	       "ELF header truncated");
	free(b.p);
	free(vadd.p);
	free(v90a.p);
}

/* A minimal x86-64 host ELF whose .hip_fatbin holds `fat`. */
static buf make_host_elf(buf fat)
{
	static const char shstr[] = "\0.hip_fatbin\0.shstrtab";
	size_t fat_off = 0x1000, str_off = fat_off + fat.n, sh_off = XS_ALIGN_UP(str_off + sizeof(shstr), 8);
	buf b = {calloc(1, sh_off + 3 * sizeof(Elf64_Shdr)), sh_off + 3 * sizeof(Elf64_Shdr)};
	Elf64_Ehdr h = {0};
	memcpy(h.e_ident, ELFMAG, SELFMAG);
	h.e_ident[EI_CLASS] = ELFCLASS64;
	h.e_ident[EI_DATA] = ELFDATA2LSB;
	h.e_ident[EI_VERSION] = EV_CURRENT;
	h.e_type = ET_REL;
	h.e_machine = EM_X86_64;
	h.e_version = EV_CURRENT;
	h.e_shoff = sh_off;
	h.e_ehsize = sizeof(h);
	h.e_shentsize = sizeof(Elf64_Shdr);
	h.e_shnum = 3;
	h.e_shstrndx = 2;
	memcpy(b.p, &h, sizeof(h));
	memcpy(b.p + fat_off, fat.p, fat.n);
	memcpy(b.p + str_off, shstr, sizeof(shstr));
	Elf64_Shdr s[3] = {{0}};
	s[1] = (Elf64_Shdr){.sh_name = 1, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC,
	                    .sh_offset = fat_off, .sh_size = fat.n, .sh_addralign = 4096};
	s[2] = (Elf64_Shdr){.sh_name = 13, .sh_type = SHT_STRTAB, .sh_offset = str_off,
	                    .sh_size = sizeof(shstr), .sh_addralign = 1};
	memcpy(b.p + sh_off, s, sizeof(s));
	return b;
}

static void test_hip_fatbin(void **state)
{
	buf vadd = load(F_VADD), v90a = load(F_GFX90A), none = {NULL, 0};
	entry e1[] = {{"host-x86_64-unknown-linux", none}, {"hipv4-amdgcn-amd-amdhsa--gfx90a", v90a}};
	entry e2[] = {{"host-x86_64-unknown-linux", none}, {"hipv4-amdgcn-amd-amdhsa--gfx1030", vadd}};
	buf a = make_bundle(e1, 2), c = make_bundle(e2, 2);
	/* two bundles, the second 4096-aligned as hipcc lays them out */
	size_t second = XS_ALIGN_UP(a.n, 4096);
	buf fat = {calloc(1, second + XS_MAX(a.n, c.n)), second + c.n};
	memcpy(fat.p, a.p, a.n);
	memcpy(fat.p + second, c.p, c.n);
	buf host = make_host_elf(fat);
	xs_err e;
	xs_codeobj *co;
	if (xs_codeobj_parse(host.p, host.n, &co, &e) != XS_OK)
		fail_msg("%s", e.msg);
	assert_non_null(xs_codeobj_find(co, "vadd"));
	assert_int_equal(co->image_size, vadd.n);
	assert_memory_equal(co->image, vadd.p, vadd.n);
	xs_codeobj_free(co);
	free(host.p);

	/* only the gfx90a bundle, twice */
	memcpy(fat.p + second, a.p, a.n);
	fat.n = second + a.n;
	host = make_host_elf(fat);
	EXPECT(host, XS_E_UNSUPPORTED, ".hip_fatbin (2 offload bundles)", "targets present: gfx90a");
	free(host.p);
	/* .hip_fatbin that is not a bundle */
	memset(fat.p, 'z', 32);
	host = make_host_elf(fat);
	EXPECT(host, XS_E_BAD_CODE_OBJECT, ".hip_fatbin", "does not start with __CLANG_OFFLOAD_BUNDLE__");
	free(host.p);
	free(fat.p);
	free(a.p);
	free(c.p);
	free(vadd.p);
	free(v90a.p);
}

/* ---- deterministic fuzzing ---------------------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

/* A successful parse must satisfy the loader's promises. */
static void check_invariants(const xs_codeobj *co)
{
	assert_true(co->nsegs > 0 && co->load_size % 4096 == 0);
	for (uint32_t i = 0; i < co->nsegs; i++) {
		const xs_codeobj_segment *s = &co->segs[i];
		assert_true(s->filesz <= s->memsz && s->offset + s->filesz <= co->image_size);
		assert_true(s->vaddr + s->memsz <= co->load_size);
	}
	for (uint32_t i = 0; i < co->nkernels; i++) {
		const xs_codeobj_kernel *k = &co->kernels[i];
		assert_ptr_equal(k->info.args, k->args);
		assert_true(k->entry_vaddr % 256 == 0 && k->entry_vaddr < co->load_size);
		assert_true(k->info.wavefront_size == 32 || k->info.wavefront_size == 64);
		for (uint32_t a = 0; a < k->info.num_args; a++)
			assert_true((uint64_t)k->args[a].offset + k->args[a].size <= k->info.kernarg_size);
	}
}

static void fuzz_one(const uint8_t *p, size_t n, unsigned *ok, unsigned *errs)
{
	xs_err e;
	xs_codeobj *co;
	xs_err_clear(&e);
	xs_status s = xs_codeobj_parse(p, n, &co, &e);
	if (s == XS_OK) {
		check_invariants(co);
		xs_codeobj_free(co);
		(*ok)++;
		return;
	}
	if ((s != XS_E_BAD_CODE_OBJECT && s != XS_E_UNSUPPORTED) || e.msg[0] == 0 || co)
		fail_msg("status %d, message '%s'", s, e.msg);
	(*errs)++;
}

static void fuzz_file(int which, unsigned iters, unsigned *ok, unsigned *errs)
{
	buf orig = load(which);
	buf m = bdup(orig, 0);
	Elf64_Ehdr h = get_ehdr(orig);
	bool elf = memcmp(orig.p, ELFMAG, SELFMAG) == 0;
	size_t note_off = 0, note_n = orig.n;
	if (elf) {  /* flips aimed at the metadata, or at the bundle of a host ELF */
		bool amdgpu = h.e_machine == XS_EM_AMDGPU;
		Elf64_Shdr s = get_shdr(orig, sec_index(orig, amdgpu ? ".note" : ".hip_fatbin"));
		note_off = s.sh_offset;
		note_n = s.sh_size;
	}
	static const uint64_t interesting[] = {0, 1, 0x7f, 0x80, 0xff, 0xffff, 0x7fffffff, 0xffffffff,
	                                       0x100000000ull, INT64_MAX, UINT64_MAX, 64, 4096};
	for (unsigned it = 0; it < iters; it++) {
		memcpy(m.p, orig.p, orig.n);
		size_t n = orig.n;
		unsigned kind = (unsigned)(rnd() % 6);
		unsigned flips = 1 + (unsigned)(rnd() % 8);
		for (unsigned f = 0; f < flips; f++) {
			size_t at;
			switch (kind) {
			case 0: at = rnd() % n; break;                                         /* anywhere */
			case 1: at = note_off + rnd() % note_n; break;                         /* metadata */
			case 2: at = rnd() % XS_MIN(n, XS_MAX(elf ? h.e_phoff + h.e_phnum * 56u : 0, 256u)); break;
			case 3: at = elf ? (h.e_shoff + rnd() % (h.e_shnum * 64u)) % n : rnd() % n; break;
			default: at = rnd() % n; break;
			}
			if (kind == 4) {  /* an interesting value in a random field */
				uint64_t v = interesting[rnd() % (sizeof(interesting) / sizeof(interesting[0]))];
				size_t w = (size_t)1 << (rnd() % 4);
				at &= ~(w - 1);
				if (at + w <= n)
					memcpy(m.p + at, &v, w);
			} else {
				m.p[at] ^= (uint8_t)(1 + rnd() % 255);
			}
		}
		if (kind == 5)
			n = rnd() % n;  /* truncation on top of the flips */
		fuzz_one(m.p, n, ok, errs);
	}
	free(m.p);
	free(orig.p);
}

static void test_fuzz(void **state)
{
	unsigned ok = 0, errs = 0;
	fuzz_file(F_VADD, 20000, &ok, &errs);
	fuzz_file(F_BUNDLE2, 5000, &ok, &errs);
	fuzz_file(F_RELOC_ABS, 5000, &ok, &errs);
	if (g_path[F_HIPHOST])
		fuzz_file(F_HIPHOST, 5000, &ok, &errs);
	print_message("fuzz: %u parsed, %u rejected with an error\n", ok, errs);
	assert_true(errs > 0 && ok > 0);  /* both outcomes were exercised */
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc && i <= F_COUNT; i++)
		g_path[i - 1] = argv[i];
	if (argc < 1 + F_HIPHOST) {
		fprintf(stderr, "usage: %s vadd.hsaco vadd.gfx90a.hsaco bundle2.co bundle90a.co "
		                "reloc.relative.hsaco reloc.abs.hsaco [hip_host.o]\n", argv[0]);
		return 2;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_vadd),
		cmocka_unit_test(test_hip_host_object),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_shoff_beyond_end),
		cmocka_unit_test(test_section_offset_beyond_end),
		cmocka_unit_test(test_section_size_overflow),
		cmocka_unit_test(test_symtab_entsize),
		cmocka_unit_test(test_segment_beyond_end),
		cmocka_unit_test(test_wrong_machine),
		cmocka_unit_test(test_other_target_compiled),
		cmocka_unit_test(test_other_target_patched),
		cmocka_unit_test(test_target_disagreement),
		cmocka_unit_test(test_code_object_versions),
		cmocka_unit_test(test_missing_kd),
		cmocka_unit_test(test_kd_outside_segments),
		cmocka_unit_test(test_meta_kd_mismatch),
		cmocka_unit_test(test_bad_entry),
		cmocka_unit_test(test_note_descsz),
		cmocka_unit_test(test_metadata_fields),
		cmocka_unit_test(test_metadata_hostile_msgpack),
		cmocka_unit_test(test_relocations),
		cmocka_unit_test(test_bundles),
		cmocka_unit_test(test_hip_fatbin),
		cmocka_unit_test(test_fuzz),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
