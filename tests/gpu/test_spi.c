/*
 * The SPI on its own: register state in (built with the S_ field macros),
 * placement out, read from the GPU's internal state (src/gpu/xs_gpu_priv.h)
 * right after xs_gpu_spi_launch_pending and before any wave runs.
 *
 * Expected figures come from the documented rules, not from the SPI's own
 * arithmetic: the RDNA2 register file and slot figures of the device-info
 * table (docs/hardware.md section 7; LLVM's gfx10.3 occupancy: 1024 wave32
 * VGPRs per SIMD in granules of 16, 16 wave slots per SIMD, 2 SIMDs per CU,
 * 2 CUs per WGP), LDS 64 KiB per CU in CU mode and 128 KiB per WGP in WGP
 * mode (SPEC S3.3, S3.6), 16 barriers per CU, the scratch ring's WAVES
 * (COMPUTE_TMPRING_SIZE) and its 32-waves-per-CU bound (SPEC S1.13), the
 * CU masks' SA0_CU_EN / SA1_CU_EN layout (COMPUTE_STATIC_THREAD_MGMT_SE*).
 *
 * The machine is Series S (1 SE, 2 SAs of 5 WGPs: 20 CUs) unless a test
 * needs two SEs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/xs_gpu_priv.h"

#define Q 1 /* an async compute queue */

/* s_endpgm (llvm-mc-15 -mcpu=gfx1030: [0x00,0x00,0x81,0xbf]) */
static const uint32_t prog_end[] = { 0xbf810000 };

typedef struct fx {
	xs_vm *vm;
	xs_gpu *g;
	uint64_t code;
	xs_gpu_dispatch_result r[4];
} fx;

static fx *fx_new(xs_machine m)
{
	fx *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	f->vm = xs_vm_create();
	f->g = xs_gpu_create(xs_devinfo_get(m), f->vm);
	assert_non_null(f->g);
	assert_int_equal(xs_vm_alloc(f->vm, 4096, 256, &f->code, NULL), XS_OK);
	assert_true(xs_vm_write(f->vm, f->code, prog_end, sizeof(prog_end), NULL));
	return f;
}

static void fx_free(fx *f)
{
	xs_gpu_destroy(f->g);
	xs_vm_destroy(f->vm);
	free(f);
}

static int setup_s(void **state)
{
	*state = fx_new(XS_MACHINE_SERIES_S);
	return 0;
}

static int teardown(void **state)
{
	fx_free(*state);
	return 0;
}

/* What a dispatch needs, in the terms of its registers. */
typedef struct kern {
	uint32_t threads;        /* COMPUTE_NUM_THREAD_X (Y = Z = 1) */
	uint32_t wave_size;
	uint32_t vgprs;          /* a multiple of the encoding granule (8 wave32, 4 wave64) */
	uint32_t lds_bytes;      /* a multiple of 512 */
	bool wgp_mode;
	bool scratch;
	uint32_t tmpring_waves, tmpring_wavesize;
	uint32_t limits;         /* COMPUTE_RESOURCE_LIMITS */
	uint32_t cu_mask[XS_MAX_SE]; /* 0: every CU */
	uint32_t user_sgprs;
	uint32_t sgprs_field;    /* RSRC1.SGPRS (gfx10 ignores it: always 128 SGPRs) */
} kern;

static void program(fx *f, const kern *k)
{
	xs_gpu *g = f->g;
	uint32_t enc = k->wave_size == 32 ? 8 : 4;
	xs_gpu_set_sh_reg(g, Q, R_00B830_COMPUTE_PGM_LO, (uint32_t)(f->code >> 8));
	xs_gpu_set_sh_reg(g, Q, R_00B834_COMPUTE_PGM_HI, S_00B834_DATA(f->code >> 40));
	xs_gpu_set_sh_reg(g, Q, R_00B848_COMPUTE_PGM_RSRC1,
			  S_00B848_VGPRS(k->vgprs / enc - 1) | S_00B848_SGPRS(k->sgprs_field) |
				  S_00B848_WGP_MODE(k->wgp_mode));
	xs_gpu_set_sh_reg(g, Q, R_00B84C_COMPUTE_PGM_RSRC2,
			  S_00B84C_SCRATCH_EN(k->scratch) | S_00B84C_USER_SGPR(k->user_sgprs) |
				  S_00B84C_TGID_X_EN(1) | S_00B84C_TG_SIZE_EN(1) |
				  S_00B84C_LDS_SIZE(k->lds_bytes / 512));
	xs_gpu_set_sh_reg(g, Q, R_00B8A0_COMPUTE_PGM_RSRC3, 0);
	xs_gpu_set_sh_reg(g, Q, R_00B81C_COMPUTE_NUM_THREAD_X, S_00B81C_NUM_THREAD_FULL(k->threads));
	xs_gpu_set_sh_reg(g, Q, R_00B820_COMPUTE_NUM_THREAD_Y, S_00B81C_NUM_THREAD_FULL(1));
	xs_gpu_set_sh_reg(g, Q, R_00B824_COMPUTE_NUM_THREAD_Z, S_00B81C_NUM_THREAD_FULL(1));
	xs_gpu_set_sh_reg(g, Q, R_00B854_COMPUTE_RESOURCE_LIMITS, k->limits);
	xs_gpu_set_sh_reg(g, Q, R_00B860_COMPUTE_TMPRING_SIZE,
			  S_00B860_WAVES(k->tmpring_waves) | S_00B860_WAVESIZE(k->tmpring_wavesize));
	static const uint32_t masks[XS_MAX_SE] = {
		R_00B858_COMPUTE_STATIC_THREAD_MGMT_SE0, R_00B85C_COMPUTE_STATIC_THREAD_MGMT_SE1,
		R_00B864_COMPUTE_STATIC_THREAD_MGMT_SE2, R_00B868_COMPUTE_STATIC_THREAD_MGMT_SE3,
	};
	bool any = false;
	for (int i = 0; i < XS_MAX_SE; i++)
		any |= k->cu_mask[i] != 0;
	for (int i = 0; i < XS_MAX_SE; i++)
		xs_gpu_set_sh_reg(g, Q, masks[i],
				  any ? k->cu_mask[i] : S_00B858_SA0_CU_EN(0xffff) | S_00B858_SA1_CU_EN(0xffff));
}

static uint32_t initiator(const kern *k)
{
	return S_00B800_COMPUTE_SHADER_EN(1) | S_00B800_CS_W32_EN(k->wave_size == 32);
}

/* Programs k, begins `groups` groups in slot `ri` of f->r and launches
 * what fits; returns the dispatch. */
static xs_gpu_disp *begin(fx *f, const kern *k, uint32_t groups, int ri)
{
	program(f, k);
	xs_err e = { 0 };
	f->r[ri] = (xs_gpu_dispatch_result){ 0 };
	assert_int_equal(xs_gpu_dispatch_begin(f->g, Q, groups, 1, 1, initiator(k), &f->r[ri], &e), XS_OK);
	xs_gpu_disp *d = NULL;
	for (int i = 0; i < XS_GPU_MAX_ACTIVE; i++)
		if (xs_gpu_disp_live(f->g, i) && f->g->disp[i].r == &f->r[ri])
			d = &f->g->disp[i];
	assert_non_null(d);
	xs_gpu_spi_launch_pending(f->g);
	return d;
}

static xs_status begin_status(fx *f, const kern *k, xs_err *e)
{
	program(f, k);
	f->r[3] = (xs_gpu_dispatch_result){ 0 };
	return xs_gpu_dispatch_begin(f->g, Q, 4, 1, 1, initiator(k), &f->r[3], e);
}

/* Runs everything to the end (the waves are all s_endpgm). */
static void drain(fx *f)
{
	xs_err e = { 0 };
	assert_int_equal(xs_gpu_run_until(f->g, false, &e), XS_OK);
}

/* A CU mask enabling one CU: its SE's register, SA1 for sa = 1. */
static void one_cu(kern *k, uint32_t se, uint32_t sa, uint32_t cu_in_sa)
{
	memset(k->cu_mask, 0, sizeof(k->cu_mask));
	k->cu_mask[se] = sa ? S_00B858_SA1_CU_EN(1u << cu_in_sa) : S_00B858_SA0_CU_EN(1u << cu_in_sa);
}

/* Waves of the dispatch resident on CU cu. */
static uint32_t waves_on_cu(const xs_gpu *g, const xs_gpu_disp *d, uint32_t cu)
{
	uint32_t n = 0;
	for (uint32_t s = cu * g->info->simds_per_cu; s < (cu + 1) * g->info->simds_per_cu; s++)
		for (uint32_t i = 0; i < XS_GPU_MAX_WAVE_SLOTS; i++)
			n += g->simd[s].wave[i] && g->simd[s].wave[i]->group->disp == d;
	return n;
}

/* ---- VGPRs, SGPRs, wave slots ------------------------------------------- */

static void vgprs_bound_waves_per_cu(void **state)
{
	fx *f = *state;
	/* wave32, 256 VGPRs: 1024 / 256 = 4 waves per SIMD, 8 per CU (CU mode).
	 * One CU enabled, single-wave groups: 8 launch, the 9th waits for VGPRs. */
	kern k = { .threads = 32, .wave_size = 32, .vgprs = 256 };
	one_cu(&k, 0, 0, 0);
	xs_gpu_disp *d = begin(f, &k, 9, 0);
	assert_int_equal(f->r[0].groups_launched, 8);
	assert_int_equal(d->blocked, XS_GPU_WAIT_VGPR);
	assert_int_equal(f->g->simd[0].vgprs_used + f->g->simd[1].vgprs_used, 8 * 256);
	drain(f);
	assert_int_equal(f->r[0].groups_launched, 9);
	assert_true(f->r[0].wait_cycles[XS_GPU_WAIT_VGPR] > 0);
}

static void vgpr_granule_rounds_up(void **state)
{
	fx *f = *state;
	/* 72 wave32 VGPRs allocate 80 (granule 16): 1024 / 80 = 12 per SIMD. */
	kern k = { .threads = 32, .wave_size = 32, .vgprs = 72 };
	one_cu(&k, 0, 0, 0);
	xs_gpu_disp *d = begin(f, &k, 30, 0);
	assert_int_equal(f->r[0].groups_launched, 24);
	assert_int_equal(d->blocked, XS_GPU_WAIT_VGPR);
	drain(f);
}

static void wave64_vgprs_count_twice(void **state)
{
	fx *f = *state;
	/* wave64, 128 VGPRs: a SIMD holds 512 wave64 VGPRs -> 4 waves, 8 per CU. */
	kern k = { .threads = 64, .wave_size = 64, .vgprs = 128 };
	one_cu(&k, 0, 0, 0);
	xs_gpu_disp *d = begin(f, &k, 9, 0);
	assert_int_equal(f->r[0].groups_launched, 8);
	assert_int_equal(d->blocked, XS_GPU_WAIT_VGPR);
	drain(f);
}

static void wave_slots_bound_small_waves(void **state)
{
	fx *f = *state;
	/* 16 VGPRs would allow 64 waves per SIMD; the 16 slots allow 16, 32 per
	 * CU. gfx10 allocates all 128 SGPRs to every wave, so RSRC1.SGPRS at its
	 * maximum changes nothing. */
	kern k = { .threads = 32, .wave_size = 32, .vgprs = 16, .sgprs_field = 15 };
	one_cu(&k, 0, 0, 0);
	xs_gpu_disp *d = begin(f, &k, 40, 0);
	assert_int_equal(f->r[0].groups_launched, 32);
	assert_int_equal(f->g->simd[0].nwaves, 16);
	assert_int_equal(f->g->simd[1].nwaves, 16);
	assert_int_equal(d->blocked, XS_GPU_WAIT_WAVE_SLOT);
	drain(f);
}

static void big_group_needs_whole_pool(void **state)
{
	fx *f = *state;
	/* 1024 wave32 threads = 32 waves: a CU's 32 slots (CU mode), so one group
	 * per CU; in WGP mode 2 groups share a WGP's 64 slots. */
	kern k = { .threads = 1024, .wave_size = 32, .vgprs = 8 };
	one_cu(&k, 0, 0, 0);
	xs_gpu_disp *d = begin(f, &k, 2, 0);
	assert_int_equal(f->r[0].groups_launched, 1);
	assert_int_equal(d->blocked, XS_GPU_WAIT_WAVE_SLOT);
	drain(f);
	/* WGP mode, CUs 0 and 1 of SA0 (WGP 0): both groups at once. */
	k.wgp_mode = true;
	k.cu_mask[0] = S_00B858_SA0_CU_EN(3);
	d = begin(f, &k, 3, 1);
	assert_int_equal(f->r[1].groups_launched, 2);
	assert_int_equal(d->blocked, XS_GPU_WAIT_WAVE_SLOT);
	drain(f);
}

/* ---- LDS and barriers ------------------------------------------------------ */

static void lds_cu_and_wgp_pools(void **state)
{
	fx *f = *state;
	/* 24 KiB per group. CU mode: a CU's 64 KiB half holds 2. WGP mode: the
	 * WGP's 128 KiB holds 5. */
	kern k = { .threads = 32, .wave_size = 32, .vgprs = 8, .lds_bytes = 24 * 1024 };
	one_cu(&k, 0, 0, 0);
	xs_gpu_disp *d = begin(f, &k, 6, 0);
	assert_int_equal(f->r[0].groups_launched, 2);
	assert_int_equal(d->blocked, XS_GPU_WAIT_LDS);
	drain(f);
	k.wgp_mode = true;
	k.cu_mask[0] = S_00B858_SA0_CU_EN(3);
	d = begin(f, &k, 6, 1);
	assert_int_equal(f->r[1].groups_launched, 5);
	assert_int_equal(d->blocked, XS_GPU_WAIT_LDS);
	drain(f);
}

static void lds_halves_are_per_cu(void **state)
{
	fx *f = *state;
	/* CU mode, both CUs of WGP 0 enabled, 64 KiB groups: one per CU, two
	 * per WGP, and the third waits. */
	kern k = { .threads = 32, .wave_size = 32, .vgprs = 8, .lds_bytes = 64 * 1024,
		   .cu_mask = { S_00B858_SA0_CU_EN(3) } };
	xs_gpu_disp *d = begin(f, &k, 3, 0);
	assert_int_equal(f->r[0].groups_launched, 2);
	assert_int_equal(waves_on_cu(f->g, d, 0), 1);
	assert_int_equal(waves_on_cu(f->g, d, 1), 1);
	assert_int_equal(d->blocked, XS_GPU_WAIT_LDS);
	drain(f);
}

static void barriers_taken_by_multiwave_groups(void **state)
{
	fx *f = *state;
	/* A group of more than one wave takes one of its CU's 16 barriers;
	 * single-wave groups take none. With 2-wave groups the 32 slots and the
	 * 16 barriers give the same bound: 16 groups. */
	kern k = { .threads = 32, .wave_size = 32, .vgprs = 8 };
	one_cu(&k, 0, 0, 0);
	xs_gpu_disp *d = begin(f, &k, 8, 0);
	assert_int_equal(f->g->cu[0].barriers_used, 0);
	drain(f);
	k.threads = 64;
	d = begin(f, &k, 17, 1);
	assert_int_equal(f->r[1].groups_launched, 16);
	assert_int_equal(f->g->cu[0].barriers_used, 16);
	assert_true(d->blocked == XS_GPU_WAIT_BARRIER || d->blocked == XS_GPU_WAIT_WAVE_SLOT);
	drain(f);
	assert_int_equal(f->g->cu[0].barriers_used, 0);
}

/* ---- limits ----------------------------------------------------------------- */

static void resource_limits(void **state)
{
	fx *f = *state;
	/* TG_PER_CU = 3 on one CU: 3 groups, then the limit. */
	kern k = { .threads = 32, .wave_size = 32, .vgprs = 8, .limits = S_00B854_TG_PER_CU(3) };
	one_cu(&k, 0, 0, 0);
	xs_gpu_disp *d = begin(f, &k, 5, 0);
	assert_int_equal(f->r[0].groups_launched, 3);
	assert_int_equal(d->blocked, XS_GPU_WAIT_LIMIT);
	drain(f);
	/* WAVES_PER_SH = 10 (per SE), 4-wave groups, every CU: 2 groups in the SE. */
	kern k2 = { .threads = 128, .wave_size = 32, .vgprs = 8, .limits = S_00B854_WAVES_PER_SH(10) };
	d = begin(f, &k2, 4, 1);
	assert_int_equal(f->r[1].groups_launched, 2);
	assert_int_equal(d->blocked, XS_GPU_WAIT_LIMIT);
	drain(f);
}

/* ---- CU masks ---------------------------------------------------------------- */

static void cu_mask_selects_se_sa_cu(void **state)
{
	(void)state;
	/* Series X has 2 SEs: enable only SE1's SA1, CUs 2 and 3 (WGP 1 of that
	 * SA). Every wave's HW_ID then says SE 1, SA 1, WGP 1. */
	fx *f = fx_new(XS_MACHINE_SERIES_X);
	kern k = { .threads = 64, .wave_size = 32, .vgprs = 8 };
	memset(k.cu_mask, 0, sizeof(k.cu_mask));
	k.cu_mask[1] = S_00B858_SA1_CU_EN(0xc);
	xs_gpu_disp *d = begin(f, &k, 64, 0);
	assert_true(f->r[0].groups_launched > 0);
	uint32_t seen = 0;
	for (uint32_t cu = 0; cu < f->g->ncu; cu++) {
		uint32_t n = waves_on_cu(f->g, d, cu);
		if (!n)
			continue;
		uint32_t se, sa, wgp, cu_in_wgp;
		xs_gpu_cu_place(f->g, cu, &se, &sa, &wgp, &cu_in_wgp);
		assert_int_equal(se, 1);
		assert_int_equal(sa, 1);
		assert_int_equal(wgp, 1);
		seen |= 1u << cu_in_wgp;
	}
	assert_int_equal(seen, 3); /* both CUs of the WGP took waves */
	for (uint32_t s = 0; s < f->g->nsimd; s++)
		for (uint32_t i = 0; i < XS_GPU_MAX_WAVE_SLOTS; i++) {
			xs_gpu_wave *w = f->g->simd[s].wave[i];
			if (!w)
				continue;
			assert_int_equal(G_00045C_SE_ID(w->w.hw_id), 1);
			assert_int_equal(G_00045C_SA_ID(w->w.hw_id), 1);
			assert_int_equal(G_00045C_WGP_ID(w->w.hw_id), 1);
			assert_int_equal(G_00045C_WAVE_ID(w->w.hw_id), i);
		}
	/* 2 CUs x 32 slots / 2 waves: 32 groups resident, the rest wait. */
	assert_int_equal(f->r[0].groups_launched, 32);
	drain(f);
	assert_int_equal(f->r[0].groups_launched, 64);
	fx_free(f);
}

static void wgp_mode_needs_both_cus(void **state)
{
	fx *f = *state;
	/* WGP mode with only CU 0 of WGP 0 enabled: no whole WGP, never launches. */
	kern k = { .threads = 32, .wave_size = 32, .vgprs = 8, .wgp_mode = true };
	one_cu(&k, 0, 0, 0);
	xs_err e = { 0 };
	assert_int_equal(begin_status(f, &k, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "COMPUTE_STATIC_THREAD_MGMT_SE0"));
	assert_non_null(strstr(e.msg, "WGP"));
	/* CU mode takes the same mask. */
	k.wgp_mode = false;
	xs_gpu_disp *d = begin(f, &k, 4, 0);
	assert_int_equal(f->r[0].groups_launched, 4);
	assert_int_equal(waves_on_cu(f->g, d, 0), 4);
	drain(f);
}

static void group_stays_in_its_pool(void **state)
{
	fx *f = *state;
	/* Every wave of a group sits on its group's CU (CU mode) or on the two
	 * CUs of its WGP (WGP mode), whatever the CUs around hold. */
	for (int wgp = 0; wgp < 2; wgp++) {
		kern k = { .threads = 320, .wave_size = 32, .vgprs = 64, .wgp_mode = wgp };
		xs_gpu_disp *d = begin(f, &k, 40, wgp);
		assert_true(f->r[wgp].groups_launched > 1);
		for (uint32_t i = 0; i < f->g->ngroups; i++) {
			const xs_gpu_group *grp = &f->g->groups[i];
			bool live = false;
			for (uint32_t s = 0; s < f->g->nsimd && !live; s++)
				for (uint32_t j = 0; j < XS_GPU_MAX_WAVE_SLOTS && !live; j++)
					live = f->g->simd[s].wave[j] && f->g->simd[s].wave[j]->group == grp;
			if (!live || grp->disp != d)
				continue;
			assert_int_equal(grp->nwaves, 10);
			for (uint32_t w = 0; w < grp->nwaves; w++) {
				uint32_t cu = grp->waves[w]->simd / f->g->info->simds_per_cu;
				if (wgp)
					assert_int_equal(f->g->cu[cu].wgp, f->g->cu[grp->cu].wgp);
				else
					assert_int_equal(cu, grp->cu);
			}
		}
		drain(f);
	}
}

/* ---- scratch ------------------------------------------------------------------ */

static void scratch_ring_bounds_waves(void **state)
{
	fx *f = *state;
	/* TMPRING WAVES = 3: at most 3 waves with SCRATCH_EN at once, whatever
	 * else is free; the 4th waits for "scratch". Each wave's scratch offset
	 * SGPR (after TGID_X, TG_SIZE) is its slot times WAVESIZE x 1 KiB, and
	 * the slots are distinct. */
	kern k = { .threads = 32, .wave_size = 32, .vgprs = 8, .scratch = true, .tmpring_waves = 3,
		   .tmpring_wavesize = 2 };
	xs_gpu_disp *d = begin(f, &k, 10, 0);
	assert_int_equal(f->r[0].groups_launched, 3);
	assert_int_equal(f->r[0].scratch_slots, 3);
	assert_int_equal(d->blocked, XS_GPU_WAIT_SCRATCH);
	uint32_t offsets = 0, n = 0;
	for (uint32_t s = 0; s < f->g->nsimd; s++)
		for (uint32_t i = 0; i < XS_GPU_MAX_WAVE_SLOTS; i++) {
			xs_gpu_wave *w = f->g->simd[s].wave[i];
			if (!w)
				continue;
			if (w->regs_pending) /* (set when the wave first runs) */
				xs_gpu_spi_wave_regs(w, &w->w);
			uint32_t off = w->w.s[2]; /* s0 TGID_X, s1 TG_SIZE, s2 scratch offset */
			assert_int_equal(off % 2048, 0);
			assert_true(off / 2048 < 3);
			offsets |= 1u << (off / 2048);
			n++;
		}
	assert_int_equal(n, 3);
	assert_int_equal(offsets, 7);
	drain(f);
	assert_int_equal(f->r[0].groups_launched, 10);
	assert_int_equal(f->r[0].peak_scratch_slots, 3);
	assert_true(f->r[0].wait_cycles[XS_GPU_WAIT_SCRATCH] > 0);
}

static void scratch_slots_capped_per_cu(void **state)
{
	fx *f = *state;
	/* SPEC S1.13: 32 scratch waves per CU, so a ring of 4000 slots gives 20
	 * CUs x 32 = 640. */
	kern k = { .threads = 32, .wave_size = 32, .vgprs = 8, .scratch = true, .tmpring_waves = 4000,
		   .tmpring_wavesize = 1 };
	begin(f, &k, 1, 0);
	assert_int_equal(f->r[0].scratch_slots, 20 * 32);
	drain(f);
	/* Without SCRATCH_EN the ring does not bound anything: 40 waves on a
	 * ring of 3. */
	kern k2 = { .threads = 32, .wave_size = 32, .vgprs = 8, .tmpring_waves = 3, .tmpring_wavesize = 1 };
	begin(f, &k2, 40, 1);
	assert_int_equal(f->r[1].groups_launched, 40);
	assert_int_equal(f->r[1].scratch_slots, 0);
	drain(f);
}

static void scratch_rings_are_per_queue(void **state)
{
	fx *f = *state;
	/* Two queues with the same TMPRING value use two pools (SPEC S1.1):
	 * 2 slots each, 4 waves resident. */
	kern k = { .threads = 32, .wave_size = 32, .vgprs = 8, .scratch = true, .tmpring_waves = 2,
		   .tmpring_wavesize = 1 };
	program(f, &k);
	for (int q = 1; q <= 2; q++)
		for (uint32_t i = 0; i < XS_SH_REG_COUNT; i++)
			f->g->queue[q].sh[i] = f->g->queue[Q].sh[i];
	xs_err e = { 0 };
	assert_int_equal(xs_gpu_dispatch_begin(f->g, 1, 8, 1, 1, initiator(&k), &f->r[0], &e), XS_OK);
	assert_int_equal(xs_gpu_dispatch_begin(f->g, 2, 8, 1, 1, initiator(&k), &f->r[1], &e), XS_OK);
	xs_gpu_spi_launch_pending(f->g);
	assert_int_equal(f->r[0].groups_launched, 2);
	assert_int_equal(f->r[1].groups_launched, 2);
	drain(f);
	assert_int_equal(f->r[0].groups_launched + f->r[1].groups_launched, 16);
}

/* ---- order -------------------------------------------------------------------- */

typedef struct placed {
	uint32_t group, cu, simd, slot;
} placed;

/* Places one dispatch on a fresh GPU and lists where each wave went, in
 * launch order. */
static uint32_t placement(placed *out, uint32_t cap)
{
	fx *f = fx_new(XS_MACHINE_SERIES_S);
	kern k = { .threads = 96, .wave_size = 32, .vgprs = 40, .lds_bytes = 8192 };
	begin(f, &k, 500, 0);
	uint32_t n = 0;
	for (uint64_t seq = 0; seq < f->g->seq; seq++)
		for (uint32_t s = 0; s < f->g->nsimd; s++)
			for (uint32_t i = 0; i < XS_GPU_MAX_WAVE_SLOTS; i++) {
				xs_gpu_wave *w = f->g->simd[s].wave[i];
				if (w && w->seq == seq && n < cap)
					out[n++] = (placed){ w->group->id[0], s / 2, s % 2, i };
			}
	drain(f);
	assert_int_equal(f->r[0].groups_launched, 500);
	fx_free(f);
	return n;
}

static void launch_order_is_deterministic(void **state)
{
	(void)state;
	static placed a[2048], b[2048];
	uint32_t na = placement(a, 2048), nb = placement(b, 2048);
	assert_true(na > 100);
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, na * sizeof(a[0]));
	/* Groups launch in their id order, a group's 3 waves one after another. */
	for (uint32_t i = 0; i < na; i++)
		assert_int_equal(a[i].group, i / 3);
}

/* ---- rejected register state -------------------------------------------------- */

static void rejects_state_that_never_launches(void **state)
{
	fx *f = *state;
	xs_err e;
	kern ok = { .threads = 64, .wave_size = 32, .vgprs = 8 };
	kern k;

	e = (xs_err){ 0 };
	program(f, &ok);
	assert_int_equal(xs_gpu_dispatch_begin(f->g, Q, 1, 1, 1, 0, &f->r[3], &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "COMPUTE_SHADER_EN"));

	k = ok, k.threads = 0, e = (xs_err){ 0 };
	assert_int_equal(begin_status(f, &k, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "COMPUTE_NUM_THREAD_X.NUM_THREAD_FULL"));

	k = ok, k.threads = 1056, e = (xs_err){ 0 }; /* 33 wave32 waves (SPEC S3.5) */
	assert_int_equal(begin_status(f, &k, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "S3.5"));

	/* 32768 x 32768 x 4 is 2^32 threads: a 32-bit product wrapped to a
	 * group of no waves, which every CU took and none retired (a crash) */
	e = (xs_err){ 0 };
	program(f, &ok);
	xs_gpu_set_sh_reg(f->g, Q, R_00B81C_COMPUTE_NUM_THREAD_X, S_00B81C_NUM_THREAD_FULL(32768));
	xs_gpu_set_sh_reg(f->g, Q, R_00B820_COMPUTE_NUM_THREAD_Y, S_00B81C_NUM_THREAD_FULL(32768));
	xs_gpu_set_sh_reg(f->g, Q, R_00B824_COMPUTE_NUM_THREAD_Z, S_00B81C_NUM_THREAD_FULL(4));
	assert_int_equal(xs_gpu_dispatch_begin(f->g, Q, 4, 1, 1, initiator(&ok), &f->r[3], &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "4294967296 threads"));
	assert_non_null(strstr(e.msg, "S3.5"));

	k = ok, k.user_sgprs = 17, e = (xs_err){ 0 };
	assert_int_equal(begin_status(f, &k, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "COMPUTE_PGM_RSRC2.USER_SGPR"));

	k = ok, k.wave_size = 64, k.vgprs = 256, e = (xs_err){ 0 };
	program(f, &k); /* + 8 shared VGPRs: 264 > 256 */
	xs_gpu_set_sh_reg(f->g, Q, R_00B8A0_COMPUTE_PGM_RSRC3, S_00B8A0_SHARED_VGPR_CNT(1));
	assert_int_equal(xs_gpu_dispatch_begin(f->g, Q, 1, 1, 1, initiator(&k), &f->r[3], &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "COMPUTE_PGM_RSRC1.VGPRS"));

	k = ok, k.lds_bytes = 65536 + 512, e = (xs_err){ 0 };
	assert_int_equal(begin_status(f, &k, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "S3.3"));

	k = ok, k.limits = S_00B854_WAVES_PER_SH(1), e = (xs_err){ 0 };
	assert_int_equal(begin_status(f, &k, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "WAVES_PER_SH"));

	k = ok, k.scratch = true, k.tmpring_waves = 1, k.tmpring_wavesize = 1, e = (xs_err){ 0 };
	assert_int_equal(begin_status(f, &k, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "COMPUTE_TMPRING_SIZE.WAVES"));

	k = ok, k.scratch = true, k.tmpring_waves = 8, k.tmpring_wavesize = 0, e = (xs_err){ 0 };
	assert_int_equal(begin_status(f, &k, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "COMPUTE_TMPRING_SIZE.WAVESIZE"));

	k = ok, e = (xs_err){ 0 };
	k.cu_mask[0] = S_00B858_SA0_CU_EN(1u << 5); /* SA0 has CUs 0..9: 5 exists */
	assert_int_equal(begin_status(f, &k, &e), XS_OK);
	drain(f);
	k.cu_mask[0] = S_00B858_SA0_CU_EN(1u << 12); /* ... but not 12 */
	e = (xs_err){ 0 };
	assert_int_equal(begin_status(f, &k, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "COMPUTE_STATIC_THREAD_MGMT_SE0"));

	e = (xs_err){ 0 };
	program(f, &ok);
	assert_int_equal(xs_gpu_dispatch_begin(f->g, XS_GPU_MAX_QUEUES, 1, 1, 1, initiator(&ok), &f->r[3], &e),
			 XS_E_INVALID_ARG);
	assert_int_equal(xs_gpu_ndisp(f->g), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(vgprs_bound_waves_per_cu, setup_s, teardown),
		cmocka_unit_test_setup_teardown(vgpr_granule_rounds_up, setup_s, teardown),
		cmocka_unit_test_setup_teardown(wave64_vgprs_count_twice, setup_s, teardown),
		cmocka_unit_test_setup_teardown(wave_slots_bound_small_waves, setup_s, teardown),
		cmocka_unit_test_setup_teardown(big_group_needs_whole_pool, setup_s, teardown),
		cmocka_unit_test_setup_teardown(lds_cu_and_wgp_pools, setup_s, teardown),
		cmocka_unit_test_setup_teardown(lds_halves_are_per_cu, setup_s, teardown),
		cmocka_unit_test_setup_teardown(barriers_taken_by_multiwave_groups, setup_s, teardown),
		cmocka_unit_test_setup_teardown(resource_limits, setup_s, teardown),
		cmocka_unit_test(cu_mask_selects_se_sa_cu),
		cmocka_unit_test_setup_teardown(wgp_mode_needs_both_cus, setup_s, teardown),
		cmocka_unit_test_setup_teardown(group_stays_in_its_pool, setup_s, teardown),
		cmocka_unit_test_setup_teardown(scratch_ring_bounds_waves, setup_s, teardown),
		cmocka_unit_test_setup_teardown(scratch_slots_capped_per_cu, setup_s, teardown),
		cmocka_unit_test_setup_teardown(scratch_rings_are_per_queue, setup_s, teardown),
		cmocka_unit_test(launch_order_is_deterministic),
		cmocka_unit_test_setup_teardown(rejects_state_that_never_launches, setup_s, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
