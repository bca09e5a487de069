/* xs12 sweep --slurm: the grid's points as ONE Slurm job array. The grid
 * goes to a file in a folder every node sees (--slurm-dir); sbatch
 * --array=0-(N-1) --wait runs `xs12 sweep --task I GRID` for each point I,
 * in the submitting folder (relative in: files then resolve as locally);
 * each task writes its row file, row.I, beside the grid (written to a
 * temporary name and renamed, so a half-written row is never read). The
 * rows then print exactly as a local sweep's. A task that wrote no row is
 * reported by its index, with its log file. */
#include "xs_cli_sweep.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* s in single quotes for sh, inner quotes as '\'' */
static void shq(char *out, size_t n, const char *s)
{
	size_t k = 0;
	if (k + 1 < n)
		out[k++] = '\'';
	for (; *s && k + 5 < n; s++) {
		if (*s == '\'') {
			memcpy(out + k, "'\\''", 4);
			k += 4;
		} else {
			out[k++] = *s;
		}
	}
	if (k + 1 < n)
		out[k++] = '\'';
	out[k] = 0;
}

int sweep_run_slurm(sweep *sw, const sweep_slurm_opts *o)
{
	const char *dir = o->dir ? o->dir : "xs12-sweep-slurm";
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "xs12 sweep: --slurm-dir %s: %s\n", dir, strerror(errno));
		return 1;
	}
	char adir[PATH_MAX], exe[PATH_MAX], cwd[PATH_MAX], path[PATH_MAX + 32];
	if (!realpath(dir, adir) || !getcwd(cwd, sizeof(cwd))) {
		fprintf(stderr, "xs12 sweep: --slurm-dir %s: %s\n", dir, strerror(errno));
		return 1;
	}
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		fprintf(stderr, "xs12 sweep: --slurm: cannot find the xs12 executable: %s\n", strerror(errno));
		return 1;
	}
	exe[n] = 0;
	/* Rows of an earlier sweep in the same folder must not pass for this one's. */
	for (int i = 0; i < SWEEP_MAX_POINTS; i++) {
		snprintf(path, sizeof(path), "%s/row.%d", adir, i);
		if (unlink(path) && i >= sw->npoints)
			break;
		snprintf(path, sizeof(path), "%s/task.%d.log", adir, i);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/grid", adir);
	if (sweep_grid_write(path, sw))
		return 1;

	char q_exe[2 * PATH_MAX], q_grid[2 * PATH_MAX + 64], q_cwd[2 * PATH_MAX], q_log[4 * PATH_MAX + 128];
	shq(q_exe, sizeof(q_exe), exe);
	shq(q_grid, sizeof(q_grid), path);
	shq(q_cwd, sizeof(q_cwd), cwd);
	/* sbatch's -o expands %a (the task index) and every other %: the
	 * folder's own '%' are doubled to mean themselves. */
	char log[2 * PATH_MAX + 32];
	size_t k = 0;
	for (const char *c = adir; *c; c++) { /* adir < PATH_MAX: log holds it doubled */
		if (*c == '%')
			log[k++] = '%';
		log[k++] = *c;
	}
	snprintf(log + k, sizeof(log) - k, "/task.%%a.log");
	shq(q_log, sizeof(q_log), log);
	char wrap[6 * PATH_MAX], q_wrap[12 * PATH_MAX + 64];
	snprintf(wrap, sizeof(wrap), "exec %s sweep --task \"$SLURM_ARRAY_TASK_ID\" %s", q_exe, q_grid);
	shq(q_wrap, sizeof(q_wrap), wrap);
	size_t cl = strlen(q_wrap) + strlen(q_cwd) + strlen(q_log) + (o->args ? strlen(o->args) : 0) + 256;
	char *cmd = malloc(cl);
	if (!cmd) {
		fprintf(stderr, "xs12 sweep: host out of memory\n");
		return 1;
	}
	/* --wait: sbatch returns when every task has ended (its exit status is
	 * the highest of the tasks'); --parsable prints the job id alone. */
	snprintf(cmd, cl, "sbatch --parsable --wait --array=0-%d -J xs12-sweep -D %s -o %s %s --wrap %s",
		 sw->npoints - 1, q_cwd, q_log, o->args ? o->args : "", q_wrap);
	fflush(stdout);
	fflush(stderr);
	FILE *p = popen(cmd, "r");
	free(cmd);
	if (!p) {
		fprintf(stderr, "xs12 sweep: --slurm: cannot run sbatch: %s\n", strerror(errno));
		return 1;
	}
	char job[128] = "";
	if (fgets(job, sizeof(job), p))
		job[strcspn(job, ";\n")] = 0;
	char rest[256];
	while (fgets(rest, sizeof(rest), p))
		;
	int st = pclose(p);
	int code = st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (!job[0]) {
		fprintf(stderr, "xs12 sweep: --slurm: sbatch submitted no job (exit %d)%s\n", code,
			code == 127 ? ": sbatch is not installed or not on PATH"
				    : "; its message is above (is SLURM_CONF set, is slurmctld running?)");
		return 1;
	}
	fprintf(stderr, "xs12 sweep: Slurm job array %s, %d task%s, ended (sbatch exit %d)\n", job, sw->npoints,
		sw->npoints == 1 ? "" : "s", code);
	int missing = 0;
	for (int i = 0; i < sw->npoints; i++) {
		snprintf(path, sizeof(path), "%s/row.%d", adir, i);
		FILE *f = fopen(path, "r");
		if (!f || !sweep_row_read(f, &sw->rows[i])) {
			memset(&sw->rows[i], 0, sizeof(sw->rows[i]));
			fprintf(stderr, "xs12 sweep: task %d of job %s wrote no row (%s/row.%d); its log: %s/task.%d.log\n", i,
				job, adir, i, adir, i);
			missing++;
		}
		if (f)
			fclose(f);
	}
	if (missing)
		fprintf(stderr, "xs12 sweep: %d of %d tasks missing\n", missing, sw->npoints);
	return 0;
}

static int task_run(int index, const char *grid, sweep_point *pt, const char *cwd);

int sweep_task(int index, const char *grid)
{
	sweep_point pt = { .label = "" };
	char cwd[PATH_MAX];
	if (sweep_grid_read_point(grid, index, &pt.argc, &pt.argv, cwd, sizeof(cwd)))
		return 1;
	int rc = task_run(index, grid, &pt, cwd);
	for (int i = 0; i < pt.argc; i++)
		free(pt.argv[i]);
	free(pt.argv);
	return rc;
}

static int task_run(int index, const char *grid, sweep_point *pt, const char *cwd)
{
	char gdir[PATH_MAX], row[PATH_MAX + 32], tmp[PATH_MAX + 48];
	snprintf(gdir, sizeof(gdir), "%s", grid);
	char *d = dirname(gdir);
	char gabs[PATH_MAX];
	if (!realpath(d, gabs)) {
		fprintf(stderr, "xs12 sweep: --task: %s: %s\n", d, strerror(errno));
		return 1;
	}
	snprintf(row, sizeof(row), "%s/row.%d", gabs, index);
	snprintf(tmp, sizeof(tmp), "%s/.row.%d.%ld", gabs, index, (long)getpid());
	if (chdir(cwd)) {
		fprintf(stderr, "xs12 sweep: --task: the sweep's folder %s: %s\n", cwd, strerror(errno));
		return 1;
	}
	sweep_row r = { 0 };
	sweep sw = { .npoints = 1, .pts = pt, .rows = &r };
	int zero = 0;
	sweep_run_local(&sw, &zero, 1, 1);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "xs12 sweep: --task: %s: %s\n", tmp, strerror(errno));
		return 1;
	}
	sweep_row_write(f, &r);
	if (fclose(f) || rename(tmp, row)) {
		fprintf(stderr, "xs12 sweep: --task: writing %s: %s\n", row, strerror(errno));
		unlink(tmp);
		return 1;
	}
	printf("xs12 sweep: point %d: %s\n", index, r.rc ? r.error : "ok");
	return 0;
}
