/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * diff/table.c - the baseline's entries of one event with their pairs in
 * the other files, as perf 6.1's builtin-diff.c makes them: entries are
 * paired when their keys compare equal (hists__match), an entry of a
 * later file with no pair becomes a dummy row of the baseline
 * (hists__link), -b drops the rows with no pair (hists__baseline_only),
 * the values are computed (hists__precompute) and the rows put in the
 * order perf's output tree gives them (hists__output_resort with the
 * diff columns' comparisons first).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diff/diff.h"
#include "lib/xalloc.h"
#include "report/hist/hist-int.h"

static struct pdiff_row *
row_add(struct pdiff_table *t, const struct rep_hent *he, uint64_t period)
{
	struct pdiff_row *r;

	if (t->nr == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->rows = xreallocarray(t->rows, t->cap, sizeof(*t->rows));
	}
	r = &t->rows[t->nr++];
	memset(r, 0, sizeof(*r));
	r->he = he;
	r->period = period;
	r->filtered = !rep_hent_shown(he);
	r->pairs = xcalloc(t->nr_files, sizeof(*r->pairs));
	return r;
}

static const struct rep_report *rows_rep;

/* perf's collapsed trees: the entry that compares > 0 first. */
static int
row_key_cmp(const void *a, const void *b)
{
	const struct pdiff_row *x = a, *y = b;

	return -rep_hent_cmp_by_name(rows_rep, x->he, y->he);
}

/* hists__find_entry(): the entry of ents (nr, in order) like he, or -1. */
static long
ents_find(const struct pdiff_table *t, const struct pdiff_ent *ents,
	  size_t nr, const struct rep_hent *he)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = -rep_hent_cmp_by_name(t->rep, he, ents[mid].he);

		if (c == 0)
			return (long)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

static void
rows_sort(struct pdiff_table *t)
{
	rows_rep = t->rep;
	if (t->nr)
		qsort(t->rows, t->nr, sizeof(*t->rows), row_key_cmp);
}

/* hists__match(), then hists__link() unless -b, against file i's h. */
static void
table_pair_file(struct pdiff_table *t, const struct rep_report *rep,
		const struct rep_hist *h, size_t i)
{
	size_t nr, r, k, nr_base = t->nr;
	struct pdiff_ent *ents = pdiff_collapse(rep, h, &nr);
	bool *matched = xcalloc(nr ? nr : 1, sizeof(bool));

	for (r = 0; r < nr_base; r++) {
		long j = ents_find(t, ents, nr, t->rows[r].he);

		if (j < 0)
			continue;
		matched[j] = true;
		t->rows[r].pairs[i].has = true;
		t->rows[r].pairs[i].period = ents[j].period;
	}
	for (k = 0; !t->o->baseline_only && k < nr; k++) {
		struct pdiff_row *d;

		if (matched[k])
			continue;
		d = row_add(t, ents[k].he, 0);
		d->dummy = true;
		d->pairs[i].has = true;
		d->pairs[i].period = ents[k].period;
	}
	rows_sort(t);
	free(matched);
	free(ents);
}

static bool
row_has_pairs(const struct pdiff_table *t, const struct pdiff_row *r)
{
	size_t i;

	for (i = 1; i < t->nr_files; i++)
		if (r->pairs[i].has)
			return true;
	return false;
}

/* hists__baseline_only(): the rows no file pairs. */
static void
table_baseline_only(struct pdiff_table *t)
{
	size_t r, n = 0;

	for (r = 0; r < t->nr; r++) {
		if (row_has_pairs(t, &t->rows[r]))
			t->rows[n++] = t->rows[r];
		else
			free(t->rows[r].pairs);
	}
	t->nr = n;
}

uint64_t
pdiff_total(const struct pdiff_table *t, size_t i)
{
	return t->o->relative ? t->total_vis[i] : t->total[i];
}

uint64_t
pdiff_base_total(const struct pdiff_table *t)
{
	return t->o->relative ? t->base_total_vis : t->base_total;
}

/* hists__precompute(): every pair's delta, ratio and weighted diff. */
static void
table_compute(struct pdiff_table *t)
{
	double base = (double)pdiff_total(t, 0);
	size_t r, i;

	for (r = 0; r < t->nr; r++) {
		struct pdiff_row *row = &t->rows[r];

		for (i = 1; i < t->nr_files; i++) {
			struct pdiff_pair *p = &row->pairs[i];
			double old = row->period ? (double)row->period : 1.0;

			if (!p->has)
				continue;
			p->delta = (double)p->period * 100.0 /
				(double)pdiff_total(t, i) -
				(double)row->period * 100.0 / base;
			p->ratio = (double)p->period / old;
			p->wdiff = (int64_t)(p->period * (uint64_t)t->o->w2 -
					     row->period * (uint64_t)t->o->w1);
		}
	}
}

/* perf's cmp_doubles(): the larger first. */
static int
cmp_doubles(double l, double r)
{
	if (l > r)
		return -1;
	if (l < r)
		return 1;
	return 0;
}

static double
abs_double(double v)
{
	return v < 0 ? -v : v;
}

/* __hist_entry__cmp_compute(l, r), l and r being pairs. */
static int
compute_cmp(const struct pdiff_pair *l, const struct pdiff_pair *r,
	    enum pdiff_compute c)
{
	int64_t d;

	switch (c) {
	case PDIFF_DELTA:
		return cmp_doubles(l->delta, r->delta);
	case PDIFF_DELTA_ABS:
		return cmp_doubles(abs_double(l->delta), abs_double(r->delta));
	case PDIFF_RATIO:
		return cmp_doubles(l->ratio, r->ratio);
	default:
		d = (int64_t)((uint64_t)r->wdiff - (uint64_t)l->wdiff);
		return (d > 0) - (d < 0);
	}
}

static const struct pdiff_pair *
pair_of(const struct pdiff_row *r, size_t i)
{
	return r->pairs[i].has ? &r->pairs[i] : NULL;
}

/* -o's column: hist_entry__cmp_compute_idx(b, a), > 0 puts a first. */
static int
order_cmp(const struct pdiff_table *t, const struct pdiff_row *a,
	  const struct pdiff_row *b)
{
	const struct pdiff_pair *pl = pair_of(b, t->o->order);
	const struct pdiff_pair *pr = pair_of(a, t->o->order);
	enum pdiff_compute c = t->o->compute;

	if (!pl && !pr)
		return 0;
	if (!pl || !pr)
		return pl ? -1 : 1;
	if (c != PDIFF_DELTA && c != PDIFF_DELTA_ABS) {
		if (a->dummy && b->dummy)
			return 0;
		if (a->dummy || b->dummy)
			return b->dummy ? 1 : -1;
	}
	return compute_cmp(pl, pr, c);
}

/* File i's column: hist_entry__cmp_compute(b, a). */
static int
column_cmp(const struct pdiff_table *t, const struct pdiff_row *a,
	   const struct pdiff_row *b, size_t i)
{
	bool hl = row_has_pairs(t, b), hr = row_has_pairs(t, a);
	const struct pdiff_pair *pl, *pr;

	if (!hl && !hr)
		return 0;
	if (!hl || !hr)
		return hl ? -1 : 1;
	pl = pair_of(b, i);
	pr = pair_of(a, i);
	if (!pl && !pr)
		return 0;
	if (!pl || !pr)
		return pl ? -1 : 1;
	return compute_cmp(pl, pr, t->o->compute);
}

/*
 * perf's sort list in diff mode: -o's column, the baseline, each file's
 * column, the keys.
 */
static int
row_before(void *ctx, size_t ia, size_t ib)
{
	const struct pdiff_table *t = ctx;
	const struct pdiff_row *a = &t->rows[ia], *b = &t->rows[ib];
	size_t i;
	int c;

	if (t->o->order) {
		c = order_cmp(t, a, b);
		if (c)
			return c;
	}
	if (a->period != b->period)
		return a->period > b->period ? 1 : -1;
	for (i = 1; i < t->nr_files; i++) {
		c = column_cmp(t, a, b, i);
		if (c)
			return c;
	}
	return rep_hent_key_sort(t->rep, a->he, b->he);
}

/* output_resort(): the order, and the baseline's totals made anew. */
static void
table_resort(struct pdiff_table *t)
{
	size_t *seq = xcalloc(t->nr ? t->nr : 1, sizeof(size_t)), r;

	t->base_total = t->base_total_vis = 0;
	for (r = 0; r < t->nr; r++) {
		seq[r] = r;
		t->base_total += t->rows[r].period;
		if (!t->rows[r].filtered)
			t->base_total_vis += t->rows[r].period;
	}
	t->order = xcalloc(t->nr ? t->nr : 1, sizeof(size_t));
	rep_order_tree(t->nr, seq, row_before, t, t->order);
	free(seq);
}

void
pdiff_table_build(struct pdiff_table *t, const struct pdiff_opts *o,
		  struct pdiff_file *files, size_t nr_files, size_t e)
{
	const struct rep_hist *base = files[0].rep->hists[e];
	struct pdiff_ent *ents = NULL;
	size_t i, nr = 0;

	memset(t, 0, sizeof(*t));
	t->o = o;
	t->rep = files[0].rep;
	t->nr_files = nr_files;
	t->total = xcalloc(nr_files, sizeof(uint64_t));
	t->total_vis = xcalloc(nr_files, sizeof(uint64_t));
	t->total[0] = files[0].total[e];
	t->total_vis[0] = files[0].total_vis[e];
	if (base)
		ents = pdiff_collapse(t->rep, base, &nr);
	for (i = 0; i < nr; i++)
		row_add(t, ents[i].he, ents[i].period);
	free(ents);
	for (i = 1; i < nr_files; i++) {
		long m = pdiff_evsel_match(&files[0], e, &files[i]);
		const struct rep_hist *h;

		if (m < 0 || !(h = files[i].rep->hists[m]))
			continue;
		t->total[i] = files[i].total[m];
		t->total_vis[i] = files[i].total_vis[m];
		table_pair_file(t, files[i].rep, h, i);
	}
	if (o->baseline_only)
		table_baseline_only(t);
	table_compute(t);
	table_resort(t);
}

void
pdiff_table_free(struct pdiff_table *t)
{
	size_t r;

	for (r = 0; r < t->nr; r++)
		free(t->rows[r].pairs);
	free(t->rows);
	free(t->total);
	free(t->total_vis);
	free(t->order);
}
