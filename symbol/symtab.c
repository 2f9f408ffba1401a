/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/symtab.c - building symbol tables with perf 6.1's fixups, and
 * looking addresses up in them.
 *
 * perf keeps symbols in a red-black tree keyed by start, where an equal
 * start goes right of the existing nodes, and looks addresses up by
 * walking down from the root.  Where symbols overlap (a zero-size symbol
 * extended over PLT entries, sized symbols that nest), which one the
 * walk meets first depends on the tree's shape, so we build the same
 * tree: the textbook red-black insert and erase (successor replacement),
 * which is also what the kernel's lib/rbtree does.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <elf.h>

#include "symbol/sym-int.h"

/* Bounds that keep a hostile input from asking for unbounded memory. */
#define SYM_MAX_SYMS	(64u << 20)
#define SYM_MAX_POOL	(UINT32_MAX - 1)

void
sym_builder_init(struct sym_builder *b)
{
	memset(b, 0, sizeof(*b));
	b->root = -1;
}

void
sym_builder_free(struct sym_builder *b)
{
	free(b->ents);
	free(b->pool);
	sym_builder_init(b);
}

static bool
grow(void **p, size_t *cap, size_t need, size_t elem, size_t max)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return true;
	if (need > max)
		return false;
	while (n < need)
		n *= 2;
	if (n > max)
		n = max;
	q = realloc(*p, n * elem);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

#define NIL (-1)
#define N(b, i) ((b)->ents[(i)])

static bool
is_red(const struct sym_builder *b, int32_t i)
{
	return i != NIL && N(b, i).red;
}

static void
set_child(struct sym_builder *b, int32_t parent, int32_t old, int32_t new)
{
	if (parent == NIL)
		b->root = new;
	else if (N(b, parent).left == old)
		N(b, parent).left = new;
	else
		N(b, parent).right = new;
	if (new != NIL)
		N(b, new).parent = parent;
}

static void
rotate_left(struct sym_builder *b, int32_t x)
{
	int32_t y = N(b, x).right;

	N(b, x).right = N(b, y).left;
	if (N(b, y).left != NIL)
		N(b, N(b, y).left).parent = x;
	set_child(b, N(b, x).parent, x, y);
	N(b, y).left = x;
	N(b, x).parent = y;
}

static void
rotate_right(struct sym_builder *b, int32_t x)
{
	int32_t y = N(b, x).left;

	N(b, x).left = N(b, y).right;
	if (N(b, y).right != NIL)
		N(b, N(b, y).right).parent = x;
	set_child(b, N(b, x).parent, x, y);
	N(b, y).right = x;
	N(b, x).parent = y;
}

static void
insert_fixup(struct sym_builder *b, int32_t z)
{
	while (is_red(b, N(b, z).parent)) {
		int32_t p = N(b, z).parent, g = N(b, p).parent, u;

		if (p == N(b, g).left) {
			u = N(b, g).right;
			if (is_red(b, u)) {
				N(b, p).red = N(b, u).red = false;
				N(b, g).red = true;
				z = g;
				continue;
			}
			if (z == N(b, p).right) {
				z = p;
				rotate_left(b, z);
				p = N(b, z).parent;
			}
			N(b, p).red = false;
			N(b, g).red = true;
			rotate_right(b, g);
		} else {
			u = N(b, g).left;
			if (is_red(b, u)) {
				N(b, p).red = N(b, u).red = false;
				N(b, g).red = true;
				z = g;
				continue;
			}
			if (z == N(b, p).left) {
				z = p;
				rotate_right(b, z);
				p = N(b, z).parent;
			}
			N(b, p).red = false;
			N(b, g).red = true;
			rotate_left(b, g);
		}
	}
	N(b, b->root).red = false;
}

static void
tree_insert(struct sym_builder *b, int32_t z)
{
	int32_t cur = b->root, parent = NIL;
	bool left = false;

	while (cur != NIL) {
		parent = cur;
		left = N(b, z).start < N(b, cur).start;
		cur = left ? N(b, cur).left : N(b, cur).right;
	}
	N(b, z).parent = parent;
	N(b, z).left = N(b, z).right = NIL;
	N(b, z).red = true;
	if (parent == NIL)
		b->root = z;
	else if (left)
		N(b, parent).left = z;
	else
		N(b, parent).right = z;
	insert_fixup(b, z);
}

static void
erase_fixup(struct sym_builder *b, int32_t x, int32_t xp)
{
	while (x != b->root && !is_red(b, x) && xp != NIL) {
		int32_t w;

		if (N(b, xp).right != x) {	/* x is the left child */
			w = N(b, xp).right;
			if (is_red(b, w)) {
				N(b, w).red = false;
				N(b, xp).red = true;
				rotate_left(b, xp);
				w = N(b, xp).right;
			}
			if (!is_red(b, N(b, w).left) && !is_red(b, N(b, w).right)) {
				N(b, w).red = true;
				x = xp;
				xp = N(b, x).parent;
				continue;
			}
			if (!is_red(b, N(b, w).right)) {
				N(b, N(b, w).left).red = false;
				N(b, w).red = true;
				rotate_right(b, w);
				w = N(b, xp).right;
			}
			N(b, w).red = N(b, xp).red;
			N(b, xp).red = false;
			N(b, N(b, w).right).red = false;
			rotate_left(b, xp);
		} else {
			w = N(b, xp).left;
			if (is_red(b, w)) {
				N(b, w).red = false;
				N(b, xp).red = true;
				rotate_right(b, xp);
				w = N(b, xp).left;
			}
			if (!is_red(b, N(b, w).left) && !is_red(b, N(b, w).right)) {
				N(b, w).red = true;
				x = xp;
				xp = N(b, x).parent;
				continue;
			}
			if (!is_red(b, N(b, w).left)) {
				N(b, N(b, w).right).red = false;
				N(b, w).red = true;
				rotate_left(b, w);
				w = N(b, xp).left;
			}
			N(b, w).red = N(b, xp).red;
			N(b, xp).red = false;
			N(b, N(b, w).left).red = false;
			rotate_right(b, xp);
		}
		x = b->root;
		break;
	}
	if (x != NIL)
		N(b, x).red = false;
}

static void
tree_erase(struct sym_builder *b, int32_t z)
{
	int32_t x, xp, y = z;
	bool y_red = N(b, y).red;

	if (N(b, z).left == NIL) {
		x = N(b, z).right;
		xp = N(b, z).parent;
		set_child(b, N(b, z).parent, z, x);
	} else if (N(b, z).right == NIL) {
		x = N(b, z).left;
		xp = N(b, z).parent;
		set_child(b, N(b, z).parent, z, x);
	} else {
		y = N(b, z).right;
		while (N(b, y).left != NIL)
			y = N(b, y).left;
		y_red = N(b, y).red;
		x = N(b, y).right;
		if (N(b, y).parent == z) {
			xp = y;
		} else {
			xp = N(b, y).parent;
			set_child(b, N(b, y).parent, y, x);
			N(b, y).right = N(b, z).right;
			N(b, N(b, y).right).parent = y;
		}
		set_child(b, N(b, z).parent, z, y);
		N(b, y).left = N(b, z).left;
		N(b, N(b, y).left).parent = y;
		N(b, y).red = N(b, z).red;
	}
	N(b, z).dead = true;
	b->live--;
	if (!y_red)
		erase_fixup(b, x, xp);
}

int32_t
sym_builder_first(const struct sym_builder *b)
{
	int32_t i = b->root;

	if (i == NIL)
		return NIL;
	while (N(b, i).left != NIL)
		i = N(b, i).left;
	return i;
}

int32_t
sym_builder_next(const struct sym_builder *b, int32_t i)
{
	int32_t p;

	if (N(b, i).right != NIL) {
		i = N(b, i).right;
		while (N(b, i).left != NIL)
			i = N(b, i).left;
		return i;
	}
	p = N(b, i).parent;
	while (p != NIL && i == N(b, p).right) {
		i = p;
		p = N(b, p).parent;
	}
	return p;
}

void
sym_builder_add(struct sym_builder *b, uint64_t start, uint64_t len,
		uint8_t binding, uint8_t type, const char *name)
{
	size_t nlen = strlen(name) + 1;
	struct sym_ent *e;

	if (b->failed)
		return;
	if (!grow((void **)&b->ents, &b->cap, b->nr + 1, sizeof(*b->ents),
		  SYM_MAX_SYMS) ||
	    nlen > SYM_MAX_POOL - b->pool_len ||
	    !grow((void **)&b->pool, &b->pool_cap, b->pool_len + nlen, 1,
		  SYM_MAX_POOL)) {
		b->failed = true;
		return;
	}
	e = &b->ents[b->nr];
	memset(e, 0, sizeof(*e));
	e->start = start;
	e->end = start + len;
	e->name = (uint32_t)b->pool_len;
	e->binding = binding;
	e->type = type;
	memcpy(b->pool + b->pool_len, name, nlen);
	b->pool_len += nlen;
	tree_insert(b, (int32_t)b->nr);
	b->nr++;
	b->live++;
}

static uint64_t
page_roundup(uint64_t x)
{
	return (x + 4095) & ~(uint64_t)4095;
}

void
sym_builder_fixup_end(struct sym_builder *b, bool is_kallsyms)
{
	int32_t pi = sym_builder_first(b), ci;

	if (pi == NIL)
		return;
	for (ci = sym_builder_next(b, pi); ci != NIL;
	     pi = ci, ci = sym_builder_next(b, ci)) {
		struct sym_ent *prev = &N(b, pi), *curr = &N(b, ci);

		if (prev->end != prev->start)
			continue;
		if (is_kallsyms &&
		    !strchr(b->pool + prev->name, '[') !=
		    !strchr(b->pool + curr->name, '['))
			prev->end = page_roundup(prev->end + 4096);
		else
			prev->end = curr->start;
	}
	if (N(b, pi).end == N(b, pi).start)
		N(b, pi).end = page_roundup(N(b, pi).start) + 4096;
}

static size_t
leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

bool
sym_prefer_first(const char *xn, bool xzero, uint8_t xbind,
		 const char *yn, bool yzero, uint8_t ybind)
{
	size_t xu, yu, xl, yl;

	if (yzero && !xzero)
		return true;
	if (xzero && !yzero)
		return false;
	if ((ybind == STB_WEAK) != (xbind == STB_WEAK))
		return ybind == STB_WEAK;
	if ((xbind == STB_GLOBAL) != (ybind == STB_GLOBAL))
		return xbind == STB_GLOBAL;
	xu = leading_underscores(xn);
	yu = leading_underscores(yn);
	if (xu != yu)
		return xu < yu;
	xl = strlen(xn);
	yl = strlen(yn);
	if (xl != yl)
		return xl > yl;
	/* the kernel's "SyS" syscall aliases lose */
	if (strncmp(xn, "SyS", 3) == 0 || strncmp(xn, "compat_SyS", 10) == 0)
		return false;
	return true;
}

static bool
prefer_first(const struct sym_builder *b, const struct sym_ent *x,
	     const struct sym_ent *y)
{
	return sym_prefer_first(b->pool + x->name, x->end == x->start,
				x->binding, b->pool + y->name,
				y->end == y->start, y->binding);
}

void
sym_builder_dedup(struct sym_builder *b)
{
	int32_t curr = sym_builder_first(b), next;

	while (curr != NIL) {
		next = sym_builder_next(b, curr);
		if (next == NIL)
			break;
		if (N(b, curr).start != N(b, next).start) {
			curr = next;
		} else if (prefer_first(b, &N(b, curr), &N(b, next))) {
			tree_erase(b, next);
		} else {
			tree_erase(b, curr);
			curr = next;
		}
	}
}

/* Copy the live nodes in order, with the tree's shape, into a table. */
struct sym_table *
sym_builder_finish(struct sym_builder *b)
{
	struct sym_table *t = NULL;
	int32_t *pos = NULL, i;
	size_t k = 0, n = b->live;

	if (b->failed)
		goto out;
	t = calloc(1, sizeof(*t));
	pos = calloc(b->nr ? b->nr : 1, sizeof(*pos));
	if (!t || !pos)
		goto fail;
	t->syms = calloc(n ? n : 1, sizeof(*t->syms));
	t->left = calloc(n ? n : 1, sizeof(*t->left));
	t->right = calloc(n ? n : 1, sizeof(*t->right));
	if (!t->syms || !t->left || !t->right)
		goto fail;
	for (i = sym_builder_first(b); i != NIL; i = sym_builder_next(b, i)) {
		const struct sym_ent *e = &N(b, i);

		pos[i] = (int32_t)k;
		t->syms[k].start = e->start;
		t->syms[k].end = e->end;
		t->syms[k].is_object = e->type == STT_OBJECT;
		t->syms[k].name = b->pool + e->name;
		k++;
	}
	t->nr = k;
	for (i = sym_builder_first(b); i != NIL; i = sym_builder_next(b, i)) {
		const struct sym_ent *e = &N(b, i);

		t->left[pos[i]] = e->left == NIL ? NIL : pos[e->left];
		t->right[pos[i]] = e->right == NIL ? NIL : pos[e->right];
	}
	t->root = b->root == NIL ? NIL : pos[b->root];
	t->pool = b->pool;
	b->pool = NULL;
	free(pos);
	sym_builder_free(b);
	return t;
fail:
	sym_table_free(t);
	t = NULL;
out:
	free(pos);
	sym_builder_free(b);
	return t;
}

/* Children of syms[lo, hi) as a balanced tree; returns its root. */
static int32_t
balance(struct sym_table *t, size_t lo, size_t hi)
{
	size_t mid;

	if (lo >= hi)
		return NIL;
	mid = lo + (hi - lo) / 2;
	t->left[mid] = balance(t, lo, mid);
	t->right[mid] = balance(t, mid + 1, hi);
	return (int32_t)mid;
}

struct sym_table *
sym_table_from_sorted(struct sym_symbol *syms, size_t nr, char *pool)
{
	struct sym_table *t = calloc(1, sizeof(*t));

	if (!t || nr > SYM_MAX_SYMS)
		goto fail;
	t->syms = syms;
	t->pool = pool;
	t->nr = nr;
	t->left = calloc(nr ? nr : 1, sizeof(*t->left));
	t->right = calloc(nr ? nr : 1, sizeof(*t->right));
	if (!t->left || !t->right) {
		sym_table_free(t);
		return NULL;
	}
	t->root = balance(t, 0, nr);
	return t;
fail:
	free(t);
	free(syms);
	free(pool);
	return NULL;
}

struct sym_table *
sym_table_from_covers(struct sym_symbol *syms, size_t nr,
		      struct sym_cover *covers, size_t nr_covers)
{
	struct sym_table *t = calloc(1, sizeof(*t));

	if (!t) {
		free(syms);
		free(covers);
		return NULL;
	}
	t->syms = syms;
	t->nr = nr;
	t->root = NIL;
	t->covers = covers;
	t->nr_covers = nr_covers;
	return t;
}

void
sym_table_free(struct sym_table *t)
{
	if (!t)
		return;
	free(t->covers);
	free(t->syms);
	free(t->left);
	free(t->right);
	free(t->pool);
	free(t);
}

/* The cover holding addr: the last one starting at or below it. */
static const struct sym_symbol *
covers_find(const struct sym_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr_covers;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->covers[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= t->covers[lo - 1].hi)
		return NULL;
	return &t->syms[t->covers[lo - 1].sym];
}

/* perf's walk: left when below start, right when past the end. */
const struct sym_symbol *
sym_table_find(const struct sym_table *t, uint64_t addr)
{
	int32_t i;

	if (!t)
		return NULL;
	if (t->covers)
		return covers_find(t, addr);
	i = t->root;
	while (i != NIL) {
		const struct sym_symbol *s = &t->syms[i];

		if (addr < s->start)
			i = t->left[i];
		else if (addr > s->end || (addr == s->end && addr != s->start))
			i = t->right[i];
		else
			return s;
	}
	return NULL;
}
