/*
 * One kernel dispatch, done as ROCr + the CP firmware do for an AQL packet
 * (LLVM AMDGPUUsage "Initial Kernel Execution State", "Kernel Descriptor";
 * ../shared/reference/gfx103-registers.md sections 1 and 6):
 *
 *   kernarg segment (explicit + hidden arguments) and the AQL dispatch packet
 *   in GPU memory -> scratch ring sized and programmed (COMPUTE_TMPRING_SIZE,
 *   private segment buffer V#) -> user-data registers in the order the
 *   kernel descriptor enables them -> COMPUTE_* registers -> DISPATCH_DIRECT.
 */
#include "api/xs_api_priv.h"

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

/* Makes sure the compute ring's memory holds `waves` slots of `per_wave`
 * bytes. Like ROCr, xs12 grows the ring and never shrinks it. */
static xs_status ensure_scratch(xs_device *dev, uint64_t bytes, xs_err *e)
{
	if (bytes <= dev->scratch_size)
		return XS_OK;
	if (dev->scratch_va)
		xs_vm_free(dev->vm, dev->scratch_va, NULL);
	dev->scratch_va = dev->scratch_size = 0;
	xs_status st = xs_vm_alloc(dev->vm, bytes, 1024, &dev->scratch_va, e);
	if (st == XS_OK)
		dev->scratch_size = bytes;
	return st;
}

XS_API xs_status xs_dispatch(xs_device *dev, const xs_dispatch_desc *d, xs_dispatch_stats *stats)
{
	if (!dev || !d || !d->kernel || !d->module)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_dispatch: NULL device, descriptor, kernel or module");
	const xs_devinfo *di = dev->info;
	const xs_codeobj *co = d->module->co;
	const xs_codeobj_kernel *k = (const xs_codeobj_kernel *)d->kernel;
	if (k < co->kernels || k >= co->kernels + co->nkernels)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "xs_dispatch: the kernel is not from this module");
	const xs_kernel_info *ki = &k->info;
	double t0 = xs_now_seconds();

	/* ---- argument checks (each names the rule) ---- */
	uint32_t threads = 1;
	uint32_t dims = 1;
	for (int i = 0; i < 3; i++) {
		if (d->groups[i] == 0 || d->block[i] == 0)
			return xs_api_failf(dev, XS_E_INVALID_ARG, "%s: groups and block must be >= 1 in %c (got %u, %u)",
					    ki->name, "XYZ"[i], d->groups[i], d->block[i]);
		if (d->block[i] > 0xffff)
			return xs_api_failf(dev, XS_E_INVALID_ARG, "%s: block %c = %u does not fit COMPUTE_NUM_THREAD_%c (16 bits)",
					    ki->name, "XYZ"[i], d->block[i], "XYZ"[i]);
		if ((uint64_t)d->groups[i] * d->block[i] > UINT32_MAX)
			return xs_api_failf(dev, XS_E_INVALID_ARG, "%s: grid size in %c is over 2^32 work-items",
					    ki->name, "XYZ"[i]);
		threads *= d->block[i];
		if (d->groups[i] * d->block[i] > 1)
			dims = (uint32_t)i + 1;
	}
	uint32_t work_dim = d->work_dim ? d->work_dim : dims;
	if (work_dim > 3)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "%s: work_dim %u is not 1..3", ki->name, work_dim);
	if (threads > di->max_group_threads || threads > ki->max_flat_workgroup_size)
		return xs_api_failf(dev, XS_E_INVALID_ARG,
				    "%s: a group of %u threads is over the kernel's .max_flat_workgroup_size %u",
				    ki->name, threads, XS_MIN(ki->max_flat_workgroup_size, di->max_group_threads));
	uint64_t lds = (uint64_t)ki->group_segment_fixed_size + d->dynamic_lds;
	if (lds > di->lds_max_per_group)
		return xs_api_failf(dev, XS_E_INVALID_ARG,
				    "%s: %llu bytes of LDS per group (static %u + dynamic %u): at most %u (SPEC S3.3)",
				    ki->name, (unsigned long long)lds, ki->group_segment_fixed_size,
				    d->dynamic_lds, di->lds_max_per_group);
	if (d->kernargs_size > ki->kernarg_size)
		return xs_api_failf(dev, XS_E_INVALID_ARG, "%s: %zu bytes of arguments for a %u-byte kernarg segment",
				    ki->name, d->kernargs_size, ki->kernarg_size);

	xs_err e = { 0 };
	uint64_t karg_va = 0, pkt_va = 0;
	xs_status st = XS_OK;
	uint32_t karg_bytes = XS_MAX(ki->kernarg_size, 16u);
	uint8_t *karg = calloc(1, karg_bytes);
	if (!karg)
		return xs_api_failf(dev, XS_E_OUT_OF_MEMORY, "host out of memory");
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
			return xs_api_failf(dev, XS_E_BAD_CODE_OBJECT, "%s: hidden argument %s at %u+%u is outside the kernarg segment",
					    ki->name, a->value_kind, a->offset, a->size);
		}
		put(karg, a->offset, v, a->size);
	}

	/* ---- scratch (SPEC S1.11: per wave = roundup(lane bytes x wave size, 1 KiB)) ---- */
	uint32_t wave_size = ki->wavefront_size;
	uint64_t per_wave = XS_ALIGN_UP((uint64_t)ki->private_segment_fixed_size * wave_size,
					(uint64_t)di->scratch_wavesize_granule);
	bool scratch_en = G_00B84C_SCRATCH_EN(ki->rsrc2);
	uint32_t tmpring = 0;
	uint64_t scratch_base = 0;
	if (per_wave > di->max_wave_scratch) {
		free(karg);
		return xs_api_failf(dev, XS_E_INVALID_ARG, "%s: %llu bytes of scratch per wave: COMPUTE_TMPRING_SIZE.WAVESIZE "
				    "holds at most %u", ki->name, (unsigned long long)per_wave, di->max_wave_scratch);
	}
	if (scratch_en) {
		if (per_wave == 0)
			per_wave = di->scratch_wavesize_granule; /* SCRATCH_EN with no size: one unit */
		st = ensure_scratch(dev, per_wave * dev->scratch_waves, &e);
		if (st)
			goto out;
		scratch_base = dev->scratch_va;
		tmpring = S_00B860_WAVES(dev->scratch_waves) |
			  S_00B860_WAVESIZE(per_wave / di->scratch_wavesize_granule);
	}

	/* ---- kernarg segment and AQL packet in GPU memory ---- */
	if ((st = xs_vm_alloc(dev->vm, karg_bytes, 64, &karg_va, &e)) ||
	    (st = xs_vm_alloc(dev->vm, AQL_PACKET_SIZE, 64, &pkt_va, &e)))
		goto out;
	xs_vm_write(dev->vm, karg_va, karg, karg_bytes, NULL);
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
	put(pkt, AQL_KERNARG_ADDRESS, karg_va, 8);
	xs_vm_write(dev->vm, pkt_va, pkt, sizeof(pkt), NULL);

	/* ---- user SGPRs in descriptor order ---- */
	uint32_t ud[XS_COMPUTE_USER_DATA_COUNT] = { 0 };
	uint32_t n = 0;
	uint16_t kcp = ki->kernel_code_properties;
#define PUSH64(v) do { uint64_t v_ = (v); if (n + 2 <= XS_COMPUTE_USER_DATA_COUNT) { ud[n] = (uint32_t)v_; ud[n + 1] = (uint32_t)(v_ >> 32); } n += 2; } while (0)
	if (kcp & XS_KCP_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER) {
		/* ROCr's scratch V# for gfx10; INDEX_STRIDE is "filled in by CP" to
		 * match the wave size, which is what this does. */
		if (n + 4 <= XS_COMPUTE_USER_DATA_COUNT) {
			ud[n + 0] = (uint32_t)scratch_base;
			ud[n + 1] = S_008F04_BASE_ADDRESS_HI(scratch_base >> 32) | S_008F04_SWIZZLE_ENABLE(1);
			ud[n + 2] = (uint32_t)XS_MIN(dev->scratch_size, (uint64_t)UINT32_MAX);
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
		PUSH64(pkt_va);
	if (kcp & XS_KCP_ENABLE_SGPR_QUEUE_PTR)
		PUSH64(dev->queue_va);
	if (kcp & XS_KCP_ENABLE_SGPR_KERNARG_SEGMENT_PTR)
		PUSH64(karg_va);
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
	uint32_t rsrc2_sgprs = G_00B84C_USER_SGPR(ki->rsrc2);
	if (n > XS_COMPUTE_USER_DATA_COUNT || rsrc2_sgprs < n) {
		st = xs_err_set(&e, XS_E_BAD_CODE_OBJECT,
				"%s: kernel_code_properties enable %u user SGPRs but COMPUTE_PGM_RSRC2.USER_SGPR "
				"is %u (at most %u)", ki->name, n, rsrc2_sgprs, XS_COMPUTE_USER_DATA_COUNT);
		goto out;
	}

	/* ---- registers, as the CP programs them from the packet ---- */
	xs_gpu *g = dev->gpu;
	const unsigned q = 0;
	uint64_t entry = d->module->load_va + k->entry_vaddr;
	xs_gpu_set_sh_reg(g, q, R_00B830_COMPUTE_PGM_LO, (uint32_t)(entry >> 8));
	xs_gpu_set_sh_reg(g, q, R_00B834_COMPUTE_PGM_HI, S_00B834_DATA(entry >> 40));
	xs_gpu_set_sh_reg(g, q, R_00B848_COMPUTE_PGM_RSRC1, ki->rsrc1);
	xs_gpu_set_sh_reg(g, q, R_00B84C_COMPUTE_PGM_RSRC2,
			  (ki->rsrc2 & C_00B84C_LDS_SIZE) |
				  S_00B84C_LDS_SIZE(XS_DIV_ROUND_UP(lds, di->lds_encode_granule)));
	xs_gpu_set_sh_reg(g, q, R_00B8A0_COMPUTE_PGM_RSRC3, ki->rsrc3);
	for (int i = 0; i < 3; i++) {
		xs_gpu_set_sh_reg(g, q, R_00B81C_COMPUTE_NUM_THREAD_X + 4 * i,
				  S_00B81C_NUM_THREAD_FULL(d->block[i]) | S_00B81C_NUM_THREAD_PARTIAL(d->block[i]));
		xs_gpu_set_sh_reg(g, q, R_00B810_COMPUTE_START_X + 4 * i, 0);
	}
	xs_gpu_set_sh_reg(g, q, R_00B860_COMPUTE_TMPRING_SIZE, tmpring);
	xs_gpu_set_sh_reg(g, q, R_00B854_COMPUTE_RESOURCE_LIMITS, 0);
	for (uint32_t i = 0; i < XS_COMPUTE_USER_DATA_COUNT; i++)
		xs_gpu_set_sh_reg(g, q, R_00B900_COMPUTE_USER_DATA_0 + 4 * i, ud[i]);
	uint32_t initiator = S_00B800_COMPUTE_SHADER_EN(1) | S_00B800_FORCE_START_AT_000(1) |
			     S_00B800_ORDER_MODE(1) | S_00B800_CS_W32_EN(wave_size == 32);

	xs_gpu_dispatch_result r;
	st = xs_gpu_dispatch_direct(g, q, d->groups[0], d->groups[1], d->groups[2], initiator, &r, &e);
	dev->dispatch_id++;
	if (stats) {
		*stats = (xs_dispatch_stats){
			.waves_launched = r.waves_launched,
			.wave_instructions = r.wave_insts,
			.start_cycle = r.start_cycle,
			.end_cycle = r.end_cycle,
			.cycles = r.cycles,
			.microseconds = (double)r.cycles / di->sclk_mhz,
			.peak_waves_in_flight = r.peak_waves,
			.peak_waves_per_simd = r.peak_waves_per_simd,
			.avg_waves_per_simd = r.avg_waves_per_simd,
			.peak_scratch_slots = r.peak_scratch_slots,
			.scratch_waves = scratch_en ? r.scratch_slots : 0,
			.scratch_wavesize_kb = scratch_en ? (uint32_t)(per_wave / 1024) : 0,
			.num_cu = di->num_cu,
			.host_seconds = xs_now_seconds() - t0,
		};
		_Static_assert((int)XS_WAIT_COUNT == (int)XS_GPU_WAIT_COUNT, "wait causes");
		_Static_assert((int)XS_MAX_CUS == (int)XS_GPU_MAX_CU, "CU count");
		memcpy(stats->wait_cycles, r.wait_cycles, sizeof(stats->wait_cycles));
		memcpy(stats->cu_busy_cycles, r.cu_busy, sizeof(stats->cu_busy_cycles));
	}
	if (st)
		xs_err_prefix(&e, "%s", ki->name);
out:
	free(karg);
	if (karg_va)
		xs_vm_free(dev->vm, karg_va, NULL);
	if (pkt_va)
		xs_vm_free(dev->vm, pkt_va, NULL);
	return st ? xs_api_fail(dev, &e) : XS_OK;
}
