/* xs12 pm4 FILE: decodes a PM4 command stream (docs/cli.md). */
#include "xs_cli.h"

#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "common/xs_common.h"
#include "hw/xs_hw_pm4.h"
#include "pm4/xs_pm4_parse.h"
#include "pm4/xs_pm4_print.h"
#include "runtime/xs_rt.h"

#define PM4_MAX_FILE_BYTES ((size_t)64 << 20)

static void help(FILE *f)
{
	fprintf(f, "usage: xs12 pm4 FILE [--json]\n"
		   "\n"
		   "Decodes a gfx10.3 PM4 command stream as Mesa's ac_parse_ib prints it: each packet\n"
		   "with its header, register writes as NAME <- value with their fields, and the named\n"
		   "fields of other packets. FILE holds raw little-endian dwords, or, if its name ends\n"
		   "in .txt, hex dwords (optional 0x), any number per line, '#' starting a comment.\n"
		   "A malformed stream prints what decoded, then the error naming the dword; exit 1.\n"
		   "\n"
		   "FILE may also be a recording (xs12 run --record, XS12_RECORD for a D3D12 program):\n"
		   "then each submission of each batch is decoded from the recorded GPU memory, with the\n"
		   "command buffers it calls (INDIRECT_BUFFER) after it; --json prints one JSON document\n"
		   "per command buffer, one per line. A recording may be of any size; a stream, 64 MiB.\n");
}

typedef struct walk_ctx {
	bool json;
	int failed;
} walk_ctx;

static uint32_t *read_ib(xs_vm *vm, uint64_t va, uint32_t ndw)
{
	if (!ndw || ndw > XS_IB_SIZE_MAX)
		return NULL;
	uint32_t *dw = malloc((size_t)ndw * 4);
	if (dw && !xs_vm_read(vm, va, dw, (size_t)ndw * 4, NULL)) {
		free(dw);
		dw = NULL;
	}
	return dw;
}

static int print_ib(walk_ctx *w, const char *name, const uint32_t *dw, size_t n)
{
	xs_err err;
	xs_err_clear(&err);
	if (w->json) {
		int r = xs_pm4_print_json(stdout, name, dw, n, &err);
		putchar('\n');
		if (r)
			fprintf(stderr, "xs12 pm4: %s: %s\n", name, err.msg);
		return r;
	}
	printf("# %s\n", name);
	int r = xs_pm4_print(stdout, dw, n, &err);
	if (r)
		fprintf(stderr, "xs12 pm4: %s: %s\n", name, err.msg);
	return r;
}

/* One submission: the runtime's command buffer, then each one it calls. */
static xs_status walk_sub(void *user, uint32_t batch, uint32_t queue, uint64_t va, uint32_t ndw, xs_vm *vm, xs_err *e)
{
	walk_ctx *w = user;
	(void)e;
	char name[160];
	snprintf(name, sizeof(name), "batch %u, queue %u: command buffer 0x%llx (%u dwords)", batch, queue,
		 (unsigned long long)va, ndw);
	uint32_t *dw = read_ib(vm, va, ndw);
	if (!dw) {
		fprintf(stderr, "xs12 pm4: %s is not in the recorded memory\n", name);
		w->failed = 1;
		return XS_OK;
	}
	if (print_ib(w, name, dw, ndw))
		w->failed = 1;
	xs_pm4_iter it;
	xs_pm4_packet p;
	xs_err perr;
	xs_pm4_iter_init(&it, dw, ndw);
	while (xs_pm4_next(&it, &p, &perr) > 0) {
		if (p.type != 3 || p.opcode != PKT3_INDIRECT_BUFFER)
			continue;
		uint64_t ib = (uint64_t)p.body[0] | ((uint64_t)p.body[1] << 32);
		uint32_t n = G_3F2_IB_SIZE(p.body[2]);
		snprintf(name, sizeof(name), "batch %u, queue %u: called by it, command buffer 0x%llx (%u dwords)", batch,
			 queue, (unsigned long long)ib, n);
		uint32_t *sub = read_ib(vm, ib, n);
		if (!sub) {
			fprintf(stderr, "xs12 pm4: %s is not in the recorded memory\n", name);
			w->failed = 1;
			continue;
		}
		if (print_ib(w, name, sub, n))
			w->failed = 1;
		free(sub);
	}
	free(dw);
	return XS_OK;
}

/* Hex text: tokens separated by blanks or commas, '#' to end of line. */
static int parse_text(const char *path, const uint8_t *data, size_t size, uint32_t **out, size_t *n)
{
	size_t cap = size / 2 + 1, count = 0; /* a dword takes at least 2 bytes ("0\n") */
	uint32_t *dw = malloc(cap * sizeof(uint32_t));
	if (!dw) {
		fprintf(stderr, "xs12 pm4: %s: out of memory\n", path);
		return 1;
	}
	size_t line = 1;
	for (size_t i = 0; i < size;) {
		unsigned char ch = data[i];
		if (ch == '\n') {
			line++;
			i++;
		} else if (ch == '#') {
			while (i < size && data[i] != '\n')
				i++;
		} else if (isspace(ch) || ch == ',') {
			i++;
		} else {
			size_t s = i;
			while (i < size && !isspace(data[i]) && data[i] != ',' && data[i] != '#')
				i++;
			size_t len = i - s, h = 0;
			if (len > 2 && data[s] == '0' && (data[s + 1] == 'x' || data[s + 1] == 'X'))
				h = 2;
			uint32_t v = 0;
			bool ok = len - h >= 1 && len - h <= 8;
			for (size_t k = s + h; ok && k < i; k++) {
				if (!isxdigit(data[k]))
					ok = false;
				else
					v = v << 4 | (uint32_t)(isdigit(data[k]) ? data[k] - '0' : (tolower(data[k]) - 'a' + 10));
			}
			if (!ok) {
				fprintf(stderr, "xs12 pm4: %s:%zu: '%.*s' is not a hex dword (1 to 8 hex digits, "
					"optional 0x)\n", path, line, (int)XS_MIN(len, (size_t)40), (const char *)data + s);
				free(dw);
				return 1;
			}
			dw[count++] = v;
		}
	}
	*out = dw;
	*n = count;
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

int xs_cli_pm4(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	bool json = false;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'h': help(stdout); return 0;
		default: return xs_cli_usage_error("pm4", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return xs_cli_usage_error("pm4", "expected one command-stream file");
	const char *path = argv[optind];

	xs_err err;
	xs_err_clear(&err);
	/* A recording is streamed batch by batch and may be any size: only its
	 * magic is read here, and the size limit is a raw stream's alone. */
	uint8_t magic[8];
	FILE *mf = fopen(path, "rb");
	bool recording = mf && fread(magic, 1, sizeof(magic), mf) == sizeof(magic) &&
			 xs_rt_is_recording(magic, sizeof(magic));
	if (mf)
		fclose(mf);
	if (recording) {
		walk_ctx w = { .json = json };
		if (xs_rt_record_walk(path, walk_sub, &w, &err)) {
			fflush(stdout);
			fprintf(stderr, "xs12 pm4: %s\n", err.msg);
			return 1;
		}
		fflush(stdout);
		return w.failed;
	}
	uint8_t *data;
	size_t size;
	if (xs_read_file(path, PM4_MAX_FILE_BYTES, &data, &size, &err)) {
		fprintf(stderr, "xs12 pm4: %s\n", err.msg);
		return 1;
	}
	uint32_t *dw = NULL;
	size_t n = 0;
	if (ends_with(path, ".txt")) {
		int r = parse_text(path, data, size, &dw, &n);
		free(data);
		if (r)
			return 1;
	} else {
		if (size % 4) {
			fprintf(stderr, "xs12 pm4: %s: %zu bytes is not a whole number of dwords\n", path, size);
			free(data);
			return 1;
		}
		n = size / 4;
		dw = malloc(n ? n * sizeof(uint32_t) : 1);
		if (!dw) {
			fprintf(stderr, "xs12 pm4: %s: out of memory\n", path);
			free(data);
			return 1;
		}
		for (size_t i = 0; i < n; i++) /* little-endian, whatever the host */
			dw[i] = (uint32_t)data[4 * i] | (uint32_t)data[4 * i + 1] << 8 |
				(uint32_t)data[4 * i + 2] << 16 | (uint32_t)data[4 * i + 3] << 24;
		free(data);
	}

	int r = json ? xs_pm4_print_json(stdout, path, dw, n, &err) : xs_pm4_print(stdout, dw, n, &err);
	fflush(stdout);
	free(dw);
	if (r) {
		fprintf(stderr, "xs12 pm4: %s: %s\n", path, err.msg);
		return 1;
	}
	return 0;
}
