/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/record.h - precord internals: the options, the event list, the
 * target (cpus x threads), the opened events and their ring buffers.
 *
 * The attr bits follow perf 6.1's evsel__config() and evlist__config()
 * (tools/perf/util/evsel.c, util/record.c); doc/precord.1 lists which
 * option sets what.
 */
#ifndef PD_RECORD_H
#define PD_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "pdata/records.h"

/* Where a problem of the recorder came from, for the exit status. */
enum rec_exit {
	REC_EXIT_FAIL = 1,	/* the tool failed */
	REC_EXIT_USAGE = 2,	/* bad command line */
};

enum rec_callgraph {
	REC_CG_NONE = 0,
	REC_CG_FP,
	REC_CG_DWARF,
	REC_CG_LBR,
};

/* The command line, as perf record spells it. */
struct rec_opts {
	const char *output;		/* -o; "-" is pipe mode */
	bool pipe;
	char *pids;			/* -p */
	char *tids;			/* -t */
	const char *uid;		/* -u, as given (its processes in pids) */
	char *cpu_list;			/* -C */
	bool system_wide;		/* -a */
	unsigned int delay_ms;		/* -D MSECS */
	bool delay_forever;		/* -D -1: never enabled */
	struct rec_range {		/* -D ranges, ms from the start */
		unsigned int on, off;
	} *ranges;
	size_t nr_ranges;
	bool no_inherit;		/* --no-inherit */

	unsigned int freq;		/* -F, or 4000 */
	bool freq_set;			/* -F given */
	uint64_t period;		/* -c */
	bool period_set;		/* -c given */

	enum rec_callgraph callgraph;	/* -g, --call-graph */
	uint32_t stack_dump_size;	/* --call-graph dwarf,SIZE */
	uint64_t branch_stack;		/* -b, -j: PD_BRANCH_* */
	uint64_t user_regs;		/* --user-regs */
	uint64_t intr_regs;		/* --intr-regs */
	bool sample_addr;		/* -d */
	bool sample_weight;		/* -W */
	bool phys_data;			/* --phys-data */
	bool data_page_size;		/* --data-page-size */
	bool code_page_size;		/* --code-page-size */
	bool sample_cpu;		/* --sample-cpu */
	bool sample_time_set;		/* -T */
	bool switch_events;		/* --switch-events */
	bool namespaces;		/* --namespaces */
	bool all_cgroups;		/* --all-cgroups */
	bool raw_samples;		/* -R */
	unsigned int mmap_pages;	/* -m, or 0 for perf's default */
	unsigned int aux_pages;		/* -m N,M: M (only AUX events use it) */
	bool all_user;			/* --all-user */
	bool all_kernel;		/* --all-kernel */
	bool user_callchains;		/* --user-callchains */
	bool kernel_callchains;		/* --kernel-callchains */
	bool inherit_stat;		/* -s, --stat */
	bool no_samples;		/* -n, --no-samples */
	bool strict_freq;		/* --strict-freq */
	uint64_t max_size;		/* --max-size, bytes; 0: none */
	struct rec_switch {		/* --switch-output */
		bool on;
		bool signal;		/* on SIGUSR2 */
		uint64_t size;		/* once the records reach it, or 0 */
		unsigned long secs;	/* every secs seconds, or 0 */
	} switch_output;
	unsigned int switch_max_files;	/* --switch-max-files; 0: all kept */
	bool timestamp_filename;	/* --timestamp-filename */
	bool overwrite;			/* --overwrite: backward ring buffers */
	const char *control;		/* --control, or NULL */
	bool use_clockid;		/* -k, --clockid */
	int clockid;
	uint64_t mmap_flush;		/* --mmap-flush: least bytes a pass drains */
	unsigned int comp_level;	/* -z: zstd level 1..22, or 0: off */
	bool threads;			/* --threads: a directory, data.N */
	const char *threads_spec;	/* --threads=SPEC, or NULL */
	bool quiet;			/* -q */
	int verbose;			/* -v */

	bool no_buildid;		/* -B: no BUILD_ID, no cache */
	bool no_buildid_cache;		/* -N */
	bool buildid_mmap;		/* --buildid-mmap */
	bool archive;			/* --archive: FILE.pdsym */
	bool perf_archive;		/* --perf-archive: FILE.tar.bz2 */

	char **events;			/* each -e argument */
	char **filters;			/* its --filter/--exclude-perf, or NULL */
	size_t nr_events;
	struct rec_cgroup_arg {
		const char *names;	/* -G's argument */
		size_t after;		/* the -e arguments before it */
	} *cgroups;
	size_t nr_cgroup_args;

	char **argv;			/* the workload, or NULL */
	int argc;
};

/*
 * An event's own terms ("cpu-clock/period=1000,call-graph=fp/"), applied
 * over the options, as perf's evsel__apply_config_terms() does.
 */
enum {
	REC_TERM_PERIOD = 1 << 0,
	REC_TERM_FREQ = 1 << 1,
	REC_TERM_TIME = 1 << 2,
	REC_TERM_CALLGRAPH = 1 << 3,
	REC_TERM_STACK_SIZE = 1 << 4,
	REC_TERM_MAX_STACK = 1 << 5,
	REC_TERM_INHERIT = 1 << 6,
};

struct rec_terms {
	unsigned int set;		/* REC_TERM_* */
	uint64_t period, freq;
	bool time, inherit;
	enum rec_callgraph callgraph;	/* REC_CG_NONE: call-graph=no */
	uint32_t stack_size;		/* call-graph=dwarf's, or stack-size */
	uint16_t max_stack;
};

/*
 * evterms.c: term t (with its value, or NULL) of event ev: 1 when it is a
 * term every event takes, applied; 0 when not one; -1 with *why set.
 */
struct rec_event;
int rec_event_term(struct rec_event *ev, const char *t, const char *value,
		   char *why, size_t why_len);

/* One event of the list (perf's evsel). */
struct rec_event {
	struct pd_attr attr;
	struct rec_terms terms;
	char *name;			/* for EVENT_DESC */
	char *tracepoint;		/* "sys:name", else NULL */
	size_t leader;			/* group leader's index, or its own */
	size_t nr_members;		/* leaders: events in the group */
	char *group_name;		/* leaders of {...}: NULL (anonymous) */
	bool in_group;			/* part of a {...} of two or more */
	bool precise_max;		/* :P, or the default cycles */
	bool sample_read;		/* :S */
	bool tracking;			/* carries mmap/comm/task */
	char *filter;			/* a tracepoint's --filter, or NULL */
	char *cgroup;			/* -G's cgroup, or NULL */
	int cgroup_fd;			/* its directory, or -1 */
	bool immediate;			/* enabled at open (the -a dummy) */

	int *fds;			/* [cpu_idx * nr_threads + thr_idx] */
	uint64_t *ids;			/* same order */
};

struct rec_evlist {
	struct rec_event *ev;
	size_t nr;
	size_t nr_groups;		/* groups of two or more */
};

/* evglob.c: tracepoints named by glob patterns, "sys:name" each */
struct rec_tp_list {
	char **names;
	size_t nr;
};

bool rec_tracepoint_is_glob(const char *sys, const char *name);
/* Those matching, in perf's order; -1 when there is no tracing directory. */
int rec_tracepoints_matching(const char *sys_pat, const char *name_pat,
			     struct rec_tp_list *out);
void rec_tp_list_free(struct rec_tp_list *l);

/*
 * cgroup.c: one -G list over the events parsed so far (*nr_cgroups: the
 * names taken by earlier lists); 0, or -1 with *why set.
 */
int rec_cgroups_apply(struct rec_evlist *list, const char *names,
		      size_t *nr_cgroups, char *why, size_t why_len);
void rec_event_cgroup_free(struct rec_event *ev);

/* Whether the events start disabled (-D in any form). */
static inline bool
rec_opts_delayed(const struct rec_opts *o)
{
	return o->delay_ms || o->delay_forever || o->nr_ranges;
}

/* Parse one -e argument and append its events; 0, or -1 with *why set. */
int rec_events_parse(struct rec_evlist *list, const char *text,
		     char *why, size_t why_len);
/* The default event: cycles with the highest precision. */
void rec_events_add_default(struct rec_evlist *list);
/* A dummy event that carries the side-band records (-a, -C, -D). */
void rec_events_add_dummy(struct rec_evlist *list);
void rec_evlist_free(struct rec_evlist *list);

/* What is recorded: cpus x threads, and the workload. */
struct rec_target {
	int *cpus;			/* cpu numbers, or a single -1 */
	size_t nr_cpus;
	pid_t *threads;			/* tids, or a single -1 */
	size_t nr_threads;
	pid_t *pids;			/* processes of -p (for synthesis) */
	size_t nr_pids;
	bool has_cpu;			/* -a or -C: perf's target__has_cpu */
	bool ignore_missing;		/* -p, -u: a thread gone is dropped */
	bool per_cpu_rings;		/* one ring per cpu (else per thread) */
	bool workload;
	/*
	 * fd 1 carries the perf.data stream: the workload's stdout goes to
	 * its stderr instead, as perf record -o - does.
	 */
	bool pipe_output;

	pid_t child;			/* the workload, or 0 */
	/* the dispositions precord found, given back to the workload */
	struct sigaction old_int, old_term, old_hup, old_chld, old_xfsz;
	struct sigaction old_pipe;
	struct sigaction old_usr2, old_alrm;
	sigset_t old_mask;
	int go_fd;			/* write end of the start pipe */
	int err_fd;			/* read end of the exec-error pipe */
};

/*
 * Set the attr bits of every event for the options and the target, as
 * perf's evlist__config() does.
 */
void rec_evlist_config(struct rec_evlist *list, const struct rec_opts *o,
		       const struct rec_target *t);

/* Parse a cpu list "0-3,5"; 0 or -1 when it is not a list. */
int rec_parse_cpulist(const char *s, int **out, size_t *nr);
/* The online cpus. */
int rec_online_cpus(int **out, size_t *nr);
/* Fill the threads of the target from -p/-t; 0, or -errno with *why. */
/*
 * perf's thread_map__new_by_uid(): the processes whose /proc entry uid
 * owns, as a -p list ("1,2,3"; free() it), or NULL when there is none.
 */
char *rec_pids_of_uid(uid_t uid);
int rec_target_threads(struct rec_target *t, const struct rec_opts *o,
		       char *why, size_t why_len);
/*
 * Fork the workload, stopped before exec until rec_workload_start().
 * Returns 0 or -errno.
 */
int rec_workload_prepare(struct rec_target *t, char **argv);
/*
 * Let the workload exec.  Returns 0, or the errno of a failed exec (the
 * child has then exited).
 */
int rec_workload_start(struct rec_target *t);

/* One mmap'd ring buffer. */
struct rec_ring {
	void *base;			/* the control page */
	unsigned char *data;		/* the data pages */
	uint64_t mask;			/* data size - 1 */
	size_t len;			/* mapped bytes */
	int fd;
	int cpu;			/* for ID_INDEX: the cpu, or -1 */
	pid_t tid;			/* a per-thread ring's, or -1 */
	bool backward;			/* --overwrite: read-only, written backward */
	uint64_t prev;			/* backward: the head at the last read */
};

struct rec_rings {
	struct rec_ring *r;
	size_t nr;
};

/*
 * Open every event on every cpu x thread; on failure print one clear
 * message (naming what the kernel refused) and return -1.
 */
int rec_events_open(struct rec_evlist *list, struct rec_target *t,
		    const struct rec_opts *o);
/* mmap the rings and route every fd to its ring; -1 after a message. */
int rec_rings_mmap(struct rec_rings *rings, struct rec_evlist *list,
		   const struct rec_target *t, unsigned int pages,
		   bool overwrite);
/* The ring index of fd (cpu_idx, thread_idx), for ID_INDEX. */
size_t rec_ring_index(const struct rec_target *t, size_t cpu_idx,
		      size_t thread_idx);
/* PERF_EVENT_IOC_ENABLE on every fd of the events. */
/* On or off: one event, or (ev NULL) every one but the side-band dummy. */
void rec_events_switch(struct rec_evlist *list, const struct rec_target *t,
		       struct rec_event *ev, bool on);

/* control.c: --control's command and acknowledgement descriptors */
struct rec_control {
	int ctl, ack;			/* -1: none */
	bool own;			/* FIFOs opened here, closed here */
	bool stop;			/* "stop" was read */
	size_t have;			/* bytes of a line not ended yet */
	char buf[256];
};

int rec_control_open(struct rec_control *c, const char *spec, char *why,
		     size_t len);
/* Read and carry out the commands waiting on c->ctl. */
void rec_control_process(struct rec_control *c, struct rec_evlist *list,
			 const struct rec_target *t, bool quiet);
void rec_control_close(struct rec_control *c);

/* Disable every event but the side-band dummy (-D ranges). */
void rec_events_disable_samplers(struct rec_evlist *list,
				 const struct rec_target *t);
void rec_events_enable(struct rec_evlist *list, const struct rec_target *t,
		       bool all);
void rec_events_close(struct rec_evlist *list, const struct rec_target *t);
void rec_rings_unmap(struct rec_rings *rings);

/* Writes one span of bytes; returns 0 or -errno. */
typedef int (*rec_write_fn)(void *ctx, const void *buf, size_t len);

/*
 * Copy what the kernel wrote to ring since the last call to the output,
 * in one or two writes, then release it; less than min bytes stay there
 * (perf's --mmap-flush).  *bytes gets the count.  Returns 0 or -errno.
 */
int rec_ring_drain(struct rec_ring *ring, uint64_t min, rec_write_fn write,
		   void *ctx, uint64_t *bytes);

/*
 * A backward ring (--overwrite), paused: what the kernel wrote since the
 * last read, newest first as it lies, at most one ring's worth of whole
 * records (perf's overwrite_rb_find_range).  *bytes gets the count.
 * Returns 0 or -errno.
 */
int rec_ring_read_backward(struct rec_ring *ring, rec_write_fn write,
			   void *ctx, uint64_t *bytes);
/* PERF_EVENT_IOC_PAUSE_OUTPUT on (true) or off a ring. */
void rec_ring_pause(struct rec_ring *ring, bool paused);

/*
 * rotate.c: --switch-output's argument (signal, SIZE with B/K/M/G, TIME
 * with s/m/h/d, as perf's switch_output_setup); 0, or -1 when it is none.
 */
int rec_switch_parse(struct rec_switch *sw, const char *arg);
/* perf's timestamp of a file name: YYYYMMDDhhmmss and centiseconds */
int rec_timestamp(char *buf, size_t len);

/* The files --switch-output made, for --switch-max-files. */
struct rec_rotation {
	char **names;			/* a ring of max names, or NULL */
	unsigned int max, next;
};
/* Remember name (taken); with max files kept, remove the oldest. */
void rec_rotation_add(struct rec_rotation *r, unsigned int max, char *name);
void rec_rotation_free(struct rec_rotation *r);

/*
 * The TIME_CONV record (56 bytes) from ring's control page, as perf
 * writes it first: 0, or -EOPNOTSUPP when the clock has no user-space
 * conversion (cap_user_time_zero is 0; perf writes none then).
 */
int rec_ring_time_conv(const struct rec_ring *ring, uint64_t rec[7]);

/* x86 register names for --user-regs/--intr-regs; 0 or -1 (unknown). */
int rec_parse_regs(const char *s, uint64_t *mask);
/* The branch filter of -j; 0 or -1 (unknown name). */
int rec_parse_branch_filter(const char *s, uint64_t *mask);

struct pd_meta;

/*
 * Put every DSO of meta's build-id list into the build-id cache
 * (sym_cache_dir()), as perf does after recording; problems are warned
 * about, never fatal.
 */
void rec_cache_fill(const struct pd_meta *meta, const struct rec_opts *o);

/*
 * Whether the kernel writes build-ids in MMAP2 records (attr.build_id),
 * probed as perf's perf_can_record_build_id() does.
 */
bool rec_can_record_build_id(void);

/*
 * --buildid-mmap: an emit function that passes synthesised records on to
 * next, rewriting kernel MMAPs and file MMAP2s into MMAP2s that carry the
 * build-id of their file, as perf's synthesis does with build-id mmaps.
 */
struct rec_bid_emit;
struct rec_bid_emit *rec_bid_emit_new(rec_write_fn next, void *next_ctx);
int rec_bid_emit(void *ctx, const void *rec, size_t size);
void rec_bid_emit_free(struct rec_bid_emit *e);

/*
 * keep-old.c: make room for the OUTPUT.old that an existing OUTPUT
 * becomes, as perf's check_backup() does: nothing there, a file
 * (removed), or a directory, removed only when it holds nothing but data
 * and data.* files; 0, or -1 with *why set ("Unknown file found").
 */
int rec_old_remove(const char *path, char *why, size_t len);

/*
 * --archive, --perf-archive: the archives of the finished file o->output
 * (record/archive.c, session/archive.h); 0, or -1 after a message.
 */
int rec_archive_run(const struct rec_opts *o);

#endif /* PD_RECORD_H */
