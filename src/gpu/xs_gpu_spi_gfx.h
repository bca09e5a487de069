/*
 * The SPI's graphics half (internal to src/gpu): where VS and PS waves may
 * launch and what they hold, the parameter cache with late allocation, and
 * the SPEC S4 limits (CU masks, WAVE_LIMIT, LOCK_LOW_THRESHOLD,
 * LATE_ALLOC_VS). It places waves on the same SIMD slots, VGPRs, LDS and
 * scratch-ring slots as compute placement (xs_gpu_spi.c), so graphics and
 * compute waves compete for one machine.
 *
 * Its user (the draw: xs_gpu_draw.c) owns the waves' lives: it asks for a
 * launch, reports a VS wave's first export, its end, and when the lines of
 * a VS wave may be freed; it serves the VS stage before the PS stage at
 * every launch opportunity (docs/graphics.md section 3, the arbitration
 * that lets late-alloc VS waves starve PS waves: SPEC S4.2).
 */
#ifndef XS_GPU_SPI_GFX_H
#define XS_GPU_SPI_GFX_H

#include "gpu/xs_gpu_priv.h"

#define XS_GFX_MAX_SA (XS_MAX_SE * XS_MAX_SA_PER_SE)

typedef struct xs_gfx_stage_cfg {
	uint32_t lanes;          /* 32 or 64 */
	uint32_t vgprs;          /* allocated, in the wave's own size */
	uint32_t vgprs_w32;      /* SIMD register file units (a wave64 VGPR is two) */
	bool scratch;            /* RSRC2.SCRATCH_EN */
	uint32_t cu_en_sa;       /* RSRC3.CU_EN | RSRC4.CU_EN << 16: CUs of every SA */
	uint64_t cu_en;          /* chip-wide bit per CU the stage may use */
	uint32_t wave_limit;     /* waves per SE (WAVE_LIMIT x 16); 0 = no limit */
	uint32_t lock_threshold; /* waves per SA (LOCK_LOW_THRESHOLD x 4 [inference]); 0 = no locking */
} xs_gfx_stage_cfg;

typedef struct xs_gfx_spi_cfg {
	xs_gfx_stage_cfg st[XS_GPU_NSTAGES];
	uint32_t late_alloc_limit;  /* SPI_SHADER_LATE_ALLOC_VS.LIMIT (wave64 units per SA) */
	uint32_t late_per_sa;       /* late VS waves per SA: LIMIT, x 2 for a wave32 VS */
	uint32_t pc_lines;          /* parameter-cache lines per SE */
	uint32_t tmpring;           /* SPI_TMPRING_SIZE: the graphics scratch ring */
	uint32_t scratch_slots, scratch_wavesize;
} xs_gfx_spi_cfg;

/* Decodes the stage registers of one queue (SH: RSRC1..4 of VS and PS,
 * LATE_ALLOC_VS; context: SPI_TMPRING_SIZE). The wave sizes come from context
 * registers (VGT_SHADER_STAGES_EN.VS_W32_EN, SPI_PS_IN_CONTROL.PS_W32_EN),
 * which the caller has decoded. XS_E_INVALID_ARG naming the register and
 * field for state no wave can launch with. */
xs_status xs_gfx_spi_decode(const xs_gpu *g, const xs_gpu_queue_regs *q, bool vs_w32, bool ps_w32,
			    xs_gfx_spi_cfg *c, xs_err *e);

/* What one graphics wave holds. */
typedef struct xs_gfx_wave {
	xs_gpu_stage stage;
	uint32_t cu, simd, slot;  /* simd: chip-wide */
	uint32_t se, sa;          /* sa: chip-wide */
	uint32_t scratch_slot;    /* UINT32_MAX: none */
	uint32_t lds;             /* PS: attribute bytes */
	uint32_t pc_lines;        /* VS: lines it needs */
	bool late;                /* VS: launched without lines, none given yet */
	bool pc_held;             /* VS: holds pc_lines lines of its SE */
	bool exp_waiting;         /* VS: stopped at its first exp for want of lines */
	bool resident;
	uint64_t seq;             /* launch order */
	uint64_t wait_since;
	struct xs_gfx_wave *next_late; /* its SE's late waves, in launch order */
} xs_gfx_wave;

typedef struct xs_gfx_spi {
	xs_gpu *g;
	xs_gfx_spi_cfg cfg;
	xs_gpu_ring *ring;
	xs_gpu_gfx_stats *st;
	uint32_t resident[XS_GPU_NSTAGES];
	uint32_t sa_res[XS_GPU_NSTAGES][XS_GFX_MAX_SA];
	uint32_t se_res[XS_GPU_NSTAGES][XS_MAX_SE];
	uint32_t late[XS_GFX_MAX_SA];   /* late VS waves without lines, per SA */
	uint32_t pc_used[XS_MAX_SE];
	uint32_t pc_holders;            /* VS waves holding lines */
	uint32_t exp_waiting;           /* VS waves stopped at exp now */
	xs_gfx_wave *late_head[XS_MAX_SE], *late_tail[XS_MAX_SE];
	uint32_t next_cu[XS_GPU_NSTAGES];
	int lock_cu;                    /* -1: none */
	xs_gpu_stage lock_stage;
	uint64_t lock_since;
	uint64_t seq;
} xs_gfx_spi;

/* Takes the graphics scratch ring of queue 0 when a stage uses scratch. */
xs_status xs_gfx_spi_init(xs_gfx_spi *s, xs_gpu *g, const xs_gfx_spi_cfg *cfg, xs_gpu_gfx_stats *st, xs_err *e);
/* Gives the ring back and any CU lock (the draw ended or was abandoned). */
void xs_gfx_spi_fini(xs_gfx_spi *s);
/* Lines a VS wave of nverts vertices and num_params parameters needs:
 * a line per vertex and parameter, at least one per vertex (position only). */
static inline uint32_t xs_gfx_pc_need(uint32_t nverts, uint32_t num_params)
{
	return nverts * (num_params ? num_params : 1);
}

/* Launches a wave of the stage now if one fits (VS: need = lines; PS: need
 * = LDS bytes of its attributes): returns -1 and fills w, or the
 * xs_gpu_wait_cause that holds it (the most basic one over the CUs it may
 * use). A failed launch may lock a CU (S4.5). */
int xs_gfx_spi_launch(xs_gfx_spi *s, xs_gpu_stage stage, uint32_t need, xs_gfx_wave *w);
/* A VS wave reaches its first position or parameter export: true when it
 * has lines (it exports); false when it must wait (XS_EXPORT_WAIT): it is
 * woken by xs_gfx_spi_pc_free. */
bool xs_gfx_spi_export_ready(xs_gfx_spi *s, xs_gfx_wave *w);
/* A wave ends: its slot, VGPRs, LDS and scratch slot go back; a VS wave's
 * lines stay until xs_gfx_spi_pc_free. */
void xs_gfx_spi_retire(xs_gfx_spi *s, xs_gfx_wave *w);
/* The VS wave's lines are free (every primitive of it rasterized and every
 * PS wave holding them launched). Late waves of its SE get lines in launch
 * order; those that wait at exp are stored in woken[] (up to max) to be
 * resumed. Returns how many. */
uint32_t xs_gfx_spi_pc_free(xs_gfx_spi *s, xs_gfx_wave *w, xs_gfx_wave **woken, uint32_t max);
/* Nothing can move: true when it is the S4.2 deadlock (VS waves wait at exp
 * for lines that only PS waves which cannot launch would free), with the
 * report in buf. ps_pending: PS waves ready to launch; ps_cause: why the
 * first cannot (xs_gpu_wait_cause). */
bool xs_gfx_spi_deadlock(const xs_gfx_spi *s, uint32_t ps_pending, int ps_cause, char *buf, size_t n);
/* "VGPRs", "wave slots", "the parameter cache" ... for reports. */
const char *xs_gfx_wait_cause_text(int cause);

#endif
