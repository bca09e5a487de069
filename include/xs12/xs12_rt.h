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
 * per-lane context (xs12_rt_ctx). TraceRay (xs12_rt_trace_ray) is device
 * code here too, inlined into each shader that calls it (docs/d3d12.md,
 * "TraceRay").
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

/* TraceRay's constants (the device code below; host code may use them too). */
/* D3D12_RAY_FLAG_* */
#define XS12_RAY_FLAG_NONE 0x000u
#define XS12_RAY_FLAG_FORCE_OPAQUE 0x001u
#define XS12_RAY_FLAG_FORCE_NON_OPAQUE 0x002u
#define XS12_RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH 0x004u
#define XS12_RAY_FLAG_SKIP_CLOSEST_HIT_SHADER 0x008u
#define XS12_RAY_FLAG_CULL_BACK_FACING_TRIANGLES 0x010u
#define XS12_RAY_FLAG_CULL_FRONT_FACING_TRIANGLES 0x020u
#define XS12_RAY_FLAG_CULL_OPAQUE 0x040u
#define XS12_RAY_FLAG_CULL_NON_OPAQUE 0x080u
#define XS12_RAY_FLAG_SKIP_TRIANGLES 0x100u
#define XS12_RAY_FLAG_SKIP_PROCEDURAL_PRIMITIVES 0x200u
/* D3D12_RAYTRACING_INSTANCE_FLAG_* (an instance node's Flags, byte 15) */
#define XS12_INSTANCE_FLAG_TRIANGLE_CULL_DISABLE 0x1u
#define XS12_INSTANCE_FLAG_TRIANGLE_FRONT_COUNTERCLOCKWISE 0x2u
#define XS12_INSTANCE_FLAG_FORCE_OPAQUE 0x4u
#define XS12_INSTANCE_FLAG_FORCE_NON_OPAQUE 0x8u
/* HitKind() for triangles */
#define XS12_HIT_KIND_TRIANGLE_FRONT_FACE 0xFEu
#define XS12_HIT_KIND_TRIANGLE_BACK_FACE 0xFFu
/* What an any-hit shader returns: HLSL's fall-through (accept), IgnoreHit(),
 * AcceptHitAndEndSearch(). */
#define XS12_RT_ACCEPT_HIT 0u
#define XS12_RT_IGNORE_HIT 1u
#define XS12_RT_ACCEPT_HIT_AND_END_SEARCH 2u

/* The traversal stack: node pointers per lane in private memory (scratch),
 * part of the frame of every shader that calls xs12_rt_trace_ray (it is
 * inlined there, so .stack_sizes counts it: S2.7). A box node pops one entry
 * and pushes at most three, so 64 entries hold any tree (TLAS and BLAS
 * together) up to 21 box levels deep; xs12's builder makes trees of height
 * about log4(n). A push beyond it is s_trap: a deterministic device fault. */
#ifndef XS12_RT_TRAVERSAL_STACK     /* a library may choose another depth (the tests force overflows) */
#define XS12_RT_TRAVERSAL_STACK 64
#endif
/* box_grow_ulp of the T# (docs/hardware.md 10.3): box intervals grown by
 * 8 x 2^-24 relative, so f32 rounding in the slab test does not lose a
 * triangle lying on its box's face. */
#define XS12_RT_BOX_GROW_ULP 8u

/* ---- device code (HIP) --------------------------------------------------------- */

#if defined(__HIP__)

/* What each shader function gets: its dispatch, its lane's index, the
 * record (identifier + local root arguments) it was called through. */
typedef struct xs12_rt_ctx {
	const xs12_rt_dispatch *dispatch;
	const unsigned char *record;       /* the shader record being executed */
	uint32_t index[3];                 /* DispatchRaysIndex */
	uint32_t depth;                    /* calls through records below the ray generation (CallShader, miss, hit) */
	uint32_t trace_depth;              /* TraceRay calls under way around this shader (0 in the ray generation) */
	const struct xs12_rt_hit *hit;     /* the ray / hit of the TraceRay that called this miss or hit shader */
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

/* The device faults of the ray-tracing shaders, as s_trap ids the removal
 * report prints ("trap id 32"): above the ids AMD's trap handler ABI gives
 * meanings (2 llvm.trap, 3 llvm.debugtrap). */
#define XS12_RT_TRAP_RECURSION 0x20        /* a TraceRay deeper than MaxTraceRecursionDepth */
#define XS12_RT_TRAP_STACK 0x21            /* the traversal stack overflows */
#define XS12_RT_TRAP_TABLE 0x22            /* a record index past its shader table's SizeInBytes */
#define XS12_RT_TRAP_(id) do { __asm__ volatile("s_trap %0" : : "i"(id)); __builtin_unreachable(); } while (0)

/* Record `index` of a shader table: StartAddress + index x StrideInBytes,
 * whose identifier must lie inside SizeInBytes. D3D12 leaves an index past
 * the table undefined; here it is a device fault naming it rather than a
 * call through whatever the memory beyond holds. */
static __device__ inline const unsigned char *xs12_rt_record(const xs12_rt_table *t, uint32_t index)
{
	uint64_t off = (uint64_t)index * t->stride;
	if (off + XS12_RT_SHADER_ID_SIZE > t->size)
		XS12_RT_TRAP_(XS12_RT_TRAP_TABLE);
	return (const unsigned char *)(uintptr_t)(t->start + off);
}

/* Calls the shader of record `index` of a table through its identifier,
 * read from GPU memory now; a null identifier does nothing (as D3D12's null
 * miss shader). */
static __device__ inline void xs12_rt_call_record(xs12_rt_ctx *c, const xs12_rt_table *t, uint32_t index, void *arg)
{
	const unsigned char *rec = xs12_rt_record(t, index);
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

/* ---- TraceRay (docs/d3d12.md, "TraceRay"; SPEC S2) ---------------------------- */

/* RayDesc */
typedef struct xs12_rt_ray {
	float origin[3];
	float tmin;
	float direction[3];
	float tmax;
} xs12_rt_ray;

/* BuiltInTriangleIntersectionAttributes: the barycentrics of vertices 1 and 2. */
typedef struct xs12_rt_attribs {
	float barycentrics[2];
} xs12_rt_attribs;

/* What a hit or miss shader's accessors read (through xs12_rt_ctx.hit):
 * the ray of the TraceRay that called it and, for hit shaders, the hit (in
 * an any-hit shader: the candidate). */
typedef struct xs12_rt_hit {
	float world_origin[3], world_direction[3];
	float object_origin[3], object_direction[3];
	float tmin, t;                     /* RayTMin, RayTCurrent (a miss: the ray's TMax) */
	uint32_t flags;                    /* RayFlags */
	uint32_t primitive_index, instance_index, instance_id, geometry_index, hit_kind;
	float object_to_world[12], world_to_object[12]; /* row-major 3x4 */
} xs12_rt_hit;

/* A hit group's closest hit and any hit. */
typedef void (*xs12_rt_closest_hit_fn)(xs12_rt_ctx *ctx, void *payload, const xs12_rt_attribs *attribs);
typedef uint32_t (*xs12_rt_any_hit_fn)(xs12_rt_ctx *ctx, void *payload, const xs12_rt_attribs *attribs);

/* HLSL's system values of hit and miss shaders. */
static __device__ inline float xs12_rt_tmin(const xs12_rt_ctx *c) { return c->hit->tmin; }          /* RayTMin() */
static __device__ inline float xs12_rt_tcurrent(const xs12_rt_ctx *c) { return c->hit->t; }        /* RayTCurrent() */
static __device__ inline uint32_t xs12_rt_ray_flags(const xs12_rt_ctx *c) { return c->hit->flags; } /* RayFlags() */
static __device__ inline float xs12_rt_world_origin(const xs12_rt_ctx *c, int k) { return c->hit->world_origin[k]; }
static __device__ inline float xs12_rt_world_direction(const xs12_rt_ctx *c, int k) { return c->hit->world_direction[k]; }
static __device__ inline float xs12_rt_object_origin(const xs12_rt_ctx *c, int k) { return c->hit->object_origin[k]; }
static __device__ inline float xs12_rt_object_direction(const xs12_rt_ctx *c, int k) { return c->hit->object_direction[k]; }
static __device__ inline uint32_t xs12_rt_primitive_index(const xs12_rt_ctx *c) { return c->hit->primitive_index; }
static __device__ inline uint32_t xs12_rt_instance_index(const xs12_rt_ctx *c) { return c->hit->instance_index; }
static __device__ inline uint32_t xs12_rt_instance_id(const xs12_rt_ctx *c) { return c->hit->instance_id; }
static __device__ inline uint32_t xs12_rt_geometry_index(const xs12_rt_ctx *c) { return c->hit->geometry_index; }
static __device__ inline uint32_t xs12_rt_hit_kind(const xs12_rt_ctx *c) { return c->hit->hit_kind; }
/* ObjectToWorld3x4()[row][col], WorldToObject3x4()[row][col] */
static __device__ inline float xs12_rt_object_to_world(const xs12_rt_ctx *c, int row, int col)
{
	return c->hit->object_to_world[row * 4 + col];
}
static __device__ inline float xs12_rt_world_to_object(const xs12_rt_ctx *c, int row, int col)
{
	return c->hit->world_to_object[row * 4 + col];
}

typedef float xs12_rt_f4 __attribute__((ext_vector_type(4)));
typedef unsigned int xs12_rt_u4 __attribute__((ext_vector_type(4)));

static __device__ inline float xs12_rt_u2f(uint32_t u) { return __builtin_bit_cast(float, u); }

/* The object-space ray of an instance: world-to-object (row-major 3x4) on
 * the origin (a point) and the direction (a vector, not renormalized, so t
 * is the same parameter in both spaces, as D3D12 has it). */
static __device__ inline void xs12_rt_to_object(const float *m, const float *o, const float *d, float *oo, float *od)
{
	for (int r = 0; r < 3; r++) {
		oo[r] = m[4 * r] * o[0] + m[4 * r + 1] * o[1] + m[4 * r + 2] * o[2] + m[4 * r + 3];
		od[r] = m[4 * r] * d[0] + m[4 * r + 1] * d[1] + m[4 * r + 2] * d[2];
	}
}

/* The record of hit group `index` of the hit table. */
static __device__ inline const unsigned char *xs12_rt_hit_record(const xs12_rt_ctx *c, uint32_t index)
{
	return xs12_rt_record(&c->dispatch->hit, index);
}

/* Fills what the accessors give from an instance node and a triangle node. */
static __device__ inline void xs12_rt_fill_hit(xs12_rt_hit *h, uint64_t inst, const float *oo, const float *od,
					       uint32_t prim, uint32_t geom, uint32_t kind, float t)
{
	const uint32_t *iw = (const uint32_t *)(uintptr_t)inst;
	h->t = t;
	h->primitive_index = prim;
	h->geometry_index = geom;
	h->hit_kind = kind;
	h->instance_index = iw[16];
	h->instance_id = iw[2] & 0xFFFFFFu;
	for (int k = 0; k < 12; k++) {
		h->world_to_object[k] = xs12_rt_u2f(iw[4 + k]);
		h->object_to_world[k] = xs12_rt_u2f(iw[20 + k]);
	}
	for (int k = 0; k < 3; k++) {
		h->object_origin[k] = oo[k];
		h->object_direction[k] = od[k];
	}
}

/* TraceRay(accel, flags, mask, hit_contribution, geometry_multiplier,
 * miss_index, ray, payload). accel is the TLAS's GPU virtual address (its
 * header; the BVH base is accel + its root offset). Traversal walks the TLAS
 * and, under each instance whose InstanceMask & mask is not 0, its BLAS with
 * the object-space ray, through image_bvh64_intersect_ray (a T# of base 0,
 * absolute node pointers = BVH base / 8 + the stored relative pointer, IJ
 * mode, sorted boxes), nearest child first. A triangle result (t_num,
 * t_denom, i_num, j_num) is a candidate at t = t_num / t_denom when tmin <=
 * t <= the current TMax (then the closest hit's t) and t is finite; its
 * facing is the sign of t_denom (> 0: clockwise as seen from the origin in
 * object space, D3D12's front face), reversed by the instance's
 * TRIANGLE_FRONT_COUNTERCLOCKWISE. Then the ray flags' and instance flags'
 * culling, opacity (geometry OPAQUE, instance then ray FORCE_* override),
 * the any-hit shader of a non-opaque candidate (its return code), and the
 * candidate becomes the closest hit. At the end: the hit group's closest hit
 * (record hit_contribution + geometry_multiplier * GeometryIndex +
 * InstanceContributionToHitGroupIndex) unless SKIP_CLOSEST_HIT_SHADER, or
 * the miss shader miss_index. A TraceRay at trace depth >=
 * MaxTraceRecursionDepth (the ray generation is at 0), like a traversal
 * stack overflow, is s_trap: a device fault. Procedural (AABB) leaves are
 * not there yet: they are never hit. */

static __device__ __attribute__((always_inline)) inline void
xs12_rt_trace_ray(xs12_rt_ctx *c, uint64_t accel, uint32_t flags, uint32_t mask, uint32_t hit_contribution,
		  uint32_t geometry_multiplier, uint32_t miss_index, const xs12_rt_ray *ray, void *payload)
{
	if (c->trace_depth >= c->dispatch->max_recursion)
		XS12_RT_TRAP_(XS12_RT_TRAP_RECURSION);
	const xs12_rt_u4 desc = { 0u, (1u << 31) | (XS12_RT_BOX_GROW_ULP << 23), 0xFFFFFFFFu,
				  0x3FFu | (1u << 24) | (8u << 28) };
	const uint32_t invalid = 0xFFFFFFFFu;
	uint32_t stack[XS12_RT_TRAVERSAL_STACK];
	uint32_t sp = 0, blas_sp = invalid;
	uint64_t tlas_base = accel + *(const uint32_t *)(uintptr_t)accel;
	uint64_t base = tlas_base, inst = 0;
	uint32_t node = 5;                 /* the root, a box32 node */
	uint32_t inst_flags = 0, inst_sbt = 0;
	float o[3], d[3], io[3];
	for (int k = 0; k < 3; k++) {
		o[k] = ray->origin[k];
		d[k] = ray->direction[k];
		io[k] = 1.0f / d[k];   /* 0 -> +-inf; the instruction clamps to +-FLT_MAX */
	}
	/* the closest hit so far */
	bool hit = false;
	float best = ray->tmax, bi = 0.0f, bj = 0.0f;
	uint32_t bprim = 0, bgeom = 0, bkind = 0, bsbt = 0;
	uint64_t binst = 0;
	float boo[3] = { 0, 0, 0 }, bod[3] = { 0, 0, 0 };
	xs12_rt_hit h;
	for (int k = 0; k < 3; k++) {
		h.world_origin[k] = ray->origin[k];
		h.world_direction[k] = ray->direction[k];
	}
	h.tmin = ray->tmin;
	h.flags = flags;
	for (;;) {
		if (node == invalid) {
			if (sp == blas_sp) {   /* the BLAS under an instance is done: back to the TLAS */
				blas_sp = invalid;
				base = tlas_base;
				for (int k = 0; k < 3; k++) {
					o[k] = ray->origin[k];
					d[k] = ray->direction[k];
					io[k] = 1.0f / d[k];
				}
			}
			if (!sp)
				break;
			node = stack[--sp];
			continue;
		}
		uint32_t type = node & 7u;
		uint64_t addr = base + ((uint64_t)(node & ~7u) << 3);
		if (type == 6) {   /* instance node (TLAS) */
			const uint32_t *iw = (const uint32_t *)(uintptr_t)addr;
			node = invalid;
			if (!((iw[2] >> 24) & mask))
				continue;
			float wto[12];
			for (int k = 0; k < 12; k++)
				wto[k] = xs12_rt_u2f(iw[4 + k]);
			float wo[3] = { o[0], o[1], o[2] }, wd[3] = { d[0], d[1], d[2] };
			xs12_rt_to_object(wto, wo, wd, o, d);
			for (int k = 0; k < 3; k++)
				io[k] = 1.0f / d[k];
			uint64_t bvh = *(const uint64_t *)(uintptr_t)addr;
			inst = addr;
			inst_sbt = iw[3] & 0xFFFFFFu;
			inst_flags = iw[3] >> 24;
			base = (bvh & ~7ull) << 3;
			node = (uint32_t)(bvh & 7u);
			blas_sp = sp;
			continue;
		}
		if (type != 0 && type != 4 && type != 5) {   /* AABB (procedural) and others: not hit */
			node = invalid;
			continue;
		}
		xs12_rt_f4 o4 = { o[0], o[1], o[2], 0.0f }, d4 = { d[0], d[1], d[2], 0.0f },
			   i4 = { io[0], io[1], io[2], 0.0f };
		xs12_rt_u4 r = __builtin_amdgcn_image_bvh_intersect_ray_l((base >> 3) + node, best, o4, d4, i4, desc);
		if (type != 0) {   /* box: nearest child next, the others on the stack */
			node = r.x;
			uint32_t rest[3] = { r.w, r.z, r.y };
			for (int k = 0; k < 3; k++) {
				if (rest[k] == invalid)
					continue;
				if (sp >= XS12_RT_TRAVERSAL_STACK)
					XS12_RT_TRAP_(XS12_RT_TRAP_STACK);
				stack[sp++] = rest[k];
			}
			continue;
		}
		/* triangle */
		node = invalid;
		float den = xs12_rt_u2f(r.y), t = xs12_rt_u2f(r.x) / den;
		if ((flags & XS12_RAY_FLAG_SKIP_TRIANGLES) || !(t >= ray->tmin && t <= best && t < __builtin_inff()))
			continue;
		const uint32_t *tw = (const uint32_t *)(uintptr_t)addr;
		uint32_t prim = tw[12], gf = tw[13], geom = gf & 0x0FFFFFFFu;
		bool front = den > 0.0f;
		if (inst_flags & XS12_INSTANCE_FLAG_TRIANGLE_FRONT_COUNTERCLOCKWISE)
			front = !front;
		if (!(inst_flags & XS12_INSTANCE_FLAG_TRIANGLE_CULL_DISABLE) &&
		    (((flags & XS12_RAY_FLAG_CULL_BACK_FACING_TRIANGLES) && !front) ||
		     ((flags & XS12_RAY_FLAG_CULL_FRONT_FACING_TRIANGLES) && front)))
			continue;
		bool opaque = (gf >> 31) != 0;
		if (inst_flags & XS12_INSTANCE_FLAG_FORCE_OPAQUE)
			opaque = true;
		if (inst_flags & XS12_INSTANCE_FLAG_FORCE_NON_OPAQUE)
			opaque = false;
		if (flags & XS12_RAY_FLAG_FORCE_OPAQUE)
			opaque = true;
		if (flags & XS12_RAY_FLAG_FORCE_NON_OPAQUE)
			opaque = false;
		if ((opaque && (flags & XS12_RAY_FLAG_CULL_OPAQUE)) || (!opaque && (flags & XS12_RAY_FLAG_CULL_NON_OPAQUE)))
			continue;
		uint32_t sbt = hit_contribution + geometry_multiplier * geom + inst_sbt;
		uint32_t kind = front ? XS12_HIT_KIND_TRIANGLE_FRONT_FACE : XS12_HIT_KIND_TRIANGLE_BACK_FACE;
		float ci = xs12_rt_u2f(r.z) / den, cj = xs12_rt_u2f(r.w) / den;
		bool end = (flags & XS12_RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH) != 0;
		if (!opaque) {
			const unsigned char *rec = xs12_rt_hit_record(c, sbt);
			uint64_t ahs = ((const xs12_rt_shader_id *)rec)->any_hit;
			if (ahs) {
				xs12_rt_fill_hit(&h, inst, o, d, prim, geom, kind, t);
				xs12_rt_attribs a = { { ci, cj } };
				xs12_rt_ctx sub = *c;
				sub.record = rec;
				sub.depth = c->depth + 1;
				sub.trace_depth = c->trace_depth + 1;
				sub.hit = &h;
				uint32_t code = ((xs12_rt_any_hit_fn)(uintptr_t)ahs)(&sub, payload, &a);
				if (code == XS12_RT_IGNORE_HIT)
					continue;
				if (code == XS12_RT_ACCEPT_HIT_AND_END_SEARCH)
					end = true;
			}
		}
		hit = true;
		best = t;
		bi = ci;
		bj = cj;
		bprim = prim;
		bgeom = geom;
		bkind = kind;
		bsbt = sbt;
		binst = inst;
		for (int k = 0; k < 3; k++) {
			boo[k] = o[k];
			bod[k] = d[k];
		}
		if (end)
			break;
	}
	xs12_rt_ctx sub = *c;
	sub.depth = c->depth + 1;
	sub.trace_depth = c->trace_depth + 1;
	sub.hit = &h;
	if (hit) {
		if (flags & XS12_RAY_FLAG_SKIP_CLOSEST_HIT_SHADER)
			return;
		const unsigned char *rec = xs12_rt_hit_record(c, bsbt);
		uint64_t fn = ((const xs12_rt_shader_id *)rec)->function;
		if (!fn)
			return;
		xs12_rt_fill_hit(&h, binst, boo, bod, bprim, bgeom, bkind, best);
		xs12_rt_attribs a = { { bi, bj } };
		sub.record = rec;
		((xs12_rt_closest_hit_fn)(uintptr_t)fn)(&sub, payload, &a);
		return;
	}
	const unsigned char *rec = xs12_rt_record(&c->dispatch->miss, miss_index);
	uint64_t fn = ((const xs12_rt_shader_id *)rec)->function;
	if (!fn)
		return;
	h.t = ray->tmax;
	for (int k = 0; k < 3; k++) {
		h.object_origin[k] = ray->origin[k];
		h.object_direction[k] = ray->direction[k];
	}
	sub.record = rec;
	((xs12_rt_miss_fn)(uintptr_t)fn)(&sub, payload);
}

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
		c.trace_depth = 0;                                                                   \
		c.hit = 0;                                                                           \
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
