/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/inline-index.c - the functions of one compilation unit by
 * address: every subprogram and inlined subroutine of its DIE tree, with
 * its address ranges and the function it sits in, read in one walk.
 * libdw's dwarf_getscopes() walks the unit's tree again for every
 * address; a unit such as CPython's ceval.c, thousands of inlined calls
 * deep, made that walk the whole cost of a report.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "lib/xalloc.h"
#include "symbol/inline-index.h"

/* deeper trees are cut: a crafted file must not exhaust the stack */
#define WALK_DEPTH_MAX	512

struct node {
	Dwarf_Off off;			/* the DIE */
	uint32_t parent;		/* index of the function around it */
	uint32_t depth;
};

struct range {
	Dwarf_Addr lo, hi;		/* [lo, hi) */
	uint32_t node;
	uint32_t depth;
};

struct inl_index {
	struct node *nodes;
	size_t nr_nodes, cap_nodes;
	struct range *ranges;		/* sorted by cmp_range() */
	size_t nr_ranges, cap_ranges;
};

static uint32_t
add_node(struct inl_index *x, Dwarf_Die *die, uint32_t parent,
	 uint32_t depth)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	uint32_t i;

	if (x->nr_nodes == x->cap_nodes) {
		x->cap_nodes = x->cap_nodes ? 2 * x->cap_nodes : 64;
		x->nodes = xreallocarray(x->nodes, x->cap_nodes,
					 sizeof(*x->nodes));
	}
	i = (uint32_t)x->nr_nodes++;
	x->nodes[i] = (struct node){ dwarf_dieoffset(die), parent, depth };
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (lo >= hi)
			continue;
		if (x->nr_ranges == x->cap_ranges) {
			x->cap_ranges = x->cap_ranges ? 2 * x->cap_ranges : 64;
			x->ranges = xreallocarray(x->ranges, x->cap_ranges,
						  sizeof(*x->ranges));
		}
		x->ranges[x->nr_ranges++] = (struct range){ lo, hi, i, depth };
	}
	return i;
}

static void
walk(struct inl_index *x, Dwarf_Die *die, uint32_t parent, uint32_t depth)
{
	Dwarf_Die child;
	uint32_t p;
	int tag;

	if (depth > WALK_DEPTH_MAX || dwarf_child(die, &child) != 0)
		return;
	do {
		tag = dwarf_tag(&child);
		p = parent;
		if (tag == DW_TAG_subprogram ||
		    tag == DW_TAG_inlined_subroutine)
			p = add_node(x, &child, parent, depth);
		if (dwarf_haschildren(&child) > 0)
			walk(x, &child, p, depth + 1);
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int
cmp_range(const void *pa, const void *pb)
{
	const struct range *a = pa, *b = pb;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	/*
	 * Functions side by side from one address (an assembly file's
	 * aliases): binutils takes the smallest range holding pc, of equal
	 * ones the last in the unit; innermost() takes the last that holds
	 * pc, so the larger and earlier sort first.
	 */
	if (a->hi != b->hi)
		return a->hi > b->hi ? -1 : 1;
	return (a->node > b->node) - (a->node < b->node);
}

struct inl_index *
inl_index_build(Dwarf_Die *cu)
{
	struct inl_index *x = xcalloc(1, sizeof(*x));

	walk(x, cu, UINT32_MAX, 0);
	if (x->nr_ranges > 1)
		qsort(x->ranges, x->nr_ranges, sizeof(*x->ranges), cmp_range);
	return x;
}

void
inl_index_free(struct inl_index *x)
{
	if (!x)
		return;
	free(x->nodes);
	free(x->ranges);
	free(x);
}

/*
 * The innermost function holding pc: nested ranges start no earlier than
 * those around them, so of the ranges holding pc the last in order is
 * the deepest.
 */
static uint32_t
innermost(const struct inl_index *x, Dwarf_Addr pc)
{
	size_t lo = 0, hi = x->nr_ranges;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->ranges[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0)
		if (pc < x->ranges[lo].hi)
			return x->ranges[lo].node;
	return UINT32_MAX;
}

int
inl_index_functions(const struct inl_index *x, Dwarf_Die *cu, Dwarf_Addr pc,
		    Dwarf_Die *out, int max)
{
	Dwarf *dbg = dwarf_cu_getdwarf(cu->cu);
	uint32_t i = innermost(x, pc);
	int n = 0;

	for (; i != UINT32_MAX && n < max; i = x->nodes[i].parent)
		if (!dwarf_offdie(dbg, x->nodes[i].off, &out[n++]))
			return 0;
	return n;
}
