/* xs12 sweep: one dispatch (or a recording's replay) over a grid of settings.
 * xs_cli_sweep.c builds the grid and runs its points, one child process
 * each; xs_cli_sweep_out.c prints the table, JSON, CSV and SVG chart;
 * xs_cli_sweep_slurm.c runs the points as a Slurm job array. Every way of
 * running a point ends in a sweep_row, and every output is printed from the
 * rows alone, so a sweep prints the same bytes however it ran. */
#ifndef XS_CLI_SWEEP_H
#define XS_CLI_SWEEP_H

#include "xs_cli.h"

#define SWEEP_MAX_VARY 8
#define SWEEP_MAX_POINTS 4096
#define SWEEP_ERROR_MAX 1000

typedef struct sweep_row {
	bool present;  /* a row came back (false: a Slurm task wrote none) */
	int rc;        /* xs12 run's exit code for the point */
	char error[SWEEP_ERROR_MAX]; /* "" when rc == 0 */
	char kernel[128];
	uint32_t dispatches;        /* recordings: dispatches replayed */
	uint64_t cycles, waves;
	double us, avg_waves_per_simd;
	uint32_t peak_waves_per_simd, peak_waves_in_flight, peak_scratch_slots, scratch_waves;
	uint64_t wait[XS_WAIT_COUNT];
	/* Counters (summed over a recording's dispatches); the cache and DRAM
	 * ones are modelled in timing mode only (counters = true). */
	bool counters;
	uint64_t l0_hits, l0_misses, l2_hits, l2_misses, dram_bytes;
	uint64_t scratch_read_bytes, scratch_write_bytes, lds_bytes, lds_bank_conflict_cycles;
	uint64_t digest;            /* out buffers (FNV-1a), or the replay's GPU memory */
} sweep_row;

typedef struct sweep_point {
	char label[512];                     /* "scratch-waves=8 launch.lds=1024" */
	const char *value[SWEEP_MAX_VARY];   /* of each --vary / --override */
	int argc;
	char **argv;                         /* argv[0] = "run" (or "replay") */
} sweep_point;

typedef struct sweep {
	const char *file;                    /* FILE as given */
	bool recording;                      /* FILE is an xs12 recording (--override) */
	int nvary;
	const char *vary_name[SWEEP_MAX_VARY];
	int npoints;
	sweep_point *pts;
	sweep_row *rows;
} sweep;

/* xs_cli_sweep.c */
/* Runs point i of sw in a child process into sw->rows[i] (jobs at once). */
void sweep_run_local(sweep *sw, const int *idx, int n, int jobs);
/* A row as text lines and back (the child's pipe, Slurm's row files). */
void sweep_row_write(FILE *f, const sweep_row *r);
bool sweep_row_read(FILE *f, sweep_row *r);
/* The grid file of --slurm, read back by --task. */
int sweep_grid_write(const char *path, const sweep *sw);
int sweep_grid_read_point(const char *path, int index, int *argc, char ***argv, char *cwd, size_t ncwd);

/* xs_cli_sweep_out.c: the best ok row by time (-1: none) and the next. */
int sweep_best(const sweep *sw, int *next, double *margin_percent);
void sweep_print_table(FILE *f, const sweep *sw);
void sweep_print_json(FILE *f, const sweep *sw);
int sweep_write_csv(const char *path, const sweep *sw);
int sweep_write_svg(const char *path, const sweep *sw);

/* xs_cli_sweep_slurm.c: runs every point as one job array; 0, or 1 after
 * a message (sbatch missing or failed). Rows of tasks that wrote none stay
 * !present. */
typedef struct sweep_slurm_opts {
	const char *dir;   /* shared folder (NULL: ./xs12-sweep-slurm) */
	const char *args;  /* extra sbatch arguments, shell words */
} sweep_slurm_opts;
int sweep_run_slurm(sweep *sw, const sweep_slurm_opts *o);
/* xs12 sweep --task I GRID: runs point I, writes its row file. */
int sweep_task(int index, const char *grid);

/* xs_cli_sweep_rec.c: one replay of a recording with register overrides
 * ("REG.FIELD=V" each) into *row. */
int sweep_replay_point(int argc, char **argv, sweep_row *row);

#endif
