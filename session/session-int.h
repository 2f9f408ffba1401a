/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/session-int.h - the session's private pieces: a bump arena,
 * interned strings, map sets, threads, the time-ordered queue and the
 * resolver (doc/perf-records.md §1.4, §3.5.1, §7).
 */
#ifndef PD_SESSION_INT_H
#define PD_SESSION_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/u64map.h"
#include "pdata/events.h"
#include "pdata/reader.h"
#include "pdata/sample.h"
#include "session/model.h"
#include "session/session.h"
#include "symbol/symbol.h"

/* Objects that live until the session is freed; never freed one by one. */
struct ses_arena {
	struct ses_arena_chunk *head;
	size_t used, cap;
};

void *ses_arena_alloc(struct ses_arena *a, size_t size);
char *ses_arena_strndup(struct ses_arena *a, const char *s, size_t len);
void ses_arena_free(struct ses_arena *a);

/* Interned strings: equal contents give one pointer. */
struct ses_strtab {
	struct u64map index;	/* hash -> 1 + slot in ents */
	struct ses_str_ent *ents;
	size_t nr, cap;
	struct ses_arena *arena;
};

const char *ses_intern(struct ses_strtab *t, const char *s, size_t len);
void ses_strtab_free(struct ses_strtab *t);

/* A map and what the session knows beyond the public part. */
struct ses_map_int {
	struct ses_map pub;
	/* KSYMBOL maps carry their one symbol, relative to pub.start */
	const struct sym_symbol *ksym;
	bool kernel_image;	/* the vmlinux map */
};

/* One address space: maps sorted by start, not overlapping (user maps). */
struct ses_maps {
	struct ses_map_int **v;
	size_t nr, cap;
	size_t hint;		/* index of the last map found */
	uint64_t gen;		/* unique to each change (maps_changed()) */
	bool may_overlap;	/* kernel maps: inserted without fixup */
};

void ses_maps_insert_fixup(struct ses_maps *m, struct ses_map_int *map,
			   struct ses_arena *arena);
void ses_maps_insert(struct ses_maps *m, struct ses_map_int *map);
void ses_maps_remove(struct ses_maps *m, const struct ses_map_int *map);
struct ses_map_int *ses_maps_find(struct ses_maps *m, uint64_t ip);
void ses_maps_copy(struct ses_maps *dst, const struct ses_maps *src);
void ses_maps_free(struct ses_maps *m);

struct ses_lbr_stitch;

struct ses_thread_int {
	struct ses_thread pub;
	struct ses_maps *maps;	/* shared by the threads of a process */
	bool comm_set;
	struct ses_lbr_stitch *lbr_stitch;	/* --stitch-lbr's memory, or NULL */
	/*
	 * The stack key's id of what resolving the thread's samples
	 * depends on (session.c, stack_ctx()), and what it stands for.
	 */
	uint64_t ctx_id;		/* 0: none yet */
	const char *ctx_comm;
	const struct ses_maps *ctx_maps;
	uint64_t ctx_gen;
};

struct ses_threads {
	struct u64map by_tid;	/* (u32)tid -> 1 + index in all */
	struct ses_thread_int **all;	/* every thread made, removed ones too */
	size_t nr, cap;
	struct ses_maps **maps;	/* every map set, for freeing */
	size_t nr_maps, cap_maps;
	struct ses_arena *arena;
	struct ses_strtab *comms;
};

/* The thread of tid, NULL if none: a look-up that changes nothing. */
struct ses_thread_int *ses_thread_lookup(const struct ses_threads *ts,
					 int32_t tid);
struct ses_thread_int *ses_thread_findnew(struct ses_threads *ts, int32_t pid,
					  int32_t tid, bool create);
void ses_thread_remove(struct ses_threads *ts, struct ses_thread_int *t);
void ses_thread_set_comm(struct ses_threads *ts, struct ses_thread_int *t,
			 const char *comm, size_t len);
struct ses_maps *ses_threads_new_maps(struct ses_threads *ts);
void ses_threads_free(struct ses_threads *ts);

/*
 * What the key of a sample's resolution takes from its record, decoded
 * by the reading thread so that the worker need not decode the repeats
 * (session.c, pre_fill).  cc points into the record's copy.
 */
struct ses_pre {
	/* the chain's 128-bit hash, seeded with the fields below */
	uint64_t hash, hash_hi;
	uint64_t ip, period, time;
	uint64_t cpu_nr;		/* the CPU (when keyed) over nr_cc */
	const unsigned char *cc;
	uint32_t nr_cc;
	uint32_t cpu;
	int32_t pid, tid;
	uint8_t cpumode;
	uint64_t unwind_key;		/* ses_unwind_key(), 0 without unwinding */
	bool by_frames;			/* keyed on its unwound frames instead */
	bool ok;			/* the rest is set */
	/* the record's user stack unwound ahead (session/ahead.c), or NULL */
	struct ses_ahead_res *ahead;
};

/* The time-ordered queue of records (perf's ordered events). */
struct ses_oe_ent {
	uint64_t ts;
	uint64_t seq;
	struct ses_oe_rec *r;	/* the record's copy, in a chunk */
};

struct ses_oe {
	struct ses_oe_ent *q;	/* queued: q[head..nr) */
	size_t head, nr, cap;
	uint64_t seq;
	uint64_t next_flush;	/* 0: nothing flushed yet */
	uint64_t max_ts;
	uint64_t last_flush;
	uint64_t nr_unordered;
	struct ses_oe_chunk *cur;	/* chunk being filled */
	size_t chunk_size;		/* of the next new chunk; 0: the first */
	struct ses_oe_chunk *spare;	/* emptied chunks */
	struct ses_oe_chunk *oldest, *newest;	/* the others */
	const unsigned char *place_lo, *place_hi; /* kept, not copied */
	struct ses_oe_ent *tmp;		/* for sorting */
	size_t *runs;
	size_t cap_tmp;
};

/*
 * ses_oe_take() moves every queued record with ts <= limit to out (room
 * for every queued record), in time order (ties in queue order), and
 * returns their number; ses_oe_round_limit() is FINISHED_ROUND's limit
 * for ses_oe_take(): the highest time queued before the previous round
 * ended (0: nothing to deliver); UINT64_MAX takes the rest at the end.  Each record taken, and
 * each ses_oe_copy() (a record copied, not queued), stays valid until
 * ses_oe_release().
 */
size_t ses_oe_take(struct ses_oe *oe, uint64_t limit, struct ses_oe_rec **out);
uint64_t ses_oe_round_limit(struct ses_oe *oe);
struct ses_oe_rec *ses_oe_copy(struct ses_oe *oe, const struct pd_record *rec);
/* Queue a record copied by ses_oe_copy(). */
void ses_oe_queue_rec(struct ses_oe *oe, struct ses_oe_rec *r, uint64_t ts);
/* A copied record's ses_pre (not set: ok false). */
struct ses_pre *ses_oe_pre(struct ses_oe_rec *r);
const struct pd_record *ses_oe_record(const struct ses_oe_rec *r);
void ses_oe_release(struct ses_oe *oe, struct ses_oe_rec *r);
/*
 * Records whose bytes lie whole in [lo, hi) are kept there, not copied:
 * the bytes must stay readable until ses_oe_free().  ses_oe_oldest() is
 * the lowest address such a record still held may have (NULL: none).
 */
void ses_oe_set_place(struct ses_oe *oe, const unsigned char *lo,
		      const unsigned char *hi);
const unsigned char *ses_oe_oldest(const struct ses_oe *oe);
size_t ses_oe_queued(const struct ses_oe *oe);
void ses_oe_free(struct ses_oe *oe);

/* A header build-id, by file name. */
struct ses_bid {
	const char *name;
	const uint8_t *id;
	size_t size;
	struct sym_dso *dso;		/* made for the name's first entry */
};

/*
 * A direct-mapped cache of resolved addresses: callchains repeat the
 * same return addresses over and over.  An entry is valid while gen,
 * bumped on every map change, is unchanged.
 */
#define SES_RCACHE_BITS 14
/* it starts this small, and doubles each time it has missed twice its size */
#define SES_RCACHE_BITS_MIN 8

struct ses_rcache_ent {
	const struct ses_maps *maps;
	uint64_t ip;
	uint64_t al_addr;
	const struct ses_map_int *map;
	const struct sym_symbol *sym;
	uint64_t gen;
};

/*
 * The stack table: samples already resolved, by their stack key
 * (session/model.h), each with its stack id.
 */
struct ses_stacktab {
	size_t nr;			/* entries */
	uint64_t last_id;		/* the last stack id given */
	bool forget;			/* empty the table before the next sample */
	uint64_t *slots;		/* stack_slot(); 0 is free */
	size_t cap_slots;		/* a power of two, or 0 */
	uint64_t *words;
	size_t nr_words, cap_words;
	uint64_t *scratch;		/* the key being looked up */
	size_t cap_scratch;
};

/* A run of records to hand out, in order: what one round flushed. */
struct ses_batch {
	struct ses_oe_rec **v;
	size_t nr, cap;
};

/*
 * The reading thread's hand-over (session.c): batches of records in a
 * ring, sent by the reader, finished by the caller, then released by the
 * reader, which also unwinds ahead in a batch sent and not yet started.
 */
#define PIPE_DEPTH	4

struct ses_pipe {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct ses_batch ring[PIPE_DEPTH];
	/* counters: batches sent, finished by the caller, released */
	uint64_t sent, finished, released;
	bool closing;			/* the caller stops */
	bool done;			/* the reader stopped */
	int err;			/* why it stopped: 0 at the end */
};

struct ses_session {
	struct pd_reader *r;
	struct sym_ctx *syms;
	struct ses_opts opts;

	struct ses_arena arena;
	struct ses_strtab strs;
	struct ses_threads threads;
	struct ses_maps kmaps;		/* kernel, modules, KSYMBOLs */
	struct ses_map_int *vmlinux;	/* in kmaps, or NULL */
	/* the vmlinux map when a kernel lookup first found it */
	const struct ses_map_int *kernel_loaded;
	bool ordered;
	bool whole_sort;	/* no FINISHED_ROUND: flush at the end only */
	bool started;

	struct ses_bid *bids;
	size_t nr_bids;
	size_t bids_seen;		/* meta->nr_build_ids when loaded */
	struct u64map bid_index;	/* hash of name -> 1 + index */

	struct ses_loc *chain;		/* callchain buffer */
	/* opts.branch_frames: what each frame has of a branch, chain_cap of them */
	struct ses_frame_branch *chain_br;
	size_t chain_cap;
	struct ses_unwind *unwind;	/* made on the first DWARF sample */
	uint64_t *uw_ips;		/* unwound frames, before resolving */
	size_t uw_cap;
	size_t uw_nr;			/* of uw_ips, when uw_ready */
	bool uw_ready;			/* the sample's stack is unwound */
	/* the inline frames of each unwound frame (opts.inline_frames) */
	struct ses_inl {
		const struct sym_inline_frame *f;
		size_t nr;
	} *uw_inl;
	struct ses_branch *branches;	/* branch stack buffer */
	size_t branches_cap;
	struct pd_sample sample;
	struct ses_rcache_ent *rcache;	/* 1 << rcache_bits entries */
	unsigned int rcache_bits;
	unsigned int rcache_max_bits;	/* the file's size allows */
	size_t rcache_misses;		/* since it last grew */
	bool rcache_skip;		/* keep the lookup just made out of it */
	uint64_t map_gen;		/* bumped when any map set changes */
	uint64_t last_ctx;		/* the last stack_ctx() id given */
	/* the threads of recent samples, by tid; cleared on FORK */
#define SES_TCACHE 64
	struct ses_thread_int *tcache[SES_TCACHE];
	struct u64map read_last;	/* SAMPLE_READ: id -> last value */
	struct u64map dso_ino;		/* DSO -> the first inode a map gave it */
	struct ses_stacktab stacks;	/* the stack table: key -> stack id */
	/* the stack hashes of the next records, for prefetching (session.c) */
#define SES_STACK_AHEAD	8
	uint64_t stack_ahead[SES_STACK_AHEAD];
	struct ses_pipe *pipe;		/* the reading thread, while it runs */
	/*
	 * Unwinding ahead on the reading thread (session/ahead.c): it reads
	 * threads and maps under model_lock, which the caller takes to
	 * change them.
	 */
	struct ses_ahead *ahead;
	pthread_rwlock_t model_lock;
	unsigned int model_depth;	/* changes begun and not ended */
	struct ses_ahead_res **cur_ahead;	/* the record's, being handed out */

	/* what ses_next() hands out, and the batch it takes it from */
	struct ses_batch cur;
	size_t cur_pos;
	bool cur_taken;			/* cur is a batch of the pipe's */
	struct pd_record direct;	/* a record handed out in place */
	bool have_direct;
	int end;			/* 0 while reading, else 1 (end) or -PD_E_* */
	struct ses_sample out;
	union pd_event ev;
	/* the sample last handed out, for ses_resolve_sample() */
	const struct pd_record *out_rec;
	struct ses_thread_int *out_thread;
	bool out_decoded;
	char errmsg[512];

	/*
	 * What the reading thread writes, or reads for every record, while
	 * the caller resolves, on cache lines of its own: sharing one with
	 * a field the caller writes for every sample slows both (the hints
	 * pointer beside cur_pos took the 1 GB frame-pointer report from
	 * 1.3 to 1.9 s).
	 */
	char pad_reader[64];
	struct ses_oe oe;
	struct ses_batch fill;		/* plain loop: the batch being filled */
	struct pd_sample rsample;	/* samples decoded for ses_pre */
	bool pre_on;			/* decode them (the caller lags) */
	uint64_t release_bytes;		/* read since pages were let go */
	/* DSOs named to load ahead (session/hint.c) */
	struct ses_hints *hints;
	char pad_reader_end[64];
};

void ses_resolve_loc(struct ses_session *s, struct ses_thread_int *t,
		     uint8_t cpumode, uint64_t ip, struct ses_loc *loc);
const struct pd_attr *ses_rec_attr(struct ses_session *s,
				   const struct pd_record *rec);
/* The user frames a sample may unwind to (--max-stack, the copy's size). */
size_t ses_unwind_max(const struct ses_session *s, const struct pd_sample *ps);
/*
 * Unwinds ps's user stack into s->uw_ips (s->uw_nr frames) and
 * s->out.unwind, for its resolution next (s->uw_ready).
 */
size_t ses_unwind_sample(struct ses_session *s, struct ses_thread_int *t,
			 const struct pd_sample *ps);
/* Fill s->branches from the sample's branch stack; returns the count. */
/*
 * addr looked up in the user maps, then the kernel's, then the guests'
 * (perf's thread__find_cpumode_addr_location): the first with a map.
 */
void ses_resolve_any_loc(struct ses_session *s, struct ses_thread_int *t,
			 uint64_t addr, struct ses_loc *loc);
size_t ses_resolve_branches(struct ses_session *s, struct ses_thread_int *t,
			    const struct pd_sample *ps);
/* Fill s->chain from the sample's callchain; returns the frame count. */
/* The cpumode a context marker sets; 0 for an unknown marker. */
uint8_t ses_marker_mode(uint64_t ip);
/* Room for n frames in s->chain. */
void ses_chain_reserve(struct ses_session *s, size_t n);

/*
 * LBR call stacks (session/lbr.c).  Whether ps is a sample of an
 * --call-graph lbr event; a hash of its branch stack (for the stack
 * key); its call stack into s->chain (the frame count), or -1 when its
 * chain has no user part and is taken as recorded.
 */
bool ses_lbr_callstack(const struct pd_attr *attr, const struct pd_sample *ps);
uint64_t ses_lbr_key(const struct pd_sample *ps);
ptrdiff_t ses_resolve_lbr(struct ses_session *s, struct ses_thread_int *t,
			  const struct pd_sample *ps);
void ses_lbr_stitch_free(struct ses_lbr_stitch *st);

size_t ses_resolve_chain(struct ses_session *s, struct ses_thread_int *t,
			 const struct pd_sample *ps);

/*
 * Branch frames (session/branch-frames.c): whether ps gets them, and
 * its branch entries, then its recorded chain as perf keeps it beside
 * them, into s->chain and s->chain_br, with room for extra frames more;
 * returns the frame count.
 */
bool ses_branch_frames_apply(const struct ses_session *s,
			     const struct pd_sample *ps);
size_t ses_resolve_branch_frames(struct ses_session *s,
				 struct ses_thread_int *t,
				 const struct pd_sample *ps, size_t extra);

int ses_process_mmap(struct ses_session *s, const union pd_event *ev, bool v2,
		     uint8_t cpumode);
int ses_process_ksymbol(struct ses_session *s, const union pd_event *ev);
const struct ses_bid *ses_header_bid(struct ses_session *s, const char *name);

uint64_t ses_hash(const void *p, size_t len);

#endif /* PD_SESSION_INT_H */
