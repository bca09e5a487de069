/* SPEC S4.2: MaxWavesWithLateAllocParameterCache above 22 can deadlock the
 * GPU; barring VS waves from one CU prevents it. The workload is built so
 * that the model's threshold lands on the documented value (docs/graphics.md
 * section 3): a wave64 VS of 256 VGPRs (two fill a SIMD: 1024 wave32 VGPRs
 * per SIMD, devinfo) and a PS, both confined to CUs 0..2 of every SA, so an
 * SA has 3 CUs x 2 SIMDs x 2 = 12 places for VS waves. The D3D12 value M
 * becomes LATE_ALLOC_VS.LIMIT = ceil(M / 2) wave64 waves per SA: M = 23 ->
 * 12 late waves can take all 12 places, and the PS waves that would free
 * the parameter cache have nowhere to go; M = 22 -> 11 leaves one. */
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

static uint32_t late_limit_of(uint32_t m)
{
	return (m + 1) / 2; /* wave64 units */
}

/* VS: wave64, 256 VGPRs; PS: wave32, 32 VGPRs. 64 vertices x 8 parameters
 * = 512 lines: two VS waves fill an SE's 1024 lines. */
static flow_result run(uint32_t m, uint32_t vs_cu_en, uint32_t ps_cu_en, bool scratch, uint32_t tmpring,
		       xs_gpu_gfx_stats *st)
{
	flow_stage vs = { .lanes = 64, .vgprs = 256, .cu_en = vs_cu_en, .scratch = scratch };
	flow_stage ps = { .lanes = 32, .vgprs = 32, .cu_en = ps_cu_en, .scratch = scratch };
	flow_program(gpu, vs, ps, late_limit_of(m), tmpring);
	xs_gfx_spi_cfg cfg;
	xs_err e = { 0 };
	assert_int_equal(xs_gfx_spi_decode(gpu, &gpu->queue[0], false, true, &cfg, &e), XS_OK);
	xs_gfx_spi s;
	memset(st, 0, sizeof(*st));
	assert_int_equal(xs_gfx_spi_init(&s, gpu, &cfg, st, &e), XS_OK);
	flow_desc d = { .nvs = 400, .verts = 64, .params = 8, .ps_per_vs = 4, .ps_lds = 4 * 8 * 48,
			.t_vs_exp = 200, .t_vs_end = 50, .t_ps = 300 };
	flow_result r;
	flow_run(&s, &d, &r);
	xs_gfx_spi_fini(&s);
	assert_int_equal(gpu->resident, 0);
	return r;
}

static void places_per_sa(void **state)
{
	(void)state;
	/* The arithmetic the design rests on, from the device table. */
	const xs_devinfo *di = xs_devinfo_get(XS_MACHINE_SERIES_X);
	uint32_t vs_w32 = 256 * 2;
	assert_int_equal(3 * di->simds_per_cu * (di->vgprs_per_simd_w32 / vs_w32), 12);
	assert_int_equal(late_limit_of(23), 12);
	assert_int_equal(late_limit_of(22), 11);
}

static void m23_deadlocks(void **state)
{
	(void)state;
	xs_gpu_gfx_stats st;
	flow_result r = run(23, 0x7, 0x7, false, 0, &st);
	assert_true(r.deadlock);
	printf("# %s\n", r.report);
	assert_non_null(strstr(r.report, "deadlock (SPEC S4.2)"));
	assert_non_null(strstr(r.report, "late-alloc limit 12 per SA, no CU excluded from VS"));
	assert_non_null(strstr(r.report, "no CU has room: VGPRs"));
	/* every place of the masks (4 SAs x 12) is held by a late wave waiting at exp */
	assert_non_null(strstr(r.report, ": 48 VS waves wait at exp"));
	assert_int_equal(st.peak_late_waiting, 48);
	assert_true(r.vs_done < 400);
}

static void m22_completes(void **state)
{
	(void)state;
	xs_gpu_gfx_stats st;
	flow_result r = run(22, 0x7, 0x7, false, 0, &st);
	assert_false(r.deadlock);
	assert_int_equal(r.vs_done, 400);
	assert_int_equal(r.ps_done, 1600);
	assert_true(st.late_alloc_waves > 0);   /* late alloc was in play */
	assert_true(st.exp_stall_cycles > 0);
	assert_int_equal(st.peak_pc_lines, st.pc_lines);
}

static void m23_with_a_vs_cu_barred_completes(void **state)
{
	(void)state;
	xs_gpu_gfx_stats st;
	/* VS on CUs 0..1 of every SA, PS on 0..2: VS waves can never take CU 2. */
	flow_result r = run(23, 0x3, 0x7, false, 0, &st);
	assert_false(r.deadlock);
	assert_int_equal(r.vs_done, 400);
	assert_int_equal(r.ps_done, 1600);
	assert_true(st.late_alloc_waves > 0);
	assert_int_equal(st.cu_used[XS_GPU_STAGE_VS] & ~gpu->cu_all, 0);
}

static void all_cus_open_need_more_late_waves(void **state)
{
	(void)state;
	xs_gpu_gfx_stats st;
	/* Every CU open: an SA has 12..14 CUs = 48..56 places, far above 12. */
	flow_result r = run(23, 0xffff, 0xffff, false, 0, &st);
	assert_false(r.deadlock);
	assert_int_equal(r.ps_done, 1600);
	/* ... and the largest LIMIT (63 wave64 waves per SA, M = 125) deadlocks it. */
	r = run(125, 0xffff, 0xffff, false, 0, &st);
	assert_true(r.deadlock);
}

static void scratch_ring_deadlocks_despite_vs_mask(void **state)
{
	(void)state;
	xs_gpu_gfx_stats st;
	/* S1.12's small ring: 8 slots of 1 KiB. Late VS waves hold the slots the PS needs. */
	uint32_t ring = S_00B860_WAVES(8) | S_00B860_WAVESIZE(1);
	flow_result r = run(23, 0x3, 0x7, true, ring, &st);
	assert_true(r.deadlock);
	assert_non_null(strstr(r.report, "no CU has room: scratch-ring slots"));
	assert_int_equal(st.peak_scratch_slots, 8);
	/* late alloc off (Mesa's rule with scratch): completes */
	r = run(0, 0x3, 0x7, true, ring, &st);
	assert_false(r.deadlock);
	assert_int_equal(r.ps_done, 1600);
	assert_int_equal(st.late_alloc_waves, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(places_per_sa),
		cmocka_unit_test(m23_deadlocks),
		cmocka_unit_test(m22_completes),
		cmocka_unit_test(m23_with_a_vs_cu_barred_completes),
		cmocka_unit_test(all_cus_open_need_more_late_waves),
		cmocka_unit_test(scratch_ring_deadlocks_despite_vs_mask),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
