/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/session.c - read the records, put them in time order and apply
 * them: threads (COMM, FORK, EXIT), maps (MMAP, MMAP2, KSYMBOL), then
 * hand each resolved SAMPLE and each loss to the caller.
 */
#include "config.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xxhash.h>

#include "lib/xalloc.h"
#include "pdata/events.h"
#include "pdata/sample.h"
#include "report/session-int.h"

#define IDLE_COMM "swapper"

static void
session_set_err(struct rep_session *s, uint64_t offset, const char *what,
		const char *why)
{
	snprintf(s->errmsg, sizeof(s->errmsg), "offset %#llx: %s: %s",
		 (unsigned long long)offset, what, why);
}

static void
load_build_ids(struct rep_session *s)
{
	const struct pd_meta *meta = pd_reader_meta(s->r);
	size_t i, n = 0;

	free(s->bids);
	s->bids = NULL;
	s->nr_bids = 0;
	u64map_free(&s->bid_index);
	if (!meta || !meta->nr_build_ids)
		return;
	s->bids_seen = meta->nr_build_ids;
	s->bids = xcalloc(meta->nr_build_ids, sizeof(*s->bids));
	for (i = 0; i < meta->nr_build_ids; i++) {
		const struct pd_build_id *b = &meta->build_ids[i];
		uint8_t mode = b->misc & PD_MISC_CPUMODE_MASK;
		uint64_t *slot;

		/*
		 * The host's entries (pid -1); guests' ids belong to machines
		 * not modelled, and perf ignores other cpumodes.
		 */
		if (b->pid != -1 || !b->filename ||
		    mode == PD_MISC_CPUMODE_UNKNOWN ||
		    mode == PD_MISC_HYPERVISOR || mode > PD_MISC_GUEST_USER)
			continue;
		s->bids[n].name = b->filename;
		s->bids[n].id = b->id;
		s->bids[n].size = b->size > PD_BUILD_ID_SIZE ?
				  PD_BUILD_ID_SIZE : b->size;
		slot = u64map_slot(&s->bid_index,
				   rep_hash(b->filename, strlen(b->filename)));
		if (!*slot)
			*slot = n + 1;
		n++;
	}
	s->nr_bids = n;
}

const struct rep_bid *
rep_header_bid(struct rep_session *s, const char *name)
{
	const struct pd_meta *meta = pd_reader_meta(s->r);
	uint64_t *v;
	size_t i;

	/* in a pipe, HEADER_BUILD_ID records add to the table as they come */
	if (meta && meta->nr_build_ids != s->bids_seen)
		load_build_ids(s);
	if (!s->nr_bids)
		return NULL;
	v = u64map_find(&s->bid_index, rep_hash(name, strlen(name)));
	if (!v)
		return NULL;
	if (!strcmp(s->bids[*v - 1].name, name))
		return &s->bids[*v - 1];
	for (i = 0; i < s->nr_bids; i++)
		if (!strcmp(s->bids[i].name, name))
			return &s->bids[i];
	return NULL;
}

/*
 * Bounds the cache's memory (past it, new records are resolved each
 * time); below 2^32, as raw_slot() keeps offsets in 32 bits.
 */
#define RAW_MAX_WORDS	((size_t)32 << 20)
#define RAW_HEAD	7

/* Whether samples may be taken as repeats (a READ sample never is). */
static bool
raw_on(const struct rep_session *s)
{
	return s->ops->sample_tok && s->ops->sample_again &&
	       !s->opts.branches;
}

/* The record's part of a sample's key, from its key fields. */
static void
pre_fill(const struct rep_session *s, const struct pd_sample_key *k,
	 struct rep_pre *p)
{
	uint64_t seed;
	size_t nr = 0;

	/* an absent callchain is empty */
	if (!s->opts.no_callchain)
		nr = k->callchain.nr;
	p->pid = (int32_t)k->pid;
	p->tid = (int32_t)k->tid;
	p->cpu = k->cpu;
	p->cpumode = k->cpumode;
	p->ip = k->ip;
	p->period = k->period;
	p->time = k->time;
	p->cc = k->callchain.p;
	p->nr_cc = (uint32_t)nr;
	p->cpu_nr = s->opts.repeat_cpu ? (uint64_t)k->cpu << 32 | nr : nr;
	seed = u64_mix(p->ip ^ u64_mix(p->cpu_nr ^ p->cpumode));
	p->hash = XXH3_64bits_withSeed(nr ? p->cc : NULL, nr * sizeof(uint64_t),
				       seed);
	p->ok = true;
}

/*
 * The key fields of rec into p, from the record in place when its
 * sample_type allows, else from the whole sample decoded into ps
 * (*decoded then says so).  False when the sample does not decode (the
 * caller decodes it again to say why) or may not be taken as a repeat.
 */
static bool
pre_decode(const struct rep_session *s, const struct pd_attr *attr,
	   const struct pd_record *rec, struct pd_sample *ps,
	   struct rep_pre *p, bool *decoded)
{
	struct pd_sample_key k;
	int err;

	if (!raw_on(s))
		return false;
	err = pd_sample_key_decode(attr, rec, &k);
	if (err < 0)
		return false;
	if (err > 0) {
		if (pd_sample_decode(attr, rec, ps))
			return false;
		*decoded = true;
		if (ps->type & PD_SAMPLE_READ)
			return false;
		k = (struct pd_sample_key){
			.id = ps->id,
			.ip = ps->ip,
			.time = ps->time,
			.period = ps->period,
			.pid = ps->pid,
			.tid = ps->tid,
			.cpu = ps->cpu,
			.cpumode = ps->cpumode,
			.callchain = ps->callchain,
		};
	}
	pre_fill(s, &k, p);
	return true;
}

/*
 * The key of a sample into s->raw.scratch (returns its length in words)
 * and its hash into *h: the record's part, with what resolving it
 * depends on here (thread, comm, map generation, map set).
 */
static size_t
raw_words(struct rep_session *s, const struct rep_thread_int *t,
	  const struct rep_pre *p, int evsel, uint64_t *h)
{
	struct rep_rawcache *rc = &s->raw;
	size_t nw = RAW_HEAD + p->nr_cc;
	uint64_t *w;

	if (nw > rc->cap_scratch) {
		rc->cap_scratch = nw * 2;
		rc->scratch = xreallocarray(rc->scratch, rc->cap_scratch,
					    sizeof(*rc->scratch));
	}
	w = rc->scratch;
	w[0] = (uint32_t)evsel | (uint64_t)p->cpumode << 32;
	w[1] = (uintptr_t)t;
	w[2] = (uintptr_t)t->pub.comm;
	w[3] = s->map_gen;
	w[4] = p->ip;
	w[5] = p->cpu_nr;
	w[6] = (uintptr_t)t->maps;
	if (p->nr_cc)
		memcpy(w + RAW_HEAD, p->cc, p->nr_cc * sizeof(uint64_t));
	*h = u64_mix(p->hash ^ w[0] * 0x9e3779b97f4a7c15ULL ^
		   w[1] * 0xc2b2ae3d27d4eb4fULL ^ w[2] * 0x165667b19e3779f9ULL ^
		   w[3] * 0x85ebca77c2b2ae63ULL ^ w[6] * 0x27d4eb2f165667c5ULL);
	return nw;
}

/*
 * An entry is its words in rc->words: the hash, the key's length, the
 * token, then the key.  A slot holds the hash's high half over
 * 1 + the entry's offset, so that a probe reads the slot and the entry,
 * both in one place.
 */
#define RAW_ENT_HEAD	3

static uint64_t
raw_slot(uint64_t hash, size_t off)
{
	return (hash & 0xffffffff00000000ull) | (uint32_t)(off + 1);
}

static void
raw_rehash(struct rep_rawcache *rc)
{
	size_t cap = rc->cap_slots ? rc->cap_slots * 2 : 4096, off, j;
	uint64_t *slots = xcalloc(cap, sizeof(*slots)), *e;

	for (off = 0; off < rc->nr_words; off += RAW_ENT_HEAD + e[1]) {
		e = rc->words + off;
		j = e[0] & (cap - 1);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = raw_slot(e[0], off);
	}
	free(rc->slots);
	rc->slots = slots;
	rc->cap_slots = cap;
}

/*
 * The entry of the scratch words (hash h), or NULL with *slot the free
 * slot where it would go.
 */
static uint64_t *
raw_find(struct rep_rawcache *rc, uint64_t h, size_t nw, size_t *slot)
{
	uint64_t *e;
	size_t j;

	if ((rc->nr + 1) * 2 > rc->cap_slots)
		raw_rehash(rc);
	j = h & (rc->cap_slots - 1);
	while (rc->slots[j]) {
		if ((rc->slots[j] >> 32) == (h >> 32)) {
			e = rc->words + (uint32_t)rc->slots[j] - 1;
			if (e[0] == h && e[1] == nw &&
			    !memcmp(e + RAW_ENT_HEAD, rc->scratch,
				    nw * sizeof(uint64_t)))
				return e;
		}
		j = (j + 1) & (rc->cap_slots - 1);
	}
	*slot = j;
	return NULL;
}

static void
raw_insert(struct rep_rawcache *rc, uint64_t h, size_t nw, size_t slot,
	   uint64_t tok)
{
	size_t need = RAW_ENT_HEAD + nw;
	uint64_t *e;

	if (rc->nr_words + need > RAW_MAX_WORDS)
		return;
	if (rc->nr_words + need > rc->cap_words) {
		rc->cap_words = (rc->nr_words + need) * 2;
		rc->words = xreallocarray(rc->words, rc->cap_words,
					  sizeof(*rc->words));
	}
	e = rc->words + rc->nr_words;
	e[0] = h;
	e[1] = nw;
	e[2] = tok;
	memcpy(e + RAW_ENT_HEAD, rc->scratch, nw * sizeof(uint64_t));
	rc->slots[slot] = raw_slot(h, rc->nr_words);
	rc->nr_words += need;
	rc->nr++;
}

static void
raw_free(struct rep_rawcache *rc)
{
	free(rc->slots);
	free(rc->words);
	free(rc->scratch);
}

struct rep_session *
rep_session_new(struct pd_reader *r, struct sym_ctx *syms,
		const struct rep_session_opts *opts)
{
	struct rep_session *s = xcalloc(1, sizeof(*s));
	struct rep_thread_int *idle;

	s->r = r;
	s->syms = syms;
	if (opts)
		s->opts = *opts;
	if (!s->opts.max_stack)
		s->opts.max_stack = 127;
	s->strs.arena = &s->arena;
	s->threads.arena = &s->arena;
	s->threads.comms = &s->strs;
	s->kmaps.may_overlap = true;
	s->rcache = xcalloc((size_t)1 << REP_RCACHE_BITS, sizeof(*s->rcache));
	s->map_gen = 1;
	load_build_ids(s);

	/* perf registers the idle task before reading */
	idle = rep_thread_findnew(&s->threads, 0, 0, true);
	rep_thread_set_comm(&s->threads, idle, IDLE_COMM, strlen(IDLE_COMM));
	return s;
}

void
rep_session_free(struct rep_session *s)
{
	if (!s)
		return;
	rep_oe_free(&s->oe);
	rep_threads_free(&s->threads);
	rep_maps_free(&s->kmaps);
	rep_strtab_free(&s->strs);
	rep_arena_free(&s->arena);
	u64map_free(&s->bid_index);
	u64map_free(&s->read_last);
	free(s->bids);
	free(s->chain);
	free(s->branches);
	free(s->rcache);
	raw_free(&s->raw);
	free(s);
}

const char *
rep_session_errmsg(const struct rep_session *s)
{
	if (s->errmsg[0])
		return s->errmsg;
	return pd_reader_errmsg(s->r);
}

static const struct pd_attr *
rec_attr(struct rep_session *s, const struct pd_record *rec)
{
	const struct pd_evsel *ev;
	int idx = rec->evsel;

	if (idx < 0 || (size_t)idx >= pd_reader_nr_evsels(s->r)) {
		if (rec->header.type == PD_RECORD_SAMPLE ||
		    !pd_reader_nr_evsels(s->r))
			return NULL;
		idx = 0;
	}
	ev = pd_reader_evsel(s->r, (size_t)idx);
	return ev ? &ev->attr : NULL;
}

/*
 * A sample with PERF_SAMPLE_READ stands for one sample of each event
 * whose value it carries, with the value's growth since that event's
 * last sample as its period; events that did not grow get none.
 */
static void
deliver_read_values(struct rep_session *s, const struct pd_sample *ps,
		    struct rep_sample *out)
{
	struct pd_read_value v;
	uint64_t *last;
	size_t i;
	int idx;

	for (i = 0; i < ps->read.nr; i++) {
		if (pd_read_value_get(&ps->read, i, &v))
			break;
		idx = pd_reader_evsel_by_id(s->r, v.id);
		if (idx < 0)
			continue;
		last = u64map_slot(&s->read_last, v.id);
		out->period = v.value - *last;
		*last = v.value;
		if (!out->period)
			continue;
		out->evsel = (unsigned int)idx;
		if (s->ops->sample)
			s->ops->sample(s->ctx, out);
	}
}

static int
sample_decode(struct rep_session *s, const struct pd_attr *attr,
	      const struct pd_record *rec)
{
	char why[256];
	int err;

	err = pd_sample_decode(attr, rec, &s->sample);
	if (err) {
		pd_sample_explain(attr, rec, why, sizeof(why));
		session_set_err(s, rec->offset, "cannot parse sample", why);
	}
	return err;
}

static struct rep_thread_int *
sample_thread(struct rep_session *s, int32_t pid, int32_t tid)
{
	struct rep_thread_int **c;

	c = &s->tcache[(uint32_t)tid & (REP_TCACHE - 1)];
	if (!*c || (*c)->pub.tid != tid || (*c)->pub.pid != pid)
		*c = rep_thread_findnew(&s->threads, pid, tid, true);
	return *c;
}

/* A repeat of a sample already resolved: only these fields change. */
static bool
sample_again(struct rep_session *s, const struct pd_record *rec,
	     const struct rep_pre *p, struct rep_thread_int *t, uint64_t tok,
	     bool decoded)
{
	struct rep_sample *a = &s->again;

	a->evsel = (unsigned int)rec->evsel;
	a->raw = decoded ? &s->sample : NULL;
	a->pid = p->pid;
	a->tid = p->tid;
	a->cpu = p->cpu;
	a->time = p->time;
	a->period = p->period;
	a->thread = &t->pub;
	a->comm = t->pub.comm;
	return s->ops->sample_again(s->ctx, tok, a);
}

/*
 * pre: the record's key fields when the reading thread decoded it, or
 * NULL.
 */
static int
process_sample(struct rep_session *s, const struct pd_record *rec,
	       const struct rep_pre *pre)
{
	const struct pd_attr *attr = rec_attr(s, rec);
	struct pd_sample *ps = &s->sample;
	struct rep_thread_int *t;
	struct rep_pre local;
	struct rep_sample out;
	uint64_t *k = NULL, h = 0;
	size_t nw = 0, slot = 0;
	bool decoded = false;
	int err;

	if (!attr)
		return 0;	/* perf counts an unknown id and goes on */
	if (!pre) {
		/* a repeat needs its key fields only */
		if (pre_decode(s, attr, rec, ps, &local, &decoded)) {
			pre = &local;
		} else if (!decoded) {
			err = sample_decode(s, attr, rec);
			if (err)
				return err;
			decoded = true;
		}
	}
	if (pre)
		t = sample_thread(s, pre->pid, pre->tid);
	else
		t = sample_thread(s, (int32_t)ps->pid, (int32_t)ps->tid);
	if (pre) {
		nw = raw_words(s, t, pre, rec->evsel, &h);
		k = raw_find(&s->raw, h, nw, &slot);
		if (k && k[2] && sample_again(s, rec, pre, t, k[2], decoded))
			return 0;
	}
	if (!decoded) {
		err = sample_decode(s, attr, rec);
		if (err)
			return err;
	}
	memset(&out, 0, sizeof(out));
	out.evsel = (unsigned int)rec->evsel;
	out.raw = ps;
	out.pid = (int32_t)ps->pid;
	out.tid = (int32_t)ps->tid;
	out.cpu = ps->cpu;
	out.time = ps->time;
	out.period = ps->period;
	out.thread = &t->pub;
	out.comm = t->pub.comm;
	rep_resolve_loc(s, t, ps->cpumode, ps->ip, &out.self);
	out.filtered = ps->cpumode == PD_MISC_GUEST_KERNEL ||
		       ps->cpumode == PD_MISC_GUEST_USER;
	if (!s->opts.no_callchain && pd_sample_has(ps, PD_SAMPLE_CALLCHAIN)) {
		out.nr_chain = rep_resolve_chain(s, t, ps);
		out.chain = out.nr_chain ? s->chain : NULL;
	}
	if (s->opts.branches && pd_sample_has(ps, PD_SAMPLE_BRANCH_STACK)) {
		out.nr_branches = rep_resolve_branches(s, t, ps);
		out.branches = out.nr_branches ? s->branches : NULL;
	}
	if (pre) {
		uint64_t tok = s->ops->sample_tok(s->ctx, &out);

		if (k)
			k[2] = tok;
		else
			raw_insert(&s->raw, h, nw, slot, tok);
		return 0;
	}
	if (!(ps->type & PD_SAMPLE_READ)) {
		if (s->ops->sample)
			s->ops->sample(s->ctx, &out);
		return 0;
	}
	deliver_read_values(s, ps, &out);
	return 0;
}

static void
process_comm(struct rep_session *s, const struct pd_ev_comm *c)
{
	struct rep_thread_int *t;

	t = rep_thread_findnew(&s->threads, (int32_t)c->pid, (int32_t)c->tid,
			       true);
	rep_thread_set_comm(&s->threads, t, c->comm.s, c->comm.len);
}

static void
process_fork(struct rep_session *s, const struct pd_ev_fork *f)
{
	struct rep_threads *ts = &s->threads;
	struct rep_thread_int *child, *parent;
	int32_t pid = (int32_t)f->pid, tid = (int32_t)f->tid;
	int32_t ppid = (int32_t)f->ppid, ptid = (int32_t)f->ptid;

	/* threads may be replaced below */
	memset(s->tcache, 0, sizeof(s->tcache));
	child = rep_thread_findnew(ts, pid, tid, false);
	parent = rep_thread_findnew(ts, ppid, ptid, true);
	/* a stale thread under the parent's tid: start it afresh */
	if (parent->pub.pid != ppid) {
		rep_thread_remove(ts, parent);
		parent = rep_thread_findnew(ts, ppid, ptid, true);
	}
	if (child)
		rep_thread_remove(ts, child);
	child = rep_thread_findnew(ts, pid, tid, true);
	if (parent->comm_set) {
		child->pub.comm = parent->pub.comm;
		child->comm_set = true;
	}
	if (child->pub.pid == parent->pub.pid || child->maps == parent->maps)
		return;
	/* a new process starts with a copy of its parent's maps */
	if (!(f->header.misc & PD_MISC_FORK_EXEC)) {
		rep_maps_copy(child->maps, parent->maps);
		s->map_gen++;
	}
}

static void
process_exit(struct rep_session *s, const struct pd_ev_fork *f)
{
	struct rep_thread_int *t;

	t = rep_thread_findnew(&s->threads, (int32_t)f->pid, (int32_t)f->tid,
			       false);
	if (t)
		t->pub.dead = true;
}

static int
deliver(void *ctx, const struct pd_record *rec)
{
	struct rep_session *s = ctx;
	const struct pd_attr *attr;
	union pd_event ev;
	uint8_t cpumode = rec->header.misc & PD_MISC_CPUMODE_MASK;
	unsigned int evsel = rec->evsel < 0 ? 0 : (unsigned int)rec->evsel;
	char why[256];
	int err;

	switch (rec->header.type) {
	case PD_RECORD_SAMPLE:
		return process_sample(s, rec, NULL);
	case PD_RECORD_MMAP:
	case PD_RECORD_MMAP2:
	case PD_RECORD_COMM:
	case PD_RECORD_FORK:
	case PD_RECORD_EXIT:
	case PD_RECORD_LOST:
	case PD_RECORD_LOST_SAMPLES:
	case PD_RECORD_KSYMBOL:
		break;
	default:
		return 0;
	}
	attr = rec_attr(s, rec);
	err = pd_event_decode(attr, rec, &ev);
	if (err) {
		pd_event_explain(attr, rec, why, sizeof(why));
		session_set_err(s, rec->offset,
				pd_record_type_name(rec->header.type), why);
		return err;
	}
	switch (rec->header.type) {
	case PD_RECORD_MMAP:
		return rep_process_mmap(s, &ev, false, cpumode);
	case PD_RECORD_MMAP2:
		return rep_process_mmap(s, &ev, true, cpumode);
	case PD_RECORD_COMM:
		process_comm(s, &ev.comm);
		break;
	case PD_RECORD_FORK:
		process_fork(s, &ev.fork);
		break;
	case PD_RECORD_EXIT:
		process_exit(s, &ev.fork);
		break;
	case PD_RECORD_LOST:
		if (s->ops->lost)
			s->ops->lost(s->ctx, evsel, ev.lost.lost);
		break;
	case PD_RECORD_LOST_SAMPLES:
		if (s->ops->lost_samples)
			s->ops->lost_samples(s->ctx, evsel, ev.lost_samples.lost);
		break;
	case PD_RECORD_KSYMBOL:
		return rep_process_ksymbol(s, &ev);
	default:
		break;
	}
	return 0;
}

/*
 * The time perf queues a record under: the sample's time, or the
 * sample_id trailer's; (u64)-1 when there is none.
 */
static uint64_t
record_time(struct rep_session *s, const struct pd_record *rec)
{
	const struct pd_attr *attr = rec_attr(s, rec);
	struct pd_sample_id id;

	if (!attr)
		return (uint64_t)-1;
	if (rec->header.type != PD_RECORD_SAMPLE &&
	    !pd_attr_has(attr, PD_ATTR_SAMPLE_ID_ALL))
		return (uint64_t)-1;
	if (!(attr->sample_type & PD_SAMPLE_TIME))
		return (uint64_t)-1;
	if (pd_sample_id_decode(attr, rec, &id))
		return (uint64_t)-1;
	return id.time;
}

static bool
ordering_possible(struct rep_session *s)
{
	const struct pd_evsel *first;

	/* a pipe's events arrive later; perf keeps ordering on for it */
	if (pd_reader_info(s->r)->mode == PD_MODE_PIPE)
		return true;
	if (!pd_reader_nr_evsels(s->r))
		return true;
	first = pd_reader_evsel(s->r, 0);
	return pd_attr_has(&first->attr, PD_ATTR_SAMPLE_ID_ALL);
}

/* perf processes HEADER_FEATURE at once, outside the time order */
static void
feature_read(struct rep_session *s, const struct pd_record *rec)
{
	if (rec->header.type == PD_RECORD_HEADER_FEATURE && s->ops->feature)
		s->ops->feature(s->ctx, rec);
}

static int
handle(struct rep_session *s, const struct pd_record *rec)
{
	uint64_t ts;

	if (rec->origin == PD_ORIGIN_FILE &&
	    (rec->header.type == PD_RECORD_COMPRESSED ||
	     rec->header.type == PD_RECORD_COMPRESSED2))
		return 0;
	if (rec->header.type >= PD_RECORD_USER_TYPE_START) {
		if (rec->header.type == PD_RECORD_FINISHED_ROUND &&
		    s->ordered && !s->whole_sort)
			return rep_oe_round(&s->oe, deliver, s);
		feature_read(s, rec);
		return 0;
	}
	if (s->ordered) {
		ts = record_time(s, rec);
		if (ts && ts != (uint64_t)-1) {
			rep_oe_queue(&s->oe, rec, ts);
			return 0;
		}
	}
	return deliver(s, rec);
}

/*
 * The reader maps a regular file whole and hands records out in place;
 * the pages it has gone past would stay in our resident set (the whole
 * file, at the end).  Those pages can go: dropping pages of a read-only
 * private file mapping only means that a later access reads them from
 * the file again.  The mapping is checked in /proc/self/maps first, so
 * that nothing else (a stream's buffer) is ever dropped.  Records kept
 * for later point into it (ordered.c), so that they need no copy: pages
 * are dropped only behind the oldest of them, which is read again soon.
 */
#define RELEASE_STEP	((uintptr_t)32 << 20)

static void
release_find(struct rep_session *s, const unsigned char *p)
{
	uintptr_t a = (uintptr_t)p, lo, hi;
	unsigned long long off, ino;
	char perms[8], line[512];
	FILE *f;

	s->rel_checked = true;
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %llx %*s %llu",
			   &lo, &hi, perms, &off, &ino) != 5)
			continue;
		if (a < lo || a >= hi)
			continue;
		if (!strcmp(perms, "r--p") && ino != 0) {
			s->rel_lo = s->rel_done = lo;
			s->rel_hi = hi;
			rep_oe_set_place(&s->oe, (const unsigned char *)lo,
					 (const unsigned char *)hi);
		}
		break;
	}
	fclose(f);
}

static void
release_behind(struct rep_session *s, const struct pd_record *rec)
{
	uintptr_t a = (uintptr_t)rec->data, held;

	if (rec->origin != PD_ORIGIN_FILE || rec->source != 0)
		return;
	if (!s->rel_checked)
		release_find(s, rec->data);
	if (a < s->rel_lo || a >= s->rel_hi || a - s->rel_done < RELEASE_STEP)
		return;
	held = (uintptr_t)rep_oe_oldest(&s->oe);
	if (held && held < a) {
		a = held;
		if (a - s->rel_done < RELEASE_STEP)
			return;
	}
	a &= ~((uintptr_t)sysconf(_SC_PAGESIZE) - 1);
	madvise((void *)s->rel_done, a - s->rel_done, MADV_DONTNEED);
	s->rel_done = a;
}

/*
 * Two threads for a file in time order: this one reads, copies and
 * sorts the records (handle_piped), a worker resolves and hands them
 * on (deliver), in batches: what one FINISHED_ROUND flushes, with the
 * records delivered unordered before it.  The records of a batch stay
 * in the queue's chunks until the reader releases them, once the worker
 * is done with the batch.  Everything deliver touches is the worker's
 * alone while it runs.  An error of the worker stops the reading; its
 * error is the one returned, as it comes earlier in the file.
 */
#define PIPE_DEPTH	4

struct pipe_batch {
	struct rep_oe_rec **v;
	size_t nr, cap;
};

struct rep_pipe {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct pipe_batch ring[PIPE_DEPTH];
	/* counters: batches sent, finished by the worker, released */
	uint64_t sent, finished, released;
	bool closing;
	int err;			/* the worker's */
};

static int
deliver_rec(struct rep_session *s, struct rep_oe_rec *r)
{
	const struct pd_record *rec = rep_oe_record(r);
	const struct rep_pre *p = rep_oe_pre(r);

	if (p->ok)
		return process_sample(s, rec, p);
	return deliver(s, rec);
}

static void *
pipe_main(void *arg)
{
	struct rep_session *s = arg;
	struct rep_pipe *p = s->pipe;
	struct pipe_batch *b;
	size_t i;
	int err;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (p->finished == p->sent && !p->closing)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->finished == p->sent)
			break;
		b = &p->ring[p->finished % PIPE_DEPTH];
		err = p->err;
		pthread_mutex_unlock(&p->lock);
		for (i = 0; !err && i < b->nr; i++)
			err = deliver_rec(s, b->v[i]);
		pthread_mutex_lock(&p->lock);
		if (err && !p->err)
			p->err = err;
		p->finished++;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Give the records of the batches the worker finished back to the queue. */
static void
pipe_release(struct rep_session *s)
{
	struct rep_pipe *p = s->pipe;
	struct pipe_batch *b;
	size_t i;

	while (p->released < p->finished) {
		b = &p->ring[p->released % PIPE_DEPTH];
		for (i = 0; i < b->nr; i++)
			rep_oe_release(&s->oe, b->v[i]);
		b->nr = 0;
		p->released++;
	}
}

/* The batch being filled, with room for more records; NULL on an error. */
static struct pipe_batch *
pipe_fill(struct rep_session *s, size_t more, int *err)
{
	struct rep_pipe *p = s->pipe;
	struct pipe_batch *b;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		pipe_release(s);
		if (p->err || p->sent - p->released < PIPE_DEPTH)
			break;
		pthread_cond_wait(&p->cond, &p->lock);
	}
	*err = p->err;
	pthread_mutex_unlock(&p->lock);
	if (*err)
		return NULL;
	b = &p->ring[p->sent % PIPE_DEPTH];
	if (b->nr + more > b->cap) {
		b->cap = (b->nr + more) * 2;
		b->v = xreallocarray(b->v, b->cap, sizeof(*b->v));
	}
	return b;
}

static void
pipe_send(struct rep_session *s)
{
	struct rep_pipe *p = s->pipe;

	pthread_mutex_lock(&p->lock);
	if (p->ring[p->sent % PIPE_DEPTH].nr)
		p->sent++;
	/*
	 * Decoding samples here for the worker pays when the worker lags:
	 * when a batch waits behind the one it is on.
	 */
	s->pre_on = p->sent - p->finished > 1;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

/* The queued records up to limit, to the worker. */
static int
pipe_flush(struct rep_session *s, uint64_t limit)
{
	struct pipe_batch *b;
	int err;

	b = pipe_fill(s, rep_oe_queued(&s->oe), &err);
	if (!b)
		return err;
	b->nr += rep_oe_take(&s->oe, limit, b->v + b->nr);
	pipe_send(s);
	return 0;
}

/*
 * A sample's copy, decoded here for its key when the worker may take it
 * as a repeat; its time, or -1 when it has none.
 */
static uint64_t
sample_copy(struct rep_session *s, const struct pd_record *rec,
	    struct rep_oe_rec **out)
{
	const struct pd_attr *attr = rec_attr(s, rec);
	struct pd_sample *ps = &s->rsample;
	struct rep_oe_rec *r;
	bool decoded = false;

	if (!s->pre_on || !attr || !(attr->sample_type & PD_SAMPLE_TIME)) {
		*out = NULL;
		return record_time(s, rec);
	}
	r = *out = rep_oe_copy(&s->oe, rec);
	/* a sample that does not decode is the worker's to report */
	if (!pre_decode(s, attr, rep_oe_record(r), ps, rep_oe_pre(r),
			&decoded))
		return record_time(s, rec);
	return rep_oe_pre(r)->time;
}

static int
handle_piped(struct rep_session *s, const struct pd_record *rec)
{
	struct rep_oe_rec *r = NULL;
	struct pipe_batch *b;
	uint64_t ts;
	int err;

	if (rec->origin == PD_ORIGIN_FILE &&
	    (rec->header.type == PD_RECORD_COMPRESSED ||
	     rec->header.type == PD_RECORD_COMPRESSED2))
		return 0;
	if (rec->header.type >= PD_RECORD_USER_TYPE_START) {
		if (rec->header.type == PD_RECORD_FINISHED_ROUND)
			return pipe_flush(s, rep_oe_round_limit(&s->oe));
		feature_read(s, rec);
		return 0;
	}
	if (rec->header.type == PD_RECORD_SAMPLE)
		ts = sample_copy(s, rec, &r);
	else
		ts = record_time(s, rec);
	if (!r)
		r = rep_oe_copy(&s->oe, rec);
	if (ts && ts != (uint64_t)-1) {
		rep_oe_queue_rec(&s->oe, r, ts);
		return 0;
	}
	b = pipe_fill(s, 1, &err);
	if (!b) {
		rep_oe_release(&s->oe, r);
		return err;
	}
	b->v[b->nr++] = r;
	return 0;
}

static bool
pipe_start(struct rep_session *s)
{
	struct rep_pipe *p;

	if (!s->ordered || s->whole_sort ||
	    pd_reader_info(s->r)->mode != PD_MODE_FILE ||
	    sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return false;
	p = xcalloc(1, sizeof(*p));
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	s->pipe = p;
	if (pthread_create(&p->thread, NULL, pipe_main, s)) {
		pthread_cond_destroy(&p->cond);
		pthread_mutex_destroy(&p->lock);
		free(p);
		s->pipe = NULL;
		return false;
	}
	return true;
}

/* Wait for the worker to finish what it was sent; its error, or 0. */
static int
pipe_stop(struct rep_session *s)
{
	struct rep_pipe *p = s->pipe;
	size_t i;
	int err;

	pthread_mutex_lock(&p->lock);
	p->closing = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	/* a batch being filled was never sent */
	p->finished = p->sent + (p->ring[p->sent % PIPE_DEPTH].nr ? 1 : 0);
	pipe_release(s);
	err = p->err;
	for (i = 0; i < PIPE_DEPTH; i++)
		free(p->ring[i].v);
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
	free(p);
	s->pipe = NULL;
	return err;
}

static int
run_piped(struct rep_session *s)
{
	struct pd_record rec;
	int ret, err = 0, perr;

	while ((ret = pd_reader_next(s->r, &rec)) > 0) {
		err = handle_piped(s, &rec);
		if (err)
			break;
		release_behind(s, &rec);
	}
	if (!err && ret >= 0)
		err = pipe_flush(s, UINT64_MAX);
	perr = pipe_stop(s);
	if (perr)
		return perr;
	return err ? err : ret < 0 ? ret : 0;
}

int
rep_session_run(struct rep_session *s, const struct rep_session_ops *ops,
		void *ctx)
{
	struct pd_record rec;
	int ret, err;

	s->ops = ops;
	s->ctx = ctx;
	s->ordered = ordering_possible(s);
	/*
	 * The files of a directory come one after the other, and each has
	 * its own rounds: sort the whole of it instead.
	 */
	s->whole_sort = pd_reader_info(s->r)->mode == PD_MODE_DIR;
	if (pipe_start(s))
		return run_piped(s);
	while ((ret = pd_reader_next(s->r, &rec)) > 0) {
		err = handle(s, &rec);
		if (err)
			return err;
		release_behind(s, &rec);
	}
	/*
	 * perf stops at a bad record without the final flush: what the
	 * rounds flushed before it counts, what is still queued does not.
	 */
	if (ret < 0)
		return ret;
	return rep_oe_flush(&s->oe, UINT64_MAX, deliver, s);
}
