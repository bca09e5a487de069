#include "mem/xs_vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

const uint8_t xs_vm_zero_page[XS_VM_PAGE_SIZE] __attribute__((aligned(XS_VM_PAGE_SIZE)));

#define SLAB_BYTES (2u << 20)
#define SLAB_PAGES (SLAB_BYTES / XS_VM_PAGE_SIZE)

xs_vm *xs_vm_create(void)
{
	xs_vm *vm = xs_calloc(1, sizeof(*vm));
	if (!vm)
		return NULL;
	vm->next_va = XS_VM_HEAP_BASE;
	pthread_mutex_init(&vm->pool_lock, NULL);
	return vm;
}

/* A slab of host pages, faulted in with one call (MAP_POPULATE): the
 * kernel zeroes them without a trap per page. Not marked for transparent
 * huge pages: where the kernel must compact memory to find them (defrag
 * "madvise", the usual default) the first touch of a large buffer took
 * several times longer than with 4 KiB pages. */
static uint8_t *slab_map(void)
{
	uint8_t *p = mmap(NULL, SLAB_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* npages consecutive zeroed host pages (one page, or a run of
 * XS_VM_BLOCK_PAGES): the first on the free list *list (of that many pages
 * each, linked through their first word), else the last slab's next pages;
 * a slab too short for them gives its rest to the free pages, and a new slab
 * is mapped. NULL when the host has none. */
static uint8_t *pool_take(xs_vm *vm, unsigned npages, void **list)
{
	uint8_t *p = NULL;
	bool reused = false;
	pthread_mutex_lock(&vm->pool_lock);
	if (*list) {
		p = *list;
		memcpy(list, p, sizeof(void *));
		reused = true;
	} else {
		for (; vm->nslabs && vm->slab_used < SLAB_PAGES && vm->slab_used + npages > SLAB_PAGES;
		     vm->slab_used++) {
			void *page = vm->slabs[vm->nslabs - 1] + (size_t)vm->slab_used * XS_VM_PAGE_SIZE;
			memcpy(page, &vm->free_pages, sizeof(void *));
			vm->free_pages = page;
		}
		if (!vm->nslabs || vm->slab_used == SLAB_PAGES) {
			uint8_t *slab = NULL;
			if (vm->nslabs == vm->slab_cap) {
				size_t ncap = vm->slab_cap ? 2 * vm->slab_cap : 16;
				uint8_t **n = xs_realloc(vm->slabs, ncap * sizeof(*n));
				if (n) {
					vm->slabs = n;
					vm->slab_cap = ncap;
				}
			}
			if (vm->nslabs < vm->slab_cap && (slab = slab_map()) != NULL) {
				vm->slabs[vm->nslabs++] = slab;
				vm->slab_used = 0;
			}
		}
		if (vm->nslabs && vm->slab_used + npages <= SLAB_PAGES) {
			p = vm->slabs[vm->nslabs - 1] + (size_t)vm->slab_used * XS_VM_PAGE_SIZE;
			vm->slab_used += npages;
		}
	}
	pthread_mutex_unlock(&vm->pool_lock);
	/* fresh slab pages are zero already; reused ones are zeroed before
	 * anyone can see them (xs_vm_ptr_slow publishes them) */
	if (reused)
		memset(p, 0, (size_t)npages * XS_VM_PAGE_SIZE);
	return p;
}

/* Back on the free list *list (of pages, or of runs). */
static void pool_give(xs_vm *vm, void *p, void **list)
{
	pthread_mutex_lock(&vm->pool_lock);
	memcpy(p, list, sizeof(void *));
	*list = p;
	pthread_mutex_unlock(&vm->pool_lock);
}

static void *page_get(xs_vm *vm)
{
	return pool_take(vm, 1, &vm->free_pages);
}

static void page_put(xs_vm *vm, void *page)
{
	pool_give(vm, page, &vm->free_pages);
}

static uint8_t *run_get(xs_vm *vm)
{
	return pool_take(vm, XS_VM_BLOCK_PAGES, &vm->free_runs);
}

static void run_put(xs_vm *vm, void *run)
{
	pool_give(vm, run, &vm->free_runs);
}

/* A new leaf table: the page entries, then the blocks' reserved runs. */
static uintptr_t *leaf_new(void)
{
	return xs_calloc(XS_VM_LEAF_ENTRIES + XS_VM_LEAF_BLOCKS, sizeof(uintptr_t));
}

/* Where a leaf keeps the run reserved for va's block (0: none). */
static inline uintptr_t *leaf_run(uintptr_t *leaf, uint64_t va)
{
	return &leaf[XS_VM_LEAF_ENTRIES + ((va >> XS_VM_BLOCK_SHIFT) & (XS_VM_LEAF_BLOCKS - 1))];
}

/* Frees the host pages of [va, va + size); skips 1 GiB regions never touched.
 * A host-backed allocation's pages are its mapping's: they only leave the
 * page table (the mapping goes with munmap). */
static void unmap_range(xs_vm *vm, uint64_t va, uint64_t size, bool host_backed)
{
	uint64_t a = va;
	while (a < va + size) {
		uintptr_t *leaf = vm->dir[a >> XS_VM_LEAF_SHIFT];
		uint64_t leaf_end = ((a >> XS_VM_LEAF_SHIFT) + 1) << XS_VM_LEAF_SHIFT;
		uint64_t end = XS_MIN(leaf_end, va + size);
		for (; leaf && a < end; a += XS_VM_PAGE_SIZE) {
			uintptr_t *ent = &leaf[(a >> XS_VM_PAGE_SHIFT) & (XS_VM_LEAF_ENTRIES - 1)];
			uintptr_t *run = leaf_run(leaf, a);
			if (*ent) {
				if (!host_backed && !*run)
					page_put(vm, (void *)(*ent & ~XS_VM_PAGE_MASK));
				*ent = 0;
				vm->backed_pages--;
			}
			/* a reserved run (its block lies inside the allocation) goes
			 * back whole, after its last page */
			if (*run && !((a + XS_VM_PAGE_SIZE) & (XS_VM_BLOCK_SIZE - 1))) {
				run_put(vm, (void *)*run);
				*run = 0;
			}
		}
		a = end;
	}
}

void xs_vm_destroy(xs_vm *vm)
{
	if (!vm)
		return;
	for (size_t i = 0; i < vm->nallocs; i++) {
		unmap_range(vm, vm->allocs[i].va, vm->allocs[i].size, vm->allocs[i].host != NULL);
		if (vm->allocs[i].host)
			munmap(vm->allocs[i].host, vm->allocs[i].size);
		free(vm->allocs[i].name);
	}
	for (unsigned i = 0; i < XS_ARRAY_SIZE(vm->freed); i++)
		free(vm->freed[i].name);
	for (size_t i = 0; i < XS_VM_DIR_ENTRIES; i++)
		free(vm->dir[i]);
	for (size_t i = 0; i < vm->nslabs; i++)
		munmap(vm->slabs[i], SLAB_BYTES);
	free(vm->slabs);
	pthread_mutex_destroy(&vm->pool_lock);
	free(vm->allocs);
	free(vm);
}

/* Room for one more allocation record. */
static bool reserve_record(xs_vm *vm)
{
	if (vm->nallocs < vm->cap)
		return true;
	size_t ncap = vm->cap ? vm->cap * 2 : 64;
	xs_vm_alloc_rec *n = xs_realloc(vm->allocs, ncap * sizeof(*n));
	if (!n)
		return false;
	vm->allocs = n;
	vm->cap = ncap;
	return true;
}

void xs_vm_set_limit(xs_vm *vm, uint64_t bytes)
{
	vm->limit = bytes;
}

/* Whether a span of `span` bytes more stays within the limit. */
static xs_status within_limit(const xs_vm *vm, uint64_t span, xs_err *e)
{
	if (vm->limit && span > vm->limit - XS_MIN(vm->reserved, vm->limit))
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "GPU memory: an allocation of %llu bytes would bring the "
				  "allocations to %llu bytes, over the device's %llu", (unsigned long long)span,
				  (unsigned long long)(vm->reserved + span), (unsigned long long)vm->limit);
	return XS_OK;
}

xs_status xs_vm_alloc(xs_vm *vm, uint64_t size, uint64_t align, uint64_t *va, xs_err *e)
{
	if (size == 0)
		return xs_err_set(e, XS_E_INVALID_ARG, "GPU allocation of 0 bytes");
	if (align < XS_VM_PAGE_SIZE)
		align = XS_VM_PAGE_SIZE;
	if (!XS_IS_POW2(align))
		return xs_err_set(e, XS_E_INVALID_ARG, "GPU allocation alignment %llu is not a power of two",
				  (unsigned long long)align);
	uint64_t limit = 1ull << XS_VM_VA_BITS;
	uint64_t base = XS_ALIGN_UP(vm->next_va, align);
	uint64_t span = XS_ALIGN_UP(size, (uint64_t)XS_VM_PAGE_SIZE);
	if (size > limit || base > limit - span)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "GPU virtual address space (48-bit) exhausted by a %llu-byte allocation",
				  (unsigned long long)size);
	xs_status st = within_limit(vm, span, e);
	if (st)
		return st;
	if (!reserve_record(vm))
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
	/* Bump allocation keeps the list sorted; a guard page separates
	 * allocations so that running off the end of one faults. */
	vm->allocs[vm->nallocs++] = (xs_vm_alloc_rec){ base, span, size, NULL, NULL, NULL };
	vm->reserved += span;
	vm->next_va = base + span + XS_VM_PAGE_SIZE;
	*va = base;
	return XS_OK;
}

/* The entry value for a host page at page_va of allocation r: the page,
 * with the valid byte count in the low bits when r ends inside it. */
static uintptr_t page_entry(const xs_vm_alloc_rec *r, uint64_t page_va, void *page)
{
	uint64_t end = r->va + r->bytes;
	return (uintptr_t)page | (end - page_va < XS_VM_PAGE_SIZE ? (uintptr_t)(end - page_va) : 0);
}

/* Leaf table for va, created on demand (single-threaded callers). */
static uintptr_t *leaf_for(xs_vm *vm, uint64_t va)
{
	uintptr_t **slot = &vm->dir[va >> XS_VM_LEAF_SHIFT];
	if (!*slot)
		__atomic_store_n(slot, leaf_new(), __ATOMIC_RELEASE);
	return *slot;
}

xs_status xs_vm_alloc_host(xs_vm *vm, uint64_t size, uint64_t align, uint64_t *va, uint8_t **host, xs_err *e)
{
	xs_status st = xs_vm_alloc(vm, size, align, va, e);
	if (st)
		return st;
	xs_vm_alloc_rec *r = (xs_vm_alloc_rec *)xs_vm_find(vm, *va);
	void *p = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		xs_vm_free(vm, *va, NULL);
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory for %llu bytes of mapped GPU memory",
				  (unsigned long long)size);
	}
	for (uint64_t off = 0; off < r->size; off += XS_VM_PAGE_SIZE) {
		uintptr_t *leaf = leaf_for(vm, r->va + off);
		if (!leaf) {
			r->host = p; /* unmap_range clears what was entered */
			xs_vm_free(vm, *va, NULL);
			return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
		}
		__atomic_store_n(&leaf[((r->va + off) >> XS_VM_PAGE_SHIFT) & (XS_VM_LEAF_ENTRIES - 1)],
				 page_entry(r, r->va + off, (uint8_t *)p + off), __ATOMIC_RELEASE);
		vm->backed_pages++;
	}
	r->host = p;
	*host = p;
	return XS_OK;
}

const xs_vm_alloc_rec *xs_vm_find(const xs_vm *vm, uint64_t va)
{
	size_t lo = 0, hi = vm->nallocs;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const xs_vm_alloc_rec *r = &vm->allocs[mid];
		if (va < r->va)
			hi = mid;
		else if (va >= r->va + r->size)
			lo = mid + 1;
		else
			return va < r->va + r->bytes ? r : NULL;
	}
	return NULL;
}

uint64_t xs_vm_first_bad(const xs_vm *vm, uint64_t va)
{
	const xs_vm_alloc_rec *r = xs_vm_find(vm, va);
	return r ? r->va + r->bytes : va;
}

xs_status xs_vm_set_name(xs_vm *vm, uint64_t va, const char *name, xs_err *e)
{
	xs_vm_alloc_rec *r = (xs_vm_alloc_rec *)xs_vm_find(vm, va);
	if (!r || r->va != va)
		return xs_err_set(e, XS_E_INVALID_ARG, "0x%llx is not the start of a GPU allocation",
				  (unsigned long long)va);
	char *copy = NULL;
	if (name && !(copy = xs_strndup(name, 200)))
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
	free(r->name);
	r->name = copy;
	return XS_OK;
}

void xs_vm_set_owner(xs_vm *vm, uint64_t va, void *owner)
{
	xs_vm_alloc_rec *r = (xs_vm_alloc_rec *)xs_vm_find(vm, va);
	if (r && r->va == va)
		r->owner = owner;
}

static int rec_text(const xs_vm_alloc_rec *r, char *buf, size_t n)
{
	return snprintf(buf, n, "'%s' [0x%llx, +%llu bytes)", r->name ? r->name : "(unnamed)",
			(unsigned long long)r->va, (unsigned long long)r->bytes);
}

void xs_vm_describe(const xs_vm *vm, uint64_t va, char *buf, size_t n)
{
	char what[300];
	/* The allocation at or below va, and the one above. */
	const xs_vm_alloc_rec *below = NULL, *above = NULL;
	for (size_t i = 0; i < vm->nallocs; i++) {
		const xs_vm_alloc_rec *r = &vm->allocs[i];
		if (r->va <= va)
			below = r;
		else if (!above)
			above = r;
	}
	if (below && va < below->va + below->bytes) {
		rec_text(below, what, sizeof(what));
		snprintf(buf, n, "inside %s at +%llu", what, (unsigned long long)(va - below->va));
		return;
	}
	for (unsigned i = 0; i < XS_ARRAY_SIZE(vm->freed); i++) {
		const xs_vm_alloc_rec *f = &vm->freed[i];
		if (f->bytes && va >= f->va && va < f->va + f->bytes) {
			rec_text(f, what, sizeof(what));
			snprintf(buf, n, "in %s, which was freed", what);
			return;
		}
	}
	if (below && va - (below->va + below->bytes) < (above ? above->va - va : UINT64_MAX)) {
		rec_text(below, what, sizeof(what));
		uint64_t past = va - below->va - below->bytes;
		if (past)
			snprintf(buf, n, "%llu bytes past the end of %s", (unsigned long long)past, what);
		else
			snprintf(buf, n, "the first byte past the end of %s", what);
	} else if (above) {
		rec_text(above, what, sizeof(what));
		snprintf(buf, n, "%llu bytes before %s", (unsigned long long)(above->va - va), what);
	} else {
		snprintf(buf, n, "in no allocation (none exist)");
	}
}

static uint64_t distance(const xs_vm_alloc_rec *r, uint64_t va)
{
	if (va < r->va)
		return r->va - va;
	return va < r->va + r->bytes ? 0 : va - (r->va + r->bytes) + 1;
}

uint32_t xs_vm_near(const xs_vm *vm, uint64_t va, uint64_t window, bool freed, const xs_vm_alloc_rec **out,
		    uint32_t max)
{
	const xs_vm_alloc_rec *set = freed ? vm->freed : vm->allocs;
	size_t n = freed ? XS_ARRAY_SIZE(vm->freed) : vm->nallocs;
	uint32_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const xs_vm_alloc_rec *r = &set[i];
		uint64_t dist = distance(r, va);
		if (!r->bytes || dist > window)
			continue;
		/* insertion by distance, the farthest dropped when full */
		uint32_t j = k < max ? k++ : max;
		while (j > 0 && distance(out[j - 1], va) > dist) {
			if (j < max)
				out[j] = out[j - 1];
			j--;
		}
		if (j < max)
			out[j] = r;
	}
	return k;
}

xs_status xs_vm_free(xs_vm *vm, uint64_t va, xs_err *e)
{
	const xs_vm_alloc_rec *r = xs_vm_find(vm, va);
	if (!r || r->va != va)
		return xs_err_set(e, XS_E_INVALID_ARG, "0x%llx is not the start of a GPU allocation",
				  (unsigned long long)va);
	size_t i = (size_t)(r - vm->allocs);
	vm->reserved -= r->size;
	unmap_range(vm, r->va, r->size, r->host != NULL);
	if (r->host)
		munmap(r->host, r->size);
	xs_vm_alloc_rec *slot = &vm->freed[vm->nfreed++ % XS_ARRAY_SIZE(vm->freed)];
	free(slot->name);
	*slot = *r; /* the name moves to the freed ring */
	slot->host = NULL;
	slot->owner = NULL;
	memmove(&vm->allocs[i], &vm->allocs[i + 1], (vm->nallocs - i - 1) * sizeof(*r));
	vm->nallocs--;
	return XS_OK;
}

uint32_t xs_vm_page_bytes(const xs_vm *vm, uint64_t page_va)
{
	uintptr_t p = xs_vm_entry(vm, page_va);
	if (p) /* backed: the entry says */
		return (p & XS_VM_PAGE_MASK) ? (uint32_t)(p & XS_VM_PAGE_MASK) : XS_VM_PAGE_SIZE;
	const xs_vm_alloc_rec *r = xs_vm_find(vm, page_va);
	if (!r)
		return 0;
	uint64_t end = r->va + r->bytes;
	return end - page_va < XS_VM_PAGE_SIZE ? (uint32_t)(end - page_va) : XS_VM_PAGE_SIZE;
}

uint8_t *xs_vm_ptr_slow(xs_vm *vm, uint64_t va, unsigned n, bool for_write)
{
	if (va >> XS_VM_VA_BITS)
		return NULL;
	uint64_t off = va & XS_VM_PAGE_MASK, page_va = va - off;
	uintptr_t p = xs_vm_entry(vm, va);
	if (p) { /* a partial last page: its valid bytes are in the low bits */
		uintptr_t valid = p & XS_VM_PAGE_MASK;
		return valid && off + n <= valid ? (uint8_t *)(p & ~XS_VM_PAGE_MASK) + off
						 : (valid ? NULL : (uint8_t *)p + off);
	}
	const xs_vm_alloc_rec *r = xs_vm_find(vm, va);
	if (!r || va + n > r->va + r->bytes)
		return NULL;
	if (!for_write)
		return (uint8_t *)xs_vm_zero_page + off;
	uintptr_t **slot = &vm->dir[va >> XS_VM_LEAF_SHIFT];
	uintptr_t *leaf = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	if (!leaf) {
		uintptr_t *fresh = leaf_new();
		if (!fresh)
			return NULL;
		uintptr_t *expect = NULL;
		if (__atomic_compare_exchange_n(slot, &expect, fresh, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			leaf = fresh;
		} else {
			free(fresh);
			leaf = expect;
		}
	}
	uintptr_t *ent = &leaf[(va >> XS_VM_PAGE_SHIFT) & (XS_VM_LEAF_ENTRIES - 1)];
	/* A block inside the allocation: the page's place in the block's run
	 * (reserved now if it has none; see xs_vm.h). Every writer takes the
	 * same page from it, so a lost race below needs no give-back. */
	uint64_t block = page_va & ~(XS_VM_BLOCK_SIZE - 1);
	void *page = NULL;
	bool from_run = false;
	if (block >= r->va && block + XS_VM_BLOCK_SIZE <= r->va + r->size) {
		uintptr_t *slot_run = leaf_run(leaf, va);
		uintptr_t run = __atomic_load_n(slot_run, __ATOMIC_ACQUIRE);
		if (!run) {
			uint8_t *fresh_run = run_get(vm);
			uintptr_t expect_run = 0;
			if (!fresh_run)
				return NULL;
			if (__atomic_compare_exchange_n(slot_run, &expect_run, (uintptr_t)fresh_run, false,
							__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
				run = (uintptr_t)fresh_run;
			} else {
				run_put(vm, fresh_run);
				run = expect_run;
			}
		}
		page = (uint8_t *)run + (page_va - block);
		from_run = true;
	} else if (!(page = page_get(vm))) {
		return NULL;
	}
	uintptr_t expect = 0;
	if (__atomic_compare_exchange_n(ent, &expect, page_entry(r, page_va, page), false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		__atomic_fetch_add(&vm->backed_pages, 1, __ATOMIC_RELAXED);
	} else {
		if (!from_run)
			page_put(vm, page); /* another thread backed it first */
		page = (void *)(expect & ~XS_VM_PAGE_MASK);
	}
	return (uint8_t *)page + off;
}

typedef enum { COPY_READ, COPY_WRITE, COPY_FILL } copy_mode;

static bool vm_copy(xs_vm *vm, uint64_t va, void *buf, uint8_t fill, size_t n, copy_mode mode,
		    uint64_t *bad_va)
{
	uint8_t *p = buf;
	while (n) {
		size_t in_page = XS_VM_PAGE_SIZE - (va & (XS_VM_PAGE_SIZE - 1));
		size_t chunk = XS_MIN(n, in_page);
		uint8_t *h = xs_vm_ptr_n(vm, va, (unsigned)chunk, mode != COPY_READ);
		if (!h) {
			if (bad_va)
				*bad_va = xs_vm_first_bad(vm, va);
			return false;
		}
		if (mode == COPY_READ)
			memcpy(p, h, chunk);
		else if (mode == COPY_WRITE)
			memcpy(h, p, chunk);
		else
			memset(h, fill, chunk);
		if (p)
			p += chunk;
		va += chunk;
		n -= chunk;
	}
	return true;
}

bool xs_vm_write(xs_vm *vm, uint64_t va, const void *src, size_t n, uint64_t *bad_va)
{
	return vm_copy(vm, va, (void *)src, 0, n, COPY_WRITE, bad_va);
}

bool xs_vm_read(xs_vm *vm, uint64_t va, void *dst, size_t n, uint64_t *bad_va)
{
	return vm_copy(vm, va, dst, 0, n, COPY_READ, bad_va);
}

bool xs_vm_fill(xs_vm *vm, uint64_t va, uint8_t byte, size_t n, uint64_t *bad_va)
{
	return vm_copy(vm, va, NULL, byte, n, COPY_FILL, bad_va);
}

xs_status xs_vm_alloc_at(xs_vm *vm, uint64_t va, uint64_t size, xs_err *e)
{
	/* size is bounded before it is rounded: near UINT64_MAX the rounding
	 * wraps to 0 and the overlap checks would pass a span of nothing. */
	uint64_t span = XS_ALIGN_UP(size, (uint64_t)XS_VM_PAGE_SIZE);
	if (size == 0 || size > (1ull << XS_VM_VA_BITS) || va % XS_VM_PAGE_SIZE || va < XS_VM_HEAP_BASE || va >= (1ull << XS_VM_VA_BITS) ||
	    span > (1ull << XS_VM_VA_BITS) - va)
		return xs_err_set(e, XS_E_INVALID_ARG, "allocation 0x%llx+0x%llx is outside the 48-bit heap",
				  (unsigned long long)va, (unsigned long long)size);
	size_t i = 0;
	while (i < vm->nallocs && vm->allocs[i].va < va)
		i++;
	if ((i > 0 && vm->allocs[i - 1].va + vm->allocs[i - 1].size > va) ||
	    (i < vm->nallocs && va + span > vm->allocs[i].va))
		return xs_err_set(e, XS_E_INVALID_ARG, "allocation 0x%llx+0x%llx overlaps another",
				  (unsigned long long)va, (unsigned long long)size);
	xs_status st = within_limit(vm, span, e);
	if (st)
		return st;
	if (!reserve_record(vm))
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
	memmove(&vm->allocs[i + 1], &vm->allocs[i], (vm->nallocs - i) * sizeof(*vm->allocs));
	vm->allocs[i] = (xs_vm_alloc_rec){ va, span, size, NULL, NULL, NULL };
	vm->nallocs++;
	vm->reserved += span;
	vm->next_va = XS_MAX(vm->next_va, va + span + XS_VM_PAGE_SIZE);
	return XS_OK;
}

void xs_vm_each_page(const xs_vm *vm, void (*fn)(void *user, uint64_t va, const uint8_t *page), void *user)
{
	for (size_t i = 0; i < vm->nallocs; i++) {
		uint64_t a = vm->allocs[i].va, end = a + vm->allocs[i].size;
		while (a < end) {
			const uintptr_t *leaf = vm->dir[a >> XS_VM_LEAF_SHIFT];
			uint64_t leaf_end = XS_MIN(end, ((a >> XS_VM_LEAF_SHIFT) + 1) << XS_VM_LEAF_SHIFT);
			for (; leaf && a < leaf_end; a += XS_VM_PAGE_SIZE) {
				uintptr_t p = leaf[(a >> XS_VM_PAGE_SHIFT) & (XS_VM_LEAF_ENTRIES - 1)];
				if (p)
					fn(user, a, (const uint8_t *)(p & ~XS_VM_PAGE_MASK));
			}
			a = leaf_end;
		}
	}
}
