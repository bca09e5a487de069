/*
 * Prints the compiled PM4 register database, one tab-separated line each:
 *   reg    <addr hex> <name> <space>
 *   field  <addr hex> <name> <lo> <width> <dec|hex|scaled|enum> <scale> <unit or note> <v=NAME,...>
 * scripts/gen_hw_regs.py --dump prints the same from src/hw/gfx103_regs.txt;
 * tests/hw/check_generated.py compares the two, so the database is exactly
 * the table (every row, field, format, note and value name).
 */
#include <inttypes.h>
#include <stdio.h>

#include "pm4/xs_pm4_regdb.h"

int main(void)
{
	static const char *const fmt[] = { "dec", "hex", "scaled", "enum" };
	for (size_t i = 0; i < xs_pm4_reg_count(); i++) {
		const xs_pm4_reg *r = xs_pm4_reg_at(i);
		printf("reg\t0x%" PRIx32 "\t%s\t%s\n", r->addr, r->name, xs_pm4_space_name(r->space));
		for (unsigned k = 0; k < r->num_fields; k++) {
			const xs_pm4_field *f = &r->fields[k];
			printf("field\t0x%" PRIx32 "\t%s\t%u\t%u\t%s\t%" PRIu32 "\t%s\t", r->addr, f->name, f->lo, f->width,
			       f->fmt < 4 ? fmt[f->fmt] : "?", f->scale, f->unit ? f->unit : "");
			const char *sep = "";
			for (unsigned v = 0; v < f->num_values; v++)
				if (f->values[v]) {
					printf("%s%u=%s", sep, v, f->values[v]);
					sep = ",";
				}
			printf("\n");
		}
	}
	return 0;
}
