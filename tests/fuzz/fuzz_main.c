/*
 * The standalone driver of the fuzz harnesses (every build, gcc included):
 * runs LLVMFuzzerTestOneInput once over every file named on the command
 * line, and over every regular file of every directory named (not
 * recursively; names starting with '.' are skipped, e.g. .gitkeep). It
 * is how the committed corpus and the findings under regress/ are
 * replayed as ordinary tests: a crash, a sanitizer report or a hang of
 * one input fails the test. Linked in place of libFuzzer's main.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Inputs larger than any harness reads (FUZZ_MAX_INPUT) are refused here
 * rather than read: a corpus file that big is a mistake. */
static int run_file(const char *path, unsigned *count)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "fuzz_main: %s: cannot open\n", path);
		return 1;
	}
	uint8_t *buf = malloc(FUZZ_MAX_INPUT + 1);
	size_t n = buf ? fread(buf, 1, FUZZ_MAX_INPUT + 1, f) : 0;
	fclose(f);
	if (!buf || n > FUZZ_MAX_INPUT) {
		fprintf(stderr, "fuzz_main: %s: %s\n", path, buf ? "larger than FUZZ_MAX_INPUT" : "out of memory");
		free(buf);
		return 1;
	}
	/* A copy of exactly n bytes, so that ASan sees a read past the input. */
	uint8_t *in = malloc(n ? n : 1);
	if (!in) {
		free(buf);
		return 1;
	}
	memcpy(in, buf, n);
	free(buf);
	LLVMFuzzerTestOneInput(in, n);
	free(in);
	(*count)++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory's files in name order, so that a run is repeatable. */
static int run_dir(const char *dir, unsigned *count)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "fuzz_main: %s: cannot open directory\n", dir);
		return 1;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	int bad = 0;
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			char **nn = realloc(names, cap * sizeof(*names));
			if (!nn) {
				bad = 1;
				break;
			}
			names = nn;
		}
		size_t len = strlen(dir) + strlen(de->d_name) + 2;
		if (!(names[n] = malloc(len))) {
			bad = 1;
			break;
		}
		snprintf(names[n++], len, "%s/%s", dir, de->d_name);
	}
	closedir(d);
	if (n) /* qsort wants a non-null array even for 0 elements */
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (!bad && stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
			bad |= run_file(names[i], count);
		free(names[i]);
	}
	free(names);
	return bad;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	int bad = 0;
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st)) {
			fprintf(stderr, "fuzz_main: %s: no such file or directory\n", argv[i]);
			bad = 1;
		} else if (S_ISDIR(st.st_mode)) {
			bad |= run_dir(argv[i], &count);
		} else {
			bad |= run_file(argv[i], &count);
		}
	}
	printf("%s: %u inputs ran\n", argv[0], count);
	/* an empty corpus would make the test pass without testing anything */
	if (!count) {
		fprintf(stderr, "fuzz_main: no input found\n");
		return 1;
	}
	return bad;
}
