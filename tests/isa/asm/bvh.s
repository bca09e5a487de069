// image_bvh_intersect_ray / image_bvh64_intersect_ray on hand-made nodes.
// Every lane runs the same ray; the test (test_bvh in test_isa_exec.c)
// checks the v[N:N+3] directives below (grammar in tests/isa/asm_expect.h)
// in every lane: hex words, or floats (their binary32 bits), worked out by hand.
//
// The nodes follow the code (.org below); the BVH base is this kernel's
// address (a 4 KiB aligned allocation). T#s set by the test:
//   s[0:3]   base, box_sort_enable, triangle_return_mode = IJ
//   s[4:7]   base, no sorting, IJ
//   s[8:11]  base, sorting, triangle_return_mode = 0 (id / hit status)
//   s[12:15] base, no sorting, box_grow_ulp = 255
//   s[16:19] base 0, sorting, IJ (for bvh64 with absolute node pointers)
// Node pointer = byte offset / 8 | type: box32 at 0x800 -> 0x105, box16 at
// 0x900 -> 0x124, triangle at 0xa00 -> 0x140, instance at 0xa40 -> 0x14e,
// AABB at 0xa80 -> 0x157. A copy of the box32 node sits at VA
// 0x700000000000 (mapped by the test): bvh64 pointer 0xe0000000005.
//
// Address registers: v0 node (v0:v1 for bvh64), v1 extent, v2..v4 origin,
// v5..v7 dir, v8..v10 inv_dir.

.macro ray node, ext, ox, oy, oz, dx, dy, dz, ix, iy, iz
	v_mov_b32 v0, \node
	v_mov_b32 v1, \ext
	v_mov_b32 v2, \ox
	v_mov_b32 v3, \oy
	v_mov_b32 v4, \oz
	v_mov_b32 v5, \dx
	v_mov_b32 v6, \dy
	v_mov_b32 v7, \dz
	v_mov_b32 v8, \ix
	v_mov_b32 v9, \iy
	v_mov_b32 v10, \iz
.endm

// ---- box32: children 0x11 [2,3]x[-1,1]^2, 0x22 [5,6]x[-1,1]^2,
// 0x33 [-1,1]^3, 0x44 [2,3]x[5,6]x[-1,1]
// Ray A: origin 0, dir +x, inv (1, inf, inf) (clamped to FLT_MAX), extent 100.
// Entry distances 2, 5, 0 (origin inside, clamped), miss (y slab at 5*FLT_MAX = inf).
	ray 0x105, 100.0, 0, 0, 0, 1.0, 0, 0, 1.0, 0x7f800000, 0x7f800000
	image_bvh_intersect_ray v[20:23], v[0:15], s[0:3]
	// Tag V22: a wave of 22 VGPRs; vdata v[20:23] does not fit, so the
	// decoder's bound faults before the first intersection runs.
	// CHECK-V22: status = fault
	// CHECK-V22: fault = illegal
	// CHECK-V22: fault.what ~ "image_bvh_intersect_ray: uses VGPRs up to v23"
	// CHECK: v[20:23] = 0x33 0x11 0x22 0xffffffff
	// sorted: the network (0,2) (1,3) (0,1) (2,3) (1,2) gives 0x33 (0), 0x11 (2), 0x22 (5)
	image_bvh_intersect_ray v[24:27], v[0:15], s[4:7]
	// CHECK: v[24:27] = 0x11 0x22 0x33 0xffffffff
	// unsorted: slot order, the miss in its slot

// Extent boundary: extent 2 = child 0x11's entry: tmin 2 <= tmax min(3, 2) = 2 is a hit.
	v_mov_b32 v1, 2.0
	image_bvh_intersect_ray v[28:31], v[0:15], s[0:3]
	// CHECK: v[28:31] = 0x33 0x11 0xffffffff 0xffffffff
// extent 2 - 2^-23 (0x3fffffff): 0x11 misses ...
	v_mov_b32 v1, 0x3fffffff
	image_bvh_intersect_ray v[32:35], v[0:15], s[4:7]
	// CHECK: v[32:35] = 0xffffffff 0xffffffff 0x33 0xffffffff
// ... unless box_grow_ulp = 255 widens it: 1 + 255 * 2^-24 rounds to 1 + 2^-16 in f32, and
// (2 - 2^-23) * (1 + 2^-16) > 2.
	image_bvh_intersect_ray v[36:39], v[0:15], s[12:15]
	// CHECK: v[36:39] = 0x11 0xffffffff 0x33 0xffffffff

// Infinite extent: the same as extent 100 (tmax stays the box's exit).
	v_mov_b32 v1, 0x7f800000
	image_bvh_intersect_ray v[128:131], v[0:15], s[0:3]
	// CHECK: v[128:131] = 0x33 0x11 0x22 0xffffffff
// Origin.x = -inf: every x distance is +inf (x - -inf), so tmin = inf > tmax: all miss.
	ray 0x105, 100.0, 0xff800000, 0, 0, 1.0, 0, 0, 1.0, 0x7f800000, 0x7f800000
	image_bvh_intersect_ray v[132:135], v[0:15], s[4:7]
	// CHECK: v[132:135] = 0xffffffff 0xffffffff 0xffffffff 0xffffffff
// NaN origin.x: every slab distance on x is NaN: all four miss.
	ray 0x105, 100.0, 0x7fc00000, 0, 0, 1.0, 0, 0, 1.0, 0x7f800000, 0x7f800000
	image_bvh_intersect_ray v[40:43], v[0:15], s[0:3]
	// CHECK: v[40:43] = 0xffffffff 0xffffffff 0xffffffff 0xffffffff
// NaN inv_dir.y: all miss too.
	ray 0x105, 100.0, 0, 0, 0, 1.0, 0, 0, 1.0, 0x7fc00000, 0x7f800000
	image_bvh_intersect_ray v[44:47], v[0:15], s[0:3]
	// CHECK: v[44:47] = 0xffffffff 0xffffffff 0xffffffff 0xffffffff

// Zero direction components, origin y = 5.5: only 0x44's y slab [5,6] holds it
// (y distances (5-5.5)*FLT_MAX, (6-5.5)*FLT_MAX); the others get [-inf,-inf] on y.
// Sorting moves the single hit to the front.
	ray 0x105, 100.0, 0, 5.5, 0, 1.0, 0, 0, 1.0, 0x7f800000, 0x7f800000
	image_bvh_intersect_ray v[48:51], v[0:15], s[0:3]
	// CHECK: v[48:51] = 0x44 0xffffffff 0xffffffff 0xffffffff
// Origin on the plane y = 1 (the top face of 0x11, 0x22 and 0x33): y interval
// [(-1-1)*FLT_MAX, 0*FLT_MAX] = [-inf, 0]. 0x33 (x interval [-1,1]) is hit at t = 0
// (0 <= min(1, 0)); 0x11 and 0x22, which the ray would only graze, miss (2 > 0).
	ray 0x105, 100.0, 0, 1.0, 0, 1.0, 0, 0, 1.0, 0x7f800000, 0x7f800000
	image_bvh_intersect_ray v[52:55], v[0:15], s[4:7]
	// CHECK: v[52:55] = 0xffffffff 0xffffffff 0x33 0xffffffff

// ---- box16: the same boxes as halves, children 0x55 0x66 0x77 0x88; ray A.
	ray 0x124, 100.0, 0, 0, 0, 1.0, 0, 0, 1.0, 0x7f800000, 0x7f800000
	image_bvh_intersect_ray v[56:59], v[0:15], s[0:3]
	// CHECK: v[56:59] = 0x77 0x55 0x66 0xffffffff

// ---- a16: ray A with dir, inv_dir as halves {dir.x, dir.y} {dir.z, inv.x} {inv.y, inv.z}:
// dir (1, 0, 0) inv (1, inf, inf) = 0x00003c00, 0x3c000000, 0x7c007c00.
	v_mov_b32 v0, 0x105
	v_mov_b32 v1, 100.0
	v_mov_b32 v2, 0
	v_mov_b32 v3, 0
	v_mov_b32 v4, 0
	v_mov_b32 v5, 0x00003c00
	v_mov_b32 v6, 0x3c000000
	v_mov_b32 v7, 0x7c007c00
	image_bvh_intersect_ray v[60:63], v[0:7], s[0:3] a16
	// CHECK: v[60:63] = 0x33 0x11 0x22 0xffffffff

// ---- triangle (0xa00): v0 (-1,-1,4), v1 (3,-1,4), v2 (-1,3,4); id dword 0xdeadbeef.
// Ray +z from the origin: kz = z, no shear; U = -8, V = -4, W = -4 (all negative: inside),
// det = -16, t_num = 4 * (U + V + W) = -64: t = 4, i = j = 0.25 (the point (0,0,4)).
	ray 0x140, 100.0, 0, 0, 0, 0, 0, 1.0, 0x7f800000, 0x7f800000, 1.0
	image_bvh_intersect_ray v[64:67], v[0:15], s[0:3]
	// CHECK: v[64:67] = -64.0 -16.0 -4.0 -4.0
// triangle_return_mode 0: t_num, t_denom, the node's id dword (0x3c), hit status 1.
	image_bvh_intersect_ray v[68:71], v[0:15], s[8:11]
	// CHECK: v[68:71] = -64.0 -16.0 0xdeadbeef 1
// a16 triangle: dir (0,0,1) inv (inf, inf, 1) = 0x00000000, 0x7c003c00, 0x3c007c00.
	v_mov_b32 v5, 0
	v_mov_b32 v6, 0x7c003c00
	v_mov_b32 v7, 0x3c007c00
	image_bvh_intersect_ray v[72:75], v[0:7], s[0:3] a16
	// CHECK: v[72:75] = -64.0 -16.0 -4.0 -4.0

// Vertex v0: origin (-1,-1,0): A = (0,0), B = (4,0), C = (0,4); U = -16, V = W = 0 (the f64
// retest agrees): i = j = 0, t = -64 / -16 = 4.
	ray 0x140, 100.0, -1.0, -1.0, 0, 0, 0, 1.0, 0x7f800000, 0x7f800000, 1.0
	image_bvh_intersect_ray v[76:79], v[0:15], s[0:3]
	// CHECK: v[76:79] = -64.0 -16.0 0 0
// Edge v0-v1 at (1,-1): A = (-2,0), B = (2,0), C = (-2,4); U = -8, V = -8, W = +0: i = 0.5, j = 0.
	ray 0x140, 100.0, 1.0, -1.0, 0, 0, 0, 1.0, 0x7f800000, 0x7f800000, 1.0
	image_bvh_intersect_ray v[80:83], v[0:15], s[0:3]
	// CHECK: v[80:83] = -64.0 -16.0 -8.0 0
// Outside, origin (3,3,0): U = 16, V = -16: miss = t_num +inf, t_denom 1, i = j = 0.
	ray 0x140, 100.0, 3.0, 3.0, 0, 0, 0, 1.0, 0x7f800000, 0x7f800000, 1.0
	image_bvh_intersect_ray v[84:87], v[0:15], s[0:3]
	// CHECK: v[84:87] = inf 1.0 0 0
// The miss in mode 0: hit status 0.
	image_bvh_intersect_ray v[88:91], v[0:15], s[8:11]
	// CHECK: v[88:91] = inf 1.0 0xdeadbeef 0
// Behind the origin: origin (0,0,5): same U V W, t_num = -1 * (-16) = 16 has the sign
// opposite to det: t = -1 < 0, a miss.
	ray 0x140, 100.0, 0, 0, 5.0, 0, 0, 1.0, 0x7f800000, 0x7f800000, 1.0
	image_bvh_intersect_ray v[92:95], v[0:15], s[0:3]
	// CHECK: v[92:95] = inf 1.0 0 0
// Parallel to the triangle's plane, in it (origin (0,0,4), dir +x): kz = x, all edge
// functions are zero, det = 0: a miss.
	ray 0x140, 100.0, 0, 0, 4.0, 1.0, 0, 0, 1.0, 0x7f800000, 0x7f800000
	image_bvh_intersect_ray v[96:99], v[0:15], s[0:3]
	// CHECK: v[96:99] = inf 1.0 0 0
// Parallel, below it (origin 0, dir +x): U = 16, V = -16: a miss.
	v_mov_b32 v4, 0
	image_bvh_intersect_ray v[100:103], v[0:15], s[0:3]
	// CHECK: v[100:103] = inf 1.0 0 0
// Ray -z from (0,0,8): kz = z with dir.z < 0, so x and y swap (winding kept): U = 8,
// V = W = 4, det = +16 (the other face), t_num = 64: t = 4, i = j = 0.25.
	ray 0x140, 100.0, 0, 0, 8.0, 0, 0, -1.0, 0x7f800000, 0x7f800000, -1.0
	image_bvh_intersect_ray v[104:107], v[0:15], s[0:3]
	// CHECK: v[104:107] = 64.0 16.0 4.0 4.0

// ---- node types 6 (instance) and 7 (AABB): no test, all four 0xFFFFFFFF.
	v_mov_b32 v0, 0x14e
	image_bvh_intersect_ray v[108:111], v[0:15], s[0:3]
	// CHECK: v[108:111] = 0xffffffff 0xffffffff 0xffffffff 0xffffffff
	v_mov_b32 v0, 0x157
	image_bvh_intersect_ray v[112:115], v[0:15], s[0:3]
	// CHECK: v[112:115] = 0xffffffff 0xffffffff 0xffffffff 0xffffffff

// ---- bvh64: the box32 copy at 0x700000000000 through T# base 0: node pointer
// 0x700000000000 / 8 | 5 = 0x00000e00_00000005 in v[0:1]; ray A from v2.
	ray 0x105, 100.0, 0, 0, 0, 1.0, 0, 0, 1.0, 0x7f800000, 0x7f800000
	v_mov_b32 v11, v10
	v_mov_b32 v10, v9
	v_mov_b32 v9, v8
	v_mov_b32 v8, v7
	v_mov_b32 v7, v6
	v_mov_b32 v6, v5
	v_mov_b32 v5, v4
	v_mov_b32 v4, v3
	v_mov_b32 v3, v2
	v_mov_b32 v2, v1
	v_mov_b32 v0, 5
	v_mov_b32 v1, 0xe00
	image_bvh64_intersect_ray v[116:119], v[0:15], s[16:19]
	// CHECK: v[116:119] = 0x33 0x11 0x22 0xffffffff
// bvh64 a16 (9 addresses, named v[0:15] by the assembler): dir/inv halves in v6..v8.
	v_mov_b32 v6, 0x00003c00
	v_mov_b32 v7, 0x3c000000
	v_mov_b32 v8, 0x7c007c00
	image_bvh64_intersect_ray v[120:123], v[0:15], s[16:19] a16
	// CHECK: v[120:123] = 0x33 0x11 0x22 0xffffffff

// ---- NSA: ray A's operands in scattered VGPRs: node v124, extent v12, origin
// v13..v15, dir v16..v18, inv_dir v19, v11, v10 (three extra address dwords).
	v_mov_b32 v124, 0x105
	v_mov_b32 v12, 100.0
	v_mov_b32 v13, 0
	v_mov_b32 v14, 0
	v_mov_b32 v15, 0
	v_mov_b32 v16, 1.0
	v_mov_b32 v17, 0
	v_mov_b32 v18, 0
	v_mov_b32 v19, 1.0
	v_mov_b32 v11, 0x7f800000
	v_mov_b32 v10, 0x7f800000
	image_bvh_intersect_ray v[0:3], [v124, v12, v13, v14, v15, v16, v17, v18, v19, v11, v10], s[0:3]
	// CHECK: v[0:3] = 0x33 0x11 0x22 0xffffffff
	s_endpgm
	// CHECK: status = ended

// ---- nodes ----------------------------------------------------------------
.org 0x800
// box32: children, then per child min.xyz max.xyz
	.long 0x11, 0x22, 0x33, 0x44
	.float 2, -1, -1, 3, 1, 1
	.float 5, -1, -1, 6, 1, 1
	.float -1, -1, -1, 1, 1, 1
	.float 2, 5, -1, 3, 6, 1
	.long 0, 0, 0, 0
.org 0x900
// box16: children, then per child min.xyz max.xyz as halves
	.long 0x55, 0x66, 0x77, 0x88
	.short 0x4000, 0xbc00, 0xbc00, 0x4200, 0x3c00, 0x3c00
	.short 0x4500, 0xbc00, 0xbc00, 0x4600, 0x3c00, 0x3c00
	.short 0xbc00, 0xbc00, 0xbc00, 0x3c00, 0x3c00, 0x3c00
	.short 0x4000, 0x4500, 0xbc00, 0x4200, 0x4600, 0x3c00
.org 0xa00
// triangle: v0 v1 v2, 3 reserved dwords, ids (the last at 0x3c)
	.float -1, -1, 4, 3, -1, 4, -1, 3, 4
	.long 0, 0, 0, 0x1234, 0x5678, 0, 0xdeadbeef
.org 0xa40
// instance node: contents that would hit if they were read as a box
	.long 0x11, 0x22, 0x33, 0x44
	.float -1, -1, -1, 1, 1, 1
	.org 0xa80
	.long 0x11, 0x22, 0x33, 0x44
	.float -1, -1, -1, 1, 1, 1
	.org 0xac0
	.long 0
