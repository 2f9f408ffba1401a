/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/header-int.h - what the parts of preport --header-only share:
 * the printing state, perf 6.1's limits, its checks, and one printer per
 * feature section.
 *
 * The printers are called by report/inspect/header.c through its table of
 * perf 6.1's feat_ops[].  Each gets the metadata to print, or
 * &rep_no_meta where perf did not process the feature, and failed where
 * perf's processing of it (or of one before it) failed.
 */
#ifndef PD_REPORT_INSPECT_HEADER_INT_H
#define PD_REPORT_INSPECT_HEADER_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pdata/reader.h"

/* perf 6.1's HEADER_LAST_FEATURE: features are 1..31, 32 ends a stream */
#define LAST_FEATURE_61		PD_FEAT_LAST_61

/* the attr flag bits perf 6.1 knows; those after sigtrap are reserved */
#define ATTR_FLAGS_61		38

struct rep_hdr {
	FILE *out;
	struct pd_reader *r;
	const struct pd_file_info *info;
	const struct pd_meta *m;
	bool show_info;
	bool pipe;
	/* perf 6.1 processed EVENT_DESC and named the events from it */
	bool desc_names;
	/* BPF_BTF was processed before BPF_PROG_INFO is printed */
	bool btf_ready;
	/* a stream's header ended: perf prints no more features */
	bool done;
};

/*
 * What a feature looks like when perf did not process it.  Printers may
 * compare a pointer with it.
 */
extern const struct pd_meta rep_no_meta;

static inline bool
rep_bit_test(const uint64_t *words, uint64_t bit)
{
	return (words[bit / 64] >> (bit % 64)) & 1;
}

/* header-attr.c: perf_event_attr__fprintf() of perf 6.1 */
void rep_attr_print(FILE *out, const struct pd_attr *attr);
/* the same as perf evlist -v prints it: " type: 1, size: 128, ..." */
void rep_attr_print_evlist(FILE *out, const struct pd_attr *attr);

/* header-cpulist.c: perf_cpu_map__new() and cpu_map__snprint() */
struct rep_cpu_range {
	unsigned long start, end;
};
bool rep_cpulist_parse(const char *s, struct rep_cpu_range **out, size_t *nr,
		       bool *dummy);
void rep_cpulist_print(FILE *out, const struct rep_cpu_range *r, size_t nr,
		       bool dummy);

/* header-check.c: what perf 6.1's processing of the features accepts */
bool rep_event_desc_ok_61(const struct pd_meta *m);
bool rep_groups_walk_61(struct rep_hdr *h, const struct pd_meta *m,
			long *desc_of);
bool rep_bpf_progs_ok_61(const struct pd_meta *m, size_t *nr_ok);
bool rep_feat_fails_61(struct rep_hdr *h, unsigned int feat);

/* The feature printers, in perf 6.1's feature order */
#define REP_FEAT_PRINTER(name_)						\
	void rep_feat_##name_##_print(struct rep_hdr *h,		\
				      const struct pd_meta *m, bool failed)

/* header-host.c: the machine and the command */
REP_FEAT_PRINTER(hostname);
REP_FEAT_PRINTER(osrelease);
REP_FEAT_PRINTER(version);
REP_FEAT_PRINTER(arch);
REP_FEAT_PRINTER(nrcpus);
REP_FEAT_PRINTER(cpudesc);
REP_FEAT_PRINTER(cpuid);
REP_FEAT_PRINTER(total_mem);
REP_FEAT_PRINTER(cmdline);

/* header-events.c: the events, their groups and the PMUs */
REP_FEAT_PRINTER(event_desc);
REP_FEAT_PRINTER(pmu_mappings);
REP_FEAT_PRINTER(group_desc);
REP_FEAT_PRINTER(cpu_pmu_caps);
REP_FEAT_PRINTER(pmu_caps);

/* header-topo.c: CPU, cache and memory topology */
REP_FEAT_PRINTER(cpu_topology);
REP_FEAT_PRINTER(numa_topology);
REP_FEAT_PRINTER(cache);
REP_FEAT_PRINTER(mem_topology);
REP_FEAT_PRINTER(hybrid_topology);

/* header-data.c: what the data holds, its clock, layout and compression */
REP_FEAT_PRINTER(branch_stack);
REP_FEAT_PRINTER(auxtrace);
REP_FEAT_PRINTER(stat);
REP_FEAT_PRINTER(sample_time);
REP_FEAT_PRINTER(clockid);
REP_FEAT_PRINTER(dir_format);
REP_FEAT_PRINTER(compressed);
REP_FEAT_PRINTER(clock_data);

/* header-bpf.c: BPF programs and their type information */
REP_FEAT_PRINTER(bpf_prog_info);
REP_FEAT_PRINTER(bpf_btf);

#undef REP_FEAT_PRINTER

#endif /* PD_REPORT_INSPECT_HEADER_INT_H */
