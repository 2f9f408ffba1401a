/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * export/collapsed.c - pexport --to collapsed: one line per distinct
 * stack, "comm;root;...;leaf count", what FlameGraph's
 * stackcollapse-perf.pl makes of `perf script` text, by its rules
 * (doc/pexport.1: COLLAPSED STACKS), from the profile's rows.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "lib/strbuf.h"
#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "pdata/abi.h"

struct line {
	char *text;
	uint64_t count;
	uint32_t next;		/* 1 + next line with the same hash */
};

struct lines {
	struct u64map head;	/* hash -> 1 + first line */
	struct line *v;
	size_t nr, cap;
};

static void
lines_add(struct lines *l, const char *text, uint64_t count)
{
	uint64_t h = u64map_str_key(text);
	uint64_t *slot = u64map_slot(&l->head, h);
	uint32_t i;

	for (i = (uint32_t)*slot; i; i = l->v[i - 1].next)
		if (!strcmp(l->v[i - 1].text, text)) {
			l->v[i - 1].count += count;
			return;
		}
	if (l->nr == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		l->v = xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	l->v[l->nr] = (struct line){ xstrdup(text), count, (uint32_t)*slot };
	*slot = ++l->nr;
}

static int
line_cmp(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->text,
		      ((const struct line *)b)->text);
}

void
exp_collapsed_pname(struct strbuf *sb, const struct exp_row *r,
		    const struct exp_opts *o)
{
	size_t from = sb->len;

	sb_add(sb, r->comm);
	/* the script takes a tid of 0 for a missing one: "comm-?/pid" */
	if (o->with_tid && !r->tid)
		sb_addf(sb, "-?/%" PRIi32, r->pid);
	else if (o->with_tid)
		sb_addf(sb, "-%" PRIi32 "/%" PRIi32, r->pid, r->tid);
	else if (o->with_pid && !r->tid)
		sb_add(sb, "-?");
	else if (o->with_pid)
		sb_addf(sb, "-%" PRIi32, r->pid);
	for (size_t i = from; i < sb->len; i++)
		if (sb->s[i] == ' ')
			sb->s[i] = '_';
}

/*
 * The script's generic tidying: ';' becomes ':', everything from the
 * first '(' that does not open "(anonymous namespace)" is dropped unless
 * the name looks like a Go method ("pkg.(*T).M"), quotes are removed.
 */
static bool
go_method(const char *s)
{
	const char *open = strstr(s, ".(");

	return open && strstr(open + 2, ").");
}

static void
add_tidy(struct strbuf *sb, const char *name, bool java)
{
	bool cut = !go_method(name);

	if (java && name[0] == 'L' && strchr(name, '/'))
		name++;
	for (const char *p = name; *p; p++) {
		if (cut && *p == '(' &&
		    strncmp(p, "(anonymous namespace)", 21))
			break;
		if (*p == '"' || *p == '\'')
			continue;
		sb_addc(sb, *p == ';' ? ':' : *p);
	}
}

static bool
kernel_module_name(const char *mod)
{
	size_t n = strlen(mod);

	if (strstr(mod, "unknown"))
		return false;
	return mod[0] == '[' || (n >= 7 && !strcmp(mod + n - 7, "vmlinux"));
}

/* /tmp/perf-<digits>.map anywhere in the name */
static bool
jit_module_name(const char *mod)
{
	for (const char *p = strstr(mod, "/tmp/perf-"); p;
	     p = strstr(p + 1, "/tmp/perf-")) {
		const char *d = p + 10;

		if (*d < '0' || *d > '9')
			continue;
		while (*d >= '0' && *d <= '9')
			d++;
		if (!strncmp(d, ".map", 4))
			return true;
	}
	return false;
}

/* perf script's symbol offset: "+0x1a" */
static void
add_symoff(struct strbuf *sb, const struct exp_loc *l)
{
	uint64_t off = l->al_addr - l->sym->start;

	if (l->al_addr >= l->sym->end && l->map)
		off = l->al_addr - l->map->start - l->sym->start;
	sb_addf(sb, "+0x%" PRIx64, off);
}

/*
 * The frame's text as perf script prints it, "name+0xoff (module)",
 * split as the script's pattern splits it: at the last " (" that a ')'
 * follows, the module ending at the last ')'.  A module with " (" in it
 * ("/memfd:x (deleted)") moves the split, as it does in the script.
 */
static void
script_split(struct strbuf *line, const struct exp_profile *p,
	     const struct exp_loc *l, const char **func, const char **mod)
{
	const struct exp_func *f = &p->funcs[l->func];
	char *close, *open = NULL;

	sb_reset(line);
	sb_add(line, exp_func_name(f));
	if (l->sym)
		add_symoff(line, l);
	sb_add(line, " (");
	sb_add(line, f->dso_name);
	sb_addc(line, ')');
	close = strrchr(line->s, ')');
	for (char *q = line->s + 1; q + 2 <= close; q++)
		if (q[0] == ' ' && q[1] == '(')
			open = q;
	*open = '\0';
	*close = '\0';
	*func = line->s;
	*mod = open + 2;
}

/* The script drops a trailing "+0x<hex>" from the name. */
static size_t
name_len(const char *func)
{
	size_t n = strlen(func), k = n;

	while (k > 0 && strchr("0123456789abcdef", func[k - 1]))
		k--;
	if (k < n && k >= 3 && !strncmp(func + k - 3, "+0x", 3))
		return k - 3;
	return n;
}

/*
 * An unknown function: its module's file name, "[libc.so.6]"; with
 * --addrs the address perf script prints, "[libc.so.6 <2724a>]".
 */
static void
unknown_name(struct strbuf *sb, const char *mod, uint64_t addr,
	     const struct exp_opts *o)
{
	const char *base = strrchr(mod, '/');

	sb_reset(sb);
	sb_addc(sb, '[');
	sb_add(sb, strcmp(mod, "[unknown]") ? (base ? base + 1 : mod) :
	       "unknown");
	if (o->addrs)
		sb_addf(sb, " <%" PRIx64 ">", addr);
	sb_addc(sb, ']');
}

/*
 * The script's annotation classes: --all's _[k] and _[j]; an inline
 * frame (perf script's "(inlined)") keeps its plain name, as the script
 * marks _[i] only in its own --inline mode, but its class colours it.
 */
static enum exp_code
frame_code(const struct exp_profile *p, const struct exp_loc *loc,
	   const char *mod)
{
	if (p->funcs[loc->func].code == EXP_CODE_INLINED)
		return EXP_CODE_INLINED;
	if (kernel_module_name(mod))
		return EXP_CODE_KERNEL;
	if (jit_module_name(mod))
		return EXP_CODE_JIT;
	return EXP_CODE_USER;
}

static const char *const annotation[] = {
	[EXP_CODE_USER] = "",
	[EXP_CODE_KERNEL] = "_[k]",
	[EXP_CODE_JIT] = "_[j]",
	[EXP_CODE_INLINED] = "",
};

int
exp_collapsed_frame(struct strbuf *sb, struct exp_frame_scratch *t,
		    const struct exp_profile *p, const struct exp_loc *loc,
		    const struct exp_opts *o, bool java)
{
	const char *func, *mod;
	enum exp_code code;

	script_split(&t->line, p, loc, &func, &mod);
	func = xstrndup(func, name_len(func));
	if (func[0] == '(') {
		free((char *)func);
		return -1;	/* the script skips these as process names */
	}
	if (!strcmp(func, "[unknown]"))
		unknown_name(&t->name, mod, loc->al_addr, o);
	add_tidy(sb, strcmp(func, "[unknown]") ? func : sb_str(&t->name),
		 java);
	free((char *)func);
	code = frame_code(p, loc, mod);
	if (o->annotate)
		sb_add(sb, annotation[code]);
	return (int)code;
}

static void
row_line(struct strbuf *sb, struct exp_frame_scratch *tmp,
	 const struct exp_profile *p, const struct exp_row *r,
	 const struct exp_opts *o)
{
	const uint32_t *locs = exp_stack_locs(p, r->stack);
	size_t n = exp_stack_len(p, r->stack);
	bool java = !strncmp(r->comm, "java", 4);

	sb_reset(sb);
	exp_collapsed_pname(sb, r, o);
	while (n--) {
		size_t len = sb->len;

		sb_addc(sb, ';');
		if (exp_collapsed_frame(sb, tmp, p, &p->locs[locs[n]], o,
					java) < 0) {
			sb->len = len;
			sb->s[len] = '\0';
		}
	}
}

bool
exp_counts_period(struct pd_reader *r, unsigned int evsel)
{
	const struct pd_attr *a = &pd_reader_evsel(r, evsel)->attr;

	return a->type != PD_TYPE_TRACEPOINT && a->type != PD_TYPE_SYNTH &&
	       (a->sample_type & PD_SAMPLE_PERIOD);
}

int
exp_collapsed(struct exp_run *x, void *state)
{
	struct exp_profile *p = &x->profile;
	struct strbuf sb = STRBUF_INIT;
	struct exp_frame_scratch tmp = { STRBUF_INIT, STRBUF_INIT };
	struct lines lines = { .head = U64MAP_INIT };
	bool period;
	int ev = exp_chosen_evsel(x);

	(void)state;
	if (ev < 0)
		return x->o->event ? -1 : 0;
	period = exp_counts_period(x->r, (unsigned int)ev);
	for (size_t i = 0; i < p->nr_rows; i++) {
		const struct exp_row *r = &p->rows[i];

		if (r->evsel != (unsigned int)ev)
			continue;
		row_line(&sb, &tmp, p, r, x->o);
		lines_add(&lines, sb_str(&sb), period ? r->period : r->samples);
	}
	qsort(lines.v, lines.nr, sizeof(*lines.v), line_cmp);
	for (size_t i = 0; i < lines.nr; i++) {
		fprintf(x->out, "%s %" PRIu64 "\n", lines.v[i].text,
			lines.v[i].count);
		free(lines.v[i].text);
	}
	free(lines.v);
	u64map_free(&lines.head);
	sb_free(&sb);
	sb_free(&tmp.line);
	sb_free(&tmp.name);
	return 0;
}
