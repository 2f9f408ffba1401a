/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/header-topo.c - the topology feature sections: CPU_TOPOLOGY,
 * NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY and HYBRID_TOPOLOGY.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/strbuf.h"
#include "pdata/reader.h"
#include "pdata/text.h"
#include "report/inspect/header-int.h"

static void
print_siblings(struct rep_hdr *h, const struct pd_meta *m, bool dies)
{
	size_t i;

	for (i = 0; i < m->package_cpus.nr; i++)
		fprintf(h->out, "# sibling sockets : %s\n",
			m->package_cpus.s[i]);
	if (dies)
		for (i = 0; i < m->die_cpus.nr; i++)
			fprintf(h->out, "# sibling dies    : %s\n",
				m->die_cpus.s[i]);
	for (i = 0; i < m->thread_cpus.nr; i++)
		fprintf(h->out, "# sibling threads : %s\n",
			m->thread_cpus.s[i]);
}

void
rep_feat_cpu_topology_print(struct rep_hdr *h, const struct pd_meta *m,
			    bool failed)
{
	/* a failed socket check leaves the lists but frees the ids */
	bool ids = m->topo_has_ids && !failed;
	bool dies = m->topo_has_die && !failed && m->die_cpus.nr;
	int cpu_nr = (int)m->nr_cpus_avail;
	int c;

	print_siblings(h, m, dies);
	if (!ids && dies) {
		fputs("# Core ID, Die ID and Socket ID information is not available\n",
		      h->out);
		return;
	}
	if (!ids) {
		fputs("# Core ID and Socket ID information is not available\n",
		      h->out);
		return;
	}
	for (c = 0; c < cpu_nr && (size_t)c < m->nr_topo_cpus; c++) {
		const struct pd_cpu_topo_cpu *t = &m->topo_cpus[c];

		if (dies)
			fprintf(h->out,
				"# CPU %d: Core ID %d, Die ID %d, Socket ID %d\n",
				c, (int)t->core_id, (int)t->die_id,
				(int)t->socket_id);
		else
			fprintf(h->out, "# CPU %d: Core ID %d, Socket ID %d\n",
				c, (int)t->core_id, (int)t->socket_id);
	}
}

void
rep_feat_numa_topology_print(struct rep_hdr *h, const struct pd_meta *m,
			     bool failed)
{
	size_t i;

	if (failed)
		return;
	for (i = 0; i < m->nr_numa_nodes; i++) {
		const struct pd_numa_node *n = &m->numa_nodes[i];
		struct rep_cpu_range *r;
		size_t nr;
		bool dummy;

		fprintf(h->out,
			"# node%u meminfo  : total = %" PRIu64
			" kB, free = %" PRIu64 " kB\n",
			n->node, n->mem_total_kb, n->mem_free_kb);
		fprintf(h->out, "# node%u cpu list : ", n->node);
		if (rep_cpulist_parse(n->cpus, &r, &nr, &dummy))
			rep_cpulist_print(h->out, r, nr, dummy);
		else
			fputc('\n', h->out);
		free(r);
	}
}

void
rep_feat_cache_print(struct rep_hdr *h, const struct pd_meta *m, bool failed)
{
	size_t i;

	if (failed)
		m = &rep_no_meta;
	fputs("# CPU cache info:\n", h->out);
	for (i = 0; i < m->nr_caches; i++) {
		const struct pd_cache_level *c = &m->caches[i];

		fprintf(h->out, "#  L%d %-15s %8s [%s]\n", (int)c->level,
			c->type, c->size, c->map);
	}
}

static void
print_mem_node(struct rep_hdr *h, const struct pd_mem_node *n, uint64_t bsize)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t bit, weight = 0, start;
	char size[PD_UNIT_NUMBER_TEXT_MAX];

	for (bit = 0; bit < n->size; bit++) {
		if (!rep_bit_test(n->bitmap, bit))
			continue;
		weight++;
		start = bit;
		while (bit + 1 < n->size && rep_bit_test(n->bitmap, bit + 1)) {
			bit++;
			weight++;
		}
		sb_addf(&sb, "%s%" PRIu64, sb.len ? "," : "", start);
		if (bit > start)
			sb_addf(&sb, "-%" PRIu64, bit);
	}
	pd_unit_number_text(size, sizeof(size), bsize * weight);
	/* bitmap_scnprintf() into a 100-byte buffer */
	fprintf(h->out, "#  %3" PRIu64 " [%s]: %.99s\n", n->node, size,
		sb.len ? sb_str(&sb) : "");
	sb_free(&sb);
}

void
rep_feat_mem_topology_print(struct rep_hdr *h, const struct pd_meta *m,
			    bool failed)
{
	size_t i;

	if (failed)
		m = &rep_no_meta;
	fprintf(h->out, "# memory nodes (nr %d, block size 0x%llx):\n",
		(int)m->nr_mem_nodes, (unsigned long long)m->mem_block_size);
	for (i = 0; i < m->nr_mem_nodes; i++)
		print_mem_node(h, &m->mem_nodes[i], m->mem_block_size);
}

void
rep_feat_hybrid_topology_print(struct rep_hdr *h, const struct pd_meta *m,
			       bool failed)
{
	size_t i;

	if (failed)
		m = &rep_no_meta;
	fputs("# hybrid cpu system:\n", h->out);
	for (i = 0; i < m->nr_hybrid_nodes; i++)
		fprintf(h->out, "# %s cpu list : %s\n",
			m->hybrid_nodes[i].pmu_name, m->hybrid_nodes[i].cpus);
}
