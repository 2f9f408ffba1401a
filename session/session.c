/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/session.c - read the records, put them in time order and apply
 * them: threads (COMM, FORK, EXIT), maps (MMAP, MMAP2, KSYMBOL); hand
 * each out through ses_next(), samples resolved or, when their stack key
 * is in the stack table, as repeats.
 */
#include "config.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "lib/xalloc.h"
#include "pdata/events.h"
#include "pdata/sample.h"
#include "session/ahead.h"
#include "session/hint.h"
#include "session/session-int.h"
#include "session/unwind.h"

#define IDLE_COMM "swapper"

static void
session_set_err(struct ses_session *s, uint64_t offset, const char *what,
		const char *why)
{
	snprintf(s->errmsg, sizeof(s->errmsg), "offset %#llx: %s: %s",
		 (unsigned long long)offset, what, why);
}

static void
load_build_ids(struct ses_session *s)
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
				   ses_hash(b->filename, strlen(b->filename)));
		if (!*slot) {
			*slot = n + 1;
			/*
			 * perf makes a DSO for each name of the table as it
			 * reads it, before any MMAP: the order of making,
			 * which orders call graph siblings (sym_dso_seq)
			 */
			s->bids[n].dso = sym_dso_get(s->syms, b->filename,
						     b->id, s->bids[n].size);
		}
		n++;
	}
	s->nr_bids = n;
}

const struct ses_bid *
ses_header_bid(struct ses_session *s, const char *name)
{
	const struct pd_meta *meta = pd_reader_meta(s->r);
	uint64_t *v;
	size_t i;

	/* in a pipe, HEADER_BUILD_ID records add to the table as they come */
	if (meta && meta->nr_build_ids != s->bids_seen)
		load_build_ids(s);
	if (!s->nr_bids)
		return NULL;
	v = u64map_find(&s->bid_index, ses_hash(name, strlen(name)));
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
 * time); below 2^32, as stack_slot() keeps offsets in 32 bits.
 */
#define STACK_MAX_WORDS	((size_t)32 << 20)
/*
 * A raw key's head: the event and cpumode, the resolution context
 * (stack_ctx()), the ip, the CPU, the unwinding key (KEY_UNWIND).
 */
#define STACK_KEY_HEAD	5
#define KEY_UNWIND	4
/* a raw key: the head, then the chain's hash (two words) */
#define STACK_KEY_RAW	(STACK_KEY_HEAD + 2)

/* Whether samples may be taken as repeats (a READ sample never is). */
static bool
stack_ids_on(const struct ses_session *s)
{
	return s->opts.stack_ids && !s->opts.branches &&
	       !s->opts.branch_frames;
}

/* The record's part of a sample's key, from its key fields. */
static void
pre_fill(const struct ses_session *s, const struct pd_sample_key *k,
	 struct ses_pre *p)
{
	XXH128_hash_t cc_hash;
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
	p->cpu_nr = s->opts.stack_key_cpu ? (uint64_t)k->cpu << 32 | nr : nr;
	p->unwind_key = 0;
	p->by_frames = false;
	seed = u64_mix(p->ip ^ u64_mix(p->cpu_nr ^ p->cpumode));
	cc_hash = XXH3_128bits_withSeed(nr ? p->cc : NULL,
					nr * sizeof(uint64_t), seed);
	p->hash = cc_hash.low64;
	p->hash_hi = cc_hash.high64;
	p->ok = true;
}

/*
 * Whether a sample's stack id is keyed on its unwound frames: each
 * unwound sample's stack bytes differ (locals, saved registers) where
 * its frames repeat.  Not where the chain takes more than the recorded
 * chain and the unwound frames (branch frames, LBR call stacks), nor
 * where resolution waits for the tool.
 */
static bool
keyed_by_frames(const struct ses_session *s, const struct pd_attr *attr,
		const struct pd_sample *ps)
{
	return !s->opts.resolve_on_demand && !s->opts.no_callchain &&
	       ses_unwind_possible(ps) && !ses_lbr_callstack(attr, ps) &&
	       !ses_branch_frames_apply(s, ps);
}

/*
 * The key fields of rec into p, from the record in place when its
 * sample_type allows, else from the whole sample decoded into ps
 * (*decoded then says so).  False when the sample does not decode (the
 * caller decodes it again to say why) or may not be taken as a repeat.
 */
static bool
pre_decode(const struct ses_session *s, const struct pd_attr *attr,
	   const struct pd_record *rec, struct pd_sample *ps,
	   struct ses_pre *p, bool *decoded)
{
	struct pd_sample_key k;
	int err;

	if (!stack_ids_on(s))
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
	if (*decoded && !s->opts.no_callchain) {
		/* keyed on its frames: no hash of the copy, which never repeats */
		p->by_frames = keyed_by_frames(s, attr, ps);
		if (!p->by_frames)
			p->unwind_key = ses_unwind_key(ps);
		if (ses_lbr_callstack(attr, ps)) {
			if (s->opts.stitch_lbr)
				return false;
			p->unwind_key ^= ses_lbr_key(ps);
		}
	}
	return true;
}

/* Whether t's context id stands for what it has now. */
static bool
stack_ctx_current(const struct ses_session *s, const struct ses_thread_int *t)
{
	return t->ctx_id && t->ctx_comm == t->pub.comm &&
	       t->ctx_maps == t->maps && t->ctx_gen == s->map_gen;
}

/*
 * What resolving a sample of thread t depends on besides its record
 * (the thread, its comm, its map set and the maps' generation) as one
 * id, a new one when any of them changed since t's last: ids are never
 * given twice, and threads live as long as the session, so that equal
 * ids mean equal contexts.
 */
static uint64_t
stack_ctx(struct ses_session *s, struct ses_thread_int *t)
{
	if (!stack_ctx_current(s, t)) {
		t->ctx_comm = t->pub.comm;
		t->ctx_maps = t->maps;
		t->ctx_gen = s->map_gen;
		t->ctx_id = ++s->last_ctx;
	}
	return t->ctx_id;
}

/*
 * The key's words of what resolving a sample in context ctx depends on,
 * and of the record's fields its hash holds (the ip and CPU, words 2 and
 * 3, are hashed by the reader with the callchain: left to the caller).
 */
static void
stack_key_head(uint64_t ctx, const struct ses_pre *p, int evsel, uint64_t *w)
{
	w[0] = (uint32_t)evsel | (uint64_t)p->cpumode << 32;
	w[1] = ctx;
	w[KEY_UNWIND] = p->unwind_key;
}

/* The key's hash: the record's part, hashed by the reader, and ours. */
static uint64_t
stack_key_hash(uint64_t record_hash, const uint64_t *w)
{
	return u64_mix(record_hash ^ w[0] * 0x9e3779b97f4a7c15ULL ^
		       w[1] * 0xc2b2ae3d27d4eb4fULL ^ w[KEY_UNWIND]);
}

/*
 * The stack key of a sample (session/model.h) into s->stacks.scratch
 * (returns its length in words) and its hash into *h: the record's part
 * (pre_fill: event, cpumode, ip, CPU when keyed, the callchain's 128-bit
 * hash; the user registers and stack bytes DWARF unwinding reads, as a
 * hash), with what resolving it depends on here (thread, comm, map
 * generation, map set).  A new kind of resolution adds what it reads
 * here.
 */
static size_t
stack_key(struct ses_session *s, struct ses_thread_int *t,
	  const struct ses_pre *p, int evsel, uint64_t *h)
{
	struct ses_stacktab *rc = &s->stacks;
	uint64_t *w;

	if (STACK_KEY_RAW > rc->cap_scratch) {
		rc->cap_scratch = 2 * STACK_KEY_RAW;
		rc->scratch = xreallocarray(rc->scratch, rc->cap_scratch,
					    sizeof(*rc->scratch));
	}
	w = rc->scratch;
	stack_key_head(stack_ctx(s, t), p, evsel, w);
	w[2] = p->ip;
	w[3] = p->cpu_nr;
	w[STACK_KEY_HEAD] = p->hash;
	w[STACK_KEY_HEAD + 1] = p->hash_hi;
	*h = stack_key_hash(p->hash, w);
	return STACK_KEY_RAW;
}

/* Marks a key of unwound frames: raw keys hold 0 or an odd hash there. */
#define UNWOUND_KEY_MARK	0x756e776f756e6400ull

/*
 * The stack key of the sample, in the scratch words after its raw key of
 * nw words, with the frames of its user stack (unwound now, for its
 * resolution) in place of the hash of the stack's bytes: their count and
 * their 128-bit hash; its hash in *h (of all its words: the raw key's
 * hash holds the bytes' hash).  Returns its words.
 */
static size_t
unwound_key(struct ses_session *s, struct ses_thread_int *t, size_t nw,
	    uint64_t *h)
{
	struct ses_stacktab *rc = &s->stacks;
	size_t nr = ses_unwind_sample(s, t, &s->sample);
	XXH128_hash_t frames_hash;
	uint64_t *w;

	if (nw + 3 > rc->cap_scratch) {
		rc->cap_scratch = (nw + 3) * 2;
		rc->scratch = xreallocarray(rc->scratch, rc->cap_scratch,
					    sizeof(*rc->scratch));
	}
	w = rc->scratch;
	w[KEY_UNWIND] = UNWOUND_KEY_MARK;
	frames_hash = XXH3_128bits_withSeed(nr ? s->uw_ips : NULL,
					    nr * sizeof(*w), nr);
	w[nw] = nr;
	w[nw + 1] = frames_hash.low64;
	w[nw + 2] = frames_hash.high64;
	*h = XXH3_64bits(w, (nw + 3) * sizeof(*w));
	return nw + 3;
}

/*
 * An entry is its words in rc->words: the hash, the key's length, the
 * stack id, the tool's SES_STACK_USER_WORDS, then the key.  A slot holds
 * the hash's high half over 1 + the entry's offset, so that a probe
 * reads the slot and the entry, both in one place.
 */
#define STACK_ENT_USER	3
#define STACK_ENT_HEAD	(STACK_ENT_USER + SES_STACK_USER_WORDS)

static uint64_t
stack_slot(uint64_t hash, size_t off)
{
	return (hash & 0xffffffff00000000ull) | (uint32_t)(off + 1);
}

static void
stack_rehash(struct ses_stacktab *rc)
{
	size_t cap = rc->cap_slots ? rc->cap_slots * 2 : 4096, off, j;
	uint64_t *slots = xcalloc(cap, sizeof(*slots)), *e;

	for (off = 0; off < rc->nr_words; off += STACK_ENT_HEAD + e[1]) {
		e = rc->words + off;
		j = e[0] & (cap - 1);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = stack_slot(e[0], off);
	}
	free(rc->slots);
	rc->slots = slots;
	rc->cap_slots = cap;
}

/* Whether entry e holds the key being looked up, of nw words. */
static bool
stack_key_equal(const struct ses_stacktab *rc, const uint64_t *e, size_t nw)
{
	const uint64_t *a = e + STACK_ENT_HEAD, *b = rc->scratch;
	uint64_t diff = 0;
	size_t i;

	/* a raw key, the common one, in one go: no call, no early branches */
	if (nw != STACK_KEY_RAW)
		return !memcmp(a, b, nw * sizeof(*e));
	for (i = 0; i < STACK_KEY_RAW; i++)
		diff |= a[i] ^ b[i];
	return !diff;
}

/*
 * The entry of the key being looked up (nw words, hash h), or NULL with
 * *slot the free slot where it would go.
 */
static uint64_t *
stack_find(struct ses_stacktab *rc, uint64_t h, size_t nw, size_t *slot)
{
	uint64_t *e;
	size_t j;

	if ((rc->nr + 1) * 2 > rc->cap_slots)
		stack_rehash(rc);
	j = h & (rc->cap_slots - 1);
	while (rc->slots[j]) {
		if ((rc->slots[j] >> 32) == (h >> 32)) {
			e = rc->words + (uint32_t)rc->slots[j] - 1;
			if (e[0] == h && e[1] == nw &&
			    stack_key_equal(rc, e, nw))
				return e;
		}
		j = (j + 1) & (rc->cap_slots - 1);
	}
	*slot = j;
	return NULL;
}

/*
 * The new entry's stack id and *user its user words, or 0 (user NULL)
 * when the table is full.
 */
static uint64_t
stack_insert(struct ses_stacktab *rc, uint64_t h, size_t nw, size_t slot,
	     uint64_t **user)
{
	size_t need = STACK_ENT_HEAD + nw;
	uint64_t *e;

	*user = NULL;
	if (rc->nr_words + need > STACK_MAX_WORDS)
		return 0;
	if (rc->nr_words + need > rc->cap_words) {
		rc->cap_words = (rc->nr_words + need) * 2;
		rc->words = xreallocarray(rc->words, rc->cap_words,
					  sizeof(*rc->words));
	}
	e = rc->words + rc->nr_words;
	e[0] = h;
	e[1] = nw;
	rc->nr++;
	e[2] = ++rc->last_id;
	memset(e + STACK_ENT_USER, 0, SES_STACK_USER_WORDS * sizeof(*e));
	memcpy(e + STACK_ENT_HEAD, rc->scratch, nw * sizeof(uint64_t));
	rc->slots[slot] = stack_slot(h, rc->nr_words);
	rc->nr_words += need;
	*user = e + STACK_ENT_USER;
	return e[2];
}

/*
 * Where a file has many distinct stacks, a look-up misses the cache in
 * the slot and in the entry: the sample STACK_AHEAD records on has its
 * slot fetched, the one half as far the head of its entry, the one a
 * quarter as far the rest, while this record is handled.  Only a hint:
 * a thread not in the cache is passed over.
 */
#define STACK_AHEAD	SES_STACK_AHEAD

static bool
stack_hash_ahead(const struct ses_session *s, struct ses_oe_rec *r,
		 uint64_t *h)
{
	const struct ses_pre *p = ses_oe_pre(r);
	const struct ses_thread_int *t;
	uint64_t w[STACK_KEY_HEAD];

	if (!p->ok || p->by_frames)
		return false;
	t = s->tcache[(uint32_t)p->tid & (SES_TCACHE - 1)];
	if (!t || t->pub.tid != p->tid || t->pub.pid != p->pid ||
	    !stack_ctx_current(s, t))
		return false;
	stack_key_head(t->ctx_id, p, ses_oe_record(r)->evsel, w);
	*h = stack_key_hash(p->hash, w);
	return true;
}

/* The entry the hash h would find at its first probe, or NULL. */
static const uint64_t *
stack_entry_ahead(const struct ses_stacktab *rc, uint64_t h)
{
	uint64_t slot = rc->slots[h & (rc->cap_slots - 1)];

	if (!slot || slot >> 32 != h >> 32)
		return NULL;
	return rc->words + (uint32_t)slot - 1;
}

static void
stack_prefetch(struct ses_session *s)
{
	const struct ses_stacktab *rc = &s->stacks;
	size_t pos = s->cur_pos + STACK_AHEAD, line;
	uint64_t *ring = s->stack_ahead, h;
	const uint64_t *e;

	if (!rc->cap_slots)
		return;
	/* each record's hash once, kept until it is a quarter as far */
	h = 0;
	if (pos < s->cur.nr && stack_hash_ahead(s, s->cur.v[pos], &h))
		__builtin_prefetch(&rc->slots[h & (rc->cap_slots - 1)]);
	ring[pos % STACK_AHEAD] = h;
	h = ring[(s->cur_pos + STACK_AHEAD / 2) % STACK_AHEAD];
	e = h ? stack_entry_ahead(rc, h) : NULL;
	if (e)
		__builtin_prefetch(e);
	h = ring[(s->cur_pos + STACK_AHEAD / 4) % STACK_AHEAD];
	e = h ? stack_entry_ahead(rc, h) : NULL;
	if (!e)
		return;
	for (line = 8; line < STACK_ENT_HEAD + e[1]; line += 8)
		__builtin_prefetch(e + line);
}

void
ses_stack_user_each(struct ses_session *s,
		    void (*fn)(void *ctx, uint64_t *user), void *ctx)
{
	struct ses_stacktab *rc = &s->stacks;
	size_t off;

	for (off = 0; off < rc->nr_words;
	     off += STACK_ENT_HEAD + rc->words[off + 1])
		fn(ctx, rc->words + off + STACK_ENT_USER);
}

/* Give the entries' memory back; the ids go on from the last one. */
static void
stack_table_empty(struct ses_stacktab *rc)
{
	free(rc->slots);
	free(rc->words);
	rc->slots = NULL;
	rc->words = NULL;
	rc->cap_slots = rc->cap_words = 0;
	rc->nr = rc->nr_words = 0;
	rc->forget = false;
}

static void
stack_table_free(struct ses_stacktab *rc)
{
	stack_table_empty(rc);
	free(rc->scratch);
}

void
ses_stacks_forget(struct ses_session *s)
{
	/* once the session has ended no sample holds user words */
	if (s->end)
		stack_table_empty(&s->stacks);
	else
		s->stacks.forget = true;
}

/*
 * The address cache's largest size: no more entries than the file has
 * 64-byte pieces of data, at most 1 << SES_RCACHE_BITS (for a stream too).
 */
static unsigned int
rcache_bits(struct pd_reader *r)
{
	const struct pd_file_info *in = pd_reader_info(r);
	unsigned int bits = SES_RCACHE_BITS_MIN;

	if (in->mode == PD_MODE_PIPE || !in->data_size)
		return SES_RCACHE_BITS;
	while (bits < SES_RCACHE_BITS && ((uint64_t)64 << bits) < in->data_size)
		bits++;
	return bits;
}

struct ses_session *
ses_new(struct pd_reader *r, struct sym_ctx *syms, const struct ses_opts *opts)
{
	struct ses_session *s = xcalloc(1, sizeof(*s));
	struct ses_thread_int *idle;

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
	s->rcache_max_bits = rcache_bits(r);
	s->rcache_bits = SES_RCACHE_BITS_MIN;
	s->rcache = xcalloc((size_t)1 << s->rcache_bits, sizeof(*s->rcache));
	s->map_gen = 1;
	load_build_ids(s);

	/* perf registers the idle task before reading */
	idle = ses_thread_findnew(&s->threads, 0, 0, true);
	ses_thread_set_comm(&s->threads, idle, IDLE_COMM, strlen(IDLE_COMM));
	return s;
}

static void pipe_stop(struct ses_session *s);
static void batch_release(struct ses_session *s);

void
ses_free(struct ses_session *s)
{
	if (!s)
		return;
	if (s->pipe)
		pipe_stop(s);
	batch_release(s);
	free(s->cur.v);
	free(s->fill.v);
	ses_oe_free(&s->oe);
	ses_threads_free(&s->threads);
	ses_maps_free(&s->kmaps);
	ses_strtab_free(&s->strs);
	ses_arena_free(&s->arena);
	u64map_free(&s->bid_index);
	u64map_free(&s->read_last);
	u64map_free(&s->dso_ino);
	free(s->bids);
	free(s->chain);
	ses_unwind_free(s->unwind);
	free(s->uw_ips);
	free(s->uw_inl);
	free(s->branches);
	free(s->chain_br);
	free(s->rcache);
	stack_table_free(&s->stacks);
	free(s);
}

void
ses_unwind_check(const struct ses_session *s, struct ses_unwind_check *out)
{
	memset(out, 0, sizeof(*out));
	if (s->unwind)
		ses_unwind_checked(s->unwind, out);
}

const char *
ses_errmsg(const struct ses_session *s)
{
	if (s->errmsg[0])
		return s->errmsg;
	return pd_reader_errmsg(s->r);
}

static const struct pd_attr *
rec_attr(struct ses_session *s, const struct pd_record *rec)
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

bool
ses_read_split(struct ses_session *s, const struct ses_sample *in,
	       size_t *pos, struct ses_sample *out)
{
	const struct pd_sample *ps = in->raw;
	struct pd_read_value v;
	uint64_t *last;
	int idx;

	if (!ps || !(ps->type & PD_SAMPLE_READ)) {
		if (*pos)
			return false;
		*out = *in;
		(*pos)++;
		return true;
	}
	while (*pos < ps->read.nr) {
		if (pd_read_value_get(&ps->read, (*pos)++, &v)) {
			*pos = ps->read.nr;
			break;
		}
		idx = pd_reader_evsel_by_id(s->r, v.id);
		if (idx < 0)
			continue;
		last = u64map_slot(&s->read_last, v.id);
		*out = *in;
		out->period = v.value - *last;
		*last = v.value;
		if (!out->period)
			continue;
		out->evsel = (unsigned int)idx;
		return true;
	}
	return false;
}

static int
sample_decode(struct ses_session *s, const struct pd_attr *attr,
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

static struct ses_thread_int *
sample_thread(struct ses_session *s, int32_t pid, int32_t tid)
{
	struct ses_thread_int **c;

	c = &s->tcache[(uint32_t)tid & (SES_TCACHE - 1)];
	if (!*c || (*c)->pub.tid != tid || (*c)->pub.pid != pid) {
		ses_model_change_begin(s);
		*c = ses_thread_findnew(&s->threads, pid, tid, true);
		ses_model_change_end(s);
	}
	return *c;
}

/* A repeat of an interned stack: what is not in its key. */
static void
sample_repeat(struct ses_session *s, const struct pd_record *rec,
	      const struct ses_pre *p, struct ses_thread_int *t, bool decoded)
{
	struct ses_sample *a = &s->out;

	a->evsel = (unsigned int)rec->evsel;
	a->raw = decoded ? &s->sample : NULL;
	a->pid = p->pid;
	a->tid = p->tid;
	a->cpu = p->cpu;
	a->time = p->time;
	a->period = p->period;
	a->thread = &t->pub;
	a->comm = t->pub.comm;
	a->filtered = p->cpumode == PD_MISC_GUEST_KERNEL ||
		      p->cpumode == PD_MISC_GUEST_USER;
}

/* The fields of the decoded s->sample of thread t into s->out. */
static void
sample_fields(struct ses_session *s, struct ses_thread_int *t)
{
	const struct pd_sample *ps = &s->sample;
	struct ses_sample *out = &s->out;

	out->raw = ps;
	out->pid = (int32_t)ps->pid;
	out->tid = (int32_t)ps->tid;
	out->cpu = ps->cpu;
	out->time = ps->time;
	out->period = ps->period;
	out->thread = &t->pub;
	out->comm = t->pub.comm;
	out->filtered = ps->cpumode == PD_MISC_GUEST_KERNEL ||
			ps->cpumode == PD_MISC_GUEST_USER;
}

/* Resolve the decoded s->sample of thread t into s->out. */
static void
sample_resolve(struct ses_session *s, struct ses_thread_int *t)
{
	const struct pd_sample *ps = &s->sample;
	struct ses_sample *out = &s->out;

	sample_fields(s, t);
	ses_resolve_loc(s, t, ps->cpumode, ps->ip, &out->self);
	out->chain = NULL;
	out->chain_branch = NULL;
	out->nr_chain = 0;
	out->unwind.end = SES_UW_NONE;
	if (!s->opts.no_callchain && (pd_sample_has(ps, PD_SAMPLE_CALLCHAIN) ||
				      ses_unwind_possible(ps) ||
				      ses_branch_frames_apply(s, ps))) {
		ptrdiff_t n = -1;

		if (ses_lbr_callstack(rec_attr(s, s->out_rec), ps)) {
			n = ses_resolve_lbr(s, t, ps);
			if (n > 0 && s->opts.branch_frames) {
				ses_chain_reserve(s, (size_t)n);
				memset(s->chain_br, 0,
				       (size_t)n * sizeof(*s->chain_br));
			}
		}
		out->nr_chain = n >= 0 ? (size_t)n : ses_resolve_chain(s, t, ps);
		out->chain = out->nr_chain ? s->chain : NULL;
		if (out->nr_chain && s->opts.branch_frames)
			out->chain_branch = s->chain_br;
	}
	out->branches = NULL;
	out->nr_branches = 0;
	if (s->opts.branches && pd_sample_has(ps, PD_SAMPLE_BRANCH_STACK)) {
		out->nr_branches = ses_resolve_branches(s, t, ps);
		out->branches = out->nr_branches ? s->branches : NULL;
	}
	out->resolved = true;
}

/*
 * A SAMPLE into s->out: 1, 0 when it is not handed out (no evsel), or
 * an error.  pre: the record's key fields when the reading thread
 * decoded them, or NULL.
 */
static int
process_sample(struct ses_session *s, const struct pd_record *rec,
	       const struct ses_pre *pre)
{
	const struct pd_attr *attr = rec_attr(s, rec);
	struct pd_sample *ps = &s->sample;
	struct ses_thread_int *t;
	struct ses_pre local;
	uint64_t *k, h = 0;
	size_t nw = 0, slot = 0;
	bool decoded = false;
	int err;

	if (!attr)
		return 0;	/* perf counts an unknown id and goes on */
	s->out.evsel = (unsigned int)rec->evsel;
	s->out.stack_id = 0;
	s->out.stack_user = NULL;
	if (s->stacks.forget)
		stack_table_empty(&s->stacks);
	s->out.resolved = false;
	s->out_rec = rec;
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
	s->out_thread = t;
	s->uw_ready = false;
	if (pre) {
		nw = stack_key(s, t, pre, rec->evsel, &h);
		k = pre->by_frames ? NULL : stack_find(&s->stacks, h, nw, &slot);
		if (k) {
			s->out_decoded = decoded;
			s->out.stack_id = k[2];
			s->out.stack_user = k + STACK_ENT_USER;
			sample_repeat(s, rec, pre, t, decoded);
			return 1;
		}
	}
	if (!decoded) {
		err = sample_decode(s, attr, rec);
		if (err)
			return err;
	}
	s->out_decoded = true;
	if (pre && pre->by_frames) {
		nw = unwound_key(s, t, nw, &h);
		k = stack_find(&s->stacks, h, nw, &slot);
		if (k) {
			s->out.stack_id = k[2];
			s->out.stack_user = k + STACK_ENT_USER;
			sample_repeat(s, rec, pre, t, true);
			return 1;
		}
	}
	if (pre)
		s->out.stack_id = stack_insert(&s->stacks, h, nw, slot,
					       &s->out.stack_user);
	if (pre && s->opts.resolve_on_demand) {
		sample_fields(s, t);
		return 1;
	}
	sample_resolve(s, t);
	return 1;
}

int
ses_decode_sample(struct ses_session *s, struct ses_event *ev)
{
	const struct pd_attr *attr;
	int err;

	if (ev->kind != SES_SAMPLE || s->out_decoded || !s->out_rec)
		return 0;
	attr = rec_attr(s, s->out_rec);
	if (!attr)
		return 0;
	err = sample_decode(s, attr, s->out_rec);
	if (err)
		return err;
	s->out_decoded = true;
	s->out.raw = &s->sample;
	return 0;
}

int
ses_resolve_sample(struct ses_session *s, struct ses_event *ev)
{
	int err;

	if (ev->kind != SES_SAMPLE || s->out.resolved || !s->out_rec)
		return 0;
	err = ses_decode_sample(s, ev);
	if (err)
		return err;
	sample_resolve(s, s->out_thread);
	return 0;
}

static void
process_comm(struct ses_session *s, const struct pd_ev_comm *c)
{
	struct ses_thread_int *t;

	t = ses_thread_findnew(&s->threads, (int32_t)c->pid, (int32_t)c->tid,
			       true);
	ses_thread_set_comm(&s->threads, t, c->comm.s, c->comm.len);
}

static void
process_fork(struct ses_session *s, const struct pd_ev_fork *f)
{
	struct ses_threads *ts = &s->threads;
	struct ses_thread_int *child, *parent;
	int32_t pid = (int32_t)f->pid, tid = (int32_t)f->tid;
	int32_t ppid = (int32_t)f->ppid, ptid = (int32_t)f->ptid;

	/* threads may be replaced below */
	memset(s->tcache, 0, sizeof(s->tcache));
	child = ses_thread_findnew(ts, pid, tid, false);
	parent = ses_thread_findnew(ts, ppid, ptid, true);
	/* a stale thread under the parent's tid: start it afresh */
	if (parent->pub.pid != ppid) {
		ses_thread_remove(ts, parent);
		parent = ses_thread_findnew(ts, ppid, ptid, true);
	}
	if (child)
		ses_thread_remove(ts, child);
	child = ses_thread_findnew(ts, pid, tid, true);
	child->pub.ppid = parent->pub.tid;
	if (parent->comm_set) {
		child->pub.comm = parent->pub.comm;
		child->comm_set = true;
	}
	if (child->pub.pid == parent->pub.pid || child->maps == parent->maps)
		return;
	/* a new process starts with a copy of its parent's maps */
	if (!(f->header.misc & PD_MISC_FORK_EXEC)) {
		ses_maps_copy(child->maps, parent->maps);
		s->map_gen++;
	}
}

static void
process_exit(struct ses_session *s, const struct pd_ev_fork *f)
{
	struct ses_thread_int *t;

	t = ses_thread_findnew(&s->threads, (int32_t)f->pid, (int32_t)f->tid,
			       false);
	if (t)
		t->pub.dead = true;
}

/*
 * Whether a record of this type must decode: the model changes with it,
 * or it counts losses.
 */
static bool
type_required(uint32_t type)
{
	switch (type) {
	case PD_RECORD_LOST:
	case PD_RECORD_LOST_SAMPLES:
	case PD_RECORD_MMAP:
	case PD_RECORD_MMAP2:
	case PD_RECORD_COMM:
	case PD_RECORD_FORK:
	case PD_RECORD_EXIT:
	case PD_RECORD_KSYMBOL:
	case PD_RECORD_NAMESPACES:
	case PD_RECORD_CGROUP:
		return true;
	default:
		return false;
	}
}

/* The link_info index of the cgroup namespace (net, uts, ipc, pid, user, mnt, cgroup). */
#define CGROUP_NS_INDEX 6

static void
process_namespaces(struct ses_session *s, const struct pd_ev_namespaces *n)
{
	struct ses_thread_int *t;

	t = ses_thread_findnew(&s->threads, (int32_t)n->pid, (int32_t)n->tid,
			       true);
	/* pd_u64_array_get() gives 0 past the record's namespaces */
	t->pub.cgroup_ns_dev = pd_u64_array_get(&n->link_info,
						2 * CGROUP_NS_INDEX);
	t->pub.cgroup_ns_ino = pd_u64_array_get(&n->link_info,
						2 * CGROUP_NS_INDEX + 1);
}

static int
apply_record(struct ses_session *s, const struct pd_record *rec,
	     const union pd_event *ev)
{
	uint8_t cpumode = rec->header.misc & PD_MISC_CPUMODE_MASK;

	if ((rec->header.type == PD_RECORD_MMAP ||
	     rec->header.type == PD_RECORD_MMAP2) &&
	    s->opts.tasks && !s->opts.tasks_mmaps)
		return 0;
	switch (rec->header.type) {
	case PD_RECORD_MMAP:
		return ses_process_mmap(s, ev, false, cpumode);
	case PD_RECORD_MMAP2:
		return ses_process_mmap(s, ev, true, cpumode);
	case PD_RECORD_COMM:
		process_comm(s, &ev->comm);
		break;
	case PD_RECORD_FORK:
		process_fork(s, &ev->fork);
		break;
	case PD_RECORD_EXIT:
		process_exit(s, &ev->fork);
		break;
	case PD_RECORD_KSYMBOL:
		return ses_process_ksymbol(s, ev);
	case PD_RECORD_NAMESPACES:
		process_namespaces(s, &ev->namespaces);
		break;
	default:
		break;
	}
	return 0;
}

/*
 * A record other than a SAMPLE, applied to the model and made an event.
 * A record the model or the loss counts need must decode; any other
 * that does not is handed out undecoded (event NULL).
 */
static int
process_record(struct ses_session *s, const struct pd_record *rec,
	       struct ses_event *out)
{
	const struct pd_attr *attr = rec_attr(s, rec);
	const struct pd_sample_id *id;
	char why[256];
	int err;

	err = pd_event_decode(attr, rec, &s->ev);
	if (err && type_required(rec->header.type)) {
		pd_event_explain(attr, rec, why, sizeof(why));
		session_set_err(s, rec->offset,
				pd_record_type_name(rec->header.type), why);
		return err;
	}
	if (!err) {
		err = apply_record(s, rec, &s->ev);
		if (err)
			return err;
	}
	out->kind = rec->header.type >= PD_RECORD_USER_TYPE_START ?
		    SES_USER : SES_RECORD;
	out->event = err ? NULL : &s->ev;
	out->thread = NULL;
	if (!err && out->kind == SES_RECORD) {
		id = &s->ev.base.sample_id;
		if (id->tid != (uint32_t)-1)
			out->thread = ses_thread_find(s, (int32_t)id->pid,
						      (int32_t)id->tid);
	}
	return 1;
}

/* One record into *out: 1 when it makes an event, 0 if not, or an error. */
static int
deliver(struct ses_session *s, const struct pd_record *rec,
	const struct ses_pre *pre, struct ses_event *out)
{
	int ret;

	out->rec = rec;
	out->sample = NULL;
	out->event = NULL;
	out->thread = NULL;
	if (rec->header.type == PD_RECORD_SAMPLE) {
		if (s->opts.tasks)
			return 0;
		ret = process_sample(s, rec, pre);
		if (ret > 0) {
			out->kind = SES_SAMPLE;
			out->sample = &s->out;
			out->thread = s->out.thread;
		}
		return ret;
	}
	ses_model_change_begin(s);
	ret = process_record(s, rec, out);
	ses_model_change_end(s);
	return ret;
}

/*
 * The time perf queues a record under: the sample's time, or the
 * sample_id trailer's; (u64)-1 when there is none.
 */
static uint64_t
record_time(struct ses_session *s, const struct pd_record *rec)
{
	const struct pd_attr *attr = rec_attr(s, rec);
	uint64_t time;

	if (!attr || pd_sample_time(attr, rec, &time))
		return (uint64_t)-1;
	return time;
}

const struct pd_attr *
ses_rec_attr(struct ses_session *s, const struct pd_record *rec)
{
	return rec_attr(s, rec);
}

static bool
ordering_possible(struct ses_session *s)
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

static bool
is_file_compressed(const struct pd_record *rec)
{
	return rec->origin == PD_ORIGIN_FILE &&
	       (rec->header.type == PD_RECORD_COMPRESSED ||
		rec->header.type == PD_RECORD_COMPRESSED2);
}

/* Room for more records in b. */
static void
batch_reserve(struct ses_batch *b, size_t more)
{
	if (b->nr + more > b->cap) {
		b->cap = (b->nr + more) * 2;
		b->v = xreallocarray(b->v, b->cap, sizeof(*b->v));
	}
}

/*
 * Let the reader drop the file's pages behind what is still held; once
 * a mebibyte of records is often enough for its steps (of as much).
 */
#define RELEASE_BYTES	((uint64_t)1 << 20)

static void
release_behind(struct ses_session *s, const struct pd_record *rec)
{
	const unsigned char *held;

	if (rec->origin != PD_ORIGIN_FILE || rec->source != 0)
		return;
	s->release_bytes += rec->size;
	if (s->release_bytes < RELEASE_BYTES)
		return;
	s->release_bytes = 0;
	held = ses_oe_oldest(&s->oe);
	pd_reader_drop_before(s->r, held && held < rec->data ? held : rec->data);
}

/*
 * A sample's copy, decoded here for its key when the caller may take it
 * as a repeat; its time, or -1 when it has none.
 */
static uint64_t
sample_copy(struct ses_session *s, const struct pd_record *rec,
	    struct ses_oe_rec **out)
{
	const struct pd_attr *attr;
	struct pd_sample *ps = &s->rsample;
	struct ses_oe_rec *r;
	bool decoded = false;

	*out = NULL;
	if (!s->pre_on) {
		ses_hint_undecoded(s, rec);
		return record_time(s, rec);
	}
	attr = rec_attr(s, rec);
	if (!attr || !(attr->sample_type & PD_SAMPLE_TIME))
		return record_time(s, rec);
	r = *out = ses_oe_copy(&s->oe, rec);
	/* a sample that does not decode is the caller's to report */
	if (!pre_decode(s, attr, ses_oe_record(r), ps, ses_oe_pre(r),
			&decoded))
		return record_time(s, rec);
	if (decoded)
		ses_hint_decoded(s, ps);
	else
		ses_hint_sample(s, ses_oe_pre(r)->pid, ses_oe_pre(r)->ip,
				ses_oe_pre(r)->cpumode);
	return ses_oe_pre(r)->time;
}

/*
 * One record read into the queue or the batch b: queued by its time;
 * else (no time, a user record) after what b holds; a FINISHED_ROUND
 * first moves what the round flushes into b.  Returns 1 when b should
 * go to the caller (a round ended), 0, or an error.
 */
static int
enqueue(struct ses_session *s, const struct pd_record *rec,
	struct ses_batch *b)
{
	struct ses_oe_rec *r = NULL;
	uint64_t ts = (uint64_t)-1;
	bool round;

	round = rec->header.type == PD_RECORD_FINISHED_ROUND;
	if (round && s->ordered && !s->whole_sort) {
		batch_reserve(b, ses_oe_queued(&s->oe) + 1);
		b->nr += ses_oe_take(&s->oe, ses_oe_round_limit(&s->oe),
				     b->v + b->nr);
	}
	if (rec->header.type == PD_RECORD_SAMPLE && s->ordered)
		ts = sample_copy(s, rec, &r);
	else if (s->ordered && rec->header.type < PD_RECORD_USER_TYPE_START)
		ts = record_time(s, rec);
	if (!r)
		r = ses_oe_copy(&s->oe, rec);
	if (ts && ts != (uint64_t)-1) {
		ses_oe_queue_rec(&s->oe, r, ts);
		return 0;
	}
	batch_reserve(b, 1);
	b->v[b->nr++] = r;
	return round;
}

/* The last batch: whatever is still queued. */
static void
enqueue_end(struct ses_session *s, struct ses_batch *b)
{
	size_t n = ses_oe_queued(&s->oe);

	/* with nothing queued b->v may still be NULL: no offset from it */
	if (!n)
		return;
	batch_reserve(b, n);
	b->nr += ses_oe_take(&s->oe, UINT64_MAX, b->v + b->nr);
}

/*
 * The reading thread, for a file in time order: it reads, copies and
 * sorts the records, and sends each round's records as a batch; the
 * caller's thread resolves and hands them out (ses_next).  The records
 * of a batch stay in the queue's chunks until this thread releases
 * them, once the caller has gone past the batch.  Everything the
 * session's model holds is the caller's alone.  A batch being filled
 * when reading fails is not sent: as in perf, what is still queued at a
 * bad record does not count.
 */
/* Give the records of the batches the caller finished back to the queue. */
static void
pipe_release(struct ses_session *s)
{
	struct ses_pipe *p = s->pipe;
	/* results to free only where the reader unwinds ahead */
	bool ahead = s->ahead != NULL;
	struct ses_batch *b;
	size_t i;

	while (p->released < p->finished) {
		b = &p->ring[p->released % PIPE_DEPTH];
		for (i = 0; i < b->nr; i++) {
			if (ahead)
				ses_ahead_release(ses_oe_pre(b->v[i]));
			ses_oe_release(&s->oe, b->v[i]);
		}
		b->nr = 0;
		p->released++;
	}
}

/* The batch being filled, once there is a free one; NULL: stop. */
static struct ses_batch *
pipe_fill(struct ses_session *s)
{
	struct ses_pipe *p = s->pipe;
	bool closing;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		pipe_release(s);
		if (p->closing || p->sent - p->released < PIPE_DEPTH)
			break;
		/* the caller lags: unwind ahead for it, else wait */
		if (!ses_ahead_work(s))
			pthread_cond_wait(&p->cond, &p->lock);
	}
	closing = p->closing;
	pthread_mutex_unlock(&p->lock);
	return closing ? NULL : &p->ring[p->sent % PIPE_DEPTH];
}

/*
 * Send the batch being filled; with !force, only when it is big enough
 * (in records, or in the bytes read while it filled) or the caller
 * waits for one: a round of a few records sent alone costs two thread
 * switches a round.  The bytes bound what the ring holds of the file:
 * 4096 samples with 8 KiB stack copies each are 34 MB.
 */
#define BATCH_MIN	4096
#define BATCH_BYTES	(4u << 20)

static bool
pipe_send(struct ses_session *s, bool force, uint64_t bytes)
{
	struct ses_pipe *p = s->pipe;
	struct ses_batch *b;

	pthread_mutex_lock(&p->lock);
	b = &p->ring[p->sent % PIPE_DEPTH];
	if (!force && b->nr < BATCH_MIN && bytes < BATCH_BYTES &&
	    p->finished != p->sent) {
		pthread_mutex_unlock(&p->lock);
		return false;
	}
	if (b->nr)
		p->sent++;
	/*
	 * Decoding samples here for the caller pays when the caller lags
	 * a whole batch: when one waits besides the batch it is on and the
	 * one just sent.  At one the caller is barely behind, and decoding
	 * here makes this thread the slower one (bench/README.md, "Two
	 * threads balanced").
	 */
	s->pre_on = p->sent - p->finished > 2;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	return true;
}

static void *
pipe_main(void *arg)
{
	struct ses_session *s = arg;
	struct ses_pipe *p = s->pipe;
	struct ses_batch *b = pipe_fill(s);
	struct pd_record rec;
	size_t rounds = 0;	/* b's records up to its last round's end */
	uint64_t bytes = 0;	/* read while b filled */
	int ret = 0;

	while (b && (ret = pd_reader_next(s->r, &rec)) > 0) {
		bytes += rec.size;
		ses_hint_record(s, &rec);
		if (!is_file_compressed(&rec) && enqueue(s, &rec, b) > 0) {
			rounds = b->nr;
			if (pipe_send(s, false, bytes)) {
				b = pipe_fill(s);
				rounds = 0;
				bytes = 0;
			}
		}
		release_behind(s, &rec);
	}
	if (b && ret == 0) {
		enqueue_end(s, b);
		pipe_send(s, true, 0);
	} else if (b && ret < 0) {
		/* the rounds read before the error count, not what followed */
		while (b->nr > rounds)
			ses_oe_release(&s->oe, b->v[--b->nr]);
		pipe_send(s, true, 0);
	}
	pthread_mutex_lock(&p->lock);
	p->done = true;
	p->err = b && ret < 0 ? ret : 0;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static bool
pipe_start(struct ses_session *s)
{
	struct ses_pipe *p;

	if (!s->opts.threads || !s->ordered || s->whole_sort ||
	    pd_reader_info(s->r)->mode != PD_MODE_FILE)
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

/*
 * The next batch from the reading thread into s->cur, after the one the
 * caller finished: 1, 0 at the end, or the reader's error.
 */
static int
pipe_next(struct ses_session *s)
{
	struct ses_pipe *p = s->pipe;
	int ret = 1;

	pthread_mutex_lock(&p->lock);
	if (s->cur_taken) {
		p->finished++;
		s->cur_taken = false;
		pthread_cond_broadcast(&p->cond);
	}
	while (p->finished == p->sent && !p->done)
		pthread_cond_wait(&p->cond, &p->lock);
	if (p->finished == p->sent)
		ret = p->err;
	else
		s->cur_taken = true;
	pthread_mutex_unlock(&p->lock);
	if (ret <= 0)
		return ret;
	/* the reader writes no other field of this batch until it is finished */
	s->cur = p->ring[p->finished % PIPE_DEPTH];
	s->cur_pos = 0;
	return 1;
}

static void
pipe_stop(struct ses_session *s)
{
	struct ses_pipe *p = s->pipe;
	size_t i;

	pthread_mutex_lock(&p->lock);
	p->closing = true;
	if (s->cur_taken) {
		p->finished++;
		s->cur_taken = false;
	}
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	ses_hints_free(s);
	/* batches sent and not taken, and one being filled */
	p->finished = p->sent + (p->ring[p->sent % PIPE_DEPTH].nr ? 1 : 0);
	pipe_release(s);
	ses_ahead_free(s);
	for (i = 0; i < PIPE_DEPTH; i++)
		free(p->ring[i].v);
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
	free(p);
	s->pipe = NULL;
	memset(&s->cur, 0, sizeof(s->cur));
	s->cur_pos = 0;
}

/* Give the records of the plain loop's batch back to the queue. */
static void
batch_release(struct ses_session *s)
{
	size_t i;

	if (s->pipe)
		return;
	for (i = 0; i < s->cur.nr; i++)
		ses_oe_release(&s->oe, s->cur.v[i]);
	s->cur.nr = 0;
	s->cur_pos = 0;
}

/*
 * The plain loop's next batch into s->cur, or a record to hand out in
 * place (s->direct): 1, 0 at the end, or the reader's error.
 */
static int
plain_next(struct ses_session *s)
{
	struct ses_batch sw;
	int ret;

	batch_release(s);
	/* s->fill and s->cur swap, so neither's array is reallocated often */
	sw = s->cur;
	s->cur = s->fill;
	s->fill = sw;
	for (;;) {
		ret = pd_reader_next(s->r, &s->direct);
		if (ret < 0)
			return ret;
		if (ret == 0) {
			enqueue_end(s, &s->cur);
			return s->cur.nr ? 1 : 0;
		}
		if (is_file_compressed(&s->direct))
			continue;
		release_behind(s, &s->direct);
		if (!s->ordered) {
			s->have_direct = true;
			return 1;
		}
		if (enqueue(s, &s->direct, &s->cur) > 0 || s->cur.nr)
			return 1;
	}
}

static int
next_batch(struct ses_session *s)
{
	if (s->pipe)
		return pipe_next(s);
	return plain_next(s);
}

unsigned int
ses_threads_default(void)
{
	const char *env = getenv("PDATA_THREADS");

	if (env && !strcmp(env, "0"))
		return 0;
	return sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 1 : 0;
}

/*
 * Loading DSOs ahead (symbol.h): those of the header's build-id table,
 * which perf writes for the DSOs its samples hit, and those unwinding
 * reaches (session/unwind.c), with DWARF where the unwound frames get
 * inline frames.  Not where resolving waits for the tool, which may
 * load nothing, nor without threads.
 */
static void
warm_start(struct ses_session *s)
{
	size_t i;

	if (!s->opts.threads || s->opts.maps_only ||
	    s->opts.resolve_on_demand || s->opts.tasks)
		return;
	sym_ctx_warm_start(s->syms, s->opts.inline_frames &&
				    !s->opts.no_callchain &&
				    ses_file_unwinds(s));
	for (i = 0; i < s->nr_bids; i++)
		if (s->bids[i].dso)
			sym_dso_warm(s->bids[i].dso);
}

static void
session_start(struct ses_session *s)
{
	const unsigned char *lo, *hi;

	s->started = true;
	/* records read from the mapped file are kept there, not copied */
	if (pd_reader_mapping(s->r, &lo, &hi))
		ses_oe_set_place(&s->oe, lo, hi);
	s->ordered = !s->opts.file_order && ordering_possible(s);
	/*
	 * The files of a directory come one after the other, and each has
	 * its own rounds: sort the whole of it instead.
	 */
	s->whole_sort = pd_reader_info(s->r)->mode == PD_MODE_DIR;
	warm_start(s);
	/* the reading thread's hints begin with it */
	ses_hints_start(s);
	if (pipe_start(s))
		ses_ahead_start(s);
	else
		ses_hints_free(s);
}

int
ses_next(struct ses_session *s, struct ses_event *ev)
{
	struct ses_oe_rec *r;
	int ret;

	if (!s->started)
		session_start(s);
	if (s->end)
		return s->end > 0 ? 0 : s->end;
	for (;;) {
		if (s->have_direct) {
			s->have_direct = false;
			s->cur_ahead = NULL;
			ret = deliver(s, &s->direct, NULL, ev);
		} else if (s->cur_pos < s->cur.nr) {
			stack_prefetch(s);
			r = s->cur.v[s->cur_pos++];
			s->cur_ahead = s->ahead ? &ses_oe_pre(r)->ahead : NULL;
			ret = deliver(s, ses_oe_record(r), ses_oe_pre(r)->ok ?
				      ses_oe_pre(r) : NULL, ev);
		} else {
			ret = next_batch(s);
			if (ret <= 0)
				break;
			continue;
		}
		if (ret)
			break;
	}
	if (ret <= 0)
		s->end = ret ? ret : 1;
	return ret;
}

const struct ses_thread *
ses_thread_find(struct ses_session *s, int32_t pid, int32_t tid)
{
	struct ses_thread_int *t;

	/* a pid learnt joins the thread to its process's maps */
	ses_model_change_begin(s);
	t = ses_thread_findnew(&s->threads, pid, tid, false);
	ses_model_change_end(s);
	return t ? &t->pub : NULL;
}

static const struct ses_thread_int *
thread_int(const struct ses_thread *t)
{
	return (const struct ses_thread_int *)t;
}

size_t
ses_thread_maps(struct ses_session *s, const struct ses_thread *t,
		const struct ses_map *const **maps)
{
	const struct ses_maps *m = t ? thread_int(t)->maps : &s->kmaps;

	/* a ses_map_int starts with its ses_map */
	*maps = (const struct ses_map *const *)m->v;
	return m->nr;
}

uint64_t
ses_map_inode(struct ses_session *s, const struct ses_map *m)
{
	const uint64_t *first;

	if (m->ino)
		return m->ino;
	first = u64map_find(&s->dso_ino, (uintptr_t)m->dso);
	return first ? *first : 0;
}

size_t
ses_threads_live(struct ses_session *s, const struct ses_thread ***out)
{
	struct ses_threads *ts = &s->threads;
	const struct ses_thread **v = xreallocarray(NULL, ts->nr ? ts->nr : 1,
						     sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < ts->nr; i++)
		if (ses_thread_findnew(ts, -1, ts->all[i]->pub.tid, false) ==
		    ts->all[i])
			v[n++] = &ts->all[i]->pub;
	*out = v;
	return n;
}

void
ses_resolve(struct ses_session *s, const struct ses_thread *t,
	    uint8_t cpumode, uint64_t addr, struct ses_loc *loc)
{
	struct ses_thread_int *ti = NULL;

	if (t)
		ti = (struct ses_thread_int *)thread_int(t);
	else
		ti = ses_thread_findnew(&s->threads, 0, 0, true);
	ses_resolve_loc(s, ti, cpumode, addr, loc);
}

void
ses_resolve_any(struct ses_session *s, const struct ses_thread *t,
		uint64_t addr, struct ses_loc *loc)
{
	struct ses_thread_int *ti = NULL;

	if (t)
		ti = (struct ses_thread_int *)thread_int(t);
	else
		ti = ses_thread_findnew(&s->threads, 0, 0, true);
	ses_resolve_any_loc(s, ti, addr, loc);
}

static void
run_sample(struct ses_session *s, const struct ses_ops *ops, void *ctx,
	   const struct ses_sample *in)
{
	struct ses_sample one;
	size_t pos = 0;

	if (!ops->sample)
		return;
	while (ses_read_split(s, in, &pos, &one))
		ops->sample(ctx, &one);
}

int
ses_run(struct ses_session *s, const struct ses_ops *ops, void *ctx)
{
	struct ses_event ev;
	unsigned int evsel;
	int ret;

	while ((ret = ses_next(s, &ev)) > 0) {
		evsel = ev.rec->evsel < 0 ? 0 : (unsigned int)ev.rec->evsel;
		if (ev.kind == SES_SAMPLE)
			run_sample(s, ops, ctx, ev.sample);
		else if (ev.rec->header.type == PD_RECORD_LOST && ev.event) {
			if (ops->lost)
				ops->lost(ctx, evsel, ev.event->lost.lost);
		} else if (ev.rec->header.type == PD_RECORD_LOST_SAMPLES &&
			   ev.event) {
			if (ops->lost_samples)
				ops->lost_samples(ctx, evsel,
						  ev.event->lost_samples.lost);
		} else if (ops->event) {
			ops->event(ctx, &ev);
		}
	}
	return ret;
}
