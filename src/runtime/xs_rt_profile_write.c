/*
 * A profile as JSON ("xs12-profile-1", documented in docs/cli.md), as text
 * (hot spots, then the annotated disassembly), or as one HTML page that
 * embeds the JSON (xs_rt_profile_html.c). Deterministic: the same profile
 * gives the same bytes.
 */
#include "runtime/xs_rt_profile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A JSON string. <, > and & are escaped too, so that the JSON can sit in
 * an HTML <script> element as it is. */
static void jstr(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(f, "\\%c", *c);
		else if (*c < 0x20 || *c == '<' || *c == '>' || *c == '&')
			fprintf(f, "\\u%04x", *c);
		else if (c[0] == 0xe2 && c[1] == 0x80 && (c[2] == 0xa8 || c[2] == 0xa9)) {
			fprintf(f, "\\u%04x", 0x2000 + (c[2] - 0x80)); /* U+2028/2029 end a JS line */
			c += 2;
		} else
			fputc(*c, f);
	}
	fputc('"', f);
}

static void stalls_json(FILE *f, const uint64_t *stall)
{
	fputc('{', f);
	int k = 0;
	for (int s = 0; s < XS_STALL_COUNT; s++)
		if (stall[s])
			fprintf(f, "%s\"%s\":%llu", k++ ? "," : "", xs_rt_stall_name((unsigned)s),
				(unsigned long long)stall[s]);
	fputc('}', f);
}

void xs_rt_profile_write_json(const xs_profile *p, FILE *f)
{
	fprintf(f, "{\"format\":\"xs12-profile-1\",\"machine\":");
	jstr(f, p->info->name);
	fprintf(f, ",\"sclk_mhz\":%u,\"mode\":\"timing\",\"stall_reasons\":[", p->info->sclk_mhz);
	for (int s = 0; s < XS_STALL_COUNT; s++)
		fprintf(f, "%s\"%s\"", s ? "," : "", xs_rt_stall_name((unsigned)s));
	fprintf(f, "],\"total_cycles\":%llu,\"overflow\":%s,\"trace_truncated\":%s,\"kernels\":[",
		(unsigned long long)(p->last_cycle - p->first_cycle), p->overflow ? "true" : "false",
		p->truncated ? "true" : "false");
	for (uint32_t i = 0; i < p->nfn; i++) {
		const xs_profile_function *fn = &p->fn[i];
		fprintf(f, "%s\n{\"name\":", i ? "," : "");
		jstr(f, fn->name);
		fprintf(f, ",\"start_pc\":\"0x%llx\",\"dispatches\":[", (unsigned long long)fn->start_pc);
		for (uint32_t d = 0, k = 0; d < p->ndisps; d++)
			if (!p->disps[d].draw && p->disps[d].pgm_va >= fn->start_pc && p->disps[d].pgm_va < fn->end_pc)
				fprintf(f, "%s%u", k++ ? "," : "", p->disps[d].id);
		fprintf(f, "],\"wave_instructions\":%llu,\"wave_cycles\":%llu,\"stalls\":",
			(unsigned long long)fn->wave_instructions, (unsigned long long)fn->cycles);
		stalls_json(f, fn->stall);
		fprintf(f, ",\"top_stall\":");
		if (fn->top_stall >= 0)
			fprintf(f, "\"%s\"", xs_rt_stall_name((unsigned)fn->top_stall));
		else
			fputs("null", f);
		fprintf(f, ",\"lds_bank_conflict_cycles\":%llu,\"instructions\":[",
			(unsigned long long)fn->lds_bank_conflict_cycles);
		for (uint32_t k = 0; k < fn->num_insts; k++) {
			const xs_profile_inst *in = &fn->insts[k];
			fprintf(f, "%s\n{\"pc\":\"0x%llx\",\"offset\":%u,\"text\":", k ? "," : "", (unsigned long long)in->pc,
				in->offset);
			jstr(f, in->text);
			fprintf(f, ",\"issues\":%llu,\"cycles\":%llu,\"stalls\":", (unsigned long long)in->issues,
				(unsigned long long)in->cycles);
			stalls_json(f, in->stall);
			if (in->lds_bank_conflict_cycles) /* LDS instructions with conflicts only */
				fprintf(f, ",\"lds_bank_conflict_cycles\":%llu", (unsigned long long)in->lds_bank_conflict_cycles);
			fprintf(f, ",\"source\":");
			if (in->source_file) {
				fprintf(f, "{\"file\":");
				jstr(f, in->source_file);
				fprintf(f, ",\"line\":%u,\"text\":", in->source_line);
				jstr(f, in->source_text);
				fputc('}', f);
			} else {
				fputs("null", f);
			}
			fputs(",\"label\":null}", f);
		}
		fprintf(f, "],\"hot\":[");
		for (uint32_t k = 0; k < fn->num_hot; k++)
			fprintf(f, "%s%u", k ? "," : "", fn->hot[k]);
		fputs("]}", f);
	}
	fprintf(f, "],\n\"dispatches\":[");
	for (uint32_t d = 0; d < p->ndisps; d++) {
		const xs_gpu_prof_disp *dp = &p->disps[d];
		fprintf(f, "%s\n{\"id\":%u,\"kernel\":", d ? "," : "", dp->id);
		jstr(f, p->disp_name[d]);
		fprintf(f, ",\"queue\":%u,\"start_cycle\":%llu,\"end_cycle\":%llu,\"waves_launched\":%llu,"
			"\"wave_instructions\":%llu}", dp->queue, (unsigned long long)dp->start, (unsigned long long)dp->end,
			(unsigned long long)dp->waves, (unsigned long long)dp->insts);
	}
	fprintf(f, "],\n\"occupancy\":{\"cycles\":[");
	uint32_t maxw = 0;
	for (uint32_t i = 0; i < p->nocc; i++)
		fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)p->occ_t[i]);
	fprintf(f, "],\"series\":[");
	for (unsigned q = 0, k = 0; q < XS_GPU_MAX_QUEUES; q++) {
		if (!(p->queues & (1u << q)))
			continue;
		fprintf(f, "%s{\"queue\":%u,\"waves\":[", k++ ? "," : "", q);
		for (uint32_t i = 0; i < p->nocc; i++) {
			fprintf(f, "%s%u", i ? "," : "", p->occ_q[i][q]);
			maxw = XS_MAX(maxw, (uint32_t)p->occ_q[i][q]);
		}
		fputs("]}", f);
	}
	static const char *const wait_names[XS_GPU_WAIT_COUNT] = { "wave-slot", "vgpr", "lds", "barrier",
								   "scratch-slot", "cu-mask-or-limit" };
	fprintf(f, "],\"max_waves\":%u},\n\"waits\":{", maxw);
	for (int w = 0; w < XS_GPU_WAIT_COUNT; w++)
		fprintf(f, "%s\"%s\":%llu", w ? "," : "", wait_names[w], (unsigned long long)p->waits[w]);
	/* the dispatches' counters added (xs12 run --counters gives them per dispatch) */
	const xs_gpu_counters *c = &p->ctr;
	uint64_t valu = 0, salu = 0, line = p->info->l2_line_bytes;
	for (size_t i = 0; i < XS_ARRAY_SIZE(c->valu_busy); i++) {
		valu += c->valu_busy[i];
		salu += c->salu_busy[i];
	}
	fprintf(f, "},\"counters\":{\"l0_hits\":%llu,\"l0_misses\":%llu,\"l2_hits\":%llu,\"l2_misses\":%llu,"
		"\"dram_read_bytes\":%llu,\"dram_write_bytes\":%llu,\"vmem_read_bytes\":%llu,\"vmem_write_bytes\":%llu,"
		"\"scratch_read_bytes\":%llu,\"scratch_write_bytes\":%llu,\"lds_bytes\":%llu,"
		"\"lds_bank_conflict_cycles\":%llu,\"valu_busy_cycles\":%llu,\"salu_busy_cycles\":%llu}}\n",
		(unsigned long long)c->l0_hits, (unsigned long long)c->l0_misses, (unsigned long long)c->l2_hits,
		(unsigned long long)c->l2_misses, (unsigned long long)(c->dram_read_lines * line),
		(unsigned long long)(c->dram_write_lines * line), (unsigned long long)c->vmem_read_bytes,
		(unsigned long long)c->vmem_write_bytes, (unsigned long long)c->scratch_read_bytes,
		(unsigned long long)c->scratch_write_bytes, (unsigned long long)c->lds_bytes,
		(unsigned long long)c->lds_bank_conflict_cycles, (unsigned long long)valu,
		(unsigned long long)salu);
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

static int main_stall(const xs_profile_inst *in)
{
	int best = -1;
	uint64_t v = 0;
	for (int s = 0; s < XS_STALL_COUNT; s++)
		if (in->stall[s] > v) {
			v = in->stall[s];
			best = s;
		}
	return best;
}

void xs_rt_profile_write_text(const xs_profile *p, FILE *f)
{
	uint64_t total = p->last_cycle - p->first_cycle;
	fprintf(f, "xs12 profile: %s at %u MHz, timing mode; %u dispatch%s, %llu cycles (%.1f us)%s\n", p->info->name,
		p->info->sclk_mhz, p->ndisps, p->ndisps == 1 ? "" : "es", (unsigned long long)total,
		(double)total / p->info->sclk_mhz, p->overflow ? "; some PCs or dispatches were not kept" : "");
	fprintf(f, "cycles are wave-cycles: each wave's time on an instruction, summed over waves\n");
	for (uint32_t i = 0; i < p->nfn; i++) {
		const xs_profile_function *fn = &p->fn[i];
		fprintf(f, "\n== %s: %llu wave instructions, %llu wave-cycles", fn->name,
			(unsigned long long)fn->wave_instructions, (unsigned long long)fn->cycles);
		if (fn->top_stall >= 0)
			fprintf(f, "; top stall %s (%.1f %% of its cycles)", xs_rt_stall_name((unsigned)fn->top_stall),
				pct(fn->stall[fn->top_stall], fn->cycles));
		fputc('\n', f);
		fprintf(f, "stalls:");
		int any = 0;
		for (int s = 0; s < XS_STALL_COUNT; s++)
			if (fn->stall[s])
				fprintf(f, "%s %s %llu (%.1f %%)", any++ ? "," : "", xs_rt_stall_name((unsigned)s),
					(unsigned long long)fn->stall[s], pct(fn->stall[s], fn->cycles));
		fprintf(f, "%s\n", any ? "" : " none");
		if (fn->lds_bank_conflict_cycles)
			fprintf(f, "LDS bank conflicts: %llu bus clocks (marked below; waited for at s_waitcnt lgkmcnt)\n",
				(unsigned long long)fn->lds_bank_conflict_cycles);
		fprintf(f, "hot spots:\n%12s %6s %10s  %-14s %-8s %s\n", "cycles", "%", "issues", "main stall", "offset",
			"instruction");
		for (uint32_t k = 0; k < fn->num_hot; k++) {
			const xs_profile_inst *in = &fn->insts[fn->hot[k]];
			int ms = main_stall(in);
			fprintf(f, "%12llu %5.1f%% %10llu  %-14s 0x%-6x %s\n", (unsigned long long)in->cycles,
				pct(in->cycles, fn->cycles), (unsigned long long)in->issues,
				ms >= 0 ? xs_rt_stall_name((unsigned)ms) : "-", in->offset, in->text ? in->text : "");
		}
		fprintf(f, "annotated:\n");
		const char *last_file = NULL;
		uint32_t last_line = 0;
		for (uint32_t k = 0; k < fn->num_insts; k++) {
			const xs_profile_inst *in = &fn->insts[k];
			if (in->source_file && (in->source_line != last_line || !last_file || strcmp(last_file, in->source_file))) {
				const char *base = strrchr(in->source_file, '/');
				fprintf(f, "%45s; %s:%u  %s\n", "", base ? base + 1 : in->source_file, in->source_line,
					in->source_text ? in->source_text : "");
				last_file = in->source_file;
				last_line = in->source_line;
			}
			int ms = main_stall(in);
			fprintf(f, "%12llu %5.1f%% %10llu  %-14s 0x%-6x %s", (unsigned long long)in->cycles,
				pct(in->cycles, fn->cycles), (unsigned long long)in->issues,
				ms >= 0 ? xs_rt_stall_name((unsigned)ms) : "", in->offset, in->text ? in->text : "");
			if (in->lds_bank_conflict_cycles)
				fprintf(f, "  ; LDS bank conflicts %llu", (unsigned long long)in->lds_bank_conflict_cycles);
			fputc('\n', f);
		}
	}
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

xs_status xs_rt_profile_write(const xs_profile *p, const char *path, xs_err *e)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return xs_err_set(e, XS_E_IO, "%s: cannot write: %s", path, strerror(errno));
	xs_status st = XS_OK;
	if (ends_with(path, ".json")) {
		xs_rt_profile_write_json(p, f);
	} else if (ends_with(path, ".html") || ends_with(path, ".htm")) {
		char *json = NULL;
		size_t n = 0;
		FILE *m = open_memstream(&json, &n);
		if (!m) {
			fclose(f);
			return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
		}
		xs_rt_profile_write_json(p, m);
		bool bad = ferror(m) != 0;
		fclose(m);
		st = bad || !json ? xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory")
				  : xs_rt_profile_html(f, json, n, e);
		free(json);
	} else {
		xs_rt_profile_write_text(p, f);
	}
	if ((ferror(f) | (fclose(f) != 0)) && !st)
		st = xs_err_set(e, XS_E_IO, "%s: write failed", path);
	return st;
}
