#include "gpu/xs_gpu_cache.h"

#include <stdlib.h>
#include <string.h>

#ifdef __AVX2__
#include <immintrin.h>
#endif

bool xs_gpu_cache_init(xs_gpu_cache *c, uint32_t bytes, uint32_t ways, uint32_t line_bytes)
{
	memset(c, 0, sizeof(*c));
	uint32_t lines = XS_MAX(bytes / line_bytes, ways);
	c->ways = ways;
	c->sets = lines / ways;
	c->tag = xs_calloc((size_t)c->sets * ways, sizeof(*c->tag));
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
	return c->tag != NULL;
}

void xs_gpu_cache_free(xs_gpu_cache *c)
{
	free(c->tag);
	memset(c, 0, sizeof(*c));
}

void xs_gpu_cache_invalidate(xs_gpu_cache *c)
{
	if (c->tag)
		memset(c->tag, 0, (size_t)c->sets * c->ways * sizeof(*c->tag));
}

/* Where key is in the set (its way, or ways when absent) and the first
 * empty way (ways when full). Empties sit last and key is never 0, so a
 * match lies before the first empty. Four ways per compare on AVX2 (every
 * set of the model has a multiple of 4): a scratch gather looks up ~25
 * lines, each in an L0 and the L2, and the way-by-way loop was most of the
 * timing model's cost for it. */
static inline uint32_t find_way(const uint64_t *set, uint32_t ways, uint64_t key, uint32_t *first_empty)
{
#ifdef __AVX2__
	if ((ways & 3) == 0 && ways <= 32) {
		const __m256i k = _mm256_set1_epi64x((long long)key), z = _mm256_setzero_si256();
		const __m256i clean = _mm256_set1_epi64x((long long)~XS_GPU_CACHE_DIRTY);
		uint32_t eq = 0, empty = 0;
		for (uint32_t i = 0; i < ways; i += 4) {
			__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(set + i));
			eq |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(
				      _mm256_cmpeq_epi64(_mm256_and_si256(v, clean), k))) << i;
			empty |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(v, z))) << i;
		}
		*first_empty = empty ? (uint32_t)__builtin_ctz(empty) : ways;
		return eq ? (uint32_t)__builtin_ctz(eq) : ways;
	}
#endif
	uint32_t i;
	for (i = 0; i < ways && set[i]; i++)
		if ((set[i] & ~XS_GPU_CACHE_DIRTY) == key)
			break;
	if (i < ways && set[i]) { /* found at i: the first empty is further on */
		uint32_t j = i;
		while (j < ways && set[j])
			j++;
		*first_empty = j;
		return i;
	}
	*first_empty = i;
	return ways;
}

/* set[0 .. n-1] move to set[1 .. n] (recency order: a way goes to the front).
 * A miss in a full set moves all but the last way: the streaming and
 * gathering case, done by whole vectors (every load before any store). */
static inline __attribute__((always_inline)) void shift_down(uint64_t *set, uint32_t ways, uint32_t n)
{
#ifdef __AVX2__
	if (n == ways - 1 && (ways & 3) == 0 && ways >= 8 && ways <= 32) {
		__m256i v[8], last = _mm256_loadu_si256((const __m256i *)(const void *)(set + ways - 5));
		for (uint32_t i = 0; i + 4 < ways; i += 4)
			v[i / 4] = _mm256_loadu_si256((const __m256i *)(const void *)(set + i));
		for (uint32_t i = 0; i + 4 < ways; i += 4)
			_mm256_storeu_si256((__m256i *)(void *)(set + i + 1), v[i / 4]);
		_mm256_storeu_si256((__m256i *)(void *)(set + ways - 4), last);
		return;
	}
#endif
	for (uint32_t j = n; j > 0; j--)
		set[j] = set[j - 1];
}

bool xs_gpu_cache_access(xs_gpu_cache *c, uint64_t line, bool allocate, bool make_dirty, bool *evicted_dirty)
{
	uint64_t *set = xs_gpu_cache_set(c, line);
	const uint64_t key = line + 1, dirty = make_dirty ? XS_GPU_CACHE_DIRTY : 0;
	uint32_t empty;
	uint32_t i = find_way(set, c->ways, key, &empty);
	if (i < empty) {
		uint64_t t = set[i] | dirty;
		shift_down(set, c->ways, i); /* to the front: most recent */
		set[0] = t;
		return true;
	}
	if (allocate) {
		/* The victim is the least recent way (the last), or an empty one. */
		uint32_t n = empty < c->ways ? empty : c->ways - 1;
		if (evicted_dirty)
			*evicted_dirty = (set[n] & XS_GPU_CACHE_DIRTY) != 0;
		shift_down(set, c->ways, n);
		set[0] = key | dirty;
	}
	return false;
}
