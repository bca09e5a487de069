/*
 * Scalar ALU and program flow: SOP2, SOPK, SOP1, SOPC, SOPP.
 *
 * Semantics follow the RDNA2 ISA as LLVM models it (SOPInstructions.td and
 * its constant folding): SCC is the carry/borrow for unsigned add/sub, the
 * signed overflow for s_add_i32/s_sub_i32/s_addk_i32, "result != 0" for the
 * logical, shift, bit-count and bfe ops, the comparison for s_min/s_max.
 */
#include <stdio.h>

#include "isa/xs_isa_priv.h"

#define S0 xs_sread(w, in, in->src[0])
#define S1 xs_sread(w, in, in->src[1])
#define LIT64K ((xs_op_table[in->op].flags & XS_OPF_I64) ? XS_LIT64_SEXT : XS_LIT64_ZEXT)
#define S0_64 xs_sread64k(w, in, in->src[0], LIT64K)
#define S1_64 xs_sread64k(w, in, in->src[1], LIT64K)

/* ---- SOP2 ----------------------------------------------------------------- */
XS_EXEC(s_add_u32)
{
	uint64_t r = (uint64_t)S0 + S1;
	xs_swrite(w, in->dst, (uint32_t)r);
	w->scc = (uint32_t)(r >> 32);
	return 0;
}

XS_EXEC(s_sub_u32)
{
	uint32_t a = S0, b = S1;
	xs_swrite(w, in->dst, a - b);
	w->scc = b > a;
	return 0;
}

XS_EXEC(s_add_i32)
{
	int32_t a = (int32_t)S0, b = (int32_t)S1, r;
	w->scc = __builtin_add_overflow(a, b, &r);
	xs_swrite(w, in->dst, (uint32_t)r);
	return 0;
}

XS_EXEC(s_sub_i32)
{
	int32_t a = (int32_t)S0, b = (int32_t)S1, r;
	w->scc = __builtin_sub_overflow(a, b, &r);
	xs_swrite(w, in->dst, (uint32_t)r);
	return 0;
}

XS_EXEC(s_addc_u32)
{
	uint64_t r = (uint64_t)S0 + S1 + (w->scc & 1);
	xs_swrite(w, in->dst, (uint32_t)r);
	w->scc = (uint32_t)(r >> 32);
	return 0;
}

XS_EXEC(s_subb_u32)
{
	uint64_t a = S0, b = (uint64_t)S1 + (w->scc & 1);
	xs_swrite(w, in->dst, (uint32_t)(a - b));
	w->scc = b > a;
	return 0;
}

#define MINMAX(name, T, cmp)                                                \
	XS_EXEC(name)                                                       \
	{                                                                   \
		T a = (T)S0, b = (T)S1;                                     \
		w->scc = a cmp b;                                           \
		xs_swrite(w, in->dst, (uint32_t)(w->scc ? a : b));          \
		return 0;                                                   \
	}
MINMAX(s_min_i32, int32_t, <)
MINMAX(s_min_u32, uint32_t, <)
MINMAX(s_max_i32, int32_t, >)
MINMAX(s_max_u32, uint32_t, >)

XS_EXEC(s_cselect_b32)
{
	xs_swrite(w, in->dst, w->scc ? S0 : S1);
	return 0;
}

XS_EXEC(s_cselect_b64)
{
	xs_swrite64(w, in->dst, w->scc ? S0_64 : S1_64);
	return 0;
}

#define LOGIC(name, expr)                                                   \
	XS_EXEC(name##_b32)                                                 \
	{                                                                   \
		uint32_t a = S0, b = S1, r = (uint32_t)(expr);              \
		xs_swrite(w, in->dst, r);                                   \
		w->scc = r != 0;                                            \
		return 0;                                                   \
	}                                                                   \
	XS_EXEC(name##_b64)                                                 \
	{                                                                   \
		uint64_t a = S0_64, b = S1_64, r = (expr);                  \
		xs_swrite64(w, in->dst, r);                                 \
		w->scc = r != 0;                                            \
		return 0;                                                   \
	}
LOGIC(s_and, a & b)
LOGIC(s_or, a | b)
LOGIC(s_xor, a ^ b)
LOGIC(s_andn2, a & ~b)
LOGIC(s_orn2, a | ~b)
LOGIC(s_nand, ~(a & b))
LOGIC(s_nor, ~(a | b))
LOGIC(s_xnor, ~(a ^ b))

XS_EXEC(s_lshl_b32) { uint32_t r = S0 << (S1 & 31); xs_swrite(w, in->dst, r); w->scc = r != 0; return 0; }
XS_EXEC(s_lshr_b32) { uint32_t r = S0 >> (S1 & 31); xs_swrite(w, in->dst, r); w->scc = r != 0; return 0; }
XS_EXEC(s_ashr_i32) { uint32_t r = (uint32_t)((int32_t)S0 >> (S1 & 31)); xs_swrite(w, in->dst, r); w->scc = r != 0; return 0; }
XS_EXEC(s_lshl_b64) { uint64_t r = S0_64 << (S1 & 63); xs_swrite64(w, in->dst, r); w->scc = r != 0; return 0; }
XS_EXEC(s_lshr_b64) { uint64_t r = S0_64 >> (S1 & 63); xs_swrite64(w, in->dst, r); w->scc = r != 0; return 0; }
XS_EXEC(s_ashr_i64) { uint64_t r = (uint64_t)((int64_t)S0_64 >> (S1 & 63)); xs_swrite64(w, in->dst, r); w->scc = r != 0; return 0; }

XS_EXEC(s_bfm_b32)
{
	xs_swrite(w, in->dst, (uint32_t)(((1ull << (S0 & 31)) - 1) << (S1 & 31)));
	return 0;
}

XS_EXEC(s_bfm_b64)
{
	unsigned wd = S0 & 63, off = S1 & 63;
	uint64_t m = wd ? (~0ull >> (64 - wd)) : 0;
	xs_swrite64(w, in->dst, m << off);
	return 0;
}

XS_EXEC(s_mul_i32) { xs_swrite(w, in->dst, S0 * S1); return 0; }
XS_EXEC(s_mul_hi_u32) { xs_swrite(w, in->dst, (uint32_t)(((uint64_t)S0 * S1) >> 32)); return 0; }
XS_EXEC(s_mul_hi_i32)
{
	xs_swrite(w, in->dst, (uint32_t)((uint64_t)((int64_t)(int32_t)S0 * (int32_t)S1) >> 32));
	return 0;
}

/* Bit-field extract: offset S1[5:0] (4:0 for 32-bit), width S1[22:16]; the
 * signed forms shift arithmetically, then sign-extend from bit width-1. */
static inline uint64_t bfe64(uint64_t v, unsigned width, bool sgn)
{
	if (width == 0)
		return 0;
	if (width >= 64)
		return v;
	uint64_t m = (1ull << width) - 1;
	v &= m;
	if (sgn && ((v >> (width - 1)) & 1))
		v |= ~m;
	return v;
}

XS_EXEC(s_bfe_u32)
{
	uint32_t c = S1, r = (uint32_t)bfe64(S0 >> (c & 31), XS_MIN((c >> 16) & 0x7f, 32u), false);
	xs_swrite(w, in->dst, r);
	w->scc = r != 0;
	return 0;
}

XS_EXEC(s_bfe_i32)
{
	uint32_t c = S1, wd = (c >> 16) & 0x7f;
	int32_t v = (int32_t)S0 >> (c & 31);
	uint32_t r = wd >= 32 ? (uint32_t)v : (uint32_t)bfe64((uint64_t)(int64_t)v, wd, true);
	xs_swrite(w, in->dst, r);
	w->scc = r != 0;
	return 0;
}

XS_EXEC(s_bfe_u64)
{
	uint32_t c = S1;
	uint64_t r = bfe64(S0_64 >> (c & 63), XS_MIN((c >> 16) & 0x7f, 64u), false);
	xs_swrite64(w, in->dst, r);
	w->scc = r != 0;
	return 0;
}

XS_EXEC(s_bfe_i64)
{
	uint32_t c = S1;
	uint64_t r = bfe64((uint64_t)((int64_t)S0_64 >> (c & 63)), XS_MIN((c >> 16) & 0x7f, 64u), true);
	xs_swrite64(w, in->dst, r);
	w->scc = r != 0;
	return 0;
}

/* RDNA2 ISA S_ABSDIFF_I32: D.i = S0.i - S1.i; if D.i < 0 then D.i = -D.i,
 * all in 32 bits: the difference wraps before the sign test (the guide's
 * examples: (0x80000000, 1) => 0x7fffffff, (0x80000000, 0) => 0x80000000).
 * Unsigned arithmetic for the wrap, without signed overflow in C. */
XS_EXEC(s_absdiff_i32)
{
	uint32_t d = S0 - S1;
	uint32_t r = (int32_t)d < 0 ? 0u - d : d;
	xs_swrite(w, in->dst, r);
	w->scc = r != 0;
	return 0;
}

#define LSHL_ADD(n)                                                         \
	XS_EXEC(s_lshl##n##_add_u32)                                        \
	{                                                                   \
		uint64_t r = ((uint64_t)S0 << n) + S1;                      \
		xs_swrite(w, in->dst, (uint32_t)r);                         \
		w->scc = (r >> 32) != 0;                                    \
		return 0;                                                   \
	}
LSHL_ADD(1)
LSHL_ADD(2)
LSHL_ADD(3)
LSHL_ADD(4)

XS_EXEC(s_pack_ll_b32_b16) { xs_swrite(w, in->dst, (S0 & 0xffff) | S1 << 16); return 0; }
XS_EXEC(s_pack_lh_b32_b16) { xs_swrite(w, in->dst, (S0 & 0xffff) | (S1 & 0xffff0000u)); return 0; }
XS_EXEC(s_pack_hh_b32_b16) { xs_swrite(w, in->dst, S0 >> 16 | (S1 & 0xffff0000u)); return 0; }

/* ---- SOPK ------------------------------------------------------------------ */
XS_EXEC(s_movk_i32) { xs_swrite(w, in->dst, (uint32_t)in->imm); return 0; }
XS_EXEC(s_cmovk_i32) { if (w->scc) xs_swrite(w, in->dst, (uint32_t)in->imm); return 0; }
XS_EXEC(s_version) { XS_UNUSED_HANDLER_ARGS; return 0; }

#define CMPK(name, T, K, op)                                                \
	XS_EXEC(name)                                                       \
	{                                                                   \
		w->scc = (T)S0 op (T)(K);                                   \
		return 0;                                                   \
	}
CMPK(s_cmpk_eq_i32, int32_t, in->imm, ==)
CMPK(s_cmpk_lg_i32, int32_t, in->imm, !=)
CMPK(s_cmpk_gt_i32, int32_t, in->imm, >)
CMPK(s_cmpk_ge_i32, int32_t, in->imm, >=)
CMPK(s_cmpk_lt_i32, int32_t, in->imm, <)
CMPK(s_cmpk_le_i32, int32_t, in->imm, <=)
CMPK(s_cmpk_eq_u32, uint32_t, (uint16_t)in->imm, ==)
CMPK(s_cmpk_lg_u32, uint32_t, (uint16_t)in->imm, !=)
CMPK(s_cmpk_gt_u32, uint32_t, (uint16_t)in->imm, >)
CMPK(s_cmpk_ge_u32, uint32_t, (uint16_t)in->imm, >=)
CMPK(s_cmpk_lt_u32, uint32_t, (uint16_t)in->imm, <)
CMPK(s_cmpk_le_u32, uint32_t, (uint16_t)in->imm, <=)

XS_EXEC(s_addk_i32)
{
	int32_t r;
	w->scc = __builtin_add_overflow((int32_t)S0, in->imm, &r);
	xs_swrite(w, in->dst, (uint32_t)r);
	return 0;
}

XS_EXEC(s_mulk_i32) { xs_swrite(w, in->dst, S0 * (uint32_t)in->imm); return 0; }

XS_EXEC(s_call_b64)
{
	xs_swrite64(w, in->dst, x->pc + 4);
	w->pc = x->pc + 4 + (int64_t)in->imm * 4;
	return 0;
}

/* Hardware registers. */
static uint32_t status_reg(const xs_wave *w)
{
	uint32_t st = (w->scc & 1);
	if (xs_wave_exec(w) == 0)
		st |= 1u << 9;
	if (((w->s[XS_SREG_VCC_LO] | (uint64_t)w->s[XS_SREG_VCC_HI] << 32) & xs_lane_full(w)) == 0)
		st |= 1u << 10;
	st |= 1u << 16;        /* IN_WG: compute waves belong to a work-group */
	return st;
}

static bool hwreg_read(const xs_wave *w, unsigned id, uint32_t *v)
{
	switch (id) {
	case XS_HWREG_MODE: *v = w->mode; return true;
	case XS_HWREG_STATUS: *v = status_reg(w); return true;
	case XS_HWREG_TRAPSTS: *v = w->trapsts; return true;
	case XS_HWREG_HW_ID1: *v = w->hw_id; return true;
	case XS_HWREG_HW_ID2: *v = w->hw_id2; return true;
	case XS_HWREG_GPR_ALLOC: {
		/* VGPR_SIZE [13:8] in allocation granules minus one (8 regs), SGPR_SIZE [27:24] */
		uint32_t g = w->nvgpr ? (w->nvgpr + 7) / 8 - 1 : 0;
		*v = (g & 0x3f) << 8 | (106 / 16) << 24;
		return true;
	}
	case XS_HWREG_LDS_ALLOC: *v = ((w->lds_size + 511) / 512 & 0x1ff) << 12; return true;
	case XS_HWREG_IB_STS: *v = 0; return true;
	case XS_HWREG_SH_MEM_BASES: *v = XS_SH_MEM_BASES; return true;
	case XS_HWREG_FLAT_SCR_LO: *v = (uint32_t)w->flat_scratch; return true;
	case XS_HWREG_FLAT_SCR_HI: *v = (uint32_t)(w->flat_scratch >> 32); return true;
	case XS_HWREG_SHADER_CYCLES: *v = (uint32_t)(w->insts & 0xfffff); return true;
	default: return false;
	}
}

static bool hwreg_write(xs_wave *w, unsigned id, uint32_t v, uint32_t mask)
{
	switch (id) {
	case XS_HWREG_MODE: w->mode = (w->mode & ~mask) | (v & mask); return true;
	case XS_HWREG_TRAPSTS: w->trapsts = (w->trapsts & ~mask) | (v & mask); return true;
	case XS_HWREG_FLAT_SCR_LO: {
		uint32_t lo = ((uint32_t)w->flat_scratch & ~mask) | (v & mask);
		w->flat_scratch = (w->flat_scratch & ~0xffffffffull) | lo;
		return true;
	}
	case XS_HWREG_FLAT_SCR_HI: {
		uint32_t hi = ((uint32_t)(w->flat_scratch >> 32) & ~mask) | (v & mask);
		w->flat_scratch = (w->flat_scratch & 0xffffffffull) | (uint64_t)hi << 32;
		return true;
	}
	case XS_HWREG_STATUS: case XS_HWREG_HW_ID1: case XS_HWREG_HW_ID2: case XS_HWREG_GPR_ALLOC:
	case XS_HWREG_LDS_ALLOC: case XS_HWREG_IB_STS: case XS_HWREG_SH_MEM_BASES:
	case XS_HWREG_SHADER_CYCLES:
		return true;   /* read-only: the write is ignored */
	default:
		return false;
	}
}

static inline uint32_t hwreg_mask(int32_t imm, unsigned *id, unsigned *off)
{
	*id = imm & 0x3f;
	*off = (imm >> 6) & 0x1f;
	unsigned size = ((imm >> 11) & 0x1f) + 1;
	return (size >= 32 ? ~0u : ((1u << size) - 1));
}

XS_EXEC(s_getreg_b32)
{
	unsigned id, off;
	uint32_t m = hwreg_mask(in->imm, &id, &off), v;
	if (!hwreg_read(w, id, &v)) {
		char d[48];
		snprintf(d, sizeof(d), "hardware register %u", id);
		return xs_exec_unimpl(x, w, in, d);
	}
	xs_swrite(w, in->dst, (v >> off) & m);
	return 0;
}

static int setreg(xs_exec *x, xs_wave *w, const xs_inst *in, uint32_t v)
{
	unsigned id, off;
	uint32_t m = hwreg_mask(in->imm, &id, &off);
	if (!hwreg_write(w, id, v << off, m << off)) {
		char d[48];
		snprintf(d, sizeof(d), "hardware register %u", id);
		return xs_exec_unimpl(x, w, in, d);
	}
	return 0;
}

XS_EXEC(s_setreg_b32) { return setreg(x, w, in, S0); }
XS_EXEC(s_setreg_imm32_b32) { return setreg(x, w, in, in->literal); }

/* ---- SOP1 ------------------------------------------------------------------ */
XS_EXEC(s_mov_b32) { xs_swrite(w, in->dst, S0); return 0; }
XS_EXEC(s_mov_b64) { xs_swrite64(w, in->dst, S0_64); return 0; }
XS_EXEC(s_cmov_b32) { if (w->scc) xs_swrite(w, in->dst, S0); return 0; }
XS_EXEC(s_cmov_b64) { if (w->scc) xs_swrite64(w, in->dst, S0_64); return 0; }
XS_EXEC(s_not_b32) { uint32_t r = ~S0; xs_swrite(w, in->dst, r); w->scc = r != 0; return 0; }
XS_EXEC(s_not_b64) { uint64_t r = ~S0_64; xs_swrite64(w, in->dst, r); w->scc = r != 0; return 0; }

static inline uint64_t wqm(uint64_t v)
{
	uint64_t r = 0;
	for (unsigned i = 0; i < 64; i += 4)
		if ((v >> i) & 0xf)
			r |= 0xfull << i;
	return r;
}
XS_EXEC(s_wqm_b32) { uint32_t r = (uint32_t)wqm(S0); xs_swrite(w, in->dst, r); w->scc = r != 0; return 0; }
XS_EXEC(s_wqm_b64) { uint64_t r = wqm(S0_64); xs_swrite64(w, in->dst, r); w->scc = r != 0; return 0; }

static inline uint32_t brev32(uint32_t v)
{
	v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
	v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
	v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
	return __builtin_bswap32(v);
}
XS_EXEC(s_brev_b32) { xs_swrite(w, in->dst, brev32(S0)); return 0; }
XS_EXEC(s_brev_b64)
{
	uint64_t v = S0_64;
	xs_swrite64(w, in->dst, (uint64_t)brev32((uint32_t)v) << 32 | brev32((uint32_t)(v >> 32)));
	return 0;
}

#define BCNT(name, expr)                                                    \
	XS_EXEC(name)                                                       \
	{                                                                   \
		uint32_t r = (uint32_t)(expr);                              \
		xs_swrite(w, in->dst, r);                                   \
		w->scc = r != 0;                                            \
		return 0;                                                   \
	}
BCNT(s_bcnt0_i32_b32, 32 - __builtin_popcount(S0))
BCNT(s_bcnt0_i32_b64, 64 - __builtin_popcountll(S0_64))
BCNT(s_bcnt1_i32_b32, __builtin_popcount(S0))
BCNT(s_bcnt1_i32_b64, __builtin_popcountll(S0_64))

static inline uint32_t ff1_64(uint64_t v) { return v ? (uint32_t)__builtin_ctzll(v) : ~0u; }
static inline uint32_t flbit_64(uint64_t v) { return v ? (uint32_t)__builtin_clzll(v) : ~0u; }
XS_EXEC(s_ff0_i32_b32) { xs_swrite(w, in->dst, ff1_64((uint32_t)~S0)); return 0; }
XS_EXEC(s_ff0_i32_b64) { xs_swrite(w, in->dst, ff1_64(~S0_64)); return 0; }
XS_EXEC(s_ff1_i32_b32) { xs_swrite(w, in->dst, ff1_64(S0)); return 0; }
XS_EXEC(s_ff1_i32_b64) { xs_swrite(w, in->dst, ff1_64(S0_64)); return 0; }
XS_EXEC(s_flbit_i32_b32) { uint32_t v = S0; xs_swrite(w, in->dst, v ? (uint32_t)__builtin_clz(v) : ~0u); return 0; }
XS_EXEC(s_flbit_i32_b64) { xs_swrite(w, in->dst, flbit_64(S0_64)); return 0; }
/* Leading bits equal to the sign bit, the sign bit included (ISA
 * S_FLBIT_I32 examples: 0x40000000 -> 1, 0xffff0000 -> 16, 0 and -1 -> -1). */
XS_EXEC(s_flbit_i32)
{
	uint32_t v = S0;
	if ((int32_t)v < 0)
		v = ~v;
	xs_swrite(w, in->dst, v ? (uint32_t)__builtin_clz(v) : ~0u);
	return 0;
}
XS_EXEC(s_flbit_i32_i64)
{
	uint64_t v = S0_64;
	if ((int64_t)v < 0)
		v = ~v;
	xs_swrite(w, in->dst, v ? (uint32_t)__builtin_clzll(v) : ~0u);
	return 0;
}
XS_EXEC(s_sext_i32_i8) { xs_swrite(w, in->dst, (uint32_t)(int32_t)(int8_t)S0); return 0; }
XS_EXEC(s_sext_i32_i16) { xs_swrite(w, in->dst, (uint32_t)(int32_t)(int16_t)S0); return 0; }
XS_EXEC(s_bitset0_b32) { xs_swrite(w, in->dst, w->s[in->dst & 127] & ~(1u << (S0 & 31))); return 0; }
XS_EXEC(s_bitset1_b32) { xs_swrite(w, in->dst, w->s[in->dst & 127] | (1u << (S0 & 31))); return 0; }
XS_EXEC(s_bitset0_b64)
{
	uint64_t d = xs_sread64(w, in, in->dst);
	xs_swrite64(w, in->dst, d & ~(1ull << (S0 & 63)));
	return 0;
}
XS_EXEC(s_bitset1_b64)
{
	uint64_t d = xs_sread64(w, in, in->dst);
	xs_swrite64(w, in->dst, d | (1ull << (S0 & 63)));
	return 0;
}

XS_EXEC(s_getpc_b64) { xs_swrite64(w, in->dst, x->pc + 4); return 0; }
XS_EXEC(s_setpc_b64) { w->pc = S0_64 & ~3ull; return 0; }
XS_EXEC(s_swappc_b64)
{
	uint64_t target = S0_64 & ~3ull;
	xs_swrite64(w, in->dst, x->pc + 4);
	w->pc = target;
	return 0;
}

/* EXEC-manipulating ops: the 32-bit forms act on EXEC_LO (wave32). sdst
 * gets `out`: the old EXEC (e, saveexec) or the result (ne, wrexec); it is
 * written before EXEC, so an sdst of EXEC ends up holding the result. */
#define EXECOP(name, expr, out)                                             \
	XS_EXEC(name##_b64)                                                 \
	{                                                                   \
		uint64_t s = S0_64;                                         \
		uint64_t e = w->s[XS_SREG_EXEC_LO] | (uint64_t)w->s[XS_SREG_EXEC_HI] << 32; \
		uint64_t ne = (expr);                                       \
		xs_swrite64(w, in->dst, (out));                             \
		w->s[XS_SREG_EXEC_LO] = (uint32_t)ne;                       \
		w->s[XS_SREG_EXEC_HI] = (uint32_t)(ne >> 32);               \
		w->scc = ne != 0;                                           \
		return 0;                                                   \
	}                                                                   \
	XS_EXEC(name##_b32)                                                 \
	{                                                                   \
		uint32_t s = S0, e = w->s[XS_SREG_EXEC_LO];                 \
		uint32_t ne = (uint32_t)(expr);                             \
		xs_swrite(w, in->dst, (out));                               \
		w->s[XS_SREG_EXEC_LO] = ne;                                 \
		w->scc = ne != 0;                                           \
		return 0;                                                   \
	}
#define SAVEEXEC(name, expr) EXECOP(name, expr, e)
#define WREXEC(name, expr) EXECOP(name, expr, ne)
SAVEEXEC(s_and_saveexec, s & e)
SAVEEXEC(s_or_saveexec, s | e)
SAVEEXEC(s_xor_saveexec, s ^ e)
SAVEEXEC(s_andn2_saveexec, s & ~e)
SAVEEXEC(s_orn2_saveexec, s | ~e)
SAVEEXEC(s_nand_saveexec, ~(s & e))
SAVEEXEC(s_nor_saveexec, ~(s | e))
SAVEEXEC(s_xnor_saveexec, ~(s ^ e))
SAVEEXEC(s_andn1_saveexec, ~s & e)
SAVEEXEC(s_orn1_saveexec, ~s | e)

WREXEC(s_andn1_wrexec, ~s & e)
WREXEC(s_andn2_wrexec, s & ~e)

static inline uint64_t quadmask(uint64_t v)
{
	uint64_t r = 0;
	for (unsigned i = 0; i < 16; i++)
		if ((v >> (4 * i)) & 0xf)
			r |= 1ull << i;
	return r;
}
XS_EXEC(s_quadmask_b32) { uint32_t r = (uint32_t)quadmask(S0); xs_swrite(w, in->dst, r); w->scc = r != 0; return 0; }
XS_EXEC(s_quadmask_b64) { uint64_t r = quadmask(S0_64); xs_swrite64(w, in->dst, r); w->scc = r != 0; return 0; }

/* SGPR indexing through M0: s_movrels adds M0 to the source, s_movreld to
 * the destination; s_movrelsd_2 adds M0[9:0] to the source and M0[25:16]
 * to the destination. An indexed side past the SGPRs faults. */
enum { REL_SRC, REL_DST, REL_BOTH_2 };
static int movrel(xs_exec *x, xs_wave *w, const xs_inst *in, int rel, unsigned n)
{
	unsigned m0 = w->s[XS_SREG_M0];
	unsigned s = in->src[0], d = in->dst;
	if (rel == REL_BOTH_2) {
		s += m0 & 0x3ff;
		d += (m0 >> 16) & 0x3ff;
	} else if (rel == REL_SRC) {
		s += m0;
	} else {
		d += m0;
	}
	if ((rel != REL_DST && s + n > 106) || (rel != REL_SRC && d + n > 106))
		return xs_exec_fault(x, w, in, XS_FAULT_ILLEGAL, 0, "M0-relative SGPR index out of range");
	for (unsigned i = 0; i < n; i++)
		xs_swrite(w, d + i, xs_sread(w, in, s + i));
	return 0;
}
XS_EXEC(s_movrelsd_2_b32) { return movrel(x, w, in, REL_BOTH_2, 1); }
XS_EXEC(s_movrels_b32) { return movrel(x, w, in, REL_SRC, 1); }
XS_EXEC(s_movrels_b64) { return movrel(x, w, in, REL_SRC, 2); }
XS_EXEC(s_movreld_b32) { return movrel(x, w, in, REL_DST, 1); }
XS_EXEC(s_movreld_b64) { return movrel(x, w, in, REL_DST, 2); }

XS_EXEC(s_abs_i32)
{
	int32_t v = (int32_t)S0;
	uint32_t r = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
	xs_swrite(w, in->dst, r);
	w->scc = r != 0;
	return 0;
}

XS_EXEC(s_bitreplicate_b64_b32)
{
	uint32_t v = S0;
	uint64_t r = 0;
	for (unsigned i = 0; i < 32; i++)
		if ((v >> i) & 1)
			r |= 3ull << (2 * i);
	xs_swrite64(w, in->dst, r);
	return 0;
}

/* ---- SOPC ------------------------------------------------------------------ */
#define CMP(name, T, op)                                                    \
	XS_EXEC(name)                                                       \
	{                                                                   \
		w->scc = (T)S0 op (T)S1;                                    \
		return 0;                                                   \
	}
CMP(s_cmp_eq_i32, int32_t, ==)
CMP(s_cmp_lg_i32, int32_t, !=)
CMP(s_cmp_gt_i32, int32_t, >)
CMP(s_cmp_ge_i32, int32_t, >=)
CMP(s_cmp_lt_i32, int32_t, <)
CMP(s_cmp_le_i32, int32_t, <=)
CMP(s_cmp_eq_u32, uint32_t, ==)
CMP(s_cmp_lg_u32, uint32_t, !=)
CMP(s_cmp_gt_u32, uint32_t, >)
CMP(s_cmp_ge_u32, uint32_t, >=)
CMP(s_cmp_lt_u32, uint32_t, <)
CMP(s_cmp_le_u32, uint32_t, <=)
XS_EXEC(s_cmp_eq_u64) { w->scc = S0_64 == S1_64; return 0; }
XS_EXEC(s_cmp_lg_u64) { w->scc = S0_64 != S1_64; return 0; }
XS_EXEC(s_bitcmp0_b32) { w->scc = ((S0 >> (S1 & 31)) & 1) == 0; return 0; }
XS_EXEC(s_bitcmp1_b32) { w->scc = ((S0 >> (S1 & 31)) & 1) == 1; return 0; }
XS_EXEC(s_bitcmp0_b64) { w->scc = ((S0_64 >> (S1 & 63)) & 1) == 0; return 0; }
XS_EXEC(s_bitcmp1_b64) { w->scc = ((S0_64 >> (S1 & 63)) & 1) == 1; return 0; }

/* ---- SOPP ------------------------------------------------------------------- */
/* Functional no-ops: waits, hints, cache invalidates, priority. */
XS_EXEC(nop) { XS_UNUSED_HANDLER_ARGS; return 0; }
static int g_nop(xs_exec *x, xs_wave *const *ws, unsigned n, const xs_inst *in)
{
	(void)ws; (void)n; (void)in;
	return (int)n;
}

XS_EXEC(s_endpgm)
{
	/* A wave that owes an export (xs_wave.end_fault) may not end: on
	 * hardware the export's consumer would wait for it forever. */
	if (XS_UNLIKELY(w->end_fault))
		return xs_exec_fault(x, w, in, XS_FAULT_ILLEGAL, 0, w->end_fault);
	return XS_WAVE_ENDED;
}
XS_EXEC(s_barrier) { XS_UNUSED_HANDLER_ARGS; return XS_WAVE_BARRIER; }
XS_EXEC(s_code_end)
{
	/* S_CODE_END marks the end of a code buffer; executing it is an illegal
	 * instruction (the wave ran past s_endpgm). */
	return xs_exec_fault(x, w, in, XS_FAULT_ILLEGAL, x->pc, "executed (past the end of the program)");
}

#define BRANCH_TARGET (w->pc + (int64_t)in->imm * 4)
XS_EXEC(s_branch) { w->pc = BRANCH_TARGET; return 0; }
XS_EXEC(s_cbranch_scc0) { if (!w->scc) w->pc = BRANCH_TARGET; return 0; }
XS_EXEC(s_cbranch_scc1) { if (w->scc) w->pc = BRANCH_TARGET; return 0; }
XS_EXEC(s_cbranch_vccz) { if (xs_sread_special(w, XS_SRC_VCCZ)) w->pc = BRANCH_TARGET; return 0; }
XS_EXEC(s_cbranch_vccnz) { if (!xs_sread_special(w, XS_SRC_VCCZ)) w->pc = BRANCH_TARGET; return 0; }
XS_EXEC(s_cbranch_execz) { if (xs_wave_exec(w) == 0) w->pc = BRANCH_TARGET; return 0; }
XS_EXEC(s_cbranch_execnz) { if (xs_wave_exec(w) != 0) w->pc = BRANCH_TARGET; return 0; }

XS_EXEC(s_sendmsg)
{
	/* gfx10 has no MSG_DEALLOC_VGPRS (gfx11, id 0xb3): accept it as the
	 * hint it is; any other message needs a consumer xs12 does not have. */
	unsigned id = (unsigned)in->imm & 0xff;
	if (id == 0xb3)
		return 0;
	char d[48];
	snprintf(d, sizeof(d), "message id %u", id);
	return xs_exec_unimpl(x, w, in, d);
}

XS_EXEC(s_trap)
{
	/* compute queues run without a trap handler here: a trap stops the wave */
	char d[64];
	snprintf(d, sizeof(d), "trap id %u (no trap handler)", (unsigned)in->imm & 0xff);
	return xs_exec_fault(x, w, in, XS_FAULT_ILLEGAL, x->pc, d);
}

XS_EXEC(s_round_mode) { w->mode = (w->mode & ~0xfu) | ((uint32_t)in->imm & 0xf); return 0; }
XS_EXEC(s_denorm_mode) { w->mode = (w->mode & ~0xf0u) | (((uint32_t)in->imm & 0xf) << 4); return 0; }

/* lockstep: the common SALU ops for a step's waves in one call */
/* s_mov_b32 over the waves of a lockstep step: a fifth of an -O0 kernel's
 * instructions (private_spill: its spills' SGPR copies). An SGPR source is
 * each wave's own; a literal or an inline constant is the same for every
 * wave, read once; the other sources (SCC, EXECZ, ...) go wave by wave. */
static int g_s_mov_b32(xs_exec *x, xs_wave *const *ws, unsigned n, const xs_inst *in)
{
	const unsigned d = in->dst, s = in->src[0];
	if (d == XS_SREG_NULL)
		return (int)n;
	if (s < 128) {
		for (unsigned j = 0; j < n; j++)
			ws[j]->s[d & 127] = ws[j]->s[s];
		return (int)n;
	}
	if (xs_src_const(s)) {
		const uint32_t v = xs_sread(ws[0], in, s);
		for (unsigned j = 0; j < n; j++)
			ws[j]->s[d & 127] = v;
		return (int)n;
	}
	for (unsigned j = 0; j < n; j++)
		x_s_mov_b32(x, ws[j], in);
	return (int)n;
}
XS_GROUP_EACH(s_mov_b64)
XS_GROUP_EACH(s_cmov_b32)
XS_GROUP_EACH(s_movk_i32)
XS_GROUP_EACH(s_and_b32)
XS_GROUP_EACH(s_and_b64)
XS_GROUP_EACH(s_or_b32)
XS_GROUP_EACH(s_or_b64)
XS_GROUP_EACH(s_xor_b32)
XS_GROUP_EACH(s_andn2_b32)
XS_GROUP_EACH(s_andn2_b64)
XS_GROUP_EACH(s_add_u32)
XS_GROUP_EACH(s_addc_u32)
XS_GROUP_EACH(s_sub_u32)
XS_GROUP_EACH(s_subb_u32)
XS_GROUP_EACH(s_add_i32)
XS_GROUP_EACH(s_sub_i32)
XS_GROUP_EACH(s_lshl_b32)
XS_GROUP_EACH(s_lshr_b32)
XS_GROUP_EACH(s_ashr_i32)
XS_GROUP_EACH(s_mul_i32)
XS_GROUP_EACH(s_mul_hi_u32)
XS_GROUP_EACH(s_cselect_b32)
XS_GROUP_EACH(s_cselect_b64)
XS_GROUP_EACH(s_cmp_eq_i32)
XS_GROUP_EACH(s_cmp_lg_i32)
XS_GROUP_EACH(s_cmp_gt_i32)
XS_GROUP_EACH(s_cmp_ge_i32)
XS_GROUP_EACH(s_cmp_lt_i32)
XS_GROUP_EACH(s_cmp_le_i32)
XS_GROUP_EACH(s_cmp_eq_u32)
XS_GROUP_EACH(s_cmp_lg_u32)
XS_GROUP_EACH(s_cmp_gt_u32)
XS_GROUP_EACH(s_cmp_ge_u32)
XS_GROUP_EACH(s_cmp_lt_u32)
XS_GROUP_EACH(s_cmp_le_u32)
XS_GROUP_EACH(s_and_saveexec_b32)
XS_GROUP_EACH(s_or_saveexec_b32)
XS_GROUP_EACH(s_andn2_saveexec_b32)
XS_GROUP_EACH(s_lshl1_add_u32)
XS_GROUP_EACH(s_lshl2_add_u32)
XS_GROUP_EACH(s_bfe_u32)
XS_GROUP_EACH(s_addk_i32)
XS_GROUP_EACH(s_mulk_i32)
XS_GROUP_EACH(s_cmpk_eq_u32)
XS_GROUP_EACH(s_cmpk_lg_u32)

void xs_exec_register_salu(void)
{
	XS_REG(s_add_u32); XS_REG(s_sub_u32); XS_REG(s_add_i32); XS_REG(s_sub_i32);
	XS_REG(s_addc_u32); XS_REG(s_subb_u32);
	XS_REG(s_min_i32); XS_REG(s_min_u32); XS_REG(s_max_i32); XS_REG(s_max_u32);
	XS_REG(s_cselect_b32); XS_REG(s_cselect_b64);
	XS_REG(s_and_b32); XS_REG(s_and_b64); XS_REG(s_or_b32); XS_REG(s_or_b64);
	XS_REG(s_xor_b32); XS_REG(s_xor_b64); XS_REG(s_andn2_b32); XS_REG(s_andn2_b64);
	XS_REG(s_orn2_b32); XS_REG(s_orn2_b64); XS_REG(s_nand_b32); XS_REG(s_nand_b64);
	XS_REG(s_nor_b32); XS_REG(s_nor_b64); XS_REG(s_xnor_b32); XS_REG(s_xnor_b64);
	XS_REG(s_lshl_b32); XS_REG(s_lshr_b32); XS_REG(s_ashr_i32);
	XS_REG(s_lshl_b64); XS_REG(s_lshr_b64); XS_REG(s_ashr_i64);
	XS_REG(s_bfm_b32); XS_REG(s_bfm_b64); XS_REG(s_mul_i32); XS_REG(s_mul_hi_u32); XS_REG(s_mul_hi_i32);
	XS_REG(s_bfe_u32); XS_REG(s_bfe_i32); XS_REG(s_bfe_u64); XS_REG(s_bfe_i64);
	XS_REG(s_absdiff_i32);
	XS_REG(s_lshl1_add_u32); XS_REG(s_lshl2_add_u32); XS_REG(s_lshl3_add_u32); XS_REG(s_lshl4_add_u32);
	XS_REG(s_pack_ll_b32_b16); XS_REG(s_pack_lh_b32_b16); XS_REG(s_pack_hh_b32_b16);

	XS_REG(s_movk_i32); XS_REG(s_cmovk_i32); XS_REG(s_version);
	XS_REG(s_cmpk_eq_i32); XS_REG(s_cmpk_lg_i32); XS_REG(s_cmpk_gt_i32); XS_REG(s_cmpk_ge_i32);
	XS_REG(s_cmpk_lt_i32); XS_REG(s_cmpk_le_i32); XS_REG(s_cmpk_eq_u32); XS_REG(s_cmpk_lg_u32);
	XS_REG(s_cmpk_gt_u32); XS_REG(s_cmpk_ge_u32); XS_REG(s_cmpk_lt_u32); XS_REG(s_cmpk_le_u32);
	XS_REG(s_addk_i32); XS_REG(s_mulk_i32); XS_REG(s_call_b64);
	XS_REG(s_getreg_b32); XS_REG(s_setreg_b32); XS_REG(s_setreg_imm32_b32);
	XS_REG_AS(s_waitcnt_vscnt, x_nop); XS_REG_AS(s_waitcnt_vmcnt, x_nop);
	XS_REG_AS(s_waitcnt_expcnt, x_nop); XS_REG_AS(s_waitcnt_lgkmcnt, x_nop);

	XS_REG(s_mov_b32); XS_REG(s_mov_b64); XS_REG(s_cmov_b32); XS_REG(s_cmov_b64);
	XS_REG(s_not_b32); XS_REG(s_not_b64); XS_REG(s_wqm_b32); XS_REG(s_wqm_b64);
	XS_REG(s_brev_b32); XS_REG(s_brev_b64);
	XS_REG(s_bcnt0_i32_b32); XS_REG(s_bcnt0_i32_b64); XS_REG(s_bcnt1_i32_b32); XS_REG(s_bcnt1_i32_b64);
	XS_REG(s_ff0_i32_b32); XS_REG(s_ff0_i32_b64); XS_REG(s_ff1_i32_b32); XS_REG(s_ff1_i32_b64);
	XS_REG(s_flbit_i32_b32); XS_REG(s_flbit_i32_b64); XS_REG(s_flbit_i32); XS_REG(s_flbit_i32_i64);
	XS_REG(s_sext_i32_i8); XS_REG(s_sext_i32_i16);
	XS_REG(s_bitset0_b32); XS_REG(s_bitset1_b32); XS_REG(s_bitset0_b64); XS_REG(s_bitset1_b64);
	XS_REG(s_getpc_b64); XS_REG(s_setpc_b64); XS_REG(s_swappc_b64);
	XS_REG(s_and_saveexec_b64); XS_REG(s_and_saveexec_b32); XS_REG(s_or_saveexec_b64);
	XS_REG(s_or_saveexec_b32); XS_REG(s_xor_saveexec_b64); XS_REG(s_xor_saveexec_b32);
	XS_REG(s_andn2_saveexec_b64); XS_REG(s_andn2_saveexec_b32); XS_REG(s_orn2_saveexec_b64);
	XS_REG(s_orn2_saveexec_b32); XS_REG(s_nand_saveexec_b64); XS_REG(s_nand_saveexec_b32);
	XS_REG(s_nor_saveexec_b64); XS_REG(s_nor_saveexec_b32); XS_REG(s_xnor_saveexec_b64);
	XS_REG(s_xnor_saveexec_b32); XS_REG(s_andn1_saveexec_b64); XS_REG(s_andn1_saveexec_b32);
	XS_REG(s_orn1_saveexec_b64); XS_REG(s_orn1_saveexec_b32);
	XS_REG(s_andn1_wrexec_b64); XS_REG(s_andn1_wrexec_b32);
	XS_REG(s_andn2_wrexec_b64); XS_REG(s_andn2_wrexec_b32);
	XS_REG(s_quadmask_b32); XS_REG(s_quadmask_b64);
	XS_REG(s_movrels_b32); XS_REG(s_movrels_b64); XS_REG(s_movreld_b32); XS_REG(s_movreld_b64); XS_REG(s_movrelsd_2_b32);
	XS_REG(s_abs_i32); XS_REG(s_bitreplicate_b64_b32);

	XS_REG(s_cmp_eq_i32); XS_REG(s_cmp_lg_i32); XS_REG(s_cmp_gt_i32); XS_REG(s_cmp_ge_i32);
	XS_REG(s_cmp_lt_i32); XS_REG(s_cmp_le_i32); XS_REG(s_cmp_eq_u32); XS_REG(s_cmp_lg_u32);
	XS_REG(s_cmp_gt_u32); XS_REG(s_cmp_ge_u32); XS_REG(s_cmp_lt_u32); XS_REG(s_cmp_le_u32);
	XS_REG(s_cmp_eq_u64); XS_REG(s_cmp_lg_u64);
	XS_REG(s_bitcmp0_b32); XS_REG(s_bitcmp1_b32); XS_REG(s_bitcmp0_b64); XS_REG(s_bitcmp1_b64);

	XS_REG_AS(s_nop, x_nop); XS_REG(s_endpgm); XS_REG(s_barrier); XS_REG(s_code_end);
	XS_REG(s_branch); XS_REG(s_cbranch_scc0); XS_REG(s_cbranch_scc1); XS_REG(s_cbranch_vccz);
	XS_REG(s_cbranch_vccnz); XS_REG(s_cbranch_execz); XS_REG(s_cbranch_execnz);
	XS_REG_AS(s_wakeup, x_nop); XS_REG_AS(s_setkill, x_nop); XS_REG_AS(s_waitcnt, x_nop);
	XS_REG_AS(s_sleep, x_nop); XS_REG_AS(s_setprio, x_nop); XS_REG(s_sendmsg);
	XS_REG_AS(s_icache_inv, x_nop); XS_REG_AS(s_incperflevel, x_nop); XS_REG_AS(s_decperflevel, x_nop);
	XS_REG_AS(s_ttracedata, x_nop); XS_REG_AS(s_ttracedata_imm, x_nop);
	/* no debugger attached: the cdbg branches are never taken */
	XS_REG_AS(s_cbranch_cdbgsys, x_nop); XS_REG_AS(s_cbranch_cdbguser, x_nop);
	XS_REG_AS(s_cbranch_cdbgsys_or_user, x_nop); XS_REG_AS(s_cbranch_cdbgsys_and_user, x_nop);
	XS_REG_AS(s_inst_prefetch, x_nop); XS_REG_AS(s_clause, x_nop); XS_REG_AS(s_wait_idle, x_nop);
	XS_REG_AS(s_waitcnt_depctr, x_nop);
	XS_REG(s_round_mode); XS_REG(s_denorm_mode); XS_REG(s_trap);
	XS_REG_GROUP(s_mov_b32, g_s_mov_b32);
	XS_REG_GROUP(s_mov_b64, g_s_mov_b64);
	XS_REG_GROUP(s_cmov_b32, g_s_cmov_b32);
	XS_REG_GROUP(s_movk_i32, g_s_movk_i32);
	XS_REG_GROUP(s_and_b32, g_s_and_b32);
	XS_REG_GROUP(s_and_b64, g_s_and_b64);
	XS_REG_GROUP(s_or_b32, g_s_or_b32);
	XS_REG_GROUP(s_or_b64, g_s_or_b64);
	XS_REG_GROUP(s_xor_b32, g_s_xor_b32);
	XS_REG_GROUP(s_andn2_b32, g_s_andn2_b32);
	XS_REG_GROUP(s_andn2_b64, g_s_andn2_b64);
	XS_REG_GROUP(s_add_u32, g_s_add_u32);
	XS_REG_GROUP(s_addc_u32, g_s_addc_u32);
	XS_REG_GROUP(s_sub_u32, g_s_sub_u32);
	XS_REG_GROUP(s_subb_u32, g_s_subb_u32);
	XS_REG_GROUP(s_add_i32, g_s_add_i32);
	XS_REG_GROUP(s_sub_i32, g_s_sub_i32);
	XS_REG_GROUP(s_lshl_b32, g_s_lshl_b32);
	XS_REG_GROUP(s_lshr_b32, g_s_lshr_b32);
	XS_REG_GROUP(s_ashr_i32, g_s_ashr_i32);
	XS_REG_GROUP(s_mul_i32, g_s_mul_i32);
	XS_REG_GROUP(s_mul_hi_u32, g_s_mul_hi_u32);
	XS_REG_GROUP(s_cselect_b32, g_s_cselect_b32);
	XS_REG_GROUP(s_cselect_b64, g_s_cselect_b64);
	XS_REG_GROUP(s_cmp_eq_i32, g_s_cmp_eq_i32);
	XS_REG_GROUP(s_cmp_lg_i32, g_s_cmp_lg_i32);
	XS_REG_GROUP(s_cmp_gt_i32, g_s_cmp_gt_i32);
	XS_REG_GROUP(s_cmp_ge_i32, g_s_cmp_ge_i32);
	XS_REG_GROUP(s_cmp_lt_i32, g_s_cmp_lt_i32);
	XS_REG_GROUP(s_cmp_le_i32, g_s_cmp_le_i32);
	XS_REG_GROUP(s_cmp_eq_u32, g_s_cmp_eq_u32);
	XS_REG_GROUP(s_cmp_lg_u32, g_s_cmp_lg_u32);
	XS_REG_GROUP(s_cmp_gt_u32, g_s_cmp_gt_u32);
	XS_REG_GROUP(s_cmp_ge_u32, g_s_cmp_ge_u32);
	XS_REG_GROUP(s_cmp_lt_u32, g_s_cmp_lt_u32);
	XS_REG_GROUP(s_cmp_le_u32, g_s_cmp_le_u32);
	XS_REG_GROUP(s_and_saveexec_b32, g_s_and_saveexec_b32);
	XS_REG_GROUP(s_or_saveexec_b32, g_s_or_saveexec_b32);
	XS_REG_GROUP(s_andn2_saveexec_b32, g_s_andn2_saveexec_b32);
	XS_REG_GROUP(s_lshl1_add_u32, g_s_lshl1_add_u32);
	XS_REG_GROUP(s_lshl2_add_u32, g_s_lshl2_add_u32);
	XS_REG_GROUP(s_bfe_u32, g_s_bfe_u32);
	XS_REG_GROUP(s_addk_i32, g_s_addk_i32);
	XS_REG_GROUP(s_mulk_i32, g_s_mulk_i32);
	XS_REG_GROUP(s_cmpk_eq_u32, g_s_cmpk_eq_u32);
	XS_REG_GROUP(s_cmpk_lg_u32, g_s_cmpk_lg_u32);
	/* what does nothing does it for a lockstep step's waves at once */
	for (unsigned op = 0; op < XS_OP_COUNT; op++)
		if (xs_exec_table[op] == x_nop)
			xs_exec_group_table[op] = g_nop;
}
