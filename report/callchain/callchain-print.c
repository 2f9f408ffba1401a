/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/callchain/callchain-print.c - print a callchain tree as perf 6.1's
 * --stdio does (doc/perf-records.md §6.6): graph and fractal trees,
 * flat chains, folded lines.
 *
 * Order and threshold follow perf's sort of the tree: siblings by
 * cumulative period, descending; equal ones in perf's insertion order,
 * which is its child lookup order, the frame key descending (DSO, then
 * symbol start or ip).  Graph mode drops a branch whose cumulative period
 * is below min_percent of the callchain total; fractal mode below
 * min_percent of the parent's children period, rounded up.  Flat and
 * folded print every node where chains end, by own period, in the
 * order perf gathers them: children first, then the node.
 *
 * Depth marks are bits of a 32-bit mask as in perf, so trees deeper
 * than 32 levels reuse the marks of level depth mod 32, as perf's do on
 * x86.  The walk keeps its own stack: a chain may be thousands of
 * frames deep.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/term.h"
#include "lib/xalloc.h"
#include "report/callchain/callchain-int.h"

/* perf's PERF_CONTEXT_MAX: chain entries from here up are context marks. */
#define CC_CONTEXT_MAX	((uint64_t)-4095)

/*
 * The name of fractal mode's remainder line.  perf 6.1 builds its symbol
 * with malloc() and never sets the inlined flag, which perf 6.1 as built
 * here reads as set under the function key: it prints " (inlined)" after
 * every "[...]" then, and not under the address and srcline keys.  We
 * print what it prints.
 */
#define CC_REMAINDER_NAME	"[...] (inlined)"
#define CC_REMAINDER_NAME_KEYED	"[...]"

/* A tree name is printed through a 1024-byte buffer in perf. */
#define CC_NAME_MAX	1023
/*
 * Branch counts go through a 256-byte buffer, and then a 64-byte one on
 * the graph's branch lines (not on the "---" lines above them).
 */
#define CC_COUNTS_MAX		255
#define CC_COUNTS_BRANCH	64

/* The tree's nodes with their children in printing order. */
struct cc_view {
	const struct rep_cc_root *root;
	const struct rep_cc_print_opts *opts;
	uint32_t *start;	/* per node: first child in kids */
	uint32_t *nkids;	/* per node: children kept */
	uint32_t *kids;
};

struct cc_sortrec {
	uint64_t value;
	const struct cc_frame *frame;
	uint32_t node;
	enum rep_cc_key key;		/* the tree's */
};

/* value descending, then frame key descending, then node */
static int
sortrec_cmp(const void *pa, const void *pb)
{
	const struct cc_sortrec *a = pa, *b = pb;
	int c;

	if (a->value != b->value)
		return a->value > b->value ? -1 : 1;
	c = cc_frame_cmp(a->key, b->frame, a->frame);
	if (c)
		return c;
	return a->node < b->node ? -1 : a->node > b->node;
}

static uint64_t
hits_of_percent(uint64_t base, double percent)
{
	double v = (double)base * (percent / 100);

	if (!(v > 0))
		return 0;
	if (v >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)v;
}

/*
 * perf's fractal threshold: a share of the parent's children period,
 * rounded up.
 */
static uint64_t
rel_min_hit(const struct cc_node *parent, double percent)
{
	double v = (double)parent->children_hit * (percent / 100.0);
	uint64_t u;

	if (!(v > 0))
		return 0;
	if (v >= 18446744073709551615.0)
		return UINT64_MAX;
	u = (uint64_t)v;
	return (double)u < v ? u + 1 : u;
}

/* Fill start[] and kids[] with every node's children, in node order. */
static void
view_link(struct cc_view *v)
{
	const struct rep_cc_root *r = v->root;
	uint32_t n, *fill;

	v->start = xcalloc((size_t)r->nr_nodes + 1, sizeof(*v->start));
	v->nkids = xcalloc(r->nr_nodes, sizeof(*v->nkids));
	v->kids = xcalloc(r->nr_nodes, sizeof(*v->kids));
	for (n = 1; n < r->nr_nodes; n++)
		v->nkids[r->nodes[n].parent]++;
	for (n = 0; n < r->nr_nodes; n++)
		v->start[n + 1] = v->start[n] + v->nkids[n];
	fill = xcalloc(r->nr_nodes, sizeof(*fill));
	for (n = 1; n < r->nr_nodes; n++) {
		uint32_t p = r->nodes[n].parent;

		v->kids[v->start[p] + fill[p]++] = n;
	}
	free(fill);
}

/*
 * Sort every child list; graph modes sort by cumulative period and keep
 * those at or above the threshold, flat modes by key only.
 */
static void
view_sort(struct cc_view *v, bool graph, uint64_t min_hit)
{
	const struct rep_cc_root *r = v->root;
	const struct rep_cc_print_opts *o = v->opts;
	struct cc_sortrec *recs;
	uint32_t n, i, nr, kept;

	recs = xcalloc(r->nr_nodes, sizeof(*recs));
	for (n = 0; n < r->nr_nodes; n++) {
		nr = v->nkids[n];
		if (!nr)
			continue;
		for (i = 0; i < nr; i++) {
			uint32_t k = v->kids[v->start[n] + i];

			recs[i] = (struct cc_sortrec){
				.value = graph ? cc_cumul_hit(&r->nodes[k]) : 0,
				.frame = cc_tree_frame(r, r->nodes[k].first),
				.node = k,
				.key = r->keying.key,
			};
		}
		qsort(recs, nr, sizeof(*recs), sortrec_cmp);
		if (graph && o->mode == REP_CC_FRACTAL)
			min_hit = rel_min_hit(&r->nodes[n], o->min_percent);
		kept = 0;
		for (i = 0; i < nr; i++)
			if (!graph || recs[i].value >= min_hit)
				v->kids[v->start[n] + kept++] = recs[i].node;
		v->nkids[n] = kept;
	}
	free(recs);
}

static void
view_free(struct cc_view *v)
{
	free(v->start);
	free(v->nkids);
	free(v->kids);
}

static void
print_value(FILE *out, const struct rep_cc_print_opts *o, uint64_t period,
	    uint64_t count, uint64_t total)
{
	char text[32], colored[64];
	double percent = 0.0;

	switch (o->value) {
	case REP_CC_VALUE_PERIOD:
		fprintf(out, "%" PRIu64, period);
		break;
	case REP_CC_VALUE_COUNT:
		fprintf(out, "%u", (unsigned int)count);
		break;
	case REP_CC_VALUE_PERCENT:
	default:
		if (total)
			percent = (double)period * 100.0 / (double)total;
		snprintf(text, sizeof(text), "%.2f%%", percent);
		if (o->color)
			term_percent_color(colored, sizeof(colored), percent, text);
		fputs(o->color ? colored : text, out);
		break;
	}
}

/*
 * perf's callchain_list__sym_name(): under the address and srcline keys
 * the symbol is followed by its srcline, when it has one, and an inline
 * frame's by " (inlined)".
 */
static void
print_name(FILE *out, const struct cc_frame *f)
{
	char buf[CC_NAME_MAX + 1];

	if (!f->sym) {
		fprintf(out, "%#" PRIx64, f->ip);
		return;
	}
	if (f->srcline)
		snprintf(buf, sizeof(buf), "%s %s%s", f->sym->name, f->srcline,
			 f->sym->inlined ? " (inlined)" : "");
	else
		snprintf(buf, sizeof(buf), "%s%s", f->sym->name,
			 f->sym->inlined ? " (inlined)" : "");
	fputs(buf, out);
}

/*
 * With branch counts, what perf prints after the tree's frame fi
 * (CC_NO_FRAME: the remainder line), through a buffer of size bytes.
 */
static void
print_counts(FILE *out, const struct rep_cc_root *r, uint32_t fi, size_t size)
{
	char buf[CC_COUNTS_MAX + 1];

	if (!r->bcounts)
		return;
	if (size > sizeof(buf))
		size = sizeof(buf);
	cc_bcount_text(fi != CC_NO_FRAME ? &r->bcounts[fi] : NULL, buf, size);
	fputs(buf, out);
}

static void
print_margin(FILE *out, unsigned int margin)
{
	fprintf(out, "            %*s", (int)margin, "");
}

static uint32_t
depth_bit(uint32_t level)
{
	return 1u << (level & 31);
}

/* The line above each branch: the open levels' bars. */
static void
print_bars(FILE *out, unsigned int margin, uint32_t depth, uint32_t mask)
{
	uint32_t i;

	print_margin(out, margin);
	for (i = 0; i < depth; i++)
		fputs(mask & depth_bit(i) ? "|          " : "           ", out);
	fputc('\n', out);
}

/*
 * The tree's frame fi of a branch (CC_NO_FRAME: the remainder line);
 * the first one carries the branch's value in its last level.
 */
static void
print_branch_frame(FILE *out, const struct cc_view *v, unsigned int margin,
		   uint32_t depth, uint32_t mask, bool first, uint64_t period,
		   uint64_t count, uint64_t total, uint32_t fi)
{
	const struct rep_cc_print_opts *o = v->opts;
	uint32_t i;

	print_margin(out, margin);
	for (i = 0; i < depth; i++) {
		fputc(mask & depth_bit(i) ? '|' : ' ', out);
		if (first && i == depth - 1) {
			fputs("--", out);
			print_value(out, o, period, count, total);
			fputs("--", out);
		} else {
			fputs("          ", out);
		}
	}
	if (fi != CC_NO_FRAME)
		print_name(out, cc_tree_frame(v->root, fi));
	else
		fputs(o->key == REP_CC_KEY_FUNCTION ? CC_REMAINDER_NAME :
		      CC_REMAINDER_NAME_KEYED, out);
	print_counts(out, v->root, fi, CC_COUNTS_BRANCH);
	fputc('\n', out);
}

/* One level of the graph walk: the children of parent being printed. */
struct cc_level {
	uint32_t parent;
	uint32_t next;		/* position of the next child */
	uint32_t printed;
	uint32_t depth;
	uint32_t mask;		/* levels open above this one */
	uint32_t new_mask;	/* the same, as the children see it */
	uint64_t total;
	uint64_t remaining;
	uint64_t cumul_count;
};

/*
 * Fractal mode: the part of the parent's period that no shown branch
 * holds.  Returns whether it printed.
 */
static bool
print_remainder(FILE *out, const struct cc_view *v, const struct cc_level *l,
		unsigned int margin)
{
	const struct rep_cc_print_opts *o = v->opts;
	uint64_t count = 0;

	if (o->mode != REP_CC_FRACTAL || !l->remaining ||
	    l->remaining == l->total)
		return false;
	if (o->value == REP_CC_VALUE_COUNT) {
		count = v->root->nodes[l->parent].children_count -
			l->cumul_count;
		if (!count)
			return false;
	}
	print_branch_frame(out, v, margin, l->depth,
			   l->new_mask & ~depth_bit(l->depth - 1), true,
			   l->remaining, count, l->total, CC_NO_FRAME);
	return true;
}

/* Print one child of the level on top and open a level for its children. */
static void
print_child(FILE *out, const struct cc_view *v, struct cc_level *l,
	    struct cc_level *below, unsigned int margin)
{
	const struct rep_cc_root *r = v->root;
	const struct rep_cc_print_opts *o = v->opts;
	uint32_t c = v->kids[v->start[l->parent] + l->next++];
	const struct cc_node *n = &r->nodes[c];
	uint32_t k;

	l->remaining -= cc_cumul_hit(n);
	l->cumul_count += cc_cumul_count(n);
	if (l->next == v->nkids[l->parent] &&
	    (o->mode != REP_CC_FRACTAL || !l->remaining))
		l->new_mask &= ~depth_bit(l->depth - 1);
	print_bars(out, margin, l->depth, l->mask);
	for (k = 0; k < n->nr; k++)
		print_branch_frame(out, v, margin, l->depth, l->new_mask,
				   k == 0, cc_cumul_hit(n), cc_cumul_count(n),
				   l->total, n->first + k);
	l->printed++;
	*below = (struct cc_level){
		.parent = c,
		.depth = l->depth + 1,
		.mask = l->new_mask | depth_bit(l->depth),
		.total = o->mode == REP_CC_FRACTAL ? n->children_hit : l->total,
	};
	below->new_mask = below->mask;
	below->remaining = below->total;
}

/* The branches below parent; returns whether it printed anything. */
static bool
print_levels(FILE *out, const struct cc_view *v, uint32_t parent,
	     uint64_t total, unsigned int margin)
{
	unsigned int limit = v->opts->print_limit;
	struct cc_level *stack;
	size_t depth = 0, cap = 16;
	bool any = false;

	stack = xcalloc(cap, sizeof(*stack));
	stack[0] = (struct cc_level){
		.parent = parent, .depth = 1, .mask = 1, .new_mask = 1,
		.total = total, .remaining = total,
	};
	for (;;) {
		struct cc_level *l = &stack[depth];

		if (l->next < v->nkids[l->parent] &&
		    !(limit && l->printed == limit)) {
			if (depth + 1 == cap) {
				cap *= 2;
				stack = xreallocarray(stack, cap,
						      sizeof(*stack));
				l = &stack[depth];
			}
			print_child(out, v, l, &stack[depth + 1], margin);
			any = true;
			depth++;
			continue;
		}
		if (print_remainder(out, v, l, margin))
			any = true;
		if (!depth)
			break;
		depth--;
	}
	free(stack);
	return any;
}

static void
print_graph(FILE *out, const struct cc_view *v)
{
	const struct rep_cc_root *r = v->root;
	const struct rep_cc_print_opts *o = v->opts;
	unsigned int margin = o->margin;
	uint32_t parent = CC_ROOT;
	uint64_t total = o->total;
	bool any = false;

	if (v->nkids[CC_ROOT] == 1) {
		uint32_t c = v->kids[v->start[CC_ROOT]];
		const struct cc_node *n = &r->nodes[c];

		if (cc_cumul_hit(n) == o->entry_period) {
			uint32_t k, shown = 0;

			for (k = 0; k < n->nr; k++) {
				if (k == 0 && o->skip_first)
					continue;
				print_margin(out, margin);
				if (!any) {
					fputs("|\n", out);
					print_margin(out, margin);
					fputs("---", out);
					margin += 3;
					any = true;
				}
				print_name(out, cc_tree_frame(r, n->first + k));
				print_counts(out, r, n->first + k,
					     CC_COUNTS_MAX + 1);
				fputc('\n', out);
				if (++shown == o->print_limit)
					break;
			}
			parent = c;
		}
	}
	if (o->mode == REP_CC_FRACTAL)
		total = o->entry_period;
	if (print_levels(out, v, parent, total, margin))
		any = true;
	if (any)
		fputc('\n', out);
}

/* Flat and folded: the nodes where chains end, by own period. */
struct cc_end {
	uint64_t hit;
	uint32_t pos;
	uint32_t node;
};

static int
end_cmp(const void *pa, const void *pb)
{
	const struct cc_end *a = pa, *b = pb;

	if (a->hit != b->hit)
		return a->hit > b->hit ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Post-order over the key-ordered children: the order perf gathers ends in. */
static size_t
collect_ends(const struct cc_view *v, uint64_t min_hit, struct cc_end *ends)
{
	const struct rep_cc_root *r = v->root;
	uint32_t *stack, *next;
	size_t sp = 0, nr = 0;

	stack = xcalloc(r->nr_nodes, sizeof(*stack));
	next = xcalloc(r->nr_nodes, sizeof(*next));
	stack[sp++] = CC_ROOT;
	while (sp) {
		uint32_t n = stack[sp - 1];

		if (next[n] < v->nkids[n]) {
			stack[sp++] = v->kids[v->start[n] + next[n]++];
			continue;
		}
		sp--;
		if (r->nodes[n].hit && r->nodes[n].hit >= min_hit) {
			ends[nr] = (struct cc_end){
				.hit = r->nodes[n].hit,
				.pos = (uint32_t)nr,
				.node = n,
			};
			nr++;
		}
	}
	free(stack);
	free(next);
	qsort(ends, nr, sizeof(*ends), end_cmp);
	return nr;
}

/* Frames from the root down to node n, context marks left out. */
static size_t
path_frames(const struct rep_cc_root *r, uint32_t n,
	    const struct cc_frame ***buf, size_t *cap)
{
	size_t len = 0, at, nr = 0;
	uint32_t i, k;

	for (i = n; i != CC_ROOT; i = r->nodes[i].parent)
		len += r->nodes[i].nr;
	if (len > *cap) {
		*cap = len;
		*buf = xreallocarray(*buf, *cap, sizeof(**buf));
	}
	at = len;
	for (i = n; i != CC_ROOT; i = r->nodes[i].parent) {
		at -= r->nodes[i].nr;
		for (k = 0; k < r->nodes[i].nr; k++)
			(*buf)[at + k] =
				cc_tree_frame(r, r->nodes[i].first + k);
	}
	for (k = 0; k < len; k++)
		if ((*buf)[k]->ip < CC_CONTEXT_MAX)
			(*buf)[nr++] = (*buf)[k];
	return nr;
}

static void
print_ends(FILE *out, const struct cc_view *v, uint64_t min_hit)
{
	const struct rep_cc_root *r = v->root;
	const struct rep_cc_print_opts *o = v->opts;
	const char *sep = o->field_sep ? o->field_sep : ";";
	const struct cc_frame **path = NULL;
	struct cc_end *ends;
	size_t nr, i, k, len, cap = 0;

	ends = xcalloc(r->nr_nodes, sizeof(*ends));
	nr = collect_ends(v, min_hit, ends);
	for (i = 0; i < nr; i++) {
		const struct cc_node *n = &r->nodes[ends[i].node];

		len = path_frames(r, ends[i].node, &path, &cap);
		if (o->mode == REP_CC_FLAT) {
			fputs("           ", out);
			print_value(out, o, cc_cumul_hit(n), cc_cumul_count(n),
				    o->total);
			fputc('\n', out);
			for (k = 0; k < len; k++) {
				fputs("                ", out);
				print_name(out, path[k]);
				fputc('\n', out);
			}
		} else {
			print_value(out, o, n->hit, n->count, o->total);
			fputc(' ', out);
			for (k = 0; k < len; k++) {
				if (k)
					fputs(sep, out);
				print_name(out, path[k]);
			}
		}
		fputc('\n', out);
		if (i + 1 == o->print_limit)
			break;
	}
	free(path);
	free(ends);
}

void
rep_cc_print_opts_init(struct rep_cc_print_opts *opts,
		       const struct rep_cc_param *param,
		       uint64_t total, uint64_t entry_period)
{
	*opts = (struct rep_cc_print_opts){
		.mode = param->mode,
		.min_percent = param->min_percent,
		.total = total,
		.entry_period = entry_period,
		.print_limit = param->print_limit,
		.value = param->value,
		.key = param->key,
	};
}

void
rep_cc_print(FILE *out, const struct rep_cc_root *root,
	     const struct rep_cc_print_opts *opts)
{
	struct cc_view v = { .root = root, .opts = opts };
	uint64_t base = opts->threshold_total ? opts->threshold_total :
			opts->total;
	uint64_t min_hit = hits_of_percent(base, opts->min_percent);
	bool graph = opts->mode == REP_CC_GRAPH ||
		     opts->mode == REP_CC_FRACTAL;

	if (opts->mode == REP_CC_NONE || root->nr_nodes < 2)
		return;
	view_link(&v);
	view_sort(&v, graph, min_hit);
	if (graph)
		print_graph(out, &v);
	else
		print_ends(out, &v, min_hit);
	view_free(&v);
}
