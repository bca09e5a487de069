/*
 * scene.c — the graphics test scene (scene.h). Geometry is made in a
 * left-handed world (x right, y up, z away from the eye), put through a
 * look-at view and a D3D perspective projection here, on the CPU, in
 * double and stored as float clip-space positions.
 */
#include "scene.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* vertex and index capacities, enough for both kinds at any size */
#define MAX_VERTS 4096
#define MAX_INDICES 8192

typedef struct builder {
	gfx_scene *s;
	double view_proj[4][4];   /* row-major, column vectors: clip = M * (x, y, z, 1) */
} builder;

static int fail(char *err, size_t n, const char *fmt, ...)
{
	if (err && n) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void sub3(double o[3], const double a[3], const double b[3])
{
	for (int i = 0; i < 3; i++)
		o[i] = a[i] - b[i];
}

static void cross3(double o[3], const double a[3], const double b[3])
{
	o[0] = a[1] * b[2] - a[2] * b[1];
	o[1] = a[2] * b[0] - a[0] * b[2];
	o[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot3(const double a[3], const double b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void norm3(double a[3])
{
	double l = sqrt(dot3(a, a));
	for (int i = 0; i < 3; i++)
		a[i] /= l;
}

/* Left-handed look-at times a D3D perspective (z' = (z - n) f / (f - n), w' = z). */
static void camera(builder *b, const double eye[3], const double at[3], double fov_y, double n, double f)
{
	double zax[3], xax[3], yax[3], up[3] = {0, 1, 0};
	sub3(zax, at, eye);
	norm3(zax);
	cross3(xax, up, zax);
	norm3(xax);
	cross3(yax, zax, xax);
	double view[4][4] = {
		{xax[0], xax[1], xax[2], -dot3(xax, eye)},
		{yax[0], yax[1], yax[2], -dot3(yax, eye)},
		{zax[0], zax[1], zax[2], -dot3(zax, eye)},
		{0, 0, 0, 1},
	};
	double cot = 1.0 / tan(fov_y / 2);
	double proj[4][4] = {
		{cot, 0, 0, 0},
		{0, cot, 0, 0},
		{0, 0, f / (f - n), -n * f / (f - n)},
		{0, 0, 1, 0},
	};
	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 4; c++) {
			double acc = 0;
			for (int k = 0; k < 4; k++)
				acc += proj[r][k] * view[k][c];
			b->view_proj[r][c] = acc;
		}
}

static uint32_t add_vertex(builder *b, const double p[3], const float color[4])
{
	gfx_scene *s = b->s;
	gfx_vertex *v = &s->vertices[s->num_vertices];
	for (int r = 0; r < 4; r++)
		v->pos[r] = (float)(b->view_proj[r][0] * p[0] + b->view_proj[r][1] * p[1] + b->view_proj[r][2] * p[2] +
				    b->view_proj[r][3]);
	memcpy(v->color, color, sizeof(v->color));
	return s->num_vertices++;
}

static void add_clip_vertex(gfx_scene *s, double x, double y, double z, double w, const float color[4])
{
	gfx_vertex *v = &s->vertices[s->num_vertices++];
	v->pos[0] = (float)x;
	v->pos[1] = (float)y;
	v->pos[2] = (float)z;
	v->pos[3] = (float)w;
	memcpy(v->color, color, sizeof(v->color));
}

static void add_tri(gfx_scene *s, uint32_t a, uint32_t b, uint32_t c)
{
	s->indices[s->num_indices++] = a;
	s->indices[s->num_indices++] = b;
	s->indices[s->num_indices++] = c;
}

static double terrain_height(double x, double z)
{
	return -1.0 + 0.35 * sin(1.3 * x) * cos(0.9 * z) + 0.05 * z;
}

/* A grid of (n x n) quads over [x0, x1] x [z0, z1]; each triangle wound so
 * that it is clockwise seen from above (cross(v1 - v0, v2 - v0) points up:
 * the front with FrontCounterClockwise FALSE). */
static void terrain(builder *b, int n, double x0, double x1, double z0, double z1)
{
	uint32_t base = b->s->num_vertices;
	for (int j = 0; j <= n; j++)
		for (int i = 0; i <= n; i++) {
			double x = x0 + (x1 - x0) * i / n, z = z0 + (z1 - z0) * j / n;
			double p[3] = {x, terrain_height(x, z), z};
			float c[4] = {(float)(0.25 + 0.2 * sin(0.7 * x + 0.3 * z)), (float)(0.45 + 0.3 * cos(0.5 * z)),
				      (float)(0.2 + 0.15 * (p[1] + 1.0) / 0.4), 1.0f};
			add_vertex(b, p, c);
		}
	for (int j = 0; j < n; j++)
		for (int i = 0; i < n; i++) {
			uint32_t v00 = base + (uint32_t)(j * (n + 1) + i), v10 = v00 + 1;
			uint32_t v01 = v00 + (uint32_t)(n + 1), v11 = v01 + 1;
			/* alternate the diagonal, so shared edges run both ways */
			if ((i + j) & 1) {
				add_tri(b->s, v00, v01, v10);
				add_tri(b->s, v10, v01, v11);
			} else {
				add_tri(b->s, v00, v01, v11);
				add_tri(b->s, v00, v11, v10);
			}
		}
}

/* An axis-aligned cube, 4 vertices per face with their own colours, each
 * triangle wound front (clockwise on screen) when seen from outside. */
static void cube(builder *b, const double c[3], double h, const float tint[3])
{
	static const int axes[6][3] = {{0, 1, 2}, {0, 1, 2}, {1, 2, 0}, {1, 2, 0}, {2, 0, 1}, {2, 0, 1}};
	for (int f = 0; f < 6; f++) {
		int na = axes[f][0], ua = axes[f][1], va = axes[f][2];
		double sign = (f & 1) ? -1.0 : 1.0;
		double nrm[3] = {0, 0, 0};
		nrm[na] = sign;
		uint32_t q[4];
		static const double corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
		for (int k = 0; k < 4; k++) {
			double p[3];
			p[na] = c[na] + sign * h;
			p[ua] = c[ua] + corner[k][0] * h;
			p[va] = c[va] + corner[k][1] * h;
			float shade = (float)(0.55 + 0.07 * f + 0.08 * k);
			float col[4] = {tint[0] * shade, tint[1] * shade, tint[2] * shade, 1.0f};
			double w[3] = {p[0], p[1], p[2]};
			q[k] = add_vertex(b, w, col);
		}
		/* pick the winding whose geometric normal points outward */
		double e1[3], e2[3], cr[3];
		double p0[3], p1[3], p2[3];
		for (int i = 0; i < 3; i++) {
			p0[i] = c[i];
			p1[i] = c[i];
			p2[i] = c[i];
		}
		p0[ua] += corner[0][0] * h; p0[va] += corner[0][1] * h;
		p1[ua] += corner[1][0] * h; p1[va] += corner[1][1] * h;
		p2[ua] += corner[2][0] * h; p2[va] += corner[2][1] * h;
		sub3(e1, p1, p0);
		sub3(e2, p2, p0);
		cross3(cr, e1, e2);
		if (dot3(cr, nrm) > 0) {
			add_tri(b->s, q[0], q[1], q[2]);
			add_tri(b->s, q[0], q[2], q[3]);
		} else {
			add_tri(b->s, q[0], q[2], q[1]);
			add_tri(b->s, q[0], q[3], q[2]);
		}
	}
}

static void build_main(builder *b, uint32_t size)
{
	gfx_scene *s = b->s;
	double eye[3] = {0.3, 0.2, -2.2}, at[3] = {0.0, -0.7, 3.0};
	camera(b, eye, at, 1.2, 0.25, 30.0);
	s->clear[0] = 0.1f;
	s->clear[1] = 0.15f;
	s->clear[2] = 0.3f;
	s->clear[3] = 1.0f;
	s->clear_depth = 1.0f;

	gfx_draw *d = &s->draws[s->num_draws++];
	d->what = "opaque mesh (terrain, cubes)";
	d->first_index = s->num_indices;
	/* the cubes float above the ground and apart from each other: depth
	 * decides which is seen where they overlap on the screen, with
	 * margins, never through two surfaces crossing (where float rounding
	 * of the interpolated depths, not the rules, would pick the winner) */
	double c1[3] = {-1.1, 0, 1.6}, c2[3] = {0.7, 0, 3.2}, c3[3] = {0.0, 0, 0.5};
	c1[1] = -1.0 + 0.35 + 0.05 * c1[2] + 0.45 + 0.12;
	c2[1] = -1.0 + 0.35 + 0.05 * c2[2] + 0.7 + 0.12;
	c3[1] = -1.0 + 0.35 + 0.05 * c3[2] + 0.3 + 0.12;
	float t1[3] = {1.0f, 0.35f, 0.3f}, t2[3] = {0.3f, 0.5f, 1.0f}, t3[3] = {0.95f, 0.85f, 0.3f};
	/* nearest first: the farther cube and the ground then fail the depth test where hidden */
	cube(b, c3, 0.3, t3);
	cube(b, c1, 0.45, t1);
	cube(b, c2, 0.7, t2);
	/* from z = -3.5 (behind the eye at -2.2) to 9: the first rows are clipped */
	terrain(b, 12, -4.0, 4.0, -3.5, 9.0);
	d->index_count = s->num_indices - d->first_index;
	ref_state_default(&d->state, size, size);
	d->state.cull = REF_CULL_BACK;
	d->state.front_ccw = false;
	d->state.depth_enable = true;
	d->state.depth_write = true;
	d->state.depth_func = REF_CMP_LESS;

	/* a straight-alpha quad on top (clip space, w = 1), its colour varying */
	d = &s->draws[s->num_draws++];
	d->what = "straight-alpha quad";
	d->first_index = s->num_indices;
	uint32_t q = s->num_vertices;
	float ca[4] = {1.0f, 0.9f, 0.2f, 0.35f}, cb[4] = {0.2f, 1.0f, 0.9f, 0.6f};
	float cc[4] = {0.9f, 0.2f, 1.0f, 0.45f}, cd[4] = {1.0f, 1.0f, 1.0f, 0.2f};
	add_clip_vertex(s, -0.55, 0.7, 0.1, 1.0, ca);
	add_clip_vertex(s, 0.35, 0.8, 0.1, 1.0, cb);
	add_clip_vertex(s, 0.45, -0.1, 0.1, 1.0, cc);
	add_clip_vertex(s, -0.6, 0.05, 0.1, 1.0, cd);
	add_tri(s, q, q + 1, q + 2);
	add_tri(s, q, q + 2, q + 3);
	d->index_count = s->num_indices - d->first_index;
	ref_state_default(&d->state, size, size);
	d->state.blend = REF_BLEND_STRAIGHT_ALPHA;
}

/* A deterministic jitter in [-0.5, 0.5) (an LCG: the scene must not depend on libc's rand). */
static double jitter(uint32_t *st)
{
	*st = *st * 1664525u + 1013904223u;
	return (double)(*st >> 8) / (double)(1u << 24) - 0.5;
}

static void build_coverage(builder *b, uint32_t size)
{
	gfx_scene *s = b->s;
	memset(s->clear, 0, sizeof(s->clear));
	s->clear_depth = 1.0f;
	gfx_draw *d = &s->draws[s->num_draws++];
	d->what = "coverage grid";
	d->first_index = s->num_indices;
	const int n = 10;
	uint32_t rng = 12345;
	float white[4] = {1.0f, 1.0f, 1.0f, 0.25f};
	uint32_t base = s->num_vertices;
	double cell = (double)size / n;
	for (int j = 0; j <= n; j++)
		for (int i = 0; i <= n; i++) {
			/* the rim lies outside the target; inner vertices move by up to 0.4 cells,
			 * every third one onto a pixel centre */
			double px = i * cell, py = j * cell;
			if (i == 0 || j == 0 || i == n || j == n) {
				px = (i - n / 2.0) * cell * 1.3 + size / 2.0;
				py = (j - n / 2.0) * cell * 1.3 + size / 2.0;
			} else {
				px += 0.8 * cell * jitter(&rng);
				py += 0.8 * cell * jitter(&rng);
				if ((i + j * n) % 3 == 0) {
					px = floor(px) + 0.5;
					py = floor(py) + 0.5;
				}
			}
			add_clip_vertex(s, px / size * 2.0 - 1.0, 1.0 - py / size * 2.0, 0.5, 1.0, white);
		}
	for (int j = 0; j < n; j++)
		for (int i = 0; i < n; i++) {
			uint32_t v00 = base + (uint32_t)(j * (n + 1) + i), v10 = v00 + 1;
			uint32_t v01 = v00 + (uint32_t)(n + 1), v11 = v01 + 1;
			/* both windings and both diagonals */
			if ((i ^ j) & 1) {
				add_tri(s, v00, v10, v11);
				add_tri(s, v00, v01, v11);
			} else {
				add_tri(s, v00, v10, v01);
				add_tri(s, v10, v11, v01);
			}
		}
	d->index_count = s->num_indices - d->first_index;
	ref_state_default(&d->state, size, size);
	d->state.blend = REF_BLEND_STRAIGHT_ALPHA;
}

int gfx_scene_build(gfx_scene *s, gfx_scene_kind kind, uint32_t size, char *err, size_t err_size)
{
	memset(s, 0, sizeof(*s));
	if (size < 16 || size > 1024)
		return fail(err, err_size, "gfx_scene_build: size %u is not 16..1024", size);
	if (kind != GFX_SCENE_MAIN && kind != GFX_SCENE_COVERAGE)
		return fail(err, err_size, "gfx_scene_build: kind %d is neither MAIN (0) nor COVERAGE (1)", (int)kind);
	s->kind = kind;
	s->width = s->height = size;
	s->vertices = calloc(MAX_VERTS, sizeof(gfx_vertex));
	s->indices = calloc(MAX_INDICES, sizeof(uint32_t));
	if (!s->vertices || !s->indices) {
		gfx_scene_free(s);
		return fail(err, err_size, "gfx_scene_build: out of memory");
	}
	builder b;
	memset(&b, 0, sizeof(b));
	b.s = s;
	if (kind == GFX_SCENE_MAIN)
		build_main(&b, size);
	else
		build_coverage(&b, size);
	return 0;
}

void gfx_scene_free(gfx_scene *s)
{
	free(s->vertices);
	free(s->indices);
	memset(s, 0, sizeof(*s));
}

int gfx_scene_render(const gfx_scene *s, ref_format format, ref_target *t, ref_stats *stats, char *err,
		     size_t err_size)
{
	if (ref_target_init(t, s->width, s->height, format, err, err_size))
		return -1;
	ref_clear(t, s->clear, s->clear_depth);
	ref_vertex *rv = calloc(s->num_vertices ? s->num_vertices : 1, sizeof(ref_vertex));
	if (!rv) {
		ref_target_free(t);
		return fail(err, err_size, "gfx_scene_render: out of memory");
	}
	for (uint32_t i = 0; i < s->num_vertices; i++) {
		memcpy(rv[i].pos, s->vertices[i].pos, sizeof(rv[i].pos));
		memcpy(rv[i].attr[0], s->vertices[i].color, sizeof(rv[i].attr[0]));
	}
	int rc = 0;
	for (unsigned k = 0; k < s->num_draws && !rc; k++) {
		const gfx_draw *d = &s->draws[k];
		rc = ref_draw(t, &d->state, rv, s->num_vertices, s->indices + d->first_index, d->index_count, NULL,
			      NULL, stats, err, err_size);
	}
	free(rv);
	if (rc)
		ref_target_free(t);
	return rc;
}
