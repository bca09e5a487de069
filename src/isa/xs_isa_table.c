/*
 * The opcode table as data: xs_op_table[] from the X-macro rows of
 * xs_isa_ops.def, plus small lookups shared by the decoder and interpreter.
 */
#include "isa/xs_isa.h"

const xs_op_info xs_op_table[XS_OP_COUNT] = {
	[XS_OP_INVALID] = { "invalid", XS_ENC_COUNT, 0, XS_IC_INTERNAL, 0 },
#define XS_ISA_OP(enc, opc, name, iclass, flags) \
	[XS_OP_##name] = { #name, XS_ENC_##enc, opc, XS_IC_##iclass, flags },
#include "isa/xs_isa_ops.def"
#undef XS_ISA_OP
};

const char *xs_isa_op_name(unsigned op)
{
	return op < XS_OP_COUNT ? xs_op_table[op].name : "invalid";
}

unsigned xs_isa_mimg_vaddr(const xs_inst *in, unsigned i)
{
	if (!XS_MIMG_NSA(in->ext))
		return in->src[0] + i;
	if (i == 0)
		return in->src[0];
	unsigned b;
	if (i <= 4)
		b = in->literal >> (8 * (i - 1));
	else if (i <= 8)
		b = (uint32_t)in->imm >> (8 * (i - 5));
	else if (i <= 10)
		b = in->sdst >> (8 * (i - 9));
	else
		b = in->ext >> (16 + 8 * (i - 11));
	return XS_SRC_VGPR + (b & 0xff);
}
