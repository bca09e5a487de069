/*
 * xs12's ray-tracing ABI: what a ray-tracing pipeline's code object and the
 * driver share (docs/d3d12.md, "Ray-tracing pipelines from code objects";
 * SPEC S2). Included by HIP device code (the shaders) and by the host C of
 * the driver (src/d3d12/xs_d3d12_rtpso.c, xs_d3d12_command_rays.c): the
 * structures below are one layout for both, checked by the static asserts
 * at the end of the layout part.
 *
 * A pipeline's shaders are HIP device functions with C linkage
 * (XS12_RT_SHADER), called indirectly through shader identifiers; the code
 * object also holds one entry kernel (XS12_RT_ENTRY) that DispatchRays
 * launches in groups of 8 x 4 x 1 lanes of wave32. Its only argument points
 * at the dispatch block (xs12_rt_dispatch) the driver writes into command
 * memory at DispatchRays. Each lane reads the ray-generation record's
 * identifier from GPU memory when it runs and calls its function with a
 * per-lane context (xs12_rt_ctx).
 */
#ifndef XS12_RT_H
#define XS12_RT_H

#include <stdint.h>

/* ---- the layout shared with the driver ---------------------------------------- */

#define XS12_RT_SHADER_ID_SIZE 32          /* D3D12_SHADER_IDENTIFIER_SIZE_IN_BYTES */
#define XS12_RT_MAX_GLOBAL_PARAMS 64       /* root parameters of the global root signature */
#define XS12_RT_GROUP_X 8                  /* the entry kernel's group: 8 x 4 x 1, one wave32 */
#define XS12_RT_GROUP_Y 4

/* xs12_rt_shader_id.kind */
#define XS12_RT_KIND_FUNCTION 1u           /* ray generation, miss or callable: one function */
#define XS12_RT_KIND_HIT_GROUP 2u          /* closest hit, any hit, intersection */

/* A shader identifier, the first 32 bytes of every shader record: GPU
 * virtual addresses of functions (load address + the ELF symbol's value). */
typedef struct xs12_rt_shader_id {
	uint64_t function;                 /* the function; a hit group's closest hit (0: none) */
	uint64_t any_hit;                  /* hit groups: 0 = none */
	uint64_t intersection;             /* hit groups (procedural): 0 = none */
	uint32_t kind;                     /* XS12_RT_KIND_* */
	uint32_t reserved;                 /* 0 */
} xs12_rt_shader_id;

/* D3D12_GPU_VIRTUAL_ADDRESS_RANGE_AND_STRIDE */
typedef struct xs12_rt_table {
	uint64_t start, size, stride;
} xs12_rt_table;

/* The dispatch block: D3D12_DISPATCH_RAYS_DESC, the pipeline's
 * configuration and the global root arguments, parameter i at byte
 * global_offset[i] from the block's start (a root view is its 8-byte GPU
 * virtual address, 32-bit constants their values). */
typedef struct xs12_rt_dispatch {
	uint32_t width, height, depth;
	uint32_t max_recursion;            /* RAYTRACING_PIPELINE_CONFIG.MaxTraceRecursionDepth */
	uint64_t raygen_start, raygen_size;
	xs12_rt_table miss, hit, callable;
	uint32_t max_payload_size, max_attribute_size; /* RAYTRACING_SHADER_CONFIG */
	uint32_t num_global, reserved;
	uint32_t global_offset[XS12_RT_MAX_GLOBAL_PARAMS];
	/* the global root arguments follow */
} xs12_rt_dispatch;

#ifdef __cplusplus
#define XS12_RT_ASSERT(c, m) static_assert(c, m)
#else
#define XS12_RT_ASSERT(c, m) _Static_assert(c, m)
#endif
XS12_RT_ASSERT(sizeof(xs12_rt_shader_id) == XS12_RT_SHADER_ID_SIZE, "a shader identifier is 32 bytes");
XS12_RT_ASSERT(sizeof(xs12_rt_table) == 24, "D3D12_GPU_VIRTUAL_ADDRESS_RANGE_AND_STRIDE");
XS12_RT_ASSERT(__builtin_offsetof(xs12_rt_dispatch, raygen_start) == 16, "block layout");
XS12_RT_ASSERT(__builtin_offsetof(xs12_rt_dispatch, miss) == 32, "block layout");
XS12_RT_ASSERT(__builtin_offsetof(xs12_rt_dispatch, max_payload_size) == 104, "block layout");
XS12_RT_ASSERT(__builtin_offsetof(xs12_rt_dispatch, global_offset) == 120, "block layout");
XS12_RT_ASSERT(sizeof(xs12_rt_dispatch) == 376, "block layout");

/* ---- device code (HIP) --------------------------------------------------------- */

#if defined(__HIP__)

/* What each shader function gets: its dispatch, its lane's index, the
 * record (identifier + local root arguments) it was called through. */
typedef struct xs12_rt_ctx {
	const xs12_rt_dispatch *dispatch;
	const unsigned char *record;       /* the shader record being executed */
	uint32_t index[3];                 /* DispatchRaysIndex */
	uint32_t depth;                    /* calls through records below the ray generation (CallShader, miss) */
} xs12_rt_ctx;

typedef void (*xs12_rt_raygen_fn)(xs12_rt_ctx *ctx);
typedef void (*xs12_rt_miss_fn)(xs12_rt_ctx *ctx, void *payload);
typedef void (*xs12_rt_callable_fn)(xs12_rt_ctx *ctx, void *params);

/* A shader: C linkage (its ELF symbol is the export name), kept although
 * nothing calls it directly, never inlined (it is called through a pointer). */
#define XS12_RT_SHADER extern "C" __device__ __attribute__((used, noinline))

static __device__ inline uint32_t xs12_rt_index(const xs12_rt_ctx *c, int dim) /* DispatchRaysIndex()[dim] */
{
	return c->index[dim];
}
static __device__ inline uint32_t xs12_rt_dimensions(const xs12_rt_ctx *c, int dim) /* DispatchRaysDimensions() */
{
	return dim == 0 ? c->dispatch->width : dim == 1 ? c->dispatch->height : c->dispatch->depth;
}
/* The local root arguments: the bytes of the shader record after its identifier. */
static __device__ inline const void *xs12_rt_local(const xs12_rt_ctx *c)
{
	return c->record + XS12_RT_SHADER_ID_SIZE;
}
/* Global root parameter i: its bytes in the dispatch block. */
static __device__ inline const void *xs12_rt_global(const xs12_rt_ctx *c, unsigned i)
{
	return (const unsigned char *)c->dispatch + c->dispatch->global_offset[i];
}
/* A global root view (UAV, SRV, CBV) as a pointer. */
#define XS12_RT_GLOBAL_PTR(ctx, i, T) (*(T *const *)xs12_rt_global((ctx), (i)))
#define XS12_RT_LOCAL_PTR(ctx, offset, T) (*(T *const *)((const unsigned char *)xs12_rt_local(ctx) + (offset)))

/* Calls the shader of record `index` of a table through its identifier,
 * read from GPU memory now; a null identifier does nothing (as D3D12's null
 * miss shader). */
static __device__ inline void xs12_rt_call_record(xs12_rt_ctx *c, const xs12_rt_table *t, uint32_t index, void *arg)
{
	const unsigned char *rec = (const unsigned char *)(uintptr_t)(t->start + (uint64_t)index * t->stride);
	const xs12_rt_shader_id *id = (const xs12_rt_shader_id *)rec;
	uint64_t fn = id->function;
	if (!fn)
		return;
	xs12_rt_ctx sub = *c;
	sub.record = rec;
	sub.depth = c->depth + 1;
	((xs12_rt_callable_fn)(uintptr_t)fn)(&sub, arg);
}
/* The miss shader of the miss table's record `index` (what TraceRay's
 * MissShaderIndex selects), with the payload. */
static __device__ inline void xs12_rt_call_miss(xs12_rt_ctx *c, uint32_t index, void *payload)
{
	xs12_rt_call_record(c, &c->dispatch->miss, index, payload);
}
/* CallShader(index, params): the callable shader of record `index`. */
static __device__ inline void xs12_rt_call_shader(xs12_rt_ctx *c, uint32_t index, void *params)
{
	xs12_rt_call_record(c, &c->dispatch->callable, index, params);
}

/* TraceRay is not there yet: it needs the BVH intersection instructions and
 * acceleration structures. It will go here, as
 *   xs12_rt_trace_ray(ctx, accel, flags, mask, hit_contribution, geometry_multiplier,
 *                     miss_index, ray, payload)
 * traversing the acceleration structure and calling, through the hit
 * table's record hit.start + (hit_contribution + geometry_multiplier *
 * GeometryIndex + InstanceContributionToHitGroupIndex) * hit.stride, the
 * hit group's any hit / closest hit (xs12_rt_shader_id.any_hit, .function),
 * or xs12_rt_call_miss(ctx, miss_index, payload) when nothing is hit. */

/* The entry kernel: one per code object. Each lane of a group of 8 x 4
 * computes its DispatchRaysIndex, leaves when it lies outside the
 * dimensions, and calls the ray-generation record's function. */
#define XS12_RT_ENTRY(name)                                                                          \
	extern "C" __global__ void __launch_bounds__(XS12_RT_GROUP_X * XS12_RT_GROUP_Y)                \
	name(const xs12_rt_dispatch *xs12_dispatch)                                                  \
	{                                                                                            \
		xs12_rt_ctx c;                                                                       \
		c.dispatch = xs12_dispatch;                                                          \
		c.index[0] = blockIdx.x * XS12_RT_GROUP_X + threadIdx.x;                             \
		c.index[1] = blockIdx.y * XS12_RT_GROUP_Y + threadIdx.y;                             \
		c.index[2] = blockIdx.z;                                                             \
		c.depth = 0;                                                                         \
		if (c.index[0] >= xs12_dispatch->width || c.index[1] >= xs12_dispatch->height ||   \
		    c.index[2] >= xs12_dispatch->depth)                                              \
			return;                                                                      \
		c.record = (const unsigned char *)(uintptr_t)xs12_dispatch->raygen_start;           \
		uint64_t fn = ((const xs12_rt_shader_id *)c.record)->function;                       \
		if (fn)                                                                              \
			((xs12_rt_raygen_fn)(uintptr_t)fn)(&c);                                      \
	}

#endif /* __HIP__ */

#endif
