/*
 * A CPU traversal of xs12's acceleration structures written from the
 * documented layout (docs/hardware.md section 11), not from the builder's
 * code, and the brute-force intersection it must agree with. Shared by
 * tests/bvh and the D3D12 tests; header-only so each links it alone.
 */
#ifndef BVH_ORACLE_H
#define BVH_ORACLE_H
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef struct oracle_hit {
	double t;
	uint32_t prim, geom, inst; /* triangle_id, geometry index, instance_id (~0u: none) */
} oracle_hit;

static inline uint32_t oracle_u32(const uint8_t *p, size_t off)
{
	uint32_t v;
	memcpy(&v, p + off, 4);
	return v;
}

static inline uint64_t oracle_u64(const uint8_t *p, size_t off)
{
	uint64_t v;
	memcpy(&v, p + off, 8);
	return v;
}

static inline float oracle_f32(const uint8_t *p, size_t off)
{
	float v;
	memcpy(&v, p + off, 4);
	return v;
}

/* Moeller-Trumbore in double, both sides; t in (0, tmax). */
static inline bool oracle_tri(const double o[3], const double d[3], const double v[3][3], double tmax, double *t)
{
	double e1[3], e2[3], p[3], s[3], q[3];
	for (int k = 0; k < 3; k++) {
		e1[k] = v[1][k] - v[0][k];
		e2[k] = v[2][k] - v[0][k];
	}
	p[0] = d[1] * e2[2] - d[2] * e2[1];
	p[1] = d[2] * e2[0] - d[0] * e2[2];
	p[2] = d[0] * e2[1] - d[1] * e2[0];
	double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
	if (fabs(det) < 1e-30)
		return false;
	double inv = 1 / det;
	for (int k = 0; k < 3; k++)
		s[k] = o[k] - v[0][k];
	double u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) * inv;
	if (u < 0 || u > 1)
		return false;
	q[0] = s[1] * e1[2] - s[2] * e1[1];
	q[1] = s[2] * e1[0] - s[0] * e1[2];
	q[2] = s[0] * e1[1] - s[1] * e1[0];
	double w = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) * inv;
	if (w < 0 || u + w > 1)
		return false;
	double tt = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
	if (!(tt > 0 && tt < tmax))
		return false;
	*t = tt;
	return true;
}

/* Slab test, a little generous (the triangle test rounds differently):
 * a box it misses holds nothing the ray hits. NaN boxes miss. */
static inline bool oracle_box(const double o[3], const double d[3], const float lo[3], const float hi[3], double tmax)
{
	double t0 = 0, t1 = tmax;
	for (int k = 0; k < 3; k++) {
		if (!(lo[k] <= hi[k]))
			return false;
		double pad = 1e-6 * (fabs(lo[k]) + fabs(hi[k]) + 1e-3);
		double a = lo[k] - pad, b = hi[k] + pad;
		if (d[k] == 0) {
			if (o[k] < a || o[k] > b)
				return false;
			continue;
		}
		double ta = (a - o[k]) / d[k], tb = (b - o[k]) / d[k];
		if (ta > tb) {
			double x = ta;
			ta = tb;
			tb = x;
		}
		t0 = ta > t0 ? ta : t0;
		t1 = tb < t1 ? tb : t1;
		if (t0 > t1)
			return false;
	}
	return true;
}

/* Finds the host bytes of GPU address va (a TLAS's instances point at BLASes). */
typedef const uint8_t *(*oracle_map_fn)(void *user, uint64_t va);

#define ORACLE_STACK 256

/* Closest hit in the structure whose header is at hdr; hit->t stays tmax
 * when nothing is hit. Returns false on a malformed pointer. Pointers are
 * relative to the BVH base, the root node's place: the header's root
 * offset on; the root is 0 | 5 (box32). */
static bool oracle_trace(const uint8_t *hdr, const double o[3], const double d[3], double tmax, oracle_hit *hit,
			 oracle_map_fn map, void *user, uint32_t inst)
{
	const uint8_t *base = hdr + oracle_u32(hdr, 0);
	uint32_t stack[ORACLE_STACK];
	int sp = 0;
	stack[sp++] = 5;
	while (sp) {
		uint32_t ptr = stack[--sp];
		const uint8_t *n = base + (size_t)(ptr & ~7u) * 8;
		switch (ptr & 7u) {
		case 5: /* box32: children[4], then 4 x (min xyz, max xyz) */
			for (int c = 0; c < 4; c++) {
				uint32_t ch = oracle_u32(n, 4 * c);
				float lo[3], hi[3];
				for (int k = 0; k < 3; k++) {
					lo[k] = oracle_f32(n, 16 + 24 * c + 4 * k);
					hi[k] = oracle_f32(n, 16 + 24 * c + 12 + 4 * k);
				}
				if (ch == 0xFFFFFFFFu || !oracle_box(o, d, lo, hi, hit->t))
					continue;
				if (sp == ORACLE_STACK)
					return false;
				stack[sp++] = ch;
			}
			break;
		case 0: { /* triangle: 3 x xyz, ..., triangle_id @48, geometry_id_and_flags @52 */
			double v[3][3], t;
			for (int i = 0; i < 9; i++)
				v[i / 3][i % 3] = oracle_f32(n, 4 * i);
			if (oracle_tri(o, d, v, hit->t, &t)) {
				hit->t = t;
				hit->prim = oracle_u32(n, 48);
				hit->geom = oracle_u32(n, 52) & 0x0FFFFFFFu;
				hit->inst = inst;
			}
			break;
		}
		case 6: { /* instance: bvh_ptr @0 (the BLAS's root address >> 3), wto @16, instance_id @64,
			   * bvh_offset @68 (the BLAS header's root offset) */
			uint64_t root = (oracle_u64(n, 0) & ~7ull) << 3;
			uint64_t blas_va = root - oracle_u32(n, 68);
			const uint8_t *blas = map ? map(user, blas_va) : NULL;
			if (!blas || oracle_u32(blas, 0) != oracle_u32(n, 68))
				return false;
			double oo[3], dd[3];
			for (int r = 0; r < 3; r++) {
				double m[4];
				for (int c = 0; c < 4; c++)
					m[c] = oracle_f32(n, 16 + 4 * (4 * r + c));
				oo[r] = m[0] * o[0] + m[1] * o[1] + m[2] * o[2] + m[3];
				dd[r] = m[0] * d[0] + m[1] * d[1] + m[2] * d[2];
			}
			if (!oracle_trace(blas, oo, dd, tmax, hit, NULL, NULL, oracle_u32(n, 64)))
				return false;
			break;
		}
		default:
			return false;
		}
	}
	return true;
}

#endif
