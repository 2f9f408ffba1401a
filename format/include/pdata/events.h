/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * pdata/events.h - decode every record type other than PERF_RECORD_SAMPLE.
 *
 * One struct per record type, all in union pd_event.  Scalars are copied
 * in host byte order.  Strings, arrays and payloads are views into the
 * record's bytes (pdata/sample.h explains views); a string view runs up
 * to the first NUL within its field and is never NUL-terminated itself.
 * Views borrow pd_record.data and die with it.
 *
 * Layouts: doc/perf-records.md §2 (kernel records 1..22) and
 * doc/perf-data-format.md §7 (user records 64..86); byte order: §14.6.
 */
#ifndef PDATA_EVENTS_H
#define PDATA_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pdata/abi.h"
#include "pdata/errors.h"
#include "pdata/records.h"
#include "pdata/sample.h"

/* A string inside a record: len bytes at s, no NUL among them. */
struct pd_str {
	const char *s;
	size_t len;
};

/* strnlen(), which ISO C lacks */
static inline size_t
pd_strnlen(const char *s, size_t max)
{
	const char *nul = memchr(s, 0, max);

	return nul ? (size_t)(nul - s) : max;
}

/*
 * Every struct below starts with these two members, so they can be read
 * through pd_event.base whatever the type.  sample_id is decoded for
 * kernel records when the attr has sample_id_all; otherwise each field
 * holds its absent value (pd_sample_id_init()).
 */
struct pd_ev_base {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
};

/* MMAP (1) */
struct pd_ev_mmap {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint32_t pid, tid;
	uint64_t start;
	uint64_t len;
	uint64_t pgoff;
	struct pd_str filename;
};

/*
 * MMAP2 (10); misc PD_MISC_MMAP_BUILD_ID picks the union's form
 * (doc/perf-records.md §2.10).
 */
struct pd_ev_mmap2 {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint32_t pid, tid;
	uint64_t start;
	uint64_t len;
	uint64_t pgoff;
	bool has_build_id;
	uint32_t maj, min;		/* 0 when has_build_id */
	uint64_t ino, ino_generation;	/* 0 when has_build_id */
	uint8_t build_id_size;		/* 0 unless has_build_id; at most 20 */
	uint8_t build_id[PD_BUILD_ID_SIZE];	/* build_id_size bytes valid */
	uint32_t prot, flags;
	struct pd_str filename;
};

/* LOST (2) */
struct pd_ev_lost {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t id;
	uint64_t lost;
};

/* COMM (3); misc PD_MISC_COMM_EXEC */
struct pd_ev_comm {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint32_t pid, tid;
	struct pd_str comm;
};

/* EXIT (4) and FORK (7) */
struct pd_ev_fork {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint32_t pid, ppid;
	uint32_t tid, ptid;
	uint64_t time;
};

/* THROTTLE (5) and UNTHROTTLE (6) */
struct pd_ev_throttle {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
};

/* READ (8): the values follow the attr's read_format. */
struct pd_ev_read {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint32_t pid, tid;
	struct pd_read values;
};

/* AUX (11) */
struct pd_ev_aux {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t aux_offset;
	uint64_t aux_size;
	uint64_t flags;			/* PD_AUX_FLAG_* */
};

/* ITRACE_START (12) */
struct pd_ev_itrace_start {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint32_t pid, tid;
};

/* LOST_SAMPLES (13); misc PD_MISC_LOST_SAMPLES_BPF */
struct pd_ev_lost_samples {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t lost;
};

/* SWITCH (14) and SWITCH_CPU_WIDE (15) */
struct pd_ev_switch {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	bool out;			/* misc PD_MISC_SWITCH_OUT */
	bool preempt;			/* misc PD_MISC_SWITCH_OUT_PREEMPT */
	/* next task when switching out, previous when in; (u32)-1 for SWITCH */
	uint32_t next_prev_pid, next_prev_tid;
};

/* NAMESPACES (16) */
struct pd_ev_namespaces {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint32_t pid, tid;
	uint64_t nr_namespaces;
	/* (dev, inode) of net, uts, ipc, pid, user, mnt, cgroup, in order */
	struct pd_u64_array link_info;	/* 2 * nr_namespaces values */
};

/* KSYMBOL (17) */
struct pd_ev_ksymbol {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type;		/* PD_KSYMBOL_TYPE_* */
	uint16_t flags;			/* PD_KSYMBOL_FLAGS_* */
	struct pd_str name;
};

/* BPF_EVENT (18) */
struct pd_ev_bpf_event {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint16_t type;			/* PD_BPF_EVENT_* */
	uint16_t flags;
	uint32_t id;
	uint8_t tag[PD_BPF_TAG_SIZE];
};

/* CGROUP (19) */
struct pd_ev_cgroup {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t id;
	struct pd_str path;
};

/* TEXT_POKE (20) */
struct pd_ev_text_poke {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t addr;
	uint16_t old_len, new_len;
	struct pd_bytes old_bytes;	/* old_len bytes */
	struct pd_bytes new_bytes;	/* new_len bytes */
};

/* AUX_OUTPUT_HW_ID (21) */
struct pd_ev_aux_output_hw_id {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t hw_id;
};

/* CALLCHAIN_DEFERRED (22), doc/perf-records.md §3.5.3 */
struct pd_ev_callchain_deferred {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t cookie;
	struct pd_u64_array ips;
};

/* HEADER_ATTR (64) */
struct pd_ev_header_attr {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	struct pd_attr attr;
	struct pd_u64_array ids;
};

/* HEADER_EVENT_TYPE (65), obsolete */
struct pd_ev_event_type {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t event_id;
	struct pd_str name;
};

/* HEADER_TRACING_DATA (66): the blob follows, see pd_record.payload. */
struct pd_ev_tracing_data {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint32_t size;			/* bytes of blob after the record */
};

/* HEADER_BUILD_ID (67), doc/perf-data-format.md §5.2 */
struct pd_ev_build_id {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	int32_t pid;			/* -1: host; else a guest's pid */
	uint8_t build_id[PD_BUILD_ID_SIZE];
	/* valid bytes: the size byte with PD_MISC_BUILD_ID_SIZE, else 20 */
	uint8_t size;
	struct pd_str filename;
};

/* ID_INDEX (69) */
struct pd_id_index_entry {
	uint64_t id;
	uint64_t idx;			/* mmap (ring buffer) index */
	uint64_t cpu;
	uint64_t tid;
	uint64_t machine_pid;		/* 0 unless has_vm */
	uint64_t vcpu;			/* (u64)-1 unless has_vm */
};

struct pd_ev_id_index {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	size_t nr;
	bool has_vm;			/* the machine_pid/vcpu part is there */
	/* use pd_id_index_get() */
	const unsigned char *entries;	/* nr * 32 bytes */
	const unsigned char *entries2;	/* nr * 16 bytes, or NULL */
	bool swap;
};

static inline int
pd_id_index_get(const struct pd_ev_id_index *ev, size_t i,
		struct pd_id_index_entry *out)
{
	struct pd_u64_array a = { .nr = 4, .swap = ev->swap };

	if (i >= ev->nr)
		return -PD_E_INVAL;
	a.p = ev->entries + 32 * i;
	out->id = pd_u64_array_get(&a, 0);
	out->idx = pd_u64_array_get(&a, 1);
	out->cpu = pd_u64_array_get(&a, 2);
	out->tid = pd_u64_array_get(&a, 3);
	out->machine_pid = 0;
	out->vcpu = (uint64_t)-1;
	if (ev->entries2) {
		a.p = ev->entries2 + 16 * i;
		out->machine_pid = pd_u64_array_get(&a, 0);
		out->vcpu = pd_u64_array_get(&a, 1);
	}
	return 0;
}

/* AUXTRACE_INFO (70) */
struct pd_ev_auxtrace_info {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint32_t type;			/* the AUX area PMU family */
	uint32_t reserved;
	struct pd_u64_array priv;
};

/* AUXTRACE (71): size bytes of AUX data follow, see pd_record.payload. */
struct pd_ev_auxtrace {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t size;
	uint64_t offset;
	uint64_t reference;
	uint32_t idx, tid, cpu, reserved;
};

/* AUXTRACE_ERROR (72), doc/perf-data-format.md §7.8 */
struct pd_ev_auxtrace_error {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint32_t type, code, cpu, pid, tid;
	uint32_t fmt;			/* 0 in old files */
	uint64_t ip;
	uint64_t time;			/* 0 when fmt is 0 */
	struct pd_str msg;
	uint32_t machine_pid, vcpu;	/* 0 when fmt < 2 */
};

/* THREAD_MAP (73) */
struct pd_thread_map_entry {
	uint64_t pid;
	struct pd_str comm;
};

struct pd_ev_thread_map {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	size_t nr;
	/* use pd_thread_map_get() */
	const unsigned char *entries;	/* nr * 24 bytes */
	bool swap;
};

static inline int
pd_thread_map_get(const struct pd_ev_thread_map *ev, size_t i,
		  struct pd_thread_map_entry *out)
{
	struct pd_u64_array a = { .nr = 1, .swap = ev->swap };
	const char *comm;

	if (i >= ev->nr)
		return -PD_E_INVAL;
	a.p = ev->entries + 24 * i;
	comm = (const char *)a.p + 8;
	out->pid = pd_u64_array_get(&a, 0);
	out->comm.s = comm;
	out->comm.len = pd_strnlen(comm, PD_THREAD_MAP_COMM_LEN);
	return 0;
}

/*
 * A cpu map in any of its three encodings (doc/perf-data-format.md
 * §7.5), as CPU_MAP and EVENT_UPDATE CPUS carry it.
 */
struct pd_cpu_map {
	uint16_t type;			/* PD_CPU_MAP_* */
	size_t nr;			/* entries (CPUS), words (MASK) */
	uint16_t long_size;		/* MASK: bytes per word, 4 or 8 */
	bool any_cpu;			/* RANGE: -1 is in the map */
	uint16_t start_cpu, end_cpu;	/* RANGE */
	/* use pd_cpu_map_next() */
	const unsigned char *data;	/* CPUS: u16[nr]; MASK: the words */
	bool swap;
};

/*
 * Enumerate the CPUs of m in perf's order, "any CPU" as -1.  Start with
 * *pos = 0; returns 1 and sets *cpu, then 0 at the end.
 */
int pd_cpu_map_next(const struct pd_cpu_map *m, size_t *pos, int *cpu);

/* CPU_MAP (74) */
struct pd_ev_cpu_map {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	struct pd_cpu_map map;
};

/* STAT_CONFIG (75) */
struct pd_ev_stat_config {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t nr;
	struct pd_u64_array entries;	/* tag, value pairs: 2 * nr values */
};

/* STAT (76) */
struct pd_ev_stat {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t id;
	uint32_t cpu, thread;
	uint64_t val, ena, run;
};

/* STAT_ROUND (77) */
struct pd_ev_stat_round {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t type;			/* 0 interval, 1 final */
	uint64_t time;
};

/* EVENT_UPDATE (78), doc/perf-data-format.md §7.6 */
struct pd_ev_event_update {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t type;			/* PD_EVENT_UPDATE_* */
	uint64_t id;
	struct pd_str str;		/* UNIT and NAME */
	double scale;			/* SCALE; 0 otherwise */
	struct pd_cpu_map cpus;		/* CPUS */
	struct pd_bytes payload;	/* everything after id, for any type */
};

/* TIME_CONV (79): 32-byte old form, or 56 bytes with has_cycles. */
struct pd_ev_time_conv {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t time_shift;
	uint64_t time_mult;
	uint64_t time_zero;
	bool has_cycles;		/* the fields below are there */
	uint64_t time_cycles;
	uint64_t time_mask;
	uint8_t cap_user_time_zero;
	uint8_t cap_user_time_short;
};

/* HEADER_FEATURE (80): the file-mode section payload of feature feat_id. */
struct pd_ev_feature {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t feat_id;		/* PD_FEAT_* */
	struct pd_bytes payload;	/* may carry trailing zero padding */
};

/* COMPRESSED (81) and COMPRESSED2 (83) */
struct pd_ev_compressed {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t data_size;		/* COMPRESSED: size - 8 */
	struct pd_bytes data;		/* data_size bytes of zstd stream */
};

/* BPF_METADATA (84) */
struct pd_bpf_metadata_entry {
	struct pd_str key;
	struct pd_str value;
};

struct pd_ev_bpf_metadata {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	struct pd_str prog_name;
	size_t nr_entries;
	/* use pd_bpf_metadata_get() */
	const unsigned char *entries;
};

static inline int
pd_bpf_metadata_get(const struct pd_ev_bpf_metadata *ev, size_t i,
		    struct pd_bpf_metadata_entry *out)
{
	const char *p;

	if (i >= ev->nr_entries)
		return -PD_E_INVAL;
	p = (const char *)ev->entries +
	    (PD_BPF_METADATA_KEY_LEN + PD_BPF_METADATA_VALUE_LEN) * i;
	out->key.s = p;
	out->key.len = pd_strnlen(p, PD_BPF_METADATA_KEY_LEN);
	p += PD_BPF_METADATA_KEY_LEN;
	out->value.s = p;
	out->value.len = pd_strnlen(p, PD_BPF_METADATA_VALUE_LEN);
	return 0;
}

/* SCHEDSTAT_CPU (85) and SCHEDSTAT_DOMAIN (86) */
struct pd_ev_schedstat {
	struct pd_event_header header;
	struct pd_sample_id sample_id;
	uint64_t timestamp;
	uint32_t cpu;
	uint16_t version;		/* picks the counters' layout */
	uint16_t domain;		/* SCHEDSTAT_DOMAIN only; else 0 */
	struct pd_bytes counters;	/* version-specific, file byte order */
};

/*
 * FINISHED_ROUND (68) and FINISHED_INIT (82) carry nothing: use base.
 */
union pd_event {
	struct pd_event_header header;
	struct pd_ev_base base;
	struct pd_ev_mmap mmap;
	struct pd_ev_mmap2 mmap2;
	struct pd_ev_lost lost;
	struct pd_ev_comm comm;
	struct pd_ev_fork fork;		/* FORK and EXIT */
	struct pd_ev_throttle throttle;	/* THROTTLE and UNTHROTTLE */
	struct pd_ev_read read;
	struct pd_ev_aux aux;
	struct pd_ev_itrace_start itrace_start;
	struct pd_ev_lost_samples lost_samples;
	struct pd_ev_switch context_switch; /* SWITCH and SWITCH_CPU_WIDE */
	struct pd_ev_namespaces namespaces;
	struct pd_ev_ksymbol ksymbol;
	struct pd_ev_bpf_event bpf;
	struct pd_ev_cgroup cgroup;
	struct pd_ev_text_poke text_poke;
	struct pd_ev_aux_output_hw_id aux_output_hw_id;
	struct pd_ev_callchain_deferred callchain_deferred;
	struct pd_ev_header_attr attr;
	struct pd_ev_event_type event_type;
	struct pd_ev_tracing_data tracing_data;
	struct pd_ev_build_id build_id;
	struct pd_ev_id_index id_index;
	struct pd_ev_auxtrace_info auxtrace_info;
	struct pd_ev_auxtrace auxtrace;
	struct pd_ev_auxtrace_error auxtrace_error;
	struct pd_ev_thread_map thread_map;
	struct pd_ev_cpu_map cpu_map;
	struct pd_ev_stat_config stat_config;
	struct pd_ev_stat stat;
	struct pd_ev_stat_round stat_round;
	struct pd_ev_event_update event_update;
	struct pd_ev_time_conv time_conv;
	struct pd_ev_feature feature;
	struct pd_ev_compressed compressed;	/* COMPRESSED and COMPRESSED2 */
	struct pd_ev_bpf_metadata bpf_metadata;
	struct pd_ev_schedstat schedstat;	/* SCHEDSTAT_CPU and _DOMAIN */
};

/*
 * Decode any record but a SAMPLE (use pd_sample_decode() for those).
 *
 * attr is the record's event, or NULL when unknown: then no sample_id is
 * decoded, and READ, which needs attr.read_format, fails.  With an attr
 * that has sample_id_all, a kernel record's payload ends where its
 * trailer begins.
 *
 * Returns 0; -PD_E_UNSUPPORTED for a type we do not know (kernel types
 * above CALLCHAIN_DEFERRED, user types above SCHEDSTAT_DOMAIN, simpleperf
 * records) or an encoding we do not know inside a known one (a cpu map
 * type); -PD_E_BAD_RECORD when a field, a count or a size does not fit in
 * rec->size bytes (nothing beyond them is ever read); -PD_E_BAD_ATTR for
 * a HEADER_ATTR whose attr is malformed; -PD_E_BAD_SIZE when rec->size is
 * below the header; -PD_E_INVAL for a SAMPLE, or READ without attr.
 * On error *out is unspecified; pd_event_explain() says what failed.
 */
int pd_event_decode(const struct pd_attr *attr, const struct pd_record *rec,
		    union pd_event *out);

/*
 * Why pd_event_decode() fails on rec, as pd_sample_explain() tells it for
 * samples: the field, its byte offset in the record and the cause, e.g.
 * "thread map: 1000 entries need 24000 bytes at byte 16 of the record,
 * but 8 are left".  snprintf(3) rules; returns the text's whole length,
 * 0 (why "") when the record decodes.  Call it on the error path only.
 */
size_t pd_event_explain(const struct pd_attr *attr, const struct pd_record *rec,
			char *why, size_t len);

#endif /* PDATA_EVENTS_H */
