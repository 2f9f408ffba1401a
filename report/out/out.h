/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/out/out.h - the report's output: the options of how entries are
 * printed, and the printer of `perf report --stdio`'s shape (stdio.c).
 */
#ifndef PD_REPORT_OUT_OUT_H
#define PD_REPORT_OUT_OUT_H

#include <stdbool.h>
#include <stdio.h>

struct rep_out_opts {
	double percent_limit;		/* --percent-limit: hide entries below */
	bool relative;			/* --percentage relative */
	bool color;			/* percentages coloured (--stdio-color) */
	/*
	 * -t: columns separated by this instead of padded with two spaces;
	 * no dotted line, no colour in the columns, and the separator's
	 * first character turned into '.' in keys (NULL: none)
	 */
	const char *field_sep;
	/*
	 * --show-ref-call-graph: the graphs of every event (preport's
	 * always), said in the title of an event named "call-graph=no"
	 */
	bool show_ref_cg;
};

struct rep_report;
struct rep_report_opts;

/*
 * Print every section (events in order, group members with their
 * leader) as `perf report --stdio` does.  titles[i] is what the
 * "# Samples" line names for section i (the event's name or the group
 * description), plural[i] whether it says "events".
 */
void rep_report_print(struct rep_report *rep, FILE *out,
		      const char *const *titles, const bool *plural);

/* The lines perf prints before reading the data (opts' columns set up). */
void rep_report_print_head(FILE *out, const struct rep_report_opts *opts);
/* Which key columns are elided by single-value filters (printed to out if not NULL). */
void rep_report_setup_elide(const struct rep_report_opts *o, bool *elide, FILE *out);

/* The tip line's text, perf's shape. */
const char *rep_report_tip(void);

#endif /* PD_REPORT_OUT_OUT_H */
