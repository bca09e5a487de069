/*
 * Code-object loader entry: recognise the input (AMDGPU ELF, clang offload
 * bundle, host ELF with .hip_fatbin), select the gfx10.3 ELF image, and
 * assemble segments, relocations and kernels from the pieces in the other
 * xs_codeobj_*.c files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj/xs_codeobj_priv.h"

#define BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"

static xs_status select_image(const uint8_t *in, size_t n, xs_codeobj_source *src, xs_err *e)
{
	memset(src, 0, sizeof(*src));
	if (n >= 24 && memcmp(in, BUNDLE_MAGIC, 24) == 0)
		return xs_codeobj_bundle_select(in, n, 0, src, e);
	if (n >= 4 && memcmp(in, "CCOB", 4) == 0)
		return xs_err_set(e, XS_E_UNSUPPORTED,
		                  "compressed offload bundle (CCOB magic); rebuild without --offload-compress");
	if (n >= SELFMAG && memcmp(in, ELFMAG, SELFMAG) == 0) {
		/* an AMDGPU code object, or a host ELF that may carry .hip_fatbin */
		if (n >= 20 && xs_codeobj_rd16(in + 18) != XS_EM_AMDGPU)
			return xs_codeobj_fatbin_select(in, n, src, e);
		src->offset = 0;
		src->size = n;
		return XS_OK;
	}
	return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
	                  "not a code object: %zu bytes that start with neither the ELF magic nor "
	                  BUNDLE_MAGIC,
	                  n);
}

/* amdhsa.target must name the processor of e_flags (AMDGPUUsage "Code
 * Object V3 Metadata": the target id of the code object). */
static xs_status check_target(const xs_codeobj *co, xs_err *e)
{
	char proc[32];
	if (!xs_codeobj_target_processor(co->target, proc, sizeof(proc)))
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "metadata amdhsa.target '%s' is not amdgcn-amd-amdhsa--<processor>[:features]",
		                  co->target);
	if (strcmp(proc, co->processor) != 0)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "metadata amdhsa.target '%s' names %s but e_flags name %s", co->target, proc,
		                  co->processor);
	return XS_OK;
}

static xs_status parse_image(xs_codeobj *co, xs_err *e)
{
	xs_codeobj_elf ev;
	xs_status s = xs_codeobj_elf_open(&ev, co, e);
	if (s == XS_OK)
		s = xs_codeobj_elf_segments(&ev, co, e);
	if (s == XS_OK)
		s = xs_codeobj_elf_symbols(&ev, e);
	if (s == XS_OK)
		s = xs_codeobj_elf_relocs(&ev, co, e);
	if (s == XS_OK)
		s = xs_codeobj_elf_metadata_note(&ev, e);
	if (s == XS_OK)
		s = xs_codeobj_meta_parse(ev.meta, ev.meta_size, ev.meta_off, co, e);
	if (s == XS_OK)
		s = check_target(co, e);
	for (uint32_t i = 0; s == XS_OK && i < co->nkernels; i++)
		s = xs_codeobj_kernel_bind(&ev, co, &co->kernels[i], e);
	xs_codeobj_elf_close(&ev);
	return s;
}

xs_status xs_codeobj_parse(const uint8_t *bytes, size_t size, xs_codeobj **out, xs_err *e)
{
	if (out)
		*out = NULL;
	if (!out || (!bytes && size))
		return xs_err_set(e, XS_E_INVALID_ARG, "xs_codeobj_parse: %s is NULL", out ? "bytes" : "out");
	if (size == 0)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT, "empty input (0 bytes)");

	xs_codeobj_source src;
	xs_status s = select_image(bytes, size, &src, e);
	if (s != XS_OK)
		return s;

	xs_codeobj *co = xs_calloc(1, sizeof(*co));
	if (!co)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "out of memory");
	/* a copy: libelf wants a mutable buffer, and the kernels' names and the
	 * loader's segment bytes must outlive the caller's */
	co->image = xs_malloc(src.size ? src.size : 1);
	if (!co->image) {
		free(co);
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "out of memory for a %zu-byte image", src.size);
	}
	memcpy(co->image, bytes + src.offset, src.size);
	co->image_size = src.size;

	s = parse_image(co, e);
	if (s != XS_OK) {
		if (src.origin[0])
			xs_err_prefix(e, "%s", src.origin);
		xs_codeobj_free(co);
		return s;
	}
	*out = co;
	return XS_OK;
}

void xs_codeobj_free(xs_codeobj *co)
{
	if (!co)
		return;
	for (uint32_t i = 0; co->kernels && i < co->nkernels; i++) {
		free(co->kernels[i].args);
		free(co->kernels[i].arg_address_space);
		free(co->kernels[i].arg_hidden);
		free(co->kernels[i].arg_const);
	}
	free(co->kernels);
	free(co->relocs);
	free(co->segs);
	free(co->strings);
	free(co->image);
	free(co);
}

const xs_codeobj_kernel *xs_codeobj_find(const xs_codeobj *co, const char *name)
{
	if (!co || !name)
		return NULL;
	for (uint32_t i = 0; i < co->nkernels; i++)
		if (strcmp(co->kernels[i].info.name, name) == 0)
			return &co->kernels[i];
	return NULL;
}
