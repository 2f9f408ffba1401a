/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/evlist.c - the events of a file, one line each, as
 * perf evlist 6.1 prints them: names, with -F their frequency or
 * period, with -v their attrs, with -g their groups.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pdata/abi.h"
#include "pdata/meta.h"
#include "pdata/reader.h"
#include "report/inspect/header-int.h"
#include "report/inspect/inspect.h"

/* The group led by evsel i in GROUP_DESC, or NULL. */
static const struct pd_group_desc *
group_of(const struct pd_meta *meta, size_t i)
{
	for (size_t g = 0; meta && g < meta->nr_groups; g++)
		if (meta->groups[g].leader_idx == i)
			return &meta->groups[g];
	return NULL;
}

/* Whether evsel i is a member (not the leader) of a recorded group. */
static bool
is_member(const struct pd_meta *meta, size_t i)
{
	for (size_t g = 0; meta && g < meta->nr_groups; g++) {
		const struct pd_group_desc *d = &meta->groups[g];

		if (i > d->leader_idx && i < d->leader_idx + d->nr_members)
			return true;
	}
	return false;
}

/* evsel__fprintf() with details->event_group */
static void
print_group(FILE *out, struct pd_reader *r, size_t i)
{
	const struct pd_meta *meta = pd_reader_meta(r);
	const struct pd_group_desc *d = group_of(meta, i);
	uint32_t n = d ? d->nr_members : 1;

	if (is_member(meta, i))
		return;
	if (n > 1)
		fprintf(out, "%s{", d->name && strcmp(d->name, "{anon_group}") ?
			d->name : "");
	fputs(pd_evsel_name(pd_reader_evsel(r, i)), out);
	for (uint32_t k = 1; k < n; k++)
		fprintf(out, ",%s", pd_evsel_name(pd_reader_evsel(r, i + k)));
	fputs(n > 1 ? "}\n" : "\n", out);
}

/*
 * A stream's events come in its first records: read up to the first
 * that is no attr (perf evlist lists what it read of them).  Returns
 * 0, or the reader's error.
 */
static int
read_stream_attrs(struct pd_reader *r)
{
	struct pd_record rec;
	int ret;

	if (pd_reader_info(r)->mode != PD_MODE_PIPE)
		return 0;
	while ((ret = pd_reader_next(r, &rec)) > 0)
		if (rec.header.type != PD_RECORD_HEADER_ATTR)
			return 0;
	return ret;
}

int
rep_evlist_print(FILE *out, struct pd_reader *r, enum rep_evlist_kind kind)
{
	int ret = read_stream_attrs(r);
	size_t i, n = pd_reader_nr_evsels(r);

	if (ret < 0)
		return ret;

	for (i = 0; i < n; i++) {
		const struct pd_evsel *ev = pd_reader_evsel(r, i);
		const struct pd_attr *a = &ev->attr;

		switch (kind) {
		case REP_EVLIST_GROUP:
			print_group(out, r, i);
			break;
		case REP_EVLIST_VERBOSE:
			fprintf(out, "%s:", pd_evsel_name(ev));
			rep_attr_print_evlist(out, a);
			fputc('\n', out);
			break;
		case REP_EVLIST_FREQ:
			fprintf(out, "%s: %s=%" PRIu64 "\n", pd_evsel_name(ev),
				pd_attr_has(a, PD_ATTR_FREQ) ? "sample_freq" :
				"sample_period", a->sample_period);
			break;
		default:
			fprintf(out, "%s\n", pd_evsel_name(ev));
			break;
		}
	}
	return 0;
}
