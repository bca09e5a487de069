/* Instruction timing and counters (xs12.h): kernels whose bottleneck is
 * known by construction show it as the top stall (LDS bus, DRAM, VALU);
 * the profile's totals agree with the dispatch statistics; counters agree
 * with the bytes a kernel moves by its source; the calls' rejections.
 * argv: vadd, vadd -g, lds_stream, fma_peak, stream_copy, private_spill. */
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

enum { K_VADD, K_VADD_G, K_LDS, K_FMA, K_STREAM, K_SPILL, K_COUNT };
static const char *paths[K_COUNT];

typedef struct run {
	xs_device *dev;
	xs_module *mod;
	xs_dispatch_stats st;
	xs_profile *prof;
	uint64_t bufs[3];
} run;

/* One dispatch of kernel `which` with `groups` groups of 256 on a fresh
 * device, profiled when asked; buffer arguments get `bytes` each. */
static void run_kernel(run *r, int which, uint32_t groups, uint64_t bytes, bool profile, bool functional)
{
	memset(r, 0, sizeof(*r));
	xs_device_desc d = { .machine = XS_MACHINE_SERIES_X, .functional = functional, .threads = 1 };
	assert_int_equal(xs_device_create(&d, &r->dev), XS_OK);
	assert_int_equal(xs_module_load_file(r->dev, paths[which], &r->mod), XS_OK);
	const xs_kernel_info *k = xs_module_kernel(r->mod, 0);
	assert_non_null(k);
	uint8_t kargs[256] = { 0 };
	uint32_t nb = 0;
	for (uint32_t i = 0; i < k->num_args; i++) {
		const xs_kernel_arg *a = &k->args[i];
		if (a->kind == XS_ARG_GLOBAL_BUFFER) {
			assert_true(nb < 3);
			assert_int_equal(xs_mem_alloc(r->dev, bytes, 256, &r->bufs[nb]), XS_OK);
			memcpy(kargs + a->offset, &r->bufs[nb], 8);
			nb++;
		} else if (a->kind == XS_ARG_BY_VALUE && a->size == 4) {
			/* vadd's n, private_spill's n: every thread; fma_peak's a, b */
			uint32_t v = which == K_FMA ? 0x3f800000u : (uint32_t)(groups * 256);
			memcpy(kargs + a->offset, &v, 4);
		}
	}
	if (profile)
		assert_int_equal(xs_device_profile(r->dev, true), XS_OK);
	assert_true(k->kernarg_size <= sizeof(kargs));
	xs_dispatch_desc desc = { .kernel = k, .module = r->mod, .groups = { groups, 1, 1 }, .block = { 256, 1, 1 },
				  .kernargs = kargs, .kernargs_size = k->kernarg_size };
	assert_int_equal(xs_dispatch(r->dev, &desc, &r->st), XS_OK);
	if (profile)
		assert_int_equal(xs_profile_take(r->dev, &r->prof), XS_OK);
}

static void run_free(run *r)
{
	xs_profile_destroy(r->prof);
	for (int i = 0; i < 3; i++)
		if (r->bufs[i])
			xs_mem_free(r->dev, r->bufs[i]);
	xs_module_destroy(r->mod);
	xs_device_destroy(r->dev);
}

/* The function that ran (the kernel), checked for consistency: issues add
 * up to the dispatch's wave instructions, no instruction stalls longer
 * than it takes, the hot list is sorted. */
static const xs_profile_function *kernel_fn(const run *r)
{
	assert_int_equal(xs_profile_function_count(r->prof), 1);
	const xs_profile_function *fn = xs_profile_function_get(r->prof, 0);
	assert_non_null(fn);
	assert_string_equal(fn->name, xs_module_kernel(r->mod, 0)->name);
	uint64_t issues = 0, cycles = 0;
	for (uint32_t i = 0; i < fn->num_insts; i++) {
		const xs_profile_inst *in = &fn->insts[i];
		uint64_t st = 0;
		for (int s = 0; s < XS_STALL_COUNT; s++)
			st += in->stall[s];
		assert_true(st <= in->cycles);
		assert_true(in->issues == 0 || in->cycles >= in->issues); /* an issue takes at least a cycle */
		if (i)
			assert_true(in->pc > fn->insts[i - 1].pc);
		assert_non_null(in->text);
		issues += in->issues;
		cycles += in->cycles;
	}
	assert_int_equal(issues, r->st.wave_instructions);
	assert_int_equal(issues, fn->wave_instructions);
	assert_int_equal(cycles, fn->cycles);
	for (uint32_t h = 1; h < fn->num_hot; h++)
		assert_true(fn->insts[fn->hot[h - 1]].cycles >= fn->insts[fn->hot[h]].cycles);
	/* wave-cycles: no more than every wave resident for the whole dispatch */
	assert_true(fn->cycles <= r->st.waves_launched * r->st.cycles);
	return fn;
}

static const xs_profile_inst *hottest(const xs_profile_function *fn)
{
	assert_true(fn->num_hot > 0);
	return &fn->insts[fn->hot[0]];
}

/* LDS-bound by construction (kernels/model/lds_stream.cl): waves wait for
 * their ds_read_b128 results, lgkmcnt, at an s_waitcnt. */
static void lds_bound_kernel_waits_on_lgkmcnt(void **state)
{
	(void)state;
	run r;
	run_kernel(&r, K_LDS, 104, 104 * 256 * 4, true, false);
	const xs_profile_function *fn = kernel_fn(&r);
	assert_int_equal(fn->top_stall, XS_STALL_LGKMCNT);
	assert_true(fn->stall[XS_STALL_LGKMCNT] > fn->cycles / 2);
	assert_non_null(strstr(hottest(fn)->text, "s_waitcnt lgkmcnt"));
	run_free(&r);
}

/* DRAM-bound (stream_copy: 16 bytes in and out per lane, 32 MB): vmcnt. */
static void memory_bound_kernel_waits_on_vmcnt(void **state)
{
	(void)state;
	run r;
	run_kernel(&r, K_STREAM, 2048, 2048 * 256 * 16, true, false);
	const xs_profile_function *fn = kernel_fn(&r);
	assert_int_equal(fn->top_stall, XS_STALL_VMCNT);
	assert_true(fn->stall[XS_STALL_VMCNT] > fn->cycles / 2);
	assert_non_null(strstr(hottest(fn)->text, "s_waitcnt vmcnt"));
	run_free(&r);
}

/* VALU-bound (fma_peak: 8 independent FMA chains, 16 waves per SIMD): the
 * waves queue for their SIMD's VALU; the hot spots are v_fma. */
static void valu_bound_kernel_waits_for_the_valu(void **state)
{
	(void)state;
	run r;
	run_kernel(&r, K_FMA, 416, 416 * 256 * 4, true, false);
	const xs_profile_function *fn = kernel_fn(&r);
	assert_int_equal(fn->top_stall, XS_STALL_PIPE_BUSY);
	assert_true(fn->stall[XS_STALL_PIPE_BUSY] > fn->cycles / 2);
	for (uint32_t h = 0; h < fn->num_hot && h < 5; h++)
		assert_non_null(strstr(fn->insts[fn->hot[h]].text, "v_fma"));
	run_free(&r);
}

/* One wave alone: its instructions' cycles add up to its life, which is
 * the dispatch less the launch (a few cycles). */
static void one_wave_cycles_add_up_to_its_life(void **state)
{
	(void)state;
	run r;
	memset(&r, 0, sizeof(r));
	xs_device_desc d = { .machine = XS_MACHINE_SERIES_X };
	assert_int_equal(xs_device_create(&d, &r.dev), XS_OK);
	assert_int_equal(xs_module_load_file(r.dev, paths[K_VADD], &r.mod), XS_OK);
	const xs_kernel_info *k = xs_module_find_kernel(r.mod, "vadd");
	uint8_t kargs[256] = { 0 }; /* the explicit arguments and the hidden ones (kernarg_size) */
	for (int i = 0; i < 3; i++) {
		assert_int_equal(xs_mem_alloc(r.dev, 128, 256, &r.bufs[i]), XS_OK);
		memcpy(kargs + 8 * i, &r.bufs[i], 8);
	}
	uint32_t n = 32;
	memcpy(kargs + 24, &n, 4);
	assert_int_equal(xs_device_profile(r.dev, true), XS_OK);
	assert_true(k->kernarg_size <= sizeof(kargs));
	xs_dispatch_desc desc = { .kernel = k, .module = r.mod, .groups = { 1, 1, 1 }, .block = { 32, 1, 1 },
				  .kernargs = kargs, .kernargs_size = k->kernarg_size };
	assert_int_equal(xs_dispatch(r.dev, &desc, &r.st), XS_OK);
	assert_int_equal(xs_profile_take(r.dev, &r.prof), XS_OK);
	const xs_profile_function *fn = kernel_fn(&r);
	assert_int_equal(r.st.waves_launched, 1);
	assert_true(fn->cycles <= r.st.cycles);
	assert_true(fn->cycles + 64 >= r.st.cycles);
	/* the vector loads' wait is the wave's largest */
	assert_int_equal(fn->top_stall, XS_STALL_VMCNT);
	/* a profile taken again holds the same; off, then on again, is empty */
	xs_profile *again;
	assert_int_equal(xs_profile_take(r.dev, &again), XS_OK);
	assert_int_equal(xs_profile_function_get(again, 0)->cycles, fn->cycles);
	xs_profile_destroy(again);
	assert_int_equal(xs_device_profile(r.dev, false), XS_OK);
	assert_int_equal(xs_device_profile(r.dev, true), XS_OK);
	assert_int_equal(xs_profile_take(r.dev, &again), XS_OK);
	assert_int_equal(xs_profile_function_count(again), 0);
	xs_profile_destroy(again);
	run_free(&r);
}

/* clang -g: instructions carry their line of vadd.cl, text included. */
static void source_lines_from_the_line_table(void **state)
{
	(void)state;
	run r;
	run_kernel(&r, K_VADD_G, 4, 4 * 256 * 4, true, false);
	const xs_profile_function *fn = kernel_fn(&r);
	bool store_line = false;
	for (uint32_t i = 0; i < fn->num_insts; i++) {
		const xs_profile_inst *in = &fn->insts[i];
		if (!in->source_file)
			continue;
		assert_true(in->source_line > 0);
		if (strstr(in->text, "global_store_dword") && strstr(in->source_file, "vadd.cl")) {
			assert_non_null(in->source_text);
			assert_non_null(strstr(in->source_text, "c[i] = a[i] + b[i]"));
			store_line = true;
		}
	}
	assert_true(store_line);
	/* without -g: none */
	run r2;
	run_kernel(&r2, K_VADD, 4, 4 * 256 * 4, true, false);
	const xs_profile_function *f2 = kernel_fn(&r2);
	for (uint32_t i = 0; i < f2->num_insts; i++)
		assert_null(f2->insts[i].source_file);
	run_free(&r2);
	run_free(&r);
}

/* vadd over 4 MB per buffer (more than the 5 MB L2 holds for both inputs):
 * every input line comes from DRAM once, every lane's 4 bytes count. */
static void counters_match_the_bytes_vadd_moves(void **state)
{
	(void)state;
	run r;
	const uint32_t groups = 4096, n = groups * 256;
	run_kernel(&r, K_VADD, groups, (uint64_t)n * 4, false, false);
	const xs_dispatch_counters *c = &r.st.counters;
	assert_true(c->valid);
	assert_int_equal(c->vmem_read_bytes, 2ull * n * 4);
	assert_int_equal(c->vmem_write_bytes, (uint64_t)n * 4);
	/* a wave32's coalesced 32 x 4 bytes are one 128-byte line: one L0 lookup each */
	assert_int_equal(c->line_bytes, 128);
	assert_int_equal(c->l0_hits + c->l0_misses, 2ull * n * 4 / c->line_bytes);
	assert_int_equal(c->dram_read_lines * c->line_bytes, 2ull * n * 4);
	assert_int_equal(c->l2_hits + c->l2_misses, c->l0_misses + (uint64_t)n * 4 / c->line_bytes);
	assert_int_equal(c->scratch_read_bytes + c->scratch_write_bytes, 0);
	assert_int_equal(c->lds_bytes, 0);
	uint64_t insts = 0, waves = 0, valu = 0, salu = 0;
	for (int i = 0; i < XS_INST_CLASS_COUNT; i++)
		insts += c->insts[i];
	for (uint32_t i = 0; i < c->num_se; i++)
		waves += c->waves_per_se[i];
	for (uint32_t i = 0; i < c->num_simd; i++) {
		valu += c->valu_busy[i];
		salu += c->salu_busy[i];
		assert_true(c->valu_busy[i] <= r.st.cycles);
	}
	/* SALU busy is the SALU instructions' cycles (one each), not the
	 * s_waitcnt and other internal ops vadd also has (rocprof's
	 * SQ_INST_CYCLES_SALU) */
	assert_true(c->insts[XS_INST_INTERNAL] > 0);
	assert_int_equal(salu, c->insts[XS_INST_SALU]);
	assert_int_equal(insts, r.st.wave_instructions);
	assert_int_equal(waves, r.st.waves_launched);
	assert_int_equal(c->insts[XS_INST_VMEM_LOAD], 2ull * r.st.waves_launched);
	assert_int_equal(c->insts[XS_INST_VMEM_STORE], r.st.waves_launched);
	assert_int_equal(valu, c->insts[XS_INST_VALU]); /* wave32: a cycle each */
	assert_true(c->dram_gbps > 0 && c->dram_gbps <= 560);
	assert_int_equal(c->num_se, 2);
	assert_int_equal(c->num_simd, 104);
	run_free(&r);
	/* functional mode: no caches or pipes; the waves per SE still count */
	run_kernel(&r, K_VADD, 64, 64 * 256 * 4, false, true);
	assert_false(r.st.counters.valid);
	assert_int_equal(r.st.counters.waves_per_se[0] + r.st.counters.waves_per_se[1], r.st.waves_launched);
	assert_int_equal(r.st.counters.l0_hits + r.st.counters.l0_misses, 0);
	run_free(&r);
}

/* private_spill's histogram lives in scratch: its private bytes count as
 * scratch, beside the global in/out bytes. */
static void counters_see_scratch(void **state)
{
	(void)state;
	run r;
	run_kernel(&r, K_SPILL, 52, 52 * 256 * 4, false, false);
	const xs_dispatch_counters *c = &r.st.counters;
	assert_true(c->scratch_read_bytes > 0 && c->scratch_write_bytes > 0);
	uint64_t lanes = 52 * 256;
	assert_int_equal(c->vmem_read_bytes - c->scratch_read_bytes, lanes * 4);   /* in[i % n] */
	assert_int_equal(c->vmem_write_bytes - c->scratch_write_bytes, lanes * 4); /* out[i] */
	run_free(&r);
}

/* lds_stream moves, per group of 256, a 16 KB tile in and 128 float4 per
 * lane out: the bytes over the LDS bus. */
static void counters_count_lds_bytes(void **state)
{
	(void)state;
	run r;
	run_kernel(&r, K_LDS, 26, 26 * 256 * 4, false, false);
	assert_int_equal(r.st.counters.lds_bytes, 26ull * (16384 + 256 * 128 * 16));
	/* float4 rows of neighbouring lanes: ds_read_b128 serves 8 lanes a
	 * phase, their 32 dwords in 32 banks (docs/hardware.md "LDS banks") */
	assert_int_equal(r.st.counters.lds_bank_conflict_cycles, 0);
	run_free(&r);
}

static void profile_rejects(void **state)
{
	(void)state;
	xs_profile *p = (xs_profile *)1;
	assert_int_equal(xs_device_profile(NULL, true), XS_E_INVALID_ARG);
	assert_int_equal(xs_profile_take(NULL, &p), XS_E_INVALID_ARG);
	assert_null(p);
	assert_int_equal(xs_profile_function_count(NULL), 0);
	assert_null(xs_profile_function_get(NULL, 0));
	xs_profile_destroy(NULL);
	assert_int_equal(xs_profile_write(NULL, "x.json"), XS_E_INVALID_ARG);
	assert_string_equal(xs_stall_name(XS_STALL_VMCNT), "vmcnt");
	assert_string_equal(xs_stall_name(XS_STALL_COUNT), "?");
	assert_string_equal(xs_inst_class_name(XS_INST_VALU_TRANS), "valu-trans");
	assert_string_equal(xs_inst_class_name(XS_INST_CLASS_COUNT), "?");

	/* functional mode has no timing to profile */
	xs_device *dev;
	xs_device_desc fd = { .functional = true };
	assert_int_equal(xs_device_create(&fd, &dev), XS_OK);
	assert_int_equal(xs_device_profile(dev, true), XS_E_UNSUPPORTED);
	assert_non_null(strstr(xs_last_error(dev), "timing model"));
	xs_device_destroy(dev);

	/* not collecting: nothing to take */
	assert_int_equal(xs_device_create(NULL, &dev), XS_OK);
	assert_int_equal(xs_profile_take(dev, &p), XS_E_INVALID_ARG);
	assert_null(p);
	assert_int_equal(xs_profile_take(dev, NULL), XS_E_INVALID_ARG);
	/* an empty profile writes; an unwritable path is XS_E_IO */
	assert_int_equal(xs_device_profile(dev, true), XS_OK);
	assert_int_equal(xs_profile_take(dev, &p), XS_OK);
	assert_int_equal(xs_profile_function_count(p), 0);
	assert_null(xs_profile_function_get(p, 0));
	assert_int_equal(xs_profile_write(p, NULL), XS_E_INVALID_ARG);
	assert_int_equal(xs_profile_write(p, "/nonexistent-dir/p.json"), XS_E_IO);
	char path[] = "/tmp/xs12-profile-XXXXXX";
	int fdn = mkstemp(path);
	assert_true(fdn >= 0);
	close(fdn);
	assert_int_equal(xs_profile_write(p, path), XS_OK);
	unlink(path);
	xs_profile_destroy(p);
	xs_device_destroy(dev);
}

int main(int argc, char **argv)
{
	if (argc != K_COUNT + 1) {
		fprintf(stderr, "usage: %s vadd vadd-g lds_stream fma_peak stream_copy private_spill\n", argv[0]);
		return 2;
	}
	for (int i = 0; i < K_COUNT; i++)
		paths[i] = argv[i + 1];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lds_bound_kernel_waits_on_lgkmcnt),
		cmocka_unit_test(memory_bound_kernel_waits_on_vmcnt),
		cmocka_unit_test(valu_bound_kernel_waits_for_the_valu),
		cmocka_unit_test(one_wave_cycles_add_up_to_its_life),
		cmocka_unit_test(source_lines_from_the_line_table),
		cmocka_unit_test(counters_match_the_bytes_vadd_moves),
		cmocka_unit_test(counters_see_scratch),
		cmocka_unit_test(counters_count_lds_bytes),
		cmocka_unit_test(profile_rejects),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
