/*
 * kernels/bvh_rays.cl (clang's __builtin_amdgcn_image_bvh_intersect_ray*,
 * all four forms: 32/64-bit node pointer, f32/f16 direction) on random
 * box32, box16 and triangle nodes and random rays, against
 *   1. a CPU reference written here from the rules in docs/hardware.md
 *      section 10 (word for word equal), and
 *   2. an outside oracle: slab and Moller-Trumbore tests in double
 *      precision, which must agree on hit or miss (and on t and the
 *      barycentrics) wherever the case is not within a margin of an edge.
 * Both T# variants run: sorting + IJ barycentrics, and no sorting + id
 * mode + box_grow_ulp 3; in timing and functional mode (same results).
 * And a node pointer past the BVH removes the device with a VM fault report.
 * Usage: test_bvh_kernel bvh_rays.O2.w32.hsaco [more variants ...]
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "xs12/xs12.h"
#include "hw/xs_hw_regs.h"

#define NRAYS 4096
#define NBOX32 256
#define NBOX16 256
#define NTRI 512
#define OFF_BOX16 (NBOX32 * 128)
#define OFF_TRI (OFF_BOX16 + NBOX16 * 64)
#define OFF_OTHER (OFF_TRI + NTRI * 64)   /* one 64-byte node read as instance / AABB */
#define BVH_BYTES (OFF_OTHER + 64)
#define MISS 0xffffffffu

static int g_argc;
static char **g_argv;

/* ---- small helpers ---------------------------------------------------------- */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}
static float frand(float lo, float hi) { return lo + (hi - lo) * (float)(rnd() & 0xffffff) / 16777216.0f; }
static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float flt(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* binary16 <-> binary32, written for this test (normal numbers, zero, inf;
 * small values flush to zero, which the reference reads back as written) */
static uint16_t to_half(float f)
{
	uint32_t u = bits(f), s = (u >> 16) & 0x8000;
	if (isnan(f))
		return 0x7e00;
	float a = fabsf(f);
	if (a >= 65520.0f)
		return (uint16_t)(s | 0x7c00);
	if (a < 0x1p-14f)
		return (uint16_t)s;
	int e;
	float m = frexpf(a, &e);              /* a = m * 2^e, m in [0.5, 1) */
	uint32_t mant = (uint32_t)lrintf(m * 2048.0f);  /* 11 bits, nearest even */
	if (mant == 2048) {
		mant = 1024;
		e++;
	}
	if (e + 14 >= 31)
		return (uint16_t)(s | 0x7c00);
	return (uint16_t)(s | (uint32_t)(e + 14) << 10 | (mant - 1024));
}
static float from_half(uint16_t h)
{
	float s = (h & 0x8000) ? -1.0f : 1.0f;
	unsigned e = (h >> 10) & 31, m = h & 1023;
	if (e == 31)
		return m ? NAN : s * INFINITY;
	if (e == 0)
		return s * ldexpf((float)m, -24);
	return s * ldexpf((float)(m + 1024), (int)e - 25);
}

/* ---- the reference --------------------------------------------------------- */
typedef struct ray {
	float ext, o[3], d[3], inv[3];
} ray;

typedef struct tsharp {
	unsigned grow;
	bool sort, ij;
} tsharp;

/* slab test of box [lo, hi] (docs/hardware.md 10.3) */
static bool ref_slab(const ray *r, const float lo[3], const float hi[3], unsigned grow, float *key)
{
	if (isnan(r->ext))
		return false;
	float enter = 0.0f, leave = r->ext;
	for (int a = 0; a < 3; a++) {
		float inv = fminf(fmaxf(r->inv[a], -FLT_MAX), FLT_MAX);
		if (isnan(r->inv[a]))
			return false;
		float t0 = (lo[a] - r->o[a]) * inv, t1 = (hi[a] - r->o[a]) * inv;
		if (isnan(t0) || isnan(t1))
			return false;
		enter = fmaxf(enter, fminf(t0, t1));
		leave = fminf(leave, fmaxf(t0, t1));
	}
	*key = enter;
	return enter <= leave * (1.0f + (float)grow * 0x1p-24f);
}

static void ref_box(const uint8_t *n, bool f16, const ray *r, const tsharp *t, uint32_t out[4])
{
	float key[4];
	for (int c = 0; c < 4; c++) {
		float lo[3], hi[3];
		for (int a = 0; a < 3; a++) {
			if (f16) {
				uint16_t h0, h1;
				memcpy(&h0, n + 16 + 12 * c + 2 * a, 2);
				memcpy(&h1, n + 16 + 12 * c + 6 + 2 * a, 2);
				lo[a] = from_half(h0);
				hi[a] = from_half(h1);
			} else {
				memcpy(&lo[a], n + 16 + 24 * c + 4 * a, 4);
				memcpy(&hi[a], n + 16 + 24 * c + 12 + 4 * a, 4);
			}
		}
		key[c] = INFINITY;
		memcpy(&out[c], n + 4 * c, 4);
		if (!ref_slab(r, lo, hi, t->grow, &key[c]))
			out[c] = MISS;
	}
	if (!t->sort)
		return;
	/* the comparator network of docs/hardware.md 10.3: misses go last,
	 * a later slot moves up only if strictly closer */
	static const int net[5][2] = { { 0, 2 }, { 1, 3 }, { 0, 1 }, { 2, 3 }, { 1, 2 } };
	for (int k = 0; k < 5; k++) {
		int a = net[k][0], b = net[k][1];
		bool swap = out[a] == MISS || (out[b] != MISS && key[b] < key[a]);
		if (swap) {
			uint32_t c = out[a];
			out[a] = out[b];
			out[b] = c;
			float f = key[a];
			key[a] = key[b];
			key[b] = f;
		}
	}
}

/* Woop et al. 2013 watertight test, f32 (docs/hardware.md 10.4) */
static bool ref_tri(const float v[3][3], const ray *r, float res[4])
{
	int z = 0;
	if (fabsf(r->d[1]) > fabsf(r->d[z]))
		z = 1;
	if (fabsf(r->d[2]) > fabsf(r->d[z]))
		z = 2;
	int x = (z + 1) % 3, y = (z + 2) % 3;
	if (r->d[z] < 0) {
		int s = x;
		x = y;
		y = s;
	}
	float sz = 1.0f / r->d[z], sx = r->d[x] * sz, sy = r->d[y] * sz;
	float X[3], Y[3], Z[3];
	for (int i = 0; i < 3; i++) {
		float px = v[i][x] - r->o[x], py = v[i][y] - r->o[y], pz = v[i][z] - r->o[z];
		X[i] = px - sx * pz;
		Y[i] = py - sy * pz;
		Z[i] = pz;
	}
	float e[3];   /* e[i]: the edge function opposite vertex i */
	for (int i = 0; i < 3; i++) {
		int j = (i + 1) % 3, k = (i + 2) % 3;
		e[i] = X[k] * Y[j] - Y[k] * X[j];
	}
	if (e[0] == 0.0f || e[1] == 0.0f || e[2] == 0.0f)
		for (int i = 0; i < 3; i++) {
			int j = (i + 1) % 3, k = (i + 2) % 3;
			e[i] = (float)((double)X[k] * Y[j] - (double)Y[k] * X[j]);
		}
	bool neg = e[0] < 0 || e[1] < 0 || e[2] < 0, pos = e[0] > 0 || e[1] > 0 || e[2] > 0;
	if (neg && pos)
		return false;
	float det = e[0] + e[1] + e[2];
	if (!(det != 0.0f))
		return false;
	float t = e[0] * (sz * Z[0]) + e[1] * (sz * Z[1]) + e[2] * (sz * Z[2]);
	if (isnan(t) || (det > 0 && t < 0) || (det < 0 && t > 0))
		return false;
	res[0] = t;
	res[1] = det;
	res[2] = e[1];
	res[3] = e[2];
	return true;
}

static void ref_node(const uint8_t *bvh, uint32_t ptr, const ray *r, const tsharp *t, uint32_t out[4])
{
	const uint8_t *n = bvh + (size_t)(ptr & ~7u) * 8;
	out[0] = out[1] = out[2] = out[3] = MISS;
	switch (ptr & 7) {
	case 5: ref_box(n, false, r, t, out); break;
	case 4: ref_box(n, true, r, t, out); break;
	case 0: {
		float v[3][3], res[4] = { INFINITY, 1.0f, 0.0f, 0.0f };
		memcpy(v, n, sizeof(v));
		bool hit = ref_tri(v, r, res);
		out[0] = bits(res[0]);
		out[1] = bits(res[1]);
		if (t->ij) {
			out[2] = bits(res[2]);
			out[3] = bits(res[3]);
		} else {
			memcpy(&out[2], n + 60, 4);
			out[3] = hit ? 1 : 0;
		}
		break;
	}
	default: break;   /* instance, AABB, 1..3: all misses */
	}
}

/* ---- the outside oracle (double precision, away from edges) ----------------- */
typedef struct tally {
	unsigned checked, hits, misses;
} tally;

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void cross3(const double a[3], const double b[3], double c[3])
{
	c[0] = a[1] * b[2] - a[2] * b[1];
	c[1] = a[2] * b[0] - a[0] * b[2];
	c[2] = a[0] * b[1] - a[1] * b[0];
}

/* Moller-Trumbore: 1 = clear hit (t, b1, b2 set), 0 = clear miss, -1 = too close to call */
static int oracle_tri(const float v[3][3], const ray *r, double *t, double *b1, double *b2)
{
	double e1[3], e2[3], s[3], d[3], p[3], q[3];
	for (int a = 0; a < 3; a++) {
		e1[a] = (double)v[1][a] - v[0][a];
		e2[a] = (double)v[2][a] - v[0][a];
		s[a] = (double)r->o[a] - v[0][a];
		d[a] = r->d[a];
	}
	if (!isfinite(dot3(d, d)) || dot3(d, d) == 0 || !isfinite(dot3(s, s)))
		return -1;
	cross3(d, e2, p);
	double det = dot3(e1, p);
	double n1 = sqrt(dot3(e1, e1)), n2 = sqrt(dot3(e2, e2)), nd = sqrt(dot3(d, d));
	if (fabs(det) < 1e-3 * n1 * n2 * nd)
		return -1;   /* nearly parallel */
	cross3(s, e1, q);
	*b1 = dot3(s, p) / det;
	*b2 = dot3(d, q) / det;
	*t = dot3(e2, q) / det;
	double m = fmin(fmin(*b1, *b2), 1.0 - *b1 - *b2), eps = 1e-4;
	if (m > eps && *t > eps)
		return 1;
	if (m < -eps || *t < -eps)
		return 0;
	return -1;
}

static int oracle_box(const ray *r, const float lo[3], const float hi[3])
{
	double enter = 0, leave = r->ext;
	if (isnan(r->ext))
		return -1;
	for (int a = 0; a < 3; a++) {
		if (isnan(r->o[a]) || r->d[a] == 0 || !isfinite(r->inv[a]) || isnan(lo[a]) || isnan(hi[a]))
			return -1;
		double t0 = ((double)lo[a] - r->o[a]) * r->inv[a], t1 = ((double)hi[a] - r->o[a]) * r->inv[a];
		enter = fmax(enter, fmin(t0, t1));
		leave = fmin(leave, fmax(t0, t1));
	}
	double eps = 1e-4 * (1.0 + fabs(enter) + fabs(leave));
	if (enter < leave - eps)
		return 1;
	if (enter > leave + eps)
		return 0;
	return -1;
}

/* Checks one result against the oracle; returns the number of disagreements. */
static unsigned oracle_check(const uint8_t *bvh, uint32_t ptr, const ray *r, const tsharp *t, const uint32_t *got,
			     tally *ty)
{
	const uint8_t *n = bvh + (size_t)(ptr & ~7u) * 8;
	unsigned bad = 0;
	if ((ptr & 7) == 5) {
		for (int c = 0; c < 4; c++) {
			float lo[3], hi[3];
			uint32_t id;
			memcpy(lo, n + 16 + 24 * c, 12);
			memcpy(hi, n + 28 + 24 * c, 12);
			memcpy(&id, n + 4 * c, 4);
			int o = oracle_box(r, lo, hi);
			if (o < 0 || id == MISS)
				continue;
			bool found = false;
			for (int k = 0; k < 4; k++)
				found |= got[k] == id;
			ty->checked++;
			o ? ty->hits++ : ty->misses++;
			if (found != (bool)o)
				bad++;
		}
	} else if ((ptr & 7) == 0 && t->ij) {
		float v[3][3];
		memcpy(v, n, sizeof(v));
		double tt, b1, b2;
		int o = oracle_tri(v, r, &tt, &b1, &b2);
		if (o < 0)
			return 0;
		ty->checked++;
		o ? ty->hits++ : ty->misses++;
		bool hit = !isinf(flt(got[0]));
		if (hit != (bool)o)
			return 1;
		if (hit) {
			double den = flt(got[1]);
			if (fabs(flt(got[0]) / den - tt) > 1e-3 * (1 + tt) || fabs(flt(got[2]) / den - b1) > 1e-3 ||
			    fabs(flt(got[3]) / den - b2) > 1e-3)
				bad++;
		}
	}
	return bad;
}

/* ---- the scene --------------------------------------------------------------- */
typedef struct scene {
	uint8_t bvh[BVH_BYTES];
	uint32_t ptr[NRAYS];
	float rays[NRAYS][12];
	uint16_t halves[NRAYS][8];
	ray r32[NRAYS], r16[NRAYS];
} scene;

static float coord(void)
{
	return (float)((int)(rnd() % 129) - 64) / 16.0f;   /* exact in f16 too */
}

static void make_scene(scene *s)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < NBOX32 + NBOX16; i++) {
		bool f16 = i >= NBOX32;
		uint8_t *n = s->bvh + (f16 ? OFF_BOX16 + (i - NBOX32) * 64 : i * 128);
		for (int c = 0; c < 4; c++) {
			uint32_t id = rnd() % 11 == 0 ? MISS : (rnd() & ~7u) | (rnd() % 2 ? 5 : 0);
			memcpy(n + 4 * c, &id, 4);
			float lo[3], hi[3];
			for (int a = 0; a < 3; a++) {
				lo[a] = coord();
				hi[a] = lo[a] + (float)(rnd() % 49) / 16.0f;   /* sometimes flat */
			}
			if (!f16 && rnd() % 23 == 0)
				lo[0] = NAN;   /* Mesa's inactive box */
			for (int a = 0; a < 3; a++) {
				if (f16) {
					uint16_t h0 = to_half(lo[a]), h1 = to_half(hi[a]);
					memcpy(n + 16 + 12 * c + 2 * a, &h0, 2);
					memcpy(n + 16 + 12 * c + 6 + 2 * a, &h1, 2);
				} else {
					memcpy(n + 16 + 24 * c + 4 * a, &lo[a], 4);
					memcpy(n + 28 + 24 * c + 4 * a, &hi[a], 4);
				}
			}
		}
	}
	for (int i = 0; i < NTRI; i++) {
		uint8_t *n = s->bvh + OFF_TRI + i * 64;
		float v[9];
		for (int k = 0; k < 9; k++)
			v[k] = frand(-4, 4);
		memcpy(n, v, sizeof(v));
		uint32_t id = rnd();
		memcpy(n + 60, &id, 4);
	}
	memset(s->bvh + OFF_OTHER, 0x3f, 64);
	for (int i = 0; i < NRAYS; i++) {
		ray *r = &s->r32[i];
		uint32_t kind = rnd() % 16, ptr;
		if (kind < 6)
			ptr = (uint32_t)(rnd() % NBOX32) * 128 / 8 | 5;
		else if (kind < 9)
			ptr = (uint32_t)(OFF_BOX16 + (rnd() % NBOX16) * 64) / 8 | 4;
		else if (kind < 15)
			ptr = (uint32_t)(OFF_TRI + (rnd() % NTRI) * 64) / 8;
		else
			ptr = OFF_OTHER / 8 | (rnd() % 2 ? 6 : 7);
		s->ptr[i] = ptr;
		for (int a = 0; a < 3; a++)
			r->o[a] = frand(-6, 6);
		/* aim at a point of the node (a triangle's barycentric point, some
		 * on an edge or a vertex; a child box's corner region) or anywhere */
		float aim[3], plane[3] = { NAN, NAN, NAN };   /* a face of the aimed box */
		const uint8_t *n = s->bvh + (size_t)(ptr & ~7u) * 8;
		if ((ptr & 7) == 0 && rnd() % 4) {
			float v[3][3], b[3];
			memcpy(v, n, sizeof(v));
			b[0] = rnd() % 5 == 0 ? 0.0f : frand(0, 1);
			b[1] = rnd() % 5 == 0 ? 0.0f : frand(0, 1 - b[0]);
			b[2] = 1 - b[0] - b[1];
			for (int a = 0; a < 3; a++)
				aim[a] = b[0] * v[0][a] + b[1] * v[1][a] + b[2] * v[2][a];
		} else if ((ptr & 7) == 5 && rnd() % 4) {
			float lo[3], hi[3];
			int c = (int)(rnd() % 4);
			memcpy(lo, n + 16 + 24 * c, 12);
			memcpy(hi, n + 28 + 24 * c, 12);
			for (int a = 0; a < 3; a++) {
				aim[a] = isnan(lo[a]) ? 0.0f : lo[a] + frand(0, 1) * (hi[a] - lo[a]);
				plane[a] = rnd() % 2 ? lo[a] : hi[a];
			}
		} else if ((ptr & 7) == 4 && rnd() % 4) {
			int c = (int)(rnd() % 4);
			for (int a = 0; a < 3; a++) {
				uint16_t h0, h1;
				memcpy(&h0, n + 16 + 12 * c + 2 * a, 2);
				memcpy(&h1, n + 22 + 12 * c + 2 * a, 2);
				aim[a] = from_half(h0) + frand(0, 1) * (from_half(h1) - from_half(h0));
				plane[a] = from_half(rnd() % 2 ? h0 : h1);
			}
		} else {
			for (int a = 0; a < 3; a++)
				aim[a] = frand(-4, 4);
		}
		for (int a = 0; a < 3; a++) {
			r->d[a] = aim[a] - r->o[a];
			if (rnd() % 12 == 0) {
				r->d[a] = rnd() % 2 ? 0.0f : -0.0f;   /* axis-parallel ... */
				if (!isnan(plane[a]) && rnd() % 2)
					r->o[a] = plane[a];            /* ... in a face's plane */
			}
			r->inv[a] = 1.0f / r->d[a];
		}
		r->ext = rnd() % 8 == 0 ? INFINITY : frand(0, 12);
		if (rnd() % 97 == 0)
			r->o[rnd() % 3] = NAN;
		if (rnd() % 101 == 0)
			r->inv[rnd() % 3] = NAN;
		if (rnd() % 89 == 0)
			r->ext = NAN;
		float *f = s->rays[i];
		f[0] = r->ext;
		memcpy(f + 1, r->o, 12);
		memcpy(f + 4, r->d, 12);
		memcpy(f + 8, r->inv, 12);
		/* the f16 copy of the direction the a16 forms get */
		ray *h = &s->r16[i];
		*h = *r;
		for (int a = 0; a < 3; a++) {
			s->halves[i][a] = to_half(r->d[a]);
			s->halves[i][4 + a] = to_half(r->inv[a]);
			h->d[a] = from_half(s->halves[i][a]);
			h->inv[a] = from_half(s->halves[i][4 + a]);
		}
	}
}

static void put_tsharp(uint32_t w[4], uint64_t base, const tsharp *t)
{
	w[0] = (uint32_t)(base >> 8);
	w[1] = S_BVH_RSRC_WORD1_BASE_ADDRESS_HI(base >> 40) | S_BVH_RSRC_WORD1_BOX_GROW_VALUE(t->grow) |
	       S_BVH_RSRC_WORD1_BOX_SORT_EN(t->sort);
	w[2] = 0xffffffffu;   /* size - 1: the maximum, as RADV */
	w[3] = S_BVH_RSRC_WORD3_SIZE_HI(0x3ff) | S_BVH_RSRC_WORD3_TRIANGLE_RETURN_MODE(t->ij) |
	       S_BVH_RSRC_WORD3_TYPE(V_BVH_RSRC_WORD3_SQ_RSRC_BVH);
}

static void run_variant(const char *path, scene *s, bool functional, const tsharp *t)
{
	xs_device *dev;
	xs_module *mod;
	xs_device_desc dd = { .machine = XS_MACHINE_SERIES_X, .functional = functional, .threads = 1 };
	assert_int_equal(xs_device_create(&dd, &dev), XS_OK);
	assert_int_equal(xs_module_load_file(dev, path, &mod), XS_OK);
	const xs_kernel_info *k = xs_module_find_kernel(mod, "bvh_rays");
	assert_non_null(k);
	assert_true(k->num_args >= 7);
	uint64_t bvh, ptrs, rays, halves, out;
	assert_int_equal(xs_mem_alloc(dev, BVH_BYTES, 256, &bvh), XS_OK);
	assert_int_equal(xs_mem_alloc(dev, sizeof(s->ptr), 256, &ptrs), XS_OK);
	assert_int_equal(xs_mem_alloc(dev, sizeof(s->rays), 256, &rays), XS_OK);
	assert_int_equal(xs_mem_alloc(dev, sizeof(s->halves), 256, &halves), XS_OK);
	assert_int_equal(xs_mem_alloc(dev, NRAYS * 64, 256, &out), XS_OK);
	assert_int_equal(xs_mem_write(dev, bvh, s->bvh, BVH_BYTES), XS_OK);
	assert_int_equal(xs_mem_write(dev, ptrs, s->ptr, sizeof(s->ptr)), XS_OK);
	assert_int_equal(xs_mem_write(dev, rays, s->rays, sizeof(s->rays)), XS_OK);
	assert_int_equal(xs_mem_write(dev, halves, s->halves, sizeof(s->halves)), XS_OK);

	uint8_t ka[256] = { 0 };
	uint32_t desc[4], desc0[4];
	put_tsharp(desc, bvh, t);
	put_tsharp(desc0, 0, t);
	memcpy(ka + k->args[0].offset, desc, 16);
	memcpy(ka + k->args[1].offset, desc0, 16);
	memcpy(ka + k->args[2].offset, &bvh, 8);
	memcpy(ka + k->args[3].offset, &ptrs, 8);
	memcpy(ka + k->args[4].offset, &rays, 8);
	memcpy(ka + k->args[5].offset, &halves, 8);
	memcpy(ka + k->args[6].offset, &out, 8);
	xs_dispatch_desc d = { .kernel = k, .module = mod, .groups = { NRAYS / 64, 1, 1 }, .block = { 64, 1, 1 },
			       .kernargs = ka, .kernargs_size = k->kernarg_size };
	xs_dispatch_stats st;
	xs_status rc = xs_dispatch(dev, &d, &st);
	if (rc)
		print_message("%s\n", xs_last_error(dev));
	assert_int_equal(rc, XS_OK);
	uint32_t (*got)[4][4] = malloc(NRAYS * 64);
	assert_non_null(got);
	assert_int_equal(xs_mem_read(dev, out, got, NRAYS * 64), XS_OK);

	unsigned bad = 0, obad = 0, tri_hits = 0, box_hits = 0;
	tally ty = { 0 };
	for (int i = 0; i < NRAYS; i++) {
		for (int f = 0; f < 4; f++) {
			const ray *r = f < 2 ? &s->r32[i] : &s->r16[i];
			uint32_t want[4];
			ref_node(s->bvh, s->ptr[i], r, t, want);
			if (memcmp(want, got[i][f], 16) && bad++ < 8)
				print_message("ray %d form %d node 0x%x: got %08x %08x %08x %08x want %08x %08x %08x %08x\n", i,
					      f, s->ptr[i], got[i][f][0], got[i][f][1], got[i][f][2], got[i][f][3], want[0],
					      want[1], want[2], want[3]);
			if (f == 0) {
				if ((s->ptr[i] & 7) == 0 && !isinf(flt(got[i][f][0])))
					tri_hits++;
				if ((s->ptr[i] & 7) >= 4 && (s->ptr[i] & 7) <= 5)
					for (int c = 0; c < 4; c++)
						box_hits += got[i][f][c] != MISS;
				unsigned o = oracle_check(s->bvh, s->ptr[i], r, t, got[i][f], &ty);
				if (o && obad++ < 8)
					print_message("ray %d node 0x%x disagrees with the f64 oracle\n", i, s->ptr[i]);
			}
		}
	}
	print_message("%s %s sort=%d ij=%d grow=%u: %llu cycles, %u triangle hits, %u box children hit, "
		      "oracle %u cases (%u hit, %u miss)\n",
		      path, functional ? "functional" : "timing", t->sort, t->ij, t->grow,
		      (unsigned long long)st.cycles, tri_hits, box_hits, ty.checked, ty.hits, ty.misses);
	assert_int_equal(bad, 0);
	assert_int_equal(obad, 0);
	/* the data exercise both outcomes */
	assert_true(tri_hits > 300 && box_hits > 1000);
	assert_true(ty.hits > 500 && ty.misses > 500);
	free(got);
	xs_module_destroy(mod);
	xs_device_destroy(dev);
}

static void random_rays(void **state)
{
	(void)state;
	scene *s = malloc(sizeof(*s));
	assert_non_null(s);
	make_scene(s);
	const tsharp modes[2] = { { 0, true, true }, { 3, false, false } };
	for (int a = 1; a < g_argc; a++)
		for (int m = 0; m < 2; m++)
			for (int fn = 0; fn < 2; fn++)
				run_variant(g_argv[a], s, fn == 1, &modes[m]);
	free(s);
}

/* A node pointer past the BVH (ray 5: base + 1 GiB, unmapped) removes the
 * device with a VM fault report that names the address and the instruction. */
static void bad_node_removes_device(void **state)
{
	(void)state;
	xs_device *dev;
	xs_module *mod;
	xs_device_desc dd = { .machine = XS_MACHINE_SERIES_S };
	assert_int_equal(xs_device_create(&dd, &dev), XS_OK);
	assert_int_equal(xs_module_load_file(dev, g_argv[1], &mod), XS_OK);
	const xs_kernel_info *k = xs_module_find_kernel(mod, "bvh_rays");
	assert_non_null(k);
	uint64_t bvh, ptrs, rays, halves, out;
	uint32_t ptr[64];
	for (int i = 0; i < 64; i++)
		ptr[i] = 5;   /* a box32 node at the base */
	ptr[5] = (1u << 30) / 8 | 5;
	assert_int_equal(xs_mem_alloc(dev, 4096, 256, &bvh), XS_OK);
	assert_int_equal(xs_mem_alloc(dev, sizeof(ptr), 256, &ptrs), XS_OK);
	assert_int_equal(xs_mem_alloc(dev, 64 * 48, 256, &rays), XS_OK);
	assert_int_equal(xs_mem_alloc(dev, 64 * 16, 256, &halves), XS_OK);
	assert_int_equal(xs_mem_alloc(dev, 64 * 64, 256, &out), XS_OK);
	assert_int_equal(xs_mem_write(dev, ptrs, ptr, sizeof(ptr)), XS_OK);
	uint8_t ka[256] = { 0 };
	uint32_t desc[4], desc0[4];
	const tsharp t = { 0, true, true };
	put_tsharp(desc, bvh, &t);
	put_tsharp(desc0, 0, &t);
	memcpy(ka + k->args[0].offset, desc, 16);
	memcpy(ka + k->args[1].offset, desc0, 16);
	memcpy(ka + k->args[2].offset, &bvh, 8);
	memcpy(ka + k->args[3].offset, &ptrs, 8);
	memcpy(ka + k->args[4].offset, &rays, 8);
	memcpy(ka + k->args[5].offset, &halves, 8);
	memcpy(ka + k->args[6].offset, &out, 8);
	xs_dispatch_desc d = { .kernel = k, .module = mod, .groups = { 1, 1, 1 }, .block = { 64, 1, 1 },
			       .kernargs = ka, .kernargs_size = k->kernarg_size };
	assert_int_equal(xs_dispatch(dev, &d, NULL), XS_E_DEVICE_REMOVED);
	const char *m = xs_last_error(dev);
	print_message("%s\n", m);
	char want[64];
	snprintf(want, sizeof(want), "VM fault at address 0x%llx", (unsigned long long)(bvh + (1u << 30)));
	assert_non_null(strstr(m, want));
	assert_non_null(strstr(m, "image_bvh_intersect_ray"));
	xs_module_destroy(mod);
	xs_device_destroy(dev);
}

int main(int argc, char **argv)
{
	g_argc = argc;
	g_argv = argv;
	const struct CMUnitTest tests[] = { cmocka_unit_test(random_rays), cmocka_unit_test(bad_node_removes_device) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
