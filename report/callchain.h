/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/callchain.h - the callchain tree of one histogram entry and its
 * printing in perf 6.1's --stdio shapes (perf-record-decoding.md §6.6):
 * graph, fractal, flat, folded, in caller or callee order.
 */
#ifndef PD_REPORT_CALLCHAIN_H
#define PD_REPORT_CALLCHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/model.h"

enum rep_cc_mode {
	REP_CC_GRAPH,		/* percentages of the event's total */
	REP_CC_FRACTAL,		/* percentages of the parent */
	REP_CC_FLAT,
	REP_CC_FOLDED,
	REP_CC_NONE,
};

struct rep_cc_root;

struct rep_cc_root *rep_cc_new(void);
void rep_cc_free(struct rep_cc_root *root);

/*
 * Add one chain with its period.  frames[0..nr) are leaf first, as the
 * session gives them; reverse adds them root first (caller order).  The
 * caller picks the slice (in children mode, the part of the chain above
 * the entry).
 * Frames are merged as perf's "function" key does: same symbol (and
 * DSO) when resolved, same ip otherwise.  Frame contents are copied.
 */
void rep_cc_add(struct rep_cc_root *root, const struct rep_loc *frames,
		size_t nr, bool reverse, uint64_t period);

struct rep_cc_print_opts {
	enum rep_cc_mode mode;
	double min_percent;		/* threshold, 0.5 by default */
	uint64_t total;			/* the event's total period (graph, flat, folded) */
	uint64_t entry_period;		/* the entry's own value (fractal root, single-branch rule) */
	unsigned int margin;		/* left margin: width of the leading percentage columns */
	bool skip_first;		/* first frame equals the entry's symbol (sort starts with sym, no -F) */
	unsigned int print_limit;	/* --call-graph print_limit; 0 = no limit */
};

/* Print the tree under its entry line, followed by perf's blank line. */
void rep_cc_print(FILE *out, const struct rep_cc_root *root,
		  const struct rep_cc_print_opts *opts);

#endif /* PD_REPORT_CALLCHAIN_H */
