/* GPU virtual memory: sparse 48-bit space, page validity, lazy backing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(alloc_read_write_across_pages),
		cmocka_unit_test(lazy_backing),
		cmocka_unit_test(faults_outside_allocations),
		cmocka_unit_test(rejects_bad_requests),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
