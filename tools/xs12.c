/* xs12 — command-line front end. Verbs: info, run, demo (docs/cli.md). */
#include "xs_cli.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
		"  sweep FILE ... --vary NAME=V1,V2,...  one dispatch over a grid of settings (or a\n"
		"                                     recording with --override REG.FIELD=V1,V2):\n"
		"                                     a table, the best setting and its margin\n"
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

const xs_kernel_info *xs_cli_pick_kernel(const char *verb, const xs_module *mod, const char *name, const char *path,
					 int *rc)
{
	uint32_t n = xs_module_kernel_count(mod);
	const xs_kernel_info *k = name ? xs_module_find_kernel(mod, name) : n == 1 ? xs_module_kernel(mod, 0) : NULL;
	if (k)
		return k;
	if (name)
		fprintf(stderr, "xs12 %s: %s has no kernel '%s'; its kernels:\n", verb, path, name);
	else
		fprintf(stderr, "xs12 %s: %s has %u kernels; pick one with --kernel NAME:\n", verb, path, n);
	for (uint32_t i = 0; i < n; i++)
		fprintf(stderr, "  %s\n", xs_module_kernel(mod, i)->name);
	*rc = XS_CLI_USAGE_ERROR;
	return NULL;
}

const char *xs_cli_arg_desc(const xs_kernel_arg *a, char *buf, size_t n)
{
	static const char *const kinds[] = {
		[XS_ARG_BY_VALUE] = "by value", [XS_ARG_GLOBAL_BUFFER] = "global buffer",
		[XS_ARG_DYNAMIC_SHARED_POINTER] = "__local pointer: dynamic LDS", [XS_ARG_HIDDEN] = "hidden",
		[XS_ARG_OTHER] = "other",
	};
	const char *kind = (unsigned)a->kind < sizeof(kinds) / sizeof(kinds[0]) ? kinds[a->kind] : "other";
	snprintf(buf, n, "%s: %s (%s, %u bytes)", a->name && *a->name ? a->name : "unnamed",
		 a->type_name && *a->type_name ? a->type_name : "no type name", kind, a->size);
	return buf;
}

int xs_cli_parse_bytes(const char *verb, const char *opt, const char *s, uint64_t max, uint64_t *out)
{
	char err[300];
	if (xs_argspec_bytes(s, max, out, NULL, err, sizeof(err)))
		return xs_cli_usage_error(verb, "%s '%s': %s", opt, s, err);
	return 0;
}

int xs_cli_parse_title_scratch(const char *verb, const char *s, uint64_t per_wave, xs_machine m, uint32_t *slots)
{
	xs_machine_info mi;
	xs_machine_describe(m, &mi);
	uint64_t v;
	bool bytes;
	char err[300];
	if (xs_argspec_bytes(s, UINT64_MAX, &v, &bytes, err, sizeof(err)))
		return xs_cli_usage_error(verb, "--title-scratch '%s': %s (a number of slots, or bytes with K, M or G)",
					  s, err);
	uint64_t n = bytes ? (per_wave ? v / per_wave : mi.max_scratch_waves) : v;
	if (bytes && per_wave && n == 0)
		return xs_cli_usage_error(verb, "--title-scratch %s: smaller than one slot of %llu KB (the kernel's "
					  "scratch per wave, S1.11)", s, (unsigned long long)per_wave / 1024);
	if (n > mi.max_scratch_waves)
		return xs_cli_usage_error(verb, "--title-scratch %s: %llu slots; a ring holds at most %u on %s (32 per CU, "
					  "SPEC S1.13)", s, (unsigned long long)n, mi.max_scratch_waves, mi.name);
	*slots = (uint32_t)n;
	return 0;
}

static int run_verb(int argc, char **argv)
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
	if (!strcmp(verb, "sweep"))
		return xs_cli_sweep(argc - 1, argv + 1);
	if (!strcmp(verb, "cc"))
		return xs_cli_cc(argc - 1, argv + 1);
	fprintf(stderr, "xs12: unknown command '%s'\n", verb);
	usage(stderr);
	return XS_CLI_USAGE_ERROR;
}

/* What went to stdout (a table, --json, a decoded stream) must have
 * arrived: a full disk or /dev/full fails a write silently in stdio, and
 * exit 0 would pass a cut output for a whole one.
 * SIGXFSZ is ignored: past a file size limit (ulimit -f) a write then fails
 * with EFBIG, which every writer reports, removing its temporary
 * (xs_outfile.h); by default the signal would kill the process with the
 * temporary left beside the file. */
int main(int argc, char **argv)
{
	signal(SIGXFSZ, SIG_IGN);
	int rc = run_verb(argc, argv);
	errno = 0;
	bool failed = ferror(stdout) != 0;
	if (fflush(stdout))
		failed = true;
	if (failed) {
		/* errno is the final flush's; an earlier failed write's is gone */
		fprintf(stderr, "xs12: writing to standard output failed%s%s\n", errno ? ": " : "",
			errno ? strerror(errno) : "");
		return rc ? rc : 1;
	}
	return rc;
}
