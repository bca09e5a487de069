/*
 * Predecode cache: per 4 KiB code page an array of 1024 xs_inst slots, one
 * per dword offset, each decoded lazily on its first execution. Pages are
 * found through an open-addressing hash table keyed by page VA; the
 * interpreter keeps a pointer to the current page's slots while the PC stays
 * inside it, so the table is only consulted when control leaves a page.
 *
 * A cache belongs to one host thread at a time (slots are filled without
 * locks); the SPI gives each worker its own, or serialises access.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/xs_isa_priv.h"

#define SLOTS_PER_PAGE (XS_VM_PAGE_SIZE / 4)
#define MAX_INST_DWORDS 5 /* MIMG with 3 NSA dwords */

typedef struct xs_icache_page {
	uint64_t va;                     /* page-aligned */
	xs_inst slot[SLOTS_PER_PAGE];    /* size 0 = not decoded yet */
} xs_icache_page;

struct xs_icache {
	xs_icache_page **tab;            /* open addressing, capacity a power of two */
	size_t cap, used;
	/* the last two pages looked up (~0: none), the latest first: a kernel
	 * across a page boundary (scratch_chase's 3 KiB from 0x1800) or a loop
	 * calling a function on another page goes between two, and the timing
	 * model's peek at every issue would probe the table each time */
	uint64_t last_va[2];
	xs_inst *last_slots[2];
};

xs_icache *xs_icache_create(void)
{
	xs_icache *ic = xs_calloc(1, sizeof(*ic));
	if (!ic)
		return NULL;
	ic->cap = 64;
	ic->last_va[0] = ic->last_va[1] = ~0ull;
	ic->tab = xs_calloc(ic->cap, sizeof(*ic->tab));
	if (!ic->tab) {
		free(ic);
		return NULL;
	}
	return ic;
}

void xs_icache_flush(xs_icache *ic)
{
	if (!ic)
		return;
	for (size_t i = 0; i < ic->cap; i++) {
		free(ic->tab[i]);
		ic->tab[i] = NULL;
	}
	ic->used = 0;
	ic->last_va[0] = ic->last_va[1] = ~0ull;
	ic->last_slots[0] = ic->last_slots[1] = NULL;
}

void xs_icache_destroy(xs_icache *ic)
{
	if (!ic)
		return;
	xs_icache_flush(ic);
	free(ic->tab);
	free(ic);
}

static inline size_t hash_page(uint64_t va)
{
	uint64_t h = (va >> XS_VM_PAGE_SHIFT) * 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 20);
}

static bool grow(xs_icache *ic)
{
	size_t ncap = ic->cap * 2;
	xs_icache_page **nt = xs_calloc(ncap, sizeof(*nt));
	if (!nt)
		return false;
	for (size_t i = 0; i < ic->cap; i++) {
		xs_icache_page *p = ic->tab[i];
		if (!p)
			continue;
		size_t j = hash_page(p->va) & (ncap - 1);
		while (nt[j])
			j = (j + 1) & (ncap - 1);
		nt[j] = p;
	}
	free(ic->tab);
	ic->tab = nt;
	ic->cap = ncap;
	return true;
}

static xs_inst *page_slots_lookup(xs_icache *ic, uint64_t page_va);

xs_inst *xs_icache_page_slots(xs_icache *ic, uint64_t page_va)
{
	if (XS_LIKELY(page_va == ic->last_va[0]))
		return ic->last_slots[0];
	xs_inst *r = page_va == ic->last_va[1] ? ic->last_slots[1] : page_slots_lookup(ic, page_va);
	if (r) {
		ic->last_va[1] = ic->last_va[0];
		ic->last_slots[1] = ic->last_slots[0];
		ic->last_va[0] = page_va;
		ic->last_slots[0] = r;
	}
	return r;
}

static xs_inst *page_slots_lookup(xs_icache *ic, uint64_t page_va)
{
	size_t mask = ic->cap - 1;
	size_t i = hash_page(page_va) & mask;
	for (;;) {
		xs_icache_page *p = ic->tab[i];
		if (!p)
			break;
		if (p->va == page_va)
			return p->slot;
		i = (i + 1) & mask;
	}
	if ((ic->used + 1) * 2 > ic->cap) {
		if (!grow(ic))
			return NULL;
		return page_slots_lookup(ic, page_va);
	}
	xs_icache_page *p = xs_calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->va = page_va;
	ic->tab[i] = p;
	ic->used++;
	return p->slot;
}

bool xs_icache_fill(xs_vm *vm, uint64_t pc, xs_inst *slot, xs_fault *f)
{
	uint32_t words[MAX_INST_DWORDS];
	size_t n = 0;
	/* Fetch dword by dword: an instruction may straddle the page end. */
	for (; n < MAX_INST_DWORDS; n++) {
		const uint8_t *p = xs_vm_ptr_n(vm, pc + 4 * n, 4, false);
		if (!p)
			break;
		memcpy(&words[n], p, 4);
	}
	if (n == 0) {
		f->kind = XS_FAULT_VM;
		f->pc = pc;
		f->addr = pc;
		snprintf(f->what, sizeof(f->what), "instruction fetch from unmapped memory");
		return false;
	}
	xs_inst tmp;
	if (!xs_isa_decode(words, n, &tmp)) {
		f->pc = pc;
		if (n < MAX_INST_DWORDS) {
			/* Would more words have helped? Retry with zero padding. */
			uint32_t padded[MAX_INST_DWORDS] = { 0 };
			memcpy(padded, words, n * 4);
			if (xs_isa_decode(padded, MAX_INST_DWORDS, &tmp)) {
				f->kind = XS_FAULT_VM;
				f->addr = pc + 4 * n;
				snprintf(f->what, sizeof(f->what), "instruction fetch from unmapped memory");
				return false;
			}
		}
		f->kind = XS_FAULT_ILLEGAL;
		f->addr = pc;
		snprintf(f->what, sizeof(f->what), "illegal instruction 0x%08x", words[0]);
		return false;
	}
	*slot = tmp;
	return true;
}
