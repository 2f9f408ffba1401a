/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * export/pprof.c - pexport --to pprof: each recording's profile
 * (stacks.h) added to one pprof profile (pprof.h), then written by
 * pprof-write.c.  Mappings are the recorded maps, locations their
 * addresses, functions the symbols with the source file the symbol
 * layer's srcline gives; samples carry their count, their event's
 * period and pid, tid, comm, cpu and event labels (doc/pexport.1: PPROF).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "export/export.h"
#include "export/pprof.h"
#include "lib/xalloc.h"
#include "pdata/abi.h"
#include "pdata/meta.h"
#include "symbol/symbol.h"

typedef bool pp_eq_fn(const struct pp_profile *pp, const struct pp_table *t,
		      size_t i, const void *e);

/*
 * The slot of the entry equal to e, or the empty slot where it goes;
 * entries whose keys collide move on to a re-mixed key.
 */
static uint64_t *
table_slot(const struct pp_profile *pp, struct pp_table *t, uint64_t key,
	   pp_eq_fn *eq, const void *e)
{
	uint64_t *slot = u64map_slot(&t->by_key, key);

	while (*slot && !eq(pp, t, *slot - 1, e)) {
		key = u64_mix(key + 1);
		slot = u64map_slot(&t->by_key, key);
	}
	return slot;
}

/* Append e (size bytes) at the empty slot; its index. */
static uint32_t
table_add(struct pp_table *t, uint64_t *slot, const void *e, size_t size)
{
	if (t->nr == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->v = xreallocarray(t->v, t->cap, size);
	}
	memcpy((char *)t->v + t->nr * size, e, size);
	*slot = ++t->nr;
	return (uint32_t)(t->nr - 1);
}

static bool
eq_bytes(const struct pp_profile *pp, const struct pp_table *t, size_t i,
	 const void *e, size_t size)
{
	(void)pp;
	return !memcmp((const char *)t->v + i * size, e, size);
}

/* Entries are compared whole: the structs have no padding. */
#define PP_EQ(type)							\
	static bool							\
	eq_##type(const struct pp_profile *pp, const struct pp_table *t, \
		  size_t i, const void *e)				\
	{								\
		return eq_bytes(pp, t, i, e, sizeof(struct pp_##type));	\
	}
PP_EQ(mapping)
PP_EQ(function)
PP_EQ(location)
PP_EQ(labels)

/* An entry of a table of structs: found, or added. */
static uint32_t
intern(struct pp_profile *pp, struct pp_table *t, const void *e, size_t size,
       pp_eq_fn *eq)
{
	uint64_t *slot = table_slot(pp, t, XXH3_64bits(e, size), eq, e);

	return *slot ? (uint32_t)(*slot - 1) : table_add(t, slot, e, size);
}

static bool
eq_string(const struct pp_profile *pp, const struct pp_table *t, size_t i,
	  const void *e)
{
	(void)pp;
	return !strcmp(((char *const *)t->v)[i], e);
}

static uint32_t
str(struct pp_profile *pp, const char *s)
{
	uint64_t *slot = table_slot(pp, &pp->strings, u64map_str_key(s),
				    eq_string, s);
	char *copy;

	if (*slot)
		return (uint32_t)(*slot - 1);
	copy = xstrdup(s);
	return table_add(&pp->strings, slot, &copy, sizeof(copy));
}

/* Types are one per event name: the unit of the first is kept. */
static bool
eq_type(const struct pp_profile *pp, const struct pp_table *t, size_t i,
	const void *e)
{
	(void)pp;
	return ((const struct pp_type *)t->v)[i].name ==
	       ((const struct pp_type *)e)->name;
}

static uint32_t
type_of(struct pp_profile *pp, const char *name, const char *unit)
{
	struct pp_type ty = { .name = str(pp, name), .unit = str(pp, unit) };
	uint64_t *slot = table_slot(pp, &pp->types,
				    XXH3_64bits(&ty.name, sizeof(ty.name)),
				    eq_type, &ty);

	return *slot ? (uint32_t)(*slot - 1) :
		table_add(&pp->types, slot, &ty, sizeof(ty));
}

struct stack_probe {
	const uint64_t *ids;
	size_t n;
};

static bool
eq_stack(const struct pp_profile *pp, const struct pp_table *t, size_t i,
	 const void *e)
{
	const struct stack_probe *q = e;
	const struct pp_stack *st = pp_stack(pp, (uint32_t)i);

	(void)t;
	return st->len == q->n && !memcmp(pp->stack_ids + st->start, q->ids,
					  q->n * sizeof(*q->ids));
}

/* The stack whose location ids are pp->stack_ids[from...]: found or kept. */
static uint32_t
stack_intern(struct pp_profile *pp, size_t from)
{
	struct stack_probe q = { pp->stack_ids + from, pp->nr_stack_ids - from };
	struct pp_stack st = { from, q.n };
	uint64_t *slot = table_slot(pp, &pp->stacks,
				    XXH3_64bits(q.ids, q.n * sizeof(*q.ids)),
				    eq_stack, &q);

	if (*slot) {
		pp->nr_stack_ids = from;
		return (uint32_t)(*slot - 1);
	}
	return table_add(&pp->stacks, slot, &st, sizeof(st));
}

static void
stack_push(struct pp_profile *pp, uint64_t id)
{
	if (pp->nr_stack_ids == pp->cap_stack_ids) {
		pp->cap_stack_ids = pp->cap_stack_ids ?
			pp->cap_stack_ids * 2 : 4096;
		pp->stack_ids = xreallocarray(pp->stack_ids, pp->cap_stack_ids,
					      sizeof(*pp->stack_ids));
	}
	pp->stack_ids[pp->nr_stack_ids++] = id;
}

static uint32_t
mapping_of(struct pp_profile *pp, const struct exp_profile *p,
	   const struct exp_loc *l)
{
	uint8_t bid[SYM_BUILD_ID_MAX];
	char hex[2 * SYM_BUILD_ID_MAX + 1] = "";
	size_t n = sym_dso_build_id(l->map->dso, bid);
	struct pp_mapping m;

	if (n)
		sym_build_id_hex(bid, n, hex);
	memset(&m, 0, sizeof(m));
	m.start = l->map->start;
	m.limit = l->map->end;
	m.offset = l->map->pgoff;
	m.file = str(pp, p->funcs[l->func].dso_name);
	m.build_id = n ? str(pp, hex) : 0;
	return 1 + intern(pp, &pp->mappings, &m, sizeof(m), eq_mapping);
}

/* A location's source line, from "file.c:42"; file 0 when unknown. */
struct srcpos {
	uint32_t file;
	int64_t line;
};

static struct srcpos
srcpos_of(struct pp_profile *pp, const struct exp_loc *l)
{
	const char *s = l->srcline ? l->srcline :
			sym_dso_srcline(l->map->dso, l->al_addr);
	const char *colon = s ? strrchr(s, ':') : NULL;
	struct srcpos sp = { 0, 0 };
	char *file;

	if (!colon || colon == s || !strncmp(s, "??:", 3))
		return sp;
	sp.line = strtoll(colon + 1, NULL, 10);
	file = xstrndup(s, (size_t)(colon - s));
	sp.file = str(pp, file);
	free(file);
	return sp;
}

/*
 * pp's location id of every location of p: the source lines first, so
 * that a function's file is the first one any of its locations knows.
 */
static uint64_t *
add_locations(struct pp_profile *pp, const struct exp_profile *p)
{
	struct srcpos *pos = xcalloc(p->nr_locs + 1, sizeof(*pos));
	uint32_t *func_file = xcalloc(p->nr_funcs + 1, sizeof(*func_file));
	uint64_t *ids = xcalloc(p->nr_locs + 1, sizeof(*ids));

	for (size_t i = 0; i < p->nr_locs; i++) {
		const struct exp_loc *l = &p->locs[i];

		if (!l->sym || !l->map)
			continue;
		pos[i] = srcpos_of(pp, l);
		if (!func_file[l->func])
			func_file[l->func] = pos[i].file;
	}
	for (size_t i = 0; i < p->nr_locs; i++) {
		const struct exp_loc *l = &p->locs[i];
		struct pp_location loc = { .address = l->ip,
					   .line = pos[i].line };
		struct pp_function f = { .file = func_file[l->func] };

		if (l->map)
			loc.mapping = mapping_of(pp, p, l);
		if (l->sym) {
			f.name = str(pp, exp_func_name(&p->funcs[l->func]));
			loc.function = 1 + intern(pp, &pp->functions, &f,
						  sizeof(f), eq_function);
		}
		ids[i] = 1 + intern(pp, &pp->locations, &loc, sizeof(loc),
				    eq_location);
	}
	free(pos);
	free(func_file);
	return ids;
}

/* Whether frame k of a stack is inlined into frame k + 1, at its address. */
static bool
inlined_into_next(const struct exp_profile *p, const uint32_t *locs,
		  size_t k, size_t n)
{
	const struct exp_loc *a = &p->locs[locs[k]], *b;

	if (k + 1 >= n || !a->sym || !a->sym->inlined || !a->srcline)
		return false;
	b = &p->locs[locs[k + 1]];
	return b->map == a->map && b->ip == a->ip;
}

/* The location of frame j's lines, then those of the location outer. */
static uint64_t
inline_location(struct pp_profile *pp, uint64_t own, uint64_t outer)
{
	struct pp_location l =
		((const struct pp_location *)pp->locations.v)[own - 1];

	l.outer = outer;
	return 1 + intern(pp, &pp->locations, &l, sizeof(l), eq_location);
}

/*
 * A stack's location ids: the frames one address was expanded into
 * (inline frames, then the function they are inlined into) make one
 * location with a line for each.
 */
static uint32_t
stack_of(struct pp_profile *pp, const struct exp_profile *p,
	 const uint64_t *loc_ids, uint32_t stack)
{
	const uint32_t *locs = exp_stack_locs(p, stack);
	size_t n = exp_stack_len(p, stack), from = pp->nr_stack_ids;

	if (!n) {
		/*
		 * An empty callchain (perf script prints no frame): the
		 * location of the sample's ip, where perf report counts it
		 * (pprof drops a sample without a location)
		 */
		stack_push(pp, loc_ids[p->stack_leaf[stack]]);
		return stack_intern(pp, from);
	}
	for (size_t k = 0; k < n; k++) {
		size_t first = k;
		uint64_t id;

		while (inlined_into_next(p, locs, k, n))
			k++;
		id = loc_ids[locs[k]];
		for (size_t j = k; j-- > first;)
			id = inline_location(pp, loc_ids[locs[j]], id);
		stack_push(pp, id);
	}
	return stack_intern(pp, from);
}

/*
 * The sample type of each event with kept samples (perf's dummy event of
 * -a and the events a filter emptied get none); its name, for the event
 * label.
 */
static uint32_t *
event_types(struct pp_profile *pp, struct pd_reader *r,
	    const struct exp_profile *p)
{
	size_t n = pd_reader_nr_evsels(r);
	uint32_t *types = xcalloc(n + 1, sizeof(*types));

	for (size_t i = 0; i < n && i < p->nr_evsels; i++) {
		const struct pd_evsel *ev = pd_reader_evsel(r, i);

		if (!p->evsel_samples[i])
			continue;

		types[i] = type_of(pp, pd_evsel_name(ev),
				   exp_period_in_ns(&ev->attr) ?
				   "nanoseconds" : "count");
	}
	return types;
}

static void
sample_add(struct pp_profile *pp, const struct pp_sample *s)
{
	if (pp->nr_samples == pp->cap_samples) {
		pp->cap_samples = pp->cap_samples ? pp->cap_samples * 2 : 1024;
		pp->samples = xreallocarray(pp->samples, pp->cap_samples,
					    sizeof(*pp->samples));
	}
	pp->samples[pp->nr_samples++] = *s;
}

static uint32_t
labels_of(struct pp_profile *pp, struct pd_reader *r, const struct exp_row *row,
	  uint32_t type)
{
	const struct pd_attr *a = &pd_reader_evsel(r, row->evsel)->attr;
	struct pp_labels lb;

	memset(&lb, 0, sizeof(lb));
	lb.pid = row->pid;
	lb.tid = row->tid;
	lb.comm = str(pp, row->comm ? row->comm : "");
	lb.event = ((const struct pp_type *)pp->types.v)[type].name;
	lb.cpu = (a->sample_type & PD_SAMPLE_CPU) && row->cpu != (uint32_t)-1 ?
		(int64_t)row->cpu : -1;
	return intern(pp, &pp->labels, &lb, sizeof(lb), eq_labels);
}

static void
add_rows(struct pp_profile *pp, struct exp_run *x, const uint64_t *loc_ids,
	 const uint32_t *types)
{
	const struct exp_profile *p = &x->profile;
	uint32_t *stacks = xmalloc((p->nr_stacks + 1) * sizeof(*stacks));

	memset(stacks, 0xff, (p->nr_stacks + 1) * sizeof(*stacks));
	for (size_t i = 0; i < p->nr_rows; i++) {
		const struct exp_row *row = &p->rows[i];
		struct pp_sample s = {
			.type = types[row->evsel],
			.samples = row->samples,
			.period = row->period,
		};

		if (stacks[row->stack] == UINT32_MAX)
			stacks[row->stack] = stack_of(pp, p, loc_ids,
						      row->stack);
		s.stack = stacks[row->stack];
		s.labels = labels_of(pp, x->r, row, s.type);
		sample_add(pp, &s);
	}
	free(stacks);
}

/*
 * The recording's span: its kept samples' first and last times; the
 * wall-clock start from CLOCK_DATA (perf record -k), else the file's
 * modification time less what followed the first kept sample.
 */
static void
add_times(struct pp_profile *pp, struct exp_run *x)
{
	const struct exp_profile *p = &x->profile;
	const struct pd_meta *m = pd_reader_meta(x->r);
	uint64_t last = m && m->last_sample_time > p->last_time ?
		m->last_sample_time : p->last_time;
	int64_t start;

	if (!p->samples)
		return;
	pp->duration_nanos += (int64_t)(p->last_time - p->first_time);
	if (m && m->clock_tod_ns)
		start = (int64_t)(m->clock_tod_ns + p->first_time -
				  m->clock_clockid_ns);
	else
		start = pd_reader_info(x->r)->mtime_sec * 1000000000LL -
			(int64_t)(last - p->first_time);
	if (!pp->time_nanos || start < pp->time_nanos)
		pp->time_nanos = start;
}

/*
 * The first recording's first event gives the period: its -c, or with
 * -F the mean period of its samples.
 */
static void
set_period(struct pp_profile *pp, struct exp_run *x, const uint32_t *types)
{
	const struct exp_profile *p = &x->profile;
	const struct pd_attr *a;
	int ev = p->first_evsel;

	if (pp->period_type || ev < 0)
		return;
	a = &pd_reader_evsel(x->r, (size_t)ev)->attr;
	pp->period_type = types[ev];
	if (!(a->flags & (1ULL << PD_ATTR_FREQ)))
		pp->period = (int64_t)a->sample_period;
	else if (p->evsel_samples[ev])
		pp->period = (int64_t)(p->evsel_period[ev] /
				       p->evsel_samples[ev]);
}

void *
exp_pprof_start(struct exp_run *x, struct exp_collect_opts *co)
{
	struct pp_profile *pp = xcalloc(1, sizeof(*pp));

	(void)x;
	co->by_cpu = true;
	str(pp, "");
	type_of(pp, "samples", "count");
	pp->key_pid = str(pp, "pid");
	pp->key_tid = str(pp, "tid");
	pp->key_comm = str(pp, "comm");
	pp->key_cpu = str(pp, "cpu");
	pp->key_event = str(pp, "event");
	/* pprof drops a number label 0 that has no unit: pid 0, CPU 0 */
	pp->num_unit = str(pp, "id");
	return pp;
}

int
exp_pprof_add(struct exp_run *x, void *state)
{
	struct pp_profile *pp = state;
	uint64_t *loc_ids = add_locations(pp, &x->profile);
	uint32_t *types = event_types(pp, x->r, &x->profile);

	add_rows(pp, x, loc_ids, types);
	add_times(pp, x);
	set_period(pp, x, types);
	free(loc_ids);
	free(types);
	return 0;
}

static void
table_free(struct pp_table *t)
{
	free(t->v);
	u64map_free(&t->by_key);
}

int
exp_pprof_finish(struct exp_run *x, void *state, bool write)
{
	struct pp_profile *pp = state;
	int ret = write ? pp_write(pp, x->out, x->output) : 0;

	for (size_t i = 0; i < pp->strings.nr; i++)
		free(((char **)pp->strings.v)[i]);
	table_free(&pp->strings);
	table_free(&pp->types);
	table_free(&pp->mappings);
	table_free(&pp->functions);
	table_free(&pp->locations);
	table_free(&pp->labels);
	table_free(&pp->stacks);
	free(pp->stack_ids);
	free(pp->samples);
	free(pp);
	return ret;
}
