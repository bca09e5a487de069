#include "gpu/xs_gpu_cache.h"

#include <stdlib.h>
#include <string.h>


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
	if (c->sets > 1 && (c->sets & (c->sets - 1)) == 0)
		c->set_mask = c->sets - 1;
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
