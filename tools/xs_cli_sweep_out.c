/* xs12 sweep's outputs, all from the rows alone (xs_cli_sweep.h): the
 * table, JSON, CSV and the SVG bar chart. */
#include "xs_cli_sweep.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool row_ok(const sweep_row *r)
{
	return r->present && r->rc == 0;
}

/* Least microseconds (the machines' clocks differ, so not cycles); ties go
 * to the first in grid order. margin: the next's time over the best's, − 1. */
int sweep_best(const sweep *sw, int *next, double *margin_percent)
{
	int best = -1;
	*next = -1;
	*margin_percent = 0;
	for (int i = 0; i < sw->npoints; i++)
		if (row_ok(&sw->rows[i]) && (best < 0 || sw->rows[i].us < sw->rows[best].us))
			best = i;
	for (int i = 0; i < sw->npoints && best >= 0; i++)
		if (i != best && row_ok(&sw->rows[i]) && (*next < 0 || sw->rows[i].us < sw->rows[*next].us))
			*next = i;
	if (best >= 0 && *next >= 0 && sw->rows[best].us > 0)
		*margin_percent = (sw->rows[*next].us / sw->rows[best].us - 1) * 100;
	return best;
}

static const char *row_kernel(const sweep *sw)
{
	for (int i = 0; i < sw->npoints; i++)
		if (sw->rows[i].present && sw->rows[i].kernel[0])
			return sw->rows[i].kernel;
	return NULL;
}

/* Whether the ok rows' out buffers (or memory digests) differ. */
static bool digests_differ(const sweep *sw)
{
	int first = -1;
	for (int i = 0; i < sw->npoints; i++)
		if (row_ok(&sw->rows[i])) {
			if (first < 0)
				first = i;
			else if (sw->rows[i].digest != sw->rows[first].digest)
				return true;
		}
	return false;
}

static const char *row_error(const sweep_row *r, int i, char *buf, size_t n)
{
	if (!r->present)
		snprintf(buf, n, "missing: no result for point %d", i);
	else
		snprintf(buf, n, "error: %s", r->error);
	return buf;
}

/* ---- the table ------------------------------------------------------------------- */

#define MAX_COLS (SWEEP_MAX_VARY + 20)
#define CELL 48

void sweep_print_table(FILE *f, const sweep *sw)
{
	int next;
	double margin;
	int best = sweep_best(sw, &next, &margin);
	const char *kernel = row_kernel(sw);
	fprintf(f, "xs12 sweep %s: %d point%s", sw->file, sw->npoints, sw->npoints == 1 ? "" : "s");
	if (kernel && !sw->recording)
		fprintf(f, ", kernel %s", kernel);
	fprintf(f, "\n\n");
	/* A wait column only where some row waited on that resource. */
	bool wait_col[XS_WAIT_COUNT] = { false };
	for (int i = 0; i < sw->npoints; i++)
		for (int w = 0; w < XS_WAIT_COUNT; w++)
			wait_col[w] |= row_ok(&sw->rows[i]) && sw->rows[i].wait[w];
	char head[MAX_COLS][CELL];
	bool left[MAX_COLS] = { false };
	int nc = 0;
	snprintf(head[nc++], CELL, " ");
	snprintf(head[nc++], CELL, "#");
	for (int k = 0; k < sw->nvary; k++) {
		left[nc] = true;
		snprintf(head[nc++], CELL, "%s", sw->vary_name[k]);
	}
	int first_fig = nc;
	if (sw->recording)
		snprintf(head[nc++], CELL, "dispatches");
	snprintf(head[nc++], CELL, "cycles");
	snprintf(head[nc++], CELL, "us");
	snprintf(head[nc++], CELL, "waves");
	snprintf(head[nc++], CELL, "avg/SIMD");
	snprintf(head[nc++], CELL, "peak/SIMD");
	snprintf(head[nc++], CELL, "scratch");
	for (int w = 0; w < XS_WAIT_COUNT; w++)
		if (wait_col[w])
			snprintf(head[nc++], CELL, "wait %s", xs_wait_cause_name((xs_wait_cause)w));
	snprintf(head[nc++], CELL, "out");
	int ncells = nc;
	char(*cell)[MAX_COLS][CELL] = calloc((size_t)sw->npoints, sizeof(*cell));
	if (!cell) {
		fprintf(stderr, "xs12 sweep: host out of memory\n");
		return;
	}
	int width[MAX_COLS];
	for (int c = 0; c < ncells; c++)
		width[c] = (int)strlen(head[c]);
	for (int i = 0; i < sw->npoints; i++) {
		const sweep_row *r = &sw->rows[i];
		int c = 0;
		snprintf(cell[i][c++], CELL, "%s", i == best ? "*" : "");
		snprintf(cell[i][c++], CELL, "%d", i);
		for (int k = 0; k < sw->nvary; k++)
			snprintf(cell[i][c++], CELL, "%s", sw->pts[i].value[k]);
		if (row_ok(r)) {
			if (sw->recording)
				snprintf(cell[i][c++], CELL, "%u", r->dispatches);
			snprintf(cell[i][c++], CELL, "%llu", (unsigned long long)r->cycles);
			snprintf(cell[i][c++], CELL, "%.2f", r->us);
			snprintf(cell[i][c++], CELL, "%llu", (unsigned long long)r->waves);
			snprintf(cell[i][c++], CELL, "%.2f", r->avg_waves_per_simd);
			snprintf(cell[i][c++], CELL, "%u", r->peak_waves_per_simd);
			if (r->scratch_waves)
				snprintf(cell[i][c++], CELL, "%u/%u", r->peak_scratch_slots, r->scratch_waves);
			else
				snprintf(cell[i][c++], CELL, "-");
			for (int w = 0; w < XS_WAIT_COUNT; w++)
				if (wait_col[w])
					snprintf(cell[i][c++], CELL, "%llu", (unsigned long long)r->wait[w]);
			snprintf(cell[i][c++], CELL, "%08llx", (unsigned long long)(r->digest >> 32));
		}
		for (int k = 0; k < c; k++)
			width[k] = XS_MAX(width[k], (int)strlen(cell[i][k]));
	}
	for (int c = 0; c < ncells; c++)
		fprintf(f, "%s%*s%s", c ? "  " : "", left[c] ? -width[c] : width[c], head[c], c == ncells - 1 ? "\n" : "");
	for (int i = 0; i < sw->npoints; i++) {
		const sweep_row *r = &sw->rows[i];
		int upto = row_ok(r) ? ncells : first_fig;
		for (int c = 0; c < upto; c++)
			fprintf(f, "%s%*s", c ? "  " : "", left[c] ? -width[c] : width[c], cell[i][c]);
		if (!row_ok(r)) {
			char e[SWEEP_ERROR_MAX + 64];
			fprintf(f, "  %s", row_error(r, i, e, sizeof(e)));
		}
		fprintf(f, "\n");
	}
	free(cell);
	fprintf(f, "\n");
	bool any_wait = false;
	for (int w = 0; w < XS_WAIT_COUNT; w++)
		any_wait |= wait_col[w];
	fprintf(f, "us: time of the %s; scratch: peak slots in use / the ring's slots%s; out: digest of %s\n",
		sw->recording ? "replayed dispatches" : "dispatch",
		any_wait ? "; wait: wave-cycles ready waves waited to launch, by the resource that was short" : "",
		sw->recording ? "all GPU memory after the replay (the scratch ring's too)" : "the out buffers");
	/* A recording's memory holds its scratch ring, which a ring override
	 * changes by design: only the out buffers say a setting broke results. */
	if (!sw->recording && digests_differ(sw))
		fprintf(f, "note: the %s differ between points: a setting changed the results\n",
			sw->recording ? "GPU memory digests" : "out buffers");
	if (best < 0)
		fprintf(f, "best: none: no point ran\n");
	else if (next < 0)
		fprintf(f, "best: %s (the only point that ran)\n", sw->pts[best].label);
	else
		fprintf(f, "best: %s \u2014 %.1f %% faster than the next (%s)\n", sw->pts[best].label, margin,
			sw->pts[next].label);
}

/* ---- JSON and CSV ------------------------------------------------------------------ */

/* A hit rate (0..1, as run's counters give it), or -1 with no look-ups. */
static double hit_rate(uint64_t hits, uint64_t misses)
{
	return hits + misses ? (double)hits / (double)(hits + misses) : -1;
}

/* The row's counters as a JSON object: the cache and DRAM figures null
 * where the run had no timing model to count them. */
static void json_counters(FILE *f, const sweep_row *r)
{
	fprintf(f, "\"counters\": {");
	if (r->counters) {
		double l0 = hit_rate(r->l0_hits, r->l0_misses), l2 = hit_rate(r->l2_hits, r->l2_misses);
		fprintf(f, "\"l0_hits\": %llu, \"l0_misses\": %llu, \"l2_hits\": %llu, \"l2_misses\": %llu, ",
			(unsigned long long)r->l0_hits, (unsigned long long)r->l0_misses, (unsigned long long)r->l2_hits,
			(unsigned long long)r->l2_misses);
		if (l0 >= 0)
			fprintf(f, "\"l0_hit_rate\": %.4f, ", l0);
		else
			fprintf(f, "\"l0_hit_rate\": null, ");
		if (l2 >= 0)
			fprintf(f, "\"l2_hit_rate\": %.4f, ", l2);
		else
			fprintf(f, "\"l2_hit_rate\": null, ");
		fprintf(f, "\"dram_bytes\": %llu, ", (unsigned long long)r->dram_bytes);
	} else {
		fprintf(f, "\"l0_hits\": null, \"l0_misses\": null, \"l2_hits\": null, \"l2_misses\": null, "
			   "\"l0_hit_rate\": null, \"l2_hit_rate\": null, \"dram_bytes\": null, ");
	}
	fprintf(f, "\"scratch_read_bytes\": %llu, \"scratch_write_bytes\": %llu, \"lds_bytes\": %llu, "
		   "\"lds_bank_conflict_cycles\": %llu}",
		(unsigned long long)r->scratch_read_bytes, (unsigned long long)r->scratch_write_bytes,
		(unsigned long long)r->lds_bytes, (unsigned long long)r->lds_bank_conflict_cycles);
}

void sweep_print_json(FILE *f, const sweep *sw)
{
	int next;
	double margin;
	int best = sweep_best(sw, &next, &margin);
	const char *kernel = row_kernel(sw);
	fprintf(f, "{\"file\": ");
	xs_cli_json_string(f, sw->file);
	fprintf(f, ", \"kind\": \"%s\", \"kernel\": ", sw->recording ? "recording" : "kernel");
	if (kernel)
		xs_cli_json_string(f, kernel);
	else
		fprintf(f, "null");
	fprintf(f, ", \"vary\": [");
	for (int k = 0; k < sw->nvary; k++) {
		fprintf(f, k ? ", " : "");
		xs_cli_json_string(f, sw->vary_name[k]);
	}
	fprintf(f, "], \"points\": [");
	for (int i = 0; i < sw->npoints; i++) {
		const sweep_row *r = &sw->rows[i];
		fprintf(f, "%s\n  {\"index\": %d, \"setting\": {", i ? "," : "", i);
		for (int k = 0; k < sw->nvary; k++) {
			fprintf(f, k ? ", " : "");
			xs_cli_json_string(f, sw->vary_name[k]);
			fprintf(f, ": ");
			xs_cli_json_string(f, sw->pts[i].value[k]);
		}
		fprintf(f, "}, \"label\": ");
		xs_cli_json_string(f, sw->pts[i].label);
		fprintf(f, ", \"ok\": %s, \"missing\": %s", row_ok(r) ? "true" : "false", r->present ? "false" : "true");
		if (row_ok(r)) {
			fprintf(f, ", \"dispatches\": %u, \"cycles\": %llu, \"microseconds\": %.4f, \"waves_launched\": %llu, "
				   "\"avg_waves_per_simd\": %.4f, \"peak_waves_per_simd\": %u, \"peak_waves_in_flight\": %u, "
				   "\"peak_scratch_slots\": %u, \"scratch_waves\": %u, \"wait_cycles\": {",
				r->dispatches, (unsigned long long)r->cycles, r->us, (unsigned long long)r->waves,
				r->avg_waves_per_simd, r->peak_waves_per_simd, r->peak_waves_in_flight, r->peak_scratch_slots,
				r->scratch_waves);
			for (int w = 0; w < XS_WAIT_COUNT; w++)
				fprintf(f, "%s\"%s\": %llu", w ? ", " : "", xs_wait_cause_name((xs_wait_cause)w),
					(unsigned long long)r->wait[w]);
			fprintf(f, "}, ");
			json_counters(f, r);
			fprintf(f, ", \"digest\": \"%016llx\", \"error\": null}", (unsigned long long)r->digest);
		} else {
			char e[SWEEP_ERROR_MAX + 64];
			fprintf(f, ", \"error\": ");
			xs_cli_json_string(f, r->present ? r->error : row_error(r, i, e, sizeof(e)));
			fprintf(f, "}");
		}
	}
	fprintf(f, "\n], \"best\": ");
	if (best >= 0)
		fprintf(f, "%d, \"best_setting\": ", best), xs_cli_json_string(f, sw->pts[best].label);
	else
		fprintf(f, "null, \"best_setting\": null");
	fprintf(f, ", \"next\": ");
	if (next >= 0)
		fprintf(f, "%d, \"next_setting\": ", next), xs_cli_json_string(f, sw->pts[next].label);
	else
		fprintf(f, "null, \"next_setting\": null");
	if (next >= 0)
		fprintf(f, ", \"margin_percent\": %.4f", margin);
	else
		fprintf(f, ", \"margin_percent\": null");
	fprintf(f, ", \"results_differ\": %s}\n", !sw->recording && digests_differ(sw) ? "true" : "false");
}

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

#define CSV_COUNTERS 10 /* the counters' columns */

/* The counters' columns; the cache and DRAM ones empty without the timing model. */
static void csv_counters(FILE *f, const sweep_row *r)
{
	if (r->counters) {
		double l0 = hit_rate(r->l0_hits, r->l0_misses), l2 = hit_rate(r->l2_hits, r->l2_misses);
		fprintf(f, ",%llu,%llu,", (unsigned long long)r->l0_hits, (unsigned long long)r->l0_misses);
		if (l0 >= 0)
			fprintf(f, "%.4f", l0);
		fprintf(f, ",%llu,%llu,", (unsigned long long)r->l2_hits, (unsigned long long)r->l2_misses);
		if (l2 >= 0)
			fprintf(f, "%.4f", l2);
		fprintf(f, ",%llu", (unsigned long long)r->dram_bytes);
	} else {
		fprintf(f, ",,,,,,,");
	}
	fprintf(f, ",%llu,%llu,%llu,%llu", (unsigned long long)r->scratch_read_bytes,
		(unsigned long long)r->scratch_write_bytes, (unsigned long long)r->lds_bytes,
		(unsigned long long)r->lds_bank_conflict_cycles);
}

int sweep_write_csv(const char *path, const sweep *sw)
{
	xs_outfile o; /* replaced whole or not at all */
	FILE *f = xs_outfile_open(&o, path, "w");
	if (!f) {
		fprintf(stderr, "xs12 sweep: --csv %s: %s\n", path, strerror(errno));
		return 1;
	}
	int next;
	double margin;
	int best = sweep_best(sw, &next, &margin);
	fprintf(f, "index");
	for (int k = 0; k < sw->nvary; k++) {
		fputc(',', f);
		csv_field(f, sw->vary_name[k]);
	}
	fprintf(f, ",ok,best,dispatches,cycles,microseconds,waves_launched,avg_waves_per_simd,peak_waves_per_simd,"
		   "peak_waves_in_flight,peak_scratch_slots,scratch_waves");
	for (int w = 0; w < XS_WAIT_COUNT; w++)
		fprintf(f, ",wait_%s", xs_wait_cause_name((xs_wait_cause)w));
	fprintf(f, ",l0_hits,l0_misses,l0_hit_rate,l2_hits,l2_misses,l2_hit_rate,dram_bytes,scratch_read_bytes,"
		   "scratch_write_bytes,lds_bytes,lds_bank_conflict_cycles,digest,error\n");
	for (int i = 0; i < sw->npoints; i++) {
		const sweep_row *r = &sw->rows[i];
		fprintf(f, "%d", i);
		for (int k = 0; k < sw->nvary; k++) {
			fputc(',', f);
			csv_field(f, sw->pts[i].value[k]);
		}
		fprintf(f, ",%d,%d", row_ok(r), i == best);
		if (row_ok(r)) {
			fprintf(f, ",%u,%llu,%.4f,%llu,%.4f,%u,%u,%u,%u", r->dispatches, (unsigned long long)r->cycles, r->us,
				(unsigned long long)r->waves, r->avg_waves_per_simd, r->peak_waves_per_simd,
				r->peak_waves_in_flight, r->peak_scratch_slots, r->scratch_waves);
			for (int w = 0; w < XS_WAIT_COUNT; w++)
				fprintf(f, ",%llu", (unsigned long long)r->wait[w]);
			csv_counters(f, r);
			fprintf(f, ",%016llx,\n", (unsigned long long)r->digest);
		} else {
			char e[SWEEP_ERROR_MAX + 64];
			fprintf(f, ",,,,,,,,,");
			for (int w = 0; w < XS_WAIT_COUNT + CSV_COUNTERS; w++)
				fputc(',', f);
			fputc(',', f);
			fputc(',', f);
			csv_field(f, r->present ? r->error : row_error(r, i, e, sizeof(e)));
			fputc('\n', f);
		}
	}
	if (xs_outfile_close(&o, f)) {
		fprintf(stderr, "xs12 sweep: --csv %s: %s\n", path, errno ? strerror(errno) : "write error");
		return 1;
	}
	return 0;
}

/* ---- the chart ----------------------------------------------------------------------- */

static void svg_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/* A tick step of 1, 2 or 5 × 10^k giving about 5 ticks up to max. */
static double nice_step(double max)
{
	double raw = max / 5, p = pow(10, floor(log10(raw)));
	double m = raw / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* Horizontal bars, one per point in grid order: the labels are settings,
 * often long, so they read left of their bar. */
int sweep_write_svg(const char *path, const sweep *sw)
{
	xs_outfile o; /* replaced whole or not at all */
	FILE *f = xs_outfile_open(&o, path, "w");
	if (!f) {
		fprintf(stderr, "xs12 sweep: --svg %s: %s\n", path, strerror(errno));
		return 1;
	}
	int next;
	double margin, max = 0;
	int best = sweep_best(sw, &next, &margin);
	size_t label_len = 8;
	for (int i = 0; i < sw->npoints; i++) {
		if (row_ok(&sw->rows[i]))
			max = XS_MAX(max, sw->rows[i].us);
		label_len = XS_MAX(label_len, strlen(sw->pts[i].label));
	}
	const int bar_h = 22, gap = 8, top = 56, right = 110;
	const int left = 28 + (int)XS_MIN(label_len, 60u) * 8; /* 8 px a character: the best row is bold */
	const int plot_w = 560, W = left + plot_w + right;
	const int H = top + sw->npoints * (bar_h + gap) + 60;
	double step = max > 0 ? nice_step(max) : 1, axis_max = max > 0 ? ceil(max / step) * step : 1;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		   "font-family=\"DejaVu Sans, sans-serif\" font-size=\"12\">\n", W, H, W, H);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
	fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">xs12 sweep: ", 20);
	svg_text(f, sw->file);
	fprintf(f, "</text>\n<text x=\"20\" y=\"40\" fill=\"#444\">");
	if (best >= 0) {
		fprintf(f, "best: ");
		svg_text(f, sw->pts[best].label);
		if (next >= 0)
			fprintf(f, " \u2014 %.1f %% faster than the next", margin);
	} else {
		fprintf(f, "no point ran");
	}
	fprintf(f, "</text>\n");
	int axis_y = top + sw->npoints * (bar_h + gap);
	for (double t = 0; t <= axis_max + step / 2; t += step) {
		double x = left + plot_w * t / axis_max;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", x, top - 4, x, axis_y);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n", x, axis_y + 16, t);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", left, axis_y, left + plot_w,
		axis_y);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time of the %s (\u00b5s)</text>\n",
		left + plot_w / 2, axis_y + 36, sw->recording ? "replayed dispatches" : "dispatch");
	for (int i = 0; i < sw->npoints; i++) {
		const sweep_row *r = &sw->rows[i];
		int y = top + i * (bar_h + gap);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\"%s>", left - 8, y + bar_h / 2 + 4,
			i == best ? " font-weight=\"bold\"" : "");
		char lab[64]; /* the left margin holds 60 characters */
		size_t ll = XS_MIN(strlen(sw->pts[i].label), sizeof(lab) - 1);
		memcpy(lab, sw->pts[i].label, ll);
		lab[ll] = 0;
		svg_text(f, lab);
		fprintf(f, "</text>\n");
		if (row_ok(r)) {
			double w = plot_w * r->us / axis_max;
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n", left, y, w, bar_h,
				i == best ? "#e8710a" : "#4e79a7");
			fprintf(f, "<text x=\"%.1f\" y=\"%d\"%s>%.2f%s</text>\n", left + w + 6, y + bar_h / 2 + 4,
				i == best ? " font-weight=\"bold\"" : "", r->us, i == best ? " best" : "");
		} else {
			fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#c00\">%s</text>\n", left + 6, y + bar_h / 2 + 4,
				r->present ? "error (see the table)" : "missing");
		}
	}
	fprintf(f, "</svg>\n");
	if (xs_outfile_close(&o, f)) {
		fprintf(stderr, "xs12 sweep: --svg %s: %s\n", path, errno ? strerror(errno) : "write error");
		return 1;
	}
	return 0;
}
