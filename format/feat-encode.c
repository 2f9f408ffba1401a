/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/feat-encode.c - lay out each HEADER_* feature payload from a
 * struct pd_meta, the inverse of pd_feature_parse().
 *
 * Layouts are those perf 6.1 writes (doc/perf-data-format.md §5): fields
 * back to back in host byte order, unaligned, strings padded to 64
 * (§4.2), build-id records of 36 bytes plus the name padded to 64 (§5.2).
 * One row per feature id; a row without an encoder is a feature whose
 * payload pd_meta does not hold (TRACING_DATA: pass its blob to
 * pd_writer_set_feature_raw()).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/compiler.h"
#include "format/feat-int.h"
#include "format/writer-int.h"
#include "pdata/errors.h"
#include "pdata/meta.h"
#include "pdata/writer.h"

#define BID_FIXED	36	/* header, pid, 20 id bytes, size, 3 reserved */
#define BID_NAME_ALIGN	64	/* perf <= 6.11 pads the name to 64 (§5.2) */

typedef int (*encode_fn)(const struct pd_meta *m, unsigned int feat,
			 struct pd_wbuf *b);

static void
put_strlist(struct pd_wbuf *b, const struct pd_strlist *l)
{
	size_t i;

	pd_wbuf_u32(b, (uint32_t)l->nr);
	for (i = 0; i < l->nr; i++)
		pd_wbuf_string(b, l->s[i]);
}

/* Flag features (BRANCH_STACK, STAT): the payload is empty. */
static int
enc_flag(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	return 0;
}

static int
enc_build_id(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	size_t i, n, padded;

	for (i = 0; i < m->nr_build_ids; i++) {
		const struct pd_build_id *bid = &m->build_ids[i];
		uint16_t misc = bid->misc;

		n = bid->filename ? strlen(bid->filename) : 0;
		padded = (n + 1 + BID_NAME_ALIGN - 1) / BID_NAME_ALIGN *
			 BID_NAME_ALIGN;
		if (padded > PD_RECORD_MAX_SIZE - BID_FIXED ||
		    bid->size > PD_BUILD_ID_SIZE)
			return -PD_E_TOO_BIG;
		/*
		 * a short id is only known as such with the size flag, which
		 * perf 6.1 sets on every entry; the caller's misc decides
		 */
		if (bid->size != PD_BUILD_ID_SIZE)
			misc |= PD_MISC_BUILD_ID_SIZE;
		pd_wbuf_u32(b, 0);	/* type: 0 inside the feature */
		pd_wbuf_u16(b, misc);
		pd_wbuf_u16(b, (uint16_t)(BID_FIXED + padded));
		pd_wbuf_u32(b, (uint32_t)bid->pid);
		pd_wbuf_bytes(b, bid->id, PD_BUILD_ID_SIZE);
		/* without the flag the byte was reserved, and perf wrote 0 */
		pd_wbuf_u8(b, misc & PD_MISC_BUILD_ID_SIZE ? bid->size : 0);
		pd_wbuf_zeros(b, 3);
		pd_wbuf_bytes(b, bid->filename ? bid->filename : "", n);
		pd_wbuf_zeros(b, padded - n);
	}
	return 0;
}

/* HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID */
static int
enc_string(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	const char *s = *(char *const *)((const char *)m +
					  pd_feat_ops_of(feat)->str);

	if (!s)
		return -PD_E_INVAL;
	pd_wbuf_string(b, s);
	return 0;
}

static int
enc_nrcpus(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	pd_wbuf_u32(b, m->nr_cpus_avail);
	pd_wbuf_u32(b, m->nr_cpus_online);
	return 0;
}

static int
enc_total_mem(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	pd_wbuf_u64(b, m->total_mem_kb);
	return 0;
}

static int
enc_cmdline(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	put_strlist(b, &m->cmdline);
	return 0;
}

static bool
attr_size_valid(uint32_t size)
{
	return size >= PD_ATTR_SIZE_VER0 && size <= PD_ATTR_SIZE_MAX &&
	       size % 8 == 0;
}

/*
 * One attr size for the whole list, as perf writes its own
 * sizeof(struct perf_event_attr): the largest valid size the events
 * carry, else 128, what perf 6.1 writes (§5.7).
 */
static uint32_t
event_desc_attr_size(const struct pd_meta *m)
{
	uint32_t size = 0;
	size_t i;

	for (i = 0; i < m->nr_event_desc; i++)
		if (attr_size_valid(m->event_desc[i].attr.size) &&
		    m->event_desc[i].attr.size > size)
			size = m->event_desc[i].attr.size;
	return size ? size : PD_ATTR_SIZE_VER7;
}

static int
enc_event_desc(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	unsigned char attr[PD_ATTR_SIZE_MAX];
	uint32_t attr_size = event_desc_attr_size(m);
	size_t i, j;

	pd_wbuf_u32(b, (uint32_t)m->nr_event_desc);
	pd_wbuf_u32(b, attr_size);
	for (i = 0; i < m->nr_event_desc; i++) {
		const struct pd_event_desc *ev = &m->event_desc[i];

		if (ev->nr_ids > UINT32_MAX)
			return -PD_E_TOO_BIG;
		pd_attr_encode(&ev->attr, attr_size, attr);
		pd_wbuf_bytes(b, attr, attr_size);
		pd_wbuf_u32(b, (uint32_t)ev->nr_ids);
		pd_wbuf_string(b, ev->name);
		for (j = 0; j < ev->nr_ids; j++)
			pd_wbuf_u64(b, ev->ids[j]);
	}
	return 0;
}

/*
 * The per-CPU ids are written for NRCPUS's nr_cpus_avail CPUs, which is
 * also what the parser reads back (§5.8), so the two must agree.
 */
static int
enc_cpu_topology(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	size_t i;

	put_strlist(b, &m->package_cpus);
	put_strlist(b, &m->thread_cpus);
	if (!m->topo_has_ids)
		return m->topo_has_die ? -PD_E_INVAL : 0;
	if (m->nr_topo_cpus != m->nr_cpus_avail ||
	    (m->nr_topo_cpus && !m->topo_cpus))
		return -PD_E_INVAL;
	for (i = 0; i < m->nr_topo_cpus; i++) {
		pd_wbuf_u32(b, m->topo_cpus[i].core_id);
		pd_wbuf_u32(b, m->topo_cpus[i].socket_id);
	}
	if (!m->topo_has_die)
		return 0;
	put_strlist(b, &m->die_cpus);
	for (i = 0; i < m->nr_topo_cpus; i++)
		pd_wbuf_u32(b, m->topo_cpus[i].die_id);
	return 0;
}

static int
enc_numa_topology(const struct pd_meta *m, unsigned int feat,
		  struct pd_wbuf *b)
{
	size_t i;

	pd_wbuf_u32(b, (uint32_t)m->nr_numa_nodes);
	for (i = 0; i < m->nr_numa_nodes; i++) {
		const struct pd_numa_node *n = &m->numa_nodes[i];

		pd_wbuf_u32(b, n->node);
		pd_wbuf_u64(b, n->mem_total_kb);
		pd_wbuf_u64(b, n->mem_free_kb);
		pd_wbuf_string(b, n->cpus);
	}
	return 0;
}

static int
enc_pmu_mappings(const struct pd_meta *m, unsigned int feat,
		 struct pd_wbuf *b)
{
	size_t i;

	pd_wbuf_u32(b, (uint32_t)m->nr_pmu_mappings);
	for (i = 0; i < m->nr_pmu_mappings; i++) {
		pd_wbuf_u32(b, m->pmu_mappings[i].type);
		pd_wbuf_string(b, m->pmu_mappings[i].name);
	}
	return 0;
}

static int
enc_group_desc(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	size_t i;

	pd_wbuf_u32(b, (uint32_t)m->nr_groups);
	for (i = 0; i < m->nr_groups; i++) {
		pd_wbuf_string(b, m->groups[i].name);
		pd_wbuf_u32(b, m->groups[i].leader_idx);
		pd_wbuf_u32(b, m->groups[i].nr_members);
	}
	return 0;
}

static int
enc_auxtrace(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	size_t i;

	pd_wbuf_u64(b, m->nr_auxtrace);
	for (i = 0; i < m->nr_auxtrace; i++) {
		pd_wbuf_u64(b, m->auxtrace[i].file_offset);
		pd_wbuf_u64(b, m->auxtrace[i].size);
	}
	return 0;
}

static int
enc_cache(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	size_t i;

	pd_wbuf_u32(b, 1);	/* the only version perf reads */
	pd_wbuf_u32(b, (uint32_t)m->nr_caches);
	for (i = 0; i < m->nr_caches; i++) {
		const struct pd_cache_level *c = &m->caches[i];

		pd_wbuf_u32(b, c->level);
		pd_wbuf_u32(b, c->line_size);
		pd_wbuf_u32(b, c->sets);
		pd_wbuf_u32(b, c->ways);
		pd_wbuf_string(b, c->type);
		pd_wbuf_string(b, c->size);
		pd_wbuf_string(b, c->map);
	}
	return 0;
}

static int
enc_sample_time(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	pd_wbuf_u64(b, m->first_sample_time);
	pd_wbuf_u64(b, m->last_sample_time);
	return 0;
}

/* perf writes the bit count twice: the node's size, then the bitmap's own */
static int
enc_mem_topology(const struct pd_meta *m, unsigned int feat,
		 struct pd_wbuf *b)
{
	size_t i;
	uint64_t j, words;

	pd_wbuf_u64(b, 1);	/* the only version perf reads */
	pd_wbuf_u64(b, m->mem_block_size);
	pd_wbuf_u64(b, m->nr_mem_nodes);
	for (i = 0; i < m->nr_mem_nodes; i++) {
		const struct pd_mem_node *n = &m->mem_nodes[i];

		words = n->size / 64 + (n->size % 64 != 0);
		if (words && !n->bitmap)
			return -PD_E_INVAL;
		pd_wbuf_u64(b, n->node);
		pd_wbuf_u64(b, n->size);
		pd_wbuf_u64(b, n->size);
		for (j = 0; j < words; j++)
			pd_wbuf_u64(b, n->bitmap[j]);
	}
	return 0;
}

static int
enc_clockid(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	pd_wbuf_u64(b, m->clockid_res_ns);
	return 0;
}

static int
enc_dir_format(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	pd_wbuf_u64(b, m->dir_format_version);
	return 0;
}

/*
 * Each entry goes out as it came in: the bpf_prog_info bytes with their
 * array offsets (perf's bpil layout, §5.18).  Those bytes are in the
 * byte order of the file they came from; one of the other order cannot
 * be written into a host-order file without knowing the whole struct.
 */
static int
enc_bpf_prog_info(const struct pd_meta *m, unsigned int feat,
		  struct pd_wbuf *b)
{
	size_t i;

	pd_wbuf_u32(b, (uint32_t)m->nr_bpf_progs);
	for (i = 0; i < m->nr_bpf_progs; i++) {
		const struct pd_bpf_prog_info *p = &m->bpf_progs[i];

		if (p->swap)
			return -PD_E_UNSUPPORTED;
		if ((p->info_len && !p->info) || (p->data_len && !p->data))
			return -PD_E_INVAL;
		pd_wbuf_u32(b, p->info_len);
		pd_wbuf_u32(b, p->data_len);
		pd_wbuf_u64(b, p->arrays);
		pd_wbuf_bytes(b, p->info, p->info_len);
		pd_wbuf_bytes(b, p->data, p->data_len);
	}
	return 0;
}

static int
enc_bpf_btf(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	size_t i;

	pd_wbuf_u32(b, (uint32_t)m->nr_bpf_btfs);
	for (i = 0; i < m->nr_bpf_btfs; i++) {
		const struct pd_bpf_btf *t = &m->bpf_btfs[i];

		if (t->data_size && !t->data)
			return -PD_E_INVAL;
		pd_wbuf_u32(b, t->id);
		pd_wbuf_u32(b, t->data_size);
		pd_wbuf_bytes(b, t->data, t->data_size);
	}
	return 0;
}

static int
enc_compressed(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	pd_wbuf_u32(b, m->comp_version);
	pd_wbuf_u32(b, m->comp_type);
	pd_wbuf_u32(b, m->comp_level);
	pd_wbuf_u32(b, m->comp_ratio);
	pd_wbuf_u32(b, m->comp_mmap_len);
	return 0;
}

static void
put_caps(struct pd_wbuf *b, const struct pd_cap *caps, size_t nr)
{
	size_t i;

	pd_wbuf_u32(b, (uint32_t)nr);
	for (i = 0; i < nr; i++) {
		pd_wbuf_string(b, caps[i].name);
		pd_wbuf_string(b, caps[i].value);
	}
}

static int
enc_cpu_pmu_caps(const struct pd_meta *m, unsigned int feat,
		 struct pd_wbuf *b)
{
	put_caps(b, m->cpu_pmu_caps, m->nr_cpu_pmu_caps);
	return 0;
}

static int
enc_clock_data(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	pd_wbuf_u32(b, 1);	/* the only version defined */
	pd_wbuf_u32(b, m->clock_data_clockid);
	pd_wbuf_u64(b, m->clock_tod_ns);
	pd_wbuf_u64(b, m->clock_clockid_ns);
	return 0;
}

static int
enc_hybrid_topology(const struct pd_meta *m, unsigned int feat,
		    struct pd_wbuf *b)
{
	size_t i;

	pd_wbuf_u32(b, (uint32_t)m->nr_hybrid_nodes);
	for (i = 0; i < m->nr_hybrid_nodes; i++) {
		pd_wbuf_string(b, m->hybrid_nodes[i].pmu_name);
		pd_wbuf_string(b, m->hybrid_nodes[i].cpus);
	}
	return 0;
}

static int
enc_pmu_caps(const struct pd_meta *m, unsigned int feat, struct pd_wbuf *b)
{
	size_t i;

	pd_wbuf_u32(b, (uint32_t)m->nr_pmu_caps);
	for (i = 0; i < m->nr_pmu_caps; i++) {
		put_caps(b, m->pmu_caps[i].caps, m->pmu_caps[i].nr_caps);
		pd_wbuf_string(b, m->pmu_caps[i].pmu_name);
	}
	return 0;
}

/* Domain names exist from schedstat version 17 on (§5.21). */
static int
enc_cpu_domain_info(const struct pd_meta *m, unsigned int feat,
		    struct pd_wbuf *b)
{
	bool named = m->schedstat_version >= 17;
	size_t i, j;

	pd_wbuf_u32(b, m->schedstat_version);
	pd_wbuf_u32(b, m->max_sched_domains);
	for (i = 0; i < m->nr_cpu_domains; i++) {
		const struct pd_cpu_domains *cd = &m->cpu_domains[i];

		pd_wbuf_u32(b, cd->cpu);
		pd_wbuf_u32(b, (uint32_t)cd->nr_domains);
		for (j = 0; j < cd->nr_domains; j++) {
			const struct pd_sched_domain *d = &cd->domains[j];

			pd_wbuf_u32(b, d->domain);
			if (named)
				pd_wbuf_string(b, d->dname);
			pd_wbuf_string(b, d->cpumask);
			pd_wbuf_string(b, d->cpulist);
		}
	}
	return 0;
}

static const encode_fn encode_table[PD_FEAT_KNOWN] = {
	[PD_FEAT_BUILD_ID]		= enc_build_id,
	[PD_FEAT_HOSTNAME]		= enc_string,
	[PD_FEAT_OSRELEASE]		= enc_string,
	[PD_FEAT_VERSION]		= enc_string,
	[PD_FEAT_ARCH]			= enc_string,
	[PD_FEAT_NRCPUS]		= enc_nrcpus,
	[PD_FEAT_CPUDESC]		= enc_string,
	[PD_FEAT_CPUID]			= enc_string,
	[PD_FEAT_TOTAL_MEM]		= enc_total_mem,
	[PD_FEAT_CMDLINE]		= enc_cmdline,
	[PD_FEAT_EVENT_DESC]		= enc_event_desc,
	[PD_FEAT_CPU_TOPOLOGY]		= enc_cpu_topology,
	[PD_FEAT_NUMA_TOPOLOGY]		= enc_numa_topology,
	[PD_FEAT_BRANCH_STACK]		= enc_flag,
	[PD_FEAT_PMU_MAPPINGS]		= enc_pmu_mappings,
	[PD_FEAT_GROUP_DESC]		= enc_group_desc,
	[PD_FEAT_AUXTRACE]		= enc_auxtrace,
	[PD_FEAT_STAT]			= enc_flag,
	[PD_FEAT_CACHE]			= enc_cache,
	[PD_FEAT_SAMPLE_TIME]		= enc_sample_time,
	[PD_FEAT_MEM_TOPOLOGY]		= enc_mem_topology,
	[PD_FEAT_CLOCKID]		= enc_clockid,
	[PD_FEAT_DIR_FORMAT]		= enc_dir_format,
	[PD_FEAT_BPF_PROG_INFO]		= enc_bpf_prog_info,
	[PD_FEAT_BPF_BTF]		= enc_bpf_btf,
	[PD_FEAT_COMPRESSED]		= enc_compressed,
	[PD_FEAT_CPU_PMU_CAPS]		= enc_cpu_pmu_caps,
	[PD_FEAT_CLOCK_DATA]		= enc_clock_data,
	[PD_FEAT_HYBRID_TOPOLOGY]	= enc_hybrid_topology,
	[PD_FEAT_PMU_CAPS]		= enc_pmu_caps,
	[PD_FEAT_CPU_DOMAIN_INFO]	= enc_cpu_domain_info,
};

int
pd_feature_encode(const struct pd_meta *meta, unsigned int feat, void **buf,
		  size_t *len)
{
	struct pd_wbuf b = { 0 };
	int err;

	*buf = NULL;
	*len = 0;
	if (feat >= ARRAY_SIZE(encode_table))
		return -PD_E_INVAL;
	if (!encode_table[feat])
		return -PD_E_UNSUPPORTED;
	err = encode_table[feat](meta, feat, &b);
	if (!err && b.nomem)
		err = -PD_E_NOMEM;
	if (err) {
		pd_wbuf_free(&b);
		return err;
	}
	/* an empty payload still gets a buffer the caller can free() */
	if (!b.p) {
		b.p = malloc(1);
		if (!b.p)
			return -PD_E_NOMEM;
	}
	*buf = b.p;
	*len = b.len;
	return 0;
}
