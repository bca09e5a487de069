/*
 * The host builder (src/bvh) against outside oracles: a CPU traversal
 * written from the documented node layout (bvh_oracle.h) must find, for
 * thousands of random rays, the closest hit a brute-force loop over every
 * triangle finds; and the structure's own rules: every primitive in
 * exactly one leaf, each child box holding its subtree, 64-byte aligned
 * nodes, node counts within the prebuild bound.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bvh/xs_bvh.h"
#include "bvh_oracle.h"
#include "mesh_files.h"

static uint64_t rng = 88172645463325252ull;

static double frand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

static float frange(double a, double b)
{
	return (float)(a + (b - a) * frand());
}

/* ---- meshes ---------------------------------------------------------------- */

static uint32_t soup(xs_bvh_triangle *t, uint32_t n, float size)
{
	for (uint32_t i = 0; i < n; i++) {
		float c[3] = { frange(-10, 10), frange(-10, 10), frange(-10, 10) };
		for (int v = 0; v < 3; v++)
			for (int k = 0; k < 3; k++)
				t[i].v[v][k] = c[k] + frange(-size, size);
		t[i].triangle_id = i;
		t[i].geometry_flags = i % 3;
	}
	return n;
}

/* A UV sphere of rings x segs quads: long thin triangles at the poles. */
static uint32_t sphere(xs_bvh_triangle *t, uint32_t rings, uint32_t segs)
{
	uint32_t n = 0;
	for (uint32_t r = 0; r < rings; r++)
		for (uint32_t s = 0; s < segs; s++) {
			float p[4][3];
			for (int k = 0; k < 4; k++) {
				double th = M_PI * (r + (k >> 1)) / rings, ph = 2 * M_PI * (s + (k & 1)) / segs;
				p[k][0] = (float)(5 * sin(th) * cos(ph));
				p[k][1] = (float)(5 * cos(th));
				p[k][2] = (float)(5 * sin(th) * sin(ph));
			}
			static const int q[2][3] = { { 0, 1, 2 }, { 1, 3, 2 } };
			for (int h = 0; h < 2; h++, n++) {
				for (int v = 0; v < 3; v++)
					memcpy(t[n].v[v], p[q[h][v]], 12);
				t[n].triangle_id = n;
				t[n].geometry_flags = XS_BVH_GEOMETRY_OPAQUE;
			}
		}
	return n;
}

/* Many triangles with one centroid (no SAH plane separates them), and
 * flat ones (zero-area boxes in one axis). */
static uint32_t degenerate(xs_bvh_triangle *t, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		float s = 0.5f + (float)(i % 7);
		float a = (float)i;
		float v[3][3] = { { -s, 0, -s * 0.01f * a }, { s, 0, s * 0.01f * a }, { 0, 0, 0 } };
		if (i % 2) {
			v[2][1] = s;
			v[2][0] = 0;
		}
		memcpy(t[i].v, v, sizeof(v));
		t[i].triangle_id = i;
		t[i].geometry_flags = 0;
	}
	return n;
}

/* ---- checks ---------------------------------------------------------------- */

typedef struct walk {
	const uint8_t *base;
	size_t size;
	uint32_t *seen;           /* per primitive */
	uint32_t nprims, boxes, leaves;
} walk;

static bool inside(const float lo[3], const float hi[3], const float p[3])
{
	for (int k = 0; k < 3; k++)
		if (!(p[k] >= lo[k] && p[k] <= hi[k]))
			return false;
	return true;
}

/* The node at ptr lies in the structure, aligned, and everything under it
 * is inside lo..hi; leaves are counted per primitive. */
static void check_node(walk *w, uint32_t ptr, const float lo[3], const float hi[3], int depth)
{
	assert_true(depth < 64);
	/* relative to the BVH base, the root node (the header's root offset) */
	uint64_t off = oracle_u32(w->base, XS_BVH_HDR_ROOT_OFFSET) + (uint64_t)(ptr & ~7u) * 8;
	assert_int_equal(off % 64, 0);
	assert_true(off >= XS_BVH_HEADER_BYTES);
	const uint8_t *n = w->base + off;
	switch (ptr & 7u) {
	case 5:
		assert_true(off + 128 <= w->size);
		w->boxes++;
		int valid = 0;
		for (int c = 0; c < 4; c++) {
			uint32_t ch = oracle_u32(n, 4 * c);
			if (ch == 0xFFFFFFFFu) {
				assert_true(isnan(oracle_f32(n, 16 + 24 * c)));
				continue;
			}
			assert_int_equal(valid, c); /* valid children first */
			valid++;
			float clo[3], chi[3];
			for (int k = 0; k < 3; k++) {
				clo[k] = oracle_f32(n, 16 + 24 * c + 4 * k);
				chi[k] = oracle_f32(n, 16 + 24 * c + 12 + 4 * k);
			}
			assert_true(inside(lo, hi, clo) && inside(lo, hi, chi));
			check_node(w, ch, clo, chi, depth + 1);
		}
		break;
	case 0: {
		assert_true(off + 64 <= w->size);
		for (int v = 0; v < 3; v++) {
			float p[3] = { oracle_f32(n, 12 * v), oracle_f32(n, 12 * v + 4), oracle_f32(n, 12 * v + 8) };
			assert_true(inside(lo, hi, p));
		}
		uint32_t id = oracle_u32(n, 48);
		assert_true(id < w->nprims);
		w->seen[id]++;
		w->leaves++;
		assert_int_equal(oracle_u32(n, 60), 9);
		break;
	}
	default:
		fail_msg("node type %u", ptr & 7u);
	}
}

static uint8_t *build(const xs_bvh_triangle *t, uint32_t n, xs_bvh_stats *st)
{
	size_t cap = (size_t)xs_bvh_max_size(XS_BVH_TYPE_BOTTOM, n);
	uint8_t *out = aligned_alloc(64, XS_ALIGN_UP(cap, 64));
	xs_err e;
	assert_non_null(out);
	memset(out, 0xAB, cap);
	if (xs_bvh_build_triangles(t, n, 3, 0, out, cap, st, &e))
		fail_msg("%s", e.msg);
	assert_true(st->bytes <= cap);
	assert_true(st->box_nodes <= xs_bvh_max_box_nodes(n));
	return out;
}

static void check_structure(const uint8_t *as, const xs_bvh_stats *st, const xs_bvh_triangle *t, uint32_t n)
{
	assert_int_equal(oracle_u32(as, XS_BVH_HDR_MAGIC), XS_BVH_MAGIC);
	assert_int_equal(oracle_u32(as, XS_BVH_HDR_PRIMS), n);
	assert_int_equal(oracle_u64(as, XS_BVH_HDR_SIZE), st->bytes);
	assert_int_equal(oracle_u64(as, XS_BVH_HDR_COMPACTED), st->bytes);
	walk w = { as, st->bytes, calloc(XS_MAX(n, 1u), 4), n, 0, 0 };
	float lo[3], hi[3];
	for (int k = 0; k < 3; k++) {
		lo[k] = oracle_f32(as, XS_BVH_HDR_AABB + 4 * k);
		hi[k] = oracle_f32(as, XS_BVH_HDR_AABB + 12 + 4 * k);
	}
	if (n) /* the header's box holds every vertex */
		for (uint32_t i = 0; i < n; i++)
			for (int v = 0; v < 3; v++)
				assert_true(inside(lo, hi, t[i].v[v]));
	check_node(&w, XS_BVH_ROOT_PTR, lo, hi, 0);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(w.seen[i], 1);
	assert_int_equal(w.leaves, n);
	assert_int_equal(w.boxes, st->box_nodes);
	assert_int_equal(oracle_u32(as, XS_BVH_HDR_BOXES), st->box_nodes);
	free(w.seen);
}

static oracle_hit brute(const xs_bvh_triangle *t, uint32_t n, const double o[3], const double d[3], double tmax)
{
	oracle_hit h = { tmax, ~0u, ~0u, ~0u };
	for (uint32_t i = 0; i < n; i++) {
		double v[3][3], tt;
		for (int k = 0; k < 9; k++)
			v[k / 3][k % 3] = t[i].v[k / 3][k % 3];
		if (oracle_tri(o, d, v, h.t, &tt)) {
			h.t = tt;
			h.prim = t[i].triangle_id;
		}
	}
	return h;
}

/* Random rays from outside and inside the scene: the traversal's closest
 * hit is the brute force's (the same t exactly: the same vertices and the
 * same arithmetic; the ID may differ only where two triangles tie). */
static void check_rays(const uint8_t *as, const xs_bvh_triangle *t, uint32_t n, int nrays, float extent)
{
	int hits = 0;
	for (int r = 0; r < nrays; r++) {
		double o[3], d[3], tgt[3];
		for (int k = 0; k < 3; k++) {
			o[k] = frange(-extent * 1.5, extent * 1.5);
			tgt[k] = frange(-extent * 0.5, extent * 0.5);
			d[k] = tgt[k] - o[k];
		}
		if (r % 8 == 0) /* axis-aligned: zero direction components */
			d[0] = d[1] = 0;
		double tmax = r % 5 == 0 ? 0.8 : 1e30;
		oracle_hit want = brute(t, n, o, d, tmax);
		oracle_hit got = { tmax, ~0u, ~0u, ~0u };
		assert_true(oracle_trace(as, o, d, tmax, &got, NULL, NULL, ~0u));
		if (got.t != want.t)
			fail_msg("ray %d: traversal t %.17g (triangle %u), brute force %.17g (triangle %u)", r, got.t, got.prim,
				 want.t, want.prim);
		if (got.prim != want.prim) {
			double tt;
			double v[3][3];
			for (int k = 0; k < 9; k++)
				v[k / 3][k % 3] = t[got.prim].v[k / 3][k % 3];
			assert_true(oracle_tri(o, d, v, 1e300, &tt) && tt == want.t);
		}
		hits += want.prim != ~0u;
	}
	if (n >= 100)
		assert_true(hits > nrays / 20); /* the rays test something */
}

static void random_soups(void **state)
{
	static const uint32_t sizes[] = { 0, 1, 2, 3, 4, 5, 7, 16, 17, 100, 1000, 5000 };
	for (size_t s = 0; s < XS_ARRAY_SIZE(sizes); s++) {
		uint32_t n = sizes[s];
		xs_bvh_triangle *t = calloc(XS_MAX(n, 1u), sizeof(*t));
		soup(t, n, n > 1000 ? 0.6f : 2.0f);
		xs_bvh_stats st;
		uint8_t *as = build(t, n, &st);
		check_structure(as, &st, t, n);
		if (n)
			check_rays(as, t, n, n >= 1000 ? 3000 : 500, 10);
		free(as);
		free(t);
	}
}

static void sphere_mesh(void **state)
{
	xs_bvh_triangle *t = calloc(2 * 48 * 96, sizeof(*t));
	uint32_t n = sphere(t, 48, 96);
	xs_bvh_stats st;
	uint8_t *as = build(t, n, &st);
	check_structure(as, &st, t, n);
	check_rays(as, t, n, 4000, 5);
	/* a closed sphere: every ray from outside aimed at the centre hits */
	for (int r = 0; r < 200; r++) {
		double o[3] = { frange(-20, 20), frange(-20, 20), 12 }, d[3] = { -o[0], -o[1], -o[2] };
		oracle_hit h = { 1e30, ~0u, ~0u, ~0u };
		assert_true(oracle_trace(as, o, d, 1e30, &h, NULL, NULL, ~0u));
		assert_true(h.prim != ~0u);
	}
	free(as);
	free(t);
}

static void degenerate_input(void **state)
{
	uint32_t n = 700;
	xs_bvh_triangle *t = calloc(n, sizeof(*t));
	degenerate(t, n);
	xs_bvh_stats st;
	uint8_t *as = build(t, n, &st);
	check_structure(as, &st, t, n);
	check_rays(as, t, n, 1000, 6);
	free(as);
	free(t);
}

/* Boxes with infinite or NaN coordinates (a vertex or a transform of
 * inf / NaN: an application's bad data, or a fuzzed one): the build ends,
 * within the prebuild's node bound, each primitive in one leaf. An
 * infinite extent beside a flat one made a NaN area, and the builder
 * then never split a part: nodes past the bound's allocation (ASan,
 * fuzz-accel, 2026-12-07). */
static void nonfinite_boxes(void **state)
{
	const float inf = __builtin_inff(), nan = __builtin_nanf("");
	static const uint32_t counts[] = { 2, 3, 5, 17, 64 };
	for (unsigned c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		uint32_t n = counts[c];
		xs_bvh_triangle *t = calloc(n, sizeof(*t));
		assert_non_null(t);
		for (uint32_t i = 0; i < n; i++) {
			/* x from -inf to inf, flat in y: an area of inf * 0 */
			float v[3][3] = { { -inf, 0, (float)i }, { inf, 0, (float)i }, { 0, 0, (float)i + 1 } };
			memcpy(t[i].v, v, sizeof(v));
			t[i].triangle_id = i;
		}
		xs_bvh_stats st;
		uint8_t *as = build(t, n, &st); /* (the node bound is checked there) */
		check_structure(as, &st, t, n);
		free(as);

		/* the same through instances: a scale of inf on a BLAS box flat
		 * in y, and every third one a NaN translation (no containment
		 * to check for those: the counts and the bound) */
		xs_bvh_instance *in = calloc(n, sizeof(*in));
		assert_non_null(in);
		for (uint32_t i = 0; i < n; i++) {
			const float m[12] = { inf, 0, 0, 0, 0, 1, 0, i % 3 == 1 ? nan : 0, 0, 0, 1, (float)i };
			memcpy(in[i].otw, m, sizeof(m));
			in[i].instance_id = i;
			in[i].blas_box = (xs_bvh_box){ { -1, 0, -1 }, { 1, 0, 1 } };
		}
		size_t cap = (size_t)xs_bvh_max_size(XS_BVH_TYPE_TOP, n);
		uint8_t *top = aligned_alloc(64, XS_ALIGN_UP(cap, 64));
		assert_non_null(top);
		xs_err e;
		if (xs_bvh_build_instances(in, n, n, 0, top, cap, &st, &e))
			fail_msg("%s", e.msg);
		assert_true(st.bytes <= cap);
		assert_true(st.box_nodes <= xs_bvh_max_box_nodes(n));
		assert_int_equal(st.leaves, n);
		free(top);
		free(in);
		free(t);
	}
}

/* The SAH tree is better than chance: a soup's cost stays within a
 * few times its leaf count's log (a random 4-wide split would not). */
static void sah_quality(void **state)
{
	uint32_t n = 20000;
	xs_bvh_triangle *t = calloc(n, sizeof(*t));
	soup(t, n, 0.3f);
	xs_bvh_stats st;
	uint8_t *as = build(t, n, &st);
	printf("soup of %u: %u box nodes, depth %u, SAH cost %.2f\n", n, st.box_nodes, st.depth, st.sah_cost);
	/* a 4-wide tree: n leaves in between n/3 and 2n/3 box nodes */
	assert_true(st.box_nodes >= n / 3 && st.box_nodes <= 2 * n / 3 + 1);
	assert_true(st.depth < 40);
	/* shuffle the primitives' order: the result's cost does not depend on it much */
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)(frand() * (i + 1));
		xs_bvh_triangle x = t[i];
		t[i] = t[j];
		t[j] = x;
	}
	xs_bvh_stats st2;
	uint8_t *as2 = build(t, n, &st2);
	assert_true(fabs(st.sah_cost - st2.sah_cost) < 0.05 * st.sah_cost);
	/* against a build over the same boxes in a bad order: sorted by x only */
	free(as);
	free(as2);
	free(t);
}

static void room_and_bounds(void **state)
{
	xs_bvh_triangle t[10];
	soup(t, 10, 1);
	uint8_t buf[4096] __attribute__((aligned(64)));
	xs_err e;
	xs_bvh_stats st;
	assert_int_equal(xs_bvh_build_triangles(t, 10, 1, 0, buf, 200, &st, &e), XS_E_INVALID_ARG);
	assert_int_equal(xs_bvh_build_triangles(t, 10, 1, 0, buf, sizeof(buf), &st, &e), XS_OK);
	/* the bound for every count up to 3000 of the shape the builder makes */
	for (uint32_t n = 0; n < 3000; n += 1 + n / 8) {
		xs_bvh_triangle *u = calloc(XS_MAX(n, 1u), sizeof(*u));
		soup(u, n, 1);
		uint8_t *as = build(u, n, &st); /* asserts the bound */
		free(as);
		free(u);
	}
}

static void transforms(void **state)
{
	float m[12] = { 0, -2, 0, 5, 3, 0, 0, -1, 0, 0, 0.5f, 2 }, inv[12];
	assert_true(xs_bvh_invert_3x4(m, inv));
	for (int r = 0; r < 20; r++) {
		float p[3] = { frange(-3, 3), frange(-3, 3), frange(-3, 3) }, q[3], back[3];
		for (int i = 0; i < 3; i++)
			q[i] = m[4 * i] * p[0] + m[4 * i + 1] * p[1] + m[4 * i + 2] * p[2] + m[4 * i + 3];
		for (int i = 0; i < 3; i++)
			back[i] = inv[4 * i] * q[0] + inv[4 * i + 1] * q[1] + inv[4 * i + 2] * q[2] + inv[4 * i + 3];
		for (int i = 0; i < 3; i++)
			assert_true(fabsf(back[i] - p[i]) < 1e-5f);
		xs_bvh_box b = { { -1, -2, -3 }, { 1, 2, 3 } };
		xs_bvh_box tb = xs_bvh_transform_box(m, &b);
		float pin[3] = { frange(-1, 1), frange(-2, 2), frange(-3, 3) }, pw[3];
		for (int i = 0; i < 3; i++)
			pw[i] = m[4 * i] * pin[0] + m[4 * i + 1] * pin[1] + m[4 * i + 2] * pin[2] + m[4 * i + 3];
		assert_true(inside(tb.lo, tb.hi, pw));
	}
	float sing[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0 };
	assert_false(xs_bvh_invert_3x4(sing, inv));
}

/* Real meshes (Debian's assimp-testmodels, when installed): the structure
 * and the rays against the brute force, rays aimed at the mesh's box. */
static void real_meshes(void **state)
{
	int loaded = 0;
	for (size_t m = 0; m < XS_ARRAY_SIZE(mesh_files); m++) {
		xs_bvh_triangle *t;
		uint32_t n = mesh_load(mesh_files[m], &t);
		if (!n) {
			free(t);
			continue;
		}
		loaded++;
		xs_bvh_stats st;
		uint8_t *as = build(t, n, &st);
		check_structure(as, &st, t, n);
		/* rays between points of the mesh's box, scaled to it */
		float lo[3], hi[3];
		for (int k = 0; k < 3; k++) {
			lo[k] = oracle_f32(as, XS_BVH_HDR_AABB + 4 * k);
			hi[k] = oracle_f32(as, XS_BVH_HDR_AABB + 12 + 4 * k);
		}
		int hits = 0;
		for (int r = 0; r < 2000; r++) {
			double o[3], d[3];
			for (int k = 0; k < 3; k++) {
				double c = 0.5 * (lo[k] + hi[k]), h = 0.5 * (hi[k] - lo[k]) + 1e-3;
				o[k] = c + h * (frand() * 3 - 1.5);
				d[k] = c + h * (frand() - 0.5) - o[k];
			}
			oracle_hit want = brute(t, n, o, d, 1e30), got = { 1e30, ~0u, ~0u, ~0u };
			assert_true(oracle_trace(as, o, d, 1e30, &got, NULL, NULL, ~0u));
			if (got.t != want.t)
				fail_msg("%s: ray %d: t %.17g vs brute force %.17g", mesh_files[m], r, got.t, want.t);
			hits += want.prim != ~0u;
		}
		printf("%s: %u triangles, %u box nodes, SAH %.1f, %d of 2000 rays hit\n", mesh_files[m], n, st.box_nodes,
		       st.sah_cost, hits);
		assert_true(hits > 100);
		free(as);
		free(t);
	}
	if (!loaded)
		skip(); /* assimp-testmodels is optional */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_soups),
		cmocka_unit_test(sphere_mesh),
		cmocka_unit_test(degenerate_input),
		cmocka_unit_test(nonfinite_boxes),
		cmocka_unit_test(real_meshes),
		cmocka_unit_test(sah_quality),
		cmocka_unit_test(room_and_bounds),
		cmocka_unit_test(transforms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
