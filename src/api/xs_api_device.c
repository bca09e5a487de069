/* Device, errors and GPU memory of the public API. */
#include "api/xs_api_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static _Thread_local xs_err no_device_err;

xs_status xs_api_fail(const xs_device *dev, const xs_err *e)
{
	xs_err *dst = dev ? (xs_err *)&dev->err : &no_device_err;
	if (dst != e)
		*dst = *e;
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
	return xs_api_fail(dev, &e);
}

XS_API const char *xs_last_error(const xs_device *dev)
{
	return dev ? dev->err.msg : no_device_err.msg;
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
	const xs_devinfo *info = xs_devinfo_get(desc->machine);
	if (!info)
		return xs_api_failf(NULL, XS_E_INVALID_ARG, "xs_device_create: unknown machine %d",
				    (int)desc->machine);
	uint32_t max_waves = info->max_scratch_waves_per_cu * info->num_cu;
	if (desc->scratch_waves > max_waves)
		return xs_api_failf(NULL, XS_E_INVALID_ARG,
				    "scratch_waves = %u: tmpring cannot express more than %u waves per CU, "
				    "%u on %s (SPEC S1.13)", desc->scratch_waves,
				    info->max_scratch_waves_per_cu, max_waves, info->name);
	xs_device *dev = calloc(1, sizeof(*dev));
	if (!dev)
		return xs_api_failf(NULL, XS_E_OUT_OF_MEMORY, "host out of memory");
	dev->info = info;
	/* SPEC S1.8: by default one ring sized for a few waves per SIMD. */
	dev->scratch_waves = desc->scratch_waves ? desc->scratch_waves
						 : info->default_scratch_waves_per_cu * info->num_cu;
	dev->vm = xs_vm_create();
	dev->gpu = dev->vm ? xs_gpu_create(info, dev->vm) : NULL;
	xs_err e = { 0 };
	if (!dev->gpu || xs_vm_alloc(dev->vm, XS_VM_PAGE_SIZE, 0, &dev->queue_va, &e)) {
		xs_device_destroy(dev);
		return xs_api_failf(NULL, XS_E_OUT_OF_MEMORY, "host out of memory creating the device");
	}
	xs_gpu_set_watchdog(dev->gpu, desc->watchdog_wave_insts);
	dev->functional = desc->functional;
	dev->watchdog = desc->watchdog_wave_insts;
	/* Hang detection (no forward progress), as a driver's TDR. */
	uint32_t gpu_us = desc->hang_gpu_us ? desc->hang_gpu_us : XS_HANG_GPU_US_DEFAULT;
	uint32_t host_ms = desc->hang_host_ms ? desc->hang_host_ms : XS_HANG_HOST_MS_DEFAULT;
	dev->hang_cycles = gpu_us == XS_WATCHDOG_OFF ? 0 : (uint64_t)gpu_us * info->sclk_mhz;
	xs_gpu_set_hang_limits(dev->gpu, dev->hang_cycles, host_ms == XS_WATCHDOG_OFF ? 0 : host_ms / 1000.0);
	xs_gpu_set_timing(dev->gpu, !desc->functional);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	dev->threads = desc->threads ? desc->threads : (uint32_t)(ncpu > 0 ? ncpu : 1);
	xs_gpu_set_threads(dev->gpu, dev->threads);
	xs_gpu_set_progress(dev->gpu, desc->progress, desc->progress_user);
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
	if (dev->record)
		fclose(dev->record);
	xs_gpu_destroy(dev->gpu);
	xs_vm_destroy(dev->vm);
	free(dev);
}

XS_API xs_status xs_mem_alloc(xs_device *dev, uint64_t size, uint64_t align, uint64_t *va)
{
	if (!dev || !va)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_mem_alloc: NULL argument");
	xs_err e;
	return xs_vm_alloc(dev->vm, size, align, va, &e) ? xs_api_fail(dev, &e) : XS_OK;
}

XS_API xs_status xs_mem_free(xs_device *dev, uint64_t va)
{
	if (!dev)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_mem_free: NULL device");
	xs_err e;
	return xs_vm_free(dev->vm, va, &e) ? xs_api_fail(dev, &e) : XS_OK;
}

XS_API xs_status xs_mem_set_name(xs_device *dev, uint64_t va, const char *name)
{
	if (!dev)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_mem_set_name: NULL device");
	xs_err e;
	return xs_vm_set_name(dev->vm, va, name, &e) ? xs_api_fail(dev, &e) : XS_OK;
}

XS_API xs_status xs_mem_write(xs_device *dev, uint64_t va, const void *src, size_t size)
{
	uint64_t bad;
	if (!dev || (!src && size))
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_mem_write: NULL argument");
	if (!xs_vm_write(dev->vm, va, src, size, &bad))
		return xs_api_failf(dev, XS_E_INVALID_ARG,
				    "xs_mem_write: GPU address 0x%llx is not in any allocation",
				    (unsigned long long)bad);
	return XS_OK;
}

XS_API xs_status xs_mem_read(xs_device *dev, uint64_t va, void *dst, size_t size)
{
	uint64_t bad;
	if (!dev || (!dst && size))
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_mem_read: NULL argument");
	if (!xs_vm_read(dev->vm, va, dst, size, &bad))
		return xs_api_failf(dev, XS_E_INVALID_ARG,
				    "xs_mem_read: GPU address 0x%llx is not in any allocation",
				    (unsigned long long)bad);
	return XS_OK;
}
