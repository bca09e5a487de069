/* xs_profile_html_write (xs_api_profile_html.h): the runtime's page writer
 * with the error as the calling thread's xs_last_error. */
#include "api/xs_api_profile_html.h"
#include "api/xs_api_priv.h"
#include "runtime/xs_rt_profile.h"

xs_status xs_profile_html_write(FILE *f, const char *json, size_t json_len)
{
	xs_err e = { 0 };
	xs_status st = xs_rt_profile_html(f, json, json_len, &e);
	return st ? xs_api_fail(NULL, &e) : XS_OK;
}
