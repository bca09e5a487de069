/*
 * The tree: top-down binned SAH (Wald, "On fast construction of SAH-based
 * bounding volume hierarchies", 2007), 4-wide the direct way: a node's
 * primitive range is split in two, then its widest part (by surface area)
 * that holds more than one primitive again, until it has 4 parts or only
 * single primitives. Each part of one primitive is a leaf (one triangle
 * or instance per leaf node, as RADV lays them out), any other a child
 * node. So every node has min(4, primitives) children, which bounds the
 * node count (xs_bvh_max_box_nodes). Work is an explicit stack, not
 * recursion: an unbalanced input cannot exhaust the host's stack.
 */
#include "bvh/xs_bvh_priv.h"

#include <stdlib.h>
#include <string.h>

#define XS_BVH_BINS 32

typedef struct range {
	uint32_t b, e;            /* indices into the permutation */
	xs_bvh_box box;           /* of its primitives */
} range;

/* The primitives as the build reorders them: partitioned in place, so
 * that binning a range reads it in order (not through an index). */
typedef struct ref {
	xs_bvh_box box;
	float cen[3];
	uint32_t id;
} ref;

typedef struct builder {
	ref *r;
} builder;

static xs_bvh_box range_box(const builder *B, uint32_t b, uint32_t e)
{
	xs_bvh_box r;
	xs_bvh_box_empty(&r);
	for (uint32_t i = b; i < e; i++)
		xs_bvh_box_grow(&r, &B->r[i].box);
	return r;
}

/* The bin of a centroid d past the range's lowest: clamped as a float
 * first, so that no value (not even a NaN) is cast out of int's range. */
static inline int bin_of(float d, float scale, int nb)
{
	float f = d * scale;
	return f > 0 ? (f < (float)nb ? (int)f : nb - 1) : 0;
}

/* Splits [r.b, r.e) (two or more primitives) into two non-empty parts at
 * *mid: the binned SAH plane of the best axis, or the middle of the order
 * when every centroid is the same (no plane separates them). */
static uint32_t split(builder *B, const range *r)
{
	uint32_t count = r->e - r->b;
	if (count == 2)
		return r->b + 1; /* one way to split */
	/* as many bins as primitives, up to 32: small ranges (most splits)
	 * sweep few planes */
	const int nb = (int)XS_MIN(count, (uint32_t)XS_BVH_BINS);
	float clo[3], chi[3];
	for (int k = 0; k < 3; k++) {
		clo[k] = __builtin_inff();
		chi[k] = -__builtin_inff();
	}
	for (uint32_t i = r->b; i < r->e; i++)
		for (int k = 0; k < 3; k++) {
			float c = B->r[i].cen[k];
			clo[k] = c < clo[k] ? c : clo[k];
			chi[k] = c > chi[k] ? c : chi[k];
		}
	double best = __builtin_inf();
	int best_axis = -1, best_plane = 0;
	for (int k = 0; k < 3; k++) {
		float ext = chi[k] - clo[k];
		if (!(ext > 0))
			continue;
		uint32_t cnt[XS_BVH_BINS] = { 0 };
		xs_bvh_box bb[XS_BVH_BINS];
		for (int j = 0; j < nb; j++)
			xs_bvh_box_empty(&bb[j]);
		float scale = nb / ext;
		for (uint32_t i = r->b; i < r->e; i++) {
			const ref *p = &B->r[i];
			int j = bin_of(p->cen[k] - clo[k], scale, nb);
			cnt[j]++;
			xs_bvh_box_grow(&bb[j], &p->box);
		}
		/* right-to-left areas, then the sweep from the left */
		double right_cost[XS_BVH_BINS];
		xs_bvh_box acc;
		xs_bvh_box_empty(&acc);
		uint32_t n = 0;
		for (int j = nb - 1; j > 0; j--) {
			xs_bvh_box_grow(&acc, &bb[j]);
			n += cnt[j];
			right_cost[j] = n * xs_bvh_box_area(&acc);
		}
		xs_bvh_box_empty(&acc);
		n = 0;
		for (int j = 0; j < nb - 1; j++) {
			xs_bvh_box_grow(&acc, &bb[j]);
			n += cnt[j];
			uint32_t nr = (r->e - r->b) - n;
			if (!n || !nr)
				continue;
			double c = n * xs_bvh_box_area(&acc) + right_cost[j + 1];
			if (c < best) {
				best = c;
				best_axis = k;
				best_plane = j;
			}
		}
	}
	if (best_axis < 0)
		return r->b + (r->e - r->b) / 2;
	float ext = chi[best_axis] - clo[best_axis], scale = nb / ext;
	uint32_t lo = r->b, hi = r->e;
	while (lo < hi) {
		int j = bin_of(B->r[lo].cen[best_axis] - clo[best_axis], scale, nb);
		if (j <= best_plane) {
			lo++;
		} else {
			ref x = B->r[lo];
			B->r[lo] = B->r[--hi];
			B->r[hi] = x;
		}
	}
	/* the binning saw both sides non-empty; guard the float edge anyway */
	if (lo == r->b || lo == r->e)
		return r->b + (r->e - r->b) / 2;
	return lo;
}

typedef struct work {
	range r;
	uint32_t node, depth;
} work;

xs_status xs_bvh_tree_build(const xs_bvh_box *boxes, uint32_t n, xs_bvh_tree *t, xs_err *e)
{
	memset(t, 0, sizeof(*t));
	uint32_t cap = (uint32_t)xs_bvh_max_box_nodes(n);
	builder B = { xs_malloc((size_t)XS_MAX(n, 1u) * sizeof(*B.r)) };
	work *stack = xs_malloc((size_t)cap * sizeof(*stack));
	t->node = xs_calloc(cap, sizeof(*t->node));
	if (!B.r || !stack || !t->node) {
		free(B.r);
		free(stack);
		xs_bvh_tree_free(t);
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "acceleration structure build: no host memory for %u primitives", n);
	}
	for (uint32_t i = 0; i < n; i++) {
		B.r[i].box = boxes[i];
		B.r[i].id = i;
		for (int k = 0; k < 3; k++)
			B.r[i].cen[k] = 0.5f * boxes[i].lo[k] + 0.5f * boxes[i].hi[k];
	}
	t->bounds = range_box(&B, 0, n);
	t->nnodes = 1;
	uint32_t sp = 0;
	stack[sp++] = (work){ { 0, n, t->bounds }, 0, 1 };
	while (sp) {
		work w = stack[--sp];
		t->depth = XS_MAX(t->depth, w.depth);
		range part[4] = { w.r };
		uint32_t np = w.r.e > w.r.b ? 1 : 0;
		while (np && np < 4) {
			/* The widest part of two or more primitives; one is always
			 * picked, whatever the areas compare to: a part left whole
			 * became a node with itself as its only child, again and
			 * again, past the node bound (a fuzzed TLAS whose boxes had
			 * NaN areas, fuzz-accel, 2026-12-07). */
			int pick = -1;
			double area = 0;
			for (uint32_t i = 0; i < np; i++) {
				if (part[i].e - part[i].b < 2)
					continue;
				double a = xs_bvh_box_area(&part[i].box);
				if (pick < 0 || a > area) {
					area = a;
					pick = (int)i;
				}
			}
			if (pick < 0)
				break;
			range r = part[pick];
			uint32_t mid = split(&B, &r);
			part[pick] = (range){ r.b, mid, range_box(&B, r.b, mid) };
			part[np++] = (range){ mid, r.e, range_box(&B, mid, r.e) };
		}
		xs_bvh_tnode *nd = &t->node[w.node];
		nd->n = np;
		for (uint32_t i = 0; i < np; i++) {
			nd->box[i] = part[i].box;
			if (part[i].e - part[i].b == 1) {
				nd->child[i] = -(int32_t)B.r[part[i].b].id - 1;
				continue;
			}
			uint32_t c = t->nnodes++; /* within cap: every node has min(4, prims) children */
			nd->child[i] = (int32_t)c;
			stack[sp++] = (work){ part[i], c, w.depth + 1 };
		}
	}
	free(B.r);
	free(stack);
	return XS_OK;
}

void xs_bvh_tree_free(xs_bvh_tree *t)
{
	free(t->node);
	t->node = NULL;
}

uint64_t xs_bvh_max_box_nodes(uint64_t nprims)
{
	return (2 * nprims + 1) / 3 + 1;
}
