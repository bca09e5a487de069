/* Device, errors and GPU memory of the native API. */
#include "api/xs_api_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One last error per thread: calls on one device from several threads do
 * not overwrite each other's messages. */
static _Thread_local xs_err last_err;

xs_status xs_api_fail(const xs_device *dev, const xs_err *e)
{
	(void)dev;
	if (&last_err != e)
		last_err = *e;
	return e->status;
}

xs_status xs_api_failf(const xs_device *dev, xs_status s, const char *fmt, ...)
{
	xs_err e;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
	va_end(ap);
	e.status = s;
	e.id = 0;
	return xs_api_fail(dev, &e);
}

uint32_t xs_api_last_message(void)
{
	return last_err.id;
}

XS_API const char *xs_last_error(const xs_device *dev)
{
	(void)dev;
	return last_err.msg;
}

XS_API const char *xs_status_name(xs_status s)
{
	static const char *const names[] = {
		[XS_OK] = "ok", [XS_E_INVALID_ARG] = "invalid argument",
		[XS_E_BAD_CODE_OBJECT] = "bad code object", [XS_E_UNSUPPORTED] = "unsupported",
		[XS_E_NOT_FOUND] = "not found", [XS_E_OUT_OF_MEMORY] = "out of memory",
		[XS_E_IO] = "i/o error", [XS_E_DEVICE_REMOVED] = "device removed",
		[XS_E_INTERRUPTED] = "interrupted",
	};
	return (unsigned)s < XS_ARRAY_SIZE(names) && names[s] ? names[s] : "unknown status";
}

XS_API const char *xs_wait_cause_name(xs_wait_cause c)
{
	static const char *const names[] = {
		[XS_WAIT_WAVE_SLOT] = "wave-slot", [XS_WAIT_VGPR] = "vgpr", [XS_WAIT_LDS] = "lds",
		[XS_WAIT_BARRIER] = "barrier", [XS_WAIT_SCRATCH_SLOT] = "scratch-slot",
		[XS_WAIT_CU_LIMIT] = "cu-mask-or-limit",
	};
	return (unsigned)c < XS_ARRAY_SIZE(names) ? names[c] : "?";
}

XS_API xs_status xs_device_create(const xs_device_desc *desc, xs_device **out)
{
	xs_device_desc def = { .machine = XS_MACHINE_SERIES_X };
	if (!out)
		return xs_api_failf(NULL, XS_E_INVALID_ARG, "xs_device_create: out is NULL");
	*out = NULL;
	if (!desc)
		desc = &def;
	xs_rt_config cfg = {
		.machine = desc->machine, .scratch_waves = desc->scratch_waves, .functional = desc->functional,
		.threads = desc->threads, .timing_threads = desc->timing_threads, .hang_gpu_us = desc->hang_gpu_us, .hang_host_ms = desc->hang_host_ms,
		.watchdog_wave_insts = desc->watchdog_wave_insts, .progress = desc->progress,
		.progress_user = desc->progress_user,
	};
	xs_device *dev = xs_calloc(1, sizeof(*dev));
	if (!dev)
		return xs_api_failf(NULL, XS_E_OUT_OF_MEMORY, "host out of memory");
	xs_err e;
	if (xs_rt_device_create(&cfg, &dev->rt, &e)) {
		free(dev);
		xs_err_prefix(&e, "xs_device_create");
		return xs_api_fail(NULL, &e);
	}
	dev->info = dev->rt->info;
	dev->gpu = dev->rt->gpu;
	dev->debug = desc->debug_layer;
	xs_rt_cmdmem_init(&dev->mem, dev->rt, "a dispatch's kernargs, AQL packet and PM4");
	*out = dev;
	return XS_OK;
}

XS_API void xs_device_interrupt(xs_device *dev)
{
	if (dev)
		xs_gpu_interrupt(dev->gpu);
}

XS_API void xs_device_destroy(xs_device *dev)
{
	if (!dev)
		return;
	xs_rt_cmdmem_free(&dev->mem);
	xs_rt_device_destroy(dev->rt);
	free(dev);
}

/* The VM is shared with the runtime's allocations: its lock covers both. */
XS_API xs_status xs_mem_alloc(xs_device *dev, uint64_t size, uint64_t align, uint64_t *va)
{
	if (!dev || !va)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_mem_alloc: NULL argument");
	xs_err e;
	pthread_mutex_lock(&dev->rt->lock);
	xs_status st = xs_vm_alloc(dev->rt->vm, size, align, va, &e);
	pthread_mutex_unlock(&dev->rt->lock);
	return st ? xs_api_fail(dev, &e) : XS_OK;
}

XS_API xs_status xs_mem_free(xs_device *dev, uint64_t va)
{
	if (!dev)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_mem_free: NULL device");
	xs_err e;
	pthread_mutex_lock(&dev->rt->lock);
	xs_status st = xs_vm_free(dev->rt->vm, va, &e);
	pthread_mutex_unlock(&dev->rt->lock);
	return st ? xs_api_fail(dev, &e) : XS_OK;
}

XS_API xs_status xs_mem_set_name(xs_device *dev, uint64_t va, const char *name)
{
	if (!dev)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_mem_set_name: NULL device");
	xs_err e;
	pthread_mutex_lock(&dev->rt->lock);
	xs_status st = xs_vm_set_name(dev->rt->vm, va, name, &e);
	pthread_mutex_unlock(&dev->rt->lock);
	return st ? xs_api_fail(dev, &e) : XS_OK;
}

XS_API xs_status xs_mem_write(xs_device *dev, uint64_t va, const void *src, size_t size)
{
	uint64_t bad;
	if (!dev || (!src && size))
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_mem_write: NULL argument");
	if (!xs_vm_write(dev->rt->vm, va, src, size, &bad))
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_mem_write: GPU address 0x%llx is not in any allocation",
				    (unsigned long long)bad);
	return XS_OK;
}

XS_API xs_status xs_mem_read(xs_device *dev, uint64_t va, void *dst, size_t size)
{
	uint64_t bad;
	if (!dev || (!dst && size))
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_mem_read: NULL argument");
	if (!xs_vm_read(dev->rt->vm, va, dst, size, &bad))
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_mem_read: GPU address 0x%llx is not in any allocation",
				    (unsigned long long)bad);
	return XS_OK;
}

XS_API xs_status xs_device_record(xs_device *dev, const char *path)
{
	if (!dev)
		return xs_api_failf(NULL, XS_E_INVALID_ARG, "xs_device_record: NULL device");
	xs_err e;
	if (xs_rt_record_close(dev->rt, &e))
		return xs_api_fail(dev, &e);
	if (!path)
		return XS_OK;
	return xs_rt_record_open(dev->rt, path, &e) ? xs_api_fail(dev, &e) : XS_OK;
}

XS_API xs_status xs_replay(const char *path, xs_replay_report *report)
{
	if (!path || !report)
		return xs_api_failf(NULL, XS_E_INVALID_ARG, "xs_replay: NULL argument");
	xs_err e;
	return xs_rt_replay(path, report, &e) ? xs_api_fail(NULL, &e) : XS_OK;
}
