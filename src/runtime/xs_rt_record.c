/*
 * Recording and replay. A recording holds, for every GPU run of the device:
 * the GPU address space (allocations and every written page) as the GPU saw
 * it at submission, the command buffers submitted to each queue, and what
 * came out (each dispatch's cycles, waves and instructions, and a digest of
 * all GPU memory afterwards). Replaying runs the same PM4 and memory on a
 * fresh device, through the GPU model alone, and checks that the same
 * cycles and bytes come out. The reader is strict and bounded.
 *
 *   file   := "XS12RPL1" u32 version(3) batch*
 *   batch  := u32 'B' u32 machine u32 functional u64 watchdog u64 hang_cycles u32 threads
 *             u32 nalloc (u64 va, u64 size)* u32 npage (u64 va, 4096 bytes)*
 *             u32 nsub (u32 queue, u64 va, u32 ndw, u32 nresults)*
 *             u32 status u32 blocked u32 nres (u64 cycles, u64 waves, u64 insts)* u64 digest
 *
 * A run ends when every queue is idle or blocked on a wait (blocked = 1: a
 * host signal was to release it). Work a blocked queue still holds is not
 * carried into the next batch's replay: each batch replays from its own
 * memory image on a fresh GPU.
 */
#include "runtime/xs_rt_priv.h"
#include "gpu/xs_gpu_override.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "XS12RPL1"
#define VERSION 3
#define MAX_ALLOCS (1u << 20)
#define MAX_PAGES (1u << 22)  /* 16 GiB of written memory */
#define MAX_SUBS 256
#define MAX_RESULTS 4096
/* A replayed dispatch may run twice its recorded cycles plus this before
 * it is stopped as diverged (runs are deterministic: equal ones match). */
#define REPLAY_SLACK_CYCLES (1u << 20)

static void w32(FILE *f, uint32_t v) { fwrite(&v, 4, 1, f); }
static void w64(FILE *f, uint64_t v) { fwrite(&v, 8, 1, f); }

typedef struct page_ctx {
	FILE *f;
	uint32_t n;
	uint64_t h;
} page_ctx;

static bool zero_page(const uint8_t *p)
{
	for (unsigned i = 0; i < XS_VM_PAGE_SIZE; i++)
		if (p[i])
			return false;
	return true;
}

static void count_page(void *u, uint64_t va, const uint8_t *p)
{
	(void)va;
	((page_ctx *)u)->n += !zero_page(p);
}

static void write_page(void *u, uint64_t va, const uint8_t *p)
{
	page_ctx *c = u;
	if (zero_page(p))
		return;
	w64(c->f, va);
	fwrite(p, 1, XS_VM_PAGE_SIZE, c->f);
}

/* FNV-1a over (va, bytes) of every non-zero page: equal memory, equal digest. */
static void hash_page(void *u, uint64_t va, const uint8_t *p)
{
	page_ctx *c = u;
	if (zero_page(p))
		return;
	for (int i = 0; i < 8; i++)
		c->h = (c->h ^ ((va >> (8 * i)) & 0xff)) * 0x100000001b3ull;
	for (unsigned i = 0; i < XS_VM_PAGE_SIZE; i++)
		c->h = (c->h ^ p[i]) * 0x100000001b3ull;
}

static uint64_t memory_digest(const xs_vm *vm)
{
	page_ctx c = { .h = 0xcbf29ce484222325ull };
	xs_vm_each_page(vm, hash_page, &c);
	return c.h;
}

/* The process's file mode mask, read without changing it (umask() sets it:
 * another thread creating a file meanwhile would get the wrong mode). */
static mode_t process_umask(void)
{
	unsigned m = 022;
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Umask: %o", &m) == 1)
			break;
	if (f)
		fclose(f);
	return (mode_t)m;
}

/* A write failed (disk full, a file size limit): the first error is kept,
 * and the recording is not kept at the close. */
static void note_write(xs_rt_device *d)
{
	if (!d->record_errno && (fflush(d->record) || ferror(d->record)))
		d->record_errno = errno ? errno : EIO;
}

xs_status xs_rt_record_open(xs_rt_device *d, const char *path, xs_err *e)
{
	xs_status st = xs_rt_record_close(d, e);
	if (st || !path)
		return st;
	/* a temporary file in the same folder, renamed over path at the close:
	 * nothing at path is lost when the run fails or a write does */
	size_t n = strlen(path);
	d->record_path = xs_strdup(path);
	d->record_tmp = malloc(n + 16);
	if (!d->record_path || !d->record_tmp) {
		free(d->record_path), free(d->record_tmp);
		d->record_path = d->record_tmp = NULL;
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
	}
	snprintf(d->record_tmp, n + 16, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(d->record_tmp);
	if (fd >= 0)
		fchmod(fd, 0666 & ~process_umask()); /* as fopen would have made it (mkstemp: 0600) */
	d->record = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!d->record) {
		int err = errno;
		if (fd >= 0) {
			close(fd);
			unlink(d->record_tmp);
		}
		free(d->record_path), free(d->record_tmp);
		d->record_path = d->record_tmp = NULL;
		return xs_err_set(e, XS_E_IO, "%s: cannot write: %s", path, strerror(err));
	}
	d->record_batches = 0;
	d->record_errno = 0;
	/* A recording is of a deterministic run: functional mode on several
	 * threads would hand out scratch slots (and so scratch bytes) in host
	 * order. */
	d->threads = 1;
	xs_gpu_set_threads(d->gpu, 1);
	fwrite(MAGIC, 1, 8, d->record);
	w32(d->record, VERSION);
	note_write(d);
	return XS_OK;
}

xs_status xs_rt_record_close(xs_rt_device *d, xs_err *e)
{
	if (!d->record)
		return XS_OK;
	xs_status st = XS_OK;
	note_write(d);
	if (fclose(d->record) && !d->record_errno)
		d->record_errno = errno ? errno : EIO;
	d->record = NULL;
	if (d->record_errno)
		st = xs_err_set(e, XS_E_IO, "%s: writing the recording failed: %s (%s keeps what it had)",
				d->record_tmp, strerror(d->record_errno), d->record_path);
	else if (d->record_batches && rename(d->record_tmp, d->record_path))
		st = xs_err_set(e, XS_E_IO, "%s: cannot replace it with the recording: %s", d->record_path,
				strerror(errno));
	if (st || !d->record_batches)
		unlink(d->record_tmp);
	free(d->record_path), free(d->record_tmp);
	d->record_path = d->record_tmp = NULL;
	return st;
}

/* The submissions of this run: every item not recorded yet, queue by queue. */
void xs_rt_record_before(xs_rt_device *d)
{
	FILE *f = d->record;
	if (!f)
		return;
	uint32_t nsub = 0;
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
		for (uint32_t i = 0; i < d->queues[q].nitems; i++)
			nsub += !d->queues[q].items[i].recorded;
	if (!nsub)
		return;
	w32(f, 'B');
	w32(f, d->info->machine);
	w32(f, d->functional);
	w64(f, d->watchdog);
	w64(f, d->hang_cycles);
	w32(f, d->threads);
	w32(f, (uint32_t)d->vm->nallocs);
	for (size_t i = 0; i < d->vm->nallocs; i++) {
		w64(f, d->vm->allocs[i].va);
		w64(f, d->vm->allocs[i].bytes);
	}
	page_ctx c = { .f = f };
	xs_vm_each_page(d->vm, count_page, &c);
	w32(f, c.n);
	xs_vm_each_page(d->vm, write_page, &c);
	w32(f, nsub);
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
		for (uint32_t i = 0; i < d->queues[q].nitems; i++) {
			xs_rt_item *it = &d->queues[q].items[i];
			if (it->recorded)
				continue;
			w32(f, q);
			w64(f, it->va);
			w32(f, it->ndw);
			w32(f, it->nresults);
			it->recorded = true;
			it->record_pending = true;
		}
}

void xs_rt_record_after(xs_rt_device *d, xs_status st, bool blocked)
{
	FILE *f = d->record;
	if (!f)
		return;
	uint32_t nres = 0, nsub = 0;
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
		for (uint32_t i = 0; i < d->queues[q].nitems; i++)
			if (d->queues[q].items[i].record_pending) {
				nres += d->queues[q].items[i].nresults;
				nsub++;
			}
	if (!nsub)
		return;
	w32(f, st);
	w32(f, blocked);
	w32(f, nres);
	for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
		for (uint32_t i = 0; i < d->queues[q].nitems; i++) {
			xs_rt_item *it = &d->queues[q].items[i];
			if (!it->record_pending)
				continue;
			it->record_pending = false;
			for (uint32_t k = 0; k < it->nresults; k++) {
				w64(f, it->results[k].cycles);
				w64(f, it->results[k].waves_launched);
				w64(f, it->results[k].wave_insts);
			}
		}
	w64(f, memory_digest(d->vm));
	note_write(d);
	d->record_batches++;
}

/* ---- replay ------------------------------------------------------------- */

typedef struct reader {
	FILE *f;
	const char *path;
	long size;
	xs_err *e;
} reader;

static bool rd(reader *r, void *dst, size_t n, const char *what)
{
	if (fread(dst, 1, n, r->f) == n)
		return true;
	xs_err_set(r->e, XS_E_INVALID_ARG, "%s: truncated at byte %ld reading %s", r->path, ftell(r->f), what);
	return false;
}

/* Is a batch next? False at the file's end, and (*st set) when what
 * follows is not a batch's tag: a partial one too (1-3 bytes after the
 * last batch were taken for the end). */
static bool next_batch(reader *r, xs_status *st)
{
	uint32_t tag;
	long at = ftell(r->f);
	size_t n = fread(&tag, 1, 4, r->f);
	if (n == 0 && feof(r->f))
		return false;
	if (n < 4 || tag != 'B') {
		*st = xs_err_set(r->e, XS_E_INVALID_ARG, "%s: byte %ld: expected a batch%s", r->path, at,
				 n < 4 ? " (the file ends inside its tag)" : "");
		return false;
	}
	return true;
}


static bool rd32(reader *r, uint32_t *v, const char *what) { return rd(r, v, 4, what); }
static bool rd64(reader *r, uint64_t *v, const char *what) { return rd(r, v, 8, what); }

static bool bounded(reader *r, uint32_t n, uint32_t max, size_t each, const char *what)
{
	long left = r->size - ftell(r->f);
	if (n > max || (uint64_t)n * each > (uint64_t)(left < 0 ? 0 : left)) {
		xs_err_set(r->e, XS_E_INVALID_ARG, "%s: byte %ld: %u %s declared, more than the file holds or the limit %u", r->path,
			   ftell(r->f), n, what, max);
		return false;
	}
	return true;
}

/* One batch as recorded: its settings, its memory image in a fresh
 * address space, its submissions and what came out. */
typedef struct batch {
	uint32_t machine, functional, threads, nsub, status, blocked, nres;
	uint64_t watchdog, hang_cycles, digest;
	xs_vm *vm;
	struct { uint32_t queue; uint64_t va; uint32_t ndw, nresults; } subs[MAX_SUBS];
	xs_gpu_dispatch_result *rec;  /* the recorded results (cycles, waves, instructions) */
} batch;

static void batch_free(batch *b)
{
	xs_vm_destroy(b->vm);
	free(b->rec);
	b->vm = NULL;
	b->rec = NULL;
}

/* Reads a batch up to its results; the memory digest after them is read
 * by the caller (it needs the run first). Strict and bounded. */
static xs_status read_batch(reader *r, batch *b)
{
	xs_err *e = r->e;
	memset(b, 0, sizeof(*b));
	if (!rd32(r, &b->machine, "machine") || !rd32(r, &b->functional, "mode") || !rd64(r, &b->watchdog, "watchdog") ||
	    !rd64(r, &b->hang_cycles, "hang limit") || !rd32(r, &b->threads, "threads"))
		return e->status;
	if (b->threads != 1)
		return xs_err_set(e, XS_E_INVALID_ARG, "%s: recorded with %u host threads; recordings are of "
				  "one-thread runs", r->path, b->threads);
	if (!xs_devinfo_get((xs_machine)b->machine))
		return xs_err_set(e, XS_E_INVALID_ARG, "%s: unknown machine %u", r->path, b->machine);
	if (!(b->vm = xs_vm_create()))
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
	/* what the recorded allocations may span: the machine's memory, as when
	 * they were made (a crafted file's 1 TiB allocation, filled by one
	 * XS_FILL, took a gigabyte of host memory a second) */
	xs_vm_set_limit(b->vm, xs_devinfo_get((xs_machine)b->machine)->memory_bytes);
	uint32_t nalloc, npage;
	if (!rd32(r, &nalloc, "allocation count") || !bounded(r, nalloc, MAX_ALLOCS, 16, "allocations"))
		goto fail;
	for (uint32_t i = 0; i < nalloc; i++) {
		uint64_t va, size;
		if (!rd64(r, &va, "allocation") || !rd64(r, &size, "allocation"))
			goto fail;
		if (xs_vm_alloc_at(b->vm, va, size, e)) {
			xs_err_prefix(e, "%s: allocation %u", r->path, i);
			goto fail;
		}
	}
	if (!rd32(r, &npage, "page count") || !bounded(r, npage, MAX_PAGES, 8 + XS_VM_PAGE_SIZE, "pages"))
		goto fail;
	uint8_t *page = xs_malloc(XS_VM_PAGE_SIZE);
	if (!page) {
		xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
		goto fail;
	}
	for (uint32_t i = 0; i < npage; i++) {
		uint64_t va;
		if (!rd64(r, &va, "page") || !rd(r, page, XS_VM_PAGE_SIZE, "page")) {
			free(page);
			goto fail;
		}
		uint32_t valid = va % XS_VM_PAGE_SIZE ? 0 : xs_vm_page_bytes(b->vm, va); /* an allocation's last page: its part */
		if (!valid || !xs_vm_write(b->vm, va, page, valid, NULL)) {
			xs_err_set(e, XS_E_INVALID_ARG, "%s: page %u at 0x%llx is not in a recorded allocation", r->path, i,
				   (unsigned long long)va);
			free(page);
			goto fail;
		}
	}
	free(page);
	if (!rd32(r, &b->nsub, "submission count") || !bounded(r, b->nsub, MAX_SUBS, 20, "submissions"))
		goto fail;
	uint32_t total = 0;
	for (uint32_t i = 0; i < b->nsub; i++) {
		if (!rd32(r, &b->subs[i].queue, "submission") || !rd64(r, &b->subs[i].va, "submission") ||
		    !rd32(r, &b->subs[i].ndw, "submission") || !rd32(r, &b->subs[i].nresults, "submission"))
			goto fail;
		if (b->subs[i].nresults > MAX_RESULTS || total + b->subs[i].nresults > MAX_RESULTS) {
			xs_err_set(e, XS_E_INVALID_ARG, "%s: submission %u: %u dispatches is too many", r->path, i,
				   b->subs[i].nresults);
			goto fail;
		}
		total += b->subs[i].nresults;
	}
	if (!rd32(r, &b->status, "status") || !rd32(r, &b->blocked, "blocked") || !rd32(r, &b->nres, "result count"))
		goto fail;
	if (b->nres != total) {
		xs_err_set(e, XS_E_INVALID_ARG, "%s: %u results recorded for %u dispatches", r->path, b->nres, total);
		goto fail;
	}
	if (!(b->rec = xs_calloc(total ? total : 1, sizeof(*b->rec)))) {
		xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
		goto fail;
	}
	for (uint32_t i = 0; i < b->nres; i++)
		if (!rd64(r, &b->rec[i].cycles, "result") || !rd64(r, &b->rec[i].waves_launched, "result") ||
		    !rd64(r, &b->rec[i].wave_insts, "result"))
			goto fail;
	return XS_OK;
fail:
	batch_free(b);
	return e->status ? e->status : XS_E_INVALID_ARG;
}

static xs_status replay_batch(reader *r, const xs_rt_replay_opts *o, xs_replay_report *rep)
{
	xs_err *e = r->e;
	batch *b = xs_malloc(sizeof(*b));
	if (!b)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
	xs_status st = read_batch(r, b);
	if (st) {
		free(b);
		return st;
	}
	/* The GPU model alone: the batch's address space and a GPU, no runtime. */
	xs_gpu *gpu = xs_gpu_create(xs_devinfo_get((xs_machine)b->machine), b->vm);
	xs_gpu_dispatch_result *res = xs_calloc(b->nres ? b->nres : 1, sizeof(*res));
	if (!gpu || !res) {
		st = xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
		goto out;
	}
	xs_gpu_set_timing(gpu, b->functional == 0);
	xs_gpu_set_watchdog(gpu, b->watchdog);
	/* The GPU-time limit is part of the run (deterministic); the host-time
	 * one is not recorded: the replay's bounds below end a damaged run. */
	bool ovr = o && o->num_overrides;
	xs_gpu_set_hang_limits(gpu, b->hang_cycles, ovr ? 10.0 : 0);
	xs_gpu_set_threads(gpu, b->threads);
	xs_rt_run_ahead_from_env(gpu);
	if (ovr)
		xs_gpu_set_overrides(gpu, o->overrides, o->num_overrides);
	/* What came out bounds the run, so that a damaged or hostile recording
	 * (a dispatch of 2^32 groups, a loop) ends in seconds with the
	 * difference named, not after hours. */
	xs_gpu_set_results_recorded(gpu, !ovr);
	for (uint32_t i = 0; i < b->nres && !ovr; i++) {
		res[i].limit_waves = XS_MAX(b->rec[i].waves_launched, 1u);
		res[i].limit_cycles = b->rec[i].cycles > (UINT64_MAX >> 2) ? 0 : 2 * b->rec[i].cycles + REPLAY_SLACK_CYCLES;
	}
	uint32_t k = 0;
	for (uint32_t i = 0; i < b->nsub; i++) {
		if ((st = xs_gpu_submit(gpu, b->subs[i].queue, b->subs[i].va, b->subs[i].ndw, res + k, b->subs[i].nresults, e))) {
			xs_err_prefix(e, "%s", r->path);
			goto out;
		}
		k += b->subs[i].nresults;
	}
	xs_err run_err = { 0 };
	bool got_blocked = false;
	xs_status got = xs_gpu_execute(gpu, b->blocked ? &got_blocked : NULL, &run_err);
	rep->batches++;
	rep->dispatches += b->nres;
	if ((uint32_t)got != b->status && rep->identical) {
		rep->identical = false;
		snprintf(rep->detail, sizeof(rep->detail), "batch %u: status %s, recorded %s (%.160s)", rep->batches,
			 xs_status_name(got), xs_status_name((xs_status)b->status), run_err.msg);
	}
	for (uint32_t i = 0; i < b->nres; i++) {
		const xs_gpu_dispatch_result *rc = &b->rec[i];
		rep->cycles += res[i].cycles;
		if (o && o->dispatch)
			o->dispatch(o->user, &res[i], xs_devinfo_get((xs_machine)b->machine), b->functional == 0);
		if ((rc->cycles != res[i].cycles || rc->waves_launched != res[i].waves_launched ||
		     rc->wave_insts != res[i].wave_insts) && rep->identical) {
			rep->identical = false;
			snprintf(rep->detail, sizeof(rep->detail),
				 "batch %u dispatch %u: %llu cycles, %llu waves, %llu instructions; recorded %llu, %llu, %llu",
				 rep->batches, i, (unsigned long long)res[i].cycles,
				 (unsigned long long)res[i].waves_launched, (unsigned long long)res[i].wave_insts,
				 (unsigned long long)rc->cycles, (unsigned long long)rc->waves_launched,
				 (unsigned long long)rc->wave_insts);
		}
	}
	if (!rd64(r, &b->digest, "digest")) {
		st = e->status;
		goto out;
	}
	uint64_t now = memory_digest(b->vm);
	if (o && o->batch)
		o->batch(o->user, now, got, run_err.msg);
	for (uint32_t i = 0; ovr && o->hits && i < o->num_overrides; i++)
		o->hits[i] += xs_gpu_override_hits(gpu, i);
	if (now != b->digest && rep->identical) {
		rep->identical = false;
		snprintf(rep->detail, sizeof(rep->detail), "batch %u: GPU memory digest %016llx, recorded %016llx",
			 rep->batches, (unsigned long long)now, (unsigned long long)b->digest);
	}
out:
	free(res);
	xs_gpu_destroy(gpu);
	batch_free(b);
	free(b);
	return st;
}

/* Takes a stream of a recording (a file, or memory through fmemopen)
 * and checks its header; closes f when that fails. */
static xs_status open_stream(FILE *f, const char *path, reader *r, xs_err *e)
{
	fseek(f, 0, SEEK_END);
	*r = (reader){ f, path, ftell(f), e };
	rewind(f);
	char magic[8];
	uint32_t version;
	if (!rd(r, magic, 8, "magic") || !rd32(r, &version, "version") || memcmp(magic, MAGIC, 8) || version != VERSION) {
		fclose(f);
		r->f = NULL;
		return xs_err_set(e, XS_E_INVALID_ARG, "%s: not an xs12 recording of version %d", path, VERSION);
	}
	return XS_OK;
}

/* Opens a recording file and checks its header. */
static xs_status open_recording(const char *path, reader *r, xs_err *e)
{
	r->f = NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return xs_err_set(e, XS_E_IO, "%s: cannot open: %s", path, strerror(errno));
	return open_stream(f, path, r, e);
}

bool xs_rt_is_recording(const void *bytes, size_t size)
{
	return size >= 8 && !memcmp(bytes, MAGIC, 8);
}

/* The walk of an opened recording (r->f NULL: opening failed with st). */
static xs_status walk(reader *r, xs_status st, xs_rt_walk_fn fn, void *user, xs_err *err)
{
	xs_err *e = r->e;
	uint32_t nb = 0;
	batch *b = st ? NULL : xs_malloc(sizeof(*b));
	if (!st && !b)
		st = xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
	while (!st && next_batch(r, &st)) {
		if ((st = read_batch(r, b)))
			break;
		uint64_t digest;
		if (!rd64(r, &digest, "digest")) {
			st = e->status;
			batch_free(b);
			break;
		}
		nb++;
		for (uint32_t i = 0; i < b->nsub && !st; i++)
			st = fn(user, nb, b->subs[i].queue, b->subs[i].va, b->subs[i].ndw, b->vm, e);
		batch_free(b);
	}
	free(b);
	if (r->f)
		fclose(r->f);
	if (!st && nb == 0)
		st = xs_err_set(e, XS_E_INVALID_ARG, "%s: the recording holds no batch", r->path);
	if (st)
		*err = *e;
	return st;
}

xs_status xs_rt_record_walk(const char *path, xs_rt_walk_fn fn, void *user, xs_err *err)
{
	xs_err e = { 0 };
	reader r = { .path = path, .e = &e };
	xs_status st = open_recording(path, &r, &e);
	return walk(&r, st, fn, user, err);
}

xs_status xs_rt_record_walk_mem(const void *bytes, size_t size, const char *name, xs_rt_walk_fn fn, void *user,
				xs_err *err)
{
	xs_err e = { 0 };
	reader r = { .path = name, .e = &e };
	xs_status st = XS_OK;
	/* fmemopen refuses a buffer of 0 bytes; the header check says why */
	FILE *f = size ? fmemopen((void *)(uintptr_t)bytes, size, "rb") : NULL;
	if (!size)
		st = xs_err_set(&e, XS_E_INVALID_ARG, "%s: not an xs12 recording of version %d", name, VERSION);
	else if (!f)
		st = xs_err_set(&e, XS_E_OUT_OF_MEMORY, "%s: cannot read from memory: %s", name, strerror(errno));
	else
		st = open_stream(f, name, &r, &e);
	return walk(&r, st, fn, user, err);
}

xs_status xs_rt_replay(const char *path, xs_replay_report *rep, xs_err *err)
{
	return xs_rt_replay_ex(path, NULL, rep, err);
}

xs_status xs_rt_replay_ex(const char *path, const xs_rt_replay_opts *o, xs_replay_report *rep, xs_err *err)
{
	xs_err e = { 0 };
	*rep = (xs_replay_report){ .identical = true };
	reader r;
	xs_status st = open_recording(path, &r, &e);
	while (!st && next_batch(&r, &st))
		st = replay_batch(&r, o, rep);
	if (r.f)
		fclose(r.f);
	if (!st && rep->batches == 0)
		st = xs_err_set(&e, XS_E_INVALID_ARG, "%s: the recording holds no batch", path);
	if (st)
		*err = e;
	return st;
}
