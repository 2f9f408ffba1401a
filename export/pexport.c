/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * export/pexport.c - pexport: write a recording in another format,
 * `pexport --to KIND [-i FILE]... -o OUT`: the command line, each
 * recording and its session, preport's filters, the output file; each
 * KIND is a file of its own (json.c: perf data convert --to-json; the
 * stack formats read the profile of stacks.c; pprof.c merges several
 * recordings).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/export.h"
#include "lib/diag.h"
#include "lib/input.h"
#include "lib/safefile.h"
#include "lib/xalloc.h"
#include "pdata/meta.h"
#include "pdata/reader.h"
#include "session/session.h"
#include "symbol/archive.h"
#include "symbol/symbol.h"

static const char usage[] =
"Usage: pexport --to KIND [-i FILE]... -o OUT [OPTIONS]\n"
"Write the recording FILE (default perf.data, or standard input when it\n"
"is a pipe) in another format.\n"
"  -t, --to=KIND            json: what perf data convert --to-json writes;\n"
"                           collapsed: FlameGraph's collapsed stacks;\n"
"                           speedscope: speedscope's JSON;\n"
"                           flamegraph: an interactive HTML flame graph;\n"
"                           pprof: pprof's profile.proto, gzip'd\n"
"  -i, --input=FILE         the recording (a file, a pipe, - for stdin);\n"
"                           pprof: -i again to merge recordings\n"
"  -o, --output=OUT         the file to write (- for standard output)\n"
"  -f, --force              overwrite OUT if it exists; read FILE and\n"
"                           /tmp/perf-PID.map files owned by another user\n"
"  -e, --event=NAME         collapsed, flamegraph: the event to write\n"
"                           (default: the first one sampled; flamegraph:\n"
"                           a graph for each event)\n"
"      --with-pid           collapsed, flamegraph: \"comm-pid\" as the\n"
"                           first frame\n"
"      --with-tid           collapsed, flamegraph: \"comm-pid/tid\"\n"
"      --annotate           collapsed: _[k], _[j], _[i] after kernel, JIT\n"
"                           and inlined functions\n"
"      --addrs              collapsed, flamegraph: addresses of unknown\n"
"                           code\n"
"      --title=TEXT         flamegraph: the page's title\n"
"      --minwidth=N[%]      flamegraph: leave out frames narrower than N\n"
"                           pixels of flamegraph.pl's 1200-pixel image,\n"
"                           or N% of the total (default 0.1)\n"
"      --weight=samples|period  flamegraph: what the widths count\n"
"                           (default: as collapsed counts)\n"
"      --inverted           flamegraph: an icicle graph (roots on top)\n"
"      --diff=OLD           flamegraph: a differential flame graph of\n"
"                           FILE against the recording OLD\n"
"      --comms=LIST         only samples of these comms\n"
"      --pid=LIST           only samples of these process ids\n"
"      --tid=LIST           only samples of these thread ids\n"
"      --dsos=LIST          only samples in these DSOs\n"
"      --symbols=LIST       only samples in these symbols\n"
"  -C, --cpu=LIST           only samples on these CPUs\n"
"      --time=RANGES        only samples in these time ranges\n"
"      --max-stack=N        at most N frames a stack (default 127)\n"
"      --no-inline          no inline frames in DWARF-unwound stacks\n"
"                           (--inline, the default, adds them as perf\n"
"                           script does)\n"
"      --symfs=DIR          look for the binaries under DIR\n"
"      --symbol-archive=FILE  symbols from FILE (default: FILE.pdsym\n"
"                           beside the recording, when it exists)\n"
"      --no-archive         no symbol archive\n"
"      --kallsyms=FILE      kernel symbols from FILE\n"
"  -q, --quiet              no summary lines, no warnings\n"
"  -h, --help               show this help\n"
"      --version            show the version\n";

enum { OPT_SYMFS = 256, OPT_KALLSYMS, OPT_VERSION, OPT_SYMBOL_ARCHIVE,
       OPT_NO_ARCHIVE, OPT_WITH_PID, OPT_WITH_TID, OPT_ANNOTATE,
       OPT_ADDRS, OPT_COMMS, OPT_PID, OPT_TID, OPT_DSOS, OPT_SYMBOLS,
       OPT_TIME, OPT_MAX_STACK, OPT_INLINE, OPT_NO_INLINE, OPT_TITLE,
       OPT_MINWIDTH, OPT_WEIGHT, OPT_INVERTED, OPT_DIFF };

static const struct exp_format formats[] = {
	{ .name = "json", .what = "JSON data", .write = exp_json },
	{ .name = "collapsed", .what = "collapsed stacks", .profile = true,
	  .write = exp_collapsed },
	{ .name = "speedscope", .what = "a speedscope profile",
	  .profile = true, .start = exp_speedscope_start,
	  .write = exp_speedscope },
	{ .name = "flamegraph", .what = "a flame graph", .profile = true,
	  .start = exp_flamegraph_start, .write = exp_flamegraph,
	  .old = exp_flamegraph_old },
	{ .name = "pprof", .what = "a pprof profile", .profile = true,
	  .start = exp_pprof_start, .write = exp_pprof_add,
	  .finish = exp_pprof_finish },
};

struct options {
	const struct exp_format *format;
	const char **inputs;		/* -i, in order */
	size_t nr_inputs;
	const char *output;
	const char *symfs;
	const char *kallsyms;
	const char *symbol_archive;
	unsigned int max_stack;
	bool no_archive;
	bool flame_opts;		/* an option only flamegraph reads */
	bool force;
	bool quiet;
	bool no_inline;			/* --no-inline */
	struct exp_opts exp;
	struct rep_filters filt;
};

static void __attribute__((noreturn))
usage_error(const char *msg)
{
	error_msg("%s", msg);
	fprintf(stderr, "Try 'pexport --help' for more information.\n");
	exit(2);
}

static const struct exp_format *
format_named(const char *name)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(formats[i].name, name))
			return &formats[i];
	usage_error("--to takes json, collapsed, speedscope, flamegraph or "
		    "pprof");
}

/* preport's filter options, with its parsers and messages */
static void
parse_filter(struct options *o, int c, const char *arg)
{
	struct rep_filters *f = &o->filt;
	char err[256] = "";
	int ret;

	switch (c) {
	case OPT_COMMS:
		ret = rep_filter_parse_names(&f->comms, &f->nr_comms, arg, "comm",
					     err, sizeof(err));
		break;
	case OPT_DSOS:
		ret = rep_filter_parse_names(&f->dsos, &f->nr_dsos, arg, "dso",
					     err, sizeof(err));
		break;
	case OPT_SYMBOLS:
		ret = rep_filter_parse_names(&f->syms, &f->nr_syms, arg, "symbol",
					     err, sizeof(err));
		break;
	case OPT_PID:
		ret = rep_filter_parse_ints(&f->pids, &f->nr_pids, arg, "pid",
					    err, sizeof(err));
		break;
	case OPT_TID:
		ret = rep_filter_parse_ints(&f->tids, &f->nr_tids, arg, "tid",
					    err, sizeof(err));
		break;
	case 'C':
		ret = rep_filter_parse_cpus(f, arg, err, sizeof(err));
		break;
	default:
		ret = rep_filter_parse_time(f, arg, err, sizeof(err));
		break;
	}
	if (ret)
		usage_error(err[0] ? err : "bad filter");
}

static unsigned int
parse_max_stack(const char *arg)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v > 65535)
		usage_error("--max-stack takes a number from 0 to 65535");
	return (unsigned int)v;
}

/* flamegraph.pl's --minwidth: a number of pixels, or a percentage */
static void
parse_minwidth(struct exp_opts *e, const char *arg)
{
	size_t n = strspn(arg, "0123456789.");
	char *end;

	e->minwidth_pct = arg[n] == '%';
	if (!n || arg[n + e->minwidth_pct] != '\0')
		usage_error("--minwidth takes a number of pixels, or a "
			    "percentage (N%)");
	e->minwidth = strtod(arg, &end);
	if (end != arg + n)
		usage_error("--minwidth takes a number of pixels, or a "
			    "percentage (N%)");
}

static void
parse_weight(struct exp_opts *e, const char *arg)
{
	if (!strcmp(arg, "samples"))
		e->weight = EXP_WEIGHT_SAMPLES;
	else if (!strcmp(arg, "period"))
		e->weight = EXP_WEIGHT_PERIOD;
	else
		usage_error("--weight takes samples or period");
}

static bool
parse_flame_opt(struct options *o, int c)
{
	switch (c) {
	case OPT_TITLE: o->exp.title = optarg; break;
	case OPT_MINWIDTH: parse_minwidth(&o->exp, optarg); break;
	case OPT_WEIGHT: parse_weight(&o->exp, optarg); break;
	case OPT_INVERTED: o->exp.inverted = true; break;
	case OPT_DIFF: o->exp.diff = optarg; break;
	default: return false;
	}
	o->flame_opts = true;
	return true;
}

static bool
parse_export_opt(struct options *o, int c)
{
	if (parse_flame_opt(o, c))
		return true;
	switch (c) {
	case 'e': o->exp.event = optarg; break;
	case OPT_WITH_PID: o->exp.with_pid = true; break;
	case OPT_WITH_TID: o->exp.with_tid = true; break;
	case OPT_ANNOTATE: o->exp.annotate = true; break;
	case OPT_ADDRS: o->exp.addrs = true; break;
	default: return false;
	}
	return true;
}

/* Options a format would not read are refused, not ignored. */
static void
check_combination(const struct options *o)
{
	bool filters = o->filt.nr_comms || o->filt.nr_pids ||
		o->filt.nr_tids || o->filt.nr_dsos || o->filt.nr_syms ||
		o->filt.cpus || o->filt.time_str || o->max_stack;
	bool collapsed = !strcmp(o->format->name, "collapsed");
	bool flame = !strcmp(o->format->name, "flamegraph");

	if (!o->format->profile && filters)
		usage_error("--to json writes every sample: the filters and "
			    "--max-stack are for the stack formats");
	if (!collapsed && o->exp.annotate)
		usage_error("--annotate is an option of --to collapsed");
	if (!collapsed && !flame &&
	    (o->exp.with_pid || o->exp.with_tid || o->exp.addrs ||
	     o->exp.event))
		usage_error("--with-pid, --with-tid, --addrs and --event are "
			    "options of --to collapsed and flamegraph");
	if (!flame && o->flame_opts)
		usage_error("--title, --minwidth, --weight, --inverted and "
			    "--diff are options of --to flamegraph");
	if (o->nr_inputs > 1 && !o->format->finish)
		usage_error("only --to pprof merges recordings: one -i FILE");
}

static void
parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "to", required_argument, NULL, 't' },
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "event", required_argument, NULL, 'e' },
		{ "with-pid", no_argument, NULL, OPT_WITH_PID },
		{ "with-tid", no_argument, NULL, OPT_WITH_TID },
		{ "annotate", no_argument, NULL, OPT_ANNOTATE },
		{ "addrs", no_argument, NULL, OPT_ADDRS },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "minwidth", required_argument, NULL, OPT_MINWIDTH },
		{ "weight", required_argument, NULL, OPT_WEIGHT },
		{ "inverted", no_argument, NULL, OPT_INVERTED },
		{ "diff", required_argument, NULL, OPT_DIFF },
		{ "comms", required_argument, NULL, OPT_COMMS },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "tid", required_argument, NULL, OPT_TID },
		{ "dsos", required_argument, NULL, OPT_DSOS },
		{ "symbols", required_argument, NULL, OPT_SYMBOLS },
		{ "cpu", required_argument, NULL, 'C' },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
		{ "inline", no_argument, NULL, OPT_INLINE },
		{ "no-inline", no_argument, NULL, OPT_NO_INLINE },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "symbol-archive", required_argument, NULL,
		  OPT_SYMBOL_ARCHIVE },
		{ "no-archive", no_argument, NULL, OPT_NO_ARCHIVE },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	const char *to = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "t:i:o:fe:C:qh", longs,
				NULL)) != -1) {
		if (parse_export_opt(o, c))
			continue;
		switch (c) {
		case 't': to = optarg; break;
		case 'i':
			o->inputs = xreallocarray(o->inputs, o->nr_inputs + 1,
						  sizeof(*o->inputs));
			o->inputs[o->nr_inputs++] = optarg;
			break;
		case 'o': o->output = optarg; break;
		case 'f': o->force = true; break;
		case OPT_COMMS: case OPT_PID: case OPT_TID: case OPT_DSOS:
		case OPT_SYMBOLS: case 'C': case OPT_TIME:
			parse_filter(o, c, optarg);
			break;
		case OPT_MAX_STACK: o->max_stack = parse_max_stack(optarg); break;
		case OPT_INLINE: o->no_inline = false; break;
		case OPT_NO_INLINE: o->no_inline = true; break;
		case OPT_SYMFS: o->symfs = optarg; break;
		case OPT_KALLSYMS: o->kallsyms = optarg; break;
		case OPT_SYMBOL_ARCHIVE: o->symbol_archive = optarg; break;
		case OPT_NO_ARCHIVE: o->no_archive = true; break;
		case 'q': o->quiet = true; break;
		case 'h': fputs(usage, stdout); exit(0);
		case OPT_VERSION: puts("pexport " PACKAGE_VERSION); exit(0);
		default: usage_error("bad option");
		}
	}
	if (optind < argc)
		usage_error("unexpected argument");
	if (!to)
		usage_error("--to is needed: json, collapsed, speedscope or "
			    "flamegraph or pprof");
	o->format = format_named(to);
	if (!o->output)
		usage_error("-o OUT is needed");
	check_combination(o);
}

static void
print_sym_warning(void *ctx, const char *msg)
{
	(void)ctx;
	warn_msg("%s", msg);
}

/*
 * As perf data convert: an existing OUT is kept unless --force.  OUT is
 * written under a temporary name and renamed into place (lib/safefile.h).
 */
static FILE *
open_output(const struct options *o, struct sfile_out *of)
{
	int fd;
	FILE *f;

	if (!strcmp(o->output, "-"))
		return stdout;
	fd = sfile_create(of, o->output, 0666, o->force ? 0 : SFILE_KEEP);
	if (fd < 0) {
		if (fd == -EEXIST)
			error_msg("'%s' exists: --force overwrites it",
				  o->output);
		else
			error_msg("cannot create '%s': %s", o->output,
				  sfile_strerror(fd));
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		error_msg("cannot write '%s': %s", o->output, strerror(errno));
		sfile_abort(of);
	}
	return f;
}

/*
 * Close OUT; put it in place when all went well, else remove it: a
 * failed merge or write leaves no part of a file.
 */
static int
close_output(FILE *out, struct sfile_out *of, const char *path, int ret)
{
	int err;

	if (out == stdout)
		return ret;
	fclose(out);
	of->fd = -1;		/* fclose() closed it */
	if (ret) {
		sfile_abort(of);
		return ret;
	}
	err = sfile_commit(of);
	if (err)
		error_msg("cannot write '%s': %s", path, sfile_strerror(err));
	return err ? -1 : 0;
}

/*
 * The symbol archive, as preport and pscript find it; --symbol-archive
 * is -i's, --diff's recording takes the one beside it.
 */
static char *
symbol_archive(const struct options *o, const char *input)
{
	if (o->no_archive)
		return NULL;
	if (o->symbol_archive && input != o->exp.diff)
		return strdup(o->symbol_archive);
	return sym_archive_beside(input);
}

int
exp_chosen_evsel(struct exp_run *x)
{
	int ev;

	if (!x->o->event)
		return x->profile.first_evsel;
	ev = exp_evsel_by_name(x->r, x->o->event);
	if (ev < 0)
		error_msg("%s: no event '%s' in the recording", x->input,
			  x->o->event);
	return ev;
}

/*
 * --time's percentages need the recording's first and last sample times:
 * each recording's own (each one merged, and the old one of --diff).
 */
static int
resolve_time(struct options *o, const struct pd_meta *meta)
{
	char err[256];

	if (o->filt.time_str && strchr(o->filt.time_str, '%')) {
		free(o->filt.times);
		o->filt.times = NULL;
		o->filt.nr_times = 0;
	}
	if (!meta || !rep_filter_resolve_time(&o->filt, meta->first_sample_time,
					      meta->last_sample_time, err,
					      sizeof(err)))
		return 0;
	error_msg("%s", err);
	return -1;
}

/* What a recording's session holds besides the session. */
struct held {
	struct sym_ctx *syms;
	char *archive;
	char *recording_id;
};

static void
session_open(struct exp_run *x, const struct options *o, struct held *h,
	     bool by_cpu)
{
	const struct pd_meta *meta = pd_reader_meta(x->r);
	struct sym_opts so = {
		.symfs = o->symfs,
		.kallsyms = o->kallsyms,
		.os_release = meta ? meta->os_release : NULL,
		.warn = o->quiet ? NULL : print_sym_warning,
	};
	struct ses_opts sopts = {
		.max_stack = o->max_stack,
		.stack_ids = o->format->profile,
		.inline_frames = !o->no_inline,
		.stack_key_cpu = by_cpu,
		.threads = ses_threads_default(),
	};

	h->archive = symbol_archive(o, x->input);
	h->recording_id = sym_recording_id(x->input);
	so.archive = h->archive;
	so.archive_beside = h->archive &&
			    !(o->symbol_archive && x->input != o->exp.diff);
	so.force = o->force;
	so.recording_id = h->recording_id;
	h->syms = sym_ctx_new(&so);
	if (!h->syms)
		die(EXIT_FAILURE, "cannot set up the symbol tables");
	x->ses = ses_new(x->r, h->syms, &sopts);
}

static void
session_close(struct exp_run *x, struct held *h)
{
	ses_free(x->ses);
	x->ses = NULL;
	sym_ctx_free(h->syms);
	free(h->archive);
	free(h->recording_id);
}

/* what was read before an error is written, as perf's tools do */
static void
collect(struct exp_run *x, struct options *o, struct exp_collect_opts *co)
{
	co->filt = &o->filt;
	if (exp_profile_collect(&x->profile, x->ses, x->r, co) < 0)
		warn_msg("%s: %s", x->input, ses_errmsg(x->ses));
}

/* The reader of input in x; -1 after a message (x->r to be closed). */
static int
open_input(struct exp_run *x, const struct options *o, const char *input)
{
	struct pd_reader_opts ropts = { 0 };

	x->input = input;
	if (!o->quiet) {
		ropts.warn = tool_input_warning;
		ropts.warn_ctx = (void *)x->input;
	}
	if (!tool_input_allowed(x->input, o->force))
		return -1;
	if (!pd_reader_open(&x->r, x->input, &ropts))
		return 0;
	error_msg("%s: %s", x->input, pd_reader_errmsg(x->r));
	return -1;
}

/* --diff: the old recording's profile, its session open (old_close()) */
static int
old_open(struct exp_run *ox, struct options *o, struct held *h)
{
	struct exp_collect_opts co = { 0 };

	*ox = (struct exp_run){ .o = &o->exp };
	if (open_input(ox, o, o->exp.diff))
		goto fail;
	session_open(ox, o, h, false);
	if (resolve_time(o, pd_reader_meta(ox->r))) {
		session_close(ox, h);
		goto fail;
	}
	collect(ox, o, &co);
	return 0;
fail:
	pd_reader_close(ox->r);
	ox->r = NULL;
	return -1;
}

static void
old_close(struct exp_run *ox, struct held *h)
{
	if (!ox->r)
		return;
	exp_profile_free(&ox->profile);
	session_close(ox, h);
	pd_reader_close(ox->r);
	ox->r = NULL;
}

/* The old recording goes to the format before the new one is read. */
static int
write_profile(struct exp_run *x, struct options *o,
	      struct exp_collect_opts *co, void *state, struct exp_run *ox,
	      struct held *oh)
{
	int err;

	if (ox->r) {
		err = o->format->old(ox, state);
		old_close(ox, oh);
		if (err)
			return err;
	}
	collect(x, o, co);
	x->samples += x->profile.samples;
	err = o->format->write(x, state);
	exp_profile_free(&x->profile);
	return err;
}

static int
run(struct exp_run *x, struct options *o, struct exp_collect_opts *co,
    void *state)
{
	struct exp_run ox = { 0 };
	struct held h, oh;
	int ret = -1;

	if (o->exp.diff && old_open(&ox, o, &oh))
		return -1;
	session_open(x, o, &h, co->by_cpu);
	if (!resolve_time(o, pd_reader_meta(x->r)))
		ret = o->format->profile ?
			write_profile(x, o, co, state, &ox, &oh) :
			o->format->write(x, NULL);
	old_close(&ox, &oh);
	session_close(x, &h);
	return ret;
}

/*
 * Each recording in turn into one output, created once the first
 * recording opened; a merging format writes it at the end.
 */
static int
export_all(struct exp_run *x, struct options *o, struct sfile_out *of)
{
	struct exp_collect_opts co = { .filt = &o->filt };
	void *state = NULL;
	int ret = 0, fin;

	for (size_t i = 0; !ret && i < o->nr_inputs; i++) {
		if (open_input(x, o, o->inputs[i]))
			ret = -1;
		else if (!x->out && !(x->out = open_output(o, of)))
			ret = -1;
		if (!ret && !i && o->format->start)
			state = o->format->start(x, &co);
		if (!ret)
			ret = run(x, o, &co, state);
		pd_reader_close(x->r);
		x->r = NULL;
	}
	if (!o->format->finish || !state)
		return ret;
	fin = o->format->finish(x, state, !ret);
	return ret ? ret : fin;
}

static void
summary(const struct exp_run *x, const struct options *o, long size)
{
	double mb = size > 0 ? size / 1024.0 / 1024.0 : 0;

	if (!strcmp(o->format->name, "json")) {
		/* perf data convert's lines */
		fprintf(stderr, "[ pexport: Converted '%s' into JSON data "
			"'%s' ]\n", x->input, o->output);
		fprintf(stderr, "[ pexport: Converted and wrote %.3f MB (%llu "
			"samples) ]\n", mb, (unsigned long long)x->samples);
		return;
	}
	fprintf(stderr, "[ pexport: Wrote %llu samples of ",
		(unsigned long long)x->samples);
	for (size_t i = 0; i < o->nr_inputs; i++)
		fprintf(stderr, i ? ", '%s'" : "'%s'", o->inputs[i]);
	fprintf(stderr, " as %s%s%s%s to '%s' (%.3f MB) ]\n", o->format->what,
		o->exp.diff ? " against '" : "",
		o->exp.diff ? o->exp.diff : "", o->exp.diff ? "'" : "",
		o->output, mb);
}

int
main(int argc, char **argv)
{
	struct options o = { .exp.minwidth = 0.1 };
	struct exp_run x = { 0 };
	struct sfile_out of = { .fd = -1 };
	long size = 0;
	int ret;

	diag_set_program("pexport");
	xalloc_large_apart();
	parse_args(argc, argv, &o);
	if (!o.nr_inputs) {
		o.inputs = xmalloc(sizeof(*o.inputs));
		o.inputs[o.nr_inputs++] = tool_default_input();
	}
	x.o = &o.exp;
	x.output = o.output;
	ret = export_all(&x, &o, &of);
	if (x.out) {
		size = ftell(x.out);
		if (fflush(x.out) || ferror(x.out)) {
			error_msg("cannot write '%s'", o.output);
			ret = -1;
		}
		ret = close_output(x.out, &of, o.output, ret);
	}
	if (!ret && !o.quiet)
		summary(&x, &o, size);
	rep_filters_free(&o.filt);
	free(o.inputs);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}
