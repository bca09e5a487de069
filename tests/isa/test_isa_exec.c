/*
 * Interpreter tests: small assembly kernels (tests/isa/asm/NAME.s, assembled at
 * build time by llvm-mc-15 and reduced to their .text bytes) run on a wave
 * set up by hand; registers and memory are checked against the values the
 * RDNA2 ISA defines for them, written as CHECK lines beside the instructions
 * that produce them (worked out in the comments; grammar in asm_expect.h).
 * What stays in C: the inputs, the oracles (host float math, tables), and
 * what the wave's state cannot show (export sink logs, run budgets).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>

#include "isa/xs_isa.h"
#include "isa/xs_isa_disasm.h"
#include "hw/xs_hw_regs.h"
#include "asm_expect.h"

#ifndef XS_ISA_ASM_DIR
#error "XS_ISA_ASM_DIR must name the directory of the assembled test kernels"
#endif
#ifndef XS_ISA_ASM_SRC_DIR
#error "XS_ISA_ASM_SRC_DIR must name the directory of their sources (CHECK lines)"
#endif
#ifndef XS_ISA_FIXTURE_DIR
#error "XS_ISA_FIXTURE_DIR must name the directory of the checker's fixture"
#endif

typedef struct rig {
	xs_vm *vm;
	xs_isa_ctx ctx;
	xs_wave w;
	uint32_t (*v)[XS_MAX_LANES];
	uint64_t code_va;
	const char *name;         /* the program: tests/isa/asm/<name>.s */
	xs_wave_status status;    /* what the last run returned */
	uint8_t lds[4096];
} rig;

static uint64_t vm_alloc(rig *r, uint64_t size)
{
	uint64_t va = 0;
	xs_err e;
	assert_int_equal(xs_vm_alloc(r->vm, size, 4096, &va, &e), XS_OK);
	return va;
}

/* Loads tests/isa/asm/<name>.bin at a fresh allocation + offset and prepares
 * a wave: lanes, nvgpr VGPRs, EXEC all ones, v0 = lane id, MODE as clang
 * sets it for gfx1030 kernels (FloatMode 240, IEEE). */
static void rig_init(rig *r, const char *name, unsigned lanes, unsigned nvgpr, uint64_t offset)
{
	memset(r, 0, sizeof(*r));
	r->vm = xs_vm_create();
	assert_non_null(r->vm);
	r->ctx.vm = r->vm;
	r->ctx.icache = xs_icache_create();
	assert_non_null(r->ctx.icache);
	char path[512];
	snprintf(path, sizeof(path), "%s/%s.bin", XS_ISA_ASM_DIR, name);
	uint8_t *code;
	size_t size;
	xs_err e;
	assert_int_equal(xs_read_file(path, 1 << 20, &code, &size, &e), XS_OK);
	uint64_t va = vm_alloc(r, offset + size + 4096);
	assert_true(xs_vm_write(r->vm, va + offset, code, size, NULL));
	free(code);
	r->code_va = va + offset;
	r->name = name;
	r->v = calloc(nvgpr, sizeof(*r->v));
	assert_non_null(r->v);
	xs_wave *w = &r->w;
	w->v = r->v;
	w->nvgpr = nvgpr;
	w->lanes = lanes;
	w->pc = r->code_va;
	w->s[XS_SREG_EXEC_LO] = 0xffffffffu;
	w->s[XS_SREG_EXEC_HI] = lanes == 64 ? 0xffffffffu : 0;
	w->mode = 0xf0u | XS_MODE_IEEE; /* denormals kept, IEEE mode, as clang's kernels */
	w->lds = r->lds;
	w->lds_size = sizeof(r->lds);
	for (unsigned l = 0; l < lanes; l++)
		r->v[0][l] = l;
}

static void rig_fini(rig *r)
{
	xs_icache_destroy(r->ctx.icache);
	xs_vm_destroy(r->vm);
	free(r->v);
}

static xs_wave_status run(rig *r)
{
	xs_wave_status st = xs_isa_run(&r->ctx, &r->w, 100000);
	r->status = st;
	if (st == XS_WAVE_FAULT)
		print_message("fault: kind %d pc 0x%llx addr 0x%llx: %s\n", r->ctx.fault.kind,
			      (unsigned long long)r->ctx.fault.pc, (unsigned long long)r->ctx.fault.addr,
			      r->ctx.fault.what);
	return st;
}

/* The checker's messages a line at a time (print_message truncates long
 * text). */
static void print_log(const char *log)
{
	while (*log) {
		const char *nl = strchr(log, '\n');
		int n = nl ? (int)(nl - log) : (int)strlen(log);
		print_message("%.*s\n", n, log);
		log += n + (nl != NULL);
	}
}

/* Programs whose CHECK lines some test applied (test_every_program_checks
 * wants all of tests/isa/asm). */
static const char *checked[64];
static unsigned nchecked;

/* The CHECK lines of r's program (tag NULL), or its CHECK-<tag> lines,
 * against the wave's state after the last run; syms are the names the
 * lines may use beside lane and code. */
static void expect_syms(rig *r, const char *tag, const asm_sym *syms, unsigned nsyms)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s.s", XS_ISA_ASM_SRC_DIR, r->name);
	asm_state st = { .w = &r->w, .ctx = &r->ctx, .status = r->status, .code_va = r->code_va,
			 .syms = syms, .nsyms = nsyms };
	asm_result res;
	asm_expect_file(path, tag, &st, &res);
	print_log(res.log);
	assert_int_equal(res.failed, 0);
	assert_true(res.checks > 0);   /* a tag without lines is a typo */
	unsigned i = 0;
	while (i < nchecked && strcmp(checked[i], r->name) != 0)
		i++;
	if (i == nchecked && nchecked < XS_ARRAY_SIZE(checked))
		checked[nchecked++] = r->name;
}

/* EXPECT(&r, tag); EXPECT_WITH(&r, tag, { "name", value }, ...) names
 * values the CHECK lines use (addresses the test allocated). */
#define EXPECT(r, tag) expect_syms((r), (tag), NULL, 0)
#define EXPECT_WITH(r, tag, ...)                                                                   \
	do {                                                                                       \
		const asm_sym syms_[] = { __VA_ARGS__ };                                           \
		expect_syms((r), (tag), syms_, XS_ARRAY_SIZE(syms_));                              \
	} while (0)

static uint32_t rd32(rig *r, uint64_t va)
{
	uint32_t v = 0;
	assert_true(xs_vm_read(r->vm, va, &v, 4, NULL));
	return v;
}

static void test_salu(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "salu", 32, 4, 0);
	uint32_t *s = r.w.s;
	s[0] = 0xffffffffu; s[1] = 2; s[2] = 5; s[3] = 7; s[4] = 0x7fffffff;
	s[6] = 0x89abcdef; s[7] = 0x01234567; s[8] = 0xf0;
	s[XS_SREG_NULL] = 0;
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_vmask_w32(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "vmask_w32", 32, 8, 0);
	r.w.s[XS_SREG_VCC_LO] = 0x5a5a5a5a;
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_vmask_w64(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "vmask_w64", 64, 8, 0);
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

/* Swizzled scratch: V# SWIZZLE_ENABLE, STRIDE 0, NUM_RECORDS ~0,
 * INDEX_STRIDE 32 (code 2), ADD_TID_ENABLE, OOB_SELECT raw. */
static void test_mubuf_scratch(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "mubuf_scratch", 32, 16, 0);
	uint64_t base = vm_alloc(&r, 64 * 1024);
	uint32_t *s = r.w.s;
	s[0] = (uint32_t)base;
	s[1] = S_008F04_BASE_ADDRESS_HI(base >> 32) | S_008F04_SWIZZLE_ENABLE(1);
	s[2] = 0xffffffffu;
	s[3] = S_008F0C_INDEX_STRIDE(V_008F0C_INDEX_STRIDE_32) | S_008F0C_ADD_TID_ENABLE(1) |
	       S_008F0C_OOB_SELECT(V_008F0C_OOB_SELECT_RAW);
	s[4] = 0x100;
	for (unsigned l = 0; l < 32; l++) {
		r.v[1][l] = 0x1000 + l;
		r.v[2][l] = 0x2000 + l;
		r.v[3][l] = 16;
		r.v[7][l] = 0x7000 + l;
		r.v[8][l] = 0x8000 + l;
		r.v[11][l] = 0x80 + l;
	}
	run(&r);
	EXPECT_WITH(&r, NULL, { "base", base });
	rig_fini(&r);
}

/* Swizzled scratch with INDEX_STRIDE below the wave's lanes (8 for a
 * wave32, 32 for a wave64) and STRIDE 16: lanes past the first INDEX_STRIDE
 * start STRIDE bytes x INDEX_STRIDE further on, so a wave's dwords are not
 * one row, nor a gather at off << log2(INDEX_STRIDE) + 4 * lane (the row
 * and gather forms decline it). The range check raw, or off as the
 * runtime's scratch V# has it (the gather form takes only that). */
static void test_mubuf_swizzle_small(void **state)
{
	(void)state;
	for (unsigned k = 0; k < 4; k++) {
		const unsigned lanes = k & 1 ? 64 : 32, is = lanes == 64 ? 32 : 8;
		rig r;
		rig_init(&r, "mubuf_swz_small", lanes, 12, 0);
		uint64_t base = vm_alloc(&r, 64 * 1024);
		uint32_t *s = r.w.s;
		s[0] = (uint32_t)base;
		s[1] = S_008F04_BASE_ADDRESS_HI(base >> 32) | S_008F04_STRIDE(16) | S_008F04_SWIZZLE_ENABLE(1);
		s[2] = 0xffffffffu;
		s[3] = S_008F0C_INDEX_STRIDE(lanes == 64 ? V_008F0C_INDEX_STRIDE_32 : V_008F0C_INDEX_STRIDE_8) |
		       S_008F0C_ADD_TID_ENABLE(1) |
		       S_008F0C_OOB_SELECT(k < 2 ? V_008F0C_OOB_SELECT_RAW : V_008F0C_OOB_SELECT_DISABLED);
		s[4] = 0x100;
		for (unsigned l = 0; l < lanes; l++) {
			r.v[1][l] = 0x1000 + l;
			r.v[2][l] = 0x2000 + l;
			r.v[3][l] = 16;
		}
		run(&r);
		EXPECT_WITH(&r, NULL, { "base", base }, { "is", is });
		rig_fini(&r);
	}
}

static void test_mubuf_oob(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "mubuf_oob", 32, 8, 0);
	uint64_t buf = vm_alloc(&r, 4096);
	for (uint32_t i = 0; i < 64; i++)
		assert_true(xs_vm_write(r.vm, buf + 4 * i, &(uint32_t){ 0xa000 + i }, 4, NULL));
	uint32_t *s = r.w.s;
	/* raw: NUM_RECORDS = 16 bytes */
	s[0] = (uint32_t)buf; s[1] = S_008F04_BASE_ADDRESS_HI(buf >> 32); s[2] = 16;
	s[3] = S_008F0C_OOB_SELECT(V_008F0C_OOB_SELECT_RAW);
	/* structured: STRIDE 8, NUM_RECORDS = 3 */
	s[4] = (uint32_t)buf; s[5] = S_008F04_BASE_ADDRESS_HI(buf >> 32) | S_008F04_STRIDE(8); s[6] = 3;
	s[7] = S_008F0C_OOB_SELECT(V_008F0C_OOB_SELECT_STRUCTURED);
	for (unsigned l = 0; l < 32; l++) {
		r.v[0][l] = l * 4;
		r.v[2][l] = 0xbeef0000 + l;
		r.v[6][l] = l;          /* index */
		r.v[7][l] = 0;          /* offset for the idxen+offen load */
	}
	run(&r);
	EXPECT_WITH(&r, NULL, { "buf", buf });
	rig_fini(&r);
}

static void test_lds(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "lds", 32, 16, 0);
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_lds_m0(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "lds_m0", 32, 16, 0);
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_movrel(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "movrel", 32, 16, 0);
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_clock(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "clock", 32, 4, 0);
	r.w.insts = 1000; /* as after earlier quanta of the wave */
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_loop(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "loop", 32, 1, 0);
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_call(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "call", 32, 1, 0);
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_unimplemented(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "unimpl", 32, 8, 0);
	run(&r);
	EXPECT(&r, NULL);
	assert_int_equal(r.w.status, XS_WAVE_FAULT);
	/* a faulted wave stays faulted */
	assert_int_equal(xs_isa_run(&r.ctx, &r.w, 10), XS_WAVE_FAULT);
	rig_fini(&r);
}

static void test_vm_fault(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "vmfault", 32, 4, 0);
	uint64_t buf = vm_alloc(&r, 4096);
	/* lanes 0..3 read a mapped page, lane 4 and up an unmapped address */
	for (unsigned l = 0; l < 32; l++) {
		uint64_t a = l < 4 ? buf + 4 * l : 0x7f0000000000ull + 0x100 * l;
		r.v[0][l] = (uint32_t)a;
		r.v[1][l] = (uint32_t)(a >> 32);
	}
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_global_far(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "global_far", 32, 4, 0);
	uint64_t buf = vm_alloc(&r, 4096), far = buf + (1ull << 44);
	for (unsigned l = 0; l < 32; l++) {
		uint64_t a = l == 0 ? buf : far + 4 * l;
		r.v[1][l] = (uint32_t)a;
		r.v[2][l] = (uint32_t)(a >> 32);
	}
	run(&r);
	EXPECT_WITH(&r, NULL, { "far", far + 4 });
	rig_fini(&r);
}

static void test_fetch_fault(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "loop", 32, 1, 0);
	r.w.pc = 0x7e0000000000ull;
	assert_int_equal(run(&r), XS_WAVE_FAULT);
	assert_int_equal(r.ctx.fault.kind, XS_FAULT_VM);
	assert_true(r.ctx.fault.pc == 0x7e0000000000ull);
	rig_fini(&r);
}

static void test_barrier(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "barrier", 32, 1, 0);
	run(&r);
	EXPECT(&r, "BARRIER");
	r.w.status = XS_WAVE_READY;             /* the SPI releases the group */
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_budget(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "loop", 32, 1, 0);
	assert_int_equal(xs_isa_run(&r.ctx, &r.w, 5), XS_WAVE_READY);
	assert_int_equal(r.w.insts, 5);
	run(&r);
	EXPECT(&r, NULL);   /* the same end as in one run */
	rig_fini(&r);
}

static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static void test_valu(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "valu", 32, 32, 0);
	for (unsigned l = 0; l < 32; l++) {
		r.v[1][l] = 0xaaaaaaaa;
		r.v[2][l] = 0x1234ff56;
		r.v[3][l] = 0xffffffff;
		r.v[4][l] = 0xdead;
		r.v[14][l] = f2u(1.0f);
		r.v[20][l] = 0x10000 + l;
		r.v[21][l] = 0x10001;
		r.v[22][l] = l;
		r.v[23][l] = 1;
		r.v[25][l] = 0x5555;
	}
	r.w.s[XS_SREG_VCC_LO] = 0x0000ffff;
	run(&r);
	EXPECT(&r, NULL);
	/* the f32 results against the host's IEEE arithmetic */
	for (unsigned l = 0; l < 32; l++) {
		assert_int_equal(r.v[12][l], f2u((float)l + 0.5f));
		assert_int_equal(r.v[13][l], f2u((float)l * u2f(0x3e22f983)));   /* 1/(2 pi) inline */
		assert_int_equal(r.v[14][l], f2u(fmaf((float)l, (float)l, 1.0f)));
		assert_int_equal(r.v[15][l], f2u(1.0f / (float)l));
	}
	rig_fini(&r);
}

/* The SADs as the documents define them, written out byte by byte: the
 * masked sum leaves out the bytes whose reference byte is 0 (CLRX, V_MSAD_U8);
 * the quad forms take the four byte windows of the 64-bit source starting at
 * bytes 0..3, each onto its own field of the accumulator, truncated to the
 * field or with clamp saturated (clang's AMDGPU builtin reference). */
static uint64_t ref_sad(uint32_t a, uint32_t b, bool masked)
{
	uint64_t s = 0;
	for (unsigned i = 0; i < 4; i++) {
		int x = (int)((a >> (8 * i)) & 0xff), y = (int)((b >> (8 * i)) & 0xff);
		if (!masked || y)
			s += (uint64_t)abs(x - y);
	}
	return s;
}
static uint64_t ref_field(uint64_t sum, uint64_t lim, bool clamp)
{
	return clamp ? (sum > lim ? lim : sum) : sum & lim;
}
static uint64_t ref_qsad_pk(uint64_t a, uint32_t b, uint64_t c, bool masked, bool clamp)
{
	uint64_t r = 0;
	for (unsigned i = 0; i < 4; i++)
		r |= ref_field(ref_sad((uint32_t)(a >> (8 * i)), b, masked) + ((c >> (16 * i)) & 0xffff), 0xffff,
			       clamp) << (16 * i);
	return r;
}

static void test_sad(void **state)
{
	(void)state;
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	for (unsigned round = 0; round < 64; round++) {
		rig r;
		rig_init(&r, "sad", 32, 40, 0);
		for (unsigned l = 0; l < 32; l++)
			for (unsigned v = 1; v < 24; v++) {
				rng = rng * 6364136223846793005ull + 1442695040888963407ull;
				uint32_t x = (uint32_t)(rng >> 32);
				/* zero bytes in the reference often; accumulators near
				 * their limits often (the clamp and wrap cases) */
				if (v == 2)
					x &= (uint32_t)(rng >> 3) | 0x00ff00ffu * (round & 1);
				if ((v == 3 || v >= 20 || v == 10 || v == 11) && (round & 2))
					x |= 0xfff0fff0u;
				r.v[v][l] = x;
			}
		r.w.s[0] = 0x01020304;
		r.w.s[1] = 0xfffefdfc;
		r.w.s[2] = 0x00ff0080;
		run(&r);
		EXPECT(&r, NULL);
		for (unsigned l = 0; l < 32; l++) {
			uint32_t a = r.v[1][l], b = r.v[2][l], c = r.v[3][l];
			uint64_t a64 = r.v[8][l] | (uint64_t)r.v[9][l] << 32, c64 = r.v[10][l] | (uint64_t)r.v[11][l] << 32;
			assert_int_equal(r.v[4][l], (uint32_t)(ref_sad(a, b, true) + c));
			assert_int_equal(r.v[5][l], (uint32_t)ref_field(ref_sad(a, b, true) + c, UINT32_MAX, true));
			const unsigned pk[4][3] = { { 6, 0, 0 }, { 12, 0, 1 }, { 14, 1, 0 }, { 16, 1, 1 } };
			for (unsigned k = 0; k < 4; k++) {
				uint64_t want = ref_qsad_pk(a64, b, c64, pk[k][1], pk[k][2]);
				uint64_t got = r.v[pk[k][0]][l] | (uint64_t)r.v[pk[k][0] + 1][l] << 32;
				assert_true(got == want);
			}
			for (unsigned i = 0; i < 4; i++) {
				uint64_t sum = ref_sad((uint32_t)(a64 >> (8 * i)), b, true) + r.v[20 + i][l];
				assert_int_equal(r.v[24 + i][l], (uint32_t)sum);
				assert_int_equal(r.v[28 + i][l], (uint32_t)ref_field(sum, UINT32_MAX, true));
			}
			uint64_t got = r.v[32][l] | (uint64_t)r.v[33][l] << 32;
			assert_true(got == ref_qsad_pk(0xfffefdfc01020304ull, 0x00ff0080, c64, true, false));
		}
		rig_fini(&r);
	}
}

static void test_hwreg_scratch(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "hwreg_scratch", 32, 16, 0);
	uint64_t scr = vm_alloc(&r, 64 * 1024);
	uint32_t *s = r.w.s;
	s[0] = (uint32_t)scr;
	s[1] = (uint32_t)(scr >> 32);
	s[6] = 32;
	for (unsigned l = 0; l < 32; l++) {
		r.v[1][l] = 8;
		r.v[2][l] = 1000 + l;
	}
	run(&r);
	EXPECT_WITH(&r, NULL, { "scr", scr }, { "sh_mem_bases", XS_SH_MEM_BASES },
	       { "private_base", XS_APERTURE_PRIVATE_BASE }, { "shared_base", XS_APERTURE_SHARED_BASE });
	rig_fini(&r);
}

/* xs_isa_mtrace_lanes (the timing model's lines of a wave's accesses; its
 * whole-wave form is vector code on AVX-512 hosts) against
 * xs_isa_mtrace_add lane by lane, the definition: random gathers within a
 * few lines, rows, repeats, accesses that cross a line, partial EXEC, 1 to
 * 16 bytes, 32 and 64 lanes, after lines already recorded. */
static void test_mtrace_lanes(void **state)
{
	(void)state;
	const uint64_t line = 1ull << XS_MTRACE_LINE_SHIFT;
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	for (int iter = 0; iter < 20000; iter++) {
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		const unsigned lanes = (rng & 1) ? 64 : 32;
		static const unsigned sizes[] = { 1, 2, 4, 4, 4, 8, 12, 16 };
		const unsigned bytes = sizes[(rng >> 1) % 8];
		const uint64_t base = 0x100000000ull + ((rng >> 8) & 0xfffff) * 4;
		uint64_t addr[64];
		for (unsigned l = 0; l < 64; l++) {
			rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
			switch (iter % 4) {
			case 0: addr[l] = base + (rng % 64) * 4 * 32 + 4 * l; break;   /* a scratch gather, wave32 rows */
			case 1: addr[l] = base + (uint64_t)bytes * l; break;          /* a row */
			case 2: addr[l] = base + (rng % 3) * line; break;              /* repeats */
			default: addr[l] = base + rng % (8 * line); break;             /* anything, crossing too */
			}
		}
		uint64_t exec = lanes == 64 ? ~0ull : 0xffffffffull;
		if (iter % 5 == 4)
			exec &= rng;
		uint64_t got[2 * XS_MTRACE_MAX], want[2 * XS_MTRACE_MAX];
		xs_isa_mtrace a = { .cap = 2 * XS_MTRACE_MAX, .line = got }, b = { .cap = 2 * XS_MTRACE_MAX, .line = want };
		const unsigned before = iter % 3; /* lines already there: the first lane may repeat the last */
		for (unsigned k = 0; k < before; k++) {
			xs_isa_mtrace_add(&a, addr[0] - line * k, 4);
			xs_isa_mtrace_add(&b, addr[0] - line * k, 4);
		}
		xs_isa_mtrace_lanes(&a, addr, exec, bytes);
		for (unsigned l = 0; l < lanes; l++)
			if ((exec >> l) & 1)
				xs_isa_mtrace_add(&b, addr[l], bytes);
		assert_int_equal(a.n, b.n);
		assert_false(a.overflow);
		assert_memory_equal(got, want, b.n * sizeof(want[0]));
	}
}

/* An instruction that straddles a 4 KiB page end is fetched across it. */
static void test_straddle(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "straddle", 32, 4, 4096 - 4);
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_vgpr_bound(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "vgpr_bound", 32, 4, 0);
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
	rig_init(&r, "vgpr_bound_ds", 32, 4, 0);
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
	rig_init(&r, "sgpr_edge", 32, 4, 0);
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
	rig_init(&r, "permlane_sgpr", 32, 24, 0);
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_misc(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "misc", 32, 32, 0);
	uint64_t word = vm_alloc(&r, 4096);
	assert_true(xs_vm_write(r.vm, word, &(uint32_t){ 10 }, 4, NULL));
	for (unsigned l = 0; l < 32; l++) {
		r.v[6][l] = (uint32_t)word;
		r.v[7][l] = (uint32_t)(word >> 32);
		r.v[8][l] = 1;
		r.v[10][l] = 100;
		r.v[11][l] = 42;
		r.v[3][l] = l == 0 ? 0x7fc00000u : f2u(1.0f);
		double d = (double)l, five = 5.0;
		memcpy(&r.v[14][l], &d, 4);
		memcpy(&r.v[15][l], (uint8_t *)&d + 4, 4);
		memcpy(&r.v[16][l], &five, 4);
		memcpy(&r.v[17][l], (uint8_t *)&five + 4, 4);
	}
	run(&r);
	EXPECT_WITH(&r, NULL, { "word", word });
	rig_fini(&r);
}

/* ---- edge semantics (fp specials, conversions, shifts, division, EXEC,
 * MODE, buffers, lanes, atomics): each expected value is derived in the
 * assembly file's comments from the ISA text it cites. ------------------- */

static void test_fp_special(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "fp_special", 32, 48, 0);
	r.w.mode |= XS_MODE_DX10_CLAMP;
	uint32_t *s = r.w.s;
	s[0] = 0x7f800000; s[1] = 0xff800000; s[2] = 0; s[3] = 0x7fc00000; s[4] = 0x3f800000;
	s[5] = 0x7fa00000; s[6] = 0x80000000; s[7] = 0x40000000; s[8] = 0x40400000; s[9] = 1;
	s[10] = 0x3e800000; s[11] = 0xff7fffff; s[12] = f2u(-127.5f); s[13] = f2u(-1e-30f);
	s[14] = 0x7f800001;
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_cvt(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "cvt", 32, 48, 0);
	r.w.mode |= XS_MODE_DX10_CLAMP;
	uint32_t *s = r.w.s;
	s[0] = 0x7fc00000; s[1] = 0x7f800000; s[2] = 0xff800000; s[3] = f2u(3e9f); s[4] = f2u(-2.5f);
	s[5] = f2u(-1.0f); s[6] = f2u(5e9f); s[7] = f2u(-0.5f); s[8] = f2u(2.5f); s[9] = f2u(65520.0f);
	s[10] = f2u(65519.0f); s[11] = f2u(0x1p-25f); s[12] = f2u(0x1.8p-25f); s[13] = 0x7fffffff;
	s[14] = f2u(300.0f); s[15] = f2u(2.0f);
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_shift(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "shift", 32, 32, 0);
	uint32_t *s = r.w.s;
	s[0] = 1; s[1] = 0x80000000; s[2] = 1; s[3] = 0x80000000; s[4] = 0xf0f0f0f0;
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

/* Integer ops on operands at the edges of their range (asm/intovf.s): the
 * ISA's modular results, computed without signed overflow in C (which the
 * sanitizer build reports). */
static void test_int_overflow(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "intovf", 32, 48, 0);
	uint32_t *s = r.w.s;
	s[0] = 0x80000000u; s[1] = 0xffffffffu; s[2] = 0x7fffffffu; s[3] = 0x00800000u;
	s[4] = 0x007fffffu; s[5] = 0x80008000u; s[6] = 0x80808080u; s[7] = 0x88888888u;
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

/* Hostile instruction words: what a kernel can make the decoder, the
 * interpreter and the disassembler see. Nothing is checked but that they
 * return; the sanitizer build (make test) turns any out-of-bounds access,
 * overflow or oversized shift on the way into a failure. */
static uint64_t hostile_rng = 0x9e3779b97f4a7c15ull;
static uint64_t hostile_next(void)
{
	hostile_rng ^= hostile_rng << 13;
	hostile_rng ^= hostile_rng >> 7;
	hostile_rng ^= hostile_rng << 17;
	return hostile_rng;
}

/* A register value: random, an edge of an integer or float range, or an
 * address near the mapped buffer at va (so that memory ops reach memory). */
static uint32_t hostile_value(uint64_t va)
{
	static const uint32_t edge[] = {
		0, 1, 31, 32, 33, 63, 64, 0xffffffff, 0x80000000, 0x7fffffff, 0x00800000, 0x007fffff,
		0x00ffffff, 0x8000, 0x7fff, 0xffff, 0x80, 0xff, 0x80008000, 0x80808080, 0x88888888,
		0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0x00000001, 0x4f000000, 0xcf000000,
		0x4f800000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x7ff00000, 0xfff00000, 0x41e00000, 0xc1e00000,
	};
	switch (hostile_next() % 4) {
	case 0: return (uint32_t)hostile_next();
	case 1: return edge[hostile_next() % XS_ARRAY_SIZE(edge)];
	case 2: return (uint32_t)va + (uint32_t)(hostile_next() % 0x10000);
	default: return (uint32_t)(va >> 32);
	}
}

static void test_hostile_words(void **state)
{
	(void)state;
	xs_vm *vm = xs_vm_create();
	assert_non_null(vm);
	uint64_t va = 0;
	xs_err e;
	assert_int_equal(xs_vm_alloc(vm, 1 << 20, 1 << 16, &va, &e), XS_OK);
	xs_isa_ctx ctx = { .vm = vm };
	uint32_t (*v)[XS_MAX_LANES] = calloc(XS_MAX_VGPRS, sizeof(*v));
	uint8_t *lds = calloc(1, 65536);
	assert_non_null(v);
	assert_non_null(lds);
	xs_wave w;
	memset(&w, 0, sizeof(w));
	w.v = v;
	w.nvgpr = XS_MAX_VGPRS;
	w.lanes = 32;
	w.mode = 0xf0u | XS_MODE_IEEE;
	w.s[XS_SREG_EXEC_LO] = 0xffffffffu;

	/* SDWA dst_sel 7 (reserved) writes like DWORD (6), as the source
	 * selects read: v_mov_b32_sdwa v1, v2 with dst_sel patched to 7 */
	static const uint32_t sdwa7[2] = { 0x7e0202f9, 0x00061702 };
	xs_inst in;
	assert_int_equal(xs_isa_decode(sdwa7, 2, &in), 8);
	for (unsigned l = 0; l < 32; l++)
		v[2][l] = 0x89abcdefu ^ l;
	assert_int_equal(xs_isa_step(&ctx, &w, &in), XS_WAVE_READY);
	for (unsigned l = 0; l < 32; l++)
		assert_int_equal(v[1][l], 0x89abcdefu ^ l);

	/* Random words (all but a few of the implemented ops come up) on random
	 * and edge-value registers, wave32 and wave64, default and random MODE. */
	for (unsigned it = 0; it < 300000; it++) {
		if (it % 64 == 0) {
			w.lanes = (hostile_next() & 1) ? 64 : 32;
			for (unsigned r = 0; r < XS_MAX_VGPRS; r++)
				for (unsigned l = 0; l < XS_MAX_LANES; l++)
					v[r][l] = hostile_value(va);
			for (unsigned i = 0; i < 128; i++)
				w.s[i] = hostile_value(va);
			w.lds = lds;
			w.lds_size = (uint32_t)(hostile_next() % 65537);
			w.flat_scratch = va + hostile_next() % 0x1000;
		}
		w.mode = (hostile_next() & 3) ? (0xf0u | XS_MODE_IEEE) : (uint32_t)hostile_next() & 0x3ff;
		if (hostile_next() & 1)
			w.s[XS_SREG_EXEC_LO] = w.s[XS_SREG_EXEC_HI] = 0xffffffffu;
		w.status = XS_WAVE_READY;
		w.pc = va + 0x80000;
		w.scc = hostile_next() & 1;
		uint32_t words[5];
		for (unsigned i = 0; i < 5; i++)
			words[i] = (i && (hostile_next() & 1)) ? hostile_value(va) : (uint32_t)hostile_next();
		char text[XS_DISASM_TEXT_MAX];
		xs_disasm_result dr;
		size_t cap = (hostile_next() & 7) ? sizeof(text) : hostile_next() % 16;
		xs_isa_disasm(words, 1 + hostile_next() % 5, w.pc, NULL, text, cap, &dr);
		if (!xs_isa_decode(words, 5, &in))
			continue;
		xs_wave_status st = xs_isa_step(&ctx, &w, &in);
		assert_true(st <= XS_WAVE_FAULT);
	}
	free(lds);
	free(v);
	xs_vm_destroy(vm);
}

/* Every VOPC compare (e32: v_cmp_* to VCC, v_cmpx_* to EXEC) on random
 * and edge operands, wave32 and wave64, random EXEC, against the C
 * comparison its mnemonic names: the predicate on the typed values (the
 * float n* forms true on unordered), v_cmp_class by the operand's class. */
static bool ref_float_pred(const char *pr, double a, double b)
{
	bool un = isnan(a) || isnan(b);
	static const struct { const char *n; int v; } t[] = {
		{ "f", 0 }, { "lt", 1 }, { "eq", 2 }, { "le", 3 }, { "gt", 4 }, { "lg", 5 }, { "ge", 6 }, { "o", 7 },
		{ "u", 8 }, { "nge", 9 }, { "nlg", 10 }, { "ngt", 11 }, { "nle", 12 }, { "neq", 13 }, { "nlt", 14 },
		{ "tru", 15 },
	};
	for (unsigned i = 0; i < XS_ARRAY_SIZE(t); i++)
		if (!strcmp(pr, t[i].n))
			switch (t[i].v) {
			case 0: return false;
			case 1: return a < b;
			case 2: return a == b;
			case 3: return a <= b;
			case 4: return a > b;
			case 5: return a < b || a > b;
			case 6: return a >= b;
			case 7: return !un;
			case 8: return un;
			case 9: return !(a >= b);
			case 10: return !(a < b || a > b);
			case 11: return !(a > b);
			case 12: return !(a <= b);
			case 13: return !(a == b);
			case 14: return !(a < b);
			default: return true;
			}
	fail_msg("unknown float predicate %s", pr);
	return false;
}

static bool ref_int_pred(const char *pr, bool lt, bool eq)
{
	if (!strcmp(pr, "f")) return false;
	if (!strcmp(pr, "lt")) return lt;
	if (!strcmp(pr, "eq")) return eq;
	if (!strcmp(pr, "le")) return lt || eq;
	if (!strcmp(pr, "gt")) return !lt && !eq;
	if (!strcmp(pr, "ne")) return !eq;
	if (!strcmp(pr, "ge")) return !lt;
	if (!strcmp(pr, "t")) return true;
	fail_msg("unknown integer predicate %s", pr);
	return false;
}

/* v_cmp_class's mask bit for v (0 sNaN, 1 qNaN, 2 -inf, 3 -normal,
 * 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf); v is exact in
 * a double, denormal in its own format below min_normal */
static unsigned ref_class(double v, bool quiet_bit, double min_normal)
{
	bool neg = signbit(v);
	switch (fpclassify(v)) {
	case FP_NAN: return quiet_bit ? 1 : 0;
	case FP_INFINITE: return neg ? 2 : 9;
	case FP_ZERO: return neg ? 5 : 6;
	default: return fabs(v) < min_normal ? (neg ? 4 : 7) : (neg ? 3 : 8);
	}
}

static void test_vcmp_all(void **state)
{
	(void)state;
	xs_isa_ctx ctx = { 0 };
	uint32_t (*v)[XS_MAX_LANES] = calloc(8, sizeof(*v));
	assert_non_null(v);
	xs_wave w;
	memset(&w, 0, sizeof(w));
	w.v = v;
	w.nvgpr = 8;
	w.mode = 0xf0u | XS_MODE_IEEE;
	unsigned ops = 0;
	for (unsigned hw = 0; hw < 256; hw++) {
		/* VOPC e32: src0 v1, vsrc1 v3 (the 64-bit forms read v[1:2], v[3:4]) */
		uint32_t word = 0x3eu << 25 | hw << 17 | 3u << 9 | 257u;
		xs_inst in;
		if (!xs_isa_decode(&word, 1, &in) || !(xs_op_table[in.op].flags & XS_OPF_CMP))
			continue;
		const char *name = xs_isa_op_name(in.op);
		bool cmpx = !strncmp(name, "v_cmpx_", 7);
		const char *pr = name + (cmpx ? 7 : 6), *ty = strrchr(name, '_') + 1;
		char pred[8];
		snprintf(pred, sizeof(pred), "%.*s", (int)(ty - 1 - pr), pr);
		bool f16 = !strcmp(ty, "f16"), f32 = !strcmp(ty, "f32"), f64 = !strcmp(ty, "f64");
		bool wide = ty[1] == '6' && ty[2] == '4', sgn = ty[0] == 'i', bits16 = ty[1] == '1';
		ops++;
		for (unsigned it = 0; it < 200; it++) {
			w.lanes = (it & 1) ? 64 : 32;
			for (unsigned r = 1; r < 5; r++)
				for (unsigned l = 0; l < XS_MAX_LANES; l++)
					v[r][l] = hostile_value(0);
			if (it % 4 == 2) /* equal operands in some lanes */
				for (unsigned l = 0; l < XS_MAX_LANES; l += 3) {
					v[3][l] = v[1][l];
					v[4][l] = v[2][l];
				}
			uint64_t exec = (it % 3) ? ~0ull : hostile_next();
			w.s[XS_SREG_EXEC_LO] = (uint32_t)exec;
			w.s[XS_SREG_EXEC_HI] = (uint32_t)(exec >> 32);
			w.status = XS_WAVE_READY;
			assert_int_equal(xs_isa_step(&ctx, &w, &in), XS_WAVE_READY);
			unsigned d = cmpx ? XS_SREG_EXEC_LO : XS_SREG_VCC_LO;
			uint64_t got = w.s[d] | (w.lanes == 64 ? (uint64_t)w.s[d + 1] << 32 : 0), want = 0;
			for (unsigned l = 0; l < w.lanes; l++) {
				uint32_t a32 = v[1][l], b32 = v[3][l];
				uint64_t a64 = a32 | (uint64_t)v[2][l] << 32, b64 = b32 | (uint64_t)v[4][l] << 32;
				bool r;
				if (f16 || f32 || f64) {
					double a, b, min_normal;
					bool quiet;
					if (f64) {
						memcpy(&a, &a64, 8);
						memcpy(&b, &b64, 8);
						quiet = (a64 >> 51) & 1;
						min_normal = 0x1p-1022;
					} else if (f32) {
						float fa, fb;
						memcpy(&fa, &a32, 4);
						memcpy(&fb, &b32, 4);
						a = fa, b = fb;
						quiet = (a32 >> 22) & 1;
						min_normal = 0x1p-126;
					} else {
						_Float16 ha, hb;
						uint16_t ua = (uint16_t)a32, ub = (uint16_t)b32;
						memcpy(&ha, &ua, 2);
						memcpy(&hb, &ub, 2);
						a = (double)ha, b = (double)hb;
						quiet = (ua >> 9) & 1;
						min_normal = 0x1p-14;
					}
					if (!strcmp(pred, "class"))
						r = (b32 >> ref_class(a, quiet, min_normal)) & 1;
					else
						r = ref_float_pred(pred, a, b);
				} else if (wide) {
					r = ref_int_pred(pred, sgn ? (int64_t)a64 < (int64_t)b64 : a64 < b64, a64 == b64);
				} else if (bits16) {
					uint16_t ua = (uint16_t)a32, ub = (uint16_t)b32;
					r = ref_int_pred(pred, sgn ? (int16_t)ua < (int16_t)ub : ua < ub, ua == ub);
				} else {
					r = ref_int_pred(pred, sgn ? (int32_t)a32 < (int32_t)b32 : a32 < b32, a32 == b32);
				}
				want |= (uint64_t)r << l;
			}
			want &= exec & (w.lanes == 64 ? ~0ull : 0xffffffffull);
			if (got != want)
				fail_msg("%s wave%u: 0x%016llx, expected 0x%016llx", name, w.lanes, (unsigned long long)got,
					 (unsigned long long)want);
		}
	}
	assert_true(ops >= 150); /* the e32 opcode space holds the compares (a typo would test none) */
	print_message("%u compares checked\n", ops);
	free(v);
}

static void test_intdiv_zero(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "intdiv", 32, 16, 0);
	r.w.s[0] = 0;
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_exec_zero(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "exec0", 32, 16, 0);
	uint64_t word = vm_alloc(&r, 4096);
	assert_true(xs_vm_write(r.vm, word, &(uint32_t){ 5 }, 4, NULL));
	r.w.s[12] = 0x77;
	for (unsigned l = 0; l < 32; l++) {
		r.v[1][l] = 0x11;
		r.v[2][l] = 0x22;
		r.v[5][l] = 0x55;
		r.v[8][l] = 0;                       /* v[8:9] = 0x7f0000000000: unmapped */
		r.v[9][l] = 0x7f00;
		r.v[10][l] = (uint32_t)word;
		r.v[11][l] = (uint32_t)(word >> 32);
	}
	run(&r);
	EXPECT_WITH(&r, NULL, { "word", word });
	rig_fini(&r);
}

static void test_mode(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "mode", 32, 40, 0);
	uint32_t *s = r.w.s;
	s[0] = 0x3f800000; s[1] = f2u(0x1.8p-24f); s[2] = 0xbf800000; s[3] = 0x00800000; s[4] = 1;
	s[6] = 0; s[7] = 0x3ff00000; s[8] = 0; s[9] = 0x3c300000; s[10] = 0x7fffffff;
	s[11] = f2u(65520.0f); s[12] = f2u(3.0f);
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_mode_fault(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "mode_fault", 32, 8, 0);
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_soffset_literal(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "soffset_literal", 32, 8, 0);
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_div(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "div", 32, 32, 0);
	uint32_t *s = r.w.s;
	s[0] = 0x3f800000; s[1] = 0x7f000000; s[2] = 0x00400000; s[3] = 0x71800000; s[4] = 0x3a800000;
	s[5] = 0x08800000; s[6] = 0x40000000; s[7] = 0; s[8] = 0x21800000;
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_lanes(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "lanes", 32, 32, 0);
	r.w.s[0] = 0x89abcdef; r.w.s[1] = 0x01234567; r.w.s[2] = 0;
	for (unsigned l = 0; l < 32; l++) {
		r.v[1][l] = l * 4;
		r.v[2][l] = 100 + l;
		r.v[12][l] = 0xdead;
		r.v[13][l] = 0xdead;
	}
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_pk_f16(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "pk", 32, 64, 0);
	for (unsigned l = 0; l < 32; l++) {
		r.v[1][l] = 0x40003c00;
		r.v[2][l] = 0xc2003800;
		r.v[7][l] = 0x40e1;
		r.v[8][l] = 0x3b4e;
		r.v[9][l] = 0x0721;
		r.v[11][l] = 0x401c2000;
		r.v[12][l] = 0x3f69c000;
		r.v[13][l] = 0x38e42000;
		r.v[20][l] = 0x3c007e00;
		r.v[21][l] = 0x34004200;
		r.v[15][l] = 0x12345678;
	}
	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_atomics_rtn(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "atomics", 32, 56, 0);
	uint64_t base = vm_alloc(&r, 4096);
	for (unsigned l = 0; l < 32; l++) {
		uint64_t a = base + 16 * l, q = 0xfffffffeull + l;
		uint32_t w[4] = { (uint32_t)q, (uint32_t)(q >> 32), 7, 0 };
		assert_true(xs_vm_write(r.vm, a, w, 16, NULL));
		r.v[4][l] = (uint32_t)a;
		r.v[5][l] = (uint32_t)(a >> 32);
		r.v[1][l] = l * 8;
		r.v[2][l] = 512 + l * 4;
		r.v[3][l] = 768 + l * 4;
		uint32_t lds0[2] = { 0xffffffff, l };
		memcpy(r.lds + l * 8, lds0, 8);
		memcpy(r.lds + 512 + l * 4, &(uint32_t){ 3 }, 4);
		memcpy(r.lds + 768 + l * 4, &(uint32_t){ 0 }, 4);
	}
	run(&r);
	EXPECT_WITH(&r, NULL, { "base", base });
	rig_fini(&r);
}

static void test_buffer_oob(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "bufoob", 32, 24, 0);
	uint64_t buf = vm_alloc(&r, 4096);
	for (uint32_t i = 0; i < 8; i++)
		assert_true(xs_vm_write(r.vm, buf + 4 * i, &(uint32_t){ 0xa000 + i }, 4, NULL));
	uint32_t *s = r.w.s;
	s[0] = (uint32_t)buf; s[1] = S_008F04_BASE_ADDRESS_HI(buf >> 32); s[2] = 16;
	s[3] = S_008F0C_OOB_SELECT(V_008F0C_OOB_SELECT_RAW);
	s[4] = (uint32_t)(buf + 64); s[5] = S_008F04_BASE_ADDRESS_HI((buf + 64) >> 32); s[6] = 16;
	s[7] = s[3];
	for (unsigned l = 0; l < 32; l++) {
		r.v[0][l] = l * 4;
		r.v[3][l] = 0x1000;
	}
	run(&r);
	EXPECT_WITH(&r, NULL, { "buf", buf });
	rig_fini(&r);
}

static uint64_t xorshift(uint64_t *st)
{
	*st ^= *st << 13;
	*st ^= *st >> 7;
	*st ^= *st << 17;
	return *st;
}

/* clang's division sequences against the host's IEEE division, 256 K
 * operand pairs each for f32 and f64 (a quarter with huge denominators, a
 * quarter with tiny numerators, a quarter with both extreme). */
/* Global loads and stores whose lanes are contiguous take a whole-wave
 * path; they must give the bytes and the timing model's cache lines of the
 * per-lane path, which handles the shapes the row path refuses: partial
 * EXEC, a row across a page, lanes whose 64-bit addresses differ in the
 * high dword, one lane away from its place (ROW_GAP: 1 KiB further;
 * ROW_HI1: 4 GiB further, which faults), a 32-bit offset that wraps (which
 * faults: the wrapped lanes are 4 GiB away). `shape` picks one. */
enum { ROW_FULL, ROW_EXEC, ROW_PAGE, ROW_HIGH, ROW_GAP, ROW_HI1, ROW_WRAP };

static void rows_case(unsigned lanes, int shape)
{
	rig r;
	rig_init(&r, "global_rows", lanes, 16, 0);
	uint64_t src, dst;
	xs_err e;
	if (shape == ROW_HIGH) { /* lanes on both sides of 2^33 */
		assert_int_equal(xs_vm_alloc_at(r.vm, 0x200000000ull - 4096, 1 << 16, &e), XS_OK);
		assert_int_equal(xs_vm_alloc_at(r.vm, 0x300000000ull - 4096, 1 << 16, &e), XS_OK);
		src = 0x200000000ull - 16 * 8;
		dst = 0x300000000ull - 16 * 8;
	} else {
		src = vm_alloc(&r, 1 << 16) + (shape == ROW_PAGE ? 4096 - 64 : 0);
		dst = vm_alloc(&r, 1 << 16) + (shape == ROW_PAGE ? 4096 - 48 : 0);
	}
	for (uint32_t i = 0; i < 2048; i++)
		assert_true(xs_vm_write(r.vm, src + 4 * i, &(uint32_t){ 0x1000 + i }, 4, NULL));
	/* s[0:1] = base of the 32-bit offsets: src - 16 so that offset:16 reads src */
	uint64_t sbase = src - 16, dbase = dst + 4096;
	r.w.s[0] = (uint32_t)sbase; r.w.s[1] = (uint32_t)(sbase >> 32);
	r.w.s[2] = (uint32_t)dbase; r.w.s[3] = (uint32_t)(dbase >> 32);
	for (unsigned l = 0; l < lanes; l++) {
		uint64_t a = src + 16 * l, b = dst + 16 * l;
		r.v[2][l] = (uint32_t)a; r.v[3][l] = (uint32_t)(a >> 32);
		r.v[8][l] = (uint32_t)b; r.v[9][l] = (uint32_t)(b >> 32);
		r.v[10][l] = 4 * l;
	}
	if (shape == ROW_WRAP) { /* lane offsets 0xfffffff8, 0xfffffffc, 0, 4...: sbase moves up */
		sbase = src - 16 + 8;
		r.w.s[0] = (uint32_t)(sbase - 0x100000000ull); r.w.s[1] = (uint32_t)((sbase - 0x100000000ull) >> 32);
		for (unsigned l = 0; l < lanes; l++)
			r.v[10][l] = 4 * l - 8;
	}
	if (shape == ROW_GAP)
		r.v[2][5] += 1024;
	if (shape == ROW_HI1)
		r.v[3][3] += 1;
	uint64_t exec = lanes == 64 ? ~0ull : 0xffffffffull;
	if (shape == ROW_EXEC)
		exec &= ~0x5ull;
	r.w.s[XS_SREG_EXEC_LO] = (uint32_t)exec;
	r.w.s[XS_SREG_EXEC_HI] = (uint32_t)(exec >> 32);
	uint64_t lines[XS_MTRACE_MAX];
	xs_isa_mtrace mt = { .cap = XS_MTRACE_MAX, .line = lines };
	r.ctx.mtrace = &mt;
	xs_wave_status st = xs_isa_run(&r.ctx, &r.w, 1); /* the dwordx4 load */
	/* lines: every 128-byte line of the lanes' 16-byte loads, ascending */
	uint64_t first = src >> 7, last = (src + 16 * lanes - 1) >> 7;
	if (shape == ROW_HI1) {
		assert_int_equal(st, XS_WAVE_FAULT);
		assert_true(r.ctx.fault.addr == src + 48 + 0x100000000ull);
		assert_non_null(strstr(r.ctx.fault.what, "lane 3"));
		rig_fini(&r);
		return;
	}
	assert_int_equal(st, XS_WAVE_READY);
	if (shape != ROW_EXEC && shape != ROW_GAP) {
		assert_int_equal(mt.n, last - first + 1);
		for (uint32_t i = 0; i < mt.n; i++)
			assert_true(lines[i] == first + i);
	}
	r.ctx.mtrace = NULL;
	if (shape == ROW_WRAP) {
		/* lane 2's offset wrapped to 0: it is 4 GiB below the others, not
		 * next to them, and faults there (lanes 0, 1 read fine) */
		assert_int_equal(xs_isa_run(&r.ctx, &r.w, 100), XS_WAVE_FAULT);
		assert_true(r.ctx.fault.addr == sbase - 0x100000000ull + 16);
		assert_non_null(strstr(r.ctx.fault.what, "lane 2"));
		assert_int_equal(r.v[11][1], 0x1001);
		rig_fini(&r);
		return;
	}
	run(&r);
	EXPECT(&r, NULL);
	for (unsigned l = 0; l < lanes; l++) {
		bool on = (exec >> l) & 1;
		for (unsigned k = 0; k < 4; k++) {
			uint32_t want = 0x1000 + 4 * l + k + (shape == ROW_GAP && l == 5 ? 256 : 0);
			if (on)
				assert_int_equal(r.v[4 + k][l], want);
			assert_int_equal(rd32(&r, dst + 16 * l + 4 * k), on ? want : 0);
		}
		/* dword load at s[0:1] + v10 + 16 = src + 4l, stored at s[2:3] + v10 = dst + 4096 + 4l */
		if (on) {
			assert_int_equal(r.v[11][l], 0x1000 + l);
			assert_int_equal(rd32(&r, dst + 4096 + 4 * l), 0x1000 + l);
		}
	}
	rig_fini(&r);
}

static void test_global_rows(void **state)
{
	(void)state;
	for (int shape = ROW_FULL; shape <= ROW_WRAP; shape++) {
		rows_case(32, shape);
		rows_case(64, shape);
	}
}

static void test_divseq(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "divseq_w64", 64, 24, 0);
	uint64_t st = 0x9e3779b97f4a7c15ull;
	unsigned bad32 = 0, bad64 = 0;
	for (unsigned it = 0; it < 4096; it++) {
		for (unsigned l = 0; l < 64; l++) {
			uint64_t x = xorshift(&st), y = xorshift(&st);
			uint32_t a = (uint32_t)x, b = (uint32_t)(x >> 32);
			unsigned k = (it + l) & 3;
			if (k == 1 || k == 3)
				b = (b & 0x807fffffu) | (uint32_t)(xorshift(&st) % 6 + 250) << 23;
			if (k == 2 || k == 3)
				a = (a & 0x807fffffu) | (uint32_t)(xorshift(&st) % 30) << 23;
			r.v[1][l] = a;
			r.v[2][l] = b;
			uint64_t c = y, d = xorshift(&st);
			if (k == 1 || k == 3)
				d = (d & 0x800fffffffffffffull) | (xorshift(&st) % 8 + 2040) << 52;
			if (k == 2 || k == 3)
				c = (c & 0x800fffffffffffffull) | (xorshift(&st) % 60) << 52;
			r.v[10][l] = (uint32_t)c;
			r.v[11][l] = (uint32_t)(c >> 32);
			r.v[12][l] = (uint32_t)d;
			r.v[13][l] = (uint32_t)(d >> 32);
		}
		r.w.pc = r.code_va;
		r.w.status = XS_WAVE_READY;
		run(&r);
		EXPECT(&r, NULL);
		for (unsigned l = 0; l < 64; l++) {
			float want = u2f(r.v[1][l]) / u2f(r.v[2][l]), got = u2f(r.v[3][l]);
			if (f2u(want) != f2u(got) && !(isnan(want) && isnan(got))) {
				if (bad32++ < 4)
					print_message("f32 %a / %a: %a, want %a\n", u2f(r.v[1][l]), u2f(r.v[2][l]), got, want);
			}
			double n, dd, q;
			uint64_t nb = r.v[10][l] | (uint64_t)r.v[11][l] << 32, db = r.v[12][l] | (uint64_t)r.v[13][l] << 32;
			uint64_t qb = r.v[14][l] | (uint64_t)r.v[15][l] << 32;
			memcpy(&n, &nb, 8);
			memcpy(&dd, &db, 8);
			memcpy(&q, &qb, 8);
			double want64 = n / dd;
			if (memcmp(&want64, &q, 8) != 0 && !(isnan(want64) && isnan(q))) {
				if (bad64++ < 4)
					print_message("f64 %a / %a: %a, want %a\n", n, dd, q, want64);
			}
		}
	}
	assert_int_equal(bad32, 0);
	assert_int_equal(bad64, 0);
	assert_true(r.w.insts == 4096ull * 23);   /* every batch ran the whole sequence */
	rig_fini(&r);
}

/* ---- ray intersection (asm/bvh.s, asm/bvh_fault.s) ------------------------ */

/* A BVH T# (docs/hardware.md section 10): base >> 8 in [39:0], box_grow_ulp
 * [62:55], box_sort_enable [63], size - 1 [105:64] (the maximum, as RADV),
 * triangle_return_mode [120], type 8 in [127:124]. */
static void bvh_tsharp(uint32_t *s, uint64_t base, unsigned grow, bool sort, bool ij)
{
	s[0] = (uint32_t)(base >> 8);
	s[1] = S_BVH_RSRC_WORD1_BASE_ADDRESS_HI(base >> 40) | S_BVH_RSRC_WORD1_BOX_GROW_VALUE(grow) |
	       S_BVH_RSRC_WORD1_BOX_SORT_EN(sort);
	s[2] = 0xffffffffu;
	s[3] = S_BVH_RSRC_WORD3_SIZE_HI(0x3ff) | S_BVH_RSRC_WORD3_TRIANGLE_RETURN_MODE(ij) |
	       S_BVH_RSRC_WORD3_TYPE(V_BVH_RSRC_WORD3_SQ_RSRC_BVH);
}

static void test_bvh(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "bvh", 32, 136, 0);
	uint64_t base = r.code_va;   /* a 4 KiB aligned allocation: the nodes at +0x800.. */
	bvh_tsharp(&r.w.s[0], base, 0, true, true);
	bvh_tsharp(&r.w.s[4], base, 0, false, true);
	bvh_tsharp(&r.w.s[8], base, 0, true, false);
	bvh_tsharp(&r.w.s[12], base, 255, false, true);
	bvh_tsharp(&r.w.s[16], 0, 0, true, true);
	/* the box32 node again at 0x700000000000, for bvh64's 64-bit pointer */
	xs_err e;
	uint8_t node[128];
	assert_true(xs_vm_read(r.vm, base + 0x800, node, sizeof(node), NULL));
	assert_int_equal(xs_vm_alloc_at(r.vm, 0x700000000000ull, 4096, &e), XS_OK);
	assert_true(xs_vm_write(r.vm, 0x700000000000ull, node, sizeof(node), NULL));
	assert_true(xs_isa_op_implemented(XS_OP_image_bvh_intersect_ray));
	assert_true(xs_isa_op_implemented(XS_OP_image_bvh64_intersect_ray));

	run(&r);
	EXPECT(&r, NULL);
	rig_fini(&r);
}

static void test_bvh_fault(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "bvh_fault", 32, 32, 0);
	bvh_tsharp(&r.w.s[0], r.code_va, 0, true, true);
	run(&r);
	EXPECT(&r, NULL);
	/* a T# whose type is not 8 is refused (illegal, not a memory access) */
	rig_fini(&r);
	rig_init(&r, "bvh_fault", 32, 32, 0);
	bvh_tsharp(&r.w.s[0], r.code_va, 0, true, true);
	r.w.s[3] &= 0x0fffffffu;
	run(&r);
	EXPECT(&r, "TYPE0");
	rig_fini(&r);
	/* the decoder bounds vdata and every address VGPR: bvh.s's first
	 * intersection writes v[20:23], so a 22-VGPR wave faults on it */
	rig_init(&r, "bvh", 32, 22, 0);
	bvh_tsharp(&r.w.s[0], r.code_va, 0, true, true);
	run(&r);
	EXPECT(&r, "V22");
	rig_fini(&r);
}

/* ---- graphics stages: exp and v_interp_* (asm/gfx.s) ----------------------- */
typedef struct exp_log {
	unsigned n, waits_left, calls;
	xs_isa_export e[8];
	uint32_t v0[8];            /* lane 3's VSRC0 value */
} exp_log;

static int exp_sink(void *user, xs_wave *w, const xs_isa_export *e)
{
	(void)w;
	exp_log *lg = user;
	lg->calls++;
	if (lg->waits_left) {
		lg->waits_left--;
		return XS_EXPORT_WAIT;
	}
	if (lg->n < 8) {
		lg->e[lg->n] = *e;
		lg->v0[lg->n] = e->src[0] ? e->src[0][3] : 0;
		lg->n++;
	}
	return XS_EXPORT_OK;
}

static void gfx_lds(rig *r)
{
	static const float attr[2][3][4] = {
		{ { 1, 2, 3, 4 }, { 2, 4, 8, 16 }, { 4, 8, 16, 32 } },
		{ { 10, 20, 30, 40 }, { 1, 1, 1, 1 }, { -1, -1, -1, -1 } },
	};
	memcpy(r->lds + 16, attr, sizeof(attr));
	r->w.interp_prim_stride = 96;
	r->w.s[20] = S_PRIM_MASK_NEW_PRIM_MASK(1) | S_PRIM_MASK_LDS_PARAM_OFFSET(16);
	for (unsigned l = 0; l < 32; l++) {
		float i = 0.25f, j = 0.5f;
		memcpy(&r->v[1][l], &i, 4);
		memcpy(&r->v[2][l], &j, 4);
	}
}

static void test_gfx(void **state)
{
	(void)state;
	rig r;
	exp_log lg = { 0 };
	rig_init(&r, "gfx", 32, 32, 0);
	gfx_lds(&r);
	r.ctx.export_fn = exp_sink;
	r.ctx.export_user = &lg;
	assert_true(xs_isa_op_implemented(XS_OP_exp));
	assert_true(xs_isa_op_implemented(XS_OP_v_interp_p1_f32));
	run(&r);
	EXPECT(&r, NULL);
	/* the three exports as encoded (the sink's log: not wave state) */
	assert_int_equal(lg.n, 3);
	assert_int_equal(lg.e[0].tgt, XS_EXP_TGT_POS0);
	assert_int_equal(lg.e[0].en, 0xf);
	assert_true(lg.e[0].done && !lg.e[0].vm && !lg.e[0].compr);
	assert_int_equal(lg.v0[0], 0x40600000u);   /* v4 = 3.5 */
	assert_int_equal(lg.e[1].tgt, XS_EXP_TGT_PARAM0);
	assert_int_equal(lg.e[1].en, 0x3);
	assert_non_null(lg.e[1].src[1]);
	assert_null(lg.e[1].src[2]);
	assert_int_equal(lg.e[2].tgt, XS_EXP_TGT_MRT0);
	assert_true(lg.e[2].compr && lg.e[2].done && lg.e[2].vm);
	assert_ptr_equal(lg.e[2].src[1], r.w.v[5]);  /* compr: VSRC1 = v5 */
	assert_null(lg.e[2].src[2]);
	assert_int_equal(lg.e[0].exec, 0xffffffffull);
	rig_fini(&r);
}

/* A sink that cannot take an export yet: the wave stops ON the exp with
 * XS_WAVE_EXP_WAIT, and once resumed runs it exactly once (S4.1 late alloc). */
static void test_gfx_exp_wait(void **state)
{
	(void)state;
	rig r;
	exp_log lg = { .waits_left = 2 };
	rig_init(&r, "gfx", 32, 32, 0);
	gfx_lds(&r);
	r.ctx.export_fn = exp_sink;
	r.ctx.export_user = &lg;
	assert_int_equal(run(&r), XS_WAVE_EXP_WAIT);
	uint64_t pc = r.w.pc, insts = r.w.insts;
	assert_int_equal(rd32(&r, pc), 0xf80008cfu);        /* exp pos0 ... done */
	assert_int_equal(run(&r), XS_WAVE_EXP_WAIT);        /* still waiting: nothing ran */
	r.w.status = XS_WAVE_READY;
	assert_int_equal(run(&r), XS_WAVE_EXP_WAIT);        /* the sink says wait once more */
	assert_int_equal(r.w.pc, pc);
	assert_int_equal(r.w.insts, insts);
	r.w.status = XS_WAVE_READY;
	run(&r);
	EXPECT(&r, NULL);
	assert_int_equal(lg.n, 3);
	assert_int_equal(lg.calls, 5);
	assert_int_equal(lg.e[0].tgt, XS_EXP_TGT_POS0);
	assert_int_equal(r.w.insts, insts + 4);             /* 3 exports + s_endpgm, each once */
	rig_fini(&r);
	/* with no sink (a compute wave) exp is illegal */
	rig_init(&r, "gfx", 32, 32, 0);
	gfx_lds(&r);
	run(&r);
	EXPECT(&r, "NOSINK");
	rig_fini(&r);
	/* parameter data beyond the wave's LDS faults (not a host read) */
	rig_init(&r, "gfx", 32, 32, 0);
	gfx_lds(&r);
	r.w.s[20] = S_PRIM_MASK_NEW_PRIM_MASK(1) | S_PRIM_MASK_LDS_PARAM_OFFSET(sizeof(r.lds) - 8);
	run(&r);
	EXPECT(&r, "LDSFAULT");
	rig_fini(&r);
}

/* Two primitives in one wave: NEW_PRIM_MASK bit 2 starts the second at quad
 * 2 (lanes 8..), whose data follows the first's at interp_prim_stride. */
static void test_gfx_two_prims(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "gfx", 32, 32, 0);
	gfx_lds(&r);
	float second[2][3][4] = { { { 100, 0, 0, 0 }, { 0 }, { 0 } }, { { 0 }, { 0 }, { 0 } } };
	memcpy(r.lds + 16 + 96, second, sizeof(second));
	r.w.s[20] = S_PRIM_MASK_NEW_PRIM_MASK(0x5) | S_PRIM_MASK_LDS_PARAM_OFFSET(16);   /* quads 0 and 2 */
	exp_log lg = { 0 };
	r.ctx.export_fn = exp_sink;
	r.ctx.export_user = &lg;
	run(&r);
	EXPECT(&r, "TWOPRIMS");
	rig_fini(&r);
}

/* Typed loads against values computed here from each format's definition;
 * the FORMAT numbers themselves are checked against llvm-mc by
 * test_bufformat.py. */
static void test_bufformat(void **state)
{
	(void)state;
	static const struct { unsigned fmt; uint8_t bytes[16]; uint32_t want[4]; } cases[] = {
		{ 77, { 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40, 0, 0, 0x80, 0x40 },
		  { 0x3f800000u, 0x40000000u, 0x40400000u, 0x40800000u } },              /* 32_32_32_32_FLOAT */
		{ 74, { 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40 },
		  { 0x3f800000u, 0x40000000u, 0x40400000u, 0x3f800000u } },              /* 32_32_32: w = 1.0 */
		{ 56, { 0, 0xff, 0x80, 0x33 },
		  { 0, 0x3f800000u, 0x3f008081u, 0x3e4ccccdu } },                        /* 8_8_8_8_UNORM */
		{ 60, { 1, 2, 3, 255 }, { 1, 2, 3, 255 } },                             /* 8_8_8_8_UINT */
		{ 29, { 0x00, 0x3c, 0x00, 0xc0 }, { 0x3f800000u, 0xc0000000u, 0, 0x3f800000u } }, /* 16_16_FLOAT */
		{ 21, { 0xfe, 0xff, 0xff, 0xff }, { 0xfffffffeu, 0, 0, 1 } },            /* 32_SINT: w = 1 */
		{ 2, { 0x80 }, { 0xbf800000u, 0, 0, 0x3f800000u } },                     /* 8_SNORM: -128 -> -1.0 */
	};
	for (unsigned c = 0; c < XS_ARRAY_SIZE(cases); c++) {
		rig r;
		rig_init(&r, "bufformat", 32, 32, 0);
		uint64_t buf = vm_alloc(&r, 4096);
		for (unsigned i = 0; i < 4; i++)
			assert_true(xs_vm_write(r.vm, buf + 16 * i, cases[c].bytes, 16, NULL));
		uint32_t *s = &r.w.s[4];
		s[0] = (uint32_t)buf;
		s[1] = S_008F04_BASE_ADDRESS_HI(buf >> 32) | S_008F04_STRIDE(16);
		s[2] = 4;
		s[3] = S_008F0C_FORMAT(cases[c].fmt) | S_008F0C_OOB_SELECT(V_008F0C_OOB_SELECT_STRUCTURED);
		run(&r);
		EXPECT(&r, NULL);
		for (unsigned l = 0; l < 32; l++)
			for (unsigned k = 0; k < 4; k++) {
				uint32_t want = l < 4 ? cases[c].want[k] : 0;
				if (r.v[20 + k][l] != want)
					print_message("format %u lane %u component %u: 0x%08x, want 0x%08x\n", cases[c].fmt,
						      l, k, r.v[20 + k][l], want);
				assert_int_equal(r.v[20 + k][l], want);
			}
		/* _x writes one component; MTBUF takes 32_32_FLOAT from the instruction */
		assert_int_equal(r.v[24][0], cases[c].want[0]);
		assert_int_equal(r.v[26][1], (uint32_t)cases[c].bytes[0] | cases[c].bytes[1] << 8 |
					     cases[c].bytes[2] << 16 | (uint32_t)cases[c].bytes[3] << 24);
		rig_fini(&r);
	}
}

/* ---- the CHECK checker itself (asm_expect.c) ------------------------------- */

/* A program with false directives: exactly those fail, each named by file
 * and line with the actual and the expected value. */
static void test_expect_reports(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "expect_wrong", 32, 4, 0);
	run(&r);
	asm_state st = { .w = &r.w, .ctx = &r.ctx, .status = r.status, .code_va = r.code_va };
	asm_result res;
	asm_expect_file(XS_ISA_FIXTURE_DIR "/expect_wrong.s", NULL, &st, &res);
	print_log(res.log);
	assert_int_equal(res.checks, 5);
	assert_int_equal(res.failed, 2);
	assert_non_null(strstr(res.log, "expect_wrong.s:6: s10 is 0x7, expected 0x8\n"));
	assert_non_null(strstr(res.log, "expect_wrong.s:11: v2 lane 3 is 0x0, expected 0x1 (1 of 32 lanes wrong)\n"));
	assert_null(strstr(res.log, "expect_wrong.s:5:"));
	assert_null(strstr(res.log, "expect_wrong.s:8:"));
	rig_fini(&r);
}

/* Checks of a made-up wave state: each grammar form once true and once
 * false, and malformed lines fail rather than pass unseen. */
static unsigned expect_fails(const asm_state *st, const char *text, const char *tag, const char *msg)
{
	asm_result res;
	asm_expect_text("t.s", text, tag, st, &res);
	if (msg && !strstr(res.log, msg))
		fail_msg("\"%s\": log \"%s\" lacks \"%s\"", text, res.log, msg);
	return res.failed;
}

static void test_expect_grammar(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "loop", 64, 8, 0);
	xs_wave *w = &r.w;
	uint64_t mem = vm_alloc(&r, 4096);
	assert_true(xs_vm_write(r.vm, mem, (const uint32_t[]){ 0x11, 0x22 }, 8, NULL));
	w->s[10] = 0xfffffff1u;
	w->s[18] = 0x89abcdef; w->s[19] = 0x01234567;
	w->s[XS_SREG_VCC_LO] = 0x0000ffff; w->s[XS_SREG_VCC_HI] = 0x1;
	w->scc = 1;
	for (unsigned l = 0; l < 64; l++) {
		r.v[1][l] = l < 32 ? 0x3f800000u : 0xc0600000u;   /* 1.0, -3.5 */
		r.v[2][l] = 0x7fc00001u;
		r.v[3][l] = 0x12340000u | l;
	}
	r.status = XS_WAVE_FAULT;
	r.ctx.fault.kind = XS_FAULT_VM;
	r.ctx.fault.addr = 0x7f0000001000ull;
	snprintf(r.ctx.fault.what, sizeof(r.ctx.fault.what), "global_load_dword: lane 3");
	asm_state st = { .w = w, .ctx = &r.ctx, .status = r.status, .code_va = r.code_va,
			 .syms = (const asm_sym[]){ { "buf", mem } }, .nsyms = 1 };
	static const char *const good[] = {
		"// CHECK: s10 = -15", "// CHECK: s10 = 0xfffffff1", "// CHECK: s[18:19] = 0x0123456789abcdef",
		"// CHECK: s[18:19] = 0x89abcdef 0x01234567", "// CHECK: vcc = 0x10000ffff", "// CHECK: scc = 1",
		"// CHECK: v1 lanes 0..31 = 1.0", "// CHECK: v1 lanes 32..63 = -3.5", "// CHECK: v1 = lane < 32 ? 1.0 : -3.5",
		"// CHECK: v2 = nan", "// CHECK: v3 & 0xffff = lane", "// CHECK: v[1:3] lane 40 = -3.5, nan, 0x12340028",
		"// CHECK: v[2:3] lane 1 = 0x7fc00001 0x12340001", "// CHECK: v3 lane 5 = 0x12340000 + 5",
		"// CHECK: mem[buf] = 0x11 0x22", "// CHECK: mem[buf + 4] = 0x22", "// CHECK: mem8[buf + 4] = 0x22",
		"// CHECK: status = fault", "// CHECK: fault = vm", "// CHECK: fault.addr = 0x7f0000001000",
		"// CHECK: fault.what ~ \"lane 3\"", "// CHECK: s10 = (1 << 4) - 1 == 15 && !0 ? ~14 : 0",
		"// CHECK: v1 lane 0 = f32(1)", "\ts_nop 0 // CHECK: scc = 1", "// CHECK-TWO: scc = 0",
	};
	for (unsigned i = 0; i < XS_ARRAY_SIZE(good); i++) {
		asm_result res;
		asm_expect_text("t.s", good[i], NULL, &st, &res);
		if (res.failed || (res.checks != 1 && !strstr(good[i], "CHECK-")))
			fail_msg("\"%s\": %s", good[i], res.log);
	}
	/* false ones, with what the message says */
	assert_int_equal(expect_fails(&st, "// CHECK: s10 = 15", NULL, "t.s:1: s10 is 0xfffffff1, expected 0xf"), 1);
	assert_int_equal(expect_fails(&st, "// CHECK: s[18:19] = 0x0123456789abcdee", NULL,
				      "s[18:19] is 0x123456789abcdef, expected 0x123456789abcdee"), 1);
	assert_int_equal(expect_fails(&st, "// CHECK: v1 = 1.0", NULL, "v1 lane 32 is 0xc0600000, expected 0x3f800000 "
				      "(32 of 64 lanes wrong)"), 1);
	assert_int_equal(expect_fails(&st, "// CHECK: v1 = nan", NULL, "expected a NaN"), 1);
	assert_int_equal(expect_fails(&st, "// CHECK: v[2:3] lane 2 = 0x7fc00001 0x12340003", NULL,
				      "v[2:3] (v3) lane 2 is 0x12340002, expected 0x12340003"), 1);
	assert_int_equal(expect_fails(&st, "// CHECK: status = ended", NULL, "status is fault, expected ended"), 1);
	assert_int_equal(expect_fails(&st, "// CHECK: fault = illegal", NULL, "fault is vm, expected illegal"), 1);
	assert_int_equal(expect_fails(&st, "// CHECK: fault.what ~ \"lane 4\"", NULL, "expected it to contain \"lane 4\""), 1);
	assert_int_equal(expect_fails(&st, "// CHECK: mem[buf + 4] = 0x11", NULL, "mem[buf + 4] is 0x22, expected 0x11"), 1);
	assert_int_equal(expect_fails(&st, "// CHECK-TWO: scc = 0", "TWO", "scc is 0x1, expected 0x0"), 1);
	/* malformed: never a silent pass */
	static const char *const bad[] = {
		"// CHECK s10 = 1", "// CHECKS: s10 = 1", "// check: CHECK: s10 = 1", "// CHECK-: s10 = 1",
		"// CHECK: s10 1", "// CHECK: s10 =", "// CHECK: x10 = 1", "// CHECK: s200 = 1", "// CHECK: v3 lane 64 = 1",
		"// CHECK: v3 lanes 5..2 = 1", "// CHECK: v[1:2] = 1 2 3", "// CHECK: s10 = nosuchname",
		"// CHECK: s10 = (1", "// CHECK: s10 = 1 / 0", "// CHECK: status = sleeping", "// CHECK: v9 = 0",
		"// CHECK: mem[0x10] = 0", "// CHECK: fault.what = \"x\"", "// CHECK: lds[0x100000] = 0",
		"// CHECK: v1 & 1.5 = 0", "// CHECK: v[7:8] = 0", "// CHECK: scc = 1 1", "// CHECK: lds[0xfffffffffffffffe] = 0",
	};
	for (unsigned i = 0; i < XS_ARRAY_SIZE(bad); i++) {
		asm_result res;
		asm_expect_text("t.s", bad[i], NULL, &st, &res);
		if (res.failed != 1 || !strstr(res.log, "t.s:1: "))
			fail_msg("\"%s\" should fail: %u failed, %s", bad[i], res.failed, res.log);
	}
	/* lines count per tag */
	asm_result res;
	asm_expect_text("t.s", "// CHECK: scc = 1\n// CHECK-TWO: scc = 0\n\n// CHECK: s10 = -15\n", NULL, &st, &res);
	assert_int_equal(res.checks, 2);
	assert_int_equal(res.failed, 0);
	rig_fini(&r);
}

/* Every program in tests/isa/asm states its expectations, and a test above
 * applied them (so a new program without CHECK lines, or one no test
 * checks, fails here). Runs last. */
static void test_every_program_checks(void **state)
{
	(void)state;
	DIR *d = opendir(XS_ISA_ASM_SRC_DIR);
	assert_non_null(d);
	unsigned programs = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n < 3 || strcmp(e->d_name + n - 2, ".s") != 0)
			continue;
		programs++;
		char path[512], name[256];
		snprintf(path, sizeof(path), "%s/%s", XS_ISA_ASM_SRC_DIR, e->d_name);
		snprintf(name, sizeof(name), "%.*s", (int)(n - 2), e->d_name);
		if (asm_expect_count(path) < 1)
			fail_msg("%s has no CHECK line", e->d_name);
		bool seen = false;
		for (unsigned i = 0; i < nchecked; i++)
			seen |= strcmp(checked[i], name) == 0;
		if (!seen)
			fail_msg("no test applies the CHECK lines of %s", e->d_name);
	}
	closedir(d);
	assert_true(programs >= 35);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_salu),
		cmocka_unit_test(test_vmask_w32),
		cmocka_unit_test(test_vmask_w64),
		cmocka_unit_test(test_mubuf_scratch),
		cmocka_unit_test(test_mubuf_swizzle_small),
		cmocka_unit_test(test_mubuf_oob),
		cmocka_unit_test(test_lds),
		cmocka_unit_test(test_lds_m0),
		cmocka_unit_test(test_sad),
		cmocka_unit_test(test_movrel),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_loop),
		cmocka_unit_test(test_call),
		cmocka_unit_test(test_unimplemented),
		cmocka_unit_test(test_vm_fault),
		cmocka_unit_test(test_fetch_fault),
		cmocka_unit_test(test_global_far),
		cmocka_unit_test(test_barrier),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_valu),
		cmocka_unit_test(test_hwreg_scratch),
		cmocka_unit_test(test_straddle),
		cmocka_unit_test(test_mtrace_lanes),
		cmocka_unit_test(test_vgpr_bound),
		cmocka_unit_test(test_misc),
		cmocka_unit_test(test_fp_special),
		cmocka_unit_test(test_cvt),
		cmocka_unit_test(test_shift),
		cmocka_unit_test(test_int_overflow),
		cmocka_unit_test(test_hostile_words),
		cmocka_unit_test(test_vcmp_all),
		cmocka_unit_test(test_intdiv_zero),
		cmocka_unit_test(test_exec_zero),
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_mode_fault),
		cmocka_unit_test(test_soffset_literal),
		cmocka_unit_test(test_div),
		cmocka_unit_test(test_lanes),
		cmocka_unit_test(test_pk_f16),
		cmocka_unit_test(test_atomics_rtn),
		cmocka_unit_test(test_buffer_oob),
		cmocka_unit_test(test_divseq),
		cmocka_unit_test(test_global_rows),
		cmocka_unit_test(test_bvh),
		cmocka_unit_test(test_bvh_fault),
		cmocka_unit_test(test_gfx),
		cmocka_unit_test(test_gfx_exp_wait),
		cmocka_unit_test(test_gfx_two_prims),
		cmocka_unit_test(test_bufformat),
		cmocka_unit_test(test_expect_reports),
		cmocka_unit_test(test_expect_grammar),
		cmocka_unit_test(test_every_program_checks),   /* last: after every program ran */
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
