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

unsigned xs_isa_ds_elements(const xs_inst *in, unsigned ndw, uint32_t off[2])
{
	uint32_t scale = 4 * ndw;
	switch (in->op) {
	case XS_OP_ds_read2st64_b32: case XS_OP_ds_write2st64_b32: case XS_OP_ds_wrxchg2st64_rtn_b32:
	case XS_OP_ds_read2st64_b64: case XS_OP_ds_write2st64_b64: case XS_OP_ds_wrxchg2st64_rtn_b64:
		scale *= 64;
		/* fall through */
	case XS_OP_ds_read2_b32: case XS_OP_ds_write2_b32: case XS_OP_ds_wrxchg2_rtn_b32:
	case XS_OP_ds_read2_b64: case XS_OP_ds_write2_b64: case XS_OP_ds_wrxchg2_rtn_b64:
		off[0] = ((uint32_t)in->imm & 0xff) * scale;
		off[1] = (in->ext & 0xff) * scale;
		return 2;
	default:
		off[0] = (uint32_t)in->imm & 0xffff;
		off[1] = 0;
		return 1;
	}
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
