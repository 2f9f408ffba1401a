/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/header-check.c - the checks perf 6.1 makes while processing
 * the feature sections, where pdata's parsers accept more.
 *
 * A feature whose processing fails stops perf from processing the ones
 * after it (util/header.c, perf_header__process_sections), so these decide
 * which blocks --header-only prints with their values.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "pdata/reader.h"
#include "report/inspect/header-int.h"

/* perf 6.1's sizeof(struct bpf_prog_info); longer ones fail processing */
#define BPF_PROG_INFO_SIZE_61	232

/* the masks of perf 6.1's perf_attr_check() */
#define SAMPLE_MAX_61		(1ULL << 25)
#define FORMAT_MAX_61		(1ULL << 5)
#define BRANCH_MAX_61		(1ULL << 19)

/* perf_attr_check(): attrs perf 6.1 refuses make EVENT_DESC unreadable */
static bool
attr_ok_61(const struct pd_attr *attr)
{
	if ((attr->flags >> ATTR_FLAGS_61) || attr->reserved_2 ||
	    attr->aux_action)
		return false;
	if (attr->sample_type & ~(SAMPLE_MAX_61 - 1))
		return false;
	if (attr->read_format & ~(FORMAT_MAX_61 - 1))
		return false;
	if ((attr->sample_type & PD_SAMPLE_BRANCH_STACK) &&
	    (attr->branch_sample_type & ~(BRANCH_MAX_61 - 1)))
		return false;
	return true;
}

bool
rep_event_desc_ok_61(const struct pd_meta *m)
{
	size_t i;

	if (rep_bit_test(m->bad_features, PD_FEAT_EVENT_DESC))
		return false;
	for (i = 0; i < m->nr_event_desc; i++)
		if (!attr_ok_61(&m->event_desc[i].attr))
			return false;
	return true;
}

/* The other decisions perf 6.1 makes while processing features */

static bool
cpulist_ok_61(const char *s)
{
	struct rep_cpu_range *r;
	size_t nr;
	bool dummy, ok = rep_cpulist_parse(s ? s : "", &r, &nr, &dummy);

	free(r);
	return ok;
}

static bool
topology_sockets_ok_61(const struct pd_meta *m)
{
	size_t i;

	/* s390 and aarch64 number sockets beyond the CPU count */
	if (m->arch &&
	    (!strncmp(m->arch, "s390", 4) || !strncmp(m->arch, "aarch64", 7)))
		return true;
	for (i = 0; i < m->nr_topo_cpus; i++) {
		uint32_t s = m->topo_cpus[i].socket_id;

		if (s != UINT32_MAX && s > m->nr_cpus_avail)
			return false;
	}
	return true;
}

/*
 * process_group_desc() rebuilds the groups by walking the events in
 * order; it leaves what it set so far when it finds the table invalid.
 * desc_of[i] is the group event i was made the leader of, or -1.
 */
bool
rep_groups_walk_61(struct rep_hdr *h, const struct pd_meta *m, long *desc_of)
{
	size_t nr_ev = pd_reader_nr_evsels(h->r), idx;
	size_t i = 0;
	uint32_t nr = 0;

	for (idx = 0; idx < nr_ev; idx++)
		desc_of[idx] = -1;
	if (!m->nr_groups)
		return true;
	for (idx = 0; idx < nr_ev; idx++) {
		if (i < m->nr_groups && idx == m->groups[i].leader_idx) {
			desc_of[idx] = (long)i;
			if (nr > 0)
				return false;
			nr = m->groups[i].nr_members - 1;
			i++;
		} else if (nr) {
			nr--;
		}
	}
	return i == m->nr_groups && nr == 0;
}

static bool
groups_ok_61(struct rep_hdr *h, const struct pd_meta *m)
{
	size_t nr_ev = pd_reader_nr_evsels(h->r);
	long *desc_of = xcalloc(nr_ev ? nr_ev : 1, sizeof(*desc_of));
	bool ok = rep_groups_walk_61(h, m, desc_of);

	free(desc_of);
	return ok;
}

bool
rep_bpf_progs_ok_61(const struct pd_meta *m, size_t *nr_ok)
{
	size_t i;

	for (i = 0; i < m->nr_bpf_progs; i++)
		if (m->bpf_progs[i].info_len > BPF_PROG_INFO_SIZE_61)
			break;
	*nr_ok = i;
	return i == m->nr_bpf_progs;
}

/* Does perf 6.1's processing of this feature fail (and stop the rest)? */
bool
rep_feat_fails_61(struct rep_hdr *h, unsigned int feat)
{
	const struct pd_meta *m = h->m;
	size_t i, n;

	switch (feat) {
	case PD_FEAT_TRACING_DATA:
	case PD_FEAT_BUILD_ID:
	case PD_FEAT_EVENT_DESC:
	case PD_FEAT_BRANCH_STACK:
	case PD_FEAT_STAT:
		/* perf never reports a failure for these */
		return false;
	case PD_FEAT_DIR_FORMAT:
		return h->info->mode != PD_MODE_DIR ||
		       rep_bit_test(m->bad_features, feat);
	default:
		break;
	}
	if (rep_bit_test(m->bad_features, feat))
		return true;
	switch (feat) {
	case PD_FEAT_CPU_TOPOLOGY:
		return !topology_sockets_ok_61(m);
	case PD_FEAT_NUMA_TOPOLOGY:
		for (i = 0; i < m->nr_numa_nodes; i++)
			if (!cpulist_ok_61(m->numa_nodes[i].cpus))
				return true;
		return false;
	case PD_FEAT_GROUP_DESC:
		return !groups_ok_61(h, m);
	case PD_FEAT_BPF_PROG_INFO:
		return !h->info->swap && !rep_bpf_progs_ok_61(m, &n);
	default:
		return false;
	}
}
