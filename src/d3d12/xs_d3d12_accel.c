/*
 * Acceleration structures (ID3D12Device5 and ID3D12GraphicsCommandList4):
 *
 *   GetRaytracingAccelerationStructurePrebuildInfo  upper bounds from the counts
 *   BuildRaytracingAccelerationStructure            bottom level (triangles), top level (instances)
 *   EmitRaytracingAccelerationStructurePostbuildInfo COMPACTED_SIZE, CURRENT_SIZE
 *   CopyRaytracingAccelerationStructure             CLONE, COMPACT
 *
 * Each records a descriptor in the allocator's command memory and an
 * XS_BUILD_AS packet (hw/xs_hw_pm4.h); the CP does the work when it gets
 * there, from what GPU memory holds then (src/gpu/xs_gpu_accel.c), as a
 * driver's build kernels would. The D3D12 rules a call can break here are
 * checked here (docs/d3d12.md, "Acceleration structures").
 */
#include "bvh/xs_bvh.h"
#include "d3d12/xs_d3d12_private.h"
#include "hw/xs_hw_pm4.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AS_ALIGN D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BYTE_ALIGNMENT

static const D3D12_RAYTRACING_GEOMETRY_DESC *geometry(const D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS *in,
						       UINT i)
{
	return in->DescsLayout == D3D12_ELEMENTS_LAYOUT_ARRAY_OF_POINTERS ? in->ppGeometryDescs[i] : &in->pGeometryDescs[i];
}

static uint64_t triangles_of(const D3D12_RAYTRACING_GEOMETRY_DESC *g)
{
	if (!g || g->Type != D3D12_RAYTRACING_GEOMETRY_TYPE_TRIANGLES)
		return 0;
	return g->Triangles.IndexFormat == DXGI_FORMAT_UNKNOWN ? g->Triangles.VertexCount / 3 : g->Triangles.IndexCount / 3;
}

/* From the counts alone (D3D12: the prebuild info may not read the
 * geometry's memory). Scratch: xs12's CP builder works in host memory and
 * touches none; the figure is what a GPU builder of this layout would want
 * for its sort keys (8 bytes a primitive), so titles allocate as they must. */
static D3D12_RAYTRACING_ACCELERATION_STRUCTURE_PREBUILD_INFO
prebuild(const D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS *in)
{
	uint64_t n = 0;
	bool top = in->Type == D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL;
	/* a NULL array with a count (which a build refuses) counts nothing: the
	 * answer is a query's, and must not read through NULL */
	const void *array = in->DescsLayout == D3D12_ELEMENTS_LAYOUT_ARRAY_OF_POINTERS ? (const void *)in->ppGeometryDescs
										       : (const void *)in->pGeometryDescs;
	if (top)
		n = in->NumDescs;
	else
		for (UINT i = 0; array && i < in->NumDescs; i++)
			n += triangles_of(geometry(in, i));
	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_PREBUILD_INFO info;
	info.ResultDataMaxSizeInBytes = XS_ALIGN_UP(xs_bvh_max_size(top ? XS_BVH_TYPE_TOP : XS_BVH_TYPE_BOTTOM, n),
						    (uint64_t)AS_ALIGN);
	info.ScratchDataSizeInBytes = XS_ALIGN_UP(XS_MAX(8 * n, 1u), (uint64_t)AS_ALIGN);
	/* D3D12_RAYTRACING_ACCELERATION_STRUCTURE_PREBUILD_INFO: 0 without ALLOW_UPDATE */
	info.UpdateScratchDataSizeInBytes = in->Flags & D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BUILD_FLAG_ALLOW_UPDATE
						    ? info.ScratchDataSizeInBytes : 0;
	return info;
}

void STDMETHODCALLTYPE d3d12_device_GetRaytracingAccelerationStructurePrebuildInfo(
	ID3D12Device5 *This, const D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS *in,
	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_PREBUILD_INFO *info)
{
	if (in && info)
		*info = prebuild(in);
}

/* Bytes of the allocation holding va from va on (0: none holds it). */
static uint64_t room_at(d3d12_device *d, uint64_t va)
{
	pthread_mutex_lock(&d->rt->lock);
	const xs_vm_alloc_rec *r = xs_vm_find(d->rt->vm, va);
	uint64_t n = r && va >= r->va && va < r->va + r->bytes ? r->va + r->bytes - va : 0;
	pthread_mutex_unlock(&d->rt->lock);
	return n;
}

static bool recording(d3d12_list *l, const char *method)
{
	if (!l->open) {
		d3d12_list_error(l, XS_MSG_LIST_CLOSED, "%s on a closed command list", method);
		return false;
	}
	if (l->type == D3D12_COMMAND_LIST_TYPE_COPY) {
		d3d12_list_error(l, XS_MSG_AS_LIST_TYPE, "%s on a COPY command list: D3D12 takes it on DIRECT and "
				 "COMPUTE lists only", method);
		return false;
	}
	return true;
}

static void put32(uint8_t *p, size_t off, uint32_t v)
{
	memcpy(p + off, &v, 4);
}

static void put64(uint8_t *p, size_t off, uint64_t v)
{
	memcpy(p + off, &v, 8);
}

/* A descriptor of bytes in command memory, and the packet that reads it. */
static uint8_t *descriptor(d3d12_list *l, size_t bytes, uint64_t *va)
{
	uint8_t *host;
	xs_err e;
	if (xs_rt_cmdmem_alloc(&l->allocator->mem, bytes, 8, va, &host, &e)) {
		d3d12_list_error_err(l, &e);
		return NULL;
	}
	return host;
}

/* nresults: the structures whose 8-byte result (COMPACTED_SIZE and
 * CURRENT_SIZE are one UINT64 each) goes to DestBuffer one after another. */
static bool check_postbuild(d3d12_list *l, const char *method, const D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC *p,
			    uint64_t nresults, uint32_t *type)
{
	if (p->DestBuffer % 8) {
		d3d12_list_error(l, XS_MSG_AS_POSTBUILD, "%s: postbuild info DestBuffer 0x%llx is not 8-byte aligned "
				 "(D3D12_RAYTRACING_POSTBUILD_INFO_DESC alignment)", method, (unsigned long long)p->DestBuffer);
		return false;
	}
	/* D3D12: the size DestBuffer needs is the info type's structure for each
	 * source structure; less, and the CP would write past the allocation */
	uint64_t room = room_at(l->obj.device, p->DestBuffer);
	if (room / 8 < nresults) {
		d3d12_list_error(l, XS_MSG_AS_POSTBUILD, "%s: postbuild info DestBuffer 0x%llx has %llu bytes of GPU "
				 "memory, %llu structures' info needs %llu", method, (unsigned long long)p->DestBuffer,
				 (unsigned long long)room, (unsigned long long)nresults, (unsigned long long)(8 * nresults));
		return false;
	}
	switch (p->InfoType) {
	case D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_COMPACTED_SIZE:
		*type = XS_AS_INFO_COMPACTED_SIZE;
		return true;
	case D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_CURRENT_SIZE:
		*type = XS_AS_INFO_CURRENT_SIZE;
		return true;
	default:
		d3d12_list_error(l, XS_MSG_AS_POSTBUILD, "%s: postbuild info type %d: xs12 writes COMPACTED_SIZE and "
				 "CURRENT_SIZE only", method, (int)p->InfoType);
		return false;
	}
}

/* One triangle geometry's D3D12 rules, and those xs12 adds (its formats). */
static bool check_geometry(d3d12_list *l, UINT i, const D3D12_RAYTRACING_GEOMETRY_DESC *g)
{
	if (g->Type != D3D12_RAYTRACING_GEOMETRY_TYPE_TRIANGLES) {
		d3d12_list_error(l, XS_MSG_AS_GEOMETRY, "BuildRaytracingAccelerationStructure: geometry %u is of type %d: "
				 "xs12 builds triangles only (procedural AABBs are not implemented)", i, (int)g->Type);
		return false;
	}
	if (g->Flags & ~(D3D12_RAYTRACING_GEOMETRY_FLAG_OPAQUE | D3D12_RAYTRACING_GEOMETRY_FLAG_NO_DUPLICATE_ANYHIT_INVOCATION)) {
		d3d12_list_error(l, XS_MSG_AS_GEOMETRY, "BuildRaytracingAccelerationStructure: geometry %u: Flags 0x%x", i,
				 (unsigned)g->Flags);
		return false;
	}
	const D3D12_RAYTRACING_GEOMETRY_TRIANGLES_DESC *t = &g->Triangles;
	if (t->VertexFormat != DXGI_FORMAT_R32G32B32_FLOAT) {
		d3d12_list_error(l, XS_MSG_AS_VERTEX_FORMAT, "BuildRaytracingAccelerationStructure: geometry %u: VertexFormat "
				 "%d: xs12 builds DXGI_FORMAT_R32G32B32_FLOAT (%d) only", i, (int)t->VertexFormat,
				 (int)DXGI_FORMAT_R32G32B32_FLOAT);
		return false;
	}
	unsigned isz = t->IndexFormat == DXGI_FORMAT_R16_UINT ? 2 : t->IndexFormat == DXGI_FORMAT_R32_UINT ? 4 : 0;
	if (!isz && t->IndexFormat != DXGI_FORMAT_UNKNOWN) {
		d3d12_list_error(l, XS_MSG_AS_INDEX_FORMAT, "BuildRaytracingAccelerationStructure: geometry %u: IndexFormat "
				 "%d is not DXGI_FORMAT_UNKNOWN, R16_UINT or R32_UINT", i, (int)t->IndexFormat);
		return false;
	}
	const char *why = NULL;
	if (isz && t->IndexCount % 3)
		why = "IndexCount is not a multiple of 3";
	else if (!isz && t->VertexCount % 3)
		why = "with no index buffer, VertexCount is not a multiple of 3";
	else if (isz && t->IndexCount && t->IndexBuffer % isz)
		why = "IndexBuffer is not aligned to its index size";
	else if (t->VertexBuffer.StrideInBytes % 4 || (t->VertexCount && t->VertexBuffer.StrideInBytes < 12))
		why = "VertexBuffer.StrideInBytes is not a multiple of 4 (the component size) of at least 12";
	else if (t->VertexBuffer.StartAddress % 4)
		why = "VertexBuffer.StartAddress is not 4-byte aligned (the component size)";
	else if (t->Transform3x4 % D3D12_RAYTRACING_TRANSFORM3X4_BYTE_ALIGNMENT)
		why = "Transform3x4 is not 16-byte aligned (D3D12_RAYTRACING_TRANSFORM3X4_BYTE_ALIGNMENT)";
	else if (t->VertexBuffer.StrideInBytes > UINT32_MAX)
		why = "VertexBuffer.StrideInBytes is over 2^32";
	if (why) {
		d3d12_list_error(l, XS_MSG_AS_GEOMETRY, "BuildRaytracingAccelerationStructure: geometry %u: %s (IndexCount "
				 "%u, VertexCount %u, stride %llu)", i, why, t->IndexCount, t->VertexCount,
				 (unsigned long long)t->VertexBuffer.StrideInBytes);
		return false;
	}
	return true;
}

void STDMETHODCALLTYPE d3d12_list_BuildRaytracingAccelerationStructure(
	ID3D12GraphicsCommandList6 *This, const D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC *desc, UINT ninfo,
	const D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC *infos)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	const char *M = "BuildRaytracingAccelerationStructure";
	if (!recording(l, M))
		return;
	d3d12_device *d = l->obj.device;
	if (!desc) {
		d3d12_list_error(l, XS_MSG_AS_GEOMETRY, "%s: a NULL description", M);
		return;
	}
	const D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS *in = &desc->Inputs;
	bool top = in->Type == D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL;
	const unsigned known = D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BUILD_FLAG_ALLOW_UPDATE |
			       D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BUILD_FLAG_ALLOW_COMPACTION |
			       D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BUILD_FLAG_PREFER_FAST_TRACE |
			       D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BUILD_FLAG_PREFER_FAST_BUILD |
			       D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BUILD_FLAG_MINIMIZE_MEMORY |
			       D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BUILD_FLAG_PERFORM_UPDATE;
	if (!top && in->Type != D3D12_RAYTRACING_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL) {
		d3d12_list_error(l, XS_MSG_AS_GEOMETRY, "%s: Inputs.Type %d", M, (int)in->Type);
		return;
	}
	if (in->Flags & ~known || (in->DescsLayout != D3D12_ELEMENTS_LAYOUT_ARRAY &&
				   in->DescsLayout != D3D12_ELEMENTS_LAYOUT_ARRAY_OF_POINTERS)) {
		d3d12_list_error(l, XS_MSG_AS_GEOMETRY, "%s: Inputs.Flags 0x%x or DescsLayout %d", M, (unsigned)in->Flags,
				 (int)in->DescsLayout);
		return;
	}
	/* the builder makes a new structure every time: no refits */
	if (in->Flags & (D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BUILD_FLAG_ALLOW_UPDATE |
			 D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BUILD_FLAG_PERFORM_UPDATE)) {
		d3d12_list_error(l, XS_MSG_AS_UPDATE, "%s: Inputs.Flags 0x%x: ALLOW_UPDATE and PERFORM_UPDATE are not "
				 "implemented (xs12 does not refit); build again instead", M, (unsigned)in->Flags);
		return;
	}
	if (desc->DestAccelerationStructureData % AS_ALIGN || !desc->DestAccelerationStructureData) {
		d3d12_list_error(l, XS_MSG_AS_DEST_ALIGN, "%s: DestAccelerationStructureData 0x%llx is not 256-byte aligned "
				 "(D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BYTE_ALIGNMENT)", M,
				 (unsigned long long)desc->DestAccelerationStructureData);
		return;
	}
	if (desc->ScratchAccelerationStructureData % AS_ALIGN || !desc->ScratchAccelerationStructureData) {
		d3d12_list_error(l, XS_MSG_AS_SCRATCH_ALIGN, "%s: ScratchAccelerationStructureData 0x%llx is not 256-byte "
				 "aligned (D3D12_RAYTRACING_ACCELERATION_STRUCTURE_BYTE_ALIGNMENT)", M,
				 (unsigned long long)desc->ScratchAccelerationStructureData);
		return;
	}
	if (top && (in->DescsLayout == D3D12_ELEMENTS_LAYOUT_ARRAY ? in->InstanceDescs % D3D12_RAYTRACING_INSTANCE_DESCS_BYTE_ALIGNMENT
								   : in->InstanceDescs % 8)) {
		d3d12_list_error(l, XS_MSG_AS_INSTANCES, "%s: InstanceDescs 0x%llx is not %u-byte aligned", M,
				 (unsigned long long)in->InstanceDescs,
				 in->DescsLayout == D3D12_ELEMENTS_LAYOUT_ARRAY ? D3D12_RAYTRACING_INSTANCE_DESCS_BYTE_ALIGNMENT : 8);
		return;
	}
	if (!top && in->NumDescs && !(in->DescsLayout == D3D12_ELEMENTS_LAYOUT_ARRAY ? (const void *)in->pGeometryDescs
											 : (const void *)in->ppGeometryDescs)) {
		d3d12_list_error(l, XS_MSG_AS_GEOMETRY, "%s: %u geometry descs at NULL", M, in->NumDescs);
		return;
	}
	/* D3D12's limits on the counts (d3d12.h): beyond them a structure's
	 * sizes and the builder's counters would not be what the title sized */
	if (in->NumDescs > (top ? D3D12_RAYTRACING_MAX_INSTANCES_PER_TOP_LEVEL_ACCELERATION_STRUCTURE
				: D3D12_RAYTRACING_MAX_GEOMETRIES_PER_BOTTOM_LEVEL_ACCELERATION_STRUCTURE)) {
		d3d12_list_error(l, top ? XS_MSG_AS_INSTANCES : XS_MSG_AS_GEOMETRY, "%s: %u %s: D3D12 allows at most %u", M,
				 in->NumDescs, top ? "instances" : "geometries",
				 top ? D3D12_RAYTRACING_MAX_INSTANCES_PER_TOP_LEVEL_ACCELERATION_STRUCTURE
				     : D3D12_RAYTRACING_MAX_GEOMETRIES_PER_BOTTOM_LEVEL_ACCELERATION_STRUCTURE);
		return;
	}
	uint64_t prims = 0;
	for (UINT i = 0; !top && i < in->NumDescs; i++) {
		if (!geometry(in, i)) {
			d3d12_list_error(l, XS_MSG_AS_GEOMETRY, "%s: ppGeometryDescs[%u] is NULL", M, i);
			return;
		}
		if (!check_geometry(l, i, geometry(in, i)))
			return;
		prims += triangles_of(geometry(in, i));
	}
	if (prims > D3D12_RAYTRACING_MAX_PRIMITIVES_PER_BOTTOM_LEVEL_ACCELERATION_STRUCTURE) {
		d3d12_list_error(l, XS_MSG_AS_GEOMETRY, "%s: %llu triangles in %u geometries: D3D12 allows at most %u", M,
				 (unsigned long long)prims, in->NumDescs,
				 D3D12_RAYTRACING_MAX_PRIMITIVES_PER_BOTTOM_LEVEL_ACCELERATION_STRUCTURE);
		return;
	}
	D3D12_RAYTRACING_ACCELERATION_STRUCTURE_PREBUILD_INFO pi = prebuild(in);
	uint64_t dst = desc->DestAccelerationStructureData, scratch = desc->ScratchAccelerationStructureData;
	uint64_t room = room_at(d, dst), sroom = room_at(d, scratch);
	if (room < pi.ResultDataMaxSizeInBytes) {
		d3d12_list_error(l, XS_MSG_AS_DEST_SIZE, "%s: DestAccelerationStructureData 0x%llx has %llu bytes of GPU "
				 "memory, the prebuild info's ResultDataMaxSizeInBytes is %llu", M, (unsigned long long)dst,
				 (unsigned long long)room, (unsigned long long)pi.ResultDataMaxSizeInBytes);
		return;
	}
	if (sroom < pi.ScratchDataSizeInBytes) {
		d3d12_list_error(l, XS_MSG_AS_SCRATCH_SIZE, "%s: ScratchAccelerationStructureData 0x%llx has %llu bytes of "
				 "GPU memory, the prebuild info's ScratchDataSizeInBytes is %llu", M,
				 (unsigned long long)scratch, (unsigned long long)sroom, (unsigned long long)pi.ScratchDataSizeInBytes);
		return;
	}
	if (dst < scratch + pi.ScratchDataSizeInBytes && scratch < dst + pi.ResultDataMaxSizeInBytes) {
		d3d12_list_error(l, XS_MSG_AS_SCRATCH_SIZE, "%s: the destination and the scratch overlap", M);
		return;
	}
	uint32_t types[64];
	if (ninfo > XS_ARRAY_SIZE(types) || (ninfo && !infos)) {
		d3d12_list_error(l, XS_MSG_AS_POSTBUILD, "%s: %u postbuild info descs (xs12 takes up to %zu)", M, ninfo,
				 XS_ARRAY_SIZE(types));
		return;
	}
	for (UINT i = 0; i < ninfo; i++)
		if (!check_postbuild(l, M, &infos[i], 1, &types[i]))
			return;
	size_t ngeom = top ? 0 : in->NumDescs;
	size_t bytes = XS_AS_BUILD_BYTES + ngeom * XS_AS_GEOM_BYTES + (size_t)ninfo * XS_AS_INFO_BYTES;
	uint64_t va;
	uint8_t *p = descriptor(l, bytes, &va);
	if (!p)
		return;
	put32(p, 0, top ? XS_BVH_TYPE_TOP : XS_BVH_TYPE_BOTTOM);
	put32(p, 4, in->Flags);
	put32(p, 8, in->NumDescs);
	put32(p, 12, top && in->DescsLayout == D3D12_ELEMENTS_LAYOUT_ARRAY_OF_POINTERS ? XS_AS_LAYOUT_POINTERS
											: XS_AS_LAYOUT_ARRAY);
	put64(p, 16, dst);
	put64(p, 24, pi.ResultDataMaxSizeInBytes);
	put64(p, 32, top ? in->InstanceDescs : 0);
	put64(p, 40, scratch);
	put32(p, 48, ninfo);
	for (size_t i = 0; i < ngeom; i++) {
		const D3D12_RAYTRACING_GEOMETRY_DESC *g = geometry(in, (UINT)i);
		const D3D12_RAYTRACING_GEOMETRY_TRIANGLES_DESC *t = &g->Triangles;
		uint8_t *q = p + XS_AS_BUILD_BYTES + i * XS_AS_GEOM_BYTES;
		put32(q, 0, g->Flags);
		put32(q, 4, t->IndexFormat == DXGI_FORMAT_R16_UINT ? XS_AS_INDEX_U16
			    : t->IndexFormat == DXGI_FORMAT_R32_UINT ? XS_AS_INDEX_U32 : XS_AS_INDEX_NONE);
		put32(q, 8, t->IndexFormat == DXGI_FORMAT_UNKNOWN ? 0 : t->IndexCount);
		put32(q, 12, t->VertexCount);
		put64(q, 16, t->IndexFormat == DXGI_FORMAT_UNKNOWN ? 0 : t->IndexBuffer);
		put64(q, 24, t->VertexBuffer.StartAddress);
		put64(q, 32, t->VertexBuffer.StrideInBytes);
		put64(q, 40, t->Transform3x4);
		d3d12_list_use(l, t->VertexBuffer.StartAddress);
		d3d12_list_use(l, t->IndexBuffer);
		d3d12_list_use(l, t->Transform3x4);
	}
	for (UINT i = 0; i < ninfo; i++) {
		uint8_t *q = p + bytes - (size_t)(ninfo - i) * XS_AS_INFO_BYTES;
		put64(q, 0, infos[i].DestBuffer);
		put32(q, 8, types[i]);
		d3d12_list_use(l, infos[i].DestBuffer);
	}
	d3d12_list_use(l, dst);
	d3d12_list_use(l, scratch);
	if (top)
		d3d12_list_use(l, in->InstanceDescs);
	xs_pm4_xs_build_as(&l->pm4, XS_AS_OP_BUILD, va, (uint32_t)bytes);
	/* after the packet: DRED counts the op done when its work is */
	d3d12_list_breadcrumb(l, D3D12_AUTO_BREADCRUMB_OP_BUILDRAYTRACINGACCELERATIONSTRUCTURE);
}

void STDMETHODCALLTYPE d3d12_list_EmitRaytracingAccelerationStructurePostbuildInfo(
	ID3D12GraphicsCommandList6 *This, const D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC *desc, UINT n,
	const D3D12_GPU_VIRTUAL_ADDRESS *src)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	const char *M = "EmitRaytracingAccelerationStructurePostbuildInfo";
	if (!recording(l, M))
		return;
	uint32_t type;
	if (!desc || (n && !src)) {
		d3d12_list_error(l, XS_MSG_AS_POSTBUILD, "%s: a NULL description or source array", M);
		return;
	}
	if (!check_postbuild(l, M, desc, n, &type))
		return;
	for (UINT i = 0; i < n; i++)
		if (src[i] % AS_ALIGN || !src[i]) {
			d3d12_list_error(l, XS_MSG_AS_DEST_ALIGN, "%s: source %u, 0x%llx, is not 256-byte aligned", M, i,
					 (unsigned long long)src[i]);
			return;
		}
	if (!n)
		return;
	size_t bytes = XS_AS_POSTBUILD_BYTES + 8 * (size_t)n;
	uint64_t va;
	uint8_t *p = descriptor(l, bytes, &va);
	if (!p)
		return;
	put64(p, 0, desc->DestBuffer);
	put32(p, 8, type);
	put32(p, 16, n);
	memcpy(p + XS_AS_POSTBUILD_BYTES, src, 8 * (size_t)n);
	d3d12_list_use(l, desc->DestBuffer);
	xs_pm4_xs_build_as(&l->pm4, XS_AS_OP_POSTBUILD, va, (uint32_t)bytes);
	/* after the packet: DRED counts the op done when its work is */
	d3d12_list_breadcrumb(l, D3D12_AUTO_BREADCRUMB_OP_EMITRAYTRACINGACCELERATIONSTRUCTUREPOSTBUILDINFO);
}

void STDMETHODCALLTYPE d3d12_list_CopyRaytracingAccelerationStructure(ID3D12GraphicsCommandList6 *This,
								      D3D12_GPU_VIRTUAL_ADDRESS dst, D3D12_GPU_VIRTUAL_ADDRESS src,
								      D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE mode)
{
	d3d12_list *l = d3d12_list_from_iface(This);
	const char *M = "CopyRaytracingAccelerationStructure";
	if (!recording(l, M))
		return;
	if (dst % AS_ALIGN || src % AS_ALIGN || !dst || !src) {
		d3d12_list_error(l, XS_MSG_AS_DEST_ALIGN, "%s: DestAccelerationStructureData 0x%llx or "
				 "SourceAccelerationStructureData 0x%llx is not 256-byte aligned", M, (unsigned long long)dst,
				 (unsigned long long)src);
		return;
	}
	if (mode != D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE_CLONE &&
	    mode != D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE_COMPACT) {
		d3d12_list_error(l, XS_MSG_AS_COPY, "%s: Mode %d: xs12 copies with CLONE and COMPACT only", M, (int)mode);
		return;
	}
	if (dst == src) {
		d3d12_list_error(l, XS_MSG_AS_COPY, "%s: the source and the destination are both 0x%llx", M,
				 (unsigned long long)dst);
		return;
	}
	uint64_t va;
	uint8_t *p = descriptor(l, XS_AS_COPY_BYTES, &va);
	if (!p)
		return;
	put32(p, 0, mode == D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE_COMPACT ? XS_AS_COPY_COMPACT
										      : XS_AS_COPY_CLONE);
	put64(p, 8, dst);
	put64(p, 16, src);
	d3d12_list_use(l, dst);
	d3d12_list_use(l, src);
	xs_pm4_xs_build_as(&l->pm4, XS_AS_OP_COPY, va, XS_AS_COPY_BYTES);
	/* after the packet: DRED counts the op done when its work is */
	d3d12_list_breadcrumb(l, D3D12_AUTO_BREADCRUMB_OP_COPYRAYTRACINGACCELERATIONSTRUCTURE);
}
