// Packed f16 and 16-bit integers (VOP3P op_sel / op_sel_hi / neg_lo / neg_hi, LLVM VOP3P
// syntax), fused multiply-adds rounded once to binary16 (IEEE 754 fma;
// a binary32 fma rounded again to binary16 differs for these operands:
// 0x40e1 * 0x3b4e + 0x0721 is 0x4075, double rounding gives 0x4074), the
// f32-source mix fma, SDWA on f16 and the VOP3 op_sel destination half.
// v1 = {1.0, 2.0}, v2 = {0.5, -3.0}, v7 = 0x40e1, v8 = 0x3b4e, v9 = 0x0721,
// v11..v13 = the same values as f32, v20 = {qNaN 0x7e00, 1.0}, v21 = {3.0, 0.25},
// v15 = 0x12345678
	v_pk_add_f16 v3, v1, v2                                  // {1.5, -1.0} = 0xbc003e00
	// CHECK: v3 = 0xbc003e00
	v_pk_add_f16 v4, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]     // {2 + 0.5, 1 - 3} = 0xc0004100
	// CHECK: v4 = 0xc0004100
	v_pk_mul_f16 v5, v1, v2 neg_lo:[1,0] neg_hi:[0,1]        // {-1 * 0.5, 2 * 3} = 0x4600b800
	// CHECK: v5 = 0x4600b800
	v_pk_fma_f16 v6, v7, v8, v9 op_sel_hi:[0,0,0]            // both halves from the low halves: 0x40754075
	// CHECK: v6 = 0x40754075
	v_fma_f16 v10, v7, v8, v9                                // 0x4075 (high half of v10 kept: 0)
	// CHECK: v10 = 0x4075
	v_fma_mixlo_f16 v14, v11, v12, v13                       // f32 sources, one rounding: 0x4075
	// CHECK: v14 = 0x4075
	v_pk_max_f16 v16, v20, v21                               // {max(NaN, 3) = 3, max(1, 0.25) = 1} = 0x3c004200
	// CHECK: v16 = 0x3c004200
	v_mov_b32 v17, 0xffff1234
	v_add_f16_sdwa v17, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0 // 2 + 0.5 in the high word
	// CHECK: v17 = 0x41001234
	v_fma_f16 v15, v1, v1, v2 op_sel:[0,0,0,1]               // 1 * 1 + 0.5 = 0x3e00 into the high half: 0x3e005678
	// CHECK: v15 = 0x3e005678
	v_pk_fma_f16 v18, v1, v1, v2 clamp                       // {1 * 1 + 0.5, 2 * 2 - 3} clamped: {1.0, 1.0} = 0x3c003c00
	// CHECK: v18 = 0x3c003c00
// Packed 16-bit integers with clamp: each half saturates to its type's
// range (LLVM selects v_pk_add_u16 ... clamp for uadd.sat.v2i16).
	v_mov_b32 v24, 0xfff07ff0                                // {0x7ff0, 0xfff0 (-16)}
	v_mov_b32 v25, 0x00200020                                // {0x20, 0x20}
	v_pk_add_u16 v26, v24, v25 clamp                         // {0x8010, 0x10010 -> 0xffff}
	// CHECK: v26 = 0xffff8010
	v_pk_add_i16 v27, v24, v25 clamp                         // {0x8010 -> 0x7fff, -16 + 32 = 0x10}
	// CHECK: v27 = 0x00107fff
	v_pk_sub_u16 v28, v25, v24 clamp                         // {0x20 - 0x7ff0, 0x20 - 0xfff0}: both < 0 -> 0
	// CHECK: v28 = 0
	v_pk_sub_i16 v29, v25, v24 clamp                         // {32 - 32752 = 0x8030, 32 + 16 = 0x30}: in range
	// CHECK: v29 = 0x00308030
	v_pk_sub_i16 v30, v24, v25 op_sel:[1,1] op_sel_hi:[0,0] clamp // {-16 - 32, 0x7ff0 - 32} = {0xffd0, 0x7fd0}
	// CHECK: v30 = 0x7fd0ffd0
	v_pk_add_u16 v31, v24, v25                               // no clamp: wraps {0x8010, 0x0010}
	// CHECK: v31 = 0x00108010
	v_pk_mad_u16 v32, v24, v25, v25 clamp                    // {0x7ff0 * 32 + 32, 0xfff0 * 32 + 32} -> {0xffff, 0xffff}
	// CHECK: v32 = 0xffffffff
	v_pk_mad_i16 v33, v24, v25, v25 clamp                    // {32752 * 32 + 32 -> 0x7fff, -16 * 32 + 32 = -480 (0xfe20)}
	// CHECK: v33 = 0xfe207fff
// Dot products of 16-bit halves take each source's halves as the packed
// ops do: op_sel[i] for the low product, op_sel_hi[i] for the high one
// (LLVM emits op_sel:[0,1,0] for sdot2 with a shuffled operand).
	v_mov_b32 v34, 0x00030002                                // {2, 3}
	v_mov_b32 v35, 0x00050004                                // {4, 5}
	v_dot2_i32_i16 v36, v34, v35, 0 op_sel:[0,1,0]           // 2 * 5 + 3 * 5 = 25 (without op_sel 23)
	// CHECK: v36 = 25
	v_dot2_u32_u16 v37, v34, v35, 1 op_sel_hi:[0,1,0]        // 2 * 4 + 2 * 5 + 1 = 19
	// CHECK: v37 = 19
	v_dot2_f32_f16 v38, v1, v1, 0 op_sel:[1,0,0] op_sel_hi:[0,1,1] // 2 * 1 + 1 * 2 = 4.0 (without: 5.0)
	// CHECK: v38 = 4.0
	v_dot2_f32_f16 v39, v1, v2, 0 neg_hi:[0,1,0]             // 1 * 0.5 + 2 * 3 = 6.5
	// CHECK: v39 = 6.5
	v_mov_b32 v40, 1.0
	v_dot2c_f32_f16 v40, v1, v1                              // VOP2, both halves: 1 + 4 + 1 = 6.0
	// CHECK: v40 = 6.0
// Dot products with clamp saturate the exact sum (the accumulator
// included) to the result type's range; without it they wrap.
// v_dot2_f32_f16's src2 is f32: an inline constant reads as binary32.
	v_mov_b32 v41, 0x7f7f7f7f                                // 127 in every byte
	v_mov_b32 v42, 0x7fffffff
	v_dot4_i32_i8 v43, v41, v41, v42 clamp                   // 4 * 127 * 127 + INT_MAX -> INT_MAX
	// CHECK: v43 = 0x7fffffff
	v_dot4_i32_i8 v44, v41, v41, v42                         // no clamp: wraps to 0x8000fc03
	// CHECK: v44 = 0x8000fc03
	v_mov_b32 v45, 0x80008000                                // {-32768, -32768}
	v_mov_b32 v46, 0x7fff7fff                                // {32767, 32767}
	v_mov_b32 v47, 0x80000000
	v_dot2_i32_i16 v48, v45, v46, v47 clamp                  // 2 * -32768 * 32767 + INT_MIN -> INT_MIN
	// CHECK: v48 = 0x80000000
	v_mov_b32 v49, -1
	v_dot2_u32_u16 v50, v49, v49, 0 clamp                    // 2 * 0xfffe0001 -> 0xffffffff
	// CHECK: v50 = 0xffffffff
	v_dot8_u32_u4 v51, v49, v49, v49 clamp                   // 8 * 225 + 0xffffffff -> 0xffffffff
	// CHECK: v51 = 0xffffffff
	v_dot2_f32_f16 v52, v1, v1, 0 clamp                      // 1 + 4 = 5.0 clamped to 1.0
	// CHECK: v52 = 1.0
	v_dot2_f32_f16 v53, v1, v1, 1.0                          // 1 + 4 + 1.0 (inline 242 as f32) = 6.0
	// CHECK: v53 = 6.0
	v_dot2_f32_f16 v54, v1, v1, 1.0 neg_lo:[0,0,1] neg_hi:[0,0,1] // LLVM's fneg of src2: 5 - 1 = 4.0
	// CHECK: v54 = 4.0
	v_dot2_f32_f16 v55, v1, v1, 1.0 neg_lo:[1,0,0] neg_hi:[1,0,0] clamp // -1 - 4 + 1 = -4.0 clamped to 0
	// CHECK: v55 = 0
// An inline float constant in a v_fma_mix* source is read as the source
// is: f16 where op_sel_hi is set, else f32 (whatever the result's type).
	v_fma_mix_f32 v56, v1, 1.0, 0 op_sel_hi:[1,1,0]      // f16 1.0 * f16 1.0 (not the f32 bits' low half, 0)
	// CHECK: v56 = 1.0
	v_fma_mix_f32 v57, v1, v1, -2.0 op_sel_hi:[1,1,0]    // 1 - 2.0 read as f32 = -1.0
	// CHECK: v57 = -1.0
	v_mov_b32 v58, 0
	v_fma_mixlo_f16 v58, v1, v1, 1.0 op_sel_hi:[1,1,0]   // 1 + 1.0 read as f32 (not 0x3c00 as a denormal) = f16 2.0
	// CHECK: v58 = 0x4000
	v_mov_b32 v59, 0
	v_fma_mixhi_f16 v59, 0.5, v1, 0 op_sel:[0,1,0] op_sel_hi:[0,1,0] // 0.5 (f32) * 2.0 = f16 1.0 in the high half
	// CHECK: v59 = 0x3c000000
	v_mov_b32 v60, 0
	v_fma_mixlo_f16 v60, v1, 1.0, 0 op_sel_hi:[1,1,0]    // f16 1.0 * f16 1.0 = f16 1.0
	// CHECK: v60 = 0x3c00
	s_endpgm
	// CHECK: status = ended
