/*
 * The interpreter executing arbitrary instruction words (src/isa): the
 * input is a program and the seed of a group's registers; 1 to 4 waves run
 * it from one PC, twice:
 *   A  in lockstep (xs_isa_run_lockstep: one look-up a step, the group
 *      handlers of the hot forms), until it returns;
 *   B  one instruction at a time (xs_isa_run, max 1), wave after wave in
 *      the same order, each wave as many instructions as A ran of it.
 * Oracles: never a crash, a sanitizer report or a hang; and A equals B —
 * every wave's registers, SCC, PC, status, MODE, the shared LDS, the
 * memory the program reaches, a fault's kind, PC and report (the contract
 * of a group handler, xs_isa_exec.c, which tests/isa/test_isa_lockstep.c
 * holds on chosen forms; here on whatever the fuzzer writes). A wave's
 * instruction count stays as lockstep leaves it during the call (B resets
 * it before each step: s_memtime reads it).
 * The input:
 *   byte 0     bits 0-1 waves - 1, bit 2 wave64, bit 3 an odd MODE
 *              (denormals flushed, IEEE off), bits 4-5 EXEC (full, random,
 *              empty, per wave)
 *   bytes 1-3  the seed of the registers' values
 *   bytes 4..  the program: up to 1 KiB of instruction words, then
 *              s_endpgm (the code page is otherwise zero: v_cndmask)
 * The registers: random values and edges, with addresses the memory
 * instructions reach when the program uses them: s[20:21] the buffer
 * (16 KiB), s[24:27] a raw V# over it, s[32:35] a swizzled private V#,
 * v[20:21] 64-bit addresses into it, v18/v19 offsets, v7-v9 LDS
 * addresses; M0 an LDS address.
 */
#include <string.h>

#include "fuzz.h"
#include "hw/xs_hw_regs.h"
#include "isa/xs_isa.h"
#include "mem/xs_vm.h"

#define MAXW 4
#define NVGPR 40
#define LDS_BYTES 4096
#define BUF_BYTES 16384
#define CODE_VA 0x100000000ull
#define BUF_VA 0x200000000ull
#define MAX_WORDS 256
#define STEPS 512
#define S_ENDPGM 0xbf810000u

typedef struct side {
	xs_vm *vm;
	xs_isa_ctx ctx;
	xs_wave w[MAXW];
	uint32_t rows[MAXW][NVGPR][XS_MAX_LANES];
	uint8_t lds[LDS_BYTES];
} side;

static uint64_t rng;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}
static uint32_t value(void)
{
	static const uint32_t edge[] = { 0, 1, 2, 31, 32, 63, 0xffffffff, 0x80000000, 0x7fffffff, 0x00800000,
					 0x7f800000, 0xff800000, 0x7fc00000, 0x3f800000, 0xbf800000, 0x3c00 };
	return (next() & 1) ? (uint32_t)next() : edge[next() % (sizeof(edge) / sizeof(edge[0]))];
}

/* The side's VM (made once: making and freeing one per input was most of
 * a run) with the program and the buffer written afresh, nothing else in
 * it, and a new decoded-code cache; false if the host is out of memory. */
static bool side_open(side *s, const uint32_t *code, const uint8_t *buf)
{
	static const uint8_t zero[2 * XS_VM_PAGE_SIZE];
	xs_vm *vm = s->vm;
	memset(s, 0, sizeof(*s));
	xs_err e = { 0 };
	if (!vm && (!(vm = xs_vm_create()) || xs_vm_alloc_at(vm, CODE_VA, sizeof(zero), &e) ||
		    xs_vm_alloc_at(vm, BUF_VA, BUF_BYTES, &e)))
		return false;
	s->vm = vm;
	s->ctx.vm = vm;
	s->ctx.icache = xs_icache_create();
	return s->ctx.icache && xs_vm_write(vm, CODE_VA, zero, sizeof(zero), NULL) &&
	       xs_vm_write(vm, CODE_VA, code, (MAX_WORDS + 1) * 4, NULL) && xs_vm_write(vm, BUF_VA, buf, BUF_BYTES, NULL);
}

static void side_close(side *s)
{
	if (s->ctx.icache)
		xs_icache_destroy(s->ctx.icache);
	s->ctx.icache = NULL;
}

/* The group's registers from the seed (the same for both sides). */
static void group_init(side *s, unsigned n, unsigned lanes, unsigned flags)
{
	for (unsigned i = 0; i < LDS_BYTES; i += 8) {
		uint64_t r = next();
		memcpy(s->lds + i, &r, 8);
	}
	for (unsigned j = 0; j < n; j++) {
		xs_wave *w = &s->w[j];
		w->v = s->rows[j];
		w->nvgpr = NVGPR;
		w->lanes = lanes;
		w->pc = CODE_VA;
		w->mode = (flags & 8) && (next() & 1) ? 0x30u : 0xf0u | XS_MODE_IEEE;
		w->lds = s->lds;
		w->lds_size = LDS_BYTES;
		w->wave_in_group = j;
		w->insts = next() % 1000;
		w->scc = (uint32_t)(next() & 1);
		for (unsigned k = 0; k < 106; k++)
			w->s[k] = value();
		w->s[XS_SREG_VCC_LO] = (uint32_t)next();
		w->s[XS_SREG_VCC_HI] = (uint32_t)next();
		w->s[XS_SREG_M0] = (uint32_t)(next() % LDS_BYTES) & ~3u;
		for (unsigned r = 0; r < NVGPR; r++)
			for (unsigned l = 0; l < XS_MAX_LANES; l++)
				s->rows[j][r][l] = value();
		for (unsigned l = 0; l < XS_MAX_LANES; l++) {
			uint32_t off = (next() & 1) ? 4 * (j * lanes + l) : (uint32_t)(next() % (BUF_BYTES + 256));
			s->rows[j][7][l] &= 0xffc;
			s->rows[j][8][l] &= 0x3fc;
			s->rows[j][9][l] &= 0xffc;
			s->rows[j][18][l] = off;
			s->rows[j][19][l] = off & 0xfffc;
			s->rows[j][20][l] = (uint32_t)(BUF_VA + off);
			s->rows[j][21][l] = (uint32_t)((BUF_VA + off) >> 32);
		}
		w->s[20] = (uint32_t)BUF_VA;
		w->s[21] = (uint32_t)(BUF_VA >> 32);
		w->s[24] = (uint32_t)BUF_VA;
		w->s[25] = S_008F04_BASE_ADDRESS_HI(BUF_VA >> 32);
		w->s[26] = BUF_BYTES / 2 + (uint32_t)(next() % 256);
		w->s[27] = S_008F0C_FORMAT(V_008F0C_GFX10_FORMAT_32_UINT) | S_008F0C_OOB_SELECT(V_008F0C_OOB_SELECT_RAW);
		w->s[32] = (uint32_t)BUF_VA;
		w->s[33] = S_008F04_BASE_ADDRESS_HI(BUF_VA >> 32) | S_008F04_SWIZZLE_ENABLE(1);
		w->s[34] = BUF_BYTES;
		w->s[35] = S_008F0C_FORMAT(V_008F0C_GFX10_FORMAT_32_UINT) |
			   S_008F0C_INDEX_STRIDE(lanes == 64 ? V_008F0C_INDEX_STRIDE_64 : V_008F0C_INDEX_STRIDE_32) |
			   S_008F0C_ADD_TID_ENABLE(1);
		w->flat_scratch = BUF_VA;
		unsigned k = (flags >> 4) & 3;
		if (k == 3)
			k = (unsigned)(next() % 3);
		uint64_t ex = k == 0 ? ~0ull : k == 1 ? next() : 0;
		if (lanes == 32)
			ex &= 0xffffffffull;
		w->s[XS_SREG_EXEC_LO] = (uint32_t)ex;
		w->s[XS_SREG_EXEC_HI] = (uint32_t)(ex >> 32);
	}
}

static void same(const side *a, const side *b, unsigned n, const uint64_t *run)
{
	for (unsigned j = 0; j < n; j++) {
		const xs_wave *x = &a->w[j], *y = &b->w[j];
		FUZZ_CHECK(x->pc == y->pc && x->status == y->status && x->scc == y->scc && x->insts + run[j] == y->insts &&
				   x->mode == y->mode && x->flat_scratch == y->flat_scratch,
			   "wave %u: pc %llx/%llx status %d/%d scc %u/%u insts %llu+%llu/%llu mode %x/%x", j,
			   (unsigned long long)x->pc, (unsigned long long)y->pc, x->status, y->status, x->scc, y->scc,
			   (unsigned long long)x->insts, (unsigned long long)run[j], (unsigned long long)y->insts, x->mode,
			   y->mode);
		for (unsigned k = 0; k < 128; k++)
			FUZZ_CHECK(x->s[k] == y->s[k], "wave %u: s[%u] %08x, one at a time %08x", j, k, x->s[k], y->s[k]);
		for (unsigned r = 0; r < NVGPR; r++)
			for (unsigned l = 0; l < x->lanes; l++)
				FUZZ_CHECK(a->rows[j][r][l] == b->rows[j][r][l], "wave %u: v%u lane %u %08x, one at a time %08x",
					   j, r, l, a->rows[j][r][l], b->rows[j][r][l]);
	}
	FUZZ_CHECK(!memcmp(a->lds, b->lds, LDS_BYTES), "the LDS differs");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 8 || size > FUZZ_MAX_INPUT)
		return 0;
	static uint32_t code[MAX_WORDS + 1];
	static uint8_t buf[BUF_BYTES], mem_a[BUF_BYTES], mem_b[BUF_BYTES];
	static side A, B;
	size_t nw = XS_MIN((size - 4) / 4, (size_t)MAX_WORDS);
	memset(code, 0, sizeof(code));
	memcpy(code, data + 4, nw * 4);
	code[nw] = S_ENDPGM;
	unsigned flags = data[0], n = 1 + (flags & 3), lanes = (flags & 4) ? 64 : 32;
	uint64_t seed = 0x9e3779b97f4a7c15ull ^ ((uint64_t)data[1] << 16 | (uint64_t)data[2] << 8 | data[3]);
	rng = seed;
	for (unsigned i = 0; i < BUF_BYTES; i += 8) {
		uint64_t r = next();
		memcpy(buf + i, &r, 8);
	}
	if (!side_open(&A, code, buf) || !side_open(&B, code, buf))
		goto out;
	uint64_t s2 = rng;
	group_init(&A, n, lanes, flags);
	rng = s2;
	group_init(&B, n, lanes, flags);

	/* A: lockstep, once (it returns when a wave stops, faults or parts) */
	xs_wave *ws[MAXW];
	for (unsigned j = 0; j < n; j++)
		ws[j] = &A.w[j];
	uint64_t run[MAXW] = { 0 };
	unsigned f = xs_isa_run_lockstep(&A.ctx, ws, n, STEPS, run);
	FUZZ_CHECK(f <= n, "lockstep returned %u for %u waves", f, n);

	/* B: the same instructions one at a time, in lockstep's order: step by
	 * step, wave by wave; each wave's count frozen during the run as
	 * lockstep freezes it (s_memtime reads it), then what the calls added */
	uint64_t done[MAXW] = { 0 }, added[MAXW] = { 0 }, insts0[MAXW];
	for (unsigned j = 0; j < n; j++)
		insts0[j] = B.w[j].insts;
	for (bool more = true; more;) {
		more = false;
		for (unsigned j = 0; j < n; j++) {
			if (done[j] == run[j])
				continue;
			B.w[j].insts = insts0[j];
			xs_isa_run(&B.ctx, &B.w[j], 1);
			added[j] += B.w[j].insts - insts0[j];
			done[j]++;
			more = true;
		}
	}
	/* A fault found before an instruction runs (its fetch, decode or VGPR
	 * range) counts no instruction: lockstep reports it on wave f, which
	 * one more call of its own meets */
	if (f < n && A.w[f].status == XS_WAVE_FAULT && B.w[f].status != XS_WAVE_FAULT) {
		B.w[f].insts = insts0[f];
		xs_isa_run(&B.ctx, &B.w[f], 1);
		added[f] += B.w[f].insts - insts0[f];
	}
	for (unsigned j = 0; j < n; j++)
		B.w[j].insts = insts0[j] + added[j];
	if (f < n)
		FUZZ_CHECK(B.w[f].status == XS_WAVE_FAULT && A.ctx.fault.kind == B.ctx.fault.kind &&
				   A.ctx.fault.pc == B.ctx.fault.pc && !strcmp(A.ctx.fault.what, B.ctx.fault.what),
			   "lockstep: wave %u faulted (%s); one at a time: status %d (%s)", f, A.ctx.fault.what,
			   B.w[f].status, B.ctx.fault.what);
	same(&A, &B, n, run);
	FUZZ_CHECK(xs_vm_read(A.vm, BUF_VA, mem_a, BUF_BYTES, NULL) && xs_vm_read(B.vm, BUF_VA, mem_b, BUF_BYTES, NULL),
		   "the buffer cannot be read back");
	FUZZ_CHECK(!memcmp(mem_a, mem_b, BUF_BYTES), "the memory differs");
	FUZZ_SAY("%u waves of %u lanes: lockstep %u, %llu instructions of wave 0, status %d", n, lanes, f,
		 (unsigned long long)run[0], A.w[0].status);
out:
	side_close(&A);
	side_close(&B);
	return 0;
}
