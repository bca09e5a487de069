/*
 * One kernel dispatch, done as ROCr + the CP firmware do for an AQL packet
 * (LLVM AMDGPUUsage "Initial Kernel Execution State", "Kernel Descriptor";
 * docs/hardware.md sections 3 and 5):
 *
 *   kernarg segment (explicit + hidden arguments) and the AQL dispatch packet
 *   in GPU memory -> scratch ring sized and programmed (COMPUTE_TMPRING_SIZE,
 *   private segment buffer V#) -> user-data registers in the order the
 *   kernel descriptor enables them -> COMPUTE_* registers -> DISPATCH_DIRECT.
 */
#include "api/xs_api_priv.h"
#include "gpu/xs_gpu_occupancy.h"
#include "hw/xs_hw_pm4.h"
#include "pm4/xs_pm4_build.h"

#include <stdio.h>
#include <stdlib.h>
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
	memcpy(b + off, &v, size); /* little-endian host, as the GPU */
}

/* Hidden arguments, filled as ROCr/CLR fill them for a dispatch of whole
 * groups (D3D12 Dispatch has no partial groups, so remainders are 0). */
static uint64_t hidden_value(const char *kind, const xs_dispatch_desc *d, uint32_t dims,
			     uint64_t queue_va, bool *known)
{
	*known = true;
	for (int i = 0; i < 3; i++) {
		char axis = "xyz"[i];
		char name[40];
		snprintf(name, sizeof(name), "hidden_block_count_%c", axis);
		if (!strcmp(kind, name))
			return d->groups[i];
		snprintf(name, sizeof(name), "hidden_group_size_%c", axis);
		if (!strcmp(kind, name))
			return d->block[i];
		snprintf(name, sizeof(name), "hidden_remainder_%c", axis);
		if (!strcmp(kind, name))
			return 0;
		snprintf(name, sizeof(name), "hidden_global_offset_%c", axis);
		if (!strcmp(kind, name))
			return 0;
	}
	if (!strcmp(kind, "hidden_grid_dims"))
		return dims;
	if (!strcmp(kind, "hidden_queue_ptr"))
		return queue_va;
	if (!strcmp(kind, "hidden_dynamic_lds_size"))
		return d->dynamic_lds;
	if (!strcmp(kind, "hidden_private_base"))
		return (uint64_t)XS_APERTURE_PRIVATE_HI16 << 16; /* high 32 bits of the aperture */
	if (!strcmp(kind, "hidden_shared_base"))
		return (uint64_t)XS_APERTURE_SHARED_HI16 << 16;
	/* hidden_none, printf/hostcall buffers, default queue, completion
	 * action, multigrid sync, heap: no such service here -> null. */
	*known = !strncmp(kind, "hidden_", 7);
	return 0;
}

/* Makes sure the driver's default scratch allocation (one, shared by every
 * queue: SPEC S1.8) holds `bytes`. Like ROCr, it grows and never shrinks. */
static xs_status ensure_scratch(xs_device *dev, uint64_t bytes, xs_err *e)
{
	if (bytes <= dev->scratch_size)
		return XS_OK;
	if (dev->scratch_va)
		xs_vm_free(dev->vm, dev->scratch_va, NULL);
	dev->scratch_va = dev->scratch_size = 0;
	xs_status st = xs_vm_alloc(dev->vm, bytes, 1024, &dev->scratch_va, e);
	if (st == XS_OK) {
		dev->scratch_size = bytes;
		xs_vm_set_name(dev->vm, dev->scratch_va, "the driver's default scratch ring (shared by every queue, S1.8)", e);
	}
	return st;
}

/* A dispatch made ready to run: its memory written and its register
 * values computed, waiting for its turn on its queue. */
typedef struct prepared {
	const xs_dispatch_desc *d;
	const xs_codeobj_kernel *k;
	uint64_t karg_va, pkt_va;
	uint32_t ud[XS_COMPUTE_USER_DATA_COUNT];
	uint32_t rsrc2, tmpring, initiator;
	uint32_t cu_regs[XS_MAX_SE];
	uint64_t per_wave;
	bool scratch_en, default_ring;
	xs_gpu_dispatch_result r;
	uint32_t phase, r_index;
} prepared;

static xs_status check_desc(xs_device *dev, const xs_dispatch_desc *d, xs_err *e)
{
	const xs_devinfo *di = dev->info;
	if (!d || !d->kernel || !d->module)
		return xs_err_set(e, XS_E_INVALID_ARG, "xs_dispatch: NULL descriptor, kernel or module");
	const xs_codeobj *co = d->module->co;
	const xs_codeobj_kernel *k = (const xs_codeobj_kernel *)d->kernel;
	if (k < co->kernels || k >= co->kernels + co->nkernels)
		return xs_err_set(e, XS_E_INVALID_ARG, "xs_dispatch: the kernel is not from this module");
	const xs_kernel_info *ki = &k->info;
	if (d->queue >= XS_GPU_MAX_QUEUES)
		return xs_err_set(e, XS_E_INVALID_ARG, "%s: queue %u: there are %u (0 direct, 1..%u async compute)",
				  ki->name, d->queue, XS_GPU_MAX_QUEUES, XS_GPU_MAX_QUEUES - 1);
	uint32_t threads = 1;
	for (int i = 0; i < 3; i++) {
		if (d->groups[i] == 0 || d->block[i] == 0)
			return xs_err_set(e, XS_E_INVALID_ARG, "%s: groups and block must be >= 1 in %c (got %u, %u)",
					  ki->name, "XYZ"[i], d->groups[i], d->block[i]);
		if (d->block[i] > 0xffff)
			return xs_err_set(e, XS_E_INVALID_ARG, "%s: block %c = %u does not fit COMPUTE_NUM_THREAD_%c (16 bits)",
					  ki->name, "XYZ"[i], d->block[i], "XYZ"[i]);
		if ((uint64_t)d->groups[i] * d->block[i] > UINT32_MAX)
			return xs_err_set(e, XS_E_INVALID_ARG, "%s: grid size in %c is over 2^32 work-items",
					  ki->name, "XYZ"[i]);
		threads *= d->block[i];
	}
	if (d->work_dim > 3)
		return xs_err_set(e, XS_E_INVALID_ARG, "%s: work_dim %u is not 1..3", ki->name, d->work_dim);
	if (threads > di->max_group_threads || threads > ki->max_flat_workgroup_size)
		return xs_err_set(e, XS_E_INVALID_ARG,
				  "%s: a group of %u threads is over the kernel's .max_flat_workgroup_size %u",
				  ki->name, threads, XS_MIN(ki->max_flat_workgroup_size, di->max_group_threads));
	uint64_t lds = (uint64_t)ki->group_segment_fixed_size + d->dynamic_lds;
	if (lds > di->lds_max_per_group)
		return xs_err_set(e, XS_E_INVALID_ARG,
				  "%s: %llu bytes of LDS per group (static %u + dynamic %u): at most %u (SPEC S3.3)",
				  ki->name, (unsigned long long)lds, ki->group_segment_fixed_size, d->dynamic_lds,
				  di->lds_max_per_group);
	if (d->kernargs_size > ki->kernarg_size)
		return xs_err_set(e, XS_E_INVALID_ARG, "%s: %zu bytes of arguments for a %u-byte kernarg segment",
				  ki->name, d->kernargs_size, ki->kernarg_size);
	uint64_t all = di->num_cu >= 64 ? ~0ull : (1ull << di->num_cu) - 1;
	if (d->cu_mask & ~all)
		return xs_err_set(e, XS_E_INVALID_ARG, "%s: CU mask 0x%llx has bits above CU %u: %s has %u CUs",
				  ki->name, (unsigned long long)d->cu_mask, di->num_cu - 1, di->name, di->num_cu);
	if (d->cu_mask && ki->wgp_mode) {
		/* WGP mode: a group takes a whole WGP, CUs 2n and 2n + 1 (the SPI's rule). */
		uint64_t pairs = d->cu_mask & (d->cu_mask >> 1) & 0x5555555555555555ull;
		if (!pairs)
			return xs_err_set(e, XS_E_INVALID_ARG,
					  "%s: CU mask 0x%llx enables no whole WGP: a WGP-mode kernel needs both CUs of "
					  "a WGP (CUs 2n and 2n+1), e.g. 0x3", ki->name, (unsigned long long)d->cu_mask);
	}
	return XS_OK;
}

static xs_status prepare(xs_device *dev, const xs_dispatch_desc *d, prepared *p, xs_err *e)
{
	const xs_devinfo *di = dev->info;
	const xs_codeobj_kernel *k = (const xs_codeobj_kernel *)d->kernel;
	const xs_kernel_info *ki = &k->info;
	xs_status st;
	memset(p, 0, sizeof(*p));
	p->d = d;
	p->k = k;
	uint32_t dims = 1;
	for (int i = 0; i < 3; i++)
		if (d->groups[i] * d->block[i] > 1)
			dims = (uint32_t)i + 1;
	uint32_t work_dim = d->work_dim ? d->work_dim : dims;
	uint64_t lds = (uint64_t)ki->group_segment_fixed_size + d->dynamic_lds;

	/* ---- kernarg segment: explicit arguments, then the hidden ones ---- */
	uint32_t karg_bytes = XS_MAX(ki->kernarg_size, 16u);
	uint8_t *karg = calloc(1, karg_bytes);
	if (!karg)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
	if (d->kernargs_size)
		memcpy(karg, d->kernargs, d->kernargs_size);
	for (uint32_t i = 0; i < ki->num_args; i++) {
		const xs_kernel_arg *a = &ki->args[i];
		if (a->kind != XS_ARG_HIDDEN)
			continue;
		bool known;
		uint64_t v = hidden_value(a->value_kind, d, work_dim, dev->queue_va, &known);
		if (a->offset + (uint64_t)a->size > karg_bytes || a->size > 8) {
			free(karg);
			return xs_err_set(e, XS_E_BAD_CODE_OBJECT, "%s: hidden argument %s at %u+%u is outside the kernarg segment",
					  ki->name, a->value_kind, a->offset, a->size);
		}
		put(karg, a->offset, v, a->size);
	}

	/* ---- scratch (SPEC S1.11: per wave = roundup(lane bytes x wave size, 1 KiB)) ---- */
	uint32_t wave_size = ki->wavefront_size;
	const xs_scratch_ring *ring = &dev->ring[d->queue];
	uint64_t scratch_base = 0, ring_bytes = 0;
	p->per_wave = xs_gpu_scratch_per_wave(di, ki->rsrc2, ki->private_segment_fixed_size, wave_size);
	p->scratch_en = G_00B84C_SCRATCH_EN(ki->rsrc2);
	if (p->per_wave > di->max_wave_scratch) {
		free(karg);
		return xs_err_set(e, XS_E_INVALID_ARG, "%s: %llu bytes of scratch per wave: COMPUTE_TMPRING_SIZE.WAVESIZE "
				  "holds at most %u", ki->name, (unsigned long long)p->per_wave, di->max_wave_scratch);
	}
	if (p->scratch_en) {
		uint32_t waves;
		if (ring->va) {
			/* The title's ring (SetShaderScratchSpaceX, S1.1): its slots must hold
			 * what this pipeline needs per wave (S1.11). */
			if (ring->per_wave < p->per_wave) {
				free(karg);
				return xs_err_set(e, XS_E_INVALID_ARG,
						  "%s needs %llu KiB of scratch per wave (S1.11) but queue %u's scratch "
						  "space has %llu KiB slots (S1.6)", ki->name,
						  (unsigned long long)p->per_wave / 1024, d->queue,
						  (unsigned long long)ring->per_wave / 1024);
			}
			p->per_wave = ring->per_wave;
			waves = (uint32_t)XS_MIN(ring->size / ring->per_wave, (uint64_t)G_00B860_WAVES(~0u)); /* field max */
			scratch_base = ring->va;
			ring_bytes = ring->size;
		} else {
			p->default_ring = true;
			waves = dev->scratch_waves;
			if ((st = ensure_scratch(dev, p->per_wave * waves, e))) {
				free(karg);
				return st;
			}
			scratch_base = dev->scratch_va;
			ring_bytes = dev->scratch_size;
		}
		p->tmpring = S_00B860_WAVES(waves) | S_00B860_WAVESIZE(p->per_wave / di->scratch_wavesize_granule);
	}

	/* ---- kernarg segment and AQL packet in GPU memory ---- */
	/* Whole pages: a scalar load may read past the segment's last byte
	 * (s_load_dwordx8 of the last arguments), which real kernarg memory allows. */
	if ((st = xs_vm_alloc(dev->vm, XS_ALIGN_UP(karg_bytes, XS_VM_PAGE_SIZE), 64, &p->karg_va, e)) ||
	    (st = xs_vm_alloc(dev->vm, XS_VM_PAGE_SIZE, 64, &p->pkt_va, e))) {
		free(karg);
		return st;
	}
	xs_vm_write(dev->vm, p->karg_va, karg, karg_bytes, NULL);
	free(karg);
	uint8_t pkt[AQL_PACKET_SIZE] = { 0 };
	put(pkt, AQL_HEADER, AQL_PACKET_TYPE_KERNEL_DISPATCH, 2);
	put(pkt, AQL_SETUP, work_dim, 2);
	for (int i = 0; i < 3; i++) {
		put(pkt, AQL_WORKGROUP_SIZE_X + 2 * i, d->block[i], 2);
		put(pkt, AQL_GRID_SIZE_X + 4 * i, (uint64_t)d->groups[i] * d->block[i], 4);
	}
	put(pkt, AQL_PRIVATE_SEGMENT_SIZE, ki->private_segment_fixed_size, 4);
	put(pkt, AQL_GROUP_SEGMENT_SIZE, (uint32_t)lds, 4);
	put(pkt, AQL_KERNEL_OBJECT, d->module->load_va + k->kd_vaddr, 8);
	put(pkt, AQL_KERNARG_ADDRESS, p->karg_va, 8);
	xs_vm_write(dev->vm, p->pkt_va, pkt, sizeof(pkt), NULL);

	/* ---- user SGPRs in descriptor order ---- */
	uint32_t *ud = p->ud;
	uint32_t n = 0;
	uint16_t kcp = ki->kernel_code_properties;
#define PUSH64(v) do { uint64_t v_ = (v); if (n + 2 <= XS_COMPUTE_USER_DATA_COUNT) { ud[n] = (uint32_t)v_; ud[n + 1] = (uint32_t)(v_ >> 32); } n += 2; } while (0)
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
		PUSH64(p->pkt_va);
	if (kcp & XS_KCP_ENABLE_SGPR_QUEUE_PTR)
		PUSH64(dev->queue_va);
	if (kcp & XS_KCP_ENABLE_SGPR_KERNARG_SEGMENT_PTR)
		PUSH64(p->karg_va);
	if (kcp & XS_KCP_ENABLE_SGPR_DISPATCH_ID)
		PUSH64(dev->dispatch_id);
	if (kcp & XS_KCP_ENABLE_SGPR_FLAT_SCRATCH_INIT)
		PUSH64(scratch_base); /* absolute flat scratch: the prolog adds the wave offset */
	if (kcp & XS_KCP_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE) {
		if (n < XS_COMPUTE_USER_DATA_COUNT)
			ud[n] = ki->private_segment_fixed_size;
		n++;
	}
#undef PUSH64
	dev->dispatch_id++;
	uint32_t rsrc2_sgprs = G_00B84C_USER_SGPR(ki->rsrc2);
	if (n > XS_COMPUTE_USER_DATA_COUNT || rsrc2_sgprs < n)
		return xs_err_set(e, XS_E_BAD_CODE_OBJECT,
				  "%s: kernel_code_properties enable %u user SGPRs but COMPUTE_PGM_RSRC2.USER_SGPR "
				  "is %u (at most %u)", ki->name, n, rsrc2_sgprs, XS_COMPUTE_USER_DATA_COUNT);
	p->rsrc2 = (ki->rsrc2 & C_00B84C_LDS_SIZE) | S_00B84C_LDS_SIZE(XS_DIV_ROUND_UP(lds, di->lds_encode_granule));
	p->initiator = S_00B800_COMPUTE_SHADER_EN(1) | S_00B800_FORCE_START_AT_000(1) | S_00B800_ORDER_MODE(1) |
		       S_00B800_CS_W32_EN(wave_size == 32);
	xs_gpu_cu_mask_regs(dev->gpu, d->cu_mask ? d->cu_mask : ~0ull, p->cu_regs);
	return XS_OK;
}

/* Records the dispatch as PM4, as a driver's command list does: the
 * registers of the packet (SET_SH_REG, CU masks with SET_SH_REG_INDEX
 * index 3) and DISPATCH_DIRECT. */
static void record(xs_pm4_builder *b, const prepared *p)
{
	const xs_dispatch_desc *d = p->d;
	const xs_kernel_info *ki = &p->k->info;
	uint64_t entry = d->module->load_va + p->k->entry_vaddr;
	uint32_t pgm[2] = { (uint32_t)(entry >> 8), S_00B834_DATA(entry >> 40) };
	uint32_t rsrc[2] = { ki->rsrc1, p->rsrc2 };
	uint32_t start_nt[6] = { 0 }; /* COMPUTE_START_X..Z = 0, then COMPUTE_NUM_THREAD_X..Z */
	for (int i = 0; i < 3; i++)
		start_nt[3 + i] = S_00B81C_NUM_THREAD_FULL(d->block[i]) | S_00B81C_NUM_THREAD_PARTIAL(d->block[i]);
	xs_pm4_set_sh_reg(b, R_00B830_COMPUTE_PGM_LO, pgm, 2);
	xs_pm4_set_sh_reg(b, R_00B848_COMPUTE_PGM_RSRC1, rsrc, 2);
	xs_pm4_set_sh_reg1(b, R_00B8A0_COMPUTE_PGM_RSRC3, ki->rsrc3);
	xs_pm4_set_sh_reg(b, R_00B810_COMPUTE_START_X, start_nt, 6);
	xs_pm4_set_sh_reg1(b, R_00B854_COMPUTE_RESOURCE_LIMITS, 0);
	xs_pm4_set_sh_reg1(b, R_00B860_COMPUTE_TMPRING_SIZE, p->tmpring);
	xs_pm4_set_sh_reg_index(b, R_00B858_COMPUTE_STATIC_THREAD_MGMT_SE0, V_SET_SH_REG_INDEX_APPLY_KMD_CU_AND_MASK,
				p->cu_regs, 2);
	xs_pm4_set_sh_reg_index(b, R_00B864_COMPUTE_STATIC_THREAD_MGMT_SE2, V_SET_SH_REG_INDEX_APPLY_KMD_CU_AND_MASK,
				p->cu_regs + 2, 2);
	xs_pm4_set_sh_reg(b, R_00B900_COMPUTE_USER_DATA_0, p->ud, XS_COMPUTE_USER_DATA_COUNT);
	xs_pm4_dispatch_direct(b, d->groups[0], d->groups[1], d->groups[2], p->initiator);
}

static void fill_stats(const xs_device *dev, const prepared *p, xs_dispatch_stats *s, double host)
{
	const xs_gpu_dispatch_result *r = &p->r;
	*s = (xs_dispatch_stats){
		.waves_launched = r->waves_launched,
		.wave_instructions = r->wave_insts,
		.start_cycle = r->start_cycle,
		.end_cycle = r->end_cycle,
		.cycles = r->cycles,
		.microseconds = (double)r->cycles / dev->info->sclk_mhz,
		.peak_waves_in_flight = r->peak_waves,
		.peak_waves_per_simd = r->peak_waves_per_simd,
		.avg_waves_per_simd = r->avg_waves_per_simd,
		.peak_scratch_slots = r->peak_scratch_slots,
		.scratch_waves = p->scratch_en ? r->scratch_slots : 0,
		.scratch_wavesize_kb = p->scratch_en ? (uint32_t)(p->per_wave / 1024) : 0,
		.num_cu = dev->info->num_cu,
		.host_seconds = host,
	};
	_Static_assert((int)XS_WAIT_COUNT == (int)XS_GPU_WAIT_COUNT, "wait causes");
	_Static_assert((int)XS_MAX_CUS == (int)XS_GPU_MAX_CU, "CU count");
	memcpy(s->wait_cycles, r->wait_cycles, sizeof(s->wait_cycles));
	memcpy(s->cu_busy_cycles, r->cu_busy, sizeof(s->cu_busy_cycles));
}

XS_API xs_status xs_dispatch_batch(xs_device *dev, const xs_dispatch_desc *descs, uint32_t n,
				   xs_dispatch_stats *stats)
{
	if (!dev || (!descs && n))
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_dispatch_batch: NULL device or descriptors");
	if (n > XS_GPU_MAX_ACTIVE)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_dispatch_batch: at most %d dispatches at once",
				    XS_GPU_MAX_ACTIVE);
	double t0 = xs_now_seconds();
	xs_err e = { 0 };
	prepared p[XS_GPU_MAX_ACTIVE];
	uint32_t ready = 0;
	xs_status st = XS_OK;
	for (uint32_t i = 0; i < n && !st; i++)
		if (!(st = check_desc(dev, &descs[i], &e)) && !(st = prepare(dev, &descs[i], &p[i], &e)))
			ready++;
	/* Command buffers, one per queue, submitted together.
	 * SPEC S1.8: the driver's default scratch is one allocation shared by
	 * every queue, so scratch-using dispatches of different queues cannot
	 * run side by side: each one that would starts a new phase. A queue
	 * ends each phase with an end-of-pipe fence (RELEASE_MEM) and begins
	 * the next by waiting (WAIT_REG_MEM) for every other queue's fence, as a
	 * driver synchronises queues. Title rings (xs_set_scratch_space) do not
	 * share and overlap (S1.9). */
	xs_pm4_builder cb[XS_GPU_MAX_QUEUES];
	uint64_t cb_va[XS_GPU_MAX_QUEUES] = { 0 }, fence_va = 0;
	xs_gpu_dispatch_result *res = calloc(n ? n : 1, sizeof(*res));
	uint32_t nres[XS_GPU_MAX_QUEUES] = { 0 }, res_base[XS_GPU_MAX_QUEUES] = { 0 };
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
		xs_pm4_builder_init(&cb[q], 0);
	if (!st && !res)
		st = xs_err_set(&e, XS_E_OUT_OF_MEMORY, "host out of memory");
	if (!st) {
		uint32_t phase = 0;
		bool used[XS_GPU_MAX_QUEUES] = { 0 };
		for (uint32_t i = 0; i < n; i++) {
			for (uint32_t j = 0; j < i; j++)
				if (p[j].phase == phase && p[i].default_ring && p[j].default_ring &&
				    descs[j].queue != descs[i].queue)
					phase++;
			p[i].phase = phase;
			used[descs[i].queue] = true;
		}
		if (phase && (st = xs_vm_alloc(dev->vm, XS_GPU_MAX_QUEUES * 4, 256, &fence_va, &e)))
			goto submit_done;
		if (fence_va)
			xs_vm_fill(dev->vm, fence_va, 0, XS_GPU_MAX_QUEUES * 4, NULL);
		/* Results in queue order: the CP fills them dispatch by dispatch. */
		uint32_t k = 0;
		for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++) {
			res_base[q] = k;
			for (uint32_t i = 0; i < n; i++)
				if (descs[i].queue == q)
					k++;
		}
		for (uint32_t ph = 0; ph <= phase; ph++)
			for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++) {
				if (!used[q])
					continue;
				if (ph > 0)
					for (unsigned o = 0; o < XS_GPU_MAX_QUEUES; o++)
						if (o != q && used[o])
							xs_pm4_wait_reg_mem(&cb[q], WAIT_REG_MEM_GREATER_OR_EQUAL, fence_va + 4 * o,
									    ph, 0xffffffffu);
				for (uint32_t i = 0; i < n; i++)
					if (descs[i].queue == q && p[i].phase == ph) {
						record(&cb[q], &p[i]);
						p[i].r_index = res_base[q] + nres[q]++;
					}
				if (ph < phase)
					xs_pm4_fence(&cb[q], fence_va + 4 * q, ph + 1, false);
			}
		xs_api_sub subs[XS_GPU_MAX_QUEUES];
		uint32_t nsub = 0;
		for (unsigned q = 0; q < XS_GPU_MAX_QUEUES && !st; q++) {
			if (!cb[q].cdw)
				continue;
			if (xs_pm4_builder_failed(&cb[q])) {
				st = xs_err_set(&e, cb[q].err.status, "recording queue %u: %s", q, cb[q].err.msg);
				break;
			}
			if (!(st = xs_vm_alloc(dev->vm, cb[q].cdw * 4, 256, &cb_va[q], &e))) {
				xs_vm_write(dev->vm, cb_va[q], cb[q].dw, cb[q].cdw * 4, NULL);
				st = xs_gpu_submit(dev->gpu, q, cb_va[q], (uint32_t)cb[q].cdw, res + res_base[q], nres[q], &e);
				subs[nsub++] = (xs_api_sub){ q, cb_va[q], (uint32_t)cb[q].cdw, nres[q] };
			}
		}
		if (!st) {
			xs_api_record_before(dev, subs, nsub);
			st = xs_gpu_execute(dev->gpu, &e);
			xs_api_record_after(dev, st, res, n);
		}
		for (uint32_t i = 0; i < ready; i++)
			p[i].r = res[p[i].r_index];
	}
submit_done:
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++) {
		xs_pm4_builder_free(&cb[q]);
		if (cb_va[q])
			xs_vm_free(dev->vm, cb_va[q], NULL);
	}
	if (fence_va)
		xs_vm_free(dev->vm, fence_va, NULL);
	free(res);
	double host = xs_now_seconds() - t0;
	for (uint32_t i = 0; i < ready; i++) {
		if (stats)
			fill_stats(dev, &p[i], &stats[i], host);
		xs_vm_free(dev->vm, p[i].karg_va, NULL);
		xs_vm_free(dev->vm, p[i].pkt_va, NULL);
	}
	return st ? xs_api_fail(dev, &e) : XS_OK;
}

XS_API xs_status xs_dispatch(xs_device *dev, const xs_dispatch_desc *d, xs_dispatch_stats *stats)
{
	return xs_dispatch_batch(dev, d, d ? 1 : 0, stats);
}

/* SetShaderScratchSpaceX for one queue's compute ring (SPEC S1). */
XS_API xs_status xs_set_scratch_space(xs_device *dev, uint32_t queue, uint64_t va, uint64_t size_bytes,
				      uint32_t size_per_wave)
{
	if (!dev)
		return xs_api_failf(NULL, XS_E_INVALID_ARG, "xs_set_scratch_space: NULL device");
	if (queue >= XS_GPU_MAX_QUEUES)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_set_scratch_space: no queue %u", queue);
	if (va % 1024)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "S1.3: Destination 0x%llx is not 1 KB aligned",
				    (unsigned long long)va);
	if (size_bytes % 1024)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "S1.5: SizeBytes %llu is not 1 KB aligned",
				    (unsigned long long)size_bytes);
	if (size_per_wave % 1024)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "S1.6: SizePerWaveInBytes %u is not 1 KB aligned",
				    size_per_wave);
	if (!va) {
		if (size_bytes || size_per_wave)
			return xs_api_failf(dev, XS_E_INVALID_ARG,
					    "S1.5/S1.6: with a null Destination SizeBytes and SizePerWaveInBytes must be 0 "
					    "(got %llu, %u)", (unsigned long long)size_bytes, size_per_wave);
		dev->ring[queue] = (xs_scratch_ring){ 0 }; /* S1.4: back to the driver default */
		return XS_OK;
	}
	if (size_per_wave == 0 || size_per_wave > size_bytes)
		return xs_api_failf(dev, XS_E_INVALID_ARG,
				    "S1.6: SizePerWaveInBytes %u must be non-zero and at most SizeBytes %llu",
				    size_per_wave, (unsigned long long)size_bytes);
	if (size_per_wave > dev->info->max_wave_scratch)
		return xs_api_failf(dev, XS_E_INVALID_ARG,
				    "SizePerWaveInBytes %u: COMPUTE_TMPRING_SIZE.WAVESIZE holds at most %u bytes",
				    size_per_wave, dev->info->max_wave_scratch);
	/* The ring's memory must be GPU memory: a ring at an address nobody
	 * allocated would fault later at an address nobody can place. */
	const xs_vm_alloc_rec *r = xs_vm_find(dev->vm, va);
	if (!r || va + size_bytes > r->va + r->bytes) {
		char where[400];
		xs_vm_describe(dev->vm, r ? r->va + r->bytes : va, where, sizeof(where));
		return xs_api_failf(dev, XS_E_INVALID_ARG,
				    "S1.5: the scratch space 0x%llx + SizeBytes %llu is not inside one GPU allocation "
				    "(0x%llx is %s)", (unsigned long long)va, (unsigned long long)size_bytes,
				    (unsigned long long)(r ? r->va + r->bytes : va), where);
	}
	/* S1.10: memory is not checked for reuse; the title owns it. */
	dev->ring[queue] = (xs_scratch_ring){ .va = va, .size = size_bytes, .per_wave = size_per_wave };
	return XS_OK;
}
