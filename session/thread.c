/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/thread.c - threads keyed by tid, their comms and their
 * process's map set, as perf 6.1's machine keeps them
 * (doc/perf-records.md §7.1).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "session/session-int.h"

static uint64_t
tid_key(int32_t tid)
{
	return (uint32_t)tid;
}

struct ses_maps *
ses_threads_new_maps(struct ses_threads *ts)
{
	struct ses_maps *m = xcalloc(1, sizeof(*m));

	if (ts->nr_maps == ts->cap_maps) {
		ts->cap_maps = ts->cap_maps ? 2 * ts->cap_maps : 64;
		ts->maps = xreallocarray(ts->maps, ts->cap_maps,
					 sizeof(*ts->maps));
	}
	ts->maps[ts->nr_maps++] = m;
	return m;
}

struct ses_thread_int *
ses_thread_lookup(const struct ses_threads *ts, int32_t tid)
{
	uint64_t *v = u64map_find(&ts->by_tid, tid_key(tid));

	return v && *v ? ts->all[*v - 1] : NULL;
}

/* A thread whose pid becomes known joins its process's map set. */
static void
thread_update_pid(struct ses_threads *ts, struct ses_thread_int *t, int32_t pid)
{
	struct ses_thread_int *leader;

	if (pid == t->pub.pid || pid == -1 || t->pub.pid != -1)
		return;
	t->pub.pid = pid;
	if (pid == t->pub.tid)
		return;
	leader = ses_thread_findnew(ts, pid, pid, true);
	if (!leader->maps)
		leader->maps = ses_threads_new_maps(ts);
	t->maps = leader->maps;
}

static struct ses_thread_int *
thread_new(struct ses_threads *ts, int32_t pid, int32_t tid)
{
	struct ses_thread_int *t = ses_arena_alloc(ts->arena, sizeof(*t));
	char name[16];
	int n;

	memset(t, 0, sizeof(*t));
	t->pub.pid = pid;
	t->pub.tid = tid;
	t->pub.ppid = -1;
	n = snprintf(name, sizeof(name), ":%d", tid);
	t->pub.comm = ses_intern(ts->comms, name, (size_t)n);
	if (ts->nr == ts->cap) {
		ts->cap = ts->cap ? 2 * ts->cap : 64;
		ts->all = xreallocarray(ts->all, ts->cap, sizeof(*ts->all));
	}
	ts->all[ts->nr++] = t;
	*u64map_slot(&ts->by_tid, tid_key(tid)) = ts->nr;
	return t;
}

struct ses_thread_int *
ses_thread_findnew(struct ses_threads *ts, int32_t pid, int32_t tid,
		   bool create)
{
	struct ses_thread_int *t = ses_thread_lookup(ts, tid), *leader;

	if (t) {
		thread_update_pid(ts, t, pid);
		return t;
	}
	if (!create)
		return NULL;
	t = thread_new(ts, pid, tid);
	if (pid == tid || pid == -1) {
		t->maps = ses_threads_new_maps(ts);
	} else {
		leader = ses_thread_findnew(ts, pid, pid, true);
		if (!leader->maps)
			leader->maps = ses_threads_new_maps(ts);
		t->maps = leader->maps;
	}
	return t;
}

/* Forget t for lookups; samples delivered earlier still point to it. */
void
ses_thread_remove(struct ses_threads *ts, struct ses_thread_int *t)
{
	uint64_t *v = u64map_find(&ts->by_tid, tid_key(t->pub.tid));

	if (v && *v && ts->all[*v - 1] == t)
		*v = 0;
}

void
ses_thread_set_comm(struct ses_threads *ts, struct ses_thread_int *t,
		    const char *comm, size_t len)
{
	t->pub.comm = ses_intern(ts->comms, comm, len);
	t->comm_set = true;
}

void
ses_threads_free(struct ses_threads *ts)
{
	size_t i;

	for (i = 0; i < ts->nr_maps; i++) {
		ses_maps_free(ts->maps[i]);
		free(ts->maps[i]);
	}
	for (i = 0; i < ts->nr; i++)
		ses_lbr_stitch_free(ts->all[i]->lbr_stitch);
	free(ts->maps);
	free(ts->all);
	u64map_free(&ts->by_tid);
	memset(ts, 0, sizeof(*ts));
}
