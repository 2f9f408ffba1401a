/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * pdata/reader.h - read any perf.data file: file mode (PERFILE2 and the
 * old PERFFILE), pipe mode from any file descriptor, and the directory
 * written by `perf record --threads`, in either byte order.
 *
 * The reader never prints and never exits.  Errors are returned as
 * -PD_E_* values; pd_reader_errmsg() then says what was wrong and at
 * which file offset.  Warnings (a file that was not finalised, unknown
 * ids, a truncated tail) go to the optional warn callback.
 */
#ifndef PDATA_READER_H
#define PDATA_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pdata/errors.h"
#include "pdata/meta.h"
#include "pdata/records.h"

struct pd_reader;

enum pd_mode {
	PD_MODE_FILE,		/* a seekable PERFILE2/PERFFILE file */
	PD_MODE_PIPE,		/* a pipe-mode stream (header size 16), from any fd */
	PD_MODE_DIR,		/* a directory: data + data.N */
};

struct pd_reader_opts {
	/* called once per warning, with the file offset it concerns (or -1) */
	void (*warn)(void *ctx, uint64_t offset, const char *msg);
	void *warn_ctx;
};

/* Facts about the container, as read from its header. */
struct pd_file_info {
	enum pd_mode mode;
	bool swap;			/* the file's byte order is not the host's */
	bool big_endian;		/* the writer was big-endian */
	unsigned int version;		/* 2 for PERFILE2, 1 for PERFFILE */
	uint64_t header_size;		/* 104, 72 (old) or 16 (pipe) */
	uint64_t attr_size;		/* attr section stride (file mode) */
	uint64_t attrs_offset, attrs_size;
	uint64_t data_offset, data_size;	/* data_size as the header says it */
	uint64_t data_end;		/* where reading stops (file mode) */
	uint64_t feat_offset;		/* the feature table (file mode) */
	uint64_t file_size;		/* bytes of the main file; 0 for a stream */
	bool not_finalised;		/* data.size was 0: read up to the last whole record */
	int64_t mtime_sec;		/* modification time of the main file (of the pipe, for a stream) */
};

/*
 * Open path: a file, a directory, or "-" for standard input.  A FIFO or
 * any non-regular input is read as a stream.  A regular file is mapped:
 * if another process truncates it while it is read, the kernel raises
 * SIGBUS, which a library cannot catch for its caller.
 *
 * On failure *out may still be set: pd_reader_errmsg(*out) then says why,
 * and pd_reader_close(*out) must be called.  *out is NULL only when even
 * the reader could not be allocated.
 */
int pd_reader_open(struct pd_reader **out, const char *path,
		   const struct pd_reader_opts *opts);

/* Read from an open fd (not closed by the reader); name is used in messages. */
int pd_reader_open_fd(struct pd_reader **out, int fd, const char *name,
		      const struct pd_reader_opts *opts);

void pd_reader_close(struct pd_reader *r);

/*
 * The message for the last error returned by this reader, e.g.
 * "offset 0xbfd0: record size 0 is smaller than its 8-byte header",
 * or for open failures the reason.  Never NULL.
 */
const char *pd_reader_errmsg(const struct pd_reader *r);

const struct pd_file_info *pd_reader_info(const struct pd_reader *r);

/*
 * The file's events.  In pipe mode the list grows as HEADER_ATTR records
 * are read, and an evsel pointer obtained earlier is then no longer valid
 * (use indexes); names arrive with HEADER_FEATURE EVENT_DESC or EVENT_UPDATE.
 */
size_t pd_reader_nr_evsels(const struct pd_reader *r);
const struct pd_evsel *pd_reader_evsel(const struct pd_reader *r, size_t idx);

/* The feature sections; in pipe mode filled as HEADER_FEATURE records arrive. */
const struct pd_meta *pd_reader_meta(const struct pd_reader *r);

/*
 * pd_reader_next - advance to the next record.
 *
 * Returns 1 and fills *rec, 0 at the end of the data, or -PD_E_* on an
 * error that stops reading (the records before it were all delivered).
 * *rec and every pointer inside it stay valid only until the next call.
 *
 * Records come in file order.  A COMPRESSED/COMPRESSED2 record is
 * delivered itself, then the records decompressed from it (origin
 * PD_ORIGIN_COMPRESSED); a record may span two compressed payloads.
 * In pipe mode HEADER_ATTR, HEADER_FEATURE and HEADER_BUILD_ID records
 * are applied to the evsels and the metadata before they are delivered.
 * In a directory, the records of data come first, then those of data.0,
 * data.1, ... (sort by time for a merged view).
 */
int pd_reader_next(struct pd_reader *r, struct pd_record *rec);

/*
 * The bytes of the main file when it is mapped (a regular file): the
 * records read from it are views into [*lo, *hi), valid until
 * pd_reader_close().  False for a stream.
 */
bool pd_reader_mapping(const struct pd_reader *r, const unsigned char **lo,
		       const unsigned char **hi);

/*
 * Let the pages of the mapped main file below upto leave memory: the
 * caller holds no view below upto.  Dropped pages of the read-only file
 * mapping are read again from the file if touched, so this bounds the
 * reader's resident memory on big files without changing a byte read.
 * Done in steps of 1 MiB; nothing for a stream.
 */
void pd_reader_drop_before(struct pd_reader *r, const unsigned char *upto);

/* Counts kept while reading. */
struct pd_reader_stats {
	uint64_t records;		/* delivered, compressed and inner ones included */
	uint64_t unknown_id;		/* kernel records whose event id matched no evsel */
	uint64_t bytes_decompressed;
	uint64_t bytes_compressed;
};
const struct pd_reader_stats *pd_reader_stats(const struct pd_reader *r);

/*
 * The evsel owning a kernel record, found from its sample id or trailer
 * as perf does (doc/perf-data-format.md §11.1); -1 when none.  The
 * reader has already set rec->evsel; this is for records built elsewhere.
 */
int pd_reader_find_evsel(const struct pd_reader *r, const struct pd_record *rec);

/*
 * The name of a record's source (pd_record.source): the path given for 0,
 * "data.N" for the files of a directory; NULL past the last.
 */
const char *pd_reader_source_name(const struct pd_reader *r, unsigned int source);

/* The index of the evsel whose id array holds id, or -1. */
int pd_reader_evsel_by_id(const struct pd_reader *r, uint64_t id);

/* The name perf gives record type t ("SAMPLE", "FEATURE"...), or NULL. */
const char *pd_record_type_name(uint32_t type);

#endif /* PDATA_READER_H */
