/* A kept launch (xs_rt_record_launch_cached) writes what a new one
 * (xs_rt_record_launch) writes: the same kernarg segments, AQL packets and
 * launch info, and PM4 that leaves the same SH registers at every dispatch
 * (a kept launch sends only the registers that changed, as a driver sends
 * its dirty state: fewer dwords), launch after launch, for kernels with and
 * without hidden arguments the group counts decide (code object v4 and
 * v5), scratch on a title's ring and the driver's default, dynamic LDS,
 * and launches that change kernel, shape or ring between them (which the
 * kept launch must notice). Both runs record into the same command memory,
 * reset between them, so that they get the same addresses. */
#include "hw/xs_hw_pm4.h"
#include "pm4/xs_pm4_parse.h"
#include "runtime/xs_rt.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const char *paths[4]; /* vadd v4, vadd v5, private_spill -O0, lds_reduce */

static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	void *p = malloc((size_t)n);
	assert_non_null(p);
	assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*size = (size_t)n;
	return p;
}

static xs_rt_module *load(xs_rt_device *d, const char *path)
{
	size_t n;
	void *bytes = read_file(path, &n);
	xs_rt_module *m;
	xs_err e;
	if (xs_rt_module_load(d, bytes, n, &m, &e))
		fail_msg("%s: %s", path, e.msg);
	free(bytes);
	return m;
}

/* The host bytes of command memory at va. */
static const uint8_t *host_of(const xs_rt_cmdmem *m, uint64_t va)
{
	for (uint32_t i = 0; i < m->nchunks; i++)
		if (va >= m->chunks[i].va && va < m->chunks[i].va + m->chunks[i].size)
			return m->chunks[i].host + (va - m->chunks[i].va);
	fail_msg("0x%llx is not in the command memory", (unsigned long long)va);
	return NULL;
}

enum { NLAUNCH = 15 };

typedef struct rec {
	xs_status st[NLAUNCH];
	xs_rt_launch_info info[NLAUNCH];
	uint8_t karg[NLAUNCH][512], aql[NLAUNCH][64];
	uint32_t *pm4;
	size_t ndw;
} rec;

static void record(xs_rt_device *d, xs_rt_cmdmem *mem, const xs_rt_launch *L, bool cached, rec *r)
{
	xs_pm4_builder b;
	xs_pm4_builder_init(&b, 0);
	xs_rt_launch_tmpl *t = calloc(1, sizeof(*t));
	d->dispatch_id = 0;
	for (int i = 0; i < NLAUNCH; i++) {
		xs_err e;
		r->st[i] = cached ? xs_rt_record_launch_cached(d, t, mem, &b, &L[i], &r->info[i], &e)
				  : xs_rt_record_launch(d, mem, &b, &L[i], &r->info[i], &e);
		if (r->st[i])
			continue;
		uint32_t kb = L[i].k->info.kernarg_size;
		assert_true(kb <= sizeof(r->karg[i]));
		memcpy(r->karg[i], host_of(mem, r->info[i].karg_va), kb);
		memcpy(r->aql[i], host_of(mem, r->info[i].pkt_va), 64);
	}
	assert_false(xs_pm4_builder_failed(&b));
	r->pm4 = b.dw;
	r->ndw = b.cdw;
	free(t);
}

/* What the CP sees at each dispatch of a PM4 stream: every SH register as
 * the stream has set it so far, and the dispatch packet. */
enum { SH_FIRST = 0xB000, SH_REGS = 0x400, MAX_DISPATCH = 32 };
typedef struct cp_view {
	uint32_t n;
	uint32_t sh[MAX_DISPATCH][SH_REGS];
	uint32_t dispatch[MAX_DISPATCH][4];
} cp_view;

static void view_of(const uint32_t *dw, size_t ndw, cp_view *v)
{
	uint32_t sh[SH_REGS] = { 0 };
	xs_pm4_iter it;
	xs_pm4_packet p;
	xs_err e;
	int r;
	memset(v, 0, sizeof(*v));
	xs_pm4_iter_init(&it, dw, ndw);
	while ((r = xs_pm4_next(&it, &p, &e)) > 0) {
		if (p.type != 3)
			continue;
		if (p.opcode == PKT3_SET_SH_REG || p.opcode == PKT3_SET_SH_REG_INDEX) {
			for (uint32_t i = 0; i < p.reg_count; i++) {
				uint32_t at = (p.reg_addr - SH_FIRST) / 4 + i;
				assert_true(at < SH_REGS);
				sh[at] = p.body[1 + i];
			}
		} else if (p.opcode == PKT3_DISPATCH_DIRECT) {
			assert_true(v->n < MAX_DISPATCH);
			memcpy(v->sh[v->n], sh, sizeof(sh));
			memcpy(v->dispatch[v->n], p.body, 16);
			v->n++;
		}
	}
	assert_int_equal(r, 0);
}

static void kept_launch_writes_the_same_bytes(void **state)
{
	(void)state;
	xs_rt_config cfg = { .machine = XS_MACHINE_SERIES_X, .functional = true };
	xs_rt_device *d;
	xs_err e;
	assert_int_equal(xs_rt_device_create(&cfg, &d, &e), XS_OK);
	xs_rt_module *v4 = load(d, paths[0]), *v5 = load(d, paths[1]), *spill = load(d, paths[2]),
		     *lds = load(d, paths[3]);
	const xs_codeobj_kernel *kv4 = &v4->co->kernels[0], *kv5 = &v5->co->kernels[0], *ks = &spill->co->kernels[0];
	const xs_codeobj_kernel *kd = xs_codeobj_find(lds->co, "lds_reduce_dyn");
	assert_non_null(kd);
	uint8_t args[512];
	for (size_t i = 0; i < sizeof(args); i++)
		args[i] = (uint8_t)(i * 7 + 1);
	xs_rt_ring ring = { 0x7000000000ull, 64u << 20, 64u << 10 };
	/* vadd's four explicit arguments are 28 bytes; some launches give only those */
	xs_rt_launch L[NLAUNCH] = {
		{ .mod = v4, .k = kv4, .groups = { 16, 1, 1 }, .block = { 64, 1, 1 }, .kernargs = args, .kernargs_size = 88 },
		{ .mod = v4, .k = kv4, .groups = { 7, 3, 2 }, .block = { 64, 1, 1 }, .kernargs = args, .kernargs_size = 88 },
		{ .mod = v4, .k = kv4, .groups = { 1, 1, 1 }, .block = { 1, 1, 1 }, .kernargs = args, .kernargs_size = 28 },
		{ .mod = v4, .k = kv4, .groups = { 0, 1, 1 }, .block = { 1, 1, 1 }, .kernargs = args, .kernargs_size = 28 },
		{ .mod = v5, .k = kv5, .groups = { 65535, 2, 1 }, .block = { 256, 1, 1 }, .kernargs = args,
		  .kernargs_size = 28 },
		{ .mod = v5, .k = kv5, .groups = { 3, 1, 5 }, .block = { 256, 1, 1 }, .kernargs = args,
		  .kernargs_size = 28 },
		{ .mod = v5, .k = kv5, .groups = { 3, 1, 5 }, .block = { 256, 1, 1 }, .kernargs = args,
		  .kernargs_size = 28, .work_dim = 3 },
		{ .mod = spill, .k = ks, .groups = { 4, 1, 1 }, .block = { 256, 1, 1 }, .kernargs = args,
		  .kernargs_size = 8, .ring = ring },
		{ .mod = spill, .k = ks, .groups = { 9, 1, 1 }, .block = { 256, 1, 1 }, .kernargs = args,
		  .kernargs_size = 8, .ring = ring },
		{ .mod = spill, .k = ks, .groups = { 9, 1, 1 }, .block = { 256, 1, 1 }, .kernargs = args,
		  .kernargs_size = 8, .ring = { ring.va, ring.size / 2, ring.per_wave } },
		{ .mod = spill, .k = ks, .groups = { 2, 1, 1 }, .block = { 256, 1, 1 }, .kernargs = args,
		  .kernargs_size = 8 }, /* the driver's default ring */
		{ .mod = spill, .k = ks, .groups = { 3, 1, 1 }, .block = { 256, 1, 1 }, .kernargs = args,
		  .kernargs_size = 8 },
		{ .mod = lds, .k = kd, .groups = { 5, 1, 1 }, .block = { 128, 1, 1 }, .kernargs = args,
		  .kernargs_size = 16, .dynamic_lds = 512, .queue = 1 },
		{ .mod = lds, .k = kd, .groups = { 6, 1, 1 }, .block = { 128, 1, 1 }, .kernargs = args,
		  .kernargs_size = 16, .dynamic_lds = 1024, .queue = 1 },
		{ .mod = v4, .k = kv4, .groups = { 2, 1, 1 }, .block = { 64, 1, 1 }, .kernargs = args, .kernargs_size = 88,
		  .queue = 2 },
	};
	xs_rt_cmdmem mem;
	xs_rt_cmdmem_init(&mem, d, "test");
	rec *a = calloc(1, sizeof(*a)), *c = calloc(1, sizeof(*c));
	record(d, &mem, L, false, a);
	xs_rt_cmdmem_reset(&mem);
	record(d, &mem, L, true, c);
	for (int i = 0; i < NLAUNCH; i++) {
		assert_int_equal(a->st[i], c->st[i]);
		if (a->st[i])
			continue;
		assert_memory_equal(&a->info[i], &c->info[i], sizeof(a->info[i]));
		assert_memory_equal(a->karg[i], c->karg[i], L[i].k->info.kernarg_size);
		assert_memory_equal(a->aql[i], c->aql[i], 64);
	}
	assert_int_not_equal(a->st[3], XS_OK); /* zero groups: the rule, from both */
	/* The same registers at each dispatch, in fewer dwords: the kept
	 * launches 2, 6 and 9 set only their address SGPRs. */
	cp_view *va = malloc(sizeof(*va)), *vc = malloc(sizeof(*vc));
	view_of(a->pm4, a->ndw, va);
	view_of(c->pm4, c->ndw, vc);
	assert_int_equal(va->n, NLAUNCH - 1);
	assert_int_equal(va->n, vc->n);
	for (uint32_t i = 0; i < va->n; i++) {
		assert_memory_equal(va->dispatch[i], vc->dispatch[i], sizeof(va->dispatch[i]));
		assert_memory_equal(va->sh[i], vc->sh[i], sizeof(va->sh[i]));
	}
	assert_true(c->ndw < a->ndw);
	free(va);
	free(vc);
	free(a->pm4);
	free(c->pm4);
	free(a);
	free(c);
	xs_rt_cmdmem_free(&mem);
	xs_rt_module_free(d, v4);
	xs_rt_module_free(d, v5);
	xs_rt_module_free(d, spill);
	xs_rt_module_free(d, lds);
	xs_rt_device_destroy(d);
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: test_launch_tmpl VADD_V4 VADD_V5 PRIVATE_SPILL_O0 LDS_REDUCE\n");
		return 2;
	}
	for (int i = 0; i < 4; i++)
		paths[i] = argv[i + 1];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kept_launch_writes_the_same_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
