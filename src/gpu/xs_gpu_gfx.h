/*
 * The graphics pipe's fixed-function stages, as the SPI drives them
 * (internal to src/gpu). Two halves with this header between them:
 *
 *   front (xs_gpu_gfx_state.c, xs_gpu_vgt.c, xs_gpu_raster.c, xs_gpu_cb.c):
 *     registers -> xs_gfx_state (decoded once per draw); VGT: indices ->
 *     VS batches; PA/SC: a primitive's three VS outputs -> clip, cull,
 *     viewport, rasterize (D3D12 rules) -> quads with depth tested; CB:
 *     a PS lane's colour export -> blend -> render target memory.
 *   waves (xs_gpu_spi*.c, xs_gpu_cp.c): VS and PS waves, the parameter
 *     cache, late allocation, S4 limits; it calls the front's functions.
 *
 * All of it reads registers and GPU memory only. docs/graphics.md.
 */
#ifndef XS_GPU_GFX_H
#define XS_GPU_GFX_H

#include "gpu/xs_gpu.h"
#include "mem/xs_vm.h"

#define XS_GFX_MAX_RT 8
#define XS_GFX_MAX_PARAMS 32

/* ---- decoded draw state ----------------------------------------------------- */
typedef enum { XS_GFX_PRIM_TRILIST, XS_GFX_PRIM_TRISTRIP } xs_gfx_prim_type;
typedef enum { XS_GFX_RT_NONE, XS_GFX_RT_RGBA8_UNORM, XS_GFX_RT_RGBA32_FLOAT } xs_gfx_rt_format;

typedef struct xs_gfx_rt {
	xs_gfx_rt_format format;
	uint64_t va;              /* CB_COLORn_BASE/BASE_EXT << 8 */
	uint32_t width, height;   /* CB_COLORn_ATTRIB2 MIP0_WIDTH/HEIGHT + 1 */
	uint32_t pitch;           /* bytes per row: xs_hw_linear_pitch */
	uint32_t write_mask;      /* CB_TARGET_MASK nibble (R=1, G=2, B=4, A=8) */
	uint32_t blend;           /* CB_BLENDn_CONTROL */
	uint32_t export_format;   /* SPI_SHADER_COL_FORMAT nibble */
	uint32_t comp_swap;       /* CB_COLORn_INFO.COMP_SWAP: SWAP_STD (RGBA in memory) or, RGBA8, SWAP_ALT (BGRA) */
	uint32_t bpp;             /* bytes per pixel: 4 or 16 */
} xs_gfx_rt;

typedef struct xs_gfx_state {
	/* shaders (SH registers) */
	uint64_t vs_va, ps_va;
	uint32_t vs_rsrc1, vs_rsrc2, vs_rsrc3, vs_rsrc4, ps_rsrc1, ps_rsrc2, ps_rsrc3, ps_rsrc4;
	uint32_t late_alloc_vs;   /* SPI_SHADER_LATE_ALLOC_VS */
	uint32_t vs_user[32], ps_user[32];
	uint32_t vs_user_sgprs, ps_user_sgprs;
	bool vs_w32, ps_w32;
	uint32_t vs_vgprs, ps_vgprs; /* allocated, in the wave's own size */
	uint32_t tmpring;         /* SPI_TMPRING_SIZE */
	/* VS outputs / PS inputs */
	uint32_t num_params;      /* SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT + 1 (0 when no params) */
	uint32_t num_interp;      /* SPI_PS_IN_CONTROL.NUM_INTERP */
	uint32_t ps_input_cntl[XS_GFX_MAX_PARAMS]; /* SPI_PS_INPUT_CNTL_n */
	uint32_t ps_input_ena, ps_input_addr;
	uint32_t z_export_format;
	/* primitive */
	xs_gfx_prim_type prim;
	uint32_t index_size;      /* 0 (auto), 2, 4 */
	uint64_t index_va;
	uint32_t index_count_max; /* INDEX_BUFFER_SIZE: indices readable */
	uint32_t indx_offset;     /* VGT_INDX_OFFSET */
	uint32_t instances;       /* NUM_INSTANCES */
	/* PA / SC */
	float vp_scale[3], vp_offset[3];
	float zmin, zmax;
	int32_t scissor[4];       /* x0, y0, x1, y1 (exclusive), viewport scissor ∩ screen scissor */
	uint32_t su_sc_mode_cntl, cl_clip_cntl, cl_vte_cntl, su_vtx_cntl;
	float gb_vert_clip, gb_horz_clip, gb_vert_disc, gb_horz_disc;
	/* DB */
	bool z_enable, z_write;
	uint32_t zfunc;           /* V_028800_FRAG_* */
	uint64_t z_va;
	uint32_t z_width, z_height, z_pitch;
	bool z_valid;             /* DB_Z_INFO.FORMAT == Z_32_FLOAT */
	/* CB */
	xs_gfx_rt rt[XS_GFX_MAX_RT];
	uint32_t cb_color_control;
	float blend_const[4];     /* CB_BLEND_RED..ALPHA (BLEND_CONSTANT_*) */
	uint32_t db_shader_control; /* DB_SHADER_CONTROL */
	bool early_z;             /* depth may be tested and written before the PS: Z_ENABLE, and the PS
				   * neither exports depth (Z_EXPORT_ENABLE) nor discards (KILL_ENABLE) */
} xs_gfx_state;

/* Decodes the queue's registers for a draw. XS_E_INVALID_ARG naming the
 * register and field for state that cannot draw (a VS address 0; a PS
 * address 0 is a draw without a pixel shader), XS_E_UNSUPPORTED for what
 * xs12 does not model (a colour format, a primitive type...). The index
 * fields come from the queue's INDEX_BASE / INDEX_BUFFER_SIZE / VGT_INDEX_TYPE:
 * a draw then applies its packet's own figures with xs_gfx_state_set_draw
 * (xs_gpu_priv.h), which also makes non-indexed draws auto-indexed. */
xs_status xs_gfx_state_decode(const xs_gpu_queue_regs *regs, xs_gfx_state *s, xs_err *e);

/* ---- VGT: vertices to VS batches --------------------------------------------- */
/* A VS wave's work: up to `lanes` unique vertices and the primitives that use
 * them (each primitive's three lanes, in the API's vertex order). A primitive
 * belongs to the batch that holds all its vertices (vertices are repeated in
 * a later batch when needed). */
#define XS_GFX_MAX_BATCH_PRIMS 128
typedef struct xs_gfx_batch {
	uint32_t nverts, nprims;
	uint32_t vertex_id[64], instance_id[64];
	uint8_t prim_lane[XS_GFX_MAX_BATCH_PRIMS][3];
	uint64_t first_prim;      /* draw-order index of prim 0 (for ordering and strip winding) */
} xs_gfx_batch;

typedef struct xs_gfx_vgt {
	const xs_gfx_state *s;
	xs_vm *vm;
	uint32_t lanes;
	uint64_t count;           /* vertices (indices) per instance */
	uint64_t next_prim, nprims_per_instance;
	uint32_t instance;
} xs_gfx_vgt;

void xs_gfx_vgt_init(xs_gfx_vgt *v, const xs_gfx_state *s, xs_vm *vm, uint64_t count, uint32_t lanes);
/* Fills the next batch; false when the draw has no more. An index read
 * outside INDEX_BUFFER_SIZE reads 0 (the hardware's out-of-bounds rule). */
bool xs_gfx_vgt_next(xs_gfx_vgt *v, xs_gfx_batch *b);

/* ---- PA / SC / DB: a primitive to quads -------------------------------------- */
typedef struct xs_gfx_vtx {
	float pos[4];             /* exp pos0: clip space */
	const float *param;       /* num_params x 4 floats (exp paramN), in the parameter cache */
} xs_gfx_vtx;

/* One 2x2 quad of a primitive, pixels in order (x,y) (x+1,y) (x,y+1) (x+1,y+1). */
typedef struct xs_gfx_quad {
	int32_t x, y;             /* top-left pixel (even coordinates) */
	uint8_t cover;            /* bit per pixel: inside the primitive, scissor and the depth test */
	uint8_t inside;           /* bit per pixel: inside (before the depth test): helper lanes are the rest */
	float i[4], j[4];         /* perspective-correct barycentrics of vertex 1 and 2 at pixel centres */
	float z[4];               /* depth at pixel centres (after the viewport transform) */
	float w_inv[4];           /* 1/w at pixel centres (POS_W_FLOAT) */
	bool front;               /* FRONT_FACE */
} xs_gfx_quad;

/* Per primitive, after clipping: the triangle(s) to interpolate from. The
 * parameter data for the PS (P0, P10, P20 per attribute) comes from the
 * ORIGINAL three vertices: clipping makes new triangles whose barycentrics
 * the rasterizer expresses in terms of the original vertices. */
typedef void (*xs_gfx_quad_fn)(void *user, const xs_gfx_quad *q);
typedef struct xs_gfx_raster_stats {
	uint64_t culled, clipped, quads, pixels, depth_killed_quads;
} xs_gfx_raster_stats;
/* Clips, culls, transforms and rasterizes one triangle, calling fn per quad
 * with at least one covered pixel (early Z applied and written when
 * early_z; otherwise cover ignores depth and the CB tests it at export).
 * prim_index is its draw-order index; v[] comes in the order the VGT's
 * prim_lane gives, which already makes a strip's odd triangles wind like
 * the even ones, so the rasterizer does not flip them again. */
void xs_gfx_raster_tri(const xs_gfx_state *s, xs_vm *vm, const xs_gfx_vtx v[3], uint64_t prim_index,
		       bool early_z, xs_gfx_quad_fn fn, void *user, xs_gfx_raster_stats *st);

/* The same in steps, so that a draw can stop when its PS waves have no room
 * and go on later from the same quad (the quads and their order are those of
 * xs_gfx_raster_tri). xs_gfx_raster_setup clips, culls, transforms and snaps
 * (counting culled / clipped once) and returns false when nothing is left to
 * rasterize; xs_gfx_raster_run visits the quads from the job's place, asking
 * room(user) before each quad with a pixel inside (before its early Z), and
 * returns false, keeping that quad as the place, when room says no; true
 * when the primitive is done. */
#define XS_GFX_RASTER_MAX_POLY 12 /* 3 vertices + one per clip plane (7 planes) and spare */
/* A vertex after the viewport transform, snapped: position in units of
 * 1/(2 steps) pixel, so that pixel centres are integers too. */
typedef struct xs_gfx_svtx {
	int64_t x, y;
	double z, w_inv;
	double b[3];
} xs_gfx_svtx;
typedef struct xs_gfx_raster_job {
	xs_gfx_svtx v[XS_GFX_RASTER_MAX_POLY]; /* the clipped polygon, a fan from v[0] */
	unsigned n;
	bool front;
	unsigned fan;             /* the fan triangle (v[0], v[fan], v[fan + 1]) being rasterized */
	bool mid;                 /* stopped inside it, at quad (qx, qy) */
	int64_t qx, qy;
} xs_gfx_raster_job;
typedef bool (*xs_gfx_room_fn)(void *user);
bool xs_gfx_raster_setup(const xs_gfx_state *s, const xs_gfx_vtx v[3], xs_gfx_raster_job *job,
			 xs_gfx_raster_stats *st);
bool xs_gfx_raster_run(const xs_gfx_state *s, xs_vm *vm, xs_gfx_raster_job *job, bool early_z, xs_gfx_quad_fn fn,
		       xs_gfx_room_fn room, void *user, xs_gfx_raster_stats *st);

/* ---- DB: the depth test (xs_gpu_db.c) ----------------------------------------- */
/* Depth z clamped to the viewport's [zmin, zmax] (D3D12: the depth range
 * clamps the rasterized and the exported depth). */
float xs_gfx_depth_clamp(const xs_gfx_state *s, float z);
/* DB_DEPTH_CONTROL.ZFUNC of z against the buffer's value at (x, y), and when
 * it passes and Z_WRITE_ENABLE, the write. True when the pixel survives
 * (always, without a depth buffer or with Z_ENABLE 0; pixels outside the
 * buffer pass and write nothing). */
bool xs_gfx_depth_test(const xs_gfx_state *s, xs_vm *vm, int32_t x, int32_t y, float z);
/* ZFUNC (V_028800_FRAG_*) applied: z against the stored d. */
bool xs_gfx_depth_compare(uint32_t zfunc, float z, float d);

/* ---- CB: one pixel's export -------------------------------------------------- */
/* Blends and writes MRT rt at (x, y) with the exported value (4 floats, or the
 * compressed f16 pairs unpacked by the caller) in primitive order (the caller
 * keeps the order). Late Z (z != NULL): tests and writes depth first (z is
 * clamped to the depth range) and returns false when the pixel fails; pass
 * z with the pixel's first target only, NULL for the others. */
bool xs_gfx_cb_write(const xs_gfx_state *s, xs_vm *vm, unsigned rt, int32_t x, int32_t y, const float c[4],
		     const float *z);

/* ---- XS_FILL (firmware clear) ------------------------------------------------ */
xs_status xs_gfx_fill(xs_vm *vm, uint64_t va, uint32_t pitch, uint32_t row_bytes, uint32_t rows,
		      const uint32_t *pattern, uint32_t pattern_dw, xs_err *e);
/* The same, and *bad_va = the first address it could not write (the CP's
 * page fault). Bad arguments: XS_E_INVALID_ARG naming the field; a write
 * outside GPU memory: XS_E_DEVICE_REMOVED. */
xs_status xs_gfx_fill_at(xs_vm *vm, uint64_t va, uint32_t pitch, uint32_t row_bytes, uint32_t rows,
			 const uint32_t *pattern, uint32_t pattern_dw, uint64_t *bad_va, xs_err *e);

#endif
