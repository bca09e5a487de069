/*
 * Internal interface of the ISA layer: the predecode cache as the
 * interpreter sees it, the per-op handler table, and the operand helpers the
 * instruction bodies (xs_isa_exec_*.c) share.
 *
 * A handler runs one instruction of one wave. The dispatch loop has already
 * advanced w->pc past the instruction; x->pc is the instruction's own
 * address (for faults and PC-relative operations). A handler returns 0 to
 * continue, or the xs_wave_status that stops the wave (BARRIER, ENDED,
 * FAULT with ctx->fault filled through xs_exec_fault()).
 */
#ifndef XS_ISA_PRIV_H
#define XS_ISA_PRIV_H

#include <math.h>
#include <string.h>

#include "isa/xs_isa.h"

#ifdef __AVX2__
#include <immintrin.h>
#endif

/* ---- predecode cache (xs_isa_icache.c) ---------------------------------- */
/* Slot array (1024 entries) of the code page at page_va, created empty on
 * first use; NULL when out of host memory. */
xs_inst *xs_icache_page_slots(xs_icache *ic, uint64_t page_va);
/* Fetches and decodes the instruction at pc into *slot; false with *f
 * filled (VM fault on fetch, or illegal encoding). */
bool xs_icache_fill(xs_vm *vm, uint64_t pc, xs_inst *slot, xs_fault *f);

/* ---- handlers ------------------------------------------------------------ */
typedef struct xs_exec {
	xs_isa_ctx *ctx;
	xs_vm *vm;
	uint64_t pc;             /* address of the executing instruction */
} xs_exec;

typedef int (*xs_exec_fn)(xs_exec *x, xs_wave *w, const xs_inst *in);
extern xs_exec_fn xs_exec_table[XS_OP_COUNT];

#define XS_EXEC(name) static int x_##name(xs_exec *x, xs_wave *w, const xs_inst *in)

/* A group handler runs one instruction for n waves at once (lockstep,
 * xs_isa_run_lockstep), all of one dispatch (same lane count), each wave
 * exactly as its handler would, in order. Returns -1 when it did nothing
 * (a form or a wave state it does not take: the handler then runs wave by
 * wave), n when every wave ran it and none stopped, or j < n when wave j
 * faulted (xs_exec_fault: ctx->fault filled, its PC on the instruction;
 * the waves before it ran the instruction, the ones after it did not).
 * Only for ops that neither branch nor stop a wave otherwise, nor read
 * w->pc. Optional, for hot ops; NULL otherwise. */
typedef int (*xs_exec_group_fn)(xs_exec *x, xs_wave *const *ws, unsigned n, const xs_inst *in);
extern xs_exec_group_fn xs_exec_group_table[XS_OP_COUNT];
#define XS_REG_GROUP(name, fn) (xs_exec_group_table[XS_OP_##name] = (fn))
/* A group handler that calls the op's handler for each wave in turn: a
 * direct call the compiler may inline instead of the lockstep loop's
 * indirect one per wave, for ops with small bodies (SALU moves and
 * arithmetic, lane reads and writes, scalar loads). Only for handlers that
 * neither branch nor read w->pc, and stop a wave only by a fault. */
#define XS_GROUP_EACH(name)                                                     \
	static int g_##name(xs_exec *x, xs_wave *const *ws, unsigned n, const xs_inst *in) \
	{                                                                       \
		for (unsigned j = 0; j < n; j++)                                \
			if (x_##name(x, ws[j], in))                             \
				return (int)j;                                  \
		return (int)n;                                                  \
	}
#define XS_REG(name) (xs_exec_table[XS_OP_##name] = x_##name)
#define XS_REG_AS(name, fn) (xs_exec_table[XS_OP_##name] = (fn))
#define XS_UNUSED_HANDLER_ARGS (void)x; (void)w; (void)in

void xs_exec_register_salu(void);
void xs_exec_register_smem(void);
void xs_exec_register_valu(void);
void xs_exec_register_valu_f(void);
void xs_exec_register_vcmp(void);
void xs_exec_register_lds(void);
void xs_exec_register_vmem(void);
void xs_exec_register_bvh(void);
void xs_exec_register_gfx(void);
/* gfx10 buffer FORMAT's name as llvm-mc spells it (without BUF_FMT_), NULL if not modelled. */
const char *xs_isa_buf_format_name(unsigned format);

/* Stops the wave: fills ctx->fault (what = mnemonic, then ": detail" when
 * detail is non-NULL), rewinds w->pc to the instruction, returns XS_WAVE_FAULT. */
int xs_exec_fault(xs_exec *x, xs_wave *w, const xs_inst *in, xs_fault_kind kind, uint64_t addr,
		  const char *detail);
static inline int xs_exec_unimpl(xs_exec *x, xs_wave *w, const xs_inst *in, const char *detail)
{
	return xs_exec_fault(x, w, in, XS_FAULT_UNIMPLEMENTED, 0, detail);
}

/* ---- scalar operands -------------------------------------------------------- */
extern const uint32_t xs_inline_f32[9];   /* 240..248 as f32 bits */
extern const uint64_t xs_inline_f64[9];   /* as f64 bits */
extern const uint16_t xs_inline_f16[9];   /* as f16 bits */

static inline uint64_t xs_lane_full(const xs_wave *w)
{
	return w->lanes == 64 ? ~0ull : 0xffffffffull;
}

/* Operand encodings 128..254 other than SGPRs (32-bit read). */
uint32_t xs_sread_special(const xs_wave *w, unsigned s);
/* 64-bit read of a non-SGPR, non-literal operand; f64 picks double inline floats. */
uint64_t xs_sread_special64(const xs_wave *w, unsigned s);

/* Inline integer s (XS_SRC_INT0 .. XS_SRC_INTM16): 0..64, then -1..-16. */
static inline uint32_t xs_inline_int(unsigned s)
{
	return s <= XS_SRC_INT64 ? s - XS_SRC_INT0 : (uint32_t)(XS_SRC_INT64 - (int)s);
}

/* Whether operand s is a constant, the literal or an inline integer or
 * float: one value in every lane and every wave (a lockstep step's group
 * handlers read it once). */
static inline bool xs_src_const(unsigned s)
{
	return s == XS_SRC_LITERAL || (s >= XS_SRC_INT0 && s <= XS_SRC_INTM16) ||
	       (s >= XS_SRC_HALF && s <= XS_SRC_INV2PI);
}

static inline uint32_t xs_sread(const xs_wave *w, const xs_inst *in, unsigned s)
{
	if (XS_LIKELY(s < 128))
		return w->s[s];
	if (s == XS_SRC_LITERAL)
		return in->literal;
	/* the inline integers here (a loop's count, a compare with 0): the
	 * call for them was most of an SALU group step */
	if (XS_LIKELY(s <= XS_SRC_INTM16))
		return xs_inline_int(s);
	return xs_sread_special(w, s);
}

/* Literal in a 64-bit operand: f64 -> high dword; signed (i64) -> sign
 * extended; otherwise zero extended (LLVM D70274: hardware zero-extends the
 * literal of unsigned / untyped 64-bit operands). */
enum { XS_LIT64_ZEXT = 0, XS_LIT64_SEXT = 1, XS_LIT64_F64 = 2 };

static inline uint64_t xs_sread64k(const xs_wave *w, const xs_inst *in, unsigned s, int lk)
{
	if (XS_LIKELY(s < 128))
		return w->s[s] | (uint64_t)w->s[(s + 1) & 127] << 32;
	if (s == XS_SRC_LITERAL)
		return lk == XS_LIT64_F64 ? (uint64_t)in->literal << 32
		       : lk == XS_LIT64_SEXT ? (uint64_t)(int64_t)(int32_t)in->literal : in->literal;
	return xs_sread_special64(w, s);
}

static inline uint64_t xs_sread64(const xs_wave *w, const xs_inst *in, unsigned s)
{
	return xs_sread64k(w, in, s, XS_LIT64_ZEXT);
}

/* SGPR writes: a write to NULL (125) is dropped, and so is a part of a
 * multi-dword write that would land on NULL or past EXEC_HI (an sdst LLVM
 * refuses, such as a 64-bit m0 or s_load_dwordx16 to s[120:135]: it did
 * not wrap round to s0). */
static inline void xs_swrite(xs_wave *w, unsigned d, uint32_t v)
{
	if (XS_LIKELY(d < 128 && d != XS_SREG_NULL))
		w->s[d] = v;
}

static inline void xs_swrite64(xs_wave *w, unsigned d, uint64_t v)
{
	if (d == XS_SREG_NULL) /* a 64-bit NULL: both halves dropped */
		return;
	xs_swrite(w, d, (uint32_t)v);
	xs_swrite(w, d + 1, (uint32_t)(v >> 32));
}

/* A lane mask operand (VCC, an SGPR pair, a constant): wave-size bits. */
static inline uint64_t xs_rd_mask(const xs_wave *w, const xs_inst *in, unsigned s)
{
	uint64_t v;
	if (XS_LIKELY(s < 128)) {
		v = w->s[s];
		if (w->lanes == 64)
			v |= (uint64_t)w->s[(s + 1) & 127] << 32;
		return v;
	}
	v = w->lanes == 64 ? xs_sread64(w, in, s) : xs_sread(w, in, s);
	return v & xs_lane_full(w);
}

static inline void xs_wr_mask(xs_wave *w, unsigned d, uint64_t m)
{
	if (d == XS_SREG_NULL)
		return;
	xs_swrite(w, d, (uint32_t)m);
	if (w->lanes == 64)
		xs_swrite(w, d + 1, (uint32_t)(m >> 32));
}

/* ---- lane masks and per-lane flags ---------------------------------------------------
 * Bodies that produce or consume a lane mask (carries, compares, VCC
 * selects) compute per-lane flags in arrays, a loop that vectorises, and
 * convert at the edge: one bit shift and OR per lane into a 64-bit mask
 * does not vectorise, and is most of such an instruction's cost. n is the
 * wave's lane count (32 or 64). */

/* flags (0 or 1 per lane) -> mask, bit l = f[l] */
static inline __attribute__((always_inline)) uint64_t xs_flags_to_mask(const uint32_t *f, unsigned n)
{
	uint64_t m = 0;
#if defined(__AVX512F__)
	/* 16 lanes a compare, reading what the lane loops wrote a vector at a
	 * time (loads the width of the stores: forwarded) */
	for (unsigned l = 0; l < n; l += 16)
		m |= (uint64_t)_mm512_test_epi32_mask(_mm512_loadu_si512((const void *)(f + l)), _mm512_set1_epi32(1)) << l;
#elif defined(__AVX2__)
	for (unsigned l = 0; l < n; l += 8) {
		__m256i v = _mm256_slli_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(f + l)), 31);
		m |= (uint64_t)(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(v)) << l;
	}
#else
	for (unsigned l = 0; l < n; l++)
		m |= (uint64_t)(f[l] & 1) << l;
#endif
	return m;
}

/* mask -> flags, f[l] = bit l (0 or 1) */
static inline __attribute__((always_inline)) void xs_mask_to_flags(uint64_t m, unsigned n, uint32_t *f)
{
#if defined(__AVX512F__)
	/* 64-byte stores, as wide as the loads of the lane loops that read the
	 * flags: 32-byte stores read back by a 64-byte load cannot be forwarded,
	 * and that stall was the most sampled instruction of v_add_co_ci_u32 */
	for (unsigned l = 0; l < n; l += 16)
		_mm512_storeu_si512((void *)(f + l), _mm512_maskz_set1_epi32((__mmask16)(m >> l), 1));
#elif defined(__AVX2__)
	const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
	for (unsigned l = 0; l < n; l += 8) {
		__m256i v = _mm256_and_si256(_mm256_set1_epi32((int)((m >> l) & 0xff)), bit);
		v = _mm256_srli_epi32(_mm256_cmpeq_epi32(v, bit), 31);
		_mm256_storeu_si256((__m256i *)(void *)(f + l), v);
	}
#else
	for (unsigned l = 0; l < n; l++)
		f[l] = (uint32_t)(m >> l) & 1;
#endif
}

/* ---- vector operands ------------------------------------------------------------ */
/* Per-instruction VALU context: lane count, the lanes that write (EXEC and,
 * for DPP, the DPP write mask). */
typedef struct xs_vctx {
	unsigned n;
	uint64_t mask;
} xs_vctx;

static inline void xs_vbegin(const xs_wave *w, xs_vctx *c)
{
	c->n = w->lanes;
	c->mask = xs_wave_exec(w);
}

static inline uint32_t *xs_vrow(xs_wave *w, unsigned operand)
{
	return w->v[(operand - XS_SRC_VGPR) & 0xff];
}

/* Source i as 32-bit lane values with the instruction's modifiers applied
 * (DPP lane selection, SDWA sub-dword select, op_sel half, abs/neg by the
 * op's float type). Returns the VGPR row itself when no modifier applies,
 * else fills tmp. */
const uint32_t *xs_vsrc32_slow(xs_vctx *c, const xs_wave *w, const xs_inst *in, unsigned i,
			       uint32_t *tmp);

#define XS_VSRC_MODS(i) (XS_MOD_ABS(i) | XS_MOD_NEG(i) | XS_MOD_OPSEL(i) | XS_MOD_SDWA | \
			 XS_MOD_DPP16 | XS_MOD_DPP8)

/* f(args..., n) with a wave's lane count n (32 or 64) passed as a constant,
 * so that an always-inline lane loop is compiled for each width; a value
 * (or void) either way. */
#define XS_BY_LANES(n, f, ...) ((n) == 32 ? f(__VA_ARGS__, 32) : f(__VA_ARGS__, 64))

/* Broadcast of one value to n (32 or 64) lanes of tmp; fixed trip counts so
 * the stores are full vectors (the body's vector loads then forward). */
static inline __attribute__((always_inline)) const uint32_t *xs_vbcast32(uint32_t *tmp, uint32_t k, unsigned n)
{
	if (n == 32) {
		for (unsigned l = 0; l < 32; l++)
			tmp[l] = k;
	} else {
		for (unsigned l = 0; l < XS_MAX_LANES; l++)
			tmp[l] = k;
	}
	return tmp;
}

/* The value of an unmodified scalar source s (an SGPR, s < 128, or
 * xs_src_const) for a 32-bit lane operand: what xs_vsrc32 gives every
 * lane; an inline float in the op's width (f16 bits for an F16 op). */
static inline uint32_t xs_scalar32(const xs_wave *w, const xs_inst *in, unsigned s)
{
	if (XS_LIKELY(s < 128))
		return w->s[s];
	if (s >= XS_SRC_HALF && s <= XS_SRC_INV2PI)
		return (xs_op_table[in->op].flags & XS_OPF_F16) ? xs_inline_f16[s - XS_SRC_HALF]
								 : xs_inline_f32[s - XS_SRC_HALF];
	return xs_sread(w, in, s);
}

static inline __attribute__((always_inline)) const uint32_t *xs_vsrc32(xs_vctx *c, const xs_wave *w, const xs_inst *in, unsigned i,
					uint32_t *tmp)
{
	unsigned s = in->src[i];
	if (XS_LIKELY(!(in->mods & XS_VSRC_MODS(i)))) {
		/* no modifier: a VGPR row, or one scalar value for every lane
		 * (what xs_vsrc32_slow computes for these operands) */
		if (XS_LIKELY(s >= XS_SRC_VGPR))
			return w->v[s - XS_SRC_VGPR];
		if (s < 128 || xs_src_const(s))
			return xs_vbcast32(tmp, xs_scalar32(w, in, s), c->n);
	}
	return xs_vsrc32_slow(c, w, in, i, tmp);
}

/* Source i as 64-bit lane values (always copied into tmp). */
void xs_vsrc64(const xs_wave *w, const xs_inst *in, unsigned i, uint64_t *tmp);

/* Writes a 32-bit result: SDWA dst_sel, 16-bit op_sel / high-half zeroing,
 * float omod/clamp, EXEC/DPP mask. */
void xs_vdst32_slow(xs_vctx *c, xs_wave *w, const xs_inst *in, uint32_t *res);

#define XS_VDST_MODS (XS_MOD_SDWA | XS_MOD_CLAMP | (3u << XS_MOD_OMOD_SHIFT) | XS_MOD_OPSEL(3))

static inline void xs_vstore_rows(uint32_t *restrict d, const uint32_t *restrict r, uint64_t mask,
				  unsigned n)
{
	if (XS_LIKELY(mask == (n == 64 ? ~0ull : 0xffffffffull))) {
		memcpy(d, r, n * 4);
		return;
	}
	for (unsigned l = 0; l < n; l++)
		if ((mask >> l) & 1)
			d[l] = r[l];
}

static inline void xs_vdst32(xs_vctx *c, xs_wave *w, const xs_inst *in, uint32_t *res)
{
	uint32_t f = xs_op_table[in->op].flags;
	if (XS_UNLIKELY((in->mods & XS_VDST_MODS) || (f & XS_OPF_DST16))) {
		xs_vdst32_slow(c, w, in, res);
		return;
	}
	xs_vstore_rows(xs_vrow(w, in->dst), res, c->mask, c->n);
}

/* Where a body writes its 32-bit results: the destination row itself when
 * nothing but a full EXEC applies (lane-wise bodies may write in place),
 * else tmp for xs_vdst32. Call after the sources are fetched (DPP narrows
 * the write mask). */
static inline uint32_t *xs_vdst_row(const xs_vctx *c, xs_wave *w, const xs_inst *in, uint32_t *tmp)
{
	uint32_t f = xs_op_table[in->op].flags;
	if (XS_LIKELY(!(in->mods & XS_VDST_MODS) && !(f & XS_OPF_DST16) &&
		      c->mask == (c->n == 64 ? ~0ull : 0xffffffffull)))
		return xs_vrow(w, in->dst);
	return tmp;
}

static inline void xs_vdst_done(xs_vctx *c, xs_wave *w, const xs_inst *in, uint32_t *r)
{
	if (r != xs_vrow(w, in->dst))
		xs_vdst32(c, w, in, r);
}

/* A group handler's test that the waves' handlers would all take their
 * plain path: no modifier (a literal is fine), a result without 16-bit
 * handling, every lane of every wave in EXEC. Then c is the frame each
 * wave's body has (xs_vbegin) and the destination is the row itself
 * (xs_vdst_row). */
static inline bool xs_group_plain(xs_wave *const *ws, unsigned n, const xs_inst *in, xs_vctx *c)
{
	if ((in->mods & ~XS_MOD_LIT) || (xs_op_table[in->op].flags & XS_OPF_DST16))
		return false;
	c->n = ws[0]->lanes;
	c->mask = c->n == 64 ? ~0ull : 0xffffffffull;
	for (unsigned j = 0; j < n; j++)
		if (xs_wave_exec(ws[j]) != c->mask)
			return false;
	return true;
}

/* The frame of a lane-wise VALU body over 32-bit operands: c_ (lanes,
 * EXEC), sources A [, B [, C]] (the VGPR rows, or copies in t0..t2 for
 * scalar, constant or modified sources), and r, where the body writes its
 * results (xs_vdst_row). XS_VFRAME_END stores r when it is not the row. */
#define XS_VFRAME_HEAD_T(T, res, ...)                                          \
	xs_vctx c_;                                                            \
	xs_vbegin(w, &c_);                                                     \
	T __VA_ARGS__, res[XS_MAX_LANES]
#define XS_VFRAME_HEAD(...) XS_VFRAME_HEAD_T(uint32_t, rt, __VA_ARGS__)
#define XS_VFRAME1                                                             \
	XS_VFRAME_HEAD(t0[XS_MAX_LANES]);                                      \
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);                      \
	uint32_t *r = xs_vdst_row(&c_, w, in, rt)
#define XS_VFRAME2                                                             \
	XS_VFRAME_HEAD(t0[XS_MAX_LANES], t1[XS_MAX_LANES]);                    \
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);                      \
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);                      \
	uint32_t *r = xs_vdst_row(&c_, w, in, rt)
#define XS_VFRAME3                                                             \
	XS_VFRAME_HEAD(t0[XS_MAX_LANES], t1[XS_MAX_LANES], t2[XS_MAX_LANES]);  \
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);                      \
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);                      \
	const uint32_t *C = xs_vsrc32(&c_, w, in, 2, t2);                      \
	uint32_t *r = xs_vdst_row(&c_, w, in, rt)
#define XS_VFRAME_END                                                          \
	xs_vdst_done(&c_, w, in, r);                                           \
	return 0

/* The same over 64-bit operands: sources copied into t0..t2 (xs_vsrc64),
 * results in r, written by XS_VFRAME64_END (xs_vdst64). */
#define XS_VFRAME64_HEAD(...) XS_VFRAME_HEAD_T(uint64_t, r, __VA_ARGS__)
#define XS_VFRAME64_1                                                          \
	XS_VFRAME64_HEAD(t0[XS_MAX_LANES]);                                    \
	xs_vsrc64(w, in, 0, t0)
#define XS_VFRAME64_2                                                          \
	XS_VFRAME64_HEAD(t0[XS_MAX_LANES], t1[XS_MAX_LANES]);                  \
	xs_vsrc64(w, in, 0, t0);                                               \
	xs_vsrc64(w, in, 1, t1)
#define XS_VFRAME64_3                                                          \
	XS_VFRAME64_HEAD(t0[XS_MAX_LANES], t1[XS_MAX_LANES], t2[XS_MAX_LANES]); \
	xs_vsrc64(w, in, 0, t0);                                               \
	xs_vsrc64(w, in, 1, t1);                                               \
	xs_vsrc64(w, in, 2, t2)
#define XS_VFRAME64_END                                                        \
	xs_vdst64(&c_, w, in, r);                                              \
	return 0

/* Writes a 64-bit result (register pair), omod/clamp for f64 results. */
void xs_vdst64(xs_vctx *c, xs_wave *w, const xs_inst *in, uint64_t *res);

/* ---- floats ------------------------------------------------------------- */
static inline float xs_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t xs_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double xs_u2d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static inline uint64_t xs_d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

float xs_f16_to_f32(uint16_t h);
uint16_t xs_f32_to_f16(float f);            /* round to nearest even */
uint16_t xs_f32_to_f16_rtz(float f);        /* round toward zero */

/* 32-bit float op results under MODE: denormal flush when MODE says so. */
static inline uint32_t xs_flush32(uint32_t v)
{
	return (v & 0x7f800000u) == 0 ? (v & 0x80000000u) : v;
}

/* ---- memory ----------------------------------------------------------------- */
/* Copies n (<= 64) bytes between GPU memory and the host, splitting at page
 * boundaries. False and *bad = first unmapped byte's address on failure. */
bool xs_gmem_read(xs_vm *vm, uint64_t va, void *dst, unsigned n, uint64_t *bad);
bool xs_gmem_write(xs_vm *vm, uint64_t va, const void *src, unsigned n, uint64_t *bad);

static inline bool xs_gmem_read_fast(xs_vm *vm, uint64_t va, void *dst, unsigned n, uint64_t *bad)
{
	if (XS_LIKELY((va & (XS_VM_PAGE_SIZE - 1)) + n <= XS_VM_PAGE_SIZE)) {
		const uint8_t *p = xs_vm_ptr_n(vm, va, n, false);
		if (XS_LIKELY(p != NULL)) {
			memcpy(dst, p, n);
			return true;
		}
	}
	return xs_gmem_read(vm, va, dst, n, bad);
}

static inline bool xs_gmem_write_fast(xs_vm *vm, uint64_t va, const void *src, unsigned n, uint64_t *bad)
{
	if (XS_LIKELY((va & (XS_VM_PAGE_SIZE - 1)) + n <= XS_VM_PAGE_SIZE)) {
		uint8_t *p = xs_vm_ptr_n(vm, va, n, true);
		if (XS_LIKELY(p != NULL)) {
			memcpy(p, src, n);
			return true;
		}
	}
	return xs_gmem_write(vm, va, src, n, bad);
}

#endif
