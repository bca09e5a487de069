/*
 * The counters' vector-memory bytes (xs_gpu_counters.vmem_read_bytes: the
 * bytes the active lanes asked for, docs/cli.md "--counters") of the
 * instructions whose size the opcode does not give, against figures
 * worked out by hand from the documented rules:
 *
 *   typed loads (buffer_load_format_*, tbuffer_load_format_*) read one
 *   element of the buffer FORMAT a lane (SQ_BUF_RSRC_WORD3.FORMAT for
 *   MUBUF, the instruction's format for MTBUF; bits x components), what
 *   the interpreter reads whatever the instruction's component count;
 *
 *   image_bvh*_intersect_ray reads one node a lane by the node pointer's
 *   type (docs/hardware.md 10.3): box32 128 bytes, box16 and triangle 64,
 *   other types nothing.
 *
 * Each case is one instruction on a fresh GPU (one wave32 of 32 lanes,
 * timing mode, cold caches), and also checks the lines the caches were
 * charged: those of the bytes counted.
 *
 * Machine code: llvm-mc-15 -triple=amdgcn -mcpu=gfx1030 -show-encoding,
 * the instruction beside each dword.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/xs_gpu_priv.h"

#define Q 1

#define S_ENDPGM 0xbf810000u       /* s_endpgm */
#define S_WAITCNT_VM0 0xbf8c3f70u  /* s_waitcnt vmcnt(0) */

typedef struct fx {
	xs_vm *vm;
	xs_gpu *g;
	uint64_t code, buf;
} fx;

static fx fx_new(void)
{
	fx f = { .vm = xs_vm_create() };
	f.g = xs_gpu_create(xs_devinfo_get(XS_MACHINE_SERIES_S), f.vm);
	assert_non_null(f.g);
	assert_int_equal(xs_vm_alloc(f.vm, 4096, 256, &f.code, NULL), XS_OK);
	assert_int_equal(xs_vm_alloc(f.vm, 4096, 256, &f.buf, NULL), XS_OK);
	return f;
}

/* Runs prog as one group of 32 wave32 threads on CU 0 with 24 VGPRs and
 * user SGPRs s[0:nuser-1] = user[]; returns the dispatch's counters and
 * frees the GPU. */
static xs_gpu_counters run(fx *f, const uint32_t *prog, size_t ndw, const uint32_t *user, unsigned nuser)
{
	xs_gpu *g = f->g;
	assert_true(xs_vm_write(f->vm, f->code, prog, ndw * 4, NULL));
	xs_gpu_set_sh_reg(g, Q, R_00B830_COMPUTE_PGM_LO, (uint32_t)(f->code >> 8));
	xs_gpu_set_sh_reg(g, Q, R_00B834_COMPUTE_PGM_HI, S_00B834_DATA(f->code >> 40));
	xs_gpu_set_sh_reg(g, Q, R_00B848_COMPUTE_PGM_RSRC1, S_00B848_VGPRS(2));
	xs_gpu_set_sh_reg(g, Q, R_00B84C_COMPUTE_PGM_RSRC2, S_00B84C_USER_SGPR(nuser));
	for (unsigned i = 0; i < nuser; i++)
		xs_gpu_set_sh_reg(g, Q, R_00B900_COMPUTE_USER_DATA_0 + 4 * i, user[i]);
	xs_gpu_set_sh_reg(g, Q, R_00B81C_COMPUTE_NUM_THREAD_X, S_00B81C_NUM_THREAD_FULL(32));
	xs_gpu_set_sh_reg(g, Q, R_00B820_COMPUTE_NUM_THREAD_Y, S_00B81C_NUM_THREAD_FULL(1));
	xs_gpu_set_sh_reg(g, Q, R_00B824_COMPUTE_NUM_THREAD_Z, S_00B81C_NUM_THREAD_FULL(1));
	xs_gpu_set_sh_reg(g, Q, R_00B858_COMPUTE_STATIC_THREAD_MGMT_SE0, S_00B858_SA0_CU_EN(1));
	xs_gpu_dispatch_result r = { 0 };
	xs_err e = { 0 };
	assert_int_equal(xs_gpu_dispatch_begin(g, Q, 1, 1, 1,
					       S_00B800_COMPUTE_SHADER_EN(1) | S_00B800_CS_W32_EN(1), &r, &e),
			 XS_OK);
	assert_int_equal(xs_gpu_run_until(g, false, &e), XS_OK);
	assert_int_equal(xs_gpu_ndisp(g), 0);
	assert_int_equal(r.fault.kind, XS_FAULT_NONE);
	xs_gpu_destroy(g);
	xs_vm_destroy(f->vm);
	return r.ctr;
}

/* ---- typed loads ------------------------------------------------------------------ */

/* A structured V# on buffer b: STRIDE 16, NUM_RECORDS 64, OOB_SELECT 0,
 * and FORMAT fmt. Lane l reads element index v0 = l, 16 bytes apart: 32
 * lanes span 512 bytes, 4 lines. */
#define VSHARP(b, fmt)                                                                              \
	(uint32_t)(b), S_008F04_BASE_ADDRESS_HI((uint32_t)((b) >> 32)) | S_008F04_STRIDE(16), 64, \
		S_008F0C_FORMAT(fmt)
#define FMT_8_8_8_8_UNORM 56
#define FMT_16_FLOAT 13
#define FMT_32_32_32_32_FLOAT 77

static void format_loads_count_the_format_element(void **state)
{
	(void)state;
	static const struct {
		const char *what;
		uint32_t inst[2];
		unsigned lane_bytes; /* by hand: the FORMAT's bits / 8 x components */
	} cases[] = {
		/* buffer_load_format_xyzw v[4:7], v0, s[0:3], 0 idxen: 4 x 8 bits */
		{ "xyzw on 8_8_8_8", { 0xe00c2000u, 0x80000400u }, 4 },
		/* buffer_load_format_xyzw v[4:7], v0, s[4:7], 0 idxen: 4 x 32 bits */
		{ "xyzw on 32_32_32_32", { 0xe00c2000u, 0x80010400u }, 16 },
		/* buffer_load_format_xyzw v[4:7], v0, s[8:11], 0 idxen: one 16-bit
		 * component (the others read 0 and 1.0 without memory) */
		{ "xyzw on 16_FLOAT", { 0xe00c2000u, 0x80020400u }, 2 },
		/* buffer_load_format_x v4, v0, s[4:7], 0 idxen: the whole element,
		 * as the interpreter reads it and the caches see it */
		{ "x on 32_32_32_32", { 0xe0002000u, 0x80010400u }, 16 },
		/* tbuffer_load_format_xy v[4:5], v0, s[0:3], 0
		 * format:[BUF_FMT_32_32_FLOAT] idxen: the instruction's FORMAT,
		 * not the V#'s 8_8_8_8 */
		{ "tbuffer xy 32_32_FLOAT", { 0xea012000u, 0x80000400u }, 8 },
		/* tbuffer_load_format_x v4, v0, s[0:3], 0
		 * format:[BUF_FMT_8_8_8_8_UNORM] idxen */
		{ "tbuffer x 8_8_8_8", { 0xe9c02000u, 0x80000400u }, 4 },
		/* buffer_load_dwordx4 v[4:7], v0, s[4:7], 0 idxen: its own 16, the
		 * FORMAT not read */
		{ "dwordx4", { 0xe0382000u, 0x80010400u }, 16 },
	};
	for (size_t i = 0; i < XS_ARRAY_SIZE(cases); i++) {
		const uint32_t prog[] = { cases[i].inst[0], cases[i].inst[1], S_WAITCNT_VM0, S_ENDPGM };
		fx f = fx_new();
		/* s[0:3]: 8_8_8_8_UNORM, s[4:7]: 32_32_32_32_FLOAT, s[8:11]: 16_FLOAT */
		const uint32_t user[] = { VSHARP(f.buf, FMT_8_8_8_8_UNORM), VSHARP(f.buf, FMT_32_32_32_32_FLOAT),
					  VSHARP(f.buf, FMT_16_FLOAT) };
		xs_gpu_counters c = run(&f, prog, XS_ARRAY_SIZE(prog), user, XS_ARRAY_SIZE(user));
		if (c.vmem_read_bytes != 32ull * cases[i].lane_bytes)
			fail_msg("%s: %llu bytes read (want 32 lanes x %u)", cases[i].what,
				 (unsigned long long)c.vmem_read_bytes, cases[i].lane_bytes);
		assert_int_equal(c.vmem_write_bytes, 0);
		assert_int_equal(c.scratch_read_bytes, 0);
		/* the lanes' elements lie in 4 lines, one lookup each */
		assert_int_equal(c.l0_hits + c.l0_misses, 4);
		assert_int_equal(c.insts[XS_IC_VMEM_LOAD], 1);
	}
}

/* ---- ray intersection ---------------------------------------------------------------- */

/* A BVH T# (docs/hardware.md 10.2) on buffer b: base_address >> 8 in
 * [39:0], size - 1 the maximum, type 8. Nodes at the buffer's start: box32
 * at 0 (pointer 0x05), box16 at 128 (0x14), triangle at 256 (0x20): one L2
 * line each. */
#define TSHARP(b) (uint32_t)((b) >> 8), (uint32_t)((b) >> 40) & 0xff, 0xffffffffu, 0x800003ffu

/* Lanes 0-7 point at the box32, 8-15 the box16, 16-23 the triangle, 24-31
 * an AABB node (type 7: nothing read); lane 0 is then switched off. The
 * ray (v2..v12) is zero; what it hits does not change what is read. */
#define BVH_SETUP                                                                   \
	0xbefe03ffu, 0x000000ffu, /* s_mov_b32 exec_lo, 0xff */                     \
	0x7e020285u,              /* v_mov_b32_e32 v1, 5 */                         \
	0xbefe03ffu, 0x0000ff00u, /* s_mov_b32 exec_lo, 0xff00 */                   \
	0x7e020294u,              /* v_mov_b32_e32 v1, 20 */                        \
	0xbefe03ffu, 0x00ff0000u, /* s_mov_b32 exec_lo, 0xff0000 */                 \
	0x7e0202a0u,              /* v_mov_b32_e32 v1, 32 */                        \
	0xbefe03ffu, 0xff000000u, /* s_mov_b32 exec_lo, 0xff000000 */               \
	0x7e020287u,              /* v_mov_b32_e32 v1, 7 */                         \
	0xbefe03c2u,              /* s_mov_b32 exec_lo, -2 */                       \
	0x7e040280u, 0x7e060280u, 0x7e080280u, 0x7e0a0280u, /* v_mov_b32_e32 v2..v5, 0 */ \
	0x7e0c0280u, 0x7e0e0280u, 0x7e100280u, 0x7e120280u, /* v6..v9 */            \
	0x7e140280u, 0x7e160280u, 0x7e180280u               /* v10..v12 */

static void bvh_counts_the_nodes_it_reads(void **state)
{
	(void)state;
	static const struct {
		const char *what;
		uint32_t inst[2];
	} cases[] = {
		/* image_bvh_intersect_ray v[20:23], v[1:16], s[0:3] */
		{ "image_bvh_intersect_ray", { 0xf1989f01u, 0x00001401u } },
		/* image_bvh64_intersect_ray v[20:23], v[1:16], s[0:3] (v2 = 0: the
		 * same 64-bit pointers) */
		{ "image_bvh64_intersect_ray", { 0xf19c9f01u, 0x00001401u } },
	};
	/* lanes 1-7 a box32, 8-15 a box16, 16-23 a triangle; 24-31 nothing */
	const uint64_t want = 7 * 128 + 8 * 64 + 8 * 64;
	for (size_t i = 0; i < XS_ARRAY_SIZE(cases); i++) {
		const uint32_t prog[] = { BVH_SETUP, cases[i].inst[0], cases[i].inst[1], S_WAITCNT_VM0, S_ENDPGM };
		fx f = fx_new();
		/* the boxes' children all invalid: what they return points nowhere */
		static const uint32_t none[4] = { 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu };
		assert_true(xs_vm_write(f.vm, f.buf, none, sizeof(none), NULL));
		assert_true(xs_vm_write(f.vm, f.buf + 128, none, sizeof(none), NULL));
		const uint32_t user[] = { TSHARP(f.buf) };
		xs_gpu_counters c = run(&f, prog, XS_ARRAY_SIZE(prog), user, XS_ARRAY_SIZE(user));
		if (c.vmem_read_bytes != want)
			fail_msg("%s: %llu bytes read (want %llu)", cases[i].what, (unsigned long long)c.vmem_read_bytes,
				 (unsigned long long)want);
		assert_int_equal(c.vmem_write_bytes, 0);
		/* the three nodes' lines, each looked up once */
		assert_int_equal(c.l0_hits + c.l0_misses, 3);
		assert_int_equal(c.insts[XS_IC_VMEM_LOAD], 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(format_loads_count_the_format_element),
		cmocka_unit_test(bvh_counts_the_nodes_it_reads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
