/*
 * xs_replay_ex: a recording replayed through the GPU model with register
 * overrides (src/gpu/xs_gpu_override.c), each dispatch's results turned into
 * the xs_dispatch_stats a live dispatch gives.
 */
#include "api/xs_api_priv.h"
#include "gpu/xs_gpu_override.h"

#include <string.h>

_Static_assert(XS_REPLAY_MAX_OVERRIDES == XS_GPU_MAX_OVERRIDES, "override count");

typedef struct replay_acc {
	const xs_replay_options *o;
	uint32_t n;                   /* dispatches seen */
	xs_status status;             /* of the first batch that failed */
	char msg[sizeof(((xs_err *)0)->msg)];
} replay_acc;

static void on_dispatch(void *user, const xs_gpu_dispatch_result *r, const xs_devinfo *info, bool timing)
{
	replay_acc *a = user;
	if (a->o->stats && a->n < a->o->max_stats) {
		xs_dispatch_stats *s = &a->o->stats[a->n];
		xs_api_fill_stats(info, timing, r, s);
		if (r->gfx.is_draw) /* a draw's ring is the graphics one (SPI_TMPRING_SIZE) */
			s->peak_scratch_slots = r->gfx.peak_scratch_slots;
	}
	a->n++;
}

static void on_batch(void *user, uint64_t digest, xs_status status, const char *message)
{
	replay_acc *a = user;
	(void)digest;
	if (status && !a->status) {
		a->status = status;
		snprintf(a->msg, sizeof(a->msg), "%s", message && *message ? message : xs_status_name(status));
	}
}

XS_API xs_status xs_replay_ex(const char *path, const xs_replay_options *opts, xs_replay_report *report)
{
	if (!path || !opts || !report)
		return xs_api_failf(NULL, XS_E_INVALID_ARG, "xs_replay_ex: NULL path, options or report");
	memset(report, 0, sizeof(*report));
	if (opts->num_overrides > XS_REPLAY_MAX_OVERRIDES || (opts->num_overrides && !opts->overrides) ||
	    (opts->max_stats && !opts->stats))
		return xs_api_failf(NULL, XS_E_INVALID_ARG,
				    "xs_replay_ex: %u overrides (at most %d, and a NULL list only for none) or NULL stats "
				    "for %u", opts->num_overrides, XS_REPLAY_MAX_OVERRIDES, opts->max_stats);
	xs_gpu_override ov[XS_GPU_MAX_OVERRIDES];
	uint64_t hits[XS_GPU_MAX_OVERRIDES] = { 0 };
	xs_err e = { 0 };
	for (uint32_t i = 0; i < opts->num_overrides; i++) {
		if (!opts->overrides[i])
			return xs_api_failf(NULL, XS_E_INVALID_ARG, "xs_replay_ex: override %u is NULL", i);
		if (xs_gpu_override_parse(opts->overrides[i], &ov[i], &e)) {
			xs_err_prefix(&e, "xs_replay_ex: override %u", i);
			return xs_api_fail(NULL, &e);
		}
	}
	replay_acc a = { .o = opts };
	xs_rt_replay_opts ro = { .overrides = ov, .num_overrides = opts->num_overrides, .hits = hits,
				 .dispatch = on_dispatch, .batch = on_batch, .user = &a };
	if (xs_rt_replay_ex(path, &ro, report, &e))
		return xs_api_fail(NULL, &e);
	if (a.status)
		return xs_api_failf(NULL, a.status, "%s", a.msg);
	for (uint32_t i = 0; i < opts->num_overrides; i++)
		if (!hits[i])
			return xs_api_failf(NULL, XS_E_INVALID_ARG,
					    "xs_replay_ex: %s: the recording never sets this register by a PM4 packet: "
					    "nothing to override", ov[i].name);
	return XS_OK;
}
