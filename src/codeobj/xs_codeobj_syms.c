/*
 * Executable sections and their symbols, for the disassembler (see
 * xs_codeobj_syms.h). Facts: System V gABI (sections, symbol table);
 * LLVM AMDGPUUsage "ELF Code Object". The symbol order (address, name,
 * type) is the one llvm-objdump sorts a section's symbols by.
 */
#include <stdlib.h>
#include <string.h>

#include "codeobj/xs_codeobj_priv.h"
#include "codeobj/xs_codeobj_syms.h"

#define BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"

static xs_status bad(xs_err *e, const char *what)
{
	return xs_err_set(e, XS_E_BAD_CODE_OBJECT, "%s", what);
}

/* The ELF image inside the input (as xs_codeobj_parse selects it). */
static xs_status select_elf(const uint8_t *in, size_t n, xs_codeobj_source *src, xs_err *e)
{
	memset(src, 0, sizeof(*src));
	if (n >= 24 && memcmp(in, BUNDLE_MAGIC, 24) == 0)
		return xs_codeobj_bundle_select(in, n, 0, src, e);
	if (n >= 64 && memcmp(in, ELFMAG, SELFMAG) == 0) {
		if (xs_codeobj_rd16(in + 18) != XS_EM_AMDGPU)
			return xs_codeobj_fatbin_select(in, n, src, e);
		src->size = n;
		return XS_OK;
	}
	return bad(e, "not an AMDGPU ELF, offload bundle or host ELF with .hip_fatbin");
}

static int sym_order(const void *pa, const void *pb)
{
	const xs_codeobj_symbol *a = pa, *b = pb;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	int c = strcmp(a->name, b->name);
	if (c)
		return c;
	return (int)a->type - (int)b->type;
}

/* Names point into c->image (libelf serves a native ELF64 LE image in place),
 * which lives as long as c. */
static xs_status read_image(xs_codeobj_code *c, Elf *elf, xs_err *e)
{
	const uint8_t *img = c->image;
	size_t n = c->image_size;
	if (n < 64 || img[EI_CLASS] != ELFCLASS64 || img[EI_DATA] != ELFDATA2LSB)
		return bad(e, "not an ELF64 little-endian image");
	if (xs_codeobj_rd16(img + 18) != XS_EM_AMDGPU)
		return bad(e, "e_machine is not EM_AMDGPU (224)");
	unsigned type = xs_codeobj_rd16(img + 16);
	if (type != ET_REL && type != ET_DYN && type != ET_EXEC)
		return bad(e, "e_type is not ET_REL, ET_EXEC or ET_DYN");
	c->relocatable = type == ET_REL;

	size_t shnum, shstrndx;
	if (elf_getshdrnum(elf, &shnum) != 0 || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return bad(e, "cannot read the section header table");
	/* allocations are bounded by the section sizes, so by the image size */
	size_t cap_all = 0, ntext = 0;
	bool have_symtab = false;
	GElf_Shdr sh;
	for (size_t i = 1; i < shnum; i++) {
		if (!gelf_getshdr(elf_getscn(elf, i), &sh))
			return bad(e, "cannot read a section header");
		if (sh.sh_type != SHT_NOBITS && !xs_codeobj_in_bounds(sh.sh_offset, sh.sh_size, n))
			return bad(e, "a section runs past the end of the image");
		if (sh.sh_type == SHT_SYMTAB && sh.sh_size >= 2 * 24)
			have_symtab = true;
		if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM)
			cap_all += sh.sh_size / 24;
		if (sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR))
			ntext++;
		const char *sname = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_PROGBITS && sname && !strcmp(sname, ".stack_sizes")) {
			c->stack_sizes = img + sh.sh_offset; /* in bounds: checked above */
			c->stack_sizes_size = sh.sh_size;
		}
	}
	c->texts = xs_calloc(ntext ? ntext : 1, sizeof(*c->texts));
	c->all = xs_calloc(cap_all ? cap_all : 1, sizeof(*c->all));
	size_t *sec_of_text = xs_calloc(ntext ? ntext : 1, sizeof(size_t));
	if (!c->texts || !c->all || !sec_of_text) {
		free(sec_of_text);
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "out of memory");
	}
	for (size_t i = 1; i < shnum; i++) {
		gelf_getshdr(elf_getscn(elf, i), &sh);
		if (sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		xs_codeobj_text *t = &c->texts[c->ntexts];
		t->name = name ? name : "";
		t->addr = sh.sh_addr;
		t->bytes = img + sh.sh_offset;
		t->size = sh.sh_size;
		sec_of_text[c->ntexts++] = i;
	}
	/* symbols: .symtab, or .dynsym when there is no symbol table */
	xs_status s = XS_OK;
	size_t nall = 0;
	for (size_t ti = 0; ti < c->ntexts && s == XS_OK; ti++) {
		xs_codeobj_text *t = &c->texts[ti];
		t->syms = c->all + nall;
		for (size_t i = 1; i < shnum && s == XS_OK; i++) {
			gelf_getshdr(elf_getscn(elf, i), &sh);
			if (sh.sh_type != (have_symtab ? SHT_SYMTAB : SHT_DYNSYM))
				continue;
			Elf_Data *d = elf_getdata(elf_getscn(elf, i), NULL);
			size_t count = sh.sh_size / 24;
			for (size_t j = 1; d && j < count; j++) {
				GElf_Sym sym;
				if (!gelf_getsym(d, (int)j, &sym)) {
					s = bad(e, "cannot read a symbol");
					break;
				}
				unsigned st = GELF_ST_TYPE(sym.st_info);
				if (sym.st_shndx != sec_of_text[ti] || st == STT_SECTION || st == STT_FILE)
					continue;
				const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
				if (!name || !*name || nall == cap_all)
					continue;
				c->all[nall++] = (xs_codeobj_symbol){
					.name = name, .addr = sym.st_value, .size = sym.st_size,
					.type = (uint8_t)st, .bind = (uint8_t)GELF_ST_BIND(sym.st_info),
				};
			}
		}
		t->nsyms = (uint32_t)(c->all + nall - t->syms);
		qsort(t->syms, t->nsyms, sizeof(xs_codeobj_symbol), sym_order);
	}
	free(sec_of_text);
	if (s == XS_OK && c->ntexts == 0)
		s = bad(e, "no executable section (SHT_PROGBITS with SHF_EXECINSTR) to disassemble");
	return s;
}

xs_status xs_codeobj_code_open(const uint8_t *bytes, size_t size, xs_codeobj_code **out, xs_err *e)
{
	*out = NULL;
	if (!bytes || !size)
		return bad(e, "empty input (0 bytes)");
	xs_codeobj_source src;
	xs_status s = select_elf(bytes, size, &src, e);
	if (s != XS_OK)
		return s;
	xs_codeobj_code *c = xs_calloc(1, sizeof(*c));
	if (!c || !(c->image = xs_malloc(src.size ? src.size : 1))) {
		free(c);
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "out of memory");
	}
	memcpy(c->image, bytes + src.offset, src.size);
	c->image_size = src.size;
	if ((s = xs_codeobj_elf_check_layout(c->image, c->image_size, e)) != XS_OK) {
		if (src.origin[0])
			xs_err_prefix(e, "%s", src.origin);
		xs_codeobj_code_free(c);
		return s;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		xs_codeobj_code_free(c);
		return xs_err_set(e, XS_E_UNSUPPORTED, "libelf: %s", elf_errmsg(-1));
	}
	Elf *elf = elf_memory((char *)c->image, c->image_size);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		xs_codeobj_code_free(c);
		return bad(e, "libelf cannot open the image");
	}
	s = read_image(c, elf, e);
	elf_end(elf);
	if (s != XS_OK) {
		if (src.origin[0])
			xs_err_prefix(e, "%s", src.origin);
		xs_codeobj_code_free(c);
		return s;
	}
	*out = c;
	return XS_OK;
}

void xs_codeobj_code_free(xs_codeobj_code *c)
{
	if (!c)
		return;
	free(c->texts);
	free(c->all);
	free(c->image);
	free(c);
}

size_t xs_codeobj_code_functions(const xs_codeobj_code *c, xs_codeobj_symbol *out, size_t cap)
{
	size_t n = 0;
	for (uint32_t t = 0; t < c->ntexts; t++)
		for (uint32_t i = 0; i < c->texts[t].nsyms; i++)
			if (c->texts[t].syms[i].type == STT_FUNC) {
				if (n < cap)
					out[n] = c->texts[t].syms[i];
				n++;
			}
	return n;
}

bool xs_codeobj_code_stack_size(const xs_codeobj_code *c, uint64_t addr, uint64_t *frame)
{
	const uint8_t *p = c->stack_sizes;
	uint64_t n = c->stack_sizes_size;
	for (uint64_t i = 0; p && i + 9 <= n;) {
		uint64_t a, v = 0;
		memcpy(&a, p + i, 8);
		i += 8;
		for (unsigned shift = 0; i < n && shift < 64; shift += 7) {
			uint8_t b = p[i++];
			v |= (uint64_t)(b & 0x7f) << shift;
			if (!(b & 0x80))
				break;
		}
		if (a == addr) {
			*frame = v;
			return true;
		}
	}
	return false;
}
