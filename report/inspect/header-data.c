/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/header-data.c - the feature sections that describe the
 * recorded data: what it holds (BRANCH_STACK, AUXTRACE, STAT), its time
 * and clock (SAMPLE_TIME, CLOCKID, CLOCK_DATA), its layout (DIR_FORMAT)
 * and its compression (COMPRESSED).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "pdata/reader.h"
#include "report/inspect/header-int.h"

void
rep_feat_branch_stack_print(struct rep_hdr *h, const struct pd_meta *m,
			    bool failed)
{
	(void)m;
	(void)failed;
	fputs("# contains samples with branch stack\n", h->out);
}

void
rep_feat_auxtrace_print(struct rep_hdr *h, const struct pd_meta *m, bool failed)
{
	(void)m;
	(void)failed;
	fputs("# contains AUX area data (e.g. instruction trace)\n", h->out);
}

void
rep_feat_stat_print(struct rep_hdr *h, const struct pd_meta *m, bool failed)
{
	(void)m;
	(void)failed;
	fputs("# contains stat data\n", h->out);
}

static void
print_usec(FILE *out, const char *label, uint64_t ns)
{
	fprintf(out, "# %s : %" PRIu64 ".%06" PRIu64 "\n", label,
		ns / 1000000000, ns % 1000000000 / 1000);
}

void
rep_feat_sample_time_print(struct rep_hdr *h, const struct pd_meta *m,
			   bool failed)
{
	if (failed)
		m = &rep_no_meta;
	print_usec(h->out, "time of first sample", m->first_sample_time);
	print_usec(h->out, "time of last sample", m->last_sample_time);
	fprintf(h->out, "# sample duration : %10.3f ms\n",
		(double)(m->last_sample_time - m->first_sample_time) / 1000000);
}

void
rep_feat_clockid_print(struct rep_hdr *h, const struct pd_meta *m, bool failed)
{
	if (failed)
		m = &rep_no_meta;
	/* sic: perf 6.1 multiplies the resolution in ns by 1000 */
	fprintf(h->out, "# clockid frequency: %" PRIu64 " MHz\n",
		m->clockid_res_ns * 1000);
}

void
rep_feat_dir_format_print(struct rep_hdr *h, const struct pd_meta *m,
			  bool failed)
{
	uint64_t version = 0;

	/* perf keeps the version only when reading a directory */
	if (!failed && h->info->mode == PD_MODE_DIR)
		version = m->dir_format_version;
	fprintf(h->out, "# directory data version : %" PRIu64 "\n", version);
}

void
rep_feat_compressed_print(struct rep_hdr *h, const struct pd_meta *m,
			  bool failed)
{
	if (failed)
		m = &rep_no_meta;
	fprintf(h->out, "# compressed : %s, level = %d, ratio = %d\n",
		m->comp_type == PD_COMP_ZSTD ? "Zstd" : "Unknown",
		(int)m->comp_level, (int)m->comp_ratio);
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

void
rep_feat_clock_data_print(struct rep_hdr *h, const struct pd_meta *m,
			  bool failed)
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
