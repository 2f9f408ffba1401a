/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/callchain/callchain-int.h - the callchain tree shared by its builder
 * (callchain.c) and its printers (callchain-print.c).
 *
 * The tree has perf 6.1's shape (doc/perf-records.md §6.6): a node
 * holds a run of frames, split where two chains part; hit is the period
 * of the chains that end at the node, children_hit that of the chains
 * that go on below it.  Nodes and frames live in two arrays and refer to
 * each other by index, so growing them never invalidates a link; a frame
 * there is an index into the pool of the distinct frames, which the
 * trees of a report share.
 * Children are found through one open-addressing table per tree keyed by
 * (parent, first frame); the printers rebuild ordered child lists.
 */
#ifndef PD_REPORT_CALLCHAIN_CALLCHAIN_INT_H
#define PD_REPORT_CALLCHAIN_CALLCHAIN_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "pdata/abi.h"
#include "report/callchain/callchain.h"

#define CC_ROOT		0u
#define CC_NO_NODE	UINT32_MAX
#define CC_NO_FRAME	UINT32_MAX	/* no frame of a tree */
#define CC_MAX_RUN	((1u << 30) - 1)	/* cc_node.nr */

/* What a frame's key is made of (cc_frame.kind). */
enum cc_kind {
	CC_KIND_IP,		/* the ip, in its DSO */
	CC_KIND_SYM,		/* the symbol's start, in its DSO */
	CC_KIND_SRCLINE,	/* srcline key: the srcline */
	CC_KIND_NAME,		/* an inline frame: its name's hash */
};

struct cc_frame {
	struct sym_dso *dso;
	const struct sym_symbol *sym;
	const char *srcline;	/* address and srcline keys; may be NULL */
	uint64_t ip;
	/*
	 * What its identity under the tree's key is made of: sym->start or
	 * the ip under the function key, the ip under the address key, the
	 * srcline, else as the function key's under the srcline key
	 * (cc_kframe.key).
	 */
	uint8_t kind;
};

/* A frame with its identity under its tree's key (callchain.c, keyed_frame()). */
struct cc_kframe {
	struct cc_frame f;
	uint64_t key;
};

/*
 * The distinct frames of a report's trees, each kept once: a tree holds
 * its frames as indexes into the pool (4 bytes, not a 48-byte copy).
 * Frames are added while no other thread reads the pool; one is never
 * removed or changed, so an index stays valid while the pool lives.
 */
struct rep_cc_pool {
	struct cc_kframe *v;
	uint32_t nr, cap;
	uint32_t *slots;		/* index + 1; 0: free */
	uint32_t cap_slots;		/* a power of two, or 0 */
};

/* perf's branch_type_stat: the kinds of the branches a frame was the target of */
struct cc_brtype {
	uint64_t counts[PD_BR_MAX];
	uint64_t new_counts[PD_BR_NEW_MAX];
	uint64_t cond_fwd, cond_bwd, cross_4k, cross_2m;
	bool branch_to;		/* the frame was last passed as a target */
};

/*
 * What a frame of a tree with branch counts adds up, as perf's
 * callchain_list does (callchain.c, bcount_add()).
 */
struct cc_bcount {
	uint64_t branch_count, predicted_count, abort_count, cycles_count;
	uint64_t iter_count, iter_cycles, from_count;
	/*
	 * The last sample's order number that passed through the frame
	 * from a branch: whether the frame was then a target (st.branch_to)
	 * is perf's, whatever order aggregated samples are added in.
	 */
	uint64_t last_seq;
	struct cc_brtype st;
};

/*
 * 56 bytes.  The first frame's identity is kept in the node too, so
 * that finding a child reads the table slot and the node only.
 * Counts are 32 bits: perf prints them as unsigned int.
 */
struct cc_node {
	uint64_t hit;
	uint64_t children_hit;
	struct sym_dso *dso;		/* of the first frame */
	uint64_t key;			/* of the first frame */
	uint32_t count;			/* chains ending here */
	uint32_t children_count;	/* chains going on below */
	uint32_t parent;		/* CC_NO_NODE for the root */
	uint32_t first;			/* index of the first frame */
	uint32_t nr : 30;		/* frames in the run (0: root) */
	uint32_t kind : 2;		/* of the first frame (enum cc_kind) */
	uint32_t hot;			/* the child found last, or 0 */
};

struct rep_cc_root {
	struct rep_cc_keying keying;
	struct rep_cc_pool *pool;	/* keying.pool, or the tree's own */
	struct cc_node *nodes;
	uint32_t nr_nodes;
	uint32_t cap_nodes;
	uint32_t *frames;		/* indexes into pool */
	/* keying.branch_counts: one per frame, else NULL */
	struct cc_bcount *bcounts;
	uint32_t nr_frames;
	uint32_t cap_frames;
	uint32_t *slots;		/* node indexes; 0 (root): free */
	uint32_t cap_slots;		/* a power of two, or 0 */
};

/*
 * The text perf prints after a frame with branch counts (bc NULL: the
 * remainder line's), clipped to size - 1 bytes.
 */
void cc_bcount_text(const struct cc_bcount *bc, char *buf, size_t size);

/* Frame i of the tree's runs. */
static inline const struct cc_frame *
cc_tree_frame(const struct rep_cc_root *root, uint32_t i)
{
	return &root->pool->v[root->frames[i]].f;
}

static inline uint64_t
cc_cumul_hit(const struct cc_node *n)
{
	return n->hit + n->children_hit;
}

static inline uint32_t
cc_cumul_count(const struct cc_node *n)
{
	return n->count + n->children_count;
}

/* The DSO a frame's identity includes: none for a srcline or a name. */
static inline struct sym_dso *
cc_frame_id_dso(const struct cc_frame *f)
{
	return f->kind == CC_KIND_SRCLINE || f->kind == CC_KIND_NAME ?
	       NULL : f->dso;
}

/*
 * perf compares two frames by name when either is an inline frame's
 * (its symbol has the bounds of the function it is inlined in), under
 * every key but the address.
 */
static inline bool
cc_frames_by_name(enum rep_cc_key key, const struct cc_frame *a,
		  const struct cc_frame *b)
{
	return key != REP_CC_KEY_ADDRESS && a->sym && b->sym &&
	       (a->sym->inlined || b->sym->inlined);
}

/*
 * perf's order between two frames that do not merge (match_chain()).
 * The srcline key: by srcline when either has one, a frame without one
 * after those with one; else as the function key: the names when one is
 * an inline frame, else DSO first, then the symbol start when both
 * frames have a symbol, the ip otherwise.  The
 * address key: DSO, then ip.  Returns <0, 0 or >0.
 */
static inline int
cc_frame_cmp(enum rep_cc_key key, const struct cc_frame *a,
	     const struct cc_frame *b)
{
	uint64_t x, y;

	if (key == REP_CC_KEY_SRCLINE && (a->srcline || b->srcline)) {
		if (!a->srcline || !b->srcline)
			return a->srcline ? -1 : 1;
		return a->srcline == b->srcline ? 0 :
		       strcmp(a->srcline, b->srcline);
	}
	if (cc_frames_by_name(key, a, b))
		return strcmp(a->sym->name, b->sym->name);
	/* perf compares the DSOs' addresses: their order of making */
	if (a->dso != b->dso)
		return sym_dso_seq(a->dso) < sym_dso_seq(b->dso) ? -1 : 1;
	if (a->sym && b->sym && key != REP_CC_KEY_ADDRESS) {
		x = a->sym->start;
		y = b->sym->start;
	} else {
		x = a->ip;
		y = b->ip;
	}
	if (x != y)
		return x < y ? -1 : 1;
	return 0;
}

#endif /* PD_REPORT_CALLCHAIN_CALLCHAIN_INT_H */
