/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-callchain.c - callchain trees and their printing,
 * against perf 6.1's own output.
 *
 * callchain-perf.h holds the chains of a real recording of a small
 * program (callchain-perf-gen.py has it, built -O0 -g
 * -fno-omit-frame-pointer): main calls mid -> leaf_a, leaf_b;
 * mid2 -> leaf_b, leaf_c; a recursion rec -> rec -> ... -> leaf_a,
 * leaf_c; deep, 41 levels down to leaf_b; and fan, 41 levels each with
 * a side call, whose graph is more than 32 levels deep with open bars
 * (perf's depth mask wraps there).  With them comes the text perf
 * report --stdio --sort sym printed under chosen entries in every -g
 * mode, both orders, with and without children, with thresholds, print
 * limits and values.  The test builds each entry's tree the way perf's
 * histogram feeds it and compares rep_cc_print() byte for byte.
 * Smaller hand-made trees check splitting, counts, merging and the
 * option parser.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/callchain/callchain.h"
#include "report/callchain/callchain-int.h"
#include "t.h"

#include "callchain-perf.h"

#define PERIOD	100000

/* Stand-ins for DSOs: only their order matters to the tree. */
static char fake_dsos[16];

static struct sym_symbol syms[ARRAY_SIZE(cc_syms)];

static struct sym_dso *
fake_dso(int i)
{
	return i < 0 ? NULL : (struct sym_dso *)(void *)&fake_dsos[i];
}

/* The symbol layer's order of making, for the stand-ins: their index. */
uint64_t
sym_dso_seq(const struct sym_dso *dso)
{
	return dso ? (uint64_t)((const char *)(const void *)dso - fake_dsos) + 1 : 0;
}

static void
locs_init(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cc_syms); i++)
		syms[i] = (struct sym_symbol){
			.start = cc_syms[i].start,
			.end = cc_syms[i].start + 1,
			.name = cc_syms[i].name,
		};
}

static struct ses_loc
loc_of(uint32_t frame)
{
	const struct cc_tframe *f = &cc_frames[frame];

	return (struct ses_loc){
		.dso = fake_dso(f->dso),
		.sym = f->sym < 0 ? NULL : &syms[f->sym],
		.ip = f->sym < 0 ? f->ip : syms[f->sym].start,
	};
}

/* What a histogram entry is keyed on with --sort sym: the symbol, or the ip. */
static bool
frame_is(uint32_t frame, const char *entry)
{
	const struct cc_tframe *f = &cc_frames[frame];

	return f->sym >= 0 && strcmp(cc_syms[f->sym].name, entry) == 0;
}

/* The frames of cc_frames[] as a table of pool for rep_cc_add_ids(). */
static struct rep_cc_frames *
perf_frames(struct rep_cc_pool *pool)
{
	struct ses_loc locs[ARRAY_SIZE(cc_frames)];
	uint32_t i;

	for (i = 0; i < ARRAY_SIZE(cc_frames); i++)
		locs[i] = loc_of(i);
	return rep_cc_frames_new(pool, locs, ARRAY_SIZE(cc_frames));
}

/*
 * Feed the entry's tree as perf's histogram does: without children the
 * samples whose ip is in the entry, whole chain; with children also the
 * samples passing through it, from its first place in cursor order
 * (root first for caller order) to the end of the cursor.  With table,
 * each chain goes in by its frames' ids.
 */
static uint64_t
feed_entry(struct rep_cc_root *root, const struct cc_case *c, bool caller,
	   const struct rep_cc_frames *table)
{
	struct ses_loc locs[256];
	uint64_t total = 0;
	size_t at = 0;

	while (at < ARRAY_SIZE(cc_chains)) {
		uint32_t n = cc_chains[at], nr = cc_chains[at + 1], i, k;
		const uint32_t *fr = &cc_chains[at + 2];
		size_t from = 0, len = 0;
		bool hit = false;

		at += 2 + nr;
		total += (uint64_t)n * PERIOD;
		if (nr > ARRAY_SIZE(locs))
			abort();
		for (i = 0; i < nr; i++)
			locs[i] = loc_of(fr[i]);
		if (frame_is(fr[0], c->entry)) {
			hit = true;
			len = nr;
		} else if (c->children) {
			for (k = 0; k < nr && !hit; k++) {
				i = caller ? nr - 1 - k : k;
				if (!frame_is(fr[i], c->entry))
					continue;
				hit = true;
				from = caller ? 0 : i;
				len = caller ? i + 1 : nr - i;
			}
		}
		if (!hit)
			continue;
		for (i = 0; i < n; i++) {
			if (table)
				rep_cc_add_ids(root, table, fr + from, len,
					       caller, PERIOD, 1);
			else
				rep_cc_add(root, locs + from, len, caller,
					   PERIOD);
		}
	}
	return total;
}

static char *
print_to_string(const struct rep_cc_root *root,
		const struct rep_cc_print_opts *o)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		abort();
	rep_cc_print(f, root, o);
	fclose(f);
	return buf;
}

/* First differing line, to make a failure readable. */
static void
show_diff(const char *got, const char *want)
{
	unsigned int line = 1;

	while (*got && *got == *want) {
		if (*got == '\n')
			line++;
		got++;
		want++;
	}
	fprintf(stderr, "  first difference on line %u:\n"
		"  got:  %.80s\n  want: %.80s\n", line, got, want);
}

/* With table (of pool), the chains go in by their frames' ids. */
static void
test_perf_case(const struct cc_case *c, const struct rep_cc_frames *table,
	       struct rep_cc_pool *pool)
{
	const struct rep_cc_keying keying = { .pool = pool };
	struct rep_cc_param p;
	struct rep_cc_print_opts o;
	struct rep_cc_root *root = rep_cc_new(&keying);
	const char *bad;
	uint64_t total;
	char *got;

	rep_cc_param_init(&p);
	if (c->g)
		T(rep_cc_param_parse(&p, c->g, &bad) == 0, "parse %s", c->g);
	if (c->children && !p.order_set)
		p.caller = true;
	total = feed_entry(root, c, p.caller, table);
	rep_cc_print_opts_init(&o, &p, total, rep_cc_total(root));
	o.skip_first = true;
	got = print_to_string(root, &o);
	T(strcmp(got, c->expect) == 0, "%s %s -g %s%s", c->entry,
	  c->children ? "--children" : "--no-children", c->g ? c->g : "",
	  table ? " (by ids)" : "");
	if (strcmp(got, c->expect) != 0)
		show_diff(got, c->expect);
	free(got);
	rep_cc_free(root);
}

/* Hand-made frames: one DSO, symbols a..h at increasing addresses. */
static struct sym_symbol hand_syms[8];

static void
hand_init(void)
{
	static const char *const names[] = {
		"a", "b", "c", "d", "e", "f", "g", "h",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hand_syms); i++)
		hand_syms[i] = (struct sym_symbol){
			.start = 0x1000 + 0x100 * i,
			.end = 0x1100 + 0x100 * i,
			.name = names[i],
		};
}

/*
 * Add the chain spelled root first by letters; '?' is an unresolved
 * frame at 0x7fff00000010.
 */
static void
hand_add(struct rep_cc_root *root, const char *path, uint64_t period)
{
	struct ses_loc locs[32];
	size_t n = strlen(path), i;

	for (i = 0; i < n; i++) {
		if (path[i] == '?')
			locs[i] = (struct ses_loc){ .ip = 0x7fff00000010ULL };
		else
			locs[i] = (struct ses_loc){
				.dso = fake_dso(0),
				.sym = &hand_syms[path[i] - 'a'],
				.ip = hand_syms[path[i] - 'a'].start + 4,
			};
	}
	rep_cc_add(root, locs, n, false, period);
}

static char *
hand_print(const struct rep_cc_root *root, const char *g, uint64_t total,
	   uint64_t entry)
{
	struct rep_cc_param p;
	struct rep_cc_print_opts o;
	const char *bad;

	rep_cc_param_init(&p);
	T(rep_cc_param_parse(&p, g, &bad) == 0, "parse %s", g);
	rep_cc_print_opts_init(&o, &p, total, entry);
	return print_to_string(root, &o);
}

static void
expect_print(const struct rep_cc_root *root, const char *g, uint64_t total,
	     uint64_t entry, const char *want, const char *what)
{
	char *got = hand_print(root, g, total, entry);

	T(strcmp(got, want) == 0, "%s", what);
	if (strcmp(got, want) != 0)
		show_diff(got, want);
	free(got);
}

/*
 * Splits: a chain ending inside a node, and one leaving it, keep perf's
 * totals.
 */
static void
test_split(void)
{
	struct rep_cc_root *r = rep_cc_new(NULL);
	const struct cc_node *n;

	hand_add(r, "abcd", 10);
	hand_add(r, "ab", 5);		/* ends inside abcd */
	hand_add(r, "abe", 3);		/* leaves after ab */
	hand_add(r, "abcd", 1);
	T_EQ_U64(rep_cc_total(r), 19, "total");
	/* root, "ab", "cd", "e" */
	T_EQ_U64(r->nr_nodes, 4, "nodes");
	n = &r->nodes[CC_ROOT];
	T_EQ_U64(n->children_hit, 19, "root children_hit");
	T_EQ_U64(n->children_count, 4, "root children_count");
	for (n = &r->nodes[1]; n < &r->nodes[r->nr_nodes]; n++) {
		const char *first = cc_tree_frame(r, n->first)->sym->name;

		if (!strcmp(first, "a")) {
			T_EQ_U64(n->nr, 2, "ab frames");
			T_EQ_U64(n->hit, 5, "ab hit");
			T_EQ_U64(n->children_hit, 14, "ab children_hit");
			T_EQ_U64(n->count, 1, "ab count");
			T_EQ_U64(n->children_count, 3, "ab children_count");
		} else if (!strcmp(first, "c")) {
			T_EQ_U64(n->hit, 11, "cd hit");
			T_EQ_U64(n->count, 2, "cd count");
		} else {
			T_EQ_U64(n->hit, 3, "e hit");
		}
	}
	/* an unresolved frame merges by ip, apart from resolved ones */
	hand_add(r, "a?", 2);
	hand_add(r, "a?", 2);
	T_EQ_U64(r->nr_nodes, 6, "nodes after ?");
	rep_cc_free(r);
}

/*
 * Shapes checked against perf's printing rules: one branch equal to the
 * entry prints "---" without a value; sibling ties go to the higher
 * symbol address first; fractal shows "[...]" for what the threshold
 * hid.
 */
static void
test_hand_graph(void)
{
	struct rep_cc_root *r = rep_cc_new(NULL);

	hand_add(r, "abc", 40);
	hand_add(r, "abd", 40);
	hand_add(r, "ae", 19);
	hand_add(r, "af?", 1);
	expect_print(r, "graph,0.5", 200, 150,
		     "            |          \n"
		     "             --50.00%--a\n"
		     "                       |          \n"
		     "                       |--40.00%--b\n"
		     "                       |          |          \n"
		     "                       |          |--20.00%--d\n"
		     "                       |          |          \n"
		     "                       |           --20.00%--c\n"
		     "                       |          \n"
		     "                       |--9.50%--e\n"
		     "                       |          \n"
		     "                        --0.50%--f\n"
		     "                                  0x7fff00000010\n"
		     "\n", "graph, ties by address, unresolved ip");
	expect_print(r, "graph,0.5", 100, 100,
		     "            |\n"
		     "            ---a\n"
		     "               |          \n"
		     "               |--80.00%--b\n"
		     "               |          |          \n"
		     "               |          |--40.00%--d\n"
		     "               |          |          \n"
		     "               |           --40.00%--c\n"
		     "               |          \n"
		     "               |--19.00%--e\n"
		     "               |          \n"
		     "                --1.00%--f\n"
		     "                          0x7fff00000010\n"
		     "\n", "single branch rule");
	expect_print(r, "fractal,20", 100, 100,
		     "            |\n"
		     "            ---a\n"
		     "               |          \n"
		     "               |--80.00%--b\n"
		     "               |          |          \n"
		     "               |          |--50.00%--d\n"
		     "               |          |          \n"
		     "               |           --50.00%--c\n"
		     "                --20.00%--[...] (inlined)\n"
		     "\n", "fractal remainder");
	expect_print(r, "folded,0,period", 100, 100,
		     "40 a;b;d\n"
		     "40 a;b;c\n"
		     "19 a;e\n"
		     "1 a;f;0x7fff00000010\n", "folded period");
	expect_print(r, "graph,101", 100, 100, "", "all below the threshold");
	rep_cc_free(r);
}

/* A merged tree equals the tree of all chains; counts follow perf's merge. */
static void
test_merge(void)
{
	struct rep_cc_root *a = rep_cc_new(NULL), *b = rep_cc_new(NULL),
			   *all = rep_cc_new(NULL);
	char *whole;

	hand_add(a, "abc", 7);
	hand_add(a, "ab", 3);
	hand_add(b, "abd", 5);
	hand_add(b, "e", 2);
	hand_add(all, "abc", 7);
	hand_add(all, "ab", 3);
	hand_add(all, "abd", 5);
	hand_add(all, "e", 2);
	rep_cc_merge(a, b);
	T_EQ_U64(rep_cc_total(a), 17, "merged total");
	whole = hand_print(all, "graph,0", 17, 17);
	expect_print(a, "graph,0", 17, 17, whole, "merged tree prints as the whole");
	free(whole);
	rep_cc_free(a);
	rep_cc_free(b);
	rep_cc_free(all);
}

/*
 * Trees of one pool keep each distinct frame once, in the pool, and
 * print as trees with their own; a merge between trees of one pool, or
 * of two, gives the same tree.
 */
static void
test_pool(void)
{
	struct rep_cc_pool *pool = rep_cc_pool_new();
	const struct rep_cc_keying shared = { .pool = pool };
	struct rep_cc_root *a = rep_cc_new(&shared), *b = rep_cc_new(&shared),
			   *own = rep_cc_new(NULL), *m = rep_cc_new(&shared);
	char *want;

	hand_add(a, "abc", 7);
	hand_add(a, "ab?", 3);
	hand_add(b, "abd", 5);
	hand_add(b, "eab", 2);
	T_EQ_U64(pool->nr, 6, "distinct frames of two trees");
	T_EQ_U64(a->nr_frames + b->nr_frames, 10, "the trees' frames");
	hand_add(own, "abc", 7);
	hand_add(own, "ab?", 3);
	want = hand_print(own, "graph,0", 10, 10);
	expect_print(a, "graph,0", 10, 10, want, "shared pool prints as own");
	free(want);
	rep_cc_merge(m, a);
	rep_cc_merge(m, b);
	rep_cc_merge(own, b);
	T_EQ_U64(pool->nr, 6, "a merge in the pool adds no frame");
	want = hand_print(own, "graph,0", 17, 17);
	expect_print(m, "graph,0", 17, 17, want,
		     "merge in one pool equals merge across two");
	free(want);
	rep_cc_free(a);
	rep_cc_free(b);
	rep_cc_free(m);
	rep_cc_free(own);
	rep_cc_pool_free(pool);
}

static void
test_param(void)
{
	struct rep_cc_param p;
	const char *bad;

	rep_cc_param_init(&p);
	T(p.mode == REP_CC_GRAPH && p.min_percent == 0.5 && !p.caller &&
	  !p.order_set, "defaults");
	T(rep_cc_param_parse(&p, "graph,0.5,caller,function,percent",
			     &bad) == 0, "bare -g");
	T(p.caller && p.order_set && p.value == REP_CC_VALUE_PERCENT,
	  "bare -g values");
	T(rep_cc_param_parse(&p, "f,,2,7", &bad) == 0 &&
	  p.mode == REP_CC_FLAT && p.min_percent == 2 && p.print_limit == 7,
	  "prefixes and numbers");
	T(rep_cc_param_parse(&p, "fo,calle,co", &bad) == 0 &&
	  p.mode == REP_CC_FOLDED && p.caller && p.value == REP_CC_VALUE_COUNT,
	  "calle is caller, co is count");
	T(rep_cc_param_parse(&p, "fr,callee,peri", &bad) == 0 &&
	  p.mode == REP_CC_FRACTAL && !p.caller &&
	  p.value == REP_CC_VALUE_PERIOD, "fractal callee period");
	T(rep_cc_param_parse(&p, "n,garbage", &bad) == 0 &&
	  p.mode == REP_CC_NONE, "none stops");
	T(rep_cc_param_parse(&p, "graph,xyz", &bad) < 0 &&
	  bad && strcmp(bad, "xyz") == 0, "bad token");
	T(rep_cc_param_parse(&p, "1,2,zz", &bad) < 0 && strcmp(bad, "zz") == 0,
	  "third number");
}

/*
 * Branches nested thousands deep (each chain leaves the long one a frame
 * later) print without exhausting the stack.
 */
static void
test_deep(void)
{
	enum { DEPTH = 2000 };
	struct rep_cc_root *r = rep_cc_new(NULL);
	struct rep_cc_print_opts o;
	struct rep_cc_param p;
	struct ses_loc *locs;
	FILE *null;
	size_t i;

	locs = calloc(DEPTH + 1, sizeof(*locs));
	null = fopen("/dev/null", "w");
	if (!locs || !null)
		abort();
	for (i = 0; i < DEPTH; i++)
		locs[i] = (struct ses_loc){ .ip = 0x1000 + i };
	for (i = 0; i < DEPTH; i++) {
		struct ses_loc keep = locs[i];

		locs[i] = (struct ses_loc){ .ip = 0x9999 };
		rep_cc_add(r, locs, i + 1, false, 1);
		locs[i] = keep;
	}
	rep_cc_add(r, locs, DEPTH, false, 1);
	T_EQ_U64(r->nr_nodes, 2 * DEPTH + 1, "deep nodes");
	rep_cc_param_init(&p);
	p.min_percent = 0;
	p.mode = REP_CC_GRAPH;
	rep_cc_print_opts_init(&o, &p, DEPTH + 1, DEPTH + 1);
	rep_cc_print(null, r, &o);
	o.mode = REP_CC_FRACTAL;
	rep_cc_print(null, r, &o);
	o.mode = REP_CC_FLAT;
	rep_cc_print(null, r, &o);
	T(!ferror(null), "deep prints");
	fclose(null);
	rep_cc_free(r);
	free(locs);
}

/* Random chains over a few frames, so that they share and split a lot. */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint32_t
rnd(uint32_t n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (uint32_t)(rnd_state % n);
}

struct rnd_chain {
	char path[12];
	uint64_t period;
};

/* The frames from the root down to the end of node n, as letters. */
static void
node_path(const struct rep_cc_root *r, uint32_t n, char *buf, size_t size)
{
	size_t len = 0, at;
	uint32_t i, k;

	for (i = n; i != CC_ROOT; i = r->nodes[i].parent)
		len += r->nodes[i].nr;
	if (len >= size)
		abort();
	buf[len] = '\0';
	at = len;
	for (i = n; i != CC_ROOT; i = r->nodes[i].parent) {
		at -= r->nodes[i].nr;
		for (k = 0; k < r->nodes[i].nr; k++) {
			const struct cc_frame *f =
				cc_tree_frame(r, r->nodes[i].first + k);

			buf[at + k] = f->sym ? f->sym->name[0] : '?';
		}
	}
}

/*
 * The tree's invariants: totals add up, siblings differ in their first
 * frame, only a node where chains end may have a single child, and the
 * ends with their hits are the chains that were added.
 */
static void
check_tree(const struct rep_cc_root *r, const struct rnd_chain *chains,
	   size_t nr)
{
	uint64_t *kid_hit = calloc(r->nr_nodes, sizeof(*kid_hit));
	uint32_t *kids = calloc(r->nr_nodes, sizeof(*kids));
	uint64_t sum = 0, want;
	uint32_t n, m, bad = 0;
	char path[64];
	size_t i;

	if (!kid_hit || !kids)
		abort();
	for (n = 1; n < r->nr_nodes; n++) {
		const struct cc_node *c = &r->nodes[n];

		kid_hit[c->parent] += cc_cumul_hit(c);
		kids[c->parent]++;
		if (!c->nr)
			bad++;
		for (m = n + 1; m < r->nr_nodes; m++)
			if (r->nodes[m].parent == c->parent &&
			    cc_frame_cmp(REP_CC_KEY_FUNCTION,
					 cc_tree_frame(r, c->first),
					 cc_tree_frame(r, r->nodes[m].first)) == 0)
				bad++;
	}
	for (n = 0; n < r->nr_nodes; n++) {
		const struct cc_node *c = &r->nodes[n];

		if (kid_hit[n] != c->children_hit)
			bad++;
		if (n != CC_ROOT && !c->hit && kids[n] < 2)
			bad++;
		if (!c->hit)
			continue;
		node_path(r, n, path, sizeof(path));
		want = 0;
		for (i = 0; i < nr; i++)
			if (!strcmp(chains[i].path, path))
				want += chains[i].period;
		if (want != c->hit)
			bad++;
		sum += c->hit;
	}
	for (i = 0, want = 0; i < nr; i++)
		want += chains[i].period;
	T(sum == want && rep_cc_total(r) == want, "random tree totals");
	T(bad == 0, "random tree: %u broken invariants", bad);
	free(kid_hit);
	free(kids);
}

static void
test_random(void)
{
	enum { CHAINS = 3000 };
	struct rnd_chain *chains = calloc(CHAINS, sizeof(*chains));
	struct rep_cc_root *all = rep_cc_new(NULL), *a = rep_cc_new(NULL),
			   *b = rep_cc_new(NULL);
	char *whole;
	size_t i, k, len;

	if (!chains)
		abort();
	for (i = 0; i < CHAINS; i++) {
		len = 1 + rnd(10);
		for (k = 0; k < len; k++)
			chains[i].path[k] = rnd(8) ? (char)('a' + rnd(4)) : '?';
		chains[i].period = 1 + rnd(1000);
		hand_add(all, chains[i].path, chains[i].period);
		hand_add(i % 2 ? a : b, chains[i].path, chains[i].period);
	}
	check_tree(all, chains, CHAINS);
	rep_cc_merge(a, b);
	check_tree(a, chains, CHAINS);
	whole = hand_print(all, "graph,0", 1, 1);
	expect_print(a, "graph,0", 1, 1, whole, "random merge prints as the whole");
	free(whole);
	rep_cc_free(all);
	rep_cc_free(a);
	rep_cc_free(b);
	free(chains);
}

/* perf's counts_str_build() on hand-made counts (doc/perf-records.md §6.11) */
static void
test_branch_counts(void)
{
	struct cc_bcount bc;
	char buf[256];

	cc_bcount_text(NULL, buf, sizeof(buf));
	T(!strcmp(buf, " (calltrace)"), "remainder: '%s'", buf);
	memset(&bc, 0, sizeof(bc));
	cc_bcount_text(&bc, buf, sizeof(buf));
	T(!strcmp(buf, " (calltrace)"), "no branch: '%s'", buf);

	/* an abort share under 0.1% still closes a parenthesis */
	bc = (struct cc_bcount){ .branch_count = 2000, .predicted_count = 2000,
				 .abort_count = 1 };
	bc.st.branch_to = true;
	cc_bcount_text(&bc, buf, sizeof(buf));
	T(!strcmp(buf, ")"), "tiny abort: '%s'", buf);

	bc = (struct cc_bcount){ .branch_count = 8, .predicted_count = 7,
				 .abort_count = 2 };
	bc.st.branch_to = true;
	bc.st.counts[PD_BR_COND] = 5;
	bc.st.counts[PD_BR_CALL] = 1;
	bc.st.new_counts[PD_BR_NEW_FAULT_DATA] = 1;
	bc.st.cond_fwd = 3;
	bc.st.cond_bwd = 2;
	bc.st.cross_4k = 1;
	bc.st.cross_2m = 1;
	cc_bcount_text(&bc, buf, sizeof(buf));
	T(!strcmp(buf, " (COND_FWD COND_BWD CALL FAULT_DATA CROSS_4K CROSS_2M"
		       " predicted:87.5% abort:25.0%)"), "target: '%s'", buf);
	/* the graph's branch lines print through 64 bytes */
	cc_bcount_text(&bc, buf, 64);
	T(strlen(buf) == 63 && !strncmp(buf, " (COND_FWD COND_BWD CALL", 24),
	  "clipped: '%s'", buf);

	bc = (struct cc_bcount){ .branch_count = 3, .cycles_count = 10,
				 .iter_count = 5, .iter_cycles = 50,
				 .from_count = 2 };
	cc_bcount_text(&bc, buf, sizeof(buf));
	T(!strcmp(buf, " (cycles:3 iter:2 avg_cycles:10)"), "source: '%s'", buf);
	/* iterations of a frame never matched (from_count 0) are not shown */
	bc = (struct cc_bcount){ .branch_count = 1, .iter_count = 5,
				 .iter_cycles = 50 };
	cc_bcount_text(&bc, buf, sizeof(buf));
	T(!strcmp(buf, ""), "fresh source: '%s'", buf);
}

int
main(void)
{
	struct rep_cc_pool *pool = rep_cc_pool_new();
	struct rep_cc_frames *table;
	size_t i;

	locs_init();
	hand_init();
	table = perf_frames(pool);
	for (i = 0; i < ARRAY_SIZE(cc_cases); i++) {
		test_perf_case(&cc_cases[i], NULL, NULL);
		test_perf_case(&cc_cases[i], table, pool);
	}
	rep_cc_frames_free(table);
	rep_cc_pool_free(pool);
	test_split();
	test_hand_graph();
	test_merge();
	test_pool();
	test_param();
	test_deep();
	test_random();
	test_branch_counts();
	return t_done("test-callchain");
}
