/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/features.c - parse the payload of each HEADER_* feature section.
 *
 * Layouts: doc/perf-data-format.md §5, byte order §14.5.  Every count,
 * length and offset in a payload is untrusted: it is checked against the
 * bytes left before it is used, and before anything is allocated from
 * it.  One row per feature in feat_table[], with its name, its parser and
 * what resets its fields; the topology-like features are in feat-topo.c,
 * the BPF ones in feat-bpf.c and BUILD_ID in buildid.c.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/compiler.h"
#include "format/cursor.h"
#include "format/feat-int.h"
#include "pdata/errors.h"
#include "pdata/meta.h"

int
pd_feat_fail(struct feat_ctx *x, int err, size_t at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!x->why || !x->why_len)
		return err;
	n = snprintf(x->why, x->why_len, "payload offset %zu: ", at);
	if (n >= 0 && (size_t)n < x->why_len) {
		va_start(ap, fmt);
		vsnprintf(x->why + n, x->why_len - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return err;
}

int
pd_feat_truncated(struct feat_ctx *x, size_t at, const char *what)
{
	return pd_feat_fail(x, -PD_E_TRUNCATED, at,
			 "the payload (%zu bytes) ends inside %s",
			 (size_t)(x->c.end - x->c.start), what);
}

int
pd_feat_check_count(struct feat_ctx *x, size_t at, uint64_t nr,
		 uint64_t min_item, const char *what)
{
	size_t left = cur_left(&x->c);

	/* every item takes a byte at least: 0 is a bug in the caller */
	if (!min_item)
		return pd_feat_fail(x, -PD_E_INVAL, at,
				 "%s: checked with an item size of 0", what);
	if (nr > left / min_item)
		return pd_feat_fail(x, -PD_E_BAD_FEATURE, at,
				 "%llu %s need at least %llu bytes each, but only %zu bytes are left",
				 (unsigned long long)nr, what,
				 (unsigned long long)min_item, left);
	return 0;
}

int
pd_feat_count(struct feat_ctx *x, size_t at, uint64_t min_item, const char *what,
	   uint32_t *nr)
{
	*nr = cur_u32(&x->c);
	if (x->c.short_read)
		return pd_feat_fail(x, -PD_E_TRUNCATED, at,
				 "the payload (%zu bytes) ends inside the count of %s",
				 (size_t)(x->c.end - x->c.start), what);
	return pd_feat_check_count(x, at, *nr, min_item, what);
}

void *
pd_feat_calloc(struct feat_ctx *x, size_t nr, size_t size)
{
	void *p;

	if (!nr)
		return NULL;
	p = calloc(nr, size);
	if (!p)
		pd_feat_fail(x, -PD_E_NOMEM, cur_pos(&x->c),
			  "out of memory for %zu items", nr);
	return p;
}

int
pd_feat_string(struct feat_ctx *x, const char *what, char **out)
{
	size_t at = cur_pos(&x->c), left;
	const unsigned char *p, *nul;
	uint32_t len;
	size_t n;
	char *s;

	*out = NULL;
	len = cur_u32(&x->c);
	if (x->c.short_read)
		return pd_feat_truncated(x, at, what);
	left = cur_left(&x->c);
	p = cur_bytes(&x->c, len);
	if (!p)
		return pd_feat_fail(x, -PD_E_TRUNCATED, at,
				 "%s: string length %u runs past the end of the payload (%zu bytes left)",
				 what, len, left);
	nul = memchr(p, 0, len);
	n = nul ? (size_t)(nul - p) : len;
	s = malloc(n + 1);
	if (!s)
		return pd_feat_fail(x, -PD_E_NOMEM, at, "out of memory for %s",
				 what);
	memcpy(s, p, n);
	s[n] = '\0';
	*out = s;
	return 0;
}

int
pd_feat_strlist(struct feat_ctx *x, const char *what, struct pd_strlist *l)
{
	size_t at = cur_pos(&x->c), i;
	uint32_t nr;
	int err;

	nr = cur_u32(&x->c);
	if (x->c.short_read)
		return pd_feat_truncated(x, at, what);
	err = pd_feat_check_count(x, at, nr, 4, what);
	if (err)
		return err;
	l->s = pd_feat_calloc(x, nr, sizeof(*l->s));
	if (!l->s && nr)
		return -PD_E_NOMEM;
	l->nr = nr;
	for (i = 0; i < nr; i++) {
		err = pd_feat_string(x, what, &l->s[i]);
		if (err)
			return err;
	}
	return 0;
}

static int
parse_tracing_data(struct feat_ctx *x)
{
	/* the blob states its own byte order; only where it is matters here */
	x->m->tracing_data_size = (uint64_t)(x->c.end - x->c.start);
	return 0;
}

static void
clear_tracing_data(struct pd_meta *m, unsigned int feat)
{
	m->tracing_data_offset = 0;
	m->tracing_data_size = 0;
}

/* Flag features: being there is all they say. */
static int
parse_flag(struct feat_ctx *x)
{
	return 0;
}

/* HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID: their row's field */
static char **
string_field(struct pd_meta *m, unsigned int feat)
{
	return (char **)((char *)m + pd_feat_ops_of(feat)->str);
}

static int
parse_string(struct feat_ctx *x)
{
	return pd_feat_string(x, "the string", string_field(x->m, x->feat));
}

static void
clear_string(struct pd_meta *m, unsigned int feat)
{
	char **s = string_field(m, feat);

	free(*s);
	*s = NULL;
}

static int
parse_nrcpus(struct feat_ctx *x)
{
	/* avail first: the order of perf's writer and reader (§5.4) */
	x->m->nr_cpus_avail = cur_u32(&x->c);
	x->m->nr_cpus_online = cur_u32(&x->c);
	return x->c.short_read ? pd_feat_truncated(x, 0, "the two CPU counts") : 0;
}

static void
clear_nrcpus(struct pd_meta *m, unsigned int feat)
{
	m->nr_cpus_avail = 0;
	m->nr_cpus_online = 0;
}

static int
parse_total_mem(struct feat_ctx *x)
{
	x->m->total_mem_kb = cur_u64(&x->c);
	return x->c.short_read ? pd_feat_truncated(x, 0, "the memory size") : 0;
}

static void
clear_total_mem(struct pd_meta *m, unsigned int feat)
{
	m->total_mem_kb = 0;
}

static int
parse_cmdline(struct feat_ctx *x)
{
	return pd_feat_strlist(x, "command-line arguments", &x->m->cmdline);
}

static void
clear_cmdline(struct pd_meta *m, unsigned int feat)
{
	pd_strlist_free(&m->cmdline);
}

static int
parse_one_event(struct feat_ctx *x, struct pd_event_desc *ev,
		uint32_t attr_size, uint32_t i)
{
	size_t at = cur_pos(&x->c);
	const unsigned char *p;
	uint32_t nr_ids, j;
	char what[48];
	int err;

	snprintf(what, sizeof(what), "the attr of event %u", i);
	p = cur_bytes(&x->c, attr_size);
	if (!p)
		return pd_feat_truncated(x, at, what);
	if (pd_attr_decode(p, attr_size, x->c.swap, &ev->attr))
		return pd_feat_fail(x, -PD_E_BAD_FEATURE, at,
				 "event %u: attr.size %u is smaller than 64", i,
				 pd_load_u32(p + 4, x->c.swap));
	at = cur_pos(&x->c);
	nr_ids = cur_u32(&x->c);
	if (x->c.short_read) {
		snprintf(what, sizeof(what), "the id count of event %u", i);
		return pd_feat_truncated(x, at, what);
	}
	snprintf(what, sizeof(what), "the name of event %u", i);
	err = pd_feat_string(x, what, &ev->name);
	if (err)
		return err;
	err = pd_feat_check_count(x, at, nr_ids, 8, "event ids");
	if (err)
		return err;
	ev->ids = pd_feat_calloc(x, nr_ids, sizeof(*ev->ids));
	if (!ev->ids && nr_ids)
		return -PD_E_NOMEM;
	ev->nr_ids = nr_ids;
	for (j = 0; j < nr_ids; j++)
		ev->ids[j] = cur_u64(&x->c);
	return 0;
}

static int
parse_event_desc(struct feat_ctx *x)
{
	struct pd_meta *m = x->m;
	uint32_t nr, attr_size, i;
	int err;

	nr = cur_u32(&x->c);
	attr_size = cur_u32(&x->c);
	if (x->c.short_read)
		return pd_feat_truncated(x, 0, "the event count and attr size");
	if (nr && attr_size < PD_ATTR_SIZE_VER0)
		return pd_feat_fail(x, -PD_E_BAD_FEATURE, 4,
				 "attr size %u is smaller than 64", attr_size);
	/*
	 * each event: the attr, its id count and at least an empty name;
	 * in 64 bits, which a u32 attr size plus 8 cannot wrap
	 */
	err = pd_feat_check_count(x, 0, nr, (uint64_t)attr_size + 8, "events");
	if (err)
		return err;
	m->event_desc = pd_feat_calloc(x, nr, sizeof(*m->event_desc));
	if (!m->event_desc && nr)
		return -PD_E_NOMEM;
	m->nr_event_desc = nr;
	for (i = 0; i < nr; i++) {
		err = parse_one_event(x, &m->event_desc[i], attr_size, i);
		if (err)
			return err;
	}
	return 0;
}

static void
clear_event_desc(struct pd_meta *m, unsigned int feat)
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

static int
parse_pmu_mappings(struct feat_ctx *x)
{
	struct pd_meta *m = x->m;
	uint32_t nr, i;
	size_t at;
	int err;

	err = pd_feat_count(x, 0, 8, "PMU mappings", &nr);
	if (err)
		return err;
	m->pmu_mappings = pd_feat_calloc(x, nr, sizeof(*m->pmu_mappings));
	if (!m->pmu_mappings && nr)
		return -PD_E_NOMEM;
	m->nr_pmu_mappings = nr;
	for (i = 0; i < nr; i++) {
		at = cur_pos(&x->c);
		m->pmu_mappings[i].type = cur_u32(&x->c);
		if (x->c.short_read)
			return pd_feat_truncated(x, at, "a PMU type");
		err = pd_feat_string(x, "a PMU name", &m->pmu_mappings[i].name);
		if (err)
			return err;
	}
	return 0;
}

static void
clear_pmu_mappings(struct pd_meta *m, unsigned int feat)
{
	size_t i;

	for (i = 0; i < m->nr_pmu_mappings; i++)
		free(m->pmu_mappings[i].name);
	free(m->pmu_mappings);
	m->pmu_mappings = NULL;
	m->nr_pmu_mappings = 0;
}

static int
parse_group_desc(struct feat_ctx *x)
{
	struct pd_meta *m = x->m;
	uint32_t nr, i;
	size_t at;
	int err;

	err = pd_feat_count(x, 0, 12, "groups", &nr);
	if (err)
		return err;
	m->groups = pd_feat_calloc(x, nr, sizeof(*m->groups));
	if (!m->groups && nr)
		return -PD_E_NOMEM;
	m->nr_groups = nr;
	for (i = 0; i < nr; i++) {
		err = pd_feat_string(x, "a group name", &m->groups[i].name);
		if (err)
			return err;
		at = cur_pos(&x->c);
		m->groups[i].leader_idx = cur_u32(&x->c);
		m->groups[i].nr_members = cur_u32(&x->c);
		if (x->c.short_read)
			return pd_feat_truncated(x, at,
					      "a group's leader and size");
	}
	return 0;
}

static void
clear_group_desc(struct pd_meta *m, unsigned int feat)
{
	size_t i;

	for (i = 0; i < m->nr_groups; i++)
		free(m->groups[i].name);
	free(m->groups);
	m->groups = NULL;
	m->nr_groups = 0;
}

static int
parse_auxtrace(struct feat_ctx *x)
{
	struct pd_meta *m = x->m;
	uint64_t nr, i;
	int err;

	nr = cur_u64(&x->c);
	if (x->c.short_read)
		return pd_feat_truncated(x, 0, "the index size");
	err = pd_feat_check_count(x, 0, nr, 16, "AUXTRACE index entries");
	if (err)
		return err;
	m->auxtrace = pd_feat_calloc(x, (size_t)nr, sizeof(*m->auxtrace));
	if (!m->auxtrace && nr)
		return -PD_E_NOMEM;
	m->nr_auxtrace = (size_t)nr;
	for (i = 0; i < nr; i++) {
		m->auxtrace[i].file_offset = cur_u64(&x->c);
		m->auxtrace[i].size = cur_u64(&x->c);
	}
	return 0;
}

static void
clear_auxtrace(struct pd_meta *m, unsigned int feat)
{
	free(m->auxtrace);
	m->auxtrace = NULL;
	m->nr_auxtrace = 0;
}

static int
parse_sample_time(struct feat_ctx *x)
{
	x->m->first_sample_time = cur_u64(&x->c);
	x->m->last_sample_time = cur_u64(&x->c);
	if (x->c.short_read)
		return pd_feat_truncated(x, 0, "the two sample times");
	return 0;
}

static void
clear_sample_time(struct pd_meta *m, unsigned int feat)
{
	m->first_sample_time = 0;
	m->last_sample_time = 0;
}

static int
parse_clockid(struct feat_ctx *x)
{
	x->m->clockid_res_ns = cur_u64(&x->c);
	if (x->c.short_read)
		return pd_feat_truncated(x, 0, "the clock resolution");
	return 0;
}

static void
clear_clockid(struct pd_meta *m, unsigned int feat)
{
	m->clockid_res_ns = 0;
}

static int
parse_dir_format(struct feat_ctx *x)
{
	x->m->dir_format_version = cur_u64(&x->c);
	return x->c.short_read ? pd_feat_truncated(x, 0, "the version") : 0;
}

static void
clear_dir_format(struct pd_meta *m, unsigned int feat)
{
	m->dir_format_version = 0;
}

static int
parse_compressed(struct feat_ctx *x)
{
	struct pd_meta *m = x->m;

	m->comp_version = cur_u32(&x->c);
	m->comp_type = cur_u32(&x->c);
	m->comp_level = cur_u32(&x->c);
	m->comp_ratio = cur_u32(&x->c);
	m->comp_mmap_len = cur_u32(&x->c);
	if (x->c.short_read)
		return pd_feat_truncated(x, 0, "the five u32 fields");
	return 0;
}

static void
clear_compressed(struct pd_meta *m, unsigned int feat)
{
	m->comp_version = 0;
	m->comp_type = PD_COMP_NONE;
	m->comp_level = 0;
	m->comp_ratio = 0;
	m->comp_mmap_len = 0;
}

static int
parse_caps(struct feat_ctx *x, struct pd_cap **caps, size_t *nr_caps)
{
	size_t at = cur_pos(&x->c);
	uint32_t nr, i;
	int err;

	err = pd_feat_count(x, at, 8, "capabilities", &nr);
	if (err)
		return err;
	*caps = pd_feat_calloc(x, nr, sizeof(**caps));
	if (!*caps && nr)
		return -PD_E_NOMEM;
	*nr_caps = nr;
	for (i = 0; i < nr; i++) {
		struct pd_cap *cap = &(*caps)[i];

		err = pd_feat_string(x, "a capability name", &cap->name);
		if (!err)
			err = pd_feat_string(x, "a capability value", &cap->value);
		if (err)
			return err;
	}
	return 0;
}

static int
parse_cpu_pmu_caps(struct feat_ctx *x)
{
	return parse_caps(x, &x->m->cpu_pmu_caps, &x->m->nr_cpu_pmu_caps);
}

static void
clear_cpu_pmu_caps(struct pd_meta *m, unsigned int feat)
{
	pd_caps_free(m->cpu_pmu_caps, m->nr_cpu_pmu_caps);
	m->cpu_pmu_caps = NULL;
	m->nr_cpu_pmu_caps = 0;
}

static int
parse_pmu_caps(struct feat_ctx *x)
{
	struct pd_meta *m = x->m;
	uint32_t nr, i;
	int err;

	/* each PMU: its capability count and its name */
	err = pd_feat_count(x, 0, 8, "PMUs", &nr);
	if (err)
		return err;
	m->pmu_caps = pd_feat_calloc(x, nr, sizeof(*m->pmu_caps));
	if (!m->pmu_caps && nr)
		return -PD_E_NOMEM;
	m->nr_pmu_caps = nr;
	for (i = 0; i < nr; i++) {
		struct pd_pmu_caps *pc = &m->pmu_caps[i];

		err = parse_caps(x, &pc->caps, &pc->nr_caps);
		if (!err)
			err = pd_feat_string(x, "a PMU name", &pc->pmu_name);
		if (err)
			return err;
	}
	return 0;
}

static void
clear_pmu_caps(struct pd_meta *m, unsigned int feat)
{
	size_t i;

	for (i = 0; i < m->nr_pmu_caps; i++) {
		free(m->pmu_caps[i].pmu_name);
		pd_caps_free(m->pmu_caps[i].caps, m->pmu_caps[i].nr_caps);
	}
	free(m->pmu_caps);
	m->pmu_caps = NULL;
	m->nr_pmu_caps = 0;
}

static int
parse_clock_data(struct feat_ctx *x)
{
	struct pd_meta *m = x->m;
	uint32_t version;

	version = cur_u32(&x->c);
	if (x->c.short_read)
		return pd_feat_truncated(x, 0, "the version");
	if (version != 1)
		return pd_feat_fail(x, -PD_E_BAD_FEATURE, 0,
				 "version %u (only 1 is defined)", version);
	m->clock_data_version = version;
	m->clock_data_clockid = cur_u32(&x->c);
	m->clock_tod_ns = cur_u64(&x->c);
	m->clock_clockid_ns = cur_u64(&x->c);
	if (x->c.short_read)
		return pd_feat_truncated(x, 4, "the clock id and times");
	return 0;
}

static void
clear_clock_data(struct pd_meta *m, unsigned int feat)
{
	m->clock_data_version = 0;
	m->clock_data_clockid = 0;
	m->clock_tod_ns = 0;
	m->clock_clockid_ns = 0;
}

/* The name is the id's: perf's names are those of the HEADER_* bits. */
#define FEAT(id_, parse_, clear_)					\
	[PD_FEAT_##id_] = { .name = #id_, .parse = (parse_),		\
			    .clear = (clear_) }
#define FEAT_STR(id_, field_)						\
	[PD_FEAT_##id_] = { .name = #id_, .parse = parse_string,	\
			    .clear = clear_string,			\
			    .str = offsetof(struct pd_meta, field_) }

/*
 * The names are what perf prints in "missing features" and in "... info
 * available, use -I to display" (doc/perf-data-format.md §4.3).
 */
static const struct feat_ops feat_table[PD_FEAT_KNOWN] = {
	[PD_FEAT_RESERVED] = { .name = NULL, .parse = parse_flag },
	FEAT(TRACING_DATA,	parse_tracing_data,	clear_tracing_data),
	/* its records accumulate, with HEADER_BUILD_ID's: nothing to reset */
	FEAT(BUILD_ID,		pd_feat_parse_build_id,	NULL),
	FEAT_STR(HOSTNAME,	hostname),
	FEAT_STR(OSRELEASE,	os_release),
	FEAT_STR(VERSION,	version),
	FEAT_STR(ARCH,		arch),
	FEAT(NRCPUS,		parse_nrcpus,		clear_nrcpus),
	FEAT_STR(CPUDESC,	cpu_desc),
	FEAT_STR(CPUID,		cpuid),
	FEAT(TOTAL_MEM,		parse_total_mem,	clear_total_mem),
	FEAT(CMDLINE,		parse_cmdline,		clear_cmdline),
	FEAT(EVENT_DESC,	parse_event_desc,	clear_event_desc),
	FEAT(CPU_TOPOLOGY,	pd_feat_parse_cpu_topology,
				pd_feat_clear_cpu_topology),
	FEAT(NUMA_TOPOLOGY,	pd_feat_parse_numa_topology,
				pd_feat_clear_numa_topology),
	FEAT(BRANCH_STACK,	parse_flag,		NULL),
	FEAT(PMU_MAPPINGS,	parse_pmu_mappings,	clear_pmu_mappings),
	FEAT(GROUP_DESC,	parse_group_desc,	clear_group_desc),
	FEAT(AUXTRACE,		parse_auxtrace,		clear_auxtrace),
	FEAT(STAT,		parse_flag,		NULL),
	FEAT(CACHE,		pd_feat_parse_cache,	pd_feat_clear_cache),
	FEAT(SAMPLE_TIME,	parse_sample_time,	clear_sample_time),
	FEAT(MEM_TOPOLOGY,	pd_feat_parse_mem_topology,
				pd_feat_clear_mem_topology),
	FEAT(CLOCKID,		parse_clockid,		clear_clockid),
	FEAT(DIR_FORMAT,	parse_dir_format,	clear_dir_format),
	FEAT(BPF_PROG_INFO,	pd_feat_parse_bpf_prog_info,
				pd_feat_clear_bpf_prog_info),
	FEAT(BPF_BTF,		pd_feat_parse_bpf_btf,	pd_feat_clear_bpf_btf),
	FEAT(COMPRESSED,	parse_compressed,	clear_compressed),
	FEAT(CPU_PMU_CAPS,	parse_cpu_pmu_caps,	clear_cpu_pmu_caps),
	FEAT(CLOCK_DATA,	parse_clock_data,	clear_clock_data),
	FEAT(HYBRID_TOPOLOGY,	pd_feat_parse_hybrid_topology,
				pd_feat_clear_hybrid_topology),
	FEAT(PMU_CAPS,		parse_pmu_caps,		clear_pmu_caps),
	FEAT(CPU_DOMAIN_INFO,	pd_feat_parse_cpu_domain_info,
				pd_feat_clear_cpu_domain_info),
};

const struct feat_ops *
pd_feat_ops_of(unsigned int feat)
{
	if (feat >= ARRAY_SIZE(feat_table) || !feat_table[feat].parse)
		return NULL;
	return &feat_table[feat];
}

static void
mark(uint64_t *bits, unsigned int feat, bool on)
{
	if (on)
		bits[feat / 64] |= 1ULL << (feat % 64);
	else
		bits[feat / 64] &= ~(1ULL << (feat % 64));
}

int
pd_feature_parse(struct pd_meta *m, unsigned int feat, const void *buf,
		 size_t len, bool swap, char *why, size_t why_len)
{
	static const unsigned char none[1];
	struct feat_ctx x = {
		.m = m,
		.feat = feat,
		.why = why,
		.why_len = why_len,
	};
	const struct feat_ops *row;
	int err;

	if (why && why_len)
		why[0] = '\0';
	if (feat >= PD_FEAT_BITS)
		return pd_feat_fail(&x, -PD_E_INVAL, 0,
				 "feature id %u is beyond %u", feat,
				 PD_FEAT_BITS - 1);
	mark(m->features, feat, true);
	row = pd_feat_ops_of(feat);
	if (!row) {
		pd_meta_note_unknown_feature(m, feat);
		return 0;
	}
	if (row->clear)
		row->clear(m, feat);
	cur_init(&x.c, buf ? buf : none, buf ? len : 0, swap);
	err = row->parse(&x);
	if (err && row->clear)
		row->clear(m, feat);
	mark(m->bad_features, feat, err != 0);
	return err;
}
