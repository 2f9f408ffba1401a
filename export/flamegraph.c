/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * export/flamegraph.c - pexport --to flamegraph: one self-contained HTML
 * page (export/flamegraph.html, our own CSS and script) that draws a
 * flame graph per event from the merged frames of flametree.h, written
 * into the page as JSON (pexport(1), flamegraph); with --diff, the
 * frames of an old recording too, as difffolded.pl and flamegraph.pl
 * draw them.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export/flamegraph-page.h"
#include "export/flametree.h"
#include "lib/diag.h"
#include "lib/xalloc.h"
#include "pdata/reader.h"

/* flamegraph.pl's image: 1200 px, 10 px each side */
#define IMAGE_WIDTH	1200
#define IMAGE_PAD	10
/* the largest page written, in bytes: under 5 MB (pexport(1)) */
#define PAGE_LIMIT	4900000
/* the most the input and --diff file names may add to the page */
#define PATH_MAX_TEXT	(6 * 4096)
/* where the page takes the frames */
#define DATA_MARK	"@FLAMEDATA@"

struct flamegraph {
	struct exp_flame_tree *trees;	/* one an event name */
	size_t nr, cap;
	int *order;			/* trees to write, in the new order */
	size_t nr_order;
};

static struct exp_flame_tree *
tree_for(struct flamegraph *fg, const char *event)
{
	for (size_t i = 0; i < fg->nr; i++)
		if (!strcmp(fg->trees[i].event, event))
			return &fg->trees[i];
	if (fg->nr == fg->cap) {
		fg->cap = fg->cap ? fg->cap * 2 : 4;
		fg->trees = xreallocarray(fg->trees, fg->cap,
					  sizeof(*fg->trees));
	}
	exp_flame_tree_init(&fg->trees[fg->nr], event);
	return &fg->trees[fg->nr++];
}

static bool
weight_is_period(struct exp_run *x, unsigned int evsel)
{
	switch (x->o->weight) {
	case EXP_WEIGHT_SAMPLES:
		return false;
	case EXP_WEIGHT_PERIOD:
		return true;
	default:
		return exp_counts_period(x->r, evsel);
	}
}

/*
 * Each event drawn, as the tree it went to: --event's, else every event
 * with samples kept.  -1 after a message.
 */
static int
add_events(struct exp_run *x, struct flamegraph *fg, bool old)
{
	const struct exp_profile *p = &x->profile;
	int chosen = -1;

	if (x->o->event) {
		chosen = exp_chosen_evsel(x);
		if (chosen < 0)
			return -1;
	}
	for (size_t ev = 0; ev < p->nr_evsels; ev++) {
		const char *name;
		struct exp_flame_tree *t;

		if ((chosen >= 0 && ev != (size_t)chosen) ||
		    !p->evsel_samples[ev])
			continue;
		name = pd_evsel_name(pd_reader_evsel(x->r, ev));
		t = tree_for(fg, name);
		exp_flame_tree_add(t, p, (unsigned int)ev, x->o,
				   weight_is_period(x, (unsigned int)ev), old);
		if (old)
			continue;
		fg->order = xreallocarray(fg->order, fg->nr_order + 1,
					  sizeof(*fg->order));
		fg->order[fg->nr_order++] = (int)(t - fg->trees);
	}
	return 0;
}

void *
exp_flamegraph_start(struct exp_run *x, struct exp_collect_opts *co)
{
	(void)x;
	(void)co;
	return xcalloc(1, sizeof(struct flamegraph));
}

static void
flamegraph_free(struct flamegraph *fg)
{
	for (size_t i = 0; i < fg->nr; i++)
		exp_flame_tree_free(&fg->trees[i]);
	free(fg->trees);
	free(fg->order);
	free(fg);
}

int
exp_flamegraph_old(struct exp_run *x, void *state)
{
	if (!add_events(x, state, true))
		return 0;
	flamegraph_free(state);
	return -1;
}

/*
 * A JSON string that may stand in an HTML script element: '<', '>' and
 * '&' escaped too, so that no "</script" can end it.
 */
static void
json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == '<' || c == '>' || c == '&')
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void
json_key(FILE *out, const char *key)
{
	fprintf(out, ",\n\"%s\":", key);
}

static const char kind_letter[] = {
	[EXP_CODE_USER] = 'u',
	[EXP_CODE_KERNEL] = 'k',
	[EXP_CODE_JIT] = 'j',
	[EXP_CODE_INLINED] = 'i',
};

/* The names the drawn frames use, renumbered in their order. */
static uint32_t *
write_names(FILE *out, const struct exp_flame_tree *t,
	    const struct exp_flame_order *ord)
{
	uint32_t *map = xreallocarray(NULL, t->nr_names, sizeof(*map));
	uint32_t *used = xreallocarray(NULL, t->nr_names, sizeof(*used));
	uint32_t nr = 0;

	memset(map, 0xff, t->nr_names * sizeof(*map));
	for (size_t i = 0; i < ord->nr; i++) {
		uint32_t name = t->nodes[ord->nodes[i]].name;

		if (map[name] == UINT32_MAX) {
			map[name] = nr;
			used[nr++] = name;
		}
	}
	json_key(out, "names");
	for (uint32_t i = 0; i < nr; i++) {
		fputc(i ? ',' : '[', out);
		json_string(out, t->names[used[i]].text);
	}
	fputc(']', out);
	json_key(out, "kinds");
	fputc('"', out);
	for (uint32_t i = 0; i < nr; i++)
		fputc(kind_letter[t->names[used[i]].code], out);
	fputc('"', out);
	free(used);
	return map;
}

/* One column of the frames: a field of each drawn node, or its name. */
enum column { COL_NAME, COL_DEPTH, COL_VALUE, COL_SELF, COL_OLD,
	      COL_OLD_SELF };

static uint64_t
column_value(const struct exp_flame_node *f, enum column c,
	     const uint32_t *map)
{
	switch (c) {
	case COL_NAME: return map[f->name];
	case COL_DEPTH: return f->depth;
	case COL_VALUE: return f->value;
	case COL_SELF: return f->self;
	case COL_OLD: return f->old;
	default: return f->old_self;
	}
}

static void
write_column(FILE *out, const struct exp_flame_tree *t,
	     const struct exp_flame_order *ord, const char *key,
	     enum column c, const uint32_t *map)
{
	json_key(out, key);
	for (size_t i = 0; i < ord->nr; i++) {
		fputc(i ? ',' : '[', out);
		fprintf(out, "%" PRIu64,
			column_value(&t->nodes[ord->nodes[i]], c, map));
	}
	fputc(']', out);
}

/* --minwidth as a count: pixels of flamegraph.pl's image, or percent */
static double
min_value(const struct exp_opts *o, uint64_t total)
{
	if (o->minwidth_pct)
		return (double)total * o->minwidth / 100.0;
	return o->minwidth * (double)total /
		(double)(IMAGE_WIDTH - 2 * IMAGE_PAD);
}

/* One graph's frames, as JSON, those narrower than min left out. */
static void
write_graph(FILE *out, const struct exp_flame_tree *t,
	    const struct exp_opts *o, double min, bool capped)
{
	const struct exp_flame_node *root = &t->nodes[0];
	struct exp_flame_order ord;
	uint32_t *map;

	exp_flame_tree_order(t, min, &ord);
	fputs("{\"event\":", out);
	json_string(out, t->event);
	fprintf(out, ",\"unit\":\"%s\",\"total\":%" PRIu64 ",\"min\":%.17g,"
		"\"capped\":%s,\"dropped\":%" PRIu64 ",\"dropped_value\":%"
		PRIu64, t->period ? "period" : "samples", root->value, min,
		capped ? "true" : "false", ord.dropped, ord.dropped_value);
	if (o->diff)
		fprintf(out, ",\"old_unit\":\"%s\",\"old_total\":%" PRIu64,
			t->old_period ? "period" : "samples", root->old);
	map = write_names(out, t, &ord);
	write_column(out, t, &ord, "name", COL_NAME, map);
	write_column(out, t, &ord, "depth", COL_DEPTH, map);
	write_column(out, t, &ord, "value", COL_VALUE, map);
	if (o->diff) {
		write_column(out, t, &ord, "self", COL_SELF, map);
		write_column(out, t, &ord, "old", COL_OLD, map);
		write_column(out, t, &ord, "old_self", COL_OLD_SELF, map);
	}
	fputs("}", out);
	free(map);
	free(ord.nodes);
}

/* A graph's JSON text, in memory. */
struct graph_text {
	char *text;
	size_t len;
};

static void
graph_text(struct graph_text *g, const struct exp_flame_tree *t,
	   const struct exp_opts *o, double min, bool capped)
{
	FILE *mem;

	free(g->text);
	g->text = NULL;
	mem = open_memstream(&g->text, &g->len);
	if (!mem)
		die_oom();
	write_graph(mem, t, o, min, capped);
	if (fclose(mem))
		die_oom();
}

static int
by_value_down(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y) - (x > y);
}

/*
 * A minimum that keeps about `share` of the frames at least min: the
 * value of the next frame, plus one, so that a frame's ancestors (never
 * narrower than it) stay.  0 when that would keep them all.
 */
static double
min_keeping(const struct exp_flame_tree *t, double min, double share)
{
	struct exp_flame_order ord;
	uint64_t *values;
	size_t keep;
	double next = 0;

	exp_flame_tree_order(t, min, &ord);
	keep = (size_t)((double)ord.nr * share);
	if (keep < ord.nr) {
		values = xreallocarray(NULL, ord.nr, sizeof(*values));
		for (size_t i = 0; i < ord.nr; i++)
			values[i] = t->nodes[ord.nodes[i]].value;
		qsort(values, ord.nr, sizeof(*values), by_value_down);
		next = (double)values[keep] + 1;
		free(values);
	}
	free(ord.nodes);
	return next;
}

/*
 * The graph's text within `budget` bytes: where the frames --minwidth
 * keeps would make it larger, the narrowest go too, a tenth more than
 * the size says each time, until it fits (the root alone always does
 * but for names of megabytes).
 */
static void
graph_within(struct graph_text *g, const struct exp_flame_tree *t,
	     const struct exp_opts *o, size_t budget)
{
	double min = min_value(o, t->nodes[0].value);

	graph_text(g, t, o, min, false);
	while (g->len > budget) {
		double next = min_keeping(t, min, (double)budget /
					  (double)g->len * 0.9);

		if (next <= min)
			break;
		min = next;
		graph_text(g, t, o, min, true);
	}
}

/*
 * Each graph's share of the page's limit, after the page itself, the
 * title and file names (escaped, at most 6 bytes a byte) and a kilobyte
 * for the rest; none when those alone fill it.
 */
static size_t
graph_budget(const struct flamegraph *fg, const struct exp_opts *o)
{
	size_t fixed = strlen(exp_flamegraph_page) + 1024 +
		       2 * PATH_MAX_TEXT + (o->title ? 6 * strlen(o->title) : 0);

	if (fixed >= PAGE_LIMIT)
		return 0;
	return (PAGE_LIMIT - fixed) / (fg->nr_order ? fg->nr_order : 1);
}

static void
write_data(struct exp_run *x, const struct flamegraph *fg)
{
	const struct exp_opts *o = x->o;
	FILE *out = x->out;

	fputs("{\"title\":", out);
	json_string(out, o->title ? o->title :
		    o->inverted ? "Icicle Graph" : "Flame Graph");
	fprintf(out, ",\"inverted\":%s,\"diff\":%s,\"width\":%d,\"pad\":%d,"
		"\"minwidth\":\"%g%s\"", o->inverted ? "true" : "false",
		o->diff ? "true" : "false", IMAGE_WIDTH, IMAGE_PAD,
		o->minwidth, o->minwidth_pct ? "%" : " px");
	json_key(out, "input");
	json_string(out, x->input);
	if (o->diff) {
		json_key(out, "old_input");
		json_string(out, o->diff);
	}
	json_key(out, "graphs");
	fputc('[', out);
	for (size_t i = 0; i < fg->nr_order; i++) {
		struct graph_text g = { 0 };

		graph_within(&g, &fg->trees[fg->order[i]], o,
			     graph_budget(fg, o));
		fputs(i ? ",\n" : "\n", out);
		fwrite(g.text, 1, g.len, out);
		free(g.text);
	}
	fputs("]}", out);
}

int
exp_flamegraph(struct exp_run *x, void *state)
{
	struct flamegraph *fg = state;
	const char *mark = strstr(exp_flamegraph_page, DATA_MARK);
	int ret = add_events(x, fg, false);

	if (!ret) {
		fwrite(exp_flamegraph_page, 1,
		       (size_t)(mark - exp_flamegraph_page), x->out);
		write_data(x, fg);
		fputs(mark + strlen(DATA_MARK), x->out);
	}
	flamegraph_free(fg);
	return ret;
}
