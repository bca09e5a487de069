/* Placeholder page until the report template lands. */
#include "runtime/xs_rt_profile.h"

xs_status xs_rt_profile_html(FILE *f, const char *json, size_t n, xs_err *e)
{
	(void)e;
	fputs("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>xs12 profile</title></head><body>"
	      "<script type=\"application/json\" id=\"xs12-profile\">", f);
	fwrite(json, 1, n, f);
	fputs("</script></body></html>\n", f);
	return XS_OK;
}
