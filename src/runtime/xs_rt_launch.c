/*
 * One kernel launch, done as ROCr + the CP firmware do for an AQL packet
 * (LLVM AMDGPUUsage "Initial Kernel Execution State", "Kernel Descriptor";
 * docs/hardware.md sections 3 and 5):
 *
 *   kernarg segment (explicit + hidden arguments) and the AQL dispatch packet
 *   in command memory -> scratch ring sized and programmed (COMPUTE_TMPRING_SIZE,
 *   private segment buffer V#) -> user-data registers in the order the
 *   kernel descriptor enables them -> COMPUTE_* registers -> DISPATCH_DIRECT.
 *
 * Everything is written at record time into memory the command allocator
 * owns, so a recorded list runs as often as it is executed.
 *
 * A launch is worked out in two parts: prepare (the registers, user SGPRs,
 * AQL packet and hidden arguments that only the kernel, group shape, LDS,
 * ring and queue decide, with their PM4 encoded) and emit (this launch's
 * memory, counts, addresses and explicit arguments). A D3D12 list keeps
 * the prepared part from one Dispatch to the next (xs_rt_record_launch_cached),
 * as a driver keeps the state of its bound pipeline: a Dispatch then costs
 * tens of nanoseconds, not hundreds (docs/performance.md).
 */
#include "runtime/xs_rt_priv.h"
#include "gpu/xs_gpu_occupancy.h"
#include "hw/xs_hw_pm4.h"

#include <string.h>

/* hsa_kernel_dispatch_packet_t (HSA runtime spec), byte offsets. */
enum {
	AQL_HEADER = 0, AQL_SETUP = 2, AQL_WORKGROUP_SIZE_X = 4, AQL_GRID_SIZE_X = 12,
	AQL_PRIVATE_SEGMENT_SIZE = 24, AQL_GROUP_SEGMENT_SIZE = 28, AQL_KERNEL_OBJECT = 32,
	AQL_KERNARG_ADDRESS = 40, AQL_COMPLETION_SIGNAL = 56, AQL_PACKET_SIZE = 64,
};
#define AQL_PACKET_TYPE_KERNEL_DISPATCH 2

static void put(uint8_t *b, size_t off, uint64_t v, unsigned size)
{
	memcpy(b + off, &v, size); /* little-endian host, as the GPU; size <= 8 */
}

xs_status xs_rt_check_launch(const xs_rt_device *dev, const xs_rt_launch *d, xs_err *e)
{
	const xs_devinfo *di = dev->info;
	const xs_codeobj_kernel *k = d->k;
	const xs_kernel_info *ki = &k->info;
	if (d->queue >= XS_GPU_MAX_QUEUES)
		return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_DISPATCH_QUEUE,
				  "%s: queue %u: there are %u (0 direct, 1..%u async compute)", ki->name, d->queue,
				  XS_GPU_MAX_QUEUES, XS_GPU_MAX_QUEUES - 1);
	uint64_t threads = 1;
	for (int i = 0; i < 3; i++) {
		if (d->groups[i] == 0 && !d->indirect_dims_va)
			return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_DISPATCH_EMPTY, "%s: %u groups in %c", ki->name,
					  d->groups[i], "XYZ"[i]);
		if (d->block[i] == 0 || d->block[i] > 0xffff)
			return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_DISPATCH_BLOCK,
					  "%s: block %c = %u: COMPUTE_NUM_THREAD_%c holds 1..65535", ki->name, "XYZ"[i],
					  d->block[i], "XYZ"[i]);
		if (d->launch_override && d->block[i] > 2048)
			return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_LAUNCH_DIM_RANGE,
					  "%s: NumThread%c = %u: at most 2048", ki->name, "XYZ"[i], d->block[i]);
		if ((uint64_t)d->groups[i] * d->block[i] > UINT32_MAX)
			return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_DISPATCH_GRID,
					  "%s: %u groups of %u threads in %c is over 2^32 work-items", ki->name, d->groups[i],
					  d->block[i], "XYZ"[i]);
		threads *= d->block[i];
	}
	if (d->work_dim > 3)
		return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_DISPATCH_BLOCK, "%s: work_dim %u is not 1..3", ki->name,
				  d->work_dim);
	uint64_t waves = XS_DIV_ROUND_UP(threads, (uint64_t)ki->wavefront_size);
	if (waves > di->max_waves_per_group)
		return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_LAUNCH_GROUP_WAVES,
				  "%s: a group of %llu threads is %llu wave%u waves: at most %u whatever the wave size",
				  ki->name, (unsigned long long)threads, (unsigned long long)waves, ki->wavefront_size,
				  di->max_waves_per_group);
	if (threads > ki->max_flat_workgroup_size)
		return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_LAUNCH_OVER_MAX_FLAT,
				  "%s: a group of %llu threads is over the kernel's .max_flat_workgroup_size %u", ki->name,
				  (unsigned long long)threads, ki->max_flat_workgroup_size);
	/* The work-item IDs the kernel receives (COMPUTE_PGM_RSRC2.TIDIG_COMP_CNT). */
	unsigned cnt = G_00B84C_TIDIG_COMP_CNT(ki->rsrc2);
	for (unsigned i = 1; i < 3; i++)
		if (d->block[i] > 1 && cnt < i)
			return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_LAUNCH_TIDIG,
					  "%s: a group %u threads deep in %c, but the kernel receives only the work-item ID%s "
					  "of %s (COMPUTE_PGM_RSRC2.TIDIG_COMP_CNT = %u)", ki->name, d->block[i], "XYZ"[i],
					  cnt ? "s" : "", cnt ? "X and Y" : "X", cnt);
	if (k->reqd_workgroup_size[0] &&
	    (d->block[0] != k->reqd_workgroup_size[0] || d->block[1] != k->reqd_workgroup_size[1] ||
	     d->block[2] != k->reqd_workgroup_size[2]))
		return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_LAUNCH_REQD_SIZE,
				  "%s: a %ux%ux%u group, but the kernel was compiled for reqd_work_group_size(%u,%u,%u)",
				  ki->name, d->block[0], d->block[1], d->block[2], k->reqd_workgroup_size[0],
				  k->reqd_workgroup_size[1], k->reqd_workgroup_size[2]);
	uint64_t lds = (uint64_t)ki->group_segment_fixed_size + d->dynamic_lds;
	if (lds > di->lds_max_per_group)
		return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_LAUNCH_LDS_OVER_MAX,
				  "%s: %llu bytes of LDS per group (static %u + dynamic %u): at most %u", ki->name,
				  (unsigned long long)lds, ki->group_segment_fixed_size, d->dynamic_lds,
				  di->lds_max_per_group);
	if (d->kernargs_size > ki->kernarg_size)
		return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_DISPATCH_KERNARGS,
				  "%s: %zu bytes of arguments for a %u-byte kernarg segment", ki->name, d->kernargs_size,
				  ki->kernarg_size);
	uint64_t all = di->num_cu >= 64 ? ~0ull : (1ull << di->num_cu) - 1;
	if (d->cu_mask & ~all)
		return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_DISPATCH_CU_MASK,
				  "%s: CU mask 0x%llx has bits above CU %u: %s has %u CUs", ki->name,
				  (unsigned long long)d->cu_mask, di->num_cu - 1, di->name, di->num_cu);
	if (d->cu_mask && ki->wgp_mode) {
		/* WGP mode: a group takes a whole WGP, CUs 2n and 2n + 1 (the SPI's rule). */
		uint64_t pairs = d->cu_mask & (d->cu_mask >> 1) & 0x5555555555555555ull;
		if (!pairs)
			return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_DISPATCH_CU_MASK,
					  "%s: CU mask 0x%llx enables no whole WGP: a WGP-mode kernel needs both CUs of a "
					  "WGP (CUs 2n and 2n+1), e.g. 0x3", ki->name, (unsigned long long)d->cu_mask);
	}
	uint64_t per_wave = xs_gpu_scratch_per_wave(di, ki->rsrc2, ki->private_segment_fixed_size, ki->wavefront_size);
	if (per_wave > di->max_wave_scratch)
		return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_SCRATCH_PER_WAVE_OVER_MAX,
				  "%s: %llu bytes of scratch per wave: COMPUTE_TMPRING_SIZE.WAVESIZE holds at most %u",
				  ki->name, (unsigned long long)per_wave, di->max_wave_scratch);
	if (per_wave && d->ring.va) {
		if (d->ring.per_wave < per_wave)
			return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_SCRATCH_SLOT_TOO_SMALL,
					  "%s needs %llu KB of scratch per wave but the queue's scratch space has %u KB "
					  "slots (S1.6)", ki->name, (unsigned long long)per_wave / 1024,
					  d->ring.per_wave / 1024);
		uint64_t slots = XS_MIN(d->ring.size / d->ring.per_wave, (uint64_t)di->max_scratch_waves_per_cu * di->num_cu);
		if (slots < waves)
			return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_SCRATCH_RING_BELOW_GROUP,
					  "%s: the scratch space holds %llu slots, one thread group has %llu waves: the "
					  "dispatch could never launch", ki->name, (unsigned long long)slots,
					  (unsigned long long)waves);
	}
	return XS_OK;
}

/* The value of a hidden argument, filled as ROCr/CLR fill them for a
 * dispatch of whole groups (D3D12 Dispatch has no partial groups, so the
 * remainders are 0). */
static uint64_t hidden_value(const xs_rt_device *dev, xs_codeobj_hidden h, const xs_rt_launch *d, uint32_t dims)
{
	switch (h) {
	case XS_HIDDEN_BLOCK_COUNT_X: case XS_HIDDEN_BLOCK_COUNT_Y: case XS_HIDDEN_BLOCK_COUNT_Z:
		return d->groups[h - XS_HIDDEN_BLOCK_COUNT_X];
	case XS_HIDDEN_GROUP_SIZE_X: case XS_HIDDEN_GROUP_SIZE_Y: case XS_HIDDEN_GROUP_SIZE_Z:
		return d->block[h - XS_HIDDEN_GROUP_SIZE_X];
	case XS_HIDDEN_GRID_DIMS: return dims;
	case XS_HIDDEN_QUEUE_PTR: return dev->queue_va;
	case XS_HIDDEN_DYNAMIC_LDS_SIZE: return d->dynamic_lds;
	case XS_HIDDEN_PRIVATE_BASE: return (uint64_t)XS_APERTURE_PRIVATE_HI16 << 16; /* high 32 bits of the aperture */
	case XS_HIDDEN_SHARED_BASE: return (uint64_t)XS_APERTURE_SHARED_HI16 << 16;
	default: return 0; /* remainders, offsets; no printf, hostcall, queue, heap service: null */
	}
}

/* The kind of XS_LAUNCH patch for a hidden argument the shape decides (0: none). */
static uint32_t patch_kind(xs_codeobj_hidden h)
{
	switch (h) {
	case XS_HIDDEN_BLOCK_COUNT_X: case XS_HIDDEN_BLOCK_COUNT_Y: case XS_HIDDEN_BLOCK_COUNT_Z:
		return XS_PATCH_BLOCK_COUNT_X + (h - XS_HIDDEN_BLOCK_COUNT_X);
	case XS_HIDDEN_GROUP_SIZE_X: case XS_HIDDEN_GROUP_SIZE_Y: case XS_HIDDEN_GROUP_SIZE_Z:
		return XS_PATCH_GROUP_SIZE_X + (h - XS_HIDDEN_GROUP_SIZE_X);
	case XS_HIDDEN_REMAINDER_X: case XS_HIDDEN_REMAINDER_Y: case XS_HIDDEN_REMAINDER_Z:
		return XS_PATCH_REMAINDER_X + (h - XS_HIDDEN_REMAINDER_X);
	case XS_HIDDEN_GRID_DIMS: return XS_PATCH_GRID_DIMS;
	case XS_HIDDEN_DYNAMIC_LDS_SIZE: return XS_PATCH_DYNAMIC_LDS_SIZE;
	default: return 0;
	}
}

/* ExecuteIndirect's part of a launch: the root arguments copied by CP DMA
 * into the kernarg segment, then XS_LAUNCH (the firmware reads the group
 * counts and launch parameters when it gets there, checks them and patches
 * the registers, the AQL packet and the hidden arguments) and a
 * DISPATCH_INDIRECT of the counts it wrote. */
static xs_status record_indirect(xs_rt_device *dev, xs_rt_cmdmem *mem, xs_pm4_builder *b, const xs_rt_launch *d,
				 const xs_rt_launch_info *info, uint64_t lds, uint32_t initiator, xs_err *e)
{
	const xs_codeobj_kernel *k = d->k;
	const xs_kernel_info *ki = &k->info;
	for (uint32_t i = 0; i < d->ncopies; i++) {
		const xs_rt_kernarg_copy *c = &d->copies[i];
		if ((uint64_t)c->offset + c->bytes > ki->kernarg_size)
			return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_INDIRECT_SIGNATURE,
					  "%s: an indirect argument of %u bytes at kernarg offset %u is outside the %u-byte "
					  "kernarg segment", ki->name, c->bytes, c->offset, ki->kernarg_size);
		xs_pm4_dma_data(b, info->karg_va + c->offset, c->src_va, c->bytes);
	}
	uint64_t dims_va;
	uint8_t *dims;
	xs_status st = xs_rt_cmdmem_alloc(mem, 16, 16, &dims_va, &dims, e);
	if (st)
		return st;
	memcpy(dims, d->groups, 12); /* read by XS_LAUNCH when the counts are not indirect */
	uint32_t patches[XS_LAUNCH_MAX_PATCHES], np = 0;
	for (uint32_t i = 0; i < ki->num_args && np < XS_LAUNCH_MAX_PATCHES; i++) {
		uint32_t kind = patch_kind((xs_codeobj_hidden)k->arg_hidden[i]);
		if (kind)
			patches[np++] = S_XS_PATCH(ki->args[i].offset, kind, ki->args[i].size);
	}
	xs_pm4_launch_desc L = {
		.dims_va = d->indirect_dims_va, .params_va = d->indirect_launch_va, .dims_out_va = dims_va,
		.aql_va = info->pkt_va, .kernarg_va = info->karg_va, .work_dim = d->work_dim,
		.wave_size = ki->wavefront_size, .max_flat = ki->max_flat_workgroup_size,
		.block = { d->block[0], d->block[1], d->block[2] }, .static_lds = ki->group_segment_fixed_size,
		.dynamic_lds = (uint32_t)(lds - ki->group_segment_fixed_size),
		.reqd = { k->reqd_workgroup_size[0], k->reqd_workgroup_size[1], k->reqd_workgroup_size[2] },
		.patches = patches, .npatches = np,
	};
	xs_pm4_xs_launch(b, &L);
	if (d->queue == 0)
		xs_pm4_dispatch_indirect_gfx(b, dims_va, 0, initiator);
	else
		xs_pm4_dispatch_indirect_mec(b, dims_va, initiator);
	(void)dev;
	return XS_OK;
}

/* The registers of a dispatch, as a driver's command list has them (the
 * template's PM4 and, when the builder must grow, the builder's own calls). */
static void put_regs(xs_pm4_builder *b, const xs_rt_launch_regs *r)
{
	xs_pm4_set_sh_reg(b, R_00B830_COMPUTE_PGM_LO, r->pgm, 2);
	xs_pm4_set_sh_reg(b, R_00B848_COMPUTE_PGM_RSRC1, r->rsrc, 2);
	xs_pm4_set_sh_reg1(b, R_00B8A0_COMPUTE_PGM_RSRC3, r->rsrc3);
	xs_pm4_set_sh_reg(b, R_00B810_COMPUTE_START_X, r->start_nt, 6);
	xs_pm4_set_sh_reg1(b, R_00B854_COMPUTE_RESOURCE_LIMITS, 0);
	xs_pm4_set_sh_reg1(b, R_00B860_COMPUTE_TMPRING_SIZE, r->tmpring);
	xs_pm4_set_sh_reg_index(b, R_00B858_COMPUTE_STATIC_THREAD_MGMT_SE0, V_SET_SH_REG_INDEX_APPLY_KMD_CU_AND_MASK,
				r->cu, 2);
	xs_pm4_set_sh_reg_index(b, R_00B864_COMPUTE_STATIC_THREAD_MGMT_SE2, V_SET_SH_REG_INDEX_APPLY_KMD_CU_AND_MASK,
				r->cu + 2, 2);
	xs_pm4_set_sh_reg(b, R_00B900_COMPUTE_USER_DATA_0, r->ud, XS_COMPUTE_USER_DATA_COUNT);
}

static void *no_realloc(void *p, size_t n)
{
	(void)p;
	(void)n;
	return NULL;
}

/* The hidden arguments' bytes: the value's, zero beyond 8 (the buffers of
 * services xs12 does not have are null whatever their size). */
static void put_hidden(uint8_t *b, size_t off, uint64_t v, unsigned size)
{
	memcpy(b + off, &v, XS_MIN(size, 8u));
	if (size > 8)
		memset(b + off + 8, 0, size - 8);
}

/* The hidden arguments as t's runs and patches, when they lie in order
 * without overlapping (as every compiler lays them out); else nruns = -1. */
static void prepare_hidden(const xs_rt_device *dev, const xs_rt_launch *d, xs_rt_launch_tmpl *t)
{
	const xs_codeobj_kernel *k = d->k;
	const xs_kernel_info *ki = &k->info;
	t->nruns = t->npatches = 0;
	t->explicit_apart = false;
	t->image_blocks = 0;
	/* zero but for the hidden arguments: xs_rt_record_again copies it whole */
	memset(t->image, 0, XS_MAX(XS_ALIGN_UP(ki->kernarg_size, 32u), 128u));
	uint32_t end = 0;
	for (uint32_t i = 0; i < ki->num_args; i++) {
		xs_codeobj_hidden h = (xs_codeobj_hidden)k->arg_hidden[i];
		if (h == XS_HIDDEN_NOT)
			continue;
		const xs_kernel_arg *a = &ki->args[i];
		if (a->offset < end || !a->size) {
			t->nruns = -1;
			return;
		}
		if (t->nruns && t->runs[t->nruns - 1].hi == a->offset) {
			t->runs[t->nruns - 1].hi = (uint16_t)(a->offset + a->size);
		} else if (t->nruns < XS_RT_LAUNCH_RUNS) {
			t->runs[t->nruns].lo = (uint16_t)a->offset;
			t->runs[t->nruns++].hi = (uint16_t)(a->offset + a->size);
		} else {
			t->nruns = -1;
			return;
		}
		end = a->offset + a->size;
		/* the counts decide these; the rest is the same for every dispatch */
		switch (h) {
		case XS_HIDDEN_BLOCK_COUNT_X: case XS_HIDDEN_BLOCK_COUNT_Y: case XS_HIDDEN_BLOCK_COUNT_Z:
		case XS_HIDDEN_GRID_DIMS:
			if (t->npatches == XS_RT_LAUNCH_PATCHES) {
				t->nruns = -1;
				return;
			}
			t->patches[t->npatches].offset = (uint16_t)a->offset;
			t->patches[t->npatches].size = (uint8_t)a->size;
			t->patches[t->npatches++].kind = (uint8_t)h;
			memset(t->image + a->offset, 0, a->size);
			break;
		default:
			put_hidden(t->image, a->offset, hidden_value(dev, h, d, 0), a->size);
			break;
		}
	}
	/* Explicit arguments may then be written after the hidden ones (xs_rt_record_again). */
	for (uint32_t i = 0; i < ki->num_args; i++) {
		if (k->arg_hidden[i] != XS_HIDDEN_NOT)
			continue;
		const xs_kernel_arg *a = &ki->args[i];
		for (int r = 0; r < t->nruns; r++)
			if (a->offset < t->runs[r].hi && t->runs[r].lo < a->offset + a->size)
				return;
	}
	t->explicit_apart = true;
	t->image_blocks = (uint16_t)(XS_ALIGN_UP(end, 32u) / 32);
}

/* Everything of the launch but what its group counts and explicit
 * arguments decide (checked already). */
static xs_status prepare(xs_rt_device *dev, const xs_pm4_builder *b, const xs_rt_launch *d, xs_rt_launch_tmpl *t,
			 xs_err *e)
{
	const xs_devinfo *di = dev->info;
	const xs_codeobj_kernel *k = d->k;
	const xs_kernel_info *ki = &k->info;
	xs_status st;
	t->valid = false;
	t->mod = d->mod;
	t->k = k;
	memcpy(t->block, d->block, sizeof(t->block));
	t->dynamic_lds = d->dynamic_lds;
	t->work_dim = d->work_dim;
	t->cu_mask = d->cu_mask;
	t->queue = d->queue;
	t->ring = d->ring;
	t->launch_override = d->launch_override;
	t->predicate = b->predicate;
	xs_rt_launch_info *info = &t->info;
	memset(info, 0, sizeof(*info));
	uint64_t lds = (uint64_t)ki->group_segment_fixed_size + d->dynamic_lds;
	/* Whole pages for the segment: a scalar load may read past its last
	 * byte (s_load_dwordx8 of the last arguments), which real kernarg
	 * memory allows. */
	t->karg_alloc = XS_ALIGN_UP(XS_MAX(ki->kernarg_size, 16u), 256u);
	prepare_hidden(dev, d, t);

	/* ---- scratch (SPEC S1.11: per wave = roundup(lane bytes x wave size, 1 KB)) ---- */
	uint32_t wave_size = ki->wavefront_size;
	uint64_t scratch_base = 0, ring_bytes = 0;
	uint32_t tmpring = 0;
	info->per_wave = xs_gpu_scratch_per_wave(di, ki->rsrc2, ki->private_segment_fixed_size, wave_size);
	info->scratch_en = G_00B84C_SCRATCH_EN(ki->rsrc2);
	if (info->scratch_en) {
		uint32_t waves;
		if (d->ring.va) {
			/* The title's ring (SetShaderScratchSpaceX, S1.1): slots of its size. */
			info->per_wave = d->ring.per_wave;
			waves = (uint32_t)XS_MIN(d->ring.size / d->ring.per_wave, (uint64_t)G_00B860_WAVES(~0u)); /* field max */
			scratch_base = d->ring.va;
			ring_bytes = d->ring.size;
		} else {
			info->default_ring = true;
			pthread_mutex_lock(&dev->lock);
			st = xs_rt_default_scratch(dev, info->per_wave, e);
			waves = dev->scratch_waves;
			scratch_base = dev->scratch_va;
			ring_bytes = dev->scratch_size;
			info->per_wave = dev->scratch_per_wave; /* the ring's slot size, not only this kernel's */
			pthread_mutex_unlock(&dev->lock);
			if (st)
				return st;
		}
		info->ring_va = scratch_base;
		info->ring_bytes = ring_bytes;
		info->ring_slots = waves;
		tmpring = S_00B860_WAVES(waves) | S_00B860_WAVESIZE(info->per_wave / di->scratch_wavesize_granule);
	}

	/* ---- the AQL packet (setup, grid size and kernarg address per dispatch) ---- */
	uint8_t *pkt = t->aql;
	memset(pkt, 0, AQL_PACKET_SIZE);
	put(pkt, AQL_HEADER, AQL_PACKET_TYPE_KERNEL_DISPATCH, 2);
	for (int i = 0; i < 3; i++)
		put(pkt, AQL_WORKGROUP_SIZE_X + 2 * i, d->block[i], 2);
	put(pkt, AQL_PRIVATE_SEGMENT_SIZE, ki->private_segment_fixed_size, 4);
	put(pkt, AQL_GROUP_SEGMENT_SIZE, (uint32_t)lds, 4);
	put(pkt, AQL_KERNEL_OBJECT, d->mod->load_va + k->kd_vaddr, 8);

	/* ---- user SGPRs in descriptor order (the addresses per dispatch) ---- */
	xs_rt_launch_regs *r = &t->regs;
	uint32_t *ud = r->ud;
	memset(ud, 0, sizeof(r->ud));
	uint32_t n = 0;
	uint16_t kcp = ki->kernel_code_properties;
	t->ud_pkt = t->ud_karg = t->ud_id = -1;
#define PUSH64(v) do { uint64_t v_ = (v); if (n + 2 <= XS_COMPUTE_USER_DATA_COUNT) { ud[n] = (uint32_t)v_; ud[n + 1] = (uint32_t)(v_ >> 32); } n += 2; } while (0)
#define HOLE64(at) do { if (n + 2 <= XS_COMPUTE_USER_DATA_COUNT) (at) = (int8_t)n; n += 2; } while (0)
	if (kcp & XS_KCP_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER) {
		/* ROCr's scratch V# for gfx10; INDEX_STRIDE is "filled in by CP" to
		 * match the wave size, which is what this does. */
		if (n + 4 <= XS_COMPUTE_USER_DATA_COUNT) {
			ud[n + 0] = (uint32_t)scratch_base;
			ud[n + 1] = S_008F04_BASE_ADDRESS_HI(scratch_base >> 32) | S_008F04_SWIZZLE_ENABLE(1);
			ud[n + 2] = (uint32_t)XS_MIN(ring_bytes, (uint64_t)UINT32_MAX);
			ud[n + 3] = S_008F0C_DST_SEL_X(V_008F0C_SQ_SEL_X) | S_008F0C_DST_SEL_Y(V_008F0C_SQ_SEL_Y) |
				    S_008F0C_DST_SEL_Z(V_008F0C_SQ_SEL_Z) | S_008F0C_DST_SEL_W(V_008F0C_SQ_SEL_W) |
				    S_008F0C_FORMAT(V_008F0C_GFX10_FORMAT_32_UINT) |
				    S_008F0C_INDEX_STRIDE(wave_size == 64 ? V_008F0C_INDEX_STRIDE_64 : V_008F0C_INDEX_STRIDE_32) |
				    S_008F0C_ADD_TID_ENABLE(1) | S_008F0C_RESOURCE_LEVEL(1) |
				    S_008F0C_OOB_SELECT(V_008F0C_OOB_SELECT_DISABLED);
		}
		n += 4;
	}
	if (kcp & XS_KCP_ENABLE_SGPR_DISPATCH_PTR)
		HOLE64(t->ud_pkt);
	if (kcp & XS_KCP_ENABLE_SGPR_QUEUE_PTR)
		PUSH64(dev->queue_va);
	if (kcp & XS_KCP_ENABLE_SGPR_KERNARG_SEGMENT_PTR)
		HOLE64(t->ud_karg);
	if (kcp & XS_KCP_ENABLE_SGPR_DISPATCH_ID)
		HOLE64(t->ud_id);
	if (kcp & XS_KCP_ENABLE_SGPR_FLAT_SCRATCH_INIT)
		PUSH64(scratch_base); /* absolute flat scratch: the prolog adds the wave offset */
	if (kcp & XS_KCP_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE) {
		if (n < XS_COMPUTE_USER_DATA_COUNT)
			ud[n] = ki->private_segment_fixed_size;
		n++;
	}
#undef HOLE64
#undef PUSH64
	uint32_t rsrc2_sgprs = G_00B84C_USER_SGPR(ki->rsrc2);
	if (n > XS_COMPUTE_USER_DATA_COUNT || rsrc2_sgprs < n)
		return xs_rt_fail(e, XS_E_BAD_CODE_OBJECT, XS_MSG_DISPATCH_USER_SGPRS,
				  "%s: kernel_code_properties enable %u user SGPRs but COMPUTE_PGM_RSRC2.USER_SGPR is %u "
				  "(at most %u)", ki->name, n, rsrc2_sgprs, XS_COMPUTE_USER_DATA_COUNT);

	/* ---- the registers and the dispatch, as a driver's command list has them ---- */
	uint32_t rsrc2 = (ki->rsrc2 & C_00B84C_LDS_SIZE) | S_00B84C_LDS_SIZE(XS_DIV_ROUND_UP(lds, di->lds_encode_granule));
	t->initiator = S_00B800_COMPUTE_SHADER_EN(1) | S_00B800_FORCE_START_AT_000(1) | S_00B800_ORDER_MODE(1) |
		       S_00B800_CS_W32_EN(wave_size == 32);
	xs_gpu_cu_mask_regs(dev->gpu, d->cu_mask ? d->cu_mask : ~0ull, r->cu);
	uint64_t entry = d->mod->load_va + k->entry_vaddr;
	r->pgm[0] = (uint32_t)(entry >> 8);
	r->pgm[1] = S_00B834_DATA(entry >> 40);
	r->rsrc[0] = ki->rsrc1;
	r->rsrc[1] = rsrc2;
	r->rsrc3 = ki->rsrc3;
	r->tmpring = tmpring;
	for (int i = 0; i < 3; i++) { /* COMPUTE_START_X..Z = 0, then COMPUTE_NUM_THREAD_X..Z */
		r->start_nt[i] = 0;
		r->start_nt[3 + i] = S_00B81C_NUM_THREAD_FULL(d->block[i]) | S_00B81C_NUM_THREAD_PARTIAL(d->block[i]);
	}
	/* Their PM4, encoded by the builder into t->pm4: the same dwords. */
	xs_pm4_builder tb;
	memset(t->pm4, 0, sizeof(t->pm4)); /* emit copies all of it */
	xs_pm4_builder_init(&tb, XS_RT_LAUNCH_PM4_DW);
	tb.dw = t->pm4;
	tb.cap = XS_RT_LAUNCH_PM4_DW;
	tb.realloc_fn = no_realloc;
	tb.predicate = b->predicate;
	put_regs(&tb, r);
	t->ndw_regs = (uint32_t)tb.cdw;
	xs_pm4_dispatch_direct(&tb, 0, 0, 0, t->initiator);
	t->ndw = (uint32_t)tb.cdw;
	if (xs_pm4_builder_failed(&tb)) /* cannot be: the registers are constants */
		return xs_err_set(e, tb.err.status, "recording: %s", tb.err.msg);
	/* Again, with the registers set: the user SGPRs from the first to the
	 * last address one (none: DISPATCH_DIRECT alone). */
	int lo = XS_COMPUTE_USER_DATA_COUNT, hi = 0;
	const int8_t holes[3] = { t->ud_pkt, t->ud_karg, t->ud_id };
	for (int i = 0; i < 3; i++)
		if (holes[i] >= 0) {
			lo = XS_MIN(lo, (int)holes[i]);
			hi = XS_MAX(hi, holes[i] + 2);
		}
	memset(t->pm4_again, 0, sizeof(t->pm4_again));
	xs_pm4_builder_init(&tb, XS_RT_LAUNCH_PM4_AGAIN_DW);
	tb.dw = t->pm4_again;
	tb.cap = XS_RT_LAUNCH_PM4_AGAIN_DW;
	tb.realloc_fn = no_realloc;
	tb.predicate = b->predicate;
	t->again_lo = (int8_t)(lo < hi ? lo : 0);
	if (lo < hi)
		xs_pm4_set_sh_reg(&tb, R_00B900_COMPUTE_USER_DATA_0 + 4 * (unsigned)lo, r->ud + lo, (unsigned)(hi - lo));
	t->ndw_again_regs = (uint32_t)tb.cdw;
	xs_pm4_dispatch_direct(&tb, 0, 0, 0, t->initiator);
	t->ndw_again = (uint32_t)tb.cdw;
	if (xs_pm4_builder_failed(&tb))
		return xs_err_set(e, tb.err.status, "recording: %s", tb.err.msg);
	/* A tag no other template had: a template made at a freed one's
	 * address, or prepared again, must not pass for it. */
	static _Atomic uint64_t tags;
	t->tag = ++tags;
	/* Kept for the launches after it unless the driver's default ring
	 * backs it: that allocation moves when a bigger kernel outgrows it. */
	t->valid = !info->default_ring;
	return XS_OK;
}

/* A hidden argument the group counts decide (a patch of prepare_hidden). */
static uint64_t count_value(unsigned kind, const uint32_t groups[3], uint32_t work_dim)
{
	switch (kind) {
	case XS_HIDDEN_BLOCK_COUNT_X: return groups[0];
	case XS_HIDDEN_BLOCK_COUNT_Y: return groups[1];
	case XS_HIDDEN_BLOCK_COUNT_Z: return groups[2];
	default: return work_dim; /* XS_HIDDEN_GRID_DIMS */
	}
}

/* The launch's own part: kernarg segment, AQL packet and PM4 with its
 * group counts, addresses and explicit arguments, from t. d: the launch
 * (explicit arguments, ExecuteIndirect's part); NULL for
 * xs_rt_record_again, whose caller writes the explicit arguments into
 * *karg_out afterwards. */
/* An address into the user SGPRs ud at index at (< 0: not enabled). */
#define FILL64(at, v) do { if ((at) >= 0) { ud[(at)] = (uint32_t)(v); ud[(at) + 1] = (uint32_t)((v) >> 32); } } while (0)

static xs_status emit(xs_rt_device *dev, const xs_rt_launch_tmpl *t, xs_rt_cmdmem *mem, xs_pm4_builder *b,
		      const uint32_t groups[3], const xs_rt_launch *d, xs_rt_launch_info *info, uint8_t **karg_out,
		      xs_err *e)
{
	xs_status st;
	*info = t->info;
	uint32_t dims = 1;
	for (int i = 0; i < 3; i++)
		if ((uint64_t)groups[i] * t->block[i] > 1)
			dims = (uint32_t)i + 1;
	uint32_t work_dim = t->work_dim ? t->work_dim : dims;

	/* ---- kernarg segment: explicit arguments, then the hidden ones ---- */
	uint8_t *karg, *pkt;
	/* One allocation: the AQL packet right after the segment (karg_alloc is
	 * a multiple of 256), as xs_rt_record_again has it. */
	if ((st = xs_rt_cmdmem_alloc(mem, t->karg_alloc + AQL_PACKET_SIZE, 256, &info->karg_va, &karg, e)))
		return st;
	info->pkt_va = info->karg_va + t->karg_alloc;
	pkt = karg + t->karg_alloc;
	/* The lines this launch writes, asked for at once: memory a long list
	 * writes is not in the cache, and stores alone fetch their lines one
	 * after another (a 100,000-dispatch list: 90 -> 65 ns a Dispatch). */
	__builtin_prefetch(karg, 1);
	__builtin_prefetch(karg + 64, 1);
	__builtin_prefetch(pkt, 1);
	for (int i = 0; b->dw && i < XS_RT_LAUNCH_PM4_DW; i += 16) /* no buffer yet: it grows below */
		__builtin_prefetch(b->dw + b->cdw + i, 1);
	if (karg_out)
		*karg_out = karg;
	if (d && d->kernargs_size)
		memcpy(karg, d->kernargs, d->kernargs_size);
	if (t->nruns >= 0) {
		for (int i = 0; i < t->nruns; i++)
			memcpy(karg + t->runs[i].lo, t->image + t->runs[i].lo, t->runs[i].hi - t->runs[i].lo);
		for (int i = 0; i < t->npatches; i++)
			put_hidden(karg, t->patches[i].offset, count_value(t->patches[i].kind, groups, work_dim),
				   t->patches[i].size);
	} else { /* only with d: xs_rt_record_again needs runs */
		const xs_codeobj_kernel *k = t->k;
		for (uint32_t i = 0; i < k->info.num_args; i++)
			if (k->arg_hidden[i] != XS_HIDDEN_NOT)
				put_hidden(karg, k->info.args[i].offset,
					   hidden_value(dev, (xs_codeobj_hidden)k->arg_hidden[i], d, work_dim),
					   k->info.args[i].size);
	}

	/* ---- the AQL packet ---- */
	memcpy(pkt, t->aql, AQL_PACKET_SIZE);
	put(pkt, AQL_SETUP, work_dim, 2);
	for (int i = 0; i < 3; i++)
		put(pkt, AQL_GRID_SIZE_X + 4 * i, (uint64_t)groups[i] * t->block[i], 4);
	put(pkt, AQL_KERNARG_ADDRESS, info->karg_va, 8);

	/* ---- PM4: the registers with this launch's addresses, then its dispatch ---- */
	uint64_t id = t->ud_id >= 0 ? __atomic_fetch_add(&dev->dispatch_id, 1, __ATOMIC_RELAXED) : 0;
	bool direct = !d || (!d->indirect_dims_va && !d->indirect_launch_va && !d->ncopies);
	/* The registers this template sets are the builder's still (nothing
	 * set SH registers since its last direct launch): the addresses and
	 * the dispatch alone. */
	if (direct && b->sh_tag == t->tag && !b->predicate && !xs_pm4_builder_failed(b)) {
		uint32_t *ud;
		if (b->cap - b->cdw >= XS_RT_LAUNCH_PM4_AGAIN_DW && b->max_dwords - b->cdw >= t->ndw_again) {
			uint32_t *p = b->dw + b->cdw;
			for (int i = 0; i < XS_RT_LAUNCH_PM4_AGAIN_DW; i++)
				p[i] = t->pm4_again[i];
			b->cdw += t->ndw_again;
			ud = p + 2 - t->again_lo; /* past SET_SH_REG's header and register offset */
			memcpy(p + t->ndw_again_regs + 1, groups, 12);
		} else {
			xs_rt_launch_regs r = t->regs;
			ud = r.ud;
			FILL64(t->ud_pkt, info->pkt_va);
			FILL64(t->ud_karg, info->karg_va);
			FILL64(t->ud_id, id);
			int lo = t->again_lo, n = (int)t->ndw_again_regs - 2;
			if (n > 0)
				xs_pm4_set_sh_reg(b, R_00B900_COMPUTE_USER_DATA_0 + 4 * (unsigned)lo, r.ud + lo, (unsigned)n);
			xs_pm4_dispatch_direct(b, groups[0], groups[1], groups[2], t->initiator);
			ud = NULL;
		}
		if (ud) {
			FILL64(t->ud_pkt, info->pkt_va);
			FILL64(t->ud_karg, info->karg_va);
			FILL64(t->ud_id, id);
		}
		if (xs_pm4_builder_failed(b))
			return xs_err_set(e, b->err.status, "recording: %s", b->err.msg);
		return XS_OK;
	}
	uint32_t ndw = direct ? t->ndw : t->ndw_regs;
	/* XS_LAUNCH (and the copies' DMA) set registers of their own */
	b->sh_tag = direct ? t->tag : 0;
	if (!xs_pm4_builder_failed(b) && b->cap - b->cdw >= XS_RT_LAUNCH_PM4_DW && b->max_dwords - b->cdw >= ndw) {
		/* Room without growing: t's dwords, the holes filled in. All of
		 * them are copied (a constant size: moves, not a call); what lies
		 * past ndw is beyond the recorded dwords, overwritten next. */
		uint32_t *p = b->dw + b->cdw;
		for (int i = 0; i < XS_RT_LAUNCH_PM4_DW; i++)
			p[i] = t->pm4[i];
		b->cdw += ndw;
		uint32_t *ud = p + t->ndw_regs - XS_COMPUTE_USER_DATA_COUNT;
		FILL64(t->ud_pkt, info->pkt_va);
		FILL64(t->ud_karg, info->karg_va);
		FILL64(t->ud_id, id);
		if (direct)
			memcpy(p + t->ndw_regs + 1, groups, 12); /* DISPATCH_DIRECT's DIM_X..Z */
	} else {
		/* The builder grows (or has failed): its own calls, its own messages. */
		xs_rt_launch_regs r = t->regs;
		uint32_t *ud = r.ud;
		FILL64(t->ud_pkt, info->pkt_va);
		FILL64(t->ud_karg, info->karg_va);
		FILL64(t->ud_id, id);
		put_regs(b, &r);
		if (direct)
			xs_pm4_dispatch_direct(b, groups[0], groups[1], groups[2], t->initiator);
	}
	if (!direct) {
		uint64_t lds = (uint64_t)t->k->info.group_segment_fixed_size + d->dynamic_lds;
		if ((st = record_indirect(dev, mem, b, d, info, lds, t->initiator, e)))
			return st;
	}
	if (xs_pm4_builder_failed(b))
		return xs_err_set(e, b->err.status, "recording: %s", b->err.msg);
	return XS_OK;
}

xs_status xs_rt_record_launch(xs_rt_device *dev, xs_rt_cmdmem *mem, xs_pm4_builder *b, const xs_rt_launch *d,
			      xs_rt_launch_info *info, xs_err *e)
{
	xs_status st = xs_rt_check_launch(dev, d, e);
	if (st)
		return st;
	xs_rt_launch_tmpl t;
	if ((st = prepare(dev, b, d, &t, e)))
		return st;
	return emit(dev, &t, mem, b, d->groups, d, info, NULL, e);
}

/* Does t hold what this launch would prepare, and does nothing of the
 * launch need xs_rt_check_launch again? Its rules but those of the group
 * counts (nonzero, at most 2^32 work-items per dimension) depend only on
 * what t was prepared for. */
static bool reusable(const xs_rt_launch_tmpl *t, const xs_pm4_builder *b, const xs_rt_launch *d)
{
	/* Differences or'ed together, one branch (every Dispatch asks). */
	uint64_t diff = ((uintptr_t)t->k ^ (uintptr_t)d->k) | ((uintptr_t)t->mod ^ (uintptr_t)d->mod) |
			(t->ring.va ^ d->ring.va) | (t->ring.size ^ d->ring.size) | (t->ring.per_wave ^ d->ring.per_wave) |
			(t->block[0] ^ d->block[0]) | (t->block[1] ^ d->block[1]) | (t->block[2] ^ d->block[2]) |
			(t->dynamic_lds ^ d->dynamic_lds) | (t->work_dim ^ d->work_dim) | (t->cu_mask ^ d->cu_mask) |
			(t->queue ^ d->queue) | (uint64_t)(t->launch_override ^ d->launch_override) |
			(uint64_t)(t->predicate ^ b->predicate) | d->indirect_dims_va | d->indirect_launch_va | d->ncopies |
			(uint64_t)!d->groups[0] | (uint64_t)!d->groups[1] | (uint64_t)!d->groups[2] |
			(((uint64_t)d->groups[0] * d->block[0] | (uint64_t)d->groups[1] * d->block[1] |
			  (uint64_t)d->groups[2] * d->block[2]) >> 32);
	return t->valid && !diff && d->kernargs_size <= d->k->info.kernarg_size;
}

xs_status xs_rt_record_launch_cached(xs_rt_device *dev, xs_rt_launch_tmpl *t, xs_rt_cmdmem *mem, xs_pm4_builder *b,
				     const xs_rt_launch *d, xs_rt_launch_info *info, xs_err *e)
{
	if (reusable(t, b, d))
		return emit(dev, t, mem, b, d->groups, d, info, NULL, e);
	xs_status st = xs_rt_check_launch(dev, d, e);
	if (!st)
		st = prepare(dev, b, d, t, e);
	if (st) {
		t->valid = false;
		return st;
	}
	return emit(dev, t, mem, b, d->groups, d, info, NULL, e);
}

/* xs_rt_record_again's common case, apart from emit (whose generality
 * costs a Dispatch half its time): the builder's registers are t's and
 * have room, the hidden arguments are runs. The same bytes as emit's. */
xs_status xs_rt_record_again(xs_rt_device *dev, const xs_rt_launch_tmpl *t, xs_rt_cmdmem *mem, xs_pm4_builder *b,
			     const uint32_t groups[3], xs_rt_launch_info *info, uint8_t **karg_out, xs_err *e)
{
	if (b->sh_tag != t->tag || b->predicate || t->nruns < 0 || !t->explicit_apart || xs_pm4_builder_failed(b) ||
	    b->cap - b->cdw < XS_RT_LAUNCH_PM4_AGAIN_DW || b->max_dwords - b->cdw < t->ndw_again)
		return emit(dev, t, mem, b, groups, NULL, info, karg_out, e);
	uint8_t *karg;
	uint64_t va;
	xs_status st = xs_rt_cmdmem_alloc(mem, t->karg_alloc + AQL_PACKET_SIZE, 256, &va, &karg, e);
	if (st)
		return st;
	uint8_t *pkt = karg + t->karg_alloc;
	uint32_t *p = b->dw + b->cdw;
	/* This launch's lines and the next one's, asked for now: a long list
	 * writes memory that is not in the cache, and the next Dispatch's
	 * stores then find their lines on the way (a prefetch past the chunk
	 * or the buffer is dropped, never a fault). */
	size_t stride = t->karg_alloc + 256; /* the next segment: 256-aligned */
	__builtin_prefetch(karg, 1);
	__builtin_prefetch(karg + 64, 1);
	__builtin_prefetch(pkt, 1);
	__builtin_prefetch(p, 1);
	__builtin_prefetch(p + 16, 1);
	__builtin_prefetch(karg + stride, 1);
	__builtin_prefetch(karg + stride + 64, 1);
	__builtin_prefetch(pkt + stride, 1);
	__builtin_prefetch(p + 2 * t->ndw_again, 1);
	*info = t->info;
	info->karg_va = va;
	info->pkt_va = va + t->karg_alloc;
	*karg_out = karg;
	uint32_t dims = groups[2] * t->block[2] > 1 ? 3 : groups[1] * t->block[1] > 1 ? 2 : 1;
	uint32_t work_dim = t->work_dim ? t->work_dim : dims;
	/* the hidden arguments in 32-byte blocks (zeros between them): the
	 * first 128 bytes in four moves (karg_alloc is at least 256) */
	memcpy(karg, t->image, 128);
	for (uint32_t i = 4; i < t->image_blocks; i++)
		memcpy(karg + 32 * i, t->image + 32 * i, 32);
	for (int i = 0; i < t->npatches; i++)
		put_hidden(karg, t->patches[i].offset, count_value(t->patches[i].kind, groups, work_dim),
			   t->patches[i].size);
	memcpy(pkt, t->aql, AQL_PACKET_SIZE);
	put(pkt, AQL_SETUP, work_dim, 2);
	for (int i = 0; i < 3; i++)
		put(pkt, AQL_GRID_SIZE_X + 4 * i, (uint64_t)groups[i] * t->block[i], 4);
	put(pkt, AQL_KERNARG_ADDRESS, va, 8);
	uint64_t id = t->ud_id >= 0 ? __atomic_fetch_add(&dev->dispatch_id, 1, __ATOMIC_RELAXED) : 0;
	for (int i = 0; i < XS_RT_LAUNCH_PM4_AGAIN_DW; i++)
		p[i] = t->pm4_again[i];
	b->cdw += t->ndw_again;
	uint32_t *ud = p + 2 - t->again_lo;
	FILL64(t->ud_pkt, info->pkt_va);
	FILL64(t->ud_karg, va);
	FILL64(t->ud_id, id);
	memcpy(p + t->ndw_again_regs + 1, groups, 12);
	return XS_OK;
}

xs_status xs_rt_check_scratch_space(const xs_rt_device *d, uint64_t va, uint64_t size_bytes, uint64_t per_wave,
				    xs_err *e)
{
	if (va % 1024)
		return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_SCRATCH_DEST_ALIGN, "Destination 0x%llx is not 1 KB aligned",
				  (unsigned long long)va);
	if (size_bytes % 1024)
		return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_SCRATCH_SIZE_ALIGN, "SizeBytes %llu is not 1 KB aligned",
				  (unsigned long long)size_bytes);
	if (per_wave % 1024)
		return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_SCRATCH_PER_WAVE_ALIGN,
				  "SizePerWaveInBytes %llu is not 1 KB aligned", (unsigned long long)per_wave);
	if (!va) {
		if (size_bytes || per_wave)
			return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_SCRATCH_NULL_WITH_SIZES,
					  "with a null Destination SizeBytes and SizePerWaveInBytes must be 0 (got %llu, %llu)",
					  (unsigned long long)size_bytes, (unsigned long long)per_wave);
		return XS_OK; /* S1.4: back to the driver default */
	}
	if (per_wave == 0 || per_wave > size_bytes)
		return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_SCRATCH_PER_WAVE_RANGE,
				  "SizePerWaveInBytes %llu must be non-zero and at most SizeBytes %llu",
				  (unsigned long long)per_wave, (unsigned long long)size_bytes);
	if (per_wave > d->info->max_wave_scratch)
		return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_SCRATCH_WAVESIZE_FIELD,
				  "SizePerWaveInBytes %llu: TMPRING_SIZE.WAVESIZE holds at most %u bytes",
				  (unsigned long long)per_wave, d->info->max_wave_scratch);
	/* The ring's memory must be GPU memory: a ring at an address nobody
	 * allocated would fault later at an address nobody can place. */
	pthread_mutex_lock((pthread_mutex_t *)&d->lock);
	const xs_vm_alloc_rec *r = xs_vm_find(d->vm, va);
	bool inside = r && va + size_bytes <= r->va + r->bytes;
	char where[400];
	where[0] = 0; /* written only for the message: not 400 bytes zeroed per call */
	uint64_t bad = r ? r->va + r->bytes : va;
	if (!inside)
		xs_vm_describe(d->vm, bad, where, sizeof(where));
	pthread_mutex_unlock((pthread_mutex_t *)&d->lock);
	if (!inside)
		return xs_rt_fail(e, XS_E_INVALID_ARG, XS_MSG_SCRATCH_NOT_ALLOCATED,
				  "the scratch space 0x%llx + SizeBytes %llu is not inside one GPU allocation (0x%llx is %s)",
				  (unsigned long long)va, (unsigned long long)size_bytes, (unsigned long long)bad, where);
	return XS_OK;
}
