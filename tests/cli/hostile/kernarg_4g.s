// A hostile code object (tests/cli/messages.py): its descriptor and metadata agree on a
// size no kernel can have. The loader and the tools must refuse it or report it, never
// allocate by it.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"
	.text
	.globl k
	.p2align 8
	.type k,@function
k:
	s_endpgm
	.p2align 6
	.rodata
	.p2align 6
	.amdhsa_kernel k
		.amdhsa_kernarg_size 4294967295
		.amdhsa_group_segment_fixed_size 4294967295
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 1
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_wavefront_size32 1
	.end_amdhsa_kernel
	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1030
amdhsa.kernels:
  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: 4294967295
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 4294967295
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: 2
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
...
	.end_amdgpu_metadata
