/*
 * PM4 decoder (see xs_pm4_parse.h). Body sizes and field rules: docs/hardware.md
 * sections 4.1-4.5 (Mesa sid.h / pkt3.json / ac_debug.c, PAL pm4 packet headers,
 * RADV). Every error names the dword at fault and the rule.
 */
#include "pm4/xs_pm4_parse.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "hw/xs_hw_pm4.h"

#define ANY 0x4000 /* no upper bound below the count field's */

static const xs_pm4_opinfo ops[] = {
	/* op, name, min body, max body, space, has_index */
	{ PKT3_NOP, "NOP", 0, PKT3_COUNT_MAX, XS_PM4_SPACE_NONE, false },
	{ PKT3_SET_BASE, "SET_BASE", 3, 3, XS_PM4_SPACE_NONE, false },
	{ PKT3_INDEX_BUFFER_SIZE, "INDEX_BUFFER_SIZE", 1, 1, XS_PM4_SPACE_NONE, false },
	{ PKT3_DISPATCH_DIRECT, "DISPATCH_DIRECT", 4, 4, XS_PM4_SPACE_NONE, false },
	{ PKT3_DISPATCH_INDIRECT, "DISPATCH_INDIRECT", 2, 3, XS_PM4_SPACE_NONE, false },
	{ PKT3_COND_EXEC, "COND_EXEC", PKT3_COND_EXEC_BODY_DW, PKT3_COND_EXEC_BODY_DW, XS_PM4_SPACE_NONE, false },
	{ PKT3_DRAW_INDIRECT, "DRAW_INDIRECT", 4, 4, XS_PM4_SPACE_NONE, false },
	{ PKT3_DRAW_INDEX_INDIRECT, "DRAW_INDEX_INDIRECT", 4, 4, XS_PM4_SPACE_NONE, false },
	{ PKT3_INDEX_BASE, "INDEX_BASE", 2, 2, XS_PM4_SPACE_NONE, false },
	{ PKT3_DRAW_INDEX_2, "DRAW_INDEX_2", 5, 5, XS_PM4_SPACE_NONE, false },
	{ PKT3_INDEX_TYPE, "INDEX_TYPE", 1, 1, XS_PM4_SPACE_NONE, false },
	{ PKT3_DRAW_INDEX_AUTO, "DRAW_INDEX_AUTO", 2, 2, XS_PM4_SPACE_NONE, false },
	{ PKT3_NUM_INSTANCES, "NUM_INSTANCES", 1, 1, XS_PM4_SPACE_NONE, false },
	{ PKT3_WRITE_DATA, "WRITE_DATA", 4, ANY, XS_PM4_SPACE_NONE, false },
	{ PKT3_WAIT_REG_MEM, "WAIT_REG_MEM", PKT3_WAIT_REG_MEM_BODY_DW, PKT3_WAIT_REG_MEM_BODY_DW,
	  XS_PM4_SPACE_NONE, false },
	{ PKT3_INDIRECT_BUFFER, "INDIRECT_BUFFER", 3, 3, XS_PM4_SPACE_NONE, false },
	{ PKT3_COPY_DATA, "COPY_DATA", 5, 5, XS_PM4_SPACE_NONE, false },
	{ PKT3_COND_WRITE, "COND_WRITE", PKT3_COND_WRITE_BODY_DW, PKT3_COND_WRITE_BODY_DW, XS_PM4_SPACE_NONE, false },
	{ PKT3_EVENT_WRITE, "EVENT_WRITE", 1, 3, XS_PM4_SPACE_NONE, false },
	{ PKT3_RELEASE_MEM, "RELEASE_MEM", PKT3_RELEASE_MEM_BODY_DW, PKT3_RELEASE_MEM_BODY_DW,
	  XS_PM4_SPACE_NONE, false },
	{ PKT3_DMA_DATA, "DMA_DATA", PKT3_DMA_DATA_BODY_DW, PKT3_DMA_DATA_BODY_DW, XS_PM4_SPACE_NONE, false },
	{ PKT3_ACQUIRE_MEM, "ACQUIRE_MEM", PKT3_ACQUIRE_MEM_BODY_DW, PKT3_ACQUIRE_MEM_BODY_DW,
	  XS_PM4_SPACE_NONE, false },
	{ PKT3_LOAD_SH_REG_INDEX, "LOAD_SH_REG_INDEX", 4, 4, XS_PM4_SPACE_NONE, false },
	{ PKT3_SET_CONFIG_REG, "SET_CONFIG_REG", 2, ANY, XS_PM4_SPACE_CONFIG, false },
	{ PKT3_SET_CONTEXT_REG, "SET_CONTEXT_REG", 2, ANY, XS_PM4_SPACE_CONTEXT, false },
	{ PKT3_SET_SH_REG, "SET_SH_REG", 2, ANY, XS_PM4_SPACE_SH, false },
	{ PKT3_SET_SH_REG_OFFSET, "SET_SH_REG_OFFSET", 3, 3, XS_PM4_SPACE_NONE, false },
	{ PKT3_SET_UCONFIG_REG, "SET_UCONFIG_REG", 2, ANY, XS_PM4_SPACE_UCONFIG, false },
	{ PKT3_SET_UCONFIG_REG_INDEX, "SET_UCONFIG_REG_INDEX", 2, ANY, XS_PM4_SPACE_UCONFIG, true },
	{ PKT3_WAIT_REG_MEM64, "WAIT_REG_MEM64", PKT3_WAIT_REG_MEM64_BODY_DW, PKT3_WAIT_REG_MEM64_BODY_DW,
	  XS_PM4_SPACE_NONE, false },
	{ PKT3_SET_SH_REG_INDEX, "SET_SH_REG_INDEX", 2, ANY, XS_PM4_SPACE_SH, true },
	{ PKT3_XS_LAUNCH, "XS_LAUNCH", PKT3_XS_LAUNCH_FIXED_DW, PKT3_XS_LAUNCH_FIXED_DW + XS_LAUNCH_MAX_PATCHES,
	  XS_PM4_SPACE_NONE, false },
	{ PKT3_XS_BUILD_AS, "XS_BUILD_AS", PKT3_XS_BUILD_AS_BODY_DW, PKT3_XS_BUILD_AS_BODY_DW, XS_PM4_SPACE_NONE, false },
	{ PKT3_XS_FILL, "XS_FILL", PKT3_XS_FILL_FIXED_DW + 1, PKT3_XS_FILL_FIXED_DW + XS_FILL_MAX_PATTERN_DW,
	  XS_PM4_SPACE_NONE, false },
};

const xs_pm4_opinfo *xs_pm4_opinfo_get(unsigned opcode)
{
	for (size_t i = 0; i < XS_ARRAY_SIZE(ops); i++)
		if (ops[i].op == opcode)
			return &ops[i];
	return NULL;
}

const char *xs_pm4_opcode_name(unsigned opcode)
{
	const xs_pm4_opinfo *o = xs_pm4_opinfo_get(opcode);
	return o ? o->name : NULL;
}

void xs_pm4_iter_init(xs_pm4_iter *it, const uint32_t *dwords, size_t n)
{
	it->dw = dwords;
	it->n = dwords ? n : 0;
	it->pos = 0;
	it->failed = false;
	it->error_dword = 0;
}

XS_PRINTF(4, 5) static int fail(xs_pm4_iter *it, xs_err *err, size_t dword, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	it->failed = true;
	it->error_dword = dword;
	xs_err_set(err, XS_E_INVALID_ARG, "dword %zu: %s", dword, msg);
	return -1;
}

static uint64_t va64(uint32_t lo, uint32_t hi)
{
	return (uint64_t)hi << 32 | lo;
}

/* "needs 7", "needs 2 or 3", "needs at least 2" */
static void body_rule(const xs_pm4_opinfo *o, char *buf, size_t size)
{
	if (o->min_body == o->max_body)
		snprintf(buf, size, "gfx10 needs %u", o->min_body);
	else if (o->op == PKT3_EVENT_WRITE)
		snprintf(buf, size, "gfx10 needs 1 (flush events) or 3 (with an address)");
	else if (o->op == PKT3_DISPATCH_INDIRECT)
		snprintf(buf, size, "gfx10 needs 2 (graphics ring, after SET_BASE) or 3 (compute ring)");
	else if (o->max_body >= ANY - 1)
		snprintf(buf, size, "needs at least %u", o->min_body);
	else
		snprintf(buf, size, "needs %u to %u", o->min_body, o->max_body);
}

/* SET_CONFIG/CONTEXT/SH/UCONFIG_REG(_INDEX): offset dword rules and range. */
static int check_set_reg(xs_pm4_iter *it, xs_pm4_packet *p, xs_err *err)
{
	const xs_pm4_opinfo *o = p->info;
	size_t d = p->index + 1;
	uint32_t w = p->body[0];
	uint32_t off = G_SET_REG_OFFSET(w);
	uint32_t index = G_SET_REG_INDEX(w);
	/* Bits 16..27 are reserved, except the MEC vmid_shift (bits 23..27) of
	 * SET_SH_REG (PAL PM4_MEC_SET_SH_REG). */
	uint32_t reserved = w & XS_SET_REG_RESERVED_MASK;
	if (o->op == PKT3_SET_SH_REG)
		reserved &= ~S_SET_SH_REG_VMID_SHIFT(~0u);
	if (reserved)
		return fail(it, err, d, "%s offset dword 0x%08" PRIx32 " has reserved bits 0x%08" PRIx32 " set",
			    o->name, w, reserved);
	if (index && !o->has_index)
		return fail(it, err, d,
			    "%s offset dword 0x%08" PRIx32 " has index %" PRIu32
			    " in bits 28..31; only the *_INDEX packets take an index",
			    o->name, w, index);
	p->space = o->space;
	p->reg_index = (uint8_t)index;
	p->reg_count = p->body_len - 1;
	uint32_t base = xs_pm4_space_base(o->space), end = xs_pm4_space_end(o->space);
	uint64_t first = (uint64_t)base + (uint64_t)off * 4;
	uint64_t last_end = first + (uint64_t)p->reg_count * 4;
	if (last_end > end)
		return fail(it, err, d,
			    "%s register offset 0x%" PRIx32 " + %" PRIu32
			    " registers runs past the %s space (writes 0x%" PRIx64 "..0x%" PRIx64
			    ", the space is 0x%" PRIx32 "..0x%" PRIx32 ")",
			    o->name, off, p->reg_count, xs_pm4_space_name(o->space), first, last_end - 4,
			    base, end - 4);
	p->reg_addr = (uint32_t)first;
	return 1;
}

static bool is_partial_flush(unsigned ev)
{
	return ev == V_028A90_CS_PARTIAL_FLUSH || ev == V_028A90_VS_PARTIAL_FLUSH ||
	       ev == V_028A90_PS_PARTIAL_FLUSH;
}

/* Field rules of the fixed-layout packets. b[k] is dword p->index + 1 + k. */
static int check_body(xs_pm4_iter *it, xs_pm4_packet *p, xs_err *err)
{
	const uint32_t *b = p->body;
	size_t d = p->index + 1;
	const char *name = p->info->name;
	switch (p->opcode) {
	case PKT3_SET_BASE:
		if (G_SET_BASE_INDEX(b[0]) != V_SET_BASE_INDEX_INDIRECT)
			return fail(it, err, d, "SET_BASE base_index %" PRIu32 " is not 1 (the indirect "
				    "dispatch/draw base, the only one xs12 models)", G_SET_BASE_INDEX(b[0]));
		if (b[1] & 3)
			return fail(it, err, d + 1, "SET_BASE address 0x%" PRIx64 " is not 4-byte aligned",
				    va64(b[1], b[2]));
		if (b[2] >> (XS_PM4_VA_BITS - 32))
			return fail(it, err, d + 2, "SET_BASE address 0x%" PRIx64 " is above the 48-bit VA range",
				    va64(b[1], b[2]));
		break;
	case PKT3_DISPATCH_INDIRECT:
		if (p->body_len == 3) { /* compute ring: address, initiator */
			if (b[0] & 3)
				return fail(it, err, d, "DISPATCH_INDIRECT address 0x%" PRIx64
					    " is not 4-byte aligned", va64(b[0], b[1]));
			if (b[1] >> (XS_PM4_VA_BITS - 32))
				return fail(it, err, d + 1, "DISPATCH_INDIRECT address 0x%" PRIx64
					    " is above the 48-bit VA range", va64(b[0], b[1]));
		} else if (b[0] & 3) {
			return fail(it, err, d, "DISPATCH_INDIRECT data offset 0x%" PRIx32 " is not 4-byte aligned",
				    b[0]);
		}
		break;
	case PKT3_INDIRECT_BUFFER: {
		uint32_t size = G_3F2_IB_SIZE(b[2]);
		if (size == 0)
			return fail(it, err, d + 2, "INDIRECT_BUFFER size is 0 dwords (IB_SIZE, bits 0..19)");
		if (b[0] & 3)
			return fail(it, err, d, "INDIRECT_BUFFER address 0x%" PRIx64 " is not 4-byte aligned",
				    va64(b[0], b[1]));
		if (b[1] >> (XS_PM4_VA_BITS - 32))
			return fail(it, err, d + 1, "INDIRECT_BUFFER address 0x%" PRIx64
				    " is above the 48-bit VA range", va64(b[0], b[1]));
		break;
	}
	case PKT3_EVENT_WRITE: {
		unsigned ev = G_EVENT_TYPE(b[0]), idx = G_EVENT_INDEX(b[0]);
		if (p->body_len == 2)
			return fail(it, err, p->index, "EVENT_WRITE body has 2 dwords, gfx10 needs 1 (flush "
				    "events) or 3 (with an address)");
		if (is_partial_flush(ev) && idx != V_EVENT_INDEX_PARTIAL_FLUSH)
			return fail(it, err, d, "EVENT_WRITE %s needs event_index 4, not %u",
				    xs_pm4_event_name(ev), idx);
		break;
	}
	case PKT3_RELEASE_MEM: {
		unsigned idx = G_490_EVENT_INDEX(b[0]);
		unsigned ds = G_EOP_DATA_SEL(b[1]), dst = G_EOP_DST_SEL(b[1]);
		if (idx != V_EVENT_INDEX_END_OF_PIPE && idx != V_EVENT_INDEX_SHADER_DONE)
			return fail(it, err, d, "RELEASE_MEM event_index %u is not 5 (end of pipe) or 6 "
				    "(shader done)", idx);
		if (dst > EOP_DST_SEL_TC_L2)
			return fail(it, err, d + 1, "RELEASE_MEM dst_sel %u is not 0 (memory) or 1 (TC_L2)", dst);
		if (ds > EOP_DATA_SEL_TIMESTAMP)
			return fail(it, err, d + 1, "RELEASE_MEM data_sel %u is not 0..3 (none, 32-bit, 64-bit, "
				    "GPU clock)", ds);
		if (ds != EOP_DATA_SEL_DISCARD) {
			uint64_t va = va64(b[2], b[3]);
			unsigned align = ds == EOP_DATA_SEL_VALUE_32BIT ? 4 : 8;
			if (va & (align - 1))
				return fail(it, err, d + 2, "RELEASE_MEM address 0x%" PRIx64
					    " is not %u-byte aligned for %s data", va, align,
					    align == 4 ? "32-bit" : "64-bit");
			if (b[3] >> (XS_PM4_VA_BITS - 32))
				return fail(it, err, d + 3, "RELEASE_MEM address 0x%" PRIx64
					    " is above the 48-bit VA range", va);
		}
		break;
	}
	case PKT3_WAIT_REG_MEM: {
		unsigned fn = G_WAIT_REG_MEM_FUNCTION(b[0]), ms = G_WAIT_REG_MEM_MEM_SPACE(b[0]);
		if (fn > WAIT_REG_MEM_GREATER)
			return fail(it, err, d, "WAIT_REG_MEM function %u is reserved (0..6 are defined)", fn);
		if (ms > 1)
			return fail(it, err, d, "WAIT_REG_MEM mem_space %u is not 0 (register) or 1 (memory)", ms);
		if (ms == 1) {
			if (b[1] & 3)
				return fail(it, err, d + 1, "WAIT_REG_MEM address 0x%" PRIx64
					    " is not 4-byte aligned", va64(b[1], b[2]));
			if (b[2] >> (XS_PM4_VA_BITS - 32))
				return fail(it, err, d + 2, "WAIT_REG_MEM address 0x%" PRIx64
					    " is above the 48-bit VA range", va64(b[1], b[2]));
		}
		break;
	}
	case PKT3_WRITE_DATA: {
		unsigned ds = G_370_DST_SEL(b[0]);
		if (ds != V_370_MEM_MAPPED_REGISTER && ds != V_370_TC_L2 && ds != V_370_MEM)
			return fail(it, err, d, "WRITE_DATA dst_sel %u is not 0 (register), 2 (TC_L2) or "
				    "5 (memory)", ds);
		if (ds != V_370_MEM_MAPPED_REGISTER) {
			if (b[1] & 3)
				return fail(it, err, d + 1, "WRITE_DATA address 0x%" PRIx64 " is not 4-byte aligned",
					    va64(b[1], b[2]));
			if (b[2] >> (XS_PM4_VA_BITS - 32))
				return fail(it, err, d + 2, "WRITE_DATA address 0x%" PRIx64
					    " is above the 48-bit VA range", va64(b[1], b[2]));
		}
		break;
	}
	case PKT3_WAIT_REG_MEM64: {
		unsigned fn = G_WAIT_REG_MEM_FUNCTION(b[0]), ms = G_WAIT_REG_MEM_MEM_SPACE(b[0]);
		if (fn > WAIT_REG_MEM_GREATER)
			return fail(it, err, d, "WAIT_REG_MEM64 function %u is reserved (0..6 are defined)", fn);
		if (ms != 1)
			return fail(it, err, d, "WAIT_REG_MEM64 mem_space %u is not 1 (memory: 64-bit polls are of "
				    "memory only)", ms);
		if (b[1] & 7)
			return fail(it, err, d + 1, "WAIT_REG_MEM64 address 0x%" PRIx64 " is not 8-byte aligned",
				    va64(b[1], b[2]));
		if (b[2] >> (XS_PM4_VA_BITS - 32))
			return fail(it, err, d + 2, "WAIT_REG_MEM64 address 0x%" PRIx64 " is above the 48-bit VA range",
				    va64(b[1], b[2]));
		break;
	}
	case PKT3_COND_WRITE: {
		unsigned fn = G_COND_WRITE_FUNCTION(b[0]);
		if (fn > WAIT_REG_MEM_GREATER)
			return fail(it, err, d, "COND_WRITE function %u is reserved (0..6 are defined)", fn);
		if (!G_COND_WRITE_POLL_SPACE(b[0]) || G_COND_WRITE_WRITE_SPACE(b[0]) != 1)
			return fail(it, err, d, "COND_WRITE polls or writes a register or GDS: xs12 models memory to "
				    "memory only (poll_space 1, write_space 1)");
		/* each address's own dwords: poll 1-2, write 5-6 */
		for (unsigned k = 1; k <= 5; k += 4) {
			const char *which = k == 1 ? "poll" : "write";
			if (b[k] & 3)
				return fail(it, err, d + k, "COND_WRITE %s address 0x%" PRIx64 " is not 4-byte aligned",
					    which, va64(b[k], b[k + 1]));
			if (b[k + 1] >> (XS_PM4_VA_BITS - 32))
				return fail(it, err, d + k + 1, "COND_WRITE %s address 0x%" PRIx64 " is above the 48-bit "
					    "VA range", which, va64(b[k], b[k + 1]));
		}
		break;
	}
	case PKT3_COND_EXEC: {
		uint32_t n = G_COND_EXEC_COUNT(b[3]);
		size_t after = it->n - (p->index + 1 + p->body_len);
		if (b[0] & 3)
			return fail(it, err, d, "COND_EXEC address 0x%" PRIx64 " is not 4-byte aligned", va64(b[0], b[1]));
		if (b[1] >> (XS_PM4_VA_BITS - 32))
			return fail(it, err, d + 1, "COND_EXEC address 0x%" PRIx64 " is above the 48-bit VA range",
				    va64(b[0], b[1]));
		if (n > after)
			return fail(it, err, d + 3, "COND_EXEC would skip %" PRIu32 " dwords; the buffer has %zu after it",
				    n, after);
		break;
	}
	case PKT3_DMA_DATA: {
		unsigned ss = G_411_SRC_SEL(b[0]), ds = G_411_DST_SEL(b[0]);
		if (ss != V_411_SRC_ADDR && ss != V_411_DATA && ss != V_411_SRC_ADDR_TC_L2)
			return fail(it, err, d, "DMA_DATA src_sel %u is not 0 (memory), 2 (data) or 3 (TC_L2)", ss);
		if (ds != V_411_DST_ADDR && ds != V_411_DST_ADDR_TC_L2)
			return fail(it, err, d, "DMA_DATA dst_sel %u is not 0 (memory) or 3 (TC_L2): xs12 models "
				    "memory destinations only", ds);
		if (G_415_SAIC(b[5]) || G_415_DAIC(b[5]))
			return fail(it, err, d + 5, "DMA_DATA with a non-incrementing address (SAIC/DAIC) is a register "
				    "copy: not modelled");
		if (ss != V_411_DATA && b[2] >> (XS_PM4_VA_BITS - 32))
			return fail(it, err, d + 2, "DMA_DATA source address 0x%" PRIx64 " is above the 48-bit VA "
				    "range", va64(b[1], b[2]));
		if (b[4] >> (XS_PM4_VA_BITS - 32))
			return fail(it, err, d + 4, "DMA_DATA destination address 0x%" PRIx64 " is above the 48-bit VA "
				    "range", va64(b[3], b[4]));
		break;
	}
	case PKT3_XS_LAUNCH: {
		uint32_t n = b[17];
		if (p->body_len != PKT3_XS_LAUNCH_FIXED_DW + n)
			return fail(it, err, d + 17, "XS_LAUNCH says %" PRIu32 " hidden-argument patches, its body has "
				    "room for %" PRIu32, n, p->body_len - PKT3_XS_LAUNCH_FIXED_DW);
		for (int k = 0; k < 5; k++)
			if (b[2 + 2 * k] >> (XS_PM4_VA_BITS - 32))
				return fail(it, err, d + 2 + 2 * k, "XS_LAUNCH address above the 48-bit VA range");
		for (uint32_t k = 0; k < n; k++) {
			uint32_t w = b[18 + k], kind = G_XS_PATCH_KIND(w), size = G_XS_PATCH_SIZE(w);
			if (kind < XS_PATCH_BLOCK_COUNT_X || kind > XS_PATCH_DYNAMIC_LDS_SIZE || (size != 2 && size != 4 &&
											    size != 8))
				return fail(it, err, d + 18 + k, "XS_LAUNCH patch 0x%08" PRIx32 ": kind %" PRIu32
					    " (1..11) or size %" PRIu32 " (2, 4 or 8) is not one there is", w, kind, size);
		}
		break;
	}
	case PKT3_XS_BUILD_AS:
		if (G_XS_AS_OP(b[0]) > XS_AS_OP_POSTBUILD || (b[0] & ~S_XS_AS_OP(0xF)))
			return fail(it, err, d, "XS_BUILD_AS control 0x%08" PRIx32 ": op %" PRIu32 " (0..2) or reserved "
				    "bits", b[0], G_XS_AS_OP(b[0]));
		if (b[2] >> (XS_PM4_VA_BITS - 32) || (b[1] & 7))
			return fail(it, err, d + 1, "XS_BUILD_AS descriptor address is not 8-byte aligned in the 48-bit "
				    "VA range");
		if (!b[3] || b[3] > XS_AS_DESC_MAX_BYTES)
			return fail(it, err, d + 3, "XS_BUILD_AS descriptor of %" PRIu32 " bytes (1..%u)", b[3],
				    XS_AS_DESC_MAX_BYTES);
		break;
	case PKT3_INDEX_TYPE:
		if (b[0] & ~S_03090C_INDEX_TYPE(3) || G_03090C_INDEX_TYPE(b[0]) > V_03090C_VGT_INDEX_32)
			return fail(it, err, d, "INDEX_TYPE 0x%08" PRIx32 " is not 0 (16-bit) or 1 (32-bit): D3D12 index "
				    "buffers have no other format", b[0]);
		break;
	case PKT3_INDEX_BASE:
		if ((b[0] & 1) || b[1] >> (XS_PM4_VA_BITS - 32))
			return fail(it, err, d, "INDEX_BASE 0x%" PRIx64 " is not 2-byte aligned in the 48-bit VA range",
				    va64(b[0], b[1]));
		break;
	case PKT3_DRAW_INDEX_2:
		if ((b[1] & 1) || b[2] >> (XS_PM4_VA_BITS - 32))
			return fail(it, err, d + 1, "DRAW_INDEX_2 index address 0x%" PRIx64 " is not 2-byte aligned in the "
				    "48-bit VA range", va64(b[1], b[2]));
		if (G_0287F0_SOURCE_SELECT(b[4]) != V_0287F0_DI_SRC_SEL_DMA)
			return fail(it, err, d + 4, "DRAW_INDEX_2 draw initiator 0x%08" PRIx32 ": SOURCE_SELECT %u is not "
				    "0 (DMA)", b[4], G_0287F0_SOURCE_SELECT(b[4]));
		break;
	case PKT3_DRAW_INDEX_AUTO:
		if (G_0287F0_SOURCE_SELECT(b[1]) != V_0287F0_DI_SRC_SEL_AUTO_INDEX)
			return fail(it, err, d + 1, "DRAW_INDEX_AUTO draw initiator 0x%08" PRIx32 ": SOURCE_SELECT %u is "
				    "not 2 (AUTO_INDEX)", b[1], G_0287F0_SOURCE_SELECT(b[1]));
		break;
	case PKT3_DRAW_INDIRECT:
	case PKT3_DRAW_INDEX_INDIRECT: {
		bool ix = p->opcode == PKT3_DRAW_INDEX_INDIRECT;
		unsigned want = ix ? V_0287F0_DI_SRC_SEL_DMA : V_0287F0_DI_SRC_SEL_AUTO_INDEX;
		if (b[0] & 3)
			return fail(it, err, d, "%s data offset 0x%" PRIx32 " is not 4-byte aligned", name, b[0]);
		for (int k = 1; k <= 2; k++)
			if (b[k] && XS_SH_REG_OFFSET + (uint64_t)b[k] * 4 >= XS_SH_REG_END)
				return fail(it, err, d + k, "%s %s 0x%" PRIx32 " is not an SH register offset", name,
					    k == 1 ? "base_vtx_loc" : "start_inst_loc", b[k]);
		if (G_0287F0_SOURCE_SELECT(b[3]) != want)
			return fail(it, err, d + 3, "%s draw initiator 0x%08" PRIx32 ": SOURCE_SELECT %u is not %u", name,
				    b[3], G_0287F0_SOURCE_SELECT(b[3]), want);
		break;
	}
	case PKT3_XS_FILL: {
		uint32_t pitch = b[2], row = b[3], rows = b[4], pdw = b[5];
		if (pdw != 1 && pdw != 2 && pdw != 4)
			return fail(it, err, d + 5, "XS_FILL pattern_dw %" PRIu32 " is not 1, 2 or 4", pdw);
		if (p->body_len != PKT3_XS_FILL_FIXED_DW + pdw)
			return fail(it, err, d + 5, "XS_FILL says %" PRIu32 " pattern dwords, its body has %" PRIu32, pdw,
				    p->body_len - PKT3_XS_FILL_FIXED_DW);
		if ((b[0] & 3) || b[1] >> (XS_PM4_VA_BITS - 32))
			return fail(it, err, d, "XS_FILL address 0x%" PRIx64 " is not 4-byte aligned in the 48-bit VA range",
				    va64(b[0], b[1]));
		if (!row || row % (4 * pdw))
			return fail(it, err, d + 3, "XS_FILL row_bytes %" PRIu32 " is not a positive multiple of the "
				    "%" PRIu32 "-byte pattern", row, 4 * pdw);
		if (!rows)
			return fail(it, err, d + 4, "XS_FILL with 0 rows");
		if ((pitch & 3) || (rows > 1 && pitch < row))
			return fail(it, err, d + 2, "XS_FILL pitch %" PRIu32 " is not 4-byte aligned or is below "
				    "row_bytes %" PRIu32, pitch, row);
		const uint64_t extent = (uint64_t)pitch * (rows - 1) + row;
		if (extent > XS_FILL_MAX_BYTES)
			return fail(it, err, d + 4, "XS_FILL region of %" PRIu32 " rows x %" PRIu32 " bytes spans %" PRIu64
				    " bytes, over the packet's %llu", rows, pitch, extent,
				    (unsigned long long)XS_FILL_MAX_BYTES);
		if (va64(b[0], b[1]) + extent > (1ull << XS_PM4_VA_BITS))
			return fail(it, err, d + 4, "XS_FILL region of %" PRIu32 " rows x %" PRIu32 " bytes leaves the "
				    "48-bit VA range", rows, pitch);
		break;
	}
	case PKT3_SET_SH_REG_OFFSET: {
		uint32_t off = G_SET_REG_OFFSET(b[0]);
		if (XS_SH_REG_OFFSET + off * 4 >= XS_SH_REG_END)
			return fail(it, err, d, "%s register offset 0x%" PRIx32 " is outside the SH space",
				    name, off);
		break;
	}
	default:
		break;
	}
	return 1;
}

int xs_pm4_next(xs_pm4_iter *it, xs_pm4_packet *pkt, xs_err *err)
{
	if (it->failed) {
		xs_err_set(err, XS_E_INVALID_ARG, "dword %zu: the stream already failed to decode",
			   it->error_dword);
		return -1;
	}
	if (it->pos >= it->n)
		return 0;
	size_t i = it->pos;
	uint32_t h = it->dw[i];
	xs_pm4_packet p = { .index = i, .header = h, .type = (uint8_t)PKT_TYPE_G(h) };

	switch (p.type) {
	case 0:
		return fail(it, err, i, "type-0 packet (header 0x%08" PRIx32 "): xs12 accepts only type-3 "
			    "packets and type-2 filler", h);
	case 1:
		return fail(it, err, i, "packet type 1 (header 0x%08" PRIx32 ") does not exist", h);
	case 2:
		if (h != PKT2_NOP_PAD)
			return fail(it, err, i, "type-2 filler must be 0x80000000, not 0x%08" PRIx32, h);
		it->pos = i + 1;
		*pkt = p;
		return 1;
	default:
		break;
	}

	p.opcode = (uint8_t)PKT3_IT_OPCODE_G(h);
	p.count = (uint16_t)PKT_COUNT_G(h);
	p.shader_type = PKT3_SHADER_TYPE_G(h);
	p.predicate = PKT3_PREDICATE_G(h);
	p.info = xs_pm4_opinfo_get(p.opcode);
	if (!p.info)
		return fail(it, err, i, "unknown PM4 opcode 0x%02x (header 0x%08" PRIx32 ")", p.opcode, h);
	if (h & PKT3_HEADER_RESERVED_MASK)
		return fail(it, err, i, "%s header 0x%08" PRIx32 " has reserved bits 3..7 set", p.info->name, h);

	if (p.opcode == PKT3_NOP && p.count == PKT3_COUNT_MAX) {
		p.body_len = 0; /* header-only NOP */
	} else {
		p.body_len = (uint32_t)p.count + 1;
		size_t remain = it->n - i - 1;
		if (p.body_len > remain)
			return fail(it, err, i,
				    "%s count %u needs %" PRIu32 " body dword%s, but the stream ends after %zu",
				    p.info->name, p.count, p.body_len, p.body_len == 1 ? "" : "s", remain);
		p.body = &it->dw[i + 1];
	}

	const xs_pm4_opinfo *o = p.info;
	if (p.body_len < o->min_body || p.body_len > o->max_body) {
		char rule[96];
		body_rule(o, rule, sizeof(rule));
		if (o->space != XS_PM4_SPACE_NONE && p.body_len == 1)
			return fail(it, err, i, "%s writes no register: body has 1 dword (the offset), %s",
				    o->name, rule);
		return fail(it, err, i, "%s body has %" PRIu32 " dword%s, %s", o->name, p.body_len,
			    p.body_len == 1 ? "" : "s", rule);
	}
	int r = o->space != XS_PM4_SPACE_NONE ? check_set_reg(it, &p, err) : check_body(it, &p, err);
	if (r < 0)
		return r;
	it->pos = i + 1 + p.body_len;
	*pkt = p;
	return 1;
}
