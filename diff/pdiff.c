/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * diff/pdiff.c - pdiff's command line and its run: perf 6.1's `perf
 * diff` (builtin-diff.c: its options, the default files, one section per
 * event of the baseline).
 */
#include "config.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff/diff.h"
#include "lib/diag.h"
#include "lib/term.h"
#include "lib/xalloc.h"
#include "pdata/reader.h"
#include "pdata/records.h"
#include "report/hist/hist-int.h"

enum {
	OPT_KALLSYMS = 256,
	OPT_SYMFS,
	OPT_PERCENTAGE,
	OPT_TIME,
	OPT_CPU,
	OPT_PID,
	OPT_TID,
	OPT_VERSION,
	OPT_NO_PAGER,
	/* perf diff's options that pdiff refuses */
	OPT_CYCLES_HIST,
	OPT_STREAM,
};

static const struct option long_options[] = {
	{ "verbose",		no_argument,       NULL, 'v' },
	{ "quiet",		no_argument,       NULL, 'q' },
	{ "baseline-only",	no_argument,       NULL, 'b' },
	{ "compute",		required_argument, NULL, 'c' },
	{ "period",		no_argument,       NULL, 'p' },
	{ "formula",		no_argument,       NULL, 'F' },
	{ "cycles-hist",	no_argument,       NULL, OPT_CYCLES_HIST },
	{ "dump-raw-trace",	no_argument,       NULL, 'D' },
	{ "force",		no_argument,       NULL, 'f' },
	{ "kallsyms",		required_argument, NULL, OPT_KALLSYMS },
	{ "modules",		no_argument,       NULL, 'm' },
	{ "dsos",		required_argument, NULL, 'd' },
	{ "comms",		required_argument, NULL, 'C' },
	{ "symbols",		required_argument, NULL, 'S' },
	{ "sort",		required_argument, NULL, 's' },
	{ "field-separator",	required_argument, NULL, 't' },
	{ "symfs",		required_argument, NULL, OPT_SYMFS },
	{ "order",		required_argument, NULL, 'o' },
	{ "percentage",		required_argument, NULL, OPT_PERCENTAGE },
	{ "time",		required_argument, NULL, OPT_TIME },
	{ "cpu",		required_argument, NULL, OPT_CPU },
	{ "pid",		required_argument, NULL, OPT_PID },
	{ "tid",		required_argument, NULL, OPT_TID },
	{ "stream",		no_argument,       NULL, OPT_STREAM },
	{ "no-pager",		no_argument,       NULL, OPT_NO_PAGER },
	{ "help",		no_argument,       NULL, 'h' },
	{ "version",		no_argument,       NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void
usage(FILE *f)
{
	fprintf(f,
		"Usage: pdiff [OPTIONS] [OLD_FILE] [NEW_FILE]\n"
		"       pdiff [OPTIONS] BASELINE FILE...\n"
		"The histograms of perf.data files side by side, as `perf diff`\n"
		"prints them (default: perf.data.old against perf.data).\n"
		"\n"
		"  -c, --compute METHOD delta, delta-abs (default), ratio or\n"
		"                       wdiff:W1,W2\n"
		"  -o, --order N        sort on the values of file N first (default 1;\n"
		"                       0: on the baseline)\n"
		"  -p, --period         the periods too\n"
		"  -F, --formula        how each value was computed\n"
		"  -b, --baseline-only  only the entries the baseline has and\n"
		"                       another file pairs\n"
		"  -s, --sort KEYS      pair and sort by these keys: comm, pid,\n"
		"                       dso, sym/symbol, parent, cpu, socket, srcline,\n"
		"                       srcfile\n"
		"                       (default dso,sym; +KEYS appends)\n"
		"  -t, --field-separator SEP  separate the columns with SEP\n"
		"      --percentage relative|absolute  percentages of what the\n"
		"                       filters keep or of the whole (default absolute)\n"
		"  -C, --comms LIST     only these commands\n"
		"  -d, --dsos LIST      only these shared objects\n"
		"  -S, --symbols LIST   only these symbols\n"
		"      --pid LIST       only these processes\n"
		"      --tid LIST       only these threads\n"
		"      --cpu LIST       only samples on these CPUs (\"0-3,7\")\n"
		"      --time RANGES    only samples in these time ranges (perf's\n"
		"                       syntax; A:B gives each file its own)\n"
		"      --symfs DIR      look for binaries under DIR\n"
		"      --kallsyms FILE  kernel symbols from FILE\n"
		"  -m, --modules        accepted: module maps come from the recording\n"
		"  -f, --force          read files and /tmp/perf-PID.map files owned\n"
		"                       by another user (not root)\n"
		"  -q, --quiet          no warnings and no comment lines\n"
		"      --no-pager       on a terminal, print without a pager\n"
		"  -h, --help           show this help\n"
		"      --version        show the version\n"
		"\n"
		"perf diff's -v, -D, -c cycles, --cycles-hist and --stream are\n"
		"refused.\n");
}

static const char *const compute_names[] = {
	[PDIFF_DELTA] = "delta",
	[PDIFF_RATIO] = "ratio",
	[PDIFF_WDIFF] = "wdiff",
	[PDIFF_DELTA_ABS] = "delta-abs",
};

/* perf's setup_compute_opt_wdiff(): two non-zero weights. */
static void
parse_wdiff(struct pdiff_opts *o, const char *arg)
{
	const char *comma = arg ? strchr(arg, ',') : NULL;

	if (!comma || !comma[1])
		die(2, "-c: wrong weight data, use 'wdiff:w1,w2'");
	o->w1 = strtol(arg, NULL, 10);
	o->w2 = strtol(comma + 1, NULL, 10);
	if (!o->w1 || !o->w2)
		die(2, "-c: wrong weight data, use 'wdiff:w1,w2'");
}

/* perf's setup_compute(): METHOD[:ARG]. */
static void
parse_compute(struct pdiff_opts *o, const char *arg)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg), i;

	if (len == strlen("cycles") && !strncmp(arg, "cycles", len))
		die(2, "-c cycles: pdiff does not compare basic-block cycles "
		    "(perf diff -c cycles)");
	for (i = 0; i < sizeof(compute_names) / sizeof(compute_names[0]); i++) {
		if (strlen(compute_names[i]) != len ||
		    strncmp(arg, compute_names[i], len))
			continue;
		o->compute = (enum pdiff_compute)i;
		if (o->compute == PDIFF_WDIFF)
			parse_wdiff(o, colon ? colon + 1 : NULL);
		else if (colon)
			die(2, "-c: extra option specified '%s'", colon + 1);
		return;
	}
	die(2, "-c: '%s' is not a computation method (use 'delta', "
	    "'delta-abs', 'ratio' or 'wdiff:w1,w2')", arg);
}

static unsigned int
parse_order(const char *arg)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 0);

	if (end == arg || *end || arg[0] == '-' || v > 0xffffffffUL)
		die(2, "-o: '%s' is not a file number", arg);
	return (unsigned int)v;
}

static void
parse_filter(struct pdiff_opts *o, int c, const char *arg)
{
	struct rep_filters *f = &o->rep.hist.filt;
	char err[256];
	int ret = 0;

	switch (c) {
	case 'C':
		ret = rep_filter_parse_names(&f->comms, &f->nr_comms, arg, "comm",
					     err, sizeof(err));
		break;
	case 'd':
		ret = rep_filter_parse_names(&f->dsos, &f->nr_dsos, arg, "dso",
					     err, sizeof(err));
		break;
	case 'S':
		ret = rep_filter_parse_names(&f->syms, &f->nr_syms, arg, "symbol",
					     err, sizeof(err));
		break;
	case OPT_PID:
		ret = rep_filter_parse_ints(&f->pids, &f->nr_pids, arg, "pid",
					    err, sizeof(err));
		break;
	default:
		ret = rep_filter_parse_ints(&f->tids, &f->nr_tids, arg, "tid",
					    err, sizeof(err));
		break;
	}
	if (ret)
		die(2, "%s", err);
}

static void
refuse(const char *opt, const char *what)
{
	die(2, "%s: pdiff does not implement perf diff's %s", opt, what);
}

/* The options perf diff shares with perf report; false if c is none. */
static bool
parse_common(struct pdiff_opts *o, int c, const char *arg)
{
	char err[256];

	switch (c) {
	case 'C': case 'd': case 'S': case OPT_PID: case OPT_TID:
		parse_filter(o, c, arg);
		break;
	case OPT_CPU:
		if (rep_filter_parse_cpus(&o->rep.hist.filt, arg, err,
					  sizeof(err)))
			die(2, "--cpu: %s", err);
		break;
	case OPT_TIME:
		o->time_str = arg;
		break;
	case OPT_SYMFS:
		o->rep.symfs = arg;
		break;
	case OPT_KALLSYMS:
		o->rep.kallsyms = arg;
		break;
	case OPT_PERCENTAGE:
		if (strcmp(arg, "relative") && strcmp(arg, "absolute"))
			die(2, "--percentage: expected relative or absolute, "
			    "not '%s'", arg);
		o->relative = !strcmp(arg, "relative");
		break;
	case 'm':
		break;
	case 'f':
		o->rep.force = true;
		break;
	default:
		return false;
	}
	return true;
}

static void
parse_opt(struct pdiff_opts *o, int c, const char *arg)
{
	if (parse_common(o, c, arg))
		return;
	switch (c) {
	case 'q':
		o->quiet = true;
		break;
	case OPT_NO_PAGER:
		o->no_pager = true;
		break;
	case 'b':
		o->baseline_only = true;
		break;
	case 'c':
		parse_compute(o, arg);
		break;
	case 'p':
		o->show_period = true;
		break;
	case 'F':
		o->show_formula = true;
		break;
	case 's':
		o->rep.hist.sort_str = arg;
		break;
	case 't':
		if (!*arg)
			die(2, "-t: the separator is empty");
		if (*arg == '.')
			die(2, "-t: '.' is the only separator perf refuses");
		o->sep = arg;
		break;
	case 'o':
		o->order = parse_order(arg);
		break;
	case 'v':
		refuse("-v", "verbose output");
		break;
	case 'D':
		refuse("-D", "raw dump (preport -D prints one)");
		break;
	case OPT_CYCLES_HIST:
		refuse("--cycles-hist", "cycles histograms (-c cycles)");
		break;
	case OPT_STREAM:
		refuse("--stream", "hot stream comparison");
		break;
	case 'h':
		usage(stdout);
		exit(EXIT_SUCCESS);
	case OPT_VERSION:
		printf("pdiff (pdata) %s\n", VERSION);
		exit(EXIT_SUCCESS);
	default:
		usage(stderr);
		exit(2);
	}
}

static bool
is_diff_key(enum rep_dim d)
{
	return d == REP_DIM_COMM || d == REP_DIM_PID || d == REP_DIM_DSO ||
	       d == REP_DIM_SYM || d == REP_DIM_PARENT || d == REP_DIM_CPU ||
	       d == REP_DIM_SOCKET || d == REP_DIM_SRCLINE ||
	       d == REP_DIM_SRCFILE;
}

/*
 * The keys as given: perf diff knows no "tid" (said so with a hint), and
 * pdiff shows no column of numbers (overhead, sample, period) as a key.
 */
static void
check_keys(const char *s)
{
	char **words = NULL;
	size_t nr = 0, i;

	rep_filter_parse_list(&words, &nr, s);
	for (i = 0; i < nr; i++) {
		int d = rep_dim_parse(words[i]);

		if (!strcmp(words[i], "tid"))
			die(2, "-s: unknown sort key 'tid' (perf diff has "
			    "none; pid is the thread)");
		if (d >= 0 && !is_diff_key((enum rep_dim)d))
			die(2, "-s: pdiff does not pair entries by '%s'",
			    words[i]);
		free(words[i]);
	}
	free(words);
}

/* perf diff's sort order (default dso,symbol) as preport's key list. */
static void
setup_keys(struct pdiff_opts *o, char **owned)
{
	struct rep_hist_opts *h = &o->rep.hist;
	const char *s = h->sort_str;
	char err[256];
	size_t i, n = 0;

	if (!s) {
		s = "dso,sym";
	} else if (s[0] == '+') {
		*owned = xmalloc(strlen(s) + 8);
		snprintf(*owned, strlen(s) + 8, "dso,sym,%s", s + 1);
		s = *owned;
	}
	h->sort_str = s;
	check_keys(s);
	if (rep_report_setup_dims(&o->rep, false, err, sizeof(err)))
		die(2, "-s: %s", err);
	for (i = 0; i < h->nr_sort; i++)
		if (h->sort[i] != REP_DIM_OVERHEAD)
			h->sort[n++] = h->sort[i];
	h->nr_sort = n;
	memcpy(h->cols, h->sort, n * sizeof(h->sort[0]));
	h->nr_cols = n;
}

static void
parse_args(int argc, char **argv, struct pdiff_opts *o)
{
	int c;

	o->compute = PDIFF_DELTA_ABS;
	o->order = 1;
	o->rep.cc.children = 0;
	o->rep.cc.use_callchain = 0;
	rep_cc_param_init(&o->rep.cc.param);
	o->rep.cc.param.mode = REP_CC_NONE;
	while ((c = getopt_long(argc, argv, "vqbc:pFDfmd:C:S:s:t:o:h",
				long_options, NULL)) != -1)
		parse_opt(o, c, optarg);
}

/* perf's data_init(): the files, and -o within them. */
static size_t
setup_files(struct pdiff_file **files, int argc, char **argv,
	    const struct pdiff_opts *o)
{
	static const char *const defaults[] = { "perf.data.old", "perf.data" };
	size_t n = argc > 1 ? (size_t)argc : 2, i;

	if (o->order >= n)
		die(2, "-o: order option out of limit (%zu files)", n);
	*files = xcalloc(n, sizeof(**files));
	for (i = 0; i < n; i++) {
		if (argc > 1)
			(*files)[i].path = argv[i];
		else if (argc == 1 && i == 1)
			(*files)[i].path = argv[0];
		else
			(*files)[i].path = defaults[i];
	}
	return n;
}

/*
 * --time for file i: with ':' each file has its own part (perf's
 * absolute form), else every file the whole.  NULL: no --time.
 */
static char *
time_part(const char *time, size_t i)
{
	const char *p = time, *end;
	size_t k;

	if (!time)
		return NULL;
	if (!strchr(time, ':'))
		return xstrdup(time);
	for (k = 0; k < i; k++) {
		p = strchr(p, ':');
		if (!p)
			die(2, "--time: '%s' has no part for file %zu",
			    time, i);
		p++;
	}
	end = strchr(p, ':');
	if (end == p || !*p)
		die(2, "--time: invalid time string '%s'", time);
	return end ? xstrndup(p, (size_t)(end - p)) : xstrdup(p);
}

/* data__fprintf(): with more than two files, which is which. */
static void
print_files(FILE *out, const struct pdiff_file *files, size_t n)
{
	size_t i;

	fputs("# Data files:\n", out);
	for (i = 0; i < n; i++)
		fprintf(out, "#  [%zu] %s %s\n", i, files[i].path,
			i ? "" : "(Baseline)");
	fputs("#\n", out);
}

/* data_process(): one section per event of the baseline. */
static void
print_diff(FILE *out, const struct pdiff_opts *o, struct pdiff_file *files,
	   size_t n)
{
	size_t e, nr = pd_reader_nr_evsels(files[0].r);

	for (e = 0; e < nr; e++) {
		struct pdiff_table t;

		if (!o->quiet)
			fprintf(out, "%s# Event '%s'\n#\n", e ? "\n" : "",
				pd_evsel_name(pd_reader_evsel(files[0].r, e)));
		if (!o->quiet && n > 2)
			print_files(out, files, n);
		pdiff_table_build(&t, o, files, n, e);
		pdiff_print(out, &t);
		pdiff_table_free(&t);
	}
}

int
main(int argc, char **argv)
{
	struct pdiff_opts o = { 0 };
	struct pdiff_file *files;
	char *sort_owned = NULL;
	size_t n, i;
	int ret = 0;

	diag_set_program("pdiff");
	xalloc_large_apart();
	parse_args(argc, argv, &o);
	setup_keys(&o, &sort_owned);
	n = setup_files(&files, argc - optind, argv + optind, &o);
	/* as perf diff: paged once the files are named, in colour there */
	if (!o.no_pager)
		term_pager_start("PDATA_PAGER");
	o.color = term_use_color(-3);
	for (i = 0; i < n && !ret; i++) {
		files[i].time = time_part(o.time_str, i);
		ret = pdiff_file_load(&files[i], &o);
	}
	if (!ret)
		print_diff(stdout, &o, files, n);
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_FAILURE, "error writing the output");
	for (i = 0; i < n; i++)
		pdiff_file_close(&files[i]);
	free(files);
	rep_filters_free(&o.rep.hist.filt);
	free(sort_owned);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}
