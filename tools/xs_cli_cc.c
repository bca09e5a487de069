/* xs12 cc FILE.cl|FILE.hip: compiles a kernel for gfx1030 with the flags
 * xs12's own kernels are built with (docs/kernels.md), and the cache that
 * lets info / run / disasm take a source file directly.
 *
 * The cache (XS12_CACHE_DIR, else $XDG_CACHE_HOME/xs12, else
 * ~/.cache/xs12) holds <key>.hsaco with <key>.deps beside it. The key hashes
 * the command line, the compiler and the source's bytes; the .deps list
 * every file the compiler read (its -MD output) with size and mtime, so an
 * edited header recompiles as make would. */
#include "xs_cli.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#ifndef XS_CLANG
#define XS_CLANG "clang-15"
#endif
#ifndef XS_HIPCC
#define XS_HIPCC "hipcc"
#endif
#ifndef XS_DEVICE_LIBS
#define XS_DEVICE_LIBS "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
#endif

#define MAX_CC_ARGS 48
#define MAX_SOURCE (64u << 20)

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n > m && !strcmp(s + n - m, suf);
}

bool xs_cli_is_source(const char *path)
{
	return has_suffix(path, ".cl") || has_suffix(path, ".hip");
}

int xs_cc_flag(const char *arg, xs_cc_opts *o)
{
	if (arg[0] == '-' && arg[1] == 'O' && arg[2] >= '0' && arg[2] <= '3' && !arg[3])
		o->opt = arg[2] - '0';
	else if (!strcmp(arg, "--wave64"))
		o->wave64 = true;
	else if (!strcmp(arg, "--wave32"))
		o->wave64 = false;
	else if (!strcmp(arg, "-g"))
		o->debug = true;
	else
		return -1;
	return 0;
}

int xs_cc_flags(const char *s, xs_cc_opts *o, char *bad, size_t n)
{
	char buf[256];
	if (strlen(s) >= sizeof(buf)) {
		snprintf(bad, n, "%.40s...", s);
		return -1;
	}
	strcpy(buf, s);
	for (char *save = NULL, *t = strtok_r(buf, " ,", &save); t; t = strtok_r(NULL, " ,", &save))
		if (xs_cc_flag(t, o)) {
			snprintf(bad, n, "%s", t);
			return -1;
		}
	return 0;
}

/* The compiler's argv for src -> out (a NULL-terminated array of strings
 * that live in *store). */
typedef struct cc_cmd {
	const char *argv[MAX_CC_ARGS];
	int argc;
	char store[1024];
	size_t used;
} cc_cmd;

static void add(cc_cmd *c, const char *s)
{
	if (c->argc < MAX_CC_ARGS - 1)
		c->argv[c->argc++] = s;
	c->argv[c->argc] = NULL;
}

static void addf(cc_cmd *c, const char *fmt, const char *v)
{
	char *p = c->store + c->used;
	int k = snprintf(p, sizeof(c->store) - c->used, fmt, v);
	if (k < 0 || (size_t)k >= sizeof(c->store) - c->used)
		return;
	c->used += (size_t)k + 1;
	add(c, p);
}

static void build_cmd(cc_cmd *c, const char *src, const xs_cc_opts *o, const char *out, const char *depfile)
{
	static const char *const opt[] = { "-O0", "-O1", "-O2", "-O3" };
	memset(c, 0, sizeof(*c));
	if (has_suffix(src, ".hip")) {
		add(c, XS_HIPCC);
		add(c, "--offload-arch=gfx1030");
		add(c, "--cuda-device-only");
		add(c, "-fstack-size-section"); /* functions' frames: ray-tracing stacks (SPEC S2.7) */
		add(c, "-I" XS_INCLUDE_DIR);    /* <xs12/xs12_rt.h> */
	} else {
		add(c, XS_CLANG);
		add(c, "-target");
		add(c, "amdgcn-amd-amdhsa");
		add(c, "-mcpu=gfx1030");
		add(c, "-x");
		add(c, "cl");
		add(c, "-cl-std=CL1.2");
		addf(c, "--rocm-device-lib-path=%s", XS_DEVICE_LIBS);
		add(c, "-Xclang");
		add(c, "-finclude-default-header");
		add(c, "-cl-kernel-arg-info"); /* argument names in the metadata */
	}
	add(c, opt[o->opt]);
	add(c, o->wave64 ? "-mwavefrontsize64" : "-mno-wavefrontsize64");
	if (o->debug)
		add(c, "-g");
	if (has_suffix(src, ".hip"))
		add(c, "-c");
	if (depfile) {
		add(c, "-MD");
		add(c, "-MF");
		add(c, depfile);
	}
	add(c, src);
	add(c, "-o");
	add(c, out);
}

static void print_cmd(FILE *f, const cc_cmd *c)
{
	for (int i = 0; i < c->argc; i++) {
		const char *a = c->argv[i];
		bool quote = strpbrk(a, " \t'\"$\\") != NULL;
		fprintf(f, "%s%s%s%s", i ? " " : "", quote ? "'" : "", a, quote ? "'" : "");
	}
	fputc('\n', f);
}

/* Runs the compiler; its diagnostics go to our stderr. */
static int run_cmd(const cc_cmd *c)
{
	pid_t pid;
	int r = posix_spawnp(&pid, c->argv[0], NULL, NULL, (char *const *)c->argv, environ);
	if (r) {
		fprintf(stderr, "xs12 cc: cannot run %s: %s (scripts/bootstrap installs clang-15 and hipcc)\n",
			c->argv[0], strerror(r));
		return -1;
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* ---- cache ---------------------------------------------------------------- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static bool cache_dir(char *buf, size_t n)
{
	const char *d = getenv("XS12_CACHE_DIR"), *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int k;
	if (d && *d)
		k = snprintf(buf, n, "%s", d);
	else if (x && *x)
		k = snprintf(buf, n, "%s/xs12", x);
	else if (home && *home)
		k = snprintf(buf, n, "%s/.cache/xs12", home);
	else
		k = snprintf(buf, n, "/tmp/xs12-cache-%u", (unsigned)getuid());
	if (k < 0 || (size_t)k >= n)
		return false;
	/* mkdir -p */
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(buf, 0755);
			*p = '/';
		}
	return mkdir(buf, 0755) == 0 || errno == EEXIST;
}

/* The files of a depfile ("out: a b \\\n c"), each as "size mtime path\n". */
static bool write_deps(const char *depfile, const char *deps)
{
	FILE *in = fopen(depfile, "r");
	if (!in)
		return false;
	FILE *out = fopen(deps, "w");
	if (!out) {
		fclose(in);
		return false;
	}
	char tok[4096];
	size_t len = 0;
	bool first = true, ok = true;
	for (int ch = fgetc(in);; ch = fgetc(in)) {
		if (ch == '\\') {
			int nx = fgetc(in);
			if (nx == '\n' || nx == EOF)
				ch = ' ';
			else if (len + 1 < sizeof(tok)) {
				tok[len++] = (char)nx; /* an escaped character, e.g. a space in a path */
				continue;
			}
		}
		if (ch == EOF || ch == ' ' || ch == '\t' || ch == '\n') {
			tok[len] = 0;
			if (len && first && tok[len - 1] == ':') {
				first = false; /* the target */
			} else if (len) {
				struct stat st;
				if (stat(tok, &st))
					ok = false;
				else
					fprintf(out, "%lld %lld.%09ld %s\n", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
						st.st_mtim.tv_nsec, tok);
			}
			len = 0;
			if (ch == EOF)
				break;
		} else if (len + 1 < sizeof(tok)) {
			tok[len++] = (char)ch;
		}
	}
	fclose(in);
	ok &= fclose(out) == 0;
	return ok;
}

/* Every file the cached object was built from is unchanged. */
static bool deps_fresh(const char *deps)
{
	FILE *f = fopen(deps, "r");
	if (!f)
		return false;
	char line[4200];
	bool ok = true, any = false;
	while (ok && fgets(line, sizeof(line), f)) {
		long long size, sec;
		long nsec;
		int at = 0;
		if (sscanf(line, "%lld %lld.%ld %n", &size, &sec, &nsec, &at) != 3 || !at) {
			ok = false;
			break;
		}
		line[strcspn(line, "\n")] = 0;
		struct stat st;
		ok = !stat(line + at, &st) && st.st_size == size && st.st_mtim.tv_sec == sec && st.st_mtim.tv_nsec == nsec;
		any = true;
	}
	fclose(f);
	return ok && any;
}

const char *xs_cli_code_path(const char *verb, const char *path, const xs_cc_opts *o, char *buf, size_t n)
{
	if (!xs_cli_is_source(path))
		return path;
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "xs12 %s: %s: %s\n", verb, path, strerror(errno));
		return NULL;
	}
	char dir[3072];
	if (!cache_dir(dir, sizeof(dir))) {
		fclose(f);
		fprintf(stderr, "xs12 %s: cannot create the compile cache directory %s: %s (set XS12_CACHE_DIR)\n", verb,
			dir, strerror(errno));
		return NULL;
	}
	/* key: the command (with placeholder paths), then the source bytes */
	cc_cmd c;
	build_cmd(&c, path, o, "OUT", "DEP");
	uint64_t h = 0xcbf29ce484222325ull;
	for (int i = 0; i < c.argc; i++)
		h = fnv(h, c.argv[i], strlen(c.argv[i]) + 1);
	h = fnv(h, XS12_VERSION_STRING, sizeof(XS12_VERSION_STRING));
	uint8_t chunk[65536];
	size_t got, total = 0;
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0 && total <= MAX_SOURCE) {
		h = fnv(h, chunk, got);
		total += got;
	}
	fclose(f);
	char out[3200], dep[3200], deps[3200];
	snprintf(out, sizeof(out), "%s/%016llx.hsaco", dir, (unsigned long long)h);
	snprintf(dep, sizeof(dep), "%s/%016llx.d", dir, (unsigned long long)h);
	snprintf(deps, sizeof(deps), "%s/%016llx.deps", dir, (unsigned long long)h);
	if (access(out, R_OK) == 0 && deps_fresh(deps)) {
		snprintf(buf, n, "%s", out);
		return buf;
	}
	/* Compile to a temporary name and rename: a concurrent run never sees half a file. */
	char tmp[3300];
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", out, (int)getpid());
	build_cmd(&c, path, o, tmp, dep);
	fprintf(stderr, "xs12 %s: compiling %s: ", verb, path);
	print_cmd(stderr, &c);
	int r = run_cmd(&c);
	if (r != 0) {
		unlink(tmp);
		fprintf(stderr, "xs12 %s: %s did not compile (%s exited with %d)\n", verb, path, c.argv[0], r);
		return NULL;
	}
	if (rename(tmp, out) || !write_deps(dep, deps)) {
		unlink(tmp);
		fprintf(stderr, "xs12 %s: cannot store %s in the cache: %s\n", verb, out, strerror(errno));
		return NULL;
	}
	unlink(dep);
	snprintf(buf, n, "%s", out);
	return buf;
}

/* ---- xs12 cc ---------------------------------------------------------------- */

static void help(FILE *f)
{
	fprintf(f,
		"usage: xs12 cc FILE.cl|FILE.hip [-O0|-O1|-O2|-O3] [--wave64] [-g] [-o OUT]\n"
		"       xs12 cc --vs|--ps FILE.cl [--abi pal|mesa] [-O0..-O3] [--wave64] [-o OUT]\n"
		"\n"
		"Compiles an OpenCL C or HIP kernel into a gfx1030 code object with the flags\n"
		"xs12's own kernels use, and prints the command it ran:\n"
		"  .cl   clang-15 -target amdgcn-amd-amdhsa -mcpu=gfx1030 -x cl -cl-std=CL1.2\n"
		"        --rocm-device-lib-path=%s\n"
		"        -Xclang -finclude-default-header -cl-kernel-arg-info\n"
		"  .hip  hipcc --offload-arch=gfx1030 --cuda-device-only -c (an offload bundle)\n"
		"\n"
		"  -O0..-O3   optimisation (default -O2)\n"
		"  --wave64   compile for wave64 (default wave32)\n"
		"  -g         debug line tables\n"
		"  -o OUT     output (default: FILE with .hsaco, or .co for HIP, in this folder;\n"
		"             FILE.vs.pal.o etc. for shaders)\n"
		"  --vs, --ps a vertex or pixel shader from a body in OpenCL C (vs_main / ps_main,\n"
		"             docs/graphics.md 1.5): clang-15 -S -emit-llvm, a generated entry point,\n"
		"             llvm-link-15 --internalize, llc-15 -filetype=obj\n"
		"  --abi A    pal (amdgcn--amdpal, default) or mesa (amdgcn-mesa-mesa3d)\n"
		"\n"
		"info, run and disasm also take FILE.cl / FILE.hip directly; they compile into a\n"
		"cache (XS12_CACHE_DIR, else ~/.cache/xs12) keyed by the source, the files it\n"
		"includes and the flags, which --cc 'FLAGS' sets (e.g. --cc '-O0 --wave64').\n",
		XS_DEVICE_LIBS);
}

int xs_cli_cc(int argc, char **argv)
{
	xs_cc_opts o = { .opt = 2 };
	const char *src = NULL, *out = NULL;
	int stage = 0; /* 0 kernel, 1 --vs, 2 --ps */
	bool mesa = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			help(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "-o")) {
			if (++i == argc)
				return xs_cli_usage_error("cc", "-o needs a file name");
			out = argv[i];
		} else if (!strcmp(argv[i], "--vs") || !strcmp(argv[i], "--ps")) {
			stage = argv[i][2] == 'v' ? 1 : 2;
		} else if (!strcmp(argv[i], "--abi")) {
			if (++i == argc || (strcmp(argv[i], "pal") && strcmp(argv[i], "mesa")))
				return xs_cli_usage_error("cc", "--abi needs pal or mesa");
			mesa = !strcmp(argv[i], "mesa");
		} else if (argv[i][0] == '-') {
			if (xs_cc_flag(argv[i], &o))
				return xs_cli_usage_error("cc", "unknown option '%s' (-O0..-O3, --wave64, -g, -o OUT)", argv[i]);
		} else if (src) {
			return xs_cli_usage_error("cc", "one source file at a time (got '%s' and '%s')", src, argv[i]);
		} else {
			src = argv[i];
		}
	}
	if (!src)
		return xs_cli_usage_error("cc", "expected FILE.cl or FILE.hip");
	if (!xs_cli_is_source(src))
		return xs_cli_usage_error("cc", "'%s': expected a .cl (OpenCL C) or .hip file", src);
	char def[4096];
	if (stage) {
		if (!has_suffix(src, ".cl"))
			return xs_cli_usage_error("cc", "--vs/--ps take an OpenCL C body (.cl), not '%s'", src);
		if (o.debug)
			return xs_cli_usage_error("cc", "-g is not supported for shaders");
		if (!out) {
			const char *base = strrchr(src, '/');
			base = base ? base + 1 : src;
			snprintf(def, sizeof(def), "%.*s.%s.%s.o", (int)(strlen(base) - 3), base, stage == 1 ? "vs" : "ps",
			         mesa ? "mesa" : "pal");
			out = def;
		}
		return xs_cli_cc_gfx(stage == 2, src, mesa, o.wave64, o.opt, out) ? 1 : 0;
	}
	if (!out) {
		const char *base = strrchr(src, '/');
		base = base ? base + 1 : src;
		size_t stem = strlen(base) - (has_suffix(base, ".hip") ? 4 : 3);
		snprintf(def, sizeof(def), "%.*s%s", (int)stem, base, has_suffix(base, ".hip") ? ".co" : ".hsaco");
		out = def;
	}
	cc_cmd c;
	build_cmd(&c, src, &o, out, NULL);
	print_cmd(stdout, &c);
	fflush(stdout);
	int r = run_cmd(&c);
	if (r != 0) {
		fprintf(stderr, "xs12 cc: %s did not compile (%s exited with %d)\n", src, c.argv[0], r);
		return 1;
	}
	return 0;
}
