/*
 * The ray intersection instructions of the texture unit's ray accelerator:
 * image_bvh_intersect_ray (MIMG 0xE6, 32-bit node pointer) and
 * image_bvh64_intersect_ray (0xE7, 64-bit node pointer). Formats, sources
 * and the modelling choices are in docs/hardware.md section 10; in short:
 *
 * Address VGPRs (vaddr, contiguous or NSA), per lane:
 *   node_ptr (1 dword; bvh64: 2, low first), ray_extent, ray_origin.xyz,
 *   then ray_dir.xyz and ray_inv_dir.xyz as 6 floats, or with a16 as 3
 *   dwords of f16 halves: {dir.x, dir.y}, {dir.z, inv.x}, {inv.y, inv.z}
 *   (low half first; the packing clang-15 emits for the _h builtins).
 * T# (srsrc, 4 SGPRs): [39:0] base >> 8, [62:55] box_grow_ulp,
 *   [63] box_sort_enable, [105:64] size - 1, [120] triangle_return_mode,
 *   [127:124] type (8 = BVH).
 * Node: type = node_ptr & 7; address = base + (node_ptr & ~7) * 8.
 *   5 box32 (128 B): children[4], then 4 x {min.xyz, max.xyz} f32
 *   4 box16 (64 B):  children[4], then 4 x {min.xyz, max.xyz} f16
 *   0 triangle (64 B): v0, v1, v2 (xyz f32) at 0, 12, 24; dword 0x3C = id
 *   other types: no memory read, all four results 0xFFFFFFFF [model]
 * vdata (4 VGPRs): box nodes the four child pointers (misses 0xFFFFFFFF,
 *   sorted by entry distance when box_sort_enable); triangle nodes
 *   {t_num, t_denom, i_num, j_num} (IJ mode) or {t_num, t_denom, id, hit}.
 *
 * Node reads go through GPU memory like any vector load: an unmapped node
 * stops the wave with XS_FAULT_VM at the first faulting lane's address,
 * before any lane's result is written, and in timing mode the lines are
 * recorded for the caches (ctx->mtrace), the ray unit's work counted
 * (ctx->ray_box_tests, ctx->ray_tri_tests) and the nodes' bytes for the
 * counters (ctx->ray_node_bytes).
 */
#include <float.h>
#include <stdio.h>

#include "isa/xs_isa_priv.h"

#define BVH_INVALID 0xffffffffu

enum { NODE_TRI = 0, NODE_BOX16 = 4, NODE_BOX32 = 5 };

typedef struct bvh_desc {
	uint64_t base;       /* bytes: T#[39:0] << 8 */
	float grow;          /* 1 + box_grow_ulp * 2^-24 (T#[62:55]) */
	bool sort;           /* T#[63] */
	bool ij;             /* T#[120]: triangle results are barycentric numerators */
} bvh_desc;

typedef struct bvh_ray {
	float extent, org[3], dir[3], inv[3];
} bvh_ray;

static void read_desc(const xs_wave *w, unsigned s, bvh_desc *d, unsigned *type)
{
	uint32_t d0 = w->s[s & 127], d1 = w->s[(s + 1) & 127], d3 = w->s[(s + 3) & 127];
	d->base = (((uint64_t)(d1 & 0xff) << 32) | d0) << 8;
	/* gpurt's emulation grows the interval by box_grow_ulp units of 2^-24,
	 * computed in f32 (exactly 1 when the field is 0, as RADV sets it) */
	d->grow = 1.0f + (float)((d1 >> 23) & 0xff) * 0x1p-24f;
	d->sort = (d1 >> 31) & 1;
	d->ij = (d3 >> 24) & 1;
	*type = d3 >> 28;
}

static inline uint32_t vaddr(const xs_wave *w, const xs_inst *in, unsigned i, unsigned lane)
{
	return w->v[(xs_isa_mimg_vaddr(in, i) - XS_SRC_VGPR) & 0xff][lane];
}

/* The lane's ray from address VGPRs first.. (after the node pointer). */
static void read_ray(const xs_wave *w, const xs_inst *in, unsigned first, bool a16, unsigned lane,
		     bvh_ray *r)
{
	r->extent = xs_u2f(vaddr(w, in, first, lane));
	for (unsigned k = 0; k < 3; k++)
		r->org[k] = xs_u2f(vaddr(w, in, first + 1 + k, lane));
	if (a16) {
		uint16_t h[6];
		for (unsigned k = 0; k < 3; k++) {
			uint32_t v = vaddr(w, in, first + 4 + k, lane);
			h[2 * k] = (uint16_t)v;
			h[2 * k + 1] = (uint16_t)(v >> 16);
		}
		for (unsigned k = 0; k < 3; k++) {
			r->dir[k] = xs_f16_to_f32(h[k]);
			r->inv[k] = xs_f16_to_f32(h[3 + k]);
		}
	} else {
		for (unsigned k = 0; k < 3; k++) {
			r->dir[k] = xs_u2f(vaddr(w, in, first + 4 + k, lane));
			r->inv[k] = xs_u2f(vaddr(w, in, first + 7 + k, lane));
		}
	}
}

/* ---- box nodes ------------------------------------------------------------- */

/* Slab test of one child box. Returns whether the ray's [0, extent] meets
 * it; *entry = the clamped entry distance (the sort key). inv_dir is
 * clamped to +-FLT_MAX first (as Mesa's software path does) so that a zero
 * direction component gives a huge finite slope instead of 0 * inf = NaN
 * for an origin on the slab plane; any NaN left (in the origin, the box or
 * inv_dir) makes the child miss. */
static bool box_hit(const bvh_ray *r, const float inv[3], const float lo[3], const float hi[3], float grow,
		    float *entry)
{
	float tmin = -INFINITY, tmax = INFINITY;
	for (unsigned k = 0; k < 3; k++) {
		float a = (lo[k] - r->org[k]) * inv[k];
		float b = (hi[k] - r->org[k]) * inv[k];
		if (isnan(a) || isnan(b))
			return false;
		float near = a < b ? a : b, far = a < b ? b : a;
		if (near > tmin)
			tmin = near;
		if (far < tmax)
			tmax = far;
	}
	if (tmin < 0.0f)
		tmin = 0.0f;
	if (!(tmax <= r->extent))
		tmax = r->extent;   /* (a NaN extent stays NaN: every child misses) */
	*entry = tmin;
	return tmin <= tmax * grow;
}

/* Orders slots a < b: a valid child with a strictly smaller entry distance
 * first, and invalid slots after valid ones. The five exchanges of a
 * 4-input sorting network, in the order of gpurt's IntersectNodeBvh4, so
 * that equal distances come out as that network leaves them. */
static void order_pair(uint32_t c[4], float t[4], unsigned a, unsigned b)
{
	if ((c[b] != BVH_INVALID && t[b] < t[a]) || c[a] == BVH_INVALID) {
		uint32_t cc = c[a];
		float tt = t[a];
		c[a] = c[b];
		t[a] = t[b];
		c[b] = cc;
		t[b] = tt;
	}
}

static void box_node(const uint8_t *node, bool f16, const bvh_ray *r, const bvh_desc *d, uint32_t out[4])
{
	float inv[3], t[4];
	for (unsigned k = 0; k < 3; k++) {
		inv[k] = r->inv[k];
		if (inv[k] > FLT_MAX)
			inv[k] = FLT_MAX;
		else if (inv[k] < -FLT_MAX)
			inv[k] = -FLT_MAX;
	}
	for (unsigned i = 0; i < 4; i++) {
		float lo[3], hi[3];
		uint32_t child;
		memcpy(&child, node + 4 * i, 4);
		if (f16) {
			/* 12 bytes per child at 16: min.xyz, max.xyz halves */
			for (unsigned k = 0; k < 3; k++) {
				uint16_t a, b;
				memcpy(&a, node + 16 + 12 * i + 2 * k, 2);
				memcpy(&b, node + 16 + 12 * i + 6 + 2 * k, 2);
				lo[k] = xs_f16_to_f32(a);
				hi[k] = xs_f16_to_f32(b);
			}
		} else {
			/* 24 bytes per child at 16: min.xyz, max.xyz floats */
			memcpy(lo, node + 16 + 24 * i, 12);
			memcpy(hi, node + 16 + 24 * i + 12, 12);
		}
		t[i] = INFINITY;
		out[i] = box_hit(r, inv, lo, hi, d->grow, &t[i]) ? child : BVH_INVALID;
	}
	if (d->sort) {
		order_pair(out, t, 0, 2);
		order_pair(out, t, 1, 3);
		order_pair(out, t, 0, 1);
		order_pair(out, t, 2, 3);
		order_pair(out, t, 1, 2);
	}
}

/* ---- triangle nodes ---------------------------------------------------------- */

/* Watertight ray/triangle test (Woop, Benthin, Wald, "Watertight
 * Ray/Triangle Intersection", JCGT 2(1) 2013), in f32 with each operation
 * rounded once, as Mesa's software fallback (radv_nir_rt_common.c) does,
 * including its f64 recomputation of an edge function that comes out 0.
 * Results: U, V, W are the scaled barycentrics of vertices 0, 1, 2;
 * t_denom = U + V + W, t_num = U*Az + V*Bz + W*Cz, so t = t_num / t_denom,
 * i = V / t_denom, j = W / t_denom. The distance is not compared with
 * ray_extent (the shader does, with its current closest hit). */
static bool tri_hit(const float v[3][3], const bvh_ray *r, float res[4])
{
	float ax = fabsf(r->dir[0]), ay = fabsf(r->dir[1]), az = fabsf(r->dir[2]);
	unsigned kz = ax >= ay ? (ax >= az ? 0 : 2) : (ay >= az ? 1 : 2);
	unsigned kx = (kz + 1) % 3, ky = (kx + 1) % 3;
	if (r->dir[kz] < 0.0f) {   /* keep the winding: swap x and y */
		unsigned s = kx;
		kx = ky;
		ky = s;
	}
	float sz = 1.0f / r->dir[kz];
	float sx = r->dir[kx] * sz, sy = r->dir[ky] * sz;
	float p[3][3], px[3], py[3];
	for (unsigned i = 0; i < 3; i++) {
		for (unsigned k = 0; k < 3; k++)
			p[i][k] = v[i][k] - r->org[k];
		px[i] = p[i][kx] - sx * p[i][kz];
		py[i] = p[i][ky] - sy * p[i][kz];
	}
	/* edge functions: U for the edge opposite vertex 0 (B, C), ... */
	float u = px[2] * py[1] - py[2] * px[1];
	float vv = px[0] * py[2] - py[0] * px[2];
	float w = px[1] * py[0] - py[1] * px[0];
	if (u == 0.0f || vv == 0.0f || w == 0.0f) {
		u = (float)((double)px[2] * py[1] - (double)py[2] * px[1]);
		vv = (float)((double)px[0] * py[2] - (double)py[0] * px[2]);
		w = (float)((double)px[1] * py[0] - (double)py[1] * px[0]);
	}
	if ((u < 0.0f || vv < 0.0f || w < 0.0f) && (u > 0.0f || vv > 0.0f || w > 0.0f))
		return false;   /* the projected origin is outside an edge */
	float det = u + vv + w;
	if (det == 0.0f || isnan(det))
		return false;   /* edge-on, degenerate, or a NaN/zero ray */
	float t = u * (sz * p[0][kz]) + vv * (sz * p[1][kz]) + w * (sz * p[2][kz]);
	if (isnan(t) || (det > 0.0f ? t < 0.0f : t > 0.0f))
		return false;   /* behind the origin */
	res[0] = t;
	res[1] = det;
	res[2] = vv;
	res[3] = w;
	return true;
}

static void tri_node(const uint8_t *node, const bvh_ray *r, const bvh_desc *d, uint32_t out[4])
{
	float v[3][3], res[4] = { INFINITY, 1.0f, 0.0f, 0.0f };   /* a miss: t = +inf / 1 */
	memcpy(v, node, sizeof(v));
	bool hit = tri_hit(v, r, res);
	out[0] = xs_f2u(res[0]);
	out[1] = xs_f2u(res[1]);
	if (d->ij) {
		out[2] = xs_f2u(res[2]);
		out[3] = xs_f2u(res[3]);
	} else {
		/* [model] the id mode: the node's id dword (0x3C) and hit status */
		memcpy(&out[2], node + 0x3c, 4);
		out[3] = hit;
	}
}

/* ---- the instruction --------------------------------------------------------- */

static int bvh_fault(xs_exec *x, xs_wave *w, const xs_inst *in, xs_fault_kind k, uint64_t addr,
		     const char *what, unsigned v)
{
	char d[64];
	snprintf(d, sizeof(d), what, v);
	return xs_exec_fault(x, w, in, k, addr, d);
}

static int bvh_intersect(xs_exec *x, xs_wave *w, const xs_inst *in, bool is64)
{
	if (XS_MIMG_DMASK(in->ext) != 0xf)
		return bvh_fault(x, w, in, XS_FAULT_ILLEGAL, 0, "dmask 0x%x (must be 0xf)", XS_MIMG_DMASK(in->ext));
	bvh_desc d;
	unsigned type;
	read_desc(w, in->src[1], &d, &type);
	if (type != 8)
		return bvh_fault(x, w, in, XS_FAULT_ILLEGAL, 0, "resource type %u (a BVH T# has 8)", type);
	bool a16 = (in->ext & XS_MIMG_A16) != 0;
	xs_isa_mtrace *mt = x->ctx->mtrace;
	uint64_t exec = xs_wave_exec(w);
	uint32_t res[4][XS_MAX_LANES];
	uint32_t boxes = 0, tris = 0, node_bytes = 0;
	for (unsigned l = 0; l < w->lanes; l++) {
		if (!((exec >> l) & 1))
			continue;
		uint64_t ptr = vaddr(w, in, 0, l);
		if (is64)
			ptr |= (uint64_t)vaddr(w, in, 1, l) << 32;
		unsigned nt = (unsigned)(ptr & 7);
		uint32_t out[4] = { BVH_INVALID, BVH_INVALID, BVH_INVALID, BVH_INVALID };
		unsigned bytes = nt == NODE_BOX32 ? 128 : (nt == NODE_BOX16 || nt == NODE_TRI) ? 64 : 0;
		if (bytes) {
			uint64_t va = d.base + ((ptr & ~7ull) << 3);
			uint8_t node[128];
			uint64_t bad = va;
			if (mt)
				xs_isa_mtrace_add(mt, va, bytes);
			if (!xs_gmem_read_fast(x->vm, va, node, bytes, &bad))
				return bvh_fault(x, w, in, XS_FAULT_VM, bad, "lane %u: BVH node", l);
			bvh_ray r;
			read_ray(w, in, is64 ? 2 : 1, a16, l, &r);
			node_bytes += bytes;
			if (nt == NODE_TRI) {
				tri_node(node, &r, &d, out);
				tris++;
			} else {
				box_node(node, nt == NODE_BOX16, &r, &d, out);
				boxes += 4;
			}
		}
		for (unsigned k = 0; k < 4; k++)
			res[k][l] = out[k];
	}
	if (mt) {
		x->ctx->ray_box_tests += boxes;
		x->ctx->ray_tri_tests += tris;
		x->ctx->ray_node_bytes += node_bytes;
	}
	for (unsigned k = 0; k < 4; k++)
		xs_vstore_rows(xs_vrow(w, (uint16_t)(in->dst + k)), res[k], exec, w->lanes);
	return 0;
}

XS_EXEC(image_bvh_intersect_ray)
{
	return bvh_intersect(x, w, in, false);
}

XS_EXEC(image_bvh64_intersect_ray)
{
	return bvh_intersect(x, w, in, true);
}

void xs_exec_register_bvh(void)
{
	XS_REG(image_bvh_intersect_ray);
	XS_REG(image_bvh64_intersect_ray);
}
