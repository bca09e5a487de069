/* xs12 info FILE: each kernel's resources and theoretical occupancy. */
#include "xs_cli.h"

#include <getopt.h>
#include <string.h>

static void help(FILE *f)
{
	fprintf(f, "usage: xs12 info FILE [--json] [--machine seriesx|seriess]\n"
		   "\n"
		   "For each kernel of the code object: VGPRs, SGPRs, LDS bytes, scratch bytes per\n"
		   "lane and 1 KB units per wave (GetInformationX, SPEC S1.11), wave size, CU or WGP\n"
		   "mode, and theoretical occupancy in waves per SIMD with the limiting resource, for\n"
		   "a group of the kernel's .max_flat_workgroup_size threads.\n");
}

int xs_cli_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "machine", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	bool json = false;
	xs_machine machine = XS_MACHINE_SERIES_X;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'm':
			if (!xs_cli_parse_machine(optarg, &machine))
				return xs_cli_usage_error("info", "unknown machine '%s' (seriesx, seriess)", optarg);
			break;
		case 'h': help(stdout); return 0;
		default: return xs_cli_usage_error("info", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return xs_cli_usage_error("info", "expected one code object file");
	const char *path = argv[optind];

	xs_device *dev;
	xs_device_desc desc = { .machine = machine };
	xs_module *mod;
	if (xs_device_create(&desc, &dev)) {
		fprintf(stderr, "xs12 info: %s\n", xs_last_error(NULL));
		return 1;
	}
	if (xs_module_load_file(dev, path, &mod)) {
		fprintf(stderr, "xs12 info: %s\n", xs_last_error(dev));
		xs_device_destroy(dev);
		return 1;
	}
	uint32_t n = xs_module_kernel_count(mod);
	if (json) {
		printf("{\"file\": ");
		xs_cli_json_string(stdout, path);
		printf(", \"target\": ");
		xs_cli_json_string(stdout, xs_module_target(mod));
		printf(", \"code_object_version\": %u, \"kernels\": [", xs_module_code_object_version(mod));
	} else {
		printf("%s: %s, code object v%u, %u kernel%s\n", path, xs_module_target(mod),
		       xs_module_code_object_version(mod), n, n == 1 ? "" : "s");
	}
	int rc = 0;
	for (uint32_t i = 0; i < n; i++) {
		const xs_kernel_info *k = xs_module_kernel(mod, i);
		xs_occupancy o;
		if (xs_kernel_occupancy(machine, k, 0, 0, &o)) {
			fprintf(stderr, "xs12 info: %s: %s\n", k->name, xs_last_error(NULL));
			rc = 1;
			continue;
		}
		uint32_t scratch_kb = (k->private_segment_fixed_size * k->wavefront_size + 1023) / 1024;
		const char *mode = k->wgp_mode ? "wgp" : "cu";
		if (json) {
			printf("%s{\"name\": ", i ? ", " : "");
			xs_cli_json_string(stdout, k->name);
			printf(", \"wave_size\": %u, \"mode\": \"%s\", \"vgprs\": %u, \"vgprs_allocated\": %u, "
			       "\"sgprs\": %u, \"lds_bytes\": %u, \"scratch_bytes_per_lane\": %u, "
			       "\"scratch_kb_per_wave\": %u, \"group_size\": %u, \"occupancy\": {"
			       "\"waves_per_simd\": %u, \"limiter\": \"%s\", \"by_wave_slots\": %u, \"by_vgpr\": %u, "
			       "\"by_lds\": %u, \"by_workgroup\": %u}}",
			       k->wavefront_size, mode, k->vgpr_count, o.vgpr_alloc, k->sgpr_count,
			       k->group_segment_fixed_size, k->private_segment_fixed_size, scratch_kb,
			       k->max_flat_workgroup_size, o.waves_per_simd, xs_limiter_name(o.limiter), o.by_slots,
			       o.by_vgpr, o.by_lds, o.by_workgroup);
		} else {
			printf("\nkernel %s\n", k->name);
			printf("  wave size      wave%u, %s mode\n", k->wavefront_size, k->wgp_mode ? "WGP" : "CU");
			printf("  VGPRs          %u (%u allocated per wave)\n", k->vgpr_count, o.vgpr_alloc);
			printf("  SGPRs          %u\n", k->sgpr_count);
			printf("  LDS            %u bytes per group (%u allocated)\n", k->group_segment_fixed_size,
			       o.lds_alloc);
			printf("  scratch        %u bytes per lane, %u KB per wave\n", k->private_segment_fixed_size,
			       scratch_kb);
			printf("  group size     %u threads = %u waves (.max_flat_workgroup_size)\n",
			       k->max_flat_workgroup_size, o.waves_per_group);
			printf("  occupancy      %u waves per SIMD, limited by %s\n", o.waves_per_simd,
			       xs_limiter_name(o.limiter));
			printf("                 (wave slots %u, VGPRs %u, LDS %u, workgroup %u)\n", o.by_slots,
			       o.by_vgpr, o.by_lds, o.by_workgroup);
		}
	}
	if (json)
		printf("]}\n");
	xs_module_destroy(mod);
	xs_device_destroy(dev);
	return rc;
}
