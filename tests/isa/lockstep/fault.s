// Programs tests/isa/test_isa_lockstep.c runs on groups in lockstep, each a
// few steps of group handlers and then a fault in one wave of the group, as
// a run of many steps meets it (each program starts after an s_endpgm).
// 1: a load that faults (a group handler's fault)
v_mov_b32_e32 v2, v0
v_add_nc_u32_e32 v3, 16, v1
v_lshlrev_b32_e32 v4, 2, v3
global_load_dword v5, v[20:21], off
s_endpgm
// 2: an atomic that faults (a handler run wave by wave)
v_mov_b32_e32 v2, v0
v_add_nc_u32_e32 v3, 16, v1
global_atomic_add v[20:21], v2, off
s_endpgm
// 3: an instruction past the waves' VGPRs (a fault of the step's look-up)
v_mov_b32_e32 v2, v0
v_add_nc_u32_e32 v3, 16, v1
v_mov_b32_e32 v40, v2
s_endpgm
