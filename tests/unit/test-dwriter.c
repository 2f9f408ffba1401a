/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-dwriter.c - the writer's directory modes
 * (pdata/writer.h: opts.dir for the data file, opts.bare for data.N;
 * doc/perf-data-format.md §2.10, §12.1): a bare file holds the records and
 * nothing else, plain or as a zstd stream of its own; a directory reads
 * back through pd_reader finished, and killed after its syncs (the data
 * file's marks carry DIR_FORMAT); pd_writer_salvage() of a bare file
 * keeps whole records.
 */
#include "config.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pdata/reader.h"
#include "pdata/writer.h"
#include "t.h"
#include "tests/unit/buf.h"

#define LEVEL		1
#define MMAP_LEN	528384
#define SAMPLE_TYPE	(PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME | \
			 PD_SAMPLE_PERIOD | PD_SAMPLE_ID)
#define ID		7

static char tmpdir[256];

/* n samples of 48 bytes, their times from t0 */
static void
build_samples(struct tbuf *b, unsigned int n, uint64_t t0)
{
	tb_init(b, HOST_BE);
	for (unsigned int i = 0; i < n; i++) {
		size_t at = tb_begin_record(b, PD_RECORD_SAMPLE, PD_MISC_USER);

		tb_u64(b, 0x400000 + 16 * i);
		tb_u32(b, 42);
		tb_u32(b, 42);
		tb_u64(b, t0 + i);
		tb_u64(b, ID);
		tb_u64(b, 1000);
		tb_end_record(b, at);
	}
}

static int
create(const char *name)
{
	char path[320];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		abort();
	return fd;
}

static struct pd_writer *
bare_open(int fd, bool zstd)
{
	struct pd_writer_opts opts = {
		.bare = true,
		.zstd_level = zstd ? LEVEL : 0,
		.zstd_mmap_len = MMAP_LEN,
	};
	struct pd_writer *w = NULL;
	struct pd_attr a = { .type = PD_TYPE_SOFTWARE };
	uint64_t id = ID;

	T(pd_writer_open(&w, fd, &opts) == 0, "open a bare writer");
	T(w && pd_writer_add_evsel(w, &a, &id, 1) == -PD_E_INVAL,
	  "a bare writer took an event");
	T(w && pd_writer_begin_data(w, NULL) == 0, "begin a bare file");
	return w;
}

static void
dir_meta(struct pd_meta *m, bool zstd)
{
	pd_meta_init(m);
	m->dir_format_version = 1;
	m->features[PD_FEAT_DIR_FORMAT / 64] |= 1ULL << (PD_FEAT_DIR_FORMAT % 64);
	if (!zstd)
		return;
	m->comp_type = PD_COMP_ZSTD;
	m->comp_level = LEVEL;
	m->comp_mmap_len = MMAP_LEN;
	m->features[PD_FEAT_COMPRESSED / 64] |= 1ULL << (PD_FEAT_COMPRESSED % 64);
}

/* The data file: one event, a plain record (the synthesised ones), synced. */
static struct pd_writer *
data_open(int fd, bool zstd, const struct tbuf *plain)
{
	struct pd_writer_opts opts = {
		.dir = true,
		.zstd_level = zstd ? LEVEL : 0,
		.zstd_mmap_len = MMAP_LEN,
	};
	struct pd_writer *w = NULL;
	struct pd_attr a = {
		.type = PD_TYPE_SOFTWARE,
		.sample_period = 1000,
		.sample_type = SAMPLE_TYPE,
		.flags = 1ULL << PD_ATTR_SAMPLE_ID_ALL,
	};
	uint64_t id = ID;

	T(pd_writer_open(&w, fd, &opts) == 0, "open the data writer");
	T(w && pd_writer_add_evsel(w, &a, &id, 1) == 0, "add the event");
	T(w && pd_writer_begin_data(w, NULL) == 0, "begin the data");
	T(w && pd_writer_write(w, plain->p, plain->len) == 0, "plain records");
	T(w && pd_writer_sync(w) == 0, "sync the data file");
	return w;
}

/* A bare file without zstd is the records given, byte for byte. */
static void
test_bare_bytes(const struct tbuf *a, const struct tbuf *b)
{
	int fd = create("bytes");
	struct pd_writer *w = bare_open(fd, false);
	unsigned char *got = malloc(a->len + b->len);
	struct stat st;

	T(w && pd_writer_write(w, a->p, a->len) == 0 && pd_writer_sync(w) == 0,
	  "bytes: first pass");
	T(fstat(fd, &st) == 0 && (uint64_t)st.st_size == a->len,
	  "bytes: a sync leaves the pass in the file");
	T(w && pd_writer_write(w, b->p, b->len) == 0 &&
	  pd_writer_finish(w, NULL) == 0, "bytes: second pass, finish");
	T(fstat(fd, &st) == 0 && (uint64_t)st.st_size == a->len + b->len,
	  "bytes: the file holds only the records");
	T(pread(fd, got, a->len + b->len, 0) == (ssize_t)(a->len + b->len) &&
	  !memcmp(got, a->p, a->len) && !memcmp(got + a->len, b->p, b->len),
	  "bytes: the records differ");
	pd_writer_close(w);
	free(got);
	close(fd);
}

/*
 * A directory: data (plain records, then marks), data.0 and data.1 (each
 * its own stream with zstd); finished or not, its records read back.
 */
static void
test_dir(bool zstd, bool finish, const struct tbuf *plain,
	 const struct tbuf *s0, const struct tbuf *s1)
{
	struct pd_writer *w, *b0, *b1;
	struct pd_reader *r = NULL;
	struct pd_record rec;
	struct pd_meta m;
	char dir[320];
	int fd, f0, f1, got;
	unsigned int samples = 0;
	const char *what = finish ? "finished" : "killed";

	snprintf(dir, sizeof(dir), "%s/%s%s.data", tmpdir, what,
		 zstd ? "-z" : "");
	T(mkdir(dir, 0700) == 0, "mkdir %s", dir);
	{
		char path[400];

		snprintf(path, sizeof(path), "%s/data", dir);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		snprintf(path, sizeof(path), "%s/data.0", dir);
		f0 = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		snprintf(path, sizeof(path), "%s/data.1", dir);
		f1 = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	}
	dir_meta(&m, zstd);
	w = data_open(fd, zstd, plain);
	b0 = bare_open(f0, zstd);
	b1 = bare_open(f1, zstd);
	T(b0 && b1 && (zstd ?
		 pd_writer_write_compressed(b0, s0->p, s0->len) == 0 &&
		 pd_writer_write_compressed(b1, s1->p, s1->len) == 0 :
		 pd_writer_write(b0, s0->p, s0->len) == 0 &&
		 pd_writer_write(b1, s1->p, s1->len) == 0) &&
	  pd_writer_sync(b0) == 0 && pd_writer_sync(b1) == 0,
	  "%s: the rings' passes", what);
	if (finish)
		T(w && pd_writer_finish(w, &m) == 0 &&
		  pd_writer_finish(b0, NULL) == 0 &&
		  pd_writer_finish(b1, NULL) == 0, "%s: finish", what);
	pd_writer_close(w);
	pd_writer_close(b0);
	pd_writer_close(b1);
	close(fd);
	close(f0);
	close(f1);
	T(pd_reader_open(&r, dir, NULL) == 0, "%s: open the directory: %s",
	  what, r ? pd_reader_errmsg(r) : "");
	if (r) {
		const struct pd_meta *rm = pd_reader_meta(r);

		T(pd_meta_has(rm, PD_FEAT_DIR_FORMAT) &&
		  rm->dir_format_version == 1, "%s: DIR_FORMAT 1", what);
		T(!zstd || pd_meta_has(rm, PD_FEAT_COMPRESSED),
		  "%s: HEADER_COMPRESSED", what);
		while ((got = pd_reader_next(r, &rec)) > 0)
			samples += rec.header.type == PD_RECORD_SAMPLE;
		T(got == 0, "%s: reading: %s", what, pd_reader_errmsg(r));
	}
	T_EQ_U64(samples, (s0->len + s1->len + plain->len) / 48, what);
	pd_reader_close(r);
	pd_meta_free(&m);
}

/*
 * A write that fails past a file size limit: a bare file keeps its whole
 * records (with zstd, those of its last sync) and is cut after them.
 */
static void
test_salvage(bool zstd, const struct tbuf *a, const struct tbuf *b)
{
	int fd = create(zstd ? "cut-z" : "cut");
	struct pd_writer *w = bare_open(fd, zstd);
	uint64_t kept = 0, synced = 0;
	struct rlimit old, lim;
	struct stat st;

	T(w && (zstd ? pd_writer_write_compressed(w, a->p, a->len) :
		       pd_writer_write(w, a->p, a->len)) == 0 &&
	  pd_writer_sync(w) == 0, "cut: first pass");
	if (w)
		synced = pd_writer_data_size(w);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = synced + 100;
	T(setrlimit(RLIMIT_FSIZE, &lim) == 0, "cut: set a file size limit");
	T(w && ((zstd ? pd_writer_write_compressed(w, b->p, b->len) :
			pd_writer_write(w, b->p, b->len)) ||
		pd_writer_flush(w)), "cut: the second pass fits");
	T(w && pd_writer_salvage(w, &kept) == 0, "cut: salvage: %s",
	  w ? pd_writer_errmsg(w) : "");
	setrlimit(RLIMIT_FSIZE, &old);
	T_EQ_U64(kept, zstd ? synced : synced + 96,
		 zstd ? "cut -z: kept up to the sync" :
			"cut: kept the whole records");
	T(fstat(fd, &st) == 0 && (uint64_t)st.st_size == kept,
	  "cut: the file is cut after them");
	pd_writer_close(w);
	close(fd);
}

static void
test_refused(void)
{
	struct pd_writer_opts opts = { .bare = true, .dir = true };
	struct pd_writer *w = NULL;
	int fd = create("refused");

	T(pd_writer_open(&w, fd, &opts) == -PD_E_INVAL && !w, "bare and dir");
	opts.dir = false;
	opts.pipe = true;
	T(pd_writer_open(&w, fd, &opts) == -PD_E_INVAL && !w, "bare and pipe");
	close(fd);
}

int
main(void)
{
	struct tbuf plain, s0, s1;

	if (!t_tmpdir("test-dwriter", tmpdir, sizeof(tmpdir)))
		return 99;
	/* past a file size limit a write fails (EFBIG) */
	signal(SIGXFSZ, SIG_IGN);
	build_samples(&plain, 2, 1);
	build_samples(&s0, 3000, 100);
	build_samples(&s1, 2000, 50);
	test_bare_bytes(&s0, &s1);
	for (int z = 0; z < 2; z++) {
		test_dir(z, true, &plain, &s0, &s1);
		test_dir(z, false, &plain, &s0, &s1);
		test_salvage(z, &s0, &s1);
	}
	test_refused();
	tb_free(&plain);
	tb_free(&s0);
	tb_free(&s1);
	t_tmpdir_remove(tmpdir);
	return t_done("test-dwriter");
}
