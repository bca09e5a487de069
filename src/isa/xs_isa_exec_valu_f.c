/*
 * Vector ALU, floating point and conversions (f16 / f32 / f64).
 *
 * Exactness (see README.md "Floating point"):
 *  - add, sub, mul, fma and the conversions are correctly rounded, with
 *    MODE.FP_ROUND (s_round_mode / s_setreg) honoured: the default
 *    round-to-nearest-even path is host IEEE arithmetic; the directed modes
 *    go through an exact double-word value (TwoSum / TwoProd) rounded by
 *    round_pair(). Ops whose rounding under a directed mode is not modelled
 *    (f64 fma and ldexp, v_div_fmas_f64, packed f16, v_fma_mix*) fault with
 *    their mnemonic; the transcendentals ignore the rounding mode.
 *  - MODE.FP_DENORM: bit 0 of each field allows input denormals, bit 1
 *    output denormals (CLRX GcnState.md; 0 flush both ... 3 keep both);
 *    [5:4] f32, [7:6] f64 and f16. Applied to the arithmetic ops, min/max/
 *    med3 and the conversions. v_cmp_* and v_cmp_class never flush.
 *  - v_rcp/v_rsq/v_sqrt/v_exp/v_log_f32 flush denormal inputs and outputs
 *    whatever MODE says ("denormals are flushed", AMD ISA notes; LLVM scales
 *    around them for that reason); v_sin/v_cos_f32 keep them and reduce any
 *    input exactly (the input is in revolutions). They are computed in double
 *    and rounded once: within 0.5 ulp + 2^-29 ulp of the exact result, inside
 *    the hardware's documented 1 ulp.
 *  - f16 ops compute in f32 (sum, difference, product, quotient, sqrt of
 *    binary16 values rounded once from binary32 equal the correctly rounded
 *    binary16 result) except fma, which rounds the exact value once.
 *  - min/max/med3 follow the ISA pseudocode: in IEEE mode (MODE bit 9) a
 *    signalling NaN operand returns that NaN quieted, a quiet NaN operand
 *    returns the other operand; -0 < +0. med3 with any NaN is min3.
 *  - v_div_scale / v_div_fmas / v_div_fixup follow the ISA pseudocode (with
 *    the reciprocal and quotient denormal tests in the operand's precision):
 *    LLVM's division sequence then yields the correctly rounded quotient for
 *    every operand pair, which tests/e2e checks against PoCL.
 */
#include <stdio.h>

#include "isa/xs_isa_priv.h"

#define LANES XS_MAX_LANES
#define TWO_PI 6.283185307179586476925286766559

/* ---- MODE ------------------------------------------------------------------ */
/* FloatMode 240 (what clang sets for gfx1030 kernels): round to nearest
 * even everywhere, denormals kept. Anything else takes the slow paths. */
#define MODE_FP_DEFAULT 0xf0u
enum { RM_NE = 0, RM_UP = 1, RM_DN = 2, RM_TZ = 3 };

static inline bool fp_slow(const xs_wave *w) { return (w->mode & 0xffu) != MODE_FP_DEFAULT; }
static inline unsigned rm32(const xs_wave *w) { return w->mode & 3u; }
static inline unsigned rm64(const xs_wave *w) { return (w->mode >> 2) & 3u; }   /* f64 and f16 */
static inline unsigned dn32(const xs_wave *w) { return (w->mode >> 4) & 3u; }
static inline unsigned dn64(const xs_wave *w) { return (w->mode >> 6) & 3u; }   /* f64 and f16 */
static inline bool ieee_mode(const xs_wave *w) { return (w->mode & XS_MODE_IEEE) != 0; }

static int mode_fault(xs_exec *x, xs_wave *w, const xs_inst *in, unsigned rm)
{
	static const char *const names[4] = { "nearest", "+inf", "-inf", "zero" };
	char d[96];
	snprintf(d, sizeof(d), "rounding toward %s (MODE.FP_ROUND) not modelled for this op", names[rm & 3]);
	return xs_exec_unimpl(x, w, in, d);
}

/* ---- bits, denormals, NaNs ---------------------------------------------------- */
static inline bool den32(float v) { return v != 0.0f && fabsf(v) < 0x1p-126f; }
static inline bool den64(double v) { return v != 0.0 && fabs(v) < 0x1p-1022; }
static inline bool den16(float v) { return v != 0.0f && fabsf(v) < 0x1p-14f; }
static inline float ftz32(float v) { return den32(v) ? copysignf(0.0f, v) : v; }
static inline double ftz64(double v) { return den64(v) ? copysign(0.0, v) : v; }
static inline float ftz16(float v) { return den16(v) ? copysignf(0.0f, v) : v; }
/* input / output flush by a MODE.FP_DENORM field */
static inline float fin32(float v, unsigned dn) { return (dn & 1) ? v : ftz32(v); }
static inline float fout32(float v, unsigned dn) { return (dn & 2) ? v : ftz32(v); }
static inline double fin64(double v, unsigned dn) { return (dn & 1) ? v : ftz64(v); }
static inline double fout64(double v, unsigned dn) { return (dn & 2) ? v : ftz64(v); }
static inline float fin16(float v, unsigned dn) { return (dn & 1) ? v : ftz16(v); }
static inline float fout16(float v, unsigned dn) { return (dn & 2) ? v : ftz16(v); }

static inline bool snan32(float v) { return isnan(v) && !((xs_f2u(v) >> 22) & 1); }
static inline bool snan64(double v) { return isnan(v) && !((xs_d2u(v) >> 51) & 1); }
static inline float quiet32(float v) { return xs_u2f(xs_f2u(v) | 0x00400000u); }
static inline double quiet64(double v) { return xs_u2d(xs_d2u(v) | 0x0008000000000000ull); }

/* ---- exact values and rounding ------------------------------------------------ */
/* An exact real as hi + lo: hi = fl(value), |lo| <= ulp(hi) / 2. */
typedef struct dd {
	double hi, lo;
} dd;

static inline dd two_sum(double a, double b)
{
	double s = a + b, bb = s - a;
	return (dd){ s, (a - (s - bb)) + (b - bb) };
}

static inline dd two_prod(double a, double b)
{
	double p = a * b;
	return (dd){ p, fma(a, b, -p) };
}

typedef struct fpfmt {
	int p;          /* significand bits */
	int emin;       /* frexp exponent of the smallest normal (value 0.5 * 2^emin) */
	double max;     /* largest finite */
} fpfmt;
static const fpfmt F16 = { 11, -13, 65504.0 };
static const fpfmt F32 = { 24, -125, 0x1.fffffep+127 };
static const fpfmt F64 = { 53, -1021, 0x1.fffffffffffffp+1023 };

/* Rounds the exact value (v.hi + v.lo) * 2^k to format f in mode rm (RM_*);
 * the result is a double holding a value of the format (or +-inf). An exact
 * zero keeps v.hi's sign (the caller settles x + -x under RM_DN). The scale
 * is applied to the rounding position, not to v, so that a result in the
 * target's denormal range is rounded once even when it is a double denormal. */
static double round_pair_k(dd v, int k, const fpfmt *f, unsigned rm)
{
	if (!isfinite(v.hi) || v.hi == 0.0)
		return ldexp(v.hi, k);
	bool neg = signbit(v.hi) != 0;
	double a = fabs(v.hi), b = neg ? -v.lo : v.lo;     /* |value| = a + b */
	int ex;
	double m = frexp(a, &ex);
	if (m == 0.5 && b < 0.0)
		ex--;                                       /* just below a power of two */
	double ulp = ldexp(1.0, (ex + k > f->emin ? ex + k : f->emin) - f->p - k);
	double t = trunc(a / ulp) * ulp, d = a - t;         /* exact */
	double lo_c, hi_c;
	int pos;                                            /* -1 below half, 0 half, 1 above */
	bool exact = false;
	if (d == 0.0) {
		if (b == 0.0) {
			exact = true;
			lo_c = hi_c = t;
			pos = 0;
		} else if (b > 0.0) {
			lo_c = t, hi_c = t + ulp, pos = -1;
		} else {
			lo_c = t - ulp, hi_c = t, pos = 1;
		}
	} else {
		double h = ulp / 2;
		lo_c = t, hi_c = t + ulp;
		pos = d > h ? 1 : d < h ? -1 : (b > 0.0 ? 1 : b < 0.0 ? -1 : 0);
	}
	double r;
	if (exact) {
		r = t;
	} else {
		bool up;
		switch (rm) {
		case RM_NE: up = pos > 0 || (pos == 0 && fmod(lo_c / ulp, 2.0) != 0.0); break;
		case RM_UP: up = !neg; break;
		case RM_DN: up = neg; break;
		default: up = false; break;
		}
		r = up ? hi_c : lo_c;
	}
	r = ldexp(r, k);                                    /* exact: r is a multiple of the quantum */
	if (r > f->max) {
		bool to_inf = rm == RM_NE || (rm == RM_UP && !neg) || (rm == RM_DN && neg);
		r = to_inf ? INFINITY : f->max;
	}
	return neg ? -r : r;
}

static inline double round_pair(dd v, const fpfmt *f, unsigned rm)
{
	return round_pair_k(v, 0, f, rm);
}

/* x + y exactly zero: the sign IEEE 754 gives it (-0 only for -0 + -0, or
 * for any zero sum when rounding toward -inf). */
static inline double zero_sum(double x, double y, unsigned rm)
{
	if (signbit(x) && signbit(y))
		return -0.0;
	return rm == RM_DN ? -0.0 : 0.0;
}

/* binary16 bits of a double holding a binary16 value (or inf/NaN). */
static uint16_t h_bits(double v)
{
	uint16_t s = signbit(v) ? 0x8000 : 0;
	if (isnan(v))
		return (uint16_t)(s | 0x7e00 | ((xs_d2u(v) >> 42) & 0x1ff));
	v = fabs(v);
	if (isinf(v))
		return (uint16_t)(s | 0x7c00);
	if (v < 0x1p-14)
		return (uint16_t)(s | (uint16_t)(v * 0x1p24));    /* denormal: exact */
	int e;
	double m = frexp(v, &e);                             /* v = m * 2^e, m in [0.5, 1) */
	return (uint16_t)(s | (uint16_t)((e + 14) << 10) | ((uint16_t)(m * 2048.0) & 0x3ff));
}

/* f16 value (as float) -> bits, rounding v once in mode rm */
static inline uint32_t f2h_rm(dd v, unsigned rm)
{
	if (isnan(v.hi))
		return xs_f32_to_f16((float)v.hi);
	return h_bits(round_pair(v, &F16, rm));
}
static inline float h2f(uint32_t h) { return xs_f16_to_f32((uint16_t)h); }
static inline uint32_t f2h(float f) { return xs_f32_to_f16(f); }

/* ---- min / max / med3 (ISA pseudocode V_MIN_F32 / V_MAX_F32 / V_MED3_F32) ---- */
static inline float fmin_hw(float a, float b, bool ieee)
{
	if (ieee && snan32(a)) return quiet32(a);
	if (ieee && snan32(b)) return quiet32(b);
	if (isnan(a)) return b;
	if (isnan(b)) return a;
	if (a == 0.0f && b == 0.0f) return signbit(a) ? a : b;
	return a < b ? a : b;
}
static inline float fmax_hw(float a, float b, bool ieee)
{
	if (ieee && snan32(a)) return quiet32(a);
	if (ieee && snan32(b)) return quiet32(b);
	if (isnan(a)) return b;
	if (isnan(b)) return a;
	if (a == 0.0f && b == 0.0f) return signbit(a) ? b : a;
	return a > b ? a : b;
}
static inline double dmin_hw(double a, double b, bool ieee)
{
	if (ieee && snan64(a)) return quiet64(a);
	if (ieee && snan64(b)) return quiet64(b);
	if (isnan(a)) return b;
	if (isnan(b)) return a;
	if (a == 0.0 && b == 0.0) return signbit(a) ? a : b;
	return a < b ? a : b;
}
static inline double dmax_hw(double a, double b, bool ieee)
{
	if (ieee && snan64(a)) return quiet64(a);
	if (ieee && snan64(b)) return quiet64(b);
	if (isnan(a)) return b;
	if (isnan(b)) return a;
	if (a == 0.0 && b == 0.0) return signbit(a) ? b : a;
	return a > b ? a : b;
}
static inline float fmed3_hw(float a, float b, float c, bool ieee)
{
	if (isnan(a) || isnan(b) || isnan(c))
		return fmin_hw(fmin_hw(a, b, ieee), c, ieee);
	float mx = fmax_hw(fmax_hw(a, b, ieee), c, ieee);
	if (mx == a)
		return fmax_hw(b, c, ieee);
	if (mx == b)
		return fmax_hw(a, c, ieee);
	return fmax_hw(a, b, ieee);
}

/* ---- other scalar helpers --------------------------------------------------------- */
/* Legacy multiply: 0 * anything (inf, NaN included) is +0 (DX9 rules). */
static inline float mul_legacy(float a, float b)
{
	return (a == 0.0f || b == 0.0f) ? 0.0f : a * b;
}
/* V_FRACT: S0 + -floor(S0), clamped below 1 (0x3f7fffff; f64 0x3fefffffffffffff) */
static inline float fract_f(float a)
{
	float r = a + -floorf(a);
	return r < 0x1.fffffep-1f ? r : (isnan(r) ? r : 0x1.fffffep-1f);
}
static inline double fract_d(double a)
{
	double r = a + -floor(a);
	return r < 0x1.fffffffffffffp-1 ? r : (isnan(r) ? r : 0x1.fffffffffffffp-1);
}
static inline float frexp_mant_f(float a)
{
	if (isinf(a) || isnan(a))
		return a;
	int e;
	return frexpf(a, &e);
}
static inline uint32_t frexp_exp_f(float a)
{
	if (isinf(a) || isnan(a))
		return 0;
	int e;
	frexpf(a, &e);
	return (uint32_t)e;
}
static inline double frexp_mant_d(double a)
{
	if (isinf(a) || isnan(a))
		return a;
	int e;
	return frexp(a, &e);
}
static inline uint32_t frexp_exp_d(double a)
{
	if (isinf(a) || isnan(a))
		return 0;
	int e;
	frexp(a, &e);
	return (uint32_t)e;
}
/* float -> int conversions (truncating, whatever MODE.FP_ROUND): NaN -> 0,
 * out of range saturates (ISA V_CVT_I32_F32 notes). */
static inline uint32_t cvt_i32(double v)
{
	if (isnan(v)) return 0;
	if (v <= -2147483648.0) return 0x80000000u;
	if (v >= 2147483647.0) return 0x7fffffffu;
	return (uint32_t)(int32_t)v;
}
static inline uint32_t cvt_u32(double v)
{
	if (isnan(v) || v <= 0.0) return 0;
	if (v >= 4294967295.0) return 0xffffffffu;
	return (uint32_t)v;
}
static inline uint32_t cvt_i16(float v)
{
	if (isnan(v)) return 0;
	if (v <= -32768.0f) return 0x8000u;
	if (v >= 32767.0f) return 0x7fffu;
	return (uint32_t)(int32_t)v & 0xffff;
}
static inline uint32_t cvt_u16(float v)
{
	if (isnan(v) || v <= 0.0f) return 0;
	if (v >= 65535.0f) return 0xffffu;
	return (uint32_t)v;
}
/* ldexp with one rounding (denormal results) in mode rm; the exponent
 * operand is a signed 32-bit integer. */
static inline float ldexp_f(float a, uint32_t e, unsigned rm)
{
	int k = (int32_t)e;
	k = k < -400 ? -400 : k > 400 ? 400 : k;
	if (rm == RM_NE)
		return ldexpf(a, k);           /* one rounding (scalbnf) */
	return (float)round_pair((dd){ ldexp((double)a, k), 0.0 }, &F32, rm);
}
static inline double ldexp_d(double a, uint32_t e)
{
	return ldexp(a, (int32_t)e);
}

/* Transcendentals f32: denormal inputs and outputs flushed (see the header). */
static inline float t_exp(float a) { return ftz32((float)exp2((double)ftz32(a))); }
static inline float t_log(float a) { return (float)log2((double)ftz32(a)); }
static inline float t_rcp(float a) { return ftz32(1.0f / ftz32(a)); }
static inline float t_rsq(float a) { return ftz32((float)(1.0 / sqrt((double)ftz32(a)))); }
static inline float t_sqrt(float a) { return sqrtf(ftz32(a)); }
/* v_sin/v_cos: the input is in revolutions; r = a - nearest integer is exact
 * (a binary32 of magnitude >= 2^23 is an integer: sin +0, cos 1), then
 * folded into [-1/4, 1/4] (exact) so that the quarter points give exact
 * results (ISA examples: sin(0.25) = 1, cos(0.25) = +0). Invalid inputs give
 * 0xffc00000 (ISA functional examples). */
static inline double sin2pi(double r)
{
	if (r > 0.25)
		r = 0.5 - r;
	else if (r < -0.25)
		r = -0.5 - r;
	return sin(r * TWO_PI);
}
static inline float t_sin(float a)
{
	if (isnan(a) || isinf(a))
		return isnan(a) ? quiet32(a) : xs_u2f(0xffc00000u);
	if (a == 0.0f)
		return a;
	return (float)sin2pi((double)a - nearbyint((double)a));
}
static inline float t_cos(float a)
{
	if (isnan(a) || isinf(a))
		return isnan(a) ? quiet32(a) : xs_u2f(0xffc00000u);
	return (float)sin2pi(0.25 - fabs((double)a - nearbyint((double)a)));
}

/* ---- f32 ---------------------------------------------------------------------- */
/* How an op behaves when MODE is not the default (slow path): */
enum {
	K_EXACT,     /* result exact whatever the rounding mode: flush in/out only */
	K_ADD, K_SUB, K_SUBREV, K_MUL, K_MULLEG, K_FMA, K_FMALEG, K_FRACT,
	K_FIXED,     /* fixed hardware behaviour: MODE ignored (transcendentals, div fixup) */
	K_NORM,      /* round mode not modelled: fault unless round to nearest */
};

/* a op b (op c) for an f32 op of kind k, rounded in mode rm. */
static float f32_round_op(unsigned k, float a, float b, float c, unsigned rm)
{
	dd v;
	double x, y;
	switch (k) {
	case K_MULLEG:
		if (a == 0.0f || b == 0.0f)
			return 0.0f;
		/* fall through */
	case K_MUL:
		return (float)round_pair((dd){ (double)a * b, 0.0 }, &F32, rm);
	case K_SUB: x = a; y = -(double)b; break;
	case K_SUBREV: x = b; y = -(double)a; break;
	case K_FRACT: {
		float fl = floorf(a);
		x = a; y = -(double)fl;
		if (isinf(a) || isnan(a))
			return a - fl;
		v = two_sum(x, y);
		float r = v.hi == 0.0 && v.lo == 0.0 ? (float)zero_sum(x, y, rm) : (float)round_pair(v, &F32, rm);
		return r < 0x1.fffffep-1f ? r : 0x1.fffffep-1f;
	}
	case K_FMALEG:
		if (a == 0.0f || b == 0.0f)
			a = 0.0f, b = 0.0f;
		/* fall through */
	case K_FMA: x = (double)a * b; y = c; break;
	default: x = a; y = b; break;      /* K_ADD */
	}
	if (isnan(x) || isnan(y) || isinf(x) || isinf(y))
		return (float)(x + y);
	v = two_sum(x, y);
	if (v.hi == 0.0 && v.lo == 0.0)
		return (float)zero_sum(x, y, rm);
	return (float)round_pair(v, &F32, rm);
}

#define F_SLOW_PRELUDE(k)                                                       \
	unsigned rm_ = rm32(w), dn_ = dn32(w);                                  \
	if (rm_ != RM_NE && (k) == K_NORM)                                      \
		return mode_fault(x, w, in, rm_);

#define F1(name, expr, k)                                                       \
	XS_EXEC(name)                                                           \
	{                                                                       \
		XS_VFRAME1;                                                     \
		if (XS_LIKELY((k) == K_FIXED || !fp_slow(w))) {                 \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				float a = xs_u2f(A[l]);                         \
				r[l] = xs_f2u((float)(expr));                   \
			}                                                       \
		} else {                                                        \
			F_SLOW_PRELUDE(k)                                       \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				float a = fin32(xs_u2f(A[l]), dn_);             \
				float v_ = rm_ && (k) == K_FRACT ? f32_round_op(k, a, 0, 0, rm_) : (float)(expr); \
				r[l] = xs_f2u(fout32(v_, dn_));                 \
			}                                                       \
		}                                                               \
		(void)x;                                                        \
		XS_VFRAME_END;                                                  \
	}
#define F2(name, expr, k)                                                       \
	XS_EXEC(name)                                                           \
	{                                                                       \
		XS_VFRAME2;                                                     \
		const bool ieee = ieee_mode(w);                                 \
		(void)ieee;                                                     \
		if (XS_LIKELY(!fp_slow(w))) {                                   \
			const unsigned rm_ = RM_NE;                             \
			(void)rm_;                                              \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				float a = xs_u2f(A[l]), b = xs_u2f(B[l]);       \
				r[l] = xs_f2u((float)(expr));                   \
			}                                                       \
		} else {                                                        \
			F_SLOW_PRELUDE(k)                                       \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				float a = fin32(xs_u2f(A[l]), dn_), b = fin32(xs_u2f(B[l]), dn_); \
				float v_ = rm_ && (k) != K_EXACT && (k) != K_NORM ? \
					   f32_round_op(k, a, b, 0, rm_) : (float)(expr); \
				r[l] = xs_f2u(fout32(v_, dn_));                 \
			}                                                       \
		}                                                               \
		(void)x;                                                        \
		XS_VFRAME_END;                                                  \
	}
#define F3(name, expr, k)                                                       \
	XS_EXEC(name)                                                           \
	{                                                                       \
		XS_VFRAME3;                                                     \
		const bool ieee = ieee_mode(w);                                 \
		(void)ieee;                                                     \
		if (XS_LIKELY(!fp_slow(w))) {                                   \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				float a = xs_u2f(A[l]), b = xs_u2f(B[l]), c = xs_u2f(C[l]); \
				r[l] = xs_f2u((float)(expr));                   \
			}                                                       \
		} else {                                                        \
			F_SLOW_PRELUDE(k)                                       \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				float a = fin32(xs_u2f(A[l]), dn_), b = fin32(xs_u2f(B[l]), dn_), \
				      c = fin32(xs_u2f(C[l]), dn_);             \
				float v_ = rm_ && (k) != K_EXACT && (k) != K_NORM ? \
					   f32_round_op(k, a, b, c, rm_) : (float)(expr); \
				r[l] = xs_f2u(fout32(v_, dn_));                 \
			}                                                       \
		}                                                               \
		(void)x;                                                        \
		XS_VFRAME_END;                                                  \
	}
/* f32 source, integer result bits (conversions to int truncate: no rounding
 * mode; the f32 denormal input mode applies) */
#define FI1(name, expr)                                                         \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		XS_VFRAME1;                                                     \
		const unsigned dn_ = dn32(w);                                   \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                  \
			float a = fin32(xs_u2f(A[l]), dn_);                     \
			r[l] = (uint32_t)(expr);                                \
		}                                                               \
		XS_VFRAME_END;                                                  \
	}
/* integer source bits, f32 result: value (a double holding the exact
 * integer, or an exact float) rounded in the f32 mode */
#define IF1(name, expr)                                                         \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		XS_VFRAME1;                                                     \
		const unsigned rm_ = rm32(w), dn_ = dn32(w);                    \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                  \
			uint32_t a = A[l];                                      \
			double v_ = (double)(expr);                             \
			float f_ = rm_ ? (float)round_pair((dd){ v_, 0.0 }, &F32, rm_) : (float)v_; \
			r[l] = xs_f2u(fout32(f_, dn_));                         \
		}                                                               \
		XS_VFRAME_END;                                                  \
	}

F2(v_add_f32, a + b, K_ADD)
F2(v_sub_f32, a - b, K_SUB)
F2(v_subrev_f32, b - a, K_SUBREV)
F2(v_mul_f32, a * b, K_MUL)
F2(v_mul_legacy_f32, mul_legacy(a, b), K_MULLEG)
F2(v_min_f32, fmin_hw(a, b, ieee), K_EXACT)
F2(v_max_f32, fmax_hw(a, b, ieee), K_EXACT)
/* V_LDEXP_F32: D.f = S0.f * 2^S1.i (RDNA2 ISA). S1 is a signed integer:
 * only S0 and the result follow MODE's f32 denormal flushing (F2 would
 * flush S1 as a float, and small exponents like 5 are denormals' bits). */
XS_EXEC(v_ldexp_f32)
{
	XS_VFRAME2;
	if (XS_LIKELY(!fp_slow(w))) {
		for (unsigned l = 0, n_ = c_.n; l < n_; l++)
			r[l] = xs_f2u(ldexp_f(xs_u2f(A[l]), B[l], RM_NE));
	} else {
		const unsigned rm_ = rm32(w), dn_ = dn32(w);
		for (unsigned l = 0, n_ = c_.n; l < n_; l++)
			r[l] = xs_f2u(fout32(ldexp_f(fin32(xs_u2f(A[l]), dn_), B[l], rm_), dn_));
	}
	(void)x;
	XS_VFRAME_END;
}
/* Fused multiply-add lanes: hardware fma when the host has it (ifunc picks
 * the clone once), else libm's exact software fmaf. Not under
 * ThreadSanitizer: it instruments the ifunc resolver target_clones makes,
 * and the dynamic linker runs resolvers while relocating, before TSan's
 * runtime is set up (a crash before main). libm's fma gives the same bits. */
#if defined(__SANITIZE_THREAD__)
#define XS_NO_IFUNC 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define XS_NO_IFUNC 1
#endif
#endif
#ifdef XS_NO_IFUNC
#define XS_FMA_CLONES
#else
#define XS_FMA_CLONES __attribute__((target_clones("fma", "default")))
#endif
#ifdef __FMA__
/* The build targets a host with FMA: fmaf is one instruction, inline it and
 * let the fixed lane counts vectorize. */
static inline void fma32_lanes(uint32_t *r, const uint32_t *A, const uint32_t *B, const uint32_t *C, unsigned n)
{
	if (n == 32) {
		for (unsigned l = 0; l < 32; l++)
			r[l] = xs_f2u(fmaf(xs_u2f(A[l]), xs_u2f(B[l]), xs_u2f(C[l])));
	} else {
		for (unsigned l = 0; l < XS_MAX_LANES; l++)
			r[l] = xs_f2u(fmaf(xs_u2f(A[l]), xs_u2f(B[l]), xs_u2f(C[l])));
	}
}

/* fma32_lanes with B and C one value for every lane (two SGPR sources). */
static inline void fma32_lanes_ss(uint32_t *r, const uint32_t *A, float b, float c, unsigned n)
{
	if (n == 32) {
		for (unsigned l = 0; l < 32; l++)
			r[l] = xs_f2u(fmaf(xs_u2f(A[l]), b, c));
	} else {
		for (unsigned l = 0; l < XS_MAX_LANES; l++)
			r[l] = xs_f2u(fmaf(xs_u2f(A[l]), b, c));
	}
}
#else
XS_FMA_CLONES
static void fma32_lanes(uint32_t *r, const uint32_t *A, const uint32_t *B, const uint32_t *C, unsigned n)
{
	for (unsigned l = 0; l < n; l++)
		r[l] = xs_f2u(fmaf(xs_u2f(A[l]), xs_u2f(B[l]), xs_u2f(C[l])));
}
#endif

XS_FMA_CLONES
static void fma64_lanes(uint64_t *r, const uint64_t *A, const uint64_t *B, const uint64_t *C, unsigned n)
{
	for (unsigned l = 0; l < n; l++)
		r[l] = xs_d2u(fma(xs_u2d(A[l]), xs_u2d(B[l]), xs_u2d(C[l])));
}

F3(v_fma_slow_f32, fmaf(a, b, c), K_FMA)
XS_EXEC(v_fma_f32)
{
	if (XS_UNLIKELY(fp_slow(w)))
		return x_v_fma_slow_f32(x, w, in);
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint32_t t0[LANES], t1[LANES], t2[LANES], rt[LANES];
#ifdef __FMA__
	/* common form v_fma_f32 vD, vA, sB, sC: no modifiers, two SGPR sources
	 * used as scalars (the same values xs_vsrc32 would broadcast) */
	if (in->mods == 0 && in->src[0] >= XS_SRC_VGPR && in->src[1] < XS_SRC_INT0 && in->src[2] < XS_SRC_INT0) {
		uint32_t *r = xs_vdst_row(&c_, w, in, rt);
		fma32_lanes_ss(r, w->v[in->src[0] - XS_SRC_VGPR], xs_u2f(w->s[in->src[1]]), xs_u2f(w->s[in->src[2]]),
			       c_.n);
		XS_VFRAME_END;
	}
#endif
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	const uint32_t *C = xs_vsrc32(&c_, w, in, 2, t2);
	uint32_t *r = xs_vdst_row(&c_, w, in, rt);
	fma32_lanes(r, A, B, C, c_.n);
	XS_VFRAME_END;
}
#ifdef __FMA__
/* Whether the f32 bits u are a NaN (exponent all ones, mantissa not 0). */
static inline bool nan32_bits(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }

/* Whether lane 0 .. n - 1 of A, B or C holds a NaN (n a constant: whole vectors). */
static inline __attribute__((always_inline)) bool nan3_any(const uint32_t *A, const uint32_t *B, const uint32_t *C,
							    unsigned n)
{
	uint32_t nan = 0;
	for (unsigned l = 0; l < n; l++)
		nan |= (uint32_t)nan32_bits(A[l]) | (uint32_t)nan32_bits(B[l]) | (uint32_t)nan32_bits(C[l]);
	return nan != 0;
}

/* The same for one row. */
static inline __attribute__((always_inline)) bool nan_any(const uint32_t *A, unsigned n)
{
	uint32_t nan = 0;
	for (unsigned l = 0; l < n; l++)
		nan |= (uint32_t)nan32_bits(A[l]);
	return nan != 0;
}

/* fma32_lanes into r (n a constant), and whether a lane's result is a NaN:
 * an operand's NaN always makes one, so none means no operand had one. */
static inline __attribute__((always_inline)) bool fma32_lanes_nan(uint32_t *restrict r, const uint32_t *A,
								   const uint32_t *B, const uint32_t *C, unsigned n)
{
	uint32_t nan = 0;
	for (unsigned l = 0; l < n; l++) {
		const uint32_t v = xs_f2u(fmaf(xs_u2f(A[l]), xs_u2f(B[l]), xs_u2f(C[l])));
		r[l] = v;
		nan |= (uint32_t)nan32_bits(v);
	}
	return nan != 0;
}

/* Waves of a lockstep step whose results g_v_fma_f32 holds before writing
 * any (a group's, at most 32 wave32s; a larger step checks its operands
 * first instead). */
#define FMA_HELD 32

/* v_fmac_f32 / v_fma_f32 with no modifiers, default MODE, full EXEC:
 * x_v_fma_f32's loops, for every wave of a lockstep step (a tiled sgemm's
 * inner loop is half of them). fma_peak's v_fma_f32 v, v, s, s takes its
 * SGPRs as scalars; any other source that is not a VGPR (an SGPR, a
 * literal, an inline constant) comes broadcast from xs_vsrc32. (Such forms
 * went wave by wave through x_v_fma_f32: two thirds of fma_peak's
 * functional time.) A NaN operand: the host's fma returns the first NaN of
 * its own operand order, which the compiler picks per call site, so such a
 * step goes wave by wave through the code the handler has. */
static int g_v_fma_f32(xs_exec *x, xs_wave *const *ws, unsigned n, const xs_inst *in)
{
	(void)x;
	xs_vctx c_;
	if (!xs_group_plain(ws, n, in, &c_))
		return -1;
	const unsigned lanes = c_.n, d = in->dst - XS_SRC_VGPR;
	for (unsigned j = 0; j < n; j++)
		if (fp_slow(ws[j]))
			return -1;
	if (in->src[0] >= XS_SRC_VGPR && in->src[1] < XS_SRC_INT0 && in->src[2] < XS_SRC_INT0) {
		/* vD = fma(vA, sB, sC): x_v_fma_f32's common form */
		const unsigned a = in->src[0] - XS_SRC_VGPR, b = in->src[1], c = in->src[2];
		for (unsigned j = 0; j < n; j++) {
			const uint32_t *A = ws[j]->v[a];
			if (nan32_bits(ws[j]->s[b]) || nan32_bits(ws[j]->s[c]) ||
			    (lanes == 32 ? nan_any(A, 32) : nan_any(A, XS_MAX_LANES)))
				return -1;
		}
		for (unsigned j = 0; j < n; j++) {
			xs_wave *w = ws[j];
			fma32_lanes_ss(w->v[d], w->v[a], xs_u2f(w->s[b]), xs_u2f(w->s[c]), lanes);
		}
		return (int)n;
	}
	if (in->src[0] >= XS_SRC_VGPR && in->src[1] >= XS_SRC_VGPR && in->src[2] >= XS_SRC_VGPR) {
		/* VGPRs (sgemm's v_fmac): the rows, with no look at each source
		 * per wave (through xs_vsrc32 below, sgemm_tiled 0.96x) */
		const unsigned a = in->src[0] - XS_SRC_VGPR, b = in->src[1] - XS_SRC_VGPR, c = in->src[2] - XS_SRC_VGPR;
		if (n <= FMA_HELD && lanes == 32) {
			/* every wave's results held, then written when none is a
			 * NaN: one pass over the sources instead of a NaN scan of
			 * them and the fma's (v_fmac's destination is a source) */
			_Alignas(64) uint32_t held[FMA_HELD][32];
			bool nan = false;
			for (unsigned j = 0; j < n; j++)
				nan |= fma32_lanes_nan(held[j], ws[j]->v[a], ws[j]->v[b], ws[j]->v[c], 32);
			if (nan)
				return -1;
			for (unsigned j = 0; j < n; j++)
				memcpy(ws[j]->v[d], held[j], sizeof(held[j]));
			return (int)n;
		}
		for (unsigned j = 0; j < n; j++) {
			const uint32_t *A = ws[j]->v[a], *B = ws[j]->v[b], *C = ws[j]->v[c];
			if (lanes == 32 ? nan3_any(A, B, C, 32) : nan3_any(A, B, C, XS_MAX_LANES))
				return -1;
		}
		for (unsigned j = 0; j < n; j++) {
			xs_wave *w = ws[j];
			const uint32_t *A = w->v[a], *B = w->v[b], *C = w->v[c];
			fma32_lanes(w->v[d], A, B, C, lanes);
		}
		return (int)n;
	}
	uint32_t t0[XS_MAX_LANES], t1[XS_MAX_LANES], t2[XS_MAX_LANES];
	for (unsigned j = 0; j < n; j++) {
		const uint32_t *A = xs_vsrc32(&c_, ws[j], in, 0, t0), *B = xs_vsrc32(&c_, ws[j], in, 1, t1),
			       *C = xs_vsrc32(&c_, ws[j], in, 2, t2);
		if (lanes == 32 ? nan3_any(A, B, C, 32) : nan3_any(A, B, C, XS_MAX_LANES))
			return -1;
	}
	for (unsigned j = 0; j < n; j++) {
		xs_wave *w = ws[j];
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0), *B = xs_vsrc32(&c_, w, in, 1, t1),
			       *C = xs_vsrc32(&c_, w, in, 2, t2);
		fma32_lanes(w->v[d], A, B, C, lanes);
	}
	return (int)n;
}
#endif
/* legacy fma: 0 * anything is +0, then + c (so -0 + +0 gives +0) */
F3(v_fmac_legacy_f32, (a == 0.0f || b == 0.0f) ? 0.0f + c : fmaf(a, b, c), K_FMALEG)
F3(v_fma_legacy_f32, (a == 0.0f || b == 0.0f) ? 0.0f + c : fmaf(a, b, c), K_FMALEG)
F3(v_min3_f32, fmin_hw(fmin_hw(a, b, ieee), c, ieee), K_EXACT)
F3(v_max3_f32, fmax_hw(fmax_hw(a, b, ieee), c, ieee), K_EXACT)
F3(v_med3_f32, fmed3_hw(a, b, c, ieee), K_EXACT)

/* Cube map coordinates of the direction (a, b, c) = (x, y, z): the major
 * axis is z when |z| >= |y| and |z| >= |x|, else y when |y| >= |x|, else x
 * (a NaN compares false). The face id is 2 x axis, + 1 when the axis
 * component is negative (a -0 or NaN is not); sc and tc are the other two
 * components, negated by face as the table below; ma is twice the axis
 * component. The definitions in CLRX's GCN documentation; ties, zeros and
 * NaNs as LLVM's constant folder of llvm.amdgcn.cube* (the test's oracle:
 * tests/isa/test_fold_oracle.py). */
enum { CUBE_ID, CUBE_SC, CUBE_TC, CUBE_MA };
static inline float cube_f(float x, float y, float z, unsigned what)
{
	float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), ma, sc, tc;
	unsigned id;
	if (az >= ax && az >= ay) {
		bool neg = z < 0.0f;
		id = neg ? 5 : 4;
		sc = neg ? -x : x;
		tc = -y;
		ma = z;
	} else if (ay >= ax) {
		bool neg = y < 0.0f;
		id = neg ? 3 : 2;
		sc = x;
		tc = neg ? -z : z;
		ma = y;
	} else {
		bool neg = x < 0.0f;
		id = neg ? 1 : 0;
		sc = neg ? z : -z;
		tc = -y;
		ma = x;
	}
	switch (what) {
	case CUBE_ID: return (float)id;
	case CUBE_SC: return sc;
	case CUBE_TC: return tc;
	default: return ma + ma;
	}
}
F3(v_cubeid_f32, cube_f(a, b, c, CUBE_ID), K_EXACT)
F3(v_cubesc_f32, cube_f(a, b, c, CUBE_SC), K_EXACT)
F3(v_cubetc_f32, cube_f(a, b, c, CUBE_TC), K_EXACT)
F3(v_cubema_f32, cube_f(a, b, c, CUBE_MA), K_EXACT)
F1(v_fract_f32, fract_f(a), K_FRACT)
F1(v_trunc_f32, truncf(a), K_EXACT)
F1(v_ceil_f32, ceilf(a), K_EXACT)
F1(v_rndne_f32, rintf(a), K_EXACT)
F1(v_floor_f32, floorf(a), K_EXACT)
F1(v_exp_f32, t_exp(a), K_FIXED)
F1(v_log_f32, t_log(a), K_FIXED)
F1(v_rcp_f32, t_rcp(a), K_FIXED)
F1(v_rcp_iflag_f32, t_rcp(a), K_FIXED)
F1(v_rsq_f32, t_rsq(a), K_FIXED)
F1(v_sqrt_f32, t_sqrt(a), K_FIXED)
F1(v_sin_f32, t_sin(a), K_FIXED)
F1(v_cos_f32, t_cos(a), K_FIXED)
F1(v_frexp_mant_f32, frexp_mant_f(a), K_EXACT)
FI1(v_frexp_exp_i32_f32, frexp_exp_f(a))
FI1(v_cvt_i32_f32, cvt_i32(a))
FI1(v_cvt_u32_f32, cvt_u32(a))
FI1(v_cvt_rpi_i32_f32, cvt_i32(floor((double)a + 0.5)))
FI1(v_cvt_flr_i32_f32, cvt_i32(floor((double)a)))
IF1(v_cvt_f32_i32, (int32_t)a)
IF1(v_cvt_f32_u32, a)
IF1(v_cvt_f32_ubyte0, a & 0xff)
IF1(v_cvt_f32_ubyte1, (a >> 8) & 0xff)
IF1(v_cvt_f32_ubyte2, (a >> 16) & 0xff)
IF1(v_cvt_f32_ubyte3, a >> 24)
IF1(v_cvt_off_f32_i4, (double)((int32_t)(a << 28) >> 28) / 16.0)

/* f16 -> f32: exact; f16 denormal inputs flushed by the f64/f16 mode */
XS_EXEC(v_cvt_f32_f16)
{
	(void)x;
	XS_VFRAME1;
	const unsigned dn_ = dn64(w), do_ = dn32(w);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++)
		r[l] = xs_f2u(fout32(fin16(h2f(A[l]), dn_), do_));
	XS_VFRAME_END;
}

/* f32 -> f16: rounded in the f64/f16 mode ("output rounding based on DP
 * rounding mode"), output denormals by the f64/f16 mode */
XS_EXEC(v_cvt_f16_f32)
{
	(void)x;
	XS_VFRAME1;
	const unsigned rm_ = rm64(w), dn_ = dn64(w), di_ = dn32(w);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		float a = fin32(xs_u2f(A[l]), di_);
		uint32_t h = rm_ ? f2h_rm((dd){ a, 0.0 }, rm_) : f2h(a);
		if (!(dn_ & 2) && (h & 0x7c00) == 0)
			h &= 0x8000;
		r[l] = h;
	}
	XS_VFRAME_END;
}

XS_EXEC(v_cvt_pkrtz_f16_f32)
{
	(void)x;
	XS_VFRAME2;
	for (unsigned l = 0, n_ = c_.n; l < n_; l++)
		r[l] = xs_f32_to_f16_rtz(xs_u2f(A[l])) | (uint32_t)xs_f32_to_f16_rtz(xs_u2f(B[l])) << 16;
	XS_VFRAME_END;
}

XS_EXEC(v_cvt_pk_u8_f32)
{
	(void)x;
	XS_VFRAME3;
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		float v = rintf(xs_u2f(A[l]));
		uint32_t u = isnan(v) || v <= 0.0f ? 0 : v >= 255.0f ? 255 : (uint32_t)v;
		unsigned sh = 8 * (B[l] & 3);
		r[l] = (C[l] & ~(0xffu << sh)) | u << sh;
	}
	XS_VFRAME_END;
}

/* ---- division macro ops (ISA V_DIV_SCALE / V_DIV_FMAS / V_DIV_FIXUP) --------------- */
/* exponent(): the biased exponent field */
static inline int bexp32(float v) { return (int)((xs_f2u(v) >> 23) & 0xff); }
static inline int bexp64(double v) { return (int)((xs_d2u(v) >> 52) & 0x7ff); }

/* V_DIV_SCALE_F32 (S0 = value to scale, S1 = denominator, S2 = numerator).
 * The pseudocode's "1.0 / S1 == DENORM" and "S2 / S1 == DENORM" are tested
 * in binary32: a reciprocal or quotient below 2^-126 (v_rcp_f32 cannot
 * produce it). Where both are denormal, the denominator is scaled by 2^-64:
 * the ISA text's 2^+64 there would overflow the denominator (|S1| >= 2^126)
 * and leave LLVM's sequence wrong; with 2^-64 every quotient comes out
 * correctly rounded (e2e corpus/f32_div against PoCL). */
static float div_scale32(float s0, float s1, float s2, bool *vcc)
{
	*vcc = false;
	if (s2 == 0.0f || s1 == 0.0f)
		return xs_u2f(0x7fc00000u);
	double rcp = 1.0 / (double)s1, quo = (double)s2 / (double)s1;
	bool rcp_den = rcp != 0.0 && fabs(rcp) < 0x1p-126, quo_den = quo != 0.0 && fabs(quo) < 0x1p-126;
	if (bexp32(s2) - bexp32(s1) >= 96) {
		*vcc = true;                           /* N/D near FLT_MAX */
		return s0 == s1 ? ldexpf(s0, 64) : s0;
	}
	if (den32(s1))
		return ldexpf(s0, 64);
	if (rcp_den && quo_den) {
		*vcc = true;
		return s0 == s1 ? ldexpf(s0, -64) : s0;
	}
	if (rcp_den)
		return ldexpf(s0, -64);
	if (quo_den) {
		*vcc = true;
		return s0 == s2 ? ldexpf(s0, 64) : s0;
	}
	if (bexp32(s2) <= 23)
		return ldexpf(s0, 64);                 /* numerator is tiny */
	return s0;
}

static double div_scale64(double s0, double s1, double s2, bool *vcc)
{
	*vcc = false;
	if (s2 == 0.0 || s1 == 0.0)
		return xs_u2d(0x7ff8000000000000ull);
	long double rcp = 1.0L / s1, quo = (long double)s2 / s1;
	bool rcp_den = rcp != 0 && fabsl(rcp) < 0x1p-1022L, quo_den = quo != 0 && fabsl(quo) < 0x1p-1022L;
	if (bexp64(s2) - bexp64(s1) >= 768) {
		*vcc = true;
		return s0 == s1 ? ldexp(s0, 128) : s0;
	}
	if (den64(s1))
		return ldexp(s0, 128);
	if (rcp_den && quo_den) {
		*vcc = true;
		return s0 == s1 ? ldexp(s0, -128) : s0;
	}
	if (rcp_den)
		return ldexp(s0, -128);
	if (quo_den) {
		*vcc = true;
		return s0 == s2 ? ldexp(s0, 128) : s0;
	}
	if (bexp64(s2) <= 53)
		return ldexp(s0, 128);
	return s0;
}

XS_EXEC(v_div_scale_f32)
{
	(void)x;
	XS_VFRAME3;
	uint64_t vcc = 0;
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		bool v;
		r[l] = xs_f2u(div_scale32(xs_u2f(A[l]), xs_u2f(B[l]), xs_u2f(C[l]), &v));
		vcc |= (uint64_t)v << l;
	}
	xs_vdst_done(&c_, w, in, r);
	xs_wr_mask(w, in->sdst, vcc & c_.mask);
	return 0;
}

XS_EXEC(v_div_scale_f64)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint64_t t0[LANES], t1[LANES], t2[LANES], r[LANES], vcc = 0;
	xs_vsrc64(w, in, 0, t0);
	xs_vsrc64(w, in, 1, t1);
	xs_vsrc64(w, in, 2, t2);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		bool v;
		r[l] = xs_d2u(div_scale64(xs_u2d(t0[l]), xs_u2d(t1[l]), xs_u2d(t2[l]), &v));
		vcc |= (uint64_t)v << l;
	}
	xs_vdst64(&c_, w, in, r);
	xs_wr_mask(w, in->sdst, vcc & c_.mask);
	return 0;
}

/* V_DIV_FMAS: fma(S0, S1, S2), times 2^+-64 (f64 2^+-128) when VCC is set:
 * up when exponent(S2) > 127 (1023), down otherwise (RDNA3 ISA pseudocode;
 * undoes the V_DIV_SCALE scaling). The scaled value is rounded once. Input
 * denormals are not flushed, output flushing follows MODE. */
static float div_fmas32(float a, float b, float c, bool scale, unsigned rm)
{
	if (!scale && rm == RM_NE)
		return fmaf(a, b, c);
	double p = (double)a * b;                    /* exact */
	if (isnan(p) || isinf(p) || isnan(c) || isinf(c))
		return fmaf(a, b, c);
	dd v = two_sum(p, c);
	if (v.hi == 0.0 && v.lo == 0.0)
		return (float)zero_sum(p, c, rm);
	return (float)round_pair_k(v, scale ? (bexp32(c) > 127 ? 64 : -64) : 0, &F32, rm);
}

static double div_fmas64(double a, double b, double c, bool scale, unsigned rm)
{
	if (!scale || isnan(a) || isnan(b) || isnan(c) || isinf(a) || isinf(b) || isinf(c))
		return fma(a, b, c);
	dd p = two_prod(a, b), s = two_sum(p.hi, c);
	double lo = s.lo + p.lo;                     /* the exact value is s.hi + lo (to ~2^-106) */
	if (s.hi == 0.0 && lo == 0.0)
		return fma(a, b, c);
	dd v = two_sum(s.hi, lo);
	return round_pair_k(v, bexp64(c) > 1023 ? 128 : -128, &F64, rm);
}

XS_EXEC(v_div_fmas_f32)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint32_t t0[LANES], t1[LANES], t2[LANES], rt[LANES];
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	const uint32_t *C = xs_vsrc32(&c_, w, in, 2, t2);
	uint64_t vcc = xs_rd_mask(w, in, XS_SREG_VCC_LO);
	uint32_t *r = xs_vdst_row(&c_, w, in, rt);
	const unsigned rm_ = rm32(w), dn_ = dn32(w);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		float v = div_fmas32(xs_u2f(A[l]), xs_u2f(B[l]), xs_u2f(C[l]), (vcc >> l) & 1, rm_);
		r[l] = xs_f2u(fout32(v, dn_));
	}
	XS_VFRAME_END;
}

XS_EXEC(v_div_fmas_f64)
{
	XS_VFRAME64_3;
	uint64_t vcc = xs_rd_mask(w, in, XS_SREG_VCC_LO);
	const unsigned rm_ = rm64(w), dn_ = dn64(w);
	if (rm_ != RM_NE)
		return mode_fault(x, w, in, rm_);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		double v = div_fmas64(xs_u2d(t0[l]), xs_u2d(t1[l]), xs_u2d(t2[l]), (vcc >> l) & 1, rm_);
		r[l] = xs_d2u(fout64(v, dn_));
	}
	XS_VFRAME64_END;
}

/* V_DIV_FIXUP (S0 = quotient, S1 = denominator, S2 = numerator), ISA
 * pseudocode: NaN operands (numerator first) quieted, 0/0 and inf/inf give
 * the negative quiet NaN, x/0 and inf/y infinity, x/inf and 0/y zero, a
 * quotient far below the smallest denormal zero, a NaN quotient (overflow
 * in the macro) infinity; else |S0| with the sign of S1 ^ S2. The format is
 * given by the exponent bias limits: f32 (255, 150), f64 (2047, 1075),
 * f16 (31, 25), and the values are passed as doubles. */
static double div_fixup(double q, double den, double num, int eden, int enum_, int underflow,
			double qnan_neg, double qden, double qnum)
{
	bool sgn = (signbit(den) != 0) != (signbit(num) != 0);
	if (isnan(num))
		return qnum;
	if (isnan(den))
		return qden;
	if ((den == 0.0 && num == 0.0) || (isinf(den) && isinf(num)))
		return qnan_neg;
	if (den == 0.0 || isinf(num))
		return sgn ? -INFINITY : INFINITY;
	if (isinf(den) || num == 0.0)
		return sgn ? -0.0 : 0.0;
	if (enum_ - eden < -underflow)
		return sgn ? -0.0 : 0.0;
	if (isnan(q))
		return sgn ? -INFINITY : INFINITY;
	return sgn ? -fabs(q) : fabs(q);
}

XS_EXEC(v_div_fixup_f32)
{
	(void)x;
	XS_VFRAME3;
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		float q = xs_u2f(A[l]), d = xs_u2f(B[l]), n = xs_u2f(C[l]);
		if (isnan(n) || isnan(d)) {          /* keep the payload: quiet in binary32 */
			r[l] = xs_f2u(quiet32(isnan(n) ? n : d));
			continue;
		}
		r[l] = xs_f2u((float)div_fixup(q, d, n, bexp32(d), bexp32(n), 150,
					     (double)xs_u2f(0xffc00000u), 0, 0));
	}
	XS_VFRAME_END;
}

XS_EXEC(v_div_fixup_f64)
{
	(void)x;
	XS_VFRAME64_3;
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		double q = xs_u2d(t0[l]), d = xs_u2d(t1[l]), n = xs_u2d(t2[l]);
		r[l] = xs_d2u(div_fixup(q, d, n, bexp64(d), bexp64(n), 1075,
					xs_u2d(0xfff8000000000000ull), quiet64(d), quiet64(n)));
	}
	XS_VFRAME64_END;
}

/* ---- f64 ---------------------------------------------------------------------- */
/* a op b for an f64 op of kind k (K_ADD, K_MUL), rounded in mode rm */
static double f64_round_op(unsigned k, double a, double b, unsigned rm)
{
	if (isnan(a) || isnan(b) || isinf(a) || isinf(b))
		return k == K_MUL ? a * b : a + b;
	dd v = k == K_MUL ? two_prod(a, b) : two_sum(a, b);
	if (v.hi == 0.0 && v.lo == 0.0)
		return k == K_MUL ? a * b : zero_sum(a, b, rm);
	return round_pair(v, &F64, rm);
}

#define D_SLOW_PRELUDE(k)                                                       \
	unsigned rm_ = rm64(w), dn_ = dn64(w);                                  \
	if (rm_ != RM_NE && ((k) == K_NORM || (k) == K_FMA || (k) == K_FRACT))  \
		return mode_fault(x, w, in, rm_);

#define D1(name, expr, k)                                                       \
	XS_EXEC(name)                                                           \
	{                                                                       \
		XS_VFRAME64_1;                                                  \
		if (XS_LIKELY((k) == K_FIXED || !fp_slow(w))) {                 \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				double a = xs_u2d(t0[l]);                       \
				r[l] = xs_d2u((double)(expr));                  \
			}                                                       \
		} else {                                                        \
			D_SLOW_PRELUDE(k)                                       \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				double a = fin64(xs_u2d(t0[l]), dn_);           \
				r[l] = xs_d2u(fout64((double)(expr), dn_));     \
			}                                                       \
		}                                                               \
		xs_vdst64(&c_, w, in, r);                                       \
		(void)x;                                                        \
		return 0;                                                       \
	}
#define D2(name, expr, k)                                                       \
	XS_EXEC(name)                                                           \
	{                                                                       \
		XS_VFRAME64_2;                                                  \
		const bool ieee = ieee_mode(w);                                 \
		(void)ieee;                                                     \
		if (XS_LIKELY(!fp_slow(w))) {                                   \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				double a = xs_u2d(t0[l]), b = xs_u2d(t1[l]);    \
				r[l] = xs_d2u((double)(expr));                  \
			}                                                       \
		} else {                                                        \
			D_SLOW_PRELUDE(k)                                       \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				double a = fin64(xs_u2d(t0[l]), dn_), b = fin64(xs_u2d(t1[l]), dn_); \
				double v_ = rm_ && (k) != K_EXACT ? f64_round_op(k, a, b, rm_) : (double)(expr); \
				r[l] = xs_d2u(fout64(v_, dn_));                 \
			}                                                       \
		}                                                               \
		xs_vdst64(&c_, w, in, r);                                       \
		(void)x;                                                        \
		return 0;                                                       \
	}

D2(v_add_f64, a + b, K_ADD)
D2(v_mul_f64, a * b, K_MUL)
D2(v_min_f64, dmin_hw(a, b, ieee), K_EXACT)
D2(v_max_f64, dmax_hw(a, b, ieee), K_EXACT)
XS_EXEC(v_fma_f64)
{
	XS_VFRAME64_3;
	if (XS_UNLIKELY(fp_slow(w))) {
		unsigned rm_ = rm64(w), dn_ = dn64(w);
		if (rm_ != RM_NE)
			return mode_fault(x, w, in, rm_);
		for (unsigned l = 0, n_ = c_.n; l < n_; l++)
			r[l] = xs_d2u(fout64(fma(fin64(xs_u2d(t0[l]), dn_), fin64(xs_u2d(t1[l]), dn_),
						 fin64(xs_u2d(t2[l]), dn_)), dn_));
	} else {
		fma64_lanes(r, t0, t1, t2, c_.n);
	}
	XS_VFRAME64_END;
}
D1(v_trunc_f64, trunc(a), K_EXACT)
D1(v_ceil_f64, ceil(a), K_EXACT)
D1(v_rndne_f64, rint(a), K_EXACT)
D1(v_floor_f64, floor(a), K_EXACT)
D1(v_fract_f64, fract_d(a), K_FRACT)
/* v_rcp/rsq/sqrt_f64: documented to ~2^29 ulp (about binary32 accuracy);
 * xs12 rounds the exact value, which is inside that bound (LLVM refines
 * them with Newton-Raphson either way). Denormals supported. */
D1(v_rcp_f64, 1.0 / a, K_FIXED)
D1(v_rsq_f64, 1.0 / sqrt(a), K_FIXED)
D1(v_sqrt_f64, sqrt(a), K_FIXED)
D1(v_frexp_mant_f64, frexp_mant_d(a), K_EXACT)

/* v_ldexp_f64: src1 is a 32-bit integer */
XS_EXEC(v_ldexp_f64)
{
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint64_t t0[LANES], r[LANES];
	uint32_t t1[LANES];
	xs_vsrc64(w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	unsigned rm_ = rm64(w), dn_ = dn64(w);
	if (rm_ != RM_NE)
		return mode_fault(x, w, in, rm_);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++)
		r[l] = xs_d2u(fout64(ldexp_d(fin64(xs_u2d(t0[l]), dn_), B[l]), dn_));
	XS_VFRAME64_END;
}

/* V_TRIG_PREOP_F64: 53 bits of 2/pi starting at bit shift = S1[4:0] * 53
 * (+ exponent(S0) - 1077 when that is positive), as a double scaled by
 * 2^(-53 - shift) (+128 when exponent(S0) >= 1968): the pieces of the
 * Payne-Hanek reduction the device library multiplies by. The bits are
 * 2/pi = 0.a2f9836e 4e441529 ... (1201 bits, then zeros), computed with
 * Machin's formula in integer arithmetic. */
static const uint32_t two_over_pi[40] = {
	0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041,
	0xfe5163ab, 0xdebbc561, 0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c,
	0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484, 0xe99c7026, 0xb45f7e41,
	0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
	0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d,
	0x7527bac7, 0xebe5f17b, 0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08,
	0x56033046, 0xfc7b0000, 0x00000000, 0x00000000,
};

static double trig_preop(double s0, uint32_t seg)
{
	int e = bexp64(s0);
	int shift = (int)(seg & 31) * 53 + (e > 1077 ? e - 1077 : 0);
	uint64_t bits = 0;                        /* fraction bits shift+1 .. shift+53 */
	for (int i = 0; i < 53; i++) {
		int b = shift + i;                    /* 0-based bit index after the point */
		unsigned v = b < 40 * 32 ? (two_over_pi[b >> 5] >> (31 - (b & 31))) & 1 : 0;
		bits = bits << 1 | v;
	}
	int scale = -53 - shift + (e >= 1968 ? 128 : 0);
	return ldexp((double)bits, scale);
}

XS_EXEC(v_trig_preop_f64)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint64_t t0[LANES], r[LANES];
	uint32_t t1[LANES];
	xs_vsrc64(w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++)
		r[l] = xs_d2u(trig_preop(xs_u2d(t0[l]), B[l]));
	XS_VFRAME64_END;
}

/* f64 -> 32-bit results */
#define DI1(name, expr)                                                         \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint64_t t0[LANES];                                             \
		uint32_t rt[LANES];                                             \
		xs_vsrc64(w, in, 0, t0);                                        \
		uint32_t *r = xs_vdst_row(&c_, w, in, rt);                      \
		const unsigned dn_ = dn64(w), rm_ = rm32(w), do_ = dn32(w);     \
		(void)rm_;                                                      \
		(void)do_;                                                      \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                  \
			double a = fin64(xs_u2d(t0[l]), dn_);                   \
			r[l] = (uint32_t)(expr);                                \
		}                                                               \
		XS_VFRAME_END;                                                  \
	}
DI1(v_cvt_i32_f64, cvt_i32(a))
DI1(v_cvt_u32_f64, cvt_u32(a))
DI1(v_cvt_f32_f64, xs_f2u(fout32(rm_ ? (float)round_pair((dd){ a, 0.0 }, &F32, rm_) : (float)a, do_)))
DI1(v_frexp_exp_i32_f64, frexp_exp_d(a))

/* 32-bit sources -> f64 (all exact) */
#define ID1(name, expr)                                                         \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES];                                             \
		uint64_t r[LANES];                                              \
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);               \
		const unsigned dn_ = dn64(w), di_ = dn32(w);                    \
		(void)di_;                                                      \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                  \
			uint32_t a = A[l];                                      \
			r[l] = xs_d2u(fout64((double)(expr), dn_));             \
		}                                                               \
		XS_VFRAME64_END;                                                \
	}
ID1(v_cvt_f64_i32, (int32_t)a)
ID1(v_cvt_f64_u32, a)
ID1(v_cvt_f64_f32, fin32(xs_u2f(a), di_))

/* ---- f16 (results in the low half; xs_vdst32 merges the other half) ---------- */
/* a op b (op c) for binary16 values held in floats, rounded once to
 * binary16 in mode rm (the f64/f16 field). Exact values: sums and products
 * of binary16 values are exact in double; fma is TwoSum of the exact
 * product and the addend. */
static uint32_t h_round_op(unsigned k, float a, float b, float c, unsigned rm)
{
	double x, y;
	switch (k) {
	case K_MUL: x = (double)a * b; y = 0.0; break;
	case K_SUB: x = a; y = -(double)b; break;
	case K_SUBREV: x = b; y = -(double)a; break;
	case K_FMA: x = (double)a * b; y = c; break;
	default: x = a; y = b; break;
	}
	if (isnan(x) || isnan(y) || isinf(x) || isinf(y))
		return f2h((float)(x + y));
	dd v = two_sum(x, y);
	if (v.hi == 0.0 && v.lo == 0.0)
		return k == K_MUL ? f2h((float)x) : h_bits(zero_sum(x, y, rm));
	return h_bits(round_pair(v, &F16, rm));
}
/* fma of binary16 values, one rounding (RNE: the exact sum rounded once) */
static inline uint32_t fma16(float a, float b, float c)
{
	return h_round_op(K_FMA, a, b, c, RM_NE);
}

#define H_SLOW_PRELUDE(k)                                                       \
	unsigned rm_ = rm64(w), dn_ = dn64(w);                                  \
	if (rm_ != RM_NE && (k) == K_NORM)                                      \
		return mode_fault(x, w, in, rm_);
/* expr gives a float rounded by f2h, or (kinds with a rounding helper)
 * goes through h_round_op in the slow path */
#define H1(name, expr, k)                                                       \
	XS_EXEC(name)                                                           \
	{                                                                       \
		XS_VFRAME1;                                                     \
		if (XS_LIKELY((k) == K_FIXED || !fp_slow(w))) {                 \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				float a = h2f(A[l]);                            \
				r[l] = f2h((float)(expr));                      \
			}                                                       \
		} else {                                                        \
			H_SLOW_PRELUDE(k)                                       \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				float a = fin16(h2f(A[l]), dn_);                \
				r[l] = f2h(fout16((float)(expr), dn_));         \
			}                                                       \
		}                                                               \
		(void)x;                                                        \
		XS_VFRAME_END;                                                  \
	}
#define H2(name, expr, k)                                                       \
	XS_EXEC(name)                                                           \
	{                                                                       \
		XS_VFRAME2;                                                     \
		const bool ieee = ieee_mode(w);                                 \
		(void)ieee;                                                     \
		if (XS_LIKELY(!fp_slow(w))) {                                   \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				float a = h2f(A[l]), b = h2f(B[l]);             \
				r[l] = f2h((float)(expr));                      \
			}                                                       \
		} else {                                                        \
			H_SLOW_PRELUDE(k)                                       \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				float a = fin16(h2f(A[l]), dn_), b = fin16(h2f(B[l]), dn_); \
				uint32_t h_ = rm_ && (k) != K_EXACT ? h_round_op(k, a, b, 0, rm_) \
								     : f2h((float)(expr)); \
				r[l] = f2h(fout16(h2f(h_), dn_));               \
			}                                                       \
		}                                                               \
		(void)x;                                                        \
		XS_VFRAME_END;                                                  \
	}
/* three sources; expr gives binary16 bits */
#define H3(name, expr, k)                                                       \
	XS_EXEC(name)                                                           \
	{                                                                       \
		XS_VFRAME3;                                                     \
		const bool ieee = ieee_mode(w);                                 \
		(void)ieee;                                                     \
		if (XS_LIKELY(!fp_slow(w))) {                                   \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				float a = h2f(A[l]), b = h2f(B[l]), c = h2f(C[l]); \
				r[l] = (uint32_t)(expr);                        \
			}                                                       \
		} else {                                                        \
			H_SLOW_PRELUDE(k)                                       \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				float a = fin16(h2f(A[l]), dn_), b = fin16(h2f(B[l]), dn_), \
				      c = fin16(h2f(C[l]), dn_);                \
				uint32_t h_ = rm_ && (k) == K_FMA ? h_round_op(k, a, b, c, rm_) \
								  : (uint32_t)(expr); \
				r[l] = f2h(fout16(h2f(h_), dn_));               \
			}                                                       \
		}                                                               \
		(void)x;                                                        \
		XS_VFRAME_END;                                                  \
	}
H2(v_add_f16, a + b, K_ADD)
H2(v_sub_f16, a - b, K_SUB)
H2(v_subrev_f16, b - a, K_SUBREV)
H2(v_mul_f16, a * b, K_MUL)
H2(v_max_f16, fmax_hw(a, b, ieee), K_EXACT)
H2(v_min_f16, fmin_hw(a, b, ieee), K_EXACT)
H3(v_fmac_f16, fma16(a, b, c), K_FMA)
H3(v_fma_f16, fma16(a, b, c), K_FMA)
H3(v_min3_f16, f2h(fmin_hw(fmin_hw(a, b, ieee), c, ieee)), K_EXACT)
H3(v_max3_f16, f2h(fmax_hw(fmax_hw(a, b, ieee), c, ieee)), K_EXACT)
H3(v_med3_f16, f2h(fmed3_hw(a, b, c, ieee)), K_EXACT)
H3(v_div_fixup_f16, isnan(c) || isnan(b) ? f2h(quiet32(isnan(c) ? c : b))
		    : f2h((float)div_fixup(a, b, c, (int)((B[l] >> 10) & 0x1f), (int)((C[l] >> 10) & 0x1f), 25,
					   (double)xs_u2f(0xffc00000u), 0, 0)),
   K_FIXED)
/* f16 transcendentals keep denormals; computed in float, rounded once */
H1(v_rcp_f16, 1.0f / a, K_FIXED)
H1(v_sqrt_f16, sqrtf(a), K_FIXED)
H1(v_rsq_f16, (float)(1.0 / sqrt((double)a)), K_FIXED)
H1(v_log_f16, log2f(a), K_FIXED)
H1(v_exp_f16, exp2f(a), K_FIXED)
H1(v_sin_f16, t_sin(a), K_FIXED)
H1(v_cos_f16, t_cos(a), K_FIXED)
H1(v_frexp_mant_f16, frexp_mant_f(a), K_EXACT)
H1(v_floor_f16, floorf(a), K_EXACT)
H1(v_ceil_f16, ceilf(a), K_EXACT)
H1(v_trunc_f16, truncf(a), K_EXACT)
H1(v_rndne_f16, rintf(a), K_EXACT)
H1(v_fract_f16, fract_f(a) < 0x1.ffcp-1f ? fract_f(a) : (isnan(a) ? fract_f(a) : 0x1.ffcp-1f), K_NORM)

XS_EXEC(v_ldexp_f16)
{
	XS_VFRAME2;
	unsigned rm_ = rm64(w), dn_ = dn64(w);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		int k = (int16_t)B[l];
		double v = ldexp((double)fin16(h2f(A[l]), dn_), k < -100 ? -100 : k > 100 ? 100 : k);
		r[l] = f2h(fout16(h2f(h_bits(round_pair((dd){ v, 0.0 }, &F16, rm_))), dn_));
		if (isnan(h2f(A[l])))
			r[l] = f2h(h2f(A[l]));
	}
	(void)x;
	XS_VFRAME_END;
}

/* f16 <-> integer (16-bit) */
#define HX(name, expr)                                                          \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		XS_VFRAME1;                                                     \
		const unsigned rm_ = rm64(w);                                   \
		(void)rm_;                                                      \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                  \
			uint32_t a = A[l];                                      \
			r[l] = (uint32_t)(expr);                                \
		}                                                               \
		XS_VFRAME_END;                                                  \
	}
HX(v_cvt_f16_u16, h_bits(round_pair((dd){ (double)(a & 0xffff), 0.0 }, &F16, rm_)))
HX(v_cvt_f16_i16, h_bits(round_pair((dd){ (double)(int16_t)a, 0.0 }, &F16, rm_)))
HX(v_cvt_u16_f16, cvt_u16(h2f(a)))
HX(v_cvt_i16_f16, cvt_i16(h2f(a)))
HX(v_frexp_exp_i16_f16, frexp_exp_f(h2f(a)) & 0xffff)
HX(v_sat_pk_u8_i16, (uint32_t)(XS_MIN(XS_MAX((int16_t)a, 0), 255)) |
		    (uint32_t)(XS_MIN(XS_MAX((int16_t)(a >> 16), 0), 255)) << 8)

XS_EXEC(v_pack_b32_f16)
{
	(void)x;
	XS_VFRAME2;
	for (unsigned l = 0, n_ = c_.n; l < n_; l++)
		r[l] = (A[l] & 0xffff) | (B[l] & 0xffff) << 16;
	XS_VFRAME_END;
}

/* ---- packed f16 (VOP3P) and mixed-precision fma ----------------------------------- */
static inline float pk_f16(uint32_t v, uint32_t mods, unsigned i, bool hi_half_of_result)
{
	bool sel = hi_half_of_result ? (mods & XS_MOD_OPSEL_HI(i)) : (mods & XS_MOD_OPSEL(i));
	bool neg = hi_half_of_result ? (mods & XS_MOD_NEG_HI(i)) : (mods & XS_MOD_NEG(i));
	float f = h2f(sel ? v >> 16 : v & 0xffff);
	return neg ? -f : f;
}

/* clamp modifier of a packed / mix result: [0, 1], NaN -> 0 (DX10_CLAMP) */
static inline float clamp01(float v, const xs_wave *w)
{
	if (isnan(v))
		return (w->mode & XS_MODE_DX10_CLAMP) ? 0.0f : v;
	return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
}

/* expr: binary16 bits of one half */
#define PKF(name, nsrc, expr, k)                                                \
	XS_EXEC(name)                                                           \
	{                                                                       \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES], t1[LANES], t2[LANES], r[LANES];             \
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);               \
		const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);               \
		const uint32_t *C = nsrc > 2 ? xs_vsrc32(&c_, w, in, 2, t2) : A; \
		bool clamp = (in->mods & XS_MOD_CLAMP) != 0;                    \
		const bool ieee = ieee_mode(w);                                 \
		(void)ieee;                                                     \
		unsigned rm_ = rm64(w), dn_ = dn64(w);                          \
		if (rm_ != RM_NE && (k) != K_EXACT)                             \
			return mode_fault(x, w, in, rm_);                       \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                  \
			uint32_t res = 0;                                       \
			for (unsigned h = 0; h < 2; h++) {                      \
				float a = fin16(pk_f16(A[l], in->mods, 0, h), dn_); \
				float b = fin16(pk_f16(B[l], in->mods, 1, h), dn_); \
				float c = fin16(pk_f16(C[l], in->mods, 2, h), dn_); \
				(void)c;                                        \
				float v = fout16(h2f((uint32_t)(expr)), dn_);   \
				if (clamp)                                      \
					v = clamp01(v, w);                      \
				res |= f2h(v) << (16 * h);                      \
			}                                                       \
			r[l] = res;                                             \
		}                                                               \
		xs_vstore_rows(xs_vrow(w, in->dst), r, c_.mask, c_.n);          \
		return 0;                                                       \
	}
PKF(v_pk_fma_f16, 3, fma16(a, b, c), K_FMA)
PKF(v_pk_add_f16, 2, f2h(a + b), K_ADD)
PKF(v_pk_mul_f16, 2, f2h(a * b), K_MUL)
PKF(v_pk_min_f16, 2, f2h(fmin_hw(a, b, ieee)), K_EXACT)
PKF(v_pk_max_f16, 2, f2h(fmax_hw(a, b, ieee)), K_EXACT)

/* v_pk_fmac_f16 (VOP2): both halves, src2 = dst, no modifiers */
XS_EXEC(v_pk_fmac_f16)
{
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint32_t t0[LANES], t1[LANES], t2[LANES], r[LANES];
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	const uint32_t *C = xs_vsrc32(&c_, w, in, 2, t2);
	unsigned rm_ = rm64(w), dn_ = dn64(w);
	if (rm_ != RM_NE)
		return mode_fault(x, w, in, rm_);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		uint32_t lo = fma16(fin16(h2f(A[l]), dn_), fin16(h2f(B[l]), dn_), fin16(h2f(C[l]), dn_));
		uint32_t hi = fma16(fin16(h2f(A[l] >> 16), dn_), fin16(h2f(B[l] >> 16), dn_),
				    fin16(h2f(C[l] >> 16), dn_));
		r[l] = f2h(fout16(h2f(lo), dn_)) | f2h(fout16(h2f(hi), dn_)) << 16;
	}
	xs_vstore_rows(xs_vrow(w, in->dst), r, c_.mask, c_.n);
	return 0;
}

/* v_fma_mix*: op_sel_hi[i] = 1 reads source i as f16 (half op_sel[i]),
 * else as f32; neg_lo = neg, neg_hi = abs. One rounding, to binary32 (mix)
 * or binary16 (mixlo / mixhi). */
static inline float mix_src(uint32_t v, uint32_t mods, unsigned i)
{
	float f;
	if (mods & XS_MOD_OPSEL_HI(i))
		f = h2f((mods & XS_MOD_OPSEL(i)) ? v >> 16 : v & 0xffff);
	else
		f = xs_u2f(v);
	if (mods & XS_MOD_NEG_HI(i))
		f = fabsf(f);
	if (mods & XS_MOD_NEG(i))
		f = -f;
	return f;
}

static int fma_mix(xs_exec *x, xs_wave *w, const xs_inst *in, int out)
{
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint32_t t0[LANES], t1[LANES], t2[LANES], r[LANES];
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	const uint32_t *C = xs_vsrc32(&c_, w, in, 2, t2);
	/* An inline float constant takes the type the source is read as, not
	 * the row's (F32 for mix, F16 for mixlo / mixhi): f16 where op_sel_hi
	 * is set (LLVM's mad-mix.ll: fpext(half) + fpext(half) is
	 * v_fma_mix_f32 v0, v0, 1.0, v1 op_sel_hi:[1,1,1], 1.0 an f16 factor),
	 * else f32 (1.0 read as f32 is 1.0, not the f16 bits 0x3c00 as a
	 * binary32 denormal; for inline 1/(2pi) whether the hardware gives the
	 * f32 constant or the f16 one widened is not documented: the f32 one,
	 * as v_dot2_f32_f16's src2) */
	const uint32_t **src[3] = {&A, &B, &C};
	uint32_t *tmp[3] = {t0, t1, t2};
	for (unsigned i = 0; i < 3; i++)
		if (in->src[i] >= XS_SRC_HALF && in->src[i] <= XS_SRC_INV2PI) {
			unsigned k = in->src[i] - XS_SRC_HALF;
			*src[i] = xs_vbcast32(tmp[i], (in->mods & XS_MOD_OPSEL_HI(i)) ? xs_inline_f16[k] : xs_inline_f32[k],
					      c_.n);
		}
	uint32_t *d = xs_vrow(w, in->dst);
	bool clamp = (in->mods & XS_MOD_CLAMP) != 0;
	if (fp_slow(w) && (rm32(w) != RM_NE || rm64(w) != RM_NE))
		return mode_fault(x, w, in, out == 0 ? rm32(w) : rm64(w));
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		float a = mix_src(A[l], in->mods, 0), b = mix_src(B[l], in->mods, 1), c = mix_src(C[l], in->mods, 2);
		if (out == 0) {
			float v = fmaf(a, b, c);
			if (clamp)
				v = clamp01(v, w);
			r[l] = xs_f2u(v);
		} else {
			uint32_t h;
			double p = (double)a * b;                 /* exact */
			if (isnan(p) || isinf(p) || isnan(c) || isinf(c)) {
				h = f2h(fmaf(a, b, c));
			} else {
				dd v = two_sum(p, c);
				h = v.hi == 0.0 && v.lo == 0.0 ? f2h(fmaf(a, b, c)) : h_bits(round_pair(v, &F16, RM_NE));
			}
			if (clamp)
				h = f2h(clamp01(h2f(h), w));
			r[l] = out == 1 ? (d[l] & 0xffff0000u) | h : (d[l] & 0xffffu) | h << 16;
		}
	}
	xs_vstore_rows(d, r, c_.mask, c_.n);
	return 0;
}
XS_EXEC(v_fma_mix_f32) { return fma_mix(x, w, in, 0); }
XS_EXEC(v_fma_mixlo_f16) { return fma_mix(x, w, in, 1); }
XS_EXEC(v_fma_mixhi_f16) { return fma_mix(x, w, in, 2); }

/* dot2 of f16 pairs accumulated in f32. The f16 sources take op_sel /
 * op_sel_hi and neg_lo / neg_hi per half as the packed f16 ops do (pk_f16:
 * op_sel and neg_lo for the low product, op_sel_hi and neg_hi for the
 * high one). v_dot2c_f32_f16 (VOP2) has no modifiers: its halves are the
 * VOP3P defaults (op_sel_hi = 1). */
XS_EXEC(v_dot2_f32_f16)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint32_t t0[LANES], t1[LANES], t2[LANES], r[LANES];
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	const uint32_t *C = xs_vsrc32(&c_, w, in, 2, t2);
	const uint32_t m = in->enc == XS_ENC_VOP3P ? in->mods : XS_MOD_OPSEL_HI(0) | XS_MOD_OPSEL_HI(1);
	/* src2 is f32 (LLVM: fdot2(v2f16, v2f16, float, i1 clamp)): an inline
	 * float constant reads as binary32, not as the f16 the op's F16 row
	 * flag gives the packed sources (1.0 is inline 242 in both); fneg of it
	 * is neg_lo[2] (LLVM sets neg_lo and neg_hi for a 32-bit operand) */
	if (in->src[2] >= XS_SRC_HALF && in->src[2] <= XS_SRC_INV2PI)
		C = xs_vbcast32(t2, xs_inline_f32[in->src[2] - XS_SRC_HALF], c_.n);
	const float cneg = (m & XS_MOD_NEG(2)) ? -1.0f : 1.0f;
	const bool clamp = (in->mods & XS_MOD_CLAMP) != 0;
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		float s = pk_f16(A[l], m, 0, false) * pk_f16(B[l], m, 1, false) +
			  pk_f16(A[l], m, 0, true) * pk_f16(B[l], m, 1, true);
		s += cneg * xs_u2f(C[l]);
		r[l] = xs_f2u(clamp ? clamp01(s, w) : s);
	}
	xs_vstore_rows(xs_vrow(w, in->dst), r, c_.mask, c_.n);
	return 0;
}
XS_EXEC(v_dot2c_f32_f16) { return x_v_dot2_f32_f16(x, w, in); }

void xs_exec_register_valu_f(void)
{
	XS_REG(v_add_f32); XS_REG(v_sub_f32); XS_REG(v_subrev_f32); XS_REG(v_mul_f32);
	XS_REG(v_mul_legacy_f32); XS_REG(v_min_f32); XS_REG(v_max_f32); XS_REG(v_ldexp_f32);
	XS_REG_AS(v_fmac_f32, x_v_fma_f32); XS_REG(v_fma_f32); XS_REG(v_fmac_legacy_f32); XS_REG(v_fma_legacy_f32);
	XS_REG_AS(v_fmamk_f32, x_v_fma_f32); XS_REG_AS(v_fmaak_f32, x_v_fma_f32);
#ifdef __FMA__
	XS_REG_GROUP(v_fmac_f32, g_v_fma_f32); XS_REG_GROUP(v_fma_f32, g_v_fma_f32);
#endif
	XS_REG(v_min3_f32); XS_REG(v_max3_f32); XS_REG(v_med3_f32);
	XS_REG(v_cubeid_f32); XS_REG(v_cubesc_f32); XS_REG(v_cubetc_f32); XS_REG(v_cubema_f32);
	XS_REG(v_fract_f32); XS_REG(v_trunc_f32); XS_REG(v_ceil_f32); XS_REG(v_rndne_f32);
	XS_REG(v_floor_f32); XS_REG(v_exp_f32); XS_REG(v_log_f32); XS_REG(v_rcp_f32);
	XS_REG(v_rcp_iflag_f32); XS_REG(v_rsq_f32); XS_REG(v_sqrt_f32); XS_REG(v_sin_f32);
	XS_REG(v_cos_f32); XS_REG(v_frexp_mant_f32); XS_REG(v_frexp_exp_i32_f32);
	XS_REG(v_cvt_i32_f32); XS_REG(v_cvt_u32_f32); XS_REG(v_cvt_rpi_i32_f32); XS_REG(v_cvt_flr_i32_f32);
	XS_REG(v_cvt_f16_f32); XS_REG(v_cvt_f32_i32); XS_REG(v_cvt_f32_u32);
	XS_REG(v_cvt_f32_ubyte0); XS_REG(v_cvt_f32_ubyte1); XS_REG(v_cvt_f32_ubyte2);
	XS_REG(v_cvt_f32_ubyte3); XS_REG(v_cvt_off_f32_i4); XS_REG(v_cvt_f32_f16);
	XS_REG(v_cvt_pkrtz_f16_f32); XS_REG(v_cvt_pk_u8_f32);
	XS_REG(v_div_scale_f32); XS_REG(v_div_fmas_f32); XS_REG(v_div_fixup_f32);
	XS_REG(v_add_f64); XS_REG(v_mul_f64); XS_REG(v_min_f64); XS_REG(v_max_f64); XS_REG(v_fma_f64);
	XS_REG(v_div_fixup_f64); XS_REG(v_trunc_f64); XS_REG(v_ceil_f64); XS_REG(v_rndne_f64);
	XS_REG(v_floor_f64); XS_REG(v_fract_f64); XS_REG(v_rcp_f64); XS_REG(v_rsq_f64);
	XS_REG(v_sqrt_f64); XS_REG(v_frexp_mant_f64); XS_REG(v_ldexp_f64); XS_REG(v_trig_preop_f64);
	XS_REG(v_div_scale_f64); XS_REG(v_div_fmas_f64);
	XS_REG(v_cvt_i32_f64); XS_REG(v_cvt_u32_f64); XS_REG(v_cvt_f32_f64); XS_REG(v_frexp_exp_i32_f64);
	XS_REG(v_cvt_f64_i32); XS_REG(v_cvt_f64_u32); XS_REG(v_cvt_f64_f32);
	XS_REG(v_add_f16); XS_REG(v_sub_f16); XS_REG(v_subrev_f16); XS_REG(v_mul_f16);
	XS_REG(v_max_f16); XS_REG(v_min_f16); XS_REG(v_fmac_f16); XS_REG(v_fma_f16);
	XS_REG_AS(v_fmamk_f16, x_v_fma_f16); XS_REG_AS(v_fmaak_f16, x_v_fma_f16);
	XS_REG(v_min3_f16); XS_REG(v_max3_f16); XS_REG(v_med3_f16); XS_REG(v_div_fixup_f16);
	XS_REG(v_rcp_f16); XS_REG(v_sqrt_f16); XS_REG(v_rsq_f16); XS_REG(v_log_f16); XS_REG(v_exp_f16);
	XS_REG(v_frexp_mant_f16); XS_REG(v_floor_f16); XS_REG(v_ceil_f16); XS_REG(v_trunc_f16);
	XS_REG(v_rndne_f16); XS_REG(v_fract_f16); XS_REG(v_sin_f16); XS_REG(v_cos_f16);
	XS_REG(v_ldexp_f16);
	XS_REG(v_cvt_f16_u16); XS_REG(v_cvt_f16_i16); XS_REG(v_cvt_u16_f16); XS_REG(v_cvt_i16_f16);
	XS_REG(v_frexp_exp_i16_f16); XS_REG(v_sat_pk_u8_i16); XS_REG(v_pack_b32_f16);
	XS_REG(v_pk_fma_f16); XS_REG(v_pk_add_f16); XS_REG(v_pk_mul_f16); XS_REG(v_pk_min_f16);
	XS_REG(v_pk_max_f16); XS_REG(v_pk_fmac_f16);
	XS_REG(v_fma_mix_f32); XS_REG(v_fma_mixlo_f16); XS_REG(v_fma_mixhi_f16);
	XS_REG(v_dot2_f32_f16); XS_REG(v_dot2c_f32_f16);
}
