/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/header.c - preport --header-only [-I]: the header as perf 6.1's
 * `perf report --header-only [-I]` prints it, byte for byte.
 *
 * perf prints the file header, then one block per feature in bit order,
 * from what it stored while processing the features (util/header.c).
 * In file mode the blocks come after all features were processed, and
 * perf stops processing at the first feature that fails, so the later
 * blocks show empty values; in pipe mode each block is printed as its
 * HEADER_FEATURE record arrives and a failure ends the stream.  Both
 * behaviours are reproduced, including the checks perf 6.1 makes that
 * pdata's parsers do not (socket ids, cpu lists, group layout).
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "pdata/reader.h"
#include "report/report.h"

/* perf 6.1's HEADER_LAST_FEATURE: features are 1..31, 32 ends a stream */
#define LAST_FEATURE_61		PD_FEAT_LAST_61

/* perf 6.1's sizeof(struct bpf_prog_info); longer ones fail processing */
#define BPF_PROG_INFO_SIZE_61	232

/* the masks of perf 6.1's perf_attr_check() */
#define SAMPLE_MAX_61		(1ULL << 25)
#define FORMAT_MAX_61		(1ULL << 5)
#define BRANCH_MAX_61		(1ULL << 19)
#define ATTR_FLAGS_61		38	/* flags after sigtrap are reserved */

struct hdr {
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
};

/* What a feature looks like when perf did not process it. */
static const struct pd_meta no_meta;

static bool
has_bit(const uint64_t *bits, unsigned int feat)
{
	return (bits[feat / 64] >> (feat % 64)) & 1;
}

/* perf's attr printer: perf_event_attr__fprintf() of perf 6.1 */

struct bit_name {
	uint64_t bit;
	const char *name;
};

static const struct bit_name sample_type_names[] = {
	{ PD_SAMPLE_IP, "IP" },
	{ PD_SAMPLE_TID, "TID" },
	{ PD_SAMPLE_TIME, "TIME" },
	{ PD_SAMPLE_ADDR, "ADDR" },
	{ PD_SAMPLE_READ, "READ" },
	{ PD_SAMPLE_CALLCHAIN, "CALLCHAIN" },
	{ PD_SAMPLE_ID, "ID" },
	{ PD_SAMPLE_CPU, "CPU" },
	{ PD_SAMPLE_PERIOD, "PERIOD" },
	{ PD_SAMPLE_STREAM_ID, "STREAM_ID" },
	{ PD_SAMPLE_RAW, "RAW" },
	{ PD_SAMPLE_BRANCH_STACK, "BRANCH_STACK" },
	{ PD_SAMPLE_REGS_USER, "REGS_USER" },
	{ PD_SAMPLE_STACK_USER, "STACK_USER" },
	{ PD_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ PD_SAMPLE_REGS_INTR, "REGS_INTR" },
	{ PD_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ PD_SAMPLE_WEIGHT, "WEIGHT" },
	{ PD_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ PD_SAMPLE_AUX, "AUX" },
	{ PD_SAMPLE_CGROUP, "CGROUP" },
	{ PD_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ PD_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ PD_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ 0, NULL },
};

static const struct bit_name branch_type_names[] = {
	{ PD_BRANCH_USER, "USER" },
	{ PD_BRANCH_KERNEL, "KERNEL" },
	{ PD_BRANCH_HV, "HV" },
	{ PD_BRANCH_ANY, "ANY" },
	{ PD_BRANCH_ANY_CALL, "ANY_CALL" },
	{ PD_BRANCH_ANY_RETURN, "ANY_RETURN" },
	{ PD_BRANCH_IND_CALL, "IND_CALL" },
	{ PD_BRANCH_ABORT_TX, "ABORT_TX" },
	{ PD_BRANCH_IN_TX, "IN_TX" },
	{ PD_BRANCH_NO_TX, "NO_TX" },
	{ PD_BRANCH_COND, "COND" },
	{ PD_BRANCH_CALL_STACK, "CALL_STACK" },
	{ PD_BRANCH_IND_JUMP, "IND_JUMP" },
	{ PD_BRANCH_CALL, "CALL" },
	{ PD_BRANCH_NO_FLAGS, "NO_FLAGS" },
	{ PD_BRANCH_NO_CYCLES, "NO_CYCLES" },
	{ PD_BRANCH_TYPE_SAVE, "TYPE_SAVE" },
	{ PD_BRANCH_HW_INDEX, "HW_INDEX" },
	{ PD_BRANCH_PRIV_SAVE, "PRIV_SAVE" },
	{ 0, NULL },
};

static const struct bit_name read_format_names[] = {
	{ PD_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ PD_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ PD_FORMAT_ID, "ID" },
	{ PD_FORMAT_GROUP, "GROUP" },
	{ PD_FORMAT_LOST, "LOST" },
	{ 0, NULL },
};

/* the 1-bit flags in perf 6.1's print order; precise_ip is 2 bits */
static const char *const flag_names[ATTR_FLAGS_61] = {
	[PD_ATTR_DISABLED] = "disabled",
	[PD_ATTR_INHERIT] = "inherit",
	[PD_ATTR_PINNED] = "pinned",
	[PD_ATTR_EXCLUSIVE] = "exclusive",
	[PD_ATTR_EXCLUDE_USER] = "exclude_user",
	[PD_ATTR_EXCLUDE_KERNEL] = "exclude_kernel",
	[PD_ATTR_EXCLUDE_HV] = "exclude_hv",
	[PD_ATTR_EXCLUDE_IDLE] = "exclude_idle",
	[PD_ATTR_MMAP] = "mmap",
	[PD_ATTR_COMM] = "comm",
	[PD_ATTR_FREQ] = "freq",
	[PD_ATTR_INHERIT_STAT] = "inherit_stat",
	[PD_ATTR_ENABLE_ON_EXEC] = "enable_on_exec",
	[PD_ATTR_TASK] = "task",
	[PD_ATTR_WATERMARK] = "watermark",
	[PD_ATTR_PRECISE_IP] = "precise_ip",
	[PD_ATTR_MMAP_DATA] = "mmap_data",
	[PD_ATTR_SAMPLE_ID_ALL] = "sample_id_all",
	[PD_ATTR_EXCLUDE_HOST] = "exclude_host",
	[PD_ATTR_EXCLUDE_GUEST] = "exclude_guest",
	[PD_ATTR_EXCLUDE_CALLCHAIN_KERNEL] = "exclude_callchain_kernel",
	[PD_ATTR_EXCLUDE_CALLCHAIN_USER] = "exclude_callchain_user",
	[PD_ATTR_MMAP2] = "mmap2",
	[PD_ATTR_COMM_EXEC] = "comm_exec",
	[PD_ATTR_USE_CLOCKID] = "use_clockid",
	[PD_ATTR_CONTEXT_SWITCH] = "context_switch",
	[PD_ATTR_WRITE_BACKWARD] = "write_backward",
	[PD_ATTR_NAMESPACES] = "namespaces",
	[PD_ATTR_KSYMBOL] = "ksymbol",
	[PD_ATTR_BPF_EVENT] = "bpf_event",
	[PD_ATTR_AUX_OUTPUT] = "aux_output",
	[PD_ATTR_CGROUP] = "cgroup",
	[PD_ATTR_TEXT_POKE] = "text_poke",
	[PD_ATTR_BUILD_ID] = "build_id",
	[PD_ATTR_INHERIT_THREAD] = "inherit_thread",
	[PD_ATTR_REMOVE_ON_EXEC] = "remove_on_exec",
	[PD_ATTR_SIGTRAP] = "sigtrap",
};

/*
 * perf formats every value into one buffer; a bit set whose bits all lack
 * a name writes nothing, and the previous field's text is printed again.
 */
struct attr_out {
	FILE *out;
	char buf[1024];
};

static void
attr_field(struct attr_out *a, const char *name)
{
	fprintf(a->out, ", %s = %s", name, a->buf);
}

static void
attr_unsigned(struct attr_out *a, const char *name, uint64_t v)
{
	if (!v)
		return;
	snprintf(a->buf, sizeof(a->buf), "%" PRIu64, v);
	attr_field(a, name);
}

static void
attr_hex(struct attr_out *a, const char *name, uint64_t v)
{
	if (!v)
		return;
	snprintf(a->buf, sizeof(a->buf), "%#" PRIx64, v);
	attr_field(a, name);
}

static void
attr_bits(struct attr_out *a, const char *name, uint64_t v,
	  const struct bit_name *names)
{
	size_t len = 0;

	if (!v)
		return;
	for (; names->name; names++) {
		if (!(v & names->bit))
			continue;
		len += (size_t)snprintf(a->buf + len, sizeof(a->buf) - len,
					"%s%s", len ? "|" : "", names->name);
		if (len >= sizeof(a->buf))
			len = sizeof(a->buf) - 1;
	}
	attr_field(a, name);
}

static void
print_attr(FILE *out, const struct pd_attr *attr)
{
	struct attr_out a = { .out = out, .buf = "" };
	unsigned int bit;

	attr_unsigned(&a, "type", attr->type);
	attr_unsigned(&a, "size", attr->size);
	attr_hex(&a, "config", attr->config);
	attr_unsigned(&a, "{ sample_period, sample_freq }",
		      attr->sample_period);
	attr_bits(&a, "sample_type", attr->sample_type, sample_type_names);
	attr_bits(&a, "read_format", attr->read_format, read_format_names);
	for (bit = 0; bit < ATTR_FLAGS_61; bit++) {
		if (!flag_names[bit])
			continue;
		if (bit == PD_ATTR_PRECISE_IP)
			attr_unsigned(&a, flag_names[bit],
				      pd_attr_precise_ip(attr));
		else
			attr_unsigned(&a, flag_names[bit],
				      (attr->flags >> bit) & 1);
	}
	attr_unsigned(&a, "{ wakeup_events, wakeup_watermark }",
		      attr->wakeup_events);
	attr_unsigned(&a, "bp_type", attr->bp_type);
	attr_hex(&a, "{ bp_addr, config1 }", attr->config1);
	attr_hex(&a, "{ bp_len, config2 }", attr->config2);
	attr_bits(&a, "branch_sample_type", attr->branch_sample_type,
		  branch_type_names);
	attr_hex(&a, "sample_regs_user", attr->sample_regs_user);
	attr_unsigned(&a, "sample_stack_user", attr->sample_stack_user);
	if (attr->clockid) {
		snprintf(a.buf, sizeof(a.buf), "%" PRId64,
			 (int64_t)attr->clockid);
		attr_field(&a, "clockid");
	}
	attr_hex(&a, "sample_regs_intr", attr->sample_regs_intr);
	attr_unsigned(&a, "aux_watermark", attr->aux_watermark);
	attr_unsigned(&a, "sample_max_stack", attr->sample_max_stack);
	attr_unsigned(&a, "aux_sample_size", attr->aux_sample_size);
	attr_unsigned(&a, "sig_data", attr->sig_data);
}

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

static bool
event_desc_ok_61(const struct pd_meta *m)
{
	size_t i;

	if (has_bit(m->bad_features, PD_FEAT_EVENT_DESC))
		return false;
	for (i = 0; i < m->nr_event_desc; i++)
		if (!attr_ok_61(&m->event_desc[i].attr))
			return false;
	return true;
}

/* cpu lists, read as perf_cpu_map__new() and written as cpu_map__snprint() */

struct cpu_range {
	unsigned long start, end;
};

static int
range_cmp(const void *a, const void *b)
{
	const struct cpu_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * Parse s into sorted, non-overlapping ranges.  Returns false where perf
 * gets no map (a bad list or a repeated cpu); "" gives the one-cpu map
 * {-1}, which *dummy reports.
 */
static bool
cpulist_parse(const char *s, struct cpu_range **out, size_t *nr, bool *dummy)
{
	struct cpu_range *r;
	size_t n = 0, i;

	*out = NULL;
	*nr = 0;
	*dummy = false;
	if (!*s) {
		*dummy = true;
		return true;
	}
	if (!isdigit((unsigned char)*s))
		return false;
	r = xcalloc(strlen(s) / 2 + 1, sizeof(*r));
	while (isdigit((unsigned char)*s)) {
		char *p;
		unsigned long start = strtoul(s, &p, 0), end = start;

		if (start >= INT_MAX || (*p && *p != ',' && *p != '-'))
			goto bad;
		if (*p == '-') {
			s = p + 1;
			end = strtoul(s, &p, 0);
			if (end >= INT_MAX || (*p && *p != ',') || end < start)
				goto bad;
		}
		r[n].start = start;
		r[n].end = end;
		n++;
		if (*p)
			p++;
		s = p;
	}
	qsort(r, n, sizeof(*r), range_cmp);
	for (i = 1; i < n; i++)
		if (r[i].start <= r[i - 1].end)
			goto bad;
	*out = r;
	*nr = n;
	return true;
bad:
	free(r);
	return false;
}

/* cpu_map__snprint() into a 1024-byte buffer */
static void
cpulist_print(FILE *out, const struct cpu_range *r, size_t nr, bool dummy)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0;

	if (dummy)
		sb_add(&sb, "-1");
	while (i < nr) {
		unsigned long start = r[i].start, end = r[i].end;

		while (i + 1 < nr && r[i + 1].start == end + 1)
			end = r[++i].end;
		if (start == end)
			sb_addf(&sb, "%s%lu", sb.len ? "," : "", start);
		else
			sb_addf(&sb, "%s%lu-%lu", sb.len ? "," : "", start,
				end);
		i++;
	}
	fprintf(out, "%.1023s\n", sb.len ? sb_str(&sb) : "");
	sb_free(&sb);
}

static bool
cpulist_ok_61(const char *s)
{
	struct cpu_range *r;
	size_t nr;
	bool dummy, ok = cpulist_parse(s ? s : "", &r, &nr, &dummy);

	free(r);
	return ok;
}

/* The other decisions perf 6.1 makes while processing features */

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
static bool
groups_walk_61(struct hdr *h, const struct pd_meta *m, long *desc_of)
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
groups_ok_61(struct hdr *h, const struct pd_meta *m)
{
	size_t nr_ev = pd_reader_nr_evsels(h->r);
	long *desc_of = xcalloc(nr_ev ? nr_ev : 1, sizeof(*desc_of));
	bool ok = groups_walk_61(h, m, desc_of);

	free(desc_of);
	return ok;
}

static bool
bpf_progs_ok_61(const struct pd_meta *m, size_t *nr_ok)
{
	size_t i;

	for (i = 0; i < m->nr_bpf_progs; i++)
		if (m->bpf_progs[i].info_len > BPF_PROG_INFO_SIZE_61)
			break;
	*nr_ok = i;
	return i == m->nr_bpf_progs;
}

/* Does perf 6.1's processing of this feature fail (and stop the rest)? */
static bool
perf_fails(struct hdr *h, unsigned int feat)
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
		       has_bit(m->bad_features, feat);
	default:
		break;
	}
	if (has_bit(m->bad_features, feat))
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
		return !h->info->swap && !bpf_progs_ok_61(m, &n);
	default:
		return false;
	}
}

/* The feature printers */

static void
print_string(struct hdr *h, const char *label, const char *s)
{
	fprintf(h->out, "# %s : %s\n", label, s ? s : "(null)");
}

static void
print_hostname(struct hdr *h, const struct pd_meta *m, bool failed)
{
	print_string(h, "hostname", failed ? NULL : m->hostname);
}

static void
print_osrelease(struct hdr *h, const struct pd_meta *m, bool failed)
{
	print_string(h, "os release", failed ? NULL : m->os_release);
}

static void
print_version(struct hdr *h, const struct pd_meta *m, bool failed)
{
	print_string(h, "perf version", failed ? NULL : m->version);
}

static void
print_arch(struct hdr *h, const struct pd_meta *m, bool failed)
{
	print_string(h, "arch", failed ? NULL : m->arch);
}

static void
print_cpudesc(struct hdr *h, const struct pd_meta *m, bool failed)
{
	print_string(h, "cpudesc", failed ? NULL : m->cpu_desc);
}

static void
print_cpuid(struct hdr *h, const struct pd_meta *m, bool failed)
{
	print_string(h, "cpuid", failed ? NULL : m->cpuid);
}

static void
print_nrcpus(struct hdr *h, const struct pd_meta *m, bool failed)
{
	if (failed)
		m = &no_meta;
	fprintf(h->out, "# nrcpus online : %u\n", m->nr_cpus_online);
	fprintf(h->out, "# nrcpus avail : %u\n", m->nr_cpus_avail);
}

static void
print_total_mem(struct hdr *h, const struct pd_meta *m, bool failed)
{
	if (failed)
		m = &no_meta;
	fprintf(h->out, "# total memory : %" PRIu64 " kB\n", m->total_mem_kb);
}

/* each argument and a space, with ' printed as \' */
static void
print_cmdline(struct hdr *h, const struct pd_meta *m, bool failed)
{
	size_t i;

	if (failed)
		m = &no_meta;
	fputs("# cmdline : ", h->out);
	for (i = 0; i < m->cmdline.nr; i++) {
		const char *s;

		for (s = m->cmdline.s[i]; *s; s++) {
			if (*s == '\'')
				fputs("\\'", h->out);
			else
				fputc(*s, h->out);
		}
		fputc(' ', h->out);
	}
	fputc('\n', h->out);
}

/*
 * perf re-reads EVENT_DESC from the file to print it, whatever its
 * processing did, and stops at an attr whose size field is 0.
 */
static void
print_event_desc(struct hdr *h, const struct pd_meta *m, bool failed)
{
	size_t i, j;

	(void)failed;
	m = h->m;
	if (!event_desc_ok_61(m)) {
		fputs("# event desc: not available or unable to read\n",
		      h->out);
		return;
	}
	for (i = 0; i < m->nr_event_desc; i++) {
		const struct pd_event_desc *e = &m->event_desc[i];

		if (!e->attr.size)
			break;
		fprintf(h->out, "# event : name = %s, ", e->name);
		if (e->nr_ids) {
			fputs(", id = {", h->out);
			for (j = 0; j < e->nr_ids; j++)
				fprintf(h->out, "%s %" PRIu64, j ? "," : "",
					e->ids[j]);
			fputs(" }", h->out);
		}
		print_attr(h->out, &e->attr);
		fputc('\n', h->out);
	}
}

static void
print_cpu_topology(struct hdr *h, const struct pd_meta *m, bool failed)
{
	/* a failed socket check leaves the lists but frees the ids */
	bool ids = m->topo_has_ids && !failed;
	bool dies = m->topo_has_die && !failed && m->die_cpus.nr;
	int cpu_nr = (int)m->nr_cpus_avail;
	size_t i;
	int c;

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

static void
print_numa_topology(struct hdr *h, const struct pd_meta *m, bool failed)
{
	size_t i;

	if (failed)
		return;
	for (i = 0; i < m->nr_numa_nodes; i++) {
		const struct pd_numa_node *n = &m->numa_nodes[i];
		struct cpu_range *r;
		size_t nr;
		bool dummy;

		fprintf(h->out,
			"# node%u meminfo  : total = %" PRIu64
			" kB, free = %" PRIu64 " kB\n",
			n->node, n->mem_total_kb, n->mem_free_kb);
		fprintf(h->out, "# node%u cpu list : ", n->node);
		if (cpulist_parse(n->cpus, &r, &nr, &dummy))
			cpulist_print(h->out, r, nr, dummy);
		else
			fputc('\n', h->out);
		free(r);
	}
}

static void
print_branch_stack(struct hdr *h, const struct pd_meta *m, bool failed)
{
	(void)m;
	(void)failed;
	fputs("# contains samples with branch stack\n", h->out);
}

static void
print_pmu_mappings(struct hdr *h, const struct pd_meta *m, bool failed)
{
	const char *sep = "# pmu mappings: ";
	size_t i;

	if (failed)
		m = &no_meta;
	if (!m->nr_pmu_mappings) {
		fputs("# pmu mappings: not available\n", h->out);
		return;
	}
	for (i = 0; i < m->nr_pmu_mappings; i++) {
		fprintf(h->out, "%s%s = %" PRIu32, sep, m->pmu_mappings[i].name,
			m->pmu_mappings[i].type);
		sep = ", ";
	}
	fputc('\n', h->out);
}

static const char *
evsel_name_61(struct hdr *h, const struct pd_evsel *ev)
{
	if (!h->desc_names && ev->auto_name)
		return ev->auto_name;
	return pd_evsel_name(ev);
}

/*
 * print_group_desc() walks the events with what processing left: a
 * leader of more than one event opens a line, and while members are due
 * any other event is printed as one (perf's loop, unclosed lines and all).
 */
static void
print_group_desc(struct hdr *h, const struct pd_meta *m, bool failed)
{
	size_t nr_ev = pd_reader_nr_evsels(h->r), idx;
	uint32_t nr = 0;
	long *desc_of;

	(void)failed;
	if (m == &no_meta)
		return;
	desc_of = xcalloc(nr_ev ? nr_ev : 1, sizeof(*desc_of));
	groups_walk_61(h, m, desc_of);
	for (idx = 0; idx < nr_ev; idx++) {
		const struct pd_evsel *ev = pd_reader_evsel(h->r, idx);
		const struct pd_group_desc *g =
			desc_of[idx] >= 0 ? &m->groups[desc_of[idx]] : NULL;

		if (g && g->nr_members > 1) {
			/* {anon_group} is perf's placeholder for no name */
			fprintf(h->out, "# group: %s{%s",
				strcmp(g->name, "{anon_group}") ? g->name : "",
				evsel_name_61(h, ev));
			nr = g->nr_members - 1;
		} else if (nr) {
			fprintf(h->out, ",%s", evsel_name_61(h, ev));
			if (--nr == 0)
				fputs("}\n", h->out);
		}
	}
	free(desc_of);
}

static void
print_auxtrace(struct hdr *h, const struct pd_meta *m, bool failed)
{
	(void)m;
	(void)failed;
	fputs("# contains AUX area data (e.g. instruction trace)\n", h->out);
}

static void
print_stat(struct hdr *h, const struct pd_meta *m, bool failed)
{
	(void)m;
	(void)failed;
	fputs("# contains stat data\n", h->out);
}

static void
print_cache(struct hdr *h, const struct pd_meta *m, bool failed)
{
	size_t i;

	if (failed)
		m = &no_meta;
	fputs("# CPU cache info:\n", h->out);
	for (i = 0; i < m->nr_caches; i++) {
		const struct pd_cache_level *c = &m->caches[i];

		fprintf(h->out, "#  L%d %-15s %8s [%s]\n", (int)c->level,
			c->type, c->size, c->map);
	}
}

static void
print_usec(FILE *out, const char *label, uint64_t ns)
{
	fprintf(out, "# %s : %" PRIu64 ".%06" PRIu64 "\n", label,
		ns / 1000000000, ns % 1000000000 / 1000);
}

static void
print_sample_time(struct hdr *h, const struct pd_meta *m, bool failed)
{
	if (failed)
		m = &no_meta;
	print_usec(h->out, "time of first sample", m->first_sample_time);
	print_usec(h->out, "time of last sample", m->last_sample_time);
	fprintf(h->out, "# sample duration : %10.3f ms\n",
		(double)(m->last_sample_time - m->first_sample_time) / 1000000);
}

/* unit_number__scnprintf(): step up while over 1 of the next unit is left */
static void
unit_number(char *buf, size_t size, uint64_t n)
{
	static const char units[] = "BKMG";
	int i = 0;

	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, size, "%" PRIu64 "%c", n, units[i]);
}

static bool
bitmap_test(const uint64_t *words, uint64_t bit)
{
	return (words[bit / 64] >> (bit % 64)) & 1;
}

static void
print_mem_node(struct hdr *h, const struct pd_mem_node *n, uint64_t bsize)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t bit, weight = 0, start;
	char size[50];

	for (bit = 0; bit < n->size; bit++) {
		if (!bitmap_test(n->bitmap, bit))
			continue;
		weight++;
		start = bit;
		while (bit + 1 < n->size && bitmap_test(n->bitmap, bit + 1)) {
			bit++;
			weight++;
		}
		sb_addf(&sb, "%s%" PRIu64, sb.len ? "," : "", start);
		if (bit > start)
			sb_addf(&sb, "-%" PRIu64, bit);
	}
	unit_number(size, sizeof(size), bsize * weight);
	/* bitmap_scnprintf() into a 100-byte buffer */
	fprintf(h->out, "#  %3" PRIu64 " [%s]: %.99s\n", n->node, size,
		sb.len ? sb_str(&sb) : "");
	sb_free(&sb);
}

static void
print_mem_topology(struct hdr *h, const struct pd_meta *m, bool failed)
{
	size_t i;

	if (failed)
		m = &no_meta;
	fprintf(h->out, "# memory nodes (nr %d, block size 0x%llx):\n",
		(int)m->nr_mem_nodes, (unsigned long long)m->mem_block_size);
	for (i = 0; i < m->nr_mem_nodes; i++)
		print_mem_node(h, &m->mem_nodes[i], m->mem_block_size);
}

static void
print_clockid(struct hdr *h, const struct pd_meta *m, bool failed)
{
	if (failed)
		m = &no_meta;
	/* sic: perf 6.1 multiplies the resolution in ns by 1000 */
	fprintf(h->out, "# clockid frequency: %" PRIu64 " MHz\n",
		m->clockid_res_ns * 1000);
}

static void
print_dir_format(struct hdr *h, const struct pd_meta *m, bool failed)
{
	uint64_t version = 0;

	/* perf keeps the version only when reading a directory */
	if (!failed && h->info->mode == PD_MODE_DIR)
		version = m->dir_format_version;
	fprintf(h->out, "# directory data version : %" PRIu64 "\n", version);
}

static int
bpf_prog_cmp(const void *a, const void *b)
{
	const struct pd_bpf_prog_info *x =
		*(const struct pd_bpf_prog_info *const *)a;
	const struct pd_bpf_prog_info *y =
		*(const struct pd_bpf_prog_info *const *)b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* synthesize_bpf_prog_name(): bpf_prog_<tag>[_<name>] */
static void
bpf_prog_name(struct strbuf *sb, const struct pd_bpf_prog_info *p,
	      const struct pd_bpf_subprog *sp, const struct pd_bpf_btf *btf,
	      uint32_t sub_id)
{
	const char *short_name = NULL;
	size_t i;

	sb_reset(sb);
	sb_add(sb, "bpf_prog_");
	for (i = 0; i < PD_BPF_TAG_SIZE; i++)
		sb_addf(sb, "%02x", sp->tag[i]);
	if (btf) {
		if (sp->has_func)
			short_name = pd_btf_type_name(btf, sp->func_type_id);
	} else if (sub_id == 0 && p->nr_jited_ksyms == 1) {
		if (p->name[0])
			short_name = p->name;
	} else {
		short_name = "F";
	}
	if (short_name)
		sb_addf(sb, "_%s", short_name);
}

static void
print_one_bpf_prog(struct hdr *h, const struct pd_bpf_prog_info *p,
		   const struct pd_meta *m)
{
	const struct pd_bpf_btf *btf = NULL;
	struct strbuf name = STRBUF_INIT;
	struct pd_bpf_subprog sp;
	uint32_t i, cnt = p->nr_jited_ksyms;

	if (cnt != p->nr_prog_tags || cnt != p->nr_jited_func_lens)
		return;
	for (i = 0; i < cnt; i++)
		if (pd_bpf_subprog_get(p, i, &sp))
			return;
	/* libbpf's btf__new() must accept the blob for the names to be used */
	if (p->btf_id && h->btf_ready) {
		btf = pd_meta_find_btf(m, p->btf_id);
		if (btf && !pd_btf_type_name(btf, 0))
			btf = NULL;
	}
	if (cnt == 1) {
		pd_bpf_subprog_get(p, 0, &sp);
		bpf_prog_name(&name, p, &sp, btf, 0);
		fprintf(h->out,
			"# bpf_prog_info %u: %s addr 0x%" PRIx64 " size %u\n",
			p->id, sb_str(&name), sp.addr, sp.len);
	} else {
		fprintf(h->out, "# bpf_prog_info %u:\n", p->id);
		for (i = 0; i < cnt; i++) {
			pd_bpf_subprog_get(p, i, &sp);
			bpf_prog_name(&name, p, &sp, btf, i);
			fprintf(h->out,
				"# \tsub_prog %u: %s addr 0x%" PRIx64
				" size %u\n",
				i, sb_str(&name), sp.addr, sp.len);
		}
	}
	sb_free(&name);
}

/*
 * perf keeps the programs in a tree by id (the first of a duplicate id
 * wins) and refuses both BPF features in a file of the other byte order.
 */
static void
print_bpf_prog_info(struct hdr *h, const struct pd_meta *m, bool failed)
{
	const struct pd_bpf_prog_info **progs;
	size_t nr_ok, i, n = 0;

	if (h->info->swap ||
	    (failed && has_bit(m->bad_features, PD_FEAT_BPF_PROG_INFO)))
		return;
	bpf_progs_ok_61(m, &nr_ok);
	progs = xcalloc(nr_ok ? nr_ok : 1, sizeof(*progs));
	for (i = 0; i < nr_ok; i++)
		progs[i] = &m->bpf_progs[i];
	/* a stable sort keeps the first of equal ids first */
	for (i = 1; i < nr_ok; i++) {
		const struct pd_bpf_prog_info *p = progs[i];
		size_t j = i;

		while (j > 0 && bpf_prog_cmp(&progs[j - 1], &p) > 0) {
			progs[j] = progs[j - 1];
			j--;
		}
		progs[j] = p;
	}
	for (i = 0; i < nr_ok; i++) {
		if (n && progs[n - 1]->id == progs[i]->id)
			continue;
		progs[n++] = progs[i];
	}
	for (i = 0; i < n; i++)
		print_one_bpf_prog(h, progs[i], m);
	free(progs);
}

static void
print_bpf_btf(struct hdr *h, const struct pd_meta *m, bool failed)
{
	uint32_t *ids;
	size_t i, j, n = 0;

	if (h->info->swap || failed)
		return;
	ids = xcalloc(m->nr_bpf_btfs ? m->nr_bpf_btfs : 1, sizeof(*ids));
	for (i = 0; i < m->nr_bpf_btfs; i++) {
		uint32_t id = m->bpf_btfs[i].id;

		for (j = n; j > 0 && ids[j - 1] > id; j--)
			;
		if (j > 0 && ids[j - 1] == id)
			continue;
		memmove(ids + j + 1, ids + j, (n - j) * sizeof(*ids));
		ids[j] = id;
		n++;
	}
	for (i = 0; i < n; i++)
		fprintf(h->out, "# btf info of id %u\n", ids[i]);
	free(ids);
}

static void
print_compressed(struct hdr *h, const struct pd_meta *m, bool failed)
{
	if (failed)
		m = &no_meta;
	fprintf(h->out, "# compressed : %s, level = %d, ratio = %d\n",
		m->comp_type == PD_COMP_ZSTD ? "Zstd" : "Unknown",
		(int)m->comp_level, (int)m->comp_ratio);
}

static void
print_caps(struct hdr *h, const char *pmu, const struct pd_cap *caps, size_t nr)
{
	size_t i;

	if (!nr) {
		fprintf(h->out, "# %s pmu capabilities: not available\n", pmu);
		return;
	}
	fprintf(h->out, "# %s pmu capabilities: ", pmu);
	for (i = 0; i < nr; i++)
		fprintf(h->out, "%s%s=%s", i ? ", " : "", caps[i].name,
			caps[i].value);
	fputc('\n', h->out);
}

static void
print_cpu_pmu_caps(struct hdr *h, const struct pd_meta *m, bool failed)
{
	if (failed)
		m = &no_meta;
	print_caps(h, "cpu", m->cpu_pmu_caps, m->nr_cpu_pmu_caps);
}

static const char *
clockid_name_61(uint32_t clockid)
{
	switch (clockid) {
	case 1:
		return "monotonic";
	case 4:
		return "monotonic_raw";
	case 0:
		return "realtime";
	case 7:
		return "boottime";
	case 11:
		return "tai";
	default:
		return "(not found)";
	}
}

static void
print_clock_data(struct hdr *h, const struct pd_meta *m, bool failed)
{
	const char *name;
	uint64_t tod_sec, tod_usec, ck_sec, ck_nsec;
	char date[64], tstr[80];
	struct tm tm;
	time_t t;

	if (failed || !m->clock_data_version) {
		fputs("# reference time disabled\n", h->out);
		return;
	}
	tod_sec = m->clock_tod_ns / 1000000000;
	tod_usec = m->clock_tod_ns % 1000000000 / 1000;
	ck_sec = m->clock_clockid_ns / 1000000000;
	ck_nsec = m->clock_clockid_ns % 1000000000;
	name = clockid_name_61(m->clock_data_clockid);
	t = (time_t)tod_sec;
	if (!localtime_r(&t, &tm)) {
		snprintf(tstr, sizeof(tstr), "<error>");
	} else {
		strftime(date, sizeof(date), "%F %T", &tm);
		snprintf(tstr, sizeof(tstr), "%s.%06d", date, (int)tod_usec);
	}
	fprintf(h->out, "# clockid: %s (%u)\n", name, m->clock_data_clockid);
	fprintf(h->out,
		"# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n",
		tstr, (long)tod_sec, (int)tod_usec, (long)ck_sec, (long)ck_nsec,
		name);
}

static void
print_hybrid_topology(struct hdr *h, const struct pd_meta *m, bool failed)
{
	size_t i;

	if (failed)
		m = &no_meta;
	fputs("# hybrid cpu system:\n", h->out);
	for (i = 0; i < m->nr_hybrid_nodes; i++)
		fprintf(h->out, "# %s cpu list : %s\n",
			m->hybrid_nodes[i].pmu_name, m->hybrid_nodes[i].cpus);
}

static void
print_pmu_caps(struct hdr *h, const struct pd_meta *m, bool failed)
{
	size_t i;

	if (failed)
		return;
	for (i = 0; i < m->nr_pmu_caps; i++)
		print_caps(h, m->pmu_caps[i].pmu_name, m->pmu_caps[i].caps,
			   m->pmu_caps[i].nr_caps);
}

struct feat_printer {
	/* failed: perf's processing of this feature failed; m may be no_meta */
	void (*print)(struct hdr *h, const struct pd_meta *m, bool failed);
	bool full_only;		/* printed only with -I */
	bool no_process;	/* perf 6.1 has no process hook: pipes skip it */
};

/* perf 6.1's feat_ops[]: TRACING_DATA and BUILD_ID print nothing */
#define FEAT(id_, print_, full_, process_)				\
	[PD_FEAT_##id_] = { .print = (print_), .full_only = (full_),	\
			    .no_process = !(process_) }

static const struct feat_printer printers[LAST_FEATURE_61] = {
	FEAT(HOSTNAME,		print_hostname,			false, true),
	FEAT(OSRELEASE,		print_osrelease,		false, true),
	FEAT(VERSION,		print_version,			false, true),
	FEAT(ARCH,		print_arch,			false, true),
	FEAT(NRCPUS,		print_nrcpus,			false, true),
	FEAT(CPUDESC,		print_cpudesc,			false, true),
	FEAT(CPUID,		print_cpuid,			false, true),
	FEAT(TOTAL_MEM,		print_total_mem,		false, true),
	FEAT(CMDLINE,		print_cmdline,			false, true),
	FEAT(EVENT_DESC,	print_event_desc,		false, true),
	FEAT(CPU_TOPOLOGY,	print_cpu_topology,		true, true),
	FEAT(NUMA_TOPOLOGY,	print_numa_topology,		true, true),
	FEAT(BRANCH_STACK,	print_branch_stack,		false, false),
	FEAT(PMU_MAPPINGS,	print_pmu_mappings,		false, true),
	FEAT(GROUP_DESC,	print_group_desc,		false, true),
	FEAT(AUXTRACE,		print_auxtrace,			false, true),
	FEAT(STAT,		print_stat,			false, false),
	FEAT(CACHE,		print_cache,			true, true),
	FEAT(SAMPLE_TIME,	print_sample_time,		false, true),
	FEAT(MEM_TOPOLOGY,	print_mem_topology,		true, true),
	FEAT(CLOCKID,		print_clockid,			false, true),
	FEAT(DIR_FORMAT,	print_dir_format,		false, true),
	FEAT(BPF_PROG_INFO,	print_bpf_prog_info,		false, true),
	FEAT(BPF_BTF,		print_bpf_btf,			false, true),
	FEAT(COMPRESSED,	print_compressed,		false, true),
	FEAT(CPU_PMU_CAPS,	print_cpu_pmu_caps,		false, true),
	FEAT(CLOCK_DATA,	print_clock_data,		false, true),
	FEAT(HYBRID_TOPOLOGY,	print_hybrid_topology,		true, true),
	FEAT(PMU_CAPS,		print_pmu_caps,			false, true),
};

static void
print_feature(struct hdr *h, unsigned int feat, const struct pd_meta *m,
	      bool failed)
{
	const struct feat_printer *p = &printers[feat];

	if (!p->print)
		return;
	if (p->full_only && !h->show_info)
		fprintf(h->out, "# %s info available, use -I to display\n",
			pd_feature_name(feat));
	else
		p->print(h, m, failed);
}

static void
print_file_header(struct hdr *h)
{
	const struct pd_file_info *info = h->info;
	time_t t = info->mtime_sec;
	char when[64];

	if (!ctime_r(&t, when))
		snprintf(when, sizeof(when), "?\n");
	fputs("# ========\n", h->out);
	fprintf(h->out, "# captured on    : %s", when);
	fprintf(h->out, "# header version : %u\n",
		info->version ? info->version - 1 : 0);
	/* perf knows no offsets in a stream */
	fprintf(h->out, "# data offset    : %" PRIu64 "\n",
		h->pipe ? 0 : info->data_offset);
	fprintf(h->out, "# data size      : %" PRIu64 "\n",
		h->pipe ? 0 : info->data_size);
	fprintf(h->out, "# feat offset    : %" PRIu64 "\n",
		h->pipe ? 0 : info->feat_offset);
}

static void
print_file_features(struct hdr *h)
{
	const struct pd_meta *m = h->m;
	unsigned int feat, fail_at = LAST_FEATURE_61;

	for (feat = 1; feat < LAST_FEATURE_61 && fail_at == LAST_FEATURE_61;
	     feat++)
		if (pd_meta_has(m, feat) && perf_fails(h, feat))
			fail_at = feat;
	h->desc_names = pd_meta_has(m, PD_FEAT_EVENT_DESC) &&
			fail_at > PD_FEAT_EVENT_DESC && event_desc_ok_61(m);
	h->btf_ready = fail_at > PD_FEAT_BPF_BTF;
	for (feat = 1; feat < LAST_FEATURE_61; feat++) {
		if (!pd_meta_has(m, feat))
			continue;
		if (feat < fail_at)
			print_feature(h, feat, m, false);
		else if (feat == fail_at)
			print_feature(h, feat, m, true);
		else
			print_feature(h, feat, &no_meta, true);
	}
	fputs("# missing features: ", h->out);
	for (feat = 1; feat < LAST_FEATURE_61; feat++)
		if (!pd_meta_has(m, feat))
			fprintf(h->out, "%s ", pd_feature_name(feat));
	fputc('\n', h->out);
}

/* The feature id of a HEADER_FEATURE record (u64 after the header). */
static uint64_t
record_feat_id(const struct pd_record *rec)
{
	uint64_t v;

	memcpy(&v, rec->data + 8, sizeof(v));
	return rec->swap ? __builtin_bswap64(v) : v;
}

/*
 * Pipe mode: perf prints each feature as its HEADER_FEATURE record is
 * processed, and stops at the end marker, at an id it does not know, or
 * when processing a feature fails.
 */
static int
print_pipe_features(struct hdr *h)
{
	struct pd_record rec;
	int err;

	h->desc_names = false;
	h->btf_ready = false;
	while ((err = pd_reader_next(h->r, &rec)) > 0) {
		uint64_t feat;

		if (rec.header.type != PD_RECORD_HEADER_FEATURE ||
		    rec.size < 16)
			continue;
		feat = record_feat_id(&rec);
		if (feat == PD_FEAT_RESERVED || feat >= LAST_FEATURE_61)
			return 0;
		if (printers[feat].no_process || !printers[feat].print)
			continue;
		if (perf_fails(h, (unsigned int)feat))
			return 0;
		if (feat == PD_FEAT_EVENT_DESC)
			h->desc_names = event_desc_ok_61(h->m);
		print_feature(h, (unsigned int)feat, h->m, false);
		if (feat == PD_FEAT_BPF_BTF)
			h->btf_ready = true;
	}
	return err;
}

int
rep_header_print(FILE *out, struct pd_reader *r, bool show_info)
{
	struct hdr h = {
		.out = out,
		.r = r,
		.info = pd_reader_info(r),
		.m = pd_reader_meta(r),
		.show_info = show_info,
	};

	h.pipe = h.info->mode == PD_MODE_PIPE;
	print_file_header(&h);
	if (h.pipe) {
		fputs("# ========\n#\n", out);
		return print_pipe_features(&h);
	}
	print_file_features(&h);
	fputs("# ========\n#\n", out);
	return 0;
}
