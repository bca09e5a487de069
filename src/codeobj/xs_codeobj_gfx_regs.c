/*
 * The registers LLVM 15 gives a graphics shader:
 *  - PAL: the NT_AMDGPU_METADATA note, msgpack { "amdpal.pipelines": [ {
 *    ".registers": { dword offset: value, ... }, ".hardware_stages": { ".vs" |
 *    ".ps": { ".entry_point", ".scratch_memory_size", ".sgpr_count",
 *    ".vgpr_count" } } } ] }. Register keys are dword offsets (byte address / 4).
 *  - Mesa: .AMDGPU.config, (u32 byte address, u32 value) pairs, with the
 *    pseudo-registers 4 and 8 (spilled SGPRs / VGPRs).
 */
#include <msgpack.h>
#include <stdio.h>
#include <string.h>

#include "codeobj/xs_codeobj_gfx_priv.h"
#include "codeobj/xs_codeobj_priv.h"
#include "hw/xs_hw_regs.h"

xs_status xs_gfx_add_reg(xs_gfx_shader *sh, xs_gfx_regsrc *rs, uint32_t reg, uint32_t value, const char *where,
                         xs_err *e)
{
	switch (reg) {
	case R_00B128_SPI_SHADER_PGM_RSRC1_VS: rs->have_rsrc1_vs = true; sh->rsrc1 = value; return XS_OK;
	case R_00B028_SPI_SHADER_PGM_RSRC1_PS: rs->have_rsrc1_ps = true; sh->rsrc1 = value; return XS_OK;
	case R_00B12C_SPI_SHADER_PGM_RSRC2_VS:
	case R_00B02C_SPI_SHADER_PGM_RSRC2_PS: sh->rsrc2 = value; return XS_OK;
	case XS_GFX_SPI_PS_INPUT_ENA: sh->ps_input_ena = value; return XS_OK;
	case XS_GFX_SPI_PS_INPUT_ADDR: sh->ps_input_addr = value; return XS_OK;
	case XS_GFX_R_SPILLED_SGPRS:
	case XS_GFX_R_SPILLED_VGPRS: return XS_OK; /* Mesa's statistics, not registers */
	default: break;
	}
	if (reg == R_0286E8_SPI_TMPRING_SIZE)
		sh->scratch_bytes_per_wave = (value >> 12 & 0x1fff) * 1024; /* WAVESIZE [24:12], 1 KiB units */
	if (reg == XS_GFX_VGT_SHADER_STAGES_EN || reg == R_0286D8_SPI_PS_IN_CONTROL) {
		rs->have_w32_reg = true;
		rs->w32_reg_value |= value;
	}
	if (sh->nregs == XS_GFX_MAX_REGS)
		return xs_err_set(e, XS_E_INVALID_ARG, "%s: more than %u registers", where, XS_GFX_MAX_REGS);
	sh->regs[sh->nregs].reg = reg;
	sh->regs[sh->nregs].value = value;
	sh->nregs++;
	return XS_OK;
}

xs_status xs_gfx_parse_mesa_config(const uint8_t *p, size_t size, uint64_t off, xs_gfx_shader *sh,
                                   xs_gfx_regsrc *rs, xs_err *e)
{
	if (size % 8)
		return xs_err_set(e, XS_E_INVALID_ARG,
		                  ".AMDGPU.config: %zu bytes is not a whole number of (register, value) pairs", size);
	for (size_t i = 0; i < size; i += 8) {
		uint32_t reg = xs_codeobj_rd32(p + i), v = xs_codeobj_rd32(p + i + 4);
		char where[64];
		snprintf(where, sizeof(where), ".AMDGPU.config+0x%zx (file 0x%llx)", i, (unsigned long long)(off + i));
		if (reg & 3)
			return xs_err_set(e, XS_E_INVALID_ARG, "%s: register address 0x%x is not dword-aligned", where, reg);
		xs_status st = xs_gfx_add_reg(sh, rs, reg, v, where, e);
		if (st)
			return st;
	}
	return XS_OK;
}

static const msgpack_object *map_get(const msgpack_object *m, const char *key)
{
	if (m->type != MSGPACK_OBJECT_MAP)
		return NULL;
	size_t n = strlen(key);
	for (uint32_t i = 0; i < m->via.map.size; i++) {
		const msgpack_object *k = &m->via.map.ptr[i].key;
		if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == n && !memcmp(k->via.str.ptr, key, n))
			return &m->via.map.ptr[i].val;
	}
	return NULL;
}

static xs_status get_u32(const msgpack_object *m, const char *key, uint32_t *out, const char *ctx, xs_err *e)
{
	const msgpack_object *v = map_get(m, key);
	if (!v)
		return xs_err_set(e, XS_E_INVALID_ARG, "PAL metadata: %s has no %s", ctx, key);
	if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER || v->via.u64 > UINT32_MAX)
		return xs_err_set(e, XS_E_INVALID_ARG, "PAL metadata: %s%s is not an unsigned 32-bit integer", ctx, key);
	*out = (uint32_t)v->via.u64;
	return XS_OK;
}

static xs_status parse_pipeline(const msgpack_object *pl, xs_gfx_shader *sh, xs_gfx_regsrc *rs, xs_err *e)
{
	const msgpack_object *regs = map_get(pl, ".registers");
	if (!regs || regs->type != MSGPACK_OBJECT_MAP)
		return xs_err_set(e, XS_E_INVALID_ARG, "PAL metadata: amdpal.pipelines[0] has no .registers map");
	for (uint32_t i = 0; i < regs->via.map.size; i++) {
		const msgpack_object *k = &regs->via.map.ptr[i].key, *v = &regs->via.map.ptr[i].val;
		if (k->type != MSGPACK_OBJECT_POSITIVE_INTEGER || k->via.u64 > 0xffff)
			return xs_err_set(e, XS_E_INVALID_ARG,
			                  "PAL metadata: .registers key %u is not a register dword offset (uint16)", i);
		if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER || v->via.u64 > UINT32_MAX)
			return xs_err_set(e, XS_E_INVALID_ARG,
			                  "PAL metadata: .registers[0x%llx] is not an unsigned 32-bit value",
			                  (unsigned long long)k->via.u64);
		char where[64];
		snprintf(where, sizeof(where), "PAL metadata .registers[0x%llx]", (unsigned long long)k->via.u64);
		xs_status st = xs_gfx_add_reg(sh, rs, (uint32_t)k->via.u64 * 4, (uint32_t)v->via.u64, where, e);
		if (st)
			return st;
	}
	const msgpack_object *hs = map_get(pl, ".hardware_stages");
	if (!hs || hs->type != MSGPACK_OBJECT_MAP)
		return xs_err_set(e, XS_E_INVALID_ARG, "PAL metadata: amdpal.pipelines[0] has no .hardware_stages map");
	const char *names[2] = { ".vs", ".ps" };
	for (int s = 0; s < 2; s++) {
		const msgpack_object *st = map_get(hs, names[s]);
		if (!st)
			continue;
		char ctx[48];
		snprintf(ctx, sizeof(ctx), ".hardware_stages%s", names[s]);
		if (st->type != MSGPACK_OBJECT_MAP)
			return xs_err_set(e, XS_E_INVALID_ARG, "PAL metadata: %s is not a map", ctx);
		if (rs->have_pal_stage)
			return xs_err_set(e, XS_E_INVALID_ARG, "PAL metadata: both .vs and .ps hardware stages: one per object");
		const msgpack_object *ep = map_get(st, ".entry_point");
		if (!ep || ep->type != MSGPACK_OBJECT_STR || ep->via.str.size >= sizeof(rs->pal_entry))
			return xs_err_set(e, XS_E_INVALID_ARG, "PAL metadata: %s.entry_point is missing or not a short string",
			                  ctx);
		memcpy(rs->pal_entry, ep->via.str.ptr, ep->via.str.size);
		rs->pal_entry[ep->via.str.size] = 0;
		xs_status r;
		strcat(ctx, ".");
		if ((r = get_u32(st, ".scratch_memory_size", &rs->pal_scratch, ctx, e)) ||
		    (r = get_u32(st, ".sgpr_count", &rs->pal_sgprs, ctx, e)) ||
		    (r = get_u32(st, ".vgpr_count", &rs->pal_vgprs, ctx, e)))
			return r;
		rs->have_pal_stage = true;
	}
	return XS_OK;
}

xs_status xs_gfx_parse_pal(const uint8_t *desc, size_t size, uint64_t off, xs_gfx_shader *sh, xs_gfx_regsrc *rs,
                           xs_err *e)
{
	/* msgpack-c trusts the element counts: a 5-byte array header could make
	 * it allocate 100 GB (found by tests/fuzz, regress/codeobj) */
	xs_err why = { 0 };
	if (xs_codeobj_msgpack_check(desc, size, off, false, &why))
		return xs_err_set(e, XS_E_INVALID_ARG, "PAL metadata (NT_AMDGPU_METADATA at file offset 0x%llx, %zu bytes): "
				  "not valid msgpack (%.900s)", (unsigned long long)off, size, why.msg);
	msgpack_unpacked u;
	msgpack_unpacked_init(&u);
	size_t at = 0;
	xs_status st = XS_OK;
	msgpack_unpack_return r = msgpack_unpack_next(&u, (const char *)desc, size, &at);
	if (r != MSGPACK_UNPACK_SUCCESS && r != MSGPACK_UNPACK_EXTRA_BYTES) {
		st = xs_err_set(e, XS_E_INVALID_ARG,
		                "PAL metadata (NT_AMDGPU_METADATA at file offset 0x%llx, %zu bytes): not valid msgpack (%s)",
		                (unsigned long long)off, size, r == MSGPACK_UNPACK_CONTINUE ? "truncated" : "parse error");
		goto out;
	}
	const msgpack_object *pls = map_get(&u.data, "amdpal.pipelines");
	if (!pls || pls->type != MSGPACK_OBJECT_ARRAY || pls->via.array.size != 1) {
		st = xs_err_set(e, XS_E_INVALID_ARG,
		                "PAL metadata (file offset 0x%llx): no amdpal.pipelines array of one pipeline%s",
		                (unsigned long long)off,
		                map_get(&u.data, "amdhsa.kernels") ? " (amdhsa.kernels: an HSA compute object)" : "");
		goto out;
	}
	st = parse_pipeline(&pls->via.array.ptr[0], sh, rs, e);
out:
	msgpack_unpacked_destroy(&u);
	return st;
}
