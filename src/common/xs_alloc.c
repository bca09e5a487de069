/*
 * The counted allocator (xs_alloc.h). The hot path is one relaxed atomic
 * add (the allocation's number) and two relaxed loads of the armed window
 * [fail_from, fail_to); no lock, so any thread may allocate. The window is
 * set by one test thread; a racing allocation sees either the old or the new
 * window, which only moves which allocation fails.
 */
#include "common/xs_alloc.h"

#include <limits.h>
#include <stdatomic.h>
#include <string.h>

static atomic_long alloc_count;
static atomic_long fail_from = LONG_MAX;
static atomic_long fail_to = LONG_MAX;
static atomic_long failed;

/* Called for each failure the hook injects: a place for a debugger's
 * breakpoint (gdb -ex 'break xs_alloc_injected' shows the failing site). */
__attribute__((noinline)) void xs_alloc_injected(long n);
__attribute__((noinline)) void xs_alloc_injected(long n)
{
	__asm__ volatile("" ::"r"(n));
}

static bool should_fail(void)
{
	long n = atomic_fetch_add_explicit(&alloc_count, 1, memory_order_relaxed);
	if (__builtin_expect(n < atomic_load_explicit(&fail_from, memory_order_relaxed), 1))
		return false;
	if (n >= atomic_load_explicit(&fail_to, memory_order_relaxed))
		return false;
	atomic_fetch_add_explicit(&failed, 1, memory_order_relaxed);
	xs_alloc_injected(n);
	return true;
}

void xs_alloc_fail_after(long n, bool sticky)
{
	if (n < 0) {
		atomic_store_explicit(&fail_from, LONG_MAX, memory_order_relaxed);
		atomic_store_explicit(&fail_to, LONG_MAX, memory_order_relaxed);
		return;
	}
	long at = atomic_load_explicit(&alloc_count, memory_order_relaxed) + n;
	/* the end first: until the start moves, the old window stands */
	atomic_store_explicit(&fail_to, sticky ? LONG_MAX : at + 1, memory_order_relaxed);
	atomic_store_explicit(&fail_from, at, memory_order_relaxed);
}

long xs_alloc_count(void) { return atomic_load_explicit(&alloc_count, memory_order_relaxed); }
long xs_alloc_failed(void) { return atomic_load_explicit(&failed, memory_order_relaxed); }

void *xs_malloc(size_t size) { return should_fail() ? NULL : malloc(size); }
void *xs_calloc(size_t n, size_t size) { return should_fail() ? NULL : calloc(n, size); }
/* A failed realloc leaves p allocated, as libc's does. */
void *xs_realloc(void *p, size_t size) { return should_fail() ? NULL : realloc(p, size); }
void *xs_aligned_alloc(size_t align, size_t size) { return should_fail() ? NULL : aligned_alloc(align, size); }
char *xs_strdup(const char *s) { return should_fail() ? NULL : strdup(s); }
char *xs_strndup(const char *s, size_t n) { return should_fail() ? NULL : strndup(s, n); }
