// The shaders of rays_scene.c (docs/rays.md "On the GPU"): the CPU
// renderer's formula (examples/d3d12/scene/scene_render.c) as a ray-tracing
// library, in float and in the same order, so the two pictures differ by
// rounding only.
// Global root parameters: 0 a root UAV of PIXEL_WORDS uints per pixel (ids,
// t, whether a shadow ray was traced), 1 a root UAV of RGBA8 pixels, 2 a
// root SRV (the TLAS), 3 a root SRV of one float4 albedo per instance
// (InstanceIndex()), 4 32-bit constants (scene_args).
// Local root arguments of each hit-group record (one record per BLAS
// geometry): the geometry's vertex and index buffers, as the face normal
// needs the triangle's vertices.
#include <hip/hip_runtime.h>
#include <xs12/xs12_rt.h>

XS12_RT_ENTRY(rt_entry)

#define PIXEL_WORDS 5
#define MISS 0xFFFFFFFFu

struct scene_args {
	float eye[3], target[3], up[3];
	float h;            // tan(fov_y / 2), computed once on the host as the CPU does
	float light[3];
	float shadow_tmin;
};

struct geometry_args {  // a hit-group record's local root arguments
	const float *positions;
	const uint32_t *indices;
};

struct payload {
	uint32_t instance, geometry, primitive;
	float t;
	uint32_t rgba, shadow;
};

struct shadow_payload {
	uint32_t visible;
};

static __device__ const scene_args *args_of(xs12_rt_ctx *c)
{
	return (const scene_args *)xs12_rt_global(c, 4);
}
static __device__ uint64_t tlas_of(xs12_rt_ctx *c)
{
	return (uint64_t)(uintptr_t)XS12_RT_GLOBAL_PTR(c, 2, unsigned char);
}

static __device__ void normalize(float v[3])
{
	float n = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
	for (int k = 0; k < 3; k++)
		v[k] /= n;
}
static __device__ void cross3(float r[3], const float a[3], const float b[3])
{
	r[0] = a[1] * b[2] - a[2] * b[1];
	r[1] = a[2] * b[0] - a[0] * b[2];
	r[2] = a[0] * b[1] - a[1] * b[0];
}
static __device__ float dot3(const float a[3], const float b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static __device__ uint32_t to_byte(float c)
{
	c = c < 0 ? 0 : c > 1 ? 1 : c;
	return (uint32_t)floorf(c * 255.0f + 0.5f);
}
static __device__ uint32_t pack(const float c[3])
{
	return to_byte(c[0]) | to_byte(c[1]) << 8 | to_byte(c[2]) << 16 | 0xFFu << 24;
}

// The pinhole camera of scene_camera_ray.
XS12_RT_SHADER void rg_scene(xs12_rt_ctx *c)
{
	const scene_args *a = args_of(c);
	uint32_t x = xs12_rt_index(c, 0), y = xs12_rt_index(c, 1);
	uint32_t w = xs12_rt_dimensions(c, 0), hgt = xs12_rt_dimensions(c, 1);
	float f[3], r[3], u[3];
	for (int k = 0; k < 3; k++)
		f[k] = a->target[k] - a->eye[k];
	normalize(f);
	cross3(r, f, a->up);
	normalize(r);
	cross3(u, r, f);
	float sx = (((float)x + 0.5f) / (float)w * 2.0f - 1.0f) * a->h * (float)w / (float)hgt;
	float sy = (1.0f - ((float)y + 0.5f) / (float)hgt * 2.0f) * a->h;
	xs12_rt_ray ray;
	for (int k = 0; k < 3; k++) {
		ray.origin[k] = a->eye[k];
		ray.direction[k] = f[k] + sx * r[k] + sy * u[k];
	}
	normalize(ray.direction);
	ray.tmin = 0.0f;
	ray.tmax = 1e30f;
	payload p = { MISS, 0, 0, 0.0f, 0, 0 };
	xs12_rt_trace_ray(c, tlas_of(c), XS12_RAY_FLAG_NONE, 0xFF, 0, 1, 0, &ray, &p);
	uint32_t *ids = XS12_RT_GLOBAL_PTR(c, 0, uint32_t) + PIXEL_WORDS * (y * w + x);
	ids[0] = p.instance;
	ids[1] = p.geometry;
	ids[2] = p.primitive;
	ids[3] = __builtin_bit_cast(uint32_t, p.t);
	ids[4] = p.shadow;
	XS12_RT_GLOBAL_PTR(c, 1, uint32_t)[y * w + x] = p.rgba;
}

// The sky gradient.
XS12_RT_SHADER void miss_sky(xs12_rt_ctx *c, void *pl)
{
	payload *p = (payload *)pl;
	float dy = xs12_rt_world_direction(c, 1);
	float k = dy < 0 ? 0 : dy > 1 ? 1 : dy;
	const float horizon[3] = { 0.80f, 0.87f, 0.95f }, zenith[3] = { 0.35f, 0.55f, 0.85f };
	float col[3];
	for (int i = 0; i < 3; i++)
		col[i] = horizon[i] * (1 - k) + zenith[i] * k;
	p->instance = MISS;
	p->rgba = pack(col);
}

// A shadow ray that reaches the light.
XS12_RT_SHADER void miss_shadow(xs12_rt_ctx *c, void *pl)
{
	((shadow_payload *)pl)->visible = 1;
}

// The face normal (M^-T through the cofactors, as the CPU), Lambert and the
// hard shadow of one shadow ray.
XS12_RT_SHADER void chs_shade(xs12_rt_ctx *c, void *pl, const xs12_rt_attribs *attr)
{
	payload *p = (payload *)pl;
	const scene_args *a = args_of(c);
	const geometry_args *g = (const geometry_args *)xs12_rt_local(c);
	uint32_t prim = xs12_rt_primitive_index(c);
	const uint32_t *ix = &g->indices[3 * prim];
	const float *v0 = &g->positions[3 * ix[0]], *v1 = &g->positions[3 * ix[1]], *v2 = &g->positions[3 * ix[2]];
	float e1[3], e2[3], no[3], n[3], dir[3], org[3];
	for (int k = 0; k < 3; k++) {
		e1[k] = v1[k] - v0[k];
		e2[k] = v2[k] - v0[k];
		dir[k] = xs12_rt_world_direction(c, k);
		org[k] = xs12_rt_world_origin(c, k);
	}
	cross3(no, e1, e2);
	float cof[3][3];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
			cof[i][j] = xs12_rt_object_to_world(c, i1, j1) * xs12_rt_object_to_world(c, i2, j2) -
				    xs12_rt_object_to_world(c, i1, j2) * xs12_rt_object_to_world(c, i2, j1);
		}
	float det = xs12_rt_object_to_world(c, 0, 0) * cof[0][0] + xs12_rt_object_to_world(c, 0, 1) * cof[0][1] +
		    xs12_rt_object_to_world(c, 0, 2) * cof[0][2];
	for (int i = 0; i < 3; i++)
		n[i] = (cof[i][0] * no[0] + cof[i][1] * no[1] + cof[i][2] * no[2]) * (det < 0 ? -1.0f : 1.0f);
	normalize(n);
	if (dot3(n, dir) > 0)
		for (int k = 0; k < 3; k++)
			n[k] = -n[k];
	float t = xs12_rt_tcurrent(c), P[3], l[3];
	for (int k = 0; k < 3; k++) {
		P[k] = org[k] + t * dir[k];
		l[k] = a->light[k] - P[k];
	}
	float dist = sqrtf(dot3(l, l));
	for (int k = 0; k < 3; k++)
		l[k] /= dist;
	float ndotl = dot3(n, l);
	float vis = 1;
	if (ndotl > 0) {
		xs12_rt_ray sh;
		for (int k = 0; k < 3; k++) {
			sh.origin[k] = P[k] + 1e-3f * n[k];
			sh.direction[k] = l[k];
		}
		sh.tmin = a->shadow_tmin;
		sh.tmax = dist;
		shadow_payload sp = { 0 };
		xs12_rt_trace_ray(c, tlas_of(c),
				  XS12_RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH | XS12_RAY_FLAG_SKIP_CLOSEST_HIT_SHADER, 0xFF,
				  0, 1, 1, &sh, &sp);
		vis = sp.visible ? 1.0f : 0.0f;
		p->shadow = 1;
	}
	const float *alb = XS12_RT_GLOBAL_PTR(c, 3, float) + 4 * xs12_rt_instance_index(c);
	float lambert = 0.2f + 0.8f * (ndotl > 0 ? ndotl : 0) * vis;
	float col[3];
	for (int i = 0; i < 3; i++)
		col[i] = alb[i] * lambert;
	p->instance = xs12_rt_instance_index(c);
	p->geometry = xs12_rt_geometry_index(c);
	p->primitive = prim;
	p->t = t;
	p->rgba = pack(col);
	(void)attr;
}
