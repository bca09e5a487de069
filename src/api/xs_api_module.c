/* Code objects: parse (src/codeobj), then upload the image into GPU memory
 * the way ROCr's loader does: PT_LOAD segments at a page-aligned base,
 * dynamic relocations applied. The GPU then fetches code from memory. */
#include "api/xs_api_priv.h"

#include <stdlib.h>
#include <string.h>

#define XS_MAX_CODE_OBJECT_BYTES (512u << 20)

XS_API xs_status xs_module_load(xs_device *dev, const void *bytes, size_t size, xs_module **out)
{
	if (!dev || !bytes || !out)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_module_load: NULL argument");
	*out = NULL;
	xs_err e = { 0 };
	xs_codeobj *co = NULL;
	if (xs_codeobj_parse(bytes, size, &co, &e))
		return xs_api_fail(dev, &e);
	xs_module *m = calloc(1, sizeof(*m));
	if (!m) {
		xs_codeobj_free(co);
		return xs_api_failf(dev, XS_E_OUT_OF_MEMORY, "host out of memory");
	}
	m->dev = dev;
	m->co = co;
	uint64_t span = XS_ALIGN_UP(co->load_size, (uint64_t)XS_VM_PAGE_SIZE); /* fetch may read ahead */
	if (co->load_size == 0 || xs_vm_alloc(dev->vm, span, XS_VM_PAGE_SIZE, &m->load_va, &e)) {
		xs_module_destroy(m);
		if (co->load_size == 0)
			return xs_api_failf(dev, XS_E_BAD_CODE_OBJECT, "code object has no loadable segment");
		return xs_api_fail(dev, &e);
	}
	for (uint32_t i = 0; i < co->nsegs; i++) {
		const xs_codeobj_segment *s = &co->segs[i];
		if (s->filesz && !xs_vm_write(dev->vm, m->load_va + s->vaddr, co->image + s->offset,
					      s->filesz, NULL)) {
			xs_module_destroy(m);
			return xs_api_failf(dev, XS_E_BAD_CODE_OBJECT, "segment %u does not fit its load size", i);
		}
	}
	for (uint32_t i = 0; i < co->nrelocs; i++) {
		uint64_t v = m->load_va + co->relocs[i].value;
		if (!xs_vm_write(dev->vm, m->load_va + co->relocs[i].vaddr, &v, sizeof(v), NULL)) {
			xs_module_destroy(m);
			return xs_api_failf(dev, XS_E_BAD_CODE_OBJECT,
					    "relocation %u at 0x%llx is outside the loaded image", i,
					    (unsigned long long)co->relocs[i].vaddr);
		}
	}
	*out = m;
	return XS_OK;
}

XS_API xs_status xs_module_load_file(xs_device *dev, const char *path, xs_module **out)
{
	if (!dev || !path || !out)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_module_load_file: NULL argument");
	uint8_t *data;
	size_t size;
	xs_err e;
	if (xs_read_file(path, XS_MAX_CODE_OBJECT_BYTES, &data, &size, &e))
		return xs_api_fail(dev, &e);
	xs_status st = xs_module_load(dev, data, size, out);
	free(data);
	if (st)
		xs_err_prefix(&dev->err, "%s", path);
	return st;
}

XS_API void xs_module_destroy(xs_module *m)
{
	if (!m)
		return;
	if (m->load_va)
		xs_vm_free(m->dev->vm, m->load_va, NULL);
	xs_codeobj_free(m->co);
	free(m);
}

XS_API uint32_t xs_module_kernel_count(const xs_module *m)
{
	return m ? m->co->nkernels : 0;
}

XS_API const xs_kernel_info *xs_module_kernel(const xs_module *m, uint32_t i)
{
	return m && i < m->co->nkernels ? &m->co->kernels[i].info : NULL;
}

XS_API const xs_kernel_info *xs_module_find_kernel(const xs_module *m, const char *name)
{
	const xs_codeobj_kernel *k = m && name ? xs_codeobj_find(m->co, name) : NULL;
	return k ? &k->info : NULL;
}

XS_API const char *xs_module_target(const xs_module *m)
{
	return m ? m->co->target : "";
}

XS_API uint32_t xs_module_code_object_version(const xs_module *m)
{
	return m ? m->co->code_object_version : 0;
}
