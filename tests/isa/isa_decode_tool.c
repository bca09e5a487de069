/*
 * Test helper: decodes instruction words given on stdin, one instruction per
 * line as hex dwords ("0xd5030000 0x00020501" or "D5030000 00020501"), and
 * prints one line per instruction:
 *   <mnemonic> <encoding> <size> dst=<n> sdst=<n> src=<a>,<b>,<c>,<d> imm=<n>
 *   mods=0x<x> ext=0x<x> lit=0x<x> vgpr_end=<n> impl=<0|1>
 * or "invalid 0" when the words do not decode. Used by check_table.py and
 * test_decode.py, which compare against llvm-mc-15 / llvm-objdump-15.
 * With --stats: per encoding, how many table rows the interpreter executes,
 * then the mnemonics it only decodes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/xs_isa.h"

static const char *const enc_names[XS_ENC_COUNT] = {
	"SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP2", "VOP1", "VOPC", "VOP3", "VOP3P", "VINTRP",
	"DS", "MUBUF", "MTBUF", "MIMG", "FLAT", "GLOBAL", "SCRATCH", "EXP",
};

static int stats(void)
{
	unsigned rows[XS_ENC_COUNT] = { 0 }, impl[XS_ENC_COUNT] = { 0 }, tr = 0, ti = 0;
	for (unsigned op = 1; op < XS_OP_COUNT; op++) {
		rows[xs_op_table[op].enc]++;
		impl[xs_op_table[op].enc] += xs_isa_op_implemented(op);
	}
	for (unsigned e = 0; e < XS_ENC_COUNT; e++) {
		printf("%-8s %4u rows, %4u execute\n", enc_names[e], rows[e], impl[e]);
		tr += rows[e];
		ti += impl[e];
	}
	printf("total    %4u rows, %4u execute\ndecode-only:", tr, ti);
	for (unsigned op = 1; op < XS_OP_COUNT; op++)
		if (!xs_isa_op_implemented(op))
			printf(" %s", xs_op_table[op].name);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--stats"))
		return stats();
	char line[4096];
	while (fgets(line, sizeof(line), stdin)) {
		uint32_t words[16];
		size_t n = 0;
		char *p = line, *end;
		while (n < 16) {
			while (*p == ' ' || *p == '\t' || *p == ',')
				p++;
			if (!*p || *p == '\n')
				break;
			unsigned long v = strtoul(p, &end, 16);
			if (end == p)
				break;
			words[n++] = (uint32_t)v;
			p = end;
		}
		if (n == 0) {
			printf("\n");
			continue;
		}
		xs_inst in;
		unsigned sz = xs_isa_decode(words, n, &in);
		if (!sz) {
			printf("invalid 0\n");
			continue;
		}
		printf("%s %s %u dst=%u sdst=%u src=%u,%u,%u,%u imm=%" PRId32 " mods=0x%x ext=0x%x lit=0x%x vgpr_end=%u impl=%d\n",
		       xs_isa_op_name(in.op), enc_names[in.enc], sz, in.dst, in.sdst, in.src[0], in.src[1], in.src[2],
		       in.src[3], in.imm, in.mods, in.ext, in.literal, in.vgpr_end,
		       xs_isa_op_implemented(in.op));
	}
	return 0;
}
