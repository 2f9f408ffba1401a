/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-session.c - the session's pieces on their own: a new
 * map cutting older ones (perf's maps__fixup_overlappings), lookups, and
 * the time-ordered queue's rounds (perf's ordered events).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "session/session-int.h"
#include "t.h"

static struct ses_arena arena;

static struct ses_map_int *
map(uint64_t start, uint64_t end, uint64_t pgoff)
{
	struct ses_map_int *m = ses_arena_alloc(&arena, sizeof(*m));

	memset(m, 0, sizeof(*m));
	m->pub.start = start;
	m->pub.end = end;
	m->pub.pgoff = pgoff;
	return m;
}

/* the set as "start-end@pgoff ..." */
static const char *
show(const struct ses_maps *m)
{
	static char buf[512];
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < m->nr && n < sizeof(buf) - 64; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
				      "%s%" PRIx64 "-%" PRIx64 "@%" PRIx64,
				      i ? " " : "", m->v[i]->pub.start,
				      m->v[i]->pub.end, m->v[i]->pub.pgoff);
	return buf;
}

static void
test_fixup(void)
{
	struct ses_maps m = { 0 };

	ses_maps_insert_fixup(&m, map(0x1000, 0x5000, 0), &arena);
	ses_maps_insert_fixup(&m, map(0x6000, 0x8000, 0x100), &arena);
	T_EQ_STR(show(&m), "1000-5000@0 6000-8000@100", "two maps");

	/* inside one: split in three, the right part's pgoff moved on */
	ses_maps_insert_fixup(&m, map(0x2000, 0x3000, 0x9000), &arena);
	T_EQ_STR(show(&m), "1000-2000@0 2000-3000@9000 3000-5000@2000 6000-8000@100",
		 "split");

	/* across several: the ends trimmed, the covered ones gone */
	ses_maps_insert_fixup(&m, map(0x2800, 0x7000, 0x0), &arena);
	T_EQ_STR(show(&m), "1000-2000@0 2000-2800@9000 2800-7000@0 7000-8000@1100",
		 "across");

	/* exactly over one */
	ses_maps_insert_fixup(&m, map(0x2800, 0x7000, 0x42), &arena);
	T_EQ_STR(show(&m), "1000-2000@0 2000-2800@9000 2800-7000@42 7000-8000@1100",
		 "replace");

	/* touching ends do not overlap */
	ses_maps_insert_fixup(&m, map(0x8000, 0x9000, 0), &arena);
	T_EQ_STR(show(&m),
		 "1000-2000@0 2000-2800@9000 2800-7000@42 7000-8000@1100 8000-9000@0",
		 "adjacent");

	T(ses_maps_find(&m, 0xfff) == NULL, "below every map");
	T(ses_maps_find(&m, 0x9000) == NULL, "at the last end");
	T_EQ_U64(ses_maps_find(&m, 0x27ff)->pub.pgoff, 0x9000, "find in a piece");
	T_EQ_U64(ses_maps_find(&m, 0x7000)->pub.pgoff, 0x1100, "find at a start");
	T_EQ_U64(ses_maps_find(&m, 0x6fff)->pub.pgoff, 0x42, "find at an end");
	ses_maps_free(&m);
}

static void
test_kernel_overlap(void)
{
	struct ses_maps k = { .may_overlap = true };
	struct ses_map_int *kernel = map(0, UINT64_MAX, 0), *mod = map(0, 0x100, 0);

	ses_maps_insert(&k, kernel);
	ses_maps_insert(&k, map(0, 0, 0));
	T(ses_maps_find(&k, 0x50) == kernel, "kernel map");
	ses_maps_insert(&k, mod);
	/* the latest of equal starts that covers the address */
	T(ses_maps_find(&k, 0x50) == mod, "module over the kernel map");
	T(ses_maps_find(&k, 0x150) == kernel, "kernel map past the module");
	ses_maps_free(&k);
}

/* records delivered, as their times */
static uint64_t got[64];
static size_t nr_got;

static int
collect(void *ctx, const struct pd_record *rec)
{
	uint64_t t;

	(void)ctx;
	memcpy(&t, rec->data, sizeof(t));
	if (nr_got < ARRAY_SIZE(got))
		got[nr_got++] = t;
	return 0;
}

static void
queue(struct ses_oe *oe, uint64_t ts, uint64_t tag)
{
	struct pd_record rec;
	uint64_t data[2] = { ts * 100 + tag, 0 };

	memset(&rec, 0, sizeof(rec));
	rec.data = (const unsigned char *)data;
	rec.size = sizeof(data);
	ses_oe_queue_rec(oe, ses_oe_copy(oe, &rec), ts);
}

/* The records up to limit to fn, taken and released as the session does. */
static void
take(struct ses_oe *oe, uint64_t limit,
     int (*fn)(void *ctx, const struct pd_record *rec), void *ctx)
{
	struct ses_oe_rec **v = calloc(ses_oe_queued(oe) + 1, sizeof(*v));
	size_t i, n;

	if (!v)
		abort();
	n = ses_oe_take(oe, limit, v);
	for (i = 0; i < n; i++) {
		fn(ctx, ses_oe_record(v[i]));
		ses_oe_release(oe, v[i]);
	}
	free(v);
}

/* FINISHED_ROUND */
static void
round_end(struct ses_oe *oe,
	  int (*fn)(void *ctx, const struct pd_record *rec), void *ctx)
{
	take(oe, ses_oe_round_limit(oe), fn, ctx);
}

static const char *
show_got(void)
{
	static char buf[512];
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < nr_got && n < sizeof(buf) - 32; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%" PRIu64,
				      i ? " " : "", got[i]);
	nr_got = 0;
	return buf;
}

static void
test_rounds(void)
{
	struct ses_oe oe = { 0 };

	queue(&oe, 50, 1);
	queue(&oe, 30, 1);
	queue(&oe, 50, 2);		/* a tie keeps queue order */
	round_end(&oe, collect, NULL);
	T_EQ_STR(show_got(), "", "the first round delivers nothing");

	queue(&oe, 20, 1);
	queue(&oe, 70, 1);
	round_end(&oe, collect, NULL);
	T_EQ_STR(show_got(), "2001 3001 5001 5002",
		 "the second round delivers up to the first round's maximum");

	queue(&oe, 40, 1);		/* older than the last flush: still sorted in */
	queue(&oe, 60, 1);
	round_end(&oe, collect, NULL);
	T_EQ_STR(show_got(), "4001 6001 7001", "round 3");

	/* an empty queue leaves the limit alone */
	round_end(&oe, collect, NULL);
	queue(&oe, 65, 1);
	queue(&oe, 90, 1);
	round_end(&oe, collect, NULL);
	T_EQ_STR(show_got(), "6501", "round 4 delivers up to 70");

	take(&oe, UINT64_MAX, collect, NULL);
	T_EQ_STR(show_got(), "9001", "the end delivers the rest");
	ses_oe_free(&oe);
}

struct order_check {
	uint64_t prev;
	size_t seen, bad;
};

static int
check_order(void *ctx, const struct pd_record *rec)
{
	struct order_check *c = ctx;
	uint64_t t;

	memcpy(&t, rec->data, sizeof(t));
	if (t < c->prev)
		c->bad++;
	c->prev = t;
	c->seen++;
	return 0;
}

static void
test_many(void)
{
	struct order_check c = { 0, 0, 0 };
	struct ses_oe oe = { 0 };
	uint64_t i, ts;
	size_t early = 0;

	/* enough records for several chunks, scrambled, over two rounds */
	for (i = 0; i < 200000; i++)
		queue(&oe, 1 + (i * 7919) % 200000, 0);
	round_end(&oe, check_order, &c);
	for (i = 0; i < 100000; i++) {
		ts = 100000 + (i * 7919) % 200000;
		early += ts <= 200000;
		queue(&oe, ts, 0);
	}
	round_end(&oe, check_order, &c);
	T_EQ_U64(c.seen, 200000 + early,
		 "the second round delivers up to the first's maximum");
	take(&oe, UINT64_MAX, check_order, &c);
	T_EQ_U64(c.seen, 300000, "all delivered");
	T_EQ_U64(c.bad, 0, "records out of order");
	T_EQ_U64(oe.nr - oe.head, 0, "queue empty");
	ses_oe_free(&oe);
}

/*
 * Records kept in place (8 KiB apart, as DWARF samples) hold the file's
 * pages only back to the chunk of the oldest one still queued, and a
 * chunk spans at most 2 MiB of the file (OE_SPAN_MAX).
 */
static void
test_span(void)
{
	enum { REC = 8192, NR = 1024, TAKEN = 900 };
	const size_t span_max = (size_t)2 << 20;
	unsigned char *file = calloc(NR, REC);
	struct ses_oe_rec **v = calloc(NR, sizeof(*v));
	struct ses_oe oe = { 0 };
	struct pd_record rec;
	const unsigned char *held;
	uint64_t i;
	size_t n;

	if (!file || !v)
		abort();
	ses_oe_set_place(&oe, file, file + (size_t)NR * REC);
	for (i = 0; i < NR; i++) {
		memset(&rec, 0, sizeof(rec));
		rec.data = file + i * REC;
		rec.size = REC;
		ses_oe_queue_rec(&oe, ses_oe_copy(&oe, &rec), i + 1);
	}
	n = ses_oe_take(&oe, TAKEN, v);
	T_EQ_U64(n, TAKEN, "records taken");
	for (i = 0; i < n; i++)
		ses_oe_release(&oe, v[i]);
	held = ses_oe_oldest(&oe);
	T(held && held <= file + (size_t)TAKEN * REC &&
	  (size_t)(file + (size_t)TAKEN * REC - held) <= span_max + REC,
	  "file held back %td bytes behind the oldest queued record",
	  held ? file + (size_t)TAKEN * REC - held : -1);
	n = ses_oe_take(&oe, UINT64_MAX, v);
	for (i = 0; i < n; i++)
		ses_oe_release(&oe, v[i]);
	/* the chunk being filled keeps its place */
	held = ses_oe_oldest(&oe);
	T(!held || (size_t)(file + (size_t)NR * REC - held) <= span_max + REC,
	  "all released: at most the last chunk's span held");
	ses_oe_free(&oe);
	free(v);
	free(file);
}

static void
test_intern(void)
{
	struct ses_strtab t = { .arena = &arena };
	const char *a = ses_intern(&t, "bash", 4);

	T(a == ses_intern(&t, "bashx", 4), "same text, same pointer");
	T(a != ses_intern(&t, "bas", 3), "other text");
	T_EQ_STR(a, "bash", "terminated");
	ses_strtab_free(&t);
}

int
main(void)
{
	test_fixup();
	test_kernel_overlap();
	test_rounds();
	test_many();
	test_span();
	test_intern();
	ses_arena_free(&arena);
	return t_done("test-session");
}
