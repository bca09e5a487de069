/* The public API: argument rules, device-removed reports, and that the host
 * always returns. Kernels come from argv (built by kernels/meson.build). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "xs12/xs12.h"

static const char *vadd_path, *faults_path, *spill_path;

typedef struct fixture {
	xs_device *dev;
	xs_module *mod;
} fixture;

static int setup_vadd(void **state)
{
	static fixture f;
	xs_device_desc d = { .machine = XS_MACHINE_SERIES_X, .watchdog_wave_insts = 100000 };
	if (xs_device_create(&d, &f.dev) || xs_module_load_file(f.dev, vadd_path, &f.mod))
		return -1;
	*state = &f;
	return 0;
}

static int setup_faults(void **state)
{
	static fixture f;
	xs_device_desc d = { .machine = XS_MACHINE_SERIES_S, .watchdog_wave_insts = 100000 };
	if (xs_device_create(&d, &f.dev) || xs_module_load_file(f.dev, faults_path, &f.mod))
		return -1;
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	xs_module_destroy(f->mod);
	xs_device_destroy(f->dev);
	return 0;
}

/* A device of dd with the code object at path loaded; its kernel name. */
static const xs_kernel_info *open_kernel(const xs_device_desc *dd, const char *path, const char *name, xs_device **dev,
					 xs_module **mod)
{
	assert_int_equal(xs_device_create(dd, dev), XS_OK);
	assert_int_equal(xs_module_load_file(*dev, path, mod), XS_OK);
	const xs_kernel_info *k = xs_module_find_kernel(*mod, name);
	assert_non_null(k);
	return k;
}

static xs_dispatch_desc vadd_desc(fixture *f, uint8_t *kargs)
{
	const xs_kernel_info *k = xs_module_find_kernel(f->mod, "vadd");
	return (xs_dispatch_desc){ .kernel = k, .module = f->mod, .groups = { 1, 1, 1 }, .block = { 64, 1, 1 },
				   .kernargs = kargs, .kernargs_size = 28 };
}

static void dispatch_argument_rules(void **state)
{
	fixture *f = *state;
	uint8_t kargs[64] = { 0 };
	xs_dispatch_desc d = vadd_desc(f, kargs);
	assert_non_null(d.kernel);

	d.groups[1] = 0;
	assert_int_equal(xs_dispatch(f->dev, &d, NULL), XS_E_INVALID_ARG);
	assert_non_null(strstr(xs_last_error(f->dev), "0 groups in Y"));

	d = vadd_desc(f, kargs);
	d.block[0] = 512; /* vadd's .max_flat_workgroup_size is 256 */
	assert_int_equal(xs_dispatch(f->dev, &d, NULL), XS_E_INVALID_ARG);
	assert_non_null(strstr(xs_last_error(f->dev), ".max_flat_workgroup_size 256"));

	d = vadd_desc(f, kargs);
	d.dynamic_lds = 65 * 1024;
	assert_int_equal(xs_dispatch(f->dev, &d, NULL), XS_E_INVALID_ARG);
	assert_non_null(strstr(xs_last_error(f->dev), "S3.3"));

	d = vadd_desc(f, kargs);
	d.kernargs_size = 4096;
	assert_int_equal(xs_dispatch(f->dev, &d, NULL), XS_E_INVALID_ARG);
	assert_non_null(strstr(xs_last_error(f->dev), "kernarg segment"));

	d = vadd_desc(f, kargs);
	d.module = NULL;
	assert_int_equal(xs_dispatch(f->dev, &d, NULL), XS_E_INVALID_ARG);
}

static void device_rules(void **state)
{
	(void)state;
	xs_device *dev = NULL;
	xs_device_desc d = { .machine = XS_MACHINE_SERIES_X, .scratch_waves = 52 * 32 + 1 };
	assert_int_equal(xs_device_create(&d, &dev), XS_E_INVALID_ARG);
	assert_null(dev);
	assert_non_null(strstr(xs_last_error(NULL), "S1.13"));
	d.scratch_waves = 52 * 32;
	assert_int_equal(xs_device_create(&d, &dev), XS_OK);
	xs_device_destroy(dev);
	d.machine = (xs_machine)7;
	assert_int_equal(xs_device_create(&d, &dev), XS_E_INVALID_ARG);
}

static void vm_fault_removes_device(void **state)
{
	fixture *f = *state;
	const xs_kernel_info *k = xs_module_find_kernel(f->mod, "store_to");
	assert_non_null(k);
	uint64_t bad = 0x7654320000ull; /* no allocation there */
	uint8_t kargs[256] = { 0 };
	memcpy(kargs + k->args[0].offset, &bad, 8);
	xs_dispatch_desc d = { .kernel = k, .module = f->mod, .groups = { 2, 1, 1 }, .block = { 64, 1, 1 },
			       .kernargs = kargs, .kernargs_size = 8 };
	xs_dispatch_stats st;
	assert_int_equal(xs_dispatch(f->dev, &d, &st), XS_E_DEVICE_REMOVED);
	const char *m = xs_last_error(f->dev);
	assert_non_null(strstr(m, "VM fault at address 0x76543200"));
	assert_non_null(strstr(m, "PC 0x"));
	assert_non_null(strstr(m, "global_store_dword"));
	/* The host is fine: the same device runs a good dispatch next. */
	uint64_t good;
	assert_int_equal(xs_mem_alloc(f->dev, 128 * 4, 256, &good), XS_OK);
	memcpy(kargs + k->args[0].offset, &good, 8);
	assert_int_equal(xs_dispatch(f->dev, &d, &st), XS_OK);
	uint32_t v = 0;
	assert_int_equal(xs_mem_read(f->dev, good + 127 * 4, &v, 4), XS_OK);
	assert_int_equal(v, 42);
}

static void watchdog_stops_a_hang(void **state)
{
	fixture *f = *state;
	const xs_kernel_info *k = xs_module_find_kernel(f->mod, "spin");
	assert_non_null(k);
	uint64_t flag, out;
	assert_int_equal(xs_mem_alloc(f->dev, 4096, 256, &flag), XS_OK);
	assert_int_equal(xs_mem_alloc(f->dev, 4096, 256, &out), XS_OK);
	uint8_t kargs[256] = { 0 };
	memcpy(kargs + k->args[0].offset, &flag, 8);
	memcpy(kargs + k->args[1].offset, &out, 8);
	xs_dispatch_desc d = { .kernel = k, .module = f->mod, .groups = { 4, 1, 1 }, .block = { 32, 1, 1 },
			       .kernargs = kargs, .kernargs_size = 16 };
	xs_dispatch_stats st;
	assert_int_equal(xs_dispatch(f->dev, &d, &st), XS_E_DEVICE_REMOVED);
	assert_non_null(strstr(xs_last_error(f->dev), "watchdog"));
	/* With the flag set the same kernel ends. */
	uint32_t one = 1;
	assert_int_equal(xs_mem_write(f->dev, flag, &one, 4), XS_OK);
	assert_int_equal(xs_dispatch(f->dev, &d, &st), XS_OK);
}

/* The fault report's PC and instruction count, which timing mode (whose
 * interpreter runs waves ahead of the model) must give as functional mode
 * does for a single wave. */
static void report_of(bool functional, const char *kernel, uint64_t watchdog, char *pc, char *after)
{
	xs_device_desc dd = { .machine = XS_MACHINE_SERIES_S, .watchdog_wave_insts = watchdog,
			      .functional = functional, .threads = 1 };
	xs_device *dev;
	xs_module *mod;
	const xs_kernel_info *k = open_kernel(&dd, faults_path, kernel, &dev, &mod);
	uint64_t flag;
	assert_int_equal(xs_mem_alloc(dev, 4096, 256, &flag), XS_OK);
	uint64_t bad = 0x7654320000ull, a0 = strcmp(kernel, "spin") ? bad : flag;
	uint8_t kargs[256] = { 0 };
	memcpy(kargs + k->args[0].offset, &a0, 8);
	if (k->num_args > 1)
		memcpy(kargs + k->args[1].offset, &flag, 8);
	xs_dispatch_desc d = { .kernel = k, .module = mod, .groups = { 1, 1, 1 }, .block = { 32, 1, 1 },
			       .kernargs = kargs, .kernargs_size = k->num_args * 8 };
	xs_dispatch_stats st;
	assert_int_equal(xs_dispatch(dev, &d, &st), XS_E_DEVICE_REMOVED);
	const char *m = xs_last_error(dev), *p = strstr(m, "PC 0x"), *n = strstr(m, "after ");
	assert_non_null(p);
	assert_non_null(n);
	snprintf(pc, 32, "%.*s", 3 + (int)strcspn(p + 3, " ,"), p); /* "PC 0x..." */
	snprintf(after, 48, "%.*s", (int)strcspn(n, ","), n);
	xs_module_destroy(mod);
	xs_device_destroy(dev);
}

static void timing_reports_faults_like_functional(void **state)
{
	(void)state;
	static const struct { const char *kernel; uint64_t watchdog; } cases[] = {
		{ "store_to", 0 }, { "spin", 1000 }, { "spin", 1001 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char pc_f[32], pc_t[32], n_f[48], n_t[48];
		report_of(true, cases[i].kernel, cases[i].watchdog, pc_f, n_f);
		report_of(false, cases[i].kernel, cases[i].watchdog, pc_t, n_t);
		assert_string_equal(pc_t, pc_f);
		assert_string_equal(n_t, n_f);
		if (cases[i].watchdog) {
			char want[48];
			snprintf(want, sizeof(want), "after %llu instructions", (unsigned long long)cases[i].watchdog);
			assert_string_equal(n_t, want);
		}
	}
}

/* A removal with the GPU full of waves, then a dispatch as large on the same
 * device: the removed waves must give back their slots, VGPRs, groups and
 * pipes (they once stayed resident: the next dispatch found no room in
 * timing mode and ran stale waves in functional mode). */
static void removal_frees_the_gpu(void **state)
{
	(void)state;
	static const struct { bool functional; uint32_t threads, timing_threads; } modes[] = {
		{ false, 1, 1 }, { false, 1, 2 }, { true, 1, 1 }, { true, 2, 1 }
	};
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		xs_device_desc dd = { .machine = XS_MACHINE_SERIES_S, .functional = modes[i].functional,
				      .threads = modes[i].threads, .timing_threads = modes[i].timing_threads };
		xs_device *dev;
		xs_module *mod;
		const xs_kernel_info *k = open_kernel(&dd, faults_path, "store_to", &dev, &mod);
		const uint32_t groups = 1024, block = 256;
		uint64_t bad = 0x7654320000ull, good;
		assert_int_equal(xs_mem_alloc(dev, groups * block * 4, 256, &good), XS_OK);
		uint8_t kargs[256] = { 0 };
		memcpy(kargs + k->args[0].offset, &bad, 8);
		xs_dispatch_desc d = { .kernel = k, .module = mod, .groups = { groups, 1, 1 }, .block = { block, 1, 1 },
				       .kernargs = kargs, .kernargs_size = 8 };
		xs_dispatch_stats st;
		assert_int_equal(xs_dispatch(dev, &d, &st), XS_E_DEVICE_REMOVED);
		memcpy(kargs + k->args[0].offset, &good, 8);
		assert_int_equal(xs_dispatch(dev, &d, &st), XS_OK);
		assert_int_equal(st.waves_launched, groups * block / 32);
		uint32_t v = 0;
		assert_int_equal(xs_mem_read(dev, good + (groups * block - 1) * 4, &v, 4), XS_OK);
		assert_int_equal(v, 42);
		xs_module_destroy(mod);
		xs_device_destroy(dev);
	}
}

/* One dispatch of private_spill (scratch gathers: several run-aheads a
 * wave) in timing mode on one host thread and on two (the run-ahead on the
 * second, src/gpu/xs_gpu_rap.c): its waves share no data, so the cycles,
 * statistics, counters and bytes must be one thread's; two dispatches a
 * device, the second on warm buffers. (In the ThreadSanitizer build too.) */
static void spill_timing(uint32_t timing_threads, xs_dispatch_stats st[2], uint32_t *out, uint32_t n)
{
	xs_device_desc dd = { .machine = XS_MACHINE_SERIES_X, .timing_threads = timing_threads };
	xs_device *dev;
	xs_module *mod;
	const xs_kernel_info *k = open_kernel(&dd, spill_path, "private_spill", &dev, &mod);
	uint64_t in, o;
	assert_int_equal(xs_mem_alloc(dev, n * 4, 256, &in), XS_OK);
	assert_int_equal(xs_mem_alloc(dev, n * 4, 256, &o), XS_OK);
	for (uint32_t i = 0; i < n; i++)
		out[i] = i * 2654435761u;
	assert_int_equal(xs_mem_write(dev, in, out, n * 4), XS_OK);
	uint8_t kargs[256] = { 0 };
	memcpy(kargs + k->args[0].offset, &in, 8);
	memcpy(kargs + k->args[1].offset, &o, 8);
	memcpy(kargs + k->args[2].offset, &n, 4);
	xs_dispatch_desc d = { .kernel = k, .module = mod, .groups = { n / 256, 1, 1 }, .block = { 256, 1, 1 },
			       .kernargs = kargs, .kernargs_size = k->kernarg_size };
	for (int r = 0; r < 2; r++)
		assert_int_equal(xs_dispatch(dev, &d, &st[r]), XS_OK);
	assert_int_equal(xs_mem_read(dev, o, out, n * 4), XS_OK);
	xs_module_destroy(mod);
	xs_device_destroy(dev);
}

static void timing_threads_same_results(void **state)
{
	(void)state;
	enum { N = 64 * 256 };
	static uint32_t one[N], two[N];
	xs_dispatch_stats a[2], b[2];
	spill_timing(1, a, one, N);
	spill_timing(2, b, two, N);
	assert_memory_equal(one, two, sizeof(one));
	for (int r = 0; r < 2; r++) {
		a[r].host_seconds = b[r].host_seconds = 0;
		assert_true(a[r].cycles > 0 && a[r].counters.scratch_read_bytes > 0);
		assert_int_equal(a[r].cycles, b[r].cycles);
		assert_memory_equal(&a[r], &b[r], sizeof(a[r]));
	}
}

/* The machine figures agree with what a device of that machine does: its
 * default ring is what a dispatch with scratch gets, and one slot more than
 * the maximum is refused. */
static void machine_describe_matches_devices(void **state)
{
	(void)state;
	xs_machine_info mi;
	assert_int_equal(xs_machine_describe((xs_machine)9, &mi), XS_E_INVALID_ARG);
	for (int m = XS_MACHINE_SERIES_X; m <= XS_MACHINE_SERIES_S; m++) {
		assert_int_equal(xs_machine_describe((xs_machine)m, &mi), XS_OK);
		assert_non_null(mi.name);
		xs_device *dev;
		xs_device_desc dd = { .machine = (xs_machine)m, .scratch_waves = mi.max_scratch_waves };
		assert_int_equal(xs_device_create(&dd, &dev), XS_OK);
		xs_device_destroy(dev);
		dd.scratch_waves = mi.max_scratch_waves + 1;
		assert_int_equal(xs_device_create(&dd, &dev), XS_E_INVALID_ARG);
		/* a scratch kernel on the default ring reports the default slots */
		dd.scratch_waves = 0;
		assert_int_equal(xs_device_create(&dd, &dev), XS_OK);
		xs_module *mod;
		assert_int_equal(xs_module_load_file(dev, faults_path, &mod), XS_OK);
		const xs_kernel_info *k = xs_module_find_kernel(mod, "private_walk");
		assert_non_null(k);
		{
			uint64_t out;
			assert_int_equal(xs_mem_alloc(dev, 4096, 256, &out), XS_OK);
			uint8_t kargs[256] = { 0 };
			memcpy(kargs + k->args[0].offset, &out, 8);
			xs_dispatch_desc d = { .kernel = k, .module = mod, .groups = { 1, 1, 1 }, .block = { 32, 1, 1 },
					       .kernargs = kargs, .kernargs_size = k->kernarg_size };
			xs_dispatch_stats st;
			assert_int_equal(xs_dispatch(dev, &d, &st), XS_OK);
			assert_int_equal(st.scratch_waves, mi.default_scratch_waves);
			assert_int_equal(st.num_cu, mi.num_cu);
			uint32_t v = 0;
			assert_int_equal(xs_mem_read(dev, out + 5 * 4, &v, 4), XS_OK);
			assert_int_equal(v, 5 + ((5 * 7) & 63));
		}
		xs_module_destroy(mod);
		xs_device_destroy(dev);
	}
}

/* SetShaderScratchSpaceX's rules (S1.3-S1.6) and that its memory must be GPU
 * memory: each broken rule is refused naming it, and nothing changes. */
static void scratch_space_rules(void **state)
{
	fixture *f = *state;
	uint64_t va;
	assert_int_equal(xs_mem_alloc(f->dev, 64 * 1024, 1024, &va), XS_OK);
	static const struct { uint64_t off, size; uint32_t per_wave; const char *rule; } bad[] = {
		{ 0x200, 16384, 1024, "S1.3" },       /* Destination not 1 KB aligned */
		{ 0, 1000, 1024, "S1.5" },            /* SizeBytes not 1 KB aligned */
		{ 0, 16384, 1000, "S1.6" },           /* SizePerWave not 1 KB aligned */
		{ 0, 16384, 0, "S1.6" },              /* non-null Destination, no slot size */
		{ 0, 8192, 16384, "S1.6" },           /* a slot larger than the space */
		{ 0, 128 * 1024, 1024, "S1.5" },      /* more than the allocation holds */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(xs_set_scratch_space(f->dev, 1, va + bad[i].off, bad[i].size, bad[i].per_wave),
				 XS_E_INVALID_ARG);
		assert_non_null(strstr(xs_last_error(f->dev), bad[i].rule));
	}
	/* Memory nobody allocated: refused, naming where the address lies. */
	assert_int_equal(xs_set_scratch_space(f->dev, 1, 0x7000000000ull, 16384, 1024), XS_E_INVALID_ARG);
	assert_non_null(strstr(xs_last_error(f->dev), "not inside one GPU allocation"));
	/* S1.4/S1.5: null Destination with sizes is an error; with none, the default again. */
	assert_int_equal(xs_set_scratch_space(f->dev, 1, 0, 1024, 0), XS_E_INVALID_ARG);
	assert_non_null(strstr(xs_last_error(f->dev), "S1.5"));
	assert_int_equal(xs_set_scratch_space(f->dev, 1, va, 64 * 1024, 1024), XS_OK);
	assert_int_equal(xs_set_scratch_space(f->dev, 1, 0, 0, 0), XS_OK);
	assert_int_equal(xs_mem_free(f->dev, va), XS_OK);
}

/* A VM fault names the allocation the address falls past, by the name the
 * program gave it, and a store one element past a buffer faults even
 * though it is inside the buffer's last page. */
static void fault_names_the_allocation(void **state)
{
	fixture *f = *state;
	const xs_kernel_info *k = xs_module_find_kernel(f->mod, "store_to");
	uint64_t buf;
	assert_int_equal(xs_mem_alloc(f->dev, 31 * 4, 256, &buf), XS_OK); /* 31 of the 32 lanes' words */
	assert_int_equal(xs_mem_set_name(f->dev, buf, "results"), XS_OK);
	uint8_t kargs[256] = { 0 };
	memcpy(kargs + k->args[0].offset, &buf, 8);
	xs_dispatch_desc d = { .kernel = k, .module = f->mod, .groups = { 1, 1, 1 }, .block = { 32, 1, 1 },
			       .kernargs = kargs, .kernargs_size = 8 };
	xs_dispatch_stats st;
	assert_int_equal(xs_dispatch(f->dev, &d, &st), XS_E_DEVICE_REMOVED);
	const char *m = xs_last_error(f->dev);
	assert_non_null(strstr(m, "VM fault"));
	assert_non_null(strstr(m, "the first byte past the end of 'results'"));
	uint32_t v = 1;
	assert_int_equal(xs_mem_read(f->dev, buf, &v, 4), XS_OK);
	assert_int_equal(v, 42); /* the lanes inside the buffer stored; lane 31, past it, faulted */
	assert_int_equal(xs_mem_read(f->dev, buf + 31 * 4, &v, 4), XS_E_INVALID_ARG); /* host: exact too */
	assert_int_equal(xs_mem_free(f->dev, buf), XS_OK);
}

/* Hang detection through the API: a spinning wave with a 1 ms GPU-time
 * limit is removed with a hang report; the limit off and a per-wave budget
 * instead stops it by the budget. */
static void hang_limits(void **state)
{
	(void)state;
	for (int functional = 0; functional < 2; functional++) {
		xs_device_desc dd = { .machine = XS_MACHINE_SERIES_S, .hang_gpu_us = 1000, .hang_host_ms = XS_WATCHDOG_OFF,
				      .functional = functional, .threads = 1 };
		xs_device *dev;
		xs_module *mod;
		assert_int_equal(xs_device_create(&dd, &dev), XS_OK);
		assert_int_equal(xs_module_load_file(dev, faults_path, &mod), XS_OK);
		const xs_kernel_info *k = xs_module_find_kernel(mod, "spin");
		uint64_t flag;
		assert_int_equal(xs_mem_alloc(dev, 4096, 256, &flag), XS_OK);
		uint8_t kargs[256] = { 0 };
		memcpy(kargs + k->args[0].offset, &flag, 8);
		memcpy(kargs + k->args[1].offset, &flag, 8);
		xs_dispatch_desc d = { .kernel = k, .module = mod, .groups = { 1, 1, 1 }, .block = { 32, 1, 1 },
				       .kernargs = kargs, .kernargs_size = 16 };
		xs_dispatch_stats st;
		assert_int_equal(xs_dispatch(dev, &d, &st), XS_E_DEVICE_REMOVED);
		assert_non_null(strstr(xs_last_error(dev), "hang: no thread group of dispatch"));
		assert_non_null(strstr(xs_last_error(dev), "the GPU-time limit"));
		xs_module_destroy(mod);
		xs_device_destroy(dev);
	}
}

/* The C API's occupancy with the ring, and the S1.11 helper. */
static void occupancy_with_the_ring(void **state)
{
	fixture *f = *state;
	const xs_kernel_info *k = xs_module_find_kernel(f->mod, "private_walk");
	assert_non_null(k);
	uint64_t per_wave = xs_kernel_scratch_per_wave(k);
	assert_true(per_wave >= 1024 && per_wave % 1024 == 0);
	assert_true(per_wave >= (uint64_t)k->private_segment_fixed_size * k->wavefront_size);
	xs_machine_info mi;
	assert_int_equal(xs_machine_describe(XS_MACHINE_SERIES_S, &mi), XS_OK);
	xs_occupancy o, big;
	assert_int_equal(xs_kernel_occupancy(XS_MACHINE_SERIES_S, k, NULL, &o), XS_OK);
	assert_true(o.scratch_en);
	assert_int_equal(o.scratch_slots, mi.default_scratch_waves);
	assert_int_equal(o.limiter, XS_LIMIT_SCRATCH);
	xs_occupancy_query q = { .scratch_slots = mi.max_scratch_waves };
	assert_int_equal(xs_kernel_occupancy(XS_MACHINE_SERIES_S, k, &q, &big), XS_OK);
	assert_true(big.limiter != XS_LIMIT_SCRATCH);
	assert_true(big.waves_per_simd > o.waves_per_simd);
	assert_true(o.scratch_slots_for_full > o.scratch_slots);
	/* the hint's ring is enough: */
	q.scratch_slots = o.scratch_slots_for_full;
	assert_int_equal(xs_kernel_occupancy(XS_MACHINE_SERIES_S, k, &q, &big), XS_OK);
	assert_true(big.scratch_waves_per_simd >= big.by_slots || big.limiter != XS_LIMIT_SCRATCH);
	/* a kernel without scratch: no ring limit */
	const xs_kernel_info *s = xs_module_find_kernel(f->mod, "store_to");
	assert_int_equal(xs_kernel_scratch_per_wave(s), 0);
	assert_int_equal(xs_kernel_occupancy(XS_MACHINE_SERIES_S, s, NULL, &o), XS_OK);
	assert_false(o.scratch_en);
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	vadd_path = argv[1];
	faults_path = argv[2];
	spill_path = argv[3];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(dispatch_argument_rules, setup_vadd, teardown),
		cmocka_unit_test(device_rules),
		cmocka_unit_test_setup_teardown(vm_fault_removes_device, setup_faults, teardown),
		cmocka_unit_test_setup_teardown(watchdog_stops_a_hang, setup_faults, teardown),
		cmocka_unit_test(timing_reports_faults_like_functional),
		cmocka_unit_test(removal_frees_the_gpu),
		cmocka_unit_test(timing_threads_same_results),
		cmocka_unit_test(machine_describe_matches_devices),
		cmocka_unit_test_setup_teardown(scratch_space_rules, setup_faults, teardown),
		cmocka_unit_test_setup_teardown(fault_names_the_allocation, setup_faults, teardown),
		cmocka_unit_test(hang_limits),
		cmocka_unit_test_setup_teardown(occupancy_with_the_ring, setup_faults, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
