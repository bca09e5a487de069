/*
 * Disassembler entry, operand printers and the scalar encodings (SOP2,
 * SOPK, SOP1, SOPC, SOPP, SMEM). VALU encodings are in
 * xs_isa_disasm_valu.c, memory/export/interpolation in xs_isa_disasm_mem.c.
 *
 * The target text is llvm-objdump-15 -d --mcpu=gfx1030; the rules here were
 * established against it (tests/isa/test_disasm.py compares every
 * instruction of the kernels and one instruction per opcode-table row).
 * Facts about operand spellings (hwreg / sendmsg / waitcnt / depctr names
 * and fields) follow LLVM's AMDGPU assembler syntax documentation.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hw/xs_hw_isa.h"
#include "isa/xs_isa_disasm_priv.h"

/* ---- text ------------------------------------------------------------------ */

void dis_printf(dis_ctx *c, const char *fmt, ...)
{
	if (c->len + 1 >= c->cap)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(c->p + c->len, c->cap - c->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		c->len = XS_MIN(c->len + (size_t)n, c->cap - 1);
}

void dis_puts(dis_ctx *c, const char *s)
{
	dis_printf(c, "%s", s);
}

void dis_note(dis_ctx *c, const char *fmt, ...)
{
	size_t n = strlen(c->note);
	if (c->bad || n + 1 >= sizeof(c->note))
		return;  /* LLVM stops decoding at the first bad operand */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->note + n, sizeof(c->note) - n, fmt, ap);
	va_end(ap);
}

void dis_bit(dis_ctx *c, bool set, const char *name)
{
	if (set)
		dis_printf(c, " %s", name);
}

/* ---- registers and constants ------------------------------------------------ */

static const char *special32(unsigned r)
{
	switch (r) {
	case 106: return "vcc_lo";
	case 107: return "vcc_hi";
	case 124: return "m0";
	case 125: return "null";
	case 126: return "exec_lo";
	case 127: return "exec_hi";
	case 235: return "src_shared_base";
	case 236: return "src_shared_limit";
	case 237: return "src_private_base";
	case 238: return "src_private_limit";
	case 239: return "src_pops_exiting_wave_id";
	case 251: return "src_vccz";
	case 252: return "src_execz";
	case 253: return "src_scc";
	case 254: return "src_lds_direct";
	default: return NULL;
	}
}

/* 64-bit and wider operands (LLVM reads any wider special register with
 * the 64-bit names). */
static const char *special64(unsigned r)
{
	switch (r) {
	case 106: return "vcc";
	case 125: return "null";
	case 126: return "exec";
	case 235: case 236: case 237: case 238: case 239: case 251: case 252: case 253:
		return special32(r);
	default: return NULL;
	}
}

static void tuple(dis_ctx *c, const char *pfx, unsigned first, unsigned n)
{
	if (n == 1)
		dis_printf(c, "%s%u", pfx, first);
	else
		dis_printf(c, "%s[%u:%u]", pfx, first, first + n - 1);
}

/* A scalar tuple: LLVM aligns a misaligned first register down (with a
 * warning) and refuses tuples that run past the file. */
static void stuple(dis_ctx *c, const char *cls, const char *pfx, unsigned idx, unsigned n, unsigned count)
{
	unsigned align = n == 1 ? 1 : n == 2 ? 2 : 4;
	unsigned a = idx & ~(align - 1);
	if (a != idx)
		dis_note(c, "Warning: %s_%u: scalar reg isn't aligned %u", cls, 32 * n, idx);
	if (a + n > count) {
		dis_note(c, "Error: %s_%u: unknown register %u", cls, 32 * n, a / align);
		c->bad = true;
	}
	tuple(c, pfx, a, n);
}

void dis_reg(dis_ctx *c, unsigned r, unsigned n)
{
	if (r >= XS_SRC_VGPR) {
		unsigned v = r - XS_SRC_VGPR;
		if (v + n > 256) {
			dis_note(c, "Error: VReg_%u: unknown register %u", 32 * n, v);
			c->bad = true;
		}
		tuple(c, "v", v, n);
		return;
	}
	if (r <= 105) {
		stuple(c, "SGPR", "s", r, n, 106);
		return;
	}
	if (r >= 108 && r <= 123) {
		stuple(c, "TTMP", "ttmp", r - 108, n, 16);
		return;
	}
	const char *s = n == 1 ? special32(r) : n <= 4 ? special64(r) : NULL;
	if (!s && n >= 8) {
		/* 256/512-bit operands are SGPRs or TTMPs only; LLVM's complaint */
		dis_note(c, "Warning: TTMP_%u: scalar reg isn't aligned 4294967295Error: TTMP_%u: unknown register "
		         "1073741823", 32 * n, 32 * n);
		c->bad = true;
		return;
	}
	if (!s) {
		dis_note(c, "Error: unknown operand encoding %u", r);
		c->bad = true;
		s = "?";
	}
	dis_puts(c, s);
}

static const uint32_t f32_inline[9] = {
	0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000,
	0x3e22f983,
};
static const uint16_t f16_inline[9] = {
	0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
};
static const char *const float_name[9] = {
	"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0", "0.15915494",
};

void dis_imm32(dis_ctx *c, uint32_t v)
{
	int32_t s = (int32_t)v;
	if (s >= -16 && s <= 64) {
		dis_printf(c, "%d", s);
		return;
	}
	for (unsigned i = 0; i < 9; i++)
		if (v == f32_inline[i]) {
			dis_puts(c, float_name[i]);
			return;
		}
	dis_printf(c, "0x%x", v);
}

void dis_u16(dis_ctx *c, uint32_t v)
{
	if (v <= 64)
		dis_printf(c, "%u", v);
	else
		dis_printf(c, "0x%x", v);
}

/* printImmediate16 / printImmediateInt16 of a 16-bit value */
static void imm16(dis_ctx *c, uint32_t v, bool is_float)
{
	int16_t s = (int16_t)(v & 0xffff);
	if (s >= -16 && s <= 64) {
		dis_printf(c, "%d", s);
		return;
	}
	if (is_float)
		for (unsigned i = 0; i < 9; i++)
			if (v == f16_inline[i]) {
				dis_puts(c, float_name[i]);
				return;
			}
	dis_printf(c, "0x%x", v & 0xffff);
}

void dis_src(dis_ctx *c, unsigned r, unsigned t, uint32_t literal)
{
	if (r >= XS_SRC_INT0 && r <= 208) {
		dis_printf(c, "%d", r <= 192 ? (int)r - 128 : 192 - (int)r);
		return;
	}
	if (r >= XS_SRC_HALF && r <= XS_SRC_INV2PI) {
		unsigned i = r - XS_SRC_HALF;
		if (t == DT_I16 || t == DT_V2I16)
			dis_printf(c, "0x%x", f16_inline[i]);
		else if (t == DT_B64 && r == XS_SRC_INV2PI)
			dis_puts(c, "0.15915494309189532");
		else
			dis_puts(c, float_name[i]);
		return;
	}
	if (r == XS_SRC_LITERAL) {
		switch (t) {
		case DT_B64:
			if (literal <= 64)
				dis_printf(c, "%u", literal);
			else
				dis_printf(c, "0x%x", literal);
			break;
		case DT_I16: imm16(c, literal, false); break;
		case DT_F16: imm16(c, literal, true); break;
		case DT_V2I16:
		case DT_V2F16:
			if (literal > 0xffff)
				dis_imm32(c, literal);
			else
				imm16(c, literal, t == DT_V2F16);
			break;
		default: dis_imm32(c, literal); break;
		}
		return;
	}
	if ((r >= 209 && r <= 234) || r == XS_SRC_SDWA || r == XS_SRC_DPP16) {
		dis_note(c, "Error: unknown operand encoding %u", r);
		c->bad = true;
		dis_puts(c, "?");
		return;
	}
	dis_reg(c, r, t == DT_B64 ? 2 : 1);
}

void dis_src_reg(dis_ctx *c, unsigned r, unsigned n)
{
	if ((r >= XS_SRC_INT0 && r <= 208) || (r >= XS_SRC_HALF && r <= XS_SRC_INV2PI) || r == XS_SRC_LITERAL)
		dis_puts(c, "/*invalid immediate*/");
	else
		dis_reg(c, r, n);
}

/* ---- scalar ALU ---------------------------------------------------------------- */

static unsigned sty(uint32_t flags, uint32_t bit)
{
	return (flags & bit) ? DT_B64 : DT_B32;
}

static void dis_sop2(dis_ctx *c)
{
	uint32_t f = c->oi->flags;
	dis_printf(c, "%s ", c->oi->name);
	dis_reg(c, c->in.dst, (f & XS_OPF_D64) ? 2 : 1);
	dis_puts(c, ", ");
	dis_src(c, c->in.src[0], sty(f, XS_OPF_S0_64), c->in.literal);
	dis_puts(c, ", ");
	dis_src(c, c->in.src[1], sty(f, XS_OPF_S1_64), c->in.literal);
}

static void dis_sop1(dis_ctx *c)
{
	uint32_t f = c->oi->flags;
	unsigned op = c->in.op;
	bool has_dst = op != XS_OP_s_setpc_b64 && op != XS_OP_s_rfe_b64;
	bool has_src = op != XS_OP_s_getpc_b64;
	dis_printf(c, "%s ", c->oi->name);
	if (has_dst)
		dis_reg(c, c->in.dst, (f & XS_OPF_D64) ? 2 : 1);
	if (has_dst && has_src)
		dis_puts(c, ", ");
	if (!has_src)
		c->extra = 4 - (int)c->in.size;  /* no source: no literal either */
	if (has_src && (op == XS_OP_s_setpc_b64 || op == XS_OP_s_rfe_b64 || op == XS_OP_s_movrels_b32 ||
			op == XS_OP_s_movrels_b64))
		dis_src_reg(c, c->in.src[0], (f & XS_OPF_S0_64) ? 2 : 1);
	else if (has_src)
		dis_src(c, c->in.src[0], sty(f, XS_OPF_S0_64), c->in.literal);
}

static void dis_sopc(dis_ctx *c)
{
	uint32_t f = c->oi->flags;
	dis_printf(c, "%s ", c->oi->name);
	dis_src(c, c->in.src[0], sty(f, XS_OPF_S0_64), c->in.literal);
	dis_puts(c, ", ");
	dis_src(c, c->in.src[1], sty(f, XS_OPF_S1_64), c->in.literal);
}

/* hwreg(id[, offset, width]); ids without a gfx10.3 name print as numbers. */
static void dis_hwreg(dis_ctx *c, uint32_t v)
{
	static const char *const names[32] = {
		[1] = "HW_REG_MODE", [2] = "HW_REG_STATUS", [3] = "HW_REG_TRAPSTS",
		[5] = "HW_REG_GPR_ALLOC", [6] = "HW_REG_LDS_ALLOC", [7] = "HW_REG_IB_STS",
		[15] = "HW_REG_SH_MEM_BASES", [16] = "HW_REG_TBA_LO", [17] = "HW_REG_TBA_HI",
		[18] = "HW_REG_TMA_LO", [19] = "HW_REG_TMA_HI", [20] = "HW_REG_FLAT_SCR_LO",
		[21] = "HW_REG_FLAT_SCR_HI", [23] = "HW_REG_HW_ID1", [24] = "HW_REG_HW_ID2",
		[25] = "HW_REG_POPS_PACKER", [29] = "HW_REG_SHADER_CYCLES",
	};
	unsigned id = v & 0x3f, off = (v >> 6) & 0x1f, width = ((v >> 11) & 0x1f) + 1;
	if (id < 32 && names[id])
		dis_printf(c, "hwreg(%s", names[id]);
	else
		dis_printf(c, "hwreg(%u", id);
	if (off != 0 || width != 32)
		dis_printf(c, ", %u, %u", off, width);
	dis_puts(c, ")");
}

static void dis_sopk(dis_ctx *c)
{
	unsigned op = c->in.op;
	uint32_t k = (uint32_t)c->in.imm & 0xffff;
	const char *name = c->oi->name;
	switch (op) {
	case XS_OP_s_getreg_b32:
		dis_printf(c, "%s ", name);
		dis_reg(c, c->in.dst, 1);
		dis_puts(c, ", ");
		dis_hwreg(c, k);
		return;
	case XS_OP_s_setreg_b32:
		dis_printf(c, "%s ", name);
		dis_hwreg(c, k);
		dis_puts(c, ", ");
		dis_reg(c, c->in.dst, 1);
		return;
	case XS_OP_s_setreg_imm32_b32:
		dis_printf(c, "%s ", name);
		dis_hwreg(c, k);
		dis_puts(c, ", ");
		dis_imm32(c, c->in.literal);
		return;
	case XS_OP_s_version:
		dis_printf(c, "%s 0x%x", name, k);
		return;
	case XS_OP_s_call_b64:
		dis_printf(c, "%s ", name);
		dis_reg(c, c->in.dst, 2);
		dis_puts(c, ", ");
		break;
	case XS_OP_s_subvector_loop_begin:
	case XS_OP_s_subvector_loop_end:
		dis_printf(c, "%s ", name);
		dis_reg(c, c->in.dst, 1);
		dis_puts(c, ", ");
		break;
	default:
		dis_printf(c, "%s ", name);
		dis_reg(c, c->in.dst, 1);
		dis_printf(c, ", 0x%x", k);
		return;
	}
	/* s_call_b64, s_subvector_loop_*: a PC-relative target like the SOPP
	 * branches (llvm-objdump comments the target of the loop ones only) */
	uint64_t target = c->addr + 4 + (uint64_t)((int64_t)(int16_t)k * 4);
	const char *label = c->opts && c->opts->label_at ? c->opts->label_at(c->opts->ctx, target) : NULL;
	if (label) {
		dis_puts(c, label);
	} else {
		dis_printf(c, "%u", k);
		c->res->has_target = op != XS_OP_s_call_b64;
		c->res->target = target;
	}
}

/* s_waitcnt vmcnt(n) expcnt(n) lgkmcnt(n): fields at their maximum are
 * left out unless all are. */
static void dis_waitcnt(dis_ctx *c, uint32_t v)
{
	xs_waitcnt w = xs_waitcnt_decode(v);
	bool vm = w.vm != XS_WAITCNT_VM_MAX, exp = w.exp != XS_WAITCNT_EXP_MAX, lgkm = w.lgkm != XS_WAITCNT_LGKM_MAX;
	bool all = !vm && !exp && !lgkm;
	const char *sep = "";
	if (vm || all) {
		dis_printf(c, "vmcnt(%u)", w.vm);
		sep = " ";
	}
	if (exp || all) {
		dis_printf(c, "%sexpcnt(%u)", sep, w.exp);
		sep = " ";
	}
	if (lgkm || all)
		dis_printf(c, "%slgkmcnt(%u)", sep, w.lgkm);
}

/* sendmsg(MSG[, OP[, stream]]) for the gfx10 messages; an encodable but
 * unnamed combination prints as sendmsg(id, op, stream), anything else as a
 * decimal number. */
static void dis_sendmsg(dis_ctx *c, uint32_t v)
{
	static const char *const msg[16] = {
		[1] = "MSG_INTERRUPT", [2] = "MSG_GS", [3] = "MSG_GS_DONE", [4] = "MSG_SAVEWAVE",
		[5] = "MSG_STALL_WAVE_GEN", [6] = "MSG_HALT_WAVES", [7] = "MSG_ORDERED_PS_DONE",
		[8] = "MSG_EARLY_PRIM_DEALLOC", [9] = "MSG_GS_ALLOC_REQ", [10] = "MSG_GET_DOORBELL",
		[11] = "MSG_GET_DDID", [15] = "MSG_SYSMSG",
	};
	static const char *const gs_op[4] = { "GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT" };
	static const char *const sys_op[5] = {
		NULL, "SYSMSG_OP_ECC_ERR_INTERRUPT", "SYSMSG_OP_REG_RD", "SYSMSG_OP_HOST_TRAP_ACK",
		"SYSMSG_OP_TTRACE_PC",
	};
	unsigned id = v & 0xf, op = (v >> 4) & 7, stream = (v >> 8) & 3;
	bool gs = id == 2 || id == 3, sys = id == 15;
	bool op_ok = gs ? (op <= 3 && (op != 0 || id == 3)) : sys ? (op >= 1 && op <= 4) : op == 0;
	bool stream_ok = (gs && op != 0) || stream == 0;
	if (msg[id] && op_ok && stream_ok) {
		dis_printf(c, "sendmsg(%s", msg[id]);
		if (gs)
			dis_printf(c, ", %s", gs_op[op]);
		else if (sys)
			dis_printf(c, ", %s", sys_op[op]);
		if (gs && op != 0)
			dis_printf(c, ", %u", stream);
		dis_puts(c, ")");
	} else if ((id | op << 4 | stream << 8) == v) {
		dis_printf(c, "sendmsg(%u, %u, %u)", id, op, stream);
	} else {
		dis_printf(c, "%u", v);
	}
}

/* s_waitcnt_depctr: the named counters when the value is made of them only
 * (fields at their default are left out unless all are), else hex. */
static void dis_depctr(dis_ctx *c, uint32_t v)
{
	static const struct { const char *name; unsigned shift, width; } f[] = {
		{ "depctr_hold_cnt", 7, 1 }, { "depctr_sa_sdst", 0, 1 }, { "depctr_va_vdst", 12, 4 },
		{ "depctr_va_sdst", 9, 3 }, { "depctr_va_ssrc", 8, 1 }, { "depctr_va_vcc", 1, 1 },
		{ "depctr_vm_vsrc", 2, 3 },
	};
	uint32_t known = 0;
	bool nondefault = false;
	for (unsigned i = 0; i < XS_ARRAY_SIZE(f); i++) {
		uint32_t m = ((1u << f[i].width) - 1) << f[i].shift;
		known |= m;
		nondefault |= (v & m) != m;
	}
	if (v & ~known) {
		dis_printf(c, "0x%x", v);
		return;
	}
	const char *sep = "";
	for (unsigned i = 0; i < XS_ARRAY_SIZE(f); i++) {
		uint32_t m = (1u << f[i].width) - 1, val = (v >> f[i].shift) & m;
		if (val != m || !nondefault) {
			dis_printf(c, "%s%s(%u)", sep, f[i].name, val);
			sep = " ";
		}
	}
}

static void dis_sopp(dis_ctx *c)
{
	unsigned op = c->in.op;
	uint32_t k = (uint32_t)c->in.imm & 0xffff;
	const char *name = c->oi->name;
	if (c->oi->flags & XS_OPF_BRANCH) {
		uint64_t target = c->addr + 4 + (uint64_t)((int64_t)(int16_t)k * 4);
		const char *label = c->opts && c->opts->label_at ? c->opts->label_at(c->opts->ctx, target) : NULL;
		if (label) {
			dis_printf(c, "%s %s", name, label);
		} else {
			dis_printf(c, "%s %u", name, k);
			c->res->has_target = true;
			c->res->target = target;
		}
		return;
	}
	switch (op) {
	case XS_OP_s_endpgm:
		dis_puts(c, name);
		if (k)
			dis_printf(c, " %u", k);
		return;
	case XS_OP_s_waitcnt:
		dis_printf(c, "%s ", name);
		dis_waitcnt(c, k);
		return;
	case XS_OP_s_sendmsg:
	case XS_OP_s_sendmsghalt:
		dis_printf(c, "%s ", name);
		dis_sendmsg(c, k);
		return;
	case XS_OP_s_waitcnt_depctr:
		dis_printf(c, "%s ", name);
		dis_depctr(c, k);
		return;
	case XS_OP_s_inst_prefetch:
	case XS_OP_s_clause:
	case XS_OP_s_round_mode:
	case XS_OP_s_ttracedata_imm:
		dis_printf(c, "%s 0x%x", name, k);
		return;
	case XS_OP_s_wakeup:
	case XS_OP_s_barrier:
	case XS_OP_s_icache_inv:
	case XS_OP_s_ttracedata:
	case XS_OP_s_endpgm_saved:
	case XS_OP_s_endpgm_ordered_ps_done:
	case XS_OP_s_code_end:
	case XS_OP_s_wait_idle:
		if (k)
			c->reject = true;
		dis_puts(c, name);
		return;
	default:
		dis_printf(c, "%s ", name);
		dis_u16(c, k);
		return;
	}
}

/* ---- SMEM ------------------------------------------------------------------------ */

static void dis_smem(dis_ctx *c)
{
	unsigned op = c->in.op;
	const char *name = c->oi->name;
	if (op == XS_OP_s_dcache_inv || op == XS_OP_s_gl1_inv) {
		dis_puts(c, name);
		return;
	}
	if (op == XS_OP_s_memtime || op == XS_OP_s_memrealtime) {
		dis_printf(c, "%s ", name);
		dis_reg(c, c->in.dst, 2);
		return;
	}
	bool probe = op == XS_OP_s_atc_probe || op == XS_OP_s_atc_probe_buffer;
	bool buffer = op == XS_OP_s_atc_probe_buffer || strncmp(name, "s_buffer_", 9) == 0;
	dis_printf(c, "%s ", name);
	if (probe)
		dis_u16(c, c->in.dst);
	else
		dis_reg(c, c->in.dst, XS_MAX(1u, XS_OPF_DW_OF(c->oi->flags)));
	dis_puts(c, ", ");
	dis_reg(c, c->in.src[0], buffer ? 4 : 2);
	dis_puts(c, ", ");
	unsigned soff = c->in.src[1];
	int32_t off = c->in.imm;
	if (soff == XS_SREG_NULL && off == 0) {
		dis_puts(c, "null");
	} else if (soff == XS_SREG_NULL) {
		dis_printf(c, "%s0x%x", off < 0 ? "-" : "", off < 0 ? (unsigned)-off : (unsigned)off);
	} else {
		dis_reg(c, soff, 1);
		if (off)
			dis_printf(c, " offset:%s0x%x", off < 0 ? "-" : "", off < 0 ? (unsigned)-off : (unsigned)off);
	}
	if (!probe) {
		dis_bit(c, c->in.mods & XS_MOD_GLC, "glc");
		dis_bit(c, c->in.mods & XS_MOD_DLC, "dlc");
	}
}

/* ---- entry ------------------------------------------------------------------------ */

void xs_isa_disasm(const uint32_t *words, size_t nwords, uint64_t addr, const xs_disasm_opts *opts,
		   char *text, size_t cap, xs_disasm_result *res)
{
	dis_ctx c = { .w = words, .nw = nwords, .addr = addr, .opts = opts, .p = text, .cap = cap, .res = res };
	_Static_assert(sizeof(c.note) == sizeof(res->comment), "remark buffers differ");
	memset(res, 0, sizeof(*res));
	if (cap)
		text[0] = 0;
	unsigned size = nwords ? xs_isa_decode(words, nwords, &c.in) : 0;
	unsigned s0 = words[0] & 0x1ff;
	if (!size && nwords && !(words[0] >> 31) && (s0 == XS_SRC_SDWA || s0 == XS_SRC_DPP16 || s0 == XS_SRC_DPP8 ||
	                                              s0 == XS_SRC_DPP8_FI)) {
		/* an e32 op without that SDWA / DPP form: LLVM falls back to the
		 * plain e32 decode and trips over the marker */
		uint32_t w[2] = { (words[0] & ~0x1ffu) | XS_SRC_VGPR, nwords > 1 ? words[1] : 0 };
		xs_inst probe;
		if (xs_isa_decode(w, nwords > 1 ? 2 : 1, &probe))
			c.fallback_src0 = s0;
	}
	if (size) {
		c.oi = &xs_op_table[c.in.op];
		switch (c.in.enc) {
		case XS_ENC_SOP2: dis_sop2(&c); break;
		case XS_ENC_SOPK: dis_sopk(&c); break;
		case XS_ENC_SOP1: dis_sop1(&c); break;
		case XS_ENC_SOPC: dis_sopc(&c); break;
		case XS_ENC_SOPP: dis_sopp(&c); break;
		case XS_ENC_SMEM: dis_smem(&c); break;
		case XS_ENC_VOP1: case XS_ENC_VOP2: case XS_ENC_VOPC: case XS_ENC_VOP3: case XS_ENC_VOP3P:
			xs_dis_valu(&c);
			break;
		default: xs_dis_mem(&c); break;
		}
	}
	if (c.reject) {
		/* no decoder table takes the words: LLVM decodes no operand, so it
		 * makes no remarks (but see the SDWA / DPP fallback) */
		c.bad = false;
		c.note[0] = 0;
		if (c.fallback_src0)
			dis_note(&c, "Error: unknown operand encoding %u", c.fallback_src0);
		c.bad = true;
	} else if (c.bad && c.fallback_src0) {
		/* the operand error of the SDWA / DPP decode, then the e32 one */
		c.bad = false;
		dis_note(&c, "Error: unknown operand encoding %u", c.fallback_src0);
		c.bad = true;
	}
	if (!size && c.fallback_src0)
		dis_note(&c, "Error: unknown operand encoding %u", c.fallback_src0);
	if (!size || c.bad) {
		c.len = 0;
		dis_printf(&c, ".long 0x%08x", nwords ? words[0] : 0);
		memset(res, 0, sizeof(*res));
		res->size = 4;
		memcpy(res->comment, c.note, sizeof(res->comment));
		return;
	}
	memcpy(res->comment, c.note, sizeof(res->comment));
	res->valid = true;
	res->size = (unsigned)((int)size + c.extra);
	if (res->size > 4 * nwords) {
		res->valid = false;
		res->size = 4;
		c.len = 0;
		dis_printf(&c, ".long 0x%08x", words[0]);
	}
}
