/* The GPU model's timeline as Chrome trace / Perfetto JSON (deterministic):
 * a "stages" process with a counter track per shader stage (compute, VS, PS
 * waves resident), a process per shader engine with a track per wave slot
 * ("SA1 WGP3 CU1 SIMD0 slot 5"), a "queues" process with a track per queue
 * holding each dispatch or draw as a slice, and named counters of waves in
 * flight, scratch slots in use and ring capacity per queue. Written by the
 * native API (xs_trace_write_json) and by D3D12 devices (XS12_TRACE). */
#include "gpu/xs_gpu_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *xs_gpu_queue_name(unsigned q, char *buf, size_t n)
{
	if (q == 0)
		snprintf(buf, n, "direct queue");
	else
		snprintf(buf, n, "compute queue %u", q);
	return buf;
}

/* Queues any dispatch of the trace ran on, as a bit mask. */
unsigned xs_gpu_trace_queues_used(const xs_gpu_trace *t)
{
	unsigned m = 0;
	for (size_t i = 0; i < t->ndisps; i++)
		m |= 1u << t->disps[i].queue;
	for (size_t i = 0; i < t->nwaves; i++)
		m |= 1u << t->waves[i].queue;
	return m;
}

enum { PID_QUEUES = 1, PID_STAGES = 2, PID_SE0 = 10 };

/* One counter track per shader stage (compute, VS, PS): resident waves over
 * time, from the waves' start and end (a step per change, in time order). */
typedef struct stage_ev {
	uint64_t t;
	int stage, delta;
} stage_ev;

static int stage_ev_cmp(const void *a, const void *b)
{
	const stage_ev *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->delta - y->delta;   /* ends before starts at the same cycle */
}

static void stage_counters(FILE *f, const xs_gpu_trace *t, double mhz)
{
	stage_ev *ev = t->nwaves ? xs_malloc(2 * t->nwaves * sizeof(*ev)) : NULL;
	if (!ev)
		return;
	for (size_t i = 0; i < t->nwaves; i++) {
		const xs_gpu_trace_wave *w = &t->waves[i];
		int st = w->stage == XS_GPU_TRACE_VS ? 1 : w->stage == XS_GPU_TRACE_CS ? 0 : 2;
		ev[2 * i] = (stage_ev){ w->start, st, 1 };
		ev[2 * i + 1] = (stage_ev){ w->end, st, -1 };
	}
	qsort(ev, 2 * t->nwaves, sizeof(*ev), stage_ev_cmp);
	static const char *const name[3] = { "compute waves", "VS waves", "PS waves" };
	int n[3] = { 0, 0, 0 };
	bool seen[3] = { false, false, false };
	for (size_t i = 0; i < 2 * t->nwaves; i++)
		seen[ev[i].stage] = true;
	for (size_t i = 0; i < 2 * t->nwaves; i++) {
		n[ev[i].stage] += ev[i].delta;
		if (i + 1 < 2 * t->nwaves && ev[i + 1].t == ev[i].t)
			continue;   /* one sample per cycle that changed */
		for (int s = 0; s < 3; s++)
			if (seen[s])
				fprintf(f, ",\n{\"ph\": \"C\", \"name\": \"%s\", \"pid\": %d, \"ts\": %.4f, \"args\": "
					   "{\"waves\": %d}}", name[s], PID_STAGES, ev[i].t / mhz, n[s]);
	}
	free(ev);
}


void xs_gpu_trace_write_json(const xs_gpu *g, FILE *f)
{
	const xs_gpu_trace *t = &g->trace;
	const xs_devinfo *di = g->info;
	double mhz = di->sclk_mhz; /* cycles / MHz = microseconds, Chrome's unit */
	char qn[32];
	fprintf(f, "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"machine\": \"%s\", \"sclk_mhz\": %u, "
		   "\"truncated\": %s},\n\"traceEvents\": [\n", di->name, di->sclk_mhz, t->truncated ? "true" : "false");
	/* Names: the queues process and its tracks, one process per SE. */
	fprintf(f, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %d, \"args\": {\"name\": \"queues\"}},\n"
		   "{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": %d, \"args\": {\"sort_index\": 0}}",
		PID_QUEUES, PID_QUEUES);
	fprintf(f, ",\n{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %d, \"args\": {\"name\": \"stages\"}},\n"
		   "{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": %d, \"args\": {\"sort_index\": 0}}",
		PID_STAGES, PID_STAGES);
	unsigned used = xs_gpu_trace_queues_used(t);
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
		if (used >> q & 1)
			fprintf(f, ",\n{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %d, \"tid\": %u, \"args\": "
				   "{\"name\": \"%s\"}}", PID_QUEUES, q, xs_gpu_queue_name(q, qn, sizeof(qn)));
	for (uint32_t se = 0; se < di->num_se; se++)
		fprintf(f, ",\n{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %u, \"args\": {\"name\": \"SE%u\"}}"
			   ",\n{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": %u, \"args\": {\"sort_index\": %u}}",
			PID_SE0 + se, se, PID_SE0 + se, 1 + se);
	/* Wave-slot tracks that hold a wave: tid = CU * 64 + SIMD * 16 + slot. */
	static uint8_t named[XS_GPU_MAX_CU * 64];
	memset(named, 0, sizeof(named));
	for (size_t i = 0; i < t->nwaves; i++) {
		const xs_gpu_trace_wave *w = &t->waves[i];
		uint32_t tid = w->cu * 64 + w->simd * 16 + w->slot;
		if (w->cu >= XS_GPU_MAX_CU || named[tid])
			continue;
		named[tid] = 1;
		uint32_t se, sa, wgp, cu;
		xs_gpu_cu_place(g, w->cu, &se, &sa, &wgp, &cu);
		fprintf(f, ",\n{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %u, \"tid\": %u, \"args\": {\"name\": "
			   "\"SA%u WGP%u CU%u SIMD%u slot %u\"}},\n{\"ph\": \"M\", \"name\": \"thread_sort_index\", "
			   "\"pid\": %u, \"tid\": %u, \"args\": {\"sort_index\": %u}}",
			PID_SE0 + se, tid, sa, wgp, cu, w->simd, w->slot, PID_SE0 + se, tid, tid);
	}
	/* Dispatches as slices on their queue's track. */
	for (size_t i = 0; i < t->ndisps; i++) {
		const xs_gpu_trace_disp *d = &t->disps[i];
		fprintf(f, ",\n{\"ph\": \"X\", \"name\": \"dispatch %u%s\", \"cat\": \"dispatch\", \"pid\": %d, "
			   "\"tid\": %u, \"ts\": %.4f, \"dur\": %.4f, \"args\": {\"groups\": %llu, \"waves\": %llu, "
			   "\"start_cycle\": %llu, \"end_cycle\": %llu}}",
			d->id, d->removed ? " (device removed)" : "", PID_QUEUES, d->queue, d->start / mhz,
			(d->end - d->start) / mhz, (unsigned long long)d->groups, (unsigned long long)d->waves,
			(unsigned long long)d->start, (unsigned long long)d->end);
	}
	/* Waves as slices on their slot's track. */
	for (size_t i = 0; i < t->nwaves; i++) {
		const xs_gpu_trace_wave *w = &t->waves[i];
		uint32_t se, sa, wgp, cu;
		xs_gpu_cu_place(g, w->cu, &se, &sa, &wgp, &cu);
		if (w->stage != XS_GPU_TRACE_CS) {
			/* a draw's VS or PS wave: the stage names it and is its category */
			const char *stage = w->stage == XS_GPU_TRACE_VS ? "VS" : "PS";
			fprintf(f, ",\n{\"ph\": \"X\", \"name\": \"d%u %s\", \"cat\": \"%s,%s%s\", \"pid\": %u, "
				   "\"tid\": %u, \"ts\": %.4f, \"dur\": %.4f}",
				w->dispatch, stage, xs_gpu_queue_name(w->queue, qn, sizeof(qn)), stage,
				w->scratch ? ",scratch" : "", PID_SE0 + se, w->cu * 64 + w->simd * 16 + w->slot, w->start / mhz,
				(w->end - w->start) / mhz);
			continue;
		}
		fprintf(f, ",\n{\"ph\": \"X\", \"name\": \"d%u g(%u,%u,%u) w%u\", \"cat\": \"%s%s\", \"pid\": %u, "
			   "\"tid\": %u, \"ts\": %.4f, \"dur\": %.4f}",
			w->dispatch, w->group[0], w->group[1], w->group[2], w->wave_in_group,
			xs_gpu_queue_name(w->queue, qn, sizeof(qn)), w->scratch ? ",scratch" : "", PID_SE0 + se,
			w->cu * 64 + w->simd * 16 + w->slot, w->start / mhz, (w->end - w->start) / mhz);
	}
	/* Counters, a series per queue used. */
	static const char *const counter[3] = { "waves in flight", "scratch slots in use", "scratch ring slots" };
	for (size_t i = 0; i < t->nsamples; i++) {
		const xs_gpu_trace_sample *s = &t->samples[i];
		for (int c = 0; c < 3; c++) {
			const uint16_t *v = c == 0 ? s->q_waves : c == 1 ? s->q_scratch : s->q_ring;
			fprintf(f, ",\n{\"ph\": \"C\", \"name\": \"%s\", \"pid\": %d, \"ts\": %.4f, \"args\": {", counter[c],
				PID_QUEUES, s->t / mhz);
			bool first = true;
			for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
				if (used >> q & 1) {
					fprintf(f, "%s\"%s\": %u", first ? "" : ", ", xs_gpu_queue_name(q, qn, sizeof(qn)), v[q]);
					first = false;
				}
			fprintf(f, "}}");
		}
	}
	stage_counters(f, t, mhz);
	fprintf(f, "\n]}\n");
}

