/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/hist/hist-order.c - the order perf 6.1 prints entries in.
 *
 * perf walks its collapsed tree (entries in key order) and inserts each
 * entry into a red-black tree, to the left when the sort comparison puts
 * it first and to the right otherwise (util/hist.c,
 * __hists__insert_output_entry()).  With --children that comparison is
 * not transitive (the caller-above-callee rule applies only within one
 * thread), so the printed order depends on the tree's shape; this file
 * builds the same tree, with the standard red-black insertion that
 * lib/rbtree.c implements, and reads it in order.
 */
#include "config.h"

#include <stdlib.h>

#include "lib/xalloc.h"
#include "report/hist/hist-int.h"

#define NIL SIZE_MAX

struct rb {
	size_t *left, *right, *parent;
	bool *red;
	size_t root;
};

static void
rotate_left(struct rb *t, size_t x)
{
	size_t y = t->right[x];

	t->right[x] = t->left[y];
	if (t->left[y] != NIL)
		t->parent[t->left[y]] = x;
	t->parent[y] = t->parent[x];
	if (t->parent[x] == NIL)
		t->root = y;
	else if (t->left[t->parent[x]] == x)
		t->left[t->parent[x]] = y;
	else
		t->right[t->parent[x]] = y;
	t->left[y] = x;
	t->parent[x] = y;
}

static void
rotate_right(struct rb *t, size_t x)
{
	size_t y = t->left[x];

	t->left[x] = t->right[y];
	if (t->right[y] != NIL)
		t->parent[t->right[y]] = x;
	t->parent[y] = t->parent[x];
	if (t->parent[x] == NIL)
		t->root = y;
	else if (t->right[t->parent[x]] == x)
		t->right[t->parent[x]] = y;
	else
		t->left[t->parent[x]] = y;
	t->right[y] = x;
	t->parent[x] = y;
}

static bool
is_red(const struct rb *t, size_t n)
{
	return n != NIL && t->red[n];
}

/* The insertion fix-up of lib/rbtree.c (__rb_insert), case for case. */
static void
insert_fixup(struct rb *t, size_t n)
{
	while (n != t->root && is_red(t, t->parent[n])) {
		size_t p = t->parent[n], g = t->parent[p], u;

		if (p == t->left[g]) {
			u = t->right[g];
			if (is_red(t, u)) {
				t->red[p] = t->red[u] = false;
				t->red[g] = true;
				n = g;
				continue;
			}
			if (n == t->right[p]) {
				n = p;
				rotate_left(t, n);
				p = t->parent[n];
			}
			t->red[p] = false;
			t->red[g] = true;
			rotate_right(t, g);
		} else {
			u = t->left[g];
			if (is_red(t, u)) {
				t->red[p] = t->red[u] = false;
				t->red[g] = true;
				n = g;
				continue;
			}
			if (n == t->left[p]) {
				n = p;
				rotate_right(t, n);
				p = t->parent[n];
			}
			t->red[p] = false;
			t->red[g] = true;
			rotate_left(t, g);
		}
	}
	t->red[t->root] = false;
}

static void
rb_insert(struct rb *t, size_t e, rep_order_cmp_fn before, void *ctx)
{
	size_t cur = t->root, parent = NIL;
	bool left = false;

	while (cur != NIL) {
		parent = cur;
		left = before(ctx, e, cur) > 0;
		cur = left ? t->left[cur] : t->right[cur];
	}
	t->left[e] = t->right[e] = NIL;
	t->parent[e] = parent;
	t->red[e] = true;
	if (parent == NIL)
		t->root = e;
	else if (left)
		t->left[parent] = e;
	else
		t->right[parent] = e;
	insert_fixup(t, e);
}

/* In-order walk; returns how many entries were written to out. */
static size_t
rb_walk(const struct rb *t, size_t *out, size_t nr)
{
	size_t n = 0, cur = t->root;

	while (cur != NIL && t->left[cur] != NIL)
		cur = t->left[cur];
	while (cur != NIL && n < nr) {
		out[n++] = cur;
		if (t->right[cur] != NIL) {
			cur = t->right[cur];
			while (t->left[cur] != NIL)
				cur = t->left[cur];
		} else {
			size_t child = cur;

			cur = t->parent[cur];
			while (cur != NIL && t->right[cur] == child) {
				child = cur;
				cur = t->parent[cur];
			}
		}
	}
	return n;
}

void
rep_order_tree(size_t n, const size_t *seq, rep_order_cmp_fn before,
	       void *ctx, size_t *out)
{
	size_t cap = n ? n : 1, i;
	struct rb t = {
		.left = xcalloc(cap, sizeof(size_t)),
		.right = xcalloc(cap, sizeof(size_t)),
		.parent = xcalloc(cap, sizeof(size_t)),
		.red = xcalloc(cap, sizeof(bool)),
		.root = NIL,
	};

	for (i = 0; i < n; i++)
		rb_insert(&t, seq[i], before, ctx);
	rb_walk(&t, out, n);
	free(t.left);
	free(t.right);
	free(t.parent);
	free(t.red);
}

struct hist_sort_ctx {
	const struct rep_report *rep;
	const struct rep_hist *h;
	uint64_t *reached;	/* per entry, for the lazy keys; or NULL */
};

/*
 * perf's entries_in tree: a sample's entry goes left of an entry it
 * meets when the keys compare that one below it (hists__findnew_entry).
 */
static int
hist_key_before(void *ctx, size_t a, size_t b)
{
	const struct hist_sort_ctx *c = ctx;
	const struct rep_hent *ea = &c->h->ents[a], *eb = &c->h->ents[b];

	if (c->reached) {
		uint64_t m = rep_hent_cmp_reach(c->rep, eb, ea);

		/* perf's srcline and srcfile cmp work out both sides */
		c->reached[b] |= m;
		c->reached[a] |= m & (REP_REACH_SRCLINE | REP_REACH_SRCFILE);
	}
	return rep_hent_cmp(c->rep, eb, ea) < 0;
}

static size_t *
key_order(const struct rep_report *rep, const struct rep_hist *h,
	  uint64_t *reached)
{
	size_t cap = h->nr ? h->nr : 1, i;
	size_t *seq = xcalloc(cap, sizeof(*seq));
	size_t *idx = xcalloc(cap, sizeof(*idx));
	struct hist_sort_ctx c = { .rep = rep, .h = h, .reached = reached };

	for (i = 0; i < h->nr; i++)
		seq[i] = i;
	rep_order_tree(h->nr, seq, hist_key_before, &c, idx);
	/*
	 * perf collapses the tree when comm is a key: the entries, in
	 * order, go into another tree (of the same order where the keys
	 * are one) and meet its entries again; perf sorts the output from
	 * that tree
	 */
	if (rep->has_key[REP_DIM_COMM]) {
		rep_order_tree(h->nr, idx, hist_key_before, &c, seq);
		free(idx);
		return seq;
	}
	free(seq);
	return idx;
}

/*
 * Entry indexes in the order of perf's tree of keys, built as perf
 * builds it, entry by entry in the order samples made them: the keys'
 * comparison is not an order where it takes a difference of addresses
 * as a signed number (unresolved addresses of the kernel's and of user
 * space), and the tree's shape then decides.
 */
size_t *
rep_hist_key_order(const struct rep_report *rep, const struct rep_hist *h)
{
	return key_order(rep, h, NULL);
}

/*
 * Whether perf had an entry's srcline and srcfile when it went into the
 * output tree (its columns are sized by those alone): given by the
 * frame's cursor node, or worked out by a comparison that reached the
 * key, in the key trees on either side, in the output tree as the
 * entry inserted; an entry a second sample found was compared whole.
 */
static void
lazy_sized(struct rep_hist *h, const uint64_t *reached)
{
	size_t i;

	for (i = 0; i < h->nr; i++) {
		struct rep_hent *e = &h->ents[i];
		bool whole = e->hits > 0;

		e->srcline_sized = e->srcline_given || whole ||
			(reached[i] & REP_REACH_SRCLINE);
		e->srcfile_sized = whole || (reached[i] & REP_REACH_SRCFILE);
	}
}

/* perf's output tree: the entry inserted is the left one (hist_entry__sort). */
static int
hist_sort_before(void *ctx, size_t a, size_t b)
{
	const struct hist_sort_ctx *c = ctx;

	if (c->reached)
		c->reached[a] |= rep_hent_sort_reach(c->rep, c->h, a, b);
	return rep_hent_sort(c->rep, c->h, a, b);
}

/*
 * Every entry of h, filtered ones included (perf inserts them too, and
 * they shape the tree), in printing order, into out (h->nr slots); the
 * field keys' widths on the way, from what perf compared.
 */
void
rep_hist_output_order(const struct rep_report *rep, struct rep_hist *h,
		      size_t *out)
{
	bool lazy = rep->o.hist.nr_fields || rep->has_key[REP_DIM_SRCLINE] ||
		rep->has_key[REP_DIM_SRCFILE];
	uint64_t *reached = lazy ? xcalloc(h->nr ? h->nr : 1, sizeof(*reached)) :
		NULL;
	size_t *seq = key_order(rep, h, reached);
	struct hist_sort_ctx c = { .rep = rep, .h = h, .reached = reached };

	rep_order_tree(h->nr, seq, hist_sort_before, &c, out);
	if (reached) {
		rep_fields_size(rep, h, reached);
		lazy_sized(h, reached);
	}
	free(reached);
	free(seq);
}
