/*
 * PM4 printer (see xs_pm4_print.h). Each packet is turned into "items" (one
 * decoded value of one body dword: a register write, or a named packet field
 * with optional sub-fields), which the text and JSON printers render.
 * Packet body layouts: docs/hardware.md section 4 and Mesa pkt3.json
 * (field names as Mesa's ac_parse_ib prints them).
 */
#include "pm4/xs_pm4_print.h"

#include <inttypes.h>
#include <string.h>

#include "hw/xs_hw_pm4.h"
#include "pm4/xs_pm4_parse.h"
#include "pm4/xs_pm4_regdb.h"

#define F(n, lo, w) { n, lo, w, XS_PM4_FMT_DEC, 0, NULL, NULL, 0 }
#define FH(n, lo, w) { n, lo, w, XS_PM4_FMT_HEX, 0, NULL, NULL, 0 }
#define FE(n, lo, w, tbl) { n, lo, w, XS_PM4_FMT_ENUM, 0, NULL, tbl, (uint8_t)XS_ARRAY_SIZE(tbl) }

/* One body dword of a fixed-layout packet. */
typedef struct dw_desc {
	const char *name;            /* NULL: the dword is the value of register reg */
	uint32_t reg;
	uint8_t fmt;                 /* for a field-less dword */
	const xs_pm4_field *fields;  /* sub-fields, or NULL */
	uint8_t num_fields;
} dw_desc;

#define DV(n) { n, 0, XS_PM4_FMT_DEC, NULL, 0 }
#define DH(n) { n, 0, XS_PM4_FMT_HEX, NULL, 0 }
#define DF(n, f) { n, 0, XS_PM4_FMT_HEX, f, (uint8_t)XS_ARRAY_SIZE(f) }
#define DR(r) { NULL, r, XS_PM4_FMT_HEX, NULL, 0 }

static const xs_pm4_field f_event[] = {
	{ "EVENT_TYPE", 0, 6, XS_PM4_FMT_ENUM, 0, NULL, xs_pm4_event_names, 64 },
	F("EVENT_INDEX", 8, 4),
};

static const char *const v_rm_index[] = { NULL, NULL, NULL, NULL, NULL, "END_OF_PIPE", "SHADER_DONE" };
static const char *const v_gl2_range[] = { "GL2_ALL", "GL2_VOL", "GL2_RANGE", "GL2_FIRST_LAST" };
static const char *const v_seq[] = { "SEQ_PARALLEL", "SEQ_FORWARD", "SEQ_REVERSE" };
static const xs_pm4_field f_release_mem_op[] = {
	{ "EVENT_TYPE", 0, 6, XS_PM4_FMT_ENUM, 0, NULL, xs_pm4_event_names, 64 },
	FE("EVENT_INDEX", 8, 4, v_rm_index),
	F("GLM_WB", 12, 1),
	F("GLM_INV", 13, 1),
	F("GLV_INV", 14, 1),
	F("GL1_INV", 15, 1),
	F("GL2_US", 16, 1),
	FE("GL2_RANGE", 17, 2, v_gl2_range),
	F("GL2_DISCARD", 19, 1),
	F("GL2_INV", 20, 1),
	F("GL2_WB", 21, 1),
	FE("SEQ", 22, 2, v_seq),
	F("CACHE_POLICY", 25, 2),
};
static const char *const v_eop_dst[] = { "MEM", "TC_L2" };
static const char *const v_eop_int[] = { "NONE", "SEND_INT", "SEND_INT_AFTER_WR_CONFIRM",
					 "SEND_DATA_AFTER_WR_CONFIRM" };
static const char *const v_eop_data[] = { "DISCARD", "VALUE_32BIT", "VALUE_64BIT", "TIMESTAMP" };
static const xs_pm4_field f_release_mem_sel[] = {
	FE("DST_SEL", 16, 2, v_eop_dst),
	FE("INT_SEL", 24, 3, v_eop_int),
	FE("DATA_SEL", 29, 3, v_eop_data),
};

static const char *const v_wrm_fn[] = { "ALWAYS", "LESS", "LESS_EQUAL", "EQUAL", "NOT_EQUAL",
					"GREATER_EQUAL", "GREATER" };
static const char *const v_wrm_space[] = { "REGISTER", "MEMORY" };
static const char *const v_me_pfp[] = { "ME", "PFP" };
static const xs_pm4_field f_wait_reg_mem_op[] = {
	FE("FUNCTION", 0, 3, v_wrm_fn),
	FE("MEM_SPACE", 4, 2, v_wrm_space),
	F("OPERATION", 6, 2),
	FE("ENGINE_SEL", 8, 2, v_me_pfp),
};

static const char *const v_gli[] = { "GLI_NOP", "GLI_ALL", "GLI_RANGE", "GLI_FIRST_LAST" };
static const char *const v_gl1_range[] = { "GL1_ALL", NULL, "GL1_RANGE", "GL1_FIRST_LAST" };
static const xs_pm4_field f_gcr_cntl[] = {
	FE("GLI_INV", 0, 2, v_gli),
	FE("GL1_RANGE", 2, 2, v_gl1_range),
	F("GLM_WB", 4, 1),
	F("GLM_INV", 5, 1),
	F("GLK_WB", 6, 1),
	F("GLK_INV", 7, 1),
	F("GLV_INV", 8, 1),
	F("GL1_INV", 9, 1),
	F("GL2_US", 10, 1),
	FE("GL2_RANGE", 11, 2, v_gl2_range),
	F("GL2_DISCARD", 13, 1),
	F("GL2_INV", 14, 1),
	F("GL2_WB", 15, 1),
	FE("SEQ", 16, 2, v_seq),
	F("RANGE_IS_PA", 18, 1),
};
static const char *const v_pfp_me[] = { "PFP", "ME" };
static const xs_pm4_field f_coher_cntl[] = {
	FH("CP_COHER_CNTL", 0, 31),
	FE("ENGINE_SEL", 31, 1, v_pfp_me), /* Mesa ac_debug.c: bit 31 set = ME */
};

static const char *const v_wd_dst[] = { "MEM_MAPPED_REGISTER", "MEM_GRBM", "TC_L2", "GDS", "RESERVED",
					"MEM" };
static const char *const v_engine[] = { "ME", "PFP", "CE", "DE" };
static const xs_pm4_field f_write_data_control[] = {
	FE("DST_SEL", 8, 4, v_wd_dst),
	F("WR_ONE_ADDR", 16, 1),
	F("WR_CONFIRM", 20, 1),
	FE("ENGINE_SEL", 30, 2, v_engine),
};
static const char *const v_cd_sel[] = { "REG", "SRC_MEM", "TC_L2", "GDS", "PERF", "IMM_OR_DST_MEM" };
static const xs_pm4_field f_copy_data_control[] = {
	FE("SRC_SEL", 0, 4, v_cd_sel),
	FE("DST_SEL", 8, 4, v_cd_sel),
	F("COUNT_SEL", 16, 1),
	F("WR_CONFIRM", 20, 1),
	FE("ENGINE_SEL", 30, 2, v_engine),
};

static const xs_pm4_field f_ib_control[] = {
	F("IB_SIZE", 0, 20),
	F("CHAIN", 20, 1),
	F("PRE_ENA", 21, 1),
	F("VALID", 23, 1),
};
static const char *const v_base_index[] = { NULL, "INDIRECT_BASE" };
static const xs_pm4_field f_set_base[] = { FE("BASE_INDEX", 0, 4, v_base_index) };

static const dw_desc l_set_base[] = { DF("BASE_INDEX", f_set_base), DH("ADDRESS_LO"), DH("ADDRESS_HI") };
static const dw_desc l_dispatch_direct[] = {
	DR(R_00B804_COMPUTE_DIM_X), DR(R_00B808_COMPUTE_DIM_Y), DR(R_00B80C_COMPUTE_DIM_Z),
	DR(R_00B800_COMPUTE_DISPATCH_INITIATOR),
};
static const dw_desc l_dispatch_indirect_gfx[] = { DH("DATA_OFFSET"), DR(R_00B800_COMPUTE_DISPATCH_INITIATOR) };
static const dw_desc l_dispatch_indirect_mec[] = {
	DH("ADDRESS_LO"), DH("ADDRESS_HI"), DR(R_00B800_COMPUTE_DISPATCH_INITIATOR),
};
static const dw_desc l_draw_indirect[] = {
	DH("DATA_OFFSET"), DH("BASE_VTX_LOC"), DH("START_INST_LOC"), DR(R_0287F0_VGT_DRAW_INITIATOR),
};
static const dw_desc l_draw_index_2[] = {
	DV("MAX_SIZE"), DH("INDEX_BASE_LO"), DH("INDEX_BASE_HI"), DV("INDEX_COUNT"),
	DR(R_0287F0_VGT_DRAW_INITIATOR),
};
static const dw_desc l_draw_index_auto[] = { DV("INDEX_COUNT"), DR(R_0287F0_VGT_DRAW_INITIATOR) };
static const dw_desc l_index_type[] = { DR(R_03090C_VGT_INDEX_TYPE) };
static const dw_desc l_index_base[] = { DH("INDEX_BASE_LO"), DH("INDEX_BASE_HI") };
static const dw_desc l_index_buffer_size[] = { DV("INDEX_COUNT") };
static const dw_desc l_num_instances[] = { DR(R_030934_VGT_NUM_INSTANCES) };
static const dw_desc l_write_data[] = {
	DF("CONTROL", f_write_data_control), DH("DST_ADDR_LO"), DH("DST_ADDR_HI"), DH("DATA"),
};
static const dw_desc l_wait_reg_mem[] = {
	DF("OP", f_wait_reg_mem_op), DH("ADDRESS_LO"), DH("ADDRESS_HI"), DH("REFERENCE"), DH("MASK"),
	DV("POLL_INTERVAL"),
};
static const dw_desc l_indirect_buffer[] = { DH("IB_BASE_LO"), DH("IB_BASE_HI"), DF("IB_CONTROL", f_ib_control) };
static const dw_desc l_copy_data[] = {
	DF("CONTROL", f_copy_data_control), DH("SRC_ADDR_LO"), DH("SRC_ADDR_HI"), DH("DST_ADDR_LO"),
	DH("DST_ADDR_HI"),
};
static const dw_desc l_event_write[] = { DF("EVENT", f_event), DH("ADDRESS_LO"), DH("ADDRESS_HI") };
static const dw_desc l_release_mem[] = {
	DF("OP", f_release_mem_op), DF("SEL", f_release_mem_sel), DH("ADDRESS_LO"), DH("ADDRESS_HI"),
	DH("DATA_LO"), DH("DATA_HI"), DH("INT_CTXID"),
};
static const dw_desc l_acquire_mem[] = {
	DF("COHER_CNTL", f_coher_cntl), DH("COHER_SIZE"), DH("COHER_SIZE_HI"), DH("COHER_BASE_LO"),
	DH("COHER_BASE_HI"), DV("POLL_INTERVAL"), DF("GCR_CNTL", f_gcr_cntl),
};
static const dw_desc l_load_sh_reg_index[] = { DH("DW1"), DH("DW2"), DH("DW3"), DH("DW4") };
static const dw_desc l_set_sh_reg_offset[] = { DH("REG_OFFSET"), DH("DATA_OFFSET"), DH("DRIVER_DATA") };
static const dw_desc l_nop[] = { DH("PAYLOAD") };
static const dw_desc l_wait_reg_mem64[] = {
	DF("OP", f_wait_reg_mem_op), DH("ADDRESS_LO"), DH("ADDRESS_HI"), DH("REFERENCE_LO"), DH("REFERENCE_HI"),
	DH("MASK_LO"), DH("MASK_HI"), DV("POLL_INTERVAL"),
};
static const char *const v_cw_space[] = { "REGISTER", "MEMORY", "GDS" };
static const xs_pm4_field f_cond_write[] = {
	FE("FUNCTION", 0, 3, v_wrm_fn),
	FE("POLL_SPACE", 4, 1, v_cw_space),
	FE("WRITE_SPACE", 8, 2, v_cw_space),
};
static const dw_desc l_cond_write[] = {
	DF("CONTROL", f_cond_write), DH("POLL_ADDRESS_LO"), DH("POLL_ADDRESS_HI"), DH("REFERENCE"), DH("MASK"),
	DH("WRITE_ADDRESS_LO"), DH("WRITE_ADDRESS_HI"), DH("WRITE_DATA"),
};
static const xs_pm4_field f_cond_exec[] = { F("EXEC_COUNT", 0, 14) };
static const dw_desc l_cond_exec[] = { DH("ADDRESS_LO"), DH("ADDRESS_HI"), DH("CONTROL"), DF("EXEC", f_cond_exec) };
static const char *const v_dma_dst[] = { "DST_ADDR", "GDS", NULL, "DST_ADDR_TC_L2" };
static const char *const v_dma_src[] = { "SRC_ADDR", "GDS", "DATA", "SRC_ADDR_TC_L2" };
static const xs_pm4_field f_dma_control[] = {
	F("ENGINE", 0, 1),
	FE("DST_SEL", 20, 2, v_dma_dst),
	FE("SRC_SEL", 29, 2, v_dma_src),
	F("CP_SYNC", 31, 1),
};
static const xs_pm4_field f_dma_command[] = {
	F("BYTE_COUNT", 0, 26),
	F("SAIC", 28, 1),
	F("DAIC", 29, 1),
	F("RAW_WAIT", 30, 1),
	F("DISABLE_WR_CONFIRM", 31, 1),
};
static const dw_desc l_dma_data[] = {
	DF("CONTROL", f_dma_control), DH("SRC_ADDR_LO"), DH("SRC_ADDR_HI"), DH("DST_ADDR_LO"), DH("DST_ADDR_HI"),
	DF("COMMAND", f_dma_command),
};
static const xs_pm4_field f_xs_launch[] = {
	F("DIMS_INDIRECT", 0, 1),
	F("PARAMS_INDIRECT", 1, 1),
	F("WORK_DIM", 4, 2),
	F("WAVE_SIZE", 8, 8),
	F("MAX_FLAT_WORKGROUP_SIZE", 16, 16),
};
static const xs_pm4_field f_xs_pair[] = { F("X", 0, 16), F("Y", 16, 16) };
static const xs_pm4_field f_xs_patch[] = { F("KARG_OFFSET", 0, 16), F("HIDDEN_KIND", 16, 8), F("SIZE", 24, 8) };
static const dw_desc l_xs_launch[] = {
	DF("CONTROL", f_xs_launch), DH("DIMS_ADDR_LO"), DH("DIMS_ADDR_HI"), DH("PARAMS_ADDR_LO"), DH("PARAMS_ADDR_HI"),
	DH("DIMS_OUT_LO"), DH("DIMS_OUT_HI"), DH("AQL_LO"), DH("AQL_HI"), DH("KERNARG_LO"), DH("KERNARG_HI"),
	DF("BLOCK_XY", f_xs_pair), DV("BLOCK_Z"), DV("STATIC_LDS"), DV("DYNAMIC_LDS"), DF("REQD_XY", f_xs_pair),
	DV("REQD_Z"), DV("NUM_PATCHES"), DF("PATCH", f_xs_patch),
};

static const xs_pm4_field f_xs_build_as[] = { F("OP", 0, 4) };
static const dw_desc l_xs_build_as[] = { DF("CONTROL", f_xs_build_as), DH("DESC_LO"), DH("DESC_HI"), DV("DESC_BYTES") };
static const dw_desc l_xs_fill[] = {
	DH("ADDRESS_LO"), DH("ADDRESS_HI"), DV("PITCH"), DV("ROW_BYTES"), DV("ROWS"), DV("PATTERN_DW"), DH("PATTERN"),
};

/* Layout of p's body; the last entry repeats for longer bodies. */
static const dw_desc *layout(const xs_pm4_packet *p, size_t *n)
{
#define L(a) (*n = XS_ARRAY_SIZE(a), a)
	switch (p->opcode) {
	case PKT3_NOP: return L(l_nop);
	case PKT3_SET_BASE: return L(l_set_base);
	case PKT3_DISPATCH_DIRECT: return L(l_dispatch_direct);
	case PKT3_DISPATCH_INDIRECT:
		return p->body_len == 3 ? L(l_dispatch_indirect_mec) : L(l_dispatch_indirect_gfx);
	case PKT3_DRAW_INDIRECT: return L(l_draw_indirect);
	case PKT3_DRAW_INDEX_INDIRECT: return L(l_draw_indirect);
	case PKT3_INDEX_TYPE: return L(l_index_type);
	case PKT3_INDEX_BASE: return L(l_index_base);
	case PKT3_INDEX_BUFFER_SIZE: return L(l_index_buffer_size);
	case PKT3_NUM_INSTANCES: return L(l_num_instances);
	case PKT3_DRAW_INDEX_2: return L(l_draw_index_2);
	case PKT3_DRAW_INDEX_AUTO: return L(l_draw_index_auto);
	case PKT3_WRITE_DATA: return L(l_write_data);
	case PKT3_WAIT_REG_MEM: return L(l_wait_reg_mem);
	case PKT3_INDIRECT_BUFFER: return L(l_indirect_buffer);
	case PKT3_COPY_DATA: return L(l_copy_data);
	case PKT3_EVENT_WRITE: return L(l_event_write);
	case PKT3_RELEASE_MEM: return L(l_release_mem);
	case PKT3_ACQUIRE_MEM: return L(l_acquire_mem);
	case PKT3_LOAD_SH_REG_INDEX: return L(l_load_sh_reg_index);
	case PKT3_SET_SH_REG_OFFSET: return L(l_set_sh_reg_offset);
	case PKT3_WAIT_REG_MEM64: return L(l_wait_reg_mem64);
	case PKT3_COND_WRITE: return L(l_cond_write);
	case PKT3_COND_EXEC: return L(l_cond_exec);
	case PKT3_DMA_DATA: return L(l_dma_data);
	case PKT3_XS_LAUNCH: return L(l_xs_launch);
	case PKT3_XS_BUILD_AS: return L(l_xs_build_as);
	case PKT3_XS_FILL: return L(l_xs_fill);
	default: *n = 0; return NULL;
	}
#undef L
}

/* ---- items ---- */

typedef struct item {
	size_t dword;       /* stream index of the dword decoded */
	const char *name;   /* field / register name; NULL for an unknown register */
	uint32_t value;
	bool is_reg;        /* register write: "NAME <- value" */
	uint32_t addr;      /* is_reg: byte address */
	uint8_t fmt;        /* value format when there are no fields */
	const xs_pm4_field *fields;
	unsigned num_fields;
	const char *note;   /* shown after the value: "(COMPUTE_TMPRING_SIZE)" */
} item;

typedef void (*item_fn)(void *ctx, const item *it);

static void reg_item(item *it, size_t dword, uint32_t addr, uint32_t value)
{
	const xs_pm4_reg *r = xs_pm4_reg_find(addr);
	*it = (item){ .dword = dword, .name = r ? r->name : NULL, .value = value, .is_reg = true,
		      .addr = addr, .fmt = XS_PM4_FMT_HEX, .fields = r ? r->fields : NULL,
		      .num_fields = r ? r->num_fields : 0 };
}

static void decode(const xs_pm4_packet *p, item_fn fn, void *ctx)
{
	item it;
	size_t d0 = p->index + 1;
	if (p->type != 3 || p->body_len == 0)
		return;
	if (p->space != XS_PM4_SPACE_NONE) { /* SET_*_REG */
		const xs_pm4_reg *first = xs_pm4_reg_find(p->reg_addr);
		it = (item){ .dword = d0, .name = "REG_OFFSET", .value = G_SET_REG_OFFSET(p->body[0]),
			     .fmt = XS_PM4_FMT_HEX, .note = first ? first->name : NULL };
		fn(ctx, &it);
		if (p->reg_index) {
			it = (item){ .dword = d0, .name = "INDEX", .value = p->reg_index, .fmt = XS_PM4_FMT_DEC,
				     .note = p->reg_index == V_SET_SH_REG_INDEX_APPLY_KMD_CU_AND_MASK &&
						     p->space == XS_PM4_SPACE_SH
					     ? "apply_kmd_cu_and_mask"
					     : NULL };
			fn(ctx, &it);
		}
		for (uint32_t i = 0; i < p->reg_count; i++) {
			reg_item(&it, d0 + 1 + i, p->reg_addr + 4 * i, p->body[1 + i]);
			fn(ctx, &it);
		}
		return;
	}
	size_t n;
	const dw_desc *l = layout(p, &n);
	for (uint32_t k = 0; l && k < p->body_len; k++) {
		const dw_desc *d = &l[k < n ? k : n - 1];
		if (!d->name) {
			reg_item(&it, d0 + k, d->reg, p->body[k]);
		} else {
			it = (item){ .dword = d0 + k, .name = d->name, .value = p->body[k], .fmt = d->fmt,
				     .fields = d->fields, .num_fields = d->num_fields };
			if (p->opcode == PKT3_SET_SH_REG_OFFSET && k == 0) {
				const xs_pm4_reg *r = xs_pm4_reg_find(XS_SH_REG_OFFSET + 4 * G_SET_REG_OFFSET(p->body[0]));
				it.note = r ? r->name : NULL;
			}
		}
		fn(ctx, &it);
	}
}

/* ---- text ---- */

#define COL 18 /* "%6zu  %08x  " */

typedef struct text_ctx {
	FILE *f;
	const uint32_t *dw;
	size_t last_dword;
} text_ctx;

static void text_prefix(text_ctx *c, size_t dword)
{
	if (dword != c->last_dword) {
		fprintf(c->f, "%6zu  %08" PRIx32 "  ", dword, c->dw[dword]);
		c->last_dword = dword;
	} else {
		fprintf(c->f, "%*s", COL, "");
	}
}

static void text_value(FILE *f, uint8_t fmt, uint32_t v)
{
	if (fmt == XS_PM4_FMT_HEX)
		fprintf(f, "0x%" PRIx32, v);
	else
		fprintf(f, "%" PRIu32, v);
}

static void text_item(void *ctx, const item *it)
{
	text_ctx *c = ctx;
	char buf[128];
	text_prefix(c, it->dword);
	if (it->is_reg) {
		if (it->name)
			fprintf(c->f, "    %s <- 0x%08" PRIx32, it->name, it->value);
		else
			fprintf(c->f, "    0x%05" PRIx32 " <- 0x%08" PRIx32, it->addr, it->value);
	} else if (it->num_fields == 1 && !strcmp(it->fields[0].name, it->name)) {
		/* A dword that is one field: "BASE_INDEX = 1 (INDIRECT_BASE)". */
		xs_pm4_field_format(&it->fields[0], xs_pm4_field_get(&it->fields[0], it->value), buf, sizeof(buf));
		fprintf(c->f, "    %s = %s", it->name, buf);
		if (it->value & ~xs_pm4_field_mask(&it->fields[0]))
			fprintf(c->f, " (reserved bits 0x%08" PRIx32 ")", it->value & ~xs_pm4_field_mask(&it->fields[0]));
		if (it->note)
			fprintf(c->f, " (%s)", it->note);
		fputc('\n', c->f);
		return;
	} else if (it->num_fields) {
		fprintf(c->f, "    %s = 0x%08" PRIx32, it->name, it->value);
	} else {
		fprintf(c->f, "    %s = ", it->name);
		text_value(c->f, it->fmt, it->value);
	}
	if (it->note)
		fprintf(c->f, " (%s)", it->note);
	fputc('\n', c->f);
	uint32_t covered = 0;
	for (unsigned i = 0; i < it->num_fields; i++) {
		const xs_pm4_field *fl = &it->fields[i];
		covered |= xs_pm4_field_mask(fl);
		xs_pm4_field_format(fl, xs_pm4_field_get(fl, it->value), buf, sizeof(buf));
		fprintf(c->f, "%*s        %s = %s\n", COL, "", fl->name, buf);
	}
	if (it->num_fields && (it->value & ~covered))
		fprintf(c->f, "%*s        (reserved bits 0x%08" PRIx32 ")\n", COL, "", it->value & ~covered);
}

static void header_flags(const xs_pm4_packet *p, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s%s", p->shader_type ? "(shader_type=compute)" : "",
		 p->predicate ? "(predicated)" : "", PKT3_RESET_FILTER_CAM_G(p->header) ? "(reset_filter_cam)" : "",
		 p->opcode == PKT3_NOP && p->body_len == 0 ? "(header-only)" : "");
}

int xs_pm4_print(FILE *f, const uint32_t *dw, size_t n, xs_err *err)
{
	xs_pm4_iter it;
	xs_pm4_packet p;
	text_ctx c = { .f = f, .dw = dw, .last_dword = SIZE_MAX };
	xs_pm4_iter_init(&it, dw, n);
	int r;
	while ((r = xs_pm4_next(&it, &p, err)) > 0) {
		c.last_dword = p.index;
		fprintf(f, "%6zu  %08" PRIx32 "  ", p.index, p.header);
		if (p.type == 2) {
			fprintf(f, "NOP (type 2)\n");
			continue;
		}
		char flags[96];
		header_flags(&p, flags, sizeof(flags));
		fprintf(f, "%s%s:\n", p.info->name, flags);
		decode(&p, text_item, &c);
	}
	return r < 0 ? -1 : 0;
}

/* ---- JSON ---- */

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *q = (const unsigned char *)s; *q; q++) {
		if (*q == '"' || *q == '\\')
			fprintf(f, "\\%c", *q);
		else if (*q < 0x20)
			fprintf(f, "\\u%04x", *q);
		else
			fputc(*q, f);
	}
	fputc('"', f);
}

typedef struct json_ctx {
	FILE *f;
	bool first;
} json_ctx;

static void json_item(void *ctx, const item *it)
{
	json_ctx *c = ctx;
	FILE *f = c->f;
	fprintf(f, "%s\n        {\"dword\": %zu, \"name\": ", c->first ? "" : ",", it->dword);
	c->first = false;
	if (it->name) {
		json_str(f, it->name);
	} else {
		char buf[16];
		snprintf(buf, sizeof(buf), "0x%05" PRIx32, it->addr);
		json_str(f, buf);
	}
	fprintf(f, ", \"value\": %" PRIu32, it->value);
	if (it->is_reg)
		fprintf(f, ", \"address\": \"0x%05" PRIx32 "\"", it->addr);
	if (it->note) {
		fprintf(f, ", \"note\": ");
		json_str(f, it->note);
	}
	if (it->num_fields) {
		fprintf(f, ", \"fields\": {");
		for (unsigned i = 0; i < it->num_fields; i++)
			fprintf(f, "%s\"%s\": %" PRIu32, i ? ", " : "", it->fields[i].name,
				xs_pm4_field_get(&it->fields[i], it->value));
		fputc('}', f);
	}
	fputc('}', f);
}

int xs_pm4_print_json(FILE *f, const char *name, const uint32_t *dw, size_t n, xs_err *err)
{
	xs_pm4_iter it;
	xs_pm4_packet p;
	xs_pm4_iter_init(&it, dw, n);
	fputc('{', f);
	if (name) {
		fprintf(f, "\"file\": ");
		json_str(f, name);
		fprintf(f, ", ");
	}
	fprintf(f, "\"dwords\": %zu, \"packets\": [", n);
	int r;
	bool first = true;
	while ((r = xs_pm4_next(&it, &p, err)) > 0) {
		fprintf(f, "%s\n    {\"dword\": %zu, \"header\": \"0x%08" PRIx32 "\", \"type\": %u", first ? "" : ",",
			p.index, p.header, p.type);
		first = false;
		if (p.type == 3) {
			fprintf(f, ", \"opcode\": %u, \"name\": \"%s\", \"count\": %u, \"shader_type\": %d, "
				"\"predicate\": %d, \"body\": [", p.opcode, p.info->name, p.count, p.shader_type,
				p.predicate);
			for (uint32_t k = 0; k < p.body_len; k++)
				fprintf(f, "%s\"0x%08" PRIx32 "\"", k ? ", " : "", p.body[k]);
			fprintf(f, "], \"decoded\": [");
			json_ctx c = { .f = f, .first = true };
			decode(&p, json_item, &c);
			fprintf(f, "%s]", c.first ? "" : "\n    ");
		} else {
			fprintf(f, ", \"name\": \"NOP (type 2)\"");
		}
		fputc('}', f);
	}
	fprintf(f, "%s],\n \"error\": ", first ? "" : "\n");
	if (r < 0) {
		fprintf(f, "{\"dword\": %zu, \"message\": ", it.error_dword);
		json_str(f, err ? err->msg : "malformed stream");
		fputc('}', f);
	} else {
		fprintf(f, "null");
	}
	fprintf(f, "}\n");
	return r < 0 ? -1 : 0;
}
