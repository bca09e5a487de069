/*
 * Code-object loaders (src/codeobj): the same bytes go to the three entry
 * points that read untrusted objects:
 *   xs_codeobj_parse     HSA code objects: ELF, offload bundles
 *                        (__CLANG_OFFLOAD_BUNDLE__), a host ELF's .hip_fatbin,
 *                        kernel descriptors, msgpack metadata
 *   xs_codeobj_code_open the disassembler's view: code sections and symbols
 *                        (ET_REL too), .stack_sizes
 *   xs_gfx_shader_parse  graphics objects (PAL msgpack registers, Mesa's
 *                        .AMDGPU.config pairs), with the code scan behind it
 *   xs_codeobj_lines_read  the DWARF line table of a -g object, through
 *                        libdw (the profile's source lines)
 * Each result is walked (every string read to its end, every range the
 * loader promises checked against the image) and freed, so ASan sees any
 * pointer the loader left dangling and LeakSanitizer any leak.
 */
#include <string.h>

#include "codeobj/xs_codeobj.h"
#include "codeobj/xs_codeobj_gfx.h"
#include "codeobj/xs_codeobj_lines.h"
#include "codeobj/xs_codeobj_syms.h"
#include "fuzz.h"

static size_t walk_str(const char *s)
{
	return s ? strlen(s) : 0;
}

static void walk_hsa(const xs_codeobj *co)
{
	size_t sum = walk_str(co->target) + walk_str(co->processor);
	FUZZ_CHECK(co->image && co->image_size, "no image");
	for (uint32_t i = 0; i < co->nsegs; i++) {
		const xs_codeobj_segment *s = &co->segs[i];
		FUZZ_CHECK(s->offset <= co->image_size && s->filesz <= co->image_size - s->offset,
			   "segment %u: bytes %llu+%llu outside the image of %zu", i, (unsigned long long)s->offset,
			   (unsigned long long)s->filesz, co->image_size);
		FUZZ_CHECK(s->vaddr <= co->load_size && s->memsz <= co->load_size - s->vaddr,
			   "segment %u outside the load size", i);
	}
	FUZZ_CHECK(co->load_size <= XS_CODEOBJ_MAX_LOAD_SIZE, "load size %llu", (unsigned long long)co->load_size);
	for (uint32_t i = 0; i < co->nrelocs; i++)
		FUZZ_CHECK(co->relocs[i].vaddr <= co->load_size && co->load_size - co->relocs[i].vaddr >= 8,
			   "relocation %u at 0x%llx outside the load size", i, (unsigned long long)co->relocs[i].vaddr);
	FUZZ_CHECK(co->nkernels <= XS_CODEOBJ_MAX_KERNELS, "%u kernels", co->nkernels);
	for (uint32_t i = 0; i < co->nkernels; i++) {
		const xs_codeobj_kernel *k = &co->kernels[i];
		sum += walk_str(k->info.name) + walk_str(k->symbol);
		FUZZ_CHECK(k->info.num_args <= XS_CODEOBJ_MAX_ARGS, "kernel %u: %u arguments", i, k->info.num_args);
		FUZZ_CHECK(k->info.kernarg_size <= XS_CODEOBJ_MAX_KERNARG, "kernel %u: kernarg size %u", i,
			   k->info.kernarg_size);
		for (uint32_t a = 0; a < k->info.num_args; a++) {
			const xs_kernel_arg *arg = &k->info.args[a];
			sum += walk_str(arg->name) + walk_str(arg->type_name) + walk_str(arg->value_kind);
			sum += walk_str(k->arg_address_space[a]) + k->arg_hidden[a] + k->arg_const[a];
		}
		FUZZ_CHECK(k->kd_vaddr <= co->load_size && co->load_size - k->kd_vaddr >= XS_KD_SIZE,
			   "kernel %u: descriptor at 0x%llx outside the load size", i, (unsigned long long)k->kd_vaddr);
		if (k->info.name)
			FUZZ_CHECK(xs_codeobj_find(co, k->info.name), "kernel %u '%s' not found by name", i, k->info.name);
	}
	(void)sum;
}

static void walk_code(const xs_codeobj_code *c)
{
	size_t sum = 0;
	for (uint32_t i = 0; i < c->ntexts; i++) {
		const xs_codeobj_text *t = &c->texts[i];
		sum += walk_str(t->name);
		FUZZ_CHECK(t->bytes >= c->image && t->size <= c->image_size &&
			   (size_t)(t->bytes - c->image) <= c->image_size - t->size, "text %u outside the image", i);
		if (t->size)
			sum += t->bytes[0] + t->bytes[t->size - 1];
		for (uint32_t s = 0; s < t->nsyms; s++) {
			sum += walk_str(t->syms[s].name);
			uint64_t frame;
			if (xs_codeobj_code_stack_size(c, t->syms[s].addr, &frame))
				sum += frame;
			if (s)
				FUZZ_CHECK(t->syms[s - 1].addr <= t->syms[s].addr, "text %u: symbols out of order", i);
		}
	}
	xs_codeobj_symbol fn[64];
	size_t nf = xs_codeobj_code_functions(c, fn, 64);
	for (size_t i = 0; i < nf && i < 64; i++)
		sum += walk_str(fn[i].name);
	(void)sum;
}

static void walk_gfx(const xs_gfx_shader *sh)
{
	FUZZ_CHECK(memchr(sh->entry, 0, sizeof(sh->entry)), "entry name not terminated");
	FUZZ_CHECK(sh->image && sh->entry_offset < sh->image_size, "entry at %llu of an image of %zu bytes",
		   (unsigned long long)sh->entry_offset, sh->image_size);
	FUZZ_CHECK(sh->nregs <= XS_GFX_MAX_REGS, "%u registers", sh->nregs);
	volatile uint8_t last = sh->image[sh->image_size - 1];
	(void)last;
}

static void walk_lines(const xs_codeobj_lines *l)
{
	size_t sum = 0;
	FUZZ_CHECK(l->n <= XS_CODEOBJ_LINES_MAX, "%zu line rows", l->n);
	FUZZ_CHECK(l->nfiles <= l->n, "%zu files for %zu rows", l->nfiles, l->n);
	for (size_t i = 0; i < l->n; i++) {
		FUZZ_CHECK(l->v[i].file && l->v[i].line > 0, "row %zu: no file or line 0", i);
		sum += walk_str(l->v[i].file);
		if (i)
			FUZZ_CHECK(l->v[i - 1].addr <= l->v[i].addr, "rows out of address order at %zu", i);
		const xs_codeobj_line *f = xs_codeobj_lines_find(l, l->v[i].addr);
		FUZZ_CHECK(f && f->addr == l->v[i].addr, "row %zu's address not found", i);
	}
	(void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	xs_err e = { 0 };
	xs_codeobj *co = NULL;
	xs_status st = xs_codeobj_parse(data, size, &co, &e);
	FUZZ_SAY("xs_codeobj_parse: %s", st ? e.msg : "accepted");
	if (!st) {
		walk_hsa(co);
		xs_codeobj_free(co);
	} else {
		FUZZ_CHECK(e.msg[0] && memchr(e.msg, 0, sizeof(e.msg)), "xs_codeobj_parse failed without a message");
	}

	xs_codeobj_code *c = NULL;
	memset(&e, 0, sizeof(e));
	st = xs_codeobj_code_open(data, size, &c, &e);
	FUZZ_SAY("xs_codeobj_code_open: %s", st ? e.msg : "accepted");
	if (!st) {
		walk_code(c);
		xs_codeobj_code_free(c);
	} else {
		FUZZ_CHECK(e.msg[0], "xs_codeobj_code_open failed without a message");
	}

	xs_gfx_shader sh;
	memset(&e, 0, sizeof(e));
	bool sniff = xs_gfx_shader_sniff(data, size);
	st = xs_gfx_shader_parse(data, size, NULL, &sh, &e);
	FUZZ_SAY("xs_gfx_shader_parse: %s", st ? e.msg : "accepted");
	if (!st) {
		FUZZ_CHECK(sniff, "a graphics object the sniffer refused");
		walk_gfx(&sh);
		xs_gfx_shader_free(&sh);
	} else {
		FUZZ_CHECK(e.msg[0], "xs_gfx_shader_parse failed without a message");
	}

	xs_codeobj_lines lines;
	memset(&e, 0, sizeof(e));
	st = xs_codeobj_lines_read(data, size, &lines, &e);
	FUZZ_SAY("xs_codeobj_lines_read: %s", st ? e.msg : "accepted");
	if (!st) {
		walk_lines(&lines);
		xs_codeobj_lines_free(&lines);
	} else {
		FUZZ_CHECK(e.msg[0], "xs_codeobj_lines_read failed without a message");
	}
	return 0;
}
