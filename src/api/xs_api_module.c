/* Code objects of the native API: parsed and uploaded by the runtime the
 * way ROCr's loader does (src/runtime/xs_rt_device.c). */
#include "api/xs_api_priv.h"

#include <stdio.h>
#include <stdlib.h>

#define XS_MAX_CODE_OBJECT_BYTES (512u << 20)

XS_API xs_status xs_module_load(xs_device *dev, const void *bytes, size_t size, xs_module **out)
{
	if (!dev || !bytes || !out)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_module_load: NULL argument");
	*out = NULL;
	xs_module *m = xs_calloc(1, sizeof(*m));
	if (!m)
		return xs_api_failf(dev, XS_E_OUT_OF_MEMORY, "host out of memory");
	xs_err e;
	if (xs_rt_module_load(dev->rt, bytes, size, &m->rt, &e)) {
		free(m);
		return xs_api_fail(dev, &e);
	}
	m->dev = dev;
	*out = m;
	return XS_OK;
}

XS_API xs_status xs_module_load_file(xs_device *dev, const char *path, xs_module **out)
{
	if (!dev || !path || !out)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_module_load_file: NULL argument");
	*out = NULL; /* also when the file cannot be read */
	uint8_t *data;
	size_t size;
	xs_err e;
	if (xs_read_file(path, XS_MAX_CODE_OBJECT_BYTES, &data, &size, &e))
		return xs_api_fail(dev, &e);
	xs_status st = xs_module_load(dev, data, size, out);
	free(data);
	if (st) {
		xs_err pe;
		pe.status = st;
		pe.id = 0;
		snprintf(pe.msg, sizeof(pe.msg), "%s: %s", path, xs_last_error(dev));
		xs_api_fail(dev, &pe);
	}
	return st;
}

XS_API void xs_module_destroy(xs_module *m)
{
	if (!m)
		return;
	xs_rt_module_free(m->dev->rt, m->rt);
	free(m);
}

XS_API uint32_t xs_module_kernel_count(const xs_module *m)
{
	return m ? m->rt->co->nkernels : 0;
}

XS_API const xs_kernel_info *xs_module_kernel(const xs_module *m, uint32_t i)
{
	return m && i < m->rt->co->nkernels ? &m->rt->co->kernels[i].info : NULL;
}

XS_API const xs_kernel_info *xs_module_find_kernel(const xs_module *m, const char *name)
{
	const xs_codeobj_kernel *k = m && name ? xs_codeobj_find(m->rt->co, name) : NULL;
	return k ? &k->info : NULL;
}

XS_API const char *xs_module_target(const xs_module *m)
{
	return m ? m->rt->co->target : "";
}

XS_API uint32_t xs_module_code_object_version(const xs_module *m)
{
	return m ? m->rt->co->code_object_version : 0;
}
