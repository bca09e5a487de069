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
 *   WAIT_REG_MEM / WAIT_REG_MEM64 (memory)                   wait until the condition holds
 *   WRITE_DATA (memory), ACQUIRE_MEM (invalidates decoded code, the L0s, the L2)
 *   DMA_DATA (CP DMA memory to memory), COND_WRITE           when the CP reaches them
 *   COND_EXEC                                                skip what follows when a dword is 0
 *   XS_LAUNCH                                                xs12's firmware packet (hw/xs_hw_pm4.h)
 *   XS_BUILD_AS                                              acceleration structures (xs_gpu_accel.c)
 *   XS_FILL                                                  clears: fills memory (xs_gpu_cb.c)
 *   INDEX_TYPE / NUM_INSTANCES, INDEX_BASE / INDEX_BUFFER_SIZE  draw state (registers / queue)
 *   DRAW_INDEX_AUTO / DRAW_INDEX_2 / DRAW_INDIRECT / DRAW_INDEX_INDIRECT
 *                                                            SPI (xs_gpu_draw_begin; queue 0 only)
 *   INDIRECT_BUFFER                                          call (or chain) a command buffer
 *   NOP, SET_BASE
 * Anything else is XS_E_UNSUPPORTED naming the packet and dword. A
 * submission is bounded as the OS's timeout detection bounds it on the
 * console: the command buffers it fetches, their dwords, and the modelled
 * time of its firmware work (DMA_DATA, XS_FILL, XS_BUILD_AS); past one of
 * them the device is removed as hung (xs_gpu_priv.h).
 */
#include "gpu/xs_gpu_gfx.h"
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

/* The CP touched memory no allocation holds: a page fault of the CP's own
 * (DRED's page fault, DEVICE_RESET), not a shader's. */
static void cp_fault(xs_gpu *g, uint64_t va, const char *what)
{
	g->cp_fault = (xs_fault){ .kind = XS_FAULT_VM, .addr = va };
	snprintf(g->cp_fault.what, sizeof(g->cp_fault.what), "%s", what);
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
	if ((cp->fetched_dw += ndw) > XS_GPU_CP_MAX_FETCH_DWORDS)
		return xs_err_set(e, XS_E_DEVICE_REMOVED, "device removed: hang: queue %u: command buffer 0x%llx (%u dwords) "
				  "takes the submission's command buffers over %llu dwords (a loop?)", q,
				  (unsigned long long)va, ndw, (unsigned long long)XS_GPU_CP_MAX_FETCH_DWORDS);
	uint32_t *dw = xs_malloc((size_t)ndw * 4);
	uint64_t bad;
	if (!dw)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory for a %u-dword command buffer", ndw);
	if (!xs_vm_read(g->vm, va, dw, (size_t)ndw * 4, &bad)) {
		free(dw);
		cp_fault(g, bad, "command buffer fetch");
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
		if (xs_gpu_disp_live(g, i) && d->queue == q && d->id < before_id)
			return false;
	}
	return true;
}

static bool compare(unsigned func, uint64_t v, uint64_t ref)
{
	switch (func) {
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

static bool mem_condition(xs_gpu *g, const xs_gpu_cp *cp, bool *ok)
{
	uint64_t v = 0;
	if (!xs_vm_read(g->vm, cp->wait_va, &v, cp->wait_64 ? 8 : 4, NULL)) {
		*ok = false;
		return false;
	}
	*ok = true;
	return compare(cp->wait_func, v & cp->wait_mask, cp->wait_ref);
}

static xs_status removed_at(xs_gpu *g, unsigned q, const xs_pm4_packet *p, uint64_t va, const char *what, xs_err *e)
{
	cp_fault(g, va, p->info->name);
	return xs_err_set(e, XS_E_DEVICE_REMOVED, "device removed: queue %u: %s at dword %zu %s 0x%llx, which is not "
			  "in GPU memory", q, p->info->name, p->index, what, (unsigned long long)va);
}

/* DMA_DATA: the copy happens when the CP reaches the packet (CP_SYNC: the
 * CP goes on after it), through a bounded bounce buffer. */
static xs_status cp_dma(xs_gpu *g, unsigned q, const xs_pm4_packet *p, xs_err *e)
{
	const uint32_t *b = p->body;
	uint64_t src = (uint64_t)b[1] | ((uint64_t)b[2] << 32), dst = (uint64_t)b[3] | ((uint64_t)b[4] << 32);
	uint64_t n = G_415_BYTE_COUNT_GFX9(b[5]);
	bool fill = G_411_SRC_SEL(b[0]) == V_411_DATA;
	uint8_t buf[4096];
	if (fill)
		for (size_t i = 0; i < sizeof(buf); i += 4)
			memcpy(buf + i, &b[1], 4);
	while (n) {
		size_t k = (size_t)XS_MIN(n, (uint64_t)sizeof(buf));
		uint64_t bad;
		if (!fill && !xs_vm_read(g->vm, src, buf, k, &bad))
			return removed_at(g, q, p, bad, "reads", e);
		if (!xs_vm_write(g->vm, dst, buf, k, &bad))
			return removed_at(g, q, p, bad, "writes", e);
		n -= k;
		dst += k;
		if (!fill)
			src += k;
	}
	return XS_OK;
}

static void put(uint8_t *m, size_t off, uint64_t v, unsigned size)
{
	memcpy(m + off, &v, size);
}

/* XS_LAUNCH (hw/xs_hw_pm4.h): the firmware's part of an indirect launch.
 * The rules are the runtime's for a direct launch (S3.3-S3.5, S3.7), read
 * from the packet and the queue's COMPUTE_PGM_RSRC2; a value that breaks
 * one removes the device naming the rule, the value and its address. */
static xs_status cp_xs_launch(xs_gpu *g, unsigned q, const xs_pm4_packet *p, xs_err *e)
{
	const uint32_t *b = p->body;
	const xs_devinfo *di = g->info;
#define VA(i) ((uint64_t)b[i] | ((uint64_t)b[(i) + 1] << 32))
	uint64_t dims_va = VA(1), params_va = VA(3), out_va = VA(5), aql_va = VA(7), karg_va = VA(9);
#undef VA
	uint32_t dims[3], block[3] = { b[11] & 0xffff, b[11] >> 16, b[12] };
	/* in 64 bits: static 0xfffffff0 plus dynamic 0x20 wrapped to 0x10 and
	 * passed the S3.3 check below */
	uint64_t lds = (uint64_t)b[13] + b[14];
	const uint32_t static_lds = b[13];
	uint32_t wave = G_XS_LAUNCH_WAVE_SIZE(b[0]) ? G_XS_LAUNCH_WAVE_SIZE(b[0]) : 64;
	uint32_t max_flat = G_XS_LAUNCH_MAX_FLAT(b[0]);
	const uint64_t dims_at = G_XS_LAUNCH_DIMS_INDIRECT(b[0]) ? dims_va : out_va; /* where the counts are read */
	if (!xs_vm_read(g->vm, dims_at, dims, 12, NULL))
		return removed_at(g, q, p, dims_at, "reads", e);
	for (int i = 0; i < 3; i++)
		if (dims[i] > 65535)
			return xs_err_set(e, XS_E_DEVICE_REMOVED, "device removed: queue %u: XS_LAUNCH at dword %zu: "
					  "D3D12: the indirect dispatch at 0x%llx has ThreadGroupCount%c = %u, over 65535 "
					  "(D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION)", q, p->index,
					  (unsigned long long)dims_at, "XYZ"[i], dims[i]);
	bool override = false;
	if (G_XS_LAUNCH_PARAMS_INDIRECT(b[0])) {
		uint32_t lp[2];
		if (!xs_vm_read(g->vm, params_va, lp, 8, NULL))
			return removed_at(g, q, p, params_va, "reads", e);
		uint32_t flags = G_XS_LP_FLAGS(lp[0]);
		char why[200] = "";
		if (flags & ~(XS_LAUNCH_FLAG_LDS_SIZE | XS_LAUNCH_FLAG_NUM_THREADS))
			snprintf(why, sizeof(why), "S3.2: Flags 0x%x has bits xs12 does not know", flags);
		if (!why[0] && (flags & XS_LAUNCH_FLAG_LDS_SIZE)) {
			uint32_t l = G_XS_LP_LDS_SIZE(lp[0]) * di->lds_encode_granule;
			if (l > di->lds_max_per_group)
				snprintf(why, sizeof(why), "S3.3: LDSSize %u units of 512 bytes is over 64 KB",
					 G_XS_LP_LDS_SIZE(lp[0]));
			else if (l < static_lds)
				snprintf(why, sizeof(why), "S3.7: LDSSize %u bytes is below the kernel's %u bytes of static LDS",
					 l, static_lds);
			lds = l;
		}
		if (!why[0] && (flags & XS_LAUNCH_FLAG_NUM_THREADS)) {
			block[0] = G_XS_LP_NUM_THREAD_X(lp[1]);
			block[1] = G_XS_LP_NUM_THREAD_Y(lp[1]);
			block[2] = G_XS_LP_NUM_THREAD_Z(lp[0]);
			for (int i = 0; i < 3 && !why[0]; i++)
				if (block[i] < 1 || block[i] > 2048)
					snprintf(why, sizeof(why), "S3.4: NumThread%c %u is not 1..2048", "XYZ"[i], block[i]);
		}
		override = flags != 0;
		if (why[0])
			return xs_err_set(e, XS_E_DEVICE_REMOVED, "device removed: queue %u: XS_LAUNCH at dword %zu: the "
					  "launch parameters at 0x%llx (0x%08x 0x%08x) break %s", q, p->index,
					  (unsigned long long)params_va, lp[0], lp[1], why);
	}
	uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
	uint32_t rsrc2 = g->queue[q].sh[(R_00B84C_COMPUTE_PGM_RSRC2 - XS_SH_REG_OFFSET) / 4];
	unsigned tidig = G_00B84C_TIDIG_COMP_CNT(rsrc2);
	char why[200] = "";
	if (XS_DIV_ROUND_UP(threads, wave) > di->max_waves_per_group)
		snprintf(why, sizeof(why), "S3.5: a group of %llu threads is %llu wave%u waves, over %u",
			 (unsigned long long)threads, (unsigned long long)XS_DIV_ROUND_UP(threads, wave), wave,
			 di->max_waves_per_group);
	else if (max_flat && threads > max_flat)
		snprintf(why, sizeof(why), "S3.7: a group of %llu threads is over the kernel's .max_flat_workgroup_size %u",
			 (unsigned long long)threads, max_flat);
	else if ((block[1] > 1 && tidig < 1) || (block[2] > 1 && tidig < 2))
		snprintf(why, sizeof(why), "S3.7: a %ux%ux%u group needs work-item IDs the kernel does not receive "
			 "(COMPUTE_PGM_RSRC2.TIDIG_COMP_CNT = %u)", block[0], block[1], block[2], tidig);
	else if (b[15] && (block[0] != (b[15] & 0xffff) || block[1] != b[15] >> 16 || block[2] != b[16]))
		snprintf(why, sizeof(why), "S3.7: a %ux%ux%u group, but the kernel was compiled for "
			 "reqd_work_group_size(%u,%u,%u)", block[0], block[1], block[2], b[15] & 0xffff, b[15] >> 16, b[16]);
	else if (lds > di->lds_max_per_group)
		snprintf(why, sizeof(why), "S3.3: %llu bytes of LDS per group, over %u", (unsigned long long)lds,
			 di->lds_max_per_group);
	for (int i = 0; i < 3 && !why[0]; i++)
		if ((uint64_t)dims[i] * block[i] > UINT32_MAX)
			snprintf(why, sizeof(why), "D3D12: %u groups of %u threads in %c is over 2^32 work-items", dims[i],
				 block[i], "XYZ"[i]);
	if (why[0])
		return xs_err_set(e, XS_E_DEVICE_REMOVED, "device removed: queue %u: XS_LAUNCH at dword %zu: %s make a "
				  "launch that breaks %s", q, p->index, override ? "the indirect launch parameters"
				  : "the indirect arguments", why);
	/* The registers, the dispatch's group counts, the AQL packet and the hidden arguments. */
	for (int i = 0; i < 3; i++)
		xs_gpu_set_sh_reg(g, q, R_00B81C_COMPUTE_NUM_THREAD_X + 4 * i,
				  S_00B81C_NUM_THREAD_FULL(block[i]) | S_00B81C_NUM_THREAD_PARTIAL(block[i]));
	xs_gpu_set_sh_reg(g, q, R_00B84C_COMPUTE_PGM_RSRC2, (rsrc2 & C_00B84C_LDS_SIZE) |
			  S_00B84C_LDS_SIZE(XS_DIV_ROUND_UP(lds, di->lds_encode_granule)));
	uint32_t work_dim = G_XS_LAUNCH_WORK_DIM(b[0]);
	if (!work_dim) {
		work_dim = 1;
		for (uint32_t i = 0; i < 3; i++)
			if ((uint64_t)dims[i] * block[i] > 1)
				work_dim = i + 1;
	}
	uint8_t aql[64];
	if (!xs_vm_read(g->vm, aql_va, aql, sizeof(aql), NULL))
		return removed_at(g, q, p, aql_va, "reads", e);
	put(aql, 2, work_dim, 2);
	for (int i = 0; i < 3; i++) {
		put(aql, 4 + 2 * i, block[i], 2);
		put(aql, 12 + 4 * i, (uint64_t)dims[i] * block[i], 4);
	}
	put(aql, 28, lds, 4);
	if (!xs_vm_write(g->vm, aql_va, aql, sizeof(aql), NULL))
		return removed_at(g, q, p, aql_va, "writes", e);
	if (!xs_vm_write(g->vm, out_va, dims, 12, NULL))
		return removed_at(g, q, p, out_va, "writes", e);
	for (uint32_t k = 0; k < b[17]; k++) {
		uint32_t w = b[18 + k], kind = G_XS_PATCH_KIND(w);
		uint64_t v = 0;
		if (kind >= XS_PATCH_BLOCK_COUNT_X && kind <= XS_PATCH_BLOCK_COUNT_Z)
			v = dims[kind - XS_PATCH_BLOCK_COUNT_X];
		else if (kind >= XS_PATCH_GROUP_SIZE_X && kind <= XS_PATCH_GROUP_SIZE_Z)
			v = block[kind - XS_PATCH_GROUP_SIZE_X];
		else if (kind == XS_PATCH_GRID_DIMS)
			v = work_dim;
		else if (kind == XS_PATCH_DYNAMIC_LDS_SIZE)
			v = lds - static_lds;
		/* remainders stay 0: D3D12 dispatches whole groups */
		uint64_t at = karg_va + G_XS_PATCH_OFFSET(w);
		if (!xs_vm_write(g->vm, at, &v, G_XS_PATCH_SIZE(w), NULL))
			return removed_at(g, q, p, at, "writes", e);
	}
	return XS_OK;
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
			cp_fault(g, r->va, "RELEASE_MEM");
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

static uint32_t *uconfig_reg(xs_gpu *g, unsigned q, uint32_t reg)
{
	return &g->queue[q].uconfig[(reg - XS_UCONFIG_REG_OFFSET) / 4];
}

static bool is_draw(unsigned op)
{
	return op == PKT3_DRAW_INDEX_AUTO || op == PKT3_DRAW_INDEX_2 || op == PKT3_DRAW_INDIRECT ||
	       op == PKT3_DRAW_INDEX_INDIRECT;
}

/* The DRAW_* packets (hw/xs_hw_pm4.h "draws"): the draw's figures from the
 * packet, the queue's draw state or, for the indirect forms, the D3D12
 * arguments in memory read now. The indirect forms also do what the CP
 * firmware does for the shaders: BaseVertex (or StartVertex) and
 * StartInstance go to the user-data registers base_vtx_loc / start_inst_loc
 * name, and StartVertex becomes VGT_INDX_OFFSET, the auto index's start
 * [model]. */
xs_status xs_gpu_cp_draw_args(xs_gpu *g, unsigned q, uint64_t ib_va, const xs_pm4_packet *p, xs_gpu_draw_args *a,
			     xs_err *e)
{
	const uint32_t *b = p->body;
	xs_gpu_queue_regs *regs = &g->queue[q];
	*a = (xs_gpu_draw_args){ .opcode = p->opcode, .dword = p->index,
				 .instance_count = *uconfig_reg(g, q, R_030934_VGT_NUM_INSTANCES) };
	if (q != 0)
		return xs_err_set(e, XS_E_INVALID_ARG, "queue %u: IB 0x%llx dword %zu: %s on a compute queue: draws "
				  "run on queue 0, the graphics ring", q, (unsigned long long)ib_va, p->index,
				  p->info->name);
	a->indexed = p->opcode == PKT3_DRAW_INDEX_2 || p->opcode == PKT3_DRAW_INDEX_INDIRECT;
	a->indirect = p->opcode == PKT3_DRAW_INDIRECT || p->opcode == PKT3_DRAW_INDEX_INDIRECT;
	if (a->indexed) {
		uint32_t it = *uconfig_reg(g, q, R_03090C_VGT_INDEX_TYPE);
		unsigned t = G_03090C_INDEX_TYPE(it);
		if (t != V_03090C_VGT_INDEX_16 && t != V_03090C_VGT_INDEX_32)
			return xs_err_set(e, XS_E_INVALID_ARG, "queue %u: IB 0x%llx dword %zu: %s with VGT_INDEX_TYPE."
					  "INDEX_TYPE %u: xs12 draws 16-bit (0) and 32-bit (1) indices", q,
					  (unsigned long long)ib_va, p->index, p->info->name, t);
		a->index_size = t == V_03090C_VGT_INDEX_16 ? 2 : 4;
	}
	switch (p->opcode) {
	case PKT3_DRAW_INDEX_AUTO:
		a->count = b[0];
		a->start_vertex = regs->ctx[(R_028408_VGT_INDX_OFFSET - XS_CONTEXT_REG_OFFSET) / 4];
		return XS_OK;
	case PKT3_DRAW_INDEX_2:
		a->max_indices = b[0];
		a->index_va = (uint64_t)b[1] | ((uint64_t)b[2] << 32);
		a->count = b[3];
		return XS_OK;
	default:
		break;
	}
	uint32_t args[XS_DRAW_INDEXED_ARGS_DW];
	uint64_t va = g->cp[q].base_va + b[0];
	size_t n = a->indexed ? XS_DRAW_INDEXED_ARGS_DW : XS_DRAW_ARGS_DW;
	if (!xs_vm_read(g->vm, va, args, n * 4, NULL))
		return removed_at(g, q, p, va, "reads its arguments at", e);
	a->count = args[0];
	a->instance_count = args[1];
	uint32_t vtx_arg;
	if (a->indexed) {
		a->start_index = args[2];
		a->base_vertex = (int32_t)args[3];
		a->start_instance = args[4];
		a->index_va = regs->index_base + (uint64_t)a->start_index * a->index_size;
		a->max_indices = regs->index_buffer_size > a->start_index ? regs->index_buffer_size - a->start_index : 0;
		vtx_arg = args[3];
	} else {
		a->start_vertex = args[2];
		a->start_instance = args[3];
		regs->ctx[(R_028408_VGT_INDX_OFFSET - XS_CONTEXT_REG_OFFSET) / 4] = a->start_vertex;
		vtx_arg = args[2];
	}
	if (b[1])
		xs_gpu_set_sh_reg(g, q, XS_SH_REG_OFFSET + 4 * b[1], vtx_arg);
	if (b[2])
		xs_gpu_set_sh_reg(g, q, XS_SH_REG_OFFSET + 4 * b[2], a->start_instance);
	return XS_OK;
}

/* [model] XS_FILL's busy time: a start of 100 cycles and the bytes at the
 * CP DMA's rate (XS_BUILD_AS uses the same). */
static uint64_t fill_cycles(uint32_t pitch, uint32_t row_bytes, uint32_t rows)
{
	(void)pitch;
	return 100 + (uint64_t)row_bytes * rows / XS_GPU_CP_DMA_BYTES_PER_CYCLE;
}

/* Charges a firmware packet's modelled time to the submission; past the
 * budget the device is removed as hung (XS_GPU_CP_MAX_FW_CYCLES). */
static xs_status cp_charge(xs_gpu_cp *cp, unsigned q, const xs_gpu_cp_ib *ib, const xs_pm4_packet *p,
			   uint64_t cycles, xs_err *e)
{
	/* fw_cycles never passes the budget, so the difference does not wrap */
	if (cycles <= XS_GPU_CP_MAX_FW_CYCLES - cp->fw_cycles) {
		cp->fw_cycles += cycles;
		return XS_OK;
	}
	return xs_err_set(e, XS_E_DEVICE_REMOVED,
			  "device removed: hang: queue %u: IB 0x%llx dword %zu: %s of %llu cycles takes the "
			  "submission's firmware work (DMA_DATA, XS_FILL, XS_BUILD_AS) from %llu cycles over its "
			  "budget of %llu cycles (a loop?)", q, (unsigned long long)ib->va, p->index, p->info->name,
			  (unsigned long long)cycles, (unsigned long long)cp->fw_cycles,
			  (unsigned long long)XS_GPU_CP_MAX_FW_CYCLES);
}

static xs_status cp_xs_fill(xs_gpu *g, unsigned q, const xs_gpu_cp_ib *ib, const xs_pm4_packet *p,
			    uint64_t *cycles, xs_err *e)
{
	const uint32_t *b = p->body;
	uint64_t va = (uint64_t)b[0] | ((uint64_t)b[1] << 32), bad = 0;
	xs_err fe;
	xs_err_clear(&fe);
	*cycles = fill_cycles(b[2], b[3], b[4]);
	xs_status st = cp_charge(&g->cp[q], q, ib, p, *cycles, e);
	if (st)
		return st;
	st = xs_gfx_fill_at(g->vm, va, b[2], b[3], b[4], b + PKT3_XS_FILL_FIXED_DW, b[5], &bad, &fe);
	if (st == XS_E_DEVICE_REMOVED)
		return removed_at(g, q, p, bad, "writes", e);
	if (st)
		return xs_err_set(e, st, "queue %u: dword %zu: %s", q, p->index, fe.msg);
	return XS_OK;
}

static xs_status unsupported(unsigned q, const xs_gpu_cp_ib *ib, const xs_pm4_packet *p, xs_err *e)
{
	return xs_err_set(e, XS_E_UNSUPPORTED, "queue %u: IB 0x%llx dword %zu: %s is not modelled by the "
			  "command processor", q, (unsigned long long)ib->va, p->index, p->info->name);
}

/* The result slot of the submission's next dispatch or draw (p): the
 * submitter's, or past them the CP's scratch slot; in a replay every one
 * was recorded, and one more has left the recording (its bounds are the
 * recorded results': a scratch slot has none, so a dispatch of 2^32 groups
 * there ran for hours). */
static xs_status cp_result(xs_gpu *g, xs_gpu_cp *cp, unsigned q, const xs_gpu_cp_ib *ib, const xs_pm4_packet *p,
			   xs_gpu_dispatch_result **res, xs_err *e)
{
	if (cp->next_result < cp->nresults) {
		*res = &cp->results[cp->next_result++];
		return XS_OK;
	}
	if (g->results_recorded)
		return xs_err_set(e, XS_E_DEVICE_REMOVED,
				  "device removed: the replay left its recording: queue %u: IB 0x%llx dword %zu: %s is "
				  "the submission's work item %u, but %u were recorded", q, (unsigned long long)ib->va,
				  p->index, p->info->name, cp->next_result + 1, cp->nresults);
	cp->next_result++;
	*res = &cp->scratch_result;
	return XS_OK;
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
			/* the end-of-pipe writes of the work the flush waited for
			 * land before the CP reads memory again */
			cp_releases(g, cp, q, e, &st);
			if (st)
				return st;
		} else if (cp->state == XS_CP_WAIT_MEM) {
			bool mapped;
			if (!mem_condition(g, cp, &mapped)) {
				if (!mapped) {
					cp_fault(g, cp->wait_va, "WAIT_REG_MEM");
					return xs_err_set(e, XS_E_DEVICE_REMOVED,
							  "device removed: queue %u: WAIT_REG_MEM at dword %zu polls 0x%llx, "
							  "which is not in GPU memory", q, cp->wait_dword,
							  (unsigned long long)cp->wait_va);
				}
				return XS_OK;
			}
			cp->state = XS_CP_RUN;
			*progress = true;
		} else if (cp->state == XS_CP_WAIT_SLOT) {
			if (xs_gpu_ndisp(g) >= XS_GPU_MAX_ACTIVE)
				return XS_OK;
			cp->state = XS_CP_RUN;
		} else if (cp->state == XS_CP_BUSY) {
			if (g->now < cp->busy_until)
				return XS_OK;
			cp->state = XS_CP_RUN;
			*progress = true;
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
			cp->fetches = 1;
			cp->fetched_dw = 0;
			cp->fw_cycles = 0;
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
				xs_gpu_set_sh_reg(g, q, p.reg_addr + 4 * i,
						  xs_gpu_override_apply(g, p.reg_addr + 4 * i, b[1 + i]));
			break;
		case PKT3_SET_CONTEXT_REG:
			for (uint32_t i = 0; i < p.reg_count; i++)
				g->queue[q].ctx[(p.reg_addr - XS_CONTEXT_REG_OFFSET) / 4 + i] =
					xs_gpu_override_apply(g, p.reg_addr + 4 * i, b[1 + i]);
			break;
		case PKT3_SET_UCONFIG_REG:
		case PKT3_SET_UCONFIG_REG_INDEX:
			for (uint32_t i = 0; i < p.reg_count; i++)
				g->queue[q].uconfig[(p.reg_addr - XS_UCONFIG_REG_OFFSET) / 4 + i] =
					xs_gpu_override_apply(g, p.reg_addr + 4 * i, b[1 + i]);
			break;
		case PKT3_SET_BASE:
			cp->base_va = (uint64_t)b[1] | ((uint64_t)b[2] << 32);
			break;
		case PKT3_DISPATCH_DIRECT:
		case PKT3_DISPATCH_INDIRECT: {
			if (xs_gpu_ndisp(g) >= XS_GPU_MAX_ACTIVE) {
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
					return removed_at(g, q, &p, va, "reads", e);
			}
			xs_gpu_dispatch_result *res = NULL;
			if ((st = cp_result(g, cp, q, ib, &p, &res, e)))
				return st;
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
			cp->wait_64 = false;
			cp->wait_dword = p.index;
			cp->state = XS_CP_WAIT_MEM;
			break;
		case PKT3_WAIT_REG_MEM64:
			cp->wait_func = G_WAIT_REG_MEM_FUNCTION(b[0]);
			cp->wait_va = (uint64_t)b[1] | ((uint64_t)b[2] << 32);
			cp->wait_ref = (uint64_t)b[3] | ((uint64_t)b[4] << 32);
			cp->wait_mask = (uint64_t)b[5] | ((uint64_t)b[6] << 32);
			cp->wait_64 = true;
			cp->wait_dword = p.index;
			cp->state = XS_CP_WAIT_MEM;
			break;
		case PKT3_COND_WRITE: {
			uint64_t poll = (uint64_t)b[1] | ((uint64_t)b[2] << 32), dst = (uint64_t)b[5] | ((uint64_t)b[6] << 32);
			uint32_t v;
			if (!xs_vm_read(g->vm, poll, &v, 4, NULL))
				return removed_at(g, q, &p, poll, "polls", e);
			if (compare(G_COND_WRITE_FUNCTION(b[0]), v & b[4], b[3]) && !xs_vm_write(g->vm, dst, &b[7], 4, NULL))
				return removed_at(g, q, &p, dst, "writes", e);
			break;
		}
		case PKT3_COND_EXEC: {
			uint64_t va = (uint64_t)b[0] | ((uint64_t)b[1] << 32);
			uint32_t v;
			if (!xs_vm_read(g->vm, va, &v, 4, NULL))
				return removed_at(g, q, &p, va, "reads", e);
			if (!v) {
				uint32_t n = G_COND_EXEC_COUNT(b[3]);
				/* the parser checked that n dwords follow in this IB; skipped
				 * dispatches still take their result slots (their order) */
				size_t end = ib->it.pos + n;
				for (size_t at = ib->it.pos; at < end;) {
					uint32_t h = ib->dw[at];
					if (PKT_TYPE_G(h) == 3 && (PKT3_IT_OPCODE_G(h) == PKT3_DISPATCH_DIRECT ||
								   PKT3_IT_OPCODE_G(h) == PKT3_DISPATCH_INDIRECT ||
								   is_draw(PKT3_IT_OPCODE_G(h))))
						cp->next_result++;
					/* (only a NOP of count 0x3FFF is a header alone, as the parser has it) */
					at += PKT_TYPE_G(h) == 3 && !(PKT3_IT_OPCODE_G(h) == PKT3_NOP &&
								      PKT_COUNT_G(h) == PKT3_COUNT_MAX)
						      ? PKT_COUNT_G(h) + 2
						      : 1;
				}
				ib->it.pos = end;
			}
			break;
		}
		case PKT3_DMA_DATA: {
			/* no busy time of its own (the CP goes on, CP_SYNC), but
			 * the bytes are the CP DMA's work at its rate */
			uint64_t n = G_415_BYTE_COUNT_GFX9(b[5]);
			if ((st = cp_charge(cp, q, ib, &p, XS_DIV_ROUND_UP(n, XS_GPU_CP_DMA_BYTES_PER_CYCLE), e)) ||
			    (st = cp_dma(g, q, &p, e)))
				return st;
			break;
		}
		case PKT3_XS_LAUNCH:
			if ((st = cp_xs_launch(g, q, &p, e))) {
				xs_gpu_dispatch_result *res = cp->next_result < cp->nresults ? &cp->results[cp->next_result]
											      : &cp->scratch_result;
				res->fault.kind = XS_FAULT_ILLEGAL;
				snprintf(res->fault.what, sizeof(res->fault.what), "XS_LAUNCH: launch arguments break a rule");
				return st;
			}
			break;
		case PKT3_XS_BUILD_AS: {
			uint64_t cycles = 0;
			if ((st = xs_gpu_cp_build_as(g, q, &p, &cycles, e)) || (st = cp_charge(cp, q, ib, &p, cycles, e)))
				return st;
			/* the CP goes on when the work's simulated time has passed */
			cp->busy_until = g->now + cycles;
			cp->state = XS_CP_BUSY;
			break;
		}
		case PKT3_XS_FILL: {
			uint64_t cycles = 0;
			if ((st = cp_xs_fill(g, q, ib, &p, &cycles, e)))
				return st;
			cp->busy_until = g->now + cycles;
			cp->state = XS_CP_BUSY;
			break;
		}
		case PKT3_INDEX_TYPE:
			*uconfig_reg(g, q, R_03090C_VGT_INDEX_TYPE) = b[0];
			break;
		case PKT3_NUM_INSTANCES:
			*uconfig_reg(g, q, R_030934_VGT_NUM_INSTANCES) = b[0];
			break;
		case PKT3_INDEX_BASE:
			g->queue[q].index_base = (uint64_t)b[0] | ((uint64_t)b[1] << 32);
			break;
		case PKT3_INDEX_BUFFER_SIZE:
			g->queue[q].index_buffer_size = b[0];
			break;
		case PKT3_DRAW_INDEX_AUTO:
		case PKT3_DRAW_INDEX_2:
		case PKT3_DRAW_INDIRECT:
		case PKT3_DRAW_INDEX_INDIRECT: {
			if (xs_gpu_ndisp(g) >= XS_GPU_MAX_ACTIVE) {
				ib->it.pos = p.index; /* re-read when a slot frees */
				cp->state = XS_CP_WAIT_SLOT;
				return XS_OK;
			}
			xs_gpu_draw_args a;
			if ((st = xs_gpu_cp_draw_args(g, q, ib->va, &p, &a, e)))
				return st;
			xs_gpu_dispatch_result *res = NULL;
			if ((st = cp_result(g, cp, q, ib, &p, &res, e)))
				return st;
			if ((st = xs_gpu_draw_begin(g, q, &a, res, e))) {
				xs_err_prefix(e, "queue %u: IB 0x%llx dword %zu: %s", q, (unsigned long long)ib->va, p.index,
					      p.info->name);
				return st;
			}
			break;
		}
		case PKT3_WRITE_DATA: {
			unsigned sel = G_370_DST_SEL(b[0]);
			if (sel != V_370_MEM && sel != V_370_TC_L2)
				return unsupported(q, ib, &p, e);
			uint64_t va = (uint64_t)b[1] | ((uint64_t)b[2] << 32);
			/* WR_ONE_ADDR: every dword to the one address, so the last one stays */
			const bool one = G_370_WR_ONE_ADDR(b[0]);
			if (!xs_vm_write(g->vm, va, one ? b + p.body_len - 1 : b + 3, one ? 4 : (size_t)(p.body_len - 3) * 4,
					 NULL))
				return removed_at(g, q, &p, va, "writes", e);
			break;
		}
		case PKT3_ACQUIRE_MEM:
			if (b[6] & S_586_GLI_INV(3))
				xs_icache_flush(g->ctx.icache); /* code memory may have changed */
			/* the timing model's caches: L0 (GLV/GL1) per CU, the L2 */
			if (g->l0 && (b[6] & (S_586_GLV_INV(1) | S_586_GL1_INV(1))))
				for (uint32_t i = 0; i < g->info->num_cu; i++)
					xs_gpu_cache_invalidate(&g->l0[i]);
			if (b[6] & S_586_GL2_INV(1))
				xs_gpu_cache_invalidate(&g->l2);
			break;
		case PKT3_INDIRECT_BUFFER: {
			uint64_t va = (uint64_t)b[0] | ((uint64_t)b[1] << 32);
			uint32_t n = G_3F2_IB_SIZE(b[2]);
			if (++cp->fetches > XS_GPU_CP_MAX_FETCHES)
				return xs_err_set(e, XS_E_DEVICE_REMOVED,
						  "device removed: hang: queue %u: IB 0x%llx dword %zu: INDIRECT_BUFFER: over %u "
						  "command buffers in one submission (a loop?)", q, (unsigned long long)ib->va,
						  p.index, XS_GPU_CP_MAX_FETCHES);
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

bool xs_gpu_queue_waiting(const xs_gpu *g, unsigned q, uint64_t *va, uint64_t *ref)
{
	if (q >= XS_GPU_MAX_QUEUES || g->cp[q].state != XS_CP_WAIT_MEM)
		return false;
	*va = g->cp[q].wait_va;
	*ref = g->cp[q].wait_ref;
	return true;
}

uint32_t xs_gpu_submit_room(const xs_gpu *g, unsigned q)
{
	return q < XS_GPU_MAX_QUEUES ? XS_GPU_CP_MAX_SUBS - (g->cp[q].sub_tail - g->cp[q].sub_head) : 0;
}

/* Where each queue's CP stood when the work was dropped, as RADV_DEBUG=hang
 * prints the IB positions: the innermost IB first, the callers after. */
static void cp_note_positions(xs_gpu *g)
{
	size_t n = 0;
	g->cp_positions[0] = 0;
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++) {
		const xs_gpu_cp *cp = &g->cp[q];
		if (!cp->depth)
			continue;
		static const char *const st[] = { "idle", "running", "waiting for its dispatches (a flush)",
						  "waiting at a WAIT_REG_MEM", "waiting for a dispatch slot",
						  "busy with an XS_BUILD_AS" };
		n += (size_t)snprintf(g->cp_positions + n, sizeof(g->cp_positions) - n, "%squeue %u %s at", n ? "; " : "",
				      q, st[cp->state]);
		for (uint32_t d = cp->depth; d-- > 0 && n < sizeof(g->cp_positions) - 64;)
			n += (size_t)snprintf(g->cp_positions + n, sizeof(g->cp_positions) - n, "%s IB 0x%llx dword %zu",
					      d + 1 < cp->depth ? ", called from" : "", (unsigned long long)cp->ib[d].va,
					      cp->ib[d].it.pos);
		if (n >= sizeof(g->cp_positions) - 64)
			break;
	}
}

const char *xs_gpu_cp_positions(const xs_gpu *g)
{
	return g->cp_positions;
}

static void cp_abandon(xs_gpu *g)
{
	cp_note_positions(g);
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++) {
		xs_gpu_cp *cp = &g->cp[q];
		while (cp->depth)
			cp_pop(cp);
		cp->sub_head = cp->sub_tail;
		cp->nrel = 0;
		cp->state = XS_CP_IDLE;
	}
}

xs_fault xs_gpu_cp_fault(xs_gpu *g)
{
	xs_fault f = g->cp_fault;
	g->cp_fault = (xs_fault){ .kind = XS_FAULT_NONE };
	return f;
}

void xs_gpu_abandon(xs_gpu *g)
{
	xs_gpu_abandon_all(g);
	cp_abandon(g);
}

xs_status xs_gpu_execute(xs_gpu *g, bool *blocked, xs_err *e)
{
	if (blocked)
		*blocked = false;
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
		if (xs_gpu_ndisp(g) == 0) {
			/* nothing on the GPU: time moves on to the first firmware
			 * work's end (XS_BUILD_AS) */
			uint64_t next = UINT64_MAX;
			for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
				if (g->cp[q].state == XS_CP_BUSY && g->cp[q].busy_until < next)
					next = g->cp[q].busy_until;
			if (next != UINT64_MAX) {
				g->now = XS_MAX(g->now, next);
				continue;
			}
			for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++) {
				xs_gpu_cp *cp = &g->cp[q];
				if (cp->state != XS_CP_WAIT_MEM)
					continue;
				if (blocked) {
					*blocked = true; /* the host may still write what it waits for */
					continue;
				}
				xs_status st = xs_err_set(e, XS_E_DEVICE_REMOVED,
					"device removed: hang: queue %u waits at dword %zu (%s on 0x%llx, ref 0x%llx "
					"mask 0x%llx function %u) and nothing left can write it", q, cp->wait_dword,
					cp->wait_64 ? "WAIT_REG_MEM64" : "WAIT_REG_MEM", (unsigned long long)cp->wait_va,
					(unsigned long long)cp->wait_ref, (unsigned long long)cp->wait_mask, cp->wait_func);
				cp_abandon(g);
				return st;
			}
			/* An interrupt stops work in flight; with everything done it
			 * has nothing left to stop and must not stop the next
			 * submission (watch looks at it only every 4096 events). */
			g->interrupt = 0;
			return XS_OK; /* every queue idle, or blocked on a wait */
		}
		/* Run waves until a dispatch completes, or a CP's firmware work
		 * (XS_BUILD_AS) ends, then let the CPs go on. (The multi-threaded
		 * functional run notices that end at the next completion.) */
		uint64_t next = 0;
		for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
			if (g->cp[q].state == XS_CP_BUSY && (!next || g->cp[q].busy_until < next))
				next = g->cp[q].busy_until;
		g->run_stop_at = next;
		xs_status st = xs_gpu_run_until(g, true, e);
		g->run_stop_at = 0;
		if (st) {
			cp_abandon(g);
			return st;
		}
	}
}
