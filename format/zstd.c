/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/zstd.c - records inside PERF_RECORD_COMPRESSED (81) and
 * COMPRESSED2 (83).
 *
 * The payloads of one file (or one data.N file) are consecutive pieces of
 * ONE zstd stream that perf flushes but never ends, and a record may start
 * in one payload and end in the next (doc/perf-data-format.md §10.2).  So
 * each source keeps a single decompression stream, and the bytes of a
 * partial record stay in the output window until the next payload
 * completes it.  Output is produced a window at a time, never sized from
 * the file: a record is at most 64 KiB, so the window always has room.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "format/cursor.h"
#include "format/reader-int.h"

#define OUT_WINDOW	(1u << 20)

struct pd_zstd {
	ZSTD_DStream *ds;
	ZSTD_inBuffer in;
	unsigned char *out;
	size_t out_start, out_end;
	uint64_t stream_pos;	/* decompressed bytes before out[out_start] */
	bool flushed;		/* the last call left no output inside zstd */
};

static int
zs_create(struct pd_reader *r, struct pd_source *src, uint64_t offset)
{
	struct pd_zstd *z = calloc(1, sizeof(*z));

	if (!z || !(z->out = malloc(OUT_WINDOW)) || !(z->ds = ZSTD_createDStream())) {
		pd_zs_free(z);
		return pd_rd_fail_at(r, -PD_E_NOMEM, src, offset, "out of memory");
	}
	ZSTD_initDStream(z->ds);
	src->zstd = z;
	return 0;
}

void
pd_zs_free(struct pd_zstd *z)
{
	if (!z)
		return;
	ZSTD_freeDStream(z->ds);
	free(z->out);
	free(z);
}

int
pd_zs_feed(struct pd_reader *r, struct pd_source *src, const struct pd_record *rec)
{
	const unsigned char *payload = rec->data + PD_EVENT_HEADER_SIZE;
	size_t len = rec->size - PD_EVENT_HEADER_SIZE;
	int err;

	if (rec->header.type == PD_RECORD_COMPRESSED2) {
		uint64_t data_size;

		if (rec->size < 16)
			return pd_rd_fail_at(r, -PD_E_BAD_RECORD, src, rec->offset,
					  "COMPRESSED2 record of %u bytes has no data_size field",
					  rec->size);
		data_size = pd_load_u64(payload, rec->swap);
		if (data_size > rec->size - 16u)
			return pd_rd_fail_at(r, -PD_E_BAD_RECORD, src, rec->offset,
					  "COMPRESSED2 data_size %llu exceeds the record's %u bytes",
					  (unsigned long long)data_size, rec->size);
		payload += 8;
		len = (size_t)data_size;
	}
	if (!src->zstd) {
		err = zs_create(r, src, rec->offset);
		if (err)
			return err;
	}
	src->zstd->in.src = payload;
	src->zstd->in.size = len;
	src->zstd->in.pos = 0;
	src->zstd->flushed = false;
	r->comp_offset = rec->offset;
	r->in_compressed = true;
	r->stats.bytes_compressed += len;
	return 0;
}

static int
zs_take_record(struct pd_reader *r, struct pd_source *src, struct pd_record *rec)
{
	struct pd_zstd *z = src->zstd;
	const unsigned char *p = z->out + z->out_start;
	size_t avail = z->out_end - z->out_start;
	uint32_t type;
	uint16_t size;

	if (avail < PD_EVENT_HEADER_SIZE)
		return 0;
	type = pd_load_u32(p, r->info.swap);
	size = pd_load_u16(p + 6, r->info.swap);
	if (size < PD_EVENT_HEADER_SIZE)
		return pd_rd_fail_at(r, -PD_E_BAD_SIZE, src, r->comp_offset,
				  "in the decompressed data at byte %llu: record type %u has size %u, smaller than its 8-byte header",
				  (unsigned long long)z->stream_pos, type, size);
	if (avail < size)
		return 0;
	if (type == PD_RECORD_COMPRESSED || type == PD_RECORD_COMPRESSED2 ||
	    type == PD_RECORD_AUXTRACE || type == PD_RECORD_HEADER_TRACING_DATA)
		return pd_rd_fail_at(r, -PD_E_BAD_RECORD, src, r->comp_offset,
				  "in the decompressed data at byte %llu: a record of type %u cannot be inside a compressed payload",
				  (unsigned long long)z->stream_pos, type);
	memset(rec, 0, sizeof(*rec));
	rec->header.type = type;
	rec->header.misc = pd_load_u16(p + 4, r->info.swap);
	rec->header.size = size;
	rec->size = size;
	rec->data = p;
	rec->offset = r->comp_offset;
	rec->stream_offset = z->stream_pos;
	rec->source = (unsigned int)(src - r->sources);
	rec->origin = PD_ORIGIN_COMPRESSED;
	rec->swap = r->info.swap;
	rec->evsel = -1;
	z->out_start += size;
	z->stream_pos += size;
	return 1;
}

int
pd_zs_next(struct pd_reader *r, struct pd_source *src, struct pd_record *rec)
{
	struct pd_zstd *z = src->zstd;

	for (;;) {
		ZSTD_outBuffer out;
		size_t before_in, ret;
		int got = zs_take_record(r, src, rec);

		if (got)
			return got;
		/*
		 * zstd may take all the input yet hold output back when the
		 * window filled up: the payload is used up only once a call
		 * returned with room to spare.
		 */
		if (z->in.pos >= z->in.size && z->flushed) {
			r->in_compressed = false;
			return 0;
		}
		memmove(z->out, z->out + z->out_start, z->out_end - z->out_start);
		z->out_end -= z->out_start;
		z->out_start = 0;
		out.dst = z->out;
		out.size = OUT_WINDOW;
		out.pos = z->out_end;
		before_in = z->in.pos;
		ret = ZSTD_decompressStream(z->ds, &out, &z->in);
		if (ZSTD_isError(ret))
			return pd_rd_fail_at(r, -PD_E_ZSTD, src, r->comp_offset,
					  "zstd: %s (decompressed stream byte %llu)",
					  ZSTD_getErrorName(ret),
					  (unsigned long long)(z->stream_pos + z->out_end));
		if (out.pos == z->out_end && z->in.pos == before_in &&
		    z->in.pos < z->in.size)
			return pd_rd_fail_at(r, -PD_E_ZSTD, src, r->comp_offset,
					  "zstd made no progress on this payload");
		r->stats.bytes_decompressed += out.pos - z->out_end;
		z->out_end = out.pos;
		z->flushed = out.pos < out.size;
	}
}

void
pd_zs_finish(struct pd_reader *r, struct pd_source *src)
{
	struct pd_zstd *z = src->zstd;

	if (z && z->out_end > z->out_start)
		pd_rd_warn_at(r, src, r->comp_offset, "the compressed data ends inside a record (%zu bytes left over)",
			   z->out_end - z->out_start);
}
