/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * session/model.h - what the session hands to the tools: a sample
 * with its thread, comm, and every address resolved to map, DSO and
 * symbol as perf 6.1 resolves them (doc/perf-records.md §7).
 *
 * Everything a ses_sample points to is owned by the session and lives
 * until ses_free(), except raw, chain and branches, which are valid
 * until the next ses_next().  Strings are interned: two equal comms are
 * one pointer.
 */
#ifndef PD_SESSION_MODEL_H
#define PD_SESSION_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pdata/sample.h"
#include "symbol/symbol.h"

/* One mapping of a process (or of the kernel). */
struct ses_map {
	uint64_t start;		/* first address */
	uint64_t end;		/* exclusive */
	uint64_t pgoff;		/* file offset of start */
	struct sym_dso *dso;	/* never NULL */
	bool identity;		/* al_addr = ip (kernel, modules, JIT maps) */
	/* as the user MMAP record gave them (MMAP: executable, no inode) */
	uint32_t prot, flags;	/* PROT_*, MAP_* */
	uint64_t ino;		/* MMAP2's inode, 0 with a build-id */
	/*
	 * perf's dso id of the map: MMAP2's device, inode and generation,
	 * read as perf reads them also when the record carries a build-id
	 * in their place (its size, then its bytes); 0 for MMAP
	 */
	uint32_t id_maj, id_min;
	uint64_t id_ino, id_ino_gen;
};

struct ses_thread {
	int32_t pid;
	int32_t tid;
	const char *comm;	/* current comm, interned; ":<tid>" if none seen */
	int32_t ppid;		/* the tid of the parent FORK named, else -1 */
	bool dead;		/* EXIT seen */
	/* its cgroup namespace, as its last NAMESPACES record gave it; 0 */
	uint64_t cgroup_ns_dev, cgroup_ns_ino;
};

/* One resolved address: the sample's ip, or a callchain frame. */
struct ses_loc {
	const struct ses_map *map;	/* NULL: no map covers ip */
	struct sym_dso *dso;		/* map->dso, or NULL */
	const struct sym_symbol *sym;	/* NULL: unresolved */
	uint64_t ip;			/* as recorded */
	uint64_t al_addr;		/* map-relative (or ip for identity maps / no map) */
	uint8_t cpumode;		/* PD_MISC_CPUMODE_* used to resolve it */
	char level;			/* '.', 'k', 'g', 'u' or 'H' */
	/*
	 * For a frame made from inline information (opts.inline_frames),
	 * perf's srcline of that frame: the line at ip in the innermost
	 * function, the call site in the others; NULL otherwise.  sym is
	 * then the function's (sym->inlined when it is not the symbol of
	 * ip itself).
	 */
	const char *srcline;
};

/*
 * With ses_opts.branch_frames, what each frame of a sample's chain
 * carries of the branch entry it was made from (perf's callchain cursor
 * node: branch, flags, nr_loop_iter, iter_cycles, branch_from).  A
 * branch gives two frames: its target, with from set to the branch's
 * source, then its source, with from 0 and the loops removed after it.
 * Frames of the recorded chain have branch false and the rest 0.
 */
struct ses_frame_branch {
	bool branch;
	bool predicted;
	bool abort;
	uint8_t type;			/* PD_BR_* */
	uint8_t new_type;		/* PD_BR_NEW_*, with PD_BR_EXTEND_ABI */
	uint16_t cycles;
	uint32_t nr_loop_iter;		/* source end: loops removed after it */
	uint64_t iter_cycles;		/* their cycles */
	uint64_t from;			/* target end: the branch's source */
};

/*
 * One branch of a sample's branch stack.  Each end is looked up in the
 * user maps, then the kernel's (perf's thread__find_cpumode_addr_location,
 * a branch may cross from one to the other); an address in neither has
 * no map, level 'H' and al_addr = ip.
 */
struct ses_branch {
	struct ses_loc from;
	struct ses_loc to;
	struct pd_branch_entry entry;	/* flags: mispred, cycles, type... */
};

/*
 * How unwinding a sample's user stack (--call-graph dwarf) ended, for a
 * tool that says why stacks are broken (preport --unwind-stats).
 */
enum ses_unwind_end {
	SES_UW_NONE,		/* not unwound: no user registers and stack copy */
	SES_UW_COMPLETE,	/* the outermost frame was reached */
	SES_UW_MAX_STACK,	/* --max-stack, or all the frames the copy could hold */
	SES_UW_SHORT_COPY,	/* a caller's frame lies above the stack copy */
	SES_UW_NO_BINARY,	/* a frame's code has no ELF file here */
	SES_UW_NO_CFI,		/* the binary has no CFI for a frame's address */
	SES_UW_BAD_REGS,	/* the registers led nowhere (no caller's address) */
};

/*
 * The unwinder's own check (PDATA_UNWIND_CHECK set): each sample the
 * fast walk unwound is unwound the slow way too, which is kept.
 */
#define SES_UNWIND_CHECK_MAX	1024	/* frames compared */

struct ses_unwind_check {
	bool on;
	uint64_t fast, slow;	/* samples each way took */
	uint64_t differ;	/* of fast, those the slow way unwound otherwise */
	uint64_t first_time;	/* the first of them */
};

struct ses_unwind_info {
	enum ses_unwind_end end;
	uint64_t pc;		/* the last frame's address: where it ended */
	uint64_t need;		/* SES_UW_SHORT_COPY: stack bytes from sp it read */
	uint64_t copy;		/* the stack copy's bytes (dyn_size) */
};

/*
 * The stack key: what resolving a sample reads, so that two samples with
 * equal keys resolve alike and share a stack id.  Today it is the event,
 * the cpumode, the ip, the callchain as recorded (empty with
 * opts.no_callchain), the thread and its comm, the thread's map set and
 * the generation of every map set (bumped on each map change), the CPU
 * with opts.stack_key_cpu, and, for a sample that is unwound, its
 * unwound frames (unwound_key() in session.c: each stack copy differs,
 * the frames repeat), or where the chain holds more than those (branch
 * frames, LBR call stacks) a hash of its user registers and stack copy
 * (session/unwind.h).  The callchain and the unwound frames are kept as
 * their count and 128-bit XXH3 hash: two distinct chains share a key
 * with a chance of about 2^-128 (10^-25 among ten million distinct
 * stacks), where one sample would take the other's frames.  A sample
 * with a branch stack (with opts.branches) or PERF_SAMPLE_READ is never
 * interned.  Whatever a new kind of resolution reads (the LBR call
 * stack, data addresses) goes into this key in session.c (stack_key()),
 * never into a cache of its own.
 */
/* The words a tool keeps for each stack id (ses_sample.stack_user). */
#define SES_STACK_USER_WORDS	4

struct ses_sample {
	unsigned int evsel;		/* index in pd_reader's evsel list */
	/* the decoded record; NULL for an unresolved repeat */
	const struct pd_sample *raw;
	int32_t pid, tid;
	uint32_t cpu;			/* (u32)-1 when not sampled */
	uint64_t time;			/* (u64)-1 when not sampled */
	uint64_t period;		/* sampled period, or attr.sample_period */
	const struct ses_thread *thread;
	const char *comm;		/* comm at the sample's time, interned */
	/*
	 * With opts.stack_ids: 1 + the sample's index in the stack table
	 * (counted on from the last id after ses_stacks_forget()), or 0
	 * when the table is full (the sample is resolved).
	 */
	uint64_t stack_id;
	/*
	 * With a stack id: the tool's SES_STACK_USER_WORDS words for the
	 * stack, 0 until it sets them, kept beside the key in the table so
	 * that a repeat costs the tool no look-up of its own (the table
	 * entry is in the cache); valid until the next ses_next().  NULL
	 * without a stack id.  ses_stack_user_each() visits them all.
	 */
	uint64_t *stack_user;
	/*
	 * self, chain and branches are set; false for a repeat of an
	 * interned stack, whose self, chain and branches are then unset
	 * until ses_resolve_sample() sets them.
	 */
	bool resolved;
	struct ses_loc self;		/* the sample ip */
	/*
	 * The callchain after perf's marker rules and --max-stack, leaf
	 * first (callee order), the leaf frame included, with the user
	 * frames unwound from REGS_USER and STACK_USER after the recorded
	 * ones (each expanded to its inline frames with opts.inline_frames,
	 * which read nothing more than the addresses and maps); nr_chain
	 * is 0 when the sample has no callchain or it was discarded.
	 */
	const struct ses_loc *chain;
	size_t nr_chain;
	/* with opts.branch_frames: nr_chain entries, one per frame; else NULL */
	const struct ses_frame_branch *chain_branch;
	/*
	 * perf's al.filtered for the sample ip: set for guest samples when
	 * the host alone is modelled (no --guest).  perf still adds such a
	 * sample to its histogram, as a filtered entry (HIST_FILTER__GUEST),
	 * which no output shows.
	 */
	bool filtered;
	/*
	 * The branch stack, most recent branch first, each end resolved as
	 * perf's branch mode resolves it; only with opts.branches, nr_branches
	 * 0 otherwise.
	 */
	const struct ses_branch *branches;
	size_t nr_branches;
	/* how its user stack was unwound; unset, as chain, for a repeat */
	struct ses_unwind_info unwind;
};

#endif /* PD_SESSION_MODEL_H */
