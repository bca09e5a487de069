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
} xs_inst;

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

typedef enum xs_wave_status {
	XS_WAVE_READY = 0,   /* can run */
	XS_WAVE_BARRIER,     /* waits at s_barrier; the SPI releases the group */
	XS_WAVE_ENDED,       /* s_endpgm */
	XS_WAVE_FAULT,       /* VM fault, illegal or unimplemented instruction */
} xs_wave_status;

typedef enum xs_fault_kind {
	XS_FAULT_NONE = 0,
	XS_FAULT_VM,             /* memory access outside every allocation */
	XS_FAULT_ILLEGAL,        /* word that decodes to nothing */
	XS_FAULT_UNIMPLEMENTED,  /* known instruction the interpreter does not run yet */
	XS_FAULT_LDS,            /* LDS access outside the group's allocation (reported, not fatal on HW; xs12 halts) */
	XS_FAULT_WATCHDOG,       /* instruction budget exhausted */
} xs_fault_kind;

typedef struct xs_fault {
	xs_fault_kind kind;
	uint64_t pc;
	uint64_t addr;          /* faulting address for VM / LDS faults */
	char what[160];         /* mnemonic or detail */
} xs_fault;

typedef struct xs_wave {
	/* Scalar file indexed by operand encoding 0..127 (see above): s0..s105,
	 * VCC, TTMP, M0, NULL (reads 0, writes dropped), EXEC. */
	uint32_t s[128];
	uint32_t (*v)[XS_MAX_LANES];  /* VGPRs: v[reg][lane], nvgpr registers */
	uint32_t nvgpr;
	uint64_t pc;                  /* byte address in GPU memory */
	uint32_t scc;
	uint32_t mode;                /* HW_REG_MODE: round / denorm / dx10 clamp / ieee */
	uint32_t trapsts;
	uint32_t hw_id;               /* HW_REG_HW_ID for s_getreg */
	uint64_t flat_scratch;        /* HW_REG_FLAT_SCR_LO/HI (hardware registers on gfx10) */
	uint32_t lanes;               /* 32 or 64 */
	uint8_t *lds;                 /* this workgroup's LDS allocation */
	uint32_t lds_size;
	xs_wave_status status;
	uint64_t insts;               /* wave instructions executed */
	uint32_t wave_in_group;
	void *owner;                  /* the SPI's bookkeeping */
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
typedef struct xs_isa_ctx {
	xs_vm *vm;
	xs_icache *icache;
	xs_fault fault;          /* set when a wave returns XS_WAVE_FAULT */
} xs_isa_ctx;

/* Runs the wave until it ends, waits at a barrier, faults, or has executed
 * max_insts more instructions (then it returns XS_WAVE_READY). */
xs_wave_status xs_isa_run(xs_isa_ctx *ctx, xs_wave *w, uint64_t max_insts);

#endif
