/*
 * Lockstep against one wave at a time: xs_isa_run_lockstep (one look-up a
 * step, group handlers where an op has one) must leave every wave exactly
 * as xs_isa_run leaves it after the same number of instructions — the
 * registers, SCC, PC, status, the shared LDS, a fault's report. The oracle
 * is the interpreter's own single-wave path, which the other isa tests hold
 * against the ISA's definitions.
 *
 *   forms  each instruction of lockstep/forms.s (the hot forms and variants
 *          a group handler must decline) as one step, for 1..8 waves of 32
 *          and 64 lanes with random registers, EXEC full, partial or empty,
 *          MODE as clang sets it or not, and memory addresses on rows,
 *          scattered or outside (faults); the memory is compared too
 *   prog   lockstep/prog.s on wave32 groups: a branch on EXEC parts some
 *          waves, a barrier and the end stop the rest
 *   fault  lockstep/fault.s: steps of group handlers, then a fault in one
 *          wave (a group handler's, a wave-by-wave handler's, the step's
 *          own), in a run of many steps: the waves before the faulting one
 *          ran the step, the ones after it did not, and every PC says so
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "hw/xs_hw_regs.h"
#include "isa/xs_isa.h"
#include "isa/xs_isa_disasm.h"

#ifndef XS_LOCKSTEP_DIR
#error "XS_LOCKSTEP_DIR must name the directory of the assembled programs"
#endif

#define NVGPR 24
#define MAXW 8
#define LDS_BYTES 4096
#define BUF_BYTES 65536

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* a register value: random or an integer / float edge */
static uint32_t value(void)
{
	static const uint32_t edge[] = { 0, 1, 2, 31, 32, 0xffffffff, 0xfffffffe, 0x80000000, 0x7fffffff,
					 0x00800000, 0x007fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x3f800000 };
	return (next() & 1) ? (uint32_t)next() : edge[next() % (sizeof(edge) / sizeof(edge[0]))];
}

typedef struct group {
	xs_wave w[MAXW];
	uint32_t rows[MAXW][NVGPR][XS_MAX_LANES];
	uint8_t lds[LDS_BYTES];
} group;

typedef struct code {
	xs_vm *vm;
	xs_isa_ctx ctx;
	uint64_t va;
	uint64_t buf;              /* BUF_BYTES of memory the loads and stores reach */
	uint8_t init[BUF_BYTES];   /* its contents before each run */
	uint32_t words[256];
	size_t nwords;
} code;

static void code_load(code *c, const char *name)
{
	memset(c, 0, sizeof(*c));
	c->vm = xs_vm_create();
	assert_non_null(c->vm);
	c->ctx.vm = c->vm;
	c->ctx.icache = xs_icache_create();
	assert_non_null(c->ctx.icache);
	char path[512];
	snprintf(path, sizeof(path), "%s/%s.bin", XS_LOCKSTEP_DIR, name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t n = fread(c->words, 1, sizeof(c->words), f);
	fclose(f);
	assert_true(n > 0 && n % 4 == 0 && n < sizeof(c->words));
	c->nwords = n / 4;
	xs_err e;
	assert_int_equal(xs_vm_alloc(c->vm, 65536, 4096, &c->va, &e), XS_OK);
	assert_true(xs_vm_write(c->vm, c->va, c->words, n, NULL));
	assert_int_equal(xs_vm_alloc(c->vm, BUF_BYTES, 4096, &c->buf, &e), XS_OK);
	for (unsigned i = 0; i < BUF_BYTES; i++)
		c->init[i] = (uint8_t)next();
}

static void buf_reset(code *c)
{
	assert_true(xs_vm_write(c->vm, c->buf, c->init, BUF_BYTES, NULL));
}

static void code_free(code *c)
{
	xs_icache_destroy(c->ctx.icache);
	xs_vm_destroy(c->vm);
}

/* A private segment buffer's V# (swizzled, ADD_TID, as the runtime makes
 * the scratch ring's) over the buffer: its INDEX_STRIDE the wave's lanes or
 * another (below the lanes the row and gather forms decline), its range
 * check off, RAW (some rows outside: they decline or fault) or off with
 * NUM_RECORDS 0. */
static void private_vsharp(uint32_t v[4], uint64_t buf, unsigned lanes)
{
	unsigned stride = next() % 4 ? (lanes == 64 ? V_008F0C_INDEX_STRIDE_64 : V_008F0C_INDEX_STRIDE_32)
				     : (unsigned)(next() % 4);
	unsigned oob = next() % 3;
	v[0] = (uint32_t)buf;
	v[1] = S_008F04_BASE_ADDRESS_HI(buf >> 32) | S_008F04_SWIZZLE_ENABLE(1);
	v[2] = oob == 1 ? 16384 + (uint32_t)(next() % 4) * 16384 : oob == 2 && next() % 4 == 0 ? 0 : BUF_BYTES;
	v[3] = S_008F0C_FORMAT(V_008F0C_GFX10_FORMAT_32_UINT) | S_008F0C_INDEX_STRIDE(stride) |
	       S_008F0C_ADD_TID_ENABLE(1) |
	       S_008F0C_OOB_SELECT(oob == 1 ? V_008F0C_OOB_SELECT_RAW : V_008F0C_OOB_SELECT_DISABLED);
}

/* n waves at pc with random registers; EXEC by kind: 0 full, 1 random, 2 empty, 3 mixed per wave */
static void group_init(group *g, unsigned n, unsigned lanes, uint64_t pc, int exec_kind, bool odd_mode, uint64_t buf)
{
	memset(g, 0, sizeof(*g));
	/* s[32:35]: mostly one V# for the group (a dispatch's scratch V# is
	 * every wave's: the row forms decode it once), else each wave's own */
	bool one_vsharp = next() % 4 != 0;
	uint32_t pv[4];
	private_vsharp(pv, buf, lanes);
	for (unsigned i = 0; i < LDS_BYTES; i++)
		g->lds[i] = (uint8_t)next();
	for (unsigned j = 0; j < n; j++) {
		xs_wave *w = &g->w[j];
		w->v = g->rows[j];
		w->nvgpr = NVGPR;
		w->lanes = lanes;
		w->pc = pc;
		w->mode = odd_mode && (next() & 1) ? 0x30u : 0xf0u | XS_MODE_IEEE;
		w->lds = g->lds;
		w->lds_size = LDS_BYTES;
		w->wave_in_group = j;
		w->insts = next() % 1000;
		w->scc = (uint32_t)(next() & 1);
		for (unsigned s = 0; s < 106; s++)
			w->s[s] = value();
		w->s[XS_SREG_VCC_LO] = (uint32_t)next();
		w->s[XS_SREG_VCC_HI] = (uint32_t)next();
		for (unsigned r = 0; r < NVGPR; r++)
			for (unsigned l = 0; l < XS_MAX_LANES; l++)
				g->rows[j][r][l] = value();
		/* LDS addresses (v7, v8, v9) inside the allocation; memory
		 * addresses: v[20:21] 64-bit and v18 offsets from s[20:21] into
		 * the buffer (lanes on consecutive dwords of a row per wave, as a
		 * kernel's, or scattered, some outside: faults), v19 buffer
		 * offsets for the V# in s[24:27] (its NUM_RECORDS cuts some) */
		bool rowwise = next() & 1;
		for (unsigned l = 0; l < XS_MAX_LANES; l++) {
			g->rows[j][7][l] &= 0x3fc;
			g->rows[j][8][l] &= 0x3fc;
			g->rows[j][9][l] &= 0xffc;
			uint32_t off = rowwise ? 4096 + 4 * (j * lanes + l) : (uint32_t)next() % (BUF_BYTES + 256);
			if (next() % 64 == 0)
				off = (uint32_t)next(); /* far outside */
			uint64_t a = buf + off;
			g->rows[j][20][l] = (uint32_t)a;
			g->rows[j][21][l] = (uint32_t)(a >> 32);
			g->rows[j][18][l] = off;
			g->rows[j][19][l] = rowwise ? 4 * l : (uint32_t)next() % 4096;
		}
		w->s[20] = (uint32_t)buf;
		w->s[21] = (uint32_t)(buf >> 32);
		w->s[24] = (uint32_t)buf;
		w->s[25] = S_008F04_BASE_ADDRESS_HI(buf >> 32);
		w->s[26] = 8192 + (uint32_t)(next() % 256);
		w->s[27] = S_008F0C_OOB_SELECT(V_008F0C_OOB_SELECT_RAW);
		w->s[28] = 4 * (uint32_t)(next() % 64);
		if (!one_vsharp)
			private_vsharp(pv, buf, lanes);
		memcpy(&w->s[32], pv, sizeof(pv));
		w->s[29] = 256 * (uint32_t)(next() % 48); /* the wave's scratch offset: rows stay in the buffer */
		/* v22: private offsets as a kernel's p[x] (dwords below 64, some odd bytes) */
		for (unsigned l = 0; l < XS_MAX_LANES; l++)
			g->rows[j][22][l] = next() % 32 == 0 ? (uint32_t)(next() % 256) : 4 * (uint32_t)(next() % 64);
		int k = exec_kind == 3 ? (int)(next() % 3) : exec_kind;
		uint64_t ex = k == 0 ? ~0ull : k == 1 ? next() : 0;
		if (lanes == 32)
			ex &= 0xffffffffull;
		w->s[XS_SREG_EXEC_LO] = (uint32_t)ex;
		w->s[XS_SREG_EXEC_HI] = (uint32_t)(ex >> 32);
	}
}

/* The f32 NaNs among the registers of g's first n waves made finite (an
 * exponent bit cleared): a handler for all the waves declines a step with a
 * NaN operand (fma's result NaN depends on the call site), and random rows
 * of eight waves nearly always hold one. */
static void no_nans(group *g, unsigned n)
{
	for (unsigned j = 0; j < n; j++) {
		for (unsigned s = 0; s < 106; s++)
			if ((g->w[j].s[s] & 0x7fffffffu) > 0x7f800000u)
				g->w[j].s[s] &= ~0x00800000u;
		for (unsigned r = 0; r < NVGPR; r++)
			for (unsigned l = 0; l < XS_MAX_LANES; l++)
				if ((g->rows[j][r][l] & 0x7fffffffu) > 0x7f800000u)
					g->rows[j][r][l] &= ~0x00800000u;
	}
}

static void group_copy(group *d, const group *s, unsigned n)
{
	memcpy(d, s, sizeof(*d));
	for (unsigned j = 0; j < n; j++) {
		d->w[j].v = d->rows[j];
		d->w[j].lds = d->lds;
	}
}

/* wave j of a (lockstep, its insts not yet counted: run) equals wave j of b */
static void same_wave(const group *a, const group *b, unsigned j, uint64_t run, const char *what)
{
	const xs_wave *x = &a->w[j], *y = &b->w[j];
	char m[XS_DISASM_TEXT_MAX + 32];
	snprintf(m, sizeof(m), "%s: wave %u of lanes %u", what, j, x->lanes);
	if (x->pc != y->pc || x->status != y->status || x->scc != y->scc || x->insts + run != y->insts ||
	    x->mode != y->mode || memcmp(x->s, y->s, sizeof(x->s)) != 0) {
		print_message("%s: pc %llx/%llx status %d/%d scc %u/%u insts %llu+%llu/%llu\n", m,
			      (unsigned long long)x->pc, (unsigned long long)y->pc, x->status, y->status, x->scc,
			      y->scc, (unsigned long long)x->insts, (unsigned long long)run,
			      (unsigned long long)y->insts);
		for (unsigned s = 0; s < 128; s++)
			if (x->s[s] != y->s[s])
				print_message("  s[%u] %08x / %08x\n", s, x->s[s], y->s[s]);
		fail_msg("%s: wave state differs", m);
	}
	for (unsigned r = 0; r < NVGPR; r++)
		for (unsigned l = 0; l < x->lanes; l++)
			if (a->rows[j][r][l] != b->rows[j][r][l])
				fail_msg("%s: v%u lane %u: %08x, one by one %08x", m, r, l, a->rows[j][r][l],
					 b->rows[j][r][l]);
}

/* A's first n waves in lockstep for at most `steps` steps, from the
 * buffer's initial contents: the first wave that faulted (n if none), with
 * run[] as the loop leaves it, the fault's report in *fa and the buffer
 * after the run in mem. */
static unsigned lockstep_run(code *c, group *A, unsigned n, uint64_t steps, uint64_t *run, xs_fault *fa,
			     uint8_t *mem)
{
	xs_wave *ws[MAXW];
	for (unsigned j = 0; j < n; j++)
		ws[j] = &A->w[j];
	buf_reset(c);
	memset(&c->ctx.fault, 0, sizeof(c->ctx.fault));
	unsigned f = xs_isa_run_lockstep(&c->ctx, ws, n, steps, run);
	*fa = c->ctx.fault;
	assert_true(xs_vm_read(c->vm, c->buf, mem, BUF_BYTES, NULL));
	return f;
}

static void test_forms(void **state)
{
	(void)state;
	code c;
	code_load(&c, "forms");
	static group A, B, I;
	static uint8_t memA[BUF_BYTES], memB[BUF_BYTES];
	unsigned nforms = 0, faults = 0;
	for (size_t at = 0; at < c.nwords;) {
		xs_inst in;
		unsigned nw = xs_isa_decode(c.words + at, c.nwords - at, &in) / 4;
		if (!nw)
			fail_msg("forms.s: word %zu (%08x) does not decode", at, c.words[at]);
		char text[XS_DISASM_TEXT_MAX];
		xs_disasm_result dr;
		xs_isa_disasm(c.words + at, c.nwords - at, c.va + at * 4, NULL, text, sizeof(text), &dr);
		for (unsigned it = 0; it < 96; it++) {
			unsigned n = 1 + (unsigned)(next() % MAXW), lanes = (it & 1) ? 64 : 32;
			group_init(&I, n, lanes, c.va + at * 4, (int)((it / 2) % 4), it % 8 >= 6, c.buf);
			if (it % 8 == 0) /* (with full EXEC and the default MODE) */
				no_nans(&I, n);
			group_copy(&A, &I, n);
			group_copy(&B, &I, n);
			uint64_t run[MAXW] = { 0 };
			xs_fault fa;
			unsigned f = lockstep_run(&c, &A, n, 1, run, &fa, memA);
			buf_reset(&c);
			for (unsigned j = 0; j < n && j <= f; j++) {
				xs_wave_status st = xs_isa_run(&c.ctx, &B.w[j], 1);
				if (j == f) {
					assert_int_equal(st, XS_WAVE_FAULT);
					assert_int_equal(fa.kind, c.ctx.fault.kind);
					assert_int_equal(fa.pc, c.ctx.fault.pc);
					assert_string_equal(fa.what, c.ctx.fault.what);
				}
			}
			for (unsigned j = 0; j < n; j++) /* waves after a fault did not run the step */
				same_wave(&A, j <= f ? &B : &I, j, j <= f ? run[j] : 0, text);
			if (memcmp(A.lds, B.lds, LDS_BYTES) != 0)
				fail_msg("%s: LDS differs", text);
			assert_true(xs_vm_read(c.vm, c.buf, memB, BUF_BYTES, NULL));
			if (memcmp(memA, memB, BUF_BYTES) != 0)
				fail_msg("%s: memory differs", text);
			faults += f < n;
		}
		nforms++;
		at += nw;
	}
	print_message("%u forms, %u steps with a fault\n", nforms, faults);
	assert_true(nforms >= 60);
	assert_true(faults > 0); /* the fault path was taken */
	code_free(&c);
}

/* Lockstep from where the waves are until it returns, each wave checked
 * against a copy run alone for as many instructions; returns the waves
 * still together at one PC and ready. */
static unsigned prog_round(code *c, group *A, group *B, unsigned *alive, unsigned na)
{
	xs_wave *ws[MAXW];
	uint64_t run[MAXW] = { 0 };
	for (unsigned k = 0; k < na; k++)
		ws[k] = &A->w[alive[k]];
	unsigned f = xs_isa_run_lockstep(&c->ctx, ws, na, 1000, run);
	assert_int_equal(f, na);
	unsigned left = 0;
	for (unsigned k = 0; k < na; k++) {
		unsigned j = alive[k];
		xs_isa_run(&c->ctx, &B->w[j], run[k]);
		same_wave(A, B, j, run[k], "prog");
		A->w[j].insts += run[k];
		if (A->w[j].status == XS_WAVE_READY && A->w[j].pc == A->w[alive[0]].pc)
			alive[left++] = j;
	}
	return left;
}

static void test_prog(void **state)
{
	(void)state;
	code c;
	code_load(&c, "prog");
	static group A, B;
	unsigned parted = 0, barriers = 0;
	buf_reset(&c);
	for (unsigned it = 0; it < 200; it++) {
		unsigned n = 2 + (unsigned)(next() % (MAXW - 1));
		group_init(&A, n, 32, c.va, 0, false, c.buf);
		for (unsigned j = 0; j < n; j++) /* s11: some waves keep no lane of EXEC */
			A.w[j].s[11] = (it % 3 == 0) ? (uint32_t)next() | 1 : (next() % 3 == 0 ? 0 : (uint32_t)next() | 1);
		group_copy(&B, &A, n);
		unsigned alive[MAXW], na = n;
		for (unsigned j = 0; j < n; j++)
			alive[j] = j;
		unsigned left = prog_round(&c, &A, &B, alive, na);
		if (left < n)
			parted++;
		bool all_barrier = true;
		for (unsigned j = 0; j < n; j++)
			all_barrier &= A.w[j].status == XS_WAVE_BARRIER;
		if (all_barrier) { /* released: on to the end together */
			barriers++;
			for (unsigned j = 0; j < n; j++)
				alive[j] = j;
			prog_round(&c, &A, &B, alive, n);
			for (unsigned j = 0; j < n; j++)
				assert_int_equal(A.w[j].status, XS_WAVE_ENDED);
		}
	}
	/* both ways through were taken */
	assert_true(parted > 0);
	assert_true(barriers > 0);
	code_free(&c);
}

/* Lane l of wave j reads or adds at its own dword of the buffer, but one
 * lane of wave `bad` (if below n) at an address nothing maps. */
static void fault_addresses(group *g, unsigned n, unsigned lanes, uint64_t buf, unsigned bad)
{
	for (unsigned j = 0; j < n; j++)
		for (unsigned l = 0; l < lanes; l++) {
			uint64_t a = buf + 4096 + 4 * (j * lanes + l);
			if (j == bad && l == 5)
				a = 0x40; /* (the first page is never mapped) */
			g->rows[j][20][l] = (uint32_t)a;
			g->rows[j][21][l] = (uint32_t)(a >> 32);
		}
}

static void test_fault(void **state)
{
	(void)state;
	code c;
	code_load(&c, "fault");
	static group A, B;
	static uint8_t memA[BUF_BYTES], memB[BUF_BYTES];
	/* the programs: from the start and after each s_endpgm */
	uint64_t entry[3];
	unsigned nprog = 0;
	for (size_t at = 0; at < c.nwords && nprog < 3;) {
		if (at == 0 || c.words[at - 1] == 0xbf810000u) /* (s_endpgm) */
			entry[nprog++] = c.va + 4 * at;
		xs_inst in;
		unsigned nw = xs_isa_decode(c.words + at, c.nwords - at, &in) / 4;
		assert_true(nw > 0);
		at += nw;
	}
	assert_int_equal(nprog, 3);
	unsigned checked[3] = { 0 };
	for (unsigned it = 0; it < 300; it++) {
		unsigned p = it % 3, n = 2 + (unsigned)(next() % (MAXW - 1)), lanes = (it / 3) & 1 ? 64 : 32;
		unsigned bad = (unsigned)(next() % (n + 1)); /* n: no wave faults */
		group_init(&A, n, lanes, entry[p], 0, false, c.buf);
		fault_addresses(&A, n, lanes, c.buf, bad);
		group_copy(&B, &A, n);
		uint64_t run[MAXW] = { 0 };
		xs_fault fa;
		unsigned f = lockstep_run(&c, &A, n, 1000, run, &fa, memA);
		if (p == 2) {
			/* the step's look-up faults for the group: the first wave
			 * reports it, every wave's PC is on the instruction */
			uint64_t at = entry[p] + 8;
			assert_int_equal(f, 0);
			assert_int_equal(fa.kind, XS_FAULT_ILLEGAL);
			assert_int_equal(fa.pc, at);
			assert_int_equal(A.w[0].status, XS_WAVE_FAULT);
			for (unsigned j = 0; j < n; j++) {
				assert_int_equal(A.w[j].pc, at);
				assert_int_equal(run[j], 2);
			}
			checked[p]++;
			continue;
		}
		assert_int_equal(f, bad < n ? bad : n);
		buf_reset(&c);
		for (unsigned j = 0; j < n; j++) {
			xs_wave_status st = xs_isa_run(&c.ctx, &B.w[j], run[j]);
			if (j == f) {
				assert_int_equal(st, XS_WAVE_FAULT);
				assert_int_equal(fa.kind, c.ctx.fault.kind);
				assert_int_equal(fa.pc, c.ctx.fault.pc);
				assert_string_equal(fa.what, c.ctx.fault.what);
			}
			same_wave(&A, &B, j, run[j], p == 0 ? "fault: load" : "fault: atomic");
		}
		assert_true(xs_vm_read(c.vm, c.buf, memB, BUF_BYTES, NULL));
		if (memcmp(memA, memB, BUF_BYTES) != 0)
			fail_msg("fault program %u: memory differs", p + 1);
		checked[p] += f < n;
	}
	for (unsigned p = 0; p < 3; p++)
		assert_true(checked[p] > 20); /* each program's fault was met */
	code_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_prog),
		cmocka_unit_test(test_fault),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
