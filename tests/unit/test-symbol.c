/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-symbol.c - symbol/'s table rules on synthetic symbols:
 * the red-black tree stays valid through perf's insert/erase sequences,
 * perf 6.1's end fixup and alias choice, its lookup rule, and overlaps
 * resolved the way perf's tree walk resolves them; DSOs numbered in the
 * order the session asks for them, whatever another thread named first.
 */
#include "config.h"

#include <elf.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "symbol/sym-int.h"
#include "tests/unit/t.h"

/* Black height of the subtree at i, or -1 when a rule is broken. */
static int
check_node(const struct sym_builder *b, int32_t i, uint64_t lo, uint64_t hi)
{
	const struct sym_ent *e;
	int l, r;

	if (i < 0)
		return 1;
	e = &b->ents[i];
	if (e->dead || e->start < lo || e->start > hi)
		return -1;
	if (e->red && ((e->left >= 0 && b->ents[e->left].red) ||
		       (e->right >= 0 && b->ents[e->right].red)))
		return -1;
	if ((e->left >= 0 && b->ents[e->left].parent != i) ||
	    (e->right >= 0 && b->ents[e->right].parent != i))
		return -1;
	l = check_node(b, e->left, lo, e->start);
	r = check_node(b, e->right, e->start, hi);
	if (l < 0 || r < 0 || l != r)
		return -1;
	return l + !e->red;
}

static void
test_tree_invariants(void)
{
	struct sym_builder b;
	size_t n = 0;
	int32_t i;
	int k;

	sym_builder_init(&b);
	srand(7);
	for (k = 0; k < 3000; k++)
		sym_builder_add(&b, (uint64_t)(rand() % 500) * 16,
				(uint64_t)(rand() % 3) * 8, STB_GLOBAL, STT_FUNC,
				k & 1 ? "a" : "bb");
	T(check_node(&b, b.root, 0, UINT64_MAX) > 0, "tree valid after inserts");
	sym_builder_fixup_end(&b, false);
	sym_builder_dedup(&b);
	T(check_node(&b, b.root, 0, UINT64_MAX) > 0, "tree valid after erases");
	for (i = sym_builder_first(&b); i >= 0; i = sym_builder_next(&b, i)) {
		int32_t j = sym_builder_next(&b, i);

		if (j >= 0)
			T(b.ents[i].start < b.ents[j].start,
			  "one symbol per start after dedup");
		n++;
	}
	T_EQ_U64(n, b.live, "in-order walk sees every live node");
	sym_builder_free(&b);
}

static const struct sym_symbol *
find(const struct sym_table *t, uint64_t a)
{
	return sym_table_find(t, a);
}

static void
test_fixup_and_aliases(void)
{
	struct sym_builder b;
	struct sym_table *t;
	const struct sym_symbol *s;

	sym_builder_init(&b);
	/* zero-size, extended to the next start */
	sym_builder_add(&b, 0x1000, 0, STB_GLOBAL, STT_FUNC, "zero");
	/* aliases at 0x2000: sized beats zero, non-weak beats weak,
	 * global beats local, fewer underscores, longer name */
	sym_builder_add(&b, 0x2000, 0x10, STB_WEAK, STT_FUNC, "weak_one");
	sym_builder_add(&b, 0x2000, 0x10, STB_GLOBAL, STT_FUNC, "__glob");
	sym_builder_add(&b, 0x2000, 0x10, STB_GLOBAL, STT_FUNC, "glob");
	sym_builder_add(&b, 0x2000, 0, STB_GLOBAL, STT_FUNC, "g");
	sym_builder_add(&b, 0x3000, 0x10, STB_LOCAL, STT_FUNC, "loc");
	sym_builder_add(&b, 0x3000, 0x10, STB_LOCAL, STT_FUNC, "longer");
	sym_builder_add(&b, 0x4000, 0x8, STB_GLOBAL, STT_OBJECT, "obj");
	/* the last zero-size symbol ends a page after its page */
	sym_builder_add(&b, 0x5010, 0, STB_GLOBAL, STT_FUNC, "last");
	sym_builder_fixup_end(&b, false);
	sym_builder_dedup(&b);
	t = sym_builder_finish(&b);
	T(t != NULL, "table built");
	if (!t)
		return;
	s = find(t, 0x1fff);
	T(s && !strcmp(s->name, "zero"), "zero-size symbol extended");
	s = find(t, 0x2004);
	T(s && !strcmp(s->name, "glob"), "alias choice: got %s", s ? s->name : "-");
	s = find(t, 0x3004);
	T(s && !strcmp(s->name, "longer"), "longer name wins");
	s = find(t, 0x2010);
	T(s == NULL, "end is exclusive");
	s = find(t, 0x4004);
	T(s && s->is_object, "objects are flagged");
	s = find(t, 0x6fff);
	T(s && !strcmp(s->name, "last"), "last symbol end");
	T(find(t, 0x7000) == NULL, "nothing past the last end");
	sym_table_free(t);
}

/*
 * perf 6.1's walk returns the first node on the path that covers the
 * address: with _init extended over later symbols, which one wins
 * depends on the shape, as in perf.
 */
static void
test_overlap_walk(void)
{
	struct sym_builder b;
	struct sym_table *t;
	const struct sym_symbol *s;

	sym_builder_init(&b);
	sym_builder_add(&b, 0x1000, 0, STB_GLOBAL, STT_FUNC, "_init");
	sym_builder_add(&b, 0x1050, 0x20, STB_GLOBAL, STT_FUNC, "_start");
	sym_builder_add(&b, 0x1100, 0x20, STB_GLOBAL, STT_FUNC, "main");
	sym_builder_fixup_end(&b, false);
	sym_builder_dedup(&b);
	/* PLT entries inside _init's extended range, added afterwards */
	sym_builder_add(&b, 0x1030, 0x10, STB_GLOBAL, STT_FUNC, "a@plt");
	sym_builder_add(&b, 0x1040, 0x10, STB_GLOBAL, STT_FUNC, "b@plt");
	t = sym_builder_finish(&b);
	T(t != NULL, "table built");
	if (!t)
		return;
	/*
	 * The second insert rotates a@plt above _init (root _start, left
	 * a@plt with children _init and b@plt): the walk meets a@plt first
	 * for 0x1034 and b@plt for 0x1044, and _init only below 0x1030.
	 */
	s = find(t, 0x1034);
	T(s && !strcmp(s->name, "a@plt"), "overlap: got %s", s ? s->name : "-");
	s = find(t, 0x1044);
	T(s && !strcmp(s->name, "b@plt"), "overlap: got %s", s ? s->name : "-");
	s = find(t, 0x1010);
	T(s && !strcmp(s->name, "_init"), "overlap: got %s", s ? s->name : "-");
	s = find(t, 0x1060);
	T(s && !strcmp(s->name, "_start"), "_start found");
	sym_table_free(t);
}

/*
 * A DSO named ahead (sym_dso_hint(), the reading thread's) is the one
 * sym_dso_get() gives, numbered when the session first asks for it.
 */
static void
test_hint_order(void)
{
	static const uint8_t bid[] = { 1, 2, 3, 4 };
	struct sym_opts opts = { 0 };
	struct sym_ctx *ctx = sym_ctx_new(&opts);
	struct sym_dso *a, *b, *c;

	T(ctx != NULL, "sym_ctx_new");
	if (!ctx)
		return;
	/* without a loading thread a hint makes nothing */
	sym_dso_hint(ctx, "/no/thread", NULL, 0);
	sym_ctx_warm_start(ctx, false);
	T(sym_ctx_warming(ctx), "loading thread started");
	sym_dso_hint(ctx, "/nonexistent/b.so", bid, sizeof(bid));
	sym_dso_hint(ctx, "/nonexistent/c.so", NULL, 0);
	a = sym_dso_get(ctx, "/nonexistent/a.so", NULL, 0);
	b = sym_dso_get(ctx, "/nonexistent/b.so", bid, sizeof(bid));
	c = sym_dso_get(ctx, "/no/thread", NULL, 0);
	T_EQ_U64(sym_dso_seq(a), 1, "the first asked for");
	T_EQ_U64(sym_dso_seq(b), 2, "named first, asked for second");
	T_EQ_U64(sym_dso_seq(c), 3, "asked for third");
	/* asked again: the same DSO, the same number */
	T(sym_dso_get(ctx, "/nonexistent/b.so", bid, sizeof(bid)) == b,
	  "the hinted DSO is the one asked for");
	T_EQ_U64(sym_dso_seq(b), 2, "asked again");
	/* named ahead, asked for last: last */
	T_EQ_U64(sym_dso_seq(sym_dso_get(ctx, "/nonexistent/c.so", NULL, 0)),
		 4, "named second, asked for fourth");
	sym_ctx_free(ctx);
}

static const char *
ks_name(const struct sym_table *t, uint64_t addr)
{
	const struct sym_symbol *s = t ? sym_table_find(t, addr) : NULL;

	return s ? s->name : "(none)";
}

/*
 * A kallsyms file's symbols by table: the kernel's and each module's,
 * with their names whole once the file's text is gone.
 */
static void
test_kallsyms_names(void)
{
	static const char text[] =
		"0000000000000000 A fixed_percpu_data\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81000100 T start_kernel\n"
		"ffffffff81000200 t helper\n"
		"ffffffff82000000 D some_data\n"
		"ffffffffc0000000 t mod_fn\t[mymod]\n"
		"ffffffffc0000100 T mod_fn2\t[mymod]\n"
		"ffffffffc1000000 t other_fn\t[other]\n";
	char dir[256], path[300];
	struct sym_kallsyms k = { 0 };
	FILE *f;

	if (!t_tmpdir("test-symbol", dir, sizeof(dir)))
		abort();
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	f = fopen(path, "w");
	T(f && fwrite(text, 1, sizeof(text) - 1, f) == sizeof(text) - 1 &&
	  fclose(f) == 0, "kallsyms file written");
	T_EQ_U64(sym_kallsyms_load(path, &k), 0, "kallsyms loaded");
	t_tmpdir_remove(dir);
	T(!strcmp(ks_name(k.kernel, 0xffffffff81000150), "start_kernel") &&
	  !strcmp(ks_name(k.kernel, 0xffffffff81000210), "helper") &&
	  !strcmp(ks_name(k.kernel, 0xffffffff82000000), "some_data"),
	  "kernel symbols by name");
	T_EQ_U64(k.nr_mods, 2, "modules");
	if (k.nr_mods == 2) {
		T(!strcmp(k.mod_names[0], "[mymod]") &&
		  !strcmp(k.mod_names[1], "[other]"), "module names");
		T(!strcmp(ks_name(k.mods[0], 0xffffffffc0000050), "mod_fn") &&
		  !strcmp(ks_name(k.mods[0], 0xffffffffc0000100), "mod_fn2") &&
		  !strcmp(ks_name(k.mods[1], 0xffffffffc1000000), "other_fn"),
		  "module symbols, names cut at the tab");
	}
	sym_kallsyms_free(&k);
}

int
main(void)
{
	test_tree_invariants();
	test_kallsyms_names();
	test_fixup_and_aliases();
	test_overlap_walk();
	test_hint_order();
	return t_done("test-symbol");
}
