/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/evsel.c - the file's events: their attrs, ids, names, and the
 * sample layout facts the reader needs to find a record's event.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/cursor.h"
#include "format/reader-int.h"
#include "pdata/sample.h"

static void
evsel_compute_layout(struct pd_evsel *ev)
{
	ev->id_pos = pd_sample_id_pos(ev->attr.sample_type);
	ev->is_pos = pd_sample_is_pos(ev->attr.sample_type);
}

static int
evsel_set_auto_name(struct pd_evsel *ev)
{
	char name[128];

	pd_attr_default_name(&ev->attr, name, sizeof(name));
	ev->auto_name = strdup(name);
	return ev->auto_name ? 0 : -PD_E_NOMEM;
}

int
pd_evsel_add(struct pd_reader *r, const struct pd_attr *attr,
	  const unsigned char *ids_raw, size_t nr_ids, bool ids_swap)
{
	struct pd_evsel *evsels, *ev;
	size_t i;
	int err;

	if (r->nr_evsels >= PD_MAX_EVSELS)
		return -PD_E_TOO_BIG;
	evsels = realloc(r->evsels, (r->nr_evsels + 1) * sizeof(*evsels));
	if (!evsels)
		return -PD_E_NOMEM;
	r->evsels = evsels;
	ev = &evsels[r->nr_evsels];
	memset(ev, 0, sizeof(*ev));
	ev->attr = *attr;
	ev->idx = (unsigned int)r->nr_evsels;
	if (nr_ids) {
		ev->ids = malloc(nr_ids * sizeof(*ev->ids));
		if (!ev->ids)
			return -PD_E_NOMEM;
		for (i = 0; i < nr_ids; i++)
			ev->ids[i] = pd_load_u64(ids_raw + 8 * i, ids_swap);
		ev->nr_ids = nr_ids;
	}
	evsel_compute_layout(ev);
	r->nr_evsels++;
	err = evsel_set_auto_name(ev);
	if (err)
		return err;
	for (i = 0; i < nr_ids; i++) {
		err = pd_idmap_put(&r->ids, ev->ids[i], ev->idx);
		if (err)
			return err;
	}
	pd_evsel_layout_update(r);
	return 0;
}

/*
 * perf takes the id positions and sample_id_all of the first event for
 * every record, and refuses files whose events disagree; we read them
 * the same way, and warn.
 */
void
pd_evsel_layout_update(struct pd_reader *r)
{
	const struct pd_evsel *last;

	if (!r->nr_evsels) {
		r->id_pos = r->is_pos = -1;
		r->sample_id_all = false;
		return;
	}
	r->id_pos = r->evsels[0].id_pos;
	r->is_pos = r->evsels[0].is_pos;
	r->sample_id_all = pd_attr_has(&r->evsels[0].attr, PD_ATTR_SAMPLE_ID_ALL);
	last = &r->evsels[r->nr_evsels - 1];
	if ((last->id_pos != r->id_pos || last->is_pos != r->is_pos) &&
	    !r->warned_layout) {
		r->warned_layout = true;
		pd_rd_warn(r, UINT64_MAX, "the events' sample_types place the event id differently; records are matched with the first event's layout, as perf does");
	}
	if (pd_attr_has(&last->attr, PD_ATTR_SAMPLE_ID_ALL) != r->sample_id_all &&
	    !r->warned_id_all) {
		r->warned_id_all = true;
		pd_rd_warn(r, UINT64_MAX, "the events disagree on sample_id_all; the first event's setting is used");
	}
}

int
pd_evsel_set_name(struct pd_evsel *ev, const char *name, size_t len)
{
	char *copy = malloc(len + 1);

	if (!copy)
		return -PD_E_NOMEM;
	memcpy(copy, name, len);
	copy[len] = '\0';
	free(ev->name);
	ev->name = copy;
	return 0;
}

/* EVENT_DESC names the events by position (doc/perf-data-format.md §5.7). */
int
pd_evsel_apply_event_desc(struct pd_reader *r)
{
	size_t i;
	int err;

	for (i = 0; i < r->nr_evsels && i < r->meta.nr_event_desc; i++) {
		const char *name = r->meta.event_desc[i].name;

		if (!name || r->evsels[i].name)
			continue;
		err = pd_evsel_set_name(&r->evsels[i], name, strlen(name));
		if (err)
			return err;
	}
	return 0;
}

void
pd_evsel_free_all(struct pd_reader *r)
{
	size_t i;

	for (i = 0; i < r->nr_evsels; i++) {
		free(r->evsels[i].ids);
		free(r->evsels[i].name);
		free(r->evsels[i].auto_name);
		free(r->evsels[i].unit);
	}
	free(r->evsels);
	r->evsels = NULL;
	r->nr_evsels = 0;
	pd_idmap_free(&r->ids);
}
