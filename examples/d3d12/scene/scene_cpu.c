/*
 * scene_cpu.c — the demo's scene rendered by the CPU reference renderer,
 * to a PNG, with the times it took; or two PNGs compared.
 *
 *   scene_cpu MODEL OUT.png [WIDTH HEIGHT [COPIES]]
 *   scene_cpu --compare A.png B.png     exit 0 when within 1/255 on >= 99.9 % of pixels
 */
#include "scene.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare(const char *a, const char *b)
{
	char err[512];
	scene_frame fa = { 0 }, fb = { 0 };
	int rc = 2;
	if (scene_png_read(a, &fa.rgba, &fa.width, &fa.height, err, sizeof(err)) ||
	    scene_png_read(b, &fb.rgba, &fb.width, &fb.height, err, sizeof(err))) {
		fprintf(stderr, "scene_cpu: %s\n", err);
		goto out;
	}
	if (fa.width != fb.width || fa.height != fb.height) {
		fprintf(stderr, "scene_cpu: %ux%u and %ux%u\n", fa.width, fa.height, fb.width, fb.height);
		rc = 1;
		goto out;
	}
	/* colours only: a PNG holds no ids */
	size_t n = (size_t)fa.width * fa.height;
	fa.pixels = calloc(n ? n : 1, sizeof(scene_pixel));
	fb.pixels = calloc(n ? n : 1, sizeof(scene_pixel));
	if (!fa.pixels || !fb.pixels)
		goto out;
	scene_diff d = scene_frame_compare(&fa, &fb);
	printf("%llu pixels, max channel difference %u, %llu differ by more than 1\n", (unsigned long long)d.pixels,
	       d.max_channel, (unsigned long long)d.over_1);
	rc = scene_diff_ok(&d) ? 0 : 1;
out:
	scene_frame_free(&fa);
	scene_frame_free(&fb);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--compare"))
		return compare(argv[2], argv[3]);
	if (argc != 3 && argc != 5 && argc != 6) {
		fprintf(stderr, "usage: %s MODEL OUT.png [WIDTH HEIGHT [COPIES]]\n"
				"       %s --compare A.png B.png\n", argv[0], argv[0]);
		return 2;
	}
	uint32_t w = argc >= 5 ? (uint32_t)atoi(argv[3]) : 640, h = argc >= 5 ? (uint32_t)atoi(argv[4]) : 360;
	int copies = argc == 6 ? atoi(argv[5]) : 3;
	if (!w || !h || w > 8192 || h > 8192 || copies < 1 || copies > 16) {
		fprintf(stderr, "scene_cpu: size 1..8192, copies 1..16\n");
		return 2;
	}
	char err[512];
	double t0 = now();
	scene_blas model;
	if (scene_load(argv[1], &model, err, sizeof(err))) {
		fprintf(stderr, "scene_cpu: %s\n", err);
		return 1;
	}
	scene s;
	if (scene_demo(&s, &model, copies)) {
		fprintf(stderr, "scene_cpu: cannot place the model\n");
		return 1;
	}
	double t1 = now();
	scene_accel *a = scene_accel_build(&s);
	double t2 = now();
	scene_frame f;
	if (!a || scene_frame_init(&f, w, h)) {
		fprintf(stderr, "scene_cpu: out of memory\n");
		return 1;
	}
	scene_render(&s, a, &f);
	double t3 = now();
	uint64_t tris = 0;
	for (uint32_t i = 0; i < s.instance_count; i++)
		tris += scene_blas_triangles(&s.blas[s.instances[i].blas]);
	uint64_t hits = 0;
	for (size_t i = 0; i < (size_t)w * h; i++)
		hits += f.pixels[i].instance != SCENE_MISS;
	printf("%s: %u meshes, %llu triangles; scene: %u instances, %llu triangles\n", argv[1], s.blas[0].mesh_count,
	       (unsigned long long)scene_blas_triangles(&s.blas[0]), s.instance_count, (unsigned long long)tris);
	printf("load %.2f s, BVH %.2f s, render %ux%u %.2f s (%llu of %u pixels hit, 1 thread)\n", t1 - t0, t2 - t1,
	       w, h, t3 - t2, (unsigned long long)hits, w * h);
	int rc = scene_png_write(argv[2], f.rgba, w, h, err, sizeof(err));
	if (rc)
		fprintf(stderr, "scene_cpu: %s\n", err);
	scene_frame_free(&f);
	scene_accel_free(a);
	scene_free(&s);
	return rc ? 1 : 0;
}
