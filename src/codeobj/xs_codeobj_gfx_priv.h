/*
 * Private to the graphics shader loader (xs_codeobj_gfx*.c):
 *
 *   xs_codeobj_gfx.c       ELF REL sections, symbols, REL32 relocations, the image
 *   xs_codeobj_gfx_regs.c  registers: PAL msgpack map, Mesa .AMDGPU.config pairs
 *   xs_codeobj_gfx_scan.c  what the code says: exp / v_interp / EXEC / input registers
 */
#ifndef XS_CODEOBJ_GFX_PRIV_H
#define XS_CODEOBJ_GFX_PRIV_H

#include "codeobj/xs_codeobj_gfx.h"

/* AMDGPUUsage "AMDGPU ELF Header": EI_OSABI of the graphics ABIs. */
#define XS_ELFOSABI_AMDGPU_PAL 65
#define XS_ELFOSABI_AMDGPU_MESA3D 66
/* AMDGPUUsage "Relocation Records": PC-relative, addend in the literal (REL). */
#define XS_R_AMDGPU_REL32_LO 10
#define XS_R_AMDGPU_REL32_HI 11

/* Registers LLVM 15 writes that src/hw does not name (byte addresses,
 * gfx10.3 register map). */
#define XS_GFX_SPI_PS_INPUT_ENA 0x286CCu
#define XS_GFX_SPI_PS_INPUT_ADDR 0x286D0u
#define XS_GFX_VGT_SHADER_STAGES_EN 0x28B54u
#define XS_GFX_VS_W32_EN_BIT (1u << 23) /* VGT_SHADER_STAGES_EN.VS_W32_EN */
/* Mesa's pseudo-registers in .AMDGPU.config (spilled SGPR/VGPR counts). */
#define XS_GFX_R_SPILLED_SGPRS 0x4u
#define XS_GFX_R_SPILLED_VGPRS 0x8u

/* What the register sources give, before xs_gfx_shader is completed. */
typedef struct xs_gfx_regsrc {
	bool have_rsrc1_vs, have_rsrc1_ps;
	bool have_w32_reg;            /* PAL wrote VGT_SHADER_STAGES_EN / SPI_PS_IN_CONTROL */
	uint32_t w32_reg_value;
	/* PAL .hardware_stages.{vs,ps} */
	char pal_entry[64];
	bool have_pal_stage;
	uint32_t pal_scratch, pal_sgprs, pal_vgprs;
} xs_gfx_regsrc;

/* Adds (reg, value) to sh->regs (and the fields it feeds). */
xs_status xs_gfx_add_reg(xs_gfx_shader *sh, xs_gfx_regsrc *rs, uint32_t reg, uint32_t value, const char *where,
                         xs_err *e);
/* The NT_AMDGPU_METADATA desc of a PAL object (at file offset off). */
xs_status xs_gfx_parse_pal(const uint8_t *desc, size_t size, uint64_t off, xs_gfx_shader *sh, xs_gfx_regsrc *rs,
                           xs_err *e);
/* The .AMDGPU.config section of a Mesa object (at file offset off). */
xs_status xs_gfx_parse_mesa_config(const uint8_t *p, size_t size, uint64_t off, xs_gfx_shader *sh,
                                   xs_gfx_regsrc *rs, xs_err *e);
/* Scans the entry's code in sh->image: exports, interpolation, EXEC writes,
 * input registers read. text_off is .text's file offset (for messages). */
/* The code uses 64-bit lane masks (EXEC pairs): wave64 (Mesa objects record
 * the wave size nowhere else). */
bool xs_gfx_code_uses_exec64(const uint8_t *code, uint64_t size);
xs_status xs_gfx_scan(xs_gfx_shader *sh, uint64_t text_off, xs_err *e);

#endif
