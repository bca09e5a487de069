/*
 * The colour back end (CB): a PS lane's export to a render target, with
 * the target's write mask (CB_TARGET_MASK), blending (CB_BLENDn_CONTROL)
 * and format conversion (CB_COLORn_INFO), plus XS_FILL, the firmware
 * clear. Targets are linear [model], row pitch xs_hw_linear_pitch.
 *
 * D3D12 rules kept: a UNORM target's blend inputs (source, constant) are
 * clamped to [0, 1] and its result is converted by clamping and rounding to
 * the nearest representable value; float targets blend in fp32 unclamped.
 * With SEPARATE_ALPHA_BLEND 0 alpha uses the colour factors and function.
 */
#include "gpu/xs_gpu_gfx.h"

#include <math.h>
#include <string.h>

static float clamp01(float v)
{
	return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; /* NaN -> 0 */
}

/* Exact: the float's value times 255, rounded in double (the product of a
 * float and 255 is exact there; fp32 would round 0.9f x 255 up to .5). A
 * product is never exactly k + 0.5, so nearest-even and half-up agree. */
static uint8_t to_unorm8(float v)
{
	return (uint8_t)floor((double)clamp01(v) * 255.0 + 0.5);
}

/* One blend factor (V_028780_BLEND_*) for component k (3 = alpha). */
static float factor(unsigned f, unsigned k, const float src[4], const float dst[4], const float cst[4])
{
	switch (f) {
	case V_028780_BLEND_ZERO: return 0.0f;
	case V_028780_BLEND_ONE: return 1.0f;
	case V_028780_BLEND_SRC_COLOR: return src[k];
	case V_028780_BLEND_ONE_MINUS_SRC_COLOR: return 1.0f - src[k];
	case V_028780_BLEND_SRC_ALPHA: return src[3];
	case V_028780_BLEND_ONE_MINUS_SRC_ALPHA: return 1.0f - src[3];
	case V_028780_BLEND_DST_ALPHA: return dst[3];
	case V_028780_BLEND_ONE_MINUS_DST_ALPHA: return 1.0f - dst[3];
	case V_028780_BLEND_DST_COLOR: return dst[k];
	case V_028780_BLEND_ONE_MINUS_DST_COLOR: return 1.0f - dst[k];
	case V_028780_BLEND_SRC_ALPHA_SATURATE: return k == 3 ? 1.0f : fminf(src[3], 1.0f - dst[3]);
	case V_028780_BLEND_CONSTANT_COLOR: return cst[k];
	case V_028780_BLEND_ONE_MINUS_CONSTANT_COLOR: return 1.0f - cst[k];
	case V_028780_BLEND_CONSTANT_ALPHA: return cst[3];
	case V_028780_BLEND_ONE_MINUS_CONSTANT_ALPHA: return 1.0f - cst[3];
	default: return 0.0f; /* dual-source (SRC1) factors: xs12 exports one colour per target */
	}
}

static float combine(unsigned fn, float s, float sf, float d, float df)
{
	switch (fn) {
	case V_028780_COMB_DST_PLUS_SRC: return s * sf + d * df;
	case V_028780_COMB_SRC_MINUS_DST: return s * sf - d * df;
	case V_028780_COMB_MIN_DST_SRC: return fminf(s, d); /* MIN / MAX ignore the factors (D3D12) */
	case V_028780_COMB_MAX_DST_SRC: return fmaxf(s, d);
	default: return d * df - s * sf; /* COMB_DST_MINUS_SRC */
	}
}

/* out = blend(src, dst) per CB_BLENDn_CONTROL. */
static void blend(uint32_t ctl, const float src[4], const float dst[4], const float cst[4], float out[4])
{
	bool sep = G_028780_SEPARATE_ALPHA_BLEND(ctl);
	for (unsigned k = 0; k < 4; k++) {
		bool a = k == 3 && sep;
		unsigned sb = a ? G_028780_ALPHA_SRCBLEND(ctl) : G_028780_COLOR_SRCBLEND(ctl);
		unsigned db = a ? G_028780_ALPHA_DESTBLEND(ctl) : G_028780_COLOR_DESTBLEND(ctl);
		unsigned fn = a ? G_028780_ALPHA_COMB_FCN(ctl) : G_028780_COLOR_COMB_FCN(ctl);
		float sf, df;
		if (sb == V_028780_BLEND_BOTH_SRC_ALPHA || sb == V_028780_BLEND_BOTH_INV_SRC_ALPHA) {
			/* the legacy pair: source and destination factors from one setting */
			sf = sb == V_028780_BLEND_BOTH_SRC_ALPHA ? src[3] : 1.0f - src[3];
			df = 1.0f - sf;
		} else {
			sf = factor(sb, k, src, dst, cst);
			df = factor(db, k, src, dst, cst);
		}
		out[k] = combine(fn, src[k], sf, dst[k], df);
	}
}

/* Memory byte of logical component k (R, G, B, A) of an RGBA8 pixel. */
static unsigned rgba8_byte(const xs_gfx_rt *rt, unsigned k)
{
	static const uint8_t alt[4] = { 2, 1, 0, 3 }; /* SWAP_ALT: B, G, R, A in memory */
	return rt->comp_swap == V_028C70_SWAP_ALT ? alt[k] : k;
}

bool xs_gfx_cb_write(const xs_gfx_state *s, xs_vm *vm, unsigned rt_index, int32_t x, int32_t y, const float c[4],
		     const float *z)
{
	if (z && !xs_gfx_depth_test(s, vm, x, y, xs_gfx_depth_clamp(s, *z)))
		return false;
	if (rt_index >= XS_GFX_MAX_RT)
		return true;
	const xs_gfx_rt *rt = &s->rt[rt_index];
	if (rt->format == XS_GFX_RT_NONE || !rt->write_mask || x < 0 || y < 0 || (uint32_t)x >= rt->width ||
	    (uint32_t)y >= rt->height)
		return true;
	uint8_t *p = xs_vm_ptr_n(vm, rt->va + (uint64_t)y * rt->pitch + (uint64_t)x * rt->bpp, rt->bpp, true);
	if (!p)
		return true; /* outside GPU memory: the D3D12 layer checks placements; nothing is written */
	bool unorm = rt->format == XS_GFX_RT_RGBA8_UNORM;
	float src[4], dst[4], out[4], cst[4];
	for (unsigned k = 0; k < 4; k++) {
		src[k] = unorm ? clamp01(c[k]) : c[k];
		cst[k] = unorm ? clamp01(s->blend_const[k]) : s->blend_const[k];
		dst[k] = unorm ? p[rgba8_byte(rt, k)] / 255.0f : 0.0f;
	}
	if (!unorm)
		memcpy(dst, p, 16);
	if (G_028780_ENABLE(rt->blend))
		blend(rt->blend, src, dst, cst, out);
	else
		memcpy(out, src, sizeof(out));
	for (unsigned k = 0; k < 4; k++) {
		if (!(rt->write_mask >> k & 1))
			continue;
		if (unorm)
			p[rgba8_byte(rt, k)] = to_unorm8(out[k]);
		else
			memcpy(p + 4 * k, &out[k], 4);
	}
	return true;
}

xs_status xs_gfx_fill_at(xs_vm *vm, uint64_t va, uint32_t pitch, uint32_t row_bytes, uint32_t rows,
			 const uint32_t *pattern, uint32_t pattern_dw, uint64_t *bad_va, xs_err *e)
{
	if (pattern_dw != 1 && pattern_dw != 2 && pattern_dw != 4)
		return xs_err_set(e, XS_E_INVALID_ARG, "XS_FILL pattern_dw %u is not 1, 2 or 4", pattern_dw);
	if (!rows || !row_bytes || row_bytes % (4 * pattern_dw) || (va & 3) || (pitch & 3) ||
	    (rows > 1 && pitch < row_bytes))
		return xs_err_set(e, XS_E_INVALID_ARG, "XS_FILL of %u rows x %u bytes at pitch %u, address 0x%llx: "
				  "row_bytes must be a positive multiple of the %u-byte pattern, pitch and address "
				  "4-byte aligned, pitch >= row_bytes", rows, row_bytes, pitch,
				  (unsigned long long)va, 4 * pattern_dw);
	/* a chunk of repeated pattern; 4096 is a multiple of every pattern size */
	uint32_t chunk[1024];
	for (unsigned i = 0; i < 1024; i++)
		chunk[i] = pattern[i % pattern_dw];
	for (uint32_t r = 0; r < rows; r++) {
		uint64_t row = va + (uint64_t)r * pitch;
		for (uint64_t off = 0; off < row_bytes;) {
			size_t n = (size_t)XS_MIN((uint64_t)sizeof(chunk), row_bytes - off);
			if (!xs_vm_write(vm, row + off, chunk, n, bad_va))
				return xs_err_set(e, XS_E_DEVICE_REMOVED, "XS_FILL writes 0x%llx, which is not in GPU "
						  "memory", (unsigned long long)(bad_va ? *bad_va : row + off));
			off += n;
		}
	}
	return XS_OK;
}

xs_status xs_gfx_fill(xs_vm *vm, uint64_t va, uint32_t pitch, uint32_t row_bytes, uint32_t rows,
		      const uint32_t *pattern, uint32_t pattern_dw, xs_err *e)
{
	uint64_t bad = 0;
	return xs_gfx_fill_at(vm, va, pitch, row_bytes, rows, pattern, pattern_dw, &bad, e);
}
