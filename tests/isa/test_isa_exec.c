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
#include "isa/xs_isa_disasm.h"
#include "hw/xs_hw_regs.h"

#ifndef XS_ISA_ASM_DIR
#error "XS_ISA_ASM_DIR must name the directory of the assembled test kernels"
#endif
#ifndef XS_ISA_ASM_SRC_DIR
#error "XS_ISA_ASM_SRC_DIR must name the directory of their sources (expectations in comments)"
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

/* ---- edge semantics (fp specials, conversions, shifts, division, EXEC,
 * MODE, buffers, lanes, atomics): each expected value is derived in the
 * assembly file's comments from the ISA text it cites. ------------------- */

/* Every lane of VGPR v holds want. */
static void lanes_eq(rig *r, unsigned v, uint32_t want)
{
	for (unsigned l = 0; l < r->w.lanes; l++) {
		if (r->v[v][l] != want)
			fail_msg("v%u lane %u: 0x%08x, want 0x%08x", v, l, r->v[v][l], want);
	}
}

static void lanes_nan(rig *r, unsigned v)
{
	for (unsigned l = 0; l < r->w.lanes; l++) {
		uint32_t u = r->v[v][l];
		if ((u & 0x7f800000u) != 0x7f800000u || !(u & 0x007fffffu))
			fail_msg("v%u lane %u: 0x%08x, want a NaN", v, l, u);
	}
}

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
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	lanes_nan(&r, 1);
	lanes_nan(&r, 2);
	lanes_eq(&r, 3, 0x3f800000);
	lanes_eq(&r, 4, 0x7fe00000);
	lanes_eq(&r, 5, 0x00000000);
	lanes_eq(&r, 6, 0x80000000);
	lanes_eq(&r, 7, 0x3f800000);
	lanes_eq(&r, 8, 0x40000000);
	lanes_eq(&r, 9, 0x7f800000);
	lanes_eq(&r, 10, 0x00000000);
	lanes_eq(&r, 11, 0xff800000);
	lanes_eq(&r, 12, 0xff800000);
	lanes_eq(&r, 13, 0x00000000);
	lanes_eq(&r, 14, 0x00000000);
	lanes_eq(&r, 15, 0x3f800000);
	lanes_eq(&r, 16, 0x00000000);
	lanes_eq(&r, 17, 0x00000000);
	lanes_eq(&r, 18, 0xffc00000);
	lanes_eq(&r, 19, 0x7f800000);
	lanes_eq(&r, 20, (uint32_t)-148);
	lanes_eq(&r, 21, 0x00000001);
	lanes_eq(&r, 22, 0x00000000);
	lanes_eq(&r, 23, 0x3f7fffff);
	assert_int_equal(s[20], 0xffffffff);
	assert_int_equal(s[21], 0xffffffff);
	lanes_eq(&r, 24, 0xffc00000);
	lanes_eq(&r, 25, 0xff800000);
	lanes_eq(&r, 26, 0x00000000);
	lanes_eq(&r, 27, 0x7fc00001);
	lanes_eq(&r, 28, 0x7f800000);
	lanes_eq(&r, 29, 0xc0400000);
	lanes_eq(&r, 30, 0x80000000);
	lanes_eq(&r, 31, 0x00000000);
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
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	lanes_eq(&r, 1, 0);
	lanes_eq(&r, 2, 0x7fffffff);
	lanes_eq(&r, 3, 0x80000000);
	lanes_eq(&r, 4, 0x7fffffff);
	lanes_eq(&r, 5, (uint32_t)-2);
	lanes_eq(&r, 6, 0);
	lanes_eq(&r, 7, 0xffffffff);
	lanes_eq(&r, 8, 0);
	lanes_eq(&r, 9, (uint32_t)-1);
	lanes_eq(&r, 10, (uint32_t)-2);
	lanes_eq(&r, 11, 3);
	lanes_eq(&r, 12, 0x7c00);
	lanes_eq(&r, 13, 0x7bff);
	lanes_eq(&r, 14, 0x0000);
	lanes_eq(&r, 15, 0x0001);
	lanes_eq(&r, 16, 0xfbff7bff);
	lanes_eq(&r, 17, 0x4f000000);
	lanes_eq(&r, 18, 0x3f800000);
	lanes_eq(&r, 19, 0x00000000);
	lanes_eq(&r, 20, 0x00000000);
	lanes_eq(&r, 21, 0xffffffff);
	lanes_eq(&r, 22, 0);
	lanes_eq(&r, 23, 0x7fffffff);
	lanes_eq(&r, 24, 0x80000000);
	lanes_eq(&r, 25, 0xffffffff);
	assert_int_equal(s[20], 0xffffffff);
	lanes_eq(&r, 26, 0x0000ff00);
	lanes_eq(&r, 27, 0x0000ff00);
	lanes_eq(&r, 28, 0);
	lanes_eq(&r, 29, 0x7fff);
	rig_fini(&r);
}

static void test_shift(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "shift", 32, 32, 0);
	uint32_t *s = r.w.s;
	s[0] = 1; s[1] = 0x80000000; s[2] = 1; s[3] = 0x80000000; s[4] = 0xf0f0f0f0;
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	lanes_eq(&r, 1, 2);
	lanes_eq(&r, 2, 0x80000000);
	lanes_eq(&r, 3, 0xffffffff);
	lanes_eq(&r, 4, 1);
	lanes_eq(&r, 5, 0x80000000);
	lanes_eq(&r, 6, 2);
	lanes_eq(&r, 7, 0);
	lanes_eq(&r, 8, 1);
	lanes_eq(&r, 9, 0);
	lanes_eq(&r, 10, 0xffffffff);
	lanes_eq(&r, 11, 0xffffffff);
	lanes_eq(&r, 12, 0xf);
	lanes_eq(&r, 13, 0);
	lanes_eq(&r, 14, 1);
	lanes_eq(&r, 15, 0);
	lanes_eq(&r, 16, 0x0002);
	lanes_eq(&r, 17, 0xffff);
	assert_int_equal(s[10], 1);
	assert_int_equal(s[12], 1);
	assert_int_equal(s[13], 0x80000000);
	assert_int_equal(s[14], 0xc0000000);
	assert_int_equal(s[16], 0);
	assert_int_equal(s[18], 0);
	assert_int_equal(s[19], 0x80000000);
	rig_fini(&r);
}

/* Integer ops on operands at the edges of their range (asm/intovf.s): the
 * ISA's modular results, computed without signed overflow in C (which the
 * sanitizer build reports). */
static void test_int_overflow(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "intovf", 32, 32, 0);
	uint32_t *s = r.w.s;
	s[0] = 0x80000000u; s[1] = 0xffffffffu; s[2] = 0x7fffffffu; s[3] = 0x00800000u;
	s[4] = 0x007fffffu; s[5] = 0x80008000u; s[6] = 0x80808080u; s[7] = 0x88888888u;
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	static const uint32_t want[][2] = {
		{ 1, 0x00800000 }, { 2, 0xffffc000 }, { 3, 0xffffffff }, { 4, 0x00800000 },
		{ 5, 0x7fffffff }, { 6, 0 }, { 7, 0x40000000 }, { 8, 0x40000000 }, { 9, 0x80000000 },
		{ 10, 0x80000000 }, { 11, 0x7fffffff }, { 12, 0x3fffffff }, { 13, 0x8000 },
		{ 14, 0x80008000 }, { 15, 0 }, { 16, 0x7fff8000 }, { 17, 0x8000ffff }, { 18, 0x200 },
		{ 19, 0xfe000001 }, { 20, 0xffff }, { 21, 0xfe000000 }, { 22, 0xffffffff }, { 23, 1 },
		{ 24, 0x7f000000 }, { 25, 0x37c }, { 26, 0xffffffff }, { 27, 0 }, { 28, 0xfffffffe },
	};
	for (unsigned i = 0; i < XS_ARRAY_SIZE(want); i++)
		lanes_eq(&r, want[i][0], want[i][1]);
	assert_int_equal(s[20], 0);            /* v_mad_i64_i32: no carry */
	assert_int_equal(s[21], 0xffffffff);   /* v_mad_u64_u32: carry in every lane */
	assert_int_equal(s[10], 0x80000000);
	assert_int_equal(s[11], 0x40000000);
	assert_int_equal(s[12], 0x7fffffff);
	assert_int_equal(s[13], 1);
	assert_int_equal(s[14], 0x80000000);
	assert_int_equal(s[15], 1);
	assert_int_equal(s[16], 0x80000000);
	assert_int_equal(s[17], 1);
	assert_int_equal(s[18], 0xffffffff);
	assert_int_equal(s[19], 0x80000000);
	assert_int_equal(s[22], 1);
	assert_int_equal(s[23], 0x80000000);
	assert_int_equal(s[24], 0x80000000);
	assert_int_equal(s[25], 0xffffffff);
	assert_int_equal(s[26], 0xffffffff);
	assert_int_equal(s[27], 1);
	assert_int_equal(s[28], 0xffffffff);
	assert_int_equal(s[29], 0xffffffff);
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

static void test_intdiv_zero(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "intdiv", 32, 16, 0);
	r.w.s[0] = 0;
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	lanes_eq(&r, 10, 0xffffffff);
	for (unsigned l = 0; l < 32; l++) {
		assert_int_equal(r.v[3][l], l ? l + 1 : 2);
		assert_int_equal(r.v[4][l], l);
	}
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
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	lanes_eq(&r, 1, 0x11);
	lanes_eq(&r, 2, 0x22);
	lanes_eq(&r, 5, 0x55);
	lanes_eq(&r, 12, 0);                         /* LDS never written */
	assert_int_equal(r.w.s[XS_SREG_VCC_LO], 0x00000f00);   /* from the partial-EXEC compare */
	assert_int_equal(r.w.s[10], 0);
	assert_int_equal(r.w.s[11], 0);
	assert_int_equal(r.w.s[13], 0x00000f00);
	assert_int_equal(rd32(&r, word), 5 + 8 * 0x10);
	for (unsigned l = 0; l < 32; l++) {
		assert_int_equal(r.v[4][l], l == 3 ? 0x77 : 0);
		bool on = l >= 8 && l < 16;
		assert_int_equal(r.v[6][l], on ? 7 : 0);
		assert_int_equal(r.v[7][l], on ? 0x10 : 0);
		assert_int_equal(r.v[13][l], on ? 5 + (l - 8) * 0x10 : 0);
	}
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
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	lanes_eq(&r, 1, 0x3f800001);
	lanes_eq(&r, 2, 0x3f800000);
	lanes_eq(&r, 3, 0x4effffff);
	lanes_eq(&r, 4, 0xbf800000);
	lanes_eq(&r, 5, 0xbf800001);
	lanes_eq(&r, 6, 0x80000000);
	lanes_eq(&r, 7, 0x34900000);
	lanes_eq(&r, 8, 0x3f800001);
	lanes_eq(&r, 9, 0x00000000);
	lanes_eq(&r, 10, 0x00000001);
	lanes_eq(&r, 11, 0x3ff00000);
	lanes_eq(&r, 12, 0x3c00);
	lanes_eq(&r, 13, 0x3c01);
	lanes_eq(&r, 14, 0x7bff);
	lanes_eq(&r, 15, 0x00000000);
	lanes_eq(&r, 16, 0x3c300000);
	lanes_eq(&r, 17, 0);
	lanes_eq(&r, 18, 0);
	lanes_eq(&r, 19, 0);
	lanes_eq(&r, 20, 0x00800001);
	lanes_eq(&r, 21, 0);
	lanes_eq(&r, 22, 0);
	lanes_eq(&r, 23, 0x00400000);
	lanes_eq(&r, 24, 0x3f800000);
	lanes_eq(&r, 25, 0x40000000);
	lanes_eq(&r, 26, 0x3f800000);
	assert_int_equal(s[20], 0xf3);
	lanes_eq(&r, 27, 0x7f7fffff);
	lanes_eq(&r, 28, 0xff800000);
	lanes_eq(&r, 29, 0x7f7fffff);
	lanes_eq(&r, 31, 0x7f800000);
	rig_fini(&r);
}

static void test_mode_fault(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "mode_fault", 32, 8, 0);
	assert_int_equal(run(&r), XS_WAVE_FAULT);
	assert_int_equal(r.ctx.fault.kind, XS_FAULT_UNIMPLEMENTED);
	assert_true(r.ctx.fault.pc == r.code_va + 4);
	assert_non_null(strstr(r.ctx.fault.what, "v_fma_f64"));
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
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	lanes_eq(&r, 1, 0x20000000);
	assert_int_equal(s[10], 0);
	lanes_eq(&r, 2, 0x5f000000);
	assert_int_equal(s[11], 0xffffffff);
	lanes_eq(&r, 3, 0x3f800000);
	assert_int_equal(s[12], 0xffffffff);
	lanes_eq(&r, 4, 0x71800000);
	assert_int_equal(s[13], 0xffffffff);
	lanes_eq(&r, 5, 0x5a800000);
	assert_int_equal(s[14], 0xffffffff);
	lanes_eq(&r, 6, 0x28800000);
	assert_int_equal(s[15], 0);
	lanes_nan(&r, 7);
	assert_int_equal(s[16], 0);
	lanes_eq(&r, 8, 0x60400000);
	lanes_eq(&r, 9, 0x20000000);
	lanes_eq(&r, 10, 0x40000000);
	lanes_eq(&r, 11, 0);
	lanes_eq(&r, 12, 0xfff80000);
	lanes_eq(&r, 13, 0);
	lanes_eq(&r, 14, 0x7ff00000);
	lanes_eq(&r, 15, 0x6dc9c882);
	lanes_eq(&r, 16, 0x3fe45f30);
	lanes_eq(&r, 17, 0x9d5f47d4u);
	lanes_eq(&r, 18, 0x3c94a7f0);
	lanes_eq(&r, 25, 0x7ff80000);
	assert_int_equal(s[17], 0);
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
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	assert_int_equal(r.w.s[3], 103);
	for (unsigned l = 0; l < 32; l++) {
		unsigned row = l & ~15u, i = l & 15;
		assert_int_equal(r.v[3][l], 100 + (l ^ 1));
		assert_int_equal(r.v[4][l], 100 + ((l & ~3u) | 1));
		assert_int_equal(r.v[5][l], 131);
		assert_int_equal(r.v[8][l], 100 + 31 - l);
		assert_int_equal(r.v[10][l], l == 0 ? 131 : 0);
		assert_int_equal(r.v[12][l], l < 16 ? 0 : 0xdead);
		assert_int_equal(r.v[13][l], l < 14 ? 102 + l : l < 16 ? 0 : 0xdead);
		assert_int_equal(r.v[14][l], i == 15 ? 0 : 101 + l);
		assert_int_equal(r.v[15][l], i == 15 ? 0xffffffff : 101 + l);
		assert_int_equal(r.v[16][l], l < 8 ? 100 + ((l - 1) & 15) : 0xffffffff);
		assert_int_equal(r.v[17][l], 100 + (row | (i ^ 15)));
		assert_int_equal(r.v[18][l], 200 + (l & ~3u) + l);
		assert_int_equal(r.v[19][l], 100 + row + 15 - i);
		assert_int_equal(r.v[20][l], l < 16 ? 116 : 100);
		assert_int_equal(r.v[22][l], l - 1);
		assert_int_equal(r.v[23][l], 0xff800000);
		assert_int_equal(r.v[24][l], 0x12348080);
		assert_int_equal(r.v[25][l], 100 + (l ^ 1));
	}
	rig_fini(&r);
}

static void test_pk_f16(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "pk", 32, 24, 0);
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
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	lanes_eq(&r, 3, 0xbc003e00);
	lanes_eq(&r, 4, 0xc0004100);
	lanes_eq(&r, 5, 0x4600b800);
	lanes_eq(&r, 6, 0x40754075);
	lanes_eq(&r, 10, 0x4075);
	lanes_eq(&r, 14, 0x4075);
	lanes_eq(&r, 16, 0x3c004200);
	lanes_eq(&r, 17, 0x41001234);
	lanes_eq(&r, 15, 0x3e005678);
	lanes_eq(&r, 18, 0x3c003c00);
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
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	for (unsigned l = 0; l < 32; l++) {
		bool even = (l & 1) == 0;
		assert_int_equal(r.v[6][l], (uint32_t)(0xfffffffeull + l));
		assert_int_equal(r.v[7][l], l >= 2 ? 1 : 0);
		assert_int_equal(r.v[10][l], l + 1);
		assert_int_equal(r.v[11][l], 1);
		assert_int_equal(r.v[16][l], 7);
		assert_int_equal(r.v[18][l], 0);
		assert_int_equal(r.v[20][l], 0);
		assert_int_equal(r.v[22][l], 0xffffffff);
		assert_int_equal(r.v[23][l], 5);
		assert_int_equal(r.v[26][l], l);
		uint64_t a = base + 16 * l;
		assert_int_equal(rd32(&r, a), even ? 0x9abcdef0 : l + 1);
		assert_int_equal(rd32(&r, a + 4), even ? 0x12345678 : 1);
		assert_int_equal(rd32(&r, a + 8), 0xffffffff);
		assert_int_equal(rd32(&r, a + 12), 0xaa);
		assert_int_equal(r.v[32][l], 0xffffffff);
		assert_int_equal(r.v[33][l], l);
		assert_int_equal(r.v[38][l], 0);
		assert_int_equal(r.v[39][l], l + 1);
		assert_int_equal(r.v[41][l], 3);
		assert_int_equal(r.v[43][l], 0);
		assert_int_equal(r.v[44][l], even ? 0xdead : 0);
		assert_int_equal(r.v[45][l], even ? 0xbeef : l + 1);
		assert_int_equal(r.v[46][l], even ? 0xdead : 0);
		assert_int_equal(r.v[47][l], even ? 0xbeef : l + 1);
		assert_int_equal(r.v[48][l], 0);
		assert_int_equal(r.v[49][l], 9);
	}
	rig_fini(&r);
}

static void test_buffer_oob(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "bufoob", 32, 8, 0);
	uint64_t buf = vm_alloc(&r, 4096);
	for (uint32_t i = 0; i < 8; i++)
		assert_true(xs_vm_write(r.vm, buf + 4 * i, &(uint32_t){ 0xa000 + i }, 4, NULL));
	uint32_t *s = r.w.s;
	s[0] = (uint32_t)buf; s[1] = (uint32_t)(buf >> 32); s[2] = 16; s[3] = 3u << 28;
	for (unsigned l = 0; l < 32; l++) {
		r.v[0][l] = l * 4;
		r.v[3][l] = 0x1000;
	}
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	lanes_eq(&r, 1, 0xa003);
	lanes_eq(&r, 2, 0);
	lanes_eq(&r, 7, 0);
	for (unsigned l = 0; l < 32; l++) {
		assert_int_equal(r.v[5][l], l < 3 ? 0xa000 + l : l == 3 ? 0x1000 : 0);
		assert_int_equal(r.v[6][l], l < 3 ? 0xa0 : l == 3 ? 0x10 : 0);
	}
	for (uint32_t i = 0; i < 8; i++)
		assert_int_equal(rd32(&r, buf + 4 * i), i < 3 ? 0xa001 + i : i == 3 ? 0x1001 : 0xa000 + i);
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
	assert_int_equal(run(&r), XS_WAVE_ENDED);
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
		assert_int_equal(run(&r), XS_WAVE_ENDED);
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
	s[1] = (uint32_t)((base >> 40) & 0xff) | (grow & 0xff) << 23 | (uint32_t)sort << 31;
	s[2] = 0xffffffffu;
	s[3] = 0x3ffu | (uint32_t)ij << 24 | 8u << 28;
}

/* The "// expect vN: w0 w1 w2 w3" lines of an assembly source: each word a
 * hex integer or a float (its binary32 bits). Returns the count. */
typedef struct bvh_expect {
	unsigned reg, line;
	uint32_t w[4];
} bvh_expect;

static unsigned read_expects(const char *name, bvh_expect *ex, unsigned max)
{
	char path[512], buf[256];
	snprintf(path, sizeof(path), "%s/%s.s", XS_ISA_ASM_SRC_DIR, name);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	unsigned n = 0, line = 0;
	while (fgets(buf, sizeof(buf), f)) {
		line++;
		char *p = strstr(buf, "// expect v");
		if (!p)
			continue;
		assert_true(n < max);
		p += strlen("// expect v");
		ex[n].reg = (unsigned)strtoul(p, &p, 10);
		ex[n].line = line;
		assert_int_equal(*p, ':');
		p++;
		for (unsigned k = 0; k < 4; k++) {
			while (*p == ' ')
				p++;
			char *end;
			if (p[0] == '0' && p[1] == 'x') {
				ex[n].w[k] = (uint32_t)strtoul(p, &end, 16);
			} else {
				float v = strtof(p, &end);
				memcpy(&ex[n].w[k], &v, 4);
				if (strchr(" \n", *end) == NULL)
					end = p;
				else if (end - p == 1 && v == 0.0f)
					ex[n].w[k] = 0;     /* "0": the word 0 */
				else if (end - p == 1 && v == 1.0f && *p == '1')
					ex[n].w[k] = 1;     /* "1": the integer 1 */
			}
			assert_true(end > p);
			p = end;
		}
		n++;
	}
	fclose(f);
	return n;
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

	assert_int_equal(run(&r), XS_WAVE_ENDED);
	bvh_expect ex[64];
	unsigned n = read_expects("bvh", ex, 64);
	assert_int_equal(n, 29);   /* every case of bvh.s */
	unsigned bad = 0;
	for (unsigned i = 0; i < n; i++)
		for (unsigned l = 0; l < 32; l++)
			for (unsigned k = 0; k < 4; k++)
				if (r.v[ex[i].reg + k][l] != ex[i].w[k] && bad++ < 12)
					print_message("bvh.s:%u: v%u lane %u = 0x%08x, want 0x%08x\n", ex[i].line,
						      ex[i].reg + k, l, r.v[ex[i].reg + k][l], ex[i].w[k]);
	assert_int_equal(bad, 0);
	rig_fini(&r);
}

static void test_bvh_fault(void **state)
{
	(void)state;
	rig r;
	rig_init(&r, "bvh_fault", 32, 32, 0);
	bvh_tsharp(&r.w.s[0], r.code_va, 0, true, true);
	assert_int_equal(run(&r), XS_WAVE_FAULT);
	assert_int_equal(r.ctx.fault.kind, XS_FAULT_VM);
	assert_int_equal(r.ctx.fault.addr, r.code_va + 0x100000);   /* lane 1's node */
	assert_non_null(strstr(r.ctx.fault.what, "image_bvh_intersect_ray"));
	assert_non_null(strstr(r.ctx.fault.what, "lane 1"));
	/* the wave stopped on the instruction, with no result written */
	assert_int_equal(r.w.pc, r.ctx.fault.pc);
	assert_int_equal(rd32(&r, r.w.pc), 0xf1989f01u);
	for (unsigned l = 0; l < 32; l++)
		for (unsigned k = 0; k < 4; k++)
			assert_int_equal(r.v[20 + k][l], 0x600d);
	/* a T# whose type is not 8 is refused (illegal, not a memory access) */
	rig_fini(&r);
	rig_init(&r, "bvh_fault", 32, 32, 0);
	bvh_tsharp(&r.w.s[0], r.code_va, 0, true, true);
	r.w.s[3] &= 0x0fffffffu;
	assert_int_equal(run(&r), XS_WAVE_FAULT);
	assert_int_equal(r.ctx.fault.kind, XS_FAULT_ILLEGAL);
	assert_non_null(strstr(r.ctx.fault.what, "resource type 0"));
	rig_fini(&r);
	/* the decoder bounds vdata and every address VGPR: bvh.s's first
	 * intersection writes v[20:23], so a 22-VGPR wave faults on it */
	rig_init(&r, "bvh", 32, 22, 0);
	bvh_tsharp(&r.w.s[0], r.code_va, 0, true, true);
	assert_int_equal(run(&r), XS_WAVE_FAULT);
	assert_int_equal(r.ctx.fault.kind, XS_FAULT_ILLEGAL);
	assert_non_null(strstr(r.ctx.fault.what, "image_bvh_intersect_ray: uses VGPRs up to v23"));
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
	r->w.s[20] = 1u << 16 | 16;
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
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	bvh_expect ex[16];
	unsigned n = read_expects("gfx", ex, 16);
	assert_int_equal(n, 3);
	unsigned bad = 0;
	for (unsigned i = 0; i < n; i++)
		for (unsigned l = 0; l < 32; l++)
			for (unsigned k = 0; k < 4; k++)
				if (r.v[ex[i].reg + k][l] != ex[i].w[k] && bad++ < 12)
					print_message("gfx.s:%u: v%u lane %u = 0x%08x, want 0x%08x\n", ex[i].line,
						      ex[i].reg + k, l, r.v[ex[i].reg + k][l], ex[i].w[k]);
	assert_int_equal(bad, 0);
	/* the three exports as encoded */
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
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	assert_int_equal(lg.n, 3);
	assert_int_equal(lg.calls, 5);
	assert_int_equal(lg.e[0].tgt, XS_EXP_TGT_POS0);
	assert_int_equal(r.w.insts, insts + 4);             /* 3 exports + s_endpgm, each once */
	rig_fini(&r);
	/* with no sink (a compute wave) exp is illegal */
	rig_init(&r, "gfx", 32, 32, 0);
	gfx_lds(&r);
	assert_int_equal(run(&r), XS_WAVE_FAULT);
	assert_int_equal(r.ctx.fault.kind, XS_FAULT_ILLEGAL);
	assert_non_null(strstr(r.ctx.fault.what, "exp outside a graphics stage"));
	rig_fini(&r);
	/* parameter data beyond the wave's LDS faults (not a host read) */
	rig_init(&r, "gfx", 32, 32, 0);
	gfx_lds(&r);
	r.w.s[20] = 1u << 16 | (uint32_t)(sizeof(r.lds) - 8);
	assert_int_equal(run(&r), XS_WAVE_FAULT);
	assert_int_equal(r.ctx.fault.kind, XS_FAULT_LDS);
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
	r.w.s[20] = 0x5u << 16 | 16;     /* quads 0 and 2 start primitives */
	exp_log lg = { 0 };
	r.ctx.export_fn = exp_sink;
	r.ctx.export_user = &lg;
	assert_int_equal(run(&r), XS_WAVE_ENDED);
	for (unsigned l = 0; l < 32; l++) {
		float v;
		memcpy(&v, &r.v[4][l], 4);
		assert_true(l < 8 ? v == 3.5f : v == 100.0f);
	}
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
		assert_int_equal(run(&r), XS_WAVE_ENDED);
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
		cmocka_unit_test(test_fp_special),
		cmocka_unit_test(test_cvt),
		cmocka_unit_test(test_shift),
		cmocka_unit_test(test_int_overflow),
		cmocka_unit_test(test_hostile_words),
		cmocka_unit_test(test_intdiv_zero),
		cmocka_unit_test(test_exec_zero),
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_mode_fault),
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
