/* Acceleration structures through D3D12: a BLAS and a TLAS built by the
 * API from GPU memory, read back and traversed on the CPU from the
 * documented layout (tests/bvh/bvh_oracle.h), against a brute-force
 * intersection; compaction and clones; the postbuild sizes; each rule a
 * call can break with its message ID; a bad vertex address as a page
 * fault. */
#include "d3d12_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../bvh/bvh_oracle.h"

#define VA(r) ID3D12Resource_GetGPUVirtualAddress(r)

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static double frand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

/* A UV sphere: positions with a 16-byte stride (xyz, pad), 16-bit indices. */
#define RINGS 24
#define SEGS 32
#define NVERT ((RINGS + 1) * (SEGS + 1))
#define NIDX (RINGS * SEGS * 6)
static float verts[NVERT][4];
static uint16_t idx[NIDX];

static void make_sphere(void)
{
	for (int r = 0; r <= RINGS; r++)
		for (int s = 0; s <= SEGS; s++) {
			double th = M_PI * r / RINGS, ph = 2 * M_PI * s / SEGS;
			float *v = verts[r * (SEGS + 1) + s];
			v[0] = (float)(2 * sin(th) * cos(ph));
			v[1] = (float)(2 * cos(th));
			v[2] = (float)(2 * sin(th) * sin(ph));
			v[3] = 1234.5f; /* not a coordinate: the stride skips it */
		}
	int n = 0;
	for (int r = 0; r < RINGS; r++)
		for (int s = 0; s < SEGS; s++) {
			uint16_t a = (uint16_t)(r * (SEGS + 1) + s), b = (uint16_t)(a + 1), c = (uint16_t)(a + SEGS + 1),
				 d = (uint16_t)(c + 1);
			uint16_t q[6] = { a, b, c, b, d, c };
			memcpy(idx + n, q, sizeof(q));
			n += 6;
		}
}

/* Geometry 1: a non-indexed quad under a 3x4 transform read from GPU memory. */
static const float quad[6][3] = { { -3, -3, 0 }, { 3, -3, 0 }, { 3, 3, 0 }, { -3, -3, 0 }, { 3, 3, 0 }, { -3, 3, 0 } };
static const float quad_xf[12] = { 1, 0, 0, 0.5f, 0, 0, 1, -2.5f, 0, 1, 0, 0.25f }; /* y and z swapped, moved */

typedef struct tri {
	float v[3][3];
	uint32_t geom, prim;
} tri;

/* The triangles as the builder must see them (the transform applied in
 * float, the way D3D12 defines it: row r of the 3x4 times (x, y, z, 1)). */
static int host_triangles(tri *t)
{
	int n = 0;
	for (int k = 0; k < NIDX / 3; k++, n++) {
		for (int v = 0; v < 3; v++)
			memcpy(t[n].v[v], verts[idx[3 * k + v]], 12);
		t[n].geom = 0;
		t[n].prim = (uint32_t)k;
	}
	for (int k = 0; k < 2; k++, n++) {
		for (int v = 0; v < 3; v++) {
			const float *p = quad[3 * k + v];
			for (int r = 0; r < 3; r++)
				t[n].v[v][r] = quad_xf[4 * r] * p[0] + quad_xf[4 * r + 1] * p[1] + quad_xf[4 * r + 2] * p[2] +
					       quad_xf[4 * r + 3];
		}
		t[n].geom = 1;
		t[n].prim = (uint32_t)k;
	}
	return n;
}

typedef struct scene {
	ID3D12Resource *vb, *ib, *qb, *xf, *blas, *scratch, *info;
	D3D12_RAYTRACING_GEOMETRY_DESC geom[2];
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS in;
	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_PREBUILD_INFO pre;
} scene;

static void scene_inputs(t_ctx *c, scene *s)
{
	make_sphere();
	s->vb = t_upload(c, verts, sizeof(verts));
	s->ib = t_upload(c, idx, sizeof(idx));
	s->qb = t_upload(c, quad, sizeof(quad));
	s->xf = t_upload(c, quad_xf, sizeof(quad_xf));
	s->geom[0] = (D3D12_RAYTRACING_GEOMETRY_DESC){
		.Type = D3D12_RAYTRACING_GEOMETRY_TYPE_TRIANGLES, .Flags = D3D12_RAYTRACING_GEOMETRY_FLAG_OPAQUE,
		.Triangles = { .IndexFormat = DXGI_FORMAT_R16_UINT, .VertexFormat = DXGI_FORMAT_R32G32B32_FLOAT,
			       .IndexCount = NIDX, .VertexCount = NVERT, .IndexBuffer = VA(s->ib),
			       .VertexBuffer = { VA(s->vb), 16 } } };
	s->geom[1] = (D3D12_RAYTRACING_GEOMETRY_DESC){
		.Type = D3D12_RAYTRACING_GEOMETRY_TYPE_TRIANGLES,
		.Triangles = { .Transform3x4 = VA(s->xf), .IndexFormat = DXGI_FORMAT_UNKNOWN,
			       .VertexFormat = DXGI_FORMAT_R32G32B32_FLOAT, .VertexCount = 6,
			       .VertexBuffer = { VA(s->qb), 12 } } };
	s->in = (D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS){
		.Type = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL,
		.Flags = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BUILD_FLAG_ALLOW_COMPACTION |
			 D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BUILD_FLAG_PREFER_FAST_TRACE,
		.NumDescs = 2, .DescsLayout = D3D12_ELEMENTS_LAYOUT_ARRAY, .pGeometryDescs = s->geom };
	ID3D12Device5 *d5;
	assert_int_equal(ID3D12Device_QueryInterface(c->dev, &IID_ID3D12Device5, (void **)&d5), S_OK);
	ID3D12Device5_GetRaytracingAccelerationStructurePrebuildInfo(d5, &s->in, &s->pre);
	ID3D12Device5_Release(d5);
	s->blas = t_buffer(c, D3D12_HEAP_TYPE_DEFAULT, s->pre.ResultDataMaxSizeInBytes);
	s->scratch = t_buffer(c, D3D12_HEAP_TYPE_DEFAULT, s->pre.ScratchDataSizeInBytes);
	s->info = t_buffer(c, D3D12_HEAP_TYPE_DEFAULT, 256);
}

static void scene_free(scene *s)
{
	ID3D12Resource *r[] = { s->vb, s->ib, s->qb, s->xf, s->blas, s->scratch, s->info };
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++)
		ID3D12Resource_Release(r[i]);
}

/* Builds the scene's BLAS with both postbuild infos at info +0, +8. */
static void build_blas(t_ctx *c, scene *s)
{
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC bd = {
		.DestAccelerationStructureData = VA(s->blas), .Inputs = s->in,
		.ScratchAccelerationStructureData = VA(s->scratch) };
	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC pi[2] = {
		{ VA(s->info), D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_COMPACTED_SIZE },
		{ VA(s->info) + 8, D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_CURRENT_SIZE } };
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c->list, &bd, 2, pi);
	D3D12_RESOURCE_BARRIER bar = { .Type = D3D12_RESOURCE_BARRIER_TYPE_UAV };
	ID3D12GraphicsCommandList6_ResourceBarrier(c->list, 1, &bar);
}

static uint8_t *read_back(t_ctx *c, ID3D12Resource *r, uint64_t bytes)
{
	uint8_t *p = malloc(bytes);
	t_read(c, r, p, bytes);
	return p;
}

static void random_ray(double o[3], double d[3], double extent)
{
	for (int k = 0; k < 3; k++) {
		o[k] = (frand() * 2 - 1) * extent * 1.5;
		d[k] = (frand() * 2 - 1) * extent * 0.4 - o[k];
	}
}

static oracle_hit brute(const tri *t, int n, const double o[3], const double d[3])
{
	oracle_hit h = { 1e30, ~0u, ~0u, ~0u };
	for (int i = 0; i < n; i++) {
		double v[3][3], tt;
		for (int k = 0; k < 9; k++)
			v[k / 3][k % 3] = t[i].v[k / 3][k % 3];
		if (oracle_tri(o, d, v, h.t, &tt)) {
			h.t = tt;
			h.prim = t[i].prim;
			h.geom = t[i].geom;
		}
	}
	return h;
}

/* The TLAS's instances point at GPU addresses: the read-back copies there. */
typedef struct blas_map {
	const uint8_t *p;
	uint64_t va;
} blas_map;

static const uint8_t *map_blas(void *u, uint64_t va)
{
	const blas_map *m = u;
	return va == m->va ? m->p : NULL;
}

/* Closest hits of the read-back BLAS equal the brute force's, exactly. */
static void check_blas_hits(const uint8_t *as, const tri *t, int n, int rays)
{
	int hits = 0;
	for (int r = 0; r < rays; r++) {
		double o[3], d[3];
		random_ray(o, d, 3);
		oracle_hit want = brute(t, n, o, d), got = { 1e30, ~0u, ~0u, ~0u };
		assert_true(oracle_trace(as, o, d, 1e30, &got, NULL, NULL, ~0u));
		if (got.t != want.t || got.geom != want.geom)
			fail_msg("ray %d: t %.17g geometry %u vs brute force %.17g geometry %u", r, got.t, got.geom, want.t,
				 want.geom);
		hits += want.prim != ~0u;
	}
	assert_true(hits > rays / 4);
}

static void blas_and_tlas(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	D3D12_FEATURE_DATA_D3D12_OPTIONS5 o5;
	assert_int_equal(ID3D12Device_CheckFeatureSupport(c.dev, D3D12_FEATURE_D3D12_OPTIONS5, &o5, sizeof(o5)), S_OK);
	assert_int_equal(o5.RaytracingTier, D3D12_RAYTRACING_TIER_1_0); /* TraceRay: tests/d3d12/test_trace.c */
	scene s;
	scene_inputs(&c, &s);
	build_blas(&c, &s);
	assert_int_equal(t_run(&c), S_OK);
	uint64_t sizes[2];
	t_read(&c, s.info, sizes, sizeof(sizes));
	assert_int_equal(sizes[0], sizes[1]);
	assert_true(sizes[0] <= s.pre.ResultDataMaxSizeInBytes && sizes[0] > 128);
	uint8_t *as = read_back(&c, s.blas, sizes[0]);
	static tri t[NIDX / 3 + 2];
	int n = host_triangles(t);
	assert_int_equal(oracle_u32(as, 48), n); /* every triangle a leaf */
	check_blas_hits(as, t, n, 3000);

	/* A TLAS of three instances of it (one an inactive null) */
	D3D12_RAYTRACING_INSTANCE_DESC inst[4];
	memset(inst, 0, sizeof(inst));
	for (int i = 0; i < 4; i++) {
		float a = (float)i;
		float m[3][4] = { { cosf(a), 0, sinf(a), 6.0f * a - 6 }, { 0, 1 + 0.2f * a, 0, a }, { -sinf(a), 0, cosf(a), -a } };
		memcpy(inst[i].Transform, m, sizeof(m));
		inst[i].InstanceID = 100 + i;
		inst[i].InstanceMask = 0xFF;
		inst[i].InstanceContributionToHitGroupIndex = (UINT)i;
		inst[i].AccelerationStructure = i == 2 ? 0 : VA(s.blas);
	}
	ID3D12Resource *ib = t_upload(&c, inst, sizeof(inst));
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS tin = {
		.Type = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL, .NumDescs = 4,
		.DescsLayout = D3D12_ELEMENTS_LAYOUT_ARRAY, .InstanceDescs = VA(ib) };
	ID3D12Device5 *d5;
	assert_int_equal(ID3D12Device_QueryInterface(c.dev, &IID_ID3D12Device5, (void **)&d5), S_OK);
	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_PREBUILD_INFO tpre;
	ID3D12Device5_GetRaytracingAccelerationStructurePrebuildInfo(d5, &tin, &tpre);
	ID3D12Device5_Release(d5);
	ID3D12Resource *tlas = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, tpre.ResultDataMaxSizeInBytes);
	ID3D12Resource *ts = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, tpre.ScratchDataSizeInBytes);
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC bd = {
		.DestAccelerationStructureData = VA(tlas), .Inputs = tin, .ScratchAccelerationStructureData = VA(ts) };
	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC pi = {
		VA(s.info) + 16, D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_CURRENT_SIZE };
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &bd, 1, &pi);
	assert_int_equal(t_run(&c), S_OK);
	uint64_t tsize[3];
	t_read(&c, s.info, tsize, sizeof(tsize));
	uint8_t *top = read_back(&c, tlas, tsize[2]);
	assert_int_equal(oracle_u32(top, 4), 1);  /* top level */
	assert_int_equal(oracle_u32(top, 48), 3); /* the null instance is inactive */
	/* world-space brute force over the instances' transformed triangles */
	static tri w[3 * (NIDX / 3 + 2)];
	uint32_t winst[3 * (NIDX / 3 + 2)];
	int nw = 0;
	for (int i = 0; i < 4; i++) {
		if (!inst[i].AccelerationStructure)
			continue;
		for (int k = 0; k < n; k++, nw++) {
			for (int v = 0; v < 3; v++)
				for (int r = 0; r < 3; r++)
					w[nw].v[v][r] = (float)((double)inst[i].Transform[r][0] * t[k].v[v][0] +
								(double)inst[i].Transform[r][1] * t[k].v[v][1] +
								(double)inst[i].Transform[r][2] * t[k].v[v][2] + inst[i].Transform[r][3]);
			w[nw].geom = t[k].geom;
			w[nw].prim = t[k].prim;
			winst[nw] = (uint32_t)i;
		}
	}
	blas_map mp = { as, VA(s.blas) };
	int hits = 0;
	for (int r = 0; r < 2000; r++) {
		double o[3], d[3];
		random_ray(o, d, 8);
		oracle_hit want = { 1e30, ~0u, ~0u, ~0u }, got = { 1e30, ~0u, ~0u, ~0u };
		for (int i = 0; i < nw; i++) {
			double v[3][3], tt;
			for (int k = 0; k < 9; k++)
				v[k / 3][k % 3] = w[i].v[k / 3][k % 3];
			if (oracle_tri(o, d, v, want.t, &tt)) {
				want.t = tt;
				want.inst = winst[i];
				want.prim = w[i].prim;
			}
		}
		assert_true(oracle_trace(top, o, d, 1e30, &got, map_blas, &mp, ~0u));
		if (want.inst == ~0u) {
			assert_int_equal(got.inst, ~0u);
			continue;
		}
		hits++;
		/* object-space and world-space arithmetic round differently */
		assert_true(fabs(got.t - want.t) <= 1e-4 * want.t);
		if (got.inst != want.inst || got.prim != want.prim)
			assert_true(fabs(got.t - want.t) <= 1e-5 * want.t); /* a tie between two triangles */
	}
	assert_true(hits > 300);

	/* the same instances by ARRAY_OF_POINTERS: the same structure, byte for byte */
	D3D12_GPU_VIRTUAL_ADDRESS ptrs[4];
	for (int i = 0; i < 4; i++)
		ptrs[i] = VA(ib) + sizeof(D3D12_RAYTRACING_INSTANCE_DESC) * (UINT64)i;
	ID3D12Resource *pb = t_upload(&c, ptrs, sizeof(ptrs));
	ID3D12Resource *tlas2 = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, tpre.ResultDataMaxSizeInBytes);
	bd.DestAccelerationStructureData = VA(tlas2);
	bd.Inputs.DescsLayout = D3D12_ELEMENTS_LAYOUT_ARRAY_OF_POINTERS;
	bd.Inputs.InstanceDescs = VA(pb);
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &bd, 0, NULL);
	assert_int_equal(t_run(&c), S_OK);
	uint8_t *top2 = read_back(&c, tlas2, tsize[2]);
	assert_memory_equal(top, top2, tsize[2]);
	free(top2);
	ID3D12Resource_Release(pb);
	ID3D12Resource_Release(tlas2);
	free(top);
	free(as);
	ID3D12Resource_Release(ib);
	ID3D12Resource_Release(tlas);
	ID3D12Resource_Release(ts);
	scene_free(&s);
	t_close(&c);
}


/* COMPACT into a buffer of the compacted size and CLONE into another: the
 * same bytes, so the same hits; the copy's own postbuild info agrees. A
 * BLAS moved by compaction has another address: a TLAS must be built
 * again over it (its instances hold the BLAS's absolute address). */
static void compaction_and_clone(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_COMPUTE);
	scene s;
	scene_inputs(&c, &s);
	build_blas(&c, &s);
	assert_int_equal(t_run(&c), S_OK);
	uint64_t sizes[2];
	t_read(&c, s.info, sizes, sizeof(sizes));
	uint64_t compacted = (sizes[0] + 255) / 256 * 256;
	ID3D12Resource *small = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, compacted);
	ID3D12Resource *clone = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, s.pre.ResultDataMaxSizeInBytes);
	ID3D12GraphicsCommandList6_CopyRaytracingAccelerationStructure(c.list, VA(small), VA(s.blas),
		D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE_COMPACT);
	ID3D12GraphicsCommandList6_CopyRaytracingAccelerationStructure(c.list, VA(clone), VA(s.blas),
		D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE_CLONE);
	D3D12_RESOURCE_BARRIER bar = { .Type = D3D12_RESOURCE_BARRIER_TYPE_UAV };
	ID3D12GraphicsCommandList6_ResourceBarrier(c.list, 1, &bar);
	D3D12_GPU_VIRTUAL_ADDRESS srcs[2] = { VA(small), VA(clone) };
	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC pi = {
		VA(s.info) + 32, D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_COMPACTED_SIZE };
	ID3D12GraphicsCommandList6_EmitRaytracingAccelerationStructurePostbuildInfo(c.list, &pi, 2, srcs);
	assert_int_equal(t_run(&c), S_OK);
	uint64_t after[6];
	t_read(&c, s.info, after, sizeof(after));
	assert_int_equal(after[4], sizes[0]);
	assert_int_equal(after[5], sizes[0]);
	uint8_t *orig = read_back(&c, s.blas, sizes[0]), *a = read_back(&c, small, sizes[0]),
		*b = read_back(&c, clone, sizes[0]);
	assert_memory_equal(orig, a, sizes[0]);
	assert_memory_equal(orig, b, sizes[0]);
	static tri t[NIDX / 3 + 2];
	int n = host_triangles(t);
	check_blas_hits(a, t, n, 500);
	check_blas_hits(b, t, n, 500);

	/* a TLAS over the compacted copy: its instance's bvh_ptr is the copy's root */
	D3D12_RAYTRACING_INSTANCE_DESC inst = { .Transform = { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 } },
						.InstanceMask = 1, .AccelerationStructure = VA(small) };
	ID3D12Resource *ib = t_upload(&c, &inst, sizeof(inst));
	ID3D12Resource *tlas = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 4096), *ts = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 256);
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC bd = {
		.DestAccelerationStructureData = VA(tlas), .ScratchAccelerationStructureData = VA(ts),
		.Inputs = { .Type = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL, .NumDescs = 1,
			    .DescsLayout = D3D12_ELEMENTS_LAYOUT_ARRAY, .InstanceDescs = VA(ib) } };
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &bd, 0, NULL);
	assert_int_equal(t_run(&c), S_OK);
	uint8_t *top = read_back(&c, tlas, 1024);
	blas_map mp = { a, VA(small) };
	for (int r = 0; r < 300; r++) {
		double o[3], d[3];
		random_ray(o, d, 3);
		oracle_hit want = brute(t, n, o, d), got = { 1e30, ~0u, ~0u, ~0u };
		assert_true(oracle_trace(top, o, d, 1e30, &got, map_blas, &mp, ~0u)); /* fails on the old address */
		assert_true(fabs(got.t - want.t) <= 1e-9 * want.t);
	}
	free(top);
	free(orig);
	free(a);
	free(b);
	ID3D12Resource_Release(ib);
	ID3D12Resource_Release(tlas);
	ID3D12Resource_Release(ts);
	ID3D12Resource_Release(small);
	ID3D12Resource_Release(clone);
	scene_free(&s);
	t_close(&c);
}

/* Each rule broken once: its message ID, and the list fails to Close. */
#define expect_refused(c, name) expect_refused_id(c, (D3D12_MESSAGE_ID)XS12_MESSAGE_ID_##name, #name)
static void expect_refused_id(t_ctx *c, D3D12_MESSAGE_ID want, const char *msg)
{
	bool seen = t_has_message(c, want);
	if (!seen)
		fail_msg("no %s message", msg);
	assert_int_equal(t_run(c), E_INVALIDARG);
}

static void rules_refused(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	scene s;
	scene_inputs(&c, &s);
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC good = {
		.DestAccelerationStructureData = VA(s.blas), .Inputs = s.in,
		.ScratchAccelerationStructureData = VA(s.scratch) }, bd;
	D3D12_RAYTRACING_GEOMETRY_DESC g[2];
	ID3D12Resource *big = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 2 * s.pre.ResultDataMaxSizeInBytes);
	ID3D12Resource *tiny = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 256);

	/* the good build passes: the cases below differ from it in one thing */
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &good, 0, NULL);
	assert_int_equal(t_run(&c), S_OK);

	bd = good;
	bd.DestAccelerationStructureData = VA(big) + 128;
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &bd, 0, NULL);
	expect_refused(&c, AS_DEST_ALIGN);

	bd = good;
	bd.ScratchAccelerationStructureData = VA(s.scratch) + 64;
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &bd, 0, NULL);
	expect_refused(&c, AS_SCRATCH_ALIGN);

	bd = good;
	bd.DestAccelerationStructureData = VA(tiny);
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &bd, 0, NULL);
	expect_refused(&c, AS_DEST_SIZE);

	if (s.pre.ScratchDataSizeInBytes > 256) {
		bd = good;
		bd.ScratchAccelerationStructureData = VA(tiny);
		ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &bd, 0, NULL);
		expect_refused(&c, AS_SCRATCH_SIZE);
	}

	memcpy(g, s.geom, sizeof(g));
	g[0].Triangles.VertexFormat = DXGI_FORMAT_R16G16B16A16_FLOAT;
	bd = good;
	bd.Inputs.pGeometryDescs = g;
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &bd, 0, NULL);
	expect_refused(&c, AS_VERTEX_FORMAT);

	memcpy(g, s.geom, sizeof(g));
	g[0].Triangles.IndexFormat = DXGI_FORMAT_R8_UINT;
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &bd, 0, NULL);
	expect_refused(&c, AS_INDEX_FORMAT);

	memcpy(g, s.geom, sizeof(g));
	g[0].Triangles.IndexCount = NIDX - 1;
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &bd, 0, NULL);
	expect_refused(&c, AS_GEOMETRY);

	memcpy(g, s.geom, sizeof(g));
	g[1].Triangles.Transform3x4 += 4;
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &bd, 0, NULL);
	expect_refused(&c, AS_GEOMETRY);

	bd = good;
	bd.Inputs.Flags |= D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BUILD_FLAG_ALLOW_UPDATE;
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &bd, 0, NULL);
	expect_refused(&c, AS_UPDATE);

	bd = good;
	bd.Inputs = (D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS){
		.Type = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL, .NumDescs = 1,
		.DescsLayout = D3D12_ELEMENTS_LAYOUT_ARRAY, .InstanceDescs = VA(big) + 8 };
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &bd, 0, NULL);
	expect_refused(&c, AS_INSTANCES);

	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC pi = {
		VA(s.info), D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_SERIALIZATION };
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &good, 1, &pi);
	expect_refused(&c, AS_POSTBUILD);
	pi = (D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC){
		VA(s.info) + 4, D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_COMPACTED_SIZE };
	D3D12_GPU_VIRTUAL_ADDRESS src = VA(s.blas);
	ID3D12GraphicsCommandList6_EmitRaytracingAccelerationStructurePostbuildInfo(c.list, &pi, 1, &src);
	expect_refused(&c, AS_POSTBUILD);

	ID3D12GraphicsCommandList6_CopyRaytracingAccelerationStructure(c.list, VA(big), VA(s.blas),
		D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE_SERIALIZE);
	expect_refused(&c, AS_COPY);
	ID3D12GraphicsCommandList6_CopyRaytracingAccelerationStructure(c.list, VA(big) + 16, VA(s.blas),
		D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE_CLONE);
	expect_refused(&c, AS_DEST_ALIGN);

	ID3D12Resource_Release(big);
	ID3D12Resource_Release(tiny);
	scene_free(&s);
	t_close(&c);

	/* D3D12 takes acceleration-structure work on DIRECT and COMPUTE lists only */
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_COPY);
	ID3D12GraphicsCommandList6_CopyRaytracingAccelerationStructure(c.list, 0x100000000ull, 0x100001000ull,
		D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE_CLONE);
	expect_refused(&c, AS_LIST_TYPE);
	t_close(&c);
}

static void enable_dred(bool on)
{
	ID3D12DeviceRemovedExtendedDataSettings *s;
	assert_int_equal(D3D12GetDebugInterface(&IID_ID3D12DeviceRemovedExtendedDataSettings, (void **)&s), S_OK);
	D3D12_DRED_ENABLEMENT e = on ? D3D12_DRED_ENABLEMENT_FORCED_ON : D3D12_DRED_ENABLEMENT_FORCED_OFF;
	ID3D12DeviceRemovedExtendedDataSettings_SetAutoBreadcrumbsEnablement(s, e);
	ID3D12DeviceRemovedExtendedDataSettings_SetPageFaultEnablement(s, e);
	ID3D12DeviceRemovedExtendedDataSettings_Release(s);
}

/* A vertex buffer released before the GPU got to the build: the CP's page
 * fault, reported as other CP faults are (DEVICE_RESET, DRED's page fault
 * at the vertex address, the build the last breadcrumb begun). */
static void bad_vertex_address_faults(void **state)
{
	(void)state;
	enable_dred(true);
	t_ctx c;
	t_open(&c, false, D3D12_COMMAND_LIST_TYPE_DIRECT);
	enable_dred(false);
	scene s;
	scene_inputs(&c, &s);
	ID3D12Resource *gone = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 65536);
	ID3D12Resource_SetName(gone, L"released vertices");
	D3D12_GPU_VIRTUAL_ADDRESS gva = VA(gone);
	s.geom[0].Triangles.VertexBuffer.StartAddress = gva;
	build_blas(&c, &s);
	ID3D12Resource_Release(gone);
	assert_int_equal(t_run(&c), DXGI_ERROR_DEVICE_RESET);
	ID3D12DeviceRemovedExtendedData2 *dred;
	assert_int_equal(ID3D12Device_QueryInterface(c.dev, &IID_ID3D12DeviceRemovedExtendedData2, (void **)&dred), S_OK);
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetDeviceState(dred), D3D12_DRED_DEVICE_STATE_PAGEFAULT);
	D3D12_DRED_PAGE_FAULT_OUTPUT2 pf;
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetPageFaultAllocationOutput2(dred, &pf), S_OK);
	assert_true(pf.PageFaultVA == gva);
	assert_non_null(pf.pHeadRecentFreedAllocationNode);
	assert_non_null(strstr(pf.pHeadRecentFreedAllocationNode->ObjectNameA, "released vertices"));
	D3D12_DRED_AUTO_BREADCRUMBS_OUTPUT1 bc;
	assert_int_equal(ID3D12DeviceRemovedExtendedData2_GetAutoBreadcrumbsOutput1(dred, &bc), S_OK);
	assert_non_null(bc.pHeadAutoBreadcrumbNode);
	assert_int_equal(bc.pHeadAutoBreadcrumbNode->pCommandHistory[0],
			 D3D12_AUTO_BREADCRUMB_OP_BUILDRAYTRACINGACCELERATIONSTRUCTURE);
	assert_int_equal(*bc.pHeadAutoBreadcrumbNode->pLastBreadcrumbValue, 0);
	ID3D12DeviceRemovedExtendedData2_Release(dred);
	scene_free(&s);
	t_close(&c);
}

/* An instance whose AccelerationStructure is a buffer that holds none: a
 * malformed input, removed as a fault (not a hang), with the reason. */
static void instance_of_no_structure_faults(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, false, D3D12_COMMAND_LIST_TYPE_DIRECT);
	ID3D12Resource *junk = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 4096);
	D3D12_RAYTRACING_INSTANCE_DESC inst = { .Transform = { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 } },
						.InstanceMask = 1, .AccelerationStructure = VA(junk) };
	ID3D12Resource *ib = t_upload(&c, &inst, sizeof(inst));
	ID3D12Resource *tlas = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 4096), *ts = t_buffer(&c, D3D12_HEAP_TYPE_DEFAULT, 256);
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC bd = {
		.DestAccelerationStructureData = VA(tlas), .ScratchAccelerationStructureData = VA(ts),
		.Inputs = { .Type = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL, .NumDescs = 1,
			    .DescsLayout = D3D12_ELEMENTS_LAYOUT_ARRAY, .InstanceDescs = VA(ib) } };
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &bd, 0, NULL);
	assert_int_equal(t_run(&c), DXGI_ERROR_DEVICE_RESET);
	ID3D12Resource_Release(junk);
	ID3D12Resource_Release(ib);
	ID3D12Resource_Release(tlas);
	ID3D12Resource_Release(ts);
	t_close(&c);
}

/* The prebuild info bounds what a build writes, from the counts alone,
 * and grows with them. */
static void prebuild_bounds(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, false, D3D12_COMMAND_LIST_TYPE_DIRECT);
	ID3D12Device5 *d5;
	assert_int_equal(ID3D12Device_QueryInterface(c.dev, &IID_ID3D12Device5, (void **)&d5), S_OK);
	uint64_t last = 0;
	for (UINT n = 0; n < 5000; n += 1 + n) {
		D3D12_RAYTRACING_GEOMETRY_DESC g = { .Type = D3D12_RAYTRACING_GEOMETRY_TYPE_TRIANGLES,
			.Triangles = { .VertexFormat = DXGI_FORMAT_R32G32B32_FLOAT, .VertexCount = 3 * n } };
		D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS in = {
			.Type = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL, .NumDescs = 1,
			.pGeometryDescs = &g };
		D3D12_RAYTRACING_ACCELERATION_STRUCTURE_PREBUILD_INFO pi;
		ID3D12Device5_GetRaytracingAccelerationStructurePrebuildInfo(d5, &in, &pi);
		assert_true(pi.ResultDataMaxSizeInBytes >= 128 + 128 + 64ull * n);
		assert_true(pi.ResultDataMaxSizeInBytes > last && pi.ResultDataMaxSizeInBytes % 256 == 0);
		assert_true(pi.ScratchDataSizeInBytes >= 256 && pi.ScratchDataSizeInBytes % 256 == 0);
		assert_int_equal(pi.UpdateScratchDataSizeInBytes, 0); /* no ALLOW_UPDATE: 0, as D3D12 says */
		in.Flags = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BUILD_FLAG_ALLOW_UPDATE;
		D3D12_RAYTRACING_ACCELERATION_STRUCTURE_PREBUILD_INFO pu;
		ID3D12Device5_GetRaytracingAccelerationStructurePrebuildInfo(d5, &in, &pu);
		assert_true(pu.UpdateScratchDataSizeInBytes > 0);
		last = pi.ResultDataMaxSizeInBytes;
	}
	/* a count with a NULL array is answered (as no geometry), not read through */
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS none = {
		.Type = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL, .NumDescs = 3 };
	for (int layout = 0; layout < 2; layout++) {
		none.DescsLayout = layout ? D3D12_ELEMENTS_LAYOUT_ARRAY_OF_POINTERS : D3D12_ELEMENTS_LAYOUT_ARRAY;
		D3D12_RAYTRACING_ACCELERATION_STRUCTURE_PREBUILD_INFO pi;
		ID3D12Device5_GetRaytracingAccelerationStructurePrebuildInfo(d5, &none, &pi);
		assert_true(pi.ResultDataMaxSizeInBytes % 256 == 0 && pi.ScratchDataSizeInBytes % 256 == 0);
	}
	ID3D12Device5_Release(d5);
	t_close(&c);
}

static const char *vadd_path;

/* The CP is busy for the cost model's time at the build's place in its
 * queue, and another queue's long dispatch neither delays nor hides it:
 * the build's queue goes on when its time has passed, while the other
 * dispatch still runs. */
static void build_time_overlaps_another_queue(void **state)
{
	(void)state;
	t_ctx a;
	t_open(&a, false, D3D12_COMMAND_LIST_TYPE_COMPUTE);
	ID3D12CommandQueue *qb;
	ID3D12CommandAllocator *ab;
	ID3D12GraphicsCommandList6 *lb;
	D3D12_COMMAND_QUEUE_DESC qd = { .Type = D3D12_COMMAND_LIST_TYPE_COMPUTE };
	assert_int_equal(ID3D12Device_CreateCommandQueue(a.dev, &qd, &IID_ID3D12CommandQueue, (void **)&qb), S_OK);
	assert_int_equal(ID3D12Device_CreateCommandAllocator(a.dev, D3D12_COMMAND_LIST_TYPE_COMPUTE,
							      &IID_ID3D12CommandAllocator, (void **)&ab), S_OK);
	assert_int_equal(ID3D12Device_CreateCommandList(a.dev, 0, D3D12_COMMAND_LIST_TYPE_COMPUTE, ab, NULL,
							 &IID_ID3D12GraphicsCommandList6, (void **)&lb), S_OK);
	D3D12_QUERY_HEAP_DESC hd = { .Type = D3D12_QUERY_HEAP_TYPE_TIMESTAMP, .Count = 4 };
	ID3D12QueryHeap *qh;
	assert_int_equal(ID3D12Device_CreateQueryHeap(a.dev, &hd, &IID_ID3D12QueryHeap, (void **)&qh), S_OK);
	ID3D12Resource *rb = t_buffer(&a, D3D12_HEAP_TYPE_READBACK, 32);

	/* queue A: a long vadd */
	enum { N = 1 << 20 };
	HRESULT hr;
	ID3D12PipelineState *p = t_pipeline(&a, vadd_path, NULL, &hr);
	assert_int_equal(hr, S_OK);
	ID3D12Resource *buf = t_buffer(&a, D3D12_HEAP_TYPE_DEFAULT, N * 4);
	t_set_pipeline(&a, p);
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(a.list, 0, VA(buf));
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(a.list, 1, VA(buf));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(a.list, 2, VA(buf));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstant(a.list, 3, N, 0);
	ID3D12GraphicsCommandList6_Dispatch(a.list, N / 64, 1, 1);
	ID3D12GraphicsCommandList6_EndQuery(a.list, qh, D3D12_QUERY_TYPE_TIMESTAMP, 0);
	ID3D12GraphicsCommandList6_ResolveQueryData(a.list, qh, D3D12_QUERY_TYPE_TIMESTAMP, 0, 1, rb, 0);

	/* queue B: a two-triangle BLAS between two timestamps */
	ID3D12Resource *qv = t_upload(&a, quad, sizeof(quad));
	ID3D12Resource *blas = t_buffer(&a, D3D12_HEAP_TYPE_DEFAULT, 4096), *sc = t_buffer(&a, D3D12_HEAP_TYPE_DEFAULT, 256);
	D3D12_RAYTRACING_GEOMETRY_DESC g = { .Type = D3D12_RAYTRACING_GEOMETRY_TYPE_TRIANGLES,
		.Triangles = { .VertexFormat = DXGI_FORMAT_R32G32B32_FLOAT, .VertexCount = 6, .VertexBuffer = { VA(qv), 12 } } };
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC bd = {
		.DestAccelerationStructureData = VA(blas), .ScratchAccelerationStructureData = VA(sc),
		.Inputs = { .Type = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL, .NumDescs = 1,
			    .pGeometryDescs = &g } };
	ID3D12GraphicsCommandList6_EndQuery(lb, qh, D3D12_QUERY_TYPE_TIMESTAMP, 1);
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(lb, &bd, 0, NULL);
	ID3D12GraphicsCommandList6_EndQuery(lb, qh, D3D12_QUERY_TYPE_TIMESTAMP, 2);
	ID3D12GraphicsCommandList6_ResolveQueryData(lb, qh, D3D12_QUERY_TYPE_TIMESTAMP, 1, 2, rb, 8);

	assert_int_equal(ID3D12GraphicsCommandList6_Close(a.list), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(lb), S_OK);
	ID3D12CommandList *la = (ID3D12CommandList *)a.list, *lbb = (ID3D12CommandList *)lb;
	ID3D12CommandQueue_ExecuteCommandLists(a.queue, 1, &la);
	ID3D12CommandQueue_ExecuteCommandLists(qb, 1, &lbb);
	ID3D12CommandQueue_Signal(a.queue, a.fence, 1);
	ID3D12CommandQueue_Signal(qb, a.fence, 2); /* after B's work; waited for below with A's */
	ID3D12Fence *fb;
	assert_int_equal(ID3D12Device_CreateFence(a.dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fb), S_OK);
	ID3D12CommandQueue_Signal(qb, fb, 1);
	assert_int_equal(ID3D12Fence_SetEventOnCompletion(a.fence, 1, NULL), S_OK);
	assert_int_equal(ID3D12Fence_SetEventOnCompletion(fb, 1, NULL), S_OK);
	UINT64 *ts;
	assert_int_equal(ID3D12Resource_Map(rb, 0, NULL, (void **)&ts), S_OK);
	uint64_t build = ts[2] - ts[1];
	printf("vadd ends at %llu; the build runs from %llu for %llu cycles\n", (unsigned long long)ts[0],
	       (unsigned long long)ts[1], (unsigned long long)build);
	assert_true(build >= 4000 + 32 * 2);     /* [model] at least its fixed part and primitives */
	assert_true(build < 4000 + 32 * 2 + 2000); /* and its bytes at 64 a cycle: a few hundred */
	assert_true(ts[2] < ts[0]);                /* done while queue A's dispatch still ran */
	ID3D12Resource_Unmap(rb, 0, NULL);
	ID3D12Fence_Release(fb);
	ID3D12Resource_Release(qv);
	ID3D12Resource_Release(blas);
	ID3D12Resource_Release(sc);
	ID3D12Resource_Release(buf);
	ID3D12Resource_Release(rb);
	ID3D12PipelineState_Release(p);
	ID3D12QueryHeap_Release(qh);
	ID3D12GraphicsCommandList6_Release(lb);
	ID3D12CommandAllocator_Release(ab);
	ID3D12CommandQueue_Release(qb);
	t_close(&a);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_d3d12_accel VADD.hsaco\n");
		return 2;
	}
	vadd_path = argv[1];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(blas_and_tlas),
		cmocka_unit_test(compaction_and_clone),
		cmocka_unit_test(rules_refused),
		cmocka_unit_test(bad_vertex_address_faults),
		cmocka_unit_test(instance_of_no_structure_faults),
		cmocka_unit_test(prebuild_bounds),
		cmocka_unit_test(build_time_overlaps_another_queue),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
