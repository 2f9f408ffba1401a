/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * export/pexport.c - pexport: write a recording in another format,
 * `pexport --to KIND [-i FILE] -o OUT`: the command line, the recording
 * and its session, preport's filters, the output file; each KIND is a
 * file of its own (json.c: perf data convert --to-json; the stack
 * formats read the profile of stacks.c).
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
#include "pdata/meta.h"
#include "pdata/reader.h"
#include "session/session.h"
#include "symbol/archive.h"
#include "symbol/symbol.h"

static const char usage[] =
"Usage: pexport --to KIND [-i FILE] -o OUT [OPTIONS]\n"
"Write the recording FILE (default perf.data, or standard input when it\n"
"is a pipe) in another format.\n"
"  -t, --to=KIND            json: what perf data convert --to-json writes;\n"
"                           collapsed: FlameGraph's collapsed stacks;\n"
"                           speedscope: speedscope's JSON\n"
"  -i, --input=FILE         the recording (a file, a pipe, - for stdin)\n"
"  -o, --output=OUT         the file to write (- for standard output)\n"
"  -f, --force              overwrite OUT if it exists; read FILE and\n"
"                           /tmp/perf-PID.map files owned by another user\n"
"  -e, --event=NAME         collapsed: the event to write (default: the\n"
"                           first one sampled)\n"
"      --with-pid           collapsed: \"comm-pid\" as the first frame\n"
"      --with-tid           collapsed: \"comm-pid/tid\" as the first frame\n"
"      --annotate           collapsed: _[k], _[j], _[i] after kernel, JIT\n"
"                           and inlined functions\n"
"      --addrs              collapsed: addresses of unknown code\n"
"      --comms=LIST         only samples of these comms\n"
"      --pid=LIST           only samples of these process ids\n"
"      --tid=LIST           only samples of these thread ids\n"
"      --dsos=LIST          only samples in these DSOs\n"
"      --symbols=LIST       only samples in these symbols\n"
"  -C, --cpu=LIST           only samples on these CPUs\n"
"      --time=RANGES        only samples in these time ranges\n"
"      --max-stack=N        at most N frames a stack (default 127)\n"
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
       OPT_TIME, OPT_MAX_STACK };

static const struct exp_format formats[] = {
	{ "json", "JSON data", false, NULL, exp_json },
	{ "collapsed", "collapsed stacks", true, NULL, exp_collapsed },
	{ "speedscope", "a speedscope profile", true, exp_speedscope_start,
	  exp_speedscope },
};

struct options {
	const struct exp_format *format;
	const char *input;
	const char *output;
	const char *symfs;
	const char *kallsyms;
	const char *symbol_archive;
	unsigned int max_stack;
	bool no_archive;
	bool force;
	bool quiet;
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
	usage_error("--to takes json, collapsed or speedscope");
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
		ret = rep_filter_parse_list(&f->comms, &f->nr_comms, arg);
		break;
	case OPT_DSOS:
		ret = rep_filter_parse_list(&f->dsos, &f->nr_dsos, arg);
		break;
	case OPT_SYMBOLS:
		ret = rep_filter_parse_list(&f->syms, &f->nr_syms, arg);
		break;
	case OPT_PID:
		ret = rep_filter_parse_ints(&f->pids, &f->nr_pids, arg, err,
					    sizeof(err));
		break;
	case OPT_TID:
		ret = rep_filter_parse_ints(&f->tids, &f->nr_tids, arg, err,
					    sizeof(err));
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

static bool
parse_export_opt(struct options *o, int c)
{
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

	if (!o->format->profile && filters)
		usage_error("--to json writes every sample: the filters and "
			    "--max-stack are for the stack formats");
	if (strcmp(o->format->name, "collapsed") &&
	    (o->exp.with_pid || o->exp.with_tid || o->exp.annotate ||
	     o->exp.addrs))
		usage_error("--with-pid, --with-tid, --annotate and --addrs "
			    "are options of --to collapsed");
	if (o->exp.event && strcmp(o->format->name, "collapsed"))
		usage_error("--event is an option of --to collapsed");
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
		{ "comms", required_argument, NULL, OPT_COMMS },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "tid", required_argument, NULL, OPT_TID },
		{ "dsos", required_argument, NULL, OPT_DSOS },
		{ "symbols", required_argument, NULL, OPT_SYMBOLS },
		{ "cpu", required_argument, NULL, 'C' },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
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
		case 'i': o->input = optarg; break;
		case 'o': o->output = optarg; break;
		case 'f': o->force = true; break;
		case OPT_COMMS: case OPT_PID: case OPT_TID: case OPT_DSOS:
		case OPT_SYMBOLS: case 'C': case OPT_TIME:
			parse_filter(o, c, optarg);
			break;
		case OPT_MAX_STACK: o->max_stack = parse_max_stack(optarg); break;
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
		usage_error("--to is needed: json, collapsed or speedscope");
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

	of->fd = -1;
	of->tmp = of->path = NULL;
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

/* Close OUT; put it in place when all went well, else remove it. */
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

/* The symbol archive, as preport and pscript find it. */
static char *
symbol_archive(const struct options *o, const char *input)
{
	if (o->no_archive)
		return NULL;
	if (o->symbol_archive)
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

/* --time's percentages need the recording's first and last sample times. */
static int
resolve_time(struct options *o, const struct pd_meta *meta)
{
	char err[256];

	if (!meta || !rep_filter_resolve_time(&o->filt, meta->first_sample_time,
					      meta->last_sample_time, err,
					      sizeof(err)))
		return 0;
	error_msg("%s", err);
	return -1;
}

static int
write_profile(struct exp_run *x, struct options *o)
{
	struct exp_collect_opts co = { .filt = &o->filt };
	void *state = o->format->start ? o->format->start(x, &co) : NULL;
	int err = exp_profile_collect(&x->profile, x->ses, x->r, &co);

	if (err < 0) {
		/* what was read is written, as perf's tools do */
		warn_msg("%s: %s", x->input, ses_errmsg(x->ses));
	}
	x->samples = x->profile.samples;
	err = o->format->write(x, state);
	exp_profile_free(&x->profile);
	return err;
}

static int
run(struct exp_run *x, struct options *o)
{
	const struct pd_meta *meta = pd_reader_meta(x->r);
	char *archive = symbol_archive(o, x->input);
	char *recording_id = sym_recording_id(x->input);
	struct sym_opts so = {
		.symfs = o->symfs,
		.kallsyms = o->kallsyms,
		.os_release = meta ? meta->os_release : NULL,
		.archive = archive,
		.archive_beside = archive && !o->symbol_archive,
		.force = o->force,
		.recording_id = recording_id,
		.warn = o->quiet ? NULL : print_sym_warning,
	};
	struct ses_opts sopts = {
		.max_stack = o->max_stack,
		.stack_ids = o->format->profile,
		.threads = ses_threads_default(),
	};
	struct sym_ctx *syms = sym_ctx_new(&so);
	int ret = -1;

	if (!syms)
		die(EXIT_FAILURE, "cannot set up the symbol tables");
	x->ses = ses_new(x->r, syms, &sopts);
	if (!resolve_time(o, meta))
		ret = o->format->profile ? write_profile(x, o) :
			o->format->write(x, NULL);
	ses_free(x->ses);
	sym_ctx_free(syms);
	free(archive);
	free(recording_id);
	return ret;
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
	fprintf(stderr, "[ pexport: Wrote %llu samples of '%s' as %s to "
		"'%s' (%.3f MB) ]\n", (unsigned long long)x->samples,
		x->input, o->format->what, o->output, mb);
}

int
main(int argc, char **argv)
{
	struct options o = { 0 };
	struct pd_reader_opts ropts = { 0 };
	struct exp_run x = { 0 };
	struct sfile_out of;
	long size;
	int ret;

	diag_set_program("pexport");
	parse_args(argc, argv, &o);
	x.input = o.input ? o.input : tool_default_input();
	if (!o.quiet) {
		ropts.warn = tool_input_warning;
		ropts.warn_ctx = (void *)x.input;
	}
	if (!tool_input_allowed(x.input, o.force))
		return EXIT_FAILURE;
	if (pd_reader_open(&x.r, x.input, &ropts)) {
		error_msg("%s: %s", x.input, pd_reader_errmsg(x.r));
		pd_reader_close(x.r);
		return EXIT_FAILURE;
	}
	x.out = open_output(&o, &of);
	if (!x.out) {
		pd_reader_close(x.r);
		return EXIT_FAILURE;
	}
	x.o = &o.exp;
	ret = run(&x, &o);
	size = ftell(x.out);
	if (fflush(x.out) || ferror(x.out)) {
		error_msg("cannot write '%s'", o.output);
		ret = -1;
	}
	ret = close_output(x.out, &of, o.output, ret);
	if (!ret && !o.quiet)
		summary(&x, &o, size);
	rep_filters_free(&o.filt);
	pd_reader_close(x.r);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}
