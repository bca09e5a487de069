/*
 * Placeholder for the SPI's draw entry point until the graphics waves
 * (xs_gpu_spi*.c) provide it: the CP decodes the DRAW_* packets and calls
 * xs_gpu_draw_begin, which here refuses the draw. The gpu-spi work deletes
 * this file.
 */
#include "gpu/xs_gpu_priv.h"
#include "hw/xs_hw_pm4.h"

__attribute__((weak)) xs_status xs_gpu_draw_begin(xs_gpu *g, unsigned q, const xs_gpu_draw_args *a,
						  xs_gpu_dispatch_result *r, xs_err *e)
{
	(void)g;
	(void)r;
	return xs_err_set(e, XS_E_UNSUPPORTED, "queue %u: dword %zu: draws (%u %s per instance) are not modelled yet",
			  q, a->dword, a->count, a->indexed ? "indices" : "vertices");
}
