/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/writer.c - write a perf.data file or a pipe-mode stream the way
 * perf 6.1 lays them out.
 *
 * File mode (doc/perf-data-format.md §1.1, §2.6): a provisional header
 * with data size 0 (readers take such a file as "not finalised" and scan
 * its records), the id arrays from offset 104, the attr entries, the
 * records, and at the end the feature table, the payloads in id order and
 * the final header.  Pipe mode (§9.1): the 16-byte header, HEADER_ATTR
 * per event, HEADER_FEATURE per feature perf 6.1 sends, its end marker,
 * HEADER_TRACING_DATA, then the records.  A directory's data.N file
 * (opts.bare, §12.1) holds the records alone.
 *
 * Records go through one 1 MiB buffer; a write larger than half of it
 * goes to the fd directly, so the data path makes one system call per
 * megabyte or per large span, never one per record.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/compiler.h"
#include "format/zcomp.h"
#include "pdata/errors.h"
#include "pdata/writer.h"

#define WBUF_SIZE	(1U << 20)
/* the buffer's first size: it doubles while writes fill it */
#define WBUF_FIRST	(64U << 10)
#define FEAT_WORDS	(PD_FEAT_BITS / 64)

/* the fields after an attr entry: its ids' perf_file_section */
#define ATTR_IDS_SECTION	16
#define FEATURE_RECORD_HDR	16	/* header + u64 feat_id */
#define TRACING_RECORD_SIZE	16	/* header + u32 size + u32 pad */

/*
 * The features perf 6.1 sends as HEADER_FEATURE in pipe mode (its
 * "synthesize" column, §4.3): not TRACING_DATA (a record of its own),
 * BUILD_ID, BRANCH_STACK, AUXTRACE, STAT, CACHE, DIR_FORMAT,
 * HYBRID_TOPOLOGY, nor CPU_DOMAIN_INFO, whose id is 6.1's end marker.
 */
static const uint64_t pipe_features =
	(1ULL << PD_FEAT_HOSTNAME) | (1ULL << PD_FEAT_OSRELEASE) |
	(1ULL << PD_FEAT_VERSION) | (1ULL << PD_FEAT_ARCH) |
	(1ULL << PD_FEAT_NRCPUS) | (1ULL << PD_FEAT_CPUDESC) |
	(1ULL << PD_FEAT_CPUID) | (1ULL << PD_FEAT_TOTAL_MEM) |
	(1ULL << PD_FEAT_CMDLINE) | (1ULL << PD_FEAT_EVENT_DESC) |
	(1ULL << PD_FEAT_CPU_TOPOLOGY) | (1ULL << PD_FEAT_NUMA_TOPOLOGY) |
	(1ULL << PD_FEAT_PMU_MAPPINGS) | (1ULL << PD_FEAT_GROUP_DESC) |
	(1ULL << PD_FEAT_SAMPLE_TIME) | (1ULL << PD_FEAT_MEM_TOPOLOGY) |
	(1ULL << PD_FEAT_CLOCKID) | (1ULL << PD_FEAT_BPF_PROG_INFO) |
	(1ULL << PD_FEAT_BPF_BTF) | (1ULL << PD_FEAT_COMPRESSED) |
	(1ULL << PD_FEAT_CPU_PMU_CAPS) | (1ULL << PD_FEAT_CLOCK_DATA) |
	(1ULL << PD_FEAT_PMU_CAPS);

enum w_state {
	W_EVSELS,	/* taking pd_writer_add_evsel() */
	W_DATA,		/* taking records */
	W_DONE,		/* finished */
	W_FAILED,	/* an I/O error: the output is incomplete */
};

struct w_evsel {
	struct pd_attr attr;
	uint32_t size;		/* attr bytes to write */
	uint64_t *ids;
	size_t nr_ids;
};

struct w_raw {
	unsigned char *p;
	size_t len;
	bool set;
};

struct pd_writer {
	int fd;
	bool pipe;
	bool regular;		/* a regular file: truncated at the end */
	enum w_state state;

	struct w_evsel *evsels;
	size_t nr_evsels;

	unsigned char *buf;	/* buf_cap bytes, at most WBUF_SIZE */
	size_t buf_len, buf_cap;
	uint64_t pos;		/* output offset of buf[0] */

	uint64_t attr_size;	/* file mode: attr entry stride */
	uint64_t attrs_offset;
	uint64_t data_offset;	/* file mode: where the records start */
	uint64_t data_size;	/* record bytes taken */
	uint64_t synced;	/* of those, what the header on disk covers */
	uint64_t hi;		/* the output's end: what reached the fd */

	struct pd_zcomp *zcomp;	/* with opts.zstd_level */
	bool zcomp_cut;		/* salvage cut records: the stream is broken */
	unsigned int zstd_level;
	uint32_t zstd_mmap_len;
	uint64_t mark_end;	/* file mode -z: data size up to the last mark */
	bool dir;		/* opts.dir: marks carry DIR_FORMAT */
	bool bare;		/* opts.bare: records only */

	struct w_raw raw[PD_FEAT_BITS];
	uint64_t dropped[FEAT_WORDS];
	char errmsg[256];
};

static int PD_PRINTF(4, 5)
w_fail(struct pd_writer *w, int err, uint64_t offset, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(w->errmsg, sizeof(w->errmsg), "offset %#llx: ",
		     (unsigned long long)offset);
	if (n >= 0 && (size_t)n < sizeof(w->errmsg)) {
		va_start(ap, fmt);
		vsnprintf(w->errmsg + n, sizeof(w->errmsg) - (size_t)n, fmt,
			  ap);
		va_end(ap);
	}
	return err;
}

static int PD_PRINTF(2, 3)
w_bad_arg(struct pd_writer *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->errmsg, sizeof(w->errmsg), fmt, ap);
	va_end(ap);
	return -PD_E_INVAL;
}

/* After a failed write the output is incomplete: keep the first message. */
static int
failed_already(const struct pd_writer *w)
{
	return -PD_E_INVAL;
}

static void
bit_set(uint64_t *bits, unsigned int k)
{
	bits[k / 64] |= 1ULL << (k % 64);
}

static bool
bit_test(const uint64_t *bits, unsigned int k)
{
	return (bits[k / 64] >> (k % 64)) & 1;
}

/* Wait until a non-blocking fd takes bytes again. */
static int
wait_writable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };

	while (poll(&pfd, 1, -1) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* Write n bytes at w->pos (file mode) or at the stream's end (pipe mode). */
static int
out_write(struct pd_writer *w, const void *p, size_t n)
{
	const unsigned char *c = p;
	ssize_t got;
	int err;

	while (n) {
		if (w->pipe)
			got = write(w->fd, c, n);
		else
			got = pwrite(w->fd, c, n, (off_t)w->pos);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			err = wait_writable(w->fd);
			if (!err)
				continue;
			errno = -err;
		}
		if (got <= 0) {
			err = got < 0 ? errno : EIO;
			w->state = W_FAILED;
			return w_fail(w, PD_ERR_ERRNO(err), w->pos,
				      "writing %zu bytes: %s", n,
				      strerror(err));
		}
		c += got;
		n -= (size_t)got;
		w->pos += (uint64_t)got;
		if (w->pos > w->hi)
			w->hi = w->pos;
	}
	return 0;
}

static int
buf_flush(struct pd_writer *w)
{
	int err;

	if (!w->buf_len)
		return 0;
	err = out_write(w, w->buf, w->buf_len);
	if (!err)
		w->buf_len = 0;
	return err;
}

/* Room for n more bytes in the buffer, doubled up to WBUF_SIZE: false if not. */
static bool
buf_grow(struct pd_writer *w, size_t n)
{
	size_t cap = w->buf_cap;
	unsigned char *grown;

	while (cap < WBUF_SIZE && cap - w->buf_len < n)
		cap *= 2;
	if (cap == w->buf_cap || cap - w->buf_len < n)
		return false;
	grown = realloc(w->buf, cap);
	if (!grown)
		return false;
	w->buf = grown;
	w->buf_cap = cap;
	return true;
}

/* Append n bytes to the output, through the buffer or around it. */
static int
emit(struct pd_writer *w, const void *p, size_t n)
{
	int err;

	if (n <= w->buf_cap - w->buf_len || buf_grow(w, n)) {
		memcpy(w->buf + w->buf_len, p, n);
		w->buf_len += n;
		return 0;
	}
	err = buf_flush(w);
	if (err)
		return err;
	if (n >= WBUF_SIZE / 2 || (n > w->buf_cap && !buf_grow(w, n)))
		return out_write(w, p, n);
	memcpy(w->buf, p, n);
	w->buf_len = n;
	return 0;
}

static int
emit_zeros(struct pd_writer *w, size_t n)
{
	static const unsigned char zero[64];
	size_t k;
	int err = 0;

	while (n && !err) {
		k = n < sizeof(zero) ? n : sizeof(zero);
		err = emit(w, zero, k);
		n -= k;
	}
	return err;
}

static int
emit_u64(struct pd_writer *w, uint64_t v)
{
	return emit(w, &v, sizeof(v));
}

/* The output offset of the next byte emitted. */
static uint64_t
out_end(const struct pd_writer *w)
{
	return w->pos + w->buf_len;
}

int
pd_writer_open(struct pd_writer **out, int fd,
	       const struct pd_writer_opts *opts)
{
	struct pd_writer *w;
	struct stat st;

	*out = NULL;
	if (fd < 0 || (opts && opts->bare && (opts->pipe || opts->dir)))
		return -PD_E_INVAL;
	if (fstat(fd, &st) < 0)
		return PD_ERR_ERRNO(errno);
	if (!(opts && opts->pipe)) {
		if (lseek(fd, 0, SEEK_CUR) < 0)
			return PD_ERR_ERRNO(errno);
		/* pwrite() on an O_APPEND fd appends: the header would move */
		if (fcntl(fd, F_GETFL) & O_APPEND)
			return -PD_E_INVAL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return -PD_E_NOMEM;
	w->buf_cap = WBUF_FIRST;
	w->buf = malloc(w->buf_cap);
	if (!w->buf) {
		free(w);
		return -PD_E_NOMEM;
	}
	if (opts && opts->zstd_level &&
	    pd_zcomp_new(&w->zcomp, opts->zstd_level)) {
		free(w->buf);
		free(w);
		return -PD_E_INVAL;
	}
	if (w->zcomp) {
		w->zstd_level = opts->zstd_level;
		w->zstd_mmap_len = opts->zstd_mmap_len;
	}
	w->fd = fd;
	w->pipe = opts && opts->pipe;
	w->dir = opts && opts->dir;
	w->bare = opts && opts->bare;
	w->regular = S_ISREG(st.st_mode);
	w->state = W_EVSELS;
	*out = w;
	return 0;
}

/* 0 means what perf 6.1 writes; anything else must be a real ABI size. */
static int
evsel_attr_size(uint32_t asked, uint32_t *size)
{
	if (!asked) {
		*size = PD_ATTR_SIZE_VER7;
		return 0;
	}
	if (asked < PD_ATTR_SIZE_VER0 || asked > PD_ATTR_SIZE_MAX ||
	    asked % 8)
		return -PD_E_BAD_ATTR;
	*size = asked;
	return 0;
}

int
pd_writer_add_evsel(struct pd_writer *w, const struct pd_attr *attr,
		    const uint64_t *ids, size_t nr_ids)
{
	struct w_evsel *grown, *ev;
	uint32_t size;

	if (w->state != W_EVSELS)
		return w_bad_arg(w, "events must be added before the data starts");
	if (w->bare)
		return w_bad_arg(w, "a bare data file holds no event");
	if (evsel_attr_size(attr->size, &size))
		return w_fail(w, -PD_E_BAD_ATTR, 0,
			      "event %zu: attr size %u is not a perf_event_attr size (64..%u, a multiple of 8)",
			      w->nr_evsels, attr->size, PD_ATTR_SIZE_MAX);
	/* a HEADER_ATTR record must hold them all (§7.3) */
	if (nr_ids > (PD_RECORD_MAX_SIZE - 8 - size) / 8)
		return w_fail(w, -PD_E_TOO_BIG, 0,
			      "event %zu: %zu ids are more than one HEADER_ATTR record holds",
			      w->nr_evsels, nr_ids);
	if (nr_ids && !ids)
		return w_bad_arg(w, "event %zu: %zu ids but no array",
				 w->nr_evsels, nr_ids);
	grown = realloc(w->evsels, (w->nr_evsels + 1) * sizeof(*grown));
	if (!grown)
		return -PD_E_NOMEM;
	w->evsels = grown;
	ev = &grown[w->nr_evsels];
	memset(ev, 0, sizeof(*ev));
	ev->attr = *attr;
	ev->size = size;
	if (nr_ids) {
		ev->ids = malloc(nr_ids * sizeof(*ids));
		if (!ev->ids)
			return -PD_E_NOMEM;
		memcpy(ev->ids, ids, nr_ids * sizeof(*ids));
	}
	ev->nr_ids = nr_ids;
	w->nr_evsels++;
	return 0;
}

int
pd_writer_set_feature_raw(struct pd_writer *w, unsigned int feat,
			  const void *buf, size_t len)
{
	struct w_raw *r;
	unsigned char *copy = NULL;

	if (feat == PD_FEAT_RESERVED || feat >= PD_FEAT_BITS)
		return w_bad_arg(w, "feature id %u cannot be written", feat);
	if (w->state == W_DONE || w->state == W_FAILED ||
	    (w->pipe && w->state != W_EVSELS))
		return w_bad_arg(w, "feature %u comes too late", feat);
	if (len && !buf)
		return w_bad_arg(w, "feature %u: %zu bytes but no buffer",
				 feat, len);
	r = &w->raw[feat];
	if (buf) {
		copy = malloc(len ? len : 1);
		if (!copy)
			return -PD_E_NOMEM;
		memcpy(copy, buf, len);
	}
	free(r->p);
	r->p = copy;
	r->len = len;
	r->set = buf != NULL;
	return 0;
}

/* The file header (§2.1); data_size 0 and no feature bit while recording. */
static int
emit_file_header(struct pd_writer *w, uint64_t data_size,
		 const uint64_t *features)
{
	uint64_t h[PD_FILE_HEADER_SIZE / 8] = {
		PD_MAGIC2, PD_FILE_HEADER_SIZE, w->attr_size,
		w->attrs_offset, (uint64_t)w->nr_evsels * w->attr_size,
		w->data_offset, data_size,
		0, 0,		/* event_types: obsolete */
	};
	unsigned int i;

	for (i = 0; i < FEAT_WORDS; i++)
		h[9 + i] = features[i];
	return emit(w, h, sizeof(h));
}

/*
 * The id arrays from offset 104, then the attrs, all of one stride: the
 * largest size asked for (§2.6, §3.1).
 */
static int
begin_file(struct pd_writer *w)
{
	static const uint64_t no_features[FEAT_WORDS];
	unsigned char attr[PD_ATTR_SIZE_MAX];
	uint64_t ids_at = PD_FILE_HEADER_SIZE;
	uint32_t size = 0;
	size_t i, j;
	int err;

	for (i = 0; i < w->nr_evsels; i++)
		if (w->evsels[i].size > size)
			size = w->evsels[i].size;
	if (!size)
		size = PD_ATTR_SIZE_VER7;
	w->attr_size = size + ATTR_IDS_SECTION;
	w->attrs_offset = PD_FILE_HEADER_SIZE;
	for (i = 0; i < w->nr_evsels; i++)
		w->attrs_offset += 8ULL * w->evsels[i].nr_ids;
	w->data_offset = w->attrs_offset + w->nr_evsels * w->attr_size;

	err = emit_file_header(w, 0, no_features);
	for (i = 0; !err && i < w->nr_evsels; i++)
		for (j = 0; !err && j < w->evsels[i].nr_ids; j++)
			err = emit_u64(w, w->evsels[i].ids[j]);
	for (i = 0; !err && i < w->nr_evsels; i++) {
		const struct w_evsel *ev = &w->evsels[i];

		pd_attr_encode(&ev->attr, size, attr);
		err = emit(w, attr, size);
		if (!err)
			err = emit_u64(w, ids_at);
		if (!err)
			err = emit_u64(w, 8ULL * ev->nr_ids);
		ids_at += 8ULL * ev->nr_ids;
	}
	return err;
}

static int
emit_record_header(struct pd_writer *w, uint32_t type, size_t size)
{
	struct pd_event_header h = {
		.type = type,
		.misc = 0,
		.size = (uint16_t)size,
	};

	return emit(w, &h, sizeof(h));
}

static int
emit_header_attr(struct pd_writer *w, const struct w_evsel *ev)
{
	unsigned char attr[PD_ATTR_SIZE_MAX];
	size_t size = 8 + ev->size + 8 * ev->nr_ids;
	size_t j;
	int err;

	pd_attr_encode(&ev->attr, ev->size, attr);
	err = emit_record_header(w, PD_RECORD_HEADER_ATTR, size);
	if (!err)
		err = emit(w, attr, ev->size);
	for (j = 0; !err && j < ev->nr_ids; j++)
		err = emit_u64(w, ev->ids[j]);
	return err;
}

/* Whether feature feat is to be written, and is not known to be broken. */
static bool
feature_wanted(const struct pd_writer *w, const struct pd_meta *meta,
	       unsigned int feat)
{
	if (w->raw[feat].set)
		return true;
	return meta && feat != PD_FEAT_RESERVED && pd_meta_has(meta, feat) &&
	       !bit_test(meta->bad_features, feat);
}

/*
 * The payload of feat: the raw bytes given, else encoded from meta.
 * *owned is what the caller frees.  A feature meta cannot encode is
 * dropped (return 1), as perf drops a feature whose writer fails.
 */
static int
feature_payload(struct pd_writer *w, const struct pd_meta *meta,
		unsigned int feat, const void **p, size_t *len, void **owned)
{
	int err;

	*owned = NULL;
	if (w->raw[feat].set) {
		*p = w->raw[feat].p;
		*len = w->raw[feat].len;
		return 0;
	}
	err = pd_feature_encode(meta, feat, owned, len);
	if (err == -PD_E_NOMEM)
		return w_fail(w, err, out_end(w),
			      "out of memory encoding feature %u", feat);
	if (err) {
		bit_set(w->dropped, feat);
		return 1;
	}
	*p = *owned;
	return 0;
}

static int
emit_header_feature(struct pd_writer *w, const struct pd_meta *meta,
		    unsigned int feat)
{
	const void *p;
	void *owned;
	size_t len;
	int err;

	err = feature_payload(w, meta, feat, &p, &len, &owned);
	if (err)
		return err < 0 ? err : 0;
	/* perf sends no record for an empty payload */
	if (!len) {
		free(owned);
		return 0;
	}
	if (len > PD_RECORD_MAX_SIZE - FEATURE_RECORD_HDR) {
		free(owned);
		bit_set(w->dropped, feat);
		return 0;
	}
	err = emit_record_header(w, PD_RECORD_HEADER_FEATURE,
				 FEATURE_RECORD_HDR + len);
	if (!err)
		err = emit_u64(w, feat);
	if (!err)
		err = emit(w, p, len);
	free(owned);
	return err;
}

/* HEADER_TRACING_DATA: the blob follows the record, padded to 8 (§7.3). */
static int
emit_tracing_data(struct pd_writer *w)
{
	const struct w_raw *r = &w->raw[PD_FEAT_TRACING_DATA];
	size_t aligned = (r->len + 7) & ~(size_t)7;
	uint32_t v[2] = { (uint32_t)aligned, 0 };
	int err;

	if (aligned > UINT32_MAX) {
		bit_set(w->dropped, PD_FEAT_TRACING_DATA);
		return 0;
	}
	err = emit_record_header(w, PD_RECORD_HEADER_TRACING_DATA,
				 TRACING_RECORD_SIZE);
	if (!err)
		err = emit(w, v, sizeof(v));
	if (!err)
		err = emit(w, r->p, r->len);
	if (!err)
		err = emit_zeros(w, aligned - r->len);
	return err;
}

static int
begin_pipe(struct pd_writer *w, const struct pd_meta *meta)
{
	uint64_t h[2] = { PD_MAGIC2, PD_PIPE_HEADER_SIZE };
	unsigned int feat;
	size_t i;
	int err;

	err = emit(w, h, sizeof(h));
	for (i = 0; !err && i < w->nr_evsels; i++)
		err = emit_header_attr(w, &w->evsels[i]);
	for (feat = 0; !err && feat < 64; feat++)
		if (((pipe_features >> feat) & 1) &&
		    feature_wanted(w, meta, feat))
			err = emit_header_feature(w, meta, feat);
	/* the end marker: perf 6.1's HEADER_LAST_FEATURE, no payload (§9.2) */
	if (!err)
		err = emit_record_header(w, PD_RECORD_HEADER_FEATURE,
					 FEATURE_RECORD_HDR);
	if (!err)
		err = emit_u64(w, PD_FEAT_LAST_61);
	if (!err && w->raw[PD_FEAT_TRACING_DATA].set)
		err = emit_tracing_data(w);
	return err;
}

int
pd_writer_begin_data(struct pd_writer *w, const struct pd_meta *meta)
{
	int err;

	if (w->state != W_EVSELS)
		return w_bad_arg(w, "the data section was already started");
	if (w->bare)
		err = 0;
	else
		err = w->pipe ? begin_pipe(w, meta) : begin_file(w);
	if (err) {
		w->state = W_FAILED;
		return err;
	}
	if (w->pipe)
		w->data_offset = out_end(w);
	w->state = W_DATA;
	return 0;
}

int
pd_writer_write(struct pd_writer *w, const void *buf, size_t len)
{
	int err;

	if (w->state == W_FAILED)
		return failed_already(w);
	if (w->state != W_DATA)
		return w_bad_arg(w, "records can be written only between pd_writer_begin_data() and pd_writer_finish()");
	if (!len)
		return 0;
	if (!buf)
		return w_bad_arg(w, "%zu bytes but no buffer", len);
	err = emit(w, buf, len);
	if (!err)
		w->data_size += len;
	return err;
}

static int
zrec_emit(void *ctx, const void *rec, size_t len)
{
	return pd_writer_write(ctx, rec, len);
}

int
pd_writer_write_compressed(struct pd_writer *w, const void *buf, size_t len)
{
	if (!w->zcomp)
		return w_bad_arg(w, "pd_writer_write_compressed() needs opts.zstd_level");
	if (w->zcomp_cut)
		return w_bad_arg(w, "pd_writer_salvage() cut records: the zstd stream cannot go on");
	if (w->state != W_DATA)
		return pd_writer_write(w, buf, len);
	if (!len)
		return 0;
	if (!buf)
		return w_bad_arg(w, "%zu bytes but no buffer", len);
	return pd_zcomp_records(w->zcomp, buf, len, zrec_emit, w);
}

void
pd_writer_compressed_totals(const struct pd_writer *w, uint64_t *in,
			    uint64_t *out)
{
	pd_zcomp_totals(w->zcomp, in, out);
}

uint64_t
pd_writer_data_size(const struct pd_writer *w)
{
	return w->data_size;
}

int
pd_writer_flush(struct pd_writer *w)
{
	if (w->state == W_FAILED)
		return failed_already(w);
	return buf_flush(w);
}

/* The file header's data size (§2.1: data.size, at byte 48), in place. */
#define HEADER_DATA_SIZE_AT	48

static int
header_data_size(struct pd_writer *w, uint64_t size)
{
	ssize_t got;

	do
		got = pwrite(w->fd, &size, sizeof(size), HEADER_DATA_SIZE_AT);
	while (got < 0 && errno == EINTR);
	if (got == (ssize_t)sizeof(size))
		return 0;
	w->state = W_FAILED;
	return w_fail(w, PD_ERR_ERRNO(got < 0 ? errno : EIO),
		      HEADER_DATA_SIZE_AT, "updating the data size: %s",
		      strerror(got < 0 ? errno : EIO));
}

/*
 * The mark a -z file, or the data file of a directory, ends each pass
 * with (doc/perf-data-format.md §2.8, §2.10): a FINISHED_ROUND whose bytes
 * also read as a feature table, RESERVED first (its offset is the
 * record's header, its size 0), then DIR_FORMAT and COMPRESSED as the
 * writer has them, their payloads following in the record.  The
 * header's data size stops at the mark, so that perf 6.1, which needs
 * HEADER_COMPRESSED to decompress and DIR_FORMAT to open the data.N
 * files, reads a killed recording; the next records go after it, and
 * the mark becomes a record of the data.
 */
#define MARK_HEAD	16
#define MARK_ENTRY	16
#define DIR_PAYLOAD	8
#define COMP_PAYLOAD	20
#define COMP_PADDED	24
#define HEADER_FEATURES_AT	72

static size_t
mark_size(const struct pd_writer *w)
{
	return MARK_HEAD + (w->dir ? MARK_ENTRY + DIR_PAYLOAD : 0) +
	       (w->zcomp ? MARK_ENTRY + COMP_PADDED : 0);
}

static void
mark_features(const struct pd_writer *w, uint64_t *features)
{
	memset(features, 0, FEAT_WORDS * sizeof(*features));
	bit_set(features, PD_FEAT_RESERVED);
	if (w->dir)
		bit_set(features, PD_FEAT_DIR_FORMAT);
	if (w->zcomp)
		bit_set(features, PD_FEAT_COMPRESSED);
}

static int
emit_mark(struct pd_writer *w)
{
	size_t size = mark_size(w);
	uint64_t payload = out_end(w) + MARK_HEAD +
			   MARK_ENTRY * ((size_t)w->dir + (w->zcomp != NULL));
	uint64_t table[6];
	uint32_t compressed[COMP_PADDED / 4] = {
		0, PD_COMP_ZSTD, w->zstd_level, 0, w->zstd_mmap_len, 0,
	};
	size_t n = 0;
	int err;

	table[n++] = PD_RECORD_FINISHED_ROUND | (uint64_t)size << 48;
	table[n++] = 0;
	if (w->dir) {
		table[n++] = payload;
		table[n++] = DIR_PAYLOAD;
		payload += DIR_PAYLOAD;
	}
	if (w->zcomp) {
		table[n++] = payload;
		table[n++] = COMP_PAYLOAD;
	}
	err = emit(w, table, n * sizeof(*table));
	/* DIR_FORMAT's payload: perf 6.1's directory version, 1 */
	if (!err && w->dir)
		err = emit_u64(w, 1);
	if (!err && w->zcomp)
		err = emit(w, compressed, sizeof(compressed));
	return err;
}

static int
header_features(struct pd_writer *w, const uint64_t *features)
{
	size_t len = FEAT_WORDS * sizeof(*features);
	ssize_t got;

	do
		got = pwrite(w->fd, features, len, HEADER_FEATURES_AT);
	while (got < 0 && errno == EINTR);
	if (got == (ssize_t)len)
		return 0;
	w->state = W_FAILED;
	return w_fail(w, PD_ERR_ERRNO(got < 0 ? errno : EIO),
		      HEADER_FEATURES_AT, "updating the feature bitmap: %s",
		      strerror(got < 0 ? errno : EIO));
}

static int
sync_marked(struct pd_writer *w)
{
	uint64_t features[FEAT_WORDS];
	uint64_t size = w->data_size;
	bool first = !w->mark_end;
	int err;

	if (size == w->mark_end)
		return 0;
	mark_features(w, features);
	err = emit_mark(w);
	if (!err)
		err = buf_flush(w);
	if (!err)
		err = header_data_size(w, size);
	if (!err && first)
		err = header_features(w, features);
	if (err)
		return err;
	w->synced = size;
	w->data_size = w->mark_end = size + mark_size(w);
	return 0;
}

int
pd_writer_sync(struct pd_writer *w)
{
	int err;

	if (w->state == W_FAILED)
		return failed_already(w);
	if (w->state != W_DATA)
		return w_bad_arg(w, "pd_writer_sync() needs a started, unfinished data section");
	err = buf_flush(w);
	if (!err && w->bare)
		w->synced = w->data_size;
	if (err || w->pipe || w->bare || w->synced == w->data_size)
		return err;
	if (w->zcomp || w->dir)
		return sync_marked(w);
	err = header_data_size(w, w->data_size);
	if (!err)
		w->synced = w->data_size;
	return err;
}

/*
 * The end of the last whole record in [at, end) of the file, the
 * records laid end to end from at; reading stops at the first header
 * that cannot be read or does not fit.
 */
static uint64_t
whole_records_end(const struct pd_writer *w, uint64_t at, uint64_t end)
{
	struct pd_event_header h;

	while (end - at >= sizeof(h)) {
		if (pread(w->fd, &h, sizeof(h), (off_t)at) !=
		    (ssize_t)sizeof(h) ||
		    h.size < sizeof(h) || h.size > end - at)
			break;
		at += h.size;
	}
	return at;
}

int
pd_writer_salvage(struct pd_writer *w, uint64_t *kept)
{
	uint64_t features[FEAT_WORDS] = { 0 };
	uint64_t end, at;
	int err;

	if (w->pipe || w->state == W_EVSELS || w->state == W_DONE)
		return w_bad_arg(w, "pd_writer_salvage() needs a file whose data section was started");
	end = w->data_offset + w->data_size;
	if (end > w->hi)
		end = w->hi;
	if (w->mark_end || (w->bare && w->zcomp)) {
		/* past the last mark (sync) the zstd stream cannot be trusted */
		uint64_t keep = w->bare ? w->synced : w->mark_end;

		at = w->data_offset + keep;
		w->zcomp_cut = w->data_size > keep;
		w->data_size = keep;
	} else {
		at = whole_records_end(w, w->data_offset + w->synced, end);
		w->zcomp_cut = w->zcomp && at - w->data_offset < w->data_size;
		w->data_size = w->synced = at - w->data_offset;
	}
	w->buf_len = 0;
	w->pos = w->hi = at;
	if (w->regular && ftruncate(w->fd, (off_t)at) < 0)
		return w_fail(w, PD_ERR_ERRNO(errno), at,
			      "truncating the file: %s", strerror(errno));
	if (w->mark_end)
		mark_features(w, features);
	/* the header, in place: it needs no room the file lacks */
	w->pos = 0;
	err = w->bare ? 0 : emit_file_header(w, w->synced, features);
	if (!err)
		err = buf_flush(w);
	w->pos = at;
	if (err)
		return err;
	w->state = W_DATA;
	*kept = w->data_size;
	return 0;
}

struct w_section {
	void *owned;
	const void *p;
	size_t len;
};

/*
 * Encode every feature first: the table holds exactly one entry per bit
 * that makes it into the header, with no slack (§4.1).
 */
static int
collect_features(struct pd_writer *w, const struct pd_meta *meta,
		 struct w_section *sec, uint64_t *features)
{
	unsigned int feat;
	int err;

	for (feat = 0; feat < PD_FEAT_BITS; feat++) {
		if (!feature_wanted(w, meta, feat))
			continue;
		if (!w->raw[feat].set && feat >= PD_FEAT_KNOWN) {
			bit_set(w->dropped, feat);
			continue;
		}
		err = feature_payload(w, meta, feat, &sec[feat].p,
				      &sec[feat].len, &sec[feat].owned);
		if (err < 0)
			return err;
		if (!err)
			bit_set(features, feat);
	}
	return 0;
}

static int
emit_features(struct pd_writer *w, const struct w_section *sec,
	      const uint64_t *features)
{
	unsigned int feat, nr = 0;
	uint64_t at;
	int err = 0;

	for (feat = 0; feat < PD_FEAT_BITS; feat++)
		nr += bit_test(features, feat);
	at = out_end(w) + 16ULL * nr;
	for (feat = 0; !err && feat < PD_FEAT_BITS; feat++) {
		if (!bit_test(features, feat))
			continue;
		err = emit_u64(w, at);
		if (!err)
			err = emit_u64(w, sec[feat].len);
		at += sec[feat].len;
	}
	for (feat = 0; !err && feat < PD_FEAT_BITS; feat++)
		if (bit_test(features, feat))
			err = emit(w, sec[feat].p, sec[feat].len);
	return err;
}

static int
finish_file(struct pd_writer *w, const struct pd_meta *meta)
{
	uint64_t features[FEAT_WORDS] = { 0 };
	struct w_section *sec;
	uint64_t end;
	unsigned int feat;
	int err;

	sec = calloc(PD_FEAT_BITS, sizeof(*sec));
	if (!sec)
		return -PD_E_NOMEM;
	err = collect_features(w, meta, sec, features);
	if (!err)
		err = emit_features(w, sec, features);
	for (feat = 0; feat < PD_FEAT_BITS; feat++)
		free(sec[feat].owned);
	free(sec);
	if (!err)
		err = buf_flush(w);
	if (err)
		return err;
	end = w->pos;
	/* the final header, over the provisional one */
	w->pos = 0;
	err = emit_file_header(w, w->data_size, features);
	if (!err)
		err = buf_flush(w);
	w->pos = end;
	if (!err && w->regular && ftruncate(w->fd, (off_t)end) < 0) {
		w->state = W_FAILED;
		err = w_fail(w, PD_ERR_ERRNO(errno), end,
			     "truncating the file: %s", strerror(errno));
	}
	return err;
}

static int
finish_bare(struct pd_writer *w)
{
	int err = buf_flush(w);

	if (!err && w->regular && ftruncate(w->fd, (off_t)w->pos) < 0)
		err = w_fail(w, PD_ERR_ERRNO(errno), w->pos,
			     "truncating the file: %s", strerror(errno));
	return err;
}

int
pd_writer_finish(struct pd_writer *w, const struct pd_meta *meta)
{
	int err;

	if (w->state == W_FAILED)
		return failed_already(w);
	if (w->state != W_DATA)
		return w_bad_arg(w, "pd_writer_finish() needs a started, unfinished data section");
	if (w->bare)
		err = finish_bare(w);
	else
		err = w->pipe ? buf_flush(w) : finish_file(w, meta);
	if (err) {
		if (err != -PD_E_NOMEM)
			w->state = W_FAILED;
		return err;
	}
	w->state = W_DONE;
	return 0;
}

void
pd_writer_close(struct pd_writer *w)
{
	size_t i;

	if (!w)
		return;
	/* an unfinished recording keeps its records: "not finalised" */
	if (w->state == W_DATA)
		(void)buf_flush(w);
	for (i = 0; i < w->nr_evsels; i++)
		free(w->evsels[i].ids);
	free(w->evsels);
	for (i = 0; i < PD_FEAT_BITS; i++)
		free(w->raw[i].p);
	free(w->buf);
	pd_zcomp_free(w->zcomp);
	free(w);
}

const char *
pd_writer_errmsg(const struct pd_writer *w)
{
	return w && w->errmsg[0] ? w->errmsg : "no error";
}

bool
pd_writer_feature_dropped(const struct pd_writer *w, unsigned int feat)
{
	return feat < PD_FEAT_BITS && bit_test(w->dropped, feat);
}
