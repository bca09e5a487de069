/*
 * The code of an AMDGPU ELF for a disassembler: its executable sections and
 * the symbols defined in them (functions, kernels, labels), as llvm-objdump
 * sees them. Unlike xs_codeobj_parse this accepts relocatable objects
 * (llvm-mc output) and images without metadata; bundles and a host ELF's
 * .hip_fatbin select their gfx10.3 entry the same way.
 */
#ifndef XS_CODEOBJ_SYMS_H
#define XS_CODEOBJ_SYMS_H

#include "common/xs_common.h"

typedef struct xs_codeobj_symbol {
	const char *name;     /* NUL-terminated, points into the image */
	uint64_t addr;        /* st_value (section-relative in a relocatable object) */
	uint64_t size;        /* st_size */
	uint8_t type;         /* STT_FUNC 2, STT_NOTYPE 0, STT_OBJECT 1, ... */
	uint8_t bind;
} xs_codeobj_symbol;

typedef struct xs_codeobj_text {
	const char *name;           /* ".text" */
	uint64_t addr;              /* sh_addr */
	const uint8_t *bytes;       /* sh_size bytes of the section */
	uint64_t size;
	xs_codeobj_symbol *syms;    /* defined in this section (no STT_SECTION/STT_FILE),
	                             * sorted by address, then name, then type */
	uint32_t nsyms;
} xs_codeobj_text;

typedef struct xs_codeobj_code {
	uint8_t *image;             /* copy of the selected ELF image */
	size_t image_size;
	bool relocatable;           /* ET_REL */
	xs_codeobj_text *texts;     /* SHF_EXECINSTR PROGBITS sections, in section order */
	uint32_t ntexts;
	xs_codeobj_symbol *all;     /* storage for texts[].syms */
	const uint8_t *stack_sizes; /* the .stack_sizes section (clang -fstack-size-section), or NULL */
	uint64_t stack_sizes_size;
} xs_codeobj_code;

/* Opens an ELF code object (ET_DYN or ET_REL, EM_AMDGPU, ELF64 LE), an
 * offload bundle or a host ELF with .hip_fatbin (first gfx10.3 entry). */
xs_status xs_codeobj_code_open(const uint8_t *bytes, size_t size, xs_codeobj_code **out, xs_err *e);
void xs_codeobj_code_free(xs_codeobj_code *c);

/* The STT_FUNC symbols (kernels and functions) of all code sections, by
 * address: up to cap entries into out; returns how many there are. */
size_t xs_codeobj_code_functions(const xs_codeobj_code *c, xs_codeobj_symbol *out, size_t cap);

/* The stack frame, bytes per lane, .stack_sizes gives the function at addr
 * (its symbol's value): entries of a 64-bit address and a ULEB128 size.
 * False when the section is missing or does not name addr. */
bool xs_codeobj_code_stack_size(const xs_codeobj_code *c, uint64_t addr, uint64_t *frame);

#endif
