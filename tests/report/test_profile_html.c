/*
 * xs_profile_html_write (src/api/xs_api_profile_html.c, over src/runtime/xs_rt_profile_html.c), byte for byte: the
 * template around the JSON, every character that could end the script
 * element or open a comment in it written as a JSON \u escape, the rest of
 * the JSON untouched; and its rejections. The page itself is checked in a
 * browser by check_report.py.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "api/xs_api_profile_html.h"
#include "runtime/xs_rt_profile.h"

/* The page xs_profile_html_write makes of json[0..len), in a malloc'ed buffer. */
static char *page_of(const char *json, size_t len, size_t *out_len, xs_status *st)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	assert_non_null(f);
	*st = xs_profile_html_write(f, json, len);
	assert_int_equal(fclose(f), 0);
	*out_len = n;
	return buf;
}

/* The bytes between the template's head and tail. */
static char *embedded(const char *page, size_t n, size_t *len)
{
	assert_true(n >= xs_profile_html_head_len + xs_profile_html_tail_len);
	assert_memory_equal(page, xs_profile_html_head, xs_profile_html_head_len);
	assert_memory_equal(page + n - xs_profile_html_tail_len, xs_profile_html_tail, xs_profile_html_tail_len);
	*len = n - xs_profile_html_head_len - xs_profile_html_tail_len;
	char *e = malloc(*len + 1);
	memcpy(e, page + xs_profile_html_head_len, *len);
	e[*len] = 0;
	return e;
}

static void template_has_the_json_element(void **state)
{
	(void)state;
	/* the head ends inside the JSON's own script element, the tail closes it */
	const char *open = "<script type=\"application/json\" id=\"xs12-profile\">";
	size_t ol = strlen(open);
	assert_true(xs_profile_html_head_len > ol);
	assert_memory_equal(xs_profile_html_head + xs_profile_html_head_len - ol, open, ol);
	assert_int_equal(strlen(xs_profile_html_head), xs_profile_html_head_len);
	assert_int_equal(strlen(xs_profile_html_tail), xs_profile_html_tail_len);
	assert_memory_equal(xs_profile_html_tail, "</script>", 9);
	assert_non_null(strstr(xs_profile_html_tail, "</html>"));
	assert_null(strstr(xs_profile_html_head, "@XS12_PROFILE_JSON@"));
	assert_null(strstr(xs_profile_html_tail, "@XS12_PROFILE_JSON@"));
	/* self-contained: nothing fetched from anywhere */
	assert_null(strstr(xs_profile_html_head, "http:"));
	assert_null(strstr(xs_profile_html_head, "https:"));
	assert_null(strstr(xs_profile_html_tail, "https:"));
	assert_null(strstr(xs_profile_html_head, " src="));
	assert_null(strstr(xs_profile_html_tail, " src="));
}

static void plain_json_unchanged(void **state)
{
	(void)state;
	const char *json = "{\"format\": \"xs12-profile-1\", \"a\": [1, 2.5e3, null, true], \"s\": \"\\\"\\\\ \\u00e9 caf\xc3\xa9 \xe2\x82\xac\"}";
	size_t n, el;
	xs_status st;
	char *page = page_of(json, strlen(json), &n, &st);
	assert_int_equal(st, XS_OK);
	char *e = embedded(page, n, &el);
	assert_string_equal(e, json);
	free(e);
	free(page);
}

static void markup_characters_escaped(void **state)
{
	(void)state;
	/* </script>, <!--, & and the two separators (E2 80 A8/A9); E2 80 A7 (U+2027)
	 * and a lone E2 at the very end are other text and stay */
	const char json[] = "{\"s\": \"</script><!-- a&b > c \xe2\x80\xa8|\xe2\x80\xa9|\xe2\x80\xa7\", \"t\": \"<\xe2\"}";
	const char want[] = "{\"s\": \"\\u003c/script\\u003e\\u003c!-- a\\u0026b \\u003e c \\u2028|\\u2029|\xe2\x80\xa7\", "
	                    "\"t\": \"\\u003c\xe2\"}";
	size_t n, el;
	xs_status st;
	char *page = page_of(json, sizeof(json) - 1, &n, &st);
	assert_int_equal(st, XS_OK);
	char *e = embedded(page, n, &el);
	assert_string_equal(e, want);
	assert_null(strchr(e, '<'));
	free(e);
	free(page);
}

static void escape_at_the_edges(void **state)
{
	(void)state;
	/* escapes as the first and last bytes, back to back, and a separator cut short */
	struct { const char *in; size_t len; const char *want; } cases[] = {
		{ "<", 1, "\\u003c" },
		{ "<>&", 3, "\\u003c\\u003e\\u0026" },
		{ "\xe2\x80\xa8", 3, "\\u2028" },
		{ "a\xe2\x80", 3, "a\xe2\x80" },
		{ "\xe2\x80\xa9<", 4, "\\u2029\\u003c" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n, el;
		xs_status st;
		char *page = page_of(cases[i].in, cases[i].len, &n, &st);
		assert_int_equal(st, XS_OK);
		char *e = embedded(page, n, &el);
		assert_string_equal(e, cases[i].want);
		free(e);
		free(page);
	}
}

static void rejects_bad_arguments(void **state)
{
	(void)state;
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_int_equal(xs_profile_html_write(NULL, "{}", 2), XS_E_INVALID_ARG);
	assert_non_null(strstr(xs_last_error(NULL), "f is NULL"));
	assert_int_equal(xs_profile_html_write(f, NULL, 2), XS_E_INVALID_ARG);
	assert_non_null(strstr(xs_last_error(NULL), "json is NULL"));
	assert_int_equal(xs_profile_html_write(f, "{}", 0), XS_E_INVALID_ARG);
	assert_non_null(strstr(xs_last_error(NULL), "json is empty"));
	assert_int_equal(xs_profile_html_write(f, "{\"a\0\"}", 6), XS_E_INVALID_ARG);
	assert_non_null(strstr(xs_last_error(NULL), "NUL byte at offset 3"));
	/* nothing written for a rejected call */
	assert_int_equal(ftell(f), 0);
	fclose(f);
}

static void write_error_is_io(void **state)
{
	(void)state;
	FILE *f = fopen("/dev/full", "w");
	if (!f)
		skip();
	assert_int_equal(xs_profile_html_write(f, "{}", 2), XS_E_IO);
	assert_non_null(strstr(xs_last_error(NULL), "write failed"));
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(template_has_the_json_element),
		cmocka_unit_test(plain_json_unchanged),
		cmocka_unit_test(markup_characters_escaped),
		cmocka_unit_test(escape_at_the_edges),
		cmocka_unit_test(rejects_bad_arguments),
		cmocka_unit_test(write_error_is_io),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
