/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/out/stdio-int.h - what the --stdio printer (stdio.c) shares with
 * its --hierarchy layout (hierarchy.c).
 */
#ifndef PD_REPORT_OUT_STDIO_INT_H
#define PD_REPORT_OUT_STDIO_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/hist/hist-int.h"

/* One section being printed: the widths and totals it was laid out with. */
struct layout {
	const struct rep_report *rep;
	const struct rep_hist *h;
	int width[REP_MAX_DIMS];	/* per output column */
	int keylen[REP_DIM_NR];		/* key column lengths */
	const uint64_t *total;		/* per member: the percentage base */
	size_t linesz;
};


/* A bounded line buffer: perf formats into a fixed-size one and cuts. */
struct line {
	char *buf;
	size_t size, len;
};


/* The header of column d (perf's fmt->name, "Self" in children mode). */
const char *rep_stdio_col_header(const struct rep_report *rep, enum rep_dim d);
/* perf_hpp__should_skip(): elided, or another event's field. */
bool rep_stdio_col_skipped(const struct layout *lo, enum rep_dim d);
void rep_stdio_line_add(struct line *l, const char *s);
/* perf's repsep_snprintf(): the separator's character in a key is a '.' */
void rep_stdio_dot_out_sep(char *text, char c);
/* A column of numbers of entry e of lo->h, perf's __hpp__fmt. */
void rep_stdio_hpp_entry(struct line *l, const struct layout *lo, enum rep_dim d,
			 size_t e);
/* The percentage --percent-limit compares. */
float rep_stdio_percent_limit(const struct layout *lo, size_t e);
void rep_stdio_print_callchain(FILE *out, const struct layout *lo, size_t e);
/* The totals and the column widths of h. */
void rep_stdio_layout(struct layout *lo, struct rep_hist *h);
/* "# Samples: ..." and the lines after it. */
void rep_stdio_samples_line(FILE *out, const struct rep_report *rep,
			    const struct rep_hist *h, const char *title,
			    bool plural);

/*
 * --hierarchy: the section of h, its entries under one another by the
 * levels of the sort keys (hierarchy.c).
 */
void rep_hierarchy_print(FILE *out, const struct rep_report *rep,
			 struct rep_hist *h, const char *title, bool plural);

#endif /* PD_REPORT_OUT_STDIO_INT_H */
