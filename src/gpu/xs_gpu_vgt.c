/*
 * VGT: a draw's vertices, grouped into VS waves (batches) with the
 * primitives that use them.
 *
 * - Indices: 16- or 32-bit from the index buffer (VGT_INDEX_TYPE); the
 *   fetch of index n reads 0 when n is at or past INDEX_BUFFER_SIZE (or
 *   DRAW_INDEX_2's max size), the hardware's out-of-bounds rule, and when
 *   the memory is not there at all [model: xs12 does not fault the VGT].
 *   Without indices VertexID = VGT_INDX_OFFSET + n.
 * - Instances: the draw repeats per instance; InstanceID counts from 0
 *   (StartInstanceLocation is in the vertex table, docs/graphics.md 1.1).
 * - Triangle lists: primitive p is vertices 3p, 3p+1, 3p+2. Strips: p is
 *   p, p+1, p+2 when p is even and p, p+2, p+1 when odd, so that every
 *   triangle of a strip has the same winding and its first vertex leads
 *   (the D3D rule: v0 v1 v2, v1 v3 v2, v2 v3 v4, ...). A trailing partial
 *   list primitive is dropped.
 * - Batches: at most `lanes` unique vertices and XS_GFX_MAX_BATCH_PRIMS
 *   primitives, one instance each, in draw order; a vertex (same index and
 *   instance) used again inside a batch takes the lane it has. Strip cut
 *   indices (primitive restart) are not modelled.
 */
#include "gpu/xs_gpu_gfx.h"

#include <string.h>

void xs_gfx_vgt_init(xs_gfx_vgt *v, const xs_gfx_state *s, xs_vm *vm, uint64_t count, uint32_t lanes)
{
	memset(v, 0, sizeof(*v));
	v->s = s;
	v->vm = vm;
	v->lanes = lanes < 3 ? 3 : lanes > 64 ? 64 : lanes;
	v->count = count;
	if (s->prim == XS_GFX_PRIM_TRISTRIP)
		v->nprims_per_instance = count >= 3 ? count - 2 : 0;
	else
		v->nprims_per_instance = count / 3;
	if (!s->instances)
		v->nprims_per_instance = 0;
}

/* The vertex ID of position n of the draw (an index, or the auto index). */
static uint32_t vertex_id(const xs_gfx_vgt *v, uint64_t n)
{
	const xs_gfx_state *s = v->s;
	if (!s->index_size)
		return s->indx_offset + (uint32_t)n;
	if (n >= s->index_count_max)
		return 0;
	uint64_t va = s->index_va + n * s->index_size;
	uint32_t id = 0;
	const uint8_t *p = xs_vm_ptr_n(v->vm, va, s->index_size, false);
	if (p)
		memcpy(&id, p, s->index_size); /* little-endian: a 16-bit index fills the low half */
	return id;
}

/* The positions (in the draw's vertex stream) of primitive p's vertices. */
static void prim_positions(const xs_gfx_vgt *v, uint64_t p, uint64_t pos[3])
{
	if (v->s->prim == XS_GFX_PRIM_TRISTRIP) {
		pos[0] = p;
		pos[1] = p + 1 + (p & 1);
		pos[2] = p + 2 - (p & 1);
	} else {
		pos[0] = 3 * p;
		pos[1] = 3 * p + 1;
		pos[2] = 3 * p + 2;
	}
}

bool xs_gfx_vgt_next(xs_gfx_vgt *v, xs_gfx_batch *b)
{
	const xs_gfx_state *s = v->s;
	while (v->next_prim >= v->nprims_per_instance) {
		if (!v->nprims_per_instance || v->instance + 1 >= s->instances)
			return false;
		v->instance++;
		v->next_prim = 0;
	}
	b->nverts = b->nprims = 0;
	b->first_prim = (uint64_t)v->instance * v->nprims_per_instance + v->next_prim;
	while (v->next_prim < v->nprims_per_instance && b->nprims < XS_GFX_MAX_BATCH_PRIMS) {
		uint64_t pos[3];
		uint32_t id[3], lane[3];
		unsigned fresh = 0;
		prim_positions(v, v->next_prim, pos);
		for (int k = 0; k < 3; k++) {
			id[k] = vertex_id(v, pos[k]);
			lane[k] = UINT32_MAX;
			for (uint32_t l = 0; l < b->nverts; l++)
				if (b->vertex_id[l] == id[k]) {
					lane[k] = l;
					break;
				}
			for (int m = 0; m < k && lane[k] == UINT32_MAX; m++)
				if (id[m] == id[k] && lane[m] >= b->nverts)
					lane[k] = lane[m]; /* new in this primitive, twice */
			if (lane[k] == UINT32_MAX)
				lane[k] = b->nverts + fresh++;
		}
		if (b->nverts + fresh > v->lanes)
			break; /* the next batch takes it */
		for (int k = 0; k < 3; k++)
			if (lane[k] >= b->nverts && lane[k] < b->nverts + fresh) {
				b->vertex_id[lane[k]] = id[k];
				b->instance_id[lane[k]] = v->instance;
			}
		b->nverts += fresh;
		for (int k = 0; k < 3; k++)
			b->prim_lane[b->nprims][k] = (uint8_t)lane[k];
		b->nprims++;
		v->next_prim++;
	}
	return b->nprims > 0;
}
