/*
 * Vector ALU, floating point and conversions (f16 / f32 / f64).
 *
 * Host IEEE arithmetic in round-to-nearest-even gives the RDNA2 results for
 * add/sub/mul/fma/sqrt and conversions; the transcendental ops (exp, log,
 * rcp, rsq, sin, cos) use the host's correctly rounded or near functions,
 * which is within the hardware's documented 1 ULP. Denormals are kept (the
 * MODE clang sets for gfx1030 kernels: FloatMode 240); MODE's flush and
 * rounding fields are not modelled. f16 ops compute in f32 and round once to
 * f16 (products are exact; sums can in rare cases round twice).
 *
 * min/max follow IEEE mode (the default, IeeeMode 1): a NaN operand yields
 * the other operand, -0 orders below +0.
 */
#include "isa/xs_isa_priv.h"

#define LANES XS_MAX_LANES
#define TWO_PI 6.283185307179586476925286766559

static inline float fmin_ieee(float a, float b)
{
	if (isnan(a)) return isnan(b) ? a : b;
	if (isnan(b)) return a;
	if (a == b) return signbit(a) ? a : b;
	return a < b ? a : b;
}
static inline float fmax_ieee(float a, float b)
{
	if (isnan(a)) return isnan(b) ? a : b;
	if (isnan(b)) return a;
	if (a == b) return signbit(a) ? b : a;
	return a > b ? a : b;
}
static inline double dmin_ieee(double a, double b)
{
	if (isnan(a)) return isnan(b) ? a : b;
	if (isnan(b)) return a;
	if (a == b) return signbit(a) ? a : b;
	return a < b ? a : b;
}
static inline double dmax_ieee(double a, double b)
{
	if (isnan(a)) return isnan(b) ? a : b;
	if (isnan(b)) return a;
	if (a == b) return signbit(a) ? b : a;
	return a > b ? a : b;
}
static inline float fmed3(float a, float b, float c)
{
	if (isnan(a) || isnan(b) || isnan(c))
		return fmin_ieee(fmin_ieee(a, b), c);
	return fmax_ieee(fmin_ieee(a, b), fmin_ieee(fmax_ieee(a, b), c));
}
/* Legacy multiply: 0 * anything (inf, NaN included) is 0. */
static inline float mul_legacy(float a, float b)
{
	return (a == 0.0f || b == 0.0f) ? 0.0f : a * b;
}
static inline float fract_f(float a)
{
	if (isinf(a))
		return NAN;
	float r = a - floorf(a);
	return r < 0x1.fffffep-1f ? r : 0x1.fffffep-1f;
}
static inline double fract_d(double a)
{
	if (isinf(a))
		return NAN;
	double r = a - floor(a);
	return r < 0x1.fffffffffffffp-1 ? r : 0x1.fffffffffffffp-1;
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
/* float -> int conversions: NaN -> 0, saturating, truncating toward zero */
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
static inline float ldexp_f(float a, uint32_t b)
{
	return ldexpf(a, (int32_t)b);
}
static inline double ldexp_d(double a, uint32_t b)
{
	return ldexp(a, (int32_t)b);
}
static inline float h2f(uint32_t h) { return xs_f16_to_f32((uint16_t)h); }
static inline uint32_t f2h(float f) { return xs_f32_to_f16(f); }

/* ---- f32 ---------------------------------------------------------------------- */
#define F1(name, expr)                                                          \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES], rt[LANES];                                   \
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);               \
		uint32_t *r = xs_vdst_row(&c_, w, in, rt);                                    \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			float a = xs_u2f(A[l]);                                 \
			r[l] = xs_f2u((float)(expr));                           \
		}                                                               \
		xs_vdst_done(&c_, w, in, r);                                       \
		return 0;                                                       \
	}
#define F2(name, expr)                                                          \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES], t1[LANES], rt[LANES];                        \
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);               \
		const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);               \
		uint32_t *r = xs_vdst_row(&c_, w, in, rt);                                    \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			float a = xs_u2f(A[l]), b = xs_u2f(B[l]);               \
			r[l] = xs_f2u((float)(expr));                           \
		}                                                               \
		xs_vdst_done(&c_, w, in, r);                                       \
		return 0;                                                       \
	}
#define F3(name, expr)                                                          \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES], t1[LANES], t2[LANES], rt[LANES];             \
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);               \
		const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);               \
		const uint32_t *C = xs_vsrc32(&c_, w, in, 2, t2);               \
		uint32_t *r = xs_vdst_row(&c_, w, in, rt);                                    \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			float a = xs_u2f(A[l]), b = xs_u2f(B[l]), c = xs_u2f(C[l]); \
			r[l] = xs_f2u((float)(expr));                           \
		}                                                               \
		xs_vdst_done(&c_, w, in, r);                                       \
		return 0;                                                       \
	}
/* f32 sources, integer result bits */
#define FI1(name, expr)                                                         \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES], rt[LANES];                                   \
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);               \
		uint32_t *r = xs_vdst_row(&c_, w, in, rt);                                    \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			float a = xs_u2f(A[l]);                                 \
			r[l] = (uint32_t)(expr);                                \
		}                                                               \
		xs_vdst_done(&c_, w, in, r);                                       \
		return 0;                                                       \
	}
/* integer source bits, f32 result */
#define IF1(name, expr)                                                         \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES], rt[LANES];                                   \
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);               \
		uint32_t *r = xs_vdst_row(&c_, w, in, rt);                                    \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			uint32_t a = A[l];                                      \
			r[l] = xs_f2u((float)(expr));                           \
		}                                                               \
		xs_vdst_done(&c_, w, in, r);                                       \
		return 0;                                                       \
	}

F2(v_add_f32, a + b)
F2(v_sub_f32, a - b)
F2(v_subrev_f32, b - a)
F2(v_mul_f32, a * b)
F2(v_mul_legacy_f32, mul_legacy(a, b))
F2(v_min_f32, fmin_ieee(a, b))
F2(v_max_f32, fmax_ieee(a, b))
F2(v_ldexp_f32, ldexpf(a, (int32_t)xs_f2u(b)))
/* Fused multiply-add lanes: hardware fma when the host has it (ifunc picks
 * the clone once), else libm's exact software fmaf. */
__attribute__((target_clones("fma", "default")))
static void fma32_lanes(uint32_t *r, const uint32_t *A, const uint32_t *B, const uint32_t *C, unsigned n)
{
	for (unsigned l = 0; l < n; l++)
		r[l] = xs_f2u(fmaf(xs_u2f(A[l]), xs_u2f(B[l]), xs_u2f(C[l])));
}

__attribute__((target_clones("fma", "default")))
static void fma64_lanes(uint64_t *r, const uint64_t *A, const uint64_t *B, const uint64_t *C, unsigned n)
{
	for (unsigned l = 0; l < n; l++)
		r[l] = xs_d2u(fma(xs_u2d(A[l]), xs_u2d(B[l]), xs_u2d(C[l])));
}

XS_EXEC(v_fma_f32)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint32_t t0[LANES], t1[LANES], t2[LANES], rt[LANES];
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	const uint32_t *C = xs_vsrc32(&c_, w, in, 2, t2);
	uint32_t *r = xs_vdst_row(&c_, w, in, rt);
	fma32_lanes(r, A, B, C, c_.n);
	xs_vdst_done(&c_, w, in, r);
	return 0;
}
F3(v_fmac_legacy_f32, (a == 0.0f || b == 0.0f) ? c : fmaf(a, b, c))
F3(v_fma_legacy_f32, (a == 0.0f || b == 0.0f) ? c : fmaf(a, b, c))
F3(v_min3_f32, fmin_ieee(fmin_ieee(a, b), c))
F3(v_max3_f32, fmax_ieee(fmax_ieee(a, b), c))
F3(v_med3_f32, fmed3(a, b, c))
F1(v_fract_f32, fract_f(a))
F1(v_trunc_f32, truncf(a))
F1(v_ceil_f32, ceilf(a))
F1(v_rndne_f32, rintf(a))
F1(v_floor_f32, floorf(a))
F1(v_exp_f32, exp2f(a))
F1(v_log_f32, log2f(a))
F1(v_rcp_f32, 1.0f / a)
F1(v_rcp_iflag_f32, 1.0f / a)
F1(v_rsq_f32, 1.0f / sqrtf(a))
F1(v_sqrt_f32, sqrtf(a))
F1(v_sin_f32, sin((double)a * TWO_PI))
F1(v_cos_f32, cos((double)a * TWO_PI))
F1(v_frexp_mant_f32, frexp_mant_f(a))
FI1(v_frexp_exp_i32_f32, frexp_exp_f(a))
FI1(v_cvt_i32_f32, cvt_i32(a))
FI1(v_cvt_u32_f32, cvt_u32(a))
FI1(v_cvt_rpi_i32_f32, cvt_i32(floor((double)a + 0.5)))
FI1(v_cvt_flr_i32_f32, cvt_i32(floor((double)a)))
FI1(v_cvt_f16_f32, xs_f32_to_f16(a))
IF1(v_cvt_f32_i32, (int32_t)a)
IF1(v_cvt_f32_u32, a)
IF1(v_cvt_f32_ubyte0, a & 0xff)
IF1(v_cvt_f32_ubyte1, (a >> 8) & 0xff)
IF1(v_cvt_f32_ubyte2, (a >> 16) & 0xff)
IF1(v_cvt_f32_ubyte3, a >> 24)
IF1(v_cvt_off_f32_i4, (float)((int32_t)(a << 28) >> 28) / 16.0f)
IF1(v_cvt_f32_f16, h2f(a))

XS_EXEC(v_cvt_pkrtz_f16_f32)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint32_t t0[LANES], t1[LANES], rt[LANES];
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	uint32_t *r = xs_vdst_row(&c_, w, in, rt);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++)
		r[l] = xs_f32_to_f16_rtz(xs_u2f(A[l])) | (uint32_t)xs_f32_to_f16_rtz(xs_u2f(B[l])) << 16;
	xs_vdst_done(&c_, w, in, r);
	return 0;
}

XS_EXEC(v_cvt_pk_u8_f32)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint32_t t0[LANES], t1[LANES], t2[LANES], rt[LANES];
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	const uint32_t *C = xs_vsrc32(&c_, w, in, 2, t2);
	uint32_t *r = xs_vdst_row(&c_, w, in, rt);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		float v = rintf(xs_u2f(A[l]));
		uint32_t u = isnan(v) || v <= 0.0f ? 0 : v >= 255.0f ? 255 : (uint32_t)v;
		unsigned sh = 8 * (B[l] & 3);
		r[l] = (C[l] & ~(0xffu << sh)) | u << sh;
	}
	xs_vdst_done(&c_, w, in, r);
	return 0;
}

/* Division helpers. xs12 does not pre-scale (v_div_scale returns its
 * operand and a clear VCC), so v_div_fmas is a plain fma and the
 * Newton-Raphson sequence LLVM emits yields the correctly rounded quotient
 * except near the exponent range limits; v_div_fixup handles the special
 * cases (NaN, zero, infinity) as the hardware does. */
XS_EXEC(v_div_scale_f32)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint32_t t0[LANES], rt[LANES];
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
	uint32_t *r = xs_vdst_row(&c_, w, in, rt);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++)
		r[l] = A[l];
	xs_vdst_done(&c_, w, in, r);
	xs_wr_mask(w, in->sdst, 0);
	return 0;
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
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		float v = fmaf(xs_u2f(A[l]), xs_u2f(B[l]), xs_u2f(C[l]));
		if ((vcc >> l) & 1)
			v = ldexpf(v, 32);
		r[l] = xs_f2u(v);
	}
	xs_vdst_done(&c_, w, in, r);
	return 0;
}

static inline double div_fixup(double q, double den, double num, double huge)
{
	bool sgn = (signbit(den) != 0) != (signbit(num) != 0);
	if (isnan(den))
		return den;
	if (isnan(num))
		return num;
	if ((den == 0.0 && num == 0.0) || (isinf(den) && isinf(num)))
		return NAN;
	if (den == 0.0 || isinf(num))
		return sgn ? -INFINITY : INFINITY;
	if (isinf(den) || num == 0.0)
		return sgn ? -0.0 : 0.0;
	if (isnan(q))
		return sgn ? -huge : huge;
	return q;
}
F3(v_div_fixup_f32, div_fixup(a, b, c, INFINITY))

/* ---- f64 ---------------------------------------------------------------------- */
#define D1(name, expr)                                                          \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint64_t t0[LANES], r[LANES];                                   \
		xs_vsrc64(w, in, 0, t0);                                        \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			double a = xs_u2d(t0[l]);                               \
			r[l] = xs_d2u((double)(expr));                          \
		}                                                               \
		xs_vdst64(&c_, w, in, r);                                       \
		return 0;                                                       \
	}
#define D2(name, expr)                                                          \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint64_t t0[LANES], t1[LANES], r[LANES];                        \
		xs_vsrc64(w, in, 0, t0);                                        \
		xs_vsrc64(w, in, 1, t1);                                        \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			double a = xs_u2d(t0[l]), b = xs_u2d(t1[l]);            \
			r[l] = xs_d2u((double)(expr));                          \
		}                                                               \
		xs_vdst64(&c_, w, in, r);                                       \
		return 0;                                                       \
	}
#define D3(name, expr)                                                          \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint64_t t0[LANES], t1[LANES], t2[LANES], r[LANES];             \
		xs_vsrc64(w, in, 0, t0);                                        \
		xs_vsrc64(w, in, 1, t1);                                        \
		xs_vsrc64(w, in, 2, t2);                                        \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			double a = xs_u2d(t0[l]), b = xs_u2d(t1[l]), c = xs_u2d(t2[l]); \
			r[l] = xs_d2u((double)(expr));                          \
		}                                                               \
		xs_vdst64(&c_, w, in, r);                                       \
		return 0;                                                       \
	}

D2(v_add_f64, a + b)
D2(v_mul_f64, a * b)
D2(v_min_f64, dmin_ieee(a, b))
D2(v_max_f64, dmax_ieee(a, b))
XS_EXEC(v_fma_f64)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint64_t t0[LANES], t1[LANES], t2[LANES], r[LANES];
	xs_vsrc64(w, in, 0, t0);
	xs_vsrc64(w, in, 1, t1);
	xs_vsrc64(w, in, 2, t2);
	fma64_lanes(r, t0, t1, t2, c_.n);
	xs_vdst64(&c_, w, in, r);
	return 0;
}
D3(v_div_fixup_f64, div_fixup(a, b, c, INFINITY))
D1(v_trunc_f64, trunc(a))
D1(v_ceil_f64, ceil(a))
D1(v_rndne_f64, rint(a))
D1(v_floor_f64, floor(a))
D1(v_fract_f64, fract_d(a))
D1(v_rcp_f64, 1.0 / a)
D1(v_rsq_f64, 1.0 / sqrt(a))
D1(v_sqrt_f64, sqrt(a))
D1(v_frexp_mant_f64, frexp_mant_d(a))

/* v_ldexp_f64: src1 is a 32-bit integer */
XS_EXEC(v_ldexp_f64)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint64_t t0[LANES], r[LANES];
	uint32_t t1[LANES];
	xs_vsrc64(w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++)
		r[l] = xs_d2u(ldexp_d(xs_u2d(t0[l]), B[l]));
	xs_vdst64(&c_, w, in, r);
	return 0;
}

XS_EXEC(v_div_scale_f64)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint64_t t0[LANES];
	xs_vsrc64(w, in, 0, t0);
	xs_vdst64(&c_, w, in, t0);
	xs_wr_mask(w, in->sdst, 0);
	return 0;
}

XS_EXEC(v_div_fmas_f64)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint64_t t0[LANES], t1[LANES], t2[LANES], r[LANES];
	xs_vsrc64(w, in, 0, t0);
	xs_vsrc64(w, in, 1, t1);
	xs_vsrc64(w, in, 2, t2);
	uint64_t vcc = xs_rd_mask(w, in, XS_SREG_VCC_LO);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		double v = fma(xs_u2d(t0[l]), xs_u2d(t1[l]), xs_u2d(t2[l]));
		if ((vcc >> l) & 1)
			v = ldexp(v, 64);
		r[l] = xs_d2u(v);
	}
	xs_vdst64(&c_, w, in, r);
	return 0;
}

/* f64 -> 32-bit results */
#define DI1(name, expr)                                                         \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint64_t t0[LANES];                                             \
		uint32_t rt[LANES];                                              \
		xs_vsrc64(w, in, 0, t0);                                        \
		uint32_t *r = xs_vdst_row(&c_, w, in, rt);                                    \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			double a = xs_u2d(t0[l]);                               \
			r[l] = (uint32_t)(expr);                                \
		}                                                               \
		xs_vdst_done(&c_, w, in, r);                                       \
		return 0;                                                       \
	}
DI1(v_cvt_i32_f64, cvt_i32(a))
DI1(v_cvt_u32_f64, cvt_u32(a))
DI1(v_cvt_f32_f64, xs_f2u((float)a))
DI1(v_frexp_exp_i32_f64, frexp_exp_d(a))

/* 32-bit sources -> f64 */
#define ID1(name, expr)                                                         \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES];                                             \
		uint64_t r[LANES];                                              \
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);               \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			uint32_t a = A[l];                                      \
			r[l] = xs_d2u((double)(expr));                          \
		}                                                               \
		xs_vdst64(&c_, w, in, r);                                       \
		return 0;                                                       \
	}
ID1(v_cvt_f64_i32, (int32_t)a)
ID1(v_cvt_f64_u32, a)
ID1(v_cvt_f64_f32, xs_u2f(a))

/* ---- f16 (results in the low half; xs_vdst32 merges the other half) ---------- */
#define H1(name, expr)                                                          \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES], rt[LANES];                                   \
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);               \
		uint32_t *r = xs_vdst_row(&c_, w, in, rt);                                    \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			float a = h2f(A[l]);                                    \
			r[l] = f2h((float)(expr));                              \
		}                                                               \
		xs_vdst_done(&c_, w, in, r);                                       \
		return 0;                                                       \
	}
#define H2(name, expr)                                                          \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES], t1[LANES], rt[LANES];                        \
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);               \
		const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);               \
		uint32_t *r = xs_vdst_row(&c_, w, in, rt);                                    \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			float a = h2f(A[l]), b = h2f(B[l]);                     \
			r[l] = f2h((float)(expr));                              \
		}                                                               \
		xs_vdst_done(&c_, w, in, r);                                       \
		return 0;                                                       \
	}
#define H3(name, expr)                                                          \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES], t1[LANES], t2[LANES], rt[LANES];             \
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);               \
		const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);               \
		const uint32_t *C = xs_vsrc32(&c_, w, in, 2, t2);               \
		uint32_t *r = xs_vdst_row(&c_, w, in, rt);                                    \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			float a = h2f(A[l]), b = h2f(B[l]), c = h2f(C[l]);      \
			r[l] = f2h((float)(expr));                              \
		}                                                               \
		xs_vdst_done(&c_, w, in, r);                                       \
		return 0;                                                       \
	}
H2(v_add_f16, a + b)
H2(v_sub_f16, a - b)
H2(v_subrev_f16, b - a)
H2(v_mul_f16, a * b)
H2(v_max_f16, fmax_ieee(a, b))
H2(v_min_f16, fmin_ieee(a, b))
H3(v_fmac_f16, fmaf(a, b, c))
H3(v_fma_f16, fmaf(a, b, c))
H3(v_min3_f16, fmin_ieee(fmin_ieee(a, b), c))
H3(v_max3_f16, fmax_ieee(fmax_ieee(a, b), c))
H3(v_med3_f16, fmed3(a, b, c))
H3(v_div_fixup_f16, div_fixup(a, b, c, 65504.0))
H1(v_rcp_f16, 1.0f / a)
H1(v_sqrt_f16, sqrtf(a))
H1(v_rsq_f16, 1.0f / sqrtf(a))
H1(v_log_f16, log2f(a))
H1(v_exp_f16, exp2f(a))
H1(v_frexp_mant_f16, frexp_mant_f(a))
H1(v_floor_f16, floorf(a))
H1(v_ceil_f16, ceilf(a))
H1(v_trunc_f16, truncf(a))
H1(v_rndne_f16, rintf(a))
H1(v_fract_f16, fract_f(a) < 0x1.ffcp-1f ? fract_f(a) : 0x1.ffcp-1f)
H1(v_sin_f16, sin((double)a * TWO_PI))
H1(v_cos_f16, cos((double)a * TWO_PI))

XS_EXEC(v_ldexp_f16)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint32_t t0[LANES], t1[LANES], rt[LANES];
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	uint32_t *r = xs_vdst_row(&c_, w, in, rt);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++)
		r[l] = f2h(ldexp_f(h2f(A[l]), (uint32_t)(int32_t)(int16_t)B[l]));
	xs_vdst_done(&c_, w, in, r);
	return 0;
}

/* f16 <-> integer (16-bit) */
#define HX(name, expr)                                                          \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES], rt[LANES];                                   \
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);               \
		uint32_t *r = xs_vdst_row(&c_, w, in, rt);                                    \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			uint32_t a = A[l];                                      \
			r[l] = (uint32_t)(expr);                                \
		}                                                               \
		xs_vdst_done(&c_, w, in, r);                                       \
		return 0;                                                       \
	}
HX(v_cvt_f16_u16, f2h((float)(a & 0xffff)))
HX(v_cvt_f16_i16, f2h((float)(int16_t)a))
HX(v_cvt_u16_f16, cvt_u16(h2f(a)))
HX(v_cvt_i16_f16, cvt_i16(h2f(a)))
HX(v_frexp_exp_i16_f16, frexp_exp_f(h2f(a)) & 0xffff)
HX(v_sat_pk_u8_i16, (uint32_t)(XS_MIN(XS_MAX((int16_t)a, 0), 255)) |
		    (uint32_t)(XS_MIN(XS_MAX((int16_t)(a >> 16), 0), 255)) << 8)

XS_EXEC(v_pack_b32_f16)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint32_t t0[LANES], t1[LANES], rt[LANES];
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	uint32_t *r = xs_vdst_row(&c_, w, in, rt);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++)
		r[l] = (A[l] & 0xffff) | (B[l] & 0xffff) << 16;
	xs_vdst_done(&c_, w, in, r);
	return 0;
}

/* ---- packed f16 (VOP3P) and mixed-precision fma ----------------------------------- */
static inline float pk_f16(uint32_t v, uint32_t mods, unsigned i, bool hi_half_of_result)
{
	bool sel = hi_half_of_result ? (mods & XS_MOD_OPSEL_HI(i)) : (mods & XS_MOD_OPSEL(i));
	bool neg = hi_half_of_result ? (mods & XS_MOD_NEG_HI(i)) : (mods & XS_MOD_NEG(i));
	float f = h2f(sel ? v >> 16 : v & 0xffff);
	return neg ? -f : f;
}

#define PKF(name, nsrc, expr)                                                   \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES], t1[LANES], t2[LANES], r[LANES];             \
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);               \
		const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);               \
		const uint32_t *C = nsrc > 2 ? xs_vsrc32(&c_, w, in, 2, t2) : A; \
		bool clamp = (in->mods & XS_MOD_CLAMP) != 0;                    \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			uint32_t res = 0;                                       \
			for (unsigned h = 0; h < 2; h++) {                      \
				float a = pk_f16(A[l], in->mods, 0, h);         \
				float b = pk_f16(B[l], in->mods, 1, h);         \
				float c = pk_f16(C[l], in->mods, 2, h);         \
				(void)c;                                        \
				float v = (float)(expr);                        \
				if (clamp)                                      \
					v = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; \
				res |= f2h(v) << (16 * h);                      \
			}                                                       \
			r[l] = res;                                             \
		}                                                               \
		xs_vstore_rows(xs_vrow(w, in->dst), r, c_.mask, c_.n);          \
		return 0;                                                       \
	}
PKF(v_pk_fma_f16, 3, fmaf(a, b, c))
PKF(v_pk_add_f16, 2, a + b)
PKF(v_pk_mul_f16, 2, a * b)
PKF(v_pk_min_f16, 2, fmin_ieee(a, b))
PKF(v_pk_max_f16, 2, fmax_ieee(a, b))

/* v_pk_fmac_f16 (VOP2): both halves, src2 = dst, no modifiers */
XS_EXEC(v_pk_fmac_f16)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint32_t t0[LANES], t1[LANES], t2[LANES], r[LANES];
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	const uint32_t *C = xs_vsrc32(&c_, w, in, 2, t2);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		uint32_t lo = f2h(fmaf(h2f(A[l]), h2f(B[l]), h2f(C[l])));
		uint32_t hi = f2h(fmaf(h2f(A[l] >> 16), h2f(B[l] >> 16), h2f(C[l] >> 16)));
		r[l] = lo | hi << 16;
	}
	xs_vstore_rows(xs_vrow(w, in->dst), r, c_.mask, c_.n);
	return 0;
}

/* v_fma_mix*: op_sel_hi[i] = 1 reads source i as f16 (half op_sel[i]),
 * else as f32; neg_lo = neg, neg_hi = abs. */
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

static int fma_mix(xs_wave *w, const xs_inst *in, int out)
{
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint32_t t0[LANES], t1[LANES], t2[LANES], r[LANES];
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	const uint32_t *C = xs_vsrc32(&c_, w, in, 2, t2);
	uint32_t *d = xs_vrow(w, in->dst);
	bool clamp = (in->mods & XS_MOD_CLAMP) != 0;
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		float v = fmaf(mix_src(A[l], in->mods, 0), mix_src(B[l], in->mods, 1), mix_src(C[l], in->mods, 2));
		if (clamp)
			v = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
		if (out == 0)
			r[l] = xs_f2u(v);
		else if (out == 1)
			r[l] = (d[l] & 0xffff0000u) | f2h(v);
		else
			r[l] = (d[l] & 0xffffu) | f2h(v) << 16;
	}
	xs_vstore_rows(d, r, c_.mask, c_.n);
	return 0;
}
XS_EXEC(v_fma_mix_f32) { (void)x; return fma_mix(w, in, 0); }
XS_EXEC(v_fma_mixlo_f16) { (void)x; return fma_mix(w, in, 1); }
XS_EXEC(v_fma_mixhi_f16) { (void)x; return fma_mix(w, in, 2); }

/* dot2 of f16 pairs accumulated in f32 */
XS_EXEC(v_dot2_f32_f16)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint32_t t0[LANES], t1[LANES], t2[LANES], r[LANES];
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	const uint32_t *C = xs_vsrc32(&c_, w, in, 2, t2);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++) {
		float s = h2f(A[l]) * h2f(B[l]) + h2f(A[l] >> 16) * h2f(B[l] >> 16);
		r[l] = xs_f2u(s + xs_u2f(C[l]));
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
	XS_REG(v_min3_f32); XS_REG(v_max3_f32); XS_REG(v_med3_f32);
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
	XS_REG(v_sqrt_f64); XS_REG(v_frexp_mant_f64); XS_REG(v_ldexp_f64);
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
