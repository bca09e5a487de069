/*
 * Input layouts shared by a harness and the seed writer (make_seeds.c).
 */
#ifndef XS_FUZZ_LAYOUTS_H
#define XS_FUZZ_LAYOUTS_H

/* fuzz_accel.c: u32 control, u32 descriptor offset, u32 descriptor bytes,
 * then the memory image, mapped at FUZZ_ACCEL_VA. */
#define FUZZ_ACCEL_HDR 12
#define FUZZ_ACCEL_VA 0x100000000ull

#endif
