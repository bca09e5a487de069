/* PM4 builder (see xs_pm4_build.h). */
#include "pm4/xs_pm4_build.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/xs_hw_pm4.h"
#include "pm4/xs_pm4_regdb.h"

#define MAX_BODY ((size_t)PKT3_COUNT_MAX + 1)

void xs_pm4_builder_init(xs_pm4_builder *b, size_t max_dwords)
{
	memset(b, 0, sizeof(*b));
	b->max_dwords = max_dwords ? max_dwords : XS_PM4_BUILDER_DEFAULT_MAX_DWORDS;
	if (b->max_dwords > SIZE_MAX / sizeof(uint32_t))
		b->max_dwords = SIZE_MAX / sizeof(uint32_t);
	b->realloc_fn = realloc;
	xs_err_clear(&b->err);
}

void xs_pm4_builder_free(xs_pm4_builder *b)
{
	free(b->dw);
	b->dw = NULL;
	b->cdw = b->cap = 0;
}

void xs_pm4_builder_reset(xs_pm4_builder *b)
{
	b->cdw = 0;
	b->sh_tag = 0;
	xs_err_clear(&b->err);
}

XS_PRINTF(3, 4) static void bad(xs_pm4_builder *b, xs_status s, const char *fmt, ...)
{
	if (xs_pm4_builder_failed(b))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b->err.msg, sizeof(b->err.msg), fmt, ap);
	va_end(ap);
	b->err.status = s;
}

/* Capacity for n more dwords (not yet recorded); false after any failure. */
static bool ensure(xs_pm4_builder *b, size_t n, const char *what)
{
	if (xs_pm4_builder_failed(b))
		return false;
	if (n > b->max_dwords - b->cdw) {
		bad(b, XS_E_OUT_OF_MEMORY, "%s: %zu dwords do not fit: the command buffer is limited to %zu "
		    "dwords and holds %zu", what, n, b->max_dwords, b->cdw);
		return false;
	}
	if (b->cdw + n <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->cdw + n)
		cap = cap > b->max_dwords / 2 ? b->max_dwords : cap * 2;
	uint32_t *p = b->realloc_fn(b->dw, cap * sizeof(uint32_t));
	if (!p) {
		bad(b, XS_E_OUT_OF_MEMORY, "%s: out of memory growing the command buffer to %zu dwords", what,
		    cap);
		return false;
	}
	b->dw = p;
	b->cap = cap;
	return true;
}

/* Room for n more dwords, counted as recorded; NULL after any failure. */
static uint32_t *reserve(xs_pm4_builder *b, size_t n, const char *what)
{
	if (!ensure(b, n, what))
		return NULL;
	uint32_t *out = b->dw + b->cdw;
	b->cdw += n;
	return out;
}

uint32_t xs_pm4_pkt3_header(unsigned opcode, unsigned count, unsigned flags)
{
	return PKT3(opcode, count, 0) | (flags & (XS_PM4_F_PREDICATE | XS_PM4_F_COMPUTE |
						 XS_PM4_F_RESET_FILTER_CAM));
}

static unsigned hdr_flags(const xs_pm4_builder *b, unsigned flags)
{
	return flags | (b->predicate ? XS_PM4_F_PREDICATE : 0);
}

void xs_pm4_emit_raw(xs_pm4_builder *b, const uint32_t *dw, size_t n)
{
	if (!dw && n) {
		bad(b, XS_E_INVALID_ARG, "raw dwords: NULL data for %zu dwords", n);
		return;
	}
	uint32_t *p = reserve(b, n, "raw dwords");
	if (p && n)
		memcpy(p, dw, n * sizeof(uint32_t));
}

/* Header plus body space; the caller fills body[0..n-1]. */
static uint32_t *begin(xs_pm4_builder *b, unsigned opcode, size_t n, unsigned flags, const char *what)
{
	if (n < 1 || n > MAX_BODY) {
		bad(b, XS_E_INVALID_ARG, "%s: a body of %zu dwords does not fit a type-3 packet (1..%zu)", what,
		    n, MAX_BODY);
		return NULL;
	}
	/* a NOP's count 0x3FFF is the header-only NOP (PKT3_NOP_PAD): its
	 * 0x4000 dwords would decode as packets */
	if (opcode == PKT3_NOP && n > PKT3_COUNT_MAX) {
		bad(b, XS_E_INVALID_ARG, "%s: a NOP of %zu payload dwords; at most %u (count 0x3FFF means "
		    "header-only)", what, n, PKT3_COUNT_MAX);
		return NULL;
	}
	uint32_t *p = reserve(b, n + 1, what);
	if (!p)
		return NULL;
	p[0] = xs_pm4_pkt3_header(opcode, (unsigned)(n - 1), hdr_flags(b, flags));
	return p + 1;
}

void xs_pm4_emit_pkt3(xs_pm4_builder *b, unsigned opcode, const uint32_t *body, size_t n, unsigned flags)
{
	if (!body) {
		bad(b, XS_E_INVALID_ARG, "packet 0x%02x: NULL body", opcode);
		return;
	}
	if (opcode > 0xFF) {
		bad(b, XS_E_INVALID_ARG, "packet opcode 0x%x is wider than 8 bits", opcode);
		return;
	}
	uint32_t *p = begin(b, opcode, n, flags, "packet");
	if (p)
		memcpy(p, body, n * sizeof(uint32_t));
}

static bool va_ok(xs_pm4_builder *b, const char *what, uint64_t va, unsigned align)
{
	if (va & (align - 1)) {
		bad(b, XS_E_INVALID_ARG, "%s: address 0x%" PRIx64 " is not %u-byte aligned", what, va, align);
		return false;
	}
	if (va >> XS_PM4_VA_BITS) {
		bad(b, XS_E_INVALID_ARG, "%s: address 0x%" PRIx64 " is above the 48-bit VA range", what, va);
		return false;
	}
	return true;
}

static void set_reg(xs_pm4_builder *b, unsigned opcode, xs_pm4_space space, const char *what, uint32_t reg,
		    unsigned index, const uint32_t *values, size_t n)
{
	uint32_t base = xs_pm4_space_base(space), end = xs_pm4_space_end(space);
	if (!values || n == 0) {
		bad(b, XS_E_INVALID_ARG, "%s: no register values (n = %zu)", what, n);
		return;
	}
	if (reg & 3) {
		bad(b, XS_E_INVALID_ARG, "%s: register address 0x%" PRIx32 " is not 4-byte aligned", what, reg);
		return;
	}
	if (reg < base || reg >= end || n > (end - reg) / 4) {
		bad(b, XS_E_INVALID_ARG,
		    "%s: register 0x%" PRIx32 " + %zu registers is not inside the %s space (0x%" PRIx32
		    "..0x%" PRIx32 ")", what, reg, n, xs_pm4_space_name(space), base, end - 4);
		return;
	}
	if (index > 15) {
		bad(b, XS_E_INVALID_ARG, "%s: index %u does not fit bits 28..31", what, index);
		return;
	}
	uint32_t *p = begin(b, opcode, n + 1, 0, what);
	if (!p)
		return;
	p[0] = S_SET_REG_OFFSET((reg - base) / 4) | S_SET_REG_INDEX(index);
	memcpy(p + 1, values, n * sizeof(uint32_t));
}

void xs_pm4_set_sh_reg(xs_pm4_builder *b, uint32_t reg, const uint32_t *values, size_t n)
{
	set_reg(b, PKT3_SET_SH_REG, XS_PM4_SPACE_SH, "SET_SH_REG", reg, 0, values, n);
}

void xs_pm4_set_sh_reg1(xs_pm4_builder *b, uint32_t reg, uint32_t value)
{
	xs_pm4_set_sh_reg(b, reg, &value, 1);
}

void xs_pm4_set_sh_reg_index(xs_pm4_builder *b, uint32_t reg, unsigned index, const uint32_t *values,
			     size_t n)
{
	set_reg(b, PKT3_SET_SH_REG_INDEX, XS_PM4_SPACE_SH, "SET_SH_REG_INDEX", reg, index, values, n);
}

void xs_pm4_set_context_reg(xs_pm4_builder *b, uint32_t reg, const uint32_t *values, size_t n)
{
	set_reg(b, PKT3_SET_CONTEXT_REG, XS_PM4_SPACE_CONTEXT, "SET_CONTEXT_REG", reg, 0, values, n);
}

void xs_pm4_set_uconfig_reg(xs_pm4_builder *b, uint32_t reg, const uint32_t *values, size_t n)
{
	set_reg(b, PKT3_SET_UCONFIG_REG, XS_PM4_SPACE_UCONFIG, "SET_UCONFIG_REG", reg, 0, values, n);
}

void xs_pm4_set_config_reg(xs_pm4_builder *b, uint32_t reg, const uint32_t *values, size_t n)
{
	set_reg(b, PKT3_SET_CONFIG_REG, XS_PM4_SPACE_CONFIG, "SET_CONFIG_REG", reg, 0, values, n);
}

void xs_pm4_dispatch_direct(xs_pm4_builder *b, uint32_t x, uint32_t y, uint32_t z, uint32_t initiator)
{
	uint32_t *p = begin(b, PKT3_DISPATCH_DIRECT, 4, XS_PM4_F_COMPUTE, "DISPATCH_DIRECT");
	if (!p)
		return;
	p[0] = x;
	p[1] = y;
	p[2] = z;
	p[3] = initiator;
}

void xs_pm4_set_base(xs_pm4_builder *b, unsigned base_index, uint64_t va)
{
	if (base_index != V_SET_BASE_INDEX_INDIRECT) {
		bad(b, XS_E_INVALID_ARG, "SET_BASE: base_index %u is not 1 (indirect base)", base_index);
		return;
	}
	if (!va_ok(b, "SET_BASE", va, 4))
		return;
	uint32_t *p = begin(b, PKT3_SET_BASE, 3, XS_PM4_F_COMPUTE, "SET_BASE");
	if (!p)
		return;
	p[0] = base_index;
	p[1] = (uint32_t)va;
	p[2] = (uint32_t)(va >> 32);
}

void xs_pm4_dispatch_indirect_gfx(xs_pm4_builder *b, uint64_t base_va, uint32_t data_offset,
				  uint32_t initiator)
{
	if (data_offset & 3) {
		bad(b, XS_E_INVALID_ARG, "DISPATCH_INDIRECT: data offset 0x%" PRIx32 " is not 4-byte aligned",
		    data_offset);
		return;
	}
	if (!va_ok(b, "DISPATCH_INDIRECT", base_va + data_offset, 4))
		return;
	/* Both packets or neither: room for 4 + 3 dwords first. */
	if (!ensure(b, 7, "SET_BASE + DISPATCH_INDIRECT"))
		return;
	xs_pm4_set_base(b, V_SET_BASE_INDEX_INDIRECT, base_va);
	uint32_t *p = begin(b, PKT3_DISPATCH_INDIRECT, 2, XS_PM4_F_COMPUTE, "DISPATCH_INDIRECT");
	if (!p)
		return;
	p[0] = data_offset;
	p[1] = initiator;
}

void xs_pm4_dispatch_indirect_mec(xs_pm4_builder *b, uint64_t va, uint32_t initiator)
{
	if (!va_ok(b, "DISPATCH_INDIRECT", va, 4))
		return;
	uint32_t *p = begin(b, PKT3_DISPATCH_INDIRECT, 3, XS_PM4_F_COMPUTE, "DISPATCH_INDIRECT");
	if (!p)
		return;
	p[0] = (uint32_t)va;
	p[1] = (uint32_t)(va >> 32);
	p[2] = initiator;
}

static bool is_ts_event(unsigned ev)
{
	return ev == V_028A90_CACHE_FLUSH_TS || ev == V_028A90_CACHE_FLUSH_AND_INV_TS_EVENT ||
	       ev == V_028A90_BOTTOM_OF_PIPE_TS || ev == V_028A90_FLUSH_SX_TS ||
	       ev == V_028A90_FLUSH_AND_INV_DB_DATA_TS || ev == V_028A90_FLUSH_AND_INV_CB_DATA_TS ||
	       ev == V_028A90_CS_DONE || ev == V_028A90_PS_DONE;
}

void xs_pm4_event_write(xs_pm4_builder *b, unsigned ev)
{
	if (ev > 63) {
		bad(b, XS_E_INVALID_ARG, "EVENT_WRITE: event type %u does not fit 6 bits", ev);
		return;
	}
	if (is_ts_event(ev)) {
		bad(b, XS_E_INVALID_ARG, "EVENT_WRITE: %s is an end-of-pipe event; use RELEASE_MEM",
		    xs_pm4_event_name(ev));
		return;
	}
	if (ev == V_028A90_ZPASS_DONE || ev == V_028A90_SAMPLE_PIPELINESTAT ||
	    (ev >= 1 && ev <= 3) || ev == V_028A90_SAMPLE_STREAMOUTSTATS) {
		bad(b, XS_E_INVALID_ARG, "EVENT_WRITE: %s writes to memory and needs an address",
		    xs_pm4_event_name(ev));
		return;
	}
	bool pf = ev == V_028A90_CS_PARTIAL_FLUSH || ev == V_028A90_VS_PARTIAL_FLUSH ||
		  ev == V_028A90_PS_PARTIAL_FLUSH;
	uint32_t *p = begin(b, PKT3_EVENT_WRITE, 1, 0, "EVENT_WRITE");
	if (p)
		p[0] = EVENT_TYPE(ev) | EVENT_INDEX(pf ? V_EVENT_INDEX_PARTIAL_FLUSH : 0);
}

void xs_pm4_release_mem(xs_pm4_builder *b, const xs_pm4_release_mem_desc *d)
{
	if (d->event_type > 63) {
		bad(b, XS_E_INVALID_ARG, "RELEASE_MEM: event type %u does not fit 6 bits", d->event_type);
		return;
	}
	if (d->gcr & ~XS_RELEASE_MEM_GCR_MASK) {
		bad(b, XS_E_INVALID_ARG, "RELEASE_MEM: gcr 0x%08" PRIx32 " has bits outside 12..23", d->gcr);
		return;
	}
	if (d->dst_sel > EOP_DST_SEL_TC_L2 || d->data_sel > EOP_DATA_SEL_TIMESTAMP) {
		bad(b, XS_E_INVALID_ARG, "RELEASE_MEM: dst_sel %u / data_sel %u not supported (0..1 / 0..3)",
		    d->dst_sel, d->data_sel);
		return;
	}
	if (d->data_sel != EOP_DATA_SEL_DISCARD &&
	    !va_ok(b, "RELEASE_MEM", d->va, d->data_sel == EOP_DATA_SEL_VALUE_32BIT ? 4 : 8))
		return;
	uint32_t *p = begin(b, PKT3_RELEASE_MEM, PKT3_RELEASE_MEM_BODY_DW, 0, "RELEASE_MEM");
	if (!p)
		return;
	bool done = d->event_type == V_028A90_CS_DONE || d->event_type == V_028A90_PS_DONE;
	p[0] = S_490_EVENT_TYPE(d->event_type) |
	       S_490_EVENT_INDEX(done ? V_EVENT_INDEX_SHADER_DONE : V_EVENT_INDEX_END_OF_PIPE) | d->gcr;
	p[1] = EOP_DST_SEL(d->dst_sel) |
	       EOP_INT_SEL(d->data_sel ? EOP_INT_SEL_SEND_DATA_AFTER_WR_CONFIRM : EOP_INT_SEL_NONE) |
	       EOP_DATA_SEL(d->data_sel);
	p[2] = (uint32_t)d->va;
	p[3] = (uint32_t)(d->va >> 32);
	p[4] = (uint32_t)d->data;
	p[5] = (uint32_t)(d->data >> 32);
	p[6] = 0; /* int_ctxid */
}

void xs_pm4_fence(xs_pm4_builder *b, uint64_t va, uint64_t value, bool is64)
{
	xs_pm4_release_mem_desc d = {
		.event_type = V_028A90_BOTTOM_OF_PIPE_TS,
		.dst_sel = EOP_DST_SEL_MEM,
		.data_sel = is64 ? EOP_DATA_SEL_VALUE_64BIT : EOP_DATA_SEL_VALUE_32BIT,
		.va = va,
		.data = is64 ? value : (uint32_t)value,
	};
	xs_pm4_release_mem(b, &d);
}

void xs_pm4_wait_reg_mem(xs_pm4_builder *b, unsigned function, uint64_t va, uint32_t ref, uint32_t mask)
{
	if (function > WAIT_REG_MEM_GREATER) {
		bad(b, XS_E_INVALID_ARG, "WAIT_REG_MEM: function %u is reserved (0..6)", function);
		return;
	}
	if (!va_ok(b, "WAIT_REG_MEM", va, 4))
		return;
	uint32_t *p = begin(b, PKT3_WAIT_REG_MEM, PKT3_WAIT_REG_MEM_BODY_DW, 0, "WAIT_REG_MEM");
	if (!p)
		return;
	p[0] = WAIT_REG_MEM_FUNCTION(function) | WAIT_REG_MEM_MEM_SPACE(1);
	p[1] = (uint32_t)va;
	p[2] = (uint32_t)(va >> 32);
	p[3] = ref;
	p[4] = mask;
	p[5] = XS_WAIT_REG_MEM_POLL_INTERVAL;
}

void xs_pm4_acquire_mem(xs_pm4_builder *b, uint32_t gcr_cntl)
{
	if (gcr_cntl & ~XS_GCR_CNTL_MASK) {
		bad(b, XS_E_INVALID_ARG, "ACQUIRE_MEM: GCR_CNTL 0x%08" PRIx32 " has bits above 18", gcr_cntl);
		return;
	}
	uint32_t *p = begin(b, PKT3_ACQUIRE_MEM, PKT3_ACQUIRE_MEM_BODY_DW, 0, "ACQUIRE_MEM");
	if (!p)
		return;
	p[0] = 0;          /* coher_cntl 0, engine_sel (bit 31) 0 = PFP, as RADV */
	p[1] = 0xFFFFFFFF; /* coher_size: everything */
	p[2] = 0x00FFFFFF; /* coher_size_hi */
	p[3] = 0;          /* coher_base */
	p[4] = 0;          /* coher_base_hi */
	p[5] = XS_ACQUIRE_MEM_POLL_INTERVAL;
	p[6] = gcr_cntl;
}

void xs_pm4_indirect_buffer(xs_pm4_builder *b, uint64_t va, uint32_t dwords, bool chain)
{
	if (dwords == 0 || dwords > XS_IB_SIZE_MAX) {
		bad(b, XS_E_INVALID_ARG, "INDIRECT_BUFFER: size %" PRIu32 " dwords is not 1..%u", dwords,
		    XS_IB_SIZE_MAX);
		return;
	}
	if (!va_ok(b, "INDIRECT_BUFFER", va, 4))
		return;
	uint32_t *p = begin(b, PKT3_INDIRECT_BUFFER, 3, 0, "INDIRECT_BUFFER");
	if (!p)
		return;
	p[0] = (uint32_t)va;
	p[1] = (uint32_t)(va >> 32);
	p[2] = S_3F2_IB_SIZE(dwords) | S_3F2_CHAIN(chain) | S_3F2_VALID(chain);
}

void xs_pm4_nop(xs_pm4_builder *b, const uint32_t *payload, size_t n)
{
	if (n == 0) {
		uint32_t *p = reserve(b, 1, "NOP");
		if (p)
			p[0] = PKT3_NOP_PAD | (b->predicate ? XS_PM4_F_PREDICATE : 0);
		return;
	}
	uint32_t *p = begin(b, PKT3_NOP, n, 0, "NOP");
	if (!p)
		return;
	if (payload)
		memcpy(p, payload, n * sizeof(uint32_t));
	else
		memset(p, 0, n * sizeof(uint32_t));
}

void xs_pm4_write_data(xs_pm4_builder *b, uint64_t va, const uint32_t *values, size_t n)
{
	if (!values || n == 0 || n > MAX_BODY - 3) {
		bad(b, XS_E_INVALID_ARG, "WRITE_DATA: %zu dwords; 1..%zu", n, MAX_BODY - 3);
		return;
	}
	if (!va_ok(b, "WRITE_DATA", va, 4))
		return;
	uint32_t *p = begin(b, PKT3_WRITE_DATA, n + 3, 0, "WRITE_DATA");
	if (!p)
		return;
	p[0] = S_370_DST_SEL(V_370_MEM) | S_370_WR_CONFIRM(1) | S_370_ENGINE_SEL(V_370_ME);
	p[1] = (uint32_t)va;
	p[2] = (uint32_t)(va >> 32);
	memcpy(p + 3, values, n * sizeof(uint32_t));
}

void xs_pm4_wait_reg_mem64(xs_pm4_builder *b, unsigned function, uint64_t va, uint64_t ref, uint64_t mask)
{
	if (function > WAIT_REG_MEM_GREATER) {
		bad(b, XS_E_INVALID_ARG, "WAIT_REG_MEM64: function %u is reserved (0..6)", function);
		return;
	}
	if (!va_ok(b, "WAIT_REG_MEM64", va, 8))
		return;
	uint32_t *p = begin(b, PKT3_WAIT_REG_MEM64, PKT3_WAIT_REG_MEM64_BODY_DW, 0, "WAIT_REG_MEM64");
	if (!p)
		return;
	p[0] = WAIT_REG_MEM_FUNCTION(function) | WAIT_REG_MEM_MEM_SPACE(1);
	p[1] = (uint32_t)va;
	p[2] = (uint32_t)(va >> 32);
	p[3] = (uint32_t)ref;
	p[4] = (uint32_t)(ref >> 32);
	p[5] = (uint32_t)mask;
	p[6] = (uint32_t)(mask >> 32);
	p[7] = XS_WAIT_REG_MEM_POLL_INTERVAL;
}

void xs_pm4_cond_write(xs_pm4_builder *b, unsigned function, uint64_t poll_va, uint32_t ref, uint32_t mask,
		       uint64_t write_va, uint32_t data)
{
	if (function > WAIT_REG_MEM_GREATER) {
		bad(b, XS_E_INVALID_ARG, "COND_WRITE: function %u is reserved (0..6)", function);
		return;
	}
	if (!va_ok(b, "COND_WRITE", poll_va, 4) || !va_ok(b, "COND_WRITE", write_va, 4))
		return;
	uint32_t *p = begin(b, PKT3_COND_WRITE, PKT3_COND_WRITE_BODY_DW, 0, "COND_WRITE");
	if (!p)
		return;
	p[0] = S_COND_WRITE_FUNCTION(function) | S_COND_WRITE_POLL_SPACE(1) | S_COND_WRITE_WRITE_SPACE(1);
	p[1] = (uint32_t)poll_va;
	p[2] = (uint32_t)(poll_va >> 32);
	p[3] = ref;
	p[4] = mask;
	p[5] = (uint32_t)write_va;
	p[6] = (uint32_t)(write_va >> 32);
	p[7] = data;
}

size_t xs_pm4_cond_exec_begin(xs_pm4_builder *b, uint64_t va)
{
	if (!va_ok(b, "COND_EXEC", va, 4))
		return SIZE_MAX;
	uint32_t *p = begin(b, PKT3_COND_EXEC, PKT3_COND_EXEC_BODY_DW, 0, "COND_EXEC");
	if (!p)
		return SIZE_MAX;
	p[0] = (uint32_t)va;
	p[1] = (uint32_t)(va >> 32);
	p[2] = 0;
	p[3] = 0; /* exec count: xs_pm4_cond_exec_end */
	return b->cdw;
}

void xs_pm4_cond_exec_end(xs_pm4_builder *b, size_t at)
{
	if (xs_pm4_builder_failed(b) || at == SIZE_MAX || at > b->cdw)
		return;
	size_t n = b->cdw - at;
	if (n > XS_COND_EXEC_MAX_DWORDS) {
		bad(b, XS_E_INVALID_ARG, "COND_EXEC: %zu dwords to skip, the count holds at most %u", n,
		    XS_COND_EXEC_MAX_DWORDS);
		return;
	}
	b->dw[at - 1] = S_COND_EXEC_COUNT(n);
}

void xs_pm4_dma_data(xs_pm4_builder *b, uint64_t dst, uint64_t src, uint64_t bytes)
{
	if (!va_ok(b, "DMA_DATA", dst, 1) || !va_ok(b, "DMA_DATA", src, 1))
		return;
	while (bytes) {
		uint32_t n = (uint32_t)XS_MIN(bytes, (uint64_t)XS_CP_DMA_MAX_BYTES);
		uint32_t *p = begin(b, PKT3_DMA_DATA, PKT3_DMA_DATA_BODY_DW, 0, "DMA_DATA");
		if (!p)
			return;
		p[0] = S_411_CP_SYNC(1) | S_411_DST_SEL(V_411_DST_ADDR_TC_L2) | S_411_SRC_SEL(V_411_SRC_ADDR_TC_L2);
		p[1] = (uint32_t)src;
		p[2] = (uint32_t)(src >> 32);
		p[3] = (uint32_t)dst;
		p[4] = (uint32_t)(dst >> 32);
		p[5] = S_415_BYTE_COUNT_GFX9(n) | S_415_RAW_WAIT(1);
		src += n;
		dst += n;
		bytes -= n;
	}
}

void xs_pm4_xs_launch(xs_pm4_builder *b, const xs_pm4_launch_desc *d)
{
	if (d->npatches > XS_LAUNCH_MAX_PATCHES) {
		bad(b, XS_E_INVALID_ARG, "XS_LAUNCH: %u hidden-argument patches, at most %u", d->npatches,
		    XS_LAUNCH_MAX_PATCHES);
		return;
	}
	if ((d->dims_va && !va_ok(b, "XS_LAUNCH", d->dims_va, 4)) ||
	    (d->params_va && !va_ok(b, "XS_LAUNCH", d->params_va, 4)) || !va_ok(b, "XS_LAUNCH", d->dims_out_va, 4) ||
	    !va_ok(b, "XS_LAUNCH", d->aql_va, 64) || !va_ok(b, "XS_LAUNCH", d->kernarg_va, 4))
		return;
	uint32_t *p = begin(b, PKT3_XS_LAUNCH, PKT3_XS_LAUNCH_FIXED_DW + d->npatches, 0, "XS_LAUNCH");
	if (!p)
		return;
	p[0] = S_XS_LAUNCH_DIMS_INDIRECT(d->dims_va != 0) | S_XS_LAUNCH_PARAMS_INDIRECT(d->params_va != 0) |
	       S_XS_LAUNCH_WORK_DIM(d->work_dim) | S_XS_LAUNCH_WAVE_SIZE(d->wave_size) |
	       S_XS_LAUNCH_MAX_FLAT(d->max_flat);
	uint64_t va[5] = { d->dims_va, d->params_va, d->dims_out_va, d->aql_va, d->kernarg_va };
	for (int i = 0; i < 5; i++) {
		p[1 + 2 * i] = (uint32_t)va[i];
		p[2 + 2 * i] = (uint32_t)(va[i] >> 32);
	}
	p[11] = d->block[0] | d->block[1] << 16;
	p[12] = d->block[2];
	p[13] = d->static_lds;
	p[14] = d->dynamic_lds;
	p[15] = d->reqd[0] | d->reqd[1] << 16;
	p[16] = d->reqd[2];
	p[17] = d->npatches;
	for (uint32_t i = 0; i < d->npatches; i++)
		p[18 + i] = d->patches[i];
}

void xs_pm4_xs_build_as(xs_pm4_builder *b, unsigned op, uint64_t desc_va, uint32_t bytes)
{
	if (op > XS_AS_OP_POSTBUILD || !bytes || bytes > XS_AS_DESC_MAX_BYTES) {
		bad(b, XS_E_INVALID_ARG, "XS_BUILD_AS: op %u with a %u-byte descriptor", op, bytes);
		return;
	}
	if (!va_ok(b, "XS_BUILD_AS", desc_va, 8))
		return;
	uint32_t *p = begin(b, PKT3_XS_BUILD_AS, PKT3_XS_BUILD_AS_BODY_DW, 0, "XS_BUILD_AS");
	if (!p)
		return;
	p[0] = S_XS_AS_OP(op);
	p[1] = (uint32_t)desc_va;
	p[2] = (uint32_t)(desc_va >> 32);
	p[3] = bytes;
}

/* ---- draws (hw/xs_hw_pm4.h "draws") ---- */

static void one_dword(xs_pm4_builder *b, unsigned op, uint32_t v, const char *what)
{
	uint32_t *p = begin(b, op, 1, 0, what);
	if (p)
		p[0] = v;
}

void xs_pm4_index_type(xs_pm4_builder *b, unsigned index_type)
{
	if (index_type > V_03090C_VGT_INDEX_32) {
		bad(b, XS_E_INVALID_ARG, "INDEX_TYPE: %u is not 0 (16-bit) or 1 (32-bit)", index_type);
		return;
	}
	one_dword(b, PKT3_INDEX_TYPE, S_03090C_INDEX_TYPE(index_type), "INDEX_TYPE");
}

void xs_pm4_index_base(xs_pm4_builder *b, uint64_t va)
{
	if (!va_ok(b, "INDEX_BASE", va, 2))
		return;
	uint32_t *p = begin(b, PKT3_INDEX_BASE, PKT3_INDEX_BASE_BODY_DW, 0, "INDEX_BASE");
	if (!p)
		return;
	p[0] = (uint32_t)va;
	p[1] = (uint32_t)(va >> 32);
}

void xs_pm4_index_buffer_size(xs_pm4_builder *b, uint32_t indices)
{
	one_dword(b, PKT3_INDEX_BUFFER_SIZE, indices, "INDEX_BUFFER_SIZE");
}

void xs_pm4_num_instances(xs_pm4_builder *b, uint32_t instances)
{
	one_dword(b, PKT3_NUM_INSTANCES, instances, "NUM_INSTANCES");
}

void xs_pm4_draw_index_auto(xs_pm4_builder *b, uint32_t index_count)
{
	uint32_t *p = begin(b, PKT3_DRAW_INDEX_AUTO, PKT3_DRAW_INDEX_AUTO_BODY_DW, 0, "DRAW_INDEX_AUTO");
	if (!p)
		return;
	p[0] = index_count;
	p[1] = S_0287F0_SOURCE_SELECT(V_0287F0_DI_SRC_SEL_AUTO_INDEX);
}

void xs_pm4_draw_index_2(xs_pm4_builder *b, uint32_t max_size, uint64_t index_va, uint32_t index_count)
{
	if (!va_ok(b, "DRAW_INDEX_2", index_va, 2))
		return;
	uint32_t *p = begin(b, PKT3_DRAW_INDEX_2, PKT3_DRAW_INDEX_2_BODY_DW, 0, "DRAW_INDEX_2");
	if (!p)
		return;
	p[0] = max_size;
	p[1] = (uint32_t)index_va;
	p[2] = (uint32_t)(index_va >> 32);
	p[3] = index_count;
	p[4] = S_0287F0_SOURCE_SELECT(V_0287F0_DI_SRC_SEL_DMA);
}

void xs_pm4_draw_indirect(xs_pm4_builder *b, bool indexed, uint64_t base_va, uint32_t data_offset,
			  uint32_t base_vtx_reg, uint32_t start_inst_reg)
{
	const char *what = indexed ? "DRAW_INDEX_INDIRECT" : "DRAW_INDIRECT";
	uint32_t regs[2] = { base_vtx_reg, start_inst_reg };
	for (int i = 0; i < 2; i++)
		if (regs[i] && (regs[i] < XS_SH_REG_OFFSET || regs[i] >= XS_SH_REG_END || (regs[i] & 3))) {
			bad(b, XS_E_INVALID_ARG, "%s: 0x%" PRIx32 " is not an SH register", what, regs[i]);
			return;
		}
	if (!va_ok(b, what, base_va, 4) || !va_ok(b, what, data_offset, 4))
		return;
	uint32_t *p = begin(b, PKT3_SET_BASE, 3, 0, "SET_BASE");
	if (!p)
		return;
	p[0] = V_SET_BASE_INDEX_INDIRECT;
	p[1] = (uint32_t)base_va;
	p[2] = (uint32_t)(base_va >> 32);
	p = begin(b, indexed ? PKT3_DRAW_INDEX_INDIRECT : PKT3_DRAW_INDIRECT, PKT3_DRAW_INDIRECT_BODY_DW, 0, what);
	if (!p)
		return;
	p[0] = data_offset;
	p[1] = base_vtx_reg ? (base_vtx_reg - XS_SH_REG_OFFSET) / 4 : 0;
	p[2] = start_inst_reg ? (start_inst_reg - XS_SH_REG_OFFSET) / 4 : 0;
	p[3] = S_0287F0_SOURCE_SELECT(indexed ? V_0287F0_DI_SRC_SEL_DMA : V_0287F0_DI_SRC_SEL_AUTO_INDEX);
}

void xs_pm4_xs_fill(xs_pm4_builder *b, uint64_t va, uint32_t pitch, uint32_t row_bytes, uint32_t rows,
		    const uint32_t *pattern, unsigned pattern_dw)
{
	if ((pattern_dw != 1 && pattern_dw != 2 && pattern_dw != 4) || !rows || !row_bytes ||
	    row_bytes % (4 * pattern_dw) || (pitch & 3) || (rows > 1 && pitch < row_bytes)) {
		bad(b, XS_E_INVALID_ARG, "XS_FILL: %u rows of %u bytes at pitch %u with a %u-dword pattern", rows,
		    row_bytes, pitch, pattern_dw);
		return;
	}
	if (!va_ok(b, "XS_FILL", va, 4))
		return;
	uint32_t *p = begin(b, PKT3_XS_FILL, PKT3_XS_FILL_FIXED_DW + pattern_dw, 0, "XS_FILL");
	if (!p)
		return;
	p[0] = (uint32_t)va;
	p[1] = (uint32_t)(va >> 32);
	p[2] = pitch;
	p[3] = row_bytes;
	p[4] = rows;
	p[5] = pattern_dw;
	for (unsigned i = 0; i < pattern_dw; i++)
		p[6 + i] = pattern[i];
}
