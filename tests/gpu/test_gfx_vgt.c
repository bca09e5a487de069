/* The VGT (src/gpu/xs_gpu_vgt.c): index fetch and its bound, auto index,
 * instancing, triangle lists and strips, batching with vertex reuse.
 * Expected primitives are the D3D12 definitions written out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/xs_gpu_gfx.h"

typedef struct prim {
	uint32_t v[3], inst;
} prim;

/* Runs the VGT and lists its primitives as (vertex id, vertex id, vertex id, instance). */
static size_t run(const xs_gfx_state *s, xs_vm *vm, uint64_t count, uint32_t lanes, prim *out, size_t max,
		  uint32_t *batches)
{
	xs_gfx_vgt v;
	xs_gfx_batch b;
	size_t n = 0;
	*batches = 0;
	xs_gfx_vgt_init(&v, s, vm, count, lanes);
	while (xs_gfx_vgt_next(&v, &b)) {
		assert_true(b.nverts <= lanes);
		assert_int_equal(b.first_prim, n); /* draw order, no gaps */
		(*batches)++;
		for (uint32_t i = 0; i < b.nverts; i++)
			for (uint32_t j = i + 1; j < b.nverts; j++)
				assert_false(b.vertex_id[i] == b.vertex_id[j] && b.instance_id[i] == b.instance_id[j]);
		for (uint32_t p = 0; p < b.nprims; p++) {
			assert_true(n < max);
			for (int k = 0; k < 3; k++) {
				assert_true(b.prim_lane[p][k] < b.nverts);
				out[n].v[k] = b.vertex_id[b.prim_lane[p][k]];
			}
			out[n].inst = b.instance_id[b.prim_lane[p][0]];
			n++;
		}
	}
	return n;
}

static void lists_and_auto_index(void **state)
{
	(void)state;
	xs_gfx_state s;
	memset(&s, 0, sizeof(s));
	s.prim = XS_GFX_PRIM_TRILIST;
	s.instances = 2;
	s.indx_offset = 100; /* StartVertexLocation */
	prim p[16];
	uint32_t nb;
	size_t n = run(&s, NULL, 7, 64, p, 16, &nb); /* 7 vertices: 2 triangles, one left over */
	assert_int_equal(n, 4);
	prim want[4] = { { { 100, 101, 102 }, 0 }, { { 103, 104, 105 }, 0 }, { { 100, 101, 102 }, 1 },
			 { { 103, 104, 105 }, 1 } };
	assert_memory_equal(p, want, sizeof(want));
	s.instances = 0; /* InstanceCount 0 draws nothing */
	assert_int_equal(run(&s, NULL, 6, 64, p, 16, &nb), 0);
}

/* D3D strips: v0 v1 v2, v1 v3 v2, v2 v3 v4, v3 v5 v4: the first vertex
 * leads and odd triangles swap the last two, so all wind the same way. */
static void strip_winding(void **state)
{
	(void)state;
	xs_gfx_state s;
	memset(&s, 0, sizeof(s));
	s.prim = XS_GFX_PRIM_TRISTRIP;
	s.instances = 1;
	prim p[8];
	uint32_t nb;
	size_t n = run(&s, NULL, 6, 64, p, 8, &nb);
	assert_int_equal(n, 4);
	prim want[4] = { { { 0, 1, 2 }, 0 }, { { 1, 3, 2 }, 0 }, { { 2, 3, 4 }, 0 }, { { 3, 5, 4 }, 0 } };
	assert_memory_equal(p, want, sizeof(want));
	assert_int_equal(run(&s, NULL, 2, 64, p, 8, &nb), 0);
}

/* 16- and 32-bit indices; positions at or past INDEX_BUFFER_SIZE read 0,
 * as does memory that is not there. */
static void indices_and_bounds(void **state)
{
	(void)state;
	xs_vm *vm = xs_vm_create();
	uint64_t va;
	assert_int_equal(xs_vm_alloc(vm, 4096, 256, &va, NULL), XS_OK);
	uint16_t i16[6] = { 7, 8, 9, 9, 8, 0xFFFF };
	uint32_t i32[3] = { 70000, 5, 0x12345678 };
	assert_true(xs_vm_write(vm, va, i16, sizeof(i16), NULL));
	assert_true(xs_vm_write(vm, va + 64, i32, sizeof(i32), NULL));
	xs_gfx_state s;
	memset(&s, 0, sizeof(s));
	s.prim = XS_GFX_PRIM_TRILIST;
	s.instances = 1;
	s.index_size = 2;
	s.index_va = va;
	s.index_count_max = 5; /* the sixth index is out of bounds */
	prim p[4];
	uint32_t nb;
	assert_int_equal(run(&s, vm, 6, 64, p, 4, &nb), 2);
	prim want[2] = { { { 7, 8, 9 }, 0 }, { { 9, 8, 0 }, 0 } };
	assert_memory_equal(p, want, sizeof(want));
	s.index_size = 4;
	s.index_va = va + 64;
	s.index_count_max = 3;
	assert_int_equal(run(&s, vm, 3, 64, p, 4, &nb), 1);
	prim want32 = { { 70000, 5, 0x12345678 }, 0 };
	assert_memory_equal(&p[0], &want32, sizeof(want32));
	/* an index buffer in no allocation reads zeros */
	s.index_va = 0x7000000000ull;
	s.index_count_max = 3;
	assert_int_equal(run(&s, vm, 3, 64, p, 4, &nb), 1);
	prim zero = { { 0, 0, 0 }, 0 };
	assert_memory_equal(&p[0], &zero, sizeof(zero));
	xs_vm_destroy(vm);
}

/* A grid of quads (two triangles each, shared vertices): within a batch
 * each vertex takes one lane; batches hold at most `lanes` vertices; every
 * primitive comes out once, in order. */
static void batching_reuse(void **state)
{
	(void)state;
	enum { GX = 8, GY = 8, NI = GX * GY * 6 };
	xs_vm *vm = xs_vm_create();
	uint64_t va;
	assert_int_equal(xs_vm_alloc(vm, NI * 4, 256, &va, NULL), XS_OK);
	uint32_t idx[NI];
	int k = 0;
	for (int y = 0; y < GY; y++)
		for (int x = 0; x < GX; x++) {
			uint32_t a = y * (GX + 1) + x, b = a + 1, c = a + GX + 1, d = c + 1;
			uint32_t q[6] = { a, b, c, b, d, c };
			memcpy(&idx[k], q, sizeof(q));
			k += 6;
		}
	assert_true(xs_vm_write(vm, va, idx, sizeof(idx), NULL));
	xs_gfx_state s;
	memset(&s, 0, sizeof(s));
	s.prim = XS_GFX_PRIM_TRILIST;
	s.instances = 1;
	s.index_size = 4;
	s.index_va = va;
	s.index_count_max = NI;
	static prim p[NI / 3];
	uint32_t nb32, nb64;
	assert_int_equal(run(&s, vm, NI, 32, p, NI / 3, &nb32), NI / 3);
	for (int i = 0; i < NI / 3; i++)
		for (int j = 0; j < 3; j++)
			assert_int_equal(p[i].v[j], idx[3 * i + j]);
	assert_int_equal(run(&s, vm, NI, 64, p, NI / 3, &nb64), NI / 3);
	/* reuse: 128 triangles over 81 vertices need far fewer lanes than 3 per
	 * triangle (384): fewer than 384 / 32 = 12 batches of 32 */
	assert_true(nb32 < 12);
	assert_true(nb64 < nb32);
	xs_vm_destroy(vm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lists_and_auto_index),
		cmocka_unit_test(strip_winding),
		cmocka_unit_test(indices_and_bounds),
		cmocka_unit_test(batching_reuse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
