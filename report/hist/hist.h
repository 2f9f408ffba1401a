/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/hist/hist.h - preport's report mode: histogram entries keyed by the
 * sort keys, their order and their --stdio printing, as perf 6.1's
 * util/hist.c, util/sort.c and ui/stdio/hist.c behave
 * (doc/perf-records.md §6).
 */
#ifndef PD_REPORT_HIST_HIST_H
#define PD_REPORT_HIST_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/callchain/callchain.h"
#include "session/model.h"

/* Sort keys and output fields ("dimensions" in perf). */
enum rep_dim {
	REP_DIM_COMM,
	REP_DIM_PID,		/* perf's "pid": the thread (tid) and its comm */
	REP_DIM_DSO,
	REP_DIM_SYM,
	REP_DIM_PARENT,
	REP_DIM_CPU,
	REP_DIM_SOCKET,
	REP_DIM_SRCLINE,
	REP_DIM_SRCFILE,
	REP_DIM_SYM_SIZE,	/* the symbol's size; entries of one size are one */
	REP_DIM_DSO_SIZE,	/* the map's size */
	REP_DIM_TIME,		/* the sample's time, down to --time-quantum */
	REP_DIM_ADDR,		/* the sample's address (perf's unmapped he->ip) */
	/* the branch keys (branch mode only; report/hist/branch.c) */
	REP_DIM_DSO_FROM,
	REP_DIM_DSO_TO,
	REP_DIM_SYM_FROM,
	REP_DIM_SYM_TO,
	REP_DIM_MISPREDICT,
	REP_DIM_IN_TX,
	REP_DIM_ABORT,
	REP_DIM_CYCLES,
	REP_DIM_SRCLINE_FROM,
	REP_DIM_SRCLINE_TO,
	REP_DIM_ADDR_FROM,
	REP_DIM_ADDR_TO,
	REP_DIM_IPC_LBR,
	REP_DIM_IPC_NULL,	/* not a branch key: perf's column after "symbol" */
	/* the memory keys (memory mode only; report/hist/mem.c) */
	REP_DIM_SYM_DADDR,
	REP_DIM_SYM_IADDR,
	REP_DIM_DSO_DADDR,
	REP_DIM_LOCKED,
	REP_DIM_TLB,
	REP_DIM_MEM,
	REP_DIM_SNOOP,
	REP_DIM_DCACHELINE,
	REP_DIM_PHYS_DADDR,
	REP_DIM_DATA_PAGE_SIZE,
	REP_DIM_BLOCKED,
	/* the keys on a sample's own values (any mode; mem.c) */
	REP_DIM_LOCAL_WEIGHT,
	REP_DIM_WEIGHT,
	REP_DIM_LOCAL_INS_LAT,
	REP_DIM_INS_LAT,
	REP_DIM_LOCAL_P_STAGE_CYC,
	REP_DIM_P_STAGE_CYC,
	REP_DIM_CODE_PAGE_SIZE,
	REP_DIM_TRANSACTION,
	REP_DIM_CGROUP,		/* the sample's cgroup, by the CGROUP records' names */
	REP_DIM_CGROUP_ID,	/* the thread's cgroup namespace (dev/inode) */
	REP_DIM_TRACE,		/* a tracepoint sample's text (its print fmt) */
	/* a tracepoint's field (perf's dynamic entries; report/hist/field.c) */
	REP_DIM_FIELD,
	REP_DIM_FIELD_LAST = REP_DIM_FIELD + 31,
	/* the hpp dimensions: columns of numbers, never part of the key */
	REP_DIM_OVERHEAD,
	REP_DIM_CHILDREN,
	REP_DIM_SAMPLE,
	REP_DIM_PERIOD,
	/* the self period's share by the samples' CPU mode */
	REP_DIM_OVERHEAD_SYS,
	REP_DIM_OVERHEAD_US,
	REP_DIM_OVERHEAD_GUEST_SYS,
	REP_DIM_OVERHEAD_GUEST_US,
	REP_DIM_NR,
};

#define REP_MAX_DIMS 64
#define REP_MAX_FIELDS (REP_DIM_FIELD_LAST - REP_DIM_FIELD + 1)

static inline bool
rep_field_dim(enum rep_dim d)
{
	return d >= REP_DIM_FIELD && d <= REP_DIM_FIELD_LAST;
}

static inline bool
rep_dim_is_hpp(enum rep_dim d)
{
	return d >= REP_DIM_OVERHEAD;
}

/*
 * The dimension named name, or -1: perf's rules, any prefix of a name in
 * any case ("sym", "Symbol", "over"), the first in perf's tables.
 */
int rep_dim_parse(const char *name);
const char *rep_dim_name(enum rep_dim d);

/* --time ranges, perf's syntax (perf-report(1), --time). */
struct rep_time_range {
	uint64_t start, end;	/* ns; 0 means open */
};

struct rep_filters {
	char **comms;		/* --comms, exact names */
	size_t nr_comms;
	char **dsos;		/* --dsos, short or long names */
	size_t nr_dsos;
	char **syms;		/* --symbols, names or 0x start addresses */
	size_t nr_syms;
	int32_t *pids;		/* --pid */
	size_t nr_pids;
	int32_t *tids;		/* --tid */
	size_t nr_tids;
	uint8_t *cpus;		/* -C: cpus[n] set when CPU n is kept; NULL: all */
	size_t nr_cpus;
	const char *time_str;	/* --time as given, for the "# Samples" line */
	struct rep_time_range *times;
	size_t nr_times;
};

/*
 * A tracepoint field as a sort key (perf's hpp_dynamic_entry): its
 * event's samples compare by its bytes in their raw data and show its
 * value as the print fmt shows it, or printed alone (raw).
 */
struct rep_field {
	unsigned int evsel;	/* the event whose samples it reads */
	const char *name;
	uint32_t offset, size;	/* of the field, or of its __data_loc word */
	bool dynamic;		/* __data_loc: the word holds offset and length */
	bool relative;		/* __rel_loc: the offset counts from the word's end */
	bool string;		/* a char array: the column is size wide, not 2 * size + 2 */
	bool big_endian;
	bool raw;		/* "/raw" or --raw-trace */
	void *handle;		/* the resolver's, for rep_field_text_fn */
};

struct rep_hist_opts;
/*
 * Add the fields a sort key names (perf's add_dynamic_entry(): "field",
 * "event.field", "event.*", "trace_fields", each with an optional
 * "/raw"), with rep_hist_add_field(): 0, or -1 when the key names none.
 */
typedef int (*rep_field_resolver)(void *ctx, const char *key,
				  struct rep_hist_opts *o);
/* f's index in o->fields (one already there is not added again), or -1. */
int rep_hist_add_field(struct rep_hist_opts *o, const struct rep_field *f);
/* A field's value printed alone from a sample's raw data, NUL-terminated. */
typedef const char *(*rep_field_text_fn)(void *ctx, const struct rep_field *f,
					 const unsigned char *raw, size_t len);

/*
 * The histogram's options: the keys and columns, the parent pattern, the
 * filters and branch mode.  A sort key that takes options adds them here.
 */
struct rep_hist_opts {
	/* as given; rep_report_setup_dims() turns them into the lists below */
	const char *sort_str;		/* -s, or NULL: comm,dso,sym */
	const char *fields_str;		/* -F, or NULL */
	bool show_nr;
	bool show_period;
	bool show_cpu_util;		/* --show-cpu-utilization: sys and usr */
	unsigned int group_sort_idx;	/* --group-sort-idx: a member first */
	bool no_branch_stack;
	bool branch_stack;		/* -b: branch mode even without the feature bit */
	bool branch_mode;		/* set by rep_report_run(): one entry per branch */
	bool mem_mode;			/* --mem-mode: one entry per sample, by its weight */
	bool verbose;			/* -v: long DSO names, symbol addresses */

	/* the tracepoint fields named by -s; NULL resolver: none can be */
	rep_field_resolver field_resolver;
	void *field_ctx;
	struct rep_field fields[REP_MAX_FIELDS];
	size_t nr_fields;

	/*
	 * --hierarchy's level of each key of -s (1, 2, ...; keys in braces
	 * share one; 0: not a key given there), and how many there are
	 */
	bool hierarchy;
	unsigned char level[REP_DIM_NR];
	unsigned int nr_levels;

	enum rep_dim sort[REP_MAX_DIMS];	/* the sort list, in order */
	size_t nr_sort;
	enum rep_dim cols[REP_MAX_DIMS];	/* the output columns, in order */
	size_t nr_cols;
	bool skip_first_frame;		/* -s starts with "sym" and no -F */
	const char *parent_re;		/* --parent regex; NULL: perf's default */
	const char *ignore_callees;	/* --ignore-callees regex, or NULL */
	bool hide_unresolved;		/* -U: no sample nor frame without a symbol */
	bool exclude_other;		/* -x: only entries with a parent */
	/*
	 * perf's entry filters, which it applies only where a sort key
	 * collapses entries (comm, tid): --symbol-filter (a part of the
	 * symbol's name, on the first event's entries) and --socket-filter
	 */
	uint64_t time_quantum;		/* the time key's step, ns (0: 100 ms) */
	bool time_ns;			/* --ns: the time key in nanoseconds */
	const char *symbol_filter;	/* NULL: none */
	bool has_socket_filter;
	int32_t socket_filter;
	struct rep_filters filt;
};

/* The report's options, one part per concern (report/report.h). */
struct rep_report_opts;
struct rep_report;

struct rep_report *rep_report_new(const struct rep_report_opts *opts,
				  size_t nr_evsels, const unsigned int *leader,
				  const unsigned int *member_idx,
				  const unsigned int *nr_members,
				  const int32_t *cpu_socket, size_t nr_cpu_socket,
				  bool has_callchain);
void rep_report_free(struct rep_report *rep);

/* Add one resolved sample (the session's callback). */
void rep_report_add(struct rep_report *rep, const struct ses_sample *s);
/*
 * Samples with a stack id: the report keeps its SES_STACK_USER_WORDS
 * user words (ses_sample.stack_user), where a repeat is counted with no
 * look-up of the report's own, and reads them all, through each, before
 * the stacks go into the histograms.  Then, with forget, it lets the
 * tool drop them and the stacks they belong to (ses_stacks_forget()):
 * tokens from before a replay are stale anyway.
 */
typedef void rep_user_fn(void *ctx, uint64_t *user);
typedef void rep_users_each_fn(void *src, rep_user_fn *fn, void *ctx);
typedef void rep_users_forget_fn(void *src);
void rep_report_set_users(struct rep_report *rep, rep_users_each_fn *each,
			  rep_users_forget_fn *forget, void *src);
/* rep_report_add() of a resolved sample with its stack's user words. */
void rep_report_add_user(struct rep_report *rep, uint64_t *user,
			 const struct ses_sample *s);
/*
 * Another sample of a stack added with rep_report_add_user(), equal for
 * the histogram but for s->period, s->cpu and s->time (self and chain
 * are not read); the CPU must be equal too when an entry shows it
 * (rep_report_needs_cpu).  Returns false, having counted nothing, when
 * the report has no stack for it (none added yet, or the stacks went
 * into the histograms since): resolve it, then rep_report_add_user().
 */
bool rep_report_add_again(struct rep_report *rep, uint64_t *user,
			  const struct ses_sample *s);
/* Whether samples on two CPUs may make different entries. */
bool rep_report_needs_cpu(const struct rep_report_opts *opts);
/*
 * Branch mode: s is one branch of orig, added at once (report/hist/branch.c);
 * returns the branch of the entry credited, NULL when s was skipped.
 */
/* Whether -U leaves out what has no symbol. */
bool rep_report_hides_unresolved(const struct rep_report *rep);
const struct ses_branch *rep_report_add_branch(struct rep_report *rep,
					       const struct ses_sample *s,
					       const struct ses_sample *orig);
/*
 * s added at once, not through the stacks, with mem as its memory
 * access (memory mode, else NULL) and its own values (weights, code
 * page size) for their keys: report/hist/mem.c.  Returns the access of
 * the entry credited (mem when s made it), NULL when s was skipped.
 */
struct rep_mem;
const struct rep_mem *rep_report_add_one(struct rep_report *rep,
					 const struct ses_sample *s,
					 const struct rep_mem *mem);
void rep_report_lost_samples(struct rep_report *rep, uint64_t lost);
/*
 * The cgroup names (CGROUP records: id -> const char *, the caller's
 * until the report is freed), read when the cgroup key is printed.
 */
struct u64map;
void rep_report_cgroup_names(struct rep_report *rep, const struct u64map *names);
/*
 * The text of a tracepoint sample (perf's trace_output: its raw data
 * through its event's print fmt) for the trace key: n bytes, valid until
 * the next call; NULL for an event that is not a tracepoint.
 */
typedef const char *(*rep_trace_fn)(void *ctx, unsigned int evsel,
				    const struct pd_sample *ps, size_t *n);
void rep_report_trace_formatter(struct rep_report *rep, rep_trace_fn fn,
				void *ctx);
/* How the field keys print a raw value. */
void rep_report_field_formatter(struct rep_report *rep, rep_field_text_fn fn,
				void *ctx);
/*
 * Build the histograms from the samples added so far (rep_report_add
 * only records them); rep_report_print() does it too.  Call it before
 * rep_report_nr_entries().
 */
void rep_report_flush(struct rep_report *rep);

/*
 * Parse the option strings of opts->hist.filt (comma lists); returns 0, or -1
 * with a message in err.  rep_filter_parse_list() takes any words (empty
 * ones skipped); the names and ints of a filter must not repeat (what:
 * "comm", "dso", "symbol", "pid" or "tid", for the message).
 */
int rep_filter_parse_list(char ***out, size_t *nr, const char *arg);
/* The words of arg between any of the characters of seps (empty ones skipped). */
int rep_split_words(char ***out, size_t *nr, const char *arg, const char *seps);
int rep_filter_parse_names(char ***out, size_t *nr, const char *arg,
			   const char *what, char *err, size_t errsz);
int rep_filter_parse_ints(int32_t **out, size_t *nr, const char *arg,
			  const char *what, char *err, size_t errsz);
int rep_filter_parse_cpus(struct rep_filters *f, const char *arg,
			  char *err, size_t errsz);
int rep_filter_parse_time(struct rep_filters *f, const char *arg,
			  char *err, size_t errsz);
/* Percentage ranges of --time, once the first and last sample times are known. */
int rep_filter_resolve_time(struct rep_filters *f, uint64_t first, uint64_t last,
			    char *err, size_t errsz);
void rep_filters_free(struct rep_filters *f);
/* Whether s is one of the n strings of v. */
bool rep_filter_has_str(char *const *v, size_t n, const char *s);
/* perf's comm, pid and tid filters (machine__resolve): t passes them. */
bool rep_filter_keeps_thread(const struct rep_filters *f,
			     const struct ses_thread *t);
/*
 * perf's --dsos and --symbols (a name, or the symbol's start address as
 * 0x...): the sample's own address l passes them.
 */
bool rep_filter_keeps_self(const struct rep_filters *f,
			   const struct ses_loc *l);
/* perf's --time: time 0 (not sampled) passes, as in perf. */
bool rep_filter_keeps_time(const struct rep_filters *f, uint64_t time);

/*
 * Build the sort list and the columns from sort_str/fields_str, perf's
 * setup_sorting(): returns 0, or -1 with a message in err.
 */
int rep_report_setup_dims(struct rep_report_opts *o, bool children,
			  char *err, size_t errsz);

/* Entries over all sections: 0 is perf's "data has no samples". */
size_t rep_report_nr_entries(const struct rep_report *rep);

#endif /* PD_REPORT_HIST_HIST_H */
