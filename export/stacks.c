/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * export/stacks.c - the profile of the stack exports (stacks.h): every
 * kept sample reduced to a row, stacks, locations and functions interned
 * in hash tables (lib/u64map.h keyed by a hash, each entry chaining to
 * the next with the same hash), and the session's stack ids mapped to
 * rows so that a repeated stack is never resolved or hashed again.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "export/stacks.h"
#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "pdata/abi.h"
#include "script/dsoname.h"

/* A hash table of indexes: hash -> 1 + first index; next[i]: 1 + next. */
struct chain {
	struct u64map head;
	uint32_t *next;
	size_t cap;
};

struct exp_profile_index {
	struct chain funcs, locs, stacks, rows;
	/* session stack id -> 1 + row, or ROW_DROPPED; 0: not seen */
	uint32_t *id_row;
	size_t nr_ids;
	size_t locs_cap, funcs_cap, rows_cap, stack_words_cap, stacks_cap;
	struct pd_reader *r;
	const struct pd_meta *meta;	/* for perf script's DSO names */
	uint32_t *scratch;		/* the stack being built */
	size_t scratch_cap;
};

#define ROW_DROPPED	UINT32_MAX

/* The first index with this hash, or UINT32_MAX. */
static uint32_t
chain_first(const struct chain *c, uint64_t hash)
{
	uint64_t *v = u64map_find(&c->head, hash);

	return v ? (uint32_t)(*v - 1) : UINT32_MAX;
}

static uint32_t
chain_next(const struct chain *c, uint32_t i)
{
	return c->next[i] ? c->next[i] - 1 : UINT32_MAX;
}

/* Put index i (the newest) at the head of its hash's chain. */
static void
chain_add(struct chain *c, uint64_t hash, uint32_t i)
{
	uint64_t *v = u64map_slot(&c->head, hash);

	if (i >= c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 1024;

		while (cap <= i)
			cap *= 2;
		c->next = xreallocarray(c->next, cap, sizeof(*c->next));
		c->cap = cap;
	}
	c->next[i] = (uint32_t)*v;
	*v = (uint64_t)i + 1;
}

static void
chain_free(struct chain *c)
{
	u64map_free(&c->head);
	free(c->next);
}

/* Room for one more of an array of size each. */
static void *
grow(void *v, size_t nr, size_t *cap, size_t size)
{
	if (nr < *cap)
		return v;
	*cap = *cap ? *cap * 2 : 256;
	return xreallocarray(v, *cap, size);
}

static uint64_t
hash_words(const void *p, size_t len)
{
	return XXH3_64bits(p, len);
}

static enum exp_code
code_of(const struct ses_loc *l)
{
	if (l->level == 'k' || l->level == 'g')
		return EXP_CODE_KERNEL;
	if (l->dso && sym_dso_kind(l->dso) == SYM_DSO_JIT)
		return EXP_CODE_JIT;
	if (l->sym && l->sym->inlined)
		return EXP_CODE_INLINED;
	return EXP_CODE_USER;
}

static uint32_t
func_intern(struct exp_profile *p, const struct ses_loc *l)
{
	struct exp_profile_index *ix = p->index;
	struct exp_func f = {
		.name = l->sym ? l->sym->name : NULL,
		.dso = l->map ? l->dso : NULL,
		.code = code_of(l),
	};
	uint64_t key[3] = { (uintptr_t)f.name, (uintptr_t)f.dso, f.code };
	uint64_t h = hash_words(key, sizeof(key));
	uint32_t i;

	for (i = chain_first(&ix->funcs, h); i != UINT32_MAX;
	     i = chain_next(&ix->funcs, i)) {
		const struct exp_func *g = &p->funcs[i];

		if (g->name == f.name && g->dso == f.dso && g->code == f.code)
			return i;
	}
	p->funcs = grow(p->funcs, p->nr_funcs, &ix->funcs_cap,
			sizeof(*p->funcs));
	i = (uint32_t)p->nr_funcs++;
	f.dso_name = scr_dso_name(ix->meta, l);
	p->funcs[i] = f;
	chain_add(&ix->funcs, h, i);
	return i;
}

static uint32_t
loc_intern(struct exp_profile *p, const struct ses_loc *l)
{
	struct exp_profile_index *ix = p->index;
	uint64_t key[3] = { (uintptr_t)l->map, l->ip, (uintptr_t)l->sym };
	uint64_t h = hash_words(key, sizeof(key));
	uint32_t i;

	for (i = chain_first(&ix->locs, h); i != UINT32_MAX;
	     i = chain_next(&ix->locs, i)) {
		const struct exp_loc *m = &p->locs[i];

		if (m->map == l->map && m->ip == l->ip &&
		    p->funcs[m->func].name == (l->sym ? l->sym->name : NULL))
			return i;
	}
	p->locs = grow(p->locs, p->nr_locs, &ix->locs_cap, sizeof(*p->locs));
	i = (uint32_t)p->nr_locs++;
	p->locs[i] = (struct exp_loc){
		.map = l->map, .ip = l->ip, .al_addr = l->al_addr,
		.sym = l->sym, .func = func_intern(p, l),
		.srcline = l->srcline,
	};
	chain_add(&ix->locs, h, i);
	return i;
}

static void
scratch_push(struct exp_profile_index *ix, size_t *n, uint32_t loc)
{
	ix->scratch = grow(ix->scratch, *n, &ix->scratch_cap,
			   sizeof(*ix->scratch));
	ix->scratch[(*n)++] = loc;
}

static bool
stack_equal(const struct exp_profile *p, uint32_t i, const uint32_t *w,
	    size_t n, uint32_t leaf)
{
	return exp_stack_len(p, i) == n && p->stack_leaf[i] == leaf &&
	       !memcmp(exp_stack_locs(p, i), w, n * sizeof(*w));
}

/*
 * The sample's stack, leaf first: its callchain when its event samples
 * one (empty when perf's rules discarded it), else its ip.  An empty
 * stack keeps the ip's location as its leaf, where perf report counts
 * the sample.
 */
static uint32_t
stack_intern(struct exp_profile *p, const struct ses_sample *s)
{
	struct exp_profile_index *ix = p->index;
	size_t n = 0, words;
	uint32_t i, leaf = UINT32_MAX;
	uint64_t h;

	if (pd_reader_evsel(ix->r, s->evsel)->attr.sample_type &
	    PD_SAMPLE_CALLCHAIN)
		for (size_t k = 0; k < s->nr_chain; k++)
			scratch_push(ix, &n, loc_intern(p, &s->chain[k]));
	else
		scratch_push(ix, &n, loc_intern(p, &s->self));
	if (!n)
		leaf = loc_intern(p, &s->self);
	h = hash_words(ix->scratch, n * sizeof(*ix->scratch)) ^ leaf;
	for (i = chain_first(&ix->stacks, h); i != UINT32_MAX;
	     i = chain_next(&ix->stacks, i))
		if (stack_equal(p, i, ix->scratch, n, leaf))
			return i;
	words = p->nr_stacks ? p->stack_start[p->nr_stacks] : 0;
	if (ix->stack_words_cap < words + n) {
		while (ix->stack_words_cap < words + n)
			ix->stack_words_cap = ix->stack_words_cap ?
				ix->stack_words_cap * 2 : 4096;
		p->stack_locs = xreallocarray(p->stack_locs,
					      ix->stack_words_cap,
					      sizeof(*p->stack_locs));
	}
	memcpy(p->stack_locs + words, ix->scratch, n * sizeof(*ix->scratch));
	if (p->nr_stacks + 2 > ix->stacks_cap) {
		ix->stacks_cap = ix->stacks_cap ? ix->stacks_cap * 2 : 1024;
		p->stack_start = xreallocarray(p->stack_start, ix->stacks_cap,
					       sizeof(*p->stack_start));
		p->stack_leaf = xreallocarray(p->stack_leaf, ix->stacks_cap,
					      sizeof(*p->stack_leaf));
	}
	i = (uint32_t)p->nr_stacks++;
	p->stack_start[i] = words;
	p->stack_start[i + 1] = words + n;
	p->stack_leaf[i] = leaf;
	chain_add(&ix->stacks, h, i);
	return i;
}

static bool
row_matches(const struct exp_row *a, const struct exp_row *b)
{
	return a->evsel == b->evsel && a->pid == b->pid && a->tid == b->tid &&
	       a->comm == b->comm && a->cpu == b->cpu && a->stack == b->stack;
}

static uint32_t
row_intern(struct exp_profile *p, const struct ses_sample *s, bool by_cpu)
{
	struct exp_profile_index *ix = p->index;
	struct exp_row r = {
		.evsel = s->evsel, .pid = s->pid, .tid = s->tid,
		.comm = s->comm, .cpu = by_cpu ? s->cpu : (uint32_t)-1,
		.stack = stack_intern(p, s),
	};
	uint64_t key[5] = {
		r.evsel, ((uint64_t)(uint32_t)r.pid << 32) | (uint32_t)r.tid,
		(uintptr_t)r.comm, r.cpu, r.stack,
	};
	uint64_t h = hash_words(key, sizeof(key));
	uint32_t i;

	for (i = chain_first(&ix->rows, h); i != UINT32_MAX;
	     i = chain_next(&ix->rows, i))
		if (row_matches(&p->rows[i], &r))
			return i;
	p->rows = grow(p->rows, p->nr_rows, &ix->rows_cap, sizeof(*p->rows));
	i = (uint32_t)p->nr_rows++;
	p->rows[i] = r;
	chain_add(&ix->rows, h, i);
	return i;
}

/* What the stack key decides: the thread, the guest bit, --dsos, --symbols. */
static bool
stack_kept(const struct rep_filters *f, const struct ses_sample *s)
{
	if (s->filtered)
		return false;
	return !f || (rep_filter_keeps_thread(f, s->thread) &&
		      rep_filter_keeps_self(f, &s->self));
}

/* What each sample decides: -C and --time. */
static bool
sample_kept(const struct rep_filters *f, const struct ses_sample *s)
{
	if (!f)
		return true;
	if (f->cpus && (s->cpu >= f->nr_cpus || !f->cpus[s->cpu]))
		return false;
	return rep_filter_keeps_time(f, s->time);
}

static uint32_t *
id_slot(struct exp_profile_index *ix, uint64_t id)
{
	if (id >= ix->nr_ids) {
		size_t nr = ix->nr_ids ? ix->nr_ids : 4096;

		while (nr <= id)
			nr *= 2;
		ix->id_row = xreallocarray(ix->id_row, nr, sizeof(*ix->id_row));
		memset(ix->id_row + ix->nr_ids, 0,
		       (nr - ix->nr_ids) * sizeof(*ix->id_row));
		ix->nr_ids = nr;
	}
	return &ix->id_row[id];
}

/* The sample's row, or ROW_DROPPED; a repeat's from its stack id. */
static uint32_t
row_of(struct exp_profile *p, struct ses_session *ses, struct ses_event *ev,
       const struct exp_collect_opts *o)
{
	const struct ses_sample *s = ev->sample;
	uint32_t *slot = s->stack_id ? id_slot(p->index, s->stack_id) : NULL;
	uint32_t row;

	if (slot && *slot)
		return *slot == ROW_DROPPED ? ROW_DROPPED : *slot - 1;
	if (!s->resolved && ses_resolve_sample(ses, ev))
		return ROW_DROPPED;
	row = stack_kept(o->filt, s) ? row_intern(p, s, o->by_cpu) :
		ROW_DROPPED;
	if (slot)
		*slot = row == ROW_DROPPED ? ROW_DROPPED : row + 1;
	return row;
}

/* In pipe mode events arrive as the file is read. */
static void
evsels_grow(struct exp_profile *p, size_t nr)
{
	p->evsel_samples = xreallocarray(p->evsel_samples, nr,
					 sizeof(uint64_t));
	p->evsel_period = xreallocarray(p->evsel_period, nr, sizeof(uint64_t));
	memset(p->evsel_samples + p->nr_evsels, 0,
	       (nr - p->nr_evsels) * sizeof(uint64_t));
	memset(p->evsel_period + p->nr_evsels, 0,
	       (nr - p->nr_evsels) * sizeof(uint64_t));
	p->nr_evsels = nr;
}

static void
count(struct exp_profile *p, const struct ses_sample *s, uint32_t row,
      const struct exp_collect_opts *o)
{
	struct exp_row *r = &p->rows[row];

	r->samples++;
	r->period += s->period;
	if (s->evsel >= p->nr_evsels)
		evsels_grow(p, s->evsel + 1);
	p->evsel_samples[s->evsel]++;
	p->evsel_period[s->evsel] += s->period;
	if (!p->samples++)
		p->first_evsel = (int)s->evsel;
	if (s->time != (uint64_t)-1) {
		if (!p->first_time || s->time < p->first_time)
			p->first_time = s->time;
		if (s->time > p->last_time)
			p->last_time = s->time;
	}
	if (o->each)
		o->each(o->ctx, s, row);
}

/* A sample with PERF_SAMPLE_READ: one row per event that grew. */
static void
add_read_sample(struct exp_profile *p, const struct ses_sample *s,
		struct ses_session *ses, const struct exp_collect_opts *o)
{
	struct ses_sample one;
	size_t pos = 0;

	while (ses_read_split(ses, s, &pos, &one))
		if (stack_kept(o->filt, &one) && sample_kept(o->filt, &one))
			count(p, &one, row_intern(p, &one, o->by_cpu), o);
}

static void
add_sample(struct exp_profile *p, struct ses_session *ses,
	   struct ses_event *ev, const struct exp_collect_opts *o)
{
	const struct ses_sample *s = ev->sample;
	uint32_t row;

	if (s->raw && (s->raw->type & PD_SAMPLE_READ)) {
		add_read_sample(p, s, ses, o);
		return;
	}
	/* a repeat whose stack was never kept is resolved when it is */
	if (!sample_kept(o->filt, s))
		return;
	row = row_of(p, ses, ev, o);
	if (row != ROW_DROPPED)
		count(p, s, row, o);
}

int
exp_profile_collect(struct exp_profile *p, struct ses_session *ses,
		    struct pd_reader *r, const struct exp_collect_opts *o)
{
	struct ses_event ev;
	int err;

	p->index = xcalloc(1, sizeof(*p->index));
	p->index->r = r;
	p->index->meta = pd_reader_meta(r);
	p->first_evsel = -1;
	evsels_grow(p, pd_reader_nr_evsels(r));
	while ((err = ses_next(ses, &ev)) > 0)
		if (ev.kind == SES_SAMPLE)
			add_sample(p, ses, &ev, o);
	return err;
}

void
exp_profile_free(struct exp_profile *p)
{
	struct exp_profile_index *ix = p->index;

	if (ix) {
		chain_free(&ix->funcs);
		chain_free(&ix->locs);
		chain_free(&ix->stacks);
		chain_free(&ix->rows);
		free(ix->id_row);
		free(ix->scratch);
		free(ix);
	}
	free(p->funcs);
	free(p->locs);
	free(p->rows);
	free(p->stack_locs);
	free(p->stack_start);
	free(p->stack_leaf);
	free(p->evsel_samples);
	free(p->evsel_period);
	memset(p, 0, sizeof(*p));
}

const char *
exp_func_name(const struct exp_func *f)
{
	return f->name ? f->name : "[unknown]";
}

bool
exp_period_in_ns(const struct pd_attr *a)
{
	return a->type == PD_TYPE_SOFTWARE &&
	       (a->config == PD_SW_CPU_CLOCK || a->config == PD_SW_TASK_CLOCK);
}

int
exp_evsel_by_name(struct pd_reader *r, const char *name)
{
	for (size_t i = 0; i < pd_reader_nr_evsels(r); i++) {
		if (!strcmp(pd_evsel_name(pd_reader_evsel(r, i)), name))
			return (int)i;
	}
	return -1;
}
