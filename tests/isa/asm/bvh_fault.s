// image_bvh_intersect_ray with an unmapped node in lane 1: the wave stops
// with a VM fault at that node's address (base + 0x100000, past the test's
// allocation), and no lane's vdata is written (test_bvh_fault).
	v_mov_b32 v20, 0x600d      // vdata sentinels
	v_mov_b32 v21, 0x600d
	v_mov_b32 v22, 0x600d
	v_mov_b32 v23, 0x600d
	v_mov_b32 v1, 100.0
	v_mov_b32 v2, 0
	v_mov_b32 v3, 0
	v_mov_b32 v4, 0
	v_mov_b32 v5, 1.0
	v_mov_b32 v6, 0
	v_mov_b32 v7, 0
	v_mov_b32 v8, 1.0
	v_mov_b32 v9, 0x7f800000
	v_mov_b32 v10, 0x7f800000
	v_mov_b32 v11, 0x105        // lane 0 (and 2..): the box32 node at base + 0x800
	v_cmp_eq_u32 vcc_lo, 1, v0  // lane 1: 0x100000 / 8 | 5
	v_mov_b32 v12, 0x20005
	v_cndmask_b32 v0, v11, v12, vcc_lo
	image_bvh_intersect_ray v[20:23], v[0:15], s[0:3]
	// The wave stops on the instruction (pc and fault.pc at its word), and
	// no lane's vdata is written (the sentinels stay):
	// CHECK: status = fault
	// CHECK: fault = vm
	// CHECK: fault.addr = code + 0x100000
	// CHECK: fault.what ~ "image_bvh_intersect_ray"
	// CHECK: fault.what ~ "lane 1"
	// CHECK: fault.pc = code + 0x6c
	// CHECK: pc = code + 0x6c
	// CHECK: mem[code + 0x6c] = 0xf1989f01
	// CHECK: v[20:23] = 0x600d 0x600d 0x600d 0x600d
	// Tag TYPE0: the T#'s type field cleared: refused before any memory access.
	// CHECK-TYPE0: status = fault
	// CHECK-TYPE0: fault = illegal
	// CHECK-TYPE0: fault.what ~ "resource type 0"
	s_endpgm
.org 0x800
	.long 0x11, 0x22, 0x33, 0x44
	.float 2, -1, -1, 3, 1, 1
	.float 5, -1, -1, 6, 1, 1
	.float -1, -1, -1, 1, 1, 1
	.float 2, 5, -1, 3, 6, 1
	.long 0, 0, 0, 0
