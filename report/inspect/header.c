/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/header.c - preport --header-only [-I] and --header [-I]:
 * the header as perf 6.1's `perf report --header-only [-I]` prints it,
 * byte for byte.
 *
 * perf prints the file header, then one block per feature in bit order,
 * from what it stored while processing the features (util/header.c).
 * In file mode the blocks come after all features were processed, and
 * perf stops processing at the first feature that fails, so the later
 * blocks show empty values; in pipe mode each block is printed as its
 * HEADER_FEATURE record arrives and a failure ends the stream.  Both
 * behaviours are reproduced, including the checks perf 6.1 makes that
 * pdata's parsers do not (socket ids, cpu lists, group layout).
 *
 * This file holds the file header, the table of feature printers and the
 * two orders of printing; the printers and checks are in header-*.c.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/xalloc.h"
#include "pdata/events.h"
#include "pdata/reader.h"
#include "report/inspect/header-int.h"
#include "report/inspect/inspect.h"

const struct pd_meta rep_no_meta;

struct feat_printer {
	/* failed: perf's processing of it failed; m may be &rep_no_meta */
	void (*print)(struct rep_hdr *h, const struct pd_meta *m, bool failed);
	bool full_only;		/* printed only with -I */
	bool no_process;	/* no process hook in perf 6.1: pipes skip it */
};

/* perf 6.1's feat_ops[]: TRACING_DATA and BUILD_ID print nothing */
#define FEAT(id_, print_, full_, process_)				\
	[PD_FEAT_##id_] = { .print = (print_), .full_only = (full_),	\
			    .no_process = !(process_) }

static const struct feat_printer printers[LAST_FEATURE_61] = {
	FEAT(HOSTNAME,		rep_feat_hostname_print,	false, true),
	FEAT(OSRELEASE,		rep_feat_osrelease_print,	false, true),
	FEAT(VERSION,		rep_feat_version_print,		false, true),
	FEAT(ARCH,		rep_feat_arch_print,		false, true),
	FEAT(NRCPUS,		rep_feat_nrcpus_print,		false, true),
	FEAT(CPUDESC,		rep_feat_cpudesc_print,		false, true),
	FEAT(CPUID,		rep_feat_cpuid_print,		false, true),
	FEAT(TOTAL_MEM,		rep_feat_total_mem_print,	false, true),
	FEAT(CMDLINE,		rep_feat_cmdline_print,		false, true),
	FEAT(EVENT_DESC,	rep_feat_event_desc_print,	false, true),
	FEAT(CPU_TOPOLOGY,	rep_feat_cpu_topology_print,	true, true),
	FEAT(NUMA_TOPOLOGY,	rep_feat_numa_topology_print,	true, true),
	FEAT(BRANCH_STACK,	rep_feat_branch_stack_print,	false, false),
	FEAT(PMU_MAPPINGS,	rep_feat_pmu_mappings_print,	false, true),
	FEAT(GROUP_DESC,	rep_feat_group_desc_print,	false, true),
	FEAT(AUXTRACE,		rep_feat_auxtrace_print,	false, true),
	FEAT(STAT,		rep_feat_stat_print,		false, false),
	FEAT(CACHE,		rep_feat_cache_print,		true, true),
	FEAT(SAMPLE_TIME,	rep_feat_sample_time_print,	false, true),
	FEAT(MEM_TOPOLOGY,	rep_feat_mem_topology_print,	true, true),
	FEAT(CLOCKID,		rep_feat_clockid_print,		false, true),
	FEAT(DIR_FORMAT,	rep_feat_dir_format_print,	false, true),
	FEAT(BPF_PROG_INFO,	rep_feat_bpf_prog_info_print,	false, true),
	FEAT(BPF_BTF,		rep_feat_bpf_btf_print,		false, true),
	FEAT(COMPRESSED,	rep_feat_compressed_print,	false, true),
	FEAT(CPU_PMU_CAPS,	rep_feat_cpu_pmu_caps_print,	false, true),
	FEAT(CLOCK_DATA,	rep_feat_clock_data_print,	false, true),
	FEAT(HYBRID_TOPOLOGY,	rep_feat_hybrid_topology_print,	true, true),
	FEAT(PMU_CAPS,		rep_feat_pmu_caps_print,	false, true),
};

static void
print_feature(struct rep_hdr *h, unsigned int feat, const struct pd_meta *m,
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
print_file_header(struct rep_hdr *h)
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

/* The first feature whose processing fails, or LAST_FEATURE_61 */
static unsigned int
first_failure_61(struct rep_hdr *h)
{
	unsigned int feat;

	for (feat = 1; feat < LAST_FEATURE_61; feat++)
		if (pd_meta_has(h->m, feat) && rep_feat_fails_61(h, feat))
			return feat;
	return LAST_FEATURE_61;
}

static void
print_missing(struct rep_hdr *h)
{
	unsigned int feat;

	fputs("# missing features: ", h->out);
	for (feat = 1; feat < LAST_FEATURE_61; feat++)
		if (!pd_meta_has(h->m, feat))
			fprintf(h->out, "%s ", pd_feature_name(feat));
	fputc('\n', h->out);
}

/*
 * File mode: every feature was processed before the first is printed;
 * from the one that failed on, perf prints what it did not keep.
 */
static void
print_file_features(struct rep_hdr *h)
{
	const struct pd_meta *m = h->m;
	unsigned int feat, fail_at = first_failure_61(h);

	h->desc_names = pd_meta_has(m, PD_FEAT_EVENT_DESC) &&
			fail_at > PD_FEAT_EVENT_DESC && rep_event_desc_ok_61(m);
	h->btf_ready = fail_at > PD_FEAT_BPF_BTF;
	for (feat = 1; feat < LAST_FEATURE_61; feat++) {
		if (!pd_meta_has(m, feat))
			continue;
		if (feat < fail_at)
			print_feature(h, feat, m, false);
		else if (feat == fail_at)
			print_feature(h, feat, m, true);
		else
			print_feature(h, feat, &rep_no_meta, true);
	}
	print_missing(h);
}

/* The feature id of a HEADER_FEATURE record, or PD_FEAT_RESERVED if malformed. */
static uint64_t
record_feat_id(const struct pd_record *rec)
{
	union pd_event ev;

	return pd_event_decode(NULL, rec, &ev) < 0 ? PD_FEAT_RESERVED : ev.feature.feat_id;
}

/*
 * Pipe mode: perf prints each feature as its HEADER_FEATURE record is
 * processed, and stops at the end marker, at an id it does not know, or
 * when processing a feature fails.  Returns true when the header ends.
 */
static bool
pipe_feature(struct rep_hdr *h, const struct pd_record *rec)
{
	uint64_t feat = record_feat_id(rec);

	if (feat == PD_FEAT_RESERVED || feat >= LAST_FEATURE_61)
		return true;
	if (printers[feat].no_process || !printers[feat].print)
		return false;
	if (rep_feat_fails_61(h, (unsigned int)feat))
		return true;
	if (feat == PD_FEAT_EVENT_DESC)
		h->desc_names = rep_event_desc_ok_61(h->m);
	print_feature(h, (unsigned int)feat, h->m, false);
	if (feat == PD_FEAT_BPF_BTF)
		h->btf_ready = true;
	return false;
}

static void
hdr_init(struct rep_hdr *h, FILE *out, struct pd_reader *r, bool show_info)
{
	*h = (struct rep_hdr){
		.out = out,
		.r = r,
		.info = pd_reader_info(r),
		.m = pd_reader_meta(r),
		.show_info = show_info,
	};
	h->pipe = h->info->mode == PD_MODE_PIPE;
}

/* What perf prints before reading the data: a stream's features come later */
static void
hdr_start(struct rep_hdr *h)
{
	print_file_header(h);
	if (!h->pipe)
		print_file_features(h);
	fputs("# ========\n#\n", h->out);
}

int
rep_header_print(FILE *out, struct pd_reader *r, bool show_info)
{
	struct rep_hdr h;
	struct pd_record rec;
	int err;

	hdr_init(&h, out, r, show_info);
	hdr_start(&h);
	if (!h.pipe)
		return 0;
	while ((err = pd_reader_next(r, &rec)) > 0)
		if (rec.header.type == PD_RECORD_HEADER_FEATURE &&
		    pipe_feature(&h, &rec))
			return 0;
	return err;
}

struct rep_hdr *
rep_header_begin(FILE *out, struct pd_reader *r, bool show_info)
{
	struct rep_hdr *h = xmalloc(sizeof(*h));

	hdr_init(h, out, r, show_info);
	hdr_start(h);
	return h;
}

void
rep_header_feature(struct rep_hdr *h, const struct pd_record *rec)
{
	if (h && h->pipe && !h->done)
		h->done = pipe_feature(h, rec);
}

void
rep_header_end(struct rep_hdr *h)
{
	free(h);
}
