/* xs12 disasm FILE [--kernel NAME]: the code of a code object in the layout
 * of llvm-objdump-15 -d --mcpu=gfx1030 (same instruction text, addresses,
 * hex words and branch-target comments). */
#include "xs_cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj/xs_codeobj_syms.h"
#include "common/xs_common.h"
#include "isa/xs_isa_disasm.h"

#define STT_NOTYPE_ 0
#define MAX_FILE (1u << 30)

static void help(FILE *f)
{
	fprintf(f, "usage: xs12 disasm FILE [--kernel NAME] [--cc FLAGS]\n"
		   "\n"
		   "Disassembles the code sections of FILE (an ELF code object or relocatable object,\n"
		   "an offload bundle, or a host ELF with .hip_fatbin) as llvm-objdump -d\n"
		   "--mcpu=gfx1030 does: one block per symbol, each instruction with its address and\n"
		   "words. --kernel NAME prints only the block of that symbol. FILE may be an OpenCL C\n"
		   "(.cl) or HIP (.hip) source, compiled first with --cc FLAGS (see 'xs12 cc --help').\n");
}

typedef struct sec_view {
	const xs_codeobj_text *t;
	xs_codeobj_symbol *syms;   /* t->syms plus a <section> entry at its start if needed */
	uint32_t n;
} sec_view;

/* llvm-objdump's symbolizer: a branch to an untyped symbol names it. */
static const char *label_at(void *ctx, uint64_t addr)
{
	const sec_view *v = ctx;
	for (uint32_t i = 0; i < v->n; i++)
		if (v->syms[i].addr == addr && v->syms[i].type == STT_NOTYPE_)
			return v->syms[i].name;
	return NULL;
}

/* The last symbol at or before addr (the name a branch comment uses). */
static const xs_codeobj_symbol *symbol_before(const sec_view *v, uint64_t addr)
{
	const xs_codeobj_symbol *best = NULL;
	for (uint32_t i = 0; i < v->n && v->syms[i].addr <= addr; i++)
		best = &v->syms[i];
	return best;
}

static void line(const char *text, uint64_t addr, const uint8_t *bytes, unsigned size)
{
	int n = printf("\t%s", text);
	for (; n < 60; n++)
		putchar(' ');
	printf("// %012llX:", (unsigned long long)addr);
	if (size >= 4) {
		for (unsigned i = 0; i + 4 <= size; i += 4)
			printf(" %08X", (unsigned)(bytes[i] | bytes[i + 1] << 8 | bytes[i + 2] << 16 |
			                           (uint32_t)bytes[i + 3] << 24));
	} else {
		for (unsigned i = 0; i < size; i++)
			printf(" %02X", bytes[i]);
	}
}

/* One symbol's block: [start, end) of the section. */
static void region(const sec_view *v, uint64_t start, uint64_t end, const char *name)
{
	const xs_codeobj_text *t = v->t;
	printf("\n%016llx <%s>:\n", (unsigned long long)start, name);
	xs_disasm_opts opts = { .label_at = label_at, .ctx = (void *)v };
	uint64_t i = start - t->addr, stop = end - t->addr;
	while (i < stop) {
		const uint8_t *p = t->bytes + i;
		uint64_t left = t->size - i;
		/* runs of 8 or more zero bytes print as "..." (whole dwords) */
		uint64_t z = 0;
		while (i + z < stop && p[z] == 0)
			z++;
		if (z >= 8) {
			printf("\t\t...\n");
			i += z & ~3ull;
			continue;
		}
		if (left < 4) {
			char text[64];
			int n = snprintf(text, sizeof(text), ".byte 0x%02x", p[0]);
			for (unsigned k = 1; k < left; k++)
				n += snprintf(text + n, sizeof(text) - (size_t)n, ", 0x%02x", p[k]);
			line(text, t->addr + i, p, (unsigned)left);
			putchar('\n');
			i += left;
			continue;
		}
		uint32_t w[8];
		size_t nw = XS_MIN((size_t)(left / 4), XS_ARRAY_SIZE(w));
		for (size_t k = 0; k < nw; k++)
			w[k] = (uint32_t)p[4 * k] | (uint32_t)p[4 * k + 1] << 8 | (uint32_t)p[4 * k + 2] << 16 |
			       (uint32_t)p[4 * k + 3] << 24;
		char text[XS_DISASM_TEXT_MAX];
		xs_disasm_result r;
		xs_isa_disasm(w, nw, t->addr + i, &opts, text, sizeof(text), &r);
		line(text, t->addr + i, p, r.size);
		if (r.has_target) {
			const xs_codeobj_symbol *s = symbol_before(v, r.target);
			if (s && r.target != s->addr)
				printf(" <%s+0x%llx>", s->name, (unsigned long long)(r.target - s->addr));
			else if (s)
				printf(" <%s>", s->name);
		}
		if (r.comment[0])
			printf(" ; %s", r.comment);
		putchar('\n');
		i += r.size;
	}
}

static int disasm_section(const xs_codeobj_text *t, const char *only, bool *found)
{
	sec_view v = { .t = t };
	v.syms = calloc((size_t)t->nsyms + 1, sizeof(*v.syms));
	if (!v.syms) {
		fprintf(stderr, "xs12 disasm: out of memory\n");
		return 1;
	}
	/* symbols inside the section; a <section name> block when none starts it */
	uint64_t end = t->addr + t->size;
	if (t->nsyms == 0 || t->syms[0].addr != t->addr)
		v.syms[v.n++] = (xs_codeobj_symbol){ .name = t->name, .addr = t->addr, .type = 2 };
	for (uint32_t i = 0; i < t->nsyms; i++)
		if (t->syms[i].addr >= t->addr && t->syms[i].addr < end)
			v.syms[v.n++] = t->syms[i];
	bool header = false;
	for (uint32_t i = 0; i < v.n;) {
		/* one block per address; it carries the last name in symbol order */
		uint32_t j = i;
		while (j + 1 < v.n && v.syms[j + 1].addr == v.syms[i].addr)
			j++;
		uint64_t start = v.syms[i].addr, stop = j + 1 < v.n ? v.syms[j + 1].addr : end;
		bool want = !only;
		for (uint32_t k = i; k <= j && only; k++)
			want |= strcmp(v.syms[k].name, only) == 0;
		if (want) {
			if (!header)
				printf("\nDisassembly of section %s:\n", t->name);
			header = true;
			*found = true;
			region(&v, start, stop, v.syms[j].name);
		}
		i = j + 1;
	}
	free(v.syms);
	return 0;
}

int xs_cli_disasm(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "cc", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *kernel = NULL;
	xs_cc_opts cc = XS_CC_OPTS_DEFAULT;
	char bad[64];
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'k': kernel = optarg; break;
		case 'c':
			if (xs_cc_flags(optarg, &cc, bad, sizeof(bad)))
				return xs_cli_usage_error("disasm", "--cc: unknown flag '%s' (-O0..-O3, --wave64, -g)", bad);
			break;
		case 'h': help(stdout); return 0;
		default: return xs_cli_usage_error("disasm", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return xs_cli_usage_error("disasm", "expected one code object file");
	const char *path = argv[optind];
	char cached[4096];
	const char *file = xs_cli_code_path("disasm", path, &cc, cached, sizeof(cached));
	if (!file)
		return 1;

	xs_err e = { 0 };
	uint8_t *data;
	size_t size;
	if (xs_read_file(file, MAX_FILE, &data, &size, &e) != XS_OK) {
		fprintf(stderr, "xs12 disasm: %s\n", e.msg);
		return 1;
	}
	xs_codeobj_code *code;
	xs_status s = xs_codeobj_code_open(data, size, &code, &e);
	free(data);
	if (s != XS_OK) {
		fprintf(stderr, "xs12 disasm: %s: %s\n", path, e.msg);
		return 1;
	}
	printf("\n%s:\tfile format elf64-amdgpu\n", path);
	bool found = false;
	int rc = 0;
	for (uint32_t i = 0; i < code->ntexts && rc == 0; i++)
		rc = disasm_section(&code->texts[i], kernel, &found);
	xs_codeobj_code_free(code);
	if (rc == 0 && kernel && !found) {
		fprintf(stderr, "xs12 disasm: %s: no symbol '%s' in a code section\n", path, kernel);
		return 1;
	}
	return rc;
}
