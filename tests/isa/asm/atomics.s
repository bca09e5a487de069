// Atomics with return values, each lane on its own address (so no result
// depends on lane order). Global: v[4:5] = base + lane * 16 holding
// u64 0x00000000fffffffe + lane at +0, u32 7 at +8, u32 0 at +12. ISA
// pseudocode: *_ADD_X2 64-bit add; *_CMPSWAP(_X2) data = {src, cmp}, store
// src if memory == cmp, return the old value either way; *_INC: old >= src ?
// 0 : old + 1; *_DEC: (old == 0 || old > src) ? src : old - 1; SMIN/UMAX
// signed/unsigned. LDS: lane * 8 holds {0xffffffff, lane}, 512 + lane * 4
// holds 3, 768 + lane * 4 holds 0 (DS_CMPST_B64: DATA0 = compare, DATA1 =
// source). v1 = lane * 8, v2 = 512 + lane * 4, v3 = 768 + lane * 4.
	v_mov_b32 v8, 3
	v_mov_b32 v9, 0
	global_atomic_add_x2 v[6:7], v[4:5], v[8:9], off glc     // old; memory + 3 (carry into the high dword)
	// CHECK: v[6:7] = 0xfffffffe + lane
	v_mov_b32 v12, 0x9abcdef0
	v_mov_b32 v13, 0x12345678
	v_add_nc_u32 v14, 1, v0                                  // lane + 1: the new low dword
	v_and_b32 v30, 1, v0
	v_add_nc_u32 v14, v14, v30                               // odd lanes: a wrong compare value
	v_mov_b32 v15, 1                                         // new high dword
	global_atomic_cmpswap_x2 v[10:11], v[4:5], v[12:15], off glc
	// CHECK: v[10:11] = 0x100000001 + lane
	// CHECK: mem[base + 16 * lane] = (lane & 1) == 0 ? 0x9abcdef0 : lane + 1, (lane & 1) == 0 ? 0x12345678 : 1
	v_mov_b32 v17, 7
	global_atomic_inc v16, v[4:5], v17, off offset:8 glc     // 7 >= 7: 0, returns 7
	// CHECK: v16 = 7
	v_mov_b32 v19, 5
	global_atomic_dec v18, v[4:5], v19, off offset:12 glc    // 0: wraps to 5, returns 0
	// CHECK: v18 = 0
	v_mov_b32 v21, -1
	global_atomic_smin v20, v[4:5], v21, off offset:8 glc    // min(0, -1) = -1, returns 0
	// CHECK: v20 = 0
	global_atomic_umax v22, v[4:5], v19, off offset:8 glc    // umax(0xffffffff, 5): unchanged
	// CHECK: v22 = 0xffffffff
	// CHECK: mem[base + 16 * lane + 8] = 0xffffffff
	global_atomic_swap v23, v[4:5], v0, off offset:12 glc    // returns 5, stores lane
	// CHECK: v23 = 5
	v_mov_b32 v24, 0xaa
	v_mov_b32 v25, v0
	global_atomic_cmpswap v26, v[4:5], v[24:25], off offset:12 glc   // lane == lane: 0xaa
	// CHECK: v26 = lane
	// CHECK: mem[base + 16 * lane + 12] = 0xaa
	v_mov_b32 v28, 1
	v_mov_b32 v29, 0
	ds_add_rtn_u64 v[32:33], v1, v[28:29]                    // {0xffffffff, lane} + 1 = {0, lane + 1}
	// CHECK: v[32:33] = 0xffffffff, lane
	v_mov_b32 v34, 0
	v_add_nc_u32 v35, 1, v0
	v_add_nc_u32 v35, v35, v30                               // odd lanes: wrong compare
	v_mov_b32 v36, 0xdead
	v_mov_b32 v37, 0xbeef
	ds_cmpst_rtn_b64 v[38:39], v1, v[34:35], v[36:37]
	// CHECK: v[38:39] = 0, lane + 1
	v_mov_b32 v40, 3
	ds_inc_rtn_u32 v41, v2, v40                              // 3 >= 3: 0, returns 3
	// CHECK: v41 = 3
	v_mov_b32 v42, 9
	ds_dec_rtn_u32 v43, v3, v42                              // 0: 9, returns 0
	// CHECK: v43 = 0
	ds_max_rtn_i64 v[44:45], v1, v[28:29]                    // max(memory, 1)
	// CHECK: v[44:45] = (lane & 1) == 0 ? 0xdead : 0, (lane & 1) == 0 ? 0xbeef : lane + 1
	ds_read_b64 v[46:47], v1
	// CHECK: v[46:47] = (lane & 1) == 0 ? 0xdead : 0, (lane & 1) == 0 ? 0xbeef : lane + 1
	ds_read_b32 v48, v2
	// CHECK: v48 = 0
	ds_read_b32 v49, v3
	// CHECK: v49 = 9
	s_endpgm
	// CHECK: status = ended
