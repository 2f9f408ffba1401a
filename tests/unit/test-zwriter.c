/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-zwriter.c - pd_writer_write_compressed(): records
 * packed into PERF_RECORD_COMPRESSED as perf 6.1 packs them
 * (doc/perf-data-format.md §10.5), the marks that let a killed file
 * decompress (§2.8), and pd_writer_salvage() with them, read back with
 * pd_reader.
 */
#include "config.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pdata/reader.h"
#include "pdata/writer.h"
#include "t.h"
#include "tests/unit/buf.h"

#define LEVEL		3
#define MMAP_LEN	528384		/* perf's default ring mmap */
#define NR_CHUNKS	4
#define CHUNK_SAMPLES	6000		/* 240,000 bytes, as a ring's pass */
#define SAMPLE_TYPE	(PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | \
			 PD_SAMPLE_PERIOD)
#define RECORD_MAX	65535u

static char tmpdir[256];

/* Samples whose addresses vary enough that zstd needs several records. */
static void
build_chunk(struct tbuf *b, unsigned int k)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL * (k + 1);

	tb_init(b, HOST_BE);
	for (unsigned int i = 0; i < CHUNK_SAMPLES; i++) {
		size_t at = tb_begin_record(b, PD_RECORD_SAMPLE, PD_MISC_USER);

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		tb_u64(b, x);
		tb_u32(b, 42);
		tb_u32(b, 42 + (uint32_t)(x >> 60));
		tb_u64(b, 1000000ULL * k + i);
		tb_u64(b, x >> 17);
		tb_end_record(b, at);
	}
}

static void
compressed_meta(struct pd_meta *m, uint32_t ratio)
{
	pd_meta_init(m);
	m->comp_type = PD_COMP_ZSTD;
	m->comp_level = LEVEL;
	m->comp_ratio = ratio;
	m->comp_mmap_len = MMAP_LEN;
	m->features[PD_FEAT_COMPRESSED / 64] |= 1ULL << (PD_FEAT_COMPRESSED % 64);
}

static int
create(const char *name, char *path, size_t len)
{
	int fd;

	snprintf(path, len, "%s/%s", tmpdir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		abort();
	return fd;
}

static struct pd_writer *
begin_on(int fd, const struct pd_meta *m)
{
	struct pd_writer_opts opts = {
		.zstd_level = LEVEL,
		.zstd_mmap_len = MMAP_LEN,
	};
	struct pd_writer *w = NULL;
	struct pd_attr a = {
		.type = PD_TYPE_SOFTWARE,
		.sample_period = 4000,
		.sample_type = SAMPLE_TYPE,
		.flags = 1ULL << PD_ATTR_FREQ | 1ULL << PD_ATTR_SAMPLE_ID_ALL,
	};
	uint64_t id = 7;

	T(pd_writer_open(&w, fd, &opts) == 0, "open the writer");
	T(w && pd_writer_add_evsel(w, &a, &id, 1) == 0, "add the evsel");
	T(w && pd_writer_begin_data(w, m) == 0, "begin the data");
	return w;
}

struct readback {
	struct tbuf records;	/* every record but COMPRESSED and rounds */
	unsigned int nr_compressed;
	bool sizes_ok;		/* each COMPRESSED within perf's limit */
	uint64_t compressed_bytes;
};

static void
read_back(const char *path, struct readback *rb, const char *what)
{
	struct pd_reader *r = NULL;
	struct pd_record rec;
	const struct pd_meta *m;
	int got;

	tb_init(&rb->records, HOST_BE);
	rb->nr_compressed = 0;
	rb->sizes_ok = true;
	rb->compressed_bytes = 0;
	T(pd_reader_open(&r, path, NULL) == 0, "%s: open: %s", what,
	  r ? pd_reader_errmsg(r) : "");
	if (!r)
		return;
	m = pd_reader_meta(r);
	T(pd_meta_has(m, PD_FEAT_COMPRESSED), "%s: HEADER_COMPRESSED", what);
	T_EQ_U64(m->comp_type, PD_COMP_ZSTD, "comp_type");
	T_EQ_U64(m->comp_level, LEVEL, "comp_level");
	T_EQ_U64(m->comp_mmap_len, MMAP_LEN, "comp_mmap_len");
	while ((got = pd_reader_next(r, &rec)) > 0) {
		if (rec.header.type == PD_RECORD_COMPRESSED) {
			rb->nr_compressed++;
			rb->compressed_bytes += rec.size;
			if (rec.size > RECORD_MAX || rec.size <= 8)
				rb->sizes_ok = false;
			continue;
		}
		if (rec.header.type == PD_RECORD_FINISHED_ROUND)
			continue;
		tb_bytes(&rb->records, rec.data, rec.size);
	}
	T(got == 0, "%s: reading: %s", what, pd_reader_errmsg(r));
	pd_reader_close(r);
}

static void
expect_records(const struct readback *rb, const struct tbuf *want,
	       const char *what)
{
	T_EQ_U64(rb->records.len, want->len, what);
	T(rb->records.len == want->len &&
	  memcmp(rb->records.p, want->p, want->len) == 0,
	  "%s: the records differ", what);
}

static void
read_expect(const char *path, const struct tbuf *want, const char *what)
{
	struct readback rb;

	read_back(path, &rb, what);
	expect_records(&rb, want, what);
	tb_free(&rb.records);
}

/* A finished file: the chunks come back, in records under 64 KiB. */
static void
test_finished(const struct tbuf *chunks)
{
	struct tbuf want;
	struct readback rb;
	struct pd_meta m;
	struct pd_writer *w;
	uint64_t in = 0, out = 0;
	char path[320];
	int fd;

	compressed_meta(&m, 0);
	tb_init(&want, HOST_BE);
	fd = create("finished.data", path, sizeof(path));
	w = begin_on(fd, &m);
	/* an uncompressed record first, as precord's synthesised ones */
	T(w && pd_writer_write(w, chunks[0].p, 40) == 0, "plain record");
	tb_bytes(&want, chunks[0].p, 40);
	for (unsigned int k = 0; w && k < NR_CHUNKS; k++) {
		T(pd_writer_write_compressed(w, chunks[k].p, chunks[k].len) == 0,
		  "compress chunk %u: %s", k, pd_writer_errmsg(w));
		T(pd_writer_sync(w) == 0, "sync %u", k);
		tb_bytes(&want, chunks[k].p, chunks[k].len);
	}
	if (w)
		pd_writer_compressed_totals(w, &in, &out);
	T_EQ_U64(in, want.len - 40, "bytes given to zstd");
	m.comp_ratio = out ? (uint32_t)(in / out) : 0;
	T(w && pd_writer_finish(w, &m) == 0, "finish");
	pd_writer_close(w);
	close(fd);
	read_back(path, &rb, "finished");
	expect_records(&rb, &want, "finished");
	T(rb.nr_compressed > NR_CHUNKS, "%u COMPRESSED records: one per chunk "
	  "at least, and more for chunks over 64 KiB", rb.nr_compressed);
	T(rb.sizes_ok, "a COMPRESSED record is over %u bytes", RECORD_MAX);
	T_EQ_U64(rb.compressed_bytes, out, "COMPRESSED bytes counted");
	tb_free(&rb.records);
	tb_free(&want);
	pd_meta_free(&m);
}

/* Killed after two syncs: the file decompresses up to the second. */
static void
test_killed(const struct tbuf *chunks)
{
	struct tbuf want;
	struct pd_meta m;
	struct pd_writer *w;
	char path[320];
	int fd;

	compressed_meta(&m, 0);
	tb_init(&want, HOST_BE);
	fd = create("killed.data", path, sizeof(path));
	w = begin_on(fd, &m);
	for (unsigned int k = 0; w && k < 3; k++) {
		T(pd_writer_write_compressed(w, chunks[k].p, chunks[k].len) == 0,
		  "killed: chunk %u", k);
		if (k < 2) {
			T(pd_writer_sync(w) == 0, "killed: sync %u", k);
			tb_bytes(&want, chunks[k].p, chunks[k].len);
		}
	}
	if (w)
		T(pd_writer_flush(w) == 0, "killed: flush");
	pd_writer_close(w);
	close(fd);
	read_expect(path, &want, "killed");
	tb_free(&want);
	pd_meta_free(&m);
}

/*
 * A failed write after a sync: the file is cut after the last mark, the
 * zstd stream refuses to go on, and the file finishes and reads.
 */
static void
test_salvage(const struct tbuf *chunks)
{
	struct pd_meta m;
	struct pd_writer *w;
	uint64_t kept = 0, synced = 0;
	char path[320];
	int fd;

	compressed_meta(&m, 0);
	fd = create("cut.data", path, sizeof(path));
	w = begin_on(fd, &m);
	T(w && pd_writer_write_compressed(w, chunks[0].p, chunks[0].len) == 0 &&
	  pd_writer_sync(w) == 0, "cut: first chunk");
	if (w)
		synced = pd_writer_data_size(w);
	T(w && pd_writer_write_compressed(w, chunks[1].p, chunks[1].len) == 0 &&
	  pd_writer_flush(w) == 0, "cut: second chunk");
	T(ftruncate(fd, lseek(fd, 0, SEEK_END) - 4) == 0, "cut: truncate");
	T(w && pd_writer_salvage(w, &kept) == 0, "cut: salvage: %s",
	  w ? pd_writer_errmsg(w) : "");
	T_EQ_U64(kept, synced, "cut: kept up to the mark");
	T(w && pd_writer_write_compressed(w, chunks[2].p, 40) == -PD_E_INVAL,
	  "cut: the zstd stream goes on after a cut");
	T(w && pd_writer_finish(w, &m) == 0, "cut: finish");
	pd_writer_close(w);
	close(fd);
	read_expect(path, &chunks[0], "cut");
	pd_meta_free(&m);
}

static void
test_errors(void)
{
	struct pd_writer_opts opts = { .zstd_level = PD_ZSTD_LEVEL_MAX + 1 };
	struct pd_writer *w = NULL;
	char path[320];
	int fd;

	fd = create("errors.data", path, sizeof(path));
	T(pd_writer_open(&w, fd, &opts) == -PD_E_INVAL && !w,
	  "level %u taken", opts.zstd_level);
	opts.zstd_level = 0;
	T(pd_writer_open(&w, fd, &opts) == 0, "open without zstd");
	T(w && pd_writer_write_compressed(w, "x", 1) == -PD_E_INVAL,
	  "compressed write without a level");
	pd_writer_close(w);
	close(fd);
}

int
main(void)
{
	struct tbuf chunks[NR_CHUNKS];
	const char *base = getenv("TMPDIR");
	char unique[7], cmd[300];

	/* mkdtemp's template: six capital X that it replaces */
	memset(unique, 'X', 6);
	unique[6] = '\0';
	snprintf(tmpdir, sizeof(tmpdir), "%s/pdata-test-zwriter.%s",
		 base && *base ? base : "/tmp", unique);
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 99;
	}
	for (unsigned int k = 0; k < NR_CHUNKS; k++)
		build_chunk(&chunks[k], k);
	test_finished(chunks);
	test_killed(chunks);
	test_salvage(chunks);
	test_errors();
	for (unsigned int k = 0; k < NR_CHUNKS; k++)
		tb_free(&chunks[k]);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		perror("rm");
	return t_done("test-zwriter");
}
