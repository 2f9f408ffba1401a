/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/pipe.c - records that describe the file rather than the workload.
 *
 * A pipe-mode stream has no header sections: the attrs arrive as
 * HEADER_ATTR records, the features as HEADER_FEATURE records, build ids
 * as HEADER_BUILD_ID records (perf-data-file-format.md §9).  EVENT_UPDATE
 * names, units and scales events in both modes (§7.6).  The reader applies
 * them before handing the record out, so later records find their event.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/cursor.h"
#include "format/reader-int.h"

static int
apply_header_attr(struct pd_reader *r, const struct pd_record *rec)
{
	const unsigned char *p = rec->data + PD_EVENT_HEADER_SIZE;
	uint32_t body = rec->size - PD_EVENT_HEADER_SIZE;
	uint32_t attr_size;
	struct pd_attr attr;
	int err;

	if (body < PD_ATTR_SIZE_VER0)
		return rd_fail(r, -PD_E_BAD_ATTR, rec->offset,
			       "HEADER_ATTR of %u bytes is too short for an attr", rec->size);
	attr_size = pd_load_u32(p + 4, rec->swap);
	if (attr_size == 0)
		attr_size = PD_ATTR_SIZE_VER0;
	if (attr_size < PD_ATTR_SIZE_VER0 || attr_size > body)
		return rd_fail(r, -PD_E_BAD_ATTR, rec->offset,
			       "HEADER_ATTR: attr.size %u does not fit the record's %u bytes",
			       attr_size, rec->size);
	err = pd_attr_decode(p, attr_size, rec->swap, &attr);
	if (err)
		return rd_fail(r, err, rec->offset, "HEADER_ATTR: bad attr");
	err = evsel_add(r, &attr, p + attr_size, (body - attr_size) / 8, rec->swap);
	if (err)
		return rd_fail(r, err, rec->offset, "HEADER_ATTR: %s", pd_strerror(err));
	return 0;
}

static bool
is_end_marker(uint64_t feat, uint32_t payload_len)
{
	/* HEADER_LAST_FEATURE was 32 in perf 6.0..6.18 and is 33 since (§9.2) */
	return payload_len == 0 && (feat == PD_FEAT_LAST_61 || feat == PD_FEAT_KNOWN);
}

static int
apply_header_feature(struct pd_reader *r, const struct pd_record *rec)
{
	uint64_t feat;
	uint32_t len;
	char why[256] = "";
	int err;

	if (rec->size < 16)
		return rd_fail(r, -PD_E_BAD_RECORD, rec->offset,
			       "HEADER_FEATURE of %u bytes has no feature id", rec->size);
	feat = pd_load_u64(rec->data + 8, rec->swap);
	len = rec->size - 16;
	if (is_end_marker(feat, len))
		return 0;
	if (feat >= PD_FEAT_BITS) {
		rd_warn(r, rec->offset, "HEADER_FEATURE with feature id %llu (beyond 255) is skipped",
			(unsigned long long)feat);
		return 0;
	}
	r->meta.features[feat / 64] |= 1ULL << (feat % 64);
	if (feat >= PD_FEAT_KNOWN || feat == PD_FEAT_TRACING_DATA) {
		if (feat >= PD_FEAT_KNOWN && r->meta.nr_unknown_features < PD_FEAT_BITS)
			r->meta.unknown_features[r->meta.nr_unknown_features++] = (uint32_t)feat;
		return 0;
	}
	err = pd_feature_parse(&r->meta, (unsigned int)feat, rec->data + 16, len,
			       rec->swap, why, sizeof(why));
	if (err) {
		rd_warn(r, rec->offset, "HEADER_FEATURE %s is malformed (%s); it is ignored",
			pd_feature_name((unsigned int)feat), why[0] ? why : pd_strerror(err));
		return 0;
	}
	if (feat == PD_FEAT_EVENT_DESC)
		evsel_apply_event_desc(r);
	return 0;
}

static int
apply_build_id(struct pd_reader *r, const struct pd_record *rec)
{
	char why[256] = "";
	int err = pd_build_ids_parse(&r->meta, rec->data, rec->size, rec->swap,
				     why, sizeof(why));

	if (err)
		rd_warn(r, rec->offset, "HEADER_BUILD_ID is malformed (%s); it is ignored",
			why[0] ? why : pd_strerror(err));
	return 0;
}

static struct pd_evsel *
evsel_by_id(struct pd_reader *r, uint64_t id)
{
	uint32_t idx;

	if (idmap_get(&r->ids, id, &idx))
		return &r->evsels[idx];
	if (r->nr_evsels == 1 || (id == 0 && r->nr_evsels))
		return &r->evsels[0];
	return NULL;
}

static size_t
bounded_strlen(const unsigned char *p, size_t max)
{
	const unsigned char *nul = memchr(p, 0, max);

	return nul ? (size_t)(nul - p) : max;
}

static int
apply_event_update(struct pd_reader *r, const struct pd_record *rec)
{
	const unsigned char *p = rec->data + 24;
	size_t len = rec->size >= 24 ? rec->size - 24 : 0;
	struct pd_evsel *ev;
	uint64_t type, id, bits;
	char *copy;

	if (rec->size < 24)
		return 0;
	type = pd_load_u64(rec->data + 8, rec->swap);
	id = pd_load_u64(rec->data + 16, rec->swap);
	ev = evsel_by_id(r, id);
	if (!ev)
		return 0;
	switch (type) {
	case PD_EVENT_UPDATE_NAME:
		return evsel_set_name(ev, (const char *)p, bounded_strlen(p, len)) ?
		       rd_fail(r, -PD_E_NOMEM, rec->offset, "out of memory") : 0;
	case PD_EVENT_UPDATE_UNIT:
		copy = strndup((const char *)p, bounded_strlen(p, len));
		if (!copy)
			return rd_fail(r, -PD_E_NOMEM, rec->offset, "out of memory");
		free(ev->unit);
		ev->unit = copy;
		return 0;
	case PD_EVENT_UPDATE_SCALE:
		if (len >= 8) {
			bits = pd_load_u64(p, rec->swap);
			memcpy(&ev->scale, &bits, sizeof(ev->scale));
		}
		return 0;
	default:
		return 0;
	}
}

int
pipe_apply(struct pd_reader *r, const struct pd_record *rec)
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
