/*
 * test_scene.c — the scene pieces of the ray-tracing demo
 * (examples/d3d12/scene, docs/rays.md), one test per argument:
 *
 *   test_scene loader MODEL     2CylinderEngine: the exact triangle count, finite bounds, valid indices
 *   test_scene rules            the D3D12 ray rules on hand-made rays (t range, facing, mask, barycentrics)
 *   test_scene bvh              BVH tracer == brute force on a small scene, 64x64: ids, t, colours identical
 *   test_scene bvh_model MODEL  the same on the engine scene, 24x14 pixels
 *   test_scene d3d12            the geometry and instance descriptors as D3D12 lays them out
 *   test_scene png DIR          PNG round trip through libpng, bytes equal
 *   test_scene render MODEL DIR the engine scene to DIR/scene_cpu.png, and what the picture must show
 *
 * Exit 77 (skipped) when libassimp, libpng or the model file is missing.
 */
#include <xs12/d3d12_xs.h>

#include "scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int failures;

#define CHECK(cond, ...)                                                  \
	do {                                                              \
		if (!(cond)) {                                            \
			failures++;                                       \
			printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                              \
			printf("\n");                                     \
		}                                                         \
	} while (0)

#define SKIP(why)                           \
	do {                                \
		printf("skipped: %s\n", why); \
		return 77;                  \
	} while (0)

/* 2CylinderEngine as placed: libassimp 5.2 gives 115 (node, mesh) pairs
 * with these many triangles (each mesh counted once per node using it). */
enum { ENGINE_MESHES = 115, ENGINE_TRIANGLES = 121496 };


/* ---- a small scene built by hand ------------------------------------------------- */

/* A unit octahedron: 8 faces wound so that cross(v1 - v0, v2 - v0) points
 * outwards (front faces seen from outside under D3D12's default). */
static int octahedron(scene_blas *b)
{
	static const float p[6][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };
	static const uint32_t f[8][3] = { { 0, 2, 4 }, { 2, 1, 4 }, { 1, 3, 4 }, { 3, 0, 4 },
					  { 2, 0, 5 }, { 1, 2, 5 }, { 3, 1, 5 }, { 0, 3, 5 } };
	memset(b, 0, sizeof(*b));
	b->meshes = calloc(2, sizeof(scene_mesh));
	if (!b->meshes)
		return -1;
	/* two geometries: the upper and the lower half, to exercise GeometryIndex() */
	b->mesh_count = 2;
	for (int g = 0; g < 2; g++) {
		scene_mesh *m = &b->meshes[g];
		m->positions = malloc(sizeof(p));
		m->indices = malloc(4 * 3 * sizeof(uint32_t));
		if (!m->positions || !m->indices)
			return -1;
		memcpy(m->positions, p, sizeof(p));
		m->vertex_count = 6;
		m->triangle_count = 4;
		for (int t = 0; t < 4; t++)
			for (int k = 0; k < 3; k++) {
				/* upper: faces containing vertex 2 (y = +1) */
				static const int upper[4] = { 0, 1, 4, 5 }, lower[4] = { 2, 3, 6, 7 };
				m->indices[3 * t + k] = f[g ? lower[t] : upper[t]][k];
			}
	}
	return scene_blas_bounds(b) ? 0 : -1;
}

/* A ground and 12 turned octahedra of several sizes: one mirrored (a
 * negative determinant), one sheared, one with FRONT_COUNTERCLOCKWISE, one
 * with instance mask 0x04 (the renderer's rays, mask 0xFF, see them all). */
static int small_scene(scene *s)
{
	memset(s, 0, sizeof(*s));
	s->blas = calloc(2, sizeof(scene_blas));
	if (!s->blas || octahedron(&s->blas[0]) || scene_ground(&s->blas[1], 4.0f, 0.0f))
		return -1;
	s->blas_count = 2;
	static const float alb[3] = { 0.9f, 0.5f, 0.2f }, galb[3] = { 0.7f, 0.7f, 0.7f };
	for (int i = 0; i < 12; i++) {
		float m[3][4];
		float sc = 0.3f + 0.05f * (float)(i % 5);
		scene_transform(m, sc, 17.0f * (float)i, -2.4f + 0.45f * (float)i, sc + 0.1f * (float)(i % 3),
				-1.0f + 0.3f * (float)(i % 4));
		if (i == 3)   /* a mirror image: negative determinant */
			for (int r = 0; r < 3; r++)
				m[r][0] = -m[r][0];
		if (i == 5) {   /* tilted about z too */
			float c = 0.8f, sn = 0.6f, a0 = m[0][0], a1 = m[1][0];
			m[0][0] = c * a0 - sn * a1;
			m[1][0] = sn * a0 + c * a1;
		}
		int k = scene_add_instance(s, 0, m, (uint32_t)i, i == 7 ? 0x04 : 0x01, alb);
		if (k < 0)
			return -1;
		if (i == 9)
			s->instances[k].flags = SCENE_INSTANCE_FRONT_CCW;
	}
	float id[3][4];
	scene_transform(id, 1, 0, 0, 0, 0);
	if (scene_add_instance(s, 1, id, 99, 0x02, galb) < 0)
		return -1;
	s->camera = (scene_camera){ .eye = { 0.5f, 2.0f, 4.5f }, .target = { 0, 0.3f, -0.5f }, .up = { 0, 1, 0 },
				    .fov_y_degrees = 65 };
	s->light[0] = -3;
	s->light[1] = 5;
	s->light[2] = 2;
	s->shadow_tmin = 1e-3f;
	return 0;
}

static int same_frames(const scene_frame *a, const scene_frame *b, const char *what)
{
	size_t n = (size_t)a->width * a->height, bad = 0;
	for (size_t i = 0; i < n; i++) {
		const scene_pixel *p = &a->pixels[i], *q = &b->pixels[i];
		if (p->instance != q->instance || p->geometry != q->geometry || p->primitive != q->primitive ||
		    memcmp(&p->t, &q->t, sizeof(float)) || memcmp(&a->rgba[4 * i], &b->rgba[4 * i], 4)) {
			if (bad++ < 5)
				printf("%s: pixel %zu: BVH instance %u geometry %u primitive %u t %.9g rgba %02x%02x%02x,"
				       " brute force %u %u %u t %.9g %02x%02x%02x\n",
				       what, i, p->instance, p->geometry, p->primitive, p->t, a->rgba[4 * i],
				       a->rgba[4 * i + 1], a->rgba[4 * i + 2], q->instance, q->geometry, q->primitive, q->t,
				       b->rgba[4 * i], b->rgba[4 * i + 1], b->rgba[4 * i + 2]);
		}
	}
	CHECK(bad == 0, "%s: %zu of %zu pixels differ", what, bad, n);
	return (int)bad;
}

static size_t count_instances(const scene_frame *f, uint32_t instance_count, uint32_t *seen)
{
	size_t hits = 0;
	for (size_t i = 0; i < (size_t)f->width * f->height; i++)
		if (f->pixels[i].instance != SCENE_MISS) {
			hits++;
			if (f->pixels[i].instance < instance_count)
				seen[f->pixels[i].instance]++;
		}
	return hits;
}

static int test_bvh(void)
{
	scene s;
	CHECK(small_scene(&s) == 0, "small scene");
	scene_accel *a = scene_accel_build(&s);
	CHECK(a != NULL, "BVH");
	scene_frame fb, fr;
	if (!a || scene_frame_init(&fb, 64, 64) || scene_frame_init(&fr, 64, 64))
		return 1;
	scene_render(&s, a, &fb);
	scene_render(&s, NULL, &fr);
	same_frames(&fb, &fr, "small scene 64x64");
#ifdef SCENE_HAVE_PNG
	char err[256];
	if (getenv("SCENE_PNG"))   /* to look at it */
		scene_png_write(getenv("SCENE_PNG"), fb.rgba, 64, 64, err, sizeof(err));
#endif
	/* the comparison is not vacuous: every octahedron and the ground are
	 * in the picture, and some of the sky */
	uint32_t seen[13] = { 0 };
	size_t hits = count_instances(&fb, 13, seen);
	for (int i = 0; i < 13; i++)
		CHECK(seen[i] > 0, "instance %d is in the picture", i);
	CHECK(hits < 64 * 64, "some sky: %zu of 4096 pixels hit", hits);
	scene_diff d = scene_frame_compare(&fb, &fr);
	CHECK(scene_diff_ok(&d) && d.max_channel == 0 && d.same_ids == 4096, "scene_frame_compare agrees");
	/* and scene_frame_compare sees a difference when there is one */
	size_t hit = 0;
	while (fr.pixels[hit].instance == SCENE_MISS)
		hit++;
	fr.pixels[hit].primitive ^= 1;
	fr.rgba[4 * 9] ^= 2;
	d = scene_frame_compare(&fb, &fr);
	CHECK(d.same_ids == 4095 && d.max_channel == 2 && d.over_1 == 1, "compare counts: ids %llu max %u",
	      (unsigned long long)d.same_ids, d.max_channel);
	scene_frame_free(&fb);
	scene_frame_free(&fr);
	scene_accel_free(a);
	scene_free(&s);
	return failures != 0;
}

static scene_hit down(const scene *s, const scene_accel *a, float tmin, float tmax, uint8_t mask, bool up)
{
	scene_ray r = { .origin = { 0.25f, up ? -1.0f : 1.0f, 0.25f }, .dir = { 0, up ? 1.0f : -1.0f, 0 },
			.tmin = tmin, .tmax = tmax, .mask = mask };
	return scene_trace(s, a, &r);
}

static int test_rules(void)
{
	scene s = { 0 };
	s.blas = calloc(1, sizeof(scene_blas));
	CHECK(s.blas && scene_ground(&s.blas[0], 1.0f, 0.0f) == 0, "ground");
	s.blas_count = 1;
	float id[3][4];
	scene_transform(id, 1, 0, 0, 0, 0);
	static const float alb[3] = { 1, 1, 1 };
	scene_add_instance(&s, 0, id, 5, 0x02, alb);
	scene_accel *a = scene_accel_build(&s);
	for (int brute = 0; brute < 2; brute++) {
		const scene_accel *x = brute ? NULL : a;
		/* the ground is at t = 1 exactly: tmin <= t <= tmax, both ends inclusive */
		scene_hit h = down(&s, x, 0, 1.0f, 0xFF, false);
		CHECK(h.hit && h.t == 1.0f && h.instance == 0 && h.geometry == 0, "t = tmax hits (t %g)", h.t);
		CHECK(!down(&s, x, 0, nextafterf(1.0f, 0), 0xFF, false).hit, "tmax just below t misses");
		CHECK(down(&s, x, 1.0f, 2.0f, 0xFF, false).hit, "t = tmin hits");
		CHECK(!down(&s, x, nextafterf(1.0f, 2), 2.0f, 0xFF, false).hit, "tmin just above t misses");
		/* (0.25, 0.25) lies in triangle 0 (corners -1,-1 / -1,1 / 1,1): u, v the weights of v1, v2 */
		CHECK(h.primitive == 0, "primitive %u", h.primitive);
		float px = -1 + h.bary[0] * 0 + h.bary[1] * 2, pz = -1 + h.bary[0] * 2 + h.bary[1] * 2;
		CHECK(fabsf(px - 0.25f) < 1e-6f && fabsf(pz - 0.25f) < 1e-6f, "barycentrics %g %g give (%g, %g)",
		      h.bary[0], h.bary[1], px, pz);
		/* facing: clockwise from above is front by default, back from below */
		CHECK(h.front, "ground from above is a front face");
		CHECK(!down(&s, x, 0, 10, 0xFF, true).front, "ground from below is a back face");
		/* the mask */
		CHECK(!down(&s, x, 0, 10, 0x01, false).hit, "ray mask 0x01 misses instance mask 0x02");
		CHECK(down(&s, x, 0, 10, 0x03, false).hit, "ray mask 0x03 sees instance mask 0x02");
		s.instances[0].flags = SCENE_INSTANCE_FRONT_CCW;
		CHECK(!down(&s, x, 0, 10, 0xFF, false).front, "FRONT_COUNTERCLOCKWISE: from above is the back");
		s.instances[0].flags = 0;
		/* a transformed instance: t stays the world-space t (direction not renormalised) */
		scene_transform(s.instances[0].transform, 2.0f, 90.0f, 0, 0.5f, 0);
		h = down(&s, x, 0, 10, 0xFF, false);
		CHECK(h.hit && fabsf(h.t - 0.5f) < 1e-6f, "scaled and lifted ground at t 0.5 (t %g)", h.t);
		scene_transform(s.instances[0].transform, 1, 0, 0, 0, 0);
	}
	/* two overlapping instances at the same t: the smaller instance index */
	scene_add_instance(&s, 0, id, 6, 0xFF, alb);
	scene_accel_free(a);
	a = scene_accel_build(&s);
	CHECK(down(&s, a, 0, 10, 0xFF, false).instance == 0, "equal t: instance 0");
	scene_ray r = { .origin = { 0.25f, 1, 0.25f }, .dir = { 0, -1, 0 }, .tmin = 0, .tmax = 10, .mask = 0xFF,
			.flags = SCENE_RAY_ACCEPT_FIRST_HIT_AND_END_SEARCH };
	CHECK(scene_trace(&s, a, &r).hit, "ACCEPT_FIRST_HIT finds a hit");
	scene_accel_free(a);
	scene_free(&s);
	return failures != 0;
}

static int test_d3d12(void)
{
	scene s;
	CHECK(small_scene(&s) == 0, "small scene");
	/* the layout the GPU reads: D3D12's own structure sizes */
	CHECK(sizeof(D3D12_RAYTRACING_INSTANCE_DESC) == 64, "instance desc %zu bytes",
	      sizeof(D3D12_RAYTRACING_INSTANCE_DESC));
	D3D12_RAYTRACING_GEOMETRY_DESC g;
	scene_geometry_desc(&s.blas[0].meshes[1], 0x10000, 0x20000, &g);
	CHECK(g.Type == D3D12_RAYTRACING_GEOMETRY_TYPE_TRIANGLES && g.Flags == D3D12_RAYTRACING_GEOMETRY_FLAG_OPAQUE,
	      "triangles, opaque");
	CHECK(g.Triangles.VertexFormat == DXGI_FORMAT_R32G32B32_FLOAT && g.Triangles.VertexBuffer.StrideInBytes == 12 &&
		      g.Triangles.VertexCount == 6 && g.Triangles.VertexBuffer.StartAddress == 0x10000,
	      "float3 vertices");
	CHECK(g.Triangles.IndexFormat == DXGI_FORMAT_R32_UINT && g.Triangles.IndexCount == 12 &&
		      g.Triangles.IndexBuffer == 0x20000 && g.Triangles.Transform3x4 == 0,
	      "uint32 indices, no transform");
	D3D12_RAYTRACING_INSTANCE_DESC d[13];
	const uint64_t va[2] = { 0x100000, 0x200000 };
	scene_instance_descs(&s, va, d);
	for (uint32_t i = 0; i < s.instance_count; i++) {
		const scene_instance *in = &s.instances[i];
		CHECK(!memcmp(d[i].Transform, in->transform, 48), "instance %u: the 3x4 row-major transform", i);
		CHECK(d[i].InstanceID == in->instance_id && d[i].InstanceMask == in->mask && d[i].Flags == in->flags &&
			      d[i].InstanceContributionToHitGroupIndex == 0,
		      "instance %u: id, mask, flags", i);
		CHECK(d[i].AccelerationStructure == va[in->blas], "instance %u: its BLAS", i);
	}
	CHECK(d[9].Flags == D3D12_RAYTRACING_INSTANCE_FLAG_TRIANGLE_FRONT_COUNTERCLOCKWISE &&
		      SCENE_INSTANCE_FRONT_CCW == D3D12_RAYTRACING_INSTANCE_FLAG_TRIANGLE_FRONT_COUNTERCLOCKWISE &&
		      SCENE_RAY_ACCEPT_FIRST_HIT_AND_END_SEARCH == D3D12_RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH,
	      "the flag values are D3D12's");
	scene_free(&s);
	return failures != 0;
}

#ifdef SCENE_HAVE_ASSIMP
static int test_loader(const char *path)
{
	char err[512];
	scene_blas b;
	int rc = scene_load(path, &b, err, sizeof(err));
	CHECK(rc == 0, "%s", err);
	if (rc)
		return 1;
	uint64_t tris = scene_blas_triangles(&b);
	printf("%s: %u meshes, %llu triangles, bounds (%g %g %g) .. (%g %g %g)\n", path, b.mesh_count,
	       (unsigned long long)tris, b.bounds_min[0], b.bounds_min[1], b.bounds_min[2], b.bounds_max[0],
	       b.bounds_max[1], b.bounds_max[2]);
	CHECK(b.mesh_count == ENGINE_MESHES, "meshes %u", b.mesh_count);
	CHECK(tris == ENGINE_TRIANGLES, "triangles %llu", (unsigned long long)tris);
	CHECK(scene_blas_bounds(&b), "bounds are finite");
	for (int k = 0; k < 3; k++)
		CHECK(b.bounds_max[k] > b.bounds_min[k], "a solid box, axis %d", k);
	uint64_t bad = 0;
	for (uint32_t g = 0; g < b.mesh_count; g++)
		for (uint32_t i = 0; i < 3 * b.meshes[g].triangle_count; i++)
			bad += b.meshes[g].indices[i] >= b.meshes[g].vertex_count;
	CHECK(bad == 0, "%llu indices out of range", (unsigned long long)bad);
	/* the scene around it: 3 copies and the ground, bottoms on y = 0 */
	scene s;
	CHECK(scene_demo(&s, &b, 3) == 0, "scene_demo");
	CHECK(s.instance_count == 4 && s.blas_count == 2, "4 instances of 2 BLAS");
	scene_free(&s);
	/* a file that is not a model is an error with a message */
	CHECK(scene_load("/dev/null", &b, err, sizeof(err)) != 0 && err[0], "/dev/null is refused");
	return failures != 0;
}

static int load_demo(const char *path, scene *s)
{
	char err[512];
	scene_blas b;
	if (scene_load(path, &b, err, sizeof(err))) {
		printf("%s\n", err);
		return -1;
	}
	return scene_demo(s, &b, 3);
}

static int test_bvh_model(const char *path)
{
	scene s;
	CHECK(load_demo(path, &s) == 0, "load");
	scene_accel *a = scene_accel_build(&s);
	scene_frame fb, fr;
	if (!a || scene_frame_init(&fb, 24, 14) || scene_frame_init(&fr, 24, 14))
		return 1;
	scene_render(&s, a, &fb);
	scene_render(&s, NULL, &fr);
	same_frames(&fb, &fr, "engine scene 24x14");
	uint32_t seen[4] = { 0 };
	count_instances(&fb, 4, seen);
	for (int i = 0; i < 4; i++)
		CHECK(seen[i] > 0, "instance %d is in the picture", i);
	scene_frame_free(&fb);
	scene_frame_free(&fr);
	scene_accel_free(a);
	scene_free(&s);
	return failures != 0;
}
#endif

#ifdef SCENE_HAVE_PNG
static int test_png(const char *dir)
{
	enum { W = 37, H = 23 };
	static uint8_t img[W * H * 4];
	uint32_t x = 12345;
	for (size_t i = 0; i < sizeof(img); i++) {
		x = x * 1103515245u + 12345u;
		img[i] = (uint8_t)(x >> 16);
	}
	char path[4096], err[512];
	snprintf(path, sizeof(path), "%s/scene_png_roundtrip.png", dir);
	CHECK(scene_png_write(path, img, W, H, err, sizeof(err)) == 0, "%s", err);
	uint8_t *back = NULL;
	uint32_t w = 0, h = 0;
	CHECK(scene_png_read(path, &back, &w, &h, err, sizeof(err)) == 0, "%s", err);
	CHECK(w == W && h == H, "%ux%u", w, h);
	CHECK(back && !memcmp(back, img, sizeof(img)), "the bytes read back are the bytes written");
	free(back);
	/* the file is a PNG: its signature */
	FILE *f = fopen(path, "rb");
	unsigned char sig[8] = { 0 };
	CHECK(f && fread(sig, 1, 8, f) == 8 && !memcmp(sig, "\x89PNG\r\n\x1a\n", 8), "PNG signature");
	if (f)
		fclose(f);
	unlink(path);
	CHECK(scene_png_read("/dev/null", &back, &w, &h, err, sizeof(err)) != 0 && err[0], "/dev/null is refused");
	return failures != 0;
}
#endif

#if defined(SCENE_HAVE_ASSIMP) && defined(SCENE_HAVE_PNG)
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int test_render(const char *path, const char *dir)
{
	scene s;
	CHECK(load_demo(path, &s) == 0, "load");
	double t0 = now();
	scene_accel *a = scene_accel_build(&s);
	double t1 = now();
	scene_frame f;
	if (!a || scene_frame_init(&f, 640, 360))
		return 1;
	scene_render(&s, a, &f);
	double t2 = now();
	printf("BVH %.2f s, 640x360 render %.2f s\n", t1 - t0, t2 - t1);
	char out[4096], err[512];
	snprintf(out, sizeof(out), "%s/scene_cpu.png", dir);
	CHECK(scene_png_write(out, f.rgba, f.width, f.height, err, sizeof(err)) == 0, "%s", err);
	/* What a sensible picture shows: every engine and the ground, sky
	 * above, the ground both lit and in shadow (the ambient term alone:
	 * albedo 0.75 x 0.2 -> 38), and the engines lit and unlit sides. */
	uint32_t seen[4] = { 0 };
	size_t hits = count_instances(&f, 4, seen);
	for (int i = 0; i < 4; i++)
		CHECK(seen[i] > 1000, "instance %d covers %u pixels", i, seen[i]);
	CHECK(hits > 640 * 360 / 2 && hits < 640 * 360, "%zu pixels hit", hits);
	size_t shadow = 0, lit = 0, sky_top = 0;
	for (size_t i = 0; i < (size_t)640 * 360; i++) {
		if (f.pixels[i].instance == 3)
			shadow += f.rgba[4 * i] == 38, lit += f.rgba[4 * i] > 100;
		if (i < 640 && f.pixels[i].instance == SCENE_MISS)
			sky_top++;
	}
	printf("ground: %zu pixels in shadow, %zu lit; %zu of the top row is sky\n", shadow, lit, sky_top);
	CHECK(shadow > 2000, "shadows on the ground: %zu pixels", shadow);
	CHECK(lit > 20000, "lit ground: %zu pixels", lit);
	CHECK(sky_top == 640, "the top row is sky");
	scene_frame_free(&f);
	scene_accel_free(a);
	scene_free(&s);
	return failures != 0;
}
#endif

int main(int argc, char **argv)
{
	const char *t = argc > 1 ? argv[1] : "";
	if (!strcmp(t, "rules") && argc == 2)
		return test_rules();
	if (!strcmp(t, "bvh") && argc == 2)
		return test_bvh();
	if (!strcmp(t, "d3d12") && argc == 2)
		return test_d3d12();
	if (!strcmp(t, "loader") || !strcmp(t, "bvh_model") || (!strcmp(t, "render") && argc == 4)) {
#ifndef SCENE_HAVE_ASSIMP
		SKIP("built without libassimp (libassimp-dev)");
#else
		if (access(argv[2], R_OK) != 0)
			SKIP("no model file (assimp-testmodels)");
		if (!strcmp(t, "loader"))
			return test_loader(argv[2]);
		if (!strcmp(t, "bvh_model"))
			return test_bvh_model(argv[2]);
#ifndef SCENE_HAVE_PNG
		SKIP("built without libpng (libpng-dev)");
#else
		return test_render(argv[2], argv[3]);
#endif
#endif
	}
	if (!strcmp(t, "png") && argc == 3) {
#ifndef SCENE_HAVE_PNG
		SKIP("built without libpng (libpng-dev)");
#else
		return test_png(argv[2]);
#endif
	}
	fprintf(stderr, "usage: %s rules | bvh | d3d12 | loader MODEL | bvh_model MODEL | png DIR | render MODEL DIR\n", argv[0]);
	return 2;
}
