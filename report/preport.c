/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/preport.c - preport's command line.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/diag.h"
#include "lib/input.h"
#include "lib/term.h"
#include "lib/xalloc.h"
#include "pdata/reader.h"
#include "report/hist/hist.h"
#include "report/inspect/inspect.h"
#include "report/report.h"
#include "symbol/archive.h"

enum mode {
	MODE_NONE,		/* the report */
	MODE_HEADER_ONLY,
	MODE_STATS,
	MODE_DUMP,
	MODE_ARCHIVE,		/* --archive and/or --perf-archive */
	MODE_UNWIND_STATS,	/* --unwind-stats */
	MODE_TASKS,		/* --tasks, --mmaps */
	MODE_EVLIST,		/* --evlist[=KIND] */
	MODE_BUILDID_LIST,	/* --buildid-list[=hits] */
};

struct options {
	const char *input;
	enum mode mode;
	const char *mode_name;	/* the option that chose mode */
	bool show_info;
	bool header;		/* --header: the header, then the mode's output */
	bool quiet;
	bool inverted;		/* -G: caller order */
	bool mmaps;		/* --mmaps: --tasks with each task's maps */
	enum rep_evlist_kind evlist;	/* --evlist's KIND */
	bool buildid_hits;	/* --buildid-list=hits */
	int color_mode;		/* --stdio-color (term_color_mode()); -3: none */
	bool no_pager;
	bool has_prefix, has_prefix_strip;	/* annotation's, checked only */
	bool keep_empty;	/* --no-skip-empty */
	bool ignore_vmlinux;	/* --ignore-vmlinux */
	/* --archive[=OUT], --perf-archive[=OUT]: OUT, "" for the default */
	const char *archive_out;
	const char *perf_archive_out;
	const char *symbol_archive;	/* --symbol-archive */
	bool no_archive;		/* --no-archive */
	struct rep_report_opts rep;
};

enum {
	OPT_HEADER_ONLY = 256,
	OPT_HEADER,
	OPT_STATS,
	OPT_UNWIND_STATS,
	OPT_VERSION,
	OPT_STDIO,
	OPT_CHILDREN,
	OPT_NO_CHILDREN,
	OPT_INLINE,
	OPT_NO_INLINE,
	OPT_PERCENT_LIMIT,
	OPT_PERCENTAGE,
	OPT_MAX_STACK,
	OPT_STITCH_LBR,
	OPT_BRANCH_HISTORY,
	OPT_COMMS,
	OPT_PID,
	OPT_TID,
	OPT_DSOS,
	OPT_TIME,
	OPT_GROUP,
	OPT_NO_GROUP,
	OPT_SYMFS,
	OPT_NO_DEMANGLE,
	OPT_DEMANGLE,
	OPT_SHOW_PERIOD,
	OPT_NO_BRANCH_STACK,
	OPT_MEM_MODE,
	OPT_NO_CALL_GRAPH,
	OPT_ARCHIVE,
	OPT_PERF_ARCHIVE,
	OPT_SYMBOL_ARCHIVE,
	OPT_NO_ARCHIVE,
	OPT_KALLSYMS,
	OPT_TASKS,
	OPT_STDIO_COLOR,
	OPT_NO_PAGER,
	OPT_SKIP_EMPTY,
	OPT_NO_SKIP_EMPTY,
	OPT_MMAPS,
	OPT_SYMBOL_FILTER,
	OPT_SOCKET_FILTER,
	OPT_PERCENT_TYPE,
	OPT_SAMPLES,
	OPT_IGNORE_VMLINUX,
	OPT_FULL_SOURCE_PATH,
	OPT_DEMANGLE_KERNEL,
	OPT_SHOW_CPU_UTIL,
	OPT_SHOW_REF_CG,
	OPT_HIERARCHY,
	OPT_RAW_TRACE,
	OPT_TIME_QUANTUM,
	OPT_NS,
	OPT_GROUP_SORT_IDX,
	OPT_SWITCH_ON,
	OPT_SWITCH_OFF,
	OPT_SHOW_ON_OFF,
	OPT_IGNORE_CALLEES,
	OPT_PREFIX,
	OPT_PREFIX_STRIP,
	OPT_PRETTY,
	OPT_EVLIST,
	OPT_BUILDID_LIST,
};

static const struct option long_options[] = {
	{ "input",		required_argument, NULL, 'i' },
	{ "header",		no_argument,       NULL, OPT_HEADER },
	{ "header-only",	no_argument,       NULL, OPT_HEADER_ONLY },
	{ "show-info",		no_argument,       NULL, 'I' },
	{ "stats",		no_argument,       NULL, OPT_STATS },
	{ "unwind-stats",	no_argument,       NULL, OPT_UNWIND_STATS },
	{ "dump-raw-trace",	no_argument,       NULL, 'D' },
	{ "archive",		optional_argument, NULL, OPT_ARCHIVE },
	{ "perf-archive",	optional_argument, NULL, OPT_PERF_ARCHIVE },
	{ "symbol-archive",	required_argument, NULL, OPT_SYMBOL_ARCHIVE },
	{ "no-archive",		no_argument,       NULL, OPT_NO_ARCHIVE },
	{ "force",		no_argument,       NULL, 'f' },
	{ "stdio",		no_argument,       NULL, OPT_STDIO },
	{ "sort",		required_argument, NULL, 's' },
	{ "fields",		required_argument, NULL, 'F' },
	{ "show-nr-samples",	no_argument,       NULL, 'n' },
	{ "show-total-period",	no_argument,       NULL, OPT_SHOW_PERIOD },
	{ "field-separator",	required_argument, NULL, 't' },
	{ "threads",		no_argument,       NULL, 'T' },
	{ "show-cpu-utilization", no_argument,     NULL, OPT_SHOW_CPU_UTIL },
	{ "show-ref-call-graph", no_argument,      NULL, OPT_SHOW_REF_CG },
	{ "hierarchy",		no_argument,       NULL, OPT_HIERARCHY },
	{ "raw-trace",		no_argument,       NULL, OPT_RAW_TRACE },
	{ "time-quantum",	required_argument, NULL, OPT_TIME_QUANTUM },
	{ "ns",			no_argument,       NULL, OPT_NS },
	{ "group-sort-idx",	required_argument, NULL, OPT_GROUP_SORT_IDX },
	{ "switch-on",		required_argument, NULL, OPT_SWITCH_ON },
	{ "switch-off",		required_argument, NULL, OPT_SWITCH_OFF },
	{ "show-on-off-events",	no_argument,       NULL, OPT_SHOW_ON_OFF },
	{ "percent-limit",	required_argument, NULL, OPT_PERCENT_LIMIT },
	{ "percentage",		required_argument, NULL, OPT_PERCENTAGE },
	{ "children",		no_argument,       NULL, OPT_CHILDREN },
	{ "no-children",	no_argument,       NULL, OPT_NO_CHILDREN },
	{ "inline",		no_argument,       NULL, OPT_INLINE },
	{ "no-inline",		no_argument,       NULL, OPT_NO_INLINE },
	{ "call-graph",		optional_argument, NULL, 'g' },
	{ "no-call-graph",	no_argument,       NULL, OPT_NO_CALL_GRAPH },
	{ "max-stack",		required_argument, NULL, OPT_MAX_STACK },
	{ "stitch-lbr",		no_argument,       NULL, OPT_STITCH_LBR },
	{ "branch-history",	no_argument,       NULL, OPT_BRANCH_HISTORY },
	{ "parent",		required_argument, NULL, 'p' },
	{ "ignore-callees",	required_argument, NULL, OPT_IGNORE_CALLEES },
	{ "comms",		required_argument, NULL, OPT_COMMS },
	{ "pid",		required_argument, NULL, OPT_PID },
	{ "tid",		required_argument, NULL, OPT_TID },
	{ "dsos",		required_argument, NULL, OPT_DSOS },
	{ "symbols",		required_argument, NULL, 'S' },
	{ "symbol-filter",	required_argument, NULL, OPT_SYMBOL_FILTER },
	{ "socket-filter",	required_argument, NULL, OPT_SOCKET_FILTER },
	{ "percent-type",	required_argument, NULL, OPT_PERCENT_TYPE },
	{ "samples",		required_argument, NULL, OPT_SAMPLES },
	{ "ignore-vmlinux",	no_argument,       NULL, OPT_IGNORE_VMLINUX },
	{ "full-source-path",	no_argument,       NULL, OPT_FULL_SOURCE_PATH },
	{ "demangle-kernel",	no_argument,       NULL, OPT_DEMANGLE_KERNEL },
	{ "prefix",		required_argument, NULL, OPT_PREFIX },
	{ "prefix-strip",	required_argument, NULL, OPT_PREFIX_STRIP },
	{ "pretty",		required_argument, NULL, OPT_PRETTY },
	{ "time",		required_argument, NULL, OPT_TIME },
	{ "cpu",		required_argument, NULL, 'C' },
	{ "group",		no_argument,       NULL, OPT_GROUP },
	{ "no-group",		no_argument,       NULL, OPT_NO_GROUP },
	{ "symfs",		required_argument, NULL, OPT_SYMFS },
	{ "kallsyms",		required_argument, NULL, OPT_KALLSYMS },
	{ "vmlinux",		required_argument, NULL, 'k' },
	{ "inverted",		no_argument,       NULL, 'G' },
	{ "hide-unresolved",	no_argument,       NULL, 'U' },
	{ "exclude-other",	no_argument,       NULL, 'x' },
	{ "tasks",		no_argument,       NULL, OPT_TASKS },
	{ "stdio-color",	optional_argument, NULL, OPT_STDIO_COLOR },
	{ "no-pager",		no_argument,       NULL, OPT_NO_PAGER },
	{ "skip-empty",		no_argument,       NULL, OPT_SKIP_EMPTY },
	{ "no-skip-empty",	no_argument,       NULL, OPT_NO_SKIP_EMPTY },
	{ "mmaps",		no_argument,       NULL, OPT_MMAPS },
	{ "evlist",		optional_argument, NULL, OPT_EVLIST },
	{ "buildid-list",	optional_argument, NULL, OPT_BUILDID_LIST },
	{ "no-demangle",	no_argument,       NULL, OPT_NO_DEMANGLE },
	{ "demangle",		no_argument,       NULL, OPT_DEMANGLE },
	{ "branch-stack",	no_argument,       NULL, 'b' },
	{ "no-branch-stack",	no_argument,       NULL, OPT_NO_BRANCH_STACK },
	{ "mem-mode",		no_argument,       NULL, OPT_MEM_MODE },
	{ "quiet",		no_argument,       NULL, 'q' },
	{ "verbose",		no_argument,       NULL, 'v' },
	{ "help",		no_argument,       NULL, 'h' },
	{ "version",		no_argument,       NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/*
 * The long options of perf 6.1's report (`perf report -h`) that preport
 * does not have.  getopt_long() takes a unique prefix of our names, perf a
 * unique prefix of its own: a prefix of one of these means another option
 * to perf (--ve is its --verbose, not --version), so it is refused.
 */
static const char *const perf_only_options[] = {
	"asm-raw", "column-widths", "demangle-kernel",
	"disable-order", "disassembler-style",
	"field-separator", "group-sort-idx",
	"ignore-callees", "ignore-vmlinux",
	"inline", "itrace", "modules", "ns",
	"objdump", "percent-type", "prefix", "prefix-strip", "pretty",
	"samples", "show-cpu-utilization", "show-on-off-events",
	"socket-filter", "source",
	"switch-off", "switch-on",
	"symbol-filter", "threads", "time-quantum", "total-cycles",
	"tui",
};

static void
usage(FILE *out)
{
	fprintf(out,
		"Usage: preport [-i FILE] [MODE] [OPTIONS]\n"
		"Read a perf.data file (file mode, pipe mode, a --threads directory,\n"
		"either byte order, zstd-compressed) and print what it holds; without\n"
		"a mode, the profile as `perf report --stdio` prints it.\n"
		"\n"
		"Input:\n"
		"  -i, --input FILE     the file to read (default perf.data; '-' or a\n"
		"                       FIFO on standard input reads a pipe-mode stream)\n"
		"  -f, --force          read FILE and /tmp/perf-PID.map files owned by\n"
		"                       another user (not root)\n"
		"\n"
		"Modes:\n"
		"      --header-only    print the header as `perf report --header-only` does\n"
		"      --header         print that header, then the output of the mode\n"
		"                       (the report, --stats or -D)\n"
		"  -I, --show-info      with --header-only or --header: also the\n"
		"                       topology, cache and memory details (perf's -I)\n"
		"      --stats          count the records of each type, and samples per event\n"
		"      --no-skip-empty  --stats and -D also list the record types\n"
		"                       and events with nothing counted\n"
		"                       (--skip-empty: not, the default)\n"
		"      --tasks          the threads, as a tree under their parents\n"
		"      --mmaps          --tasks with each thread's memory maps\n"
		"      --evlist[=KIND]  the events as perf evlist lists them: names\n"
		"                       (default), verbose (-v), freq (-F), group (-g)\n"
		"      --buildid-list[=hits]  the DSOs' build-ids as perf buildid-list\n"
		"                       lists them; hits: those a sample fell in (-H)\n"
		"      --unwind-stats   how the --call-graph dwarf stacks unwound: where and\n"
		"                       why those that stopped early stopped, per DSO\n"
		"  -D, --dump-raw-trace print every record with its file offset, size,\n"
		"                       type and every decoded field\n"
		"      --archive[=OUT]  write the pdata symbol archive of the input:\n"
		"                       the symbols and source lines its reports need,\n"
		"                       for analysis on another machine (default\n"
		"                       OUT: FILE.pdsym)\n"
		"      --perf-archive[=OUT]  write perf archive's tarball of the\n"
		"                       build-id cache entries of the DSOs with\n"
		"                       samples, filling the cache first (default\n"
		"                       OUT: FILE.tar.bz2)\n"
		"\n"
		"Report (the default mode):\n"
		"      --stdio          text output (the only one; accepted for perf\n"
		"                       compatibility)\n"
		"  -s, --sort KEYS      sort keys: comm, pid, dso, sym/symbol,\n"
		"                       parent, cpu, socket, srcline, srcfile, period,\n"
		"                       symbol_size, dso_size, time\n"
		"                       (default comm,dso,sym; +KEYS appends)\n"
		"  -F, --fields FIELDS  output columns exactly: the keys above and\n"
		"                       overhead, overhead_children, sample, period,\n"
		"                       overhead_sys, overhead_us, overhead_guest_sys,\n"
		"                       overhead_guest_us\n"
		"  -n, --show-nr-samples  a Samples column\n"
		"      --show-total-period  a Period column\n"
		"      --time-quantum T  the time key's step: N[ns|us|ms|s] (100ms)\n"
		"      --ns             the time key in nanoseconds\n"
		"  -T, --threads        after the report, each thread's counts from\n"
		"                       the READ records (perf record -s)\n"
		"  -t, --field-separator SEP  columns separated by SEP, not padded\n"
		"                       (its first character in a key turns to '.')\n"
		"      --show-cpu-utilization  sys and usr columns: the share of\n"
		"                       the self period in the kernel, in user space\n"
		"      --hierarchy      each sort key (or keys in braces) a level of\n"
		"                       entries under the one before, as perf's\n"
		"      --show-ref-call-graph  every event's graphs (preport shows them\n"
		"                       always); the title of an event named\n"
		"                       \"call-graph=no\" says so\n"
		"      --raw-trace      the trace key shows each tracepoint field as\n"
		"                       name=value, not through the print fmt\n"
		"      --percent-limit P  hide entries (and call-graph branches) below P%%\n"
		"      --percentage absolute|relative  percentages of the whole or of\n"
		"                       what the filters keep\n"
		"      --children       accumulate callers' periods (default with\n"
		"                       callchains)\n"
		"      --no-children    self periods only\n"
		"  -g, --call-graph[=MODE,THRESHOLD,PRINT_LIMIT,ORDER,KEY,VALUE]\n"
		"                       call graphs: graph, fractal, flat, folded or\n"
		"                       none; caller or callee (default\n"
		"                       graph,0.5,caller,function,percent)\n"
		"      --no-call-graph  no call graphs\n"
		"  -G, --inverted       caller order, whatever -g says\n"
		"      --max-stack N    use at most N frames of each callchain (127)\n"
		"      --stitch-lbr     continue LBR call stacks (--call-graph lbr) with\n"
		"                       the calls of the thread's previous sample\n"
		"      --branch-history  put the branch stacks (-b recordings) into\n"
		"                       the call graphs, with their branch counts\n"
		"                       (default sort srcline,symbol,dso)\n"
		"  -x, --exclude-other  only entries whose parent matched (the\n"
		"                       parent key, or -p, names one)\n"
		"      --ignore-callees REGEX  a frame whose symbol matches is the\n"
		"                       sample's own, its callees left out\n"
		"  -p, --parent REGEX   the parent sort key's pattern\n"
		"                       (default ^sys_|^do_page_fault)\n"
		"  -c, --comms LIST     only these commands\n"
		"      --pid LIST       only these processes\n"
		"      --tid LIST       only these threads\n"
		"  -d, --dsos LIST      only these shared objects\n"
		"  -U, --hide-unresolved  leave out samples, and callchain\n"
		"                       entries, that resolve to no symbol\n"
		"  -S, --symbols LIST   only these symbols\n"
		"      --symbol-filter STR  only entries whose symbol's name has\n"
		"                       STR in it; --socket-filter N: on socket N\n"
		"                       (as perf: with the comm key, and the symbol\n"
		"                       filter on the first event only)\n"
		"      --time START,STOP  only samples in this time range (seconds;\n"
		"                       several ranges separated by spaces; or\n"
		"                       percentages: 10%%/2, 0%%-10%%,30%%-40%%, 50%%)\n"
		"  -C, --cpu LIST       only samples on these CPUs (\"0-3,7\")\n"
		"      --switch-on EVENT, --switch-off EVENT  only the samples\n"
		"                       after one of EVENT (on) and before one of\n"
		"                       EVENT (off); --show-on-off-events keeps\n"
		"                       the samples of those two events\n"
		"      --group          show the events as one group\n"
		"      --group-sort-idx N  sort a group's entries by member N first\n"
		"      --no-group       show each event of a group on its own\n"
		"      --symfs DIR      look for binaries under DIR\n"
		"      --kallsyms FILE  kernel symbols from FILE, a kallsyms file\n"
		"  -k, --vmlinux FILE   kernel symbols from FILE, a vmlinux image\n"
		"                       of the recorded kernel (--kallsyms first)\n"
		"      --ignore-vmlinux  no -k\n"
		"      --demangle-kernel  demangle the -k image's symbols too\n"
		"      --percent-type TYPE, --samples N,\n"
		"      --prefix DIR, --prefix-strip N,\n"
		"      --pretty KEY     accepted as perf report takes them; they\n"
		"                       change nothing it prints with --stdio (but\n"
		"                       --pretty raw changes -T's table)\n"
		"      --symbol-archive PATH  take symbols from this pdata symbol\n"
		"                       archive (default: FILE.pdsym when it exists\n"
		"                       beside a regular input FILE)\n"
		"      --no-archive     use no symbol archive\n"
		"  -v, --verbose        DSOs by path, symbols with their address and\n"
		"                       the letter of where their symbols came from\n"
		"      --no-demangle    print symbol names as they are in the binary\n"
		"      --full-source-path  source lines name the file's whole path\n"
		"                       (not with a symbol archive, which keeps base\n"
		"                       names)\n"
		"      --inline         add the inline frames of DWARF-unwound\n"
		"                       callchain entries (the default)\n"
		"      --no-inline      add no inline frames\n"
		"  -b, --branch-stack   one entry per branch of the branch stacks\n"
		"                       (the default on files that have them)\n"
		"      --no-branch-stack  report samples, not branch entries\n"
		"      --mem-mode       memory accesses: one entry per sample of its\n"
		"                       weight, by data source, TLB, data symbol...\n"
		"                       (perf mem report is --mem-mode -n)\n"
		"\n"
		"Other:\n"
		"      --stdio-color[=MODE]  colour the percentages: always (the\n"
		"                       default MODE), never or auto (a terminal\n"
		"                       whose TERM is not dumb); without it, when\n"
		"                       the output is a terminal or the pager\n"
		"      --no-pager       write to a terminal directly, not through\n"
		"                       $PDATA_PAGER, $PAGER or less\n"
		"  -q, --quiet          do not print warnings, nor the report's\n"
		"                       comment lines\n"
		"  -h, --help           show this help\n"
		"      --version        show the version\n");
}

/* The perf-only option that an abbreviation of n bytes also starts, or NULL. */
static const char *
perf_only_match(const char *abbr, size_t n)
{
	size_t i, nr = sizeof(perf_only_options) / sizeof(perf_only_options[0]);

	/* perf reads --no-X as X negated, and abbreviates that too */
	if (n > 3 && !strncmp(abbr, "no-", 3)) {
		abbr += 3;
		n -= 3;
	}
	for (i = 0; i < nr; i++)
		if (!strncmp(perf_only_options[i], abbr, n))
			return perf_only_options[i];
	return NULL;
}

/*
 * The long option getopt_long() just returned, as spelled in argv:
 * refuse an abbreviation that perf report would read as another option.
 */
static void
check_abbrev(int argc, char **argv, const char *name)
{
	const char *arg, *other;
	size_t n;

	if (optind < 2 || optind > argc)
		return;
	arg = argv[optind - 1];
	if (optarg == arg && optind >= 3)
		arg = argv[optind - 2];
	if (strncmp(arg, "--", 2))
		return;
	arg += 2;
	n = strcspn(arg, "=");
	if (n == strlen(name) || !(other = perf_only_match(arg, n)))
		return;
	die(2, "--%.*s: perf report also has --%s; spell out --%s",
	    (int)n, arg, other, name);
}

/* name: the option as the user spelled it, for the message */
static void
set_mode(struct options *o, enum mode mode, const char *name)
{
	if (o->mode != MODE_NONE && o->mode != mode)
		die(2, "%s and %s cannot be combined (see --help)",
		    o->mode_name, name);
	o->mode = mode;
	o->mode_name = name;
}

/* --archive[=OUT] and --perf-archive[=OUT]: "" stands for the default */
static const char *
archive_arg(const char *opt, const char *arg)
{
	if (!arg)
		return "";
	if (!*arg)
		die(2, "%s=: the file name is empty", opt);
	return arg;
}

static double
parse_double(const char *opt, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end)
		die(2, "%s: '%s' is not a number", opt, arg);
	return v;
}

/*
 * perf's -g takes its argument from the next word when that word does
 * not start with '-' (parse-options' LASTARG_DEFAULT).
 */
static void
parse_call_graph(struct options *o, int argc, char **argv, const char *arg)
{
	const char *bad = NULL;

	if (!arg && optind < argc && argv[optind][0] != '-')
		arg = argv[optind++];
	if (!arg)
		arg = "graph,0.5,caller,function,percent";
	if (rep_cc_param_parse(&o->rep.cc.param, arg, &bad))
		die(2, "invalid callchain option '%s'", bad ? bad : arg);
	o->rep.cc.use_callchain = o->rep.cc.param.mode != REP_CC_NONE;
}

static void
parse_report_filter(struct options *o, int c, const char *arg)
{
	struct rep_filters *f = &o->rep.hist.filt;
	char err[256];
	int ret = 0;

	switch (c) {
	case OPT_COMMS:
		ret = rep_filter_parse_names(&f->comms, &f->nr_comms, arg, "comm",
					     err, sizeof(err));
		break;
	case OPT_DSOS:
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
	case OPT_TID:
		ret = rep_filter_parse_ints(&f->tids, &f->nr_tids, arg, "tid",
					    err, sizeof(err));
		break;
	case 'C':
		ret = rep_filter_parse_cpus(f, arg, err, sizeof(err));
		break;
	case OPT_TIME:
		ret = rep_filter_parse_time(f, arg, err, sizeof(err));
		break;
	default:
		break;
	}
	if (ret)
		die(2, "%s", err);
}

/* A decimal int, as perf's OPT_INTEGER reads it. */
static int32_t
parse_int_opt(const char *opt, const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (!*arg || *end || errno || v < INT32_MIN || v > INT32_MAX)
		die(2, "%s: expected a number, not '%s'", opt, arg);
	return (int32_t)v;
}

/* perf's parse_time_quantum(): a number of ns, s, ms or us; not 0 */
static uint64_t
parse_time_quantum(const char *arg)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 },
	};
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (end == arg || errno || arg[0] == '-')
		die(2, "--time-quantum: cannot parse '%s'", arg);
	if (!v)
		die(2, "--time-quantum: the quantum cannot be 0");
	while (*end == ' ' || *end == '\t')
		end++;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			if (v > UINT64_MAX / units[i].ns)
				die(2, "--time-quantum: '%s' is too long", arg);
			return v * units[i].ns;
		}
	die(2, "--time-quantum: cannot parse '%s'", arg);
}

/* --evlist's KIND: perf evlist's plain, -v, -F or -g listing */
static enum rep_evlist_kind
parse_evlist_kind(const char *arg)
{
	static const char *const kinds[] = {
		[REP_EVLIST_NAMES] = "names",
		[REP_EVLIST_VERBOSE] = "verbose",
		[REP_EVLIST_FREQ] = "freq",
		[REP_EVLIST_GROUP] = "group",
	};

	if (!arg)
		return REP_EVLIST_NAMES;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(arg, kinds[i]))
			return (enum rep_evlist_kind)i;
	die(2, "--evlist: expected names, verbose, freq or group, not '%s'",
	    arg);
}

static bool
word_is(const char *p, size_t n, const char *word)
{
	return strlen(word) == n && !strncmp(p, word, n);
}

/* --percent-type: local or global, and period or hits, joined by '-' */
static void
check_percent_type(const char *arg)
{
	const char *dash = strchr(arg, '-');
	const char *b = dash ? dash + 1 : "";
	size_t na = dash ? (size_t)(dash - arg) : 0, nb = strlen(b);
	bool scope_a = word_is(arg, na, "local") || word_is(arg, na, "global");
	bool scope_b = word_is(b, nb, "local") || word_is(b, nb, "global");
	bool what_a = word_is(arg, na, "period") || word_is(arg, na, "hits");
	bool what_b = word_is(b, nb, "period") || word_is(b, nb, "hits");

	if (!(scope_a && what_b) && !(what_a && scope_b))
		die(2, "--percent-type: expected local-period, global-period, "
		    "local-hits or global-hits, not '%s'", arg);
}


/* perf's message for a --parent (--ignore-callees) pattern regcomp refuses */
static void
check_parent_re(const char *what, const char *pattern)
{
	char why[256];
	regex_t re;
	int err = regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB);

	if (!err) {
		regfree(&re);
		return;
	}
	regerror(err, &re, why, sizeof(why));
	die(2, "%s: %s\n%s", what, pattern, why);
}

static bool
parse_report_opt(struct options *o, int c, int argc, char **argv)
{
	struct rep_report_opts *r = &o->rep;

	switch (c) {
	case OPT_STDIO:
		break;
	case OPT_STDIO_COLOR:
		/* perf's LASTARG_DEFAULT: the next word, else "always" */
		if (!optarg && optind < argc && argv[optind][0] != '-')
			optarg = argv[optind++];
		o->color_mode = term_color_mode(optarg ? optarg : "always");
		if (o->color_mode == -2)
			die(2, "--stdio-color: expected always, never or auto, "
			    "not '%s'", optarg);
		break;
	case OPT_NO_PAGER:
		o->no_pager = true;
		break;
	case OPT_SKIP_EMPTY:
		o->keep_empty = false;
		break;
	case OPT_NO_SKIP_EMPTY:
		o->keep_empty = true;
		break;
	case 's':
		r->hist.sort_str = optarg;
		break;
	case 'F':
		r->hist.fields_str = optarg;
		break;
	case 'n':
		r->hist.show_nr = true;
		break;
	case OPT_SHOW_PERIOD:
		r->hist.show_period = true;
		break;
	case OPT_PERCENT_LIMIT:
		r->out.percent_limit = parse_double("--percent-limit", optarg);
		r->cc.param.min_percent = r->out.percent_limit;
		break;
	case OPT_PERCENTAGE:
		if (strcmp(optarg, "relative") && strcmp(optarg, "absolute"))
			die(2, "--percentage: expected relative or absolute, not '%s'", optarg);
		r->out.relative = !strcmp(optarg, "relative");
		break;
	case OPT_CHILDREN:
		r->cc.children = 1;
		break;
	case OPT_NO_CHILDREN:
		r->cc.children = 0;
		break;
	case OPT_NO_INLINE:
		r->no_inline = true;
		break;
	case OPT_INLINE:
		r->no_inline = false;
		break;
	case 'g':
		parse_call_graph(o, argc, argv, optarg);
		break;
	case OPT_NO_CALL_GRAPH:
		r->cc.use_callchain = 0;
		r->cc.param.mode = REP_CC_NONE;
		break;
	case OPT_MAX_STACK:
		r->max_stack = (unsigned int)parse_double("--max-stack", optarg);
		break;
	case OPT_STITCH_LBR:
		r->stitch_lbr = true;
		break;
	case OPT_BRANCH_HISTORY:
		r->cc.branch_history = true;
		break;
	case 'p':
		check_parent_re("Invalid regex", optarg);
		r->hist.parent_re = optarg;
		break;
	case OPT_IGNORE_CALLEES:
		check_parent_re("Invalid --ignore-callees regex", optarg);
		r->hist.ignore_callees = optarg;
		break;
	case OPT_GROUP:
		r->group = true;
		r->group_set = true;
		break;
	case OPT_NO_GROUP:
		r->group = false;
		r->group_set = true;
		break;
	case OPT_SYMFS:
		r->symfs = optarg;
		break;
	case OPT_KALLSYMS:
		r->kallsyms = optarg;
		break;
	case 'k':
		r->vmlinux = optarg;
		break;
	case OPT_IGNORE_VMLINUX:
		o->ignore_vmlinux = true;
		break;
	/*
	 * perf report's options that change nothing it prints with --stdio
	 * (annotation, the TUI's sample list, vmlinux and kernel ELF
	 * files, which preport never reads): checked as perf checks them
	 */
	case OPT_PERCENT_TYPE:
		check_percent_type(optarg);
		break;
	case OPT_SAMPLES:
		(void)parse_int_opt("--samples", optarg);
		break;
	case OPT_PRETTY:	/* perf takes any key; raw changes -T's table */
		r->pretty_raw = !strcmp(optarg, "raw");
		break;
	case OPT_DEMANGLE_KERNEL:
		r->demangle_kernel = true;
		break;
	case OPT_PREFIX:
		o->has_prefix = true;
		break;
	case OPT_PREFIX_STRIP:
		o->has_prefix_strip = true;
		break;
	case 'G':
		o->inverted = true;
		break;
	case 'U':
		r->hist.hide_unresolved = true;
		break;
	case 'x':
		r->hist.exclude_other = true;
		break;
	case 'T':
		r->show_threads = true;
		break;
	case 't':
		if (!*optarg)
			die(2, "-t: the separator is empty");
		/* perf prints its two first lines, says so and exits 0 */
		if (*optarg == '.')
			die(2, "-t: '.' is the only separator perf refuses");
		r->out.field_sep = optarg;
		break;
	case OPT_SHOW_CPU_UTIL:
		r->hist.show_cpu_util = true;
		break;
	case OPT_SHOW_REF_CG:
		r->out.show_ref_cg = true;
		break;
	case OPT_HIERARCHY:
		r->hist.hierarchy = true;
		break;
	case OPT_RAW_TRACE:
		r->raw_trace = true;
		break;
	case OPT_TIME_QUANTUM:
		r->hist.time_quantum = parse_time_quantum(optarg);
		break;
	case OPT_NS:
		r->hist.time_ns = true;
		break;
	case OPT_SWITCH_ON:
		r->switch_on = optarg;
		break;
	case OPT_SWITCH_OFF:
		r->switch_off = optarg;
		break;
	case OPT_SHOW_ON_OFF:
		r->show_on_off = true;
		break;
	case OPT_GROUP_SORT_IDX: {
		int32_t idx = parse_int_opt("--group-sort-idx", optarg);

		/* perf: an index that is no member sorts by the leader */
		r->hist.group_sort_idx = idx > 0 ? (unsigned int)idx : 0;
		break;
	}
	case OPT_SYMBOL_FILTER:
		r->hist.symbol_filter = optarg;
		break;
	case OPT_SOCKET_FILTER:
		r->hist.socket_filter = parse_int_opt("--socket-filter", optarg);
		r->hist.has_socket_filter = r->hist.socket_filter > -1;
		break;
	case OPT_NO_DEMANGLE:
		r->no_demangle = true;
		break;
	case OPT_FULL_SOURCE_PATH:
		r->full_source_paths = true;
		break;
	case 'v':
		/* perf's -vv and more dump maps and DSOs around the report */
		if (r->hist.verbose)
			die(2, "-v given more than once: only perf's first level "
			    "(DSO paths, symbol addresses and origins) is printed");
		r->hist.verbose = true;
		break;
	case OPT_DEMANGLE:
		r->no_demangle = false;
		break;
	case 'b':
		r->hist.branch_stack = true;
		r->hist.no_branch_stack = false;
		break;
	case OPT_NO_BRANCH_STACK:
		r->hist.no_branch_stack = true;
		r->hist.branch_stack = false;
		break;
	case OPT_MEM_MODE:
		r->hist.mem_mode = true;
		break;
	case 'c':
		parse_report_filter(o, OPT_COMMS, optarg);
		break;
	case 'd':
		parse_report_filter(o, OPT_DSOS, optarg);
		break;
	case OPT_COMMS: case OPT_DSOS: case 'S': case OPT_PID:
	case OPT_TID: case 'C': case OPT_TIME:
		parse_report_filter(o, c, optarg);
		break;
	default:
		return false;
	}
	return true;
}

/* rep_field_resolver that takes any key and adds no field. */
static int
field_checked_later(void *ctx, const char *key, struct rep_hist_opts *o)
{
	(void)ctx;
	(void)key;
	(void)o;
	return 0;
}

static void
parse_args(int argc, char **argv, struct options *o)
{
	char err[256];
	int c, idx = -1;

	o->rep.cc.children = -1;
	o->rep.cc.use_callchain = -1;
	o->color_mode = -3;
	o->rep.group = true;
	rep_cc_param_init(&o->rep.cc.param);
	while ((c = getopt_long(argc, argv, "i:IDfqhs:F:ngp:C:k:S:bGUxc:d:t:Tv",
				long_options, &idx)) != -1) {
		if (idx >= 0)
			check_abbrev(argc, argv, long_options[idx].name);
		idx = -1;
		if (parse_report_opt(o, c, argc, argv))
			continue;
		switch (c) {
		case 'i':
			o->input = optarg;
			break;
		case OPT_HEADER_ONLY:
			set_mode(o, MODE_HEADER_ONLY, "--header-only");
			break;
		case OPT_HEADER:
			o->header = true;
			break;
		case 'I':
			o->show_info = true;
			break;
		case OPT_UNWIND_STATS:
			set_mode(o, MODE_UNWIND_STATS, "--unwind-stats");
			break;
		case OPT_STATS:
			set_mode(o, MODE_STATS, "--stats");
			break;
		case OPT_TASKS:
			set_mode(o, MODE_TASKS, "--tasks");
			break;
		case OPT_MMAPS:
			set_mode(o, MODE_TASKS, "--mmaps");
			o->mmaps = true;
			break;
		case OPT_EVLIST:
			set_mode(o, MODE_EVLIST, "--evlist");
			o->evlist = parse_evlist_kind(optarg);
			break;
		case OPT_BUILDID_LIST:
			set_mode(o, MODE_BUILDID_LIST, "--buildid-list");
			if (optarg && strcmp(optarg, "hits"))
				die(2, "--buildid-list: expected hits, not '%s'",
				    optarg);
			o->buildid_hits = optarg != NULL;
			break;
		case 'D':
			set_mode(o, MODE_DUMP, "-D");
			break;
		case OPT_ARCHIVE:
			set_mode(o, MODE_ARCHIVE, "--archive");
			o->archive_out = archive_arg("--archive", optarg);
			break;
		case OPT_PERF_ARCHIVE:
			set_mode(o, MODE_ARCHIVE, "--perf-archive");
			o->perf_archive_out = archive_arg("--perf-archive", optarg);
			break;
		case OPT_SYMBOL_ARCHIVE:
			o->symbol_archive = optarg;
			o->no_archive = false;
			break;
		case OPT_NO_ARCHIVE:
			o->no_archive = true;
			o->symbol_archive = NULL;
			break;
		case 'f':
			o->rep.force = true;
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
	if (o->has_prefix_strip && !o->has_prefix)
		die(2, "--prefix-strip requires --prefix");
	if (o->ignore_vmlinux)
		o->rep.vmlinux = NULL;
	/* perf's symbol__validate_sym_arguments() */
	if (o->rep.vmlinux && access(o->rep.vmlinux, R_OK))
		die(1, "Invalid file: %s", o->rep.vmlinux);
	if (o->rep.kallsyms && access(o->rep.kallsyms, R_OK))
		die(1, "Invalid file: %s", o->rep.kallsyms);
	if (o->rep.vmlinux && o->mode == MODE_ARCHIVE)
		die(2, "-k/--vmlinux and %s cannot be combined: an archive "
		    "keeps the kernel's symbols as kallsyms gives them",
		    o->mode_name);
	/* perf applies -G after every -g: caller order whatever they said */
	if (o->inverted) {
		o->rep.cc.param.caller = true;
		o->rep.cc.param.order_set = true;
	}
	if (o->header && o->mode == MODE_ARCHIVE)
		die(2, "--header and %s cannot be combined (see --help)",
		    o->mode_name);
	o->rep.quiet = o->quiet;
	if (o->rep.hist.hierarchy) {
		if (o->rep.hist.fields_str)
			die(2, "--hierarchy and --fields options cannot be used "
			    "together (see --help)");
		/*
		 * perf turns children off, whatever was asked, after it
		 * chose the callchain order with them still on (they are
		 * by default): caller order, unless -g said one
		 */
		if (o->rep.cc.children != 0 && !o->rep.cc.param.order_set) {
			o->rep.cc.param.caller = true;
			o->rep.cc.param.order_set = true;
		}
		o->rep.cc.children = 0;
	}
	/* a key that may be a tracepoint field is checked with the file */
	o->rep.hist.field_resolver = field_checked_later;
	if (o->mode == MODE_NONE &&
	    rep_report_setup_dims(&o->rep, false, err, sizeof(err)))
		die(2, "%s (see --help)", err);
	o->rep.hist.field_resolver = NULL;
}

static char *
with_suffix(const char *path, const char *suffix)
{
	size_t n = strlen(path), m = strlen(suffix);
	char *s = xmalloc(n + m + 1);

	memcpy(s, path, n);
	memcpy(s + n, suffix, m + 1);
	return s;
}

/*
 * The symbol archive of a report: --symbol-archive, else FILE.pdsym
 * beside the input file (or --threads directory) when it exists; NULL
 * with --no-archive.
 */
static char *
report_archive(struct options *o)
{
	if (o->no_archive)
		return NULL;
	if (o->symbol_archive)
		return xstrdup(o->symbol_archive);
	o->rep.archive_beside = true;
	return sym_archive_beside(o->input);
}

/* An output named by --archive=OUT, or FILE.suffix. */
static char *
archive_out(const struct options *o, const char *given, const char *suffix)
{
	if (!given)
		return NULL;
	if (*given)
		return xstrdup(given);
	return with_suffix(o->input, suffix);
}

static int
run_archive(struct options *o, struct pd_reader *r)
{
	char *ar = archive_out(o, o->archive_out, ".pdsym");
	char *tar = archive_out(o, o->perf_archive_out, ".tar.bz2");
	int ret;

	ret = rep_archive_run(r, o->input, &o->rep, ar, tar);
	free(ar);
	free(tar);
	return ret;
}

static int
run_report(struct options *o, struct pd_reader *r)
{
	char *archive = report_archive(o);
	int ret;

	if (archive && o->rep.vmlinux) {
		error_msg("-k/--vmlinux: the symbol archive %s holds the kernel's "
			  "symbols (--no-archive reads the image)", archive);
		free(archive);
		return 1;
	}
	if (archive && o->rep.full_source_paths) {
		error_msg("--full-source-path: the symbol archive %s keeps the base "
			  "names of source files only (--no-archive reads the "
			  "binaries)", archive);
		free(archive);
		return 1;
	}
	ret = rep_report_run(stdout, r, &o->rep, archive);
	free(archive);
	return ret;
}

static int
run_unwind_stats(struct options *o, struct pd_reader *r)
{
	char *archive = report_archive(o);
	int ret;

	ret = rep_unwind_stats_run(stdout, r, &o->rep, archive);
	free(archive);
	return ret;
}

static int
run_one(struct options *o, struct pd_reader *r)
{
	switch (o->mode) {
	case MODE_HEADER_ONLY:
		return rep_header_print(stdout, r, o->show_info);
	case MODE_STATS:
		return rep_stats_print(stdout, r, o->keep_empty);
	case MODE_DUMP:
		return rep_dump(stdout, r, o->keep_empty, o->rep.out.color);
	case MODE_ARCHIVE:
		return run_archive(o, r);
	case MODE_UNWIND_STATS:
		return run_unwind_stats(o, r);
	case MODE_EVLIST:
		return rep_evlist_print(stdout, r, o->evlist);
	case MODE_TASKS:
		return rep_tasks_run(stdout, r, &o->rep, o->mmaps);
	case MODE_BUILDID_LIST:
		return rep_buildid_list_run(stdout, r, &o->rep, o->buildid_hits);
	default:
		return run_report(o, r);
	}
}

/*
 * perf prints --header before it reads the data, whatever the mode, and
 * not at all with -q; --header-only wins over it.
 */
static int
run_mode(struct options *o, struct pd_reader *r)
{
	int ret;

	if (!o->header || o->quiet || o->mode == MODE_HEADER_ONLY)
		return run_one(o, r);
	o->rep.hdr = rep_header_begin(stdout, r, o->show_info);
	ret = run_one(o, r);
	rep_header_end(o->rep.hdr);
	o->rep.hdr = NULL;
	return ret;
}

/* An ELF file's build-id and a newline; false when path is no ELF with one. */
static bool
print_elf_build_id(const char *path)
{
	uint8_t id[SYM_BUILD_ID_MAX];
	char hex[2 * SYM_BUILD_ID_MAX + 1];
	int n;

	if (!strcmp(path, "-"))
		return false;
	n = sym_elf_build_id(path, id);
	if (n <= 0)
		return false;
	sym_build_id_hex(id, (size_t)n, hex);
	printf("%s\n", hex);
	return true;
}

int
main(int argc, char **argv)
{
	struct options o = { 0 };
	struct pd_reader_opts ropts = { 0 };
	struct pd_reader *r;
	char *recording_id = NULL;
	int err;

	diag_set_program("preport");
	xalloc_large_apart();
	parse_args(argc, argv, &o);
	if (!o.input)
		o.input = tool_default_input();
	if (!strcmp(o.input, "-")) {
		if (o.archive_out && !*o.archive_out)
			die(2, "--archive: name the output (--archive=OUT) "
			    "when reading a pipe");
		if (o.perf_archive_out && !*o.perf_archive_out)
			die(2, "--perf-archive: name the output "
			    "(--perf-archive=OUT) when reading a pipe");
	}
	if (!o.quiet) {
		ropts.warn = tool_input_warning;
		ropts.warn_ctx = (void *)o.input;
	}
	if (!tool_input_allowed(o.input, o.rep.force))
		return EXIT_FAILURE;
	/* perf buildid-list on an ELF file prints the file's build-id */
	if (o.mode == MODE_BUILDID_LIST && print_elf_build_id(o.input))
		return EXIT_SUCCESS;
	err = pd_reader_open(&r, o.input, &ropts);
	if (err) {
		error_msg("%s: %s", o.input, pd_reader_errmsg(r));
		pd_reader_close(r);
		return EXIT_FAILURE;
	}
	if (o.mode == MODE_ARCHIVE || o.mode == MODE_NONE ||
	    o.mode == MODE_UNWIND_STATS)
		o.rep.recording_id = recording_id = sym_recording_id(o.input);
	/* perf pages what it prints to a terminal, unless it reads stdin */
	if (!o.no_pager && o.mode != MODE_ARCHIVE && strcmp(o.input, "-"))
		term_pager_start("PDATA_PAGER");
	o.rep.out.color = term_use_color(o.color_mode);
	err = run_mode(&o, r);	/* > 0: refused, already said why */
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_FAILURE, "error writing the output");
	if (err < 0)
		error_msg("%s: %s", o.input, pd_reader_errmsg(r));
	pd_reader_close(r);
	rep_filters_free(&o.rep.hist.filt);
	free(recording_id);
	/* 2: a usage error the file revealed (a sort key it has no field for) */
	return err == 2 ? 2 : err ? EXIT_FAILURE : EXIT_SUCCESS;
}
