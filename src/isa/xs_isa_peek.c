/* The instruction a wave will execute next, for the timing model: it
 * decides when a wave may issue (pipe, dependencies, s_waitcnt) before the
 * interpreter executes it. Same predecode cache as the interpreter. */
#include "isa/xs_isa_priv.h"

const xs_inst *xs_isa_peek(xs_isa_ctx *ctx, uint64_t pc)
{
	if (pc & 3)
		return NULL;
	xs_inst *slots = xs_icache_page_slots(ctx->icache, pc & ~(uint64_t)(XS_VM_PAGE_SIZE - 1));
	if (!slots)
		return NULL;
	xs_inst *in = &slots[(pc >> 2) & (XS_VM_PAGE_SIZE / 4 - 1)];
	if (in->size == 0) {
		xs_fault f = { 0 };
		if (!xs_icache_fill(ctx->vm, pc, in, &f))
			return NULL; /* the interpreter reports the fault when it runs */
	}
	return in;
}

const xs_inst *xs_isa_code_page(xs_isa_ctx *ctx, uint64_t page_va)
{
	return xs_icache_page_slots(ctx->icache, page_va);
}
