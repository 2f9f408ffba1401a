/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/fuzz/fuzz-writer.c - libFuzzer target for the writer's round trip:
 * read -> write -> read gives the same records.
 *
 * An input is read from an in-memory file (memfd_create()); when the
 * reader takes it (host byte order, file or pipe mode), its events, its
 * records as the file holds them (COMPRESSED ones included, with their
 * AUXTRACE payloads) and its metadata are written by pd_writer into a
 * second in-memory file, in file mode or in pipe mode (the low bit of the
 * input's length chooses; file mode when the data holds records that a
 * pipe-mode reader takes for its own), in file mode compressed with zstd
 * when the next bit is set and no record forbids it, and
 * that copy is read again (the records of a compressed copy as they come
 * out of its COMPRESSED records).  The
 * copy must open, hold the same events (attr fields and ids) and the same
 * records byte for byte, in the same order, and every feature the input
 * had (parsed, not dropped by the writer) must be in it: anything else
 * aborts, so libFuzzer saves the input.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pdata/meta.h"
#include "pdata/reader.h"
#include "pdata/writer.h"
#include "tests/fuzz/fuzz.h"

enum { COPY_FILE, COPY_PIPE, COPY_ZSTD };

/* The records of one read: their bytes, one after the other. */
struct recs {
	unsigned char *p;
	size_t len, cap;
	size_t nr;
	bool pipe_types;	/* types a pipe-mode reader takes for its own */
	/* records a compressed stream cannot hold (or hold already) */
	bool no_zstd;
};

static void
recs_add(struct recs *d, const void *p, size_t n)
{
	if (d->len + n > d->cap) {
		d->cap = d->cap ? d->cap * 2 : 4096;
		while (d->cap < d->len + n)
			d->cap *= 2;
		d->p = realloc(d->p, d->cap);
		if (!d->p)
			abort();
	}
	memcpy(d->p + d->len, p, n);
	d->len += n;
}

static void
ignore_warning(void *ctx, uint64_t offset, const char *msg)
{
	(void)ctx;
	sink += offset + strlen(msg);
}

static const struct pd_reader_opts quiet = { .warn = ignore_warning };

static void __attribute__((noreturn))
mismatch(const char *what)
{
	fprintf(stderr, "fuzz-writer: the copy differs: %s\n", what);
	abort();
}

/*
 * The records of r as written to its file, less those the writer makes
 * itself (pipe mode's HEADER_ATTR and HEADER_FEATURE); with unwrap, the
 * records that come out of COMPRESSED ones instead of those.  0, or -1
 * when the reader stops on an error or a record the writer cannot copy.
 */
static int
collect(struct pd_reader *r, struct recs *d, bool unwrap)
{
	bool pipe = pd_reader_info(r)->mode == PD_MODE_PIPE;
	struct pd_record rec;
	int got;

	while ((got = pd_reader_next(r, &rec)) > 0) {
		bool wrapper = rec.header.type == PD_RECORD_COMPRESSED ||
			       rec.header.type == PD_RECORD_COMPRESSED2;

		if (wrapper || rec.payload_size ||
		    rec.size != rec.header.size ||
		    rec.header.type == PD_RECORD_AUXTRACE)
			d->no_zstd = true;
		if (unwrap ? wrapper : rec.origin != PD_ORIGIN_FILE)
			continue;
		if (pipe && (rec.header.type == PD_RECORD_HEADER_ATTR ||
			     rec.header.type == PD_RECORD_HEADER_FEATURE))
			continue;
		/* pipe mode's tracing blob goes with the feature, not here */
		if (pipe && rec.header.type == PD_RECORD_HEADER_TRACING_DATA)
			return -1;
		if (rec.payload_size && !rec.payload)
			return -1;
		if (rec.header.type == PD_RECORD_HEADER_ATTR ||
		    rec.header.type == PD_RECORD_HEADER_FEATURE ||
		    rec.header.type == PD_RECORD_HEADER_TRACING_DATA)
			d->pipe_types = true;
		recs_add(d, rec.data, rec.size);
		if (rec.payload_size)
			recs_add(d, rec.payload, (size_t)rec.payload_size);
		d->nr++;
	}
	return got;
}

static bool
usable(struct pd_reader *r)
{
	const struct pd_file_info *fi = pd_reader_info(r);
	const struct pd_meta *m = pd_reader_meta(r);

	/* the writer writes host order; directories have writers of theirs */
	return !fi->swap && fi->mode != PD_MODE_DIR &&
	       !pd_meta_has(m, PD_FEAT_TRACING_DATA);
}

/* What perf writes with -z: the COMPRESSED feature. */
static void
set_zstd(struct pd_meta *m, struct pd_writer_opts *opts, size_t len)
{
	opts->zstd_level = 1;
	opts->zstd_mmap_len = len ? (uint32_t)len : 1;
	m->comp_version = 1;
	m->comp_type = PD_COMP_ZSTD;
	m->comp_level = 1;
	m->comp_ratio = 1;
	m->comp_mmap_len = opts->zstd_mmap_len;
	m->features[PD_FEAT_COMPRESSED / 64] |=
		1ULL << (PD_FEAT_COMPRESSED % 64);
}

/*
 * nr_attrs: the events of the input's attr section (file mode): those of
 * HEADER_ATTR records in its data come back from the same records in the
 * copy.  A pipe-mode input's events all come from records, which the copy
 * does not hold: all of them are written.
 */
static int
write_copy(struct pd_reader *r, size_t nr_attrs, const struct recs *d,
	   unsigned int how, int fd, struct pd_writer **wp)
{
	struct pd_writer_opts opts = { .pipe = how == COPY_PIPE };
	struct pd_meta m = *pd_reader_meta(r);	/* shallow: read only */
	struct pd_writer *w;
	size_t i;

	if (how == COPY_ZSTD)
		set_zstd(&m, &opts, d->len);
	if (pd_writer_open(&w, fd, &opts))
		return -1;
	*wp = w;
	for (i = 0; i < nr_attrs; i++) {
		const struct pd_evsel *ev = pd_reader_evsel(r, i);

		if (pd_writer_add_evsel(w, &ev->attr, ev->ids, ev->nr_ids))
			return -1;
	}
	if (pd_writer_begin_data(w, &m))
		return -1;
	if (how == COPY_ZSTD) {
		if (d->len && pd_writer_write_compressed(w, d->p, d->len))
			return -1;
		return pd_writer_finish(w, &m) ? -1 : 0;
	}
	if (pd_writer_write(w, d->p, d->len))
		return -1;
	if (pd_writer_data_size(w) != d->len)
		mismatch("data size");
	return pd_writer_finish(w, &m) ? -1 : 0;
}

static void
same_evsels(struct pd_reader *a, struct pd_reader *b)
{
	size_t i;

	if (pd_reader_nr_evsels(a) != pd_reader_nr_evsels(b))
		mismatch("number of events");
	for (i = 0; i < pd_reader_nr_evsels(a); i++) {
		const struct pd_evsel *x = pd_reader_evsel(a, i);
		const struct pd_evsel *y = pd_reader_evsel(b, i);

		if (x->attr.type != y->attr.type ||
		    x->attr.config != y->attr.config ||
		    x->attr.sample_type != y->attr.sample_type ||
		    x->attr.read_format != y->attr.read_format ||
		    x->attr.flags != y->attr.flags ||
		    x->attr.branch_sample_type != y->attr.branch_sample_type)
			mismatch("an attr");
		if (x->nr_ids != y->nr_ids ||
		    (x->nr_ids && memcmp(x->ids, y->ids,
					 x->nr_ids * sizeof(*x->ids))))
			mismatch("an event's ids");
	}
}

static void
same_features(struct pd_reader *a, struct pd_reader *b,
	      const struct pd_writer *w)
{
	const struct pd_meta *x = pd_reader_meta(a), *y = pd_reader_meta(b);
	unsigned int feat;

	for (feat = 1; feat < PD_FEAT_KNOWN; feat++) {
		bool bad = (x->bad_features[feat / 64] >> (feat % 64)) & 1;

		if (!pd_meta_has(x, feat) || bad ||
		    pd_writer_feature_dropped(w, feat))
			continue;
		if (!pd_meta_has(y, feat)) {
			fprintf(stderr, "fuzz-writer: feature %u (%s)\n", feat,
				pd_feature_name(feat));
			mismatch("a feature is missing");
		}
	}
}

static void
round_trip(struct pd_reader *r, size_t nr_attrs, const struct recs *d,
	   unsigned int how)
{
	struct pd_writer *w = NULL;
	struct pd_reader *r2 = NULL;
	struct recs d2 = { 0 };
	int fd = fuzz_memfd("fuzz-writer-copy", NULL, 0);
	int got;

	if (write_copy(r, nr_attrs, d, how, fd, &w) == 0) {
		if (lseek(fd, 0, SEEK_SET) != 0)
			abort();
		if (pd_reader_open_fd(&r2, fd, "copy", &quiet)) {
			fprintf(stderr, "fuzz-writer: %s\n",
				pd_reader_errmsg(r2));
			mismatch("it does not open");
		}
		got = collect(r2, &d2, how == COPY_ZSTD);
		if (got < 0) {
			fprintf(stderr, "fuzz-writer: %d: %s\n", got,
				pd_reader_errmsg(r2));
			mismatch("its records do not read");
		}
		if (d2.nr != d->nr || d2.len != d->len ||
		    (d->len && memcmp(d2.p, d->p, d->len)))
			mismatch("records");
		same_evsels(r, r2);
		/*
		 * An empty data section reads as a recording that was not
		 * finalised (data size 0), whose features are not looked at.
		 */
		if (how != COPY_PIPE && d->len)
			same_features(r, r2, w);
		pd_reader_close(r2);
	}
	pd_writer_close(w);
	free(d2.p);
	close(fd);
}

/* How the input of this length is copied. */
static unsigned int
copy_how(const struct recs *d, size_t size)
{
	if ((size & 1) && !d->pipe_types)
		return COPY_PIPE;
	if ((size & 2) && !d->no_zstd && !d->pipe_types)
		return COPY_ZSTD;
	return COPY_FILE;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pd_reader *r = NULL;
	struct recs d = { 0 };
	int fd = fuzz_memfd("fuzz-writer", data, size);

	if (pd_reader_open_fd(&r, fd, "fuzz", &quiet) == 0 && usable(r)) {
		size_t nr_attrs = pd_reader_nr_evsels(r);

		if (collect(r, &d, false) == 0) {
			if (pd_reader_info(r)->mode == PD_MODE_PIPE)
				nr_attrs = pd_reader_nr_evsels(r);
			round_trip(r, nr_attrs, &d, copy_how(&d, size));
		}
	}
	pd_reader_close(r);
	free(d.p);
	close(fd);
	return 0;
}
