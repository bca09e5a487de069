/*
 * Prints the PM4 register database for check_regdb.py, one line each:
 *   reg <addr hex> <name> <space>
 *   field <addr hex> <name> <lo> <width>
 */
#include <inttypes.h>
#include <stdio.h>

#include "pm4/xs_pm4_regdb.h"

int main(void)
{
	for (size_t i = 0; i < xs_pm4_reg_count(); i++) {
		const xs_pm4_reg *r = xs_pm4_reg_at(i);
		printf("reg 0x%" PRIx32 " %s %s\n", r->addr, r->name, xs_pm4_space_name(r->space));
		for (unsigned k = 0; k < r->num_fields; k++)
			printf("field 0x%" PRIx32 " %s %u %u\n", r->addr, r->fields[k].name, r->fields[k].lo,
			       r->fields[k].width);
	}
	return 0;
}
