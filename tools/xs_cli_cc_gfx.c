/* xs12 cc --vs|--ps FILE.cl: a vertex or pixel shader from a body in
 * OpenCL C (docs/graphics.md section 1.5).
 *
 * LLVM 15 compiles graphics shaders only from IR entry points with the
 * amdgpu_vs / amdgpu_ps conventions; clang cannot write those. So:
 *   1. clang-15 compiles the body to LLVM IR text (value names kept, so the
 *      parameters' names say what they are);
 *   2. this file reads the body's signature from that text, marks the body
 *      alwaysinline (llc 15 refuses C-convention calls from a graphics
 *      shader), and writes the entry point: the xs12 ABI's inreg arguments,
 *      vertex fetch or interpolation, the call, the exports;
 *   3. llvm-link-15 --internalize joins them and llc-15 writes the object.
 * The entry template is generated text here, not a file the user must find. */
#include "xs_cli.h"

#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#ifndef XS_CLANG
#define XS_CLANG "clang-15"
#endif
#ifndef XS_LLVM_LINK
#define XS_LLVM_LINK "llvm-link-15"
#endif
#ifndef XS_LLC
#define XS_LLC "llc-15"
#endif

#define MAX_PARAMS 24
#define MAX_OUTS 9

typedef struct body_sig {
	char ret[256];        /* the IR return type text ("<4 x float>", "%struct.VSOut", "void") */
	char sret[256];       /* the sret type when the result comes back through memory */
	unsigned nouts;       /* float4 fields of the result */
	unsigned nparams;
	struct {
		char name[64];
		enum { P_F4, P_U32, P_PTR } kind;
	} p[MAX_PARAMS];
} body_sig;

static int run(const char *const *argv)
{
	for (int i = 0; argv[i]; i++) {
		const char *a = argv[i];
		bool q = strpbrk(a, " \t'\"$\\") != NULL;
		printf("%s%s%s%s", i ? " " : "", q ? "'" : "", a, q ? "'" : "");
	}
	printf("\n");
	fflush(stdout);
	pid_t pid;
	int r = posix_spawnp(&pid, argv[0], NULL, NULL, (char *const *)argv, environ);
	if (r) {
		fprintf(stderr, "xs12 cc: cannot run %s: %s (scripts/bootstrap installs the LLVM 15 tools)\n", argv[0],
		        strerror(r));
		return -1;
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	r = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	if (r)
		fprintf(stderr, "xs12 cc: %s exited with %d\n", argv[0], r);
	return r;
}

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long sz = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = sz >= 0 ? malloc((size_t)sz + 1) : NULL;
	if (b && fread(b, 1, (size_t)sz, f) != (size_t)sz) {
		free(b);
		b = NULL;
	}
	fclose(f);
	if (b) {
		b[sz] = 0;
		*n = (size_t)sz;
	}
	return b;
}

/* Number of "<4 x float>" members of the struct type named t ("%struct.X"),
 * 0 if any member is something else. */
static unsigned struct_f4_count(const char *ir, const char *t)
{
	char key[300];
	snprintf(key, sizeof(key), "\n%s = type {", t);
	const char *d = strstr(ir, key);
	if (!d)
		return 0;
	d += strlen(key);
	const char *end = strchr(d, '}');
	if (!end)
		return 0;
	unsigned n = 0;
	for (const char *q = d; q < end;) {
		while (*q == ' ' || *q == ',')
			q++;
		if (q >= end)
			break;
		if (strncmp(q, "<4 x float>", 11))
			return 0;
		n++;
		q += 11;
	}
	return n;
}

static int sig_error(const char *fn, const char *what)
{
	fprintf(stderr, "xs12 cc: %s: %s (docs/graphics.md section 1.5 has the conventions)\n", fn, what);
	return -1;
}

/* Reads "define ... <ret> @fn(<params>) ... #N {" from the body's IR. */
static int parse_sig(char *ir, const char *fn, bool ps, body_sig *s)
{
	char key[80];
	snprintf(key, sizeof(key), " @%s(", fn);
	char *def = NULL;
	for (char *q = strstr(ir, key); q; q = strstr(q + 1, key)) {
		char *ls = q;
		while (ls > ir && ls[-1] != '\n')
			ls--;
		if (!strncmp(ls, "define ", 7)) {
			def = ls;
			break;
		}
	}
	if (!def)
		return sig_error(fn, "no such function in the source (is it named so, and not static?)");
	char *nm = strstr(def, key);
	/* return type: the last token before @fn */
	char *rt_end = nm;
	char *rt = rt_end;
	if (rt_end[-1] == '>') {
		while (rt > def && *rt != '<')
			rt--;
	} else {
		while (rt > def && rt[-1] != ' ')
			rt--;
	}
	snprintf(s->ret, sizeof(s->ret), "%.*s", (int)(rt_end - rt), rt);
	char *pl = nm + strlen(key);
	char *pe = pl;
	for (int depth = 0; *pe && *pe != '\n' && (depth || *pe != ')'); pe++)
		depth += *pe == '(' ? 1 : *pe == ')' ? -1 : 0;
	if (*pe != ')')
		return sig_error(fn, "unreadable IR signature");
	/* parameters, split at top-level commas */
	char *q = pl;
	while (q < pe) {
		char *c = q;
		int depth = 0;
		while (c < pe && (depth || *c != ',')) {
			if (*c == '(' || *c == '<' || *c == '{')
				depth++;
			if (*c == ')' || *c == '>' || *c == '}')
				depth--;
			c++;
		}
		char one[512];
		snprintf(one, sizeof(one), "%.*s", (int)(c - q), q);
		q = c + 1;
		while (*q == ' ')
			q++;
		char *pct = strrchr(one, '%');
		const char *pname = pct ? pct + 1 : "";
		char *sr = strstr(one, "sret(");
		if (sr) {
			char *e = strchr(sr, ')');
			snprintf(s->sret, sizeof(s->sret), "%.*s", e ? (int)(e - sr - 5) : 0, sr + 5);
			continue;
		}
		if (s->nparams == MAX_PARAMS)
			return sig_error(fn, "too many parameters");
		snprintf(s->p[s->nparams].name, sizeof(s->p[0].name), "%s", pname);
		if (!strncmp(one, "<4 x float>", 11))
			s->p[s->nparams].kind = P_F4;
		else if (!strncmp(one, "i32", 3))
			s->p[s->nparams].kind = P_U32;
		else if (!strncmp(one, "ptr addrspace(1)", 16))
			s->p[s->nparams].kind = P_PTR;
		else {
			char m[700];
			snprintf(m, sizeof(m), "parameter '%s' has IR type '%s': parameters are float4, uint or a __global pointer",
			         pname, one);
			return sig_error(fn, m);
		}
		s->nparams++;
	}
	for (unsigned i = 0; i < s->nparams; i++) {
		const char *n = s->p[i].name;
		bool ok;
		if (s->p[i].kind == P_U32)
			ok = ps ? !strcmp(n, "front_face") : !strcmp(n, "vertex_id") || !strcmp(n, "instance_id");
		else if (s->p[i].kind == P_PTR)
			ok = !strcmp(n, "root");
		else
			ok = true;
		if (!ok) {
			char m[200];
			snprintf(m, sizeof(m), "parameter '%s': a %s parameter must be named %s", n,
			         s->p[i].kind == P_PTR ? "pointer" : "uint",
			         s->p[i].kind == P_PTR ? "root" : ps ? "front_face" : "vertex_id or instance_id");
			return sig_error(fn, m);
		}
	}
	const char *rtype = s->sret[0] ? s->sret : s->ret;
	if (!strcmp(rtype, "<4 x float>"))
		s->nouts = 1;
	else if (rtype[0] == '%')
		s->nouts = struct_f4_count(ir, rtype);
	if (!s->nouts || s->nouts > (ps ? 8u : MAX_OUTS) || (!ps && s->nouts < 1))
		return sig_error(fn, ps ? "returns float4 or a struct of 1..8 float4 (one per render target)"
		                        : "returns a struct of float4: the position, then up to 8 parameters");
	return 0;
}

/* The body keeps its calling convention; alwaysinline lets llc accept it
 * (inlined into the entry, no call remains). Every attribute group gets it,
 * so that the body's own helpers inline too (at -O0 clang leaves them as
 * calls); noinline / optnone, which -O0 adds, are dropped. */
static int mark_alwaysinline(const char *ir, FILE *out)
{
	static const char key[] = "attributes #";
	for (const char *l = ir; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) + 1 : strlen(l);
		const char *brace = strncmp(l, key, sizeof(key) - 1) ? NULL : memchr(l, '{', len);
		if (!brace) {
			fwrite(l, 1, len, out);
		} else {
			fwrite(l, 1, (size_t)(brace - l) + 1, out);
			fputs(" alwaysinline", out);
			for (const char *q = brace + 1; q < l + len;) {
				if (!strncmp(q, " noinline", 9) && (q[9] == ' ' || q[9] == '}')) {
					q += 9;
					continue;
				}
				if (!strncmp(q, " optnone", 8) && (q[8] == ' ' || q[8] == '}')) {
					q += 8;
					continue;
				}
				fputc(*q++, out);
			}
		}
		l += len;
	}
	return 0;
}

static void copy_lines(FILE *out, const char *ir, const char *prefix)
{
	size_t pl = strlen(prefix);
	for (const char *l = ir; l && *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		if (len >= pl && !strncmp(l, prefix, pl))
			fprintf(out, "%.*s\n", (int)len, l);
		l = nl ? nl + 1 : NULL;
	}
}

static int find_param(const body_sig *s, const char *name)
{
	for (unsigned i = 0; i < s->nparams; i++)
		if (!strcmp(s->p[i].name, name))
			return (int)i;
	return -1;
}

/* Arguments of the call, in the body's order. */
static void emit_call(FILE *o, const body_sig *s, const char *fn, bool ps)
{
	if (s->sret[0])
		fprintf(o, "  %%out = alloca %s, align 16, addrspace(5)\n", s->sret);
	if (s->sret[0])
		fprintf(o, "  call void @%s(ptr addrspace(5) sret(%s) align 16 %%out", fn, s->sret);
	else if (!strcmp(s->ret, "<4 x float>"))
		fprintf(o, "  %%o0 = call <4 x float> @%s(", fn);
	else
		fprintf(o, "  %%res = call %s @%s(", s->ret, fn);
	bool first = !s->sret[0];
	unsigned f4 = 0;
	for (unsigned i = 0; i < s->nparams; i++) {
		fputs(first ? "" : ", ", o);
		first = false;
		const char *n = s->p[i].name;
		if (s->p[i].kind == P_PTR)
			fprintf(o, "ptr addrspace(1) %%root.ptr");
		else if (s->p[i].kind == P_U32)
			fprintf(o, "i32 %%%s", !strcmp(n, "front_face") ? "face.u" : n);
		else if (ps && !strcmp(n, "frag_coord"))
			fprintf(o, "<4 x float> %%frag");
		else
			fprintf(o, "<4 x float> %%in%u", f4++);
	}
	fprintf(o, ")\n");
	/* the result's float4 fields as %o0..%oN */
	for (unsigned k = 0; k < s->nouts; k++) {
		if (s->sret[0]) {
			fprintf(o, "  %%o%u.p = getelementptr inbounds %s, ptr addrspace(5) %%out, i32 0, i32 %u\n", k, s->sret, k);
			fprintf(o, "  %%o%u = load <4 x float>, ptr addrspace(5) %%o%u.p, align 16\n", k, k);
		} else if (strcmp(s->ret, "<4 x float>")) {
			fprintf(o, "  %%o%u = extractvalue %s %%res, %u\n", k, s->ret, k);
		}
		for (unsigned c = 0; c < 4; c++)
			fprintf(o, "  %%o%u.%u = extractelement <4 x float> %%o%u, i32 %u\n", k, c, k, c);
	}
}

static void emit_exp(FILE *o, unsigned tgt, unsigned k, bool done, bool vm)
{
	fprintf(o,
	        "  call void @llvm.amdgcn.exp.f32(i32 %u, i32 15, float %%o%u.0, float %%o%u.1, float %%o%u.2, "
	        "float %%o%u.3, i1 %s, i1 %s)\n",
	        tgt, k, k, k, k, done ? "true" : "false", vm ? "true" : "false");
}

static void emit_ptr(FILE *o, const char *name, const char *lo, const char *hi, unsigned as)
{
	fprintf(o, "  %%%s.lo64 = zext i32 %%%s to i64\n", name, lo);
	fprintf(o, "  %%%s.hi64 = zext i32 %%%s to i64\n", name, hi);
	fprintf(o, "  %%%s.hi64s = shl i64 %%%s.hi64, 32\n", name, name);
	fprintf(o, "  %%%s.i64 = or i64 %%%s.lo64, %%%s.hi64s\n", name, name, name);
	fprintf(o, "  %%%s.ptr = inttoptr i64 %%%s.i64 to ptr addrspace(%u)\n", name, name, as);
}

static void write_entry(FILE *o, const char *body_ir, const body_sig *s, const char *fn, bool ps, bool mesa,
                        bool wave64)
{
	fprintf(o, "; the %s entry point xs12 cc generated for @%s (docs/graphics.md 1.5)\n", ps ? "PS" : "VS", fn);
	copy_lines(o, body_ir, "target datalayout");
	fprintf(o, "target triple = \"%s\"\n", mesa ? "amdgcn-mesa-mesa3d" : "amdgcn-amd-amdpal");
	copy_lines(o, body_ir, "%struct.");
	unsigned nin = 0;
	for (unsigned i = 0; i < s->nparams; i++)
		nin += s->p[i].kind == P_F4 && !(ps && !strcmp(s->p[i].name, "frag_coord"));
	/* s[0:1]: the ring table. Mesa reserves them itself (the implicit buffer
	 * pointer); PAL needs the GIT low half as its first argument. */
	const char *ring = mesa ? "" : "i32 inreg %ring.lo, i32 inreg %ring.hi, ";
	if (!ps) {
		fprintf(o,
		        "define amdgpu_vs void @vs(%si32 inreg %%vtx.lo, i32 inreg %%vtx.hi, i32 inreg %%rt.lo, "
		        "i32 inreg %%rt.hi, i32 %%vertex_id, i32 %%vgpr1, i32 %%vgpr2, i32 %%instance_id) {\n",
		        ring);
		if (mesa && wave64)
			fprintf(o, "  call void asm sideeffect \"s_mov_b64 exec, exec\", \"\"()  ; wave64 marker\n");
		emit_ptr(o, "vtx", "vtx.lo", "vtx.hi", 4);
		emit_ptr(o, "root", "rt.lo", "rt.hi", 1);
		for (unsigned i = 0; i < nin; i++) {
			/* vertex table entry i: V# (16 bytes), per-instance flag (4), zeros */
			fprintf(o, "  %%vd%u.p = getelementptr i8, ptr addrspace(4) %%vtx.ptr, i64 %u\n", i, i * 32);
			fprintf(o, "  %%vd%u = load <4 x i32>, ptr addrspace(4) %%vd%u.p, align 16, !invariant.load !0\n", i, i);
			fprintf(o, "  %%vf%u.p = getelementptr i8, ptr addrspace(4) %%vtx.ptr, i64 %u\n", i, i * 32 + 16);
			fprintf(o, "  %%vf%u = load i32, ptr addrspace(4) %%vf%u.p, align 16, !invariant.load !0\n", i, i);
			fprintf(o, "  %%vi%u.c = icmp ne i32 %%vf%u, 0\n", i, i);
			fprintf(o, "  %%vi%u = select i1 %%vi%u.c, i32 %%instance_id, i32 %%vertex_id\n", i, i);
			fprintf(o,
			        "  %%in%u = call <4 x float> @llvm.amdgcn.struct.buffer.load.format.v4f32(<4 x i32> %%vd%u, "
			        "i32 %%vi%u, i32 0, i32 0, i32 0)\n",
			        i, i, i);
		}
		emit_call(o, s, fn, false);
		emit_exp(o, 12, 0, true, false); /* POS0, done */
		for (unsigned k = 1; k < s->nouts; k++)
			emit_exp(o, 32 + k - 1, k, false, false); /* PARAMk-1 */
	} else {
		/* Non-inreg arguments are the SPI_PS_INPUT slots 0..12 in order. */
		fprintf(o,
		        "define amdgpu_ps void @ps(%si32 inreg %%rt.lo, i32 inreg %%rt.hi, i32 inreg %%prim_mask, "
		        "<2 x float> %%persp_sample, <2 x float> %%persp_center, <2 x float> %%persp_centroid, "
		        "<3 x float> %%persp_pull, <2 x float> %%linear_sample, <2 x float> %%linear_center, "
		        "<2 x float> %%linear_centroid, float %%line_stipple, float %%pos_x, float %%pos_y, "
		        "float %%pos_z, float %%pos_w, i32 %%front_face) #0 {\n",
		        ring);
		if (mesa && wave64)
			fprintf(o, "  call void asm sideeffect \"s_mov_b64 exec, exec\", \"\"()  ; wave64 marker\n");
		emit_ptr(o, "root", "rt.lo", "rt.hi", 1);
		fprintf(o, "  %%pi = extractelement <2 x float> %%persp_center, i32 0\n");
		fprintf(o, "  %%pj = extractelement <2 x float> %%persp_center, i32 1\n");
		for (unsigned a = 0; a < nin; a++) {
			for (unsigned c = 0; c < 4; c++) {
				fprintf(o, "  %%a%u.%u.p1 = call float @llvm.amdgcn.interp.p1(float %%pi, i32 %u, i32 %u, i32 %%prim_mask)\n",
				        a, c, c, a);
				fprintf(o,
				        "  %%a%u.%u = call float @llvm.amdgcn.interp.p2(float %%a%u.%u.p1, float %%pj, i32 %u, i32 %u, "
				        "i32 %%prim_mask)\n",
				        a, c, a, c, c, a);
			}
			fprintf(o, "  %%in%u.0 = insertelement <4 x float> undef, float %%a%u.0, i32 0\n", a, a);
			fprintf(o, "  %%in%u.1 = insertelement <4 x float> %%in%u.0, float %%a%u.1, i32 1\n", a, a, a);
			fprintf(o, "  %%in%u.2 = insertelement <4 x float> %%in%u.1, float %%a%u.2, i32 2\n", a, a, a);
			fprintf(o, "  %%in%u = insertelement <4 x float> %%in%u.2, float %%a%u.3, i32 3\n", a, a, a);
		}
		if (find_param(s, "frag_coord") >= 0) {
			fprintf(o, "  %%frag.0 = insertelement <4 x float> undef, float %%pos_x, i32 0\n");
			fprintf(o, "  %%frag.1 = insertelement <4 x float> %%frag.0, float %%pos_y, i32 1\n");
			fprintf(o, "  %%frag.2 = insertelement <4 x float> %%frag.1, float %%pos_z, i32 2\n");
			fprintf(o, "  %%frag = insertelement <4 x float> %%frag.2, float %%pos_w, i32 3\n");
		}
		if (find_param(s, "front_face") >= 0) {
			fprintf(o, "  %%face.c = icmp ne i32 %%front_face, 0\n");
			fprintf(o, "  %%face.u = zext i1 %%face.c to i32\n");
		}
		emit_call(o, s, fn, true);
		for (unsigned k = 0; k < s->nouts; k++)
			emit_exp(o, k, k, k + 1 == s->nouts, k + 1 == s->nouts); /* MRTk; done vm on the last */
	}
	fprintf(o, "  ret void\n}\n\n");
	fprintf(o, "declare <4 x float> @llvm.amdgcn.struct.buffer.load.format.v4f32(<4 x i32>, i32, i32, i32, i32)\n");
	fprintf(o, "declare float @llvm.amdgcn.interp.p1(float, i32, i32, i32)\n");
	fprintf(o, "declare float @llvm.amdgcn.interp.p2(float, float, i32, i32, i32)\n");
	fprintf(o, "declare void @llvm.amdgcn.exp.f32(i32, i32, float, float, float, float, i1, i1)\n");
	/* the body, as declared in its own module */
	if (s->sret[0])
		fprintf(o, "declare void @%s(ptr addrspace(5) sret(%s) align 16", fn, s->sret);
	else
		fprintf(o, "declare %s @%s(", s->ret, fn);
	for (unsigned i = 0; i < s->nparams; i++)
		fprintf(o, "%s%s", i || s->sret[0] ? ", " : "",
		        s->p[i].kind == P_F4 ? "<4 x float>" : s->p[i].kind == P_U32 ? "i32" : "ptr addrspace(1)");
	fprintf(o, ")\n\n");
	if (ps)
		fprintf(o, "attributes #0 = { \"InitialPSInputAddr\"=\"0\" }\n");
	fprintf(o, "!0 = !{}\n");
}

int xs_cli_cc_gfx(bool ps, const char *src, bool mesa, bool wave64, int opt, const char *out)
{
	const char *fn = ps ? "ps_main" : "vs_main";
	char dir[] = "/tmp/xs12-cc-XXXXXX";
	if (!mkdtemp(dir)) {
		fprintf(stderr, "xs12 cc: cannot create a temporary folder: %s\n", strerror(errno));
		return 1;
	}
	char body[64], wrap[64], linked[64], optflag[8];
	snprintf(body, sizeof(body), "%s/body.ll", dir);
	snprintf(wrap, sizeof(wrap), "%s/entry.ll", dir);
	snprintf(linked, sizeof(linked), "%s/linked.bc", dir);
	snprintf(optflag, sizeof(optflag), "-O%d", opt);
	int rc = 1;
	char *ir = NULL;
	const char *cl[] = { XS_CLANG, "-target", mesa ? "amdgcn-mesa-mesa3d" : "amdgcn-amd-amdpal", "-mcpu=gfx1030",
	                     "-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
	                     "-fno-discard-value-names", optflag,
	                     wave64 ? "-mwavefrontsize64" : "-mno-wavefrontsize64", "-S", "-emit-llvm", src, "-o", body,
	                     NULL };
	if (run(cl))
		goto done;
	size_t n;
	if (!(ir = slurp(body, &n))) {
		fprintf(stderr, "xs12 cc: cannot read %s\n", body);
		goto done;
	}
	body_sig s;
	memset(&s, 0, sizeof(s));
	if (parse_sig(ir, fn, ps, &s))
		goto done;
	FILE *f = fopen(body, "w");
	if (!f || mark_alwaysinline(ir, f) || fclose(f)) {
		fprintf(stderr, "xs12 cc: cannot write %s\n", body);
		goto done;
	}
	f = fopen(wrap, "w");
	if (!f) {
		fprintf(stderr, "xs12 cc: cannot write %s\n", wrap);
		goto done;
	}
	write_entry(f, ir, &s, fn, ps, mesa, wave64);
	if (fclose(f))
		goto done;
	printf("# %s: entry @%s generated for @%s in %s\n", src, ps ? "ps" : "vs", fn, wrap);
	const char *ln[] = { XS_LLVM_LINK, "--internalize", wrap, body, "-o", linked, NULL };
	if (run(ln))
		goto done;
	const char *llc[] = { XS_LLC, mesa ? "-mtriple=amdgcn-mesa-mesa3d" : "-mtriple=amdgcn--amdpal", "-mcpu=gfx1030",
	                      wave64 ? "-mattr=+wavefrontsize64" : "-mattr=-wavefrontsize64", optflag, "-filetype=obj",
	                      linked, "-o", out, NULL };
	if (run(llc))
		goto done;
	rc = 0;
done:
	if (rc)
		fprintf(stderr, "xs12 cc: %s did not compile as a %s (intermediate files kept in %s)\n", src,
		        ps ? "pixel shader" : "vertex shader", dir);
	else {
		unlink(body);
		unlink(wrap);
		unlink(linked);
		rmdir(dir);
	}
	free(ir);
	return rc;
}
