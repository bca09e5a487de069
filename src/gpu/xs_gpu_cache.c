#include "gpu/xs_gpu_cache.h"

#include <stdlib.h>
#include <string.h>

#define LINE_BYTES 128

bool xs_gpu_cache_init(xs_gpu_cache *c, uint32_t bytes, uint32_t ways)
{
	memset(c, 0, sizeof(*c));
	uint32_t lines = XS_MAX(bytes / LINE_BYTES, ways);
	c->ways = ways;
	c->sets = lines / ways;
	size_t n = (size_t)c->sets * ways;
	c->tag = calloc(n, sizeof(*c->tag));
	c->lru = calloc(n, sizeof(*c->lru));
	c->dirty = calloc(n, 1);
	return c->tag && c->lru && c->dirty;
}

void xs_gpu_cache_free(xs_gpu_cache *c)
{
	free(c->tag);
	free(c->lru);
	free(c->dirty);
	memset(c, 0, sizeof(*c));
}

void xs_gpu_cache_clear(xs_gpu_cache *c)
{
	size_t n = (size_t)c->sets * c->ways;
	memset(c->tag, 0, n * sizeof(*c->tag));
	memset(c->dirty, 0, n);
}

bool xs_gpu_cache_access(xs_gpu_cache *c, uint64_t line, bool allocate, bool make_dirty, bool *evicted_dirty)
{
	/* Hash the line so power-of-two strides spread over the sets. */
	uint64_t h = line ^ (line >> 11) ^ (line >> 23);
	size_t base = (size_t)(h % c->sets) * c->ways;
	uint64_t key = line + 1;
	size_t victim = base;
	c->tick++;
	for (size_t i = base; i < base + c->ways; i++) {
		if (c->tag[i] == key) {
			c->lru[i] = c->tick;
			c->dirty[i] |= make_dirty;
			return true;
		}
		if (c->tag[i] == 0 || (c->tag[victim] != 0 && c->lru[i] < c->lru[victim]))
			victim = i;
	}
	if (allocate) {
		if (evicted_dirty)
			*evicted_dirty = c->tag[victim] != 0 && c->dirty[victim];
		c->tag[victim] = key;
		c->lru[victim] = c->tick;
		c->dirty[victim] = make_dirty;
	}
	return false;
}
