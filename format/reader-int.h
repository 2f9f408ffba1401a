/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/reader-int.h - the reader's internal state, shared by the files
 * that implement pdata/reader.h.
 */
#ifndef PD_FORMAT_READER_INT_H
#define PD_FORMAT_READER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/compiler.h"
#include "pdata/reader.h"

/* Largest record a stream source buffers whole (simpleperf sizes are 32-bit). */
#define PD_STREAM_RECORD_MAX	(16u << 20)
/* Bounds on what a file may make us allocate. */
#define PD_MAX_EVSELS		65536
#define PD_MAX_DIR_FILES	4096

struct pd_zstd;

/*
 * One byte source: the main file, or one data.N file of a directory.  A
 * regular file is mapped; anything else is read as a stream.
 */
struct pd_source {
	char *name;		/* for messages: the path, or "data.3" */
	int fd;
	bool own_fd;
	/* mapped */
	const unsigned char *map;
	size_t map_len;
	size_t dropped;		/* pages below map + dropped were let go */
	/* stream */
	unsigned char *buf;
	size_t buf_cap;
	size_t buf_start, buf_end;	/* unread bytes: buf[buf_start, buf_end) */
	bool eof;
	/* next record's offset in the source, and where its records stop */
	uint64_t pos;
	uint64_t end;		/* mapped: end of the data; stream: UINT64_MAX */
	bool strict;		/* a record past end is corruption, not a cut-short file */
	/* the record last handed out, consumed at the next read */
	uint64_t pending_size;
	uint64_t pending_payload;
	bool pending_keep;	/* the payload is a stream's tracing data: kept */
	struct pd_zstd *zstd;	/* the source's one decompression stream, on demand */
};

struct pd_idmap {
	uint64_t *keys;		/* 0 marks an empty slot; id 0 is handled apart */
	uint32_t *vals;
	size_t cap;		/* power of two */
	size_t nr;
	uint64_t seed;		/* random, so crafted ids cannot collide on purpose */
};

struct pd_reader {
	struct pd_file_info info;
	struct pd_reader_opts opts;
	struct pd_meta meta;

	struct pd_evsel *evsels;
	size_t nr_evsels;
	struct pd_idmap ids;
	/*
	 * layout taken from the first evsel, as perf does
	 * (doc/perf-data-format.md §11.1)
	 */
	int id_pos, is_pos;
	bool sample_id_all;
	bool warned_layout, warned_id_all;

	struct pd_source *sources;	/* [0] the main file, then data.N */
	size_t nr_sources;
	size_t cur_source;

	/* the COMPRESSED record whose payload is being decompressed */
	uint64_t comp_offset;
	bool in_compressed;

	struct pd_reader_stats stats;
	int error;			/* sticky: once set, next() returns it */
	char errmsg[512];
	char *path;
};

/* reader.c */
int pd_rd_fail(struct pd_reader *r, int err, uint64_t offset, const char *fmt, ...) PD_PRINTF(4, 5);
int pd_rd_fail_at(struct pd_reader *r, int err, const struct pd_source *src,
	       uint64_t offset, const char *fmt, ...) PD_PRINTF(5, 6);
void pd_rd_warn(struct pd_reader *r, uint64_t offset, const char *fmt, ...) PD_PRINTF(3, 4);
void pd_rd_warn_at(struct pd_reader *r, const struct pd_source *src, uint64_t offset,
		const char *fmt, ...) PD_PRINTF(4, 5);

/* source.c */
int pd_src_open_path(struct pd_reader *r, struct pd_source *src, const char *path,
		  const char *name);
int pd_src_open_fd(struct pd_reader *r, struct pd_source *src, int fd, const char *name);
void pd_src_close(struct pd_source *src);
bool pd_src_is_mapped(const struct pd_source *src);
/* Make n bytes at the current position available (stream); returns how many are. */
size_t pd_src_peek(struct pd_reader *r, struct pd_source *src, size_t n,
		const unsigned char **out);
/* Consume n bytes; for streams they must have been peeked. */
void pd_src_advance(struct pd_source *src, size_t n);
/* Skip n bytes that were not peeked (AUXTRACE payloads in a stream). */
int pd_src_skip(struct pd_reader *r, struct pd_source *src, uint64_t n);
/* Frame the next record (1), or 0 at the end; it is consumed at the next call. */
int pd_src_read_record(struct pd_reader *r, struct pd_source *src, struct pd_record *rec);

/* header.c */
int pd_hdr_read(struct pd_reader *r);

/* dir.c */
int pd_dir_open(struct pd_reader *r, const char *path);

/* zstd.c */
int pd_zs_feed(struct pd_reader *r, struct pd_source *src, const struct pd_record *rec);
/* 1: a decompressed record in *rec; 0: the current payload is used up */
int pd_zs_next(struct pd_reader *r, struct pd_source *src, struct pd_record *rec);
void pd_zs_finish(struct pd_reader *r, struct pd_source *src);
void pd_zs_free(struct pd_zstd *z);

/* pipe.c: user records that change the reader's view of the file */
int pd_pipe_apply(struct pd_reader *r, const struct pd_record *rec);

/* evsel.c */
int pd_evsel_add(struct pd_reader *r, const struct pd_attr *attr,
	      const unsigned char *ids_raw, size_t nr_ids, bool ids_swap);
void pd_evsel_free_all(struct pd_reader *r);
void pd_evsel_layout_update(struct pd_reader *r);
int pd_evsel_apply_event_desc(struct pd_reader *r);
int pd_evsel_set_name(struct pd_evsel *ev, const char *name, size_t len);

/* idmap.c */
int pd_idmap_put(struct pd_idmap *m, uint64_t id, uint32_t val);
bool pd_idmap_get(const struct pd_idmap *m, uint64_t id, uint32_t *val);
void pd_idmap_free(struct pd_idmap *m);

#endif /* PD_FORMAT_READER_INT_H */
