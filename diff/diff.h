/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * diff/diff.h - pdiff: the histograms of several recordings side by
 * side, as perf 6.1's `perf diff` prints them (builtin-diff.c).  The
 * files are read by preport's engine (report/hist/), the entries of
 * each event paired by their keys (table.c) and printed (print.c).
 */
#ifndef PD_DIFF_DIFF_H
#define PD_DIFF_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/report.h"

struct rep_hist;
struct rep_hent;

/* -c: what the columns of the files after the baseline show. */
enum pdiff_compute {
	PDIFF_DELTA,
	PDIFF_RATIO,
	PDIFF_WDIFF,
	PDIFF_DELTA_ABS,
};

struct pdiff_opts {
	struct rep_report_opts rep;	/* the keys, filters, symbol options */
	enum pdiff_compute compute;
	int64_t w1, w2;			/* -c wdiff:w1,w2 */
	unsigned int order;		/* -o: the file sorted on first; 0 none */
	bool show_period;		/* -p */
	bool show_formula;		/* -F */
	bool baseline_only;		/* -b */
	bool relative;			/* --percentage relative */
	bool quiet;			/* -q */
	bool no_pager;			/* --no-pager */
	bool color;			/* colour codes in the value columns */
	const char *sep;		/* -t, or NULL */
	const char *time_str;		/* --time as given, or NULL */
};

/* One recording read into its histograms (load.c). */
struct pdiff_file {
	const char *path;
	char *time;			/* this file's part of --time, or NULL */
	struct pd_reader *r;
	struct sym_ctx *syms;
	struct ses_session *sess;
	struct rep_report *rep;
	struct rep_report_opts ropts;	/* the file's own --time ranges */
	char *archive;
	char *recording_id;
	/* per evsel: the periods of its samples, all and not filtered out */
	uint64_t *total;
	uint64_t *total_vis;
};

/*
 * Read f->path into its histograms, f->time its --time.  The session
 * stays open: the entries point into it.  Returns 0, or 1 after a
 * message.
 */
int pdiff_file_load(struct pdiff_file *f, const struct pdiff_opts *o);
void pdiff_file_close(struct pdiff_file *f);

/* A file's evsel that perf pairs with evsel e of base (evsel__match2), or -1. */
long pdiff_evsel_match(const struct pdiff_file *base, size_t e,
		       const struct pdiff_file *f);

/* An entry of a file once collapsed (collapse.c): the one perf keeps. */
struct pdiff_ent {
	const struct rep_hent *he;
	uint64_t period;
};

/*
 * h's entries collapsed by rep_hent_cmp_by_name() (report/hist/hist-int.h),
 * in the collapsed tree's order; *nr of them.
 */
struct pdiff_ent *pdiff_collapse(const struct rep_report *rep,
				 const struct rep_hist *h, size_t *nr);

/* One entry of the baseline's table: a baseline entry or a dummy. */
struct pdiff_pair {
	bool has;
	uint64_t period;
	double delta;
	double ratio;
	int64_t wdiff;
};

struct pdiff_row {
	const struct rep_hent *he;	/* the keys: the baseline's, or a pair's */
	uint64_t period;		/* the baseline's period; 0 for a dummy */
	bool dummy;
	bool filtered;
	struct pdiff_pair *pairs;	/* per file; [0] unused */
};

/* The table of one event of the baseline. */
struct pdiff_table {
	const struct pdiff_opts *o;
	const struct rep_report *rep;	/* the baseline's: keys and elision */
	size_t nr_files;
	struct pdiff_row *rows;
	size_t nr, cap;
	uint64_t *total;		/* per file, perf's totals at compute time */
	uint64_t *total_vis;
	uint64_t base_total;		/* the baseline's after perf's resort */
	uint64_t base_total_vis;
	size_t *order;			/* rows in printing order */
};

/*
 * The table of evsel e of files[0] against the files after it: pairs,
 * dummies, -b, the computed values and the printing order.
 */
void pdiff_table_build(struct pdiff_table *t, const struct pdiff_opts *o,
		       struct pdiff_file *files, size_t nr_files, size_t e);
void pdiff_table_free(struct pdiff_table *t);

/* perf's hists__total_period(): the total percentages of file i divide by. */
uint64_t pdiff_total(const struct pdiff_table *t, size_t i);
/* The baseline's, once perf has resorted it (the printed percentages). */
uint64_t pdiff_base_total(const struct pdiff_table *t);

/* Print the table of one event: headers (unless -q) and rows. */
void pdiff_print(FILE *out, const struct pdiff_table *t);

#endif /* PD_DIFF_DIFF_H */
