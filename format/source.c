/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/source.c - byte sources and record framing.
 *
 * A regular file is mapped and its records are handed out in place
 * (zero-copy).  Anything else (a pipe, a FIFO, a socket) is read as a
 * stream without seeking, through a buffer that always holds the whole
 * current record.  Framing rules: doc/perf-data-format.md §6, §7.3, §7.8.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/cursor.h"
#include "format/reader-int.h"

/*
 * A stream's buffer starts at a pipe's size and doubles while
 * reads fill it, up to STREAM_BUF_READ_MAX; a record larger than that
 * grows it to the record's size.
 */
#define STREAM_BUF_INITIAL	(64u << 10)
#define STREAM_BUF_READ_MAX	(1u << 20)

bool
pd_src_is_mapped(const struct pd_source *src)
{
	return src->buf == NULL;
}

static int
src_map(struct pd_reader *r, struct pd_source *src, const struct stat *st)
{
	void *map;

	if ((uint64_t)st->st_size > SIZE_MAX)
		return pd_rd_fail_at(r, -PD_E_TOO_BIG, src, UINT64_MAX,
				  "the file is too big to map on this host");
	src->map_len = (size_t)st->st_size;
	src->end = src->map_len;
	if (!src->map_len)
		return 0;
	map = mmap(NULL, src->map_len, PROT_READ, MAP_PRIVATE, src->fd, 0);
	if (map == MAP_FAILED)
		return pd_rd_fail_at(r, PD_ERR_ERRNO(errno), src, UINT64_MAX,
				  "cannot map the file");
	madvise(map, src->map_len, MADV_SEQUENTIAL | MADV_WILLNEED);
	src->map = map;
	return 0;
}

static int
src_init_stream(struct pd_reader *r, struct pd_source *src)
{
	src->buf = malloc(STREAM_BUF_INITIAL);
	if (!src->buf)
		return pd_rd_fail(r, -PD_E_NOMEM, UINT64_MAX, "out of memory");
	src->buf_cap = STREAM_BUF_INITIAL;
	src->end = UINT64_MAX;
	return 0;
}

int
pd_src_open_fd(struct pd_reader *r, struct pd_source *src, int fd, const char *name)
{
	struct stat st;

	src->fd = fd;
	src->name = strdup(name);
	if (!src->name)
		return pd_rd_fail(r, -PD_E_NOMEM, UINT64_MAX, "out of memory");
	if (fstat(fd, &st) < 0)
		return pd_rd_fail_at(r, PD_ERR_ERRNO(errno), src, UINT64_MAX, "cannot stat");
	if (S_ISDIR(st.st_mode))
		return pd_rd_fail_at(r, PD_ERR_ERRNO(EISDIR), src, UINT64_MAX, "cannot read");
	/* A regular file read through a shifted fd offset is treated as a stream. */
	if (src == &r->sources[0])
		r->info.mtime_sec = st.st_mtime;
	if (S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_CUR) == 0)
		return src_map(r, src, &st);
	return src_init_stream(r, src);
}

int
pd_src_open_path(struct pd_reader *r, struct pd_source *src, const char *path,
	      const char *name)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		src->fd = -1;
		src->name = strdup(name);
		return pd_rd_fail_at(r, PD_ERR_ERRNO(errno), src, UINT64_MAX, "cannot open");
	}
	src->own_fd = true;
	return pd_src_open_fd(r, src, fd, name);
}

void
pd_src_close(struct pd_source *src)
{
	if (src->map)
		munmap((void *)src->map, src->map_len);
	if (src->own_fd && src->fd >= 0)
		close(src->fd);
	free(src->buf);
	free(src->name);
	pd_zs_free(src->zstd);
	memset(src, 0, sizeof(*src));
	src->fd = -1;
}

/* A read filled the buffer: the next ones may read twice as much. */
static int
stream_grow(struct pd_source *src)
{
	unsigned char *buf;

	if (src->buf_cap >= STREAM_BUF_READ_MAX)
		return 0;
	buf = realloc(src->buf, src->buf_cap * 2);
	if (!buf)
		return -1;
	src->buf = buf;
	src->buf_cap *= 2;
	return 0;
}

static int
stream_fill(struct pd_reader *r, struct pd_source *src, size_t want)
{
	while (src->buf_end - src->buf_start < want && !src->eof) {
		ssize_t n;

		if (src->buf_cap - src->buf_start < want) {
			memmove(src->buf, src->buf + src->buf_start,
				src->buf_end - src->buf_start);
			src->buf_end -= src->buf_start;
			src->buf_start = 0;
		}
		if (src->buf_cap < want) {
			unsigned char *buf = realloc(src->buf, want);

			if (!buf)
				return pd_rd_fail(r, -PD_E_NOMEM, src->pos, "out of memory");
			src->buf = buf;
			src->buf_cap = want;
		}
		n = read(src->fd, src->buf + src->buf_end, src->buf_cap - src->buf_end);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return pd_rd_fail_at(r, PD_ERR_ERRNO(errno), src, src->pos, "read failed");
		if (n == 0)
			src->eof = true;
		src->buf_end += (size_t)n;
		if (src->buf_end == src->buf_cap && stream_grow(src) < 0)
			return pd_rd_fail(r, -PD_E_NOMEM, src->pos, "out of memory");
	}
	return 0;
}

size_t
pd_src_peek(struct pd_reader *r, struct pd_source *src, size_t n,
	 const unsigned char **out)
{
	size_t avail;

	if (pd_src_is_mapped(src)) {
		avail = src->pos < src->end ? (size_t)(src->end - src->pos) : 0;
		*out = avail ? src->map + src->pos : NULL;
		return avail < n ? avail : n;
	}
	if (stream_fill(r, src, n) < 0) {
		*out = NULL;
		return 0;
	}
	avail = src->buf_end - src->buf_start;
	*out = src->buf + src->buf_start;
	return avail < n ? avail : n;
}

void
pd_src_advance(struct pd_source *src, size_t n)
{
	if (!pd_src_is_mapped(src))
		src->buf_start += n;
	src->pos += n;
}

/* Consume n bytes of a stream, copied to copy unless it is NULL. */
static int
src_take(struct pd_reader *r, struct pd_source *src, uint64_t n,
	 unsigned char *copy)
{
	while (n) {
		size_t chunk = n < src->buf_cap ? (size_t)n : src->buf_cap;
		const unsigned char *p;
		size_t got = pd_src_peek(r, src, chunk, &p);

		if (r->error)
			return r->error;
		if (!got)
			return pd_rd_fail_at(r, -PD_E_TRUNCATED, src, src->pos,
					  "the stream ends inside a record's payload (%llu bytes missing)",
					  (unsigned long long)n);
		if (copy) {
			memcpy(copy, p, got);
			copy += got;
		}
		pd_src_advance(src, got);
		n -= got;
	}
	return 0;
}

int
pd_src_skip(struct pd_reader *r, struct pd_source *src, uint64_t n)
{
	if (pd_src_is_mapped(src)) {
		src->pos += n;
		return 0;
	}
	return src_take(r, src, n, NULL);
}

/* The largest tracing data blob a stream's reader keeps a copy of. */
#define PD_TRACING_KEEP_MAX	(256u << 20)

/*
 * A stream's TRACING_DATA blob, read into r->meta.tracing_data_blob: a
 * tool cannot read it again at its offset, as it can in a file.  A blob
 * that cannot be allocated is skipped (the meta keeps no copy).
 */
static int
src_keep(struct pd_reader *r, struct pd_source *src, uint64_t n)
{
	unsigned char *buf = malloc(n ? (size_t)n : 1);
	int err;

	free(r->meta.tracing_data_blob);
	r->meta.tracing_data_blob = NULL;
	if (!buf)
		return src_take(r, src, n, NULL);
	err = src_take(r, src, n, buf);
	if (err)
		free(buf);
	else
		r->meta.tracing_data_blob = buf;
	return err;
}

/*
 * AUXTRACE data and perf's pipe-mode TRACING_DATA blob follow their record
 * outside header.size.  simpleperf's older type-66 record keeps its data
 * inside header.size instead, so look at whether the blob fits.
 */
static uint64_t
payload_after(const unsigned char *p, uint32_t type, uint32_t size, bool swap)
{
	if (type == PD_RECORD_AUXTRACE && size >= 16)
		return pd_load_u64(p + 8, swap);
	if (type == PD_RECORD_HEADER_TRACING_DATA && size >= 12) {
		uint32_t blob = pd_load_u32(p + 8, swap);

		if ((uint64_t)size < 12 + (uint64_t)blob)
			return blob;
	}
	return 0;
}

/*
 * A record whose bytes run past the data.  In a finalised file whose data
 * section lies whole on disk that is corruption; a file not finalised, cut
 * short, or a stream that stopped, ends with a partial record: read up to
 * it and warn.
 */
static int
src_truncated(struct pd_reader *r, struct pd_source *src, uint64_t need, uint64_t avail,
	      const char *what)
{
	if (src->strict)
		return pd_rd_fail_at(r, -PD_E_TRUNCATED, src, src->pos,
				  "%s of %llu bytes runs past the end of the data section (%llu bytes left)",
				  what, (unsigned long long)need, (unsigned long long)avail);
	pd_rd_warn_at(r, src, src->pos, "the file ends inside a record (%llu of its %llu bytes are there); the records before it were read",
		   (unsigned long long)avail, (unsigned long long)need);
	src->pos = src->end;
	src->eof = true;
	src->buf_start = src->buf_end;
	return 0;
}

/*
 * A record smaller than its header is corruption, except in a file that
 * was never finalised (data.size 0), where it marks the end of what the
 * recorder wrote.
 */
static int
src_bad_size(struct pd_reader *r, struct pd_source *src, uint32_t type, uint32_t size)
{
	if (!r->info.not_finalised || src != r->sources)
		return pd_rd_fail_at(r, -PD_E_BAD_SIZE, src, src->pos,
				  "record type %u has size %u, smaller than its 8-byte header",
				  type, size);
	pd_rd_warn(r, src->pos, "reading stops here: the bytes are no longer records (type %u, size %u)",
		type, size);
	src->pos = src->end;
	return 0;
}

/*
 * A stream buffers each record whole, up to a cap.  A larger size is
 * either the garbage tail of a stream that ends soon (a cut-short
 * recording, text appended to it) or a record we cannot hold.
 */
static int
src_too_big(struct pd_reader *r, struct pd_source *src, uint32_t type, uint32_t size)
{
	uint64_t at = src->pos, avail = 0;

	/* Either way reading stops here: count what follows, keeping none of it. */
	while (avail < PD_STREAM_RECORD_MAX) {
		const unsigned char *p;
		size_t got = pd_src_peek(r, src, src->buf_cap, &p);

		if (r->error)
			return r->error;
		if (!got)
			break;
		pd_src_advance(src, got);
		avail += got;
	}
	src->pos = at;
	if (avail < PD_STREAM_RECORD_MAX)
		return src_truncated(r, src, size, avail, "a record");
	return pd_rd_fail_at(r, -PD_E_TOO_BIG, src, src->pos,
			  "record type %u of %u bytes is larger than the %u bytes a stream may buffer",
			  type, size, PD_STREAM_RECORD_MAX);
}

/* Returns 1 with *rec filled, 0 at the end of the source, or an error. */
int
pd_src_read_record(struct pd_reader *r, struct pd_source *src, struct pd_record *rec)
{
	const unsigned char *p;
	uint32_t type, size;
	uint16_t misc, size16;
	uint64_t payload;
	size_t got;
	bool swap = r->info.swap;
	int err;

	if (src->pending_size) {
		pd_src_advance(src, (size_t)src->pending_size);
		src->pending_size = 0;
	}
	if (src->pending_payload) {
		err = src->pending_keep ?
		      src_keep(r, src, src->pending_payload) :
		      pd_src_skip(r, src, src->pending_payload);
		src->pending_payload = 0;
		src->pending_keep = false;
		if (err)
			return err;
	}
	if (src->pos >= src->end)
		return 0;
	got = pd_src_peek(r, src, PD_EVENT_HEADER_SIZE, &p);
	if (r->error)
		return r->error;
	if (got == 0)
		return 0;
	if (got < PD_EVENT_HEADER_SIZE)
		return src_truncated(r, src, PD_EVENT_HEADER_SIZE, got, "a record header");
	type = pd_load_u32(p, swap);
	misc = pd_load_u16(p + 4, swap);
	size16 = pd_load_u16(p + 6, swap);
	size = size16;
	if (type >= PD_RECORD_SP_START) {
		size = (uint32_t)misc << 16 | size16;
		misc = 0;
	}
	if (size < PD_EVENT_HEADER_SIZE)
		return src_bad_size(r, src, type, size);
	if (size > PD_STREAM_RECORD_MAX && !pd_src_is_mapped(src))
		return src_too_big(r, src, type, size);
	got = pd_src_peek(r, src, size, &p);
	if (r->error)
		return r->error;
	if (got < size)
		return src_truncated(r, src, size, got, "a record");
	payload = payload_after(p, type, size, swap);
	if (payload && pd_src_is_mapped(src) && payload > src->end - src->pos - size)
		return src_truncated(r, src, size + payload, src->end - src->pos,
				     "a record with its trailing payload");

	memset(rec, 0, sizeof(*rec));
	rec->header.type = type;
	rec->header.misc = misc;
	rec->header.size = size16;
	rec->size = size;
	rec->data = p;
	rec->offset = src->pos;
	rec->source = (unsigned int)(src - r->sources);
	rec->origin = PD_ORIGIN_FILE;
	rec->swap = swap;
	rec->evsel = -1;
	rec->payload_size = payload;
	if (payload && pd_src_is_mapped(src))
		rec->payload = p + size;
	src->pending_size = size;
	src->pending_payload = payload;
	src->pending_keep = payload && !pd_src_is_mapped(src) &&
			    type == PD_RECORD_HEADER_TRACING_DATA &&
			    payload <= PD_TRACING_KEEP_MAX;
	return 1;
}

bool
pd_reader_mapping(const struct pd_reader *r, const unsigned char **lo,
		  const unsigned char **hi)
{
	const struct pd_source *src = r->nr_sources ? &r->sources[0] : NULL;

	if (!src || !src->map)
		return false;
	*lo = src->map;
	*hi = src->map + src->map_len;
	return true;
}

#define DROP_STEP	((size_t)1 << 20)

void
pd_reader_drop_before(struct pd_reader *r, const unsigned char *upto)
{
	struct pd_source *src = r->nr_sources ? &r->sources[0] : NULL;
	size_t off;

	if (!src || !src->map || upto < src->map ||
	    upto > src->map + src->map_len)
		return;
	off = (size_t)(upto - src->map);
	if (off < src->dropped || off - src->dropped < DROP_STEP)
		return;
	off &= ~((size_t)sysconf(_SC_PAGESIZE) - 1);
	madvise((void *)(src->map + src->dropped), off - src->dropped,
		MADV_DONTNEED);
	src->dropped = off;
}
