/*
 * Vector memory: MUBUF (buffer_*), FLAT, GLOBAL, SCRATCH loads, stores and
 * atomics.
 *
 * Every lane access is described as up to four chunks (address, bytes,
 * space): one contiguous chunk for global memory, one chunk per dword where
 * the dwords are not contiguous (swizzled private memory) or are bounds
 * checked one by one (buffers). A chunk lives in GPU memory (xs_vm, faults
 * when unmapped), in the work-group's LDS (flat shared aperture) or is out
 * of range (loads read 0, stores are dropped). The first faulting lane
 * (lowest lane number) stops the wave with an XS_FAULT_VM at its address.
 *
 * Private (scratch) memory is dword-interleaved across lanes: private byte p
 * of lane l is at base + (p / 4) * wave_lanes * 4 + l * 4 + p % 4
 * (AMDGPUUsage "Memory Spaces"; each dword of a multi-dword access is placed
 * on its own). SCRATCH instructions and the flat private aperture use
 * FLAT_SCRATCH as base.
 *
 * MUBUF addressing (V# layout: docs/hardware.md section 3):
 *   index  = (idxen ? vaddr[0] : 0) + (ADD_TID_ENABLE ? lane : 0)
 *   offset = (offen ? vaddr[idxen] : 0) + inst_offset
 *   swizzled: base + soffset + (index / IS * STRIDE + offset / 4 * 4) * IS
 *             + (index % IS) * 4 + offset % 4, IS = INDEX_STRIDE (8,16,32,64)
 *   linear:   base + soffset + index * STRIDE + offset
 * Range check per dword by OOB_SELECT (gfx10, RADV radv_buffer_view.c):
 *   0: index >= NUM_RECORDS || offset >= STRIDE; 1: index >= NUM_RECORDS;
 *   2: NUM_RECORDS == 0; 3: (swizzled ? swizzled offset : index * STRIDE +
 *   offset) >= NUM_RECORDS. soffset is not part of the checked offset.
 */
#include <stdio.h>
#include <string.h>

#include "hw/xs_hw_regs.h"
#include "isa/xs_isa_priv.h"

#ifdef __AVX512F__
#include <immintrin.h>
#endif

/* A FLAT instruction's address is global memory only below 2^XS_VM_VA_BITS:
 * above it lie the LDS and private apertures (flat_acc) or nothing. */
static inline bool flat_not_global(const xs_inst *in, uint64_t addr)
{
	return in->enc == XS_ENC_FLAT && (addr >> XS_VM_VA_BITS) != 0;
}

enum { SP_VM, SP_LDS, SP_OOB };

typedef struct chunk {
	uint64_t addr;
	uint8_t n, sp;
} chunk;

/* A lane's access in pieces: one per dword of swizzled memory, so five for
 * an unaligned 16-byte access (2 + 4 + 4 + 4 + 2: with four, its last
 * bytes were never read, leaving host stack bytes in the result, nor
 * written). */
typedef struct lane_acc {
	chunk c[5];
	unsigned nc;
} lane_acc;

/* Data shapes. */
enum {
	D_DW,                                   /* ndw dwords */
	D_U8, D_I8, D_U16, D_I16,               /* loads, extended into a dword */
	D_U8_D16, D_U8_D16_HI, D_I8_D16, D_I8_D16_HI, D_16_D16, D_16_D16_HI,
	D_B8, D_B16, D_B8_HI, D_B16_HI,         /* stores */
};

enum { K_LOAD = 1, K_STORE, K_ATOMIC };

/* atomic operations */
enum {
	A_SWAP, A_CMPSWAP, A_ADD, A_SUB, A_RSUB, A_SMIN, A_UMIN, A_SMAX, A_UMAX, A_AND, A_OR, A_XOR,
	A_INC, A_DEC, A_FCMPSWAP, A_FMIN, A_FMAX, A_CSUB, A_FADD, A_MSKOR, A_WRAP,
};

typedef struct memdesc {
	uint8_t kind, shape, bytes, ndw, aop, addtid;
} memdesc;

static memdesc mdesc[XS_OP_COUNT];

/* ---- data shapes -------------------------------------------------------------- */
static void put_load(xs_wave *w, unsigned dst, unsigned lane, const memdesc *d, const uint8_t *buf)
{
	unsigned r = (dst - XS_SRC_VGPR) & 0xff;
	uint32_t *v = &w->v[r][lane], old = *v, b16;
	switch (d->shape) {
	case D_DW:
		for (unsigned k = 0; k < d->ndw; k++) {
			uint32_t word;
			memcpy(&word, buf + 4 * k, 4);
			w->v[(r + k) & 0xff][lane] = word;
		}
		return;
	case D_U8: *v = buf[0]; return;
	case D_I8: *v = (uint32_t)(int32_t)(int8_t)buf[0]; return;
	case D_U16: *v = buf[0] | (uint32_t)buf[1] << 8; return;
	case D_I16: *v = (uint32_t)(int32_t)(int16_t)(buf[0] | buf[1] << 8); return;
	case D_U8_D16: *v = (old & 0xffff0000u) | buf[0]; return;
	case D_U8_D16_HI: *v = (old & 0xffffu) | (uint32_t)buf[0] << 16; return;
	case D_I8_D16: *v = (old & 0xffff0000u) | ((uint32_t)(int32_t)(int8_t)buf[0] & 0xffff); return;
	case D_I8_D16_HI: *v = (old & 0xffffu) | ((uint32_t)(int32_t)(int8_t)buf[0] << 16); return;
	case D_16_D16:
		b16 = buf[0] | (uint32_t)buf[1] << 8;
		*v = (old & 0xffff0000u) | b16;
		return;
	case D_16_D16_HI:
		b16 = buf[0] | (uint32_t)buf[1] << 8;
		*v = (old & 0xffffu) | b16 << 16;
		return;
	default:
		return;
	}
}

static void get_store(const xs_wave *w, unsigned data, unsigned lane, const memdesc *d, uint8_t *buf)
{
	unsigned r = (data - XS_SRC_VGPR) & 0xff;
	uint32_t v = w->v[r][lane];
	switch (d->shape) {
	case D_DW:
		for (unsigned k = 0; k < d->ndw; k++) {
			uint32_t word = w->v[(r + k) & 0xff][lane];
			memcpy(buf + 4 * k, &word, 4);
		}
		return;
	case D_B8: buf[0] = (uint8_t)v; return;
	case D_B8_HI: buf[0] = (uint8_t)(v >> 16); return;
	case D_B16: buf[0] = (uint8_t)v; buf[1] = (uint8_t)(v >> 8); return;
	case D_B16_HI: buf[0] = (uint8_t)(v >> 16); buf[1] = (uint8_t)(v >> 24); return;
	default: return;
	}
}

/* ---- chunk I/O ---------------------------------------------------------------- */
/* Small translation cache (4 entries, direct-mapped by page number; one
 * entry per page, so a page cached for reading is replaced when it is
 * translated for writing) for the lanes of one instruction (lanes tend to
 * hit the same few pages), or of every wave of a lockstep step (g_load,
 * g_store). Lives on the handler's stack, so a cached pointer never
 * outlives the instruction. */
#define TLB_N 4
_Static_assert(TLB_N <= 8, "lane_ptrs permutes the entries of one 8-lane register");
typedef struct tlb {
	uint64_t page[TLB_N];
	uint8_t *host[TLB_N];
	uint16_t lim[TLB_N];  /* bytes valid in the page (an allocation may end inside it) */
	bool wr[TLB_N];
} tlb;

#define TLB_INIT { { ~0ull, ~0ull, ~0ull, ~0ull }, { NULL, NULL, NULL, NULL }, { 0, 0, 0, 0 }, { false, false, false, false } }

static inline uint8_t *tlb_get(xs_vm *vm, tlb *t, uint64_t va, unsigned n, bool wr)
{
	uint32_t off = (uint32_t)(va & (XS_VM_PAGE_SIZE - 1));
	uint64_t pg = va - off;
	unsigned i = (unsigned)(pg >> XS_VM_PAGE_SHIFT) & (TLB_N - 1);
	if (XS_LIKELY(pg == t->page[i] && (t->wr[i] || !wr) && off + n <= t->lim[i]))
		return t->host[i] + off;
	if (XS_UNLIKELY(off + n > XS_VM_PAGE_SIZE))
		return NULL;
	uint32_t lim;
	uint8_t *p = xs_vm_page_ptr(vm, pg, wr, &lim);
	if (!p)
		return NULL;
	t->page[i] = pg;
	t->host[i] = p;
	t->lim[i] = (uint16_t)lim;
	t->wr[i] = wr;
	return off + n <= t->lim[i] ? p + off : NULL;
}

static bool read_chunks(xs_exec *x, xs_wave *w, tlb *t, const lane_acc *a, uint8_t *buf, uint64_t *bad)
{
	for (unsigned i = 0; i < a->nc; i++) {
		const chunk *c = &a->c[i];
		if (c->sp == SP_VM) {
			if (XS_UNLIKELY(x->ctx->mtrace != NULL))
				xs_isa_mtrace_add(x->ctx->mtrace, c->addr, c->n);
			const uint8_t *p = tlb_get(x->vm, t, c->addr, c->n, false);
			if (p)
				memcpy(buf, p, c->n);
			else if (!xs_gmem_read(x->vm, c->addr, buf, c->n, bad))
				return false;
		} else if (c->sp == SP_LDS && c->addr + c->n <= w->lds_size && w->lds) {
			memcpy(buf, w->lds + c->addr, c->n);
		} else {
			memset(buf, 0, c->n);
		}
		buf += c->n;
	}
	return true;
}

static bool write_chunks(xs_exec *x, xs_wave *w, tlb *t, const lane_acc *a, const uint8_t *buf, uint64_t *bad)
{
	if (XS_UNLIKELY(x->ctx->mtrace != NULL))
		for (unsigned i = 0; i < a->nc; i++)
			if (a->c[i].sp == SP_VM)
				xs_isa_mtrace_add(x->ctx->mtrace, a->c[i].addr, a->c[i].n);
	/* the common case: one chunk inside a page */
	if (a->nc == 1 && a->c[0].sp == SP_VM) {
		uint8_t *p = tlb_get(x->vm, t, a->c[0].addr, a->c[0].n, true);
		if (p) {
			memcpy(p, buf, a->c[0].n);
			return true;
		}
	}
	/* probe every VM chunk first so that a faulting store writes nothing */
	for (unsigned i = 0; i < a->nc; i++)
		if (a->c[i].sp == SP_VM && !xs_vm_ptr_n(x->vm, a->c[i].addr, a->c[i].n, false)) {
			*bad = xs_vm_first_bad(x->vm, a->c[i].addr);
			return false;
		}
	for (unsigned i = 0; i < a->nc; i++) {
		const chunk *c = &a->c[i];
		if (c->sp == SP_VM) {
			uint8_t *p = tlb_get(x->vm, t, c->addr, c->n, true);
			if (p)
				memcpy(p, buf, c->n);
			else if (!xs_gmem_write(x->vm, c->addr, buf, c->n, bad))
				return false;
		} else if (c->sp == SP_LDS && c->addr + c->n <= w->lds_size && w->lds) {
			memcpy(w->lds + c->addr, buf, c->n);
		}
		buf += c->n;
	}
	return true;
}

/* ---- address generation ------------------------------------------------------- */
static inline uint64_t swz_private(uint64_t base, uint32_t p, unsigned lane, unsigned lanes)
{
	return base + (uint64_t)(p >> 2) * lanes * 4 + lane * 4 + (p & 3);
}

/* A private-memory access of `bytes` at private address p (swizzled). */
static void private_acc(lane_acc *a, uint64_t base, uint32_t p, unsigned bytes, unsigned lane, unsigned lanes)
{
	a->nc = 0;
	unsigned done = 0;
	while (done < bytes && a->nc < XS_ARRAY_SIZE(a->c)) {
		uint32_t q = p + done;
		unsigned n = 4 - (q & 3);
		if (n > bytes - done)
			n = bytes - done;
		a->c[a->nc++] = (chunk){ swz_private(base, q, lane, lanes), (uint8_t)n, SP_VM };
		done += n;
	}
}

/* A flat address: LDS aperture, private aperture or global memory. */
static void flat_acc(const xs_wave *w, lane_acc *a, uint64_t addr, unsigned bytes, unsigned lane)
{
	uint32_t hi16 = (uint32_t)(addr >> 48);
	if (hi16 == XS_APERTURE_SHARED_HI16 && (addr >> 32) == (XS_APERTURE_SHARED_BASE >> 32)) {
		a->nc = 1;
		a->c[0] = (chunk){ (uint32_t)addr, (uint8_t)bytes, SP_LDS };
	} else if (hi16 == XS_APERTURE_PRIVATE_HI16 && (addr >> 32) == (XS_APERTURE_PRIVATE_BASE >> 32)) {
		private_acc(a, w->flat_scratch, (uint32_t)addr, bytes, lane, w->lanes);
	} else {
		a->nc = 1;
		a->c[0] = (chunk){ addr, (uint8_t)bytes, SP_VM };
	}
}

typedef struct vsharp {
	uint64_t base;
	uint32_t stride, num_records, idx_stride, is_shift;
	bool swizzle, add_tid;
	unsigned oob;
} vsharp;

static void read_vsharp(const xs_wave *w, unsigned r, vsharp *v)
{
	uint32_t w0 = w->s[r & 127], w1 = w->s[(r + 1) & 127], w2 = w->s[(r + 2) & 127], w3 = w->s[(r + 3) & 127];
	v->base = G_008F00_BASE_ADDRESS(w0) | (uint64_t)G_008F04_BASE_ADDRESS_HI(w1) << 32;
	v->stride = G_008F04_STRIDE(w1);
	v->swizzle = G_008F04_SWIZZLE_ENABLE(w1);
	v->num_records = G_008F08_NUM_RECORDS(w2);
	v->is_shift = 3 + G_008F0C_INDEX_STRIDE(w3); /* 8 << INDEX_STRIDE lanes */
	v->idx_stride = 1u << v->is_shift;
	v->add_tid = G_008F0C_ADD_TID_ENABLE(w3);
	v->oob = G_008F0C_OOB_SELECT(w3);
}

/* The range check of one dword, by OOB_SELECT (see the top of the file). */
static inline bool buffer_oob(const vsharp *v, uint32_t index, uint32_t off, uint64_t rel)
{
	switch (v->oob) {
	case V_008F0C_OOB_SELECT_STRUCTURED_WITH_OFFSET: return index >= v->num_records || off >= v->stride;
	case V_008F0C_OOB_SELECT_STRUCTURED: return index >= v->num_records;
	case V_008F0C_OOB_SELECT_DISABLED: return v->num_records == 0;
	default: return rel >= v->num_records; /* V_008F0C_OOB_SELECT_RAW */
	}
}

static void buffer_acc(const vsharp *v, lane_acc *a, uint64_t soffset, uint32_t index, uint32_t offset,
		       unsigned bytes)
{
	a->nc = 0;
	unsigned done = 0;
	while (done < bytes && a->nc < XS_ARRAY_SIZE(a->c)) {
		uint32_t off = offset + done;
		unsigned n = bytes - done;
		if (n > 4)
			n = 4;
		uint64_t rel;
		if (v->swizzle) {
			/* INDEX_STRIDE is a power of two: shifts instead of divisions */
			rel = (((uint64_t)(index >> v->is_shift) * v->stride + (off & ~3u)) << v->is_shift) +
			      (index & (v->idx_stride - 1)) * 4 + (off & 3);
			if ((off & 3) + n > 4)
				n = 4 - (off & 3);
		} else {
			rel = (uint64_t)index * v->stride + off;
		}
		bool oob = buffer_oob(v, index, off, rel);
		a->c[a->nc++] = (chunk){ v->base + soffset + rel, (uint8_t)n, (uint8_t)(oob ? SP_OOB : SP_VM) };
		done += n;
	}
}

/* Builds lane l's access for any of the four encodings. */
typedef struct addr_ctx {
	unsigned enc;
	vsharp v;
	uint64_t saddr, soffset;
	bool has_saddr;
} addr_ctx;

/* Lane l's GLOBAL / FLAT address (no thread-id term): the SGPR base plus
 * the VGPR offset, or the VGPR pair, plus the instruction's offset. */
static inline uint64_t global_addr(const xs_wave *w, const xs_inst *in, const addr_ctx *ac, unsigned l)
{
	unsigned va = (in->src[0] - XS_SRC_VGPR) & 0xff;
	uint64_t a = ac->has_saddr ? ac->saddr + w->v[va][l] : w->v[va][l] | (uint64_t)w->v[(va + 1) & 0xff][l] << 32;
	return a + (uint64_t)(int64_t)in->imm;
}

static inline __attribute__((always_inline)) void lane_access(const xs_wave *w, const xs_inst *in, const addr_ctx *ac, const memdesc *d, unsigned l,
			lane_acc *a)
{
	unsigned bytes = d->bytes;
	switch (ac->enc) {
	case XS_ENC_GLOBAL: {
		uint64_t addr;
		if (d->addtid)
			addr = ac->saddr + (uint64_t)(int64_t)in->imm + l * 4;
		else
			addr = global_addr(w, in, ac, l);
		a->nc = 1;
		a->c[0] = (chunk){ addr, (uint8_t)bytes, SP_VM };
		return;
	}
	case XS_ENC_FLAT: {
		uint64_t addr = (w->v[(in->src[0] - XS_SRC_VGPR) & 0xff][l] |
				 (uint64_t)w->v[(in->src[0] - XS_SRC_VGPR + 1) & 0xff][l] << 32) + (uint64_t)(int64_t)in->imm;
		flat_acc(w, a, addr, bytes, l);
		return;
	}
	case XS_ENC_SCRATCH: {
		uint32_t p = (uint32_t)in->imm + (uint32_t)ac->saddr;
		if (in->src[0] != XS_SREG_NULL)
			p += w->v[(in->src[0] - XS_SRC_VGPR) & 0xff][l];
		private_acc(a, w->flat_scratch, p, bytes, l, w->lanes);
		return;
	}
	default: { /* MUBUF */
		unsigned va = (in->src[0] - XS_SRC_VGPR) & 0xff;
		uint32_t index = 0, offset = (uint32_t)in->imm;
		if (in->mods & XS_MOD_IDXEN) {
			index = w->v[va][l];
			va = (va + 1) & 0xff;
		}
		if (in->mods & XS_MOD_OFFEN)
			offset += w->v[va][l];
		if (ac->v.add_tid)
			index += l;
		buffer_acc(&ac->v, a, ac->soffset, index, offset, bytes);
		return;
	}
	}
}

/* False for a buffer instruction whose SOFFSET is 255, a literal: no
 * operand MUBUF and MTBUF take on gfx10.3 (llvm-mc refuses it; llvm-objdump
 * prints the dword after the instruction as one, and so does xs12's
 * disassembler, but the hardware has no literal for these encodings). */
static inline __attribute__((always_inline)) bool setup(const xs_wave *w, const xs_inst *in, addr_ctx *ac)
{
	ac->enc = in->enc;
	ac->has_saddr = false;
	ac->saddr = 0;
	ac->soffset = 0;
	if (in->enc == XS_ENC_GLOBAL) {
		if (in->src[2] != XS_SREG_NULL) {
			ac->has_saddr = true;
			ac->saddr = w->s[in->src[2] & 127] | (uint64_t)w->s[(in->src[2] + 1) & 127] << 32;
		}
	} else if (in->enc == XS_ENC_SCRATCH) {
		if (in->src[2] != XS_SREG_NULL)
			ac->saddr = w->s[in->src[2] & 127];
	} else if (in->enc == XS_ENC_MUBUF || in->enc == XS_ENC_MTBUF) {
		if (in->src[2] == XS_SRC_LITERAL)
			return false;
		read_vsharp(w, in->src[1], &ac->v);
		ac->soffset = xs_sread(w, in, in->src[2]);
	}
	return true;
}

static int bad_soffset(xs_exec *x, xs_wave *w, const xs_inst *in)
{
	return xs_exec_fault(x, w, in, XS_FAULT_ILLEGAL, x->pc, "SOFFSET 255 (a literal): not an operand of MUBUF/MTBUF");
}

/* ---- loads and stores ----------------------------------------------------------- */
static int vm_fault(xs_exec *x, xs_wave *w, const xs_inst *in, uint64_t bad, unsigned lane)
{
	char d[48];
	snprintf(d, sizeof(d), "lane %u", lane);
	return xs_exec_fault(x, w, in, XS_FAULT_VM, bad, d);
}

/* Fast path: dword data at a plain global address (GLOBAL, or FLAT outside
 * the apertures) that the translation cache maps without crossing a page.
 * Returns the host pointer or NULL to take the general path for the lane. */
static inline uint8_t *fast_global(xs_exec *x, const xs_wave *w, const xs_inst *in, const addr_ctx *ac,
				   unsigned l, unsigned bytes, bool wr, tlb *t)
{
	uint64_t addr = global_addr(w, in, ac, l);
	if (flat_not_global(in, addr))
		return NULL;    /* apertures (or a non-canonical address) */
	uint8_t *p = tlb_get(x->vm, t, addr, bytes, wr);
	if (XS_UNLIKELY(x->ctx->mtrace != NULL) && p)
		xs_isa_mtrace_add(x->ctx->mtrace, addr, bytes); /* timing model: caches */
	return p;
}

/* Fast path for MUBUF dword accesses (swizzled scratch with ADD_TID, no
 * idxen): lane l's single dword when it is aligned, in range and inside one
 * page the translation cache maps. Same address and range check as
 * buffer_acc; NULL sends the lane to the general path (which then records
 * its lines for the timing model, as this path does on success). */
static inline uint8_t *fast_mubuf(xs_exec *x, const xs_wave *w, const xs_inst *in, const addr_ctx *ac,
				  unsigned l, bool wr, tlb *t)
{
	const vsharp *v = &ac->v;
	uint32_t index = v->add_tid ? l : 0, off = (uint32_t)in->imm;
	if (in->mods & XS_MOD_OFFEN)
		off += w->v[(in->src[0] - XS_SRC_VGPR) & 0xff][l];
	if (off & 3)
		return NULL;
	uint64_t rel;
	if (v->swizzle)
		rel = (((uint64_t)(index >> v->is_shift) * v->stride + off) << v->is_shift) +
		      (index & (v->idx_stride - 1)) * 4;
	else
		rel = (uint64_t)index * v->stride + off;
	if (buffer_oob(v, index, off, rel))
		return NULL;
	uint64_t addr = v->base + ac->soffset + rel;
	uint8_t *p = tlb_get(x->vm, t, addr, 4, wr);
	if (XS_UNLIKELY(x->ctx->mtrace != NULL) && p)
		xs_isa_mtrace_add(x->ctx->mtrace, addr, 4);
	return p;
}

/* A whole row of n (32 or 64) dwords between a VGPR and memory: constant
 * sizes, so the copy is a few vector moves instead of a library call
 * (a spilling kernel's scratch loads and stores are such rows). */
static inline void row_copy(void *restrict dst, const void *restrict src, unsigned n)
{
	if (n == 32)
		memcpy(dst, src, 128);
	else
		memcpy(dst, src, 4 * XS_MAX_LANES);
}

/* A wave's private row stored at p (fast_mubuf_row's). A wave writes its
 * private rows in order (a private array's set-up, spills): the row two
 * on is asked for now, so that its lines arrive before that store waits
 * on them (scratch_chase functional 1.10x; one and four rows on gained
 * less: docs/performance-log.md). A prefetch past the slot or the page changes
 * nothing but the host cache. */
static inline void row_store_ahead(uint8_t *p, const uint32_t *row, unsigned n)
{
	for (unsigned o = 0; o < 4 * n; o += XS_HOST_LINE)
		__builtin_prefetch(p + 2 * 4 * n + o, 1, 3);
	row_copy(p, row, n);
}

/* Whole-wave form of fast_mubuf: no offen, full EXEC, ADD_TID, swizzled
 * with INDEX_STRIDE >= the wave size, so lane l's dword is at addr0 + 4 * l
 * (one contiguous row). The range checks grow with the lane number, so the
 * last lane in range means every lane is. Returns the row's host address
 * or NULL (then the per-lane paths run). The lines recorded for the timing
 * model are the ones the per-lane path records (consecutive repeats merge). */
/* Its two halves: whether the V# and the instruction make an n-lane
 * access one row, and the row's offset from base + SOFFSET (rel0); then
 * the row at addr (its host address, the lines recorded). mubuf_rows
 * calls them apart, the V# checked once for a lockstep step's waves. */
static inline bool mubuf_row_fits(const vsharp *v, const xs_inst *in, unsigned n, uint64_t *rel0)
{
	const uint32_t off = (uint32_t)in->imm, last = n - 1;
	if ((in->mods & (XS_MOD_OFFEN | XS_MOD_IDXEN)) || !v->add_tid || !v->swizzle || v->idx_stride < n ||
	    (off & 3))
		return false;
	*rel0 = (uint64_t)off << v->is_shift;   /* index >> is_shift = 0 */
	return !buffer_oob(v, last, off, *rel0 + (uint64_t)last * 4);
}

static inline uint8_t *mubuf_row_at(xs_exec *x, uint64_t addr, unsigned n, bool wr, tlb *t)
{
	uint8_t *p = tlb_get(x->vm, t, addr, 4 * n, wr);
	if (XS_UNLIKELY(x->ctx->mtrace != NULL) && p)
		xs_isa_mtrace_add(x->ctx->mtrace, addr, 4 * n);
	return p;
}

static inline uint8_t *fast_mubuf_row(xs_exec *x, const xs_wave *w, const xs_inst *in, const addr_ctx *ac,
				      uint64_t e, unsigned n, bool wr, tlb *t)
{
	uint64_t rel0;
	if (e != xs_lane_full(w) || !mubuf_row_fits(&ac->v, in, n, &rel0))
		return NULL;
	return mubuf_row_at(x, ac->v.base + ac->soffset + rel0, n, wr, t);
}

/* Whether lane l's address is lane 0's + l * bytes: the low dwords step by
 * bytes (the caller checked that they do not carry) and the high dwords,
 * unless hi is NULL (a scalar base), are all lane 0's. A constant n: the
 * loops are whole vectors. */
static inline __attribute__((always_inline)) bool row_coalesced(const uint32_t *lo, const uint32_t *hi,
								 unsigned bytes, unsigned n)
{
	uint32_t bad = 0, lo0 = lo[0];
	for (unsigned l = 0; l < n; l++)
		bad |= lo[l] ^ (lo0 + l * bytes);
	if (hi) {
		uint32_t hi0 = hi[0];
		for (unsigned l = 0; l < n; l++)
			bad |= hi[l] ^ hi0;
	}
	return bad == 0;
}

/* A GLOBAL or FLAT access of whole dwords with no thread-id term: what the
 * fast_global* paths (and the lockstep prefetch) take on. */
static inline bool global_dwords(const memdesc *d, const xs_inst *in)
{
	return d->shape == D_DW && !d->addtid && (in->enc == XS_ENC_GLOBAL || in->enc == XS_ENC_FLAT);
}

/* Whole-wave form of fast_global: full EXEC and lane l at addr0 + l * bytes
 * (a coalesced access: lane l's address is base + l * size, the common
 * shape of global loads and stores), all inside one page. Returns the
 * row's host address or NULL (then the per-lane paths run). It records the
 * same lines as the per-lane path: consecutive repeats merge. */
static inline uint8_t *fast_global_row(xs_exec *x, const xs_wave *w, const xs_inst *in, const addr_ctx *ac,
				       uint64_t e, unsigned n, unsigned bytes, bool wr, tlb *t)
{
	if (e != xs_lane_full(w))
		return NULL;
	unsigned va = (in->src[0] - XS_SRC_VGPR) & 0xff;
	const uint32_t *lo = w->v[va];
	uint32_t lo0 = lo[0];
	if (lo[1] != lo0 + bytes)
		return NULL; /* not a row from its second lane on: a gather's usual answer, at once */
	if ((uint64_t)lo0 + (uint64_t)(n - 1) * bytes > 0xffffffffull)
		return NULL; /* the low dword would carry */
	const uint32_t *hi = ac->has_saddr ? NULL : w->v[(va + 1) & 0xff];
	if (!XS_BY_LANES(n, row_coalesced, lo, hi, bytes))
		return NULL;
	uint64_t addr = global_addr(w, in, ac, 0);
	if (flat_not_global(in, addr) || flat_not_global(in, addr + (uint64_t)n * bytes - 1))
		return NULL;
	uint8_t *p = tlb_get(x->vm, t, addr, n * bytes, wr);
	if (XS_UNLIKELY(x->ctx->mtrace != NULL) && p)
		xs_isa_mtrace_add(x->ctx->mtrace, addr, n * bytes);
	return p;
}

/* Multi-dword rows (a coalesced float4 access): lane l's dword k is at
 * 4 * (l * ndw + k) of the row, VGPR k's lane l. Constant ndw (the switch
 * below) and rows in restrict locals let the compiler turn the strided
 * accesses into vector shuffles; lane by lane it was a quarter of a
 * streaming kernel's time. */
static inline __attribute__((always_inline)) void aos_to_rows(uint32_t *restrict r0, uint32_t *restrict r1,
							       uint32_t *restrict r2, uint32_t *restrict r3,
							       const uint8_t *restrict p, unsigned n, unsigned ndw)
{
	for (unsigned l = 0; l < n; l++) {
		const uint8_t *q = p + 4 * l * ndw;
		memcpy(&r0[l], q, 4);
		memcpy(&r1[l], q + 4, 4);
		if (ndw > 2)
			memcpy(&r2[l], q + 8, 4);
		if (ndw > 3)
			memcpy(&r3[l], q + 12, 4);
	}
}

static inline __attribute__((always_inline)) void rows_to_aos(const uint32_t *restrict r0, const uint32_t *restrict r1,
							       const uint32_t *restrict r2, const uint32_t *restrict r3,
							       uint8_t *restrict p, unsigned n, unsigned ndw)
{
	for (unsigned l = 0; l < n; l++) {
		uint8_t *q = p + 4 * l * ndw;
		memcpy(q, &r0[l], 4);
		memcpy(q + 4, &r1[l], 4);
		if (ndw > 2)
			memcpy(q + 8, &r2[l], 4);
		if (ndw > 3)
			memcpy(q + 12, &r3[l], 4);
	}
}

/* The rows of a 2..4-dword row access (VGPRs first .. first + ndw - 1,
 * numbers wrapping at 256), from or to the row at p. The VGPRs are
 * distinct rows and p is guest memory: nothing overlaps. */
static void rows_load(xs_wave *w, unsigned first, const uint8_t *p, unsigned n, unsigned ndw)
{
	uint32_t *r[4];
	for (unsigned k = 0; k < 4; k++)
		r[k] = w->v[(first + k) & 0xff];
	if (n == 32 && ndw == 4) { /* a float4 row of wave32, the common case: all constant */
		aos_to_rows(r[0], r[1], r[2], r[3], p, 32, 4);
		return;
	}
	switch (ndw) {
	case 2: aos_to_rows(r[0], r[1], NULL, NULL, p, n, 2); break;
	case 3: aos_to_rows(r[0], r[1], r[2], NULL, p, n, 3); break;
	default: aos_to_rows(r[0], r[1], r[2], r[3], p, n, 4); break;
	}
}

static void rows_store(const xs_wave *w, unsigned first, uint8_t *p, unsigned n, unsigned ndw)
{
	const uint32_t *r[4];
	for (unsigned k = 0; k < 4; k++)
		r[k] = w->v[(first + k) & 0xff];
	if (n == 32 && ndw == 4) {
		rows_to_aos(r[0], r[1], r[2], r[3], p, 32, 4);
		return;
	}
	switch (ndw) {
	case 2: rows_to_aos(r[0], r[1], NULL, NULL, p, n, 2); break;
	case 3: rows_to_aos(r[0], r[1], r[2], NULL, p, n, 3); break;
	default: rows_to_aos(r[0], r[1], r[2], r[3], p, n, 4); break;
	}
}

/* Whether the host pages host[0 .. npages) of consecutive guest pages are
 * consecutive too (the usual case: src/mem backs each 64 KiB block of an
 * allocation from one run of host pages, XS_VM_BLOCK_SIZE). */
static inline bool pages_contiguous(uint8_t *const *host, unsigned npages)
{
	bool contiguous = true;
	for (unsigned k = 1; k < npages; k++)
		contiguous &= host[k] == host[0] + ((size_t)k << XS_VM_PAGE_SHIFT);
	return contiguous;
}

/* Guest address a's host address, its page among host[] from guest page p0. */
static inline uint8_t *lane_host(uint8_t *const *host, uint64_t p0, uint64_t a)
{
	return host[(a - p0) >> XS_VM_PAGE_SHIFT] + (a & (XS_VM_PAGE_SIZE - 1));
}

/* The lanes' host pointers, for addresses within the guest pages from p0
 * on whose host pages are host[0 .. npages). Pages of one allocation are
 * usually consecutive on the host too (pages_contiguous): then a lane's pointer
 * is one add. Otherwise each lane picks its page's entry, which compilers
 * make a vector gather of host[] (on AMD Zen 4 the gather was a third of a
 * scratch gather's time, the adds cost next to nothing): with AVX-512 the
 * at most TLB_N entries sit in one register and a lane's is a permute. */
static inline void lane_ptrs(uint8_t *const *host, unsigned npages, uint64_t p0, const uint64_t *addr, unsigned n,
			     uint8_t **ptr)
{
	if (pages_contiguous(host, npages)) {
		const uintptr_t h0 = (uintptr_t)host[0];
		if (n == 32) { /* constant trip counts: whole vectors */
			for (unsigned l = 0; l < 32; l++)
				ptr[l] = (uint8_t *)(h0 + (addr[l] - p0));
		} else {
			for (unsigned l = 0; l < n; l++)
				ptr[l] = (uint8_t *)(h0 + (addr[l] - p0));
		}
		return;
	}
#ifdef __AVX512F__
	if (n % 8 == 0) { /* (32 or 64 lanes; npages <= TLB_N <= 8 entries) */
		const __m512i hv = _mm512_maskz_loadu_epi64((__mmask8)((1u << npages) - 1), host);
		const __m512i base = _mm512_set1_epi64((long long)p0),
			      in_page = _mm512_set1_epi64(XS_VM_PAGE_SIZE - 1);
		for (unsigned l = 0; l < n; l += 8) {
			__m512i a = _mm512_loadu_si512(addr + l);
			__m512i pg = _mm512_srli_epi64(_mm512_sub_epi64(a, base), XS_VM_PAGE_SHIFT);
			__m512i h = _mm512_permutexvar_epi64(pg, hv);
			_mm512_storeu_si512(ptr + l, _mm512_add_epi64(h, _mm512_and_si512(a, in_page)));
		}
		return;
	}
#endif
	for (unsigned l = 0; l < n; l++)
		ptr[l] = lane_host(host, p0, addr[l]);
}

/* lane_ptrs and the dword loads in one, for a full wave: row[l] = the
 * dword at lane l's address. Storing 32 pointers to read them back lane by
 * lane was most of a scratch gather's host instructions. (AVX-512 gathers,
 * eight lanes an instruction, measured no faster on AMD Zen 4 than these
 * loops: 0.97-1.04x on scratch_chase.) The caller has read every operand
 * (row may be an address's own VGPR). */
static inline void lane_gather(uint8_t *const *host, unsigned npages, uint64_t p0, const uint64_t *addr, unsigned n,
			       uint32_t *row)
{
	if (pages_contiguous(host, npages)) {
		const uintptr_t h0 = (uintptr_t)host[0] - (uintptr_t)p0; /* host address = h0 + guest address */
#ifdef __AVX512F__
		/* Sixteen lanes on consecutive dwords (a tiled kernel's loads
		 * are such runs: a tile's row, the next row 16 lanes on) are one
		 * 64-byte copy; their bytes are the lanes' own, inside the pages.
		 * (n, a wave's lanes, is 32 or 64.) */
		const __m512i step = _mm512_setr_epi64(0, 4, 8, 12, 16, 20, 24, 28);
		for (unsigned l = 0; l < n; l += 16) {
			const uint64_t a0 = addr[l];
			const __m512i e0 = _mm512_add_epi64(_mm512_set1_epi64((long long)a0), step),
				      e1 = _mm512_add_epi64(_mm512_set1_epi64((long long)(a0 + 32)), step);
			if (_mm512_cmpeq_epi64_mask(_mm512_loadu_si512((const void *)(addr + l)), e0) == 0xff &&
			    _mm512_cmpeq_epi64_mask(_mm512_loadu_si512((const void *)(addr + l + 8)), e1) == 0xff) {
				memcpy(&row[l], (const uint8_t *)(h0 + a0), 64);
				continue;
			}
			for (unsigned k = l; k < l + 16; k++)
				memcpy(&row[k], (const uint8_t *)(h0 + addr[k]), 4);
		}
#else
		for (unsigned l = 0; l < n; l++)
			memcpy(&row[l], (const uint8_t *)(h0 + addr[l]), 4);
#endif
		return;
	}
	for (unsigned l = 0; l < n; l++)
		memcpy(&row[l], lane_host(host, p0, addr[l]), 4);
}

/* lane_gather for lanes given as 32-bit offsets from a base address b
 * (base + off[l], which the caller has bounded: no sum wraps, none leaves
 * the pages host[0 .. npages) from guest page p0). With consecutive host
 * pages the host address is formed as an integer, h + off[l]: b may lie
 * below p0, and a pointer may not step outside its object even for a
 * while (UBSan). */
static inline void lane_gather32(uint8_t *const *host, unsigned npages, uint64_t p0, uint64_t b, const uint32_t *off,
				 unsigned n, uint32_t *row)
{
	if (pages_contiguous(host, npages)) {
		const uintptr_t h = (uintptr_t)host[0] + (uintptr_t)(b - p0);
		for (unsigned l = 0; l < n; l++)
			memcpy(&row[l], (const uint8_t *)(h + off[l]), 4);
		return;
	}
	for (unsigned l = 0; l < n; l++)
		memcpy(&row[l], lane_host(host, p0, b + off[l]), 4);
}

/* What global_ptrs and mubuf_ptrs did: nothing (the per-lane loop decides),
 * the active lanes' pointers into ptr[], or (asked with a row, for a full
 * wave of dword loads) the dwords loaded into the row. */
enum { LANES_NONE, LANES_PTRS, LANES_LOADED };

/* global_ptrs for a full wave whose lanes all fall in one page or two
 * neighbouring ones (a table gathered by a wave): each page looked up once,
 * the lanes' host pointers by arithmetic, with no branch per lane. Both
 * pages hold a lane's access (the lowest's and the highest's), so no page
 * is reached that the per-lane path would not reach. False (nothing done
 * but filling the translation cache) when an access crosses a page, the
 * span is wider, a FLAT address leaves the global range, or a page is not
 * wholly mapped: then the per-lane loop decides. With a row (dword
 * loads) the lanes' dwords are loaded into it instead of their pointers
 * stored. */
static inline bool global_span(xs_exec *x, const xs_inst *in, const uint64_t *addr, unsigned n, unsigned bytes,
			       bool wr, tlb *t, uint8_t **ptr, uint32_t *row)
{
	uint64_t lo = ~0ull, hi = 0, cross = 0;
	for (unsigned l = 0; l < n; l++) {
		uint64_t a = addr[l];
		lo = a < lo ? a : lo;
		hi = a > hi ? a : hi;
		cross |= (a & (XS_VM_PAGE_SIZE - 1)) + bytes - 1;
	}
	/* (the largest address is at or past 2^48 when any is) */
	if (cross >> XS_VM_PAGE_SHIFT || flat_not_global(in, hi))
		return false;
	const uint64_t p0 = lo & ~(uint64_t)(XS_VM_PAGE_SIZE - 1);
	/* (in 64 bits: lanes 2^44 bytes apart or more made a page count of
	 * 2^32 + 1, 1 in 32 bits, and the far lanes were read off the first
	 * page's host memory) */
	if ((hi - p0) >> XS_VM_PAGE_SHIFT > 1)
		return false;
	const unsigned npages = (unsigned)((hi - p0) >> XS_VM_PAGE_SHIFT) + 1;
	uint8_t *host[2] = { NULL, NULL }; /* (set below: npages >= 1) */
	for (unsigned k = 0; k < npages; k++)
		if (!(host[k] = tlb_get(x->vm, t, p0 + ((uint64_t)k << XS_VM_PAGE_SHIFT), XS_VM_PAGE_SIZE, wr)))
			return false;
	if (row)
		lane_gather(host, npages, p0, addr, n, row);
	else
		lane_ptrs(host, npages, p0, addr, n, ptr);
	return true;
}

/* global_span for a full wave's dword gather from an SGPR base b (saddr
 * plus the offset) and each lane's 32-bit VGPR offset: the bounds and page
 * checks on the offsets, twice the lanes a vector of 64-bit addresses
 * held. The lanes' addresses go into addr[] first (they are read before
 * row is written: row may be the offsets' own VGPR) when the timing model
 * records lines. False as global_span is. */
static inline bool saddr_gather(xs_exec *x, uint64_t b, const uint32_t *off, unsigned n, tlb *t, uint64_t *addr,
				uint32_t *row)
{
	const uint32_t b12 = (uint32_t)b & (XS_VM_PAGE_SIZE - 1);
	uint32_t mn = ~0u, mx = 0, cross = 0;
	for (unsigned l = 0; l < n; l++) {
		const uint32_t v = off[l];
		mn = v < mn ? v : mn;
		mx = v > mx ? v : mx;
		cross |= ((b12 + v) & (XS_VM_PAGE_SIZE - 1)) + 3;
	}
	if (cross >> XS_VM_PAGE_SHIFT || b + mx < b)
		return false;
	const uint64_t p0 = (b + mn) & ~(uint64_t)(XS_VM_PAGE_SIZE - 1);
	const unsigned npages = (unsigned)((b + mx - p0) >> XS_VM_PAGE_SHIFT) + 1;
	if (npages > 2)
		return false;
	uint8_t *host[2] = { NULL, NULL }; /* (set below: npages >= 1) */
	for (unsigned k = 0; k < npages; k++)
		if (!(host[k] = tlb_get(x->vm, t, p0 + ((uint64_t)k << XS_VM_PAGE_SHIFT), XS_VM_PAGE_SIZE, false)))
			return false;
	if (XS_UNLIKELY(x->ctx->mtrace != NULL))
		for (unsigned l = 0; l < n; l++)
			addr[l] = b + off[l];
	lane_gather32(host, npages, p0, b, off, n, row);
	return true;
}

/* Every active lane's host address for a plain global access of `bytes`
 * (GLOBAL, or FLAT outside the apertures) that does not cross a page, into
 * ptr[l]: a tiled kernel's loads are runs of neighbouring lanes, not one
 * row. What fast_global does lane by lane, with the lanes' addresses formed
 * first into locals (nothing the VGPR writes could alias) and one look-up
 * per lane in the translation cache. LANES_NONE when any lane needs the
 * general path (then nothing was done but fill the cache: the caller runs
 * the lanes as before). Given a row (dword loads only), a full wave within
 * two pages is loaded into it (LANES_LOADED); otherwise the pointers are in
 * ptr[] (LANES_PTRS). On success the timing model's lines are recorded as
 * the per-lane path records them: each lane's, in lane order. */
static inline int global_ptrs(xs_exec *x, const xs_wave *w, const xs_inst *in, const addr_ctx *ac, uint64_t e,
			      unsigned n, unsigned bytes, bool wr, tlb *t, uint8_t **ptr, uint32_t *row)
{
	unsigned va = (in->src[0] - XS_SRC_VGPR) & 0xff;
	const uint32_t *lo = w->v[va], *hi = w->v[(va + 1) & 0xff];
	const uint64_t imm = (uint64_t)(int64_t)in->imm;
	uint64_t addr[XS_MAX_LANES];
	if (ac->has_saddr && row && e == xs_lane_full(w) && saddr_gather(x, ac->saddr + imm, lo, n, t, addr, row)) {
		if (XS_UNLIKELY(x->ctx->mtrace != NULL))
			xs_isa_mtrace_lanes(x->ctx->mtrace, addr, e, bytes);
		return LANES_LOADED;
	}
	if (ac->has_saddr) {
		for (unsigned l = 0; l < n; l++)
			addr[l] = ac->saddr + lo[l] + imm;
	} else {
		for (unsigned l = 0; l < n; l++)
			addr[l] = (lo[l] | (uint64_t)hi[l] << 32) + imm;
	}
	int r = LANES_PTRS;
	if (e == xs_lane_full(w) && global_span(x, in, addr, n, bytes, wr, t, ptr, row)) {
		r = row ? LANES_LOADED : LANES_PTRS;
		goto done;
	}
	for (uint64_t m = e; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		if (flat_not_global(in, addr[l]))
			return LANES_NONE;
		if (!(ptr[l] = tlb_get(x->vm, t, addr[l], bytes, wr)))
			return LANES_NONE;
	}
done:
	if (XS_UNLIKELY(x->ctx->mtrace != NULL))
		xs_isa_mtrace_lanes(x->ctx->mtrace, addr, e, bytes);
	return r;
}

/* gather_ptrs' offsets of n lanes: rel[l] = ((imm + voff[l]) << is_shift) +
 * 4 * l (in 32 bits), the offsets' OR (odd) and maximum (omax), the rel's
 * least and greatest (rlo, rhi). */
static inline __attribute__((always_inline)) void gather_rel(uint32_t imm, const uint32_t *voff, uint32_t is_shift,
							      unsigned n, uint32_t *rel, uint32_t *odd, uint32_t *omax,
							      uint32_t *rlo, uint32_t *rhi)
{
	uint32_t od = 0, om = 0, lo = ~0u, hi = 0;
	for (unsigned l = 0; l < n; l++) {
		const uint32_t o = imm + voff[l], r = (o << is_shift) + 4 * l;
		od |= o;
		om = o > om ? o : om;
		rel[l] = r;
		lo = r < lo ? r : lo;
		hi = r > hi ? r : hi;
	}
	*odd = od, *omax = om, *rlo = lo, *rhi = hi;
}

/* The usual scratch gather (offen, full EXEC, swizzled with ADD_TID and
 * INDEX_STRIDE >= the wave size, every lane inside the range: the caller
 * checks all that), lane l's dword at base + (off[l] << is_shift) + 4 * l:
 * the addresses with no per-lane branch, then the few pages they span
 * (a 64-dword private array of a wave32 is 8 KiB) looked up once each.
 * Aligned dwords never cross a page. False (nothing done but filling the
 * translation cache) when an offset is unaligned, the lanes span more
 * pages than the cache holds, or a page is not wholly mapped: then the
 * per-lane loop decides. With a row (a load) the dwords are loaded into
 * it instead of the lanes' pointers stored. */
static inline bool gather_ptrs(xs_exec *x, const xs_wave *w, const xs_inst *in, uint64_t base,
			       const uint32_t *voff, uint32_t is_shift, bool wr, tlb *t, uint64_t *addr,
			       uint8_t **ptr, uint32_t *row)
{
	const unsigned n = w->lanes;
	const uint32_t imm = (uint32_t)in->imm;
	/* The lanes' offsets from base in 32 bits (rel), which a private
	 * array's always are: twice the lanes a vector of the 64-bit
	 * addresses held, and one 64-bit add a page. Offsets whose largest
	 * shifted one does not fit go lane by lane. */
	uint32_t rel[XS_MAX_LANES], odd, omax, rlo, rhi; /* (gather_rel sets them all) */
	/* one pass (a constant lane count: whole vectors); rel, rlo and rhi
	 * are read only when the offsets pass the test after it */
	if (n == 32)
		gather_rel(imm, voff, is_shift, 32, rel, &odd, &omax, &rlo, &rhi);
	else
		gather_rel(imm, voff, is_shift, 64, rel, &odd, &omax, &rlo, &rhi);
	if ((odd & 3) || ((uint64_t)omax << is_shift) + 4ull * n > 0xffffffffull)
		return false;
	const uint64_t p0 = (base + rlo) & ~(uint64_t)(XS_VM_PAGE_SIZE - 1);
	if ((base + rhi - p0) >> XS_VM_PAGE_SHIFT >= TLB_N)
		return false;
	uint8_t *host[TLB_N];
	const unsigned npages = (unsigned)((base + rhi - p0) >> XS_VM_PAGE_SHIFT) + 1;
	for (unsigned k = 0; k < npages; k++)
		if (!(host[k] = tlb_get(x->vm, t, p0 + ((uint64_t)k << XS_VM_PAGE_SHIFT), XS_VM_PAGE_SIZE, wr)))
			return false;
	/* the 64-bit addresses only where they are read: the lanes' pointers
	 * of a scatter, the timing model's lines */
	if (!row || XS_UNLIKELY(x->ctx->mtrace != NULL))
		for (unsigned l = 0; l < n; l++)
			addr[l] = base + rel[l];
	if (row)
		lane_gather32(host, npages, p0, base, rel, n, row);
	else
		lane_ptrs(host, npages, p0, addr, n, ptr);
	return true;
}

/* fast_mubuf for every active lane at once, into ptr[l]: the V# fields and
 * the lanes' offsets in locals (nothing the VGPR writes could alias), the
 * addresses first, then one translation-cache look-up per lane. A scratch
 * gather (a private array indexed per lane) is this, 32 lanes on ~25
 * lines. LANES_NONE when any lane needs the general path (nothing done but
 * filling the cache). Given a row (loads), the usual gather is loaded into
 * it (LANES_LOADED); otherwise the pointers are in ptr[] (LANES_PTRS). On
 * success the timing model's lines are each lane's, in lane order, as
 * fast_mubuf records them. */
static inline int mubuf_ptrs(xs_exec *x, const xs_wave *w, const xs_inst *in, const addr_ctx *ac, uint64_t e,
			     bool wr, tlb *t, uint8_t **ptr, uint32_t *row)
{
	const vsharp v = ac->v;
	const uint32_t *voff = (in->mods & XS_MOD_OFFEN) ? w->v[(in->src[0] - XS_SRC_VGPR) & 0xff] : NULL;
	const uint64_t base = v.base + ac->soffset;
	uint64_t addr[XS_MAX_LANES];
	int r = LANES_PTRS;
	if (voff && e == xs_lane_full(w) && v.add_tid && v.swizzle && v.idx_stride >= w->lanes &&
	    (v.oob == V_008F0C_OOB_SELECT_DISABLED ? v.num_records != 0
	     : v.oob == V_008F0C_OOB_SELECT_STRUCTURED && w->lanes <= v.num_records) &&
	    gather_ptrs(x, w, in, base, voff, v.is_shift, wr, t, addr, ptr, row)) {
		r = row ? LANES_LOADED : LANES_PTRS;
		goto done;
	}
	for (uint64_t m = e; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		uint32_t index = v.add_tid ? l : 0, off = (uint32_t)in->imm + (voff ? voff[l] : 0);
		if (off & 3)
			return LANES_NONE;
		uint64_t rel;
		if (v.swizzle)
			rel = (((uint64_t)(index >> v.is_shift) * v.stride + off) << v.is_shift) +
			      (index & (v.idx_stride - 1)) * 4;
		else
			rel = (uint64_t)index * v.stride + off;
		if (buffer_oob(&v, index, off, rel))
			return LANES_NONE;
		addr[l] = base + rel;
		if (!(ptr[l] = tlb_get(x->vm, t, addr[l], 4, wr)))
			return LANES_NONE;
	}
done:
	if (XS_UNLIKELY(x->ctx->mtrace != NULL))
		xs_isa_mtrace_lanes(x->ctx->mtrace, addr, e, 4);
	return r;
}

static int load_body(xs_exec *x, xs_wave *w, const xs_inst *in, tlb *tp)
{
	const memdesc *d = &mdesc[in->op];
	if (in->mods & XS_MOD_LDS)
		return xs_exec_unimpl(x, w, in, "load to LDS");
	addr_ctx ac;
	if (!setup(w, in, &ac))
		return bad_soffset(x, w, in);
	uint64_t e = xs_wave_exec(w);
	unsigned n = w->lanes;
	bool fast = global_dwords(d, in) && !(in->mods & XS_MOD_TFE);
	unsigned dr = (in->dst - XS_SRC_VGPR) & 0xff;
	bool fast_mb = in->enc == XS_ENC_MUBUF && d->shape == D_DW && d->ndw == 1 &&
		       !(in->mods & (XS_MOD_TFE | XS_MOD_IDXEN));
	if (fast_mb) {
		const uint8_t *p = fast_mubuf_row(x, w, in, &ac, e, n, false, tp);
		if (p) {
			row_copy(w->v[dr], p, n);
			return 0;
		}
		uint8_t *ptr[XS_MAX_LANES];
		uint32_t *row = w->v[dr];
		int got = mubuf_ptrs(x, w, in, &ac, e, false, tp, ptr, row);
		if (got == LANES_LOADED)
			return 0;
		if (got == LANES_PTRS) {
			/* the offsets were read: the destination may be their row */
			if (e == xs_lane_full(w)) { /* (no bit walk) */
				for (unsigned l = 0; l < n; l++)
					memcpy(&row[l], ptr[l], 4);
				return 0;
			}
			for (uint64_t m = e; m; m &= m - 1) {
				unsigned l = (unsigned)__builtin_ctzll(m);
				memcpy(&row[l], ptr[l], 4);
			}
			return 0;
		}
	}
	if (fast) {
		const uint8_t *p = fast_global_row(x, w, in, &ac, e, n, 4 * d->ndw, false, tp);
		if (p) {
			if (d->ndw == 1) {
				memcpy(w->v[dr], p, 4 * n);
			} else {
				rows_load(w, dr, p, n, d->ndw);
			}
			return 0;
		}
		uint8_t *ptr[XS_MAX_LANES];
		int got = global_ptrs(x, w, in, &ac, e, n, 4 * d->ndw, false, tp, ptr, d->ndw == 1 ? w->v[dr] : NULL);
		if (got == LANES_LOADED)
			return 0;
		if (got == LANES_PTRS) {
			/* the addresses were read: the destination may be their rows */
			for (unsigned k = 0; k < d->ndw; k++) {
				uint32_t *row = w->v[(dr + k) & 0xff];
				for (uint64_t m = e; m; m &= m - 1) {
					unsigned l = (unsigned)__builtin_ctzll(m);
					memcpy(&row[l], ptr[l] + 4 * k, 4);
				}
			}
			return 0;
		}
	}
	for (unsigned l = 0; l < n; l++) {
		if (!((e >> l) & 1))
			continue;
		if (fast_mb) {
			const uint8_t *p = fast_mubuf(x, w, in, &ac, l, false, tp);
			if (p) {
				memcpy(&w->v[dr][l], p, 4);
				continue;
			}
		}
		if (fast) {
			const uint8_t *p = fast_global(x, w, in, &ac, l, 4 * d->ndw, false, tp);
			if (p) {
				for (unsigned k = 0; k < d->ndw; k++)
					memcpy(&w->v[(dr + k) & 0xff][l], p + 4 * k, 4);
				continue;
			}
		}
		lane_acc a;
		uint8_t buf[16];
		uint64_t bad;
		lane_access(w, in, &ac, d, l, &a);
		if (!read_chunks(x, w, tp, &a, buf, &bad))
			return vm_fault(x, w, in, bad, l);
		put_load(w, in->dst, l, d, buf);
		if (in->mods & XS_MOD_TFE)
			w->v[(in->dst - XS_SRC_VGPR + d->ndw) & 0xff][l] = 0;
	}
	return 0;
}

static int x_load(xs_exec *x, xs_wave *w, const xs_inst *in)
{
	tlb t = TLB_INIT;
	return load_body(x, w, in, &t);
}

/* Asks the host's memory for the lines of guest bytes [a, to), for reading
 * or writing, in pages mapped whole (others are skipped: no side effect). */
static inline __attribute__((always_inline)) void prefetch_range(xs_vm *vm, uint64_t a, uint64_t to, bool wr)
{
	while (a < to) {
		uintptr_t p = xs_vm_entry(vm, a);
		uint32_t off = (uint32_t)(a & XS_VM_PAGE_MASK);
		uint32_t end = to - a < XS_VM_PAGE_SIZE - off ? (uint32_t)(off + (to - a)) : XS_VM_PAGE_SIZE;
		const bool whole = p && !(p & XS_VM_PAGE_MASK);
		for (uint32_t o = off & ~(XS_HOST_LINE - 1); whole && o < end; o += XS_HOST_LINE) {
			if (wr)
				__builtin_prefetch((const char *)p + o, 1, 3);
			else
				__builtin_prefetch((const char *)p + o, 0, 3);
		}
		a += end - off;
	}
}

/* The global or flat rows a lockstep step's waves will move, asked of the
 * host's memory at once: one wave's row after another's waited for memory a
 * wave at a time (perf, stream_copy: the input's lines under load_body's top
 * stalls, the output's under store_body's). Each wave's span from its first
 * lane's address, in pages mapped whole; a prefetch changes nothing but
 * when the lines arrive, so a guess that misses (lanes not in a row) costs
 * only the prefetch.
 * When the rows tile one span (a streaming kernel's group), the span after
 * it is asked for too: the next group in the dispatch usually moves it, and
 * its lines then arrive while this group runs (stream_copy functional 1.12x:
 * docs/performance-log.md). At most four pages of it. */
static void g_prefetch(const xs_exec *x, xs_wave *const *ws, unsigned nw, const xs_inst *in, bool wr)
{
	const memdesc *d = &mdesc[in->op];
	if (!global_dwords(d, in))
		return;
	/* a gather (the first wave's second lane not next to its first) has
	 * no row to ask for: its lines are the lanes' own */
	const uint32_t *a0 = ws[0]->v[(in->src[0] - XS_SRC_VGPR) & 0xff];
	if (a0[1] != a0[0] + 4 * d->ndw)
		return;
	uint64_t lo = ~0ull, hi = 0, sum = 0;
	for (unsigned j = 0; j < nw; j++) {
		const xs_wave *w = ws[j];
		addr_ctx ac;
		setup(w, in, &ac);
		uint64_t a = global_addr(w, in, &ac, 0);
		uint32_t bytes = w->lanes * 4 * d->ndw;
		lo = XS_MIN(lo, a), hi = XS_MAX(hi, a + bytes), sum += bytes;
		prefetch_range(x->vm, a, a + bytes, wr);
	}
	if (hi - lo == sum && sum <= 4 * XS_VM_PAGE_SIZE)
		prefetch_range(x->vm, hi, hi + sum, wr);
}

/* Whether a MUBUF instruction is a dword row access as fast_mubuf_row
 * takes them (no offset or index VGPR, no LDS or TFE, an aligned offset, a
 * SOFFSET that is an operand): an -O0 kernel's spill or private row,
 * 85 % of private_spill's buffer instructions. */
static inline bool mubuf_row_form(const xs_inst *in)
{
	const memdesc *d = &mdesc[in->op];
	return in->enc == XS_ENC_MUBUF && d->shape == D_DW && d->ndw == 1 &&
	       !(in->mods & (XS_MOD_OFFEN | XS_MOD_IDXEN | XS_MOD_LDS | XS_MOD_TFE)) && !(in->imm & 3) &&
	       in->src[2] != XS_SRC_LITERAL;
}

static int store_body(xs_exec *x, xs_wave *w, const xs_inst *in, tlb *tp);

/* Such rows for the waves of a lockstep step, as fast_mubuf_row finds
 * them, with the V# decoded and checked (mubuf_row_fits) only when a
 * wave's four SGPRs differ from the wave before's (a dispatch's scratch V#
 * is every wave's). A wave it does not
 * take (EXEC not full, the V# not a swizzled ADD_TID one, out of range, an
 * unmapped page) goes through load_body / store_body, which decide as for
 * any wave. Returns the first wave that faulted, or nw. (load_body per
 * wave decoded the V# and tested the forms each time: ~290 host
 * instructions a row.) */
static int mubuf_rows(xs_exec *x, xs_wave *const *ws, unsigned nw, const xs_inst *in, bool wr, tlb *t)
{
	/* (MUBUF keeps a store's data in vdata, the load's destination field) */
	const unsigned r = in->src[1], reg = (in->dst - XS_SRC_VGPR) & 0xff;
	uint32_t raw[4];
	vsharp v;
	bool fits = false;
	uint64_t rel0 = 0;
	for (unsigned j = 0; j < nw; j++) {
		xs_wave *w = ws[j];
		const uint32_t now[4] = { w->s[r & 127], w->s[(r + 1) & 127], w->s[(r + 2) & 127], w->s[(r + 3) & 127] };
		if (j == 0 || memcmp(now, raw, sizeof(raw))) { /* (a step's waves have one lane count) */
			memcpy(raw, now, sizeof(raw));
			read_vsharp(w, r, &v);
			fits = mubuf_row_fits(&v, in, w->lanes, &rel0);
		}
		uint8_t *p = NULL;
		if (fits && xs_wave_exec(w) == xs_lane_full(w))
			p = mubuf_row_at(x, v.base + xs_sread(w, in, in->src[2]) + rel0, w->lanes, wr, t);
		if (!p) {
			if (wr ? store_body(x, w, in, t) : load_body(x, w, in, t))
				return (int)j;
		} else if (wr) {
			row_store_ahead(p, w->v[reg], w->lanes);
		} else {
			row_copy(w->v[reg], p, w->lanes);
		}
	}
	return (int)nw;
}

/* x_load for the waves of a lockstep step, with one translation cache:
 * a group's waves reach neighbouring rows of the same pages. */
static int g_load(xs_exec *x, xs_wave *const *ws, unsigned nw, const xs_inst *in)
{
	tlb t = TLB_INIT;
	if (mubuf_row_form(in))
		return mubuf_rows(x, ws, nw, in, false, &t);
	g_prefetch(x, ws, nw, in, false);
	for (unsigned j = 0; j < nw; j++)
		if (load_body(x, ws[j], in, &t))
			return (int)j; /* (a fault: the only way these stop) */
	return (int)nw;
}

static int store_body(xs_exec *x, xs_wave *w, const xs_inst *in, tlb *tp)
{
	const memdesc *d = &mdesc[in->op];
	addr_ctx ac;
	if (!setup(w, in, &ac))
		return bad_soffset(x, w, in);
	/* MUBUF keeps the store data in vdata (dst); FLAT/GLOBAL/SCRATCH in data */
	unsigned data = in->enc == XS_ENC_MUBUF ? in->dst : in->src[1];
	uint64_t e = xs_wave_exec(w);
	unsigned n = w->lanes;
	bool fast = global_dwords(d, in);
	unsigned sr = (data - XS_SRC_VGPR) & 0xff;
	bool fast_mb = in->enc == XS_ENC_MUBUF && d->shape == D_DW && d->ndw == 1 &&
		       !(in->mods & XS_MOD_IDXEN);
	if (fast_mb) {
		uint8_t *p = fast_mubuf_row(x, w, in, &ac, e, n, true, tp);
		if (p) {
			row_store_ahead(p, w->v[sr], n);
			return 0;
		}
		uint8_t *ptr[XS_MAX_LANES];
		if (mubuf_ptrs(x, w, in, &ac, e, true, tp, ptr, NULL)) {
			if (e == xs_lane_full(w)) { /* in lane order, with no bit walk */
				for (unsigned l = 0; l < n; l++)
					memcpy(ptr[l], &w->v[sr][l], 4);
				return 0;
			}
			for (uint64_t m = e; m; m &= m - 1) { /* lane order: the last lane's write wins */
				unsigned l = (unsigned)__builtin_ctzll(m);
				memcpy(ptr[l], &w->v[sr][l], 4);
			}
			return 0;
		}
	}
	if (fast) {
		uint8_t *p = fast_global_row(x, w, in, &ac, e, n, 4 * d->ndw, true, tp);
		if (p) {
			if (d->ndw == 1) {
				memcpy(p, w->v[sr], 4 * n);
			} else {
				rows_store(w, sr, p, n, d->ndw);
			}
			return 0;
		}
		uint8_t *ptr[XS_MAX_LANES];
		if (global_ptrs(x, w, in, &ac, e, n, 4 * d->ndw, true, tp, ptr, NULL)) {
			for (uint64_t m = e; m; m &= m - 1) { /* lane order: the last lane's write wins */
				unsigned l = (unsigned)__builtin_ctzll(m);
				for (unsigned k = 0; k < d->ndw; k++)
					memcpy(ptr[l] + 4 * k, &w->v[(sr + k) & 0xff][l], 4);
			}
			return 0;
		}
	}
	for (unsigned l = 0; l < n; l++) {
		if (!((e >> l) & 1))
			continue;
		if (fast_mb) {
			uint8_t *p = fast_mubuf(x, w, in, &ac, l, true, tp);
			if (p) {
				memcpy(p, &w->v[sr][l], 4);
				continue;
			}
		}
		if (fast) {
			uint8_t *p = fast_global(x, w, in, &ac, l, 4 * d->ndw, true, tp);
			if (p) {
				for (unsigned k = 0; k < d->ndw; k++)
					memcpy(p + 4 * k, &w->v[(sr + k) & 0xff][l], 4);
				continue;
			}
		}
		lane_acc a;
		uint8_t buf[16];
		uint64_t bad;
		lane_access(w, in, &ac, d, l, &a);
		get_store(w, data, l, d, buf);
		if (!write_chunks(x, w, tp, &a, buf, &bad))
			return vm_fault(x, w, in, bad, l);
	}
	return 0;
}

static int x_store(xs_exec *x, xs_wave *w, const xs_inst *in)
{
	tlb t = TLB_INIT;
	return store_body(x, w, in, &t);
}

/* The same for the waves of a lockstep step, with one translation cache:
 * a group's waves reach neighbouring rows of the same pages. */
static int g_store(xs_exec *x, xs_wave *const *ws, unsigned nw, const xs_inst *in)
{
	tlb t = TLB_INIT;
	if (mubuf_row_form(in))
		return mubuf_rows(x, ws, nw, in, true, &t);
	g_prefetch(x, ws, nw, in, true);
	for (unsigned j = 0; j < nw; j++)
		if (store_body(x, ws[j], in, &t))
			return (int)j; /* (a fault: the only way these stop) */
	return (int)nw;
}

/* ---- atomics -------------------------------------------------------------------- */
static inline float au2f(uint32_t u) { return xs_u2f(u); }

static uint64_t atomic_new(unsigned aop, uint64_t old, uint64_t src, uint64_t cmp, bool b64)
{
	uint64_t m = b64 ? ~0ull : 0xffffffffull;
	old &= m;
	src &= m;
	switch (aop) {
	case A_SWAP: return src;
	case A_CMPSWAP: return old == (cmp & m) ? src : old;
	case A_ADD: return (old + src) & m;
	case A_SUB: return (old - src) & m;
	case A_RSUB: return (src - old) & m;
	case A_SMIN: return b64 ? ((int64_t)old < (int64_t)src ? old : src)
			       : ((int32_t)old < (int32_t)src ? old : src);
	case A_SMAX: return b64 ? ((int64_t)old > (int64_t)src ? old : src)
			       : ((int32_t)old > (int32_t)src ? old : src);
	case A_UMIN: return old < src ? old : src;
	case A_UMAX: return old > src ? old : src;
	case A_AND: return old & src;
	case A_OR: return old | src;
	case A_XOR: return old ^ src;
	case A_INC: return old >= src ? 0 : old + 1;
	case A_DEC: return (old == 0 || old > src) ? src : old - 1;
	case A_CSUB: return old > src ? old - src : 0;
	case A_FCMPSWAP:
		if (b64)
			return xs_u2d(old) == xs_u2d(cmp) ? src : old;
		return au2f((uint32_t)old) == au2f((uint32_t)cmp) ? src : old;
	case A_FMIN:
		if (b64)
			return xs_d2u(fmin(xs_u2d(old), xs_u2d(src)));
		return xs_f2u(fminf(au2f((uint32_t)old), au2f((uint32_t)src)));
	case A_FMAX:
		if (b64)
			return xs_d2u(fmax(xs_u2d(old), xs_u2d(src)));
		return xs_f2u(fmaxf(au2f((uint32_t)old), au2f((uint32_t)src)));
	case A_FADD: return xs_f2u(au2f((uint32_t)old) + au2f((uint32_t)src));
	case A_MSKOR: return (old & ~cmp & m) | src;
	case A_WRAP: return old >= (cmp & m) ? old - (cmp & m) : old + src;
	default: return old;
	}
}

/* Read-modify-write of one naturally aligned 4/8-byte location in GPU
 * memory, atomic on the host so waves run by several threads agree. */
static bool vm_atomic(xs_vm *vm, uint64_t va, unsigned aop, uint64_t src, uint64_t cmp, bool b64, uint64_t *old,
		      uint64_t *bad)
{
	unsigned sz = b64 ? 8 : 4;
	if ((va & (sz - 1)) != 0) {
		/* misaligned: not atomic on hardware either; plain read-modify-write */
		uint8_t b[8] = { 0 };
		if (!xs_gmem_read(vm, va, b, sz, bad))
			return false;
		uint64_t o = 0;
		memcpy(&o, b, sz);
		uint64_t nv = atomic_new(aop, o, src, cmp, b64);
		memcpy(b, &nv, sz);
		if (!xs_gmem_write(vm, va, b, sz, bad))
			return false;
		*old = o;
		return true;
	}
	uint8_t *p = xs_vm_ptr_n(vm, va, sz, true);
	if (!p) {
		*bad = va;
		return false;
	}
	if (b64) {
		uint64_t *q = (uint64_t *)(void *)p, o = __atomic_load_n(q, __ATOMIC_RELAXED), nv;
		do {
			nv = atomic_new(aop, o, src, cmp, true);
		} while (!__atomic_compare_exchange_n(q, &o, nv, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
		*old = o;
	} else {
		uint32_t *q = (uint32_t *)(void *)p, o = __atomic_load_n(q, __ATOMIC_RELAXED), nv;
		do {
			nv = (uint32_t)atomic_new(aop, o, src, cmp, false);
		} while (!__atomic_compare_exchange_n(q, &o, nv, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
		*old = o;
	}
	return true;
}

static int x_atomic(xs_exec *x, xs_wave *w, const xs_inst *in)
{
	const memdesc *d = &mdesc[in->op];
	addr_ctx ac;
	if (!setup(w, in, &ac))
		return bad_soffset(x, w, in);
	bool b64 = d->ndw == 2;
	/* data: vdata (MUBUF) or data (FLAT/GLOBAL); cmpswap: src then cmp */
	unsigned data = ((in->enc == XS_ENC_MUBUF ? in->dst : in->src[1]) - XS_SRC_VGPR) & 0xff;
	bool has_cmp = d->aop == A_CMPSWAP || d->aop == A_FCMPSWAP;
	bool rtn = (in->mods & XS_MOD_GLC) != 0;
	unsigned dst = (in->dst - XS_SRC_VGPR) & 0xff;
	uint64_t e = xs_wave_exec(w);
	unsigned n = w->lanes;
	memdesc md = *d;
	md.bytes = b64 ? 8 : 4;
	for (unsigned l = 0; l < n; l++) {
		if (!((e >> l) & 1))
			continue;
		lane_acc a;
		lane_access(w, in, &ac, &md, l, &a);
		uint64_t src = w->v[data][l], cmp = 0, old = 0, bad;
		unsigned cw = b64 ? 2 : 1;
		if (b64)
			src |= (uint64_t)w->v[(data + 1) & 0xff][l] << 32;
		if (has_cmp) {
			cmp = w->v[(data + cw) & 0xff][l];
			if (b64)
				cmp |= (uint64_t)w->v[(data + cw + 1) & 0xff][l] << 32;
		}
		/* A 64-bit MUBUF atomic on a linear buffer is two range-checked
		 * dwords side by side (buffer_acc): one 8-byte access, out of
		 * range as a whole when either dword is (the ISA checks atomics
		 * all or nothing). Swizzled dwords are not side by side. */
		if (a.nc == 2 && a.c[1].addr == a.c[0].addr + 4 && a.c[0].n == 4 && a.c[1].n == 4 &&
		    a.c[0].sp != SP_LDS && a.c[1].sp != SP_LDS) {
			a.c[0].n = 8;
			if (a.c[1].sp == SP_OOB)
				a.c[0].sp = SP_OOB;
			a.nc = 1;
		}
		if (a.nc != 1)
			return xs_exec_unimpl(x, w, in, "atomic on swizzled private memory");
		chunk *c = &a.c[0];
		if (c->sp == SP_VM) {
			if (XS_UNLIKELY(x->ctx->mtrace != NULL))
				xs_isa_mtrace_add(x->ctx->mtrace, c->addr, c->n);
			if (!vm_atomic(x->vm, c->addr, d->aop, src, cmp, b64, &old, &bad))
				return vm_fault(x, w, in, bad, l);
		} else if (c->sp == SP_LDS) {
			if (c->addr + c->n <= w->lds_size && w->lds) {
				memcpy(&old, w->lds + c->addr, c->n);
				uint64_t nv = atomic_new(d->aop, old, src, cmp, b64);
				memcpy(w->lds + c->addr, &nv, c->n);
			}
		}
		if (rtn) {
			w->v[dst][l] = (uint32_t)old;
			if (b64)
				w->v[(dst + 1) & 0xff][l] = (uint32_t)(old >> 32);
		}
	}
	return 0;
}

/* ---- typed (format) loads: buffer_load_format_*, tbuffer_load_format_* -----------------
 * The element at the lane's address has the layout of a gfx10 buffer FORMAT
 * (the V#'s SQ_BUF_RSRC_WORD3.FORMAT for MUBUF, the instruction's for
 * MTBUF): 1..4 components of 8, 16 or 32 bits, lowest address first, and a
 * number type. The instruction writes its first 1..4 components converted to
 * 32 bits; components the format lacks read 0, the fourth 1 (1.0 for float
 * and normalized types). An element outside the buffer (the range check of
 * its first byte, see the top of the file) reads 0 in every component.
 * Packed formats (10_11_11 and the like) fault as unimplemented. */
enum { NT_UNORM, NT_SNORM, NT_USCALED, NT_SSCALED, NT_UINT, NT_SINT, NT_FLOAT };

typedef struct buf_format {
	const char *name;        /* without "BUF_FMT_", as llvm-mc-15 spells it */
	uint8_t bits, comps, type;
} buf_format;

/* gfx10 FORMAT values (llvm-mc-15 -mcpu=gfx1030 names them: tests/isa/test_bufformat.py). */
static const buf_format buf_formats[128] = {
	[1] = { "8_UNORM", 8, 1, NT_UNORM }, [2] = { "8_SNORM", 8, 1, NT_SNORM },
	[3] = { "8_USCALED", 8, 1, NT_USCALED }, [4] = { "8_SSCALED", 8, 1, NT_SSCALED },
	[5] = { "8_UINT", 8, 1, NT_UINT }, [6] = { "8_SINT", 8, 1, NT_SINT },
	[7] = { "16_UNORM", 16, 1, NT_UNORM }, [8] = { "16_SNORM", 16, 1, NT_SNORM },
	[9] = { "16_USCALED", 16, 1, NT_USCALED }, [10] = { "16_SSCALED", 16, 1, NT_SSCALED },
	[11] = { "16_UINT", 16, 1, NT_UINT }, [12] = { "16_SINT", 16, 1, NT_SINT },
	[13] = { "16_FLOAT", 16, 1, NT_FLOAT },
	[14] = { "8_8_UNORM", 8, 2, NT_UNORM }, [15] = { "8_8_SNORM", 8, 2, NT_SNORM },
	[16] = { "8_8_USCALED", 8, 2, NT_USCALED }, [17] = { "8_8_SSCALED", 8, 2, NT_SSCALED },
	[18] = { "8_8_UINT", 8, 2, NT_UINT }, [19] = { "8_8_SINT", 8, 2, NT_SINT },
	[20] = { "32_UINT", 32, 1, NT_UINT }, [21] = { "32_SINT", 32, 1, NT_SINT },
	[22] = { "32_FLOAT", 32, 1, NT_FLOAT },
	[23] = { "16_16_UNORM", 16, 2, NT_UNORM }, [24] = { "16_16_SNORM", 16, 2, NT_SNORM },
	[25] = { "16_16_USCALED", 16, 2, NT_USCALED }, [26] = { "16_16_SSCALED", 16, 2, NT_SSCALED },
	[27] = { "16_16_UINT", 16, 2, NT_UINT }, [28] = { "16_16_SINT", 16, 2, NT_SINT },
	[29] = { "16_16_FLOAT", 16, 2, NT_FLOAT },
	[56] = { "8_8_8_8_UNORM", 8, 4, NT_UNORM }, [57] = { "8_8_8_8_SNORM", 8, 4, NT_SNORM },
	[58] = { "8_8_8_8_USCALED", 8, 4, NT_USCALED }, [59] = { "8_8_8_8_SSCALED", 8, 4, NT_SSCALED },
	[60] = { "8_8_8_8_UINT", 8, 4, NT_UINT }, [61] = { "8_8_8_8_SINT", 8, 4, NT_SINT },
	[62] = { "32_32_UINT", 32, 2, NT_UINT }, [63] = { "32_32_SINT", 32, 2, NT_SINT },
	[64] = { "32_32_FLOAT", 32, 2, NT_FLOAT },
	[65] = { "16_16_16_16_UNORM", 16, 4, NT_UNORM }, [66] = { "16_16_16_16_SNORM", 16, 4, NT_SNORM },
	[67] = { "16_16_16_16_USCALED", 16, 4, NT_USCALED }, [68] = { "16_16_16_16_SSCALED", 16, 4, NT_SSCALED },
	[69] = { "16_16_16_16_UINT", 16, 4, NT_UINT }, [70] = { "16_16_16_16_SINT", 16, 4, NT_SINT },
	[71] = { "16_16_16_16_FLOAT", 16, 4, NT_FLOAT },
	[72] = { "32_32_32_UINT", 32, 3, NT_UINT }, [73] = { "32_32_32_SINT", 32, 3, NT_SINT },
	[74] = { "32_32_32_FLOAT", 32, 3, NT_FLOAT },
	[75] = { "32_32_32_32_UINT", 32, 4, NT_UINT }, [76] = { "32_32_32_32_SINT", 32, 4, NT_SINT },
	[77] = { "32_32_32_32_FLOAT", 32, 4, NT_FLOAT },
};

const char *xs_isa_buf_format_name(unsigned format)
{
	return format < 128 && buf_formats[format].name ? buf_formats[format].name : NULL;
}

static uint32_t fmt_component(const buf_format *f, const uint8_t *p)
{
	uint32_t raw = 0;
	memcpy(&raw, p, f->bits / 8);
	float v;
	switch (f->type) {
	case NT_UINT: return raw;
	case NT_SINT: return f->bits == 32 ? raw : (uint32_t)((int32_t)(raw << (32 - f->bits)) >> (32 - f->bits));
	case NT_FLOAT: return f->bits == 32 ? raw : xs_f2u(xs_f16_to_f32((uint16_t)raw));
	case NT_UNORM: v = (float)raw / (float)((1u << f->bits) - 1); return xs_f2u(v);
	case NT_USCALED: return xs_f2u((float)raw);
	default: {
		int32_t sv = (int32_t)(raw << (32 - f->bits)) >> (32 - f->bits);
		if (f->type == NT_SSCALED)
			return xs_f2u((float)sv);
		/* SNORM: the most negative value and the next both map to -1.0 */
		v = (float)sv / (float)((1u << (f->bits - 1)) - 1);
		return xs_f2u(v < -1.0f ? -1.0f : v);
	}
	}
}

/* The FORMAT a typed load reads: MTBUF's own field, else the V#'s
 * SQ_BUF_RSRC_WORD3.FORMAT (s[srsrc + 3]). */
static unsigned load_format(const xs_wave *w, const xs_inst *in)
{
	return in->enc == XS_ENC_MTBUF ? in->ext & 0x7f : G_008F0C_FORMAT(w->s[(in->src[1] + 3) & 127]);
}

/* The typed loads: x..xyzw in opcode order, as xs_exec_register_vmem
 * registers them. */
static inline bool is_load_format(unsigned op)
{
	return (op >= XS_OP_buffer_load_format_x && op <= XS_OP_buffer_load_format_xyzw) ||
	       (op >= XS_OP_tbuffer_load_format_x && op <= XS_OP_tbuffer_load_format_xyzw);
}

unsigned xs_isa_vmem_format_bytes(const xs_wave *w, const xs_inst *in)
{
	if (!is_load_format(in->op))
		return 0;
	const buf_format *f = &buf_formats[load_format(w, in)];
	return f->name ? f->bits / 8 * f->comps : 0;
}

static int x_load_format(xs_exec *x, xs_wave *w, const xs_inst *in)
{
	const memdesc *d = &mdesc[in->op];
	addr_ctx ac;
	if (!setup(w, in, &ac))
		return bad_soffset(x, w, in);
	unsigned fmt = load_format(w, in);
	const buf_format *f = &buf_formats[fmt];
	if (!f->name) {
		char detail[64];
		snprintf(detail, sizeof(detail), "buffer FORMAT %u", fmt);
		return xs_exec_unimpl(x, w, in, detail);
	}
	bool fl = f->type == NT_FLOAT || f->type == NT_UNORM || f->type == NT_SNORM || f->type == NT_USCALED ||
		  f->type == NT_SSCALED;
	const uint32_t one = fl ? 0x3f800000u : 1u;
	memdesc ed = *d;
	/* the whole element, whatever the instruction's component count (the
	 * counters take the same bytes: xs_isa_vmem_format_bytes) */
	ed.bytes = (uint8_t)(f->bits / 8 * f->comps);
	uint64_t e = xs_wave_exec(w);
	tlb t = TLB_INIT;
	unsigned dr = (in->dst - XS_SRC_VGPR) & 0xff;
	for (unsigned l = 0; l < w->lanes; l++) {
		if (!((e >> l) & 1))
			continue;
		lane_acc a;
		uint8_t buf[16];
		uint64_t bad;
		lane_access(w, in, &ac, &ed, l, &a);
		bool oob = a.nc == 0 || a.c[0].sp == SP_OOB;
		if (!read_chunks(x, w, &t, &a, buf, &bad))
			return vm_fault(x, w, in, bad, l);
		for (unsigned k = 0; k < d->ndw; k++) {
			uint32_t v = oob ? 0 : k < f->comps ? fmt_component(f, buf + k * (f->bits / 8)) : k == 3 ? one : 0;
			w->v[(dr + k) & 0xff][l] = v;
		}
		if (in->mods & XS_MOD_TFE)
			w->v[(dr + d->ndw) & 0xff][l] = 0;
	}
	return 0;
}

XS_EXEC(vmem_nop) { XS_UNUSED_HANDLER_ARGS; return 0; }
static int g_vmem_nop(xs_exec *x, xs_wave *const *ws, unsigned n, const xs_inst *in)
{
	(void)ws; (void)n; (void)in;
	return (int)n;
}

/* ---- registration: shapes and atomics from the mnemonics --------------------------- */
static bool parse_shape(const char *s, memdesc *d, bool load)
{
	static const struct { const char *name; uint8_t shape, bytes, ndw; bool load; } shapes[] = {
		{ "dword", D_DW, 4, 1, true }, { "dwordx2", D_DW, 8, 2, true }, { "dwordx3", D_DW, 12, 3, true },
		{ "dwordx4", D_DW, 16, 4, true }, { "ubyte", D_U8, 1, 1, true }, { "sbyte", D_I8, 1, 1, true },
		{ "ushort", D_U16, 2, 1, true }, { "sshort", D_I16, 2, 1, true },
		{ "ubyte_d16", D_U8_D16, 1, 1, true }, { "ubyte_d16_hi", D_U8_D16_HI, 1, 1, true },
		{ "sbyte_d16", D_I8_D16, 1, 1, true }, { "sbyte_d16_hi", D_I8_D16_HI, 1, 1, true },
		{ "short_d16", D_16_D16, 2, 1, true }, { "short_d16_hi", D_16_D16_HI, 2, 1, true },
		{ "dword", D_DW, 4, 1, false }, { "dwordx2", D_DW, 8, 2, false }, { "dwordx3", D_DW, 12, 3, false },
		{ "dwordx4", D_DW, 16, 4, false }, { "byte", D_B8, 1, 1, false }, { "short", D_B16, 2, 1, false },
		{ "byte_d16_hi", D_B8_HI, 1, 1, false }, { "short_d16_hi", D_B16_HI, 2, 1, false },
		{ "dword_addtid", D_DW, 4, 1, true }, { "dword_addtid", D_DW, 4, 1, false },
	};
	for (unsigned i = 0; i < XS_ARRAY_SIZE(shapes); i++) {
		if (shapes[i].load == load && !strcmp(s, shapes[i].name)) {
			d->shape = shapes[i].shape;
			d->bytes = shapes[i].bytes;
			d->ndw = shapes[i].ndw;
			d->addtid = strstr(s, "addtid") != NULL;
			return true;
		}
	}
	return false;
}

static const struct { const char *name; uint8_t aop; } atomics[] = {
	{ "swap", A_SWAP }, { "cmpswap", A_CMPSWAP }, { "add", A_ADD }, { "sub", A_SUB }, { "smin", A_SMIN },
	{ "umin", A_UMIN }, { "smax", A_SMAX }, { "umax", A_UMAX }, { "and", A_AND }, { "or", A_OR },
	{ "xor", A_XOR }, { "inc", A_INC }, { "dec", A_DEC }, { "fcmpswap", A_FCMPSWAP }, { "fmin", A_FMIN },
	{ "fmax", A_FMAX }, { "csub", A_CSUB },
};

static bool parse_atomic(const char *s, memdesc *d)
{
	char buf[32];
	size_t len = strlen(s);
	bool x2 = len > 3 && !strcmp(s + len - 3, "_x2");
	if (len >= sizeof(buf))
		return false;
	memcpy(buf, s, len + 1);
	if (x2)
		buf[len - 3] = 0;
	for (unsigned i = 0; i < XS_ARRAY_SIZE(atomics); i++) {
		if (!strcmp(buf, atomics[i].name)) {
			d->aop = atomics[i].aop;
			d->ndw = x2 ? 2 : 1;
			d->bytes = x2 ? 8 : 4;
			d->shape = D_DW;
			return true;
		}
	}
	return false;
}

unsigned xs_isa_vmem_lane_bytes(unsigned op)
{
	return op < XS_OP_COUNT ? mdesc[op].bytes : 0;
}

void xs_exec_register_vmem(void)
{
	static const char *const prefixes[] = { "buffer_", "global_", "flat_", "scratch_" };
	for (unsigned op = 1; op < XS_OP_COUNT; op++) {
		const xs_op_info *oi = &xs_op_table[op];
		if (oi->enc != XS_ENC_MUBUF && oi->enc != XS_ENC_GLOBAL && oi->enc != XS_ENC_FLAT &&
		    oi->enc != XS_ENC_SCRATCH)
			continue;
		const char *s = NULL;
		for (unsigned i = 0; i < XS_ARRAY_SIZE(prefixes); i++)
			if (!strncmp(oi->name, prefixes[i], strlen(prefixes[i])))
				s = oi->name + strlen(prefixes[i]);
		if (!s)
			continue;
		memdesc *d = &mdesc[op];
		if (!strncmp(s, "load_", 5) && parse_shape(s + 5, d, true)) {
			d->kind = K_LOAD;
			xs_exec_table[op] = x_load;
			xs_exec_group_table[op] = g_load;
		} else if (!strncmp(s, "store_", 6) && parse_shape(s + 6, d, false)) {
			d->kind = K_STORE;
			xs_exec_table[op] = x_store;
			xs_exec_group_table[op] = g_store;
		} else if (!strncmp(s, "atomic_", 7) && parse_atomic(s + 7, d)) {
			d->kind = K_ATOMIC;
			xs_exec_table[op] = x_atomic;
		}
	}
	for (unsigned i = 0; i < 4; i++) {
		mdesc[XS_OP_buffer_load_format_x + i] = (memdesc){ K_LOAD, D_DW, 0, (uint8_t)(i + 1), 0, 0 };
		mdesc[XS_OP_tbuffer_load_format_x + i] = mdesc[XS_OP_buffer_load_format_x + i];
		xs_exec_table[XS_OP_buffer_load_format_x + i] = x_load_format;
		xs_exec_table[XS_OP_tbuffer_load_format_x + i] = x_load_format;
	}
	XS_REG_AS(buffer_gl0_inv, x_vmem_nop);
	XS_REG_AS(buffer_gl1_inv, x_vmem_nop);
	XS_REG_GROUP(buffer_gl0_inv, g_vmem_nop); XS_REG_GROUP(buffer_gl1_inv, g_vmem_nop);
}
