/* The `xs12` command: one file per verb, sharing these helpers. */
#ifndef XS_CLI_H
#define XS_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include "xs12/xs12.h"

#define XS_CLI_USAGE_ERROR 2

int xs_cli_info(int argc, char **argv);
int xs_cli_run(int argc, char **argv);
int xs_cli_demo(int argc, char **argv);
int xs_cli_disasm(int argc, char **argv);
int xs_cli_pm4(int argc, char **argv);
int xs_cli_replay(int argc, char **argv);

/* Prints "xs12 <verb>: message" to stderr; returns XS_CLI_USAGE_ERROR. */
int xs_cli_usage_error(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Parses "X[,Y[,Z]]" into v[3] (missing components are 1); returns the number
 * of components given, or 0 on error. */
int xs_cli_parse_dims(const char *s, uint32_t v[3]);
bool xs_cli_parse_machine(const char *s, xs_machine *m);
bool xs_cli_parse_u32(const char *s, uint32_t *v);
void xs_cli_json_string(FILE *f, const char *s);

#define XS_ALIGN_UP_CLI(a, b) ((((a) + (b) - 1) / (b)) * (b))
#define XS_MIN_CLI(a, b) ((a) < (b) ? (a) : (b))

typedef struct xs_cli_job {
	const xs_module *mod;
	const xs_kernel_info *k;
	uint32_t groups[3], block[3], work_dim, queue;
	uint64_t cu_mask;
	const char *const *specs;
	int nspecs;
} xs_cli_job;
int xs_cli_run_jobs(xs_device *dev, xs_cli_job *jobs, int njobs, xs_dispatch_stats *stats);
double xs_cli_now(void);

/* Runs kernel k with SPEC strings; writes out/inout files; 0 on success,
 * XS_CLI_USAGE_ERROR for bad arguments, 1 for other failures. */
int xs_cli_run_kernel(xs_device *dev, const xs_module *mod, const xs_kernel_info *k,
		      const uint32_t groups[3], const uint32_t block[3], uint32_t work_dim,
		      const char *const *specs, int nspecs, xs_dispatch_stats *stats);
const xs_kernel_info *xs_cli_pick_kernel(const xs_module *mod, const char *name, const char *path);

#endif
