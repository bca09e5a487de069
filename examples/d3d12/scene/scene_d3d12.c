/*
 * scene_d3d12.c — the scene as D3D12 writes it into upload buffers: one
 * D3D12_RAYTRACING_GEOMETRY_DESC per mesh (triangles, opaque, float3
 * positions, 32-bit indices) and one D3D12_RAYTRACING_INSTANCE_DESC per
 * instance. Only the structures of DirectX-Headers' d3d12.h are used.
 */
#include <xs12/d3d12_xs.h>

#include "scene.h"

#include <string.h>

void scene_geometry_desc(const scene_mesh *m, uint64_t vertex_va, uint64_t index_va,
			 struct D3D12_RAYTRACING_GEOMETRY_DESC *out)
{
	memset(out, 0, sizeof(*out));
	out->Type = D3D12_RAYTRACING_GEOMETRY_TYPE_TRIANGLES;
	/* opaque: no any-hit shader runs, as in the CPU renderer */
	out->Flags = D3D12_RAYTRACING_GEOMETRY_FLAG_OPAQUE;
	out->Triangles.IndexFormat = DXGI_FORMAT_R32_UINT;
	out->Triangles.VertexFormat = DXGI_FORMAT_R32G32B32_FLOAT;
	out->Triangles.IndexCount = 3 * m->triangle_count;
	out->Triangles.VertexCount = m->vertex_count;
	out->Triangles.IndexBuffer = index_va;
	out->Triangles.VertexBuffer.StartAddress = vertex_va;
	out->Triangles.VertexBuffer.StrideInBytes = 3 * sizeof(float);
}

void scene_instance_descs(const scene *s, const uint64_t *blas_va, struct D3D12_RAYTRACING_INSTANCE_DESC *out)
{
	for (uint32_t i = 0; i < s->instance_count; i++) {
		const scene_instance *in = &s->instances[i];
		D3D12_RAYTRACING_INSTANCE_DESC *d = &out[i];
		memset(d, 0, sizeof(*d));
		memcpy(d->Transform, in->transform, sizeof(d->Transform));
		d->InstanceID = in->instance_id & 0xFFFFFFu;
		d->InstanceMask = in->mask;
		d->InstanceContributionToHitGroupIndex = 0;
		d->Flags = in->flags;
		d->AccelerationStructure = blas_va[in->blas];
	}
}
