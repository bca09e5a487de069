/*
 * PM4 command-buffer builder: a growable dword buffer plus one emitter per
 * packet kind xs12 records. Nothing crashes on bad input or on running out of
 * memory: the first failure is kept in b->err (status and a message naming the
 * packet and the rule), that packet and every later one are dropped whole, and
 * the caller checks xs_pm4_builder_failed() once at the end. A packet is either
 * emitted completely or not at all.
 *
 * Packet layouts: docs/hardware.md section 4 (gfx10 PFP/ME forms).
 * Dispatch packets and their SET_BASE carry shader_type = compute, as drivers
 * emit them on the graphics ring; set b->predicate to emit predicated packets.
 */
#ifndef XS_PM4_BUILD_H
#define XS_PM4_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/xs_common.h"

/* Flags of xs_pm4_pkt3_header / xs_pm4_emit_pkt3: the header bits themselves. */
#define XS_PM4_F_PREDICATE 0x1u
#define XS_PM4_F_COMPUTE 0x2u          /* shader_type = 1 */
#define XS_PM4_F_RESET_FILTER_CAM 0x4u

#define XS_PM4_BUILDER_DEFAULT_MAX_DWORDS ((size_t)1 << 24) /* 64 MiB */

typedef struct xs_pm4_builder {
	uint32_t *dw;
	size_t cdw;        /* dwords recorded */
	size_t cap;        /* dwords allocated */
	size_t max_dwords; /* limit: growing past it fails with XS_E_OUT_OF_MEMORY */
	bool predicate;    /* when set, packets get the predicate bit */
	/* Who set the SH registers last, for a recorder's dirty tracking (a
	 * launch template's tag, xs_rt_launch_tmpl); 0: not known. */
	uint64_t sh_tag;
	xs_err err;        /* first failure; XS_OK while none */
	/* realloc by default; tests inject failures. Must return memory free() releases. */
	void *(*realloc_fn)(void *, size_t);
} xs_pm4_builder;

/* max_dwords 0 = XS_PM4_BUILDER_DEFAULT_MAX_DWORDS. */
void xs_pm4_builder_init(xs_pm4_builder *b, size_t max_dwords);
void xs_pm4_builder_free(xs_pm4_builder *b);
/* Empties the buffer and clears the error (keeps the allocation). */
void xs_pm4_builder_reset(xs_pm4_builder *b);
static inline bool xs_pm4_builder_failed(const xs_pm4_builder *b)
{
	return b->err.status != XS_OK;
}

/* Header word: PKT3(op, count, 0) | flags. count = body dwords - 1. */
uint32_t xs_pm4_pkt3_header(unsigned opcode, unsigned count, unsigned flags);

/* Any dwords, unchecked (type-2 filler, hand-made packets in tests). */
void xs_pm4_emit_raw(xs_pm4_builder *b, const uint32_t *dw, size_t n);
/* A type-3 packet with an n-dword body (1 <= n <= 0x4000). */
void xs_pm4_emit_pkt3(xs_pm4_builder *b, unsigned opcode, const uint32_t *body, size_t n, unsigned flags);

/* SET_*_REG: n >= 1 consecutive registers from byte address reg, which must lie
 * (with all n) in the packet's space. */
void xs_pm4_set_sh_reg(xs_pm4_builder *b, uint32_t reg, const uint32_t *values, size_t n);
void xs_pm4_set_sh_reg1(xs_pm4_builder *b, uint32_t reg, uint32_t value);
/* SET_SH_REG_INDEX; index 3 = V_SET_SH_REG_INDEX_APPLY_KMD_CU_AND_MASK, for CU masks. */
void xs_pm4_set_sh_reg_index(xs_pm4_builder *b, uint32_t reg, unsigned index, const uint32_t *values,
			     size_t n);
void xs_pm4_set_context_reg(xs_pm4_builder *b, uint32_t reg, const uint32_t *values, size_t n);
void xs_pm4_set_uconfig_reg(xs_pm4_builder *b, uint32_t reg, const uint32_t *values, size_t n);
void xs_pm4_set_config_reg(xs_pm4_builder *b, uint32_t reg, const uint32_t *values, size_t n);

/* DISPATCH_DIRECT: groups x, y, z (COMPUTE_DIM_*) and COMPUTE_DISPATCH_INITIATOR. */
void xs_pm4_dispatch_direct(xs_pm4_builder *b, uint32_t x, uint32_t y, uint32_t z, uint32_t initiator);
/* Graphics ring: SET_BASE(1, base_va) then DISPATCH_INDIRECT(data_offset, initiator);
 * the group counts are 3 dwords at base_va + data_offset. */
void xs_pm4_dispatch_indirect_gfx(xs_pm4_builder *b, uint64_t base_va, uint32_t data_offset,
				  uint32_t initiator);
/* Compute ring (MEC): DISPATCH_INDIRECT(va lo, va hi, initiator). */
void xs_pm4_dispatch_indirect_mec(xs_pm4_builder *b, uint64_t va, uint32_t initiator);
void xs_pm4_set_base(xs_pm4_builder *b, unsigned base_index, uint64_t va);

/* EVENT_WRITE of an event without an address: event_index 4 for
 * CS/VS/PS_PARTIAL_FLUSH, 0 for the others. Timestamp (*_TS, CS/PS_DONE) and
 * sample events are refused: they need RELEASE_MEM or an address. */
void xs_pm4_event_write(xs_pm4_builder *b, unsigned event_type);

typedef struct xs_pm4_release_mem_desc {
	unsigned event_type; /* V_028A90_BOTTOM_OF_PIPE_TS (end of pipe), CS_DONE, PS_DONE, *_TS */
	uint32_t gcr;        /* cache actions: S_490_GL2_WB(1) | ... (bits 12..23 only) */
	unsigned dst_sel;    /* EOP_DST_SEL_MEM or EOP_DST_SEL_TC_L2 */
	unsigned data_sel;   /* EOP_DATA_SEL_DISCARD, _VALUE_32BIT, _VALUE_64BIT, _TIMESTAMP */
	uint64_t va;         /* 4-byte aligned for 32-bit data, 8 for 64-bit and timestamps */
	uint64_t data;
} xs_pm4_release_mem_desc;
/* RELEASE_MEM, gfx10 form (7 body dwords). event_index is 6 for CS_DONE and
 * PS_DONE, 5 otherwise; int_sel is "send data after write confirm" when data
 * is written (as RADV). */
void xs_pm4_release_mem(xs_pm4_builder *b, const xs_pm4_release_mem_desc *d);
/* End-of-pipe fence: BOTTOM_OF_PIPE_TS writes value (32 or 64 bits) to va. */
void xs_pm4_fence(xs_pm4_builder *b, uint64_t va, uint64_t value, bool is64);

/* WAIT_REG_MEM on memory: waits until (*va & mask) <function> ref;
 * function WAIT_REG_MEM_EQUAL, _NOT_EQUAL, _GREATER_OR_EQUAL, ... (0..6). */
void xs_pm4_wait_reg_mem(xs_pm4_builder *b, unsigned function, uint64_t va, uint32_t ref, uint32_t mask);

/* WAIT_REG_MEM64: waits until (*(uint64_t *)va & mask) <function> ref (va 8-byte aligned). */
void xs_pm4_wait_reg_mem64(xs_pm4_builder *b, unsigned function, uint64_t va, uint64_t ref, uint64_t mask);

/* COND_WRITE: writes data to write_va when (*poll_va & mask) <function> ref. */
void xs_pm4_cond_write(xs_pm4_builder *b, unsigned function, uint64_t poll_va, uint32_t ref, uint32_t mask,
		       uint64_t write_va, uint32_t data);

/* COND_EXEC: the packets recorded between begin and end run only when the
 * dword at va is non-zero. begin returns a mark for end (SIZE_MAX after a
 * failure, which end ignores). */
size_t xs_pm4_cond_exec_begin(xs_pm4_builder *b, uint64_t va);
void xs_pm4_cond_exec_end(xs_pm4_builder *b, size_t mark);

/* DMA_DATA (CP DMA, synchronous): copies bytes from src to dst in GPU
 * memory; split into packets of at most XS_CP_DMA_MAX_BYTES. */
void xs_pm4_dma_data(xs_pm4_builder *b, uint64_t dst, uint64_t src, uint64_t bytes);

/* XS_LAUNCH, xs12's firmware packet for indirect launches (hw/xs_hw_pm4.h). */
typedef struct xs_pm4_launch_desc {
	uint64_t dims_va;         /* group counts to read; 0 = the recorded ones at dims_out_va */
	uint64_t params_va;       /* launch parameters (S3) to read; 0 = none */
	uint64_t dims_out_va;     /* the group counts DISPATCH_INDIRECT reads */
	uint64_t aql_va, kernarg_va;
	uint32_t work_dim;        /* 0 = from the shape */
	uint32_t wave_size, max_flat;
	uint32_t block[3];        /* the recorded shape */
	uint32_t static_lds, dynamic_lds;
	uint32_t reqd[3];         /* reqd_work_group_size, 0 = none */
	const uint32_t *patches;  /* S_XS_PATCH(offset, kind, size) */
	uint32_t npatches;
} xs_pm4_launch_desc;
void xs_pm4_xs_launch(xs_pm4_builder *b, const xs_pm4_launch_desc *d);

/* XS_BUILD_AS, xs12's firmware packet for acceleration structures: op
 * (XS_AS_OP_*) on the descriptor of bytes at desc_va (hw/xs_hw_pm4.h). */
void xs_pm4_xs_build_as(xs_pm4_builder *b, unsigned op, uint64_t desc_va, uint32_t bytes);

/* Draws (hw/xs_hw_pm4.h "draws"). index_type: V_03090C_VGT_INDEX_16 / _32. */
void xs_pm4_index_type(xs_pm4_builder *b, unsigned index_type);
void xs_pm4_index_base(xs_pm4_builder *b, uint64_t va);
void xs_pm4_index_buffer_size(xs_pm4_builder *b, uint32_t indices);
void xs_pm4_num_instances(xs_pm4_builder *b, uint32_t instances);
void xs_pm4_draw_index_auto(xs_pm4_builder *b, uint32_t index_count);
void xs_pm4_draw_index_2(xs_pm4_builder *b, uint32_t max_size, uint64_t index_va, uint32_t index_count);
/* SET_BASE(1, base_va) then DRAW_INDIRECT / DRAW_INDEX_INDIRECT reading the
 * D3D12 draw arguments at base_va + data_offset; base_vtx_reg /
 * start_inst_reg are byte addresses of the SH user-data registers that
 * receive BaseVertex / StartInstance (0: none). */
void xs_pm4_draw_indirect(xs_pm4_builder *b, bool indexed, uint64_t base_va, uint32_t data_offset,
			  uint32_t base_vtx_reg, uint32_t start_inst_reg);
/* XS_FILL, xs12's firmware clear: rows x row_bytes at va, pitch apart,
 * repeating pattern_dw (1, 2 or 4) dwords. */
void xs_pm4_xs_fill(xs_pm4_builder *b, uint64_t va, uint32_t pitch, uint32_t row_bytes, uint32_t rows,
		    const uint32_t *pattern, unsigned pattern_dw);

/* ACQUIRE_MEM over all memory with GCR_CNTL gcr_cntl (S_586_* bits). */
void xs_pm4_acquire_mem(xs_pm4_builder *b, uint32_t gcr_cntl);

/* INDIRECT_BUFFER: dwords (1..0xFFFFF) at va; chain = CHAIN|VALID (no return). */
void xs_pm4_indirect_buffer(xs_pm4_builder *b, uint64_t va, uint32_t dwords, bool chain);

/* NOP with n payload dwords (payload NULL = zeros); n = 0 is the header-only
 * NOP (PKT3_NOP_PAD). n <= 0x3FFF. */
void xs_pm4_nop(xs_pm4_builder *b, const uint32_t *payload, size_t n);

/* WRITE_DATA of n >= 1 dwords to memory at va (DST_SEL memory, write confirm). */
void xs_pm4_write_data(xs_pm4_builder *b, uint64_t va, const uint32_t *values, size_t n);

#endif
