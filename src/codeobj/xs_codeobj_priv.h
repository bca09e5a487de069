/*
 * Private to src/codeobj: what the pieces of the code-object loader share.
 *
 *   xs_codeobj.c         entry: detect the format, select the image, assemble
 *   xs_codeobj_target.c  EF_AMDGPU_MACH names, target ids, the gfx10.3 family
 *   xs_codeobj_bundle.c  clang offload bundles, a host ELF's .hip_fatbin
 *   xs_codeobj_elf.c     ELF header, sections, segments, symbols, relocations, notes
 *   xs_codeobj_meta.c    NT_AMDGPU_METADATA (msgpack) -> kernels and arguments
 *   xs_codeobj_kernel.c  kernel descriptors (<name>.kd) and their cross-checks
 */
#ifndef XS_CODEOBJ_PRIV_H
#define XS_CODEOBJ_PRIV_H

#include <gelf.h>
#include <libelf.h>

#include "codeobj/xs_codeobj.h"

/* AMDGPUUsage "ELF Code Object": header values. */
#define XS_EM_AMDGPU 224
#define XS_ELFOSABI_AMDGPU_HSA 64
#define XS_ELFABIVERSION_AMDGPU_HSA_V4 2
#define XS_ELFABIVERSION_AMDGPU_HSA_V5 3
#define XS_EF_AMDGPU_MACH 0xffu
/* AMDGPUUsage "Note Records", code object v3+: owner "AMDGPU". */
#define XS_NT_AMDGPU_METADATA 32
/* AMDGPUUsage "Relocation Records". */
#define XS_R_AMDGPU_NONE 0
#define XS_R_AMDGPU_ABS64 3
#define XS_R_AMDGPU_RELATIVE64 13

/* ---- bounds and little-endian reads ------------------------------------ */

/* [off, off + len) lies inside [0, total), without overflow. */
static inline bool xs_codeobj_in_bounds(uint64_t off, uint64_t len, uint64_t total)
{
	return off <= total && len <= total - off;
}

static inline uint16_t xs_codeobj_rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (uint16_t)p[1] << 8);
}

static inline uint32_t xs_codeobj_rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t xs_codeobj_rd64(const uint8_t *p)
{
	return (uint64_t)xs_codeobj_rd32(p) | (uint64_t)xs_codeobj_rd32(p + 4) << 32;
}

/* ---- targets (xs_codeobj_target.c) ------------------------------------- */

/* Processor name of an EF_AMDGPU_MACH value, NULL if unknown. */
const char *xs_codeobj_mach_name(uint32_t mach);

/* Splits a bundle entry id "<kind>-<triple>-<target id>", e.g.
 * "hipv4-amdgcn-amd-amdhsa--gfx1030:xnack-", into the kind ("hipv4"), whether
 * the triple is amdgcn-amd-amdhsa, and the processor ("gfx1030"). False if
 * the id has no kind. */
bool xs_codeobj_split_bundle_id(const char *id, char *kind, size_t kind_cap, bool *amdhsa,
                                char *proc, size_t proc_cap);

/* Processor of a metadata amdhsa.target "amdgcn-amd-amdhsa--gfx1030[:feat...]". */
bool xs_codeobj_target_processor(const char *target, char *proc, size_t proc_cap);

/* ---- offload bundles (xs_codeobj_bundle.c) ---------------------------- */

/* Where the ELF image that will be loaded came from. */
typedef struct xs_codeobj_source {
	size_t offset, size;  /* of the selected ELF image in the input */
	char origin[320];     /* "" for a plain ELF, else a description used as an error prefix */
} xs_codeobj_source;

/* A clang offload bundle starting at input[bundle_off]: selects its first
 * gfx10.3 entry. */
xs_status xs_codeobj_bundle_select(const uint8_t *in, size_t in_size, size_t bundle_off,
                                   xs_codeobj_source *src, xs_err *e);
/* A host ELF (not EM_AMDGPU): finds .hip_fatbin and selects the first
 * gfx10.3 entry of the bundles in it. */
xs_status xs_codeobj_fatbin_select(const uint8_t *in, size_t in_size, xs_codeobj_source *src,
                                   xs_err *e);

/* ---- ELF (xs_codeobj_elf.c) ------------------------------------------- */

typedef struct xs_codeobj_sym {
	const char *name;    /* points into the image (a NUL-terminated string table entry) */
	uint64_t value, size;
	uint16_t shndx;
	uint8_t type, bind;
} xs_codeobj_sym;

/* The opened image. Valid while co->image lives. */
typedef struct xs_codeobj_elf {
	const uint8_t *img;
	size_t size;
	Elf *elf;
	uint32_t e_flags;
	uint8_t abi_version;
	size_t shnum, shstrndx;
	xs_codeobj_sym *syms;    /* .dynsym and .symtab, sorted by name */
	size_t nsyms;
	const uint8_t *meta;     /* desc of the NT_AMDGPU_METADATA note */
	size_t meta_size;
	uint64_t meta_off;       /* its byte offset in the image */
} xs_codeobj_elf;

/* Header checks, target (fills co->processor, co->code_object_version),
 * section table bounds; opens libelf on co->image. */
xs_status xs_codeobj_elf_open(xs_codeobj_elf *ev, xs_codeobj *co, xs_err *e);
/* The ELF64 header and section header table inside the image: the part of
 * xs_codeobj_elf_open that relocatable objects (disassembly) need too. */
xs_status xs_codeobj_elf_check_layout(const uint8_t *img, size_t size, xs_err *e);
void xs_codeobj_elf_close(xs_codeobj_elf *ev);
xs_status xs_codeobj_elf_segments(xs_codeobj_elf *ev, xs_codeobj *co, xs_err *e);
xs_status xs_codeobj_elf_symbols(xs_codeobj_elf *ev, xs_err *e);
xs_status xs_codeobj_elf_relocs(xs_codeobj_elf *ev, xs_codeobj *co, xs_err *e);
xs_status xs_codeobj_elf_metadata_note(xs_codeobj_elf *ev, xs_err *e);
const xs_codeobj_sym *xs_codeobj_elf_find_sym(const xs_codeobj_elf *ev, const char *name);
/* The segment holding [vaddr, vaddr + len) in its file bytes, or NULL. */
const xs_codeobj_segment *xs_codeobj_seg_of(const xs_codeobj *co, uint64_t vaddr, uint64_t len);
/* Name of section index i for messages ("?" when it cannot be read). */
const char *xs_codeobj_elf_secname(const xs_codeobj_elf *ev, size_t i);

/* ---- metadata (xs_codeobj_meta.c) ------------------------------------- */

/* Parses the msgpack metadata into co->target, co->kernels (info from the
 * metadata, args, symbol) and co->strings. */
/* Walks a msgpack encoding before msgpack-c unpacks it: msgpack-c
 * allocates an array's or map's elements from the count in its header, so
 * a count larger than the bytes left is refused here (XS_E_BAD_CODE_OBJECT
 * naming the byte). whole: the object must fill all n bytes. */
xs_status xs_codeobj_msgpack_check(const uint8_t *p, size_t n, uint64_t off, bool whole, xs_err *e);
xs_status xs_codeobj_meta_parse(const uint8_t *meta, size_t size, uint64_t meta_off,
                                xs_codeobj *co, xs_err *e);

/* ---- kernel descriptors (xs_codeobj_kernel.c) ------------------------- */

/* Finds k->symbol, copies the descriptor, fills rsrc/kcp/entry and checks
 * it against the metadata. */
xs_status xs_codeobj_kernel_bind(const xs_codeobj_elf *ev, const xs_codeobj *co,
                                 xs_codeobj_kernel *k, xs_err *e);

#endif
