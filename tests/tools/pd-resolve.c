/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/tools/pd-resolve.c - run preport's session over a perf.data file
 * and print every sample as `perf script -F comm,pid,tid,time,ip,sym,dso
 * --ns` prints it (with the callchain, one frame a line, when the file
 * has callchains), so that tests can compare the session's time order,
 * threads, maps and symbols with perf's.
 *
 * Usage: pd-resolve [--symfs DIR] [--kallsyms FILE] [--max-stack N]
 *                   [--no-callchain] [--no-time] [--branches] [--count]
 *                   [--threads N] FILE
 * --no-time leaves the time out (perf script -F without time), --count
 * prints only the number of samples delivered (for timing), --branches
 * prints a line per branch-stack entry instead of the samples: its
 * dso_from, symbol_from, dso_to and symbol_to as perf report shows them.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdata/reader.h"
#include "script/dsoname.h"
#include "session/session.h"
#include "symbol/symbol.h"

struct out {
	FILE *fp;
	struct pd_reader *r;
	bool callchains;
	bool count_only;	/* --count: only the number of samples */
	bool no_time;		/* --no-time: -F without time */
	bool branches;		/* --branches: a line per branch instead */
	unsigned long samples;
};

static struct pd_reader *the_reader;

static const char *
dso_name(const struct ses_loc *l)
{
	return scr_dso_name(pd_reader_meta(the_reader), l);
}

/* a frame's address: the offset in a user DSO, else the ip */
static uint64_t
frame_addr(const struct ses_loc *l)
{
	if (l->map && l->cpumode != PD_MISC_KERNEL &&
	    l->cpumode != PD_MISC_GUEST_KERNEL)
		return l->al_addr;
	return l->ip;
}

static const char *
sym_name(const struct ses_loc *l)
{
	return l->sym ? l->sym->name : "[unknown]";
}

static void
print_time(FILE *fp, uint64_t t)
{
	fprintf(fp, "%5" PRIu64 ".%09" PRIu64 ": ", t / 1000000000u,
		t % 1000000000u);
}

/* a symbol column of perf report: "[l] name", or the address */
static void
print_report_sym(FILE *fp, const struct ses_loc *l)
{
	fprintf(fp, "[%c] ", l->level);
	if (!l->sym)
		fprintf(fp, "%#.16" PRIx64, l->al_addr);
	else if (l->sym->is_object)
		fprintf(fp, "%s+0x%" PRIx64, l->sym->name,
			l->al_addr - l->sym->start);
	else
		fputs(l->sym->name, fp);
}

/*
 * --branches: each branch as perf report --branch-stack's columns
 * dso_from, symbol_from, dso_to, symbol_to show it.
 */
static const char *
report_dso(const struct ses_loc *l)
{
	return l->dso ? sym_dso_short_name(l->dso) : "[unknown]";
}

static void
print_branches(FILE *fp, const struct ses_sample *s)
{
	const struct ses_branch *b;
	size_t i;

	for (i = 0; i < s->nr_branches; i++) {
		b = &s->branches[i];
		fprintf(fp, "%s ", report_dso(&b->from));
		print_report_sym(fp, &b->from);
		fprintf(fp, " %s ", report_dso(&b->to));
		print_report_sym(fp, &b->to);
		fputc('\n', fp);
	}
}

static void
on_sample(void *ctx, const struct ses_sample *s)
{
	struct out *o = ctx;
	const struct pd_evsel *ev = pd_reader_evsel(o->r, s->evsel);
	bool cc = o->callchains && ev &&
		(ev->attr.sample_type & PD_SAMPLE_CALLCHAIN);
	size_t i;

	o->samples++;
	if (s->filtered || o->count_only)
		return;
	if (o->branches) {
		print_branches(o->fp, s);
		return;
	}
	if (cc)
		fprintf(o->fp, "%s ", s->comm);
	else
		fprintf(o->fp, "%16s ", s->comm);
	fprintf(o->fp, "%5d/%-5d ", s->pid, s->tid);
	if (!o->no_time)
		print_time(o->fp, s->time);
	if (!cc) {
		fprintf(o->fp, " %16" PRIx64 " %s (%s)\n", s->self.ip,
			sym_name(&s->self), dso_name(&s->self));
		return;
	}
	fputc('\n', o->fp);
	for (i = 0; i < s->nr_chain; i++)
		fprintf(o->fp, "\t%16" PRIx64 " %s (%s)\n",
			frame_addr(&s->chain[i]), sym_name(&s->chain[i]),
			dso_name(&s->chain[i]));
	fputc('\n', o->fp);
}

static void
on_warn(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "pd-resolve: %s\n", msg);
}

static void
usage(void)
{
	fputs("usage: pd-resolve [--symfs DIR] [--kallsyms FILE]"
	      " [--max-stack N] [--no-callchain]\n"
	      "                  [--no-time] [--branches] [--count] [--threads N] FILE\n",
	      stderr);
	exit(2);
}

int
main(int argc, char **argv)
{
	struct ses_opts sopts = { .threads = ses_threads_default() };
	struct ses_ops ops = { .sample = on_sample };
	struct sym_opts yopts = { .warn = on_warn };
	struct out o = { .fp = stdout, .callchains = true };
	struct pd_reader *r = NULL;
	struct ses_session *s;
	struct sym_ctx *syms;
	const char *path = NULL;
	int i, err;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--symfs") && i + 1 < argc)
			yopts.symfs = argv[++i];
		else if (!strcmp(argv[i], "--kallsyms") && i + 1 < argc)
			yopts.kallsyms = argv[++i];
		else if (!strcmp(argv[i], "--max-stack") && i + 1 < argc)
			sopts.max_stack =
				(unsigned int)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--no-callchain"))
			o.callchains = false;
		else if (!strcmp(argv[i], "--count"))
			o.count_only = true;
		else if (!strcmp(argv[i], "--no-time"))
			o.no_time = true;
		else if (!strcmp(argv[i], "--branches"))
			o.branches = sopts.branches = true;
		else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
			sopts.threads =
				(unsigned int)strtoul(argv[++i], NULL, 0);
		else if (argv[i][0] == '-' && argv[i][1])
			usage();
		else if (!path)
			path = argv[i];
		else
			usage();
	}
	if (!path)
		usage();
	sopts.no_callchain = !o.callchains;
	err = pd_reader_open(&r, path, NULL);
	if (err) {
		fprintf(stderr, "pd-resolve: %s: %s\n", path,
			r ? pd_reader_errmsg(r) : "out of memory");
		pd_reader_close(r);
		return 1;
	}
	if (pd_reader_meta(r))
		yopts.os_release = pd_reader_meta(r)->os_release;
	syms = sym_ctx_new(&yopts);
	if (!syms) {
		fprintf(stderr, "pd-resolve: cannot set up symbols\n");
		pd_reader_close(r);
		return 1;
	}
	o.r = r;
	the_reader = r;
	s = ses_new(r, syms, &sopts);
	err = ses_run(s, &ops, &o);
	if (err)
		fprintf(stderr, "pd-resolve: %s: %s\n", path,
			ses_errmsg(s));
	ses_free(s);
	sym_ctx_free(syms);
	pd_reader_close(r);
	if (o.count_only)
		printf("%lu samples\n", o.samples);
	if (fflush(stdout) || ferror(stdout))
		return 1;
	return err ? 1 : 0;
}
