/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * lib/cpulist.c - parsing Linux cpu lists.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "lib/cpulist.h"
#include "lib/xalloc.h"

static int
range_add(int **v, size_t *nr, size_t *cap, long lo, long hi, int max)
{
	long c;

	if (lo < 0 || hi < lo || hi > max || hi - lo > CPULIST_MAX_RANGE)
		return -EINVAL;
	for (c = lo; c <= hi; c++) {
		if (*nr == *cap) {
			*cap = *cap ? 2 * *cap : 16;
			*v = xreallocarray(*v, *cap, sizeof(**v));
		}
		(*v)[(*nr)++] = (int)c;
	}
	return 0;
}

static int
int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Sort v and drop repeats; returns the new count. */
static size_t
sort_unique(int *v, size_t n)
{
	size_t i, j;

	if (n)
		qsort(v, n, sizeof(*v), int_cmp);
	for (i = j = 0; i < n; i++)
		if (!j || v[j - 1] != v[i])
			v[j++] = v[i];
	return j;
}

int
cpulist_parse(const char *s, int max, int **out, size_t *nr)
{
	size_t cap = 0, n = 0;
	int *v = NULL;

	while (*s && *s != '\n') {
		char *end;
		long lo, hi;

		if (!isdigit((unsigned char)*s))
			goto bad;
		lo = strtol(s, &end, 10);
		hi = lo;
		if (*end == '-') {
			s = end + 1;
			if (!isdigit((unsigned char)*s))
				goto bad;
			hi = strtol(s, &end, 10);
		}
		if (range_add(&v, &n, &cap, lo, hi, max))
			goto bad;
		s = end;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			goto bad;
	}
	*out = v;
	*nr = sort_unique(v, n);
	return 0;
bad:
	free(v);
	*out = NULL;
	*nr = 0;
	return -EINVAL;
}
