/*
 * scene_load.c — a model file through libassimp's C API, flattened: each
 * (node, mesh) pair becomes one scene_mesh with the node's accumulated
 * transform applied to its positions, so a BLAS of these meshes needs no
 * per-geometry transforms. Only triangles are kept (aiProcess_Triangulate
 * turns polygons into them; points and lines are dropped, as a BLAS of
 * triangles cannot hold them).
 */
#include "scene.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct loader {
	const struct aiScene *ai;
	scene_blas *out;
	uint32_t cap;
} loader;

static void mul(struct aiMatrix4x4 *r, const struct aiMatrix4x4 *a, const struct aiMatrix4x4 *b)
{
	const float *x = &a->a1, *y = &b->a1;
	float o[16];
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			float s = 0;
			for (int k = 0; k < 4; k++)
				s += x[4 * i + k] * y[4 * k + j];
			o[4 * i + j] = s;
		}
	memcpy(&r->a1, o, sizeof(o));
}

static int add_mesh(loader *l, const struct aiMesh *am, const struct aiMatrix4x4 *m)
{
	uint32_t tris = 0;
	for (unsigned f = 0; f < am->mNumFaces; f++)
		tris += am->mFaces[f].mNumIndices == 3;
	if (!tris || !am->mNumVertices)
		return 0;
	if (l->out->mesh_count == l->cap) {
		uint32_t cap = l->cap ? 2 * l->cap : 16;
		scene_mesh *n = realloc(l->out->meshes, cap * sizeof(*n));
		if (!n)
			return -1;
		l->out->meshes = n;
		l->cap = cap;
	}
	scene_mesh *sm = &l->out->meshes[l->out->mesh_count];
	memset(sm, 0, sizeof(*sm));
	sm->positions = malloc((size_t)am->mNumVertices * 3 * sizeof(float));
	sm->indices = malloc((size_t)tris * 3 * sizeof(uint32_t));
	if (!sm->positions || !sm->indices) {
		free(sm->positions);
		free(sm->indices);
		return -1;
	}
	l->out->mesh_count++;
	sm->vertex_count = am->mNumVertices;
	sm->triangle_count = tris;
	for (unsigned v = 0; v < am->mNumVertices; v++) {
		const struct aiVector3D p = am->mVertices[v];
		/* aiMatrix4x4 is row-major with the translation in a4, b4, c4 */
		sm->positions[3 * v + 0] = m->a1 * p.x + m->a2 * p.y + m->a3 * p.z + m->a4;
		sm->positions[3 * v + 1] = m->b1 * p.x + m->b2 * p.y + m->b3 * p.z + m->b4;
		sm->positions[3 * v + 2] = m->c1 * p.x + m->c2 * p.y + m->c3 * p.z + m->c4;
	}
	uint32_t t = 0;
	for (unsigned f = 0; f < am->mNumFaces; f++) {
		const struct aiFace *face = &am->mFaces[f];
		if (face->mNumIndices != 3)
			continue;
		for (int k = 0; k < 3; k++)
			sm->indices[3 * t + k] = face->mIndices[k];
		t++;
	}
	return 0;
}

static int walk(loader *l, const struct aiNode *n, const struct aiMatrix4x4 *parent, int depth)
{
	/* glTF node graphs are trees, but a file need not be: bound the depth */
	if (depth > 256)
		return -1;
	struct aiMatrix4x4 m;
	mul(&m, parent, &n->mTransformation);
	for (unsigned i = 0; i < n->mNumMeshes; i++)
		if (n->mMeshes[i] >= l->ai->mNumMeshes || add_mesh(l, l->ai->mMeshes[n->mMeshes[i]], &m))
			return -1;
	for (unsigned i = 0; i < n->mNumChildren; i++)
		if (walk(l, n->mChildren[i], &m, depth + 1))
			return -1;
	return 0;
}

int scene_load(const char *path, scene_blas *out, char *err, size_t err_size)
{
	memset(out, 0, sizeof(*out));
	const struct aiScene *ai = aiImportFile(path, aiProcess_Triangulate | aiProcess_SortByPType);
	if (!ai || !ai->mRootNode) {
		snprintf(err, err_size, "%s: %s", path, aiGetErrorString());
		if (ai)
			aiReleaseImport(ai);
		return -1;
	}
	loader l = { .ai = ai, .out = out };
	struct aiMatrix4x4 id;
	aiIdentityMatrix4(&id);
	int rc = walk(&l, ai->mRootNode, &id, 0);
	aiReleaseImport(ai);
	if (rc) {
		snprintf(err, err_size, "%s: out of memory or a bad node graph", path);
		scene_blas_free(out);
		return -1;
	}
	if (!scene_blas_bounds(out)) {
		snprintf(err, err_size, "%s: a vertex position is not finite", path);
		scene_blas_free(out);
		return -1;
	}
	return 0;
}
