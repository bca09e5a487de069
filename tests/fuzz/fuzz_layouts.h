/*
 * Input layouts shared by a harness and the seed writer (make_seeds.c).
 */
#ifndef XS_FUZZ_LAYOUTS_H
#define XS_FUZZ_LAYOUTS_H

/* fuzz_accel.c: u32 control, u32 descriptor offset, u32 descriptor bytes,
 * then the memory image, mapped at FUZZ_ACCEL_VA. */
#define FUZZ_ACCEL_HDR 12
#define FUZZ_ACCEL_VA 0x100000000ull

/* fuzz_bvh.c: 4 bytes of settings, FUZZ_BVH_RAYS rays of 11 words, then
 * the BVH's memory at FUZZ_BVH_VA (a 256-byte aligned T# base). */
#define FUZZ_BVH_RAYS 8
#define FUZZ_BVH_RAY_BYTES 44
#define FUZZ_BVH_HDR (4 + FUZZ_BVH_RAYS * FUZZ_BVH_RAY_BYTES)
#define FUZZ_BVH_VA 0x200000000ull

/* fuzz_cp.c: an 8-byte header, then the memory image: GPU memory of
 * FUZZ_CP_MEM bytes at FUZZ_CP_VA holding the image's bytes and zeros
 * after them (the packets' addresses are FUZZ_CP_VA + an offset in it).
 *   byte 0    bits 0-1: queue of submission A (0 graphics, 1-3 compute)
 *             bit 2: timing model (else functional)
 *             bit 3: the host waits: xs_gpu_execute gets *blocked, and a
 *                    queue blocked at a WAIT_REG_MEM gets its reference
 *                    written by the host (at most FUZZ_CP_HOST_ROUNDS)
 *             bit 4: a second submission, B; bits 5-6 its queue; bit 7: B
 *                    is submitted before A
 *   byte 1    machine: bit 0 Series S (else Series X); other bits ignored
 *   u16 at 2  A's dwords, from image offset 0 (0: every whole dword)
 *   u16 at 4  B's first dword in the image
 *   u16 at 6  B's dwords (0: to the image's end)
 * A submission that would run past the image is cut at its end. The
 * harness's own page, FUZZ_CP_CHECK_VA, holds its fence after the run. */
#define FUZZ_CP_HDR 8
#define FUZZ_CP_VA 0x100000000ull
#define FUZZ_CP_MEM (64u * 1024)
#define FUZZ_CP_CHECK_VA (FUZZ_CP_VA + 0x100000)
#define FUZZ_CP_HOST_ROUNDS 4
#define FUZZ_CP_A_QUEUE(f) ((f) & 3u)
#define FUZZ_CP_TIMING 0x04u
#define FUZZ_CP_HOST_WAITS 0x08u
#define FUZZ_CP_B 0x10u
#define FUZZ_CP_B_QUEUE(f) (((f) >> 5) & 3u)
#define FUZZ_CP_B_FIRST 0x80u
#define FUZZ_CP_SERIES_S 0x01u

#endif
