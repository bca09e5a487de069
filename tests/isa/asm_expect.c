/*
 * The CHECK lines of a test program against a wave's final state (the
 * grammar is in asm_expect.h). Each line is parsed again for every lane it
 * covers: the lines are short and the waves have at most 64 lanes, and one
 * pass that evaluates as it parses keeps the checker small.
 */
#include "asm_expect.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/xs_vm.h"

#define LINE_MAX_CHARS 1024
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define VALUES_MAX 16

typedef struct parser {
	const char *p;
	const asm_state *st;
	unsigned lane;
	bool used_lane;
	char err[160];
} parser;

static void perr(parser *ps, const char *fmt, ...)
{
	if (ps->err[0])
		return;   /* the first error says most */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->err, sizeof(ps->err), fmt, ap);
	va_end(ap);
}

static void skip_ws(parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r')
		ps->p++;
}

static bool eat(parser *ps, const char *tok)
{
	skip_ws(ps);
	size_t n = strlen(tok);
	if (strncmp(ps->p, tok, n) != 0)
		return false;
	ps->p += n;
	return true;
}

/* An identifier: [A-Za-z_][A-Za-z0-9_.]* (dots for fault.pc). */
static size_t ident(parser *ps, char *out, size_t cap)
{
	skip_ws(ps);
	size_t n = 0;
	if (!isalpha((unsigned char)ps->p[0]) && ps->p[0] != '_')
		return 0;
	while (isalnum((unsigned char)ps->p[n]) || ps->p[n] == '_' || ps->p[n] == '.')
		n++;
	if (n + 1 > cap)
		return 0;
	memcpy(out, ps->p, n);
	out[n] = 0;
	ps->p += n;
	return n;
}

static uint32_t f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* A literal: integer (decimal, 0x hex) or f32 (its bits). *is_float tells
 * which, for the unary minus of a float. */
static bool number(parser *ps, uint64_t *v, bool *is_float)
{
	skip_ws(ps);
	const char *s = ps->p;
	if (!isdigit((unsigned char)s[0]) && !(s[0] == '.' && isdigit((unsigned char)s[1])))
		return false;
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	size_t n = hex ? 2 : 0;
	bool flt = false;
	for (;; n++) {
		char c = s[n];
		if (hex ? isxdigit((unsigned char)c) : isdigit((unsigned char)c))
			continue;
		if (c == '.') { flt = true; continue; }
		if (!hex && (c == 'e' || c == 'E')) { flt = true; if (s[n + 1] == '-' || s[n + 1] == '+') n++; continue; }
		if (hex && (c == 'p' || c == 'P')) { flt = true; if (s[n + 1] == '-' || s[n + 1] == '+') n++; continue; }
		break;
	}
	char *end;
	if (flt) {
		float f = strtof(s, &end);
		if (end != s + n) {
			perr(ps, "bad float literal");
			return false;
		}
		*v = f32_bits(f);
		if (*end == 'f')
			end++;
	} else {
		*v = strtoull(s, &end, 0);
		if (end != s + n) {
			perr(ps, "bad integer literal");
			return false;
		}
	}
	*is_float = flt;
	ps->p = end;
	return true;
}

static uint64_t expr(parser *ps);

static uint64_t primary(parser *ps, bool *is_float)
{
	*is_float = false;
	uint64_t v;
	if (number(ps, &v, is_float))
		return v;
	if (eat(ps, "(")) {
		v = expr(ps);
		if (!eat(ps, ")"))
			perr(ps, "')' expected at \"%.20s\"", ps->p);
		return v;
	}
	char name[64];
	if (!ident(ps, name, sizeof(name))) {
		perr(ps, "value expected at \"%.20s\"", ps->p);
		return 0;
	}
	if (strcmp(name, "lane") == 0) {
		ps->used_lane = true;
		return ps->lane;
	}
	if (strcmp(name, "code") == 0)
		return ps->st->code_va;
	if (strcmp(name, "inf") == 0) {
		*is_float = true;
		return 0x7f800000u;
	}
	if (strcmp(name, "f32") == 0) {
		if (!eat(ps, "(")) {
			perr(ps, "f32 takes (integer)");
			return 0;
		}
		v = expr(ps);
		if (!eat(ps, ")"))
			perr(ps, "')' expected after f32's operand");
		return f32_bits((float)v);
	}
	for (unsigned i = 0; i < ps->st->nsyms; i++)
		if (strcmp(ps->st->syms[i].name, name) == 0)
			return ps->st->syms[i].value;
	perr(ps, "unknown name '%s'", name);
	return 0;
}

static uint64_t unary(parser *ps)
{
	bool f;
	if (eat(ps, "-")) {
		uint64_t v = primary(ps, &f);
		/* -1.5: the negated float, not the negated integer of its bits */
		return f ? (v ^ 0x80000000u) : (uint64_t)0 - v;
	}
	if (eat(ps, "~"))
		return ~unary(ps);
	if (eat(ps, "!"))
		return !unary(ps);
	return primary(ps, &f);
}

/* Binary operators by C precedence, lowest first. */
static const struct { const char *op; int prec; } binops[] = {
	{ "||", 1 }, { "&&", 2 }, { "==", 6 }, { "!=", 6 }, { "<=", 7 }, { ">=", 7 }, { "<<", 8 },
	{ ">>", 8 }, { "|", 3 }, { "^", 4 }, { "&", 5 }, { "<", 7 }, { ">", 7 }, { "+", 9 }, { "-", 9 },
	{ "*", 10 }, { "/", 10 }, { "%", 10 },
};

static int peek_binop(parser *ps, const char **op)
{
	skip_ws(ps);
	for (size_t i = 0; i < COUNT_OF(binops); i++) {
		size_t n = strlen(binops[i].op);
		if (strncmp(ps->p, binops[i].op, n) == 0) {
			/* "a -1" in a list of values is two values; "a - 1" is one */
			if (binops[i].op[0] == '-' && n == 1 && (ps->p[-1] == ' ' || ps->p[-1] == '\t') &&
			    ps->p[1] != ' ' && ps->p[1] != '\t')
				return 0;
			*op = binops[i].op;
			return binops[i].prec;
		}
	}
	return 0;
}

static uint64_t binary(parser *ps, int min_prec)
{
	uint64_t a = unary(ps);
	for (;;) {
		const char *op;
		int prec = peek_binop(ps, &op);
		if (prec == 0 || prec < min_prec || ps->err[0])
			return a;
		ps->p += strlen(op);
		uint64_t b = binary(ps, prec + 1);
		if (!strcmp(op, "||")) a = a || b;
		else if (!strcmp(op, "&&")) a = a && b;
		else if (!strcmp(op, "|")) a |= b;
		else if (!strcmp(op, "^")) a ^= b;
		else if (!strcmp(op, "&")) a &= b;
		else if (!strcmp(op, "==")) a = a == b;
		else if (!strcmp(op, "!=")) a = a != b;
		else if (!strcmp(op, "<")) a = a < b;
		else if (!strcmp(op, "<=")) a = a <= b;
		else if (!strcmp(op, ">")) a = a > b;
		else if (!strcmp(op, ">=")) a = a >= b;
		else if (!strcmp(op, "<<")) a = b < 64 ? a << b : 0;
		else if (!strcmp(op, ">>")) a = b < 64 ? a >> b : 0;
		else if (!strcmp(op, "+")) a += b;
		else if (!strcmp(op, "-")) a -= b;
		else if (!strcmp(op, "*")) a *= b;
		else if (b == 0) { perr(ps, "division by zero"); return 0; }
		else if (!strcmp(op, "/")) a /= b;
		else a %= b;
	}
}

static uint64_t expr(parser *ps)
{
	uint64_t c = binary(ps, 1);
	if (!eat(ps, "?"))
		return c;
	uint64_t a = expr(ps);
	if (!eat(ps, ":")) {
		perr(ps, "':' expected in ?:");
		return 0;
	}
	uint64_t b = expr(ps);
	return c ? a : b;
}

/* ---- targets ---------------------------------------------------------------- */
typedef enum tkind {
	T_SREG, T_VREG, T_SCC, T_PC, T_INSTS, T_MODE, T_FLATSCR, T_MEM, T_MEM8, T_LDS,
	T_STATUS, T_FAULT, T_FAULTPC, T_FAULTADDR, T_FAULTWHAT,
} tkind;

typedef struct target {
	tkind kind;
	unsigned reg, nreg;      /* T_SREG, T_VREG: first register and count */
	bool wide;               /* one 64-bit value over two SGPRs (vcc, exec, s[A:A+1]) */
	const char *addr;        /* T_MEM, T_LDS: the address expression's text */
	unsigned lane_lo, lane_hi;
	bool lanes_given;
	uint64_t mask;           /* "target & mask": the bits compared */
	char text[48];           /* for messages */
} target;

/* By the order of xs_wave_status and xs_fault_kind (xs_isa.h). */
static const char *const status_names[] = { "ready", "barrier", "ended", "fault", "exp_wait" };
static const char *const fault_names[] = { "none", "vm", "illegal", "unimplemented", "lds", "watchdog", "hang" };
_Static_assert(COUNT_OF(status_names) == XS_WAVE_EXP_WAIT + 1, "a status without a name");
_Static_assert(COUNT_OF(fault_names) == XS_FAULT_HANG + 1, "a fault kind without a name");

static bool reg_index(parser *ps, unsigned *v)
{
	skip_ws(ps);
	if (!isdigit((unsigned char)*ps->p))
		return false;
	char *end;
	unsigned long n = strtoul(ps->p, &end, 10);
	if (n > 1000)
		return false;
	*v = (unsigned)n;
	ps->p = end;
	return true;
}

static bool parse_target(parser *ps, target *t)
{
	memset(t, 0, sizeof(*t));
	skip_ws(ps);
	const char *start = ps->p;
	char name[32];
	if (!ident(ps, name, sizeof(name))) {
		perr(ps, "target expected");
		return false;
	}
	static const struct { const char *name; tkind kind; unsigned reg, nreg; bool wide; } named[] = {
		{ "vcc", T_SREG, XS_SREG_VCC_LO, 2, true }, { "vcc_lo", T_SREG, XS_SREG_VCC_LO, 1, false },
		{ "vcc_hi", T_SREG, XS_SREG_VCC_HI, 1, false }, { "exec", T_SREG, XS_SREG_EXEC_LO, 2, true },
		{ "exec_lo", T_SREG, XS_SREG_EXEC_LO, 1, false }, { "exec_hi", T_SREG, XS_SREG_EXEC_HI, 1, false },
		{ "m0", T_SREG, XS_SREG_M0, 1, false }, { "null", T_SREG, XS_SREG_NULL, 1, false },
		{ "scc", T_SCC, 0, 0, false }, { "pc", T_PC, 0, 0, false }, { "insts", T_INSTS, 0, 0, false },
		{ "mode", T_MODE, 0, 0, false }, { "flat_scratch", T_FLATSCR, 0, 0, false },
		{ "status", T_STATUS, 0, 0, false }, { "fault", T_FAULT, 0, 0, false },
		{ "fault.pc", T_FAULTPC, 0, 0, false }, { "fault.addr", T_FAULTADDR, 0, 0, false },
		{ "fault.what", T_FAULTWHAT, 0, 0, false },
	};
	bool found = false;
	for (size_t i = 0; i < COUNT_OF(named); i++)
		if (strcmp(name, named[i].name) == 0) {
			t->kind = named[i].kind;
			t->reg = named[i].reg;
			t->nreg = named[i].nreg;
			t->wide = named[i].wide;
			found = true;
		}
	if (!found && (name[0] == 's' || name[0] == 'v')) {
		t->kind = name[0] == 's' ? T_SREG : T_VREG;
		unsigned max = name[0] == 's' ? 128 : XS_MAX_VGPRS;
		if (name[1]) {
			char *end;
			unsigned long n = strtoul(name + 1, &end, 10);
			if (*end || !isdigit((unsigned char)name[1]) || n >= max) {
				perr(ps, "bad register '%s'", name);
				return false;
			}
			t->reg = (unsigned)n;
			t->nreg = 1;
		} else {
			unsigned a, b;
			if (!eat(ps, "[") || !reg_index(ps, &a) || !eat(ps, ":") || !reg_index(ps, &b) || !eat(ps, "]") ||
			    b < a || b >= max || b - a >= VALUES_MAX) {
				perr(ps, "bad register range after '%s'", name);
				return false;
			}
			t->reg = a;
			t->nreg = b - a + 1;
		}
		found = true;
	}
	if (!found && (strcmp(name, "mem") == 0 || strcmp(name, "mem8") == 0 || strcmp(name, "lds") == 0)) {
		t->kind = name[0] == 'l' ? T_LDS : name[3] ? T_MEM8 : T_MEM;
		if (!eat(ps, "[")) {
			perr(ps, "'[' expected after %s", name);
			return false;
		}
		t->addr = ps->p;
		(void)expr(ps);       /* find the end; evaluated again per lane */
		if (!eat(ps, "]")) {
			perr(ps, "']' expected after the address");
			return false;
		}
		found = true;
	}
	if (!found) {
		perr(ps, "unknown target '%s'", name);
		return false;
	}
	snprintf(t->text, sizeof(t->text), "%.*s", (int)(ps->p - start), start);
	/* lane K | lanes A..B */
	const char *save = ps->p;
	char q[16];
	if (ident(ps, q, sizeof(q)) && (strcmp(q, "lane") == 0 || strcmp(q, "lanes") == 0)) {
		if (!reg_index(ps, &t->lane_lo)) {
			perr(ps, "lane number expected");
			return false;
		}
		t->lane_hi = t->lane_lo;
		if (q[4] == 's' && (!eat(ps, "..") || !reg_index(ps, &t->lane_hi) || t->lane_hi < t->lane_lo)) {
			perr(ps, "lanes A..B expected");
			return false;
		}
		if (t->lane_hi >= ps->st->w->lanes) {
			perr(ps, "lane %u: the wave has %u", t->lane_hi, ps->st->w->lanes);
			return false;
		}
		t->lanes_given = true;
	} else {
		ps->p = save;
	}
	t->mask = ~0ull;
	if (eat(ps, "&")) {
		bool f;
		if (!number(ps, &t->mask, &f) || f) {
			perr(ps, "integer mask expected after '&'");
			return false;
		}
	}
	return true;
}

/* The actual value of word k of the target in a lane. */
static bool actual(parser *ps, const target *t, unsigned k, uint64_t *out)
{
	const xs_wave *w = ps->st->w;
	switch (t->kind) {
	case T_SREG:
		if (t->wide && k == 0) {
			*out = w->s[t->reg] | (uint64_t)w->s[t->reg + 1] << 32;
			if (t->reg == XS_SREG_EXEC_LO)
				*out = xs_wave_exec(w);
			return true;
		}
		if (t->reg + k >= 128)
			return false;
		*out = w->s[t->reg + k];
		return true;
	case T_VREG:
		if (t->reg + k + t->wide >= w->nvgpr) {
			perr(ps, "v%u: the wave has %u VGPRs", t->reg + k + t->wide, w->nvgpr);
			return false;
		}
		*out = w->v[t->reg + k][ps->lane];
		if (t->wide)
			*out |= (uint64_t)w->v[t->reg + 1][ps->lane] << 32;
		return true;
	case T_SCC: *out = w->scc; return true;
	case T_PC: *out = w->pc; return true;
	case T_INSTS: *out = w->insts; return true;
	case T_MODE: *out = w->mode; return true;
	case T_FLATSCR: *out = w->flat_scratch; return true;
	case T_FAULTPC: *out = ps->st->ctx->fault.pc; return true;
	case T_FAULTADDR: *out = ps->st->ctx->fault.addr; return true;
	case T_STATUS: *out = ps->st->status; return true;
	case T_FAULT: *out = ps->st->ctx->fault.kind; return true;
	case T_MEM:
	case T_MEM8:
	case T_LDS: {
		parser sub = *ps;
		sub.p = t->addr;
		sub.err[0] = 0;
		unsigned size = t->kind == T_MEM8 ? 1 : 4;
		uint64_t a = expr(&sub) + (uint64_t)size * k;
		ps->used_lane |= sub.used_lane;
		uint32_t word = 0;
		if (t->kind != T_LDS) {
			if (!xs_vm_read(ps->st->ctx->vm, a, &word, size, NULL)) {
				perr(ps, "mem[0x%" PRIx64 "] is not mapped", a);
				return false;
			}
		} else {
			if (!w->lds || a > w->lds_size || w->lds_size - a < 4) {
				perr(ps, "lds[0x%" PRIx64 "] is outside the wave's %u bytes", a, w->lds_size);
				return false;
			}
			memcpy(&word, w->lds + a, 4);
		}
		*out = word;
		return true;
	}
	case T_FAULTWHAT:
		break;
	}
	return false;
}

static bool is_nan32(uint64_t u)
{
	return (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu);
}

/* One value of the list: an expression, nan, or a status / fault name. */
typedef struct want {
	uint64_t v;
	bool any_nan;
} want;

static bool parse_value(parser *ps, const target *t, want *wv)
{
	memset(wv, 0, sizeof(*wv));
	const char *save = ps->p;
	char name[32];
	if (ident(ps, name, sizeof(name))) {
		if (t->kind == T_STATUS || t->kind == T_FAULT) {
			const char *const *names = t->kind == T_STATUS ? status_names : fault_names;
			size_t n = t->kind == T_STATUS ? COUNT_OF(status_names) : COUNT_OF(fault_names);
			for (size_t i = 0; i < n; i++)
				if (strcmp(names[i], name) == 0) {
					wv->v = (uint64_t)i;
					return true;
				}
			perr(ps, "unknown %s '%s'", t->kind == T_STATUS ? "status" : "fault kind", name);
			return false;
		}
		if (strcmp(name, "nan") == 0) {
			wv->any_nan = true;
			return true;
		}
	}
	ps->p = save;
	wv->v = expr(ps);
	return !ps->err[0];
}

static uint64_t width_mask(const target *t)
{
	switch (t->kind) {
	case T_SREG:
	case T_VREG:
		return t->wide ? ~0ull : 0xffffffffull;
	case T_MEM:
	case T_LDS:
		return 0xffffffffull;
	case T_MEM8:
		return 0xff;
	default:
		return ~0ull;
	}
}

static void logf_(asm_result *res, const char *fmt, ...)
{
	size_t n = strlen(res->log);
	if (n + 1 >= sizeof(res->log))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(res->log + n, sizeof(res->log) - n, fmt, ap);
	va_end(ap);
}

static void value_text(char *buf, size_t cap, const target *t, uint64_t v)
{
	if (t->kind == T_STATUS && v < COUNT_OF(status_names))
		snprintf(buf, cap, "%s", status_names[v]);
	else if (t->kind == T_FAULT && v < COUNT_OF(fault_names))
		snprintf(buf, cap, "%s", fault_names[v]);
	else
		snprintf(buf, cap, "0x%" PRIx64, v);
}

/* Checks one directive (the text after "CHECK:"). Returns false with a
 * message in res when it fails. */
static bool check_line(const char *file, unsigned line, const char *text, const asm_state *st, asm_result *res)
{
	while (*text == ' ' || *text == '\t')
		text++;
	parser ps = { .p = text, .st = st };
	target t;
	if (!parse_target(&ps, &t))
		goto bad;
	if (t.kind == T_FAULTWHAT) {
		if (!eat(&ps, "~") || !eat(&ps, "\"")) {
			perr(&ps, "fault.what takes ~ \"text\"");
			goto bad;
		}
		const char *q = strchr(ps.p, '"');
		if (!q) {
			perr(&ps, "unterminated string");
			goto bad;
		}
		char needle[160];
		snprintf(needle, sizeof(needle), "%.*s", (int)(q - ps.p), ps.p);
		if (strstr(st->ctx->fault.what, needle))
			return true;
		logf_(res, "%s:%u: fault.what is \"%s\", expected it to contain \"%s\"\n", file, line,
		      st->ctx->fault.what, needle);
		return false;
	}
	if (!eat(&ps, "=")) {
		perr(&ps, "'=' expected after the target");
		goto bad;
	}
	const char *values = ps.p;
	/* how many values: parse them once in lane 0 (t.lane_lo when given) */
	ps.lane = t.lane_lo;
	want wv[VALUES_MAX];
	unsigned n = 0;
	for (;;) {
		eat(&ps, ",");
		skip_ws(&ps);
		if (!*ps.p)
			break;
		if (n == VALUES_MAX) {
			perr(&ps, "more than %d values", VALUES_MAX);
			goto bad;
		}
		if (!parse_value(&ps, &t, &wv[n]))
			goto bad;
		n++;
	}
	if (n == 0) {
		perr(&ps, "value expected after '='");
		goto bad;
	}
	if ((t.kind == T_SREG || t.kind == T_VREG) && n == 1 && t.nreg == 2 && !t.wide && !wv[0].any_nan)
		t.wide = true;   /* s[A:A+1] = one 64-bit value */
	if ((t.kind == T_SREG || t.kind == T_VREG) && n != (t.wide ? 1 : t.nreg)) {
		perr(&ps, "%s takes %u values, not %u", t.text, t.wide ? 1 : t.nreg, n);
		goto bad;
	}
	bool listed = t.kind == T_SREG || t.kind == T_VREG || t.kind == T_MEM || t.kind == T_MEM8 || t.kind == T_LDS;
	if (!listed && n != 1) {
		perr(&ps, "%s takes one value, not %u", t.text, n);
		goto bad;
	}
	bool per_lane = t.kind == T_VREG || t.lanes_given || ps.used_lane;
	if (!per_lane && (t.kind == T_MEM || t.kind == T_MEM8 || t.kind == T_LDS)) {
		/* the address may name lane too */
		parser sub = ps;
		sub.p = t.addr;
		(void)expr(&sub);
		per_lane = sub.used_lane;
	}
	unsigned lo = t.lanes_given ? t.lane_lo : 0;
	unsigned hi = t.lanes_given ? t.lane_hi : per_lane ? st->w->lanes - 1 : 0;
	unsigned bad_lanes = 0;
	char first[200] = "";
	for (unsigned l = lo; l <= hi; l++) {
		ps.lane = l;
		ps.p = values;
		for (unsigned k = 0; k < n; k++) {
			eat(&ps, ",");
			if (!parse_value(&ps, &t, &wv[k]))
				goto bad;
			uint64_t got;
			if (!actual(&ps, &t, k, &got))
				goto bad;
			uint64_t m = width_mask(&t) & t.mask;
			bool ok = wv[k].any_nan ? is_nan32(got) : (got & m) == (wv[k].v & m);
			if (ok)
				continue;
			if (!bad_lanes++) {
				char g[40], e[40];
				value_text(g, sizeof(g), &t, got & m);
				value_text(e, sizeof(e), &t, wv[k].v & m);
				char where[64] = "";
				if (t.kind == T_SREG || t.kind == T_VREG) {
					if (t.nreg > 1 && !t.wide)
						snprintf(where, sizeof(where), " (%c%u)", t.kind == T_SREG ? 's' : 'v', t.reg + k);
				} else if ((t.kind == T_MEM || t.kind == T_MEM8 || t.kind == T_LDS) && n > 1) {
					snprintf(where, sizeof(where), " (word %u)", k);
				}
				if (per_lane)
					snprintf(where + strlen(where), sizeof(where) - strlen(where), " lane %u", l);
				snprintf(first, sizeof(first), "%s%s is %s, expected %s", t.text, where, g,
					 wv[k].any_nan ? "a NaN" : e);
			}
			break;
		}
	}
	if (!bad_lanes)
		return true;
	if (per_lane && hi > lo)
		logf_(res, "%s:%u: %s (%u of %u lanes wrong)\n", file, line, first, bad_lanes, hi - lo + 1);
	else
		logf_(res, "%s:%u: %s\n", file, line, first);
	return false;
bad:
	logf_(res, "%s:%u: cannot check \"%s\": %s\n", file, line, text, ps.err[0] ? ps.err : "bad directive");
	return false;
}

/* The directive of a line: returns its text after "CHECK:" / "CHECK-<tag>:"
 * when the tag is the one asked for, NULL otherwise; *malformed when the
 * line mentions CHECK without being a directive. */
static const char *directive(const char *line, const char *tag, bool *malformed, bool *any)
{
	*malformed = false;
	*any = false;
	const char *c = strstr(line, "CHECK");
	if (!c)
		return NULL;
	const char *sl = strstr(line, "//");
	const char *p = sl ? sl + 2 : NULL;
	while (p && (*p == ' ' || *p == '\t'))
		p++;
	if (!p || p != c) {
		*malformed = true;
		return NULL;
	}
	p += 5;
	const char *ltag = NULL;
	size_t ltag_n = 0;
	if (*p == '-') {
		ltag = ++p;
		while (isupper((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_')
			p++;
		ltag_n = (size_t)(p - ltag);
		if (!ltag_n) {
			*malformed = true;
			return NULL;
		}
	}
	if (*p != ':') {
		*malformed = true;
		return NULL;
	}
	*any = true;
	bool mine = tag ? (ltag && strlen(tag) == ltag_n && strncmp(tag, ltag, ltag_n) == 0) : !ltag;
	return mine ? p + 1 : NULL;
}

static bool mentions_check(const char *p, size_t len)
{
	for (size_t i = 0; i + 5 <= len; i++)
		if (memcmp(p + i, "CHECK", 5) == 0)
			return true;
	return false;
}

void asm_expect_text(const char *name, const char *text, const char *tag, const asm_state *st, asm_result *res)
{
	memset(res, 0, sizeof(*res));
	unsigned lineno = 0;
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		lineno++;
		char line[LINE_MAX_CHARS];
		if (len >= sizeof(line)) {
			if (mentions_check(p, len)) {
				res->failed++;
				logf_(res, "%s:%u: line too long for a CHECK\n", name, lineno);
			}
		} else {
			memcpy(line, p, len);
			line[len] = 0;
			bool malformed, any;
			const char *d = directive(line, tag, &malformed, &any);
			if (malformed) {
				res->failed++;
				logf_(res, "%s:%u: mentions CHECK but is not \"// CHECK: ...\" or \"// CHECK-TAG: ...\"\n",
				      name, lineno);
			} else if (d) {
				res->checks++;
				if (!check_line(name, lineno, d, st, res))
					res->failed++;
			}
		}
		p += len;
		if (*p == '\n')
			p++;
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap + 1);
	if (buf)
		n = fread(buf, 1, cap, f);
	bool too_big = buf && n == cap && fgetc(f) != EOF;
	fclose(f);
	if (!buf || too_big) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	return buf;
}

void asm_expect_file(const char *path, const char *tag, const asm_state *st, asm_result *res)
{
	char *text = slurp(path);
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (!text) {
		memset(res, 0, sizeof(*res));
		res->failed = 1;
		logf_(res, "%s: cannot read it\n", path);
		return;
	}
	asm_expect_text(base, text, tag, st, res);
	free(text);
}

int asm_expect_count(const char *path)
{
	char *text = slurp(path);
	if (!text)
		return -1;
	int n = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[LINE_MAX_CHARS];
		if (len < sizeof(line)) {
			memcpy(line, p, len);
			line[len] = 0;
			bool malformed, any;
			(void)directive(line, NULL, &malformed, &any);
			n += any;
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	free(text);
	return n;
}
