/*
 * Expectations written beside the instructions of a test program
 * (tests/isa/asm/NAME.s), in the manner of LLVM's FileCheck: comment lines
 *
 *   // CHECK: <target> [lane K | lanes A..B] [& <mask>] = <value> [<value> ...]
 *
 * are checked against the wave's state after the test ran the program. A
 * CHECK-<TAG>: line belongs to a second run of the same program under other
 * inputs (the test names the tag). Grammar:
 *
 *   target  sN | s[A:B] | vN | v[A:B] | vcc | vcc_lo | vcc_hi | exec | exec_lo
 *           | exec_hi | m0 | null | scc | pc | insts | mode | flat_scratch
 *           | mem[<expr>] | mem8[<expr>] | lds[<expr>]
 *                                               (a 32-bit word / byte of GPU memory,
 *                                                a word of the wave's LDS; N values:
 *                                                N words or bytes from there)
 *           | status                              ready barrier ended fault exp_wait
 *           | fault                               none vm illegal unimplemented lds ...
 *           | fault.pc | fault.addr
 *           | fault.what ~ "text"                 (the detail contains text)
 *   value   a C expression over 64-bit unsigned integers: decimal and hex
 *           literals; f32 literals (any literal with '.', an exponent, a hex
 *           float, inf) stand for their binary32 bits, and -<f32 literal> for
 *           the negated float's; + - * / % << >> & | ^ ~ ! < <= > >= == != && ||
 *           ?: and parentheses; names: lane (the lane being checked), code (the
 *           program's address) and the symbols the test passes; f32(x) is
 *           the bits of the float nearest the integer x.
 *           Or: nan (any f32 NaN).
 *
 * Values of a list are separated by spaces or commas; "x -1" is two values,
 * "x - 1" one.
 *
 * "& mask" compares only the mask's bits (a 16-bit result in a 32-bit
 * register).
 *
 * A VGPR check holds in every lane of the wave (or of the lanes given); any
 * other check that mentions `lane` too. Registers compare 32 bits (values are
 * truncated, so -1 is 0xffffffff); s[A:A+1] and vcc/exec compare 64 bits when
 * given one value; a range given N values takes one per register.
 */
#ifndef XS_TESTS_ASM_EXPECT_H
#define XS_TESTS_ASM_EXPECT_H

#include <stddef.h>
#include <stdint.h>

#include "isa/xs_isa.h"

typedef struct asm_sym {
	const char *name;
	uint64_t value;
} asm_sym;

typedef struct asm_state {
	const xs_wave *w;
	const xs_isa_ctx *ctx;     /* fault, and the VM that mem[] reads */
	xs_wave_status status;     /* what xs_isa_run returned last */
	uint64_t code_va;          /* the name `code` */
	const asm_sym *syms;
	unsigned nsyms;
} asm_state;

typedef struct asm_result {
	unsigned checks;           /* CHECK lines of the tag seen */
	unsigned failed;           /* lines that did not hold or did not parse */
	char log[16384];           /* one "file:line: ..." message per failure (truncated) */
} asm_result;

/* Checks every CHECK line of text (name is the file name for messages; tag
 * NULL for "CHECK:", else "CHECK-<tag>:"). A line that mentions CHECK but
 * does not parse as a directive fails, so that a misspelt check is not
 * silently skipped. */
void asm_expect_text(const char *name, const char *text, const char *tag, const asm_state *st,
		     asm_result *res);

/* The same for a file; a file that cannot be read fails. */
void asm_expect_file(const char *path, const char *tag, const asm_state *st, asm_result *res);

/* Number of CHECK lines (of any tag) of a file; -1 if it cannot be read. */
int asm_expect_count(const char *path);

#endif
