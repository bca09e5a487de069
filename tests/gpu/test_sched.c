/*
 * The timing model's scheduler on its own: the event queue (a wheel of
 * one FIFO bucket per cycle for the next XS_GPU_WHEEL cycles, a heap by
 * (ready, launch order) beyond), s_waitcnt against outstanding loads, and
 * s_barrier, driven through src/gpu/xs_gpu_priv.h.
 *
 * Expected cycles follow the issue rules of docs/hardware.md section 8
 * with the latencies of the device-info table: an instruction takes one
 * issue cycle of its pipe, an s_waitcnt issues in the cycle the counted
 * operation completes (an SMEM load lat_smem after its issue; a vector load
 * missing every cache lat_dram after it, its one 128-byte line costing the
 * DRAM channel under a cycle), waves leave a barrier barrier_release cycles
 * after its last arrival. Each case is the difference from a kernel that
 * is only s_endpgm, so the launch costs cancel.
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

#define S_ENDPGM 0xbf810000u          /* s_endpgm */
#define S_BARRIER 0xbf8a0000u         /* s_barrier */
#define S_WAITCNT_LGKM0 0xbf8cc07fu   /* s_waitcnt lgkmcnt(0) */
#define S_WAITCNT_LGKM1 0xbf8cc17fu   /* s_waitcnt lgkmcnt(1) */
#define S_WAITCNT_VM0 0xbf8c3f70u     /* s_waitcnt vmcnt(0) */
/* s_load_dword s2, s[0:1], 0x0 */
#define S_LOAD_S2 0xf4000080u, 0xfa000000u
/* s_load_dword s3, s[0:1], 0x4 */
#define S_LOAD_S3 0xf40000c0u, 0xfa000004u
/* global_load_dword v1, v0, s[0:1] */
#define GLOBAL_LOAD_V1 0xdc308000u, 0x01000000u

typedef struct fx {
	xs_vm *vm;
	xs_gpu *g;
	uint64_t code, buf;
} fx;

static fx *fx_new(void)
{
	fx *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	f->vm = xs_vm_create();
	f->g = xs_gpu_create(xs_devinfo_get(XS_MACHINE_SERIES_S), f->vm);
	assert_non_null(f->g);
	assert_int_equal(xs_vm_alloc(f->vm, 4096, 256, &f->code, NULL), XS_OK);
	assert_int_equal(xs_vm_alloc(f->vm, 4096, 256, &f->buf, NULL), XS_OK);
	return f;
}

static void fx_free(fx *f)
{
	xs_gpu_destroy(f->g);
	xs_vm_destroy(f->vm);
	free(f);
}

static int setup(void **state)
{
	*state = fx_new();
	return 0;
}

static int teardown(void **state)
{
	fx_free(*state);
	return 0;
}

/* Runs `prog` as one group of `threads` wave32 threads on CU 0 (user SGPRs
 * s[0:1] = f->buf, then TG_SIZE when tg_size); returns the dispatch's
 * result. */
static xs_gpu_dispatch_result run(fx *f, const uint32_t *prog, size_t ndw, uint32_t threads, bool tg_size)
{
	xs_gpu *g = f->g;
	assert_true(xs_vm_write(f->vm, f->code, prog, ndw * 4, NULL));
	xs_gpu_set_sh_reg(g, Q, R_00B830_COMPUTE_PGM_LO, (uint32_t)(f->code >> 8));
	xs_gpu_set_sh_reg(g, Q, R_00B834_COMPUTE_PGM_HI, S_00B834_DATA(f->code >> 40));
	xs_gpu_set_sh_reg(g, Q, R_00B848_COMPUTE_PGM_RSRC1, S_00B848_VGPRS(0));
	xs_gpu_set_sh_reg(g, Q, R_00B84C_COMPUTE_PGM_RSRC2,
			  S_00B84C_USER_SGPR(tg_size ? 0 : 2) | S_00B84C_TG_SIZE_EN(tg_size));
	xs_gpu_set_sh_reg(g, Q, R_00B900_COMPUTE_USER_DATA_0, (uint32_t)f->buf);
	xs_gpu_set_sh_reg(g, Q, R_00B900_COMPUTE_USER_DATA_0 + 4, (uint32_t)(f->buf >> 32));
	xs_gpu_set_sh_reg(g, Q, R_00B81C_COMPUTE_NUM_THREAD_X, S_00B81C_NUM_THREAD_FULL(threads));
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
	assert_int_equal(g->resident, 0);
	return r;
}

/* Cycles of prog on a fresh GPU (cold caches, idle DRAM channel). */
static uint64_t cycles(const uint32_t *prog, size_t ndw)
{
	fx *f = fx_new();
	uint64_t c = run(f, prog, ndw, 32, false).cycles;
	fx_free(f);
	return c;
}

/* ---- event queue ------------------------------------------------------------- */

static void wheel_orders_by_cycle_then_fifo(void **state)
{
	fx *f = *state;
	xs_gpu *g = f->g;
	xs_gpu_wave *w = g->waves;
	/* Within the wheel: by cycle, and waves of one cycle in the order they
	 * were queued, whatever their launch order. */
	static const uint64_t ready[] = { 5, 3, 5, 3, 0, 5 };
	for (int i = 0; i < 6; i++) {
		w[i].ready = ready[i];
		w[i].seq = 100 - (uint64_t)i;
		xs_gpu_evq_push(g, &w[i]);
	}
	static const int order[] = { 4, 1, 3, 0, 2, 5 };
	for (int i = 0; i < 6; i++)
		assert_ptr_equal(xs_gpu_evq_pop(g), &w[order[i]]);
	assert_null(xs_gpu_evq_pop(g));
}

static void far_events_wait_in_the_heap(void **state)
{
	fx *f = *state;
	xs_gpu *g = f->g;
	xs_gpu_wave *w = g->waves;
	/* Beyond the wheel's XS_GPU_WHEEL cycles a wave waits in the heap, by
	 * (cycle, launch order); it comes out after every nearer one, and a
	 * wave queued for a past cycle runs at the current one. */
	w[0].ready = 3 * XS_GPU_WHEEL, w[0].seq = 9;
	w[1].ready = 3 * XS_GPU_WHEEL, w[1].seq = 2;
	w[2].ready = XS_GPU_WHEEL + 4, w[2].seq = 50;
	w[3].ready = XS_GPU_WHEEL - 1, w[3].seq = 60;
	for (int i = 0; i < 4; i++)
		xs_gpu_evq_push(g, &w[i]);
	assert_ptr_equal(xs_gpu_evq_pop(g), &w[3]);
	assert_ptr_equal(xs_gpu_evq_pop(g), &w[2]);
	assert_int_equal(g->wheel_cur, XS_GPU_WHEEL + 4);
	w[4].ready = 1, w[4].seq = 1;
	xs_gpu_evq_push(g, &w[4]);
	assert_int_equal(w[4].ready, XS_GPU_WHEEL + 4);
	assert_ptr_equal(xs_gpu_evq_pop(g), &w[4]);
	assert_ptr_equal(xs_gpu_evq_pop(g), &w[1]);
	assert_ptr_equal(xs_gpu_evq_pop(g), &w[0]);
	assert_int_equal(g->wheel_cur, 3 * XS_GPU_WHEEL);
	assert_null(xs_gpu_evq_pop(g));
}

/* ---- s_waitcnt ------------------------------------------------------------------ */

static void waitcnt_waits_for_the_smem_load(void **state)
{
	(void)state;
	const xs_devinfo *di = xs_devinfo_get(XS_MACHINE_SERIES_S);
	static const uint32_t end[] = { S_ENDPGM };
	static const uint32_t one[] = { S_LOAD_S2, S_WAITCNT_LGKM0, S_ENDPGM };
	static const uint32_t two_wait1[] = { S_LOAD_S2, S_LOAD_S3, S_WAITCNT_LGKM1, S_ENDPGM };
	static const uint32_t two_wait0[] = { S_LOAD_S2, S_LOAD_S3, S_WAITCNT_LGKM0, S_ENDPGM };
	uint64_t e = cycles(end, 1);
	/* load at T, the wait until T + lat_smem, then its issue cycle:
	 * s_endpgm comes lat_smem + 1 cycles later than alone. */
	assert_int_equal(cycles(one, 4) - e, di->lat_smem + 1);
	/* lgkmcnt(1) waits for the older load only; lgkmcnt(0) also for the
	 * second, which issued one SMEM cycle later. */
	assert_int_equal(cycles(two_wait1, 6) - e, di->lat_smem + 1);
	assert_int_equal(cycles(two_wait0, 6) - e, di->lat_smem + 2);
}

static void waitcnt_waits_for_a_dram_miss(void **state)
{
	(void)state;
	const xs_devinfo *di = xs_devinfo_get(XS_MACHINE_SERIES_S);
	static const uint32_t end[] = { S_ENDPGM };
	static const uint32_t load[] = { GLOBAL_LOAD_V1, S_WAITCNT_VM0, S_ENDPGM };
	/* 32 lanes at byte offsets 0..31 (v0 = work-item id) read one line;
	 * it misses the L0 and the L2 and comes from DRAM. */
	uint64_t d = cycles(load, 4) - cycles(end, 1);
	assert_int_equal(d, di->lat_dram + 1);
}

static void endpgm_waits_for_outstanding_loads(void **state)
{
	(void)state;
	const xs_devinfo *di = xs_devinfo_get(XS_MACHINE_SERIES_S);
	static const uint32_t end[] = { S_ENDPGM };
	static const uint32_t nowait[] = { S_LOAD_S2, S_ENDPGM };
	/* Without s_waitcnt the wave still holds its slot until the load is
	 * back: s_endpgm issues at T + 1, the slot frees at T + lat_smem. */
	uint64_t d = cycles(nowait, 3) - cycles(end, 1);
	assert_true(d >= di->lat_smem - 1);
	assert_true(d <= di->lat_smem);
}

/* ---- VALU dependencies ------------------------------------------------------------ */

#define V_MOV_V2_0 0x7e040280u                 /* v_mov_b32 v2, 0 */
#define V_MOV_V4_V2 0x7e080302u                /* v_mov_b32 v4, v2 */
#define V_MOV_V4_V3 0x7e080303u                /* v_mov_b32 v4, v3 */
#define V_LSHL64_V12 0xd6ff0004u, 0x00020281u  /* v_lshlrev_b64 v[4:5], 1, v[1:2] */
#define V_LSHL64_V23 0xd6ff0004u, 0x00020481u  /* v_lshlrev_b64 v[4:5], 1, v[2:3] */
#define V_LSHL64_V01 0xd6ff0004u, 0x00020081u  /* v_lshlrev_b64 v[4:5], 1, v[0:1] */

static void valu_waits_for_the_vgprs_it_reads(void **state)
{
	(void)state;
	/* A VALU reading a VGPR the wave's previous VALU wrote waits for it
	 * (lat_valu, docs/hardware.md section 8); a 64-bit source covers two
	 * VGPRs, so reading v[1:2] after a write of v2 waits as reading v2 does,
	 * and so does v[2:3]; v3 and v[0:1] do not touch v2. */
	static const uint32_t dep32[] = { V_MOV_V2_0, V_MOV_V4_V2, S_ENDPGM };
	static const uint32_t free32[] = { V_MOV_V2_0, V_MOV_V4_V3, S_ENDPGM };
	static const uint32_t high[] = { V_MOV_V2_0, V_LSHL64_V12, S_ENDPGM };
	static const uint32_t low[] = { V_MOV_V2_0, V_LSHL64_V23, S_ENDPGM };
	static const uint32_t free64[] = { V_MOV_V2_0, V_LSHL64_V01, S_ENDPGM };
	uint64_t wait = cycles(dep32, 3) - cycles(free32, 3);
	assert_true(wait > 0);
	assert_int_equal(cycles(high, 4) - cycles(free64, 4), wait);
	assert_int_equal(cycles(low, 4) - cycles(free64, 4), wait);
}

/* ---- barriers -------------------------------------------------------------------- */

static void trace_ends(const xs_gpu *g, uint64_t *min_end, uint64_t *max_end, size_t *n)
{
	const xs_gpu_trace *t = xs_gpu_trace_get(g);
	*min_end = UINT64_MAX, *max_end = 0;
	for (size_t i = 0; i < t->nwaves; i++) {
		*min_end = XS_MIN(*min_end, t->waves[i].end);
		*max_end = XS_MAX(*max_end, t->waves[i].end);
	}
	*n = t->nwaves;
}

static void barrier_releases_every_wave(void **state)
{
	(void)state;
	const xs_devinfo *di = xs_devinfo_get(XS_MACHINE_SERIES_S);
	static const uint32_t end[] = { S_ENDPGM };
	static const uint32_t bar[] = { S_BARRIER, S_ENDPGM };
	/* 8 waves reach the barrier at their first issue, staggered by the SE's
	 * launch rate. Without it each ends on its own; with it none issues
	 * s_endpgm before barrier_release cycles after the last arrival, so the
	 * first to end is later than the last of the run without. */
	uint64_t mn0, mx0, mn1, mx1;
	size_t n0, n1;
	fx *f = fx_new();
	xs_gpu_trace_enable(f->g, true);
	xs_gpu_dispatch_result r = run(f, end, 1, 256, false);
	trace_ends(f->g, &mn0, &mx0, &n0);
	fx_free(f);
	f = fx_new();
	xs_gpu_trace_enable(f->g, true);
	r = run(f, bar, 2, 256, false);
	trace_ends(f->g, &mn1, &mx1, &n1);
	fx_free(f);
	assert_int_equal(r.waves_launched, 8);
	assert_int_equal(n0, 8);
	assert_int_equal(n1, 8);
	assert_true(mn0 < mx0); /* the staggering is visible at all */
	assert_true(mn1 >= mx0 + di->barrier_release);
}

static void ended_waves_leave_the_barrier(void **state)
{
	(void)state;
	/* The first wave of the group (TG_SIZE.FIRST_WAVE, bit 31 of s0) ends
	 * without reaching the barrier; the other three must still go on, in
	 * the timing model and in functional mode. */
	static const uint32_t prog[] = {
		0xbf0d9f00u, /* s_bitcmp1_b32 s0, 31 */
		0xbf840001u, /* s_cbranch_scc0 1 */
		S_ENDPGM,
		S_BARRIER,
		S_ENDPGM,
	};
	for (int timing = 0; timing < 2; timing++) {
		fx *f = fx_new();
		xs_gpu_set_timing(f->g, timing);
		xs_gpu_dispatch_result r = run(f, prog, 5, 128, true);
		assert_int_equal(r.waves_launched, 4);
		assert_int_equal(r.groups_launched, 1);
		/* 3 instructions for the first wave, 4 for each other */
		assert_int_equal(r.wave_insts, 3 + 3 * 4);
		fx_free(f);
	}
}

/* ---- determinism --------------------------------------------------------------- */

static void same_work_same_timeline(void **state)
{
	(void)state;
	/* Equal-cycle events keep their order: the same mixed work (loads,
	 * waits, a barrier, 16 waves on 2 SIMDs contending for pipes) gives the
	 * same cycles and the same per-wave timeline every time. */
	static const uint32_t prog[] = { S_LOAD_S2, GLOBAL_LOAD_V1, S_WAITCNT_LGKM0, S_BARRIER, S_WAITCNT_VM0,
					 S_ENDPGM };
	xs_gpu_trace_wave first[16];
	uint64_t c0 = 0;
	for (int rep = 0; rep < 3; rep++) {
		fx *f = fx_new();
		xs_gpu_trace_enable(f->g, true);
		xs_gpu_dispatch_result r = run(f, prog, 8, 512, false);
		const xs_gpu_trace *t = xs_gpu_trace_get(f->g);
		assert_int_equal(t->nwaves, 16);
		if (rep == 0) {
			c0 = r.cycles;
			memcpy(first, t->waves, sizeof(first));
		} else {
			assert_int_equal(r.cycles, c0);
			assert_memory_equal(first, t->waves, sizeof(first));
		}
		fx_free(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(wheel_orders_by_cycle_then_fifo, setup, teardown),
		cmocka_unit_test_setup_teardown(far_events_wait_in_the_heap, setup, teardown),
		cmocka_unit_test(waitcnt_waits_for_the_smem_load),
		cmocka_unit_test(waitcnt_waits_for_a_dram_miss),
		cmocka_unit_test(endpgm_waits_for_outstanding_loads),
		cmocka_unit_test(valu_waits_for_the_vgprs_it_reads),
		cmocka_unit_test(barrier_releases_every_wave),
		cmocka_unit_test(ended_waves_leave_the_barrier),
		cmocka_unit_test(same_work_same_timeline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
