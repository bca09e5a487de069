// Raw buffer range checking (V# NUM_RECORDS = 16 bytes, STRIDE 0,
// OOB_SELECT 3: a dword at byte offset >= NUM_RECORDS is out of range,
// checked dword by dword; xs_isa_exec_vmem.c header, RADV
// radv_buffer_view.c): out-of-range loads return 0, stores and atomics do
// not write, out-of-range atomics return 0. s[0:3] = the V#, memory B[i] =
// 0xa000 + i (i = 0..7), v0 = lane * 4, v3 = 0x1000.
	buffer_load_dwordx2 v[1:2], off, s[0:3], 0 offset:12     // {B[3], 0}
	// CHECK: v[1:2] = 0xa003, 0
	s_mov_b32 exec_lo, 1
	buffer_store_dwordx2 v[3:4], off, s[0:3], 0 offset:12    // B[3] = 0x1000, B[4] not written
	s_mov_b32 exec_lo, -1
	v_mov_b32 v5, 1
	buffer_atomic_add v5, v0, s[0:3], 0 offen glc            // lanes 0..3 add 1; lanes >= 4: 0
	// CHECK: v5 = lane < 3 ? 0xa000 + lane : lane == 3 ? 0x1000 : 0
	// CHECK: mem[buf] = 0xa001 0xa002 0xa003 0x1001 0xa004 0xa005 0xa006 0xa007
	buffer_load_ubyte v6, v0, s[0:3], 0 offen offset:1       // byte 1 of B[lane], 0 past 16
	// CHECK: v6 = lane < 3 ? 0xa0 : lane == 3 ? 0x10 : 0
	buffer_load_dword v7, v0, s[0:3], 0 offen offset:4095    // 4095 + 4l >= 16: 0
	// CHECK: v7 = 0
// 64-bit buffer atomics, lane 0 (s[4:7]: the same raw V# at buf + 64, where
// memory is 0): one 8-byte read-modify-write (ISA: atomics are range checked
// all or nothing), data = {src, cmp} for cmpswap.
	s_mov_b32 exec_lo, 1
	v_mov_b32 v8, 0xffffffff
	v_mov_b32 v9, 2
	buffer_atomic_add_x2 v[8:9], off, s[4:7], 0 offset:8 glc         // 0 + 0x2ffffffff
	// CHECK: v[8:9] lane 0 = 0 0
	v_mov_b32 v10, 1
	v_mov_b32 v11, 0
	buffer_atomic_add_x2 v[10:11], off, s[4:7], 0 offset:8 glc       // + 1: carry into the high dword
	// CHECK: v[10:11] lane 0 = 0xffffffff 2
	v_mov_b32 v12, 0x1234
	v_mov_b32 v13, 0x5678
	v_mov_b32 v14, 0
	v_mov_b32 v15, 3
	buffer_atomic_cmpswap_x2 v[12:15], off, s[4:7], 0 offset:8 glc  // 0x300000000 == cmp: store src
	// CHECK: v[12:13] lane 0 = 0 3
	v_mov_b32 v16, 1
	v_mov_b32 v17, 0
	buffer_atomic_add_x2 v[16:17], off, s[4:7], 0 offset:16 glc      // at NUM_RECORDS: dropped, returns 0
	// CHECK: v[16:17] lane 0 = 0 0
	buffer_atomic_swap_x2 v[10:11], off, s[4:7], 0                   // no glc: v[10:11] keep their values
	s_mov_b32 exec_lo, -1
	// CHECK: mem[buf + 64] = 0xffffffff 2 0x1234 0x5678 0 0
	s_endpgm
	// CHECK: status = ended
