/*
 * scene.h — the scene of the ray-tracing demo (issue 10 §5) as plain C
 * data: triangle meshes that become BLAS geometries, instances that become
 * the TLAS, a camera and a point light; a CPU reference renderer written
 * from the D3D12 ray rules; PNG files. Client-side code, as a title would
 * write it: nothing here is part of libxs12 or shares code with its ray
 * path (src/bvh, the TraceRay of the GPU), so the CPU image is an
 * independent reference for the GPU one. docs/rays.md defines the shading.
 *
 * Parts (one concern per file):
 *   scene.c          meshes, the ground plane, instances, the demo's arrangement
 *   scene_d3d12.c    the D3D12 geometry and instance descriptors
 *   scene_load.c     a model file through libassimp (needs assimp)
 *   scene_trace.c    CPU rays: a textbook BVH per mesh, and brute force
 *   scene_render.c   camera, shading, the per-pixel frame, comparison
 *   scene_png.c      PNG files through libpng (needs libpng)
 *   scene_cpu.c      the command: render to a PNG, compare two PNGs
 */
#ifndef XS12_SCENE_H
#define XS12_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- meshes: one BLAS geometry each ----------------------------------------- */

/* A triangle mesh in the model's object space (node transforms applied):
 * the vertex and index buffers of one D3D12_RAYTRACING_GEOMETRY_DESC,
 * DXGI_FORMAT_R32G32B32_FLOAT positions (stride 12) and DXGI_FORMAT_R32_UINT
 * indices, three per triangle. */
typedef struct scene_mesh {
	float *positions;      /* 3 floats per vertex */
	uint32_t vertex_count;
	uint32_t *indices;     /* 3 per triangle */
	uint32_t triangle_count;
} scene_mesh;

/* A BLAS: its meshes are its geometries, in order (GeometryIndex()). */
typedef struct scene_blas {
	scene_mesh *meshes;
	uint32_t mesh_count;
	float bounds_min[3], bounds_max[3];
} scene_blas;

/* ---- instances: the TLAS ------------------------------------------------------ */

/* D3D12_RAYTRACING_INSTANCE_DESC's fields; the BLAS is an index into
 * scene.blas until scene_instance_descs puts GPU addresses there. */
typedef struct scene_instance {
	float transform[3][4];   /* object to world, row-major 3x4 as D3D12's Transform */
	uint32_t instance_id;    /* InstanceID(), 24 bits */
	uint8_t mask;            /* InstanceMask */
	uint8_t flags;           /* D3D12_RAYTRACING_INSTANCE_FLAGS */
	uint32_t blas;           /* index into scene.blas */
	float albedo[3];         /* the shading's colour of this instance (docs/rays.md) */
} scene_instance;

typedef struct scene_camera {
	float eye[3], target[3], up[3];
	float fov_y_degrees;     /* vertical field of view */
} scene_camera;

typedef struct scene {
	scene_blas *blas;
	uint32_t blas_count;
	scene_instance *instances;   /* InstanceIndex() is the position here */
	uint32_t instance_count;
	scene_camera camera;
	float light[3];              /* a point light, world space */
	float shadow_tmin;           /* TMin of shadow rays (self-intersection) */
} scene;

/* D3D12's instance flag that swaps the facing (the default: clockwise is
 * front); the value of D3D12_RAYTRACING_INSTANCE_FLAG_TRIANGLE_FRONT_COUNTERCLOCKWISE. */
#define SCENE_INSTANCE_FRONT_CCW 0x2u

/* scene.c */
void scene_blas_free(scene_blas *b);
void scene_free(scene *s);
/* Bounds of the BLAS's vertices (every component finite: true). */
bool scene_blas_bounds(scene_blas *b);
uint64_t scene_blas_triangles(const scene_blas *b);
/* A square ground plane of side 2*half at height y, facing +y from above
 * under D3D12's default (clockwise front) winding: one mesh of 2 triangles. */
int scene_ground(scene_blas *out, float half, float y);
/* Adds an instance; returns its index (InstanceIndex()) or -1. */
int scene_add_instance(scene *s, uint32_t blas, const float transform[3][4], uint32_t id, uint8_t mask,
		       const float albedo[3]);
/* transform = translate(t) * rotate_y(degrees) * uniform scale. */
void scene_transform(float m[3][4], float scale, float rotate_y_degrees, float tx, float ty, float tz);
/* The demo's scene around a loaded model (owned by the scene afterwards):
 * `copies` instances of it standing on a ground plane, camera and light
 * framing them. */
int scene_demo(scene *s, scene_blas *model, int copies);

/* The D3D12 descriptors, written as a title writes them into upload
 * buffers. Defined in scene_d3d12.c, which includes DirectX-Headers; the
 * caller gives the GPU addresses of the vertex, index and BLAS buffers. */
struct D3D12_RAYTRACING_GEOMETRY_DESC;
struct D3D12_RAYTRACING_INSTANCE_DESC;
void scene_geometry_desc(const scene_mesh *m, uint64_t vertex_va, uint64_t index_va,
			 struct D3D12_RAYTRACING_GEOMETRY_DESC *out);
void scene_instance_descs(const scene *s, const uint64_t *blas_va, struct D3D12_RAYTRACING_INSTANCE_DESC *out);

/* scene_load.c (libassimp): every mesh of every node of the file, with the
 * node's accumulated transform applied, one scene_mesh per (node, mesh)
 * pair. 0, or -1 with a message in err. */
int scene_load(const char *path, scene_blas *out, char *err, size_t err_size);

/* ---- rays (scene_trace.c) ----------------------------------------------------------- */

/* The ray flags the renderer uses (D3D12_RAY_FLAGS values). */
#define SCENE_RAY_ACCEPT_FIRST_HIT_AND_END_SEARCH 0x4u

typedef struct scene_ray {
	float origin[3], dir[3];   /* world space; dir need not be unit length */
	float tmin, tmax;
	uint32_t flags;            /* SCENE_RAY_* */
	uint8_t mask;              /* InstanceInclusionMask */
} scene_ray;

typedef struct scene_hit {
	bool hit;
	float t;                   /* RayTCurrent() */
	uint32_t instance;         /* InstanceIndex() */
	uint32_t geometry;         /* GeometryIndex() */
	uint32_t primitive;        /* PrimitiveIndex() */
	float bary[2];             /* attributes.barycentrics: weights of vertices 1 and 2 */
	bool front;                /* HitKind() == HIT_KIND_TRIANGLE_FRONT_FACE */
} scene_hit;

/* The acceleration of the CPU path: a plain BVH per BLAS (median split,
 * built once). Brute force needs none. */
typedef struct scene_accel scene_accel;
scene_accel *scene_accel_build(const scene *s);
void scene_accel_free(scene_accel *a);
/* Closest hit with tmin <= t <= tmax (or, with ACCEPT_FIRST_HIT, any hit).
 * With a == NULL every triangle of every instance is tested (brute force). */
scene_hit scene_trace(const scene *s, const scene_accel *a, const scene_ray *r);

/* ---- the picture (scene_render.c) --------------------------------------------------- */

#define SCENE_MISS 0xFFFFFFFFu

/* What a pixel saw: what the GPU's ray-generation shader will write too. */
typedef struct scene_pixel {
	uint32_t instance;    /* InstanceIndex(), SCENE_MISS */
	uint32_t geometry;    /* GeometryIndex() */
	uint32_t primitive;   /* PrimitiveIndex() */
	float t;
} scene_pixel;

typedef struct scene_frame {
	uint32_t width, height;
	scene_pixel *pixels;  /* row-major, row 0 at the top */
	uint8_t *rgba;        /* 4 bytes a pixel */
} scene_frame;

int scene_frame_init(scene_frame *f, uint32_t width, uint32_t height);
void scene_frame_free(scene_frame *f);
/* The primary ray of pixel (x, y) (DispatchRaysIndex()). */
scene_ray scene_camera_ray(const scene *s, uint32_t x, uint32_t y, uint32_t width, uint32_t height);
/* The colour of a primary ray's result, by the formula of docs/rays.md
 * (traces the shadow ray). */
void scene_shade(const scene *s, const scene_accel *a, const scene_ray *r, const scene_hit *h, uint8_t rgba[4]);
/* Every pixel (a == NULL: brute force). */
void scene_render(const scene *s, const scene_accel *a, scene_frame *f);

typedef struct scene_diff {
	uint64_t pixels;
	uint64_t same_ids;    /* instance, geometry and primitive all equal (misses equal) */
	unsigned max_channel; /* largest |a - b| of any RGBA byte */
	uint64_t over_1;      /* pixels with a channel differing by more than 1 */
} scene_diff;
/* Frames of the same size; ids from pixels, colours from rgba. */
scene_diff scene_frame_compare(const scene_frame *a, const scene_frame *b);
/* The image test of docs/rays.md: >= 99.9% same ids, colours within 1/255. */
bool scene_diff_ok(const scene_diff *d);

/* ---- PNG (scene_png.c, libpng) ------------------------------------------------------ */

int scene_png_write(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height, char *err,
		    size_t err_size);
/* The same for rows row_pitch bytes apart: an R8G8B8A8_UNORM render target
 * read back through its copyable footprint (RowPitch), as the graphics
 * tests and examples have it. */
int scene_png_write_rows(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height, uint32_t row_pitch,
			 char *err, size_t err_size);
/* Reads any PNG as RGBA8; *rgba is malloc'd. */
int scene_png_read(const char *path, uint8_t **rgba, uint32_t *width, uint32_t *height, char *err,
		   size_t err_size);

#endif
