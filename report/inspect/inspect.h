/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/inspect.h - the modes that show a file as it is rather
 * than a report of it.
 *
 * Each mode reads from an open reader and prints to out.  They return 0,
 * or the -PD_E_* value that stopped reading (everything read before it has
 * been printed); main() prints pd_reader_errmsg() once.
 */
#ifndef PD_REPORT_INSPECT_INSPECT_H
#define PD_REPORT_INSPECT_INSPECT_H

#include <stdbool.h>
#include <stdio.h>

#include "pdata/reader.h"

/* --header-only [-I]: the header as `perf report --header-only [-I]` prints it. */
int rep_header_print(FILE *out, struct pd_reader *r, bool show_info);

/*
 * --header [-I]: the same header before another mode's output.
 * rep_header_begin() prints what perf prints before reading the data: all
 * of a file's header, the file header of a stream.  The mode then hands
 * each HEADER_FEATURE record of a stream, as it reads it, to
 * rep_header_feature(), which prints the feature as perf does (h may be
 * NULL: nothing is printed).
 */
struct rep_hdr;
struct rep_hdr *rep_header_begin(FILE *out, struct pd_reader *r,
				 bool show_info);
void rep_header_feature(struct rep_hdr *h, const struct pd_record *rec);
void rep_header_end(struct rep_hdr *h);

/*
 * --stats: record counts per type, as `perf report --stats` prints them;
 * keep_empty (perf's --no-skip-empty): every type perf 6.1 names, and
 * every event, even when none was counted.
 */
int rep_stats_print(FILE *out, struct pd_reader *r, bool keep_empty);

/*
 * The counting behind --stats, shared with -D, which ends with the counts
 * as perf's does.  perf counts samples per event differently in the two:
 * -D runs the report, so its counts follow report semantics (branch mode
 * counts branch entries; no LOST_SAMPLES per event; names from the file).
 */
enum rep_stats_kind {
	REP_STATS_STATS,	/* as `perf report --stats` */
	REP_STATS_DUMP,		/* as the end of `perf report -D` */
};
struct rep_stats;
struct rep_stats *rep_stats_new(enum rep_stats_kind kind, bool keep_empty);
void rep_stats_count(struct rep_stats *st, struct pd_reader *r, const struct pd_record *rec);
void rep_stats_print_counts(FILE *out, struct pd_reader *r, const struct rep_stats *st);
void rep_stats_free(struct rep_stats *st);

/* --evlist[=KIND]: the events, as perf evlist [-v|-F|-g] prints them. */
enum rep_evlist_kind {
	REP_EVLIST_NAMES,
	REP_EVLIST_VERBOSE,	/* -v: every attr field */
	REP_EVLIST_FREQ,	/* -F: sample_freq= or sample_period= */
	REP_EVLIST_GROUP,	/* -g: groups as {leader,member,...} */
};
int rep_evlist_print(FILE *out, struct pd_reader *r, enum rep_evlist_kind kind);

/* -D / --dump-raw-trace: every record with its offset, size and fields. */
/* color: the raw bytes in perf's colour (a terminal or its pager). */
int rep_dump(FILE *out, struct pd_reader *r, bool keep_empty, bool color);

#endif /* PD_REPORT_INSPECT_INSPECT_H */
