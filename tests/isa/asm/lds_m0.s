// The LDS forms addressed by M0 (lds_size 4096; v0 = lane id): ds_append,
// ds_consume (a counter at M0[15:0] + offset, the wave's active-lane count
// added or taken; every active lane gets the value before) and the addtid
// forms (lane l at M0[15:0] + offset + 4 l).
	s_mov_b32 m0, 0xffff0100                 // M0[31:16] is not part of the address
	v_mov_b32 v1, 0
	ds_write_b32 v1, v1 offset:0x140         // the counter at 0x100 + 0x40 starts at 0
	v_mov_b32 v2, 7
	v_mov_b32 v3, 7
	s_waitcnt lgkmcnt(0)
	ds_append v2 offset:0x40
	// CHECK: v2 = 0
	ds_append v3 offset:0x40                 // 32 lanes on
	// CHECK: v3 = 32
	s_mov_b32 exec_lo, 0x0000f0f0            // 8 lanes
	ds_consume v4 offset:0x40
	// CHECK: v4 lanes 4..7 = 64
	// CHECK: v4 lanes 12..15 = 64
	// the lanes off keep what they had (v4 starts at 0)
	// CHECK: v4 lanes 0..3 = 0
	s_mov_b32 exec_lo, 0                     // no lane: no change
	ds_append v5 offset:0x40
	s_mov_b32 exec_lo, -1
	ds_read_b32 v6, v1 offset:0x140
	// 64 - 8
	// CHECK: v6 = 56
	// CHECK: lds[0x140] = 56
	v_add_nc_u32 v7, 1000, v0
	ds_write_addtid_b32 v7 offset:0x200      // 0x300 + 4 lane
	// CHECK: lds[0x300] = 1000 1001 1002
	// CHECK: lds[0x37c] = 1031
	ds_read_addtid_b32 v8 offset:0x1fc       // lane l reads 0x2fc + 4 l: lane l - 1's
	// CHECK: v8 lanes 1..31 = 999 + lane
	// CHECK: v8 lane 0 = 0
	s_mov_b32 m0, 0xfc0                      // near the end of the 4 KiB allocation
	ds_append v9 offset:0x40                 // the counter at 0x1000 is outside: reads 0, no write
	// CHECK: v9 = 0
	ds_write_addtid_b32 v7                   // lanes 0..15 at 0xfc0..0xffc, 16..31 outside: dropped
	ds_read_addtid_b32 v10
	// CHECK: v10 lanes 0..15 = 1000 + lane
	// CHECK: v10 lanes 16..31 = 0
	s_endpgm
	// CHECK: status = ended
