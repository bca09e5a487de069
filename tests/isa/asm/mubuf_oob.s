// Raw buffer with NUM_RECORDS = 16 (s[0:3]); v0 = lane * 4.
// Structured buffer (s[4:7]): stride 8, NUM_RECORDS = 3 records, OOB_SELECT 1.
	buffer_load_dword v1, v0, s[0:3], 0 offen
	// offsets 0..12 in range
	// CHECK: v1 = lane < 4 ? 0xa000 + lane : 0
	buffer_store_dword v2, v0, s[0:3], 0 offen
	// CHECK: mem[buf + 4 * lane] = lane < 4 ? 0xbeef0000 + lane : 0xa000 + lane
	buffer_load_dwordx2 v[3:4], off, s[0:3], 0 offset:12
	// CHECK: v[3:4] = 0xbeef0003, 0
	buffer_load_dword v5, v6, s[4:7], 0 idxen offset:4
	// record l at buf + 8 l, dword 1 (written by the store above for l < 2); index >= 3 out of range
	// CHECK: v5 = lane < 2 ? 0xbeef0001 + 2 * lane : lane == 2 ? 0xa005 : 0
	buffer_load_dword v7, v[6:7], s[4:7], 0 idxen offen
	// v7 was the index register's offset half: only lanes past NUM_RECORDS are known (0)
	// CHECK: v7 lanes 3..31 = 0
	s_endpgm
	// CHECK: status = ended
