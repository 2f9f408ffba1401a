/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/callchain/callchain.h - the callchain tree of one histogram
 * entry and its printing in perf 6.1's --stdio shapes
 * (doc/perf-records.md §6.6): graph, fractal, flat, folded, in caller
 * or callee order.
 */
#ifndef PD_REPORT_CALLCHAIN_CALLCHAIN_H
#define PD_REPORT_CALLCHAIN_CALLCHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "session/model.h"

enum rep_cc_mode {
	REP_CC_GRAPH,		/* percentages of the event's total */
	REP_CC_FRACTAL,		/* percentages of the parent */
	REP_CC_FLAT,
	REP_CC_FOLDED,
	REP_CC_NONE,
};

/* What the graph prints at each branch (perf's percent, period, count). */
enum rep_cc_value {
	REP_CC_VALUE_PERCENT,
	REP_CC_VALUE_PERIOD,
	REP_CC_VALUE_COUNT,
};

/* How frames are merged, and what a frame prints (-g's key). */
enum rep_cc_key {
	REP_CC_KEY_FUNCTION,
	REP_CC_KEY_ADDRESS,
	REP_CC_KEY_SRCLINE,
};

/*
 * perf report's -g/--call-graph parameters.  rep_cc_param_init() gives
 * perf's state before any option (graph, 0.5, callee, function,
 * percent); rep_cc_param_parse() applies one option string such as
 * "graph,0.5,caller,function,percent" (what a bare -g means) or
 * "fractal,2,callee" or "none".  Tokens may be abbreviated as perf
 * allows; the first number is the threshold, the second the print
 * limit.
 */
struct rep_cc_param {
	enum rep_cc_mode mode;
	double min_percent;
	unsigned int print_limit;
	bool caller;		/* caller order: add chains root first */
	bool order_set;		/* caller or callee was given */
	enum rep_cc_key key;
	enum rep_cc_value value;
	bool branch;		/* "branch" token (LBR call stacks) */
};

void rep_cc_param_init(struct rep_cc_param *param);
/*
 * Returns 0, or -1 with *bad pointing into arg at the token perf would
 * reject (the caller prints "Invalid callchain option" with it).
 */
int rep_cc_param_parse(struct rep_cc_param *param, const char *arg,
		       const char **bad);

/* The report's callchain options: --children, -g and --no-call-graph. */
struct rep_cc_opts {
	int children;			/* -1 default (when callchains), 0, 1 */
	int use_callchain;		/* -1 default (when callchains), 0, 1 */
	struct rep_cc_param param;	/* -g; mode REP_CC_NONE: -g none */
	bool branch_history;		/* --branch-history */
	/*
	 * --branch-history on a file with branch stacks: graphs also for
	 * samples without a callchain, with branch counts (rep_cc_keying)
	 */
	bool branch_counts;
};

struct rep_cc_root;

/*
 * Where trees keep their distinct frames: the trees of one report share
 * one, so that a frame in many trees is stored once.  It must outlive
 * them, and no thread may add to a tree of it while another adds to a
 * tree of it by locations (rep_cc_add_ids() only reads it).
 */
struct rep_cc_pool;

struct rep_cc_pool *rep_cc_pool_new(void);
void rep_cc_pool_free(struct rep_cc_pool *pool);

/*
 * The key a tree merges its frames by.  Under the address and srcline
 * keys each frame carries perf's callchain srcline: srcline(ctx, loc)
 * gives it, one pointer for equal strings (they are compared as
 * pointers), or NULL for a frame without a map.
 */
struct rep_cc_keying {
	enum rep_cc_key key;
	const char *(*srcline)(void *ctx, const struct ses_loc *l);
	void *ctx;
	/*
	 * perf's show_branchflag_count (--branch-history): each frame
	 * counts the branches that passed through it, and the graph prints
	 * them after its name.
	 */
	bool branch_counts;
	struct rep_cc_pool *pool;	/* NULL: the tree has its own */
};

/* keying NULL: the function key, the tree's own pool */
struct rep_cc_root *rep_cc_new(const struct rep_cc_keying *keying);
void rep_cc_free(struct rep_cc_root *root);

/*
 * Add one chain with its period.  frames[0..nr) are leaf first, as the
 * session gives them; reverse adds them root first (caller order).  The
 * caller picks the slice (in children mode, the part of the chain above
 * the entry).
 * Frames are merged as perf's key does: "function", the same symbol
 * (and DSO) when resolved, the same ip otherwise; "address", the same
 * ip; "srcline", the same srcline (then name, then ip).  Frame contents
 * are copied.
 */
void rep_cc_add(struct rep_cc_root *root, const struct ses_loc *frames,
		size_t nr, bool reverse, uint64_t period);
/* rep_cc_add() of count equal chains whose periods sum to period. */
void rep_cc_add_n(struct rep_cc_root *root, const struct ses_loc *frames,
		  size_t nr, bool reverse, uint64_t period, uint64_t count);
/*
 * rep_cc_add_n() with what each frame has of a branch (br[i] for
 * frames[i]; NULL: none), which a tree with branch counts adds up;
 * last_seq is the order number of the last of the count samples.
 */
void rep_cc_add_branch_n(struct rep_cc_root *root,
			 const struct ses_loc *frames,
			 const struct ses_frame_branch *br, size_t nr,
			 bool reverse, uint64_t period, uint64_t count,
			 uint64_t last_seq);

/*
 * The distinct locations of many chains, as frames of pool's trees of
 * the function key made once: chains of them are added by their indexes
 * (rep_cc_add_ids()), from any thread.
 */
struct rep_cc_frames;

struct rep_cc_frames *rep_cc_frames_new(struct rep_cc_pool *pool,
					const struct ses_loc *locs,
					size_t nr);
void rep_cc_frames_free(struct rep_cc_frames *frames);
/*
 * rep_cc_add_n() of the chain whose frame i is location ids[i] of
 * frames, to a tree of frames' pool, of the function key without branch
 * counts.
 */
void rep_cc_add_ids(struct rep_cc_root *root,
		    const struct rep_cc_frames *frames, const uint32_t *ids,
		    size_t nr, bool reverse, uint64_t period, uint64_t count);

/*
 * Add every chain of src to dst, as perf does when two histogram entries
 * collapse into one: periods add up, and each merged chain counts as one
 * (perf's "count" value after a merge).  src is left unchanged.
 */
void rep_cc_merge(struct rep_cc_root *dst, const struct rep_cc_root *src);

/* Sum of the periods added (perf's root children_hit). */
uint64_t rep_cc_total(const struct rep_cc_root *root);

struct rep_cc_print_opts {
	enum rep_cc_mode mode;
	double min_percent;		/* threshold, 0.5 by default */
	uint64_t total;			/* the event's total period (graph, flat, folded) */
	uint64_t entry_period;		/* the entry's own value (fractal root, single-branch rule) */
	/*
	 * Extra left margin, added to the 12 columns every graph line
	 * starts with; perf's --stdio passes 0 whatever the columns.
	 */
	unsigned int margin;
	bool skip_first;		/* first frame equals the entry's symbol (sort starts with sym, no -F) */
	unsigned int print_limit;	/* --call-graph print_limit; 0 = no limit */
	/* additions (zero gives perf's behaviour for the fields above) */
	enum rep_cc_value value;
	/*
	 * Base of the graph/flat/folded threshold: perf's callchain_period,
	 * the self period of the samples that had a callchain (or of those
	 * not filtered out, with --percentage relative).  0: use total.
	 */
	uint64_t threshold_total;
	const char *field_sep;		/* -t for folded; NULL: ";" */
	bool color;			/* percentages coloured as perf's */
	enum rep_cc_key key;		/* -g's key */
};

/* opts for a --stdio report with the given parameters and totals. */
void rep_cc_print_opts_init(struct rep_cc_print_opts *opts,
			    const struct rep_cc_param *param,
			    uint64_t total, uint64_t entry_period);

/*
 * Print the tree under its entry line as perf 6.1's --stdio does: graph
 * and fractal end with a blank line when they printed anything, flat
 * puts one after each chain, folded none.  Nothing is printed in mode
 * none, for an empty tree, or when every branch is under the threshold.
 */
void rep_cc_print(FILE *out, const struct rep_cc_root *root,
		  const struct rep_cc_print_opts *opts);

#endif /* PD_REPORT_CALLCHAIN_CALLCHAIN_H */
