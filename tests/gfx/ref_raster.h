/*
 * ref_raster.h — an independent CPU reference rasterizer for the graphics
 * tests, written from the D3D12 (D3D11.3 functional specification)
 * rasterization rules, not from the GPU model: the oracle the pipe's
 * output is compared with pixel for pixel (docs/graphics.md section 4).
 *
 * One sample per pixel. Triangles in clip space are clipped to
 * 0 <= z <= w (and to a wide guard band in x/y, which gives the pixels of
 * exact x/y clipping because the viewport and scissor bound the pixels
 * anyway), divided by w, put through the viewport, snapped to 1/256 pixel
 * and rasterized with 64-bit integer edge functions and the top-left rule
 * at pixel centres (+0.5). Attributes are interpolated perspective-
 * correctly, depth linearly in screen space; depth test, then blending.
 *
 * The enumerations use the values of their D3D12 counterparts
 * (D3D12_CULL_MODE, D3D12_COMPARISON_FUNC), so a test can pass either.
 */
#ifndef XS_TEST_REF_RASTER_H
#define XS_TEST_REF_RASTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REF_MAX_ATTR 4
/* Subpixel precision of snapped vertex positions: 8 bits (1/256 pixel). */
#define REF_SUBPIXEL_BITS 8

typedef enum ref_cull { REF_CULL_NONE = 1, REF_CULL_FRONT = 2, REF_CULL_BACK = 3 } ref_cull;

typedef enum ref_cmp {
	REF_CMP_NEVER = 1,
	REF_CMP_LESS = 2,
	REF_CMP_EQUAL = 3,
	REF_CMP_LESS_EQUAL = 4,
	REF_CMP_GREATER = 5,
	REF_CMP_NOT_EQUAL = 6,
	REF_CMP_GREATER_EQUAL = 7,
	REF_CMP_ALWAYS = 8,
} ref_cmp;

typedef enum ref_blend {
	REF_BLEND_OFF = 0,
	/* colour: SRC_ALPHA, INV_SRC_ALPHA, ADD; alpha: ONE, INV_SRC_ALPHA, ADD */
	REF_BLEND_STRAIGHT_ALPHA = 1,
} ref_blend;

typedef enum ref_format {
	REF_FMT_R8G8B8A8_UNORM = 0,
	REF_FMT_R32G32B32A32_FLOAT = 1,
} ref_format;

/* A vertex as the VS outputs it: SV_Position in clip space and
 * attributes (attribute 0 is what the default pixel shader writes). */
typedef struct ref_vertex {
	float pos[4];
	float attr[REF_MAX_ATTR][4];
} ref_vertex;

typedef struct ref_state {
	/* D3D12_VIEWPORT */
	float vp_x, vp_y, vp_width, vp_height, vp_min_depth, vp_max_depth;
	/* D3D12_RECT: left/top inclusive, right/bottom exclusive */
	int32_t sc_left, sc_top, sc_right, sc_bottom;
	ref_cull cull;
	bool front_ccw;                /* FrontCounterClockwise */
	bool depth_enable, depth_write;
	ref_cmp depth_func;
	ref_blend blend;
	unsigned num_attr;             /* 0..REF_MAX_ATTR */
} ref_state;

/* The pixel shader: attributes at the pixel centre -> colour. NULL in
 * ref_draw means "output attribute 0". */
typedef void (*ref_shader_fn)(const float attr[REF_MAX_ATTR][4], float out[4], void *user);

typedef struct ref_target {
	uint32_t width, height;
	ref_format format;
	uint8_t *rgba8;    /* width*height*4 when R8G8B8A8_UNORM */
	float *rgba32f;    /* width*height*4 when R32G32B32A32_FLOAT */
	float *depth;      /* width*height, D32_FLOAT */
	uint32_t *count;   /* width*height: colour writes (fragments that passed the depth test) */
	/* width*height, R8G8B8A8_UNORM only: 1 once a write to the pixel had a
	 * channel within REF_TIE_EPS of a rounding boundary (v * 255 = k + 0.5),
	 * where float evaluation in another order may round the other way */
	uint8_t *tie;
} ref_target;

/* In units of the UNORM8 step: 0.002 of 1/255 is about 8e-6, some 60 float
 * ulps at 1.0, well above the rounding differences of interpolation. */
#define REF_TIE_EPS 0.002

typedef struct ref_stats {
	uint64_t triangles;       /* submitted */
	uint64_t culled;          /* face culling or zero area */
	uint64_t clipped;         /* touched the near/far planes or the guard band */
	uint64_t discarded;       /* wholly outside after clipping, or non-finite */
	uint64_t fragments;       /* covered pixels */
	uint64_t written;         /* passed the depth test */
} ref_stats;

/* Allocates the images (colour zero, depth 1, counts 0). 0, or -1 with a message. */
int ref_target_init(ref_target *t, uint32_t width, uint32_t height, ref_format format, char *err, size_t err_size);
void ref_target_free(ref_target *t);
/* ClearRenderTargetView / ClearDepthStencilView; resets the counts. */
void ref_clear(ref_target *t, const float rgba[4], float depth);

/* A state with a full-target viewport and scissor, no culling, no depth,
 * no blending, one attribute. */
void ref_state_default(ref_state *s, uint32_t width, uint32_t height);

/* An indexed triangle list: num_indices / 3 triangles of vertices[indices[i]]
 * (indices NULL: vertices in order). 0, or -1 with a message naming the bad
 * field or index (then nothing was drawn). stats may be NULL; it is added to. */
int ref_draw(ref_target *t, const ref_state *s, const ref_vertex *vertices, size_t num_vertices,
	     const uint32_t *indices, size_t num_indices, ref_shader_fn shader, void *user, ref_stats *stats,
	     char *err, size_t err_size);

/* float -> UNORM8 as the D3D11.3 specification's FLOAT -> UNORM rule
 * states it: NaN to 0, clamp to [0, 1], scale by 255, add 0.5 and drop
 * the fraction (round to nearest, halves up). */
uint8_t ref_unorm8(float v);

#endif
