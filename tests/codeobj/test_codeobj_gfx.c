/* Malformed graphics shader objects: each gives XS_E_INVALID_ARG with a
 * message naming the problem, and no prefix of a valid object crashes
 * (xs_gfx_shader_parse, src/codeobj/xs_codeobj_gfx.h).
 * argv: PAL PS with relocations (lut_ps.pal), Mesa VS (color_vs.mesa), an
 * HSA code object (vadd). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codeobj/xs_codeobj_gfx.h"

static const char *g_pal, *g_mesa, *g_hsa;

typedef struct blob {
	uint8_t *p;
	size_t n;
} blob;

static blob load(const char *path)
{
	blob b = { 0 };
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	b.n = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	b.p = malloc(b.n);
	assert_int_equal(fread(b.p, 1, b.n, f), b.n);
	fclose(f);
	return b;
}

static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }

/* Section header (file offset) of the section called name. */
static uint8_t *shdr(blob *b, const char *name)
{
	uint64_t shoff = rd64(b->p + 40);
	unsigned shnum = rd16(b->p + 60), shstr = rd16(b->p + 62);
	uint64_t stroff = rd64(b->p + shoff + shstr * 64 + 24);
	for (unsigned i = 0; i < shnum; i++) {
		uint8_t *h = b->p + shoff + i * 64;
		if (!strcmp((const char *)b->p + stroff + rd32(h), name))
			return h;
	}
	fail_msg("no section %s", name);
	return NULL;
}

static void expect_error(blob *b, const char *needle)
{
	xs_gfx_shader s;
	xs_err e;
	xs_err_clear(&e);
	xs_status st = xs_gfx_shader_parse(b->p, b->n, NULL, &s, &e);
	if (st == XS_OK)
		fail_msg("parsed, expected an error containing '%s'", needle);
	assert_int_equal(st, XS_E_INVALID_ARG);
	if (!strstr(e.msg, needle))
		fail_msg("error '%s' does not contain '%s'", e.msg, needle);
	assert_null(s.image);
}

static void test_valid(void **state)
{
	(void)state;
	const char *paths[2] = { g_pal, g_mesa };
	for (int i = 0; i < 2; i++) {
		blob b = load(paths[i]);
		xs_gfx_shader s;
		xs_err e;
		xs_err_clear(&e);
		assert_true(xs_gfx_shader_sniff(b.p, b.n));
		if (xs_gfx_shader_parse(b.p, b.n, NULL, &s, &e))
			fail_msg("%s: %s", paths[i], e.msg);
		assert_non_null(s.image);
		assert_int_equal(s.image_size % 4, 0);
		xs_gfx_shader_free(&s);
		/* the entry by name; a wrong name is refused */
		assert_int_equal(xs_gfx_shader_parse(b.p, b.n, i ? "vs" : "ps", &s, &e), XS_OK);
		xs_gfx_shader_free(&s);
		free(b.p);
	}
}

static void test_entry_name(void **state)
{
	(void)state;
	blob b = load(g_pal);
	xs_gfx_shader s;
	xs_err e;
	xs_err_clear(&e);
	assert_int_equal(xs_gfx_shader_parse(b.p, b.n, "nope", &s, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "no function 'nope'"));
	free(b.p);
}

static void test_truncated(void **state)
{
	(void)state;
	blob b = load(g_pal);
	for (size_t n = 0; n < b.n; n += (n < 128 ? 1 : 7)) {
		xs_gfx_shader s;
		xs_err e;
		xs_err_clear(&e);
		uint8_t *c = malloc(n ? n : 1);
		memcpy(c, b.p, n);
		if (xs_gfx_shader_parse(c, n, NULL, &s, &e) == XS_OK)
			xs_gfx_shader_free(&s); /* a prefix that holds everything needed */
		else
			assert_true(e.msg[0] != 0);
		free(c);
	}
	blob t = { b.p, 40 };
	expect_error(&t, "not an ELF file");
	free(b.p);
}

static void test_osabi(void **state)
{
	(void)state;
	blob b = load(g_pal);
	b.p[7] = 3;
	assert_false(xs_gfx_shader_sniff(b.p, b.n));
	expect_error(&b, "EI_OSABI 3 (byte 7)");
	b.p[7] = 65;
	b.p[18] = 62; /* EM_X86_64 */
	expect_error(&b, "e_machine 62");
	free(b.p);
}

static void test_hsa(void **state)
{
	(void)state;
	blob b = load(g_hsa);
	expect_error(&b, "a compute code object: load it as a compute pipeline");
	free(b.p);
}

static void test_other_gpu(void **state)
{
	(void)state;
	blob b = load(g_mesa);
	b.p[48] = 0x2f; /* EF_AMDGPU_MACH gfx90a */
	expect_error(&b, "e_flags 0x2f (byte 48)");
	free(b.p);
}

/* The file offset of the PAL object's NT_AMDGPU_METADATA descriptor. */
static uint64_t pal_note_desc(blob *b)
{
	uint8_t *h = shdr(b, ".note");
	uint64_t off = rd64(h + 24), size = rd64(h + 32);
	for (uint64_t at = 0; at < size;) {
		uint32_t nsz = rd32(b->p + off + at), dsz = rd32(b->p + off + at + 4), type = rd32(b->p + off + at + 8);
		uint64_t desc = off + at + 12 + ((nsz + 3) & ~3u);
		if (type == 32)
			return desc;
		at += 12 + ((nsz + 3) & ~3u) + ((dsz + 3) & ~3u);
	}
	fail_msg("no NT_AMDGPU_METADATA note");
	return 0;
}

static void test_bad_msgpack(void **state)
{
	(void)state;
	blob b = load(g_pal);
	/* break the note's first byte (a fixmap) */
	b.p[pal_note_desc(&b)] = 0xc1; /* "never used" in msgpack */
	expect_error(&b, "not valid msgpack");
	free(b.p);
}

/* msgpack-c allocates a container's elements from its header's count: an
 * array32 header claiming 2^31 elements in a note of a few hundred bytes is
 * refused before it is unpacked (a fuzz finding: msgpack-c asked for 32 GB;
 * tests/fuzz/regress/codeobj). */
static void test_msgpack_huge_count(void **state)
{
	(void)state;
	blob b = load(g_pal);
	uint8_t *d = b.p + pal_note_desc(&b);
	d[0] = 0xdd; /* array 32 */
	d[1] = 0x7f, d[2] = d[3] = d[4] = 0xff;
	expect_error(&b, "claims 2147483647 elements");
	free(b.p);
}

static void test_reloc_out_of_range(void **state)
{
	(void)state;
	blob b = load(g_pal);
	uint8_t *h = shdr(&b, ".rel.text");
	uint64_t off = rd64(h + 24);
	uint64_t big = 0x100000;
	memcpy(b.p + off, &big, 8);
	expect_error(&b, ".rel.text entry 0: r_offset 0x100000 is outside .text");
	free(b.p);
	b = load(g_pal);
	h = shdr(&b, ".rel.text");
	off = rd64(h + 24);
	b.p[off + 8] = 3; /* type R_AMDGPU_ABS64 */
	expect_error(&b, "relocation type 3");
	free(b.p);
}

static void test_section_past_end(void **state)
{
	(void)state;
	blob b = load(g_mesa);
	uint8_t *h = shdr(&b, ".text");
	uint64_t huge = b.n;
	memcpy(h + 32, &huge, 8);
	expect_error(&b, "past the end of the file");
	free(b.p);
}

static void test_missing_config(void **state)
{
	(void)state;
	blob b = load(g_mesa);
	uint8_t *h = shdr(&b, ".AMDGPU.config");
	uint64_t shoff = rd64(b.p + 40);
	unsigned shstr = rd16(b.p + 62);
	uint64_t stroff = rd64(b.p + shoff + shstr * 64 + 24);
	b.p[stroff + rd32(h) + 1] = 'X'; /* ".XMDGPU.config" */
	expect_error(&b, "no .AMDGPU.config section");
	free(b.p);
	b = load(g_mesa);
	h = shdr(&b, ".AMDGPU.config");
	uint64_t odd = rd64(h + 32) - 4;
	memcpy(h + 32, &odd, 8);
	expect_error(&b, "not a whole number of (register, value) pairs");
	free(b.p);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: test_codeobj_gfx PAL_PS_WITH_RELOCS.o MESA_VS.o HSA.hsaco\n");
		return 2;
	}
	g_pal = argv[1];
	g_mesa = argv[2];
	g_hsa = argv[3];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),           cmocka_unit_test(test_entry_name),      cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_osabi),           cmocka_unit_test(test_hsa),
		cmocka_unit_test(test_other_gpu),       cmocka_unit_test(test_bad_msgpack),
		cmocka_unit_test(test_msgpack_huge_count),
		cmocka_unit_test(test_reloc_out_of_range), cmocka_unit_test(test_section_past_end),
		cmocka_unit_test(test_missing_config),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
