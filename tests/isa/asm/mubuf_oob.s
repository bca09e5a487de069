// Raw buffer with NUM_RECORDS = 16 (s[0:3]); v0 = lane * 4.
// Structured buffer (s[4:7]): stride 8, NUM_RECORDS = 3 records, OOB_SELECT 1.
	buffer_load_dword v1, v0, s[0:3], 0 offen
	buffer_store_dword v2, v0, s[0:3], 0 offen
	buffer_load_dwordx2 v[3:4], off, s[0:3], 0 offset:12
	buffer_load_dword v5, v6, s[4:7], 0 idxen offset:4
	buffer_load_dword v7, v[6:7], s[4:7], 0 idxen offen
	s_endpgm
