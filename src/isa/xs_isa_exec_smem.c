/*
 * Scalar memory: s_load_dword*, s_buffer_load_dword*, counters, cache
 * controls.
 *
 * Address = SGPR-pair base (48 bits) + offset21 (signed) + soffset SGPR
 * (when not NULL), dword aligned (the low two bits are ignored). Buffer
 * loads take the base from a V# and return 0 for dwords at or past
 * NUM_RECORDS bytes (SMEM always bounds-checks against NUM_RECORDS).
 */
#include "isa/xs_isa_priv.h"

/* The SGPR-pair base, 48 bits. */
static inline uint64_t load_base(const xs_wave *w, unsigned sb)
{
	return w->s[sb & 127] | (uint64_t)(w->s[(sb + 1) & 127] & 0xffff) << 32;
}

/* offset21 plus the soffset SGPR's value when there is one. */
static inline uint64_t load_offset(const xs_wave *w, const xs_inst *in)
{
	uint64_t off = (uint64_t)(int64_t)in->imm;
	if (in->src[1] != XS_SREG_NULL)
		off += xs_sread(w, in, in->src[1]);
	return off;
}

/* A plain load (s_load_dword*) for waves at one step: memory is read once
 * for waves in a row at the same address (the lockstep step's waves load
 * the same kernel arguments and dispatch packet, and nothing is written
 * between them within the step; a look-up and copy per wave were 6-7 % of
 * vadd's functional time). Returns how many waves ran: all of them, or the
 * index of the one that faulted. */
static inline int load_plain(xs_exec *x, xs_wave *const *ws, unsigned nw, const xs_inst *in, unsigned n)
{
	uint32_t vals[16];
	uint64_t last = ~0ull;
	for (unsigned j = 0; j < nw; j++) {
		xs_wave *w = ws[j];
		uint64_t va = (load_base(w, in->src[0]) + load_offset(w, in)) & ~3ull, bad;
		if (va != last) {
			if (!xs_gmem_read_fast(x->vm, va, vals, 4 * n, &bad)) {
				xs_exec_fault(x, w, in, XS_FAULT_VM, bad, NULL);
				return (int)j;
			}
			last = va;
		}
		for (unsigned i = 0; i < n; i++)
			xs_swrite(w, in->dst + i, vals[i]);
	}
	return (int)nw;
}

/* s_buffer_load_dword*: the base from a V#, dwords at or past NUM_RECORDS read 0. */
static int load_buffer(xs_exec *x, xs_wave *w, const xs_inst *in, unsigned n)
{
	unsigned sb = in->src[0];
	uint64_t base = load_base(w, sb);
	uint32_t num_records = w->s[(sb + 2) & 127];
	uint32_t o = (uint32_t)load_offset(w, in) & ~3u;
	uint32_t vals[16];
	for (unsigned i = 0; i < n; i++) {
		uint64_t bad;
		uint32_t oi = o + 4 * i;
		vals[i] = 0;
		if (oi >= num_records || oi < o)
			continue;
		if (!xs_gmem_read_fast(x->vm, (base + oi) & ~3ull, &vals[i], 4, &bad))
			return xs_exec_fault(x, w, in, XS_FAULT_VM, bad, NULL);
	}
	for (unsigned i = 0; i < n; i++)
		xs_swrite(w, in->dst + i, vals[i]);
	return 0;
}

/* One wave: the step of one. */
static int load(xs_exec *x, xs_wave *w, const xs_inst *in, unsigned n)
{
	return load_plain(x, &w, 1, in, n) == 1 ? 0 : XS_WAVE_FAULT;
}

XS_EXEC(s_load_dword) { return load(x, w, in, 1); }
XS_EXEC(s_load_dwordx2) { return load(x, w, in, 2); }
XS_EXEC(s_load_dwordx4) { return load(x, w, in, 4); }
XS_EXEC(s_load_dwordx8) { return load(x, w, in, 8); }
XS_EXEC(s_load_dwordx16) { return load(x, w, in, 16); }
XS_EXEC(s_buffer_load_dword) { return load_buffer(x, w, in, 1); }
XS_EXEC(s_buffer_load_dwordx2) { return load_buffer(x, w, in, 2); }
XS_EXEC(s_buffer_load_dwordx4) { return load_buffer(x, w, in, 4); }
XS_EXEC(s_buffer_load_dwordx8) { return load_buffer(x, w, in, 8); }
XS_EXEC(s_buffer_load_dwordx16) { return load_buffer(x, w, in, 16); }

/* s_memtime and s_memrealtime (the shader clock and the 100 MHz reference
 * clock; HIP's clock64 and wall_clock64): the wave's own instruction count
 * stands in for both. A run must give the same bytes every time, so not the
 * host's time, which s_memrealtime read before (a kernel storing
 * wall_clock64 wrote other bytes each run); the interpreter runs ahead of
 * the timing model's clock, so not that either. Each rises with the wave's
 * instructions: differences still order and count work. */
XS_EXEC(s_memtime) { XS_UNUSED_HANDLER_ARGS; xs_swrite64(w, in->dst, w->insts); return 0; }
XS_EXEC(s_memrealtime) { XS_UNUSED_HANDLER_ARGS; xs_swrite64(w, in->dst, w->insts); return 0; }
XS_EXEC(smem_nop) { XS_UNUSED_HANDLER_ARGS; return 0; }

/* lockstep: a step's waves in one call (they stop only by a fault) */
#define G_LOAD(name, n)                                                         \
	static int g_##name(xs_exec *x, xs_wave *const *ws, unsigned nw, const xs_inst *in) \
	{                                                                       \
		return load_plain(x, ws, nw, in, n);                            \
	}
G_LOAD(s_load_dword, 1)
G_LOAD(s_load_dwordx2, 2)
G_LOAD(s_load_dwordx4, 4)
G_LOAD(s_load_dwordx8, 8)
XS_GROUP_EACH(s_buffer_load_dword)
XS_GROUP_EACH(s_buffer_load_dwordx2)
XS_GROUP_EACH(s_buffer_load_dwordx4)

void xs_exec_register_smem(void)
{
	XS_REG(s_load_dword); XS_REG(s_load_dwordx2); XS_REG(s_load_dwordx4);
	XS_REG(s_load_dwordx8); XS_REG(s_load_dwordx16);
	XS_REG(s_buffer_load_dword); XS_REG(s_buffer_load_dwordx2); XS_REG(s_buffer_load_dwordx4);
	XS_REG(s_buffer_load_dwordx8); XS_REG(s_buffer_load_dwordx16);
	XS_REG_GROUP(s_load_dword, g_s_load_dword); XS_REG_GROUP(s_load_dwordx2, g_s_load_dwordx2);
	XS_REG_GROUP(s_load_dwordx4, g_s_load_dwordx4); XS_REG_GROUP(s_load_dwordx8, g_s_load_dwordx8);
	XS_REG_GROUP(s_buffer_load_dword, g_s_buffer_load_dword);
	XS_REG_GROUP(s_buffer_load_dwordx2, g_s_buffer_load_dwordx2);
	XS_REG_GROUP(s_buffer_load_dwordx4, g_s_buffer_load_dwordx4);
	XS_REG(s_memtime); XS_REG(s_memrealtime);
	XS_REG_AS(s_dcache_inv, x_smem_nop); XS_REG_AS(s_gl1_inv, x_smem_nop);
	XS_REG_AS(s_atc_probe, x_smem_nop); XS_REG_AS(s_atc_probe_buffer, x_smem_nop);
}
