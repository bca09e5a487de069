/*
 * scene_render.c — the picture: a pinhole camera, one primary ray a pixel,
 * Lambert shading from a point light with a hard shadow from one shadow
 * ray, and the comparison of two frames. The formulas are docs/rays.md's
 * ("The shading"), which the GPU shaders implement too; all in float, in
 * this order, so the two differ only by rounding.
 *
 *   primary ray of pixel (x, y) of W x H:
 *     f = normalize(target - eye), r = normalize(cross(f, up)), u = cross(r, f)
 *     h = tan(fov_y / 2), sx = ((x + 0.5) / W * 2 - 1) * h * W / H,
 *     sy = (1 - (y + 0.5) / H * 2) * h
 *     origin = eye, dir = normalize(f + sx r + sy u), tmin = 0, tmax = 1e30, mask 0xFF
 *   miss:   k = clamp(dir.y, 0, 1), c = (0.80, 0.87, 0.95) (1 - k) + (0.35, 0.55, 0.85) k
 *   hit:    P = origin + t dir
 *           N = normalize(M^-T cross(v1 - v0, v2 - v0)) (object-space vertices,
 *               M the instance's 3x4), negated if dot(N, dir) > 0
 *           L = light - P, dist = |L|, l = L / dist
 *           shadow ray: origin P + 1e-3 N, dir l, tmin = shadow_tmin, tmax = dist,
 *               mask 0xFF, ACCEPT_FIRST_HIT_AND_END_SEARCH; vis = 0 if it hits, else 1
 *           c = albedo (0.2 + 0.8 max(dot(N, l), 0) vis)
 *   RGBA8:  byte = floor(clamp(c, 0, 1) 255 + 0.5), alpha 255
 */
#include "scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void normalize(float v[3])
{
	float n = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
	for (int k = 0; k < 3; k++)
		v[k] /= n;
}

static void cross3(float r[3], const float a[3], const float b[3])
{
	r[0] = a[1] * b[2] - a[2] * b[1];
	r[1] = a[2] * b[0] - a[0] * b[2];
	r[2] = a[0] * b[1] - a[1] * b[0];
}

static float dot3(const float a[3], const float b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static uint8_t to_byte(float c)
{
	c = c < 0 ? 0 : c > 1 ? 1 : c;
	return (uint8_t)floorf(c * 255.0f + 0.5f);
}

scene_ray scene_camera_ray(const scene *s, uint32_t x, uint32_t y, uint32_t width, uint32_t height)
{
	const scene_camera *cam = &s->camera;
	float f[3], r[3], u[3];
	for (int k = 0; k < 3; k++)
		f[k] = cam->target[k] - cam->eye[k];
	normalize(f);
	cross3(r, f, cam->up);
	normalize(r);
	cross3(u, r, f);
	float h = tanf(cam->fov_y_degrees * 3.14159265f / 360.0f);
	float sx = (((float)x + 0.5f) / (float)width * 2.0f - 1.0f) * h * (float)width / (float)height;
	float sy = (1.0f - ((float)y + 0.5f) / (float)height * 2.0f) * h;
	scene_ray ray = { .tmin = 0, .tmax = 1e30f, .mask = 0xFF };
	for (int k = 0; k < 3; k++) {
		ray.origin[k] = cam->eye[k];
		ray.dir[k] = f[k] + sx * r[k] + sy * u[k];
	}
	normalize(ray.dir);
	return ray;
}

/* The hit triangle's world-space unit normal, facing the ray. */
static void hit_normal(const scene *s, const scene_ray *r, const scene_hit *h, float n[3])
{
	const scene_instance *in = &s->instances[h->instance];
	const scene_mesh *m = &s->blas[in->blas].meshes[h->geometry];
	const uint32_t *ix = &m->indices[3 * h->primitive];
	const float *v0 = &m->positions[3 * ix[0]], *v1 = &m->positions[3 * ix[1]], *v2 = &m->positions[3 * ix[2]];
	float e1[3], e2[3], no[3];
	for (int k = 0; k < 3; k++) {
		e1[k] = v1[k] - v0[k];
		e2[k] = v2[k] - v0[k];
	}
	cross3(no, e1, e2);
	/* M^-T n = cofactor(M) n / det: the cofactor matrix keeps the
	 * direction for any invertible M and needs no division. */
	const float(*M)[4] = in->transform;
	float cof[3][3];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
			cof[i][j] = M[i1][j1] * M[i2][j2] - M[i1][j2] * M[i2][j1];
		}
	float det = M[0][0] * cof[0][0] + M[0][1] * cof[0][1] + M[0][2] * cof[0][2];
	for (int i = 0; i < 3; i++)
		n[i] = (cof[i][0] * no[0] + cof[i][1] * no[1] + cof[i][2] * no[2]) * (det < 0 ? -1.0f : 1.0f);
	normalize(n);
	if (dot3(n, r->dir) > 0)
		for (int k = 0; k < 3; k++)
			n[k] = -n[k];
}

void scene_shade(const scene *s, const scene_accel *a, const scene_ray *r, const scene_hit *h, uint8_t rgba[4])
{
	float c[3];
	if (!h->hit) {
		float k = r->dir[1] < 0 ? 0 : r->dir[1] > 1 ? 1 : r->dir[1];
		static const float horizon[3] = { 0.80f, 0.87f, 0.95f }, zenith[3] = { 0.35f, 0.55f, 0.85f };
		for (int i = 0; i < 3; i++)
			c[i] = horizon[i] * (1 - k) + zenith[i] * k;
	} else {
		float p[3], n[3], l[3];
		hit_normal(s, r, h, n);
		for (int k = 0; k < 3; k++) {
			p[k] = r->origin[k] + h->t * r->dir[k];
			l[k] = s->light[k] - p[k];
		}
		float dist = sqrtf(dot3(l, l));
		for (int k = 0; k < 3; k++)
			l[k] /= dist;
		scene_ray sh = { .tmin = s->shadow_tmin, .tmax = dist, .mask = 0xFF,
				 .flags = SCENE_RAY_ACCEPT_FIRST_HIT_AND_END_SEARCH };
		for (int k = 0; k < 3; k++) {
			sh.origin[k] = p[k] + 1e-3f * n[k];
			sh.dir[k] = l[k];
		}
		float ndotl = dot3(n, l);
		float vis = 1;
		if (ndotl > 0)   /* facing away is dark anyway: no shadow ray needed */
			vis = scene_trace(s, a, &sh).hit ? 0.0f : 1.0f;
		const float *alb = s->instances[h->instance].albedo;
		float lambert = 0.2f + 0.8f * (ndotl > 0 ? ndotl : 0) * vis;
		for (int i = 0; i < 3; i++)
			c[i] = alb[i] * lambert;
	}
	for (int i = 0; i < 3; i++)
		rgba[i] = to_byte(c[i]);
	rgba[3] = 255;
}

int scene_frame_init(scene_frame *f, uint32_t width, uint32_t height)
{
	memset(f, 0, sizeof(*f));
	size_t n = (size_t)width * height;
	f->pixels = calloc(n ? n : 1, sizeof(scene_pixel));
	f->rgba = calloc(n ? n : 1, 4);
	if (!f->pixels || !f->rgba) {
		scene_frame_free(f);
		return -1;
	}
	f->width = width;
	f->height = height;
	return 0;
}

void scene_frame_free(scene_frame *f)
{
	free(f->pixels);
	free(f->rgba);
	memset(f, 0, sizeof(*f));
}

void scene_render(const scene *s, const scene_accel *a, scene_frame *f)
{
	for (uint32_t y = 0; y < f->height; y++)
		for (uint32_t x = 0; x < f->width; x++) {
			size_t i = (size_t)y * f->width + x;
			scene_ray r = scene_camera_ray(s, x, y, f->width, f->height);
			scene_hit h = scene_trace(s, a, &r);
			f->pixels[i] = h.hit ? (scene_pixel){ h.instance, h.geometry, h.primitive, h.t }
					     : (scene_pixel){ SCENE_MISS, 0, 0, 0 };
			scene_shade(s, a, &r, &h, &f->rgba[4 * i]);
		}
}

scene_diff scene_frame_compare(const scene_frame *a, const scene_frame *b)
{
	scene_diff d = { 0 };
	if (a->width != b->width || a->height != b->height) {
		d.max_channel = 255;
		return d;
	}
	d.pixels = (uint64_t)a->width * a->height;
	for (uint64_t i = 0; i < d.pixels; i++) {
		const scene_pixel *p = &a->pixels[i], *q = &b->pixels[i];
		d.same_ids += p->instance == q->instance &&
			      (p->instance == SCENE_MISS || (p->geometry == q->geometry && p->primitive == q->primitive));
		unsigned worst = 0;
		for (int k = 0; k < 4; k++) {
			int x = a->rgba[4 * i + k] - b->rgba[4 * i + k];
			unsigned ax = (unsigned)(x < 0 ? -x : x);
			worst = ax > worst ? ax : worst;
		}
		d.max_channel = worst > d.max_channel ? worst : d.max_channel;
		d.over_1 += worst > 1;
	}
	return d;
}

bool scene_diff_ok(const scene_diff *d)
{
	/* 99.9 %: the two sides round differently, so a ray through a shared
	 * edge, or a shadow ray grazing an occluder, may decide otherwise on
	 * a few pixels; those pixels may differ in colour too. */
	return d->pixels && d->same_ids * 1000 >= d->pixels * 999 && d->over_1 * 1000 <= d->pixels;
}
