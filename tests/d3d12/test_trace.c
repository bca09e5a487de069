/* TraceRay (SPEC S2, docs/d3d12.md "TraceRay") through D3D12: a scene of
 * BLAS (random triangles in two geometries, a sphere) built by
 * BuildRaytracingAccelerationStructure, a TLAS of instances with rotations,
 * scales, masks, flags and hit-group contributions, traced one ray per pixel
 * by kernels/rt_trace.hip, every pixel compared with a brute-force CPU tracer
 * written here from D3D12's rules (double-precision Moller-Trumbore in each
 * instance's object space, nothing shared with the GPU path or
 * tests/bvh/bvh_oracle.h): the instance, primitive, geometry, hit kind, hit
 * group record, t and barycentrics. Ray flags, the instance mask, any hit,
 * recursion to the pipeline's depth (and a fault beyond it), DispatchRaysX
 * on a ring of exactly N waves.
 * argv: rt_trace.hip.co rt_trace.stack4.hip.co (none: hipcc is missing, the
 * test is skipped). */
#include "d3d12_util.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include <xs12/xs12_rt.h>

#define VA(r) ID3D12Resource_GetGPUVirtualAddress(r)
#define W 96
#define H 64
#define WORDS 32           /* per pixel, as rt_trace.hip's TRACE_WORDS */
#define CHAIN_AT 16
#define NREC 40            /* hit-group records */
#define REC 64             /* record stride */

static const char *lib_path, *stack4_path;

/* ---- the scene -------------------------------------------------------------------- */

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static double frand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

#define SOUP0 48            /* BLAS 0 geometry 0 */
#define SOUP1 32            /* BLAS 0 geometry 1 */
#define SLAT 10
#define SLON 16
#define SVERT ((SLAT + 1) * SLON)
#define SIDX (SLAT * SLON * 6)
#define SOUP2 256           /* BLAS 2: small triangles */
#define NINST 9

typedef struct ctri {
	double v[3][3];
	uint32_t prim, geom;
	bool opaque;        /* D3D12_RAYTRACING_GEOMETRY_FLAG_OPAQUE of its geometry */
} ctri;

typedef struct cblas {
	ctri t[SOUP2 + SIDX / 3];
	int n;
} cblas;

static float soup[SOUP0 + SOUP1][3][3];
static float soup2[SOUP2][3][3];
static float sverts[SVERT][3];
static uint16_t sidx[SIDX];
static cblas cpu_blas[3];

static void make_geometry(void)
{
	cblas *b = &cpu_blas[0];
	b->n = 0;
	for (int i = 0; i < SOUP0 + SOUP1; i++) {
		double c[3];
		for (int k = 0; k < 3; k++)
			c[k] = frand() * 2 - 1;
		for (int v = 0; v < 3; v++)
			for (int k = 0; k < 3; k++)
				soup[i][v][k] = (float)(c[k] + (frand() - 0.5) * 0.8);
		ctri *t = &b->t[b->n++];
		for (int v = 0; v < 3; v++)
			for (int k = 0; k < 3; k++)
				t->v[v][k] = soup[i][v][k];
		t->geom = i < SOUP0 ? 0 : 1;
		t->prim = i < SOUP0 ? (uint32_t)i : (uint32_t)(i - SOUP0);
		t->opaque = i < SOUP0;   /* geometry 1 is not OPAQUE */
	}
	for (int a = 0; a <= SLAT; a++)
		for (int o = 0; o < SLON; o++) {
			double th = M_PI * a / SLAT, ph = 2 * M_PI * o / SLON;
			sverts[a * SLON + o][0] = (float)(sin(th) * cos(ph));
			sverts[a * SLON + o][1] = (float)cos(th);
			sverts[a * SLON + o][2] = (float)(sin(th) * sin(ph));
		}
	int n = 0;
	for (int a = 0; a < SLAT; a++)
		for (int o = 0; o < SLON; o++) {
			uint16_t p = (uint16_t)(a * SLON + o), q = (uint16_t)(a * SLON + (o + 1) % SLON);
			uint16_t tri[6] = { p, (uint16_t)(p + SLON), q, q, (uint16_t)(p + SLON), (uint16_t)(q + SLON) };
			memcpy(&sidx[n], tri, sizeof(tri));
			n += 6;
		}
	b = &cpu_blas[1];
	b->n = 0;
	for (int i = 0; i < SIDX / 3; i++) {
		ctri *t = &b->t[i];
		for (int v = 0; v < 3; v++)
			for (int k = 0; k < 3; k++)
				t->v[v][k] = sverts[sidx[3 * i + v]][k];
		double e1[3], e2[3];
		for (int k = 0; k < 3; k++) {
			e1[k] = t->v[1][k] - t->v[0][k];
			e2[k] = t->v[2][k] - t->v[0][k];
		}
		double cx = e1[1] * e2[2] - e1[2] * e2[1], cy = e1[2] * e2[0] - e1[0] * e2[2],
		       cz = e1[0] * e2[1] - e1[1] * e2[0];
		if (cx * cx + cy * cy + cz * cz < 1e-12)
			continue;   /* the poles' degenerate triangles: the CPU skips them too (never hit) */
		t->geom = 0;
		t->prim = (uint32_t)i;
		t->opaque = true;
		b->n++;
		if (b->n - 1 != i)
			b->t[b->n - 1] = *t;
	}
	b = &cpu_blas[2];
	b->n = 0;
	for (int i = 0; i < SOUP2; i++) {
		double c[3];
		for (int k = 0; k < 3; k++)
			c[k] = frand() * 2 - 1;
		ctri *t = &b->t[b->n++];
		for (int v = 0; v < 3; v++)
			for (int k = 0; k < 3; k++) {
				soup2[i][v][k] = (float)(c[k] + (frand() - 0.5) * 0.3);
				t->v[v][k] = soup2[i][v][k];
			}
		t->geom = 0;
		t->prim = (uint32_t)i;
		t->opaque = true;
	}
}

/* Instances: which BLAS, rotation about y by angle, scale, position, mask,
 * contribution, flags. */
typedef struct inst_def {
	int blas;
	double angle, scale[3], pos[3];
	uint32_t mask, contribution, flags;
} inst_def;

static const inst_def insts[NINST] = {
	{ 0, 0.3, { 1.5, 1.5, 1.5 }, { -2.5, 0.5, 7 }, 0x01, 0, 0 },
	{ 0, 1.9, { 1, 2, 1 }, { 2.2, -0.6, 8 }, 0x01, 4, D3D12_RAYTRACING_INSTANCE_FLAG_TRIANGLE_FRONT_COUNTERCLOCKWISE },
	{ 1, 0.0, { 1.2, 1.2, 1.2 }, { 0.2, 0.3, 6 }, 0x03, 8, 0 },
	{ 1, 0.7, { 2, 0.8, 1 }, { -1.5, -2.2, 9 }, 0x02, 12, 0 },
	{ 0, -2.4, { 1, 1, 0.5 }, { 2.5, 2.3, 10 }, 0x02, 16, D3D12_RAYTRACING_INSTANCE_FLAG_TRIANGLE_CULL_DISABLE },
	{ 1, 2.2, { 6, 5, 6 }, { 0, 0, 18 }, 0x04, 20, 0 },   /* behind the others: a backdrop */
	{ 0, 0.9, { 0.7, 0.7, 0.7 }, { 0.9, -1.8, 5 }, 0x01, 24, D3D12_RAYTRACING_INSTANCE_FLAG_FORCE_NON_OPAQUE },
	{ 2, 0.4, { 1.3, 1.1, 1.3 }, { -2.6, -2.4, 8 }, 0x08, 28, 0 },
	/* a mirror (negative determinant): facing is decided in object space */
	{ 2, -0.6, { -1.2, 1.2, 1.2 }, { 2.8, 0.6, 6.5 }, 0x01, 30, 0 },
};

static void otw_of(const inst_def *d, double m[12])
{
	double c = cos(d->angle), s = sin(d->angle);
	double r[3][3] = { { c * d->scale[0], 0, s * d->scale[2] },
			   { 0, d->scale[1], 0 },
			   { -s * d->scale[0], 0, c * d->scale[2] } };
	for (int i = 0; i < 3; i++) {
		for (int k = 0; k < 3; k++)
			m[4 * i + k] = r[i][k];
		m[4 * i + 3] = d->pos[i];
	}
}

/* The inverse of the instance's transform, from its parts (not a general inverse). */
static void wto_of(const inst_def *d, double m[12])
{
	double c = cos(d->angle), s = sin(d->angle);
	/* (R S)^-1 = S^-1 R^T */
	double r[3][3] = { { c / d->scale[0], 0, -s / d->scale[0] },
			   { 0, 1 / d->scale[1], 0 },
			   { s / d->scale[2], 0, c / d->scale[2] } };
	for (int i = 0; i < 3; i++) {
		for (int k = 0; k < 3; k++)
			m[4 * i + k] = r[i][k];
		m[4 * i + 3] = -(r[i][0] * d->pos[0] + r[i][1] * d->pos[1] + r[i][2] * d->pos[2]);
	}
}

/* ---- the CPU tracer: D3D12's rules -------------------------------------------------- */

typedef struct trace_cfg {
	uint32_t flags, mask, hit_contribution, multiplier, miss_index, chain;
	float eye[3], scale, tmin, tmax;
	bool any_hit;       /* the hit groups have ahs_even (ignores odd primitives) */
} trace_cfg;

typedef struct chit {
	bool hit;
	double t, b1, b2;
	uint32_t inst, prim, geom, kind, record;
} chit;

/* Moller-Trumbore in double: t, the barycentrics of v1 and v2, the facing
 * (the sign of the triangle's normal along the ray). */
static bool mt(const double o[3], const double d[3], const ctri *tr, double *t, double *b1, double *b2, double *facing)
{
	double e1[3], e2[3], p[3], q[3], s[3];
	for (int k = 0; k < 3; k++) {
		e1[k] = tr->v[1][k] - tr->v[0][k];
		e2[k] = tr->v[2][k] - tr->v[0][k];
		s[k] = o[k] - tr->v[0][k];
	}
	p[0] = d[1] * e2[2] - d[2] * e2[1];
	p[1] = d[2] * e2[0] - d[0] * e2[2];
	p[2] = d[0] * e2[1] - d[1] * e2[0];
	double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
	if (det == 0)
		return false;
	double u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) / det;
	q[0] = s[1] * e1[2] - s[2] * e1[1];
	q[1] = s[2] * e1[0] - s[0] * e1[2];
	q[2] = s[0] * e1[1] - s[1] * e1[0];
	double v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) / det;
	if (u < 0 || v < 0 || u + v > 1)
		return false;
	*t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
	*b1 = u;
	*b2 = v;
	/* n = e1 x e2; det = -(n . d) */
	*facing = -det;
	return true;
}

/* All accepted candidates within [tmin, tmax] go to `cand` (for the ties
 * check); returns the closest (or, with ACCEPT_FIRST, that any exists). */
static chit cpu_trace(const trace_cfg *c, const double o[3], const double d[3], double tmin, chit *cand, int *ncand,
		      int maxcand)
{
	chit best = { .hit = false, .t = c->tmax };
	*ncand = 0;
	for (int i = 0; i < NINST; i++) {
		const inst_def *in = &insts[i];
		if (!(in->mask & c->mask))
			continue;
		double m[12], oo[3], od[3];
		wto_of(in, m);
		for (int r = 0; r < 3; r++) {
			oo[r] = m[4 * r] * o[0] + m[4 * r + 1] * o[1] + m[4 * r + 2] * o[2] + m[4 * r + 3];
			od[r] = m[4 * r] * d[0] + m[4 * r + 1] * d[1] + m[4 * r + 2] * d[2];
		}
		const cblas *b = &cpu_blas[in->blas];
		for (int k = 0; k < b->n; k++) {
			const ctri *tr = &b->t[k];
			double t, b1, b2, f;
			if (!mt(oo, od, tr, &t, &b1, &b2, &f) || t < tmin || t > c->tmax)
				continue;
			if (c->flags & D3D12_RAY_FLAG_SKIP_TRIANGLES)
				continue;
			/* D3D12: clockwise as seen from the origin (left-handed) is the front:
			 * the normal e1 x e2 points away from the ray's origin */
			bool front = f < 0;
			if (in->flags & D3D12_RAYTRACING_INSTANCE_FLAG_TRIANGLE_FRONT_COUNTERCLOCKWISE)
				front = !front;
			if (!(in->flags & D3D12_RAYTRACING_INSTANCE_FLAG_TRIANGLE_CULL_DISABLE)) {
				if ((c->flags & D3D12_RAY_FLAG_CULL_BACK_FACING_TRIANGLES) && !front)
					continue;
				if ((c->flags & D3D12_RAY_FLAG_CULL_FRONT_FACING_TRIANGLES) && front)
					continue;
			}
			bool opaque = tr->opaque;
			if (in->flags & D3D12_RAYTRACING_INSTANCE_FLAG_FORCE_OPAQUE)
				opaque = true;
			if (in->flags & D3D12_RAYTRACING_INSTANCE_FLAG_FORCE_NON_OPAQUE)
				opaque = false;
			if (c->flags & D3D12_RAY_FLAG_FORCE_OPAQUE)
				opaque = true;
			if (c->flags & D3D12_RAY_FLAG_FORCE_NON_OPAQUE)
				opaque = false;
			if ((opaque && (c->flags & D3D12_RAY_FLAG_CULL_OPAQUE)) ||
			    (!opaque && (c->flags & D3D12_RAY_FLAG_CULL_NON_OPAQUE)))
				continue;
			if (!opaque && c->any_hit && (tr->prim & 1))
				continue;   /* ahs_even: IgnoreHit */
			chit h = { true, t, b1, b2, (uint32_t)i, tr->prim, tr->geom,
				   front ? D3D12_HIT_KIND_TRIANGLE_FRONT_FACE : D3D12_HIT_KIND_TRIANGLE_BACK_FACE,
				   c->hit_contribution + c->multiplier * tr->geom + in->contribution };
			if (*ncand < maxcand)
				cand[(*ncand)++] = h;
			if (!best.hit || t < best.t)
				best = h;
		}
	}
	return best;
}

static float f_of(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* ---- the GPU side ------------------------------------------------------------------ */

typedef struct gpu {
	t_ctx c;
	ID3D12Resource *vb0, *vb1, *vb2, *ib1, *blas[3], *tlas, *scratch, *idesc, *out, *table;
	ID3D12RootSignature *rs;
	ID3D12StateObject *so;
	ID3D12StateObjectProperties *props;
	UINT depth;
} gpu;

static ID3D12Resource *build(gpu *g, const D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS *in)
{
	ID3D12Device5 *d5;
	assert_int_equal(ID3D12Device_QueryInterface(g->c.dev, &IID_ID3D12Device5, (void **)&d5), S_OK);
	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_PREBUILD_INFO pre;
	ID3D12Device5_GetRaytracingAccelerationStructurePrebuildInfo(d5, in, &pre);
	ID3D12Device5_Release(d5);
	ID3D12Resource *as = t_buffer(&g->c, D3D12_HEAP_TYPE_DEFAULT, pre.ResultDataMaxSizeInBytes);
	ID3D12Resource *s = t_buffer(&g->c, D3D12_HEAP_TYPE_DEFAULT, pre.ScratchDataSizeInBytes);
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC bd = {
		.DestAccelerationStructureData = VA(as), .Inputs = *in, .ScratchAccelerationStructureData = VA(s) };
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(g->c.list, &bd, 0, NULL);
	assert_int_equal(t_run(&g->c), S_OK);
	ID3D12Resource_Release(s);
	return as;
}

static void build_scene(gpu *g)
{
	make_geometry();
	g->vb0 = t_upload(&g->c, soup, sizeof(soup));
	g->vb1 = t_upload(&g->c, sverts, sizeof(sverts));
	g->vb2 = t_upload(&g->c, soup2, sizeof(soup2));
	g->ib1 = t_upload(&g->c, sidx, sizeof(sidx));
	D3D12_RAYTRACING_GEOMETRY_DESC g0[2] = {
		{ .Type = D3D12_RAYTRACING_GEOMETRY_TYPE_TRIANGLES, .Flags = D3D12_RAYTRACING_GEOMETRY_FLAG_OPAQUE,
		  .Triangles = { .VertexFormat = DXGI_FORMAT_R32G32B32_FLOAT, .VertexCount = SOUP0 * 3,
				 .VertexBuffer = { VA(g->vb0), 12 } } },
		{ .Type = D3D12_RAYTRACING_GEOMETRY_TYPE_TRIANGLES, .Flags = D3D12_RAYTRACING_GEOMETRY_FLAG_NONE,
		  .Triangles = { .VertexFormat = DXGI_FORMAT_R32G32B32_FLOAT, .VertexCount = SOUP1 * 3,
				 .VertexBuffer = { VA(g->vb0) + SOUP0 * 36, 12 } } } };
	D3D12_RAYTRACING_GEOMETRY_DESC g1 = {
		.Type = D3D12_RAYTRACING_GEOMETRY_TYPE_TRIANGLES, .Flags = D3D12_RAYTRACING_GEOMETRY_FLAG_OPAQUE,
		.Triangles = { .IndexFormat = DXGI_FORMAT_R16_UINT, .VertexFormat = DXGI_FORMAT_R32G32B32_FLOAT,
			       .IndexCount = SIDX, .VertexCount = SVERT, .IndexBuffer = VA(g->ib1),
			       .VertexBuffer = { VA(g->vb1), 12 } } };
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS b0 = {
		.Type = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL, .NumDescs = 2,
		.DescsLayout = D3D12_ELEMENTS_LAYOUT_ARRAY, .pGeometryDescs = g0 };
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS b1 = b0;
	b1.NumDescs = 1;
	b1.pGeometryDescs = &g1;
	D3D12_RAYTRACING_GEOMETRY_DESC g2 = {
		.Type = D3D12_RAYTRACING_GEOMETRY_TYPE_TRIANGLES, .Flags = D3D12_RAYTRACING_GEOMETRY_FLAG_OPAQUE,
		.Triangles = { .VertexFormat = DXGI_FORMAT_R32G32B32_FLOAT, .VertexCount = SOUP2 * 3,
			       .VertexBuffer = { VA(g->vb2), 12 } } };
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS b2 = b1;
	b2.pGeometryDescs = &g2;
	g->blas[0] = build(g, &b0);
	g->blas[1] = build(g, &b1);
	g->blas[2] = build(g, &b2);
	D3D12_RAYTRACING_INSTANCE_DESC id[NINST];
	memset(id, 0, sizeof(id));
	for (int i = 0; i < NINST; i++) {
		double m[12];
		otw_of(&insts[i], m);
		for (int k = 0; k < 12; k++)
			id[i].Transform[k / 4][k % 4] = (float)m[k];
		id[i].InstanceID = 1000 + 7 * i;
		id[i].InstanceMask = insts[i].mask;
		id[i].InstanceContributionToHitGroupIndex = insts[i].contribution;
		id[i].Flags = insts[i].flags;
		id[i].AccelerationStructure = VA(g->blas[insts[i].blas]);
	}
	g->idesc = t_upload(&g->c, id, sizeof(id));
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS t = {
		.Type = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL, .NumDescs = NINST,
		.DescsLayout = D3D12_ELEMENTS_LAYOUT_ARRAY, .InstanceDescs = VA(g->idesc) };
	g->tlas = build(g, &t);
}

/* Root signature: u0 root UAV, t0 root SRV (the TLAS), b0 16 constants. */
static ID3D12RootSignature *root(t_ctx *c)
{
	D3D12_ROOT_PARAMETER p[3] = {
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV, .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV, .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, .Constants = { 0, 0, 16 },
		  .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL },
	};
	return t_root_signature(c, p, 3);
}

static void make_pipeline(gpu *g, const char *path, UINT depth)
{
	size_t size;
	void *code = t_read_file(path, &size);
	D3D12_DXIL_LIBRARY_DESC lib = { { code, size }, 0, NULL };
	D3D12_HIT_GROUP_DESC hg[3] = {
		{ L"HgRecord", D3D12_HIT_GROUP_TYPE_TRIANGLES, NULL, L"chs_record", NULL },
		{ L"HgAny", D3D12_HIT_GROUP_TYPE_TRIANGLES, L"ahs_even", L"chs_record", NULL },
		{ L"HgChain", D3D12_HIT_GROUP_TYPE_TRIANGLES, NULL, L"chs_chain", NULL },
	};
	D3D12_RAYTRACING_SHADER_CONFIG sc = { WORDS * 4, 8 };
	D3D12_RAYTRACING_PIPELINE_CONFIG pc = { depth };
	D3D12_GLOBAL_ROOT_SIGNATURE gr = { g->rs };
	D3D12_STATE_SUBOBJECT sub[] = {
		{ D3D12_STATE_SUBOBJECT_TYPE_DXIL_LIBRARY, &lib },
		{ D3D12_STATE_SUBOBJECT_TYPE_HIT_GROUP, &hg[0] },
		{ D3D12_STATE_SUBOBJECT_TYPE_HIT_GROUP, &hg[1] },
		{ D3D12_STATE_SUBOBJECT_TYPE_HIT_GROUP, &hg[2] },
		{ D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_SHADER_CONFIG, &sc },
		{ D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_PIPELINE_CONFIG, &pc },
		{ D3D12_STATE_SUBOBJECT_TYPE_GLOBAL_ROOT_SIGNATURE, &gr },
	};
	D3D12_STATE_OBJECT_DESC d = { D3D12_STATE_OBJECT_TYPE_RAYTRACING_PIPELINE, 7, sub };
	ID3D12Device5 *dev5;
	assert_int_equal(ID3D12Device_QueryInterface(g->c.dev, &IID_ID3D12Device5, (void **)&dev5), S_OK);
	assert_int_equal(ID3D12Device5_CreateStateObject(dev5, &d, &IID_ID3D12StateObject, (void **)&g->so), S_OK);
	ID3D12Device5_Release(dev5);
	free(code);
	assert_int_equal(ID3D12StateObject_QueryInterface(g->so, &IID_ID3D12StateObjectProperties, (void **)&g->props),
			 S_OK);
	g->depth = depth;
}

static void put(uint8_t *at, ID3D12StateObjectProperties *p, const wchar_t *name, uint32_t local)
{
	const void *id = ID3D12StateObjectProperties_GetShaderIdentifier(p, name);
	assert_non_null(id);
	memcpy(at, id, XS12_RT_SHADER_ID_SIZE);
	memcpy(at + XS12_RT_SHADER_ID_SIZE, &local, 4);
}

/* Table: raygen at 0, 2 miss records at 256 (local 500, 501), NREC hit
 * records at 512 (local = index), all of hit group hg. */
static void write_table(gpu *g, const wchar_t *hg)
{
	if (!g->table)
		g->table = t_buffer(&g->c, D3D12_HEAP_TYPE_UPLOAD, 512 + NREC * REC);
	uint8_t *m;
	assert_int_equal(ID3D12Resource_Map(g->table, 0, NULL, (void **)&m), S_OK);
	memset(m, 0, 512 + NREC * REC);
	put(m, g->props, L"rg_camera", 0);
	put(m + 256, g->props, L"miss_sentinel", 500);
	put(m + 256 + REC, g->props, L"miss_sentinel", 501);
	for (int i = 0; i < NREC; i++)
		put(m + 512 + i * REC, g->props, hg, (uint32_t)i);
	ID3D12Resource_Unmap(g->table, 0, NULL);
}

static void open_lib(gpu *g, const char *path, UINT depth)
{
	memset(g, 0, sizeof(*g));
	t_open(&g->c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	build_scene(g);
	g->rs = root(&g->c);
	make_pipeline(g, path, depth);
	g->out = t_buffer(&g->c, D3D12_HEAP_TYPE_DEFAULT, W * H * WORDS * 4);
}

static void open_gpu(gpu *g, UINT depth)
{
	open_lib(g, lib_path, depth);
}

static void close_gpu(gpu *g)
{
	ID3D12Resource *r[] = { g->vb0, g->vb1, g->vb2, g->ib1, g->blas[0], g->blas[1], g->blas[2], g->tlas, g->idesc,
				g->out, g->table };
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++)
		if (r[i])
			ID3D12Resource_Release(r[i]);
	ID3D12StateObjectProperties_Release(g->props);
	ID3D12StateObject_Release(g->so);
	ID3D12RootSignature_Release(g->rs);
	t_close(&g->c);
}

static D3D12_DISPATCH_RAYS_DESC rays_desc(gpu *g)
{
	uint64_t va = VA(g->table);
	D3D12_DISPATCH_RAYS_DESC r = { .RayGenerationShaderRecord = { va, 64 },
				       .MissShaderTable = { va + 256, 2 * REC, REC },
				       .HitGroupTable = { va + 512, NREC * REC, REC },
				       .Width = W, .Height = H, .Depth = 1 };
	return r;
}

static void record_rays(gpu *g, const trace_cfg *cfg)
{
	uint32_t k[16];
	memcpy(k, cfg, 6 * 4);
	memcpy(k + 6, cfg->eye, 6 * 4);
	ID3D12GraphicsCommandList6_SetComputeRootSignature(g->c.list, g->rs);
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(g->c.list, 0, VA(g->out));
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(g->c.list, 1, VA(g->tlas));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstants(g->c.list, 2, 12, k, 0);
	ID3D12GraphicsCommandList6_SetPipelineState1(g->c.list, g->so);
}

static double run_seconds;              /* host time of the last run */
static XS12_DISPATCH_STATISTICS run_stats; /* its ray dispatch's */

/* Closes, executes and waits for the list; the statistics of its only
 * dispatch; resets it. */
static HRESULT execute(gpu *g)
{
	HRESULT hr = ID3D12GraphicsCommandList6_Close(g->c.list);
	assert_int_equal(hr, S_OK);
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	ID3D12CommandList *cl = (ID3D12CommandList *)g->c.list;
	ID3D12CommandQueue_ExecuteCommandLists(g->c.queue, 1, &cl);
	hr = ID3D12CommandQueue_Signal(g->c.queue, g->c.fence, ++g->c.fence_value);
	if (hr == S_OK)
		hr = ID3D12Fence_SetEventOnCompletion(g->c.fence, g->c.fence_value, NULL);
	if (hr == S_OK)
		hr = ID3D12Device_GetDeviceRemovedReason(g->c.dev);
	clock_gettime(CLOCK_MONOTONIC, &b);
	run_seconds = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
	memset(&run_stats, 0, sizeof(run_stats));
	if (hr == S_OK) {
		assert_int_equal(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)g->c.list, 0, &run_stats), S_OK);
		assert_int_equal(ID3D12CommandAllocator_Reset(g->c.alloc), S_OK);
		assert_int_equal(ID3D12GraphicsCommandList6_Reset(g->c.list, g->c.alloc, NULL), S_OK);
	}
	return hr;
}

static HRESULT run(gpu *g, const trace_cfg *cfg, uint32_t *got)
{
	record_rays(g, cfg);
	D3D12_DISPATCH_RAYS_DESC r = rays_desc(g);
	ID3D12GraphicsCommandList6_DispatchRays(g->c.list, &r);
	HRESULT hr = execute(g);
	if (hr == S_OK)
		t_read(&g->c, g->out, got, W * H * WORDS * 4);
	return hr;
}

/* DispatchRaysX on a ring of exactly n waves' safe size, roundup(ScratchSize
 * x 32, 1024) x n (S2.5), the output cleared first. */
static HRESULT run_x(gpu *g, const trace_cfg *cfg, UINT n, uint32_t *got)
{
	D3D12XBOX_RAYTRACING_INFORMATION info;
	assert_int_equal(ID3D12StateObjectProperties_GetInformationX(g->props, 0, &info), S_OK);
	uint64_t per_wave = ((uint64_t)info.ScratchSize * 32 + 1023) / 1024 * 1024;
	ID3D12Resource *zero = t_buffer(&g->c, D3D12_HEAP_TYPE_DEFAULT, W * H * WORDS * 4);
	ID3D12Resource *ring = t_buffer(&g->c, D3D12_HEAP_TYPE_DEFAULT, n * per_wave);
	ID3D12GraphicsCommandList6_CopyResource(g->c.list, g->out, zero);
	D3D12_RESOURCE_BARRIER b = { .Type = D3D12_RESOURCE_BARRIER_TYPE_UAV };
	ID3D12GraphicsCommandList6_ResourceBarrier(g->c.list, 1, &b);
	record_rays(g, cfg);
	D3D12XBOX_DISPATCH_RAYS_DESC x = { rays_desc(g), { VA(ring), n * per_wave } };
	ID3D12GraphicsCommandList6_DispatchRaysX(g->c.list, &x);
	HRESULT hr = execute(g);
	if (hr == S_OK) {
		print_message("DispatchRaysX, ring of %u waves (%llu bytes, ScratchSize %u): %u slots, peak %u waves in "
			      "flight, %.3f simulated ms\n", n, (unsigned long long)(n * per_wave), info.ScratchSize,
			      run_stats.ScratchSlots, run_stats.PeakWavesInFlight, run_stats.Microseconds / 1000);
		assert_int_equal(run_stats.ScratchSlots, n);
		assert_int_equal(run_stats.PeakScratchSlots, n);
		assert_int_equal(run_stats.PeakWavesInFlight, n);
		assert_int_equal(run_stats.WavesLaunched, (W / 8) * (H / 4));
		t_read(&g->c, g->out, got, W * H * WORDS * 4);
	}
	ID3D12Resource_Release(ring);
	ID3D12Resource_Release(zero);
	return hr;
}

static trace_cfg base_cfg(void)
{
	trace_cfg c = { .flags = 0, .mask = 0xFF, .hit_contribution = 0, .multiplier = 1, .miss_index = 0, .chain = 0,
			.eye = { 0, 0, -2 }, .scale = 0.45f, .tmin = 0.0f, .tmax = 1e30f };
	return c;
}

/* The world ray of a pixel: the GPU's direction (written back), the camera's origin. */
static void pixel_ray(const trace_cfg *c, const uint32_t *px, double o[3], double d[3])
{
	for (int k = 0; k < 3; k++) {
		o[k] = c->eye[k];
		d[k] = f_of(px[8 + k]);
	}
}

typedef struct tally {
	int pixels, hits, mismatches, ties, t_bad;
} tally;

/* Compares every pixel with the CPU tracer (closest hit, or any hit with
 * ACCEPT_FIRST); skip_chs: the closest hit is not called. */
static tally compare(const trace_cfg *cfg, const uint32_t *got, bool any)
{
	tally s = { 0 };
	static chit cand[256];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint32_t *px = got + WORDS * (y * W + x);
			double o[3], d[3];
			pixel_ray(cfg, px, o, d);
			/* the camera's direction, computed here: the GPU's within rounding */
			double want_dx = ((x + 0.5) / W * 2 - 1) * cfg->scale, want_dy = (1 - (y + 0.5) / H * 2) * cfg->scale;
			assert_true(fabs(d[0] - want_dx) < 1e-6 && fabs(d[1] - want_dy) < 1e-6 && d[2] == 1.0);
			int nc;
			chit w = cpu_trace(cfg, o, d, cfg->tmin, cand, &nc, 256);
			s.pixels++;
			if (cfg->flags & D3D12_RAY_FLAG_SKIP_CLOSEST_HIT_SHADER) {
				/* a hit calls nothing: the payload stays 0; a miss writes 2 */
				if (px[0] != (w.hit ? 0u : 2u))
					s.mismatches++;
				s.hits += w.hit;
				continue;
			}
			if (!w.hit) {
				if (px[0] != 2 || px[7] != 500 + cfg->miss_index || f_of(px[15]) != cfg->tmax)
					s.mismatches++;
				continue;
			}
			s.hits++;
			if (px[0] != 1) {
				s.mismatches++;
				continue;
			}
			/* the GPU's hit must be one of the candidates; closest: the nearest
			 * unless another lies within 1e-5 relative of it */
			const chit *m = NULL;
			for (int i = 0; i < nc; i++)
				if (cand[i].inst == px[1] && cand[i].prim == px[2] && cand[i].geom == (px[6] & 0xFFFF))
					m = &cand[i];
			if (!m) {
				s.mismatches++;
				continue;
			}
			if (!any && (m->inst != w.inst || m->prim != w.prim || m->geom != w.geom)) {
				if (fabs(m->t - w.t) <= 1e-5 * w.t)
					s.ties++;
				else
					s.mismatches++;
				continue;
			}
			float t = f_of(px[3]);
			if (fabs(t - m->t) > 1e-4 * m->t || fabs(f_of(px[4]) - m->b1) > 1e-3 ||
			    fabs(f_of(px[5]) - m->b2) > 1e-3)
				s.t_bad++;
			if ((px[6] >> 16) != m->kind || px[7] != m->record || px[11] != 1000 + 7 * m->inst ||
			    px[12] != 1 || f_of(px[13]) > 1e-4f || f_of(px[15]) != cfg->tmin) {
				print_message("pixel %d,%d: kind %u/%u record %u/%u id %u depth %u err %g tmin %g\n", x, y,
					      px[6] >> 16, m->kind, px[7], m->record, px[11], px[12], f_of(px[13]),
					      f_of(px[15]));
				s.mismatches++;
			}
			/* ObjectToWorld3x4's translation */
			if (fabs(f_of(px[14]) - insts[m->inst].pos[0]) > 1e-5)
				s.mismatches++;
		}
	return s;
}

static void expect_close(const char *what, tally s)
{
	print_message("%-28s %d pixels, %d hits, %d mismatches, %d ties, %d t/barycentric off\n", what, s.pixels,
		      s.hits, s.mismatches, s.ties, s.t_bad);
	assert_true(s.hits > 0 || strstr(what, "cull opaque"));
	/* 99.9 % the same instance and primitive, the rest only ties within 1e-5 in t */
	assert_int_equal(s.mismatches, 0);
	assert_true(s.ties <= s.pixels / 1000);
	assert_int_equal(s.t_bad, 0);
}

/* ---- tests ------------------------------------------------------------------------- */

static void closest_hit_matches_cpu(void **state)
{
	(void)state;
	gpu g;
	open_gpu(&g, 1);
	write_table(&g, L"HgRecord");
	static uint32_t got[W * H * WORDS];
	trace_cfg c = base_cfg();
	assert_int_equal(run(&g, &c, got), S_OK);
	tally s = compare(&c, got, false);
	expect_close("closest hit", s);
	assert_true(s.hits > W * H / 3 && s.hits < W * H);   /* the scene covers part of the image */
	int per[NINST] = { 0 }, back = 0;
	for (int i = 0; i < W * H; i++)
		if (got[WORDS * i] == 1) {
			assert_true(got[WORDS * i + 1] < NINST);
			per[got[WORDS * i + 1]]++;
			back += (got[WORDS * i + 6] >> 16) == D3D12_HIT_KIND_TRIANGLE_BACK_FACE;
		}
	for (int i = 0; i < NINST; i++) {
		print_message("instance %d: %d pixels\n", i, per[i]);
		assert_true(per[i] > 0);   /* every instance is seen */
	}
	assert_true(back > 0 && back < s.hits);   /* both facings */
	XS12_DISPATCH_STATISTICS st = run_stats;
	print_message("%d rays: %.3f simulated ms (%.0f rays per simulated s), %.2f host s (%.0f rays per host s)\n",
		      W * H, st.Microseconds / 1000, W * H / (st.Microseconds * 1e-6), run_seconds,
		      W * H / run_seconds);
	/* RayTMin and TMax other than 0 and infinity: t in [2, 9] only */
	c.tmin = 8.5f;
	c.tmax = 11.0f;
	c.miss_index = 1;
	assert_int_equal(run(&g, &c, got), S_OK);
	expect_close("tmin 8.5 tmax 11, miss 1", compare(&c, got, false));
	/* a miss index past the miss table (2 records): a device fault naming
	 * the trap, not a call through the memory after the table */
	c.miss_index = 2;
	assert_int_equal(run(&g, &c, got), DXGI_ERROR_DEVICE_RESET);
	char text[512];
	t_last_message(&g.c, text, sizeof(text));
	assert_non_null(strstr(text, "trap id 34 ")); /* XS12_RT_TRAP_TABLE */
	close_gpu(&g);
}

static void ray_flags_and_masks(void **state)
{
	(void)state;
	gpu g;
	open_gpu(&g, 1);
	write_table(&g, L"HgRecord");
	static uint32_t got[W * H * WORDS];
	struct {
		const char *what;
		uint32_t flags, mask, rc, mult;
	} v[] = {
		{ "cull back", D3D12_RAY_FLAG_CULL_BACK_FACING_TRIANGLES, 0xFF, 0, 1 },
		{ "cull front", D3D12_RAY_FLAG_CULL_FRONT_FACING_TRIANGLES, 0xFF, 0, 1 },
		{ "accept first hit", D3D12_RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH, 0xFF, 0, 1 },
		{ "skip closest hit", D3D12_RAY_FLAG_SKIP_CLOSEST_HIT_SHADER, 0xFF, 0, 1 },
		{ "mask 0x01", 0, 0x01, 0, 1 },
		{ "mask 0x06", 0, 0x06, 0, 1 },
		{ "mask 0x08", D3D12_RAY_FLAG_CULL_FRONT_FACING_TRIANGLES, 0x08, 0, 1 },
		{ "cull opaque", D3D12_RAY_FLAG_CULL_OPAQUE, 0xFF, 0, 1 },
		{ "cull non-opaque", D3D12_RAY_FLAG_CULL_NON_OPAQUE, 0xFF, 0, 1 },
		{ "force non-opaque, cull opq", D3D12_RAY_FLAG_FORCE_NON_OPAQUE | D3D12_RAY_FLAG_CULL_OPAQUE, 0xFF, 0, 1 },
		{ "force opaque, cull non-opq", D3D12_RAY_FLAG_FORCE_OPAQUE | D3D12_RAY_FLAG_CULL_NON_OPAQUE, 0xFF, 0, 1 },
		{ "hit group 2 + 3 x geometry", 0, 0xFF, 2, 3 },
		{ "hit group 1 + 0 x geometry", D3D12_RAY_FLAG_CULL_BACK_FACING_TRIANGLES, 0x03, 1, 0 },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		trace_cfg c = base_cfg();
		c.flags = v[i].flags;
		c.mask = v[i].mask;
		c.hit_contribution = v[i].rc;
		c.multiplier = v[i].mult;
		assert_int_equal(run(&g, &c, got), S_OK);
		tally s = compare(&c, got, (c.flags & D3D12_RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH) != 0);
		expect_close(v[i].what, s);
		if (c.flags & D3D12_RAY_FLAG_CULL_OPAQUE && !(c.flags & D3D12_RAY_FLAG_FORCE_NON_OPAQUE))
			assert_true(s.hits > 0 && s.hits < W * H / 4); /* BLAS 0's geometry 1 and instance 6 are left */
	}
	close_gpu(&g);
}

/* Any hit on non-opaque candidates: BLAS 0 geometry 1 (not OPAQUE) and instance 6 (FORCE_NON_OPAQUE), and a
 * FORCE_NON_OPAQUE ray makes every candidate non-opaque; ahs_even ignores
 * odd primitives. */
static void any_hit(void **state)
{
	(void)state;
	gpu g;
	open_gpu(&g, 1);
	write_table(&g, L"HgAny");
	static uint32_t got[W * H * WORDS];
	trace_cfg c = base_cfg();
	c.any_hit = true;
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			c.flags = D3D12_RAY_FLAG_FORCE_NON_OPAQUE;
		assert_int_equal(run(&g, &c, got), S_OK);
		tally s = compare(&c, got, false);
		expect_close(pass ? "any hit, all non-opaque" : "any hit, non-opaque geometry", s);
		uint32_t calls = 0;
		for (int i = 0; i < W * H; i++)
			calls += got[WORDS * i + 31];
		assert_true(calls > 0);
		if (pass)   /* every hit pixel's closest is even */
			for (int i = 0; i < W * H; i++)
				if (got[WORDS * i] == 1)
					assert_int_equal(got[WORDS * i + 2] & 1, 0);
	}
	close_gpu(&g);
}

/* The recursive closest hit: each hit traces on beyond itself until the
 * pipeline's depth; hit i of the chain against the CPU's i-th trace. */
static void recursion_to_depth(void **state)
{
	(void)state;
	const UINT depth = 4;
	gpu g;
	open_gpu(&g, depth);
	write_table(&g, L"HgChain");
	static uint32_t got[W * H * WORDS];
	trace_cfg c = base_cfg();
	c.chain = depth;
	assert_int_equal(run(&g, &c, got), S_OK);
	static chit cand[256];
	int checked = 0, bad = 0, deepest = 0;
	for (int i = 0; i < W * H; i++) {
		const uint32_t *px = got + WORDS * i;
		double o[3], d[3];
		pixel_ray(&c, px, o, d);
		float tmin = 0.0f;
		for (UINT k = 0; k < depth; k++) {
			int nc;
			chit w = cpu_trace(&c, o, d, tmin, cand, &nc, 256);
			if (!w.hit) {
				if (px[CHAIN_AT + k] != 0)
					bad++;
				break;
			}
			checked++;
			deepest = (deepest > (int)k + 1 ? deepest : (int)k + 1);
			if (px[CHAIN_AT + k] != (w.inst << 16 | w.prim)) {
				bad++;
				break;
			}
			tmin = (float)w.t * (1.0f + 1.0f / 1024.0f);
		}
	}
	print_message("recursion: %d chain hits checked, %d differ, deepest %d\n", checked, bad, deepest);
	assert_int_equal(deepest, (int)depth);
	assert_true(bad <= checked / 1000 + 1);
	/* the recursion's frames fit the ring GetInformationX sizes: 2 waves exactly */
	static uint32_t x2[W * H * WORDS];
	assert_int_equal(run_x(&g, &c, 2, x2), S_OK);
	assert_memory_equal(x2, got, sizeof(x2));
	/* and they need it: a pipeline stack of the ray generation's frame alone
	 * (SetPipelineStackSize) does not give the same image (or faults) */
	UINT64 rgs = ID3D12StateObjectProperties_GetShaderStackSize(g.props, L"rg_camera");
	UINT64 full = ID3D12StateObjectProperties_GetPipelineStackSize(g.props);
	assert_true(full >= rgs + (UINT64)depth * ID3D12StateObjectProperties_GetShaderStackSize(g.props, L"chs_chain"));
	ID3D12StateObjectProperties_SetPipelineStackSize(g.props, rgs);
	HRESULT small = run_x(&g, &c, 2, x2);
	print_message("recursion on a stack of %llu bytes per lane: %s\n", (unsigned long long)rgs,
		      small != S_OK ? "device removed" : memcmp(x2, got, sizeof(x2)) ? "a different image" : "the same image");
	assert_true(small != S_OK || memcmp(x2, got, sizeof(x2)) != 0);
	if (small != S_OK) {
		close_gpu(&g);
		open_gpu(&g, depth);
		write_table(&g, L"HgChain");
	} else {
		ID3D12StateObjectProperties_SetPipelineStackSize(g.props, full);
	}
	/* one TraceRay deeper than MaxTraceRecursionDepth: a device fault */
	c.chain = depth + 1;
	HRESULT hr = run(&g, &c, got);
	assert_int_equal(hr, DXGI_ERROR_DEVICE_RESET);
	assert_int_equal(ID3D12Device_GetDeviceRemovedReason(g.c.dev), DXGI_ERROR_DEVICE_RESET);
	char text[512];
	t_last_message(&g.c, text, sizeof(text));
	assert_non_null(strstr(text, "s_trap"));
	assert_non_null(strstr(text, "trap id 32 ")); /* XS12_RT_TRAP_RECURSION */
	close_gpu(&g);
}

/* DispatchRaysX on a ring of exactly N waves' safe size: N in flight, the
 * same image as DispatchRays'. */
static void rays_x_ring(void **state)
{
	(void)state;
	gpu g;
	open_gpu(&g, 1);
	write_table(&g, L"HgRecord");
	static uint32_t ref[W * H * WORDS], got[W * H * WORDS];
	trace_cfg c = base_cfg();
	assert_int_equal(run(&g, &c, ref), S_OK);
	D3D12XBOX_RAYTRACING_INFORMATION info;
	assert_int_equal(ID3D12StateObjectProperties_GetInformationX(g.props, 0, &info), S_OK);
	/* the traversal stack is in the frame ScratchSize counts */
	assert_true(info.ScratchSize >= XS12_RT_TRAVERSAL_STACK * 4);
	for (UINT n = 2; n <= 3; n++) {
		assert_int_equal(run_x(&g, &c, n, got), S_OK);
		assert_memory_equal(got, ref, sizeof(got));
	}
	close_gpu(&g);
}

/* A traversal stack of 4 entries (the library built with
 * -DXS12_RT_TRAVERSAL_STACK=4): the first box node below the root that
 * pushes more overflows, an s_trap, the device removed. */
static void stack_overflow_faults(void **state)
{
	(void)state;
	gpu g;
	open_lib(&g, stack4_path, 1);
	write_table(&g, L"HgRecord");
	static uint32_t got[W * H * WORDS];
	trace_cfg c = base_cfg();
	assert_int_equal(run(&g, &c, got), DXGI_ERROR_DEVICE_RESET);
	assert_int_equal(ID3D12Device_GetDeviceRemovedReason(g.c.dev), DXGI_ERROR_DEVICE_RESET);
	char text[512];
	t_last_message(&g.c, text, sizeof(text));
	print_message("%s\n", text);
	assert_non_null(strstr(text, "s_trap"));
	assert_non_null(strstr(text, "trap id 33 ")); /* XS12_RT_TRAP_STACK */
	close_gpu(&g);
}

static void raytracing_tier(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, false, D3D12_COMMAND_LIST_TYPE_DIRECT);
	D3D12_FEATURE_DATA_D3D12_OPTIONS5 o5;
	assert_int_equal(ID3D12Device_CheckFeatureSupport(c.dev, D3D12_FEATURE_D3D12_OPTIONS5, &o5, sizeof(o5)), S_OK);
	assert_int_equal(o5.RaytracingTier, D3D12_RAYTRACING_TIER_1_0);
	t_close(&c);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "test_trace: no HIP ray-tracing library (hipcc is missing): skipped\n");
		return 77;
	}
	lib_path = argv[1];
	stack4_path = argv[2];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(raytracing_tier),
		cmocka_unit_test(closest_hit_matches_cpu),
		cmocka_unit_test(ray_flags_and_masks),
		cmocka_unit_test(any_hit),
		cmocka_unit_test(recursion_to_depth),
		cmocka_unit_test(rays_x_ring),
		cmocka_unit_test(stack_overflow_faults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
