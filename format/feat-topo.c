/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/feat-topo.c - the machine-shape features: CPU_TOPOLOGY,
 * NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY, HYBRID_TOPOLOGY, CPU_DOMAIN_INFO
 * (doc/perf-data-format.md §5.8, §5.9, §5.14, §5.16, §5.20, §5.21).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/cursor.h"
#include "format/feat-int.h"
#include "pdata/errors.h"
#include "pdata/meta.h"

/*
 * The bytes perf 6.1 believes a string list took: it does not count what
 * it read but recomputes each string as padded to 64 (§4.2, §5.8).
 */
static uint64_t
perf_strlist_size(const struct pd_strlist *l)
{
	uint64_t size = 4;
	size_t i;

	for (i = 0; i < l->nr; i++)
		size += (strlen(l->s[i]) + 1 + 63) / 64 * 64 + 4;
	return size;
}

/*
 * The optional parts follow the two lists when perf's own size estimate
 * leaves bytes over, so a writer that pads strings differently makes them
 * invisible to perf; we follow perf on purpose (§5.8).
 */
int
pd_feat_parse_cpu_topology(struct feat_ctx *x)
{
	struct pd_meta *m = x->m;
	uint64_t len = (uint64_t)(x->c.end - x->c.start), perf_size;
	uint32_t nr = m->nr_cpus_avail, i;
	size_t at;
	int err;

	err = pd_feat_strlist(x, "the sibling sockets list", &m->package_cpus);
	if (!err)
		err = pd_feat_strlist(x, "the sibling threads list",
				   &m->thread_cpus);
	if (err)
		return err;
	perf_size = perf_strlist_size(&m->package_cpus) +
		    perf_strlist_size(&m->thread_cpus);
	if (len <= perf_size)
		return 0;

	at = cur_pos(&x->c);
	if (nr > cur_left(&x->c) / 8)
		return pd_feat_fail(x, -PD_E_BAD_FEATURE, at,
				 "core and socket ids of %u CPUs (NRCPUS) need %llu bytes, but only %zu are left",
				 nr, 8ULL * nr, cur_left(&x->c));
	m->topo_cpus = pd_feat_calloc(x, nr, sizeof(*m->topo_cpus));
	if (!m->topo_cpus && nr)
		return -PD_E_NOMEM;
	m->nr_topo_cpus = nr;
	m->topo_has_ids = true;
	for (i = 0; i < nr; i++) {
		m->topo_cpus[i].core_id = cur_u32(&x->c);
		m->topo_cpus[i].socket_id = cur_u32(&x->c);
	}
	perf_size += 8ULL * nr;
	if (len <= perf_size)
		return 0;

	err = pd_feat_strlist(x, "the sibling dies list", &m->die_cpus);
	if (err)
		return err;
	m->topo_has_die = true;
	at = cur_pos(&x->c);
	if (nr > cur_left(&x->c) / 4)
		return pd_feat_fail(x, -PD_E_BAD_FEATURE, at,
				 "die ids of %u CPUs (NRCPUS) need %llu bytes, but only %zu are left",
				 nr, 4ULL * nr, cur_left(&x->c));
	for (i = 0; i < nr; i++)
		m->topo_cpus[i].die_id = cur_u32(&x->c);
	return 0;
}

void
pd_feat_clear_cpu_topology(struct pd_meta *m, unsigned int feat)
{
	pd_strlist_free(&m->package_cpus);
	pd_strlist_free(&m->die_cpus);
	pd_strlist_free(&m->thread_cpus);
	free(m->topo_cpus);
	m->topo_cpus = NULL;
	m->nr_topo_cpus = 0;
	m->topo_has_ids = false;
	m->topo_has_die = false;
}

int
pd_feat_parse_numa_topology(struct feat_ctx *x)
{
	struct pd_meta *m = x->m;
	uint32_t nr, i;
	size_t at;
	int err;

	/* node, total, free, and at least an empty cpu list */
	err = pd_feat_count(x, 0, 24, "NUMA nodes", &nr);
	if (err)
		return err;
	m->numa_nodes = pd_feat_calloc(x, nr, sizeof(*m->numa_nodes));
	if (!m->numa_nodes && nr)
		return -PD_E_NOMEM;
	m->nr_numa_nodes = nr;
	for (i = 0; i < nr; i++) {
		struct pd_numa_node *n = &m->numa_nodes[i];

		at = cur_pos(&x->c);
		n->node = cur_u32(&x->c);
		n->mem_total_kb = cur_u64(&x->c);
		n->mem_free_kb = cur_u64(&x->c);
		if (x->c.short_read)
			return pd_feat_truncated(x, at, "a node's header");
		err = pd_feat_string(x, "a node's cpu list", &n->cpus);
		if (err)
			return err;
	}
	return 0;
}

void
pd_feat_clear_numa_topology(struct pd_meta *m, unsigned int feat)
{
	size_t i;

	for (i = 0; i < m->nr_numa_nodes; i++)
		free(m->numa_nodes[i].cpus);
	free(m->numa_nodes);
	m->numa_nodes = NULL;
	m->nr_numa_nodes = 0;
}

int
pd_feat_parse_cache(struct feat_ctx *x)
{
	struct pd_meta *m = x->m;
	uint32_t version, nr, i;
	size_t at;
	int err;

	version = cur_u32(&x->c);
	nr = cur_u32(&x->c);
	if (x->c.short_read)
		return pd_feat_truncated(x, 0, "the version and level count");
	if (version != 1)
		return pd_feat_fail(x, -PD_E_BAD_FEATURE, 0,
				 "version %u (only 1 is defined)", version);
	m->cache_version = version;
	/* four u32 and three strings */
	err = pd_feat_check_count(x, 4, nr, 28, "cache levels");
	if (err)
		return err;
	m->caches = pd_feat_calloc(x, nr, sizeof(*m->caches));
	if (!m->caches && nr)
		return -PD_E_NOMEM;
	m->nr_caches = nr;
	for (i = 0; i < nr; i++) {
		struct pd_cache_level *c = &m->caches[i];

		at = cur_pos(&x->c);
		c->level = cur_u32(&x->c);
		c->line_size = cur_u32(&x->c);
		c->sets = cur_u32(&x->c);
		c->ways = cur_u32(&x->c);
		if (x->c.short_read)
			return pd_feat_truncated(x, at, "a cache level's numbers");
		err = pd_feat_string(x, "a cache type", &c->type);
		if (!err)
			err = pd_feat_string(x, "a cache size", &c->size);
		if (!err)
			err = pd_feat_string(x, "a cache's cpu map", &c->map);
		if (err)
			return err;
	}
	return 0;
}

void
pd_feat_clear_cache(struct pd_meta *m, unsigned int feat)
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

int
pd_feat_parse_mem_topology(struct feat_ctx *x)
{
	struct pd_meta *m = x->m;
	uint64_t version, nr, i, words, j;
	size_t at;
	int err;

	version = cur_u64(&x->c);
	m->mem_block_size = cur_u64(&x->c);
	nr = cur_u64(&x->c);
	if (x->c.short_read)
		return pd_feat_truncated(x, 0,
				      "the version, block size and node count");
	if (version != 1)
		return pd_feat_fail(x, -PD_E_BAD_FEATURE, 0,
				 "version %llu (only 1 is defined)",
				 (unsigned long long)version);
	m->mem_version = version;
	/* node, size and the bitmap's own bit count */
	err = pd_feat_check_count(x, 16, nr, 24, "memory nodes");
	if (err)
		return err;
	m->mem_nodes = pd_feat_calloc(x, (size_t)nr, sizeof(*m->mem_nodes));
	if (!m->mem_nodes && nr)
		return -PD_E_NOMEM;
	m->nr_mem_nodes = (size_t)nr;
	for (i = 0; i < nr; i++) {
		struct pd_mem_node *n = &m->mem_nodes[i];

		at = cur_pos(&x->c);
		n->node = cur_u64(&x->c);
		(void)cur_u64(&x->c);
		n->size = cur_u64(&x->c);
		if (x->c.short_read)
			return pd_feat_truncated(x, at, "a memory node's header");
		words = n->size / 64 + (n->size % 64 != 0);
		err = pd_feat_check_count(x, at + 16, words, 8, "bitmap words");
		if (err)
			return err;
		n->bitmap = pd_feat_calloc(x, (size_t)words, sizeof(*n->bitmap));
		if (!n->bitmap && words)
			return -PD_E_NOMEM;
		for (j = 0; j < words; j++)
			n->bitmap[j] = cur_u64(&x->c);
	}
	return 0;
}

void
pd_feat_clear_mem_topology(struct pd_meta *m, unsigned int feat)
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

int
pd_feat_parse_hybrid_topology(struct feat_ctx *x)
{
	struct pd_meta *m = x->m;
	uint32_t nr, i;
	int err;

	err = pd_feat_count(x, 0, 8, "hybrid nodes", &nr);
	if (err)
		return err;
	m->hybrid_nodes = pd_feat_calloc(x, nr, sizeof(*m->hybrid_nodes));
	if (!m->hybrid_nodes && nr)
		return -PD_E_NOMEM;
	m->nr_hybrid_nodes = nr;
	for (i = 0; i < nr; i++) {
		struct pd_hybrid_node *n = &m->hybrid_nodes[i];

		err = pd_feat_string(x, "a PMU name", &n->pmu_name);
		if (!err)
			err = pd_feat_string(x, "a cpu list", &n->cpus);
		if (err)
			return err;
	}
	return 0;
}

void
pd_feat_clear_hybrid_topology(struct pd_meta *m, unsigned int feat)
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

static int
parse_one_cpu_domains(struct feat_ctx *x, struct pd_cpu_domains *cd)
{
	size_t at = cur_pos(&x->c);
	bool named = x->m->schedstat_version >= 17;
	uint32_t nr, i;
	int err;

	cd->cpu = cur_u32(&x->c);
	nr = cur_u32(&x->c);
	if (x->c.short_read)
		return pd_feat_truncated(x, at, "a CPU's number and domain count");
	err = pd_feat_check_count(x, at + 4, nr, named ? 16 : 12, "sched domains");
	if (err)
		return err;
	cd->domains = pd_feat_calloc(x, nr, sizeof(*cd->domains));
	if (!cd->domains && nr)
		return -PD_E_NOMEM;
	cd->nr_domains = nr;
	for (i = 0; i < nr; i++) {
		struct pd_sched_domain *d = &cd->domains[i];

		at = cur_pos(&x->c);
		d->domain = cur_u32(&x->c);
		if (x->c.short_read)
			return pd_feat_truncated(x, at, "a domain number");
		err = named ? pd_feat_string(x, "a domain name", &d->dname) : 0;
		if (!err)
			err = pd_feat_string(x, "a domain cpu mask", &d->cpumask);
		if (!err)
			err = pd_feat_string(x, "a domain cpu list", &d->cpulist);
		if (err)
			return err;
	}
	return 0;
}

/*
 * The writer emits one entry per CPU that has domains, so their number is
 * not stored: read entries while a whole entry header fits (newer perf
 * pads pipe-mode payloads with up to 7 zero bytes).
 */
int
pd_feat_parse_cpu_domain_info(struct feat_ctx *x)
{
	struct pd_meta *m = x->m;
	struct pd_cpu_domains *cd;
	size_t cap = 0;
	int err;

	m->schedstat_version = cur_u32(&x->c);
	m->max_sched_domains = cur_u32(&x->c);
	if (x->c.short_read)
		return pd_feat_truncated(x, 0,
				      "the schedstat version and domain count");
	while (cur_left(&x->c) >= 8) {
		if (m->nr_cpu_domains == cap) {
			size_t ncap = cap ? 2 * cap : 16;
			struct pd_cpu_domains *n = NULL;

			/* a 32-bit size_t could wrap before memory runs out */
			if (ncap <= SIZE_MAX / sizeof(*n))
				n = realloc(m->cpu_domains, ncap * sizeof(*n));
			if (!n)
				return pd_feat_fail(x, -PD_E_NOMEM,
						 cur_pos(&x->c),
						 "out of memory for %zu CPUs",
						 ncap);
			memset(n + cap, 0, (ncap - cap) * sizeof(*n));
			m->cpu_domains = n;
			cap = ncap;
		}
		cd = &m->cpu_domains[m->nr_cpu_domains++];
		err = parse_one_cpu_domains(x, cd);
		if (err)
			return err;
	}
	return 0;
}

void
pd_feat_clear_cpu_domain_info(struct pd_meta *m, unsigned int feat)
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
