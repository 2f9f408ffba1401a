/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/inspect/dump.c - preport -D: every record with its offset, its
 * bytes and every decoded field.
 *
 * The layout is perf 6.1's `perf report -D` (util/session.c dump_event,
 * dump_sample, and the tools' own lines in util/event.c and friends):
 * a line with the file offset, size and type, a hex dump, then the line
 * "<cpu> <time> <offset> [<size>]: PERF_RECORD_<NAME>..." and the details
 * beneath it.  Where perf prints a fact, the same text is printed here;
 * what perf leaves out (sample fields it does not dump, sample_id
 * trailers, the fields of records it calls "unhandled") follows on lines
 * of our own, "... <what>: <value>".
 *
 * Differences on purpose: records come in file order, as with perf's
 * --disable-order, not sorted by time; offsets are those of the input,
 * where perf counts a pipe-mode stream from the end of its 16-byte header
 * and leaves "@<file>" after them; COMPRESSED records are shown too, and
 * each record decompressed from one says so; the hex dump shows the bytes
 * as stored, where perf shows them after byte-swapping a cross-endian
 * file; the symbol lines perf adds to samples (" ... thread:",
 * " ...... dso:") need the session and are left to the report.
 *
 * This file frames each record: the offset line, the hex dump and the
 * headline.  What follows the headline is printed by dump-sample.c,
 * dump-kernel.c and dump-user.c.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <sys/utsname.h>

#include "pdata/events.h"
#include "pdata/reader.h"
#include "report/inspect/dump-int.h"
#include "report/inspect/inspect.h"

const struct pd_evsel *
rep_dump_evsel(const struct rep_dump *d, const struct pd_record *rec)
{
	if (rec->evsel < 0)
		return NULL;
	return pd_reader_evsel(d->r, (size_t)rec->evsel);
}

/*
 * How many events perf knew of when it printed rec: the reader applies a
 * pipe-mode HEADER_ATTR before handing it out, perf only after.
 */
static size_t
nr_evsels_before(const struct rep_dump *d, const struct pd_record *rec)
{
	size_t n = pd_reader_nr_evsels(d->r);

	if (rec->header.type == PD_RECORD_HEADER_ATTR && n)
		n--;
	return n;
}

/* The OR of the sample_types of those events (perf's combined type). */
static uint64_t
combined_sample_type(const struct rep_dump *d, const struct pd_record *rec)
{
	size_t i, n = nr_evsels_before(d, rec);
	uint64_t type = 0;

	for (i = 0; i < n; i++)
		type |= pd_reader_evsel(d->r, i)->attr.sample_type;
	return type;
}

/* perf takes sample_id_all from the first event. */
static bool
sample_id_all(const struct rep_dump *d, const struct pd_record *rec)
{
	if (!nr_evsels_before(d, rec))
		return false;
	return pd_attr_has(&pd_reader_evsel(d->r, 0)->attr,
			   PD_ATTR_SAMPLE_ID_ALL);
}

void
rep_dump_str(FILE *out, struct pd_str s)
{
	if (s.len)
		fwrite(s.s, 1, s.len, out);
}

/* build ids and BPF tags: the bytes as one run of hex digits */
void
rep_dump_hex(FILE *out, const uint8_t *p, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		fprintf(out, "%02x", p[i]);
}

/* text, in perf's blue for the raw dump when colouring */
static void
raw_text(FILE *out, bool color, const char *text)
{
	fprintf(out, color ? "\033[34m%s\033[m" : "%s", text);
}

/*
 * perf's raw event dump (trace_event() and its printer): each piece
 * coloured on its own, as perf's colour calls print them.
 */
static void
dump_raw(FILE *out, bool color, const unsigned char *p, size_t len)
{
	char piece[64];
	size_t i, j;

	fputc('.', out);
	snprintf(piece, sizeof(piece), "\n. ... raw event: size %zu bytes\n",
		 len);
	raw_text(out, color, piece);
	for (i = 0; i < len; i++) {
		if ((i & 15) == 0) {
			fputc('.', out);
			snprintf(piece, sizeof(piece), "  %04zx: ", i);
			raw_text(out, color, piece);
		}
		snprintf(piece, sizeof(piece), " %02x", p[i]);
		raw_text(out, color, piece);
		if ((i & 15) != 15 && i != len - 1)
			continue;
		for (j = 0; j < 15 - (i & 15); j++)
			raw_text(out, color, "   ");
		raw_text(out, color, "  ");
		for (j = i & ~(size_t)15; j <= i; j++) {
			piece[0] = p[j] >= 0x20 && p[j] < 0x7f ? (char)p[j] : '.';
			piece[1] = '\0';
			raw_text(out, color, piece);
		}
		for (j = 0; j < 15 - (i & 15); j++)
			raw_text(out, color, " ");
		raw_text(out, color, "\n");
	}
	fputc('\n', out);
}

/*
 * The "<cpu> <time> " prefix of perf's headline (evlist__print_tstamp):
 * which of the two is printed depends on the sample types of all events,
 * the values come from this record's sample or sample_id.
 */
static void
print_tstamp(const struct rep_dump *d, const struct pd_record *rec,
	     uint32_t cpu, uint64_t time)
{
	uint64_t type = combined_sample_type(d, rec);

	if (rec->header.type != PD_RECORD_SAMPLE && !sample_id_all(d, rec)) {
		fputs("-1 -1 ", d->out);
		return;
	}
	if (type & PD_SAMPLE_CPU)
		fprintf(d->out, "%" PRIu32 " ", cpu);
	if (type & PD_SAMPLE_TIME)
		fprintf(d->out, "%" PRIu64 " ", time);
}

void
rep_dump_headline(const struct rep_dump *d, const struct pd_record *rec,
		  uint32_t cpu, uint64_t time)
{
	const char *name = pd_record_type_name(rec->header.type);

	print_tstamp(d, rec, cpu, time);
	fprintf(d->out, "%#" PRIx64 " [%#" PRIx32 "]: PERF_RECORD_",
		rec->offset, rec->size);
	if (name)
		fputs(name, d->out);
	else
		fprintf(d->out, "UNKNOWN_%" PRIu32, rec->header.type);
}

void
rep_dump_error(const struct rep_dump *d, const char *what, int err)
{
	fprintf(d->out, "... cannot decode %s: %s\n", what, pd_strerror(err));
}

/* One record */

/* Why the record does not decode, after perf's one-line complaint. */
static void
dump_event_error(const struct rep_dump *d, const struct pd_evsel *ev,
		 const struct pd_record *rec, int err)
{
	char why[256];

	rep_dump_error(d, "the record", err);
	if (pd_event_explain(ev ? &ev->attr : NULL, rec, why, sizeof(why)))
		fprintf(d->out, "... %s\n", why);
}

static void
dump_event(const struct rep_dump *d, const struct pd_record *rec)
{
	const struct pd_evsel *ev = rep_dump_evsel(d, rec);
	union pd_event e;
	bool kernel = rec->header.type < PD_RECORD_USER_TYPE_START;
	uint32_t cpu = 0;
	uint64_t time = 0;
	int err;

	err = pd_event_decode(ev ? &ev->attr : NULL, rec, &e);
	if (kernel) {
		cpu = err ? (uint32_t)-1 : e.base.sample_id.cpu;
		time = err ? (uint64_t)-1 : e.base.sample_id.time;
	}
	rep_dump_headline(d, rec, cpu, time);
	if (err) {
		fputc('\n', d->out);
		if (err != -PD_E_UNSUPPORTED)
			dump_event_error(d, ev, rec, err);
		return;
	}
	if (kernel)
		rep_dump_kernel_event(d, rec, &e);
	else
		rep_dump_user_event(d, rec, &e);
}

static void
dump_record(const struct rep_dump *d, const struct pd_record *rec)
{
	fprintf(d->out, "\n%#" PRIx64, rec->offset);
	if (rec->source)
		fprintf(d->out, "@%s", pd_reader_source_name(d->r, rec->source));
	fprintf(d->out, " [%#" PRIx32 "]: event: %" PRIu32, rec->size,
		rec->header.type);
	if (rec->origin == PD_ORIGIN_COMPRESSED)
		fprintf(d->out, " (decompressed, at %#" PRIx64
			" of the stream)", rec->stream_offset);
	fputc('\n', d->out);
	dump_raw(d->out, d->color, rec->data, rec->size);
	if (rec->header.type == PD_RECORD_SAMPLE)
		rep_dump_sample(d, rec);
	else
		dump_event(d, rec);
	if (rec->payload_size)
		fprintf(d->out, "... payload: %" PRIu64
			" bytes after the record%s\n", rec->payload_size,
			rec->payload ? "" : " (skipped)");
}

int
rep_dump(FILE *out, struct pd_reader *r, bool keep_empty, bool color)
{
	struct rep_dump d = { .out = out, .r = r, .color = color };
	struct rep_stats *st = rep_stats_new(REP_STATS_DUMP, keep_empty);
	struct pd_record rec;
	struct utsname uts;
	int ret;

	if (uname(&uts) == 0)
		snprintf(d.host_arch, sizeof(d.host_arch), "%s", uts.machine);
	while ((ret = pd_reader_next(r, &rec)) > 0) {
		dump_record(&d, &rec);
		rep_stats_count(st, r, &rec);
	}
	rep_stats_print_counts(out, r, st);
	rep_stats_free(st);
	return ret < 0 ? ret : 0;
}
