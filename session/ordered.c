/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/ordered.c - records in time order as perf 6.1's ordered-events
 * queue delivers them (doc/perf-records.md §1.4): a record with a
 * time is queued; FINISHED_ROUND delivers every queued record up to the
 * highest time queued before the previous round ended; the end of the
 * file delivers the rest.  Ties keep file order.
 *
 * Record bytes are copied into large chunks, freed for reuse once every
 * record in them has been delivered: memory is bounded by what a round
 * holds, not by the file.  A record whose bytes lie in the range given
 * to ses_oe_set_place() (the file's mapping, which outlives the queue)
 * is not copied: its chunk entry points at them, and ses_oe_oldest()
 * tells how far back such bytes may still be needed.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "session/session-int.h"

/* New chunks double from OE_CHUNK_FIRST to OE_CHUNK: a small file needs little. */
#define OE_CHUNK_FIRST (64u << 10)
#define OE_CHUNK (1u << 20)
/*
 * The most of the file a chunk's records kept in place may span: a
 * chunk holds the file's pages from its first such record until its
 * last record goes (8 KiB DWARF samples would fill a chunk with 40 MB).
 */
#define OE_SPAN_MAX ((size_t)2 << 20)

struct ses_oe_chunk {
	struct ses_oe_chunk *next;	/* on the spare list */
	/* chunks not on the spare list, oldest first */
	struct ses_oe_chunk *older, *newer;
	const unsigned char *first;	/* its first record kept in place */
	size_t used, cap;
	size_t live;			/* queued records in it */
	max_align_t data[];
};

struct ses_oe_rec {
	struct pd_record rec;		/* data points at bytes[] */
	struct ses_oe_chunk *chunk;
	struct ses_pre pre;
	max_align_t bytes[];
};

static void
chunk_unlink(struct ses_oe *oe, struct ses_oe_chunk *c)
{
	if (c->older)
		c->older->newer = c->newer;
	else
		oe->oldest = c->newer;
	if (c->newer)
		c->newer->older = c->older;
	else
		oe->newest = c->older;
	c->older = c->newer = NULL;
}

static void
chunk_spare(struct ses_oe *oe, struct ses_oe_chunk *c)
{
	chunk_unlink(oe, c);
	c->next = oe->spare;
	oe->spare = c;
}

static struct ses_oe_chunk *
chunk_get(struct ses_oe *oe, size_t need)
{
	struct ses_oe_chunk *c = oe->spare;

	if (c && c->cap >= need) {
		oe->spare = c->next;
	} else {
		size_t cap;

		if (!oe->chunk_size)
			oe->chunk_size = OE_CHUNK_FIRST;
		cap = need > oe->chunk_size ? need : oe->chunk_size;
		if (oe->chunk_size < OE_CHUNK)
			oe->chunk_size *= 2;
		c = xmalloc(sizeof(*c) + cap);
		c->cap = cap;
	}
	c->next = NULL;
	c->first = NULL;
	c->used = 0;
	c->live = 0;
	c->newer = NULL;
	c->older = oe->newest;
	if (oe->newest)
		oe->newest->newer = c;
	else
		oe->oldest = c;
	oe->newest = c;
	return c;
}

static void
chunk_put(struct ses_oe *oe, struct ses_oe_chunk *c)
{
	if (--c->live || c == oe->cur)
		return;
	chunk_spare(oe, c);
}

void
ses_oe_set_place(struct ses_oe *oe, const unsigned char *lo,
		 const unsigned char *hi)
{
	oe->place_lo = lo;
	oe->place_hi = hi;
}

const unsigned char *
ses_oe_oldest(const struct ses_oe *oe)
{
	const struct ses_oe_chunk *c;

	for (c = oe->oldest; c; c = c->newer)
		if (c->first)
			return c->first;
	return NULL;
}

static bool
in_place(const struct ses_oe *oe, const struct pd_record *rec)
{
	return rec->data && oe->place_lo && rec->data >= oe->place_lo &&
	       rec->data < oe->place_hi &&
	       rec->size <= (size_t)(oe->place_hi - rec->data);
}

struct ses_oe_rec *
ses_oe_copy(struct ses_oe *oe, const struct pd_record *rec)
{
	bool keep = in_place(oe, rec);
	size_t need = sizeof(struct ses_oe_rec) + (keep ? 0 : rec->size);
	struct ses_oe_chunk *c = oe->cur;
	struct ses_oe_rec *r;

	need = (need + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (!c || c->cap - c->used < need ||
	    (keep && c->first &&
	     (size_t)(rec->data - c->first) > OE_SPAN_MAX)) {
		if (c && !c->live)
			chunk_spare(oe, c);
		c = oe->cur = chunk_get(oe, need);
	}
	r = (struct ses_oe_rec *)(void *)((unsigned char *)c->data + c->used);
	c->used += need;
	c->live++;
	r->rec = *rec;
	if (keep) {
		if (!c->first)
			c->first = rec->data;
	} else {
		memcpy(r->bytes, rec->data, rec->size);
		r->rec.data = (const unsigned char *)r->bytes;
	}
	r->rec.payload = NULL;
	r->rec.payload_size = 0;
	r->chunk = c;
	r->pre.ok = false;
	r->pre.ahead = NULL;
	return r;
}

void
ses_oe_queue_rec(struct ses_oe *oe, struct ses_oe_rec *r, uint64_t ts)
{
	struct ses_oe_ent *e;

	if (oe->head && oe->nr == oe->cap) {
		memmove(oe->q, oe->q + oe->head,
			(oe->nr - oe->head) * sizeof(*oe->q));
		oe->nr -= oe->head;
		oe->head = 0;
	}
	if (oe->nr == oe->cap) {
		oe->cap = oe->cap ? 2 * oe->cap : 4096;
		oe->q = xreallocarray(oe->q, oe->cap, sizeof(*oe->q));
	}
	if (oe->nr == oe->head || ts > oe->max_ts)
		oe->max_ts = ts;
	if (ts < oe->last_flush)
		oe->nr_unordered++;
	e = &oe->q[oe->nr++];
	e->ts = ts;
	e->seq = oe->seq++;
	e->r = r;
}

static inline bool
ent_before(const struct ses_oe_ent *x, const struct ses_oe_ent *y)
{
	return x->ts < y->ts || (x->ts == y->ts && x->seq < y->seq);
}

/* Merge the sorted runs a[0..na) and b[0..nb) into out. */
static void
merge_runs(const struct ses_oe_ent *a, size_t na, const struct ses_oe_ent *b,
	   size_t nb, struct ses_oe_ent *out)
{
	size_t i = 0, j = 0, k = 0;

	while (i < na && j < nb)
		out[k++] = ent_before(&b[j], &a[i]) ? b[j++] : a[i++];
	while (i < na)
		out[k++] = a[i++];
	while (j < nb)
		out[k++] = b[j++];
}

/*
 * Sort v[0..n) by (ts, seq).  A round holds one time-ordered run per
 * CPU buffer, and what is left of the previous round is sorted already,
 * so merging the runs found costs little more than a pass or two.
 */
static void
ents_sort(struct ses_oe *oe, struct ses_oe_ent *v, size_t n)
{
	struct ses_oe_ent *src = v, *dst, *sw;
	size_t nr = 0, i, out, *runs;

	if (n > oe->cap_tmp) {
		oe->cap_tmp = n;
		oe->tmp = xreallocarray(oe->tmp, n, sizeof(*oe->tmp));
		oe->runs = xreallocarray(oe->runs, n + 1, sizeof(*oe->runs));
	}
	dst = oe->tmp;
	runs = oe->runs;
	runs[nr++] = 0;
	for (i = 1; i < n; i++)
		if (ent_before(&v[i], &v[i - 1]))
			runs[nr++] = i;
	runs[nr] = n;
	while (nr > 1) {
		out = 0;
		for (i = 0; i + 1 < nr; i += 2) {
			merge_runs(src + runs[i], runs[i + 1] - runs[i],
				   src + runs[i + 1], runs[i + 2] - runs[i + 1],
				   dst + runs[i]);
			runs[out++] = runs[i];
		}
		if (i < nr) {
			memcpy(dst + runs[i], src + runs[i],
			       (runs[i + 1] - runs[i]) * sizeof(*src));
			runs[out++] = runs[i];
		}
		runs[out] = n;
		nr = out;
		sw = src;
		src = dst;
		dst = sw;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
}

static bool
queue_sorted(const struct ses_oe *oe)
{
	size_t i;

	for (i = oe->head + 1; i < oe->nr; i++)
		if (oe->q[i - 1].ts > oe->q[i].ts)
			return false;
	return true;
}

size_t
ses_oe_take(struct ses_oe *oe, uint64_t limit, struct ses_oe_rec **out)
{
	size_t n = 0;

	if (!limit || oe->head == oe->nr)
		return 0;
	if (!queue_sorted(oe))
		ents_sort(oe, oe->q + oe->head, oe->nr - oe->head);
	while (oe->head < oe->nr && oe->q[oe->head].ts <= limit) {
		out[n++] = oe->q[oe->head].r;
		oe->last_flush = oe->q[oe->head++].ts;
	}
	if (oe->head == oe->nr)
		oe->head = oe->nr = 0;
	return n;
}

uint64_t
ses_oe_round_limit(struct ses_oe *oe)
{
	uint64_t limit = oe->next_flush;

	if (oe->head == oe->nr)
		return 0;
	oe->next_flush = oe->max_ts;
	return limit;
}

size_t
ses_oe_queued(const struct ses_oe *oe)
{
	return oe->nr - oe->head;
}

const struct pd_record *
ses_oe_record(const struct ses_oe_rec *r)
{
	return &r->rec;
}

struct ses_pre *
ses_oe_pre(struct ses_oe_rec *r)
{
	return &r->pre;
}

void
ses_oe_release(struct ses_oe *oe, struct ses_oe_rec *r)
{
	chunk_put(oe, r->chunk);
}

void
ses_oe_free(struct ses_oe *oe)
{
	struct ses_oe_chunk *c, *next;

	/* chunks still holding queued records go when their last one does */
	while (oe->nr > oe->head) {
		c = oe->q[--oe->nr].r->chunk;
		if (!--c->live && c != oe->cur)
			free(c);
	}
	for (c = oe->spare; c; c = next) {
		next = c->next;
		free(c);
	}
	free(oe->cur);
	free(oe->q);
	free(oe->tmp);
	free(oe->runs);
	memset(oe, 0, sizeof(*oe));
}
