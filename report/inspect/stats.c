/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/stats.c - preport --stats: how many records of each type, and
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
#include "pdata/events.h"
#include "pdata/reader.h"
#include "pdata/sample.h"
#include "report/inspect/inspect.h"

/* Types below this are counted in place; any other u32 goes to a map. */
#define COMMON_TYPES	128

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
	bool keep_empty;		/* --no-skip-empty */
	uint64_t total;
	uint64_t common[COMMON_TYPES];	/* by type */
	struct u64map rare;		/* type -> count, for the others */
	struct evsel_count *evsels;
	size_t nr_evsels;
	uint64_t unknown_id_samples;
	struct u64map last_read;	/* id -> last counter value (SAMPLE_READ) */
};

static void
count_type(struct rep_stats *st, uint32_t type)
{
	if (type < COMMON_TYPES)
		st->common[type]++;
	else
		(*u64map_slot(&st->rare, type))++;
}

static int
type_count_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct type_count *)a)->type;
	uint32_t y = ((const struct type_count *)b)->type;

	return x < y ? -1 : x > y;
}

/* Every type seen, in type order, with its count; *nr set. */
static struct type_count *
types_seen(const struct rep_stats *st, size_t *nr)
{
	struct type_count *out = xcalloc(COMMON_TYPES + st->rare.nr, sizeof(*out));
	uint64_t key, val;
	size_t n = 0, pos = 0;
	uint32_t t;

	for (t = 0; t < COMMON_TYPES; t++)
		if (st->common[t])
			out[n++] = (struct type_count){ .type = t, .n = st->common[t] };
	while (u64map_next(&st->rare, &pos, &key, &val))
		out[n++] = (struct type_count){ .type = (uint32_t)key, .n = val };
	qsort(out, n, sizeof(*out), type_count_cmp);
	*nr = n;
	return out;
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

static uint64_t
lost_samples_of(const struct pd_record *rec)
{
	union pd_event ev;

	return pd_event_decode(NULL, rec, &ev) < 0 ? 0 : ev.lost_samples.lost;
}

/*
 * A sample that reads counters (PERF_SAMPLE_READ) is, for perf, one sample
 * of each event whose counter moved since that counter's previous read:
 * each read value's id names the event, and a value equal to the last one
 * seen for that id is dropped (doc/perf-records.md §3.3).
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

/* The record types perf 6.1 names: the kernel's, then its own. */
static bool
perf_names(uint32_t type)
{
	return (type >= PD_RECORD_MMAP && type <= PD_RECORD_AUX_OUTPUT_HW_ID) ||
	       (type >= PD_RECORD_USER_TYPE_START &&
		type <= PD_RECORD_FINISHED_INIT);
}

/* With keep_empty, the types seen and every one perf names, by type. */
static struct type_count *
types_listed(const struct rep_stats *st, size_t *nr)
{
	struct type_count *seen = types_seen(st, nr), *all;
	size_t n = 0, i = 0;
	uint32_t t;

	if (!st->keep_empty)
		return seen;
	all = xcalloc(*nr + PD_RECORD_FINISHED_INIT + 1, sizeof(*all));
	for (t = 1; t <= PD_RECORD_FINISHED_INIT || i < *nr; t++) {
		if (i < *nr && seen[i].type == t)
			all[n++] = seen[i++];
		else if (perf_names(t))
			all[n++] = (struct type_count){ .type = t };
		if (i < *nr && seen[i].type < t)	/* type 0 */
			all[n++] = seen[i++];
	}
	free(seen);
	*nr = n;
	return all;
}

static void
print_types(FILE *out, const struct rep_stats *st)
{
	size_t nr, i;
	struct type_count *types = types_listed(st, &nr);

	fprintf(out, "%16s events: %10" PRIu64 "\n", "TOTAL", st->total);
	for (i = 0; i < nr; i++) {
		char buf[32];
		const char *label = type_label(types[i].type, buf, sizeof(buf));

		if (st->total)
			fprintf(out, "%16s events: %10" PRIu64 "  (%4.1f%%)\n",
				label, types[i].n,
				100.0 * (double)types[i].n / (double)st->total);
		else
			fprintf(out, "%16s events: %10" PRIu64 "\n", label,
				types[i].n);
	}
	free(types);
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

		if (!st->keep_empty && (!c || (!c->samples && !c->lost_samples)))
			continue;
		fprintf(out, "%s stats:\n", stats_event_name(st, r, pd_reader_evsel(r, i)));
		if (!c)
			continue;
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
rep_stats_new(enum rep_stats_kind kind, bool keep_empty)
{
	struct rep_stats *st = xcalloc(1, sizeof(*st));

	st->kind = kind;
	st->keep_empty = keep_empty;
	return st;
}

void
rep_stats_free(struct rep_stats *st)
{
	if (!st)
		return;
	u64map_free(&st->rare);
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
rep_stats_print(FILE *out, struct pd_reader *r, bool keep_empty)
{
	struct rep_stats *st = rep_stats_new(REP_STATS_STATS, keep_empty);
	struct pd_record rec;
	int ret;

	while ((ret = pd_reader_next(r, &rec)) > 0)
		rep_stats_count(st, r, &rec);
	rep_stats_print_counts(out, r, st);
	rep_stats_free(st);
	return ret;
}
