/* The native API behind include/xs12/xs12.h: a thin layer over the runtime
 * (src/runtime), which does what ROCr and the CP firmware do for an AQL
 * dispatch and hands the GPU model only PM4 and memory. The D3D12 layer
 * (src/d3d12) sits on the same runtime. */
#ifndef XS_API_PRIV_H
#define XS_API_PRIV_H

#include "runtime/xs_rt.h"

struct xs_device {
	xs_rt_device *rt;
	const xs_devinfo *info;   /* rt->info */
	xs_gpu *gpu;              /* rt->gpu: traces only */
	xs_rt_ring ring[XS_GPU_MAX_QUEUES]; /* xs_set_scratch_space; va 0 = the default (S1.4) */
	bool debug;               /* the debug layer's checks (S1.8) */
	xs_rt_cmdmem mem;         /* a batch's kernargs, AQL packets and PM4: reset after it */
};

struct xs_module {
	xs_device *dev;
	xs_rt_module *rt;
};

/* Records an error as the calling thread's last (xs_last_error). */
xs_status xs_api_fail(const xs_device *dev, const xs_err *e);
xs_status xs_api_failf(const xs_device *dev, xs_status s, const char *fmt, ...) XS_PRINTF(3, 4);
/* The message-table ID (xs_rt_msg_id) of the calling thread's last error,
 * XS_MSG_NONE for one with no rule of its own. Hidden: the rejection tests
 * (tests/api/test_api_reject.c) assert IDs, not texts. */
uint32_t xs_api_last_message(void);
/* xs_dispatch_stats from the GPU model's results (xs_api_dispatch.c):
 * what a live dispatch and a replayed one report alike. */
void xs_api_fill_stats(const xs_devinfo *info, bool timing, const xs_gpu_dispatch_result *r, xs_dispatch_stats *s);
/* xs_dispatch_counters from the GPU model's (xs_api_profile.c). */
void xs_api_fill_counters(const xs_devinfo *info, bool timing, const xs_gpu_dispatch_result *r,
			  xs_dispatch_counters *c);

#endif
