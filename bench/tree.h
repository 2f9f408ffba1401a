/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * bench/tree.h - what bench/tree.c and its libraries (bench/tree-dso.c)
 * both compute: a seed's mix, and the leaves' arithmetic.
 */
#ifndef PD_BENCH_TREE_H
#define PD_BENCH_TREE_H

static inline __attribute__((always_inline)) unsigned long
mix(unsigned long x)
{
	x ^= x >> 31;
	x *= 0x9e3779b97f4a7c15UL;
	return x ^ (x >> 29);
}

/* a leaf's work: 300 steps of a linear congruential generator */
static inline __attribute__((always_inline)) unsigned long
lcg300(unsigned long x)
{
	unsigned long i;

	for (i = 0; i < 300; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

#endif /* PD_BENCH_TREE_H */
