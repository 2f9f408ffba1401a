/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-session-api.c - the session's public API on a file
 * written here: events in time order, side-band records handed out with
 * the thread of their sample_id, the map view and the resolver, stack
 * ids (two samples that differ in anything resolution reads get two),
 * and the same events with and without the reading thread.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pdata/abi.h"
#include "pdata/reader.h"
#include "pdata/writer.h"
#include "session/session.h"
#include "symbol/symbol.h"
#include "t.h"

#define SAMPLE_TYPE	(PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | \
			 PD_SAMPLE_CPU | PD_SAMPLE_PERIOD | PD_SAMPLE_CALLCHAIN)
#define PID		100
#define MAP_START	0x400000
#define MAP_LEN		0x10000

/* Records in host byte order, built one after the other. */
struct img {
	unsigned char buf[1 << 14];
	size_t len, start;
};

static void
put(struct img *m, const void *p, size_t n)
{
	if (m->len + n > sizeof(m->buf))
		abort();
	memcpy(m->buf + m->len, p, n);
	m->len += n;
}

static void
put64(struct img *m, uint64_t v)
{
	put(m, &v, 8);
}

static void
put32x2(struct img *m, uint32_t a, uint32_t b)
{
	put(m, &a, 4);
	put(m, &b, 4);
}

static void
rec_begin(struct img *m, uint32_t type, uint16_t misc)
{
	m->start = m->len;
	put32x2(m, type, misc);
}

/* The sample_id trailer (TID, TIME, CPU), then the header's size. */
static void
rec_end(struct img *m, bool trailer, uint32_t tid, uint64_t time)
{
	uint16_t size;

	if (trailer) {
		put32x2(m, PID, tid);
		put64(m, time);
		put32x2(m, 0, 0);
	}
	size = (uint16_t)(m->len - m->start);
	memcpy(m->buf + m->start + 6, &size, 2);
}

static void
put_str(struct img *m, const char *s)
{
	char pad[64] = { 0 };
	size_t n = strlen(s) + 1;

	strcpy(pad, s);
	put(m, pad, (n + 7) & ~(size_t)7);
}

static void
comm(struct img *m, uint32_t tid, const char *name, uint64_t time)
{
	rec_begin(m, PD_RECORD_COMM, 0);
	put32x2(m, PID, tid);
	put_str(m, name);
	rec_end(m, true, tid, time);
}

static void
mmap2(struct img *m, uint64_t start, uint64_t pgoff, const char *path,
      uint64_t time)
{
	rec_begin(m, PD_RECORD_MMAP2, PD_MISC_USER);
	put32x2(m, PID, PID);
	put64(m, start);
	put64(m, MAP_LEN);
	put64(m, pgoff);
	put32x2(m, 8, 1);
	put64(m, 1234);
	put64(m, 0);
	put32x2(m, 5, 2);
	put_str(m, path);
	rec_end(m, true, PID, time);
}

static void
sample(struct img *m, uint32_t tid, uint64_t time, uint32_t cpu, uint64_t ip,
       uint64_t caller)
{
	rec_begin(m, PD_RECORD_SAMPLE, PD_MISC_USER);
	put64(m, ip);
	put32x2(m, PID, tid);
	put64(m, time);
	put32x2(m, cpu, 0);
	put64(m, 1000);
	put64(m, 3);
	put64(m, PD_CONTEXT_USER);
	put64(m, ip);
	put64(m, caller);
	rec_end(m, false, 0, 0);
}

static void
simple(struct img *m, uint32_t type, uint16_t misc, uint32_t tid,
       uint64_t time)
{
	rec_begin(m, type, misc);
	if (type == PD_RECORD_LOST) {
		put64(m, 7);
		put64(m, 42);
	}
	rec_end(m, type < PD_RECORD_USER_TYPE_START, tid, time);
}

/*
 * The file: rounds whose samples come out of time order, side-band
 * records between them, and samples that differ from the first in one
 * thing each.
 */
static void
build(struct img *m)
{
	comm(m, PID, "first", 10);
	mmap2(m, MAP_START, 0, "/nonexistent/a.out", 11);
	sample(m, PID, 30, 0, MAP_START + 0x100, MAP_START + 0x200);	/* A */
	sample(m, PID, 20, 0, MAP_START + 0x100, MAP_START + 0x200);	/* A */
	simple(m, PD_RECORD_SWITCH, PD_MISC_SWITCH_OUT, PID, 25);
	simple(m, PD_RECORD_FINISHED_ROUND, 0, 0, 0);
	sample(m, PID, 40, 1, MAP_START + 0x100, MAP_START + 0x200);	/* cpu */
	sample(m, PID, 41, 0, MAP_START + 0x104, MAP_START + 0x200);	/* ip */
	sample(m, PID, 42, 0, MAP_START + 0x100, MAP_START + 0x204);	/* chain */
	sample(m, PID + 1, 43, 0, MAP_START + 0x100, MAP_START + 0x200); /* tid */
	simple(m, PD_RECORD_LOST, 0, PID, 44);
	comm(m, PID, "second", 45);
	sample(m, PID, 46, 0, MAP_START + 0x100, MAP_START + 0x200);	/* comm */
	mmap2(m, MAP_START + 0x8000, 0x3000, "/nonexistent/b.so", 47);
	sample(m, PID, 48, 0, MAP_START + 0x100, MAP_START + 0x200);	/* maps */
	sample(m, PID, 49, 0, MAP_START + 0x100, MAP_START + 0x200);	/* again */
	simple(m, PD_RECORD_FINISHED_ROUND, 0, 0, 0);
}

static char path[64];

static void
write_file(void)
{
	struct pd_attr attr = {
		.type = 1,
		.sample_period = 1000,
		.sample_type = SAMPLE_TYPE,
		.flags = 1ULL << PD_ATTR_SAMPLE_ID_ALL,
	};
	static struct img m;
	struct pd_writer *w;
	int fd;

	/* mkstemp's template: six capital X that it replaces */
	strcpy(path, "/tmp/test-session-api.");
	memset(path + strlen(path), 'X', 6);
	path[strlen("/tmp/test-session-api.") + 6] = '\0';
	fd = mkstemp(path);
	if (fd < 0 || pd_writer_open(&w, fd, NULL) ||
	    pd_writer_add_evsel(w, &attr, NULL, 0) ||
	    pd_writer_begin_data(w, NULL))
		abort();
	build(&m);
	if (pd_writer_write(w, m.buf, m.len) || pd_writer_finish(w, NULL))
		abort();
	pd_writer_close(w);
	close(fd);
}

/* One line per event: what a tool sees of it. */
static void
show(struct ses_session *s, const struct ses_event *ev, char *out, size_t n)
{
	const struct ses_sample *sm = ev->sample;
	const struct ses_map *const *maps;
	size_t nr;

	if (ev->kind == SES_SAMPLE) {
		nr = ses_thread_maps(s, sm->thread, &maps);
		snprintf(out, n, "sample t=%" PRIu64 " tid=%d comm=%s id=%" PRIu64
			 " resolved=%d map=%" PRIx64 " al=%" PRIx64
			 " chain=%zu maps=%zu",
			 sm->time, sm->tid, sm->comm, sm->stack_id,
			 sm->resolved, sm->resolved && sm->self.map ?
			 sm->self.map->start : 0,
			 sm->resolved ? sm->self.al_addr : 0,
			 sm->resolved ? sm->nr_chain : 0, nr);
	} else {
		snprintf(out, n, "%s type=%u t=%" PRIu64 " thread=%s",
			 ev->kind == SES_USER ? "user" : "record",
			 ev->rec->header.type, ev->kind == SES_RECORD ?
			 ev->event->base.sample_id.time : 0,
			 ev->thread ? ev->thread->comm : "-");
	}
}

/*
 * As perf's rounds go, a FINISHED_ROUND flushes what came before the
 * round ahead of it: the first flushes nothing, the rest comes at the
 * end.  Thread 101 shares its process's maps.
 */
static const char *const want[] = {
	"user type=68 t=0 thread=-",
	"record type=3 t=10 thread=first",
	"record type=10 t=11 thread=first",
	"sample t=20 tid=100 comm=first id=1 resolved=1 map=400000 al=100 chain=2 maps=1",
	"record type=14 t=25 thread=first",
	"sample t=30 tid=100 comm=first id=1 resolved=0 map=0 al=0 chain=0 maps=1",
	"user type=68 t=0 thread=-",
	"sample t=40 tid=100 comm=first id=2 resolved=1 map=400000 al=100 chain=2 maps=1",
	"sample t=41 tid=100 comm=first id=3 resolved=1 map=400000 al=104 chain=2 maps=1",
	"sample t=42 tid=100 comm=first id=4 resolved=1 map=400000 al=100 chain=2 maps=1",
	"sample t=43 tid=101 comm=:101 id=5 resolved=1 map=400000 al=100 chain=2 maps=1",
	"record type=2 t=44 thread=first",
	"record type=3 t=45 thread=second",
	"sample t=46 tid=100 comm=second id=6 resolved=1 map=400000 al=100 chain=2 maps=1",
	"record type=10 t=47 thread=second",
	"sample t=48 tid=100 comm=second id=7 resolved=1 map=400000 al=100 chain=2 maps=2",
	"sample t=49 tid=100 comm=second id=7 resolved=0 map=0 al=0 chain=0 maps=2",
};

/* A session on the test file, kallsyms empty. */
struct run {
	struct pd_reader *r;
	struct sym_ctx *syms;
	struct ses_session *s;
};

static struct ses_session *
run_open(struct run *x, const struct ses_opts *opts)
{
	struct sym_opts yopts = { .kallsyms = "/dev/null" };

	T(!pd_reader_open(&x->r, path, NULL), "open %s", path);
	x->syms = sym_ctx_new(&yopts);
	x->s = ses_new(x->r, x->syms, opts);
	return x->s;
}

static void
run_close(struct run *x)
{
	ses_free(x->s);
	sym_ctx_free(x->syms);
	pd_reader_close(x->r);
}

static void
check_run(unsigned int threads, bool key_cpu)
{
	struct ses_opts opts = { .stack_ids = true, .threads = threads,
				 .stack_key_cpu = key_cpu };
	struct run run;
	struct ses_session *s;
	struct ses_event ev;
	struct ses_loc loc;
	char got[256], what[64];
	size_t i = 0;
	int ret;

	s = run_open(&run, &opts);
	while ((ret = ses_next(s, &ev)) > 0) {
		show(s, &ev, got, sizeof(got));
		snprintf(what, sizeof(what), "threads %u cpu %d: event %zu",
			 threads, key_cpu, i);
		if (!key_cpu && i == 7) {
			/* without the CPU in the key, t=40 repeats t=20 */
			T_EQ_STR(got, "sample t=40 tid=100 comm=first id=1 "
				 "resolved=0 map=0 al=0 chain=0 maps=1", what);
		} else if (!key_cpu && i > 7 && ev.kind == SES_SAMPLE) {
			/* and every later id is one less */
			T(ev.sample->stack_id + 1 == (uint64_t)atoi(
				  strstr(want[i], " id=") + 4), "%s: %s", what,
			  got);
		} else if (i < sizeof(want) / sizeof(want[0])) {
			T_EQ_STR(got, want[i], what);
		}
		if (ev.kind == SES_SAMPLE && !ev.sample->resolved) {
			T(!ses_decode_sample(s, &ev) && ev.sample->raw &&
			  ev.sample->raw->time == ev.sample->time &&
			  !ev.sample->resolved, "%s: decoded alone", what);
			T(!ses_resolve_sample(s, &ev), "%s: resolve", what);
			T(ev.sample->resolved && ev.sample->nr_chain == 2 &&
			  ev.sample->self.al_addr == 0x100,
			  "%s: resolved later", what);
		}
		i++;
	}
	T_EQ_U64((uint64_t)ret, 0, "the end");
	T_EQ_U64(i, sizeof(want) / sizeof(want[0]), "number of events");
	/* the resolver and the map view at the end of the replay */
	ses_resolve(s, ses_thread_find(s, PID, PID), PD_MISC_USER,
		    MAP_START + 0x8010, &loc);
	T(loc.map && loc.map->start == MAP_START + 0x8000 &&
	  loc.map->pgoff == 0x3000 && loc.al_addr == 0x3010,
	  "threads %u: resolve in the second map", threads);
	T(ses_thread_find(s, PID, 999) == NULL, "no such thread");
	run_close(&run);
}

/* the al= a want[] line gives, 0x100 (a repeat's) where it gives 0 */
static uint64_t
want_al(size_t i)
{
	uint64_t al = strtoull(strstr(want[i], " al=") + 4, NULL, 16);

	return al ? al : 0x100;
}

/*
 * resolve_on_demand: every sample comes unresolved, a new stack decoded
 * and a repeat not; resolving either gives what the eager run gave.
 */
static void
check_on_demand(unsigned int threads)
{
	struct ses_opts opts = { .stack_ids = true, .threads = threads,
				 .stack_key_cpu = true,
				 .resolve_on_demand = true };
	struct run run;
	struct ses_session *s;
	struct ses_event ev;
	size_t i = 0, samples = 0;

	s = run_open(&run, &opts);
	while (ses_next(s, &ev) > 0 && i < sizeof(want) / sizeof(want[0])) {
		bool is_new = strstr(want[i], "resolved=1") != NULL;

		if (ev.kind == SES_SAMPLE) {
			T(!ev.sample->resolved, "on demand %u: event %zu "
			  "unresolved", threads, i);
			T((ev.sample->raw != NULL) == is_new, "on demand %u: "
			  "event %zu decoded when new", threads, i);
			T(!ses_resolve_sample(s, &ev) &&
			  ev.sample->resolved && ev.sample->nr_chain == 2 &&
			  ev.sample->self.al_addr == want_al(i),
			  "on demand %u: event %zu resolved", threads, i);
			samples++;
		}
		i++;
	}
	T_EQ_U64(samples, 9, "on demand: samples");
	run_close(&run);
}

struct user_visit {
	uint64_t n;
	bool in_order;
};

static void
user_visit(void *ctx, uint64_t *user)
{
	struct user_visit *v = ctx;

	v->n++;
	/* each stack's words hold its id (set below): visited in id order */
	if (user[0] != v->n || user[SES_STACK_USER_WORDS - 1] != 7 * v->n)
		v->in_order = false;
}

/*
 * A stack's user words: 0 when new, kept for its repeats, and each
 * stack's visited once by ses_stack_user_each(), in id order.
 */
static void
check_user_words(unsigned int threads)
{
	struct ses_opts opts = { .stack_ids = true, .threads = threads,
				 .stack_key_cpu = true };
	struct user_visit v = { .in_order = true };
	struct run run;
	struct ses_session *s;
	struct ses_event ev;
	uint64_t max_id = 0, repeats = 0, *u;
	size_t i = 0;

	s = run_open(&run, &opts);
	while (ses_next(s, &ev) > 0) {
		if (ev.kind != SES_SAMPLE) {
			i++;
			continue;
		}
		u = ev.sample->stack_user;
		T(u != NULL, "user words %u: event %zu has them", threads, i);
		if (ev.sample->stack_id > max_id) {
			max_id = ev.sample->stack_id;
			T(!u[0] && !u[SES_STACK_USER_WORDS - 1],
			  "user words %u: event %zu new, zero", threads, i);
			u[0] = ev.sample->stack_id;
			u[SES_STACK_USER_WORDS - 1] = 7 * ev.sample->stack_id;
		} else {
			T_EQ_U64(u[0], ev.sample->stack_id, "user words kept");
			repeats++;
		}
		i++;
	}
	T(repeats > 0, "user words %u: some samples repeat", threads);
	ses_stack_user_each(s, user_visit, &v);
	T_EQ_U64(v.n, max_id, "user words: one visit per stack");
	T(v.in_order, "user words %u: visited in id order", threads);
	run_close(&run);
}

/*
 * ses_stacks_forget() after the first sample: its repeat (t=30) comes
 * resolved, with a new id and zero user words; the ids go on from there,
 * the next repeat (t=49) is one again, and the table holds only the
 * stacks interned since.
 */
static void
check_forget(unsigned int threads)
{
	struct ses_opts opts = { .stack_ids = true, .threads = threads,
				 .stack_key_cpu = true };
	struct user_visit v = { .in_order = true };
	struct run run;
	struct ses_session *s;
	struct ses_event ev;
	uint64_t last_id = 0, first_id = 0;
	size_t samples = 0;

	s = run_open(&run, &opts);
	while (ses_next(s, &ev) > 0) {
		const struct ses_sample *sm = ev.sample;

		if (ev.kind != SES_SAMPLE)
			continue;
		samples++;
		if (samples == 1) {
			first_id = sm->stack_id;
			sm->stack_user[0] = 99;
			ses_stacks_forget(s);
		} else if (samples == 2) {
			T(sm->resolved && sm->stack_id == first_id + 1 &&
			  !sm->stack_user[0], "forget %u: the repeat is new "
			  "(id %llu)", threads, (unsigned long long)sm->stack_id);
		} else if (samples == 9) {
			T(!sm->resolved && sm->stack_id == last_id,
			  "forget %u: a later repeat is one", threads);
		} else {
			T(sm->resolved && sm->stack_id == last_id + 1,
			  "forget %u: sample %zu, id %llu after %llu", threads,
			  samples, (unsigned long long)sm->stack_id,
			  (unsigned long long)last_id);
		}
		/* user_visit() expects each stack's number since the forget */
		sm->stack_user[0] = sm->stack_id - first_id;
		sm->stack_user[SES_STACK_USER_WORDS - 1] =
			7 * (sm->stack_id - first_id);
		last_id = sm->stack_id;
	}
	T_EQ_U64(samples, 9, "forget: samples");
	ses_stack_user_each(s, user_visit, &v);
	T_EQ_U64(v.n, last_id - first_id, "forget: the stacks since");
	T(v.in_order, "forget %u: those stacks' words", threads);
	/* after the end nothing waits for a next sample */
	ses_stacks_forget(s);
	v.n = 0;
	ses_stack_user_each(s, user_visit, &v);
	T_EQ_U64(v.n, 0, "forget after the end: at once");
	run_close(&run);
}

/* Without stack ids every sample is resolved and has id 0. */
static void
check_no_ids(void)
{
	struct ses_opts opts = { 0 };
	struct run run;
	struct ses_session *s;
	struct ses_event ev;
	struct ses_sample one;
	size_t samples = 0, pos;

	s = run_open(&run, &opts);
	while (ses_next(s, &ev) > 0) {
		if (ev.kind != SES_SAMPLE)
			continue;
		T(ev.sample->resolved && !ev.sample->stack_id &&
		  !ev.sample->stack_user,
		  "sample %zu resolved, no id, no user words", samples);
		pos = 0;
		T(ses_read_split(s, ev.sample, &pos, &one) &&
		  one.time == ev.sample->time &&
		  !ses_read_split(s, ev.sample, &pos, &one),
		  "a sample without READ stands for itself once");
		samples++;
	}
	T_EQ_U64(samples, 9, "samples");
	run_close(&run);
}

int
main(void)
{
	write_file();
	check_run(0, true);
	check_run(1, true);
	check_run(0, false);
	check_on_demand(0);
	check_on_demand(1);
	check_user_words(0);
	check_user_words(1);
	check_forget(0);
	check_forget(1);
	check_no_ids();
	unlink(path);
	return t_done("test-session-api");
}
