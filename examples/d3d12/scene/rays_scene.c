/*
 * rays_scene.c — the scene of examples/d3d12/scene rendered on the
 * simulated GPU (issue 10 §5, docs/rays.md "On the GPU"): vertices,
 * indices and instance descs uploaded, one BLAS per scene BLAS (its meshes
 * are its geometries) and a TLAS built by BuildRaytracingAccelerationStructure,
 * a ray-tracing pipeline of rays_scene.hip, one DispatchRays, then the same
 * frame by DispatchRaysX on scratch rings of 1, 4, 16 and 64 waves. The
 * frame is compared with the scene library's CPU renderer (scene_diff_ok,
 * and pixels of differing ids must be ties: t within 1e-5 relative) and
 * every DispatchRaysX frame with the DispatchRays one (bit for bit).
 *
 *   rays_scene LIBRARY.co OUT.png WIDTH HEIGHT [MODEL] [--functional] [--wrong-reference]
 *
 * Without MODEL: a small scene of a few hundred triangles made here (no
 * libassimp needed). OUT.png is the GPU frame, OUT-cpu.png the CPU one
 * (when libpng is there). Exit 0 when every frame matched, 1 when one
 * differs, 2 on bad arguments or files. --wrong-reference renders the CPU
 * frame with the light moved, so that it must differ (the comparison's test).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "../helpers.h"

#include <math.h>
#include <time.h>

#include <xs12/xs12_rt.h>

#include "scene.h"

#define VA(r) ID3D12Resource_GetGPUVirtualAddress(r)
#define PIXEL_WORDS 5 /* rays_scene.hip: instance, geometry, primitive, t, shadow ray traced */
#define REC 64        /* shader record stride: identifier + two root views, 64-aligned */

typedef struct gpu {
	ID3D12Device *dev;
	ID3D12Device5 *dev5;
	ID3D12CommandQueue *queue;
	ID3D12CommandAllocator *alloc;
	ID3D12GraphicsCommandList6 *list;
	ID3D12Fence *fence;
	UINT64 fence_value;
	HANDLE event;
} gpu;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void run(gpu *g)
{
	execute_and_wait(g->queue, g->list, g->fence, &g->fence_value, g->event);
	CHECK(ID3D12Device_GetDeviceRemovedReason(g->dev));
	CHECK(ID3D12CommandAllocator_Reset(g->alloc));
	CHECK(ID3D12GraphicsCommandList6_Reset(g->list, g->alloc, NULL));
}

static void uav_barrier(gpu *g)
{
	D3D12_RESOURCE_BARRIER b = { .Type = D3D12_RESOURCE_BARRIER_TYPE_UAV };
	ID3D12GraphicsCommandList6_ResourceBarrier(g->list, 1, &b);
}

/* Records the build of one acceleration structure; its scratch goes to *scratch. */
static ID3D12Resource *build(gpu *g, const D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS *in,
			     ID3D12Resource **scratch)
{
	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_PREBUILD_INFO pre;
	ID3D12Device5_GetRaytracingAccelerationStructurePrebuildInfo(g->dev5, in, &pre);
	ID3D12Resource *as = create_buffer(g->dev, D3D12_HEAP_TYPE_DEFAULT, pre.ResultDataMaxSizeInBytes);
	*scratch = create_buffer(g->dev, D3D12_HEAP_TYPE_DEFAULT, pre.ScratchDataSizeInBytes ? pre.ScratchDataSizeInBytes : 256);
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC bd = {
		.DestAccelerationStructureData = VA(as), .Inputs = *in, .ScratchAccelerationStructureData = VA(*scratch) };
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(g->list, &bd, 0, NULL);
	return as;
}

/* ---- the small scene: a few hundred triangles, no model file --------------------- */

/* A UV sphere of radius 1 (lat x lon quads, triangles at the poles) and a
 * cube beside it: two meshes, so GeometryIndex() matters. */
static int small_model(scene_blas *b)
{
	enum { LAT = 8, LON = 12 };
	memset(b, 0, sizeof(*b));
	b->meshes = calloc(2, sizeof(scene_mesh));
	if (!b->meshes)
		return -1;
	b->mesh_count = 2;
	scene_mesh *s = &b->meshes[0];
	s->vertex_count = (LAT + 1) * LON;
	s->triangle_count = 2 * LAT * LON;
	s->positions = malloc(3 * sizeof(float) * s->vertex_count);
	s->indices = malloc(3 * sizeof(uint32_t) * s->triangle_count);
	if (!s->positions || !s->indices)
		return -1;
	for (int a = 0; a <= LAT; a++)
		for (int o = 0; o < LON; o++) {
			float th = 3.14159265f * (float)a / LAT, ph = 6.2831853f * (float)o / LON;
			float *p = &s->positions[3 * (a * LON + o)];
			p[0] = sinf(th) * cosf(ph);
			p[1] = 1.0f + cosf(th);
			p[2] = sinf(th) * sinf(ph);
		}
	uint32_t n = 0;
	for (int a = 0; a < LAT; a++)
		for (int o = 0; o < LON; o++) {
			uint32_t p = (uint32_t)(a * LON + o), q = (uint32_t)(a * LON + (o + 1) % LON);
			/* the poles' degenerate triangles are left out: they are never hit */
			if (a != 0) {
				uint32_t t0[3] = { p, q, p + LON };
				memcpy(&s->indices[3 * n++], t0, sizeof(t0));
			}
			if (a != LAT - 1) {
				uint32_t t1[3] = { q, q + LON, p + LON };
				memcpy(&s->indices[3 * n++], t1, sizeof(t1));
			}
		}
	s->triangle_count = n;
	scene_mesh *c = &b->meshes[1];
	static const uint32_t quads[6][4] = { { 0, 1, 3, 2 }, { 4, 6, 7, 5 }, { 0, 4, 5, 1 },
					      { 2, 3, 7, 6 }, { 0, 2, 6, 4 }, { 1, 5, 7, 3 } };
	c->vertex_count = 8;
	c->triangle_count = 12;
	c->positions = malloc(3 * sizeof(float) * 8);
	c->indices = malloc(3 * sizeof(uint32_t) * 12);
	if (!c->positions || !c->indices)
		return -1;
	for (int v = 0; v < 8; v++) {
		c->positions[3 * v] = 1.2f + 0.6f * (float)(v >> 2 & 1);
		c->positions[3 * v + 1] = 0.6f * (float)(v >> 1 & 1);
		c->positions[3 * v + 2] = -0.3f + 0.6f * (float)(v & 1);
	}
	for (int f = 0; f < 6; f++) {
		const uint32_t *q = quads[f];
		uint32_t t[6] = { q[0], q[1], q[2], q[0], q[2], q[3] };
		memcpy(&c->indices[6 * f], t, sizeof(t));
	}
	return 0;
}

/* ---- the GPU's frame ----------------------------------------------------------- */

typedef struct rays {
	gpu *g;
	const scene *s;
	uint32_t w, h;
	ID3D12RootSignature *rs, *local_rs;
	ID3D12StateObject *so;
	ID3D12StateObjectProperties *props;
	ID3D12Resource *tlas, *albedo, *table, *ids, *rgba, *zero, *rb_ids, *rb_rgba;
	uint64_t miss_at, hit_at, hit_records;
} rays;

static ID3D12RootSignature *serialize(ID3D12Device *dev, const D3D12_ROOT_SIGNATURE_DESC *d)
{
	ID3DBlob *blob;
	CHECK(D3D12SerializeRootSignature(d, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, NULL));
	ID3D12RootSignature *rs;
	CHECK(ID3D12Device_CreateRootSignature(dev, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
					       &IID_ID3D12RootSignature, (void **)&rs));
	ID3D10Blob_Release(blob);
	return rs;
}

/* The hit group's local root signature: the geometry's vertex and index
 * buffers as two root SRVs (space 1), the record's bytes after its identifier. */
static ID3D12RootSignature *local_root_signature(ID3D12Device *dev)
{
	D3D12_ROOT_PARAMETER p[2] = {
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV, .Descriptor = { 0, 1 } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV, .Descriptor = { 1, 1 } },
	};
	D3D12_ROOT_SIGNATURE_DESC d = { .NumParameters = 2, .pParameters = p,
					.Flags = D3D12_ROOT_SIGNATURE_FLAG_LOCAL_ROOT_SIGNATURE };
	return serialize(dev, &d);
}

static ID3D12RootSignature *root_signature(ID3D12Device *dev)
{
	D3D12_ROOT_PARAMETER p[5] = {
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV, .Descriptor = { 0, 0 } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV, .Descriptor = { 1, 0 } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV, .Descriptor = { 0, 0 } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV, .Descriptor = { 1, 0 } },
		{ .ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, .Constants = { 0, 0, 14 } },
	};
	D3D12_ROOT_SIGNATURE_DESC d = { .NumParameters = 5, .pParameters = p };
	return serialize(dev, &d);
}

static void pipeline(rays *r, const char *lib_path)
{
	size_t size;
	void *code = read_file(lib_path, &size);
	D3D12_DXIL_LIBRARY_DESC lib = { { code, size }, 0, NULL };
	D3D12_HIT_GROUP_DESC hg = { L"HgShade", D3D12_HIT_GROUP_TYPE_TRIANGLES, NULL, L"chs_shade", NULL };
	D3D12_RAYTRACING_SHADER_CONFIG sc = { 24, 8 };   /* rays_scene.hip's payload, the barycentrics */
	D3D12_RAYTRACING_PIPELINE_CONFIG pc = { 2 };     /* primary and shadow ray */
	D3D12_GLOBAL_ROOT_SIGNATURE gr = { r->rs };
	D3D12_LOCAL_ROOT_SIGNATURE lr = { r->local_rs };
	D3D12_STATE_SUBOBJECT sub[7] = {
		{ D3D12_STATE_SUBOBJECT_TYPE_DXIL_LIBRARY, &lib },
		{ D3D12_STATE_SUBOBJECT_TYPE_HIT_GROUP, &hg },
		{ D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_SHADER_CONFIG, &sc },
		{ D3D12_STATE_SUBOBJECT_TYPE_RAYTRACING_PIPELINE_CONFIG, &pc },
		{ D3D12_STATE_SUBOBJECT_TYPE_GLOBAL_ROOT_SIGNATURE, &gr },
		{ D3D12_STATE_SUBOBJECT_TYPE_LOCAL_ROOT_SIGNATURE, &lr },
	};
	LPCWSTR hit_exports[] = { L"HgShade" };
	D3D12_SUBOBJECT_TO_EXPORTS_ASSOCIATION as = { &sub[5], 1, hit_exports };
	sub[6] = (D3D12_STATE_SUBOBJECT){ D3D12_STATE_SUBOBJECT_TYPE_SUBOBJECT_TO_EXPORTS_ASSOCIATION, &as };
	D3D12_STATE_OBJECT_DESC d = { D3D12_STATE_OBJECT_TYPE_RAYTRACING_PIPELINE, 7, sub };
	CHECK(ID3D12Device5_CreateStateObject(r->g->dev5, &d, &IID_ID3D12StateObject, (void **)&r->so));
	free(code);
	CHECK(ID3D12StateObject_QueryInterface(r->so, &IID_ID3D12StateObjectProperties, (void **)&r->props));
}

static void put(uint8_t *at, ID3D12StateObjectProperties *p, const wchar_t *name, const uint64_t *local, int n)
{
	const void *id = ID3D12StateObjectProperties_GetShaderIdentifier(p, name);
	if (!id) {
		fprintf(stderr, "no shader identifier for %ls\n", name);
		exit(2);
	}
	memcpy(at, id, D3D12_SHADER_IDENTIFIER_SIZE_IN_BYTES);
	if (n)   /* memcpy's source may not be NULL even for 0 bytes */
		memcpy(at + D3D12_SHADER_IDENTIFIER_SIZE_IN_BYTES, local, 8 * (size_t)n);
}

/* Uploads the scene, builds its acceleration structures, writes the shader
 * table: one hit-group record per (BLAS, geometry), with the geometry's
 * vertex and index buffers as local root arguments; an instance's
 * InstanceContributionToHitGroupIndex is its BLAS's first record. */
static void setup(rays *r, ID3D12Resource **keep, uint32_t *nkeep)
{
	gpu *g = r->g;
	const scene *s = r->s;
	uint64_t *first = calloc(s->blas_count, sizeof(uint64_t)), *blas_va = calloc(s->blas_count, sizeof(uint64_t));
	uint64_t nrec = 0;
	for (uint32_t b = 0; b < s->blas_count; b++) {
		first[b] = nrec;
		nrec += s->blas[b].mesh_count;
	}
	r->hit_records = nrec;
	r->miss_at = 64;
	r->hit_at = 256;
	r->table = create_buffer(g->dev, D3D12_HEAP_TYPE_UPLOAD, r->hit_at + nrec * REC);
	uint8_t *tab;
	CHECK(ID3D12Resource_Map(r->table, 0, NULL, (void **)&tab));
	memset(tab, 0, r->hit_at + nrec * REC);
	ID3D12Resource **scratch = calloc(s->blas_count + 1, sizeof(*scratch));
	for (uint32_t b = 0; b < s->blas_count; b++) {
		const scene_blas *bl = &s->blas[b];
		D3D12_RAYTRACING_GEOMETRY_DESC *gd = calloc(bl->mesh_count, sizeof(*gd));
		for (uint32_t m = 0; m < bl->mesh_count; m++) {
			const scene_mesh *me = &bl->meshes[m];
			ID3D12Resource *vb = create_upload_buffer(g->dev, me->positions, 12ull * me->vertex_count);
			ID3D12Resource *ib = create_upload_buffer(g->dev, me->indices, 12ull * me->triangle_count);
			keep[(*nkeep)++] = vb;
			keep[(*nkeep)++] = ib;
			scene_geometry_desc(me, VA(vb), VA(ib), gd + m);
			uint64_t local[2] = { VA(vb), VA(ib) };
			put(tab + r->hit_at + (first[b] + m) * REC, r->props, L"HgShade", local, 2);
		}
		D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS in = {
			.Type = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL, .NumDescs = bl->mesh_count,
			.DescsLayout = D3D12_ELEMENTS_LAYOUT_ARRAY, .pGeometryDescs = gd };
		ID3D12Resource *as = build(g, &in, &scratch[b]);
		keep[(*nkeep)++] = as;
		blas_va[b] = VA(as);
		free(gd);
	}
	put(tab, r->props, L"rg_scene", NULL, 0);
	put(tab + r->miss_at, r->props, L"miss_sky", NULL, 0);
	put(tab + r->miss_at + REC, r->props, L"miss_shadow", NULL, 0);
	ID3D12Resource_Unmap(r->table, 0, NULL);
	uav_barrier(g);   /* the TLAS build reads the BLASes' bounds */
	D3D12_RAYTRACING_INSTANCE_DESC *id = calloc(s->instance_count, sizeof(*id));
	float *alb = calloc(s->instance_count, 4 * sizeof(float));
	scene_instance_descs(s, blas_va, id);
	for (uint32_t i = 0; i < s->instance_count; i++) {
		id[i].InstanceContributionToHitGroupIndex = (UINT)first[s->instances[i].blas];
		memcpy(alb + 4 * i, s->instances[i].albedo, 3 * sizeof(float));
	}
	ID3D12Resource *idesc = create_upload_buffer(g->dev, id, sizeof(*id) * s->instance_count);
	keep[(*nkeep)++] = idesc;
	r->albedo = create_upload_buffer(g->dev, alb, 16ull * s->instance_count);
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS t = {
		.Type = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL, .NumDescs = s->instance_count,
		.DescsLayout = D3D12_ELEMENTS_LAYOUT_ARRAY, .InstanceDescs = VA(idesc) };
	r->tlas = build(g, &t, &scratch[s->blas_count]);
	run(g);
	for (uint32_t b = 0; b <= s->blas_count; b++)
		ID3D12Resource_Release(scratch[b]);
	free(scratch);
	free(id);
	free(alb);
	free(first);
	free(blas_va);
	size_t px = (size_t)r->w * r->h;
	r->ids = create_buffer(g->dev, D3D12_HEAP_TYPE_DEFAULT, px * PIXEL_WORDS * 4);
	r->rgba = create_buffer(g->dev, D3D12_HEAP_TYPE_DEFAULT, px * 4);
	r->zero = create_buffer(g->dev, D3D12_HEAP_TYPE_DEFAULT, px * PIXEL_WORDS * 4);
	r->rb_ids = create_buffer(g->dev, D3D12_HEAP_TYPE_READBACK, px * PIXEL_WORDS * 4);
	r->rb_rgba = create_buffer(g->dev, D3D12_HEAP_TYPE_READBACK, px * 4);
}

typedef struct result {
	uint32_t *ids;           /* PIXEL_WORDS a pixel */
	uint8_t *rgba;
	double host_seconds;
	XS12_DISPATCH_STATISTICS st;
	uint64_t rays;           /* primary + shadow */
} result;

/* One frame: the outputs cleared, DispatchRays (ring_waves 0) or
 * DispatchRaysX on a ring of exactly ring_waves waves' safe size,
 * roundup(ScratchSize x 32, 1024) each (S2.5), read back. */
static void render(rays *r, UINT ring_waves, result *out)
{
	gpu *g = r->g;
	size_t px = (size_t)r->w * r->h;
	ID3D12Resource *ring = NULL;
	ID3D12GraphicsCommandList6_CopyBufferRegion(g->list, r->ids, 0, r->zero, 0, px * PIXEL_WORDS * 4);
	ID3D12GraphicsCommandList6_CopyBufferRegion(g->list, r->rgba, 0, r->zero, 0, px * 4);
	uav_barrier(g);
	const scene *s = r->s;
	float k[14];
	memcpy(k, s->camera.eye, 12);
	memcpy(k + 3, s->camera.target, 12);
	memcpy(k + 6, s->camera.up, 12);
	k[9] = tanf(s->camera.fov_y_degrees * 3.14159265f / 360.0f);   /* as scene_camera_ray */
	memcpy(k + 10, s->light, 12);
	k[13] = s->shadow_tmin;
	ID3D12GraphicsCommandList6_SetComputeRootSignature(g->list, r->rs);
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(g->list, 0, VA(r->ids));
	ID3D12GraphicsCommandList6_SetComputeRootUnorderedAccessView(g->list, 1, VA(r->rgba));
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(g->list, 2, VA(r->tlas));
	ID3D12GraphicsCommandList6_SetComputeRootShaderResourceView(g->list, 3, VA(r->albedo));
	ID3D12GraphicsCommandList6_SetComputeRoot32BitConstants(g->list, 4, 14, k, 0);
	ID3D12GraphicsCommandList6_SetPipelineState1(g->list, r->so);
	uint64_t va = VA(r->table);
	D3D12_DISPATCH_RAYS_DESC d = { .RayGenerationShaderRecord = { va, REC },
				       .MissShaderTable = { va + r->miss_at, 2 * REC, REC },
				       .HitGroupTable = { va + r->hit_at, r->hit_records * REC, REC },
				       .Width = r->w, .Height = r->h, .Depth = 1 };
	if (ring_waves) {
		D3D12XBOX_RAYTRACING_INFORMATION info;
		CHECK(ID3D12StateObjectProperties_GetInformationX(r->props, 0, &info));
		uint64_t per_wave = ((uint64_t)info.ScratchSize * 32 + 1023) / 1024 * 1024;
		ring = create_buffer(g->dev, D3D12_HEAP_TYPE_DEFAULT, ring_waves * per_wave);
		D3D12XBOX_DISPATCH_RAYS_DESC x = { d, { VA(ring), ring_waves * per_wave } };
		ID3D12GraphicsCommandList6_DispatchRaysX(g->list, &x);
	} else {
		ID3D12GraphicsCommandList6_DispatchRays(g->list, &d);
	}
	uav_barrier(g);
	ID3D12GraphicsCommandList6_CopyBufferRegion(g->list, r->rb_ids, 0, r->ids, 0, px * PIXEL_WORDS * 4);
	ID3D12GraphicsCommandList6_CopyBufferRegion(g->list, r->rb_rgba, 0, r->rgba, 0, px * 4);
	double t0 = now();
	CHECK(ID3D12GraphicsCommandList6_Close(g->list));
	ID3D12CommandList *lists[] = { (ID3D12CommandList *)g->list };
	ID3D12CommandQueue_ExecuteCommandLists(g->queue, 1, lists);
	CHECK(ID3D12CommandQueue_Signal(g->queue, g->fence, ++g->fence_value));
	CHECK(ID3D12Fence_SetEventOnCompletion(g->fence, g->fence_value, g->event));
	XS12WaitForEvent(g->event, INFINITE);
	out->host_seconds = now() - t0;   /* the copies too: they are small beside the rays */
	CHECK(ID3D12Device_GetDeviceRemovedReason(g->dev));
	CHECK(XS12GetDispatchStatistics((ID3D12GraphicsCommandList *)g->list, 0, &out->st));
	CHECK(ID3D12CommandAllocator_Reset(g->alloc));
	CHECK(ID3D12GraphicsCommandList6_Reset(g->list, g->alloc, NULL));
	if (ring)
		ID3D12Resource_Release(ring);
	out->ids = malloc(px * PIXEL_WORDS * 4);
	out->rgba = malloc(px * 4);
	void *p;
	CHECK(ID3D12Resource_Map(r->rb_ids, 0, NULL, &p));
	memcpy(out->ids, p, px * PIXEL_WORDS * 4);
	ID3D12Resource_Unmap(r->rb_ids, 0, NULL);
	CHECK(ID3D12Resource_Map(r->rb_rgba, 0, NULL, &p));
	memcpy(out->rgba, p, px * 4);
	ID3D12Resource_Unmap(r->rb_rgba, 0, NULL);
	out->rays = px;
	for (size_t i = 0; i < px; i++)
		out->rays += out->ids[PIXEL_WORDS * i + 4];
}

/* One line per frame; without the timing model there are no simulated
 * seconds (its cycles are issue counts), so that column says n/a. */
static void print_result(const char *what, const result *res, bool functional, const char *verdict)
{
	char sim[32] = "n/a";
	if (!functional && res->st.Microseconds > 0)
		snprintf(sim, sizeof(sim), "%.0f", (double)res->rays / (res->st.Microseconds * 1e-6));
	printf("%-22s %7llu rays  %10s rays/simulated s  %6.0f rays/host s (%5.2f s)  peak %3u waves in flight  "
	       "%3u scratch slots  %s\n",
	       what, (unsigned long long)res->rays, sim, (double)res->rays / res->host_seconds, res->host_seconds,
	       res->st.PeakWavesInFlight, res->st.ScratchSlots, verdict);
}

/* Pixels whose ids differ although they are no tie: D3D12 leaves the
 * choice among equal t open, so a differing pixel is fine only when both
 * frames hit and their t lie within 1e-5 relative (rounding apart). */
static uint64_t far_ties(const scene_frame *a, const scene_frame *b)
{
	uint64_t n = 0;
	for (size_t i = 0; i < (size_t)a->width * a->height; i++) {
		const scene_pixel *p = &a->pixels[i], *q = &b->pixels[i];
		if (p->instance == q->instance &&
		    (p->instance == SCENE_MISS || (p->geometry == q->geometry && p->primitive == q->primitive)))
			continue;
		float m = fmaxf(fabsf(p->t), fabsf(q->t));
		n += p->instance == SCENE_MISS || q->instance == SCENE_MISS || fabsf(p->t - q->t) > 1e-5f * m;
	}
	return n;
}

static void png_name(char *out, size_t n, const char *png, const char *suffix)
{
	size_t len = strlen(png);
	if (len > 4 && !strcmp(png + len - 4, ".png"))
		len -= 4;
	snprintf(out, n, "%.*s%s.png", (int)len, png, suffix);
}

static void write_png(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h)
{
#ifdef SCENE_HAVE_PNG
	char err[256];
	if (scene_png_write(path, rgba, w, h, err, sizeof(err)))
		fprintf(stderr, "%s: %s\n", path, err);
	else
		printf("wrote %s\n", path);
#else
	(void)rgba;
	(void)w;
	(void)h;
	printf("%s not written: built without libpng\n", path);
#endif
}

int main(int argc, char **argv)
{
	const char *model = NULL;
	bool functional = false;
	bool wrong = false;   /* the test of the comparison: a CPU frame with the light moved must differ */
	int npos = 0;
	const char *pos[5] = { 0 };
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--functional"))
			functional = true;
		else if (!strcmp(argv[i], "--wrong-reference"))
			wrong = true;
		else if (npos < 5)
			pos[npos++] = argv[i];
	}
	if (npos < 4) {
		fprintf(stderr, "usage: rays_scene LIBRARY.co OUT.png WIDTH HEIGHT [MODEL] [--functional] [--wrong-reference]\n");
		return 2;
	}
	uint32_t w = (uint32_t)atoi(pos[2]), h = (uint32_t)atoi(pos[3]);
	model = npos > 4 ? pos[4] : NULL;
	if (!w || !h) {
		fprintf(stderr, "bad size\n");
		return 2;
	}
	scene sc;
	scene_blas mb;
	double t0 = now();
	if (model) {
#ifdef SCENE_HAVE_ASSIMP
		char err[256];
		if (scene_load(model, &mb, err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", model, err);
			return 2;
		}
#else
		fprintf(stderr, "built without libassimp: no model files\n");
		return 2;
#endif
	} else if (small_model(&mb)) {
		fprintf(stderr, "out of memory\n");
		return 2;
	}
	if (scene_demo(&sc, &mb, 3)) {
		fprintf(stderr, "scene_demo failed\n");
		return 2;
	}
	uint64_t tris = 0;
	for (uint32_t i = 0; i < sc.instance_count; i++)
		tris += scene_blas_triangles(&sc.blas[sc.instances[i].blas]);
	printf("scene: %s, %u BLAS, %u instances, %llu triangles, %ux%u pixels, %s mode\n",
	       model ? model : "small (a sphere and a cube)", sc.blas_count, sc.instance_count, (unsigned long long)tris, w,
	       h, functional ? "functional" : "timing");

	/* the CPU reference */
	scene_frame cpu;
	scene_accel *acc = scene_accel_build(&sc);
	if (!acc || scene_frame_init(&cpu, w, h)) {
		fprintf(stderr, "out of memory\n");
		return 2;
	}
	float light[3];
	memcpy(light, sc.light, sizeof(light));
	if (wrong)
		sc.light[0] += 3.0f;
	scene_render(&sc, acc, &cpu);
	memcpy(sc.light, light, sizeof(light));
	printf("CPU reference: %.2f s (load, BVH, render)\n", now() - t0);

	gpu g = { 0 };
	XS12_DEVICE_DESC dd = { .Functional = functional, .HangGpuMicroseconds = 0xFFFFFFFFu,
				.HangHostMilliseconds = 0xFFFFFFFFu };
	CHECK(XS12CreateDevice(&dd, &IID_ID3D12Device, (void **)&g.dev));
	CHECK(ID3D12Device_QueryInterface(g.dev, &IID_ID3D12Device5, (void **)&g.dev5));
	D3D12_COMMAND_QUEUE_DESC qd = { .Type = D3D12_COMMAND_LIST_TYPE_COMPUTE };
	CHECK(ID3D12Device_CreateCommandQueue(g.dev, &qd, &IID_ID3D12CommandQueue, (void **)&g.queue));
	CHECK(ID3D12Device_CreateCommandAllocator(g.dev, D3D12_COMMAND_LIST_TYPE_COMPUTE, &IID_ID3D12CommandAllocator,
						  (void **)&g.alloc));
	CHECK(ID3D12Device_CreateCommandList(g.dev, 0, D3D12_COMMAND_LIST_TYPE_COMPUTE, g.alloc, NULL,
					     &IID_ID3D12GraphicsCommandList6, (void **)&g.list));
	CHECK(ID3D12Device_CreateFence(g.dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&g.fence));
	g.event = XS12CreateEvent();

	rays r = { .g = &g, .s = &sc, .w = w, .h = h };
	r.rs = root_signature(g.dev);
	r.local_rs = local_root_signature(g.dev);
	pipeline(&r, pos[0]);
	uint32_t cap = 4;
	for (uint32_t b = 0; b < sc.blas_count; b++)
		cap += 2 * sc.blas[b].mesh_count + 1;
	ID3D12Resource **keep = calloc(cap, sizeof(*keep));
	uint32_t nkeep = 0;
	t0 = now();
	setup(&r, keep, &nkeep);
	printf("upload and acceleration structures: %.2f s\n", now() - t0);

	int status = 0;
	result base;
	render(&r, 0, &base);
	size_t px = (size_t)w * h;
	scene_frame gf;
	if (scene_frame_init(&gf, w, h))
		return 2;
	for (size_t i = 0; i < px; i++) {
		const uint32_t *q = &base.ids[PIXEL_WORDS * i];
		float t;
		memcpy(&t, &q[3], 4);
		gf.pixels[i] = (scene_pixel){ q[0], q[1], q[2], t };
	}
	memcpy(gf.rgba, base.rgba, px * 4);
	scene_diff df = scene_frame_compare(&cpu, &gf);
	uint64_t far = far_ties(&cpu, &gf);
	bool ok = scene_diff_ok(&df) && !far;
	char verdict[200];
	snprintf(verdict, sizeof(verdict), "vs CPU: ids %.3f%% same (%llu not ties), %llu pixels over 1/255 (max %u): %s",
		 100.0 * (double)df.same_ids / (double)df.pixels, (unsigned long long)far, (unsigned long long)df.over_1,
		 df.max_channel, ok ? "match" : "DIFFERENT");
	print_result("DispatchRays", &base, functional, verdict);
	status |= !ok;
	write_png(pos[1], base.rgba, w, h);
	char cpu_png[4096];
	png_name(cpu_png, sizeof(cpu_png), pos[1], "-cpu");
	write_png(cpu_png, cpu.rgba, w, h);

	static const UINT rings[] = { 1, 4, 16, 64 };
	for (size_t i = 0; i < sizeof(rings) / sizeof(rings[0]); i++) {
		result x;
		render(&r, rings[i], &x);
		bool same = !memcmp(x.ids, base.ids, px * PIXEL_WORDS * 4) && !memcmp(x.rgba, base.rgba, px * 4);
		char what[64];
		snprintf(what, sizeof(what), "DispatchRaysX ring %u", rings[i]);
		print_result(what, &x, functional, same ? "identical to DispatchRays" : "DIFFERENT from DispatchRays");
		status |= !same;
		free(x.ids);
		free(x.rgba);
	}
	printf("%s\n", status ? "FAILED: a frame differs" : "every frame matched");

	free(base.ids);
	free(base.rgba);
	scene_frame_free(&gf);
	scene_frame_free(&cpu);
	scene_accel_free(acc);
	for (uint32_t i = 0; i < nkeep; i++)
		ID3D12Resource_Release(keep[i]);
	free(keep);
	ID3D12Resource *res[] = { r.tlas, r.albedo, r.table, r.ids, r.rgba, r.zero, r.rb_ids, r.rb_rgba };
	for (size_t i = 0; i < sizeof(res) / sizeof(res[0]); i++)
		ID3D12Resource_Release(res[i]);
	ID3D12StateObjectProperties_Release(r.props);
	ID3D12StateObject_Release(r.so);
	ID3D12RootSignature_Release(r.rs);
	ID3D12RootSignature_Release(r.local_rs);
	XS12CloseEvent(g.event);
	ID3D12Fence_Release(g.fence);
	ID3D12GraphicsCommandList6_Release(g.list);
	ID3D12CommandAllocator_Release(g.alloc);
	ID3D12CommandQueue_Release(g.queue);
	ID3D12Device5_Release(g.dev5);
	ID3D12Device_Release(g.dev);
	scene_free(&sc);
	return status;
}
