/* GPU virtual memory: sparse 48-bit space, page validity, lazy backing,
 * faults with the faulting address, bounded allocation, first-touch zeros.
 * The rules are those of src/mem/xs_vm.h: byte-exact validity (a partial
 * last page is valid only to the byte asked for), a guard page after every
 * allocation, zeros for pages never written, copies that stop at the first
 * bad byte and name it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mem/xs_vm.h"

static void alloc_read_write_across_pages(void **state)
{
	(void)state;
	xs_vm *vm = xs_vm_create();
	uint64_t va;
	assert_int_equal(xs_vm_alloc(vm, 3 * XS_VM_PAGE_SIZE + 5, 0, &va, NULL), XS_OK);
	assert_true(va >= XS_VM_HEAP_BASE);
	assert_int_equal(va % XS_VM_PAGE_SIZE, 0);
	uint8_t buf[9000], back[9000];
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7 + 1);
	assert_true(xs_vm_write(vm, va + 100, buf, sizeof(buf), NULL));
	memset(back, 0, sizeof(back));
	assert_true(xs_vm_read(vm, va + 100, back, sizeof(back), NULL));
	assert_memory_equal(buf, back, sizeof(buf));
	/* The first 100 bytes were never written: zeros. */
	uint8_t z[100];
	assert_true(xs_vm_read(vm, va, z, sizeof(z), NULL));
	for (int i = 0; i < 100; i++)
		assert_int_equal(z[i], 0);
	xs_vm_destroy(vm);
}

static void lazy_backing(void **state)
{
	(void)state;
	xs_vm *vm = xs_vm_create();
	uint64_t va;
	/* 64 GiB of address space costs nothing until written. */
	assert_int_equal(xs_vm_alloc(vm, 64ull << 30, 0, &va, NULL), XS_OK);
	assert_int_equal(vm->backed_pages, 0);
	uint8_t b = 0;
	assert_true(xs_vm_read(vm, va + (40ull << 30), &b, 1, NULL));
	assert_int_equal(vm->backed_pages, 0);
	b = 0x5a;
	assert_true(xs_vm_write(vm, va + (40ull << 30), &b, 1, NULL));
	assert_int_equal(vm->backed_pages, 1);
	xs_vm_destroy(vm);
}

static void faults_outside_allocations(void **state)
{
	(void)state;
	xs_vm *vm = xs_vm_create();
	uint64_t a, b, bad = 0;
	assert_int_equal(xs_vm_alloc(vm, 4096, 0, &a, NULL), XS_OK);
	assert_int_equal(xs_vm_alloc(vm, 4096, 0, &b, NULL), XS_OK);
	uint32_t x = 1;
	/* Running off the end of one allocation hits the guard page. */
	assert_false(xs_vm_write(vm, a + 4094, &x, 4, &bad));
	assert_int_equal(bad, a + 4096);
	assert_null(xs_vm_ptr(vm, 0, false));
	assert_null(xs_vm_ptr(vm, 1ull << 48, false));
	assert_null(xs_vm_ptr(vm, a + 4096, true));
	assert_non_null(xs_vm_ptr(vm, b, true));
	/* Freed memory faults again. */
	assert_int_equal(xs_vm_free(vm, a, NULL), XS_OK);
	assert_null(xs_vm_ptr(vm, a, false));
	xs_err e;
	assert_int_equal(xs_vm_free(vm, a, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "not the start of a GPU allocation"));
	xs_vm_destroy(vm);
}

static void rejects_bad_requests(void **state)
{
	(void)state;
	xs_vm *vm = xs_vm_create();
	uint64_t va;
	xs_err e;
	assert_int_equal(xs_vm_alloc(vm, 0, 0, &va, &e), XS_E_INVALID_ARG);
	assert_int_equal(xs_vm_alloc(vm, 4096, 3 << 12, &va, &e), XS_E_INVALID_ARG);
	assert_int_equal(xs_vm_alloc(vm, 1ull << 47, 0, &va, &e), XS_OK);
	assert_int_equal(xs_vm_alloc(vm, 1ull << 47, 0, &va, &e), XS_E_OUT_OF_MEMORY);
	assert_non_null(strstr(e.msg, "48-bit"));
	xs_vm_destroy(vm);
}

static void partial_last_page_is_byte_exact(void **state)
{
	(void)state;
	xs_vm *vm = xs_vm_create();
	uint64_t va, bad = 0;
	/* 5000 bytes: one whole page and 904 bytes of the second. */
	assert_int_equal(xs_vm_alloc(vm, 5000, 0, &va, NULL), XS_OK);
	assert_int_equal(xs_vm_page_bytes(vm, va), XS_VM_PAGE_SIZE);
	assert_int_equal(xs_vm_page_bytes(vm, va + XS_VM_PAGE_SIZE), 5000 - XS_VM_PAGE_SIZE);
	assert_int_equal(xs_vm_page_bytes(vm, va + 2 * XS_VM_PAGE_SIZE), 0);
	uint8_t b = 0x77;
	assert_true(xs_vm_write(vm, va + 4999, &b, 1, NULL));
	/* after a write backs the page the entry still says 904 */
	assert_int_equal(xs_vm_page_bytes(vm, va + XS_VM_PAGE_SIZE), 5000 - XS_VM_PAGE_SIZE);
	assert_false(xs_vm_write(vm, va + 5000, &b, 1, &bad));
	assert_int_equal(bad, va + 5000);
	uint32_t w = 0;
	assert_false(xs_vm_read(vm, va + 4998, &w, 4, &bad)); /* two bytes in, two out */
	assert_int_equal(bad, va + 5000);
	assert_non_null(xs_vm_ptr_n(vm, va + 4996, 4, false));
	assert_null(xs_vm_ptr_n(vm, va + 4997, 4, false));
	assert_ptr_equal(xs_vm_find(vm, va + 4999), xs_vm_find(vm, va));
	assert_null(xs_vm_find(vm, va + 5000));
	assert_int_equal(xs_vm_first_bad(vm, va + 10), va + 5000);
	assert_int_equal(xs_vm_first_bad(vm, va + 5000), va + 5000);
	xs_vm_destroy(vm);
}

static void copies_straddle_pages(void **state)
{
	(void)state;
	xs_vm *vm = xs_vm_create();
	uint64_t va;
	assert_int_equal(xs_vm_alloc(vm, 3 * XS_VM_PAGE_SIZE, 0, &va, NULL), XS_OK);
	/* 8 bytes across the first page boundary back both pages, once each. */
	uint64_t v = 0x1122334455667788ull, back = 0;
	assert_true(xs_vm_write(vm, va + XS_VM_PAGE_SIZE - 4, &v, 8, NULL));
	assert_int_equal(vm->backed_pages, 2);
	assert_true(xs_vm_read(vm, va + XS_VM_PAGE_SIZE - 4, &back, 8, NULL));
	assert_int_equal(back, v);
	/* each half landed in its page */
	uint32_t lo = 0, hi = 0;
	assert_true(xs_vm_read(vm, va + XS_VM_PAGE_SIZE - 4, &lo, 4, NULL));
	assert_true(xs_vm_read(vm, va + XS_VM_PAGE_SIZE, &hi, 4, NULL));
	assert_int_equal(lo, 0x55667788u);
	assert_int_equal(hi, 0x11223344u);
	/* a fill over all three pages and a read of them */
	assert_true(xs_vm_fill(vm, va + 1, 0xab, 3 * XS_VM_PAGE_SIZE - 2, NULL));
	assert_int_equal(vm->backed_pages, 3);
	uint8_t *buf = malloc(3 * XS_VM_PAGE_SIZE);
	assert_non_null(buf);
	assert_true(xs_vm_read(vm, va, buf, 3 * XS_VM_PAGE_SIZE, NULL));
	assert_int_equal(buf[0], 0);
	assert_int_equal(buf[1], 0xab);
	assert_int_equal(buf[2 * XS_VM_PAGE_SIZE], 0xab);
	assert_int_equal(buf[3 * XS_VM_PAGE_SIZE - 2], 0xab);
	assert_int_equal(buf[3 * XS_VM_PAGE_SIZE - 1], 0);
	free(buf);
	xs_vm_destroy(vm);
}

static void faults_name_the_first_bad_byte(void **state)
{
	(void)state;
	xs_vm *vm = xs_vm_create();
	uint64_t va, bad = 0;
	assert_int_equal(xs_vm_alloc(vm, 2 * XS_VM_PAGE_SIZE, 0, &va, NULL), XS_OK);
	/* A read running 16 bytes off the end: false, the end's address, and
	 * nothing copied past it. */
	uint8_t dst[64];
	memset(dst, 0xcc, sizeof(dst));
	assert_false(xs_vm_read(vm, va + 2 * XS_VM_PAGE_SIZE - 48, dst, sizeof(dst), &bad));
	assert_int_equal(bad, va + 2 * XS_VM_PAGE_SIZE);
	for (int i = 48; i < 64; i++)
		assert_int_equal(dst[i], 0xcc);
	/* Nowhere near an allocation: the address itself. */
	assert_false(xs_vm_read(vm, 0x1000, dst, 4, &bad));
	assert_int_equal(bad, 0x1000);
	assert_false(xs_vm_write(vm, 1ull << XS_VM_VA_BITS, dst, 4, &bad));
	assert_int_equal(bad, 1ull << XS_VM_VA_BITS);
	assert_false(xs_vm_read(vm, UINT64_MAX - 1, dst, 4, &bad));
	assert_false(xs_vm_fill(vm, XS_VM_HEAP_BASE - 4, 0, 8, &bad));
	assert_int_equal(bad, XS_VM_HEAP_BASE - 4);
	/* Below 4 GiB nothing is ever allocated: a truncated pointer faults. */
	assert_true(va >= XS_VM_HEAP_BASE);
	assert_null(xs_vm_ptr(vm, (uint32_t)va, false));
	/* A fault inside a page never written reports the same as one written. */
	assert_false(xs_vm_write(vm, va + 2 * XS_VM_PAGE_SIZE + 100, dst, 1, &bad));
	assert_int_equal(bad, va + 2 * XS_VM_PAGE_SIZE + 100);
	char text[400];
	xs_vm_set_name(vm, va, "out", NULL);
	xs_vm_describe(vm, va + 2 * XS_VM_PAGE_SIZE + 100, text, sizeof(text));
	assert_non_null(strstr(text, "100 bytes past the end of 'out'"));
	xs_vm_destroy(vm);
}

static void unmap_edges(void **state)
{
	(void)state;
	xs_vm *vm = xs_vm_create();
	uint64_t a, b, c;
	assert_int_equal(xs_vm_alloc(vm, 8192, 0, &a, NULL), XS_OK);
	assert_int_equal(xs_vm_alloc(vm, 8192, 0, &b, NULL), XS_OK);
	assert_int_equal(xs_vm_alloc(vm, 8192, 0, &c, NULL), XS_OK);
	uint32_t x = 0xa, y = 0xc, got = 0;
	assert_true(xs_vm_write(vm, a + 8188, &x, 4, NULL));
	assert_true(xs_vm_write(vm, b, &x, 4, NULL));
	assert_true(xs_vm_write(vm, c, &y, 4, NULL));
	assert_int_equal(vm->backed_pages, 3);
	/* Freeing the middle one keeps its neighbours' bytes and validity. */
	assert_int_equal(xs_vm_free(vm, b, NULL), XS_OK);
	assert_int_equal(vm->backed_pages, 2);
	assert_true(xs_vm_read(vm, a + 8188, &got, 4, NULL));
	assert_int_equal(got, 0xa);
	assert_true(xs_vm_read(vm, c, &got, 4, NULL));
	assert_int_equal(got, 0xc);
	uint64_t bad = 0;
	assert_false(xs_vm_read(vm, b + 4096, &got, 4, &bad));
	assert_int_equal(bad, b + 4096);
	char text[400];
	xs_vm_describe(vm, b + 16, text, sizeof(text));
	assert_non_null(strstr(text, "which was freed"));
	/* Only an allocation's first byte frees it, once. */
	xs_err e = { 0 };
	assert_int_equal(xs_vm_free(vm, a + 4096, &e), XS_E_INVALID_ARG);
	assert_int_equal(xs_vm_free(vm, b, &e), XS_E_INVALID_ARG);
	assert_int_equal(xs_vm_free(vm, 0, &e), XS_E_INVALID_ARG);
	assert_int_equal(xs_vm_free(vm, UINT64_MAX, &e), XS_E_INVALID_ARG);
	/* A new allocation does not reuse the freed addresses (a stale
	 * pointer keeps faulting). */
	uint64_t d;
	assert_int_equal(xs_vm_alloc(vm, 8192, 0, &d, NULL), XS_OK);
	assert_true(d > c);
	assert_null(xs_vm_ptr(vm, b, false));
	/* The first and last allocation go too; then nothing is valid. */
	assert_int_equal(xs_vm_free(vm, a, NULL), XS_OK);
	assert_int_equal(xs_vm_free(vm, c, NULL), XS_OK);
	assert_int_equal(xs_vm_free(vm, d, NULL), XS_OK);
	assert_int_equal(vm->nallocs, 0);
	assert_int_equal(vm->backed_pages, 0);
	assert_null(xs_vm_ptr(vm, c, false));
	xs_vm_destroy(vm);
}

static void first_touch_reads_zero(void **state)
{
	(void)state;
	xs_vm *vm = xs_vm_create();
	uint64_t a, b;
	uint8_t page[XS_VM_PAGE_SIZE], zero[XS_VM_PAGE_SIZE];
	memset(zero, 0, sizeof(zero));
	/* Dirty host pages go back to the pool when freed; the next allocation
	 * that backs a page with one must still read zeros everywhere it did
	 * not write. */
	assert_int_equal(xs_vm_alloc(vm, 4 * XS_VM_PAGE_SIZE, 0, &a, NULL), XS_OK);
	assert_true(xs_vm_fill(vm, a, 0xff, 4 * XS_VM_PAGE_SIZE, NULL));
	assert_int_equal(xs_vm_free(vm, a, NULL), XS_OK);
	assert_int_equal(xs_vm_alloc(vm, 4 * XS_VM_PAGE_SIZE, 0, &b, NULL), XS_OK);
	for (int p = 0; p < 4; p++) {
		uint8_t one = 1;
		assert_true(xs_vm_write(vm, b + p * XS_VM_PAGE_SIZE + 7, &one, 1, NULL));
		assert_true(xs_vm_read(vm, b + p * XS_VM_PAGE_SIZE, page, sizeof(page), NULL));
		assert_int_equal(page[7], 1);
		page[7] = 0;
		assert_memory_equal(page, zero, sizeof(page));
	}
	/* A host-mapped allocation starts zeroed too. */
	uint64_t h;
	uint8_t *host = NULL;
	assert_int_equal(xs_vm_alloc_host(vm, 3 * XS_VM_PAGE_SIZE + 1, 0, &h, &host, NULL), XS_OK);
	assert_non_null(host);
	for (size_t i = 0; i < 3 * XS_VM_PAGE_SIZE + 1; i++)
		assert_int_equal(host[i], 0);
	host[5] = 9;
	uint8_t got = 0;
	assert_true(xs_vm_read(vm, h + 5, &got, 1, NULL));
	assert_int_equal(got, 9);
	assert_false(xs_vm_read(vm, h + 3 * XS_VM_PAGE_SIZE + 1, &got, 1, NULL));
	assert_int_equal(xs_vm_free(vm, h, NULL), XS_OK);
	xs_vm_destroy(vm);
}

static void huge_requests_fail_cleanly(void **state)
{
	(void)state;
	xs_vm *vm = xs_vm_create();
	uint64_t va = 0;
	xs_err e = { 0 };
	/* Sizes past the 48-bit space, ones that overflow page rounding, and
	 * alignments past it: XS_E_OUT_OF_MEMORY, nothing recorded, nothing
	 * backed. */
	static const uint64_t sizes[] = { (1ull << 48) + 1, UINT64_MAX, UINT64_MAX - XS_VM_PAGE_SIZE + 2,
					  1ull << 63 };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		e = (xs_err){ 0 };
		assert_int_equal(xs_vm_alloc(vm, sizes[i], 0, &va, &e), XS_E_OUT_OF_MEMORY);
		assert_non_null(strstr(e.msg, "48-bit"));
	}
	assert_int_equal(xs_vm_alloc(vm, 4096, 1ull << 63, &va, &e), XS_E_OUT_OF_MEMORY);
	assert_int_equal(xs_vm_alloc(vm, 4096, (1ull << 20) + 4096, &va, &e), XS_E_INVALID_ARG);
	assert_int_equal(vm->nallocs, 0);
	/* A large alignment is honoured. */
	assert_int_equal(xs_vm_alloc(vm, 4096, 1ull << 30, &va, &e), XS_OK);
	assert_int_equal(va % (1ull << 30), 0);
	/* Fixed addresses: outside the heap, unaligned, overflowing, overlapping. */
	assert_int_equal(xs_vm_alloc_at(vm, 0x1000, 4096, &e), XS_E_INVALID_ARG);
	assert_int_equal(xs_vm_alloc_at(vm, XS_VM_HEAP_BASE + 100, 4096, &e), XS_E_INVALID_ARG);
	assert_int_equal(xs_vm_alloc_at(vm, XS_VM_HEAP_BASE, UINT64_MAX, &e), XS_E_INVALID_ARG);
	assert_int_equal(xs_vm_alloc_at(vm, XS_VM_HEAP_BASE, UINT64_MAX - 100, &e), XS_E_INVALID_ARG);
	assert_int_equal(xs_vm_alloc_at(vm, (1ull << 48) - 4096, 8192, &e), XS_E_INVALID_ARG);
	assert_int_equal(xs_vm_alloc_at(vm, va, 4096, &e), XS_E_INVALID_ARG);
	assert_non_null(strstr(e.msg, "overlaps"));
	assert_int_equal(vm->nallocs, 1);
	/* The last page of the space is fine. */
	assert_int_equal(xs_vm_alloc_at(vm, (1ull << 48) - 4096, 4096, &e), XS_OK);
	uint8_t b = 3;
	assert_true(xs_vm_write(vm, (1ull << 48) - 1, &b, 1, NULL));
	/* ... and then the bump allocator has no room left. */
	assert_int_equal(xs_vm_alloc(vm, 4096, 0, &va, &e), XS_E_OUT_OF_MEMORY);
	assert_int_equal(vm->backed_pages, 1);
	xs_vm_destroy(vm);
}

/* With the device's memory as the limit, the allocations together span at
 * most that (whole pages): one past it fails whatever its address, and a
 * free gives its span back. */
static void limit_bounds_what_allocations_span(void **state)
{
	(void)state;
	xs_vm *vm = xs_vm_create();
	xs_vm_set_limit(vm, 16 * XS_VM_PAGE_SIZE);
	uint64_t a, b;
	xs_err e = { 0 };
	assert_int_equal(xs_vm_alloc(vm, 10 * XS_VM_PAGE_SIZE, 0, &a, &e), XS_OK);
	assert_int_equal(xs_vm_alloc(vm, 6 * XS_VM_PAGE_SIZE + 1, 0, &b, &e), XS_E_OUT_OF_MEMORY); /* 7 pages */
	assert_non_null(strstr(e.msg, "over the device's 65536"));
	assert_int_equal(xs_vm_alloc_at(vm, XS_VM_HEAP_BASE + (1ull << 40), 7 * XS_VM_PAGE_SIZE, &e),
			 XS_E_OUT_OF_MEMORY);
	assert_int_equal(xs_vm_alloc(vm, 6 * XS_VM_PAGE_SIZE, 0, &b, &e), XS_OK); /* exactly full */
	assert_int_equal(xs_vm_alloc(vm, 1, 0, &b, &e), XS_E_OUT_OF_MEMORY);
	assert_int_equal(xs_vm_free(vm, a, &e), XS_OK);
	assert_int_equal(xs_vm_alloc_at(vm, XS_VM_HEAP_BASE + (1ull << 40), 10 * XS_VM_PAGE_SIZE, &e), XS_OK);
	assert_int_equal(vm->nallocs, 2);
	xs_vm_destroy(vm);
}

/* Pages first written in any order are consecutive on the host within
 * each 64 KiB block inside an allocation (xs_vm.h: what a gather over a
 * wave's scratch slot relies on), the page table still backs only what was
 * written, and a freed allocation's runs come back zeroed to the next one
 * without new host memory. */
static void blocks_back_consecutive_pages(void **state)
{
	(void)state;
	xs_vm *vm = xs_vm_create();
	const unsigned npages = 4 * XS_VM_BLOCK_PAGES + 1; /* four whole blocks and a page of a fifth */
	size_t slabs = 0, slab_used = 0;
	for (int round = 0; round < 3; round++) {
		uint64_t va;
		assert_int_equal(xs_vm_alloc(vm, (uint64_t)npages * XS_VM_PAGE_SIZE, XS_VM_BLOCK_SIZE, &va, NULL), XS_OK);
		/* every third page, in a scrambled order */
		unsigned written = 0;
		for (unsigned k = 0; k < npages; k++) {
			unsigned pg = (k * 37) % npages;
			if (pg % 3)
				continue;
			uint8_t b = 0xa5;
			assert_true(xs_vm_write(vm, va + (uint64_t)pg * XS_VM_PAGE_SIZE, &b, 1, NULL));
			written++;
		}
		assert_int_equal(vm->backed_pages, written);
		for (unsigned pg = 0; pg < npages; pg++) {
			uint8_t *h = xs_vm_ptr(vm, va + (uint64_t)pg * XS_VM_PAGE_SIZE, false);
			assert_non_null(h);
			if (pg % 3) {
				assert_ptr_equal(h, xs_vm_zero_page); /* unwritten: not backed */
				continue;
			}
			/* the rest of a page from a run that was reused is zero */
			for (unsigned i = 1; i < XS_VM_PAGE_SIZE; i++)
				assert_int_equal(h[i], 0);
			unsigned first = pg - pg % XS_VM_BLOCK_PAGES;
			while (first % 3)
				first++; /* the block's first written page */
			uint8_t *h0 = xs_vm_ptr(vm, va + (uint64_t)first * XS_VM_PAGE_SIZE, false);
			if (pg < 4 * XS_VM_BLOCK_PAGES)
				assert_ptr_equal(h, h0 + (size_t)(pg - first) * XS_VM_PAGE_SIZE);
		}
		/* the pages written later take their places in the runs too */
		for (unsigned pg = 0; pg < 4 * XS_VM_BLOCK_PAGES; pg++) {
			uint8_t b = 0xff;
			assert_true(xs_vm_write(vm, va + (uint64_t)pg * XS_VM_PAGE_SIZE + XS_VM_PAGE_SIZE - 1, &b, 1, NULL));
			uint8_t *h = xs_vm_ptr(vm, va + (uint64_t)pg * XS_VM_PAGE_SIZE, false);
			uint8_t *h0 = xs_vm_ptr(vm, va + (uint64_t)(pg - pg % XS_VM_BLOCK_PAGES) * XS_VM_PAGE_SIZE, false);
			assert_ptr_equal(h, h0 + (size_t)(pg % XS_VM_BLOCK_PAGES) * XS_VM_PAGE_SIZE);
			memset(h, 0xee, XS_VM_PAGE_SIZE); /* dirty, for the next round's zero check */
		}
		assert_int_equal(xs_vm_free(vm, va, NULL), XS_OK);
		assert_int_equal(vm->backed_pages, 0);
		/* freed runs are reused: no page taken from the slabs after round 0 */
		if (round == 0)
			slabs = vm->nslabs, slab_used = vm->slab_used;
		assert_int_equal(vm->nslabs, slabs);
		assert_int_equal(vm->slab_used, slab_used);
	}
	xs_vm_destroy(vm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(alloc_read_write_across_pages),
		cmocka_unit_test(lazy_backing),
		cmocka_unit_test(faults_outside_allocations),
		cmocka_unit_test(rejects_bad_requests),
		cmocka_unit_test(partial_last_page_is_byte_exact),
		cmocka_unit_test(copies_straddle_pages),
		cmocka_unit_test(faults_name_the_first_bad_byte),
		cmocka_unit_test(unmap_edges),
		cmocka_unit_test(first_touch_reads_zero),
		cmocka_unit_test(huge_requests_fail_cleanly),
		cmocka_unit_test(blocks_back_consecutive_pages),
		cmocka_unit_test(limit_bounds_what_allocations_span),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
