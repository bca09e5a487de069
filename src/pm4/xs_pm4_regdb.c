/*
 * The register database (see xs_pm4_regdb.h). Its rows, fields, print
 * formats, notes and value names are generated with hw/xs_hw_regs.h from
 * one table, src/hw/gfx103_regs.txt (scripts/gen_hw_regs.py); this file
 * expands them and implements the look-ups and the formatting. test_pm4.c
 * checks the layout rules (sorted, fields inside 32 bits, no overlap, right
 * space); tests/hw checks that the compiled rows are the table's.
 */
#include "pm4/xs_pm4_regdb.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/xs_common.h"
#include "hw/xs_hw_pm4.h"

/* The X-macros of hw/xs_hw_regdb.inc (its header comment describes them). */
#define XS_HW_VALUES(id, ...) static const char *const id[] = { __VA_ARGS__ };
#define XS_HW_F(n, lo, w, fmt, scale, unit) { n, lo, w, XS_PM4_FMT_##fmt, scale, unit, NULL, 0 }
#define XS_HW_FE(n, lo, w, tbl) { n, lo, w, XS_PM4_FMT_ENUM, 0, NULL, tbl, (uint8_t)XS_ARRAY_SIZE(tbl) }
#define XS_HW_FIELDS(id, ...) static const xs_pm4_field id[] = { __VA_ARGS__ };
#define XS_HW_REGS_BEGIN static const xs_pm4_reg regs[] = {
#define XS_HW_REG(addr, name, space, flds) \
	{ addr, name, XS_PM4_SPACE_##space, (uint8_t)XS_ARRAY_SIZE(flds), flds },
#define XS_HW_REG0(addr, name, space) { addr, name, XS_PM4_SPACE_##space, 0, NULL },
#define XS_HW_REGS_END };
#include "hw/xs_hw_regdb.inc"

size_t xs_pm4_reg_count(void)
{
	return XS_ARRAY_SIZE(regs);
}

const xs_pm4_reg *xs_pm4_reg_at(size_t i)
{
	return i < XS_ARRAY_SIZE(regs) ? &regs[i] : NULL;
}

const xs_pm4_reg *xs_pm4_reg_find(uint32_t addr)
{
	size_t lo = 0, hi = XS_ARRAY_SIZE(regs);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (regs[mid].addr == addr)
			return &regs[mid];
		if (regs[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const xs_pm4_reg *xs_pm4_reg_by_name(const char *name)
{
	for (size_t i = 0; name && i < XS_ARRAY_SIZE(regs); i++)
		if (!strcmp(regs[i].name, name))
			return &regs[i];
	return NULL;
}

const xs_pm4_field *xs_pm4_reg_field(const xs_pm4_reg *r, const char *name)
{
	for (unsigned i = 0; r && name && i < r->num_fields; i++)
		if (!strcmp(r->fields[i].name, name))
			return &r->fields[i];
	return NULL;
}

xs_pm4_space xs_pm4_space_of(uint32_t addr)
{
	for (int s = XS_PM4_SPACE_CONFIG; s <= XS_PM4_SPACE_UCONFIG; s++)
		if (addr >= xs_pm4_space_base(s) && addr < xs_pm4_space_end(s))
			return s;
	return XS_PM4_SPACE_NONE;
}

uint32_t xs_pm4_space_base(xs_pm4_space s)
{
	switch (s) {
	case XS_PM4_SPACE_CONFIG: return XS_CONFIG_REG_OFFSET;
	case XS_PM4_SPACE_SH: return XS_SH_REG_OFFSET;
	case XS_PM4_SPACE_CONTEXT: return XS_CONTEXT_REG_OFFSET;
	case XS_PM4_SPACE_UCONFIG: return XS_UCONFIG_REG_OFFSET;
	default: return 0;
	}
}

uint32_t xs_pm4_space_end(xs_pm4_space s)
{
	switch (s) {
	case XS_PM4_SPACE_CONFIG: return XS_CONFIG_REG_END;
	case XS_PM4_SPACE_SH: return XS_SH_REG_END;
	case XS_PM4_SPACE_CONTEXT: return XS_CONTEXT_REG_END;
	case XS_PM4_SPACE_UCONFIG: return XS_UCONFIG_REG_END;
	default: return 0;
	}
}

const char *xs_pm4_space_name(xs_pm4_space s)
{
	switch (s) {
	case XS_PM4_SPACE_CONFIG: return "CONFIG";
	case XS_PM4_SPACE_SH: return "SH";
	case XS_PM4_SPACE_CONTEXT: return "CONTEXT";
	case XS_PM4_SPACE_UCONFIG: return "UCONFIG";
	default: return "none";
	}
}

int xs_pm4_field_format(const xs_pm4_field *f, uint32_t v, char *buf, size_t size)
{
	switch (f->fmt) {
	case XS_PM4_FMT_HEX:
		return snprintf(buf, size, "0x%" PRIx32, v);
	case XS_PM4_FMT_SCALED:
		return snprintf(buf, size, "%" PRIu32 " (%" PRIu64 " %s)", v, (uint64_t)v * f->scale,
				f->unit ? f->unit : "");
	case XS_PM4_FMT_ENUM:
		if (f->values && v < f->num_values && f->values[v])
			return snprintf(buf, size, "%" PRIu32 " (%s)", v, f->values[v]);
		return snprintf(buf, size, "%" PRIu32, v);
	default:
		return snprintf(buf, size, "%" PRIu32, v);
	}
}

/* snprintf at the end of buf; *len is the length the whole text would have. */
XS_PRINTF(4, 5) static void cat(char *buf, size_t size, int *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t off = (size_t)*len;
	int n = vsnprintf(off < size ? buf + off : NULL, off < size ? size - off : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += n;
}

int xs_pm4_reg_format(const xs_pm4_reg *r, uint32_t value, char *buf, size_t size)
{
	int len = 0;
	char tmp[96];
	if (size)
		buf[0] = 0;
	if (!r || !r->num_fields) {
		cat(buf, size, &len, "0x%08" PRIx32, value);
		return len;
	}
	uint32_t covered = 0;
	for (unsigned i = 0; i < r->num_fields; i++) {
		const xs_pm4_field *f = &r->fields[i];
		covered |= xs_pm4_field_mask(f);
		xs_pm4_field_format(f, xs_pm4_field_get(f, value), tmp, sizeof(tmp));
		cat(buf, size, &len, "%s%s=%s", i ? ", " : "", f->name, tmp);
	}
	if (value & ~covered)
		cat(buf, size, &len, ", reserved bits 0x%08" PRIx32, value & ~covered);
	return len;
}

/* VGT_EVENT_TYPE names (Mesa gfx103.json enum). */
const char *const xs_pm4_event_names[64] = {
	"Reserved_0x00", "SAMPLE_STREAMOUTSTATS1", "SAMPLE_STREAMOUTSTATS2", "SAMPLE_STREAMOUTSTATS3",
	"CACHE_FLUSH_TS", "CONTEXT_DONE", "CACHE_FLUSH", "CS_PARTIAL_FLUSH",
	"VGT_STREAMOUT_SYNC", "SET_FE_ID", "VGT_STREAMOUT_RESET", "END_OF_PIPE_INCR_DE",
	"END_OF_PIPE_IB_END", "RST_PIX_CNT", "BREAK_BATCH", "VS_PARTIAL_FLUSH",
	"PS_PARTIAL_FLUSH", "FLUSH_HS_OUTPUT", "FLUSH_DFSM", "RESET_TO_LOWEST_VGT",
	"CACHE_FLUSH_AND_INV_TS_EVENT", "ZPASS_DONE", "CACHE_FLUSH_AND_INV_EVENT", "PERFCOUNTER_START",
	"PERFCOUNTER_STOP", "PIPELINESTAT_START", "PIPELINESTAT_STOP", "PERFCOUNTER_SAMPLE",
	"FLUSH_ES_OUTPUT", "BIN_CONF_OVERRIDE_CHECK", "SAMPLE_PIPELINESTAT", "SO_VGTSTREAMOUT_FLUSH",
	"SAMPLE_STREAMOUTSTATS", "RESET_VTX_CNT", "BLOCK_CONTEXT_DONE", "CS_CONTEXT_DONE",
	"VGT_FLUSH", "TGID_ROLLOVER", "SQ_NON_EVENT", "SC_SEND_DB_VPZ",
	"BOTTOM_OF_PIPE_TS", "FLUSH_SX_TS", "DB_CACHE_FLUSH_AND_INV", "FLUSH_AND_INV_DB_DATA_TS",
	"FLUSH_AND_INV_DB_META", "FLUSH_AND_INV_CB_DATA_TS", "FLUSH_AND_INV_CB_META", "CS_DONE",
	"PS_DONE", "FLUSH_AND_INV_CB_PIXEL_DATA", "SX_CB_RAT_ACK_REQUEST", "THREAD_TRACE_START",
	"THREAD_TRACE_STOP", "THREAD_TRACE_MARKER", "THREAD_TRACE_DRAW", "THREAD_TRACE_FINISH",
	"PIXEL_PIPE_STAT_CONTROL", "PIXEL_PIPE_STAT_DUMP", "PIXEL_PIPE_STAT_RESET", "CONTEXT_SUSPEND",
	"OFFCHIP_HS_DEALLOC", "ENABLE_NGG_PIPELINE", "ENABLE_LEGACY_PIPELINE", "DRAW_DONE",
};
_Static_assert(V_028A90_BOTTOM_OF_PIPE_TS == 40 && V_028A90_CS_PARTIAL_FLUSH == 7, "event table");

const char *xs_pm4_event_name(unsigned type)
{
	return type < 64 ? xs_pm4_event_names[type] : NULL;
}
