/*
 * Kernel descriptors: the 64 bytes at symbol <name>.kd (AMDGPUUsage "Kernel
 * Descriptor", table "Code Object V3 Kernel Descriptor"; docs/hardware.md
 * section 5.1), bound to the kernel's metadata and checked against it.
 */
#include <string.h>

#include "codeobj/xs_codeobj_priv.h"
#include "hw/xs_hw_regs.h"

static xs_status mismatch(xs_err *e, const xs_codeobj_kernel *k, const char *field, uint64_t meta,
                          uint64_t kd)
{
	return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
	                  "kernel '%.100s': %s disagrees: metadata says %llu, descriptor %.100s says %llu",
	                  k->info.name, field, (unsigned long long)meta, k->symbol, (unsigned long long)kd);
}

/* kd_vaddr + the signed kernel_code_entry_byte_offset, without wrapping. */
static bool entry_address(uint64_t kd_vaddr, int64_t off, uint64_t *entry)
{
	if (off >= 0) {
		if ((uint64_t)off > UINT64_MAX - kd_vaddr)
			return false;
		*entry = kd_vaddr + (uint64_t)off;
		return true;
	}
	uint64_t back = off == INT64_MIN ? (uint64_t)INT64_MAX + 1 : (uint64_t)-off;
	if (back > kd_vaddr)
		return false;
	*entry = kd_vaddr - back;
	return true;
}

/* Size of the kernel's STT_FUNC symbol: named like the descriptor without
 * ".kd" (or like the kernel), and starting at the entry point. */
static uint64_t function_size(const xs_codeobj_elf *ev, const xs_codeobj_kernel *k)
{
	char fname[XS_CODEOBJ_MAX_STRING + 1];
	size_t n = strlen(k->symbol);
	const char *names[2] = {NULL, k->info.name};
	if (n > 3 && strcmp(k->symbol + n - 3, ".kd") == 0) {
		memcpy(fname, k->symbol, n - 3);
		fname[n - 3] = 0;
		names[0] = fname;
	}
	for (int i = 0; i < 2; i++) {
		const xs_codeobj_sym *s = names[i] ? xs_codeobj_elf_find_sym(ev, names[i]) : NULL;
		if (s && s->type == STT_FUNC && s->value == k->entry_vaddr)
			return s->size;
	}
	return 0;
}

xs_status xs_codeobj_kernel_bind(const xs_codeobj_elf *ev, const xs_codeobj *co,
                                 xs_codeobj_kernel *k, xs_err *e)
{
	const xs_codeobj_sym *sym = xs_codeobj_elf_find_sym(ev, k->symbol);
	if (!sym || sym->shndx == SHN_UNDEF)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "kernel '%.100s': descriptor symbol '%.100s' (metadata .symbol) is %s in "
		                  ".dynsym/.symtab",
		                  k->info.name, k->symbol, sym ? "undefined" : "not defined");
	if (sym->size != 0 && sym->size != XS_KD_SIZE)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "kernel '%.100s': descriptor symbol '%.100s' has st_size %llu, not %d",
		                  k->info.name, k->symbol, (unsigned long long)sym->size, XS_KD_SIZE);
	k->kd_vaddr = sym->value;
	/* AMDGPUUsage "Kernel Descriptor": 64-byte aligned. */
	if (k->kd_vaddr % 64 != 0)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "kernel '%.100s': descriptor '%.100s' at 0x%llx is not 64-byte aligned",
		                  k->info.name, k->symbol, (unsigned long long)k->kd_vaddr);
	const xs_codeobj_segment *seg = xs_codeobj_seg_of(co, k->kd_vaddr, XS_KD_SIZE);
	if (!seg)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "kernel '%.100s': descriptor '%.100s' at 0x%llx..0x%llx is not inside the file "
		                  "bytes of any PT_LOAD segment",
		                  k->info.name, k->symbol, (unsigned long long)k->kd_vaddr,
		                  (unsigned long long)k->kd_vaddr + XS_KD_SIZE);
	memcpy(k->kd, co->image + seg->offset + (k->kd_vaddr - seg->vaddr), XS_KD_SIZE);

	const uint8_t *kd = k->kd;
	xs_kernel_info *ki = &k->info;
	uint32_t group = xs_codeobj_rd32(kd + XS_KD_GROUP_SEGMENT_FIXED_SIZE);
	uint32_t priv = xs_codeobj_rd32(kd + XS_KD_PRIVATE_SEGMENT_FIXED_SIZE);
	uint32_t kernarg = xs_codeobj_rd32(kd + XS_KD_KERNARG_SIZE);
	int64_t entry_off = (int64_t)xs_codeobj_rd64(kd + XS_KD_KERNEL_CODE_ENTRY_BYTE_OFFSET);
	ki->rsrc3 = xs_codeobj_rd32(kd + XS_KD_COMPUTE_PGM_RSRC3);
	ki->rsrc1 = xs_codeobj_rd32(kd + XS_KD_COMPUTE_PGM_RSRC1);
	ki->rsrc2 = xs_codeobj_rd32(kd + XS_KD_COMPUTE_PGM_RSRC2);
	ki->kernel_code_properties = xs_codeobj_rd16(kd + XS_KD_KERNEL_CODE_PROPERTIES);
	ki->wgp_mode = G_00B848_WGP_MODE(ki->rsrc1) != 0; /* gfx10+: docs/hardware.md section 2 */

	/* The metadata repeats descriptor fields (AMDGPUUsage "Code Object V3
	 * Kernel Metadata Map"); the CP uses the descriptor, the runtime the
	 * metadata, so a disagreement would make the two act differently. */
	if (ki->group_segment_fixed_size != group)
		return mismatch(e, k, "group_segment_fixed_size", ki->group_segment_fixed_size, group);
	if (ki->private_segment_fixed_size != priv)
		return mismatch(e, k, "private_segment_fixed_size", ki->private_segment_fixed_size, priv);
	if (ki->kernarg_size != kernarg)
		return mismatch(e, k, "kernarg_size", ki->kernarg_size, kernarg);
	uint32_t kd_wave = (ki->kernel_code_properties & XS_KCP_ENABLE_WAVEFRONT_SIZE32) ? 32 : 64;
	if (ki->wavefront_size != kd_wave)
		return mismatch(e, k, "wavefront_size (kernel_code_properties ENABLE_WAVEFRONT_SIZE32)",
		                ki->wavefront_size, kd_wave);
	/* USES_DYNAMIC_STACK (bit 11) exists from code object v5; in v4 the
	 * metadata .uses_dynamic_stack is the only source. Not cross-checked:
	 * LLVM versions differ in whether they set the bit. */
	if (co->code_object_version >= 5 && (ki->kernel_code_properties & XS_KCP_USES_DYNAMIC_STACK))
		ki->uses_dynamic_stack = true;

	if (!entry_address(k->kd_vaddr, entry_off, &k->entry_vaddr))
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "kernel '%.100s': kernel_code_entry_byte_offset %lld (descriptor byte %d) "
		                  "from 0x%llx leaves the address space",
		                  ki->name, (long long)entry_off, XS_KD_KERNEL_CODE_ENTRY_BYTE_OFFSET,
		                  (unsigned long long)k->kd_vaddr);
	/* AMDGPUUsage "Kernel Descriptor": the entry is 256-byte aligned. */
	if (k->entry_vaddr % 256 != 0)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "kernel '%.100s': entry 0x%llx (descriptor 0x%llx + "
		                  "kernel_code_entry_byte_offset %lld) is not 256-byte aligned",
		                  ki->name, (unsigned long long)k->entry_vaddr,
		                  (unsigned long long)k->kd_vaddr, (long long)entry_off);
	const xs_codeobj_segment *cs = xs_codeobj_seg_of(co, k->entry_vaddr, 4);
	if (!cs || !(cs->flags & PF_X))
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "kernel '%.100s': entry 0x%llx (descriptor 0x%llx + "
		                  "kernel_code_entry_byte_offset %lld) is not inside an executable PT_LOAD",
		                  ki->name, (unsigned long long)k->entry_vaddr,
		                  (unsigned long long)k->kd_vaddr, (long long)entry_off);
	k->code_size = function_size(ev, k);
	if (k->code_size && !xs_codeobj_in_bounds(k->entry_vaddr - cs->vaddr, k->code_size, cs->filesz))
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
		                  "kernel '%.100s': code at 0x%llx (%llu bytes, st_size of its function "
		                  "symbol) runs past the end of its PT_LOAD segment",
		                  ki->name, (unsigned long long)k->entry_vaddr,
		                  (unsigned long long)k->code_size);
	return XS_OK;
}
