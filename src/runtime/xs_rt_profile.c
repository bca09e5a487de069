/*
 * Building a profile from the GPU model's per-PC table: each loaded code
 * object's functions (STT_FUNC symbols, as `xs12 disasm` shows them) that
 * ran become a function with every instruction disassembled in address
 * order and the counters of its PC; the line table (-g) gives source
 * lines. PCs in no loaded module (a graphics pipeline's code, a module
 * freed since) are listed per contiguous run, named by the GPU memory
 * allocation they sit in.
 */
#include "runtime/xs_rt_profile.h"
#include "codeobj/xs_codeobj_lines.h"
#include "codeobj/xs_codeobj_syms.h"
#include "isa/xs_isa_disasm.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((int)XS_STALL_COUNT == (int)XS_GPU_STALL_COUNT, "stall reasons");
_Static_assert((int)XS_STALL_VMCNT == (int)XS_GPU_STALL_VMCNT && (int)XS_STALL_VSCNT == (int)XS_GPU_STALL_VSCNT &&
		       (int)XS_STALL_LGKMCNT == (int)XS_GPU_STALL_LGKMCNT &&
		       (int)XS_STALL_VALU_DEP == (int)XS_GPU_STALL_VALU_DEP &&
		       (int)XS_STALL_PIPE_BUSY == (int)XS_GPU_STALL_PIPE &&
		       (int)XS_STALL_BARRIER == (int)XS_GPU_STALL_BARRIER &&
		       (int)XS_STALL_EXPORT == (int)XS_GPU_STALL_EXPORT &&
		       (int)XS_STALL_COUNTER_FULL == (int)XS_GPU_STALL_CNT_FULL &&
		       (int)XS_STALL_END_OF_PROGRAM == (int)XS_GPU_STALL_END,
	       "stall reasons in the same order");

#define HOT_MAX 20
#define FILE_MAX (16u << 20) /* source files read for their lines at most */

const char *xs_rt_stall_name(unsigned s)
{
	static const char *const names[] = {
		"vmcnt", "vscnt", "lgkmcnt", "valu-dep", "pipe-busy", "barrier", "export", "counter-full", "end-of-program",
	};
	_Static_assert(XS_ARRAY_SIZE(names) == XS_STALL_COUNT, "a name per stall reason");
	return s < XS_ARRAY_SIZE(names) ? names[s] : "?";
}

/* ---- the build ------------------------------------------------------------------ */

typedef struct src_file {
	const char *path;
	char *text;              /* NULL: could not be read */
	char **line;             /* starts of lines (inside text, NUL-terminated) */
	uint32_t nlines;
} src_file;

typedef struct builder {
	xs_profile *p;
	xs_rt_device *d;
	const xs_gpu_prof_ent *ent; /* sorted by PC */
	uint32_t nent;
	bool *used;
	src_file *files;
	uint32_t nfiles;
	bool oom;
} builder;

static const char *keep(builder *b, const char *s)
{
	if (!s || b->oom)
		return NULL;
	xs_profile *p = b->p;
	if (p->nstrs == p->cap_strs) {
		size_t ncap = p->cap_strs ? 2 * p->cap_strs : 256;
		char **v = xs_realloc(p->strs, ncap * sizeof(*v));
		if (!v) {
			b->oom = true;
			return NULL;
		}
		p->strs = v;
		p->cap_strs = ncap;
	}
	char *c = xs_strdup(s);
	if (!c) {
		b->oom = true;
		return NULL;
	}
	p->strs[p->nstrs++] = c;
	return c;
}

static int ent_by_pc(const void *a, const void *b)
{
	const xs_gpu_prof_ent *x = a, *y = b;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The first entry at or above pc. */
static uint32_t lower_bound(const builder *b, uint64_t pc)
{
	uint32_t lo = 0, hi = b->nent;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (b->ent[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The entry of pc, or -1. */
static int64_t find_ent(const builder *b, uint64_t pc)
{
	uint32_t i = lower_bound(b, pc);
	return i < b->nent && b->ent[i].pc == pc ? (int64_t)i : -1;
}

/* Entries in [start, end): whether any is still unclaimed, and whether
 * any was claimed already (by a live module: a freed one's range may have
 * been reused since). */
static void any_in(const builder *b, uint64_t start, uint64_t end, bool *fresh, bool *claimed)
{
	*fresh = *claimed = false;
	for (uint32_t i = lower_bound(b, start); i < b->nent && b->ent[i].pc < end; i++) {
		*fresh |= !b->used[i];
		*claimed |= b->used[i];
	}
}

static const src_file *source(builder *b, const char *path)
{
	for (uint32_t i = 0; i < b->nfiles; i++)
		if (!strcmp(b->files[i].path, path))
			return &b->files[i];
	src_file *v = xs_realloc(b->files, (b->nfiles + 1) * sizeof(*v));
	if (!v) {
		b->oom = true;
		return NULL;
	}
	b->files = v;
	src_file *f = &v[b->nfiles++];
	memset(f, 0, sizeof(*f));
	f->path = keep(b, path); /* the line table that named it goes with its module */
	if (!f->path) {
		b->nfiles--;
		return NULL;
	}
	FILE *in = fopen(path, "rb");
	if (!in)
		return f;
	char *text = xs_malloc(FILE_MAX + 1);
	size_t n = text ? fread(text, 1, FILE_MAX, in) : 0;
	fclose(in);
	if (!text)
		return f;
	text[n] = 0;
	uint32_t nl = 1;
	for (size_t i = 0; i < n; i++)
		nl += text[i] == '\n';
	f->line = xs_malloc(nl * sizeof(*f->line));
	if (!f->line) {
		free(text);
		return f;
	}
	f->text = text;
	char *s = text;
	for (;;) {
		f->line[f->nlines++] = s;
		char *e = strchr(s, '\n');
		if (!e)
			break;
		*e = 0;
		if (e > s && e[-1] == '\r')
			e[-1] = 0;
		s = e + 1;
	}
	return f;
}

static void finish_fn(xs_profile_function *fn, xs_profile_inst *insts, uint32_t n, uint32_t *hot)
{
	fn->insts = insts;
	fn->num_insts = n;
	fn->top_stall = -1;
	uint64_t best = 0;
	for (uint32_t i = 0; i < n; i++) {
		fn->wave_instructions += insts[i].issues;
		fn->cycles += insts[i].cycles;
		for (int s = 0; s < XS_STALL_COUNT; s++)
			fn->stall[s] += insts[i].stall[s];
		fn->lds_bank_conflict_cycles += insts[i].lds_bank_conflict_cycles;
	}
	for (int s = 0; s < XS_STALL_COUNT; s++)
		if (fn->stall[s] > best) {
			best = fn->stall[s];
			fn->top_stall = s;
		}
	/* hot spots: a partial selection of the HOT_MAX largest, ties in address order */
	uint32_t nh = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (!insts[i].cycles)
			continue;
		uint32_t j = nh < HOT_MAX ? nh++ : HOT_MAX;
		if (j == HOT_MAX && insts[i].cycles <= insts[hot[HOT_MAX - 1]].cycles)
			continue;
		if (j == HOT_MAX)
			j = HOT_MAX - 1;
		while (j > 0 && insts[hot[j - 1]].cycles < insts[i].cycles) {
			hot[j] = hot[j - 1];
			j--;
		}
		hot[j] = i;
	}
	fn->hot = hot;
	fn->num_hot = nh;
}

static xs_profile_function *new_fn(builder *b)
{
	xs_profile *p = b->p;
	xs_profile_function *v = xs_realloc(p->fn, (p->nfn + 1) * sizeof(*v));
	if (!v) {
		b->oom = true;
		return NULL;
	}
	p->fn = v;
	memset(&v[p->nfn], 0, sizeof(v[0]));
	return &v[p->nfn++];
}

/* A new function with room for n instructions and its hot list, or NULL
 * (b->oom set). */
static xs_profile_function *alloc_fn(builder *b, uint32_t n, xs_profile_inst **insts, uint32_t **hot)
{
	*insts = xs_calloc(n, sizeof(**insts));
	*hot = xs_calloc(HOT_MAX, sizeof(**hot));
	xs_profile_function *fn = *insts && *hot ? new_fn(b) : NULL;
	if (!fn) {
		free(*insts);
		free(*hot);
		b->oom = true;
	}
	return fn;
}

static void fill_inst(builder *b, xs_profile_inst *pi, uint64_t pc, const char *text)
{
	pi->pc = pc;
	pi->text = keep(b, text);
	int64_t k = find_ent(b, pc);
	if (k >= 0) {
		const xs_gpu_prof_ent *en = &b->ent[k];
		b->used[k] = true;
		pi->issues = en->issues;
		pi->cycles = en->cycles;
		memcpy(pi->stall, en->stall, sizeof(pi->stall));
		pi->lds_bank_conflict_cycles = en->lds_conflict;
	}
}

/* Disassembles [start, end) of a function whose bytes are code (from its
 * module's image) into a new profile function. */
static void add_function(builder *b, const char *name, uint64_t start, uint64_t end, const uint8_t *code,
			 uint64_t load_va, const xs_codeobj_lines *lines)
{
	uint64_t len = end - start;
	uint32_t cap = (uint32_t)XS_MIN(len / 4 + 1, 1u << 22);
	xs_profile_inst *insts;
	uint32_t *hot;
	xs_profile_function *fn = alloc_fn(b, cap, &insts, &hot);
	if (!fn)
		return;
	fn->name = keep(b, name);
	fn->start_pc = start;
	fn->end_pc = end;
	uint32_t n = 0;
	for (uint64_t off = 0; off < len && n < cap;) {
		uint32_t words[5] = { 0 };
		size_t nw = (size_t)XS_MIN((len - off) / 4, (uint64_t)5);
		if (!nw)
			break;
		memcpy(words, code + off, nw * 4);
		char text[XS_DISASM_TEXT_MAX];
		xs_disasm_result r;
		xs_isa_disasm(words, nw, start + off, NULL, text, sizeof(text), &r);
		xs_profile_inst *pi = &insts[n++];
		pi->offset = (uint32_t)off;
		fill_inst(b, pi, start + off, text);
		const xs_codeobj_line *ln = lines ? xs_codeobj_lines_find(lines, start + off - load_va) : NULL;
		if (ln) {
			/* the file's path is kept once, by source(), for all its lines */
			const src_file *sf = source(b, ln->file);
			pi->source_file = sf ? sf->path : NULL;
			pi->source_line = sf ? ln->line : 0;
			if (sf && sf->text && ln->line <= sf->nlines)
				pi->source_text = keep(b, sf->line[ln->line - 1]);
		}
		off += r.size ? r.size : 4;
	}
	finish_fn(fn, insts, n, hot);
}

static void add_module(builder *b, const xs_rt_module *m, bool retired)
{
	xs_err e = { 0 };
	xs_codeobj_code *code = NULL;
	if (xs_codeobj_code_open(m->co->image, m->co->image_size, &code, &e))
		return;
	bool lines_read = false;
	xs_codeobj_lines lines = { 0 };
	for (uint32_t t = 0; t < code->ntexts; t++) {
		const xs_codeobj_text *tx = &code->texts[t];
		for (uint32_t i = 0; i < tx->nsyms; i++) {
			const xs_codeobj_symbol *s = &tx->syms[i];
			if (s->type != 2 /* STT_FUNC */ || s->addr < tx->addr || s->addr >= tx->addr + tx->size)
				continue;
			uint64_t end = tx->addr + tx->size;
			for (uint32_t j = i + 1; j < tx->nsyms; j++)
				if (tx->syms[j].type == 2 && tx->syms[j].addr > s->addr) {
					end = XS_MIN(end, tx->syms[j].addr);
					break;
				}
			if (s->size)
				end = XS_MIN(end, s->addr + s->size);
			uint64_t va = m->load_va + s->addr, va_end = m->load_va + end;
			bool fresh, claimed;
			any_in(b, va, va_end, &fresh, &claimed);
			if (!fresh || (retired && claimed))
				continue;
			if (!lines_read) {
				lines_read = true;
				xs_err le = { 0 };
				xs_codeobj_lines_read(m->co->image, m->co->image_size, &lines, &le);
			}
			add_function(b, s->name, va, va_end, tx->bytes + (s->addr - tx->addr), m->load_va, &lines);
		}
	}
	xs_codeobj_lines_free(&lines);
	xs_codeobj_code_free(code);
}

/* PCs no module claimed: one function per run of PCs less than 64 bytes
 * apart, each PC disassembled from GPU memory. */
static void add_unclaimed(builder *b)
{
	for (uint32_t i = 0; i < b->nent && !b->oom;) {
		if (b->used[i]) {
			i++;
			continue;
		}
		uint32_t j = i + 1;
		while (j < b->nent && !b->used[j] && b->ent[j].pc - b->ent[j - 1].pc < 64)
			j++;
		xs_profile_inst *insts;
		uint32_t *hot;
		xs_profile_function *fn = alloc_fn(b, j - i, &insts, &hot);
		if (!fn)
			return;
		char where[300], name[400];
		xs_vm_describe(b->d->vm, b->ent[i].pc, where, sizeof(where));
		snprintf(name, sizeof(name), "code at 0x%llx (%s)", (unsigned long long)b->ent[i].pc, where);
		fn->name = keep(b, name);
		fn->start_pc = b->ent[i].pc;
		for (uint32_t k = i; k < j; k++) {
			uint32_t words[5] = { 0 };
			size_t nw = 5;
			while (nw && !xs_vm_read(b->d->vm, b->ent[k].pc, words, nw * 4, NULL))
				nw--;
			char text[XS_DISASM_TEXT_MAX] = "(not in GPU memory)";
			xs_disasm_result r = { .size = 4 };
			if (nw)
				xs_isa_disasm(words, nw, b->ent[k].pc, NULL, text, sizeof(text), &r);
			insts[k - i].offset = (uint32_t)(b->ent[k].pc - fn->start_pc);
			fill_inst(b, &insts[k - i], b->ent[k].pc, text);
			fn->end_pc = b->ent[k].pc + r.size;
		}
		finish_fn(fn, insts, j - i, hot);
		i = j;
	}
}

static void add_occupancy(builder *b)
{
	const xs_gpu_trace *t = xs_gpu_trace_get(b->d->gpu);
	xs_profile *p = b->p;
	p->truncated = t->truncated;
	if (!t->nsamples)
		return;
	/* at most XS_RT_PROFILE_SAMPLES: every k-th sample, keeping each
	 * bucket's peak so that short peaks show */
	size_t k = (t->nsamples + XS_RT_PROFILE_SAMPLES - 1) / XS_RT_PROFILE_SAMPLES;
	uint32_t n = (uint32_t)((t->nsamples + k - 1) / k);
	p->occ_t = xs_calloc(n, sizeof(*p->occ_t));
	p->occ_q = xs_calloc(n, sizeof(*p->occ_q));
	if (!p->occ_t || !p->occ_q) {
		b->oom = true;
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		p->occ_t[i] = t->samples[i * k].t;
		for (size_t s = i * k; s < XS_MIN((size_t)(i + 1) * k, t->nsamples); s++)
			for (unsigned q = 0; q < XS_GPU_MAX_QUEUES; q++)
				p->occ_q[i][q] = XS_MAX(p->occ_q[i][q], t->samples[s].q_waves[q]);
	}
	p->nocc = n;
}

static void name_dispatches(builder *b)
{
	xs_profile *p = b->p;
	p->disp_name = xs_calloc(p->ndisps ? p->ndisps : 1, sizeof(*p->disp_name));
	if (!p->disp_name) {
		b->oom = true;
		return;
	}
	for (uint32_t i = 0; i < p->ndisps; i++) {
		const xs_gpu_prof_disp *dp = &p->disps[i];
		p->disp_name[i] = dp->draw ? "draw" : "?";
		for (uint32_t f = 0; f < p->nfn && !dp->draw; f++)
			if (dp->pgm_va >= p->fn[f].start_pc && dp->pgm_va < p->fn[f].end_pc)
				p->disp_name[i] = p->fn[f].name;
		p->queues |= 1u << dp->queue;
		if (i == 0 || dp->start < p->first_cycle)
			p->first_cycle = dp->start;
		p->last_cycle = XS_MAX(p->last_cycle, dp->end);
	}
}

void xs_rt_profile_free(xs_profile *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; i < p->nfn; i++) {
		free((void *)p->fn[i].insts);
		free((void *)p->fn[i].hot);
	}
	free(p->fn);
	for (size_t i = 0; i < p->nstrs; i++)
		free(p->strs[i]);
	free(p->strs);
	free(p->disps);
	free(p->disp_name);
	free(p->occ_t);
	free(p->occ_q);
	free(p);
}

xs_status xs_rt_profile_enable(xs_rt_device *d, bool on, xs_err *e)
{
	if (on && d->functional)
		return xs_err_set(e, XS_E_UNSUPPORTED, "profile: instruction timing needs the timing model (the device "
				  "was created functional)");
	pthread_mutex_lock(&d->lock);
	bool ok = xs_gpu_profile_enable(d->gpu, on);
	xs_rt_module_free_retired(d); /* what an earlier profile kept */
	if (on && ok && !xs_gpu_tracing(d->gpu)) {
		xs_gpu_trace_enable(d->gpu, true);
		d->profile_traced = true;
	} else if (!on && d->profile_traced) {
		xs_gpu_trace_enable(d->gpu, false);
		d->profile_traced = false;
	}
	pthread_mutex_unlock(&d->lock);
	return ok ? XS_OK : xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
}

xs_status xs_rt_profile_take(xs_rt_device *d, xs_profile **out, xs_err *e)
{
	*out = NULL;
	xs_profile *p = xs_calloc(1, sizeof(*p));
	if (!p)
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
	p->info = d->info;
	builder b = { .p = p, .d = d };
	pthread_mutex_lock(&d->lock);
	uint32_t n = 0, nd = 0;
	bool overflow = false;
	const uint64_t *waits;
	const xs_gpu_counters *ctr;
	const xs_gpu_prof_ent *ent = xs_gpu_profile_get(d->gpu, &n, &overflow);
	const xs_gpu_prof_disp *disps = xs_gpu_profile_disps(d->gpu, &nd, &waits, &ctr);
	if (!ent) {
		pthread_mutex_unlock(&d->lock);
		xs_rt_profile_free(p);
		return xs_err_set(e, XS_E_INVALID_ARG, "profile: not collecting (turn it on before the work runs)");
	}
	p->overflow = overflow;
	xs_gpu_prof_ent *sorted = xs_malloc((n ? n : 1) * sizeof(*sorted));
	b.used = xs_calloc(n ? n : 1, sizeof(*b.used));
	p->disps = xs_malloc((nd ? nd : 1) * sizeof(*p->disps));
	if (sorted && b.used && p->disps) {
		if (n) {
			memcpy(sorted, ent, n * sizeof(*sorted));
			qsort(sorted, n, sizeof(*sorted), ent_by_pc);
		}
		if (nd) /* none ended yet: no array (memcpy of NULL is undefined, even for 0 bytes) */
			memcpy(p->disps, disps, nd * sizeof(*disps));
		p->ndisps = nd;
		memcpy(p->waits, waits, sizeof(p->waits));
		p->ctr = *ctr;
		b.ent = sorted;
		b.nent = n;
		for (const xs_rt_module *m = d->modules; m && !b.oom; m = m->next)
			add_module(&b, m, false);
		for (const xs_rt_module *m = d->retired; m && !b.oom; m = m->next)
			add_module(&b, m, true);
		add_unclaimed(&b);
		add_occupancy(&b);
		name_dispatches(&b);
	} else {
		b.oom = true;
	}
	pthread_mutex_unlock(&d->lock);
	free(sorted);
	free(b.used);
	for (uint32_t i = 0; i < b.nfiles; i++) {
		free(b.files[i].text);
		free(b.files[i].line);
	}
	free(b.files);
	if (b.oom) {
		xs_rt_profile_free(p);
		return xs_err_set(e, XS_E_OUT_OF_MEMORY, "host out of memory");
	}
	*out = p;
	return XS_OK;
}
