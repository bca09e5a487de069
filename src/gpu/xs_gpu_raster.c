/*
 * PA and SC: one triangle from clip space to 2x2 quads, by the D3D12
 * functional specification's rasterization rules as the registers set them:
 *
 * 1. Trivial reject: all three vertices outside one plane of the view
 *    volume (-w <= x, y <= w; 0 <= z <= w with PA_CL_CLIP_CNTL.
 *    DX_CLIP_SPACE_DEF, else -w <= z) is culled.
 * 2. Clipping: against the near plane (z >= 0, unless ZCLIP_NEAR_DISABLE),
 *    the far plane (z <= w, unless ZCLIP_FAR_DISABLE) and the guard band
 *    (|x| <= PA_CL_GB_HORZ_CLIP_ADJ w, |y| <= PA_CL_GB_VERT_CLIP_ADJ w),
 *    only when a vertex exceeds one of them (guard-band clipping: what
 *    stays inside the band is rasterized whole; the scissor drops the
 *    pixels outside the viewport). w > 0 is always enforced so the divide is
 *    defined. The guard band is also kept inside the rasterizer's fixed-
 *    point range (+-32768 pixels) [model]. Each clipped vertex carries its
 *    barycentric weights over the ORIGINAL three vertices, so the PS
 *    interpolates the original parameters (xs_gpu_gfx.h).
 * 3. Perspective divide and the viewport transform (PA_CL_VPORT_*, with
 *    PA_CL_VTE_CNTL's enables applied by xs_gfx_state_decode).
 * 4. Snapping: x, y to PA_SU_VTX_CNTL.QUANT_MODE's grid (1/256 pixel in
 *    D3D12: 8 bits of subpixel precision) with its ROUND_MODE (round to
 *    nearest even).
 * 5. Facing and culling: the snapped polygon's signed area; clockwise on
 *    screen is front when PA_SU_SC_MODE_CNTL.FACE is 1 (D3D12's default
 *    FrontCounterClockwise = FALSE), CULL_FRONT / CULL_BACK drop it;
 *    zero area draws nothing.
 * 6. Coverage: exact 64-bit integer edge functions at pixel centres
 *    (x + 0.5, y + 0.5 with PIX_CENTER 1; x, y with 0); a centre on an edge
 *    is inside only for a top edge (horizontal, the others below it) or a
 *    left edge (the top-left rule); inside the scissor (viewport scissor ∩
 *    screen scissor). Quads are visited row by row, left to right, per
 *    triangle of the clipped polygon in fan order.
 * 7. Per pixel (helpers too): perspective-correct barycentrics i, j of the
 *    original vertices 1 and 2, depth linear in screen space clamped to
 *    [PA_SC_VPORT_ZMIN_0, ZMAX_0], 1/w; early Z (DB_DEPTH_CONTROL) when
 *    asked for.
 */
#include "gpu/xs_gpu_gfx.h"
#include "hw/xs_hw_gfx.h"

#include <math.h>
#include <string.h>

#define MAX_POLY XS_GFX_RASTER_MAX_POLY

typedef struct cvtx {
	double c[4];             /* clip space */
	double b[3];             /* weights of the original vertices */
} cvtx;

/* A plane: dot(k, c) + k[4] >= 0 is inside. */
typedef struct plane {
	double k[5];
} plane;

static double plane_dist(const plane *p, const cvtx *v)
{
	return p->k[0] * v->c[0] + p->k[1] * v->c[1] + p->k[2] * v->c[2] + p->k[3] * v->c[3] + p->k[4];
}

/* Sutherland-Hodgman against one plane; returns the new vertex count. */
static unsigned clip_poly(const plane *p, const cvtx *in, unsigned n, cvtx *out)
{
	unsigned m = 0;
	for (unsigned i = 0; i < n; i++) {
		const cvtx *a = &in[i], *b = &in[(i + 1) % n];
		double da = plane_dist(p, a), db = plane_dist(p, b);
		if (da >= 0)
			out[m++] = *a;
		if ((da >= 0) != (db >= 0) && m < MAX_POLY) {
			double t = da / (da - db);
			cvtx *o = &out[m++];
			for (int k = 0; k < 4; k++)
				o->c[k] = a->c[k] + t * (b->c[k] - a->c[k]);
			for (int k = 0; k < 3; k++)
				o->b[k] = a->b[k] + t * (b->b[k] - a->b[k]);
		}
		if (m >= MAX_POLY)
			break;
	}
	return m;
}

/* QUANT_MODE: subpixel steps per pixel. */
static int64_t quant_steps(uint32_t vtx_cntl)
{
	static const int64_t steps[8] = { 16, 8, 4, 2, 1, 256, 1024, 4096 };
	return steps[G_028BE4_QUANT_MODE(vtx_cntl)];
}

static int64_t snap(double v, int64_t steps, unsigned round_mode)
{
	double x = v * (double)steps;
	switch (round_mode) {
	case V_028BE4_X_TRUNCATE: return (int64_t)trunc(x);
	case V_028BE4_X_ROUND: return (int64_t)floor(x + 0.5);
	case V_028BE4_X_ROUND_TO_ODD: {
		double f = floor(x);
		if (x - f != 0.5)
			return (int64_t)floor(x + 0.5);
		return ((int64_t)f & 1) ? (int64_t)f : (int64_t)f + 1;
	}
	default: return (int64_t)nearbyint(x); /* X_ROUND_TO_EVEN (the default rounding mode) */
	}
}

typedef xs_gfx_svtx svtx;

static int64_t edge(const svtx *a, const svtx *b, int64_t px, int64_t py)
{
	return (b->x - a->x) * (py - a->y) - (b->y - a->y) * (px - a->x);
}

/* The top-left rule, for a clockwise (on screen, y down) triangle: a left
 * edge goes up, a top edge goes right along a row. */
static bool top_left(const svtx *a, const svtx *b)
{
	int64_t dy = b->y - a->y, dx = b->x - a->x;
	return dy < 0 || (dy == 0 && dx > 0);
}

typedef struct raster {
	const xs_gfx_state *s;
	xs_vm *vm;
	bool early_z, front;
	int64_t steps;           /* grid units per pixel (2 x QUANT steps) */
	int64_t centre;          /* offset of the sample in a pixel, grid units */
	xs_gfx_quad_fn fn;
	xs_gfx_room_fn room;
	void *user;
	xs_gfx_raster_stats *st;
	xs_gfx_raster_job *job;
} raster;

static void pixel_attrs(const raster *r, const svtx t[3], double area, int64_t px, int64_t py, xs_gfx_quad *q,
			int k)
{
	double l0 = (double)edge(&t[1], &t[2], px, py) / area;
	double l1 = (double)edge(&t[2], &t[0], px, py) / area;
	double l2 = 1.0 - l0 - l1;
	double winv = l0 * t[0].w_inv + l1 * t[1].w_inv + l2 * t[2].w_inv;
	double bi = 0, bj = 0;
	if (winv != 0 && isfinite(winv)) {
		bi = (l0 * t[0].b[1] * t[0].w_inv + l1 * t[1].b[1] * t[1].w_inv + l2 * t[2].b[1] * t[2].w_inv) / winv;
		bj = (l0 * t[0].b[2] * t[0].w_inv + l1 * t[1].b[2] * t[1].w_inv + l2 * t[2].b[2] * t[2].w_inv) / winv;
	}
	q->i[k] = (float)bi;
	q->j[k] = (float)bj;
	q->w_inv[k] = (float)winv;
	q->z[k] = xs_gfx_depth_clamp(r->s, (float)(l0 * t[0].z + l1 * t[1].z + l2 * t[2].z));
}

/* Rasterizes one clockwise triangle t (area > 0, grid units), from the
 * job's place when it stopped inside it; false when room said no (the job
 * keeps the quad it stopped at, not yet tested or emitted). */
static bool raster_tri(const raster *r, const svtx t[3])
{
	const xs_gfx_state *s = r->s;
	double area = (double)edge(&t[0], &t[1], t[2].x, t[2].y);
	int64_t bias0 = top_left(&t[1], &t[2]) ? 0 : 1, bias1 = top_left(&t[2], &t[0]) ? 0 : 1,
		bias2 = top_left(&t[0], &t[1]) ? 0 : 1;
	int64_t minx = XS_MIN(XS_MIN(t[0].x, t[1].x), t[2].x), maxx = XS_MAX(XS_MAX(t[0].x, t[1].x), t[2].x);
	int64_t miny = XS_MIN(XS_MIN(t[0].y, t[1].y), t[2].y), maxy = XS_MAX(XS_MAX(t[0].y, t[1].y), t[2].y);
	/* pixels whose sample can lie in [min, max] */
	int64_t x0 = (minx - r->centre) / r->steps - 1, x1 = (maxx - r->centre) / r->steps + 1;
	int64_t y0 = (miny - r->centre) / r->steps - 1, y1 = (maxy - r->centre) / r->steps + 1;
	x0 = XS_MAX(x0, (int64_t)s->scissor[0]);
	y0 = XS_MAX(y0, (int64_t)s->scissor[1]);
	x1 = XS_MIN(x1, (int64_t)s->scissor[2] - 1);
	y1 = XS_MIN(y1, (int64_t)s->scissor[3] - 1);
	if (x0 > x1 || y0 > y1)
		return true;
	x0 &= ~(int64_t)1;
	y0 &= ~(int64_t)1;
	xs_gfx_raster_job *j = r->job;
	int64_t qy = y0, qx = x0;
	if (j->mid) {
		qy = j->qy;
		qx = j->qx;
		j->mid = false;
	}
	for (; qy <= y1; qy += 2, qx = x0)
		for (; qx <= x1; qx += 2) {
			xs_gfx_quad q;
			memset(&q, 0, sizeof(q));
			q.x = (int32_t)qx;
			q.y = (int32_t)qy;
			q.front = r->front;
			for (int k = 0; k < 4; k++) {
				int64_t x = qx + (k & 1), y = qy + (k >> 1);
				int64_t px = x * r->steps + r->centre, py = y * r->steps + r->centre;
				bool in = x >= s->scissor[0] && x < s->scissor[2] && y >= s->scissor[1] &&
					  y < s->scissor[3] && edge(&t[1], &t[2], px, py) >= bias0 &&
					  edge(&t[2], &t[0], px, py) >= bias1 && edge(&t[0], &t[1], px, py) >= bias2;
				if (in)
					q.inside |= (uint8_t)(1u << k);
			}
			if (!q.inside)
				continue;
			if (r->room && !r->room(r->user)) {
				j->mid = true;
				j->qy = qy;
				j->qx = qx;
				return false;
			}
			for (int k = 0; k < 4; k++)
				pixel_attrs(r, t, area, (qx + (k & 1)) * r->steps + r->centre,
					    (qy + (k >> 1)) * r->steps + r->centre, &q, k);
			q.cover = q.inside;
			if (r->early_z)
				for (int k = 0; k < 4; k++)
					if ((q.inside >> k & 1) &&
					    !xs_gfx_depth_test(s, r->vm, q.x + (k & 1), q.y + (k >> 1), q.z[k]))
						q.cover &= (uint8_t)~(1u << k);
			if (!q.cover) {
				r->st->depth_killed_quads++;
				continue;
			}
			r->st->quads++;
			for (int k = 0; k < 4; k++)
				r->st->pixels += q.cover >> k & 1;
			r->fn(r->user, &q);
		}
	return true;
}

/* The guard band's half-extent in NDC along one axis: the register's ratio,
 * at least the viewport (1), kept inside the fixed-point range. */
static double guard(float reg, float scale, float offset)
{
	double g = isfinite(reg) && reg >= 1.0f ? reg : 1.0;
	double sc = fabs((double)scale);
	if (sc > 0) {
		double lim = (XS_SC_SCREEN_RANGE_PX - 1 - fabs((double)offset)) / sc;
		if (lim < g)
			g = lim > 1e-6 ? lim : 1e-6;
	}
	return g;
}

bool xs_gfx_raster_setup(const xs_gfx_state *s, const xs_gfx_vtx v[3], xs_gfx_raster_job *job,
			 xs_gfx_raster_stats *st)
{
	job->n = 0;
	job->fan = 1;
	job->mid = false;
	uint32_t cc = s->cl_clip_cntl;
	bool dx_z = G_028810_DX_CLIP_SPACE_DEF(cc);
	cvtx poly[2][MAX_POLY];
	for (int i = 0; i < 3; i++) {
		for (int k = 0; k < 4; k++) {
			if (!isfinite(v[i].pos[k])) {
				st->culled++; /* a NaN or infinite position draws nothing [model] */
				return false;
			}
			poly[0][i].c[k] = v[i].pos[k];
		}
		for (int k = 0; k < 3; k++)
			poly[0][i].b[k] = i == k;
	}
	/* 1. trivial reject against the view volume */
	const plane view[6] = {
		{ { 1, 0, 0, 1, 0 } }, { { -1, 0, 0, 1, 0 } }, { { 0, 1, 0, 1, 0 } }, { { 0, -1, 0, 1, 0 } },
		{ { 0, 0, 1, dx_z ? 0 : 1, 0 } }, { { 0, 0, -1, 1, 0 } },
	};
	for (int p = 0; p < 6; p++) {
		if ((p == 4 && G_028810_ZCLIP_NEAR_DISABLE(cc)) || (p == 5 && G_028810_ZCLIP_FAR_DISABLE(cc)))
			continue;
		if (plane_dist(&view[p], &poly[0][0]) < 0 && plane_dist(&view[p], &poly[0][1]) < 0 &&
		    plane_dist(&view[p], &poly[0][2]) < 0) {
			st->culled++;
			return false;
		}
	}
	/* 2. clip what exceeds the near/far planes, w > 0 and the guard band */
	double gx = guard(s->gb_horz_clip, s->vp_scale[0], s->vp_offset[0]);
	double gy = guard(s->gb_vert_clip, s->vp_scale[1], s->vp_offset[1]);
	plane planes[8];
	unsigned np = 0;
	planes[np++] = (plane){ { 0, 0, 0, 1, -1e-30 } }; /* w > 0: the divide stays defined */
	if (!G_028810_CLIP_DISABLE(cc)) {
		if (!G_028810_ZCLIP_NEAR_DISABLE(cc))
			planes[np++] = view[4];
		if (!G_028810_ZCLIP_FAR_DISABLE(cc))
			planes[np++] = view[5];
	}
	planes[np++] = (plane){ { 1, 0, 0, gx, 0 } };
	planes[np++] = (plane){ { -1, 0, 0, gx, 0 } };
	planes[np++] = (plane){ { 0, 1, 0, gy, 0 } };
	planes[np++] = (plane){ { 0, -1, 0, gy, 0 } };
	unsigned n = 3, cur = 0;
	bool clipped = false;
	for (unsigned p = 0; p < np && n >= 3; p++) {
		bool all_in = true;
		for (unsigned i = 0; i < n && all_in; i++)
			all_in = plane_dist(&planes[p], &poly[cur][i]) >= 0;
		if (all_in)
			continue; /* only what exceeds a plane is clipped */
		n = clip_poly(&planes[p], poly[cur], n, poly[cur ^ 1]);
		cur ^= 1;
		clipped = true;
	}
	if (n < 3) {
		st->culled++;
		return false;
	}
	if (clipped)
		st->clipped++;
	/* 3-4. divide, viewport, snap */
	int64_t qs = quant_steps(s->su_vtx_cntl);
	unsigned rmode = G_028BE4_ROUND_MODE(s->su_vtx_cntl);
	svtx *sv = job->v;
	for (unsigned i = 0; i < n; i++) {
		const cvtx *c = &poly[cur][i];
		double winv = 1.0 / c->c[3];
		double X = c->c[0] * winv * s->vp_scale[0] + s->vp_offset[0];
		double Y = c->c[1] * winv * s->vp_scale[1] + s->vp_offset[1];
		double Z = c->c[2] * winv * s->vp_scale[2] + s->vp_offset[2];
		if (!isfinite(X) || !isfinite(Y) || !isfinite(Z) || fabs(X) > XS_SC_SCREEN_RANGE_PX || fabs(Y) > XS_SC_SCREEN_RANGE_PX) {
			st->culled++;
			return false;
		}
		sv[i].x = 2 * snap(X, qs, rmode);
		sv[i].y = 2 * snap(Y, qs, rmode);
		sv[i].z = Z;
		sv[i].w_inv = winv;
		memcpy(sv[i].b, c->b, sizeof(sv[i].b));
	}
	/* 5. facing from the polygon's signed area (clockwise on screen > 0) */
	int64_t area2 = 0;
	for (unsigned i = 1; i + 1 < n; i++)
		area2 += edge(&sv[0], &sv[i], sv[i + 1].x, sv[i + 1].y);
	if (area2 == 0) {
		st->culled++;
		return false;
	}
	uint32_t mode = s->su_sc_mode_cntl;
	bool cw = area2 > 0;
	bool front = G_028814_FACE(mode) ? cw : !cw;
	if ((front && G_028814_CULL_FRONT(mode)) || (!front && G_028814_CULL_BACK(mode))) {
		st->culled++;
		return false;
	}
	job->n = n;
	job->front = front;
	return true;
}

bool xs_gfx_raster_run(const xs_gfx_state *s, xs_vm *vm, xs_gfx_raster_job *job, bool early_z, xs_gfx_quad_fn fn,
		       xs_gfx_room_fn room, void *user, xs_gfx_raster_stats *st)
{
	/* 6-7. each fan triangle, made clockwise */
	int64_t qs = quant_steps(s->su_vtx_cntl);
	raster r = { .s = s, .vm = vm, .early_z = early_z, .front = job->front, .steps = 2 * qs,
		     .centre = G_028BE4_PIX_CENTER(s->su_vtx_cntl) ? qs : 0, .fn = fn, .room = room, .user = user,
		     .st = st, .job = job };
	const svtx *sv = job->v;
	for (; job->fan + 1 < job->n; job->fan++) {
		unsigned i = job->fan;
		svtx t[3] = { sv[0], sv[i], sv[i + 1] };
		int64_t a = edge(&t[0], &t[1], t[2].x, t[2].y);
		if (a == 0)
			continue;
		if (a < 0) {
			svtx tmp = t[1];
			t[1] = t[2];
			t[2] = tmp;
		}
		if (!raster_tri(&r, t))
			return false;
	}
	return true;
}

void xs_gfx_raster_tri(const xs_gfx_state *s, xs_vm *vm, const xs_gfx_vtx v[3], uint64_t prim_index,
		       bool early_z, xs_gfx_quad_fn fn, void *user, xs_gfx_raster_stats *st)
{
	(void)prim_index; /* the VGT already ordered strip vertices (xs_gpu_vgt.c) */
	xs_gfx_raster_job job;
	if (xs_gfx_raster_setup(s, v, &job, st))
		(void)xs_gfx_raster_run(s, vm, &job, early_z, fn, NULL, user, st);
}
