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

#endif
