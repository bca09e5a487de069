/* The graphics packets through the command processor: the draw state
 * packets, the DRAW_* packets' arguments (direct and indirect, as the CP
 * hands them to the SPI), XS_FILL, and a draw's registers decoded into
 * xs_gfx_state (src/gpu/xs_gpu_gfx_state.c). PM4 comes from the builder,
 * so what the D3D12 layer records and what the GPU reads meet here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/xs_gpu_gfx.h"
#include "gpu/xs_gpu_priv.h"
#include "hw/xs_hw_pm4.h"
#include "hw/xs_hw_surf.h"
#include "pm4/xs_pm4_build.h"

typedef struct fx {
	xs_vm *vm;
	xs_gpu *gpu;
	uint64_t mem;
	xs_pm4_builder b;
} fx;

static int setup(void **state)
{
	static fx f;
	f.vm = xs_vm_create();
	f.gpu = xs_gpu_create(xs_devinfo_get(XS_MACHINE_SERIES_X), f.vm);
	xs_pm4_builder_init(&f.b, 0);
	if (!f.gpu || xs_vm_alloc(f.vm, 65536, 256, &f.mem, NULL))
		return -1;
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	fx *f = *state;
	xs_pm4_builder_free(&f->b);
	xs_gpu_destroy(f->gpu);
	xs_vm_destroy(f->vm);
	return 0;
}

static xs_status run(fx *f, unsigned q, xs_err *e)
{
	uint64_t va;
	assert_false(xs_pm4_builder_failed(&f->b));
	assert_int_equal(xs_vm_alloc(f->vm, f->b.cdw * 4, 256, &va, NULL), XS_OK);
	assert_true(xs_vm_write(f->vm, va, f->b.dw, f->b.cdw * 4, NULL));
	assert_int_equal(xs_gpu_submit(f->gpu, q, va, (uint32_t)f->b.cdw, NULL, 0, NULL), XS_OK);
	xs_pm4_builder_reset(&f->b);
	xs_err_clear(e);
	return xs_gpu_execute(f->gpu, NULL, e);
}

/* Decodes the builder's one packet and asks the CP for its draw arguments. */
static xs_status draw_args(fx *f, xs_gpu_draw_args *a, xs_err *e)
{
	xs_pm4_iter it;
	xs_pm4_packet p;
	xs_pm4_iter_init(&it, f->b.dw, f->b.cdw);
	int r;
	do
		assert_int_equal((r = xs_pm4_next(&it, &p, e)), 1);
	while (p.opcode == PKT3_SET_BASE && (f->gpu->cp[0].base_va = (uint64_t)p.body[1] | (uint64_t)p.body[2] << 32, 1));
	xs_pm4_builder_reset(&f->b);
	xs_err_clear(e);
	return xs_gpu_cp_draw_args(f->gpu, 0, 0, &p, a, e);
}

static void state_packets_and_draw_args(void **state)
{
	fx *f = *state;
	xs_err e;
	xs_gpu_queue_regs *r = &f->gpu->queue[0];
	xs_pm4_index_type(&f->b, V_03090C_VGT_INDEX_32);
	xs_pm4_num_instances(&f->b, 3);
	xs_pm4_index_base(&f->b, f->mem + 0x1000);
	xs_pm4_index_buffer_size(&f->b, 100);
	uint32_t off = 7;
	xs_pm4_set_context_reg(&f->b, R_028408_VGT_INDX_OFFSET, &off, 1);
	assert_int_equal(run(f, 0, &e), XS_OK);
	assert_int_equal(r->uconfig[(R_03090C_VGT_INDEX_TYPE - XS_UCONFIG_REG_OFFSET) / 4], V_03090C_VGT_INDEX_32);
	assert_int_equal(r->uconfig[(R_030934_VGT_NUM_INSTANCES - XS_UCONFIG_REG_OFFSET) / 4], 3);
	assert_int_equal(r->index_base, f->mem + 0x1000);
	assert_int_equal(r->index_buffer_size, 100);

	xs_gpu_draw_args a;
	xs_pm4_draw_index_auto(&f->b, 36);
	assert_int_equal(draw_args(f, &a, &e), XS_OK);
	assert_false(a.indexed);
	assert_int_equal(a.count, 36);
	assert_int_equal(a.instance_count, 3);
	assert_int_equal(a.start_vertex, 7);

	xs_pm4_draw_index_2(&f->b, 50, f->mem + 0x1010, 30);
	assert_int_equal(draw_args(f, &a, &e), XS_OK);
	assert_true(a.indexed && !a.indirect);
	assert_int_equal(a.count, 30);
	assert_int_equal(a.index_va, f->mem + 0x1010);
	assert_int_equal(a.max_indices, 50);
	assert_int_equal(a.index_size, 4);

	/* DrawIndexedInstanced arguments in memory: 12 indices, 2 instances,
	 * StartIndex 10, BaseVertex -4, StartInstance 5 */
	int32_t ia[5] = { 12, 2, 10, -4, 5 };
	assert_true(xs_vm_write(f->vm, f->mem + 0x2010, ia, sizeof(ia), NULL));
	xs_pm4_draw_indirect(&f->b, true, f->mem + 0x2000, 0x10, R_00B130_SPI_SHADER_USER_DATA_VS_0 + 4 * 6,
			     R_00B130_SPI_SHADER_USER_DATA_VS_0 + 4 * 7);
	assert_int_equal(draw_args(f, &a, &e), XS_OK);
	assert_true(a.indexed && a.indirect);
	assert_int_equal(a.count, 12);
	assert_int_equal(a.instance_count, 2);
	assert_int_equal(a.base_vertex, -4);
	assert_int_equal(a.start_instance, 5);
	assert_int_equal(a.index_va, f->mem + 0x1000 + 10 * 4);
	assert_int_equal(a.max_indices, 90);
	assert_int_equal(xs_gpu_get_sh_reg(f->gpu, 0, R_00B130_SPI_SHADER_USER_DATA_VS_0 + 4 * 6), (uint32_t)-4);
	assert_int_equal(xs_gpu_get_sh_reg(f->gpu, 0, R_00B130_SPI_SHADER_USER_DATA_VS_0 + 4 * 7), 5);

	/* DrawInstanced arguments: 9 vertices, 1 instance, StartVertex 20, StartInstance 0 */
	uint32_t da[4] = { 9, 1, 20, 0 };
	assert_true(xs_vm_write(f->vm, f->mem + 0x2100, da, sizeof(da), NULL));
	xs_pm4_draw_indirect(&f->b, false, f->mem + 0x2100, 0, 0, 0);
	assert_int_equal(draw_args(f, &a, &e), XS_OK);
	assert_int_equal(a.count, 9);
	assert_int_equal(a.start_vertex, 20);
	assert_int_equal(r->ctx[(R_028408_VGT_INDX_OFFSET - XS_CONTEXT_REG_OFFSET) / 4], 20);

	/* arguments in no allocation: the CP's page fault */
	xs_pm4_draw_indirect(&f->b, false, 0x7000000000ull, 0, 0, 0);
	assert_int_equal(draw_args(f, &a, &e), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "DRAW_INDIRECT"));
	assert_int_equal(xs_gpu_cp_fault(f->gpu).kind, XS_FAULT_VM);
}

static void draws_only_on_the_graphics_ring(void **state)
{
	fx *f = *state;
	xs_err e;
	xs_pm4_draw_index_auto(&f->b, 3);
	assert_int_equal(run(f, 2, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "DRAW_INDEX_AUTO on a compute queue"));
	/* an 8-bit index type is refused where the packet is decoded */
	uint32_t it[2] = { PKT3(PKT3_INDEX_TYPE, 0, 0), V_03090C_VGT_INDEX_8 };
	xs_pm4_emit_raw(&f->b, it, 2);
	assert_int_equal(run(f, 0, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "INDEX_TYPE"));
}

static void xs_fill_packet(void **state)
{
	fx *f = *state;
	xs_err e;
	uint32_t pat[2] = { 0x3F800000, 0x00000000 };
	xs_pm4_xs_fill(&f->b, f->mem + 0x4000, 256, 64, 4, pat, 2);
	xs_pm4_fence(&f->b, f->mem + 0x8000, 1, false);
	assert_int_equal(run(f, 0, &e), XS_OK);
	for (int r = 0; r < 4; r++)
		for (int i = 0; i < 16; i++) {
			uint32_t v;
			assert_true(xs_vm_read(f->vm, f->mem + 0x4000 + 256 * r + 4 * i, &v, 4, NULL));
			assert_int_equal(v, pat[i % 2]);
		}
	uint32_t v;
	assert_true(xs_vm_read(f->vm, f->mem + 0x4000 + 64, &v, 4, NULL));
	assert_int_equal(v, 0); /* past row_bytes */
	assert_true(xs_vm_read(f->vm, f->mem + 0x8000, &v, 4, NULL));
	assert_int_equal(v, 1); /* the CP went on after the fill's busy time */
	/* into no allocation: a CP page fault naming XS_FILL */
	xs_pm4_xs_fill(&f->b, 0x7000000000ull, 256, 64, 4, pat, 2);
	assert_int_equal(run(f, 0, &e), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(e.msg, "XS_FILL"));
	assert_int_equal(xs_gpu_cp_fault(f->gpu).kind, XS_FAULT_VM);
	/* malformed: the decoder names the field */
	uint32_t bad[8] = { PKT3(PKT3_XS_FILL, 6, 0), (uint32_t)f->mem, 0, 256, 64, 1, 3, 0 };
	xs_pm4_emit_raw(&f->b, bad, 8);
	assert_int_equal(run(f, 0, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "pattern_dw 3"));
	uint32_t bad2[8] = { PKT3(PKT3_XS_FILL, 6, 0), (uint32_t)f->mem, 0, 16, 64, 2, 1, 0 };
	xs_pm4_emit_raw(&f->b, bad2, 8);
	assert_int_equal(run(f, 0, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "pitch 16"));
}

static uint32_t u32(float f)
{
	uint32_t v;
	memcpy(&v, &f, 4);
	return v;
}

/* Registers a D3D12 draw sets (as the D3D12 layer would record them) come
 * out of xs_gfx_state_decode as the pipe's figures. */
static void state_decode(void **state)
{
	fx *f = *state;
	xs_err e;
	uint64_t vs = 0x123456789a00ull, rt = 0x22345600ull << 8, zb = 0x1000000ull << 8;
	xs_pm4_set_sh_reg1(&f->b, R_00B120_SPI_SHADER_PGM_LO_VS, (uint32_t)(vs >> 8));
	xs_pm4_set_sh_reg1(&f->b, R_00B124_SPI_SHADER_PGM_HI_VS, (uint32_t)(vs >> 40));
	xs_pm4_set_sh_reg1(&f->b, R_00B128_SPI_SHADER_PGM_RSRC1_VS, S_00B128_VGPRS(2));
	xs_pm4_set_sh_reg1(&f->b, R_00B12C_SPI_SHADER_PGM_RSRC2_VS, S_00B12C_USER_SGPR(6));
	uint32_t one = 1;
	xs_pm4_set_context_reg(&f->b, R_028B54_VGT_SHADER_STAGES_EN, (uint32_t[]){ S_028B54_VS_W32_EN(1) }, 1);
	xs_pm4_set_context_reg(&f->b, R_0286C4_SPI_VS_OUT_CONFIG, (uint32_t[]){ S_0286C4_VS_EXPORT_COUNT(2) }, 1);
	xs_pm4_set_uconfig_reg(&f->b, R_030908_VGT_PRIMITIVE_TYPE, (uint32_t[]){ V_030908_DI_PT_TRISTRIP }, 1);
	uint32_t vp[6] = { u32(320), u32(320), u32(-240), u32(240), u32(1), u32(0) };
	xs_pm4_set_context_reg(&f->b, R_02843C_PA_CL_VPORT_XSCALE, vp, 6);
	xs_pm4_set_context_reg(&f->b, R_028818_PA_CL_VTE_CNTL,
			       (uint32_t[]){ S_028818_VPORT_X_SCALE_ENA(1) | S_028818_VPORT_X_OFFSET_ENA(1) |
					     S_028818_VPORT_Y_SCALE_ENA(1) | S_028818_VPORT_Y_OFFSET_ENA(1) |
					     S_028818_VPORT_Z_SCALE_ENA(0) | S_028818_VPORT_Z_OFFSET_ENA(1) |
					     S_028818_VTX_W0_FMT(1) }, 1);
	xs_pm4_set_context_reg(&f->b, R_028250_PA_SC_VPORT_SCISSOR_0_TL,
			       (uint32_t[]){ S_028250_TL_X(10) | S_028250_TL_Y(20), S_028254_BR_X(600) | S_028254_BR_Y(400) },
			       2);
	xs_pm4_set_context_reg(&f->b, R_028030_PA_SC_SCREEN_SCISSOR_TL,
			       (uint32_t[]){ 0, S_028034_BR_X(640) | S_028034_BR_Y(300) }, 2);
	xs_pm4_set_context_reg(&f->b, R_028800_DB_DEPTH_CONTROL,
			       (uint32_t[]){ S_028800_Z_ENABLE(1) | S_028800_Z_WRITE_ENABLE(1) |
					     S_028800_ZFUNC(V_028800_FRAG_LEQUAL) }, 1);
	xs_pm4_set_context_reg(&f->b, R_028040_DB_Z_INFO, (uint32_t[]){ S_028040_FORMAT(V_028040_Z_32_FLOAT) }, 1);
	xs_pm4_set_context_reg(&f->b, R_028048_DB_Z_READ_BASE, (uint32_t[]){ (uint32_t)(zb >> 8) }, 1);
	xs_pm4_set_context_reg(&f->b, R_028050_DB_Z_WRITE_BASE, (uint32_t[]){ (uint32_t)(zb >> 8) }, 1);
	xs_pm4_set_context_reg(&f->b, R_02801C_DB_DEPTH_SIZE_XY,
			       (uint32_t[]){ S_02801C_X_MAX(639) | S_02801C_Y_MAX(479) }, 1);
	/* render target 2 (stride 0x3C / 4), BGRA8 */
	xs_pm4_set_context_reg(&f->b, R_028C60_CB_COLOR0_BASE + 2 * XS_CB_COLOR_STRIDE, (uint32_t[]){ (uint32_t)(rt >> 8) },
			       1);
	xs_pm4_set_context_reg(&f->b, R_028C70_CB_COLOR0_INFO + 2 * XS_CB_COLOR_STRIDE,
			       (uint32_t[]){ S_028C70_FORMAT(V_028C70_COLOR_8_8_8_8) |
					     S_028C70_NUMBER_TYPE(V_028C70_NUMBER_UNORM) |
					     S_028C70_COMP_SWAP(V_028C70_SWAP_ALT) }, 1);
	xs_pm4_set_context_reg(&f->b, R_028E40_CB_COLOR0_BASE_EXT + 2 * 4, (uint32_t[]){ (uint32_t)(rt >> 40) }, 1);
	xs_pm4_set_context_reg(&f->b, R_028EC0_CB_COLOR0_ATTRIB2 + 2 * 4,
			       (uint32_t[]){ S_028EC0_MIP0_WIDTH(99) | S_028EC0_MIP0_HEIGHT(49) }, 1);
	xs_pm4_set_context_reg(&f->b, R_028238_CB_TARGET_MASK, (uint32_t[]){ S_028238_TARGET2_ENABLE(0xB) }, 1);
	xs_pm4_set_context_reg(&f->b, R_028808_CB_COLOR_CONTROL, (uint32_t[]){ S_028808_MODE(V_028808_CB_NORMAL) }, 1);
	xs_pm4_num_instances(&f->b, one);
	assert_int_equal(run(f, 0, &e), XS_OK);
	xs_gfx_state s;
	assert_int_equal(xs_gfx_state_decode(&f->gpu->queue[0], &s, &e), XS_OK);
	assert_int_equal(s.vs_va, vs);
	assert_true(s.vs_w32);
	assert_int_equal(s.vs_vgprs, 24);
	assert_int_equal(s.vs_user_sgprs, 6);
	assert_int_equal(s.num_params, 3);
	assert_int_equal(s.prim, XS_GFX_PRIM_TRISTRIP);
	assert_float_equal(s.vp_scale[0], 320, 0);
	assert_float_equal(s.vp_scale[1], -240, 0);
	assert_float_equal(s.vp_scale[2], 1, 0); /* Z scale disabled: 1 */
	int32_t sc[4] = { 10, 20, 600, 300 };
	assert_memory_equal(s.scissor, sc, sizeof(sc));
	assert_true(s.z_enable && s.z_write && s.z_valid);
	assert_int_equal(s.zfunc, V_028800_FRAG_LEQUAL);
	assert_int_equal(s.z_va, zb);
	assert_int_equal(s.z_width, 640);
	assert_int_equal(s.z_pitch, 2560);
	assert_int_equal(s.rt[2].format, XS_GFX_RT_RGBA8_UNORM);
	assert_int_equal(s.rt[2].va, rt);
	assert_int_equal(s.rt[2].width, 100);
	assert_int_equal(s.rt[2].height, 50);
	assert_int_equal(s.rt[2].pitch, 512); /* 400 bytes aligned to 256 */
	assert_int_equal(s.rt[2].write_mask, 0xB);
	assert_int_equal(s.rt[2].comp_swap, V_028C70_SWAP_ALT);
	assert_int_equal(s.rt[0].format, XS_GFX_RT_NONE);
	assert_int_equal(s.instances, 1);

	/* state that cannot draw names the register */
	xs_pm4_set_context_reg(&f->b, R_028C70_CB_COLOR0_INFO,
			       (uint32_t[]){ S_028C70_FORMAT(V_028C70_COLOR_5_6_5) }, 1);
	assert_int_equal(run(f, 0, &e), XS_OK);
	assert_int_equal(xs_gfx_state_decode(&f->gpu->queue[0], &s, &e), XS_E_UNSUPPORTED);
	assert_non_null(strstr(e.msg, "CB_COLOR0_INFO"));
	xs_pm4_set_uconfig_reg(&f->b, R_030908_VGT_PRIMITIVE_TYPE, (uint32_t[]){ V_030908_DI_PT_POINTLIST }, 1);
	xs_pm4_set_context_reg(&f->b, R_028C70_CB_COLOR0_INFO, (uint32_t[]){ 0 }, 1);
	assert_int_equal(run(f, 0, &e), XS_OK);
	assert_int_equal(xs_gfx_state_decode(&f->gpu->queue[0], &s, &e), XS_E_UNSUPPORTED);
	assert_non_null(strstr(e.msg, "VGT_PRIMITIVE_TYPE"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(state_packets_and_draw_args, setup, teardown),
		cmocka_unit_test_setup_teardown(draws_only_on_the_graphics_ring, setup, teardown),
		cmocka_unit_test_setup_teardown(xs_fill_packet, setup, teardown),
		cmocka_unit_test_setup_teardown(state_decode, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
