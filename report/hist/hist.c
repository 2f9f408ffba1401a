/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/hist/hist.c - histogram entries: one hash table per section keyed by
 * the sort keys, filled one sample at a time the way perf 6.1's
 * hist_iter_normal and hist_iter_cumulative do (util/hist.c), and
 * sorted once at the end (doc/perf-records.md §6.3-§6.5).
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "lib/diag.h"
#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "report/hist/hist-int.h"
#include "report/hist/mem.h"

/*
 * A stack's words: a head, then the ids of the sample's location and of
 * its chain's frames, two to a word.  A frame is its STACK_FRAME words,
 * followed by its branch part when the stacks have them, kept once in
 * the table of frames: a stack of 20 frames takes 16 words, not 146.
 */
#define STACK_HEAD	6
#define STACK_FRAME	7
#define STACK_BRANCH	3
#define ITER_CYCLES_MASK	(((uint64_t)1 << 40) - 1)
/*
 * Past this, the stacks go into the histograms before more are added:
 * with call graphs, where a stack's replay builds its trees, a large
 * bound; without, a replay is cheap and the bound keeps the memory flat.
 */
#define STACKS_MAX_WORDS	((size_t)16 << 20)
#define STACKS_MAX_WORDS_FLAT	((size_t)4 << 20)

/* perf's hist_time(): the time key's value; 0 without the key */
static uint64_t
stack_time(const struct rep_stacks *st, uint64_t time)
{
	return st->time_quantum ? time - time % st->time_quantum : 0;
}

/* Keys that compare a frame's entry with the sample's scratch entry. */
static bool
scratch_keys(const struct rep_report *rep)
{
	return rep->has_key[REP_DIM_SOCKET] || rep->has_key[REP_DIM_TIME] ||
	       rep->has_mem_keys;
}

static uint64_t *
stack_scratch(struct rep_stacks *st, size_t nw)
{
	if (nw > st->cap_scratch) {
		st->cap_scratch = nw * 2;
		st->scratch = xreallocarray(st->scratch, st->cap_scratch,
					    sizeof(*st->scratch));
	}
	return st->scratch;
}

/*
 * A frame's words.  With addr_free, a frame in a function (not a data
 * object, whose printed name has the offset) takes its function's
 * address: nothing the report prints reads where in the function it
 * was, and the samples of a function then share their frames and their
 * stacks.
 */
static uint64_t *
frame_put(uint64_t *w, const struct ses_loc *l, bool addr_free)
{
	uint64_t al_addr = l->al_addr;

	if (addr_free && l->map && l->sym && !l->sym->is_object)
		al_addr = l->sym->start;
	w[0] = (uintptr_t)l->map;
	w[1] = (uintptr_t)l->dso;
	w[2] = (uintptr_t)l->sym;
	/* ip and al_addr differ by the map's offset, which stays */
	w[3] = l->ip - l->al_addr + al_addr;
	w[4] = al_addr;
	w[5] = l->cpumode | (uint64_t)(unsigned char)l->level << 8;
	w[6] = (uintptr_t)l->srcline;
	return w + STACK_FRAME;
}

static void
frame_get(const uint64_t *w, struct ses_loc *l)
{
	memset(l, 0, sizeof(*l));
	l->map = (const struct ses_map *)(uintptr_t)w[0];
	l->dso = (struct sym_dso *)(uintptr_t)w[1];
	l->sym = (const struct sym_symbol *)(uintptr_t)w[2];
	l->ip = w[3];
	l->al_addr = w[4];
	l->cpumode = (uint8_t)w[5];
	l->level = (char)(w[5] >> 8);
	l->srcline = (const char *)(uintptr_t)w[6];
}

static size_t
frame_words(const struct rep_stacks *st)
{
	return STACK_FRAME + (st->branches ? STACK_BRANCH : 0);
}

static uint64_t *
branch_put(uint64_t *w, const struct ses_frame_branch *b)
{
	w[0] = b->branch | (uint64_t)b->predicted << 1 |
	       (uint64_t)b->abort << 2 | (uint64_t)b->type << 8 |
	       (uint64_t)b->new_type << 16 | (uint64_t)b->cycles << 32;
	w[1] = b->from;
	/* under 127 loops of 16-bit cycles: 2^23 at most */
	w[2] = (b->iter_cycles & ITER_CYCLES_MASK) |
	       (uint64_t)b->nr_loop_iter << 40;
	return w + STACK_BRANCH;
}

static void
branch_get(const uint64_t *w, struct ses_frame_branch *b)
{
	*b = (struct ses_frame_branch){
		.branch = w[0] & 1,
		.predicted = (w[0] >> 1) & 1,
		.abort = (w[0] >> 2) & 1,
		.type = (uint8_t)(w[0] >> 8),
		.new_type = (uint8_t)(w[0] >> 16),
		.cycles = (uint16_t)(w[0] >> 32),
		.from = w[1],
		.iter_cycles = w[2] & ITER_CYCLES_MASK,
		.nr_loop_iter = (uint32_t)(w[2] >> 40),
	};
}

/*
 * A frame's few words are pointers and small numbers: their products
 * with odd constants, independent of each other, mixed once.
 */
static uint64_t
frame_hash(const struct rep_stacks *st, const uint64_t *f)
{
	static const uint64_t odd[STACK_FRAME + STACK_BRANCH] = {
		0x9e3779b97f4a7c15ULL, 0xc2b2ae3d27d4eb4fULL,
		0x165667b19e3779f9ULL, 0x85ebca77c2b2ae63ULL,
		0x27d4eb2f165667c5ULL, 0xff51afd7ed558ccdULL,
		0xc4ceb9fe1a85ec53ULL, 0x94d049bb133111ebULL,
		0xbf58476d1ce4e5b9ULL, 0xd6e8feb86659fd93ULL,
	};
	size_t i, fw = frame_words(st);
	uint64_t h = 0;

	for (i = 0; i < fw; i++)
		h ^= f[i] * odd[i];
	return u64_mix(h);
}

static bool
frame_equal(const struct rep_stacks *st, const uint64_t *a, const uint64_t *b)
{
	size_t i, fw = frame_words(st);
	uint64_t diff = 0;

	for (i = 0; i < fw; i++)
		diff |= a[i] ^ b[i];
	return !diff;
}

static void
frames_rehash(struct rep_stacks *st)
{
	size_t cap = st->cap_frame_slots ? st->cap_frame_slots * 2 : 1024;
	size_t fw = frame_words(st), i, j;
	uint32_t *slots = xcalloc(cap, sizeof(*slots));

	for (i = 0; i < st->nr_frames; i++) {
		j = frame_hash(st, st->frames + i * fw) & (cap - 1);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = (uint32_t)(i + 1);
	}
	free(st->frame_slots);
	st->frame_slots = slots;
	st->cap_frame_slots = cap;
}

/* The id of the frame of words f in the table, added if new. */
static uint32_t
frame_intern(struct rep_stacks *st, const uint64_t *f)
{
	size_t fw = frame_words(st), j;
	uint32_t id;

	if ((st->nr_frames + 1) * 2 > st->cap_frame_slots)
		frames_rehash(st);
	j = frame_hash(st, f) & (st->cap_frame_slots - 1);
	while ((id = st->frame_slots[j]) != 0) {
		if (frame_equal(st, st->frames + (size_t)(id - 1) * fw, f))
			return id - 1;
		j = (j + 1) & (st->cap_frame_slots - 1);
	}
	if (st->nr_frames >= UINT32_MAX - 1)
		die(1, "more than %u distinct frames", UINT32_MAX - 2);
	if (st->nr_frames == st->cap_frames) {
		st->cap_frames = st->cap_frames ? st->cap_frames * 2 : 1024;
		st->frames = xreallocarray(st->frames, st->cap_frames * fw,
					   sizeof(*st->frames));
	}
	memcpy(st->frames + st->nr_frames * fw, f, fw * sizeof(*f));
	st->frame_slots[j] = (uint32_t)++st->nr_frames;
	return (uint32_t)(st->nr_frames - 1);
}

/* Frame k of the stack at w (0: the sample's own location). */
static uint32_t
stack_frame_id(const uint64_t *w, size_t k)
{
	return (uint32_t)(w[STACK_HEAD + k / 2] >> (k % 2 * 32));
}

static const uint64_t *
stack_frame(const struct rep_stacks *st, const uint64_t *w, size_t k)
{
	return st->frames + (size_t)stack_frame_id(w, k) * frame_words(st);
}

/*
 * nr frames of the chain of the stack at w from its frame first, with
 * their branch parts when it has them, and, unless ids is NULL, their
 * ids.
 */
static void
stack_frames_get(const struct rep_stacks *st, const uint64_t *w, size_t first,
		 size_t nr, struct ses_loc *locs, struct ses_frame_branch *brs,
		 uint32_t *ids)
{
	const uint64_t *f;
	size_t c;

	for (c = 0; c < nr; c++) {
		if (ids)
			ids[c] = stack_frame_id(w, 1 + first + c);
		f = stack_frame(st, w, 1 + first + c);
		frame_get(f, &locs[c]);
		if (st->branches)
			branch_get(f + STACK_FRAME, &brs[c]);
	}
}

/* Frame k of the stack being made: the id of loc and its branch part. */
static void
stack_frame_put(struct rep_stacks *st, uint64_t *w, size_t k,
		const struct ses_loc *loc, const struct ses_frame_branch *br)
{
	uint64_t f[STACK_FRAME + STACK_BRANCH];
	uint64_t id;

	if (st->branches)
		branch_put(frame_put(f, loc, st->addr_free), br);
	else
		frame_put(f, loc, st->addr_free);
	id = frame_intern(st, f);
	if (k % 2)
		w[STACK_HEAD + k / 2] |= id << 32;
	else
		w[STACK_HEAD + k / 2] = id;
}

/*
 * The words of a stack: its head, the sample's own frame, then its
 * chain's (-U leaves out the chain's frames without a symbol, as perf's
 * add_callchain_ip()).
 */
static size_t
stack_words(struct rep_stacks *st, const struct ses_sample *s, bool filtered,
	    bool hide_unresolved)
{
	static const struct ses_frame_branch none;
	uint64_t *w = stack_scratch(st, STACK_HEAD + (2 + s->nr_chain) / 2);
	size_t i, kept = 0;

	w[0] = s->evsel | (uint64_t)filtered << 32;
	/* one stack for every thread where no key tells them apart */
	w[1] = st->by_thread ? (uintptr_t)s->thread : 0;
	w[2] = st->by_thread ? (uintptr_t)s->comm : 0;
	w[3] = st->with_cpu ? s->cpu : 0;
	w[5] = stack_time(st, s->time);
	stack_frame_put(st, w, 0, &s->self, &none);
	for (i = 0; i < s->nr_chain; i++) {
		if (hide_unresolved && !s->chain[i].sym)
			continue;
		stack_frame_put(st, w, 1 + kept, &s->chain[i],
				s->chain_branch ? &s->chain_branch[i] : &none);
		kept++;
	}
	w[4] = kept;
	return STACK_HEAD + (2 + kept) / 2;
}

/* The words the stacks and their frames take. */
static size_t
stacks_words(const struct rep_stacks *st)
{
	return st->nr_words + st->nr_frames * frame_words(st);
}

static void
stacks_rehash(struct rep_stacks *st)
{
	size_t cap = st->cap_slots ? st->cap_slots * 2 : 4096, i, j;
	uint32_t *slots = xcalloc(cap, sizeof(*slots));

	for (i = 0; i < st->nr; i++) {
		j = st->v[i].hash & (cap - 1);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = (uint32_t)(i + 1);
	}
	free(st->slots);
	st->slots = slots;
	st->cap_slots = cap;
}

static void
stack_append(struct rep_stacks *st, XXH128_hash_t hash, size_t nw,
	     size_t slot, const struct ses_sample *s)
{
	struct rep_stack *k;

	if (st->nr >= UINT32_MAX - 1)
		die(1, "more than %u distinct stacks", UINT32_MAX - 2);
	/* replayed past max_words: far below */
	if (st->nr_words + nw > UINT32_MAX)
		die(1, "more than %u words of stacks", UINT32_MAX);
	if (st->nr == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 1024;
		st->v = xreallocarray(st->v, st->cap, sizeof(*st->v));
	}
	if (st->nr_words + nw > st->cap_words) {
		st->cap_words = (st->nr_words + nw) * 2;
		st->words = xreallocarray(st->words, st->cap_words,
					  sizeof(*st->words));
	}
	memcpy(st->words + st->nr_words, st->scratch, nw * sizeof(uint64_t));
	k = &st->v[st->nr];
	*k = (struct rep_stack){
		.hash = hash.low64, .hash_hi = hash.high64,
		.period = s->period, .count = 1, .last_seq = st->seq,
		.off = (uint32_t)st->nr_words, .nr_words = (uint32_t)nw,
		.thread = s->thread, .comm = s->comm,
	};
	st->nr_words += nw;
	st->slots[slot] = (uint32_t)++st->nr;
}

/* Count a sample in its stack's record; returns 1 + its index. */
static uint32_t
stack_add(struct rep_report *rep, const struct ses_sample *s, bool filtered)
{
	struct rep_stacks *st = &rep->stacks;
	bool hide = rep->o.hist.hide_unresolved;
	size_t nw = stack_words(st, s, filtered, hide), j;
	XXH128_hash_t hash = XXH3_128bits(st->scratch, nw * sizeof(uint64_t));
	struct rep_stack *k;

	st->seq++;
	if ((st->nr + 1) * 2 > st->cap_slots)
		stacks_rehash(st);
	j = hash.low64 & (st->cap_slots - 1);
	while (st->slots[j]) {
		k = &st->v[st->slots[j] - 1];
		if (k->hash == hash.low64 && k->hash_hi == hash.high64 &&
		    k->nr_words == nw) {
			k->period += s->period;
			k->count++;
			k->last_seq = st->seq;
			return st->slots[j];
		}
		j = (j + 1) & (st->cap_slots - 1);
	}
	stack_append(st, hash, nw, j, s);
	return st->slots[j];
}

/*
 * User words of a stack: its token (the epoch over 1 + its index in the
 * stacks), then the period, count and last sequence number of its
 * repeats not yet in its record.
 */
enum { USER_TOK, USER_PERIOD, USER_COUNT, USER_LAST_SEQ };

/* A stack's repeats into its record. */
static void
user_fold(void *ctx, uint64_t *user)
{
	struct rep_stacks *st = ctx;
	uint32_t idx = (uint32_t)user[USER_TOK];
	struct rep_stack *k;

	if (!user[USER_COUNT])
		return;
	if (user[USER_TOK] >> 32 != st->epoch || !idx || idx > st->nr)
		die(1, "internal error: stack token %#llx of %zu in epoch %llu",
		    (unsigned long long)user[USER_TOK], st->nr,
		    (unsigned long long)st->epoch);
	k = &st->v[idx - 1];
	k->period += user[USER_PERIOD];
	k->count += user[USER_COUNT];
	if (user[USER_LAST_SEQ] > k->last_seq)
		k->last_seq = user[USER_LAST_SEQ];
	user[USER_PERIOD] = user[USER_COUNT] = user[USER_LAST_SEQ] = 0;
}

static void
users_fold(struct rep_stacks *st)
{
	if (st->users_each)
		st->users_each(st->users_src, user_fold, st);
}

static void
stacks_reset(struct rep_stacks *st)
{
	free(st->v);
	free(st->slots);
	free(st->words);
	free(st->frames);
	free(st->frame_slots);
	st->v = NULL;
	st->slots = NULL;
	st->words = NULL;
	st->frames = NULL;
	st->frame_slots = NULL;
	st->nr = st->cap = st->cap_slots = st->nr_words = st->cap_words = 0;
	st->nr_frames = st->cap_frames = st->cap_frame_slots = 0;
}

static void
stacks_free(struct rep_stacks *st)
{
	stacks_reset(st);
	free(st->scratch);
	free(st->locs);
	free(st->brs);
}

/*
 * The callchain trees take most of the replay's time in children mode,
 * and each entry's tree is independent of the others: the replay notes
 * each addition (a job); the jobs are then grouped by entry, each
 * entry's in the order they were noted, and made by two threads, each
 * taking about half of them, whole entries.  Blocks of JOBS_BLOCK jobs
 * bound the memory.
 */
#define JOBS_BLOCK	((size_t)1 << 18)
#define JOBS_PARALLEL	4096	/* fewer are made by one thread */

struct rep_job {
	struct rep_hist *h;
	uint32_t idx;			/* the entry */
	uint32_t stack;			/* index in rep->stacks.v */
	uint32_t first, nr;		/* the slice of the stack's chain */
	bool reverse;
	uint64_t period;
	uint64_t count;
};

static void
job_note(struct rep_jobs *j, struct rep_hist *h, size_t idx, size_t first,
	 size_t nr, bool reverse, uint64_t period, uint64_t count)
{
	struct rep_job *b;

	if (j->nr == j->cap) {
		j->cap = j->cap ? j->cap * 2 : 1024;
		j->v = xreallocarray(j->v, j->cap, sizeof(*j->v));
	}
	b = &j->v[j->nr++];
	*b = (struct rep_job){
		.h = h, .idx = (uint32_t)idx, .stack = j->stack,
		.first = (uint32_t)first, .nr = (uint32_t)nr,
		.reverse = reverse, .period = period, .count = count,
	};
}

struct jobs_part {
	const struct rep_stacks *st;
	const struct rep_cc_frames *frames;	/* st's frames, by id */
	const struct rep_cc_keying *keying;	/* the function key's */
	const struct rep_job *v;	/* a run of whole entries' jobs */
	size_t nr;
	uint32_t *ids;			/* a slice of a stack's chain */
	size_t cap_ids;
};

/* The ids of the slice of its stack's chain that job b adds. */
static void
part_ids(struct jobs_part *p, const struct rep_job *b)
{
	const uint64_t *w = p->st->words + p->st->v[b->stack].off;
	size_t c;

	if (b->nr > p->cap_ids) {
		p->cap_ids = b->nr;
		p->ids = xreallocarray(p->ids, b->nr, sizeof(*p->ids));
	}
	for (c = 0; c < b->nr; c++)
		p->ids[c] = stack_frame_id(w, 1 + b->first + c);
}

static void *
jobs_part_run(void *arg)
{
	struct jobs_part *p = arg;
	size_t i;

	/* a tree without branch counts has no use for the branch parts */
	for (i = 0; i < p->nr; i++) {
		const struct rep_job *b = &p->v[i];
		struct rep_hent *e = &b->h->ents[b->idx];

		part_ids(p, b);
		if (!e->cc)
			e->cc = rep_cc_new(p->keying);
		rep_cc_add_ids(e->cc, p->frames, p->ids, b->nr, b->reverse,
			       b->period, b->count);
	}
	return NULL;
}

/* The stacks' frames as frames of the trees, once for all the jobs. */
static struct rep_cc_frames *
jobs_frames(const struct rep_stacks *st, struct rep_cc_pool *pool)
{
	struct ses_loc *locs = xreallocarray(NULL, st->nr_frames ?
					     st->nr_frames : 1,
					     sizeof(*locs));
	struct rep_cc_frames *frames;
	size_t i;

	for (i = 0; i < st->nr_frames; i++)
		frame_get(st->frames + i * frame_words(st), &locs[i]);
	frames = rep_cc_frames_new(pool, locs, st->nr_frames);
	free(locs);
	return frames;
}

/*
 * The jobs of each entry together, each entry's in the order noted (an
 * entry's tree depends only on the order of its own additions): one
 * tree's nodes stay in the cache while its additions are made.  A
 * stable radix sort on the entry index, 16 bits a pass.
 */
static void
jobs_group(struct rep_jobs *j)
{
	struct rep_job *tmp, *src = j->v, *dst;
	size_t *counts = xcalloc((size_t)1 << 16, sizeof(*counts));
	size_t i, sum, c;
	unsigned int shift;

	tmp = xreallocarray(NULL, j->nr, sizeof(*tmp));
	dst = tmp;
	for (shift = 0; shift < 32; shift += 16) {
		memset(counts, 0, ((size_t)1 << 16) * sizeof(*counts));
		for (i = 0; i < j->nr; i++)
			counts[(src[i].idx >> shift) & 0xffff]++;
		for (i = 0, sum = 0; i < ((size_t)1 << 16); i++) {
			c = counts[i];
			counts[i] = sum;
			sum += c;
		}
		for (i = 0; i < j->nr; i++)
			dst[counts[(src[i].idx >> shift) & 0xffff]++] = src[i];
		dst = src;
		src = src == j->v ? tmp : j->v;
	}
	/* two passes: the sorted jobs are back in j->v */
	free(tmp);
	free(counts);
}

static void
jobs_run(struct rep_report *rep)
{
	struct rep_jobs *j = &rep->jobs;
	struct jobs_part part[2] = {
		{ .st = &rep->stacks, .frames = j->frames,
		  .keying = &rep->cc_keying, .v = j->v, .nr = j->nr },
		{ .st = &rep->stacks, .frames = j->frames,
		  .keying = &rep->cc_keying },
	};
	size_t half = j->nr / 2;
	pthread_t th;

	jobs_group(j);
	/* the second thread takes the entries from about half way on */
	while (half && half < j->nr && j->v[half].idx == j->v[half - 1].idx)
		half++;
	if (j->nr >= JOBS_PARALLEL && j->ncpu_many && half < j->nr) {
		part[0].nr = half;
		part[1].v = j->v + half;
		part[1].nr = j->nr - half;
	}
	if (!part[1].nr ||
	    pthread_create(&th, NULL, jobs_part_run, &part[1])) {
		part[0].nr = j->nr;
		jobs_part_run(&part[0]);
	} else {
		jobs_part_run(&part[0]);
		pthread_join(th, NULL);
	}
	free(part[0].ids);
	free(part[1].ids);
	j->nr = 0;
}

static size_t hist_add(struct rep_report *rep, const struct ses_sample *s,
		       bool filtered, uint64_t count, uint64_t last_seq,
		       const struct rep_mem *mem);

/* Every stack into the histograms, in the order they first appeared. */
static void
stacks_replay(struct rep_report *rep)
{
	struct rep_stacks *st = &rep->stacks;
	struct ses_sample s;
	size_t i, nr;

	/*
	 * the address and srcline keys intern strings, and branch counts
	 * need the samples' order: one thread only
	 */
	rep->jobs.on = rep->use_callchain &&
		       rep->cc_keying.key == REP_CC_KEY_FUNCTION &&
		       !rep->cc_keying.branch_counts;
	rep->jobs.ncpu_many = sysconf(_SC_NPROCESSORS_ONLN) > 1;
	/* the frames do not change while the stacks are replayed */
	rep->jobs.frames = rep->jobs.on ?
			   jobs_frames(st, rep->cc_keying.pool) : NULL;
	rep_memo_begin(&rep->memo, rep->children && !scratch_keys(rep));
	users_fold(st);
	if (st->users_forget)
		st->users_forget(st->users_src);
	for (i = 0; i < st->nr; i++) {
		const struct rep_stack *k = &st->v[i];
		const uint64_t *w = st->words + k->off;

		nr = (size_t)w[4];
		if (nr > st->cap_locs) {
			st->cap_locs = nr;
			st->locs = xreallocarray(st->locs, nr,
						 sizeof(*st->locs));
			if (st->branches)
				st->brs = xreallocarray(st->brs, nr,
							sizeof(*st->brs));
		}
		memset(&s, 0, sizeof(s));
		s.evsel = (unsigned int)w[0];
		/* its first sample's, as the entries it makes take them */
		s.thread = k->thread;
		s.comm = k->comm;
		s.cpu = (uint32_t)w[3];
		s.time = w[5];
		s.period = k->period;
		frame_get(stack_frame(st, w, 0), &s.self);
		stack_frames_get(st, w, 0, nr, st->locs, st->brs,
				 rep->memo.on ? rep_memo_ids(&rep->memo, nr) :
				 NULL);
		s.chain = nr ? st->locs : NULL;
		s.chain_branch = nr ? st->brs : NULL;
		s.nr_chain = nr;
		rep->jobs.stack = (uint32_t)i;
		hist_add(rep, &s, (w[0] >> 32) & 1, k->count, k->last_seq, NULL);
		if (rep->jobs.nr >= JOBS_BLOCK)
			jobs_run(rep);
	}
	if (rep->jobs.nr)
		jobs_run(rep);
	rep->jobs.on = false;
	rep_cc_frames_free(rep->jobs.frames);
	rep->jobs.frames = NULL;
	rep_memo_end(&rep->memo);
	free(rep->jobs.v);
	rep->jobs.v = NULL;
	rep->jobs.cap = 0;
	stacks_reset(st);
	st->epoch++;
}

static struct rep_hist *
hist_new(unsigned int evsel, unsigned int nr_members)
{
	struct rep_hist *h = xcalloc(1, sizeof(*h));

	h->evsel = evsel;
	h->nr_members = nr_members;
	h->nr_samples = xcalloc(nr_members, sizeof(uint64_t));
	h->nr_samples_vis = xcalloc(nr_members, sizeof(uint64_t));
	h->total = xcalloc(nr_members, sizeof(uint64_t));
	h->total_vis = xcalloc(nr_members, sizeof(uint64_t));
	h->cc_period = xcalloc(nr_members, sizeof(uint64_t));
	h->cc_period_vis = xcalloc(nr_members, sizeof(uint64_t));
	return h;
}

static void
hist_free(struct rep_hist *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->nr; i++)
		rep_cc_free(h->ents[i].cc);
	free(h->ents);
	free(h->vals);
	free(h->slots);
	free(h->nr_samples);
	free(h->nr_samples_vis);
	free(h->total);
	free(h->total_vis);
	free(h->cc_period);
	free(h->cc_period_vis);
	free(h);
}

static void
hist_rehash(struct rep_hist *h)
{
	size_t cap = h->cap_slots ? h->cap_slots * 2 : 1024;
	size_t *slots = xcalloc(cap, sizeof(*slots));
	size_t i, j;

	for (i = 0; i < h->nr; i++) {
		j = h->ents[i].hash & (cap - 1);
		while (slots[j])
			j = (j + 1) & (cap - 1);
		slots[j] = i + 1;
	}
	free(h->slots);
	h->slots = slots;
	h->cap_slots = cap;
}

static size_t
hist_append(struct rep_hist *h, const struct rep_hent *key)
{
	size_t idx = h->nr;

	if (h->nr == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 256;
		h->ents = xreallocarray(h->ents, h->cap, sizeof(*h->ents));
		h->vals = xreallocarray(h->vals, h->cap * h->nr_members,
					sizeof(*h->vals));
	}
	h->ents[idx] = *key;
	memset(&h->vals[idx * h->nr_members], 0,
	       h->nr_members * sizeof(*h->vals));
	h->nr++;
	return idx;
}

/*
 * perf's hists__apply_filters() on a new entry: the symbol filter on the
 * first event's histogram, the socket filter on every one.
 */
static bool
entry_filtered(const struct rep_report *rep, const struct rep_hist *h,
	       const struct rep_hent *e)
{
	const struct rep_hist_opts *o = &rep->o.hist;

	if (o->symbol_filter && h == rep->hists[0] &&
	    (!e->sym || !strstr(e->sym->name, o->symbol_filter)))
		return true;
	return o->has_socket_filter && e->socket != o->socket_filter;
}

/*
 * The entry equal to key, made from it when absent, for count samples
 * (all but the first that made it counted as finding it: perf compared
 * them with it whole).
 */
static size_t
hist_findnew(struct rep_report *rep, struct rep_hist *h,
	     struct rep_hent *key, uint64_t count)
{
	size_t j, idx;

	if ((h->nr + 1) * 2 > h->cap_slots)
		hist_rehash(h);
	key->hash = rep_hent_hash(rep, key);
	j = key->hash & (h->cap_slots - 1);
	while (h->slots[j]) {
		idx = h->slots[j] - 1;
		if (h->ents[idx].hash == key->hash &&
		    rep_hent_cmp(rep, &h->ents[idx], key) == 0) {
			h->ents[idx].hits += count;
			return idx;
		}
		j = (j + 1) & (h->cap_slots - 1);
	}
	idx = hist_append(h, key);
	h->ents[idx].hits = count ? count - 1 : 0;
	if (rep->o.hist.nr_fields)
		rep_field_keep_raw(rep, &h->ents[idx]);
	h->slots[j] = idx + 1;
	if (rep->entry_filters && entry_filtered(rep, h, &h->ents[idx]))
		h->ents[idx].hidden = true;
	return idx;
}

/*
 * Whether an entry shows or compares the CPU or socket of its samples, or
 * is filtered by its socket.
 */
bool
rep_report_needs_cpu(const struct rep_report_opts *opts)
{
	const struct rep_hist_opts *o = &opts->hist;
	size_t i;

	if (o->has_socket_filter)
		return true;
	for (i = 0; i < o->nr_sort; i++)
		if (o->sort[i] == REP_DIM_CPU || o->sort[i] == REP_DIM_SOCKET)
			return true;
	for (i = 0; i < o->nr_cols; i++)
		if (o->cols[i] == REP_DIM_CPU || o->cols[i] == REP_DIM_SOCKET)
			return true;
	return false;
}

/*
 * Whether a stack's samples must be of one thread: unless every key is
 * one of those that read only the sample's location, CPU and time
 * (comm, pid, cgroup and the memory keys read its thread).
 */
static bool
keys_need_thread(const struct rep_report_opts *opts)
{
	size_t i;

	for (i = 0; i < opts->hist.nr_sort; i++) {
		/* the columns of numbers are not keys */
		if (rep_dim_is_hpp(opts->hist.sort[i]))
			continue;
		switch (opts->hist.sort[i]) {
		case REP_DIM_DSO:
		case REP_DIM_SYM:
		case REP_DIM_PARENT:
		case REP_DIM_CPU:
		case REP_DIM_SOCKET:
		case REP_DIM_SRCLINE:
		case REP_DIM_SRCFILE:
		case REP_DIM_SYM_SIZE:
		case REP_DIM_DSO_SIZE:
		case REP_DIM_TIME:
		case REP_DIM_ADDR:
			break;
		default:
			return true;
		}
	}
	return false;
}

/*
 * Whether nothing the report prints reads where in its function a
 * frame's address lies: call graphs, if any, under the function key
 * (their frames merge by function and print its name), no -v
 * (addresses), no branch frames or counts, and only keys of the
 * function, its DSO, the thread, CPU, time and cgroup (not srcline,
 * srcfile, addr, the memory and value keys, trace fields).  A symbol
 * that is a data object prints its offset and is left alone
 * (frame_put()).
 */
static bool
keys_addr_free(const struct rep_report *rep)
{
	const struct rep_report_opts *opts = &rep->o;
	size_t i;

	if ((rep->use_callchain &&
	     rep->cc_keying.key != REP_CC_KEY_FUNCTION) ||
	    rep->stacks.branches || opts->hist.verbose ||
	    opts->cc.branch_counts)
		return false;
	for (i = 0; i < opts->hist.nr_sort + opts->hist.nr_cols; i++) {
		enum rep_dim d = i < opts->hist.nr_sort ? opts->hist.sort[i] :
			opts->hist.cols[i - opts->hist.nr_sort];

		if (rep_dim_is_hpp(d))
			continue;
		switch (d) {
		case REP_DIM_COMM:
		case REP_DIM_PID:
		case REP_DIM_DSO:
		case REP_DIM_SYM:
		case REP_DIM_PARENT:
		case REP_DIM_CPU:
		case REP_DIM_SOCKET:
		case REP_DIM_SYM_SIZE:
		case REP_DIM_DSO_SIZE:
		case REP_DIM_TIME:
		case REP_DIM_CGROUP:
		case REP_DIM_CGROUP_ID:
			break;
		default:
			return false;
		}
	}
	return true;
}

static const char *cc_srcline(void *ctx, const struct ses_loc *l);

struct rep_report *
rep_report_new(const struct rep_report_opts *opts, size_t nr_evsels,
	       const unsigned int *leader, const unsigned int *member_idx,
	       const unsigned int *nr_members, const int32_t *cpu_socket,
	       size_t nr_cpu_socket, bool has_callchain)
{
	struct rep_report *rep = xcalloc(1, sizeof(*rep));
	size_t i;

	rep->o = *opts;
	rep->dso_hash = xcalloc(1, sizeof(*rep->dso_hash));
	rep->children = opts->cc.children < 0 ? has_callchain :
		(opts->cc.children && has_callchain);
	rep->use_callchain = opts->cc.use_callchain < 0 ? has_callchain :
		(opts->cc.use_callchain && has_callchain);
	if (opts->cc.param.mode == REP_CC_NONE)
		rep->use_callchain = false;
	/* perf picks the order from --children before it reads the file */
	rep->caller = opts->cc.param.order_set ? opts->cc.param.caller :
		opts->cc.children != 0;
	/* --branch-history: graphs of branches for samples without a chain */
	if (opts->cc.branch_counts && opts->cc.param.mode != REP_CC_NONE)
		rep->use_callchain = true;
	rep->cc_keying = (struct rep_cc_keying){
		.key = opts->cc.param.key,
		.srcline = cc_srcline,
		.ctx = rep,
		.branch_counts = opts->cc.branch_counts,
		.pool = rep_cc_pool_new(),
	};
	rep->stacks.branches = opts->cc.param.branch;
	if (opts->pipe) {
		/*
		 * perf decides before the attrs of a pipe arrive: children
		 * are cancelled, call graphs stay on, in the order chosen
		 * while children were still the default.
		 */
		rep->children = false;
		rep->use_callchain = opts->cc.use_callchain != 0 &&
			opts->cc.param.mode != REP_CC_NONE;
		rep->caller = opts->cc.param.order_set ? opts->cc.param.caller :
			opts->cc.children != 0;
	}
	for (i = 0; i < opts->hist.nr_sort; i++) {
		rep->has_key[opts->hist.sort[i]] = true;
		if (rep_mem_dim(opts->hist.sort[i]) ||
		    rep_value_dim(opts->hist.sort[i]) ||
		    rep_field_dim(opts->hist.sort[i]))
			rep->has_mem_keys = true;
	}
	for (i = 0; i < opts->hist.nr_fields; i++)
		if (!opts->hist.fields[i].raw)
			rep->field_texts = true;
	/* perf filters entries as it collapses them: only comm collapses */
	rep->entry_filters = (opts->hist.symbol_filter ||
			      opts->hist.has_socket_filter) &&
			     rep->has_key[REP_DIM_COMM];
	rep_report_setup_elide(opts, rep->elide, NULL);
	rep->nr_evsels = nr_evsels;
	rep->leader = xcalloc(nr_evsels ? nr_evsels : 1, sizeof(unsigned int));
	rep->member = xcalloc(nr_evsels ? nr_evsels : 1, sizeof(unsigned int));
	rep->hists = xcalloc(nr_evsels ? nr_evsels : 1, sizeof(*rep->hists));
	for (i = 0; i < nr_evsels; i++) {
		rep->leader[i] = leader[i];
		rep->member[i] = member_idx[i];
		if (leader[i] == i)
			rep->hists[i] = hist_new((unsigned int)i,
						 nr_members[i] ? nr_members[i] : 1);
	}
	if (nr_cpu_socket) {
		rep->cpu_socket = xcalloc(nr_cpu_socket, sizeof(int32_t));
		memcpy(rep->cpu_socket, cpu_socket, nr_cpu_socket * sizeof(int32_t));
		rep->nr_cpu_socket = nr_cpu_socket;
	}
	rep->stacks.with_cpu = rep_report_needs_cpu(opts);
	rep->stacks.by_thread = keys_need_thread(opts);
	rep->stacks.addr_free = keys_addr_free(rep);
	rep->stacks.max_words = rep->use_callchain ? STACKS_MAX_WORDS :
		STACKS_MAX_WORDS_FLAT;
	if (rep->has_key[REP_DIM_TIME])
		rep->stacks.time_quantum = opts->hist.time_quantum ?
			opts->hist.time_quantum : 100000000;
	if (rep->has_key[REP_DIM_PARENT])
		rep->parent_re_ok = regcomp(&rep->parent_re,
					    opts->hist.parent_re ?
					    opts->hist.parent_re :
					    "^sys_|^do_page_fault",
					    REG_EXTENDED | REG_NOSUB) == 0;
	if (opts->hist.ignore_callees)
		rep->ignore_re_ok = regcomp(&rep->ignore_re,
					    opts->hist.ignore_callees,
					    REG_EXTENDED | REG_NOSUB) == 0;
	return rep;
}

void
rep_report_free(struct rep_report *rep)
{
	uint64_t key, val;
	size_t i, pos;

	if (!rep)
		return;
	for (i = 0; i < rep->nr_evsels; i++)
		hist_free(rep->hists[i]);
	rep_cc_pool_free(rep->cc_keying.pool);
	if (rep->parent_re_ok)
		regfree(&rep->parent_re);
	if (rep->ignore_re_ok)
		regfree(&rep->ignore_re);
	free(rep->hists);
	free(rep->leader);
	free(rep->member);
	free(rep->cpu_socket);
	free(rep->cache);
	stacks_free(&rep->stacks);
	rep_memo_free(&rep->memo);
	pos = 0;
	while (u64map_next(&rep->strings, &pos, &key, &val))
		free((void *)(uintptr_t)val);
	u64map_free(&rep->strings);
	u64map_free(&rep->dso_hash->map);
	free(rep->dso_hash);
	for (i = 0; i < rep->nr_raw_copies; i++)
		free(rep->raw_copies[i]);
	free(rep->raw_copies);
	free(rep);
}

void
rep_report_field_formatter(struct rep_report *rep, rep_field_text_fn fn,
			   void *ctx)
{
	rep->field_fn = fn;
	rep->field_ctx = ctx;
}

void
rep_report_trace_formatter(struct rep_report *rep, rep_trace_fn fn, void *ctx)
{
	rep->trace_fn = fn;
	rep->trace_ctx = ctx;
}

void
rep_report_cgroup_names(struct rep_report *rep, const struct u64map *names)
{
	rep->cgroup_names = names;
}

void
rep_report_lost_samples(struct rep_report *rep, uint64_t lost)
{
	rep->lost_samples += lost;
}

/* perf's machine__resolve filter bits: the whole sample shares them. */
static bool
sample_filtered(const struct rep_report *rep, const struct ses_sample *s)
{
	const struct rep_filters *f = &rep->o.hist.filt;
	const struct ses_loc *l = &s->self;

	if (s->filtered)
		return true;
	return !rep_filter_keeps_thread(f, s->thread) ||
	       !rep_filter_keeps_self(f, l);
}

/*
 * --time and -C drop a sample before it is counted (of a repeat of an
 * interned stack, not yet resolved, these are all that is known).
 */
static bool
sample_skipped(const struct rep_report *rep, const struct ses_sample *s)
{
	const struct rep_filters *f = &rep->o.hist.filt;

	if (f->cpus && (s->cpu >= f->nr_cpus || !f->cpus[s->cpu]))
		return true;
	return !rep_filter_keeps_time(f, s->time);
}

/*
 * -U drops a resolved sample without a symbol: its stack gets no token,
 * so no repeat of it is counted either.
 */
static bool
unresolved_hidden(const struct rep_report *rep, const struct ses_sample *s)
{
	return rep->o.hist.hide_unresolved && !s->self.sym;
}

/*
 * perf's parent: the first frame whose symbol matches, in the order
 * perf walks the chain (root first in caller order).
 */
static const struct sym_symbol *
find_parent(const struct rep_report *rep, const struct ses_sample *s)
{
	size_t i, n = s->nr_chain;

	if (!rep->parent_re_ok)
		return NULL;
	for (i = 0; i < n; i++) {
		const struct sym_symbol *sym =
			s->chain[rep->caller ? n - 1 - i : i].sym;

		if (sym && regexec(&rep->parent_re, sym->name, 0, NULL, 0) == 0)
			return sym;
	}
	return NULL;
}

/* Strings made here (srcline fallbacks, srcfiles), one copy each. */
static const char *
intern(struct rep_report *rep, const char *str, size_t len)
{
	uint64_t h = XXH3_64bits(str, len), *slot;

	for (;; h++) {
		const char *have;

		slot = u64map_slot(&rep->strings, h);
		if (!*slot) {
			*slot = (uintptr_t)xstrndup(str, len);
			return (const char *)(uintptr_t)*slot;
		}
		have = (const char *)(uintptr_t)*slot;
		if (!strncmp(have, str, len) && have[len] == '\0')
			return have;
	}
}

/*
 * perf's map__srcline(): "file:line" ("??:0" when addr2line names the
 * function but no file: sym_dso_srcline() says so), else
 * "sym+<decimal offset>" or "dso[<hex address>]"; "??:0" without a map.  addr is perf's he->ip
 * (the raw ip for callchain entries, which perf looks up as if it were
 * map-relative).
 */
static const char *
loc_srcline(struct rep_report *rep, const struct ses_loc *l, uint64_t addr)
{
	const char *s;
	char buf[512];
	int n;

	if (!l->map || !l->dso)
		return "??:0";
	s = sym_dso_srcline(l->dso, addr);
	if (s)
		return s;
	if (l->sym)
		n = snprintf(buf, sizeof(buf), "%s+%llu", l->sym->name,
			     (unsigned long long)(addr - l->sym->start));
	else
		n = snprintf(buf, sizeof(buf), "%s[%llx]",
			     sym_dso_short_name(l->dso), (unsigned long long)addr);
	if (n < 0)
		return "??:0";
	return intern(rep, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* perf's srcfile: the srcline up to its ':', or "" when unknown. */
static const char *
loc_srcfile(struct rep_report *rep, const struct ses_loc *l, uint64_t addr)
{
	const char *line, *colon;

	if (!l->map || !l->dso)
		return "";
	line = sym_dso_srcline(l->dso, addr);
	if (!line || !strcmp(line, "??:0"))
		return "";
	colon = strchr(line, ':');
	if (!colon || colon == line)
		return "";
	return intern(rep, line, (size_t)(colon - line));
}

/* Whether binutils' addr2line names the function at l (symbol.h). */
static bool
binutils_names(const struct ses_loc *l)
{
	return !l->map->identity &&
	       sym_addr2line_names_at(l->dso, l->sym, l->al_addr);
}

/*
 * perf 6.1's callchain_srcline() for the address and srcline keys,
 * through binutils' addr2line: "file:line"; an address of a function
 * addr2line names without its line gets "??:0" (from the ELF symbols,
 * even with no symbol of perf's there, sym_dso_srcline() says so); with
 * no file to read (the kernel, JIT maps) or nothing named,
 * "+<decimal offset>" in the symbol or "dso[<hex address>]" under the
 * address key and NULL under the srcline key; NULL without a map.  An
 * inline frame has its own (the line perf's inline list gave it).
 * Equal strings are one pointer.
 */
static const char *
cc_srcline(void *ctx, const struct ses_loc *l)
{
	static const char unknown[] = "??:0";
	struct rep_report *rep = ctx;
	const char *s;
	char buf[512];
	int n;

	if (!l->map || !l->dso)
		return NULL;
	if (l->srcline)
		return strcmp(l->srcline, unknown) ?
		       intern(rep, l->srcline, strlen(l->srcline)) : unknown;
	s = sym_dso_srcline(l->dso, l->al_addr);
	if (s)
		return strcmp(s, unknown) ? intern(rep, s, strlen(s)) : unknown;
	if (binutils_names(l))
		return unknown;
	if (rep->o.cc.param.key != REP_CC_KEY_ADDRESS)
		return NULL;
	if (l->sym)
		n = snprintf(buf, sizeof(buf), "+%llu",
			     (unsigned long long)(l->al_addr - l->sym->start));
	else
		n = snprintf(buf, sizeof(buf), "%s[%llx]",
			     sym_dso_short_name(l->dso),
			     (unsigned long long)l->al_addr);
	if (n < 0)
		return NULL;
	return intern(rep, buf, (size_t)n < sizeof(buf) ? (size_t)n :
				sizeof(buf) - 1);
}

/*
 * The sample's own values perf keeps in an entry: its weight (a weight
 * struct's first part), instruction latency (the struct's second), code
 * page size, transaction flags and cgroup.  perf 6.1 built for x86 leaves the pipeline stage
 * cycles at 0: only its powerpc build reads them.
 */
static void
key_values(struct rep_hent *k, const struct pd_sample *ps)
{
	if (ps->type & PD_SAMPLE_WEIGHT_STRUCT) {
		k->weight = ps->weight_struct.var1;
		k->ins_lat = ps->weight_struct.var2;
	} else {
		k->weight = ps->weight;
	}
	k->code_page_size = ps->code_page_size;
	k->transaction = ps->transaction;
	k->cgroup = ps->cgroup;
}

/* The sample's trace text, interned (perf's get_trace_output()). */
static const char *
trace_text(struct rep_report *rep, const struct ses_sample *s)
{
	size_t n = 0;
	const char *text = rep->trace_fn(rep->trace_ctx, s->evsel, s->raw, &n);

	return text ? intern(rep, text, n) : NULL;
}

static void
key_from_loc(struct rep_report *rep, const struct ses_sample *s,
	     const struct ses_loc *l, uint64_t ip, struct rep_hent *k)
{
	memset(k, 0, sizeof(*k));
	k->comm = s->comm;
	k->thread = s->thread;
	k->tid = s->thread->tid;
	k->map = l->map;
	k->dso = l->map ? l->dso : NULL;
	k->sym = l->map ? l->sym : NULL;
	k->ip = ip;
	k->level = l->level;
	k->cpu = (int32_t)s->cpu;
	k->time = stack_time(&rep->stacks, s->time);
	k->socket = s->cpu < rep->nr_cpu_socket ? rep->cpu_socket[s->cpu] : -1;
	if (rep->has_key[REP_DIM_SRCLINE])
		k->srcline = loc_srcline(rep, l, ip);
	if (rep->has_key[REP_DIM_SRCFILE])
		k->srcfile = loc_srcfile(rep, l, ip);
	/* sized unless rep_hist_output_order() finds perf had none yet */
	k->srcline_sized = k->srcfile_sized = true;
	k->cpumode = s->self.cpumode;
	k->cgroup_dev = s->thread->cgroup_ns_dev;
	k->cgroup_ino = s->thread->cgroup_ns_ino;
	k->evsel = s->evsel < rep->nr_evsels ? rep->leader[s->evsel] : 0;
	if (s->raw)
		key_values(k, s->raw);
	if (s->raw && rep->o.hist.nr_fields) {
		k->raw = s->raw->raw.p;
		k->raw_len = s->raw->raw.len > UINT32_MAX ? UINT32_MAX :
			(uint32_t)s->raw->raw.len;
	}
	if (s->raw && (rep->has_key[REP_DIM_TRACE] || rep->field_texts) &&
	    rep->trace_fn)
		k->trace = trace_text(rep, s);
}

/*
 * Add a chain to the tree of entry idx of h.  While stacks are replayed
 * (rep->jobs.on), frames is a slice of the stack being replayed and the
 * addition is only noted, to be made later (jobs_run).
 */
static void
cc_add(struct rep_report *rep, struct rep_hist *h, size_t idx,
       const struct ses_loc *frames, const struct ses_frame_branch *br,
       size_t nr, bool reverse, uint64_t period, uint64_t count,
       uint64_t last_seq)
{
	struct rep_hent *e = &h->ents[idx];

	if (!nr)
		return;
	if (nr > e->cc_depth)
		e->cc_depth = nr;
	if (rep->jobs.on) {
		job_note(&rep->jobs, h, idx, (size_t)(frames - rep->stacks.locs),
			 nr, reverse, period, count);
		return;
	}
	if (!e->cc)
		e->cc = rep_cc_new(&rep->cc_keying);
	rep_cc_add_branch_n(e->cc, frames, br, nr, reverse, period, count,
			    last_seq);
}

/*
 * perf compares a frame with the entries this sample credited through a
 * scratch entry that lacks the socket, the time and the sample's values
 * (weights, code page size: 0 there, not the sample's), so with such a
 * key a frame is never a duplicate of an entry where they are not 0 and
 * gets credited again (the sample's own entry too): kept as is.
 */
static bool
is_scratch_dup(const struct rep_report *rep, const struct rep_hist *h,
	       size_t nr, const struct rep_hent *key)
{
	struct rep_hent tmp = *key;
	size_t i;

	tmp.socket = 0;
	tmp.time = 0;
	tmp.weight = 0;
	tmp.ins_lat = 0;
	tmp.p_stage_cyc = 0;
	tmp.code_page_size = 0;
	tmp.transaction = 0;
	tmp.cgroup = 0;
	tmp.cgroup_dev = 0;
	tmp.cgroup_ino = 0;
	for (i = 0; i < nr; i++)
		if (rep_hent_cmp(rep, &h->ents[rep->cache[i]], &tmp) == 0)
			return true;
	return false;
}

/* The key of the entry chain frame l credits (add_chain_entries). */
static void
frame_key(struct rep_report *rep, const struct ses_sample *s,
	  const struct ses_loc *l, char level, const struct rep_hent *self_key,
	  struct rep_hent *key)
{
	key_from_loc(rep, s, l, l->ip, key);
	/*
	 * perf's frame entry takes the cursor node's srcline, which the
	 * address and srcline keys of -g set (callchain_srcline())
	 */
	if (rep->has_key[REP_DIM_SRCLINE] &&
	    rep->o.cc.param.key != REP_CC_KEY_FUNCTION) {
		const char *cs = cc_srcline(rep, l);

		if (cs) {
			key->srcline = cs;
			key->srcline_given = true;
		}
	}
	key->level = level;
	key->parent = self_key->parent;
	key->filtered = self_key->filtered;
}

/*
 * The entry chain frame c of s credits, from the memo when the replay
 * met the frame before in the same context.
 */
static size_t
frame_entry(struct rep_report *rep, struct rep_hist *h,
	    const struct ses_sample *s, size_t c, char level,
	    const struct rep_hent *self_key, uint64_t count)
{
	uint64_t *memo = rep_memo_slot(&rep->memo, c, level);
	struct rep_hent key;
	size_t idx;

	if (memo && *memo) {
		idx = (size_t)*memo - 1;
		/* what hist_findnew() counts for an entry it finds */
		h->ents[idx].hits += count;
		return idx;
	}
	frame_key(rep, s, &s->chain[c], level, self_key, &key);
	idx = hist_findnew(rep, h, &key, count);
	if (memo)
		*memo = idx + 1;
	return idx;
}

/*
 * Children mode: every frame of the chain in the printing order (perf's
 * cursor) credits its entry once per sample, with the part of the chain
 * that starts at that frame.
 */
static void
add_chain_entries(struct rep_report *rep, struct rep_hist *h, unsigned int m,
		  const struct ses_sample *s, const struct rep_hent *self_key,
		  size_t self_idx, uint64_t count, uint64_t last_seq)
{
	size_t n = s->nr_chain, i, nr_cache = 0;
	char level = self_key->level;

	if (rep->cache_cap < n + 1) {
		rep->cache_cap = n + 1;
		rep->cache = xreallocarray(rep->cache, rep->cache_cap,
					   sizeof(*rep->cache));
	}
	rep->cache[nr_cache++] = self_idx;
	rep_memo_stack(&rep->memo, s, self_key, rep->stacks.by_thread);
	for (i = 0; i < n; i++) {
		size_t c = rep->caller ? n - 1 - i : i;
		const struct ses_loc *l = &s->chain[c];
		struct rep_hent key;
		struct rep_hval *v;
		size_t idx;

		if (l->sym || l->map)
			level = l->level;
		if (scratch_keys(rep)) {
			frame_key(rep, s, l, level, self_key, &key);
			if (is_scratch_dup(rep, h, nr_cache, &key))
				continue;
			idx = hist_findnew(rep, h, &key, count);
		} else {
			/* credited once per sample (recursion counts once) */
			idx = frame_entry(rep, h, s, c, level, self_key, count);
			if (h->ents[idx].stamp == rep->sample_seq)
				continue;
		}
		h->ents[idx].stamp = rep->sample_seq;
		rep->cache[nr_cache++] = idx;
		v = &h->vals[idx * h->nr_members + m];
		v->acc += s->period;
		v->nr_acc += count;
		if (rep->use_callchain && m == 0) {
			/* the chain from this frame on, in the cursor's order */
			size_t at = rep->caller ? 0 : i;

			cc_add(rep, h, idx, s->chain + at,
			       s->chain_branch ? s->chain_branch + at : NULL,
			       n - i, rep->caller, s->period, count, last_seq);
		}
	}
}

/* perf's he_stat__add_cpumode_period(): hypervisor samples go nowhere */
static void
add_mode_period(struct rep_hval *v, uint8_t cpumode, uint64_t period)
{
	/* 1 + the rep_mode of each CPU mode; 0: none */
	static const uint8_t slot[8] = {
		[PD_MISC_KERNEL] = 1 + REP_MODE_SYS,
		[PD_MISC_USER] = 1 + REP_MODE_US,
		[PD_MISC_GUEST_KERNEL] = 1 + REP_MODE_GUEST_SYS,
		[PD_MISC_GUEST_USER] = 1 + REP_MODE_GUEST_US,
	};

	if (cpumode < 8 && slot[cpumode])
		v->mode_period[slot[cpumode] - 1] += period;
}

/*
 * Add count samples that share everything the histogram looks at; period
 * is their sum, last_seq the sequence number of the last of them
 * (rep_stack_add).  filtered is sample_filtered() at their time.
 */
static size_t
hist_add(struct rep_report *rep, const struct ses_sample *s, bool filtered,
	 uint64_t count, uint64_t last_seq, const struct rep_mem *mem)
{
	struct rep_hist *h;
	struct rep_hent key;
	struct rep_hent *e;
	struct rep_hval *v;
	unsigned int m;
	size_t idx;

	h = rep->hists[rep->leader[s->evsel]];
	m = rep->member[s->evsel];
	key_from_loc(rep, s, &s->self, s->self.al_addr, &key);
	if (rep->o.hist.branch_mode && s->nr_branches)
		key.branch = s->branches;	/* one entry per branch (branch.c) */
	if (key.branch && rep->has_key[REP_DIM_SRCLINE_FROM])
		key.srcline_from = loc_srcline(rep, &key.branch->from,
					       key.branch->from.al_addr);
	if (key.branch && rep->has_key[REP_DIM_SRCLINE_TO])
		key.srcline_to = loc_srcline(rep, &key.branch->to,
					     key.branch->to.al_addr);
	key.mem = mem;
	if (rep->has_key[REP_DIM_PARENT])
		key.parent = find_parent(rep, s);
	/* -x: perf's HIST_FILTER__PARENT, on entries without a parent */
	key.filtered = filtered || (rep->o.hist.exclude_other && !key.parent);
	idx = hist_findnew(rep, h, &key, count);
	e = &h->ents[idx];
	e->stamp = ++rep->sample_seq;
	/* the entry shows the map of the last sample that hit it itself */
	if (rep->has_key[REP_DIM_SYM] && last_seq > e->self_seq) {
		e->self_seq = last_seq;
		e->map = key.map;
		e->dso = key.dso;
	}
	v = &h->vals[idx * h->nr_members + m];
	v->period += s->period;
	v->nr += count;
	if (m == 0)
		e->nr_events += count;
	v->acc += s->period;
	v->nr_acc += count;
	add_mode_period(v, s->self.cpumode, s->period);
	h->nr_samples[m] += count;
	if (!e->filtered)
		h->nr_samples_vis[m] += count;
	if (rep->use_callchain) {
		h->cc_period[m] += s->period;
		if (!e->filtered)
			h->cc_period_vis[m] += s->period;
		/* a group's graphs are its leader's (perf prints the leader's entries) */
		if (m == 0)
			cc_add(rep, h, idx, s->chain, s->chain_branch,
			       s->nr_chain, rep->caller, s->period, count,
			       last_seq);
	}
	if (rep->children && s->nr_chain)
		add_chain_entries(rep, h, m, s, &key, idx, count, last_seq);
	return idx;
}

/*
 * perf's --ignore-callees (add_callchain_ip()): walking the chain in the
 * callchain order, a frame whose symbol matches forgets the frames walked
 * before it and becomes the sample's own location; of several, the last
 * one walked.  s itself when none matches, else tmp.
 */
static const struct ses_sample *
ignore_callees(const struct rep_report *rep, const struct ses_sample *s,
	       struct ses_sample *tmp)
{
	size_t n = s->nr_chain, k, at = SIZE_MAX;

	if (!rep->ignore_re_ok)
		return s;
	for (k = 0; k < n; k++) {
		size_t j = rep->caller ? n - 1 - k : k;
		const struct sym_symbol *sym = s->chain[j].sym;

		if (sym && !regexec(&rep->ignore_re, sym->name, 0, NULL, 0))
			at = j;
	}
	if (at == SIZE_MAX)
		return s;
	*tmp = *s;
	tmp->self = s->chain[at];
	/* the chain is leaf first: callee order keeps the callers of at */
	tmp->chain = rep->caller ? s->chain : s->chain + at;
	if (s->chain_branch)
		tmp->chain_branch = s->chain_branch + (tmp->chain - s->chain);
	tmp->nr_chain = rep->caller ? at + 1 : n - at;
	return tmp;
}

void
rep_report_set_users(struct rep_report *rep, rep_users_each_fn *each,
		     rep_users_forget_fn *forget, void *src)
{
	rep->stacks.users_each = each;
	rep->stacks.users_forget = forget;
	rep->stacks.users_src = src;
}

/*
 * rep_report_add(), returning a token for the stack's user words, or 0
 * when the sample was not counted (filtered out by --time, -C, or an
 * unknown event).
 */
static uint64_t
add_tok(struct rep_report *rep, const struct ses_sample *s)
{
	struct ses_sample tmp;
	struct rep_hist *h;
	bool filtered;

	if (s->evsel >= rep->nr_evsels || sample_skipped(rep, s) ||
	    unresolved_hidden(rep, s))
		return 0;
	h = rep->hists[rep->leader[s->evsel]];
	if (!h || rep->member[s->evsel] >= h->nr_members)
		return 0;
	/* bound the memory the stacks take: into the histograms with them */
	if (stacks_words(&rep->stacks) > rep->stacks.max_words)
		stacks_replay(rep);
	filtered = sample_filtered(rep, s);
	return stack_add(rep, ignore_callees(rep, s, &tmp), filtered) |
	       (uint64_t)rep->stacks.epoch << 32;
}

void
rep_report_add(struct rep_report *rep, const struct ses_sample *s)
{
	add_tok(rep, s);
}

void
rep_report_add_user(struct rep_report *rep, uint64_t *user,
		    const struct ses_sample *s)
{
	/* its repeats so far belong to the stack it had */
	user_fold(&rep->stacks, user);
	user[USER_TOK] = add_tok(rep, s);
}

bool
rep_report_add_again(struct rep_report *rep, uint64_t *user,
		     const struct ses_sample *s)
{
	struct rep_stacks *st = &rep->stacks;
	uint64_t tok = user[USER_TOK];
	uint32_t idx = (uint32_t)tok;

	if (!tok || tok >> 32 != st->epoch)
		return false;
	if (sample_skipped(rep, s))
		return true;
	if (!idx || idx > st->nr)
		die(1, "internal error: stack token %u of %zu", idx, st->nr);
	/* another time step: a stack of its own (no look without the key) */
	if (st->time_quantum &&
	    st->words[st->v[idx - 1].off + 5] != stack_time(st, s->time))
		return false;
	user[USER_PERIOD] += s->period;
	user[USER_COUNT]++;
	user[USER_LAST_SEQ] = ++st->seq;
	return true;
}

/* Whether the trace key comes before every other key of the sort list. */
static bool
trace_first(const struct rep_report *rep)
{
	size_t i;

	for (i = 0; i < rep->o.hist.nr_sort; i++) {
		enum rep_dim d = rep->o.hist.sort[i];

		if (d == REP_DIM_TRACE)
			return true;
		if (!rep_dim_is_hpp(d))
			return false;
	}
	return false;
}

/*
 * perf works an entry's trace text out only when a comparison reaches
 * the trace key, and sizes the column by the texts it has when it sorts
 * the entries for output: with trace the first key, every entry's when
 * the histogram has two or more, none when it has one (the text is then
 * cut to the header's width).  With trace after other keys this counts
 * every entry's (doc/errata.md).
 */
static void
trace_widths(struct rep_report *rep)
{
	bool first = trace_first(rep);
	size_t i, j;

	if (!rep->has_key[REP_DIM_TRACE])
		return;
	for (i = 0; i < rep->nr_evsels; i++) {
		struct rep_hist *h = rep->hists[i];

		if (!h)
			continue;
		for (j = 0; j < h->nr; j++)
			h->ents[j].trace_sized = !first || h->nr > 1;
	}
}

void
rep_report_flush(struct rep_report *rep)
{
	stacks_replay(rep);
	trace_widths(rep);
}

bool
rep_report_hides_unresolved(const struct rep_report *rep)
{
	return rep->o.hist.hide_unresolved;
}

/*
 * s straight into the histogram, not through the stacks, with the
 * filter bits of orig (perf's al.filtered); the entry credited, or NULL
 * when the sample is skipped.
 */
static const struct rep_hent *
add_direct(struct rep_report *rep, const struct ses_sample *s,
	   const struct ses_sample *orig, const struct rep_mem *mem)
{
	struct rep_hist *h;
	size_t idx;

	if (s->evsel >= rep->nr_evsels || sample_skipped(rep, s) ||
	    unresolved_hidden(rep, orig))
		return NULL;
	h = rep->hists[rep->leader[s->evsel]];
	if (!h || rep->member[s->evsel] >= h->nr_members)
		return NULL;
	idx = hist_add(rep, s, sample_filtered(rep, orig), 1, ++rep->stacks.seq,
		       mem);
	return &h->ents[idx];
}

/*
 * Branch mode (branch.c): one branch entry (the stacks do not keep the
 * branch); orig is the sample.  Returns the branch of the entry
 * credited (the first branch that made it), or NULL when the sample is
 * skipped.
 */
const struct ses_branch *
rep_report_add_branch(struct rep_report *rep, const struct ses_sample *s,
		      const struct ses_sample *orig)
{
	const struct rep_hent *e = add_direct(rep, s, orig, NULL);

	return e ? e->branch : NULL;
}

const struct rep_mem *
rep_report_add_one(struct rep_report *rep, const struct ses_sample *s,
		   const struct rep_mem *mem)
{
	const struct rep_hent *e = add_direct(rep, s, s, mem);

	return e ? e->mem : NULL;
}
