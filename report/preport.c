/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/preport.c - preport's command line.
 */
#include "config.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/diag.h"
#include "pdata/reader.h"
#include "report/report.h"

enum mode {
	MODE_NONE,
	MODE_HEADER_ONLY,
	MODE_STATS,
	MODE_DUMP,
};

struct options {
	const char *input;
	enum mode mode;
	bool show_info;
	bool quiet;
};

enum {
	OPT_HEADER_ONLY = 256,
	OPT_STATS,
	OPT_VERSION,
};

static const struct option long_options[] = {
	{ "input",		required_argument, NULL, 'i' },
	{ "header-only",	no_argument,       NULL, OPT_HEADER_ONLY },
	{ "show-info",		no_argument,       NULL, 'I' },
	{ "stats",		no_argument,       NULL, OPT_STATS },
	{ "dump-raw-trace",	no_argument,       NULL, 'D' },
	{ "force",		no_argument,       NULL, 'f' },
	{ "quiet",		no_argument,       NULL, 'q' },
	{ "help",		no_argument,       NULL, 'h' },
	{ "version",		no_argument,       NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void
usage(FILE *out)
{
	fprintf(out,
		"Usage: preport [-i FILE] MODE [OPTIONS]\n"
		"Read a perf.data file (file mode, pipe mode, a --threads directory,\n"
		"either byte order, zstd-compressed) and print what it holds.\n"
		"\n"
		"Input:\n"
		"  -i, --input FILE     the file to read (default perf.data; '-' or a\n"
		"                       FIFO on standard input reads a pipe-mode stream)\n"
		"  -f, --force          accepted for perf compatibility; pdata reads\n"
		"                       files whatever their owner\n"
		"\n"
		"Modes:\n"
		"      --header-only    print the header as `perf report --header-only` does\n"
		"  -I, --show-info      with --header-only: also the topology, cache and\n"
		"                       memory details (perf's -I)\n"
		"      --stats          count the records of each type, and samples per event\n"
		"  -D, --dump-raw-trace print every record with its file offset, size,\n"
		"                       type and every decoded field\n"
		"\n"
		"Other:\n"
		"  -q, --quiet          do not print warnings\n"
		"  -h, --help           show this help\n"
		"      --version        show the version\n");
}

static const char *const mode_names[] = {
	[MODE_HEADER_ONLY] = "--header-only",
	[MODE_STATS] = "--stats",
	[MODE_DUMP] = "-D",
};

static void
set_mode(struct options *o, enum mode mode)
{
	if (o->mode != MODE_NONE && o->mode != mode)
		die(2, "%s and %s cannot be combined (see --help)",
		    mode_names[o->mode], mode_names[mode]);
	o->mode = mode;
}

static void
parse_args(int argc, char **argv, struct options *o)
{
	int c;

	while ((c = getopt_long(argc, argv, "i:IDfqh", long_options, NULL)) != -1) {
		switch (c) {
		case 'i':
			o->input = optarg;
			break;
		case OPT_HEADER_ONLY:
			set_mode(o, MODE_HEADER_ONLY);
			break;
		case 'I':
			o->show_info = true;
			break;
		case OPT_STATS:
			set_mode(o, MODE_STATS);
			break;
		case 'D':
			set_mode(o, MODE_DUMP);
			break;
		case 'f':
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_SUCCESS);
		case OPT_VERSION:
			printf("preport (pdata) %s\n", VERSION);
			exit(EXIT_SUCCESS);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind < argc)
		die(2, "unexpected argument '%s' (see --help)", argv[optind]);
	if (o->mode == MODE_NONE)
		die(2, "choose what to print: --header-only, --stats or -D (see --help)");
}

/* perf's rule: with no -i, a FIFO on standard input is the input. */
static const char *
default_input(void)
{
	struct stat st;

	if (fstat(STDIN_FILENO, &st) == 0 && S_ISFIFO(st.st_mode))
		return "-";
	return "perf.data";
}

static void
print_warning(void *ctx, uint64_t offset, const char *msg)
{
	const char *input = ctx;

	(void)offset;	/* the message names it */
	warn_msg("%s: %s", input, msg);
}

static int
run_mode(const struct options *o, struct pd_reader *r)
{
	switch (o->mode) {
	case MODE_HEADER_ONLY:
		return rep_header_print(stdout, r, o->show_info);
	case MODE_STATS:
		return rep_stats_print(stdout, r);
	case MODE_DUMP:
		return rep_dump(stdout, r);
	default:
		return 0;
	}
}

int
main(int argc, char **argv)
{
	struct options o = { 0 };
	struct pd_reader_opts ropts = { 0 };
	struct pd_reader *r;
	int err;

	diag_set_program("preport");
	parse_args(argc, argv, &o);
	if (!o.input)
		o.input = default_input();
	if (!o.quiet) {
		ropts.warn = print_warning;
		ropts.warn_ctx = (void *)o.input;
	}
	err = pd_reader_open(&r, o.input, &ropts);
	if (err) {
		error_msg("%s: %s", o.input, pd_reader_errmsg(r));
		pd_reader_close(r);
		return EXIT_FAILURE;
	}
	err = run_mode(&o, r);
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_FAILURE, "error writing the output");
	if (err)
		error_msg("%s: %s", o.input, pd_reader_errmsg(r));
	pd_reader_close(r);
	return err ? EXIT_FAILURE : EXIT_SUCCESS;
}
