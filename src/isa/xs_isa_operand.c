/*
 * Operand access shared by the instruction bodies: inline constants and
 * special scalar sources, VALU source modifiers (DPP16/DPP8 lane selection,
 * SDWA sub-dword selects, VOP3 op_sel / abs / neg), result write-back (SDWA
 * dst_sel, 16-bit halves, omod/clamp, EXEC), f16 conversion and GPU memory
 * copies split at page boundaries.
 */
#include "isa/xs_isa_priv.h"

/* Inline float constants 240..248: 0.5, -0.5, 1, -1, 2, -2, 4, -4, 1/(2*pi). */
const uint32_t xs_inline_f32[9] = {
	0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000,
	0x3e22f983,
};
const uint64_t xs_inline_f64[9] = {
	0x3fe0000000000000ull, 0xbfe0000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
	0x4000000000000000ull, 0xc000000000000000ull, 0x4010000000000000ull, 0xc010000000000000ull,
	0x3fc45f306dc9c882ull,
};
const uint16_t xs_inline_f16[9] = {
	0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
};

static uint64_t aperture64(unsigned s)
{
	switch (s) {
	case XS_SRC_SHARED_BASE: return XS_APERTURE_SHARED_BASE;
	case XS_SRC_SHARED_LIMIT: return XS_APERTURE_SHARED_BASE | 0xffffffffull;
	case XS_SRC_PRIVATE_BASE: return XS_APERTURE_PRIVATE_BASE;
	default: return XS_APERTURE_PRIVATE_BASE | 0xffffffffull; /* XS_SRC_PRIVATE_LIMIT */
	}
}

uint32_t xs_sread_special(const xs_wave *w, unsigned s)
{
	if (s <= XS_SRC_INTM16)
		return xs_inline_int(s);
	if (s >= XS_SRC_HALF && s <= XS_SRC_INV2PI)
		return xs_inline_f32[s - XS_SRC_HALF];
	switch (s) {
	case XS_SRC_SHARED_BASE: case XS_SRC_SHARED_LIMIT: case XS_SRC_PRIVATE_BASE: case XS_SRC_PRIVATE_LIMIT:
		/* 32-bit read of an aperture register: its high dword (the useful half) */
		return (uint32_t)(aperture64(s) >> 32);
	case XS_SRC_VCCZ:
		return ((w->s[XS_SREG_VCC_LO] | (uint64_t)w->s[XS_SREG_VCC_HI] << 32) & xs_lane_full(w)) == 0;
	case XS_SRC_EXECZ:
		return xs_wave_exec(w) == 0;
	case XS_SRC_SCC:
		return w->scc;
	default:
		return 0;
	}
}

uint64_t xs_sread_special64(const xs_wave *w, unsigned s)
{
	if (s <= XS_SRC_INTM16)
		return (uint64_t)(int64_t)(int32_t)xs_inline_int(s);
	if (s >= XS_SRC_HALF && s <= XS_SRC_INV2PI)
		return xs_inline_f64[s - XS_SRC_HALF];
	if (s >= XS_SRC_SHARED_BASE && s <= XS_SRC_PRIVATE_LIMIT)
		return aperture64(s);
	return xs_sread_special(w, s);
}

/* Scalar value of a non-VGPR VALU source, by the op's operand type. */
static uint32_t valu_const32(const xs_wave *w, const xs_inst *in, unsigned s, uint32_t f)
{
	if (s < 128)
		return w->s[s];
	if (s == XS_SRC_LITERAL)
		return in->literal;
	if ((f & XS_OPF_F16) && s >= XS_SRC_HALF && s <= XS_SRC_INV2PI)
		return xs_inline_f16[s - XS_SRC_HALF];
	return xs_sread_special(w, s);
}

/* DPP16: source lane for lane l, or -1 when the control reads outside the row. */
static int dpp16_lane(unsigned ctrl, int l)
{
	int r = l & ~15, i = l & 15, k = (int)(ctrl & 15);
	if (ctrl <= 0xff)
		return (l & ~3) | ((ctrl >> ((l & 3) * 2)) & 3);
	if (ctrl >= 0x101 && ctrl <= 0x10f)
		return i + k < 16 ? l + k : -1;                 /* row_shl: read lane + k */
	if (ctrl >= 0x111 && ctrl <= 0x11f)
		return i - k >= 0 ? l - k : -1;                 /* row_shr: read lane - k */
	if (ctrl >= 0x121 && ctrl <= 0x12f)
		return r | ((i - k) & 15);                      /* row_ror */
	if (ctrl == 0x140)
		return r | (15 - i);                            /* row_mirror */
	if (ctrl == 0x141)
		return (l & ~7) | (7 - (l & 7));                /* row_half_mirror */
	if (ctrl >= 0x150 && ctrl <= 0x15f)
		return r | k;                                   /* row_share (gfx10) */
	if (ctrl >= 0x160 && ctrl <= 0x16f)
		return r | (i ^ k);                             /* row_xmask (gfx10) */
	return -1;
}

static void apply_dpp(xs_vctx *c, const xs_wave *w, const xs_inst *in, const uint32_t *row, uint32_t *tmp)
{
	uint32_t e = in->ext;
	unsigned n = c->n;
	uint64_t exec = xs_wave_exec(w), keep = 0;
	uint32_t vals[XS_MAX_LANES];
	memcpy(vals, row, n * 4);   /* row may be tmp */
	if (in->mods & XS_MOD_DPP8) {
		bool fi = (in->mods & XS_MOD_DPP8_FI) != 0;
		for (unsigned l = 0; l < n; l++) {
			unsigned sl = (l & ~7u) | ((e >> (8 + 3 * (l & 7))) & 7);
			tmp[l] = (fi || ((exec >> sl) & 1)) ? vals[sl] : 0;
		}
		return;
	}
	unsigned ctrl = XS_DPP_CTRL(e);
	bool fi = XS_DPP_FI(e), bz = XS_DPP_BOUND_ZERO(e);
	unsigned rowm = XS_DPP_ROW_MASK(e), bankm = XS_DPP_BANK_MASK(e);
	for (unsigned l = 0; l < n; l++) {
		bool en = ((rowm >> (l >> 4)) & 1) && ((bankm >> ((l >> 2) & 3)) & 1);
		int sl = dpp16_lane(ctrl, (int)l);
		if (sl >= 0 && !fi && !((exec >> sl) & 1))
			sl = -1;                /* inactive source lane */
		if (sl < 0) {
			tmp[l] = 0;
			if (!bz)
				en = false;     /* no bound_ctrl: the lane keeps its old value */
		} else {
			tmp[l] = vals[sl];
		}
		if (en)
			keep |= 1ull << l;
	}
	c->mask &= keep;
}

static inline uint32_t sdwa_sel(uint32_t v, unsigned sel, bool sext)
{
	switch (sel) {
	case 0: case 1: case 2: case 3: {
		uint32_t b = (v >> (8 * sel)) & 0xff;
		return sext ? (uint32_t)(int32_t)(int8_t)b : b;
	}
	case 4: case 5: {
		uint32_t h = (v >> (16 * (sel - 4))) & 0xffff;
		return sext ? (uint32_t)(int32_t)(int16_t)h : h;
	}
	default:
		return v;
	}
}

const uint32_t *xs_vsrc32_slow(xs_vctx *c, const xs_wave *w, const xs_inst *in, unsigned i, uint32_t *tmp)
{
	uint32_t f = xs_op_table[in->op].flags;
	unsigned s = in->src[i], n = c->n;
	const uint32_t *row;
	if (s >= XS_SRC_VGPR) {
		row = w->v[s - XS_SRC_VGPR];
	} else {
		uint32_t k = valu_const32(w, in, s, f);
		for (unsigned l = 0; l < n; l++)
			tmp[l] = k;
		row = tmp;
	}
	if (in->enc == XS_ENC_VOP3P)
		return row;             /* packed ops apply their modifiers per half */
	if (i == 0 && (in->mods & (XS_MOD_DPP16 | XS_MOD_DPP8))) {
		apply_dpp(c, w, in, row, tmp);
		row = tmp;
	}
	if ((in->mods & XS_MOD_SDWA) && i < 2) {
		unsigned sel = i == 0 ? XS_SDWA_SRC0_SEL(in->ext) : XS_SDWA_SRC1_SEL(in->ext);
		bool sx = i == 0 ? XS_SDWA_SRC0_SEXT(in->ext) : XS_SDWA_SRC1_SEXT(in->ext);
		if (sel != 6) {
			for (unsigned l = 0; l < n; l++)
				tmp[l] = sdwa_sel(row[l], sel, sx);
			row = tmp;
		}
	}
	if ((in->mods & XS_MOD_OPSEL(i)) && (f & XS_OPF_SRC16)) {
		for (unsigned l = 0; l < n; l++)
			tmp[l] = row[l] >> 16;
		row = tmp;
	}
	uint32_t am = 0, nm = 0;
	/* float types take abs/neg on their sign bit; LLVM also puts fp
	 * modifiers on the untyped v_cndmask_b32 / v_mov_b32 (fneg/fabs selects) */
	uint32_t sign = (f & XS_OPF_F16) ? 0x8000u
			: ((f & XS_OPF_F32) || in->op == XS_OP_v_cndmask_b32 || in->op == XS_OP_v_mov_b32) ? 0x80000000u
			: 0;
	if (in->mods & XS_MOD_ABS(i))
		am = sign;
	if (in->mods & XS_MOD_NEG(i))
		nm = sign;
	if (am | nm) {
		for (unsigned l = 0; l < n; l++)
			tmp[l] = (row[l] & ~am) ^ nm;
		row = tmp;
	}
	return row;
}

void xs_vsrc64(const xs_wave *w, const xs_inst *in, unsigned i, uint64_t *tmp)
{
	uint32_t f = xs_op_table[in->op].flags;
	unsigned s = in->src[i], n = w->lanes;
	if (s >= XS_SRC_VGPR) {
		const uint32_t *lo = w->v[(s - XS_SRC_VGPR) & 0xff], *hi = w->v[(s - XS_SRC_VGPR + 1) & 0xff];
		for (unsigned l = 0; l < n; l++)
			tmp[l] = lo[l] | (uint64_t)hi[l] << 32;
	} else {
		uint64_t k;
		if (s == XS_SRC_LITERAL)
			k = (f & XS_OPF_F64) ? (uint64_t)in->literal << 32
			    : (f & XS_OPF_I64) ? (uint64_t)(int64_t)(int32_t)in->literal : in->literal;
		else if (s < 128)
			k = w->s[s] | (uint64_t)w->s[(s + 1) & 127] << 32;
		else
			k = xs_sread_special64(w, s);
		for (unsigned l = 0; l < n; l++)
			tmp[l] = k;
	}
	if ((f & XS_OPF_F64) && (in->mods & (XS_MOD_ABS(i) | XS_MOD_NEG(i)))) {
		uint64_t am = (in->mods & XS_MOD_ABS(i)) ? 1ull << 63 : 0;
		uint64_t nm = (in->mods & XS_MOD_NEG(i)) ? 1ull << 63 : 0;
		for (unsigned l = 0; l < n; l++)
			tmp[l] = (tmp[l] & ~am) ^ nm;
	}
}

/* Output modifiers of a float result. omod (x2, x4, /2) has no effect when
 * the result type's output denormals are enabled in MODE (CLRX
 * GcnInstrsVop3.md: "OMOD modifier doesn't work if output denormals are
 * allowed"; LLVM SIFoldOperands folds omod only when they are flushed).
 * clamp: [0, 1]; a NaN becomes 0 with MODE.DX10_CLAMP, else stays NaN. */
static float omod_clamp_f32(float v, unsigned omod, bool clamp, bool denorm_out, uint32_t mode)
{
	if (!denorm_out) {
		if (omod == 1)
			v *= 2.0f;
		else if (omod == 2)
			v *= 4.0f;
		else if (omod == 3)
			v *= 0.5f;
	}
	if (clamp) {
		if (isnan(v))
			v = (mode & XS_MODE_DX10_CLAMP) ? 0.0f : v;
		else
			v = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
	}
	return v;
}

void xs_vdst32_slow(xs_vctx *c, xs_wave *w, const xs_inst *in, uint32_t *res)
{
	uint32_t f = xs_op_table[in->op].flags;
	unsigned n = c->n;
	unsigned omod = (in->mods >> XS_MOD_OMOD_SHIFT) & 3;
	bool clamp = (in->mods & XS_MOD_CLAMP) != 0;
	if ((omod || clamp) && (f & XS_OPF_DF32)) {
		bool dn = (w->mode >> 5) & 1;
		for (unsigned l = 0; l < n; l++)
			res[l] = xs_f2u(omod_clamp_f32(xs_u2f(res[l]), omod, clamp, dn, w->mode));
	} else if ((omod || clamp) && (f & XS_OPF_DF16)) {
		bool dn = (w->mode >> 7) & 1;
		for (unsigned l = 0; l < n; l++)
			res[l] = xs_f32_to_f16(omod_clamp_f32(xs_f16_to_f32((uint16_t)res[l]), omod, clamp, dn, w->mode));
	}
	uint32_t *d = xs_vrow(w, in->dst);
	if (in->mods & XS_MOD_SDWA) {
		uint32_t e = in->ext;
		unsigned sel = XS_SDWA_DST_SEL(e), unused = XS_SDWA_DST_UNUSED(e);
		/* 6 is DWORD; the reserved 7 too, as in the source selects
		 * (it would shift by 48 below) */
		if (sel < 6) {
			unsigned sh = sel < 4 ? 8 * sel : 16 * (sel - 4), width = sel < 4 ? 8 : 16;
			uint32_t fm = sel < 4 ? 0xffu : 0xffffu, m = fm << sh;
			for (unsigned l = 0; l < n; l++) {
				uint32_t v = (res[l] & fm) << sh;
				if (unused == 2)                        /* UNUSED_PRESERVE */
					v |= d[l] & ~m;
				else if (unused == 1 && ((v >> (sh + width - 1)) & 1) && sh + width < 32)
					v |= ~0u << (sh + width);       /* UNUSED_SEXT */
				res[l] = v;
			}
		}
	} else if (f & XS_OPF_DST16) {
		/* gfx10: 16-bit results preserve the other half of the register */
		bool hi = (in->mods & XS_MOD_OPSEL(3)) != 0;
		for (unsigned l = 0; l < n; l++)
			res[l] = hi ? (d[l] & 0xffffu) | res[l] << 16 : (d[l] & 0xffff0000u) | (res[l] & 0xffffu);
	}
	xs_vstore_rows(d, res, c->mask, n);
}

void xs_vdst64(xs_vctx *c, xs_wave *w, const xs_inst *in, uint64_t *res)
{
	uint32_t f = xs_op_table[in->op].flags;
	unsigned n = c->n;
	unsigned omod = (in->mods >> XS_MOD_OMOD_SHIFT) & 3;
	bool clamp = (in->mods & XS_MOD_CLAMP) != 0;
	if ((omod || clamp) && (f & XS_OPF_DF64)) {
		bool dn = (w->mode >> 7) & 1;       /* see omod_clamp_f32 */
		for (unsigned l = 0; l < n; l++) {
			double v = xs_u2d(res[l]);
			if (!dn) {
				if (omod == 1) v *= 2.0;
				else if (omod == 2) v *= 4.0;
				else if (omod == 3) v *= 0.5;
			}
			if (clamp) {
				if (isnan(v))
					v = (w->mode & XS_MODE_DX10_CLAMP) ? 0.0 : v;
				else
					v = v > 0.0 ? (v < 1.0 ? v : 1.0) : 0.0;
			}
			res[l] = xs_d2u(v);
		}
	}
	unsigned r = (in->dst - XS_SRC_VGPR) & 0xff;
	uint32_t *lo = w->v[r], *hi = w->v[(r + 1) & 0xff];
	uint64_t m = c->mask;
	if (m == (n == 64 ? ~0ull : (1ull << n) - 1)) {
		/* every lane: a loop the compiler vectorises (lane-by-lane stores
		 * read back by the next instruction's vector loads stall) */
		for (unsigned l = 0; l < n; l++) {
			lo[l] = (uint32_t)res[l];
			hi[l] = (uint32_t)(res[l] >> 32);
		}
		return;
	}
	for (unsigned l = 0; l < n; l++) {
		if ((m >> l) & 1) {
			lo[l] = (uint32_t)res[l];
			hi[l] = (uint32_t)(res[l] >> 32);
		}
	}
}

/* ---- f16 ---------------------------------------------------------------- */
float xs_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
	uint32_t u;
	if (e == 0x1f) {
		u = sign | 0x7f800000u | (m << 13);
	} else if (e) {
		u = sign | ((e + 112) << 23) | (m << 13);
	} else if (m) {
		/* denormal: normalise */
		int sh = 0;
		while (!(m & 0x400)) {
			m <<= 1;
			sh++;
		}
		u = sign | ((uint32_t)(113 - sh) << 23) | ((m & 0x3ff) << 13);
	} else {
		u = sign;
	}
	return xs_u2f(u);
}

static uint16_t f32_to_f16(float f, bool rtz)
{
	uint32_t u = xs_f2u(f);
	uint32_t sign = (u >> 16) & 0x8000, e = (u >> 23) & 0xff, m = u & 0x7fffff;
	if (e == 0xff)
		return (uint16_t)(sign | 0x7c00 | (m ? 0x200 | (m >> 13) : 0));
	int ex = (int)e - 127 + 15;
	if (ex >= 0x1f)
		return (uint16_t)(sign | (rtz ? 0x7bff : 0x7c00));
	uint32_t mant = m | 0x800000;     /* 24 bits */
	int shift;                        /* bits dropped from the 24-bit mantissa */
	uint32_t base;
	if (ex <= 0) {
		shift = 14 - ex;              /* denormal half */
		if (shift > 24)
			return (uint16_t)sign;
		base = 0;
	} else {
		shift = 13;
		base = (uint32_t)ex << 10;
	}
	uint32_t q = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
	uint32_t r = ex <= 0 ? q : (base | (q & 0x3ff));
	if (!rtz && (rem > half || (rem == half && (q & 1))))
		r++;                          /* carries into the exponent correctly */
	return (uint16_t)(sign | r);
}

uint16_t xs_f32_to_f16(float f) { return f32_to_f16(f, false); }
uint16_t xs_f32_to_f16_rtz(float f) { return f32_to_f16(f, true); }

/* ---- memory -------------------------------------------------------------- */
bool xs_gmem_read(xs_vm *vm, uint64_t va, void *dst, unsigned n, uint64_t *bad)
{
	uint8_t *d = dst;
	while (n) {
		unsigned chunk = XS_VM_PAGE_SIZE - (unsigned)(va & (XS_VM_PAGE_SIZE - 1));
		if (chunk > n)
			chunk = n;
		const uint8_t *p = xs_vm_ptr_n(vm, va, chunk, false);
		if (!p) {
			*bad = xs_vm_first_bad(vm, va);
			return false;
		}
		memcpy(d, p, chunk);
		d += chunk;
		va += chunk;
		n -= chunk;
	}
	return true;
}

bool xs_gmem_write(xs_vm *vm, uint64_t va, const void *src, unsigned n, uint64_t *bad)
{
	const uint8_t *s = src;
	/* Check every page first so that a faulting store writes nothing. */
	uint64_t a = va;
	unsigned left = n;
	while (left) {
		unsigned chunk = XS_VM_PAGE_SIZE - (unsigned)(a & (XS_VM_PAGE_SIZE - 1));
		if (chunk > left)
			chunk = left;
		if (!xs_vm_ptr_n(vm, a, chunk, false)) {
			*bad = xs_vm_first_bad(vm, a);
			return false;
		}
		a += chunk;
		left -= chunk;
	}
	while (n) {
		unsigned chunk = XS_VM_PAGE_SIZE - (unsigned)(va & (XS_VM_PAGE_SIZE - 1));
		if (chunk > n)
			chunk = n;
		uint8_t *p = xs_vm_ptr_n(vm, va, chunk, true);
		if (!p) {
			*bad = xs_vm_first_bad(vm, va);
			return false;
		}
		memcpy(p, s, chunk);
		s += chunk;
		va += chunk;
		n -= chunk;
	}
	return true;
}
