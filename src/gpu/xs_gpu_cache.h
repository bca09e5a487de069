/* Caches of the timing model: a vector L0 per CU (write-through) and the
 * L2 (write-back), set-associative with LRU replacement; lines of the
 * device-info l2_line_bytes, numbered as the interpreter reports them.
 * They decide latency and DRAM traffic only; data lives in xs_vm. */
#ifndef XS_GPU_CACHE_H
#define XS_GPU_CACHE_H

#include "common/xs_common.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* A set's recency order and partial tags fill one host line (the L2 of
 * Series X has 2560 sets of 16 ways, looked up for every line a wave
 * touches, most of them missing in a gathering kernel): a look-up compares
 * 16-bit partial tags and reads a full tag only where one matches; ways
 * never move, the order is a list of way numbers. */
#define XS_GPU_CACHE_MAX_WAYS 16
typedef struct xs_gpu_cache_set {
	uint64_t order;          /* nibble k: the way at recency position k (0 = most recent) */
	uint16_t ptag[XS_GPU_CACHE_MAX_WAYS]; /* partial tags, by way */
	uint16_t dirty;          /* by way */
	uint8_t n;               /* ways filled: 0 .. n-1 (fills take the next way until full) */
} __attribute__((aligned(64))) xs_gpu_cache_set;

typedef struct xs_gpu_cache {
	uint32_t sets, ways;
	xs_gpu_cache_set *set;
	uint64_t *tag;           /* line, by set and way (valid below the set's n) */
	/* h % sets as (h * set_mul) >> set_shift (exact below 2^XS_GPU_CACHE_MUL_BITS):
	 * a 64-bit division was on every look-up's path to its set */
	uint64_t set_mul;
	uint32_t set_shift;
	uint32_t set_mask;       /* sets - 1 when a power of two above 1 (the L0's 32), else 0 */
} xs_gpu_cache;

#define XS_GPU_CACHE_MUL_BITS 62

/* Fails (false) for no memory, or ways of 0 or above XS_GPU_CACHE_MAX_WAYS. */
bool xs_gpu_cache_init(xs_gpu_cache *c, uint32_t bytes, uint32_t ways, uint32_t line_bytes);
void xs_gpu_cache_free(xs_gpu_cache *c);
/* Every line gone (an ACQUIRE_MEM invalidate; the data is in xs_vm, so a
 * write-back costs no copy; its DRAM traffic is not modelled). */
void xs_gpu_cache_invalidate(xs_gpu_cache *c);

/* The set number of a line is its hash modulo the sets: hashed so that
 * power-of-two strides spread over them. One hash serves the L0 and the L2
 * (a line that misses the one is looked up in the other). */
static inline uint64_t xs_gpu_cache_hash(uint64_t line)
{
	return line ^ (line >> 11) ^ (line >> 23);
}

static inline uint32_t xs_gpu_cache_set_of_hash(const xs_gpu_cache *c, uint64_t h)
{
	if (c->set_mask)
		return (uint32_t)(h & c->set_mask);
#ifdef __SIZEOF_INT128__
	if (XS_LIKELY(h >> XS_GPU_CACHE_MUL_BITS == 0))
		return (uint32_t)(h - (uint64_t)(((unsigned __int128)h * c->set_mul) >> c->set_shift) * c->sets);
#endif
	return (uint32_t)(h % c->sets);
}

static inline uint32_t xs_gpu_cache_set_of(const xs_gpu_cache *c, uint64_t line)
{
	return xs_gpu_cache_set_of_hash(c, xs_gpu_cache_hash(line));
}

/* Starts bringing the line's set into the host caches: a gather's ~25
 * look-ups then miss in parallel instead of one after another. */
static inline void xs_gpu_cache_prefetch(const xs_gpu_cache *c, uint64_t line)
{
	__builtin_prefetch(&c->set[xs_gpu_cache_set_of(c, line)]);
}

/* The partial tag: bits of the line the set number does not fix alone
 * (a false match only costs a full tag's read). */
static inline uint16_t xs_gpu_cache_ptag(uint64_t line)
{
	return (uint16_t)(line ^ (line >> 16) ^ (line >> 32) ^ (line >> 48));
}

/* Ways (below s->n) whose partial tag is p, one bit per way. */
static inline uint32_t xs_gpu_cache_ptag_matches(const xs_gpu_cache_set *s, uint16_t p)
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
static inline uint32_t xs_gpu_cache_position(uint64_t order, uint32_t w)
{
	const uint64_t ones = 0x1111111111111111ull;
	uint64_t x = order ^ (w * ones);
	uint64_t z = (x - ones) & ~x & (ones << 3);
	return (uint32_t)__builtin_ctzll(z) / 4;
}

/* Looks up a line (h: its xs_gpu_cache_hash); on a miss with allocate,
 * fills it and reports whether a dirty line was evicted. make_dirty marks
 * it (stores into the L2). In line:
 * the timing model looks up every line a wave touches in the L0 and most in
 * the L2 (scratch_chase: 9.2 M look-ups, a quarter of its host
 * instructions), and its two calls have constant arguments. */
static inline bool xs_gpu_cache_access_h(xs_gpu_cache *c, uint64_t line, uint64_t h, bool allocate, bool make_dirty,
					 bool *evicted_dirty)
{
	uint32_t si = xs_gpu_cache_set_of_hash(c, h);
	xs_gpu_cache_set *s = &c->set[si];
	uint64_t *tag = c->tag + (size_t)si * c->ways;
	const uint16_t p = xs_gpu_cache_ptag(line);
	const uint32_t dirty = make_dirty ? 1u : 0u;
	for (uint32_t m = xs_gpu_cache_ptag_matches(s, p); m; m &= m - 1) {
		uint32_t w = (uint32_t)__builtin_ctz(m);
		if (tag[w] != line)
			continue;
		/* a hit: way w to the front (the most recent) */
		uint32_t pos = xs_gpu_cache_position(s->order, w);
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

#endif
