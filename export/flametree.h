/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * export/flametree.h - the merged frames of a flame graph, as
 * flamegraph.pl merges folded stacks: a root ("all"), then the process
 * frame (the comm, as stackcollapse-perf.pl writes it), then the stack
 * from its root to its leaf; frames of one parent merge when their names
 * and classes (kernel, JIT, inlined: the script's annotations) are equal.
 * Each frame sums the counts of the stacks through it (value) and of
 * those ending in it (self); --diff adds an old recording's counts.
 *
 * Ownership: the tree copies every name; it keeps nothing of a profile
 * or its session after exp_flame_tree_add() returns.
 */
#ifndef PD_EXPORT_FLAMETREE_H
#define PD_EXPORT_FLAMETREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "export/export.h"
#include "lib/u64map.h"

struct exp_flame_name {
	char *text;			/* without an annotation */
	enum exp_code code;
	uint32_t next;			/* 1 + next name with the same hash */
};

struct exp_flame_node {
	uint32_t name;			/* index in the tree's names */
	uint32_t parent;		/* the root's is 0, itself */
	uint32_t depth;			/* the root's is 0 */
	uint32_t next;			/* 1 + next node with the same hash */
	uint64_t value, self;		/* the recording's */
	uint64_t old, old_self;		/* --diff: the old recording's */
};

struct exp_flame_tree {
	char *event;			/* the event's name */
	struct exp_flame_name *names;	/* names[0]: the root's, "all" */
	size_t nr_names, cap_names;
	struct exp_flame_node *nodes;	/* nodes[0]: the root */
	size_t nr_nodes, cap_nodes;
	struct u64map name_head;	/* hash -> 1 + first name */
	struct u64map node_head;	/* hash of (parent, name) -> 1 + node */
	bool period, old_period;	/* the counts are periods */
};

void exp_flame_tree_init(struct exp_flame_tree *t, const char *event);
void exp_flame_tree_free(struct exp_flame_tree *t);

/*
 * Add the rows of event evsel of p, counting periods or samples, to the
 * recording's counts, or to the old ones when old.
 */
void exp_flame_tree_add(struct exp_flame_tree *t, const struct exp_profile *p,
			unsigned int evsel, const struct exp_opts *o,
			bool period, bool old);

/* The frames to draw (exp_flame_tree_order()). */
struct exp_flame_order {
	uint32_t *nodes;		/* depth first, siblings by name */
	size_t nr;
	uint64_t dropped;		/* frames narrower than the minimum */
	uint64_t dropped_value;		/* the counts below the cut */
};

/*
 * The frames whose value is at least min, the root always; frames with
 * no count of the recording (an old recording's alone) are not frames of
 * the graph and are not counted as dropped.
 */
void exp_flame_tree_order(const struct exp_flame_tree *t, double min,
			  struct exp_flame_order *out);

#endif /* PD_EXPORT_FLAMETREE_H */
