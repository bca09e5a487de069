/*
 * Real meshes for the builder's tests and bench: binary STL and Wavefront
 * OBJ (positions and faces; polygons as fans) from Debian's
 * assimp-testmodels (/usr/share/assimp/models), optional: a file that is
 * not there or not readable loads nothing.
 */
#ifndef MESH_FILES_H
#define MESH_FILES_H
#include "bvh/xs_bvh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MESH_DIR "/usr/share/assimp/models"

static const char *const mesh_files[] = {
	MESH_DIR "/STL/Wuson.stl",        MESH_DIR "/STL/Spider_binary.stl", MESH_DIR "/STL/3DSMaxExport.STL",
	MESH_DIR "/OBJ/spider.obj",       MESH_DIR "/OBJ/WusonOBJ.obj",       MESH_DIR "/OBJ/regr01.obj",
};

static void mesh_add(xs_bvh_triangle **t, uint32_t *n, uint32_t *cap, const float v[3][3])
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 1024;
		*t = realloc(*t, (size_t)*cap * sizeof(**t));
	}
	memcpy((*t)[*n].v, v, 36);
	(*t)[*n].triangle_id = *n;
	(*t)[*n].geometry_flags = 0;
	(*n)++;
}

/* Binary STL: an 80-byte header, a u32 count, then 50 bytes a triangle
 * (normal, 3 vertices, attribute). */
static uint32_t mesh_load_stl(FILE *f, xs_bvh_triangle **t)
{
	uint8_t hdr[84], rec[50];
	uint32_t count, n = 0, cap = 0;
	if (fread(hdr, 1, 84, f) != 84)
		return 0;
	memcpy(&count, hdr + 80, 4);
	for (uint32_t i = 0; i < count && fread(rec, 1, 50, f) == 50; i++) {
		float v[3][3];
		memcpy(v, rec + 12, 36);
		mesh_add(t, &n, &cap, v);
	}
	return n;
}

static uint32_t mesh_load_obj(FILE *f, xs_bvh_triangle **t)
{
	float (*pos)[3] = NULL;
	uint32_t npos = 0, cpos = 0, n = 0, cap = 0;
	char line[4096];
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == 'v' && line[1] == ' ') {
			if (npos == cpos) {
				cpos = cpos ? 2 * cpos : 1024;
				pos = realloc(pos, (size_t)cpos * sizeof(*pos));
			}
			if (sscanf(line + 2, "%f %f %f", &pos[npos][0], &pos[npos][1], &pos[npos][2]) == 3)
				npos++;
		} else if (line[0] == 'f' && line[1] == ' ') {
			long idx[64];
			int k = 0;
			for (char *s = strtok(line + 2, " \t\r\n"); s && k < 64; s = strtok(NULL, " \t\r\n")) {
				long i = strtol(s, NULL, 10);
				idx[k++] = i < 0 ? (long)npos + i : i - 1; /* 1-based, or relative */
			}
			for (int j = 1; j + 1 < k; j++) {
				if (idx[0] < 0 || idx[j] < 0 || idx[j + 1] < 0 || idx[0] >= npos || idx[j] >= npos ||
				    idx[j + 1] >= npos)
					continue;
				float v[3][3];
				memcpy(v[0], pos[idx[0]], 12);
				memcpy(v[1], pos[idx[j]], 12);
				memcpy(v[2], pos[idx[j + 1]], 12);
				mesh_add(t, &n, &cap, v);
			}
		}
	}
	free(pos);
	return n;
}

/* The triangles of path into *t (malloc'd; the caller frees), 0 if none. */
static uint32_t mesh_load(const char *path, xs_bvh_triangle **t)
{
	*t = NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	size_t len = strlen(path);
	bool obj = len > 4 && !strcmp(path + len - 4, ".obj");
	uint32_t n = obj ? mesh_load_obj(f, t) : mesh_load_stl(f, t);
	fclose(f);
	return n;
}

#endif
