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
#include "pdata/reader.h"
#include "session/session.h"

/* The options the formats read (pexport(1)). */
struct exp_opts {
	const char *event;		/* --event: the one event; NULL: the first sampled */
	bool with_pid;			/* --with-pid: "comm-pid" */
	bool with_tid;			/* --with-tid: "comm-pid/tid" */
	bool annotate;			/* --annotate: _[k], _[j], _[i] on kernel, JIT, inlined frames */
	bool addrs;			/* --addrs: "[dso <addr>]" for unknown code */
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
	int (*finish)(struct exp_run *x, void *state, bool write);
};

/* perf data convert --to-json of perf 6.1, byte for byte (json.c) */
int exp_json(struct exp_run *x, void *state);
/* stackcollapse-perf.pl's lines (collapsed.c) */
int exp_collapsed(struct exp_run *x, void *state);
/* speedscope's file format (speedscope.c) */
void *exp_speedscope_start(struct exp_run *x, struct exp_collect_opts *co);
int exp_speedscope(struct exp_run *x, void *state);

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
