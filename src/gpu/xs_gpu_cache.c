#include "gpu/xs_gpu_cache.h"

#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

bool xs_gpu_cache_init(xs_gpu_cache *c, uint32_t bytes, uint32_t ways, uint32_t line_bytes)
{
	memset(c, 0, sizeof(*c));
	if (ways == 0 || ways > XS_GPU_CACHE_MAX_WAYS)
		return false;
	uint32_t lines = XS_MAX(bytes / line_bytes, ways);
	c->ways = ways;
	c->sets = lines / ways;
	c->set = xs_aligned_alloc(_Alignof(xs_gpu_cache_set), (size_t)c->sets * sizeof(*c->set));
	c->tag = xs_calloc((size_t)c->sets * ways, sizeof(*c->tag));
	if (!c->set || !c->tag) {
		xs_gpu_cache_free(c);
		return false;
	}
	memset(c->set, 0, (size_t)c->sets * sizeof(*c->set));
#ifdef __SIZEOF_INT128__
	/* Granlund and Montgomery (PLDI 1994), theorem 4.2: with N = 62 bits of
	 * dividend, l = ceil(log2 sets) and m = ceil(2^(N + l) / sets), m * sets
	 * exceeds 2^(N + l) by less than sets <= 2^l, so floor(h * m / 2^(N + l))
	 * = floor(h / sets) for every h < 2^N; m <= 2^63 fits. */
	uint32_t l = 0;
	while (((uint64_t)1 << l) < c->sets)
		l++;
	c->set_shift = XS_GPU_CACHE_MUL_BITS + l;
	c->set_mul = (uint64_t)((((unsigned __int128)1 << c->set_shift) + c->sets - 1) / c->sets);
#endif
	return true;
}

void xs_gpu_cache_free(xs_gpu_cache *c)
{
	free(c->set);
	free(c->tag);
	memset(c, 0, sizeof(*c));
}

void xs_gpu_cache_invalidate(xs_gpu_cache *c)
{
	if (c->set)
		memset(c->set, 0, (size_t)c->sets * sizeof(*c->set));
}

/* The partial tag: bits of the line the set number does not fix alone
 * (a false match only costs a full tag's read). */
static inline uint16_t ptag_of(uint64_t line)
{
	return (uint16_t)(line ^ (line >> 16) ^ (line >> 32) ^ (line >> 48));
}

/* Ways (below s->n) whose partial tag is p, one bit per way. */
static inline uint32_t ptag_matches(const xs_gpu_cache_set *s, uint16_t p)
{
	uint32_t valid = (uint32_t)((1ull << s->n) - 1);
#ifdef __SSE2__
	/* the 16 compares packed to one byte each, in way order */
	const __m128i k = _mm_set1_epi16((short)p);
	__m128i lo = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(const void *)s->ptag), k);
	__m128i hi = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(const void *)(s->ptag + 8)), k);
	return (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(lo, hi)) & valid;
#else
	uint32_t m = 0;
	for (uint32_t w = 0; w < s->n; w++)
		m |= (uint32_t)(s->ptag[w] == p) << w;
	return m & valid;
#endif
}

/* The recency position of way w (present below s->n): the lowest nibble
 * of order equal to w. The has-zero-nibble test is exact for the lowest
 * zero nibble, and no position before w's holds w. */
static inline uint32_t position_of(uint64_t order, uint32_t w)
{
	const uint64_t ones = 0x1111111111111111ull;
	uint64_t x = order ^ (w * ones);
	uint64_t z = (x - ones) & ~x & (ones << 3);
	return (uint32_t)__builtin_ctzll(z) / 4;
}

bool xs_gpu_cache_access(xs_gpu_cache *c, uint64_t line, bool allocate, bool make_dirty, bool *evicted_dirty)
{
	uint32_t si = xs_gpu_cache_set_of(c, line);
	xs_gpu_cache_set *s = &c->set[si];
	uint64_t *tag = c->tag + (size_t)si * c->ways;
	const uint16_t p = ptag_of(line);
	const uint32_t dirty = make_dirty ? 1u : 0u;
	for (uint32_t m = ptag_matches(s, p); m; m &= m - 1) {
		uint32_t w = (uint32_t)__builtin_ctz(m);
		if (tag[w] != line)
			continue;
		/* a hit: way w to the front (the most recent) */
		uint32_t pos = position_of(s->order, w);
		uint64_t below = s->order & ((1ull << (4 * pos)) - 1);
		uint64_t above = pos == 15 ? 0 : s->order & ~((1ull << (4 * (pos + 1))) - 1);
		s->order = above | below << 4 | w;
		s->dirty = (uint16_t)(s->dirty | dirty << w);
		return true;
	}
	if (!allocate)
		return false;
	/* The victim is the least recent way, or the next empty one. */
	uint32_t w;
	if (s->n < c->ways) {
		w = s->n++;
		if (evicted_dirty)
			*evicted_dirty = false;
	} else {
		w = (uint32_t)(s->order >> (4 * (c->ways - 1))) & 15;
		if (evicted_dirty)
			*evicted_dirty = (s->dirty >> w & 1) != 0;
	}
	s->order = s->order << 4 | w; /* (positions past the ways are never read) */
	s->ptag[w] = p;
	s->dirty = (uint16_t)((s->dirty & ~(1u << w)) | dirty << w);
	tag[w] = line;
	return false;
}
