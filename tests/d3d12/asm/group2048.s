// A wave64 kernel whose groups may hold 2048 threads: 32 waves, the most a
// group can have whatever the wave size (SPEC S3.5). LLVM caps
// .max_flat_workgroup_size at 1024, so it is written here by hand.
// out[group * 2048 + x] = x + 1.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"
	.text
	.globl group2048
	.p2align 8
	.type group2048,@function
group2048:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_lshl_b32 s3, s2, 11
	v_add_nc_u32 v1, s3, v0
	v_lshlrev_b32 v2, 2, v1
	v_add_nc_u32 v3, 1, v0
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v3, s[4:5]
	s_endpgm
	.p2align 6
	.rodata
	.p2align 6
	.amdhsa_kernel group2048
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 8
		.amdhsa_wavefront_size32 0
	.end_amdhsa_kernel
	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx1030
amdhsa.kernels:
  - .name: group2048
    .symbol: group2048.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 4
    .max_flat_workgroup_size: 2048
    .args:
      - .name: out
        .offset: 0
        .size: 8
        .value_kind: global_buffer
        .address_space: global
...
	.end_amdgpu_metadata
