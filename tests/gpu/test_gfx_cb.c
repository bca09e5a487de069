/* The CB (src/gpu/xs_gpu_cb.c): format conversion, write masks and the
 * blend arithmetic of D3D12_BLEND_DESC, against the formulas written out
 * here in double precision; late Z; XS_FILL's memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <math.h>

#include "gpu/xs_gpu_gfx.h"
#include "hw/xs_hw_surf.h"

typedef struct fx {
	xs_vm *vm;
	uint64_t rt8, rt32, z;
	xs_gfx_state s;
} fx;

static int setup(void **state)
{
	static fx f;
	memset(&f, 0, sizeof(f));
	f.vm = xs_vm_create();
	if (xs_vm_alloc(f.vm, 256 * 8, 256, &f.rt8, NULL) || xs_vm_alloc(f.vm, 256 * 8, 256, &f.rt32, NULL) ||
	    xs_vm_alloc(f.vm, 256 * 8, 256, &f.z, NULL))
		return -1;
	xs_gfx_state *s = &f.s;
	s->rt[0] = (xs_gfx_rt){ .format = XS_GFX_RT_RGBA8_UNORM, .va = f.rt8, .width = 8, .height = 8,
				.pitch = xs_hw_linear_pitch(8, 4), .write_mask = 0xF, .bpp = 4,
				.comp_swap = V_028C70_SWAP_STD };
	s->rt[1] = (xs_gfx_rt){ .format = XS_GFX_RT_RGBA32_FLOAT, .va = f.rt32, .width = 8, .height = 8,
				.pitch = xs_hw_linear_pitch(8, 16), .write_mask = 0xF, .bpp = 16 };
	s->zmin = 0.0f;
	s->zmax = 1.0f;
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	fx *f = *state;
	xs_vm_destroy(f->vm);
	return 0;
}

static void px8(fx *f, int x, int y, uint8_t out[4])
{
	assert_true(xs_vm_read(f->vm, f->rt8 + (uint64_t)y * f->s.rt[0].pitch + 4 * x, out, 4, NULL));
}

static void set8(fx *f, int x, int y, const uint8_t v[4])
{
	assert_true(xs_vm_write(f->vm, f->rt8 + (uint64_t)y * f->s.rt[0].pitch + 4 * x, v, 4, NULL));
}

static void px32(fx *f, int x, int y, float out[4])
{
	assert_true(xs_vm_read(f->vm, f->rt32 + (uint64_t)y * f->s.rt[1].pitch + 16 * x, out, 16, NULL));
}

/* D3D's float -> UNORM8: clamp to [0, 1], scale by 255, round to nearest. */
static uint8_t unorm8(double v)
{
	v = v < 0 ? 0 : v > 1 ? 1 : v;
	return (uint8_t)floor(v * 255 + 0.5);
}

static void conversion_and_masks(void **state)
{
	fx *f = *state;
	xs_gfx_state *s = &f->s;
	const float c[4] = { 0.5f, 1.7f, -0.2f, 0.25f };
	assert_true(xs_gfx_cb_write(s, f->vm, 0, 1, 2, c, NULL));
	uint8_t p[4];
	px8(f, 1, 2, p);
	uint8_t want[4] = { unorm8(0.5), 255, 0, unorm8(0.25) };
	assert_memory_equal(p, want, 4);
	assert_int_equal(p[0], 128); /* 127.5 rounds up */
	/* the write mask keeps G and A */
	s->rt[0].write_mask = 0x2 | 0x8;
	const uint8_t old[4] = { 10, 20, 30, 40 };
	set8(f, 3, 3, old);
	assert_true(xs_gfx_cb_write(s, f->vm, 0, 3, 3, c, NULL));
	px8(f, 3, 3, p);
	uint8_t want2[4] = { 10, 255, 30, unorm8(0.25) };
	assert_memory_equal(p, want2, 4);
	s->rt[0].write_mask = 0xF;
	/* SWAP_ALT: B, G, R, A in memory */
	s->rt[0].comp_swap = V_028C70_SWAP_ALT;
	const float bgr[4] = { 1.0f, 0.0f, 0.2f, 1.0f };
	assert_true(xs_gfx_cb_write(s, f->vm, 0, 0, 0, bgr, NULL));
	px8(f, 0, 0, p);
	uint8_t want3[4] = { unorm8(0.2), 0, 255, 255 };
	assert_memory_equal(p, want3, 4);
	s->rt[0].comp_swap = V_028C70_SWAP_STD;
	/* float targets keep the value exactly, out of [0, 1] too */
	assert_true(xs_gfx_cb_write(s, f->vm, 1, 7, 7, c, NULL));
	float q[4];
	px32(f, 7, 7, q);
	assert_memory_equal(q, c, 16);
	/* outside the target: nothing written, no crash */
	assert_true(xs_gfx_cb_write(s, f->vm, 0, 8, 0, c, NULL));
	assert_true(xs_gfx_cb_write(s, f->vm, 0, -1, 0, c, NULL));
	assert_true(xs_gfx_cb_write(s, f->vm, 9, 0, 0, c, NULL));
}

#define BLEND(cs, cf, cd, as, af, ad, sep) \
	(S_028780_COLOR_SRCBLEND(cs) | S_028780_COLOR_COMB_FCN(cf) | S_028780_COLOR_DESTBLEND(cd) | \
	 S_028780_ALPHA_SRCBLEND(as) | S_028780_ALPHA_COMB_FCN(af) | S_028780_ALPHA_DESTBLEND(ad) | \
	 S_028780_SEPARATE_ALPHA_BLEND(sep) | S_028780_ENABLE(1))

static void blending(void **state)
{
	fx *f = *state;
	xs_gfx_state *s = &f->s;
	const uint8_t dst8[4] = { 200, 100, 50, 128 };
	const float src[4] = { 0.9f, 0.3f, 0.6f, 0.25f };
	double d[4];
	for (int k = 0; k < 4; k++)
		d[k] = dst8[k] / 255.0;
	uint8_t p[4];

	/* SRC_ALPHA, INV_SRC_ALPHA, ADD (alpha with the same factors) */
	s->rt[0].blend = BLEND(V_028780_BLEND_SRC_ALPHA, V_028780_COMB_DST_PLUS_SRC, V_028780_BLEND_ONE_MINUS_SRC_ALPHA,
			       0, 0, 0, 0);
	set8(f, 4, 4, dst8);
	xs_gfx_cb_write(s, f->vm, 0, 4, 4, src, NULL);
	px8(f, 4, 4, p);
	for (int k = 0; k < 4; k++)
		assert_int_equal(p[k], unorm8(src[k] * 0.25 + d[k] * 0.75));

	/* ONE, ONE: additive, saturating */
	s->rt[0].blend = BLEND(V_028780_BLEND_ONE, V_028780_COMB_DST_PLUS_SRC, V_028780_BLEND_ONE, 0, 0, 0, 0);
	set8(f, 4, 4, dst8);
	xs_gfx_cb_write(s, f->vm, 0, 4, 4, src, NULL);
	px8(f, 4, 4, p);
	for (int k = 0; k < 4; k++)
		assert_int_equal(p[k], unorm8(src[k] + d[k]));

	/* separate alpha: colour SRC_ALPHA/INV_SRC_ALPHA, alpha ONE/ZERO with REV_SUBTRACT-like DST_MINUS_SRC */
	s->rt[0].blend = BLEND(V_028780_BLEND_SRC_ALPHA, V_028780_COMB_DST_PLUS_SRC, V_028780_BLEND_ONE_MINUS_SRC_ALPHA,
			       V_028780_BLEND_ONE, V_028780_COMB_DST_MINUS_SRC, V_028780_BLEND_ONE, 1);
	set8(f, 4, 4, dst8);
	xs_gfx_cb_write(s, f->vm, 0, 4, 4, src, NULL);
	px8(f, 4, 4, p);
	for (int k = 0; k < 3; k++)
		assert_int_equal(p[k], unorm8(src[k] * 0.25 + d[k] * 0.75));
	assert_int_equal(p[3], unorm8(d[3] - src[3]));

	/* MIN / MAX ignore the factors */
	s->rt[0].blend = BLEND(V_028780_BLEND_ZERO, V_028780_COMB_MIN_DST_SRC, V_028780_BLEND_ZERO, 0, 0, 0, 0);
	set8(f, 4, 4, dst8);
	xs_gfx_cb_write(s, f->vm, 0, 4, 4, src, NULL);
	px8(f, 4, 4, p);
	for (int k = 0; k < 4; k++)
		assert_int_equal(p[k], unorm8(fmin(src[k], d[k])));

	/* float target, SRC_ALPHA/INV_SRC_ALPHA: fp32 arithmetic, no clamp */
	s->rt[1].blend = BLEND(V_028780_BLEND_SRC_ALPHA, V_028780_COMB_DST_PLUS_SRC, V_028780_BLEND_ONE_MINUS_SRC_ALPHA,
			       0, 0, 0, 0);
	const float dst32[4] = { 2.0f, -1.0f, 0.5f, 1.0f };
	assert_true(xs_vm_write(f->vm, f->rt32 + 16 * 5, dst32, 16, NULL));
	xs_gfx_cb_write(s, f->vm, 1, 5, 0, src, NULL);
	float q[4];
	px32(f, 5, 0, q);
	for (int k = 0; k < 4; k++)
		assert_float_equal(q[k], src[k] * 0.25 + dst32[k] * 0.75, 1e-6);

	/* blend off: the source replaces */
	s->rt[0].blend = 0;
	set8(f, 4, 4, dst8);
	xs_gfx_cb_write(s, f->vm, 0, 4, 4, src, NULL);
	px8(f, 4, 4, p);
	for (int k = 0; k < 4; k++)
		assert_int_equal(p[k], unorm8(src[k]));
}

/* Late Z: the depth test runs first; a failing pixel writes no colour. */
static void late_z(void **state)
{
	fx *f = *state;
	xs_gfx_state s = f->s;
	s.z_enable = s.z_write = s.z_valid = true;
	s.zfunc = V_028800_FRAG_LESS;
	s.z_va = f->z;
	s.z_width = s.z_height = 8;
	s.z_pitch = xs_hw_linear_pitch(8, 4);
	float one = 1.0f;
	assert_true(xs_vm_write(f->vm, f->z + 4 * 2, &one, 4, NULL));
	const float red[4] = { 1, 0, 0, 1 }, blue[4] = { 0, 0, 1, 1 };
	float z1 = 0.5f, z2 = 0.7f;
	assert_true(xs_gfx_cb_write(&s, f->vm, 0, 2, 0, red, &z1));
	assert_false(xs_gfx_cb_write(&s, f->vm, 0, 2, 0, blue, &z2));
	uint8_t p[4];
	px8(f, 2, 0, p);
	uint8_t want[4] = { 255, 0, 0, 255 };
	assert_memory_equal(p, want, 4);
	float d;
	assert_true(xs_vm_read(f->vm, f->z + 8, &d, 4, NULL));
	assert_float_equal(d, 0.5, 0);
}

static void fill(void **state)
{
	fx *f = *state;
	xs_err e;
	uint32_t pat[4] = { 0x11111111, 0x22222222, 0x33333333, 0x44444444 };
	/* 3 rows of 32 bytes at pitch 256, a 4-dword pattern */
	assert_int_equal(xs_gfx_fill(f->vm, f->rt32, 256, 32, 3, pat, 4, &e), XS_OK);
	uint32_t row[66];
	for (int r = 0; r < 3; r++) {
		assert_true(xs_vm_read(f->vm, f->rt32 + 256 * r, row, 36, NULL));
		for (int i = 0; i < 8; i++)
			assert_int_equal(row[i], pat[i % 4]);
	}
	/* 1-dword pattern, the bytes after the row untouched */
	uint32_t z = 0xdeadbeef;
	assert_true(xs_vm_write(f->vm, f->rt8 + 12, &z, 4, NULL));
	assert_int_equal(xs_gfx_fill(f->vm, f->rt8, 256, 12, 1, pat, 1, &e), XS_OK);
	assert_true(xs_vm_read(f->vm, f->rt8, row, 16, NULL));
	assert_int_equal(row[2], pat[0]);
	assert_int_equal(row[3], 0xdeadbeef);
	/* bad arguments and unmapped memory */
	assert_int_equal(xs_gfx_fill(f->vm, f->rt8, 256, 12, 1, pat, 3, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "pattern_dw"));
	assert_int_equal(xs_gfx_fill(f->vm, f->rt8, 256, 12, 1, pat, 2, &e), XS_E_INVALID_ARG);
	uint64_t bad = 0;
	assert_int_equal(xs_gfx_fill_at(f->vm, f->rt8 + 256 * 7, 256, 256, 2, pat, 1, &bad, &e), XS_E_DEVICE_REMOVED);
	assert_int_equal(bad, f->rt8 + 256 * 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(conversion_and_masks, setup, teardown),
		cmocka_unit_test_setup_teardown(blending, setup, teardown),
		cmocka_unit_test_setup_teardown(late_z, setup, teardown),
		cmocka_unit_test_setup_teardown(fill, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
