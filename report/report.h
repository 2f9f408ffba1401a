/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/report.h - preport's report: its options, one part per concern,
 * and the runs that read a file for it (the report, --archive).  The
 * modes that show a file as it is are in report/inspect/inspect.h.
 */
#ifndef PD_REPORT_H
#define PD_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "pdata/reader.h"
#include "report/callchain/callchain.h"
#include "report/hist/hist.h"
#include "report/out/out.h"

/*
 * The report's options.  Each concern's part is defined in its folder: a
 * sort key or an output format with options of its own adds them there.
 */
struct rep_report_opts {
	struct rep_hist_opts hist;	/* keys, columns, filters, branch */
	struct rep_cc_opts cc;		/* --children, -g */
	struct rep_out_opts out;	/* how the entries are printed */
	/* the session and symbol options */
	const char *symfs;
	const char *kallsyms;
	const char *vmlinux;		/* -k/--vmlinux, unless --ignore-vmlinux */
	bool demangle_kernel;		/* --demangle-kernel (a -k image's symbols) */
	bool no_demangle;
	bool full_source_paths;		/* --full-source-path */
	const char *recording_id;	/* sym_recording_id() of the input, or NULL */
	bool archive_beside;		/* the archive is FILE.pdsym (sym_opts) */
	bool force;			/* -f */
	unsigned int max_stack;
	bool stitch_lbr;		/* --stitch-lbr */
	bool no_inline;			/* --no-inline */
	bool pipe;			/* set by rep_report_run(): a pipe-mode input */
	struct rep_hdr *hdr;		/* --header: its printer (inspect.h), or NULL */
	/*
	 * --switch-on/--switch-off: samples are dropped until a sample of
	 * the on event, and after one of the off event until the next on;
	 * the on and off events' own samples too, unless show_on_off
	 */
	const char *switch_on, *switch_off;
	bool show_on_off;
	bool show_threads;		/* -T: the READ records' counts per thread */
	bool raw_trace;			/* --raw-trace: the trace key's fields, no print fmt */
	bool pretty_raw;		/* --pretty raw: -T's raw table */
	bool group;			/* groups as one section (default; --no-group) */
	bool group_set;			/* --group or --no-group given */
	bool quiet;
};

/*
 * The report (no mode option): histograms printed as `perf report
 * --stdio` prints them.  The sort and column lists of opts->hist are
 * filled in here.  Returns 0, or 1 after a message: reading stopped
 * with an error (rep_session_error()) or the options do not fit the
 * file; 2 after a message when a sort key names nothing (no key of
 * perf's, no tracepoint field of the file).  archive: the pdata symbol archive to
 * take symbols from (sym_opts.archive), or NULL.
 */
int rep_report_run(FILE *out, struct pd_reader *r, struct rep_report_opts *opts,
		   const char *archive);

/*
 * preport --unwind-stats (report/unwind-stats.c): how the --call-graph
 * dwarf samples of r unwound, and where and why those that stopped early
 * stopped, per DSO, with hints; the filters of opts->hist.filt apply.
 * Returns 0, or 1 after a message.
 */
int rep_unwind_stats_run(FILE *out, struct pd_reader *r,
			 struct rep_report_opts *opts, const char *archive);

/* -T: each thread's counts per event (thread-values.c). */
struct rep_thread_values {
	uint32_t *pid, *tid;
	size_t nr_threads;
	uint64_t *rawid;		/* the event's index */
	const char **name;		/* the event's name (the reader's) */
	size_t nr_counters;
	uint64_t **value;		/* [thread][counter], summed */
};
void rep_thread_values_add(struct rep_thread_values *tv, uint32_t pid,
			   uint32_t tid, uint64_t rawid, const char *name,
			   uint64_t value);
/* perf_read_values_display(): pretty, or raw (--pretty raw) */
void rep_thread_values_print(FILE *out, const struct rep_thread_values *tv,
			     bool raw);
void rep_thread_values_free(struct rep_thread_values *tv);

/*
 * --tasks (mmaps false) and --mmaps: the threads of the recording as a
 * tree under their parents, each with its maps for --mmaps, as perf
 * report prints them.  Returns 0, or 1 after an error message.
 */
int rep_tasks_run(FILE *out, struct pd_reader *r, struct rep_report_opts *o,
		  bool mmaps);

/*
 * --buildid-list[=hits]: the DSOs' build-ids, as perf buildid-list [-H]
 * prints them.  Returns 0, or 1 after an error message.
 */
int rep_buildid_list_run(FILE *out, struct pd_reader *r,
			 const struct rep_report_opts *o, bool with_hits);

/*
 * A session over r stopped with an error: print it once, as
 * "INPUT: message" with the session's own message, and return 1.
 */
struct ses_session;
int rep_session_error(struct pd_reader *r, const struct ses_session *sess);

/*
 * The symbol options of a report of r: --symfs, --kallsyms, --no-demangle,
 * the file's OSRELEASE, warnings unless -q, and the pdata symbol archive
 * to read (NULL: none).  The strings are borrowed from opts and r.
 */
struct sym_opts;
void rep_sym_opts_init(struct sym_opts *so, struct pd_reader *r,
		       const struct rep_report_opts *opts, const char *archive);

/*
 * --archive and --perf-archive (report/archive.c, session/archive.h):
 * one pass over r with every lookup a report could make noted, then the
 * pdata symbol archive written to ar_out and perf archive's tarball to
 * tar_out (either may be NULL).  The summary line, perf's hint and
 * warnings are printed here.  Returns 0, or 1 when an output could not
 * be written (said why).
 */
int rep_archive_run(struct pd_reader *r, const char *input,
		    const struct rep_report_opts *opts, const char *ar_out,
		    const char *tar_out);

#endif /* PD_REPORT_H */
