/*
 * XS12GetDispatchStatistics: the GPU model's figures for each dispatch of a
 * command list's last completed execution (d3d12_xs.h). Every execution
 * gets its own result array, which the command processor fills as the
 * dispatches run (the runtime's submission results); the device keeps the
 * latest one of each list, and frees older ones once they completed.
 */
#include "d3d12/xs_d3d12_private.h"

#include <stdlib.h>
#include <string.h>

static void prune(d3d12_device *d)
{
	UINT k = 0;
	for (UINT i = 0; i < d->nexecs; i++) {
		d3d12_exec *x = &d->execs[i];
		if (x->superseded && xs_rt_queue_done(d->rt, x->hw) >= x->seq)
			free(x->res);
		else
			d->execs[k++] = *x;
	}
	d->nexecs = k;
}

xs_gpu_dispatch_result *d3d12_exec_begin(d3d12_device *d, uint32_t list_id, uint32_t n)
{
	prune(d);
	if (d->nexecs == d->cap_execs) {
		UINT ncap = d->cap_execs ? 2 * d->cap_execs : 16;
		d3d12_exec *e = xs_realloc(d->execs, ncap * sizeof(*e));
		if (!e)
			return NULL;
		d->execs = e;
		d->cap_execs = ncap;
	}
	xs_gpu_dispatch_result *res = xs_calloc(n ? n : 1, sizeof(*res));
	if (!res)
		return NULL;
	for (UINT i = 0; i < d->nexecs; i++)
		if (d->execs[i].list_id == list_id)
			d->execs[i].superseded = true;
	d->execs[d->nexecs++] = (d3d12_exec){ .list_id = list_id, .res = res, .n = n };
	return res;
}

void d3d12_exec_submitted(d3d12_device *d, unsigned hw, uint64_t seq)
{
	d->execs[d->nexecs - 1].hw = hw;
	d->execs[d->nexecs - 1].seq = seq;
}

void d3d12_exec_failed(d3d12_device *d)
{
	free(d->execs[--d->nexecs].res);
}

void d3d12_exec_forget_list(d3d12_device *d, uint32_t list_id)
{
	pthread_mutex_lock(&d->submit_lock);
	for (UINT i = 0; i < d->nexecs; i++)
		if (d->execs[i].list_id == list_id)
			d->execs[i].superseded = true;
	prune(d);
	pthread_mutex_unlock(&d->submit_lock);
}

void d3d12_exec_fini(d3d12_device *d)
{
	for (UINT i = 0; i < d->nexecs; i++)
		free(d->execs[i].res);
	free(d->execs);
}

/* The list's latest execution whose results are in (the caller holds
 * submit_lock), and the index-th result of the kind asked for: results are
 * in packet order, dispatches and draws mixed (xs_gpu_gfx_stats.is_draw). */
static HRESULT find_result(d3d12_list *l, UINT index, bool draw, const xs_gpu_dispatch_result **out)
{
	d3d12_device *d = l->obj.device;
	const d3d12_exec *x = NULL;
	for (UINT i = 0; i < d->nexecs; i++)
		if (d->execs[i].list_id == l->id && !d->execs[i].superseded)
			x = &d->execs[i];
	if (!x || xs_rt_queue_done(d->rt, x->hw) < x->seq)
		return DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;
	for (UINT i = 0, k = 0; i < x->n; i++)
		if (x->res[i].gfx.is_draw == draw && k++ == index) {
			*out = &x->res[i];
			return S_OK;
		}
	return E_INVALIDARG;
}

/* The index-th result of a list's latest execution, with the device's
 * submit_lock held (*dev set; the caller unlocks), or *dev NULL for a
 * list or out pointer that is not one. */
static HRESULT lock_result(ID3D12GraphicsCommandList *list, UINT index, bool draw, const void *out,
			   d3d12_device **dev, const xs_gpu_dispatch_result **r)
{
	*dev = NULL;
	d3d12_list *l = d3d12_list_from_command_list((ID3D12CommandList *)list);
	if (!l || !out)
		return E_INVALIDARG;
	d3d12_device *d = l->obj.device;
	xs_rt_poll(d->rt); /* the host looks: the GPU runs */
	pthread_mutex_lock(&d->submit_lock);
	*dev = d;
	return find_result(l, index, draw, r);
}

XS_D3D12_EXPORT HRESULT WINAPI XS12GetDispatchStatistics(ID3D12GraphicsCommandList *list, UINT index,
							 XS12_DISPATCH_STATISTICS *out)
{
	d3d12_device *d;
	const xs_gpu_dispatch_result *r = NULL;
	HRESULT hr = lock_result(list, index, false, out, &d, &r);
	if (!d)
		return hr;
	if (hr == S_OK) {
		memset(out, 0, sizeof(*out));
		out->StartCycle = r->start_cycle;
		out->EndCycle = r->end_cycle;
		out->Cycles = r->cycles;
		out->Microseconds = (double)r->cycles / d->rt->info->sclk_mhz;
		out->WavesLaunched = r->waves_launched;
		out->WaveInstructions = r->wave_insts;
		out->PeakWavesInFlight = r->peak_waves;
		out->PeakWavesPerSimd = r->peak_waves_per_simd;
		out->AverageWavesPerSimd = r->avg_waves_per_simd;
		out->ScratchSlots = r->scratch_slots;
		out->PeakScratchSlots = r->peak_scratch_slots;
		_Static_assert(sizeof(out->WaitCycles) == sizeof(r->wait_cycles), "wait causes");
		memcpy(out->WaitCycles, r->wait_cycles, sizeof(out->WaitCycles));
	}
	pthread_mutex_unlock(&d->submit_lock);
	return hr;
}

XS_D3D12_EXPORT HRESULT WINAPI XS12GetDrawStatistics(ID3D12GraphicsCommandList *list, UINT index,
						     XS12_DRAW_STATISTICS *out)
{
	d3d12_device *d;
	const xs_gpu_dispatch_result *r = NULL;
	HRESULT hr = lock_result(list, index, true, out, &d, &r);
	if (!d)
		return hr;
	if (hr == S_OK) {
		const xs_gpu_gfx_stats *g = &r->gfx;
		memset(out, 0, sizeof(*out));
		out->StartCycle = r->start_cycle;
		out->EndCycle = r->end_cycle;
		out->Cycles = r->cycles;
		out->Microseconds = (double)r->cycles / d->rt->info->sclk_mhz;
		out->Vertices = g->vertices;
		out->Primitives = g->primitives;
		out->PrimitivesCulled = g->prims_culled;
		out->PrimitivesClipped = g->prims_clipped;
		out->Quads = g->quads;
		out->PixelsShaded = g->pixels_shaded;
		out->PixelsWritten = g->pixels_written;
		out->QuadsDepthKilled = g->quads_depth_killed;
		out->VSWaves = g->waves[XS_GPU_STAGE_VS];
		out->PSWaves = g->waves[XS_GPU_STAGE_PS];
		out->PeakVSWaves = g->peak_waves[XS_GPU_STAGE_VS];
		out->PeakPSWaves = g->peak_waves[XS_GPU_STAGE_PS];
		out->VSCuMask = g->cu_used[XS_GPU_STAGE_VS];
		out->PSCuMask = g->cu_used[XS_GPU_STAGE_PS];
		out->LateAllocWaves = g->late_alloc_waves;
		out->PeakLateWaiting = g->peak_late_waiting;
		out->ExpStallCycles = g->exp_stall_cycles;
		out->ParameterCacheLines = g->pc_lines;
		out->PeakParameterCacheLines = g->peak_pc_lines;
		out->CuLockEvents = g->cu_lock_events;
		out->CuLockCycles = g->cu_lock_cycles;
		out->ScratchSlots = r->scratch_slots;
		out->PeakScratchSlots = g->peak_scratch_slots;
	}
	pthread_mutex_unlock(&d->submit_lock);
	return hr;
}

XS_D3D12_EXPORT HRESULT WINAPI XS12GetDispatchCounters(ID3D12GraphicsCommandList *list, UINT index,
						       XS12_DISPATCH_COUNTERS *out)
{
	d3d12_device *d;
	const xs_gpu_dispatch_result *r = NULL;
	HRESULT hr = lock_result(list, index, false, out, &d, &r);
	if (!d)
		return hr;
	if (hr == S_OK) {
		const xs_gpu_counters *c = &r->ctr;
		const xs_devinfo *di = d->rt->info;
		_Static_assert(sizeof(out->Instructions) / sizeof(out->Instructions[0]) == XS_IC_COUNT, "classes");
		_Static_assert(sizeof(out->WavesPerSE) == sizeof(c->waves_per_se), "shader engines");
		memset(out, 0, sizeof(*out));
		out->Valid = !d->rt->functional;
		memcpy(out->Instructions, c->insts, sizeof(out->Instructions));
		out->L0Hits = c->l0_hits;
		out->L0Misses = c->l0_misses;
		out->L2Hits = c->l2_hits;
		out->L2Misses = c->l2_misses;
		out->DramReadBytes = c->dram_read_lines * di->l2_line_bytes;
		out->DramWriteBytes = c->dram_write_lines * di->l2_line_bytes;
		out->VmemReadBytes = c->vmem_read_bytes;
		out->VmemWriteBytes = c->vmem_write_bytes;
		out->ScratchReadBytes = c->scratch_read_bytes;
		out->ScratchWriteBytes = c->scratch_write_bytes;
		out->LdsBytes = c->lds_bytes;
		out->LdsBankConflictCycles = c->lds_bank_conflict_cycles;
		memcpy(out->WavesPerSE, c->waves_per_se, sizeof(out->WavesPerSE));
		uint32_t nsimd = di->num_cu * di->simds_per_cu;
		uint64_t valu = 0, salu = 0;
		for (uint32_t i = 0; i < nsimd && i < XS_ARRAY_SIZE(c->valu_busy); i++) {
			valu += c->valu_busy[i];
			salu += c->salu_busy[i];
		}
		if (out->Valid && r->cycles) {
			double span = (double)r->cycles * nsimd;
			out->ValuBusyPercent = 100.0 * (double)valu / span;
			out->SaluBusyPercent = 100.0 * (double)salu / span;
			/* bytes per cycle x MHz = MB/s; / 1e3 = GB/s */
			out->DramGBps = (double)(out->DramReadBytes + out->DramWriteBytes) / (double)r->cycles *
					di->sclk_mhz / 1e3;
		}
	}
	pthread_mutex_unlock(&d->submit_lock);
	return hr;
}
