/* Timelines of what the GPU did, written from the GPU model's records
 * (deterministic):
 *  - Chrome trace / Perfetto JSON: a process per shader engine with a track
 *    per wave slot ("SA1 WGP3 CU1 SIMD0 slot 5"), a "queues" process with a
 *    track per queue holding each dispatch as a slice, and named counters of
 *    waves in flight, scratch slots in use and ring capacity per queue;
 *  - an SVG chart of the same counters, scaled to the data. */
#include "api/xs_api_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

XS_API void xs_device_trace(xs_device *dev, bool on)
{
	if (dev)
		xs_gpu_trace_enable(dev->gpu, on);
}

static FILE *open_out(xs_device *dev, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		xs_api_failf(dev, XS_E_IO, "%s: cannot write: %s", path, strerror(errno));
	return f;
}

static xs_status close_out(xs_device *dev, FILE *f, const char *path)
{
	if (ferror(f) | (fclose(f) != 0))
		return xs_api_failf(dev, XS_E_IO, "%s: write failed", path);
	return XS_OK;
}


XS_API xs_status xs_trace_write_json(xs_device *dev, const char *path)
{
	if (!dev || !path)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_trace_write_json: NULL argument");
	FILE *f = open_out(dev, path);
	if (!f)
		return XS_E_IO;
	xs_gpu_trace_write_json(dev->gpu, f);
	return close_out(dev, f, path);
}

/* ---- SVG ------------------------------------------------------------------------------ */

/* A round step for about n ticks over [0, max]: 1, 2 or 5 times a power of ten. */
static double nice_step(double max, int n)
{
	double raw = max / n, p = pow(10, floor(log10(raw > 0 ? raw : 1)));
	double m = raw / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static const char *const qcolor[XS_GPU_MAX_QUEUES] = { "#2a6fdb", "#d35400", "#27ae60", "#8e44ad" };

/* A step line of one series (0 waves, 1 scratch slots, 2 ring slots) of queue q. */
static void series(FILE *f, const xs_gpu_trace *t, unsigned q, int kind, double x0, double y0, double xs, double ys,
		   uint64_t t0, bool area)
{
	double base = y0;
	fprintf(f, area ? "<path fill=\"%s\" fill-opacity=\"0.25\" stroke=\"%s\" stroke-width=\"1.2\" d=\"M%.1f,%.1f"
			: "<path fill=\"none\" stroke=\"%s\" %s d=\"M%.1f,%.1f",
		qcolor[q], area ? qcolor[q] : kind == 1 ? "stroke-width=\"2.2\" stroke-dasharray=\"6,3\""
							: "stroke-width=\"1.2\" stroke-dasharray=\"1.5,3\" stroke-linecap=\"round\"",
		x0, base);
	double last_x = x0;
	uint32_t prev = 0;
	for (size_t i = 0; i < t->nsamples; i++) {
		const xs_gpu_trace_sample *s = &t->samples[i];
		uint32_t v = kind == 0 ? s->q_waves[q] : kind == 1 ? s->q_scratch[q] : s->q_ring[q];
		double x = x0 + (double)(s->t - t0) * xs;
		fprintf(f, " L%.1f,%.1f L%.1f,%.1f", x, base - prev * ys, x, base - v * ys);
		prev = v;
		last_x = x;
	}
	if (area)
		fprintf(f, " L%.1f,%.1f Z", last_x, base);
	fprintf(f, "\"/>\n");
}

XS_API xs_status xs_trace_write_svg(xs_device *dev, const char *path)
{
	if (!dev || !path)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_trace_write_svg: NULL argument");
	const xs_gpu_trace *t = xs_gpu_trace_get(dev->gpu);
	const xs_devinfo *di = dev->info;
	FILE *f = open_out(dev, path);
	if (!f)
		return XS_E_IO;
	const double W = 820, H = 300, X0 = 70, Y0 = 40, LEG = 200;
	uint64_t t0 = t->nsamples ? t->samples[0].t : 0, t1 = t0 + 1;
	uint32_t ymax = 1;
	unsigned used = xs_gpu_trace_queues_used(t);
	for (size_t i = 0; i < t->nsamples; i++) {
		const xs_gpu_trace_sample *s = &t->samples[i];
		t1 = XS_MAX(t1, s->t);
		for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
			ymax = XS_MAX(ymax, XS_MAX((uint32_t)s->q_waves[q], XS_MAX((uint32_t)s->q_scratch[q], (uint32_t)s->q_ring[q])));
	}
	double ystep = nice_step(ymax * 1.05, 5), ytop = ceil(ymax * 1.05 / ystep) * ystep;
	double us = (double)(t1 - t0) / di->sclk_mhz, xstep = nice_step(us, 6);
	double xs = W / (double)(t1 - t0), ys = H / ytop, ybase = Y0 + H;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		   "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		X0 + W + LEG, Y0 + H + 70);
	fprintf(f, "<text x=\"%.0f\" y=\"22\" font-size=\"14\">Waves in flight and scratch slots per queue, %s</text>\n", X0,
		di->name);
	/* grid and axes */
	for (double y = 0; y <= ytop + 1e-9; y += ystep) {
		double py = ybase - y * ys;
		fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>\n"
			   "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n",
			X0, X0 + W, py, py, X0 - 6, py + 4, y);
	}
	for (double x = 0; x <= us + 1e-9; x += xstep) {
		double px = X0 + x * W / us;
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#e5e5e5\"/>\n"
			   "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%g</text>\n",
			px, px, Y0, ybase, px, ybase + 16, x);
	}
	fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#888\"/>\n", X0, Y0, W,
		H);
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">time (µs) — cycles %llu..%llu at %u MHz</text>\n",
		X0 + W / 2, ybase + 36, (unsigned long long)t0, (unsigned long long)t1, di->sclk_mhz);
	fprintf(f, "<text transform=\"translate(18,%.0f) rotate(-90)\" text-anchor=\"middle\">waves / scratch slots "
		   "(the machine holds %u waves)</text>\n",
		Y0 + H / 2, di->num_cu * di->simds_per_cu * di->wave_slots_per_simd);
	/* series: waves as an area, scratch slots dashed on top (visible where
	 * they coincide), the ring's capacity dotted */
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
		if (used >> q & 1)
			series(f, t, q, 0, X0, ybase, xs, ys, t0, true);
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
		if (used >> q & 1) {
			series(f, t, q, 1, X0, ybase, xs, ys, t0, false);
			series(f, t, q, 2, X0, ybase, xs, ys, t0, false);
		}
	/* legend */
	double ly = Y0 + 8;
	char qn[32];
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++) {
		if (!(used >> q & 1))
			continue;
		double lx = X0 + W + 16;
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-weight=\"bold\">%s</text>\n", lx, ly, xs_gpu_queue_name(q, qn, sizeof(qn)));
		fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"22\" height=\"10\" fill=\"%s\" fill-opacity=\"0.25\" "
			   "stroke=\"%s\"/><text x=\"%.0f\" y=\"%.0f\">waves in flight</text>\n",
			lx, ly + 8, qcolor[q], qcolor[q], lx + 28, ly + 17);
		fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"2.2\" "
			   "stroke-dasharray=\"6,3\"/><text x=\"%.0f\" y=\"%.0f\">scratch slots in use</text>\n",
			lx, lx + 22, ly + 31, ly + 31, qcolor[q], lx + 28, ly + 35);
		fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"1.2\" "
			   "stroke-dasharray=\"1.5,3\" stroke-linecap=\"round\"/><text x=\"%.0f\" y=\"%.0f\">scratch ring "
			   "slots</text>\n",
			lx, lx + 22, ly + 49, ly + 49, qcolor[q], lx + 28, ly + 53);
		ly += 76;
	}
	if (t->truncated)
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" fill=\"#c0392b\">trace truncated at %u records</text>\n", X0,
			ybase + 56, XS_GPU_TRACE_MAX);
	fprintf(f, "</svg>\n");
	return close_out(dev, f, path);
}
