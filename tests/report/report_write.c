/* report_write IN.json OUT.html: the profile's HTML report of a JSON file,
 * through xs_profile_html_write as `xs12 run --profile FILE.html` uses it.
 * The browser test (check_report.py) renders what it writes. */
#include "api/xs_api_profile_html.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: report_write IN.json OUT.html\n");
		return 2;
	}
	FILE *in = fopen(argv[1], "rb");
	if (!in) {
		perror(argv[1]);
		return 1;
	}
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len, in)) > 0) {
		len += n;
		if (len == cap) {
			char *more = realloc(buf, cap *= 2);
			if (!more)
				free(buf);
			buf = more;
		}
	}
	fclose(in);
	if (!buf) {
		fprintf(stderr, "report_write: out of memory\n");
		return 1;
	}
	FILE *out = fopen(argv[2], "wb");
	if (!out) {
		perror(argv[2]);
		return 1;
	}
	xs_status s = xs_profile_html_write(out, buf, len);
	free(buf);
	if (fclose(out) != 0 && s == XS_OK) {
		fprintf(stderr, "report_write: %s: close failed\n", argv[2]);
		return 1;
	}
	if (s != XS_OK) {
		fprintf(stderr, "report_write: %s\n", xs_last_error(NULL));
		return 1;
	}
	return 0;
}
