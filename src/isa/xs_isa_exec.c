/*
 * The interpreter's dispatch loop.
 *
 * Per instruction: find the slot of the PC in the current code page (the
 * page's slot array is kept while the PC stays inside it), decode it on
 * first use, check its VGPR range against the wave's allocation, advance the
 * PC and call the op's handler through xs_exec_table (filled once from the
 * per-unit registration functions; ops without a body get a handler that
 * faults XS_FAULT_UNIMPLEMENTED naming the mnemonic).
 */
#include <pthread.h>
#include <stdio.h>

#include "isa/xs_isa_priv.h"

xs_exec_fn xs_exec_table[XS_OP_COUNT];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static int x_unimplemented(xs_exec *x, xs_wave *w, const xs_inst *in)
{
	return xs_exec_unimpl(x, w, in, NULL);
}

static void build_table(void)
{
	for (unsigned i = 0; i < XS_OP_COUNT; i++)
		xs_exec_table[i] = x_unimplemented;
	xs_exec_register_salu();
	xs_exec_register_smem();
	xs_exec_register_valu();
	xs_exec_register_valu_f();
	xs_exec_register_vcmp();
	xs_exec_register_lds();
	xs_exec_register_vmem();
	xs_exec_register_bvh();
	xs_exec_register_gfx();
}

int xs_exec_fault(xs_exec *x, xs_wave *w, const xs_inst *in, xs_fault_kind kind, uint64_t addr,
		  const char *detail)
{
	xs_fault *f = &x->ctx->fault;
	f->kind = kind;
	f->pc = x->pc;
	f->addr = addr;
	const char *name = in ? xs_isa_op_name(in->op) : "?";
	if (detail)
		snprintf(f->what, sizeof(f->what), "%s: %s", name, detail);
	else
		snprintf(f->what, sizeof(f->what), "%s", name);
	w->pc = x->pc;
	w->status = XS_WAVE_FAULT;
	return XS_WAVE_FAULT;
}

static xs_wave_status fault_here(xs_isa_ctx *ctx, xs_wave *w, uint64_t pc, xs_fault_kind kind,
				 const char *what)
{
	ctx->fault.kind = kind;
	ctx->fault.pc = pc;
	ctx->fault.addr = pc;
	snprintf(ctx->fault.what, sizeof(ctx->fault.what), "%s", what);
	w->pc = pc;
	w->status = XS_WAVE_FAULT;
	return XS_WAVE_FAULT;
}

bool xs_isa_op_implemented(unsigned op)
{
	pthread_once(&table_once, build_table);
	return op > XS_OP_INVALID && op < XS_OP_COUNT && xs_exec_table[op] != x_unimplemented;
}

static int table_ready;   /* set (release) once table_once has run */

static inline void table_init(void)
{
	if (XS_UNLIKELY(!__atomic_load_n(&table_ready, __ATOMIC_ACQUIRE))) {
		pthread_once(&table_once, build_table);
		__atomic_store_n(&table_ready, 1, __ATOMIC_RELEASE);
	}
}

static xs_wave_status vgpr_range_fault(xs_exec *x, xs_wave *w, const xs_inst *in, uint64_t pc)
{
	char d[96];
	snprintf(d, sizeof(d), "uses VGPRs up to v%u, the wave has %u", in->vgpr_end - 1u, w->nvgpr);
	x->pc = pc;
	return (xs_wave_status)xs_exec_fault(x, w, in, XS_FAULT_ILLEGAL, pc, d);
}

xs_wave_status xs_isa_step(xs_isa_ctx *ctx, xs_wave *w, const xs_inst *in)
{
	table_init();
	w->s[XS_SREG_NULL] = 0;
	if (w->status == XS_WAVE_BARRIER)
		w->status = XS_WAVE_READY;
	if (w->status != XS_WAVE_READY)
		return w->status;
	xs_exec x = { ctx, ctx->vm, w->pc };
	if (XS_UNLIKELY(in->vgpr_end > w->nvgpr))
		return vgpr_range_fault(&x, w, in, w->pc);
	w->pc += in->size;
	w->insts++;
	int r = xs_exec_table[in->op](&x, w, in);
	if (r == XS_WAVE_EXP_WAIT)
		w->insts--;              /* the exp runs (and counts) when resumed */
	if (r == XS_WAVE_BARRIER || r == XS_WAVE_ENDED || r == XS_WAVE_EXP_WAIT)
		w->status = (xs_wave_status)r;
	return w->status;
}

xs_wave_status xs_isa_run(xs_isa_ctx *ctx, xs_wave *w, uint64_t max_insts)
{
	table_init();
	w->s[XS_SREG_NULL] = 0;
	if (w->status == XS_WAVE_BARRIER)
		w->status = XS_WAVE_READY;   /* the caller released the barrier */
	if (w->status != XS_WAVE_READY)
		return w->status;

	xs_exec x = { ctx, ctx->vm, 0 };
	xs_icache *ic = ctx->icache;
	const uint32_t nvgpr = w->nvgpr;
	uint64_t page_va = ~0ull;
	xs_inst *slots = NULL;
	uint64_t n = 0;
	int r = 0;

	while (XS_LIKELY(n < max_insts)) {
		uint64_t pc = w->pc;
		if (XS_UNLIKELY((pc & ~(uint64_t)(XS_VM_PAGE_SIZE - 1)) != page_va)) {
			if (pc & 3) {
				r = fault_here(ctx, w, pc, XS_FAULT_ILLEGAL, "misaligned PC");
				break;
			}
			page_va = pc & ~(uint64_t)(XS_VM_PAGE_SIZE - 1);
			slots = xs_icache_page_slots(ic, page_va);
			if (!slots) {
				page_va = ~0ull;
				r = fault_here(ctx, w, pc, XS_FAULT_HOST_MEMORY, "out of host memory for decoded code");
				break;
			}
		}
		xs_inst *in = &slots[(pc >> 2) & (XS_VM_PAGE_SIZE / 4 - 1)];
		if (XS_UNLIKELY(in->size == 0)) {
			if (!xs_icache_fill(ctx->vm, pc, in, &ctx->fault)) {
				w->status = XS_WAVE_FAULT;
				r = XS_WAVE_FAULT;
				break;
			}
		}
		if (XS_UNLIKELY(in->vgpr_end > nvgpr)) {
			r = vgpr_range_fault(&x, w, in, pc);
			break;
		}
		x.pc = pc;
		w->pc = pc + in->size;
		n++;
		r = xs_exec_table[in->op](&x, w, in);
		if (XS_UNLIKELY(r))
			break;
	}
	if (r == XS_WAVE_EXP_WAIT)
		n--;                     /* the exp runs (and counts) when resumed */
	w->insts += n;
	if (r == XS_WAVE_BARRIER || r == XS_WAVE_ENDED || r == XS_WAVE_EXP_WAIT)
		w->status = (xs_wave_status)r;
	return w->status;
}
