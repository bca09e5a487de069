/* The message table (xs12_messages.def): one row per message the runtime
 * and the debug layer give, with its rule, severity and category. */
#include "runtime/xs_rt.h"

#include <stdio.h>

static const xs_rt_msg_info table[XS_MSG_COUNT] = {
	[XS_MSG_NONE] = { "NONE", XS_SEV_MESSAGE, XS_CAT_MISC, "", "" },
#define XS_MSG(name, sev, cat, rule, summary) \
	[XS_MSG_##name] = { #name, XS_SEV_##sev, XS_CAT_##cat, rule, summary },
#include "xs12/xs12_messages.def"
#undef XS_MSG
};

const xs_rt_msg_info *xs_rt_msg(xs_rt_msg_id id)
{
	return (unsigned)id < XS_MSG_COUNT ? &table[id] : &table[XS_MSG_NONE];
}

xs_status xs_rt_fail(xs_err *e, xs_status st, xs_rt_msg_id id, const char *fmt, ...)
{
	if (!e)
		return st;
	const xs_rt_msg_info *m = xs_rt_msg(id);
	int n = snprintf(e->msg, sizeof(e->msg), "%s: ", m->rule);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg + n, sizeof(e->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	e->status = st;
	e->id = id;
	return st;
}
