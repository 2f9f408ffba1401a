/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/tasks.c - preport --tasks and --mmaps: the threads the
 * recording's COMM, FORK and EXIT records (and MMAPs, with --mmaps) made,
 * as a tree under their parents, with each one's maps for --mmaps, as
 * perf report 6.1 prints them (doc/perf-records.md §7.12).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "lib/diag.h"
#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "report/report.h"
#include "session/session.h"

/* perf's machine keeps its threads in 256 trees by tid, each by tid */
#define THREAD_BUCKETS	256

struct task {
	const struct ses_thread *thread;
	size_t first_child, next_sibling, last_child;	/* 1 + index; 0: none */
	bool listed;
};

struct tasks {
	struct task *v;
	size_t nr;
	struct u64map by_tid;		/* (u32)tid -> 1 + index */
	size_t first_root, last_root;	/* 1 + index */
};

static int
thread_order(const void *a, const void *b)
{
	const struct ses_thread *l = *(const struct ses_thread *const *)a;
	const struct ses_thread *r = *(const struct ses_thread *const *)b;
	uint32_t bl = (uint32_t)l->tid % THREAD_BUCKETS;
	uint32_t br = (uint32_t)r->tid % THREAD_BUCKETS;

	if (bl != br)
		return bl < br ? -1 : 1;
	return (l->tid > r->tid) - (l->tid < r->tid);
}

/* Append task i to the list *first..*last (1 + index; 0: empty). */
static void
list_append(struct tasks *ts, size_t *first, size_t *last, size_t i)
{
	if (*last)
		ts->v[*last - 1].next_sibling = i + 1;
	else
		*first = i + 1;
	*last = i + 1;
}

/*
 * perf's tasks_list(): link task i under its parent, and the parent
 * under its own, up to a task with no parent, which becomes a root.
 * False when a parent is not among the threads.
 */
static bool
link_up(struct tasks *ts, size_t i)
{
	for (;;) {
		struct task *t = &ts->v[i];
		uint64_t *p;

		if (t->listed)
			return true;
		t->listed = true;
		if (t->thread->ppid == -1) {
			list_append(ts, &ts->first_root, &ts->last_root, i);
			return true;
		}
		p = u64map_find(&ts->by_tid, (uint32_t)t->thread->ppid);
		if (!p || !*p)
			return false;
		list_append(ts, &ts->v[*p - 1].first_child,
			    &ts->v[*p - 1].last_child, i);
		i = *p - 1;
	}
}

static void
print_maps(FILE *out, struct ses_session *sess, const struct ses_thread *t,
	   int indent)
{
	const struct ses_map *const *maps;
	size_t i, nr = ses_thread_maps(sess, t, &maps);

	for (i = 0; i < nr; i++) {
		const struct ses_map *m = maps[i];

		fprintf(out, "%*s  %" PRIx64 "-%" PRIx64 " %c%c%c%c %08" PRIx64
			" %" PRIu64 " %s\n", indent, "", m->start, m->end,
			m->prot & PROT_READ ? 'r' : '-',
			m->prot & PROT_WRITE ? 'w' : '-',
			m->prot & PROT_EXEC ? 'x' : '-',
			m->flags & MAP_SHARED ? 's' : 'p', m->pgoff,
			ses_map_inode(sess, m),
			sym_dso_long_name(m->dso));
	}
}

static void
print_task(FILE *out, struct ses_session *sess, const struct tasks *ts,
	   size_t i, int level, bool mmaps)
{
	const struct ses_thread *t = ts->v[i].thread;
	int indent = fprintf(out, "  %8d %8d %8d |%*s", t->pid, t->tid,
			     t->ppid, level, "");
	size_t c;

	fprintf(out, "%s\n", t->comm);
	if (mmaps)
		print_maps(out, sess, t, indent);
	for (c = ts->v[i].first_child; c; c = ts->v[c - 1].next_sibling)
		print_task(out, sess, ts, c - 1, level + 1, mmaps);
}

static int
print_tasks(FILE *out, struct ses_session *sess, bool mmaps)
{
	const struct ses_thread **threads;
	struct tasks ts = { .by_tid = U64MAP_INIT };
	size_t i, c;
	int ret = 0;

	ts.nr = ses_threads_live(sess, &threads);
	qsort(threads, ts.nr, sizeof(*threads), thread_order);
	ts.v = xcalloc(ts.nr ? ts.nr : 1, sizeof(*ts.v));
	for (i = 0; i < ts.nr; i++) {
		ts.v[i].thread = threads[i];
		*u64map_slot(&ts.by_tid, (uint32_t)threads[i]->tid) = i + 1;
	}
	for (i = 0; i < ts.nr && !ret; i++)
		if (!link_up(&ts, i)) {
			error_msg("Error: failed to process tasks: no thread %d, "
				  "the parent of %d",
				  (int)ts.v[i].thread->ppid,
				  (int)ts.v[i].thread->tid);
			ret = 1;
		}
	if (!ret) {
		fprintf(out, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
		for (c = ts.first_root; c; c = ts.v[c - 1].next_sibling)
			print_task(out, sess, &ts, c - 1, 0, mmaps);
	}
	free(ts.v);
	free(threads);
	u64map_free(&ts.by_tid);
	return ret;
}

int
rep_tasks_run(FILE *out, struct pd_reader *r, struct rep_report_opts *o,
	      bool mmaps)
{
	struct ses_opts sopts = {
		.threads = ses_threads_default(),
		.maps_only = true,
		.tasks = true,
		.tasks_mmaps = mmaps,
	};
	struct ses_session *sess;
	struct sym_ctx *syms;
	struct sym_opts so;
	struct ses_event ev;
	int err;

	rep_sym_opts_init(&so, r, o, NULL);
	syms = sym_ctx_new(&so);
	sess = ses_new(r, syms, &sopts);
	while ((err = ses_next(sess, &ev)) > 0)
		;
	if (err < 0)
		err = rep_session_error(r, sess);
	else
		err = print_tasks(out, sess, mmaps);
	ses_free(sess);
	sym_ctx_free(syms);
	return err;
}
