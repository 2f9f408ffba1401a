/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/stats.c - preport --stats: how many records of each type, and
 * samples per event, in the layout of `perf report --stats`.
 *
 * perf 6.1 counts every record it processes, the COMPRESSED ones and the
 * records decompressed from them alike, and lists them by type number.
 * Types perf 6.1 does not know stop it; we count them in the same list,
 * under the names the reader gives them, or UNKNOWN_<type>.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/u64map.h"
#include "lib/xalloc.h"
#include "pdata/reader.h"
#include "pdata/sample.h"
#include "report/report.h"

struct type_count {
	uint32_t type;
	uint64_t n;
};

struct evsel_count {
	uint64_t samples;
	uint64_t lost_samples;
};

struct rep_stats {
	enum rep_stats_kind kind;
	uint64_t total;
	struct type_count *types;	/* sorted by type */
	size_t nr_types;
	struct evsel_count *evsels;
	size_t nr_evsels;
	uint64_t unknown_id_samples;
	struct u64map last_read;	/* id -> last counter value (SAMPLE_READ) */
};

static void
count_type(struct rep_stats *st, uint32_t type)
{
	size_t lo = 0, hi = st->nr_types;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (st->types[mid].type < type)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < st->nr_types && st->types[lo].type == type) {
		st->types[lo].n++;
		return;
	}
	st->types = xreallocarray(st->types, st->nr_types + 1, sizeof(*st->types));
	memmove(&st->types[lo + 1], &st->types[lo],
		(st->nr_types - lo) * sizeof(*st->types));
	st->types[lo].type = type;
	st->types[lo].n = 1;
	st->nr_types++;
}

static struct evsel_count *
evsel_count(struct rep_stats *st, size_t idx)
{
	if (idx >= st->nr_evsels) {
		st->evsels = xreallocarray(st->evsels, idx + 1, sizeof(*st->evsels));
		memset(&st->evsels[st->nr_evsels], 0,
		       (idx + 1 - st->nr_evsels) * sizeof(*st->evsels));
		st->nr_evsels = idx + 1;
	}
	return &st->evsels[idx];
}

/* LOST_SAMPLES: u64 lost right after the header (perf-record-decoding.md §2). */
static uint64_t
lost_samples_of(const struct pd_record *rec)
{
	uint64_t v;

	if (rec->size < 16)
		return 0;
	memcpy(&v, rec->data + 8, sizeof(v));
	return rec->swap ? __builtin_bswap64(v) : v;
}

/*
 * A sample that reads counters (PERF_SAMPLE_READ) is, for perf, one sample
 * of each event whose counter moved since that counter's previous read:
 * each read value's id names the event, and a value equal to the last one
 * seen for that id is dropped (perf-record-decoding.md §3.3).
 */
static void
count_read_sample(struct rep_stats *st, struct pd_reader *r, const struct pd_record *rec)
{
	const struct pd_evsel *ev = pd_reader_evsel(r, (size_t)rec->evsel);
	struct pd_sample s;
	size_t i;

	if (pd_sample_decode(&ev->attr, rec, &s) < 0) {
		evsel_count(st, (size_t)rec->evsel)->samples++;
		return;
	}
	for (i = 0; i < s.read.nr; i++) {
		struct pd_read_value v;
		uint64_t *last;
		int idx;

		pd_read_value_get(&s.read, i, &v);
		idx = pd_reader_evsel_by_id(r, v.id);
		if (idx < 0)
			continue;
		last = u64map_slot(&st->last_read, v.id);
		if (v.value == *last)
			continue;
		*last = v.value;
		evsel_count(st, (size_t)idx)->samples++;
	}
}

/*
 * perf report, and so its -D, switches to branch mode when the file has
 * the BRANCH_STACK feature: each branch entry is then a sample of its own,
 * and a sample without a branch stack is no sample at all.
 */
static void
count_branch_sample(struct rep_stats *st, struct pd_reader *r, const struct pd_record *rec)
{
	const struct pd_evsel *ev = pd_reader_evsel(r, (size_t)rec->evsel);
	struct pd_sample s;

	if (!(ev->attr.sample_type & PD_SAMPLE_BRANCH_STACK) ||
	    pd_sample_decode(&ev->attr, rec, &s) < 0)
		return;
	evsel_count(st, (size_t)rec->evsel)->samples += s.branch.nr;
}

void
rep_stats_count(struct rep_stats *st, struct pd_reader *r, const struct pd_record *rec)
{
	uint32_t type = rec->header.type;

	st->total++;
	count_type(st, type);
	if (type == PD_RECORD_SAMPLE) {
		if (rec->evsel < 0)
			st->unknown_id_samples++;
		else if (pd_reader_evsel(r, (size_t)rec->evsel)->attr.sample_type & PD_SAMPLE_READ)
			count_read_sample(st, r, rec);
		else if (st->kind == REP_STATS_DUMP &&
			 pd_meta_has(pd_reader_meta(r), PD_FEAT_BRANCH_STACK))
			count_branch_sample(st, r, rec);
		else
			evsel_count(st, (size_t)rec->evsel)->samples++;
	} else if (type == PD_RECORD_LOST_SAMPLES && rec->evsel >= 0 &&
		   st->kind == REP_STATS_STATS) {
		evsel_count(st, (size_t)rec->evsel)->lost_samples += lost_samples_of(rec);
	}
}

static const char *
type_label(uint32_t type, char *buf, size_t len)
{
	const char *name = pd_record_type_name(type);

	if (name)
		return name;
	snprintf(buf, len, "UNKNOWN_%" PRIu32, type);
	return buf;
}

static void
print_types(FILE *out, const struct rep_stats *st)
{
	size_t i;

	fprintf(out, "%16s events: %10" PRIu64 "\n", "TOTAL", st->total);
	for (i = 0; i < st->nr_types; i++) {
		char buf[32];

		fprintf(out, "%16s events: %10" PRIu64 "  (%4.1f%%)\n",
			type_label(st->types[i].type, buf, sizeof(buf)),
			st->types[i].n, 100.0 * (double)st->types[i].n / (double)st->total);
	}
}

/*
 * perf 6.1's --stats does not process EVENT_UPDATE or HEADER_FEATURE
 * records, so in pipe mode it names events from their attrs alone
 * ("cycles:uH" where the stream says "cycles:u"); match it there.
 */
static const char *
stats_event_name(const struct rep_stats *st, struct pd_reader *r,
		 const struct pd_evsel *ev)
{
	if (st->kind == REP_STATS_STATS && pd_reader_info(r)->mode == PD_MODE_PIPE &&
	    ev->auto_name)
		return ev->auto_name;
	return pd_evsel_name(ev);
}

static void
print_evsels(FILE *out, struct pd_reader *r, const struct rep_stats *st)
{
	size_t i;

	for (i = 0; i < pd_reader_nr_evsels(r); i++) {
		const struct evsel_count *c = i < st->nr_evsels ? &st->evsels[i] : NULL;

		if (!c || (!c->samples && !c->lost_samples))
			continue;
		fprintf(out, "%s stats:\n", stats_event_name(st, r, pd_reader_evsel(r, i)));
		if (c->samples)
			fprintf(out, "%16s events: %10" PRIu64 "\n", "SAMPLE", c->samples);
		if (c->lost_samples)
			fprintf(out, "%16s events: %10" PRIu64 "\n", "LOST_SAMPLES",
				c->lost_samples);
	}
	if (st->unknown_id_samples)
		fprintf(out, "(unknown event id) stats:\n%16s events: %10" PRIu64 "\n",
			"SAMPLE", st->unknown_id_samples);
}

struct rep_stats *
rep_stats_new(enum rep_stats_kind kind)
{
	struct rep_stats *st = xcalloc(1, sizeof(*st));

	st->kind = kind;
	return st;
}

void
rep_stats_free(struct rep_stats *st)
{
	if (!st)
		return;
	free(st->types);
	free(st->evsels);
	u64map_free(&st->last_read);
	free(st);
}

void
rep_stats_print_counts(FILE *out, struct pd_reader *r, const struct rep_stats *st)
{
	fprintf(out, "\nAggregated stats:%s\n",
		pd_meta_has(pd_reader_meta(r), PD_FEAT_AUXTRACE) ?
		" (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	print_types(out, st);
	print_evsels(out, r, st);
}

int
rep_stats_print(FILE *out, struct pd_reader *r)
{
	struct rep_stats *st = rep_stats_new(REP_STATS_STATS);
	struct pd_record rec;
	int ret;

	while ((ret = pd_reader_next(r, &rec)) > 0)
		rep_stats_count(st, r, &rec);
	rep_stats_print_counts(out, r, st);
	rep_stats_free(st);
	return ret;
}
