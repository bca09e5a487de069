/*
 * Vector ALU, integer and bit operations (VOP1, VOP2, VOP3, VOP3P ints).
 *
 * Every body has the same shape: fetch each source as a lane array
 * (xs_vsrc32 returns the VGPR row itself when no modifier applies), compute
 * all lanes into a temporary, then store under EXEC (xs_vdst32). The lane
 * loops are plain C the compiler vectorises. Lane-mask results (carry out)
 * have inactive lanes cleared.
 */
#include <stdlib.h>

#include "isa/xs_isa_priv.h"

#define LANES XS_MAX_LANES

/* Whether source i of a plain form is one value for every lane that
 * xs_vsrc32 would broadcast itself (an SGPR or a constant), and that value. */
static inline bool gn_scalar(const xs_inst *in, unsigned i)
{
	return in->src[i] < 128 || xs_src_const(in->src[i]);
}
static inline uint32_t gn_value(const xs_wave *w, const xs_inst *in, unsigned i)
{
	return xs_scalar32(w, in, in->src[i]);
}

/* Whether a wave's 32-bit op runs plain: no modifier (a literal is fine),
 * a 32-bit result, every lane in EXEC (xs_group_plain for one wave). */
static inline bool v_plain(const xs_wave *w, const xs_inst *in)
{
	return !(in->mods & ~XS_MOD_LIT) && !(xs_op_table[in->op].flags & XS_OPF_DST16) &&
	       xs_wave_exec(w) == xs_lane_full(w);
}

/* The plain forms' usual shapes with scalar sources, which keep the value
 * in a register (copied into a row for the lane loop to load back, it was
 * a good part of these handlers' time): a scalar src0 and a VGPR src1 (a
 * VOP2's constant or SGPR), and a VGPR src0 with two scalars (a shift and
 * add's constants). LANES_* run one wave's n lanes of expr over a, b, c;
 * the group handlers (GN) and the wave's (V2, V3, ADDSUB) share them. */
#define SHAPE_SV(in) (gn_scalar(in, 0) && (in)->src[1] >= XS_SRC_VGPR)
#define SHAPE_VSS(in) ((in)->src[0] >= XS_SRC_VGPR && gn_scalar(in, 1) && gn_scalar(in, 2))
#define LANES_SV(wv, in, n, expr)                                               \
	do {                                                                    \
		xs_wave *const w_ = (wv);                                       \
		const uint32_t a = gn_value(w_, in, 0), c = 0;                  \
		const uint32_t *B_ = w_->v[((in)->src[1] - XS_SRC_VGPR) & 0xff]; \
		uint32_t *r_ = xs_vrow(w_, (in)->dst);                          \
		(void)c;                                                        \
		for (unsigned l = 0, n_l = (n); l < n_l; l++) {                 \
			const uint32_t b = B_[l];                               \
			(void)b;                                                \
			r_[l] = (uint32_t)(expr);                               \
		}                                                               \
	} while (0)
#define LANES_VSS(wv, in, n, expr)                                              \
	do {                                                                    \
		xs_wave *const w_ = (wv);                                       \
		const uint32_t b = gn_value(w_, in, 1), c = gn_value(w_, in, 2); \
		const uint32_t *A_ = w_->v[((in)->src[0] - XS_SRC_VGPR) & 0xff]; \
		uint32_t *r_ = xs_vrow(w_, (in)->dst);                          \
		(void)b, (void)c;                                               \
		for (unsigned l = 0, n_l = (n); l < n_l; l++) {                 \
			const uint32_t a = A_[l];                               \
			(void)a;                                                \
			r_[l] = (uint32_t)(expr);                               \
		}                                                               \
	} while (0)

/* One-, two-, three-source 32-bit ops: a, b, c are lane values, l the lane. */
#define V1(name, expr)                                                          \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		XS_VFRAME1;                                                     \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			uint32_t a = A[l];                                      \
			r[l] = (uint32_t)(expr);                                \
		}                                                               \
		XS_VFRAME_END;                                                  \
	}
/* The same over the waves of a lockstep step (xs_exec_group_fn), for a
 * plain form of an op with nsrc (1..3) sources a, b, c: one call for the
 * group, where the lockstep loop would call the handler once per wave;
 * the scalar shapes (SHAPE_SV, SHAPE_VSS) tested once for the group. */
#define GN(name, nsrc, expr)                                                    \
	static int g_##name(xs_exec *x, xs_wave *const *ws, unsigned nw, const xs_inst *in) \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		if (!xs_group_plain(ws, nw, in, &c_))                           \
			return -1;                                              \
		const unsigned n_ = c_.n;                                       \
		/* (the scalar shapes' lane counts constants: whole vectors, \
		 * no loop control or remainder) */                             \
		if ((nsrc) == 2 && SHAPE_SV(in)) {                             \
			for (unsigned j = 0; j < nw; j++)                       \
				if (n_ == 32)                                   \
					LANES_SV(ws[j], in, 32, expr);          \
				else                                            \
					LANES_SV(ws[j], in, 64, expr);          \
			return (int)nw;                                         \
		}                                                               \
		if ((nsrc) == 3 && SHAPE_VSS(in)) {                             \
			for (unsigned j = 0; j < nw; j++)                       \
				if (n_ == 32)                                   \
					LANES_VSS(ws[j], in, 32, expr);         \
				else                                            \
					LANES_VSS(ws[j], in, 64, expr);         \
			return (int)nw;                                         \
		}                                                               \
		for (unsigned j = 0; j < nw; j++) {                             \
			xs_wave *w = ws[j];                                     \
			uint32_t t0[LANES], t1[LANES], t2[LANES];               \
			const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);       \
			const uint32_t *B = (nsrc) > 1 ? xs_vsrc32(&c_, w, in, 1, t1) : A; \
			const uint32_t *C = (nsrc) > 2 ? xs_vsrc32(&c_, w, in, 2, t2) : A; \
			uint32_t *r = xs_vrow(w, in->dst);                      \
			for (unsigned l = 0; l < n_; l++) {                     \
				uint32_t a = A[l], b = B[l], c = C[l];          \
				(void)b, (void)c;                               \
				r[l] = (uint32_t)(expr);                        \
			}                                                       \
		}                                                               \
		return (int)nw;                                                 \
	}
#define G1(name, expr) GN(name, 1, expr)
#define G2(name, expr) GN(name, 2, expr)
#define G3(name, expr) GN(name, 3, expr)

/* The plain forms' shapes with scalar sources (GN's: no rows of the
 * scalars), one wave's lanes with a constant count: returns from the
 * handler when the instruction has that shape. */
#define FAST_SV(expr)                                                           \
	if (SHAPE_SV(in) && v_plain(w, in)) {                                   \
		if (w->lanes == 32)                                             \
			LANES_SV(w, in, 32, expr);                              \
		else                                                            \
			LANES_SV(w, in, 64, expr);                              \
		return 0;                                                       \
	}
#define FAST_VSS(expr)                                                          \
	if (SHAPE_VSS(in) && v_plain(w, in)) {                                  \
		if (w->lanes == 32)                                             \
			LANES_VSS(w, in, 32, expr);                             \
		else                                                            \
			LANES_VSS(w, in, 64, expr);                             \
		return 0;                                                       \
	}

#define V2(name, expr)                                                          \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		FAST_SV(expr);                                          \
		XS_VFRAME2;                                                     \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			uint32_t a = A[l], b = B[l];                            \
			r[l] = (uint32_t)(expr);                                \
		}                                                               \
		XS_VFRAME_END;                                                  \
	}
#define V3(name, expr)                                                          \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		FAST_VSS(expr);                                         \
		XS_VFRAME3;                                                     \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			uint32_t a = A[l], b = B[l], c = C[l];                  \
			r[l] = (uint32_t)(expr);                                \
		}                                                               \
		XS_VFRAME_END;                                                  \
	}
/* The lanes of an integer op whose clamp saturates (the ISA's integer
 * clamp, as ADDSUB does for v_add_nc_*): load reads the lane's sources
 * (a, b and for three sources c, from the rows A, B, C), expr is the
 * result wrapped to 32 bits (a 16-bit result's low half is what xs_vdst32
 * keeps), exact the exact result as int64_t, which clamp saturates to
 * [lo, hi]. */
#define CLAMP_LANES(load, expr, lo, hi, exact)                                  \
	do {                                                                    \
		if (!(in->mods & XS_MOD_CLAMP)) {                               \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				load;                                           \
				r[l] = (uint32_t)(expr);                        \
			}                                                       \
		} else {                                                        \
			for (unsigned l = 0, n_ = c_.n; l < n_; l++) {          \
				load;                                           \
				int64_t v = (exact);                            \
				r[l] = (uint32_t)(v < (lo) ? (lo) : v > (hi) ? (hi) : v); \
			}                                                       \
		}                                                               \
	} while (0)
/* Three sources (v_mad_u32_u24 and the like); V2C the two-source VOP3
 * forms of VOP2 integer ops (LLVM's AMDGPUModifierSyntax: "for integer
 * operations, clamp modifier indicates that the result must be clamped to
 * the largest and smallest representable value"; RDNA2 ISA 6.5, ALU Clamp
 * Bit Usage). The plain forms take V3's and V2's fast paths. */
#define V3C(name, expr, lo, hi, exact)                                          \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		FAST_VSS(expr);                                         \
		XS_VFRAME3;                                                     \
		CLAMP_LANES(uint32_t a = A[l]; uint32_t b = B[l]; uint32_t c = C[l], expr, lo, hi, exact); \
		XS_VFRAME_END;                                                  \
	}
#define V2C(name, expr, lo, hi, exact)                                          \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		FAST_SV(expr);                                          \
		XS_VFRAME2;                                                     \
		CLAMP_LANES(uint32_t a = A[l]; uint32_t b = B[l], expr, lo, hi, exact); \
		XS_VFRAME_END;                                                  \
	}

static inline int32_t sext24(uint32_t v) { return (int32_t)(v << 8) >> 8; }
static inline uint32_t umin(uint32_t a, uint32_t b) { return a < b ? a : b; }
static inline uint32_t umax(uint32_t a, uint32_t b) { return a > b ? a : b; }
static inline int32_t imin(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t imax(int32_t a, int32_t b) { return a > b ? a : b; }
static inline uint32_t umed3(uint32_t a, uint32_t b, uint32_t c) { return umax(umin(a, b), umin(umax(a, b), c)); }
static inline int32_t imed3(int32_t a, int32_t b, int32_t c) { return imax(imin(a, b), imin(imax(a, b), c)); }
static inline uint32_t bfe_u(uint32_t v, uint32_t off, uint32_t wd)
{
	off &= 31;
	wd &= 31;
	return wd ? (v >> off) & ((wd == 32 ? 0u : (1u << wd)) - 1u) : 0;
}
static inline uint32_t bfe_i(uint32_t v, uint32_t off, uint32_t wd)
{
	off &= 31;
	wd &= 31;
	if (!wd)
		return 0;
	int32_t s = (int32_t)v >> off;
	uint32_t sh = 32 - wd;
	return (uint32_t)((int32_t)((uint32_t)s << sh) >> sh);
}
static inline uint32_t brev32(uint32_t v)
{
	v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
	v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
	v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
	return __builtin_bswap32(v);
}
/* Leading bits equal to the sign bit, the sign bit included (RDNA2 ISA
 * V_FFBH_I32 examples: 0x40000000 -> 1, 0x0fffffff -> 4, 0xfffffffe -> 31,
 * 0 and -1 -> -1). */
static inline uint32_t ffbh_i(uint32_t v)
{
	if ((int32_t)v < 0)
		v = ~v;
	return v ? (uint32_t)__builtin_clz(v) : ~0u;
}
/* The byte SAD of a and b; masked, the bytes whose reference (b) byte is
 * 0 are left out (v_msad_u8: CLRX's GCN documentation, V_MSAD_U8; Mesa's
 * nir msad_4x8 is the same sum). */
static inline uint32_t sad_bytes(uint32_t a, uint32_t b, bool masked)
{
	uint32_t s = 0;
	for (unsigned i = 0; i < 32; i += 8) {
		int d = (int)((a >> i) & 0xff) - (int)((b >> i) & 0xff);
		s += masked && !((b >> i) & 0xff) ? 0 : (uint32_t)(d < 0 ? -d : d);
	}
	return s;
}
static inline uint32_t sad_u8(uint32_t a, uint32_t b) { return sad_bytes(a, b, false); }
static inline uint32_t msad_u8(uint32_t a, uint32_t b) { return sad_bytes(a, b, true); }
static inline uint32_t sad_u16(uint32_t a, uint32_t b)
{
	return (uint32_t)abs((int)(a & 0xffff) - (int)(b & 0xffff)) +
	       (uint32_t)abs((int)(a >> 16) - (int)(b >> 16));
}
static inline uint32_t lerp_u8(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t r = 0;
	for (unsigned i = 0; i < 32; i += 8)
		r |= ((((a >> i) & 0xff) + ((b >> i) & 0xff) + ((c >> i) & 1)) >> 1) << i;
	return r;
}
static inline uint32_t perm_b32(uint32_t hi, uint32_t lo, uint32_t sel)
{
	uint64_t v = (uint64_t)hi << 32 | lo;
	uint32_t r = 0;
	for (unsigned i = 0; i < 4; i++) {
		unsigned s = (sel >> (8 * i)) & 0xff;
		uint32_t byte;
		if (s < 8)
			byte = (uint32_t)(v >> (8 * s)) & 0xff;
		else if (s < 12) {
			/* sign of a 16-bit half replicated: bytes 1, 3, 5, 7 */
			unsigned src = (s - 8) * 2 + 1;
			byte = ((v >> (8 * src + 7)) & 1) ? 0xff : 0;
		} else if (s == 12)
			byte = 0;
		else
			byte = 0xff;
		r |= byte << (8 * i);
	}
	return r;
}
/* The exact sums of products of the dot products (without the
 * accumulator): int64_t, so that a clamp can saturate the sum with it. */
static inline int64_t dot4_i8(uint32_t a, uint32_t b)
{
	int32_t s = 0;
	for (unsigned i = 0; i < 32; i += 8)
		s += (int32_t)(int8_t)(a >> i) * (int32_t)(int8_t)(b >> i);
	return s;
}
static inline int64_t dot4_u8(uint32_t a, uint32_t b)
{
	uint32_t s = 0;
	for (unsigned i = 0; i < 32; i += 8)
		s += ((a >> i) & 0xff) * ((b >> i) & 0xff);
	return s;
}
static inline int64_t dot2_i16(uint32_t a, uint32_t b)
{
	/* each product fits in int32_t, their sum need not (2 * -32768 * -32768 = 2^31) */
	return (int64_t)((int32_t)(int16_t)a * (int16_t)b) + (int32_t)(int16_t)(a >> 16) * (int16_t)(b >> 16);
}
static inline int64_t dot2_u16(uint32_t a, uint32_t b)
{
	return (int64_t)((a & 0xffff) * (b & 0xffff)) + (a >> 16) * (b >> 16);
}
static inline int64_t dot8_i4(uint32_t a, uint32_t b)
{
	int32_t s = 0;
	for (unsigned i = 0; i < 32; i += 4)
		s += ((int32_t)(a << (28 - i)) >> 28) * ((int32_t)(b << (28 - i)) >> 28);
	return s;
}
static inline int64_t dot8_u4(uint32_t a, uint32_t b)
{
	uint32_t s = 0;
	for (unsigned i = 0; i < 32; i += 4)
		s += ((a >> i) & 15) * ((b >> i) & 15);
	return s;
}

/* ---- VOP2 / VOP1 / VOP3 bodies ------------------------------------------------ */
V1(v_mov_b32, a)
G1(v_mov_b32, a)
V1(v_not_b32, ~a)
V1(v_bfrev_b32, brev32(a))
V1(v_ffbh_u32, a ? (uint32_t)__builtin_clz(a) : ~0u)
V1(v_ffbl_b32, a ? (uint32_t)__builtin_ctz(a) : ~0u)
V1(v_ffbh_i32, ffbh_i(a))
/* The low 32 bits of a product are the same signed or unsigned: multiply the
 * sign-extended 24-bit values as uint32_t (as int32_t the product overflows). */
V2C(v_mul_i32_i24, (uint32_t)sext24(a) * (uint32_t)sext24(b),
    INT32_MIN, INT32_MAX, (int64_t)sext24(a) * sext24(b))
V2(v_mul_hi_i32_i24, (uint32_t)(((int64_t)sext24(a) * sext24(b)) >> 32))
V2C(v_mul_u32_u24, (a & 0xffffff) * (b & 0xffffff),
    0, UINT32_MAX, (int64_t)(a & 0xffffff) * (b & 0xffffff))
V2(v_mul_hi_u32_u24, (uint32_t)(((uint64_t)(a & 0xffffff) * (b & 0xffffff)) >> 32))
V2(v_min_i32, imin((int32_t)a, (int32_t)b))
V2(v_max_i32, imax((int32_t)a, (int32_t)b))
V2(v_min_u32, umin(a, b))
V2(v_max_u32, umax(a, b))
V2(v_lshrrev_b32, b >> (a & 31))
G2(v_lshrrev_b32, b >> (a & 31))
V2(v_ashrrev_i32, (int32_t)b >> (a & 31))
V2(v_lshlrev_b32, b << (a & 31))
G2(v_lshlrev_b32, b << (a & 31))
V2(v_and_b32, a & b)
G2(v_and_b32, a & b)
V2(v_or_b32, a | b)
G2(v_or_b32, a | b)
V2(v_xor_b32, a ^ b)
V2(v_xnor_b32, ~(a ^ b))
V2(v_mul_lo_u32, a * b)
V2(v_mul_hi_u32, (uint32_t)(((uint64_t)a * b) >> 32))
V2(v_mul_hi_i32, (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32))
V2(v_bfm_b32, ((1u << (a & 31)) - 1u) << (b & 31))
V2(v_bcnt_u32_b32, (uint32_t)__builtin_popcount(a) + b)
V2(v_mbcnt_lo_u32_b32, (uint32_t)__builtin_popcount(a & (l >= 32 ? ~0u : (1u << l) - 1u)) + b)
V2(v_mbcnt_hi_u32_b32, (uint32_t)__builtin_popcount(a & (l < 32 ? 0u : (1u << (l - 32)) - 1u)) + b)
V2(v_cvt_pk_u16_u32, umin(a, 0xffff) | umin(b, 0xffff) << 16)
V2(v_cvt_pk_i16_i32, ((uint32_t)imed3((int32_t)a, -32768, 32767) & 0xffff) |
			 ((uint32_t)imed3((int32_t)b, -32768, 32767) << 16))
V3C(v_mad_i32_i24, (uint32_t)sext24(a) * (uint32_t)sext24(b) + c,
    INT32_MIN, INT32_MAX, (int64_t)sext24(a) * sext24(b) + (int32_t)c)
V3C(v_mad_u32_u24, (a & 0xffffff) * (b & 0xffffff) + c,
    0, UINT32_MAX, (int64_t)(a & 0xffffff) * (b & 0xffffff) + c)
V3(v_bfe_u32, bfe_u(a, b, c))
V3(v_bfe_i32, bfe_i(a, b, c))
V3(v_bfi_b32, (a & b) | (~a & c))
V3(v_alignbit_b32, (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31)))
V3(v_alignbyte_b32, (uint32_t)((((uint64_t)a << 32) | b) >> (8 * (c & 3))))
V3(v_min3_i32, imin(imin((int32_t)a, (int32_t)b), (int32_t)c))
V3(v_min3_u32, umin(umin(a, b), c))
V3(v_max3_i32, imax(imax((int32_t)a, (int32_t)b), (int32_t)c))
V3(v_max3_u32, umax(umax(a, b), c))
V3(v_med3_i32, imed3((int32_t)a, (int32_t)b, (int32_t)c))
V3(v_med3_u32, umed3(a, b, c))
/* The SADs add a u32 accumulator: with clamp the sum saturates to u32. */
V3C(v_sad_u8, sad_u8(a, b) + c, 0, UINT32_MAX, (int64_t)sad_u8(a, b) + c)
V3C(v_sad_hi_u8, (sad_u8(a, b) << 16) + c, 0, UINT32_MAX, ((int64_t)sad_u8(a, b) << 16) + c)
/* v_sad_u16: both packed u16 halves, a 32-bit result (gen_ops_def.py WORD_NAMED) */
V3C(v_sad_u16, sad_u16(a, b) + c, 0, UINT32_MAX, (int64_t)sad_u16(a, b) + c)
V3C(v_sad_u32, (a > b ? a - b : b - a) + c, 0, UINT32_MAX, (int64_t)(a > b ? a - b : b - a) + c)
V3(v_lerp_u8, lerp_u8(a, b, c))
V3C(v_msad_u8, msad_u8(a, b) + c, 0, UINT32_MAX, (int64_t)msad_u8(a, b) + c)

/* The quad SADs: four (masked) byte SADs of the reference src1 against the
 * four byte windows of src0's 64 bits that start at bytes 0..3, window i
 * accumulated onto the i-th 16-bit (the _pk forms, 64-bit src2 and result)
 * or 32-bit (v_mqsad_u32_u8: four VGPRs) field of src2 and truncated to
 * the field, or with clamp saturated to it (clang's AMDGPU builtin
 * reference: "each entry of the 4x u16 accumulator c. Results are
 * truncated to 16 bits and packed"; clamp as the other SADs). */
static int quad_sad(xs_exec *x, xs_wave *w, const xs_inst *in, bool masked, bool u32)
{
	xs_vctx c_;
	xs_vbegin(w, &c_);
	const bool clamp = (in->mods & XS_MOD_CLAMP) != 0;
	const unsigned n = c_.n;
	uint64_t a64[LANES], c64[LANES];
	uint32_t t1[LANES], acc[4][LANES], out[4][LANES];
	xs_vsrc64(w, in, 0, a64);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	const unsigned s2 = in->src[2];
	if (u32) {
		/* a 128-bit accumulator: four VGPRs or four SGPRs */
		if (s2 < XS_SRC_VGPR && s2 > 124)
			return xs_exec_unimpl(x, w, in, "a 128-bit src2 that is not a register");
		for (unsigned k = 0; k < 4; k++)
			for (unsigned l = 0; l < n; l++)
				acc[k][l] = s2 >= XS_SRC_VGPR ? w->v[(s2 - XS_SRC_VGPR + k) & 0xff][l]
							      : w->s[(s2 + k) & 127];
	} else {
		xs_vsrc64(w, in, 2, c64);
		for (unsigned k = 0; k < 4; k++)
			for (unsigned l = 0; l < n; l++)
				acc[k][l] = (uint32_t)(c64[l] >> (16 * k)) & 0xffff;
	}
	const uint64_t lim = u32 ? UINT32_MAX : 0xffff;
	for (unsigned k = 0; k < 4; k++)
		for (unsigned l = 0; l < n; l++) {
			uint32_t win = (uint32_t)(a64[l] >> (8 * k));
			uint64_t sum = (uint64_t)sad_bytes(win, B[l], masked) + acc[k][l];
			out[k][l] = (uint32_t)(clamp && sum > lim ? lim : sum & lim);
		}
	if (u32) {
		for (unsigned k = 0; k < 4; k++)
			xs_vstore_rows(w->v[(in->dst - XS_SRC_VGPR + k) & 0xff], out[k], c_.mask, n);
	} else {
		uint64_t r64[LANES];
		for (unsigned l = 0; l < n; l++)
			r64[l] = out[0][l] | (uint64_t)out[1][l] << 16 | (uint64_t)out[2][l] << 32 |
				 (uint64_t)out[3][l] << 48;
		xs_vdst64(&c_, w, in, r64);
	}
	return 0;
}
XS_EXEC(v_qsad_pk_u16_u8) { return quad_sad(x, w, in, false, false); }
XS_EXEC(v_mqsad_pk_u16_u8) { return quad_sad(x, w, in, true, false); }
XS_EXEC(v_mqsad_u32_u8) { return quad_sad(x, w, in, true, true); }
V3(v_xor3_b32, a ^ b ^ c)
V3(v_perm_b32, perm_b32(a, b, c))
V3(v_xad_u32, (a ^ b) + c)
V3(v_lshl_add_u32, (a << (b & 31)) + c)
G3(v_lshl_add_u32, (a << (b & 31)) + c)
V3(v_add_lshl_u32, (a + b) << (c & 31))
V3(v_add3_u32, a + b + c)
G3(v_add3_u32, a + b + c)
V3(v_lshl_or_b32, (a << (b & 31)) | c)
G3(v_lshl_or_b32, (a << (b & 31)) | c)
V3(v_and_or_b32, (a & b) | c)
G3(v_and_or_b32, (a & b) | c)
V3(v_or3_b32, a | b | c)
V3C(v_mad_u32_u16, (a & 0xffff) * (b & 0xffff) + c,
    0, UINT32_MAX, (int64_t)((a & 0xffff) * (b & 0xffff)) + c)
V3C(v_mad_i32_i16, (uint32_t)((int32_t)(int16_t)a * (int16_t)b) + c,
    INT32_MIN, INT32_MAX, (int64_t)((int32_t)(int16_t)a * (int16_t)b) + (int32_t)c)
V3(v_dot4c_i32_i8, (uint32_t)dot4_i8(a, b) + c)

/* 16-bit integer ops (sources already op_sel-selected; results are 16-bit). */
V2(v_mul_lo_u16, (a * b) & 0xffff)
V2(v_lshlrev_b16, (b << (a & 15)) & 0xffff)
V2(v_lshrrev_b16, (b & 0xffff) >> (a & 15))
V2(v_ashrrev_i16, (uint32_t)((int16_t)b >> (a & 15)) & 0xffff)
V2(v_max_u16, umax(a & 0xffff, b & 0xffff))
V2(v_min_u16, umin(a & 0xffff, b & 0xffff))
V2(v_max_i16, (uint32_t)imax((int16_t)a, (int16_t)b) & 0xffff)
V2(v_min_i16, (uint32_t)imin((int16_t)a, (int16_t)b) & 0xffff)
V3C(v_mad_u16, ((a & 0xffff) * (b & 0xffff) + c) & 0xffff,
    0, 0xffff, (int64_t)((a & 0xffff) * (b & 0xffff)) + (c & 0xffff))
V3C(v_mad_i16, (uint32_t)((int16_t)a * (int16_t)b + (int16_t)c) & 0xffff,
    INT16_MIN, INT16_MAX, (int64_t)((int16_t)a * (int16_t)b) + (int16_t)c)
V3(v_min3_u16, umin(umin(a & 0xffff, b & 0xffff), c & 0xffff))
V3(v_max3_u16, umax(umax(a & 0xffff, b & 0xffff), c & 0xffff))
V3(v_med3_u16, umed3(a & 0xffff, b & 0xffff, c & 0xffff))
V3(v_min3_i16, (uint32_t)imin(imin((int16_t)a, (int16_t)b), (int16_t)c) & 0xffff)
V3(v_max3_i16, (uint32_t)imax(imax((int16_t)a, (int16_t)b), (int16_t)c) & 0xffff)
V3(v_med3_i16, (uint32_t)imed3((int16_t)a, (int16_t)b, (int16_t)c) & 0xffff)

/* Adds and subtracts without carry out; clamp saturates. */
#define ADDSUB(name, T, W, expr, lo, hi)                                        \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		if (SHAPE_SV(in) && v_plain(w, in)) {                           \
			/* V2's scalar shape, the values typed (plain: no clamp, a 32-bit result) */ \
			const int64_t a = (T)(W)gn_value(w, in, 0);            \
			const uint32_t *B = w->v[(in->src[1] - XS_SRC_VGPR) & 0xff]; \
			uint32_t *r = xs_vrow(w, in->dst);                      \
			for (unsigned l = 0, n_ = w->lanes; l < n_; l++) {      \
				const int64_t b = (T)(W)B[l];                   \
				r[l] = (uint32_t)(expr);                        \
			}                                                       \
			return 0;                                               \
		}                                                               \
		XS_VFRAME2;                                                     \
		bool clamp = (in->mods & XS_MOD_CLAMP) != 0;                    \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                           \
			int64_t a = (T)(W)A[l], b = (T)(W)B[l], v = (expr);     \
			if (clamp)                                              \
				v = v < (lo) ? (lo) : v > (hi) ? (hi) : v;      \
			r[l] = (uint32_t)v;                                     \
		}                                                               \
		XS_VFRAME_END;                                                  \
	}
ADDSUB(v_add_nc_u32, int64_t, uint32_t, a + b, 0, 0xffffffffll)
G2(v_add_nc_u32, a + b) /* (no clamp in a plain form) */
ADDSUB(v_sub_nc_u32, int64_t, uint32_t, a - b, 0, 0xffffffffll)
ADDSUB(v_subrev_nc_u32, int64_t, uint32_t, b - a, 0, 0xffffffffll)
ADDSUB(v_add_nc_i32, int64_t, int32_t, a + b, INT32_MIN, INT32_MAX)
ADDSUB(v_sub_nc_i32, int64_t, int32_t, a - b, INT32_MIN, INT32_MAX)
ADDSUB(v_add_nc_u16, int64_t, uint16_t, a + b, 0, 0xffff)
ADDSUB(v_sub_nc_u16, int64_t, uint16_t, a - b, 0, 0xffff)
ADDSUB(v_add_nc_i16, int64_t, int16_t, a + b, INT16_MIN, INT16_MAX)
ADDSUB(v_sub_nc_i16, int64_t, int16_t, a - b, INT16_MIN, INT16_MAX)

/* Carry out to sdst (VCC for e32); *_ci take the carry in from src2.
 * The ISA's carry is the unbounded result leaving [0, 2^32): for x + y + ci
 * the 32-bit sum wrapped (r < x, or r <= x with a carry in); for x - y - ci
 * it went below 0 (x < y, or x <= y with a borrow in), which is also the
 * clamp's "negative". Computed in 32-bit lanes as per-lane flags
 * (xs_flags_to_mask): the loops vectorise 8 or 16 lanes wide. SUBREV swaps
 * the operands. */
enum { ADDC_ADD, ADDC_SUB, ADDC_SUBREV };

/* The lanes of one: the carries first (r may be a source row), then the
 * results (lane-by-lane row stores read back by the next instruction's
 * vector loads stall); returns the carry mask. Called with a constant n
 * (32 or 64), so that the loops are whole vectors with no remainder, and
 * with src0 either a row A or, when a_scalar, the value ak in every lane
 * (an address's SGPR base: no broadcast row to write and read back). */
static inline __attribute__((always_inline)) uint64_t addc_lanes(int kind, bool has_cin, const uint32_t *A,
								  uint32_t ak, bool a_scalar, const uint32_t *B,
								  const uint32_t *cl, uint32_t *r, unsigned n)
{
	uint32_t cf[LANES];
	for (unsigned l = 0; l < n; l++) {
		uint32_t av = a_scalar ? ak : A[l], bv = B[l], ci = has_cin ? cl[l] : 0;
		uint32_t xv = kind == ADDC_SUBREV ? bv : av, yv = kind == ADDC_SUBREV ? av : bv;
		if (kind == ADDC_ADD) {
			uint32_t rv = xv + yv + ci;
			cf[l] = (rv < xv) | (ci & (rv == xv));
		} else {
			cf[l] = (xv < yv) | (ci & (xv == yv));
		}
	}
	/* r may be A or B itself, never offset from them: lane l reads only
	 * lane l, so no iteration depends on another */
	XS_IVDEP
	for (unsigned l = 0; l < n; l++) {
		uint32_t av = a_scalar ? ak : A[l], bv = B[l], ci = has_cin ? cl[l] : 0;
		uint32_t xv = kind == ADDC_SUBREV ? bv : av, yv = kind == ADDC_SUBREV ? av : bv;
		r[l] = kind == ADDC_ADD ? xv + yv + ci : xv - yv - ci;
	}
	return xs_flags_to_mask(cf, n);
}

/* One wave's lanes (its lane count n, 32 or 64, made a constant for
 * addc_lanes): the carry in cin as flags, src0 a row A or (as) the value
 * ak; returns the carry mask. */
static inline __attribute__((always_inline)) uint64_t addc_wave(int kind, bool has_cin, bool as, const uint32_t *A,
								 uint32_t ak, const uint32_t *B, uint64_t cin,
								 uint32_t *r, unsigned n)
{
	uint32_t cl[LANES];
	if (n == 32) {
		if (has_cin)
			xs_mask_to_flags(cin, 32, cl);
		return as ? addc_lanes(kind, has_cin, A, ak, true, B, cl, r, 32)
			  : addc_lanes(kind, has_cin, A, 0, false, B, cl, r, 32);
	}
	if (has_cin)
		xs_mask_to_flags(cin, 64, cl);
	return as ? addc_lanes(kind, has_cin, A, ak, true, B, cl, r, 64)
		  : addc_lanes(kind, has_cin, A, 0, false, B, cl, r, 64);
}

#define ADDC(name, kind, has_cin)                                               \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES], t1[LANES], rt[LANES];                       \
		/* an unmodified SGPR src0 is one value (what xs_vsrc32 would  \
		 * broadcast) */                                                \
		bool as = in->src[0] < XS_SRC_INT0 && !(in->mods & XS_VSRC_MODS(0)); \
		uint32_t ak = as ? w->s[in->src[0]] : 0;                        \
		const uint32_t *A = as ? NULL : xs_vsrc32(&c_, w, in, 0, t0);   \
		const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);               \
		uint64_t cin = has_cin ? xs_rd_mask(w, in, in->src[2]) : 0;     \
		uint32_t *r = xs_vdst_row(&c_, w, in, rt);                      \
		bool clamp = (in->mods & XS_MOD_CLAMP) != 0;                    \
		uint64_t co = addc_wave(kind, has_cin, as, A, ak, B, cin, r, c_.n); \
		if (clamp) /* saturate: a sum to 2^32 - 1, a difference to 0 */ \
			for (uint64_t m = co; m; m &= m - 1)                    \
				r[__builtin_ctzll(m)] = (kind) == ADDC_ADD ? 0xffffffffu : 0; \
		xs_vdst_done(&c_, w, in, r);                                    \
		xs_wr_mask(w, in->sdst, co & c_.mask);                          \
		return 0;                                                       \
	}
ADDC(v_add_co_u32, ADDC_ADD, false)
ADDC(v_sub_co_u32, ADDC_SUB, false)
ADDC(v_subrev_co_u32, ADDC_SUBREV, false)
ADDC(v_add_co_ci_u32, ADDC_ADD, true)
ADDC(v_sub_co_ci_u32, ADDC_SUB, true)
ADDC(v_subrev_co_ci_u32, ADDC_SUBREV, true)

/* The same over the waves of a lockstep step, plain forms (no clamp). */
#define ADDC_G(name, kind, has_cin)                                             \
	static int g_##name(xs_exec *x, xs_wave *const *ws, unsigned nw, const xs_inst *in) \
	{                                                                       \
		xs_vctx c_;                                                     \
		if (!xs_group_plain(ws, nw, in, &c_))                           \
			return -1;                                              \
		const bool as = in->src[0] < XS_SRC_INT0;                       \
		for (unsigned j = 0; j < nw; j++) {                             \
			xs_wave *w = ws[j];                                     \
			uint32_t t0[LANES], t1[LANES];                          \
			uint32_t ak = as ? w->s[in->src[0]] : 0;                \
			const uint32_t *A = as ? NULL : xs_vsrc32(&c_, w, in, 0, t0); \
			const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);       \
			uint64_t cin = has_cin ? xs_rd_mask(w, in, in->src[2]) : 0; \
			uint64_t co = addc_wave(kind, has_cin, as, A, ak, B, cin, xs_vrow(w, in->dst), c_.n); \
			xs_wr_mask(w, in->sdst, co & c_.mask);                  \
		}                                                               \
		return (int)nw;                                                 \
	}
ADDC_G(v_add_co_u32, ADDC_ADD, false)
ADDC_G(v_add_co_ci_u32, ADDC_ADD, true)
ADDC_G(v_sub_co_u32, ADDC_SUB, false)
ADDC_G(v_sub_co_ci_u32, ADDC_SUB, true)

XS_EXEC(v_cndmask_b32)
{
	(void)x;
	xs_vctx c_;
	xs_vbegin(w, &c_);
	uint32_t t0[LANES], t1[LANES], rt[LANES];
	const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
	const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
	uint64_t m = xs_rd_mask(w, in, in->src[2]);
	uint32_t *r = xs_vdst_row(&c_, w, in, rt);
	for (unsigned l = 0, n_ = c_.n; l < n_; l++)
		r[l] = ((m >> l) & 1) ? B[l] : A[l];
	XS_VFRAME_END;
}

/* 64-bit sources and results of the integer ops below (no float
 * modifiers apply to them) over a constant lane count n, the row pair's
 * halves joined and split in loops of whole vectors; anything else (a
 * scalar or constant source, a partial EXEC) goes through xs_vsrc64 /
 * xs_vdst64. */
static inline __attribute__((always_inline)) void src64_lanes(const xs_wave *w, const xs_inst *in, unsigned i,
							       uint64_t *tmp, unsigned n)
{
	unsigned s = in->src[i];
	if (s < XS_SRC_VGPR) {
		xs_vsrc64(w, in, i, tmp);
		return;
	}
	const uint32_t *lo = w->v[(s - XS_SRC_VGPR) & 0xff], *hi = w->v[(s - XS_SRC_VGPR + 1) & 0xff];
	for (unsigned l = 0; l < n; l++)
		tmp[l] = lo[l] | (uint64_t)hi[l] << 32;
}

static inline __attribute__((always_inline)) void dst64_lanes(xs_vctx *c, xs_wave *w, const xs_inst *in,
							       uint64_t *res, unsigned n)
{
	if (c->mask != (n == 64 ? ~0ull : 0xffffffffull)) {
		xs_vdst64(c, w, in, res);
		return;
	}
	unsigned r = (in->dst - XS_SRC_VGPR) & 0xff;
	uint32_t *lo = w->v[r], *hi = w->v[(r + 1) & 0xff];
	for (unsigned l = 0; l < n; l++) {
		lo[l] = (uint32_t)res[l];
		hi[l] = (uint32_t)(res[l] >> 32);
	}
}

/* 64-bit shifts: the shift amount is src0 (32-bit), the value src1. The
 * integer ops here have no output modifiers: xs_vdst64 would only store. */
#define SH64(name, expr)                                                        \
	static inline __attribute__((always_inline)) void name##_lanes(xs_vctx *c, xs_wave *w, \
								      const xs_inst *in, const uint32_t *A, \
								      unsigned n) \
	{                                                                       \
		uint64_t t1[LANES], r[LANES];                                   \
		src64_lanes(w, in, 1, t1, n);                                   \
		for (unsigned l = 0; l < n; l++) {                              \
			unsigned s = A[l] & 63;                                 \
			uint64_t b = t1[l];                                     \
			r[l] = (expr);                                          \
		}                                                               \
		dst64_lanes(c, w, in, r, n);                                    \
	}                                                                       \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES];                                             \
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);               \
		XS_BY_LANES(c_.n, name##_lanes, &c_, w, in, A);                 \
		return 0;                                                       \
	}
SH64(v_lshlrev_b64, b << s)

/* A wave's VGPR pair d = its pair s shifted left by k (shift) or plus k, in
 * 64-bit lanes: the scalar shapes of g_v_lshlrev_b64 and g_v_mad_u64_u32,
 * where k is the same for every lane. Lane by lane, so d may be s. */
static inline __attribute__((always_inline)) void pair_lanes(xs_wave *w, unsigned s, unsigned d, unsigned n,
							      uint64_t k, bool shift)
{
	const uint32_t *lo = w->v[s], *hi = w->v[(s + 1) & 0xff];
	uint32_t *dlo = w->v[d], *dhi = w->v[(d + 1) & 0xff];
	for (unsigned l = 0; l < n; l++) {
		const uint64_t b = lo[l] | (uint64_t)hi[l] << 32, v = shift ? b << k : b + k;
		dlo[l] = (uint32_t)v;
		dhi[l] = (uint32_t)(v >> 32);
	}
}

/* plain v_lshlrev_b64 over the waves of a lockstep step (a 64-bit index
 * made a byte offset) */
static int g_v_lshlrev_b64(xs_exec *x, xs_wave *const *ws, unsigned nw, const xs_inst *in)
{
	xs_vctx c_;
	if (!xs_group_plain(ws, nw, in, &c_))
		return -1;
	if (SHAPE_SV(in)) {
		/* one shift for every lane (GN's scalar shape): no row of it */
		const unsigned n = c_.n, s1 = in->src[1] - XS_SRC_VGPR, d = in->dst - XS_SRC_VGPR;
		for (unsigned j = 0; j < nw; j++)
			pair_lanes(ws[j], s1, d, n, gn_value(ws[j], in, 0) & 63, true);
		return (int)nw;
	}
	for (unsigned j = 0; j < nw; j++) {
		xs_wave *w = ws[j];
		uint32_t t0[LANES];
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
		XS_BY_LANES(c_.n, v_lshlrev_b64_lanes, &c_, w, in, A);
	}
	return (int)nw;
}
SH64(v_lshrrev_b64, b >> s)
SH64(v_ashrrev_i64, (uint64_t)((int64_t)b >> s))

/* D = src0 * src1 + src2 (64-bit), sdst = carry out of the 64-bit add: with the product in 64 bits
 * (it fits), the carry is the 64-bit sum's unsigned overflow (u64: the sum
 * wrapped below C) or signed overflow (i64: both addends' signs differ
 * from the sum's), the same as the 128-bit sum not fitting; kept in 64-bit
 * lanes and per-lane flags so that the loop vectorises. */
#define MAD64(name, MUL)                                                        \
	static inline __attribute__((always_inline)) uint64_t name##_lanes(xs_vctx *c, xs_wave *w, \
									  const xs_inst *in, const uint32_t *A, \
									  const uint32_t *B, unsigned n) \
	{                                                                       \
		uint32_t cf[LANES];                                             \
		uint64_t t2[LANES], r[LANES];                                   \
		src64_lanes(w, in, 2, t2, n);                                   \
		for (unsigned l = 0; l < n; l++) {                              \
			uint64_t p = MUL, s = p + t2[l];                        \
			r[l] = s;                                               \
			cf[l] = MUL##_CARRY;                                    \
		}                                                               \
		dst64_lanes(c, w, in, r, n);                                    \
		return xs_flags_to_mask(cf, n);                                 \
	}                                                                       \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES], t1[LANES];                                  \
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);               \
		const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);               \
		uint64_t co = XS_BY_LANES(c_.n, name##_lanes, &c_, w, in, A, B); \
		xs_wr_mask(w, in->sdst, co & c_.mask);                          \
		return 0;                                                       \
	}
#define U64MUL ((uint64_t)A[l] * B[l])
#define U64MUL_CARRY (s < t2[l])
#define I64MUL ((uint64_t)((int64_t)(int32_t)A[l] * (int32_t)B[l]))
#define I64MUL_CARRY ((uint32_t)((((p ^ s) & (t2[l] ^ s)) >> 63) != 0))
MAD64(v_mad_u64_u32, U64MUL)
/* plain v_mad_u64_u32 over the waves of a lockstep step (a work-item's
 * global id) */
static int g_v_mad_u64_u32(xs_exec *x, xs_wave *const *ws, unsigned nw, const xs_inst *in)
{
	xs_vctx c_;
	if (!xs_group_plain(ws, nw, in, &c_))
		return -1;
	if (gn_scalar(in, 0) && gn_scalar(in, 1) && in->src[2] >= XS_SRC_VGPR && in->sdst == XS_SREG_NULL) {
		/* a product the same in every lane (a group's id times its
		 * size) added to a VGPR pair, its carries not kept (how the
		 * compilers form a global id): one multiply a wave */
		const unsigned n = c_.n, s2 = in->src[2] - XS_SRC_VGPR, d = in->dst - XS_SRC_VGPR;
		for (unsigned j = 0; j < nw; j++)
			pair_lanes(ws[j], s2, d, n, (uint64_t)gn_value(ws[j], in, 0) * gn_value(ws[j], in, 1), false);
		return (int)nw;
	}
	for (unsigned j = 0; j < nw; j++) {
		xs_wave *w = ws[j];
		uint32_t t0[LANES], t1[LANES];
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);
		const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);
		uint64_t co = XS_BY_LANES(c_.n, v_mad_u64_u32_lanes, &c_, w, in, A, B);
		xs_wr_mask(w, in->sdst, co & c_.mask);
	}
	return (int)nw;
}
MAD64(v_mad_i64_i32, I64MUL)

/* ---- lane access -------------------------------------------------------------- */
XS_EXEC(v_readfirstlane_b32)
{
	(void)x;
	uint64_t e = xs_wave_exec(w);
	unsigned lane = e ? (unsigned)__builtin_ctzll(e) : 0;
	unsigned s = in->src[0];
	xs_swrite(w, in->dst, s >= XS_SRC_VGPR ? w->v[s - XS_SRC_VGPR][lane] : xs_sread(w, in, s));
	return 0;
}

XS_EXEC(v_readlane_b32)
{
	(void)x;
	unsigned lane = xs_sread(w, in, in->src[1]) & (w->lanes - 1);
	unsigned s = in->src[0];
	xs_swrite(w, in->dst, s >= XS_SRC_VGPR ? w->v[s - XS_SRC_VGPR][lane] : xs_sread(w, in, s));
	return 0;
}

XS_EXEC(v_writelane_b32)
{
	(void)x;
	/* writes one lane whatever EXEC says */
	unsigned lane = xs_sread(w, in, in->src[1]) & (w->lanes - 1);
	xs_vrow(w, in->dst)[lane] = xs_sread(w, in, in->src[0]);
	return 0;
}

/* The lane of a readlane or writelane (src1), when the same for every
 * wave of a lockstep step: a constant (a spill slot's lane), else -1. */
static inline int lane_const(const xs_wave *w, const xs_inst *in)
{
	if (xs_src_const(in->src[1]))
		return (int)(xs_sread(w, in, in->src[1]) & (w->lanes - 1));
	return -1;
}

/* v_readlane_b32 and v_writelane_b32 over the waves of a lockstep step:
 * together a quarter of an -O0 kernel's instructions (SGPR spills to
 * VGPR lanes), which each wave's handler ran with a read of each operand
 * through xs_sread. With an SGPR data operand and a constant lane, one
 * copy a wave; other forms wave by wave. */
static int g_v_readlane_b32(xs_exec *x, xs_wave *const *ws, unsigned n, const xs_inst *in)
{
	const int lane = lane_const(ws[0], in);
	const unsigned d = in->dst, s = in->src[0];
	if (lane >= 0 && s >= XS_SRC_VGPR && d < 128 && d != XS_SREG_NULL) { /* (as xs_swrite) */
		for (unsigned j = 0; j < n; j++)
			ws[j]->s[d] = ws[j]->v[s - XS_SRC_VGPR][lane];
		return (int)n;
	}
	for (unsigned j = 0; j < n; j++)
		x_v_readlane_b32(x, ws[j], in);
	return (int)n;
}

static int g_v_writelane_b32(xs_exec *x, xs_wave *const *ws, unsigned n, const xs_inst *in)
{
	const int lane = lane_const(ws[0], in);
	const unsigned s = in->src[0];
	if (lane >= 0 && s < 128) {
		for (unsigned j = 0; j < n; j++)
			xs_vrow(ws[j], in->dst)[lane] = ws[j]->s[s];
		return (int)n;
	}
	for (unsigned j = 0; j < n; j++)
		x_v_writelane_b32(x, ws[j], in);
	return (int)n;
}

/* VGPR indexing through M0: the source (or first) VGPR at + so, the
 * destination (or second) at + dof; v_swaprel_b32 exchanges the two. The
 * VOP1 v_movrel* add M0 to the side they index; gfx10's two-index forms
 * take the source's from M0[9:0] and the destination's from M0[25:16]
 * (the RDNA ISA's table of indexing instructions). Out of range faults. */
static int movrel(xs_exec *x, xs_wave *w, const xs_inst *in, unsigned so, unsigned dof, bool swap)
{
	unsigned s = in->src[0], d = in->dst - XS_SRC_VGPR + dof;
	if (s < XS_SRC_VGPR)
		return xs_exec_unimpl(x, w, in, "scalar source");
	s = s - XS_SRC_VGPR + so;
	if (s >= w->nvgpr || d >= w->nvgpr)
		return xs_exec_fault(x, w, in, XS_FAULT_ILLEGAL, 0, "M0-relative VGPR index out of range");
	uint64_t e = xs_wave_exec(w);
	for (unsigned l = 0; l < w->lanes; l++)
		if ((e >> l) & 1) {
			uint32_t t = w->v[d][l];
			w->v[d][l] = w->v[s][l];
			if (swap)
				w->v[s][l] = t;
		}
	return 0;
}
#define M0 (w->s[XS_SREG_M0])
XS_EXEC(v_movrels_b32) { return movrel(x, w, in, M0, 0, false); }
XS_EXEC(v_movreld_b32) { return movrel(x, w, in, 0, M0, false); }
XS_EXEC(v_movrelsd_b32) { return movrel(x, w, in, M0, M0, false); }
XS_EXEC(v_movrelsd_2_b32) { return movrel(x, w, in, M0 & 0x3ff, (M0 >> 16) & 0x3ff, false); }
XS_EXEC(v_swaprel_b32) { return movrel(x, w, in, M0 & 0x3ff, (M0 >> 16) & 0x3ff, true); }
#undef M0

XS_EXEC(v_swap_b32)
{
	(void)x;
	if (in->src[0] < XS_SRC_VGPR)
		return xs_exec_unimpl(x, w, in, "scalar source");
	uint32_t *a = xs_vrow(w, in->dst), *b = xs_vrow(w, in->src[0]);
	uint64_t e = xs_wave_exec(w);
	for (unsigned l = 0; l < w->lanes; l++) {
		if ((e >> l) & 1) {
			uint32_t t = a[l];
			a[l] = b[l];
			b[l] = t;
		}
	}
	return 0;
}

/* v_permlane16 / v_permlanex16: per row of 16 lanes, lane i reads lane
 * sel(i) of the same row (x16: of the other row of the pair); the 64-bit
 * select is src1 (lanes 0-7) : src2 (lanes 8-15), 4 bits each. op_sel[0] =
 * fetch inactive, op_sel[1] = bound_ctrl (unused here: sources never leave
 * the row). */
static int permlane(xs_exec *x, xs_wave *w, const xs_inst *in, bool cross)
{
	/* src0 is a VGPR row (LLVM takes nothing else; as v_swap_b32) */
	if (in->src[0] < XS_SRC_VGPR)
		return xs_exec_unimpl(x, w, in, "scalar source");
	uint64_t sel = xs_sread(w, in, in->src[1]) | (uint64_t)xs_sread(w, in, in->src[2]) << 32;
	bool fi = (in->mods & XS_MOD_OPSEL(0)) != 0;
	uint64_t e = xs_wave_exec(w);
	const uint32_t *s = xs_vrow(w, in->src[0]);
	uint32_t old[LANES], r[LANES];
	uint32_t *d = xs_vrow(w, in->dst);
	memcpy(old, d, w->lanes * 4);
	for (unsigned l = 0; l < w->lanes; l++) {
		unsigned row = l >> 4, src_row = cross ? row ^ 1 : row;
		unsigned sl = src_row * 16 + (unsigned)((sel >> (4 * (l & 15))) & 15);
		r[l] = (sl < w->lanes && (fi || ((e >> sl) & 1))) ? s[sl] : old[l];
	}
	xs_vstore_rows(d, r, e, w->lanes);
	return 0;
}
XS_EXEC(v_permlane16_b32) { return permlane(x, w, in, false); }
XS_EXEC(v_permlanex16_b32) { return permlane(x, w, in, true); }

XS_EXEC(v_nop) { XS_UNUSED_HANDLER_ARGS; return 0; }

/* ---- VOP3P packed integer ops: each half with its own op_sel / op_sel_hi. ---- */
static inline uint32_t pk_half(uint32_t v, bool hi) { return hi ? v >> 16 : v & 0xffff; }

/* expr over the halves a, b, c of type T, computed in int64_t, its low 16
 * bits kept; for the ops that saturate (sat), clamp saturates the exact
 * result to [lo, hi] first (the ISA's integer clamp, as for the VOP3
 * v_add_nc_* in ADDSUB; LLVM selects v_pk_add_u16 ... clamp for
 * uadd.sat.v2i16). Shifts, min/max and the low half of a product have none. */
#define PK_T(name, T, expr, sat, lo, hi)                                        \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		xs_vctx c_;                                                     \
		xs_vbegin(w, &c_);                                              \
		uint32_t t0[LANES], t1[LANES], t2[LANES], r[LANES];             \
		const uint32_t *A = xs_vsrc32(&c_, w, in, 0, t0);               \
		const uint32_t *B = xs_vsrc32(&c_, w, in, 1, t1);               \
		const uint32_t *C = xs_vsrc32(&c_, w, in, 2, t2);               \
		uint32_t m = in->mods;                                          \
		bool clamp = (sat) && (m & XS_MOD_CLAMP) != 0;                  \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                  \
			uint32_t res = 0;                                       \
			for (unsigned h = 0; h < 2; h++) {                      \
				uint32_t sel = h ? m >> 10 : m >> 6;            \
				int64_t a = (T)pk_half(A[l], sel & 1);          \
				int64_t b = (T)pk_half(B[l], (sel >> 1) & 1);   \
				int64_t c = (T)pk_half(C[l], (sel >> 2) & 1);   \
				(void)c;                                        \
				int64_t v = (expr);                             \
				if (clamp)                                      \
					v = v < (lo) ? (lo) : v > (hi) ? (hi) : v; \
				res |= ((uint32_t)v & 0xffff) << (16 * h);      \
			}                                                       \
			r[l] = res;                                             \
		}                                                               \
		xs_vstore_rows(xs_vrow(w, in->dst), r, c_.mask, c_.n);          \
		return 0;                                                       \
	}
#define PK(name, expr) PK_T(name, uint16_t, expr, false, 0, 0)
#define PK_U(name, expr) PK_T(name, uint16_t, expr, true, 0, 0xffff)
#define PK_I(name, expr) PK_T(name, int16_t, expr, true, INT16_MIN, INT16_MAX)
PK_I(v_pk_mad_i16, a * b + c)
PK_U(v_pk_mad_u16, a * b + c)
PK(v_pk_mul_lo_u16, a * b)
PK_I(v_pk_add_i16, a + b)
PK_I(v_pk_sub_i16, a - b)
PK_U(v_pk_add_u16, a + b)
PK_U(v_pk_sub_u16, a - b)
PK(v_pk_lshlrev_b16, b << (a & 15))
PK(v_pk_lshrrev_b16, b >> (a & 15))
PK(v_pk_ashrrev_i16, (int16_t)b >> (a & 15))
PK(v_pk_max_i16, imax((int16_t)a, (int16_t)b))
PK(v_pk_min_i16, imin((int16_t)a, (int16_t)b))
PK(v_pk_max_u16, umax(a, b))
PK(v_pk_min_u16, umin(a, b))

/* VOP3P dot products. The 16-bit dots select each source's halves as the
 * packed ops do (LLVM types their sources v2i16 and emits op_sel:[0,1,0]
 * for sdot2 with a shuffled operand): op_sel[i] picks the half of source i
 * for the low product, op_sel_hi[i] for the high one. dot2_sel repacks
 * them as {low, high}. The 8- and 4-bit dots have no halves to select (LLVM
 * rejects op_sel on them: "op_sel not allowed in dot opcodes with 4- or
 * 8-bit packed data"), nor has the 32-bit accumulator. */
static inline uint32_t dot2_sel(uint32_t v, uint32_t mods, unsigned i)
{
	return pk_half(v, (mods & XS_MOD_OPSEL(i)) != 0) | pk_half(v, (mods & XS_MOD_OPSEL_HI(i)) != 0) << 16;
}
/* sum: the exact sum of products of a, b; the accumulator c is added as
 * T (int32_t or uint32_t). With clamp the exact result saturates to
 * [lo, hi], T's range (the ISA's integer clamp; LLVM's sdot/udot intrinsics' clamp
 * operand, Mesa ACO's sdot_4x8_iadd_sat -> v_dot4_i32_i8 clamp), else it
 * wraps to 32 bits. */
#define DOT(name, T, lo, hi, sum)                                               \
	XS_EXEC(name)                                                           \
	{                                                                       \
		(void)x;                                                        \
		XS_VFRAME3;                                                     \
		const bool clamp = (in->mods & XS_MOD_CLAMP) != 0;              \
		for (unsigned l = 0, n_ = c_.n; l < n_; l++) {                  \
			uint32_t a = A[l], b = B[l];                            \
			int64_t v = (sum) + (T)C[l];                            \
			if (clamp)                                              \
				v = v < (lo) ? (lo) : v > (hi) ? (hi) : v;      \
			r[l] = (uint32_t)v;                                     \
		}                                                               \
		XS_VFRAME_END;                                                  \
	}
DOT(v_dot2_i32_i16, int32_t, INT32_MIN, INT32_MAX, dot2_i16(dot2_sel(a, in->mods, 0), dot2_sel(b, in->mods, 1)))
DOT(v_dot2_u32_u16, uint32_t, 0, UINT32_MAX, dot2_u16(dot2_sel(a, in->mods, 0), dot2_sel(b, in->mods, 1)))
DOT(v_dot4_i32_i8, int32_t, INT32_MIN, INT32_MAX, dot4_i8(a, b))
DOT(v_dot4_u32_u8, uint32_t, 0, UINT32_MAX, dot4_u8(a, b))
DOT(v_dot8_i32_i4, int32_t, INT32_MIN, INT32_MAX, dot8_i4(a, b))
DOT(v_dot8_u32_u4, uint32_t, 0, UINT32_MAX, dot8_u4(a, b))

void xs_exec_register_valu(void)
{
	XS_REG(v_mov_b32); XS_REG(v_not_b32); XS_REG(v_bfrev_b32); XS_REG(v_ffbh_u32);
	XS_REG(v_ffbl_b32); XS_REG(v_ffbh_i32);
	XS_REG(v_mul_i32_i24); XS_REG(v_mul_hi_i32_i24); XS_REG(v_mul_u32_u24); XS_REG(v_mul_hi_u32_u24);
	XS_REG(v_min_i32); XS_REG(v_max_i32); XS_REG(v_min_u32); XS_REG(v_max_u32);
	XS_REG(v_lshrrev_b32); XS_REG(v_ashrrev_i32); XS_REG(v_lshlrev_b32);
	XS_REG(v_and_b32); XS_REG(v_or_b32); XS_REG(v_xor_b32); XS_REG(v_xnor_b32);
	XS_REG(v_mul_lo_u32); XS_REG(v_mul_hi_u32); XS_REG(v_mul_hi_i32);
	XS_REG(v_bfm_b32); XS_REG(v_bcnt_u32_b32); XS_REG(v_mbcnt_lo_u32_b32); XS_REG(v_mbcnt_hi_u32_b32);
	XS_REG(v_cvt_pk_u16_u32); XS_REG(v_cvt_pk_i16_i32);
	XS_REG(v_mad_i32_i24); XS_REG(v_mad_u32_u24); XS_REG(v_bfe_u32); XS_REG(v_bfe_i32);
	XS_REG(v_bfi_b32); XS_REG(v_alignbit_b32); XS_REG(v_alignbyte_b32);
	XS_REG(v_min3_i32); XS_REG(v_min3_u32); XS_REG(v_max3_i32); XS_REG(v_max3_u32);
	XS_REG(v_med3_i32); XS_REG(v_med3_u32);
	XS_REG(v_sad_u8); XS_REG(v_sad_hi_u8); XS_REG(v_sad_u16); XS_REG(v_sad_u32); XS_REG(v_lerp_u8);
	XS_REG(v_msad_u8); XS_REG(v_qsad_pk_u16_u8); XS_REG(v_mqsad_pk_u16_u8); XS_REG(v_mqsad_u32_u8);
	XS_REG(v_xor3_b32); XS_REG(v_perm_b32); XS_REG(v_xad_u32); XS_REG(v_lshl_add_u32);
	XS_REG(v_add_lshl_u32); XS_REG(v_add3_u32); XS_REG(v_lshl_or_b32); XS_REG(v_and_or_b32);
	XS_REG(v_or3_b32); XS_REG(v_mad_u32_u16); XS_REG(v_mad_i32_i16); XS_REG(v_dot4c_i32_i8);
	XS_REG(v_mul_lo_u16); XS_REG(v_lshlrev_b16); XS_REG(v_lshrrev_b16); XS_REG(v_ashrrev_i16);
	XS_REG(v_max_u16); XS_REG(v_min_u16); XS_REG(v_max_i16); XS_REG(v_min_i16);
	XS_REG(v_mad_u16); XS_REG(v_mad_i16); XS_REG(v_min3_u16); XS_REG(v_max3_u16); XS_REG(v_med3_u16);
	XS_REG(v_min3_i16); XS_REG(v_max3_i16); XS_REG(v_med3_i16);
	XS_REG(v_add_nc_u32); XS_REG(v_sub_nc_u32); XS_REG(v_subrev_nc_u32);
	XS_REG(v_add_nc_i32); XS_REG(v_sub_nc_i32);
	XS_REG(v_add_nc_u16); XS_REG(v_sub_nc_u16); XS_REG(v_add_nc_i16); XS_REG(v_sub_nc_i16);
	XS_REG(v_add_co_u32); XS_REG(v_sub_co_u32); XS_REG(v_subrev_co_u32);
	XS_REG(v_add_co_ci_u32); XS_REG(v_sub_co_ci_u32); XS_REG(v_subrev_co_ci_u32);
	XS_REG(v_cndmask_b32);
	XS_REG(v_lshlrev_b64); XS_REG(v_lshrrev_b64); XS_REG(v_ashrrev_i64);
	XS_REG(v_mad_u64_u32); XS_REG(v_mad_i64_i32);
	/* group handlers (lockstep): the forms streaming and tiled kernels
	 * run most */
	XS_REG_GROUP(v_mov_b32, g_v_mov_b32); XS_REG_GROUP(v_add_nc_u32, g_v_add_nc_u32);
	XS_REG_GROUP(v_lshrrev_b32, g_v_lshrrev_b32); XS_REG_GROUP(v_lshlrev_b32, g_v_lshlrev_b32);
	XS_REG_GROUP(v_and_b32, g_v_and_b32); XS_REG_GROUP(v_or_b32, g_v_or_b32);
	XS_REG_GROUP(v_add_co_u32, g_v_add_co_u32); XS_REG_GROUP(v_add_co_ci_u32, g_v_add_co_ci_u32);
	XS_REG_GROUP(v_sub_co_u32, g_v_sub_co_u32); XS_REG_GROUP(v_sub_co_ci_u32, g_v_sub_co_ci_u32);
	XS_REG_GROUP(v_lshlrev_b64, g_v_lshlrev_b64); XS_REG_GROUP(v_mad_u64_u32, g_v_mad_u64_u32);
	XS_REG_GROUP(v_readlane_b32, g_v_readlane_b32); XS_REG_GROUP(v_writelane_b32, g_v_writelane_b32);
	XS_REG_GROUP(v_lshl_add_u32, g_v_lshl_add_u32); XS_REG_GROUP(v_add3_u32, g_v_add3_u32);
	XS_REG_GROUP(v_lshl_or_b32, g_v_lshl_or_b32); XS_REG_GROUP(v_and_or_b32, g_v_and_or_b32);
	XS_REG(v_readfirstlane_b32); XS_REG(v_readlane_b32); XS_REG(v_writelane_b32);
	XS_REG(v_movrels_b32); XS_REG(v_movreld_b32); XS_REG(v_movrelsd_b32); XS_REG(v_movrelsd_2_b32); XS_REG(v_swaprel_b32); XS_REG(v_swap_b32);
	XS_REG(v_permlane16_b32); XS_REG(v_permlanex16_b32);
	XS_REG(v_nop); XS_REG_AS(v_pipeflush, x_v_nop); XS_REG_AS(v_clrexcp, x_v_nop);
	XS_REG(v_pk_mad_i16); XS_REG(v_pk_mad_u16); XS_REG(v_pk_mul_lo_u16); XS_REG(v_pk_add_i16);
	XS_REG(v_pk_sub_i16); XS_REG(v_pk_add_u16); XS_REG(v_pk_sub_u16); XS_REG(v_pk_lshlrev_b16);
	XS_REG(v_pk_lshrrev_b16); XS_REG(v_pk_ashrrev_i16); XS_REG(v_pk_max_i16); XS_REG(v_pk_min_i16);
	XS_REG(v_pk_max_u16); XS_REG(v_pk_min_u16);
	XS_REG(v_dot2_i32_i16); XS_REG(v_dot2_u32_u16); XS_REG(v_dot4_i32_i8); XS_REG(v_dot4_u32_u8);
	XS_REG(v_dot8_i32_i4); XS_REG(v_dot8_u32_u4);
}
