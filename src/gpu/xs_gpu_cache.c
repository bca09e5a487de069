#include "gpu/xs_gpu_cache.h"

#include <stdlib.h>
#include <string.h>

bool xs_gpu_cache_init(xs_gpu_cache *c, uint32_t bytes, uint32_t ways, uint32_t line_bytes)
{
	memset(c, 0, sizeof(*c));
	uint32_t lines = XS_MAX(bytes / line_bytes, ways);
	c->ways = ways;
	c->sets = lines / ways;
	c->tag = xs_calloc((size_t)c->sets * ways, sizeof(*c->tag));
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

bool xs_gpu_cache_access(xs_gpu_cache *c, uint64_t line, bool allocate, bool make_dirty, bool *evicted_dirty)
{
	/* Hash the line so power-of-two strides spread over the sets. */
	uint64_t h = line ^ (line >> 11) ^ (line >> 23);
	uint64_t *set = c->tag + (size_t)(h % c->sets) * c->ways;
	const uint64_t key = line + 1, dirty = make_dirty ? XS_GPU_CACHE_DIRTY : 0;
	uint32_t i;
	for (i = 0; i < c->ways && set[i]; i++) {
		if ((set[i] & ~XS_GPU_CACHE_DIRTY) == key) {
			uint64_t t = set[i] | dirty;
			for (uint32_t j = i; j > 0; j--) /* to the front: most recent */
				set[j] = set[j - 1];
			set[0] = t;
			return true;
		}
	}
	if (allocate) {
		/* The victim is the least recent way (the last), or an empty one. */
		uint32_t n = i < c->ways ? i : c->ways - 1;
		if (evicted_dirty)
			*evicted_dirty = (set[n] & XS_GPU_CACHE_DIRTY) != 0;
		for (uint32_t j = n; j > 0; j--)
			set[j] = set[j - 1];
		set[0] = key | dirty;
	}
	return false;
}
