/* xs_replay_ex (xs12.h): a recording replayed with register overrides gives
 * each dispatch's figures. The oracle is a live dispatch: a recording of a
 * scratch kernel on the driver's default ring, replayed with
 * COMPUTE_TMPRING_SIZE.WAVES=8, must measure what a device created with
 * scratch_waves = 8 measures; replayed without overrides, what the recorded
 * run measured. Then the call's rejections.
 * argv: private_spill (9 KB of scratch per wave). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "xs12/xs12.h"

static const char *spill_path;
static char rec_path[64];

#define GROUPS 52u
#define N (GROUPS * 256u)

/* One private_spill dispatch on a fresh device with `slots` ring slots (0:
 * the driver default), recorded to `rec` when given. */
static void live_run(uint32_t slots, const char *rec, xs_dispatch_stats *st)
{
	xs_device_desc d = { .machine = XS_MACHINE_SERIES_X, .scratch_waves = slots, .threads = 1 };
	xs_device *dev;
	xs_module *mod;
	assert_int_equal(xs_device_create(&d, &dev), XS_OK);
	assert_int_equal(xs_module_load_file(dev, spill_path, &mod), XS_OK);
	const xs_kernel_info *k = xs_module_kernel(mod, 0);
	assert_non_null(k);
	uint64_t in, out;
	assert_int_equal(xs_mem_alloc(dev, N * 4, 256, &in), XS_OK);
	assert_int_equal(xs_mem_alloc(dev, N * 4, 256, &out), XS_OK);
	uint32_t *host = malloc(N * 4);
	assert_non_null(host);
	for (uint32_t i = 0; i < N; i++)
		host[i] = i * 2654435761u;
	assert_int_equal(xs_mem_write(dev, in, host, N * 4), XS_OK);
	free(host);
	uint8_t kargs[512] = { 0 };
	assert_true(k->kernarg_size <= sizeof(kargs));
	uint32_t n = N, nbuf = 0;
	for (uint32_t i = 0; i < k->num_args; i++) {
		const xs_kernel_arg *a = &k->args[i];
		if (a->kind == XS_ARG_GLOBAL_BUFFER)
			memcpy(kargs + a->offset, nbuf++ ? &out : &in, 8);
		else if (a->kind == XS_ARG_BY_VALUE && a->size == 4)
			memcpy(kargs + a->offset, &n, 4);
	}
	assert_int_equal(nbuf, 2);
	if (rec)
		assert_int_equal(xs_device_record(dev, rec), XS_OK);
	xs_dispatch_desc desc = { .kernel = k, .module = mod, .groups = { GROUPS, 1, 1 }, .block = { 256, 1, 1 },
				  .kernargs = kargs, .kernargs_size = k->kernarg_size };
	assert_int_equal(xs_dispatch(dev, &desc, st), XS_OK);
	if (rec)
		assert_int_equal(xs_device_record(dev, NULL), XS_OK);
	xs_module_destroy(mod);
	xs_device_destroy(dev);
}

static void same_figures(const xs_dispatch_stats *a, const xs_dispatch_stats *b)
{
	assert_int_equal(a->cycles, b->cycles);
	assert_int_equal(a->waves_launched, b->waves_launched);
	assert_int_equal(a->wave_instructions, b->wave_instructions);
	assert_int_equal(a->peak_scratch_slots, b->peak_scratch_slots);
	assert_int_equal(a->scratch_waves, b->scratch_waves);
	assert_int_equal(a->peak_waves_in_flight, b->peak_waves_in_flight);
	assert_memory_equal(a->wait_cycles, b->wait_cycles, sizeof(a->wait_cycles));
	assert_true(a->counters.valid && b->counters.valid);
	assert_int_equal(a->counters.l0_hits, b->counters.l0_hits);
	assert_int_equal(a->counters.l2_misses, b->counters.l2_misses);
	assert_int_equal(a->counters.scratch_read_bytes, b->counters.scratch_read_bytes);
	assert_int_equal(a->counters.dram_read_lines, b->counters.dram_read_lines);
}

static void replay_without_overrides_measures_the_recorded_run(void **state)
{
	(void)state;
	xs_dispatch_stats live, got[2];
	live_run(0, rec_path, &live);
	xs_replay_options o = { .stats = got, .max_stats = 2 };
	xs_replay_report rep;
	assert_int_equal(xs_replay_ex(rec_path, &o, &rep), XS_OK);
	assert_int_equal(rep.dispatches, 1);
	assert_true(rep.identical);
	same_figures(&got[0], &live);
}

static void an_override_measures_what_a_live_run_with_that_setting_does(void **state)
{
	(void)state;
	xs_dispatch_stats small, rec, got;
	live_run(8, NULL, &small);
	live_run(0, rec_path, &rec);
	assert_true(rec.scratch_waves > 8 && small.scratch_waves == 8);
	const char *ov[] = { "COMPUTE_TMPRING_SIZE.WAVES=8" };
	xs_replay_options o = { .overrides = ov, .num_overrides = 1, .stats = &got, .max_stats = 1 };
	xs_replay_report rep;
	assert_int_equal(xs_replay_ex(rec_path, &o, &rep), XS_OK);
	assert_false(rep.identical); /* 8 slots: another run than the recorded one */
	same_figures(&got, &small);
	assert_true(got.cycles > rec.cycles);
	/* stats may be NULL: only the report */
	o.stats = NULL;
	o.max_stats = 0;
	assert_int_equal(xs_replay_ex(rec_path, &o, &rep), XS_OK);
	assert_int_equal(rep.cycles, small.cycles);
}

static void replay_ex_rejects(void **state)
{
	(void)state;
	xs_dispatch_stats st;
	live_run(0, rec_path, &st);
	xs_replay_report rep;
	xs_replay_options none = { 0 };
	assert_int_equal(xs_replay_ex(NULL, &none, &rep), XS_E_INVALID_ARG);
	assert_int_equal(xs_replay_ex(rec_path, NULL, &rep), XS_E_INVALID_ARG);
	assert_int_equal(xs_replay_ex(rec_path, &none, NULL), XS_E_INVALID_ARG);
	assert_int_equal(xs_replay_ex("/nonexistent/x.rec", &none, &rep), XS_E_IO);

	xs_replay_options o = { .num_overrides = 1 }; /* a count with no list */
	assert_int_equal(xs_replay_ex(rec_path, &o, &rep), XS_E_INVALID_ARG);
	o = (xs_replay_options){ .max_stats = 1 }; /* room promised, none given */
	assert_int_equal(xs_replay_ex(rec_path, &o, &rep), XS_E_INVALID_ARG);
	const char *many[XS_REPLAY_MAX_OVERRIDES + 1];
	for (int i = 0; i <= XS_REPLAY_MAX_OVERRIDES; i++)
		many[i] = "COMPUTE_TMPRING_SIZE.WAVES=8";
	o = (xs_replay_options){ .overrides = many, .num_overrides = XS_REPLAY_MAX_OVERRIDES + 1 };
	assert_int_equal(xs_replay_ex(rec_path, &o, &rep), XS_E_INVALID_ARG);

	const char *bad_field[] = { "COMPUTE_TMPRING_SIZE.WAVS=8" };
	o = (xs_replay_options){ .overrides = bad_field, .num_overrides = 1 };
	assert_int_equal(xs_replay_ex(rec_path, &o, &rep), XS_E_INVALID_ARG);
	assert_non_null(strstr(xs_last_error(NULL), "no field WAVS"));
	const char *wide[] = { "COMPUTE_TMPRING_SIZE.WAVES=4096" };
	o.overrides = wide;
	assert_int_equal(xs_replay_ex(rec_path, &o, &rep), XS_E_INVALID_ARG);
	const char *null_one[] = { NULL };
	o.overrides = null_one;
	assert_int_equal(xs_replay_ex(rec_path, &o, &rep), XS_E_INVALID_ARG);
	/* a register the recording never sets: nothing would change */
	const char *never[] = { "SPI_SHADER_PGM_RSRC3_PS.CU_EN=3" };
	o.overrides = never;
	assert_int_equal(xs_replay_ex(rec_path, &o, &rep), XS_E_INVALID_ARG);
	assert_non_null(strstr(xs_last_error(NULL), "never sets"));
	/* a setting that breaks a rule at the dispatch: the batch's status and message */
	const char *limit[] = { "COMPUTE_RESOURCE_LIMITS.WAVES_PER_SH=2" };
	o.overrides = limit;
	xs_dispatch_stats got;
	o.stats = &got;
	o.max_stats = 1;
	assert_int_not_equal(xs_replay_ex(rec_path, &o, &rep), XS_OK);
	assert_non_null(strstr(xs_last_error(NULL), "WAVES_PER_SH = 2"));
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s private_spill.hsaco\n", argv[0]);
		return 2;
	}
	spill_path = argv[1];
	snprintf(rec_path, sizeof(rec_path), "/tmp/xs12_replay_ex_%d.xsrec", (int)getpid());
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(replay_without_overrides_measures_the_recorded_run),
		cmocka_unit_test(an_override_measures_what_a_live_run_with_that_setting_does),
		cmocka_unit_test(replay_ex_rejects),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(rec_path);
	return rc;
}
