/*
 * Decoder: one instruction word sequence -> xs_inst.
 *
 * Primary dispatch on the top bits of dword 0 (the format prefixes of
 * AMD's RDNA 2 ISA guide, chapter "Microcode Formats"), then a per-encoding opcode -> xs_op map
 * built once from the X-macro rows of xs_isa_ops.def. VOPC/VOP2/VOP1/VINTRP
 * rows are also entered in the VOP3 map at their promoted opcode
 * (0x000/0x100/0x180/0x200 + op), so the table has one row per instruction.
 *
 * Implicit operands are made explicit here (see the field-use comment in
 * xs_isa.h) so that the interpreter treats e32, e64, SDWA and DPP forms of
 * one op with one body.
 */
#include <pthread.h>
#include <string.h>

#include "isa/xs_isa.h"

/* Opcode spaces per encoding. */
enum {
	N_SOP2 = 128, N_SOPK = 32, N_SOP1 = 256, N_SOPC = 128, N_SOPP = 128, N_SMEM = 256,
	N_VOP2 = 64, N_VOP1 = 256, N_VOPC = 256, N_VOP3 = 1024, N_VOP3P = 128, N_VINTRP = 4,
	N_DS = 256, N_MUBUF = 256, N_MTBUF = 16, N_MIMG = 256, N_FLAT = 128, N_EXP = 1,
};

static const uint16_t map_size[XS_ENC_COUNT] = {
	[XS_ENC_SOP2] = N_SOP2, [XS_ENC_SOPK] = N_SOPK, [XS_ENC_SOP1] = N_SOP1,
	[XS_ENC_SOPC] = N_SOPC, [XS_ENC_SOPP] = N_SOPP, [XS_ENC_SMEM] = N_SMEM,
	[XS_ENC_VOP2] = N_VOP2, [XS_ENC_VOP1] = N_VOP1, [XS_ENC_VOPC] = N_VOPC,
	[XS_ENC_VOP3] = N_VOP3, [XS_ENC_VOP3P] = N_VOP3P, [XS_ENC_VINTRP] = N_VINTRP,
	[XS_ENC_DS] = N_DS, [XS_ENC_MUBUF] = N_MUBUF, [XS_ENC_MTBUF] = N_MTBUF,
	[XS_ENC_MIMG] = N_MIMG, [XS_ENC_FLAT] = N_FLAT, [XS_ENC_GLOBAL] = N_FLAT,
	[XS_ENC_SCRATCH] = N_FLAT, [XS_ENC_EXP] = N_EXP,
};

static uint16_t *op_map[XS_ENC_COUNT];
static uint16_t op_storage[N_SOP2 + N_SOPK + N_SOP1 + N_SOPC + N_SOPP + N_SMEM + N_VOP2 + N_VOP1 +
			   N_VOPC + N_VOP3 + N_VOP3P + N_VINTRP + N_DS + N_MUBUF + N_MTBUF + N_MIMG +
			   3 * N_FLAT + N_EXP];
static pthread_once_t maps_once = PTHREAD_ONCE_INIT;

static void build_maps(void)
{
	uint16_t *p = op_storage;
	for (unsigned e = 0; e < XS_ENC_COUNT; e++) {
		op_map[e] = p;
		p += map_size[e];
	}
	for (unsigned op = 1; op < XS_OP_COUNT; op++) {
		const xs_op_info *oi = &xs_op_table[op];
		op_map[oi->enc][oi->opcode] = (uint16_t)op;
		if (oi->flags & XS_OPF_NOVOP3)
			continue;
		switch (oi->enc) {
		case XS_ENC_VOPC: op_map[XS_ENC_VOP3][0x000 + oi->opcode] = (uint16_t)op; break;
		case XS_ENC_VOP2: op_map[XS_ENC_VOP3][0x100 + oi->opcode] = (uint16_t)op; break;
		case XS_ENC_VOP1: op_map[XS_ENC_VOP3][0x180 + oi->opcode] = (uint16_t)op; break;
		case XS_ENC_VINTRP: op_map[XS_ENC_VOP3][0x200 + oi->opcode] = (uint16_t)op; break;
		default: break;
		}
	}
}

static inline unsigned lookup(xs_enc enc, unsigned opcode)
{
	return opcode < map_size[enc] ? op_map[enc][opcode] : XS_OP_INVALID;
}

static inline int32_t sext(uint32_t v, unsigned bits)
{
	return (int32_t)(v << (32 - bits)) >> (32 - bits);
}

/* Ops whose destination is also their third source (accumulators). */
static bool accumulates(unsigned op)
{
	switch (op) {
	case XS_OP_v_fmac_f32: case XS_OP_v_fmac_f16: case XS_OP_v_fmac_legacy_f32:
	case XS_OP_v_pk_fmac_f16: case XS_OP_v_dot2c_f32_f16: case XS_OP_v_dot4c_i32_i8:
		return true;
	default:
		return false;
	}
}

/* Destination of a VALU op that writes an SGPR rather than a VGPR. */
static bool sgpr_dst(unsigned op)
{
	return op == XS_OP_v_readlane_b32 || op == XS_OP_v_readfirstlane_b32;
}

/* Adds the literal dword if any of the n sources is 255. */
static bool take_literal(xs_inst *o, unsigned n, const uint32_t *w, size_t nwords, unsigned at)
{
	bool lit = false;
	for (unsigned i = 0; i < n; i++)
		lit |= o->src[i] == XS_SRC_LITERAL;
	if (!lit)
		return true;
	if (nwords <= at)
		return false;
	o->literal = w[at];
	o->mods |= XS_MOD_LIT;
	o->size += 4;
	return true;
}

/* VOP1/VOP2/VOPC e32 forms, with their SDWA / DPP16 / DPP8 extra dword. */
static bool decode_vop_short(xs_inst *o, const uint32_t *w, size_t nwords)
{
	uint32_t f = xs_op_table[o->op].flags;
	o->size = 4;
	unsigned s0 = o->src[0];
	if (s0 == XS_SRC_SDWA || s0 == XS_SRC_DPP16 || s0 == XS_SRC_DPP8 || s0 == XS_SRC_DPP8_FI) {
		if (nwords < 2 || (f & XS_OPF_KIMM))
			return false;
		uint32_t e = w[1];
		o->ext = e;
		o->size = 8;
		if (s0 == XS_SRC_SDWA) {
			o->mods |= XS_MOD_SDWA;
			o->src[0] = (uint16_t)((e & 0xff) + ((e >> 23) & 1 ? 0 : XS_SRC_VGPR));
			if (o->enc != XS_ENC_VOP1)
				o->src[1] = (uint16_t)((o->src[1] - XS_SRC_VGPR) + ((e >> 31) & 1 ? 0 : XS_SRC_VGPR));
			if ((e >> 20) & 1) o->mods |= XS_MOD_NEG(0);
			if ((e >> 21) & 1) o->mods |= XS_MOD_ABS(0);
			if ((e >> 28) & 1) o->mods |= XS_MOD_NEG(1);
			if ((e >> 29) & 1) o->mods |= XS_MOD_ABS(1);
			if (o->enc == XS_ENC_VOPC) {
				/* SD set: explicit sdst in [14:8], else VCC */
				o->sdst = (e >> 15) & 1 ? (uint16_t)((e >> 8) & 0x7f) : XS_SREG_VCC_LO;
			} else {
				if ((e >> 13) & 1) o->mods |= XS_MOD_CLAMP;
				o->mods |= ((e >> 14) & 3) << XS_MOD_OMOD_SHIFT;
			}
		} else if (s0 == XS_SRC_DPP16) {
			o->mods |= XS_MOD_DPP16;
			o->src[0] = (uint16_t)(XS_SRC_VGPR + (e & 0xff));
			if ((e >> 20) & 1) o->mods |= XS_MOD_NEG(0);
			if ((e >> 21) & 1) o->mods |= XS_MOD_ABS(0);
			if ((e >> 22) & 1) o->mods |= XS_MOD_NEG(1);
			if ((e >> 23) & 1) o->mods |= XS_MOD_ABS(1);
		} else {
			o->mods |= XS_MOD_DPP8 | (s0 == XS_SRC_DPP8_FI ? XS_MOD_DPP8_FI : 0);
			o->src[0] = (uint16_t)(XS_SRC_VGPR + (e & 0xff));
		}
		return true;
	}
	if (f & XS_OPF_KIMM) {
		if (nwords < 2)
			return false;
		o->literal = w[1];
		o->mods |= XS_MOD_LIT;
		o->size = 8;
		return true;
	}
	return take_literal(o, 1, w, nwords, 1);
}

/* Makes implicit VALU operands explicit (after the form-specific decode). */
static void valu_fixup(xs_inst *o, bool e32)
{
	uint32_t f = xs_op_table[o->op].flags;
	if (f & XS_OPF_CMP) {
		if (f & XS_OPF_CMPX)
			o->sdst = XS_SREG_EXEC_LO;
		else if (e32 && !(o->mods & XS_MOD_SDWA))
			o->sdst = XS_SREG_VCC_LO;
		o->dst = XS_SREG_NULL;
		return;
	}
	if (e32 && (f & XS_OPF_LMASK_IN))
		o->src[2] = XS_SREG_VCC_LO;
	if (e32 && (f & XS_OPF_SDST))
		o->sdst = XS_SREG_VCC_LO;
	if (accumulates(o->op))
		o->src[2] = o->dst;
	if (o->op == XS_OP_v_fmamk_f32 || o->op == XS_OP_v_fmamk_f16) {
		o->src[2] = o->src[1];
		o->src[1] = XS_SRC_LITERAL;
	} else if (o->op == XS_OP_v_fmaak_f32 || o->op == XS_OP_v_fmaak_f16) {
		o->src[2] = XS_SRC_LITERAL;
	}
}

static inline unsigned vend(unsigned operand, unsigned width)
{
	return operand >= XS_SRC_VGPR ? operand - XS_SRC_VGPR + width : 0;
}

/* One past the highest VGPR the instruction can touch (exact register
 * widths, so that code using the last allocated VGPR is not refused). */
static unsigned vgpr_end(const xs_inst *o)
{
	const xs_op_info *oi = &xs_op_table[o->op];
	uint32_t f = oi->flags;
	unsigned dw = XS_OPF_DW_OF(f), e = 0;
	switch (o->enc) {
	case XS_ENC_VOP1: case XS_ENC_VOP2: case XS_ENC_VOPC: case XS_ENC_VOP3: case XS_ENC_VOP3P:
	case XS_ENC_VINTRP: {
		bool mq = o->op == XS_OP_v_mqsad_u32_u8;
		e = XS_MAX(e, vend(o->dst, mq ? 4 : (f & XS_OPF_D64) ? 2 : 1));
		for (unsigned i = 0; i < 3; i++) {
			unsigned w = (f & (XS_OPF_S0_64 << i)) ? 2 : 1;
			if (mq && i == 2)
				w = 4;
			e = XS_MAX(e, vend(o->src[i], w));
		}
		return e;
	}
	case XS_ENC_DS: {
		bool two = strstr(oi->name, "2") != NULL && (strstr(oi->name, "read2") || strstr(oi->name, "xchg2"));
		bool rtn = (f & XS_OPF_LOAD) || strstr(oi->name, "_rtn") || o->op == XS_OP_ds_swizzle_b32 ||
			   o->op == XS_OP_ds_permute_b32 || o->op == XS_OP_ds_bpermute_b32 ||
			   o->op == XS_OP_ds_append || o->op == XS_OP_ds_consume ||
			   o->op == XS_OP_ds_ordered_count || o->op == XS_OP_ds_read_addtid_b32;
		unsigned d = dw ? dw : 1;
		e = vend(o->src[0], 1);
		if (rtn)
			e = XS_MAX(e, vend(o->dst, two ? 2 * d : d));
		if (f & (XS_OPF_STORE | XS_OPF_ATOMIC)) {
			e = XS_MAX(e, vend(o->src[1], d));
			e = XS_MAX(e, vend(o->src[2], d));
		}
		/* the lane permutes read their data0 too (flagged loads) */
		if (o->op == XS_OP_ds_permute_b32 || o->op == XS_OP_ds_bpermute_b32)
			e = XS_MAX(e, vend(o->src[1], 1));
		return e;
	}
	case XS_ENC_MUBUF: case XS_ENC_MTBUF: case XS_ENC_FLAT: case XS_ENC_GLOBAL: case XS_ENC_SCRATCH: {
		bool cmpswap = strstr(oi->name, "cmpswap") != NULL;
		unsigned d = dw ? dw : 1, t = (o->mods & XS_MOD_TFE) ? 1 : 0;
		if (o->enc == XS_ENC_MUBUF || o->enc == XS_ENC_MTBUF) {
			unsigned na = ((o->mods & XS_MOD_OFFEN) ? 1 : 0) + ((o->mods & XS_MOD_IDXEN) ? 1 : 0);
			e = na ? vend(o->src[0], na) : 0;
			if (f & (XS_OPF_LOAD | XS_OPF_STORE | XS_OPF_ATOMIC))
				e = XS_MAX(e, vend(o->dst, (cmpswap ? 2 * d : d) + t));
			return e;
		}
		unsigned aw = o->enc == XS_ENC_FLAT || (o->enc == XS_ENC_GLOBAL && o->src[2] == XS_SREG_NULL) ? 2 : 1;
		e = vend(o->src[0], aw);
		if (f & (XS_OPF_STORE | XS_OPF_ATOMIC))
			e = XS_MAX(e, vend(o->src[1], cmpswap ? 2 * d : d));
		if (f & (XS_OPF_LOAD | XS_OPF_ATOMIC))
			e = XS_MAX(e, vend(o->dst, d + t));
		return e;
	}
	case XS_ENC_MIMG: {
		/* only the BVH ops execute: vdata is 4 VGPRs; the addresses are
		 * node_ptr (2 dwords for bvh64), extent, origin, dir, inv_dir
		 * (dir and inv_dir in 3 dwords with a16), NSA or contiguous */
		bool b64 = o->op == XS_OP_image_bvh64_intersect_ray;
		if (!b64 && o->op != XS_OP_image_bvh_intersect_ray)
			return 0;
		unsigned na = (b64 ? 12 : 11) - ((o->ext & XS_MIMG_A16) ? 3 : 0);
		e = vend(o->dst, 4);
		for (unsigned i = 0; i < na; i++)
			e = XS_MAX(e, vend((uint16_t)xs_isa_mimg_vaddr(o, i), 1));
		return e;
	}
	default:
		return 0;  /* scalar; EXP and the other MIMG ops are not executed */
	}
}

static unsigned finish(xs_inst *o, bool ok)
{
	if (!ok || o->op == XS_OP_INVALID) {
		memset(o, 0, sizeof(*o));
		return 0;
	}
	o->vgpr_end = (uint16_t)vgpr_end(o);
	return o->size;
}

unsigned xs_isa_decode(const uint32_t *w, size_t nwords, xs_inst *o)
{
	pthread_once(&maps_once, build_maps);
	memset(o, 0, sizeof(*o));
	o->dst = o->sdst = XS_SREG_NULL;
	if (nwords == 0)
		return 0;
	uint32_t w0 = w[0];
	bool ok = true;

	if (!(w0 >> 31)) {
		/* VOP2, VOPC (0111110), VOP1 (0111111) */
		unsigned top7 = w0 >> 25;
		o->src[0] = (uint16_t)(w0 & 0x1ff);
		if (top7 == 0x3e) {
			o->enc = XS_ENC_VOPC;
			o->op = (uint16_t)lookup(XS_ENC_VOPC, (w0 >> 17) & 0xff);
			o->src[1] = (uint16_t)(XS_SRC_VGPR + ((w0 >> 9) & 0xff));
		} else if (top7 == 0x3f) {
			o->enc = XS_ENC_VOP1;
			o->op = (uint16_t)lookup(XS_ENC_VOP1, (w0 >> 9) & 0xff);
			o->dst = (uint16_t)(((w0 >> 17) & 0xff) + (sgpr_dst(o->op) ? 0 : XS_SRC_VGPR));
		} else {
			o->enc = XS_ENC_VOP2;
			o->op = (uint16_t)lookup(XS_ENC_VOP2, top7);
			o->dst = (uint16_t)(XS_SRC_VGPR + ((w0 >> 17) & 0xff));
			o->src[1] = (uint16_t)(XS_SRC_VGPR + ((w0 >> 9) & 0xff));
		}
		if (o->op == XS_OP_INVALID)
			return finish(o, false);
		ok = decode_vop_short(o, w, nwords);
		if (ok)
			valu_fixup(o, true);
		return finish(o, ok);
	}

	if ((w0 >> 30) == 2) {
		/* scalar ALU: SOP2 (10), SOPK (1011), SOP1/SOPC/SOPP (101111101/110/111) */
		unsigned top9 = w0 >> 23;
		o->size = 4;
		if (top9 == 0x17d) {
			o->enc = XS_ENC_SOP1;
			o->op = (uint16_t)lookup(XS_ENC_SOP1, (w0 >> 8) & 0xff);
			o->dst = (uint16_t)((w0 >> 16) & 0x7f);
			o->src[0] = (uint16_t)(w0 & 0xff);
			ok = take_literal(o, 1, w, nwords, 1);
		} else if (top9 == 0x17e) {
			o->enc = XS_ENC_SOPC;
			o->op = (uint16_t)lookup(XS_ENC_SOPC, (w0 >> 16) & 0x7f);
			o->src[0] = (uint16_t)(w0 & 0xff);
			o->src[1] = (uint16_t)((w0 >> 8) & 0xff);
			ok = take_literal(o, 2, w, nwords, 1);
		} else if (top9 == 0x17f) {
			o->enc = XS_ENC_SOPP;
			o->op = (uint16_t)lookup(XS_ENC_SOPP, (w0 >> 16) & 0x7f);
			o->imm = (int16_t)(w0 & 0xffff);
		} else if ((w0 >> 28) == 0xb) {
			o->enc = XS_ENC_SOPK;
			o->op = (uint16_t)lookup(XS_ENC_SOPK, (w0 >> 23) & 0x1f);
			o->dst = o->src[0] = (uint16_t)((w0 >> 16) & 0x7f);
			o->imm = (int16_t)(w0 & 0xffff);
			if (o->op == XS_OP_s_setreg_imm32_b32) {
				ok = nwords >= 2;
				if (ok) {
					o->literal = w[1];
					o->mods |= XS_MOD_LIT;
					o->size = 8;
				}
			}
		} else {
			o->enc = XS_ENC_SOP2;
			o->op = (uint16_t)lookup(XS_ENC_SOP2, (w0 >> 23) & 0x7f);
			o->dst = (uint16_t)((w0 >> 16) & 0x7f);
			o->src[0] = (uint16_t)(w0 & 0xff);
			o->src[1] = (uint16_t)((w0 >> 8) & 0xff);
			ok = take_literal(o, 2, w, nwords, 1);
		}
		return finish(o, ok);
	}

	/* 11xxxx: 64-bit encodings (VINTRP is 32-bit) */
	unsigned top6 = w0 >> 26;
	if (top6 == 0x32) {
		o->enc = XS_ENC_VINTRP;
		o->op = (uint16_t)lookup(XS_ENC_VINTRP, (w0 >> 16) & 3);
		o->size = 4;
		o->dst = (uint16_t)(XS_SRC_VGPR + ((w0 >> 18) & 0xff));
		o->src[0] = (uint16_t)(XS_SRC_VGPR + (w0 & 0xff));
		o->ext = ((w0 >> 10) & 0x3f) | ((w0 >> 8) & 3) << 6;
		return finish(o, true);
	}
	if (nwords < 2)
		return finish(o, false);
	uint32_t w1 = w[1];
	o->size = 8;
	switch (top6) {
	case 0x35: { /* VOP3 (a and b) */
		o->enc = XS_ENC_VOP3;
		o->op = (uint16_t)lookup(XS_ENC_VOP3, (w0 >> 16) & 0x3ff);
		if (o->op == XS_OP_INVALID)
			return finish(o, false);
		uint32_t f = xs_op_table[o->op].flags;
		unsigned vdst = w0 & 0xff;
		if (f & XS_OPF_CMP) {
			o->sdst = (uint16_t)vdst;
		} else {
			o->dst = (uint16_t)(vdst + (sgpr_dst(o->op) ? 0 : XS_SRC_VGPR));
		}
		if (f & XS_OPF_SDST) {
			o->sdst = (uint16_t)((w0 >> 8) & 0x7f);
		} else {
			o->mods |= (w0 >> 8) & 7;                       /* abs */
			o->mods |= ((w0 >> 11) & 0xf) << 6;             /* opsel */
		}
		if ((w0 >> 15) & 1)
			o->mods |= XS_MOD_CLAMP;
		o->src[0] = (uint16_t)(w1 & 0x1ff);
		o->src[1] = (uint16_t)((w1 >> 9) & 0x1ff);
		o->src[2] = (uint16_t)((w1 >> 18) & 0x1ff);
		o->mods |= ((w1 >> 27) & 3) << XS_MOD_OMOD_SHIFT;
		o->mods |= ((w1 >> 29) & 7) << 3;                  /* neg */
		ok = take_literal(o, 3, w, nwords, 2);
		if (ok)
			valu_fixup(o, false);
		break;
	}
	case 0x33: /* VOP3P: 110011000 */
		if ((w0 >> 23) != 0x198)
			return finish(o, false);
		o->enc = XS_ENC_VOP3P;
		o->op = (uint16_t)lookup(XS_ENC_VOP3P, (w0 >> 16) & 0x7f);
		o->dst = (uint16_t)(XS_SRC_VGPR + (w0 & 0xff));
		o->mods |= ((w0 >> 8) & 7) << 13;                  /* neg_hi */
		o->mods |= ((w0 >> 11) & 7) << 6;                  /* opsel */
		o->mods |= ((w0 >> 14) & 1) << 12;                 /* opsel_hi[2] */
		if ((w0 >> 15) & 1)
			o->mods |= XS_MOD_CLAMP;
		o->src[0] = (uint16_t)(w1 & 0x1ff);
		o->src[1] = (uint16_t)((w1 >> 9) & 0x1ff);
		o->src[2] = (uint16_t)((w1 >> 18) & 0x1ff);
		o->mods |= ((w1 >> 27) & 3) << 10;                 /* opsel_hi[1:0] */
		o->mods |= ((w1 >> 29) & 7) << 3;                  /* neg_lo */
		ok = take_literal(o, 3, w, nwords, 2);
		if (ok && accumulates(o->op))
			o->src[2] = o->dst;
		break;
	case 0x36: /* DS */
		o->enc = XS_ENC_DS;
		o->op = (uint16_t)lookup(XS_ENC_DS, (w0 >> 18) & 0xff);
		o->imm = (int32_t)(w0 & 0xffff);
		o->ext = (w0 >> 8) & 0xff;
		if ((w0 >> 17) & 1)
			o->mods |= XS_MOD_GDS;
		o->src[0] = (uint16_t)(XS_SRC_VGPR + (w1 & 0xff));
		o->src[1] = (uint16_t)(XS_SRC_VGPR + ((w1 >> 8) & 0xff));
		o->src[2] = (uint16_t)(XS_SRC_VGPR + ((w1 >> 16) & 0xff));
		o->dst = (uint16_t)(XS_SRC_VGPR + (w1 >> 24));
		break;
	case 0x37: { /* FLAT / SCRATCH / GLOBAL */
		unsigned seg = (w0 >> 14) & 3;
		static const uint8_t seg_enc[4] = { XS_ENC_FLAT, XS_ENC_SCRATCH, XS_ENC_GLOBAL, XS_ENC_COUNT };
		if (seg == 3)
			return finish(o, false);
		o->enc = seg_enc[seg];
		o->op = (uint16_t)lookup((xs_enc)o->enc, (w0 >> 18) & 0x7f);
		o->imm = seg == 0 ? (int32_t)(w0 & 0xfff) : sext(w0 & 0xfff, 12);
		if ((w0 >> 12) & 1) o->mods |= XS_MOD_DLC;
		if ((w0 >> 13) & 1) o->mods |= XS_MOD_LDS;
		if ((w0 >> 16) & 1) o->mods |= XS_MOD_GLC;
		if ((w0 >> 17) & 1) o->mods |= XS_MOD_SLC;
		unsigned saddr = (w1 >> 16) & 0x7f;
		o->src[0] = (uint16_t)(XS_SRC_VGPR + (w1 & 0xff));
		o->src[1] = (uint16_t)(XS_SRC_VGPR + ((w1 >> 8) & 0xff));
		o->src[2] = (uint16_t)saddr;
		o->dst = (uint16_t)(XS_SRC_VGPR + (w1 >> 24));
		if (seg == 1) {
			/* scratch: saddr 0x7d = vaddr only, 0x7f = neither, else saddr only */
			if (saddr == 0x7f) {
				o->src[0] = XS_SREG_NULL;
				o->src[2] = XS_SREG_NULL;
			} else if (saddr != XS_SREG_NULL) {
				o->src[0] = XS_SREG_NULL;
			}
		} else if (saddr == 0x7f) {
			o->src[2] = XS_SREG_NULL;
		}
		break;
	}
	case 0x38: /* MUBUF */
	case 0x3a: /* MTBUF */
		if (top6 == 0x38) {
			o->enc = XS_ENC_MUBUF;
			o->op = (uint16_t)lookup(XS_ENC_MUBUF, ((w0 >> 18) & 0x7f) | ((w0 >> 25) & 1) << 7);
			if ((w0 >> 16) & 1) o->mods |= XS_MOD_LDS;
		} else {
			o->enc = XS_ENC_MTBUF;
			o->op = (uint16_t)lookup(XS_ENC_MTBUF, ((w0 >> 16) & 7) | ((w1 >> 21) & 1) << 3);
			o->ext = (w0 >> 19) & 0x7f;
		}
		o->imm = (int32_t)(w0 & 0xfff);
		if ((w0 >> 12) & 1) o->mods |= XS_MOD_OFFEN;
		if ((w0 >> 13) & 1) o->mods |= XS_MOD_IDXEN;
		if ((w0 >> 14) & 1) o->mods |= XS_MOD_GLC;
		if ((w0 >> 15) & 1) o->mods |= XS_MOD_DLC;
		if ((w1 >> 22) & 1) o->mods |= XS_MOD_SLC;
		if ((w1 >> 23) & 1) o->mods |= XS_MOD_TFE;
		o->src[0] = (uint16_t)(XS_SRC_VGPR + (w1 & 0xff));
		o->dst = (uint16_t)(XS_SRC_VGPR + ((w1 >> 8) & 0xff));
		o->src[1] = (uint16_t)(((w1 >> 16) & 0x1f) * 4);
		o->src[2] = (uint16_t)(w1 >> 24);
		break;
	case 0x3c: { /* MIMG */
		o->enc = XS_ENC_MIMG;
		o->op = (uint16_t)lookup(XS_ENC_MIMG, ((w0 >> 18) & 0x7f) | (w0 & 1) << 7);
		unsigned nsa = (w0 >> 1) & 3;
		o->ext = ((w0 >> 8) & 0xf) | ((w0 >> 3) & 7) << 4 | nsa << 12;
		if ((w0 >> 12) & 1) o->ext |= XS_MIMG_UNORM;
		if ((w0 >> 15) & 1) o->ext |= XS_MIMG_R128;
		if ((w0 >> 17) & 1) o->ext |= XS_MIMG_LWE;
		if ((w1 >> 30) & 1) o->ext |= XS_MIMG_A16;
		if ((w1 >> 31) & 1) o->ext |= XS_MIMG_D16;
		if ((w0 >> 7) & 1) o->mods |= XS_MOD_DLC;
		if ((w0 >> 13) & 1) o->mods |= XS_MOD_GLC;
		if ((w0 >> 16) & 1) o->mods |= XS_MOD_TFE;
		if ((w0 >> 25) & 1) o->mods |= XS_MOD_SLC;
		o->src[0] = (uint16_t)(XS_SRC_VGPR + (w1 & 0xff));
		o->dst = (uint16_t)(XS_SRC_VGPR + ((w1 >> 8) & 0xff));
		o->src[1] = (uint16_t)(((w1 >> 16) & 0x1f) * 4);
		o->src[2] = (uint16_t)(((w1 >> 21) & 0x1f) * 4);
		if (nsa) {
			if (nwords < 2 + nsa)
				return finish(o, false);
			o->size = (uint8_t)(8 + 4 * nsa);
			o->literal = w[2];
			if (nsa >= 2)
				o->imm = (int32_t)w[3];
			if (nsa >= 3) {
				o->sdst = (uint16_t)(w[4] & 0xffff);
				o->ext |= (w[4] >> 16) << 16;
			}
		}
		break;
	}
	case 0x3d: /* SMEM */
		o->enc = XS_ENC_SMEM;
		o->op = (uint16_t)lookup(XS_ENC_SMEM, (w0 >> 18) & 0xff);
		o->dst = (uint16_t)((w0 >> 6) & 0x7f);
		o->src[0] = (uint16_t)((w0 & 0x3f) << 1);
		o->src[1] = (uint16_t)(w1 >> 25);
		o->imm = sext(w1 & 0x1fffff, 21);
		if ((w0 >> 14) & 1) o->mods |= XS_MOD_DLC;
		if ((w0 >> 16) & 1) o->mods |= XS_MOD_GLC;
		break;
	case 0x3e: /* EXP */
		o->enc = XS_ENC_EXP;
		o->op = (uint16_t)lookup(XS_ENC_EXP, 0);
		o->ext = w0 & 0x1fff;
		for (unsigned i = 0; i < 4; i++)
			o->src[i] = (uint16_t)(XS_SRC_VGPR + ((w1 >> (8 * i)) & 0xff));
		break;
	default:
		return finish(o, false);
	}
	return finish(o, ok);
}
