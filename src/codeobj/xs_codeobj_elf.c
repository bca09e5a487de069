/*
 * The ELF side of a code object: header and target, section table, PT_LOAD
 * segments, symbols, dynamic relocations and the metadata note.
 *
 * Facts: System V gABI (ELF64 layouts); LLVM AMDGPUUsage "ELF Code Object"
 * ("Header", "Sections", "Note Records", "Symbols", "Relocation Records").
 *
 * The header fields and every table's bounds are checked here by hand before
 * libelf (elf_memory) sees the image, so that an error names the field and
 * byte offset at fault; libelf then serves the sections, symbols and
 * relocations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj/xs_codeobj_priv.h"

/* ELF64 header field offsets (gABI "ELF Header"). */
#define EH_TYPE 16
#define EH_MACHINE 18
#define EH_PHOFF 32
#define EH_SHOFF 40
#define EH_FLAGS 48
#define EH_EHSIZE 52
#define EH_PHENTSIZE 54
#define EH_PHNUM 56
#define EH_SHENTSIZE 58
#define EH_SHNUM 60
#define EH_SHSTRNDX 62
#define EHDR_SIZE 64
#define PHDR_SIZE 56
#define SHDR_SIZE 64
#define SYM_SIZE 24
#define RELA_SIZE 24

static xs_status bad(xs_err *e, const char *fmt, ...) XS_PRINTF(2, 3);
static xs_status bad(xs_err *e, const char *fmt, ...)
{
	char msg[sizeof(e->msg)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return xs_err_set(e, XS_E_BAD_CODE_OBJECT, "%s", msg);
}

/* Code object version from EI_ABIVERSION (AMDGPUUsage "AMDGPU ELF Header":
 * ELFABIVERSION_AMDGPU_HSA_V2..V6 = 0..4). */
static xs_status check_version(uint8_t abi, xs_codeobj *co, xs_err *e)
{
	if (abi == XS_ELFABIVERSION_AMDGPU_HSA_V4 || abi == XS_ELFABIVERSION_AMDGPU_HSA_V5) {
		co->code_object_version = abi + 2u;
		return XS_OK;
	}
	if (abi <= 4)
		return xs_err_set(e, XS_E_UNSUPPORTED,
		                  "code object v%u (EI_ABIVERSION %u); xs12 loads code object v4 and v5",
		                  abi + 2u, abi);
	return bad(e, "EI_ABIVERSION %u is not a known AMDGPU HSA code object version", abi);
}

/* Target from e_flags (AMDGPUUsage "AMDGPU ELF Header": EF_AMDGPU_MACH is
 * bits 0..7). */
static xs_status check_target(uint32_t flags, xs_codeobj *co, xs_err *e)
{
	const char *name = xs_codeobj_mach_name(flags & XS_EF_AMDGPU_MACH);
	if (!name)
		return xs_err_set(e, XS_E_UNSUPPORTED,
		                  "code object is for an unknown processor (EF_AMDGPU_MACH 0x%02x in e_flags "
		                  "0x%x); xs12 runs the gfx10.3 family (gfx1030-gfx1036)",
		                  flags & XS_EF_AMDGPU_MACH, flags);
	if (!xs_codeobj_is_gfx103(name))
		return xs_err_set(e, XS_E_UNSUPPORTED,
		                  "code object is for %s (e_flags 0x%x); xs12 runs the gfx10.3 family "
		                  "(gfx1030-gfx1036)",
		                  name, flags);
	snprintf(co->processor, sizeof(co->processor), "%s", name);
	return XS_OK;
}

static xs_status check_ident(const uint8_t *img, size_t size, xs_codeobj *co, xs_err *e)
{
	if (size < EHDR_SIZE)
		return bad(e, "ELF header truncated: the image has %zu bytes, an ELF64 header needs %d", size,
		           EHDR_SIZE);
	if (memcmp(img, ELFMAG, SELFMAG) != 0)
		return bad(e, "not an ELF image (bad magic at offset 0)");
	if (img[EI_CLASS] != ELFCLASS64)
		return bad(e, "EI_CLASS %u at offset %d: AMDGPU code objects are ELFCLASS64 (2)",
		           img[EI_CLASS], EI_CLASS);
	if (img[EI_DATA] != ELFDATA2LSB)
		return bad(e, "EI_DATA %u at offset %d: AMDGPU code objects are little-endian (1)",
		           img[EI_DATA], EI_DATA);
	if (img[EI_VERSION] != EV_CURRENT)
		return bad(e, "EI_VERSION %u at offset %d is not EV_CURRENT (1)", img[EI_VERSION],
		           EI_VERSION);
	unsigned machine = xs_codeobj_rd16(img + EH_MACHINE);
	if (machine != XS_EM_AMDGPU)
		return bad(e, "e_machine %u is not EM_AMDGPU (%d)", machine, XS_EM_AMDGPU);
	if (img[EI_OSABI] != XS_ELFOSABI_AMDGPU_HSA)
		return xs_err_set(e, XS_E_UNSUPPORTED,
		                  "EI_OSABI %u is not ELFOSABI_AMDGPU_HSA (64)%s; xs12 loads HSA code objects",
		                  img[EI_OSABI],
		                  img[EI_OSABI] == 65   ? " but AMDGPU_PAL"
		                  : img[EI_OSABI] == 66 ? " but AMDGPU_MESA3D"
		                                        : "");
	xs_status s = check_version(img[EI_ABIVERSION], co, e);
	if (s != XS_OK)
		return s;
	return check_target(xs_codeobj_rd32(img + EH_FLAGS), co, e);
}

/* The section header table inside the image (relocatable objects too). */
static xs_status check_shdrs(const uint8_t *img, size_t size, xs_codeobj_elf *ev, xs_err *e)
{
	uint64_t shoff = xs_codeobj_rd64(img + EH_SHOFF);
	unsigned shnum = xs_codeobj_rd16(img + EH_SHNUM), shentsize = xs_codeobj_rd16(img + EH_SHENTSIZE);
	unsigned shstrndx = xs_codeobj_rd16(img + EH_SHSTRNDX);
	if (shnum == 0)
		return bad(e, "e_shnum is 0 (e_shoff 0x%llx): no section headers%s", (unsigned long long)shoff,
		           shoff ? " (extended numbering is not supported)" : "");
	if (shentsize != SHDR_SIZE)
		return bad(e, "e_shentsize %u is not %d", shentsize, SHDR_SIZE);
	if (!xs_codeobj_in_bounds(shoff, (uint64_t)shnum * SHDR_SIZE, size))
		return bad(e, "section header table: e_shoff 0x%llx + %u headers x %d bytes runs past the "
		              "end of the image (%zu bytes)",
		           (unsigned long long)shoff, shnum, SHDR_SIZE, size);
	if (shstrndx >= shnum)
		return bad(e, "e_shstrndx %u is not below e_shnum %u", shstrndx, shnum);
	if (ev) {
		ev->shnum = shnum;
		ev->shstrndx = shstrndx;
	}
	return XS_OK;
}

xs_status xs_codeobj_elf_check_layout(const uint8_t *img, size_t size, xs_err *e)
{
	if (size < EHDR_SIZE)
		return bad(e, "ELF header truncated: the image has %zu bytes, an ELF64 header needs %d", size,
		           EHDR_SIZE);
	if (memcmp(img, ELFMAG, SELFMAG) != 0 || img[EI_CLASS] != ELFCLASS64)
		return bad(e, "not an ELF64 image");
	return check_shdrs(img, size, NULL, e);
}

static xs_status check_tables(const uint8_t *img, size_t size, xs_codeobj_elf *ev, xs_err *e)
{
	unsigned type = xs_codeobj_rd16(img + EH_TYPE);
	if (type == ET_REL)
		return bad(e, "e_type ET_REL: a relocatable object, not a loadable code object; link it "
		              "with ld.lld -shared");
	if (type != ET_DYN)
		return bad(e, "e_type %u is not ET_DYN (3)", type);
	if (xs_codeobj_rd16(img + EH_EHSIZE) != EHDR_SIZE)
		return bad(e, "e_ehsize %u is not %d", xs_codeobj_rd16(img + EH_EHSIZE), EHDR_SIZE);

	uint64_t phoff = xs_codeobj_rd64(img + EH_PHOFF);
	unsigned phnum = xs_codeobj_rd16(img + EH_PHNUM), phentsize = xs_codeobj_rd16(img + EH_PHENTSIZE);
	if (phnum == 0)
		return bad(e, "e_phnum is 0: no program headers, nothing to load");
	if (phnum == PN_XNUM)
		return xs_err_set(e, XS_E_UNSUPPORTED, "e_phnum PN_XNUM (extended numbering) is not supported");
	if (phentsize != PHDR_SIZE)
		return bad(e, "e_phentsize %u is not %d", phentsize, PHDR_SIZE);
	if (!xs_codeobj_in_bounds(phoff, (uint64_t)phnum * PHDR_SIZE, size))
		return bad(e, "program header table: e_phoff 0x%llx + %u headers x %d bytes runs past the "
		              "end of the image (%zu bytes)",
		           (unsigned long long)phoff, phnum, PHDR_SIZE, size);

	return check_shdrs(img, size, ev, e);
}

const char *xs_codeobj_elf_secname(const xs_codeobj_elf *ev, size_t i)
{
	GElf_Shdr sh;
	Elf_Scn *scn = ev->elf ? elf_getscn(ev->elf, i) : NULL;
	if (!scn || !gelf_getshdr(scn, &sh))
		return "?";
	const char *name = elf_strptr(ev->elf, ev->shstrndx, sh.sh_name);
	return name && strlen(name) <= 64 ? name : "?";
}

/* Every section's bytes inside the image; table entries of the right size;
 * links inside the table. */
static xs_status check_sections(xs_codeobj_elf *ev, xs_err *e)
{
	GElf_Shdr sh;
	Elf_Scn *str = elf_getscn(ev->elf, ev->shstrndx);
	if (!str || !gelf_getshdr(str, &sh))
		return bad(e, "section [%zu] (e_shstrndx): cannot read its header: %s", ev->shstrndx,
		           elf_errmsg(-1));
	if (sh.sh_type != SHT_STRTAB || !xs_codeobj_in_bounds(sh.sh_offset, sh.sh_size, ev->size))
		return bad(e, "section [%zu] (e_shstrndx, the section name table): type %u, offset 0x%llx + "
		              "size 0x%llx is not a string table inside the image (%zu bytes)",
		           ev->shstrndx, sh.sh_type, (unsigned long long)sh.sh_offset,
		           (unsigned long long)sh.sh_size, ev->size);
	for (size_t i = 1; i < ev->shnum; i++) {
		Elf_Scn *scn = elf_getscn(ev->elf, i);
		if (!scn || !gelf_getshdr(scn, &sh))
			return bad(e, "section [%zu]: cannot read its header: %s", i, elf_errmsg(-1));
		const char *name = xs_codeobj_elf_secname(ev, i);
		if (sh.sh_type != SHT_NOBITS && !xs_codeobj_in_bounds(sh.sh_offset, sh.sh_size, ev->size))
			return bad(e, "section [%zu] '%s': offset 0x%llx + size 0x%llx runs past the end of the "
			              "image (%zu bytes)",
			           i, name, (unsigned long long)sh.sh_offset, (unsigned long long)sh.sh_size,
			           ev->size);
		bool table = sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM || sh.sh_type == SHT_RELA;
		if (table && (sh.sh_entsize != SYM_SIZE || sh.sh_size % SYM_SIZE != 0))
			return bad(e, "section [%zu] '%s': sh_entsize %llu / sh_size 0x%llx is not a table of "
			              "%d-byte entries",
			           i, name, (unsigned long long)sh.sh_entsize, (unsigned long long)sh.sh_size,
			           SYM_SIZE);
		if (table && sh.sh_link >= ev->shnum)
			return bad(e, "section [%zu] '%s': sh_link %u is not below e_shnum %zu", i, name,
			           sh.sh_link, ev->shnum);
	}
	return XS_OK;
}

xs_status xs_codeobj_elf_open(xs_codeobj_elf *ev, xs_codeobj *co, xs_err *e)
{
	memset(ev, 0, sizeof(*ev));
	ev->img = co->image;
	ev->size = co->image_size;
	xs_status s = check_ident(ev->img, ev->size, co, e);
	if (s != XS_OK)
		return s;
	s = check_tables(ev->img, ev->size, ev, e);
	if (s != XS_OK)
		return s;
	ev->e_flags = xs_codeobj_rd32(ev->img + EH_FLAGS);
	ev->abi_version = ev->img[EI_ABIVERSION];
	if (elf_version(EV_CURRENT) == EV_NONE)
		return xs_err_set(e, XS_E_UNSUPPORTED, "libelf: %s", elf_errmsg(-1));
	/* elf_memory only reads the image: it is a native little-endian ELF64
	 * and libelf converts nothing in place for that. */
	ev->elf = elf_memory((char *)co->image, co->image_size);
	if (!ev->elf || elf_kind(ev->elf) != ELF_K_ELF)
		return bad(e, "libelf cannot open the image: %s", elf_errmsg(-1));
	return check_sections(ev, e);
}

void xs_codeobj_elf_close(xs_codeobj_elf *ev)
{
	if (ev->elf)
		elf_end(ev->elf);
	free(ev->syms);
	memset(ev, 0, sizeof(*ev));
}

/* ---- segments ------------------------------------------------------------ */

xs_status xs_codeobj_elf_segments(xs_codeobj_elf *ev, xs_codeobj *co, xs_err *e)
{
	size_t phnum;
	if (elf_getphdrnum(ev->elf, &phnum) != 0)
		return bad(e, "program headers: %s", elf_errmsg(-1));
	co->segs = xs_calloc(phnum, sizeof(*co->segs));
	if (!co->segs)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "out of memory for %zu segments", phnum);
	uint64_t end = 0;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(ev->elf, (int)i, &ph))
			return bad(e, "program header %zu: %s", i, elf_errmsg(-1));
		if (ph.p_type != PT_LOAD)
			continue;
		if (!xs_codeobj_in_bounds(ph.p_offset, ph.p_filesz, ev->size))
			return bad(e, "program header %zu (PT_LOAD): p_offset 0x%llx + p_filesz 0x%llx runs past "
			              "the end of the image (%zu bytes)",
			           i, (unsigned long long)ph.p_offset, (unsigned long long)ph.p_filesz, ev->size);
		if (ph.p_filesz > ph.p_memsz)
			return bad(e, "program header %zu (PT_LOAD): p_filesz 0x%llx is larger than p_memsz 0x%llx",
			           i, (unsigned long long)ph.p_filesz, (unsigned long long)ph.p_memsz);
		/* Bounded so a hostile p_memsz cannot make the loader reserve
		 * unbounded GPU memory. */
		if (!xs_codeobj_in_bounds(ph.p_vaddr, ph.p_memsz, XS_CODEOBJ_MAX_LOAD_SIZE))
			return bad(e, "program header %zu (PT_LOAD): p_vaddr 0x%llx + p_memsz 0x%llx is beyond "
			              "the %llu bytes xs12 allows one code object",
			           i, (unsigned long long)ph.p_vaddr, (unsigned long long)ph.p_memsz,
			           (unsigned long long)XS_CODEOBJ_MAX_LOAD_SIZE);
		/* gABI "Program Header": PT_LOAD entries are sorted by p_vaddr;
		 * overlapping ones would overwrite each other when loaded. */
		if (co->nsegs && ph.p_vaddr < end)
			return bad(e, "program header %zu (PT_LOAD): p_vaddr 0x%llx lies below the end 0x%llx of "
			              "the previous PT_LOAD (segments must be sorted and disjoint)",
			           i, (unsigned long long)ph.p_vaddr, (unsigned long long)end);
		co->segs[co->nsegs++] = (xs_codeobj_segment){
			.vaddr = ph.p_vaddr, .memsz = ph.p_memsz,
			.offset = ph.p_offset, .filesz = ph.p_filesz, .flags = ph.p_flags,
		};
		end = ph.p_vaddr + ph.p_memsz;
	}
	if (co->nsegs == 0)
		return bad(e, "no PT_LOAD program header: nothing to load");
	co->load_size = XS_ALIGN_UP(end, 4096ull);
	return XS_OK;
}

const xs_codeobj_segment *xs_codeobj_seg_of(const xs_codeobj *co, uint64_t vaddr, uint64_t len)
{
	for (uint32_t i = 0; i < co->nsegs; i++) {
		const xs_codeobj_segment *s = &co->segs[i];
		if (vaddr >= s->vaddr && xs_codeobj_in_bounds(vaddr - s->vaddr, len, s->filesz))
			return s;
	}
	return NULL;
}

/* ---- symbols --------------------------------------------------------------- */

static int sym_cmp(const void *a, const void *b)
{
	return strcmp(((const xs_codeobj_sym *)a)->name, ((const xs_codeobj_sym *)b)->name);
}

/* .dynsym and .symtab merged into one index sorted by name, so that looking
 * up each kernel's descriptor is O(log n) even for hostile symbol counts. */
xs_status xs_codeobj_elf_symbols(xs_codeobj_elf *ev, xs_err *e)
{
	size_t total = 0;
	GElf_Shdr sh;
	for (size_t i = 1; i < ev->shnum; i++) {
		if (gelf_getshdr(elf_getscn(ev->elf, i), &sh) &&
		    (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM))
			total += sh.sh_size / SYM_SIZE;  /* bounded by the image size */
	}
	ev->syms = xs_calloc(total ? total : 1, sizeof(*ev->syms));
	if (!ev->syms)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "out of memory for %zu symbols", total);
	for (size_t i = 1; i < ev->shnum; i++) {
		Elf_Scn *scn = elf_getscn(ev->elf, i);
		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		const char *secname = xs_codeobj_elf_secname(ev, i);
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t count = sh.sh_size / SYM_SIZE;
		if (!d && count)
			return bad(e, "section [%zu] '%s': cannot read symbols: %s", i, secname, elf_errmsg(-1));
		GElf_Shdr link;
		if (count > 1 && (!gelf_getshdr(elf_getscn(ev->elf, sh.sh_link), &link) ||
		                  link.sh_type != SHT_STRTAB))
			return bad(e, "section [%zu] '%s': sh_link %u is not a string table", i, secname,
			           sh.sh_link);
		for (size_t j = 1; j < count; j++) {
			GElf_Sym sym;
			if (!gelf_getsym(d, (int)j, &sym))
				return bad(e, "section [%zu] '%s': symbol %zu: %s", i, secname, j, elf_errmsg(-1));
			if (sym.st_name == 0)
				continue;
			const char *name = elf_strptr(ev->elf, sh.sh_link, sym.st_name);
			if (!name)
				return bad(e, "section [%zu] '%s': symbol %zu: st_name 0x%x is not a string in "
				              "section [%u]",
				           i, secname, j, sym.st_name, sh.sh_link);
			ev->syms[ev->nsyms++] = (xs_codeobj_sym){
				.name = name, .value = sym.st_value, .size = sym.st_size,
				.shndx = sym.st_shndx, .type = GELF_ST_TYPE(sym.st_info),
				.bind = GELF_ST_BIND(sym.st_info),
			};
		}
	}
	qsort(ev->syms, ev->nsyms, sizeof(*ev->syms), sym_cmp);
	return XS_OK;
}

const xs_codeobj_sym *xs_codeobj_elf_find_sym(const xs_codeobj_elf *ev, const char *name)
{
	xs_codeobj_sym key = {.name = name};
	const xs_codeobj_sym *s = bsearch(&key, ev->syms, ev->nsyms, sizeof(key), sym_cmp);
	if (!s)
		return NULL;
	/* several entries may share the name (.dynsym and .symtab): prefer a
	 * defined one */
	while (s > ev->syms && strcmp(s[-1].name, name) == 0)
		s--;
	for (const xs_codeobj_sym *t = s; t < ev->syms + ev->nsyms && strcmp(t->name, name) == 0; t++)
		if (t->shndx != SHN_UNDEF)
			return t;
	return s;
}

/* ---- relocations ----------------------------------------------------------- */

static const char *reloc_name(uint32_t type)
{
	static const char *const names[] = {
		"R_AMDGPU_NONE", "R_AMDGPU_ABS32_LO", "R_AMDGPU_ABS32_HI", "R_AMDGPU_ABS64",
		"R_AMDGPU_REL32", "R_AMDGPU_REL64", "R_AMDGPU_ABS32", "R_AMDGPU_GOTPCREL",
		"R_AMDGPU_GOTPCREL32_LO", "R_AMDGPU_GOTPCREL32_HI", "R_AMDGPU_REL32_LO",
		"R_AMDGPU_REL32_HI", "reserved", "R_AMDGPU_RELATIVE64",
	};
	return type < XS_ARRAY_SIZE(names) ? names[type] : "unknown";
}

/* Resolves R_AMDGPU_ABS64 (S + A) against a defined symbol of the table the
 * relocation section links to. */
static xs_status abs64_value(xs_codeobj_elf *ev, const GElf_Shdr *rsh, size_t sec, size_t j,
                             const GElf_Rela *r, uint64_t *value, xs_err *e)
{
	const char *secname = xs_codeobj_elf_secname(ev, sec);
	size_t symi = GELF_R_SYM(r->r_info);
	GElf_Shdr ssh;
	Elf_Scn *sscn = elf_getscn(ev->elf, rsh->sh_link);
	if (!sscn || !gelf_getshdr(sscn, &ssh) ||
	    (ssh.sh_type != SHT_DYNSYM && ssh.sh_type != SHT_SYMTAB))
		return bad(e, "section [%zu] '%s' entry %zu: R_AMDGPU_ABS64 at offset 0x%llx, but sh_link %u "
		              "is not a symbol table",
		           sec, secname, j, (unsigned long long)r->r_offset, rsh->sh_link);
	Elf_Data *d = elf_getdata(sscn, NULL);
	GElf_Sym sym;
	if (symi == 0 || symi >= ssh.sh_size / SYM_SIZE || !d || !gelf_getsym(d, (int)symi, &sym))
		return bad(e, "section [%zu] '%s' entry %zu: R_AMDGPU_ABS64 at offset 0x%llx: symbol index "
		              "%zu is not in section [%u]",
		           sec, secname, j, (unsigned long long)r->r_offset, symi, rsh->sh_link);
	const char *name = elf_strptr(ev->elf, ssh.sh_link, sym.st_name);
	if (sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS)
		return xs_err_set(e, XS_E_UNSUPPORTED,
		                  "section [%zu] '%s' entry %zu: R_AMDGPU_ABS64 at offset 0x%llx refers to "
		                  "%s symbol '%.100s'; xs12 loads self-contained code objects only",
		                  sec, secname, j, (unsigned long long)r->r_offset,
		                  sym.st_shndx == SHN_UNDEF ? "undefined" : "absolute", name ? name : "?");
	*value = sym.st_value + (uint64_t)r->r_addend;
	return XS_OK;
}

/* Dynamic relocations: SHT_RELA sections that are loaded (SHF_ALLOC), i.e.
 * .rela.dyn. Non-alloc RELA sections are static (--emit-relocs) and not the
 * loader's business. */
xs_status xs_codeobj_elf_relocs(xs_codeobj_elf *ev, xs_codeobj *co, xs_err *e)
{
	size_t total = 0;
	GElf_Shdr sh;
	for (size_t i = 1; i < ev->shnum; i++) {
		if (!gelf_getshdr(elf_getscn(ev->elf, i), &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (sh.sh_type == SHT_REL)
			return xs_err_set(e, XS_E_UNSUPPORTED,
			                  "section [%zu] '%s' is SHT_REL; AMDGPU code objects use SHT_RELA", i,
			                  xs_codeobj_elf_secname(ev, i));
		if (sh.sh_type == SHT_RELA)
			total += sh.sh_size / RELA_SIZE;
	}
	if (total == 0)
		return XS_OK;
	co->relocs = xs_calloc(total, sizeof(*co->relocs));
	if (!co->relocs)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "out of memory for %zu relocations", total);
	for (size_t i = 1; i < ev->shnum; i++) {
		Elf_Scn *scn = elf_getscn(ev->elf, i);
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !(sh.sh_flags & SHF_ALLOC))
			continue;
		const char *secname = xs_codeobj_elf_secname(ev, i);
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t count = sh.sh_size / RELA_SIZE;
		if (!d && count)
			return bad(e, "section [%zu] '%s': cannot read relocations: %s", i, secname,
			           elf_errmsg(-1));
		for (size_t j = 0; j < count; j++) {
			GElf_Rela r;
			if (!gelf_getrela(d, (int)j, &r))
				return bad(e, "section [%zu] '%s' entry %zu: %s", i, secname, j, elf_errmsg(-1));
			uint32_t type = (uint32_t)GELF_R_TYPE(r.r_info);
			uint64_t value = 0;
			if (type == XS_R_AMDGPU_NONE)
				continue;
			if (type == XS_R_AMDGPU_RELATIVE64) {
				value = (uint64_t)r.r_addend;  /* B + A: the loader adds B */
			} else if (type == XS_R_AMDGPU_ABS64) {
				xs_status s = abs64_value(ev, &sh, i, j, &r, &value, e);
				if (s != XS_OK)
					return s;
			} else {
				return xs_err_set(e, XS_E_UNSUPPORTED,
				                  "section [%zu] '%s' entry %zu: relocation type %u (%s) at offset "
				                  "0x%llx is not a dynamic relocation xs12 applies (R_AMDGPU_RELATIVE64, "
				                  "R_AMDGPU_ABS64)",
				                  i, secname, j, type, reloc_name(type), (unsigned long long)r.r_offset);
			}
			/* the 8 bytes written must lie in loaded memory */
			bool inside = false;
			for (uint32_t k = 0; k < co->nsegs && !inside; k++)
				inside = r.r_offset >= co->segs[k].vaddr &&
				         xs_codeobj_in_bounds(r.r_offset - co->segs[k].vaddr, 8, co->segs[k].memsz);
			if (!inside)
				return bad(e, "section [%zu] '%s' entry %zu: %s at offset 0x%llx is outside every "
				              "PT_LOAD segment",
				           i, secname, j, reloc_name(type), (unsigned long long)r.r_offset);
			co->relocs[co->nrelocs++] = (xs_codeobj_reloc){.vaddr = r.r_offset, .value = value};
		}
	}
	return XS_OK;
}

/* ---- metadata note --------------------------------------------------------- */

/* Notes (gABI "Note Section"; AMDGPUUsage "Note Records"): namesz, descsz,
 * type (u32 each), then the name and the desc, each padded to 4 bytes. The
 * AMDGPU metadata note has name "AMDGPU" and type NT_AMDGPU_METADATA (32). */
static xs_status scan_notes(xs_codeobj_elf *ev, size_t sec, const GElf_Shdr *sh, xs_err *e)
{
	const char *secname = xs_codeobj_elf_secname(ev, sec);
	const uint8_t *base = ev->img + sh->sh_offset;
	uint64_t size = sh->sh_size, align = sh->sh_addralign == 8 ? 8 : 4;
	uint64_t p = 0;
	while (p < size) {
		if (size - p < 12)
			return bad(e, "section [%zu] '%s': note header at section offset 0x%llx (file offset "
			              "0x%llx) is truncated",
			           sec, secname, (unsigned long long)p, (unsigned long long)(sh->sh_offset + p));
		uint32_t namesz = xs_codeobj_rd32(base + p), descsz = xs_codeobj_rd32(base + p + 4);
		uint32_t type = xs_codeobj_rd32(base + p + 8);
		uint64_t name = p + 12, desc = name + XS_ALIGN_UP((uint64_t)namesz, align);
		if (!xs_codeobj_in_bounds(name, namesz, size) || !xs_codeobj_in_bounds(desc, descsz, size))
			return bad(e, "section [%zu] '%s': note at section offset 0x%llx (file offset 0x%llx): "
			              "namesz %u / descsz %u run past the end of the section (0x%llx bytes)",
			           sec, secname, (unsigned long long)p, (unsigned long long)(sh->sh_offset + p),
			           namesz, descsz, (unsigned long long)size);
		if (type == XS_NT_AMDGPU_METADATA && namesz == 7 && memcmp(base + name, "AMDGPU", 7) == 0) {
			if (ev->meta)
				return bad(e, "section [%zu] '%s': a second NT_AMDGPU_METADATA note at file offset "
				              "0x%llx",
				           sec, secname, (unsigned long long)(sh->sh_offset + p));
			ev->meta = base + desc;
			ev->meta_size = descsz;
			ev->meta_off = sh->sh_offset + desc;
		}
		p = desc + XS_ALIGN_UP((uint64_t)descsz, align);  /* past the end is fine: last note */
	}
	return XS_OK;
}

xs_status xs_codeobj_elf_metadata_note(xs_codeobj_elf *ev, xs_err *e)
{
	GElf_Shdr sh;
	for (size_t i = 1; i < ev->shnum; i++) {
		if (!gelf_getshdr(elf_getscn(ev->elf, i), &sh) || sh.sh_type != SHT_NOTE)
			continue;
		xs_status s = scan_notes(ev, i, &sh, e);
		if (s != XS_OK)
			return s;
	}
	if (!ev->meta)
		return bad(e, "no NT_AMDGPU_METADATA note (owner \"AMDGPU\", type 32) in any SHT_NOTE section");
	return XS_OK;
}
