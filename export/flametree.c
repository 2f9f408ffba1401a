/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * export/flametree.c - the merged frames of a flame graph (flametree.h):
 * names interned with their class, a frame found from its parent and
 * name in one table look-up, each location's name made once per
 * profile, and the frames to draw in flamegraph.pl's order.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "export/flametree.h"
#include "lib/xalloc.h"

#define NAME_UNSET	UINT32_MAX
#define NAME_SKIPPED	(UINT32_MAX - 1)

static uint32_t
name_intern(struct exp_flame_tree *t, const char *text, size_t len,
	    enum exp_code code)
{
	char *s = xstrndup(text, len);
	uint64_t *slot = u64map_slot(&t->name_head,
				     u64_mix(u64map_str_key(s) ^ code));
	uint32_t i;

	for (i = (uint32_t)*slot; i; i = t->names[i - 1].next)
		if (t->names[i - 1].code == code &&
		    !strcmp(t->names[i - 1].text, s)) {
			free(s);
			return i - 1;
		}
	if (t->nr_names == t->cap_names) {
		t->cap_names = t->cap_names ? t->cap_names * 2 : 1024;
		t->names = xreallocarray(t->names, t->cap_names,
					 sizeof(*t->names));
	}
	t->names[t->nr_names] = (struct exp_flame_name){ s, code,
							 (uint32_t)*slot };
	*slot = ++t->nr_names;
	return (uint32_t)t->nr_names - 1;
}

/* (parent, name) is its own key: u64_mix() maps keys one to one. */
static uint32_t
child_of(struct exp_flame_tree *t, uint32_t parent, uint32_t name)
{
	uint64_t *slot = u64map_slot(&t->node_head,
				     u64_mix((uint64_t)parent << 32 | name));

	if (*slot)
		return (uint32_t)*slot - 1;
	if (t->nr_nodes == t->cap_nodes) {
		t->cap_nodes = t->cap_nodes * 2;
		t->nodes = xreallocarray(t->nodes, t->cap_nodes,
					 sizeof(*t->nodes));
	}
	t->nodes[t->nr_nodes] = (struct exp_flame_node){
		.name = name, .parent = parent,
		.depth = t->nodes[parent].depth + 1,
	};
	*slot = ++t->nr_nodes;
	return (uint32_t)t->nr_nodes - 1;
}

void
exp_flame_tree_init(struct exp_flame_tree *t, const char *event)
{
	*t = (struct exp_flame_tree){
		.event = xstrdup(event),
		.name_head = U64MAP_INIT,
		.node_head = U64MAP_INIT,
		.cap_nodes = 1024,
	};
	t->nodes = xreallocarray(NULL, t->cap_nodes, sizeof(*t->nodes));
	t->nodes[0] = (struct exp_flame_node){ .name = 0 };
	t->nr_nodes = 1;
	name_intern(t, "all", 3, EXP_CODE_USER);
}

void
exp_flame_tree_free(struct exp_flame_tree *t)
{
	for (size_t i = 0; i < t->nr_names; i++)
		free(t->names[i].text);
	free(t->names);
	free(t->nodes);
	free(t->event);
	u64map_free(&t->name_head);
	u64map_free(&t->node_head);
}

/* What one exp_flame_tree_add() keeps while it reads a profile. */
struct adder {
	struct exp_flame_tree *t;
	const struct exp_profile *p;
	struct exp_opts o;		/* without --annotate: names bare */
	uint32_t *loc_name;		/* 2 a location: java comm or not */
	struct strbuf sb;
	struct exp_frame_scratch tmp;
	bool period, old;
};

static uint32_t
loc_name(struct adder *a, uint32_t loc, bool java)
{
	uint32_t *v = &a->loc_name[2 * (size_t)loc + java];
	int code;

	if (*v != NAME_UNSET)
		return *v;
	sb_reset(&a->sb);
	code = exp_collapsed_frame(&a->sb, &a->tmp, a->p, &a->p->locs[loc],
				   &a->o, java);
	*v = code < 0 ? NAME_SKIPPED :
		name_intern(a->t, sb_str(&a->sb), a->sb.len,
			    (enum exp_code)code);
	return *v;
}

static void
count(struct adder *a, uint32_t node, uint64_t w)
{
	if (a->old)
		a->t->nodes[node].old += w;
	else
		a->t->nodes[node].value += w;
}

/* The process frame: split at ';' as flamegraph.pl splits a line. */
static uint32_t
add_pname(struct adder *a, const struct exp_row *r, uint64_t w)
{
	uint32_t node = 0;
	const char *s;

	sb_reset(&a->sb);
	exp_collapsed_pname(&a->sb, r, &a->o);
	s = sb_str(&a->sb);
	for (;;) {
		size_t len = strcspn(s, ";");

		node = child_of(a->t, node,
				name_intern(a->t, s, len, EXP_CODE_USER));
		count(a, node, w);
		if (!s[len])
			return node;
		s += len + 1;
	}
}

static void
add_row(struct adder *a, const struct exp_row *r)
{
	const uint32_t *locs = exp_stack_locs(a->p, r->stack);
	size_t n = exp_stack_len(a->p, r->stack);
	bool java = !strncmp(r->comm, "java", 4);
	uint64_t w = a->period ? r->period : r->samples;
	uint32_t node;

	count(a, 0, w);
	node = add_pname(a, r, w);
	while (n--) {
		uint32_t name = loc_name(a, locs[n], java);

		if (name == NAME_SKIPPED)
			continue;
		node = child_of(a->t, node, name);
		count(a, node, w);
	}
	if (a->old)
		a->t->nodes[node].old_self += w;
	else
		a->t->nodes[node].self += w;
}

void
exp_flame_tree_add(struct exp_flame_tree *t, const struct exp_profile *p,
		   unsigned int evsel, const struct exp_opts *o,
		   bool period, bool old)
{
	struct adder a = {
		.t = t, .p = p, .o = *o, .period = period, .old = old,
		.sb = STRBUF_INIT, .tmp = { STRBUF_INIT, STRBUF_INIT },
	};

	a.o.annotate = false;
	a.loc_name = xreallocarray(NULL, 2 * p->nr_locs + 1,
				   sizeof(*a.loc_name));
	memset(a.loc_name, 0xff, (2 * p->nr_locs + 1) * sizeof(*a.loc_name));
	for (size_t i = 0; i < p->nr_rows; i++)
		if (p->rows[i].evsel == evsel)
			add_row(&a, &p->rows[i]);
	if (old)
		t->old_period = period;
	else
		t->period = period;
	free(a.loc_name);
	sb_free(&a.sb);
	sb_free(&a.tmp.line);
	sb_free(&a.tmp.name);
}

/* A node under its parent, ordered by its name's rank. */
struct keyed {
	uint64_t key;			/* parent << 32 | rank of the name */
	uint32_t node;
};

static int
keyed_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct keyed *)a)->key;
	uint64_t y = ((const struct keyed *)b)->key;

	return x < y ? -1 : x > y;
}

static int
name_cmp(const void *a, const void *b)
{
	const struct exp_flame_name *const *pa = a, *const *pb = b;
	const struct exp_flame_name *x = *pa, *y = *pb;
	int c = strcmp(x->text, y->text);

	return c ? c : (int)x->code - (int)y->code;
}

/* rank[name]: its place in bytewise name order */
static uint32_t *
name_ranks(const struct exp_flame_tree *t)
{
	const struct exp_flame_name **v = xreallocarray(NULL, t->nr_names,
							sizeof(*v));
	uint32_t *rank = xreallocarray(NULL, t->nr_names, sizeof(*rank));

	for (size_t i = 0; i < t->nr_names; i++)
		v[i] = &t->names[i];
	qsort(v, t->nr_names, sizeof(*v), name_cmp);
	for (size_t i = 0; i < t->nr_names; i++)
		rank[v[i] - t->names] = (uint32_t)i;
	free(v);
	return rank;
}

/*
 * Children of each node, in name order: kids[first[n] .. first[n + 1])
 * (first has nr_nodes + 1 entries).
 */
static uint32_t *
children(const struct exp_flame_tree *t, size_t **first_out)
{
	size_t n = t->nr_nodes;
	uint32_t *rank = name_ranks(t);
	struct keyed *k = xreallocarray(NULL, n, sizeof(*k));
	uint32_t *kids = xreallocarray(NULL, n, sizeof(*kids));
	size_t *first = xcalloc(n + 1, sizeof(*first));

	for (size_t i = 1; i < n; i++) {
		k[i - 1] = (struct keyed){
			(uint64_t)t->nodes[i].parent << 32 |
			rank[t->nodes[i].name], (uint32_t)i };
		first[t->nodes[i].parent + 1]++;
	}
	qsort(k, n - 1, sizeof(*k), keyed_cmp);
	for (size_t i = 0; i + 1 < n; i++)
		kids[i] = k[i].node;
	for (size_t i = 1; i <= n; i++)
		first[i] += first[i - 1];
	free(k);
	free(rank);
	*first_out = first;
	return kids;
}

void
exp_flame_tree_order(const struct exp_flame_tree *t, double min,
		     struct exp_flame_order *out)
{
	size_t *first;
	uint32_t *kids = children(t, &first);
	/* a node to visit, with bit 31 set under a dropped frame */
	uint32_t *stack = xreallocarray(NULL, t->nr_nodes, sizeof(*stack));
	size_t sp = 0;

	*out = (struct exp_flame_order){
		.nodes = xreallocarray(NULL, t->nr_nodes, sizeof(uint32_t)),
	};
	stack[sp++] = 0;
	while (sp) {
		uint32_t v = stack[--sp], node = v & ~(1u << 31);
		const struct exp_flame_node *f = &t->nodes[node];
		bool dropped = v >> 31;

		if (!f->value && node)
			continue;
		if (!dropped && node && (double)f->value < min) {
			dropped = true;
			out->dropped_value += f->value;
		}
		if (dropped)
			out->dropped++;
		else
			out->nodes[out->nr++] = node;
		for (size_t i = first[node + 1]; i-- > first[node];)
			stack[sp++] = kids[i] | (uint32_t)dropped << 31;
	}
	free(stack);
	free(kids);
	free(first);
}
