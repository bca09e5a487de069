/*
 * The LDS bank model (src/gpu/xs_gpu_lds.c) against the rule of
 * docs/hardware.md section 8, "LDS banks": 32 banks of a dword, dword d in
 * bank d mod 32; lanes served in phases of 32 / D consecutive lanes (D a
 * lane's dwords rounded up to a power of two); a phase takes the most
 * distinct dwords any bank holds, none when no lane of it is active.
 *
 * First patterns whose answer the rule gives by hand (stride 1, stride 32,
 * a broadcast, padding, float4 rows, the two-address forms, partial EXEC,
 * wave64), then random accesses against a reference written straight from
 * the rule, with none of the model's shortcuts (bank masks, the broadcast
 * path, AVX-512).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/xs_gpu_priv.h"

#define BANKS 32

static uint32_t row[XS_MAX_LANES];

static uint32_t clocks(uint64_t exec, uint32_t lanes, uint32_t naddr, uint32_t ndw, uint32_t off0, uint32_t off1,
		       uint32_t *conflict)
{
	xs_gpu_lds_access a = { .addr = row, .exec = exec, .lanes = lanes, .off = { off0, off1 }, .naddr = naddr,
				.ndw = ndw };
	return xs_gpu_lds_clocks(BANKS, &a, conflict);
}

static void fill(uint32_t stride_bytes, uint32_t base)
{
	for (uint32_t l = 0; l < XS_MAX_LANES; l++)
		row[l] = base + l * stride_bytes;
}

static void by_hand(void **state)
{
	(void)state;
	uint32_t c;
	const uint64_t w32 = 0xffffffffull, w64 = ~0ull;
	fill(4, 0); /* ds_read_b32, consecutive dwords: one phase, one clock */
	assert_int_equal(clocks(w32, 32, 1, 1, 0, 0, &c), 1);
	assert_int_equal(c, 0);
	assert_int_equal(clocks(w64, 64, 1, 1, 0, 0, &c), 2); /* wave64: two phases of 32 lanes */
	assert_int_equal(c, 0);
	fill(128, 0); /* stride 32 dwords: 32 words in bank 0 */
	assert_int_equal(clocks(w32, 32, 1, 1, 0, 0, &c), 32);
	assert_int_equal(c, 31);
	assert_int_equal(clocks(0x0000000fu, 32, 1, 1, 0, 0, &c), 4); /* four lanes active: 4-way */
	assert_int_equal(c, 3);
	fill(132, 0); /* padded to 33 dwords: lane l in bank l */
	assert_int_equal(clocks(w32, 32, 1, 1, 0, 0, &c), 1);
	assert_int_equal(c, 0);
	fill(0, 64); /* one address for all: a broadcast */
	assert_int_equal(clocks(w32, 32, 1, 1, 0, 0, &c), 1);
	/* ds_read2_b32 of one address at offsets 0 and 32 dwords: two words in
	 * one bank, in each of the two 16-lane phases */
	assert_int_equal(clocks(w32, 32, 2, 1, 0, 128, &c), 4);
	assert_int_equal(c, 2);
	fill(16, 0); /* ds_read_b128, float4 rows: 8 lanes a phase fill the 32 banks */
	assert_int_equal(clocks(w32, 32, 1, 4, 0, 0, &c), 4);
	assert_int_equal(c, 0);
	fill(8, 0); /* ds_read_b64 of float2 rows: 16 lanes a phase */
	assert_int_equal(clocks(w32, 32, 1, 2, 0, 0, &c), 2);
	assert_int_equal(c, 0);
	fill(4, 0); /* ds_read2_b32 at offsets 0 and 1 of consecutive dwords: lane l's
		     * second word is lane l+1's first, the same address: no conflict */
	assert_int_equal(clocks(w32, 32, 2, 1, 0, 4, &c), 2);
	assert_int_equal(c, 0);
	fill(132, 0); /* ... but with rows of 33 dwords the two words of neighbours share banks */
	assert_int_equal(clocks(w32, 32, 2, 1, 0, 4, &c), 4);
	assert_int_equal(c, 2);
	assert_int_equal(clocks(0, 32, 1, 1, 0, 0, &c), 0); /* no lane: no clock */
	assert_int_equal(c, 0);
	assert_int_equal(clocks(1ull << 40, 64, 1, 4, 0, 0, &c), 1); /* one lane of phase 5 */
}

/* The offsets the model takes from the encoding (xs_isa_ds_elements), on
 * llvm-mc-15 -mcpu=gfx1030 encodings: offset0/offset1 in elements (x64 for
 * st64), or one 16-bit byte offset. */
static void ds_offsets(void **state)
{
	(void)state;
	static const struct { uint32_t w[2]; unsigned ndw, n; uint32_t off0, off1; } c[] = {
		{ { 0xd8e00301u, 0x00000002u }, 1, 2, 1 * 4 * 64, 3 * 4 * 64 }, /* ds_read2st64_b32 v[0:1], v2 offset0:1 offset1:3 */
		{ { 0xd9dc0502u, 0x00000002u }, 2, 2, 2 * 8, 5 * 8 },           /* ds_read2_b64 v[0:3], v2 offset0:2 offset1:5 */
		{ { 0xdbfc0410u, 0x00000002u }, 4, 1, 1040, 0 },               /* ds_read_b128 v[0:3], v2 offset:1040 */
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		xs_inst in;
		uint32_t off[2];
		assert_int_equal(xs_isa_decode(c[i].w, 2, &in), 8);
		assert_int_equal(xs_isa_ds_elements(&in, c[i].ndw, off), c[i].n);
		assert_int_equal(off[0], c[i].off0);
		assert_int_equal(off[1], c[i].off1);
	}
}

/* The rule, spelled out: every phase, every bank, the distinct dwords. */
static uint32_t reference(uint64_t exec, uint32_t lanes, uint32_t naddr, uint32_t ndw, const uint32_t off[2],
			  uint32_t *conflict)
{
	uint32_t d = 1;
	while (d < naddr * ndw)
		d *= 2;
	uint32_t phase = BANKS / d, total = 0, extra = 0;
	for (uint32_t p = 0; p < lanes; p += phase) {
		uint32_t words[BANKS * 2], n = 0, most = 0;
		for (uint32_t l = p; l < p + phase && l < lanes; l++)
			if (exec >> l & 1)
				for (uint32_t i = 0; i < naddr; i++)
					for (uint32_t k = 0; k < ndw; k++)
						words[n++] = ((row[l] + off[i]) >> 2) + k;
		if (!n)
			continue;
		for (uint32_t b = 0; b < BANKS; b++) {
			uint32_t distinct = 0;
			for (uint32_t i = 0; i < n; i++) {
				bool first = words[i] % BANKS == b;
				for (uint32_t j = 0; j < i && first; j++)
					first = words[j] != words[i];
				distinct += first;
			}
			most = distinct > most ? distinct : most;
		}
		total += most;
		extra += most - 1;
	}
	*conflict = extra;
	return total;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

static void random_against_the_rule(void **state)
{
	(void)state;
	static const uint32_t shapes[][2] = { { 1, 1 }, { 1, 2 }, { 1, 3 }, { 1, 4 }, { 2, 1 }, { 2, 2 } };
	for (int t = 0; t < 40000; t++) {
		uint32_t lanes = next() & 1 ? 64 : 32, s = next() % 6, naddr = shapes[s][0], ndw = shapes[s][1];
		uint32_t kind = next() % 7, base = next() & 0xfffc;
		if (kind == 6) /* rows that wrap past 2^32 */
			base = 0xffffff80u + 4 * (next() % 32);
		for (uint32_t l = 0; l < XS_MAX_LANES; l++) /* strides, broadcasts, small and wide scatters, rows */
			row[l] = kind == 0 ? base + l * 4 * (next() % 40) : kind == 1 ? base
			       : kind == 2 ? base + (next() % 16) * 4 : kind == 3 ? next()
			       : kind == 4 ? base + l * 4 * (t % 70) : base + l * 4;
		uint64_t exec = next() % 4 ? (lanes == 64 ? ~0ull : 0xffffffffull)
					   : ((uint64_t)next() << 32 | next()) & (lanes == 64 ? ~0ull : 0xffffffffull);
		uint32_t off[2] = { (next() % 256) * 4, (next() % 256) * 4 * ndw }, c_model, c_ref;
		if (next() % 4 == 0) /* the *2* forms' offsets close together: rows that overlap */
			off[1] = off[0] + (next() % 40) * 4;
		uint32_t got = clocks(exec, lanes, naddr, ndw, off[0], off[1], &c_model);
		uint32_t want = reference(exec, lanes, naddr, ndw, off, &c_ref);
		if (got != want || c_model != c_ref)
			fail_msg("case %d: lanes %u, %u x %u dwords, kind %u: %u clocks (%u conflict), the rule says %u (%u)", t,
				 lanes, naddr, ndw, kind, got, c_model, want, c_ref);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(by_hand),
		cmocka_unit_test(ds_offsets),
		cmocka_unit_test(random_against_the_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
