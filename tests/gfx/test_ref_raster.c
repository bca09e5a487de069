/*
 * The reference rasterizer against rules stated independently of it:
 * coverage from closed-form conditions (pixel-centre inequalities, a
 * ray-triangle solve for near-plane clipping), depth tests and blending
 * on values worked out by hand in the comments.
 */
#include "ref_raster.h"
#include "scene.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define W 64
#define H 64

static char err[256];

/* A vertex at pixel position (px, py) (y down) of a W x H viewport, depth z, w = 1. */
static ref_vertex at_pixel(double px, double py, float z, float r, float g, float b, float a)
{
	ref_vertex v;
	memset(&v, 0, sizeof(v));
	v.pos[0] = (float)(px / W * 2.0 - 1.0);
	v.pos[1] = (float)(1.0 - py / H * 2.0);
	v.pos[2] = z;
	v.pos[3] = 1.0f;
	v.attr[0][0] = r;
	v.attr[0][1] = g;
	v.attr[0][2] = b;
	v.attr[0][3] = a;
	return v;
}

static void open_target(ref_target *t, ref_state *s, ref_format f)
{
	assert_int_equal(ref_target_init(t, W, H, f, err, sizeof(err)), 0);
	ref_state_default(s, W, H);
	float black[4] = {0, 0, 0, 0};
	ref_clear(t, black, 1.0f);
}

static void draw(ref_target *t, const ref_state *s, const ref_vertex *v, size_t nv, const uint32_t *idx, size_t ni)
{
	if (ref_draw(t, s, v, nv, idx, ni, NULL, NULL, NULL, err, sizeof(err)))
		fail_msg("ref_draw: %s", err);
}

/* Two triangles of a square sharing its diagonal (both windings): inside
 * the square every pixel once, outside none. The diagonal runs through
 * pixel centres, so the fill rule decides each of them. */
static void square_once(void **state)
{
	(void)state;
	ref_target t;
	ref_state s;
	open_target(&t, &s, REF_FMT_R8G8B8A8_UNORM);
	ref_vertex v[4] = {at_pixel(8.5, 8.5, 0.5f, 1, 0, 0, 1), at_pixel(40.5, 8.5, 0.5f, 1, 0, 0, 1),
			   at_pixel(40.5, 40.5, 0.5f, 1, 0, 0, 1), at_pixel(8.5, 40.5, 0.5f, 1, 0, 0, 1)};
	uint32_t idx[6] = {0, 1, 2, 0, 3, 2};      /* the second is counter-clockwise */
	draw(&t, &s, v, 4, idx, 6);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			/* centres x + 0.5 in [8.5, 40.5): the left and top edges are in, right and bottom out */
			unsigned want = (x >= 8 && x < 40 && y >= 8 && y < 40) ? 1 : 0;
			if (t.count[y * W + x] != want)
				fail_msg("pixel (%d, %d) written %u times, want %u", x, y, t.count[y * W + x], want);
		}
	ref_target_free(&t);
}

/* A fan of 8 triangles around a vertex on a pixel centre, its rim outside
 * the viewport: the 8 edges through the centre (horizontal, vertical,
 * diagonals) all run through pixel centres; every pixel once. */
static void fan_once(void **state)
{
	(void)state;
	ref_target t;
	ref_state s;
	open_target(&t, &s, REF_FMT_R8G8B8A8_UNORM);
	double c = 32.5, lo = c - 40, hi = c + 40;
	double rim[8][2] = {{lo, lo}, {c, lo}, {hi, lo}, {hi, c}, {hi, hi}, {c, hi}, {lo, hi}, {lo, c}};
	ref_vertex v[9];
	v[0] = at_pixel(c, c, 0.25f, 0, 1, 0, 1);
	for (int i = 0; i < 8; i++)
		v[1 + i] = at_pixel(rim[i][0], rim[i][1], 0.25f, 0, 1, 0, 1);
	uint32_t idx[24];
	for (int i = 0; i < 8; i++) {
		idx[3 * i] = 0;
		idx[3 * i + 1] = 1 + (uint32_t)i;
		idx[3 * i + 2] = 1 + (uint32_t)((i + 1) % 8);
	}
	draw(&t, &s, v, 9, idx, 24);
	for (int i = 0; i < W * H; i++)
		if (t.count[i] != 1)
			fail_msg("pixel (%d, %d) written %u times", i % W, i / W, t.count[i]);
	ref_target_free(&t);
}

/* A right triangle with its vertices on pixel centres (2.5, 2.5),
 * (18.5, 2.5), (2.5, 18.5): pixel centres on the top and left edges are
 * in, on the hypotenuse (a bottom-right edge) out; so are its two ends. */
static void top_left_rule(void **state)
{
	(void)state;
	for (int wind = 0; wind < 2; wind++) {
		ref_target t;
		ref_state s;
		open_target(&t, &s, REF_FMT_R8G8B8A8_UNORM);
		ref_vertex v[3] = {at_pixel(2.5, 2.5, 0, 1, 1, 1, 1), at_pixel(18.5, 2.5, 0, 1, 1, 1, 1),
				   at_pixel(2.5, 18.5, 0, 1, 1, 1, 1)};
		uint32_t idx[2][3] = {{0, 1, 2}, {0, 2, 1}};
		draw(&t, &s, v, 3, idx[wind], 3);
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				double cx = x + 0.5, cy = y + 0.5;
				unsigned want = cx >= 2.5 && cy >= 2.5 && cx + cy < 21.0;
				if (t.count[y * W + x] != want)
					fail_msg("winding %d: pixel (%d, %d) written %u times, want %u", wind, x, y,
						 t.count[y * W + x], want);
			}
		ref_target_free(&t);
	}
}

/* Is the ray through NDC (xn, yn) hitting the clip-space triangle p at a
 * point with w > 0 and 0 <= z <= w? Solve a p0 + b p1 + c p2 = P with
 * P.x = xn P.w, P.y = yn P.w, a + b + c = 1 (Cramer's rule). */
static int ray_hits(const double p[3][4], double xn, double yn)
{
	double m[3][3];
	for (int k = 0; k < 3; k++) {
		m[0][k] = p[k][0] - xn * p[k][3];
		m[1][k] = p[k][1] - yn * p[k][3];
		m[2][k] = 1.0;
	}
	double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
		     m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
		     m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
	if (fabs(det) < 1e-12)
		return 0;
	double bary[3];
	for (int col = 0; col < 3; col++) {
		double r[3] = {0, 0, 1};
		double q[3][3];
		memcpy(q, m, sizeof(q));
		for (int row = 0; row < 3; row++)
			q[row][col] = r[row];
		bary[col] = (q[0][0] * (q[1][1] * q[2][2] - q[1][2] * q[2][1]) -
			     q[0][1] * (q[1][0] * q[2][2] - q[1][2] * q[2][0]) +
			     q[0][2] * (q[1][0] * q[2][1] - q[1][1] * q[2][0])) / det;
	}
	double z = 0, w = 0;
	for (int k = 0; k < 3; k++) {
		if (bary[k] < 0)
			return 0;
		z += bary[k] * p[k][2];
		w += bary[k] * p[k][3];
	}
	return w > 0 && z >= 0 && z <= w;
}

/* Near-plane clipping: a perspective triangle with one vertex behind the
 * eye (w < 0, z < 0) and one in front of the near plane only in part.
 * Every pixel whose centre and four points 1/64 pixel around it agree
 * must match the analytic answer; the few on a boundary may go either
 * way (snapping moves clipped vertices by up to 1/512 pixel). */
static void near_clip_analytic(void **state)
{
	(void)state;
	/* clip = P * view for a D3D projection with near 1, far 100, 90 degrees:
	 * x' = x, y' = y, z' = (z - 1) * 100/99, w' = z (view z forward) */
	double view[3][3] = {{-3.0, -1.0, 4.0}, {2.5, -0.5, 6.0}, {0.5, 2.0, -2.0}};
	double p[3][4];
	ref_vertex v[3];
	for (int k = 0; k < 3; k++) {
		p[k][0] = view[k][0];
		p[k][1] = view[k][1];
		p[k][2] = (view[k][2] - 1.0) * 100.0 / 99.0;
		p[k][3] = view[k][2];
		memset(&v[k], 0, sizeof(v[k]));
		for (int c = 0; c < 4; c++)
			v[k].pos[c] = (float)p[k][c];
		v[k].attr[0][3] = 1.0f;
		/* the float copies are what is drawn: the oracle uses them too */
		for (int c = 0; c < 4; c++)
			p[k][c] = v[k].pos[c];
	}
	ref_target t;
	ref_state s;
	open_target(&t, &s, REF_FMT_R8G8B8A8_UNORM);
	ref_stats st;
	memset(&st, 0, sizeof(st));
	assert_int_equal(ref_draw(&t, &s, v, 3, NULL, 3, NULL, NULL, &st, err, sizeof(err)), 0);
	assert_int_equal(st.clipped, 1);
	int covered = 0, ambiguous = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			double off[5][2] = {{0, 0}, {1.0 / 64, 0}, {-1.0 / 64, 0}, {0, 1.0 / 64}, {0, -1.0 / 64}};
			int hits = 0;
			for (int k = 0; k < 5; k++) {
				double cx = x + 0.5 + off[k][0], cy = y + 0.5 + off[k][1];
				hits += ray_hits(p, cx / W * 2 - 1, 1 - cy / H * 2);
			}
			if (hits != 0 && hits != 5) {
				ambiguous++;
				continue;
			}
			unsigned want = hits == 5;
			covered += (int)want;
			if (t.count[y * W + x] != want)
				fail_msg("pixel (%d, %d) written %u times, the analytic coverage says %u", x, y,
					 t.count[y * W + x], want);
		}
	/* a real cut: much is drawn, much is not, the boundary is thin */
	assert_true(covered > 200 && covered < W * H - 200);
	assert_true(ambiguous < 3 * W);
	ref_target_free(&t);
}

/* LESS and LEQUAL with two triangles at the same depth, then a nearer one:
 * the second passes only with LEQUAL; the nearer passes both. */
static void depth_less_lequal(void **state)
{
	(void)state;
	ref_cmp funcs[2] = {REF_CMP_LESS, REF_CMP_LESS_EQUAL};
	for (int f = 0; f < 2; f++) {
		ref_target t;
		ref_state s;
		open_target(&t, &s, REF_FMT_R8G8B8A8_UNORM);
		s.depth_enable = true;
		s.depth_write = true;
		s.depth_func = funcs[f];
		ref_vertex red[3] = {at_pixel(0, 0, 0.5f, 1, 0, 0, 1), at_pixel(64, 0, 0.5f, 1, 0, 0, 1),
				     at_pixel(0, 64, 0.5f, 1, 0, 0, 1)};
		ref_vertex green[3] = {at_pixel(0, 0, 0.5f, 0, 1, 0, 1), at_pixel(64, 0, 0.5f, 0, 1, 0, 1),
				       at_pixel(0, 64, 0.5f, 0, 1, 0, 1)};
		ref_vertex blue[3] = {at_pixel(0, 0, 0.25f, 0, 0, 1, 1), at_pixel(32, 0, 0.25f, 0, 0, 1, 1),
				      at_pixel(0, 32, 0.25f, 0, 0, 1, 1)};
		draw(&t, &s, red, 3, NULL, 3);
		draw(&t, &s, green, 3, NULL, 3);
		draw(&t, &s, blue, 3, NULL, 3);
		/* pixel (20, 20): red and green only; pixel (4, 4): all three */
		const uint8_t *p = &t.rgba8[4 * (20 * W + 20)];
		if (f == 0) {
			assert_int_equal(p[0], 255);
			assert_int_equal(p[1], 0);
			assert_int_equal(t.count[20 * W + 20], 1);
		} else {
			assert_int_equal(p[0], 0);
			assert_int_equal(p[1], 255);
			assert_int_equal(t.count[20 * W + 20], 2);
		}
		assert_true(fabsf(t.depth[20 * W + 20] - 0.5f) == 0.0f);
		const uint8_t *q = &t.rgba8[4 * (4 * W + 4)];
		assert_int_equal(q[2], 255);
		assert_int_equal(q[0], 0);
		assert_true(t.depth[4 * W + 4] == 0.25f);
		/* outside all: clear values */
		assert_true(t.depth[60 * W + 60] == 1.0f);
		assert_int_equal(t.count[60 * W + 60], 0);
		ref_target_free(&t);
	}
}

/* Depth: linear in screen space between vertices and mapped to the
 * viewport's [MinDepth, MaxDepth]; z from 0 at the left to 1 at the right
 * of a full-viewport quad, viewport depth range [0.25, 0.75]. */
static void depth_linear_in_range(void **state)
{
	(void)state;
	ref_target t;
	ref_state s;
	open_target(&t, &s, REF_FMT_R8G8B8A8_UNORM);
	s.vp_min_depth = 0.25f;
	s.vp_max_depth = 0.75f;
	s.depth_enable = true;
	s.depth_write = true;
	s.depth_func = REF_CMP_ALWAYS;
	ref_vertex v[4] = {at_pixel(0, 0, 0, 1, 1, 1, 1), at_pixel(64, 0, 1, 1, 1, 1, 1),
			   at_pixel(64, 64, 1, 1, 1, 1, 1), at_pixel(0, 64, 0, 1, 1, 1, 1)};
	uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
	draw(&t, &s, v, 4, idx, 6);
	for (int x = 0; x < W; x++) {
		/* z_ndc = (x + 0.5) / 64, depth = 0.25 + 0.5 z_ndc */
		double want = 0.25 + 0.5 * (x + 0.5) / 64.0;
		assert_true(fabs(t.depth[10 * W + x] - want) < 1e-6);
	}
	ref_target_free(&t);
}

/* Straight alpha on known values. Target cleared to (0.2, 0.4, 0.6, 0.8)
 * = UNORM (51, 102, 153, 204); source (1, 0.5, 0, 0.25):
 *   r = 1 * 0.25 + 0.2 * 0.75 = 0.4     -> 102
 *   g = 0.5 * 0.25 + 0.4 * 0.75 = 0.425 -> 108.375 -> 108
 *   b = 0 + 0.6 * 0.75 = 0.45           -> 114.75  -> 115
 *   a = 0.25 + 0.8 * 0.75 = 0.85        -> 216.75  -> 217
 * and on a float target the same sums unrounded. */
static void blend_straight_alpha(void **state)
{
	(void)state;
	float clear[4] = {0.2f, 0.4f, 0.6f, 0.8f};
	for (int fmt = 0; fmt < 2; fmt++) {
		ref_target t;
		ref_state s;
		open_target(&t, &s, fmt ? REF_FMT_R32G32B32A32_FLOAT : REF_FMT_R8G8B8A8_UNORM);
		ref_clear(&t, clear, 1.0f);
		s.blend = REF_BLEND_STRAIGHT_ALPHA;
		ref_vertex v[3] = {at_pixel(0, 0, 0, 1, 0.5f, 0, 0.25f), at_pixel(128, 0, 0, 1, 0.5f, 0, 0.25f),
				   at_pixel(0, 128, 0, 1, 0.5f, 0, 0.25f)};
		draw(&t, &s, v, 3, NULL, 3);
		size_t i = 30 * W + 30;
		if (!fmt) {
			assert_int_equal(t.rgba8[4 * i + 0], 102);
			assert_int_equal(t.rgba8[4 * i + 1], 108);
			assert_int_equal(t.rgba8[4 * i + 2], 115);
			assert_int_equal(t.rgba8[4 * i + 3], 217);
		} else {
			float want[4] = {0.4f, 0.425f, 0.45f, 0.85f};
			for (int c = 0; c < 4; c++)
				assert_true(fabsf(t.rgba32f[4 * i + c] - want[c]) < 1e-6f);
		}
		/* blending twice: r = 1 * 0.25 + 0.4 * 0.75 = 0.55 on the float target */
		draw(&t, &s, v, 3, NULL, 3);
		if (fmt)
			assert_true(fabsf(t.rgba32f[4 * i + 0] - 0.55f) < 1e-6f);
		else /* 102/255 * 0.75 + 0.25 = 0.55 -> 140.25 -> 140 */
			assert_int_equal(t.rgba8[4 * i + 0], 140);
		ref_target_free(&t);
	}
	assert_int_equal(ref_unorm8(0.5f / 255.0f), 1);
	assert_int_equal(ref_unorm8(0.49f / 255.0f), 0);
	assert_int_equal(ref_unorm8(-1.0f), 0);
	assert_int_equal(ref_unorm8(NAN), 0);
	assert_int_equal(ref_unorm8(2.0f), 255);
}

/* Perspective-correct attributes: along a quad receding in depth the
 * colour at a pixel centre is the one of the surface point the ray hits,
 * not the screen-space mix. */
static void perspective_attributes(void **state)
{
	(void)state;
	ref_target t;
	ref_state s;
	open_target(&t, &s, REF_FMT_R32G32B32A32_FLOAT);
	/* a floor-like quad: left edge at w = 1, right edge at w = 4, red 0 -> 1 */
	ref_vertex v[4];
	double wl = 1.0, wr = 4.0;
	double pts[4][3] = {{-1, -1, wl}, {1, -1, wr}, {1, 1, wr}, {-1, 1, wl}};
	for (int k = 0; k < 4; k++) {
		memset(&v[k], 0, sizeof(v[k]));
		double w = pts[k][2];
		v[k].pos[0] = (float)(pts[k][0] * w);
		v[k].pos[1] = (float)(pts[k][1] * w);
		v[k].pos[2] = (float)(0.5 * w);
		v[k].pos[3] = (float)w;
		v[k].attr[0][0] = pts[k][0] > 0 ? 1.0f : 0.0f;
	}
	uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
	draw(&t, &s, v, 4, idx, 6);
	for (int x = 0; x < W; x++) {
		/* screen fraction u; 1/w and r/w are linear in u: r = u/wr / ((1-u)/wl + u/wr) */
		double u = (x + 0.5) / W;
		double want = (u / wr) / ((1 - u) / wl + u / wr);
		float got = t.rgba32f[4 * (7 * W + x)];
		if (fabs(got - want) > 1e-5)
			fail_msg("pixel (%d, 7): red %g, want %g", x, got, want);
	}
	ref_target_free(&t);
}

/* Snapping: vertex positions round to the nearest 1/256 pixel. A left
 * edge at x = 10.5 + 0.4/256 snaps onto the centres of column 10 (a left
 * edge: they are in); at 10.5 + 0.6/256 it snaps past them (out). The
 * same for a right edge at 30.5 -/+: on the centres they are out. */
static void snap_to_256th(void **state)
{
	(void)state;
	double eps[2] = {0.4 / 256, 0.6 / 256};
	for (int k = 0; k < 2; k++) {
		ref_target t;
		ref_state s;
		open_target(&t, &s, REF_FMT_R8G8B8A8_UNORM);
		double l = 10.5 + eps[k], r = 30.5 - eps[k];
		ref_vertex v[4] = {at_pixel(l, -8, 0, 1, 1, 1, 1), at_pixel(r, -8, 0, 1, 1, 1, 1),
				   at_pixel(r, 80, 0, 1, 1, 1, 1), at_pixel(l, 80, 0, 1, 1, 1, 1)};
		uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
		draw(&t, &s, v, 4, idx, 6);
		/* k = 0: both edges snap onto centres: column 10 in (left edge), 30 out
		 * (right edge); k = 1: they snap 1/256 inside: 10 and 30 both out */
		unsigned want10 = k == 0 ? 1 : 0;
		assert_int_equal(t.count[20 * W + 10], want10);
		assert_int_equal(t.count[20 * W + 11], 1);
		assert_int_equal(t.count[20 * W + 29], 1);
		assert_int_equal(t.count[20 * W + 30], 0);
		ref_target_free(&t);
	}
	/* a right edge just past column 30's centre: 30.5 + 0.6/256 snaps to
	 * 30.5 + 1/256 (in), 30.5 + 0.4/256 to 30.5 (out: a right edge) */
	for (int k = 0; k < 2; k++) {
		ref_target t;
		ref_state s;
		open_target(&t, &s, REF_FMT_R8G8B8A8_UNORM);
		double r = 30.5 + eps[k];
		ref_vertex v[4] = {at_pixel(20, -8, 0, 1, 1, 1, 1), at_pixel(r, -8, 0, 1, 1, 1, 1),
				   at_pixel(r, 80, 0, 1, 1, 1, 1), at_pixel(20, 80, 0, 1, 1, 1, 1)};
		uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
		draw(&t, &s, v, 4, idx, 6);
		assert_int_equal(t.count[20 * W + 30], k == 0 ? 0 : 1);
		ref_target_free(&t);
	}
}

/* Culling: FrontCounterClockwise FALSE makes clockwise (on screen) the
 * front; CULL_BACK keeps it, CULL_FRONT drops it; TRUE swaps them. */
static void culling(void **state)
{
	(void)state;
	ref_vertex cw[3] = {at_pixel(4, 4, 0, 1, 1, 1, 1), at_pixel(30, 4, 0, 1, 1, 1, 1),
			    at_pixel(4, 30, 0, 1, 1, 1, 1)};
	struct { ref_cull cull; bool ccw; unsigned want; } cases[] = {
		{REF_CULL_BACK, false, 1}, {REF_CULL_FRONT, false, 0}, {REF_CULL_BACK, true, 0},
		{REF_CULL_FRONT, true, 1}, {REF_CULL_NONE, false, 1}, {REF_CULL_NONE, true, 1},
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		ref_target t;
		ref_state s;
		open_target(&t, &s, REF_FMT_R8G8B8A8_UNORM);
		s.cull = cases[k].cull;
		s.front_ccw = cases[k].ccw;
		draw(&t, &s, cw, 3, NULL, 3);
		assert_int_equal(t.count[8 * W + 8], cases[k].want);
		ref_target_free(&t);
	}
}

/* Scissor and viewport bound the pixels; a triangle far outside the
 * guard band's reach still draws exactly its visible part. */
static void scissor_and_huge(void **state)
{
	(void)state;
	ref_target t;
	ref_state s;
	open_target(&t, &s, REF_FMT_R8G8B8A8_UNORM);
	s.sc_left = 10;
	s.sc_top = 12;
	s.sc_right = 50;
	s.sc_bottom = 40;
	ref_vertex v[3] = {at_pixel(-1e7, -1e7, 0, 1, 1, 1, 1), at_pixel(3e7, -1e7, 0, 1, 1, 1, 1),
			   at_pixel(-1e7, 3e7, 0, 1, 1, 1, 1)};
	draw(&t, &s, v, 3, NULL, 3);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			unsigned want = x >= 10 && x < 50 && y >= 12 && y < 40;
			if (t.count[y * W + x] != want)
				fail_msg("pixel (%d, %d) written %u times, want %u", x, y, t.count[y * W + x], want);
		}
	ref_target_free(&t);
}

/* The viewport places NDC [-1, 1]^2 at TopLeftX/Y with Width/Height:
 * (8, 4, 32, 16) gives exactly pixels 8..39 x 4..19 for a quad
 * covering NDC, and its far right NDC corner (x = 1) lands on x = 40. */
static void viewport_offset(void **state)
{
	(void)state;
	ref_target t;
	ref_state s;
	open_target(&t, &s, REF_FMT_R8G8B8A8_UNORM);
	s.vp_x = 8;
	s.vp_y = 4;
	s.vp_width = 32;
	s.vp_height = 16;
	ref_vertex v[4];
	float ndc[4][2] = {{-1, 1}, {1, 1}, {1, -1}, {-1, -1}};
	for (int k = 0; k < 4; k++) {
		memset(&v[k], 0, sizeof(v[k]));
		v[k].pos[0] = ndc[k][0];
		v[k].pos[1] = ndc[k][1];
		v[k].pos[3] = 1;
	}
	uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
	draw(&t, &s, v, 4, idx, 6);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			unsigned want = x >= 8 && x < 40 && y >= 4 && y < 20;
			if (t.count[y * W + x] != want)
				fail_msg("pixel (%d, %d) written %u times, want %u", x, y, t.count[y * W + x], want);
		}
	ref_target_free(&t);
}

/* Bad input gets a message naming the field, never a crash. */
static void bad_input(void **state)
{
	(void)state;
	ref_target t;
	ref_state s;
	open_target(&t, &s, REF_FMT_R8G8B8A8_UNORM);
	ref_vertex v[3] = {at_pixel(0, 0, 0, 1, 1, 1, 1), at_pixel(9, 0, 0, 1, 1, 1, 1), at_pixel(0, 9, 0, 1, 1, 1, 1)};
	uint32_t idx[3] = {0, 1, 7};
	assert_int_equal(ref_draw(&t, &s, v, 3, idx, 3, NULL, NULL, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "index 2"));
	assert_int_equal(ref_draw(&t, &s, v, 3, NULL, 2, NULL, NULL, NULL, err, sizeof(err)), -1);
	ref_state b = s;
	b.depth_func = (ref_cmp)9;
	assert_int_equal(ref_draw(&t, &b, v, 3, NULL, 3, NULL, NULL, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "depth func"));
	b = s;
	b.vp_width = 0;
	assert_int_equal(ref_draw(&t, &b, v, 3, NULL, 3, NULL, NULL, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "Width"));
	b = s;
	b.vp_max_depth = 2;
	assert_int_equal(ref_draw(&t, &b, v, 3, NULL, 3, NULL, NULL, NULL, err, sizeof(err)), -1);
	b = s;
	b.num_attr = 9;
	assert_int_equal(ref_draw(&t, &b, v, 3, NULL, 3, NULL, NULL, NULL, err, sizeof(err)), -1);
	/* nothing was drawn by any of them */
	for (int i = 0; i < W * H; i++)
		assert_int_equal(t.count[i], 0);
	/* a NaN position is dropped, not drawn */
	v[1].pos[0] = NAN;
	ref_stats st;
	memset(&st, 0, sizeof(st));
	assert_int_equal(ref_draw(&t, &s, v, 3, NULL, 3, NULL, NULL, &st, err, sizeof(err)), 0);
	assert_int_equal(st.discarded, 1);
	ref_target_free(&t);
	ref_target u;
	assert_int_equal(ref_target_init(&u, 0, 4, REF_FMT_R8G8B8A8_UNORM, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "width"));
}

/* The test scene has what it claims (scene.h): 100+ triangles, some
 * clipped at the near plane, some culled, depth in use, the blended quad
 * changing pixels; and its coverage grid writes every pixel once, which
 * reads 64 (alpha 0.25 over black: 63.75 rounds up) in all four channels. */
static void scene_properties(void **state)
{
	(void)state;
	gfx_scene sc;
	ref_target t;
	ref_stats st;
	memset(&st, 0, sizeof(st));
	assert_int_equal(gfx_scene_build(&sc, GFX_SCENE_MAIN, 128, err, sizeof(err)), 0);
	if (gfx_scene_render(&sc, REF_FMT_R8G8B8A8_UNORM, &t, &st, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(st.triangles >= 100);
	assert_true(st.clipped >= 4);
	assert_true(st.culled >= 30);      /* three cubes' back faces at least */
	assert_true(st.written > st.fragments / 2);
	unsigned drawn = 0, overdrawn = 0;
	for (uint32_t i = 0; i < t.width * t.height; i++) {
		drawn += t.count[i] > 0;
		overdrawn += t.count[i] > 1;
	}
	assert_true(drawn > t.width * t.height / 2);
	assert_true(overdrawn > 100);      /* cubes over ground, the quad over both */
	/* the pixels the scene test lets be 1 off are few */
	unsigned ties = 0;
	for (uint32_t i = 0; i < t.width * t.height; i++)
		ties += t.tie[i];
	printf("scene: %u of %u pixels near a rounding boundary\n", ties, t.width * t.height);
	assert_true(ties < t.width * t.height / 50);
	/* draw only the opaque mesh: depth must have rejected something */
	ref_target o;
	ref_stats so;
	memset(&so, 0, sizeof(so));
	gfx_scene one = sc;
	one.num_draws = 1;
	assert_int_equal(gfx_scene_render(&one, REF_FMT_R8G8B8A8_UNORM, &o, &so, err, sizeof(err)), 0);
	assert_true(so.written < so.fragments);
	ref_target_free(&o);
	ref_target_free(&t);
	gfx_scene_free(&sc);

	assert_int_equal(gfx_scene_build(&sc, GFX_SCENE_COVERAGE, 128, err, sizeof(err)), 0);
	assert_int_equal(gfx_scene_render(&sc, REF_FMT_R8G8B8A8_UNORM, &t, NULL, err, sizeof(err)), 0);
	for (uint32_t i = 0; i < t.width * t.height; i++) {
		if (t.count[i] != 1)
			fail_msg("coverage: pixel (%u, %u) written %u times", i % t.width, i / t.width, t.count[i]);
		for (int c = 0; c < 4; c++)
			assert_int_equal(t.rgba8[4 * i + c], 64);
	}
	ref_target_free(&t);
	gfx_scene_free(&sc);
	assert_int_equal(gfx_scene_build(&sc, GFX_SCENE_MAIN, 8, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "size 8"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(square_once),
		cmocka_unit_test(fan_once),
		cmocka_unit_test(top_left_rule),
		cmocka_unit_test(near_clip_analytic),
		cmocka_unit_test(depth_less_lequal),
		cmocka_unit_test(depth_linear_in_range),
		cmocka_unit_test(blend_straight_alpha),
		cmocka_unit_test(perspective_attributes),
		cmocka_unit_test(snap_to_256th),
		cmocka_unit_test(culling),
		cmocka_unit_test(scissor_and_huge),
		cmocka_unit_test(viewport_offset),
		cmocka_unit_test(bad_input),
		cmocka_unit_test(scene_properties),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
