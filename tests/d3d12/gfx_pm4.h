/* The tests' view of a closed list's PM4: the registers it leaves, decoded
 * by the project's PM4 parser and read by field name from the register
 * database (include after cmocka.h). */
#ifndef XS_TEST_GFX_PM4_H
#define XS_TEST_GFX_PM4_H

#include "d3d12/xs_d3d12_private.h" /* the closed list's PM4, for the decoder */
#include "pm4/xs_pm4_parse.h"
#include "pm4/xs_pm4_regdb.h"

/* The registers as the list's PM4 leaves them (the last write of each). */
typedef struct regfile {
	unsigned packets[256]; /* count of each PKT3 opcode */
	uint32_t addr[256], value[256];
	unsigned n;
	unsigned index3;  /* CU-mask registers written with SET_SH_REG_INDEX index 3 */
} regfile;

static inline void regfile_of_list(ID3D12GraphicsCommandList6 *list, regfile *rf)
{
	memset(rf, 0, sizeof(*rf));
	const d3d12_list *l = d3d12_list_from_iface(list);
	xs_pm4_iter it;
	xs_pm4_packet p;
	xs_err e;
	int r;
	xs_pm4_iter_init(&it, l->pm4.dw, l->pm4.cdw);
	while ((r = xs_pm4_next(&it, &p, &e)) == 1) {
		if (p.type == 3)
			rf->packets[p.opcode]++;
		if (p.type != 3 || !p.reg_count)
			continue;
		for (uint32_t i = 0; i < p.reg_count; i++) {
			uint32_t a = p.reg_addr + 4 * i;
			unsigned k = 0;
			while (k < rf->n && rf->addr[k] != a)
				k++;
			assert_true(k < 256);
			if (k == rf->n)
				rf->addr[rf->n++] = a;
			rf->value[k] = p.body[1 + i];
			if (p.reg_index == 3)
				rf->index3++;
		}
	}
	assert_int_equal(r, 0); /* well-formed to the end */
}

/* A field of a register by their names, as the list left it; -1 if never written. */
static inline int64_t field(const regfile *rf, const char *reg, const char *fld)
{
	const xs_pm4_reg *r = xs_pm4_reg_by_name(reg);
	assert_non_null(r);
	const xs_pm4_field *f = xs_pm4_reg_field(r, fld);
	assert_non_null(f);
	for (unsigned k = 0; k < rf->n; k++)
		if (rf->addr[k] == r->addr)
			return xs_pm4_field_get(f, rf->value[k]);
	return -1;
}


/* A register's value as the list left it (by name); -1 if never written. */
static inline int64_t reg_value(const regfile *rf, const char *reg)
{
	const xs_pm4_reg *r = xs_pm4_reg_by_name(reg);
	assert_non_null(r);
	for (unsigned k = 0; k < rf->n; k++)
		if (rf->addr[k] == r->addr)
			return rf->value[k];
	return -1;
}

static inline int64_t reg_at(const regfile *rf, uint32_t addr)
{
	for (unsigned k = 0; k < rf->n; k++)
		if (rf->addr[k] == addr)
			return rf->value[k];
	return -1;
}

#endif
