// A program tests/isa/test_isa_lockstep.c runs on groups of wave32 waves in
// lockstep and one wave after another: a branch on EXEC parts the waves
// whose s11 has no lane of EXEC, then a barrier and the end stop them.
v_add_co_u32 v2, vcc_lo, s0, v0
v_add_co_ci_u32_e32 v3, vcc_lo, s1, v1, vcc_lo
s_and_saveexec_b32 s10, s11
s_cbranch_execz .Lskip
v_mov_b32_e32 v4, v2
v_fmac_f32_e32 v6, v13, v15
.Lskip:
s_or_b32 exec_lo, exec_lo, s10
s_waitcnt lgkmcnt(0)
s_barrier
v_add_nc_u32_e32 v1, 16, v1
v_lshlrev_b64 v[11:12], 2, v[1:2]
s_endpgm
