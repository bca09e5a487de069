/*
 * AMDGPU code objects: ELF (EM_AMDGPU, code object v4/v5, gfx10.3 family),
 * clang offload bundles (standalone or in a host ELF's .hip_fatbin), kernel
 * descriptors (<name>.kd, 64 bytes) and msgpack metadata (NT_AMDGPU_METADATA).
 *
 * Parsing is strict and bounded: every offset and size is checked against
 * the buffer before use, allocations are bounded by the input size, and an
 * error names what is wrong and where (byte offset, field, section).
 * Facts: docs/hardware.md section 5; LLVM AMDGPUUsage.
 */
#ifndef XS_CODEOBJ_H
#define XS_CODEOBJ_H

#include "common/xs_common.h"

/* Kernel descriptor (AMDHSAKernelDescriptor.h), byte offsets. */
#define XS_KD_SIZE 64
#define XS_KD_GROUP_SEGMENT_FIXED_SIZE 0
#define XS_KD_PRIVATE_SEGMENT_FIXED_SIZE 4
#define XS_KD_KERNARG_SIZE 8
#define XS_KD_KERNEL_CODE_ENTRY_BYTE_OFFSET 16
#define XS_KD_COMPUTE_PGM_RSRC3 44
#define XS_KD_COMPUTE_PGM_RSRC1 48
#define XS_KD_COMPUTE_PGM_RSRC2 52
#define XS_KD_KERNEL_CODE_PROPERTIES 56

/* kernel_code_properties bits */
#define XS_KCP_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER (1u << 0)
#define XS_KCP_ENABLE_SGPR_DISPATCH_PTR (1u << 1)
#define XS_KCP_ENABLE_SGPR_QUEUE_PTR (1u << 2)
#define XS_KCP_ENABLE_SGPR_KERNARG_SEGMENT_PTR (1u << 3)
#define XS_KCP_ENABLE_SGPR_DISPATCH_ID (1u << 4)
#define XS_KCP_ENABLE_SGPR_FLAT_SCRATCH_INIT (1u << 5)
#define XS_KCP_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE (1u << 6)
#define XS_KCP_ENABLE_WAVEFRONT_SIZE32 (1u << 10)
#define XS_KCP_USES_DYNAMIC_STACK (1u << 11)

typedef struct xs_codeobj_segment {
	uint64_t vaddr, memsz;   /* where it goes, relative to the load base */
	uint64_t offset, filesz; /* bytes in the image */
	uint32_t flags;          /* p_flags: PF_X 1, PF_W 2, PF_R 4 */
} xs_codeobj_segment;

/* A dynamic relocation, resolved so the loader needs no symbol table:
 * write the 64-bit value (load_base + value) at load_base + vaddr. */
typedef struct xs_codeobj_reloc {
	uint64_t vaddr;
	uint64_t value;
} xs_codeobj_reloc;

/* Hidden kernel arguments the runtime fills (AMDGPUUsage "Code Object V3
 * Kernel Argument Metadata Map", value kinds hidden_*), decoded once at load. */
typedef enum xs_codeobj_hidden {
	XS_HIDDEN_NOT = 0,               /* an explicit argument */
	XS_HIDDEN_BLOCK_COUNT_X, XS_HIDDEN_BLOCK_COUNT_Y, XS_HIDDEN_BLOCK_COUNT_Z,
	XS_HIDDEN_GROUP_SIZE_X, XS_HIDDEN_GROUP_SIZE_Y, XS_HIDDEN_GROUP_SIZE_Z,
	XS_HIDDEN_REMAINDER_X, XS_HIDDEN_REMAINDER_Y, XS_HIDDEN_REMAINDER_Z,
	XS_HIDDEN_GLOBAL_OFFSET_X, XS_HIDDEN_GLOBAL_OFFSET_Y, XS_HIDDEN_GLOBAL_OFFSET_Z,
	XS_HIDDEN_GRID_DIMS, XS_HIDDEN_QUEUE_PTR, XS_HIDDEN_DYNAMIC_LDS_SIZE,
	XS_HIDDEN_PRIVATE_BASE, XS_HIDDEN_SHARED_BASE,
	XS_HIDDEN_OTHER,                 /* printf / hostcall buffers, default queue, ...: no such service, null */
} xs_codeobj_hidden;

typedef struct xs_codeobj_kernel {
	xs_kernel_info info;     /* public view; info.args points at args[] */
	xs_kernel_arg *args;
	uint8_t kd[XS_KD_SIZE];  /* raw descriptor bytes */
	uint64_t kd_vaddr;       /* of <name>.kd, relative to the load base */
	uint64_t entry_vaddr;    /* kd_vaddr + kernel_code_entry_byte_offset */
	uint64_t code_size;      /* size of the kernel's function symbol (0 if unknown) */
	const char *symbol;      /* metadata .symbol, "<name>.kd" */
	uint32_t kernarg_segment_align;   /* metadata .kernarg_segment_align */
	const char **arg_address_space;   /* parallel to args[]: metadata .address_space or "" */
	uint8_t *arg_hidden;              /* parallel to args[]: xs_codeobj_hidden */
	uint8_t *arg_const;               /* parallel to args[]: metadata .is_const */
	uint32_t reqd_workgroup_size[3];  /* metadata .reqd_workgroup_size, 0 when absent */
} xs_codeobj_kernel;

typedef struct xs_codeobj {
	char target[96];         /* "amdgcn-amd-amdhsa--gfx1030" (+ ":xnack-" etc.) */
	char processor[16];      /* "gfx1030" */
	uint32_t code_object_version;  /* 4 or 5 */
	uint8_t *image;          /* copy of the selected ELF image (owned) */
	size_t image_size;
	xs_codeobj_segment *segs;
	uint32_t nsegs;
	uint64_t load_size;      /* bytes of GPU memory the image needs */
	xs_codeobj_reloc *relocs;
	uint32_t nrelocs;
	xs_codeobj_kernel *kernels;
	uint32_t nkernels;
	char *strings;           /* owned storage for names in args/kernels */
} xs_codeobj;

/* Accepts an ELF code object, an offload bundle, or a host ELF carrying
 * .hip_fatbin; picks the gfx10.3 entry of a bundle. */
xs_status xs_codeobj_parse(const uint8_t *bytes, size_t size, xs_codeobj **out, xs_err *e);
void xs_codeobj_free(xs_codeobj *co);
const xs_codeobj_kernel *xs_codeobj_find(const xs_codeobj *co, const char *name);
/* True for processors that share the gfx10.3 ISA (gfx1030..gfx1036). */
bool xs_codeobj_is_gfx103(const char *processor);

/* Limits on hostile input (each is also bounded by the input size). */
#define XS_CODEOBJ_MAX_KERNELS 4096
#define XS_CODEOBJ_MAX_ARGS 1024
#define XS_CODEOBJ_MAX_STRING 4096
#define XS_CODEOBJ_MAX_BUNDLE_ENTRIES 4096
#define XS_CODEOBJ_MAX_LOAD_SIZE (1ull << 32)  /* GPU bytes one code object may need */
/* Kernarg segment: at most 4 KiB of explicit arguments (the kernel
 * parameter limit of CUDA and HIP; ROCclr reports CL_DEVICE_MAX_PARAMETER_SIZE
 * 1024 for OpenCL) plus the 256 bytes of hidden arguments of code object V5
 * (AMDGPUUsage, "Code Object V5 Metadata": hidden arguments follow the
 * explicit ones). A dispatch copies the segment, so a larger declared size
 * is refused at load, before anything is allocated. */
#define XS_CODEOBJ_MAX_KERNARG (4096u + 256u)

#endif
