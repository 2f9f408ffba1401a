/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * pdata/writer.h - write a perf.data file (file mode, PERFILE2) or a
 * pipe-mode stream, as perf 6.1 writes them (doc/perf-data-format.md
 * §2.6 for the file header recipe, §9.1 for the pipe stream order).
 *
 * Use:
 *	pd_writer_open(&w, fd, &opts);
 *	pd_writer_add_evsel(w, &attr, ids, nr_ids);	   once per event, attr order
 *	pd_writer_begin_data(w, &meta);			   header (+ pipe preamble)
 *	pd_writer_write(w, bytes, len); ...		   raw records, any number
 *	pd_writer_finish(w, &meta);			   features + final header
 *	pd_writer_close(w);
 *
 * The writer never prints and never exits; errors are -PD_E_* or -errno,
 * and pd_writer_errmsg() says what failed.  Records are written in host
 * byte order; the writer does not look inside them.
 */
#ifndef PDATA_WRITER_H
#define PDATA_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pdata/meta.h"
#include "pdata/records.h"

struct pd_writer;

/* The highest zstd level perf 6.1 takes (its comp_level_max). */
#define PD_ZSTD_LEVEL_MAX	22

struct pd_writer_opts {
	bool pipe;		/* pipe mode: 16-byte header, HEADER_ATTR/HEADER_FEATURE records */
	unsigned int zstd_level; /* 1..22: pd_writer_write_compressed() compresses; 0: off */
	uint32_t zstd_mmap_len;	/* HEADER_COMPRESSED.mmap_len, for the marks of pd_writer_sync() */
	bool dir;		/* the data file of a directory: see below */
	bool bare;		/* a directory's data.N file: see below */
};

/* fd stays owned by the caller.  File mode needs a seekable fd. */
int pd_writer_open(struct pd_writer **out, int fd,
		   const struct pd_writer_opts *opts);

/*
 * Declare an event; call in attr order before pd_writer_begin_data().
 * attr->size says which PD_ATTR_SIZE_VER* to write (0: the largest the
 * build knows, as perf 6.1 writes: VER7, 128 bytes).  ids are copied.
 */
int pd_writer_add_evsel(struct pd_writer *w, const struct pd_attr *attr,
			const uint64_t *ids, size_t nr_ids);

/*
 * Start the data section.  File mode: write a provisional header (data
 * size 0, which readers treat as "not finalised") and the attr section.
 * Pipe mode: write the 16-byte header, then the records perf 6.1 puts
 * first (HEADER_ATTR per event, then HEADER_FEATURE for every feature
 * set in meta->features); meta may be NULL in file mode.
 */
int pd_writer_begin_data(struct pd_writer *w, const struct pd_meta *meta);

/* Append len bytes of whole records to the data section. */
int pd_writer_write(struct pd_writer *w, const void *buf, size_t len);

/* Bytes written to the data section so far. */
uint64_t pd_writer_data_size(const struct pd_writer *w);

/*
 * Finish.  File mode: write one feature section for each bit set in
 * meta->features, in feature-id order, then rewrite the header with the
 * data size and the feature bitmap.  Pipe mode: nothing is left to write
 * (meta may be NULL).
 */
int pd_writer_finish(struct pd_writer *w, const struct pd_meta *meta);

void pd_writer_close(struct pd_writer *w);

/* What the last error was, with the file offset where it applies. */
const char *pd_writer_errmsg(const struct pd_writer *w);

/*
 * Additions to the interface above.
 *
 * pd_writer_open() fails with PD_ERR_ERRNO(ESPIPE) when file mode is
 * asked of an fd that cannot seek, with -PD_E_INVAL when it is asked of
 * an O_APPEND fd, and sets *out to NULL on any failure.
 * File mode writes from offset 0 with pwrite(), whatever the fd's
 * position, and truncates a regular file to what was written.
 *
 * After a failed write(), pwrite() or ftruncate(), the writer refuses
 * to go on (-PD_E_INVAL, pd_writer_errmsg() still telling that first
 * failure): the output is incomplete, though a file whose header still
 * says data size 0 reads as "not finalised".
 */

/*
 * Give the payload of feature feat as raw bytes (host byte order), used
 * instead of encoding it from meta; the bytes are copied.  This is how
 * TRACING_DATA's blob, which pd_meta does not hold, is passed: file mode
 * writes it as that section, pipe mode as a HEADER_TRACING_DATA record
 * and its blob after the HEADER_FEATURE records (§7.3, §9.1).  A feature
 * given here is written even if meta->features lacks its bit.  Call it
 * before pd_writer_begin_data() for pipe mode, before pd_writer_finish()
 * for file mode.  len 0 with buf NULL forgets an earlier payload.
 */
int pd_writer_set_feature_raw(struct pd_writer *w, unsigned int feat,
			      const void *buf, size_t len);

/*
 * Push what the writer buffers (up to 1 MiB of records) to the fd, so
 * that a recorder killed later loses nothing already written.
 */
int pd_writer_flush(struct pd_writer *w);

/*
 * Make the records written so far outlive the writer: push what is
 * buffered to the fd and, in file mode, set the header's data size
 * (one pwrite() of 8 bytes) to them.  A recorder killed after this call
 * leaves a file that perf and libpdata read up to here; it lacks the
 * feature sections, which only pd_writer_finish() writes
 * (doc/perf-data-format.md §2.7).  Between pd_writer_begin_data() and
 * pd_writer_finish().
 */
int pd_writer_sync(struct pd_writer *w);

/*
 * After a write failed in file mode (a full disk, a file size limit),
 * in the data or in the features: keep every whole record that reached
 * the file, cut what follows, and rewrite the header in place with that
 * data size and no feature, so that the file reads.  *kept gets the data
 * bytes kept.  The writer then takes records, pd_writer_sync() and
 * pd_writer_finish() again (which may fail anew for lack of room; a
 * second pd_writer_salvage() undoes what that wrote).  Pipe mode, or a
 * data section not started: -PD_E_INVAL.
 *
 * With opts.zstd_level, once pd_writer_sync() wrote a mark, what follows
 * the last mark is cut instead (the zstd stream past it may lack a
 * record), and the header keeps the mark's features, so that perf still
 * decompresses what was kept (doc/perf-data-format.md §2.8).
 */
int pd_writer_salvage(struct pd_writer *w, uint64_t *kept);

/*
 * Whether pd_writer_finish() (file mode) or pd_writer_begin_data() (pipe
 * mode) left feature feat out because meta could not encode it (a NULL
 * string, inconsistent counts, BPF info of the other byte order, no
 * TRACING_DATA blob).  perf does the same: a feature whose writer fails
 * is dropped and its bit cleared, and the file stays valid.
 */
bool pd_writer_feature_dropped(const struct pd_writer *w, unsigned int feat);

/*
 * Encode feature feat of meta into a new buffer (*buf, *len; free() it),
 * laid out as perf 6.1 writes it, so that pd_feature_parse() of the
 * result gives back the same values.  Returns 0, or -PD_E_* when feat
 * cannot be encoded from meta.
 */
int pd_feature_encode(const struct pd_meta *meta, unsigned int feat,
		      void **buf, size_t *len);

/*
 * With opts.zstd_level (pd_writer_open() refuses a level outside
 * 1..PD_ZSTD_LEVEL_MAX with -PD_E_INVAL): append len bytes of whole records as perf 6.1's -z
 * does, packed into PERF_RECORD_COMPRESSED records of one zstd stream
 * (doc/perf-data-format.md §10.5).  The stream is flushed before the call
 * returns, so pd_writer_sync() after it leaves records that decode; in
 * file mode pd_writer_sync() also ends the data with a mark that holds a
 * provisional HEADER_COMPRESSED (level, opts.zstd_mmap_len, ratio 0),
 * which perf 6.1 needs to read a file whose writer was killed (§2.8).  The
 * caller writes the COMPRESSED feature (pd_meta.comp_*), and sets
 * comp_mmap_len to at least the largest len given in one call.
 * Records given to pd_writer_write() stay uncompressed, as perf writes
 * its synthesized records.  After a pd_writer_salvage() that cut records
 * the stream cannot go on: -PD_E_INVAL.
 */
int pd_writer_write_compressed(struct pd_writer *w, const void *buf,
			       size_t len);

/*
 * A directory (doc/perf-data-format.md §12, §12.1) is a data file and
 * one data.N file per ring buffer.
 *
 * opts.dir: the data file.  The caller sets DIR_FORMAT in the meta
 * given to pd_writer_finish(); until then each pd_writer_sync() ends
 * the data with a mark (§2.8, §2.10) whose feature table holds DIR_FORMAT
 * version 1 (and COMPRESSED with opts.zstd_level), so that a killed
 * recording still names its data.N files to perf and to libpdata.
 *
 * opts.bare: a data.N file, which holds records and nothing else.
 * pd_writer_add_evsel() is refused; pd_writer_begin_data() (meta may be
 * NULL) writes nothing; pd_writer_write() and pd_writer_write_compressed()
 * append from offset 0, with opts.zstd_level as a zstd stream of the
 * file's own; pd_writer_sync() only pushes what is buffered (the file's
 * size is its data), and writes no mark; pd_writer_finish() (meta may be
 * NULL) flushes and truncates a regular file to its records; with
 * pd_writer_salvage() the file keeps the records up to the last sync (with
 * zstd) or every whole one (without), and no header is rewritten.
 * opts.pipe and opts.dir are refused with it (-PD_E_INVAL).
 */

/*
 * The bytes given to pd_writer_write_compressed() (*in) and the bytes of
 * COMPRESSED records they became, headers included (*out): perf's
 * "original" size and the divisor of its ratio.  Both 0 without
 * opts.zstd_level.
 */
void pd_writer_compressed_totals(const struct pd_writer *w, uint64_t *in,
				 uint64_t *out);

#endif /* PDATA_WRITER_H */
