/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/session.h - the analysis engine: replay a perf.data file as
 * perf does, records in time order (FINISHED_ROUND / FINISHED_INIT
 * bounded), threads from COMM/FORK/EXIT, maps from MMAP/MMAP2/KSYMBOL,
 * samples resolved to maps, DSOs and symbols (doc/perf-records.md §7).
 *
 * The tool owns the loop: ses_next() hands out one event at a time, a
 * sample or any other record, after the session has applied it to its
 * threads and maps.  Between two calls the session does nothing, so a
 * tool may look at a thread's maps (ses_thread_maps()) or resolve an
 * address (ses_resolve()) and see them as they were at that record.
 *
 * Ownership and lifetimes: the session borrows the reader and the
 * symbol context, which must outlive it.  What an event points to (the
 * record, the decoded sample and side-band record, the chain and branch
 * buffers) is valid until the next ses_next() call; threads, comms,
 * maps and everything they point to live until ses_free().  Comm
 * strings are interned: two equal comms are one pointer.
 *
 * Errors: ses_next() returns a negative -PD_E_* and ses_errmsg() says
 * why, with the file offset.  As in perf, a session that stops on a bad
 * record has handed out what the rounds before it flushed, not what was
 * still queued.
 */
#ifndef PD_SESSION_SESSION_H
#define PD_SESSION_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "pdata/events.h"
#include "pdata/reader.h"
#include "session/model.h"
#include "symbol/symbol.h"

struct ses_opts {
	unsigned int max_stack;		/* --max-stack; 0 means perf's default 127 */
	/*
	 * The chain is caller first in the report: --max-stack keeps the
	 * frames nearest the root (the chain is still given leaf first).
	 */
	bool callchain_caller_order;
	bool no_callchain;		/* do not resolve callchains (-g none, no children) */
	bool branches;			/* resolve branch stacks (ses_sample.branches) */
	/*
	 * Resolve addresses to maps and DSOs only: no symbol is looked up,
	 * so no DSO's symbols are loaded, and the kernel map keeps the
	 * bounds its MMAP record gave (perf widens it when it loads the
	 * kernel's symbols).  What perf's build-id pass sees.
	 */
	bool maps_only;
	/*
	 * Intern samples in the stack table (ses_sample.stack_id).  A
	 * sample whose stack key (model.h) equals an earlier one's is then
	 * handed out unresolved (ses_sample.resolved false): the tool
	 * reuses what it made of the first, or calls ses_resolve_sample().
	 * Off: every sample is resolved, stack_id is 0.
	 */
	bool stack_ids;
	/*
	 * With stack_ids, a sample with a new stack id is handed out
	 * decoded but unresolved as well: a tool that prints no address
	 * resolves nothing (and loads no symbols), and one that does calls
	 * ses_resolve_sample().
	 */
	bool resolve_on_demand;
	bool stack_key_cpu;		/* the CPU is part of the stack key */
	/*
	 * Threads besides the caller's: 0 reads, orders and resolves in
	 * ses_next() itself; 1 reads and orders the records of a regular
	 * file on a thread of its own while the caller resolves and uses
	 * them.  The events are the same either way.
	 */
	unsigned int threads;
	/*
	 * Records in file order, not time order: what perf does when a tool
	 * turns its ordered events off (perf script --show-round-events).
	 */
	bool file_order;
	/*
	 * perf's --stitch-lbr: an LBR call stack is continued with the
	 * calls of the thread's previous sample that the hardware's stack
	 * no longer holds.  Such samples depend on the ones before them,
	 * so they are never interned.
	 */
	bool stitch_lbr;
	/*
	 * perf's --inline: each frame unwound from a sample's user stack
	 * (--call-graph dwarf) is replaced by its inline frames, the
	 * functions inlined at its address innermost first, then the one
	 * they were inlined into (symbol.h, sym_dso_inlines()); the
	 * recorded chain keeps its frames, as in perf 6.1.
	 */
	bool inline_frames;
	/*
	 * perf report --tasks: samples are skipped (they make no thread),
	 * and so are MMAP records unless tasks_mmaps (--mmaps) is set.
	 */
	bool tasks;
	bool tasks_mmaps;
	/*
	 * perf's branch call stack (report --branch-history, -g ...,branch;
	 * session/branch-frames.c): the entries of a sample's branch stack
	 * go before its chain, two frames each (ses_sample.chain_branch),
	 * with their loops removed; with branch_frames_nochain also for a
	 * sample without a callchain.  Samples are then never interned.
	 */
	bool branch_frames;
	bool branch_frames_nochain;
};

/*
 * opts.threads for this machine: 1 with two CPUs or more, else 0; 0
 * also when the environment sets PDATA_THREADS=0 (for comparing the two
 * ways, which must give the same events).
 */
unsigned int ses_threads_default(void);

/* What ses_next() hands out. */
enum ses_kind {
	SES_SAMPLE = 1,		/* a SAMPLE record: sample */
	SES_RECORD,		/* any other kernel record (types 1..63): event */
	SES_USER,		/* a user record (64 and up) other than COMPRESSED */
};

struct ses_event {
	enum ses_kind kind;
	/* the record as read, its evsel (-1: none) and file offset */
	const struct pd_record *rec;
	/* SES_SAMPLE: the resolved sample */
	const struct ses_sample *sample;
	/*
	 * SES_RECORD: the decoded record (event->base.sample_id is its
	 * sample_id trailer, absent values where it has none); the thread
	 * its sample_id names, or NULL when it names none.
	 */
	const union pd_event *event;
	const struct ses_thread *thread;
};

struct ses_session;

struct ses_session *ses_new(struct pd_reader *r, struct sym_ctx *syms,
			    const struct ses_opts *opts);
void ses_free(struct ses_session *s);

/*
 * The next event in time order into *ev: 1, 0 at the end, or the
 * -PD_E_* that stopped reading (ses_errmsg() says why).  Records in
 * user types arrive where the file has them, after the records their
 * round flushed; COMPRESSED records are opened, not handed out.
 */
int ses_next(struct ses_session *s, struct ses_event *ev);

/*
 * Resolve the sample ses_next() last handed out unresolved (a repeat in
 * the stack table): its self, chain and branches are filled as if it
 * had been resolved then.  Returns 0 or a -PD_E_*.
 */
int ses_resolve_sample(struct ses_session *s, struct ses_event *ev);

/*
 * Decode the sample ses_next() last handed out unresolved, when its raw
 * is NULL, without resolving it: for a tool that keeps what it made of
 * each stack id (a callchain's text) but needs every sample's fields.
 * Returns 0 or a -PD_E_*.
 */
int ses_decode_sample(struct ses_session *s, struct ses_event *ev);

/*
 * Call fn with the user words (ses_sample.stack_user) of every stack in
 * the table, in the order of their ids.
 */
void ses_stack_user_each(struct ses_session *s,
			 void (*fn)(void *ctx, uint64_t *user), void *ctx);

/*
 * Empty the stack table before the next sample, or at once when
 * ses_next() has ended, so that its memory stays bounded where stacks
 * rarely repeat: a sample whose key was interned before is then a new
 * stack, resolved again, with a new id (an id is never given twice).
 * The user words go with the table: for a tool that has read them all
 * (ses_stack_user_each()) and keeps nothing by stack id from before.
 */
void ses_stacks_forget(struct ses_session *s);

/*
 * A sample with PERF_SAMPLE_READ stands for one sample of each event
 * whose value it carries, with the value's growth since that event's
 * last sample as its period; events that did not grow get none.  Call
 * with *pos 0 first: each call fills *out with the next such sample and
 * returns true, false when there is none left.  A sample without READ
 * stands for itself, once.
 */
bool ses_read_split(struct ses_session *s, const struct ses_sample *in,
		    size_t *pos, struct ses_sample *out);

/* The thread pid/tid at this point of the replay, or NULL if none seen. */
const struct ses_thread *ses_thread_find(struct ses_session *s, int32_t pid,
					 int32_t tid);

/*
 * The threads a lookup by tid finds now (not those a FORK replaced), in
 * no particular order; *out is the caller's to free.
 */
size_t ses_threads_live(struct ses_session *s,
			const struct ses_thread ***out);

/*
 * A read-only view of t's maps (the process's, shared by its threads)
 * or of the kernel's (t NULL): *maps points to nr maps sorted by start.
 * Kernel maps may overlap (modules, KSYMBOLs); user maps do not.  Valid
 * until the next ses_next().
 */
size_t ses_thread_maps(struct ses_session *s, const struct ses_thread *t,
		       const struct ses_map *const **maps);

/*
 * A user map's inode as perf 6.1 keeps it, on its DSO: the map's own,
 * else (an MMAP, or an MMAP2 with a build-id) the first one a map of
 * the same DSO gave; 0 when none did.
 */
uint64_t ses_map_inode(struct ses_session *s, const struct ses_map *m);

/*
 * Resolve addr as perf resolves an address of t in cpumode (a data
 * address, an unwound frame): the map and symbol, as a sample's ip is.
 */
void ses_resolve(struct ses_session *s, const struct ses_thread *t,
		 uint8_t cpumode, uint64_t addr, struct ses_loc *loc);
/*
 * Resolve addr in whichever CPU mode's maps have it, user first (perf's
 * thread__find_cpumode_addr_location: a branch end, a memory sample's ip).
 */
void ses_resolve_any(struct ses_session *s, const struct ses_thread *t,
		     uint64_t addr, struct ses_loc *loc);

/*
 * Whether perf 6.1 takes r's callchains as LBR call stacks, so that
 * --stitch-lbr applies: its events sample a branch stack, and not the
 * user registers and stack of DWARF unwinding.
 */
bool ses_stitch_lbr_applies(struct pd_reader *r);

/* The unwinder's counts and its own check so far (model.h). */
void ses_unwind_check(const struct ses_session *s,
		      struct ses_unwind_check *out);

/* Why ses_next() stopped: the session's message, else the reader's. */
const char *ses_errmsg(const struct ses_session *s);

/*
 * The callback style, a thin wrapper over ses_next(): every sample (one
 * per event of a READ sample, ses_read_split()), loss and other record
 * to ops, in time order.  Returns 0 or the -PD_E_* that stopped it.
 */
struct ses_ops {
	void (*sample)(void *ctx, const struct ses_sample *s);
	/* LOST_SAMPLES records (perf's "Total Lost Samples") */
	void (*lost_samples)(void *ctx, unsigned int evsel, uint64_t lost);
	/* LOST records */
	void (*lost)(void *ctx, unsigned int evsel, uint64_t lost);
	/* every other event (SES_RECORD and SES_USER) */
	void (*event)(void *ctx, const struct ses_event *ev);
};

int ses_run(struct ses_session *s, const struct ses_ops *ops, void *ctx);

#endif /* PD_SESSION_SESSION_H */
