/*
 * Interpreter tests: small assembly kernels (tests/isa/asm/NAME.s, assembled at
 * build time by llvm-mc-15 and reduced to their .text bytes) run on a wave
 * set up by hand; registers and memory are checked against the values the
 * RDNA2 ISA defines for them (worked out in the comments).
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

#include "isa/xs_isa.h"

#ifndef XS_ISA_ASM_DIR
#error "XS_ISA_ASM_DIR must name the directory of the assembled test kernels"
#endif

typedef struct rig {
	xs_vm *vm;
	xs_isa_ctx ctx;
	xs_wave w;
	uint32_t (*v)[XS_MAX_LANES];
	uint64_t code_va;
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
	if (st == XS_WAVE_FAULT)
		print_message("fault: kind %d pc 0x%llx addr 0x%llx: %s\n", r->ctx.fault.kind,
			      (unsigned long long)r->ctx.fault.pc, (unsigned long long)r->ctx.fault.addr,
			      r->ctx.fault.what);
	return st;
}

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
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	assert_int_equal(s[10], 1);           /* 0xffffffff + 2 */
	assert_int_equal(s[11], 1);           /* carry out */
	assert_int_equal(s[12], 6);           /* 5 + 0 + carry in */
	assert_int_equal(s[13], 0);
	assert_int_equal(s[14], 0xfffffffe);  /* 5 - 7 */
	assert_int_equal(s[15], 4);           /* 5 - 0 - borrow */
	assert_int_equal(s[16], 0xfffffffe);  /* 0x7fffffff * 2 */
	assert_int_equal(s[17], 1);           /* signed overflow */
	assert_int_equal(s[18], 0x89abcdef);
	assert_int_equal(s[19], 0x01234567);
	assert_int_equal(s[20], 0x9abcdef0);  /* 0x0123456789abcdef << 4 */
	assert_int_equal(s[21], 0x12345678);
	assert_int_equal(s[22], 0x89ab0000);  /* & 0x00000000ffff0000 */
	assert_int_equal(s[23], 0);
	assert_int_equal(s[24], 0x00012345);
	assert_int_equal(s[25], 0xffffffff);
	assert_int_equal(s[26], 0xffffffff);  /* bfe_i32 of 0xf, width 4 */
	assert_int_equal(s[27], 0xf);
	assert_int_equal(s[28], 0xffffffff);  /* min(-1, 5) */
	assert_int_equal(s[29], 1);
	assert_int_equal(s[30], 0xfffffffe);  /* (2^32-1)^2 >> 32 */
	assert_int_equal(s[31], 0xffff8000);  /* simm16 sign-extended */
	assert_int_equal(s[32], 9);           /* 5 != 5 is false */
	assert_int_equal(s[33], 32);          /* popcount(0x0123456789abcdef) */
	assert_int_equal(s[34], 4);
	assert_int_equal(s[35], 24);
	assert_int_equal(s[36], ~5u);
	assert_int_equal(s[38], ~0x89abcdefu);
	assert_int_equal(s[39], ~0x01234567u);
	assert_int_equal(s[40], (uint32_t)-15);
	assert_int_equal(s[41], 27);
	assert_int_equal(s[42], 0);
	assert_int_equal(s[XS_SREG_NULL], 0);
	rig_fini(&r);
}

static void test_vmask_w32(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "vmask_w32", 32, 8, 0);
	r.w.s[XS_SREG_VCC_LO] = 0x5a5a5a5a;
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	uint32_t *s = r.w.s;
	assert_int_equal(s[10], 0x3ff);        /* v_cmpx: EXEC = lanes with 10 > lane */
	assert_int_equal(s[11], 0x5a5a5a5a);   /* VCC untouched by v_cmpx */
	assert_int_equal(s[14], 0x7);
	assert_int_equal(s[15], 1u << 4);
	assert_int_equal(s[12], 0xffffffff);   /* saveexec returned the old EXEC */
	assert_int_equal(s[13], 0);            /* skipped by s_cbranch_execz */
	assert_int_equal(s[XS_SREG_EXEC_LO], 0xffffffff);
	for (unsigned l = 0; l < 32; l++) {
		assert_int_equal(r.v[1][l], l < 10 ? 5 : 0);
		assert_int_equal(r.v[2][l], l < 3 ? 9 : 7);
		assert_int_equal(r.v[3][l], l == 4 ? 9 : 100);
		assert_int_equal(r.v[4][l], l < 3 ? 77 : 0);
	}
	rig_fini(&r);
}

static void test_vmask_w64(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "vmask_w64", 64, 8, 0);
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	uint32_t *s = r.w.s;
	assert_int_equal(s[10], 0xffffffff);   /* lanes 0..31 */
	assert_int_equal(s[11], 0xff);         /* lanes 32..39 */
	assert_int_equal(s[12], 0xffffffff);
	assert_int_equal(s[13], 0xffffffff);
	assert_int_equal(s[14], 0);
	assert_int_equal(s[15], 1u << 1);      /* lane 33 */
	assert_int_equal(s[16], 0);            /* EXEC after v_cmpx: lanes 48..63 */
	assert_int_equal(s[17], 0xffff0000);
	assert_int_equal(s[18], 0xfffffffe);   /* carry out of lane + 0xffffffff for lanes >= 1 */
	assert_int_equal(s[19], 0xffffffff);
	for (unsigned l = 0; l < 64; l++) {
		assert_int_equal(r.v[1][l], l < 40 ? 9 : 7);
		assert_int_equal(r.v[3][l], l < 40 ? 1 : 0);
		assert_int_equal(r.v[4][l], l >= 48 ? 2 : 0);
		assert_int_equal(r.v[5][l], l - 1);
	}
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
	s[1] = (uint32_t)(base >> 32) | 1u << 31;
	s[2] = 0xffffffffu;
	s[3] = 2u << 21 | 1u << 23 | 3u << 28;
	s[4] = 0x100;
	for (unsigned l = 0; l < 32; l++) {
		r.v[1][l] = 0x1000 + l;
		r.v[2][l] = 0x2000 + l;
		r.v[3][l] = 16;
		r.v[7][l] = 0x7000 + l;
		r.v[8][l] = 0x8000 + l;
		r.v[11][l] = 0x80 + l;
	}
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	/* addr = base + soffset + (offset / 4 * 4) * 32 + lane * 4 + offset % 4 */
	for (unsigned l = 0; l < 32; l++) {
		uint64_t b = base + 0x100 + l * 4;
		assert_int_equal(rd32(&r, b + 8 * 32), 0x1000 + l);      /* offset 8 */
		assert_int_equal(rd32(&r, b + 20 * 32), 0x2000 + l);     /* 16 + 4 */
		assert_int_equal(rd32(&r, b + 32 * 32), 0x7000 + l);     /* x2: dword 0 at 32 */
		assert_int_equal(rd32(&r, b + 36 * 32), 0x8000 + l);     /*     dword 1 at 36 */
		assert_int_equal(rd32(&r, b + 64 * 32) >> 8 & 0xff, 0x80 + l); /* byte 65 */
		assert_int_equal(r.v[5][l], 0x1000 + l);
		assert_int_equal(r.v[6][l], 0x2000 + l);
		assert_int_equal(r.v[9][l], 0x7000 + l);
		assert_int_equal(r.v[10][l], 0x8000 + l);
		assert_int_equal(r.v[12][l], 0x80 + l);
		assert_int_equal(r.v[13][l], (uint32_t)(int32_t)(int8_t)(0x80 + l));
	}
	rig_fini(&r);
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
	/* raw: NUM_RECORDS = 16 bytes, OOB_SELECT 3 */
	s[0] = (uint32_t)buf; s[1] = (uint32_t)(buf >> 32); s[2] = 16; s[3] = 3u << 28;
	/* structured: STRIDE 8, NUM_RECORDS = 3, OOB_SELECT 1 */
	s[4] = (uint32_t)buf; s[5] = (uint32_t)(buf >> 32) | 8u << 16; s[6] = 3; s[7] = 1u << 28;
	for (unsigned l = 0; l < 32; l++) {
		r.v[0][l] = l * 4;
		r.v[2][l] = 0xbeef0000 + l;
		r.v[6][l] = l;          /* index */
		r.v[7][l] = 0;          /* offset for the idxen+offen load */
	}
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	for (unsigned l = 0; l < 32; l++) {
		assert_int_equal(r.v[1][l], l < 4 ? 0xa000 + l : 0);      /* offsets 0..12 in range */
		assert_int_equal(rd32(&r, buf + 4 * l), l < 4 ? 0xbeef0000 + l : 0xa000 + l);
		assert_int_equal(r.v[3][l], 0xbeef0003);                   /* offset 12: in range */
		assert_int_equal(r.v[4][l], 0);                            /* offset 16: out of range */
		/* record l at buf + 8 l; index >= 3 is out of range */
		assert_int_equal(r.v[5][l], l < 3 ? rd32(&r, buf + 8 * l + 4) : 0);
	}
	/* idxen + offen: vaddr v[6:7] = (index, offset); v7 was overwritten by the
	 * load before, so only check that lanes past NUM_RECORDS read 0 */
	for (unsigned l = 3; l < 32; l++)
		assert_int_equal(r.v[7][l], 0);
	rig_fini(&r);
}

static void test_lds(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "lds", 32, 16, 0);
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	uint32_t sum = 0;
	for (unsigned l = 0; l < 32; l++)
		sum += l;
	for (unsigned l = 0; l < 32; l++) {
		assert_int_equal(r.v[4][l], l);
		assert_int_equal(r.v[5][l], 100 + l);
		assert_int_equal(r.v[6][l], 200 + l);
		assert_int_equal(r.v[7][l], l);
		assert_int_equal(r.v[8][l], 200 + l);
		assert_int_equal(r.v[10][l], 0);
		assert_int_equal(r.v[13][l], sum);
		assert_int_equal(r.v[14][l], 0);           /* high half of 100 + l */
		assert_int_equal(r.v[15][l], (l + 1) & 31);
	}
	/* ds_add_rtn returns the value before each lane's add, in lane order */
	uint32_t acc = 0;
	for (unsigned l = 0; l < 32; l++) {
		assert_int_equal(r.v[11][l], acc);
		acc += l;
	}
	rig_fini(&r);
}

static void test_loop(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "loop", 32, 1, 0);
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	assert_int_equal(r.w.s[1], 45);
	assert_int_equal(r.w.s[0], 10);
	assert_int_equal(r.w.insts, 2 + 10 * 4 + 1);
	rig_fini(&r);
}

static void test_call(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "call", 32, 1, 0);
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	assert_int_equal(r.w.s[4], 1);
	assert_int_equal(r.w.s[5], 2);
	uint64_t ret = r.w.s[30] | (uint64_t)r.w.s[31] << 32;
	assert_true(ret == r.code_va + 20);
	rig_fini(&r);
}

static void test_unimplemented(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "unimpl", 32, 8, 0);
	assert_int_equal(run(&r), XS_WAVE_FAULT);
	assert_int_equal(r.ctx.fault.kind, XS_FAULT_UNIMPLEMENTED);
	assert_true(r.ctx.fault.pc == r.code_va + 4);
	assert_non_null(strstr(r.ctx.fault.what, "image_load"));
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
	assert_int_equal(run(&r), XS_WAVE_FAULT);
	assert_int_equal(r.ctx.fault.kind, XS_FAULT_VM);
	assert_true(r.ctx.fault.addr == 0x7f0000000000ull + 0x400 + 16);
	assert_true(r.ctx.fault.pc == r.code_va + 8);
	assert_non_null(strstr(r.ctx.fault.what, "global_load_dword"));
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
	assert_int_equal(run(&r), XS_WAVE_BARRIER);
	assert_int_equal(r.w.s[0], 1);
	assert_int_equal(r.w.s[1], 0);
	assert_true(r.w.pc == r.code_va + 8);   /* already past s_barrier */
	r.w.status = XS_WAVE_READY;             /* the SPI releases the group */
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	assert_int_equal(r.w.s[1], 2);
	rig_fini(&r);
}

static void test_budget(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "loop", 32, 1, 0);
	assert_int_equal(xs_isa_run(&r.ctx, &r.w, 5), XS_WAVE_READY);
	assert_int_equal(r.w.insts, 5);
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	assert_int_equal(r.w.s[1], 45);
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
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	for (unsigned l = 0; l < 32; l++) {
		/* SDWA: byte 1 of v2 (0xff) & v3 into WORD_1, low word preserved */
		assert_int_equal(r.v[1][l], 0x00ffaaaa);
		/* row_shr:1 without bound_ctrl: lane 0 of each row of 16 keeps v4 */
		assert_int_equal(r.v[4][l], (l & 15) == 0 ? 0xdead : l - 1);
		assert_int_equal(r.v[5][l], (l & ~3u) | (3 - (l & 3)));
		assert_int_equal(r.v[6][l], l - 1);
		/* VCC carry-in: lanes 0..15 add 1 */
		assert_int_equal(r.v[7][l], l + (l < 16));
		uint64_t mad = (uint64_t)(0x10000 + l) * 0x10001 + (0x100000000ull + l);
		assert_int_equal(r.v[8][l], (uint32_t)mad);
		assert_int_equal(r.v[9][l], (uint32_t)(mad >> 32));
		assert_int_equal(r.v[11][l], f2u((float)l));
		assert_int_equal(r.v[12][l], f2u((float)l + 0.5f));
		assert_int_equal(r.v[13][l], f2u((float)l * u2f(0x3e22f983)));   /* 1/(2 pi) inline */
		assert_int_equal(r.v[14][l], f2u(fmaf((float)l, (float)l, 1.0f)));
		assert_int_equal(r.v[15][l], f2u(1.0f / (float)l));
		assert_int_equal(r.v[16][l], l);                                  /* trunc(l + 0.5) */
		uint64_t sh = (0x100000000ull + l) << 33;
		assert_int_equal(r.v[17][l], (uint32_t)sh);
		assert_int_equal(r.v[18][l], (uint32_t)(sh >> 32));
		assert_int_equal(r.v[19][l], 0x12345678 + l);
		assert_int_equal(r.v[24][l], 0x2468 + l);                         /* one literal, used twice */
		assert_int_equal(r.v[25][l], l == 3 ? 0x10005 : 0x5555);
		assert_int_equal(r.v[26][l], (l & ~7u) | (7 - (l & 7)));          /* dpp8 reversal */
		assert_int_equal(r.v[27][l], l < 5 ? 0 : l - 5);                  /* clamp: no wrap */
		assert_int_equal(r.v[28][l], (uint32_t)(((uint64_t)(0x10000 + l) * (0x10000 + l)) >> 32));
		assert_int_equal(r.v[29][l], 0xff);
		assert_int_equal(r.v[30][l], (l << 4) + 3);
	}
	assert_int_equal(r.w.s[10], 0xfffffffe);
	assert_int_equal(r.w.s[11], 0);          /* no carry out of 64 bits */
	assert_int_equal(r.w.s[12], 0x10005);
	assert_int_equal(r.w.s[13], 8);          /* first active lane of 0xff00 */
	rig_fini(&r);
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
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	assert_true(r.w.flat_scratch == scr);
	assert_int_equal(s[2], (uint32_t)scr);
	assert_int_equal(s[3], XS_SH_MEM_BASES);
	assert_int_equal(s[4], 0x2f0);            /* FloatMode 0xf0 | IEEE (bit 9) */
	assert_int_equal(s[5], 0x2f3);            /* round bits set by s_setreg_imm32 */
	assert_int_equal(s[9], XS_APERTURE_PRIVATE_BASE >> 32);
	assert_int_equal(s[11], XS_APERTURE_SHARED_BASE >> 32);
	/* private byte p of lane l: scratch + p / 4 * 32 * 4 + l * 4 + p % 4 */
	for (unsigned l = 0; l < 32; l++) {
		assert_int_equal(rd32(&r, scr + 2 * 128 + l * 4), 1000 + l);    /* p = 8 */
		assert_int_equal(rd32(&r, scr + 12 * 128 + l * 4), 1001 + l);   /* p = 48 */
		assert_int_equal(rd32(&r, scr + 13 * 128 + l * 4), 1002 + l);   /* p = 52 */
		assert_int_equal(rd32(&r, scr + 5 * 128 + l * 4), 1000 + l);    /* flat p = 20 */
		assert_int_equal(r.v[3][l], 1000 + l);
		assert_int_equal(r.v[8][l], 1001 + l);
		assert_int_equal(r.v[9][l], 1002 + l);
		assert_int_equal(r.v[10][l], 1000 + l);
		assert_int_equal(r.v[13][l], 1000 + l);   /* LDS through the shared aperture */
	}
	rig_fini(&r);
}

/* An instruction that straddles a 4 KiB page end is fetched across it. */
static void test_straddle(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "straddle", 32, 4, 4096 - 4);
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	for (unsigned l = 0; l < 32; l++)
		assert_int_equal(r.v[1][l], 0x12345678 + l);
	rig_fini(&r);
}

static void test_vgpr_bound(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "vgpr_bound", 32, 4, 0);
	assert_int_equal(run(&r), XS_WAVE_FAULT);
	assert_int_equal(r.ctx.fault.kind, XS_FAULT_ILLEGAL);
	assert_true(r.ctx.fault.pc == r.code_va + 4);
	assert_int_equal(r.v[1][0], 1);
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
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	/* atomics run lane by lane: add returns 10, 11, ...; the word ends at 42,
	 * then only lane 0's cmpswap (compare 42) succeeds */
	assert_int_equal(rd32(&r, word), 100);
	for (unsigned l = 0; l < 32; l++) {
		assert_int_equal(r.v[5][l], 10 + l);
		assert_int_equal(r.v[9][l], l == 0 ? 42 : 100);
		assert_int_equal(r.v[1][l] & 0xffff, 0x3c00);
		assert_int_equal(r.v[2][l] & 0xffff, 0x3c01);
		assert_int_equal(r.v[13][l], 0x33800000);
		assert_int_equal(r.v[4][l], 0x00ff4488);
		assert_int_equal(r.v[12][l], l ^ 1);
		assert_int_equal(r.v[18][l], 0x40803e00);   /* {1.5, 2.25} */
		assert_int_equal(r.v[21][l], 0x7f800000);
	}
	assert_int_equal(r.w.s[10], 1);
	assert_int_equal(r.w.s[11], 0x1f);
	rig_fini(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_salu),
		cmocka_unit_test(test_vmask_w32),
		cmocka_unit_test(test_vmask_w64),
		cmocka_unit_test(test_mubuf_scratch),
		cmocka_unit_test(test_mubuf_oob),
		cmocka_unit_test(test_lds),
		cmocka_unit_test(test_loop),
		cmocka_unit_test(test_call),
		cmocka_unit_test(test_unimplemented),
		cmocka_unit_test(test_vm_fault),
		cmocka_unit_test(test_fetch_fault),
		cmocka_unit_test(test_barrier),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_valu),
		cmocka_unit_test(test_hwreg_scratch),
		cmocka_unit_test(test_straddle),
		cmocka_unit_test(test_vgpr_bound),
		cmocka_unit_test(test_misc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
