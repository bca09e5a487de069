/* xs12 sweep REC --override REG.FIELD=V1,V2: a point is the recording
 * replayed through the GPU model alone (as xs12 replay) with the command
 * processor replacing those fields whenever a PM4 packet sets their
 * register. Its figures sum or take the peak over the replayed dispatches;
 * it is not compared with the recording (an override changes the run by
 * design). */
#include "xs_cli_sweep.h"

#include <string.h>

#include "gpu/xs_gpu.h"
#include "gpu/xs_gpu_devinfo.h"
#include "gpu/xs_gpu_override.h"
#include "runtime/xs_rt.h"

typedef struct acc {
	sweep_row *row;
	double weighted_avg; /* avg waves per SIMD × cycles */
	uint64_t digest;
	char error[SWEEP_ERROR_MAX]; /* the first batch that failed */
	uint32_t batches;
} acc;

static void on_dispatch(void *user, const xs_gpu_dispatch_result *r, const xs_devinfo *info, bool timing)
{
	uint32_t sclk_mhz = info->sclk_mhz;
	acc *a = user;
	sweep_row *w = a->row;
	w->dispatches++;
	w->cycles += r->cycles;
	w->us += sclk_mhz ? (double)r->cycles / sclk_mhz : 0;
	w->waves += r->waves_launched;
	a->weighted_avg += r->avg_waves_per_simd * (double)r->cycles;
	w->peak_waves_per_simd = XS_MAX(w->peak_waves_per_simd, r->peak_waves_per_simd);
	w->peak_waves_in_flight = XS_MAX(w->peak_waves_in_flight, r->peak_waves);
	/* a draw's ring is the graphics one (SPI_TMPRING_SIZE) */
	w->peak_scratch_slots = XS_MAX(w->peak_scratch_slots, r->gfx.is_draw ? r->gfx.peak_scratch_slots
									      : r->peak_scratch_slots);
	w->scratch_waves = XS_MAX(w->scratch_waves, r->scratch_slots);
	for (int i = 0; i < XS_WAIT_COUNT && i < XS_GPU_WAIT_COUNT; i++)
		w->wait[i] += r->wait_cycles[i];
	const xs_gpu_counters *c = &r->ctr;
	w->counters = timing;
	w->l0_hits += c->l0_hits;
	w->l0_misses += c->l0_misses;
	w->l2_hits += c->l2_hits;
	w->l2_misses += c->l2_misses;
	w->dram_bytes += (c->dram_read_lines + c->dram_write_lines) * info->l2_line_bytes;
	w->scratch_read_bytes += c->scratch_read_bytes;
	w->scratch_write_bytes += c->scratch_write_bytes;
	w->lds_bytes += c->lds_bytes;
	w->lds_bank_conflict_cycles += c->lds_bank_conflict_cycles;
}

static void on_batch(void *user, uint64_t digest, xs_status status, const char *message)
{
	acc *a = user;
	if (status && !a->error[0])
		snprintf(a->error, sizeof(a->error), "batch %u: %s", a->batches + 1,
			 message && *message ? message : xs_status_name(status));
	a->batches++;
	a->digest = (a->digest ^ digest) * 0x100000001b3ull;
}

int sweep_replay_point(int argc, char **argv, sweep_row *row)
{
	xs_gpu_override ov[XS_GPU_MAX_OVERRIDES];
	uint64_t hits[XS_GPU_MAX_OVERRIDES] = { 0 };
	int n = 0;
	xs_err e = { 0 };
	if (argc < 2 || argc - 2 > XS_GPU_MAX_OVERRIDES) {
		fprintf(stderr, "xs12 sweep: a replay point takes a recording and 0..%d overrides\n", XS_GPU_MAX_OVERRIDES);
		return XS_CLI_USAGE_ERROR;
	}
	for (int i = 2; i < argc; i++, n++)
		if (xs_gpu_override_parse(argv[i], &ov[n], &e)) {
			fprintf(stderr, "xs12 sweep: %s\n", e.msg);
			return XS_CLI_USAGE_ERROR;
		}
	acc a = { .row = row, .digest = 0xcbf29ce484222325ull };
	xs_rt_replay_opts o = { .overrides = ov, .num_overrides = (uint32_t)n, .hits = hits, .dispatch = on_dispatch,
				.batch = on_batch, .user = &a };
	xs_replay_report rep;
	xs_status st = xs_rt_replay_ex(argv[1], &o, &rep, &e);
	row->avg_waves_per_simd = row->cycles ? a.weighted_avg / (double)row->cycles : 0;
	row->digest = a.digest;
	if (st) {
		fprintf(stderr, "xs12 sweep: %s\n", e.msg);
		return 1;
	}
	if (a.error[0]) {
		fprintf(stderr, "xs12 sweep: %s\n", a.error);
		return 1;
	}
	/* An override the recording never triggers changes nothing: say so
	 * rather than print a row that looks like a measurement of it. */
	for (int i = 0; i < n; i++)
		if (!hits[i]) {
			fprintf(stderr, "xs12 sweep: %s: the recording never sets this register by a PM4 packet: nothing "
					"to override\n", ov[i].name);
			return 1;
		}
	return 0;
}
