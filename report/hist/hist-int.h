/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/hist/hist-int.h - the histogram's private pieces, shared by the
 * builder (hist.c), the dimensions (sort.c, branch.c) and the printer
 * (report/out/stdio.c).
 */
#ifndef PD_REPORT_HIST_HIST_INT_H
#define PD_REPORT_HIST_HIST_INT_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/u64map.h"
#include "report/hist/hist.h"
#include "report/report.h"

struct rep_mem;

/*
 * One entry: the values of every key (perf's struct hist_entry).  ip is
 * perf's he->ip: al_addr for the sample's own address, the raw ip for an
 * entry made from a callchain frame in children mode.
 */
struct rep_hent {
	const char *comm;
	const struct ses_thread *thread;	/* of the sample that made it */
	struct sym_dso *dso;			/* NULL: no map */
	const struct ses_map *map;
	const struct sym_symbol *sym;
	const struct sym_symbol *parent;
	const char *srcline;
	const char *srcfile;
	/*
	 * perf works an entry's srcline and srcfile out when a comparison
	 * reaches their key (or a frame's cursor node gave the srcline),
	 * and sizes the columns by those it had when the entry went into
	 * the output tree: rep_hist_output_order() says which
	 */
	bool srcline_given;
	bool srcline_sized, srcfile_sized;
	uint64_t ip;
	uint64_t time;				/* the time key's: down to the quantum */
	int32_t tid;
	int32_t cpu;
	int32_t socket;
	char level;
	bool filtered;		/* by the sample's filters, when it was made */
	bool hidden;		/* by --symbol-filter or --socket-filter */
	uint64_t hash;
	const struct ses_branch *branch;	/* branch mode: the branch (branch.c owns it) */
	const char *srcline_from, *srcline_to;	/* the branch's ends, with their keys */
	const struct rep_mem *mem;		/* memory mode: the access (mem.c owns it) */
	/* the first sample's values (perf's he->weight...), for their keys */
	uint64_t weight;
	uint64_t ins_lat;
	uint64_t p_stage_cyc;
	uint64_t code_page_size;
	uint64_t transaction;
	uint64_t cgroup;
	uint64_t cgroup_dev, cgroup_ino;	/* the thread's cgroup namespace */
	const char *trace;	/* the trace key's text; NULL: no tracepoint */
	bool trace_sized;	/* the text counts in the column's width */
	unsigned int evsel;	/* its section's event */
	const unsigned char *raw;	/* the first sample's raw data (field keys) */
	uint32_t raw_len;
	uint64_t hits;		/* samples that found it made: perf compared it whole */
	uint64_t nr_events;			/* the leader's samples, for weight */
	uint8_t cpumode;
	struct rep_cc_root *cc;
	size_t cc_depth;			/* longest chain added */
	uint64_t stamp;				/* last sample that credited it */
	uint64_t self_seq;			/* last sample that hit it itself */
};

/* Whether the entry is printed and in the filtered totals. */
static inline bool
rep_hent_shown(const struct rep_hent *e)
{
	return !e->filtered && !e->hidden;
}

/* The hash of each DSO's short name, and the last one asked for. */
struct rep_dso_hash {
	struct u64map map;		/* sym_dso pointer -> hash */
	const struct sym_dso *last;
	uint64_t last_hash;
};

/* Per entry and group member. */
/* The CPU modes perf splits a self period by (he_stat's period_sys...). */
enum rep_mode {
	REP_MODE_SYS,
	REP_MODE_US,
	REP_MODE_GUEST_SYS,
	REP_MODE_GUEST_US,
	REP_MODE_NR,
};

struct rep_hval {
	uint64_t period;
	uint64_t nr;
	uint64_t acc;
	uint64_t nr_acc;
	uint64_t mode_period[REP_MODE_NR];
};

/* The histogram of one section: an event, or a group's leader. */
struct rep_hist {
	unsigned int nr_members;
	struct rep_hent *ents;
	struct rep_hval *vals;		/* nr * nr_members */
	size_t nr, cap;
	size_t *slots;			/* 1 + entry index; 0 is free */
	size_t cap_slots;		/* a power of two, or 0 */
	uint64_t *nr_samples;		/* per member */
	uint64_t *nr_samples_vis;	/* per member, entries not filtered */
	uint64_t *total;		/* per member, filled before printing */
	uint64_t *total_vis;
	uint64_t *cc_period;		/* per member: perf's callchain_period */
	uint64_t *cc_period_vis;
	unsigned int evsel;		/* the section's event */
	int field_len[REP_MAX_FIELDS];	/* the field keys' text lengths (field.c) */
};

/*
 * The samples added and not yet in the histograms, one record per
 * distinct stack: what the histogram looks at of a sample (event,
 * thread, comm, CPU, filter bit, the sample's location and its chain)
 * as a string of words, with the count and summed period of its
 * samples.  Stacks are kept in the order they first appeared, which is
 * all perf's output depends on (entries and tree nodes are made by the
 * first sample that needs them), but for an entry's map: the last
 * sample's, hence last_seq.
 */
/*
 * A stack's words are known by their 128-bit hash: two stacks that differ
 * share it with a chance of about 2^-128 (as the session's stack keys), so
 * that a look-up reads this record and not the words.
 */
struct rep_stack {
	uint64_t hash, hash_hi;
	uint64_t period;
	uint64_t count;
	uint64_t last_seq;
	uint32_t off;			/* of its words in rep_stacks.words */
	uint32_t nr_words;
	/* its first sample's (the key holds them only when by_thread) */
	const struct ses_thread *thread;
	const char *comm;
};

struct rep_stacks {
	struct rep_stack *v;
	size_t nr, cap;
	uint32_t *slots;		/* 1 + index in v; 0 is free */
	size_t cap_slots;		/* a power of two, or 0 */
	uint64_t *words;
	size_t nr_words, cap_words;
	/* the distinct frames the stacks name, by id (hist.c) */
	uint64_t *frames;
	size_t nr_frames, cap_frames;
	uint32_t *frame_slots;		/* 1 + id; 0 is free */
	size_t cap_frame_slots;		/* a power of two, or 0 */
	uint64_t *scratch;		/* the words of the sample being added */
	size_t cap_scratch;
	struct ses_loc *locs;		/* a stack's chain while it is replayed */
	struct ses_frame_branch *brs;	/* its frames' branch parts (branches) */
	size_t cap_locs;
	/* the frames carry branch parts (ses_sample.chain_branch) */
	bool branches;
	uint64_t seq;			/* samples added */
	uint64_t epoch;			/* replays so far (older tokens are stale) */
	bool with_cpu;			/* the CPU is part of a stack */
	bool by_thread;			/* the thread and comm are too */
	bool addr_free;			/* frames keep their function's address */
	size_t max_words;		/* replayed past this (stacks_words()) */
	uint64_t time_quantum;		/* with the time key, its step is too */
	/* the tool's stack user words (rep_report_set_users), or NULL */
	rep_users_each_fn *users_each;
	rep_users_forget_fn *users_forget;	/* or NULL */
	void *users_src;
};

/* Tree additions noted during a replay (hist.c, jobs_run). */
struct rep_jobs {
	struct rep_job *v;
	size_t nr, cap;
	uint32_t stack;			/* the stack being replayed */
	struct rep_cc_frames *frames;	/* the stacks' frames, while on */
	bool on;
	bool ncpu_many;			/* more than one CPU online */
};

/*
 * Children mode, while stacks are replayed: the entry a chain frame
 * credits, by its frame id, its level and its context (what else its key
 * reads: the stack's thread and comm where the keys compare them, CPU,
 * time, event, cpumode, parent and filter bits), so that a frame met
 * again in another stack is not looked up again (memo.c).
 */
struct rep_memo_ctx {
	const struct ses_thread *thread;
	const char *comm;
	const struct sym_symbol *parent;
	uint64_t time;
	uint32_t cpu;
	uint32_t evsel;
	uint8_t cpumode;
	uint8_t filtered;
	uint8_t pad[6];
};

struct rep_memo {
	bool on;			/* in a replay, with keys it covers */
	uint32_t *ids;			/* the chain's frame ids, leaf first */
	size_t cap_ids;
	uint64_t ctx;			/* 1 + the stack's context id; 0: none */
	struct rep_memo_ctx *ctxs;
	size_t nr_ctxs, cap_ctxs;
	struct u64map ctx_ids;		/* hash of a context -> 1 + its id */
	/* frame id << 32 | context id << 8 | level -> 1 + entry index */
	struct u64map ents;
};

/* memo.c */
void rep_memo_begin(struct rep_memo *m, bool on);
uint32_t *rep_memo_ids(struct rep_memo *m, size_t nr);
void rep_memo_stack(struct rep_memo *m, const struct ses_sample *s,
		    const struct rep_hent *self_key, bool by_thread);
uint64_t *rep_memo_slot(struct rep_memo *m, size_t c, char level);
void rep_memo_end(struct rep_memo *m);
void rep_memo_free(struct rep_memo *m);

struct rep_report {
	struct rep_report_opts o;
	bool children;
	bool use_callchain;
	bool caller;
	bool has_key[REP_DIM_NR];
	bool entry_filters;		/* --symbol-filter or --socket-filter apply */
	bool has_mem_keys;		/* a memory or sample-value key (mem.c) */
	bool elide[REP_DIM_NR];		/* columns left out (sort__setup_elide) */
	size_t nr_evsels;
	unsigned int *leader;		/* evsel -> section evsel */
	unsigned int *member;		/* evsel -> index in its group */
	struct rep_hist **hists;	/* by section evsel; NULL for members */
	int32_t *cpu_socket;
	size_t nr_cpu_socket;
	uint64_t lost_samples;
	regex_t parent_re;
	bool parent_re_ok;
	regex_t ignore_re;		/* --ignore-callees */
	bool ignore_re_ok;
	size_t *cache;			/* entries of the current sample */
	size_t cache_cap;
	struct u64map strings;		/* hash -> string made here */
	struct rep_dso_hash *dso_hash;	/* short name hashes, per DSO */
	uint64_t sample_seq;		/* samples added, for rep_hent.stamp */
	struct rep_stacks stacks;
	struct rep_jobs jobs;
	struct rep_memo memo;
	struct rep_cc_keying cc_keying;	/* -g's key, for every tree */
	const struct u64map *cgroup_names;	/* id -> name, or NULL */
	rep_trace_fn trace_fn;			/* the trace key's text, or NULL */
	void *trace_ctx;
	rep_field_text_fn field_fn;		/* a raw field's text */
	void *field_ctx;
	bool field_texts;	/* a field key shows its print fmt's text */
	unsigned char **raw_copies;	/* the entries' raw data */
	size_t nr_raw_copies, cap_raw_copies;
};

/* sort.c: the dimensions. */
struct rep_dim_ops {
	const char *name;
	const char *header;
	/* perf's cmp/collapse: 0 when two entries are one */
	int (*cmp)(const struct rep_report *rep, const struct rep_hent *l,
		   const struct rep_hent *r);
	/* perf's sort, for the output order; NULL: cmp */
	int (*sort)(const struct rep_hent *l, const struct rep_hent *r);
};

extern const struct rep_dim_ops rep_dims[REP_DIM_NR];

/*
 * perf's sign conventions: > 0 puts l first.  rep_hent_cmp() is the keys'
 * cmp (one entry when 0); rep_hent_sort() the output comparison (the
 * sort list only: equal entries keep their insertion order).
 */
int rep_hent_cmp(const struct rep_report *rep, const struct rep_hent *l,
		 const struct rep_hent *r);
int rep_hent_sort(const struct rep_report *rep, const struct rep_hist *h,
		  size_t a, size_t b);
/*
 * The keys perf works out lazily that rep_hent_cmp(rep, l, r) and
 * rep_hent_sort(rep, h, a, b) reach (the keys before them are equal):
 * bit n for the field key REP_DIM_FIELD + n (perf sizes a __data_loc
 * field's column by the left side of these), REP_REACH_SRCLINE and
 * REP_REACH_SRCFILE.
 */
#define REP_REACH_SRCLINE	(1ULL << 32)
#define REP_REACH_SRCFILE	(1ULL << 33)
uint64_t rep_hent_cmp_reach(const struct rep_report *rep,
			    const struct rep_hent *l, const struct rep_hent *r);
uint64_t rep_hent_sort_reach(const struct rep_report *rep,
			     const struct rep_hist *h, size_t a, size_t b);

/*
 * field.c: the field keys.  rep_field_applies(): whether key d counts
 * for the entries of evsel's section (perf skips another event's).
 */
static inline bool
rep_field_applies(const struct rep_report *rep, enum rep_dim d,
		  unsigned int evsel)
{
	return !rep_field_dim(d) ||
	       rep->o.hist.fields[d - REP_DIM_FIELD].evsel == evsel;
}
int rep_field_cmp(const struct rep_report *rep, enum rep_dim d,
		  const struct rep_hent *l, const struct rep_hent *r);
uint64_t rep_field_hash(const struct rep_report *rep, enum rep_dim d,
			const struct rep_hent *e);
void rep_field_snprint(const struct rep_report *rep, enum rep_dim d,
		       const struct rep_hent *e, int w, char *buf, size_t size);
/* The column's width (perf's hde_width()). */
int rep_field_width(const struct rep_report *rep, const struct rep_hist *h,
		    enum rep_dim d);
/*
 * The text lengths of h's field columns, from its entries; reached[i]:
 * the fields comparisons reached with entry i on the left.
 */
void rep_fields_size(const struct rep_report *rep, struct rep_hist *h,
		     const uint64_t *reached);
/*
 * The same from chosen entries: texts[i] the fields whose value entry i
 * shows perf (every entry's when NULL, and then an entry a second
 * sample found counts as reached).
 */
void rep_fields_size_some(const struct rep_report *rep, struct rep_hist *h,
			  const uint64_t *reached, const uint64_t *texts);
/* The first sample's raw data kept for a new entry. */
void rep_field_keep_raw(struct rep_report *rep, struct rep_hent *e);

/*
 * rep_hent_cmp() with symbols compared by name, not address: how perf
 * diff collapses and pairs entries (util/sort.c, SORT_MODE__DIFF).
 */
int rep_hent_cmp_by_name(const struct rep_report *rep,
			 const struct rep_hent *l, const struct rep_hent *r);
/*
 * rep_hent_sort() on the keys alone, for entries that may come from
 * different reports made with the same options (pdiff's tables).
 */
int rep_hent_key_sort(const struct rep_report *rep, const struct rep_hent *l,
		      const struct rep_hent *r);
uint64_t rep_hent_hash(const struct rep_report *rep, const struct rep_hent *e);

/*
 * hist-order.c: the indexes of h's entries in the order of perf's tree
 * of keys (its entries_in tree, before collapsing), h->nr of them, to
 * free; built entry by entry as perf builds it.
 */
size_t *rep_hist_key_order(const struct rep_report *rep,
			   const struct rep_hist *h);

/* hist-order.c: every entry of h in perf's printing order, into out[h->nr]. */
void rep_hist_output_order(const struct rep_report *rep, struct rep_hist *h,
			   size_t *out);

/*
 * perf's output tree, for any comparison: the items seq[0..n) (indexes
 * below n, in the order perf inserts them) go into a red-black tree,
 * left of a node when before(ctx, item, node) > 0, and out[0..n) gets
 * them in the tree's order.  rep_hist_output_order() is this with
 * rep_hent_sort(); pdiff (diff/) passes its own comparison.
 */
typedef int (*rep_order_cmp_fn)(void *ctx, size_t a, size_t b);
void rep_order_tree(size_t n, const size_t *seq, rep_order_cmp_fn before,
		    void *ctx, size_t *out);

/* The column text of a key dimension, for width w. */
void rep_dim_snprint(const struct rep_report *rep, enum rep_dim d,
		     const struct rep_hent *e, int w, char *buf, size_t size);
/* The text length the entry asks its column to have (perf's calc_col_len). */
void rep_dims_calc_len(const struct rep_report *rep, const struct rep_hent *e,
		       int *len);

/* A column's length at least v (perf's hists__new_col_len). */
static inline void
rep_grow_len(int *len, enum rep_dim d, int v)
{
	if (v > len[d])
		len[d] = v;
}

/* The sign of v: -1, 0 or 1 (perf's comparisons return int64_t). */
static inline int
rep_sign64(int64_t v)
{
	return (v > 0) - (v < 0);
}

/* perf's cmp_null: of two pointers the present one first, 0 when both are absent. */
static inline int
rep_cmp_null(const void *l, const void *r)
{
	if (!l && !r)
		return 0;
	return l ? 1 : -1;
}

#endif /* PD_REPORT_HIST_HIST_INT_H */
