/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/callchain/callchain.c - build the callchain tree of one
 * histogram entry, merging frames as perf 6.1's key does: function,
 * address or srcline (doc/perf-records.md §6.6).
 *
 * Adding a chain walks down from the root: inside a node the frames are
 * compared one by one; at the end of a node the next frame picks a child,
 * the one picked there last time if it fits, else through the hash
 * table.  A chain that leaves a node in the middle of
 * its run splits it: the front part becomes a new node in the old one's
 * place, the old node keeps the rest of the run with its hits and its
 * children, and the new chain's remainder becomes a second child.  The
 * totals then are perf's: every node passed through gains the period in
 * children_hit, the node the chain ends in gains it in hit.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>


#include "lib/diag.h"
#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "report/callchain/callchain-int.h"

/*
 * A chain being added: locs[0..nr), frames already made (a merge), or
 * the frames of a table by their ids, in the order they enter the tree.
 */
struct cc_chain {
	const struct ses_loc *locs;
	const struct ses_frame_branch *br;	/* with locs, or NULL */
	uint64_t last_seq;			/* with br */
	const struct cc_kframe *frames;
	const uint32_t *table;		/* with ids: their pool indexes */
	const uint32_t *ids;
	size_t nr;
	bool reverse;
};

/* Where the chain's frame i, in the order it enters the tree, is kept. */
static size_t
chain_at(const struct cc_chain *c, size_t i)
{
	return c->reverse ? c->nr - 1 - i : i;
}

static const struct ses_frame_branch *
chain_br(const struct cc_chain *c, size_t i)
{
	if (!c->br)
		return NULL;
	return &c->br[chain_at(c, i)];
}

/* perf's branch_type_count(): a branch into a frame at ip */
static void
brtype_count(struct cc_brtype *st, const struct ses_frame_branch *fb,
	     uint64_t ip, uint64_t n)
{
	const uint64_t area_4k = 4096, area_2m = 2 << 20;

	if (fb->type == PD_BR_UNKNOWN || !fb->from)
		return;
	if (fb->type == PD_BR_EXTEND_ABI) {
		/* past perf's array (doc/errata.md) */
		if (fb->new_type < PD_BR_NEW_MAX)
			st->new_counts[fb->new_type] += n;
	} else if (fb->type < PD_BR_MAX) {
		st->counts[fb->type] += n;
	}
	if (fb->type == PD_BR_COND) {
		if (ip > fb->from)
			st->cond_fwd += n;
		else
			st->cond_bwd += n;
	}
	if ((fb->from & ~(area_2m - 1)) != (ip & ~(area_2m - 1)))
		st->cross_2m += n;
	else if ((fb->from & ~(area_4k - 1)) != (ip & ~(area_4k - 1)))
		st->cross_4k += n;
}

/*
 * n chains pass through a frame at ip with what fb has of a branch:
 * perf's fill_node() for the first when the frame is new (fresh), its
 * match_chain() for the others.  A frame that is not a branch's adds
 * nothing.  A branch's target counts its kind and prediction, its source
 * its cycles and removed loops; only a match counts a source in
 * from_count.
 */
static void
bcount_add(struct cc_bcount *bc, const struct ses_frame_branch *fb,
	   uint64_t ip, uint64_t n, bool fresh, uint64_t seq)
{
	if (!fb || !fb->branch)
		return;
	bc->branch_count += n;
	if (seq >= bc->last_seq) {
		bc->last_seq = seq;
		bc->st.branch_to = fb->from != 0;
	}
	if (fb->from) {
		bc->predicted_count += fb->predicted ? n : 0;
		bc->abort_count += fb->abort ? n : 0;
		brtype_count(&bc->st, fb, ip, n);
	} else {
		bc->cycles_count += fb->cycles * n;
		bc->iter_count += fb->nr_loop_iter * n;
		bc->iter_cycles += fb->iter_cycles * n;
		bc->from_count += fresh ? n - 1 : n;
	}
}

static const struct ses_loc *
chain_loc(const struct cc_chain *c, size_t i)
{
	return &c->locs[chain_at(c, i)];
}

/* A location as a frame under keying k, with its key. */
static struct cc_kframe
keyed_frame(const struct rep_cc_keying *k, const struct ses_loc *l)
{
	struct cc_kframe kf = {
		.f = { .dso = l->dso, .sym = l->sym, .ip = l->ip,
		       .kind = CC_KIND_IP },
		.key = l->ip,
	};
	struct cc_frame *f = &kf.f;

	if (k->key != REP_CC_KEY_FUNCTION)
		f->srcline = k->srcline(k->ctx, l);
	if (k->key == REP_CC_KEY_SRCLINE && f->srcline) {
		kf.key = (uintptr_t)f->srcline;
		f->kind = CC_KIND_SRCLINE;
	} else if (l->sym && l->sym->inlined && k->key != REP_CC_KEY_ADDRESS) {
		kf.key = u64map_str_key(l->sym->name);
		f->kind = CC_KIND_NAME;
	} else if (l->sym && k->key != REP_CC_KEY_ADDRESS) {
		kf.key = l->sym->start;
		f->kind = CC_KIND_SYM;
	}
	return kf;
}

/*
 * The chain's frame i, in the pool or in scratch; one in the pool is
 * valid until a frame is added to it.
 */
static const struct cc_kframe *
chain_frame(const struct rep_cc_root *root, const struct cc_chain *c,
	    size_t i, struct cc_kframe *scratch)
{
	size_t at = chain_at(c, i);

	if (c->ids)
		return &root->pool->v[c->table[c->ids[at]]];
	if (c->frames)
		return &c->frames[at];
	*scratch = keyed_frame(&root->keying, &c->locs[at]);
	return scratch;
}

/* Whether two frames merge (perf's match_chain() says MATCH_EQ). */
static bool
frames_equal(const struct rep_cc_root *root, const struct cc_frame *a,
	     const struct cc_frame *b)
{
	enum rep_cc_key key = root->keying.key;

	if (key == REP_CC_KEY_SRCLINE && (a->srcline || b->srcline))
		return a->srcline == b->srcline;
	if (cc_frames_by_name(key, a, b))
		return !strcmp(a->sym->name, b->sym->name);
	if (a->dso != b->dso)
		return false;
	if (a->sym && b->sym && key != REP_CC_KEY_ADDRESS)
		return a->sym == b->sym || a->sym->start == b->sym->start;
	return a->ip == b->ip;
}

/* Whether t is of symbol sym in dso: under the function key it merges. */
static bool
same_symbol(const struct cc_frame *t, const struct sym_symbol *sym,
	    const struct sym_dso *dso)
{
	return t->sym && t->sym == sym && t->dso == dso;
}

/*
 * Whether frame pos of the chain merges with the pool's frame tid;
 * under the function key without building the frame: the same frame, or
 * the same symbol in the same DSO, needs no look at the symbol (a frame
 * of the tree is an inline one's when its kind says so).
 */
static bool
frame_matches(const struct rep_cc_root *root, uint32_t tid,
	      const struct cc_chain *c, size_t pos)
{
	const struct cc_frame *t = &root->pool->v[tid].f;
	const struct ses_loc *l;
	struct cc_kframe scratch;

	if (c->ids) {
		uint32_t id = c->table[c->ids[chain_at(c, pos)]];
		const struct cc_frame *k = &root->pool->v[id].f;

		if (id == tid || same_symbol(t, k->sym, k->dso))
			return true;
		return frames_equal(root, t, k);
	}
	if (c->frames || root->keying.key != REP_CC_KEY_FUNCTION)
		return frames_equal(root, t,
				    &chain_frame(root, c, pos, &scratch)->f);
	l = chain_loc(c, pos);
	if (same_symbol(t, l->sym, l->dso))
		return true;
	if (t->kind == CC_KIND_NAME || (l->sym && l->sym->inlined))
		return frames_equal(root, t,
				    &chain_frame(root, c, pos, &scratch)->f);
	if (t->dso != l->dso)
		return false;
	if (t->sym && l->sym)
		return t->sym == l->sym || t->sym->start == l->sym->start;
	return t->ip == l->ip;
}

/* Frames with the same fields have the same key. */
static bool
kframes_same(const struct cc_kframe *a, const struct cc_kframe *b)
{
	return a->f.ip == b->f.ip && a->f.sym == b->f.sym &&
	       a->f.dso == b->f.dso && a->f.srcline == b->f.srcline &&
	       a->f.kind == b->f.kind;
}

static uint64_t
kframe_hash(const struct cc_kframe *k)
{
	uint64_t h = u64_mix((uintptr_t)k->f.dso ^ ((uint64_t)k->f.kind << 56));

	h = u64_mix(h ^ (uintptr_t)k->f.sym);
	h = u64_mix(h ^ (uintptr_t)k->f.srcline);
	return u64_mix(h ^ k->f.ip);
}

struct rep_cc_pool *
rep_cc_pool_new(void)
{
	return xcalloc(1, sizeof(struct rep_cc_pool));
}

void
rep_cc_pool_free(struct rep_cc_pool *pool)
{
	if (!pool)
		return;
	free(pool->v);
	free(pool->slots);
	free(pool);
}

static void
pool_slots_grow(struct rep_cc_pool *p)
{
	uint32_t mask, s, i;

	if (p->cap_slots >= (1u << 31))
		die(1, "more than %u distinct callchain frames", 1u << 30);
	free(p->slots);
	p->cap_slots = p->cap_slots ? p->cap_slots * 2 : 1024;
	p->slots = xcalloc(p->cap_slots, sizeof(*p->slots));
	mask = p->cap_slots - 1;
	for (i = 0; i < p->nr; i++) {
		s = (uint32_t)kframe_hash(&p->v[i]) & mask;
		while (p->slots[s])
			s = (s + 1) & mask;
		p->slots[s] = i + 1;
	}
}

/* The index of k in the pool, which gains it when it is new. */
static uint32_t
pool_add(struct rep_cc_pool *p, const struct cc_kframe *k)
{
	uint32_t mask, s, i;

	if (((uint64_t)p->nr + 1) * 2 > p->cap_slots)
		pool_slots_grow(p);
	mask = p->cap_slots - 1;
	s = (uint32_t)kframe_hash(k) & mask;
	while ((i = p->slots[s]) != 0) {
		if (kframes_same(&p->v[i - 1], k))
			return i - 1;
		s = (s + 1) & mask;
	}
	if (p->nr == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 1024;
		p->v = xreallocarray(p->v, p->cap, sizeof(*p->v));
	}
	p->v[p->nr] = *k;
	p->slots[s] = ++p->nr;
	return p->nr - 1;
}

struct rep_cc_root *
rep_cc_new(const struct rep_cc_keying *keying)
{
	struct rep_cc_root *root = xcalloc(1, sizeof(*root));

	if (keying)
		root->keying = *keying;
	else
		root->keying.key = REP_CC_KEY_FUNCTION;
	root->pool = root->keying.pool;
	if (!root->pool)
		root->pool = rep_cc_pool_new();

	root->cap_nodes = 2;	/* the root and one chain */
	root->nodes = xcalloc(root->cap_nodes, sizeof(*root->nodes));
	root->nodes[CC_ROOT].parent = CC_NO_NODE;
	root->nr_nodes = 1;
	return root;
}

void
rep_cc_free(struct rep_cc_root *root)
{
	if (!root)
		return;
	free(root->nodes);
	free(root->frames);
	free(root->bcounts);
	free(root->slots);
	if (root->pool != root->keying.pool)
		rep_cc_pool_free(root->pool);
	free(root);
}

uint64_t
rep_cc_total(const struct rep_cc_root *root)
{
	return root->nodes[CC_ROOT].children_hit;
}

static uint32_t
grow_cap(uint32_t cap, uint64_t need)
{
	uint64_t c = cap ? cap : 8;

	while (c < need)
		c *= 2;
	if (c > CC_NO_NODE)
		c = CC_NO_NODE;
	if (c < need)
		die(1, "callchain tree of more than %u nodes or frames",
		    CC_NO_NODE - 1);
	return (uint32_t)c;
}

static uint32_t
node_alloc(struct rep_cc_root *root)
{
	uint32_t i;

	if (root->nr_nodes == root->cap_nodes) {
		root->cap_nodes = grow_cap(root->cap_nodes,
					   (uint64_t)root->nr_nodes + 1);
		root->nodes = xreallocarray(root->nodes, root->cap_nodes,
					    sizeof(*root->nodes));
	}
	i = root->nr_nodes++;
	memset(&root->nodes[i], 0, sizeof(root->nodes[i]));
	return i;
}

/* The pool's index of the chain's frame i, which the pool gains if new. */
static uint32_t
chain_pool_id(struct rep_cc_root *root, const struct cc_chain *c, size_t i)
{
	struct cc_kframe scratch;

	if (c->ids)
		return c->table[c->ids[chain_at(c, i)]];
	return pool_add(root->pool, chain_frame(root, c, i, &scratch));
}

/*
 * Copy frames [from, c->nr) of the chain, count of them; returns the
 * first index.
 */
static uint32_t
frames_append(struct rep_cc_root *root, const struct cc_chain *c,
	      size_t from, uint32_t count)
{
	uint64_t need = (uint64_t)root->nr_frames + (c->nr - from);
	uint32_t first = root->nr_frames, old_cap = root->cap_frames;
	size_t i;

	if (need > root->cap_frames) {
		root->cap_frames = grow_cap(root->cap_frames, need);
		root->frames = xreallocarray(root->frames, root->cap_frames,
					     sizeof(*root->frames));
		if (root->keying.branch_counts) {
			root->bcounts = xreallocarray(root->bcounts,
						      root->cap_frames,
						      sizeof(*root->bcounts));
			memset(root->bcounts + old_cap, 0,
			       (root->cap_frames - old_cap) *
			       sizeof(*root->bcounts));
		}
	}
	for (i = from; i < c->nr; i++) {
		uint32_t id = chain_pool_id(root, c, i);

		root->frames[root->nr_frames] = id;
		if (root->bcounts)
			bcount_add(&root->bcounts[root->nr_frames],
				   chain_br(c, i), root->pool->v[id].f.ip,
				   count, true, c->last_seq);
		root->nr_frames++;
	}
	return first;
}

/* Frame pos of the chain merged with frame fi of the tree. */
static void
frame_matched(struct rep_cc_root *root, uint32_t fi, const struct cc_chain *c,
	      size_t pos, uint32_t count)
{
	if (root->bcounts)
		bcount_add(&root->bcounts[fi], chain_br(c, pos),
			   cc_tree_frame(root, fi)->ip, count, false,
			   c->last_seq);
}

/* A child's slot by its parent and its first frame's DSO and key. */
static uint64_t
slot_hash(uint32_t parent, const struct sym_dso *dso, uint64_t key)
{
	uint64_t where = (uintptr_t)dso ^ ((uint64_t)parent << 32);

	return u64_mix(key ^ u64_mix(where));
}

/* Consistent with node_starts_with(). */
static uint64_t
frame_slot_hash(uint32_t parent, const struct cc_kframe *f)
{
	return slot_hash(parent, cc_frame_id_dso(&f->f), f->key);
}

static uint64_t
node_slot_hash(const struct rep_cc_root *root, uint32_t node)
{
	const struct cc_node *n = &root->nodes[node];

	return slot_hash(n->parent, n->dso, n->key);
}

/* Copy the identity of the node's first frame into the node. */
static void
node_key_set(struct rep_cc_root *root, uint32_t node)
{
	struct cc_node *n = &root->nodes[node];
	const struct cc_kframe *f = &root->pool->v[root->frames[n->first]];

	n->dso = cc_frame_id_dso(&f->f);
	n->key = f->key;
	n->kind = f->f.kind;
}

/*
 * Whether the node's run starts with f, for finding a child: the same
 * DSO (function key) and the same key of the same kind, where a frame
 * with a symbol never equals one without.  perf would also match those
 * two by ip, but that relation cannot be hashed; the two can only meet
 * when one library sits at two addresses and the same ip falls in a
 * symbol in one process only.
 */
static bool
node_starts_with(const struct rep_cc_root *root, uint32_t node,
		 const struct cc_kframe *f)
{
	const struct cc_node *n = &root->nodes[node];

	return n->dso == cc_frame_id_dso(&f->f) && n->key == f->key &&
	       n->kind == f->f.kind;
}

static void
slots_put(struct rep_cc_root *root, uint32_t node)
{
	uint32_t mask = root->cap_slots - 1;
	uint32_t s = (uint32_t)node_slot_hash(root, node) & mask;

	while (root->slots[s])
		s = (s + 1) & mask;
	root->slots[s] = node;
}

static void
slots_grow(struct rep_cc_root *root)
{
	uint32_t *old = root->slots;
	uint32_t old_cap = root->cap_slots, i;

	if (old_cap >= (1u << 31))
		die(1, "callchain tree too large");
	root->cap_slots = old_cap ? old_cap * 2 : 16;
	root->slots = xcalloc(root->cap_slots, sizeof(*root->slots));
	for (i = 0; i < old_cap; i++)
		if (old[i])
			slots_put(root, old[i]);
	free(old);
}

/*
 * The slot holding the child of parent whose run starts like f, or the
 * free slot that ends the probe.
 */
static uint32_t
slots_probe(const struct rep_cc_root *root, uint32_t parent,
	    const struct cc_kframe *f)
{
	uint32_t mask = root->cap_slots - 1;
	uint32_t s = (uint32_t)frame_slot_hash(parent, f) & mask;
	uint32_t n;

	while ((n = root->slots[s]) != 0) {
		if (root->nodes[n].parent == parent &&
		    node_starts_with(root, n, f))
			break;
		s = (s + 1) & mask;
	}
	return s;
}

/* The slot holding node n (which is in the table). */
static uint32_t
slot_of(const struct rep_cc_root *root, uint32_t n)
{
	uint32_t mask = root->cap_slots - 1;
	uint32_t s = (uint32_t)node_slot_hash(root, n) & mask;

	while (root->slots[s] != n)
		s = (s + 1) & mask;
	return s;
}

/*
 * Consecutive chains mostly take the path the last one took: try the
 * child found last before the table.
 */
static uint32_t
child_find(struct rep_cc_root *root, uint32_t parent,
	   const struct cc_kframe *f)
{
	uint32_t c = root->nodes[parent].hot;

	if (c && root->nodes[c].parent == parent &&
	    node_starts_with(root, c, f))
		return c;
	if (!root->cap_slots)
		return 0;
	c = root->slots[slots_probe(root, parent, f)];
	if (c)
		root->nodes[parent].hot = c;
	return c;
}

/* Keep the table at most half full; nodes - 1 children live in it. */
static void
slots_reserve(struct rep_cc_root *root, uint32_t more)
{
	while ((uint64_t)root->nr_nodes + more > root->cap_slots / 2)
		slots_grow(root);
}

/* A new leaf under parent holding frames [from, nr) of the chain. */
static void
child_add(struct rep_cc_root *root, uint32_t parent,
	  const struct cc_chain *c, size_t from, uint64_t period,
	  uint32_t count)
{
	uint32_t n;

	slots_reserve(root, 1);
	n = node_alloc(root);
	root->nodes[n].parent = parent;
	root->nodes[n].nr = (uint32_t)(c->nr - from);
	root->nodes[n].first = frames_append(root, c, from, count);
	root->nodes[n].hit = period;
	root->nodes[n].count = count;
	node_key_set(root, n);
	slots_put(root, n);
	root->nodes[parent].hot = n;
}

/*
 * The chain matched the first m frames of node n and then ended or went
 * elsewhere (frames from on remain).
 */
static void
node_split(struct rep_cc_root *root, uint32_t n, uint32_t m,
	   const struct cc_chain *c, size_t from, uint64_t period,
	   uint32_t count)
{
	struct cc_node *old, *front;
	uint32_t f, s;

	slots_reserve(root, 2);
	f = node_alloc(root);
	old = &root->nodes[n];
	front = &root->nodes[f];

	/* the front takes the old node's place among its parent's children */
	s = slot_of(root, n);
	root->slots[s] = f;
	front->parent = old->parent;
	front->first = old->first;
	front->nr = m;
	front->dso = old->dso;
	front->key = old->key;
	front->kind = old->kind;
	front->children_hit = cc_cumul_hit(old);
	front->children_count = cc_cumul_count(old);
	front->hot = n;

	old->parent = f;
	old->first += m;
	old->nr -= m;
	node_key_set(root, n);
	slots_put(root, n);

	if (from < c->nr) {
		front->children_hit += period;
		front->children_count += count;
		child_add(root, f, c, from, period, count);
	} else {
		front->hit = period;
		front->count = count;
	}
}

static void
chain_add(struct rep_cc_root *root, const struct cc_chain *c,
	  uint64_t period, uint32_t count)
{
	uint32_t node = CC_ROOT, child, m;
	const uint32_t *run;
	size_t pos = 0;
	struct cc_kframe scratch;

	if (!c->nr)
		return;
	if (c->nr > CC_MAX_RUN)
		die(1, "callchain of %zu frames", c->nr);
	for (;;) {
		root->nodes[node].children_hit += period;
		root->nodes[node].children_count += count;
		child = child_find(root, node,
				   chain_frame(root, c, pos, &scratch));
		if (!child) {
			child_add(root, node, c, pos, period, count);
			return;
		}
		frame_matched(root, root->nodes[child].first, c, pos, count);
		m = 1;
		pos++;
		run = &root->frames[root->nodes[child].first];
		while (m < root->nodes[child].nr && pos < c->nr &&
		       frame_matches(root, run[m], c, pos)) {
			frame_matched(root, root->nodes[child].first + m, c,
				      pos, count);
			m++;
			pos++;
		}
		if (m < root->nodes[child].nr) {
			node_split(root, child, m, c, pos, period, count);
			return;
		}
		if (pos == c->nr) {
			root->nodes[child].hit += period;
			root->nodes[child].count += count;
			return;
		}
		node = child;
	}
}

void
rep_cc_add(struct rep_cc_root *root, const struct ses_loc *frames,
	   size_t nr, bool reverse, uint64_t period)
{
	struct cc_chain c = { .locs = frames, .nr = nr, .reverse = reverse };

	chain_add(root, &c, period, 1);
}

void
rep_cc_add_n(struct rep_cc_root *root, const struct ses_loc *frames,
	     size_t nr, bool reverse, uint64_t period, uint64_t count)
{
	rep_cc_add_branch_n(root, frames, NULL, nr, reverse, period, count, 0);
}

void
rep_cc_add_branch_n(struct rep_cc_root *root, const struct ses_loc *frames,
		    const struct ses_frame_branch *br, size_t nr, bool reverse,
		    uint64_t period, uint64_t count, uint64_t last_seq)
{
	struct cc_chain c = {
		.locs = frames, .br = br, .last_seq = last_seq, .nr = nr,
		.reverse = reverse,
	};

	/* perf keeps the counts in 32 bits */
	chain_add(root, &c, period, (uint32_t)count);
}

/* The frames from the root down to node n, in the tree's order. */
static size_t
path_collect(const struct rep_cc_root *src, uint32_t n,
	     struct cc_kframe **buf, size_t *cap)
{
	size_t len = 0, at;
	uint32_t i, k;

	for (i = n; i != CC_ROOT; i = src->nodes[i].parent)
		len += src->nodes[i].nr;
	if (len > *cap) {
		*cap = len;
		*buf = xreallocarray(*buf, *cap, sizeof(**buf));
	}
	at = len;
	for (i = n; i != CC_ROOT; i = src->nodes[i].parent) {
		at -= src->nodes[i].nr;
		for (k = 0; k < src->nodes[i].nr; k++)
			(*buf)[at + k] =
				src->pool->v[src->frames[src->nodes[i].first + k]];
	}
	return len;
}

void
rep_cc_merge(struct rep_cc_root *dst, const struct rep_cc_root *src)
{
	struct cc_kframe *buf = NULL;
	size_t cap = 0;
	uint32_t n;

	/* the tree of a set of chains does not depend on their order */
	for (n = 1; n < src->nr_nodes; n++) {
		struct cc_chain c = { .reverse = false };

		if (!src->nodes[n].hit)
			continue;
		c.nr = path_collect(src, n, &buf, &cap);
		c.frames = buf;
		chain_add(dst, &c, src->nodes[n].hit, 1);
	}
	free(buf);
}

struct rep_cc_frames {
	struct rep_cc_pool *pool;
	uint32_t *v;			/* the pool's index of each */
	size_t nr;
};

struct rep_cc_frames *
rep_cc_frames_new(struct rep_cc_pool *pool, const struct ses_loc *locs,
		  size_t nr)
{
	static const struct rep_cc_keying function = {
		.key = REP_CC_KEY_FUNCTION,
	};
	struct rep_cc_frames *t = xcalloc(1, sizeof(*t));
	struct cc_kframe k;
	size_t i;

	t->pool = pool;
	t->v = xreallocarray(NULL, nr ? nr : 1, sizeof(*t->v));
	t->nr = nr;
	for (i = 0; i < nr; i++) {
		k = keyed_frame(&function, &locs[i]);
		t->v[i] = pool_add(pool, &k);
	}
	return t;
}

void
rep_cc_frames_free(struct rep_cc_frames *frames)
{
	if (!frames)
		return;
	free(frames->v);
	free(frames);
}

void
rep_cc_add_ids(struct rep_cc_root *root, const struct rep_cc_frames *frames,
	       const uint32_t *ids, size_t nr, bool reverse, uint64_t period,
	       uint64_t count)
{
	struct cc_chain c = {
		.table = frames->v, .ids = ids, .nr = nr, .reverse = reverse,
	};
	size_t i;

	if (root->keying.key != REP_CC_KEY_FUNCTION ||
	    root->keying.branch_counts || root->pool != frames->pool)
		die(1, "internal error: chain by ids into a tree of key %d",
		    (int)root->keying.key);
	for (i = 0; i < nr; i++)
		if (ids[i] >= frames->nr)
			die(1, "internal error: frame id %u of %zu", ids[i],
			    frames->nr);
	/* perf keeps the counts in 32 bits */
	chain_add(root, &c, period, (uint32_t)count);
}
