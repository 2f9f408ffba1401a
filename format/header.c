/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/header.c - the file header, the attr section and the feature
 * table of a file-mode perf.data, and the pipe header.
 *
 * Layouts: doc/perf-data-format.md §1-§5; byte order §14.
 * Every offset and size comes from the file, so each is checked against
 * the file's real size before anything is read or allocated.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/cursor.h"
#include "format/reader-int.h"

struct raw_header {
	uint64_t magic, size, attr_size;
	uint64_t attrs_offset, attrs_size;
	uint64_t data_offset, data_size;
	uint64_t event_types_offset, event_types_size;
	uint64_t features[4];
};

static bool
range_ok(uint64_t offset, uint64_t size, uint64_t limit)
{
	return offset <= limit && size <= limit - offset;
}

static bool
is_attr_file_size(uint64_t v)
{
	static const uint64_t sizes[] = {
		PD_ATTR_SIZE_VER0, PD_ATTR_SIZE_VER1, PD_ATTR_SIZE_VER2,
		PD_ATTR_SIZE_VER3, PD_ATTR_SIZE_VER4,
	};
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (v == sizes[i] + 16)
			return true;
	return false;
}

/*
 * PERFILE2's magic is a u64 and so tells the byte order.  The old
 * PERFFILE magic is eight characters; perf finds the order from which
 * reading of attr_size gives a known attr entry size (§2.3).
 */
static int
detect_magic(struct pd_reader *r, const unsigned char *p, size_t len)
{
	uint64_t magic = pd_load_u64(p, false);

	if (magic == PD_MAGIC2) {
		r->info.version = 2;
		r->info.swap = false;
	} else if (magic == PD_MAGIC2_SWAPPED) {
		r->info.version = 2;
		r->info.swap = true;
	} else if (magic == PD_MAGIC1) {
		uint64_t hsize = len >= 16 ? pd_load_u64(p + 8, false) : 0;
		uint64_t asize = len >= 24 ? pd_load_u64(p + 16, false) : 0;

		r->info.version = 1;
		if (hsize == PD_PIPE_HEADER_SIZE)
			r->info.swap = false;
		else if (__builtin_bswap64(hsize) == PD_PIPE_HEADER_SIZE)
			r->info.swap = true;
		else if (is_attr_file_size(asize))
			r->info.swap = false;
		else if (is_attr_file_size(__builtin_bswap64(asize)))
			r->info.swap = true;
		else
			return pd_rd_fail(r, -PD_E_BAD_HEADER, 16,
				       "PERFFILE header: attr_size %llu fits no known attr size in either byte order",
				       (unsigned long long)asize);
	} else {
		return pd_rd_fail(r, -PD_E_BAD_MAGIC, 0,
			       "not a perf.data file: magic %016llx is neither PERFILE2 nor PERFFILE",
			       (unsigned long long)magic);
	}
	r->info.big_endian = pd_file_big_endian(r->info.swap);
	return 0;
}

static unsigned int
bitmap_count(const uint64_t bm[4])
{
	return __builtin_popcountll(bm[0]) + __builtin_popcountll(bm[1]) +
	       __builtin_popcountll(bm[2]) + __builtin_popcountll(bm[3]);
}

/* Does the feature table this bitmap implies lie within the file? */
static bool
table_fits(const struct pd_reader *r, const struct raw_header *h, const uint64_t bm[4])
{
	const struct pd_source *src = &r->sources[0];
	uint64_t table = h->data_offset + h->data_size;
	unsigned int nr = bitmap_count(bm), i;

	if (!nr || table < h->data_offset || !range_ok(table, 16ULL * nr, src->map_len))
		return false;
	for (i = 0; i < nr; i++) {
		uint64_t off = pd_load_u64(src->map + table + 16 * i, r->info.swap);
		uint64_t size = pd_load_u64(src->map + table + 16 * i + 8, r->info.swap);

		if (off < h->size || !range_ok(off, size, src->map_len))
			return false;
	}
	return true;
}

/*
 * A 64-bit writer of the other byte order stored the bitmap as four u64, a
 * 32-bit one as eight u32 (doc/perf-data-format.md §14.2).  perf tells them
 * apart by HOSTNAME, which it always writes, and keeps only BUILD_ID when
 * neither reading has it.  Writers that omit HOSTNAME (simpleperf) would
 * lose every feature that way, so a reading whose feature table lies
 * within the file is taken too; only when neither fits do we do as perf.
 */
static void
features_from_raw(struct pd_reader *r, const struct raw_header *h,
		  const unsigned char *p, uint64_t out[4])
{
	uint64_t as_u32[4];
	unsigned int i;

	for (i = 0; i < 4; i++)
		out[i] = pd_load_u64(p + 8 * i, r->info.swap);
	if (!r->info.swap || (out[0] >> PD_FEAT_HOSTNAME) & 1 || !bitmap_count(out))
		return;
	for (i = 0; i < 4; i++) {
		uint32_t lo = pd_load_u32(p + 8 * i, true);
		uint32_t hi = pd_load_u32(p + 8 * i + 4, true);

		as_u32[i] = (uint64_t)hi << 32 | lo;
	}
	if ((as_u32[0] >> PD_FEAT_HOSTNAME) & 1 ||
	    (!table_fits(r, h, out) && table_fits(r, h, as_u32))) {
		memcpy(out, as_u32, sizeof(as_u32));
		return;
	}
	if (table_fits(r, h, out))
		return;
	memset(out, 0, 4 * sizeof(out[0]));
	out[0] = 1ULL << PD_FEAT_BUILD_ID;
	pd_rd_warn(r, 72, "the feature bitmap of this other-endian file is unreadable; only BUILD_ID is kept, as perf does");
}

static int
read_raw_header(struct pd_reader *r, struct raw_header *h)
{
	const struct pd_source *src = &r->sources[0];
	const unsigned char *p = src->map;
	size_t len = src->map_len;
	struct pd_cursor c;

	cur_init(&c, p, len, r->info.swap);
	h->magic = cur_u64(&c);
	h->size = cur_u64(&c);
	if (c.short_read)
		return pd_rd_fail(r, -PD_E_TRUNCATED, 0,
			       "the file is %zu bytes, too short for a perf.data header", len);
	if (h->size != PD_FILE_HEADER_SIZE && h->size != PD_FILE_HEADER_SIZE_OLD)
		return pd_rd_fail(r, -PD_E_BAD_HEADER, 8,
			       "header size %llu is none of 104, 72 (file) or 16 (pipe)",
			       (unsigned long long)h->size);
	h->attr_size = cur_u64(&c);
	h->attrs_offset = cur_u64(&c);
	h->attrs_size = cur_u64(&c);
	h->data_offset = cur_u64(&c);
	h->data_size = cur_u64(&c);
	h->event_types_offset = cur_u64(&c);
	h->event_types_size = cur_u64(&c);
	memset(h->features, 0, sizeof(h->features));
	if (c.short_read || len < h->size)
		return pd_rd_fail(r, -PD_E_TRUNCATED, 0,
			       "the file is %zu bytes, shorter than its %llu-byte header",
			       len, (unsigned long long)h->size);
	if (h->size == PD_FILE_HEADER_SIZE)
		features_from_raw(r, h, p + PD_FILE_HEADER_SIZE_OLD, h->features);
	return 0;
}

static int
check_sections(struct pd_reader *r, const struct raw_header *h)
{
	uint64_t file_size = r->sources[0].map_len;

	if (h->attr_size == 0)
		return pd_rd_fail(r, -PD_E_BAD_HEADER, 16,
			       "attr_size is 0: the file was not properly terminated");
	if (h->attr_size < PD_ATTR_SIZE_VER0 + 16)
		return pd_rd_fail(r, -PD_E_BAD_HEADER, 16,
			       "attr_size %llu is smaller than the smallest attr entry (80)",
			       (unsigned long long)h->attr_size);
	if (h->attrs_size && h->attrs_offset < h->size)
		return pd_rd_fail(r, -PD_E_BAD_HEADER, 24,
			       "the attr section at %#llx overlaps the file header",
			       (unsigned long long)h->attrs_offset);
	if (!range_ok(h->attrs_offset, h->attrs_size, file_size))
		return pd_rd_fail(r, -PD_E_TRUNCATED, 24,
			       "the attr section (%#llx, %llu bytes) lies beyond the end of the file (%llu bytes)",
			       (unsigned long long)h->attrs_offset,
			       (unsigned long long)h->attrs_size,
			       (unsigned long long)file_size);
	if (h->data_offset < h->size)
		return pd_rd_fail(r, -PD_E_BAD_HEADER, 40,
			       "the data section at %#llx overlaps the file header",
			       (unsigned long long)h->data_offset);
	/* every later data_offset + data_size relies on this */
	if (h->data_size > UINT64_MAX - h->data_offset)
		return pd_rd_fail(r, -PD_E_BAD_HEADER, 48,
			       "the data section (%llu bytes at %#llx) ends beyond 2^64",
			       (unsigned long long)h->data_size,
			       (unsigned long long)h->data_offset);
	if (h->attrs_size && h->data_size &&
	    h->attrs_offset < h->data_offset + h->data_size &&
	    h->data_offset < h->attrs_offset + h->attrs_size)
		return pd_rd_fail(r, -PD_E_BAD_HEADER, 24,
			       "the attr section (%#llx+%llu) and the data section (%#llx+%llu) overlap",
			       (unsigned long long)h->attrs_offset,
			       (unsigned long long)h->attrs_size,
			       (unsigned long long)h->data_offset,
			       (unsigned long long)h->data_size);
	if (h->data_offset > file_size)
		return pd_rd_fail(r, -PD_E_TRUNCATED, 40,
			       "the data section starts at %#llx, after the end of the file (%llu bytes)",
			       (unsigned long long)h->data_offset,
			       (unsigned long long)file_size);
	return 0;
}

static int
read_attrs(struct pd_reader *r, const struct raw_header *h)
{
	const struct pd_source *src = &r->sources[0];
	uint64_t nr = h->attrs_size / h->attr_size;
	uint64_t i;

	if (h->attrs_size % h->attr_size)
		pd_rd_warn(r, 32, "the attr section size %llu is not a multiple of attr_size %llu; the tail is ignored",
			(unsigned long long)h->attrs_size, (unsigned long long)h->attr_size);
	if (nr > PD_MAX_EVSELS)
		return pd_rd_fail(r, -PD_E_TOO_BIG, h->attrs_offset,
			       "%llu attrs: more than the %u events pdata accepts",
			       (unsigned long long)nr, PD_MAX_EVSELS);
	for (i = 0; i < nr; i++) {
		uint64_t at = h->attrs_offset + i * h->attr_size;
		const unsigned char *p = src->map + at;
		uint64_t attr_bytes = h->attr_size - 16;
		uint64_t ids_offset = pd_load_u64(p + attr_bytes, r->info.swap);
		uint64_t ids_size = pd_load_u64(p + attr_bytes + 8, r->info.swap);
		struct pd_attr attr;
		int err;

		err = pd_attr_decode(p, (size_t)attr_bytes, r->info.swap, &attr);
		if (err)
			return pd_rd_fail(r, err, at, "attr %llu: attr.size %u is smaller than 64",
				       (unsigned long long)i, pd_load_u32(p + 4, r->info.swap));
		if (attr.size > attr_bytes)
			pd_rd_warn(r, at, "attr %llu says it is %u bytes but the entries are %llu; the rest is zero",
				(unsigned long long)i, attr.size, (unsigned long long)attr_bytes);
		if (!range_ok(ids_offset, ids_size, src->map_len))
			return pd_rd_fail(r, -PD_E_TRUNCATED, at + attr_bytes,
				       "attr %llu: its id array (%#llx, %llu bytes) lies beyond the end of the file",
				       (unsigned long long)i, (unsigned long long)ids_offset,
				       (unsigned long long)ids_size);
		err = pd_evsel_add(r, &attr, src->map + ids_offset, (size_t)(ids_size / 8),
				r->info.swap);
		if (err)
			return pd_rd_fail(r, err, at, "attr %llu: %s", (unsigned long long)i,
				       pd_strerror(err));
	}
	return 0;
}

static void
parse_one_feature(struct pd_reader *r, unsigned int feat, uint64_t entry_at,
		  const struct pd_feat_section *sec)
{
	const struct pd_source *src = &r->sources[0];
	char why[256] = "";
	int err;

	r->meta.sections[feat] = *sec;
	r->meta.features[feat / 64] |= 1ULL << (feat % 64);
	/* nothing reads RESERVED: the writer's -z marks give it any offset (§2.8) */
	if (feat == PD_FEAT_RESERVED && !sec->size)
		return;
	if (!range_ok(sec->offset, sec->size, src->map_len)) {
		r->meta.bad_features[feat / 64] |= 1ULL << (feat % 64);
		pd_rd_warn(r, entry_at, "feature %s: its section (%#llx, %llu bytes) lies beyond the end of the file; skipped",
			pd_feature_name(feat) ? pd_feature_name(feat) : "?",
			(unsigned long long)sec->offset, (unsigned long long)sec->size);
		return;
	}
	if (feat == PD_FEAT_TRACING_DATA) {
		r->meta.tracing_data_offset = sec->offset;
		r->meta.tracing_data_size = sec->size;
		return;
	}
	if (feat >= PD_FEAT_KNOWN) {
		pd_meta_note_unknown_feature(&r->meta, feat);
		return;
	}
	err = pd_feature_parse(&r->meta, feat, src->map + sec->offset, (size_t)sec->size,
			       r->info.swap, why, sizeof(why));
	if (err)
		pd_rd_warn(r, sec->offset, "feature %s is malformed (%s); it is ignored",
			pd_feature_name(feat), why[0] ? why : pd_strerror(err));
}

/* The table starts right after the data, one entry per set bit in bit order (§4.1). */
static void
read_features(struct pd_reader *r, const struct raw_header *h)
{
	const struct pd_source *src = &r->sources[0];
	uint64_t table = h->data_offset + h->data_size;
	unsigned int nr = 0, feat, i = 0;

	for (feat = 0; feat < PD_FEAT_BITS; feat++)
		nr += (h->features[feat / 64] >> (feat % 64)) & 1;
	if (!nr)
		return;
	if (!range_ok(table, (uint64_t)nr * 16, src->map_len)) {
		pd_rd_warn(r, table, "the feature table (%u entries) runs past the end of the file; no feature is read",
			nr);
		return;
	}
	for (feat = 0; feat < PD_FEAT_BITS; feat++) {
		struct pd_feat_section sec;
		uint64_t at;

		if (!((h->features[feat / 64] >> (feat % 64)) & 1))
			continue;
		at = table + 16ULL * i++;
		sec.offset = pd_load_u64(src->map + at, r->info.swap);
		sec.size = pd_load_u64(src->map + at + 8, r->info.swap);
		parse_one_feature(r, feat, at, &sec);
	}
}

/* Where reading the data stops, and whether a record past it is an error. */
static void
set_data_bounds(struct pd_reader *r, const struct raw_header *h)
{
	struct pd_source *src = &r->sources[0];
	uint64_t file_size = src->map_len;

	r->info.data_end = h->data_offset + h->data_size;
	src->pos = h->data_offset;
	src->strict = true;
	if (h->data_size == 0) {
		r->info.not_finalised = true;
		r->info.data_end = file_size;
		src->strict = false;
		pd_rd_warn(r, 48, "data size is 0: the recording was not finalised (was the recorder killed?); reading the records up to the end of the file");
	} else if (!range_ok(h->data_offset, h->data_size, file_size)) {
		r->info.data_end = file_size;
		src->strict = false;
		pd_rd_warn(r, 48, "the data section (%llu bytes at %#llx) runs past the end of the file (%llu bytes): the file was cut short; reading what is there",
			(unsigned long long)h->data_size, (unsigned long long)h->data_offset,
			(unsigned long long)file_size);
	}
	src->end = r->info.data_end;
}

static int
hdr_read_file(struct pd_reader *r)
{
	struct raw_header h;
	int err;

	err = read_raw_header(r, &h);
	if (err)
		return err;
	r->info.mode = PD_MODE_FILE;
	r->info.header_size = h.size;
	r->info.attr_size = h.attr_size;
	r->info.attrs_offset = h.attrs_offset;
	r->info.attrs_size = h.attrs_size;
	r->info.data_offset = h.data_offset;
	r->info.data_size = h.data_size;
	r->info.feat_offset = h.data_offset + h.data_size;
	r->info.file_size = r->sources[0].map_len;
	err = check_sections(r, &h);
	if (err)
		return err;
	err = read_attrs(r, &h);
	if (err)
		return err;
	set_data_bounds(r, &h);
	if (!r->info.not_finalised)
		read_features(r, &h);
	err = pd_evsel_apply_event_desc(r);
	return err ? pd_rd_fail(r, err, UINT64_MAX, "out of memory") : 0;
}

static int
hdr_read_pipe(struct pd_reader *r)
{
	r->info.mode = PD_MODE_PIPE;
	r->info.header_size = PD_PIPE_HEADER_SIZE;
	r->info.file_size = pd_src_is_mapped(&r->sources[0]) ? r->sources[0].map_len : 0;
	pd_src_advance(&r->sources[0], PD_PIPE_HEADER_SIZE);
	return 0;
}

/* Sniff the first 16 bytes of the main source and read its header. */
int
pd_hdr_read(struct pd_reader *r)
{
	struct pd_source *src = &r->sources[0];
	const unsigned char *p;
	size_t got = pd_src_peek(r, src, 24, &p);
	uint64_t hsize;
	int err;

	if (r->error)
		return r->error;
	if (got < 16)
		return pd_rd_fail(r, got ? -PD_E_TRUNCATED : -PD_E_BAD_MAGIC, 0,
			       "the input is %zu bytes, too short for a perf.data header", got);
	err = detect_magic(r, p, got);
	if (err)
		return err;
	hsize = pd_load_u64(p + 8, r->info.swap);
	if (hsize == PD_PIPE_HEADER_SIZE)
		return hdr_read_pipe(r);
	if (!pd_src_is_mapped(src))
		return pd_rd_fail(r, -PD_E_UNSUPPORTED, 8,
			       "a file-mode perf.data (header size %llu) cannot be read from a pipe; give its path",
			       (unsigned long long)hsize);
	return hdr_read_file(r);
}
