/*
 * Command processor: one per hardware queue (0 = graphics ring, 1..3 =
 * async compute). It fetches submitted command buffers from GPU memory,
 * decodes PM4 (src/pm4, strict), sets the queue's registers and acts on
 * dispatches, flushes, fences and waits in simulated time:
 *
 *   SET_SH_REG[_INDEX] / SET_CONTEXT_REG / SET_UCONFIG_REG  queue registers
 *   DISPATCH_DIRECT / DISPATCH_INDIRECT                      SPI (begin; non-blocking)
 *   EVENT_WRITE CS/VS/PS_PARTIAL_FLUSH                       wait for the queue's dispatches
 *   RELEASE_MEM (end of pipe)                                write when the earlier dispatches are done
 *   WAIT_REG_MEM (memory)                                    wait until the condition holds
 *   WRITE_DATA (memory), ACQUIRE_MEM (GLI_INV flushes decoded code)
 *   INDIRECT_BUFFER                                          call (or chain) a command buffer
 *   NOP, SET_BASE
 * Anything else is XS_E_UNSUPPORTED naming the packet and dword.
 */
#include "gpu/xs_gpu_priv.h"
#include "hw/xs_hw_pm4.h"
#include "pm4/xs_pm4_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XS_CP_MAX_IB_DWORDS (XS_IB_SIZE_MAX + 1u) /* INDIRECT_BUFFER's IB_SIZE field */

static xs_gpu_cp_ib *cp_top(xs_gpu_cp *cp)
{
	return cp->depth ? &cp->ib[cp->depth - 1] : NULL;
}

static void cp_pop(xs_gpu_cp *cp)
{
	xs_gpu_cp_ib *ib = cp_top(cp);
	free(ib->dw);
	ib->dw = NULL;
	cp->depth--;
}

/* Fetches an IB from GPU memory into the CP (the GPU reads only memory). */
static xs_status cp_push(xs_gpu *g, xs_gpu_cp *cp, unsigned q, uint64_t va, uint32_t ndw, xs_err *e)
{
	if (cp->depth == XS_GPU_CP_MAX_DEPTH)
		return xs_err_set(e, XS_E_UNSUPPORTED, "queue %u: INDIRECT_BUFFER nested deeper than %d", q,
				  XS_GPU_CP_MAX_DEPTH);
	if (ndw == 0 || ndw > XS_CP_MAX_IB_DWORDS)
		return xs_err_set(e, XS_E_INVALID_ARG, "queue %u: command buffer of %u dwords (1..%u)", q, ndw,
				  XS_CP_MAX_IB_DWORDS);
	uint32_t *dw = malloc((size_t)ndw * 4);
	uint64_t bad;
	if (!dw)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory for a %u-dword command buffer", ndw);
	if (!xs_vm_read(g->vm, va, dw, (size_t)ndw * 4, &bad)) {
		free(dw);
		return xs_err_set(e, XS_E_DEVICE_REMOVED,
				  "device removed: queue %u: command buffer 0x%llx (%u dwords) is not in GPU memory "
				  "(0x%llx unmapped)", q, (unsigned long long)va, ndw, (unsigned long long)bad);
	}
	xs_gpu_cp_ib *ib = &cp->ib[cp->depth++];
	ib->dw = dw;
	ib->n = ndw;
	ib->va = va;
	xs_pm4_iter_init(&ib->it, dw, ndw);
	return XS_OK;
}

/* No dispatch of queue q begun before `before_id` is still running. */
static bool queue_done_before(const xs_gpu *g, unsigned q, uint32_t before_id)
{
	for (int i = 0; i < XS_GPU_MAX_ACTIVE; i++) {
		const xs_gpu_disp *d = &g->disp[i];
		if (d->active && d->queue == q && d->id < before_id)
			return false;
	}
	return true;
}

static bool mem_condition(xs_gpu *g, const xs_gpu_cp *cp, bool *ok)
{
	uint32_t v = 0;
	if (!xs_vm_read(g->vm, cp->wait_va, &v, 4, NULL)) {
		*ok = false;
		return false;
	}
	*ok = true;
	v &= cp->wait_mask;
	uint32_t ref = cp->wait_ref;
	switch (cp->wait_func) {
	case WAIT_REG_MEM_ALWAYS: return true;
	case WAIT_REG_MEM_LESS: return v < ref;
	case WAIT_REG_MEM_LESS_OR_EQUAL: return v <= ref;
	case WAIT_REG_MEM_EQUAL: return v == ref;
	case WAIT_REG_MEM_NOT_EQUAL: return v != ref;
	case WAIT_REG_MEM_GREATER_OR_EQUAL: return v >= ref;
	case WAIT_REG_MEM_GREATER: return v > ref;
	default: return false;
	}
}

static bool write_mem(xs_gpu *g, uint64_t va, uint64_t data, unsigned bytes)
{
	return xs_vm_write(g->vm, va, &data, bytes, NULL);
}

/* Releases whose dispatches are done write their data. */
static bool cp_releases(xs_gpu *g, xs_gpu_cp *cp, unsigned q, xs_err *e, xs_status *st)
{
	bool any = false;
	uint32_t k = 0;
	for (uint32_t i = 0; i < cp->nrel; i++) {
		xs_gpu_cp_release *r = &cp->rel[i];
		if (!queue_done_before(g, q, r->before_id)) {
			cp->rel[k++] = *r;
			continue;
		}
		uint64_t data = r->data_sel == EOP_DATA_SEL_TIMESTAMP ? g->now : r->data;
		unsigned bytes = r->data_sel == EOP_DATA_SEL_VALUE_32BIT ? 4 : 8;
		if (r->data_sel != EOP_DATA_SEL_DISCARD && !write_mem(g, r->va, data, bytes)) {
			*st = xs_err_set(e, XS_E_DEVICE_REMOVED,
					 "device removed: queue %u: RELEASE_MEM at dword %zu writes 0x%llx, which is "
					 "not in GPU memory", q, r->dword, (unsigned long long)r->va);
			return true;
		}
		any = true;
	}
	cp->nrel = k;
	return any;
}

static xs_status unsupported(unsigned q, const xs_gpu_cp_ib *ib, const xs_pm4_packet *p, xs_err *e)
{
	return xs_err_set(e, XS_E_UNSUPPORTED, "queue %u: IB 0x%llx dword %zu: %s is not modelled by the "
			  "command processor", q, (unsigned long long)ib->va, p->index, p->info->name);
}

/* Runs queue q's packets until it blocks, ends, or fails. *progress is set
 * when anything happened. */
static xs_status cp_run(xs_gpu *g, unsigned q, bool *progress, xs_err *e)
{
	xs_gpu_cp *cp = &g->cp[q];
	xs_status st = XS_OK;
	if (cp_releases(g, cp, q, e, &st))
		*progress = true;
	if (st)
		return st;
	for (;;) {
		/* Blocked? */
		if (cp->state == XS_CP_WAIT_IDLE) {
			if (!queue_done_before(g, q, cp->wait_id))
				return XS_OK;
			cp->state = XS_CP_RUN;
			*progress = true;
		} else if (cp->state == XS_CP_WAIT_MEM) {
			bool mapped;
			if (!mem_condition(g, cp, &mapped)) {
				if (!mapped)
					return xs_err_set(e, XS_E_DEVICE_REMOVED,
							  "device removed: queue %u: WAIT_REG_MEM at dword %zu polls 0x%llx, "
							  "which is not in GPU memory", q, cp->wait_dword,
							  (unsigned long long)cp->wait_va);
				return XS_OK;
			}
			cp->state = XS_CP_RUN;
			*progress = true;
		} else if (cp->state == XS_CP_WAIT_SLOT) {
			if (g->ndisp_active >= XS_GPU_MAX_ACTIVE)
				return XS_OK;
			cp->state = XS_CP_RUN;
		}
		xs_gpu_cp_ib *ib = cp_top(cp);
		if (!ib) {
			/* Next submission, if any. */
			if (cp->sub_head == cp->sub_tail) {
				cp->state = XS_CP_IDLE;
				return XS_OK;
			}
			xs_gpu_cp_sub *s = &cp->sub[cp->sub_head % XS_GPU_CP_MAX_SUBS];
			cp->results = s->results;
			cp->nresults = s->nresults;
			cp->next_result = 0;
			cp->sub_head++;
			cp->state = XS_CP_RUN;
			if ((st = cp_push(g, cp, q, s->va, s->ndw, e)))
				return st;
			*progress = true;
			continue;
		}
		xs_pm4_packet p;
		xs_err perr;
		int r = xs_pm4_next(&ib->it, &p, &perr);
		if (r == 0) {
			cp_pop(cp);
			continue;
		}
		if (r < 0) {
			st = xs_err_set(e, XS_E_INVALID_ARG, "queue %u: IB 0x%llx: %s", q, (unsigned long long)ib->va,
					perr.msg);
			return st;
		}
		*progress = true;
		if (p.type != 3)
			continue;
		const uint32_t *b = p.body;
		switch (p.opcode) {
		case PKT3_NOP:
			break;
		case PKT3_SET_SH_REG:
		case PKT3_SET_SH_REG_INDEX:
			/* Index 3 ANDs CU masks with the kernel driver's reservation: all CUs here. */
			for (uint32_t i = 0; i < p.reg_count; i++)
				xs_gpu_set_sh_reg(g, q, p.reg_addr + 4 * i, b[1 + i]);
			break;
		case PKT3_SET_CONTEXT_REG:
			for (uint32_t i = 0; i < p.reg_count; i++)
				g->queue[q].ctx[(p.reg_addr - XS_CONTEXT_REG_OFFSET) / 4 + i] = b[1 + i];
			break;
		case PKT3_SET_UCONFIG_REG:
		case PKT3_SET_UCONFIG_REG_INDEX:
			for (uint32_t i = 0; i < p.reg_count; i++)
				g->queue[q].uconfig[(p.reg_addr - XS_UCONFIG_REG_OFFSET) / 4 + i] = b[1 + i];
			break;
		case PKT3_SET_BASE:
			cp->base_va = (uint64_t)b[1] | ((uint64_t)b[2] << 32);
			break;
		case PKT3_DISPATCH_DIRECT:
		case PKT3_DISPATCH_INDIRECT: {
			if (g->ndisp_active >= XS_GPU_MAX_ACTIVE) {
				/* Re-read this packet when a dispatch slot frees. */
				ib->it.pos = p.index;
				cp->state = XS_CP_WAIT_SLOT;
				return XS_OK;
			}
			uint32_t dim[3], initiator;
			if (p.opcode == PKT3_DISPATCH_DIRECT) {
				memcpy(dim, b, sizeof(dim));
				initiator = b[3];
			} else {
				uint64_t va = p.body_len == 3 ? ((uint64_t)b[0] | ((uint64_t)b[1] << 32))
							      : cp->base_va + b[0];
				initiator = b[p.body_len - 1];
				if (!xs_vm_read(g->vm, va, dim, sizeof(dim), NULL))
					return xs_err_set(e, XS_E_DEVICE_REMOVED,
							  "device removed: queue %u: DISPATCH_INDIRECT at dword %zu reads "
							  "0x%llx, which is not in GPU memory", q, p.index,
							  (unsigned long long)va);
			}
			xs_gpu_dispatch_result *res = cp->next_result < cp->nresults ? &cp->results[cp->next_result]
										      : &cp->scratch_result;
			cp->next_result++;
			st = xs_gpu_dispatch_begin(g, q, dim[0], dim[1], dim[2], initiator, res, e);
			if (st) {
				xs_err_prefix(e, "queue %u: IB 0x%llx dword %zu: DISPATCH", q, (unsigned long long)ib->va,
					      p.index);
				return st;
			}
			break;
		}
		case PKT3_EVENT_WRITE: {
			unsigned ev = G_EVENT_TYPE(b[0]);
			if (ev == V_028A90_CS_PARTIAL_FLUSH || ev == V_028A90_VS_PARTIAL_FLUSH ||
			    ev == V_028A90_PS_PARTIAL_FLUSH) {
				cp->state = XS_CP_WAIT_IDLE;
				cp->wait_id = g->next_disp_id;
			}
			break;
		}
		case PKT3_RELEASE_MEM: {
			if (cp->nrel == XS_GPU_CP_MAX_RELEASES) {
				ib->it.pos = p.index; /* retry when earlier releases are written */
				cp->state = XS_CP_WAIT_IDLE;
				cp->wait_id = g->next_disp_id;
				return XS_OK;
			}
			cp->rel[cp->nrel++] = (xs_gpu_cp_release){
				.before_id = g->next_disp_id, .data_sel = G_EOP_DATA_SEL(b[1]),
				.va = (uint64_t)b[2] | ((uint64_t)b[3] << 32), .data = (uint64_t)b[4] | ((uint64_t)b[5] << 32),
				.dword = p.index,
			};
			if (cp_releases(g, cp, q, e, &st) && st)
				return st;
			break;
		}
		case PKT3_WAIT_REG_MEM:
			if (!G_WAIT_REG_MEM_MEM_SPACE(b[0]))
				return unsupported(q, ib, &p, e); /* register polls */
			cp->wait_func = G_WAIT_REG_MEM_FUNCTION(b[0]);
			cp->wait_va = (uint64_t)b[1] | ((uint64_t)b[2] << 32);
			cp->wait_ref = b[3];
			cp->wait_mask = b[4];
			cp->wait_dword = p.index;
			cp->state = XS_CP_WAIT_MEM;
			break;
		case PKT3_WRITE_DATA: {
			unsigned sel = G_370_DST_SEL(b[0]);
			if (sel != V_370_MEM && sel != V_370_TC_L2)
				return unsupported(q, ib, &p, e);
			uint64_t va = (uint64_t)b[1] | ((uint64_t)b[2] << 32);
			if (!xs_vm_write(g->vm, va, b + 3, (size_t)(p.body_len - 3) * 4, NULL))
				return xs_err_set(e, XS_E_DEVICE_REMOVED,
						  "device removed: queue %u: WRITE_DATA at dword %zu writes 0x%llx, which is "
						  "not in GPU memory", q, p.index, (unsigned long long)va);
			break;
		}
		case PKT3_ACQUIRE_MEM:
			if (b[6] & S_586_GLI_INV(3))
				xs_icache_flush(g->ctx.icache); /* code memory may have changed */
			break;
		case PKT3_INDIRECT_BUFFER: {
			uint64_t va = (uint64_t)b[0] | ((uint64_t)b[1] << 32);
			uint32_t n = G_3F2_IB_SIZE(b[2]);
			if (G_3F2_CHAIN(b[2]))
				cp_pop(cp); /* a chained IB replaces the current one */
			if ((st = cp_push(g, cp, q, va, n, e))) {
				xs_err_prefix(e, "dword %zu: INDIRECT_BUFFER", p.index);
				return st;
			}
			break;
		}
		default:
			return unsupported(q, ib, &p, e);
		}
	}
}

xs_status xs_gpu_submit(xs_gpu *g, unsigned q, uint64_t va, uint32_t ndw, xs_gpu_dispatch_result *results,
			uint32_t nresults, xs_err *e)
{
	if (q >= XS_GPU_MAX_QUEUES)
		return xs_err_set(e, XS_E_INVALID_ARG, "no hardware queue %u", q);
	xs_gpu_cp *cp = &g->cp[q];
	if (cp->sub_tail - cp->sub_head == XS_GPU_CP_MAX_SUBS)
		return xs_err_set(e, XS_E_UNSUPPORTED, "queue %u: more than %d submissions pending", q,
				  XS_GPU_CP_MAX_SUBS);
	for (uint32_t i = 0; i < nresults; i++)
		results[i] = (xs_gpu_dispatch_result){ .limit_waves = results[i].limit_waves,
						       .limit_cycles = results[i].limit_cycles };
	cp->sub[cp->sub_tail++ % XS_GPU_CP_MAX_SUBS] = (xs_gpu_cp_sub){ va, ndw, results, nresults };
	return XS_OK;
}

static void cp_abandon(xs_gpu *g)
{
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++) {
		xs_gpu_cp *cp = &g->cp[q];
		while (cp->depth)
			cp_pop(cp);
		cp->sub_head = cp->sub_tail;
		cp->nrel = 0;
		cp->state = XS_CP_IDLE;
	}
}

xs_status xs_gpu_execute(xs_gpu *g, xs_err *e)
{
	for (;;) {
		bool progress = true;
		while (progress) {
			progress = false;
			for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++) {
				xs_status st = cp_run(g, q, &progress, e);
				if (st) {
					xs_gpu_abandon_all(g);
					cp_abandon(g);
					return st;
				}
			}
		}
		if (g->ndisp_active == 0) {
			for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++) {
				xs_gpu_cp *cp = &g->cp[q];
				if (cp->state == XS_CP_WAIT_MEM) {
					xs_status st = xs_err_set(e, XS_E_DEVICE_REMOVED,
						"device removed: hang: queue %u waits at dword %zu (WAIT_REG_MEM on 0x%llx, "
						"ref 0x%x mask 0x%x function %u) and nothing left can write it", q,
						cp->wait_dword, (unsigned long long)cp->wait_va, cp->wait_ref, cp->wait_mask,
						cp->wait_func);
					cp_abandon(g);
					return st;
				}
			}
			return XS_OK; /* every queue idle */
		}
		/* Run waves until a dispatch completes, then let the CPs go on. */
		xs_status st = xs_gpu_run_until(g, true, e);
		if (st) {
			cp_abandon(g);
			return st;
		}
	}
}
