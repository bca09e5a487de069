/*
 * Host allocation for every layer of the library: malloc, calloc, realloc,
 * strdup and friends go through here so that tests can make any one of them
 * fail (fault injection, docs/reliability.md "Fault injection"). Memory comes
 * from libc and is released with free() (xs_free is the same).
 *
 * Not covered: allocations made inside libelf and msgpack-c, and the mmap()s
 * of the VM's slabs and the GPU's register arenas.
 */
#ifndef XS_ALLOC_H
#define XS_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

void *xs_malloc(size_t size);
void *xs_calloc(size_t n, size_t size);
void *xs_realloc(void *p, size_t size);
void *xs_aligned_alloc(size_t align, size_t size);
char *xs_strdup(const char *s);
char *xs_strndup(const char *s, size_t n);
static inline void xs_free(void *p) { free(p); }

/*
 * The test hook (hidden: reachable only from tests that link the static
 * library). Allocations are numbered from 0 in the order they are made, by
 * any thread. xs_alloc_fail_after(n, false) makes the allocation n places
 * from now fail (n = 0: the next one) and only that one, as Vulkan CTS's
 * "intentional allocation failure" tests do: the callers' error paths run
 * while the rest of the host still has memory, which finds the paths that
 * swallow a failure and go on with a half-made object. sticky = true makes
 * that one and every later one fail (a host that stays out of memory: finds
 * the cleanup paths that allocate). A negative n disarms the hook.
 */
void xs_alloc_fail_after(long n, bool sticky);
/* Allocations made (attempted) since the process started. */
long xs_alloc_count(void);
/* Allocations the hook has failed since the process started. */
long xs_alloc_failed(void);

#endif
