/*
 * ISA decoder and disassembler (src/isa): the input is a run of
 * instruction words, decoded and printed instruction by instruction from
 * the start (as a disassembler walks .text), into a bounded buffer.
 * Oracles, cheap and exact:
 *   - a decoded length is a whole number of words, at least one, and never
 *     runs past the input;
 *   - decoding the same words again gives the same instruction, and
 *     disassembling them again the same text and result (no state leaks
 *     between calls);
 *   - the text is NUL-terminated within its buffer, and a shorter buffer
 *     gets a prefix of the same text.
 * The disassembler's length may differ from the decoder's: it follows
 * llvm-objdump where LLVM reads more or fewer words than the hardware
 * (a MUBUF literal soffset: LLVM takes the dword after it).
 * Words past the first 1 KiB are not read: 256 instructions are enough for
 * the decoder (it is per instruction) and keep the rate up under ASan.
 */
#include <string.h>

#include "fuzz.h"
#include "isa/xs_isa.h"
#include "isa/xs_isa_disasm.h"

static const char *label_at(void *ctx, uint64_t addr)
{
	(void)ctx;
	/* a label on every 64th byte: exercises the symbolizer path */
	return addr % 64 == 0 ? "L" : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = (size < 1024 ? size : 1024) / 4;
	if (!n)
		return 0;
	uint32_t *w = malloc(n * 4);
	if (!w)
		return 0;
	memcpy(w, data, n * 4);
	xs_disasm_opts opts = { label_at, NULL };
	for (size_t i = 0; i < n;) {
		xs_inst a, b;
		unsigned sa = xs_isa_decode(w + i, n - i, &a);
		unsigned sb = xs_isa_decode(w + i, n - i, &b);
		FUZZ_CHECK(sa == sb && !memcmp(&a, &b, sizeof(a)), "word %zu: two decodes differ", i);
		FUZZ_CHECK(sa % 4 == 0 && sa / 4 <= n - i, "word %zu: length %u of %zu words left", i, sa, n - i);

		char t1[XS_DISASM_TEXT_MAX], t2[XS_DISASM_TEXT_MAX];
		xs_disasm_result r1, r2;
		memset(&r1, 0, sizeof(r1));
		memset(&r2, 0, sizeof(r2));
		xs_isa_disasm(w + i, n - i, 4 * i, &opts, t1, sizeof(t1), &r1);
		xs_isa_disasm(w + i, n - i, 4 * i, &opts, t2, sizeof(t2), &r2);
		FUZZ_CHECK(memchr(t1, 0, sizeof(t1)) && memchr(r1.comment, 0, sizeof(r1.comment)),
			   "word %zu: text not terminated", i);
		FUZZ_CHECK(!strcmp(t1, t2) && r1.size == r2.size && r1.valid == r2.valid &&
			   r1.has_target == r2.has_target && (!r1.has_target || r1.target == r2.target) &&
			   !strcmp(r1.comment, r2.comment), "word %zu: two disassemblies differ: '%s' / '%s'", i, t1, t2);
		FUZZ_CHECK(r1.size >= 4 && r1.size % 4 == 0 && r1.size / 4 <= n - i,
			   "word %zu: disassembly length %u of %zu words left", i, r1.size, n - i);
		/* a small buffer: truncation, still terminated */
		char small[8];
		xs_isa_disasm(w + i, n - i, 4 * i, &opts, small, sizeof(small), &r2);
		FUZZ_CHECK(memchr(small, 0, sizeof(small)) && !strncmp(small, t1, strlen(small)),
			   "word %zu: truncated text '%s' is not a prefix of '%s'", i, small, t1);
		i += r1.size / 4;
	}
	free(w);
	return 0;
}
