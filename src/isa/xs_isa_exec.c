/*
 * The interpreter's dispatch loop.
 *
 * Per instruction: find the slot of the PC in the current code page (the
 * page's slot array is kept while the PC stays inside it), decode it on
 * first use, check its VGPR range against the wave's allocation, advance the
 * PC and call the op's handler through xs_exec_table (filled once from the
 * per-unit registration functions; ops without a body get a handler that
 * faults XS_FAULT_UNIMPLEMENTED naming the mnemonic). xs_isa_run_lockstep
 * is the same loop over several waves at one PC: one look-up an
 * instruction for all of them.
 */
#include <pthread.h>
#include <stdio.h>

#include "isa/xs_isa_priv.h"

xs_exec_fn xs_exec_table[XS_OP_COUNT];
xs_exec_group_fn xs_exec_group_table[XS_OP_COUNT];
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

/* The first n waves go on at pc. One store each: left to itself the
 * compiler makes the loop an AVX-512 scatter, which Zen 4 runs slowly
 * enough to be a quarter of the lockstep loop's time in a streaming kernel
 * (the empty asm hides the pointer from the vectoriser). */
static inline void set_pcs(xs_wave *const *ws, unsigned n, uint64_t pc)
{
	for (unsigned j = 0; j < n; j++) {
		xs_wave *w = ws[j];
		__asm__("" : "+r"(w));
		w->pc = pc;
	}
}

/* As xs_isa_run over waves that are at one PC, a step being one
 * instruction of each in turn (the functional run-ahead of a group: its
 * waves run the same code; xs_gpu_group_ahead). The instruction is looked
 * up once a step, and its group handler (xs_exec_group_table) called once
 * for all the waves, or its handler for each wave back to back.
 * w->insts is not touched (during an xs_isa_run call it stays at the
 * call's start, which s_memtime and SHADER_CYCLES read): run[j] counts
 * wave j's instructions. */
unsigned xs_isa_run_lockstep(xs_isa_ctx *ctx, xs_wave *const *ws, unsigned n, uint64_t max_steps, uint64_t *run)
{
	table_init();
	for (unsigned j = 0; j < n; j++) {
		ws[j]->s[XS_SREG_NULL] = 0;
		if (ws[j]->status == XS_WAVE_BARRIER)
			ws[j]->status = XS_WAVE_READY;
	}
	xs_exec x = { ctx, ctx->vm, 0 };
	xs_icache *ic = ctx->icache;
	const uint32_t nvgpr = ws[0]->nvgpr;
	uint64_t page_va = ~0ull;
	xs_inst *slots = NULL;
	/* the steps every wave ran, added to run[] at the end (a count in
	 * memory per wave and step was a tenth of the loop's time); a step that
	 * faults counts for the waves up to the faulting one only */
	uint64_t steps = 0;
	unsigned ret = n;
	/* The waves' PC. A group step moves it here only (stale: the waves'
	 * own lag it); the waves' w->pc are written where they are read: by a
	 * step of per-wave handlers (each wave's before its handler) and where
	 * the run stops (set_pcs for every wave at every group step was 4 % of
	 * an -O0 kernel's host instructions). */
	uint64_t pc = ws[0]->pc;
	bool stale = false;

	while (steps < max_steps) {
		if (XS_UNLIKELY((pc & ~(uint64_t)(XS_VM_PAGE_SIZE - 1)) != page_va)) {
			if (pc & 3) {
				fault_here(ctx, ws[0], pc, XS_FAULT_ILLEGAL, "misaligned PC");
				ret = 0;
				break;
			}
			page_va = pc & ~(uint64_t)(XS_VM_PAGE_SIZE - 1);
			slots = xs_icache_page_slots(ic, page_va);
			if (!slots) {
				fault_here(ctx, ws[0], pc, XS_FAULT_HOST_MEMORY, "out of host memory for decoded code");
				ret = 0;
				break;
			}
		}
		xs_inst *in = &slots[(pc >> 2) & (XS_VM_PAGE_SIZE / 4 - 1)];
		if (XS_UNLIKELY(in->size == 0) && !xs_icache_fill(ctx->vm, pc, in, &ctx->fault)) {
			ws[0]->status = XS_WAVE_FAULT;
			ret = 0;
			break;
		}
		if (XS_UNLIKELY(in->vgpr_end > nvgpr)) {
			vgpr_range_fault(&x, ws[0], in, pc);
			ret = 0;
			break;
		}
		const xs_exec_fn fn = xs_exec_table[in->op];
		const uint64_t next = pc + in->size;
		/* a group handler's ops neither branch nor stop a wave but by a
		 * fault, nor read its PC */
		const xs_exec_group_fn gfn = xs_exec_group_table[in->op];
		if (gfn) {
			x.pc = pc;
			int g = gfn(&x, ws, n, in);
			if (g >= 0) {
				if ((unsigned)g < n) {
					/* wave g faulted (counted, as xs_isa_run counts
					 * it; xs_exec_fault put its PC on the instruction),
					 * the waves before it ran the step, the ones after
					 * it did not */
					set_pcs(ws, (unsigned)g, next);
					if (stale)
						set_pcs(ws + g + 1, n - (unsigned)g - 1, pc);
					stale = false;
					for (unsigned j = 0; j <= (unsigned)g; j++)
						run[j]++;
					ret = (unsigned)g;
					break;
				}
				pc = next;
				stale = true;
				steps++;
				continue;
			}
		}
		bool stop = false;
		x.pc = pc; /* (no handler changes it) */
		for (unsigned j = 0; j < n; j++) {
			xs_wave *w = ws[j];
			w->pc = next;
			int r = fn(&x, w, in);
			if (XS_UNLIKELY(r)) {
				if (r == XS_WAVE_FAULT) { /* the waves after it have not run this step */
					if (stale)
						set_pcs(ws + j + 1, n - j - 1, pc);
					stale = false;
					for (unsigned k = 0; k <= j; k++)
						run[k]++;
					ret = j;
					goto out;
				}
				if (r == XS_WAVE_EXP_WAIT)
					run[j]--;  /* the exp runs (and counts) when resumed */
				if (r == XS_WAVE_BARRIER || r == XS_WAVE_ENDED || r == XS_WAVE_EXP_WAIT)
					w->status = (xs_wave_status)r;
				stop = true;
			}
		}
		stale = false; /* (each wave's w->pc written above) */
		steps++;
		if (stop)
			break;
		uint64_t pc0 = ws[0]->pc;
		bool parted = false;
		for (unsigned j = 1; j < n; j++)
			parted |= ws[j]->pc != pc0;
		if (parted)
			break; /* a branch parted them */
		pc = pc0;
	}
	if (stale) /* the budget ran out, or the step's look-up faulted (ws[0]'s
		    * report), after group steps: every wave is at pc */
		set_pcs(ws, n, pc);
out:
	for (unsigned j = 0; j < n; j++)
		run[j] += steps;
	return ret;
}
