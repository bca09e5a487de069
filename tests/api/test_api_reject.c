/*
 * Every rejection of every public call of include/xs12/xs12.h: the exact
 * status, and the message-table ID (include/xs12/xs12_messages.def) where
 * the rule has one, read with the hidden xs_api_last_message. Calls that
 * return no status (names, counts, destroy) must take NULL and out-of-range
 * arguments without crashing. The inventory is tests/api/rejections.md;
 * tests/api/check_rejections.py checks that each call and message appears in a
 * C test. argv: vadd.O2.w32, private_spill.O0.w32 code objects.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "api/xs_api_priv.h"

static const char *vadd_path, *spill_path;

typedef struct fixture {
	xs_device *dev;
	xs_module *mod, *spill;
	const xs_kernel_info *vadd, *spill_k;
	uint64_t a, b, c;
	uint8_t kargs[28];
} fixture;

static int setup(void **state)
{
	static fixture f;
	memset(&f, 0, sizeof(f));
	xs_device_desc d = { .machine = XS_MACHINE_SERIES_S, .watchdog_wave_insts = 100000 };
	if (xs_device_create(&d, &f.dev) || xs_module_load_file(f.dev, vadd_path, &f.mod) ||
	    xs_module_load_file(f.dev, spill_path, &f.spill))
		return -1;
	f.vadd = xs_module_find_kernel(f.mod, "vadd");
	f.spill_k = xs_module_kernel(f.spill, 0);
	if (!f.vadd || !f.spill_k || xs_mem_alloc(f.dev, 4096, 0, &f.a) || xs_mem_alloc(f.dev, 4096, 0, &f.b) ||
	    xs_mem_alloc(f.dev, 4096, 0, &f.c))
		return -1;
	memcpy(f.kargs, &f.a, 8);
	memcpy(f.kargs + 8, &f.b, 8);
	memcpy(f.kargs + 16, &f.c, 8);
	uint32_t n = 64;
	memcpy(f.kargs + 24, &n, 4);
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	xs_module_destroy(f->spill);
	xs_module_destroy(f->mod);
	xs_device_destroy(f->dev);
	return 0;
}

/* The call's status and the ID of the rule it broke (XS_MSG_NONE: a
 * rejection with no rule of its own, e.g. a NULL argument). */
#define REJECT(call, status, msg)                                                                          \
	do {                                                                                               \
		assert_int_equal((call), (status));                                                        \
		assert_int_equal(xs_api_last_message(), (msg));                                             \
		assert_non_null(xs_last_error(NULL));                                                       \
		assert_true(xs_last_error(NULL)[0] != 0);                                                   \
	} while (0)

static xs_dispatch_desc vadd_desc(fixture *f)
{
	return (xs_dispatch_desc){ .kernel = f->vadd, .module = f->mod, .groups = { 1, 1, 1 },
				   .block = { 64, 1, 1 }, .kernargs = f->kargs, .kernargs_size = sizeof(f->kargs) };
}

/* ---- machines, names --------------------------------------------------------- */

static void machine_describe_rejects(void **state)
{
	(void)state;
	xs_machine_info mi;
	REJECT(xs_machine_describe((xs_machine)7, &mi), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_machine_describe((xs_machine)-1, &mi), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_machine_describe(XS_MACHINE_SERIES_X, NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	assert_int_equal(xs_machine_describe(XS_MACHINE_SERIES_S, &mi), XS_OK);
}

static void names_of_out_of_range_values(void **state)
{
	(void)state;
	assert_string_equal(xs_status_name((xs_status)99), "unknown status");
	assert_string_equal(xs_status_name((xs_status)-1), "unknown status");
	assert_string_equal(xs_limiter_name((xs_limiter)99), "?");
	assert_string_equal(xs_wait_cause_name(XS_WAIT_COUNT), "?");
	assert_string_equal(xs_wait_cause_name((xs_wait_cause)-5), "?");
	/* every real value has a name of its own */
	for (int s = XS_OK; s <= XS_E_INTERRUPTED; s++)
		assert_string_not_equal(xs_status_name((xs_status)s), "unknown status");
	for (int c = 0; c < XS_WAIT_COUNT; c++)
		assert_string_not_equal(xs_wait_cause_name((xs_wait_cause)c), "?");
	for (int l = XS_LIMIT_WAVE_SLOTS; l <= XS_LIMIT_SCRATCH; l++)
		assert_string_not_equal(xs_limiter_name((xs_limiter)l), "?");
}

/* ---- device -------------------------------------------------------------------- */

static void device_create_rejects(void **state)
{
	(void)state;
	xs_device *dev = (xs_device *)(uintptr_t)1;
	xs_device_desc d = { .machine = XS_MACHINE_SERIES_S };
	REJECT(xs_device_create(&d, NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	d.machine = (xs_machine)9;
	assert_int_not_equal(xs_device_create(&d, &dev), XS_OK);
	assert_null(dev); /* *out is cleared on failure */
	/* S1.13: 32 scratch waves per CU at most (20 CUs on Series S). */
	d = (xs_device_desc){ .machine = XS_MACHINE_SERIES_S, .scratch_waves = 20 * 32 + 1 };
	dev = (xs_device *)(uintptr_t)1;
	assert_int_equal(xs_device_create(&d, &dev), XS_E_INVALID_ARG);
	assert_null(dev);
	d.scratch_waves = 20 * 32;
	assert_int_equal(xs_device_create(&d, &dev), XS_OK);
	xs_device_destroy(dev);
	/* NULL desc: the defaults */
	assert_int_equal(xs_device_create(NULL, &dev), XS_OK);
	xs_device_destroy(dev);
	/* NULL device: nothing happens */
	xs_device_destroy(NULL);
	xs_device_interrupt(NULL);
	xs_device_trace(NULL, true);
}

static void interrupt_returns_interrupted(void **state)
{
	fixture *f = *state;
	/* An interrupt asked for before a run stops it at the GPU's next check
	 * (every few thousand events): a grid of 20000 groups gets there. The
	 * next call runs normally. */
	xs_device_interrupt(f->dev);
	xs_dispatch_desc d = vadd_desc(f);
	d.groups[0] = 20000;
	REJECT(xs_dispatch(f->dev, &d, NULL), XS_E_INTERRUPTED, XS_MSG_NONE);
	assert_int_equal(xs_dispatch(f->dev, &d, NULL), XS_OK);
}

static void interrupt_ends_with_the_work(void **state)
{
	fixture *f = *state;
	/* An interrupt that finds a short run (done before the GPU's next
	 * check) ends with it: it must not stop a later, long run. */
	xs_device_interrupt(f->dev);
	xs_dispatch_desc d = vadd_desc(f);
	assert_int_equal(xs_dispatch(f->dev, &d, NULL), XS_OK);
	d.groups[0] = 20000;
	assert_int_equal(xs_dispatch(f->dev, &d, NULL), XS_OK);
}

/* ---- memory --------------------------------------------------------------------- */

static void mem_rejects(void **state)
{
	fixture *f = *state;
	uint64_t va = 0;
	uint8_t buf[16] = { 0 };
	REJECT(xs_mem_alloc(NULL, 4096, 0, &va), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_mem_alloc(f->dev, 4096, 0, NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_mem_alloc(f->dev, 0, 0, &va), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_mem_alloc(f->dev, 4096, 3 << 12, &va), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_mem_alloc(f->dev, UINT64_MAX, 0, &va), XS_E_OUT_OF_MEMORY, XS_MSG_NONE);

	REJECT(xs_mem_free(NULL, f->a), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_mem_free(f->dev, f->a + 8), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_mem_free(f->dev, 0), XS_E_INVALID_ARG, XS_MSG_NONE);
	assert_int_equal(xs_mem_alloc(f->dev, 64, 0, &va), XS_OK);
	assert_int_equal(xs_mem_free(f->dev, va), XS_OK);
	REJECT(xs_mem_free(f->dev, va), XS_E_INVALID_ARG, XS_MSG_NONE); /* twice */

	REJECT(xs_mem_set_name(NULL, f->a, "x"), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_mem_set_name(f->dev, f->a + 4, "x"), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_mem_set_name(f->dev, va, "x"), XS_E_INVALID_ARG, XS_MSG_NONE); /* freed */
	assert_int_equal(xs_mem_set_name(f->dev, f->a, NULL), XS_OK);  /* NULL clears */

	REJECT(xs_mem_write(NULL, f->a, buf, 4), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_mem_write(f->dev, f->a, NULL, 4), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_mem_write(f->dev, f->a + 4090, buf, 16), XS_E_INVALID_ARG, XS_MSG_NONE);
	assert_non_null(strstr(xs_last_error(NULL), "0x"));
	REJECT(xs_mem_write(f->dev, va, buf, 1), XS_E_INVALID_ARG, XS_MSG_NONE);
	assert_int_equal(xs_mem_write(f->dev, f->a, NULL, 0), XS_OK);

	REJECT(xs_mem_read(NULL, f->a, buf, 4), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_mem_read(f->dev, f->a, NULL, 4), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_mem_read(f->dev, 0x1000, buf, 4), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_mem_read(f->dev, UINT64_MAX - 2, buf, 4), XS_E_INVALID_ARG, XS_MSG_NONE);
	assert_int_equal(xs_mem_read(f->dev, f->a, NULL, 0), XS_OK);
}

/* ---- modules --------------------------------------------------------------------- */

static void module_rejects(void **state)
{
	fixture *f = *state;
	xs_module *m = (xs_module *)(uintptr_t)1;
	static const uint8_t junk[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	REJECT(xs_module_load(NULL, junk, sizeof(junk), &m), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_module_load(f->dev, NULL, 64, &m), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_module_load(f->dev, junk, sizeof(junk), NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	m = (xs_module *)(uintptr_t)1;
	assert_int_equal(xs_module_load(f->dev, junk, sizeof(junk), &m), XS_E_BAD_CODE_OBJECT);
	assert_null(m);
	assert_int_equal(xs_module_load(f->dev, junk, 0, &m), XS_E_BAD_CODE_OBJECT);
	/* a real code object cut short */
	size_t size = 0;
	FILE *fp = fopen(vadd_path, "rb");
	assert_non_null(fp);
	static uint8_t bytes[1 << 16];
	size = fread(bytes, 1, sizeof(bytes), fp);
	fclose(fp);
	assert_true(size > 512);
	assert_int_equal(xs_module_load(f->dev, bytes, size / 2, &m), XS_E_BAD_CODE_OBJECT);
	assert_null(m);

	REJECT(xs_module_load_file(NULL, vadd_path, &m), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_module_load_file(f->dev, NULL, &m), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_module_load_file(f->dev, vadd_path, NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	assert_int_equal(xs_module_load_file(f->dev, "/nonexistent/xs12.co", &m), XS_E_IO);
	assert_non_null(strstr(xs_last_error(NULL), "/nonexistent/xs12.co"));
	assert_int_not_equal(xs_module_load_file(f->dev, "/", &m), XS_OK);

	/* the queries take NULL and out-of-range arguments */
	xs_module_destroy(NULL);
	assert_int_equal(xs_module_kernel_count(NULL), 0);
	assert_null(xs_module_kernel(NULL, 0));
	assert_null(xs_module_kernel(f->mod, xs_module_kernel_count(f->mod)));
	assert_null(xs_module_kernel(f->mod, UINT32_MAX));
	assert_null(xs_module_find_kernel(NULL, "vadd"));
	assert_null(xs_module_find_kernel(f->mod, NULL));
	assert_null(xs_module_find_kernel(f->mod, "no_such_kernel"));
	assert_string_equal(xs_module_target(NULL), "");
	assert_non_null(strstr(xs_module_target(f->mod), "gfx1030"));
	assert_int_equal(xs_module_code_object_version(NULL), 0);
	assert_true(xs_module_code_object_version(f->mod) >= 4);
}

/* ---- occupancy -------------------------------------------------------------------- */

static void occupancy_rejects(void **state)
{
	fixture *f = *state;
	xs_occupancy o;
	REJECT(xs_kernel_occupancy((xs_machine)5, f->vadd, NULL, &o), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_kernel_occupancy(XS_MACHINE_SERIES_X, NULL, NULL, &o), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_kernel_occupancy(XS_MACHINE_SERIES_X, f->vadd, NULL, NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	xs_occupancy_query q = { .group_size = 1025 };
	REJECT(xs_kernel_occupancy(XS_MACHINE_SERIES_X, f->vadd, &q, &o), XS_E_INVALID_ARG, XS_MSG_NONE);
	assert_int_equal(xs_kernel_occupancy(XS_MACHINE_SERIES_X, f->vadd, NULL, &o), XS_OK);
	assert_int_equal(xs_kernel_scratch_per_wave(NULL), 0);
	assert_int_equal(xs_kernel_scratch_per_wave(f->vadd), 0);
	assert_true(xs_kernel_scratch_per_wave(f->spill_k) >= 1024);
}

/* ---- dispatch --------------------------------------------------------------------- */

static void dispatch_rejects(void **state)
{
	fixture *f = *state;
	xs_dispatch_desc d = vadd_desc(f), bad;
	REJECT(xs_dispatch(NULL, &d, NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_dispatch(f->dev, NULL, NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	bad = d, bad.kernel = NULL;
	REJECT(xs_dispatch(f->dev, &bad, NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	bad = d, bad.module = NULL;
	REJECT(xs_dispatch(f->dev, &bad, NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	bad = d, bad.module = f->spill; /* the kernel is not this module's */
	REJECT(xs_dispatch(f->dev, &bad, NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	xs_kernel_info copy = *f->vadd; /* nor is a copy of its info */
	bad = d, bad.kernel = &copy;
	REJECT(xs_dispatch(f->dev, &bad, NULL), XS_E_INVALID_ARG, XS_MSG_NONE);

	bad = d, bad.queue = 4;
	REJECT(xs_dispatch(f->dev, &bad, NULL), XS_E_INVALID_ARG, XS_MSG_DISPATCH_QUEUE);
	bad = d, bad.queue = UINT32_MAX;
	REJECT(xs_dispatch(f->dev, &bad, NULL), XS_E_INVALID_ARG, XS_MSG_DISPATCH_QUEUE);
	bad = d, bad.groups[1] = 0;
	REJECT(xs_dispatch(f->dev, &bad, NULL), XS_E_INVALID_ARG, XS_MSG_DISPATCH_EMPTY);
	bad = d, bad.block[2] = 0;
	REJECT(xs_dispatch(f->dev, &bad, NULL), XS_E_INVALID_ARG, XS_MSG_DISPATCH_BLOCK);
	bad = d, bad.block[0] = 65536;
	REJECT(xs_dispatch(f->dev, &bad, NULL), XS_E_INVALID_ARG, XS_MSG_DISPATCH_BLOCK);
	bad = d, bad.work_dim = 4;
	REJECT(xs_dispatch(f->dev, &bad, NULL), XS_E_INVALID_ARG, XS_MSG_DISPATCH_BLOCK);
	bad = d, bad.groups[0] = 1u << 31, bad.block[0] = 4;
	REJECT(xs_dispatch(f->dev, &bad, NULL), XS_E_INVALID_ARG, XS_MSG_DISPATCH_GRID);
	bad = d, bad.block[0] = 1024, bad.block[1] = 2;
	REJECT(xs_dispatch(f->dev, &bad, NULL), XS_E_INVALID_ARG, XS_MSG_LAUNCH_GROUP_WAVES);
	uint8_t big[4096] = { 0 };
	bad = d, bad.kernargs = big, bad.kernargs_size = sizeof(big);
	REJECT(xs_dispatch(f->dev, &bad, NULL), XS_E_INVALID_ARG, XS_MSG_DISPATCH_KERNARGS);
	bad = d, bad.cu_mask = 1ull << 40; /* Series S has 20 CUs */
	REJECT(xs_dispatch(f->dev, &bad, NULL), XS_E_INVALID_ARG, XS_MSG_DISPATCH_CU_MASK);
	bad = d, bad.launch_parameters = true, bad.block[0] = 4096;
	REJECT(xs_dispatch(f->dev, &bad, NULL), XS_E_INVALID_ARG, XS_MSG_LAUNCH_DIM_RANGE);
	bad = d, bad.dynamic_lds = 65 * 1024;
	REJECT(xs_dispatch(f->dev, &bad, NULL), XS_E_INVALID_ARG, XS_MSG_LAUNCH_LDS_OVER_MAX);

	/* batches */
	xs_dispatch_desc many[9];
	for (int i = 0; i < 9; i++)
		many[i] = d;
	REJECT(xs_dispatch_batch(NULL, many, 1, NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_dispatch_batch(f->dev, NULL, 1, NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_dispatch_batch(f->dev, many, 9, NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	many[5].queue = 7; /* one bad entry refuses the whole batch */
	REJECT(xs_dispatch_batch(f->dev, many, 8, NULL), XS_E_INVALID_ARG, XS_MSG_DISPATCH_QUEUE);
	assert_int_equal(xs_dispatch_batch(f->dev, many, 0, NULL), XS_OK);
	/* the device still works */
	xs_dispatch_stats st;
	assert_int_equal(xs_dispatch(f->dev, &d, &st), XS_OK);
	assert_int_equal(st.waves_launched, 2);
}

static void scratch_space_rejects(void **state)
{
	fixture *f = *state;
	uint64_t ring;
	assert_int_equal(xs_mem_alloc(f->dev, 1 << 20, 1024, &ring), XS_OK);
	REJECT(xs_set_scratch_space(NULL, 1, ring, 1 << 20, 1024), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_set_scratch_space(f->dev, 4, ring, 1 << 20, 1024), XS_E_INVALID_ARG, XS_MSG_DISPATCH_QUEUE);
	REJECT(xs_set_scratch_space(f->dev, 1, ring + 512, 1 << 19, 1024), XS_E_INVALID_ARG,
	       XS_MSG_SCRATCH_DEST_ALIGN);
	REJECT(xs_set_scratch_space(f->dev, 1, ring, (1 << 20) - 512, 1024), XS_E_INVALID_ARG,
	       XS_MSG_SCRATCH_SIZE_ALIGN);
	REJECT(xs_set_scratch_space(f->dev, 1, 0, 1 << 20, 1024), XS_E_INVALID_ARG, XS_MSG_SCRATCH_NULL_WITH_SIZES);
	REJECT(xs_set_scratch_space(f->dev, 1, ring, 1 << 20, 1000), XS_E_INVALID_ARG, XS_MSG_SCRATCH_PER_WAVE_ALIGN);
	REJECT(xs_set_scratch_space(f->dev, 1, ring, 1 << 20, 0), XS_E_INVALID_ARG, XS_MSG_SCRATCH_PER_WAVE_RANGE);
	REJECT(xs_set_scratch_space(f->dev, 1, ring, 1 << 20, 2 << 20), XS_E_INVALID_ARG,
	       XS_MSG_SCRATCH_PER_WAVE_RANGE);
	uint64_t huge;
	assert_int_equal(xs_mem_alloc(f->dev, 16ull << 20, 1024, &huge), XS_OK);
	REJECT(xs_set_scratch_space(f->dev, 1, huge, 16ull << 20, 8192 * 1024), XS_E_INVALID_ARG,
	       XS_MSG_SCRATCH_WAVESIZE_FIELD);
	REJECT(xs_set_scratch_space(f->dev, 1, ring, 2 << 20, 1024), XS_E_INVALID_ARG, XS_MSG_SCRATCH_NOT_ALLOCATED);
	REJECT(xs_set_scratch_space(f->dev, 1, 0x40000000, 1 << 20, 1024), XS_E_INVALID_ARG,
	       XS_MSG_SCRATCH_NOT_ALLOCATED);
	/* Rings that cannot run the kernel: slots smaller than its per-wave
	 * scratch (S1.11), or fewer than one group's waves (S1.6). */
	uint64_t per_wave = xs_kernel_scratch_per_wave(f->spill_k);
	assert_true(per_wave >= 2048);
	assert_int_equal(xs_set_scratch_space(f->dev, 1, ring, 1 << 20, 1024), XS_OK);
	xs_dispatch_desc d = { .kernel = f->spill_k, .module = f->spill, .groups = { 1, 1, 1 }, .block = { 64, 1, 1 },
			       .queue = 1 };
	uint8_t kargs[256] = { 0 };
	d.kernargs = kargs;
	d.kernargs_size = f->spill_k->kernarg_size < sizeof(kargs) ? f->spill_k->kernarg_size : sizeof(kargs);
	REJECT(xs_dispatch(f->dev, &d, NULL), XS_E_INVALID_ARG, XS_MSG_SCRATCH_SLOT_TOO_SMALL);
	assert_int_equal(xs_set_scratch_space(f->dev, 1, ring, per_wave, (uint32_t)per_wave), XS_OK);
	REJECT(xs_dispatch(f->dev, &d, NULL), XS_E_INVALID_ARG, XS_MSG_SCRATCH_RING_BELOW_GROUP);
	/* back to the default (S1.4) */
	assert_int_equal(xs_set_scratch_space(f->dev, 1, 0, 0, 0), XS_OK);
	assert_int_equal(xs_mem_free(f->dev, huge), XS_OK);
	assert_int_equal(xs_mem_free(f->dev, ring), XS_OK);
}

/* Kernel descriptors the loader takes but a dispatch cannot run, made by
 * editing a loaded module's kernel (a hostile code object would carry the
 * same fields): more scratch per wave than COMPUTE_TMPRING_SIZE.WAVESIZE
 * holds (S1.11), and more user SGPRs enabled than RSRC2.USER_SGPR gives. */
static void hostile_descriptors(void **state)
{
	fixture *f = *state;
	xs_kernel_info *k = (xs_kernel_info *)(uintptr_t)f->spill_k;
	uint32_t keep = k->private_segment_fixed_size;
	k->private_segment_fixed_size = 300 * 1024; /* x 32 lanes = 9600 KiB > 8191 KiB */
	uint8_t kargs[256] = { 0 };
	xs_dispatch_desc d = { .kernel = f->spill_k, .module = f->spill, .groups = { 1, 1, 1 }, .block = { 32, 1, 1 },
			       .kernargs = kargs, .kernargs_size = f->spill_k->kernarg_size };
	REJECT(xs_dispatch(f->dev, &d, NULL), XS_E_INVALID_ARG, XS_MSG_SCRATCH_PER_WAVE_OVER_MAX);
	k->private_segment_fixed_size = keep;

	xs_kernel_info *v = (xs_kernel_info *)(uintptr_t)f->vadd;
	uint32_t rsrc2 = v->rsrc2;
	v->rsrc2 &= C_00B84C_USER_SGPR;
	xs_dispatch_desc vd = vadd_desc(f);
	REJECT(xs_dispatch(f->dev, &vd, NULL), XS_E_BAD_CODE_OBJECT, XS_MSG_DISPATCH_USER_SGPRS);
	v->rsrc2 = rsrc2;
	assert_int_equal(xs_dispatch(f->dev, &vd, NULL), XS_OK);
}

/* ---- traces, recording, replay ------------------------------------------------------ */

static void trace_and_record_reject(void **state)
{
	fixture *f = *state;
	REJECT(xs_trace_write_json(NULL, "/tmp/x.json"), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_trace_write_json(f->dev, NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_trace_write_json(f->dev, "/nonexistent/dir/t.json"), XS_E_IO, XS_MSG_NONE);
	REJECT(xs_trace_write_svg(NULL, "/tmp/x.svg"), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_trace_write_svg(f->dev, NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_trace_write_svg(f->dev, "/nonexistent/dir/t.svg"), XS_E_IO, XS_MSG_NONE);
	xs_device_trace(f->dev, true);
	xs_device_trace(f->dev, false);

	REJECT(xs_device_record(NULL, "/tmp/x.rec"), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_device_record(f->dev, "/nonexistent/dir/x.rec"), XS_E_IO, XS_MSG_NONE);
	assert_int_equal(xs_device_record(f->dev, NULL), XS_OK); /* NULL stops: nothing to stop */

	xs_replay_report rep;
	REJECT(xs_replay(NULL, &rep), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_replay("/tmp/x.rec", NULL), XS_E_INVALID_ARG, XS_MSG_NONE);
	REJECT(xs_replay("/nonexistent/x.rec", &rep), XS_E_IO, XS_MSG_NONE);
	/* a file that is not a recording */
	char path[] = "/tmp/xs12_reject_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not a recording at all", 22), 22);
	close(fd);
	assert_int_equal(xs_replay(path, &rep), XS_E_INVALID_ARG);
	unlink(path);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s vadd.co private_spill.co\n", argv[0]);
		return 2;
	}
	vadd_path = argv[1];
	spill_path = argv[2];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(machine_describe_rejects),
		cmocka_unit_test(names_of_out_of_range_values),
		cmocka_unit_test(device_create_rejects),
		cmocka_unit_test_setup_teardown(interrupt_returns_interrupted, setup, teardown),
		cmocka_unit_test_setup_teardown(interrupt_ends_with_the_work, setup, teardown),
		cmocka_unit_test_setup_teardown(mem_rejects, setup, teardown),
		cmocka_unit_test_setup_teardown(module_rejects, setup, teardown),
		cmocka_unit_test_setup_teardown(occupancy_rejects, setup, teardown),
		cmocka_unit_test_setup_teardown(dispatch_rejects, setup, teardown),
		cmocka_unit_test_setup_teardown(scratch_space_rejects, setup, teardown),
		cmocka_unit_test_setup_teardown(hostile_descriptors, setup, teardown),
		cmocka_unit_test_setup_teardown(trace_and_record_reject, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
