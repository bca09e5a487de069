/* Register overrides of the command processor (xs_gpu_override.h). */
#include "gpu/xs_gpu_override.h"

#include <stdlib.h>
#include <string.h>

#include "gpu/xs_gpu_priv.h"
#include "pm4/xs_pm4_regdb.h"

xs_status xs_gpu_override_parse(const char *s, xs_gpu_override *o, xs_err *e)
{
	memset(o, 0, sizeof(*o));
	const char *eq = strchr(s, '=');
	char reg[96] = "", *field;
	if (!eq || (size_t)(eq - s) >= sizeof(reg) || eq == s)
		return xs_err_set(e, XS_E_INVALID_ARG, "override '%s': expected REG.FIELD=VALUE, e.g. "
				  "COMPUTE_TMPRING_SIZE.WAVES=8", s);
	memcpy(reg, s, (size_t)(eq - s));
	snprintf(o->name, sizeof(o->name), "%s", reg);
	if ((field = strchr(reg, '.')))
		*field++ = 0;
	const xs_pm4_reg *r = xs_pm4_reg_by_name(reg);
	if (!r)
		return xs_err_set(e, XS_E_INVALID_ARG, "override %s: no register %s in the gfx10.3 register database",
				  o->name, reg);
	/* What the command processor sets from packets; CONFIG registers it
	 * never takes from a queue's stream. */
	if (r->space != XS_PM4_SPACE_SH && r->space != XS_PM4_SPACE_CONTEXT && r->space != XS_PM4_SPACE_UCONFIG)
		return xs_err_set(e, XS_E_INVALID_ARG, "override %s: %s is a %s register; only SH, context and uconfig "
				  "registers are set by a queue's PM4 (SET_SH_REG, SET_CONTEXT_REG, SET_UCONFIG_REG)",
				  o->name, reg, xs_pm4_space_name((xs_pm4_space)r->space));
	uint32_t lo = 0, width = 32;
	if (field) {
		const xs_pm4_field *f = xs_pm4_reg_field(r, field);
		if (!f) {
			char list[400] = "";
			size_t len = 0;
			for (uint32_t i = 0; i < r->num_fields && len < sizeof(list); i++)
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "",
							r->fields[i].name);
			return xs_err_set(e, XS_E_INVALID_ARG, "override %s: %s has no field %s; its fields: %s", o->name,
					  reg, field, r->num_fields ? list : "none (give REG=VALUE)");
		}
		lo = f->lo;
		width = f->width;
	}
	char *end;
	const char *v = eq + 1;
	unsigned long long x = strtoull(v, &end, 0);
	if (!*v || *end || *v == '-')
		return xs_err_set(e, XS_E_INVALID_ARG, "override %s=%s: the value is not a number", o->name, v);
	uint64_t max = width >= 32 ? 0xffffffffull : (1ull << width) - 1;
	if (x > max)
		return xs_err_set(e, XS_E_INVALID_ARG, "override %s=%s: the field has %u bits (at most %llu)", o->name, v,
				  width, (unsigned long long)max);
	o->addr = r->addr;
	o->mask = (uint32_t)(max << lo);
	o->value = (uint32_t)(x << lo);
	return XS_OK;
}

void xs_gpu_set_overrides(xs_gpu *g, const xs_gpu_override *o, uint32_t n)
{
	g->novr = XS_MIN(n, (uint32_t)XS_GPU_MAX_OVERRIDES);
	if (g->novr)
		memcpy(g->ovr, o, g->novr * sizeof(*o));
	memset(g->ovr_hits, 0, sizeof(g->ovr_hits));
}

uint64_t xs_gpu_override_hits(const xs_gpu *g, uint32_t i)
{
	return i < g->novr ? g->ovr_hits[i] : 0;
}

uint32_t xs_gpu_override_apply(xs_gpu *g, uint32_t addr, uint32_t v)
{
	for (uint32_t i = 0; i < g->novr; i++)
		if (g->ovr[i].addr == addr) {
			v = (v & ~g->ovr[i].mask) | g->ovr[i].value;
			g->ovr_hits[i]++;
		}
	return v;
}
