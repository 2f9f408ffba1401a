/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/demangle.c - symbol names as perf 6.1 (Debian build, no libbfd)
 * prints them by default.
 *
 * That perf demangles with libiberty's cplus_demangle() and no options:
 * C++ names come out without parameters, return type, qualifiers or
 * clone suffixes ("ns::K::spin", "tmpl<long>"); Rust names, legacy
 * ("rs::spin_here", no hash) and v0, come from libiberty's Rust
 * demangler, tried first (demangle-rust.c); OCaml "camlX__y" names,
 * which libiberty leaves alone, become "X.y" through perf's own pass.
 *
 * libstdc++'s __cxa_demangle is the same demangler with parameters on;
 * it is looked up at run time (no build dependency), and its output is
 * cut back to the name, but with perf's -v (DMGL_PARAMS | DMGL_ANSI),
 * which prints it whole.  Without libstdc++ names stay mangled.
 */
#include "config.h"

#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/sym-int.h"

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

static cxa_demangle_fn cxa_demangle;

static void
find_cxa_demangle(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
	void *f;

	if (!h)
		return;
	f = dlsym(h, "__cxa_demangle");
	if (f)
		memcpy(&cxa_demangle, &f, sizeof(f));
}

static void
strip_suffix(char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	if (n >= m && strcmp(s + n - m, suffix) == 0)
		s[n - m] = '\0';
}

/* Remove trailing " [clone .x]" groups and function qualifiers. */
static void
strip_trailers(char *s)
{
	static const char *const quals[] = {
		" const", " volatile", " &&", " &", " noexcept",
		" transaction_safe",
	};
	bool again = true;

	while (again) {
		size_t n = strlen(s), i;
		char *p;

		again = false;
		if (n && s[n - 1] == ']' && (p = strstr(s, " [clone ")) != NULL) {
			*p = '\0';
			again = true;
			continue;
		}
		for (i = 0; i < sizeof(quals) / sizeof(quals[0]); i++) {
			size_t before = strlen(s);

			strip_suffix(s, quals[i]);
			if (strlen(s) != before)
				again = true;
		}
	}
}

/*
 * The end of an "operator..." token starting at p, else p: the operator's
 * symbol (longest match), or for conversion operators, new and delete
 * the space after the keyword, so that it is not taken for the space
 * after a return type.
 */
static const char *
skip_operator(const char *p)
{
	static const char *const ops[] = {
		"<<=", ">>=", "<=>", "->*", "()", "[]", "<<", ">>", "<=",
		">=", "==", "!=", "&&", "||", "++", "--", "->", "+=", "-=",
		"*=", "/=", "%=", "&=", "|=", "^=", "+", "-", "*", "/", "%",
		"^", "&", "|", "~", "!", "=", "<", ">", ",",
	};
	size_t i;

	if (strncmp(p, "operator", 8) != 0)
		return p;
	p += 8;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i]);

		if (strncmp(p, ops[i], n) == 0) {
			p += n;
			/* "operator<< <T>": the space before template arguments */
			if (p[0] == ' ' && p[1] == '<')
				p++;
			return p;
		}
	}
	if (p[0] == ' ')
		p++;
	return p;
}

/* Cut the top-level parameter list "(...)" off a demangled name. */
static void
strip_params(char *s)
{
	size_t n = strlen(s);
	int depth = 0;
	size_t i;

	if (!n || s[n - 1] != ')')
		return;
	for (i = n; i-- > 0;) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			break;
	}
	if (depth == 0 && i < n)
		s[i] = '\0';
}

/* A template function's return type comes first: drop it. */
static void
strip_return_type(char *s)
{
	size_t n = strlen(s), cut = 0;
	const char *p = s;
	int depth = 0;

	if (!n || s[n - 1] != '>')
		return;
	while (*p) {
		const char *q = skip_operator(p);

		if (q != p) {
			p = q;
			continue;
		}
		switch (*p) {
		case '<': case '(': case '[': case '{':
			depth++;
			break;
		case '>': case ')': case ']': case '}':
			depth--;
			break;
		case ' ':
			if (depth == 0)
				cut = (size_t)(p - s) + 1;
			break;
		default:
			break;
		}
		p++;
	}
	if (cut)
		memmove(s, s + cut, n - cut + 1);
}

/*
 * Special names print their inner encoding whole (with parameters):
 * "non-virtual thunk to X::~X()", "vtable for X".
 */
static bool
is_special(const char *d)
{
	static const char *const prefixes[] = {
		"non-virtual thunk to ", "virtual thunk to ",
		"covariant return thunk to ", "VTT for ", "vtable for ",
		"typeinfo for ", "typeinfo name for ", "typeinfo fn for ",
		"construction vtable for ", "guard variable for ",
		"reference temporary #", "hidden alias for ",
		"transaction clone for ", "non-transaction clone for ",
		"TLS init function for ", "TLS wrapper function for ",
		"java Class for ", "java resource ",
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(d, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

static char *
demangle_cxx(const char *name, enum sym_demangle_mode mode)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	int status = -1;
	char *d;

	pthread_once(&once, find_cxa_demangle);
	if (!cxa_demangle || strncmp(name, "_Z", 2) != 0)
		return NULL;
	d = cxa_demangle(name, NULL, NULL, &status);
	if (!d || status != 0) {
		free(d);
		return NULL;
	}
	if (is_special(d) || mode == SYM_DEMANGLE_PARAMS)
		return d;
	strip_trailers(d);
	strip_params(d);
	strip_trailers(d);
	strip_return_type(d);
	return d;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static char *
ocaml_demangle(const char *s)
{
	size_t i = 4, j = 0, len = strlen(s);
	char *r;

	if (strncmp(s, "caml", 4) != 0 || !isupper((unsigned char)s[4]))
		return NULL;
	r = malloc(len + 1);
	if (!r)
		return NULL;
	while (i < len) {
		if (s[i] == '_' && s[i + 1] == '_') {
			r[j++] = '.';
			i += 2;
		} else if (s[i] == '$' && hexval(s[i + 1]) >= 0 &&
			   hexval(s[i + 2]) >= 0) {
			r[j++] = (char)(hexval(s[i + 1]) << 4 | hexval(s[i + 2]));
			i += 3;
		} else {
			r[j++] = s[i++];
		}
	}
	r[j] = '\0';
	return r;
}

char *
sym_demangle(const char *name, enum sym_demangle_mode mode)
{
	char *d;

	if (mode == SYM_DEMANGLE_NONE)
		return NULL;
	if (name[0] == '_' && name[1] == 'R')
		return sym_demangle_rust_v0(name);
	d = sym_demangle_rust_legacy(name);
	if (!d)
		d = demangle_cxx(name, mode);
	return d ? d : ocaml_demangle(name);
}
