/*
 * Disassembler: vector ALU encodings (VOP1, VOP2, VOPC with their SDWA,
 * DPP16 and DPP8 forms, VOP3 including promoted VOP1/2/C/VINTRP, VOP3P).
 *
 * What the opcode table's flags do not say is classified here from
 * llvm-objdump-15's behaviour: how many sources a VOP3/VOP3P op prints,
 * which sources take float modifiers (-|x|) or integer ones (sext(x)), the
 * operand type that decides how a constant prints (16-bit integer sources
 * print half-precision inline constants as their bits), and which ops print
 * op_sel.
 */
#include <string.h>

#include "isa/xs_isa_disasm_priv.h"

enum { M_NONE, M_FP, M_INT };

static bool is_imm_operand(unsigned r)
{
	return (r >= XS_SRC_INT0 && r <= 208) || (r >= XS_SRC_HALF && r <= XS_SRC_INV2PI) || r == XS_SRC_LITERAL;
}

static bool native(const dis_ctx *c, unsigned enc)
{
	return c->oi->enc == enc;
}

/* VOP3-native and VOP3P ops that take two sources (the rest take three). */
static bool two_sources(unsigned op)
{
	switch (op) {
	case XS_OP_v_add_f64: case XS_OP_v_mul_f64: case XS_OP_v_min_f64: case XS_OP_v_max_f64:
	case XS_OP_v_ldexp_f64: case XS_OP_v_mul_lo_u32: case XS_OP_v_mul_hi_u32: case XS_OP_v_mul_hi_i32:
	case XS_OP_v_trig_preop_f64: case XS_OP_v_lshlrev_b64: case XS_OP_v_lshrrev_b64:
	case XS_OP_v_ashrrev_i64: case XS_OP_v_add_nc_u16: case XS_OP_v_sub_nc_u16: case XS_OP_v_mul_lo_u16:
	case XS_OP_v_lshrrev_b16: case XS_OP_v_ashrrev_i16: case XS_OP_v_max_u16: case XS_OP_v_max_i16:
	case XS_OP_v_min_u16: case XS_OP_v_min_i16: case XS_OP_v_add_nc_i16: case XS_OP_v_sub_nc_i16:
	case XS_OP_v_add_co_u32: case XS_OP_v_sub_co_u32: case XS_OP_v_subrev_co_u32:
	case XS_OP_v_pack_b32_f16: case XS_OP_v_cvt_pknorm_i16_f16: case XS_OP_v_cvt_pknorm_u16_f16:
	case XS_OP_v_lshlrev_b16: case XS_OP_v_readlane_b32: case XS_OP_v_writelane_b32:
	case XS_OP_v_ldexp_f32: case XS_OP_v_bfm_b32: case XS_OP_v_bcnt_u32_b32:
	case XS_OP_v_mbcnt_lo_u32_b32: case XS_OP_v_mbcnt_hi_u32_b32: case XS_OP_v_cvt_pknorm_i16_f32:
	case XS_OP_v_cvt_pknorm_u16_f32: case XS_OP_v_cvt_pk_u16_u32: case XS_OP_v_cvt_pk_i16_i32:
	case XS_OP_v_sub_nc_i32: case XS_OP_v_add_nc_i32:
	case XS_OP_v_pk_mul_lo_u16: case XS_OP_v_pk_add_i16: case XS_OP_v_pk_sub_i16:
	case XS_OP_v_pk_lshlrev_b16: case XS_OP_v_pk_lshrrev_b16: case XS_OP_v_pk_ashrrev_i16:
	case XS_OP_v_pk_max_i16: case XS_OP_v_pk_min_i16: case XS_OP_v_pk_add_u16: case XS_OP_v_pk_sub_u16:
	case XS_OP_v_pk_max_u16: case XS_OP_v_pk_min_u16: case XS_OP_v_pk_add_f16: case XS_OP_v_pk_mul_f16:
	case XS_OP_v_pk_min_f16: case XS_OP_v_pk_max_f16:
		return true;
	default:
		return false;
	}
}

/* VOP3 ops with an op_sel operand (16-bit halves, destination included). */
static bool has_opsel(unsigned op)
{
	switch (op) {
	case XS_OP_v_add_nc_u16: case XS_OP_v_sub_nc_u16: case XS_OP_v_add_nc_i16: case XS_OP_v_sub_nc_i16:
	case XS_OP_v_pack_b32_f16: case XS_OP_v_cvt_pknorm_i16_f16: case XS_OP_v_cvt_pknorm_u16_f16:
	case XS_OP_v_mad_u16: case XS_OP_v_mad_i16: case XS_OP_v_fma_f16: case XS_OP_v_div_fixup_f16:
	case XS_OP_v_min3_f16: case XS_OP_v_min3_i16: case XS_OP_v_min3_u16:
	case XS_OP_v_max3_f16: case XS_OP_v_max3_i16: case XS_OP_v_max3_u16:
	case XS_OP_v_med3_f16: case XS_OP_v_med3_i16: case XS_OP_v_med3_u16:
	case XS_OP_v_mad_u32_u16: case XS_OP_v_mad_i32_i16:
		return true;
	default:
		return false;
	}
}

static bool is_interp16(unsigned op)
{
	return op == XS_OP_v_interp_p1ll_f16 || op == XS_OP_v_interp_p1lv_f16 || op == XS_OP_v_interp_p2_f16;
}

/* Constant type of source i. */
static unsigned src_type(const dis_ctx *c, unsigned i)
{
	unsigned op = c->in.op;
	uint32_t f = c->oi->flags;
	bool w64 = (f & (XS_OPF_S0_64 << i)) != 0;
	if (native(c, XS_ENC_VOP3P)) {
		switch (op) {
		case XS_OP_v_dot2_i32_i16: case XS_OP_v_dot2_u32_u16: return i < 2 ? DT_V2I16 : DT_B32;
		case XS_OP_v_dot2_f32_f16: return i < 2 ? DT_V2F16 : DT_B32;
		case XS_OP_v_dot4_i32_i8: case XS_OP_v_dot4_u32_u8: case XS_OP_v_dot8_i32_i4:
		case XS_OP_v_dot8_u32_u4:
			return DT_B32;
		case XS_OP_v_fma_mix_f32: case XS_OP_v_fma_mixlo_f16: case XS_OP_v_fma_mixhi_f16: return DT_F16;
		default: return (f & XS_OPF_F16) ? DT_V2F16 : DT_V2I16;
		}
	}
	switch (op) {
	case XS_OP_v_sat_pk_u8_i16: case XS_OP_v_sad_u16: case XS_OP_v_qsad_pk_u16_u8:
	case XS_OP_v_mqsad_pk_u16_u8:
		return w64 ? DT_B64 : DT_B32;
	case XS_OP_v_mad_u32_u16: case XS_OP_v_mad_i32_i16:
		return i == 2 ? DT_B32 : DT_I16;
	case XS_OP_v_ldexp_f16: case XS_OP_v_cmp_class_f16: case XS_OP_v_cmpx_class_f16:
		return i == 1 ? DT_B32 : DT_F16;
	case XS_OP_v_pk_fmac_f16: case XS_OP_v_dot2c_f32_f16:
		return DT_V2F16;
	default:
		break;
	}
	if (f & XS_OPF_F16)
		return DT_F16;
	if (f & XS_OPF_SRC16)
		return DT_I16;
	return w64 ? DT_B64 : DT_B32;
}

/* Source modifiers of source i in VOP3 form: float ones (-|x|) for float
 * sources, sext() for the few integer sources that have them, none for the
 * rest (LLVM ignores those bits). */
static unsigned src_mods(const dis_ctx *c, unsigned i)
{
	switch (c->in.op) {
	case XS_OP_v_ldexp_f16: case XS_OP_v_ldexp_f32: case XS_OP_v_ldexp_f64: case XS_OP_v_trig_preop_f64:
		return i == 1 ? M_INT : M_FP;
	case XS_OP_v_cvt_pk_u8_f32:
		return i == 0 ? M_FP : M_INT;
	case XS_OP_v_cmp_class_f16: case XS_OP_v_cmpx_class_f16: case XS_OP_v_cmp_class_f32:
	case XS_OP_v_cmpx_class_f32: case XS_OP_v_cmp_class_f64: case XS_OP_v_cmpx_class_f64:
		return i == 0 ? M_FP : M_NONE;
	case XS_OP_v_cndmask_b32:
		return i < 2 ? M_FP : M_NONE;
	case XS_OP_v_cvt_off_f32_i4: case XS_OP_v_cvt_f32_ubyte0: case XS_OP_v_cvt_f32_ubyte1:
	case XS_OP_v_cvt_f32_ubyte2: case XS_OP_v_cvt_f32_ubyte3:
		return M_NONE;  /* integer sources despite the table's F32 */
	default:
		break;
	}
	return (c->oi->flags & (XS_OPF_F16 | XS_OPF_F32 | XS_OPF_F64)) ? M_FP : M_NONE;
}

/* SDWA / DPP16: float modifiers for float sources, sext() for the others
 * (v_cndmask's SDWA sources too). */
static unsigned short_mods(const dis_ctx *c, unsigned i)
{
	unsigned m = c->in.op == XS_OP_v_cndmask_b32 ? M_INT : src_mods(c, i);
	return m == M_FP ? M_FP : M_INT;
}

/* A source with its modifiers: -|x|, neg(imm), sext(x). */
static void src_with_mods(dis_ctx *c, unsigned r, unsigned t, bool neg, bool abs, bool sext)
{
	bool negf = neg && !abs && is_imm_operand(r);
	if (sext)
		dis_puts(c, "sext(");
	if (negf)
		dis_puts(c, "neg(");
	else if (neg)
		dis_puts(c, "-");
	if (abs)
		dis_puts(c, "|");
	dis_src(c, r, t, c->in.literal);
	if (abs)
		dis_puts(c, "|");
	if (negf || sext)
		dis_puts(c, ")");
}

/* Register-only VOP3 sources (constants print as an invalid immediate). */
static bool vop3_reg_only(unsigned op, unsigned i)
{
	switch (op) {
	case XS_OP_v_permlane16_b32: case XS_OP_v_permlanex16_b32: case XS_OP_v_readlane_b32:
	case XS_OP_v_movrels_b32: case XS_OP_v_movrelsd_b32: case XS_OP_v_movrelsd_2_b32:
		return i == 0;
	case XS_OP_v_interp_p1ll_f16: case XS_OP_v_interp_p1lv_f16: case XS_OP_v_interp_p2_f16:
		return i > 0;
	default:
		return false;
	}
}

/* VOP3 source i with the encoded abs/neg bits (neg means sext for
 * integer-modifier sources). */
static void vop3_src(dis_ctx *c, unsigned i)
{
	unsigned m = src_mods(c, i);
	bool neg = (c->in.mods & XS_MOD_NEG(i)) != 0, abs = (c->in.mods & XS_MOD_ABS(i)) != 0;
	if (vop3_reg_only(c->in.op, i)) {
		bool negf = neg && !abs && is_imm_operand(c->in.src[i]);
		if (m != M_FP)
			neg = abs = negf = false;
		dis_puts(c, negf ? "neg(" : neg ? "-" : "");
		dis_puts(c, abs ? "|" : "");
		dis_src_reg(c, c->in.src[i], 1);
		dis_puts(c, abs ? "|" : "");
		dis_puts(c, negf ? ")" : "");
		return;
	}
	if (m == M_FP)
		src_with_mods(c, c->in.src[i], src_type(c, i), neg, abs, false);
	else if (m == M_INT)
		src_with_mods(c, c->in.src[i], src_type(c, i), false, false, neg);
	else
		src_with_mods(c, c->in.src[i], src_type(c, i), false, false, false);
}

static void vdst(dis_ctx *c, unsigned r)
{
	uint32_t f = c->oi->flags;
	dis_reg(c, r, c->in.op == XS_OP_v_mqsad_u32_u8 ? 4 : (f & XS_OPF_D64) ? 2 : 1);
}

static void omod_clamp(dis_ctx *c)
{
	static const char *const omod[4] = { NULL, "mul:2", "mul:4", "div:2" };
	unsigned o = (c->in.mods >> XS_MOD_OMOD_SHIFT) & 3;
	dis_bit(c, c->in.mods & XS_MOD_CLAMP, "clamp");
	if (o)
		dis_printf(c, " %s", omod[o]);
}

/* attrN.c [high] of the VOP3 interpolation ops (src0 field) */
static void interp_attr(dis_ctx *c, unsigned v)
{
	dis_printf(c, "attr%u.%c", v & 0x3f, "xyzw"[(v >> 6) & 3]);
}

static void interp_slot(dis_ctx *c, unsigned v)
{
	static const char *const slot[3] = { "p10", "p20", "p0" };
	if (v < 3)
		dis_puts(c, slot[v]);
	else
		dis_printf(c, "invalid_param_%u", v);
}

/* ---- VOP3 --------------------------------------------------------------------- */

static bool fp_op(const dis_ctx *c)
{
	return (c->oi->flags & (XS_OPF_F16 | XS_OPF_F32 | XS_OPF_F64)) != 0;
}

static bool is_class(unsigned op)
{
	return op == XS_OP_v_cmp_class_f16 || op == XS_OP_v_cmpx_class_f16 || op == XS_OP_v_cmp_class_f32 ||
	       op == XS_OP_v_cmpx_class_f32 || op == XS_OP_v_cmp_class_f64 || op == XS_OP_v_cmpx_class_f64;
}

/* int -> float conversions: output modifiers without float sources */
static bool int_to_float(unsigned op)
{
	switch (op) {
	case XS_OP_v_cvt_f32_i32: case XS_OP_v_cvt_f32_u32: case XS_OP_v_cvt_f64_i32: case XS_OP_v_cvt_f64_u32:
	case XS_OP_v_cvt_off_f32_i4: case XS_OP_v_cvt_f32_ubyte0: case XS_OP_v_cvt_f32_ubyte1:
	case XS_OP_v_cvt_f32_ubyte2: case XS_OP_v_cvt_f32_ubyte3: case XS_OP_v_cvt_f16_u16: case XS_OP_v_cvt_f16_i16:
		return true;
	default:
		return false;
	}
}

/* Ops whose VOP3 form has an omod field (LLVM refuses a nonzero one elsewhere). */
static bool has_omod(const dis_ctx *c)
{
	unsigned op = c->in.op;
	if (has_opsel(op) || (c->oi->flags & XS_OPF_CMP))
		return false;
	switch (op) {
	case XS_OP_v_cndmask_b32: case XS_OP_v_interp_p2_f16: case XS_OP_v_cvt_rpi_i32_f32:
	case XS_OP_v_cvt_flr_i32_f32: case XS_OP_v_frexp_exp_i32_f32: case XS_OP_v_cvt_pk_u8_f32:
	case XS_OP_v_cvt_pknorm_i16_f32: case XS_OP_v_cvt_pknorm_u16_f32:
		return false;
	default:
		return fp_op(c) || int_to_float(op) || is_interp16(op);
	}
}

/* Ops whose VOP3 form has clamp: float ops, and these integer ones. */
static bool has_clamp(const dis_ctx *c)
{
	unsigned op = c->in.op;
	switch (op) {
	case XS_OP_v_cndmask_b32:
		return false;
	case XS_OP_v_mul_i32_i24: case XS_OP_v_mul_u32_u24: case XS_OP_v_add_nc_u32: case XS_OP_v_sub_nc_u32:
	case XS_OP_v_subrev_nc_u32: case XS_OP_v_add_co_ci_u32: case XS_OP_v_sub_co_ci_u32:
	case XS_OP_v_subrev_co_ci_u32: case XS_OP_v_mad_i32_i24: case XS_OP_v_mad_u32_u24: case XS_OP_v_sad_u8:
	case XS_OP_v_sad_hi_u8: case XS_OP_v_sad_u16: case XS_OP_v_sad_u32: case XS_OP_v_msad_u8:
	case XS_OP_v_qsad_pk_u16_u8: case XS_OP_v_mqsad_pk_u16_u8: case XS_OP_v_mqsad_u32_u8:
	case XS_OP_v_mad_u64_u32: case XS_OP_v_mad_i64_i32: case XS_OP_v_add_co_u32: case XS_OP_v_sub_co_u32:
	case XS_OP_v_subrev_co_u32: case XS_OP_v_sub_nc_i32: case XS_OP_v_add_nc_i32:
		return true;
	default:
		return !is_class(op) && (fp_op(c) || int_to_float(op) || has_opsel(op) || is_interp16(op));
	}
}

/* The checks LLVM's decoder makes on VOP3 fields an op does not use
 * (nonzero there: not an instruction). used = source fields in use. */
static void vop3_check(dis_ctx *c, unsigned used)
{
	const xs_inst *in = &c->in;
	unsigned op = in->op;
	uint32_t w1 = c->w[1];
	for (unsigned i = used; i < 3; i++)
		if ((w1 >> (9 * i)) & 0x1ff)
			c->reject = true;
	if (((in->mods >> XS_MOD_OMOD_SHIFT) & 3) && !has_omod(c))
		c->reject = true;
	if ((in->mods & XS_MOD_CLAMP) && !has_clamp(c))
		c->reject = true;
	bool sdst = (c->oi->flags & XS_OPF_SDST) != 0;
	bool lenient = has_opsel(op) || op == XS_OP_v_permlane16_b32 || op == XS_OP_v_permlanex16_b32;
	for (unsigned i = 0; i < 3; i++) {
		bool abs = !sdst && (in->mods & XS_MOD_ABS(i)), neg = (in->mods & XS_MOD_NEG(i)) != 0;
		if (!abs && !neg)
			continue;
		unsigned m = is_interp16(op) && i == 0 ? M_NONE : src_mods(c, i);
		if (i >= used || (m == M_NONE && !lenient))
			c->reject = true;
	}
	if (has_opsel(op))
		for (unsigned i = used; i < 3; i++)
			if (in->mods & XS_MOD_OPSEL(i))
				c->reject = true;
}

static void vop3_opsel(dis_ctx *c, unsigned nsrc)
{
	unsigned s = (c->in.mods >> 6) & 0xf;
	if (!s)
		return;
	dis_puts(c, " op_sel:[");
	for (unsigned i = 0; i < nsrc; i++)
		dis_printf(c, "%u,", (s >> i) & 1);
	dis_printf(c, "%u]", (s >> 3) & 1);
}

static void dis_vop3(dis_ctx *c)
{
	unsigned op = c->in.op;
	uint32_t f = c->oi->flags;
	const xs_inst *in = &c->in;
	bool promoted = !native(c, XS_ENC_VOP3);
	if (op == XS_OP_v_nop || op == XS_OP_v_pipeflush || op == XS_OP_v_clrexcp) {
		if ((c->w[0] & 0xff) != 0)
			c->reject = true;  /* no destination */
		vop3_check(c, 0);
		dis_puts(c, c->oi->name);
		return;
	}
	dis_printf(c, "%s%s", c->oi->name, promoted && !native(c, XS_ENC_VINTRP) ? "_e64" : "");

	if (native(c, XS_ENC_VINTRP)) {
		if ((in->mods & XS_MOD_LIT) && (op == XS_OP_v_interp_mov_f32 || in->src[1] != XS_SRC_LITERAL))
			c->extra = -4;  /* src0 is the attribute, mov's src1 the slot */
		dis_printf(c, "_e64 ");
		vdst(c, in->dst);
		dis_puts(c, ", ");
		if (op == XS_OP_v_interp_mov_f32) {
			interp_slot(c, in->src[1]);
		} else {
			bool neg = (in->mods & XS_MOD_NEG(1)) != 0, abs = (in->mods & XS_MOD_ABS(1)) != 0;
			src_with_mods(c, in->src[1], DT_B32, neg, abs, false);
		}
		dis_puts(c, ", ");
		interp_attr(c, in->src[0]);
		/* no high bit, no src2, modifiers on the p1/p2 VGPR only */
		uint32_t mmask = op == XS_OP_v_interp_mov_f32 ? 7 : 5;
		if ((in->src[0] & 0x100) || ((c->w[1] >> 18) & 0x1ff) || (in->mods & mmask) || ((in->mods >> 3) & mmask))
			c->reject = true;
		omod_clamp(c);
		return;
	}
	dis_puts(c, " ");
	if (is_interp16(op)) {
		vop3_check(c, op == XS_OP_v_interp_p1ll_f16 ? 2 : 3);
		/* src0 is the attribute: no literal for it */
		if ((in->mods & XS_MOD_LIT) && in->src[1] != XS_SRC_LITERAL && in->src[2] != XS_SRC_LITERAL)
			c->extra = -4;
		vdst(c, in->dst);
		dis_puts(c, ", ");
		vop3_src(c, 1);
		dis_puts(c, ", ");
		interp_attr(c, in->src[0]);
		if (op != XS_OP_v_interp_p1ll_f16) {
			dis_puts(c, ", ");
			vop3_src(c, 2);
		}
		dis_bit(c, in->src[0] & 0x100, "high");
		omod_clamp(c);
		return;
	}
	if (op == XS_OP_v_readlane_b32) {
		vop3_check(c, 2);
		dis_src_reg(c, in->dst, 1);
		dis_puts(c, ", ");
		dis_src_reg(c, in->src[0], 1);
		dis_puts(c, ", ");
		dis_src(c, in->src[1], DT_B32, in->literal);
		return;
	}
	if (op == XS_OP_v_permlane16_b32 || op == XS_OP_v_permlanex16_b32) {
		vop3_check(c, 3);
		vdst(c, in->dst);
		for (unsigned i = 0; i < 3; i++) {
			dis_puts(c, ", ");
			if (i == 0)
				dis_src_reg(c, in->src[0], 1);
			else
				dis_src(c, in->src[i], DT_B32, in->literal);
		}
		unsigned s = (in->mods >> 6) & 3;
		if (s)
			dis_printf(c, " op_sel:[%u,%u]", s & 1, s >> 1);
		return;
	}

	unsigned nsrc;
	if (native(c, XS_ENC_VOP1))
		nsrc = 1;
	else if (native(c, XS_ENC_VOP2) || native(c, XS_ENC_VOPC))
		nsrc = 2;
	else
		nsrc = two_sources(op) ? 2 : 3;
	vop3_check(c, nsrc + ((f & XS_OPF_LMASK_IN) ? 1 : 0));
	if (f & XS_OPF_CMP) {
		if (!(f & XS_OPF_CMPX)) {
			dis_src_reg(c, in->sdst, 1);
			dis_puts(c, ", ");
		}
	} else {
		vdst(c, in->dst);
		dis_puts(c, ", ");
		if (f & XS_OPF_SDST) {
			dis_src_reg(c, in->sdst, 1);
			dis_puts(c, ", ");
		}
	}
	for (unsigned i = 0; i < nsrc; i++) {
		if (i)
			dis_puts(c, ", ");
		if (op == XS_OP_v_mqsad_u32_u8 && i == 2)
			dis_src_reg(c, in->src[2], 4);
		else
			vop3_src(c, i);
	}
	if (f & XS_OPF_LMASK_IN) {
		dis_puts(c, ", ");
		dis_src_reg(c, in->src[2], 1);
	}
	if (has_opsel(op))
		vop3_opsel(c, nsrc);
	omod_clamp(c);
}

/* ---- VOP3P ------------------------------------------------------------------------ */

static bool is_mix(unsigned op)
{
	return op == XS_OP_v_fma_mix_f32 || op == XS_OP_v_fma_mixlo_f16 || op == XS_OP_v_fma_mixhi_f16;
}

static void packed_mod(dis_ctx *c, const char *name, unsigned bits, unsigned n, unsigned dflt)
{
	bool all_default = true;
	for (unsigned i = 0; i < n; i++)
		all_default &= ((bits >> i) & 1) == dflt;
	if (all_default)
		return;
	dis_printf(c, " %s:[", name);
	for (unsigned i = 0; i < n; i++)
		dis_printf(c, "%s%u", i ? "," : "", (bits >> i) & 1);
	dis_puts(c, "]");
}

static void dis_vop3p(dis_ctx *c)
{
	unsigned op = c->in.op;
	const xs_inst *in = &c->in;
	unsigned n = two_sources(op) ? 2 : 3;
	bool mix = is_mix(op);
	unsigned neg_lo = (in->mods >> 3) & 7, neg_hi = (in->mods >> 13) & 7;
	/* fields of absent sources must be 0; the packed-integer sources after
	 * the first take no negation */
	for (unsigned i = 0; i < 3; i++) {
		bool negs = ((neg_lo | neg_hi) >> i) & 1;
		if (i >= n && ((((c->w[1] >> (9 * i)) & 0x1ff) != 0) || negs || (in->mods & XS_MOD_OPSEL(i))))
			c->reject = true;
		if (i >= 1 && i < n && negs && src_type(c, i) == DT_V2I16)
			c->reject = true;
	}
	dis_printf(c, "%s ", c->oi->name);
	vdst(c, in->dst);
	for (unsigned i = 0; i < n; i++) {
		dis_puts(c, ", ");
		if (mix)
			src_with_mods(c, in->src[i], src_type(c, i), (neg_lo >> i) & 1, (neg_hi >> i) & 1, false);
		else
			dis_src(c, in->src[i], src_type(c, i), in->literal);
	}
	packed_mod(c, "op_sel", (in->mods >> 6) & 7, n, 0);
	packed_mod(c, "op_sel_hi", (in->mods >> 10) & 7, n, mix ? 0 : 1);
	if (!mix) {
		packed_mod(c, "neg_lo", neg_lo, n, 0);
		packed_mod(c, "neg_hi", neg_hi, n, 0);
	}
	dis_bit(c, in->mods & XS_MOD_CLAMP, "clamp");
}

/* ---- VOP1 / VOP2 / VOPC (e32, SDWA, DPP) ------------------------------------------- */

/* e32 forms printed without the _e32 suffix (no VOP3 form, or no operands). */
static bool no_e32_suffix(unsigned op)
{
	switch (op) {
	case XS_OP_v_fmamk_f32: case XS_OP_v_fmaak_f32: case XS_OP_v_fmamk_f16: case XS_OP_v_fmaak_f16:
	case XS_OP_v_pk_fmac_f16: case XS_OP_v_readfirstlane_b32: case XS_OP_v_swap_b32:
	case XS_OP_v_swaprel_b32: case XS_OP_v_nop: case XS_OP_v_pipeflush: case XS_OP_v_clrexcp:
		return true;
	default:
		return false;
	}
}

static bool wide_operands(uint32_t f)
{
	return (f & (XS_OPF_D64 | XS_OPF_S0_64 | XS_OPF_S1_64)) != 0;
}

/* e32 ops with an SDWA / a DPP form (gfx10: none with 64-bit operands, no
 * DPP compares). */
static bool has_sdwa(unsigned op, uint32_t f)
{
	switch (op) {
	case XS_OP_v_fmac_legacy_f32: case XS_OP_v_fmac_f32: case XS_OP_v_fmac_f16: case XS_OP_v_pk_fmac_f16:
	case XS_OP_v_dot2c_f32_f16: case XS_OP_v_dot4c_i32_i8: case XS_OP_v_readfirstlane_b32:
		return false;
	default:
		return !wide_operands(f);
	}
}

static bool has_dpp(unsigned op, uint32_t f)
{
	switch (op) {
	case XS_OP_v_fmac_legacy_f32: case XS_OP_v_pk_fmac_f16: case XS_OP_v_readfirstlane_b32:
		return false;
	default:
		return !wide_operands(f) && !(f & XS_OPF_CMP);
	}
}

static const char *sdwa_sel(unsigned s)
{
	static const char *const n[7] = { "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD" };
	return s < 7 ? n[s] : NULL;
}

static void dpp_ctrl(dis_ctx *c, unsigned ctl)
{
	if (ctl <= 0xff)
		dis_printf(c, "quad_perm:[%u,%u,%u,%u]", ctl & 3, (ctl >> 2) & 3, (ctl >> 4) & 3, (ctl >> 6) & 3);
	else if (ctl >= 0x101 && ctl <= 0x10f)
		dis_printf(c, "row_shl:%u", ctl & 0xf);
	else if (ctl >= 0x111 && ctl <= 0x11f)
		dis_printf(c, "row_shr:%u", ctl & 0xf);
	else if (ctl >= 0x121 && ctl <= 0x12f)
		dis_printf(c, "row_ror:%u", ctl & 0xf);
	else if (ctl == 0x140)
		dis_puts(c, "row_mirror");
	else if (ctl == 0x141)
		dis_puts(c, "row_half_mirror");
	else if (ctl >= 0x150 && ctl <= 0x15f)
		dis_printf(c, "row_share:%u", ctl & 0xf);
	else if (ctl >= 0x160 && ctl <= 0x16f)
		dis_printf(c, "row_xmask:%u", ctl & 0xf);
	else if (ctl == 0x130 || ctl == 0x134 || ctl == 0x138 || ctl == 0x13c)
		dis_printf(c, "/* wave_%s is not supported starting from GFX10 */",
		           ctl == 0x130 ? "shl" : ctl == 0x134 ? "rol" : ctl == 0x138 ? "shr" : "ror");
	else if (ctl == 0x142 || ctl == 0x143)
		dis_puts(c, "/* row_bcast is not supported starting from GFX10 */");
	else
		dis_puts(c, "/* Invalid dpp_ctrl value */");
}

/* Source i of an e32 / SDWA / DPP form. */
static void short_src(dis_ctx *c, unsigned i)
{
	const xs_inst *in = &c->in;
	unsigned t = src_type(c, i);
	if (in->mods & XS_MOD_SDWA) {
		unsigned m = short_mods(c, i);
		bool sext = i == 0 ? XS_SDWA_SRC0_SEXT(in->ext) : XS_SDWA_SRC1_SEXT(in->ext);
		bool neg = (in->mods & XS_MOD_NEG(i)) != 0, abs = (in->mods & XS_MOD_ABS(i)) != 0;
		if (in->src[i] == XS_SRC_LITERAL) {
			dis_note(c, "Error: unknown operand encoding %u", XS_SRC_LITERAL);  /* no literal dword */
			c->bad = true;
		} else if (m == M_FP)
			src_with_mods(c, in->src[i], t, neg, abs, false);
		else
			src_with_mods(c, in->src[i], t, false, false, sext);
	} else if (in->mods & XS_MOD_DPP16) {
		/* DPP16: VOP3's modifiers, but none for v_cndmask */
		bool neg = (in->mods & XS_MOD_NEG(i)) != 0, abs = (in->mods & XS_MOD_ABS(i)) != 0;
		unsigned m = in->op == XS_OP_v_cndmask_b32 ? M_NONE : src_mods(c, i);
		if (m == M_FP)
			src_with_mods(c, in->src[i], t, neg, abs, false);
		else
			src_with_mods(c, in->src[i], t, false, false, m == M_INT && neg);
	} else if (i == 0 && (in->op == XS_OP_v_readfirstlane_b32 || in->op == XS_OP_v_movrels_b32 ||
	                      in->op == XS_OP_v_movrelsd_b32 || in->op == XS_OP_v_movrelsd_2_b32)) {
		dis_src_reg(c, in->src[0], 1);  /* registers only (a literal is still read) */
	} else if (i == 0 && in->src[0] == XS_SRC_LITERAL && in->op == XS_OP_v_fmamk_f16) {
		/* the literal shared with K is printed as a 32-bit one */
		dis_imm32(c, in->literal);
	} else {
		dis_src(c, in->src[i], t, in->literal);
	}
}

static void dis_short(dis_ctx *c)
{
	unsigned op = c->in.op;
	uint32_t f = c->oi->flags;
	const xs_inst *in = &c->in;
	bool sdwa = (in->mods & XS_MOD_SDWA) != 0, dpp16 = (in->mods & XS_MOD_DPP16) != 0;
	bool dpp8 = (in->mods & XS_MOD_DPP8) != 0;
	/* (the decoder read sdwa / dpp from its own operands; swap below) */
	if (op == XS_OP_v_swap_b32 || op == XS_OP_v_swaprel_b32) {
		/* VGPR-only source: the SDWA / DPP / literal codes are just VGPRs */
		sdwa = dpp16 = dpp8 = false;
		c->extra = 4 - (int)in->size;
	}
	if ((sdwa && !has_sdwa(op, f)) || ((dpp16 || dpp8) && !has_dpp(op, f)))
		c->reject = true;
	const char *suffix = sdwa ? "_sdwa" : (dpp16 || dpp8) ? "_dpp" : no_e32_suffix(op) ? "" : "_e32";
	if (op == XS_OP_v_nop || op == XS_OP_v_pipeflush || op == XS_OP_v_clrexcp) {
		/* no operands: the source field is not looked at, so no SDWA/DPP
		 * dword either; the destination field must be 0 */
		if (((c->w[0] >> 17) & 0xff) != 0)
			c->reject = true;
		dis_puts(c, c->oi->name);
		if (op == XS_OP_v_nop && dpp8 && c->nw > 1 && !(c->w[1] & 0xff)) {
			/* v_nop has a DPP8 form (its unused src0 field must be 0) */
			uint32_t sel = c->w[1] >> 8;
			dis_puts(c, " dpp8:[");
			for (unsigned i = 0; i < 8; i++)
				dis_printf(c, "%s%u", i ? "," : "", (sel >> (3 * i)) & 7);
			dis_puts(c, "]");
			dis_bit(c, in->mods & XS_MOD_DPP8_FI, "fi:1");
			c->extra = 8 - (int)in->size;
			return;
		}
		c->extra = 4 - (int)in->size;
		return;
	} else {
		dis_printf(c, "%s%s ", c->oi->name, suffix);
	}
	bool nosrc = op == XS_OP_v_nop || op == XS_OP_v_pipeflush || op == XS_OP_v_clrexcp;
	if (native(c, XS_ENC_VOPC)) {
		if (!(f & XS_OPF_CMPX)) {
			dis_reg(c, in->sdst, 1);
			dis_puts(c, ", ");
		} else if (sdwa && ((in->ext >> 15) & 1)) {
			dis_reg(c, in->sdst, 1);
			dis_puts(c, ", ");
		}
		short_src(c, 0);
		dis_puts(c, ", ");
		short_src(c, 1);
	} else if (native(c, XS_ENC_VOP1)) {
		if (!nosrc) {
			if (op == XS_OP_v_readfirstlane_b32)
				dis_src_reg(c, in->dst, 1);
			else
				vdst(c, in->dst);
			dis_puts(c, ", ");
			if (op == XS_OP_v_swap_b32 || op == XS_OP_v_swaprel_b32)
				dis_reg(c, XS_SRC_VGPR + (c->w[0] & 0xff), 1);  /* a VGPR whatever bit 8 says */
			else
				short_src(c, 0);
			/* readfirstlane to the literal encoding: LLVM takes the literal dword */
			if (op == XS_OP_v_readfirstlane_b32 && in->dst == XS_SRC_LITERAL && !(in->mods & XS_MOD_LIT))
				c->extra = 4;
		}
	} else {
		vdst(c, in->dst);
		dis_puts(c, ", ");
		if ((f & XS_OPF_SDST))
			dis_puts(c, "vcc_lo, ");
		short_src(c, 0);
		dis_puts(c, ", ");
		if (op == XS_OP_v_fmamk_f32 || op == XS_OP_v_fmamk_f16) {
			dis_printf(c, "0x%x, ", in->literal);
			dis_src(c, in->src[2], src_type(c, 1), in->literal);
		} else if (op == XS_OP_v_fmaak_f32 || op == XS_OP_v_fmaak_f16) {
			short_src(c, 1);
			dis_printf(c, ", 0x%x", in->literal);
		} else {
			short_src(c, 1);
		}
		if (f & XS_OPF_LMASK_IN)
			dis_puts(c, ", vcc_lo");
	}
	if (sdwa) {
		uint32_t e = in->ext;
		/* fields the op has no use for must be 0 */
		if (!native(c, XS_ENC_VOPC) && ((e >> 14) & 3) &&
		    !(f & (XS_OPF_DF16 | XS_OPF_DF32 | XS_OPF_DF64)) && op != XS_OP_v_cvt_pkrtz_f16_f32)
			c->reject = true;  /* SDWA omod: float results only (clamp: always) */
		if ((f & XS_OPF_CMPX) && ((e >> 15) & 1))
			c->reject = true;  /* v_cmpx has no SDWA destination */
		if (native(c, XS_ENC_VOP1) && (e >> 24))
			c->reject = true;
		for (unsigned i = 0; i < 2; i++) {
			unsigned sh = i ? 27 : 19;
			bool fpm = short_mods(c, i) == M_FP;
			if ((fpm && ((e >> sh) & 1)) || (!fpm && ((e >> (sh + 1)) & 3)))
				c->reject = true;
		}
		if (!native(c, XS_ENC_VOPC)) {
			omod_clamp(c);
			const char *ds = sdwa_sel(XS_SDWA_DST_SEL(e));
			/* llvm-objdump-15 prints the reserved value 3 as UNUSED_PAD */
			static const char *const du[4] = { "UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "UNUSED_PAD" };
			if (!ds)
				c->bad = true;  /* LLVM decodes the operands, then cannot print it */
			else
				dis_printf(c, " dst_sel:%s dst_unused:%s", ds, du[XS_SDWA_DST_UNUSED(e)]);
		}
		const char *s0 = sdwa_sel(XS_SDWA_SRC0_SEL(e)), *s1 = sdwa_sel(XS_SDWA_SRC1_SEL(e));
		if (!s0)
			c->bad = true;
		else
			dis_printf(c, " src0_sel:%s", s0);
		if (!native(c, XS_ENC_VOP1)) {
			if (!s1)
				c->bad = true;
			else
				dis_printf(c, " src1_sel:%s", s1);
		}
	} else if (dpp16) {
		uint32_t e = in->ext;
		/* abs/neg bits of sources without modifiers (or absent) must be 0 */
		for (unsigned i = 0; i < 2; i++) {
			bool set = ((e >> (20 + 2 * i)) & 3) != 0;
			bool none = (native(c, XS_ENC_VOP1) && i > 0) ||
			            (op != XS_OP_v_cndmask_b32 && op != XS_OP_v_dot4c_i32_i8 && src_mods(c, i) == M_NONE);
			if (set && none)
				c->reject = true;
		}
		dis_puts(c, " ");
		dpp_ctrl(c, XS_DPP_CTRL(e));
		dis_printf(c, " row_mask:0x%x bank_mask:0x%x", XS_DPP_ROW_MASK(e), XS_DPP_BANK_MASK(e));
		dis_bit(c, XS_DPP_BOUND_ZERO(e), "bound_ctrl:1");
		dis_bit(c, XS_DPP_FI(e), "fi:1");
	} else if (dpp8) {
		uint32_t sel = in->ext >> 8;
		dis_puts(c, " dpp8:[");
		for (unsigned i = 0; i < 8; i++)
			dis_printf(c, "%s%u", i ? "," : "", (sel >> (3 * i)) & 7);
		dis_puts(c, "]");
		dis_bit(c, in->mods & XS_MOD_DPP8_FI, "fi:1");
	}
}

void xs_dis_valu(dis_ctx *c)
{
	switch (c->in.enc) {
	case XS_ENC_VOP3: dis_vop3(c); break;
	case XS_ENC_VOP3P: dis_vop3p(c); break;
	default:
		dis_short(c);
		/* an SDWA / DPP form LLVM does not take: it then decodes the e32 form
		 * and stumbles over the marker in src0 */
		if ((c->reject || c->bad) && (c->in.mods & (XS_MOD_SDWA | XS_MOD_DPP16 | XS_MOD_DPP8)) &&
		    c->in.op != XS_OP_v_nop && c->in.op != XS_OP_v_pipeflush && c->in.op != XS_OP_v_clrexcp)
			c->fallback_src0 = c->w[0] & 0x1ff;
		break;
	}
}
