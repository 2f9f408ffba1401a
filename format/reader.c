/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/reader.c - opening a perf.data input and walking its records.
 *
 * The walk is a small state machine over the sources (the file, or the
 * files of a directory): a plain record is handed out in place; a
 * COMPRESSED record is handed out, then the records its payload
 * decompresses to, before the source moves on.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format/cursor.h"
#include "format/reader-int.h"

static void
vformat_at(char *buf, size_t len, const char *where, uint64_t offset,
	   const char *fmt, va_list ap)
{
	int n = 0;

	if (offset != UINT64_MAX)
		n = snprintf(buf, len, "%s%soffset %#llx: ", where ? where : "",
			     where ? ": " : "", (unsigned long long)offset);
	else if (where)
		n = snprintf(buf, len, "%s: ", where);
	if (n < 0 || (size_t)n >= len)
		n = 0;
	vsnprintf(buf + n, len - (size_t)n, fmt, ap);
}

static int
rd_vfail(struct pd_reader *r, int err, const char *where, uint64_t offset,
	 const char *fmt, va_list ap)
{
	size_t len;

	if (r->error)
		return r->error;
	vformat_at(r->errmsg, sizeof(r->errmsg), where, offset, fmt, ap);
	len = strlen(r->errmsg);
	if (err <= -PD_ERRNO_BASE && len < sizeof(r->errmsg))
		snprintf(r->errmsg + len, sizeof(r->errmsg) - len, ": %s", pd_strerror(err));
	r->error = err;
	return err;
}

int
rd_fail(struct pd_reader *r, int err, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rd_vfail(r, err, NULL, offset, fmt, ap);
	va_end(ap);
	return r->error;
}

/* An error located in a source other than the main file names that file. */
int
rd_fail_at(struct pd_reader *r, int err, const struct pd_source *src,
	   uint64_t offset, const char *fmt, ...)
{
	const char *where = src != r->sources ? src->name : NULL;
	va_list ap;

	va_start(ap, fmt);
	rd_vfail(r, err, where, offset, fmt, ap);
	va_end(ap);
	return r->error;
}

void
rd_warn(struct pd_reader *r, uint64_t offset, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!r->opts.warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->opts.warn(r->opts.warn_ctx, offset, msg);
}

/* A warning about a source other than the main file names that file. */
void
rd_warn_at(struct pd_reader *r, const struct pd_source *src, uint64_t offset,
	   const char *fmt, ...)
{
	char msg[512];
	int n = 0;
	va_list ap;

	if (!r->opts.warn)
		return;
	if (src != r->sources)
		n = snprintf(msg, sizeof(msg), "%s: ", src->name);
	if (n < 0 || (size_t)n >= sizeof(msg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	r->opts.warn(r->opts.warn_ctx, offset, msg);
}

static struct pd_reader *
reader_new(const char *path, const struct pd_reader_opts *opts)
{
	struct pd_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->sources = calloc(1, sizeof(*r->sources));
	r->path = strdup(path);
	if (!r->sources || !r->path) {
		free(r->sources);
		free(r->path);
		free(r);
		return NULL;
	}
	r->sources[0].fd = -1;
	r->nr_sources = 1;
	if (opts)
		r->opts = *opts;
	pd_meta_init(&r->meta);
	r->id_pos = r->is_pos = -1;
	return r;
}

static int
reader_open_dir(struct pd_reader *r, const char *path)
{
	struct stat st;
	char *data;
	int err;

	if (asprintf(&data, "%s/data", path) < 0)
		return rd_fail(r, -PD_E_NOMEM, UINT64_MAX, "out of memory");
	if (stat(data, &st) < 0 || !S_ISREG(st.st_mode)) {
		free(data);
		return rd_fail(r, -PD_E_BAD_DIR, UINT64_MAX,
			       "a directory without a readable data file");
	}
	err = src_open_path(r, &r->sources[0], data, data);
	free(data);
	if (!err)
		err = hdr_read(r);
	if (err)
		return err;
	if (r->info.mode != PD_MODE_FILE)
		return rd_fail(r, -PD_E_BAD_DIR, UINT64_MAX,
			       "its data file is not a file-mode perf.data");
	r->info.mode = PD_MODE_DIR;
	return hdr_open_dir(r, path);
}

static int
reader_finish_open(struct pd_reader *r, int err, struct pd_reader **out)
{
	*out = r;
	return err;
}

int
pd_reader_open(struct pd_reader **out, const char *path,
	       const struct pd_reader_opts *opts)
{
	struct pd_reader *r;
	struct stat st;
	int err;

	*out = NULL;
	if (!strcmp(path, "-"))
		return pd_reader_open_fd(out, 0, "<stdin>", opts);
	r = reader_new(path, opts);
	if (!r)
		return -PD_E_NOMEM;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		err = reader_open_dir(r, path);
	} else {
		err = src_open_path(r, &r->sources[0], path, path);
		if (!err)
			err = hdr_read(r);
	}
	return reader_finish_open(r, err, out);
}

int
pd_reader_open_fd(struct pd_reader **out, int fd, const char *name,
		  const struct pd_reader_opts *opts)
{
	struct pd_reader *r = reader_new(name, opts);
	int err;

	*out = NULL;
	if (!r)
		return -PD_E_NOMEM;
	err = src_open_fd(r, &r->sources[0], fd, name);
	if (!err)
		err = hdr_read(r);
	return reader_finish_open(r, err, out);
}

void
pd_reader_close(struct pd_reader *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_sources; i++)
		src_close(&r->sources[i]);
	free(r->sources);
	evsel_free_all(r);
	pd_meta_free(&r->meta);
	free(r->path);
	free(r);
}

const char *
pd_reader_errmsg(const struct pd_reader *r)
{
	if (!r)
		return "out of memory";
	return r->errmsg[0] ? r->errmsg : pd_strerror(r->error);
}

const struct pd_file_info *
pd_reader_info(const struct pd_reader *r)
{
	return &r->info;
}

size_t
pd_reader_nr_evsels(const struct pd_reader *r)
{
	return r->nr_evsels;
}

const struct pd_evsel *
pd_reader_evsel(const struct pd_reader *r, size_t idx)
{
	return idx < r->nr_evsels ? &r->evsels[idx] : NULL;
}

const struct pd_meta *
pd_reader_meta(const struct pd_reader *r)
{
	return &r->meta;
}

const struct pd_reader_stats *
pd_reader_stats(const struct pd_reader *r)
{
	return &r->stats;
}

/*
 * perf-data-file-format.md §11.1: one event owns everything; a SAMPLE has
 * its id at id_pos; other kernel records at is_pos from their end, if the
 * first event has sample_id_all; id 0 (synthesized records) is the first
 * event's.
 */
int
pd_reader_find_evsel(const struct pd_reader *r, const struct pd_record *rec)
{
	uint32_t type = rec->header.type;
	uint32_t nwords = (rec->size - PD_EVENT_HEADER_SIZE) / 8;
	uint64_t id;
	uint32_t idx;

	if (!r->nr_evsels || type >= PD_RECORD_USER_TYPE_START ||
	    rec->size < PD_EVENT_HEADER_SIZE)
		return -1;
	if (r->nr_evsels == 1)
		return 0;
	if (type == PD_RECORD_SAMPLE) {
		if (r->id_pos < 0)
			return 0;
		if ((uint32_t)r->id_pos >= nwords)
			return -1;
		id = pd_load_u64(rec->data + PD_EVENT_HEADER_SIZE + 8 * r->id_pos, rec->swap);
	} else {
		if (!r->sample_id_all || r->is_pos < 0)
			return 0;
		if ((uint32_t)r->is_pos > nwords)
			return -1;
		id = pd_load_u64(rec->data + PD_EVENT_HEADER_SIZE + 8 * (nwords - r->is_pos),
				 rec->swap);
	}
	if (id == 0)
		return 0;
	return idmap_get(&r->ids, id, &idx) ? (int)idx : -1;
}

int
pd_reader_evsel_by_id(const struct pd_reader *r, uint64_t id)
{
	uint32_t idx;

	return idmap_get(&r->ids, id, &idx) ? (int)idx : -1;
}

static int
deliver(struct pd_reader *r, struct pd_record *rec)
{
	rec->evsel = pd_reader_find_evsel(r, rec);
	if (rec->evsel < 0 && rec->header.type < PD_RECORD_USER_TYPE_START &&
	    r->nr_evsels > 1) {
		if (!r->stats.unknown_id)
			rd_warn(r, rec->offset, "a %s record carries an event id that no event has; such records are counted but belong to no event",
				pd_record_type_name(rec->header.type) ?
				pd_record_type_name(rec->header.type) : "kernel");
		r->stats.unknown_id++;
	}
	r->stats.records++;
	return 1;
}

int
pd_reader_next(struct pd_reader *r, struct pd_record *rec)
{
	int got, err;

	if (r->error)
		return r->error;
	while (r->cur_source < r->nr_sources) {
		struct pd_source *src = &r->sources[r->cur_source];

		if (r->in_compressed) {
			got = zs_next(r, src, rec);
			if (got)
				return got < 0 ? got : deliver(r, rec);
		}
		got = src_read_record(r, src, rec);
		if (got < 0)
			return got;
		if (got == 0) {
			zs_finish(r, src);
			r->cur_source++;
			continue;
		}
		switch (rec->header.type) {
		case PD_RECORD_COMPRESSED:
		case PD_RECORD_COMPRESSED2:
			err = zs_feed(r, src, rec);
			break;
		default:
			err = pipe_apply(r, rec);
			break;
		}
		if (err)
			return err;
		return deliver(r, rec);
	}
	return 0;
}
