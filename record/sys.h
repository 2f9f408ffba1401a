/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/sys.h - what precord learns from the running system: the
 * feature sections perf 6.1 writes by default, the records it
 * synthesises for tasks and kernel maps that exist before recording
 * starts, the tracing data for tracepoint events, and the build-ids
 * of the DSOs that have samples.
 */
#ifndef PD_RECORD_SYS_H
#define PD_RECORD_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pdata/meta.h"
#include "pdata/reader.h"
#include "pdata/records.h"

/* Receives one whole record, host byte order; returns 0 or -errno. */
typedef int (*rec_emit_fn)(void *ctx, const void *rec, size_t size);

/*
 * How synthesised records look: the attr of the first event gives the
 * sample_id trailer (sample_id_all), as perf does; id is that event's
 * first id.
 */
struct rec_synth_opts {
	const struct pd_attr *attr;
	uint64_t id;
	bool mmap_data;			/* -d: data (non-exec) mappings too */
	bool no_inherit;		/* --no-inherit: unused, as in perf */
	bool namespaces;		/* --namespaces: NAMESPACES records */
	unsigned int proc_map_timeout_ms; /* perf's default 500 */
};

/*
 * COMM, MMAP2 (and NAMESPACES) for every thread of process pid
 * (all_threads) or for the one thread tid, read from /proc, as perf's
 * synthesis for -p and -t writes them: per thread a COMM (and
 * NAMESPACES), then the MMAP2s of the process after its leader's COMM;
 * for a thread whose leader is not asked for, the leader's too.  perf
 * writes FORK records only in system-wide synthesis
 * (rec_synth_all_tasks), so o->no_inherit changes nothing here.
 */
int rec_synth_task(pid_t pid, pid_t tid, bool all_threads,
		   const struct rec_synth_opts *o, rec_emit_fn emit, void *ctx);

/* The same for every task on the system (-a). */
int rec_synth_all_tasks(const struct rec_synth_opts *o, rec_emit_fn emit,
			void *ctx);

/*
 * rec_synth_task()'s records for a thread map, as perf walks it: each
 * thread in turn, and a thread's leader when the map does not hold it
 * (so `-t A,B` with A B's leader synthesises A once).  A thread that has
 * exited by now is skipped.
 */
int rec_synth_threads(const pid_t *tids, size_t nr,
		      const struct rec_synth_opts *o, rec_emit_fn emit,
		      void *ctx);

/*
 * COMM (and NAMESPACES with o->namespaces) of one process, as perf
 * writes them for the workload it forked, after the other synthesised
 * records and before FINISHED_INIT, so that samples taken before its
 * exec have a name ("perf-exec" in perf; precord's child's name here).
 */
int rec_synth_comm(pid_t pid, const struct rec_synth_opts *o,
		   rec_emit_fn emit, void *ctx);

/*
 * The kernel map (MMAP of [kernel.kallsyms]_text, pid -1) and one MMAP
 * per module from /proc/modules, as perf writes them.
 */
int rec_synth_kernel(const struct rec_synth_opts *o, rec_emit_fn emit,
		     void *ctx);

/*
 * THREAD_MAP, CPU_MAP (user records 73 and 74) for the monitored threads
 * (nr_threads 0 means "any": a single -1 entry) and cpus.
 */
int rec_synth_thread_map(const pid_t *tids, size_t nr_threads,
			 rec_emit_fn emit, void *ctx);
int rec_synth_cpu_map(const int *cpus, size_t nr_cpus, rec_emit_fn emit,
		      void *ctx);

/*
 * CGROUP records (type 19) for every cgroup that exists now, as perf's
 * --all-cgroups synthesises them: a walk of the hierarchy perf_event
 * uses (the perf_event v1 mount, else cgroup2), depth first in directory
 * order, the root first with path "/"; id is the directory's file handle
 * (the cgroup id).  Returns 0 or -errno; records emitted before an error
 * stay emitted.
 */
int rec_synth_cgroups(const struct rec_synth_opts *o, rec_emit_fn emit,
		      void *ctx);

/*
 * The size of the sample_id trailer of a kernel record for this attr
 * (0 without sample_id_all): 8 bytes per TID, TIME, ID, STREAM_ID, CPU,
 * IDENTIFIER bit, perf's id_hdr_size.  Synthesised records carry that
 * many zero bytes, as perf writes them.
 */
size_t rec_synth_id_hdr_size(const struct pd_attr *attr);

/*
 * Fill meta with the system facts of perf 6.1's default feature set:
 * HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM,
 * CMDLINE (argv), CPU_TOPOLOGY, NUMA_TOPOLOGY, PMU_MAPPINGS, CACHE,
 * MEM_TOPOLOGY, CLOCKID, CLOCK_DATA, CPU_PMU_CAPS, PMU_CAPS,
 * HYBRID_TOPOLOGY where hybrid, BPF_PROG_INFO and BPF_BTF (empty), and
 * sets their bits.  CMDLINE is precord's executable path followed by
 * argv[1..argc-1] (perf writes its path, then its arguments after
 * "perf"); VERSION is "precord " PACKAGE_VERSION, which perf report
 * prints as "# perf version : precord 0.1.0".  CLOCKID and CLOCK_DATA
 * only with use_clockid, as perf writes them with -k.  EVENT_DESC,
 * GROUP_DESC, BRANCH_STACK, SAMPLE_TIME and BUILD_ID are the caller's.
 * Returns 0 or -errno; a fact that cannot be read leaves its feature
 * out, as perf does.
 */
int rec_sys_collect(struct pd_meta *meta, int argc, char *const argv[],
		    int clockid, bool use_clockid);

/*
 * The TRACING_DATA blob perf writes when tracepoint events are recorded
 * (doc/perf-data-format.md §5.1), for the given "sys:name" events;
 * *buf is malloc'd.  Returns 0 or -errno.
 */
int rec_tracing_data(const char *const *tracepoints, size_t nr,
		     void **buf, size_t *len);

/*
 * Replay the recorded data (an open reader on the finished data section)
 * through the session library and add to meta one BUILD_ID entry per
 * DSO that has samples (user DSOs, the kernel, modules), with perf's
 * misc bits and pid -1 for the kernel, as perf's build-id collection
 * does.  Sets the BUILD_ID bit when at least one was found.  Also sets
 * SAMPLE_TIME from the first and last sample times.  Returns 0 or the
 * -PD_E_* that stopped the replay (meta untouched then).
 */
int rec_buildids_collect(struct pd_reader *r, struct pd_meta *meta);

#endif /* PD_RECORD_SYS_H */
