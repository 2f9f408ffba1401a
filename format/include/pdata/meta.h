/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * pdata/meta.h - what the feature sections of a perf.data file say.
 *
 * One field group per HEADER_* feature (doc/perf-data-format.md §4, §5).
 * Every field documents its value when the feature is absent; use
 * pd_meta_has() to tell "absent" from "present and zero".  All strings
 * are NUL-terminated copies owned by the struct.
 */
#ifndef PDATA_META_H
#define PDATA_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pdata/abi.h"
#include "pdata/records.h"

struct pd_strlist {
	char **s;
	size_t nr;
};

struct pd_build_id {
	uint16_t misc;		/* cpumode (bits 0..2), PD_MISC_BUILD_ID_SIZE */
	int32_t pid;		/* -1: host; else the guest machine's pid */
	uint8_t id[PD_BUILD_ID_SIZE];
	uint8_t size;		/* valid bytes in id (20 without the flag) */
	char *filename;
};

struct pd_event_desc {
	struct pd_attr attr;	/* decoded from the feature's attr_size bytes */
	char *name;
	uint64_t *ids;		/* NULL when nr_ids is 0 */
	size_t nr_ids;
};

struct pd_cpu_topo_cpu {
	uint32_t core_id;
	uint32_t socket_id;
	uint32_t die_id;	/* 0 unless topo_has_die */
};

struct pd_numa_node {
	uint32_t node;
	uint64_t mem_total_kb;
	uint64_t mem_free_kb;
	char *cpus;		/* cpu list, e.g. "0-1" */
};

struct pd_pmu_mapping {
	uint32_t type;
	char *name;
};

struct pd_group_desc {
	char *name;		/* "{anon_group}" when perf had no name */
	uint32_t leader_idx;
	uint32_t nr_members;
};

struct pd_auxtrace_entry {
	uint64_t file_offset;
	uint64_t size;
};

struct pd_cache_level {
	uint32_t level, line_size, sets, ways;
	char *type;
	char *size;
	char *map;
};

struct pd_mem_node {
	uint64_t node;
	/*
	 * Bits in the bitmap: the bitmap's own count, which perf uses, not
	 * the size field before it (§5.16).
	 */
	uint64_t size;
	uint64_t *bitmap;	/* ALIGN(size, 64) / 64 words, or NULL */
};

/* The length of bpf_prog_info.name (BPF_OBJ_NAME_LEN). */
#define PD_BPF_OBJ_NAME_LEN	16

/*
 * One BPF_PROG_INFO entry: a struct bpf_prog_info whose array pointers
 * were turned into offsets into data[] (perf's bpf-utils layout), kept
 * in the file's byte order.  The fields below info are decoded from it;
 * each is 0 (name "") where info_len does not reach it.
 */
struct pd_bpf_prog_info {
	uint32_t info_len;
	uint32_t data_len;
	uint64_t arrays;	/* bit k: array k of PD_BPIL_* is in data */
	const unsigned char *info;	/* info_len bytes, meta-owned */
	const unsigned char *data;	/* data_len bytes, meta-owned */
	bool swap;		/* info and data are in the other byte order */

	uint32_t id;
	uint32_t btf_id;
	char name[PD_BPF_OBJ_NAME_LEN + 1];
	uint32_t nr_jited_ksyms;
	uint32_t nr_jited_func_lens;
	uint32_t nr_prog_tags;
	uint32_t nr_func_info;
	uint32_t func_info_rec_size;
};

/* Bits of pd_bpf_prog_info.arrays (perf's enum perf_bpil_array). */
enum {
	PD_BPIL_JITED_INSNS	= 0,
	PD_BPIL_XLATED_INSNS	= 1,
	PD_BPIL_MAP_IDS		= 2,
	PD_BPIL_JITED_KSYMS	= 3,
	PD_BPIL_JITED_FUNC_LENS	= 4,
	PD_BPIL_FUNC_INFO	= 5,
	PD_BPIL_LINE_INFO	= 6,
	PD_BPIL_JITED_LINE_INFO	= 7,
	PD_BPIL_PROG_TAGS	= 8,
};

struct pd_bpf_btf {
	uint32_t id;
	uint32_t data_size;
	const unsigned char *data;	/* raw BTF, in the order it states */
};

/* Sub-program i of a BPF program, from the arrays of its prog info. */
struct pd_bpf_subprog {
	uint64_t addr;		/* jited_ksyms[i] */
	uint32_t len;		/* jited_func_lens[i] */
	uint8_t tag[PD_BPF_TAG_SIZE];	/* prog_tags[i] */
	bool has_func;		/* func_info[i] exists */
	uint32_t func_type_id;	/* func_info[i].type_id: a BTF type */
};

struct pd_cap {
	char *name;
	char *value;
};

struct pd_pmu_caps {
	char *pmu_name;
	struct pd_cap *caps;
	size_t nr_caps;
};

struct pd_hybrid_node {
	char *pmu_name;
	char *cpus;
};

struct pd_sched_domain {
	uint32_t domain;
	char *dname;		/* NULL before schedstat version 17 */
	char *cpumask;
	char *cpulist;
};

struct pd_cpu_domains {
	uint32_t cpu;
	struct pd_sched_domain *domains;
	size_t nr_domains;
};

struct pd_feat_section {
	uint64_t offset;
	uint64_t size;
};

struct pd_meta {
	/* bit k set: feature k is in the file (even if it failed to parse) */
	uint64_t features[PD_FEAT_BITS / 64];
	/* bit k set: feature k is in the file but could not be parsed */
	uint64_t bad_features[PD_FEAT_BITS / 64];
	struct pd_feat_section sections[PD_FEAT_BITS];	/* file mode only */

	/*
	 * TRACING_DATA: where the undecoded blob lies in the file (0, 0 if
	 * absent).  pd_feature_parse() sets only the size; the reader, which
	 * knows the file offset, sets both.
	 */
	uint64_t tracing_data_offset;
	uint64_t tracing_data_size;
	/*
	 * A stream's blob, which cannot be read again at an offset: the
	 * reader keeps a copy (tracing_data_size bytes) once it has read
	 * past it; NULL otherwise.
	 */
	unsigned char *tracing_data_blob;

	/* BUILD_ID feature and HEADER_BUILD_ID records (NULL, 0 if none) */
	struct pd_build_id *build_ids;
	size_t nr_build_ids;

	char *hostname;		/* HOSTNAME, or NULL */
	char *os_release;	/* OSRELEASE, or NULL */
	char *version;		/* VERSION (perf version), or NULL */
	char *arch;		/* ARCH (uname -m), or NULL */
	uint32_t nr_cpus_avail;	/* NRCPUS, or 0 */
	uint32_t nr_cpus_online; /* NRCPUS, or 0 */
	char *cpu_desc;		/* CPUDESC, or NULL */
	char *cpuid;		/* CPUID, or NULL */
	uint64_t total_mem_kb;	/* TOTAL_MEM (kB), or 0 */
	/* CMDLINE: argv with perf's path first; empty if absent */
	struct pd_strlist cmdline;

	/* EVENT_DESC, in attr order; NULL, 0 if absent */
	struct pd_event_desc *event_desc;
	size_t nr_event_desc;

	/* CPU_TOPOLOGY; every list empty when absent */
	struct pd_strlist package_cpus;	/* "sibling sockets" */
	struct pd_strlist die_cpus;	/* "sibling dies" (topo_has_die) */
	struct pd_strlist thread_cpus;	/* "sibling threads" */
	/*
	 * The optional parts, detected as perf does (§5.8): the per-CPU core
	 * and socket ids (topo_has_ids; NRCPUS's nr_cpus_avail entries),
	 * then the die list and die ids (topo_has_die).
	 */
	struct pd_cpu_topo_cpu *topo_cpus; /* NULL if !topo_has_ids or no CPU */
	size_t nr_topo_cpus;
	bool topo_has_ids;
	bool topo_has_die;

	/*
	 * The arrays below are NULL, 0 when their feature is absent (or
	 * present with no entry), and so are the version fields.
	 */
	struct pd_numa_node *numa_nodes;	/* NUMA_TOPOLOGY */
	size_t nr_numa_nodes;

	struct pd_pmu_mapping *pmu_mappings;	/* PMU_MAPPINGS, file order */
	size_t nr_pmu_mappings;

	struct pd_group_desc *groups;		/* GROUP_DESC */
	size_t nr_groups;

	struct pd_auxtrace_entry *auxtrace;	/* AUXTRACE index */
	size_t nr_auxtrace;

	uint32_t cache_version;			/* CACHE (always 1) */
	struct pd_cache_level *caches;
	size_t nr_caches;

	uint64_t first_sample_time;		/* SAMPLE_TIME (ns), or 0 */
	uint64_t last_sample_time;		/* SAMPLE_TIME (ns), or 0 */

	uint64_t mem_version;			/* MEM_TOPOLOGY (always 1) */
	uint64_t mem_block_size;		/* bytes */
	struct pd_mem_node *mem_nodes;
	size_t nr_mem_nodes;

	uint64_t clockid_res_ns;		/* CLOCKID, or 0 */
	uint64_t dir_format_version;		/* DIR_FORMAT, or 0 */

	struct pd_bpf_prog_info *bpf_progs;	/* BPF_PROG_INFO, file order */
	size_t nr_bpf_progs;
	struct pd_bpf_btf *bpf_btfs;		/* BPF_BTF, file order */
	size_t nr_bpf_btfs;

	/* COMPRESSED; all 0 (comp_type PD_COMP_NONE) when absent */
	uint32_t comp_version, comp_type, comp_level, comp_ratio, comp_mmap_len;

	struct pd_cap *cpu_pmu_caps;		/* CPU_PMU_CAPS, file order */
	size_t nr_cpu_pmu_caps;

	/* CLOCK_DATA; all 0 when absent */
	uint32_t clock_data_version;		/* always 1 */
	uint32_t clock_data_clockid;
	uint64_t clock_tod_ns;
	uint64_t clock_clockid_ns;

	struct pd_hybrid_node *hybrid_nodes;	/* HYBRID_TOPOLOGY */
	size_t nr_hybrid_nodes;

	struct pd_pmu_caps *pmu_caps;		/* PMU_CAPS */
	size_t nr_pmu_caps;

	/*
	 * CPU_DOMAIN_INFO (newest perf; id 32 is the end marker in perf
	 * 6.0..6.18 pipe streams, which the reader must not pass here).
	 * One entry per CPU that has domains, file order.
	 */
	uint32_t schedstat_version;
	uint32_t max_sched_domains;
	struct pd_cpu_domains *cpu_domains;
	size_t nr_cpu_domains;

	/* feature ids seen that pdata does not know (e.g. simpleperf's 128+) */
	uint32_t unknown_features[PD_FEAT_BITS];
	size_t nr_unknown_features;

	/* owned copies of the payloads bpf_progs and bpf_btfs point into */
	void *bpf_prog_storage;
	void *bpf_btf_storage;
};

static inline bool
pd_meta_has(const struct pd_meta *m, unsigned int feat)
{
	return feat < PD_FEAT_BITS &&
	       ((m->features[feat / 64] >> (feat % 64)) & 1);
}

void pd_meta_init(struct pd_meta *m);
void pd_meta_free(struct pd_meta *m);

/*
 * Free what feature feat owns in m and mark it absent, as if it had never
 * been parsed or collected; an unknown feat is only unmarked.
 */
void pd_meta_clear_feature(struct pd_meta *m, unsigned int feat);

/* Free a string list's strings and array; it is left empty. */
void pd_strlist_free(struct pd_strlist *l);
/* Free nr capabilities (their names and values) and the array. */
void pd_caps_free(struct pd_cap *caps, size_t nr);

/* The name of a feature ("HOSTNAME"), or NULL for an unknown id. */
const char *pd_feature_name(unsigned int feat);

/*
 * Record in m->unknown_features that the file has feature feat, which
 * pdata does not know; an id already there is not added twice.  Marking
 * it present in m->features is the caller's part.
 */
void pd_meta_note_unknown_feature(struct pd_meta *m, unsigned int feat);

/*
 * Parse one feature payload (buf, len bytes, file byte order) into m and
 * mark it present; what an earlier call stored for the same feature is
 * replaced, except BUILD_ID, whose records are appended.  Features that
 * depend on earlier ones (CPU_TOPOLOGY and CPU_DOMAIN_INFO on NRCPUS)
 * read them from m, so call this in increasing feature order.  Trailing
 * bytes after the last field (pipe-mode padding) are ignored.  An id that
 * pdata does not know is recorded in unknown_features.
 *
 * Returns 0, or -PD_E_BAD_FEATURE / -PD_E_TRUNCATED / -PD_E_NOMEM /
 * -PD_E_INVAL (feat >= PD_FEAT_BITS).  On error the feature's fields are
 * left at their absent values, it is marked bad, and *why, if not NULL,
 * says what was wrong and where: "payload offset 12: ...".
 */
int pd_feature_parse(struct pd_meta *m, unsigned int feat, const void *buf,
		     size_t len, bool swap, char *why, size_t why_len);

/*
 * Parse a sequence of build-id records, each with its 8-byte header (the
 * BUILD_ID feature's payload, or one whole HEADER_BUILD_ID record), and
 * append them to m->build_ids.  Every record size of §5.2 is accepted,
 * and the pre-"pid" layout of the oldest perf is recognised as perf
 * recognises it.  On error nothing is appended.  Returns 0 or -PD_E_*,
 * with *why as for pd_feature_parse().
 */
int pd_build_ids_parse(struct pd_meta *m, const void *buf, size_t len,
		       bool swap, char *why, size_t why_len);

/*
 * Sub-program i (below p->nr_jited_ksyms) of a BPF_PROG_INFO entry.
 * Returns 0, or -PD_E_BAD_FEATURE when an array it needs is missing from
 * the entry or runs past its data.  Fields whose array is missing are 0.
 */
int pd_bpf_subprog_get(const struct pd_bpf_prog_info *p, uint32_t i,
		       struct pd_bpf_subprog *out);

/* The BTF blob with this id, or NULL. */
const struct pd_bpf_btf *pd_meta_find_btf(const struct pd_meta *m,
					  uint32_t id);

/*
 * The name of BTF type type_id ("" for type 0, void), pointing into
 * b->data; NULL when the blob is not valid BTF (either byte order) or has
 * no such type.  Types are looked up by walking the blob each time.
 */
const char *pd_btf_type_name(const struct pd_bpf_btf *b, uint32_t type_id);

#endif /* PDATA_META_H */
