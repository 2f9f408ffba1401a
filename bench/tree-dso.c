/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * bench/tree-dso.c - one of the shared libraries of bench/tree.c's
 * "dsos" workload, built once per library with -DDSO=N so that each has
 * its own function names: its entry goes down a few frames of its own,
 * then calls the entry of the library its seed names, until the depth
 * runs out.
 */
#include "tree.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define NAME(f) CAT(CAT(dso, DSO), CAT(_, f))

typedef unsigned long dso_fn(unsigned long seed, int depth, void *table,
			     int n);

unsigned long tree_dso_entry(unsigned long seed, int depth, void *table,
			     int n);

static unsigned long __attribute__((noinline))
NAME(leaf)(unsigned long x)
{
	return lcg300(x);
}

static unsigned long __attribute__((noinline))
NAME(cross)(unsigned long seed, int depth, void *table, int n)
{
	unsigned long next = mix(seed + DSO);

	if (depth <= 0)
		return NAME(leaf)(seed);
	return ((dso_fn **)table)[next % (unsigned long)n](next, depth - 1,
							  table, n) ^ DSO;
}

static unsigned long __attribute__((noinline))
NAME(inner)(unsigned long seed, int depth, void *table, int n)
{
	return NAME(cross)(seed, depth - 1, table, n) ^ 1;
}

static unsigned long __attribute__((noinline))
NAME(outer)(unsigned long seed, int depth, void *table, int n)
{
	return (seed & 1 ? NAME(inner)(seed, depth - 1, table, n)
			 : NAME(cross)(seed, depth - 1, table, n)) ^ 2;
}

unsigned long
tree_dso_entry(unsigned long seed, int depth, void *table, int n)
{
	return NAME(outer)(seed, depth, table, n) ^ 3;
}
