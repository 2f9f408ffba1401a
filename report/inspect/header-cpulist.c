/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/header-cpulist.c - cpu lists, read as perf 6.1's
 * perf_cpu_map__new() reads them and written as cpu_map__snprint()
 * writes them.
 */
#include "config.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "report/inspect/header-int.h"

static int
range_cmp(const void *a, const void *b)
{
	const struct rep_cpu_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * Parse s into sorted, non-overlapping ranges.  Returns false where perf
 * gets no map (a bad list or a repeated cpu); "" gives the one-cpu map
 * {-1}, which *dummy reports.
 */
bool
rep_cpulist_parse(const char *s, struct rep_cpu_range **out, size_t *nr,
		  bool *dummy)
{
	struct rep_cpu_range *r;
	size_t n = 0, i;

	*out = NULL;
	*nr = 0;
	*dummy = false;
	if (!*s) {
		*dummy = true;
		return true;
	}
	if (!isdigit((unsigned char)*s))
		return false;
	r = xcalloc(strlen(s) / 2 + 1, sizeof(*r));
	while (isdigit((unsigned char)*s)) {
		char *p;
		unsigned long start = strtoul(s, &p, 0), end = start;

		if (start >= INT_MAX || (*p && *p != ',' && *p != '-'))
			goto bad;
		if (*p == '-') {
			s = p + 1;
			end = strtoul(s, &p, 0);
			if (end >= INT_MAX || (*p && *p != ',') || end < start)
				goto bad;
		}
		r[n].start = start;
		r[n].end = end;
		n++;
		if (*p)
			p++;
		s = p;
	}
	qsort(r, n, sizeof(*r), range_cmp);
	for (i = 1; i < n; i++)
		if (r[i].start <= r[i - 1].end)
			goto bad;
	*out = r;
	*nr = n;
	return true;
bad:
	free(r);
	return false;
}

/* cpu_map__snprint() into a 1024-byte buffer */
void
rep_cpulist_print(FILE *out, const struct rep_cpu_range *r, size_t nr,
		  bool dummy)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0;

	if (dummy)
		sb_add(&sb, "-1");
	while (i < nr) {
		unsigned long start = r[i].start, end = r[i].end;

		while (i + 1 < nr && r[i + 1].start == end + 1)
			end = r[++i].end;
		if (start == end)
			sb_addf(&sb, "%s%lu", sb.len ? "," : "", start);
		else
			sb_addf(&sb, "%s%lu-%lu", sb.len ? "," : "", start,
				end);
		i++;
	}
	fprintf(out, "%.1023s\n", sb.len ? sb_str(&sb) : "");
	sb_free(&sb);
}
