/* SPEC S4.1, S4.3, S4.4, S4.5: each VS/PS limit's effect in the draw
 * observables (xs_gpu_gfx_stats), from the SPI registers it is programmed
 * in (SPI_SHADER_PGM_RSRC3/4_VS/PS, SPI_SHADER_LATE_ALLOC_VS). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "gfx_flow.h"

static xs_gpu *gpu;
static xs_vm *vm;

static int setup(void **state)
{
	(void)state;
	vm = xs_vm_create();
	gpu = xs_gpu_create(xs_devinfo_get(XS_MACHINE_SERIES_X), vm);
	return gpu ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	xs_gpu_destroy(gpu);
	xs_vm_destroy(vm);
	return 0;
}

static void start(xs_gfx_spi *s, xs_gpu_gfx_stats *st, flow_stage vs, flow_stage ps, uint32_t late)
{
	flow_program(gpu, vs, ps, late, 0);
	xs_gfx_spi_cfg cfg;
	xs_err e = { 0 };
	assert_int_equal(xs_gfx_spi_decode(gpu, &gpu->queue[0], vs.lanes == 32, ps.lanes == 32, &cfg, &e), XS_OK);
	memset(st, 0, sizeof(*st));
	assert_int_equal(xs_gfx_spi_init(s, gpu, &cfg, st, &e), XS_OK);
}

static const flow_desc work = { .nvs = 300, .verts = 32, .params = 4, .ps_per_vs = 2, .ps_lds = 2 * 4 * 48,
				 .t_vs_exp = 100, .t_vs_end = 20, .t_ps = 150 };

/* The CUs whose index within their SA has a bit in mask (xs_gpu_cu_place: the public topology). */
static uint64_t cus_of(uint32_t mask)
{
	uint64_t m = 0;
	uint32_t se, sa, wgp, cw, n = xs_devinfo_get(XS_MACHINE_SERIES_X)->num_cu;
	for (uint32_t c = 0; c < n; c++) {
		xs_gpu_cu_place(gpu, c, &se, &sa, &wgp, &cw);
		if ((mask >> (wgp * 2 + cw)) & 1)
			m |= 1ull << c;
	}
	return m;
}

static void cu_masks(void **state)
{
	(void)state;
	xs_gfx_spi s;
	xs_gpu_gfx_stats st;
	flow_stage vs = { .lanes = 32, .vgprs = 64, .cu_en = 0x5 }, ps = { .lanes = 32, .vgprs = 32, .cu_en = 0x12 };
	start(&s, &st, vs, ps, 0);
	flow_result r;
	flow_run(&s, &work, &r);
	xs_gfx_spi_fini(&s);
	assert_false(r.deadlock);
	assert_int_equal(r.ps_done, 600);
	assert_int_equal(st.cu_used[XS_GPU_STAGE_VS], cus_of(0x5));
	assert_int_equal(st.cu_used[XS_GPU_STAGE_PS], cus_of(0x12));
	/* a mask that enables nothing is refused naming the registers */
	vs.cu_en = 0;
	flow_program(gpu, vs, ps, 0, 0);
	xs_gfx_spi_cfg cfg;
	xs_err e = { 0 };
	assert_int_equal(xs_gfx_spi_decode(gpu, &gpu->queue[0], true, true, &cfg, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "SPI_SHADER_PGM_RSRC3_VS.CU_EN"));
}

static void wave_limit(void **state)
{
	(void)state;
	xs_gfx_spi s;
	xs_gpu_gfx_stats st;
	flow_stage vs = { .lanes = 32, .vgprs = 32, .cu_en = 0xffff }, ps = { .lanes = 32, .vgprs = 32, .cu_en = 0xffff };
	flow_desc d = work;
	d.params = 1; /* 32 lines a wave: 32 waves per SE fit the parameter cache */
	d.t_vs_exp = 2000;
	start(&s, &st, vs, ps, 0);
	flow_result r;
	flow_run(&s, &d, &r);
	xs_gfx_spi_fini(&s);
	uint32_t unlimited = st.peak_waves[XS_GPU_STAGE_VS];
	assert_true(unlimited > 32);
	vs.wave_limit16 = 1; /* 16 waves per SE, 2 SEs */
	start(&s, &st, vs, ps, 0);
	flow_run(&s, &d, &r);
	xs_gfx_spi_fini(&s);
	assert_false(r.deadlock);
	assert_int_equal(r.vs_done, d.nvs);
	assert_int_equal(st.peak_waves[XS_GPU_STAGE_VS], 32);
}

static void late_alloc(void **state)
{
	(void)state;
	xs_gfx_spi s;
	xs_gpu_gfx_stats st;
	flow_stage vs = { .lanes = 32, .vgprs = 32, .cu_en = 0xffff }, ps = { .lanes = 32, .vgprs = 32, .cu_en = 0xffff };
	flow_desc d = work;
	d.params = 16; /* 512 lines a wave: two per SE */
	start(&s, &st, vs, ps, 2);
	flow_result r;
	flow_run(&s, &d, &r);
	xs_gfx_spi_fini(&s);
	assert_false(r.deadlock);
	assert_true(st.late_alloc_waves > 0);
	assert_true(st.exp_stall_cycles > 0);
	/* wave32: LIMIT 2 (wave64 units) lets 4 late waves per SA wait at once, 16 on 4 SAs */
	assert_true(st.peak_late_waiting <= 16);
	assert_true(st.peak_late_waiting > 4);
	uint64_t cycles_late = r.cycles;
	start(&s, &st, vs, ps, 0);
	flow_run(&s, &d, &r);
	xs_gfx_spi_fini(&s);
	assert_int_equal(st.late_alloc_waves, 0);
	assert_int_equal(st.exp_stall_cycles, 0);
	assert_int_equal(r.ps_done, 600);
	/* late waves start their work before lines free: the draw ends sooner */
	assert_true(cycles_late < r.cycles);
}

/* S4.5 step by step: PS waves (wave64, 256 VGPRs: half a SIMD) find no
 * room on CU 0 of each SA, which small VS waves fill. */
static void cu_locking(void **state)
{
	(void)state;
	for (int thr = 0; thr < 2; thr++) {
		xs_gfx_spi s;
		xs_gpu_gfx_stats st;
		flow_stage vs = { .lanes = 32, .vgprs = 256, .cu_en = 0x1 },
			   ps = { .lanes = 64, .vgprs = 256, .cu_en = 0x1, .lock4 = (uint32_t)thr };
		start(&s, &st, vs, ps, 0);
		xs_gfx_wave v[64], p;
		uint32_t n = 0;
		/* 4 per SIMD x 2 SIMDs x 4 SAs = 32 VS waves fill the four CUs (32 lines each: PC has room) */
		while (n < 64 && xs_gfx_spi_launch(&s, XS_GPU_STAGE_VS, 32, &v[n]) < 0)
			n++;
		assert_int_equal(n, 32);
		gpu->now += 10;
		assert_int_equal(xs_gfx_spi_launch(&s, XS_GPU_STAGE_PS, 0, &p), XS_GPU_WAIT_VGPR);
		assert_int_equal(st.cu_lock_events, (uint64_t)thr);
		/* two VS waves of one SIMD of the first CU end: room for a VS wave there, and half a SIMD */
		uint32_t cu0 = v[0].cu, freed = 0;
		for (uint32_t i = 0; i < n && freed < 2; i++)
			if (v[i].cu == cu0 && v[i].simd == v[0].simd) {
				xs_gfx_spi_retire(&s, &v[i]);
				freed++;
			}
		gpu->now += 10;
		xs_gfx_wave extra;
		int rv = xs_gfx_spi_launch(&s, XS_GPU_STAGE_VS, 32, &extra);
		if (thr) {
			/* the locked CU (the first: all were equally full) takes no VS
			 * wave, though it has room; the PS wave goes there next */
			assert_int_equal(gpu->cu_locked, 1ull << cu0);
			assert_int_not_equal(rv, -1);
			assert_int_equal(xs_gfx_spi_launch(&s, XS_GPU_STAGE_PS, 0, &p), -1);
			assert_int_equal(p.cu, cu0);
			assert_int_equal(st.cu_lock_cycles, 10);
			assert_int_equal(gpu->cu_locked, 0);
			xs_gfx_spi_retire(&s, &p);
		} else {
			/* no locking: the VS wave (served first) takes the room again */
			assert_int_equal(rv, -1);
			assert_int_equal(extra.cu, cu0);
			assert_int_equal(xs_gfx_spi_launch(&s, XS_GPU_STAGE_PS, 0, &p), XS_GPU_WAIT_VGPR);
			assert_int_equal(st.cu_lock_events, 0);
			xs_gfx_spi_retire(&s, &extra);
		}
		for (uint32_t i = 0; i < n; i++)
			if (v[i].resident)
				xs_gfx_spi_retire(&s, &v[i]);
		xs_gfx_spi_fini(&s);
		assert_int_equal(gpu->resident, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cu_masks),
		cmocka_unit_test(wave_limit),
		cmocka_unit_test(late_alloc),
		cmocka_unit_test(cu_locking),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
