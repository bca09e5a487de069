/* The profile's HTML report: the template (xs_rt_profile_report.html, turned
 * into the two strings around the JSON by scripts/gen_profile_html.py) with
 * the profile JSON embedded (xs_rt_profile.h says what is escaped and why). */
#include "runtime/xs_rt_profile.h"

#include <string.h>

/* The escape for the byte at json[i] (and, for U+2028/2029, the two after it),
 * or NULL for a byte written as it is; *used is the number of bytes replaced. */
static const char *escape_at(const char *json, size_t len, size_t i, size_t *used)
{
	*used = 1;
	switch (json[i]) {
	case '<': return "\\u003c";
	case '>': return "\\u003e";
	case '&': return "\\u0026";
	case '\xe2':
		/* U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR: E2 80 A8 / A9 in UTF-8 */
		if (i + 2 < len && json[i + 1] == '\x80' && (json[i + 2] == '\xa8' || json[i + 2] == '\xa9')) {
			*used = 3;
			return json[i + 2] == '\xa8' ? "\\u2028" : "\\u2029";
		}
		return NULL;
	default:
		return NULL;
	}
}

xs_status xs_rt_profile_html(FILE *f, const char *json, size_t json_len, xs_err *e)
{
	if (!f)
		return xs_err_set(e, XS_E_INVALID_ARG, "profile HTML: f is NULL");
	if (!json)
		return xs_err_set(e, XS_E_INVALID_ARG, "profile HTML: json is NULL");
	if (json_len == 0)
		return xs_err_set(e, XS_E_INVALID_ARG, "profile HTML: json is empty");
	const char *nul = memchr(json, '\0', json_len);
	if (nul)
		return xs_err_set(e, XS_E_INVALID_ARG,
			"profile HTML: json has a NUL byte at offset %zu (a profile is text)",
			(size_t)(nul - json));

	fwrite(xs_profile_html_head, 1, xs_profile_html_head_len, f);
	size_t run = 0;   /* start of the bytes not yet written */
	for (size_t i = 0; i < json_len;) {
		size_t used;
		const char *esc = escape_at(json, json_len, i, &used);
		if (!esc) {
			i++;
			continue;
		}
		fwrite(json + run, 1, i - run, f);
		fputs(esc, f);
		i += used;
		run = i;
	}
	fwrite(json + run, 1, json_len - run, f);
	fwrite(xs_profile_html_tail, 1, xs_profile_html_tail_len, f);
	if ((fflush(f) != 0) | ferror(f))
		return xs_err_set(e, XS_E_IO, "profile HTML: write failed");
	return XS_OK;
}
