/* Occupancy rules against figures the hardware documentation fixes
 * (docs/hardware.md section 7); the comparison with clang-15's own
 * "; Occupancy:" over every kernel is tests/e2e/occupancy_vs_llvm.py. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpu/xs_gpu_occupancy.h"

static xs_occupancy occ(uint32_t ws, uint32_t vgprs, uint32_t lds, uint32_t group, bool wgp)
{
	xs_occ_params p = { .wave_size = ws, .vgprs = vgprs, .lds_bytes = lds, .group_threads = group,
			    .wgp_mode = wgp };
	xs_occupancy o;
	xs_gpu_occupancy(xs_devinfo_get(XS_MACHINE_SERIES_X), &p, &o);
	return o;
}

static void vgpr_granules(void **state)
{
	(void)state;
	/* wave32: 1024 VGPRs in granules of 16. 64 -> 16 waves; 65 -> 80 -> 12. */
	assert_int_equal(occ(32, 64, 0, 64, true).waves_per_simd, 16);
	assert_int_equal(occ(32, 65, 0, 64, true).by_vgpr, 12);
	assert_int_equal(occ(32, 65, 0, 64, true).vgpr_alloc, 80);
	assert_int_equal(occ(32, 256, 0, 64, true).by_vgpr, 4);
	/* wave64: 512 in granules of 8. 212 -> 216 -> 2 (clang-15 agrees). */
	assert_int_equal(occ(64, 212, 0, 64, true).by_vgpr, 2);
	assert_int_equal(occ(64, 212, 0, 64, true).limiter, XS_LIMIT_VGPR);
	assert_int_equal(occ(64, 32, 0, 64, true).by_vgpr, 16);
}

static void lds_pools(void **state)
{
	(void)state;
	/* 24 KiB, 2 waves per group. WGP mode: 5 groups in 128 KiB = 10 waves
	 * over 4 SIMDs -> 2. CU mode: 2 groups in 64 KiB = 4 waves / 2 -> 2. */
	assert_int_equal(occ(32, 8, 24576, 64, true).by_lds, 2);
	assert_int_equal(occ(32, 8, 24576, 64, false).by_lds, 2);
	/* 1 KiB allocation steps: 24577 bytes take 25 KiB -> still 5 groups. */
	assert_int_equal(occ(32, 8, 24577, 64, true).lds_alloc, 25600);
	/* 16 KiB, 8 waves per group: WGP 8 groups = 64 waves -> 16; CU 4 groups -> 16. */
	assert_int_equal(occ(32, 8, 16384, 256, true).by_lds, 16);
	/* 64 KiB single-wave groups still run one wave somewhere. */
	assert_int_equal(occ(32, 8, 65536, 32, true).by_lds, 1);
	assert_int_equal(occ(32, 8, 24576, 64, true).limiter, XS_LIMIT_LDS);
}

static void workgroups_and_barriers(void **state)
{
	(void)state;
	/* 3-wave groups in CU mode: 32 slots -> 10 groups = 30 waves / 2 -> 15. */
	assert_int_equal(occ(32, 8, 0, 96, false).by_workgroup, 15);
	assert_int_equal(occ(32, 8, 0, 96, false).limiter, XS_LIMIT_WORKGROUP);
	/* WGP mode: 64 slots -> 21 groups = 63 waves / 4 -> 15. */
	assert_int_equal(occ(32, 8, 0, 96, true).by_workgroup, 15);
	/* 2-wave groups: barriers (16 per CU) allow 16 groups = 32 waves -> 16. */
	assert_int_equal(occ(32, 8, 0, 64, false).by_workgroup, 16);
	/* 1024 threads wave32 = 32 waves: one group per CU in CU mode -> 16. */
	assert_int_equal(occ(32, 8, 0, 1024, false).by_workgroup, 16);
	assert_int_equal(occ(32, 8, 0, 1024, false).waves_per_group, 32);
}

static void machines(void **state)
{
	(void)state;
	const xs_devinfo *x = xs_devinfo_get(XS_MACHINE_SERIES_X), *s = xs_devinfo_get(XS_MACHINE_SERIES_S);
	assert_int_equal(x->num_cu, 2 * xs_devinfo_num_wgp(x));
	assert_int_equal(s->num_cu, 2 * xs_devinfo_num_wgp(s));
	assert_int_equal(x->num_cu, 52);
	assert_int_equal(s->num_cu, 20);
	/* 12.15 TFLOPS = CUs x 64 lanes x 2 FLOP x clock. */
	double tflops = x->num_cu * 64.0 * 2 * x->sclk_mhz * 1e6 / 1e12;
	assert_true(tflops > 12.14 && tflops < 12.16);
	assert_ptr_equal(xs_devinfo_by_name("seriess"), s);
	assert_null(xs_devinfo_by_name("ps5"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vgpr_granules),
		cmocka_unit_test(lds_pools),
		cmocka_unit_test(workgroups_and_barriers),
		cmocka_unit_test(machines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
