/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * export/pprof-write.c - the pprof profile (pprof.h) as profile.proto's
 * Profile message (export/profile.proto, made into C by protoc-c), packed
 * by libprotobuf-c straight into a gzip stream (zlib), as pprof reads
 * it.  Messages point into the profile's tables (location ids, strings)
 * rather than copy them; labels are made once per label set.
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "export/pprof.h"
#include "export/profile.pb-c.h"
#include "lib/diag.h"
#include "lib/xalloc.h"

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__ValueType pb_value_type;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Label pb_label;
typedef Perftools__Profiles__Mapping pb_mapping;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Line pb_line;
typedef Perftools__Profiles__Function pb_function;

enum { NR_LABELS = 5 };		/* pid, tid, comm, event, cpu */

/* The messages, in arrays, and the pointer arrays protobuf-c reads. */
struct pb {
	pb_profile prof;
	pb_value_type *types, **type_ptrs, period_type;
	pb_sample *samples, **sample_ptrs;
	int64_t *values;
	pb_label *labels, **label_ptrs;
	pb_mapping *mappings, **mapping_ptrs;
	pb_location *locations, **location_ptrs;
	pb_line *lines, **line_ptrs;
	pb_function *functions, **function_ptrs;
	size_t main;			/* the mapping put first */
};

/* protobuf-c's output buffer, appending to a gzip stream */
struct gz_out {
	ProtobufCBuffer base;
	z_stream z;
	FILE *out;
	bool failed;
	unsigned char chunk[1 << 16];
};

static void
gz_run(struct gz_out *g, const uint8_t *data, size_t len, int flush)
{
	int ret;

	g->z.next_in = (Bytef *)data;
	g->z.avail_in = (uInt)len;
	do {
		size_t n;

		g->z.next_out = g->chunk;
		g->z.avail_out = sizeof(g->chunk);
		ret = deflate(&g->z, flush);
		n = sizeof(g->chunk) - g->z.avail_out;
		if (ret == Z_STREAM_ERROR || fwrite(g->chunk, 1, n, g->out) != n)
			g->failed = true;
	} while (!g->failed && (g->z.avail_out == 0 ||
				(flush == Z_FINISH && ret != Z_STREAM_END)));
}

static void
gz_append(ProtobufCBuffer *b, size_t len, const uint8_t *data)
{
	struct gz_out *g = (struct gz_out *)b;

	while (len && !g->failed) {
		size_t n = len > UINT_MAX ? UINT_MAX : len;

		gz_run(g, data, n, Z_NO_FLUSH);
		data += n;
		len -= n;
	}
}

static void
build_types(struct pb *b, const struct pp_profile *pp)
{
	const struct pp_type *t = pp->types.v;

	b->types = xcalloc(pp->types.nr + 1, sizeof(*b->types));
	b->type_ptrs = xcalloc(pp->types.nr + 1, sizeof(*b->type_ptrs));
	for (size_t i = 0; i < pp->types.nr; i++) {
		b->types[i] = (pb_value_type)PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
		b->types[i].type = t[i].name;
		b->types[i].unit = t[i].unit;
		b->type_ptrs[i] = &b->types[i];
	}
	b->prof.n_sample_type = pp->types.nr;
	b->prof.sample_type = b->type_ptrs;
	if (!pp->period_type)
		return;
	b->period_type = b->types[pp->period_type];
	b->prof.period_type = &b->period_type;
	b->prof.period = pp->period;
	b->prof.default_sample_type = t[pp->period_type].name;
}

static void
label_set(const struct pp_profile *pp, const struct pp_labels *lb,
	  pb_label *out)
{
	for (size_t k = 0; k < NR_LABELS; k++)
		out[k] = (pb_label)PERFTOOLS__PROFILES__LABEL__INIT;
	out[0].key = pp->key_pid;
	out[0].num = lb->pid;
	out[1].key = pp->key_tid;
	out[1].num = lb->tid;
	out[2].key = pp->key_comm;
	out[2].str = lb->comm;
	out[3].key = pp->key_event;
	out[3].str = lb->event;
	out[4].key = pp->key_cpu;
	out[4].num = lb->cpu;
	out[0].num_unit = out[1].num_unit = out[4].num_unit = pp->num_unit;
}

static void
build_labels(struct pb *b, const struct pp_profile *pp)
{
	size_t n = pp->labels.nr * NR_LABELS;

	b->labels = xcalloc(n + 1, sizeof(*b->labels));
	b->label_ptrs = xcalloc(n + 1, sizeof(*b->label_ptrs));
	for (size_t i = 0; i < pp->labels.nr; i++)
		label_set(pp, (const struct pp_labels *)pp->labels.v + i,
			  b->labels + i * NR_LABELS);
	for (size_t i = 0; i < n; i++)
		b->label_ptrs[i] = &b->labels[i];
}

static void
build_samples(struct pb *b, struct pp_profile *pp)
{
	size_t nt = pp->types.nr;

	b->samples = xcalloc(pp->nr_samples + 1, sizeof(*b->samples));
	b->sample_ptrs = xcalloc(pp->nr_samples + 1, sizeof(*b->sample_ptrs));
	b->values = xcalloc(pp->nr_samples * nt + 1, sizeof(*b->values));
	for (size_t i = 0; i < pp->nr_samples; i++) {
		const struct pp_sample *s = &pp->samples[i];
		const struct pp_stack *st = pp_stack(pp, s->stack);
		const struct pp_labels *lb =
			(const struct pp_labels *)pp->labels.v + s->labels;
		pb_sample *m = &b->samples[i];

		*m = (pb_sample)PERFTOOLS__PROFILES__SAMPLE__INIT;
		m->n_location_id = st->len;
		m->location_id = pp->stack_ids + st->start;
		m->n_value = nt;
		m->value = b->values + i * nt;
		m->value[0] = (int64_t)s->samples;
		m->value[s->type] = (int64_t)s->period;
		m->n_label = lb->cpu < 0 ? NR_LABELS - 1 : NR_LABELS;
		m->label = b->label_ptrs + (size_t)s->labels * NR_LABELS;
		b->sample_ptrs[i] = m;
	}
	b->prof.n_sample = pp->nr_samples;
	b->prof.sample = b->sample_ptrs;
}

/*
 * pprof takes the first mapping's file for the profile's: the file
 * where the leaves of most samples are, "[kernel.kallsyms]" and the
 * other bracketed names aside.
 */
static size_t
main_mapping(const struct pp_profile *pp)
{
	const struct pp_location *loc = pp->locations.v;
	const struct pp_mapping *mp = pp->mappings.v;
	char *const *strings = pp->strings.v;
	uint64_t *hits = xcalloc(pp->mappings.nr + 1, sizeof(*hits));
	size_t best = 0;

	for (size_t i = 0; i < pp->nr_samples; i++) {
		const struct pp_stack *st = pp_stack(pp, pp->samples[i].stack);
		uint32_t m;

		if (!st->len)
			continue;
		m = loc[pp->stack_ids[st->start] - 1].mapping;
		if (m)
			hits[m - 1] += pp->samples[i].samples;
	}
	for (size_t i = 0; i < pp->mappings.nr; i++)
		if (strings[mp[i].file][0] != '[' && hits[i] > hits[best])
			best = i;
	free(hits);
	return best;
}

/* The id of the mapping at index i, the main one first. */
static uint64_t
mapping_id(const struct pb *b, size_t i)
{
	if (i == b->main)
		return 1;
	return i < b->main ? i + 2 : i + 1;
}

/* What a mapping's locations say: functions for all, lines, files. */
static void
mapping_flags(struct pb *b, const struct pp_profile *pp)
{
	const struct pp_location *loc = pp->locations.v;
	const struct pp_function *fn = pp->functions.v;

	for (size_t i = 0; i < pp->mappings.nr; i++)
		b->mappings[i].has_functions = true;
	for (size_t i = 0; i < pp->locations.nr; i++) {
		pb_mapping *m;

		if (!loc[i].mapping)
			continue;
		m = &b->mappings[mapping_id(b, loc[i].mapping - 1) - 1];
		if (!loc[i].function) {
			m->has_functions = false;
			continue;
		}
		m->has_filenames |= fn[loc[i].function - 1].file != 0;
		m->has_line_numbers |= loc[i].line != 0;
	}
}

static void
build_mappings(struct pb *b, const struct pp_profile *pp)
{
	const struct pp_mapping *mp = pp->mappings.v;

	b->mappings = xcalloc(pp->mappings.nr + 1, sizeof(*b->mappings));
	b->mapping_ptrs = xcalloc(pp->mappings.nr + 1,
				  sizeof(*b->mapping_ptrs));
	b->main = main_mapping(pp);
	for (size_t i = 0; i < pp->mappings.nr; i++) {
		uint64_t id = mapping_id(b, i);
		pb_mapping *m = &b->mappings[id - 1];

		*m = (pb_mapping)PERFTOOLS__PROFILES__MAPPING__INIT;
		m->id = id;
		m->memory_start = mp[i].start;
		m->memory_limit = mp[i].limit;
		m->file_offset = mp[i].offset;
		m->filename = mp[i].file;
		m->build_id = mp[i].build_id;
		b->mapping_ptrs[id - 1] = m;
	}
	mapping_flags(b, pp);
	b->prof.n_mapping = pp->mappings.nr;
	b->prof.mapping = b->mapping_ptrs;
}

/* The lines of location i: its own, then its outer locations' (pprof.h). */
static size_t
location_lines(const struct pp_location *loc, size_t i, pb_line *lines,
	       pb_line **ptrs)
{
	size_t n = 0;

	for (uint64_t id = i + 1; id && loc[id - 1].function;
	     id = loc[id - 1].outer, n++) {
		if (!lines)
			continue;
		lines[n] = (pb_line)PERFTOOLS__PROFILES__LINE__INIT;
		lines[n].function_id = loc[id - 1].function;
		lines[n].line = loc[id - 1].line;
		ptrs[n] = &lines[n];
	}
	return n;
}

static void
build_locations(struct pb *b, const struct pp_profile *pp)
{
	const struct pp_location *loc = pp->locations.v;
	size_t n = pp->locations.nr, total = 0, at = 0;

	for (size_t i = 0; i < n; i++)
		total += location_lines(loc, i, NULL, NULL);
	b->locations = xcalloc(n + 1, sizeof(*b->locations));
	b->location_ptrs = xcalloc(n + 1, sizeof(*b->location_ptrs));
	b->lines = xcalloc(total + 1, sizeof(*b->lines));
	b->line_ptrs = xcalloc(total + 1, sizeof(*b->line_ptrs));
	for (size_t i = 0; i < n; i++) {
		pb_location *m = &b->locations[i];

		*m = (pb_location)PERFTOOLS__PROFILES__LOCATION__INIT;
		m->id = i + 1;
		m->mapping_id = loc[i].mapping ?
			mapping_id(b, loc[i].mapping - 1) : 0;
		m->address = loc[i].address;
		m->n_line = location_lines(loc, i, b->lines + at,
					   b->line_ptrs + at);
		m->line = m->n_line ? &b->line_ptrs[at] : NULL;
		at += m->n_line;
		b->location_ptrs[i] = m;
	}
	b->prof.n_location = n;
	b->prof.location = b->location_ptrs;
}

static void
build_functions(struct pb *b, const struct pp_profile *pp)
{
	const struct pp_function *fn = pp->functions.v;
	size_t n = pp->functions.nr;

	b->functions = xcalloc(n + 1, sizeof(*b->functions));
	b->function_ptrs = xcalloc(n + 1, sizeof(*b->function_ptrs));
	for (size_t i = 0; i < n; i++) {
		pb_function *m = &b->functions[i];

		*m = (pb_function)PERFTOOLS__PROFILES__FUNCTION__INIT;
		m->id = i + 1;
		/* the symbol table gives no other name than perf prints */
		m->name = fn[i].name;
		m->system_name = fn[i].name;
		m->filename = fn[i].file;
		b->function_ptrs[i] = m;
	}
	b->prof.n_function = n;
	b->prof.function = b->function_ptrs;
}

static void
pb_free(struct pb *b)
{
	free(b->types);
	free(b->type_ptrs);
	free(b->samples);
	free(b->sample_ptrs);
	free(b->values);
	free(b->labels);
	free(b->label_ptrs);
	free(b->mappings);
	free(b->mapping_ptrs);
	free(b->locations);
	free(b->location_ptrs);
	free(b->lines);
	free(b->line_ptrs);
	free(b->functions);
	free(b->function_ptrs);
}

static int
pack_gzip(const pb_profile *prof, FILE *out, const char *name)
{
	struct gz_out *g = xcalloc(1, sizeof(*g));
	int ret = 0;

	g->base.append = gz_append;
	g->out = out;
	/*
	 * 16 + 15: a gzip header and trailer, the largest window; level 1
	 * compresses 3 times as fast as the default for a file about 12%
	 * larger (bench/export-speed.sh)
	 */
	if (deflateInit2(&g->z, Z_BEST_SPEED, Z_DEFLATED, 16 + 15, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		error_msg("cannot start zlib's compression");
		free(g);
		return -1;
	}
	perftools__profiles__profile__pack_to_buffer(prof, &g->base);
	if (!g->failed)
		gz_run(g, NULL, 0, Z_FINISH);
	if (g->failed) {
		error_msg("cannot write '%s'", name);
		ret = -1;
	}
	deflateEnd(&g->z);
	free(g);
	return ret;
}

int
pp_write(struct pp_profile *pp, FILE *out, const char *name)
{
	struct pb b;
	int ret;

	memset(&b, 0, sizeof(b));
	b.prof = (pb_profile)PERFTOOLS__PROFILES__PROFILE__INIT;
	build_types(&b, pp);
	build_labels(&b, pp);
	build_samples(&b, pp);
	build_mappings(&b, pp);
	build_locations(&b, pp);
	build_functions(&b, pp);
	b.prof.n_string_table = pp->strings.nr;
	b.prof.string_table = pp->strings.v;
	b.prof.time_nanos = pp->time_nanos;
	b.prof.duration_nanos = pp->duration_nanos;
	ret = pack_gzip(&b.prof, out, name);
	pb_free(&b);
	return ret;
}
