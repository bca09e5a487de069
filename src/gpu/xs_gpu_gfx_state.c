/*
 * A draw's fixed-function state, decoded once from the queue's registers
 * (docs/graphics.md section 2; register fields in hw/xs_hw_regs.h). The
 * pipe's stages read this struct, never the registers, so a rule about a
 * register lives here once. State xs12 cannot draw with is an error that
 * names the register and field.
 */
#include "gpu/xs_gpu_gfx.h"
#include "gpu/xs_gpu_priv.h"
#include "hw/xs_hw_surf.h"

#include <string.h>

static uint32_t sh(const xs_gpu_queue_regs *r, uint32_t reg)
{
	return r->sh[(reg - XS_SH_REG_OFFSET) / 4];
}

static uint32_t ctx(const xs_gpu_queue_regs *r, uint32_t reg)
{
	return r->ctx[(reg - XS_CONTEXT_REG_OFFSET) / 4];
}

static uint32_t ucfg(const xs_gpu_queue_regs *r, uint32_t reg)
{
	return r->uconfig[(reg - XS_UCONFIG_REG_OFFSET) / 4];
}

static float ctx_f(const xs_gpu_queue_regs *r, uint32_t reg)
{
	uint32_t v = ctx(r, reg);
	float f;
	memcpy(&f, &v, 4);
	return f;
}

/* SPI_SHADER_PGM_LO/HI: the code address >> 8, bits 40..47 in HI.MEM_BASE. */
static uint64_t pgm_va(const xs_gpu_queue_regs *r, uint32_t lo, uint32_t hi)
{
	return ((uint64_t)sh(r, lo) << 8) | ((uint64_t)G_00B024_MEM_BASE(sh(r, hi)) << 40);
}

static xs_status decode_rt(const xs_gpu_queue_regs *r, unsigned n, xs_gfx_rt *rt, xs_err *e)
{
	uint32_t blk = XS_CB_COLOR_STRIDE * n, ext = XS_CB_COLOR_EXT_STRIDE * n;
	uint32_t info = ctx(r, R_028C70_CB_COLOR0_INFO + blk);
	uint32_t attrib2 = ctx(r, R_028EC0_CB_COLOR0_ATTRIB2 + ext);
	unsigned fmt = G_028C70_FORMAT(info), num = G_028C70_NUMBER_TYPE(info), swap = G_028C70_COMP_SWAP(info);
	*rt = (xs_gfx_rt){ .format = XS_GFX_RT_NONE };
	if (fmt == V_028C70_COLOR_INVALID)
		return XS_OK;
	if (fmt == V_028C70_COLOR_8_8_8_8 && num == V_028C70_NUMBER_UNORM &&
	    (swap == V_028C70_SWAP_STD || swap == V_028C70_SWAP_ALT)) {
		rt->format = XS_GFX_RT_RGBA8_UNORM;
		rt->bpp = 4;
	} else if (fmt == V_028C70_COLOR_32_32_32_32 && num == V_028C70_NUMBER_FLOAT && swap == V_028C70_SWAP_STD) {
		rt->format = XS_GFX_RT_RGBA32_FLOAT;
		rt->bpp = 16;
	} else {
		return xs_err_set(e, XS_E_UNSUPPORTED, "CB_COLOR%u_INFO 0x%08x: FORMAT %u, NUMBER_TYPE %u, COMP_SWAP %u: "
				  "xs12 draws to COLOR_8_8_8_8 UNORM (SWAP_STD or SWAP_ALT) and COLOR_32_32_32_32 "
				  "FLOAT (SWAP_STD)", n, info, fmt, num, swap);
	}
	rt->comp_swap = swap;
	rt->va = ((uint64_t)ctx(r, R_028C60_CB_COLOR0_BASE + blk) << 8) |
		 ((uint64_t)G_028E40_BASE_256B(ctx(r, R_028E40_CB_COLOR0_BASE_EXT + ext)) << 40);
	if (!rt->va)
		return xs_err_set(e, XS_E_INVALID_ARG, "CB_COLOR%u_BASE is 0 for a target with FORMAT %u", n, fmt);
	rt->width = G_028EC0_MIP0_WIDTH(attrib2) + 1;
	rt->height = G_028EC0_MIP0_HEIGHT(attrib2) + 1;
	rt->pitch = xs_hw_linear_pitch(rt->width, rt->bpp);
	rt->write_mask = (ctx(r, R_028238_CB_TARGET_MASK) >> (4 * n)) & 0xF;
	rt->blend = ctx(r, R_028780_CB_BLEND0_CONTROL + XS_CB_BLEND_STRIDE * n);
	rt->export_format = (ctx(r, R_028714_SPI_SHADER_COL_FORMAT) >> (4 * n)) & 0xF;
	return XS_OK;
}

xs_status xs_gfx_state_decode(const xs_gpu_queue_regs *r, xs_gfx_state *s, xs_err *e)
{
	memset(s, 0, sizeof(*s));
	/* shaders */
	s->vs_va = pgm_va(r, R_00B120_SPI_SHADER_PGM_LO_VS, R_00B124_SPI_SHADER_PGM_HI_VS);
	s->ps_va = pgm_va(r, R_00B020_SPI_SHADER_PGM_LO_PS, R_00B024_SPI_SHADER_PGM_HI_PS);
	if (!s->vs_va)
		return xs_err_set(e, XS_E_INVALID_ARG, "SPI_SHADER_PGM_LO_VS/HI_VS: a draw without a vertex shader "
				  "(code address 0)");
	s->vs_rsrc1 = sh(r, R_00B128_SPI_SHADER_PGM_RSRC1_VS);
	s->vs_rsrc2 = sh(r, R_00B12C_SPI_SHADER_PGM_RSRC2_VS);
	s->vs_rsrc3 = sh(r, R_00B118_SPI_SHADER_PGM_RSRC3_VS);
	s->vs_rsrc4 = sh(r, R_00B104_SPI_SHADER_PGM_RSRC4_VS);
	s->ps_rsrc1 = sh(r, R_00B028_SPI_SHADER_PGM_RSRC1_PS);
	s->ps_rsrc2 = sh(r, R_00B02C_SPI_SHADER_PGM_RSRC2_PS);
	s->ps_rsrc3 = sh(r, R_00B01C_SPI_SHADER_PGM_RSRC3_PS);
	s->ps_rsrc4 = sh(r, R_00B004_SPI_SHADER_PGM_RSRC4_PS);
	s->late_alloc_vs = sh(r, R_00B11C_SPI_SHADER_LATE_ALLOC_VS);
	for (unsigned i = 0; i < 32; i++) {
		s->vs_user[i] = sh(r, R_00B130_SPI_SHADER_USER_DATA_VS_0 + 4 * i);
		s->ps_user[i] = sh(r, R_00B030_SPI_SHADER_USER_DATA_PS_0 + 4 * i);
	}
	/* USER_SGPR is 5 bits; USER_SGPR_MSB is the sixth (32 user SGPRs on gfx10) */
	s->vs_user_sgprs = G_00B12C_USER_SGPR(s->vs_rsrc2) | G_00B12C_USER_SGPR_MSB(s->vs_rsrc2) << 5;
	s->ps_user_sgprs = G_00B02C_USER_SGPR(s->ps_rsrc2) | G_00B02C_USER_SGPR_MSB(s->ps_rsrc2) << 5;
	if (s->vs_user_sgprs > 32 || s->ps_user_sgprs > 32)
		return xs_err_set(e, XS_E_INVALID_ARG, "SPI_SHADER_PGM_RSRC2_%s.USER_SGPR(_MSB) asks for %u user SGPRs: "
				  "at most 32", s->vs_user_sgprs > 32 ? "VS" : "PS", XS_MAX(s->vs_user_sgprs,
											s->ps_user_sgprs));
	s->vs_w32 = G_028B54_VS_W32_EN(ctx(r, R_028B54_VGT_SHADER_STAGES_EN));
	uint32_t ps_in = ctx(r, R_0286D8_SPI_PS_IN_CONTROL);
	s->ps_w32 = G_0286D8_PS_W32_EN(ps_in);
	/* RSRC1.VGPRS is encoded in granules of 8 (wave32) or 4 (wave64) */
	s->vs_vgprs = (G_00B128_VGPRS(s->vs_rsrc1) + 1) * (s->vs_w32 ? 8 : 4);
	s->ps_vgprs = (G_00B028_VGPRS(s->ps_rsrc1) + 1) * (s->ps_w32 ? 8 : 4);
	s->tmpring = ctx(r, R_0286E8_SPI_TMPRING_SIZE);

	/* VS outputs, PS inputs */
	uint32_t vs_out = ctx(r, R_0286C4_SPI_VS_OUT_CONFIG);
	s->num_params = G_0286C4_NO_PC_EXPORT(vs_out) ? 0 : G_0286C4_VS_EXPORT_COUNT(vs_out) + 1;
	s->num_interp = G_0286D8_NUM_INTERP(ps_in);
	if (s->num_params > XS_GFX_MAX_PARAMS || s->num_interp > XS_GFX_MAX_PARAMS)
		return xs_err_set(e, XS_E_INVALID_ARG, "SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT / SPI_PS_IN_CONTROL.NUM_INTERP: "
				  "%u parameters, %u interpolants (at most %u)", s->num_params, s->num_interp,
				  XS_GFX_MAX_PARAMS);
	for (unsigned i = 0; i < XS_GFX_MAX_PARAMS; i++) {
		s->ps_input_cntl[i] = ctx(r, R_028644_SPI_PS_INPUT_CNTL_0 + 4 * i);
		if (i < s->num_interp && G_028644_OFFSET(s->ps_input_cntl[i]) >= XS_MAX(s->num_params, 1u) &&
		    G_028644_OFFSET(s->ps_input_cntl[i]) < 0x20)
			return xs_err_set(e, XS_E_INVALID_ARG, "SPI_PS_INPUT_CNTL_%u.OFFSET %u: the VS exports %u "
					  "parameters", i, G_028644_OFFSET(s->ps_input_cntl[i]), s->num_params);
	}
	s->ps_input_ena = ctx(r, R_0286CC_SPI_PS_INPUT_ENA);
	s->ps_input_addr = ctx(r, R_0286D0_SPI_PS_INPUT_ADDR);
	s->z_export_format = G_028710_Z_EXPORT_FORMAT(ctx(r, R_028710_SPI_SHADER_Z_FORMAT));

	/* primitive */
	unsigned pt = G_030908_PRIM_TYPE(ucfg(r, R_030908_VGT_PRIMITIVE_TYPE));
	if (pt == V_030908_DI_PT_TRILIST)
		s->prim = XS_GFX_PRIM_TRILIST;
	else if (pt == V_030908_DI_PT_TRISTRIP)
		s->prim = XS_GFX_PRIM_TRISTRIP;
	else
		return xs_err_set(e, XS_E_UNSUPPORTED, "VGT_PRIMITIVE_TYPE.PRIM_TYPE %u: xs12 draws triangle lists "
				  "(DI_PT_TRILIST, 4) and strips (DI_PT_TRISTRIP, 6)", pt);
	s->index_size = G_03090C_INDEX_TYPE(ucfg(r, R_03090C_VGT_INDEX_TYPE)) == V_03090C_VGT_INDEX_32 ? 4 : 2;
	s->index_va = r->index_base;
	s->index_count_max = r->index_buffer_size;
	s->indx_offset = ctx(r, R_028408_VGT_INDX_OFFSET);
	s->instances = ucfg(r, R_030934_VGT_NUM_INSTANCES);

	/* PA: viewport 0 (a disabled VTE scale is 1, a disabled offset 0) */
	s->cl_vte_cntl = ctx(r, R_028818_PA_CL_VTE_CNTL);
	uint32_t vte = s->cl_vte_cntl;
	if (G_028818_VTX_XY_FMT(vte) || G_028818_VTX_Z_FMT(vte))
		return xs_err_set(e, XS_E_UNSUPPORTED, "PA_CL_VTE_CNTL 0x%08x: VTX_XY_FMT / VTX_Z_FMT 1 (positions "
				  "already divided by w) is not modelled", vte);
	static const uint32_t scale_reg[3] = { R_02843C_PA_CL_VPORT_XSCALE, R_028444_PA_CL_VPORT_YSCALE,
					       R_02844C_PA_CL_VPORT_ZSCALE };
	bool scale_en[3] = { G_028818_VPORT_X_SCALE_ENA(vte), G_028818_VPORT_Y_SCALE_ENA(vte),
			     G_028818_VPORT_Z_SCALE_ENA(vte) };
	bool offset_en[3] = { G_028818_VPORT_X_OFFSET_ENA(vte), G_028818_VPORT_Y_OFFSET_ENA(vte),
			      G_028818_VPORT_Z_OFFSET_ENA(vte) };
	for (int k = 0; k < 3; k++) {
		s->vp_scale[k] = scale_en[k] ? ctx_f(r, scale_reg[k]) : 1.0f;
		s->vp_offset[k] = offset_en[k] ? ctx_f(r, scale_reg[k] + 4) : 0.0f;
	}
	s->zmin = ctx_f(r, R_0282D0_PA_SC_VPORT_ZMIN_0);
	s->zmax = ctx_f(r, R_0282D4_PA_SC_VPORT_ZMAX_0);
	/* scissor: the viewport's ∩ the screen's, bottom-right exclusive */
	uint32_t vtl = ctx(r, R_028250_PA_SC_VPORT_SCISSOR_0_TL), vbr = ctx(r, R_028254_PA_SC_VPORT_SCISSOR_0_BR);
	uint32_t stl = ctx(r, R_028030_PA_SC_SCREEN_SCISSOR_TL), sbr = ctx(r, R_028034_PA_SC_SCREEN_SCISSOR_BR);
	s->scissor[0] = (int32_t)XS_MAX(G_028250_TL_X(vtl), G_028030_TL_X(stl));
	s->scissor[1] = (int32_t)XS_MAX(G_028250_TL_Y(vtl), G_028030_TL_Y(stl));
	s->scissor[2] = (int32_t)XS_MIN(G_028254_BR_X(vbr), G_028034_BR_X(sbr));
	s->scissor[3] = (int32_t)XS_MIN(G_028254_BR_Y(vbr), G_028034_BR_Y(sbr));
	s->su_sc_mode_cntl = ctx(r, R_028814_PA_SU_SC_MODE_CNTL);
	s->cl_clip_cntl = ctx(r, R_028810_PA_CL_CLIP_CNTL);
	s->su_vtx_cntl = ctx(r, R_028BE4_PA_SU_VTX_CNTL);
	s->gb_vert_clip = ctx_f(r, R_028BE8_PA_CL_GB_VERT_CLIP_ADJ);
	s->gb_vert_disc = ctx_f(r, R_028BEC_PA_CL_GB_VERT_DISC_ADJ);
	s->gb_horz_clip = ctx_f(r, R_028BF0_PA_CL_GB_HORZ_CLIP_ADJ);
	s->gb_horz_disc = ctx_f(r, R_028BF4_PA_CL_GB_HORZ_DISC_ADJ);

	/* DB: one linear D32 surface [model] */
	uint32_t dc = ctx(r, R_028800_DB_DEPTH_CONTROL), zi = ctx(r, R_028040_DB_Z_INFO);
	unsigned zf = G_028040_FORMAT(zi);
	s->z_valid = zf == V_028040_Z_32_FLOAT;
	if (zf != V_028040_Z_INVALID && !s->z_valid)
		return xs_err_set(e, XS_E_UNSUPPORTED, "DB_Z_INFO.FORMAT %u: xs12's depth buffers are Z_32_FLOAT (3)",
				  zf);
	s->z_enable = G_028800_Z_ENABLE(dc) && s->z_valid; /* no depth buffer: the test passes */
	s->z_write = G_028800_Z_WRITE_ENABLE(dc) && s->z_enable;
	s->zfunc = G_028800_ZFUNC(dc);
	if (s->z_valid) {
		uint64_t rd = ((uint64_t)ctx(r, R_028048_DB_Z_READ_BASE) << 8) |
			      ((uint64_t)G_028068_BASE_HI(ctx(r, R_028068_DB_Z_READ_BASE_HI)) << 40);
		uint64_t wr = ((uint64_t)ctx(r, R_028050_DB_Z_WRITE_BASE) << 8) |
			      ((uint64_t)G_028068_BASE_HI(ctx(r, R_028070_DB_Z_WRITE_BASE_HI)) << 40);
		if (!rd || (s->z_write && wr != rd))
			return xs_err_set(e, XS_E_INVALID_ARG, "DB_Z_READ_BASE 0x%llx, DB_Z_WRITE_BASE 0x%llx: a Z_32_FLOAT "
					  "depth buffer needs an address, the same for both [model]",
					  (unsigned long long)rd, (unsigned long long)wr);
		uint32_t xy = ctx(r, R_02801C_DB_DEPTH_SIZE_XY);
		s->z_va = rd;
		s->z_width = G_02801C_X_MAX(xy) + 1;
		s->z_height = G_02801C_Y_MAX(xy) + 1;
		s->z_pitch = xs_hw_linear_pitch(s->z_width, 4);
	}

	s->db_shader_control = ctx(r, R_02880C_DB_SHADER_CONTROL);
	s->early_z = s->z_enable && !G_02880C_Z_EXPORT_ENABLE(s->db_shader_control) &&
		     !G_02880C_KILL_ENABLE(s->db_shader_control);

	/* CB */
	s->cb_color_control = ctx(r, R_028808_CB_COLOR_CONTROL);
	for (int k = 0; k < 4; k++)
		s->blend_const[k] = ctx_f(r, R_028414_CB_BLEND_RED + 4 * k);
	bool cb_on = G_028808_MODE(s->cb_color_control) == V_028808_CB_NORMAL;
	for (unsigned n = 0; n < XS_GFX_MAX_RT; n++) {
		if (!cb_on) {
			s->rt[n] = (xs_gfx_rt){ .format = XS_GFX_RT_NONE };
			continue;
		}
		xs_status st = decode_rt(r, n, &s->rt[n], e);
		if (st)
			return st;
	}
	return XS_OK;
}

void xs_gfx_state_set_draw(struct xs_gfx_state *s, const xs_gpu_draw_args *a)
{
	s->instances = a->instance_count;
	if (a->indexed) {
		s->index_size = a->index_size;
		s->index_va = a->index_va;
		s->index_count_max = a->max_indices;
	} else {
		s->index_size = 0;
		s->index_va = 0;
		s->index_count_max = 0;
		s->indx_offset = a->start_vertex;
	}
}
