/*
 * gfx10.3 disassembler: instruction text exactly as llvm-objdump-15 -d
 * --mcpu=gfx1030 prints it (mnemonic with its _e32/_e64/_sdwa/_dpp suffix,
 * operands, modifiers), from the same opcode table and decoder the
 * interpreter uses. llvm-objdump decodes every code object as wave32 (it
 * takes the wave size from --mattr, not from the kernel), so lane masks and
 * implicit VCC operands print as 32-bit (vcc_lo, s4) here too.
 */
#ifndef XS_ISA_DISASM_H
#define XS_ISA_DISASM_H

#include "isa/xs_isa.h"

typedef struct xs_disasm_opts {
	/* Name of an untyped symbol (a label) at addr, or NULL. A branch whose
	 * target has one prints the name instead of its offset, as
	 * llvm-objdump's AMDGPU symbolizer does. NULL callback: no labels. */
	const char *(*label_at)(void *ctx, uint64_t addr);
	void *ctx;
} xs_disasm_opts;

typedef struct xs_disasm_result {
	unsigned size;       /* bytes: the instruction's, or 4 for a word that is no instruction */
	bool valid;          /* false: the text is ".long 0x%08x" */
	bool has_target;     /* a PC-relative branch printed as an offset: target is its address */
	uint64_t target;
	char comment[160];   /* llvm-objdump's " ; ..." decoder remark (misaligned register), or "" */
} xs_disasm_result;

#define XS_DISASM_TEXT_MAX 400

/* Disassembles the instruction at words[0..nwords) (at address addr) into
 * text (NUL-terminated, truncated to cap). nwords must be at least 1. */
void xs_isa_disasm(const uint32_t *words, size_t nwords, uint64_t addr, const xs_disasm_opts *opts,
		   char *text, size_t cap, xs_disasm_result *res);

#endif
