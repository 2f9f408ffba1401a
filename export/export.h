/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * export/export.h - pexport: a recording written in another tool's
 * format, from the engine's events (session/), never from text.  The
 * stack formats read the profile of export/stacks.h, made once.
 */
#ifndef PD_EXPORT_EXPORT_H
#define PD_EXPORT_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "export/stacks.h"
#include "lib/strbuf.h"
#include "pdata/reader.h"
#include "session/session.h"

/* What a flame graph's widths count (--weight). */
enum exp_weight {
	EXP_WEIGHT_SCRIPT,	/* as --to collapsed counts */
	EXP_WEIGHT_SAMPLES,
	EXP_WEIGHT_PERIOD,
};

/* The options the formats read (pexport(1)). */
struct exp_opts {
	const char *event;		/* --event: the one event; NULL: the first sampled */
	bool with_pid;			/* --with-pid: "comm-pid" */
	bool with_tid;			/* --with-tid: "comm-pid/tid" */
	bool annotate;			/* --annotate: _[k], _[j], _[i] on kernel, JIT, inlined frames */
	bool addrs;			/* --addrs: "[dso <addr>]" for unknown code */
	/* flamegraph */
	const char *title;		/* --title; NULL: "Flame Graph" */
	double minwidth;		/* --minwidth: pixels of a 1200 px image */
	bool minwidth_pct;		/* ... or percent of the samples */
	enum exp_weight weight;		/* --weight */
	bool inverted;			/* --inverted: an icicle graph */
	const char *diff;		/* --diff: the old recording */
};

struct exp_run {
	struct pd_reader *r;
	struct ses_session *ses;
	const char *input;		/* the recording's path, for messages */
	const char *output;		/* OUT's path, for messages */
	FILE *out;
	const struct exp_opts *o;
	struct exp_profile profile;	/* the stack formats' input */
	uint64_t samples;		/* written, of every recording */
};

/*
 * The formats.  A format that reads the profile may start before it is
 * collected, to see each sample in time order (co->each); write() then
 * writes the file from it.  A format that merges recordings starts once,
 * write() adds each recording's profile and finish() writes the file
 * (when write is true) and frees the state.  write() and finish()
 * return 0, or -1 after a message.
 */
struct exp_format {
	const char *name;		/* --to's word */
	const char *what;		/* for the summary line */
	bool profile;			/* reads x->profile */
	void *(*start)(struct exp_run *x, struct exp_collect_opts *co);
	int (*write)(struct exp_run *x, void *state);
	/*
	 * --diff: the old recording's profile (in x), read before the new
	 * one's collection starts; 0, or -1 after a message (state is
	 * freed then, and write() is not called)
	 */
	int (*old)(struct exp_run *x, void *state);
	int (*finish)(struct exp_run *x, void *state, bool write);
};

/* perf data convert --to-json of perf 6.1, byte for byte (json.c) */
int exp_json(struct exp_run *x, void *state);
/* stackcollapse-perf.pl's lines (collapsed.c) */
int exp_collapsed(struct exp_run *x, void *state);
/*
 * stackcollapse-perf.pl's names (collapsed.c): the process frame of a
 * row, and a location's frame appended to sb; the frame returns its
 * class (enum exp_code, which --annotate marks), or -1 for a frame the
 * script skips (nothing appended).
 */
struct exp_frame_scratch {
	struct strbuf line, name;
};
void exp_collapsed_pname(struct strbuf *sb, const struct exp_row *r,
			 const struct exp_opts *o);
int exp_collapsed_frame(struct strbuf *sb, struct exp_frame_scratch *t,
			const struct exp_profile *p, const struct exp_loc *loc,
			const struct exp_opts *o, bool java);
/*
 * Whether the script counts an event's samples by their period: where
 * perf script prints one (the default fields of every event but
 * tracepoints and synthesized ones, when the period is sampled).
 */
bool exp_counts_period(struct pd_reader *r, unsigned int evsel);
/* speedscope's file format (speedscope.c) */
void *exp_speedscope_start(struct exp_run *x, struct exp_collect_opts *co);
int exp_speedscope(struct exp_run *x, void *state);
/* an interactive HTML flame graph (flamegraph.c) */
void *exp_flamegraph_start(struct exp_run *x, struct exp_collect_opts *co);
int exp_flamegraph_old(struct exp_run *x, void *state);
int exp_flamegraph(struct exp_run *x, void *state);

/* pprof's profile.proto, gzip'd, of one or more recordings (pprof.c) */
void *exp_pprof_start(struct exp_run *x, struct exp_collect_opts *co);
int exp_pprof_add(struct exp_run *x, void *state);
int exp_pprof_finish(struct exp_run *x, void *state, bool write);

/*
 * The event a one-event format writes: --event's (an error when the
 * recording has none of that name), else the first one sampled; -1 when
 * there is none (after a message for a bad --event).
 */
int exp_chosen_evsel(struct exp_run *x);

/*
 * s as a JSON string (export/json.c); perf_bytes: bytes from 0x80 up
 * escaped as perf's converter escapes them, not valid JSON.
 */
void exp_json_string(FILE *out, const char *s, bool perf_bytes);

#endif /* PD_EXPORT_EXPORT_H */
