/*
 * LDS (DS encoding, gds = 0): reads, writes, two-address forms, atomics,
 * swizzle and lane permutes.
 *
 * Address = addr VGPR + offset (16-bit, or offset0/offset1 in units of the
 * element size, x64 for the st64 forms). gfx10 does not clamp LDS addresses
 * with M0. An access outside the work-group's allocation reads 0 and its
 * write is dropped, as on hardware (no fault). Lanes run in order, so LDS
 * atomics between lanes of one wave are sequential; the waves of a
 * work-group share one host thread (the SPI runs a group on one worker).
 */
#include "isa/xs_isa_priv.h"

#ifdef __AVX2__
#include <immintrin.h>
#endif

static inline bool in_lds(const xs_wave *w, uint32_t a, unsigned n)
{
	return w->lds && (uint64_t)a + n <= w->lds_size;
}

static inline void lds_rd(const xs_wave *w, uint32_t a, void *dst, unsigned n)
{
	if (in_lds(w, a, n))
		memcpy(dst, w->lds + a, n);
	else
		memset(dst, 0, n);
}

static inline void lds_wr(xs_wave *w, uint32_t a, const void *src, unsigned n)
{
	if (in_lds(w, a, n))
		memcpy(w->lds + a, src, n);
}

#define LANE_LOOP(...)                                                         \
	do {                                                                    \
		uint64_t e_ = xs_wave_exec(w);                                  \
		for (unsigned l = 0; l < w->lanes; l++) {                       \
			if (!((e_ >> l) & 1))                                   \
				continue;                                       \
			uint32_t base = w->v[(in->src[0] - XS_SRC_VGPR) & 0xff][l]; \
			(void)base;                                             \
			__VA_ARGS__                                             \
		}                                                               \
	} while (0)

#define VREG(op, k) w->v[((op) - XS_SRC_VGPR + (k)) & 0xff][l]
#define OFF16 ((uint32_t)in->imm & 0xffff)
#define OFF0 ((uint32_t)in->imm & 0xff)
#define OFF1 (in->ext & 0xff)

/* ---- the plain reads and writes, the hot LDS path ----------------------------------
 * ds_read_b*, ds_write_b* of whole dwords (one address, or the two of the *2* forms)
 * are most of what LDS-bound kernels execute (a tiled matrix multiply is one
 * ds_read2_b32 per v_fmac_f32). They run the same per-lane definition as the
 * LANE_LOOP bodies, with what every lane needs in locals: the rows of the
 * address, data and destination VGPRs, EXEC, and the LDS window (an absent
 * allocation is a window of 0 bytes: every access then reads 0 and drops its
 * write, as in_lds says). Their element sizes are constants (always_inline
 * bodies), so each element is one host load or store. Lanes still run in
 * order, one at a time, and a lane reads its operands before it writes its
 * destination lanes: the results are the per-lane definition's even when the
 * destination VGPRs overlap the address or data VGPRs, and later lanes win a
 * write to the same address. */
typedef struct lds_win {
	uint8_t *p;
	uint64_t size;
} lds_win;

static inline lds_win win_of(const xs_wave *w)
{
	return (lds_win){ w->lds, w->lds ? w->lds_size : 0 };
}

static inline __attribute__((always_inline)) void win_rd(lds_win m, uint32_t a, uint32_t *dst, unsigned ndw)
{
	if (XS_LIKELY((uint64_t)a + 4 * ndw <= m.size))
		memcpy(dst, m.p + a, 4 * ndw);
	else
		memset(dst, 0, 4 * ndw);
}

static inline __attribute__((always_inline)) void win_wr(lds_win m, uint32_t a, const uint32_t *src, unsigned ndw)
{
	if (XS_LIKELY((uint64_t)a + 4 * ndw <= m.size))
		memcpy(m.p + a, src, 4 * ndw);
}

/* Whether every lane of a full wave (n lanes) may skip its test: when
 * hi = the highest address VGPR value has hi + off_max + bytes within the
 * window, no lane's addr[l] + off wraps at 32 bits (the sum stays below
 * 2^32) and every access is inside. Otherwise, wrapping or not, the lanes
 * take the per-lane tests. Windows of 2 GiB or more never pass (the
 * gathers' indices are signed); LDS is at most 64 KiB. */
static inline __attribute__((always_inline)) bool win_all_in(lds_win m, const uint32_t *addr, unsigned n,
							      uint32_t off_max, unsigned bytes)
{
	/* hi + off_max + bytes <= size as hi <= lim: every lane compared with
	 * lim, with no horizontal maximum (its shuffles were a fifth of a
	 * tiled kernel's ds_read2 handler: perf, sgemm_tiled functional) */
	if (m.size > 0x7fffffffu || (uint64_t)off_max + bytes > m.size)
		return false;
	const uint32_t lim = (uint32_t)(m.size - off_max - bytes);
#if defined(__AVX512F__)
	__m512i v = _mm512_setzero_si512();
	for (unsigned l = 0; l < n; l += 16)
		v = _mm512_max_epu32(v, _mm512_loadu_si512((const void *)(addr + l)));
	return _mm512_cmpgt_epu32_mask(v, _mm512_set1_epi32((int)lim)) == 0;
#elif defined(__AVX2__)
	__m256i v = _mm256_setzero_si256();
	for (unsigned l = 0; l < n; l += 8)
		v = _mm256_max_epu32(v, _mm256_loadu_si256((const __m256i *)(const void *)(addr + l)));
	const __m256i L = _mm256_set1_epi32((int)lim); /* (no unsigned compare: max(v, L) == L) */
	return _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_max_epu32(v, L), L)) == -1;
#else
	uint32_t hi = 0;
	for (unsigned l = 0; l < n; l++)
		hi = addr[l] > hi ? addr[l] : hi;
	return hi <= lim;
#endif
}

/* Lanes per win_gather step: the host's vector width. The rows it writes
 * are read back by the next instruction's full-width vector loads, which
 * stall unless one store wrote all the bytes they read. */
#if defined(__AVX512F__)
#define GATHER_LANES 16
#else
#define GATHER_LANES 8
#endif

/* Lanes l .. l + GATHER_LANES - 1 of a full wave, every access inside
 * (win_all_in): the dwords at addr[l] + off0 (and + off1 when d1 is not NULL)
 * into d0[l] (d1[l]). Unaligned addresses are fine (LDS addresses need not
 * be aligned). The address lanes are read before the same destination lanes
 * are written, so a destination row that is the address row gets the
 * per-lane result. */
static inline __attribute__((always_inline)) void win_gather(lds_win m, const uint32_t *addr, unsigned l,
							      uint32_t off0, uint32_t off1, uint32_t *d0,
							      uint32_t *d1)
{
	/* The host's gathers (signed indices: below 2 GiB, see win_all_in):
	 * left to itself the compiler assembles the lanes one insert at a time.
	 * The two shapes LDS code uses most are cheaper as plain loads: lanes
	 * on consecutive dwords (a row of a tile) and lanes on one address (a
	 * broadcast); a gather's latency is what the next instruction, reading
	 * these rows, waits for. The values are the same whichever is used. */
#if defined(__AVX512F__)
	__m512i a = _mm512_loadu_si512((const void *)(addr + l));
	const uint32_t first = addr[l];
	const __m512i row = _mm512_add_epi32(_mm512_set1_epi32((int)first),
					     _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60));
	__m512i g0, g1 = _mm512_setzero_si512();
	if (_mm512_cmpeq_epi32_mask(a, row) == 0xffff) {
		g0 = _mm512_loadu_si512((const void *)(m.p + first + off0));
		if (d1)
			g1 = _mm512_loadu_si512((const void *)(m.p + first + off1));
	} else if (_mm512_cmpeq_epi32_mask(a, _mm512_set1_epi32((int)first)) == 0xffff) {
		uint32_t v0, v1;
		memcpy(&v0, m.p + first + off0, 4);
		g0 = _mm512_set1_epi32((int)v0);
		if (d1) {
			memcpy(&v1, m.p + first + off1, 4);
			g1 = _mm512_set1_epi32((int)v1);
		}
	} else {
		g0 = _mm512_i32gather_epi32(_mm512_add_epi32(a, _mm512_set1_epi32((int)off0)), (const void *)m.p, 1);
		if (d1)
			g1 = _mm512_i32gather_epi32(_mm512_add_epi32(a, _mm512_set1_epi32((int)off1)), (const void *)m.p, 1);
	}
	_mm512_storeu_si512((void *)(d0 + l), g0);
	if (d1)
		_mm512_storeu_si512((void *)(d1 + l), g1);
#elif defined(__AVX2__)
	__m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(addr + l));
	const uint32_t first = addr[l];
	const __m256i row = _mm256_add_epi32(_mm256_set1_epi32((int)first), _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28));
	__m256i g0, g1 = _mm256_setzero_si256();
	if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(a, row)) == -1) {
		g0 = _mm256_loadu_si256((const __m256i *)(const void *)(m.p + first + off0));
		if (d1)
			g1 = _mm256_loadu_si256((const __m256i *)(const void *)(m.p + first + off1));
	} else if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(a, _mm256_set1_epi32((int)first))) == -1) {
		uint32_t v0, v1;
		memcpy(&v0, m.p + first + off0, 4);
		g0 = _mm256_set1_epi32((int)v0);
		if (d1) {
			memcpy(&v1, m.p + first + off1, 4);
			g1 = _mm256_set1_epi32((int)v1);
		}
	} else {
		g0 = _mm256_i32gather_epi32((const int *)(const void *)m.p, _mm256_add_epi32(a, _mm256_set1_epi32((int)off0)), 1);
		if (d1)
			g1 = _mm256_i32gather_epi32((const int *)(const void *)m.p, _mm256_add_epi32(a, _mm256_set1_epi32((int)off1)), 1);
	}
	_mm256_storeu_si256((__m256i *)(void *)(d0 + l), g0);
	if (d1)
		_mm256_storeu_si256((__m256i *)(void *)(d1 + l), g1);
#else
	for (unsigned k = l; k < l + GATHER_LANES; k++) {
		uint32_t v0, v1 = 0, base = addr[k];
		memcpy(&v0, m.p + base + off0, 4);
		if (d1)
			memcpy(&v1, m.p + base + off1, 4);
		d0[k] = v0;
		if (d1)
			d1[k] = v1;
	}
#endif
}

/* The rows of VGPRs operand, operand + 1, ... (register numbers wrap at 256
 * as VREG's do). */
static inline __attribute__((always_inline)) void rows_of(xs_wave *w, unsigned operand, unsigned n, uint32_t **row)
{
	for (unsigned k = 0; k < n; k++)
		row[k] = w->v[(operand - XS_SRC_VGPR + k) & 0xff];
}

/* ---- writes ---------------------------------------------------------------------- */
static inline __attribute__((always_inline)) int write_n(xs_wave *w, const xs_inst *in, unsigned ndw)
{
	const lds_win m = win_of(w);
	const uint32_t *addr = xs_vrow(w, in->src[0]), off = OFF16;
	uint32_t *d[4];
	rows_of(w, in->src[1], ndw, d);
	const uint64_t e = xs_wave_exec(w);
	const unsigned n = w->lanes;
	if (ndw == 1 && e == xs_lane_full(w) && win_all_in(m, addr, n, off, 4)) {
		/* every lane active and inside: lanes on consecutive dwords (a
		 * tile's row) are one copy, as their addresses do not overlap;
		 * otherwise lane by lane in order, so the last lane to write an
		 * address wins */
		uint32_t first = addr[0], odd = 0;
		for (unsigned l = 0; l < n; l++)
			odd |= addr[l] ^ (first + 4 * l);
		if (!odd) {
			memcpy(m.p + first + off, d[0], 4 * n);
		} else {
			for (unsigned l = 0; l < n; l++)
				memcpy(m.p + addr[l] + off, &d[0][l], 4);
		}
		return 0;
	}
	for (unsigned l = 0; l < n; l++) {
		if (!((e >> l) & 1))
			continue;
		uint32_t v[4];
		for (unsigned k = 0; k < ndw; k++)
			v[k] = d[k][l];
		win_wr(m, addr[l] + off, v, ndw);
	}
	return 0;
}
XS_EXEC(ds_write_b32) { (void)x; return write_n(w, in, 1); }
XS_EXEC(ds_write_b64) { (void)x; return write_n(w, in, 2); }
XS_EXEC(ds_write_b96) { (void)x; return write_n(w, in, 3); }
XS_EXEC(ds_write_b128) { (void)x; return write_n(w, in, 4); }

static int write_sub(xs_wave *w, const xs_inst *in, unsigned bytes, unsigned shift)
{
	LANE_LOOP({
		uint32_t v = VREG(in->src[1], 0) >> shift;
		uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
		lds_wr(w, base + OFF16, b, bytes);
	});
	return 0;
}
XS_EXEC(ds_write_b8) { (void)x; return write_sub(w, in, 1, 0); }
XS_EXEC(ds_write_b16) { (void)x; return write_sub(w, in, 2, 0); }
XS_EXEC(ds_write_b8_d16_hi) { (void)x; return write_sub(w, in, 1, 16); }
XS_EXEC(ds_write_b16_d16_hi) { (void)x; return write_sub(w, in, 2, 16); }

static inline __attribute__((always_inline)) int write2(xs_wave *w, const xs_inst *in, unsigned ndw,
							 unsigned scale)
{
	const unsigned esz = 4 * ndw;
	const lds_win m = win_of(w);
	const uint32_t *addr = xs_vrow(w, in->src[0]);
	const uint32_t o0 = OFF0 * esz * scale, o1 = OFF1 * esz * scale;
	uint32_t *d0[2], *d1[2];
	rows_of(w, in->src[1], ndw, d0);
	rows_of(w, in->src[2], ndw, d1);
	const uint64_t e = xs_wave_exec(w);
	const unsigned n = w->lanes;
	for (unsigned l = 0; l < n; l++) {
		if (!((e >> l) & 1))
			continue;
		uint32_t a0[2], a1[2], base = addr[l];
		for (unsigned k = 0; k < ndw; k++) {
			a0[k] = d0[k][l];
			a1[k] = d1[k][l];
		}
		win_wr(m, base + o0, a0, ndw);
		win_wr(m, base + o1, a1, ndw);
	}
	return 0;
}
XS_EXEC(ds_write2_b32) { (void)x; return write2(w, in, 1, 1); }
XS_EXEC(ds_write2st64_b32) { (void)x; return write2(w, in, 1, 64); }
XS_EXEC(ds_write2_b64) { (void)x; return write2(w, in, 2, 1); }
XS_EXEC(ds_write2st64_b64) { (void)x; return write2(w, in, 2, 64); }

/* ---- reads ------------------------------------------------------------------------- */
static inline __attribute__((always_inline)) int read_n(xs_wave *w, const xs_inst *in, unsigned ndw)
{
	const lds_win m = win_of(w);
	const uint32_t *addr = xs_vrow(w, in->src[0]), off = OFF16;
	uint32_t *d[4];
	rows_of(w, in->dst, ndw, d);
	const uint64_t e = xs_wave_exec(w);
	const unsigned n = w->lanes;
	if (ndw == 1 && e == xs_lane_full(w) && win_all_in(m, addr, n, off, 4)) {
		for (unsigned l = 0; l < n; l += GATHER_LANES) /* every lane active and inside */
			win_gather(m, addr, l, off, 0, d[0], NULL);
		return 0;
	}
	for (unsigned l = 0; l < n; l++) {
		if (!((e >> l) & 1))
			continue;
		uint32_t v[4];
		win_rd(m, addr[l] + off, v, ndw);
		for (unsigned k = 0; k < ndw; k++)
			d[k][l] = v[k];
	}
	return 0;
}
XS_EXEC(ds_read_b32) { (void)x; return read_n(w, in, 1); }
XS_EXEC(ds_read_b64) { (void)x; return read_n(w, in, 2); }
XS_EXEC(ds_read_b96) { (void)x; return read_n(w, in, 3); }
XS_EXEC(ds_read_b128) { (void)x; return read_n(w, in, 4); }

/* sub-dword reads: kind 0 u8, 1 i8, 2 u16, 3 i16; d16: 0 none, 1 low half, 2 high half */
static int read_sub(xs_wave *w, const xs_inst *in, unsigned kind, unsigned d16)
{
	unsigned bytes = kind < 2 ? 1 : 2;
	LANE_LOOP({
		uint8_t b[2] = { 0, 0 };
		lds_rd(w, base + OFF16, b, bytes);
		uint32_t v = b[0] | (uint32_t)b[1] << 8;
		if (kind == 1)
			v = (uint32_t)(int32_t)(int8_t)v;
		else if (kind == 3)
			v = (uint32_t)(int32_t)(int16_t)v;
		uint32_t *d = &VREG(in->dst, 0);
		if (d16 == 1)
			*d = (*d & 0xffff0000u) | (v & 0xffff);
		else if (d16 == 2)
			*d = (*d & 0xffffu) | v << 16;
		else
			*d = v;
	});
	return 0;
}
XS_EXEC(ds_read_u8) { (void)x; return read_sub(w, in, 0, 0); }
XS_EXEC(ds_read_i8) { (void)x; return read_sub(w, in, 1, 0); }
XS_EXEC(ds_read_u16) { (void)x; return read_sub(w, in, 2, 0); }
XS_EXEC(ds_read_i16) { (void)x; return read_sub(w, in, 3, 0); }
XS_EXEC(ds_read_u8_d16) { (void)x; return read_sub(w, in, 0, 1); }
XS_EXEC(ds_read_u8_d16_hi) { (void)x; return read_sub(w, in, 0, 2); }
XS_EXEC(ds_read_i8_d16) { (void)x; return read_sub(w, in, 1, 1); }
XS_EXEC(ds_read_i8_d16_hi) { (void)x; return read_sub(w, in, 1, 2); }
XS_EXEC(ds_read_u16_d16) { (void)x; return read_sub(w, in, 2, 1); }
XS_EXEC(ds_read_u16_d16_hi) { (void)x; return read_sub(w, in, 2, 2); }

static inline __attribute__((always_inline)) int read2(xs_wave *w, const xs_inst *in, unsigned ndw,
							unsigned scale)
{
	const unsigned esz = 4 * ndw;
	const lds_win m = win_of(w);
	const uint32_t *addr = xs_vrow(w, in->src[0]);
	const uint32_t o0 = OFF0 * esz * scale, o1 = OFF1 * esz * scale;
	uint32_t *d[4];
	rows_of(w, in->dst, 2 * ndw, d);
	const uint64_t e = xs_wave_exec(w);
	const unsigned n = w->lanes;
	if (ndw == 1 && e == xs_lane_full(w) && win_all_in(m, addr, n, o0 > o1 ? o0 : o1, 4)) {
		for (unsigned l = 0; l < n; l += GATHER_LANES) /* every lane active, both dwords inside */
			win_gather(m, addr, l, o0, o1, d[0], d[1]);
		return 0;
	}
	for (unsigned l = 0; l < n; l++) {
		if (!((e >> l) & 1))
			continue;
		uint32_t v[4], base = addr[l];
		win_rd(m, base + o0, v, ndw);
		win_rd(m, base + o1, v + ndw, ndw);
		for (unsigned k = 0; k < 2 * ndw; k++)
			d[k][l] = v[k];
	}
	return 0;
}
XS_EXEC(ds_read2_b32) { (void)x; return read2(w, in, 1, 1); }
XS_EXEC(ds_read2st64_b32) { (void)x; return read2(w, in, 1, 64); }
XS_EXEC(ds_read2_b64) { (void)x; return read2(w, in, 2, 1); }
XS_EXEC(ds_read2st64_b64) { (void)x; return read2(w, in, 2, 64); }

/* ---- atomics ---------------------------------------------------------------------- */
enum {
	DA_ADD, DA_SUB, DA_RSUB, DA_INC, DA_DEC, DA_MIN_I, DA_MAX_I, DA_MIN_U, DA_MAX_U, DA_AND, DA_OR,
	DA_XOR, DA_MSKOR, DA_SWAP, DA_CMPST, DA_CMPST_F, DA_MIN_F, DA_MAX_F, DA_ADD_F, DA_WRAP,
};

static uint64_t ds_new(unsigned op, uint64_t old, uint64_t d0, uint64_t d1, bool b64)
{
	uint64_t m = b64 ? ~0ull : 0xffffffffull;
	switch (op) {
	case DA_ADD: return (old + d0) & m;
	case DA_SUB: return (old - d0) & m;
	case DA_RSUB: return (d0 - old) & m;
	case DA_INC: return old >= d0 ? 0 : old + 1;
	case DA_DEC: return (old == 0 || old > d0) ? d0 : old - 1;
	case DA_MIN_I: return b64 ? ((int64_t)old < (int64_t)d0 ? old : d0) : ((int32_t)old < (int32_t)d0 ? old : d0);
	case DA_MAX_I: return b64 ? ((int64_t)old > (int64_t)d0 ? old : d0) : ((int32_t)old > (int32_t)d0 ? old : d0);
	case DA_MIN_U: return old < d0 ? old : d0;
	case DA_MAX_U: return old > d0 ? old : d0;
	case DA_AND: return old & d0;
	case DA_OR: return old | d0;
	case DA_XOR: return old ^ d0;
	case DA_MSKOR: return (old & ~d0 & m) | d1;
	case DA_SWAP: return d0;
	case DA_CMPST: return old == d0 ? d1 : old;
	case DA_CMPST_F:
		if (b64)
			return xs_u2d(old) == xs_u2d(d0) ? d1 : old;
		return xs_u2f((uint32_t)old) == xs_u2f((uint32_t)d0) ? d1 : old;
	case DA_MIN_F:
		if (b64)
			return xs_d2u(fmin(xs_u2d(old), xs_u2d(d0)));
		return xs_f2u(fminf(xs_u2f((uint32_t)old), xs_u2f((uint32_t)d0)));
	case DA_MAX_F:
		if (b64)
			return xs_d2u(fmax(xs_u2d(old), xs_u2d(d0)));
		return xs_f2u(fmaxf(xs_u2f((uint32_t)old), xs_u2f((uint32_t)d0)));
	case DA_ADD_F: return xs_f2u(xs_u2f((uint32_t)old) + xs_u2f((uint32_t)d0));
	case DA_WRAP: return old >= d0 ? old - d0 : old + d1;
	default: return old;
	}
}

static int ds_atomic(xs_wave *w, const xs_inst *in, unsigned op, bool b64, bool rtn)
{
	unsigned sz = b64 ? 8 : 4;
	LANE_LOOP({
		uint32_t a = base + OFF16;
		uint64_t d0 = VREG(in->src[1], 0), d1 = VREG(in->src[2], 0), old = 0;
		if (b64) {
			d0 |= (uint64_t)VREG(in->src[1], 1) << 32;
			d1 |= (uint64_t)VREG(in->src[2], 1) << 32;
		}
		lds_rd(w, a, &old, sz);
		uint64_t nv = ds_new(op, old, d0, d1, b64);
		lds_wr(w, a, &nv, sz);
		if (rtn) {
			VREG(in->dst, 0) = (uint32_t)old;
			if (b64)
				VREG(in->dst, 1) = (uint32_t)(old >> 32);
		}
	});
	return 0;
}

#define DSA(name, op, b64, rtn) \
	XS_EXEC(name) { (void)x; return ds_atomic(w, in, op, b64, rtn); }
DSA(ds_add_u32, DA_ADD, false, false)            DSA(ds_add_rtn_u32, DA_ADD, false, true)
DSA(ds_sub_u32, DA_SUB, false, false)            DSA(ds_sub_rtn_u32, DA_SUB, false, true)
DSA(ds_rsub_u32, DA_RSUB, false, false)          DSA(ds_rsub_rtn_u32, DA_RSUB, false, true)
DSA(ds_inc_u32, DA_INC, false, false)            DSA(ds_inc_rtn_u32, DA_INC, false, true)
DSA(ds_dec_u32, DA_DEC, false, false)            DSA(ds_dec_rtn_u32, DA_DEC, false, true)
DSA(ds_min_i32, DA_MIN_I, false, false)          DSA(ds_min_rtn_i32, DA_MIN_I, false, true)
DSA(ds_max_i32, DA_MAX_I, false, false)          DSA(ds_max_rtn_i32, DA_MAX_I, false, true)
DSA(ds_min_u32, DA_MIN_U, false, false)          DSA(ds_min_rtn_u32, DA_MIN_U, false, true)
DSA(ds_max_u32, DA_MAX_U, false, false)          DSA(ds_max_rtn_u32, DA_MAX_U, false, true)
DSA(ds_and_b32, DA_AND, false, false)            DSA(ds_and_rtn_b32, DA_AND, false, true)
DSA(ds_or_b32, DA_OR, false, false)              DSA(ds_or_rtn_b32, DA_OR, false, true)
DSA(ds_xor_b32, DA_XOR, false, false)            DSA(ds_xor_rtn_b32, DA_XOR, false, true)
DSA(ds_mskor_b32, DA_MSKOR, false, false)        DSA(ds_mskor_rtn_b32, DA_MSKOR, false, true)
DSA(ds_cmpst_b32, DA_CMPST, false, false)        DSA(ds_cmpst_rtn_b32, DA_CMPST, false, true)
DSA(ds_cmpst_f32, DA_CMPST_F, false, false)      DSA(ds_cmpst_rtn_f32, DA_CMPST_F, false, true)
DSA(ds_min_f32, DA_MIN_F, false, false)          DSA(ds_min_rtn_f32, DA_MIN_F, false, true)
DSA(ds_max_f32, DA_MAX_F, false, false)          DSA(ds_max_rtn_f32, DA_MAX_F, false, true)
DSA(ds_add_f32, DA_ADD_F, false, false)          DSA(ds_add_rtn_f32, DA_ADD_F, false, true)
DSA(ds_wrxchg_rtn_b32, DA_SWAP, false, true)     DSA(ds_wrap_rtn_b32, DA_WRAP, false, true)
DSA(ds_add_u64, DA_ADD, true, false)             DSA(ds_add_rtn_u64, DA_ADD, true, true)
DSA(ds_sub_u64, DA_SUB, true, false)             DSA(ds_sub_rtn_u64, DA_SUB, true, true)
DSA(ds_rsub_u64, DA_RSUB, true, false)           DSA(ds_rsub_rtn_u64, DA_RSUB, true, true)
DSA(ds_inc_u64, DA_INC, true, false)             DSA(ds_inc_rtn_u64, DA_INC, true, true)
DSA(ds_dec_u64, DA_DEC, true, false)             DSA(ds_dec_rtn_u64, DA_DEC, true, true)
DSA(ds_min_i64, DA_MIN_I, true, false)           DSA(ds_min_rtn_i64, DA_MIN_I, true, true)
DSA(ds_max_i64, DA_MAX_I, true, false)           DSA(ds_max_rtn_i64, DA_MAX_I, true, true)
DSA(ds_min_u64, DA_MIN_U, true, false)           DSA(ds_min_rtn_u64, DA_MIN_U, true, true)
DSA(ds_max_u64, DA_MAX_U, true, false)           DSA(ds_max_rtn_u64, DA_MAX_U, true, true)
DSA(ds_and_b64, DA_AND, true, false)             DSA(ds_and_rtn_b64, DA_AND, true, true)
DSA(ds_or_b64, DA_OR, true, false)               DSA(ds_or_rtn_b64, DA_OR, true, true)
DSA(ds_xor_b64, DA_XOR, true, false)             DSA(ds_xor_rtn_b64, DA_XOR, true, true)
DSA(ds_mskor_b64, DA_MSKOR, true, false)         DSA(ds_mskor_rtn_b64, DA_MSKOR, true, true)
DSA(ds_cmpst_b64, DA_CMPST, true, false)         DSA(ds_cmpst_rtn_b64, DA_CMPST, true, true)
DSA(ds_cmpst_f64, DA_CMPST_F, true, false)       DSA(ds_cmpst_rtn_f64, DA_CMPST_F, true, true)
DSA(ds_min_f64, DA_MIN_F, true, false)           DSA(ds_min_rtn_f64, DA_MIN_F, true, true)
DSA(ds_max_f64, DA_MAX_F, true, false)           DSA(ds_max_rtn_f64, DA_MAX_F, true, true)
DSA(ds_wrxchg_rtn_b64, DA_SWAP, true, true)

/* two-address exchange: returns both old values */
static int wrxchg2(xs_wave *w, const xs_inst *in, bool b64, unsigned scale)
{
	unsigned ndw = b64 ? 2 : 1, esz = 4 * ndw;
	LANE_LOOP({
		uint32_t a0 = base + OFF0 * esz * scale, a1 = base + OFF1 * esz * scale;
		uint32_t o[4] = { 0, 0, 0, 0 }, n0[2], n1[2];
		for (unsigned k = 0; k < ndw; k++) {
			n0[k] = VREG(in->src[1], k);
			n1[k] = VREG(in->src[2], k);
		}
		lds_rd(w, a0, o, esz);
		lds_wr(w, a0, n0, esz);
		lds_rd(w, a1, o + ndw, esz);
		lds_wr(w, a1, n1, esz);
		for (unsigned k = 0; k < 2 * ndw; k++)
			VREG(in->dst, k) = o[k];
	});
	return 0;
}
XS_EXEC(ds_wrxchg2_rtn_b32) { (void)x; return wrxchg2(w, in, false, 1); }
XS_EXEC(ds_wrxchg2st64_rtn_b32) { (void)x; return wrxchg2(w, in, false, 64); }
XS_EXEC(ds_wrxchg2_rtn_b64) { (void)x; return wrxchg2(w, in, true, 1); }
XS_EXEC(ds_wrxchg2st64_rtn_b64) { (void)x; return wrxchg2(w, in, true, 64); }

/* ---- cross-lane ----------------------------------------------------------------- */
/* ds_swizzle_b32 vdst, vaddr: the data is the ADDR VGPR (LLVM DS_1A_RET;
 * the instruction has no data operand). offset[15] = 1: quad permute (2 bits
 * per lane of a quad); else bit-mask mode within 32 lanes: and [4:0], or
 * [9:5], xor [14:10]. A lane that reads an inactive lane gets 0. */
XS_EXEC(ds_swizzle_b32)
{
	(void)x;
	uint32_t off = OFF16, src[XS_MAX_LANES], r[XS_MAX_LANES];
	uint64_t e = xs_wave_exec(w);
	unsigned n = w->lanes;
	memcpy(src, xs_vrow(w, in->src[0]), n * 4);
	for (unsigned l = 0; l < n; l++) {
		unsigned sl;
		if (off & 0x8000)
			sl = (l & ~3u) | ((off >> (2 * (l & 3))) & 3);
		else
			sl = (l & ~31u) | ((((l & 31) & (off & 31)) | ((off >> 5) & 31)) ^ ((off >> 10) & 31));
		r[l] = ((e >> sl) & 1) ? src[sl] : 0;
	}
	xs_vstore_rows(xs_vrow(w, in->dst), r, e, n);
	return 0;
}

/* ds_permute_b32 pushes data0 to lane addr/4; ds_bpermute_b32 pulls it from
 * lane addr/4 (addr = vaddr + offset, modulo the wave size). */
static int permute(xs_wave *w, const xs_inst *in, bool backward)
{
	uint32_t data[XS_MAX_LANES], r[XS_MAX_LANES];
	uint64_t e = xs_wave_exec(w);
	unsigned n = w->lanes;
	const uint32_t *addr = xs_vrow(w, in->src[0]);
	memcpy(data, xs_vrow(w, in->src[1]), n * 4);
	memset(r, 0, sizeof(r));
	for (unsigned l = 0; l < n; l++) {
		if (!((e >> l) & 1))
			continue;
		unsigned t = ((addr[l] + OFF16) >> 2) & (n - 1);
		if (backward)
			r[l] = ((e >> t) & 1) ? data[t] : 0;
		else
			r[t] = data[l];
	}
	xs_vstore_rows(xs_vrow(w, in->dst), r, e, n);
	return 0;
}
XS_EXEC(ds_permute_b32) { (void)x; return permute(w, in, false); }
XS_EXEC(ds_bpermute_b32) { (void)x; return permute(w, in, true); }

XS_EXEC(ds_nop) { XS_UNUSED_HANDLER_ARGS; return 0; }

/* ---- M0-addressed forms ------------------------------------------------------------
 * These take no address VGPR: the LDS address is M0[15:0] + offset (CLRX's
 * GCN documentation for the addtid forms; LLVM lowers llvm.amdgcn.ds.append
 * by writing the counter's LDS address to M0, with any constant part in the
 * offset). Outside the allocation they read 0 and drop the write, as every
 * LDS access does here. */
static inline uint32_t m0_addr(const xs_wave *w, const xs_inst *in)
{
	return (w->s[XS_SREG_M0] & 0xffff) + OFF16;
}

/* ds_append / ds_consume: one dword counter at M0 + offset goes up (down)
 * by the number of active lanes, wrapping; every active lane gets its value
 * before (a wave-wide operation: lanes then add their mbcnt). With no lane
 * active nothing changes. */
static int append(xs_wave *w, const xs_inst *in, bool consume)
{
	uint64_t e = xs_wave_exec(w);
	if (!e)
		return 0;
	uint32_t a = m0_addr(w, in) & ~3u, old = 0, n = (uint32_t)__builtin_popcountll(e);
	lds_rd(w, a, &old, 4);
	uint32_t nv = consume ? old - n : old + n;
	lds_wr(w, a, &nv, 4);
	uint32_t *d = xs_vrow(w, in->dst);
	for (unsigned l = 0; l < w->lanes; l++)
		if ((e >> l) & 1)
			d[l] = old;
	return 0;
}
XS_EXEC(ds_append) { (void)x; return append(w, in, false); }
XS_EXEC(ds_consume) { (void)x; return append(w, in, true); }

/* ds_write_addtid_b32 / ds_read_addtid_b32: lane l at M0 + offset + 4 l */
XS_EXEC(ds_write_addtid_b32)
{
	(void)x;
	uint64_t e = xs_wave_exec(w);
	uint32_t a = m0_addr(w, in);
	const uint32_t *s = xs_vrow(w, in->src[1]);
	for (unsigned l = 0; l < w->lanes; l++)
		if ((e >> l) & 1)
			lds_wr(w, a + 4 * l, &s[l], 4);
	return 0;
}
XS_EXEC(ds_read_addtid_b32)
{
	(void)x;
	uint64_t e = xs_wave_exec(w);
	uint32_t a = m0_addr(w, in), *d = xs_vrow(w, in->dst);
	for (unsigned l = 0; l < w->lanes; l++)
		if ((e >> l) & 1)
			lds_rd(w, a + 4 * l, &d[l], 4);
	return 0;
}

/* GDS forms have no model: fault instead of touching LDS. */
static int gds_guard(xs_exec *x, xs_wave *w, const xs_inst *in);
static xs_exec_fn lds_table[XS_OP_COUNT];

/* The plain dword reads and writes for the waves of a lockstep step, one
 * after another as their handlers would run (a later wave's write to an
 * address wins); they never stop a wave. GDS forms are declined (their
 * handler faults). */
#define LDS_G(name, body)                                                       \
	static int g_##name(xs_exec *x, xs_wave *const *ws, unsigned nw, const xs_inst *in) \
	{                                                                       \
		if (in->mods & XS_MOD_GDS)                                      \
			return -1;                                              \
		for (unsigned j = 0; j < nw; j++)                               \
			(void)body;                                             \
		return (int)nw;                                                 \
	}
LDS_G(ds_read2_b32, read2(ws[j], in, 1, 1))
LDS_G(ds_read2st64_b32, read2(ws[j], in, 1, 64))
LDS_G(ds_read_b32, read_n(ws[j], in, 1))
LDS_G(ds_read_b64, read_n(ws[j], in, 2))
LDS_G(ds_read_b128, read_n(ws[j], in, 4))
LDS_G(ds_write_b32, write_n(ws[j], in, 1))
LDS_G(ds_write_b64, write_n(ws[j], in, 2))
LDS_G(ds_write2_b32, write2(ws[j], in, 1, 1))

static int gds_guard(xs_exec *x, xs_wave *w, const xs_inst *in)
{
	if (in->mods & XS_MOD_GDS)
		return xs_exec_unimpl(x, w, in, "GDS");
	return lds_table[in->op](x, w, in);
}

#define R(name) (lds_table[XS_OP_##name] = x_##name)
void xs_exec_register_lds(void)
{
	R(ds_write_b32); R(ds_write_b64); R(ds_write_b96); R(ds_write_b128);
	R(ds_write_b8); R(ds_write_b16); R(ds_write_b8_d16_hi); R(ds_write_b16_d16_hi);
	R(ds_write2_b32); R(ds_write2st64_b32); R(ds_write2_b64); R(ds_write2st64_b64);
	R(ds_read_b32); R(ds_read_b64); R(ds_read_b96); R(ds_read_b128);
	R(ds_read_u8); R(ds_read_i8); R(ds_read_u16); R(ds_read_i16);
	R(ds_read_u8_d16); R(ds_read_u8_d16_hi); R(ds_read_i8_d16); R(ds_read_i8_d16_hi);
	R(ds_read_u16_d16); R(ds_read_u16_d16_hi);
	R(ds_read2_b32); R(ds_read2st64_b32); R(ds_read2_b64); R(ds_read2st64_b64);
	R(ds_add_u32); R(ds_add_rtn_u32); R(ds_sub_u32); R(ds_sub_rtn_u32); R(ds_rsub_u32); R(ds_rsub_rtn_u32);
	R(ds_inc_u32); R(ds_inc_rtn_u32); R(ds_dec_u32); R(ds_dec_rtn_u32);
	R(ds_min_i32); R(ds_min_rtn_i32); R(ds_max_i32); R(ds_max_rtn_i32);
	R(ds_min_u32); R(ds_min_rtn_u32); R(ds_max_u32); R(ds_max_rtn_u32);
	R(ds_and_b32); R(ds_and_rtn_b32); R(ds_or_b32); R(ds_or_rtn_b32); R(ds_xor_b32); R(ds_xor_rtn_b32);
	R(ds_mskor_b32); R(ds_mskor_rtn_b32); R(ds_cmpst_b32); R(ds_cmpst_rtn_b32);
	R(ds_cmpst_f32); R(ds_cmpst_rtn_f32); R(ds_min_f32); R(ds_min_rtn_f32);
	R(ds_max_f32); R(ds_max_rtn_f32); R(ds_add_f32); R(ds_add_rtn_f32);
	R(ds_wrxchg_rtn_b32); R(ds_wrap_rtn_b32);
	R(ds_add_u64); R(ds_add_rtn_u64); R(ds_sub_u64); R(ds_sub_rtn_u64); R(ds_rsub_u64); R(ds_rsub_rtn_u64);
	R(ds_inc_u64); R(ds_inc_rtn_u64); R(ds_dec_u64); R(ds_dec_rtn_u64);
	R(ds_min_i64); R(ds_min_rtn_i64); R(ds_max_i64); R(ds_max_rtn_i64);
	R(ds_min_u64); R(ds_min_rtn_u64); R(ds_max_u64); R(ds_max_rtn_u64);
	R(ds_and_b64); R(ds_and_rtn_b64); R(ds_or_b64); R(ds_or_rtn_b64); R(ds_xor_b64); R(ds_xor_rtn_b64);
	R(ds_mskor_b64); R(ds_mskor_rtn_b64); R(ds_cmpst_b64); R(ds_cmpst_rtn_b64);
	R(ds_cmpst_f64); R(ds_cmpst_rtn_f64); R(ds_min_f64); R(ds_min_rtn_f64);
	R(ds_max_f64); R(ds_max_rtn_f64); R(ds_wrxchg_rtn_b64);
	R(ds_wrxchg2_rtn_b32); R(ds_wrxchg2st64_rtn_b32); R(ds_wrxchg2_rtn_b64); R(ds_wrxchg2st64_rtn_b64);
	R(ds_swizzle_b32); R(ds_permute_b32); R(ds_bpermute_b32); R(ds_nop);
	R(ds_append); R(ds_consume); R(ds_write_addtid_b32); R(ds_read_addtid_b32);
	for (unsigned op = 0; op < XS_OP_COUNT; op++)
		if (lds_table[op])
			xs_exec_table[op] = gds_guard;
	XS_REG_GROUP(ds_read2_b32, g_ds_read2_b32); XS_REG_GROUP(ds_read2st64_b32, g_ds_read2st64_b32);
	XS_REG_GROUP(ds_read_b32, g_ds_read_b32); XS_REG_GROUP(ds_read_b64, g_ds_read_b64);
	XS_REG_GROUP(ds_read_b128, g_ds_read_b128); XS_REG_GROUP(ds_write_b32, g_ds_write_b32);
	XS_REG_GROUP(ds_write_b64, g_ds_write_b64); XS_REG_GROUP(ds_write2_b32, g_ds_write2_b32);
}
