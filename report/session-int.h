/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/session-int.h - the session's private pieces: a bump arena,
 * interned strings, map sets, threads, the time-ordered queue and the
 * resolver (doc/perf-records.md §1.4, §3.5.1, §7).
 */
#ifndef PD_REPORT_SESSION_INT_H
#define PD_REPORT_SESSION_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/u64map.h"
#include "pdata/events.h"
#include "pdata/reader.h"
#include "pdata/sample.h"
#include "report/model.h"
#include "report/session.h"
#include "symbol/symbol.h"

/* Objects that live until the session is freed; never freed one by one. */
struct rep_arena {
	struct rep_arena_chunk *head;
	size_t used, cap;
};

void *rep_arena_alloc(struct rep_arena *a, size_t size);
char *rep_arena_strndup(struct rep_arena *a, const char *s, size_t len);
void rep_arena_free(struct rep_arena *a);

/* Interned strings: equal contents give one pointer. */
struct rep_strtab {
	struct u64map index;	/* hash -> 1 + slot in ents */
	struct rep_str_ent *ents;
	size_t nr, cap;
	struct rep_arena *arena;
};

const char *rep_intern(struct rep_strtab *t, const char *s, size_t len);
void rep_strtab_free(struct rep_strtab *t);

/* A map and what the session knows beyond the public part. */
struct rep_map_int {
	struct rep_map pub;
	/* KSYMBOL maps carry their one symbol, relative to pub.start */
	const struct sym_symbol *ksym;
	bool kernel_image;	/* the vmlinux map */
};

/* One address space: maps sorted by start, not overlapping (user maps). */
struct rep_maps {
	struct rep_map_int **v;
	size_t nr, cap;
	size_t hint;		/* index of the last map found */
	bool may_overlap;	/* kernel maps: inserted without fixup */
};

void rep_maps_insert_fixup(struct rep_maps *m, struct rep_map_int *map,
			   struct rep_arena *arena);
void rep_maps_insert(struct rep_maps *m, struct rep_map_int *map);
void rep_maps_remove(struct rep_maps *m, const struct rep_map_int *map);
struct rep_map_int *rep_maps_find(struct rep_maps *m, uint64_t ip);
void rep_maps_copy(struct rep_maps *dst, const struct rep_maps *src);
void rep_maps_free(struct rep_maps *m);

struct rep_thread_int {
	struct rep_thread pub;
	struct rep_maps *maps;	/* shared by the threads of a process */
	bool comm_set;
};

struct rep_threads {
	struct u64map by_tid;	/* (u32)tid -> 1 + index in all */
	struct rep_thread_int **all;	/* every thread made, removed ones too */
	size_t nr, cap;
	struct rep_maps **maps;	/* every map set, for freeing */
	size_t nr_maps, cap_maps;
	struct rep_arena *arena;
	struct rep_strtab *comms;
};

struct rep_thread_int *rep_thread_findnew(struct rep_threads *ts, int32_t pid,
					  int32_t tid, bool create);
void rep_thread_remove(struct rep_threads *ts, struct rep_thread_int *t);
void rep_thread_set_comm(struct rep_threads *ts, struct rep_thread_int *t,
			 const char *comm, size_t len);
struct rep_maps *rep_threads_new_maps(struct rep_threads *ts);
void rep_threads_free(struct rep_threads *ts);

/*
 * What the key of a sample's resolution takes from its record, decoded
 * by the reading thread so that the worker need not decode the repeats
 * (session.c, pre_fill).  cc points into the record's copy.
 */
struct rep_pre {
	uint64_t hash;			/* of the fields below and the chain */
	uint64_t ip, period, time;
	uint64_t cpu_nr;		/* the CPU (when keyed) over nr_cc */
	const unsigned char *cc;
	uint32_t nr_cc;
	uint32_t cpu;
	int32_t pid, tid;
	uint8_t cpumode;
	bool ok;			/* the rest is set */
};

/* The time-ordered queue of records (perf's ordered events). */
struct rep_oe_ent {
	uint64_t ts;
	uint64_t seq;
	struct rep_oe_rec *r;	/* the record's copy, in a chunk */
};

struct rep_oe {
	struct rep_oe_ent *q;	/* queued: q[head..nr) */
	size_t head, nr, cap;
	uint64_t seq;
	uint64_t next_flush;	/* 0: nothing flushed yet */
	uint64_t max_ts;
	uint64_t last_flush;
	uint64_t nr_unordered;
	struct rep_oe_chunk *cur;	/* chunk being filled */
	struct rep_oe_chunk *spare;	/* emptied chunks */
	struct rep_oe_chunk *oldest, *newest;	/* the others */
	const unsigned char *place_lo, *place_hi; /* kept, not copied */
	struct rep_oe_ent *tmp;		/* for sorting */
	size_t *runs;
	size_t cap_tmp;
};

typedef int (*rep_oe_deliver_fn)(void *ctx, const struct pd_record *rec);

void rep_oe_queue(struct rep_oe *oe, const struct pd_record *rec, uint64_t ts);
/* Deliver every queued record with ts <= limit; stops on the first error. */
int rep_oe_flush(struct rep_oe *oe, uint64_t limit, rep_oe_deliver_fn fn,
		 void *ctx);
int rep_oe_round(struct rep_oe *oe, rep_oe_deliver_fn fn, void *ctx);
/*
 * The same steps for a caller that delivers the records elsewhere
 * (another thread): rep_oe_take() moves the records rep_oe_flush()
 * would deliver to out (room for every queued record) in order, and
 * returns their number; rep_oe_round_limit() is FINISHED_ROUND's limit
 * for rep_oe_take() (0: nothing to deliver).  Each record taken, and
 * each rep_oe_copy() (a record copied, not queued), stays valid until
 * rep_oe_release().
 */
size_t rep_oe_take(struct rep_oe *oe, uint64_t limit, struct rep_oe_rec **out);
uint64_t rep_oe_round_limit(struct rep_oe *oe);
struct rep_oe_rec *rep_oe_copy(struct rep_oe *oe, const struct pd_record *rec);
/* Queue a record copied by rep_oe_copy(). */
void rep_oe_queue_rec(struct rep_oe *oe, struct rep_oe_rec *r, uint64_t ts);
/* A copied record's rep_pre (not set: ok false). */
struct rep_pre *rep_oe_pre(struct rep_oe_rec *r);
const struct pd_record *rep_oe_record(const struct rep_oe_rec *r);
void rep_oe_release(struct rep_oe *oe, struct rep_oe_rec *r);
/*
 * Records whose bytes lie whole in [lo, hi) are kept there, not copied:
 * the bytes must stay readable until rep_oe_free().  rep_oe_oldest() is
 * the lowest address such a record still held may have (NULL: none).
 */
void rep_oe_set_place(struct rep_oe *oe, const unsigned char *lo,
		      const unsigned char *hi);
const unsigned char *rep_oe_oldest(const struct rep_oe *oe);
size_t rep_oe_queued(const struct rep_oe *oe);
void rep_oe_free(struct rep_oe *oe);

/* A header build-id, by file name. */
struct rep_bid {
	const char *name;
	const uint8_t *id;
	size_t size;
};

/*
 * A direct-mapped cache of resolved addresses: callchains repeat the
 * same return addresses over and over.  An entry is valid while gen,
 * bumped on every map change, is unchanged.
 */
#define REP_RCACHE_BITS 14

struct rep_rcache_ent {
	const struct rep_maps *maps;
	uint64_t ip;
	uint64_t al_addr;
	const struct rep_map_int *map;
	const struct sym_symbol *sym;
	uint64_t gen;
};

/*
 * Records already resolved, by what their resolution depends on (event,
 * thread, comm, cpumode, ip, callchain, map generation): the token the
 * caller gave the first of them.
 */
struct rep_rawcache {
	size_t nr;			/* entries */
	uint64_t *slots;		/* raw_slot(); 0 is free */
	size_t cap_slots;		/* a power of two, or 0 */
	uint64_t *words;
	size_t nr_words, cap_words;
	uint64_t *scratch;
	size_t cap_scratch;
};

struct rep_session {
	struct pd_reader *r;
	struct sym_ctx *syms;
	struct rep_session_opts opts;
	const struct rep_session_ops *ops;
	void *ctx;

	struct rep_arena arena;
	struct rep_strtab strs;
	struct rep_threads threads;
	struct rep_maps kmaps;		/* kernel, modules, KSYMBOLs */
	struct rep_map_int *vmlinux;	/* in kmaps, or NULL */
	/* the vmlinux map when a kernel lookup first found it */
	const struct rep_map_int *kernel_loaded;
	bool ordered;
	bool whole_sort;	/* no FINISHED_ROUND: flush at the end only */

	struct rep_bid *bids;
	size_t nr_bids;
	size_t bids_seen;		/* meta->nr_build_ids when loaded */
	struct u64map bid_index;	/* hash of name -> 1 + index */

	struct rep_loc *chain;		/* callchain buffer */
	size_t chain_cap;
	struct rep_branch *branches;	/* branch stack buffer */
	size_t branches_cap;
	struct pd_sample sample;
	struct rep_rcache_ent *rcache;	/* 1 << REP_RCACHE_BITS entries */
	uint64_t map_gen;		/* bumped when any map set changes */
	/* the threads of recent samples, by tid; cleared on FORK */
#define REP_TCACHE 64
	struct rep_thread_int *tcache[REP_TCACHE];
	struct u64map read_last;	/* SAMPLE_READ: id -> last value */
	struct rep_rawcache raw;
	struct rep_pipe *pipe;		/* the worker, while it runs */
	struct rep_sample again;	/* for sample_again, cleared once */
	char errmsg[512];

	/*
	 * What the reading thread writes while the worker runs, on cache
	 * lines of its own: sharing one with the worker's fields slows both.
	 */
	char pad_reader[64];
	struct rep_oe oe;
	struct pd_sample rsample;	/* samples decoded for rep_pre */
	bool pre_on;			/* decode them (the worker lags) */
	/* the file's mapping, and how far its pages were dropped */
	uintptr_t rel_lo, rel_hi, rel_done;
	bool rel_checked;
	char pad_reader_end[64];
};

void rep_resolve_loc(struct rep_session *s, struct rep_thread_int *t,
		     uint8_t cpumode, uint64_t ip, struct rep_loc *loc);
/* Fill s->branches from the sample's branch stack; returns the count. */
size_t rep_resolve_branches(struct rep_session *s, struct rep_thread_int *t,
			    const struct pd_sample *ps);
/* Fill s->chain from the sample's callchain; returns the frame count. */
size_t rep_resolve_chain(struct rep_session *s, struct rep_thread_int *t,
			 const struct pd_sample *ps);

int rep_process_mmap(struct rep_session *s, const union pd_event *ev, bool v2,
		     uint8_t cpumode);
int rep_process_ksymbol(struct rep_session *s, const union pd_event *ev);
const struct rep_bid *rep_header_bid(struct rep_session *s, const char *name);

uint64_t rep_hash(const void *p, size_t len);

#endif /* PD_REPORT_SESSION_INT_H */
