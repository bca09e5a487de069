// Graphics-stage instructions (test_gfx in test_isa_exec.c).
// The test sets: s20 = M0 = NEW_PRIM_MASK 0x0001 << 16 | LDS_PARAM_OFFSET 16
// (one primitive for every lane); interp_prim_stride 96 (two attributes);
// LDS at 16: attr0 P0 (1, 2, 3, 4), P10 (2, 4, 8, 16), P20 (4, 8, 16, 32);
//            attr1 P0 (10, 20, 30, 40), P10 (1, 1, 1, 1), P20 (-1, -1, -1, -1);
// v1 = i = 0.25, v2 = j = 0.5 in every lane.
// P1 = P10 * i + P0, P2 = P20 * j + P1 (one rounding each).
	s_mov_b32 m0, s20
	v_interp_p1_f32 v4, v1, attr0.x
	v_interp_p2_f32 v4, v2, attr0.x
	// Tag TWOPRIMS: NEW_PRIM_MASK 0x5, quads 0 and 2 start primitives, the
	// second with attr0 P0.x = 100 and P10 = P20 = 0.
	// CHECK-TWOPRIMS: v4 = lane < 8 ? 3.5 : 100.0
	// Tag LDSFAULT: LDS_PARAM_OFFSET 8 bytes short of the LDS end.
	// CHECK-LDSFAULT: status = fault
	// CHECK-LDSFAULT: fault = lds
	v_interp_p1_f32 v5, v1, attr0.y
	v_interp_p2_f32 v5, v2, attr0.y
	v_interp_p1_f32 v6, v1, attr0.z
	v_interp_p2_f32 v6, v2, attr0.z
	v_interp_p1_f32 v7, v1, attr0.w
	v_interp_p2_f32 v7, v2, attr0.w
	// CHECK: v[4:7] = 3.5 7.0 13.0 24.0
	v_interp_p1_f32 v8, v1, attr1.x
	v_interp_p2_f32 v8, v2, attr1.x
	v_interp_p1_f32 v9, v1, attr1.w
	v_interp_p2_f32 v9, v2, attr1.w
	v_interp_mov_f32 v10, p0, attr1.y
	v_interp_mov_f32 v11, p10, attr0.w
	// CHECK: v[8:11] = 9.75 39.75 20.0 16.0
	v_interp_mov_f32 v12, p20, attr0.z
	v_mov_b32 v13, 0
	v_mov_b32 v14, 0
	v_mov_b32 v15, 0
	// CHECK: v[12:15] = 16.0 0 0 0
	// The VOP3 forms: the attribute in the src0 field, the barycentric (any
	// source) in src1; clamp and omod as any VOP3 float op.
	v_interp_p1_f32_e64 v16, v1, attr0.y
	v_interp_p2_f32_e64 v16, v2, attr0.y
	s_mov_b32 s2, 0.5
	v_interp_p1_f32_e64 v17, s2, attr0.x       // i = 0.5: 2 * 0.5 + 1
	v_interp_p1_f32_e64 v18, v1, attr1.w clamp // 1 * 0.25 + 40 clamped to 1
	v_interp_mov_f32_e64 v19, p20, attr0.z mul:2  // (omod: none with MODE's output denormals on)
	// CHECK: v[16:19] = 7.0 2.0 1.0 16.0
	// The sink records each export (target, EN, COMPR, DONE, VM, sources):
	exp pos0 v4, v5, v6, v7 done
	// Tag NOSINK: no export sink (as in a compute wave).
	// CHECK-NOSINK: status = fault
	// CHECK-NOSINK: fault = illegal
	// CHECK-NOSINK: fault.what ~ "exp outside a graphics stage"
	exp param0 v8, v9, off, off
	exp mrt0 v4, v4, v5, v5 done compr vm
	s_endpgm
	// CHECK: status = ended
