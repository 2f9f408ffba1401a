/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * pdata/meta.h - what the feature sections of a perf.data file say.
 *
 * One field group per HEADER_* feature (perf-data-file-format.md §4, §5).
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
	uint16_t misc;		/* cpumode in bits 0..2, PD_MISC_BUILD_ID_SIZE */
	int32_t pid;		/* -1: host; else the guest machine's pid */
	uint8_t id[PD_BUILD_ID_SIZE];
	uint8_t size;		/* bytes of id that are valid (20 when misc lacks the size flag) */
	char *filename;
};

struct pd_event_desc {
	struct pd_attr attr;
	char *name;
	uint64_t *ids;
	size_t nr_ids;
};

struct pd_cpu_topo_cpu {
	uint32_t core_id;
	uint32_t socket_id;
	uint32_t die_id;	/* 0 unless has_die */
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
	uint64_t size;		/* bits in the bitmap */
	uint64_t *bitmap;	/* ALIGN(size, 64) / 64 words */
};

struct pd_bpf_prog_info {
	uint32_t info_len;
	uint32_t data_len;
	uint64_t arrays;
	const unsigned char *info;	/* points into meta-owned storage */
	const unsigned char *data;
};

struct pd_bpf_btf {
	uint32_t id;
	uint32_t data_size;
	const unsigned char *data;
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
	/* bit k set: feature k is in the file (after any parse failure it stays set) */
	uint64_t features[PD_FEAT_BITS / 64];
	/* bit k set: feature k was present but its payload could not be parsed */
	uint64_t bad_features[PD_FEAT_BITS / 64];
	struct pd_feat_section sections[PD_FEAT_BITS];	/* file mode only */

	/* TRACING_DATA: where the undecoded blob lies in the file (0, 0 if absent) */
	uint64_t tracing_data_offset;
	uint64_t tracing_data_size;

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
	struct pd_strlist cmdline; /* CMDLINE: argv with perf's path first; empty if absent */

	struct pd_event_desc *event_desc; /* EVENT_DESC, in attr order */
	size_t nr_event_desc;

	/* CPU_TOPOLOGY */
	struct pd_strlist package_cpus;	/* "sibling sockets" */
	struct pd_strlist die_cpus;	/* "sibling dies" (has_die) */
	struct pd_strlist thread_cpus;	/* "sibling threads" */
	struct pd_cpu_topo_cpu *topo_cpus; /* nr_cpus_avail entries, or NULL */
	size_t nr_topo_cpus;
	bool topo_has_die;

	struct pd_numa_node *numa_nodes;	/* NUMA_TOPOLOGY */
	size_t nr_numa_nodes;

	struct pd_pmu_mapping *pmu_mappings;	/* PMU_MAPPINGS */
	size_t nr_pmu_mappings;

	struct pd_group_desc *groups;		/* GROUP_DESC */
	size_t nr_groups;

	struct pd_auxtrace_entry *auxtrace;	/* AUXTRACE index */
	size_t nr_auxtrace;

	uint32_t cache_version;			/* CACHE */
	struct pd_cache_level *caches;
	size_t nr_caches;

	uint64_t first_sample_time;		/* SAMPLE_TIME (ns), or 0 */
	uint64_t last_sample_time;

	uint64_t mem_version;			/* MEM_TOPOLOGY */
	uint64_t mem_block_size;
	struct pd_mem_node *mem_nodes;
	size_t nr_mem_nodes;

	uint64_t clockid_res_ns;		/* CLOCKID, or 0 */
	uint64_t dir_format_version;		/* DIR_FORMAT, or 0 */

	struct pd_bpf_prog_info *bpf_progs;	/* BPF_PROG_INFO */
	size_t nr_bpf_progs;
	struct pd_bpf_btf *bpf_btfs;		/* BPF_BTF */
	size_t nr_bpf_btfs;

	/* COMPRESSED; comp_type PD_COMP_NONE when absent */
	uint32_t comp_version, comp_type, comp_level, comp_ratio, comp_mmap_len;

	struct pd_cap *cpu_pmu_caps;		/* CPU_PMU_CAPS */
	size_t nr_cpu_pmu_caps;

	/* CLOCK_DATA; all 0 when absent */
	uint32_t clock_data_version;
	uint32_t clock_data_clockid;
	uint64_t clock_tod_ns;
	uint64_t clock_clockid_ns;

	struct pd_hybrid_node *hybrid_nodes;	/* HYBRID_TOPOLOGY */
	size_t nr_hybrid_nodes;

	struct pd_pmu_caps *pmu_caps;		/* PMU_CAPS */
	size_t nr_pmu_caps;

	uint32_t schedstat_version;		/* CPU_DOMAIN_INFO */
	uint32_t max_sched_domains;
	struct pd_cpu_domains *cpu_domains;
	size_t nr_cpu_domains;

	/* feature ids seen that pdata does not know (e.g. simpleperf's 128+) */
	uint32_t unknown_features[PD_FEAT_BITS];
	size_t nr_unknown_features;

	/* owned blobs that the pointers above point into */
	void **blobs;
	size_t nr_blobs;
};

static inline bool
pd_meta_has(const struct pd_meta *m, unsigned int feat)
{
	return feat < PD_FEAT_BITS && ((m->features[feat / 64] >> (feat % 64)) & 1);
}

void pd_meta_init(struct pd_meta *m);
void pd_meta_free(struct pd_meta *m);

/* The name of a feature ("HOSTNAME"), or NULL for an unknown id. */
const char *pd_feature_name(unsigned int feat);

/*
 * Parse one feature payload (buf, len bytes, file byte order) into m and
 * mark it present.  Features that depend on earlier ones (CPU_TOPOLOGY on
 * NRCPUS) read them from m, so call this in increasing feature order.
 * Returns 0, or -PD_E_BAD_FEATURE / -PD_E_TRUNCATED / -PD_E_TOO_BIG /
 * -PD_E_NOMEM; on error the feature is marked bad and *why, if not NULL,
 * says what was wrong and at which offset inside the payload.
 */
int pd_feature_parse(struct pd_meta *m, unsigned int feat, const void *buf,
		     size_t len, bool swap, char *why, size_t why_len);

/*
 * Parse a sequence of build-id records, each with its 8-byte header (the
 * BUILD_ID feature's payload, or one whole HEADER_BUILD_ID record), and
 * append them to m->build_ids.
 */
int pd_build_ids_parse(struct pd_meta *m, const void *buf, size_t len,
		       bool swap, char *why, size_t why_len);

#endif /* PDATA_META_H */
