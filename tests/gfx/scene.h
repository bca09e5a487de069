/*
 * scene.h — the graphics test scene (docs/graphics.md section 4): an
 * indexed mesh the D3D12 pipe and the reference rasterizer both draw.
 *
 * GFX_SCENE_MAIN: a terrain grid (shared edges, its near rows crossing
 * the near plane and reaching behind the eye, so they are clipped), three
 * cubes above it (their back faces culled, depth deciding which hides
 * which), then one straight-alpha quad on top.
 * GFX_SCENE_COVERAGE: a jittered grid covering the whole target, some
 * vertices on pixel centres, white at alpha 0.25 blended over black with
 * no depth: each pixel written once reads 64, twice 112, never 0 — the
 * per-pixel write count as a GPU image shows it.
 *
 * Positions are precomputed in clip space, so the vertex shader only
 * passes them and the colour through: VS and reference get the same
 * floats. The vertex buffer layout is gfx_vertex (stride 32): POSITION
 * R32G32B32A32_FLOAT at 0, COLOR R32G32B32A32_FLOAT at 16.
 */
#ifndef XS_TEST_GFX_SCENE_H
#define XS_TEST_GFX_SCENE_H

#include "ref_raster.h"

typedef struct gfx_vertex {
	float pos[4];
	float color[4];
} gfx_vertex;

/* One DrawIndexedInstanced(index_count, 1, first_index, 0, 0) with its state. */
typedef struct gfx_draw {
	const char *what;
	uint32_t first_index, index_count;
	ref_state state;
} gfx_draw;

typedef enum gfx_scene_kind { GFX_SCENE_MAIN = 0, GFX_SCENE_COVERAGE = 1 } gfx_scene_kind;

#define GFX_SCENE_MAX_DRAWS 4

typedef struct gfx_scene {
	gfx_scene_kind kind;
	uint32_t width, height;
	float clear[4];
	float clear_depth;
	gfx_vertex *vertices;
	uint32_t num_vertices;
	uint32_t *indices;
	uint32_t num_indices;
	gfx_draw draws[GFX_SCENE_MAX_DRAWS];
	unsigned num_draws;
} gfx_scene;

/* Builds a scene for a size x size target (16..1024). 0, or -1 with a message. */
int gfx_scene_build(gfx_scene *s, gfx_scene_kind kind, uint32_t size, char *err, size_t err_size);
void gfx_scene_free(gfx_scene *s);
/* Draws the scene with the reference rasterizer into a new target (which
 * the caller frees with ref_target_free). stats may be NULL. */
int gfx_scene_render(const gfx_scene *s, ref_format format, ref_target *t, ref_stats *stats, char *err,
		     size_t err_size);

#endif
