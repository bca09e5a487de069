/* The timing model's caches (src/gpu/xs_gpu_cache.h) against a reference
 * written from their rule alone: a line's set is its hash modulo the sets;
 * a set keeps its lines in recency order; a hit moves the line to the
 * front; a miss that allocates fills the lowest empty way, or else evicts
 * the least recent line, reporting whether it was dirty; a store marks its
 * line dirty. For each geometry below (the devices' L0 and L2, and odd
 * ones) every look-up's answer, write-back and set content must agree,
 * over random streams that hit, miss, collide in sets and invalidate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "gpu/xs_gpu_cache.h"
#include "gpu/xs_gpu_devinfo.h"
#include "isa/xs_isa.h"

/* The devices' line (the timing model's L0 and L2), and the number of lines
 * below the top of the GPU's virtual addresses. */
#define LINE XS_GFX103_L2_LINE_BYTES
#define TOP_LINE (1ull << (XS_VM_VA_BITS - XS_MTRACE_LINE_SHIFT))

typedef struct ref_set {
	uint32_t n;
	uint64_t line[XS_GPU_CACHE_MAX_WAYS]; /* most recent first */
	bool dirty[XS_GPU_CACHE_MAX_WAYS];
} ref_set;

typedef struct ref_cache {
	uint32_t sets, ways;
	ref_set *set;
} ref_cache;

static bool ref_access(ref_cache *r, uint64_t line, bool allocate, bool make_dirty, bool *evicted)
{
	ref_set *s = &r->set[xs_gpu_cache_hash(line) % r->sets];
	*evicted = false;
	for (uint32_t i = 0; i < s->n; i++) {
		if (s->line[i] != line)
			continue;
		bool d = s->dirty[i] || make_dirty;
		memmove(&s->line[1], &s->line[0], i * sizeof(s->line[0]));
		memmove(&s->dirty[1], &s->dirty[0], i * sizeof(s->dirty[0]));
		s->line[0] = line;
		s->dirty[0] = d;
		return true;
	}
	if (!allocate)
		return false;
	if (s->n == r->ways)
		*evicted = s->dirty[--s->n];
	memmove(&s->line[1], &s->line[0], s->n * sizeof(s->line[0]));
	memmove(&s->dirty[1], &s->dirty[0], s->n * sizeof(s->dirty[0]));
	s->line[0] = line;
	s->dirty[0] = make_dirty;
	s->n++;
	return false;
}

static uint64_t rng_next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* A stream of look-ups over a pool of lines a few times the cache's size
 * (so that sets fill, hit and evict), below TOP_LINE too (the largest lines
 * of the GPU's addresses), with an invalidate every eight times its lines. */
static void check_geometry(uint32_t bytes, uint32_t ways)
{
	xs_gpu_cache c;
	assert_true(xs_gpu_cache_init(&c, bytes, ways, LINE));
	ref_cache r = { c.sets, c.ways, calloc(c.sets, sizeof(ref_set)) };
	assert_non_null(r.set);
	const uint32_t lines = c.sets * c.ways, pool = 3 * lines;
	uint64_t x = 0x9e3779b97f4a7c15ull ^ bytes ^ ways;
	uint64_t hits = 0, writebacks = 0;
	for (uint32_t i = 0; i < 40 * lines + 20000; i++) {
		uint64_t v = rng_next(&x);
		uint64_t line = v % pool;
		if ((v >> 40) % 5 == 0)
			line += TOP_LINE - pool;
		else if ((v >> 40) % 5 == 1)
			line *= c.sets; /* lines whose hashes share low bits */
		bool allocate = (v >> 50) % 8 != 0, dirty = (v >> 53) % 3 == 0;
		if (i % (8 * lines) == 8 * lines - 1) { /* now and then an ACQUIRE_MEM */
			xs_gpu_cache_invalidate(&c);
			memset(r.set, 0, c.sets * sizeof(ref_set));
		}
		bool ev = false, rev;
		uint64_t h = xs_gpu_cache_hash(line);
		bool hit = xs_gpu_cache_access_h(&c, line, h, allocate, dirty, &ev);
		bool rhit = ref_access(&r, line, allocate, dirty, &rev);
		assert_int_equal(hit, rhit);
		if (!hit && allocate)
			assert_int_equal(ev, rev);
		hits += hit;
		writebacks += rev;
	}
	/* the stream exercised hits and dirty evictions */
	assert_true(hits > 1000);
	assert_true(writebacks > 100);
	/* and the sets hold the same lines in the same recency order: a line
	 * looked up without allocating is a hit exactly where the reference
	 * has it (the look-up reorders both alike) */
	for (uint32_t si = 0; si < c.sets; si++) {
		ref_set copy = r.set[si];
		for (uint32_t k = 0; k < copy.n; k++) {
			bool ev = false, rev;
			uint64_t line = copy.line[copy.n - 1 - k];
			assert_true(xs_gpu_cache_access_h(&c, line, xs_gpu_cache_hash(line), false, false, &ev));
			assert_true(ref_access(&r, line, false, false, &rev));
		}
	}
	free(r.set);
	xs_gpu_cache_free(&c);
}

static void device_caches(void **state)
{
	(void)state;
	/* as xs_gpu_create sizes them: the L0 (32 sets of 4, a mask picks the
	 * set), the Series X L2 (2560 sets, a multiply-shift), Series S's */
	const xs_devinfo *x = xs_devinfo_get(XS_MACHINE_SERIES_X), *sx = xs_devinfo_get(XS_MACHINE_SERIES_S);
	check_geometry(x->l0_bytes, x->l0_ways);
	check_geometry(x->l2_bytes, x->l2_ways);
	check_geometry(sx->l2_bytes, sx->l2_ways);
}

static void odd_geometries(void **state)
{
	(void)state;
	check_geometry(300 * LINE * 7, 7); /* sets not a power of two, odd ways */
	check_geometry(LINE * 16, 16);     /* one set */
	check_geometry(LINE * 3, 1);       /* direct-mapped */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(device_caches),
		cmocka_unit_test(odd_geometries),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
