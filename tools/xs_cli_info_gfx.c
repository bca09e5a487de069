/* xs12 info on a graphics shader (a VS or PS object from llc-15's amdpal or
 * mesa3d triple): what the loader (src/codeobj/xs_codeobj_gfx.h) makes of
 * it, and the registers LLVM gave, named from the PM4 register database. */
#include "xs_cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj/xs_codeobj_gfx.h"
#include "pm4/xs_pm4_regdb.h"

static const char *reg_name(uint32_t addr)
{
	const xs_pm4_reg *r = xs_pm4_reg_find(addr);
	if (r)
		return r->name;
	switch (addr) { /* LLVM writes these; the database does not hold them */
	case 0x286CC: return "SPI_PS_INPUT_ENA";
	case 0x286D0: return "SPI_PS_INPUT_ADDR";
	case 0x28B54: return "VGT_SHADER_STAGES_EN";
	default: return NULL;
	}
}

static void mask_list(FILE *f, const char *pfx, uint32_t m, bool json)
{
	bool first = true;
	for (unsigned i = 0; i < 32; i++)
		if (m >> i & 1) {
			if (json)
				fprintf(f, "%s%u", first ? "" : ", ", i);
			else
				fprintf(f, "%s%s%u", first ? "" : " ", pfx, i);
			first = false;
		}
	if (first && !json)
		fprintf(f, "none");
}

static void print_json(const char *path, const xs_gfx_shader *s)
{
	bool vs = s->stage == XS_GFX_STAGE_VS;
	printf("{\"file\": ");
	xs_cli_json_string(stdout, path);
	printf(", \"kind\": \"graphics\", \"stage\": \"%s\", \"abi\": \"%s\", \"entry\": ", vs ? "vs" : "ps",
	       s->abi == XS_GFX_ABI_PAL ? "pal" : "mesa");
	xs_cli_json_string(stdout, s->entry);
	printf(", \"entry_offset\": %llu, \"code_size\": %llu, \"image_size\": %zu, \"wave_size\": %u, "
	       "\"vgprs\": %u, \"sgprs\": %u, \"rsrc1\": %u, \"rsrc2\": %u, \"scratch_bytes_per_lane\": %u, "
	       "\"scratch_bytes_per_wave\": %u, \"user_sgprs_used\": %u, \"wave_size_assumed\": %s",
	       (unsigned long long)s->entry_offset, (unsigned long long)s->code_size, s->image_size,
	       s->wave64 ? 64 : 32, s->vgprs, s->sgprs, s->rsrc1, s->rsrc2, s->scratch_bytes_per_lane,
	       s->scratch_bytes_per_wave, s->user_sgprs_used,
	       s->wave_size_assumed ? "true" : "false");
	if (vs) {
		printf(", \"pos\": [");
		mask_list(stdout, "", s->pos_mask, true);
		printf("], \"params\": [");
		mask_list(stdout, "", s->param_mask, true);
		printf("], \"vgpr_comp_cnt\": %u", s->vgpr_comp_cnt);
	} else {
		printf(", \"mrt\": [");
		mask_list(stdout, "", s->mrt_mask, true);
		printf("], \"mrt_compr\": [");
		mask_list(stdout, "", s->mrt_compr_mask, true);
		printf("], \"writes_z\": %s, \"kills\": %s, \"interp\": [", s->writes_z ? "true" : "false",
		       s->kills ? "true" : "false");
		mask_list(stdout, "", s->interp_mask, true);
		printf("], \"num_interp\": %u, \"ps_input_ena\": %u, \"ps_input_addr\": %u", s->num_interp,
		       s->ps_input_ena, s->ps_input_addr);
	}
	printf(", \"registers\": [");
	for (uint32_t i = 0; i < s->nregs; i++) {
		const char *n = reg_name(s->regs[i].reg);
		printf("%s{\"reg\": %u, \"name\": ", i ? ", " : "", s->regs[i].reg);
		if (n)
			xs_cli_json_string(stdout, n);
		else
			printf("null");
		printf(", \"value\": %u}", s->regs[i].value);
	}
	printf("]}\n");
}

static void print_text(const char *path, const xs_gfx_shader *s)
{
	bool vs = s->stage == XS_GFX_STAGE_VS;
	printf("%s: %s graphics shader (%s ABI), entry %s at +0x%llx, %llu bytes of code\n", path,
	       vs ? "vertex" : "pixel", s->abi == XS_GFX_ABI_PAL ? "amdpal" : "mesa3d", s->entry,
	       (unsigned long long)s->entry_offset, (unsigned long long)s->code_size);
	printf("  wave size      wave%u%s\n", s->wave64 ? 64 : 32,
	       s->wave_size_assumed ? " (assumed: a Mesa object whose code does not show its wave size)" : "");
	printf("  VGPRs          %u allocated\n", s->vgprs);
	printf("  SGPRs          %u (first %u read as inputs: user + system SGPRs)\n", s->sgprs, s->user_sgprs_used);
	if (s->scratch_bytes_per_wave)
		printf("  scratch        %u bytes per lane, %u bytes per wave (SCRATCH_EN)\n", s->scratch_bytes_per_lane,
		       s->scratch_bytes_per_wave);
	else
		printf("  scratch        none\n");
	printf("  RSRC1, RSRC2   0x%08x, 0x%08x\n", s->rsrc1, s->rsrc2);
	if (vs) {
		printf("  exports        pos: ");
		mask_list(stdout, "pos", s->pos_mask, false);
		printf("; params: ");
		mask_list(stdout, "param", s->param_mask, false);
		printf("\n  input VGPRs    VGPR_COMP_CNT %u (%s)\n", s->vgpr_comp_cnt,
		       s->vgpr_comp_cnt == 3 ? "reads InstanceID" : "VertexID only");
	} else {
		printf("  exports        ");
		mask_list(stdout, "mrt", s->mrt_mask, false);
		if (s->mrt_compr_mask) {
			printf(" (compr: ");
			mask_list(stdout, "mrt", s->mrt_compr_mask, false);
			printf(")");
		}
		printf("%s%s\n", s->writes_z ? ", mrtz" : "", s->kills ? ", discards" : "");
		printf("  PS inputs      attributes ");
		mask_list(stdout, "attr", s->interp_mask, false);
		printf(" (NUM_INTERP %u); SPI_PS_INPUT_ENA 0x%x, ADDR 0x%x\n", s->num_interp, s->ps_input_ena,
		       s->ps_input_addr);
	}
	printf("  registers LLVM gave:\n");
	for (uint32_t i = 0; i < s->nregs; i++) {
		const char *n = reg_name(s->regs[i].reg);
		printf("    0x%05x %-26s 0x%08x\n", s->regs[i].reg, n ? n : "?", s->regs[i].value);
	}
}

int xs_cli_info_gfx(const char *path, bool json)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "xs12 info: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *buf = n > 0 ? malloc((size_t)n) : NULL;
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		fprintf(stderr, "xs12 info: %s: cannot read it\n", path);
		return 1;
	}
	fclose(f);
	xs_gfx_shader s;
	xs_err e;
	xs_err_clear(&e);
	int rc = 0;
	if (xs_gfx_shader_parse(buf, (size_t)n, NULL, &s, &e)) {
		fprintf(stderr, "xs12 info: %s: %s\n", path, e.msg);
		rc = 1;
	} else {
		if (json)
			print_json(path, &s);
		else
			print_text(path, &s);
		xs_gfx_shader_free(&s);
	}
	free(buf);
	return rc;
}

bool xs_cli_is_gfx_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	uint8_t h[64];
	size_t got = fread(h, 1, sizeof(h), f);
	fclose(f);
	return xs_gfx_shader_sniff(h, got);
}
