/* xs12 info FILE: each kernel's resources, arguments and theoretical
 * occupancy, with the limit its scratch ring sets (docs/cli.md). */
#include "xs_cli.h"

#include <getopt.h>
#include <string.h>

static void help(FILE *f)
{
	fprintf(f,
		"usage: xs12 info FILE [--kernel NAME] [--block X[,Y[,Z]]] [--dynamic-lds BYTES]\n"
		"                 [--scratch-waves N | --title-scratch SIZE] [--machine seriesx|seriess]\n"
		"                 [--cc FLAGS] [--json]\n"
		"\n"
		"For each kernel of the code object: VGPRs, SGPRs, LDS, scratch per lane and per\n"
		"wave (GetInformationX, SPEC S1.11), wave size, CU or WGP mode, its explicit\n"
		"arguments, and the theoretical occupancy in waves per SIMD with the resource that\n"
		"limits it, including the scratch ring for kernels that use scratch.\n"
		"\n"
		"  --kernel NAME       only this kernel\n"
		"  --block X,Y,Z       group shape (default: the kernel's .max_flat_workgroup_size)\n"
		"  --dynamic-lds BYTES LDS added for __local pointer arguments (K, M, G suffixes)\n"
		"  --scratch-waves N   the driver's ring has N slots (device creation; default: the\n"
		"                      driver default of SPEC S1.8, 4 per CU)\n"
		"  --title-scratch SIZE  the title's own ring (SetShaderScratchSpaceX): N slots, or\n"
		"                      bytes with a K/M/G suffix, in slots of the kernel's per-wave need\n"
		"  --machine M         seriesx (default) or seriess\n"
		"  --cc FLAGS          for FILE.cl / FILE.hip: compiler flags, e.g. '-O0 --wave64'\n"
		"  --json              figures as JSON\n"
		"\n"
		"FILE: a code object (.hsaco, offload bundle, host ELF with .hip_fatbin), or an\n"
		"OpenCL C (.cl) or HIP (.hip) source compiled first (see 'xs12 cc --help').\n"
		"A graphics shader object (xs12 cc --vs/--ps, or llc-15 for amdgcn--amdpal or\n"
		"amdgcn-mesa-mesa3d) shows its stage, ABI, entry, VGPRs, SGPRs, wave size, scratch,\n"
		"exports, PS inputs and the registers LLVM gave.\n");
}

typedef struct info_opts {
	xs_machine machine;
	const char *kernel, *title_scratch;
	uint32_t block[3], group_size, scratch_waves;
	uint64_t dynamic_lds;
	bool json;
} info_opts;

static const char *ring_kind(const info_opts *o)
{
	return o->title_scratch ? "title" : o->scratch_waves ? "scratch-waves" : "default";
}

static void print_json(const xs_kernel_info *k, const xs_occupancy *oc, const info_opts *o, uint32_t group,
		       bool first)
{
	printf("%s{\"name\": ", first ? "" : ", ");
	xs_cli_json_string(stdout, k->name);
	printf(", \"wave_size\": %u, \"mode\": \"%s\", \"vgprs\": %u, \"vgprs_allocated\": %u, \"sgprs\": %u, "
	       "\"lds_bytes\": %u, \"dynamic_lds_bytes\": %llu, \"lds_allocated\": %llu, "
	       "\"scratch_bytes_per_lane\": %u, \"scratch_kb_per_wave\": %llu, \"group_size\": %u, "
	       "\"waves_per_group\": %u, \"arguments\": [",
	       k->wavefront_size, k->wgp_mode ? "wgp" : "cu", k->vgpr_count, oc->vgpr_alloc, k->sgpr_count,
	       k->group_segment_fixed_size, (unsigned long long)o->dynamic_lds, (unsigned long long)oc->lds_alloc,
	       k->private_segment_fixed_size, (unsigned long long)oc->scratch_per_wave / 1024, group,
	       oc->waves_per_group);
	for (uint32_t i = 0, j = 0; i < k->num_args; i++) {
		const xs_kernel_arg *a = &k->args[i];
		if (a->kind == XS_ARG_HIDDEN)
			continue;
		printf("%s{\"name\": ", j++ ? ", " : "");
		xs_cli_json_string(stdout, a->name);
		printf(", \"type\": ");
		xs_cli_json_string(stdout, a->type_name);
		printf(", \"value_kind\": ");
		xs_cli_json_string(stdout, a->value_kind);
		printf(", \"offset\": %u, \"size\": %u}", a->offset, a->size);
	}
	printf("], \"occupancy\": {\"waves_per_simd\": %u, \"limiter\": \"%s\", \"by_wave_slots\": %u, "
	       "\"by_vgpr\": %u, \"by_lds\": %u, \"by_workgroup\": %u",
	       oc->waves_per_simd, xs_limiter_name(oc->limiter), oc->by_slots, oc->by_vgpr, oc->by_lds,
	       oc->by_workgroup);
	if (oc->scratch_en)
		printf(", \"by_scratch\": %u, \"scratch_waves_per_simd\": %.4f", oc->by_scratch,
		       oc->scratch_waves_per_simd);
	printf("}, \"scratch_ring\": ");
	if (oc->scratch_en)
		printf("{\"ring\": \"%s\", \"slots\": %u, \"usable_slots\": %u, \"slot_bytes\": %llu}", ring_kind(o),
		       oc->scratch_slots, oc->scratch_slots_usable, (unsigned long long)oc->scratch_per_wave);
	else
		printf("null");
	printf(", \"hints\": {\"vgprs_for_next_step\": %u, \"next_step_waves_per_simd\": %u, "
	       "\"scratch_slots_for_full_occupancy\": %u}}",
	       oc->vgprs_for_next_step, oc->next_step_waves, oc->scratch_slots_for_full);
}

static void print_text(const xs_kernel_info *k, const xs_occupancy *oc, const info_opts *o, uint32_t group,
		       const xs_machine_info *mi)
{
	printf("\nkernel %s\n", k->name);
	printf("  wave size      wave%u, %s mode\n", k->wavefront_size, k->wgp_mode ? "WGP" : "CU");
	printf("  VGPRs          %u (%u allocated per wave)\n", k->vgpr_count, oc->vgpr_alloc);
	printf("  SGPRs          %u\n", k->sgpr_count);
	if (oc->lds_alloc > mi->lds_max_per_group)
		printf("  LDS            %llu bytes per group: over the %u a group can have (SPEC S3.3)\n",
		       (unsigned long long)k->group_segment_fixed_size + o->dynamic_lds, mi->lds_max_per_group);
	else if (o->dynamic_lds)
		printf("  LDS            %u bytes static + %llu dynamic per group (%llu allocated)\n",
		       k->group_segment_fixed_size, (unsigned long long)o->dynamic_lds, (unsigned long long)oc->lds_alloc);
	else
		printf("  LDS            %u bytes per group (%llu allocated)\n", k->group_segment_fixed_size,
		       (unsigned long long)oc->lds_alloc);
	if (oc->scratch_en)
		printf("  scratch        %u bytes per lane = %llu KB per wave (GetInformationX: %llu, SPEC S1.11)\n",
		       k->private_segment_fixed_size, (unsigned long long)oc->scratch_per_wave / 1024,
		       (unsigned long long)oc->scratch_per_wave / 1024);
	else
		printf("  scratch        none (SCRATCH_EN is 0)\n");
	if (o->block[0])
		printf("  group size     %u threads = %u waves (--block %u,%u,%u)\n", group, oc->waves_per_group,
		       o->block[0], o->block[1], o->block[2]);
	else
		printf("  group size     %u threads = %u waves (.max_flat_workgroup_size)\n", group,
		       oc->waves_per_group);
	char buf[300];
	int nexp = 0;
	for (uint32_t i = 0; i < k->num_args; i++)
		if (k->args[i].kind != XS_ARG_HIDDEN) {
			printf("  %-14s %d: %s\n", nexp ? "" : "arguments", nexp,
			       xs_cli_arg_desc(&k->args[i], buf, sizeof(buf)));
			nexp++;
		}
	if (!nexp)
		printf("  arguments      none\n");
	if (oc->waves_per_simd == 0)
		printf("  occupancy      0: a group can never launch, limited by %s\n", xs_limiter_name(oc->limiter));
	else if (oc->limiter == XS_LIMIT_SCRATCH)
		printf("  occupancy      %.2f waves per SIMD on average, limited by scratch\n", oc->scratch_waves_per_simd);
	else
		printf("  occupancy      %u waves per SIMD, limited by %s\n", oc->waves_per_simd,
		       xs_limiter_name(oc->limiter));
	printf("                 (wave slots %u, VGPRs %u, LDS %u, workgroup %u", oc->by_slots, oc->by_vgpr, oc->by_lds,
	       oc->by_workgroup);
	if (oc->scratch_en)
		printf(", scratch %.2f", oc->scratch_waves_per_simd);
	printf(")\n");
	if (oc->scratch_en) {
		uint32_t nsimd = mi->num_cu * mi->simds_per_cu;
		const char *what = o->title_scratch ? "the title's ring (SetShaderScratchSpaceX)"
				 : o->scratch_waves ? "the driver's ring (--scratch-waves)"
						    : "the driver's default ring (SPEC S1.8)";
		printf("  scratch ring   %s: %u slots of %llu KB = %.1f MB\n", what, oc->scratch_slots,
		       (unsigned long long)oc->scratch_per_wave / 1024,
		       (double)oc->scratch_slots * (double)oc->scratch_per_wave / (1 << 20));
		if (oc->scratch_slots_usable < oc->scratch_slots)
			printf("                 of which %u usable: 32 waves per CU (SPEC S1.13)\n", oc->scratch_slots_usable);
		printf("                 = %.1f per CU, %.2f per SIMD on average over %u CUs. The ring is one\n"
		       "                 pool for the whole chip on gfx10.3: a SIMD may hold more than the\n"
		       "                 average (up to %u) while others hold none.\n",
		       (double)oc->scratch_slots_usable / mi->num_cu, (double)oc->scratch_slots_usable / nsimd, mi->num_cu,
		       oc->by_slots);
	}
	if (oc->limiter == XS_LIMIT_VGPR && oc->vgprs_for_next_step)
		printf("  hint           at most %u VGPRs (%u fewer) give %u waves per SIMD\n", oc->vgprs_for_next_step,
		       oc->vgpr_alloc - oc->vgprs_for_next_step, oc->next_step_waves);
	if (oc->limiter == XS_LIMIT_SCRATCH && oc->scratch_slots_for_full)
		printf("  hint           a ring of %u slots (%.1f MB, --title-scratch %u) reaches %u waves per SIMD,\n"
		       "                 what the other limits allow\n",
		       oc->scratch_slots_for_full, (double)oc->scratch_slots_for_full * (double)oc->scratch_per_wave / (1 << 20),
		       oc->scratch_slots_for_full,
		       XS_MIN(XS_MIN(oc->by_slots, oc->by_vgpr), XS_MIN(oc->by_lds, oc->by_workgroup)));
}

int xs_cli_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "machine", required_argument, NULL, 'm' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "block", required_argument, NULL, 'b' },
		{ "dynamic-lds", required_argument, NULL, 'l' },
		{ "scratch-waves", required_argument, NULL, 's' },
		{ "title-scratch", required_argument, NULL, 'T' },
		{ "cc", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	info_opts o = { .machine = XS_MACHINE_SERIES_X };
	xs_cc_opts cc = XS_CC_OPTS_DEFAULT;
	int c, li;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, &li)) != -1) {
		char bad[64];
		switch (c) {
		case 'j': o.json = true; break;
		case 'm':
			if (!xs_cli_parse_machine(optarg, &o.machine))
				return xs_cli_usage_error("info", "--machine '%s': seriesx or seriess", optarg);
			break;
		case 'k': o.kernel = optarg; break;
		case 'b': {
			if (!xs_cli_parse_dims(optarg, o.block))
				return xs_cli_usage_error("info", "--block '%s': expected X[,Y[,Z]] of positive integers", optarg);
			/* X*Y*Z needs up to 96 bits and must not wrap (65536,65536 is
			 * not 0 threads): X*Y fits in 64, times Z is taken only when it
			 * fits too. A size that fits 32 bits goes to the occupancy
			 * query, which holds it to the machine's limit. */
			uint64_t xy = (uint64_t)o.block[0] * o.block[1];
			bool fits = xy <= UINT64_MAX / o.block[2];
			uint64_t threads = fits ? xy * o.block[2] : UINT64_MAX;
			if (threads > UINT32_MAX)
				return xs_cli_usage_error("info", "--block %s: %s%llu threads, more than any group has",
							  optarg, fits ? "" : "over ", (unsigned long long)threads);
			o.group_size = (uint32_t)threads;
			break;
		}
		case 'l':
			if (xs_cli_parse_bytes("info", "--dynamic-lds", optarg, 1u << 30, &o.dynamic_lds))
				return XS_CLI_USAGE_ERROR;
			break;
		case 's':
			if (!xs_cli_parse_u32(optarg, &o.scratch_waves) || !o.scratch_waves)
				return xs_cli_usage_error("info", "--scratch-waves '%s': expected a positive integer", optarg);
			break;
		case 'T': o.title_scratch = optarg; break;
		case 'c':
			if (xs_cc_flags(optarg, &cc, bad, sizeof(bad)))
				return xs_cli_usage_error("info", "--cc: unknown flag '%s' (-O0..-O3, --wave64, -g)", bad);
			break;
		case 'h': help(stdout); return 0;
		default:
			return xs_cli_usage_error("info", "unknown option or missing value: '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return xs_cli_usage_error("info", "expected one code object file");
	if (o.title_scratch && o.scratch_waves)
		return xs_cli_usage_error("info", "--scratch-waves sizes the driver's ring, --title-scratch the title's: "
					  "give one");
	xs_machine_info mi;
	xs_machine_describe(o.machine, &mi);
	if (o.scratch_waves > mi.max_scratch_waves)
		return xs_cli_usage_error("info", "--scratch-waves %u: at most %u on %s (32 per CU, SPEC S1.13)",
					  o.scratch_waves, mi.max_scratch_waves, mi.name);
	const char *path = argv[optind];
	char cached[4096];
	const char *code = xs_cli_code_path("info", path, &cc, cached, sizeof(cached));
	if (!code)
		return 1;
	if (xs_cli_is_gfx_file(code)) /* a VS or PS object (amdpal / mesa3d) */
		return xs_cli_info_gfx(path, o.json);

	xs_device *dev;
	xs_device_desc desc = { .machine = o.machine };
	xs_module *mod;
	if (xs_device_create(&desc, &dev)) {
		fprintf(stderr, "xs12 info: %s\n", xs_last_error(NULL));
		return 1;
	}
	if (xs_module_load_file(dev, code, &mod)) {
		fprintf(stderr, "xs12 info: %s\n", xs_last_error(dev));
		xs_device_destroy(dev);
		return 1;
	}
	int rc = 0;
	const xs_kernel_info *only = NULL;
	if (o.kernel && !(only = xs_cli_pick_kernel("info", mod, o.kernel, path, &rc))) {
		xs_module_destroy(mod);
		xs_device_destroy(dev);
		return rc;
	}
	uint32_t n = xs_module_kernel_count(mod);
	if (o.json) {
		printf("{\"file\": ");
		xs_cli_json_string(stdout, path);
		printf(", \"machine\": ");
		xs_cli_json_string(stdout, mi.name);
		printf(", \"target\": ");
		xs_cli_json_string(stdout, xs_module_target(mod));
		printf(", \"code_object_version\": %u, \"kernels\": [", xs_module_code_object_version(mod));
	} else {
		printf("%s: %s, code object v%u, %u kernel%s, on %s\n", path, xs_module_target(mod),
		       xs_module_code_object_version(mod), n, n == 1 ? "" : "s", mi.name);
	}
	bool first = true;
	for (uint32_t i = 0; i < n; i++) {
		const xs_kernel_info *k = xs_module_kernel(mod, i);
		if (only && k != only)
			continue;
		xs_occupancy oc;
		xs_occupancy_query q = { .group_size = o.group_size, .dynamic_lds = (uint32_t)o.dynamic_lds,
					 .scratch_slots = o.scratch_waves };
		uint64_t per_wave = xs_kernel_scratch_per_wave(k);
		if (o.title_scratch && per_wave &&
		    (rc = xs_cli_parse_title_scratch("info", o.title_scratch, per_wave, o.machine, &q.scratch_slots)))
			break;
		if (xs_kernel_occupancy(o.machine, k, &q, &oc)) {
			fprintf(stderr, "xs12 info: %s: %s\n", k->name, xs_last_error(NULL));
			rc = 1;
			continue;
		}
		uint32_t group = q.group_size ? q.group_size : k->max_flat_workgroup_size;
		if (o.json)
			print_json(k, &oc, &o, group, first);
		else
			print_text(k, &oc, &o, group, &mi);
		first = false;
	}
	if (o.json)
		printf("]}\n");
	xs_module_destroy(mod);
	xs_device_destroy(dev);
	return rc;
}
