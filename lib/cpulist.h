/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/cpulist.h - Linux cpu lists ("0-3,8,10-11"), as the kernel writes
 * them in /sys and as users give them on a command line.
 */
#ifndef PD_LIB_CPULIST_H
#define PD_LIB_CPULIST_H

#include <stddef.h>

/* The widest single range accepted, to bound what a list allocates. */
#define CPULIST_MAX_RANGE	(1L << 20)

/*
 * Parse s up to its end or first newline into a new sorted array without
 * duplicates (*out, free()), *nr entries; an empty list gives *nr 0.
 * Numbers above max, reversed or too wide ranges and any other text give
 * -EINVAL with *out NULL and *nr 0.
 */
int cpulist_parse(const char *s, int max, int **out, size_t *nr);

#endif /* PD_LIB_CPULIST_H */
