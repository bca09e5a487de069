/*
 * What every fuzz harness shares: libFuzzer's entry point, the input size
 * cap and a sink for printer output.
 */
#ifndef XS_FUZZ_H
#define XS_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Inputs above 1 MiB are ignored by every harness (and refused by
 * fuzz_main): the parsers' costs grow with the input, and this keeps one
 * input well under a second under ASan. */
#define FUZZ_MAX_INPUT (1u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where printers write: /dev/null, opened once (a printer's work is the
 * formatting, which is what is fuzzed; the text itself is not kept). */
static inline FILE *fuzz_sink(void)
{
	static FILE *f;
	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

/* Aborts with a message: the harness's own oracles (a stability or bound
 * check that failed) end the run as a crash would, so libFuzzer keeps the input. */
#define FUZZ_CHECK(cond, ...) do { \
		if (!(cond)) { \
			fprintf(stderr, "fuzz check failed: %s: ", #cond); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
			abort(); \
		} \
	} while (0)

/* FUZZ_VERBOSE=1 in the environment: harnesses say what each input came
 * to (accepted, or the error), to check that seeds reach what they are for. */
static inline bool fuzz_verbose(void)
{
	static int v = -1;
	if (v < 0)
		v = getenv("FUZZ_VERBOSE") != NULL;
	return v;
}
#define FUZZ_SAY(...) do { if (fuzz_verbose()) { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

#endif
