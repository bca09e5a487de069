/*
 * Rejections of the ray-tracing calls at record time (no shader runs):
 * BuildRaytracingAccelerationStructure, EmitRaytracingAcceleration-
 * StructurePostbuildInfo and CopyRaytracingAccelerationStructure against
 * D3D12's rules (256-byte alignment, prebuild sizes, formats, counts) and
 * what xs12 does not build (updates, AABBs); DispatchRays and
 * CreateStateObject without a description. Each: the exact message ID, and
 * Close fails with E_INVALIDARG. The inventory is tests/api/rejections.md.
 */
#include "d3d12_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static void list_rejected(t_ctx *c, XS12_MESSAGE_ID id)
{
	char text[600];
	D3D12_MESSAGE_ID got = t_last_message(c, text, sizeof(text));
	if (got != (D3D12_MESSAGE_ID)id)
		fail_msg("message %d '%s', expected %d", (int)got, text, (int)id);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c->list), E_INVALIDARG);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c->list, c->alloc, NULL), S_OK);
}

typedef struct bufs {
	ID3D12Resource *vb, *dst, *scratch, *info;
	D3D12_GPU_VIRTUAL_ADDRESS vb_va, dst_va, scratch_va, info_va;
} bufs;

static void make_bufs(t_ctx *c, bufs *b, UINT64 dst_bytes)
{
	b->vb = t_buffer(c, D3D12_HEAP_TYPE_DEFAULT, 4096);
	b->dst = t_buffer(c, D3D12_HEAP_TYPE_DEFAULT, dst_bytes);
	b->scratch = t_buffer(c, D3D12_HEAP_TYPE_DEFAULT, 1 << 20);
	b->info = t_buffer(c, D3D12_HEAP_TYPE_DEFAULT, 256);
	b->vb_va = ID3D12Resource_GetGPUVirtualAddress(b->vb);
	b->dst_va = ID3D12Resource_GetGPUVirtualAddress(b->dst);
	b->scratch_va = ID3D12Resource_GetGPUVirtualAddress(b->scratch);
	b->info_va = ID3D12Resource_GetGPUVirtualAddress(b->info);
}

static void free_bufs(bufs *b)
{
	ID3D12Resource_Release(b->info);
	ID3D12Resource_Release(b->scratch);
	ID3D12Resource_Release(b->dst);
	ID3D12Resource_Release(b->vb);
}

/* One triangle of R32G32B32_FLOAT, no indices. */
static D3D12_RAYTRACING_GEOMETRY_DESC triangle(const bufs *b)
{
	return (D3D12_RAYTRACING_GEOMETRY_DESC){
		.Type = D3D12_RAYTRACING_GEOMETRY_TYPE_TRIANGLES,
		.Flags = D3D12_RAYTRACING_GEOMETRY_FLAG_OPAQUE,
		.Triangles = { .VertexFormat = DXGI_FORMAT_R32G32B32_FLOAT, .VertexCount = 3,
			       .VertexBuffer = { b->vb_va, 12 } },
	};
}

static D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC blas(const bufs *b, const D3D12_RAYTRACING_GEOMETRY_DESC *g)
{
	return (D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC){
		.DestAccelerationStructureData = b->dst_va,
		.Inputs = { .Type = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL,
			    .DescsLayout = D3D12_ELEMENTS_LAYOUT_ARRAY, .NumDescs = 1, .pGeometryDescs = g },
		.ScratchAccelerationStructureData = b->scratch_va,
	};
}

static void build_rejects(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	bufs b;
	make_bufs(&c, &b, 1 << 16);
	D3D12_RAYTRACING_GEOMETRY_DESC g = triangle(&b), bad_g;
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC d = blas(&b, &g), bad;
	/* the good build records */
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &d, 0, NULL);
	assert_int_equal(t_last_message(&c, NULL, 0), 0);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK);
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);

#define BUILD(desc, n, infos, id)                                                                       \
	do {                                                                                            \
		ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, (desc), (n), (infos)); \
		list_rejected(&c, (id));                                                                \
	} while (0)
	BUILD(NULL, 0, NULL, XS12_MESSAGE_ID_AS_GEOMETRY);
	bad = d, bad.DestAccelerationStructureData += 128;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_DEST_ALIGN);
	bad = d, bad.DestAccelerationStructureData = 0;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_DEST_ALIGN);
	bad = d, bad.ScratchAccelerationStructureData += 8;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_SCRATCH_ALIGN);
	bad = d, bad.Inputs.Type = (D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE)5;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_GEOMETRY);
	bad = d, bad.Inputs.Flags = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BUILD_FLAG_ALLOW_UPDATE;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_UPDATE);
	bad = d, bad.Inputs.Flags = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BUILD_FLAG_PERFORM_UPDATE;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_UPDATE);
	bad = d, bad.Inputs.pGeometryDescs = NULL;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_GEOMETRY);
	/* geometries */
	bad = d, bad.Inputs.pGeometryDescs = &bad_g;
	bad_g = g, bad_g.Triangles.VertexFormat = DXGI_FORMAT_R16G16B16A16_FLOAT;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_VERTEX_FORMAT);
	bad_g = g, bad_g.Triangles.IndexFormat = DXGI_FORMAT_R8_UINT, bad_g.Triangles.IndexCount = 3;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_INDEX_FORMAT);
	bad_g = g, bad_g.Type = D3D12_RAYTRACING_GEOMETRY_TYPE_PROCEDURAL_PRIMITIVE_AABBS;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_GEOMETRY);
	bad_g = g, bad_g.Triangles.VertexCount = 4;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_GEOMETRY);
	bad_g = g, bad_g.Triangles.VertexBuffer.StrideInBytes = 8;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_GEOMETRY);
	bad_g = g, bad_g.Triangles.Transform3x4 = b.vb_va + 4;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_GEOMETRY);
	bad_g = g, bad_g.Flags = (D3D12_RAYTRACING_GEOMETRY_FLAGS)0x80;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_GEOMETRY);
	/* a top-level build's instances not 16-byte aligned */
	bad = d, bad.Inputs.Type = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL;
	bad.Inputs.InstanceDescs = b.vb_va + 8;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_INSTANCES);
	/* D3D12's count limits, refused before any geometry is read (the one
	 * desc here stands for 2^24 + 1) and before the sizes are compared */
	bad.Inputs.InstanceDescs = b.vb_va;
	bad.Inputs.NumDescs = D3D12_RAYTRACING_MAX_INSTANCES_PER_TOP_LEVEL_ACCELERATION_STRUCTURE + 1;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_INSTANCES);
	bad = d, bad.Inputs.NumDescs = D3D12_RAYTRACING_MAX_GEOMETRIES_PER_BOTTOM_LEVEL_ACCELERATION_STRUCTURE + 1;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_GEOMETRY);
	bad = d, bad.Inputs.pGeometryDescs = &bad_g;
	bad_g = g, bad_g.Triangles.VertexCount = 3u * (D3D12_RAYTRACING_MAX_PRIMITIVES_PER_BOTTOM_LEVEL_ACCELERATION_STRUCTURE + 1u);
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_GEOMETRY);
	/* postbuild info: misaligned, of a type xs12 does not write, too many */
	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC pi = {
		b.info_va + 4, D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_COMPACTED_SIZE };
	BUILD(&d, 1, &pi, XS12_MESSAGE_ID_AS_POSTBUILD);
	pi.DestBuffer = b.info_va;
	pi.InfoType = (D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_TYPE)9;
	BUILD(&d, 1, &pi, XS12_MESSAGE_ID_AS_POSTBUILD);
	BUILD(&d, 1, NULL, XS12_MESSAGE_ID_AS_POSTBUILD);
	/* too small a destination or scratch, and the two overlapping */
	bufs tiny;
	make_bufs(&c, &tiny, 256);
	bad = d, bad.DestAccelerationStructureData = tiny.dst_va;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_DEST_SIZE);
	/* 100 triangles need more than the last 256 bytes of the scratch buffer */
	bad_g = g, bad_g.Triangles.VertexCount = 300;
	bad = d, bad.Inputs.pGeometryDescs = &bad_g;
	bad.ScratchAccelerationStructureData = b.scratch_va + (1 << 20) - 256;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_SCRATCH_SIZE);
	bad = d, bad.ScratchAccelerationStructureData = bad.DestAccelerationStructureData;
	BUILD(&bad, 0, NULL, XS12_MESSAGE_ID_AS_SCRATCH_SIZE);
#undef BUILD
	free_bufs(&tiny);
	free_bufs(&b);
	t_close(&c);
}

static void postbuild_and_copy_reject(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	bufs b;
	make_bufs(&c, &b, 1 << 16);
	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC pi = {
		b.info_va, D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_CURRENT_SIZE };
	D3D12_GPU_VIRTUAL_ADDRESS src = b.dst_va + 64;
	ID3D12GraphicsCommandList6_EmitRaytracingAccelerationStructurePostbuildInfo(c.list, &pi, 1, &src);
	list_rejected(&c, XS12_MESSAGE_ID_AS_DEST_ALIGN);
	/* DestBuffer holds 8 bytes per source structure: the last 8 bytes of the
	 * 256-byte info buffer take one, not two; 0 (no memory) takes none */
	D3D12_GPU_VIRTUAL_ADDRESS two[2] = { b.dst_va, b.dst_va + 256 };
	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC last = {
		b.info_va + 248, D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_COMPACTED_SIZE };
	ID3D12GraphicsCommandList6_EmitRaytracingAccelerationStructurePostbuildInfo(c.list, &last, 2, two);
	list_rejected(&c, XS12_MESSAGE_ID_AS_POSTBUILD);
	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC none = {
		0, D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_CURRENT_SIZE };
	ID3D12GraphicsCommandList6_EmitRaytracingAccelerationStructurePostbuildInfo(c.list, &none, 1, two);
	list_rejected(&c, XS12_MESSAGE_ID_AS_POSTBUILD);
	ID3D12GraphicsCommandList6_EmitRaytracingAccelerationStructurePostbuildInfo(c.list, &last, 1, two);
	assert_int_equal(ID3D12GraphicsCommandList6_Close(c.list), S_OK); /* one fits */
	assert_int_equal(ID3D12GraphicsCommandList6_Reset(c.list, c.alloc, NULL), S_OK);
	D3D12_RAYTRACING_GEOMETRY_DESC g = triangle(&b);
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC d = blas(&b, &g);
	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC past = {
		b.info_va + 256, D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_COMPACTED_SIZE };
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &d, 1, &past);
	list_rejected(&c, XS12_MESSAGE_ID_AS_POSTBUILD);
	ID3D12GraphicsCommandList6_EmitRaytracingAccelerationStructurePostbuildInfo(c.list, NULL, 1, &src);
	list_rejected(&c, XS12_MESSAGE_ID_AS_POSTBUILD);
	ID3D12GraphicsCommandList6_EmitRaytracingAccelerationStructurePostbuildInfo(c.list, &pi, 1, NULL);
	list_rejected(&c, XS12_MESSAGE_ID_AS_POSTBUILD);

	ID3D12GraphicsCommandList6_CopyRaytracingAccelerationStructure(
		c.list, b.dst_va + 256, b.dst_va + 8, D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE_CLONE);
	list_rejected(&c, XS12_MESSAGE_ID_AS_DEST_ALIGN);
	ID3D12GraphicsCommandList6_CopyRaytracingAccelerationStructure(
		c.list, b.dst_va + 256, b.dst_va, D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE_SERIALIZE);
	list_rejected(&c, XS12_MESSAGE_ID_AS_COPY);
	ID3D12GraphicsCommandList6_CopyRaytracingAccelerationStructure(
		c.list, b.dst_va, b.dst_va, D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE_CLONE);
	list_rejected(&c, XS12_MESSAGE_ID_AS_COPY);
	free_bufs(&b);
	t_close(&c);
}

static void copy_list_takes_no_as_work(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_COPY);
	bufs b;
	make_bufs(&c, &b, 1 << 16);
	D3D12_RAYTRACING_GEOMETRY_DESC g = triangle(&b);
	D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC d = blas(&b, &g);
	ID3D12GraphicsCommandList6_BuildRaytracingAccelerationStructure(c.list, &d, 0, NULL);
	list_rejected(&c, XS12_MESSAGE_ID_AS_LIST_TYPE);
	ID3D12GraphicsCommandList6_CopyRaytracingAccelerationStructure(
		c.list, b.dst_va + 256, b.dst_va, D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE_CLONE);
	list_rejected(&c, XS12_MESSAGE_ID_AS_LIST_TYPE);
	free_bufs(&b);
	t_close(&c);
}

static void rays_and_state_objects_without_descriptions(void **state)
{
	(void)state;
	t_ctx c;
	t_open(&c, true, D3D12_COMMAND_LIST_TYPE_DIRECT);
	ID3D12GraphicsCommandList6_DispatchRays(c.list, NULL);
	list_rejected(&c, XS12_MESSAGE_ID_RAYS_ARGS);
	D3D12_DISPATCH_RAYS_DESC rd = { .Width = 1, .Height = 1, .Depth = 1 };
	ID3D12GraphicsCommandList6_DispatchRays(c.list, &rd); /* no state object set */
	list_rejected(&c, XS12_MESSAGE_ID_RAYS_NO_STATE_OBJECT);
	ID3D12Device5 *d5;
	assert_int_equal(ID3D12Device_QueryInterface(c.dev, &IID_ID3D12Device5, (void **)&d5), S_OK);
	void *so = (void *)1;
	assert_int_equal(ID3D12Device5_CreateStateObject(d5, NULL, &IID_ID3D12StateObject, &so), E_INVALIDARG);
	assert_null(so);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_RTPSO_SUBOBJECT);
	D3D12_STATE_SUBOBJECT sub = { .Type = D3D12_STATE_SUBOBJECT_TYPE_DXIL_LIBRARY, .pDesc = NULL };
	D3D12_STATE_OBJECT_DESC sd = { .Type = D3D12_STATE_OBJECT_TYPE_RAYTRACING_PIPELINE, .NumSubobjects = 1,
				       .pSubobjects = &sub };
	assert_int_equal(ID3D12Device5_CreateStateObject(d5, &sd, &IID_ID3D12StateObject, &so), E_INVALIDARG);
	assert_int_equal(t_last_message(&c, NULL, 0), XS12_MESSAGE_ID_RTPSO_SUBOBJECT);
	ID3D12Device5_Release(d5);
	t_close(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(build_rejects),
		cmocka_unit_test(postbuild_and_copy_reject),
		cmocka_unit_test(copy_list_takes_no_as_work),
		cmocka_unit_test(rays_and_state_objects_without_descriptions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
