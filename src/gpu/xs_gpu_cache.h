/* Caches of the timing model: a vector L0 per CU (write-through) and the
 * L2 (write-back), set-associative with LRU replacement; lines of the
 * device-info l2_line_bytes, numbered as the interpreter reports them.
 * They decide latency and DRAM traffic only; data lives in xs_vm. */
#ifndef XS_GPU_CACHE_H
#define XS_GPU_CACHE_H

#include "common/xs_common.h"

/* A set is `ways` tags kept in recency order (most recent first), so LRU
 * needs no timestamps and a set is one or two host cache lines: the L2 of
 * Series X has 40960 lines, looked up for every line a wave touches. */
typedef struct xs_gpu_cache {
	uint32_t sets, ways;
	uint64_t *tag; /* (line + 1) | XS_GPU_CACHE_DIRTY; 0 = empty (empties sit last) */
	/* h % sets as (h * set_mul) >> set_shift (exact below 2^XS_GPU_CACHE_MUL_BITS):
	 * a 64-bit division was on every look-up's path to its set */
	uint64_t set_mul;
	uint32_t set_shift;
} xs_gpu_cache;

#define XS_GPU_CACHE_DIRTY (1ull << 63)
#define XS_GPU_CACHE_MUL_BITS 62

bool xs_gpu_cache_init(xs_gpu_cache *c, uint32_t bytes, uint32_t ways, uint32_t line_bytes);
void xs_gpu_cache_free(xs_gpu_cache *c);
/* Every line gone (an ACQUIRE_MEM invalidate; the data is in xs_vm, so a
 * write-back costs no copy; its DRAM traffic is not modelled). */
void xs_gpu_cache_invalidate(xs_gpu_cache *c);
/* Looks up a line; on a miss with allocate, fills it and reports whether a
 * dirty line was evicted. make_dirty marks it (stores into the L2). */
bool xs_gpu_cache_access(xs_gpu_cache *c, uint64_t line, bool allocate, bool make_dirty, bool *evicted_dirty);

/* The set a line maps to. Hashed so that power-of-two strides spread over
 * the sets. */
static inline uint64_t *xs_gpu_cache_set(const xs_gpu_cache *c, uint64_t line)
{
	uint64_t h = line ^ (line >> 11) ^ (line >> 23), set;
#ifdef __SIZEOF_INT128__
	if (XS_LIKELY(h >> XS_GPU_CACHE_MUL_BITS == 0))
		set = h - (uint64_t)(((unsigned __int128)h * c->set_mul) >> c->set_shift) * c->sets;
	else
#endif
		set = h % c->sets;
	return c->tag + (size_t)set * c->ways;
}

/* Starts bringing the line's set into the host caches: a gather's ~25
 * look-ups then miss in parallel instead of one after another. */
static inline void xs_gpu_cache_prefetch(const xs_gpu_cache *c, uint64_t line)
{
	const uint64_t *set = xs_gpu_cache_set(c, line);
	__builtin_prefetch(set);
	if (c->ways > 8)
		__builtin_prefetch(set + 8);
}

#endif
