/* xs12 run FILE ...: one kernel dispatch (or two at once with --async) with
 * arguments from --arg SPECs (tools/xs_argspec.h; the PoCL oracle takes the
 * same syntax). docs/cli.md is the manual. */
#include "xs_cli.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ARGS 64

static void help(FILE *f)
{
	fprintf(f,
		"usage: xs12 run FILE --groups X[,Y[,Z]] --block X[,Y[,Z]] [--arg SPEC]...\n"
		"                [--kernel NAME] [--queue direct|compute] [--cu-mask M]\n"
		"                [--machine seriesx|seriess] [--scratch-waves N] [--title-scratch SIZE]\n"
		"                [--timing|--functional] [--threads N] [--timing-threads N] [--watchdog SPEC]\n"
		"                [--debug-layer] [--json]\n"
		"                [--trace FILE.json] [--svg FILE.svg] [--record FILE] [--cc FLAGS]\n"
		"                [--launch lds=BYTES,x=N,y=N,z=N] [--profile FILE] [--counters FILE]\n"
		"                [--async FILE2 --groups .. --block .. [--arg ..] [--kernel ..] [--cu-mask ..]]\n"
		"\n"
		"Options of a kernel (the first, or the --async one after --async):\n"
		"  --groups X,Y,Z  thread groups per dimension (as D3D12 Dispatch)\n"
		"  --block X,Y,Z   threads per group per dimension\n"
		"  --arg SPEC      one per explicit kernel argument, in order (see 'xs12 info FILE'):\n"
		"                  i32:V u32:V i64:V u64:V f32:V f64:V   by value\n"
		"                  in:FILE               buffer filled from FILE\n"
		"                  out:FILE:BYTES        zeroed buffer, written to FILE after the run\n"
		"                  inout:FILE:OUTFILE    filled from FILE, written to OUTFILE\n"
		"                  local:BYTES           dynamic LDS for a __local pointer argument\n"
		"                  BYTES: decimal or 0x hex with an optional K, M or G suffix\n"
		"  --kernel NAME   the kernel, when the code object has several\n"
		"  --queue Q       direct (graphics ring, default) or compute (async compute queue);\n"
		"                  the --async kernel always runs on the compute queue\n"
		"  --launch L      launch parameters (SetComputeShaderLaunchParametersX, SPEC S3):\n"
		"                  lds=BYTES the group's LDS (512-byte units, at most 64K), x=,y=,z=\n"
		"                  the group shape (1..2048 each, 32 waves at most), any of them;\n"
		"                  x= replaces --block, and the S3 rules apply\n"
		"  --cu-mask M     CUs the dispatch may use, one bit per CU (chip-wide index); a\n"
		"                  WGP-mode kernel needs both CUs of a WGP (e.g. 0x3)\n"
		"\n"
		"Options of the run (before --async):\n"
		"  --machine M     seriesx (default) or seriess\n"
		"  --scratch-waves N  slots of the driver's shared compute ring (COMPUTE_TMPRING_SIZE\n"
		"                  .WAVES); default: the driver default of SPEC S1.8, 4 per CU;\n"
		"                  at most 32 per CU (S1.13)\n"
		"  --title-scratch SIZE  each queue gets its own ring (SetShaderScratchSpaceX): SIZE\n"
		"                  slots, or bytes with a K/M/G suffix, in slots of the kernel's need\n"
		"  --timing        timing model (default); --functional: no timing, fastest (its\n"
		"                  cycles are issue counts, not modelled time)\n"
		"  --threads N     host threads for --functional (default: all cores)\n"
		"  --timing-threads N  host threads for --timing: 1 (default) or 2, the waves'\n"
		"                  instructions then run ahead on the second while the model issues\n"
		"                  them (the same results for waves that share data only across\n"
		"                  barriers; repeatable for all)\n"
		"  --repeat N      run the dispatch N times on the same buffers and report the last\n"
		"                  run: a warm measurement, as a benchmark's second launch (its\n"
		"                  output pages are in host memory already); inout buffers feed\n"
		"                  each run the previous one's output\n"
		"  --debug-layer   the D3D12 debug layer's checks: a scratch kernel on the compute\n"
		"                  queue with the driver's shared ring is refused (SPEC S1.8);\n"
		"                  without it the queues share the ring's memory, as hardware would\n"
		"  --watchdog SPEC hang detection: 'off', or a list of gpu=TIME, host=TIME (TIME in\n"
		"                  s, ms or us, or 'off') and insts=N (a per-wave instruction budget).\n"
		"                  Default gpu=2s,host=10s: the device is removed when a dispatch\n"
		"                  completes no thread group for 2 s of simulated GPU time or 10 s\n"
		"                  of host time\n"
		"  --trace FILE    Chrome trace / Perfetto JSON timeline\n"
		"  --svg FILE      SVG chart of waves in flight and scratch slots over time\n"
		"  --record FILE   save the run (GPU memory, PM4, results) for 'xs12 replay'\n"
		"  --profile FILE  per-instruction timing (timing mode): cycles, issues and stall\n"
		"                  reasons per instruction, hot spots first; FILE.html one page\n"
		"                  (annotated ISA, occupancy, dispatches, stalls), FILE.json, or text\n"
		"  --counters FILE hardware counters per dispatch and per queue (caches, DRAM,\n"
		"                  scratch, LDS, pipes, instructions by class): FILE.csv or JSON;\n"
		"                  with --json also in each dispatch's \"counters\"\n"
		"  --cc FLAGS      for FILE.cl / FILE.hip: compiler flags, e.g. '-O0 --wave64'\n"
		"  --json          the run's figures as JSON on stdout (with \"error\" on failure)\n"
		"  --async FILE2 …  a second kernel on the compute queue, started at the same time\n"
		"\n"
		"The summary goes to stdout; errors and the progress line (long runs on a terminal)\n"
		"to stderr. Ctrl-C stops a run cleanly: out files get what was written so far.\n"
		"Exit: 0 ok, 1 run failed (device removed, I/O), 2 usage error, 130 interrupted.\n");
}

/* ---- options ---------------------------------------------------------------- */

enum { OPT_KERNEL = 'k', OPT_GROUPS = 'g', OPT_BLOCK = 'b', OPT_ARG = 'a', OPT_QUEUE = 'q', OPT_CU_MASK = 'c',
       OPT_LAUNCH = 'L' };
#define KERNEL_OPTS "kgbaqcL" /* the options each kernel has; the others are the run's */

const struct option xs_cli_run_opts[] = {
	{ "kernel", required_argument, NULL, OPT_KERNEL },
	{ "groups", required_argument, NULL, OPT_GROUPS },
	{ "block", required_argument, NULL, OPT_BLOCK },
	{ "launch", required_argument, NULL, OPT_LAUNCH },
	{ "arg", required_argument, NULL, OPT_ARG },
	{ "queue", required_argument, NULL, OPT_QUEUE },
	{ "cu-mask", required_argument, NULL, OPT_CU_MASK },
	/* options of the whole run: the first kernel's part only */
	{ "machine", required_argument, NULL, 'm' },
	{ "scratch-waves", required_argument, NULL, 's' },
	{ "title-scratch", required_argument, NULL, 'T' },
	{ "watchdog", required_argument, NULL, 'w' },
	{ "json", no_argument, NULL, 'j' },
	{ "timing", no_argument, NULL, 't' },
	{ "functional", no_argument, NULL, 'f' },
	{ "trace", required_argument, NULL, 'r' },
	{ "svg", required_argument, NULL, 'v' },
	{ "record", required_argument, NULL, 'R' },
	{ "profile", required_argument, NULL, 'P' },
	{ "counters", required_argument, NULL, 'K' },
	{ "threads", required_argument, NULL, 'N' },
	{ "timing-threads", required_argument, NULL, 'M' },
	{ "repeat", required_argument, NULL, 'n' },
	{ "debug-layer", no_argument, NULL, 'D' },
	{ "cc", required_argument, NULL, 'C' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

typedef struct run_opts {
	xs_machine machine;
	uint32_t scratch_waves, threads, timing_threads;
	uint32_t repeat; /* runs of the batch, 0 = given as 1 */
	const char *title_scratch;
	xs_device_desc watch;    /* hang_gpu_us, hang_host_ms, watchdog_wave_insts */
	bool json, functional, debug_layer;
	const char *trace, *svg, *record;
	const char *profile, *counters;
	xs_cc_opts cc;
} run_opts;

typedef struct kernel_cli {
	const char *path, *kernel;
	const char *specs[MAX_ARGS];
	int nspecs, gdims, bdims;
	uint32_t groups[3], block[3], queue;
	uint64_t cu_mask;
	bool queue_given;
	bool launch;             /* --launch given */
	uint32_t launch_lds;     /* bytes, UINT32_MAX = not given */
} kernel_cli;

/* "2s", "1500ms", "20us", "off" -> units of `unit_us` microseconds
 * (XS_WATCHDOG_OFF for off). */
static bool parse_time(const char *s, double unit_us, uint32_t *out)
{
	if (!strcmp(s, "off")) {
		*out = XS_WATCHDOG_OFF;
		return true;
	}
	char *end;
	double v = strtod(s, &end);
	double us = !strcmp(end, "s") ? 1e6 : !strcmp(end, "ms") ? 1e3 : !strcmp(end, "us") ? 1 : 0;
	double n = v * us / unit_us;
	if (end == s || us == 0 || !(v > 0) || n >= XS_WATCHDOG_OFF || n < 0.5)
		return false;
	*out = (uint32_t)(n + 0.5);
	return true;
}

static int parse_watchdog(const char *s, xs_device_desc *d)
{
	if (!strcmp(s, "off")) {
		d->hang_gpu_us = d->hang_host_ms = XS_WATCHDOG_OFF;
		d->watchdog_wave_insts = 0;
		return 0;
	}
	char buf[128];
	if (strlen(s) >= sizeof(buf))
		return xs_cli_usage_error("run", "--watchdog: too long");
	strcpy(buf, s);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *v = strchr(t, '=');
		bool ok = v != NULL;
		if (ok) {
			*v++ = 0;
			if (!strcmp(t, "gpu"))
				ok = parse_time(v, 1, &d->hang_gpu_us);
			else if (!strcmp(t, "host"))
				ok = parse_time(v, 1000, &d->hang_host_ms);
			else if (!strcmp(t, "insts")) {
				uint32_t n;
				ok = !strcmp(v, "off") ? (d->watchdog_wave_insts = 0, true)
						       : xs_cli_parse_u32(v, &n) && n && (d->watchdog_wave_insts = n, true);
			} else
				ok = false;
		}
		if (!ok)
			return xs_cli_usage_error("run", "--watchdog '%s': expected 'off' or a list of gpu=TIME, host=TIME "
						  "(TIME: 2s, 500ms, 20us or off) and insts=N, e.g. gpu=2s,host=30s", s);
	}
	return 0;
}

/* --launch lds=BYTES,x=N,y=N,z=N: S3's launch parameters. The values'
 * rules (S3.3-S3.5, S3.7) are the runtime's, at the dispatch. */
static int parse_launch(const char *arg, kernel_cli *kc)
{
	char buf[200];
	snprintf(buf, sizeof(buf), "%s", arg);
	kc->launch = true;
	bool shape = false;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		uint64_t v = 0;
		if (!eq)
			return xs_cli_usage_error("run", "--launch '%s': '%s' is not lds=BYTES, x=N, y=N or z=N", arg, t);
		*eq = 0;
		if (!strcmp(t, "lds")) {
			if (strcmp(eq + 1, "0") && xs_cli_parse_bytes("run", "--launch lds", eq + 1, 1u << 20, &v))
				return XS_CLI_USAGE_ERROR;
		} else {
			uint32_t u;
			if (!xs_cli_parse_u32(eq + 1, &u))
				return xs_cli_usage_error("run", "--launch %s=%s: expected a number", t, eq + 1);
			v = u;
		}
		if (!strcmp(t, "lds")) {
			if (v % 512)
				return xs_cli_usage_error("run", "--launch lds=%s: LDSSize is in units of 512 bytes (S3.3)",
							  eq + 1);
			kc->launch_lds = (uint32_t)v;
		} else if (!strcmp(t, "x") || !strcmp(t, "y") || !strcmp(t, "z")) {
			if (!shape) {
				kc->block[0] = kc->block[1] = kc->block[2] = 1;
				shape = true;
			}
			kc->block[t[0] - 'x'] = (uint32_t)v;
			kc->bdims = XS_MAX(kc->bdims, t[0] - 'x' + 1);
		} else {
			return xs_cli_usage_error("run", "--launch '%s': '%s' is not lds, x, y or z", arg, t);
		}
	}
	return 0;
}

/* Parses argv[0] = the verb or "--async", then FILE and options; run-wide
 * options only when g != NULL. Returns 0, XS_CLI_USAGE_ERROR, or -1 for
 * --help (printed). */
static int parse_kernel(int argc, char **argv, kernel_cli *kc, run_opts *g, const char *who)
{
	int c, li = -1;
	optind = 1;
	opterr = 0;
	const char *file = NULL;
	/* "+": stop at the first non-option, so FILE may come before or after options. */
	while (optind < argc) {
		if ((c = getopt_long(argc, argv, "+", xs_cli_run_opts, &li)) == -1) {
			if (file)
				return xs_cli_usage_error("run", "%s: one code object file ('%s' and '%s')", who, file,
							  argv[optind]);
			file = argv[optind++];
			continue;
		}
		bool global = strchr(KERNEL_OPTS, c) == NULL;
		if (global && !g && c != 'h') {
			const char *name = li >= 0 ? xs_cli_run_opts[li].name : "?";
			if (c == '?' && optopt == 0 && !strcmp(argv[optind - 1], "--async"))
				return xs_cli_usage_error("run", "a second --async: the command runs at most two kernels at "
							  "once (the first and one --async kernel); the C API takes up to 8");
			if (c == '?')
				return xs_cli_usage_error("run", "%s: unknown option or missing value: '%s'", who,
							  argv[optind - 1]);
			return xs_cli_usage_error("run", "--%s applies to the whole run: put it before --async", name);
		}
		switch (c) {
		case OPT_KERNEL: kc->kernel = optarg; break;
		case OPT_GROUPS:
			if (!(kc->gdims = xs_cli_parse_dims(optarg, kc->groups)))
				return xs_cli_usage_error("run", "--groups '%s': expected X[,Y[,Z]] of positive integers", optarg);
			break;
		case OPT_BLOCK:
			if (!(kc->bdims = xs_cli_parse_dims(optarg, kc->block)))
				return xs_cli_usage_error("run", "--block '%s': expected X[,Y[,Z]] of positive integers", optarg);
			break;
		case OPT_LAUNCH:
			if (parse_launch(optarg, kc))
				return XS_CLI_USAGE_ERROR;
			break;
		case OPT_ARG:
			if (kc->nspecs == MAX_ARGS)
				return xs_cli_usage_error("run", "at most %d --arg", MAX_ARGS);
			kc->specs[kc->nspecs++] = optarg;
			break;
		case OPT_QUEUE:
			if (strcmp(optarg, "direct") && strcmp(optarg, "compute"))
				return xs_cli_usage_error("run", "--queue '%s': direct or compute", optarg);
			if (!g && !strcmp(optarg, "direct"))
				return xs_cli_usage_error("run", "--queue direct after --async: the --async kernel runs on the "
							  "compute queue beside the first; to run the first kernel on the "
							  "compute queue, put --queue compute before --async");
			kc->queue = !strcmp(optarg, "compute");
			kc->queue_given = true;
			break;
		case OPT_CU_MASK: {
			char *end;
			kc->cu_mask = strtoull(optarg, &end, 0);
			if (*end || end == optarg || !kc->cu_mask)
				return xs_cli_usage_error("run", "--cu-mask '%s': a non-zero bit mask of CUs (e.g. 0xff)", optarg);
			break;
		}
		case 'm':
			if (!xs_cli_parse_machine(optarg, &g->machine))
				return xs_cli_usage_error("run", "--machine '%s': seriesx or seriess", optarg);
			break;
		case 's':
			if (!xs_cli_parse_u32(optarg, &g->scratch_waves) || g->scratch_waves == 0)
				return xs_cli_usage_error("run", "--scratch-waves '%s': expected a positive integer", optarg);
			break;
		case 'T': g->title_scratch = optarg; break;
		case 'w':
			if (parse_watchdog(optarg, &g->watch))
				return XS_CLI_USAGE_ERROR;
			break;
		case 'j': g->json = true; break;
		case 't': g->functional = false; break;
		case 'f': g->functional = true; break;
		case 'D': g->debug_layer = true; break;
		case 'r': g->trace = optarg; break;
		case 'v': g->svg = optarg; break;
		case 'R': g->record = optarg; break;
		case 'P': g->profile = optarg; break;
		case 'K': g->counters = optarg; break;
		case 'N':
			if (!xs_cli_parse_u32(optarg, &g->threads) || g->threads == 0)
				return xs_cli_usage_error("run", "--threads '%s': expected a positive integer", optarg);
			break;
		case 'M':
			if (!xs_cli_parse_u32(optarg, &g->timing_threads) || g->timing_threads == 0 ||
			    g->timing_threads > 2)
				return xs_cli_usage_error("run", "--timing-threads '%s': expected 1 or 2", optarg);
			break;
		case 'n':
			if (!xs_cli_parse_u32(optarg, &g->repeat) || g->repeat == 0 || g->repeat > 1000)
				return xs_cli_usage_error("run", "--repeat '%s': expected 1 to 1000 runs", optarg);
			break;
		case 'C': {
			char bad[64];
			if (xs_cc_flags(optarg, &g->cc, bad, sizeof(bad)))
				return xs_cli_usage_error("run", "--cc: unknown flag '%s' (-O0..-O3, --wave64, -g)", bad);
			break;
		}
		case 'h': help(stdout); return -1;
		default:
			return xs_cli_usage_error("run", "unknown option or missing value: '%s'", argv[optind - 1]);
		}
	}
	if (!file)
		return xs_cli_usage_error("run", "%s: expected a code object file", who);
	kc->path = file;
	if (!kc->gdims || !kc->bdims)
		return xs_cli_usage_error("run", "%s: --groups and --block (or --launch x=) are required", who);
	return 0;
}

/* ---- arguments ------------------------------------------------------------------- */

typedef struct run_arg {
	xs_argspec spec;
	uint64_t va; /* GPU buffer */
	uint64_t size;
} run_arg;

/* What a by-value argument's metadata type is (OpenCL .type_name). */
typedef enum { T_NONE, T_SINT, T_UINT, T_FLOAT, T_OTHER } tclass;

static tclass classify(const char *t)
{
	if (!t || !*t)
		return T_NONE;
	while (!strncmp(t, "const ", 6) || !strncmp(t, "volatile ", 9))
		t += t[0] == 'c' ? 6 : 9;
	static const char *const sint[] = { "char", "short", "int", "long", "signed char", "long long", "ptrdiff_t",
					    "intptr_t", NULL };
	static const char *const uint[] = { "uchar", "ushort", "uint", "ulong", "unsigned char", "unsigned short",
					    "unsigned int", "unsigned long", "size_t", "uintptr_t", "bool", NULL };
	static const char *const fl[] = { "half", "float", "double", NULL };
	for (int i = 0; sint[i]; i++)
		if (!strcmp(t, sint[i]))
			return T_SINT;
	for (int i = 0; uint[i]; i++)
		if (!strcmp(t, uint[i]))
			return T_UINT;
	for (int i = 0; fl[i]; i++)
		if (!strcmp(t, fl[i]))
			return T_FLOAT;
	return T_OTHER; /* vectors, structs: checked by size */
}

static tclass spec_class(xs_argspec_kind k)
{
	switch (k) {
	case XS_AS_I32: case XS_AS_I64: return T_SINT;
	case XS_AS_U32: case XS_AS_U64: return T_UINT;
	case XS_AS_F32: case XS_AS_F64: return T_FLOAT;
	default: return T_OTHER;
	}
}

/* The SPEC a by-value argument of this type takes, e.g. "u32:V". */
static const char *wanted(const xs_kernel_arg *a, tclass t)
{
	if (t == T_FLOAT)
		return a->size == 8 ? "f64:V" : a->size == 4 ? "f32:V" : "a float SPEC of its size";
	if (t == T_SINT)
		return a->size == 8 ? "i64:V" : a->size == 4 ? "i32:V" : "an integer SPEC of its size";
	if (t == T_UINT)
		return a->size == 8 ? "u64:V" : a->size == 4 ? "u32:V" : "an integer SPEC of its size";
	return a->size == 8 ? "a 64-bit SPEC (i64, u64, f64)" : a->size == 4 ? "a 32-bit SPEC (i32, u32, f32)"
									   : "a SPEC of its size";
}

static int bad_arg(int j, const char *spec, const xs_kernel_arg *a, const char *why)
{
	char buf[300];
	fprintf(stderr, "xs12 run: --arg %d '%s' does not fit argument %d, %s: %s\n", j, spec, j,
		xs_cli_arg_desc(a, buf, sizeof(buf)), why);
	return XS_CLI_USAGE_ERROR;
}

/* Binds SPECs to the kernel's explicit arguments; writes kernargs. */
static int bind_args(xs_device *dev, const xs_kernel_info *k, run_arg *ra, int nra, const char *const *specs,
		     uint8_t *kargs, uint32_t *dynamic_lds)
{
	int explicit_n = 0;
	for (uint32_t i = 0; i < k->num_args; i++)
		explicit_n += k->args[i].kind != XS_ARG_HIDDEN;
	if (explicit_n != nra) {
		fprintf(stderr, "xs12 run: kernel %s takes %d explicit argument%s, got %d --arg:\n", k->name, explicit_n,
			explicit_n == 1 ? "" : "s", nra);
		char buf[300];
		for (uint32_t i = 0, j = 0; i < k->num_args; i++)
			if (k->args[i].kind != XS_ARG_HIDDEN)
				fprintf(stderr, "  argument %u: %s\n", j++, xs_cli_arg_desc(&k->args[i], buf, sizeof(buf)));
		return XS_CLI_USAGE_ERROR;
	}
	uint32_t lds_off = XS_ALIGN_UP(k->group_segment_fixed_size, 16);
	for (uint32_t i = 0, j = 0; i < k->num_args; i++) {
		const xs_kernel_arg *a = &k->args[i];
		if (a->kind == XS_ARG_HIDDEN)
			continue;
		run_arg *r = &ra[j];
		xs_argspec_kind sk = r->spec.kind;
		char why[200];
		switch (a->kind) {
		case XS_ARG_GLOBAL_BUFFER:
			if (!xs_argspec_is_buffer(&r->spec))
				return bad_arg((int)j, specs[j], a, "a buffer takes in:FILE, out:FILE:BYTES or inout:FILE:OUTFILE");
			break;
		case XS_ARG_DYNAMIC_SHARED_POINTER:
			if (sk != XS_AS_LOCAL)
				return bad_arg((int)j, specs[j], a, "a __local pointer takes local:BYTES");
			break;
		case XS_ARG_BY_VALUE: {
			tclass t = classify(a->type_name);
			size_t vs = xs_argspec_value_size(&r->spec);
			if (!vs)
				return bad_arg((int)j, specs[j], a, "a by-value argument takes i32, u32, i64, u64, f32 or f64");
			if (t == T_NONE && vs != a->size) {
				snprintf(why, sizeof(why), "expected %s (the code object has no type names, as HIP code "
					 "objects do not: checked by size only)", wanted(a, T_OTHER));
				return bad_arg((int)j, specs[j], a, why);
			}
			if ((t != T_NONE && t != T_OTHER && spec_class(sk) != t) || vs != a->size) {
				snprintf(why, sizeof(why), "expected %s", wanted(a, t == T_NONE ? T_OTHER : t));
				return bad_arg((int)j, specs[j], a, why);
			}
			break;
		}
		default:
			return bad_arg((int)j, specs[j], a, "xs12 run cannot pass this kind of argument");
		}
		if (a->kind == XS_ARG_BY_VALUE) {
			xs_argspec_value_bytes(&r->spec, kargs + a->offset);
		} else if (a->kind == XS_ARG_DYNAMIC_SHARED_POINTER) {
			/* The argument is the LDS offset of the dynamic region. */
			uint32_t v = lds_off;
			memcpy(kargs + a->offset, &v, XS_MIN(a->size, 4u));
			lds_off = XS_ALIGN_UP(lds_off + (uint32_t)r->spec.bytes, 16);
			*dynamic_lds = lds_off - k->group_segment_fixed_size; /* alignment gaps included */
		} else {
			char err[600];
			if (xs_argspec_load(&r->spec, err, sizeof(err))) {
				fprintf(stderr, "xs12 run: %s\n", err);
				return 1;
			}
			r->size = r->spec.bytes;
			/* Exactly the bytes asked for: an access past them faults and the
			 * report names this argument (xs_mem_alloc is byte-exact). */
			char name[300];
			snprintf(name, sizeof(name), "--arg %u %s, argument %s (%s)", j, specs[j],
				 a->name && *a->name ? a->name : "unnamed", a->type_name && *a->type_name ? a->type_name : "?");
			if (xs_mem_alloc(dev, r->size, 256, &r->va) || xs_mem_set_name(dev, r->va, name) ||
			    (r->spec.data && xs_mem_write(dev, r->va, r->spec.data, r->size))) {
				fprintf(stderr, "xs12 run: argument %u: %s\n", j, xs_last_error(dev));
				return 1;
			}
			memcpy(kargs + a->offset, &r->va, XS_MIN(a->size, 8u));
		}
		j++;
	}
	return 0;
}

/* ---- progress and Ctrl-C ----------------------------------------------------------- */

static xs_device *volatile running_dev;
static volatile sig_atomic_t interrupts;

static void on_sigint(int sig)
{
	(void)sig;
	if (interrupts++ || !running_dev)
		_exit(130); /* a second Ctrl-C: leave at once */
	xs_device_interrupt(running_dev);
}

typedef struct progress_state {
	double start;
	bool shown;
} progress_state;

static void show_progress(void *user, uint64_t launched, uint64_t total, uint64_t cycles)
{
	progress_state *p = user;
	double t = xs_now_seconds() - p->start;
	if (t < 1.0)
		return;
	char eta[64] = "";
	if (launched && launched < total)
		snprintf(eta, sizeof(eta), ", about %.0f s left", t * (double)(total - launched) / (double)launched);
	fprintf(stderr, "\r%llu/%llu groups launched, %llu cycles simulated, %.0f s%s (Ctrl-C stops)   ",
		(unsigned long long)launched, (unsigned long long)total, (unsigned long long)cycles, t, eta);
	p->shown = true;
}

/* ---- output ------------------------------------------------------------------------- */

static bool json_counters; /* --counters: --json shows them too */

/* One dispatch's figures; with error_field, "error" too (a message or null). */
static void print_stats_json(const xs_kernel_info *k, const kernel_cli *kc, const xs_dispatch_stats *st, bool ok,
			     bool functional, bool error_field, const char *error)
{
	printf("{\"kernel\": ");
	xs_cli_json_string(stdout, k ? k->name : "");
	printf(", \"queue\": \"%s\", \"ok\": %s, \"mode\": \"%s\", \"waves_launched\": %llu, \"wave_instructions\": %llu, "
	       "\"cycles\": %llu, \"start_cycle\": %llu, \"end_cycle\": %llu, \"microseconds\": ",
	       kc->queue ? "compute" : "direct", ok ? "true" : "false", functional ? "functional" : "timing",
	       (unsigned long long)st->waves_launched, (unsigned long long)st->wave_instructions,
	       (unsigned long long)st->cycles, (unsigned long long)st->start_cycle, (unsigned long long)st->end_cycle);
	if (functional)
		printf("null"); /* issue counts are no modelled time */
	else
		printf("%.4f", st->microseconds);
	printf(", \"peak_waves_in_flight\": %u, \"peak_waves_per_simd\": %u, \"avg_waves_per_simd\": %.4f, "
	       "\"peak_scratch_slots\": %u, \"scratch_waves\": %u, \"scratch_wavesize_kb\": %u, \"wait_cycles\": {",
	       st->peak_waves_in_flight, st->peak_waves_per_simd, st->avg_waves_per_simd, st->peak_scratch_slots,
	       st->scratch_waves, st->scratch_wavesize_kb);
	for (int i = 0; i < XS_WAIT_COUNT; i++)
		printf("%s\"%s\": %llu", i ? ", " : "", xs_wait_cause_name((xs_wait_cause)i),
		       (unsigned long long)st->wait_cycles[i]);
	printf("}, \"cu_busy_cycles\": [");
	for (uint32_t i = 0; i < st->num_cu && i < XS_MAX_CUS; i++)
		printf("%s%llu", i ? ", " : "", (unsigned long long)st->cu_busy_cycles[i]);
	printf("], \"host_seconds\": %.6f", st->host_seconds);
	if (json_counters) {
		printf(", \"counters\": ");
		xs_cli_counters_json(stdout, st);
	}
	if (error_field) {
		printf(", \"error\": ");
		if (error)
			xs_cli_json_string(stdout, error);
		else
			printf("null");
	}
	printf("}");
}

static void print_summary(const xs_kernel_info *k, const kernel_cli *kc, const xs_dispatch_stats *st, bool functional)
{
	printf("%s (%s queue): %llu wave%s, %llu wave instructions, ", k->name, kc->queue ? "compute" : "direct",
	       (unsigned long long)st->waves_launched, st->waves_launched == 1 ? "" : "s",
	       (unsigned long long)st->wave_instructions);
	if (functional)
		printf("issue counts %llu..%llu (functional mode: not modelled time)", (unsigned long long)st->start_cycle,
		       (unsigned long long)st->end_cycle);
	else
		printf("cycles %llu..%llu (%.2f us)", (unsigned long long)st->start_cycle, (unsigned long long)st->end_cycle,
		       st->microseconds);
	printf(", peak %u wave%s in flight", st->peak_waves_in_flight, st->peak_waves_in_flight == 1 ? "" : "s");
	if (st->scratch_waves)
		printf(", peak %u of %u scratch slots", st->peak_scratch_slots, st->scratch_waves);
	printf(", %.3f s\n", st->host_seconds);
}

/* ---- the run ------------------------------------------------------------------------- */

typedef struct job {
	kernel_cli *kc;
	xs_module *mod;
	const xs_kernel_info *k;
	run_arg ra[MAX_ARGS];
	int parsed;
	uint8_t *kargs;
	xs_dispatch_desc desc;
} job;

/* The whole of `xs12 run`; with res (xs12 sweep's points), nothing goes to
 * stdout and out files are not written: their bytes' digest and the
 * figures go into *res instead (tools/xs_cli.h). */
static int run_main(int argc, char **argv, xs_cli_run_result *res)
{
	/* "--async FILE ..." starts the second kernel's options. */
	int split = argc;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--async")) {
			split = i;
			break;
		}
	run_opts g = { .machine = XS_MACHINE_SERIES_X, .cc = XS_CC_OPTS_DEFAULT };
	kernel_cli kc[2] = { { .queue = 0, .launch_lds = UINT32_MAX }, { .queue = 1, .launch_lds = UINT32_MAX } };
	int njobs = split < argc ? 2 : 1;
	int r = parse_kernel(split, argv, &kc[0], &g, "first kernel");
	if (r)
		return r < 0 ? 0 : r;
	if (njobs == 2 && (r = parse_kernel(argc - split, argv + split, &kc[1], NULL, "--async kernel")))
		return r < 0 ? 0 : r;
	xs_machine_info mi;
	xs_machine_describe(g.machine, &mi);
	if (g.profile && g.functional)
		return xs_cli_usage_error("run", "--profile needs the timing model: per-instruction cycles and stalls "
					  "are what it measures (drop --functional)");
	/* A repeated run would capture every run: refused, not summed silently. */
	if (g.repeat > 1 && (g.trace || g.svg || g.record || g.profile))
		return xs_cli_usage_error("run", "--repeat %u: not with --trace, --svg, --record or --profile, "
					  "which capture one run", g.repeat);
	json_counters = g.counters != NULL;
	if (g.scratch_waves > mi.max_scratch_waves)
		return xs_cli_usage_error("run", "--scratch-waves %u: at most %u on %s (32 per CU, SPEC S1.13)",
					  g.scratch_waves, mi.max_scratch_waves, mi.name);

	progress_state ps = { .start = xs_now_seconds() };
	xs_device *dev;
	xs_device_desc desc = { .machine = g.machine, .scratch_waves = g.scratch_waves,
				.hang_gpu_us = g.watch.hang_gpu_us, .hang_host_ms = g.watch.hang_host_ms,
				.watchdog_wave_insts = g.watch.watchdog_wave_insts, .functional = g.functional, .debug_layer = g.debug_layer,
				.threads = g.threads, .timing_threads = g.timing_threads, .progress = isatty(2) ? show_progress : NULL, .progress_user = &ps };
	if (xs_device_create(&desc, &dev)) {
		fprintf(stderr, "xs12 run: %s\n", xs_last_error(NULL));
		return XS_CLI_USAGE_ERROR;
	}
	if (g.trace || g.svg)
		xs_device_trace(dev, true);
	if (g.profile && xs_device_profile(dev, true)) {
		fprintf(stderr, "xs12 run: --profile: %s\n", xs_last_error(dev));
		xs_device_destroy(dev);
		return 1;
	}
	job jobs[2];
	memset(jobs, 0, sizeof(jobs));
	int rc = 0;
	const char *err = NULL;
	char errbuf[1200];
	if (g.record && xs_device_record(dev, g.record))
		rc = 1, err = xs_last_error(dev);
	for (int j = 0; j < njobs && !rc; j++) {
		job *jb = &jobs[j];
		jb->kc = &kc[j];
		char cached[4096];
		const char *code = xs_cli_code_path("run", kc[j].path, &g.cc, cached, sizeof(cached));
		if (!code) {
			rc = 1;
			break;
		}
		if (xs_module_load_file(dev, code, &jb->mod)) {
			rc = 1, err = xs_last_error(dev);
			break;
		}
		if (!(jb->k = xs_cli_pick_kernel("run", jb->mod, kc[j].kernel, kc[j].path, &rc)))
			break;
		/* --title-scratch: the queue gets its own ring (SetShaderScratchSpaceX),
		 * in slots of this kernel's need (S1.11). */
		uint64_t per_wave = xs_kernel_scratch_per_wave(jb->k);
		uint32_t slots;
		if (g.title_scratch && per_wave) {
			if ((rc = xs_cli_parse_title_scratch("run", g.title_scratch, per_wave, g.machine, &slots)))
				break;
			uint64_t va;
			char name[64];
			snprintf(name, sizeof(name), "the scratch ring of queue %u (--title-scratch)", kc[j].queue);
			if (xs_mem_alloc(dev, per_wave * slots, 1024, &va) || xs_mem_set_name(dev, va, name) ||
			    xs_set_scratch_space(dev, kc[j].queue, va, per_wave * slots, (uint32_t)per_wave)) {
				snprintf(errbuf, sizeof(errbuf), "--title-scratch: %s", xs_last_error(dev));
				rc = 1, err = errbuf;
				break;
			}
		}
		for (int i = 0; i < kc[j].nspecs && !rc; i++, jb->parsed++) {
			char e[600];
			if (xs_argspec_parse(kc[j].specs[i], &jb->ra[i].spec, e, sizeof(e))) {
				rc = xs_cli_usage_error("run", "%s", e);
				break;
			}
		}
		if (rc)
			break;
		uint32_t dynamic_lds = 0;
		if (!(jb->kargs = calloc(1, jb->k->kernarg_size ? jb->k->kernarg_size : 1))) {
			rc = 1, err = "host out of memory";
			break;
		}
		if ((rc = bind_args(dev, jb->k, jb->ra, kc[j].nspecs, kc[j].specs, jb->kargs, &dynamic_lds)))
			break;
		if (kc[j].launch && kc[j].launch_lds != UINT32_MAX) {
			/* S3.3: the group's whole LDS; what the kernel has beyond its static LDS is dynamic */
			if (kc[j].launch_lds < jb->k->group_segment_fixed_size) {
				rc = xs_cli_usage_error("run", "--launch lds=%u: S3.7: below %s's %u bytes of static LDS",
							kc[j].launch_lds, jb->k->name, jb->k->group_segment_fixed_size);
				break;
			}
			dynamic_lds = kc[j].launch_lds - jb->k->group_segment_fixed_size;
		}
		jb->desc = (xs_dispatch_desc){
			.kernel = jb->k, .module = jb->mod, .kernargs = jb->kargs, .kernargs_size = jb->k->kernarg_size,
			.dynamic_lds = dynamic_lds, .launch_parameters = kc[j].launch,
			.work_dim = (uint32_t)(kc[j].gdims > kc[j].bdims ? kc[j].gdims : kc[j].bdims),
			.queue = kc[j].queue, .cu_mask = kc[j].cu_mask,
		};
		memcpy(jb->desc.groups, kc[j].groups, sizeof(jb->desc.groups));
		memcpy(jb->desc.block, kc[j].block, sizeof(jb->desc.block));
	}

	xs_dispatch_stats st[2];
	memset(st, 0, sizeof(st));
	bool dispatched = false, interrupted = false;
	if (!rc) {
		xs_dispatch_desc descs[2] = { jobs[0].desc, jobs[1].desc };
		running_dev = dev;
		interrupts = 0;
		struct sigaction sa = { .sa_handler = on_sigint }, old;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, &old);
		xs_status s = XS_OK;
		for (uint32_t run = 0; run < XS_MAX(g.repeat, 1u) && !s; run++)
			s = xs_dispatch_batch(dev, descs, (uint32_t)njobs, st);
		sigaction(SIGINT, &old, NULL);
		running_dev = NULL;
		dispatched = true;
		if (s) {
			rc = s == XS_E_INTERRUPTED ? 130 : 1;
			interrupted = s == XS_E_INTERRUPTED;
			err = xs_last_error(dev);
		}
	}
	if (ps.shown)
		fprintf(stderr, "\n");
	/* Out files, also after a device-removed report or an interrupt: what
	 * the waves wrote is there to inspect. */
	uint64_t digest = 0xcbf29ce484222325ull; /* FNV-1a over the out buffers, for res */
	for (int j = 0; j < njobs && dispatched; j++)
		for (int i = 0; i < jobs[j].parsed; i++) {
			run_arg *a = &jobs[j].ra[i];
			if (!a->va || (a->spec.kind != XS_AS_OUT && a->spec.kind != XS_AS_INOUT))
				continue;
			char e[600] = "cannot read the buffer back";
			uint8_t *buf = malloc(a->size);
			bool bad = !buf || xs_mem_read(dev, a->va, buf, a->size);
			if (!bad && res)
				for (uint64_t b = 0; b < a->size; b++)
					digest = (digest ^ buf[b]) * 0x100000001b3ull;
			else if (!bad)
				bad = xs_argspec_store(&a->spec, buf, a->size, e, sizeof(e)) != 0;
			if (bad) {
				fprintf(stderr, "xs12 run: %s\n", buf ? e : "out of memory");
				rc = rc ? rc : 1;
			}
			free(buf);
		}
	if (err)
		fprintf(stderr, "xs12 run: %s%s\n", err, interrupted ? " (Ctrl-C)" : "");
	if (res) {
		res->dispatched = dispatched;
		res->out_digest = digest;
		res->stats = st[0];
		snprintf(res->kernel, sizeof(res->kernel), "%s", jobs[0].k ? jobs[0].k->name : "");
		snprintf(res->error, sizeof(res->error), "%s", err ? err : "");
	} else if (g.json && (dispatched || err)) {
		/* On failure too: "ok": false, "error", and what was measured. */
		if (njobs == 1) {
			print_stats_json(jobs[0].k, &kc[0], &st[0], rc == 0, g.functional, true, err);
		} else {
			printf("{\"dispatches\": [");
			for (int j = 0; j < njobs; j++) {
				printf(j ? ", " : "");
				print_stats_json(jobs[j].k, &kc[j], &st[j], rc == 0, g.functional, false, NULL);
			}
			printf("], \"ok\": %s, \"error\": ", rc == 0 ? "true" : "false");
			if (err)
				xs_cli_json_string(stdout, err);
			else
				printf("null");
			printf("}");
		}
		printf("\n");
	} else if (!g.json && rc == 0) {
		for (int j = 0; j < njobs; j++)
			print_summary(jobs[j].k, &kc[j], &st[j], g.functional);
	}
	/* The library writes these under the temporary name xs_outfile gives, so
	 * a failed write leaves the user's earlier file (xs_outfile.h). */
	xs_outfile of;
	char msg[1200];
	if (dispatched && !res && g.trace) {
		xs_outfile_begin(&of, g.trace);
		if (xs_outfile_end(&of, !xs_trace_write_json(dev, of.tmp))) {
			fprintf(stderr, "xs12 run: --trace %s\n", xs_outfile_msg(&of, xs_last_error(dev), msg, sizeof(msg)));
			rc = rc ? rc : 1;
		}
	}
	if (dispatched && !res && g.svg) {
		xs_outfile_begin(&of, g.svg);
		if (xs_outfile_end(&of, !xs_trace_write_svg(dev, of.tmp))) {
			fprintf(stderr, "xs12 run: --svg %s\n", xs_outfile_msg(&of, xs_last_error(dev), msg, sizeof(msg)));
			rc = rc ? rc : 1;
		}
	}
	if (dispatched && g.profile) {
		/* also after a removal: the profile shows where the waves were */
		xs_profile *prof = NULL;
		xs_outfile_begin(&of, g.profile);
		if (xs_outfile_end(&of, !xs_profile_take(dev, &prof) && !xs_profile_write(prof, of.tmp))) {
			fprintf(stderr, "xs12 run: --profile %s: %s\n", g.profile,
				xs_outfile_msg(&of, xs_last_error(dev), msg, sizeof(msg)));
			rc = rc ? rc : 1;
		}
		xs_profile_destroy(prof);
	}
	if (dispatched && g.counters) {
		const char *names[2] = { jobs[0].k ? jobs[0].k->name : "", njobs > 1 && jobs[1].k ? jobs[1].k->name : "" };
		uint32_t queues[2] = { kc[0].queue, kc[1].queue };
		size_t n = strlen(g.counters);
		bool csv = n >= 4 && !strcmp(g.counters + n - 4, ".csv");
		FILE *f = xs_outfile_open(&of, g.counters, "w");
		if (f)
			xs_cli_counters_write(f, csv, names, queues, st, njobs, mi.sclk_mhz);
		if (!f || xs_outfile_close(&of, f)) {
			fprintf(stderr, "xs12 run: --counters %s: cannot write: %s\n", g.counters,
				errno ? strerror(errno) : "write error");
			rc = rc ? rc : 1;
		}
	}
	/* the recording replaces what was at its path only now, whole (a write
	 * that failed is an error; a run that failed first leaves the path as
	 * it was) */
	if (g.record && xs_device_record(dev, NULL)) {
		fprintf(stderr, "xs12 run: --record: %s\n", xs_last_error(dev));
		rc = rc ? rc : 1;
	}
	for (int j = 0; j < njobs; j++) {
		for (int i = 0; i < jobs[j].parsed; i++) {
			if (jobs[j].ra[i].va)
				xs_mem_free(dev, jobs[j].ra[i].va);
			xs_argspec_free(&jobs[j].ra[i].spec);
		}
		free(jobs[j].kargs);
		xs_module_destroy(jobs[j].mod);
	}
	xs_device_destroy(dev);
	return rc;
}

int xs_cli_run(int argc, char **argv)
{
	return run_main(argc, argv, NULL);
}

int xs_cli_run_point(int argc, char **argv, xs_cli_run_result *res)
{
	memset(res, 0, sizeof(*res));
	int rc = run_main(argc, argv, res);
	return rc < 0 ? 0 : rc;
}
