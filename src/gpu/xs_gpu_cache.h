/* Caches of the timing model: a vector L0 per CU (write-through) and the
 * L2 (write-back), set-associative with LRU replacement; lines of the
 * device-info l2_line_bytes, numbered as the interpreter reports them.
 * They decide latency and DRAM traffic only; data lives in xs_vm. */
#ifndef XS_GPU_CACHE_H
#define XS_GPU_CACHE_H

#include "common/xs_common.h"

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
} xs_gpu_cache;

#define XS_GPU_CACHE_MUL_BITS 62

/* Fails (false) for no memory, or ways of 0 or above XS_GPU_CACHE_MAX_WAYS. */
bool xs_gpu_cache_init(xs_gpu_cache *c, uint32_t bytes, uint32_t ways, uint32_t line_bytes);
void xs_gpu_cache_free(xs_gpu_cache *c);
/* Every line gone (an ACQUIRE_MEM invalidate; the data is in xs_vm, so a
 * write-back costs no copy; its DRAM traffic is not modelled). */
void xs_gpu_cache_invalidate(xs_gpu_cache *c);
/* Looks up a line; on a miss with allocate, fills it and reports whether a
 * dirty line was evicted. make_dirty marks it (stores into the L2). */
bool xs_gpu_cache_access(xs_gpu_cache *c, uint64_t line, bool allocate, bool make_dirty, bool *evicted_dirty);

/* The set number of a line. Hashed so that power-of-two strides spread
 * over the sets. */
static inline uint32_t xs_gpu_cache_set_of(const xs_gpu_cache *c, uint64_t line)
{
	uint64_t h = line ^ (line >> 11) ^ (line >> 23);
#ifdef __SIZEOF_INT128__
	if (XS_LIKELY(h >> XS_GPU_CACHE_MUL_BITS == 0))
		return (uint32_t)(h - (uint64_t)(((unsigned __int128)h * c->set_mul) >> c->set_shift) * c->sets);
#endif
	return (uint32_t)(h % c->sets);
}

/* Starts bringing the line's set into the host caches: a gather's ~25
 * look-ups then miss in parallel instead of one after another. */
static inline void xs_gpu_cache_prefetch(const xs_gpu_cache *c, uint64_t line)
{
	__builtin_prefetch(&c->set[xs_gpu_cache_set_of(c, line)]);
}

#endif
