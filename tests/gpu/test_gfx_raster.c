/* The rasterizer's rules on hand-made triangles (src/gpu/xs_gpu_raster.c):
 * shared edges, fans and strips cover each pixel once, the top-left rule,
 * 8-bit snapping, near-plane and guard-band clipping, culling, early Z and
 * perspective-correct barycentrics. Expected values come from the D3D12
 * rules stated in each test, computed here in double precision, not from
 * the rasterizer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <math.h>

#include "gpu/xs_gpu_gfx.h"

#define W 32
#define H 32

typedef struct cov {
	int n[H][W];             /* covered how many times */
	int quads, helpers;
	float i[H][W], j[H][W], z[H][W];
	int front_seen[2];
	int order_bad;           /* quads not in row-major order within a call */
	int last_x, last_y;
} cov;

/* A 32x32 target, D3D12 viewport (0, 0, 32, 32, 0, 1), the registers'
 * D3D12 values (FACE 1: clockwise is front; 1/256 grid, round to even;
 * pixel centres at .5; DX clip space). */
static void state(xs_gfx_state *s)
{
	memset(s, 0, sizeof(*s));
	s->vp_scale[0] = W / 2.0f;
	s->vp_offset[0] = W / 2.0f;
	s->vp_scale[1] = -H / 2.0f;
	s->vp_offset[1] = H / 2.0f;
	s->vp_scale[2] = 1.0f;
	s->vp_offset[2] = 0.0f;
	s->zmin = 0.0f;
	s->zmax = 1.0f;
	s->scissor[2] = W;
	s->scissor[3] = H;
	s->su_sc_mode_cntl = S_028814_FACE(1);
	s->cl_clip_cntl = S_028810_DX_CLIP_SPACE_DEF(1);
	s->su_vtx_cntl = S_028BE4_PIX_CENTER(1) | S_028BE4_ROUND_MODE(V_028BE4_X_ROUND_TO_EVEN) |
			 S_028BE4_QUANT_MODE(V_028BE4_X_16_8_FIXED_POINT_1_256TH);
	s->gb_horz_clip = s->gb_vert_clip = 1.0f;
	s->zfunc = V_028800_FRAG_ALWAYS;
}

/* A vertex at screen position (x, y) (pixels), depth z, clip w. */
static xs_gfx_vtx vtx(double x, double y, double z, double w)
{
	xs_gfx_vtx v = { { (float)((x - W / 2.0) / (W / 2.0) * w), (float)((H / 2.0 - y) / (H / 2.0) * w),
			   (float)(z * w), (float)w }, NULL };
	return v;
}

static void on_quad(void *user, const xs_gfx_quad *q)
{
	cov *c = user;
	c->quads++;
	for (int k = 0; k < 4; k++) {
		int x = q->x + (k & 1), y = q->y + (k >> 1);
		if (!(q->inside >> k & 1))
			c->helpers++;
		if (!(q->cover >> k & 1))
			continue;
		assert_true(x >= 0 && x < W && y >= 0 && y < H);
		c->n[y][x]++;
		c->i[y][x] = q->i[k];
		c->j[y][x] = q->j[k];
		c->z[y][x] = q->z[k];
	}
	c->front_seen[q->front]++;
}

static void tri(const xs_gfx_state *s, cov *c, xs_gfx_vtx a, xs_gfx_vtx b, xs_gfx_vtx d, xs_gfx_raster_stats *st)
{
	xs_gfx_vtx v[3] = { a, b, d };
	xs_gfx_raster_stats local = { 0 };
	xs_gfx_raster_tri(s, NULL, v, 0, false, on_quad, c, st ? st : &local);
}

/* Is (px, py) strictly inside the triangle by margin m (pixels), in double? */
static double edge_d(double ax, double ay, double bx, double by, double px, double py)
{
	return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

static int inside_d(const double t[3][2], double px, double py, double m)
{
	double a = edge_d(t[0][0], t[0][1], t[1][0], t[1][1], t[2][0], t[2][1]);
	double sg = a > 0 ? 1 : -1;
	int in = 1, out = 0;
	for (int k = 0; k < 3; k++) {
		const double *p = t[k], *q = t[(k + 1) % 3];
		double len = hypot(q[0] - p[0], q[1] - p[1]);
		double d = sg * edge_d(p[0], p[1], q[0], q[1], px, py) / len;
		if (d <= m)
			in = 0;
		if (d < -m)
			out = 1;
	}
	return in ? 1 : out ? -1 : 0; /* 0: within m of an edge */
}

static void shared_edge_covers_once(void **state_)
{
	(void)state_;
	xs_gfx_state s;
	state(&s);
	static cov c;
	/* a quad with irregular corners, split along its diagonal both ways */
	double q[4][2] = { { 1.3, 2.7 }, { 29.6, 1.1 }, { 27.2, 30.4 }, { 3.05, 25.9 } };
	for (int split = 0; split < 2; split++) {
		memset(&c, 0, sizeof(c));
		int a = split, b = split + 1, d = split + 2, e = (split + 3) % 4;
		tri(&s, &c, vtx(q[a][0], q[a][1], 0.5, 1), vtx(q[b][0], q[b][1], 0.5, 1), vtx(q[d][0], q[d][1], 0.5, 1),
		    NULL);
		tri(&s, &c, vtx(q[a][0], q[a][1], 0.5, 1), vtx(q[d][0], q[d][1], 0.5, 1), vtx(q[e][0], q[e][1], 0.5, 1),
		    NULL);
		double t1[3][2] = { { q[0][0], q[0][1] }, { q[1][0], q[1][1] }, { q[2][0], q[2][1] } };
		double t2[3][2] = { { q[0][0], q[0][1] }, { q[2][0], q[2][1] }, { q[3][0], q[3][1] } };
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				assert_in_range(c.n[y][x], 0, 1);
				int r1 = inside_d(t1, x + 0.5, y + 0.5, 1e-3), r2 = inside_d(t2, x + 0.5, y + 0.5, 1e-3);
				if (r1 == 1 || r2 == 1)
					assert_int_equal(c.n[y][x], 1);
				if (r1 == -1 && r2 == -1)
					assert_int_equal(c.n[y][x], 0);
			}
	}
}

/* Edges through pixel centres: a square with corners on centres covers its
 * top and left rows but not the bottom and right ones (D3D12 top-left rule),
 * and the diagonal splitting it gives each centre on it to one triangle. */
static void top_left_rule(void **state_)
{
	(void)state_;
	xs_gfx_state s;
	state(&s);
	static cov c;
	memset(&c, 0, sizeof(c));
	double lo = 4.5, hi = 20.5; /* centres of pixels 4 and 20 */
	tri(&s, &c, vtx(lo, lo, 0, 1), vtx(hi, lo, 0, 1), vtx(hi, hi, 0, 1), NULL);
	tri(&s, &c, vtx(lo, lo, 0, 1), vtx(hi, hi, 0, 1), vtx(lo, hi, 0, 1), NULL);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			assert_int_equal(c.n[y][x], x >= 4 && x < 20 && y >= 4 && y < 20);
	/* the upper-right half alone: the diagonal is its left edge, so the
	 * centres on it are its own; its top edge (row 4) is in, its right edge
	 * (column 20) out */
	memset(&c, 0, sizeof(c));
	tri(&s, &c, vtx(lo, lo, 0, 1), vtx(hi, lo, 0, 1), vtx(hi, hi, 0, 1), NULL);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			assert_int_equal(c.n[y][x], x >= y && y >= 4 && x < 20);
	/* the lower-left half: the diagonal is its right edge: out; its bottom
	 * edge (row 20) out, its left edge (column 4) in */
	memset(&c, 0, sizeof(c));
	tri(&s, &c, vtx(lo, lo, 0, 1), vtx(hi, hi, 0, 1), vtx(lo, hi, 0, 1), NULL);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			assert_int_equal(c.n[y][x], x < y && x >= 4 && y < 20);
}

/* Eight triangles around one vertex (on a pixel centre) cover the octagon's
 * pixels once each; quads come in row-major order. */
static void fan_covers_once(void **state_)
{
	(void)state_;
	xs_gfx_state s;
	state(&s);
	static cov c;
	memset(&c, 0, sizeof(c));
	double cx = 16.5, cy = 15.5, r = 12.3;
	double p[8][2];
	for (int k = 0; k < 8; k++) {
		p[k][0] = cx + r * cos(k * M_PI / 4 + 0.1);
		p[k][1] = cy + r * sin(k * M_PI / 4 + 0.1);
	}
	int total = 0;
	for (int k = 0; k < 8; k++)
		tri(&s, &c, vtx(cx, cy, 0, 1), vtx(p[k][0], p[k][1], 0, 1), vtx(p[(k + 1) % 8][0], p[(k + 1) % 8][1], 0, 1),
		    NULL);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			assert_in_range(c.n[y][x], 0, 1);
			total += c.n[y][x];
			/* pixels well inside the octagon (its inscribed circle): covered */
			double d = hypot(x + 0.5 - cx, y + 0.5 - cy);
			if (d < r * cos(M_PI / 8) - 0.01)
				assert_int_equal(c.n[y][x], 1);
			if (d > r + 0.01)
				assert_int_equal(c.n[y][x], 0);
		}
	/* the centre vertex sits on a pixel centre shared by the 8 triangles: covered once */
	assert_int_equal(c.n[15][16], 1);
	assert_true(total > 300);
}

/* A zigzag strip through the VGT: every triangle faces the same way (front
 * with FACE 1, so CULL_BACK drops none) and the strip covers each pixel
 * once, the whole band between its two rows of vertices. */
static void strip_covers_once(void **state_)
{
	(void)state_;
	xs_gfx_state s;
	state(&s);
	s.prim = XS_GFX_PRIM_TRISTRIP;
	s.instances = 1;
	s.su_sc_mode_cntl = S_028814_FACE(1) | S_028814_CULL_BACK(1);
	/* vertex n: x = 1.3 + 3.7 n, bottom row (y 25.7) for even n, top (6.2) for odd:
	 * the first triangle is clockwise on screen */
	enum { NV = 9 };
	xs_gfx_vtx pos[NV];
	for (int n = 0; n < NV; n++)
		pos[n] = vtx(1.3 + 3.7 * n, n & 1 ? 6.2 : 25.7, 0.5, 1);
	static cov c;
	memset(&c, 0, sizeof(c));
	xs_gfx_vgt v;
	xs_gfx_batch b;
	xs_gfx_raster_stats st = { 0 };
	int prims = 0;
	xs_gfx_vgt_init(&v, &s, NULL, NV, 64);
	while (xs_gfx_vgt_next(&v, &b))
		for (uint32_t p = 0; p < b.nprims; p++) {
			xs_gfx_vtx t[3];
			for (int k = 0; k < 3; k++)
				t[k] = pos[b.vertex_id[b.prim_lane[p][k]]];
			xs_gfx_raster_tri(&s, NULL, t, b.first_prim + p, false, on_quad, &c, &st);
			prims++;
		}
	assert_int_equal(prims, NV - 2);
	assert_int_equal(st.culled, 0);
	assert_true(c.front_seen[1] > 0 && c.front_seen[0] == 0);
	/* the band: between y 6.2 and 25.7, from the first triangle's left edge to the last's right */
	double first[3][2] = { { 1.3, 25.7 }, { 5.0, 6.2 }, { 8.7, 25.7 } };
	double last[3][2] = { { 1.3 + 3.7 * 6, 25.7 }, { 1.3 + 3.7 * 7, 6.2 }, { 1.3 + 3.7 * 8, 25.7 } };
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			assert_in_range(c.n[y][x], 0, 1);
			double px = x + 0.5, py = y + 0.5;
			if (py > 6.3 && py < 25.6 && px > 9 && px < 22)
				assert_int_equal(c.n[y][x], 1);
			if (inside_d(first, px, py, 0.02) == 1 || inside_d(last, px, py, 0.02) == 1)
				assert_int_equal(c.n[y][x], 1);
			if (py < 6.1 || py > 25.8)
				assert_int_equal(c.n[y][x], 0);
		}
}

/* A vertex moved by less than half a 1/256 step snaps back: the same pixels.
 * The triangle is chosen so that an edge passes through pixel centres. */
static void snapping_8bit(void **state_)
{
	(void)state_;
	xs_gfx_state s;
	state(&s);
	static cov a, b, d;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&d, 0, sizeof(d));
	/* edge from (2.5, 2.5) to (26.5, 14.5): slope 1/2, through centres (2.5 + 2k, 2.5 + k) */
	tri(&s, &a, vtx(2.5, 2.5, 0, 1), vtx(26.5, 14.5, 0, 1), vtx(6.25, 28.75, 0, 1), NULL);
	double eps = 1.0 / 1024; /* < 1/512 */
	tri(&s, &b, vtx(2.5 + eps, 2.5 - eps, 0, 1), vtx(26.5 - eps, 14.5 + eps, 0, 1), vtx(6.25, 28.75, 0, 1), NULL);
	/* a whole 1/256 step moves the edge off those centres: coverage changes */
	double step = 1.0 / 256;
	tri(&s, &d, vtx(2.5, 2.5 - step, 0, 1), vtx(26.5, 14.5 - step, 0, 1), vtx(6.25, 28.75, 0, 1), NULL);
	assert_memory_equal(a.n, b.n, sizeof(a.n));
	assert_memory_not_equal(a.n, d.n, sizeof(a.n));
}

/* A triangle crossing z = 0 (w = 1, so the plane is a line on screen): the
 * pixels with interpolated z < 0 are clipped away, the rest drawn, and the
 * barycentrics stay those of the original triangle. */
static void near_plane_clip(void **state_)
{
	(void)state_;
	xs_gfx_state s;
	state(&s);
	static cov c;
	memset(&c, 0, sizeof(c));
	double t[3][2] = { { 3.2, 4.1 }, { 28.7, 9.3 }, { 10.4, 29.1 } };
	double z[3] = { -0.6, 0.8, 0.4 };
	xs_gfx_raster_stats st = { 0 };
	tri(&s, &c, vtx(t[0][0], t[0][1], z[0], 1), vtx(t[1][0], t[1][1], z[1], 1), vtx(t[2][0], t[2][1], z[2], 1), &st);
	assert_int_equal(st.clipped, 1);
	assert_int_equal(st.culled, 0);
	double area = edge_d(t[0][0], t[0][1], t[1][0], t[1][1], t[2][0], t[2][1]);
	int drawn = 0, clipped_away = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			double px = x + 0.5, py = y + 0.5;
			double l1 = edge_d(t[2][0], t[2][1], t[0][0], t[0][1], px, py) / area;
			double l2 = edge_d(t[0][0], t[0][1], t[1][0], t[1][1], px, py) / area;
			double zi = (1 - l1 - l2) * z[0] + l1 * z[1] + l2 * z[2];
			int in = inside_d(t, px, py, 0.02);
			if (in == 1 && zi > 0.01) {
				assert_int_equal(c.n[y][x], 1);
				assert_float_equal(c.i[y][x], l1, 2e-3);
				assert_float_equal(c.j[y][x], l2, 2e-3);
				assert_float_equal(c.z[y][x], zi, 2e-3);
				drawn++;
			}
			if (in == 1 && zi < -0.01) {
				assert_int_equal(c.n[y][x], 0);
				clipped_away++;
			}
			if (in == -1)
				assert_int_equal(c.n[y][x], 0);
		}
	assert_true(drawn > 50 && clipped_away > 20);
}

/* Perspective: w differs per vertex; i, j are the perspective-correct
 * barycentrics, (l1/w1) / sum(lk/wk), of the screen-space ones. */
static void perspective_barycentrics(void **state_)
{
	(void)state_;
	xs_gfx_state s;
	state(&s);
	static cov c;
	memset(&c, 0, sizeof(c));
	double t[3][2] = { { 2.2, 3.1 }, { 29.7, 6.3 }, { 12.4, 30.1 } };
	double w[3] = { 1.0, 4.0, 2.0 };
	tri(&s, &c, vtx(t[0][0], t[0][1], 0.5, w[0]), vtx(t[1][0], t[1][1], 0.5, w[1]), vtx(t[2][0], t[2][1], 0.5, w[2]),
	    NULL);
	double area = edge_d(t[0][0], t[0][1], t[1][0], t[1][1], t[2][0], t[2][1]);
	int n = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			double px = x + 0.5, py = y + 0.5;
			if (inside_d(t, px, py, 0.02) != 1)
				continue;
			double l1 = edge_d(t[2][0], t[2][1], t[0][0], t[0][1], px, py) / area;
			double l2 = edge_d(t[0][0], t[0][1], t[1][0], t[1][1], px, py) / area;
			double l0 = 1 - l1 - l2;
			double den = l0 / w[0] + l1 / w[1] + l2 / w[2];
			assert_int_equal(c.n[y][x], 1);
			assert_float_equal(c.i[y][x], l1 / w[1] / den, 2e-3);
			assert_float_equal(c.j[y][x], l2 / w[2] / den, 2e-3);
			n++;
		}
	assert_true(n > 100);
}

/* Guard band: a triangle reaching past the viewport but inside the band is
 * not clipped; with a narrower band it is; the pixels on screen are the same. */
static void guard_band(void **state_)
{
	(void)state_;
	xs_gfx_state s;
	state(&s);
	static cov a, b;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	/* NDC x reaches 3 (screen x = 64) */
	xs_gfx_vtx v0 = vtx(-20.3, 5.2, 0.5, 1), v1 = vtx(64.0, 12.7, 0.5, 1), v2 = vtx(8.1, 50.6, 0.5, 1);
	xs_gfx_raster_stats sa = { 0 }, sb = { 0 };
	s.gb_horz_clip = s.gb_vert_clip = 4.0f;
	tri(&s, &a, v0, v1, v2, &sa);
	s.gb_horz_clip = s.gb_vert_clip = 1.5f;
	tri(&s, &b, v0, v1, v2, &sb);
	assert_int_equal(sa.clipped, 0);
	assert_int_equal(sb.clipped, 1);
	int n = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			double t[3][2] = { { -20.3, 5.2 }, { 64.0, 12.7 }, { 8.1, 50.6 } };
			int in = inside_d(t, x + 0.5, y + 0.5, 0.02);
			if (in)
				assert_int_equal(a.n[y][x], in == 1);
			n += a.n[y][x];
		}
	assert_memory_equal(a.n, b.n, sizeof(a.n));
	assert_true(n > 200);
	/* entirely outside the view volume: culled without clipping */
	xs_gfx_raster_stats sc = { 0 };
	tri(&s, &a, vtx(40, 1, 0.5, 1), vtx(50, 2, 0.5, 1), vtx(45, 9, 0.5, 1), &sc);
	assert_int_equal(sc.culled, 1);
}

/* Facing: clockwise on screen is front with FACE 1 (D3D12's default), back
 * with FACE 0; CULL_FRONT / CULL_BACK drop them. */
static void culling(void **state_)
{
	(void)state_;
	xs_gfx_state s;
	state(&s);
	static cov c;
	xs_gfx_vtx a = vtx(4, 4, 0, 1), b = vtx(28, 6, 0, 1), d = vtx(10, 27, 0, 1); /* clockwise (y down) */
	struct {
		uint32_t mode;
		bool swap;
		bool drawn, front;
	} cases[] = {
		{ S_028814_FACE(1), false, true, true },
		{ S_028814_FACE(1), true, true, false },
		{ S_028814_FACE(1) | S_028814_CULL_BACK(1), false, true, true },
		{ S_028814_FACE(1) | S_028814_CULL_BACK(1), true, false, false },
		{ S_028814_FACE(1) | S_028814_CULL_FRONT(1), false, false, true },
		{ S_028814_FACE(0) | S_028814_CULL_BACK(1), false, false, false },
		{ S_028814_FACE(0) | S_028814_CULL_BACK(1), true, true, true },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		memset(&c, 0, sizeof(c));
		s.su_sc_mode_cntl = cases[k].mode;
		xs_gfx_raster_stats st = { 0 };
		if (cases[k].swap)
			tri(&s, &c, a, d, b, &st);
		else
			tri(&s, &c, a, b, d, &st);
		assert_int_equal(st.culled, !cases[k].drawn);
		assert_int_equal(c.quads > 0, cases[k].drawn);
		if (cases[k].drawn)
			assert_true(c.front_seen[cases[k].front] && !c.front_seen[!cases[k].front]);
	}
	/* a degenerate triangle draws nothing */
	memset(&c, 0, sizeof(c));
	s.su_sc_mode_cntl = S_028814_FACE(1);
	tri(&s, &c, vtx(1, 1, 0, 1), vtx(10, 10, 0, 1), vtx(20, 20, 0, 1), NULL);
	assert_int_equal(c.quads, 0);
}

/* Early Z against a D32 buffer: LESS keeps the nearer triangle and writes
 * it; a farther one is killed by quads; depth is clamped to ZMIN/ZMAX. */
static void early_z(void **state_)
{
	(void)state_;
	xs_vm *vm = xs_vm_create();
	uint64_t zva;
	assert_int_equal(xs_vm_alloc(vm, 256 * H, 256, &zva, NULL), XS_OK);
	float half = 0.5f;
	for (int i = 0; i < W * H; i++)
		assert_true(xs_vm_write(vm, zva + (uint64_t)(i / W) * 256 + (i % W) * 4, &half, 4, NULL));
	xs_gfx_state s;
	state(&s);
	s.z_enable = s.z_write = s.z_valid = true;
	s.zfunc = V_028800_FRAG_LESS;
	s.z_va = zva;
	s.z_width = W;
	s.z_height = H;
	s.z_pitch = 256;
	static cov c;
	memset(&c, 0, sizeof(c));
	xs_gfx_vtx v[3] = { vtx(0, 0, 0.25, 1), vtx(32, 0, 0.25, 1), vtx(0, 32, 0.25, 1) };
	xs_gfx_raster_stats st = { 0 };
	xs_gfx_raster_tri(&s, vm, v, 0, true, on_quad, &c, &st);
	assert_true(st.pixels > 400);
	float d;
	assert_true(xs_vm_read(vm, zva + 256 * 3 + 4 * 3, &d, 4, NULL));
	assert_float_equal(d, 0.25, 1e-6);
	/* farther: every quad killed */
	memset(&c, 0, sizeof(c));
	xs_gfx_vtx far[3] = { vtx(0, 0, 0.75, 1), vtx(32, 0, 0.75, 1), vtx(0, 32, 0.75, 1) };
	xs_gfx_raster_stats st2 = { 0 };
	xs_gfx_raster_tri(&s, vm, far, 1, true, on_quad, &c, &st2);
	assert_int_equal(st2.pixels, 0);
	assert_true(st2.depth_killed_quads > 100);
	assert_int_equal(c.quads, 0);
	/* depth range: ZMAX 0.6 clamps 0.75 to 0.6 (and GREATER passes over 0.25) */
	s.zmax = 0.6f;
	s.zfunc = V_028800_FRAG_GREATER;
	memset(&c, 0, sizeof(c));
	xs_gfx_raster_tri(&s, vm, far, 2, true, on_quad, &c, &st2);
	assert_true(xs_vm_read(vm, zva + 256 * 3 + 4 * 3, &d, 4, NULL));
	assert_float_equal(d, 0.6, 1e-6);
	xs_vm_destroy(vm);
}

/* The depth functions, against D3D12_COMPARISON_FUNC's definitions. */
static void depth_functions(void **state_)
{
	(void)state_;
	const float zs[3] = { 0.25f, 0.5f, 0.75f };
	for (unsigned f = 0; f < 8; f++)
		for (int k = 0; k < 3; k++) {
			float z = zs[k], d = 0.5f;
			bool want = f == V_028800_FRAG_NEVER ? false : f == V_028800_FRAG_LESS ? z < d
				  : f == V_028800_FRAG_EQUAL ? z == d : f == V_028800_FRAG_LEQUAL ? z <= d
				  : f == V_028800_FRAG_GREATER ? z > d : f == V_028800_FRAG_NOTEQUAL ? z != d
				  : f == V_028800_FRAG_GEQUAL ? z >= d : true;
			assert_int_equal(xs_gfx_depth_compare(f, z, d), want);
		}
}

/* NaN or infinite positions draw nothing and do not crash. */
static void bad_positions(void **state_)
{
	(void)state_;
	xs_gfx_state s;
	state(&s);
	static cov c;
	memset(&c, 0, sizeof(c));
	xs_gfx_raster_stats st = { 0 };
	xs_gfx_vtx v = vtx(3, 3, 0.5, 1);
	v.pos[0] = NAN;
	tri(&s, &c, v, vtx(20, 3, 0.5, 1), vtx(3, 20, 0.5, 1), &st);
	v.pos[0] = INFINITY;
	tri(&s, &c, v, vtx(20, 3, 0.5, 1), vtx(3, 20, 0.5, 1), &st);
	/* w = 0 and w < 0 at one vertex: clipped to w > 0 */
	tri(&s, &c, vtx(3, 3, 0.5, 1), vtx(20, 3, 0.5, 1), (xs_gfx_vtx){ { 0.1f, 0.1f, 0.0f, 0.0f }, NULL }, &st);
	tri(&s, &c, vtx(3, 3, 0.5, 1), vtx(20, 3, 0.5, 1), (xs_gfx_vtx){ { 0.1f, 0.1f, 0.2f, -1.0f }, NULL }, &st);
	/* huge guard band and coordinates: kept in range */
	s.gb_horz_clip = s.gb_vert_clip = 1e30f;
	tri(&s, &c, vtx(3, 3, 0.5, 1), vtx(1e9, 3, 0.5, 1), vtx(3, 1e9, 0.5, 1), &st);
	assert_int_equal(st.culled, 2);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			assert_in_range(c.n[y][x], 0, 4);
	assert_true(c.n[31][31] == 1); /* the last, huge triangle covers the whole screen */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shared_edge_covers_once),
		cmocka_unit_test(top_left_rule),
		cmocka_unit_test(fan_covers_once),
		cmocka_unit_test(strip_covers_once),
		cmocka_unit_test(snapping_8bit),
		cmocka_unit_test(near_plane_clip),
		cmocka_unit_test(perspective_barycentrics),
		cmocka_unit_test(guard_band),
		cmocka_unit_test(culling),
		cmocka_unit_test(early_z),
		cmocka_unit_test(depth_functions),
		cmocka_unit_test(bad_positions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
