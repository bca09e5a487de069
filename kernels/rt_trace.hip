// TraceRay (docs/d3d12.md "TraceRay", SPEC S2): ray generation through a
// pinhole camera, closest-hit shaders that record what the accessors say,
// a miss shader writing a sentinel, and a recursive closest hit that traces
// on along its ray. Used by tests/d3d12/test_trace.c.
// Global root parameters: 0 a root UAV (TRACE_WORDS uints per pixel), 1 a
// root SRV (the TLAS), 2 32-bit constants (trace_args below).
#include <hip/hip_runtime.h>
#include <xs12/xs12_rt.h>

XS12_RT_ENTRY(rt_entry)

#define TRACE_WORDS 32 // per pixel: the payload
#define CHAIN_AT 16    // the recursive chain's hits: payload[CHAIN_AT + depth]

struct trace_args {
	uint32_t flags, mask, hit_contribution, multiplier, miss_index;
	uint32_t chain;   // the recursive closest hit goes on while trace depth < chain
	float eye[3], scale, tmin, tmax;
};

struct payload {
	uint32_t w[TRACE_WORDS];
};

static __device__ const trace_args *args_of(xs12_rt_ctx *c)
{
	return (const trace_args *)xs12_rt_global(c, 2);
}

static __device__ uint32_t f2u(float f) { return __builtin_bit_cast(uint32_t, f); }

// One ray per pixel: from eye through the pixel's centre on the plane z = 1
// (x right, y up), scale the half-width. Writes the payload to the UAV
// (w[8..10]: the direction it used, so that the CPU tracer traces the same).
XS12_RT_SHADER void rg_camera(xs12_rt_ctx *c)
{
	const trace_args *a = args_of(c);
	uint32_t x = xs12_rt_index(c, 0), y = xs12_rt_index(c, 1);
	uint32_t w = xs12_rt_dimensions(c, 0), h = xs12_rt_dimensions(c, 1);
	xs12_rt_ray r;
	for (int k = 0; k < 3; k++)
		r.origin[k] = a->eye[k];
	r.direction[0] = ((x + 0.5f) / w * 2.0f - 1.0f) * a->scale;
	r.direction[1] = (1.0f - (y + 0.5f) / h * 2.0f) * a->scale;
	r.direction[2] = 1.0f;
	r.tmin = a->tmin;
	r.tmax = a->tmax;
	payload p;
	for (int k = 0; k < TRACE_WORDS; k++)
		p.w[k] = 0;
	xs12_rt_trace_ray(c, (uint64_t)(uintptr_t)XS12_RT_GLOBAL_PTR(c, 1, unsigned char), a->flags, a->mask,
			  a->hit_contribution, a->multiplier, a->miss_index, &r, &p);
	for (int k = 0; k < 3; k++)
		p.w[8 + k] = f2u(r.direction[k]);
	uint32_t *out = XS12_RT_GLOBAL_PTR(c, 0, uint32_t) + TRACE_WORDS * (y * w + x);
	for (int k = 0; k < TRACE_WORDS; k++)
		out[k] = p.w[k];
}

static __device__ void record(xs12_rt_ctx *c, payload *p, const xs12_rt_attribs *a)
{
	p->w[0] = 1;
	p->w[1] = xs12_rt_instance_index(c);
	p->w[2] = xs12_rt_primitive_index(c);
	p->w[3] = f2u(xs12_rt_tcurrent(c));
	p->w[4] = f2u(a->barycentrics[0]);
	p->w[5] = f2u(a->barycentrics[1]);
	p->w[6] = xs12_rt_geometry_index(c) | xs12_rt_hit_kind(c) << 16;
	p->w[7] = *(const uint32_t *)xs12_rt_local(c); // which record: the hit-group index
	p->w[11] = xs12_rt_instance_id(c);
	p->w[12] = c->trace_depth;
	// the object-space ray against the world ray through WorldToObject3x4
	float err = 0.0f;
	for (int r = 0; r < 3; r++) {
		float oo = xs12_rt_world_to_object(c, r, 3), od = 0.0f;
		for (int k = 0; k < 3; k++) {
			oo += xs12_rt_world_to_object(c, r, k) * xs12_rt_world_origin(c, k);
			od += xs12_rt_world_to_object(c, r, k) * xs12_rt_world_direction(c, k);
		}
		err = fmaxf(err, fabsf(oo - xs12_rt_object_origin(c, r)));
		err = fmaxf(err, fabsf(od - xs12_rt_object_direction(c, r)));
	}
	p->w[13] = f2u(err);
	p->w[14] = f2u(xs12_rt_object_to_world(c, 0, 3)); // translation x
	p->w[15] = f2u(xs12_rt_tmin(c));
}

XS12_RT_SHADER void chs_record(xs12_rt_ctx *c, void *pl, const xs12_rt_attribs *a)
{
	record(c, (payload *)pl, a);
}

// Records the hit, then (below the chain depth) traces on from the same
// origin beyond this hit: tmin = t * (1 + 2^-10). Hit i of the chain goes to
// payload[CHAIN_AT + i] as instance << 16 | primitive.
XS12_RT_SHADER void chs_chain(xs12_rt_ctx *c, void *pl, const xs12_rt_attribs *a)
{
	payload *p = (payload *)pl;
	uint32_t d = c->trace_depth; // 1 for the camera ray's hit
	if (d == 1)
		record(c, p, a);
	p->w[CHAIN_AT + d - 1] = xs12_rt_instance_index(c) << 16 | xs12_rt_primitive_index(c);
	const trace_args *g = args_of(c);
	if (d >= g->chain)
		return;
	xs12_rt_ray r;
	for (int k = 0; k < 3; k++) {
		r.origin[k] = xs12_rt_world_origin(c, k);
		r.direction[k] = xs12_rt_world_direction(c, k);
	}
	r.tmin = xs12_rt_tcurrent(c) * (1.0f + 1.0f / 1024.0f);
	r.tmax = g->tmax;
	xs12_rt_trace_ray(c, (uint64_t)(uintptr_t)XS12_RT_GLOBAL_PTR(c, 1, unsigned char), g->flags, g->mask,
			  g->hit_contribution, g->multiplier, g->miss_index, &r, pl);
}

XS12_RT_SHADER void miss_sentinel(xs12_rt_ctx *c, void *pl)
{
	payload *p = (payload *)pl;
	if (c->trace_depth == 1)
		p->w[0] = 2;
	p->w[7] = *(const uint32_t *)xs12_rt_local(c);
	p->w[15] = f2u(xs12_rt_tcurrent(c)); // a miss's RayTCurrent: TMax
}

// Any hit: ignores odd primitives, accepts even ones (counting the calls).
XS12_RT_SHADER uint32_t ahs_even(xs12_rt_ctx *c, void *pl, const xs12_rt_attribs *a)
{
	payload *p = (payload *)pl;
	p->w[31]++;
	return (xs12_rt_primitive_index(c) & 1) ? XS12_RT_IGNORE_HIT : XS12_RT_ACCEPT_HIT;
}
