/*
 * Graphics shaders (VS, PS) from LLVM's graphics ABIs: ELF REL objects for
 * amdgcn--amdpal (OS/ABI 0x41, registers in msgpack NT_AMDGPU_METADATA
 * "amdpal.pipelines") or amdgcn-mesa-mesa3d (OS/ABI 0x42, registers as
 * (byte address, value) pairs in .AMDGPU.config), gfx1030, as llc-15 emits
 * them. LLVM leaves much to the driver (USER_SGPR, VGPR_COMP_CNT,
 * NUM_INTERP, export formats...): what it cannot say is derived here from
 * the code itself (the exp and v_interp instructions), and what the xs12 ABI
 * fixes (user SGPRs) is in docs/graphics.md.
 *
 * Parsing is strict and bounded like the HSA loader's: errors name the
 * section, byte offset or field.
 */
#ifndef XS_CODEOBJ_GFX_H
#define XS_CODEOBJ_GFX_H

#include "common/xs_common.h"

typedef enum xs_gfx_stage { XS_GFX_STAGE_VS, XS_GFX_STAGE_PS } xs_gfx_stage;
typedef enum xs_gfx_abi { XS_GFX_ABI_PAL, XS_GFX_ABI_MESA } xs_gfx_abi;

#define XS_GFX_MAX_REGS 32

typedef struct xs_gfx_shader {
	xs_gfx_stage stage;       /* from the calling convention's registers (RSRC1_VS vs RSRC1_PS) */
	xs_gfx_abi abi;
	char entry[64];           /* the entry symbol */
	/* The code image, position-independent once loaded: .text (and .rodata,
	 * at rodata_offset, 256-byte aligned after it) with the REL32 relocations
	 * already applied (they are PC-relative within the image). Load it at a
	 * 256-byte-aligned VA (SPI_SHADER_PGM_LO = va >> 8); entry at
	 * va + entry_offset. */
	uint8_t *image;
	size_t image_size;
	uint64_t entry_offset;
	uint64_t code_size;       /* the entry function's size (symbol size, or .text size) */
	/* Hardware state LLVM gave, completed by the loader:
	 * rsrc1: VGPRS/SGPRS blocks, FLOAT_MODE, DX10_CLAMP, MEM_ORDERED (set to
	 *        LLVM's PAL values when the Mesa ABI leaves them 0);
	 * rsrc2: SCRATCH_EN (and PS EXTRA_LDS_SIZE) as LLVM gave; USER_SGPR is
	 *        left 0: the driver sets it from the xs12 ABI. */
	uint32_t rsrc1, rsrc2;
	bool wave64;              /* no PS_W32_EN / VS_W32_EN */
	uint32_t vgprs;           /* allocated VGPRs (from RSRC1.VGPRS) */
	uint32_t sgprs;           /* .sgpr_count (PAL) or from RSRC1 */
	uint32_t scratch_bytes_per_lane; /* PAL .scratch_memory_size; Mesa WAVESIZE * 1024 / lanes */
	uint32_t scratch_bytes_per_wave; /* SPI_TMPRING_SIZE.WAVESIZE granule (1 KiB) rounded up */
	/* From the code (exp / v_interp instructions, s_endpgm-bounded scan of the entry): */
	uint32_t pos_mask;        /* VS: POS0..3 exported (bit n = POSn) */
	uint32_t param_mask;      /* VS: PARAM0..31 exported */
	uint32_t mrt_mask;        /* PS: MRT0..7 exported */
	uint32_t mrt_compr_mask;  /* PS: MRTn exported with COMPR (f16 pairs) */
	bool writes_z;            /* PS: exports MRTZ */
	bool kills;               /* PS: writes EXEC before its last export (discard) or exports NULL */
	uint32_t interp_mask;     /* PS: attributes read by v_interp_* (bit n = attr n) */
	uint32_t num_interp;      /* PS: highest attribute read + 1 (SPI_PS_IN_CONTROL.NUM_INTERP) */
	uint32_t ps_input_ena, ps_input_addr; /* PS: SPI_PS_INPUT_ENA / ADDR */
	uint32_t vgpr_comp_cnt;   /* VS: highest of v0..v3 read + ... : 3 when v3 (InstanceID) is read, else the
				   * highest VS input VGPR index read (0 VertexID only) */
	uint32_t user_sgprs_used; /* highest SGPR read before written + 1 (for the ABI check: must fit the xs12 layout) */
	/* The other registers LLVM gave (byte address, value), e.g. SPI_TMPRING_SIZE,
	 * VGT_SHADER_STAGES_EN, SPI_PS_IN_CONTROL; for `xs12 info` and tests. */
	struct { uint32_t reg, value; } regs[XS_GFX_MAX_REGS];
	uint32_t nregs;
	/* Mesa objects record the wave size nowhere: it is read from the code
	 * (64-bit EXEC operations, the scratch V#'s 64-lane INDEX_STRIDE), and
	 * wave32 is assumed when the code shows neither. True then. `xs12 cc
	 * --abi mesa --wave64` puts an `s_mov_b64 exec, exec` at the entry so
	 * that its objects always show it. */
	bool wave_size_assumed;
} xs_gfx_shader;

/* Parses a graphics code object. entry NULL: the only amdgpu_vs/amdgpu_ps
 * entry (E_INVALID_ARG naming them when there are several). *out owns
 * image; free with xs_gfx_shader_free. XS_E_INVALID_ARG with e naming the
 * problem for anything else: an HSA code object ("a compute code object:
 * load it as a compute pipeline"), another GPU, a missing section. */
xs_status xs_gfx_shader_parse(const void *data, size_t size, const char *entry, xs_gfx_shader *out, xs_err *e);
void xs_gfx_shader_free(xs_gfx_shader *sh);
/* True when data looks like a graphics code object (ELF, EM_AMDGPU, OS/ABI PAL or MESA3D). */
bool xs_gfx_shader_sniff(const void *data, size_t size);

#endif
