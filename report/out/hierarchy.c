/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/out/hierarchy.c - preport --hierarchy, as perf report 6.1 prints
 * it with --stdio (util/hist.c hists__hierarchy_insert_entry(),
 * hists__hierarchy_output_resort(); ui/stdio/hist.c
 * hist_entry__hierarchy_fprintf(); doc/perf-records.md §6.10).
 *
 * Each level of the sort keys (a key, or the keys given in braces) is a
 * level of entries: perf takes its entries in key order and puts each
 * under the entry of each level that holds the same keys, making one
 * (a copy of it) where none does, so that an entry of a level shows the
 * sum of the entries below it and, in the keys of other levels, those of
 * the first of them.  The entries of one level under one parent are in
 * perf's output order among themselves (the whole sort list, on those
 * sums and copies); the entries at the last level are the report's
 * entries, with their call graphs.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "report/out/stdio-int.h"

#define HIERARCHY_INDENT 3	/* perf's, per level */
#define NO_NODE SIZE_MAX

struct hnode {
	size_t parent;			/* NO_NODE at the top */
	unsigned int depth;		/* 0 for the first level */
	size_t leaf;			/* the entry of h (last level), or NO_NODE */
	size_t *kids;			/* in output order, once sorted */
	size_t nr_leaves;		/* the entries below it */
	size_t first;			/* the first of them, whose copy it is */
	size_t nr_kids, cap_kids;
};

struct hlevel {
	enum rep_dim dims[REP_MAX_DIMS];
	size_t nr_dims;
};

struct htree {
	const struct rep_report *rep;
	struct rep_hist *h;		/* the report's entries */
	struct rep_hist nh;		/* one per node: the first entry's keys, the sums */
	struct hnode *nodes;
	size_t *tops;			/* the first level's nodes */
	size_t nr_tops, cap_tops;
	struct hlevel levels[REP_MAX_DIMS];
	size_t nr_levels;
};

/*
 * The levels: each key of the sort list not shown elsewhere (elided)
 * and not a column of numbers, by the level -s gave it; a key -s did not
 * give (-p's parent) a level of its own.
 */
static void
make_levels(struct htree *t)
{
	const struct rep_hist_opts *o = &t->rep->o.hist;
	unsigned int seen[REP_MAX_DIMS];
	size_t i, l;

	for (i = 0; i < o->nr_sort; i++) {
		enum rep_dim d = o->sort[i];
		unsigned int id = o->level[d] ? o->level[d] : 256 + (unsigned int)i;

		if (rep_dim_is_hpp(d) || t->rep->elide[d] ||
		    !rep_field_applies(t->rep, d, t->h->evsel))
			continue;
		for (l = 0; l < t->nr_levels && seen[l] != id; l++)
			;
		if (l == t->nr_levels) {
			seen[l] = id;
			t->nr_levels++;
		}
		t->levels[l].dims[t->levels[l].nr_dims++] = d;
	}
}

static bool
same_level_keys(const struct htree *t, const struct hlevel *lv,
		const struct rep_hent *a, const struct rep_hent *b)
{
	size_t i;

	for (i = 0; i < lv->nr_dims; i++) {
		enum rep_dim d = lv->dims[i];
		int c = rep_field_dim(d) ? rep_field_cmp(t->rep, d, a, b) :
			rep_dims[d].cmp(t->rep, a, b);

		if (c)
			return false;
	}
	return true;
}

static size_t
node_new(struct htree *t, size_t parent, unsigned int depth, size_t first)
{
	struct rep_hist *nh = &t->nh;
	size_t n = nh->nr++;
	unsigned int m;

	nh->ents[n] = t->h->ents[first];
	nh->ents[n].cc = NULL;
	nh->ents[n].filtered = true;
	for (m = 0; m < nh->nr_members; m++)
		memset(&nh->vals[n * nh->nr_members + m], 0, sizeof(*nh->vals));
	t->nodes[n] = (struct hnode){ .parent = parent, .depth = depth,
				      .leaf = NO_NODE, .first = first };
	return n;
}

static void
kid_add(size_t **v, size_t *nr, size_t *cap, size_t n)
{
	if (*nr == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		*v = xreallocarray(*v, *cap, sizeof(**v));
	}
	(*v)[(*nr)++] = n;
}

static void
node_credit(struct htree *t, size_t n, size_t e)
{
	unsigned int m, k;

	for (m = 0; m < t->nh.nr_members; m++) {
		struct rep_hval *d = &t->nh.vals[n * t->nh.nr_members + m];
		const struct rep_hval *s = &t->h->vals[e * t->h->nr_members + m];

		d->period += s->period;
		d->nr += s->nr;
		d->acc += s->acc;
		d->nr_acc += s->nr_acc;
		for (k = 0; k < REP_MODE_NR; k++)
			d->mode_period[k] += s->mode_period[k];
	}
}

/*
 * Entry e under the nodes of each level.  The entries come in key order,
 * so those a level's node holds come one after another: a node is new
 * when its parent's last one holds other keys.
 */
static void
place(struct htree *t, size_t e)
{
	size_t parent = NO_NODE, l, n;

	for (l = 0; l < t->nr_levels; l++) {
		size_t **v = parent == NO_NODE ? &t->tops : &t->nodes[parent].kids;
		size_t *nr = parent == NO_NODE ? &t->nr_tops :
			&t->nodes[parent].nr_kids;
		size_t *cap = parent == NO_NODE ? &t->cap_tops :
			&t->nodes[parent].cap_kids;

		n = *nr ? (*v)[*nr - 1] : NO_NODE;
		if (n == NO_NODE || !same_level_keys(t, &t->levels[l],
						     &t->nh.ents[n],
						     &t->h->ents[e])) {
			n = node_new(t, parent, (unsigned int)l, e);
			kid_add(v, nr, cap, n);
		}
		node_credit(t, n, e);
		t->nodes[n].nr_leaves++;
		/* shown when an entry below it is */
		if (rep_hent_shown(&t->h->ents[e])) {
			t->nh.ents[n].filtered = false;
			t->nh.ents[n].hidden = false;
		}
		parent = n;
	}
	t->nodes[parent].leaf = e;
}

struct sort_ctx {
	const struct htree *t;
	const size_t *ids;
};

/* perf's hist_entry__sort() on two nodes: left of b when a comes first. */
static int
node_before(void *ctx, size_t a, size_t b)
{
	const struct sort_ctx *c = ctx;

	return rep_hent_sort(c->t->rep, &c->t->nh, c->ids[a], c->ids[b]) > 0;
}

/* The nodes of v in perf's output order. */
static void
sort_kids(const struct htree *t, size_t *v, size_t nr)
{
	size_t *seq, *out;
	struct sort_ctx c = { .t = t, .ids = v };
	size_t i;

	if (!nr)
		return;
	seq = xcalloc(nr, sizeof(*seq));
	out = xcalloc(nr, sizeof(*out));
	for (i = 0; i < nr; i++)
		seq[i] = i;
	rep_order_tree(nr, seq, node_before, &c, out);
	for (i = 0; i < nr; i++)
		seq[i] = v[out[i]];
	memcpy(v, seq, nr * sizeof(*v));
	free(seq);
	free(out);
}

static void
build(struct htree *t)
{
	const struct rep_hist *h = t->h;
	size_t cap = h->nr * (t->nr_levels ? t->nr_levels : 1) + 1;
	size_t *order = rep_hist_key_order(t->rep, h), i;

	t->nh.nr_members = h->nr_members;
	t->nh.evsel = h->evsel;
	t->nh.ents = xcalloc(cap, sizeof(*t->nh.ents));
	t->nh.vals = xcalloc(cap * h->nr_members, sizeof(*t->nh.vals));
	t->nodes = xcalloc(cap, sizeof(*t->nodes));
	for (i = 0; i < h->nr; i++)
		place(t, order[i]);
	free(order);
	sort_kids(t, t->tops, t->nr_tops);
	for (i = 0; i < t->nh.nr; i++)
		sort_kids(t, t->nodes[i].kids, t->nodes[i].nr_kids);
}

/*
 * The field keys' widths, as perf's copies of them for the levels see
 * the entries (util/hist.c hierarchy_insert_entry(),
 * hierarchy_insert_output_entry()): the value of every entry of the
 * field's level, and the __data_loc length of each such entry that a
 * later one met under the same parent (every one but the last made, and
 * any a second entry found).
 */
static uint64_t
level_fields(const struct htree *t, unsigned int depth)
{
	const struct hlevel *lv = &t->levels[depth];
	uint64_t bits = 0;
	size_t i;

	for (i = 0; i < lv->nr_dims; i++)
		if (rep_field_dim(lv->dims[i]))
			bits |= 1ULL << (lv->dims[i] - REP_DIM_FIELD);
	return bits;
}

static void
fields_size(struct htree *t)
{
	const struct rep_hist *h = t->h;
	uint64_t *reached, *texts;
	size_t n, k;

	if (!t->rep->o.hist.nr_fields)
		return;
	reached = xcalloc(h->nr ? h->nr : 1, sizeof(*reached));
	texts = xcalloc(h->nr ? h->nr : 1, sizeof(*texts));
	for (n = 0; n < t->nh.nr; n++) {
		const struct hnode *node = &t->nodes[n];
		uint64_t bits = level_fields(t, node->depth);
		const size_t *kids = node->parent == NO_NODE ? t->tops :
			t->nodes[node->parent].kids;
		size_t nr = node->parent == NO_NODE ? t->nr_tops :
			t->nodes[node->parent].nr_kids;
		bool last = true;

		/* nodes are numbered in the order they were made */
		for (k = 0; k < nr; k++)
			if (kids[k] > n)
				last = false;
		texts[node->first] |= bits;
		if (!last || node->nr_leaves > 1)
			reached[node->first] |= bits;
	}
	rep_fields_size_some(t->rep, t->h, reached, texts);
	free(reached);
	free(texts);
}

/* perf's print_hierarchy_indent(): (indent - 2) levels of text, none with -t */
static void
print_indent(FILE *out, const char *sep, size_t indent, const char *text)
{
	int w = indent >= 2 ? (int)(indent - 2) * HIERARCHY_INDENT : 0;

	if (!sep)
		fprintf(out, "%-*.*s", w, w, text);
}

static const char dots[] =
	"...................................................................."
	"...................................................................."
	"...................................................................."
	"....................................................................";

/* The header's text, trimmed as perf's strim() does. */
static void
put_trimmed(FILE *out, const char *s, size_t *len)
{
	size_t n;

	while (*s == ' ')
		s++;
	n = strlen(s);
	while (n && s[n - 1] == ' ')
		n--;
	fprintf(out, "%.*s", (int)n, s);
	*len += n;
}

/* The width of key d's column, as the report's layout has it. */
static int
key_width(const struct layout *lo, enum rep_dim d)
{
	size_t i;

	for (i = 0; i < lo->rep->o.hist.nr_cols; i++)
		if (lo->rep->o.hist.cols[i] == d)
			return lo->width[i];
	return 0;
}

/* perf's hists__fprintf_hierarchy_headers(). */
static void
print_header(FILE *out, const struct htree *t, const struct layout *lo)
{
	const struct rep_report *rep = t->rep;
	const char *sep = rep->o.out.field_sep;
	size_t nodes = t->nr_levels + 1, text_len = 0, widest = 0, i, l, k;
	bool first = true;

	fputs("# ", out);
	print_indent(out, sep, nodes, " ");
	for (i = 0; i < rep->o.hist.nr_cols; i++) {
		enum rep_dim d = rep->o.hist.cols[i];

		if (!rep_dim_is_hpp(d) || rep_stdio_col_skipped(lo, d))
			continue;
		fprintf(out, "%*s%s", lo->width[i], rep_stdio_col_header(rep, d),
			sep ? sep : "  ");
	}
	for (l = 0; l < t->nr_levels; l++) {
		size_t w = l * HIERARCHY_INDENT;

		if (l) {
			fputs(" / ", out);
			text_len += 3;
		}
		for (k = 0; k < t->levels[l].nr_dims; k++) {
			enum rep_dim d = t->levels[l].dims[k];

			if (k) {
				fputc('+', out);
				text_len++;
				w++;
			}
			put_trimmed(out, rep_stdio_col_header(rep, d), &text_len);
			w += (size_t)key_width(lo, d);
		}
		if (w > widest)
			widest = w;
	}
	fputs("\n# ", out);
	print_indent(out, sep, nodes, dots);
	for (i = 0; i < rep->o.hist.nr_cols; i++) {
		enum rep_dim d = rep->o.hist.cols[i];

		if (!rep_dim_is_hpp(d) || rep_stdio_col_skipped(lo, d))
			continue;
		if (!first)
			fputs(sep ? sep : "..", out);
		first = false;
		fprintf(out, "%.*s", lo->width[i], dots);
	}
	if (text_len > widest)
		widest = text_len;
	fprintf(out, "%s%.*s\n#\n", sep ? sep : "  ", (int)widest, dots);
}

/* perf's hist_entry__hierarchy_fprintf() for node n. */
static void
print_node(FILE *out, const struct htree *t, const struct layout *nlo,
	   const struct layout *lo, size_t n, char *buf, char *text)
{
	const struct rep_report *rep = t->rep;
	const struct hnode *node = &t->nodes[n];
	const struct hlevel *lv = &t->levels[node->depth];
	const char *sep = rep->o.out.field_sep;
	struct line l = { .buf = buf, .size = nlo->linesz, .len = 0 };
	bool first = true;
	size_t i, before;
	char pad[64];
	int w;

	buf[0] = '\0';
	snprintf(pad, sizeof(pad), "%*s", (int)node->depth * HIERARCHY_INDENT, "");
	rep_stdio_line_add(&l, pad);
	for (i = 0; i < rep->o.hist.nr_cols; i++) {
		enum rep_dim d = rep->o.hist.cols[i];

		if (!rep_dim_is_hpp(d) || rep_stdio_col_skipped(nlo, d))
			continue;
		if (!sep || !first)
			rep_stdio_line_add(&l, sep ? sep : "  ");
		first = false;
		before = l.len;
		rep_stdio_hpp_entry(&l, nlo, d, n);
		/* never the last column here: padded to its width */
		while (l.len - before < (size_t)nlo->width[i] && l.len + 1 < l.size)
			rep_stdio_line_add(&l, " ");
	}
	if (!sep) {
		snprintf(pad, sizeof(pad), "%*s",
			 (int)(t->nr_levels - 1) * HIERARCHY_INDENT, "");
		rep_stdio_line_add(&l, pad);
	}
	fputs(buf, out);
	for (i = 0; i < lv->nr_dims; i++) {
		const char *s = text;

		w = key_width(lo, lv->dims[i]);
		rep_dim_snprint(rep, lv->dims[i], &t->nh.ents[n], w, text,
				nlo->linesz + 64);
		/* the keys' own alignment is left out: they come last */
		while (*s == ' ')
			s++;
		if (sep)
			rep_stdio_dot_out_sep(text, sep[0]);
		fprintf(out, "%s%s", sep ? sep : "  ", s);
	}
	fputc('\n', out);
	if (node->leaf != NO_NODE && rep->use_callchain)
		rep_stdio_print_callchain(out, lo, node->leaf);
}

static bool
kept(const struct htree *t, const struct layout *nlo, size_t n)
{
	return rep_hent_shown(&t->nh.ents[n]) &&
	       rep_stdio_percent_limit(nlo, n) >=
	       (float)t->rep->o.out.percent_limit;
}

/* perf's hists__overhead_width(): the columns of numbers, two apart. */
static int
overhead_width(const struct htree *t, const struct layout *lo)
{
	int w = 0;
	size_t i;

	for (i = 0; i < t->rep->o.hist.nr_cols; i++) {
		enum rep_dim d = t->rep->o.hist.cols[i];

		if (!rep_dim_is_hpp(d) || rep_stdio_col_skipped(lo, d))
			continue;
		w += (w ? 2 : 0) + lo->width[i];
	}
	return w;
}

/* Node n and, under it, its kids, as perf's pre-order walk prints them. */
static void
print_tree(FILE *out, const struct htree *t, const struct layout *nlo,
	   const struct layout *lo, size_t n, char *buf, char *text)
{
	const struct hnode *node = &t->nodes[n];
	bool any = false;
	size_t i;

	if (kept(t, nlo, n))
		print_node(out, t, nlo, lo, n, buf, text);
	for (i = 0; i < node->nr_kids; i++) {
		any |= kept(t, nlo, node->kids[i]);
		print_tree(out, t, nlo, lo, node->kids[i], buf, text);
	}
	if (kept(t, nlo, n) && node->leaf == NO_NODE && !any) {
		print_indent(out, t->rep->o.out.field_sep,
			     t->nr_levels + 1 + node->depth + 1, " ");
		fprintf(out, "%*sno entry >= %.2f%%\n", overhead_width(t, lo) + 4,
			"", t->rep->o.out.percent_limit);
	}
}

void
rep_hierarchy_print(FILE *out, const struct rep_report *rep,
		    struct rep_hist *h, const char *title, bool plural)
{
	struct htree t = { .rep = rep, .h = h };
	struct layout lo = { .rep = rep, .h = h }, nlo;
	char *buf, *text;
	size_t i;

	make_levels(&t);
	build(&t);
	fields_size(&t);
	rep_stdio_layout(&lo, h);
	/* perf counts the period of the entries it placed: none without a level */
	if (!t.nr_levels)
		for (i = 0; i < h->nr_members; i++)
			h->total[i] = h->total_vis[i] = 0;
	nlo = lo;
	nlo.h = &t.nh;
	if (!rep->o.quiet) {
		rep_stdio_samples_line(out, rep, h, title, plural);
		print_header(out, &t, &lo);
	}
	buf = xmalloc(lo.linesz);
	text = xmalloc(lo.linesz + 64);
	for (i = 0; i < t.nr_tops; i++)
		print_tree(out, &t, &nlo, &lo, t.tops[i], buf, text);
	fputs("\n\n", out);
	for (i = 0; i < t.nh.nr; i++)
		free(t.nodes[i].kids);
	free(t.nodes);
	free(t.tops);
	free(t.nh.ents);
	free(t.nh.vals);
	free(text);
	free(buf);
}
