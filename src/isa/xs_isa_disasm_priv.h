/*
 * Private to the disassembler (xs_isa_disasm*.c): text buffer, operand
 * printers shared by the encoding families, and the per-family entries.
 */
#ifndef XS_ISA_DISASM_PRIV_H
#define XS_ISA_DISASM_PRIV_H

#include "isa/xs_isa_disasm.h"

typedef struct dis_ctx {
	const uint32_t *w;          /* the instruction's words */
	size_t nw;                  /* words available from w */
	uint64_t addr;
	const xs_disasm_opts *opts;
	xs_inst in;                 /* decoded */
	const xs_op_info *oi;
	char *p;                    /* output */
	size_t len, cap;
	bool bad;                   /* llvm-objdump would not decode these words (an operand) */
	bool reject;                /* ... no instruction matches their fixed fields */
	unsigned fallback_src0;     /* rejected SDWA/DPP: the marker LLVM then trips over */
	int extra;                  /* bytes LLVM takes beyond (or short of) the decoder's size */
	char note[160];             /* decoder remarks ("Warning: ...", "Error: ...") */
	xs_disasm_result *res;
} dis_ctx;

/* Operand value types, as the printer renders constants for them. */
enum dis_type {
	DT_B32,     /* 32-bit int or float: printImmediate32 rules */
	DT_B64,     /* 64-bit: double inline constants, literal in hex */
	DT_I16,     /* 16-bit integer: half-precision inline constants print as bits */
	DT_F16,     /* 16-bit float */
	DT_V2I16,   /* packed 16-bit integers (VOP3P) */
	DT_V2F16,   /* packed halves (VOP3P) */
};

void dis_printf(dis_ctx *c, const char *fmt, ...) XS_PRINTF(2, 3);
void dis_puts(dis_ctx *c, const char *s);
/* Appends a decoder remark (llvm-objdump prints them after the words). */
void dis_note(dis_ctx *c, const char *fmt, ...) XS_PRINTF(2, 3);
/* Register tuple of n dwords at operand encoding r (SGPR, TTMP, special,
 * VGPR = 256 + n), aligned as LLVM's decoder aligns scalar tuples. */
void dis_reg(dis_ctx *c, unsigned r, unsigned n);
/* A source operand: register, inline constant or literal, for type t. */
void dis_src(dis_ctx *c, unsigned r, unsigned t, uint32_t literal);
/* A register-only operand: constants print as LLVM's invalid-immediate
 * remark. */
void dis_src_reg(dis_ctx *c, unsigned r, unsigned n);
/* printImmediate32 rules: small ints in decimal, the inline floats by name,
 * anything else in hex. */
void dis_imm32(dis_ctx *c, uint32_t v);
/* 16-bit immediates of SOPP/SOPK: decimal up to 64, hex above. */
void dis_u16(dis_ctx *c, uint32_t v);
/* Named bit " name" when set. */
void dis_bit(dis_ctx *c, bool set, const char *name);

void xs_dis_valu(dis_ctx *c);
void xs_dis_mem(dis_ctx *c);

#endif
