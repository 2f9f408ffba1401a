/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/ahead.h - the user stacks of --call-graph dwarf samples
 * unwound ahead by the reading thread while it waits for the caller
 * (doc/perf-records.md §7.17).
 */
#ifndef PD_SESSION_AHEAD_H
#define PD_SESSION_AHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "session/model.h"

struct ses_session;
struct ses_pre;
struct ses_thread_int;
struct ses_maps;

/*
 * One sample's unwinding: valid for a thread whose map set is still
 * maps at generation gen, with the same bound on frames.
 */
struct ses_ahead_res {
	const struct ses_thread_int *thread;
	const struct ses_maps *maps;
	uint64_t gen;
	size_t max, nr;
	struct ses_unwind_info info;
	bool fast, differ;		/* the unwinder's check (unwind.h) */
	uint64_t ips[];
};

/* Sets it up beside the reading thread, when the file's samples unwind. */
void ses_ahead_start(struct ses_session *s);
/* Whether the file's samples have user stacks to unwind. */
bool ses_file_unwinds(struct ses_session *s);
void ses_ahead_free(struct ses_session *s);

/*
 * The reading thread, its ring full, unwinds a few samples of a batch
 * the caller has not reached (with the pipe's lock released): false
 * when there is nothing to do.  Called with the pipe's lock held.
 */
bool ses_ahead_work(struct ses_session *s);

/*
 * The result for the sample being resolved, of thread t with at most
 * max frames, when one was made that still holds; NULL: unwind it here.
 */
const struct ses_ahead_res *ses_ahead_take(struct ses_session *s,
					   const struct ses_thread_int *t,
					   size_t max);
/* Frees the result kept with a record given back to the queue. */
void ses_ahead_release(struct ses_pre *pre);

/*
 * The caller's changes to threads and maps, while results are made; a
 * change may begin inside another.
 */
void ses_model_change_begin(struct ses_session *s);
void ses_model_change_end(struct ses_session *s);

#endif /* PD_SESSION_AHEAD_H */
