/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/hist/branch.h - preport's branch mode, perf 6.1's default on files
 * whose samples carry branch stacks (builtin-report.c, SORT_MODE__BRANCH):
 * one histogram entry per branch of each sample, with a period of 1, the
 * branch sort keys (dso_from, dso_to, symbol_from, symbol_to, mispredict,
 * in_tx, abort, cycles, srcline_from, srcline_to, addr_from, addr_to) and the "Branch Statistics" block after the
 * report (util/branch.c; doc/perf-records.md §5.3).
 */
#ifndef PD_REPORT_HIST_BRANCH_H
#define PD_REPORT_HIST_BRANCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pdata/reader.h"
#include "report/hist/hist-int.h"

/* The branch sort keys, for sort.c's table (perf's signs: > 0 puts l first). */
int rep_br_dso_from_cmp(const struct rep_report *rep, const struct rep_hent *l,
			const struct rep_hent *r);
int rep_br_dso_to_cmp(const struct rep_report *rep, const struct rep_hent *l,
		      const struct rep_hent *r);
int rep_br_sym_from_cmp(const struct rep_report *rep, const struct rep_hent *l,
			const struct rep_hent *r);
int rep_br_sym_to_cmp(const struct rep_report *rep, const struct rep_hent *l,
		      const struct rep_hent *r);
int rep_br_mispredict_cmp(const struct rep_report *rep, const struct rep_hent *l,
			  const struct rep_hent *r);
int rep_br_in_tx_cmp(const struct rep_report *rep, const struct rep_hent *l,
		     const struct rep_hent *r);
int rep_br_abort_cmp(const struct rep_report *rep, const struct rep_hent *l,
		     const struct rep_hent *r);
int rep_br_cycles_cmp(const struct rep_report *rep, const struct rep_hent *l,
		      const struct rep_hent *r);
int rep_br_srcline_from_cmp(const struct rep_report *rep,
			    const struct rep_hent *l, const struct rep_hent *r);
int rep_br_srcline_to_cmp(const struct rep_report *rep,
			  const struct rep_hent *l, const struct rep_hent *r);
int rep_br_addr_from_cmp(const struct rep_report *rep, const struct rep_hent *l,
			 const struct rep_hent *r);
int rep_br_addr_to_cmp(const struct rep_report *rep, const struct rep_hent *l,
		       const struct rep_hent *r);
/*
 * ipc_lbr and ipc_null, which perf appends to a sort list that names a
 * symbol key (in branch mode, and not): the symbol key's cmp.
 */
int rep_br_ipc_cmp(const struct rep_report *rep, const struct rep_hent *l,
		   const struct rep_hent *r);

/* Whether d is one of the branch keys (perf accepts them in branch mode only). */
bool rep_branch_dim(enum rep_dim d);

/* The column text of a branch key (perf's se_snprintf), for width w. */
void rep_branch_snprint(const struct rep_report *rep, enum rep_dim d,
			const struct rep_hent *e, int w, char *buf, size_t size);
/* The branch columns' lengths an entry asks for (perf's hists__calc_col_len). */
void rep_branch_calc_len(const struct rep_report *rep, const struct rep_hent *e,
			 int *len);
/* A hash of the branch keys in the sort list: equal entries hash alike. */
uint64_t rep_branch_hash(const struct rep_report *rep, const struct rep_hent *e);

/*
 * Decide the mode as perf does: branch mode with -b, or by default when
 * the file has HEADER_BRANCH_STACK and no user stacks; not with
 * --no-branch-stack.  In branch mode: o->hist.branch_mode set, children off,
 * the default sort order comm,dso_from,symbol_from,symbol_to,cycles.  In
 * either mode, a sort list that names a symbol key gets perf's IPC column
 * (ipc_lbr, ipc_null).  Returns 0, or -1 with a message in err (an ipc
 * key in --sort).
 */
int rep_branch_setup(struct rep_report_opts *o, struct pd_reader *r,
		     char *err, size_t errsz);
/* -1 with perf's message: branch mode asked for, the file has no branch stacks. */
int rep_branch_check_file(const struct rep_report_opts *o, struct pd_reader *r,
			  char *err, size_t errsz);
/* After rep_report_setup_dims(): -1 with a message for a branch key outside branch mode. */
int rep_branch_check_dims(const struct rep_report_opts *o, char *err, size_t errsz);

struct rep_branch_mode;

struct rep_branch_mode *rep_branch_mode_new(void);
void rep_branch_mode_free(struct rep_branch_mode *bm);

/* Add one entry per branch of s (perf's hist_iter_branch). */
void rep_branch_mode_add(struct rep_branch_mode *bm, struct rep_report *rep,
			 const struct ses_sample *s);

/* The "Branch Statistics" block after the report; nothing when no branch had a type. */
void rep_branch_mode_print_stats(const struct rep_branch_mode *bm, FILE *out);

#endif /* PD_REPORT_HIST_BRANCH_H */
