/*
 * Dispatches of the native API: each becomes a launch of the runtime
 * (kernarg segment, AQL packet, scratch ring, registers, DISPATCH_DIRECT;
 * src/runtime/xs_rt_launch.c), recorded into one command buffer per queue,
 * submitted together and run to completion.
 *
 * The rules are the D3D12 layer's, without a debug layer unless the device
 * asked for one: with the driver's default scratch (one allocation shared
 * by every queue, SPEC S1.8) scratch-using dispatches of different queues
 * run side by side on the same memory, as the hardware would run them;
 * with desc.debug_layer such a dispatch on an async queue is refused.
 */
#include "api/xs_api_priv.h"
#include "gpu/xs_gpu_occupancy.h"

#include <stdlib.h>
#include <string.h>

static xs_status check_desc(const xs_device *dev, const xs_dispatch_desc *d, xs_err *e)
{
	if (!d || !d->kernel || !d->module)
		return xs_err_set(e, XS_E_INVALID_ARG, "xs_dispatch: NULL descriptor, kernel or module");
	const xs_codeobj *co = d->module->rt->co;
	const xs_codeobj_kernel *k = (const xs_codeobj_kernel *)d->kernel;
	if (d->module->dev != dev || k < co->kernels || k >= co->kernels + co->nkernels)
		return xs_err_set(e, XS_E_INVALID_ARG, "xs_dispatch: the kernel is not from this module of this device");
	return XS_OK;
}

void xs_api_fill_stats(const xs_devinfo *info, bool timing, const xs_gpu_dispatch_result *r, xs_dispatch_stats *s)
{
	*s = (xs_dispatch_stats){
		.waves_launched = r->waves_launched,
		.wave_instructions = r->wave_insts,
		.start_cycle = r->start_cycle,
		.end_cycle = r->end_cycle,
		.cycles = r->cycles,
		.microseconds = (double)r->cycles / info->sclk_mhz,
		.peak_waves_in_flight = r->peak_waves,
		.peak_waves_per_simd = r->peak_waves_per_simd,
		.avg_waves_per_simd = r->avg_waves_per_simd,
		.peak_scratch_slots = r->peak_scratch_slots,
		.scratch_waves = r->scratch_slots,
		.num_cu = info->num_cu,
	};
	/* the arrays are copied by position: the causes in the same order */
	_Static_assert((int)XS_WAIT_COUNT == (int)XS_GPU_WAIT_COUNT, "wait causes");
	_Static_assert((int)XS_WAIT_WAVE_SLOT == (int)XS_GPU_WAIT_WAVE_SLOT && (int)XS_WAIT_VGPR == (int)XS_GPU_WAIT_VGPR &&
		       (int)XS_WAIT_LDS == (int)XS_GPU_WAIT_LDS && (int)XS_WAIT_BARRIER == (int)XS_GPU_WAIT_BARRIER &&
		       (int)XS_WAIT_SCRATCH_SLOT == (int)XS_GPU_WAIT_SCRATCH && (int)XS_WAIT_CU_LIMIT == (int)XS_GPU_WAIT_LIMIT,
		       "wait causes in the same order");
	_Static_assert((int)XS_MAX_CUS == (int)XS_GPU_MAX_CU, "CU count");
	_Static_assert((int)XS_MAX_QUEUES == (int)XS_GPU_MAX_QUEUES, "queue count");
	memcpy(s->wait_cycles, r->wait_cycles, sizeof(s->wait_cycles));
	memcpy(s->cu_busy_cycles, r->cu_busy, sizeof(s->cu_busy_cycles));
	xs_api_fill_counters(info, timing, r, &s->counters);
}

/* A launch's figures: the ring's size only when the kernel uses scratch. */
static void fill_stats(const xs_device *dev, const xs_gpu_dispatch_result *r, const xs_rt_launch_info *li,
		       xs_dispatch_stats *s, double host)
{
	xs_api_fill_stats(dev->info, !dev->rt->functional, r, s);
	s->scratch_waves = li->scratch_en ? r->scratch_slots : 0;
	s->scratch_wavesize_kb = li->scratch_en ? (uint32_t)(li->per_wave / 1024) : 0;
	s->host_seconds = host;
}

XS_API xs_status xs_dispatch_batch(xs_device *dev, const xs_dispatch_desc *descs, uint32_t n,
				   xs_dispatch_stats *stats)
{
	if (!dev || (!descs && n))
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_dispatch_batch: NULL device or descriptors");
	if (n > XS_GPU_MAX_ACTIVE)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_dispatch_batch: at most %d dispatches at once",
				    XS_GPU_MAX_ACTIVE);
	double t0 = xs_now_seconds();
	xs_err e = { 0 };
	xs_status st = XS_OK;
	xs_pm4_builder cb[XS_GPU_MAX_QUEUES];
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
		xs_pm4_builder_init(&cb[q], 0);
	xs_rt_launch_info info[XS_GPU_MAX_ACTIVE];
	/* Results in queue order: the CP fills a submission's dispatch by dispatch. */
	xs_gpu_dispatch_result res[XS_GPU_MAX_ACTIVE];
	uint32_t nres[XS_GPU_MAX_QUEUES] = { 0 }, res_base[XS_GPU_MAX_QUEUES] = { 0 }, r_index[XS_GPU_MAX_ACTIVE];
	memset(res, 0, sizeof(res));
	for (uint32_t i = 0; i < n && !st; i++)
		st = check_desc(dev, &descs[i], &e);
	uint32_t k = 0, nrec = 0;
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES && !st; q++) {
		res_base[q] = k;
		for (uint32_t i = 0; i < n; i++)
			if (descs[i].queue == q)
				k++;
	}
	for (uint32_t i = 0; i < n && !st; i++) {
		const xs_dispatch_desc *d = &descs[i];
		const xs_codeobj_kernel *kk = (const xs_codeobj_kernel *)d->kernel;
		unsigned q = d->queue;
		xs_rt_launch L = {
			.mod = d->module->rt, .k = kk, .groups = { d->groups[0], d->groups[1], d->groups[2] },
			.block = { d->block[0], d->block[1], d->block[2] }, .kernargs = d->kernargs,
			.kernargs_size = d->kernargs_size, .dynamic_lds = d->dynamic_lds, .work_dim = d->work_dim,
			.cu_mask = d->cu_mask, .queue = q, .launch_override = d->launch_parameters, .ring = q < XS_GPU_MAX_QUEUES ? dev->ring[q] : (xs_rt_ring){ 0 },
		};
		if ((st = xs_rt_check_launch(dev->rt, &L, &e)))
			break;
		uint64_t per_wave = xs_gpu_scratch_per_wave(dev->info, kk->info.rsrc2, kk->info.private_segment_fixed_size,
							    kk->info.wavefront_size);
		if (dev->debug && q > 0 && per_wave && !L.ring.va) {
			st = xs_rt_fail(&e, XS_E_INVALID_ARG, XS_MSG_SCRATCH_DEFAULT_ON_ASYNC,
					"%s (%llu KB of scratch per wave) on async compute queue %u: the driver's default "
					"scratch is one allocation shared with graphics, which async compute may not use; "
					"give the queue a ring of its own with xs_set_scratch_space (S1.9)", kk->info.name,
					(unsigned long long)per_wave / 1024, q);
			break;
		}
		if ((st = xs_rt_record_launch(dev->rt, &dev->mem, &cb[q], &L, &info[i], &e)))
			break;
		r_index[i] = res_base[q] + nres[q]++;
		nrec++;
	}
	uint64_t seq[XS_GPU_MAX_QUEUES] = { 0 };
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES && !st; q++) {
		if (!cb[q].cdw)
			continue;
		uint64_t va;
		uint8_t *host;
		if ((st = xs_rt_cmdmem_alloc(&dev->mem, cb[q].cdw * 4, 256, &va, &host, &e)))
			break;
		memcpy(host, cb[q].dw, cb[q].cdw * 4);
		st = xs_rt_submit(dev->rt, q, va, (uint32_t)cb[q].cdw, res + res_base[q], nres[q], &seq[q], &e);
	}
	/* Synchronous: everything submitted runs to completion (the queues
	 * start together, at the GPU's current time). */
	if (!st) {
		st = xs_rt_finish(dev->rt, &e);
	} else {
		/* a queue's submission failed (host memory): the queues
		 * submitted before it run out before their command memory is
		 * reset below */
		xs_err drain;
		xs_rt_finish(dev->rt, &drain);
	}
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
		xs_pm4_builder_free(&cb[q]);
	if (st == XS_E_DEVICE_REMOVED || st == XS_E_INTERRUPTED || xs_rt_removed(dev->rt))
		xs_rt_recover(dev->rt); /* the native device lives on: the next call starts afresh */
	xs_rt_cmdmem_reset(&dev->mem);
	double host = xs_now_seconds() - t0;
	/* Figures on failure too: what ran before a removal was measured. */
	if (stats && nrec == n)
		for (uint32_t i = 0; i < n; i++)
			fill_stats(dev, &res[r_index[i]], &info[i], &stats[i], host);
	return st ? xs_api_fail(dev, &e) : XS_OK;
}

XS_API xs_status xs_dispatch(xs_device *dev, const xs_dispatch_desc *d, xs_dispatch_stats *stats)
{
	/* a batch of none is fine, a dispatch of nothing is not */
	if (!d)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_dispatch: NULL descriptor");
	return xs_dispatch_batch(dev, d, 1, stats);
}

/* SetShaderScratchSpaceX for one queue's compute ring (SPEC S1). */
XS_API xs_status xs_set_scratch_space(xs_device *dev, uint32_t queue, uint64_t va, uint64_t size_bytes,
				      uint32_t size_per_wave)
{
	if (!dev)
		return xs_api_failf(NULL, XS_E_INVALID_ARG, "xs_set_scratch_space: NULL device");
	xs_err e;
	if (queue >= XS_GPU_MAX_QUEUES)
		return xs_api_fail(dev, (xs_rt_fail(&e, XS_E_INVALID_ARG, XS_MSG_DISPATCH_QUEUE,
						    "xs_set_scratch_space: no queue %u (0 direct, 1..%u async compute)",
						    queue, XS_GPU_MAX_QUEUES - 1), &e));
	if (xs_rt_check_scratch_space(dev->rt, va, size_bytes, size_per_wave, &e))
		return xs_api_fail(dev, &e);
	/* S1.10: memory is not checked for reuse; the title owns it. */
	dev->ring[queue] = va ? (xs_rt_ring){ .va = va, .size = size_bytes, .per_wave = size_per_wave }
			      : (xs_rt_ring){ 0 }; /* S1.4: back to the driver default */
	return XS_OK;
}
