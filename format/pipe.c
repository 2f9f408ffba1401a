/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/pipe.c - records that describe the file rather than the workload.
 *
 * A pipe-mode stream has no header sections: the attrs arrive as
 * HEADER_ATTR records, the features as HEADER_FEATURE records, build ids
 * as HEADER_BUILD_ID records (doc/perf-data-format.md §9).  EVENT_UPDATE
 * names, units and scales events in both modes (§7.6).  The reader applies
 * them before handing the record out, so later records find their event.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/cursor.h"
#include "format/reader-int.h"
#include "pdata/events.h"

/* A record that describes the file must decode, or what follows is lost. */
static int
fail_undecodable(struct pd_reader *r, const struct pd_record *rec, int err)
{
	char why[256];

	if (!pd_event_explain(NULL, rec, why, sizeof(why)))
		snprintf(why, sizeof(why), "%s", pd_strerror(err));
	return pd_rd_fail(r, err, rec->offset, "the %s record does not decode: %s",
		       pd_record_type_name(rec->header.type), why);
}

static int
apply_header_attr(struct pd_reader *r, const struct pd_record *rec)
{
	union pd_event ev;
	int err = pd_event_decode(NULL, rec, &ev);

	if (err)
		return fail_undecodable(r, rec, err);
	err = pd_evsel_add(r, &ev.attr.attr, ev.attr.ids.p, ev.attr.ids.nr, ev.attr.ids.swap);
	if (err)
		return pd_rd_fail(r, err, rec->offset, "HEADER_ATTR: %s", pd_strerror(err));
	return 0;
}

static bool
is_end_marker(uint64_t feat, size_t payload_len)
{
	/* HEADER_LAST_FEATURE was 32 in perf 6.0..6.18 and is 33 since (§9.2) */
	return payload_len == 0 && (feat == PD_FEAT_LAST_61 || feat == PD_FEAT_KNOWN);
}

static int
apply_header_feature(struct pd_reader *r, const struct pd_record *rec)
{
	union pd_event ev;
	char why[256] = "";
	unsigned int feat;
	int err = pd_event_decode(NULL, rec, &ev);

	if (err)
		return fail_undecodable(r, rec, err);
	if (is_end_marker(ev.feature.feat_id, ev.feature.payload.len))
		return 0;
	if (ev.feature.feat_id >= PD_FEAT_BITS) {
		pd_rd_warn(r, rec->offset, "HEADER_FEATURE with feature id %llu (beyond 255) is skipped",
			(unsigned long long)ev.feature.feat_id);
		return 0;
	}
	feat = (unsigned int)ev.feature.feat_id;
	r->meta.features[feat / 64] |= 1ULL << (feat % 64);
	if (feat >= PD_FEAT_KNOWN) {
		pd_meta_note_unknown_feature(&r->meta, feat);
		return 0;
	}
	if (feat == PD_FEAT_TRACING_DATA)
		return 0;
	err = pd_feature_parse(&r->meta, feat, ev.feature.payload.p,
			       ev.feature.payload.len, rec->swap, why, sizeof(why));
	if (err) {
		pd_rd_warn(r, rec->offset, "HEADER_FEATURE %s is malformed (%s); it is ignored",
			pd_feature_name(feat), why[0] ? why : pd_strerror(err));
		return 0;
	}
	if (feat == PD_FEAT_EVENT_DESC && pd_evsel_apply_event_desc(r))
		return pd_rd_fail(r, -PD_E_NOMEM, rec->offset, "out of memory");
	return 0;
}

static int
apply_build_id(struct pd_reader *r, const struct pd_record *rec)
{
	char why[256] = "";
	int err = pd_build_ids_parse(&r->meta, rec->data, rec->size, rec->swap,
				     why, sizeof(why));

	if (err)
		pd_rd_warn(r, rec->offset, "HEADER_BUILD_ID is malformed (%s); it is ignored",
			why[0] ? why : pd_strerror(err));
	return 0;
}

static struct pd_evsel *
evsel_by_id(struct pd_reader *r, uint64_t id)
{
	uint32_t idx;

	if (pd_idmap_get(&r->ids, id, &idx))
		return &r->evsels[idx];
	if (r->nr_evsels == 1 || (id == 0 && r->nr_evsels))
		return &r->evsels[0];
	return NULL;
}

static int
apply_event_update(struct pd_reader *r, const struct pd_record *rec)
{
	union pd_event ev;
	struct pd_evsel *e;
	char *unit;

	if (pd_event_decode(NULL, rec, &ev) < 0)
		return 0;	/* names are cosmetic: a bad one is skipped */
	e = evsel_by_id(r, ev.event_update.id);
	if (!e)
		return 0;
	switch (ev.event_update.type) {
	case PD_EVENT_UPDATE_NAME:
		if (pd_evsel_set_name(e, ev.event_update.str.s, ev.event_update.str.len))
			return pd_rd_fail(r, -PD_E_NOMEM, rec->offset, "out of memory");
		return 0;
	case PD_EVENT_UPDATE_UNIT:
		unit = strndup(ev.event_update.str.s, ev.event_update.str.len);
		if (!unit)
			return pd_rd_fail(r, -PD_E_NOMEM, rec->offset, "out of memory");
		free(e->unit);
		e->unit = unit;
		return 0;
	case PD_EVENT_UPDATE_SCALE:
		e->scale = ev.event_update.scale;
		return 0;
	default:
		return 0;
	}
}

int
pd_pipe_apply(struct pd_reader *r, const struct pd_record *rec)
{
	switch (rec->header.type) {
	case PD_RECORD_HEADER_ATTR:
		return apply_header_attr(r, rec);
	case PD_RECORD_HEADER_FEATURE:
		return apply_header_feature(r, rec);
	case PD_RECORD_HEADER_BUILD_ID:
		return apply_build_id(r, rec);
	case PD_RECORD_EVENT_UPDATE:
		return apply_event_update(r, rec);
	case PD_RECORD_HEADER_TRACING_DATA:
		r->meta.features[0] |= 1ULL << PD_FEAT_TRACING_DATA;
		r->meta.tracing_data_size = rec->payload_size;
		r->meta.tracing_data_offset = rec->payload ? rec->offset + rec->size : 0;
		return 0;
	default:
		return 0;
	}
}
