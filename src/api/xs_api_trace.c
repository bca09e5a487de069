/* Timelines of what the GPU did: Chrome trace / Perfetto JSON (one track
 * per wave slot, counters for waves in flight and scratch slots) and an SVG
 * occupancy chart. Written from the GPU model's records; deterministic. */
#include "api/xs_api_priv.h"

#include <errno.h>
#include <stdio.h>
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
	const xs_gpu_trace *t = xs_gpu_trace_get(dev->gpu);
	const xs_devinfo *di = dev->info;
	FILE *f = open_out(dev, path);
	if (!f)
		return XS_E_IO;
	double mhz = di->sclk_mhz; /* cycles / MHz = microseconds, Chrome's unit */
	fprintf(f, "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"machine\": \"%s\", \"sclk_mhz\": %u, "
		   "\"truncated\": %s},\n\"traceEvents\": [\n", di->name, di->sclk_mhz,
		t->truncated ? "true" : "false");
	bool used[XS_GPU_MAX_CU] = { 0 };
	for (size_t i = 0; i < t->nwaves; i++)
		if (t->waves[i].cu < XS_GPU_MAX_CU)
			used[t->waves[i].cu] = true;
	for (uint32_t c = 0; c < di->num_cu; c++)
		if (used[c])
			fprintf(f, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %u, \"args\": {\"name\": \"CU %u\"}},\n",
				c, c);
	fprintf(f, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %u, \"args\": {\"name\": \"GPU\"}}",
		XS_GPU_MAX_CU);
	for (size_t i = 0; i < t->nwaves; i++) {
		const xs_gpu_trace_wave *w = &t->waves[i];
		fprintf(f, ",\n{\"ph\": \"X\", \"name\": \"d%u g(%u,%u,%u) w%u\", \"cat\": \"queue%u%s\", \"pid\": %u, "
			   "\"tid\": %u, \"ts\": %.4f, \"dur\": %.4f}",
			w->dispatch, w->group[0], w->group[1], w->group[2], w->wave_in_group, w->queue,
			w->scratch ? ",scratch" : "", w->cu, w->simd * di->wave_slots_per_simd + w->slot,
			w->start / mhz, (w->end - w->start) / mhz);
	}
	for (size_t i = 0; i < t->nsamples; i++)
		fprintf(f, ",\n{\"ph\": \"C\", \"name\": \"occupancy\", \"pid\": %u, \"ts\": %.4f, "
			   "\"args\": {\"waves\": %u, \"scratch slots\": %u}}",
			XS_GPU_MAX_CU, t->samples[i].t / mhz, t->samples[i].waves, t->samples[i].scratch_slots);
	fprintf(f, "\n]}\n");
	return close_out(dev, f, path);
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
	const double W = 900, H = 300, X0 = 70, Y0 = 30;
	uint64_t t0 = t->nsamples ? t->samples[0].t : 0, t1 = t0 + 1;
	uint32_t ymax = di->num_cu * di->simds_per_cu * di->wave_slots_per_simd;
	for (size_t i = 0; i < t->nsamples; i++)
		t1 = XS_MAX(t1, t->samples[i].t);
	double xs = W / (double)(t1 - t0), ys = H / ymax;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		   "font-family=\"sans-serif\" font-size=\"12\">\n", W + X0 + 50, H + Y0 + 50);
	fprintf(f, "<text x=\"%.0f\" y=\"18\">Waves in flight (blue) and scratch slots in use (orange), %s</text>\n",
		X0, di->name);
	fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#999\"/>\n",
		X0, Y0, W, H);
	for (int k = 0; k <= 4; k++) {
		double y = Y0 + H - H * k / 4;
		fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%u</text>\n", X0 - 6, y + 4, ymax * k / 4);
		fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.2f us</text>\n", X0 + W * k / 4,
			Y0 + H + 18, ((t1 - t0) * k / 4.0) / di->sclk_mhz);
	}
	for (int series = 0; series < 2; series++) {
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", series ? "#e67e22" : "#2a6fdb");
		uint32_t prev = 0;
		for (size_t i = 0; i < t->nsamples; i++) {
			uint32_t v = series ? t->samples[i].scratch_slots : t->samples[i].waves;
			double x = X0 + (t->samples[i].t - t0) * xs;
			fprintf(f, "%.1f,%.1f %.1f,%.1f ", x, Y0 + H - prev * ys, x, Y0 + H - v * ys);
			prev = v;
		}
		fprintf(f, "\"/>\n");
	}
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">cycles %llu..%llu at %u MHz; y: waves (max %u = %u CUs x %u SIMDs x %u slots)</text>\n",
		X0, Y0 + H + 40, (unsigned long long)t0, (unsigned long long)t1, di->sclk_mhz, ymax, di->num_cu,
		di->simds_per_cu, di->wave_slots_per_simd);
	fprintf(f, "</svg>\n");
	return close_out(dev, f, path);
}
