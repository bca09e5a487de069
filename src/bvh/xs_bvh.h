/*
 * Acceleration structures: the host builder the command processor runs for
 * BuildRaytracingAccelerationStructure (src/gpu/xs_gpu_accel.c), and the
 * memory layout it writes, the RDNA2 node layout of the open drivers (Mesa
 * RADV src/amd/vulkan/bvh/bvh.h) behind a header of xs12's
 * (docs/hardware.md section 11). Pure C: no API types; everything a build
 * needs comes in as arrays, everything it makes goes out as bytes.
 *
 * Node pointers are (byte offset from the BVH base >> 3) | type, the BVH
 * base being the root node's address (the structure's + the header's root
 * offset, RADV's bvh_offset), so the root is XS_BVH_ROOT_PTR, as RADV's
 * RADV_BVH_ROOT_NODE: a structure can be copied anywhere (CLONE, COMPACT).
 * Only an instance node's bvh_ptr is absolute: the address of its BLAS's root.
 */
#ifndef XS_BVH_H
#define XS_BVH_H
#include "common/xs_common.h"
#include <stddef.h>
#include <stdint.h>

/* Node types, the low 3 bits of a node pointer (RADV's radv_bvh_node_*). */
#define XS_BVH_NODE_TRIANGLE 0
#define XS_BVH_NODE_BOX16 4
#define XS_BVH_NODE_BOX32 5
#define XS_BVH_NODE_INSTANCE 6
#define XS_BVH_NODE_AABB 7
#define XS_BVH_INVALID 0xFFFFFFFFu
#define XS_BVH_PTR(offset, type) ((uint32_t)((offset) >> 3) | (type))
#define XS_BVH_PTR_OFFSET(ptr) ((uint64_t)((ptr) & ~7u) << 3)
#define XS_BVH_PTR_TYPE(ptr) ((ptr) & 7u)
#define XS_BVH_ROOT_PTR XS_BVH_NODE_BOX32 /* offset 0 from the BVH base */

#define XS_BVH_ALIGN 64           /* nodes are 64-byte aligned: 3 pointer bits free for the type */
#define XS_BVH_HEADER_BYTES 128
#define XS_BVH_BOX32_BYTES 128
#define XS_BVH_TRIANGLE_BYTES 64
#define XS_BVH_INSTANCE_BYTES 128
#define XS_BVH_MAGIC 0x53415358u  /* "XSAS" */
#define XS_BVH_VERSION 1u

/* Header (byte offsets; docs/hardware.md section 11). */
#define XS_BVH_HDR_ROOT_OFFSET 0   /* u32: byte offset of the root box32 node: the BVH base */
#define XS_BVH_HDR_TYPE 4          /* u32: 0 bottom level, 1 top level */
#define XS_BVH_HDR_AABB 8          /* float[6]: min xyz, max xyz of everything (zeros when empty) */
#define XS_BVH_HDR_COMPACTED 32    /* u64: bytes a COMPACT copy needs */
#define XS_BVH_HDR_SIZE 40         /* u64: bytes in use (CURRENT_SIZE) */
#define XS_BVH_HDR_PRIMS 48        /* u32: leaves (active triangles or instances) */
#define XS_BVH_HDR_BOXES 52        /* u32: box32 nodes */
#define XS_BVH_HDR_GEOMETRIES 56   /* u32: geometry descs (BLAS) or instance descs (TLAS) given */
#define XS_BVH_HDR_FLAGS 60        /* u32: the build flags given */
#define XS_BVH_HDR_MAGIC 64        /* u32: XS_BVH_MAGIC */
#define XS_BVH_HDR_VERSION 68      /* u32: XS_BVH_VERSION */
#define XS_BVH_HDR_LEAF_OFFSET 72  /* u32: byte offset of the first leaf node (from the structure's start) */

#define XS_BVH_TYPE_BOTTOM 0u
#define XS_BVH_TYPE_TOP 1u

/* triangle node's geometry_id_and_flags: geometry index in bits 0-27,
 * flags in 28-31 (bit 31 opaque, as RADV_GEOMETRY_OPAQUE). */
#define XS_BVH_GEOMETRY_OPAQUE (1u << 31)
#define XS_BVH_GEOMETRY_NO_DUPLICATE_ANYHIT (1u << 30)
#define XS_BVH_GEOMETRY_INDEX_MAX 0x0FFFFFFFu

typedef struct xs_bvh_box {
	float lo[3], hi[3];
} xs_bvh_box;

/* A triangle of a bottom-level build, in object space (transform applied). */
typedef struct xs_bvh_triangle {
	float v[3][3];
	uint32_t triangle_id;      /* index within its geometry (PrimitiveIndex()) */
	uint32_t geometry_flags;   /* geometry index | XS_BVH_GEOMETRY_* */
} xs_bvh_triangle;

/* An instance of a top-level build. */
typedef struct xs_bvh_instance {
	float otw[12];             /* object to world, row-major 3x4 (D3D12's Transform) */
	uint32_t custom_and_mask;  /* InstanceID (24) | InstanceMask << 24 */
	uint32_t sbt_and_flags;    /* InstanceContributionToHitGroupIndex (24) | Flags << 24 */
	uint32_t instance_id;      /* index in the instance array (InstanceIndex()) */
	uint64_t blas_va;          /* the BLAS's base address */
	uint32_t blas_root;        /* its header's root offset */
	xs_bvh_box blas_box;       /* its header's AABB, object space */
} xs_bvh_instance;

/* What a build came to (the bench and the tests report them). */
typedef struct xs_bvh_stats {
	uint32_t box_nodes, leaves, depth;
	double sah_cost;           /* sum over nodes of SA(node)/SA(root), boxes and leaves cost 1 each */
	uint64_t bytes;
} xs_bvh_stats;

/* Upper bounds from the primitive count alone (GetRaytracingAcceleration-
 * StructurePrebuildInfo): every internal node has min(4, primitives) children,
 * so a tree of n leaves has at most (2n + 1) / 3 + 1 box nodes. */
uint64_t xs_bvh_max_box_nodes(uint64_t nprims);
uint64_t xs_bvh_max_size(unsigned type, uint64_t nprims);

/* Builds into out (cap bytes, 64-byte aligned by the caller's address):
 * binned SAH, 4-wide. Fails only for a lack of room or host memory.
 * flags and ngeom are recorded in the header. */
xs_status xs_bvh_build_triangles(const xs_bvh_triangle *t, uint32_t n, uint32_t ngeom, uint32_t flags, uint8_t *out,
				 size_t cap, xs_bvh_stats *st, xs_err *e);
xs_status xs_bvh_build_instances(const xs_bvh_instance *in, uint32_t n, uint32_t ndesc, uint32_t flags, uint8_t *out,
				 size_t cap, xs_bvh_stats *st, xs_err *e);

/* The 3x4 affine inverse (world to object); false for a singular matrix
 * (then out is zero). */
bool xs_bvh_invert_3x4(const float m[12], float out[12]);
/* The box of box b under the affine 3x4 m. */
xs_bvh_box xs_bvh_transform_box(const float m[12], const xs_bvh_box *b);

#endif
