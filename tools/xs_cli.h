/* The `xs12` command: one file per verb, sharing these helpers. */
#ifndef XS_CLI_H
#define XS_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include "common/xs_common.h"
#include "xs12/xs12.h"
#include "xs_argspec.h"
#include "common/xs_outfile.h"

#define XS_CLI_USAGE_ERROR 2

int xs_cli_info(int argc, char **argv);
int xs_cli_run(int argc, char **argv);
int xs_cli_demo(int argc, char **argv);
int xs_cli_disasm(int argc, char **argv);
int xs_cli_pm4(int argc, char **argv);
int xs_cli_replay(int argc, char **argv);
int xs_cli_cc(int argc, char **argv);
int xs_cli_sweep(int argc, char **argv);
/* xs_cli_run.c: run's options (getopt_long's table, {0} at the end), for sweep. */
extern const struct option xs_cli_run_opts[];
/* xs_cli_cc_gfx.c: xs12 cc --vs/--ps, a VS or PS from an OpenCL C body; 0 on success. */
/* xs_cli_info_gfx.c: xs12 info on a graphics shader object. */
bool xs_cli_is_gfx_file(const char *path);
int xs_cli_info_gfx(const char *path, bool json);
int xs_cli_cc_gfx(bool ps, const char *src, bool mesa, bool wave64, int opt, const char *out);

/* xs_cli_cc.c: compiling kernels (xs12 cc) and the compile cache. */
typedef struct xs_cc_opts {
	int opt;       /* -O level, 0..3 */
	bool wave64, debug;
} xs_cc_opts;
#define XS_CC_OPTS_DEFAULT { .opt = 2 }
/* One flag (-O0..-O3, --wave64, --wave32, -g) into *o: 0, or -1 if unknown. */
int xs_cc_flag(const char *arg, xs_cc_opts *o);
/* Flags separated by blanks or commas ("-O0 --wave64"): 0, or -1 with the
 * bad one in bad. */
int xs_cc_flags(const char *s, xs_cc_opts *o, char *bad, size_t n);
bool xs_cli_is_source(const char *path);
/* path itself for a code object; for FILE.cl / FILE.hip the cached code
 * object compiled from it (compiling when the source, an included file or
 * the flags changed). NULL after printing why to stderr. */
const char *xs_cli_code_path(const char *verb, const char *path, const xs_cc_opts *o, char *buf, size_t n);

/* Prints "xs12 <verb>: message" to stderr; returns XS_CLI_USAGE_ERROR. */
int xs_cli_usage_error(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Parses "X[,Y[,Z]]" into v[3] (missing components are 1); returns the number
 * of components given, or 0 on error. */
int xs_cli_parse_dims(const char *s, uint32_t v[3]);
bool xs_cli_parse_machine(const char *s, xs_machine *m);
bool xs_cli_parse_u32(const char *s, uint32_t *v);
void xs_cli_json_string(FILE *f, const char *s);

typedef struct xs_cli_job {
	const xs_module *mod;
	const xs_kernel_info *k;
	uint32_t groups[3], block[3], work_dim, queue;
	uint64_t cu_mask;
	const char *const *specs;
	int nspecs;
} xs_cli_job;
/* xs_cli_counters.c: --counters as JSON (one dispatch's object) and CSV
 * (a row per dispatch, then one per queue). */
void xs_cli_counters_json(FILE *f, const xs_dispatch_stats *st);
void xs_cli_counters_write(FILE *f, bool csv, const char *const *kernels, const uint32_t *queues,
			   const xs_dispatch_stats *st, int n, uint32_t sclk_mhz);

int xs_cli_run_jobs(xs_device *dev, xs_cli_job *jobs, int njobs, xs_dispatch_stats *stats);

/* Runs kernel k with SPEC strings; writes out/inout files; 0 on success,
 * XS_CLI_USAGE_ERROR for bad arguments, 1 for other failures. */
int xs_cli_run_kernel(xs_device *dev, const xs_module *mod, const xs_kernel_info *k,
		      const uint32_t groups[3], const uint32_t block[3], uint32_t work_dim,
		      const char *const *specs, int nspecs, xs_dispatch_stats *stats);
/* The kernel named name, or the only one. Missing name with several
 * kernels or an unknown name: prints the list, *rc = XS_CLI_USAGE_ERROR. */
const xs_kernel_info *xs_cli_pick_kernel(const char *verb, const xs_module *mod, const char *name, const char *path,
					 int *rc);
/* "x: float* (global buffer, 8 bytes)"; "unnamed" when the code object has
 * no argument names (compiled without -cl-kernel-arg-info, or HIP). */
const char *xs_cli_arg_desc(const xs_kernel_arg *a, char *buf, size_t n);
/* --title-scratch SIZE: a plain number of slots, or bytes with a K/M/G
 * suffix (SetShaderScratchSpaceX's SizeBytes; slots = bytes / per_wave).
 * Checks S1.13's 32 slots per CU. 0, or XS_CLI_USAGE_ERROR after a message. */
int xs_cli_parse_title_scratch(const char *verb, const char *s, uint64_t per_wave, xs_machine m, uint32_t *slots);
/* Byte count with K/M/G, 1..max, for option `opt`: 0 or XS_CLI_USAGE_ERROR. */
int xs_cli_parse_bytes(const char *verb, const char *opt, const char *s, uint64_t max, uint64_t *out);

/* xs_cli_run.c for xs12 sweep: one `xs12 run` argv (argv[0] "run") run
 * quietly: nothing on stdout, out files not written (out_digest: FNV-1a
 * over their bytes instead); errors to stderr as run prints them. Returns
 * run's exit code. */
typedef struct xs_cli_run_result {
	bool dispatched;
	xs_dispatch_stats stats; /* the first kernel's */
	uint64_t out_digest;
	char kernel[128];
	char error[1200]; /* the run's failure ("" if none; usage errors are on stderr only) */
} xs_cli_run_result;
int xs_cli_run_point(int argc, char **argv, xs_cli_run_result *res);

/* xs12 demo's D3D12 part: the failures. */
int xs_cli_demo_d3d12(const char *kernel_dir);

#endif
