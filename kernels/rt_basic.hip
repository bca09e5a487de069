// A ray-tracing library for xs12's pipelines from code objects (docs/d3d12.md):
// the entry kernel and shaders called through shader identifiers (SPEC S2).
// Global root parameter 0 is a root UAV: the output, 4 uints per lane.
#include <hip/hip_runtime.h>
#include <xs12/xs12_rt.h>

XS12_RT_ENTRY(rt_entry)

static __device__ unsigned *out_of(xs12_rt_ctx *c)
{
	unsigned lane = (xs12_rt_index(c, 2) * xs12_rt_dimensions(c, 1) + xs12_rt_index(c, 1)) * xs12_rt_dimensions(c, 0) +
			xs12_rt_index(c, 0);
	return XS12_RT_GLOBAL_PTR(c, 0, unsigned) + 4 * lane;
}

// Writes DispatchRaysIndex and the dimensions; out[3] counts the writes.
XS12_RT_SHADER void rg_index(xs12_rt_ctx *c)
{
	unsigned *o = out_of(c);
	o[0] = xs12_rt_index(c, 0) | xs12_rt_index(c, 1) << 10 | xs12_rt_index(c, 2) << 20;
	o[1] = xs12_rt_dimensions(c, 0) | xs12_rt_dimensions(c, 1) << 10 | xs12_rt_dimensions(c, 2) << 20;
	o[2] = *(const unsigned *)xs12_rt_global(c, 1); // a 32-bit root constant
	atomicAdd(&o[3], 1u);
}

// Calls miss shader (x % 2) and callable shader 0, writes what they return
// and its own record's local root constant.
XS12_RT_SHADER void rg_calls(xs12_rt_ctx *c)
{
	unsigned *o = out_of(c);
	unsigned payload = xs12_rt_index(c, 0);
	xs12_rt_call_miss(c, xs12_rt_index(c, 0) % 2, &payload);
	o[0] = payload;
	unsigned params[2] = { xs12_rt_index(c, 1), 0 };
	xs12_rt_call_shader(c, 0, params);
	o[1] = params[1];
	o[2] = *(const unsigned *)xs12_rt_local(c);
	o[3] = 1;
}

// Miss shaders: the payload (a uint through a pointer to the caller's private
// memory) combined with the record's local root constant.
XS12_RT_SHADER void miss_add(xs12_rt_ctx *c, void *payload)
{
	*(unsigned *)payload += *(const unsigned *)xs12_rt_local(c);
}
XS12_RT_SHADER void miss_mul(xs12_rt_ctx *c, void *payload)
{
	*(unsigned *)payload *= *(const unsigned *)xs12_rt_local(c);
}
XS12_RT_SHADER void callable_sq(xs12_rt_ctx *c, void *params)
{
	unsigned *p = (unsigned *)params;
	p[1] = p[0] * p[0] + c->depth * 1000;
}

// Closest hit / any hit for a hit group (not called until TraceRay).
XS12_RT_SHADER void chs_nop(xs12_rt_ctx *c, void *payload) { *(unsigned *)payload = 7; }
XS12_RT_SHADER void ahs_nop(xs12_rt_ctx *c, void *payload) { *(unsigned *)payload = 9; }

// Private memory: an array indexed at run time (S2 scratch).
XS12_RT_SHADER void rg_spill(xs12_rt_ctx *c)
{
	unsigned a[96];
	unsigned x = xs12_rt_index(c, 0), y = xs12_rt_index(c, 1);
	for (unsigned i = 0; i < 96; i++)
		a[i] = x * 131u + i * (y + 3u);
	for (unsigned i = 1; i < 96; i++)
		a[(i * 37u + x) % 96u] += a[(i + y) % 96u];
	unsigned *o = out_of(c);
	o[0] = a[x % 96u];
	o[1] = a[(x + y) % 96u];
	o[2] = a[(x * y) % 96u];
	o[3] = 1;
}
