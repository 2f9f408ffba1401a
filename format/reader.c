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
pd_rd_fail(struct pd_reader *r, int err, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rd_vfail(r, err, NULL, offset, fmt, ap);
	va_end(ap);
	return r->error;
}

/* An error located in a source other than the main file names that file. */
int
pd_rd_fail_at(struct pd_reader *r, int err, const struct pd_source *src,
	   uint64_t offset, const char *fmt, ...)
{
	const char *where = src != r->sources ? src->name : NULL;
	va_list ap;

	va_start(ap, fmt);
	rd_vfail(r, err, where, offset, fmt, ap);
	va_end(ap);
	return r->error;
}

static void
rd_vwarn(struct pd_reader *r, const char *where, uint64_t offset,
	 const char *fmt, va_list ap)
{
	char msg[512];

	if (!r->opts.warn)
		return;
	vformat_at(msg, sizeof(msg), where, offset, fmt, ap);
	r->opts.warn(r->opts.warn_ctx, offset, msg);
}

/* Warnings read like errors: "offset 0x1a8: what", the offset when there is one. */
void
pd_rd_warn(struct pd_reader *r, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rd_vwarn(r, NULL, offset, fmt, ap);
	va_end(ap);
}

/* A warning about a source other than the main file names that file. */
void
pd_rd_warn_at(struct pd_reader *r, const struct pd_source *src, uint64_t offset,
	   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rd_vwarn(r, src != r->sources ? src->name : NULL, offset, fmt, ap);
	va_end(ap);
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
		err = pd_dir_open(r, path);
	} else {
		err = pd_src_open_path(r, &r->sources[0], path, path);
		if (!err)
			err = pd_hdr_read(r);
	}
	*out = r;
	return err;
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
	err = pd_src_open_fd(r, &r->sources[0], fd, name);
	if (!err)
		err = pd_hdr_read(r);
	*out = r;
	return err;
}

void
pd_reader_close(struct pd_reader *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_sources; i++)
		pd_src_close(&r->sources[i]);
	free(r->sources);
	pd_evsel_free_all(r);
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
 * The event id a kernel record carries, found as perf finds it
 * (doc/perf-data-format.md §11.1): a SAMPLE has it at id_pos, other
 * records at is_pos from their end when the first event has sample_id_all.
 * Returns false when the record carries none (the first event owns it) or
 * is too short to hold it (*id is then UINT64_MAX).
 */
static bool
record_event_id(const struct pd_reader *r, const struct pd_record *rec, uint64_t *id)
{
	uint32_t nwords = (rec->size - PD_EVENT_HEADER_SIZE) / 8;
	const unsigned char *body = rec->data + PD_EVENT_HEADER_SIZE;

	*id = 0;
	if (rec->header.type == PD_RECORD_SAMPLE) {
		if (r->id_pos < 0)
			return false;
		if ((uint32_t)r->id_pos >= nwords) {
			*id = UINT64_MAX;
			return false;
		}
		*id = pd_load_u64(body + 8 * r->id_pos, rec->swap);
		return true;
	}
	if (!r->sample_id_all || r->is_pos < 0)
		return false;
	if ((uint32_t)r->is_pos > nwords) {
		*id = UINT64_MAX;
		return false;
	}
	*id = pd_load_u64(body + 8 * (nwords - r->is_pos), rec->swap);
	return true;
}

/* One event owns everything; id 0 (synthesized records) is the first event's. */
int
pd_reader_find_evsel(const struct pd_reader *r, const struct pd_record *rec)
{
	uint64_t id;
	uint32_t idx;

	if (!r->nr_evsels || rec->header.type >= PD_RECORD_USER_TYPE_START ||
	    rec->size < PD_EVENT_HEADER_SIZE)
		return -1;
	if (r->nr_evsels == 1)
		return 0;
	if (!record_event_id(r, rec, &id))
		return id == UINT64_MAX ? -1 : 0;
	if (id == 0)
		return 0;
	return pd_idmap_get(&r->ids, id, &idx) ? (int)idx : -1;
}

const char *
pd_reader_source_name(const struct pd_reader *r, unsigned int source)
{
	return source < r->nr_sources ? r->sources[source].name : NULL;
}

int
pd_reader_evsel_by_id(const struct pd_reader *r, uint64_t id)
{
	uint32_t idx;

	return pd_idmap_get(&r->ids, id, &idx) ? (int)idx : -1;
}

static void
warn_unknown_id(struct pd_reader *r, const struct pd_record *rec)
{
	const char *type = pd_record_type_name(rec->header.type);
	uint64_t id;

	if (!record_event_id(r, rec, &id) && id == UINT64_MAX)
		pd_rd_warn(r, rec->offset, "a %s record is too short to hold its event id; such records belong to no event",
			type ? type : "kernel");
	else
		pd_rd_warn(r, rec->offset, "a %s record carries event id %llu, which no event has; such records are counted but belong to no event",
			type ? type : "kernel", (unsigned long long)id);
}

static int
deliver(struct pd_reader *r, struct pd_record *rec)
{
	rec->evsel = pd_reader_find_evsel(r, rec);
	if (rec->evsel < 0 && rec->header.type < PD_RECORD_USER_TYPE_START &&
	    r->nr_evsels > 1) {
		if (!r->stats.unknown_id)
			warn_unknown_id(r, rec);
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
			got = pd_zs_next(r, src, rec);
			if (got < 0)
				return got;
			if (got) {
				/* a payload holds records like any other: apply them alike */
				err = pd_pipe_apply(r, rec);
				return err ? err : deliver(r, rec);
			}
		}
		got = pd_src_read_record(r, src, rec);
		if (got < 0)
			return got;
		if (got == 0) {
			pd_zs_finish(r, src);
			r->cur_source++;
			continue;
		}
		switch (rec->header.type) {
		case PD_RECORD_COMPRESSED:
		case PD_RECORD_COMPRESSED2:
			err = pd_zs_feed(r, src, rec);
			break;
		default:
			err = pd_pipe_apply(r, rec);
			break;
		}
		if (err)
			return err;
		return deliver(r, rec);
	}
	return 0;
}
