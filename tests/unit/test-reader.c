/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-reader.c - the perf.data reader of pdata/reader.h.
 *
 * Every test builds whole perf.data images in memory (tests/unit/buf.h),
 * in both byte orders, writes them to a temporary file, a directory or a
 * real pipe fed by a child process, reads them back with pd_reader_open()
 * or pd_reader_open_fd(), and compares what the reader reports with what
 * the builder wrote: the container facts, the events, and every record
 * with its offset, size, origin, source, event and payload.
 *
 * Layouts: doc/perf-data-format.md (§ numbers below).  Compressed
 * payloads are made the way perf makes them (§10.2): ONE zstd stream per
 * file, ZSTD_compressStream() + ZSTD_flushStream() per chunk, never ended.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "pdata/reader.h"
#include "tests/unit/attr.h"
#include "tests/unit/buf.h"
#include "tests/unit/t.h"

/* T() with both values printed, and a formatted context. */
#define EQ(got, want, fmt, ...)						\
	do {								\
		uint64_t eq_g_ = (uint64_t)(got), eq_w_ = (uint64_t)(want); \
		T(eq_g_ == eq_w_, fmt ": got %#" PRIx64 ", want %#" PRIx64, \
		  __VA_ARGS__, eq_g_, eq_w_);				\
	} while (0)

#define STR_EQ(got, want, fmt, ...)					\
	do {								\
		const char *se_g_ = (got), *se_w_ = (want);		\
		T(se_g_ && se_w_ && !strcmp(se_g_, se_w_),		\
		  fmt ": got \"%s\", want \"%s\"", __VA_ARGS__,		\
		  se_g_ ? se_g_ : "(null)", se_w_ ? se_w_ : "(null)");	\
	} while (0)

/*
 * Under UndefinedBehaviorSanitizer, undefined behaviour in the reader is a
 * failure like any other, not a line in the log.
 */
const char *__ubsan_default_options(void);

const char *
__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1";
}

static char tmpdir[256];
static unsigned int tmp_serial;

static const char *
order_name(bool be)
{
	return be ? "BE" : "LE";
}

/* ------------------------------------------------------------------ */
/* Record streams and what the reader must say of each record          */
/* ------------------------------------------------------------------ */

struct xrec {
	uint32_t type;
	uint16_t misc;			/* as the reader reports it */
	uint16_t hsize;			/* header.size as the reader reports it */
	uint32_t size;
	uint64_t offset;		/* in its stream; inner ones: their COMPRESSED record's */
	uint64_t stream_offset;		/* inner records: in the decompressed stream */
	enum pd_record_origin origin;
	int evsel;
	uint64_t payload_size;		/* bytes after the record (AUXTRACE, TRACING_DATA) */
	unsigned char *bytes;		/* the record as written */
	unsigned char *payload;
};

struct stream {
	struct tbuf b;
	struct xrec *x;
	size_t nx, cap;
};

static void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		abort();
	return p;
}

static unsigned char *
memdup(const void *p, size_t n)
{
	unsigned char *q = xmalloc(n);

	memcpy(q, p, n);
	return q;
}

static void
s_init(struct stream *s, bool be)
{
	memset(s, 0, sizeof(*s));
	tb_init(&s->b, be);
}

static void
s_free(struct stream *s)
{
	size_t i;

	for (i = 0; i < s->nx; i++) {
		free(s->x[i].bytes);
		free(s->x[i].payload);
	}
	free(s->x);
	tb_free(&s->b);
	memset(s, 0, sizeof(*s));
}

static size_t
s_push(struct stream *s, const struct xrec *x)
{
	if (s->nx == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->x = realloc(s->x, s->cap * sizeof(*s->x));
		if (!s->x)
			abort();
	}
	s->x[s->nx] = *x;
	return s->nx++;
}

/* Expect the size bytes written at at to come back as this record. */
static size_t
s_expect(struct stream *s, size_t at, uint32_t type, uint16_t misc,
	 uint32_t size, int evsel)
{
	struct xrec x = { 0 };

	x.type = type;
	x.misc = misc;
	x.size = size;
	x.hsize = (uint16_t)size;
	x.offset = at;
	x.origin = PD_ORIGIN_FILE;
	x.evsel = evsel;
	x.bytes = memdup(s->b.p + at, size);
	return s_push(s, &x);
}

static size_t
s_begin(struct stream *s, uint32_t type, uint16_t misc)
{
	return tb_begin_record(&s->b, type, misc);
}

/* Finish the record begun at at; returns its index in s->x. */
static size_t
s_end(struct stream *s, size_t at, int evsel)
{
	tb_end_record(&s->b, at);
	return s_expect(s, at, (uint32_t)tb_load(&s->b, at, 4),
			(uint16_t)tb_load(&s->b, at + 4, 2),
			(uint32_t)(s->b.len - at), evsel);
}

/* n bytes that follow record k outside its size (AUXTRACE data, §7.8). */
static void
s_payload(struct stream *s, size_t k, size_t n, unsigned char fill)
{
	size_t at = s->b.len, i;

	for (i = 0; i < n; i++)
		tb_u8(&s->b, (uint8_t)(fill + i));
	s->x[k].payload_size = n;
	s->x[k].payload = memdup(s->b.p + at, n);
}

/* A record whose body is n u64 words. */
static size_t
s_words(struct stream *s, uint32_t type, uint16_t misc, const uint64_t *w,
	size_t n, int evsel)
{
	size_t at = s_begin(s, type, misc), i;

	for (i = 0; i < n; i++)
		tb_u64(&s->b, w[i]);
	return s_end(s, at, evsel);
}

static size_t
s_round(struct stream *s)
{
	return s_words(s, PD_RECORD_FINISHED_ROUND, 0, NULL, 0, -1);
}

/* A SAMPLE of IDENTIFIER id, IP, TID, TIME and PERIOD (ST_IDENT below). */
static size_t
s_sample(struct stream *s, uint64_t id, int evsel)
{
	uint64_t w[] = { id, 0x400000, 0x10, 7, 1 };

	return s_words(s, PD_RECORD_SAMPLE, 0, w, ARRAY_SIZE(w), evsel);
}

/* COMM: u32 pid, tid; comm padded to 8; then the trailer words. */
static size_t
s_comm(struct stream *s, uint32_t pid, const char *comm, const uint64_t *trailer,
       size_t nt, int evsel)
{
	size_t at = s_begin(s, PD_RECORD_COMM, 0), i;

	tb_u32(&s->b, pid);
	tb_u32(&s->b, pid);
	tb_str_padded(&s->b, comm, 8);
	for (i = 0; i < nt; i++)
		tb_u64(&s->b, trailer[i]);
	return s_end(s, at, evsel);
}

/* HEADER_FEATURE (80), payload as given: perf 6.1 does not pad it (§9.2). */
static size_t
s_feature(struct stream *s, uint64_t feat, const struct tbuf *payload)
{
	size_t at = s_begin(s, PD_RECORD_HEADER_FEATURE, 0);

	tb_u64(&s->b, feat);
	if (payload)
		tb_bytes(&s->b, payload->p, payload->len);
	return s_end(s, at, -1);
}

/* EVENT_UPDATE (78) NAME or UNIT: a string padded to 8 (§7.6). */
static size_t
s_event_update_str(struct stream *s, uint64_t type, uint64_t id, const char *str)
{
	size_t at = s_begin(s, PD_RECORD_EVENT_UPDATE, 0);

	tb_u64(&s->b, type);
	tb_u64(&s->b, id);
	tb_str_padded(&s->b, str, 8);
	return s_end(s, at, -1);
}

static size_t
s_event_update_scale(struct stream *s, uint64_t id, double scale)
{
	size_t at = s_begin(s, PD_RECORD_EVENT_UPDATE, 0);
	uint64_t bits;

	memcpy(&bits, &scale, sizeof(bits));
	tb_u64(&s->b, PD_EVENT_UPDATE_SCALE);
	tb_u64(&s->b, id);
	tb_u64(&s->b, bits);
	return s_end(s, at, -1);
}

/* AUXTRACE (71): 48 bytes, then size bytes of AUX data (§7.8). */
static size_t
s_auxtrace(struct stream *s, uint64_t size, unsigned char fill)
{
	size_t at = s_begin(s, PD_RECORD_AUXTRACE, 0), k;

	tb_u64(&s->b, size);
	tb_u64(&s->b, 0x1000);		/* offset in the AUX buffer */
	tb_u64(&s->b, 0xfeedfacecafe);	/* reference */
	tb_u32(&s->b, 1);		/* idx */
	tb_u32(&s->b, 4242);		/* tid */
	tb_u32(&s->b, 1);		/* cpu */
	tb_u32(&s->b, 0);
	k = s_end(s, at, -1);
	s_payload(s, k, (size_t)size, 0x40);
	return k;
}

/* perf's pipe-mode TRACING_DATA (66): 16 bytes, then the blob (§7.3). */
static size_t
s_tracing_data_pipe(struct stream *s, uint32_t blob)
{
	size_t at = s_begin(s, PD_RECORD_HEADER_TRACING_DATA, 0), k;

	tb_u32(&s->b, blob);
	tb_u32(&s->b, 0);
	k = s_end(s, at, -1);
	s_payload(s, k, blob, 0x17);
	return k;
}

/* simpleperf's type-66 record, whose header.size covers its data. */
static size_t
s_tracing_data_inside(struct stream *s, uint32_t blob)
{
	size_t at = s_begin(s, PD_RECORD_HEADER_TRACING_DATA, 0), i;

	tb_u32(&s->b, blob);
	for (i = 0; i < blob; i++)
		tb_u8(&s->b, (uint8_t)(0x80 + i));
	return s_end(s, at, -1);
}

/*
 * A simpleperf record (type >= 32768): its size is 32 bits, the high half
 * in header.misc (simpleperf record.h); the reader reports misc 0.
 */
static size_t
s_simpleperf(struct stream *s, uint32_t type, uint32_t size)
{
	size_t at = s->b.len, i;

	tb_u32(&s->b, type);
	tb_u16(&s->b, (uint16_t)(size >> 16));
	tb_u16(&s->b, (uint16_t)size);
	for (i = 8; i < size; i++)
		tb_u8(&s->b, (uint8_t)(i * 31));
	return s_expect(s, at, type, 0, size, -1);
}

/* ------------------------------------------------------------------ */
/* zstd: one stream per file, flushed per chunk, never ended (§10.2)  */
/* ------------------------------------------------------------------ */

struct zin {
	struct stream in;	/* the records before compression */
	ZSTD_CStream *cs;
	size_t done;		/* bytes of in already compressed */
	size_t next;		/* first record of in not yet completed */
};

static void
z_init(struct zin *z, bool be)
{
	s_init(&z->in, be);
	z->cs = ZSTD_createCStream();
	if (!z->cs || ZSTD_isError(ZSTD_initCStream(z->cs, 1)))
		abort();
	z->done = z->next = 0;
}

static void
z_free(struct zin *z)
{
	ZSTD_freeCStream(z->cs);
	s_free(&z->in);
}

static void
z_compress(struct zin *z, const unsigned char *src, size_t len, struct tbuf *out)
{
	ZSTD_inBuffer in = { src, len, 0 };
	size_t chunk = ZSTD_CStreamOutSize(), ret;

	do {
		ZSTD_outBuffer o;

		tb_zeros(out, chunk);
		o.dst = out->p + out->len - chunk;
		o.size = chunk;
		o.pos = 0;
		if (in.pos < in.size)
			ret = ZSTD_compressStream(z->cs, &o, &in);
		else
			ret = ZSTD_flushStream(z->cs, &o);
		if (ZSTD_isError(ret))
			abort();
		out->len -= chunk - o.pos;
	} while (in.pos < in.size || ret != 0);
}

/*
 * Compress in's bytes [done, upto) as one flush into one COMPRESSED (81)
 * or COMPRESSED2 (83) record of s, and expect after it the inner records
 * that this payload completes.  Returns the outer record's index.
 */
static size_t
z_flush(struct stream *s, struct zin *z, size_t upto, uint32_t type)
{
	struct tbuf out;
	size_t at, k, comp_off;

	tb_init(&out, s->b.big_endian);
	z_compress(z, z->in.b.p + z->done, upto - z->done, &out);
	at = s_begin(s, type, 0);
	if (type == PD_RECORD_COMPRESSED2) {
		tb_u64(&s->b, out.len);
		tb_bytes(&s->b, out.p, out.len);
		tb_zeros(&s->b, (8 - (16 + out.len) % 8) % 8);
	} else {
		tb_bytes(&s->b, out.p, out.len);
	}
	if (s->b.len - at > PD_RECORD_MAX_SIZE)
		abort();
	k = s_end(s, at, -1);
	comp_off = s->x[k].offset;
	tb_free(&out);
	z->done = upto;
	while (z->next < z->in.nx &&
	       z->in.x[z->next].offset + z->in.x[z->next].size <= upto) {
		struct xrec x = z->in.x[z->next++];

		x.stream_offset = x.offset;
		x.offset = comp_off;
		x.origin = PD_ORIGIN_COMPRESSED;
		x.bytes = memdup(x.bytes, x.size);
		x.payload = x.payload ? memdup(x.payload, (size_t)x.payload_size) : NULL;
		s_push(s, &x);
	}
	return k;
}

/* ------------------------------------------------------------------ */
/* perf_event_attr images (§3.3) and file-mode images (§1.1, §2, §3)   */
/* ------------------------------------------------------------------ */

#define ST_IDENT	(PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP | PD_SAMPLE_TID |	\
			 PD_SAMPLE_TIME | PD_SAMPLE_PERIOD)

/* An attr with every field set to a value that shows where it came from. */
static struct pd_attr
full_attr(uint64_t sample_type, uint64_t config)
{
	struct pd_attr a = {
		.type = PD_TYPE_SOFTWARE,
		.config = config,
		.sample_period = 4000,
		.sample_type = sample_type,
		.read_format = PD_FORMAT_ID | PD_FORMAT_LOST,
		.flags = 1ULL << PD_ATTR_DISABLED | 1ULL << PD_ATTR_INHERIT |
			 1ULL << PD_ATTR_MMAP | 1ULL << PD_ATTR_COMM |
			 1ULL << PD_ATTR_FREQ | 1ULL << PD_ATTR_PRECISE_IP |
			 1ULL << PD_ATTR_SAMPLE_ID_ALL | 1ULL << PD_ATTR_MMAP2 |
			 1ULL << PD_ATTR_COMM_EXEC | 1ULL << PD_ATTR_USE_CLOCKID |
			 1ULL << PD_ATTR_SIGTRAP,
		.wakeup_events = 0x01020304,
		.bp_type = 0x0a0b0c0d,
		.config1 = 0x1111111111111101ULL,
		.config2 = 0x2222222222222202ULL,
		.branch_sample_type = PD_BRANCH_ANY | PD_BRANCH_HW_INDEX,
		.sample_regs_user = 0xff0fffULL,
		.sample_stack_user = 8192,
		.clockid = -7,
		.sample_regs_intr = 0x5555555555555505ULL,
		.aux_watermark = 0x66666606,
		.sample_max_stack = 127,
		.reserved_2 = 0,
		.aux_sample_size = 0x77777707,
		.aux_action = PD_AUX_PAUSE | PD_AUX_RESUME,
		.sig_data = 0x8888888888888808ULL,
		.config3 = 0x9999999999999909ULL,
		.config4 = 0xaaaaaaaaaaaaaa0aULL,
	};

	return a;
}

struct fattr {
	struct pd_attr a;	/* a.size is what the entry's size field says */
	const uint64_t *ids;
	size_t nr_ids;
};

struct ffeat {
	unsigned int bit;
	const unsigned char *p;
	size_t len;
};

struct fspec {
	bool be;
	unsigned int version;		/* 2: PERFILE2, 1: PERFFILE */
	uint64_t header_size;		/* 104, or 72 for the oldest files */
	const struct fattr *attrs;
	size_t nr_attrs;
	size_t attr_bytes;		/* bytes of each attr entry before its ids section */
	const struct stream *data;
	const struct ffeat *feats;	/* in bit order */
	size_t nr_feats;
	bool data_size_zero;		/* write data.size 0 (not finalised) */
	bool no_hostname;		/* do not add HOSTNAME, which perf always writes */
};

struct flayout {
	uint64_t attrs_offset, attrs_size;
	uint64_t data_offset, data_size;
	uint64_t feat_offset;
	uint64_t ids_offset[8];
};

/*
 * The features to write: f's, plus HOSTNAME unless told otherwise, as
 * perf always writes it and readers of the other byte order rely on it
 * (§14.2); none for a 72-byte header, which has no bitmap.
 */
static size_t
file_features(const struct fspec *f, struct ffeat *out, struct tbuf *host)
{
	size_t n = 0, i;
	bool have_host = false;

	if (f->header_size < PD_FILE_HEADER_SIZE)
		return 0;
	for (i = 0; i < f->nr_feats; i++)
		have_host |= f->feats[i].bit == PD_FEAT_HOSTNAME;
	for (i = 0; i < f->nr_feats; i++) {
		if (!have_host && !f->no_hostname && f->feats[i].bit > PD_FEAT_HOSTNAME) {
			out[n++] = (struct ffeat){ PD_FEAT_HOSTNAME, host->p, host->len };
			have_host = true;
		}
		out[n++] = f->feats[i];
	}
	if (!have_host && !f->no_hostname)
		out[n++] = (struct ffeat){ PD_FEAT_HOSTNAME, host->p, host->len };
	return n;
}

/* header | id arrays | attrs | data | feature table | payloads (§1.1) */
static void
build_file(struct tbuf *img, const struct fspec *f, struct flayout *l)
{
	uint64_t bitmap[4] = { 0, 0, 0, 0 };
	struct ffeat feats[16];
	struct tbuf host;
	size_t i, j, table, nr_feats;

	tb_init(img, f->be);
	tb_init(&host, f->be);
	tb_header_string(&host, "localhost");
	nr_feats = file_features(f, feats, &host);
	memset(l, 0, sizeof(*l));
	tb_zeros(img, (size_t)f->header_size);
	for (i = 0; i < f->nr_attrs; i++) {
		l->ids_offset[i] = img->len;
		for (j = 0; j < f->attrs[i].nr_ids; j++)
			tb_u64(img, f->attrs[i].ids[j]);
	}
	l->attrs_offset = img->len;
	for (i = 0; i < f->nr_attrs; i++) {
		tb_attr(img, &f->attrs[i].a, f->attrs[i].a.size, f->attr_bytes, 0xee);
		tb_u64(img, l->ids_offset[i]);
		tb_u64(img, 8 * f->attrs[i].nr_ids);
	}
	l->attrs_size = img->len - l->attrs_offset;
	l->data_offset = img->len;
	if (f->data)
		tb_bytes(img, f->data->b.p, f->data->b.len);
	l->data_size = img->len - l->data_offset;
	l->feat_offset = img->len;
	table = img->len;
	tb_zeros(img, 16 * nr_feats);
	for (i = 0; i < nr_feats; i++) {
		tb_patch(img, table + 16 * i, img->len, 8);
		tb_patch(img, table + 16 * i + 8, feats[i].len, 8);
		tb_bytes(img, feats[i].p, feats[i].len);
		bitmap[feats[i].bit / 64] |= 1ULL << (feats[i].bit % 64);
	}
	tb_free(&host);
	if (f->version == 1)
		memcpy(img->p, "PERFFILE", 8);
	else
		tb_patch(img, 0, PD_MAGIC2, 8);
	tb_patch(img, 8, f->header_size, 8);
	tb_patch(img, 16, f->attr_bytes + 16, 8);
	tb_patch(img, 24, l->attrs_offset, 8);
	tb_patch(img, 32, l->attrs_size, 8);
	tb_patch(img, 40, l->data_offset, 8);
	tb_patch(img, 48, f->data_size_zero ? 0 : l->data_size, 8);
	if (f->header_size >= PD_FILE_HEADER_SIZE)
		for (i = 0; i < 4; i++)
			tb_patch(img, 72 + 8 * i, bitmap[i], 8);
}

static void
build_pipe(struct tbuf *img, const struct stream *s)
{
	tb_init(img, s->b.big_endian);
	tb_u64(img, PD_MAGIC2);
	tb_u64(img, PD_PIPE_HEADER_SIZE);
	tb_bytes(img, s->b.p, s->b.len);
}

/* ------------------------------------------------------------------ */
/* Reading an image back                                              */
/* ------------------------------------------------------------------ */

#define MAX_WARN	16

/* A record as pd_reader_next() handed it out, copied before the next call. */
struct grec {
	struct pd_record rec;		/* its data and payload: bytes, payload */
	int find_evsel;			/* pd_reader_find_evsel() on the same record */
	bool has_payload;		/* payload was not NULL */
	bool payload_follows;		/* payload == data + size */
	unsigned char *bytes;
	unsigned char *payload;
};

struct walk {
	struct pd_reader *r;
	int open_err;
	int end;			/* what stopped pd_reader_next(): 0 or -PD_E_* */
	struct grec *recs;
	size_t nr, cap;
	size_t nr_warn;
	uint64_t warn_off[MAX_WARN];
	char warn[MAX_WARN][512];
	char errmsg[512];
	int fd;
	pid_t child;
	char path[512];			/* a file the walk made, removed at the end */
};

static void
on_warn(void *ctx, uint64_t offset, const char *msg)
{
	struct walk *w = ctx;

	if (w->nr_warn < MAX_WARN) {
		w->warn_off[w->nr_warn] = offset;
		snprintf(w->warn[w->nr_warn], sizeof(w->warn[0]), "%s", msg);
	}
	w->nr_warn++;
}

static void
walk_init(struct walk *w)
{
	memset(w, 0, sizeof(*w));
	w->fd = -1;
	w->child = -1;
}

static void
grec_add(struct walk *w, const struct pd_record *rec)
{
	struct grec *g;

	if (w->nr == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		w->recs = realloc(w->recs, w->cap * sizeof(*w->recs));
		if (!w->recs)
			abort();
	}
	g = &w->recs[w->nr++];
	memset(g, 0, sizeof(*g));
	g->rec = *rec;
	g->rec.data = NULL;
	g->rec.payload = NULL;
	g->find_evsel = pd_reader_find_evsel(w->r, rec);
	g->has_payload = rec->payload != NULL;
	g->payload_follows = rec->payload && rec->payload == rec->data + rec->size;
	g->bytes = memdup(rec->data, rec->size);
	if (rec->payload)
		g->payload = memdup(rec->payload, (size_t)rec->payload_size);
}

static void
walk_all(struct walk *w)
{
	struct pd_record rec;
	int ret;

	if (w->open_err) {
		snprintf(w->errmsg, sizeof(w->errmsg), "%s", pd_reader_errmsg(w->r));
		w->end = w->open_err;
		return;
	}
	while ((ret = pd_reader_next(w->r, &rec)) == 1)
		grec_add(w, &rec);
	w->end = ret;
	snprintf(w->errmsg, sizeof(w->errmsg), "%s", pd_reader_errmsg(w->r));
}

static struct pd_reader_opts
walk_opts(struct walk *w)
{
	struct pd_reader_opts o = { .warn = on_warn, .warn_ctx = w };

	return o;
}

static void
walk_path(struct walk *w, const char *path)
{
	struct pd_reader_opts o = walk_opts(w);

	w->open_err = pd_reader_open(&w->r, path, &o);
	walk_all(w);
}

static void
tmp_name(char *buf, size_t len, const char *what)
{
	snprintf(buf, len, "%s/%03u-%s", tmpdir, tmp_serial++, what);
}

static void
write_file(const char *path, const void *p, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || (len && write(fd, p, len) != (ssize_t)len) || close(fd) < 0) {
		perror(path);
		exit(99);
	}
}

static void
walk_image(struct walk *w, const struct tbuf *img, const char *what)
{
	tmp_name(w->path, sizeof(w->path), what);
	write_file(w->path, img->p, img->len);
	walk_path(w, w->path);
}

/*
 * Feed len bytes into fd from a child, in writes of varying length below
 * chunk (whole when chunk is 0), so the reader sees short reads.
 */
static pid_t
spawn_writer(int fd, int other, const unsigned char *p, size_t len, size_t chunk)
{
	pid_t pid = fork();
	size_t off = 0;

	if (pid < 0) {
		perror("fork");
		exit(99);
	}
	if (pid > 0)
		return pid;
	close(other);
	signal(SIGPIPE, SIG_DFL);
	while (off < len) {
		size_t n = chunk ? 1 + (off * 7919 + 13) % chunk : len - off;
		ssize_t k;

		if (n > len - off)
			n = len - off;
		k = write(fd, p + off, n);
		if (k <= 0)
			_exit(1);
		off += (size_t)k;
	}
	_exit(0);
}

static void
walk_pipe(struct walk *w, const struct tbuf *img, size_t chunk)
{
	struct pd_reader_opts o = walk_opts(w);
	int fds[2];

	if (pipe(fds) < 0) {
		perror("pipe");
		exit(99);
	}
	w->child = spawn_writer(fds[1], fds[0], img->p, img->len, chunk);
	close(fds[1]);
	w->fd = fds[0];
	w->open_err = pd_reader_open_fd(&w->r, w->fd, "<pipe>", &o);
	walk_all(w);
}

static void
walk_done(struct walk *w)
{
	size_t i;

	pd_reader_close(w->r);
	if (w->fd >= 0)
		close(w->fd);
	if (w->child > 0)
		waitpid(w->child, NULL, 0);
	if (w->path[0])
		unlink(w->path);
	for (i = 0; i < w->nr; i++) {
		free(w->recs[i].bytes);
		free(w->recs[i].payload);
	}
	free(w->recs);
	walk_init(w);
}

/* Does some warning contain text (and, unless offset is ~0, have that offset)? */
static bool
has_warn(const struct walk *w, const char *text, uint64_t offset)
{
	size_t i;

	for (i = 0; i < w->nr_warn && i < MAX_WARN; i++)
		if (strstr(w->warn[i], text) &&
		    (offset == UINT64_MAX || w->warn_off[i] == offset))
			return true;
	return false;
}

static void
dump_warns(const struct walk *w)
{
	size_t i;

	for (i = 0; i < w->nr_warn && i < MAX_WARN; i++)
		fprintf(stderr, "    warning at %#" PRIx64 ": %s\n", w->warn_off[i], w->warn[i]);
}

#define T_NO_WARN(w, what)						\
	do {								\
		T((w)->nr_warn == 0, "%s: %zu unexpected warnings", (what), (w)->nr_warn); \
		if ((w)->nr_warn)					\
			dump_warns(w);					\
	} while (0)

#define T_WARN(w, text, off, what)					\
	do {								\
		T(has_warn((w), (text), (off)), "%s: no warning \"%s\" at %#" PRIx64, \
		  (what), (text), (uint64_t)(off));			\
		if (!has_warn((w), (text), (off)))			\
			dump_warns(w);					\
	} while (0)

static bool
swap_for(bool be)
{
	return be != HOST_BE;
}

/*
 * Compare records [*i, ...) of the walk with stream s, whose offsets are
 * relative to base, read from source src.  mapped: payloads must point
 * right after their record; otherwise they must be NULL.
 */
static void
check_stream(const struct walk *w, size_t *i, const struct stream *s, uint64_t base,
	     unsigned int src, bool mapped, const char *what)
{
	bool swap = swap_for(s->b.big_endian);
	size_t k;

	for (k = 0; k < s->nx; k++, (*i)++) {
		const struct xrec *x = &s->x[k];
		const struct grec *g;

		if (*i >= w->nr) {
			T(0, "%s: record %zu (type %u at %#" PRIx64 ") not delivered (%zu delivered, end %d: %s)",
			  what, k, x->type, base + x->offset, w->nr, w->end, w->errmsg);
			return;
		}
		g = &w->recs[*i];
		EQ(g->rec.header.type, x->type, "%s: record %zu type", what, k);
		EQ(g->rec.header.misc, x->misc, "%s: record %zu misc", what, k);
		EQ(g->rec.header.size, x->hsize, "%s: record %zu header.size", what, k);
		EQ(g->rec.size, x->size, "%s: record %zu size", what, k);
		EQ(g->rec.offset, base + x->offset, "%s: record %zu offset", what, k);
		EQ(g->rec.origin, x->origin, "%s: record %zu origin", what, k);
		if (x->origin == PD_ORIGIN_COMPRESSED)
			EQ(g->rec.stream_offset, x->stream_offset, "%s: record %zu stream_offset", what, k);
		EQ(g->rec.source, src, "%s: record %zu source", what, k);
		EQ(g->rec.swap, swap, "%s: record %zu swap", what, k);
		EQ(g->rec.evsel, x->evsel, "%s: record %zu (type %u) evsel", what, k, x->type);
		EQ(g->find_evsel, x->evsel, "%s: record %zu pd_reader_find_evsel", what, k);
		EQ(g->rec.payload_size, x->payload_size, "%s: record %zu payload_size", what, k);
		if (g->rec.size == x->size)
			T(!memcmp(g->bytes, x->bytes, x->size), "%s: record %zu bytes differ",
			  what, k);
		if (mapped && x->payload_size) {
			T(g->payload_follows, "%s: record %zu payload is not right after it",
			  what, k);
			T(g->payload && !memcmp(g->payload, x->payload, (size_t)x->payload_size),
			  "%s: record %zu payload bytes differ", what, k);
		} else {
			T(!g->has_payload, "%s: record %zu payload should be NULL", what, k);
		}
	}
}

/* The whole walk is exactly stream s, and it ended cleanly. */
static void
check_only_stream(const struct walk *w, const struct stream *s, uint64_t base,
		  bool mapped, const char *what)
{
	size_t i = 0;

	EQ(w->open_err, 0, "%s: open (%s)", what, w->errmsg);
	check_stream(w, &i, s, base, 0, mapped, what);
	EQ(w->nr, s->nx, "%s: records delivered", what);
	EQ(w->end, 0, "%s: end of data (%s)", what, w->errmsg);
	if (w->r && !w->open_err)
		EQ(pd_reader_stats(w->r)->records, w->nr, "%s: stats.records", what);
}

/* ------------------------------------------------------------------ */
/* A case: records, the image made of them, walks over it             */
/* ------------------------------------------------------------------ */

#define MAX_FEATS	4

/*
 * One image under test.  rcase_begin() starts it as a file of one event
 * (ST_IDENT, id 61, a 128-byte attr); rcase_attr(), rcase_feature() and
 * the fields of f change that before rcase_build() writes the file, or
 * rcase_build_pipe() the stream.  Each walk ends the one before it.
 */
struct rcase {
	struct stream s;		/* the data section, or the stream */
	struct fattr fa[3];
	struct fspec f;
	struct flayout l;
	unsigned int feat_bit[MAX_FEATS];
	struct tbuf feat[MAX_FEATS];	/* payloads, in bit order */
	struct ffeat feats[MAX_FEATS];
	struct tbuf img;
	uint64_t base;			/* where s lies in img */
	bool mapped;			/* the last walk read a file */
	struct walk w;
	char what[96];
};

static const uint64_t ids61[] = { 61 };

static void
rcase_attr(struct rcase *c, size_t i, struct pd_attr a, uint32_t size_field,
	   const uint64_t *ids, size_t nr_ids)
{
	c->fa[i].a = a;
	c->fa[i].a.size = size_field;
	c->fa[i].ids = ids;
	c->fa[i].nr_ids = nr_ids;
	if (c->f.nr_attrs < i + 1)
		c->f.nr_attrs = i + 1;
}

static void __attribute__((format(printf, 2, 3)))
rcase_rename(struct rcase *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->what, sizeof(c->what), fmt, ap);
	va_end(ap);
}

static void __attribute__((format(printf, 3, 4)))
rcase_begin(struct rcase *c, bool be, const char *fmt, ...)
{
	va_list ap;

	memset(c, 0, sizeof(*c));
	va_start(ap, fmt);
	vsnprintf(c->what, sizeof(c->what), fmt, ap);
	va_end(ap);
	s_init(&c->s, be);
	walk_init(&c->w);
	c->f.be = be;
	c->f.version = 2;
	c->f.header_size = PD_FILE_HEADER_SIZE;
	c->f.attrs = c->fa;
	c->f.attr_bytes = PD_ATTR_SIZE_VER7;
	c->f.data = &c->s;
	rcase_attr(c, 0, full_attr(ST_IDENT, 0), PD_ATTR_SIZE_VER7, ids61, 1);
}

/* A feature section of the file, to be filled; add them in bit order. */
static struct tbuf *
rcase_feature(struct rcase *c, unsigned int bit)
{
	struct tbuf *t = &c->feat[c->f.nr_feats];

	c->feat_bit[c->f.nr_feats++] = bit;
	tb_init(t, c->f.be);
	return t;
}

static void
rcase_build(struct rcase *c)
{
	size_t i;

	for (i = 0; i < c->f.nr_feats; i++)
		c->feats[i] = (struct ffeat){ c->feat_bit[i], c->feat[i].p,
					      c->feat[i].len };
	c->f.feats = c->feats;
	tb_free(&c->img);
	build_file(&c->img, &c->f, &c->l);
	c->base = c->l.data_offset;
}

static void
rcase_build_pipe(struct rcase *c)
{
	tb_free(&c->img);
	build_pipe(&c->img, &c->s);
	c->base = PD_PIPE_HEADER_SIZE;
}

/* Read the image from a file named after tag. */
static void
rcase_walk(struct rcase *c, const char *tag)
{
	walk_done(&c->w);
	walk_image(&c->w, &c->img, tag);
	c->mapped = true;
}

/* Read the image through a pipe, in writes below chunk (0: whole). */
static void
rcase_walk_pipe(struct rcase *c, size_t chunk)
{
	walk_done(&c->w);
	walk_pipe(&c->w, &c->img, chunk);
	c->mapped = false;
}

/* The walk delivered exactly the records of s, and ended cleanly. */
static void
rcase_expect_stream(const struct rcase *c)
{
	check_only_stream(&c->w, &c->s, c->base, c->mapped, c->what);
}

static void
rcase_run(struct rcase *c, const char *tag)
{
	rcase_build(c);
	rcase_walk(c, tag);
	rcase_expect_stream(c);
}

static void
rcase_run_pipe(struct rcase *c, size_t chunk)
{
	rcase_build_pipe(c);
	rcase_walk_pipe(c, chunk);
	rcase_expect_stream(c);
}

/* Where record k of s lies in the image. */
static uint64_t
rcase_offset(const struct rcase *c, size_t k)
{
	return c->base + c->s.x[k].offset;
}

/* The image ends n bytes into record k, the last: expect it no more. */
static size_t
rcase_cut_last(struct rcase *c, size_t k, size_t n)
{
	size_t cut = (size_t)rcase_offset(c, k) + n;

	c->img.len = cut;
	c->s.nx--;
	free(c->s.x[c->s.nx].bytes);
	free(c->s.x[c->s.nx].payload);
	return cut;
}

static void
rcase_end(struct rcase *c)
{
	size_t i;

	walk_done(&c->w);
	tb_free(&c->img);
	for (i = 0; i < c->f.nr_feats; i++)
		tb_free(&c->feat[i]);
	s_free(&c->s);
}

/* The walk stopped with the error message the format makes. */
static void __attribute__((format(printf, 3, 4)))
expect_errmsg(const struct walk *w, const char *what, const char *fmt, ...)
{
	char want[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	STR_EQ(w->errmsg, want, "%s: message", what);
}

/* ------------------------------------------------------------------ */
/* File mode: attrs of every size                                     */
/* ------------------------------------------------------------------ */

static void
check_file_info(const struct rcase *c)
{
	const struct pd_file_info *in = pd_reader_info(c->w.r);
	const struct fspec *f = &c->f;
	const struct flayout *l = &c->l;
	const char *what = c->what;

	EQ(in->mode, PD_MODE_FILE, "%s: mode", what);
	EQ(in->swap, swap_for(f->be), "%s: swap", what);
	EQ(in->big_endian, f->be, "%s: big_endian", what);
	EQ(in->version, f->version, "%s: version", what);
	EQ(in->header_size, f->header_size, "%s: header_size", what);
	EQ(in->attr_size, f->attr_bytes + 16, "%s: attr_size", what);
	EQ(in->attrs_offset, l->attrs_offset, "%s: attrs_offset", what);
	EQ(in->attrs_size, l->attrs_size, "%s: attrs_size", what);
	EQ(in->data_offset, l->data_offset, "%s: data_offset", what);
	EQ(in->data_size, f->data_size_zero ? 0 : l->data_size, "%s: data_size", what);
	EQ(in->file_size, c->img.len, "%s: file_size", what);
	T(in->mtime_sec > 0, "%s: mtime_sec is %lld", what, (long long)in->mtime_sec);
	if (!f->data_size_zero) {
		EQ(in->data_end, l->data_offset + l->data_size, "%s: data_end", what);
		EQ(in->feat_offset, l->feat_offset, "%s: feat_offset", what);
		EQ(in->not_finalised, false, "%s: not_finalised", what);
	}
}

/* No feature bit at all, not even HOSTNAME. */
static void
check_no_feature_words(const struct rcase *c)
{
	size_t i;

	for (i = 0; i < 4; i++)
		EQ(pd_reader_meta(c->w.r)->features[i], 0, "%s: feature word %zu",
		   c->what, i);
}

/*
 * One attr of the given size, two ids; COMM (trailer), SAMPLE, an
 * unknown kernel type and FINISHED_ROUND.  Every attr field must come
 * back where the size covers it and be zero beyond.
 */
static void
test_file_attr_size(bool be, uint32_t size_field, size_t attr_bytes)
{
	static const uint64_t ids[] = { 549, 550 };
	uint64_t trailer[] = { 0x0000200000001000ULL, 228361183613ULL, 550 };
	uint64_t sample[] = { 549, 0xffffffff81000000ULL, 0x1000, 1, 250000 };
	uint64_t unk[] = { 1, 2 };
	struct pd_attr a = full_attr(ST_IDENT, PD_SW_CPU_CLOCK);
	struct rcase c;

	rcase_begin(&c, be, "file %s attr.size %u in %zu bytes", order_name(be),
		    size_field, attr_bytes);
	s_comm(&c.s, 4242, "ls", trailer, ARRAY_SIZE(trailer), 0);
	s_words(&c.s, PD_RECORD_SAMPLE, PD_MISC_USER, sample, ARRAY_SIZE(sample), 0);
	/* a kernel type we do not know is passed through and still owned */
	s_words(&c.s, 50, 0, unk, ARRAY_SIZE(unk), 0);
	s_round(&c.s);
	rcase_attr(&c, 0, a, size_field, ids, ARRAY_SIZE(ids));
	c.f.attr_bytes = attr_bytes;
	rcase_run(&c, "attr-size");
	T_NO_WARN(&c.w, c.what);
	if (!c.w.open_err) {
		const struct pd_evsel *ev = pd_reader_evsel(c.w.r, 0);
		struct pd_attr want = tattr_expect(&a, size_field, attr_bytes);
		const char *what = c.what;
		struct pd_record rec;

		check_file_info(&c);
		EQ(pd_reader_nr_evsels(c.w.r), 1, "%s: nr_evsels", what);
		T(pd_reader_evsel(c.w.r, 1) == NULL, "%s: evsel 1 exists", what);
		T(ev != NULL, "%s: no evsel 0", what);
		if (ev) {
			tattr_check(&ev->attr, &want, what);
			EQ(ev->nr_ids, 2, "%s: nr_ids", what);
			if (ev->nr_ids == 2) {
				EQ(ev->ids[0], 549, "%s: ids[0]", what);
				EQ(ev->ids[1], 550, "%s: ids[1]", what);
			}
			EQ(ev->idx, 0, "%s: idx", what);
			T(ev->name == NULL, "%s: a name without EVENT_DESC", what);
			T(ev->auto_name != NULL, "%s: no auto_name", what);
			EQ(ev->id_pos, 0, "%s: id_pos", what);
			EQ(ev->is_pos, 1, "%s: is_pos", what);
			EQ(pd_attr_precise_ip(&ev->attr), 1, "%s: precise_ip", what);
			EQ(pd_attr_has(&ev->attr, PD_ATTR_SAMPLE_ID_ALL), 1,
			   "%s: sample_id_all", what);
		}
		EQ(pd_reader_stats(c.w.r)->unknown_id, 0, "%s: unknown_id", what);
		/* after the end, next() keeps saying so */
		EQ(pd_reader_next(c.w.r, &rec), 0, "%s: next after the end", what);
		EQ(pd_reader_next(c.w.r, &rec), 0, "%s: next after the end, again", what);
	}
	rcase_end(&c);
}

static void
test_file_attr_sizes(void)
{
	static const struct {
		uint32_t size_field;
		size_t bytes;
	} cases[] = {
		{ PD_ATTR_SIZE_VER0, 64 },
		{ 0, 64 },			/* pre-2.6.33: size 0 means 64 */
		{ PD_ATTR_SIZE_VER2, 80 },
		{ PD_ATTR_SIZE_VER3, 96 },
		{ PD_ATTR_SIZE_VER5, 112 },
		{ PD_ATTR_SIZE_VER7, 128 },	/* perf 6.1 */
		{ PD_ATTR_SIZE_VER8, 136 },	/* perf 6.3+ */
		{ PD_ATTR_SIZE_VER9, 144 },	/* newest UAPI */
		{ 152, 152 },			/* newer than us: prefix kept */
		{ 200, 200 },
		{ PD_ATTR_SIZE_VER0, 128 },	/* a small attr in a larger stride */
		{ PD_ATTR_SIZE_VER5, 136 },
	};
	size_t i;
	int be;

	for (be = 0; be <= 1; be++)
		for (i = 0; i < ARRAY_SIZE(cases); i++)
			test_file_attr_size(be, cases[i].size_field, cases[i].bytes);
}

/* attr.size larger than the entries: what is there is used, with a warning. */
static void
test_file_attr_larger_than_stride(bool be)
{
	static const uint64_t ids[] = { 7 };
	struct pd_attr a = full_attr(ST_IDENT, 3);
	struct rcase c;

	rcase_begin(&c, be, "file %s attr.size 136 in 80-byte entries", order_name(be));
	s_round(&c.s);
	rcase_attr(&c, 0, a, PD_ATTR_SIZE_VER8, ids, 1);
	c.f.attr_bytes = PD_ATTR_SIZE_VER2;
	rcase_run(&c, "attr-larger");
	T_WARN(&c.w, "attr 0 says it is 136 bytes but the entries are 80",
	       c.l.attrs_offset, c.what);
	if (!c.w.open_err) {
		struct pd_attr want = tattr_expect(&a, PD_ATTR_SIZE_VER8,
						   PD_ATTR_SIZE_VER2);

		tattr_check(&pd_reader_evsel(c.w.r, 0)->attr, &want, c.what);
	}
	rcase_end(&c);
}

/* The 72-byte header of files older than the feature bitmap (§2.3). */
static void
test_file_old_header(bool be)
{
	static const uint64_t ids[] = { 11 };
	uint64_t sample[] = { 11, 0x400000, 0x10, 99, 1 };
	struct rcase c;

	rcase_begin(&c, be, "file %s 72-byte header", order_name(be));
	s_words(&c.s, PD_RECORD_SAMPLE, PD_MISC_KERNEL, sample, ARRAY_SIZE(sample), 0);
	s_round(&c.s);
	rcase_attr(&c, 0, full_attr(ST_IDENT, 0), PD_ATTR_SIZE_VER2, ids, 1);
	c.f.header_size = PD_FILE_HEADER_SIZE_OLD;
	c.f.attr_bytes = PD_ATTR_SIZE_VER2;
	rcase_build(&c);
	EQ(c.l.ids_offset[0], 72, "%s: builder put the ids at 72", c.what);
	rcase_walk(&c, "old-header");
	rcase_expect_stream(&c);
	T_NO_WARN(&c.w, c.what);
	if (!c.w.open_err) {
		check_file_info(&c);
		check_no_feature_words(&c);
	}
	rcase_end(&c);
}

/*
 * The legacy "PERFFILE" magic carries no byte order: it is found from
 * which reading of attr_size gives a known entry size (§2.3).
 */
static void
test_file_perffile(bool be, size_t attr_bytes)
{
	static const uint64_t ids[] = { 5 };
	uint64_t sample[] = { 5, 0x400000, 0x10, 99, 1 };
	struct pd_attr a = full_attr(ST_IDENT, 0);
	struct rcase c;

	rcase_begin(&c, be, "file %s PERFFILE attr %zu", order_name(be), attr_bytes);
	s_words(&c.s, PD_RECORD_SAMPLE, 0, sample, ARRAY_SIZE(sample), 0);
	rcase_attr(&c, 0, a, (uint32_t)attr_bytes, ids, 1);
	c.f.version = 1;
	c.f.header_size = PD_FILE_HEADER_SIZE_OLD;
	c.f.attr_bytes = attr_bytes;
	rcase_build(&c);
	T(!memcmp(c.img.p, "PERFFILE", 8), "%s: magic", c.what);
	rcase_walk(&c, "perffile");
	rcase_expect_stream(&c);
	T_NO_WARN(&c.w, c.what);
	if (!c.w.open_err) {
		struct pd_attr want = tattr_expect(&a, (uint32_t)attr_bytes,
						   attr_bytes);

		check_file_info(&c);
		tattr_check(&pd_reader_evsel(c.w.r, 0)->attr, &want, c.what);
	}
	rcase_end(&c);
}

/* A PERFFILE whose attr_size is no known entry size in either order. */
static void
test_file_perffile_unknown_order(void)
{
	static const uint64_t ids[] = { 5 };
	struct rcase c;

	rcase_begin(&c, false, "PERFFILE attr_size 144");
	rcase_attr(&c, 0, full_attr(ST_IDENT, 0), PD_ATTR_SIZE_VER7, ids, 1);
	c.f.version = 1;
	rcase_build(&c);
	rcase_walk(&c, "perffile-bad");
	EQ(c.w.open_err, -PD_E_BAD_HEADER, "%s: open", c.what);
	expect_errmsg(&c.w, c.what, "offset 0x10: PERFFILE header: attr_size 144 fits no known attr size in either byte order");
	rcase_end(&c);
}

/* One EVENT_DESC entry: the attr, nr_ids, the name, the ids (§5.7). */
static void
tb_event_desc(struct tbuf *b, const struct pd_attr *a, const char *name,
	      const uint64_t *ids, size_t nr_ids)
{
	size_t i;

	tb_attr(b, a, PD_ATTR_SIZE_VER7, PD_ATTR_SIZE_VER7, 0xee);
	tb_u32(b, (uint32_t)nr_ids);
	tb_header_string(b, name);
	for (i = 0; i < nr_ids; i++)
		tb_u64(b, ids[i]);
}

/*
 * EVENT_DESC names the events by position, EVENT_UPDATE UNIT and SCALE
 * set their unit and scale, in file mode too (§5.7, §7.6).
 */
static void
test_file_names(bool be)
{
	static const uint64_t ids0[] = { 549, 550 }, ids1[] = { 600 };
	struct tbuf *host, *desc;
	struct rcase c;

	rcase_begin(&c, be, "file %s names", order_name(be));
	s_event_update_str(&c.s, PD_EVENT_UPDATE_UNIT, 549, "msec");
	s_event_update_scale(&c.s, 549, 1e-6);
	s_event_update_str(&c.s, PD_EVENT_UPDATE_UNIT, 600, "ops");
	s_round(&c.s);
	rcase_attr(&c, 0, full_attr(ST_IDENT, PD_SW_CPU_CLOCK), PD_ATTR_SIZE_VER7,
		   ids0, 2);
	rcase_attr(&c, 1, full_attr(ST_IDENT, PD_SW_TASK_CLOCK), PD_ATTR_SIZE_VER7,
		   ids1, 1);
	host = rcase_feature(&c, PD_FEAT_HOSTNAME);
	tb_header_string(host, "testhost");
	/* EVENT_DESC: nr, attr_size, then each event */
	desc = rcase_feature(&c, PD_FEAT_EVENT_DESC);
	tb_u32(desc, 2);
	tb_u32(desc, PD_ATTR_SIZE_VER7);
	tb_event_desc(desc, &c.fa[0].a, "cpu-clock", ids0, 2);
	tb_event_desc(desc, &c.fa[1].a, "task-clock:u", ids1, 1);
	rcase_run(&c, "names");
	T_NO_WARN(&c.w, c.what);
	if (!c.w.open_err) {
		const struct pd_evsel *e0 = pd_reader_evsel(c.w.r, 0);
		const struct pd_evsel *e1 = pd_reader_evsel(c.w.r, 1);
		const struct pd_meta *m = pd_reader_meta(c.w.r);
		const char *what = c.what;

		check_file_info(&c);
		STR_EQ(e0->name, "cpu-clock", "%s: evsel 0 name", what);
		STR_EQ(e1->name, "task-clock:u", "%s: evsel 1 name", what);
		STR_EQ(pd_evsel_name(e1), "task-clock:u", "%s: pd_evsel_name", what);
		STR_EQ(e0->unit, "msec", "%s: evsel 0 unit", what);
		STR_EQ(e1->unit, "ops", "%s: evsel 1 unit", what);
		T(e0->scale == 1e-6, "%s: evsel 0 scale %g", what, e0->scale);
		T(e1->scale == 0, "%s: evsel 1 scale %g", what, e1->scale);
		EQ(e1->idx, 1, "%s: evsel 1 idx", what);
		EQ(pd_meta_has(m, PD_FEAT_HOSTNAME), 1, "%s: HOSTNAME", what);
		EQ(pd_meta_has(m, PD_FEAT_EVENT_DESC), 1, "%s: EVENT_DESC", what);
		STR_EQ(m->hostname, "testhost", "%s: hostname", what);
		EQ(m->sections[PD_FEAT_HOSTNAME].offset, c.l.feat_offset + 32,
		   "%s: HOSTNAME section offset", what);
		EQ(m->sections[PD_FEAT_HOSTNAME].size, host->len,
		   "%s: HOSTNAME section size", what);
	}
	rcase_end(&c);
}

/*
 * A big-endian file with no feature at all: an all-zero bitmap reads the
 * same in any layout, so no feature may appear and nothing is wrong.
 */
static void
test_file_no_features(bool be)
{
	static const uint64_t ids[] = { 9 };
	struct rcase c;

	rcase_begin(&c, be, "file %s without features", order_name(be));
	c.f.no_hostname = true;
	s_round(&c.s);
	rcase_attr(&c, 0, full_attr(ST_IDENT, 0), PD_ATTR_SIZE_VER7, ids, 1);
	rcase_run(&c, "no-features");
	T_NO_WARN(&c.w, c.what);
	if (!c.w.open_err)
		check_no_feature_words(&c);
	rcase_end(&c);
}

/* ------------------------------------------------------------------ */
/* Records to events (§11.1)                                          */
/* ------------------------------------------------------------------ */

/*
 * Two events with IDENTIFIER (the id is the first u64 of a SAMPLE and
 * the last of a trailer), sample_id_all: every kernel record goes to the
 * event whose id it carries, id 0 to the first, an unknown id nowhere.
 */
static void
test_idmap_identifier(bool be)
{
	static const uint64_t ids0[] = { 100, 101 }, ids1[] = { 200, 201, 202 };
	uint64_t w_s0[] = { 101, 0x400000, 0x10, 5, 1 };
	uint64_t w_s1[] = { 200, 0x400010, 0x10, 6, 0x11, 1 };
	uint64_t w_s0b[] = { 100, 0x400020, 0x10, 7, 1 };
	uint64_t w_s_unknown[] = { 999, 0x400030, 0x10, 8, 1 };
	uint64_t w_s_zero[] = { 0, 0x400040, 0x10, 9, 1 };
	uint64_t tr1[] = { 0x10, 10, 0x3, 202 };	/* TID TIME CPU IDENTIFIER */
	uint64_t tr0[] = { 0x10, 11, 0 };
	uint64_t tr_unknown[] = { 0x10, 12, 555 };
	uint64_t fork_body[] = { 0x0000000100000002ULL, 0x0000000300000004ULL, 13, 0x10, 14, 101 };
	struct rcase c;

	rcase_begin(&c, be, "file %s IDENTIFIER ids", order_name(be));
	s_comm(&c.s, 1, "a", tr0, ARRAY_SIZE(tr0), 0);		/* id 0: the first event */
	s_words(&c.s, PD_RECORD_SAMPLE, 0, w_s0, ARRAY_SIZE(w_s0), 0);
	s_words(&c.s, PD_RECORD_SAMPLE, 0, w_s1, ARRAY_SIZE(w_s1), 1);
	s_comm(&c.s, 2, "b", tr1, ARRAY_SIZE(tr1), 1);
	s_words(&c.s, PD_RECORD_SAMPLE, 0, w_s_unknown, ARRAY_SIZE(w_s_unknown), -1);
	s_round(&c.s);
	s_comm(&c.s, 3, "c", tr_unknown, ARRAY_SIZE(tr_unknown), -1);
	s_words(&c.s, PD_RECORD_FORK, 0, fork_body, ARRAY_SIZE(fork_body), 0);
	s_words(&c.s, PD_RECORD_SAMPLE, 0, w_s0b, ARRAY_SIZE(w_s0b), 0);
	s_words(&c.s, PD_RECORD_SAMPLE, 0, w_s_zero, ARRAY_SIZE(w_s_zero), 0);
	/* a SAMPLE too short to hold its id, and a header-only kernel record */
	s_words(&c.s, PD_RECORD_SAMPLE, 0, NULL, 0, -1);
	s_words(&c.s, PD_RECORD_THROTTLE, 0, NULL, 0, -1);
	/* user records belong to no event */
	s_words(&c.s, PD_RECORD_FINISHED_INIT, 0, NULL, 0, -1);
	rcase_attr(&c, 0, full_attr(ST_IDENT, 0), PD_ATTR_SIZE_VER7, ids0,
		   ARRAY_SIZE(ids0));
	rcase_attr(&c, 1, full_attr(ST_IDENT | PD_SAMPLE_CPU, 1), PD_ATTR_SIZE_VER7,
		   ids1, ARRAY_SIZE(ids1));
	rcase_run(&c, "idmap-ident");
	if (!c.w.open_err) {
		const struct pd_evsel *e1 = pd_reader_evsel(c.w.r, 1);
		struct pd_attr want = tattr_expect(&c.fa[1].a, PD_ATTR_SIZE_VER7,
						   PD_ATTR_SIZE_VER7);
		const char *what = c.what;

		EQ(pd_reader_nr_evsels(c.w.r), 2, "%s: nr_evsels", what);
		EQ(pd_reader_stats(c.w.r)->unknown_id, 4, "%s: stats.unknown_id", what);
		EQ(e1->nr_ids, 3, "%s: evsel 1 nr_ids", what);
		EQ(e1->ids[2], 202, "%s: evsel 1 ids[2]", what);
		EQ(e1->id_pos, 0, "%s: evsel 1 id_pos", what);
		EQ(e1->is_pos, 1, "%s: evsel 1 is_pos", what);
		tattr_check(&e1->attr, &want, what);
	}
	/* the unknown ids are reported once, at the first such record */
	EQ(c.w.nr_warn, 1, "%s: warnings", c.what);
	T_WARN(&c.w, "which no event has", rcase_offset(&c, 4),
	       c.what);
	rcase_end(&c);
}

/*
 * Plain ID (no IDENTIFIER): the id sits after IP, TID, TIME (and ADDR)
 * in a SAMPLE, and before STREAM_ID and CPU at the end of a trailer.
 */
static void
test_idmap_plain_id(bool be)
{
	const uint64_t st = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |
			    PD_SAMPLE_ADDR | PD_SAMPLE_ID | PD_SAMPLE_STREAM_ID |
			    PD_SAMPLE_CPU | PD_SAMPLE_PERIOD;
	static const uint64_t ids0[] = { 31, 32 }, ids1[] = { 41 }, ids2[] = { 51, 52 };
	/* IP TID TIME ADDR ID STREAM_ID CPU PERIOD */
	uint64_t s0[] = { 0x400000, 0x10, 1, 0xdead, 32, 32, 1, 100 };
	uint64_t s1[] = { 0x400000, 0x10, 2, 0xdead, 41, 41, 0, 100 };
	uint64_t s2[] = { 0x400000, 0x10, 3, 0xdead, 52, 52, 1, 100 };
	uint64_t s9[] = { 0x400000, 0x10, 4, 0xdead, 77, 77, 1, 100 };
	/* trailer: TID TIME ID STREAM_ID CPU */
	uint64_t t1[] = { 0x10, 5, 41, 41, 0 };
	uint64_t t2[] = { 0x10, 6, 51, 51, 1 };
	uint64_t t9[] = { 0x10, 7, 78, 78, 1 };
	struct rcase c;

	rcase_begin(&c, be, "file %s plain ID", order_name(be));
	s_words(&c.s, PD_RECORD_SAMPLE, 0, s0, ARRAY_SIZE(s0), 0);
	s_words(&c.s, PD_RECORD_SAMPLE, 0, s1, ARRAY_SIZE(s1), 1);
	s_words(&c.s, PD_RECORD_SAMPLE, 0, s2, ARRAY_SIZE(s2), 2);
	s_comm(&c.s, 7, "seven", t1, ARRAY_SIZE(t1), 1);
	s_comm(&c.s, 8, "eight!!", t2, ARRAY_SIZE(t2), 2);
	s_words(&c.s, PD_RECORD_SAMPLE, 0, s9, ARRAY_SIZE(s9), -1);
	s_comm(&c.s, 9, "nine", t9, ARRAY_SIZE(t9), -1);
	s_round(&c.s);
	rcase_attr(&c, 0, full_attr(st, 0), PD_ATTR_SIZE_VER5, ids0, 2);
	rcase_attr(&c, 1, full_attr(st, 1), PD_ATTR_SIZE_VER5, ids1, 1);
	rcase_attr(&c, 2, full_attr(st, 2), PD_ATTR_SIZE_VER5, ids2, 2);
	c.f.attr_bytes = PD_ATTR_SIZE_VER5;
	rcase_run(&c, "idmap-plain");
	if (!c.w.open_err) {
		const struct pd_evsel *e = pd_reader_evsel(c.w.r, 2);

		EQ(pd_reader_stats(c.w.r)->unknown_id, 2, "%s: stats.unknown_id", c.what);
		EQ(e->id_pos, 4, "%s: id_pos", c.what);
		EQ(e->is_pos, 3, "%s: is_pos", c.what);
	}
	EQ(c.w.nr_warn, 1, "%s: warnings", c.what);
	rcase_end(&c);
}

/* One event owns everything, whatever id a record carries (§11.1 rule 1). */
static void
test_idmap_single(bool be)
{
	static const uint64_t ids[] = { 1234 };
	uint64_t s_other[] = { 4321, 0x400000, 0x10, 1, 1 };
	uint64_t tr[] = { 0x10, 2, 8888 };
	struct rcase c;

	rcase_begin(&c, be, "file %s one event", order_name(be));
	s_words(&c.s, PD_RECORD_SAMPLE, 0, s_other, ARRAY_SIZE(s_other), 0);
	s_comm(&c.s, 1, "x", tr, ARRAY_SIZE(tr), 0);
	s_words(&c.s, PD_RECORD_SAMPLE, 0, NULL, 0, 0);
	s_round(&c.s);
	rcase_attr(&c, 0, full_attr(ST_IDENT, 0), PD_ATTR_SIZE_VER7, ids, 1);
	rcase_run(&c, "idmap-single");
	T_NO_WARN(&c.w, c.what);
	if (!c.w.open_err)
		EQ(pd_reader_stats(c.w.r)->unknown_id, 0, "%s: stats.unknown_id", c.what);
	rcase_end(&c);
}

/* Two events that differ in one respect, ids 10 and 20. */
static void
rcase_two_events(struct rcase *c, struct pd_attr a0, struct pd_attr a1)
{
	static const uint64_t ids0[] = { 10 }, ids1[] = { 20 };

	rcase_attr(c, 0, a0, PD_ATTR_SIZE_VER7, ids0, 1);
	rcase_attr(c, 1, a1, PD_ATTR_SIZE_VER7, ids1, 1);
}

/*
 * Events whose sample_types place the id differently, or disagree on
 * sample_id_all: perf refuses the file; we warn and use the first
 * event's layout.  Without sample_id_all in the first event, non-SAMPLE
 * kernel records belong to it.
 */
static void
test_idmap_layout_mismatch(bool be)
{
	uint64_t s0[] = { 0x400000, 0x10, 20, 1 };	/* IP TID ID PERIOD */
	uint64_t tr[] = { 0x10, 20 };
	struct pd_attr a0 = full_attr(PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_ID |
				      PD_SAMPLE_PERIOD, 0);
	struct rcase c;

	rcase_begin(&c, be, "file %s layout mismatch", order_name(be));
	s_words(&c.s, PD_RECORD_SAMPLE, 0, s0, ARRAY_SIZE(s0), 1);
	s_comm(&c.s, 1, "x", tr, ARRAY_SIZE(tr), 0);
	a0.flags &= ~(1ULL << PD_ATTR_SAMPLE_ID_ALL);
	rcase_two_events(&c, a0, full_attr(ST_IDENT, 0));
	rcase_run(&c, "idmap-mismatch");
	T_WARN(&c.w, "place the event id differently", UINT64_MAX, c.what);
	rcase_end(&c);
}

/* ------------------------------------------------------------------ */
/* Payloads after the record, simpleperf records (§7.3, §7.8)         */
/* ------------------------------------------------------------------ */

static void
fill_payload_stream(struct stream *s)
{
	uint64_t sample[] = { 77, 0x400000, 0x10, 1, 1 };

	s_auxtrace(s, 40, 0x40);
	s_words(s, PD_RECORD_SAMPLE, 0, sample, ARRAY_SIZE(sample), 0);
	s_auxtrace(s, 0, 0);
	s_tracing_data_inside(s, 20);	/* simpleperf: data inside the record */
	s_round(s);
	s_simpleperf(s, PD_RECORD_SP_CALLCHAIN, 72);
	s_simpleperf(s, PD_RECORD_SP_TRACING_DATA, 70000);	/* misc 1, size 4464 */
	s_simpleperf(s, PD_RECORD_SP_KERNEL_SYMBOL, 12);	/* size not a multiple of 8 */
	s_words(s, PD_RECORD_SAMPLE, 0, sample, ARRAY_SIZE(sample), 0);
	s_auxtrace(s, 65536 + 24, 0x90);
	s_round(s);
}

static void
test_file_payloads(bool be)
{
	static const uint64_t ids[] = { 77 };
	struct rcase c;

	rcase_begin(&c, be, "file %s payloads", order_name(be));
	fill_payload_stream(&c.s);
	rcase_attr(&c, 0, full_attr(ST_IDENT, 0), PD_ATTR_SIZE_VER7, ids, 1);
	rcase_run(&c, "payloads");
	T_NO_WARN(&c.w, c.what);
	rcase_end(&c);
}

/* ------------------------------------------------------------------ */
/* Pipe mode (§9)                                                     */
/* ------------------------------------------------------------------ */

static void
s_header_attr(struct stream *s, const struct pd_attr *a, uint32_t size,
	      const uint64_t *ids, size_t nr)
{
	size_t at = s_begin(s, PD_RECORD_HEADER_ATTR, 0), i;

	tb_attr(&s->b, a, size, size ? size : PD_ATTR_SIZE_VER0, 0xee);
	for (i = 0; i < nr; i++)
		tb_u64(&s->b, ids[i]);
	s_end(s, at, -1);
}

struct pipe_case {
	struct stream s;
	struct pd_attr a[3];
	size_t unknown_sample;		/* index of the record with an unknown id */
	struct tbuf img;		/* the stream after its pipe header */
};

/*
 * perf 6.1's stream: HEADER_ATTR (with ids, and one without), HEADER_FEATURE
 * records of unpadded sizes that leave the later records unaligned, an
 * unknown feature, the end marker 32, EVENT_UPDATE names, then records.
 */
static void
pipe_case_build(struct pipe_case *pc, bool be)
{
	static const uint64_t ids0[] = { 7001, 7002 }, ids1[] = { 8001 };
	uint64_t tr0[] = { 0x10, 5, 7002 };
	uint64_t smp1[] = { 8001, 0x400000, 0x10, 6, 3, 1 };
	uint64_t smp_unknown[] = { 424242, 0x400000, 0x10, 8, 1 };
	struct stream *s = &pc->s;
	static const unsigned char odd[5] = { 1, 2, 3, 4, 5 };
	struct tbuf t;

	memset(pc, 0, sizeof(*pc));
	s_init(s, be);
	pc->a[0] = full_attr(ST_IDENT, PD_SW_CPU_CLOCK);
	pc->a[1] = full_attr(ST_IDENT | PD_SAMPLE_CPU, PD_SW_TASK_CLOCK);
	pc->a[2] = full_attr(PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP | PD_SAMPLE_TID, PD_SW_DUMMY);
	s_header_attr(s, &pc->a[0], PD_ATTR_SIZE_VER7, ids0, 2);
	s_header_attr(s, &pc->a[1], PD_ATTR_SIZE_VER8, ids1, 1);
	s_header_attr(s, &pc->a[2], 0, NULL, 0);
	tb_init(&t, be);
	tb_header_string(&t, "pipehost");
	s_feature(s, PD_FEAT_HOSTNAME, &t);			/* 84 bytes */
	tb_free(&t);
	tb_init(&t, be);
	tb_u32(&t, 4);
	tb_u32(&t, 3);
	s_feature(s, PD_FEAT_NRCPUS, &t);			/* at an odd multiple of 4 */
	tb_free(&t);
	tb_init(&t, be);
	tb_bytes(&t, odd, sizeof(odd));
	s_feature(s, 45, &t);					/* 21 bytes */
	tb_free(&t);
	s_feature(s, PD_FEAT_LAST_61, NULL);			/* end marker */
	s_event_update_str(s, PD_EVENT_UPDATE_NAME, 7001, "first-event");
	s_event_update_str(s, PD_EVENT_UPDATE_NAME, 8001, "second:u");
	s_event_update_str(s, PD_EVENT_UPDATE_UNIT, 8001, "msec");
	s_event_update_scale(s, 8001, 0.25);
	s_comm(s, 4242, "workload", tr0, ARRAY_SIZE(tr0), 0);
	s_words(s, PD_RECORD_SAMPLE, 0, smp1, ARRAY_SIZE(smp1), 1);
	s_sample(s, 0, 0);
	pc->unknown_sample = s_words(s, PD_RECORD_SAMPLE, 0, smp_unknown,
				     ARRAY_SIZE(smp_unknown), -1);
	s_auxtrace(s, 40, 0x33);
	s_tracing_data_pipe(s, 24);
	s_simpleperf(s, PD_RECORD_SP_TRACING_DATA, 70001);
	s_words(s, PD_RECORD_SAMPLE, 0, smp1, ARRAY_SIZE(smp1), 1);
	s_round(s);
	build_pipe(&pc->img, s);
}

static void
pipe_case_free(struct pipe_case *pc)
{
	s_free(&pc->s);
	tb_free(&pc->img);
}

static void
check_pipe_case(struct walk *w, struct pipe_case *pc, bool mapped,
		uint64_t file_size, const char *what)
{
	bool be = pc->s.b.big_endian;
	const struct pd_file_info *in;
	const struct pd_meta *m;
	const struct pd_evsel *e;

	check_only_stream(w, &pc->s, PD_PIPE_HEADER_SIZE, mapped, what);
	EQ(w->nr_warn, 1, "%s: warnings", what);
	T_WARN(w, "which no event has",
	       PD_PIPE_HEADER_SIZE + pc->s.x[pc->unknown_sample].offset, what);
	if (w->open_err)
		return;
	in = pd_reader_info(w->r);
	EQ(in->mode, PD_MODE_PIPE, "%s: mode", what);
	EQ(in->swap, swap_for(be), "%s: swap", what);
	EQ(in->big_endian, be, "%s: big_endian", what);
	EQ(in->version, 2, "%s: version", what);
	EQ(in->header_size, PD_PIPE_HEADER_SIZE, "%s: header_size", what);
	EQ(in->file_size, file_size, "%s: file_size", what);
	EQ(in->data_size, 0, "%s: data_size", what);
	EQ(in->not_finalised, 0, "%s: not_finalised", what);
	/* the file's, or the pipe's own (fstat), which perf prints too */
	T(in->mtime_sec > 0, "%s: mtime_sec is %lld", what, (long long)in->mtime_sec);

	EQ(pd_reader_nr_evsels(w->r), 3, "%s: nr_evsels", what);
	e = pd_reader_evsel(w->r, 0);
	if (e) {
		struct pd_attr want = tattr_expect(&pc->a[0], PD_ATTR_SIZE_VER7,
						   PD_ATTR_SIZE_VER7);

		STR_EQ(e->name, "first-event", "%s: evsel 0 name", what);
		EQ(e->nr_ids, 2, "%s: evsel 0 nr_ids", what);
		tattr_check(&e->attr, &want, what);
	}
	e = pd_reader_evsel(w->r, 1);
	if (e) {
		struct pd_attr want = pc->a[1];

		want.size = PD_ATTR_SIZE_VER8;
		want.config4 = 0;
		STR_EQ(e->name, "second:u", "%s: evsel 1 name", what);
		STR_EQ(e->unit, "msec", "%s: evsel 1 unit", what);
		T(e->scale == 0.25, "%s: evsel 1 scale %g", what, e->scale);
		EQ(e->nr_ids, 1, "%s: evsel 1 nr_ids", what);
		EQ(e->idx, 1, "%s: evsel 1 idx", what);
		tattr_check(&e->attr, &want, what);
	}
	e = pd_reader_evsel(w->r, 2);
	if (e) {
		struct pd_attr want = tattr_expect(&pc->a[2], 0, PD_ATTR_SIZE_VER0);

		T(e->name == NULL, "%s: evsel 2 has a name", what);
		EQ(e->nr_ids, 0, "%s: evsel 2 nr_ids", what);
		T(e->ids == NULL, "%s: evsel 2 ids", what);
		EQ(e->id_pos, 0, "%s: evsel 2 id_pos", what);
		tattr_check(&e->attr, &want, what);
	}
	EQ(pd_reader_stats(w->r)->unknown_id, 1, "%s: stats.unknown_id", what);
	m = pd_reader_meta(w->r);
	EQ(pd_meta_has(m, PD_FEAT_HOSTNAME), 1, "%s: HOSTNAME", what);
	STR_EQ(m->hostname, "pipehost", "%s: hostname", what);
	EQ(pd_meta_has(m, PD_FEAT_NRCPUS), 1, "%s: NRCPUS", what);
	EQ(m->nr_cpus_avail, 4, "%s: nr_cpus_avail", what);
	EQ(m->nr_cpus_online, 3, "%s: nr_cpus_online", what);
	EQ(pd_meta_has(m, 45), 1, "%s: feature 45", what);
	EQ(m->nr_unknown_features, 1, "%s: nr_unknown_features", what);
	EQ(m->unknown_features[0], 45, "%s: unknown feature", what);
	/* the end marker is not CPU_DOMAIN_INFO */
	EQ(pd_meta_has(m, PD_FEAT_CPU_DOMAIN_INFO), 0, "%s: feature 32", what);
	EQ(pd_meta_has(m, PD_FEAT_TRACING_DATA), 1, "%s: TRACING_DATA", what);
	EQ(m->tracing_data_size, 24, "%s: tracing_data_size", what);
}

static void
test_pipe(bool be)
{
	static const size_t chunks[] = { 0, 1, 7, 100, 4096 };
	struct pipe_case pc;
	struct walk w;
	char what[64];
	size_t i;

	pipe_case_build(&pc, be);
	for (i = 0; i < ARRAY_SIZE(chunks); i++) {
		snprintf(what, sizeof(what), "pipe %s writes < %zu", order_name(be), chunks[i]);
		walk_init(&w);
		walk_pipe(&w, &pc.img, chunks[i]);
		check_pipe_case(&w, &pc, false, 0, what);
		walk_done(&w);
	}
	/* a pipe stream saved to a file stays a pipe stream (§1.2), mapped */
	snprintf(what, sizeof(what), "pipe %s saved to a file", order_name(be));
	walk_init(&w);
	walk_image(&w, &pc.img, "pipe-file");
	check_pipe_case(&w, &pc, true, pc.img.len, what);
	if (!w.open_err) {
		size_t k;

		for (k = 0; k < pc.s.nx; k++)
			if (pc.s.x[k].type == PD_RECORD_HEADER_TRACING_DATA)
				EQ(pd_reader_meta(w.r)->tracing_data_offset,
				   PD_PIPE_HEADER_SIZE + pc.s.x[k].offset + 16,
				   "%s: tracing_data_offset", what);
	}
	walk_done(&w);
	pipe_case_free(&pc);
}

/* A FIFO named on the command line, and standard input as "-". */
static void
test_pipe_fifo_and_stdin(void)
{
	struct pipe_case pc;
	struct walk w;
	char path[512];
	int fds[2], saved;

	pipe_case_build(&pc, false);

	tmp_name(path, sizeof(path), "fifo");
	if (mkfifo(path, 0600) == 0) {
		pid_t pid = fork();

		if (pid == 0) {
			int fd = open(path, O_WRONLY);

			if (fd < 0 || write(fd, pc.img.p, pc.img.len) != (ssize_t)pc.img.len)
				_exit(1);
			_exit(0);
		}
		walk_init(&w);
		walk_path(&w, path);
		check_pipe_case(&w, &pc, false, 0, "pipe from a FIFO path");
		walk_done(&w);
		waitpid(pid, NULL, 0);
		unlink(path);
	} else {
		T(0, "mkfifo %s: %s", path, strerror(errno));
	}

	if (pipe(fds) == 0) {
		walk_init(&w);
		w.child = spawn_writer(fds[1], fds[0], pc.img.p, pc.img.len, 333);
		close(fds[1]);
		saved = dup(0);
		dup2(fds[0], 0);
		close(fds[0]);
		walk_path(&w, "-");
		check_pipe_case(&w, &pc, false, 0, "pipe from stdin");
		pd_reader_close(w.r);
		w.r = NULL;
		dup2(saved, 0);
		close(saved);
		walk_done(&w);
	}
	pipe_case_free(&pc);
}

/*
 * A regular file read through an fd whose offset is not 0 is a stream:
 * the same pipe image after 5 junk bytes, fd positioned past them.
 */
static void
test_pipe_fd_offset(void)
{
	struct pipe_case pc;
	struct pd_reader_opts o;
	struct tbuf shifted;
	struct walk w;

	pipe_case_build(&pc, false);
	tb_init(&shifted, false);
	tb_bytes(&shifted, "junk!", 5);
	tb_bytes(&shifted, pc.img.p, pc.img.len);
	walk_init(&w);
	o = walk_opts(&w);
	tmp_name(w.path, sizeof(w.path), "shifted");
	write_file(w.path, shifted.p, shifted.len);
	w.fd = open(w.path, O_RDONLY);
	T(w.fd >= 0 && lseek(w.fd, 5, SEEK_SET) == 5, "shifted: open and seek");
	w.open_err = pd_reader_open_fd(&w.r, w.fd, "shifted", &o);
	walk_all(&w);
	check_pipe_case(&w, &pc, false, 0, "pipe from a shifted regular fd");
	walk_done(&w);
	tb_free(&shifted);
	pipe_case_free(&pc);
}

/* The newest end marker (33), the PERFFILE magic in a pipe, no features. */
static void
test_pipe_variants(bool be)
{
	static const uint64_t ids[] = { 3 };
	struct pd_attr a = full_attr(ST_IDENT, 0);
	struct rcase c;

	rcase_begin(&c, be, "pipe %s marker 33", order_name(be));
	s_header_attr(&c.s, &a, PD_ATTR_SIZE_VER9, ids, 1);
	s_feature(&c.s, PD_FEAT_KNOWN, NULL);
	s_sample(&c.s, 3, 0);
	rcase_run_pipe(&c, 0);
	T_NO_WARN(&c.w, c.what);
	if (!c.w.open_err) {
		struct pd_attr want = tattr_expect(&a, PD_ATTR_SIZE_VER9,
						   PD_ATTR_SIZE_VER9);

		EQ(pd_meta_has(pd_reader_meta(c.w.r), PD_FEAT_KNOWN), 0, "%s: feature 33",
		   c.what);
		EQ(pd_reader_meta(c.w.r)->nr_unknown_features, 0, "%s: unknown features",
		   c.what);
		tattr_check(&pd_reader_evsel(c.w.r, 0)->attr, &want, c.what);
	}

	/* PERFFILE (v1) magic: a pipe when its size reads 16 in some order */
	rcase_rename(&c, "pipe %s PERFFILE", order_name(be));
	memcpy(c.img.p, "PERFFILE", 8);
	rcase_walk_pipe(&c, 0);
	rcase_expect_stream(&c);
	if (!c.w.open_err) {
		EQ(pd_reader_info(c.w.r)->version, 1, "%s: version", c.what);
		EQ(pd_reader_info(c.w.r)->swap, swap_for(be), "%s: swap", c.what);
	}
	rcase_end(&c);
}

/* A stream that stops inside a record: what came before, a warning, the end. */
static void
test_pipe_cut(bool be)
{
	struct pd_attr a = full_attr(ST_IDENT, 0);
	struct rcase c;
	size_t cut, last;

	rcase_begin(&c, be, "pipe %s cut short", order_name(be));
	s_header_attr(&c.s, &a, PD_ATTR_SIZE_VER7, NULL, 0);
	s_sample(&c.s, 3, 0);
	s_sample(&c.s, 3, 0);
	last = s_sample(&c.s, 3, 0);
	rcase_build_pipe(&c);
	cut = rcase_cut_last(&c, last, 20);
	rcase_walk_pipe(&c, 9);
	rcase_expect_stream(&c);
	EQ(c.w.nr_warn, 1, "%s: warnings", c.what);
	T_WARN(&c.w, "the file ends inside a record", cut - 20, c.what);

	/* and the same with a cut header: 5 bytes of a record header */
	rcase_rename(&c, "pipe %s cut in a header", order_name(be));
	c.img.len = cut - 20 + 5;
	rcase_walk_pipe(&c, 0);
	rcase_expect_stream(&c);
	T_WARN(&c.w, "the file ends inside a record", cut - 20, c.what);

	/* an AUXTRACE whose payload the stream does not hold */
	rcase_rename(&c, "pipe %s cut in an AUXTRACE payload", order_name(be));
	c.img.len = cut - 20;
	tb_begin_record(&c.img, PD_RECORD_AUXTRACE, 0);
	tb_u64(&c.img, 4096);
	tb_zeros(&c.img, 32);
	tb_end_record(&c.img, cut - 20);
	tb_zeros(&c.img, 100);
	rcase_walk_pipe(&c, 0);
	EQ(c.w.nr, c.s.nx + 1, "%s: records", c.what);
	EQ(c.w.end, -PD_E_TRUNCATED, "%s: end", c.what);
	expect_errmsg(&c.w, c.what,
		      "offset %#zx: the stream ends inside a record's payload (%u bytes missing)",
		      cut - 20 + 48 + 100, 4096 - 100);
	rcase_end(&c);
}

/* ------------------------------------------------------------------ */
/* Compressed records (§10)                                           */
/* ------------------------------------------------------------------ */

/*
 * Inner records A, B, C, D; payload 1 ends inside B, an uncompressed
 * FINISHED_ROUND lies between the payloads, payload 2 completes B.
 */
static void
build_compressed(struct stream *s, bool be, uint32_t type)
{
	uint64_t tr[] = { 0x10, 5, 0 };
	uint64_t smp[] = { 0, 0x400000, 0x10, 6, 1 };
	uint64_t big[30];
	struct zin z;
	size_t b, i;

	for (i = 0; i < ARRAY_SIZE(big); i++)
		big[i] = 0x1000 + i;
	z_init(&z, be);
	s_comm(&z.in, 4242, "compressed", tr, ARRAY_SIZE(tr), 0);
	b = s_words(&z.in, PD_RECORD_SAMPLE, 0, big, ARRAY_SIZE(big), 0);
	s_words(&z.in, PD_RECORD_SAMPLE, PD_MISC_USER, smp, ARRAY_SIZE(smp), 0);
	s_words(&z.in, PD_RECORD_EXIT, 0, big, 5, 0);

	s_comm(s, 1, "before", tr, ARRAY_SIZE(tr), 0);
	z_flush(s, &z, z.in.x[b].offset + 100, type);
	s_round(s);
	z_flush(s, &z, z.in.b.len, type);
	s_round(s);
	/* a third payload, of nothing, then one more record */
	z_flush(s, &z, z.in.b.len, type);
	s_comm(s, 2, "after", tr, ARRAY_SIZE(tr), 0);
	z_free(&z);
}

/* The reader's byte counts agree with the COMPRESSED records of c. */
static void
check_zstats(const struct rcase *c)
{
	uint64_t comp = 0, inner = 0;
	size_t k;

	if (c->w.open_err)
		return;
	for (k = 0; k < c->s.nx; k++) {
		const struct xrec *x = &c->s.x[k];

		if (x->origin == PD_ORIGIN_COMPRESSED)
			inner += x->size;
		else if (x->type == PD_RECORD_COMPRESSED)
			comp += x->size - 8;
		else if (x->type == PD_RECORD_COMPRESSED2)
			comp += tb_get_uint(x->bytes + 8, 8, c->s.b.big_endian);
	}
	EQ(pd_reader_stats(c->w.r)->bytes_compressed, comp, "%s: bytes_compressed", c->what);
	EQ(pd_reader_stats(c->w.r)->bytes_decompressed, inner, "%s: bytes_decompressed",
	   c->what);
}

#define ST_PLAIN	(PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |	\
			 PD_SAMPLE_PERIOD)

static void
test_compressed(bool be, uint32_t type)
{
	const char *two = type == PD_RECORD_COMPRESSED2 ? "2" : "";
	struct pd_attr a = full_attr(ST_PLAIN, 0);
	struct rcase c;

	rcase_begin(&c, be, "file %s COMPRESSED%s", order_name(be), two);
	build_compressed(&c.s, be, type);
	rcase_attr(&c, 0, a, PD_ATTR_SIZE_VER7, NULL, 0);
	rcase_run(&c, "compressed");
	T_NO_WARN(&c.w, c.what);
	check_zstats(&c);
	rcase_end(&c);

	/* the same records in a pipe stream */
	rcase_begin(&c, be, "pipe %s COMPRESSED%s", order_name(be), two);
	s_header_attr(&c.s, &a, PD_ATTR_SIZE_VER7, NULL, 0);
	build_compressed(&c.s, be, type);
	rcase_run_pipe(&c, 50);
	T_NO_WARN(&c.w, c.what);
	check_zstats(&c);
	rcase_end(&c);
}

/*
 * One payload that decompresses to more than the reader's output window
 * (a few MB of large records: perf compresses a whole ring buffer per
 * record, and `-m` makes those as large as asked).  Every record must
 * come out, none may be held back or lost.
 */
static void
test_compressed_large(bool be, size_t nrec, size_t extra)
{
	uint64_t *body = calloc(65528 / 8, 8);
	struct rcase c;
	struct zin z;
	size_t i;

	if (!body)
		abort();
	rcase_begin(&c, be, "file %s one payload of %zu x 64K + %zu",
		    order_name(be), nrec, extra);
	z_init(&z, be);
	for (i = 0; i < nrec; i++) {
		body[0] = i;
		s_words(&z.in, PD_RECORD_SAMPLE, 0, body, 65528 / 8 - 1, 0);
	}
	for (i = 0; i < extra; i++)
		s_words(&z.in, PD_RECORD_SAMPLE, 0, body, 3, 0);
	z_flush(&c.s, &z, z.in.b.len, PD_RECORD_COMPRESSED);
	s_round(&c.s);
	z_free(&z);
	rcase_attr(&c, 0, full_attr(ST_PLAIN, 0), PD_ATTR_SIZE_VER7, NULL, 0);
	rcase_run(&c, "compressed-large");
	T_NO_WARN(&c.w, c.what);
	check_zstats(&c);
	rcase_end(&c);
	free(body);
}

/* ------------------------------------------------------------------ */
/* Files that were not finalised or were cut short (§2.4)             */
/* ------------------------------------------------------------------ */

static void
test_not_finalised(bool be)
{
	struct rcase c;
	size_t last, cut;

	rcase_begin(&c, be, "file %s data.size 0", order_name(be));
	s_sample(&c.s, 61, 0);
	s_round(&c.s);
	s_sample(&c.s, 61, 0);
	last = s_sample(&c.s, 61, 0);
	rcase_build(&c);
	/* the recorder was killed: data.size 0 and the last record half written */
	c.f.data_size_zero = true;
	tb_patch(&c.img, 48, 0, 8);
	cut = rcase_cut_last(&c, last, 13);
	rcase_walk(&c, "not-finalised");
	rcase_expect_stream(&c);
	EQ(c.w.nr_warn, 2, "%s: warnings", c.what);
	T_WARN(&c.w, "data size is 0", 48, c.what);
	T_WARN(&c.w, "the file ends inside a record", cut - 13, c.what);
	if (!c.w.open_err) {
		const struct pd_file_info *in = pd_reader_info(c.w.r);

		check_file_info(&c);
		EQ(in->not_finalised, 1, "%s: not_finalised", c.what);
		EQ(in->data_end, c.img.len, "%s: data_end", c.what);
	}

	/* the same, ending exactly after a whole record: one warning only */
	rcase_rename(&c, "file %s data.size 0, whole records", order_name(be));
	c.img.len = cut - 13;
	rcase_walk(&c, "not-finalised-whole");
	rcase_expect_stream(&c);
	EQ(c.w.nr_warn, 1, "%s: warnings", c.what);
	T_WARN(&c.w, "data size is 0", 48, c.what);
	rcase_end(&c);
}

static void
test_cut_short(bool be)
{
	struct rcase c;
	size_t i, cut, k = 0;

	rcase_begin(&c, be, "file %s cut short", order_name(be));
	for (i = 0; i < 6; i++)
		k = s_sample(&c.s, 61, 0);
	rcase_build(&c);
	/* a finalised header, but the file stops 3 bytes into the 6th record */
	cut = rcase_cut_last(&c, k, 3);
	rcase_walk(&c, "cut-short");
	rcase_expect_stream(&c);
	/* the feature table, written after the data, is gone too */
	EQ(c.w.nr_warn, 3, "%s: warnings", c.what);
	T_WARN(&c.w, "runs past the end of the file", 48, c.what);
	T_WARN(&c.w, "the feature table (1 entries) runs past", c.l.feat_offset, c.what);
	T_WARN(&c.w, "the file ends inside a record", cut - 3, c.what);
	if (!c.w.open_err) {
		EQ(pd_reader_info(c.w.r)->data_end, c.img.len, "%s: data_end", c.what);
		EQ(pd_reader_info(c.w.r)->data_size, c.l.data_size, "%s: data_size", c.what);
	}
	rcase_end(&c);
}

/* ------------------------------------------------------------------ */
/* Directory mode (§12)                                               */
/* ------------------------------------------------------------------ */

static void
make_dir_file(const char *dir, const char *name, const struct tbuf *b)
{
	char path[1100];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	write_file(path, b ? b->p : NULL, b ? b->len : 0);
}

/* A new directory named after what, with data (if any) as its data file. */
static bool
make_dir(char *dir, size_t len, const char *what, const struct tbuf *data)
{
	tmp_name(dir, len, what);
	if (mkdir(dir, 0700) < 0)
		return false;
	if (data)
		make_dir_file(dir, "data", data);
	return true;
}

static void
remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[1100];

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/* The open failed with err and this message. */
static void
expect_open_failed(const struct walk *w, int err, const char *msg, const char *what)
{
	EQ(w->open_err, err, "%s: open", what);
	STR_EQ(w->errmsg, msg, "%s: message", what);
}

static void
test_dir(bool be, bool dir_format)
{
	static const uint64_t ids[] = { 71, 72 };
	uint64_t tr[] = { 0x10, 5, 0 };
	struct stream d[11];
	struct zin z0, z1;
	struct rcase c;
	char dir[512], name[16];
	size_t i, k;

	rcase_begin(&c, be, "dir %s%s", order_name(be),
		    dir_format ? "" : " without DIR_FORMAT");
	s_comm(&c.s, 1, "synth", tr, ARRAY_SIZE(tr), 0);
	s_words(&c.s, PD_RECORD_FINISHED_INIT, 0, NULL, 0, -1);
	for (i = 0; i < 11; i++)
		s_init(&d[i], be);
	/* data.0 and data.1: each its own zstd stream; data.10: plain */
	z_init(&z0, be);
	z_init(&z1, be);
	for (i = 0; i < 3; i++) {
		s_sample(&z0.in, 72, 0);
		s_sample(&z1.in, 72, 0);
	}
	s_sample(&d[0], 72, 0);
	z_flush(&d[0], &z0, z0.in.x[1].offset + 5, PD_RECORD_COMPRESSED);
	z_flush(&d[1], &z1, z1.in.x[2].offset + 9, PD_RECORD_COMPRESSED2);
	z_flush(&d[0], &z0, z0.in.b.len, PD_RECORD_COMPRESSED);
	z_flush(&d[1], &z1, z1.in.b.len, PD_RECORD_COMPRESSED2);
	s_sample(&d[1], 72, 0);
	s_sample(&d[10], 72, 0);
	s_comm(&d[10], 2, "ten", tr, ARRAY_SIZE(tr), 0);
	z_free(&z0);
	z_free(&z1);

	tb_header_string(rcase_feature(&c, PD_FEAT_HOSTNAME), "dirhost");
	if (dir_format)
		tb_u64(rcase_feature(&c, PD_FEAT_DIR_FORMAT), 1);
	rcase_attr(&c, 0, full_attr(ST_IDENT, 0), PD_ATTR_SIZE_VER7, ids, 2);
	rcase_build(&c);
	if (!make_dir(dir, sizeof(dir), "dir", &c.img)) {
		T(0, "mkdir %s: %s", dir, strerror(errno));
		goto out;
	}
	for (i = 0; i < 11; i++) {
		snprintf(name, sizeof(name), "data.%zu", i);
		make_dir_file(dir, name, &d[i].b);
	}
	/* not data files */
	make_dir_file(dir, "data.x", &d[0].b);
	make_dir_file(dir, "data.", &d[0].b);
	make_dir_file(dir, "data.1.bak", &d[0].b);

	walk_path(&c.w, dir);
	EQ(c.w.open_err, 0, "%s: open (%s)", c.what, c.w.errmsg);
	k = 0;
	check_stream(&c.w, &k, &c.s, c.l.data_offset, 0, true, c.what);
	if (dir_format)
		for (i = 0; i < 11; i++)
			check_stream(&c.w, &k, &d[i], 0, (unsigned int)i + 1, true,
				     c.what);
	EQ(c.w.nr, k, "%s: records delivered", c.what);
	EQ(c.w.end, 0, "%s: end (%s)", c.what, c.w.errmsg);
	T_NO_WARN(&c.w, c.what);
	if (!c.w.open_err) {
		const struct pd_file_info *in = pd_reader_info(c.w.r);

		EQ(in->mode, PD_MODE_DIR, "%s: mode", c.what);
		EQ(in->file_size, c.img.len, "%s: file_size", c.what);
		EQ(in->data_offset, c.l.data_offset, "%s: data_offset", c.what);
		EQ(in->swap, swap_for(be), "%s: swap", c.what);
		EQ(pd_meta_has(pd_reader_meta(c.w.r), PD_FEAT_DIR_FORMAT), dir_format,
		   "%s: DIR_FORMAT", c.what);
		EQ(pd_reader_stats(c.w.r)->records, c.w.nr, "%s: stats.records", c.what);
	}
	walk_done(&c.w);

	/* an error in data.1 names that file */
	if (dir_format) {
		struct tbuf bad;

		rcase_rename(&c, "dir %s bad data.1", order_name(be));
		tb_init(&bad, be);
		tb_bytes(&bad, d[10].b.p, d[10].b.len);
		tb_u32(&bad, PD_RECORD_SAMPLE);
		tb_u16(&bad, 0);
		tb_u16(&bad, 4);
		make_dir_file(dir, "data.1", &bad);
		walk_path(&c.w, dir);
		EQ(c.w.end, -PD_E_BAD_SIZE, "%s: end", c.what);
		expect_errmsg(&c.w, c.what,
			      "data.1: offset %#zx: record type 9 has size 4, smaller than its 8-byte header",
			      d[10].b.len);
		tb_free(&bad);
	}
	remove_dir(dir);
out:
	rcase_end(&c);
	for (i = 0; i < 11; i++)
		s_free(&d[i]);
}

static void
test_dir_errors(void)
{
	struct pipe_case pc;
	struct walk w;
	char dir[512];

	if (!make_dir(dir, sizeof(dir), "emptydir", NULL))
		return;
	walk_init(&w);
	walk_path(&w, dir);
	expect_open_failed(&w, -PD_E_BAD_DIR, "a directory without a readable data file",
			   "dir without data");
	walk_done(&w);

	/* a pipe stream as the data file */
	pipe_case_build(&pc, false);
	make_dir_file(dir, "data", &pc.img);
	walk_path(&w, dir);
	expect_open_failed(&w, -PD_E_BAD_DIR, "its data file is not a file-mode perf.data",
			   "dir with a pipe-mode data");
	walk_done(&w);
	pipe_case_free(&pc);
	remove_dir(dir);
}

/* ------------------------------------------------------------------ */
/* Errors and their messages                                          */
/* ------------------------------------------------------------------ */

/* "prefix name", or name alone. */
static void
error_case_name(char *what, size_t len, const char *prefix, const char *name)
{
	snprintf(what, len, "%s%s%s", prefix ? prefix : "", prefix ? " " : "", name);
}

static void
open_error_v(const struct tbuf *img, int err, const char *what, const char *fmt,
	     va_list ap)
{
	char want[300];
	struct walk w;

	vsnprintf(want, sizeof(want), fmt, ap);
	walk_init(&w);
	walk_image(&w, img, "error");
	EQ(w.open_err, err, "%s: open error (%s)", what, w.errmsg);
	STR_EQ(w.errmsg, want, "%s: message", what);
	EQ(w.nr, 0, "%s: records", what);
	walk_done(&w);
}

/* Opening img fails with err and the message the format makes. */
static void __attribute__((format(printf, 5, 6)))
expect_open_error(const struct tbuf *img, int err, const char *prefix,
		  const char *name, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	error_case_name(what, sizeof(what), prefix, name);
	va_start(ap, fmt);
	open_error_v(img, err, what, fmt, ap);
	va_end(ap);
}

/* The same with width bytes at offset at of c's image set to v, then restored. */
static void __attribute__((format(printf, 7, 8)))
patch_open_error(struct rcase *c, size_t at, unsigned int width, uint64_t v,
		 int err, const char *name, const char *fmt, ...)
{
	uint64_t old = tb_load(&c->img, at, width);
	char what[160];
	va_list ap;

	error_case_name(what, sizeof(what), c->what, name);
	tb_patch(&c->img, at, v, width);
	va_start(ap, fmt);
	open_error_v(&c->img, err, what, fmt, ap);
	va_end(ap);
	tb_patch(&c->img, at, old, width);
}

static void
test_errors_open(bool be)
{
	struct rcase c;
	struct tbuf zeros;
	const struct flayout *l = &c.l;

	rcase_begin(&c, be, "%s", order_name(be));
	s_sample(&c.s, 61, 0);
	rcase_build(&c);

	tb_init(&zeros, be);
	tb_zeros(&zeros, 1024);
	expect_open_error(&zeros, -PD_E_BAD_MAGIC, c.what, "bad magic",
			  "offset 0: not a perf.data file: magic 0000000000000000 is neither PERFILE2 nor PERFFILE");
	zeros.len = 10;
	expect_open_error(&zeros, -PD_E_TRUNCATED, c.what, "10 bytes",
			  "offset 0: the input is 10 bytes, too short for a perf.data header");
	tb_free(&zeros);

	/* header size neither 104 nor 72 nor 16 */
	patch_open_error(&c, 8, 8, 100, -PD_E_BAD_HEADER, "header size 100",
			 "offset 0x8: header size 100 is none of 104, 72 (file) or 16 (pipe)");

	/* attr_size 0: perf's "not properly terminated" */
	patch_open_error(&c, 16, 8, 0, -PD_E_BAD_HEADER, "attr_size 0",
			 "offset 0x10: attr_size is 0: the file was not properly terminated");
	patch_open_error(&c, 16, 8, 40, -PD_E_BAD_HEADER, "attr_size 40",
			 "offset 0x10: attr_size 40 is smaller than the smallest attr entry (80)");

	/* overlapping sections */
	patch_open_error(&c, 40, 8, l->attrs_offset + 8, -PD_E_BAD_HEADER,
			 "attrs overlap data",
			 "offset 0x18: the attr section (%#" PRIx64 "+%" PRIu64 ") and the data section (%#" PRIx64 "+%" PRIu64 ") overlap",
			 l->attrs_offset, l->attrs_size, l->attrs_offset + 8, l->data_size);
	patch_open_error(&c, 24, 8, 64, -PD_E_BAD_HEADER, "attrs overlap the header",
			 "offset 0x18: the attr section at 0x40 overlaps the file header");
	patch_open_error(&c, 40, 8, 96, -PD_E_BAD_HEADER, "data overlaps the header",
			 "offset 0x28: the data section at 0x60 overlaps the file header");

	/* sections beyond the end of the file */
	patch_open_error(&c, 24, 8, c.img.len - 8, -PD_E_TRUNCATED, "attrs beyond EOF",
			 "offset 0x18: the attr section (%#zx, %" PRIu64 " bytes) lies beyond the end of the file (%zu bytes)",
			 c.img.len - 8, l->attrs_size, c.img.len);
	patch_open_error(&c, 40, 8, c.img.len + 8, -PD_E_TRUNCATED, "data beyond EOF",
			 "offset 0x28: the data section starts at %#zx, after the end of the file (%zu bytes)",
			 c.img.len + 8, c.img.len);
	/* the id array beyond the end */
	patch_open_error(&c, l->attrs_offset + PD_ATTR_SIZE_VER7, 8, c.img.len,
			 -PD_E_TRUNCATED, "ids beyond EOF",
			 "offset %#" PRIx64 ": attr 0: its id array (%#zx, 8 bytes) lies beyond the end of the file",
			 l->attrs_offset + PD_ATTR_SIZE_VER7, c.img.len);

	/* attr.size 32: neither 0 nor a real size */
	patch_open_error(&c, l->attrs_offset + 4, 4, 32, -PD_E_BAD_ATTR, "attr.size 32",
			 "offset %#" PRIx64 ": attr 0: attr.size 32 is smaller than 64",
			 l->attrs_offset);

	/* the header lies about its own size */
	c.img.len = 90;
	expect_open_error(&c.img, -PD_E_TRUNCATED, c.what, "file shorter than its header",
			  "offset 0: the file is 90 bytes, shorter than its 104-byte header");
	rcase_end(&c);
}

/*
 * Walking c's image stops with err and the message the format makes,
 * after the first nr_good records of c.
 */
static void __attribute__((format(printf, 5, 6)))
expect_walk_error(const struct rcase *c, size_t nr_good, int err, const char *name,
		  const char *fmt, ...)
{
	struct stream good = c->s;
	struct pd_record rec;
	char what[160], want[300];
	struct walk w;
	size_t i = 0;
	va_list ap;

	error_case_name(what, sizeof(what), c->what, name);
	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	walk_init(&w);
	walk_image(&w, &c->img, "walk-error");
	EQ(w.open_err, 0, "%s: open (%s)", what, w.errmsg);
	good.nx = nr_good;
	check_stream(&w, &i, &good, c->base, 0, true, what);
	EQ(w.nr, nr_good, "%s: records before the error", what);
	EQ(w.end, err, "%s: error", what);
	STR_EQ(w.errmsg, want, "%s: message", what);
	if (w.r && !w.open_err)
		EQ(pd_reader_next(w.r, &rec), err, "%s: the error is sticky", what);
	walk_done(&w);
}

/* A SAMPLE, then a record of type holding another, compressed: its index. */
static size_t
s_sample_and_compressed(struct stream *s, uint32_t type)
{
	struct zin z;
	size_t k;

	z_init(&z, s->b.big_endian);
	s_sample(&z.in, 61, 0);
	s_sample(s, 61, 0);
	k = z_flush(s, &z, z.in.b.len, type);
	z_free(&z);
	return k;
}

static void
test_errors_walk(bool be)
{
	struct rcase c;
	struct zin z;
	uint64_t at;
	size_t k;

	/* a record whose size is below its header */
	rcase_begin(&c, be, "%s", order_name(be));
	s_sample(&c.s, 61, 0);
	k = s_sample(&c.s, 61, 0);
	s_round(&c.s);
	rcase_build(&c);
	at = rcase_offset(&c, k);
	tb_patch(&c.img, at + 6, 4, 2);
	expect_walk_error(&c, 1, -PD_E_BAD_SIZE, "record size 4",
			  "offset %#" PRIx64 ": record type 9 has size 4, smaller than its 8-byte header",
			  at);
	tb_patch(&c.img, at + 6, 0, 2);
	expect_walk_error(&c, 1, -PD_E_BAD_SIZE, "record size 0",
			  "offset %#" PRIx64 ": record type 9 has size 0, smaller than its 8-byte header",
			  at);

	/* a record running past the end of a finalised data section */
	tb_patch(&c.img, at + 6, 64, 2);
	expect_walk_error(&c, 1, -PD_E_TRUNCATED, "record past the data section",
			  "offset %#" PRIx64 ": a record of 64 bytes runs past the end of the data section (56 bytes left)",
			  at);
	rcase_end(&c);

	/* an AUXTRACE whose payload runs past the data section */
	rcase_begin(&c, be, "%s", order_name(be));
	s_sample(&c.s, 61, 0);
	k = s_auxtrace(&c.s, 64, 1);
	rcase_build(&c);
	at = rcase_offset(&c, k);
	tb_patch(&c.img, at + 8, 72, 8);
	expect_walk_error(&c, 1, -PD_E_TRUNCATED, "AUXTRACE payload past the data",
			  "offset %#" PRIx64 ": a record with its trailing payload of 120 bytes runs past the end of the data section (112 bytes left)",
			  at);
	rcase_end(&c);

	/* COMPRESSED2 whose data_size exceeds the record */
	rcase_begin(&c, be, "%s", order_name(be));
	k = s_sample_and_compressed(&c.s, PD_RECORD_COMPRESSED2);
	rcase_build(&c);
	at = rcase_offset(&c, k);
	tb_patch(&c.img, at + 8, 1000, 8);
	expect_walk_error(&c, 1, -PD_E_BAD_RECORD, "COMPRESSED2 data_size too big",
			  "offset %#" PRIx64 ": COMPRESSED2 data_size 1000 exceeds the record's %u bytes",
			  at, c.s.x[k].size);
	/* ... and one too short for its data_size field */
	tb_patch(&c.img, at + 6, 12, 2);
	expect_walk_error(&c, 1, -PD_E_BAD_RECORD, "COMPRESSED2 of 12 bytes",
			  "offset %#" PRIx64 ": COMPRESSED2 record of 12 bytes has no data_size field",
			  at);
	rcase_end(&c);

	/* corrupt zstd bytes: the COMPRESSED record itself comes out, then the error */
	rcase_begin(&c, be, "%s", order_name(be));
	k = s_sample_and_compressed(&c.s, PD_RECORD_COMPRESSED);
	rcase_build(&c);
	at = rcase_offset(&c, k);
	memset(c.img.p + at + 8, 0x5a, 4);	/* the frame magic */
	memcpy(c.s.x[k].bytes + 8, c.img.p + at + 8, 4);
	expect_walk_error(&c, 2, -PD_E_ZSTD, "corrupt zstd",
			  "offset %#" PRIx64 ": zstd: %s (decompressed stream byte 0)",
			  at, ZSTD_getErrorName((size_t)-ZSTD_error_prefix_unknown));
	rcase_end(&c);

	/* a decompressed record whose size is below its header */
	rcase_begin(&c, be, "%s", order_name(be));
	z_init(&z, be);
	s_sample(&z.in, 61, 0);
	k = s_begin(&z.in, PD_RECORD_COMM, 0);
	tb_u64(&z.in.b, 0);
	s_end(&z.in, k, 0);
	tb_patch(&z.in.b, k + 6, 2, 2);
	k = z_flush(&c.s, &z, z.in.b.len, PD_RECORD_COMPRESSED);
	z_free(&z);
	rcase_build(&c);
	expect_walk_error(&c, 2, -PD_E_BAD_SIZE, "decompressed record size 2",
			  "offset %#" PRIx64 ": in the decompressed data at byte 48: record type 3 has size 2, smaller than its 8-byte header",
			  rcase_offset(&c, k));
	rcase_end(&c);

	/* an AUXTRACE inside a compressed payload cannot be (its data would be outside) */
	rcase_begin(&c, be, "%s", order_name(be));
	z_init(&z, be);
	s_auxtrace(&z.in, 0, 0);
	k = z_flush(&c.s, &z, z.in.b.len, PD_RECORD_COMPRESSED);
	z_free(&z);
	rcase_build(&c);
	expect_walk_error(&c, 1, -PD_E_BAD_RECORD, "AUXTRACE compressed",
			  "offset %#" PRIx64 ": in the decompressed data at byte 0: a record of type 71 cannot be inside a compressed payload",
			  rcase_offset(&c, k));
	rcase_end(&c);
}

/* The compressed stream ends inside a record: what is whole, then a warning. */
static void
test_compressed_leftover(bool be)
{
	struct rcase c;
	struct zin z;
	size_t k;

	rcase_begin(&c, be, "file %s compressed leftover", order_name(be));
	z_init(&z, be);
	s_sample(&z.in, 61, 0);
	s_sample(&z.in, 61, 0);
	k = z_flush(&c.s, &z, z.in.b.len - 10, PD_RECORD_COMPRESSED);
	s_round(&c.s);
	z_free(&z);
	rcase_run(&c, "leftover");
	EQ(c.w.nr_warn, 1, "%s: warnings", c.what);
	T_WARN(&c.w, "the compressed data ends inside a record (38 bytes left over)",
	       rcase_offset(&c, k), c.what);
	rcase_end(&c);
}

/* File-mode bytes through a pipe, a missing file, a pipe too short. */
static void
test_errors_misc(void)
{
	uint64_t words[] = { 61, 0x400000, 0x10, 7, 1 };
	struct pd_attr a = full_attr(ST_IDENT, 0);
	struct rcase c;
	char path[512];
	size_t at;

	rcase_begin(&c, false, "file-mode bytes in a pipe");
	s_sample(&c.s, 61, 0);
	rcase_build(&c);
	rcase_walk_pipe(&c, 0);
	expect_open_failed(&c.w, -PD_E_UNSUPPORTED,
			   "offset 0x8: a file-mode perf.data (header size 104) cannot be read from a pipe; give its path",
			   c.what);
	rcase_rename(&c, "12-byte pipe");
	c.img.len = 12;
	rcase_walk_pipe(&c, 5);
	expect_open_failed(&c.w, -PD_E_TRUNCATED,
			   "offset 0: the input is 12 bytes, too short for a perf.data header",
			   c.what);
	rcase_end(&c);

	/* a missing file: the message says why (reader.h: "the reason") */
	rcase_begin(&c, false, "missing file");
	tmp_name(path, sizeof(path), "missing");
	walk_path(&c.w, path);
	EQ(c.w.open_err, PD_ERR_ERRNO(ENOENT), "%s: open", c.what);
	T(strstr(c.w.errmsg, strerror(ENOENT)) != NULL,
	  "missing file: message \"%s\" does not say \"%s\"", c.w.errmsg, strerror(ENOENT));
	rcase_end(&c);

	/* HEADER_ATTR too short for an attr, in a pipe */
	rcase_begin(&c, false, "short HEADER_ATTR");
	s_words(&c.s, PD_RECORD_HEADER_ATTR, 0, words, ARRAY_SIZE(words), -1);
	rcase_build_pipe(&c);
	rcase_walk_pipe(&c, 0);
	EQ(c.w.end, -PD_E_BAD_RECORD, "%s: error", c.what);
	expect_errmsg(&c.w, c.what, "offset 0x10: the ATTR record does not decode: the fixed fields: 64 bytes at byte 8 of the record, but 40 are left");
	rcase_end(&c);

	/* a HEADER_ATTR whose attr.size runs past the record */
	rcase_begin(&c, false, "HEADER_ATTR attr.size past the record");
	at = s_begin(&c.s, PD_RECORD_HEADER_ATTR, 0);
	tb_attr(&c.s.b, &a, PD_ATTR_SIZE_VER7, PD_ATTR_SIZE_VER5, 0xee);
	s_end(&c.s, at, -1);
	rcase_build_pipe(&c);
	rcase_walk_pipe(&c, 0);
	EQ(c.w.end, -PD_E_BAD_RECORD, "%s: error", c.what);
	expect_errmsg(&c.w, c.what,
		      "offset 0x10: the ATTR record does not decode: attr: 128 bytes at byte 8 of the record, but 112 are left");
	rcase_end(&c);
}

/* ------------------------------------------------------------------ */
/* More file-mode corners                                             */
/* ------------------------------------------------------------------ */

/*
 * A feature bit we do not know, with a payload, is listed and skipped; a
 * feature whose section lies beyond the end of the file is marked bad
 * with a warning; neither stops the records (§4.1, §15.2).
 */
static void
test_file_features(bool be)
{
	static const unsigned char blob[24] = { 9, 9, 9 };
	struct rcase c;

	rcase_begin(&c, be, "file %s unknown feature 40", order_name(be));
	s_sample(&c.s, 61, 0);
	tb_header_string(rcase_feature(&c, PD_FEAT_HOSTNAME), "featurehost");
	tb_bytes(rcase_feature(&c, 40), blob, sizeof(blob));
	rcase_run(&c, "features");
	T_NO_WARN(&c.w, c.what);
	if (!c.w.open_err) {
		const struct pd_meta *m = pd_reader_meta(c.w.r);

		EQ(pd_meta_has(m, 40), 1, "%s: bit 40", c.what);
		EQ(m->nr_unknown_features, 1, "%s: nr_unknown_features", c.what);
		EQ(m->unknown_features[0], 40, "%s: unknown_features[0]", c.what);
		EQ(m->sections[40].size, sizeof(blob), "%s: section 40 size", c.what);
		STR_EQ(m->hostname, "featurehost", "%s: hostname", c.what);
	}

	/* the HOSTNAME section points past the end of the file */
	rcase_rename(&c, "file %s feature beyond EOF", order_name(be));
	tb_patch(&c.img, c.l.feat_offset, c.img.len + 100, 8);
	rcase_walk(&c, "feature-eof");
	rcase_expect_stream(&c);
	EQ(c.w.nr_warn, 1, "%s: warnings", c.what);
	T_WARN(&c.w, "feature HOSTNAME: its section", c.l.feat_offset, c.what);
	if (!c.w.open_err) {
		const struct pd_meta *m = pd_reader_meta(c.w.r);

		EQ((m->bad_features[0] >> PD_FEAT_HOSTNAME) & 1, 1, "%s: HOSTNAME is bad",
		   c.what);
		T(m->hostname == NULL, "%s: a hostname from nowhere", c.what);
		EQ(pd_meta_has(m, 40), 1, "%s: bit 40", c.what);
	}
	rcase_end(&c);
}

/* An attr section that is not a whole number of entries: the tail is ignored. */
static void
test_file_attrs_ragged(bool be)
{
	static const uint64_t ids0[] = { 5 }, ids1[] = { 6 };
	struct rcase c;

	rcase_begin(&c, be, "file %s ragged attr section", order_name(be));
	s_sample(&c.s, 6, 0);
	rcase_attr(&c, 0, full_attr(ST_IDENT, 0), PD_ATTR_SIZE_VER7, ids0, 1);
	rcase_attr(&c, 1, full_attr(ST_IDENT, 0), PD_ATTR_SIZE_VER7, ids1, 1);
	rcase_build(&c);
	tb_patch(&c.img, 32, c.l.attrs_size - 8, 8);
	rcase_walk(&c, "ragged");
	rcase_expect_stream(&c);
	EQ(c.w.nr_warn, 1, "%s: warnings", c.what);
	T_WARN(&c.w, "the attr section size 280 is not a multiple of attr_size 144", 32,
	       c.what);
	if (!c.w.open_err)
		EQ(pd_reader_nr_evsels(c.w.r), 1, "%s: nr_evsels", c.what);
	rcase_end(&c);
}

/*
 * A recorder killed before it finalised the file can leave zeros after
 * its last record: with data.size 0 they end the records, with a warning
 * (a record of size 0 in a finalised file is an error, test_errors_walk).
 */
static void
test_not_finalised_zeros(bool be)
{
	struct rcase c;

	rcase_begin(&c, be, "file %s data.size 0, zeros after", order_name(be));
	s_sample(&c.s, 61, 0);
	s_round(&c.s);
	rcase_build(&c);
	/* no feature section yet: the data is the end of the file */
	c.img.len = (size_t)(c.l.data_offset + c.l.data_size);
	tb_patch(&c.img, 48, 0, 8);
	c.f.data_size_zero = true;
	tb_zeros(&c.img, 4096);
	rcase_walk(&c, "zeros");
	rcase_expect_stream(&c);
	EQ(c.w.nr_warn, 2, "%s: warnings", c.what);
	T_WARN(&c.w, "data size is 0", 48, c.what);
	T_WARN(&c.w, "reading stops here", c.l.data_offset + c.l.data_size, c.what);
	rcase_end(&c);
}

/* A data.N file ends inside a record: a warning that names it, then data.N+1. */
static void
test_dir_partial(bool be)
{
	static const uint64_t ids[] = { 71 };
	struct stream d0, d1;
	struct tbuf cut;
	struct rcase c;
	char dir[512];
	size_t k;

	rcase_begin(&c, be, "dir %s partial data.0", order_name(be));
	s_init(&d0, be);
	s_init(&d1, be);
	s_round(&c.s);
	s_sample(&d0, 71, 0);
	s_sample(&d1, 71, 0);
	tb_u64(rcase_feature(&c, PD_FEAT_DIR_FORMAT), 1);
	rcase_attr(&c, 0, full_attr(ST_IDENT, 0), PD_ATTR_SIZE_VER7, ids, 1);
	rcase_build(&c);
	tb_init(&cut, be);
	tb_bytes(&cut, d0.b.p, d0.b.len);
	tb_bytes(&cut, d1.b.p, 10);

	if (make_dir(dir, sizeof(dir), "dirpartial", &c.img)) {
		make_dir_file(dir, "data.0", &cut);
		make_dir_file(dir, "data.1", &d1.b);
		walk_path(&c.w, dir);
		k = 0;
		check_stream(&c.w, &k, &c.s, c.l.data_offset, 0, true, c.what);
		check_stream(&c.w, &k, &d0, 0, 1, true, c.what);
		check_stream(&c.w, &k, &d1, 0, 2, true, c.what);
		EQ(c.w.nr, k, "%s: records", c.what);
		EQ(c.w.end, 0, "%s: end (%s)", c.what, c.w.errmsg);
		EQ(c.w.nr_warn, 1, "%s: warnings", c.what);
		T_WARN(&c.w, "data.0: offset 0x30: the file ends inside a record", 0x30,
		       c.what);
		walk_done(&c.w);
		remove_dir(dir);
	}
	rcase_end(&c);
	tb_free(&cut);
	s_free(&d0);
	s_free(&d1);
}

/* HEADER_FEATURE ids beyond the bitmap and malformed payloads warn and go on. */
static void
test_pipe_bad_features(bool be)
{
	struct pd_attr a = full_attr(ST_IDENT, 0);
	struct tbuf short_nrcpus;
	struct rcase c;
	size_t k300, knr;

	rcase_begin(&c, be, "pipe %s bad features", order_name(be));
	s_header_attr(&c.s, &a, PD_ATTR_SIZE_VER7, NULL, 0);
	k300 = s_feature(&c.s, 300, NULL);
	tb_init(&short_nrcpus, be);
	tb_u32(&short_nrcpus, 2);
	knr = s_feature(&c.s, PD_FEAT_NRCPUS, &short_nrcpus);
	tb_free(&short_nrcpus);
	s_sample(&c.s, 3, 0);
	rcase_run_pipe(&c, 0);
	EQ(c.w.nr_warn, 2, "%s: warnings", c.what);
	T_WARN(&c.w, "HEADER_FEATURE with feature id 300 (beyond 255) is skipped",
	       rcase_offset(&c, k300), c.what);
	T_WARN(&c.w, "HEADER_FEATURE NRCPUS is malformed", rcase_offset(&c, knr),
	       c.what);
	rcase_end(&c);
}

/*
 * pd_reader_find_evsel() on a record built elsewhere: a SAMPLE whose size
 * is below its header holds no id, whatever bytes lie behind it.
 */
static void
test_find_evsel_short(void)
{
	static const uint64_t ids0[] = { 100 }, ids1[] = { 200 };
	unsigned char bytes[24];
	uint64_t id = 200;
	struct pd_record rec;
	struct rcase c;

	rcase_begin(&c, HOST_BE, "find_evsel");
	s_round(&c.s);
	rcase_attr(&c, 0, full_attr(ST_IDENT, 0), PD_ATTR_SIZE_VER7, ids0, 1);
	rcase_attr(&c, 1, full_attr(ST_IDENT, 0), PD_ATTR_SIZE_VER7, ids1, 1);
	rcase_build(&c);
	rcase_walk(&c, "find-evsel");
	if (!c.w.open_err) {
		memset(bytes, 0, sizeof(bytes));
		memcpy(bytes + 8, &id, sizeof(id));
		memset(&rec, 0, sizeof(rec));
		rec.header.type = PD_RECORD_SAMPLE;
		rec.data = bytes;
		rec.size = 16;
		rec.header.size = 16;
		EQ(pd_reader_find_evsel(c.w.r, &rec), 1, "%s", "find_evsel: a 16-byte SAMPLE with id 200");
		rec.size = 8;
		rec.header.size = 8;
		EQ(pd_reader_find_evsel(c.w.r, &rec), -1, "%s", "find_evsel: an 8-byte SAMPLE");
		rec.size = 4;
		rec.header.size = 4;
		EQ(pd_reader_find_evsel(c.w.r, &rec), -1, "%s", "find_evsel: a 4-byte SAMPLE");
		rec.header.type = PD_RECORD_FINISHED_ROUND;
		rec.size = 16;
		EQ(pd_reader_find_evsel(c.w.r, &rec), -1, "%s", "find_evsel: a user record");
	}
	rcase_end(&c);
}

/* ------------------------------------------------------------------ */
/* A long random stream: every framing path, through a pipe and a file */
/* ------------------------------------------------------------------ */

static uint64_t rng_state;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static size_t
rng_below(size_t n)
{
	return n ? (size_t)(rng() % n) : 0;
}

static void
stress_build(struct stream *s, bool be, size_t nrec)
{
	struct pd_attr a = full_attr(PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_PERIOD, 0);
	static uint64_t words[600];
	struct zin z;
	size_t i, j;

	for (j = 0; j < ARRAY_SIZE(words); j++)
		words[j] = j * 0x10001;
	z_init(&z, be);
	s_header_attr(s, &a, PD_ATTR_SIZE_VER7, NULL, 0);
	for (i = 0; i < nrec; i++) {
		size_t pick = rng_below(100), k, n, at;

		if (pick < 35) {
			s_words(s, PD_RECORD_SAMPLE, PD_MISC_USER, words, rng_below(300), 0);
		} else if (pick < 50) {
			/* a user type nobody knows, of an odd size */
			at = s_begin(s, 99, 0);
			n = rng_below(500);
			for (k = 0; k < n; k++)
				tb_u8(&s->b, (uint8_t)k);
			s_end(s, at, -1);
		} else if (pick < 58) {
			n = rng_below(50) ? rng_below(20000) : 1500000 + rng_below(100);
			s_auxtrace(s, n, (unsigned char)i);
		} else if (pick < 61) {
			n = rng_below(20) ? 8 + rng_below(5000) : 70000 + rng_below(2500000);
			s_simpleperf(s, PD_RECORD_SP_START + (uint32_t)rng_below(11),
				     (uint32_t)n);
		} else if (pick < 85) {
			s_words(&z.in, PD_RECORD_SAMPLE, 0, words, 1 + rng_below(200), 0);
		} else if (pick < 95 && z.in.b.len > z.done) {
			/* flush up to a point that may cut an inner record */
			n = z.done + 1 + rng_below(z.in.b.len - z.done);
			z_flush(s, &z, n, rng_below(2) ? PD_RECORD_COMPRESSED
						       : PD_RECORD_COMPRESSED2);
		} else {
			s_round(s);
		}
		if (z.in.b.len - z.done > 20000)
			z_flush(s, &z, z.in.b.len, PD_RECORD_COMPRESSED2);
	}
	if (z.in.b.len > z.done)
		z_flush(s, &z, z.in.b.len, PD_RECORD_COMPRESSED);
	s_round(s);
	z_free(&z);
}

static void
test_stream_stress(bool be, uint64_t seed, size_t nrec)
{
	struct rcase c;

	rng_state = seed;
	rcase_begin(&c, be, "stress");
	stress_build(&c.s, be, nrec);
	rcase_build_pipe(&c);
	rcase_rename(&c, "stress %s seed %" PRIu64 " (%zu bytes) through a pipe",
		     order_name(be), seed, c.img.len);
	rcase_walk_pipe(&c, 65536);
	rcase_expect_stream(&c);
	T_NO_WARN(&c.w, c.what);
	check_zstats(&c);
	rcase_rename(&c, "stress %s seed %" PRIu64 " (%zu bytes) from a file",
		     order_name(be), seed, c.img.len);
	rcase_walk(&c, "stress");
	rcase_expect_stream(&c);
	T_NO_WARN(&c.w, c.what);
	rcase_end(&c);
}

/*
 * Thousands of ids (one per CPU and thread of a big machine), so the id
 * table grows and collides; an id listed by two events is the first's.
 */
static void
test_idmap_many(bool be)
{
	enum { N0 = 5000, N1 = 3000 };
	uint64_t *ids0 = calloc(N0, 8), *ids1 = calloc(N1 + 1, 8);
	struct rcase c;
	size_t i;

	if (!ids0 || !ids1)
		abort();
	rcase_begin(&c, be, "file %s 8000 ids", order_name(be));
	for (i = 0; i < N0; i++)
		ids0[i] = 1000 + 7 * i;
	for (i = 0; i < N1; i++)
		ids1[i] = (uint64_t)1 << 40 | (i * 64);
	ids1[N1] = ids0[17];		/* also the first event's */
	for (i = 0; i < N0; i += 97)
		s_sample(&c.s, ids0[i], 0);
	for (i = 0; i < N1; i += 89)
		s_sample(&c.s, ids1[i], 1);
	s_sample(&c.s, ids1[N1], 0);
	s_sample(&c.s, ids0[5] + 1, -1);	/* between two known ids */
	rcase_attr(&c, 0, full_attr(ST_IDENT, 0), PD_ATTR_SIZE_VER7, ids0, N0);
	rcase_attr(&c, 1, full_attr(ST_IDENT, 0), PD_ATTR_SIZE_VER7, ids1, N1 + 1);
	rcase_run(&c, "many-ids");
	EQ(c.w.nr_warn, 1, "%s: warnings", c.what);
	if (!c.w.open_err) {
		struct pd_reader *r = c.w.r;
		const char *what = c.what;

		EQ(pd_reader_evsel(r, 0)->nr_ids, N0, "%s: evsel 0 nr_ids", what);
		EQ(pd_reader_evsel(r, 1)->nr_ids, N1 + 1, "%s: evsel 1 nr_ids", what);
		EQ(pd_reader_evsel(r, 1)->ids[N1], ids0[17], "%s: evsel 1 last id", what);
		for (i = 0; i < N0; i += 13)
			EQ(pd_reader_evsel_by_id(r, ids0[i]), 0, "%s: evsel_by_id(%" PRIu64 ")",
			   what, ids0[i]);
		for (i = 0; i < N1; i += 11)
			EQ(pd_reader_evsel_by_id(r, ids1[i]), 1, "%s: evsel_by_id(%" PRIu64 ")",
			   what, ids1[i]);
		EQ(pd_reader_evsel_by_id(r, ids1[N1]), 0, "%s: evsel_by_id(shared)", what);
		EQ(pd_reader_evsel_by_id(r, 999), -1, "%s: evsel_by_id(999)", what);
		EQ(pd_reader_evsel_by_id(r, 0), -1, "%s: evsel_by_id(0)", what);
		EQ(pd_reader_stats(r)->unknown_id, 1, "%s: unknown_id", what);
	}
	rcase_end(&c);
	free(ids0);
	free(ids1);
}

/* Events that disagree on sample_id_all: a warning; the first one's rule holds. */
static void
test_idmap_sample_id_all_mismatch(bool be)
{
	uint64_t tr[] = { 0x10, 5, 20 };
	struct pd_attr a1 = full_attr(ST_IDENT, 0);
	struct rcase c;

	rcase_begin(&c, be, "file %s sample_id_all mismatch", order_name(be));
	s_comm(&c.s, 1, "x", tr, ARRAY_SIZE(tr), 1);
	a1.flags &= ~(1ULL << PD_ATTR_SAMPLE_ID_ALL);
	rcase_two_events(&c, full_attr(ST_IDENT, 0), a1);
	rcase_run(&c, "sia-mismatch");
	EQ(c.w.nr_warn, 1, "%s: warnings", c.what);
	T_WARN(&c.w, "the events disagree on sample_id_all", UINT64_MAX, c.what);
	rcase_end(&c);
}

/*
 * A malformed feature is skipped with a warning in file mode; the
 * TRACING_DATA section is located, not parsed (§4.1, §5.1).
 */
static void
test_file_bad_feature(bool be)
{
	static const unsigned char tracing[40] = { 0x17, 0x08, 0x44, 't' };
	struct tbuf *host;
	struct rcase c;

	rcase_begin(&c, be, "file %s malformed NRCPUS", order_name(be));
	s_sample(&c.s, 61, 0);
	tb_bytes(rcase_feature(&c, PD_FEAT_TRACING_DATA), tracing, sizeof(tracing));
	host = rcase_feature(&c, PD_FEAT_HOSTNAME);
	tb_header_string(host, "h");
	tb_u32(rcase_feature(&c, PD_FEAT_NRCPUS), 2);
	rcase_run(&c, "bad-feature");
	EQ(c.w.nr_warn, 1, "%s: warnings", c.what);
	T_WARN(&c.w, "feature NRCPUS is malformed", c.l.feat_offset + 48 + sizeof(tracing) + host->len,
	       c.what);
	if (!c.w.open_err) {
		const struct pd_meta *m = pd_reader_meta(c.w.r);
		const char *what = c.what;

		EQ(pd_meta_has(m, PD_FEAT_TRACING_DATA), 1, "%s: TRACING_DATA", what);
		EQ(m->tracing_data_offset, c.l.feat_offset + 48, "%s: tracing_data_offset", what);
		EQ(m->tracing_data_size, sizeof(tracing), "%s: tracing_data_size", what);
		EQ((m->bad_features[0] >> PD_FEAT_NRCPUS) & 1, 1, "%s: NRCPUS is bad", what);
		EQ(m->nr_cpus_online, 0, "%s: nr_cpus_online", what);
		STR_EQ(m->hostname, "h", "%s: hostname", what);
	}
	rcase_end(&c);
}

/*
 * Pipe-mode records that describe the file: HEADER_BUILD_ID (§5.2),
 * EVENT_DESC sent as a HEADER_FEATURE (§9.3), and a HEADER_FEATURE too
 * short for its feature id, which stops the stream.
 */
static void
test_pipe_meta_records(bool be)
{
	static const uint64_t ids[] = { 41, 42 };
	struct pd_attr a = full_attr(ST_IDENT, 0);
	struct tbuf desc;
	struct rcase c;
	size_t at, i, kbad;

	rcase_begin(&c, be, "pipe %s build id and EVENT_DESC", order_name(be));
	s_header_attr(&c.s, &a, PD_ATTR_SIZE_VER7, ids, 2);
	tb_init(&desc, be);
	tb_u32(&desc, 1);
	tb_u32(&desc, PD_ATTR_SIZE_VER7);
	tb_event_desc(&desc, &a, "cycles:ppp", ids, 2);
	s_feature(&c.s, PD_FEAT_EVENT_DESC, &desc);
	tb_free(&desc);
	at = s_begin(&c.s, PD_RECORD_HEADER_BUILD_ID,
		     PD_MISC_USER | PD_MISC_BUILD_ID_SIZE);
	tb_u32(&c.s.b, (uint32_t)-1);
	for (i = 0; i < 20; i++)
		tb_u8(&c.s.b, (uint8_t)(0xa0 + i));
	tb_u8(&c.s.b, 20);
	tb_zeros(&c.s.b, 3);
	tb_str_padded(&c.s.b, "/usr/lib/libfoo.so", 64);
	s_end(&c.s, at, -1);
	s_sample(&c.s, 42, 0);
	rcase_run_pipe(&c, 0);
	T_NO_WARN(&c.w, c.what);
	if (!c.w.open_err) {
		const struct pd_meta *m = pd_reader_meta(c.w.r);
		const char *what = c.what;

		STR_EQ(pd_reader_evsel(c.w.r, 0)->name, "cycles:ppp", "%s: name", what);
		EQ(m->nr_build_ids, 1, "%s: nr_build_ids", what);
		if (m->nr_build_ids == 1) {
			STR_EQ(m->build_ids[0].filename, "/usr/lib/libfoo.so", "%s: filename", what);
			EQ(m->build_ids[0].pid, -1, "%s: pid", what);
			EQ(m->build_ids[0].size, 20, "%s: size", what);
			EQ(m->build_ids[0].id[19], 0xb3, "%s: id[19]", what);
		}
	}

	/* a HEADER_FEATURE of 12 bytes */
	rcase_rename(&c, "pipe %s HEADER_FEATURE of 12 bytes", order_name(be));
	kbad = s_begin(&c.s, PD_RECORD_HEADER_FEATURE, 0);
	tb_u32(&c.s.b, 3);
	s_end(&c.s, kbad, -1);
	rcase_build_pipe(&c);
	rcase_walk_pipe(&c, 0);
	EQ(c.w.nr, c.s.nx - 1, "%s: records", c.what);
	EQ(c.w.end, -PD_E_BAD_RECORD, "%s: error", c.what);
	expect_errmsg(&c.w, c.what,
		      "offset %#" PRIx64 ": the FEATURE record does not decode: the fixed fields: 8 bytes at byte 8 of the record, but 4 are left",
		      rcase_offset(&c, c.s.nx - 1));
	rcase_end(&c);
}

/*
 * In a pipe the events arrive as HEADER_ATTR records, after the open;
 * events that place the id differently must be reported as in a file
 * (test_idmap_layout_mismatch).
 */
static void
test_pipe_layout_mismatch(bool be)
{
	static const uint64_t ids0[] = { 10 }, ids1[] = { 20 };
	struct pd_attr a0 = full_attr(PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_ID |
				      PD_SAMPLE_PERIOD, 0);
	struct pd_attr a1 = full_attr(ST_IDENT, 0);
	uint64_t s0[] = { 0x400000, 0x10, 20, 1 };
	struct rcase c;

	rcase_begin(&c, be, "pipe %s layout mismatch", order_name(be));
	s_header_attr(&c.s, &a0, PD_ATTR_SIZE_VER7, ids0, 1);
	s_header_attr(&c.s, &a1, PD_ATTR_SIZE_VER7, ids1, 1);
	s_words(&c.s, PD_RECORD_SAMPLE, 0, s0, ARRAY_SIZE(s0), 1);
	rcase_run_pipe(&c, 0);
	T_WARN(&c.w, "place the event id differently", UINT64_MAX, c.what);
	rcase_end(&c);
}

/*
 * A data.N that is a FIFO is no data file; opening the directory must
 * say so, not wait for a writer that never comes.  The open runs in a
 * child, which is killed if it has not finished after 5 seconds.
 */
static void
test_dir_fifo(void)
{
	struct rcase c;
	char dir[512], fifo[600];
	int status = 0, i;
	pid_t pid;

	rcase_begin(&c, false, "dir with a FIFO data.1");
	s_sample(&c.s, 61, 0);
	tb_u64(rcase_feature(&c, PD_FEAT_DIR_FORMAT), 1);
	rcase_build(&c);
	if (!make_dir(dir, sizeof(dir), "dirfifo", &c.img))
		goto out;
	make_dir_file(dir, "data.0", &c.s.b);
	snprintf(fifo, sizeof(fifo), "%s/data.1", dir);
	if (mkfifo(fifo, 0600) < 0) {
		T(0, "mkfifo %s: %s", fifo, strerror(errno));
		goto out_dir;
	}
	pid = fork();
	if (pid == 0) {
		struct pd_reader *r;
		int err = pd_reader_open(&r, dir, NULL);

		pd_reader_close(r);
		_exit(err == -PD_E_BAD_DIR ? 0 : 3);
	}
	for (i = 0; i < 50 && waitpid(pid, &status, WNOHANG) == 0; i++)
		usleep(100000);
	if (i == 50) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		T(0, "%s: pd_reader_open() still waits after 5 s", c.what);
	} else {
		T(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "%s: open did not fail with PD_E_BAD_DIR (status %#x)", c.what,
		  (unsigned int)status);
	}
out_dir:
	remove_dir(dir);
out:
	rcase_end(&c);
}

/*
 * The empty file last: it is where UndefinedBehaviorSanitizer, made fatal
 * below, may stop the program.
 */
static void
test_empty_file(void)
{
	struct tbuf none;

	tb_init(&none, false);
	expect_open_error(&none, -PD_E_BAD_MAGIC, NULL, "empty file",
			  "offset 0: the input is 0 bytes, too short for a perf.data header");
	tb_free(&none);
}

/* pd_record_type_name() and pd_strerror() for what the reader reports. */
static void
test_names(void)
{
	STR_EQ(pd_record_type_name(PD_RECORD_SAMPLE), "SAMPLE", "%s", "type 9");
	STR_EQ(pd_record_type_name(PD_RECORD_HEADER_FEATURE), "FEATURE", "%s", "type 80");
	STR_EQ(pd_record_type_name(PD_RECORD_COMPRESSED2), "COMPRESSED2", "%s", "type 83");
	STR_EQ(pd_record_type_name(PD_RECORD_SP_CALLCHAIN), "SP_CALLCHAIN", "%s", "type 32775");
	T(pd_record_type_name(0) == NULL, "type 0 has a name");
	T(pd_record_type_name(50) == NULL, "type 50 has a name");
	T(pd_record_type_name(PD_RECORD_USER_MAX) == NULL, "type 87 has a name");
	T(pd_record_type_name(40000) == NULL, "type 40000 has a name");
	STR_EQ(pd_strerror(-PD_E_ZSTD), "zstd decompression failed", "%s", "PD_E_ZSTD");
	STR_EQ(pd_strerror(PD_ERR_ERRNO(ENOENT)), strerror(ENOENT), "%s", "ENOENT");
}

static void
make_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char unique[7];

	/* mkdtemp's template: six capital X that it replaces */
	memset(unique, 'X', 6);
	unique[6] = '\0';
	snprintf(tmpdir, sizeof(tmpdir), "%s/pdata-test-reader.%s",
		 base && *base ? base : "/tmp", unique);
	if (!mkdtemp(tmpdir)) {
		perror(tmpdir);
		exit(99);
	}
}

/*
 * CI may start us with standard input closed; then pipe() would hand out
 * fd 0 and the standard-input cases would close their own pipe.
 */
static void
open_std_fds(void)
{
	int fd;

	while ((fd = open("/dev/null", O_RDWR)) >= 0 && fd <= 2)
		;
	if (fd > 2)
		close(fd);
}

int
main(void)
{
	static const struct {
		size_t nrec, extra;
	} large[] = { { 17, 0 }, { 16, 523 }, { 20, 0 }, { 33, 7 }, { 47, 1 } };
	size_t i;
	int be;

	open_std_fds();
	make_tmpdir();
	test_names();
	test_file_attr_sizes();
	test_file_perffile_unknown_order();
	test_pipe_fifo_and_stdin();
	test_pipe_fd_offset();
	test_dir_errors();
	test_errors_misc();
	for (be = 0; be <= 1; be++) {
		test_file_attr_larger_than_stride(be);
		test_file_old_header(be);
		test_file_perffile(be, PD_ATTR_SIZE_VER0);
		test_file_perffile(be, PD_ATTR_SIZE_VER3);
		test_file_names(be);
		test_file_no_features(be);
		test_idmap_identifier(be);
		test_idmap_plain_id(be);
		test_idmap_single(be);
		test_idmap_layout_mismatch(be);
		test_file_payloads(be);
		test_pipe(be);
		test_pipe_variants(be);
		test_pipe_cut(be);
		test_compressed(be, PD_RECORD_COMPRESSED);
		test_compressed(be, PD_RECORD_COMPRESSED2);
		for (i = 0; i < ARRAY_SIZE(large); i++)
			test_compressed_large(be, large[i].nrec, large[i].extra);
		test_compressed_leftover(be);
		test_not_finalised(be);
		test_cut_short(be);
		test_dir(be, true);
		test_dir(be, false);
		test_errors_open(be);
		test_errors_walk(be);
		test_file_features(be);
		test_file_attrs_ragged(be);
		test_not_finalised_zeros(be);
		test_dir_partial(be);
		test_pipe_bad_features(be);
		test_pipe_layout_mismatch(be);
		test_idmap_many(be);
		test_idmap_sample_id_all_mismatch(be);
		test_file_bad_feature(be);
		test_pipe_meta_records(be);
		test_stream_stress(be, 0x9e3779b97f4a7c15ULL + (uint64_t)be, 3000);
	}
	test_find_evsel_short();
	test_dir_fifo();
	test_empty_file();
	rmdir(tmpdir);
	return t_done("reader");
}
