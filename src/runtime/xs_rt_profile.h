/*
 * Profiles (xs12.h "instruction timing"): the GPU model's per-PC table
 * (xs_gpu_profile_*) turned into functions of the loaded code objects with
 * their annotated disassembly and source lines, and written as JSON, text
 * or one HTML page. Shared by the native API and the D3D12 layer.
 */
#ifndef XS_RT_PROFILE_H
#define XS_RT_PROFILE_H

#include "runtime/xs_rt.h"

#include <stdio.h>

struct xs_profile {
	const xs_devinfo *info;
	xs_profile_function *fn;
	uint32_t nfn;
	char **strs;              /* owned strings of fn[].name, insts' text and sources */
	size_t nstrs, cap_strs;
	xs_gpu_prof_disp *disps;
	uint32_t ndisps;
	const char **disp_name;   /* kernel of each dispatch ("draw", or "?") */
	uint64_t waits[XS_GPU_WAIT_COUNT];
	xs_gpu_counters ctr;      /* the dispatches' counters, added */
	/* occupancy over time from the trace: at most XS_RT_PROFILE_SAMPLES */
	uint64_t *occ_t;
	uint16_t (*occ_q)[XS_GPU_MAX_QUEUES];
	uint32_t nocc;
	unsigned queues;          /* bit per queue that ran something */
	bool overflow, truncated; /* too many PCs / dispatches; trace truncated */
	uint64_t first_cycle, last_cycle;
};

#define XS_RT_PROFILE_SAMPLES 2000

/* Profiling on (clears) or off; the trace is turned on with it when it was off. */
xs_status xs_rt_profile_enable(xs_rt_device *d, bool on, xs_err *e);
xs_status xs_rt_profile_take(xs_rt_device *d, xs_profile **out, xs_err *e);
void xs_rt_profile_free(xs_profile *p);
/* by the file name's extension: .json, .html, else text */
xs_status xs_rt_profile_write(const xs_profile *p, const char *path, xs_err *e);
void xs_rt_profile_write_json(const xs_profile *p, FILE *f);
void xs_rt_profile_write_text(const xs_profile *p, FILE *f);
const char *xs_rt_stall_name(unsigned s);
/* The HTML page: the report's template with the JSON embedded in its
 * <script type="application/json" id="xs12-profile"> element. In the JSON,
 * '<', '>', '&', U+2028 and U+2029 are written as \u003c, \u003e, \u0026,
 * \u2028 and \u2029 (they can only stand inside JSON strings, where the
 * escape means the same character), so no string can close the element or
 * open a comment in it (xs_rt_profile_write_json escapes them already; other
 * JSON, e.g. the tests', may not). XS_E_INVALID_ARG for NULL, empty or
 * NUL-holding JSON; XS_E_IO when a write fails; f is flushed, not closed. */
xs_status xs_rt_profile_html(FILE *f, const char *json, size_t n, xs_err *e);
/* The template around the JSON (generated: xs_rt_profile_page.c). */
extern const char xs_profile_html_head[];
extern const size_t xs_profile_html_head_len;
extern const char xs_profile_html_tail[];
extern const size_t xs_profile_html_tail_len;

#endif
