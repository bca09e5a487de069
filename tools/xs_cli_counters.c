/* Hardware counters as `xs12 run --counters` prints them (docs/cli.md):
 * JSON per dispatch, and a CSV of one row per dispatch and one per queue
 * (the queue's dispatches added up), in the spirit of rocprof's output. */
#include "xs_cli.h"

#include <string.h>

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

/* Busy share of a pipe over the dispatch and all SIMDs, in percent. */
static double busy_pct(const uint64_t *busy, uint32_t nsimd, uint64_t cycles)
{
	uint64_t sum = 0;
	for (uint32_t i = 0; i < nsimd && i < XS_MAX_SIMDS; i++)
		sum += busy[i];
	return cycles && nsimd ? 100.0 * (double)sum / ((double)cycles * nsimd) : 0;
}

static void add(xs_dispatch_counters *to, const xs_dispatch_counters *c)
{
	for (int i = 0; i < XS_INST_CLASS_COUNT; i++)
		to->insts[i] += c->insts[i];
	to->l0_hits += c->l0_hits;
	to->l0_misses += c->l0_misses;
	to->l2_hits += c->l2_hits;
	to->l2_misses += c->l2_misses;
	to->dram_read_lines += c->dram_read_lines;
	to->dram_write_lines += c->dram_write_lines;
	to->vmem_read_bytes += c->vmem_read_bytes;
	to->vmem_write_bytes += c->vmem_write_bytes;
	to->scratch_read_bytes += c->scratch_read_bytes;
	to->scratch_write_bytes += c->scratch_write_bytes;
	to->lds_bytes += c->lds_bytes;
	to->lds_bank_conflict_cycles += c->lds_bank_conflict_cycles;
	for (int i = 0; i < XS_MAX_SIMDS; i++) {
		to->salu_busy[i] += c->salu_busy[i];
		to->valu_busy[i] += c->valu_busy[i];
	}
	for (int i = 0; i < XS_MAX_SES; i++)
		to->waves_per_se[i] += c->waves_per_se[i];
	to->valid = c->valid;
	to->line_bytes = c->line_bytes;
	to->num_simd = c->num_simd;
	to->num_se = c->num_se;
}


void xs_cli_counters_json(FILE *f, const xs_dispatch_stats *st)
{
	const xs_dispatch_counters *c = &st->counters;
	fprintf(f, "{\"valid\": %s, \"instructions\": {", c->valid ? "true" : "false");
	for (int i = 0; i < XS_INST_CLASS_COUNT; i++)
		fprintf(f, "%s\"%s\": %llu", i ? ", " : "", xs_inst_class_name((xs_inst_class)i),
			(unsigned long long)c->insts[i]);
	fprintf(f, "}, \"l0\": {\"hits\": %llu, \"misses\": %llu, \"hit_rate\": %.4f, \"bytes_from_l2\": %llu}",
		(unsigned long long)c->l0_hits, (unsigned long long)c->l0_misses,
		ratio(c->l0_hits, c->l0_hits + c->l0_misses), (unsigned long long)(c->l0_misses * c->line_bytes));
	fprintf(f, ", \"l2\": {\"hits\": %llu, \"misses\": %llu, \"hit_rate\": %.4f}", (unsigned long long)c->l2_hits,
		(unsigned long long)c->l2_misses, ratio(c->l2_hits, c->l2_hits + c->l2_misses));
	fprintf(f, ", \"dram\": {\"read_bytes\": %llu, \"write_bytes\": %llu, \"gbps\": %.2f}",
		(unsigned long long)(c->dram_read_lines * c->line_bytes), (unsigned long long)(c->dram_write_lines * c->line_bytes),
		c->dram_gbps);
	fprintf(f, ", \"vmem\": {\"read_bytes\": %llu, \"write_bytes\": %llu}", (unsigned long long)c->vmem_read_bytes,
		(unsigned long long)c->vmem_write_bytes);
	fprintf(f, ", \"scratch\": {\"read_bytes\": %llu, \"write_bytes\": %llu}",
		(unsigned long long)c->scratch_read_bytes, (unsigned long long)c->scratch_write_bytes);
	fprintf(f, ", \"lds_bytes\": %llu, \"lds_bank_conflict_cycles\": %llu", (unsigned long long)c->lds_bytes,
		(unsigned long long)c->lds_bank_conflict_cycles);
	fprintf(f, ", \"valu_busy_percent\": %.2f, \"salu_busy_percent\": %.2f",
		busy_pct(c->valu_busy, c->num_simd, st->cycles), busy_pct(c->salu_busy, c->num_simd, st->cycles));
	const uint64_t *arr[2] = { c->valu_busy, c->salu_busy };
	const char *names[2] = { "valu_busy_cycles", "salu_busy_cycles" };
	for (int a = 0; a < 2; a++) {
		fprintf(f, ", \"%s\": [", names[a]);
		for (uint32_t i = 0; i < c->num_simd && i < XS_MAX_SIMDS; i++)
			fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)arr[a][i]);
		fprintf(f, "]");
	}
	fprintf(f, ", \"waves_per_se\": [");
	for (uint32_t i = 0; i < c->num_se && i < XS_MAX_SES; i++)
		fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)c->waves_per_se[i]);
	fprintf(f, "]}");
}

static void csv_row(FILE *f, const char *scope, const char *kernel, uint32_t queue, uint64_t cycles,
		    double microseconds, const xs_dispatch_counters *c)
{
	/* A functional run's cycles are issue counts, no modelled time: its
	 * microseconds and bandwidth are empty fields, as JSON's null (the
	 * dispatch rows gave issue-count microseconds, the queue rows 0). */
	char us[32] = "", bw[32] = "";
	if (c->valid) {
		snprintf(us, sizeof(us), "%.3f", microseconds);
		snprintf(bw, sizeof(bw), "%.2f",
			 microseconds > 0 ? (double)(c->dram_read_lines + c->dram_write_lines) * c->line_bytes /
						    (microseconds * 1e3)
					  : 0.0);
	}
	fprintf(f, "%s,%s,%u,%llu,%s", scope, kernel, queue, (unsigned long long)cycles, us);
	for (int i = 0; i < XS_INST_CLASS_COUNT; i++)
		fprintf(f, ",%llu", (unsigned long long)c->insts[i]);
	fprintf(f, ",%llu,%llu,%.4f,%llu,%llu,%.4f,%llu,%llu,%s,%llu,%llu,%llu,%llu,%llu,%llu,%.2f,%.2f",
		(unsigned long long)c->l0_hits, (unsigned long long)c->l0_misses,
		ratio(c->l0_hits, c->l0_hits + c->l0_misses), (unsigned long long)c->l2_hits,
		(unsigned long long)c->l2_misses, ratio(c->l2_hits, c->l2_hits + c->l2_misses),
		(unsigned long long)(c->dram_read_lines * c->line_bytes), (unsigned long long)(c->dram_write_lines * c->line_bytes), bw,
		(unsigned long long)c->vmem_read_bytes, (unsigned long long)c->vmem_write_bytes,
		(unsigned long long)c->scratch_read_bytes, (unsigned long long)c->scratch_write_bytes,
		(unsigned long long)c->lds_bytes, (unsigned long long)c->lds_bank_conflict_cycles,
		busy_pct(c->valu_busy, c->num_simd, cycles),
		busy_pct(c->salu_busy, c->num_simd, cycles));
	for (uint32_t i = 0; i < XS_MAX_SES; i++)
		fprintf(f, ",%llu", i < c->num_se ? (unsigned long long)c->waves_per_se[i] : 0ull);
	fputc('\n', f);
}

/* The queues' rows: each queue's dispatches added up, over the span from
 * its first start to its last end (q_st[q].cycles); returns a bit per queue. */
static unsigned queue_sums(const uint32_t *queues, const xs_dispatch_stats *st, int n, uint32_t sclk_mhz,
			   xs_dispatch_stats q_st[XS_MAX_QUEUES])
{
	unsigned used = 0;
	memset(q_st, 0, XS_MAX_QUEUES * sizeof(*q_st));
	for (uint32_t q = 0; q < XS_MAX_QUEUES; q++) {
		uint64_t start = UINT64_MAX, end = 0;
		for (int i = 0; i < n; i++)
			if (queues[i] == q) {
				add(&q_st[q].counters, &st[i].counters);
				start = st[i].start_cycle < start ? st[i].start_cycle : start;
				end = st[i].end_cycle > end ? st[i].end_cycle : end;
				used |= 1u << q;
			}
		if (!(used & (1u << q)))
			continue;
		xs_dispatch_stats *r = &q_st[q];
		r->start_cycle = start;
		r->end_cycle = end;
		r->cycles = end - start;
		r->microseconds = r->counters.valid ? (double)r->cycles / sclk_mhz : 0;
		if (r->microseconds > 0)
			r->counters.dram_gbps = (double)(r->counters.dram_read_lines + r->counters.dram_write_lines) * r->counters.line_bytes /
						(r->microseconds * 1e3);
	}
	return used;
}

void xs_cli_counters_write(FILE *f, bool csv, const char *const *kernels, const uint32_t *queues,
			   const xs_dispatch_stats *st, int n, uint32_t sclk_mhz)
{
	xs_dispatch_stats q_st[XS_MAX_QUEUES];
	unsigned used = queue_sums(queues, st, n, sclk_mhz, q_st);
	if (!csv) {
		fprintf(f, "{\"dispatches\": [");
		for (int i = 0; i < n; i++) {
			fprintf(f, "%s\n{\"kernel\": ", i ? "," : "");
			xs_cli_json_string(f, kernels[i]);
			fprintf(f, ", \"queue\": %u, \"cycles\": %llu, \"counters\": ", queues[i],
				(unsigned long long)st[i].cycles);
			xs_cli_counters_json(f, &st[i]);
			fputc('}', f);
		}
		fprintf(f, "],\n\"queues\": [");
		for (uint32_t q = 0, k = 0; q < XS_MAX_QUEUES; q++) {
			if (!(used & (1u << q)))
				continue;
			fprintf(f, "%s\n{\"queue\": %u, \"cycles\": %llu, \"counters\": ", k++ ? "," : "", q,
				(unsigned long long)q_st[q].cycles);
			xs_cli_counters_json(f, &q_st[q]);
			fputc('}', f);
		}
		fprintf(f, "]}\n");
		return;
	}
	fprintf(f, "scope,kernel,queue,cycles,microseconds");
	for (int i = 0; i < XS_INST_CLASS_COUNT; i++)
		fprintf(f, ",insts_%s", xs_inst_class_name((xs_inst_class)i));
	fprintf(f, ",l0_hits,l0_misses,l0_hit_rate,l2_hits,l2_misses,l2_hit_rate,dram_read_bytes,dram_write_bytes,"
		   "dram_gbps,vmem_read_bytes,vmem_write_bytes,scratch_read_bytes,scratch_write_bytes,lds_bytes,"
		   "lds_bank_conflict_cycles,valu_busy_percent,salu_busy_percent");
	for (int i = 0; i < XS_MAX_SES; i++)
		fprintf(f, ",waves_se%d", i);
	fputc('\n', f);
	for (int i = 0; i < n; i++)
		csv_row(f, "dispatch", kernels[i], queues[i], st[i].cycles, st[i].microseconds, &st[i].counters);
	for (uint32_t q = 0; q < XS_MAX_QUEUES; q++)
		if (used & (1u << q))
			csv_row(f, "queue", "", q, q_st[q].cycles, q_st[q].microseconds, &q_st[q].counters);
}
