/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * export/stacks.h - the profile every stack export writes: the samples
 * of a recording that pass preport's filters, each reduced to a row
 * (event, thread, comm, CPU, stack) with its sample count and period
 * summed; stacks interned as lists of locations (one address in one
 * mapping), locations pointing to functions (a symbol of a DSO, or a
 * DSO's unknown code).  Built once from the session's stack ids: a
 * sample whose stack the session has seen costs one table look-up.
 *
 * Ownership: everything is owned by the exp_profile and lives until
 * exp_profile_free(); DSOs, symbols, maps and comms it points to are the
 * session's, so the session must outlive the profile.
 */
#ifndef PD_EXPORT_STACKS_H
#define PD_EXPORT_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/hist/hist.h"
#include "session/session.h"

/* What kind of code a function is: FlameGraph's colour classes. */
enum exp_code {
	EXP_CODE_USER,
	EXP_CODE_KERNEL,	/* the kernel and its modules */
	EXP_CODE_JIT,		/* a JIT map (/tmp/perf-PID.map) */
	EXP_CODE_INLINED,	/* a function inlined into its caller */
};

struct exp_func {
	const char *name;	/* the symbol's name; NULL: unknown code */
	struct sym_dso *dso;	/* NULL: no map covers the address */
	const char *dso_name;	/* as perf script prints it: path, "[kernel.kallsyms]", "[unknown]" */
	enum exp_code code;
};

struct exp_loc {
	const struct ses_map *map;	/* NULL: no map */
	uint64_t ip;			/* as recorded */
	uint64_t al_addr;		/* map-relative (ses_loc.al_addr) */
	const struct sym_symbol *sym;	/* NULL: unresolved */
	uint32_t func;			/* index in exp_profile.funcs */
	/* an inline frame's own source line (ses_loc.srcline), else NULL */
	const char *srcline;
};

/* One row: samples of one event, thread, comm, CPU and stack. */
struct exp_row {
	unsigned int evsel;
	int32_t pid, tid;
	const char *comm;		/* interned by the session */
	uint32_t cpu;			/* (u32)-1: not sampled or not kept */
	uint32_t stack;			/* index in the stack table */
	uint64_t samples;
	uint64_t period;
};

struct exp_profile {
	struct exp_func *funcs;
	size_t nr_funcs;
	struct exp_loc *locs;
	size_t nr_locs;
	struct exp_row *rows;
	size_t nr_rows;
	/*
	 * stack i is stack_locs[stack_start[i] .. stack_start[i + 1]), leaf
	 * first; empty for a callchain perf's rules discarded
	 */
	uint32_t *stack_locs;
	size_t *stack_start;
	/*
	 * per stack: for an empty one, the location of its samples' ip
	 * (perf report counts a sample there); UINT32_MAX for the others
	 */
	uint32_t *stack_leaf;
	size_t nr_stacks;
	/* per event: samples and period kept */
	uint64_t *evsel_samples;
	uint64_t *evsel_period;
	size_t nr_evsels;
	uint64_t samples;		/* kept, all events */
	int first_evsel;		/* the first kept sample's event; -1: none */
	uint64_t first_time, last_time;	/* of the kept samples; 0: none */
	struct exp_profile_index *index;	/* the interning tables */
};

struct exp_collect_opts {
	const struct rep_filters *filt;	/* preport's filters, or NULL */
	/* rows keep the CPU: the session's stack_key_cpu must be set */
	bool by_cpu;
	/*
	 * Called for each sample kept, in time order, with its row (the
	 * row's counts include it); NULL when none is wanted.
	 */
	void (*each)(void *ctx, const struct ses_sample *s, uint32_t row);
	void *ctx;
};

/*
 * Read every sample of ses into p (zeroed by the caller).  Returns 0, or
 * the -PD_E_* that stopped the session (ses_errmsg() says why); what was
 * read before it is in p either way.
 */
int exp_profile_collect(struct exp_profile *p, struct ses_session *ses,
			struct pd_reader *r, const struct exp_collect_opts *o);
void exp_profile_free(struct exp_profile *p);

static inline size_t
exp_stack_len(const struct exp_profile *p, uint32_t stack)
{
	return p->stack_start[stack + 1] - p->stack_start[stack];
}

static inline const uint32_t *
exp_stack_locs(const struct exp_profile *p, uint32_t stack)
{
	return p->stack_locs + p->stack_start[stack];
}

/*
 * A function's name as perf script prints it: the symbol's, else
 * "[unknown]".
 */
const char *exp_func_name(const struct exp_func *f);

/*
 * Whether an event's periods are nanoseconds: the software clocks
 * (cpu-clock, task-clock); other events count.
 */
bool exp_period_in_ns(const struct pd_attr *a);

/* The evsel whose name is name (perf's event name), or -1. */
int exp_evsel_by_name(struct pd_reader *r, const char *name);

#endif /* PD_EXPORT_STACKS_H */
