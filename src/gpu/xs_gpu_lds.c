/*
 * The LDS's banks, for the timing model: how many clocks one LDS
 * instruction holds its LDS bus (docs/hardware.md section 8, "LDS banks").
 *
 * The LDS behind a bus is lds_banks banks, each one dword wide; dword
 * address d lives in bank d mod lds_banks. A wave's lanes are served in
 * phases of consecutive lanes, as many as fill the banks once: a lane
 * moving D dwords (D = elements x dwords, rounded up to a power of two)
 * puts lds_banks / D lanes in a phase (32 for ds_read_b32, 16 for
 * ds_read_b64 and ds_read2_b32, 8 for ds_read_b128). In one clock each bank
 * serves one dword address, to every lane that asked for it (a broadcast);
 * a phase takes as many clocks as the bank asked for the most distinct
 * addresses, a phase with no active lane none. The clocks beyond one per
 * phase are the bank-conflict cycles, which the counters report as rocprof
 * reports SQ_LDS_BANK_CONFLICT. Modelling choices: a lane's dwords are its
 * element's consecutive dwords from the address (rounded down to a dword);
 * addresses outside the group's allocation take their bank like any other;
 * atomics count as accesses like reads and writes (lanes hitting one
 * address are one access, not serialised).
 */
#include "gpu/xs_gpu_priv.h"

#ifdef __AVX512F__
#include <immintrin.h>
#endif

/* Clocks of a phase whose dwords d[0..n) share a bank (not all distinct):
 * the most distinct addresses any one bank holds. n <= XS_GPU_LDS_MAX_BANKS. */
static uint32_t phase_clocks(const uint32_t *d, uint32_t n, uint32_t bank_mask)
{
	uint8_t per_bank[XS_GPU_LDS_MAX_BANKS] = { 0 };
	uint32_t most = 1;
	for (uint32_t i = 0; i < n; i++) {
		bool seen = false;
		for (uint32_t j = 0; j < i && !seen; j++)
			seen = d[j] == d[i];
		if (!seen) {
			uint8_t c = ++per_bank[d[i] & bank_mask];
			most = c > most ? c : most;
		}
	}
	return most;
}

#ifndef __AVX512F__
static inline uint32_t rotl32(uint32_t v, uint32_t s)
{
	s &= 31;
	return s ? v << s | v >> (32 - s) : v;
}
#endif

/* The banks a phase's lanes (mask m, lane numbers from p) reach, as a mask
 * of 32 banks (banks == 32), and whether all of them use one address. A
 * lane's ndw dwords are consecutive: from bank b, the ndw banks after it. */
static uint32_t phase_banks32(const xs_gpu_lds_access *a, uint32_t p, uint64_t m, bool *same)
{
	const uint32_t lane_mask = (1u << a->ndw) - 1;
	const uint32_t first = a->addr[p + (uint32_t)__builtin_ctzll(m)];
#ifdef __AVX512F__
	/* a per-issue cost in timing mode: 16 lanes at once, the banks ORed as
	 * vectors and reduced once; "one address" by one compare per 16 lanes */
	const __m512i lm = _mm512_set1_epi32((int)lane_mask), k31 = _mm512_set1_epi32(31),
		      k32 = _mm512_set1_epi32(32), f = _mm512_set1_epi32((int)first);
	__m512i r = _mm512_setzero_si512();
	__mmask16 differ = 0;
	for (uint32_t c = 0; c < 64 && (m >> c); c += 16) {
		__mmask16 k = (__mmask16)(m >> c);
		__m512i x = _mm512_maskz_loadu_epi32(k, a->addr + p + c); /* (no lane past the row's end) */
		differ |= _mm512_mask_cmpneq_epi32_mask(k, x, f);
		for (uint32_t i = 0; i < a->naddr; i++) {
			__m512i b = _mm512_and_si512(
				_mm512_srli_epi32(_mm512_add_epi32(x, _mm512_set1_epi32((int)a->off[i])), 2), k31);
			/* rotl(lane_mask, b): the wrapped part shifts right by 32 - b (0 when b = 0: 32) */
			r = _mm512_mask_or_epi32(r, k, r,
						 _mm512_or_si512(_mm512_sllv_epi32(lm, b),
								 _mm512_srlv_epi32(lm, _mm512_sub_epi32(k32, b))));
		}
	}
	*same = differ == 0;
	return (uint32_t)_mm512_reduce_or_epi32(r);
#else
	uint32_t used = 0;
	bool one = true;
	for (; m; m &= m - 1) {
		uint32_t x = a->addr[p + (uint32_t)__builtin_ctzll(m)];
		one &= x == first;
		for (uint32_t i = 0; i < a->naddr; i++)
			used |= rotl32(lane_mask, (x + a->off[i]) >> 2);
	}
	*same = one;
	return used;
#endif
}

/* The two shapes LDS code uses most, for a whole phase of one-dword
 * elements (banks == 32): lanes on consecutive dwords (a tile's row) and
 * lanes on one address (a broadcast). 0 when the phase is neither, else
 * its clocks by the rule without looking at each lane: a row's n <= 32
 * consecutive dwords are in n banks; two rows (the *2* forms) that overlap
 * in memory are one run of at most 32 dwords, apart they conflict (two
 * words in a bank) where their banks meet; a broadcast's words are one or
 * two dwords, two clocks only when they are different dwords of one bank. */
static uint32_t phase_shape32(const xs_gpu_lds_access *a, uint32_t p, uint32_t n)
{
	const uint32_t *x = a->addr + p, first = x[0];
	bool row = true, same = true;
#ifdef __AVX512F__
	const __m512i f = _mm512_set1_epi32((int)first),
		      step = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60);
	for (uint32_t c = 0; c < n; c += 16) { /* (n is 16 or 32: whole vectors) */
		__m512i v = _mm512_loadu_si512(x + c);
		__m512i want = _mm512_add_epi32(_mm512_add_epi32(f, step), _mm512_set1_epi32((int)(4 * c)));
		row = row && _mm512_cmpeq_epi32_mask(v, want) == 0xffff;
		same = same && _mm512_cmpeq_epi32_mask(v, f) == 0xffff;
	}
#else
	for (uint32_t l = 0; l < n; l++) {
		row = row && x[l] == first + 4 * l;
		same = same && x[l] == first;
	}
#endif
	uint32_t d0 = (first + a->off[0]) >> 2, d1 = (first + a->off[1]) >> 2;
	if (row) {
		if (a->naddr == 1)
			return 1;
		uint32_t gap = (d1 - d0) & 0x3fffffffu; /* dwords of a 32-bit address: 30 bits, wrapping */
		gap = gap < 0x20000000u ? gap : 0x40000000u - gap;
		if (gap < n)
			return 1; /* one run of n + gap <= 32 dwords */
		uint32_t run = n == 32 ? UINT32_MAX : (1u << n) - 1;
		uint32_t b0 = d0 & 31, b1 = d1 & 31;
		uint32_t m0 = b0 ? run << b0 | run >> (32 - b0) : run, m1 = b1 ? run << b1 | run >> (32 - b1) : run;
		return (m0 & m1) ? 2 : 1;
	}
	if (same)
		return a->naddr == 2 && d0 != d1 && (d0 & 31) == (d1 & 31) ? 2 : 1;
	return 0;
}

uint32_t xs_gpu_lds_clocks(uint32_t banks, const xs_gpu_lds_access *a, uint32_t *conflict)
{
	uint32_t per_lane = a->naddr * a->ndw, d_lane = 1;
	while (d_lane < per_lane)
		d_lane <<= 1;
	const uint32_t phase = banks > d_lane ? banks / d_lane : 1;
	const uint32_t bank_mask = banks - 1;
	uint32_t clocks = 0, extra = 0;
	for (uint32_t p = 0; p < a->lanes; p += phase) {
		uint32_t end = p + phase < a->lanes ? p + phase : a->lanes;
		uint64_t m = a->exec >> p;
		if (end - p < 64)
			m &= (1ull << (end - p)) - 1;
		if (!m)
			continue;
		uint32_t n = (uint32_t)__builtin_popcountll(m) * per_lane; /* dwords, with repeats */
		uint32_t d[XS_GPU_LDS_MAX_BANKS], c;
		bool same = false;
		/* (with 32 banks a phase has at most 32 lanes: the shift is defined) */
		if (banks == 32 && a->ndw == 1 && end - p >= 16 && m == (1ull << (end - p)) - 1 &&
		    (c = phase_shape32(a, p, end - p)) != 0) {
			/* a whole phase of 16 or 32 lanes, a row or a broadcast */
		} else if (banks == 32 && (uint32_t)__builtin_popcount(phase_banks32(a, p, m, &same)) == n) {
			c = 1; /* every dword in a bank of its own */
		} else {
			/* one address for every lane (a broadcast): its dwords are the
			 * first lane's */
			if (same) /* (found by phase_banks32 only) */
				m &= -m;
			n = 0;
			for (; m; m &= m - 1) {
				uint32_t x = a->addr[p + (uint32_t)__builtin_ctzll(m)];
				for (uint32_t i = 0; i < a->naddr; i++)
					for (uint32_t k = 0; k < a->ndw; k++)
						d[n++] = ((x + a->off[i]) >> 2) + k; /* 32-bit addresses wrap, as the access does */
			}
			c = phase_clocks(d, n, bank_mask);
		}
		clocks += c;
		extra += c - 1;
	}
	*conflict = extra;
	return clocks;
}
