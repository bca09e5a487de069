/* xs12 sweep FILE ... --vary NAME=V1,V2 ...: one kernel dispatch (xs12 run's
 * options) over the cartesian product of settings, or a recording replayed
 * with register fields overridden (--override). Each point runs in a child
 * process of its own on a fresh device, so points cannot share state and
 * --jobs N only changes how many run at once, never what they measure
 * (timing mode is deterministic). docs/cli.md is the manual. */
#include "xs_cli_sweep.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/xs_rt.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: xs12 sweep FILE --groups X[,Y[,Z]] --block X[,Y[,Z]] [--arg SPEC]... [run options]\n"
		"                  --vary NAME=V1,V2,... [--vary ...] [sweep options]\n"
		"       xs12 sweep REC.xsrec --override REG.FIELD=V1,V2,... [--override ...] [sweep options]\n"
		"\n"
		"Runs one dispatch (the options of 'xs12 run', without --async, --trace, --svg, --record,\n"
		"--functional, --threads, --profile, --counters) once per point of the grid of --vary\n"
		"values (their cartesian product, the first --vary outermost), each on a fresh device,\n"
		"and prints a table with the best point (least time) and its margin over the next.\n"
		"\n"
		"--vary NAMEs:\n"
		"  scratch-waves  slots of the driver's ring (COMPUTE_TMPRING_SIZE.WAVES, S1.8)\n"
		"  title-scratch  the queue's own ring (SetShaderScratchSpaceX), as run's option\n"
		"  launch.lds launch.x launch.y launch.z   SetComputeShaderLaunchParametersX (S3)\n"
		"  cu-mask        CUs the dispatch may use\n"
		"  machine        seriesx or seriess\n"
		"  block groups   the group shape / grid; a value's dimensions joined by 'x' (16x4;\n"
		"                 0x starting a dimension is hex: 0x100x4 is 256 by 4)\n"
		"\n"
		"--override REG.FIELD=V1,V2 (a recording, from 'xs12 run --record' or XS12_RECORD): the\n"
		"command processor replaces the field's bits whenever a PM4 packet sets REG, e.g.\n"
		"COMPUTE_TMPRING_SIZE.WAVES=8,208 or COMPUTE_RESOURCE_LIMITS.WAVES_PER_SH=1,4\n"
		"\n"
		"Sweep options:\n"
		"  --jobs N        points at once (default: the host's cores); the output is the same\n"
		"  --json          the rows as JSON on stdout instead of the table\n"
		"  --csv FILE      the rows as CSV\n"
		"  --svg FILE      a bar chart of time per point, the best highlighted\n"
		"  --slurm         run the points as one Slurm job array (sbatch), then print the same\n"
		"                  table; --slurm-dir DIR: a folder every node sees (default\n"
		"                  ./xs12-sweep-slurm); --slurm-args 'ARGS': more sbatch arguments\n"
		"\n"
		"A point whose settings break a rule is a row with its error. Out files are not written\n"
		"(every point would overwrite them): column 'out' is a digest of the out buffers.\n"
		"Exit: 0 when some point ran, 1 when none did or Slurm tasks are missing, 2 usage error.\n");
}

static const char *const vary_names[] = { "scratch-waves", "title-scratch", "launch.lds", "launch.x", "launch.y",
					  "launch.z", "cu-mask", "machine", "block", "groups" };

/* run's options a sweep cannot take, and why */
static const char *const run_refused[][2] = {
	{ "async", "a sweep runs one dispatch per point" },
	{ "trace", "one timeline per point: use xs12 run on the point you want" },
	{ "record", "use xs12 run --record on the point you want" },
	{ "functional", "a sweep compares modelled time: timing mode only" },
	{ "threads", "host threads are for --functional; use --jobs" },
	{ "profile", "one profile per point, each point would overwrite the file: use xs12 run --profile on the "
		     "point you want" },
	{ "counters", "every row holds the point's counters (--json, --csv); per point in run's format: xs12 run "
		      "--counters" },
};

/* sweep's own options; a line may also hold run's (xs_cli_run_opts). */
static const struct option sweep_opts[] = {
	{ "vary", required_argument, NULL, 0 }, { "override", required_argument, NULL, 0 },
	{ "jobs", required_argument, NULL, 0 }, { "json", no_argument, NULL, 0 },
	{ "csv", required_argument, NULL, 0 }, { "svg", required_argument, NULL, 0 },
	{ "slurm", no_argument, NULL, 0 }, { "slurm-dir", required_argument, NULL, 0 },
	{ "slurm-args", required_argument, NULL, 0 }, { "task", required_argument, NULL, 0 },
	{ "cc", required_argument, NULL, 0 }, { "launch", required_argument, NULL, 0 },
	{ "help", no_argument, NULL, 0 }, { 0 },
};

/* The option of sweep's or run's table named name (sweep's first), or NULL. */
static const struct option *find_opt(const char *name, size_t len)
{
	const struct option *const tabs[2] = { sweep_opts, xs_cli_run_opts };
	for (int t = 0; t < 2; t++)
		for (const struct option *o = tabs[t]; o->name; o++)
			if (strlen(o->name) == len && !strncmp(o->name, name, len))
				return o;
	return NULL;
}

/* Options by unambiguous prefix, as run takes them (getopt_long): argv
 * copied into av with each "--pre" spelt out ("--pre=V" split into
 * "--name" and "V"), an exact name winning over longer ones. 0, or a usage
 * error for a prefix of several names. The value after an option that
 * takes one is copied as given; unknown names stay as given (run says
 * so). av holds up to 2 argc entries, names the spelt-out names (up to
 * 32 bytes for each argument). */
static int spell_out(int argc, char **argv, char **av, int *n, char *names)
{
	*n = 0;
	for (int i = 0; i < argc; i++) {
		char *a = argv[i];
		if (i == 0 || strncmp(a, "--", 2) || !a[2]) {
			av[(*n)++] = a;
			continue;
		}
		const char *eq = strchr(a, '=');
		size_t len = (eq ? (size_t)(eq - a) : strlen(a)) - 2;
		const struct option *hit = find_opt(a + 2, len);
		char also[256] = "";
		const struct option *const tabs[2] = { sweep_opts, xs_cli_run_opts };
		for (int t = 0; !hit && t < 2; t++)
			for (const struct option *o = tabs[t]; o->name; o++) {
				if (strncmp(o->name, a + 2, len) || (t == 1 && find_opt(o->name, strlen(o->name)) != o))
					continue; /* (not a prefix, or run's twin of one of sweep's) */
				size_t l = strlen(also);
				snprintf(also + l, sizeof(also) - l, "%s--%s", l ? ", " : "", o->name);
			}
		if (!hit && strchr(also, ',')) /* a prefix of several */
			return xs_cli_usage_error("sweep", "%.*s is ambiguous: %s", (int)len + 2, a, also);
		if (!hit && also[0]) /* a prefix of one */
			hit = find_opt(also + 2, strlen(also + 2));
		bool flag = hit && hit->has_arg == no_argument;
		if (!hit || (flag && eq)) { /* (a flag with a value: run refuses it) */
			av[(*n)++] = a;
			continue;
		}
		av[(*n)++] = names;
		names += sprintf(names, "--%s", hit->name) + 1;
		if (eq)
			av[(*n)++] = (char *)eq + 1;
		else if (!flag && i + 1 < argc)
			av[(*n)++] = argv[++i]; /* its value, as given (it may begin with --) */
	}
	return 0;
}

/* "--name VALUE" or "--name=VALUE" at argv[*i]: 1 (value in *val), 0 not
 * this option, -1 value missing. */
static int opt_value(int argc, char **argv, int *i, const char *name, const char **val)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (strncmp(a, "--", 2) || strncmp(a + 2, name, n))
		return 0;
	if (a[2 + n] == '=') {
		*val = a + 3 + n;
		return 1;
	}
	if (a[2 + n])
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*val = argv[++*i];
	return 1;
}

static bool opt_flag(const char *a, const char *name)
{
	return !strncmp(a, "--", 2) && !strcmp(a + 2, name);
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d) {
		fprintf(stderr, "xs12 sweep: host out of memory\n");
		exit(1);
	}
	return d;
}

/* ---- rows and the grid file --------------------------------------------------- */

static void free_argv(char **v, int n)
{
	for (int i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
	fputc('\n', f);
}

/* One line without its newline, unescaped in place, into *bufp (getline's:
 * a grid's argument may be any length, e.g. a long path or spec); false at
 * EOF. The caller frees *bufp. */
static bool get_line(FILE *f, char **bufp, size_t *cap, bool unescape)
{
	if (getline(bufp, cap, f) < 0)
		return false;
	char *buf = *bufp;
	buf[strcspn(buf, "\n")] = 0;
	if (unescape) {
		char *w = buf;
		for (const char *r = buf; *r; r++) {
			if (*r == '\\' && r[1])
				*w++ = *++r == 'n' ? '\n' : *r;
			else
				*w++ = *r;
		}
		*w = 0;
	}
	return true;
}

void sweep_row_write(FILE *f, const sweep_row *r)
{
	/* %a: doubles go through text exactly, so a row read back prints the
	 * same digits as the row itself. */
	fprintf(f, "xs12-sweep-row 1\nrc %d\nkernel %s\ndispatches %u\ncycles %llu\nwaves %llu\nus %a\navg %a\n"
		   "peak_simd %u\npeak_flight %u\npeak_scratch %u\nring %u\n",
		r->rc, r->kernel, r->dispatches, (unsigned long long)r->cycles, (unsigned long long)r->waves, r->us,
		r->avg_waves_per_simd, r->peak_waves_per_simd, r->peak_waves_in_flight, r->peak_scratch_slots,
		r->scratch_waves);
	for (int i = 0; i < XS_WAIT_COUNT; i++)
		fprintf(f, "wait %d %llu\n", i, (unsigned long long)r->wait[i]);
	fprintf(f, "counters %d %llu %llu %llu %llu %llu %llu %llu %llu %llu\n", r->counters, (unsigned long long)r->l0_hits,
		(unsigned long long)r->l0_misses, (unsigned long long)r->l2_hits, (unsigned long long)r->l2_misses,
		(unsigned long long)r->dram_bytes, (unsigned long long)r->scratch_read_bytes,
		(unsigned long long)r->scratch_write_bytes, (unsigned long long)r->lds_bytes,
		(unsigned long long)r->lds_bank_conflict_cycles);
	fprintf(f, "digest %016llx\nerror ", (unsigned long long)r->digest);
	put_escaped(f, r->error);
	fprintf(f, "end\n");
}

bool sweep_row_read(FILE *f, sweep_row *r)
{
	char *line = NULL;
	size_t cap = 0;
	memset(r, 0, sizeof(*r));
	if (!get_line(f, &line, &cap, false) || strcmp(line, "xs12-sweep-row 1")) {
		free(line);
		return false;
	}
	while (get_line(f, &line, &cap, true)) {
		char *v = strchr(line, ' ');
		v = v ? (*v = 0, v + 1) : line + strlen(line);
		unsigned long long u = strtoull(v, NULL, 0);
		if (!strcmp(line, "end")) {
			r->present = true;
			break;
		} else if (!strcmp(line, "rc"))
			r->rc = atoi(v);
		else if (!strcmp(line, "kernel"))
			snprintf(r->kernel, sizeof(r->kernel), "%s", v);
		else if (!strcmp(line, "dispatches"))
			r->dispatches = (uint32_t)u;
		else if (!strcmp(line, "cycles"))
			r->cycles = u;
		else if (!strcmp(line, "waves"))
			r->waves = u;
		else if (!strcmp(line, "us"))
			r->us = strtod(v, NULL);
		else if (!strcmp(line, "avg"))
			r->avg_waves_per_simd = strtod(v, NULL);
		else if (!strcmp(line, "peak_simd"))
			r->peak_waves_per_simd = (uint32_t)u;
		else if (!strcmp(line, "peak_flight"))
			r->peak_waves_in_flight = (uint32_t)u;
		else if (!strcmp(line, "peak_scratch"))
			r->peak_scratch_slots = (uint32_t)u;
		else if (!strcmp(line, "ring"))
			r->scratch_waves = (uint32_t)u;
		else if (!strcmp(line, "wait")) {
			char *end;
			long i = strtol(v, &end, 10);
			if (i >= 0 && i < XS_WAIT_COUNT)
				r->wait[i] = strtoull(end, NULL, 10);
		} else if (!strcmp(line, "counters")) {
			uint64_t *dst[] = { &r->l0_hits, &r->l0_misses, &r->l2_hits, &r->l2_misses, &r->dram_bytes,
					    &r->scratch_read_bytes, &r->scratch_write_bytes, &r->lds_bytes,
					    &r->lds_bank_conflict_cycles };
			char *end;
			r->counters = strtol(v, &end, 10) != 0;
			for (size_t i = 0; i < sizeof(dst) / sizeof(dst[0]); i++)
				*dst[i] = strtoull(end, &end, 10);
		} else if (!strcmp(line, "digest"))
			r->digest = strtoull(v, NULL, 16);
		else if (!strcmp(line, "error"))
			snprintf(r->error, sizeof(r->error), "%s", v);
	}
	free(line);
	return r->present;
}

int sweep_grid_write(const char *path, const sweep *sw)
{
	FILE *f = fopen(path, "w");
	char cwd[4096];
	if (!f || !getcwd(cwd, sizeof(cwd))) {
		fprintf(stderr, "xs12 sweep: cannot write %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return 1;
	}
	fprintf(f, "xs12-sweep-grid 1\ncwd ");
	put_escaped(f, cwd);
	fprintf(f, "points %d\n", sw->npoints);
	for (int i = 0; i < sw->npoints; i++) {
		fprintf(f, "point %d %d\n", i, sw->pts[i].argc);
		for (int a = 0; a < sw->pts[i].argc; a++)
			put_escaped(f, sw->pts[i].argv[a]);
	}
	if (fclose(f)) {
		fprintf(stderr, "xs12 sweep: writing %s failed: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

int sweep_grid_read_point(const char *path, int index, int *argc, char ***argv, char *cwd, size_t ncwd)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "xs12 sweep: --task: cannot open the grid %s: %s\n", path, strerror(errno));
		return 1;
	}
	char *line = NULL;
	size_t cap = 0;
	int n = -1, rc = 1;
	if (!get_line(f, &line, &cap, false) || strcmp(line, "xs12-sweep-grid 1") ||
	    !get_line(f, &line, &cap, true) || strncmp(line, "cwd ", 4))
		goto bad;
	snprintf(cwd, ncwd, "%s", line + 4);
	if (!get_line(f, &line, &cap, false) || sscanf(line, "points %d", &n) != 1)
		goto bad;
	if (index < 0 || index >= n) {
		fprintf(stderr, "xs12 sweep: --task %d: the grid %s has points 0..%d\n", index, path, n - 1);
		goto out;
	}
	for (int i = 0; i <= index; i++) {
		int pi, pc;
		if (!get_line(f, &line, &cap, false) || sscanf(line, "point %d %d", &pi, &pc) != 2 || pi != i ||
		    pc < 1 || pc > 4096)
			goto bad;
		char **v = i == index ? calloc((size_t)pc + 1, sizeof(char *)) : NULL;
		for (int a = 0; a < pc; a++) {
			if (!get_line(f, &line, &cap, true)) {
				free_argv(v, a);
				goto bad;
			}
			if (v)
				v[a] = xstrdup(line);
		}
		if (v) {
			*argc = pc;
			*argv = v;
			rc = 0;
		}
	}
	goto out;
bad:
	fprintf(stderr, "xs12 sweep: --task: %s is not a whole sweep grid (written by xs12 sweep --slurm)\n", path);
	rc = 1;
out:
	free(line);
	fclose(f);
	return rc;
}

/* ---- running points --------------------------------------------------------------- */

/* What the point printed on stderr, as one line: "xs12 run: " and the
 * "(see 'xs12 run --help')" line dropped, lines joined by "; ". */
static void error_text(FILE *t, char *out, size_t n)
{
	char line[2048];
	size_t len = 0;
	out[0] = 0;
	rewind(t);
	while (fgets(line, sizeof(line), t)) {
		line[strcspn(line, "\n")] = 0;
		const char *s = line;
		if (!*s || !strncmp(s, "(see 'xs12 ", 11))
			continue;
		if (!strncmp(s, "xs12 run: ", 10))
			s += 10;
		else if (!strncmp(s, "xs12 sweep: ", 12))
			s += 12;
		if (len + 2 < n)
			len += (size_t)snprintf(out + len, n - len, "%s%s", len ? "; " : "", s);
		if (len >= n)
			len = n - 1;
	}
}

static void row_from_run(sweep_row *r, const xs_cli_run_result *res)
{
	const xs_dispatch_stats *st = &res->stats;
	snprintf(r->kernel, sizeof(r->kernel), "%s", res->kernel);
	r->dispatches = res->dispatched;
	r->cycles = st->cycles;
	r->waves = st->waves_launched;
	r->us = st->microseconds;
	r->avg_waves_per_simd = st->avg_waves_per_simd;
	r->peak_waves_per_simd = st->peak_waves_per_simd;
	r->peak_waves_in_flight = st->peak_waves_in_flight;
	r->peak_scratch_slots = st->peak_scratch_slots;
	r->scratch_waves = st->scratch_waves;
	memcpy(r->wait, st->wait_cycles, sizeof(r->wait));
	const xs_dispatch_counters *c = &st->counters;
	r->counters = c->valid;
	r->l0_hits = c->l0_hits;
	r->l0_misses = c->l0_misses;
	r->l2_hits = c->l2_hits;
	r->l2_misses = c->l2_misses;
	r->dram_bytes = (c->dram_read_lines + c->dram_write_lines) * c->line_bytes;
	r->scratch_read_bytes = c->scratch_read_bytes;
	r->scratch_write_bytes = c->scratch_write_bytes;
	r->lds_bytes = c->lds_bytes;
	r->lds_bank_conflict_cycles = c->lds_bank_conflict_cycles;
	r->digest = res->out_digest;
}

/* The child: runs the point with stderr captured, writes its row to fd. */
static void child_main(const sweep_point *p, int fd)
{
	FILE *t = tmpfile();
	if (t)
		dup2(fileno(t), 2);
	sweep_row row = { .present = true };
	char res_error[sizeof(((xs_cli_run_result *)0)->error)] = "";
	if (!strcmp(p->argv[0], "replay")) {
		row.rc = sweep_replay_point(p->argc, p->argv, &row);
	} else {
		xs_cli_run_result *res = calloc(1, sizeof(*res));
		if (!res)
			_exit(3);
		row.rc = xs_cli_run_point(p->argc, p->argv, res);
		row_from_run(&row, res);
		snprintf(res_error, sizeof(res_error), "%s", res->error);
		free(res);
	}
	fflush(stderr);
	if (row.rc) {
		if (t)
			error_text(t, row.error, sizeof(row.error));
		if (!row.error[0])
			snprintf(row.error, sizeof(row.error), "%s", res_error[0] ? res_error : "failed");
	}
	FILE *o = fdopen(fd, "w");
	if (o) {
		sweep_row_write(o, &row);
		fclose(o);
	}
}

static void row_failed(sweep_row *r, const char *fmt, const char *what)
{
	memset(r, 0, sizeof(*r));
	r->present = true;
	r->rc = 1;
	snprintf(r->error, sizeof(r->error), fmt, what);
}

void sweep_run_local(sweep *sw, const int *idx, int n, int jobs)
{
	typedef struct { pid_t pid; int fd, index; } child;
	if (jobs < 1)
		jobs = 1;
	child *c = calloc((size_t)jobs, sizeof(*c));
	if (!c) {
		fprintf(stderr, "xs12 sweep: host out of memory\n");
		exit(1);
	}
	int running = 0, next = 0;
	while (next < n || running) {
		while (running < jobs && next < n) {
			int i = idx[next++], fds[2];
			fflush(stdout);
			fflush(stderr);
			if (pipe(fds)) {
				row_failed(&sw->rows[i], "cannot start the point: pipe: %s", strerror(errno));
				continue;
			}
			pid_t pid = fork();
			if (pid == 0) {
				close(fds[0]);
				child_main(&sw->pts[i], fds[1]);
				_exit(0);
			}
			close(fds[1]);
			if (pid < 0) {
				close(fds[0]);
				row_failed(&sw->rows[i], "cannot start the point: fork: %s", strerror(errno));
				continue;
			}
			c[running++] = (child){ pid, fds[0], i };
		}
		if (!running)
			break;
		int status;
		pid_t pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		int k = 0;
		while (k < running && c[k].pid != pid)
			k++;
		if (k == running)
			continue;
		/* The row is a few hundred bytes: the child wrote it all into the
		 * pipe before exiting, so reading after the wait cannot block it. */
		FILE *f = fdopen(c[k].fd, "r");
		sweep_row *r = &sw->rows[c[k].index];
		if (!f || !sweep_row_read(f, r)) {
			char why[96];
			if (WIFSIGNALED(status))
				snprintf(why, sizeof(why), "was killed by signal %d (%s)", WTERMSIG(status),
					 strsignal(WTERMSIG(status)));
			else
				snprintf(why, sizeof(why), "ended (exit %d) without a result", WEXITSTATUS(status));
			row_failed(r, "the point's process %s", why);
		}
		if (f)
			fclose(f);
		else
			close(c[k].fd);
		c[k] = c[--running];
	}
	free(c);
}

/* ---- the grid ---------------------------------------------------------------------- */

typedef struct vary {
	const char *name;
	char *values[256];
	int n;
} vary;

static int parse_vary(const char *opt, const char *s, vary *v, bool reg)
{
	const char *eq = strchr(s, '=');
	if (!eq || eq == s || !eq[1])
		return xs_cli_usage_error("sweep", "%s '%s': expected %s=V1,V2,...", opt, s, reg ? "REG.FIELD" : "NAME");
	char *name = xstrdup(s);
	name[eq - s] = 0;
	v->name = name; /* freed with the sweep, also after an error below */
	if (!reg) {
		bool known = false;
		for (size_t i = 0; i < XS_ARRAY_SIZE(vary_names); i++)
			known |= !strcmp(name, vary_names[i]);
		if (!known)
			return xs_cli_usage_error("sweep", "--vary %s: unknown setting; one of scratch-waves, title-scratch, "
						  "launch.lds, launch.x, launch.y, launch.z, cu-mask, machine, block, groups",
						  name);
	} else if (!strchr(name, '.')) {
		return xs_cli_usage_error("sweep", "--override %s: expected REG.FIELD (e.g. COMPUTE_TMPRING_SIZE.WAVES)",
					  name);
	}
	char *vals = name + (eq - s) + 1;
	const char *p = vals;
	while (true) {
		size_t len = strcspn(p, ",");
		if (!len)
			return xs_cli_usage_error("sweep", "%s %s: an empty value in '%s'", opt, name, vals);
		if (v->n == (int)XS_ARRAY_SIZE(v->values))
			return xs_cli_usage_error("sweep", "%s %s: at most %zu values", opt, name, XS_ARRAY_SIZE(v->values));
		char *val = xstrdup(p);
		val[len] = 0;
		v->values[v->n++] = val;
		if (!p[len])
			break;
		p += len + 1;
	}
	return 0;
}

typedef struct argv_buf {
	char **v;
	int n, cap;
} argv_buf;

static void push(argv_buf *a, const char *s)
{
	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? 2 * a->cap : 32;
		if (!(a->v = realloc(a->v, (size_t)a->cap * sizeof(char *)))) {
			fprintf(stderr, "xs12 sweep: host out of memory\n");
			exit(1);
		}
	}
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

/* Point i's argv: the base, then the varied options (later options win in
 * run's parser); the launch.* fields merge with the base's --launch into
 * one --launch, since each --launch x/y/z restarts the group shape. */
static void build_point(sweep_point *pt, int i, const argv_buf *base, const char *base_launch, vary *vs, int nv,
			bool recording)
{
	argv_buf a = { 0 };
	for (int k = 0; k < base->n; k++)
		push(&a, base->v[k]);
	char launch[512];
	snprintf(launch, sizeof(launch), "%s", base_launch ? base_launch : "");
	bool any_launch = false;
	size_t len = 0;
	int rem = i;
	int digit[SWEEP_MAX_VARY];
	for (int k = nv - 1; k >= 0; k--) { /* the first --vary outermost */
		digit[k] = rem % vs[k].n;
		rem /= vs[k].n;
	}
	for (int k = 0; k < nv; k++) {
		const char *val = vs[k].values[digit[k]];
		pt->value[k] = val;
		len += (size_t)snprintf(pt->label + len, len < sizeof(pt->label) ? sizeof(pt->label) - len : 0, "%s%s=%s",
					k ? " " : "", vs[k].name, val);
		if (recording) {
			char ov[600];
			snprintf(ov, sizeof(ov), "%s=%s", vs[k].name, val);
			push(&a, ov);
		} else if (!strncmp(vs[k].name, "launch.", 7)) {
			size_t l = strlen(launch);
			snprintf(launch + l, sizeof(launch) - l, "%s%s=%s", l ? "," : "", vs[k].name + 7, val);
			any_launch = true;
		} else {
			char opt[64], dims[256];
			snprintf(opt, sizeof(opt), "--%s", vs[k].name);
			snprintf(dims, sizeof(dims), "%s", val);
			/* block=16x4 is --block 16,4 (',' separates the values): each 'x'
			 * separates dimensions but the x of a 0x prefix, one right after
			 * a '0' that starts a dimension (0x100x4 is 256 by 4; a
			 * dimension of 0 is invalid anyway, so no reading is lost) */
			if (!strcmp(vs[k].name, "block") || !strcmp(vs[k].name, "groups"))
				for (char *q = dims; *q; q++)
					if (*q == 'x' && !(q > dims && q[-1] == '0' && (q - 1 == dims || q[-2] == ',')))
						*q = ',';
			push(&a, opt);
			push(&a, dims);
		}
	}
	if (any_launch || base_launch) {
		push(&a, "--launch");
		push(&a, launch);
	}
	pt->argc = a.n;
	pt->argv = a.v;
}

/* What a sweep allocates, freed in one place whichever way it ends. */
typedef struct sweep_ctx {
	vary vs[SWEEP_MAX_VARY];
	argv_buf base;
	sweep sw;
	int *idx;
} sweep_ctx;

static void ctx_free(sweep_ctx *c)
{
	for (int k = 0; k < SWEEP_MAX_VARY; k++) {
		free((char *)c->vs[k].name);
		for (int i = 0; i < c->vs[k].n; i++)
			free(c->vs[k].values[i]);
	}
	free_argv(c->base.v, c->base.n);
	for (int i = 0; c->sw.pts && i < c->sw.npoints; i++)
		free_argv(c->sw.pts[i].argv, c->sw.pts[i].argc);
	free(c->sw.pts);
	free(c->sw.rows);
	free(c->idx);
}

static int sweep_main(sweep_ctx *c, int argc, char **argv)
{
	vary *vs = c->vs;
	int nv = 0, jobs = 0, task = -1;
	bool json = false, slurm = false, any_override = false, any_vary = false;
	const char *csv = NULL, *svg = NULL, *cc = NULL, *file = NULL;
	sweep_slurm_opts so = { 0 };
	argv_buf *base = &c->base;
	push(base, "run");
	char launch[512] = "";
	bool has_launch = false;
	int file_pos = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		int r;
		if (opt_flag(a, "help") || !strcmp(a, "-h")) {
			help(stdout);
			return 0;
		}
		if (opt_flag(a, "json")) {
			json = true;
			continue;
		}
		if (opt_flag(a, "slurm")) {
			slurm = true;
			continue;
		}
		bool is_vary = false, is_ov = false;
		if ((r = opt_value(argc, argv, &i, "vary", &v)) || (r = opt_value(argc, argv, &i, "override", &v))) {
			is_ov = !strncmp(a, "--override", 10);
			is_vary = !is_ov;
		} else if (!(r = opt_value(argc, argv, &i, "jobs", &v)) && !(r = opt_value(argc, argv, &i, "csv", &v)) &&
			   !(r = opt_value(argc, argv, &i, "svg", &v)) && !(r = opt_value(argc, argv, &i, "slurm-dir", &v)) &&
			   !(r = opt_value(argc, argv, &i, "slurm-args", &v)) && !(r = opt_value(argc, argv, &i, "task", &v)) &&
			   !(r = opt_value(argc, argv, &i, "cc", &v)) && !(r = opt_value(argc, argv, &i, "launch", &v))) {
			/* one of run's options, or FILE */
			for (size_t k = 0; k < XS_ARRAY_SIZE(run_refused); k++)
				if (opt_flag(a, run_refused[k][0]) ||
				    (!strncmp(a, "--", 2) && !strncmp(a + 2, run_refused[k][0], strlen(run_refused[k][0])) &&
				     a[2 + strlen(run_refused[k][0])] == '='))
					return xs_cli_usage_error("sweep", "--%s: %s", run_refused[k][0], run_refused[k][1]);
			if (strncmp(a, "--", 2)) {
				if (file)
					return xs_cli_usage_error("sweep", "one FILE ('%s' and '%s')", file, a);
				file = a;
				file_pos = base->n;
				push(base, a);
				continue;
			}
			push(base, a);
			/* a run option that takes a value: the next argument is
			 * that, not FILE (spell_out left the names whole) */
			const struct option *o = find_opt(a + 2, strlen(a + 2));
			if (o && o->has_arg == required_argument && i + 1 < argc)
				push(base, argv[++i]);
			continue;
		}
		if (r < 0)
			return xs_cli_usage_error("sweep", "%s: missing value", a);
		if (is_vary || is_ov) {
			if (nv == SWEEP_MAX_VARY)
				return xs_cli_usage_error("sweep", "at most %d --vary and --override", SWEEP_MAX_VARY);
			if ((r = parse_vary(is_ov ? "--override" : "--vary", v, &vs[nv], is_ov)))
				return r;
			for (int k = 0; k < nv; k++)
				if (!strcmp(vs[k].name, vs[nv].name))
					return xs_cli_usage_error("sweep", "%s given twice", vs[nv].name);
			nv++;
			any_override |= is_ov;
			any_vary |= is_vary;
		} else if (!strncmp(a, "--jobs", 6)) {
			uint32_t u;
			if (!xs_cli_parse_u32(v, &u) || !u || u > 1024)
				return xs_cli_usage_error("sweep", "--jobs '%s': expected 1..1024", v);
			jobs = (int)u;
		} else if (!strncmp(a, "--csv", 5))
			csv = v;
		else if (!strncmp(a, "--svg", 5))
			svg = v;
		else if (!strncmp(a, "--slurm-dir", 11))
			so.dir = v;
		else if (!strncmp(a, "--slurm-args", 12))
			so.args = v;
		else if (!strncmp(a, "--task", 6)) {
			uint32_t u;
			if (!xs_cli_parse_u32(v, &u) || u >= SWEEP_MAX_POINTS)
				return xs_cli_usage_error("sweep", "--task '%s': a point index", v);
			task = (int)u;
		} else if (!strncmp(a, "--cc", 4))
			cc = v;
		else { /* --launch: merged with launch.* */
			size_t l = strlen(launch);
			snprintf(launch + l, sizeof(launch) - l, "%s%s", l ? "," : "", v);
			has_launch = true;
		}
	}
	if (task >= 0) {
		if (!file || base->n != 2 || nv)
			return xs_cli_usage_error("sweep", "--task I takes the grid file alone");
		return sweep_task(task, file);
	}
	if (!file)
		return xs_cli_usage_error("sweep", "expected a code object file or a recording");
	if (!nv)
		return xs_cli_usage_error("sweep", "nothing to vary: give --vary NAME=V1,V2 (or --override for a recording)");

	/* A recording (xs12 run --record, XS12_RECORD): only --override. */
	char magic[8] = { 0 };
	FILE *mf = fopen(file, "rb");
	bool recording = mf && fread(magic, 1, 8, mf) == 8 && xs_rt_is_recording(magic, 8);
	if (mf)
		fclose(mf);
	if (recording && (any_vary || base->n != 2 || has_launch || cc))
		return xs_cli_usage_error("sweep", "%s is a recording: it takes --override REG.FIELD=V1,V2 and the sweep "
					  "options only (its dispatches are recorded)", file);
	if (!recording && any_override)
		return xs_cli_usage_error("sweep", "--override REG.FIELD=...: FILE must be a recording (xs12 run --record, "
					  "XS12_RECORD); for a kernel use --vary");
	if (recording) {
		free(base->v[0]);
		base->v[0] = xstrdup("replay");
	}

	/* A source FILE compiles once, here, not in every point at once. */
	char cached[4096];
	if (!recording) {
		xs_cc_opts cco = XS_CC_OPTS_DEFAULT;
		char bad[64];
		if (cc && xs_cc_flags(cc, &cco, bad, sizeof(bad)))
			return xs_cli_usage_error("sweep", "--cc: unknown flag '%s' (-O0..-O3, --wave64, -g)", bad);
		const char *code = xs_cli_code_path("sweep", file, &cco, cached, sizeof(cached));
		if (!code)
			return 1;
		free(base->v[file_pos]);
		base->v[file_pos] = xstrdup(code);
	}

	long total = 1;
	for (int k = 0; k < nv; k++)
		if ((total *= vs[k].n) > SWEEP_MAX_POINTS)
			return xs_cli_usage_error("sweep", "the grid has more than %d points", SWEEP_MAX_POINTS);
	sweep *sw = &c->sw;
	*sw = (sweep){ .file = file, .recording = recording, .nvary = nv, .npoints = (int)total };
	for (int k = 0; k < nv; k++)
		sw->vary_name[k] = vs[k].name;
	sw->pts = calloc((size_t)total, sizeof(*sw->pts));
	sw->rows = calloc((size_t)total, sizeof(*sw->rows));
	int *idx = c->idx = calloc((size_t)total, sizeof(int));
	if (!sw->pts || !sw->rows || !idx) {
		fprintf(stderr, "xs12 sweep: host out of memory\n");
		return 1;
	}
	for (int i = 0; i < sw->npoints; i++) {
		build_point(&sw->pts[i], i, base, has_launch ? launch : NULL, vs, nv, recording);
		idx[i] = i;
	}

	int rc = 0;
	if (slurm) {
		if ((rc = sweep_run_slurm(sw, &so)))
			return rc;
	} else {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);
		sweep_run_local(sw, idx, sw->npoints, jobs ? jobs : cores > 0 ? (int)cores : 1);
	}

	/* The same usage error at every point is the command's, not a setting's. */
	bool all_usage = true;
	for (int i = 0; i < sw->npoints; i++)
		all_usage &= sw->rows[i].present && sw->rows[i].rc == XS_CLI_USAGE_ERROR &&
			     !strcmp(sw->rows[i].error, sw->rows[0].error);
	if (all_usage) {
		fprintf(stderr, "xs12 sweep: every point: %s\n(see 'xs12 sweep --help')\n", sw->rows[0].error);
		return XS_CLI_USAGE_ERROR;
	}
	if (json)
		sweep_print_json(stdout, sw);
	else
		sweep_print_table(stdout, sw);
	if (csv && sweep_write_csv(csv, sw))
		rc = 1;
	if (svg && sweep_write_svg(svg, sw))
		rc = 1;
	int next;
	double margin;
	if (sweep_best(sw, &next, &margin) < 0)
		rc = 1;
	for (int i = 0; i < sw->npoints; i++)
		if (!sw->rows[i].present)
			rc = 1;
	return rc;
}

int xs_cli_sweep(int argc, char **argv)
{
	sweep_ctx *c = calloc(1, sizeof(*c));
	if (!c) {
		fprintf(stderr, "xs12 sweep: host out of memory\n");
		return 1;
	}
	/* the spelt-out names: "--" and the longest option's name each */
	char **av = malloc(2 * (size_t)argc * sizeof(*av));
	char *names = malloc((size_t)argc * 32);
	int n = 0, rc = 1;
	if (!av || !names)
		fprintf(stderr, "xs12 sweep: host out of memory\n");
	else if (!(rc = spell_out(argc, argv, av, &n, names)))
		rc = sweep_main(c, n, av);
	free(av);
	free(names);
	ctx_free(c);
	free(c);
	return rc;
}
