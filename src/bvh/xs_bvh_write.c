/*
 * The layout (docs/hardware.md section 11): the header, the box32 nodes in
 * the tree's order (the root first, at XS_BVH_HEADER_BYTES), then the leaf
 * nodes in the order the box nodes reach them, so that a subtree's leaves
 * lie together. Unused child slots are XS_BVH_INVALID with NaN boxes, which
 * a box test misses.
 */
#include "bvh/xs_bvh_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PRIMS (1u << 28) /* leaf indices stay within the tree's int32 children */

static void put32(uint8_t *p, size_t off, uint32_t v)
{
	memcpy(p + off, &v, 4);
}

static void put64(uint8_t *p, size_t off, uint64_t v)
{
	memcpy(p + off, &v, 8);
}

static void putf(uint8_t *p, size_t off, const float *v, unsigned n)
{
	memcpy(p + off, v, 4u * n);
}

uint64_t xs_bvh_max_size(unsigned type, uint64_t nprims)
{
	uint64_t leaf = type == XS_BVH_TYPE_TOP ? XS_BVH_INSTANCE_BYTES : XS_BVH_TRIANGLE_BYTES;
	return XS_BVH_HEADER_BYTES + xs_bvh_max_box_nodes(nprims) * XS_BVH_BOX32_BYTES + nprims * leaf;
}

typedef void (*leaf_fn)(const void *prims, uint32_t p, uint8_t *node);

/* Lays the tree out at out; leaf_fn writes primitive p's leaf node. */
static xs_status write_tree(const xs_bvh_tree *t, unsigned type, const void *prims, leaf_fn leaf, uint32_t nprims,
			    uint32_t ndesc, uint32_t flags, uint8_t *out, size_t cap, xs_bvh_stats *st, xs_err *e)
{
	const uint32_t leaf_bytes = type == XS_BVH_TYPE_TOP ? XS_BVH_INSTANCE_BYTES : XS_BVH_TRIANGLE_BYTES;
	const uint32_t node_type = type == XS_BVH_TYPE_TOP ? XS_BVH_NODE_INSTANCE : XS_BVH_NODE_TRIANGLE;
	uint64_t leaf_base = XS_BVH_HEADER_BYTES + (uint64_t)t->nnodes * XS_BVH_BOX32_BYTES;
	uint64_t size = leaf_base + (uint64_t)nprims * leaf_bytes;
	if (size > cap)
		return xs_err_set(e, XS_E_INVALID_ARG, "acceleration structure of %llu bytes, %zu available",
				  (unsigned long long)size, cap);
	memset(out, 0, (size_t)size);
	uint64_t next_leaf = leaf_base;
	double root_area = xs_bvh_box_area(&t->bounds), sah = 0;
	const float nan = __builtin_nanf("");
	for (uint32_t i = 0; i < t->nnodes; i++) {
		const xs_bvh_tnode *nd = &t->node[i];
		uint8_t *p = out + XS_BVH_HEADER_BYTES + (size_t)i * XS_BVH_BOX32_BYTES;
		for (uint32_t c = 0; c < 4; c++) {
			uint32_t ptr = XS_BVH_INVALID;
			float box[6] = { nan, nan, nan, nan, nan, nan };
			if (c < nd->n) {
				memcpy(box, nd->box[c].lo, 12);
				memcpy(box + 3, nd->box[c].hi, 12);
				if (nd->child[c] >= 0) {
					/* relative to the BVH base, the root (at XS_BVH_HEADER_BYTES) */
					ptr = XS_BVH_PTR((uint64_t)nd->child[c] * XS_BVH_BOX32_BYTES, XS_BVH_NODE_BOX32);
				} else {
					ptr = XS_BVH_PTR(next_leaf - XS_BVH_HEADER_BYTES, node_type);
					leaf(prims, (uint32_t)(-nd->child[c] - 1), out + next_leaf);
					next_leaf += leaf_bytes;
				}
				sah += root_area > 0 ? xs_bvh_box_area(&nd->box[c]) / root_area : 0;
			}
			put32(p, 4 * c, ptr);
			putf(p, 16 + 24 * c, box, 6);
		}
		/* bytes 112-127: flags and reserved, 0 (gfx10.3 reads none of them) */
	}
	float aabb[6] = { 0 };
	if (nprims) {
		memcpy(aabb, t->bounds.lo, 12);
		memcpy(aabb + 3, t->bounds.hi, 12);
	}
	put32(out, XS_BVH_HDR_ROOT_OFFSET, XS_BVH_HEADER_BYTES);
	put32(out, XS_BVH_HDR_TYPE, type);
	putf(out, XS_BVH_HDR_AABB, aabb, 6);
	put64(out, XS_BVH_HDR_COMPACTED, size);
	put64(out, XS_BVH_HDR_SIZE, size);
	put32(out, XS_BVH_HDR_PRIMS, nprims);
	put32(out, XS_BVH_HDR_BOXES, t->nnodes);
	put32(out, XS_BVH_HDR_GEOMETRIES, ndesc);
	put32(out, XS_BVH_HDR_FLAGS, flags);
	put32(out, XS_BVH_HDR_MAGIC, XS_BVH_MAGIC);
	put32(out, XS_BVH_HDR_VERSION, XS_BVH_VERSION);
	put32(out, XS_BVH_HDR_LEAF_OFFSET, (uint32_t)leaf_base);
	if (st)
		*st = (xs_bvh_stats){ .box_nodes = t->nnodes, .leaves = nprims, .depth = t->depth,
				      .sah_cost = 1 + sah, .bytes = size };
	return XS_OK;
}

/* RADV's radv_bvh_triangle_node: coords[3][3], reserved[3], triangle_id,
 * geometry_id_and_flags, reserved2, id. */
static void triangle_leaf(const void *prims, uint32_t p, uint8_t *node)
{
	const xs_bvh_triangle *t = (const xs_bvh_triangle *)prims + p;
	putf(node, 0, &t->v[0][0], 9);
	put32(node, 48, t->triangle_id);
	put32(node, 52, t->geometry_flags);
	/* RADV's CPU builder wrote 9 here: the IJ return mode needs it */
	put32(node, 60, 9);
}

/* RADV's radv_bvh_instance_node: bvh_ptr, custom_instance_and_mask,
 * sbt_offset_and_flags, wto_matrix (3x4), instance_id, bvh_offset,
 * reserved[2], otw_matrix (3x4). */
static void instance_leaf(const void *prims, uint32_t p, uint8_t *node)
{
	const xs_bvh_instance *in = (const xs_bvh_instance *)prims + p;
	float wto[12];
	xs_bvh_invert_3x4(in->otw, wto);
	put64(node, 0, ((in->blas_va + in->blas_root) >> 3) | XS_BVH_NODE_BOX32);
	put32(node, 8, in->custom_and_mask);
	put32(node, 12, in->sbt_and_flags);
	putf(node, 16, wto, 12);
	put32(node, 64, in->instance_id);
	put32(node, 68, in->blas_root);
	putf(node, 80, in->otw, 12);
}

xs_status xs_bvh_build_triangles(const xs_bvh_triangle *t, uint32_t n, uint32_t ngeom, uint32_t flags, uint8_t *out,
				 size_t cap, xs_bvh_stats *st, xs_err *e)
{
	if (n > MAX_PRIMS)
		return xs_err_set(e, XS_E_INVALID_ARG, "%u triangles: xs12 builds at most %u", n, MAX_PRIMS);
	xs_bvh_box *boxes = xs_malloc((size_t)XS_MAX(n, 1u) * sizeof(*boxes));
	if (!boxes)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "acceleration structure build: no host memory for %u triangles", n);
	for (uint32_t i = 0; i < n; i++) {
		xs_bvh_box_empty(&boxes[i]);
		for (int v = 0; v < 3; v++) {
			xs_bvh_box pt;
			memcpy(pt.lo, t[i].v[v], 12);
			memcpy(pt.hi, t[i].v[v], 12);
			xs_bvh_box_grow(&boxes[i], &pt);
		}
	}
	xs_bvh_tree tree;
	xs_status s = xs_bvh_tree_build(boxes, n, &tree, e);
	free(boxes);
	if (s)
		return s;
	s = write_tree(&tree, XS_BVH_TYPE_BOTTOM, t, triangle_leaf, n, ngeom, flags, out, cap, st, e);
	xs_bvh_tree_free(&tree);
	return s;
}

xs_status xs_bvh_build_instances(const xs_bvh_instance *in, uint32_t n, uint32_t ndesc, uint32_t flags, uint8_t *out,
				 size_t cap, xs_bvh_stats *st, xs_err *e)
{
	if (n > MAX_PRIMS)
		return xs_err_set(e, XS_E_INVALID_ARG, "%u instances: xs12 builds at most %u", n, MAX_PRIMS);
	xs_bvh_box *boxes = xs_malloc((size_t)XS_MAX(n, 1u) * sizeof(*boxes));
	if (!boxes)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "acceleration structure build: no host memory for %u instances", n);
	for (uint32_t i = 0; i < n; i++)
		boxes[i] = xs_bvh_transform_box(in[i].otw, &in[i].blas_box);
	xs_bvh_tree tree;
	xs_status s = xs_bvh_tree_build(boxes, n, &tree, e);
	free(boxes);
	if (s)
		return s;
	s = write_tree(&tree, XS_BVH_TYPE_TOP, in, instance_leaf, n, ndesc, flags, out, cap, st, e);
	xs_bvh_tree_free(&tree);
	return s;
}

bool xs_bvh_invert_3x4(const float m[12], float out[12])
{
	/* rows r: m[4r..4r+2] linear part, m[4r+3] translation */
	double a[3][3], inv[3][3];
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++)
			a[r][c] = m[4 * r + c];
	double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
		     a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
	memset(out, 0, 12 * sizeof(float));
	if (!(fabs(det) > 0) || !isfinite(det))
		return false;
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++) {
			/* cofactor of (c, r), transposed */
			int r0 = (c + 1) % 3, r1 = (c + 2) % 3, c0 = (r + 1) % 3, c1 = (r + 2) % 3;
			inv[r][c] = (a[r0][c0] * a[r1][c1] - a[r0][c1] * a[r1][c0]) / det;
		}
	for (int r = 0; r < 3; r++) {
		double tr = 0;
		for (int c = 0; c < 3; c++) {
			out[4 * r + c] = (float)inv[r][c];
			tr -= inv[r][c] * m[4 * c + 3];
		}
		out[4 * r + 3] = (float)tr;
	}
	return true;
}

xs_bvh_box xs_bvh_transform_box(const float m[12], const xs_bvh_box *b)
{
	/* Arvo: per output axis, the translation plus the extreme of each
	 * term, in double and rounded outwards, so that the box holds every
	 * point a float transform of the contents can land on */
	xs_bvh_box r;
	for (int i = 0; i < 3; i++) {
		double lo = m[4 * i + 3], hi = m[4 * i + 3], mag = fabs(lo);
		for (int k = 0; k < 3; k++) {
			double x = (double)m[4 * i + k] * b->lo[k], y = (double)m[4 * i + k] * b->hi[k];
			lo += x < y ? x : y;
			hi += x < y ? y : x;
			mag += fabs(x) > fabs(y) ? fabs(x) : fabs(y);
		}
		double pad = mag * 0x1p-20;
		r.lo[i] = nextafterf((float)(lo - pad), -__builtin_inff());
		r.hi[i] = nextafterf((float)(hi + pad), __builtin_inff());
	}
	return r;
}
