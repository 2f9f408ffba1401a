/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/ahead.c - the user stacks of --call-graph dwarf samples
 * unwound ahead by the reading thread (doc/perf-records.md §7.17).
 *
 * When the caller lags, the reading thread fills the ring and waits.
 * Instead it unwinds the samples of a batch sent and not yet started,
 * with an unwinder of its own, against the threads and maps as they are
 * then (read under the model lock, which the caller takes to change
 * them).  A result holds for the caller only where the sample's thread
 * still has that map set at that generation: every change of a set
 * takes a new one, so the frames are those the caller would find.
 * Results go with their record and are freed when the reading thread
 * gives the record back.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "session/ahead.h"
#include "session/session-int.h"
#include "session/unwind.h"

/* samples unwound between two looks at the ring */
#define AHEAD_STEP	32

struct ses_ahead {
	struct ses_unwind *unwind;
	struct pd_sample sample;
	uint64_t *ips;
	size_t cap;
	uint64_t batch;			/* the batch being worked on */
	size_t pos;			/* its next record */
};

/* The unwinding of one record, published with it; nothing if none. */
static void
ahead_record(struct ses_session *s, struct ses_ahead *a, struct ses_oe_rec *r)
{
	const struct pd_record *rec = ses_oe_record(r);
	const struct pd_attr *attr;
	struct ses_thread_int *t;
	struct ses_ahead_res *res = NULL;
	size_t max, nr;

	if (rec->header.type != PD_RECORD_SAMPLE)
		return;
	attr = ses_rec_attr(s, rec);
	if (!attr || !(attr->sample_type & PD_SAMPLE_STACK_USER) ||
	    pd_sample_decode(attr, rec, &a->sample) ||
	    !ses_unwind_possible(&a->sample))
		return;
	max = ses_unwind_max(s, &a->sample);
	if (!max)
		return;
	if (max > a->cap) {
		a->cap = max;
		a->ips = xreallocarray(a->ips, a->cap, sizeof(*a->ips));
	}
	pthread_rwlock_rdlock(&s->model_lock);
	t = ses_thread_lookup(&s->threads, (int32_t)a->sample.tid);
	if (t && t->maps && t->pub.pid == (int32_t)a->sample.pid) {
		nr = ses_unwind_user(a->unwind, t->maps, &a->sample, a->ips,
				     max);
		res = xmalloc(sizeof(*res) + nr * sizeof(res->ips[0]));
		res->thread = t;
		res->maps = t->maps;
		res->gen = t->maps->gen;
		res->max = max;
		res->nr = nr;
		ses_unwind_last(a->unwind, &res->info);
		ses_unwind_last_way(a->unwind, &res->fast, &res->differ);
		memcpy(res->ips, a->ips, nr * sizeof(res->ips[0]));
	}
	pthread_rwlock_unlock(&s->model_lock);
	if (res)
		__atomic_store_n(&ses_oe_pre(r)->ahead, res, __ATOMIC_RELEASE);
}

bool
ses_ahead_work(struct ses_session *s)
{
	struct ses_ahead *a = s->ahead;
	struct ses_pipe *p = s->pipe;
	const struct ses_batch *b;
	size_t i, end;

	if (!a)
		return false;
	/* a batch the caller has not started: the one after its own */
	if (a->batch <= p->finished) {
		a->batch = p->finished + 1;
		a->pos = 0;
	}
	while (a->batch < p->sent && a->pos >= p->ring[a->batch % PIPE_DEPTH].nr) {
		a->batch++;
		a->pos = 0;
	}
	if (a->batch >= p->sent)
		return false;
	/* the reader alone releases batches: b stays while it works */
	b = &p->ring[a->batch % PIPE_DEPTH];
	end = a->pos + AHEAD_STEP < b->nr ? a->pos + AHEAD_STEP : b->nr;
	i = a->pos;
	a->pos = end;
	pthread_mutex_unlock(&p->lock);
	for (; i < end; i++)
		ahead_record(s, a, b->v[i]);
	pthread_mutex_lock(&p->lock);
	return true;
}

/*
 * Whether the file's samples have user stacks to unwind: an event with
 * user registers and a stack copy.
 */
bool
ses_file_unwinds(struct ses_session *s)
{
	size_t i;

	for (i = 0; i < pd_reader_nr_evsels(s->r); i++) {
		const struct pd_attr *attr = &pd_reader_evsel(s->r, i)->attr;

		if ((attr->sample_type & PD_SAMPLE_REGS_USER) &&
		    (attr->sample_type & PD_SAMPLE_STACK_USER))
			return true;
	}
	return false;
}

void
ses_ahead_start(struct ses_session *s)
{
	pthread_rwlockattr_t attr;
	struct ses_ahead *a;

	/* an archive being made notes lookups in the order they come */
	if (!s->pipe || s->opts.no_callchain || s->opts.maps_only ||
	    s->opts.resolve_on_demand || sym_ctx_noting(s->syms) ||
	    !ses_file_unwinds(s))
		return;
	a = xcalloc(1, sizeof(*a));
	a->unwind = ses_unwind_new(pd_reader_meta(s->r) ?
				   pd_reader_meta(s->r)->arch : NULL);
	/* the caller's changes go first: the reader only saves it time */
	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr,
				      PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&s->model_lock, &attr);
	pthread_rwlockattr_destroy(&attr);
	s->ahead = a;
}

void
ses_ahead_free(struct ses_session *s)
{
	struct ses_ahead *a = s->ahead;

	if (!a)
		return;
	pthread_rwlock_destroy(&s->model_lock);
	ses_unwind_free(a->unwind);
	free(a->ips);
	free(a);
	s->ahead = NULL;
	s->cur_ahead = NULL;
}

const struct ses_ahead_res *
ses_ahead_take(struct ses_session *s, const struct ses_thread_int *t,
	       size_t max)
{
	const struct ses_ahead_res *res;

	if (!s->cur_ahead)
		return NULL;
	res = __atomic_load_n(s->cur_ahead, __ATOMIC_ACQUIRE);
	if (!res || res->thread != t || res->maps != t->maps ||
	    res->gen != t->maps->gen || res->max != max)
		return NULL;
	return res;
}

void
ses_ahead_release(struct ses_pre *pre)
{
	free(pre->ahead);
	pre->ahead = NULL;
}

/* The caller's alone: a change may look a thread up (ses_thread_find()). */
void
ses_model_change_begin(struct ses_session *s)
{
	if (s->ahead && !s->model_depth++)
		pthread_rwlock_wrlock(&s->model_lock);
}

void
ses_model_change_end(struct ses_session *s)
{
	if (s->ahead && !--s->model_depth)
		pthread_rwlock_unlock(&s->model_lock);
}
