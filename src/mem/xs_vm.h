/*
 * GPU virtual memory: a sparse 48-bit address space (gfx10.3 VA width),
 * page-granular validity, host backing allocated lazily on first write.
 *
 * The GPU model reaches memory only through this layer. A shader access
 * outside every allocation is not a host crash: xs_vm_ptr() returns NULL and
 * the interpreter records a VM fault (address, wave, PC).
 *
 * Validity comes from the allocation list (sorted, binary-searched), so an
 * allocation costs O(1) whatever its size. An allocation is valid to the
 * byte it asked for, not to the end of its last page (hardware faults only
 * at page granularity; xs12 is stricter so that a store one element past a
 * buffer is caught): the page-table entry of a partial last page carries
 * its valid byte count in the low 12 bits, so full pages cost nothing
 * extra. Allocations may carry a name for fault reports (xs_vm_describe).
 * Host backing is a page table: a
 * directory of 2^18 entries (1 GiB each) pointing at leaf tables of 2^18
 * host-page pointers (4 KiB each); a page never written has no host page and
 * reads as zeros. Entries are set with atomics so several host threads may
 * run waves.
 *
 * Host pages come from 2 MiB slabs of anonymous memory, faulted in whole:
 * first-touching a 32 MiB output buffer is then 16 mmap calls, not 8192
 * page faults, 8192 mallocs and memsets of pages the kernel had zeroed.
 * Freed pages go to a free list and are zeroed when reused; slabs return to
 * the system with the VM.
 *
 * Consecutive guest pages are consecutive host pages within each aligned
 * block of XS_VM_BLOCK_SIZE that lies wholly inside one allocation: the
 * first write into such a block reserves a run of host pages for all of it
 * (kept after the leaf's entries), and each page, when first written, is
 * backed by its place in the run. The page table still backs only pages
 * written. Without this, waves that first write their scratch slots in
 * lockstep interleave the slots' pages on the host, and a gather over a
 * slot looks up each lane's page (scratch_chase functional 1.07-1.10x).
 * A freed allocation's runs go to a list of their own, for the next runs.
 * The cost: a kernel that writes one page in every 64 KiB holds sixteen
 * times the host memory it wrote (never more than the allocation's size).
 */
#ifndef XS_VM_H
#define XS_VM_H

#include "common/xs_common.h"

#include <pthread.h>

#define XS_VM_VA_BITS 48
#define XS_VM_PAGE_SHIFT 12
#define XS_VM_PAGE_SIZE (1u << XS_VM_PAGE_SHIFT)
#define XS_VM_LEAF_SHIFT 30 /* one leaf table covers 1 GiB */
#define XS_VM_LEAF_ENTRIES (1u << (XS_VM_LEAF_SHIFT - XS_VM_PAGE_SHIFT))
#define XS_VM_DIR_ENTRIES (1u << (XS_VM_VA_BITS - XS_VM_LEAF_SHIFT))
#define XS_VM_BLOCK_SHIFT 16 /* 64 KiB: a run of host pages reserved at once */
#define XS_VM_BLOCK_SIZE (1ull << XS_VM_BLOCK_SHIFT)
#define XS_VM_BLOCK_PAGES (1u << (XS_VM_BLOCK_SHIFT - XS_VM_PAGE_SHIFT))
#define XS_VM_LEAF_BLOCKS (1u << (XS_VM_LEAF_SHIFT - XS_VM_BLOCK_SHIFT))
/* Allocations start above 4 GiB so that a truncated 32-bit pointer faults. */
#define XS_VM_HEAP_BASE 0x100000000ull

typedef struct xs_vm_alloc_rec {
	uint64_t va, size;         /* size: whole pages (the span reserved) */
	uint64_t bytes;            /* bytes valid from va (<= size) */
	char *name;                /* for reports, or NULL (owned) */
	uint8_t *host;             /* xs_vm_alloc_host: the contiguous host copy behind it, else NULL */
	void *owner;               /* the API object it backs (a D3D12 resource), or NULL */
} xs_vm_alloc_rec;

typedef struct xs_vm {
	uintptr_t *dir[XS_VM_DIR_ENTRIES]; /* leaf tables, created on demand */
	uint64_t next_va;
	xs_vm_alloc_rec *allocs;           /* sorted by va */
	size_t nallocs, cap;
	uint64_t backed_pages;             /* host pages in use */
	uint64_t reserved;                 /* bytes the allocations span (whole pages) */
	uint64_t limit;                    /* most they may span: the device's memory; 0 = none */
	/* recently freed allocations, for fault reports (a ring) */
	xs_vm_alloc_rec freed[8];
	unsigned nfreed;
	/* host page pool */
	pthread_mutex_t pool_lock;
	uint8_t **slabs;
	size_t nslabs, slab_cap;
	size_t slab_used;                  /* pages handed out of the last slab */
	void *free_pages;                  /* freed pages, linked through their first word */
	void *free_runs;                   /* freed runs of XS_VM_BLOCK_PAGES pages, the same way */
} xs_vm;

extern const uint8_t xs_vm_zero_page[XS_VM_PAGE_SIZE];

xs_vm *xs_vm_create(void);
void xs_vm_destroy(xs_vm *vm);
/* The most bytes the allocations may span together: the simulated
 * device's memory (xs_devinfo.memory_bytes), so that what a program or a
 * recording allocates, and so what host memory its writes may take, is
 * bounded as on the console. An allocation past it fails with
 * XS_E_OUT_OF_MEMORY. 0 (the default) = no limit. */
void xs_vm_set_limit(xs_vm *vm, uint64_t bytes);
xs_status xs_vm_alloc(xs_vm *vm, uint64_t size, uint64_t align, uint64_t *va, xs_err *e);
xs_status xs_vm_free(xs_vm *vm, uint64_t va, xs_err *e);
/* An allocation backed at once by one contiguous, zeroed host mapping that
 * the caller may read and write directly (*host): what a D3D12 upload or
 * readback heap's Map returns, and the runtime's own command memory. */
xs_status xs_vm_alloc_host(xs_vm *vm, uint64_t size, uint64_t align, uint64_t *va, uint8_t **host, xs_err *e);
/* An allocation at a given address (replaying a recorded address space);
 * it must not overlap another. */
xs_status xs_vm_alloc_at(xs_vm *vm, uint64_t va, uint64_t size, xs_err *e);
/* Calls fn for every host-backed page inside an allocation, in address
 * order (pages never written are zeros and are skipped). */
void xs_vm_each_page(const xs_vm *vm, void (*fn)(void *user, uint64_t va, const uint8_t *page), void *user);
/* The allocation containing va (within its valid bytes), or NULL. */
const xs_vm_alloc_rec *xs_vm_find(const xs_vm *vm, uint64_t va);
/* The first byte at or after va outside every allocation: va itself, or
 * the end of the allocation va is in (for the address a fault reports). */
uint64_t xs_vm_first_bad(const xs_vm *vm, uint64_t va);
/* The API object behind the allocation that starts at va (NULL clears). */
void xs_vm_set_owner(xs_vm *vm, uint64_t va, void *owner);
/* Names the allocation at va (a copy is kept; NULL clears). */
xs_status xs_vm_set_name(xs_vm *vm, uint64_t va, const char *name, xs_err *e);
/* Where va lies, for a fault report: "inside 'arg 2 (out)' [0x..+4096) at
 * +16", "24 bytes past the end of 'arg 2 (out)' [...]", "in 'x' freed
 * earlier", or "in no allocation; nearest: ..." */
void xs_vm_describe(const xs_vm *vm, uint64_t va, char *buf, size_t n);
/* Allocations within `window` bytes of va (live ones, or the recently
 * freed ones), nearest first, at most max: DRED's page-fault nodes. */
uint32_t xs_vm_near(const xs_vm *vm, uint64_t va, uint64_t window, bool freed, const xs_vm_alloc_rec **out,
		    uint32_t max);
/* Host copies; false (and nothing copied past the first bad byte) when any
 * byte is unmapped; *bad_va gets that byte's address if non-NULL. */
bool xs_vm_write(xs_vm *vm, uint64_t va, const void *src, size_t n, uint64_t *bad_va);
bool xs_vm_read(xs_vm *vm, uint64_t va, void *dst, size_t n, uint64_t *bad_va);
bool xs_vm_fill(xs_vm *vm, uint64_t va, uint8_t byte, size_t n, uint64_t *bad_va);

/* Slow path of xs_vm_ptr_n: a page with no host page yet, or a partial page. */
uint8_t *xs_vm_ptr_slow(xs_vm *vm, uint64_t va, unsigned n, bool for_write);

#define XS_VM_PAGE_MASK ((uintptr_t)XS_VM_PAGE_SIZE - 1)

/* Hot path: host address of [va, va + n) for an access that does not cross
 * a page (callers split at page boundaries; n >= 1). NULL when any of it is
 * outside an allocation. A read of a page never written returns the shared
 * zero page. */
/* The page-table entry of va's page: the host page of a page backed whole
 * (its low bits 0), a partial last page's with its valid bytes in the low
 * bits, or 0 (not backed, or va outside the address space). */
static inline uintptr_t xs_vm_entry(const xs_vm *vm, uint64_t va)
{
	if (XS_UNLIKELY(va >> XS_VM_VA_BITS))
		return 0;
	const uintptr_t *leaf = __atomic_load_n(&vm->dir[va >> XS_VM_LEAF_SHIFT], __ATOMIC_ACQUIRE);
	return XS_LIKELY(leaf != NULL)
		       ? __atomic_load_n(&leaf[(va >> XS_VM_PAGE_SHIFT) & (XS_VM_LEAF_ENTRIES - 1)], __ATOMIC_ACQUIRE)
		       : 0;
}

static inline uint8_t *xs_vm_ptr_n(xs_vm *vm, uint64_t va, unsigned n, bool for_write)
{
	uintptr_t p = xs_vm_entry(vm, va);
	if (XS_LIKELY(p && !(p & XS_VM_PAGE_MASK))) /* a whole page */
		return (uint8_t *)p + (va & XS_VM_PAGE_MASK);
	return xs_vm_ptr_slow(vm, va, n, for_write);
}

static inline uint8_t *xs_vm_ptr(xs_vm *vm, uint64_t va, bool for_write)
{
	return xs_vm_ptr_n(vm, va, 1, for_write);
}

/* Bytes valid in the page at page_va (XS_VM_PAGE_SIZE, or fewer for the
 * last page of an allocation that ends inside it; 0 if none): caches of
 * host pages (the interpreter's TLB) keep only whole pages. */
uint32_t xs_vm_page_bytes(const xs_vm *vm, uint64_t page_va);

/* xs_vm_ptr of a page's first byte and, in *lim, xs_vm_page_bytes of it:
 * one look-up of the entry when the page is backed whole (a translation
 * cache's fill, once per page per instruction). */
static inline uint8_t *xs_vm_page_ptr(xs_vm *vm, uint64_t page_va, bool for_write, uint32_t *lim)
{
	uintptr_t p = xs_vm_entry(vm, page_va);
	if (XS_LIKELY(p && !(p & XS_VM_PAGE_MASK))) {
		*lim = XS_VM_PAGE_SIZE;
		return (uint8_t *)p;
	}
	uint8_t *h = xs_vm_ptr(vm, page_va, for_write);
	*lim = h ? xs_vm_page_bytes(vm, page_va) : 0;
	return h;
}

#endif
