/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/session.h - replay a perf.data file as perf report does: records
 * in time order (FINISHED_ROUND / FINISHED_INIT bounded), threads from
 * COMM/FORK/EXIT, maps from MMAP/MMAP2/KSYMBOL, samples resolved.
 */
#ifndef PD_REPORT_SESSION_H
#define PD_REPORT_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "pdata/reader.h"
#include "report/model.h"
#include "symbol/symbol.h"

struct rep_session_opts {
	unsigned int max_stack;		/* --max-stack; 0 means perf's default 127 */
	bool callchain_caller_order;	/* not used for resolution; chain is leaf first */
	bool no_callchain;		/* do not resolve callchains (-g none, no children) */
};

struct rep_session_ops {
	/* every SAMPLE, in time order, after resolution */
	void (*sample)(void *ctx, const struct rep_sample *s);
	/* LOST_SAMPLES records (perf's "Total Lost Samples") */
	void (*lost_samples)(void *ctx, unsigned int evsel, uint64_t lost);
	/* LOST records */
	void (*lost)(void *ctx, unsigned int evsel, uint64_t lost);
};

struct rep_session;

struct rep_session *rep_session_new(struct pd_reader *r, struct sym_ctx *syms,
				    const struct rep_session_opts *opts);
void rep_session_free(struct rep_session *s);

/*
 * Read every record and call ops in time order.  Returns 0, or the
 * -PD_E_* that stopped reading (the records before it were processed;
 * pd_reader_errmsg() says why).
 */
int rep_session_run(struct rep_session *s, const struct rep_session_ops *ops,
		    void *ctx);

#endif /* PD_REPORT_SESSION_H */
