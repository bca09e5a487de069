/*
 * Disassembler: memory and other encodings (DS, MUBUF, MTBUF, MIMG, FLAT,
 * GLOBAL, SCRATCH, EXP, VINTRP), llvm-objdump-15 --mcpu=gfx1030 spelling.
 * Operand presence and widths follow the opcode table (XS_OPF_DW, LOAD /
 * STORE / ATOMIC) plus the mnemonic's parts (_rtn, 2, st64, cmpswap, ...).
 */
#include <string.h>

#include "isa/xs_isa_disasm_priv.h"

static bool has(const char *name, const char *part)
{
	return strstr(name, part) != NULL;
}

static void vreg(dis_ctx *c, unsigned r, unsigned n)
{
	dis_reg(c, r, n ? n : 1);
}

/* ---- DS ---------------------------------------------------------------------------- */

/* ds_swizzle_b32 offset:swizzle(...) */
static void swizzle(dis_ctx *c, unsigned imm)
{
	if (!imm)
		return;
	dis_puts(c, " offset:");
	if ((imm & 0xff00) == 0x8000) {
		dis_printf(c, "swizzle(QUAD_PERM,%u,%u,%u,%u)", imm & 3, (imm >> 2) & 3, (imm >> 4) & 3,
		           (imm >> 6) & 3);
		return;
	}
	if ((imm & 0x8000) == 0) {
		unsigned and_m = imm & 0x1f, or_m = (imm >> 5) & 0x1f, xor_m = (imm >> 10) & 0x1f;
		if (and_m == 0x1f && or_m == 0 && xor_m && !(xor_m & (xor_m - 1))) {
			dis_printf(c, "swizzle(SWAP,%u)", xor_m);
		} else if (and_m == 0x1f && or_m == 0 && xor_m && !((xor_m + 1) & xor_m)) {
			dis_printf(c, "swizzle(REVERSE,%u)", xor_m + 1);
		} else {
			unsigned group = 0x1f - and_m + 1;
			if (group > 1 && !(group & (group - 1)) && or_m < group && xor_m == 0) {
				dis_printf(c, "swizzle(BROADCAST,%u,%u)", group, or_m);
			} else {
				dis_puts(c, "swizzle(BITMASK_PERM,\"");
				for (int b = 4; b >= 0; b--) {
					unsigned p0 = ((0 & and_m) | or_m) ^ xor_m, p1 = ((0x1f & and_m) | or_m) ^ xor_m;
					unsigned m = 1u << b;
					if ((p0 & m) == (p1 & m))
						dis_puts(c, (p0 & m) ? "1" : "0");
					else
						dis_puts(c, (p0 & m) ? "i" : "p");
				}
				dis_puts(c, "\")");
			}
		}
		return;
	}
	dis_printf(c, "%u", imm);
}

static void dis_ds(dis_ctx *c)
{
	const xs_inst *in = &c->in;
	const char *name = c->oi->name;
	unsigned op = in->op;
	uint32_t f = c->oi->flags;
	unsigned dw = XS_MAX(1u, XS_OPF_DW_OF(f));
	bool two_off = has(name, "read2") || has(name, "write2") || has(name, "wrxchg2");
	bool gws = strncmp(name, "ds_gws_", 7) == 0;
	bool rtn = (f & XS_OPF_LOAD) || has(name, "_rtn") || op == XS_OP_ds_append || op == XS_OP_ds_consume ||
		   op == XS_OP_ds_ordered_count || op == XS_OP_ds_read_addtid_b32;
	/* the gws ops' data0 operand sits in the address field */
	bool addr = op != XS_OP_ds_nop && op != XS_OP_ds_append && op != XS_OP_ds_consume &&
		    op != XS_OP_ds_write_addtid_b32 && op != XS_OP_ds_read_addtid_b32;
	unsigned ndata;
	if (gws) {
		ndata = 0;
		addr = op == XS_OP_ds_gws_init || op == XS_OP_ds_gws_sema_br || op == XS_OP_ds_gws_barrier;
	} else if (op == XS_OP_ds_permute_b32 || op == XS_OP_ds_bpermute_b32 || op == XS_OP_ds_write_addtid_b32)
		ndata = 1;
	else if ((f & XS_OPF_LOAD) || op == XS_OP_ds_nop || op == XS_OP_ds_append || op == XS_OP_ds_consume ||
		 op == XS_OP_ds_ordered_count || op == XS_OP_ds_read_addtid_b32)
		ndata = 0;
	else if (has(name, "mskor") || has(name, "cmpst") || has(name, "write2") || has(name, "wrxchg2") ||
		 has(name, "wrap_rtn"))
		ndata = 2;
	else
		ndata = 1;
	unsigned ddw = dw;
	if (has(name, "read2") || has(name, "wrxchg2"))
		ddw = 2 * dw;
	/* register fields the op does not use must be 0 */
	uint32_t w1 = c->w[1];
	if ((!addr && (w1 & 0xff)) || (ndata < 1 && ((w1 >> 8) & 0xff)) || (ndata < 2 && ((w1 >> 16) & 0xff)) ||
	    (!rtn && (w1 >> 24)))
		c->reject = true;
	bool gds = (in->mods & XS_MOD_GDS) != 0;
	if (((gws || op == XS_OP_ds_ordered_count) && !gds) || (op == XS_OP_ds_nop && ((in->imm & 0xffff) || gds)) ||
	    ((op == XS_OP_ds_permute_b32 || op == XS_OP_ds_bpermute_b32) && gds))
		c->reject = true;  /* gws needs gds; ds_nop takes neither offset nor gds; permutes are LDS only */
	dis_puts(c, name);
	const char *sep = " ";
	if (rtn) {
		dis_puts(c, sep);
		vreg(c, in->dst, ddw);
		sep = ", ";
	}
	if (addr) {
		dis_puts(c, sep);
		vreg(c, in->src[0], 1);
		sep = ", ";
	}
	for (unsigned i = 0; i < ndata; i++) {
		dis_puts(c, sep);
		vreg(c, in->src[1 + i], op == XS_OP_ds_wrap_rtn_b32 ? 1 : dw);
		sep = ", ";
	}
	unsigned off0 = in->imm & 0xff, off1 = (in->imm >> 8) & 0xff;
	if (op == XS_OP_ds_swizzle_b32) {
		swizzle(c, in->imm & 0xffff);
	} else if (two_off) {
		if (off0)
			dis_printf(c, " offset0:%u", off0);
		if (off1)
			dis_printf(c, " offset1:%u", off1);
	} else if (in->imm & 0xffff) {
		dis_printf(c, " offset:%u", in->imm & 0xffff);
	}
	dis_bit(c, in->mods & XS_MOD_GDS, "gds");
}

/* ---- MUBUF / MTBUF ------------------------------------------------------------------- */

static const char *const ufmt[78] = {
	"BUF_FMT_INVALID", "BUF_FMT_8_UNORM", "BUF_FMT_8_SNORM", "BUF_FMT_8_USCALED", "BUF_FMT_8_SSCALED",
	"BUF_FMT_8_UINT", "BUF_FMT_8_SINT", "BUF_FMT_16_UNORM", "BUF_FMT_16_SNORM", "BUF_FMT_16_USCALED",
	"BUF_FMT_16_SSCALED", "BUF_FMT_16_UINT", "BUF_FMT_16_SINT", "BUF_FMT_16_FLOAT", "BUF_FMT_8_8_UNORM",
	"BUF_FMT_8_8_SNORM", "BUF_FMT_8_8_USCALED", "BUF_FMT_8_8_SSCALED", "BUF_FMT_8_8_UINT",
	"BUF_FMT_8_8_SINT", "BUF_FMT_32_UINT", "BUF_FMT_32_SINT", "BUF_FMT_32_FLOAT", "BUF_FMT_16_16_UNORM",
	"BUF_FMT_16_16_SNORM", "BUF_FMT_16_16_USCALED", "BUF_FMT_16_16_SSCALED", "BUF_FMT_16_16_UINT",
	"BUF_FMT_16_16_SINT", "BUF_FMT_16_16_FLOAT", "BUF_FMT_10_11_11_UNORM", "BUF_FMT_10_11_11_SNORM",
	"BUF_FMT_10_11_11_USCALED", "BUF_FMT_10_11_11_SSCALED", "BUF_FMT_10_11_11_UINT",
	"BUF_FMT_10_11_11_SINT", "BUF_FMT_10_11_11_FLOAT", "BUF_FMT_11_11_10_UNORM", "BUF_FMT_11_11_10_SNORM",
	"BUF_FMT_11_11_10_USCALED", "BUF_FMT_11_11_10_SSCALED", "BUF_FMT_11_11_10_UINT",
	"BUF_FMT_11_11_10_SINT", "BUF_FMT_11_11_10_FLOAT", "BUF_FMT_10_10_10_2_UNORM",
	"BUF_FMT_10_10_10_2_SNORM", "BUF_FMT_10_10_10_2_USCALED", "BUF_FMT_10_10_10_2_SSCALED",
	"BUF_FMT_10_10_10_2_UINT", "BUF_FMT_10_10_10_2_SINT", "BUF_FMT_2_10_10_10_UNORM",
	"BUF_FMT_2_10_10_10_SNORM", "BUF_FMT_2_10_10_10_USCALED", "BUF_FMT_2_10_10_10_SSCALED",
	"BUF_FMT_2_10_10_10_UINT", "BUF_FMT_2_10_10_10_SINT", "BUF_FMT_8_8_8_8_UNORM", "BUF_FMT_8_8_8_8_SNORM",
	"BUF_FMT_8_8_8_8_USCALED", "BUF_FMT_8_8_8_8_SSCALED", "BUF_FMT_8_8_8_8_UINT", "BUF_FMT_8_8_8_8_SINT",
	"BUF_FMT_32_32_UINT", "BUF_FMT_32_32_SINT", "BUF_FMT_32_32_FLOAT", "BUF_FMT_16_16_16_16_UNORM",
	"BUF_FMT_16_16_16_16_SNORM", "BUF_FMT_16_16_16_16_USCALED", "BUF_FMT_16_16_16_16_SSCALED",
	"BUF_FMT_16_16_16_16_UINT", "BUF_FMT_16_16_16_16_SINT", "BUF_FMT_16_16_16_16_FLOAT",
	"BUF_FMT_32_32_32_UINT", "BUF_FMT_32_32_32_SINT", "BUF_FMT_32_32_32_FLOAT", "BUF_FMT_32_32_32_32_UINT",
	"BUF_FMT_32_32_32_32_SINT", "BUF_FMT_32_32_32_32_FLOAT",
};

static void dis_buf(dis_ctx *c)
{
	const xs_inst *in = &c->in;
	const char *name = c->oi->name;
	uint32_t f = c->oi->flags;
	unsigned op = in->op;
	if (op == XS_OP_buffer_gl0_inv || op == XS_OP_buffer_gl1_inv || op == XS_OP_buffer_wbinvl1) {
		if ((c->w[0] >> 12) & 0x1f)
			c->reject = true;  /* no addressing or cache modifiers */
		dis_puts(c, name);
		return;
	}
	unsigned dw = XS_MAX(1u, XS_OPF_DW_OF(f));
	if (has(name, "cmpswap"))
		dw *= 2;
	bool offen = (in->mods & XS_MOD_OFFEN) != 0, idxen = (in->mods & XS_MOD_IDXEN) != 0;
	bool lds = (in->mods & XS_MOD_LDS) != 0 && in->enc == XS_ENC_MUBUF;
	if (lds && op != XS_OP_buffer_load_format_x && op != XS_OP_buffer_load_ubyte && op != XS_OP_buffer_load_sbyte &&
	    op != XS_OP_buffer_load_ushort && op != XS_OP_buffer_load_sshort && op != XS_OP_buffer_load_dword)
		c->reject = true;  /* the loads with an LDS form */
	if ((f & XS_OPF_ATOMIC) && ((in->mods & XS_MOD_DLC) || (has(name, "csub") && !(in->mods & XS_MOD_GLC))))
		c->reject = true;  /* atomics: no dlc; csub only returning */
	dis_printf(c, "%s ", name);
	if (!lds) {  /* loads to LDS have no VGPR data */
		vreg(c, in->dst, dw);
		dis_puts(c, ", ");
	}
	if (offen || idxen)
		vreg(c, in->src[0], offen && idxen ? 2 : 1);
	else
		dis_puts(c, "off");
	dis_puts(c, ", ");
	dis_reg(c, in->src[1], 4);
	dis_puts(c, ", ");
	if (in->src[2] == XS_SRC_LITERAL) {
		/* a literal soffset: LLVM reads the dword after the instruction */
		if (c->nw < 3)
			c->reject = true;
		else
			dis_imm32(c, c->w[2]);
		c->extra = 4;
	} else {
		dis_src(c, in->src[2], DT_B32, 0);
	}
	if (in->enc == XS_ENC_MTBUF && in->ext != 1) {
		if (in->ext < XS_ARRAY_SIZE(ufmt))
			dis_printf(c, " format:[%s]", ufmt[in->ext]);
		else
			dis_printf(c, " format:%u", in->ext);
	}
	dis_bit(c, idxen, "idxen");
	dis_bit(c, offen, "offen");
	if (in->imm)
		dis_printf(c, " offset:%u", in->imm);
	dis_bit(c, in->mods & XS_MOD_GLC, "glc");
	dis_bit(c, in->mods & XS_MOD_SLC, "slc");
	dis_bit(c, in->mods & XS_MOD_DLC, "dlc");
	dis_bit(c, lds, "lds");
	dis_bit(c, (in->mods & XS_MOD_TFE) && !(f & XS_OPF_ATOMIC) && !lds, "tfe");
}

/* ---- FLAT / GLOBAL / SCRATCH ---------------------------------------------------------- */

static void dis_flat(dis_ctx *c)
{
	const xs_inst *in = &c->in;
	const char *name = c->oi->name;
	uint32_t f = c->oi->flags;
	unsigned dw = XS_MAX(1u, XS_OPF_DW_OF(f));
	bool atomic = (f & XS_OPF_ATOMIC) != 0, glc = (in->mods & XS_MOD_GLC) != 0;
	bool lds = (in->mods & XS_MOD_LDS) != 0;
	/* vdst: loads (not to LDS), returning atomics */
	bool has_dst = ((f & XS_OPF_LOAD) && !lds) || (atomic && (glc || in->op == XS_OP_global_atomic_csub));
	bool has_data = (f & (XS_OPF_STORE | XS_OPF_ATOMIC)) != 0;
	bool addtid = has(name, "_addtid");
	if (atomic && has(name, "csub") && !glc)
		c->reject = true;  /* csub only returns */
	if (in->enc == XS_ENC_FLAT && ((c->w[1] >> 16) & 0x7f) != 0x7d)
		c->reject = true;  /* flat has no saddr */
	if ((c->w[1] >> 23) & 1)
		c->reject = true;  /* reserved */
	if (lds && (in->enc == XS_ENC_FLAT || !(has(name, "load_ubyte") || has(name, "load_sbyte") ||
	                                        has(name, "load_ushort") || has(name, "load_sshort") ||
	                                        !strcmp(name + 7, "load_dword") || !strcmp(name + 8, "load_dword")) ||
	            has(name, "d16")))
		c->reject = true;  /* the loads with an LDS form */
	const char *sep = " ";
	dis_puts(c, name);
	if (has_dst) {
		dis_puts(c, sep);
		vreg(c, in->dst, dw);
		sep = ", ";
	}
	if (in->enc == XS_ENC_FLAT) {
		dis_puts(c, sep);
		vreg(c, in->src[0], 2);
		sep = ", ";
	} else if (in->enc == XS_ENC_GLOBAL) {
		if (!addtid) {
			dis_puts(c, sep);
			vreg(c, in->src[0], in->src[2] == XS_SREG_NULL ? 2 : 1);
			sep = ", ";
		}
	} else {
		dis_puts(c, sep);
		if (in->src[0] == XS_SREG_NULL)
			dis_puts(c, "off");
		else
			vreg(c, in->src[0], 1);
		sep = ", ";
	}
	if (has_data) {
		dis_puts(c, sep);
		vreg(c, in->src[1], has(name, "cmpswap") ? 2 * dw : dw);
		sep = ", ";
	}
	if (in->enc != XS_ENC_FLAT) {
		dis_puts(c, sep);
		if (in->enc == XS_ENC_GLOBAL && ((c->w[1] >> 16) & 0x7f) == 0x7f) {
			dis_note(c, "Error: unknown operand encoding 127");  /* "off" is 0x7d */
			c->bad = true;
		} else if (in->src[2] == XS_SREG_NULL)
			dis_puts(c, "off");
		else
			dis_reg(c, in->src[2], in->enc == XS_ENC_GLOBAL ? 2 : 1);
	}
	if (in->imm)
		dis_printf(c, " offset:%d", in->imm);
	dis_bit(c, glc, "glc");
	dis_bit(c, in->mods & XS_MOD_SLC, "slc");
	dis_bit(c, in->mods & XS_MOD_DLC, "dlc");
	dis_bit(c, lds, "lds");
}

/* ---- MIMG ------------------------------------------------------------------------------ */

static const char *const dim_name[8] = {
	"1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY",
};

/* MIMG address operands (LLVM's getAddrSizeMIMGOp): extra arguments
 * (offset, bias, compare), coordinates plus lod / clamp / mip (packed two
 * per dword with a16), derivatives (packed only by the _g16 ops). */
typedef struct mimg_kind {
	bool sampler;       /* sample / gather4 / get_lod */
	unsigned extra;     /* o, b, c */
	bool coords;        /* uses the dim's coordinates (get_resinfo does not) */
	bool lcm;           /* lod, clamp or mip level */
	bool grads, g16;
} mimg_kind;

static mimg_kind mimg_kind_of(const char *name)
{
	mimg_kind k = { .coords = true };
	const char *p = name + 6;  /* after "image_" */
	k.sampler = !strncmp(p, "sample", 6) || !strncmp(p, "gather4", 7) || !strncmp(p, "get_lod", 7);
	if (!strcmp(p, "get_resinfo")) {
		k.coords = false;
		k.lcm = true;
		return k;
	}
	if (!k.sampler || !strncmp(p, "get_lod", 7)) {
		k.lcm = has(p, "_mip");
		return k;
	}
	for (const char *s = strchr(p, '_'); s; s = strchr(s + 1, '_')) {
		const char *m = s + 1;
		size_t len = strcspn(m, "_");
		bool one = len == 1, two = len == 2;
		if (one && (*m == 'c' || *m == 'o' || *m == 'b'))
			k.extra++;
		if ((one && *m == 'l') || (two && !strncmp(m, "cl", 2)))
			k.lcm = true;
		if ((one && *m == 'd') || (two && !strncmp(m, "cd", 2)))
			k.grads = true;
		if (len == 3 && !strncmp(m, "g16", 3))
			k.g16 = true;
	}
	return k;
}

static unsigned mimg_addr_words(const mimg_kind *k, unsigned dim, unsigned a16)
{
	static const unsigned coords[8] = { 1, 2, 3, 3, 2, 3, 3, 4 };
	static const unsigned grads[8] = { 2, 4, 6, 4, 2, 4, 4, 4 };
	unsigned comps = (k->coords ? coords[dim] : 0) + (k->lcm ? 1 : 0);
	unsigned n = k->extra + (a16 ? (comps + 1) / 2 : comps);
	if (k->grads)
		n += k->g16 ? ((grads[dim] / 2 + 1) & ~1u) : grads[dim];
	return n;
}

/* The address counts LLVM has sampler variants for: 1..3 (2..9 with
 * derivatives, the _g16 ops too), one more with lod / clamp, plus the
 * extra arguments; the other ops 1..4. */
static void mimg_addr_range(const mimg_kind *k, unsigned *lo, unsigned *hi)
{
	*lo = 1;
	*hi = 4;
	if (k->sampler) {
		*lo = (k->grads ? 2 : 1) + k->extra;
		*hi = (k->grads ? 9 : 3) + (k->lcm ? 1 : 0) + k->extra;
	}
}

/* Whether there is a (non-NSA) variant for n address registers: one per
 * register class (3 also takes 4, 5..8 take 8, more 16). */
static bool mimg_addr_variant(const mimg_kind *k, unsigned n, unsigned *smallest)
{
	unsigned lo, hi;
	mimg_addr_range(k, &lo, &hi);
	*smallest = lo;
	bool found = false;
	for (unsigned m = lo; m <= hi; m++)
		found |= m == n || (n == 4 && m == 3) || (n == 8 && m >= 5 && m <= 8) || (n == 16 && m > 8);
	return found;
}

/* NSA variants: each count of the range from 2 up. */
static bool mimg_nsa_variant(const mimg_kind *k, unsigned n)
{
	unsigned lo, hi;
	mimg_addr_range(k, &lo, &hi);
	return n >= 2 && n >= lo && n <= hi;
}

static void dis_mimg(dis_ctx *c)
{
	const xs_inst *in = &c->in;
	const char *name = c->oi->name;
	unsigned e = in->ext;
	bool bvh = has(name, "bvh");
	bool bvh64 = has(name, "bvh64");
	bool gather = has(name, "gather4");
	bool atomic = has(name, "atomic");
	bool cmpswap = has(name, "cmpswap");
	mimg_kind k = mimg_kind_of(name);
	unsigned dmask = XS_MIMG_DMASK(e), dim = XS_MIMG_DIM(e);
	bool a16 = (e & XS_MIMG_A16) != 0, d16 = (e & XS_MIMG_D16) != 0, tfe = (in->mods & XS_MOD_TFE) != 0;
	if (d16 && (atomic || has(name, "_pck") || has(name, "get_resinfo") || has(name, "get_lod")))
		c->reject = true;  /* no d16 form */
	if (!k.sampler && ((c->w[1] >> 21) & 0x1f))
		c->reject = true;  /* no sampler: the ssamp field must be 0 */
	if (bvh) {
		/* fixed fields of the BVH ops; NSA must hold exactly their addresses */
		unsigned need = bvh64 ? (a16 ? 9 : 12) : (a16 ? 8 : 11);
		if (dim || dmask != 0xf || (in->mods & (XS_MOD_GLC | XS_MOD_DLC | XS_MOD_TFE | XS_MOD_SLC)) ||
		    (e & (XS_MIMG_LWE | XS_MIMG_D16)) || !(e & XS_MIMG_UNORM) || !(e & XS_MIMG_R128) ||
		    (XS_MIMG_NSA(e) && XS_MIMG_NSA(e) != (need + 2) / 4))
			c->reject = true;
	}
	/* LLVM decodes the smallest variant, then switches to the one with the
	 * data size (channels, halved by d16, plus tfe) and address size the
	 * fields ask for; when there is no such variant it keeps the first. */
	unsigned nd, na, nd0, na0;
	bool have, have_d = true;
	if (bvh) {
		nd = nd0 = 4;
		na = na0 = bvh64 ? (a16 ? 9 : 12) : (a16 ? 8 : 11);
		if (!XS_MIMG_NSA(e) && na > 8)
			na = na0 = 16;
		have = true;
	} else {
		unsigned ch = XS_MAX(1u, (unsigned)__builtin_popcount(dmask));
		if (atomic) {
			nd = ch + tfe;
			nd0 = cmpswap ? 2 : 1;
			have = cmpswap ? (nd == 2 || nd == 4) : (nd == 1 || nd == 2);
		} else {
			nd = gather ? 4 : ch;
			if (d16)
				nd = (nd + 1) / 2;
			nd += tfe;
			nd0 = gather ? 4 : 1;
			have = gather ? (nd == 2 || nd == 4 || nd == 5) : nd <= 5;
		}
		na = mimg_addr_words(&k, dim, a16);
		if (na > 8)
			na = 16;
		if (!XS_MIMG_NSA(e) && in->src[0] - XS_SRC_VGPR + na > 256)
			have = false;
		if (in->dst - XS_SRC_VGPR + nd > 256 || in->dst - XS_SRC_VGPR + nd0 > 256)
			have = false;  /* (the first variant decoded must fit as well) */
		have_d = have;  /* (the NSA forms' address counts differ) */
		have &= mimg_addr_variant(&k, na, &na0);
	}
	if (!have) {
		nd = nd0;
		na = na0;
	}
	if (XS_MIMG_NSA(e) && !bvh) {
		/* NSA: the decoded variant is the largest address count the
		 * instruction's address dwords hold; it stays when the computed
		 * count does not fit it */
		static const unsigned group_lo[4] = { 0, 2, 6, 10 }, group_hi[4] = { 0, 5, 9, 12 };
		unsigned cap = 0, nsa = XS_MIMG_NSA(e);
		for (unsigned m = group_hi[nsa]; m >= group_lo[nsa] && !cap; m--)
			if (mimg_nsa_variant(&k, m))
				cap = m;
		if (!cap)
			c->reject = true;  /* no variant has that many address dwords */
		na = mimg_addr_words(&k, dim, a16);
		if (!have_d || na > cap || na < 2 || !mimg_nsa_variant(&k, na)) {
			nd = nd0;  /* LLVM leaves the decoded variant alone */
			na = cap;
		}
	}
	dis_printf(c, "%s ", name);
	vreg(c, in->dst, nd);
	dis_puts(c, ", ");
	if (XS_MIMG_NSA(e)) {
		dis_puts(c, "[");
		for (unsigned i = 0; i < na; i++) {
			if (i)
				dis_puts(c, ", ");
			vreg(c, xs_isa_mimg_vaddr(in, i), 1);
		}
		dis_puts(c, "]");
	} else {
		vreg(c, in->src[0], na);
	}
	dis_puts(c, ", ");
	dis_reg(c, in->src[1], bvh ? 4 : 8);
	if (k.sampler) {
		dis_puts(c, ", ");
		dis_reg(c, in->src[2], 4);
	}
	if (!bvh) {
		if (dmask)
			dis_printf(c, " dmask:0x%x", dmask);
		dis_printf(c, " dim:SQ_RSRC_IMG_%s", dim_name[dim]);
		dis_bit(c, e & XS_MIMG_UNORM, "unorm");
	}
	dis_bit(c, in->mods & XS_MOD_GLC, "glc");
	dis_bit(c, in->mods & XS_MOD_SLC, "slc");
	dis_bit(c, in->mods & XS_MOD_DLC, "dlc");
	if (!bvh)
		dis_bit(c, e & XS_MIMG_R128, "r128");
	dis_bit(c, a16, "a16");
	dis_bit(c, tfe, "tfe");
	dis_bit(c, e & XS_MIMG_LWE, "lwe");
	dis_bit(c, d16, "d16");
}

/* ---- EXP / VINTRP ---------------------------------------------------------------------- */

static void dis_exp(dis_ctx *c)
{
	const xs_inst *in = &c->in;
	unsigned en = in->ext & 0xf, tgt = (in->ext >> 4) & 0x3f;
	bool compr = (in->ext >> 10) & 1, done = (in->ext >> 11) & 1, vm = (in->ext >> 12) & 1;
	dis_puts(c, "exp ");
	if (tgt <= 7)
		dis_printf(c, "mrt%u", tgt);
	else if (tgt == 8)
		dis_puts(c, "mrtz");
	else if (tgt == 9)
		dis_puts(c, "null");
	else if (tgt >= 12 && tgt <= 16)
		dis_printf(c, "pos%u", tgt - 12);
	else if (tgt == 20)
		dis_puts(c, "prim");
	else if (tgt >= 32)
		dis_printf(c, "param%u", tgt - 32);
	else
		dis_printf(c, "invalid_target_%u", tgt);
	for (unsigned i = 0; i < 4; i++) {
		dis_puts(c, i ? ", " : " ");
		unsigned src = compr ? in->src[i / 2] : in->src[i];
		if (en & (1u << i))
			vreg(c, src, 1);
		else
			dis_puts(c, "off");
	}
	dis_bit(c, done, "done");
	dis_bit(c, compr, "compr");
	dis_bit(c, vm, "vm");
}

static void dis_vintrp(dis_ctx *c)
{
	const xs_inst *in = &c->in;
	static const char *const slot[3] = { "p10", "p20", "p0" };
	dis_printf(c, "%s_e32 ", c->oi->name);
	vreg(c, in->dst, 1);
	dis_puts(c, ", ");
	if (in->op == XS_OP_v_interp_mov_f32) {
		unsigned s = in->src[0] - XS_SRC_VGPR;
		if (s < 3)
			dis_puts(c, slot[s]);
		else
			dis_printf(c, "invalid_param_%u", s);
	} else {
		vreg(c, in->src[0], 1);
	}
	dis_printf(c, ", attr%u.%c", in->ext & 0x3f, "xyzw"[(in->ext >> 6) & 3]);
}

void xs_dis_mem(dis_ctx *c)
{
	switch (c->in.enc) {
	case XS_ENC_DS: dis_ds(c); break;
	case XS_ENC_MUBUF: case XS_ENC_MTBUF: dis_buf(c); break;
	case XS_ENC_FLAT: case XS_ENC_GLOBAL: case XS_ENC_SCRATCH: dis_flat(c); break;
	case XS_ENC_MIMG: dis_mimg(c); break;
	case XS_ENC_EXP: dis_exp(c); break;
	case XS_ENC_VINTRP: dis_vintrp(c); break;
	default: c->reject = true; break;
	}
}
