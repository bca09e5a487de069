/*
 * Graphics-stage instructions: exp (to the GPU model's export sink) and the
 * parameter interpolation ops v_interp_p1/p2/mov_f32, which read the
 * primitive data the SPI placed in the wave's LDS (layout: xs_isa.h,
 * xs_wave.interp_prim_stride; docs/graphics.md "Interpolation").
 *
 * RDNA ISA guide, "Interpolation": P1 computes P10 * I + P0 and P2 adds
 * P20 * J to it, each with one rounding (a fused multiply-add), so the
 * two-step result equals the hardware's for the same I, J.
 */
#include <stdio.h>

#include "isa/xs_isa_priv.h"
#include "hw/xs_hw_gfx.h"

/* ---- exp ---------------------------------------------------------------------- */
XS_EXEC(exp)
{
	xs_isa_ctx *ctx = x->ctx;
	if (!ctx->export_fn)
		return xs_exec_fault(x, w, in, XS_FAULT_ILLEGAL, x->pc, "exp outside a graphics stage");
	xs_isa_export e;
	uint32_t f = in->ext;
	e.en = f & 0xf;
	e.tgt = (f >> 4) & 0x3f;
	e.compr = (f >> 10) & 1;
	e.done = (f >> 11) & 1;
	e.vm = (f >> 12) & 1;
	e.exec = xs_wave_exec(w);
	for (unsigned i = 0; i < 4; i++) {
		bool on = e.compr ? (i < 2 && ((e.en >> (2 * i)) & 1)) : ((e.en >> i) & 1);
		e.src[i] = on ? w->v[(in->src[i] - XS_SRC_VGPR) & 0xff] : NULL;
	}
	int r = ctx->export_fn(ctx->export_user, w, &e);
	if (r == XS_EXPORT_OK)
		return 0;
	if (r == XS_EXPORT_WAIT) {
		w->pc = x->pc;           /* runs again when the SPI resumes the wave */
		return XS_WAVE_EXP_WAIT;
	}
	char d[64];
	if (r == XS_EXPORT_NO_MEMORY) {
		snprintf(d, sizeof(d), "no host memory for the export to target %u", e.tgt);
		return xs_exec_fault(x, w, in, XS_FAULT_HOST_MEMORY, x->pc, d);
	}
	snprintf(d, sizeof(d), "the export sink refused target %u", e.tgt);
	return xs_exec_fault(x, w, in, XS_FAULT_ILLEGAL, x->pc, d);
}

/* ---- v_interp_* ------------------------------------------------------------------ */
/* The byte offset in LDS of lane l's attribute data (P0 of channel c). */
static inline bool interp_addr(const xs_wave *w, unsigned attr, unsigned chan, unsigned l, uint32_t *off)
{
	uint32_t m0 = w->s[XS_SREG_M0];
	uint32_t mask = m0 >> 16, quad = l / 4;
	uint32_t below = quad >= 31 ? mask : mask & ((2u << quad) - 1);
	unsigned k = (unsigned)__builtin_popcount(below);
	uint64_t a = (uint64_t)(m0 & 0xffff) + (uint64_t)(k ? k - 1 : 0) * w->interp_prim_stride + attr * XS_INTERP_ATTR_BYTES + chan * 4u;
	if (a + 36 > w->lds_size || !w->lds)
		return false;
	*off = (uint32_t)a;
	return true;
}

static inline float lds_f32(const xs_wave *w, uint32_t off)
{
	float f;
	memcpy(&f, w->lds + off, 4);
	return f;
}

static int interp_fault(xs_exec *x, xs_wave *w, const xs_inst *in, unsigned l)
{
	char d[80];
	snprintf(d, sizeof(d), "lane %u: parameter data outside the wave's LDS (%u bytes)", l, w->lds_size);
	return xs_exec_fault(x, w, in, XS_FAULT_LDS, w->s[XS_SREG_M0] & 0xffff, d);
}

/* The VINTRP encoding: ext = attr | chan << 6, src[0] the barycentric VGPR
 * (mov: the slot, P10 P20 P0). Their VOP3 form (v_interp_*_e64: clamp,
 * omod, source modifiers) puts the attribute in the src0 field (attrN.c as
 * attr | chan << 6, what the disassembler prints) and the barycentric, any
 * 32-bit source, or mov's slot in src1. */
static int interp(xs_exec *x, xs_wave *w, const xs_inst *in, int kind)
{
	const bool vop3 = in->enc == XS_ENC_VOP3;
	const unsigned a = vop3 ? in->src[0] : in->ext, attr = a & 0x3f, chan = (a >> 6) & 3;
	xs_vctx c;
	xs_vbegin(w, &c);
	uint64_t e = c.mask;
	uint32_t *d = xs_vrow(w, in->dst), tmp[XS_MAX_LANES], res[XS_MAX_LANES];
	const uint32_t *s = kind != 2 ? xs_vsrc32(&c, w, in, vop3 ? 1 : 0, tmp) : NULL;
	unsigned sel = vop3 ? in->src[1] : (in->src[0] - XS_SRC_VGPR) & 3; /* mov: 0 P10, 1 P20, 2 P0 */
	if (kind == 2 && sel > 2)
		return xs_exec_fault(x, w, in, XS_FAULT_ILLEGAL, 0, "parameter slot past P0");
	for (unsigned l = 0; l < w->lanes; l++) {
		if (!((e >> l) & 1))
			continue;
		uint32_t off;
		if (!interp_addr(w, attr, chan, l, &off))
			return interp_fault(x, w, in, l);
		float p0 = lds_f32(w, off), p10 = lds_f32(w, off + 16), p20 = lds_f32(w, off + 32);
		float r;
		if (kind == 0)
			r = fmaf(p10, xs_u2f(s[l]), p0);
		else if (kind == 1)
			r = fmaf(p20, xs_u2f(s[l]), xs_u2f(d[l]));
		else
			r = sel == 0 ? p10 : sel == 1 ? p20 : p0;
		res[l] = xs_f2u(r);
	}
	if (vop3)
		xs_vdst32_slow(&c, w, in, res); /* clamp and omod; EXEC */
	else
		for (unsigned l = 0; l < w->lanes; l++)
			if ((e >> l) & 1)
				d[l] = res[l];
	return 0;
}

XS_EXEC(v_interp_p1_f32) { return interp(x, w, in, 0); }
XS_EXEC(v_interp_p2_f32) { return interp(x, w, in, 1); }
XS_EXEC(v_interp_mov_f32) { return interp(x, w, in, 2); }

void xs_exec_register_gfx(void)
{
	XS_REG(exp);
	XS_REG(v_interp_p1_f32);
	XS_REG(v_interp_p2_f32);
	XS_REG(v_interp_mov_f32);
}
