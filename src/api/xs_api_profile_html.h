/* The profile's HTML report: one self-contained page (HTML, CSS and plain
 * JavaScript, no external resources) that draws an "xs12-profile-1" JSON
 * document embedded in it. The template is src/runtime/xs_rt_profile_report.html;
 * scripts/gen_profile_html.py turns it into the two strings below at build
 * time. Hidden: the runtime's xs_rt_profile_html, which `xs12 run --profile FILE.html` uses,
 * with the error in xs_last_error (docs/cli.md,
 * "The HTML report"). */
#ifndef XS_API_PROFILE_HTML_H
#define XS_API_PROFILE_HTML_H

#include "xs12/xs12.h"

#include <stddef.h>
#include <stdio.h>

/* Writes the page with json_len bytes of profile JSON embedded in its
 * <script type="application/json" id="xs12-profile"> element. In the JSON,
 * '<', '>', '&', U+2028 and U+2029 are written as \u003c, \u003e, \u0026,
 * \u2028 and \u2029 (all of them can only stand inside JSON strings, where
 * the escape means the same character), so no string can close the element
 * ("</script>") or open a comment in it. The JSON itself is not checked:
 * the page reports what it cannot read.
 * Returns XS_E_INVALID_ARG (f or json NULL, json empty or holding a NUL
 * byte: the profile is text) or XS_E_IO (a write failed), with the message
 * in xs_last_error(NULL); f is flushed, not closed. */
xs_status xs_profile_html_write(FILE *f, const char *json, size_t json_len);

#endif
