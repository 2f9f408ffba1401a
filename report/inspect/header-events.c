/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/header-events.c - the feature sections that describe the
 * events and the PMUs: EVENT_DESC, PMU_MAPPINGS, GROUP_DESC, CPU_PMU_CAPS
 * and PMU_CAPS.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "pdata/reader.h"
#include "report/inspect/header-int.h"

/*
 * perf re-reads EVENT_DESC from the file to print it, whatever its
 * processing did, and stops at an attr whose size field is 0.
 */
void
rep_feat_event_desc_print(struct rep_hdr *h, const struct pd_meta *m,
			  bool failed)
{
	size_t i, j;

	(void)failed;
	m = h->m;
	if (!rep_event_desc_ok_61(m)) {
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
		rep_attr_print(h->out, &e->attr);
		fputc('\n', h->out);
	}
}

void
rep_feat_pmu_mappings_print(struct rep_hdr *h, const struct pd_meta *m,
			    bool failed)
{
	const char *sep = "# pmu mappings: ";
	size_t i;

	if (failed)
		m = &rep_no_meta;
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
evsel_name_61(struct rep_hdr *h, const struct pd_evsel *ev)
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
void
rep_feat_group_desc_print(struct rep_hdr *h, const struct pd_meta *m,
			  bool failed)
{
	size_t nr_ev = pd_reader_nr_evsels(h->r), idx;
	uint32_t nr = 0;
	long *desc_of;

	(void)failed;
	if (m == &rep_no_meta)
		return;
	desc_of = xcalloc(nr_ev ? nr_ev : 1, sizeof(*desc_of));
	rep_groups_walk_61(h, m, desc_of);
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
print_caps(struct rep_hdr *h, const char *pmu, const struct pd_cap *caps,
	   size_t nr)
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

void
rep_feat_cpu_pmu_caps_print(struct rep_hdr *h, const struct pd_meta *m,
			    bool failed)
{
	if (failed)
		m = &rep_no_meta;
	print_caps(h, "cpu", m->cpu_pmu_caps, m->nr_cpu_pmu_caps);
}

void
rep_feat_pmu_caps_print(struct rep_hdr *h, const struct pd_meta *m, bool failed)
{
	size_t i;

	if (failed)
		return;
	for (i = 0; i < m->nr_pmu_caps; i++)
		print_caps(h, m->pmu_caps[i].pmu_name, m->pmu_caps[i].caps,
			   m->pmu_caps[i].nr_caps);
}
