/* Shared by the files of src/bvh: the 4-wide tree before it is laid out. */
#ifndef XS_BVH_PRIV_H
#define XS_BVH_PRIV_H
#include "bvh/xs_bvh.h"

/* A child: >= 0 an internal node's index, < 0 leaf -(primitive + 1). */
typedef struct xs_bvh_tnode {
	xs_bvh_box box[4];
	int32_t child[4];
	uint32_t n;
} xs_bvh_tnode;

typedef struct xs_bvh_tree {
	xs_bvh_tnode *node;       /* node[0] is the root */
	uint32_t nnodes, depth;
	xs_bvh_box bounds;        /* of every primitive (lo > hi when there is none) */
} xs_bvh_tree;

/* Binned SAH over primitive boxes (n may be 0: a root with no children). */
xs_status xs_bvh_tree_build(const xs_bvh_box *boxes, uint32_t n, xs_bvh_tree *t, xs_err *e);
void xs_bvh_tree_free(xs_bvh_tree *t);

static inline void xs_bvh_box_empty(xs_bvh_box *b)
{
	for (int k = 0; k < 3; k++) {
		b->lo[k] = __builtin_inff();
		b->hi[k] = -__builtin_inff();
	}
}

static inline void xs_bvh_box_grow(xs_bvh_box *b, const xs_bvh_box *o)
{
	for (int k = 0; k < 3; k++) {
		b->lo[k] = o->lo[k] < b->lo[k] ? o->lo[k] : b->lo[k];
		b->hi[k] = o->hi[k] > b->hi[k] ? o->hi[k] : b->hi[k];
	}
}

static inline double xs_bvh_box_area(const xs_bvh_box *b)
{
	double d[3];
	for (int k = 0; k < 3; k++) {
		d[k] = (double)b->hi[k] - b->lo[k];
		if (!(d[k] > 0))
			d[k] = 0;
	}
	/* an infinite extent times a flat one is NaN: such a box is as large
	 * as any (the builder compares areas, and a NaN compares false) */
	double a = 2 * (d[0] * d[1] + d[1] * d[2] + d[2] * d[0]);
	return a == a ? a : __builtin_inf();
}

#endif
