/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/meta.c - the lifetime of struct pd_meta and the feature names.
 *
 * The names are those perf prints in "missing features" and in "... info
 * available, use -I to display" (perf-data-file-format.md §4.3).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/feat-int.h"
#include "pdata/meta.h"

static const char *const feature_names[PD_FEAT_KNOWN] = {
	[PD_FEAT_TRACING_DATA]		= "TRACING_DATA",
	[PD_FEAT_BUILD_ID]		= "BUILD_ID",
	[PD_FEAT_HOSTNAME]		= "HOSTNAME",
	[PD_FEAT_OSRELEASE]		= "OSRELEASE",
	[PD_FEAT_VERSION]		= "VERSION",
	[PD_FEAT_ARCH]			= "ARCH",
	[PD_FEAT_NRCPUS]		= "NRCPUS",
	[PD_FEAT_CPUDESC]		= "CPUDESC",
	[PD_FEAT_CPUID]			= "CPUID",
	[PD_FEAT_TOTAL_MEM]		= "TOTAL_MEM",
	[PD_FEAT_CMDLINE]		= "CMDLINE",
	[PD_FEAT_EVENT_DESC]		= "EVENT_DESC",
	[PD_FEAT_CPU_TOPOLOGY]		= "CPU_TOPOLOGY",
	[PD_FEAT_NUMA_TOPOLOGY]		= "NUMA_TOPOLOGY",
	[PD_FEAT_BRANCH_STACK]		= "BRANCH_STACK",
	[PD_FEAT_PMU_MAPPINGS]		= "PMU_MAPPINGS",
	[PD_FEAT_GROUP_DESC]		= "GROUP_DESC",
	[PD_FEAT_AUXTRACE]		= "AUXTRACE",
	[PD_FEAT_STAT]			= "STAT",
	[PD_FEAT_CACHE]			= "CACHE",
	[PD_FEAT_SAMPLE_TIME]		= "SAMPLE_TIME",
	[PD_FEAT_MEM_TOPOLOGY]		= "MEM_TOPOLOGY",
	[PD_FEAT_CLOCKID]		= "CLOCKID",
	[PD_FEAT_DIR_FORMAT]		= "DIR_FORMAT",
	[PD_FEAT_BPF_PROG_INFO]		= "BPF_PROG_INFO",
	[PD_FEAT_BPF_BTF]		= "BPF_BTF",
	[PD_FEAT_COMPRESSED]		= "COMPRESSED",
	[PD_FEAT_CPU_PMU_CAPS]		= "CPU_PMU_CAPS",
	[PD_FEAT_CLOCK_DATA]		= "CLOCK_DATA",
	[PD_FEAT_HYBRID_TOPOLOGY]	= "HYBRID_TOPOLOGY",
	[PD_FEAT_PMU_CAPS]		= "PMU_CAPS",
	[PD_FEAT_CPU_DOMAIN_INFO]	= "CPU_DOMAIN_INFO",
};

const char *
pd_feature_name(unsigned int feat)
{
	return feat < PD_FEAT_KNOWN ? feature_names[feat] : NULL;
}

void
pd_meta_init(struct pd_meta *m)
{
	memset(m, 0, sizeof(*m));
}

void
feat_strlist_free(struct pd_strlist *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->s[i]);
	free(l->s);
	l->s = NULL;
	l->nr = 0;
}

static void
caps_free(struct pd_cap *caps, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(caps[i].name);
		free(caps[i].value);
	}
	free(caps);
}

static void
clear_event_desc(struct pd_meta *m)
{
	size_t i;

	for (i = 0; i < m->nr_event_desc; i++) {
		free(m->event_desc[i].name);
		free(m->event_desc[i].ids);
	}
	free(m->event_desc);
	m->event_desc = NULL;
	m->nr_event_desc = 0;
}

static void
clear_cpu_topology(struct pd_meta *m)
{
	feat_strlist_free(&m->package_cpus);
	feat_strlist_free(&m->die_cpus);
	feat_strlist_free(&m->thread_cpus);
	free(m->topo_cpus);
	m->topo_cpus = NULL;
	m->nr_topo_cpus = 0;
	m->topo_has_ids = false;
	m->topo_has_die = false;
}

static void
clear_numa(struct pd_meta *m)
{
	size_t i;

	for (i = 0; i < m->nr_numa_nodes; i++)
		free(m->numa_nodes[i].cpus);
	free(m->numa_nodes);
	m->numa_nodes = NULL;
	m->nr_numa_nodes = 0;
}

static void
clear_pmu_mappings(struct pd_meta *m)
{
	size_t i;

	for (i = 0; i < m->nr_pmu_mappings; i++)
		free(m->pmu_mappings[i].name);
	free(m->pmu_mappings);
	m->pmu_mappings = NULL;
	m->nr_pmu_mappings = 0;
}

static void
clear_groups(struct pd_meta *m)
{
	size_t i;

	for (i = 0; i < m->nr_groups; i++)
		free(m->groups[i].name);
	free(m->groups);
	m->groups = NULL;
	m->nr_groups = 0;
}

static void
clear_cache(struct pd_meta *m)
{
	size_t i;

	for (i = 0; i < m->nr_caches; i++) {
		free(m->caches[i].type);
		free(m->caches[i].size);
		free(m->caches[i].map);
	}
	free(m->caches);
	m->caches = NULL;
	m->nr_caches = 0;
	m->cache_version = 0;
}

static void
clear_mem_topology(struct pd_meta *m)
{
	size_t i;

	for (i = 0; i < m->nr_mem_nodes; i++)
		free(m->mem_nodes[i].bitmap);
	free(m->mem_nodes);
	m->mem_nodes = NULL;
	m->nr_mem_nodes = 0;
	m->mem_version = 0;
	m->mem_block_size = 0;
}

static void
clear_hybrid(struct pd_meta *m)
{
	size_t i;

	for (i = 0; i < m->nr_hybrid_nodes; i++) {
		free(m->hybrid_nodes[i].pmu_name);
		free(m->hybrid_nodes[i].cpus);
	}
	free(m->hybrid_nodes);
	m->hybrid_nodes = NULL;
	m->nr_hybrid_nodes = 0;
}

static void
clear_pmu_caps(struct pd_meta *m)
{
	size_t i;

	for (i = 0; i < m->nr_pmu_caps; i++) {
		free(m->pmu_caps[i].pmu_name);
		caps_free(m->pmu_caps[i].caps, m->pmu_caps[i].nr_caps);
	}
	free(m->pmu_caps);
	m->pmu_caps = NULL;
	m->nr_pmu_caps = 0;
}

static void
clear_cpu_domains(struct pd_meta *m)
{
	size_t i, j;

	for (i = 0; i < m->nr_cpu_domains; i++) {
		struct pd_cpu_domains *cd = &m->cpu_domains[i];

		for (j = 0; j < cd->nr_domains; j++) {
			free(cd->domains[j].dname);
			free(cd->domains[j].cpumask);
			free(cd->domains[j].cpulist);
		}
		free(cd->domains);
	}
	free(m->cpu_domains);
	m->cpu_domains = NULL;
	m->nr_cpu_domains = 0;
	m->schedstat_version = 0;
	m->max_sched_domains = 0;
}

static void
free_str(char **s)
{
	free(*s);
	*s = NULL;
}

void
pd_meta_clear_feature(struct pd_meta *m, unsigned int feat)
{
	switch (feat) {
	case PD_FEAT_TRACING_DATA:
		m->tracing_data_offset = 0;
		m->tracing_data_size = 0;
		break;
	case PD_FEAT_HOSTNAME:
		free_str(&m->hostname);
		break;
	case PD_FEAT_OSRELEASE:
		free_str(&m->os_release);
		break;
	case PD_FEAT_VERSION:
		free_str(&m->version);
		break;
	case PD_FEAT_ARCH:
		free_str(&m->arch);
		break;
	case PD_FEAT_NRCPUS:
		m->nr_cpus_avail = 0;
		m->nr_cpus_online = 0;
		break;
	case PD_FEAT_CPUDESC:
		free_str(&m->cpu_desc);
		break;
	case PD_FEAT_CPUID:
		free_str(&m->cpuid);
		break;
	case PD_FEAT_TOTAL_MEM:
		m->total_mem_kb = 0;
		break;
	case PD_FEAT_CMDLINE:
		feat_strlist_free(&m->cmdline);
		break;
	case PD_FEAT_EVENT_DESC:
		clear_event_desc(m);
		break;
	case PD_FEAT_CPU_TOPOLOGY:
		clear_cpu_topology(m);
		break;
	case PD_FEAT_NUMA_TOPOLOGY:
		clear_numa(m);
		break;
	case PD_FEAT_PMU_MAPPINGS:
		clear_pmu_mappings(m);
		break;
	case PD_FEAT_GROUP_DESC:
		clear_groups(m);
		break;
	case PD_FEAT_AUXTRACE:
		free(m->auxtrace);
		m->auxtrace = NULL;
		m->nr_auxtrace = 0;
		break;
	case PD_FEAT_CACHE:
		clear_cache(m);
		break;
	case PD_FEAT_SAMPLE_TIME:
		m->first_sample_time = 0;
		m->last_sample_time = 0;
		break;
	case PD_FEAT_MEM_TOPOLOGY:
		clear_mem_topology(m);
		break;
	case PD_FEAT_CLOCKID:
		m->clockid_res_ns = 0;
		break;
	case PD_FEAT_DIR_FORMAT:
		m->dir_format_version = 0;
		break;
	case PD_FEAT_BPF_PROG_INFO:
		free(m->bpf_progs);
		free(m->bpf_prog_storage);
		m->bpf_progs = NULL;
		m->bpf_prog_storage = NULL;
		m->nr_bpf_progs = 0;
		break;
	case PD_FEAT_BPF_BTF:
		free(m->bpf_btfs);
		free(m->bpf_btf_storage);
		m->bpf_btfs = NULL;
		m->bpf_btf_storage = NULL;
		m->nr_bpf_btfs = 0;
		break;
	case PD_FEAT_COMPRESSED:
		m->comp_version = 0;
		m->comp_type = PD_COMP_NONE;
		m->comp_level = 0;
		m->comp_ratio = 0;
		m->comp_mmap_len = 0;
		break;
	case PD_FEAT_CPU_PMU_CAPS:
		caps_free(m->cpu_pmu_caps, m->nr_cpu_pmu_caps);
		m->cpu_pmu_caps = NULL;
		m->nr_cpu_pmu_caps = 0;
		break;
	case PD_FEAT_CLOCK_DATA:
		m->clock_data_version = 0;
		m->clock_data_clockid = 0;
		m->clock_tod_ns = 0;
		m->clock_clockid_ns = 0;
		break;
	case PD_FEAT_HYBRID_TOPOLOGY:
		clear_hybrid(m);
		break;
	case PD_FEAT_PMU_CAPS:
		clear_pmu_caps(m);
		break;
	case PD_FEAT_CPU_DOMAIN_INFO:
		clear_cpu_domains(m);
		break;
	default:
		/* BUILD_ID accumulates; flags and unknown ids hold nothing */
		break;
	}
}

void
pd_meta_free(struct pd_meta *m)
{
	unsigned int feat;
	size_t i;

	for (feat = 0; feat < PD_FEAT_KNOWN; feat++)
		pd_meta_clear_feature(m, feat);
	for (i = 0; i < m->nr_build_ids; i++)
		free(m->build_ids[i].filename);
	free(m->build_ids);
	memset(m, 0, sizeof(*m));
}
