/*
 * ref_raster.c — the CPU reference rasterizer (ref_raster.h), from the
 * D3D11.3 functional specification's rasterization rules, which D3D12
 * keeps: clip, divide, viewport, snap to 8 subpixel bits, top-left fill
 * rule at pixel centres, perspective-correct attributes, screen-linear
 * depth clamped to the viewport's range, depth test, blend, UNORM round
 * to nearest. Geometry is in double until it is snapped; coverage is
 * decided only by integer edge functions, so two triangles sharing an
 * edge see the same integers and each pixel on it goes to exactly one.
 */
#include "ref_raster.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUB (1 << REF_SUBPIXEL_BITS)
/* A clipped polygon: a triangle cut by 6 planes has at most 3 + 6 vertices. */
#define MAX_POLY 12

typedef struct cvert {
	double pos[4];
	double attr[REF_MAX_ATTR][4];
} cvert;

/* A vertex after the divide, viewport and snap. */
typedef struct svert {
	int64_t x, y;     /* 1/256 pixel, y down */
	double z;         /* viewport depth */
	double inv_w;
	double attr[REF_MAX_ATTR][4];
} svert;

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

uint8_t ref_unorm8(float v)
{
	if (!(v > 0.0f))       /* NaN and negatives */
		return 0;
	if (v >= 1.0f)
		return 255;
	return (uint8_t)floorf(v * 255.0f + 0.5f);
}

int ref_target_init(ref_target *t, uint32_t width, uint32_t height, ref_format format, char *err, size_t err_size)
{
	memset(t, 0, sizeof(*t));
	if (width == 0 || height == 0 || width > 16384 || height > 16384)
		return fail(err, err_size, "ref_target_init: width %u, height %u: each must be 1..16384", width,
			    height);
	if (format != REF_FMT_R8G8B8A8_UNORM && format != REF_FMT_R32G32B32A32_FLOAT)
		return fail(err, err_size, "ref_target_init: format %d is neither R8G8B8A8_UNORM nor "
			    "R32G32B32A32_FLOAT", (int)format);
	size_t n = (size_t)width * height;
	t->width = width;
	t->height = height;
	t->format = format;
	if (format == REF_FMT_R8G8B8A8_UNORM) {
		t->rgba8 = calloc(n, 4);
		t->tie = calloc(n, 1);
	}
	else
		t->rgba32f = calloc(n * 4, sizeof(float));
	t->depth = malloc(n * sizeof(float));
	t->count = calloc(n, sizeof(uint32_t));
	if ((!t->rgba8 && !t->rgba32f) || (t->rgba8 && !t->tie) || !t->depth || !t->count) {
		ref_target_free(t);
		return fail(err, err_size, "ref_target_init: out of memory for %ux%u", width, height);
	}
	for (size_t i = 0; i < n; i++)
		t->depth[i] = 1.0f;
	return 0;
}

void ref_target_free(ref_target *t)
{
	free(t->rgba8);
	free(t->rgba32f);
	free(t->depth);
	free(t->count);
	free(t->tie);
	memset(t, 0, sizeof(*t));
}

void ref_clear(ref_target *t, const float rgba[4], float depth)
{
	size_t n = (size_t)t->width * t->height;
	for (size_t i = 0; i < n; i++) {
		for (int c = 0; c < 4; c++) {
			if (t->rgba8)
				t->rgba8[4 * i + c] = ref_unorm8(rgba[c]);
			else
				t->rgba32f[4 * i + c] = rgba[c];
		}
		t->depth[i] = depth;
		t->count[i] = 0;
		if (t->tie)
			t->tie[i] = 0;
	}
}

void ref_state_default(ref_state *s, uint32_t width, uint32_t height)
{
	memset(s, 0, sizeof(*s));
	s->vp_width = (float)width;
	s->vp_height = (float)height;
	s->vp_max_depth = 1.0f;
	s->sc_right = (int32_t)width;
	s->sc_bottom = (int32_t)height;
	s->cull = REF_CULL_NONE;
	s->depth_func = REF_CMP_LESS;
	s->blend = REF_BLEND_OFF;
	s->num_attr = 1;
}

static bool depth_pass(ref_cmp f, float z, float stored)
{
	switch (f) {
	case REF_CMP_NEVER: return false;
	case REF_CMP_LESS: return z < stored;
	case REF_CMP_EQUAL: return z == stored;
	case REF_CMP_LESS_EQUAL: return z <= stored;
	case REF_CMP_GREATER: return z > stored;
	case REF_CMP_NOT_EQUAL: return z != stored;
	case REF_CMP_GREATER_EQUAL: return z >= stored;
	case REF_CMP_ALWAYS: return true;
	}
	return false;
}

/* Signed distance-like value of a clip-space point to plane k (inside >= 0):
 * z >= 0 (near), z <= w (far), then |x|, |y| <= g*w (the guard band). */
static double plane_dist(const cvert *v, int k, double g)
{
	const double *p = v->pos;
	switch (k) {
	case 0: return p[2];
	case 1: return p[3] - p[2];
	case 2: return g * p[3] - p[0];
	case 3: return g * p[3] + p[0];
	case 4: return g * p[3] - p[1];
	default: return g * p[3] + p[1];
	}
}

static void lerp_vert(cvert *o, const cvert *a, const cvert *b, double t, unsigned na)
{
	for (int c = 0; c < 4; c++)
		o->pos[c] = a->pos[c] + t * (b->pos[c] - a->pos[c]);
	for (unsigned i = 0; i < na; i++)
		for (int c = 0; c < 4; c++)
			o->attr[i][c] = a->attr[i][c] + t * (b->attr[i][c] - a->attr[i][c]);
}

/* Sutherland-Hodgman against one plane; returns the new count. */
static int clip_plane(cvert *out, const cvert *in, int n, int k, double g, unsigned na)
{
	int m = 0;
	for (int i = 0; i < n; i++) {
		const cvert *a = &in[i], *b = &in[(i + 1) % n];
		double da = plane_dist(a, k, g), db = plane_dist(b, k, g);
		if (da >= 0)
			out[m++] = *a;
		if ((da >= 0) != (db >= 0) && m < MAX_POLY)
			lerp_vert(&out[m++], a, b, da / (da - db), na);
	}
	return m;
}

/* The guard band, in NDC units: wide enough that nothing it cuts can
 * reach the viewport, small enough that snapped coordinates (about
 * 2^14 pixels * 2^8) keep edge-function products far inside 64 bits. */
static double guard_band(const ref_state *s)
{
	double span = s->vp_width > s->vp_height ? s->vp_width : s->vp_height;
	double g = 16384.0 / span;
	return g < 1.0 ? 1.0 : g;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
	return -floor_div(-a, b);
}

static int64_t edge(const svert *a, const svert *b, int64_t px, int64_t py)
{
	return (b->x - a->x) * (py - a->y) - (b->y - a->y) * (px - a->x);
}

/* Top-left rule for an edge a->b of a triangle made clockwise on the screen
 * (y down): a top edge is horizontal with the interior below (dx > 0), a
 * left edge has the interior to its right (dy < 0). */
static bool top_left(const svert *a, const svert *b)
{
	int64_t dx = b->x - a->x, dy = b->y - a->y;
	return (dy == 0 && dx > 0) || dy < 0;
}

static void write_pixel(ref_target *t, const ref_state *s, size_t i, const float c[4])
{
	float src[4] = {c[0], c[1], c[2], c[3]};
	float dst[4];
	for (int k = 0; k < 4; k++)
		dst[k] = t->rgba8 ? (float)t->rgba8[4 * i + k] / 255.0f : t->rgba32f[4 * i + k];
	float out[4];
	if (s->blend == REF_BLEND_STRAIGHT_ALPHA) {
		float sa = src[3];
		if (t->rgba8)        /* a UNORM target's blend inputs are in [0, 1] */
			sa = sa < 0.0f ? 0.0f : (sa > 1.0f ? 1.0f : sa);
		for (int k = 0; k < 3; k++) {
			float sk = src[k];
			if (t->rgba8)
				sk = sk < 0.0f ? 0.0f : (sk > 1.0f ? 1.0f : sk);
			out[k] = sk * sa + dst[k] * (1.0f - sa);
		}
		out[3] = sa + dst[3] * (1.0f - sa);
	} else {
		memcpy(out, src, sizeof(out));
	}
	for (int k = 0; k < 4; k++) {
		if (t->rgba8) {
			t->rgba8[4 * i + k] = ref_unorm8(out[k]);
			double f = (double)out[k] * 255.0;
			if (f > 0.0 && f < 255.0 && fabs(f - floor(f) - 0.5) < REF_TIE_EPS)
				t->tie[i] = 1;
		} else
			t->rgba32f[4 * i + k] = out[k];
	}
}

static void raster_tri(ref_target *t, const ref_state *s, const svert *v0, const svert *v1, const svert *v2,
		       int x_lo, int x_hi, int y_lo, int y_hi, ref_shader_fn shader, void *user, ref_stats *st)
{
	int64_t area = (v1->x - v0->x) * (v2->y - v0->y) - (v2->x - v0->x) * (v1->y - v0->y);
	if (area == 0) {
		st->culled++;
		return;
	}
	bool cw = area > 0;
	bool front = s->front_ccw ? !cw : cw;
	if ((s->cull == REF_CULL_BACK && !front) || (s->cull == REF_CULL_FRONT && front)) {
		st->culled++;
		return;
	}
	if (!cw) {             /* make it clockwise: the edge rules below assume so */
		const svert *tmp = v1;
		v1 = v2;
		v2 = tmp;
		area = -area;
	}
	int64_t minx = v0->x, maxx = v0->x, miny = v0->y, maxy = v0->y;
	const svert *vs[3] = {v0, v1, v2};
	for (int k = 1; k < 3; k++) {
		if (vs[k]->x < minx) minx = vs[k]->x;
		if (vs[k]->x > maxx) maxx = vs[k]->x;
		if (vs[k]->y < miny) miny = vs[k]->y;
		if (vs[k]->y > maxy) maxy = vs[k]->y;
	}
	/* pixels whose centre (p*256 + 128) can lie in the box */
	int64_t bx0 = ceil_div(minx - SUB / 2, SUB), bx1 = floor_div(maxx - SUB / 2, SUB);
	int64_t by0 = ceil_div(miny - SUB / 2, SUB), by1 = floor_div(maxy - SUB / 2, SUB);
	if (bx0 < x_lo) bx0 = x_lo;
	if (bx1 > x_hi - 1) bx1 = x_hi - 1;
	if (by0 < y_lo) by0 = y_lo;
	if (by1 > y_hi - 1) by1 = y_hi - 1;
	bool tl01 = top_left(v0, v1), tl12 = top_left(v1, v2), tl20 = top_left(v2, v0);
	double inv_area = 1.0 / (double)area;
	for (int64_t py = by0; py <= by1; py++) {
		for (int64_t px = bx0; px <= bx1; px++) {
			int64_t sx = px * SUB + SUB / 2, sy = py * SUB + SUB / 2;
			int64_t e12 = edge(v1, v2, sx, sy), e20 = edge(v2, v0, sx, sy), e01 = edge(v0, v1, sx, sy);
			if (e12 < 0 || (e12 == 0 && !tl12) || e20 < 0 || (e20 == 0 && !tl20) || e01 < 0 ||
			    (e01 == 0 && !tl01))
				continue;
			st->fragments++;
			double b0 = (double)e12 * inv_area, b1 = (double)e20 * inv_area, b2 = (double)e01 * inv_area;
			double z = b0 * v0->z + b1 * v1->z + b2 * v2->z;
			double zlo = s->vp_min_depth, zhi = s->vp_max_depth;
			if (z < zlo) z = zlo;
			if (z > zhi) z = zhi;
			float zf = (float)z;
			size_t i = (size_t)py * t->width + (size_t)px;
			if (s->depth_enable) {
				if (!depth_pass(s->depth_func, zf, t->depth[i]))
					continue;
				if (s->depth_write)
					t->depth[i] = zf;
			}
			/* perspective-correct: interpolate a/w and 1/w, divide */
			double p0 = b0 * v0->inv_w, p1 = b1 * v1->inv_w, p2 = b2 * v2->inv_w;
			double inv = 1.0 / (p0 + p1 + p2);
			float attr[REF_MAX_ATTR][4];
			memset(attr, 0, sizeof(attr));
			for (unsigned a = 0; a < s->num_attr; a++)
				for (int c = 0; c < 4; c++)
					attr[a][c] = (float)((p0 * v0->attr[a][c] + p1 * v1->attr[a][c] +
							      p2 * v2->attr[a][c]) * inv);
			float col[4];
			if (shader)
				shader(attr, col, user);
			else
				memcpy(col, attr[0], sizeof(col));
			write_pixel(t, s, i, col);
			t->count[i]++;
			st->written++;
		}
	}
}

static int check_state(const ref_target *t, const ref_state *s, char *err, size_t n)
{
	if (!t || !t->depth || !t->count || (!t->rgba8 && !t->rgba32f))
		return fail(err, n, "ref_draw: target not initialised (ref_target_init)");
	if (!s)
		return fail(err, n, "ref_draw: NULL state");
	if (!isfinite(s->vp_x) || !isfinite(s->vp_y) || !isfinite(s->vp_width) || !isfinite(s->vp_height) ||
	    !(s->vp_width > 0) || !(s->vp_height > 0))
		return fail(err, n, "ref_draw: viewport TopLeftX %g TopLeftY %g Width %g Height %g: needs finite "
			    "values and Width, Height > 0", s->vp_x, s->vp_y, s->vp_width, s->vp_height);
	if (!(s->vp_min_depth >= 0 && s->vp_min_depth <= 1 && s->vp_max_depth >= 0 && s->vp_max_depth <= 1 &&
	      s->vp_min_depth <= s->vp_max_depth))
		return fail(err, n, "ref_draw: viewport MinDepth %g MaxDepth %g: need 0 <= MinDepth <= MaxDepth <= 1",
			    s->vp_min_depth, s->vp_max_depth);
	if (s->cull < REF_CULL_NONE || s->cull > REF_CULL_BACK)
		return fail(err, n, "ref_draw: cull mode %d is not NONE (1), FRONT (2) or BACK (3)", (int)s->cull);
	if (s->depth_func < REF_CMP_NEVER || s->depth_func > REF_CMP_ALWAYS)
		return fail(err, n, "ref_draw: depth func %d is not a D3D12_COMPARISON_FUNC (1..8)",
			    (int)s->depth_func);
	if (s->blend != REF_BLEND_OFF && s->blend != REF_BLEND_STRAIGHT_ALPHA)
		return fail(err, n, "ref_draw: blend %d is neither off (0) nor straight alpha (1)", (int)s->blend);
	if (s->num_attr > REF_MAX_ATTR)
		return fail(err, n, "ref_draw: num_attr %u exceeds %d", s->num_attr, REF_MAX_ATTR);
	return 0;
}

int ref_draw(ref_target *t, const ref_state *s, const ref_vertex *vertices, size_t num_vertices,
	     const uint32_t *indices, size_t num_indices, ref_shader_fn shader, void *user, ref_stats *stats,
	     char *err, size_t err_size)
{
	if (check_state(t, s, err, err_size))
		return -1;
	if (num_indices % 3)
		return fail(err, err_size, "ref_draw: %zu indices is not a whole number of triangles", num_indices);
	if (num_indices && !vertices)
		return fail(err, err_size, "ref_draw: NULL vertices");
	for (size_t i = 0; i < num_indices; i++) {
		size_t v = indices ? indices[i] : i;
		if (v >= num_vertices)
			return fail(err, err_size, "ref_draw: index %zu is vertex %zu of %zu", i, v, num_vertices);
	}
	ref_stats local;
	memset(&local, 0, sizeof(local));
	ref_stats *st = stats ? stats : &local;

	/* the pixels a draw may touch: target, viewport (pixel centres inside) and scissor */
	int x_lo = (int)ceil(s->vp_x - 0.5), x_hi = (int)ceil((double)s->vp_x + s->vp_width - 0.5);
	int y_lo = (int)ceil(s->vp_y - 0.5), y_hi = (int)ceil((double)s->vp_y + s->vp_height - 0.5);
	if (x_lo < 0) x_lo = 0;
	if (y_lo < 0) y_lo = 0;
	if (x_lo < s->sc_left) x_lo = s->sc_left;
	if (y_lo < s->sc_top) y_lo = s->sc_top;
	if (x_hi > (int)t->width) x_hi = (int)t->width;
	if (y_hi > (int)t->height) y_hi = (int)t->height;
	if (x_hi > s->sc_right) x_hi = s->sc_right;
	if (y_hi > s->sc_bottom) y_hi = s->sc_bottom;
	double g = guard_band(s);

	for (size_t tri = 0; tri < num_indices / 3; tri++) {
		st->triangles++;
		cvert a[MAX_POLY], b[MAX_POLY];
		bool finite = true;
		for (int k = 0; k < 3; k++) {
			const ref_vertex *v = &vertices[indices ? indices[3 * tri + k] : 3 * tri + k];
			memset(&a[k], 0, sizeof(a[k]));
			for (int c = 0; c < 4; c++) {
				a[k].pos[c] = v->pos[c];
				finite = finite && isfinite(v->pos[c]);
			}
			for (unsigned i = 0; i < s->num_attr; i++)
				for (int c = 0; c < 4; c++)
					a[k].attr[i][c] = v->attr[i][c];
		}
		if (!finite) {
			st->discarded++;
			continue;
		}
		int n = 3;
		bool cut = false;
		cvert *in = a, *out = b;
		for (int k = 0; k < 6 && n > 0; k++) {
			bool all_in = true;
			for (int i = 0; i < n; i++)
				all_in = all_in && plane_dist(&in[i], k, g) >= 0;
			if (all_in)
				continue;
			cut = true;
			n = clip_plane(out, in, n, k, g, s->num_attr);
			cvert *tmp = in;
			in = out;
			out = tmp;
		}
		if (cut)
			st->clipped++;
		if (n < 3) {
			st->discarded++;
			continue;
		}
		svert sv[MAX_POLY];
		bool ok = true;
		for (int i = 0; i < n; i++) {
			double w = in[i].pos[3];
			if (!(w > 0)) {      /* only a point at the eye itself: nothing to draw */
				ok = false;
				break;
			}
			double x = s->vp_x + (in[i].pos[0] / w + 1.0) * 0.5 * s->vp_width;
			double y = s->vp_y + (1.0 - in[i].pos[1] / w) * 0.5 * s->vp_height;
			sv[i].x = llround(x * SUB);
			sv[i].y = llround(y * SUB);
			sv[i].z = s->vp_min_depth + in[i].pos[2] / w * (s->vp_max_depth - s->vp_min_depth);
			sv[i].inv_w = 1.0 / w;
			memcpy(sv[i].attr, in[i].attr, sizeof(sv[i].attr));
		}
		if (!ok) {
			st->discarded++;
			continue;
		}
		/* a fan: its inner edges are shared, so the fill rule splits them exactly */
		for (int i = 1; i + 1 < n; i++)
			raster_tri(t, s, &sv[0], &sv[i], &sv[i + 1], x_lo, x_hi, y_lo, y_hi, shader, user, st);
	}
	return 0;
}
