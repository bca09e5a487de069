/* xs12 — command-line front end. Verbs: info, run, demo (docs/cli.md). */
#include "xs_cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xs12 <command> [options]\n"
		"\n"
		"Runs real gfx1030 code objects on a simulated Xbox Series GPU (RDNA2).\n"
		"\n"
		"commands:\n"
		"  info FILE [--json] [--machine M]   kernels' resources and theoretical occupancy\n"
		"  run FILE --groups X[,Y[,Z]] --block X[,Y[,Z]] [--arg SPEC]...\n"
		"           [--kernel NAME] [--machine M] [--scratch-waves N] [--json]\n"
		"                                     runs one kernel dispatch\n"
		"  disasm FILE [--kernel NAME]        disassembly, as llvm-objdump -d --mcpu=gfx1030\n"
		"  pm4 FILE [--json]                  decodes a PM4 command stream\n"
		"  replay FILE [--json]               replays a recording (run --record), checks\n"
		"                                     that cycles and bytes come out the same\n"
		"  demo                               the first kernels, checked, with figures\n"
		"\n"
		"  xs12 <command> --help   options of one command\n"
		"  xs12 --version\n"
		"machines: seriesx (default), seriess\n");
}

int xs_cli_usage_error(const char *verb, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "xs12 %s: ", verb);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'xs12 %s --help')\n", verb);
	return XS_CLI_USAGE_ERROR;
}

bool xs_cli_parse_u32(const char *s, uint32_t *v)
{
	char *end;
	errno = 0;
	if (!s || !*s || *s == '-')
		return false;
	unsigned long long x = strtoull(s, &end, 0);
	if (errno || *end || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

int xs_cli_parse_dims(const char *s, uint32_t v[3])
{
	v[0] = v[1] = v[2] = 1;
	char buf[96];
	if (!s || strlen(s) >= sizeof(buf))
		return 0;
	strcpy(buf, s);
	int n = 0;
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == 3 || !xs_cli_parse_u32(tok, &v[n]) || v[n] == 0)
			return 0;
		n++;
	}
	/* "4," or ",4" leave an empty component: strtok hides it, so count commas. */
	int commas = 0;
	for (const char *p = s; *p; p++)
		commas += *p == ',';
	return commas == n - 1 ? n : 0;
}

bool xs_cli_parse_machine(const char *s, xs_machine *m)
{
	if (!strcmp(s, "seriesx"))
		*m = XS_MACHINE_SERIES_X;
	else if (!strcmp(s, "seriess"))
		*m = XS_MACHINE_SERIES_S;
	else
		return false;
	return true;
}

void xs_cli_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

double xs_cli_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return XS_CLI_USAGE_ERROR;
	}
	const char *verb = argv[1];
	if (!strcmp(verb, "--help") || !strcmp(verb, "-h") || !strcmp(verb, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(verb, "--version")) {
		printf("xs12 %s\n", XS12_VERSION_STRING);
		return 0;
	}
	if (!strcmp(verb, "info"))
		return xs_cli_info(argc - 1, argv + 1);
	if (!strcmp(verb, "run"))
		return xs_cli_run(argc - 1, argv + 1);
	if (!strcmp(verb, "disasm"))
		return xs_cli_disasm(argc - 1, argv + 1);
	if (!strcmp(verb, "pm4"))
		return xs_cli_pm4(argc - 1, argv + 1);
	if (!strcmp(verb, "replay"))
		return xs_cli_replay(argc - 1, argv + 1);
	if (!strcmp(verb, "demo"))
		return xs_cli_demo(argc - 1, argv + 1);
	fprintf(stderr, "xs12: unknown command '%s'\n", verb);
	usage(stderr);
	return XS_CLI_USAGE_ERROR;
}
