/*
 * The acceleration-structure builder's quality and speed (src/bvh): for a
 * few meshes, the SAH cost of the tree it writes (sum over nodes of
 * SA(node)/SA(root), a box node and a leaf costing 1 each), its box nodes,
 * depth, bytes, and the host CPU time of a build (best of 3), next to the SAH
 * cost of a plain 4-wide object-median tree over the same triangles (the
 * longest axis of the centroids, split at the median twice), so the
 * number has something to be read against. The real meshes of Debian's
 * assimp-testmodels follow when it is installed.
 *
 *   bvh_build [SCALE]     SCALE multiplies the meshes' triangle counts (default 1)
 */
#include "bvh/xs_bvh.h"
#include "../tests/bvh/mesh_files.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static float frand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (float)((double)(rng >> 11) / 9007199254740992.0);
}

static uint32_t soup(xs_bvh_triangle *t, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		float c[3] = { frand() * 100, frand() * 100, frand() * 100 };
		for (int v = 0; v < 3; v++)
			for (int k = 0; k < 3; k++)
				t[i].v[v][k] = c[k] + frand() * 2 - 1;
		t[i].triangle_id = i;
		t[i].geometry_flags = 0;
	}
	return n;
}

/* A height field (a terrain): a grid of quads, two triangles each. */
static uint32_t terrain(xs_bvh_triangle *t, uint32_t side)
{
	uint32_t n = 0;
	for (uint32_t y = 0; y < side; y++)
		for (uint32_t x = 0; x < side; x++) {
			float p[4][3];
			for (int k = 0; k < 4; k++) {
				float fx = (float)(x + (k & 1)), fy = (float)(y + (k >> 1));
				p[k][0] = fx;
				p[k][2] = fy;
				p[k][1] = 8 * sinf(fx * 0.05f) * cosf(fy * 0.07f) + 2 * sinf(fx * 0.31f + fy * 0.17f);
			}
			static const int q[2][3] = { { 0, 1, 2 }, { 1, 3, 2 } };
			for (int h = 0; h < 2; h++, n++) {
				for (int v = 0; v < 3; v++)
					memcpy(t[n].v[v], p[q[h][v]], 12);
				t[n].triangle_id = n;
				t[n].geometry_flags = 0;
			}
		}
	return n;
}

/* A city: boxes of random sizes on a plane (12 triangles a box), many
 * long thin triangles of very different sizes. */
static uint32_t city(xs_bvh_triangle *t, uint32_t boxes)
{
	uint32_t n = 0;
	static const int f[12][3] = { { 0, 1, 3 }, { 0, 3, 2 }, { 4, 6, 7 }, { 4, 7, 5 }, { 0, 4, 5 }, { 0, 5, 1 },
				      { 2, 3, 7 }, { 2, 7, 6 }, { 0, 2, 6 }, { 0, 6, 4 }, { 1, 5, 7 }, { 1, 7, 3 } };
	for (uint32_t b = 0; b < boxes; b++) {
		float lo[3] = { frand() * 1000, 0, frand() * 1000 };
		float sz[3] = { 2 + frand() * 20, 5 + powf(frand(), 4) * 200, 2 + frand() * 20 };
		float c[8][3];
		for (int k = 0; k < 8; k++)
			for (int a = 0; a < 3; a++)
				c[k][a] = lo[a] + ((k >> a) & 1 ? sz[a] : 0);
		for (int i = 0; i < 12; i++, n++) {
			for (int v = 0; v < 3; v++)
				memcpy(t[n].v[v], c[f[i][v]], 12);
			t[n].triangle_id = n;
			t[n].geometry_flags = 0;
		}
	}
	return n;
}

/* ---- the baseline: 4-wide object median ---- */

typedef struct prim {
	xs_bvh_box b;
	float c[3];
} prim;

static int axis_cmp;

static int cmp(const void *a, const void *b)
{
	float x = ((const prim *)a)->c[axis_cmp], y = ((const prim *)b)->c[axis_cmp];
	return x < y ? -1 : x > y;
}

static double area(const xs_bvh_box *b)
{
	double d[3];
	for (int k = 0; k < 3; k++)
		d[k] = fmax(0, (double)b->hi[k] - b->lo[k]);
	return 2 * (d[0] * d[1] + d[1] * d[2] + d[2] * d[0]);
}

static xs_bvh_box bounds(const prim *p, uint32_t n)
{
	xs_bvh_box r = { { INFINITY, INFINITY, INFINITY }, { -INFINITY, -INFINITY, -INFINITY } };
	for (uint32_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++) {
			r.lo[k] = fminf(r.lo[k], p[i].b.lo[k]);
			r.hi[k] = fmaxf(r.hi[k], p[i].b.hi[k]);
		}
	return r;
}

static void median_split(prim *p, uint32_t n)
{
	float lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
	for (uint32_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++) {
			lo[k] = fminf(lo[k], p[i].c[k]);
			hi[k] = fmaxf(hi[k], p[i].c[k]);
		}
	axis_cmp = hi[0] - lo[0] >= hi[1] - lo[1] && hi[0] - lo[0] >= hi[2] - lo[2] ? 0 : hi[1] - lo[1] >= hi[2] - lo[2] ? 1 : 2;
	qsort(p, n, sizeof(*p), cmp);
}

/* Cost of the subtree over p[0..n) whose node box is box (a leaf when n == 1). */
static double median_cost(prim *p, uint32_t n, double root)
{
	xs_bvh_box box = bounds(p, n);
	double c = area(&box) / root;
	if (n == 1)
		return c;
	uint32_t start[5] = { 0, 0, 0, 0, n };
	median_split(p, n);
	uint32_t h = n / 2;
	median_split(p, h);
	median_split(p + h, n - h);
	start[1] = h / 2;
	start[2] = h;
	start[3] = h + (n - h) / 2;
	for (int i = 0; i < 4; i++)
		if (start[i + 1] > start[i])
			c += median_cost(p + start[i], start[i + 1] - start[i], root);
	return c;
}

/* CPU time: the host is shared, so wall time would measure the neighbours. */
static double cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void run(const char *name, const xs_bvh_triangle *t, uint32_t n)
{
	size_t cap = (size_t)xs_bvh_max_size(XS_BVH_TYPE_BOTTOM, n);
	uint8_t *out = aligned_alloc(64, (cap + 63) / 64 * 64);
	xs_bvh_stats st;
	xs_err e;
	double best = 1e30;
	for (int r = 0; r < 3; r++) {
		double t0 = cpu_seconds();
		if (xs_bvh_build_triangles(t, n, 1, 0, out, cap, &st, &e)) {
			fprintf(stderr, "%s: %s\n", name, e.msg);
			exit(1);
		}
		best = fmin(best, cpu_seconds() - t0);
	}
	prim *p = malloc((size_t)n * sizeof(*p));
	for (uint32_t i = 0; i < n; i++) {
		p[i].b = (xs_bvh_box){ { INFINITY, INFINITY, INFINITY }, { -INFINITY, -INFINITY, -INFINITY } };
		for (int v = 0; v < 3; v++)
			for (int k = 0; k < 3; k++) {
				p[i].b.lo[k] = fminf(p[i].b.lo[k], t[i].v[v][k]);
				p[i].b.hi[k] = fmaxf(p[i].b.hi[k], t[i].v[v][k]);
			}
		for (int k = 0; k < 3; k++)
			p[i].c[k] = 0.5f * p[i].b.lo[k] + 0.5f * p[i].b.hi[k];
	}
	xs_bvh_box all = bounds(p, n);
	double med = median_cost(p, n, area(&all));
	printf("%-22s %9u %9u %6u %8.1f %11.1f %9.2f %8.3f %8.2f\n", name, n, st.box_nodes, st.depth, st.sah_cost, med,
	       st.sah_cost / med, best, n / best / 1e6);
	free(p);
	free(out);
}

int main(int argc, char **argv)
{
	double scale = argc > 1 ? atof(argv[1]) : 1;
	uint32_t ns = (uint32_t)(100000 * scale), side = (uint32_t)(300 * sqrt(scale)), nb = (uint32_t)(20000 * scale);
	xs_bvh_triangle *t = malloc((size_t)XS_MAX(XS_MAX(ns, 2 * side * side), 12 * nb) * sizeof(*t));
	if (!t)
		return 1;
	printf("%-22s %9s %9s %6s %8s %11s %9s %8s %8s\n", "mesh", "triangles", "box nodes", "depth", "SAH",
	       "median SAH", "SAH/med", "build s", "M tri/s");
	run("random soup", t, soup(t, ns));
	run("terrain height field", t, terrain(t, side));
	run("city of boxes", t, city(t, nb));
	free(t);
	/* real meshes, when Debian's assimp-testmodels is installed */
	for (size_t m = 0; m < XS_ARRAY_SIZE(mesh_files); m++) {
		uint32_t n = mesh_load(mesh_files[m], &t);
		const char *base = strrchr(mesh_files[m], '/');
		if (n)
			run(base ? base + 1 : mesh_files[m], t, n);
		free(t);
	}
	return 0;
}
