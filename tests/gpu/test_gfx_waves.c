/* Draws at the PM4 level with real VS and PS code from llc-15
 * (tests/gpu/gfx/tri.{vs,ps}.ll): VS and PS waves launched by the SPI, the
 * parameter cache, exports, interpolation and the CB. The oracle for the
 * pixels is a CPU evaluation of the barycentrics at pixel centres.
 * Late Z and the export buffer with kill.ps.ll, mrt2z.ps.ll, loop.ps.ll; a VS
 * that never exports position with nopos.vs.ll.
 * Usage: test_gfx_waves VS.o PS.o SMALL_VS64.o KILL_PS.o MRT2Z_PS.o LOOP_PS.o NOPOS_VS64.o */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "codeobj/xs_codeobj_gfx.h"
#include "gpu/xs_gpu_priv.h"
#include "hw/xs_hw_pm4.h"
#include "hw/xs_hw_surf.h"
#include "pm4/xs_pm4_build.h"

static const char *vs_path, *ps_path, *small_path, *kill_path, *mrt2z_path, *loop_path, *nopos_path;

typedef struct fx {
	xs_vm *vm;
	xs_gpu *gpu;
	xs_gfx_shader vs, ps, small, kill, mrt2z, loop, nopos;
	uint64_t vs_va, ps_va, small_va, rt_va, rt1_va, z_va, kill_va, mrt2z_va, loop_va, nopos_va;
	uint64_t zbig_va;        /* BIG x BIG Z_32_FLOAT */
	xs_pm4_builder b;
} fx;

#define W 16
#define H 16
#define BIG 512

static bool load(const char *path, xs_gfx_shader *sh)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	static uint8_t buf[1 << 20];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	xs_err e = { 0 };
	if (xs_gfx_shader_parse(buf, n, NULL, sh, &e)) {
		fprintf(stderr, "%s: %s\n", path, e.msg);
		return false;
	}
	return true;
}

static uint64_t upload(fx *f, const void *p, size_t n)
{
	uint64_t va;
	if (xs_vm_alloc(f->vm, n, 256, &va, NULL) || !xs_vm_write(f->vm, va, p, n, NULL))
		return 0;
	return va;
}

static int setup(void **state)
{
	static fx f;
	f.vm = xs_vm_create();
	f.gpu = xs_gpu_create(xs_devinfo_get(XS_MACHINE_SERIES_X), f.vm);
	if (!f.gpu || !load(vs_path, &f.vs) || !load(ps_path, &f.ps) || !load(small_path, &f.small) ||
	    !load(kill_path, &f.kill) || !load(mrt2z_path, &f.mrt2z) || !load(loop_path, &f.loop) ||
	    !load(nopos_path, &f.nopos))
		return -1;
	f.kill_va = upload(&f, f.kill.image, f.kill.image_size);
	f.mrt2z_va = upload(&f, f.mrt2z.image, f.mrt2z.image_size);
	f.loop_va = upload(&f, f.loop.image, f.loop.image_size);
	f.small_va = upload(&f, f.small.image, f.small.image_size);
	f.nopos_va = upload(&f, f.nopos.image, f.nopos.image_size);
	f.vs_va = upload(&f, f.vs.image, f.vs.image_size);
	f.ps_va = upload(&f, f.ps.image, f.ps.image_size);
	if (!f.vs_va || !f.ps_va || !f.kill_va || !f.mrt2z_va || !f.loop_va || !f.nopos_va ||
	    xs_vm_alloc(f.vm, xs_hw_linear_pitch(W, 16) * H, 256, &f.rt_va, NULL) ||
	    xs_vm_alloc(f.vm, xs_hw_linear_pitch(W, 16) * H, 256, &f.rt1_va, NULL) ||
	    xs_vm_alloc(f.vm, xs_hw_linear_pitch(W, 4) * H, 256, &f.z_va, NULL) ||
	    xs_vm_alloc(f.vm, (size_t)xs_hw_linear_pitch(BIG, 4) * BIG, 256, &f.zbig_va, NULL))
		return -1;
	xs_pm4_builder_init(&f.b, 0);
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	fx *f = *state;
	xs_pm4_builder_free(&f->b);
	xs_gfx_shader_free(&f->vs);
	xs_gfx_shader_free(&f->ps);
	xs_gfx_shader_free(&f->small);
	xs_gfx_shader_free(&f->kill);
	xs_gfx_shader_free(&f->mrt2z);
	xs_gfx_shader_free(&f->loop);
	xs_gfx_shader_free(&f->nopos);
	xs_gpu_destroy(f->gpu);
	xs_vm_destroy(f->vm);
	return 0;
}

static void ctx1(fx *f, uint32_t reg, uint32_t v)
{
	xs_pm4_set_context_reg(&f->b, reg, &v, 1);
}

static void ctxf(fx *f, uint32_t reg, float x)
{
	uint32_t v;
	memcpy(&v, &x, 4);
	ctx1(f, reg, v);
}

typedef struct draw_opts {
	uint32_t vs_cu_en, ps_cu_en, late;
	uint32_t tris;           /* triangles, each the same full-screen one */
	bool small;              /* small.vs.ll (wave64, a quad per triangle) instead of tri.vs.ll */
	bool nopos;              /* nopos.vs.ll (wave64, position exported by some waves only) instead */
	uint32_t vs_user[6];     /* SPI_SHADER_USER_DATA_VS_0..5 (only nopos.vs.ll reads them) */
	uint32_t vs_vgprs;       /* 0: the shader's; else the VGPRs RSRC1_VS asks for */
	uint32_t params;         /* SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT + 1 (0: 1) */
	uint32_t tmpring;        /* with it, both stages get SCRATCH_EN (the shaders ignore their offset) */
	uint32_t count;          /* vertices, when not 3 x tris */
	int ps;                  /* 0 tri.ps, 1 kill.ps, 2 mrt2z.ps, 3 loop.ps */
	uint32_t ps_user0;       /* SPI_SHADER_USER_DATA_PS_0 */
	uint32_t nrt;            /* colour targets (0: 1); MRT1 at rt1_va */
	bool depth;              /* a W x H Z_32_FLOAT buffer at z_va, Z and Z writes on */
	bool zbig;               /* with depth: the BIG x BIG one at zbig_va */
	uint32_t zfunc;          /* DB_DEPTH_CONTROL.ZFUNC */
	uint32_t db_shader_control;
	uint32_t vp;             /* viewport and scissors W = H (0: W) */
} draw_opts;

/* Programs the pipe and draws; returns the draw's result. */
static xs_status draw(fx *f, const draw_opts *o, xs_gpu_dispatch_result *r, xs_err *e)
{
	xs_pm4_builder *b = &f->b;
	const xs_gfx_shader *vsh = o->nopos ? &f->nopos : o->small ? &f->small : &f->vs;
	const xs_gfx_shader *psh[4] = { &f->ps, &f->kill, &f->mrt2z, &f->loop };
	const uint64_t ps_vas[4] = { f->ps_va, f->kill_va, f->mrt2z_va, f->loop_va };
	const xs_gfx_shader *pss = psh[o->ps];
	uint32_t nrt = o->nrt ? o->nrt : 1;
	uint64_t vs = (o->nopos ? f->nopos_va : o->small ? f->small_va : f->vs_va) + vsh->entry_offset;
	uint64_t ps = ps_vas[o->ps] + pss->entry_offset;
	uint32_t vs_rsrc1 = vsh->rsrc1;
	if (o->vs_vgprs)
		vs_rsrc1 = (vs_rsrc1 & C_00B128_VGPRS) | S_00B128_VGPRS(o->vs_vgprs / (vsh->wave64 ? 4 : 8) - 1);
	xs_pm4_set_sh_reg1(b, R_00B120_SPI_SHADER_PGM_LO_VS, (uint32_t)(vs >> 8));
	xs_pm4_set_sh_reg1(b, R_00B124_SPI_SHADER_PGM_HI_VS, (uint32_t)(vs >> 40));
	xs_pm4_set_sh_reg1(b, R_00B020_SPI_SHADER_PGM_LO_PS, (uint32_t)(ps >> 8));
	xs_pm4_set_sh_reg1(b, R_00B024_SPI_SHADER_PGM_HI_PS, (uint32_t)(ps >> 40));
	xs_pm4_set_sh_reg1(b, R_00B128_SPI_SHADER_PGM_RSRC1_VS, vs_rsrc1);
	xs_pm4_set_sh_reg1(b, R_00B12C_SPI_SHADER_PGM_RSRC2_VS,
			   vsh->rsrc2 | S_00B12C_USER_SGPR(6) | S_00B12C_SCRATCH_EN(o->tmpring != 0));
	xs_pm4_set_sh_reg1(b, R_00B028_SPI_SHADER_PGM_RSRC1_PS, pss->rsrc1);
	xs_pm4_set_sh_reg1(b, R_00B02C_SPI_SHADER_PGM_RSRC2_PS,
			   pss->rsrc2 | S_00B02C_USER_SGPR(4) | S_00B02C_SCRATCH_EN(o->tmpring != 0));
	xs_pm4_set_sh_reg1(b, R_00B030_SPI_SHADER_USER_DATA_PS_0, o->ps_user0);
	xs_pm4_set_sh_reg(b, R_00B130_SPI_SHADER_USER_DATA_VS_0, o->vs_user, 6);
	ctx1(f, R_0286E8_SPI_TMPRING_SIZE, o->tmpring);
	xs_pm4_set_sh_reg1(b, R_00B118_SPI_SHADER_PGM_RSRC3_VS, S_00B01C_CU_EN(o->vs_cu_en));
	xs_pm4_set_sh_reg1(b, R_00B01C_SPI_SHADER_PGM_RSRC3_PS, S_00B01C_CU_EN(o->ps_cu_en));
	xs_pm4_set_sh_reg1(b, R_00B11C_SPI_SHADER_LATE_ALLOC_VS, S_00B11C_LIMIT(o->late));
	ctx1(f, R_028B54_VGT_SHADER_STAGES_EN, S_028B54_VS_W32_EN(!vsh->wave64));
	ctx1(f, R_0286D8_SPI_PS_IN_CONTROL, S_0286D8_NUM_INTERP(1) | S_0286D8_PS_W32_EN(!pss->wave64));
	ctx1(f, R_0286C4_SPI_VS_OUT_CONFIG, S_0286C4_VS_EXPORT_COUNT(o->params ? o->params - 1 : 0));
	ctx1(f, R_028644_SPI_PS_INPUT_CNTL_0, S_028644_OFFSET(0));
	ctx1(f, R_0286CC_SPI_PS_INPUT_ENA, pss->ps_input_ena);
	ctx1(f, R_0286D0_SPI_PS_INPUT_ADDR, pss->ps_input_addr);
	ctx1(f, R_028714_SPI_SHADER_COL_FORMAT,
	     S_028714_COL0_EXPORT_FORMAT(V_028714_SPI_SHADER_32_ABGR) |
		     (nrt > 1 ? S_028714_COL1_EXPORT_FORMAT(V_028714_SPI_SHADER_32_ABGR) : 0));
	ctx1(f, R_028710_SPI_SHADER_Z_FORMAT,
	     G_02880C_Z_EXPORT_ENABLE(o->db_shader_control) ? S_028710_Z_EXPORT_FORMAT(V_028710_SPI_SHADER_32_R) : 0);
	ctx1(f, R_028238_CB_TARGET_MASK, nrt > 1 ? 0xff : 0xf);
	ctx1(f, R_028808_CB_COLOR_CONTROL, S_028808_MODE(V_028808_CB_NORMAL));
	for (uint32_t n = 0; n < 2; n++) {
		uint32_t cs = XS_CB_COLOR_STRIDE * n;
		ctx1(f, R_028C60_CB_COLOR0_BASE + cs, (uint32_t)((n ? f->rt1_va : f->rt_va) >> 8));
		ctx1(f, R_028C70_CB_COLOR0_INFO + cs,
		     n < nrt ? S_028C70_FORMAT(V_028C70_COLOR_32_32_32_32) | S_028C70_NUMBER_TYPE(V_028C70_NUMBER_FLOAT) : 0);
		ctx1(f, R_028EC0_CB_COLOR0_ATTRIB2 + XS_CB_COLOR_EXT_STRIDE * n,
		     S_028EC0_MIP0_WIDTH(W - 1) | S_028EC0_MIP0_HEIGHT(H - 1));
	}
	ctx1(f, R_028040_DB_Z_INFO, S_028040_FORMAT(o->depth ? V_028040_Z_32_FLOAT : V_028040_Z_INVALID));
	uint64_t zva = o->zbig ? f->zbig_va : f->z_va;
	uint32_t zw = o->zbig ? BIG : W, zh = o->zbig ? BIG : H;
	ctx1(f, R_028048_DB_Z_READ_BASE, (uint32_t)(zva >> 8));
	ctx1(f, R_028050_DB_Z_WRITE_BASE, (uint32_t)(zva >> 8));
	ctx1(f, R_02801C_DB_DEPTH_SIZE_XY, S_02801C_X_MAX(zw - 1) | S_02801C_Y_MAX(zh - 1));
	ctx1(f, R_028800_DB_DEPTH_CONTROL,
	     o->depth ? S_028800_Z_ENABLE(1) | S_028800_Z_WRITE_ENABLE(1) | S_028800_ZFUNC(o->zfunc) : 0);
	ctx1(f, R_02880C_DB_SHADER_CONTROL, o->db_shader_control);
	uint32_t vp = o->vp ? o->vp : W; /* a viewport, scissors larger than the W x H targets */
	/* D3D12 viewport (0, 0, W, H): x = (ndc + 1) W / 2, y = (1 - ndc) H / 2 */
	ctx1(f, R_028818_PA_CL_VTE_CNTL,
	     S_028818_VPORT_X_SCALE_ENA(1) | S_028818_VPORT_X_OFFSET_ENA(1) | S_028818_VPORT_Y_SCALE_ENA(1) |
		     S_028818_VPORT_Y_OFFSET_ENA(1) | S_028818_VPORT_Z_SCALE_ENA(1) | S_028818_VPORT_Z_OFFSET_ENA(1));
	ctxf(f, R_02843C_PA_CL_VPORT_XSCALE, vp / 2.0f);
	ctxf(f, R_02843C_PA_CL_VPORT_XSCALE + 4, vp / 2.0f);
	ctxf(f, R_028444_PA_CL_VPORT_YSCALE, -(float)vp / 2.0f);
	ctxf(f, R_028444_PA_CL_VPORT_YSCALE + 4, vp / 2.0f);
	ctxf(f, R_02844C_PA_CL_VPORT_ZSCALE, 1.0f);
	ctxf(f, R_02844C_PA_CL_VPORT_ZSCALE + 4, 0.0f);
	ctxf(f, R_0282D4_PA_SC_VPORT_ZMAX_0, 1.0f);
	ctx1(f, R_028250_PA_SC_VPORT_SCISSOR_0_TL, 0);
	ctx1(f, R_028254_PA_SC_VPORT_SCISSOR_0_BR, S_028254_BR_X(vp) | S_028254_BR_Y(vp));
	ctx1(f, R_028030_PA_SC_SCREEN_SCISSOR_TL, 0);
	ctx1(f, R_028034_PA_SC_SCREEN_SCISSOR_BR, S_028034_BR_X(vp) | S_028034_BR_Y(vp));
	ctx1(f, R_028BE4_PA_SU_VTX_CNTL, S_028BE4_PIX_CENTER(1) | S_028BE4_QUANT_MODE(5)); /* 1/256 px */
	/* a guard band of 8 viewports: the triangle (up to 3 in NDC) is not clipped */
	for (uint32_t reg = R_028BE8_PA_CL_GB_VERT_CLIP_ADJ; reg <= R_028BF4_PA_CL_GB_HORZ_DISC_ADJ; reg += 4)
		ctxf(f, reg, 8.0f);
	uint32_t v = S_030908_PRIM_TYPE(V_030908_DI_PT_TRILIST);
	xs_pm4_set_uconfig_reg(b, R_030908_VGT_PRIMITIVE_TYPE, &v, 1);
	v = 1;
	xs_pm4_emit_pkt3(b, PKT3_NUM_INSTANCES, &v, 1, 0);
	uint32_t body[2] = { o->count ? o->count : 3 * o->tris, S_0287F0_SOURCE_SELECT(2) }; /* DI_SRC_SEL_AUTO_INDEX */
	xs_pm4_emit_pkt3(b, PKT3_DRAW_INDEX_AUTO, body, 2, 0);
	assert_false(xs_pm4_builder_failed(b));
	uint64_t va = upload(f, b->dw, b->cdw * 4);
	xs_status st = xs_gpu_submit(f->gpu, 0, va, (uint32_t)b->cdw, r, 1, e);
	xs_pm4_builder_reset(b);
	return st ? st : xs_gpu_execute(f->gpu, NULL, e);
}

static void clear_rt(fx *f)
{
	size_t n = (size_t)xs_hw_linear_pitch(W, 16) * H;
	void *z = calloc(1, n);
	assert_true(xs_vm_write(f->vm, f->rt_va, z, n, NULL));
	free(z);
}

/* The colour at pixel (x, y): the barycentrics of vertices 1 and 2 of the
 * triangle (0,16) (32,16) (0,-16) in pixels, at the pixel centre. */
static void expect(int x, int y, float c[4])
{
	float px = (float)x + 0.5f, py = (float)y + 0.5f;
	c[1] = px / 32.0f;
	c[2] = (16.0f - py) / 32.0f;
	c[0] = 1.0f - c[1] - c[2];
	c[3] = 1.0f;
}

static void check_pixels(fx *f)
{
	uint32_t pitch = xs_hw_linear_pitch(W, 16);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			float got[4], want[4];
			assert_true(xs_vm_read(f->vm, f->rt_va + (uint64_t)y * pitch + (uint64_t)x * 16, got, 16, NULL));
			expect(x, y, want);
			for (int c = 0; c < 4; c++)
				if (fabsf(got[c] - want[c]) > 1e-5f) {
					fprintf(stderr, "pixel (%d,%d) channel %d: %f, want %f\n", x, y, c, got[c], want[c]);
					fail();
				}
		}
}

static void one_triangle(void **state, bool timing)
{
	fx *f = *state;
	xs_gpu_set_timing(f->gpu, timing);
	clear_rt(f);
	xs_gpu_dispatch_result r = { 0 };
	xs_err e = { 0 };
	draw_opts o = { .vs_cu_en = 0xffff, .ps_cu_en = 0xffff, .tris = 1 };
	xs_status st = draw(f, &o, &r, &e);
	if (st)
		fprintf(stderr, "%s\n", e.msg);
	assert_int_equal(st, XS_OK);
	check_pixels(f);
	const xs_gpu_gfx_stats *g = &r.gfx;
	assert_true(g->is_draw);
	assert_int_equal(g->waves[XS_GPU_STAGE_VS], 1);
	/* 16 x 16 pixels = 64 quads, 8 per wave32 PS wave */
	assert_int_equal(g->quads, 64);
	assert_int_equal(g->waves[XS_GPU_STAGE_PS], 64 / (f->ps.wave64 ? 16 : 8));
	assert_int_equal(g->pixels_written, W * H);
	assert_int_equal(g->pc_lines, 2 * 1024);
	assert_int_equal(g->peak_pc_lines, 3); /* 3 vertices x 1 parameter */
	assert_int_equal(r.waves_launched, 1 + g->waves[XS_GPU_STAGE_PS]);
	if (timing)
		assert_true(r.cycles > 0);
}

static void triangle_timing(void **state)
{
	fx *f = *state;
	xs_gpu_trace_enable(f->gpu, true);
	one_triangle(state, true);
	/* the trace gives each wave its stage: 1 VS wave, then 8 PS waves */
	const xs_gpu_trace *t = xs_gpu_trace_get(f->gpu);
	uint32_t n[3] = { 0, 0, 0 };
	for (size_t i = 0; i < t->nwaves; i++)
		n[t->waves[i].stage < 3 ? t->waves[i].stage : 0]++;
	assert_int_equal(n[XS_GPU_TRACE_CS], 0);
	assert_int_equal(n[XS_GPU_TRACE_VS], 1);
	assert_int_equal(n[XS_GPU_TRACE_PS], 8);
	xs_gpu_trace_enable(f->gpu, false);
}

static void triangle_functional(void **state)
{
	one_triangle(state, false);
}

/* Two vertices make no triangle: the draw ends with no wave. */
static void empty_draw(void **state)
{
	fx *f = *state;
	xs_gpu_set_timing(f->gpu, true);
	xs_gpu_dispatch_result r = { 0 };
	xs_err e = { 0 };
	draw_opts o = { .vs_cu_en = 0xffff, .ps_cu_en = 0xffff, .count = 2 };
	assert_int_equal(draw(f, &o, &r, &e), XS_OK);
	assert_int_equal(r.waves_launched, 0);
	assert_true(r.gfx.is_draw);
}

/* Many triangles: VS batches keep order; the later ones overwrite the same
 * pixels with the same colours, so the picture is still the oracle's; the
 * CU masks show in cu_used. */
static void many_triangles_masks(void **state)
{
	fx *f = *state;
	xs_gpu_set_timing(f->gpu, true);
	clear_rt(f);
	xs_gpu_dispatch_result r = { 0 };
	xs_err e = { 0 };
	draw_opts o = { .vs_cu_en = 0x3, .ps_cu_en = 0xc, .tris = 200 };
	xs_status st = draw(f, &o, &r, &e);
	if (st)
		fprintf(stderr, "%s\n", e.msg);
	assert_int_equal(st, XS_OK);
	check_pixels(f);
	uint64_t vs_cus = 0, ps_cus = 0;
	for (uint32_t c = 0; c < f->gpu->info->num_cu; c++) {
		uint32_t se, sa, wgp, cw;
		xs_gpu_cu_place(f->gpu, c, &se, &sa, &wgp, &cw);
		uint32_t in_sa = wgp * 2 + cw;
		if ((0x3u >> in_sa) & 1)
			vs_cus |= 1ull << c;
		if ((0xcu >> in_sa) & 1)
			ps_cus |= 1ull << c;
	}
	assert_int_equal(r.gfx.cu_used[XS_GPU_STAGE_VS] & ~vs_cus, 0);
	assert_int_equal(r.gfx.cu_used[XS_GPU_STAGE_PS] & ~ps_cus, 0);
	assert_int_equal(r.gfx.primitives, 200);
	assert_int_equal(r.gfx.pixels_written, 200u * W * H);
}

/* SPEC S4.2 at the PM4 level (the design of tests/gpu/test_gfx_deadlock.c
 * with real waves): a wave64 VS whose RSRC1 asks for 256 VGPRs (two per
 * SIMD), VS and PS on CUs 0..2 of every SA (12 VS places per SA), 8
 * parameters (63 vertices x 8 = 504 lines a batch: two batches fill an SE),
 * LATE_ALLOC_VS.LIMIT = ceil(M / 2). */
static xs_status s42_on(fx *f, uint32_t m, uint32_t vs_cu_en, uint32_t tmpring, bool timing,
			xs_gpu_dispatch_result *r, xs_err *e)
{
	xs_gpu_set_timing(f->gpu, timing);
	clear_rt(f);
	draw_opts o = { .vs_cu_en = vs_cu_en, .ps_cu_en = 0x7, .late = (m + 1) / 2, .tris = 2000, .small = true,
			.vs_vgprs = 256, .params = 8, .tmpring = tmpring };
	return draw(f, &o, r, e);
}

static xs_status s42(fx *f, uint32_t m, uint32_t vs_cu_en, xs_gpu_dispatch_result *r, xs_err *e)
{
	return s42_on(f, m, vs_cu_en, 0, true, r, e);
}

static void s42_m23_deadlocks(void **state)
{
	fx *f = *state;
	xs_gpu_dispatch_result r = { 0 };
	xs_err e = { 0 };
	double t0 = xs_now_seconds();
	xs_status st = s42(f, 23, 0x7, &r, &e);
	printf("# %s\n", e.msg);
	assert_int_equal(st, XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "deadlock (SPEC S4.2)"));
	assert_non_null(strstr(e.msg, "48 VS waves wait at exp"));
	assert_non_null(strstr(e.msg, "late-alloc limit 12 per SA, no CU excluded from VS"));
	assert_int_equal(r.fault.kind, XS_FAULT_HANG);
	assert_true(xs_now_seconds() - t0 < 10.0); /* the host gets its answer within seconds */
	/* later work is refused as after any removal */
	xs_gpu_dispatch_result r2 = { 0 };
	xs_err e2 = { 0 };
	draw_opts o = { .vs_cu_en = 0xffff, .ps_cu_en = 0xffff, .tris = 1 };
	(void)draw(f, &o, &r2, &e2);
}

static void s42_m22_completes(void **state)
{
	fx *f = *state;
	xs_gpu_dispatch_result r = { 0 };
	xs_err e = { 0 };
	xs_status st = s42(f, 22, 0x7, &r, &e);
	if (st)
		fprintf(stderr, "%s\n", e.msg);
	assert_int_equal(st, XS_OK);
	assert_int_equal(r.gfx.primitives, 2000);
	assert_int_equal(r.gfx.pixels_written, 2000); /* one centre each: (1.5, 0.5) and (0.5, 1.5) lie on the bottom-right edge (top-left rule) */
	assert_true(r.gfx.late_alloc_waves > 0);
	assert_true(r.gfx.exp_stall_cycles > 0);
	assert_int_equal(r.gfx.peak_pc_lines, r.gfx.pc_lines - 2 * 16); /* 2 SEs x 2 batches of 504 lines */
}

static void s42_m23_vs_barred_completes(void **state)
{
	fx *f = *state;
	xs_gpu_dispatch_result r = { 0 };
	xs_err e = { 0 };
	xs_status st = s42(f, 23, 0x3, &r, &e);
	if (st)
		fprintf(stderr, "%s\n", e.msg);
	assert_int_equal(st, XS_OK);
	assert_int_equal(r.gfx.pixels_written, 2000); /* one centre each: (1.5, 0.5) and (0.5, 1.5) lie on the bottom-right edge (top-left rule) */
}

/* The same in functional mode, and twice in timing mode: the same cycles. */
static void s42_functional_and_deterministic(void **state)
{
	fx *f = *state;
	xs_gpu_dispatch_result r = { 0 }, r2 = { 0 };
	xs_err e = { 0 };
	assert_int_equal(s42_on(f, 22, 0x7, 0, false, &r, &e), XS_OK);
	assert_int_equal(r.gfx.pixels_written, 2000);
	assert_int_equal(s42(f, 22, 0x7, &r, &e), XS_OK);
	assert_int_equal(s42(f, 22, 0x7, &r2, &e), XS_OK);
	assert_int_equal(r.cycles, r2.cycles);
	assert_int_equal(r.gfx.exp_stall_cycles, r2.gfx.exp_stall_cycles);
	assert_int_equal(r.gfx.late_alloc_waves, r2.gfx.late_alloc_waves);
}

/* Scratch (S1.12's 8-slot ring): late VS waves hold the slots the PS waves
 * need, so a VS CU mask does not help; late alloc off does (Mesa's rule). */
static void s42_scratch(void **state)
{
	fx *f = *state;
	xs_gpu_dispatch_result r = { 0 };
	xs_err e = { 0 };
	uint32_t ring = S_00B860_WAVES(8) | S_00B860_WAVESIZE(1);
	assert_int_equal(s42_on(f, 0, 0x3, ring, true, &r, &e), XS_OK);
	assert_int_equal(r.gfx.pixels_written, 2000);
	assert_int_equal(r.gfx.late_alloc_waves, 0);
	assert_int_equal(r.gfx.peak_scratch_slots, 8);
	xs_status st = s42_on(f, 23, 0x3, ring, true, &r, &e);
	printf("# %s\n", e.msg);
	assert_int_equal(st, XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "deadlock (SPEC S4.2)"));
	assert_non_null(strstr(e.msg, "no CU has room: scratch-ring slots"));
	assert_non_null(strstr(e.msg, "of the PS's CUs excluded from VS"));
}

/* ---- a VS that exports no position --------------------------------------- */

/* A VS wave that ends without exporting position (docs/graphics.md 1.3)
 * removes the device at its s_endpgm with a report that says so, in both
 * modes. nopos.vs.ll has an exp pos0 in its code (so a check of the code
 * alone, as CreateGraphicsPipelineState's, passes it), on a path only waves
 * whose first VertexID is below USER_DATA_VS_4 take. Three ways it went
 * wrong before:
 *   0: every wave exports PARAM0 alone, with lines from launch: the draw
 *      "completed", its primitives set up from stale positions;
 *   1: no wave exports anything, late waves (the S4.2 set-up: 256 VGPRs, 8
 *      parameters, LIMIT 11): the same;
 *   2: as 1, but the first 8 batches export position (and make PS
 *      waves): late waves that never reached an exp stayed on their SEs'
 *      late lists, could be rasterized (from stale positions) while still
 *      late, and were given lines after that which nothing freed; their
 *      ring records were never reused and the draw stopped, in both modes,
 *      with the generic "no wave can make progress" report.
 * The GPU is empty afterwards: a correct draw runs and is right. */
static void vs_without_position_faults(void **state)
{
	fx *f = *state;
	for (int pass = 0; pass < 6; pass++) {
		int kind = pass / 2;
		bool timing = pass & 1;
		xs_gpu_set_timing(f->gpu, timing);
		clear_rt(f);
		draw_opts o = { .vs_cu_en = 0x7, .ps_cu_en = 0x7, .late = 11, .tris = 2000, .nopos = true,
				.vs_vgprs = 256, .params = 8 };
		if (kind == 0)
			o = (draw_opts){ .vs_cu_en = 0xffff, .ps_cu_en = 0xffff, .tris = 1, .nopos = true,
					 .vs_user[5] = 1 };
		if (kind == 2)
			o.vs_user[4] = 8 * 63; /* a batch is 63 vertices */
		xs_gpu_dispatch_result r = { 0 };
		xs_err e = { 0 };
		double t0 = xs_now_seconds();
		xs_status st = draw(f, &o, &r, &e);
		printf("# %s\n", e.msg);
		assert_int_equal(st, XS_E_DEVICE_REMOVED);
		assert_non_null(strstr(e.msg, "(s_endpgm: VS wave ended without exporting position (exp pos0 with done))"));
		assert_int_equal(r.fault.kind, XS_FAULT_ILLEGAL);
		if (kind != 2)
			assert_int_equal(r.gfx.waves[XS_GPU_STAGE_PS], 0); /* the first VS wave to end faults */
		assert_true(xs_now_seconds() - t0 < 5.0);
		draw_opts good = { .vs_cu_en = 0xffff, .ps_cu_en = 0xffff, .tris = 1 };
		xs_gpu_dispatch_result r2 = { 0 };
		st = draw(f, &good, &r2, &e);
		if (st)
			fprintf(stderr, "%s\n", e.msg);
		assert_int_equal(st, XS_OK);
		check_pixels(f);
		assert_int_equal(r2.gfx.peak_pc_lines, 3);
	}
}

/* ---- late Z and the export buffer ---------------------------------------- */

static void fill_f(fx *f, uint64_t va, size_t bytes, float v)
{
	float *m = malloc(bytes);
	for (size_t i = 0; i < bytes / 4; i++)
		m[i] = v;
	assert_true(xs_vm_write(f->vm, va, m, bytes, NULL));
	free(m);
}

static float depth_at(fx *f, int x, int y)
{
	float z;
	assert_true(xs_vm_read(f->vm, f->z_va + (uint64_t)y * xs_hw_linear_pitch(W, 4) + 4 * (uint64_t)x, &z, 4, NULL));
	return z;
}

static void rt_at(fx *f, uint64_t va, int x, int y, float c[4])
{
	assert_true(xs_vm_read(f->vm, va + (uint64_t)y * xs_hw_linear_pitch(W, 16) + 16 * (uint64_t)x, c, 16, NULL));
}

/* Both targets cleared to 0, the depth buffer to zclear. */
static void clear_all(fx *f, float zclear)
{
	fill_f(f, f->rt_va, (size_t)xs_hw_linear_pitch(W, 16) * H, 0.0f);
	fill_f(f, f->rt1_va, (size_t)xs_hw_linear_pitch(W, 16) * H, 0.0f);
	fill_f(f, f->z_va, (size_t)xs_hw_linear_pitch(W, 4) * H, zclear);
}

/* Target va at (x, y): the oracle's colour when drawn, else 0. */
static void check_px(fx *f, uint64_t va, int x, int y, bool drawn)
{
	float got[4], want[4] = { 0, 0, 0, 0 };
	rt_at(f, va, x, y, got);
	if (drawn)
		expect(x, y, want);
	for (int c = 0; c < 4; c++)
		if (fabsf(got[c] - want[c]) > 1e-5f) {
			fprintf(stderr, "pixel (%d,%d) channel %d: %f, want %f\n", x, y, c, got[c], want[c]);
			fail();
		}
}

/* A PS that can discard (DB_SHADER_CONTROL.KILL_ENABLE, which D3D12 sets
 * for every shader with discard/clip) tests depth late: with the rasterized
 * depth, since it exports none, and it writes it for the pixels that
 * survive both the discard and the test. The triangle is at z 0.5, ZFUNC
 * LESS: against 0.1 nothing is drawn; against 0.9 the pixels the shader
 * keeps (y > x) are drawn and get depth 0.5, the discarded ones keep 0.9. */
static void kill_tests_depth_late(void **state)
{
	fx *f = *state;
	for (int timing = 0; timing < 2; timing++) {
		xs_gpu_set_timing(f->gpu, timing);
		draw_opts o = { .vs_cu_en = 0xffff, .ps_cu_en = 0xffff, .tris = 1, .ps = 1, .depth = true,
				.zfunc = V_028800_FRAG_LESS, .db_shader_control = S_02880C_KILL_ENABLE(1) };
		xs_gpu_dispatch_result r = { 0 };
		xs_err e = { 0 };
		clear_all(f, 0.1f);
		assert_int_equal(draw(f, &o, &r, &e), XS_OK);
		assert_int_equal(r.gfx.pixels_written, 0);
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				check_px(f, f->rt_va, x, y, false);
				assert_true(depth_at(f, x, y) == 0.1f);
			}
		clear_all(f, 0.9f);
		assert_int_equal(draw(f, &o, &r, &e), XS_OK);
		assert_int_equal(r.gfx.pixels_written, W * (H - 1) / 2); /* y > x: 120 */
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				check_px(f, f->rt_va, x, y, y > x);
				assert_true(depth_at(f, x, y) == (y > x ? 0.5f : 0.9f));
			}
	}
}

/* Late Z with the shader's depth (Z_EXPORT_ENABLE, exp mrtz 0.25) and two
 * colour targets: the DB tests and writes a pixel's depth once, before its
 * targets, so MRT1 is not tested against the depth MRT0's pixel just wrote
 * (under LESS it would fail: 0.25 < 0.25). */
static void late_z_once_per_pixel(void **state)
{
	fx *f = *state;
	xs_gpu_set_timing(f->gpu, true);
	draw_opts o = { .vs_cu_en = 0xffff, .ps_cu_en = 0xffff, .tris = 1, .ps = 2, .nrt = 2, .depth = true,
			.zfunc = V_028800_FRAG_LESS, .db_shader_control = S_02880C_Z_EXPORT_ENABLE(1) };
	xs_gpu_dispatch_result r = { 0 };
	xs_err e = { 0 };
	clear_all(f, 1.0f);
	assert_int_equal(draw(f, &o, &r, &e), XS_OK);
	assert_int_equal(r.gfx.pixels_written, 2 * W * H);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			check_px(f, f->rt_va, x, y, true);
			check_px(f, f->rt1_va, x, y, true);
			assert_true(depth_at(f, x, y) == 0.25f);
		}
	/* Against 0.25 the exported depth fails LESS everywhere: nothing drawn. */
	clear_all(f, 0.25f);
	assert_int_equal(draw(f, &o, &r, &e), XS_OK);
	assert_int_equal(r.gfx.pixels_written, 0);
	check_px(f, f->rt_va, 5, 5, false);
	check_px(f, f->rt1_va, 5, 5, false);
}

/* Without DB_SHADER_CONTROL.Z_EXPORT_ENABLE the DB takes no shader depth:
 * exp mrtz is ignored and the test is early, once, with the rasterized 0.5.
 * GREATER against 0: 0.5 passes and is written; a second, late test of the
 * exported 0.25 against it would fail and draw nothing. */
static void mrtz_ignored_without_z_export(void **state)
{
	fx *f = *state;
	xs_gpu_set_timing(f->gpu, true);
	draw_opts o = { .vs_cu_en = 0xffff, .ps_cu_en = 0xffff, .tris = 1, .ps = 2, .nrt = 2, .depth = true,
			.zfunc = V_028800_FRAG_GREATER };
	xs_gpu_dispatch_result r = { 0 };
	xs_err e = { 0 };
	clear_all(f, 0.0f);
	assert_int_equal(draw(f, &o, &r, &e), XS_OK);
	assert_int_equal(r.gfx.pixels_written, 2 * W * H);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			check_px(f, f->rt1_va, x, y, true);
			assert_true(depth_at(f, x, y) == 0.5f);
		}
}

/* A PS exporting MRT0 in a loop (loop.ps.ll: n times, then (100, 2, 3, 1)):
 * a lane keeps one colour per target, the last export's, so the buffer is
 * bounded by the wave and each pixel is written once. */
static void reexport_last_wins(void **state)
{
	fx *f = *state;
	for (int timing = 0; timing < 2; timing++) {
		xs_gpu_set_timing(f->gpu, timing);
		draw_opts o = { .vs_cu_en = 0xffff, .ps_cu_en = 0xffff, .tris = 1, .ps = 3, .ps_user0 = 1000 };
		xs_gpu_dispatch_result r = { 0 };
		xs_err e = { 0 };
		clear_all(f, 1.0f);
		assert_int_equal(draw(f, &o, &r, &e), XS_OK);
		assert_int_equal(r.gfx.pixels_written, W * H);
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				float c[4];
				rt_at(f, f->rt_va, x, y, c);
				assert_true(c[0] == 100.0f && c[1] == 2.0f && c[2] == 3.0f && c[3] == 1.0f);
			}
	}
}

/* A 16 x 16 target under a 512 x 512 viewport and scissor: one triangle
 * covers 512 x 512 pixels, 8192 wave32 PS waves, all shaded (the scissor,
 * not the target, bounds rasterization). The PS waves gathered and not yet
 * committed stay within the draw's bound (twice the chip's wave slots,
 * rounded up to a power of two), the rasterizer pausing and resuming, and
 * the target gets exactly the pixels of the triangle. With early Z on a
 * BIG x BIG depth buffer (LESS, cleared to 1) every pixel passes once: a
 * quad the rasterizer stopped at is tested when it goes on, not twice. */
static void big_scissor_bounded(void **state)
{
	fx *f = *state;
	const xs_devinfo *di = f->gpu->info;
	uint32_t bound = 64, vp = BIG;
	while (bound < 2 * di->num_cu * di->simds_per_cu * di->wave_slots_per_simd)
		bound *= 2;
	for (int pass = 0; pass < 3; pass++) {
		xs_gpu_set_timing(f->gpu, pass != 1);
		draw_opts o = { .vs_cu_en = 0xffff, .ps_cu_en = 0xffff, .tris = 1, .vp = vp, .depth = pass == 2,
				.zbig = true, .zfunc = V_028800_FRAG_LESS };
		xs_gpu_dispatch_result r = { 0 };
		xs_err e = { 0 };
		clear_all(f, 1.0f);
		fill_f(f, f->zbig_va, (size_t)xs_hw_linear_pitch(BIG, 4) * BIG, 1.0f);
		assert_int_equal(draw(f, &o, &r, &e), XS_OK);
		assert_int_equal(r.gfx.pixels_shaded, vp * vp);
		assert_int_equal(r.gfx.waves[XS_GPU_STAGE_PS], vp * vp / 4 / (f->ps.wave64 ? 16 : 8));
		assert_true(r.gfx.waves[XS_GPU_STAGE_PS] > bound);
		assert_int_equal(r.gfx.pixels_written, vp * vp); /* passed the tests: the CB drops those off the target */
		printf("# peak PS waves pending %u, bound %u\n", r.gfx.peak_ps_pending, bound);
		assert_true(r.gfx.peak_ps_pending <= bound);
		assert_int_equal(r.gfx.quads_depth_killed, 0);
		if (o.depth) {
			float *z = malloc((size_t)xs_hw_linear_pitch(BIG, 4) * BIG);
			assert_true(xs_vm_read(f->vm, f->zbig_va, z, (size_t)xs_hw_linear_pitch(BIG, 4) * BIG, NULL));
			for (uint32_t y = 0; y < BIG; y++)
				for (uint32_t x = 0; x < BIG; x++)
					assert_true(z[y * xs_hw_linear_pitch(BIG, 4) / 4 + x] == 0.5f);
			free(z);
		}
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				/* barycentrics of (0, vp) (2 vp, vp) (0, -vp) at the centre */
				float got[4], px = x + 0.5f, py = y + 0.5f;
				float want[4] = { 0, px / (2.0f * vp), (vp - py) / (2.0f * vp), 1.0f };
				want[0] = 1.0f - want[1] - want[2];
				rt_at(f, f->rt_va, x, y, got);
				for (int c = 0; c < 4; c++)
					assert_true(fabsf(got[c] - want[c]) < 1e-5f);
			}
	}
}

int main(int argc, char **argv)
{
	if (argc < 8) {
		fprintf(stderr, "usage: %s VS.o PS.o SMALL_VS64.o KILL_PS.o MRT2Z_PS.o LOOP_PS.o NOPOS_VS64.o\n", argv[0]);
		return 2;
	}
	vs_path = argv[1];
	ps_path = argv[2];
	small_path = argv[3];
	kill_path = argv[4];
	mrt2z_path = argv[5];
	loop_path = argv[6];
	nopos_path = argv[7];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(triangle_timing),
		cmocka_unit_test(triangle_functional),
		cmocka_unit_test(many_triangles_masks),
		cmocka_unit_test(empty_draw),
		cmocka_unit_test(kill_tests_depth_late),
		cmocka_unit_test(late_z_once_per_pixel),
		cmocka_unit_test(mrtz_ignored_without_z_export),
		cmocka_unit_test(reexport_last_wins),
		cmocka_unit_test(big_scissor_bounded),
		cmocka_unit_test(vs_without_position_faults), /* removes the device: work after it still runs */
		cmocka_unit_test(s42_m22_completes),
		cmocka_unit_test(s42_m23_vs_barred_completes),
		cmocka_unit_test(s42_functional_and_deterministic),
		cmocka_unit_test(s42_scratch),       /* removes the device: work after it still runs */
		cmocka_unit_test(s42_m23_deadlocks),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
