/*
 * scene.c — the scene as data: meshes, the ground plane, instances and the
 * demo's arrangement of them. No D3D12 and no ray code here, so the loader,
 * the CPU renderer and the GPU demo all start from the same numbers.
 */
#include "scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void scene_blas_free(scene_blas *b)
{
	for (uint32_t i = 0; i < b->mesh_count; i++) {
		free(b->meshes[i].positions);
		free(b->meshes[i].indices);
	}
	free(b->meshes);
	memset(b, 0, sizeof(*b));
}

void scene_free(scene *s)
{
	for (uint32_t i = 0; i < s->blas_count; i++)
		scene_blas_free(&s->blas[i]);
	free(s->blas);
	free(s->instances);
	memset(s, 0, sizeof(*s));
}

bool scene_blas_bounds(scene_blas *b)
{
	bool finite = true;
	for (int k = 0; k < 3; k++) {
		b->bounds_min[k] = INFINITY;
		b->bounds_max[k] = -INFINITY;
	}
	for (uint32_t i = 0; i < b->mesh_count; i++) {
		const scene_mesh *m = &b->meshes[i];
		for (uint32_t v = 0; v < m->vertex_count; v++)
			for (int k = 0; k < 3; k++) {
				float x = m->positions[3 * v + k];
				if (!isfinite(x)) {
					finite = false;
					continue;
				}
				b->bounds_min[k] = fminf(b->bounds_min[k], x);
				b->bounds_max[k] = fmaxf(b->bounds_max[k], x);
			}
	}
	for (int k = 0; k < 3; k++)
		finite = finite && isfinite(b->bounds_min[k]) && isfinite(b->bounds_max[k]);
	return finite;
}

uint64_t scene_blas_triangles(const scene_blas *b)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < b->mesh_count; i++)
		n += b->meshes[i].triangle_count;
	return n;
}

int scene_ground(scene_blas *out, float half, float y)
{
	/* Seen from above (ray direction -y) the corners 0, 1, 2 and 0, 2, 3
	 * run clockwise in D3D12's left-handed object space, so both
	 * triangles are front faces by default: cross(v1 - v0, v2 - v0)
	 * points up, against the ray (docs/rays.md). */
	static const float corner[4][2] = { { -1, -1 }, { -1, 1 }, { 1, 1 }, { 1, -1 } };
	static const uint32_t idx[6] = { 0, 1, 2, 0, 2, 3 };
	memset(out, 0, sizeof(*out));
	out->meshes = calloc(1, sizeof(scene_mesh));
	if (!out->meshes)
		return -1;
	scene_mesh *m = &out->meshes[0];
	out->mesh_count = 1;
	m->positions = malloc(4 * 3 * sizeof(float));
	m->indices = malloc(sizeof(idx));
	if (!m->positions || !m->indices) {
		scene_blas_free(out);
		return -1;
	}
	for (int i = 0; i < 4; i++) {
		m->positions[3 * i + 0] = corner[i][0] * half;
		m->positions[3 * i + 1] = y;
		m->positions[3 * i + 2] = corner[i][1] * half;
	}
	memcpy(m->indices, idx, sizeof(idx));
	m->vertex_count = 4;
	m->triangle_count = 2;
	scene_blas_bounds(out);
	return 0;
}

int scene_add_instance(scene *s, uint32_t blas, const float transform[3][4], uint32_t id, uint8_t mask,
		       const float albedo[3])
{
	scene_instance *n = realloc(s->instances, (s->instance_count + 1) * sizeof(*n));
	if (!n)
		return -1;
	s->instances = n;
	scene_instance *in = &n[s->instance_count];
	memset(in, 0, sizeof(*in));
	memcpy(in->transform, transform, sizeof(in->transform));
	in->instance_id = id & 0xFFFFFFu;
	in->mask = mask;
	in->blas = blas;
	memcpy(in->albedo, albedo, sizeof(in->albedo));
	return (int)s->instance_count++;
}

void scene_transform(float m[3][4], float scale, float rotate_y_degrees, float tx, float ty, float tz)
{
	double a = rotate_y_degrees * 3.14159265358979323846 / 180.0;
	float c = (float)cos(a) * scale, sn = (float)sin(a) * scale;
	/* rotation about +y: x' = c x + s z, z' = -s x + c z */
	float r[3][4] = { { c, 0, sn, tx }, { 0, scale, 0, ty }, { -sn, 0, c, tz } };
	memcpy(m, r, sizeof(r));
}

static int add_blas(scene *s, scene_blas *b)
{
	scene_blas *n = realloc(s->blas, (s->blas_count + 1) * sizeof(*n));
	if (!n)
		return -1;
	s->blas = n;
	n[s->blas_count] = *b;
	memset(b, 0, sizeof(*b));
	return (int)s->blas_count++;
}

int scene_demo(scene *s, scene_blas *model, int copies)
{
	/* Albedos: engines in warm metal tones, the ground a light grey. */
	static const float palette[4][3] = {
		{ 0.85f, 0.55f, 0.25f }, { 0.35f, 0.60f, 0.85f }, { 0.80f, 0.30f, 0.30f }, { 0.45f, 0.75f, 0.40f } };
	static const float ground_albedo[3] = { 0.75f, 0.75f, 0.72f };
	memset(s, 0, sizeof(*s));
	if (!scene_blas_bounds(model))
		return -1;
	float ext = 0, c[3];
	for (int k = 0; k < 3; k++) {
		ext = fmaxf(ext, model->bounds_max[k] - model->bounds_min[k]);
		c[k] = 0.5f * (model->bounds_min[k] + model->bounds_max[k]);
	}
	c[1] = model->bounds_min[1];   /* stand on the ground */
	float scale = 2.0f / ext;      /* each copy fits a 2-unit cube */
	float spacing = 2.4f;
	int mi = add_blas(s, model);
	scene_blas ground;
	if (mi < 0 || scene_ground(&ground, 1.5f * spacing * (float)copies, 0.0f) || add_blas(s, &ground) < 0)
		return -1;
	for (int i = 0; i < copies; i++) {
		float m[3][4];
		float x = ((float)i - 0.5f * (float)(copies - 1)) * spacing;
		scene_transform(m, scale, -30.0f + 30.0f * (float)i, 0, 0, 0);
		/* translation so that the model's bottom centre lands at (x, 0, 0) */
		float t[3] = { x, 0, 0 };
		for (int r = 0; r < 3; r++)
			m[r][3] = t[r] - (m[r][0] * c[0] + m[r][1] * c[1] + m[r][2] * c[2]);
		if (scene_add_instance(s, (uint32_t)mi, m, (uint32_t)i, 0x01, palette[i % 4]) < 0)
			return -1;
	}
	float id[3][4];
	scene_transform(id, 1, 0, 0, 0, 0);
	if (scene_add_instance(s, 1, id, 0x100, 0x02, ground_albedo) < 0)
		return -1;
	float half_w = 0.5f * spacing * (float)copies;
	s->camera = (scene_camera){ .eye = { 0.3f * half_w, 2.4f, 1.2f * half_w + 1.5f },
				    .target = { 0, 0.35f, 0 }, .up = { 0, 1, 0 }, .fov_y_degrees = 40.0f };
	s->light[0] = -0.8f * half_w - 2.0f;
	s->light[1] = 7.0f;
	s->light[2] = 4.0f;
	s->shadow_tmin = 1e-3f;
	return 0;
}
