/* xs12 run FILE ...: one kernel dispatch with arguments from --arg SPECs
 * (tools/xs_argspec.h; the PoCL oracle takes the same syntax). */
#include "xs_cli.h"
#include "xs_argspec.h"

#include <getopt.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 64

static void help(FILE *f)
{
	fprintf(f,
		"usage: xs12 run FILE --groups X[,Y[,Z]] --block X[,Y[,Z]] [--arg SPEC]...\n"
		"                [--kernel NAME] [--queue direct|compute] [--cu-mask M]\n"
		"                [--machine seriesx|seriess] [--scratch-waves N] [--title-scratch N]\n"
		"                [--timing|--functional] [--watchdog N] [--json]\n"
		"                [--trace FILE.json] [--svg FILE.svg] [--record FILE]\n"
		"                [--async FILE2 --groups .. --block .. [--arg ..] [--kernel ..] [--cu-mask ..]]\n"
		"\n"
		"  --groups        thread groups per dimension (as D3D12 Dispatch)\n"
		"  --block         threads per group per dimension\n"
		"  --arg SPEC      one per explicit kernel argument, in order:\n"
		"                  i32:V u32:V i64:V u64:V f32:V f64:V   by value\n"
		"                  in:FILE               buffer filled from FILE\n"
		"                  out:FILE:BYTES        zeroed buffer, written to FILE after the run\n"
		"                  inout:FILE:OUTFILE    filled from FILE, written to OUTFILE\n"
		"                  local:BYTES           dynamic LDS for a __local pointer argument\n"
		"  --kernel        kernel name (needed when the code object has several)\n"
		"  --queue         direct (graphics ring, default) or compute (async compute queue)\n"
		"  --cu-mask M     CUs the dispatch may use, one bit per CU (chip-wide index)\n"
		"  --async FILE2 … a second kernel, on the compute queue, started at the same time\n"
		"  --title-scratch N  each queue gets its own scratch ring of N slots\n"
		"                  (SetShaderScratchSpaceX); default: the driver's shared ring (S1.8)\n"
		"  --timing        timing model (default); --functional: no timing, fastest\n"
		"  --threads N     host threads for --functional (default: all cores)\n"
		"  --trace FILE    Chrome trace / Perfetto JSON timeline, one track per wave slot\n"
		"  --svg FILE      SVG chart of waves in flight and scratch slots over time\n"
		"  --record FILE   save the run (GPU memory, PM4, results) for `xs12 replay`\n"
		"  --scratch-waves compute scratch ring slots (COMPUTE_TMPRING_SIZE.WAVES);\n"
		"                  default: the driver default of SPEC S1.8\n"
		"  --watchdog N    wave instructions a wave may run before the device is removed\n"
		"  --json          print the run's figures as JSON\n");
}

typedef struct run_arg {
	xs_argspec spec;
	uint64_t va; /* GPU buffer */
	uint64_t size;
} run_arg;

static const char *arg_desc(const xs_kernel_arg *a, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s (%s, %u bytes)", a->name && *a->name ? a->name : "?",
		 a->type_name && *a->type_name ? ": " : "", a->type_name ? a->type_name : "", a->value_kind,
		 a->size);
	return buf;
}

/* Binds SPECs to the kernel's explicit arguments; writes kernargs. */
static int bind_args(xs_device *dev, const xs_kernel_info *k, run_arg *ra, int nra, uint8_t *kargs,
		     uint32_t *dynamic_lds)
{
	int explicit_n = 0;
	for (uint32_t i = 0; i < k->num_args; i++)
		explicit_n += k->args[i].kind != XS_ARG_HIDDEN;
	if (explicit_n != nra) {
		fprintf(stderr, "xs12 run: kernel %s takes %d explicit argument%s, got %d --arg:\n", k->name,
			explicit_n, explicit_n == 1 ? "" : "s", nra);
		char buf[256];
		for (uint32_t i = 0, j = 0; i < k->num_args; i++)
			if (k->args[i].kind != XS_ARG_HIDDEN)
				fprintf(stderr, "  argument %u: %s\n", j++, arg_desc(&k->args[i], buf, sizeof(buf)));
		return XS_CLI_USAGE_ERROR;
	}
	uint32_t lds_off = XS_ALIGN_UP_CLI(k->group_segment_fixed_size, 16);
	for (uint32_t i = 0, j = 0; i < k->num_args; i++) {
		const xs_kernel_arg *a = &k->args[i];
		if (a->kind == XS_ARG_HIDDEN)
			continue;
		run_arg *r = &ra[j];
		char buf[256], err[512];
		xs_argspec_kind sk = r->spec.kind;
		bool ok;
		switch (a->kind) {
		case XS_ARG_GLOBAL_BUFFER: ok = xs_argspec_is_buffer(&r->spec); break;
		case XS_ARG_DYNAMIC_SHARED_POINTER: ok = sk == XS_AS_LOCAL; break;
		case XS_ARG_BY_VALUE: ok = xs_argspec_value_size(&r->spec) == a->size; break;
		default: ok = false; break;
		}
		if (!ok) {
			fprintf(stderr, "xs12 run: --arg %d (%s) does not fit argument %u: %s\n", j,
				xs_argspec_kind_name(sk), j, arg_desc(a, buf, sizeof(buf)));
			return XS_CLI_USAGE_ERROR;
		}
		if (a->kind == XS_ARG_BY_VALUE) {
			xs_argspec_value_bytes(&r->spec, kargs + a->offset);
		} else if (a->kind == XS_ARG_DYNAMIC_SHARED_POINTER) {
			/* The argument is the LDS offset of the dynamic region. */
			uint32_t v = lds_off;
			memcpy(kargs + a->offset, &v, XS_MIN_CLI(a->size, 4u));
			lds_off = XS_ALIGN_UP_CLI(lds_off + (uint32_t)r->spec.bytes, 16);
			*dynamic_lds = lds_off - k->group_segment_fixed_size; /* alignment gaps included */
		} else {
			if (xs_argspec_load(&r->spec, err, sizeof(err))) {
				fprintf(stderr, "xs12 run: %s\n", err);
				return 1;
			}
			r->size = r->spec.bytes;
			if (xs_mem_alloc(dev, r->size, 256, &r->va) ||
			    (r->spec.data && xs_mem_write(dev, r->va, r->spec.data, r->size))) {
				fprintf(stderr, "xs12 run: argument %u: %s\n", j, xs_last_error(dev));
				return 1;
			}
			memcpy(kargs + a->offset, &r->va, XS_MIN_CLI(a->size, 8u));
		}
		j++;
	}
	return 0;
}

int xs_cli_run_kernel(xs_device *dev, const xs_module *mod, const xs_kernel_info *k, const uint32_t groups[3],
		      const uint32_t block[3], uint32_t work_dim, const char *const *specs, int nspecs,
		      xs_dispatch_stats *stats)
{
	xs_cli_job job = { .mod = mod, .k = k, .work_dim = work_dim, .specs = specs, .nspecs = nspecs };
	memcpy(job.groups, groups, sizeof(job.groups));
	memcpy(job.block, block, sizeof(job.block));
	return xs_cli_run_jobs(dev, &job, 1, stats);
}

/* Runs jobs as one batch (xs_dispatch_batch): parse and bind every job's
 * SPECs, dispatch, then write out/inout files (also after a device-removed
 * report: what the waves wrote before the fault is there to inspect). */
int xs_cli_run_jobs(xs_device *dev, xs_cli_job *jobs, int njobs, xs_dispatch_stats *stats)
{
	run_arg(*ra)[MAX_ARGS] = calloc((size_t)njobs, sizeof(*ra));
	uint8_t **kargs = calloc((size_t)njobs, sizeof(*kargs));
	xs_dispatch_desc *descs = calloc((size_t)njobs, sizeof(*descs));
	int *parsed = calloc((size_t)njobs, sizeof(*parsed));
	int rc = 0;
	char err[512];
	if (!ra || !kargs || !descs || !parsed) {
		fprintf(stderr, "xs12 run: out of memory\n");
		rc = 1;
		goto out;
	}
	for (int j = 0; j < njobs && !rc; j++) {
		xs_cli_job *job = &jobs[j];
		if (job->nspecs > MAX_ARGS) {
			fprintf(stderr, "xs12 run: at most %d --arg\n", MAX_ARGS);
			rc = XS_CLI_USAGE_ERROR;
			break;
		}
		for (int i = 0; i < job->nspecs; i++, parsed[j]++)
			if (xs_argspec_parse(job->specs[i], &ra[j][i].spec, err, sizeof(err))) {
				fprintf(stderr, "xs12 run: %s\n", err);
				rc = XS_CLI_USAGE_ERROR;
				break;
			}
		if (rc)
			break;
		kargs[j] = calloc(1, job->k->kernarg_size ? job->k->kernarg_size : 1);
		uint32_t dynamic_lds = 0;
		if (!kargs[j] || (rc = bind_args(dev, job->k, ra[j], job->nspecs, kargs[j], &dynamic_lds)))
			break;
		descs[j] = (xs_dispatch_desc){
			.kernel = job->k, .module = job->mod, .kernargs = kargs[j], .kernargs_size = job->k->kernarg_size,
			.dynamic_lds = dynamic_lds, .work_dim = job->work_dim, .queue = job->queue, .cu_mask = job->cu_mask,
		};
		memcpy(descs[j].groups, job->groups, sizeof(descs[j].groups));
		memcpy(descs[j].block, job->block, sizeof(descs[j].block));
	}
	if (!rc && xs_dispatch_batch(dev, descs, (uint32_t)njobs, stats)) {
		fprintf(stderr, "xs12 run: %s\n", xs_last_error(dev));
		rc = 1;
	}
	for (int j = 0; j < njobs && parsed; j++)
		for (int i = 0; i < parsed[j]; i++) {
			run_arg *a = &ra[j][i];
			if (!a->va || (a->spec.kind != XS_AS_OUT && a->spec.kind != XS_AS_INOUT))
				continue;
			uint8_t *buf = malloc(a->size);
			if (!buf || xs_mem_read(dev, a->va, buf, a->size) ||
			    xs_argspec_store(&a->spec, buf, a->size, err, sizeof(err))) {
				fprintf(stderr, "xs12 run: %s\n", buf ? err : "out of memory");
				rc = rc ? rc : 1;
			}
			free(buf);
		}
out:
	for (int j = 0; j < njobs && parsed; j++) {
		for (int i = 0; i < parsed[j]; i++) {
			if (ra[j][i].va)
				xs_mem_free(dev, ra[j][i].va);
			xs_argspec_free(&ra[j][i].spec);
		}
		free(kargs ? kargs[j] : NULL);
	}
	free(ra);
	free(kargs);
	free(descs);
	free(parsed);
	return rc;
}

const xs_kernel_info *xs_cli_pick_kernel(const xs_module *mod, const char *name, const char *path)
{
	uint32_t n = xs_module_kernel_count(mod);
	if (name) {
		const xs_kernel_info *k = xs_module_find_kernel(mod, name);
		if (!k)
			fprintf(stderr, "xs12 run: %s has no kernel '%s'\n", path, name);
		if (!k)
			for (uint32_t i = 0; i < n; i++)
				fprintf(stderr, "  kernel: %s\n", xs_module_kernel(mod, i)->name);
		return k;
	}
	if (n == 1)
		return xs_module_kernel(mod, 0);
	fprintf(stderr, "xs12 run: %s has %u kernels; pick one with --kernel:\n", path, n);
	for (uint32_t i = 0; i < n; i++)
		fprintf(stderr, "  kernel: %s\n", xs_module_kernel(mod, i)->name);
	return NULL;
}

/* Options of one kernel: its file comes first, then these. */
static const struct option kernel_opts[] = {
	{ "kernel", required_argument, NULL, 'k' },
	{ "groups", required_argument, NULL, 'g' },
	{ "block", required_argument, NULL, 'b' },
	{ "arg", required_argument, NULL, 'a' },
	{ "queue", required_argument, NULL, 'q' },
	{ "cu-mask", required_argument, NULL, 'c' },
	/* global options (first kernel only) */
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
	{ "threads", required_argument, NULL, 'N' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

typedef struct run_opts {
	xs_machine machine;
	uint32_t scratch_waves, title_scratch, watchdog, threads;
	bool json, functional;
	const char *trace, *svg, *record;
} run_opts;

typedef struct kernel_opts_t {
	const char *path, *kernel;
	const char *specs[MAX_ARGS];
	int nspecs, gdims, bdims;
	uint32_t groups[3], block[3], queue;
	uint64_t cu_mask;
} kernel_cli;

/* Parses argv[0] = FILE then options; global ones only when g != NULL.
 * Returns 0, XS_CLI_USAGE_ERROR, or -1 for --help (printed). */
static int parse_kernel(int argc, char **argv, kernel_cli *kc, run_opts *g, const char *who)
{
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", kernel_opts, NULL)) != -1) {
		bool global = strchr("msTwjtfrvRN", c) != NULL;
		if (global && !g)
			return xs_cli_usage_error("run", "%s: '%s' applies to the whole run: put it before --async",
						  who, argv[optind - 1]);
		switch (c) {
		case 'k': kc->kernel = optarg; break;
		case 'g':
			if (!(kc->gdims = xs_cli_parse_dims(optarg, kc->groups)))
				return xs_cli_usage_error("run", "--groups '%s': expected X[,Y[,Z]] of positive integers", optarg);
			break;
		case 'b':
			if (!(kc->bdims = xs_cli_parse_dims(optarg, kc->block)))
				return xs_cli_usage_error("run", "--block '%s': expected X[,Y[,Z]] of positive integers", optarg);
			break;
		case 'a':
			if (kc->nspecs == MAX_ARGS)
				return xs_cli_usage_error("run", "at most %d --arg", MAX_ARGS);
			kc->specs[kc->nspecs++] = optarg;
			break;
		case 'q':
			if (!strcmp(optarg, "direct"))
				kc->queue = 0;
			else if (!strcmp(optarg, "compute"))
				kc->queue = 1;
			else
				return xs_cli_usage_error("run", "--queue '%s': direct or compute", optarg);
			break;
		case 'c': {
			char *end;
			kc->cu_mask = strtoull(optarg, &end, 0);
			if (*end || !kc->cu_mask)
				return xs_cli_usage_error("run", "--cu-mask '%s': a non-zero bit mask of CUs (e.g. 0xff)", optarg);
			break;
		}
		case 'm':
			if (!xs_cli_parse_machine(optarg, &g->machine))
				return xs_cli_usage_error("run", "unknown machine '%s' (seriesx, seriess)", optarg);
			break;
		case 's':
			if (!xs_cli_parse_u32(optarg, &g->scratch_waves) || g->scratch_waves == 0)
				return xs_cli_usage_error("run", "--scratch-waves '%s': expected a positive integer", optarg);
			break;
		case 'T':
			if (!xs_cli_parse_u32(optarg, &g->title_scratch) || g->title_scratch == 0)
				return xs_cli_usage_error("run", "--title-scratch '%s': expected a positive integer", optarg);
			break;
		case 'w':
			if (!xs_cli_parse_u32(optarg, &g->watchdog) || g->watchdog == 0)
				return xs_cli_usage_error("run", "--watchdog '%s': expected a positive integer", optarg);
			break;
		case 'j': g->json = true; break;
		case 't': g->functional = false; break;
		case 'f': g->functional = true; break;
		case 'r': g->trace = optarg; break;
		case 'v': g->svg = optarg; break;
		case 'R': g->record = optarg; break;
		case 'N':
			if (!xs_cli_parse_u32(optarg, &g->threads) || g->threads == 0)
				return xs_cli_usage_error("run", "--threads '%s': expected a positive integer", optarg);
			break;
		case 'h': help(stdout); return -1;
		default:
			return xs_cli_usage_error("run", "unknown option or missing value: '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return xs_cli_usage_error("run", "%s: expected one code object file", who);
	kc->path = argv[optind];
	if (!kc->gdims || !kc->bdims)
		return xs_cli_usage_error("run", "%s: --groups and --block are required", who);
	return 0;
}

static void print_stats_json(const xs_kernel_info *k, const kernel_cli *kc, const xs_dispatch_stats *st, bool ok)
{
	printf("{\"kernel\": ");
	xs_cli_json_string(stdout, k->name);
	printf(", \"queue\": \"%s\", \"ok\": %s, \"waves_launched\": %llu, \"wave_instructions\": %llu, "
	       "\"cycles\": %llu, \"start_cycle\": %llu, \"end_cycle\": %llu, \"microseconds\": %.4f, "
	       "\"peak_waves_in_flight\": %u, \"peak_waves_per_simd\": %u, \"avg_waves_per_simd\": %.4f, "
	       "\"peak_scratch_slots\": %u, \"scratch_waves\": %u, \"scratch_wavesize_kb\": %u, \"wait_cycles\": {",
	       kc->queue ? "compute" : "direct", ok ? "true" : "false", (unsigned long long)st->waves_launched,
	       (unsigned long long)st->wave_instructions, (unsigned long long)st->cycles,
	       (unsigned long long)st->start_cycle, (unsigned long long)st->end_cycle, st->microseconds,
	       st->peak_waves_in_flight, st->peak_waves_per_simd, st->avg_waves_per_simd, st->peak_scratch_slots,
	       st->scratch_waves, st->scratch_wavesize_kb);
	for (int i = 0; i < XS_WAIT_COUNT; i++)
		printf("%s\"%s\": %llu", i ? ", " : "", xs_wait_cause_name((xs_wait_cause)i),
		       (unsigned long long)st->wait_cycles[i]);
	printf("}, \"cu_busy_cycles\": [");
	for (uint32_t i = 0; i < st->num_cu && i < XS_MAX_CUS; i++)
		printf("%s%llu", i ? ", " : "", (unsigned long long)st->cu_busy_cycles[i]);
	printf("], \"host_seconds\": %.6f}", st->host_seconds);
}

typedef struct progress_state {
	double start;
	bool shown;
} progress_state;

static void show_progress(void *user, uint64_t launched, uint64_t total, uint64_t cycles)
{
	progress_state *p = user;
	if (xs_cli_now() - p->start < 1.0)
		return;
	fprintf(stderr, "\r%llu/%llu groups launched, %llu cycles simulated   ", (unsigned long long)launched,
		(unsigned long long)total, (unsigned long long)cycles);
	p->shown = true;
}

int xs_cli_run(int argc, char **argv)
{
	/* "--async FILE ..." starts the second kernel's options. */
	int split = argc;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--async")) {
			split = i;
			break;
		}
	run_opts g = { .machine = XS_MACHINE_SERIES_X };
	kernel_cli kc[2] = { { .queue = 0 }, { .queue = 1 } };
	int njobs = split < argc ? 2 : 1;
	int r = parse_kernel(split, argv, &kc[0], &g, "first kernel");
	if (r)
		return r < 0 ? 0 : r;
	if (njobs == 2 && (r = parse_kernel(argc - split, argv + split, &kc[1], NULL, "--async kernel")))
		return r < 0 ? 0 : r;

	progress_state ps = { .start = xs_cli_now() };
	xs_device *dev;
	xs_device_desc desc = { .machine = g.machine, .scratch_waves = g.scratch_waves,
				.watchdog_wave_insts = g.watchdog, .functional = g.functional, .threads = g.threads,
				.progress = isatty(2) ? show_progress : NULL, .progress_user = &ps };
	if (xs_device_create(&desc, &dev)) {
		fprintf(stderr, "xs12 run: %s\n", xs_last_error(NULL));
		return XS_CLI_USAGE_ERROR;
	}
	if (g.trace || g.svg)
		xs_device_trace(dev, true);
	if (g.record && xs_device_record(dev, g.record)) {
		fprintf(stderr, "xs12 run: %s\n", xs_last_error(dev));
		xs_device_destroy(dev);
		return 1;
	}
	xs_module *mods[2] = { 0 };
	xs_cli_job jobs[2];
	int rc = 0;
	for (int j = 0; j < njobs && !rc; j++) {
		if (xs_module_load_file(dev, kc[j].path, &mods[j])) {
			fprintf(stderr, "xs12 run: %s\n", xs_last_error(dev));
			rc = 1;
			break;
		}
		const xs_kernel_info *k = xs_cli_pick_kernel(mods[j], kc[j].kernel, kc[j].path);
		if (!k) {
			rc = 1;
			break;
		}
		jobs[j] = (xs_cli_job){ .mod = mods[j], .k = k, .specs = kc[j].specs, .nspecs = kc[j].nspecs,
					.work_dim = (uint32_t)(kc[j].gdims > kc[j].bdims ? kc[j].gdims : kc[j].bdims),
					.queue = kc[j].queue, .cu_mask = kc[j].cu_mask };
		memcpy(jobs[j].groups, kc[j].groups, sizeof(jobs[j].groups));
		memcpy(jobs[j].block, kc[j].block, sizeof(jobs[j].block));
		/* --title-scratch N: the queue gets its own ring of N slots
		 * (SetShaderScratchSpaceX), sized for this kernel (S1.11). */
		if (g.title_scratch && k->private_segment_fixed_size) {
			uint64_t per_wave = ((uint64_t)k->private_segment_fixed_size * k->wavefront_size + 1023) / 1024 * 1024;
			uint64_t va;
			if (xs_mem_alloc(dev, per_wave * g.title_scratch, 1024, &va) ||
			    xs_set_scratch_space(dev, kc[j].queue, va, per_wave * g.title_scratch, (uint32_t)per_wave)) {
				fprintf(stderr, "xs12 run: --title-scratch: %s\n", xs_last_error(dev));
				rc = 1;
			}
		}
	}
	xs_dispatch_stats st[2];
	memset(st, 0, sizeof(st));
	if (!rc)
		rc = xs_cli_run_jobs(dev, jobs, njobs, st);
	if (ps.shown)
		fprintf(stderr, "\n");
	bool ran = st[0].waves_launched || (njobs == 2 && st[1].waves_launched);
	if (rc == 0 || (rc == 1 && ran)) {
		if (g.json) {
			if (njobs == 1) {
				print_stats_json(jobs[0].k, &kc[0], &st[0], rc == 0);
			} else {
				printf("{\"dispatches\": [");
				for (int j = 0; j < njobs; j++) {
					printf(j ? ", " : "");
					print_stats_json(jobs[j].k, &kc[j], &st[j], rc == 0);
				}
				printf("]}");
			}
			printf("\n");
		} else if (rc == 0) {
			for (int j = 0; j < njobs; j++)
				fprintf(stderr, "%s (%s queue): %llu waves, %llu wave instructions, cycles %llu..%llu "
					"(%.2f us), peak %u waves in flight, peak %u of %u scratch slots, %.3f s\n",
					jobs[j].k->name, kc[j].queue ? "compute" : "direct",
					(unsigned long long)st[j].waves_launched, (unsigned long long)st[j].wave_instructions,
					(unsigned long long)st[j].start_cycle, (unsigned long long)st[j].end_cycle,
					st[j].microseconds, st[j].peak_waves_in_flight, st[j].peak_scratch_slots,
					st[j].scratch_waves, st[j].host_seconds);
		}
		if (g.trace && xs_trace_write_json(dev, g.trace)) {
			fprintf(stderr, "xs12 run: %s\n", xs_last_error(dev));
			rc = rc ? rc : 1;
		}
		if (g.svg && xs_trace_write_svg(dev, g.svg)) {
			fprintf(stderr, "xs12 run: %s\n", xs_last_error(dev));
			rc = rc ? rc : 1;
		}
	}
	for (int j = 0; j < njobs; j++)
		xs_module_destroy(mods[j]);
	xs_device_destroy(dev);
	return rc;
}
