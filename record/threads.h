/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/threads.h - --threads[=SPEC]: the recording becomes a directory
 * (doc/perf-data-format.md §12, §12.1) whose data.N files are written by
 * streaming threads, one per mask of SPEC, as perf 6.1's parallel
 * streaming mode does (builtin-record.c, record__thread).
 *
 * Use, from the session: rec_threads_new() and rec_threads_open() once
 * the rings are mapped (the second makes the directory and returns the
 * fd of its data file), rec_threads_start() before the workload runs,
 * rec_threads_fd() and rec_threads_check() in the main loop,
 * rec_threads_stop() at the end (before the data file is scanned),
 * rec_threads_free() always.
 */
#ifndef PD_RECORD_THREADS_H
#define PD_RECORD_THREADS_H

#include <stdbool.h>
#include <stdint.h>

#include "record/record.h"

struct rec_threads;

/*
 * Check o->threads_spec against the target, as perf does before it
 * touches the output; 0, or -1 after a message.
 */
int rec_threads_new(struct rec_threads **out, const struct rec_opts *o,
		    const struct rec_target *t);

/*
 * Make the directory o->output (mode 0700) with one data.N writer per
 * ring; the fd of OUTPUT/data, or -1 after a message.
 */
int rec_threads_open(struct rec_threads *th, size_t nr_rings);

/*
 * Take the rings (*rings is emptied: the main loop no longer drains
 * them) and start one thread per mask; 0, or -1 after a message.
 */
int rec_threads_start(struct rec_threads *th, struct rec_rings *rings);

/* Readable when a thread failed, its rings hung up or --max-size came. */
int rec_threads_fd(const struct rec_threads *th);

/*
 * After rec_threads_fd() woke: 0, with *ended set when every thread's
 * rings hung up (the target is gone), or the -errno of a failed write.
 */
int rec_threads_check(struct rec_threads *th, bool *ended);

/* What a failed thread could not do, or NULL. */
const char *rec_threads_errmsg(const struct rec_threads *th);

/*
 * Wake every thread for its last pass (whatever the rings hold), join
 * them and finish the data.N files.  NULL is nothing to do.  0 or -errno.
 */
int rec_threads_stop(struct rec_threads *th);

/* Bytes of records written to the data.N files so far. */
uint64_t rec_threads_bytes(const struct rec_threads *th);

/* The threads' wakeups so far (perf's "Woken up"); NULL is 0. */
unsigned long rec_threads_waking(const struct rec_threads *th);

/* What the zstd streams of the data.N took and gave; after the stop. */
void rec_threads_totals(const struct rec_threads *th, uint64_t *in,
			uint64_t *out);

/*
 * Stop the threads and remove what rec_threads_open() made (a recording
 * whose command could not start).
 */
void rec_threads_remove(struct rec_threads *th);

/* Stop what runs, close the files, unmap the rings taken.  NULL is fine. */
void rec_threads_free(struct rec_threads *th);

#endif /* PD_RECORD_THREADS_H */
