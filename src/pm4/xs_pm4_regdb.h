/*
 * Register database: every gfx10.3 register xs12 programs, with its byte
 * address, register space and fields, for the PM4 decoder, the printer and
 * error messages. Its rows are generated, with the R_/S_/G_/C_ macros of
 * hw/xs_hw_regs.h, from one table (src/hw/gfx103_regs.txt, by
 * scripts/gen_hw_regs.py), so the two cannot drift apart.
 */
#ifndef XS_PM4_REGDB_H
#define XS_PM4_REGDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum xs_pm4_space {
	XS_PM4_SPACE_NONE = 0, /* not a register space a SET_*_REG packet can write */
	XS_PM4_SPACE_CONFIG,   /* 0x8000..0xAFFF,  SET_CONFIG_REG */
	XS_PM4_SPACE_SH,       /* 0xB000..0xBFFF,  SET_SH_REG(_INDEX) */
	XS_PM4_SPACE_CONTEXT,  /* 0x28000..0x2FFFF, SET_CONTEXT_REG */
	XS_PM4_SPACE_UCONFIG,  /* 0x30000..0x3FFFF, SET_UCONFIG_REG(_INDEX) */
} xs_pm4_space;

/* How a field's value is shown. */
typedef enum xs_pm4_fmt {
	XS_PM4_FMT_DEC,    /* "208" */
	XS_PM4_FMT_HEX,    /* "0xfffd" (masks, address bits) */
	XS_PM4_FMT_SCALED, /* "3 (3 KiB)": value × scale, in unit */
	XS_PM4_FMT_ENUM,   /* "40 (BOTTOM_OF_PIPE_TS)": values[value] */
} xs_pm4_fmt;

typedef struct xs_pm4_field {
	const char *name;
	uint8_t lo, width;
	uint8_t fmt;          /* xs_pm4_fmt */
	uint32_t scale;       /* FMT_SCALED: value × scale is in unit */
	const char *unit;     /* FMT_SCALED: unit of value × scale ("KiB", "B");
	                       * otherwise an optional note on the raw value ("waves") */
	const char *const *values; /* FMT_ENUM: names by value (NULL entries = unnamed) */
	uint8_t num_values;
} xs_pm4_field;

typedef struct xs_pm4_reg {
	uint32_t addr; /* byte address, e.g. 0xB860 */
	const char *name;
	uint8_t space; /* xs_pm4_space */
	uint8_t num_fields;
	const xs_pm4_field *fields; /* NULL when the register is one 32-bit value */
} xs_pm4_reg;

/* Register at byte address addr (binary search), or NULL. */
const xs_pm4_reg *xs_pm4_reg_find(uint32_t addr);
/* By exact name, or NULL (linear; for tests and tools). */
const xs_pm4_reg *xs_pm4_reg_by_name(const char *name);
/* The table, sorted by address. */
size_t xs_pm4_reg_count(void);
const xs_pm4_reg *xs_pm4_reg_at(size_t i);
const xs_pm4_field *xs_pm4_reg_field(const xs_pm4_reg *r, const char *name);

/* Space of a byte address; bounds of a space (end exclusive); "SH", ... */
xs_pm4_space xs_pm4_space_of(uint32_t addr);
uint32_t xs_pm4_space_base(xs_pm4_space s);
uint32_t xs_pm4_space_end(xs_pm4_space s);
const char *xs_pm4_space_name(xs_pm4_space s);

static inline uint32_t xs_pm4_field_get(const xs_pm4_field *f, uint32_t v)
{
	return (v >> f->lo) & (f->width >= 32 ? 0xffffffffu : ((1u << f->width) - 1));
}
static inline uint32_t xs_pm4_field_mask(const xs_pm4_field *f)
{
	return (f->width >= 32 ? 0xffffffffu : ((1u << f->width) - 1)) << f->lo;
}

/* One field value as text: "208", "3 (3 KiB)", "0xfffd", "40 (BOTTOM_OF_PIPE_TS)".
 * Returns the length snprintf would have written. */
int xs_pm4_field_format(const xs_pm4_field *f, uint32_t field_value, char *buf, size_t size);

/* A register value with its decoded fields: "WAVES=208, WAVESIZE=3 (3 KiB)";
 * a register without fields gives "0x000030d0"; bits outside every field that
 * are set are added as "reserved bits 0x...". r may be NULL (hex value only).
 * Returns the length snprintf would have written. */
int xs_pm4_reg_format(const xs_pm4_reg *r, uint32_t value, char *buf, size_t size);

/* VGT_EVENT_TYPE names by value (Mesa gfx103.json enum); xs_pm4_event_name
 * gives NULL above 63. */
extern const char *const xs_pm4_event_names[64];
const char *xs_pm4_event_name(unsigned type);

#endif
