/* xs12 run FILE ...: one kernel dispatch with arguments from --arg SPECs
 * (tools/xs_argspec.h; the PoCL oracle takes the same syntax). */
#include "xs_cli.h"
#include "xs_argspec.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 64

static void help(FILE *f)
{
	fprintf(f,
		"usage: xs12 run FILE --groups X[,Y[,Z]] --block X[,Y[,Z]] [--arg SPEC]...\n"
		"                [--kernel NAME] [--machine seriesx|seriess] [--scratch-waves N]\n"
		"                [--watchdog N] [--json]\n"
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
	run_arg ra[MAX_ARGS];
	memset(ra, 0, sizeof(ra));
	int rc = 0;
	char err[512];
	if (nspecs > MAX_ARGS) {
		fprintf(stderr, "xs12 run: at most %d --arg\n", MAX_ARGS);
		return XS_CLI_USAGE_ERROR;
	}
	for (int i = 0; i < nspecs; i++)
		if (xs_argspec_parse(specs[i], &ra[i].spec, err, sizeof(err))) {
			fprintf(stderr, "xs12 run: %s\n", err);
			rc = XS_CLI_USAGE_ERROR;
			nspecs = i;
			goto out;
		}
	uint8_t *kargs = calloc(1, k->kernarg_size ? k->kernarg_size : 1);
	uint32_t dynamic_lds = 0;
	rc = bind_args(dev, k, ra, nspecs, kargs, &dynamic_lds);
	if (rc == 0) {
		xs_dispatch_desc d = {
			.kernel = k, .module = mod, .kernargs = kargs, .kernargs_size = k->kernarg_size,
			.dynamic_lds = dynamic_lds, .work_dim = work_dim,
		};
		memcpy(d.groups, groups, sizeof(d.groups));
		memcpy(d.block, block, sizeof(d.block));
		if (xs_dispatch(dev, &d, stats)) {
			fprintf(stderr, "xs12 run: %s\n", xs_last_error(dev));
			rc = 1;
		}
	}
	free(kargs);
	/* Results are written even after a device-removed report: what the
	 * waves wrote before the fault is there to inspect. */
	for (int i = 0; i < nspecs; i++) {
		if (!ra[i].va || (ra[i].spec.kind != XS_AS_OUT && ra[i].spec.kind != XS_AS_INOUT))
			continue;
		uint8_t *buf = malloc(ra[i].size);
		if (!buf || xs_mem_read(dev, ra[i].va, buf, ra[i].size) ||
		    xs_argspec_store(&ra[i].spec, buf, ra[i].size, err, sizeof(err))) {
			fprintf(stderr, "xs12 run: %s\n", buf ? err : "out of memory");
			rc = rc ? rc : 1;
		}
		free(buf);
	}
out:
	for (int i = 0; i < nspecs; i++) {
		if (ra[i].va)
			xs_mem_free(dev, ra[i].va);
		xs_argspec_free(&ra[i].spec);
	}
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

int xs_cli_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "groups", required_argument, NULL, 'g' },
		{ "block", required_argument, NULL, 'b' },
		{ "arg", required_argument, NULL, 'a' },
		{ "machine", required_argument, NULL, 'm' },
		{ "scratch-waves", required_argument, NULL, 's' },
		{ "watchdog", required_argument, NULL, 'w' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *kernel = NULL, *specs[MAX_ARGS];
	int nspecs = 0, gdims = 0, bdims = 0;
	uint32_t groups[3], block[3], scratch_waves = 0, watchdog = 0;
	bool json = false;
	xs_machine machine = XS_MACHINE_SERIES_X;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'k': kernel = optarg; break;
		case 'g':
			if (!(gdims = xs_cli_parse_dims(optarg, groups)))
				return xs_cli_usage_error("run", "--groups '%s': expected X[,Y[,Z]] of positive integers", optarg);
			break;
		case 'b':
			if (!(bdims = xs_cli_parse_dims(optarg, block)))
				return xs_cli_usage_error("run", "--block '%s': expected X[,Y[,Z]] of positive integers", optarg);
			break;
		case 'a':
			if (nspecs == MAX_ARGS)
				return xs_cli_usage_error("run", "at most %d --arg", MAX_ARGS);
			specs[nspecs++] = optarg;
			break;
		case 'm':
			if (!xs_cli_parse_machine(optarg, &machine))
				return xs_cli_usage_error("run", "unknown machine '%s' (seriesx, seriess)", optarg);
			break;
		case 's':
			if (!xs_cli_parse_u32(optarg, &scratch_waves) || scratch_waves == 0)
				return xs_cli_usage_error("run", "--scratch-waves '%s': expected a positive integer", optarg);
			break;
		case 'w':
			if (!xs_cli_parse_u32(optarg, &watchdog) || watchdog == 0)
				return xs_cli_usage_error("run", "--watchdog '%s': expected a positive integer", optarg);
			break;
		case 'j': json = true; break;
		case 'h': help(stdout); return 0;
		default:
			return xs_cli_usage_error("run", "unknown option or missing value: '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return xs_cli_usage_error("run", "expected one code object file");
	if (!gdims || !bdims)
		return xs_cli_usage_error("run", "--groups and --block are required");
	const char *path = argv[optind];

	xs_device *dev;
	xs_device_desc desc = { .machine = machine, .scratch_waves = scratch_waves, .watchdog_wave_insts = watchdog };
	if (xs_device_create(&desc, &dev)) {
		fprintf(stderr, "xs12 run: %s\n", xs_last_error(NULL));
		return XS_CLI_USAGE_ERROR;
	}
	xs_module *mod;
	if (xs_module_load_file(dev, path, &mod)) {
		fprintf(stderr, "xs12 run: %s\n", xs_last_error(dev));
		xs_device_destroy(dev);
		return 1;
	}
	int rc = 1;
	const xs_kernel_info *k = xs_cli_pick_kernel(mod, kernel, path);
	xs_dispatch_stats st = { 0 };
	if (k) {
		uint32_t work_dim = (uint32_t)(gdims > bdims ? gdims : bdims);
		rc = xs_cli_run_kernel(dev, mod, k, groups, block, work_dim, specs, nspecs, &st);
	}
	if (k && (rc == 0 || st.waves_launched)) {
		if (json) {
			printf("{\"kernel\": ");
			xs_cli_json_string(stdout, k->name);
			printf(", \"ok\": %s, \"waves_launched\": %llu, \"wave_instructions\": %llu, \"cycles\": %llu, "
			       "\"peak_waves_in_flight\": %u, \"peak_scratch_slots\": %u, \"scratch_waves\": %u, "
			       "\"scratch_wavesize_kb\": %u, \"host_seconds\": %.6f}\n",
			       rc == 0 ? "true" : "false", (unsigned long long)st.waves_launched,
			       (unsigned long long)st.wave_instructions, (unsigned long long)st.cycles,
			       st.peak_waves_in_flight, st.peak_scratch_slots, st.scratch_waves,
			       st.scratch_wavesize_kb, st.host_seconds);
		} else if (rc == 0) {
			fprintf(stderr, "%s: %llu waves, %llu wave instructions, %llu cycles, peak %u waves in flight, "
				"peak %u of %u scratch slots, %.3f s\n", k->name, (unsigned long long)st.waves_launched,
				(unsigned long long)st.wave_instructions, (unsigned long long)st.cycles,
				st.peak_waves_in_flight, st.peak_scratch_slots, st.scratch_waves, st.host_seconds);
		}
	}
	xs_module_destroy(mod);
	xs_device_destroy(dev);
	return rc;
}
