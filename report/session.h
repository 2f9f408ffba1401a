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
	/*
	 * The chain is caller first in the report: --max-stack keeps the
	 * frames nearest the root (the chain is still given leaf first).
	 */
	bool callchain_caller_order;
	bool no_callchain;		/* do not resolve callchains (-g none, no children) */
	bool branches;			/* resolve branch stacks (rep_sample.branches) */
	bool repeat_cpu;		/* sample_again: the CPU must be equal too */
};

struct rep_session_ops {
	/* every SAMPLE, in time order, after resolution */
	void (*sample)(void *ctx, const struct rep_sample *s);
	/*
	 * Optional, instead of sample: sample_tok gets a sample as sample
	 * does and returns a token, or 0; a later sample whose record
	 * resolves alike for certain (same event, thread, comm, cpumode, ip
	 * and callchain, no map changed since, the same CPU with
	 * opts.repeat_cpu) goes to sample_again with that token, without
	 * its self, chain and branches (raw may be NULL: the record was
	 * not decoded).  sample_again returns false when the token is no
	 * longer good: the sample then goes to sample_tok.
	 */
	uint64_t (*sample_tok)(void *ctx, const struct rep_sample *s);
	bool (*sample_again)(void *ctx, uint64_t tok, const struct rep_sample *s);
	/* LOST_SAMPLES records (perf's "Total Lost Samples") */
	void (*lost_samples)(void *ctx, unsigned int evsel, uint64_t lost);
	/* LOST records */
	void (*lost)(void *ctx, unsigned int evsel, uint64_t lost);
	/* HEADER_FEATURE records, in file order, as they are read */
	void (*feature)(void *ctx, const struct pd_record *rec);
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

/*
 * Why rep_session_run() stopped: the session's own message (a sample
 * or record it could not decode, with its offset), else the reader's.
 * As in perf, a run that stops on an error has delivered the records
 * that FINISHED_ROUND flushed before it, not those still queued.
 */
const char *rep_session_errmsg(const struct rep_session *s);

#endif /* PD_REPORT_SESSION_H */
