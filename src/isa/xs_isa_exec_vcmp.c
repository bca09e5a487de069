/*
 * VOPC: v_cmp_* / v_cmpx_* / v_cmp_class_*.
 *
 * The 190 compares share one body. Each op's type and predicate come from
 * its mnemonic (parsed once at registration). The predicate number in the
 * mnemonic order (f, lt, eq, le, gt, lg/ne, ge, o/t, u, nge, nlg, ngt, nle,
 * neq, nlt, tru) is itself a truth table over the outcome of the
 * comparison: bit 0 "less", bit 1 "equal", bit 2 "greater", bit 3
 * "unordered". The result mask has inactive lanes cleared; v_cmpx writes it
 * to EXEC only (gfx10), v_cmp to VCC (e32) or sdst (e64 / SDWA).
 */
#include <string.h>

#include "isa/xs_isa_priv.h"

#ifdef __AVX512F__
#include <immintrin.h>
#endif

enum { T_F16, T_F32, T_F64, T_I16, T_U16, T_I32, T_U32, T_I64, T_U64 };

typedef struct cmp_desc {
	uint8_t type;
	uint8_t pred;   /* truth table, or 0xff for v_cmp_class */
} cmp_desc;

static cmp_desc desc[XS_OP_COUNT];

static inline unsigned outcome_f(double a, double b)
{
	return a < b ? 0 : a == b ? 1 : a > b ? 2 : 3;
}

/* v_cmp_class: mask bit k for class k = 0 sNaN, 1 qNaN, 2 -inf, 3 -normal,
 * 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf. The class comes
 * from the operand's own format (sign, exponent, mantissa fields): an f32 or
 * f16 denormal is not a double denormal. Never flushed (ISA: "No flushing
 * denormalized values for SRC0"). */
static inline bool is_class_bits(uint64_t v, unsigned mbits, unsigned ebits, uint32_t mask)
{
	uint64_t man = v & ((1ull << mbits) - 1);
	uint64_t emax = (1ull << ebits) - 1, e = (v >> mbits) & emax;
	bool neg = (v >> (mbits + ebits)) & 1;
	unsigned k;
	if (e == emax)
		k = man == 0 ? (neg ? 2 : 9) : ((man >> (mbits - 1)) & 1) ? 1 : 0;
	else if (e == 0)
		k = man == 0 ? (neg ? 5 : 6) : (neg ? 4 : 7);
	else
		k = neg ? 3 : 8;
	return (mask >> k) & 1;
}

/* The outcome of a compare, lane by lane, as masks: less, equal, greater
 * (unordered is what is none of them). Whole vectors over the wave's lanes
 * (n is 32 or 64): a branch per lane on data was a fifth of a streaming
 * wave's compare. The outcomes are those of the C comparisons on the typed
 * values (outcome_f for floats), under the same MXCSR. */
typedef struct cmp_masks {
	uint64_t lt, eq, gt;
} cmp_masks;

/* Outcome bits of lanes from `at` into the masks. */
static inline void put(cmp_masks *r, uint64_t lt, uint64_t eq, uint64_t gt, unsigned at)
{
	r->lt |= lt << at;
	r->eq |= eq << at;
	r->gt |= gt << at;
}

static cmp_masks masks32(unsigned type, const uint32_t *A, const uint32_t *B, unsigned n)
{
	cmp_masks r = { 0, 0, 0 };
#ifdef __AVX512F__
	for (unsigned l = 0; l < n; l += 16) {
		__m512i a = _mm512_loadu_si512(A + l), b = _mm512_loadu_si512(B + l);
		__mmask16 lt, eq, gt;
		if (type == T_F32) {
			__m512 fa = _mm512_castsi512_ps(a), fb = _mm512_castsi512_ps(b);
			lt = _mm512_cmp_ps_mask(fa, fb, _CMP_LT_OQ);
			eq = _mm512_cmp_ps_mask(fa, fb, _CMP_EQ_OQ);
			gt = _mm512_cmp_ps_mask(fa, fb, _CMP_GT_OQ);
		} else {
			if (type == T_I16) {
				a = _mm512_srai_epi32(_mm512_slli_epi32(a, 16), 16);
				b = _mm512_srai_epi32(_mm512_slli_epi32(b, 16), 16);
			} else if (type == T_U16) {
				a = _mm512_and_si512(a, _mm512_set1_epi32(0xffff));
				b = _mm512_and_si512(b, _mm512_set1_epi32(0xffff));
			}
			bool sgn = type == T_I32 || type == T_I16;
			lt = sgn ? _mm512_cmplt_epi32_mask(a, b) : _mm512_cmplt_epu32_mask(a, b);
			eq = _mm512_cmpeq_epi32_mask(a, b);
			gt = (__mmask16)~(lt | eq);
		}
		put(&r, lt, eq, gt, l);
	}
#else
	/* per-lane flags, a loop per type that vectorises, then masks at the
	 * edge (xs_flags_to_mask): a shift and OR per lane into the masks was
	 * ~870 host instructions a compare on x86-64-v3 */
	uint32_t lt[XS_MAX_LANES], eq[XS_MAX_LANES], gt[XS_MAX_LANES];
	switch (type) {
	case T_F32:
		for (unsigned l = 0; l < n; l++) {
			float a = xs_u2f(A[l]), b = xs_u2f(B[l]);
			lt[l] = a < b, eq[l] = a == b, gt[l] = a > b;
		}
		break;
	case T_I32:
		for (unsigned l = 0; l < n; l++)
			lt[l] = (int32_t)A[l] < (int32_t)B[l], eq[l] = A[l] == B[l], gt[l] = (int32_t)A[l] > (int32_t)B[l];
		break;
	case T_U32:
		for (unsigned l = 0; l < n; l++)
			lt[l] = A[l] < B[l], eq[l] = A[l] == B[l], gt[l] = A[l] > B[l];
		break;
	case T_I16:
		for (unsigned l = 0; l < n; l++)
			lt[l] = (int16_t)A[l] < (int16_t)B[l], eq[l] = (uint16_t)A[l] == (uint16_t)B[l],
			gt[l] = (int16_t)A[l] > (int16_t)B[l];
		break;
	default:
		for (unsigned l = 0; l < n; l++)
			lt[l] = (uint16_t)A[l] < (uint16_t)B[l], eq[l] = (uint16_t)A[l] == (uint16_t)B[l],
			gt[l] = (uint16_t)A[l] > (uint16_t)B[l];
		break;
	}
	put(&r, xs_flags_to_mask(lt, n), xs_flags_to_mask(eq, n), xs_flags_to_mask(gt, n), 0);
#endif
	return r;
}

static cmp_masks masks64(unsigned type, const uint64_t *A, const uint64_t *B, unsigned n)
{
	cmp_masks r = { 0, 0, 0 };
#ifdef __AVX512F__
	for (unsigned l = 0; l < n; l += 8) {
		__m512i a = _mm512_loadu_si512(A + l), b = _mm512_loadu_si512(B + l);
		__mmask8 lt, eq, gt;
		if (type == T_F64) {
			__m512d fa = _mm512_castsi512_pd(a), fb = _mm512_castsi512_pd(b);
			lt = _mm512_cmp_pd_mask(fa, fb, _CMP_LT_OQ);
			eq = _mm512_cmp_pd_mask(fa, fb, _CMP_EQ_OQ);
			gt = _mm512_cmp_pd_mask(fa, fb, _CMP_GT_OQ);
		} else {
			lt = type == T_I64 ? _mm512_cmplt_epi64_mask(a, b) : _mm512_cmplt_epu64_mask(a, b);
			eq = _mm512_cmpeq_epi64_mask(a, b);
			gt = (__mmask8)~(lt | eq);
		}
		put(&r, lt, eq, gt, l);
	}
#else
	uint32_t lt[XS_MAX_LANES], eq[XS_MAX_LANES], gt[XS_MAX_LANES];
	if (type == T_F64) {
		for (unsigned l = 0; l < n; l++) {
			double a = xs_u2d(A[l]), b = xs_u2d(B[l]);
			lt[l] = a < b, eq[l] = a == b, gt[l] = a > b;
		}
	} else if (type == T_I64) {
		for (unsigned l = 0; l < n; l++)
			lt[l] = (int64_t)A[l] < (int64_t)B[l], eq[l] = A[l] == B[l], gt[l] = (int64_t)A[l] > (int64_t)B[l];
	} else {
		for (unsigned l = 0; l < n; l++)
			lt[l] = A[l] < B[l], eq[l] = A[l] == B[l], gt[l] = A[l] > B[l];
	}
	put(&r, xs_flags_to_mask(lt, n), xs_flags_to_mask(eq, n), xs_flags_to_mask(gt, n), 0);
#endif
	return r;
}

/* masks64 for src0 a scalar k and src1 a VGPR pair (lo, hi) read in
 * place: a 64-bit id's bounds check (v_cmpx_gt_u64 s[n], v[id]) built two
 * 64-bit rows of the wave's lanes before (xs_vsrc64), a third of its cost. */
static inline __attribute__((always_inline)) cmp_masks masks64_k(unsigned type, uint64_t k, const uint32_t *lo,
								  const uint32_t *hi, unsigned n)
{
	uint32_t lt[XS_MAX_LANES], eq[XS_MAX_LANES], gt[XS_MAX_LANES];
	if (type == T_I64) {
		for (unsigned l = 0; l < n; l++) {
			const int64_t a = (int64_t)k, b = (int64_t)(lo[l] | (uint64_t)hi[l] << 32);
			lt[l] = a < b, eq[l] = a == b, gt[l] = a > b;
		}
	} else {
		for (unsigned l = 0; l < n; l++) {
			const uint64_t b = lo[l] | (uint64_t)hi[l] << 32;
			lt[l] = k < b, eq[l] = k == b, gt[l] = k > b;
		}
	}
	cmp_masks r = { xs_flags_to_mask(lt, n), xs_flags_to_mask(eq, n), xs_flags_to_mask(gt, n) };
	return r;
}

/* The lanes whose outcome the predicate's truth table p accepts. */
static inline uint64_t accept(cmp_masks o, unsigned p, unsigned n)
{
	uint64_t all = n == 64 ? ~0ull : (1ull << n) - 1, un = all & ~(o.lt | o.eq | o.gt);
	return ((p & 1) ? o.lt : 0) | ((p & 2) ? o.eq : 0) | ((p & 4) ? o.gt : 0) | ((p & 8) ? un : 0);
}

static int x_vcmp(xs_exec *x, xs_wave *w, const xs_inst *in)
{
	(void)x;
	cmp_desc d = desc[in->op];
	xs_vctx c;
	xs_vbegin(w, &c);
	unsigned n = c.n, p = d.pred;
	uint64_t m = 0;
	if ((d.type == T_I64 || d.type == T_U64) && p != 0xff && in->src[0] < 128 && in->src[1] >= XS_SRC_VGPR) {
		/* (integer operands take no modifiers: what xs_vsrc64 reads) */
		const unsigned s0 = in->src[0], r1 = in->src[1] - XS_SRC_VGPR;
		const uint64_t k = w->s[s0] | (uint64_t)w->s[(s0 + 1) & 127] << 32;
		const uint32_t *lo = w->v[r1 & 0xff], *hi = w->v[(r1 + 1) & 0xff];
		m = accept(XS_BY_LANES(n, masks64_k, d.type, k, lo, hi), p, n);
	} else if (d.type == T_F64 || d.type == T_I64 || d.type == T_U64) {
		uint64_t a[XS_MAX_LANES], b[XS_MAX_LANES];
		xs_vsrc64(w, in, 0, a);
		if (p == 0xff) {
			uint32_t t1[XS_MAX_LANES];
			const uint32_t *B = xs_vsrc32(&c, w, in, 1, t1);
			for (unsigned l = 0; l < n; l++)
				m |= (uint64_t)is_class_bits(a[l], 52, 11, B[l]) << l;
		} else {
			xs_vsrc64(w, in, 1, b);
			m = accept(masks64(d.type, a, b, n), p, n);
		}
	} else {
		uint32_t t0[XS_MAX_LANES], t1[XS_MAX_LANES];
		const uint32_t *A = xs_vsrc32(&c, w, in, 0, t0);
		const uint32_t *B = xs_vsrc32(&c, w, in, 1, t1);
		if (p == 0xff) {
			for (unsigned l = 0; l < n; l++)
				m |= (uint64_t)(d.type == T_F16 ? is_class_bits(A[l] & 0xffff, 10, 5, B[l])
								: is_class_bits(A[l], 23, 8, B[l])) << l;
		} else if (d.type == T_F16) {
			for (unsigned l = 0; l < n; l++) {
				unsigned o = outcome_f(xs_f16_to_f32((uint16_t)A[l]), xs_f16_to_f32((uint16_t)B[l]));
				m |= (uint64_t)((p >> o) & 1) << l;
			}
		} else {
			m = accept(masks32(d.type, A, B, n), p, n);
		}
	}
	xs_wr_mask(w, in->sdst, m & c.mask);
	return 0;
}

/* The compares over the waves of a lockstep step, one after another: no
 * per-wave step of the lockstep loop (its PC writes and parting test). A
 * compare neither branches nor faults; v_cmpx's EXEC is the wave's own. */
XS_GROUP_EACH(vcmp)

static const char *const pred_names[] = {
	"f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "tru",
};

static bool parse(const char *name, cmp_desc *d)
{
	const char *p;
	if (!strncmp(name, "v_cmpx_", 7))
		p = name + 7;
	else if (!strncmp(name, "v_cmp_", 6))
		p = name + 6;
	else
		return false;
	const char *us = strrchr(p, '_');
	if (!us)
		return false;
	static const struct { const char *s; uint8_t t; } types[] = {
		{ "f16", T_F16 }, { "f32", T_F32 }, { "f64", T_F64 }, { "i16", T_I16 }, { "u16", T_U16 },
		{ "i32", T_I32 }, { "u32", T_U32 }, { "i64", T_I64 }, { "u64", T_U64 },
	};
	bool found = false;
	for (unsigned i = 0; i < XS_ARRAY_SIZE(types); i++) {
		if (!strcmp(us + 1, types[i].s)) {
			d->type = types[i].t;
			found = true;
		}
	}
	if (!found)
		return false;
	size_t len = (size_t)(us - p);
	if (len == 5 && !strncmp(p, "class", 5)) {
		d->pred = 0xff;
		return true;
	}
	bool is_int = d->type >= T_I16;
	for (unsigned i = 0; i < XS_ARRAY_SIZE(pred_names); i++) {
		if (strlen(pred_names[i]) == len && !strncmp(p, pred_names[i], len)) {
			d->pred = (uint8_t)i;
			return !is_int || i < 8;
		}
	}
	/* integer spellings: ne = lg (5), t = always (7) */
	if (is_int && len == 2 && !strncmp(p, "ne", 2)) {
		d->pred = 5;
		return true;
	}
	if (is_int && len == 1 && p[0] == 't') {
		d->pred = 7;
		return true;
	}
	return false;
}

void xs_exec_register_vcmp(void)
{
	for (unsigned op = 1; op < XS_OP_COUNT; op++) {
		if (!(xs_op_table[op].flags & XS_OPF_CMP))
			continue;
		if (parse(xs_op_table[op].name, &desc[op])) {
			xs_exec_table[op] = x_vcmp;
			xs_exec_group_table[op] = g_vcmp;
		}
	}
}
