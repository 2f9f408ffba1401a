/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * script/pscript.c - pscript's command line and its loop: every event
 * of the session, in time order, printed as perf 6.1's `perf script`.
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
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
#include "pdata/text.h"
#include "report/inspect/inspect.h"
#include "script/scr.h"
#include "symbol/archive.h"
#include "symbol/symbol.h"

struct options {
	const char *input;
	bool header;			/* --header */
	bool header_only;		/* --header-only */
	bool show_info;			/* -I */
	bool quiet;
	bool no_pager;
	bool no_callchain;		/* -G */
	bool no_demangle;
	bool full_source_paths;		/* --full-source-path */
	bool no_inline;			/* --no-inline */
	unsigned int max_stack;
	bool stitch_lbr;
	const char *symfs;
	const char *kallsyms;
	const char *vmlinux;		/* -k/--vmlinux */
	bool demangle_kernel;		/* --demangle-kernel */
	const char *symbol_archive;
	bool no_archive;
	bool force;			/* -f */
};

enum {
	OPT_HEADER = 256,
	OPT_KALLSYMS,
	OPT_DEMANGLE_KERNEL,
	OPT_HEADER_ONLY,
	OPT_NS,
	OPT_MAX_STACK,
	OPT_STITCH_LBR,
	OPT_TIME,
	OPT_COMMS,
	OPT_PID,
	OPT_TID,
	OPT_SYMFS,
	OPT_SYMBOL_ARCHIVE,
	OPT_NO_ARCHIVE,
	OPT_NO_DEMANGLE,
	OPT_FULL_SOURCE_PATH,
	OPT_DEMANGLE,
	OPT_INLINE,
	OPT_NO_INLINE,
	OPT_SHOW_TASK,
	OPT_SHOW_MMAP,
	OPT_SHOW_SWITCH,
	OPT_SHOW_LOST,
	OPT_SHOW_NS,
	OPT_SHOW_CGROUP,
	OPT_SHOW_BPF,
	OPT_SHOW_ROUND,
	OPT_SHOW_POKE,
	OPT_SHOW_ON_OFF,
	OPT_VERSION,
	OPT_NO_PAGER,
};

static const struct option long_options[] = {
	{ "input",		required_argument, NULL, 'i' },
	{ "fields",		required_argument, NULL, 'F' },
	{ "ns",			no_argument,       NULL, OPT_NS },
	{ "hide-call-graph",	no_argument,       NULL, 'G' },
	{ "max-stack",		required_argument, NULL, OPT_MAX_STACK },
	{ "stitch-lbr",		no_argument,       NULL, OPT_STITCH_LBR },
	{ "time",		required_argument, NULL, OPT_TIME },
	{ "comms",		required_argument, NULL, OPT_COMMS },
	{ "pid",		required_argument, NULL, OPT_PID },
	{ "tid",		required_argument, NULL, OPT_TID },
	{ "cpu",		required_argument, NULL, 'C' },
	{ "symfs",		required_argument, NULL, OPT_SYMFS },
	{ "kallsyms",		required_argument, NULL, OPT_KALLSYMS },
	{ "demangle-kernel",	no_argument,       NULL, OPT_DEMANGLE_KERNEL },
	{ "vmlinux",		required_argument, NULL, 'k' },
	{ "symbol-archive",	required_argument, NULL, OPT_SYMBOL_ARCHIVE },
	{ "no-archive",		no_argument,       NULL, OPT_NO_ARCHIVE },
	{ "no-demangle",	no_argument,       NULL, OPT_NO_DEMANGLE },
	{ "full-source-path",	no_argument,       NULL, OPT_FULL_SOURCE_PATH },
	{ "demangle",		no_argument,       NULL, OPT_DEMANGLE },
	{ "inline",		no_argument,       NULL, OPT_INLINE },
	{ "no-inline",		no_argument,       NULL, OPT_NO_INLINE },
	{ "header",		no_argument,       NULL, OPT_HEADER },
	{ "header-only",	no_argument,       NULL, OPT_HEADER_ONLY },
	{ "show-info",		no_argument,       NULL, 'I' },
	{ "force",		no_argument,       NULL, 'f' },
	{ "show-task-events",	no_argument,       NULL, OPT_SHOW_TASK },
	{ "show-mmap-events",	no_argument,       NULL, OPT_SHOW_MMAP },
	{ "show-switch-events",	no_argument,       NULL, OPT_SHOW_SWITCH },
	{ "show-lost-events",	no_argument,       NULL, OPT_SHOW_LOST },
	{ "show-namespace-events", no_argument,    NULL, OPT_SHOW_NS },
	{ "show-cgroup-events",	no_argument,       NULL, OPT_SHOW_CGROUP },
	{ "show-bpf-events",	no_argument,       NULL, OPT_SHOW_BPF },
	{ "show-round-events",	no_argument,       NULL, OPT_SHOW_ROUND },
	{ "show-text-poke-events", no_argument,    NULL, OPT_SHOW_POKE },
	{ "show-on-off-events",	no_argument,       NULL, OPT_SHOW_ON_OFF },
	{ "quiet",		no_argument,       NULL, 'q' },
	{ "no-pager",		no_argument,       NULL, OPT_NO_PAGER },
	{ "help",		no_argument,       NULL, 'h' },
	{ "version",		no_argument,       NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void
usage(FILE *out)
{
	fprintf(out,
		"Usage: pscript [-i FILE] [OPTIONS]\n"
		"Print every sample of a perf.data file, and the side-band\n"
		"records asked for, as `perf script` (Linux perf 6.1) does.\n"
		"\n"
		"  -i, --input FILE     the file to read (default perf.data; '-' or a\n"
		"                       FIFO on standard input reads a pipe-mode stream)\n"
		"  -F, --fields [TYPE:]FIELDS  the fields to print: comm, tid, pid,\n"
		"                       time, cpu, event, trace, ip, sym, symoff, dso,\n"
		"                       addr, srcline, period, iregs, uregs, brstack,\n"
		"                       brstacksym, brstackoff, flags, data_src,\n"
		"                       weight, phys_addr, misc, tod, data_page_size,\n"
		"                       code_page_size, ins_lat, ipc, synth, metric,\n"
		"                       callindent, machine_pid, vcpu; +FIELD adds,\n"
		"                       -FIELD removes; TYPE is hw, sw, trace, raw,\n"
		"                       break or synth\n"
		"      --ns             times with nanoseconds\n"
		"  -G, --hide-call-graph  no callchains\n"
		"      --max-stack N    print at most N frames of each callchain (127)\n"
		"      --stitch-lbr     continue LBR call stacks (--call-graph lbr) with\n"
		"                       the calls of the thread's previous sample\n"
		"      --time START,STOP  only samples in this time range (seconds,\n"
		"                       or percentages as perf takes them)\n"
		"      --comms LIST     only samples of these commands\n"
		"      --pid LIST       only samples of these processes\n"
		"      --tid LIST       only samples of these threads\n"
		"  -C, --cpu LIST       only records on these CPUs (\"0-3,7\")\n"
		"      --show-task-events     also COMM, FORK and EXIT records\n"
		"      --show-mmap-events     also MMAP and MMAP2 records\n"
		"      --show-switch-events   also context switch records\n"
		"      --show-lost-events     also LOST records\n"
		"      --show-namespace-events  also NAMESPACES records\n"
		"      --show-cgroup-events   also CGROUP records\n"
		"      --show-bpf-events      also KSYMBOL and BPF_EVENT records\n"
		"      --show-round-events    also FINISHED_ROUND records\n"
		"      --show-text-poke-events  also TEXT_POKE records\n"
		"      --show-on-off-events   accepted (pscript has no\n"
		"                       --switch-on/--switch-off)\n"
		"      --header         print the header first\n"
		"      --header-only    print the header only\n"
		"  -I, --show-info      with --header(-only): the topology, cache\n"
		"                       and memory details too\n"
		"      --symfs DIR      look for binaries under DIR\n"
		"      --kallsyms FILE  kernel symbols from FILE, a kallsyms file\n"
		"  -k, --vmlinux FILE   kernel symbols from FILE, a vmlinux image\n"
		"                       of the recorded kernel (--kallsyms first)\n"
		"      --demangle-kernel  demangle the -k image's symbols too\n"
		"      --symbol-archive PATH  take symbols from this pdata symbol\n"
		"                       archive (default: FILE.pdsym beside FILE)\n"
		"      --no-archive     use no symbol archive\n"
		"      --no-demangle    print symbol names as they are in the binary\n"
		"      --full-source-path  source lines name the file's whole path\n"
		"                       (not with a symbol archive)\n"
		"      --inline         add the inline frames of DWARF-unwound\n"
		"                       callchain entries (the default)\n"
		"      --no-inline      add no inline frames\n"
		"  -f, --force          read FILE and /tmp/perf-PID.map files owned by\n"
		"                       another user (not root)\n"
		"  -q, --quiet          do not print warnings\n"
		"      --no-pager       on a terminal, print without a pager\n"
		"  -h, --help           show this help\n"
		"      --version        show the version\n");
}

static void
parse_filter(struct scr *s, int c, const char *arg)
{
	struct rep_filters *f = &s->filt;
	char err[256];
	int ret = 0;

	switch (c) {
	case OPT_COMMS:
		ret = rep_filter_parse_names(&f->comms, &f->nr_comms, arg, "comm",
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
		if (ret) {
			/* perf's words */
			fputs("Invalid time string\n", stderr);
			exit(2);
		}
		break;
	}
	if (ret)
		die(2, "%s", err);
}

static bool
parse_show(struct scr *s, int c)
{
	switch (c) {
	case OPT_SHOW_TASK:
		s->show_task = true;
		break;
	case OPT_SHOW_MMAP:
		s->show_mmap = true;
		break;
	case OPT_SHOW_SWITCH:
		s->show_switch = true;
		break;
	case OPT_SHOW_LOST:
		s->show_lost = true;
		break;
	case OPT_SHOW_NS:
		s->show_ns = true;
		break;
	case OPT_SHOW_CGROUP:
		s->show_cgroup = true;
		break;
	case OPT_SHOW_BPF:
		s->show_bpf = true;
		break;
	case OPT_SHOW_ROUND:
		s->show_round = true;
		break;
	case OPT_SHOW_POKE:
		s->show_poke = true;
		break;
	case OPT_SHOW_ON_OFF:
		/*
		 * perf shows the events of --switch-on/--switch-off with it;
		 * without those (which pscript refuses) it changes nothing.
		 */
		break;
	default:
		return false;
	}
	return true;
}

static unsigned int
parse_uint(const char *opt, const char *arg)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 0);

	if (end == arg || *end || v > 0xffffffffUL)
		die(2, "%s: '%s' is not a number", opt, arg);
	return (unsigned int)v;
}

static bool
parse_symbol_opt(struct options *o, int c)
{
	switch (c) {
	case OPT_SYMFS:
		o->symfs = optarg;
		break;
	case OPT_KALLSYMS:
		o->kallsyms = optarg;
		break;
	case 'k':
		/* perf's symbol__validate_sym_arguments() */
		if (access(optarg, R_OK))
			die(1, "Invalid file: %s", optarg);
		o->vmlinux = optarg;
		break;
	case OPT_DEMANGLE_KERNEL:
		o->demangle_kernel = true;
		break;
	case OPT_SYMBOL_ARCHIVE:
		o->symbol_archive = optarg;
		o->no_archive = false;
		break;
	case OPT_NO_ARCHIVE:
		o->no_archive = true;
		o->symbol_archive = NULL;
		break;
	case OPT_NO_DEMANGLE:
		o->no_demangle = true;
		break;
	case OPT_FULL_SOURCE_PATH:
		o->full_source_paths = true;
		break;
	case OPT_DEMANGLE:
		o->no_demangle = false;
		break;
	case OPT_INLINE:
		o->no_inline = false;
		break;
	case OPT_NO_INLINE:
		o->no_inline = true;
		break;
	default:
		return false;
	}
	return true;
}

static void
parse_args(int argc, char **argv, struct options *o, struct scr *s)
{
	int c;

	while ((c = getopt_long(argc, argv, "i:F:GC:k:Ifqh", long_options,
				NULL)) != -1) {
		if (parse_show(s, c) || parse_symbol_opt(o, c))
			continue;
		switch (c) {
		case 'i':
			o->input = optarg;
			break;
		case 'F':
			if (scr_fields_parse(&s->f, optarg))
				exit(2);
			break;
		case OPT_NS:
			s->ns = true;
			break;
		case 'G':
			o->no_callchain = true;
			break;
		case OPT_STITCH_LBR:
			o->stitch_lbr = true;
			break;
		case OPT_MAX_STACK:
			o->max_stack = parse_uint("--max-stack", optarg);
			s->no_frames = !o->max_stack;
			break;
		case OPT_TIME:
		case OPT_COMMS:
		case OPT_PID:
		case OPT_TID:
		case 'C':
			parse_filter(s, c, optarg);
			break;
		case OPT_HEADER:
			o->header = true;
			break;
		case OPT_HEADER_ONLY:
			o->header_only = true;
			break;
		case 'I':
			o->show_info = true;
			break;
		case 'f':
			o->force = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case OPT_NO_PAGER:
			o->no_pager = true;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_SUCCESS);
		case OPT_VERSION:
			printf("pscript (pdata) %s\n", VERSION);
			exit(EXIT_SUCCESS);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind < argc)
		die(2, "unexpected argument '%s': pscript runs no scripts "
		    "(see --help)", argv[optind]);
}

/* --symbol-archive, else FILE.pdsym beside a regular input, as preport */
static char *
symbol_archive(const struct options *o)
{
	if (o->no_archive)
		return NULL;
	if (o->symbol_archive)
		return xstrdup(o->symbol_archive);
	return sym_archive_beside(o->input);
}

static void
print_sym_warning(void *ctx, const char *msg)
{
	(void)ctx;
	warn_msg("%s", msg);
}

/* --comms, --pid, --tid, -C and --time, as perf script applies them */
static bool
sample_kept(const struct scr *s, const struct ses_sample *ss)
{
	const struct rep_filters *f = &s->filt;

	if (ss->filtered || !rep_filter_keeps_time(f, ss->time) ||
	    !rep_filter_keeps_thread(f, ss->thread))
		return false;
	/* perf script's filter_cpu(): a sample without a CPU passes */
	return !f->cpus || ss->cpu == (uint32_t)-1 ||
	       (ss->cpu < f->nr_cpus && f->cpus[ss->cpu]);
}

static int
print_samples(struct scr *s, const struct ses_sample *ss)
{
	struct ses_sample one;
	size_t pos = 0;

	if (!ss->raw || !(ss->raw->type & PD_SAMPLE_READ))
		return sample_kept(s, ss) ? scr_print_sample(s, ss) : 0;
	while (ses_read_split(s->ses, ss, &pos, &one))
		if (sample_kept(s, &one) && scr_print_sample(s, &one))
			return -1;
	return 0;
}

/*
 * perf 6.1 stops at a record of a user type it does not know (types from
 * COMPRESSED2 on, simpleperf's), with this message; so does pscript, to
 * print what it prints.
 */
static bool
unknown_to_perf(const struct scr *s, const struct ses_event *ev)
{
	const struct pd_record *rec = ev->rec;

	if (ev->kind != SES_USER || rec->header.type < PD_RECORD_COMPRESSED2)
		return false;
	if (s->pipe)
		fprintf(stderr, "%#" PRIx64 " [%#x]: failed to process type: "
			"%u\n", rec->offset, rec->header.size,
			rec->header.type);
	else
		fprintf(stderr, "%#" PRIx64 " [%#x]: failed to process type: "
			"%u [Invalid argument]\n", rec->offset,
			rec->header.size, rec->header.type);
	return true;
}

/*
 * A pipe-mode stream carries its tracing data in a HEADER_TRACING_DATA
 * record: the reader has noted where, when it can be read again.
 */
static void
stream_tracing_data(struct scr *s, const struct ses_event *ev)
{
	if (ev->kind != SES_USER || s->trace ||
	    ev->rec->header.type != PD_RECORD_HEADER_TRACING_DATA)
		return;
	/* perf 6.1 resolves no %ps argument in a stream: hex addresses */
	s->trace = ses_trace_new(s->r);
}

/* --header on a stream: each feature where perf prints it */
static void
stream_feature(struct scr *s, const struct ses_event *ev)
{
	if (!s->hdr || ev->kind != SES_USER ||
	    ev->rec->header.type != PD_RECORD_HEADER_FEATURE)
		return;
	scr_out_flush(&s->out);
	rep_header_feature(s->hdr, ev->rec);
	fflush(stdout);
}

/* The loop; 0, 1 when a check failed (said why), or a -PD_E_*. */
/*
 * perf script decodes the AUX area traces it has a decoder for (Intel
 * PT and BTS, ARM SPE, s390 CPU-MF, HiSilicon PTT) into samples of its
 * own; pscript has none, and says so rather than print a profile
 * without them.  A trace perf 6.1 cannot decode here (CoreSight ETM,
 * without OpenCSD) it leaves out, and so does pscript.
 */
static bool
aux_decoded_by_perf(uint32_t type)
{
	switch (type) {
	case 1:		/* PERF_AUXTRACE_INTEL_PT */
	case 2:		/* PERF_AUXTRACE_INTEL_BTS */
	case 4:		/* PERF_AUXTRACE_ARM_SPE */
	case 5:		/* PERF_AUXTRACE_S390_CPUMSF */
	case 6:		/* PERF_AUXTRACE_HISI_PTT */
		return true;
	default:
		return false;
	}
}

static bool
aux_trace_refused(const struct scr *s, const struct ses_event *ev)
{
	if (ev->kind != SES_USER ||
	    ev->rec->header.type != PD_RECORD_AUXTRACE_INFO || !ev->event ||
	    !aux_decoded_by_perf(ev->event->auxtrace_info.type))
		return false;
	error_msg("%s: offset %#" PRIx64 ": the file holds an AUX area "
		  "trace (AUXTRACE_INFO), which pscript does not decode; perf "
		  "script decodes it", pd_reader_source_name(s->r, 0),
		  ev->rec->offset);
	return true;
}

static int
run(struct scr *s)
{
	struct ses_event ev;
	int ret = 0;

	s->cur = &ev;
	while (!s->out.broken && (ret = ses_next(s->ses, &ev)) > 0) {
		if (ev.kind == SES_SAMPLE) {
			if (scr_sample_needs_raw(s, ev.sample) &&
			    (ret = ses_decode_sample(s->ses, &ev)) != 0)
				return ret;
			if (print_samples(s, ev.sample))
				return 1;
			continue;
		}
		if (aux_trace_refused(s, &ev))
			return 1;
		stream_tracing_data(s, &ev);
		stream_feature(s, &ev);
		if (unknown_to_perf(s, &ev) || scr_print_record(s, &ev))
			return 1;
	}
	return s->out.broken ? 0 : ret;
}

/* perf_session__cpu_bitmap(): the first event of each type has the CPU */
static bool
cpus_sampled(const struct scr *s)
{
	size_t i, n = pd_reader_nr_evsels(s->r);
	uint32_t seen = 0, type;

	for (i = 0; i < n; i++) {
		const struct pd_attr *a = &pd_reader_evsel(s->r, i)->attr;

		type = a->type;
		if (type >= PD_TYPE_MAX || (seen & (1u << type)))
			continue;
		seen |= 1u << type;
		if (!(a->sample_type & PD_SAMPLE_CPU))
			return false;
	}
	return true;
}

static int
setup(struct scr *s, const struct options *o)
{
	const struct pd_meta *meta = pd_reader_meta(s->r);
	char err[256];

	s->pipe = pd_reader_info(s->r)->mode == PD_MODE_PIPE;
	s->use_callchain = !o->no_callchain;
	s->arch = pd_arch_normalize(meta && meta->arch ? meta->arch : NULL);
	if (!s->arch)
		s->arch = "x86";
	if (meta && rep_filter_resolve_time(&s->filt, meta->first_sample_time,
					    meta->last_sample_time, err,
					    sizeof(err))) {
		error_msg("%s", err);
		return 1;
	}
	if (s->filt.cpus && !s->pipe && !cpus_sampled(s)) {
		fputs("File does not contain CPU events. Remove -C option to "
		      "proceed.\n", stderr);
		return 1;
	}
	return scr_fields_check_file(s) ? 1 : 0;
}

/* whether some event's samples print source lines (-F srcline, srccode) */
static bool
prints_srclines(const struct scr *s)
{
	size_t i, n = pd_reader_nr_evsels(s->r);

	for (i = 0; i < n; i++) {
		const struct pd_evsel *ev = pd_reader_evsel(s->r, i);

		if (s->f.t[scr_otype(ev->attr.type)].fields &
		    (SCR_BIT(SRCLINE) | SCR_BIT(SRCCODE)))
			return true;
	}
	return false;
}

/* whether some event's samples print code or data addresses */
static bool
prints_addresses(const struct scr *s)
{
	const uint64_t addr_fields = SCR_BIT(IP) | SCR_BIT(ADDR) |
		SCR_BIT(BRSTACK) | SCR_BIT(BRSTACKSYM) | SCR_BIT(BRSTACKOFF);
	size_t i, n = pd_reader_nr_evsels(s->r);

	for (i = 0; i < n; i++) {
		const struct pd_evsel *ev = pd_reader_evsel(s->r, i);

		if (s->f.t[scr_otype(ev->attr.type)].fields & addr_fields)
			return true;
	}
	return false;
}

static int
script(struct scr *s, const struct options *o, const char *recording_id)
{
	struct sym_opts so = { 0 };
	struct ses_opts sopts = { 0 };
	const struct pd_meta *meta = pd_reader_meta(s->r);
	struct sym_ctx *syms;
	char *archive;
	int ret;

	ret = setup(s, o);
	if (ret)
		return ret;
	archive = symbol_archive(o);
	if (o->vmlinux && (archive || prints_srclines(s))) {
		fprintf(stderr, "pscript: -k/--vmlinux: %s\n", archive ?
			"the symbol archive holds the kernel's symbols "
			"(--no-archive reads the image)" :
			"source lines of the kernel from a vmlinux image are "
			"not supported (-F srcline, srccode)");
		free(archive);
		return 1;
	}
	if (archive && o->full_source_paths) {
		fprintf(stderr, "pscript: --full-source-path: the symbol archive %s "
			"keeps the base names of source files only (--no-archive "
			"reads the binaries)\n", archive);
		free(archive);
		return 1;
	}
	so.full_source_paths = o->full_source_paths;
	so.symfs = o->symfs;
	so.kallsyms = o->kallsyms;
	so.vmlinux = o->vmlinux;
	so.demangle_kernel = o->demangle_kernel;
	so.os_release = meta ? meta->os_release : NULL;
	so.no_demangle = o->no_demangle;
	so.archive = archive;
	so.archive_beside = archive && !o->symbol_archive;
	so.force = o->force;
	so.recording_id = recording_id;
	so.warn = o->quiet ? NULL : print_sym_warning;
	/* kallsyms is read ahead only for samples that print addresses */
	so.no_prefetch = !prints_addresses(s);
	syms = sym_ctx_new(&so);
	if (!syms) {
		free(archive);
		die(EXIT_FAILURE, "cannot set up the symbol tables");
	}
	sopts.max_stack = o->max_stack;
	sopts.inline_frames = !o->no_inline;
	sopts.no_callchain = o->no_callchain;
	if (o->stitch_lbr && !ses_stitch_lbr_applies(s->r))
		/* perf's warning, and on without stitching */
		fprintf(stderr, "Can't find LBR callchain. Switch off "
			"--stitch-lbr.\nPlease apply --call-graph lbr when "
			"recording.\n");
	else
		sopts.stitch_lbr = o->stitch_lbr;
	sopts.stack_ids = true;
	sopts.resolve_on_demand = true;
	/* perf script turns ordering off to show the rounds where they are */
	sopts.file_order = s->show_round;
	if (!s->pipe)
		sopts.threads = ses_threads_default();
	s->ses = ses_new(s->r, syms, &sopts);
	s->trace = ses_trace_new(s->r);
	if (s->trace)
		ses_trace_resolve_kernel(s->trace, s->ses);
	ret = run(s);
	/* what is buffered may refer to the stacks' text */
	scr_out_flush(&s->out);
	scr_stacks_free(&s->stacks);
	scr_starts_free(s);
	ses_trace_memo_free(s);
	scr_insn_free(s);
	ses_trace_free(s->trace);
	s->trace = NULL;
	sb_free(&s->tbuf);
	if (ret < 0)
		error_msg("%s: %s", o->input, ses_errmsg(s->ses));
	ses_free(s->ses);
	s->ses = NULL;
	sym_ctx_free(syms);
	free(archive);
	return ret ? 1 : 0;
}

int
pscript_main(int argc, char **argv)
{
	struct options o = { 0 };
	struct pd_reader_opts ropts = { 0 };
	struct scr s = { 0 };
	char *recording_id = NULL;
	int err, ret = 0;

	diag_set_program("pscript");
	xalloc_large_apart();
	signal(SIGPIPE, SIG_IGN);
	scr_fields_init(&s.f);
	parse_args(argc, argv, &o, &s);
	if (!o.input)
		o.input = tool_default_input();
	if (!o.quiet) {
		ropts.warn = tool_input_warning;
		ropts.warn_ctx = (void *)o.input;
	}
	/* perf script pages before it opens the file, stdin too */
	if (!o.no_pager)
		term_pager_start("PDATA_PAGER");
	if (!tool_input_allowed(o.input, o.force)) {
		rep_filters_free(&s.filt);
		return EXIT_FAILURE;
	}
	err = pd_reader_open(&s.r, o.input, &ropts);
	if (err) {
		error_msg("%s: %s", o.input, pd_reader_errmsg(s.r));
		pd_reader_close(s.r);
		rep_filters_free(&s.filt);
		return EXIT_FAILURE;
	}
	/*
	 * What perf prints before reading the data: all of a file's header,
	 * a stream's file header (its features are printed as they come).
	 */
	if (o.header || o.header_only) {
		s.hdr = rep_header_begin(stdout, s.r, o.show_info);
		if (fflush(stdout) != 0 || ferror(stdout))
			die(EXIT_FAILURE, "error writing the output");
	}
	if (!o.header_only) {
		scr_out_init(&s.out, STDOUT_FILENO);
		recording_id = sym_recording_id(o.input);
		ret = script(&s, &o, recording_id);
		scr_out_flush(&s.out);
		if (s.out.err)
			die(EXIT_FAILURE, "error writing the output: %s",
			    strerror(s.out.err));
		scr_out_free(&s.out);
	}
	rep_header_end(s.hdr);
	pd_reader_close(s.r);
	rep_filters_free(&s.filt);
	free(s.evs);
	free(recording_id);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}
