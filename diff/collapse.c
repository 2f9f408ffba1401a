/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * diff/collapse.c - a file's entries as perf diff collapses them.  In
 * diff mode perf 6.1 compares symbols by name, not address, when it
 * collapses a histogram and pairs entries across files (util/sort.c
 * gives the sym key sort__sym_sort as its collapse for SORT_MODE__DIFF:
 * the files may come from different binaries), so entries of one name
 * become one, and every address without a symbol in a DSO one entry.
 * hists__collapse_resort() keeps the first of them in the order of the
 * histogram's own tree (the keys' cmp, which is no order for addresses
 * without a symbol: the tree is built as perf builds it) and adds the
 * others' periods.
 */
#include "config.h"

#include <stdlib.h>

#include "diff/diff.h"
#include "lib/xalloc.h"
#include "report/hist/hist-int.h"

static const struct rep_report *sort_rep;
static const struct rep_hist *sort_hist;

/* The collapsed tree, ties in the order entries were inserted. */
static int
collapsed_order(const void *a, const void *b)
{
	const size_t *x = a, *y = b;
	int c = -rep_hent_cmp_by_name(sort_rep, &sort_hist->ents[x[0]],
				    &sort_hist->ents[y[0]]);

	if (c)
		return c;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

struct pdiff_ent *
pdiff_collapse(const struct rep_report *rep, const struct rep_hist *h,
	       size_t *nr)
{
	size_t n = h->nr, i, k = 0;
	size_t *idx = rep_hist_key_order(rep, h);
	size_t *pos = xcalloc(2 * (n ? n : 1), sizeof(size_t));
	struct pdiff_ent *out = xcalloc(n ? n : 1, sizeof(*out));

	sort_rep = rep;
	sort_hist = h;
	for (i = 0; i < n; i++) {
		pos[2 * i] = idx[i];
		pos[2 * i + 1] = i;
	}
	if (n)
		qsort(pos, n, 2 * sizeof(size_t), collapsed_order);
	for (i = 0; i < n; i++) {
		const struct rep_hent *e = &h->ents[pos[2 * i]];
		uint64_t period = h->vals[pos[2 * i]].period;

		if (k && !rep_hent_cmp_by_name(rep, out[k - 1].he, e)) {
			out[k - 1].period += period;
			continue;
		}
		out[k].he = e;
		out[k].period = period;
		k++;
	}
	free(idx);
	free(pos);
	*nr = k;
	return out;
}
