/*
 * RDNA2 (gfx10.3) ISA: the opcode table, the decoder, predecoded code and
 * the interpreter's interface to the rest of the GPU model.
 *
 * One table (xs_isa_ops.def, X-macros) is the single source for the opcode
 * enum, mnemonics, decode maps and the interpreter's dispatch. Code is
 * fetched from GPU memory (the GPU model never sees API objects) and
 * predecoded once per 4 KiB code page into xs_inst records (xs_icache).
 */
#ifndef XS_ISA_H
#define XS_ISA_H

#include "common/xs_common.h"
#include "mem/xs_vm.h"

#ifdef __AVX512F__
#include <immintrin.h> /* xs_isa_mtrace_lanes */
#endif

/* ---- encodings ----------------------------------------------------------- */
typedef enum xs_enc {
	XS_ENC_SOP2, XS_ENC_SOPK, XS_ENC_SOP1, XS_ENC_SOPC, XS_ENC_SOPP, XS_ENC_SMEM,
	XS_ENC_VOP2, XS_ENC_VOP1, XS_ENC_VOPC, XS_ENC_VOP3, XS_ENC_VOP3P, XS_ENC_VINTRP,
	XS_ENC_DS, XS_ENC_MUBUF, XS_ENC_MTBUF, XS_ENC_MIMG, XS_ENC_FLAT, XS_ENC_GLOBAL,
	XS_ENC_SCRATCH, XS_ENC_EXP,
	XS_ENC_COUNT
} xs_enc;

/* Issue class: which pipe an instruction goes to. The timing model charges
 * costs by class in the dispatch wrapper, never inside instruction bodies. */
typedef enum xs_iclass {
	XS_IC_SALU, XS_IC_SMEM, XS_IC_BRANCH, XS_IC_MSG, XS_IC_VALU, XS_IC_VALU_TRANS,
	XS_IC_VALU_DP, XS_IC_LDS, XS_IC_VMEM_LOAD, XS_IC_VMEM_STORE, XS_IC_VMEM_ATOMIC,
	XS_IC_EXPORT, XS_IC_INTERNAL,
	XS_IC_COUNT
} xs_iclass;

/* The vector memory classes (loads, stores, atomics) are one range. */
static inline bool xs_iclass_is_vmem(unsigned iclass)
{
	return iclass >= XS_IC_VMEM_LOAD && iclass <= XS_IC_VMEM_ATOMIC;
}

/* Opcode-table flags (xs_op_info.flags, the last column of xs_isa_ops.def). */
#define XS_OPF_D64      (1u << 0)   /* destination is 64-bit (register pair) */
#define XS_OPF_S0_64    (1u << 1)   /* source 0 is 64-bit */
#define XS_OPF_S1_64    (1u << 2)
#define XS_OPF_S2_64    (1u << 3)
#define XS_OPF_F16      (1u << 4)   /* source type f16: float inline constants are halves */
#define XS_OPF_F32      (1u << 5)   /* source type f32 (abs/neg act on bit 31) */
#define XS_OPF_F64      (1u << 6)   /* source type f64: inline constants are doubles */
/* bit 7 unused: each SALU handler sets SCC itself, so the table does not say which do */
#define XS_OPF_CMP      (1u << 8)   /* VOPC compare: writes a lane mask (VCC for e32, sdst for e64) */
#define XS_OPF_CMPX     (1u << 9)   /* v_cmpx: writes EXEC (gfx10: only EXEC) */
#define XS_OPF_SDST     (1u << 10)  /* VOP3b: scalar lane-mask destination (carry out, div_scale) */
#define XS_OPF_LMASK_IN (1u << 11)  /* src2 is a lane mask (VCC in e32 form): v_cndmask, *_co_ci */
#define XS_OPF_NOVOP3   (1u << 12)  /* VOP1/VOP2/VOPC op without a VOP3 form */
#define XS_OPF_KIMM     (1u << 13)  /* always carries a 32-bit constant (v_fmamk/v_fmaak) */
#define XS_OPF_BRANCH   (1u << 14)  /* changes the PC */
#define XS_OPF_LOAD     (1u << 15)  /* memory: reads */
#define XS_OPF_STORE    (1u << 16)  /* memory: writes */
#define XS_OPF_ATOMIC   (1u << 17)  /* memory: read-modify-write */
#define XS_OPF_SRC16    (1u << 18)  /* VALU: 16-bit sources (VOP3 op_sel picks halves) */
#define XS_OPF_DF16     (1u << 19)  /* VALU: float result (omod/clamp apply) of 16 ... */
#define XS_OPF_DF32     (1u << 20)  /* ... 32 ... */
#define XS_OPF_DF64     (1u << 21)  /* ... or 64 bits */
#define XS_OPF_DST16    (1u << 22)  /* VALU: 16-bit result (op_sel[3] writes the high half) */
#define XS_OPF_DW(n)    ((uint32_t)(n) << 24)            /* memory: dwords per element (0 = n/a) */
#define XS_OPF_I64      (1u << 29)  /* signed 64-bit operands: a literal is sign-extended */
#define XS_OPF_DW_OF(f) (((f) >> 24) & 0x1fu)

/* The opcode enum: XS_OP_<mnemonic>, generated from the table. */
typedef enum xs_op {
	XS_OP_INVALID = 0,
#define XS_ISA_OP(enc, opc, name, iclass, flags) XS_OP_##name,
#include "isa/xs_isa_ops.def"
#undef XS_ISA_OP
	XS_OP_COUNT
} xs_op;

typedef struct xs_op_info {
	const char *name;   /* llvm-objdump mnemonic without _e32/_e64/_sdwa/_dpp suffix */
	uint8_t enc;        /* xs_enc of the native encoding */
	uint16_t opcode;    /* opcode number in that encoding */
	uint8_t iclass;
	uint32_t flags;     /* XS_OPF_* (operand widths, types), see xs_isa_ops.def */
} xs_op_info;
extern const xs_op_info xs_op_table[XS_OP_COUNT];

/* ---- predecoded instruction ---------------------------------------------- */
/* Operand encoding: the 9-bit source encoding of the ISA (0..105 SGPR,
 * 106/107 VCC, 108..123 TTMP, 124 M0, 125 NULL, 126/127 EXEC, 128..208
 * inline integers, 240..248 inline floats, 251 VCCZ, 252 EXECZ, 253 SCC,
 * 255 literal, 256..511 VGPRs). */
#define XS_SRC_INT0        128  /* inline 0; 129..192 = 1..64, 193..208 = -1..-16 */
#define XS_SRC_INT64       192  /* the last positive inline integer (64) */
#define XS_SRC_INTM16      208  /* the last negative one (-16) */
#define XS_SRC_SHARED_BASE 235  /* the aperture registers: src_shared_base, */
#define XS_SRC_SHARED_LIMIT 236 /* src_shared_limit, */
#define XS_SRC_PRIVATE_BASE 237 /* src_private_base, */
#define XS_SRC_PRIVATE_LIMIT 238 /* src_private_limit */
#define XS_SRC_POPS_WAVE   239
#define XS_SRC_HALF        240  /* 0.5, -0.5, 1, -1, 2, -2, 4, -4 = 240..247 */
#define XS_SRC_INV2PI      248
#define XS_SRC_SDWA        249
#define XS_SRC_DPP16       250
#define XS_SRC_DPP8        233
#define XS_SRC_DPP8_FI     234
#define XS_SRC_VCCZ        251
#define XS_SRC_EXECZ       252
#define XS_SRC_SCC         253
#define XS_SRC_LDS_DIRECT  254
#define XS_SRC_LITERAL     255
#define XS_SRC_VGPR        256

/* xs_inst.mods bits. VOP3 abs/neg/opsel/clamp/omod; VOP3P opsel_hi/neg_hi;
 * SDWA and DPP16 source abs/neg and SDWA clamp/omod are folded into the same
 * bits, so an instruction body sees one set of modifiers whatever its form. */
#define XS_MOD_ABS(i)      (1u << (0 + (i)))   /* i = source 0..2 */
#define XS_MOD_NEG(i)      (1u << (3 + (i)))   /* VOP3P: neg_lo */
#define XS_MOD_OPSEL(i)    (1u << (6 + (i)))   /* i = 0..2 sources, 3 = destination */
#define XS_MOD_OPSEL_HI(i) (1u << (10 + (i)))  /* VOP3P */
#define XS_MOD_NEG_HI(i)   (1u << (13 + (i)))  /* VOP3P */
#define XS_MOD_CLAMP       (1u << 16)
#define XS_MOD_OMOD_SHIFT  17                  /* 2 bits: 0 none, 1 *2, 2 *4, 3 /2 */
#define XS_MOD_GLC         (1u << 19)
#define XS_MOD_SLC         (1u << 20)
#define XS_MOD_DLC         (1u << 21)
#define XS_MOD_OFFEN       (1u << 22)
#define XS_MOD_IDXEN       (1u << 23)
#define XS_MOD_LDS         (1u << 24)  /* MUBUF lds / FLAT lds bit */
#define XS_MOD_TFE         (1u << 25)
#define XS_MOD_GDS         (1u << 26)
#define XS_MOD_SDWA        (1u << 27)  /* ext = the SDWA dword */
#define XS_MOD_DPP16       (1u << 28)  /* ext = the DPP16 dword */
#define XS_MOD_DPP8        (1u << 29)  /* ext = the DPP8 dword; fetch-inactive in XS_MOD_DPP8_FI */
#define XS_MOD_DPP8_FI     (1u << 30)
#define XS_MOD_LIT         (1u << 31)  /* the instruction carries a literal dword */

/* SDWA dword (xs_inst.ext when XS_MOD_SDWA) fields. */
#define XS_SDWA_DST_SEL(e)    (((e) >> 8) & 7)   /* 0..3 BYTE_n, 4/5 WORD_n, 6 DWORD */
#define XS_SDWA_DST_UNUSED(e) (((e) >> 11) & 3)  /* 0 pad, 1 sext, 2 preserve */
#define XS_SDWA_SRC0_SEL(e)   (((e) >> 16) & 7)
#define XS_SDWA_SRC0_SEXT(e)  (((e) >> 19) & 1)
#define XS_SDWA_SRC1_SEL(e)   (((e) >> 24) & 7)
#define XS_SDWA_SRC1_SEXT(e)  (((e) >> 27) & 1)
/* DPP16 dword fields. */
#define XS_DPP_CTRL(e)        (((e) >> 8) & 0x1ff)
#define XS_DPP_FI(e)          (((e) >> 18) & 1)
#define XS_DPP_BOUND_ZERO(e)  (((e) >> 19) & 1)
#define XS_DPP_BANK_MASK(e)   (((e) >> 24) & 0xf)
#define XS_DPP_ROW_MASK(e)    (((e) >> 28) & 0xf)

/* MIMG: xs_inst.ext fields (addresses 9..12 of an NSA instruction live in
 * ext[31:16] and sdst; use xs_isa_mimg_vaddr()). */
#define XS_MIMG_DMASK(e)  ((e) & 0xf)
#define XS_MIMG_DIM(e)    (((e) >> 4) & 7)
#define XS_MIMG_UNORM     (1u << 7)
#define XS_MIMG_R128      (1u << 8)
#define XS_MIMG_A16       (1u << 9)
#define XS_MIMG_D16       (1u << 10)
#define XS_MIMG_LWE       (1u << 11)
#define XS_MIMG_NSA(e)    (((e) >> 12) & 3)   /* extra address dwords */

/* Field use by encoding (register operands always in the operand encoding
 * above; a VGPR destination is 256 + n too):
 *   SOP2/SOP1/SOPC  dst = sdst, src[0..1] = ssrc0/1 (SOPC has no dst; SOP1 no src1)
 *   SOPK            dst = sdst, src[0] = sdst (s_cmpk/addk/mulk read it),
 *                   imm = simm16 sign-extended; s_setreg_imm32_b32: literal
 *   SOPP            imm = simm16 sign-extended (branch delta in dwords)
 *   SMEM            dst = sdata, src[0] = sbase SGPR (even), src[1] = soffset
 *                   (XS_SREG_NULL when none), imm = offset21 sign-extended, mods glc/dlc
 *   VOP1/2/C/3/3P   dst = vdst (256 + n; an SGPR for v_readlane/readfirstlane),
 *                   sdst = lane-mask destination (VOPC, VOP3b; VCC for e32 forms,
 *                   EXEC for v_cmpx), src[0..2]. Implicit operands are explicit:
 *                   e32 carry-in / v_cndmask mask src[2] = VCC; v_fmac-style
 *                   accumulators src[2] = dst; v_fmamk = {src0, K, vsrc1} and
 *                   v_fmaak = {src0, vsrc1, K} with K in literal (src 255).
 *                   SDWA/DPP: src[0] is the real source (from the extra dword).
 *   VINTRP          dst, src[0] = vsrc (256 + n), ext = attr | chan << 6
 *   DS              dst = vdst, src[0] = addr, src[1] = data0, src[2] = data1
 *                   (all 256 + n), imm = offset1 << 8 | offset0, ext = offset1, mods gds
 *   MUBUF/MTBUF     dst = vdata, src[0] = vaddr, src[1] = srsrc (first SGPR),
 *                   src[2] = soffset (operand encoding), imm = offset12,
 *                   mods offen/idxen/glc/slc/dlc/lds/tfe, ext = MTBUF format
 *   MIMG            dst = vdata, src[0] = vaddr (first address), src[1] = srsrc,
 *                   src[2] = ssamp, ext = XS_MIMG_*, literal/imm = NSA addresses 1..8
 *   FLAT/GLOBAL/SCRATCH  dst = vdst, src[0] = addr, src[1] = data (256 + n),
 *                   src[2] = saddr (XS_SREG_NULL when off), imm = offset (signed
 *                   for GLOBAL/SCRATCH); mods glc/slc/dlc/lds. SCRATCH: src[0] is
 *                   XS_SREG_NULL when the address has no VGPR part.
 *   EXP             src[0..3] = vsrc0..3, ext = en | tgt << 4 | compr << 10 |
 *                   done << 11 | vm << 12
 */
typedef struct xs_inst {
	uint16_t op;         /* xs_op */
	uint8_t enc;         /* xs_enc as encoded (VOP2 vs VOP3 form of one op) */
	uint8_t size;        /* bytes: 4, 8, 12 (literal / NSA) ... */
	uint16_t dst, sdst;  /* destination operand(s) */
	uint16_t src[4];
	uint32_t literal;
	int32_t imm;         /* simm16, SMEM/DS/MUBUF/FLAT offset, branch delta ... */
	uint32_t mods;       /* format-specific modifier bits (abs/neg/clamp/omod/opsel/glc/slc/dlc/...) */
	uint32_t ext;        /* format-specific extra fields (DPP ctrl, SDWA sels, DS offset1, dmask ...) */
	uint16_t vgpr_end;   /* one past the highest VGPR the instruction may touch (0: none);
	                      * the interpreter faults it when above the wave's nvgpr */
} xs_inst;

/* Address VGPR i (0-based) of a MIMG instruction (NSA or contiguous). */
unsigned xs_isa_mimg_vaddr(const xs_inst *in, unsigned i);
/* The elements a DS instruction moves per lane, at the address VGPR plus
 * off[0] (and off[1]) bytes: the *2* forms two, at offset0 and offset1 in
 * units of the element (ndw dwords; x64 for st64), the others one, at the
 * 16-bit offset (off[1] = 0). The interpreter's LDS handlers spell the same
 * rule out per opcode, with constant sizes. */
unsigned xs_isa_ds_elements(const xs_inst *in, unsigned ndw, uint32_t off[2]);
/* Mnemonic of an op ("invalid" for XS_OP_INVALID or out of range). */
const char *xs_isa_op_name(unsigned op);

/* Decodes one instruction at words[0..nwords); returns its size in bytes, or
 * 0 for an encoding the table does not know (out->op = XS_OP_INVALID). */
unsigned xs_isa_decode(const uint32_t *words, size_t nwords, xs_inst *out);

/* ---- wave state ------------------------------------------------------------ */
#define XS_SREG_VCC_LO 106
#define XS_SREG_VCC_HI 107
#define XS_SREG_M0 124
#define XS_SREG_NULL 125
#define XS_SREG_EXEC_LO 126
#define XS_SREG_EXEC_HI 127
#define XS_MAX_LANES 64
#define XS_MAX_VGPRS 256

/* Hardware registers for s_getreg/s_setreg (gfx10 HW_REG ids, the numbers
 * llvm-mc-15 -mcpu=gfx1030 encodes for hwreg(HW_REG_*)). */
#define XS_HWREG_MODE          1
#define XS_HWREG_STATUS        2
#define XS_HWREG_TRAPSTS       3
#define XS_HWREG_GPR_ALLOC     5
#define XS_HWREG_LDS_ALLOC     6
#define XS_HWREG_IB_STS        7
#define XS_HWREG_SH_MEM_BASES  15
#define XS_HWREG_FLAT_SCR_LO   20
#define XS_HWREG_FLAT_SCR_HI   21
#define XS_HWREG_HW_ID1        23
#define XS_HWREG_HW_ID2        24
#define XS_HWREG_SHADER_CYCLES 29

/* Flat apertures (xs12's choice, reported by SH_MEM_BASES and the
 * src_shared_base / src_private_base operands): the high 16 bits of a flat
 * address select the aperture, each 4 GiB. SH_MEM_BASES = SHARED_BASE[31:16] |
 * PRIVATE_BASE[15:0]. A flat access in the shared aperture goes to LDS at
 * (addr - base); in the private aperture to scratch at FLAT_SCRATCH with the
 * per-lane dword swizzle (see xs_isa_exec_vmem.c). Both lie above the 48-bit
 * VA range, so they can never alias a real allocation. */
#define XS_APERTURE_SHARED_HI16  0x1000u
#define XS_APERTURE_PRIVATE_HI16 0x2000u
#define XS_APERTURE_SHARED_BASE  ((uint64_t)XS_APERTURE_SHARED_HI16 << 48)
#define XS_APERTURE_PRIVATE_BASE ((uint64_t)XS_APERTURE_PRIVATE_HI16 << 48)
#define XS_SH_MEM_BASES          ((XS_APERTURE_SHARED_HI16 << 16) | XS_APERTURE_PRIVATE_HI16)

/* HW_REG_MODE fields. */
#define XS_MODE_FP_ROUND(m)    ((m) & 0xf)         /* [1:0] f32, [3:2] f64/f16: 0 RNE, 1 +inf, 2 -inf, 3 zero */
#define XS_MODE_FP_DENORM(m)   (((m) >> 4) & 0xf)  /* [5:4] f32, [7:6] f64/f16: 0 flush, 3 keep */
#define XS_MODE_DX10_CLAMP     (1u << 8)
#define XS_MODE_IEEE           (1u << 9)

/* The SPI sets MODE at wave launch from COMPUTE_PGM_RSRC1 (XS_MODE_FROM_RSRC1). */

typedef enum xs_wave_status {
	XS_WAVE_READY = 0,   /* can run */
	XS_WAVE_BARRIER,     /* waits at s_barrier; the SPI releases the group */
	XS_WAVE_ENDED,       /* s_endpgm */
	XS_WAVE_FAULT,       /* VM fault, illegal or unimplemented instruction */
	XS_WAVE_EXP_WAIT,    /* waits at an exp the export sink could not take yet (w->pc on
	                      * the exp): the GPU model sets READY when it can, and the exp
	                      * then runs again (late-alloc parameter cache, SPEC S4.1) */
} xs_wave_status;

typedef enum xs_fault_kind {
	XS_FAULT_NONE = 0,
	XS_FAULT_VM,             /* memory access outside every allocation */
	XS_FAULT_ILLEGAL,        /* word that decodes to nothing */
	XS_FAULT_UNIMPLEMENTED,  /* known instruction the interpreter does not run yet */
	XS_FAULT_LDS,            /* LDS access outside the group's allocation (reported, not fatal on HW; xs12 halts) */
	XS_FAULT_WATCHDOG,       /* the wave's instruction budget is exhausted */
	XS_FAULT_HANG,           /* set by the GPU: its dispatch made no forward progress (src/gpu) */
	XS_FAULT_HOST_MEMORY,    /* the host had no memory for the wave's work (decoded code): no fault of the shader */
} xs_fault_kind;

typedef struct xs_fault {
	xs_fault_kind kind;
	uint64_t pc;
	uint64_t addr;          /* faulting address for VM / LDS faults */
	char what[160];         /* mnemonic or detail */
} xs_fault;

/* Wave state. The SPI initialises a wave before its first xs_isa_run:
 *   s[]          zero, then the user SGPRs (from COMPUTE_USER_DATA / the
 *                kernel descriptor's enables) and system SGPRs (work-group
 *                ids, TG info, private segment wave offset) from s0 up, as
 *                AMDGPUUsage "Initial Kernel Execution State" orders them;
 *                EXEC in s[126] (and s[127] for wave64; wave32 ignores it).
 *                s[125] (NULL) reads 0: xs_isa_run clears it on entry.
 *   v, nvgpr     nvgpr rows of XS_MAX_LANES lanes, nvgpr = the kernel's
 *                allocation ((COMPUTE_PGM_RSRC1.VGPRS + 1) * 8 for wave32,
 *                * 4 for wave64); v0..v2 = work-item ids (TIDIG_COMP_CNT).
 *                An instruction that names a VGPR >= nvgpr faults
 *                (XS_FAULT_ILLEGAL) instead of touching host memory.
 *   pc           kernel entry (descriptor address + entry byte offset)
 *   lanes        32 or 64
 *   mode         from COMPUTE_PGM_RSRC1 (XS_MODE_FROM_RSRC1, src/hw/xs_hw_isa.h)
 *   lds/lds_size the group's LDS (static + dynamic bytes); shared by the
 *                group's waves, which must run on one host thread
 *   flat_scratch 0 (the kernel prolog writes FLAT_SCR_LO/HI with s_setreg
 *                from Flat Scratch Init + wave offset); the private
 *                segment buffer V# (swizzled, ADD_TID_ENABLE, INDEX_STRIDE
 *                32/64 lanes) goes in the user SGPRs as usual
 *   hw_id/hw_id2 what s_getreg HW_ID1/HW_ID2 return; status READY; insts 0 */
typedef struct xs_wave {
	/* Fields read by every instruction first, so that they share a host
	 * cache line with the end of the owner's bookkeeping (the timing model
	 * switches waves at every instruction). */
	uint64_t pc;                  /* byte address in GPU memory */
	uint32_t (*v)[XS_MAX_LANES];  /* VGPRs: v[reg][lane], nvgpr registers */
	uint32_t nvgpr;
	uint32_t lanes;               /* 32 or 64 */
	xs_wave_status status;
	uint32_t scc;
	uint64_t insts;               /* wave instructions executed */
	uint32_t mode;                /* HW_REG_MODE: round / denorm / dx10 clamp / ieee */
	uint32_t trapsts;
	uint32_t hw_id;               /* HW_REG_HW_ID1 for s_getreg (wave/simd/wgp/sa/se ids) */
	uint32_t hw_id2;              /* HW_REG_HW_ID2 (queue/pipe/me/state/wg/vm ids) */
	uint64_t flat_scratch;        /* HW_REG_FLAT_SCR_LO/HI (hardware registers on gfx10) */
	uint8_t *lds;                 /* this workgroup's LDS allocation */
	uint32_t lds_size;
	uint32_t wave_in_group;
	/* Pixel shaders: bytes of parameter data per primitive in lds (the
	 * SPI's layout for v_interp_*, docs/graphics.md "Interpolation"):
	 * attribute a of the primitive at index k of the wave sits at
	 * lds + M0[15:0] + k * interp_prim_stride + a * 48 as P0.xyzw, P10.xyzw,
	 * P20.xyzw (f32); lane l belongs to primitive k = popcount of
	 * M0[16 + 0 .. 16 + l/4] - 1 (a set NEW_PRIM_MASK bit starts a primitive
	 * at that quad). 0 for other stages. */
	uint32_t interp_prim_stride;
	void *owner;                  /* the SPI's bookkeeping */
	/* NULL, or the detail s_endpgm faults with (XS_FAULT_ILLEGAL): the GPU
	 * model sets it for a wave that owes an export before it may end (a VS
	 * wave its position, docs/graphics.md 1.3) and clears it when the
	 * export is taken. */
	const char *end_fault;
	/* Scalar file indexed by operand encoding 0..127 (see above): s0..s105,
	 * VCC, TTMP, M0, NULL (reads 0, writes dropped), EXEC. */
	uint32_t s[128];
} xs_wave;

static inline uint64_t xs_wave_exec(const xs_wave *w)
{
	uint64_t e = w->s[XS_SREG_EXEC_LO] | ((uint64_t)w->s[XS_SREG_EXEC_HI] << 32);
	return w->lanes == 64 ? e : (e & 0xffffffffull);
}

/* ---- predecode cache ---------------------------------------------------------- */
typedef struct xs_icache xs_icache;
xs_icache *xs_icache_create(void);
void xs_icache_destroy(xs_icache *ic);
/* Drops every decoded page (code memory rewritten: ACQUIRE_MEM with GLI_INV). */
void xs_icache_flush(xs_icache *ic);

/* ---- interpreter ------------------------------------------------------------ */
/* The cache lines an instruction's vector memory accesses touched, for the
 * timing model's caches. Collected only while ctx->mtrace is set (the
 * functional mode leaves it NULL and pays nothing). */
/* The lines are the device's L2 lines (xs_devinfo.l2_line_bytes): a constant
 * here so that the interpreter shifts by an immediate; src/gpu checks that it
 * agrees with the device table (at compile time and in xs_gpu_create). */
#define XS_MTRACE_LINE_SHIFT 7
#define XS_MTRACE_MAX 256        /* most lines one instruction touches: 64 lanes x 4 dwords */
typedef struct xs_isa_mtrace {
	uint32_t n;              /* lines recorded; consecutive repeats are merged */
	uint32_t cap;            /* room in line[]; the caller gives >= XS_MTRACE_MAX */
	bool overflow;           /* more distinct lines than cap */
	uint64_t *line;          /* address >> XS_MTRACE_LINE_SHIFT */
} xs_isa_mtrace;

static inline void xs_isa_mtrace_add(xs_isa_mtrace *m, uint64_t addr, unsigned bytes)
{
	uint64_t a = addr >> XS_MTRACE_LINE_SHIFT, b = (addr + bytes - 1) >> XS_MTRACE_LINE_SHIFT;
	for (uint64_t l = a; l <= b; l++) {
		if (m->n && m->line[m->n - 1] == l)
			continue;
		if (m->n == m->cap) {
			m->overflow = true;
			return;
		}
		m->line[m->n++] = l;
	}
}

/* xs_isa_mtrace_add for addr[l] of every lane l of `lanes`, in lane order,
 * for accesses of at most a line (a gather's 32 or 64 dwords, up to 4 each):
 * each spans one line or two. When the lanes cannot fill the trace (2 lines
 * a lane) no test for it, and the count and the last line in locals. */
static inline void xs_isa_mtrace_lanes(xs_isa_mtrace *m, const uint64_t *addr, uint64_t lanes, unsigned bytes)
{
	if (XS_UNLIKELY(bytes > (1u << XS_MTRACE_LINE_SHIFT) ||
			m->n + 2 * (uint32_t)__builtin_popcountll(lanes) > m->cap)) {
		for (; lanes; lanes &= lanes - 1)
			xs_isa_mtrace_add(m, addr[__builtin_ctzll(lanes)], bytes);
		return;
	}
	uint32_t n = m->n;
	uint64_t *line = m->line;
	uint64_t last = n ? line[n - 1] : ~0ull; /* (no line is ~0: addresses are below 2^64) */
#ifdef __AVX512F__
	/* A whole wave whose accesses each stay in one line (a gather of
	 * dwords): the loop below, eight lanes at a time: a lane's line is kept
	 * where it differs from the lane before's (the last line recorded, for
	 * the first), packed by a compress. A full vector is stored each time:
	 * the room checked above covers it, and what lies past n is not read.
	 * An access that crosses a line (rare) leaves the count as it was and
	 * the loop below redoes the wave. */
	if (lanes == 0xffffffffull || lanes == ~0ull) {
		const unsigned nl = lanes == ~0ull ? 64 : 32;
		const __m512i span = _mm512_set1_epi64((long long)bytes - 1);
		__m512i prev = _mm512_set1_epi64((long long)last);
		__mmask8 cross = 0;
		uint32_t k = n;
		for (unsigned l = 0; l < nl; l += 8) {
			__m512i a = _mm512_loadu_si512((const void *)(addr + l));
			__m512i ln = _mm512_srli_epi64(a, XS_MTRACE_LINE_SHIFT);
			cross |= _mm512_cmpneq_epu64_mask(ln, _mm512_srli_epi64(_mm512_add_epi64(a, span), XS_MTRACE_LINE_SHIFT));
			__mmask8 keep = _mm512_cmpneq_epu64_mask(ln, _mm512_alignr_epi64(ln, prev, 7));
			_mm512_storeu_si512((void *)(line + k), _mm512_maskz_compress_epi64(keep, ln));
			k += (uint32_t)__builtin_popcount(keep);
			prev = ln;
		}
		if (!cross) {
			m->n = k;
			return;
		}
	}
#endif
	for (; lanes; lanes &= lanes - 1) {
		uint64_t a = addr[__builtin_ctzll(lanes)];
		uint64_t l = a >> XS_MTRACE_LINE_SHIFT, b = (a + bytes - 1) >> XS_MTRACE_LINE_SHIFT;
		if (l != last)
			line[n++] = l;
		if (b != l)
			line[n++] = b;
		last = b;
	}
	m->n = n;
}

/* The bytes one lane's access of vector memory instruction op moves: 1 for
 * a byte, 2 for a short, 16 for a dwordx4, an atomic's operand size; 0 when
 * the instruction does not say (a format load's element depends on the
 * V#: xs_isa_vmem_format_bytes; a ray intersection's on the node it reads:
 * xs_isa_ctx.ray_node_bytes). For the timing model's byte counters. */
unsigned xs_isa_vmem_lane_bytes(unsigned op);

/* The bytes one lane of typed load `in` (buffer_load_format_x..xyzw,
 * tbuffer_load_format_x..xyzw) reads in wave w's state before it runs: one
 * element of its buffer FORMAT (MTBUF: the instruction's; MUBUF: the V#'s
 * SQ_BUF_RSRC_WORD3.FORMAT), bits / 8 x components, whatever the
 * instruction's component count, as the interpreter reads it; 0 for a
 * FORMAT it does not implement (the load faults) and for any other
 * instruction. */
unsigned xs_isa_vmem_format_bytes(const xs_wave *w, const xs_inst *in);

/* ---- exports (exp) ----------------------------------------------------------
 * An exp instruction hands its lanes' values to the GPU model's export sink
 * (graphics stages only; with no sink exp faults XS_FAULT_ILLEGAL "exp outside
 * a graphics stage"). Targets (gfx10 EXP.TGT): 0..7 MRT0..7, 8 MRTZ, 9 NULL,
 * 12..15 POS0..3, 20 PRIM, 32..63 PARAM0..31. */
#define XS_EXP_TGT_MRT0 0
#define XS_EXP_TGT_MRTZ 8
#define XS_EXP_TGT_NULL 9
#define XS_EXP_TGT_POS0 12
#define XS_EXP_TGT_PARAM0 32
typedef struct xs_isa_export {
	uint32_t tgt, en;         /* EXP.TGT, EXP.EN (a bit per VSRC; with compr, bits 0 and 2 for VSRC0/1) */
	bool compr, done, vm;     /* EXP.COMPR, DONE, VM (valid mask: the PS's last colour export) */
	uint64_t exec;            /* the lanes that export (EXEC at the instruction) */
	/* VSRC0..3: the VGPR rows (lane-indexed, XS_MAX_LANES), NULL where EN is 0;
	 * with compr VSRC0/VSRC1 hold packed f16 pairs (RG, BA) and 2/3 are NULL */
	const uint32_t *src[4];
} xs_isa_export;
/* XS_EXPORT_OK: taken. XS_EXPORT_WAIT: not now; the wave stops with
 * XS_WAVE_EXP_WAIT before the exp, which runs again when resumed. A negative
 * value faults the wave (XS_FAULT_ILLEGAL, detail from the sink's fault);
 * XS_EXPORT_NO_MEMORY: the sink had no host memory for it (XS_FAULT_HOST_MEMORY). */
#define XS_EXPORT_OK 0
#define XS_EXPORT_WAIT 1
#define XS_EXPORT_NO_MEMORY (-2)
typedef int (*xs_isa_export_fn)(void *user, xs_wave *w, const xs_isa_export *e);

typedef struct xs_isa_ctx {
	xs_vm *vm;
	xs_isa_export_fn export_fn; /* NULL: exp faults */
	void *export_user;
	xs_icache *icache;
	xs_fault fault;          /* set when a wave returns XS_WAVE_FAULT */
	xs_isa_mtrace *mtrace;   /* NULL, or where VMEM instructions record their lines */
	/* Work of the ray accelerator, added up by image_bvh*_intersect_ray
	 * while mtrace is set (the timing model clears them per instruction):
	 * ray/box tests (4 per box node and lane) and ray/triangle tests, and
	 * the bytes of the nodes its lanes read (128 a box32 node, 64 a box16
	 * or triangle node: the lines recorded in mtrace). */
	uint32_t ray_box_tests, ray_tri_tests, ray_node_bytes;
} xs_isa_ctx;

/* Runs the wave until it ends, waits at a barrier, faults, or has executed
 * max_insts more instructions (then it returns XS_WAVE_READY).
 *   XS_WAVE_BARRIER: w->pc is already past the s_barrier; calling
 *     xs_isa_run again (status BARRIER or READY) resumes after it, so the
 *     SPI calls it once every live wave of the group has arrived.
 *   XS_WAVE_ENDED / XS_WAVE_FAULT: final; further calls return the status.
 *     On a fault ctx->fault has the kind, the instruction's PC (w->pc is
 *     left on it), the address (VM faults: first faulting lane's) and
 *     "mnemonic[: detail]".
 * ctx->vm and ctx->icache must be set; an icache serves one host thread at
 * a time. Decoding and the handler table are initialised on first use
 * (thread-safe). */
xs_wave_status xs_isa_run(xs_isa_ctx *ctx, xs_wave *w, uint64_t max_insts);

/* xs_isa_run for n waves at one PC (each READY, or BARRIER and released,
 * with the same nvgpr): step after step, one instruction of each wave in
 * order, for at most max_steps steps. Returns after the step in which an
 * instruction stopped a wave (its status set as xs_isa_run sets it), when
 * a branch parts the waves' PCs, or when a wave faults: then that wave's
 * index (its status FAULT, ctx->fault filled; the waves after it have not
 * run that step), else n. The waves' insts are left alone, as xs_isa_run
 * leaves them while it runs: run[j] (added to) counts wave j's
 * instructions, for the caller to add to w->insts. */
unsigned xs_isa_run_lockstep(xs_isa_ctx *ctx, xs_wave *const *ws, unsigned n, uint64_t max_steps, uint64_t *run);

/* The decoded instruction at pc (decoding it if needed), or NULL when it
 * cannot be fetched or decoded (running it then faults). For the timing
 * model, which looks at an instruction before the interpreter runs it. */
const xs_inst *xs_isa_peek(xs_isa_ctx *ctx, uint64_t pc);

/* The predecoded slots of the code page at page_va (one per dword, size 0
 * until decoded), or NULL; valid until the context's cache is flushed. */
const xs_inst *xs_isa_code_page(xs_isa_ctx *ctx, uint64_t page_va);

/* xs_isa_peek for a caller that peeks at many instructions in a row (the
 * timing model's run-ahead, ~100 of one wave): the page's slots kept in
 * *c, so an instruction decoded before costs no call. Start *c as
 * XS_ISA_PEEK_CACHE_INIT, and start again after anything that may flush
 * the cache (the CP's ACQUIRE_MEM between runs; never a wave's step). */
typedef struct xs_isa_peek_cache {
	uint64_t page;
	const xs_inst *slots;
} xs_isa_peek_cache;
#define XS_ISA_PEEK_CACHE_INIT ((xs_isa_peek_cache){ .page = ~0ull, .slots = NULL })

static inline const xs_inst *xs_isa_peek_cached(xs_isa_ctx *ctx, xs_isa_peek_cache *c, uint64_t pc)
{
	uint64_t page = pc & ~(uint64_t)(XS_VM_PAGE_SIZE - 1);
	if (XS_UNLIKELY(page != c->page)) {
		c->page = page;
		c->slots = xs_isa_code_page(ctx, page);
	}
	if (XS_LIKELY(c->slots != NULL && !(pc & 3))) {
		const xs_inst *in = &c->slots[(pc >> 2) & (XS_VM_PAGE_SIZE / 4 - 1)];
		if (XS_LIKELY(in->size != 0))
			return in;
	}
	return xs_isa_peek(ctx, pc); /* decodes it, or NULL */
}

/* Runs exactly one instruction, `in`, which xs_isa_peek returned for
 * w->pc: xs_isa_run(ctx, w, 1) without looking the instruction up again
 * (the timing model issues one instruction at a time). */
xs_wave_status xs_isa_step(xs_isa_ctx *ctx, xs_wave *w, const xs_inst *in);

/* True when the interpreter has a body for op (the others decode but fault
 * XS_FAULT_UNIMPLEMENTED when executed). */
bool xs_isa_op_implemented(unsigned op);

#endif
