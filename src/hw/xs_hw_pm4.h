/*
 * PM4 packet vocabulary for gfx10.3, in Mesa's style (src/amd/common/sid.h):
 * header fields PKT_TYPE_S/G, PKT_COUNT_S/G, PKT3_IT_OPCODE_S/G, opcodes
 * PKT3_<NAME>, VGT event types V_028A90_<EVENT>, and the fields of packet
 * body dwords as S_<pkt3 dword id>_<FIELD> (Mesa pkt3.json: 0x490 is the
 * RELEASE_MEM op dword, 0x586 GCR_CNTL, 0x370 WRITE_DATA control, 0x3F2 the
 * INDIRECT_BUFFER control dword).
 *
 * Facts: docs/hardware.md section 4 (from Mesa sid.h, pkt3.json, gfx103.json
 * and PAL gfx9_plus_merged_f32_pfp_pm4_packets.h). Register addresses,
 * fields and the register spaces are in hw/xs_hw_regs.h (generated from
 * src/hw/gfx103_regs.txt); the builder, decoder and printer are src/pm4.
 */
#ifndef XS_HW_PM4_H
#define XS_HW_PM4_H

#include <stdint.h>

#include "hw/xs_hw_regs.h"

/* ---- type-3 header (section 4.1) ---- */
#define PKT_TYPE_S(x) XS_FIELD_S(x, 30, 2)
#define PKT_TYPE_G(x) XS_FIELD_G(x, 30, 2)
#define PKT_COUNT_S(x) XS_FIELD_S(x, 16, 14) /* body dwords - 1 */
#define PKT_COUNT_G(x) XS_FIELD_G(x, 16, 14)
#define PKT3_IT_OPCODE_S(x) XS_FIELD_S(x, 8, 8)
#define PKT3_IT_OPCODE_G(x) XS_FIELD_G(x, 8, 8)
#define PKT3_PREDICATE(x) XS_FIELD_S(x, 0, 1) /* as in Mesa: set and get are the same bit 0 */
#define PKT3_PREDICATE_G(x) XS_FIELD_G(x, 0, 1)
#define PKT3_SHADER_TYPE_S(x) XS_FIELD_S(x, 1, 1) /* 1 = compute */
#define PKT3_SHADER_TYPE_G(x) XS_FIELD_G(x, 1, 1)
#define PKT3_RESET_FILTER_CAM_S(x) XS_FIELD_S(x, 2, 1)
#define PKT3_RESET_FILTER_CAM_G(x) XS_FIELD_G(x, 2, 1)
#define PKT3_HEADER_RESERVED_MASK XS_FIELD_S(0x1f, 3, 5) /* bits 3..7 */
#define PKT3(op, count, predicate) \
	(PKT_TYPE_S(3) | PKT_COUNT_S(count) | PKT3_IT_OPCODE_S(op) | PKT3_PREDICATE(predicate))
#define PKT3_COUNT_MAX 0x3FFF
#define PKT2_NOP_PAD PKT_TYPE_S(2)                  /* 0x80000000, one-dword filler */
#define PKT3_NOP_PAD PKT3(PKT3_NOP, PKT3_COUNT_MAX, 0) /* header-only NOP */

/* ---- opcodes (section 4.2) ---- */
#define PKT3_NOP 0x10
#define PKT3_SET_BASE 0x11
#define PKT3_INDEX_BUFFER_SIZE 0x13
#define PKT3_DISPATCH_DIRECT 0x15
#define PKT3_DISPATCH_INDIRECT 0x16
#define PKT3_COND_EXEC 0x22
#define PKT3_DRAW_INDIRECT 0x24
#define PKT3_DRAW_INDEX_INDIRECT 0x25
#define PKT3_INDEX_BASE 0x26
#define PKT3_DRAW_INDEX_2 0x27
#define PKT3_INDEX_TYPE 0x2A /* writes VGT_INDEX_TYPE (gfx9+ drivers set the register instead) */
#define PKT3_DRAW_INDEX_AUTO 0x2D
#define PKT3_NUM_INSTANCES 0x2F /* writes VGT_NUM_INSTANCES */
#define PKT3_WRITE_DATA 0x37
#define PKT3_WAIT_REG_MEM 0x3C
#define PKT3_INDIRECT_BUFFER 0x3F
#define PKT3_COPY_DATA 0x40
#define PKT3_COND_WRITE 0x45
#define PKT3_EVENT_WRITE 0x46
#define PKT3_RELEASE_MEM 0x49
#define PKT3_DMA_DATA 0x50
#define PKT3_ACQUIRE_MEM 0x58
#define PKT3_LOAD_SH_REG_INDEX 0x63
#define PKT3_SET_CONFIG_REG 0x68
#define PKT3_SET_CONTEXT_REG 0x69
#define PKT3_SET_SH_REG 0x76
#define PKT3_SET_SH_REG_OFFSET 0x77
#define PKT3_SET_UCONFIG_REG 0x79
#define PKT3_SET_UCONFIG_REG_INDEX 0x7A
#define PKT3_WAIT_REG_MEM64 0x93
#define PKT3_SET_SH_REG_INDEX 0x9B
/* xs12's own (see XS_LAUNCH below): above every gfx10 opcode. */
#define PKT3_XS_LAUNCH 0xE0
#define PKT3_XS_BUILD_AS 0xE1
#define PKT3_XS_FILL 0xE2

/* ---- SET_*_REG (section 4.3; the spaces' bounds are in xs_hw_regs.h): the
 * first body dword is the dword offset from the space base, with an index in
 * bits 28..31 for the *_INDEX packets. ---- */
#define S_SET_REG_OFFSET(x) XS_FIELD_S(x, 0, 16)
#define G_SET_REG_OFFSET(x) XS_FIELD_G(x, 0, 16)
#define S_SET_REG_INDEX(x) XS_FIELD_S(x, 28, 4)
#define G_SET_REG_INDEX(x) XS_FIELD_G(x, 28, 4)
#define XS_SET_REG_RESERVED_MASK 0x0FFF0000u         /* bits 16..27 of the offset dword */
#define S_SET_SH_REG_VMID_SHIFT(x) XS_FIELD_S(x, 23, 5) /* MEC SET_SH_REG only (PAL) */
#define G_SET_SH_REG_VMID_SHIFT(x) XS_FIELD_G(x, 23, 5)
#define V_SET_SH_REG_INDEX_APPLY_KMD_CU_AND_MASK 3      /* PAL pfp/mec enum */

/* ---- EVENT_WRITE (0x46) dword 1 (section 4.5; Mesa sid.h) ---- */
#define EVENT_TYPE(x) XS_FIELD_S(x, 0, 6)
#define EVENT_INDEX(x) XS_FIELD_S(x, 8, 4)
#define G_EVENT_TYPE(x) XS_FIELD_G(x, 0, 6)
#define G_EVENT_INDEX(x) XS_FIELD_G(x, 8, 4)
#define V_EVENT_INDEX_PARTIAL_FLUSH 4 /* *S_PARTIAL_FLUSH */
#define V_EVENT_INDEX_END_OF_PIPE 5   /* RELEASE_MEM: EOP / TS events */
#define V_EVENT_INDEX_SHADER_DONE 6   /* RELEASE_MEM: CS_DONE, PS_DONE */

/* VGT_EVENT_TYPE (Mesa gfx103.json enum), the ones xs12 names in packets. */
#define V_028A90_CACHE_FLUSH_TS 4
#define V_028A90_CACHE_FLUSH 6
#define V_028A90_CS_PARTIAL_FLUSH 7
#define V_028A90_VS_PARTIAL_FLUSH 15
#define V_028A90_PS_PARTIAL_FLUSH 16
#define V_028A90_CACHE_FLUSH_AND_INV_TS_EVENT 20
#define V_028A90_ZPASS_DONE 21
#define V_028A90_CACHE_FLUSH_AND_INV_EVENT 22
#define V_028A90_SAMPLE_PIPELINESTAT 30
#define V_028A90_SAMPLE_STREAMOUTSTATS 32
#define V_028A90_BOTTOM_OF_PIPE_TS 40
#define V_028A90_FLUSH_SX_TS 41
#define V_028A90_FLUSH_AND_INV_DB_DATA_TS 43
#define V_028A90_FLUSH_AND_INV_CB_DATA_TS 45
#define V_028A90_CS_DONE 47
#define V_028A90_PS_DONE 48
#define V_028A90_THREAD_TRACE_MARKER 53

/* ---- RELEASE_MEM (0x49), gfx10: 7 body dwords (section 4.5) ----
 * dw1 = event + GCR actions, dw2 = selects, dw3/4 address, dw5/6 data,
 * dw7 int_ctxid. */
#define PKT3_RELEASE_MEM_BODY_DW 7
#define S_490_EVENT_TYPE(x) XS_FIELD_S(x, 0, 6)
#define G_490_EVENT_TYPE(x) XS_FIELD_G(x, 0, 6)
#define S_490_EVENT_INDEX(x) XS_FIELD_S(x, 8, 4)
#define G_490_EVENT_INDEX(x) XS_FIELD_G(x, 8, 4)
#define S_490_GLM_WB(x) XS_FIELD_S(x, 12, 1)
#define S_490_GLM_INV(x) XS_FIELD_S(x, 13, 1)
#define S_490_GLV_INV(x) XS_FIELD_S(x, 14, 1)
#define S_490_GL1_INV(x) XS_FIELD_S(x, 15, 1)
#define S_490_GL2_US(x) XS_FIELD_S(x, 16, 1)
#define S_490_GL2_RANGE(x) XS_FIELD_S(x, 17, 2)
#define S_490_GL2_DISCARD(x) XS_FIELD_S(x, 19, 1)
#define S_490_GL2_INV(x) XS_FIELD_S(x, 20, 1)
#define S_490_GL2_WB(x) XS_FIELD_S(x, 21, 1)
#define S_490_SEQ(x) XS_FIELD_S(x, 22, 2)
#define S_490_CACHE_POLICY(x) XS_FIELD_S(x, 25, 2)
#define XS_RELEASE_MEM_GCR_MASK 0x00FFF000u /* bits 12..23: GLM_WB .. SEQ */
#define EOP_DST_SEL(x) XS_FIELD_S(x, 16, 2)
#define G_EOP_DST_SEL(x) XS_FIELD_G(x, 16, 2)
#define EOP_DST_SEL_MEM 0
#define EOP_DST_SEL_TC_L2 1
#define EOP_INT_SEL(x) XS_FIELD_S(x, 24, 3)
#define G_EOP_INT_SEL(x) XS_FIELD_G(x, 24, 3)
#define EOP_INT_SEL_NONE 0
#define EOP_INT_SEL_SEND_DATA_AFTER_WR_CONFIRM 3
#define EOP_DATA_SEL(x) XS_FIELD_S(x, 29, 3)
#define G_EOP_DATA_SEL(x) XS_FIELD_G(x, 29, 3)
#define EOP_DATA_SEL_DISCARD 0
#define EOP_DATA_SEL_VALUE_32BIT 1
#define EOP_DATA_SEL_VALUE_64BIT 2
#define EOP_DATA_SEL_TIMESTAMP 3 /* GPU clock counter, 64 bits */

/* ---- WAIT_REG_MEM (0x3C): 6 body dwords (section 4.5; Mesa sid.h) ---- */
#define PKT3_WAIT_REG_MEM_BODY_DW 6
#define WAIT_REG_MEM_FUNCTION(x) XS_FIELD_S(x, 0, 3)
#define G_WAIT_REG_MEM_FUNCTION(x) XS_FIELD_G(x, 0, 3)
#define WAIT_REG_MEM_ALWAYS 0
#define WAIT_REG_MEM_LESS 1
#define WAIT_REG_MEM_LESS_OR_EQUAL 2
#define WAIT_REG_MEM_EQUAL 3
#define WAIT_REG_MEM_NOT_EQUAL 4
#define WAIT_REG_MEM_GREATER_OR_EQUAL 5
#define WAIT_REG_MEM_GREATER 6
#define WAIT_REG_MEM_MEM_SPACE(x) XS_FIELD_S(x, 4, 2) /* 0 register, 1 memory */
#define G_WAIT_REG_MEM_MEM_SPACE(x) XS_FIELD_G(x, 4, 2)
#define G_WAIT_REG_MEM_OPERATION(x) XS_FIELD_G(x, 6, 2)
#define WAIT_REG_MEM_PFP (1u << 8) /* engine_sel bit 8 */
#define G_WAIT_REG_MEM_ENGINE_SEL(x) XS_FIELD_G(x, 8, 2)
#define XS_WAIT_REG_MEM_POLL_INTERVAL 4 /* what RADV writes */

/* ---- WAIT_REG_MEM64 (0x93): 8 body dwords, the dword 1 fields of
 * WAIT_REG_MEM, then address lo/hi (8-byte aligned), reference lo/hi, mask
 * lo/hi, poll interval (PAL pm4 headers; gfx10 ME and MEC). ---- */
#define PKT3_WAIT_REG_MEM64_BODY_DW 8

/* ---- COND_WRITE (0x45): 8 body dwords: control, poll address lo/hi,
 * reference, mask, write address lo/hi, data. Writes data when
 * (*poll & mask) <function> reference, with WAIT_REG_MEM's functions. ---- */
#define PKT3_COND_WRITE_BODY_DW 8
#define S_COND_WRITE_FUNCTION(x) XS_FIELD_S(x, 0, 3)
#define G_COND_WRITE_FUNCTION(x) XS_FIELD_G(x, 0, 3)
#define S_COND_WRITE_POLL_SPACE(x) XS_FIELD_S(x, 4, 1) /* 1 = memory */
#define G_COND_WRITE_POLL_SPACE(x) XS_FIELD_G(x, 4, 1)
#define S_COND_WRITE_WRITE_SPACE(x) XS_FIELD_S(x, 8, 2) /* 1 = memory */
#define G_COND_WRITE_WRITE_SPACE(x) XS_FIELD_G(x, 8, 2)

/* ---- COND_EXEC (0x22), gfx7+: 4 body dwords: address lo/hi, control
 * (cache policy), exec count. When the dword at the address is 0, the CP
 * skips the next exec_count dwords (Mesa si_cp_dma / radv). ---- */
#define PKT3_COND_EXEC_BODY_DW 4
#define S_COND_EXEC_COUNT(x) XS_FIELD_S(x, 0, 14)
#define G_COND_EXEC_COUNT(x) XS_FIELD_G(x, 0, 14)
#define XS_COND_EXEC_MAX_DWORDS 0x3FFF

/* ---- DMA_DATA (0x50), CP DMA: 6 body dwords: control, source lo/hi (or
 * the fill data), destination lo/hi, command (Mesa sid.h S_411_ / S_415_). ---- */
#define PKT3_DMA_DATA_BODY_DW 6
#define S_411_ENGINE(x) XS_FIELD_S(x, 0, 1)
#define S_411_DST_SEL(x) XS_FIELD_S(x, 20, 2)
#define G_411_DST_SEL(x) XS_FIELD_G(x, 20, 2)
#define V_411_DST_ADDR 0
#define V_411_DST_ADDR_TC_L2 3
#define S_411_SRC_SEL(x) XS_FIELD_S(x, 29, 2)
#define G_411_SRC_SEL(x) XS_FIELD_G(x, 29, 2)
#define V_411_SRC_ADDR 0
#define V_411_DATA 2
#define V_411_SRC_ADDR_TC_L2 3
#define S_411_CP_SYNC(x) XS_FIELD_S(x, 31, 1)
#define S_415_BYTE_COUNT_GFX9(x) XS_FIELD_S(x, 0, 26)
#define G_415_BYTE_COUNT_GFX9(x) XS_FIELD_G(x, 0, 26)
#define S_415_SAIC(x) XS_FIELD_S(x, 28, 1) /* source address does not increment */
#define G_415_SAIC(x) XS_FIELD_G(x, 28, 1)
#define S_415_DAIC(x) XS_FIELD_S(x, 29, 1)
#define G_415_DAIC(x) XS_FIELD_G(x, 29, 1)
#define S_415_RAW_WAIT(x) XS_FIELD_S(x, 30, 1)
#define S_415_DISABLE_WR_CONFIRM_GFX9(x) XS_FIELD_S(x, 31, 1)
#define XS_CP_DMA_MAX_BYTES 0x3FFFFC0u /* 26-bit count, kept 64-byte aligned */

/* ---- XS_LAUNCH (0xE0), xs12's command-processor firmware packet ----
 * What the CP firmware of a console driver does for an indirect compute
 * launch (ExecuteIndirect with dispatch arguments and launch parameters,
 * SPEC S3.1), which no gfx10 packet expresses: read the group counts and
 * the launch parameters from memory when the CP gets there, check them
 * against the rules (S3.3-S3.5, S3.7), set COMPUTE_NUM_THREAD_X/Y/Z and
 * COMPUTE_PGM_RSRC2.LDS_SIZE, and patch the launch's AQL packet and hidden
 * kernel arguments; a DISPATCH_INDIRECT of the written group counts follows.
 * Values that break a rule remove the device with a report naming it.
 *
 *   dw1  control: bit 0 group counts from memory, bit 1 launch parameters
 *        from memory, bits 4..5 work_dim (0: from the shape), bits 8..15
 *        wave size, bits 16..31 the kernel's .max_flat_workgroup_size
 *   dw2-3   group counts (3 dwords) to read, when bit 0
 *   dw4-5   launch parameters (2 dwords, S3) to read, when bit 1
 *   dw6-7   group counts to write (the DISPATCH_INDIRECT's)
 *   dw8-9   the AQL packet;  dw10-11 the kernarg segment
 *   dw12 the recorded group shape X | Y << 16;  dw13 Z
 *   dw14 static LDS bytes;  dw15 recorded dynamic LDS bytes
 *   dw16 reqd_work_group_size X | Y << 16 (0: none);  dw17 Z
 *   dw18 number of hidden-argument patches, then one dword each:
 *        kernarg offset (bits 0..15) | hidden kind (16..23) | size (24..31)
 */
#define PKT3_XS_LAUNCH_FIXED_DW 18
#define XS_LAUNCH_MAX_PATCHES 32
#define S_XS_LAUNCH_DIMS_INDIRECT(x) XS_FIELD_S(x, 0, 1)
#define G_XS_LAUNCH_DIMS_INDIRECT(x) XS_FIELD_G(x, 0, 1)
#define S_XS_LAUNCH_PARAMS_INDIRECT(x) XS_FIELD_S(x, 1, 1)
#define G_XS_LAUNCH_PARAMS_INDIRECT(x) XS_FIELD_G(x, 1, 1)
#define S_XS_LAUNCH_WORK_DIM(x) XS_FIELD_S(x, 4, 2)
#define G_XS_LAUNCH_WORK_DIM(x) XS_FIELD_G(x, 4, 2)
#define S_XS_LAUNCH_WAVE_SIZE(x) XS_FIELD_S(x, 8, 8)
#define G_XS_LAUNCH_WAVE_SIZE(x) XS_FIELD_G(x, 8, 8)
#define S_XS_LAUNCH_MAX_FLAT(x) XS_FIELD_S(x, 16, 16)
#define G_XS_LAUNCH_MAX_FLAT(x) XS_FIELD_G(x, 16, 16)
#define S_XS_PATCH(off, kind, size) (XS_FIELD_S(off, 0, 16) | XS_FIELD_S(kind, 16, 8) | XS_FIELD_S(size, 24, 8))
#define G_XS_PATCH_OFFSET(x) XS_FIELD_G(x, 0, 16)
#define G_XS_PATCH_KIND(x) XS_FIELD_G(x, 16, 8)
#define G_XS_PATCH_SIZE(x) XS_FIELD_G(x, 24, 8)
/* Hidden arguments a launch's shape decides (AMDGPUUsage hidden_*). */
enum {
	XS_PATCH_BLOCK_COUNT_X = 1, XS_PATCH_BLOCK_COUNT_Y, XS_PATCH_BLOCK_COUNT_Z,
	XS_PATCH_GROUP_SIZE_X, XS_PATCH_GROUP_SIZE_Y, XS_PATCH_GROUP_SIZE_Z,
	XS_PATCH_REMAINDER_X, XS_PATCH_REMAINDER_Y, XS_PATCH_REMAINDER_Z,
	XS_PATCH_GRID_DIMS, XS_PATCH_DYNAMIC_LDS_SIZE,
};
/* Launch parameter flags (S3.2; xs12's values) and fields, as d3d12_xs.h. */
#define XS_LAUNCH_FLAG_LDS_SIZE 0x1
#define XS_LAUNCH_FLAG_NUM_THREADS 0x2
#define G_XS_LP_FLAGS(dw0) XS_FIELD_G(dw0, 0, 7)
#define G_XS_LP_LDS_SIZE(dw0) XS_FIELD_G(dw0, 7, 9)
#define G_XS_LP_NUM_THREAD_Z(dw0) XS_FIELD_G(dw0, 16, 16)
#define G_XS_LP_NUM_THREAD_X(dw1) XS_FIELD_G(dw1, 0, 16)
#define G_XS_LP_NUM_THREAD_Y(dw1) XS_FIELD_G(dw1, 16, 16)

/* ---- XS_BUILD_AS (0xE1), xs12's firmware packet for acceleration structures ----
 * What RADV does with compute kernels and a console's driver with its own
 * (BuildRaytracingAccelerationStructure, CopyRaytracingAccelerationStructure,
 * the postbuild info): xs12's CP runs the host builder (src/bvh) when it
 * reaches the packet, reading the inputs from GPU memory then, and is busy
 * for the simulated time of a cost model (docs/hardware.md section 11).
 * A malformed descriptor or input removes the device with a report.
 *
 *   dw1    op (bits 0..3)
 *   dw2-3  the descriptor in GPU memory (command memory, 8-byte aligned)
 *   dw4    the descriptor's bytes
 *
 * Descriptors (little-endian; u64 at 8-byte offsets):
 *   BUILD    0 type (0 bottom, 1 top), 4 D3D12 build flags, 8 count
 *            (geometries or instances), 12 instance layout (0 array, 1 array
 *            of pointers), 16 dest, 24 dest bytes (the prebuild bound),
 *            32 instances, 40 scratch, 48 postbuild entries, 52 0;
 *            then count geometries of XS_AS_GEOM_BYTES (bottom), then the
 *            postbuild entries of XS_AS_INFO_BYTES
 *   geometry 0 D3D12 geometry flags, 4 index format (XS_AS_INDEX_*),
 *            8 index count, 12 vertex count, 16 index buffer, 24 vertex
 *            buffer, 32 vertex stride, 40 transform (0: none)
 *   info     0 dest, 8 type (XS_AS_INFO_*), 12 0
 *   COPY     0 mode (XS_AS_COPY_*), 4 0, 8 dest, 16 source
 *   POSTBUILD  an info entry at 0, then 16 n, 20 0, then n sources (u64)
 */
#define PKT3_XS_BUILD_AS_BODY_DW 4
#define S_XS_AS_OP(x) XS_FIELD_S(x, 0, 4)
#define G_XS_AS_OP(x) XS_FIELD_G(x, 0, 4)
enum { XS_AS_OP_BUILD = 0, XS_AS_OP_COPY = 1, XS_AS_OP_POSTBUILD = 2 };
#define XS_AS_BUILD_BYTES 56
#define XS_AS_GEOM_BYTES 48
#define XS_AS_INFO_BYTES 16
#define XS_AS_COPY_BYTES 24
#define XS_AS_POSTBUILD_BYTES 24
enum { XS_AS_INDEX_NONE = 0, XS_AS_INDEX_U16 = 1, XS_AS_INDEX_U32 = 2 };
enum { XS_AS_LAYOUT_ARRAY = 0, XS_AS_LAYOUT_POINTERS = 1 };
enum { XS_AS_COPY_CLONE = 0, XS_AS_COPY_COMPACT = 1 };
/* The postbuild info written: a u64 each */
enum { XS_AS_INFO_COMPACTED_SIZE = 0, XS_AS_INFO_CURRENT_SIZE = 1 };
#define XS_AS_DESC_MAX_BYTES (64u << 20)

/* ---- ACQUIRE_MEM (0x58), gfx10: 7 body dwords; dw7 is GCR_CNTL ---- */
#define PKT3_ACQUIRE_MEM_BODY_DW 7
#define S_586_GLI_INV(x) XS_FIELD_S(x, 0, 2)
#define S_586_GL1_RANGE(x) XS_FIELD_S(x, 2, 2)
#define S_586_GLM_WB(x) XS_FIELD_S(x, 4, 1)
#define S_586_GLM_INV(x) XS_FIELD_S(x, 5, 1)
#define S_586_GLK_WB(x) XS_FIELD_S(x, 6, 1)
#define S_586_GLK_INV(x) XS_FIELD_S(x, 7, 1)
#define S_586_GLV_INV(x) XS_FIELD_S(x, 8, 1)
#define S_586_GL1_INV(x) XS_FIELD_S(x, 9, 1)
#define S_586_GL2_US(x) XS_FIELD_S(x, 10, 1)
#define S_586_GL2_RANGE(x) XS_FIELD_S(x, 11, 2)
#define S_586_GL2_DISCARD(x) XS_FIELD_S(x, 13, 1)
#define S_586_GL2_INV(x) XS_FIELD_S(x, 14, 1)
#define S_586_GL2_WB(x) XS_FIELD_S(x, 15, 1)
#define S_586_SEQ(x) XS_FIELD_S(x, 16, 2)
#define S_586_RANGE_IS_PA(x) XS_FIELD_S(x, 18, 1)
#define XS_GCR_CNTL_MASK 0x0007FFFFu
#define XS_ACQUIRE_MEM_POLL_INTERVAL 0x0A /* what RADV writes */

/* ---- WRITE_DATA (0x37) control dword (Mesa pkt3.json CONTROL) ---- */
#define S_370_DST_SEL(x) XS_FIELD_S(x, 8, 4)
#define G_370_DST_SEL(x) XS_FIELD_G(x, 8, 4)
#define V_370_MEM_MAPPED_REGISTER 0
#define V_370_TC_L2 2
#define V_370_MEM 5
#define S_370_WR_ONE_ADDR(x) XS_FIELD_S(x, 16, 1)
#define G_370_WR_ONE_ADDR(x) XS_FIELD_G(x, 16, 1)
#define S_370_WR_CONFIRM(x) XS_FIELD_S(x, 20, 1)
#define S_370_ENGINE_SEL(x) XS_FIELD_S(x, 30, 2)
#define V_370_ME 0
#define V_370_PFP 1

/* ---- INDIRECT_BUFFER (0x3F): base lo, base hi, control ---- */
#define S_3F2_IB_SIZE(x) XS_FIELD_S(x, 0, 20) /* dwords */
#define G_3F2_IB_SIZE(x) XS_FIELD_G(x, 0, 20)
#define S_3F2_CHAIN(x) XS_FIELD_S(x, 20, 1)
#define G_3F2_CHAIN(x) XS_FIELD_G(x, 20, 1)
#define S_3F2_PRE_ENA(x) XS_FIELD_S(x, 21, 1)
#define S_3F2_VALID(x) XS_FIELD_S(x, 23, 1)
#define XS_IB_SIZE_MAX 0xFFFFF

/* ---- SET_BASE (0x11): base_index, address lo, address hi ---- */
#define G_SET_BASE_INDEX(x) XS_FIELD_G(x, 0, 4)
#define V_SET_BASE_INDEX_INDIRECT 1 /* DISPATCH_INDIRECT/DRAW_INDIRECT base (RADV, radeonsi) */

/* ---- draws (section 4.5; Mesa sid.h, RADV radv_cs_emit_*draw*_packet) ----
 * INDEX_TYPE        1 dword: VGT_INDEX_TYPE (INDEX_TYPE 0 = 16-bit, 1 = 32-bit)
 * INDEX_BASE        2 dwords: index buffer VA lo (2-byte aligned), hi
 * INDEX_BUFFER_SIZE 1 dword: the index buffer's size in indices; indices at
 *                   or past it read 0 (out of bounds, like a V# range check)
 * NUM_INSTANCES     1 dword: instance count of the following draws
 * DRAW_INDEX_AUTO   index_count, VGT_DRAW_INITIATOR (SOURCE_SELECT AUTO_INDEX)
 * DRAW_INDEX_2      max_size (indices), index VA lo, hi, index_count,
 *                   VGT_DRAW_INITIATOR (SOURCE_SELECT DMA)
 * DRAW_INDIRECT / DRAW_INDEX_INDIRECT
 *                   data_offset (from the SET_BASE address), base_vtx_loc,
 *                   start_inst_loc (SH register offsets of the user SGPRs
 *                   that receive BaseVertex / StartInstance, 0 = none),
 *                   VGT_DRAW_INITIATOR. The arguments in memory are
 *                   D3D12_DRAW_ARGUMENTS (4 dwords) or
 *                   D3D12_DRAW_INDEXED_ARGUMENTS (5 dwords). */
#define PKT3_DRAW_INDIRECT_BODY_DW 4
#define PKT3_DRAW_INDEX_2_BODY_DW 5
#define PKT3_DRAW_INDEX_AUTO_BODY_DW 2
#define PKT3_INDEX_BASE_BODY_DW 2
#define XS_DRAW_ARGS_DW 4         /* VertexCountPerInstance, InstanceCount, StartVertex, StartInstance */
#define XS_DRAW_INDEXED_ARGS_DW 5 /* IndexCountPerInstance, InstanceCount, StartIndex, BaseVertex, StartInstance */

/* ---- XS_FILL (0xE2), xs12's firmware packet for clears ----
 * What a console driver's clear does with a compute kernel or the CB's fast
 * clear (ClearRenderTargetView, ClearDepthStencilView, ClearUnorderedAccess-
 * View*): xs12's CP fills a 2D region of GPU memory when it reaches the
 * packet, with the cost model of docs/hardware.md section 4.
 *
 *   dw1-2  destination VA lo, hi (4-byte aligned, 48-bit)
 *   dw3    pitch: bytes from one row to the next (4-byte aligned, >= row_bytes
 *          when rows > 1)
 *   dw4    row_bytes: bytes written per row (a multiple of 4 x pattern_dw, > 0)
 *   dw5    rows (> 0)
 *   dw6    pattern_dw: 1, 2 or 4
 *   dw7..  the pattern, pattern_dw dwords, repeated along each row from its
 *          first byte (an RGBA8 texel, a D32 value, an RGBA32 texel, ...)
 */
#define PKT3_XS_FILL_FIXED_DW 6
#define XS_FILL_MAX_PATTERN_DW 4
#define XS_FILL_MAX_BYTES (1ull << 40)

/* GPU virtual addresses are 48-bit (src/mem). */
#define XS_PM4_VA_BITS 48

#endif
