/* The runtime's device: the GPU model and its address space, the driver's
 * default scratch allocation (S1.8), code objects and command memory. */
#include "runtime/xs_rt_priv.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

xs_status xs_rt_device_create(const xs_rt_config *cfg, xs_rt_device **out, xs_err *e)
{
	*out = NULL;
	const xs_devinfo *info = xs_devinfo_get(cfg->machine);
	if (!info)
		return xs_err_set(e, XS_E_INVALID_ARG, "unknown machine %d", (int)cfg->machine);
	uint32_t max_waves = info->max_scratch_waves_per_cu * info->num_cu;
	if (cfg->scratch_waves > max_waves)
		return xs_err_set(e, XS_E_INVALID_ARG,
				  "S1.13: %u default scratch slots: tmpring cannot express more than %u waves per CU, "
				  "%u on %s", cfg->scratch_waves, info->max_scratch_waves_per_cu, max_waves, info->name);
	xs_rt_device *d = xs_calloc(1, sizeof(*d));
	if (!d)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
	d->info = info;
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->changed, NULL);
	/* S1.8: by default one ring sized for a few waves per SIMD. */
	d->scratch_waves = cfg->scratch_waves ? cfg->scratch_waves : info->default_scratch_waves_per_cu * info->num_cu;
	d->vm = xs_vm_create();
	if (d->vm)
		xs_vm_set_limit(d->vm, info->memory_bytes);
	d->gpu = d->vm ? xs_gpu_create(info, d->vm) : NULL;
	d->queues = xs_calloc(XS_GPU_MAX_QUEUES, sizeof(*d->queues));
	uint8_t *host;
	if (!d->gpu || !d->queues || xs_vm_alloc_host(d->vm, XS_VM_PAGE_SIZE, 0, &d->queue_va, &host, e) ||
	    xs_rt_queues_init(d, e)) {
		xs_rt_device_destroy(d);
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory creating the device");
	}
	xs_vm_set_name(d->vm, d->queue_va, "the HSA queue (amd_queue_t) stand-in", NULL);
	d->functional = cfg->functional;
	d->watchdog = cfg->watchdog_wave_insts;
	xs_gpu_set_watchdog(d->gpu, cfg->watchdog_wave_insts);
	xs_gpu_set_timing(d->gpu, !cfg->functional);
	/* Hang detection (no forward progress), as a driver's TDR. */
	uint32_t gpu_us = cfg->hang_gpu_us ? cfg->hang_gpu_us : XS_HANG_GPU_US_DEFAULT;
	uint32_t host_ms = cfg->hang_host_ms ? cfg->hang_host_ms : XS_HANG_HOST_MS_DEFAULT;
	/* XS12_HANG_HOST_MS changes the default host-time limit for a slow host
	 * (a sanitizer build, valgrind): the GPU-time limit stays what it was. */
	const char *env = cfg->hang_host_ms ? NULL : getenv("XS12_HANG_HOST_MS");
	if (env && *env) {
		char *end;
		unsigned long v = strtoul(env, &end, 10);
		if (!*end && v > 0 && v <= UINT32_MAX)
			host_ms = (uint32_t)v;
	}
	d->hang_cycles = gpu_us == XS_WATCHDOG_OFF ? 0 : (uint64_t)gpu_us * info->sclk_mhz;
	d->hang_host_s = host_ms == XS_WATCHDOG_OFF ? 0 : host_ms / 1000.0;
	xs_gpu_set_hang_limits(d->gpu, d->hang_cycles, d->hang_host_s);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	d->threads = cfg->threads ? cfg->threads : (uint32_t)(ncpu > 0 ? ncpu : 1);
	xs_gpu_set_threads(d->gpu, d->threads);
	xs_gpu_set_timing_threads(d->gpu, cfg->timing_threads);
	xs_rt_run_ahead_from_env(d->gpu);
	xs_gpu_set_progress(d->gpu, cfg->progress, cfg->progress_user);
	*out = d;
	return XS_OK;
}

/* XS12_RUN_AHEAD=0 turns the functional run-ahead off: the same cycles,
 * and bytes that differ only where waves race (tests/gpu/run_ahead.py). */
void xs_rt_run_ahead_from_env(xs_gpu *gpu)
{
	const char *ra = getenv("XS12_RUN_AHEAD");
	xs_gpu_set_run_ahead(gpu, !(ra && !strcmp(ra, "0")));
}

void xs_rt_device_destroy(xs_rt_device *d)
{
	if (!d)
		return;
	xs_err re;
	xs_rt_record_close(d, &re); /* (a write error: the path keeps what it had) */
	xs_rt_queues_fini(d);
	while (d->fences)
		xs_rt_fence_destroy(d->fences);
	free(d->old_scratch);
	xs_gpu_destroy(d->gpu);
	xs_rt_module_free_retired(d);
	xs_vm_destroy(d->vm);
	free(d->queues);
	pthread_cond_destroy(&d->changed);
	pthread_mutex_destroy(&d->lock);
	free(d);
}

/* ---- the driver's default scratch (S1.8) ---------------------------------------- */

xs_status xs_rt_default_scratch(xs_rt_device *d, uint64_t per_wave, xs_err *e)
{
	/* One layout for every dispatch on the driver's ring, the largest need
	 * so far (as RADV sizes its compute scratch): dispatches of different
	 * kernels may overlap on it without their slots colliding. */
	if (d->scratch_va && per_wave <= d->scratch_per_wave)
		return XS_OK;
	uint64_t pw = XS_MAX(per_wave, d->scratch_per_wave);
	uint64_t bytes = pw * d->scratch_waves;
	/* Outgrown: a new allocation. The old one stays: lists recorded before
	 * point their V# at it (freed with the device). */
	uint64_t va;
	xs_status st = xs_vm_alloc(d->vm, bytes, 1024, &va, e);
	if (st)
		return st;
	if (d->scratch_va) {
		uint64_t *n = xs_realloc(d->old_scratch, (d->nold_scratch + 1) * sizeof(*n));
		if (!n) {
			xs_vm_free(d->vm, va, NULL);
			return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
		}
		d->old_scratch = n;
		d->old_scratch[d->nold_scratch++] = d->scratch_va;
	}
	d->scratch_va = va;
	d->scratch_size = bytes;
	d->scratch_per_wave = pw;
	xs_vm_set_name(d->vm, va, "the driver's default scratch (one allocation for every queue and ring, S1.8)",
		       NULL);
	return XS_OK;
}

/* ---- code objects ---------------------------------------------------------------- */

xs_status xs_rt_module_load(xs_rt_device *d, const void *bytes, size_t size, xs_rt_module **out, xs_err *e)
{
	*out = NULL;
	xs_codeobj *co;
	xs_status st = xs_codeobj_parse(bytes, size, &co, e);
	if (st)
		return st;
	xs_rt_module *m = xs_calloc(1, sizeof(*m));
	if (!m) {
		xs_codeobj_free(co);
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
	}
	m->co = co;
	if (co->load_size == 0) {
		xs_rt_module_free(d, m);
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT, "code object has no loadable segment");
	}
	uint64_t span = XS_ALIGN_UP(co->load_size, (uint64_t)XS_VM_PAGE_SIZE); /* fetch may read ahead */
	pthread_mutex_lock(&d->lock);
	st = xs_vm_alloc(d->vm, span, XS_VM_PAGE_SIZE, &m->load_va, e);
	pthread_mutex_unlock(&d->lock);
	if (st) {
		m->load_va = 0;
		xs_rt_module_free(d, m);
		return st;
	}
	for (uint32_t i = 0; i < co->nsegs; i++) {
		const xs_codeobj_segment *s = &co->segs[i];
		if (s->filesz && !xs_vm_write(d->vm, m->load_va + s->vaddr, co->image + s->offset, s->filesz, NULL)) {
			xs_rt_module_free(d, m);
			return xs_err_set(e, XS_E_BAD_CODE_OBJECT, "segment %u does not fit its load size", i);
		}
	}
	for (uint32_t i = 0; i < co->nrelocs; i++) {
		uint64_t v = m->load_va + co->relocs[i].value;
		if (!xs_vm_write(d->vm, m->load_va + co->relocs[i].vaddr, &v, sizeof(v), NULL)) {
			xs_rt_module_free(d, m);
			return xs_err_set(e, XS_E_BAD_CODE_OBJECT, "relocation %u at 0x%llx is outside the loaded image", i,
					  (unsigned long long)co->relocs[i].vaddr);
		}
	}
	char name[160];
	snprintf(name, sizeof(name), "code object (%u kernel%s, first '%.100s')", co->nkernels,
		 co->nkernels == 1 ? "" : "s", co->nkernels ? co->kernels[0].info.name : "");
	xs_vm_set_name(d->vm, m->load_va, name, NULL);
	pthread_mutex_lock(&d->lock);
	m->next = d->modules;
	if (d->modules)
		d->modules->prev = m;
	d->modules = m;
	pthread_mutex_unlock(&d->lock);
	*out = m;
	return XS_OK;
}

void xs_rt_module_free(xs_rt_device *d, xs_rt_module *m)
{
	if (!m)
		return;
	bool keep = false;
	if (m->load_va) {
		pthread_mutex_lock(&d->lock);
		if (m->prev || d->modules == m) { /* registered */
			if (m->prev)
				m->prev->next = m->next;
			else
				d->modules = m->next;
			if (m->next)
				m->next->prev = m->prev;
			if ((keep = xs_gpu_profiling(d->gpu))) {
				m->prev = NULL;
				m->next = d->retired;
				d->retired = m;
			}
		}
		xs_vm_free(d->vm, m->load_va, NULL);
		pthread_mutex_unlock(&d->lock);
	}
	if (!keep) {
		xs_codeobj_free(m->co);
		free(m);
	}
}

void xs_rt_module_free_retired(xs_rt_device *d)
{
	while (d->retired) {
		xs_rt_module *m = d->retired;
		d->retired = m->next;
		xs_codeobj_free(m->co);
		free(m);
	}
}

/* ---- command memory ----------------------------------------------------------------- */

#define CHUNK_BYTES (256u << 10)

void xs_rt_cmdmem_init(xs_rt_cmdmem *m, xs_rt_device *d, const char *name)
{
	memset(m, 0, sizeof(*m));
	m->dev = d;
	m->name = name;
}

/* The current chunk has no room (xs_rt_cmdmem_alloc tried it): the next
 * one kept from an earlier recording that holds the request, or a new one. */
xs_status xs_rt_cmdmem_alloc_chunk(xs_rt_cmdmem *m, size_t size, bool locked, uint64_t *va, uint8_t **host,
				   xs_err *e)
{
	/* Chunks after cur are empty: the smallest that holds the request
	 * becomes the next one. Not the first: a list's PM4, copied at Close in
	 * one piece, needs the big chunk it had last time, which first fit would
	 * have given to kernarg segments, mapping a new one every recording. */
	uint32_t best = UINT32_MAX;
	for (uint32_t i = m->nchunks ? m->cur + 1 : 0; i < m->nchunks; i++)
		if (size <= m->chunks[i].size && (best == UINT32_MAX || m->chunks[i].size < m->chunks[best].size))
			best = i;
	if (best != UINT32_MAX) {
		uint32_t next = m->nchunks ? m->cur + 1 : 0;
		xs_rt_chunk t = m->chunks[best];
		m->chunks[best] = m->chunks[next];
		m->chunks[next] = t;
		m->cur = next;
		m->chunks[next].used = size;
		*va = t.va;
		*host = t.host;
		return XS_OK;
	}
	if (m->nchunks == m->cap) {
		uint32_t ncap = m->cap ? 2 * m->cap : 4;
		xs_rt_chunk *n = xs_realloc(m->chunks, ncap * sizeof(*n));
		if (!n)
			return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
		m->chunks = n;
		m->cap = ncap;
	}
	xs_rt_chunk c = { .size = XS_MAX((size_t)CHUNK_BYTES, XS_ALIGN_UP(size, (size_t)XS_VM_PAGE_SIZE)) };
	if (!locked)
		pthread_mutex_lock(&m->dev->lock);
	xs_status st = xs_vm_alloc_host(m->dev->vm, c.size, XS_VM_PAGE_SIZE, &c.va, &c.host, e);
	if (!st && m->name)
		xs_vm_set_name(m->dev->vm, c.va, m->name, NULL);
	if (!locked)
		pthread_mutex_unlock(&m->dev->lock);
	if (st)
		return st;
	c.used = size; /* at the chunk's start: page-aligned, as any request needs */
	/* after the chunks in use, before the empty ones kept from earlier recordings */
	uint32_t at = m->nchunks ? m->cur + 1 : 0;
	if (at < m->nchunks)
		m->chunks[m->nchunks] = m->chunks[at];
	m->chunks[at] = c;
	m->nchunks++;
	m->cur = at;
	*va = c.va;
	*host = c.host;
	return XS_OK;
}

/* Every chunk stays for the next recording, zeroed as the VM gave it (an
 * AQL packet's reserved fields and a kernarg segment's tail are read as
 * zero). A D3D12 allocator keeps its memory so too: freeing the chunks and
 * mapping fresh ones made each recording fault its pages in again, most
 * of a Dispatch's cost. The memory goes with xs_rt_cmdmem_free. */
static void cmdmem_reset(xs_rt_cmdmem *m)
{
	for (uint32_t i = 0; i < m->nchunks; i++) {
		memset(m->chunks[i].host, 0, m->chunks[i].used);
		m->chunks[i].used = 0;
	}
	m->cur = 0;
}

void xs_rt_cmdmem_reset(xs_rt_cmdmem *m)
{
	cmdmem_reset(m);
}

void xs_rt_cmdmem_reset_locked(xs_rt_cmdmem *m)
{
	cmdmem_reset(m);
}

static void cmdmem_free(xs_rt_cmdmem *m, bool locked)
{
	if (!m->dev)
		return;
	if (!locked)
		pthread_mutex_lock(&m->dev->lock);
	for (uint32_t i = 0; i < m->nchunks; i++)
		xs_vm_free(m->dev->vm, m->chunks[i].va, NULL);
	if (!locked)
		pthread_mutex_unlock(&m->dev->lock);
	free(m->chunks);
	m->chunks = NULL;
	m->nchunks = m->cap = m->cur = 0;
}

void xs_rt_cmdmem_free(xs_rt_cmdmem *m)
{
	cmdmem_free(m, false);
}

void xs_rt_cmdmem_free_locked(xs_rt_cmdmem *m)
{
	cmdmem_free(m, true);
}

void xs_rt_cmdmem_abandon(xs_rt_cmdmem *m)
{
	/* the GPU memory stays mapped (the device's VM frees it at the end);
	 * only the host's bookkeeping goes */
	free(m->chunks);
	m->chunks = NULL;
	m->nchunks = m->cap = m->cur = 0;
}
