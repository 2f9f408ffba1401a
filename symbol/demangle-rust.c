/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/demangle-rust.c - Rust symbol names, printed as libiberty's
 * cplus_demangle() prints them without options, which is what perf 6.1
 * shows.  "v0" names ("_R..."): crate disambiguators hidden,
 * "{closure#N}", generic arguments "::<...>" in value paths and "<...>"
 * in type paths.  Legacy names ("_ZN...17h<hash>E"): the path without
 * the hash, "$LT$"-style and "$u7b$"-style escapes decoded.
 *
 * Written from the mangling specification (Rust RFC 2603).  Every read
 * is bounds-checked; recursion depth and output size are capped, since
 * back-references can make the output grow exponentially.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/sym-int.h"

#define RD_MAX_DEPTH 200
#define RD_MAX_OUT (64u << 10)

struct rd {
	const char *s;
	size_t len, pos;
	char *out;
	size_t out_len, out_cap;
	unsigned depth;
	uint64_t bound_lt;	/* lifetimes bound by enclosing binders */
	bool err;
};

static void
put_n(struct rd *d, const char *p, size_t n)
{
	char *q;

	if (d->err)
		return;
	if (d->out_len + n + 1 > RD_MAX_OUT) {
		d->err = true;
		return;
	}
	if (d->out_len + n + 1 > d->out_cap) {
		size_t cap = d->out_cap ? d->out_cap : 128;

		while (cap < d->out_len + n + 1)
			cap *= 2;
		q = realloc(d->out, cap);
		if (!q) {
			d->err = true;
			return;
		}
		d->out = q;
		d->out_cap = cap;
	}
	memcpy(d->out + d->out_len, p, n);
	d->out_len += n;
	d->out[d->out_len] = '\0';
}

static void
put(struct rd *d, const char *p)
{
	put_n(d, p, strlen(p));
}

static int
peek(const struct rd *d)
{
	return !d->err && d->pos < d->len ? (unsigned char)d->s[d->pos] : 0;
}

static bool
eat(struct rd *d, char c)
{
	if (peek(d) == (unsigned char)c) {
		d->pos++;
		return true;
	}
	return false;
}

static int
next(struct rd *d)
{
	int c = peek(d);

	if (!c)
		d->err = true;
	else
		d->pos++;
	return c;
}

/* base-62 number: "_" is 0, "X_" is X + 1 */
static uint64_t
base62(struct rd *d)
{
	uint64_t v = 0;
	int c;

	if (eat(d, '_'))
		return 0;
	while ((c = next(d)) != '_') {
		unsigned dig;

		if (c >= '0' && c <= '9')
			dig = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'z')
			dig = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'Z')
			dig = (unsigned)(c - 'A' + 36);
		else {
			d->err = true;
			return 0;
		}
		if (v > (UINT64_MAX - dig) / 62) {
			d->err = true;
			return 0;
		}
		v = v * 62 + dig;
	}
	if (v == UINT64_MAX) {
		d->err = true;
		return 0;
	}
	return v + 1;
}

static uint64_t
opt_base62(struct rd *d, char tag)
{
	uint64_t v;

	if (!eat(d, tag))
		return 0;
	v = base62(d);
	return v == UINT64_MAX ? v : v + 1;
}

static uint64_t
decimal(struct rd *d)
{
	uint64_t v = 0;
	int c = peek(d);

	if (c < '0' || c > '9') {
		d->err = true;
		return 0;
	}
	if (c == '0') {
		d->pos++;
		return 0;
	}
	while ((c = peek(d)) >= '0' && c <= '9') {
		if (v > (UINT64_MAX - 9) / 10) {
			d->err = true;
			return 0;
		}
		v = v * 10 + (uint64_t)(c - '0');
		d->pos++;
	}
	return v;
}

struct ident {
	const char *p;
	size_t n;
	bool puny;
};

static struct ident
ident(struct rd *d)
{
	struct ident id = { NULL, 0, false };
	uint64_t n;

	id.puny = eat(d, 'u');
	n = decimal(d);
	eat(d, '_');
	if (d->err || n > d->len - d->pos) {
		d->err = true;
		return id;
	}
	id.p = d->s + d->pos;
	id.n = (size_t)n;
	d->pos += (size_t)n;
	return id;
}

static void
put_ident(struct rd *d, struct ident id)
{
	/* punycode names are rare; they are printed as encoded */
	if (id.puny)
		put(d, "punycode{");
	put_n(d, id.p, id.n);
	if (id.puny)
		put(d, "}");
}

static void path(struct rd *d, bool in_value);
static void type(struct rd *d);
static void konst(struct rd *d);

static bool
enter(struct rd *d)
{
	if (++d->depth > RD_MAX_DEPTH)
		d->err = true;
	return !d->err;
}

enum rd_what { RD_PATH, RD_PATH_VALUE, RD_TYPE, RD_CONST };

/* Parse what a back-reference points at, then come back. */
static void
backref(struct rd *d, enum rd_what what)
{
	size_t start = d->pos - 1, save;
	uint64_t to = base62(d);

	if (d->err || to >= start) {
		d->err = true;
		return;
	}
	save = d->pos;
	d->pos = (size_t)to;
	if (what == RD_TYPE)
		type(d);
	else if (what == RD_CONST)
		konst(d);
	else
		path(d, what == RD_PATH_VALUE);
	d->pos = save;
}

static void
lifetime_from_index(struct rd *d, uint64_t lt)
{
	char buf[32];
	uint64_t depth;

	if (lt == 0) {
		put(d, "'_");
		return;
	}
	if (lt > d->bound_lt) {
		d->err = true;
		return;
	}
	depth = d->bound_lt - lt;
	if (depth < 26) {
		buf[0] = '\'';
		buf[1] = (char)('a' + depth);
		buf[2] = '\0';
	} else {
		snprintf(buf, sizeof(buf), "'_%llu", (unsigned long long)depth);
	}
	put(d, buf);
}

/* "G" binder: "for<'a, 'b> "; returns how many lifetimes it bound. */
static uint64_t
binder(struct rd *d)
{
	uint64_t n, i;

	if (!eat(d, 'G'))
		return 0;
	n = base62(d) + 1;
	if (d->err || n > 1000) {
		d->err = true;
		return 0;
	}
	put(d, "for<");
	for (i = 0; i < n; i++) {
		if (i)
			put(d, ", ");
		d->bound_lt++;
		lifetime_from_index(d, 1);
	}
	put(d, "> ");
	return n;
}

static void
generic_arg(struct rd *d)
{
	if (eat(d, 'L'))
		lifetime_from_index(d, base62(d));
	else if (eat(d, 'K'))
		konst(d);
	else
		type(d);
}

static void
generic_args(struct rd *d)
{
	bool first = true;

	while (!d->err && !eat(d, 'E')) {
		if (!first)
			put(d, ", ");
		first = false;
		generic_arg(d);
	}
}

static void
path_ns(struct rd *d, bool in_value)
{
	int ns = next(d);
	struct ident id;
	uint64_t dis;
	char buf[40];

	path(d, in_value);
	dis = opt_base62(d, 's');
	id = ident(d);
	if (d->err)
		return;
	if (ns >= 'a' && ns <= 'z') {
		if (id.n) {
			put(d, "::");
			put_ident(d, id);
		}
		return;
	}
	put(d, "::{");
	if (ns == 'C')
		put(d, "closure");
	else if (ns == 'S')
		put(d, "shim");
	else
		put_n(d, &(char){ (char)ns }, 1);
	if (id.n) {
		put(d, ":");
		put_ident(d, id);
	}
	snprintf(buf, sizeof(buf), "#%llu}", (unsigned long long)dis);
	put(d, buf);
}

/* impl-path: a disambiguator and a path that is not printed */
static void
skip_impl_path(struct rd *d)
{
	char *saved = d->out;
	size_t len = d->out_len, cap = d->out_cap;

	opt_base62(d, 's');
	d->out = NULL;
	d->out_len = d->out_cap = 0;
	path(d, false);
	free(d->out);
	d->out = saved;
	d->out_len = len;
	d->out_cap = cap;
}

static void
path(struct rd *d, bool in_value)
{
	int c;

	if (!enter(d))
		return;
	c = next(d);
	switch (c) {
	case 'C':
		opt_base62(d, 's');
		put_ident(d, ident(d));
		break;
	case 'M':
		skip_impl_path(d);
		put(d, "<");
		type(d);
		put(d, ">");
		break;
	case 'X':
		skip_impl_path(d);
		put(d, "<");
		type(d);
		put(d, " as ");
		path(d, false);
		put(d, ">");
		break;
	case 'Y':
		put(d, "<");
		type(d);
		put(d, " as ");
		path(d, false);
		put(d, ">");
		break;
	case 'N':
		path_ns(d, in_value);
		break;
	case 'I':
		path(d, in_value);
		if (in_value)
			put(d, "::");
		put(d, "<");
		generic_args(d);
		put(d, ">");
		break;
	case 'B':
		backref(d, in_value ? RD_PATH_VALUE : RD_PATH);
		break;
	default:
		d->err = true;
		break;
	}
	d->depth--;
}

static const char *
basic_type(int c)
{
	switch (c) {
	case 'a': return "i8";
	case 'b': return "bool";
	case 'c': return "char";
	case 'd': return "f64";
	case 'e': return "str";
	case 'f': return "f32";
	case 'h': return "u8";
	case 'i': return "isize";
	case 'j': return "usize";
	case 'l': return "i32";
	case 'm': return "u32";
	case 'n': return "i128";
	case 'o': return "u128";
	case 's': return "i16";
	case 't': return "u16";
	case 'u': return "()";
	case 'v': return "...";
	case 'x': return "i64";
	case 'y': return "u64";
	case 'z': return "!";
	case 'p': return "_";
	default: return NULL;
	}
}

static void
fn_sig(struct rd *d)
{
	uint64_t saved = d->bound_lt;
	bool first = true;

	binder(d);
	if (eat(d, 'U'))
		put(d, "unsafe ");
	if (eat(d, 'K')) {
		put(d, "extern \"");
		if (eat(d, 'C')) {
			put(d, "C");
		} else {
			struct ident id = ident(d);
			size_t i;

			for (i = 0; !d->err && i < id.n; i++)
				put_n(d, id.p[i] == '_' ? "-" : id.p + i, 1);
		}
		put(d, "\" ");
	}
	put(d, "fn(");
	while (!d->err && !eat(d, 'E')) {
		if (!first)
			put(d, ", ");
		first = false;
		type(d);
	}
	put(d, ")");
	if (eat(d, 'u')) {
		/* unit return type: nothing */
	} else {
		put(d, " -> ");
		type(d);
	}
	d->bound_lt = saved;
}

/* A path whose generic arguments may stay open for associated bindings. */
static bool
path_open(struct rd *d)
{
	size_t save;
	uint64_t to;
	bool open;

	if (peek(d) == 'B') {
		size_t start = d->pos;

		d->pos++;
		to = base62(d);
		if (d->err || to >= start) {
			d->err = true;
			return false;
		}
		save = d->pos;
		d->pos = (size_t)to;
		open = path_open(d);
		d->pos = save;
		return open;
	}
	if (eat(d, 'I')) {
		path(d, false);
		put(d, "<");
		generic_args(d);
		return true;
	}
	path(d, false);
	return false;
}

static void
dyn_bounds(struct rd *d)
{
	uint64_t saved = d->bound_lt, lt;
	bool first = true;

	put(d, "dyn ");
	binder(d);
	while (!d->err && !eat(d, 'E')) {
		bool open;

		if (!first)
			put(d, " + ");
		first = false;
		if (!enter(d))
			break;
		open = path_open(d);
		while (!d->err && eat(d, 'p')) {
			put(d, open ? ", " : "<");
			open = true;
			put_ident(d, ident(d));
			put(d, " = ");
			type(d);
		}
		if (open)
			put(d, ">");
		d->depth--;
	}
	d->bound_lt = saved;
	if (!eat(d, 'L')) {
		d->err = true;
		return;
	}
	lt = base62(d);
	if (lt) {
		put(d, " + ");
		lifetime_from_index(d, lt);
	}
}

static void
type(struct rd *d)
{
	const char *basic;
	int c;

	if (!enter(d))
		return;
	c = peek(d);
	basic = basic_type(c);
	if (basic) {
		d->pos++;
		put(d, basic);
		d->depth--;
		return;
	}
	switch (c) {
	case 'A':
	case 'S':
		d->pos++;
		put(d, "[");
		type(d);
		if (c == 'A') {
			put(d, "; ");
			konst(d);
		}
		put(d, "]");
		break;
	case 'T': {
		size_t n = 0;

		d->pos++;
		put(d, "(");
		while (!d->err && !eat(d, 'E')) {
			if (n++)
				put(d, ", ");
			type(d);
		}
		if (n == 1)
			put(d, ",");
		put(d, ")");
		break;
	}
	case 'R':
	case 'Q':
		d->pos++;
		put(d, "&");
		if (eat(d, 'L')) {
			uint64_t lt = base62(d);

			/* "&'a T", "&'a mut T" */
			if (lt) {
				lifetime_from_index(d, lt);
				put(d, " ");
			}
		}
		if (c == 'Q')
			put(d, "mut ");
		type(d);
		break;
	case 'P':
	case 'O':
		d->pos++;
		put(d, c == 'P' ? "*const " : "*mut ");
		type(d);
		break;
	case 'F':
		d->pos++;
		fn_sig(d);
		break;
	case 'D':
		d->pos++;
		dyn_bounds(d);
		break;
	case 'B':
		d->pos++;
		backref(d, RD_TYPE);
		break;
	default:
		path(d, false);
		break;
	}
	d->depth--;
}

static void
konst(struct rd *d)
{
	uint64_t v = 0;
	size_t digits = 0, start;
	bool neg = false;
	char buf[64];
	int t;

	if (!enter(d))
		return;
	if (eat(d, 'B')) {
		backref(d, RD_CONST);
		d->depth--;
		return;
	}
	t = next(d);
	if (t == 'p') {
		put(d, "_");
		d->depth--;
		return;
	}
	if (!strchr("hmtyjoaslxinbc", t) || !t) {
		d->err = true;
		d->depth--;
		return;
	}
	neg = strchr("aslxin", t) && eat(d, 'n');
	start = d->pos;
	for (;;) {
		int c = next(d);

		if (c == '_' || d->err)
			break;
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
			d->err = true;
			break;
		}
		digits++;
		v = v << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
	}
	if (d->err) {
		d->depth--;
		return;
	}
	if (digits > 16) {
		put(d, "0x");
		put_n(d, d->s + start, digits);
	} else if (t == 'b') {
		put(d, v == 0 ? "false" : v == 1 ? "true" : "?");
		if (v > 1)
			d->err = true;
	} else if (t == 'c') {
		if (v >= 0x20 && v < 0x7f && v != '\'' && v != '\\')
			snprintf(buf, sizeof(buf), "'%c'", (char)v);
		else
			snprintf(buf, sizeof(buf), "'\\u{%llx}'",
				 (unsigned long long)v);
		put(d, buf);
	} else {
		snprintf(buf, sizeof(buf), "%s%llu", neg ? "-" : "",
			 (unsigned long long)v);
		put(d, buf);
	}
	d->depth--;
}

char *
sym_demangle_rust_v0(const char *name)
{
	struct rd d;
	size_t len;

	if (strncmp(name, "_R", 2) != 0)
		return NULL;
	memset(&d, 0, sizeof(d));
	d.s = name + 2;
	len = strlen(d.s);
	/* a ".suffix" (".llvm.123") is not part of the name */
	d.len = strcspn(d.s, ".");
	if (d.len < len && d.len == 0)
		return NULL;
	if (peek(&d) >= '0' && peek(&d) <= '9')
		return NULL;
	path(&d, true);
	/* an instantiating crate may follow; it is not printed */
	if (d.err || !d.out) {
		free(d.out);
		return NULL;
	}
	return d.out;
}

static int
lower_hex(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static bool
legacy_hash(const char *p, size_t n)
{
	unsigned seen = 0;
	int count = 0;
	size_t i;

	if (n != 17 || p[0] != 'h')
		return false;
	for (i = 1; i < 17; i++) {
		int v = lower_hex(p[i]);

		if (v < 0)
			return false;
		seen |= 1u << v;
	}
	for (; seen; seen >>= 1)
		count += seen & 1;
	return count >= 5;
}

static const struct {
	const char *seq;
	char c;
} legacy_escapes[] = {
	{ "SP", '@' }, { "BP", '*' }, { "RF", '&' }, { "LT", '<' },
	{ "GT", '>' }, { "LP", '(' }, { "RP", ')' }, { "C", ',' },
};

/* One "$...$" escape at p (after the '$'): its length with the closing '$'. */
static size_t
legacy_escape(struct rd *d, const char *p, size_t n)
{
	const char *end = memchr(p, '$', n);
	size_t len, i;
	char buf[8];

	if (!end)
		return 0;
	len = (size_t)(end - p);
	for (i = 0; i < sizeof(legacy_escapes) / sizeof(legacy_escapes[0]); i++) {
		if (strlen(legacy_escapes[i].seq) == len &&
		    !memcmp(p, legacy_escapes[i].seq, len)) {
			put_n(d, &legacy_escapes[i].c, 1);
			return len + 1;
		}
	}
	if (len >= 2 && len <= 7 && p[0] == 'u') {
		unsigned long cp = 0;

		for (i = 1; i < len; i++) {
			int v = lower_hex(p[i]);

			if (v < 0)
				return 0;
			cp = cp << 4 | (unsigned)v;
		}
		if (cp < 0x80) {
			buf[0] = (char)cp;
			put_n(d, buf, 1);
		} else if (cp < 0x800) {
			buf[0] = (char)(0xc0 | cp >> 6);
			buf[1] = (char)(0x80 | (cp & 0x3f));
			put_n(d, buf, 2);
		} else if (cp < 0x10000) {
			buf[0] = (char)(0xe0 | cp >> 12);
			buf[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
			buf[2] = (char)(0x80 | (cp & 0x3f));
			put_n(d, buf, 3);
		} else if (cp < 0x110000) {
			buf[0] = (char)(0xf0 | cp >> 18);
			buf[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
			buf[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
			buf[3] = (char)(0x80 | (cp & 0x3f));
			put_n(d, buf, 4);
		} else {
			return 0;
		}
		return len + 1;
	}
	return 0;
}

static void
legacy_component(struct rd *d, const char *p, size_t n)
{
	size_t i = 0;

	if (n >= 2 && p[0] == '_' && p[1] == '$')
		i = 1;
	while (i < n && !d->err) {
		if (p[i] == '$') {
			size_t k = legacy_escape(d, p + i + 1, n - i - 1);

			if (!k) {
				/* not an escape we know: the rest as it is */
				put_n(d, p + i, n - i);
				return;
			}
			i += 1 + k;
		} else if (p[i] == '.' && i + 1 < n && p[i + 1] == '.') {
			put(d, "::");
			i += 2;
		} else {
			put_n(d, p + i, 1);
			i++;
		}
	}
}

/*
 * A legacy Rust name ("_ZN...17h<16 hex>E", maybe with a ".suffix"), as
 * libiberty prints it: the path joined by "::", escapes decoded, the
 * hash left out.  NULL when it is not one.
 */
char *
sym_demangle_rust_legacy(const char *name)
{
	const char *p, *end;
	struct rd d;
	size_t n;
	bool first = true;

	if (strncmp(name, "_ZN", 3) != 0)
		return NULL;
	p = name + 3;
	end = name + strlen(name);
	/* drop a ".suffix" after the final 'E' */
	if (end > p && end[-1] != 'E') {
		const char *q;

		for (q = p + 1; q < end; q++)
			if (*q == '.' && q[-1] == 'E')
				break;
		if (q >= end)
			return NULL;
		end = q;
	}
	if (end - p < 20 || memcmp(end - 20, "17h", 3) != 0)
		return NULL;
	end--;	/* the 'E' */
	for (n = 0; p + n < end; n++) {
		int c = (unsigned char)p[n];

		if (!(c == '_' || c == '$' || c == '.' || c == ':' ||
		      (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		      (c >= 'A' && c <= 'Z')))
			return NULL;
	}
	memset(&d, 0, sizeof(d));
	while (p < end && !d.err) {
		size_t len = 0;

		if (*p < '0' || *p > '9')
			break;
		while (p < end && *p >= '0' && *p <= '9') {
			len = len * 10 + (size_t)(*p - '0');
			if (len > 4096)
				break;
			p++;
		}
		if (len == 0 || len > (size_t)(end - p))
			break;
		if (p + len == end) {
			if (!legacy_hash(p, len))
				break;
			p += len;
			break;
		}
		if (!first)
			put(&d, "::");
		first = false;
		legacy_component(&d, p, len);
		p += len;
	}
	if (p != end || d.err || !d.out) {
		free(d.out);
		return NULL;
	}
	return d.out;
}
