/*
 * scene_trace.c — CPU rays by the D3D12 rules, written from the DXR
 * specification and not from xs12's GPU path (src/bvh, the TraceRay
 * shaders), so that the two can check each other:
 *
 *  - instances: a ray reaches instance i only if (ray mask & InstanceMask)
 *    is non-zero; it is carried into object space by the inverse of the
 *    instance's 3x4 transform, direction not renormalised, so t is the same
 *    number in world and object space (RayTCurrent());
 *  - triangles: Moller-Trumbore; a hit needs tmin <= t <= tmax and
 *    barycentrics u, v >= 0, u + v <= 1, (u, v) being the weights of
 *    vertices 1 and 2 (attributes.barycentrics);
 *  - facing: front when the vertices appear clockwise from the ray origin
 *    in D3D12's left-handed object space, i.e. when
 *    dot(cross(v1 - v0, v2 - v0), dir) < 0 (Moller-Trumbore's determinant
 *    is positive); TRIANGLE_FRONT_COUNTERCLOCKWISE swaps it;
 *  - closest hit: the hit of smallest t; D3D12 leaves the choice among
 *    equal t open, this renderer takes the smallest (instance, geometry,
 *    primitive) so that its two traversals agree exactly;
 *  - ACCEPT_FIRST_HIT_AND_END_SEARCH: the first hit found ends the search.
 *
 * The acceleration is a textbook BVH per BLAS (object median split on the
 * longest centroid axis, leaves of up to 4 triangles); instances are few
 * and are tested one by one. scene_trace with no acceleration tests every
 * triangle: the brute force the BVH is tested against.
 */
#include "scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ref {
	float lo[3], hi[3], c[3];
	uint32_t geometry, primitive;
} ref;

typedef struct node {
	float lo[3], hi[3];
	uint32_t first;   /* leaf: first ref; inner: left child (right = first + 1) */
	uint32_t count;   /* refs of a leaf; 0 for an inner node */
} node;

typedef struct bvh {
	node *nodes;
	uint32_t node_count;
	ref *refs;
} bvh;

struct scene_accel {
	bvh *blas;       /* one per scene.blas */
	uint32_t blas_count;
};

/* ---- small vector algebra ------------------------------------------------- */

static void sub(float r[3], const float a[3], const float b[3])
{
	for (int k = 0; k < 3; k++)
		r[k] = a[k] - b[k];
}

static void cross(float r[3], const float a[3], const float b[3])
{
	r[0] = a[1] * b[2] - a[2] * b[1];
	r[1] = a[2] * b[0] - a[0] * b[2];
	r[2] = a[0] * b[1] - a[1] * b[0];
}

static float dot(const float a[3], const float b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Inverse of a 3x4 affine transform (false when singular). */
static bool invert(const float m[3][4], float r[3][4])
{
	double a = m[0][0], b = m[0][1], c = m[0][2], d = m[1][0], e = m[1][1], f = m[1][2], g = m[2][0],
	       h = m[2][1], i = m[2][2];
	double A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
	double det = a * A + b * B + c * C;
	if (det == 0 || !isfinite(det))
		return false;
	double inv[3][3] = { { A / det, -(b * i - c * h) / det, (b * f - c * e) / det },
			     { B / det, (a * i - c * g) / det, -(a * f - c * d) / det },
			     { C / det, -(a * h - b * g) / det, (a * e - b * d) / det } };
	for (int row = 0; row < 3; row++) {
		double t = 0;
		for (int k = 0; k < 3; k++) {
			r[row][k] = (float)inv[row][k];
			t += inv[row][k] * m[k][3];
		}
		r[row][3] = (float)-t;
	}
	return true;
}

static void to_object(const float inv[3][4], const scene_ray *r, float o[3], float d[3])
{
	for (int k = 0; k < 3; k++) {
		o[k] = inv[k][0] * r->origin[0] + inv[k][1] * r->origin[1] + inv[k][2] * r->origin[2] + inv[k][3];
		d[k] = inv[k][0] * r->dir[0] + inv[k][1] * r->dir[1] + inv[k][2] * r->dir[2];
	}
}

/* ---- one triangle ------------------------------------------------------------- */

typedef struct cursor {
	const scene_ray *ray;
	float o[3], d[3];            /* object space */
	uint32_t instance;
	bool ccw_front;
	scene_hit best;
	bool done;                   /* ACCEPT_FIRST_HIT_AND_END_SEARCH found one */
} cursor;

/* Closer, or as close with the smaller ids (the tie rule above). */
static bool better(const scene_hit *h, const scene_hit *best)
{
	if (!best->hit || h->t < best->t)
		return true;
	if (h->t > best->t)
		return false;
	if (h->instance != best->instance)
		return h->instance < best->instance;
	if (h->geometry != best->geometry)
		return h->geometry < best->geometry;
	return h->primitive < best->primitive;
}

static void triangle(cursor *c, const scene_mesh *m, uint32_t geometry, uint32_t prim)
{
	const uint32_t *ix = &m->indices[3 * prim];
	if (ix[0] >= m->vertex_count || ix[1] >= m->vertex_count || ix[2] >= m->vertex_count)
		return;
	const float *v0 = &m->positions[3 * ix[0]], *v1 = &m->positions[3 * ix[1]], *v2 = &m->positions[3 * ix[2]];
	float e1[3], e2[3], p[3], s[3], q[3];
	sub(e1, v1, v0);
	sub(e2, v2, v0);
	cross(p, c->d, e2);
	float det = dot(e1, p);
	if (det == 0 || !isfinite(det))
		return;   /* the ray is in the triangle's plane, or the triangle is degenerate */
	float inv = 1.0f / det;
	sub(s, c->o, v0);
	float u = dot(s, p) * inv;
	if (!(u >= 0 && u <= 1))
		return;
	cross(q, s, e1);
	float v = dot(c->d, q) * inv;
	if (!(v >= 0 && u + v <= 1))
		return;
	float t = dot(e2, q) * inv;
	float tmax = c->best.hit ? c->best.t : c->ray->tmax;
	if (!(t >= c->ray->tmin && t <= tmax))
		return;
	scene_hit h = { .hit = true, .t = t, .instance = c->instance, .geometry = geometry, .primitive = prim,
			.bary = { u, v }, .front = (det > 0) != c->ccw_front };
	if (better(&h, &c->best))
		c->best = h;
	if (c->ray->flags & SCENE_RAY_ACCEPT_FIRST_HIT_AND_END_SEARCH)
		c->done = true;
}

/* ---- the BVH -------------------------------------------------------------------- */

static _Thread_local int sort_axis;

static int by_centroid(const void *a, const void *b)
{
	float x = ((const ref *)a)->c[sort_axis], y = ((const ref *)b)->c[sort_axis];
	return (x > y) - (x < y);
}

static void node_bounds(node *n, const ref *r, uint32_t count)
{
	for (int k = 0; k < 3; k++) {
		n->lo[k] = INFINITY;
		n->hi[k] = -INFINITY;
	}
	for (uint32_t i = 0; i < count; i++)
		for (int k = 0; k < 3; k++) {
			n->lo[k] = fminf(n->lo[k], r[i].lo[k]);
			n->hi[k] = fmaxf(n->hi[k], r[i].hi[k]);
		}
	/* A little slack so that the box test, whose rounding differs from the
	 * triangle test's, never drops a hit on a box face (the brute force
	 * would keep it). */
	for (int k = 0; k < 3; k++) {
		float pad = 1e-5f * (fabsf(n->lo[k]) + fabsf(n->hi[k])) + 1e-30f;
		n->lo[k] -= pad;
		n->hi[k] += pad;
	}
}

static void build(bvh *b, uint32_t ni, uint32_t first, uint32_t count)
{
	node *n = &b->nodes[ni];
	node_bounds(n, &b->refs[first], count);
	if (count <= 4) {
		n->first = first;
		n->count = count;
		return;
	}
	float clo[3] = { INFINITY, INFINITY, INFINITY }, chi[3] = { -INFINITY, -INFINITY, -INFINITY };
	for (uint32_t i = first; i < first + count; i++)
		for (int k = 0; k < 3; k++) {
			clo[k] = fminf(clo[k], b->refs[i].c[k]);
			chi[k] = fmaxf(chi[k], b->refs[i].c[k]);
		}
	int axis = 0;
	for (int k = 1; k < 3; k++)
		if (chi[k] - clo[k] > chi[axis] - clo[axis])
			axis = k;
	sort_axis = axis;
	qsort(&b->refs[first], count, sizeof(ref), by_centroid);
	uint32_t half = count / 2;
	uint32_t left = b->node_count;
	b->node_count += 2;
	n->first = left;
	n->count = 0;
	build(b, left, first, half);
	build(b, left + 1, first + half, count - half);
}

static int build_blas(bvh *b, const scene_blas *sb)
{
	uint64_t n = scene_blas_triangles(sb);
	memset(b, 0, sizeof(*b));
	if (n == 0)
		return 0;
	if (n > UINT32_MAX / 2)
		return -1;
	b->refs = malloc(n * sizeof(ref));
	b->nodes = malloc((2 * n) * sizeof(node));   /* a binary tree of n leaves at most */
	if (!b->refs || !b->nodes)
		return -1;
	uint32_t k = 0;
	for (uint32_t g = 0; g < sb->mesh_count; g++) {
		const scene_mesh *m = &sb->meshes[g];
		for (uint32_t p = 0; p < m->triangle_count; p++) {
			ref *r = &b->refs[k++];
			r->geometry = g;
			r->primitive = p;
			for (int a = 0; a < 3; a++) {
				r->lo[a] = INFINITY;
				r->hi[a] = -INFINITY;
			}
			for (int v = 0; v < 3; v++) {
				uint32_t vi = m->indices[3 * p + v];
				if (vi >= m->vertex_count)
					continue;
				for (int a = 0; a < 3; a++) {
					r->lo[a] = fminf(r->lo[a], m->positions[3 * vi + a]);
					r->hi[a] = fmaxf(r->hi[a], m->positions[3 * vi + a]);
				}
			}
			for (int a = 0; a < 3; a++)
				r->c[a] = 0.5f * (r->lo[a] + r->hi[a]);
		}
	}
	b->node_count = 1;
	build(b, 0, 0, k);
	return 0;
}

scene_accel *scene_accel_build(const scene *s)
{
	scene_accel *a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->blas = calloc(s->blas_count ? s->blas_count : 1, sizeof(bvh));
	if (!a->blas) {
		free(a);
		return NULL;
	}
	a->blas_count = s->blas_count;
	for (uint32_t i = 0; i < s->blas_count; i++)
		if (build_blas(&a->blas[i], &s->blas[i])) {
			scene_accel_free(a);
			return NULL;
		}
	return a;
}

void scene_accel_free(scene_accel *a)
{
	if (!a)
		return;
	for (uint32_t i = 0; i < a->blas_count; i++) {
		free(a->blas[i].nodes);
		free(a->blas[i].refs);
	}
	free(a->blas);
	free(a);
}

/* Slab test; the far distance is widened by a few ulps (as in PBRT) for
 * the same reason as the boxes' slack. */
static bool box(const node *n, const float o[3], const float inv_d[3], float tmin, float tmax, float *enter)
{
	float t0 = tmin, t1 = tmax;
	for (int k = 0; k < 3; k++) {
		float a = (n->lo[k] - o[k]) * inv_d[k], b = (n->hi[k] - o[k]) * inv_d[k];
		if (a > b) {
			float x = a;
			a = b;
			b = x;
		}
		b *= 1.0f + 4 * 5.96e-8f;
		/* NaN (0 * inf: the origin on a slab with a zero direction) keeps the bound */
		if (a > t0)
			t0 = a;
		if (b < t1)
			t1 = b;
	}
	*enter = t0;
	return t0 <= t1;
}

static void trace_bvh(cursor *c, const bvh *b, const scene_blas *sb)
{
	if (!b->node_count)
		return;
	float inv_d[3];
	for (int k = 0; k < 3; k++)
		inv_d[k] = 1.0f / c->d[k];
	uint32_t stack[128];
	int sp = 0;
	stack[sp++] = 0;
	while (sp && !c->done) {
		const node *n = &b->nodes[stack[--sp]];
		float enter, tmax = c->best.hit ? c->best.t : c->ray->tmax;
		if (!box(n, c->o, inv_d, c->ray->tmin, tmax, &enter))
			continue;
		if (n->count) {
			for (uint32_t i = 0; i < n->count && !c->done; i++) {
				const ref *r = &b->refs[n->first + i];
				triangle(c, &sb->meshes[r->geometry], r->geometry, r->primitive);
			}
			continue;
		}
		/* the nearer child on top; depth is log2(n) + 1, far below 128 */
		float e0, e1;
		bool h0 = box(&b->nodes[n->first], c->o, inv_d, c->ray->tmin, tmax, &e0);
		bool h1 = box(&b->nodes[n->first + 1], c->o, inv_d, c->ray->tmin, tmax, &e1);
		if (h0 && h1) {
			stack[sp++] = e0 <= e1 ? n->first + 1 : n->first;
			stack[sp++] = e0 <= e1 ? n->first : n->first + 1;
		} else if (h0 || h1) {
			stack[sp++] = h0 ? n->first : n->first + 1;
		}
	}
}

scene_hit scene_trace(const scene *s, const scene_accel *a, const scene_ray *r)
{
	cursor c = { .ray = r };
	for (uint32_t i = 0; i < s->instance_count && !c.done; i++) {
		const scene_instance *in = &s->instances[i];
		float inv[3][4];
		if (!(in->mask & r->mask) || in->blas >= s->blas_count || !invert(in->transform, inv))
			continue;
		to_object(inv, r, c.o, c.d);
		c.instance = i;
		c.ccw_front = in->flags & SCENE_INSTANCE_FRONT_CCW;
		const scene_blas *sb = &s->blas[in->blas];
		if (a) {
			trace_bvh(&c, &a->blas[in->blas], sb);
			continue;
		}
		for (uint32_t g = 0; g < sb->mesh_count && !c.done; g++)
			for (uint32_t p = 0; p < sb->meshes[g].triangle_count && !c.done; p++)
				triangle(&c, &sb->meshes[g], g, p);
	}
	return c.best;
}
