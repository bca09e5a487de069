/*
 * Test tool: parses a code object with xs_codeobj_parse and prints the result
 * as JSON, for check_vs_readelf.py to compare with LLVM's tools.
 * Usage: codeobj_dump FILE. Exit 0 on success; 1 with the error on stderr.
 */
#include <stdio.h>
#include <stdlib.h>

#include "codeobj/xs_codeobj.h"

static void json_str(const char *s)
{
	putchar('"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

static const char *kind_name(xs_arg_kind k)
{
	switch (k) {
	case XS_ARG_BY_VALUE: return "BY_VALUE";
	case XS_ARG_GLOBAL_BUFFER: return "GLOBAL_BUFFER";
	case XS_ARG_DYNAMIC_SHARED_POINTER: return "DYNAMIC_SHARED_POINTER";
	case XS_ARG_HIDDEN: return "HIDDEN";
	case XS_ARG_OTHER: return "OTHER";
	}
	return "?";
}

/* Local: the API layer's xs_status_name is not linked into layer tests. */
static const char *status_name(xs_status s)
{
	static const char *const names[] = {
		"XS_OK", "XS_E_INVALID_ARG", "XS_E_BAD_CODE_OBJECT", "XS_E_UNSUPPORTED",
		"XS_E_NOT_FOUND", "XS_E_OUT_OF_MEMORY", "XS_E_IO", "XS_E_DEVICE_REMOVED",
	};
	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

static void dump_kernel(const xs_codeobj_kernel *k)
{
	const xs_kernel_info *i = &k->info;
	printf("    {\"name\": ");
	json_str(i->name);
	printf(", \"symbol\": ");
	json_str(k->symbol);
	printf(",\n     \"kd_vaddr\": %llu, \"entry_vaddr\": %llu, \"code_size\": %llu, \"kd_hex\": \"",
	       (unsigned long long)k->kd_vaddr, (unsigned long long)k->entry_vaddr,
	       (unsigned long long)k->code_size);
	for (int b = 0; b < XS_KD_SIZE; b++)
		printf("%02x", k->kd[b]);
	printf("\",\n     \"group_segment_fixed_size\": %u, \"private_segment_fixed_size\": %u, "
	       "\"kernarg_size\": %u, \"kernarg_segment_align\": %u, \"wavefront_size\": %u, "
	       "\"sgpr_count\": %u, \"vgpr_count\": %u, \"max_flat_workgroup_size\": %u,\n"
	       "     \"rsrc1\": %u, \"rsrc2\": %u, \"rsrc3\": %u, \"kernel_code_properties\": %u, "
	       "\"wgp_mode\": %s, \"uses_dynamic_stack\": %s,\n     \"args\": [",
	       i->group_segment_fixed_size, i->private_segment_fixed_size, i->kernarg_size,
	       k->kernarg_segment_align, i->wavefront_size, i->sgpr_count, i->vgpr_count,
	       i->max_flat_workgroup_size, i->rsrc1, i->rsrc2, i->rsrc3, i->kernel_code_properties,
	       i->wgp_mode ? "true" : "false", i->uses_dynamic_stack ? "true" : "false");
	for (uint32_t a = 0; a < i->num_args; a++) {
		const xs_kernel_arg *g = &i->args[a];
		printf("%s\n       {\"name\": ", a ? "," : "");
		json_str(g->name);
		printf(", \"type_name\": ");
		json_str(g->type_name);
		printf(", \"value_kind\": ");
		json_str(g->value_kind);
		printf(", \"address_space\": ");
		json_str(k->arg_address_space[a]);
		printf(", \"kind\": \"%s\", \"offset\": %u, \"size\": %u}", kind_name(g->kind), g->offset,
		       g->size);
	}
	printf("]}");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	xs_err e;
	xs_err_clear(&e);
	uint8_t *data;
	size_t size;
	xs_codeobj *co = NULL;
	if (xs_read_file(argv[1], 1u << 30, &data, &size, &e) != XS_OK ||
	    xs_codeobj_parse(data, size, &co, &e) != XS_OK) {
		fprintf(stderr, "%s: %s: %s\n", argv[1], status_name(e.status), e.msg);
		return 1;
	}
	free(data);
	printf("{\"target\": ");
	json_str(co->target);
	printf(", \"processor\": ");
	json_str(co->processor);
	printf(", \"code_object_version\": %u, \"image_size\": %zu, \"load_size\": %llu,\n",
	       co->code_object_version, co->image_size, (unsigned long long)co->load_size);
	printf(" \"segments\": [");
	for (uint32_t i = 0; i < co->nsegs; i++)
		printf("%s{\"vaddr\": %llu, \"memsz\": %llu, \"offset\": %llu, \"filesz\": %llu, "
		       "\"flags\": %u}",
		       i ? ", " : "", (unsigned long long)co->segs[i].vaddr,
		       (unsigned long long)co->segs[i].memsz, (unsigned long long)co->segs[i].offset,
		       (unsigned long long)co->segs[i].filesz, co->segs[i].flags);
	printf("],\n \"relocs\": [");
	for (uint32_t i = 0; i < co->nrelocs; i++)
		printf("%s{\"vaddr\": %llu, \"value\": %llu}", i ? ", " : "",
		       (unsigned long long)co->relocs[i].vaddr, (unsigned long long)co->relocs[i].value);
	printf("],\n \"kernels\": [\n");
	for (uint32_t i = 0; i < co->nkernels; i++) {
		if (i)
			printf(",\n");
		dump_kernel(&co->kernels[i]);
	}
	printf("\n]}\n");
	xs_codeobj_free(co);
	return 0;
}
