/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * export/pexport.c - pexport: write a recording in another format,
 * `pexport --to KIND [-i FILE] -o OUT`: the command line, the recording
 * and its session, the output file; each KIND is a file of its own
 * (json.c: perf data convert --to-json).
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
#include "pdata/reader.h"
#include "session/session.h"
#include "symbol/archive.h"
#include "symbol/symbol.h"

static const char usage[] =
"Usage: pexport --to KIND [-i FILE] -o OUT [OPTIONS]\n"
"Write the recording FILE (default perf.data, or standard input when it\n"
"is a pipe) in another format.\n"
"  -t, --to=KIND            json: what perf data convert --to-json writes\n"
"  -i, --input=FILE         the recording (a file, a pipe, - for stdin)\n"
"  -o, --output=OUT         the file to write (- for standard output)\n"
"  -f, --force              overwrite OUT if it exists\n"
"      --symfs=DIR          look for the binaries under DIR\n"
"      --symbol-archive=FILE  symbols from FILE (default: FILE.pdsym\n"
"                           beside the recording, when it exists)\n"
"      --no-archive         no symbol archive\n"
"      --kallsyms=FILE      kernel symbols from FILE\n"
"  -q, --quiet              no summary lines, no warnings\n"
"  -h, --help               show this help\n"
"      --version            show the version\n";

enum { OPT_SYMFS = 256, OPT_KALLSYMS, OPT_VERSION, OPT_SYMBOL_ARCHIVE,
       OPT_NO_ARCHIVE };

struct options {
	const char *to;
	const char *input;
	const char *output;
	const char *symfs;
	const char *kallsyms;
	const char *symbol_archive;
	bool no_archive;
	bool force;
	bool quiet;
};

static void __attribute__((noreturn))
usage_error(const char *msg)
{
	error_msg("%s", msg);
	fprintf(stderr, "Try 'pexport --help' for more information.\n");
	exit(2);
}

static void
parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "to", required_argument, NULL, 't' },
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
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
	int c;

	while ((c = getopt_long(argc, argv, "t:i:o:fqh", longs, NULL)) != -1) {
		switch (c) {
		case 't': o->to = optarg; break;
		case 'i': o->input = optarg; break;
		case 'o': o->output = optarg; break;
		case 'f': o->force = true; break;
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
	if (!o->to)
		usage_error("--to is needed: json");
	if (strcmp(o->to, "json"))
		usage_error("--to takes json");
	if (!o->output)
		usage_error("-o OUT is needed");
}

static void
print_sym_warning(void *ctx, const char *msg)
{
	(void)ctx;
	warn_msg("%s", msg);
}

/* As perf data convert: an existing OUT is kept unless --force. */
static FILE *
open_output(const struct options *o)
{
	int fd;
	FILE *f;

	if (!strcmp(o->output, "-"))
		return stdout;
	fd = open(o->output, O_CREAT | O_WRONLY | O_CLOEXEC |
		  (o->force ? O_TRUNC : O_EXCL), 0666);
	if (fd < 0) {
		if (errno == EEXIST)
			error_msg("'%s' exists: --force overwrites it",
				  o->output);
		else
			error_msg("cannot create '%s': %s", o->output,
				  strerror(errno));
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		error_msg("cannot write '%s': %s", o->output, strerror(errno));
		close(fd);
	}
	return f;
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

static int
run(struct exp_run *x, const struct options *o)
{
	const struct pd_meta *meta = pd_reader_meta(x->r);
	char *archive = symbol_archive(o, x->input);
	char *recording_id = sym_recording_id(x->input);
	struct sym_opts so = {
		.symfs = o->symfs,
		.kallsyms = o->kallsyms,
		.os_release = meta ? meta->os_release : NULL,
		.archive = archive,
		.recording_id = recording_id,
		.warn = o->quiet ? NULL : print_sym_warning,
	};
	struct ses_opts sopts = { 0 };
	struct sym_ctx *syms = sym_ctx_new(&so);
	int ret;

	if (!syms)
		die(EXIT_FAILURE, "cannot set up the symbol tables");
	x->ses = ses_new(x->r, syms, &sopts);
	ret = exp_json(x);
	ses_free(x->ses);
	sym_ctx_free(syms);
	free(archive);
	free(recording_id);
	return ret;
}

int
main(int argc, char **argv)
{
	struct options o = { 0 };
	struct pd_reader_opts ropts = { 0 };
	struct exp_run x = { 0 };
	long size;
	int ret;

	diag_set_program("pexport");
	parse_args(argc, argv, &o);
	x.input = o.input ? o.input : tool_default_input();
	if (!o.quiet) {
		ropts.warn = tool_input_warning;
		ropts.warn_ctx = (void *)x.input;
	}
	if (pd_reader_open(&x.r, x.input, &ropts)) {
		error_msg("%s: %s", x.input, pd_reader_errmsg(x.r));
		pd_reader_close(x.r);
		return EXIT_FAILURE;
	}
	x.out = open_output(&o);
	if (!x.out) {
		pd_reader_close(x.r);
		return EXIT_FAILURE;
	}
	ret = run(&x, &o);
	size = ftell(x.out);
	if (fflush(x.out) || ferror(x.out)) {
		error_msg("cannot write '%s'", o.output);
		ret = -1;
	}
	if (x.out != stdout)
		fclose(x.out);
	if (!ret && !o.quiet) {
		/* perf data convert's lines */
		fprintf(stderr, "[ pexport: Converted '%s' into JSON data '%s' ]\n",
			x.input, o.output);
		fprintf(stderr, "[ pexport: Converted and wrote %.3f MB (%llu "
			"samples) ]\n", size > 0 ? size / 1024.0 / 1024.0 : 0,
			(unsigned long long)x.samples);
	}
	pd_reader_close(x.r);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}
