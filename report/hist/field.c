/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * report/hist/field.c - tracepoint fields as sort keys, perf 6.1's dynamic
 * entries (util/sort.c, hde_*; doc/perf-records.md §6.9): entries of the
 * field's event compare by the field's bytes in their first sample's raw
 * data; the column shows the value the print fmt gave the field (the
 * "name=value" word of the trace text) or, raw, the field printed alone;
 * its width is the name's, the field's size (2 * size + 2 for a number)
 * or the longest value perf looked at.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "lib/xalloc.h"
#include "report/hist/hist-int.h"

static const struct rep_field *
field_of(const struct rep_report *rep, enum rep_dim d)
{
	return &rep->o.hist.fields[d - REP_DIM_FIELD];
}

int
rep_hist_add_field(struct rep_hist_opts *o, const struct rep_field *f)
{
	size_t i;

	/* perf's __sort__hde_equal(): one column per field */
	for (i = 0; i < o->nr_fields; i++)
		if (o->fields[i].handle == f->handle && o->fields[i].evsel == f->evsel)
			return (int)i;
	if (o->nr_fields >= REP_MAX_FIELDS)
		return -1;
	o->fields[o->nr_fields] = *f;
	return (int)o->nr_fields++;
}

static uint32_t
read_u32(const unsigned char *p, bool big_endian)
{
	if (big_endian)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		       (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
}

/*
 * Where the field's bytes lie in e's raw data: a __data_loc field's
 * offset and length from its word (0 when the word is not there).
 */
static void
field_span(const struct rep_field *f, const struct rep_hent *e,
	   uint32_t *off, uint32_t *size)
{
	uint32_t loc;

	*off = f->offset;
	*size = f->size;
	if (!f->dynamic)
		return;
	*off = *size = 0;
	if (f->size != 4 || (uint64_t)f->offset + 4 > e->raw_len)
		return;
	loc = read_u32(e->raw + f->offset, f->big_endian);
	*off = loc & 0xffff;
	*size = loc >> 16;
	if (f->relative)
		*off += f->offset + f->size;
}

/* The byte at off of e's raw data; 0 past its end. */
static unsigned char
raw_byte(const struct rep_hent *e, uint64_t off)
{
	return off < e->raw_len ? e->raw[off] : 0;
}

/*
 * perf's __sort__hde_cmp(): memcmp of the field's bytes, where l's data
 * puts them, in both entries (perf reads past a shorter record's end;
 * here those bytes are 0).
 */
int
rep_field_cmp(const struct rep_report *rep, enum rep_dim d,
	      const struct rep_hent *l, const struct rep_hent *r)
{
	uint32_t off, size, i;

	field_span(field_of(rep, d), l, &off, &size);
	for (i = 0; i < size; i++) {
		unsigned char a = raw_byte(l, (uint64_t)off + i);
		unsigned char b = raw_byte(r, (uint64_t)off + i);

		if (a != b)
			return a < b ? -1 : 1;
	}
	return 0;
}

uint64_t
rep_field_hash(const struct rep_report *rep, enum rep_dim d,
	       const struct rep_hent *e)
{
	uint32_t off, size;

	field_span(field_of(rep, d), e, &off, &size);
	if ((uint64_t)off + size > e->raw_len)
		return size;	/* read as zeros: equal ones hash alike */
	return XXH3_64bits(e->raw + off, size);
}

/*
 * perf's search of the trace text for the field: the first
 * space-separated word starting with the field's name; its part after
 * the name and one more character.  NULL when no word does.
 */
static const char *
text_value(const char *text, const char *name, size_t *len)
{
	size_t namelen = strlen(name);
	const char *w = text;

	while (w) {
		const char *end = strchr(w, ' ');

		if (!end)
			end = w + strlen(w);
		if (!strncmp(w, name, namelen)) {
			const char *v = w + namelen + 1;

			*len = v <= end ? (size_t)(end - v) : 0;
			return v <= end ? v : end;
		}
		w = *end ? end + 1 : NULL;
	}
	return NULL;
}

void
rep_field_snprint(const struct rep_report *rep, enum rep_dim d,
		  const struct rep_hent *e, int w, char *buf, size_t size)
{
	const struct rep_field *f = field_of(rep, d);
	const char *v = NULL;
	size_t len = 0;

	if (!f->raw && e->trace)
		v = text_value(e->trace, f->name, &len);
	if (!v) {
		v = rep->field_fn ? rep->field_fn(rep->field_ctx, f, e->raw,
						   e->raw_len) : "";
		len = strlen(v);
	}
	snprintf(buf, size, "%*.*s", w, (int)len < w ? (int)len : w, v);
}

int
rep_field_width(const struct rep_report *rep, const struct rep_hist *h,
		enum rep_dim d)
{
	const struct rep_field *f = field_of(rep, d);
	int len = h->field_len[d - REP_DIM_FIELD];
	int namelen = (int)strlen(f->name);
	int fieldlen = f->string ? (int)f->size : (int)f->size * 2 + 2;

	if (namelen > len)
		len = namelen;
	return fieldlen > len ? fieldlen : len;
}

/*
 * perf's dynamic_len: the longest value word of the trace text (not
 * raw), and the longest __data_loc length of the entries that were on
 * the left of a comparison reaching the field (update_dynamic_len(),
 * __sort__hde_cmp()).
 */
static int
field_len(const struct rep_report *rep, const struct rep_hist *h, size_t n,
	  const uint64_t *reached, const uint64_t *texts)
{
	const struct rep_field *f = &rep->o.hist.fields[n];
	size_t i, len = 0, vlen;
	uint32_t off, size;

	for (i = 0; i < h->nr; i++) {
		const struct rep_hent *e = &h->ents[i];

		if ((!texts || (texts[i] >> n & 1)) && !f->raw && e->trace &&
		    text_value(e->trace, f->name, &vlen) && vlen > len)
			len = vlen;
		if (!f->dynamic || !((reached && (reached[i] >> n & 1)) ||
				     (!texts && e->hits)))
			continue;
		field_span(f, e, &off, &size);
		if (size > len)
			len = size;
	}
	return (int)len;
}

void
rep_fields_size(const struct rep_report *rep, struct rep_hist *h,
		const uint64_t *reached)
{
	size_t n;

	for (n = 0; n < rep->o.hist.nr_fields; n++)
		if (rep->o.hist.fields[n].evsel == h->evsel)
			h->field_len[n] = field_len(rep, h, n, reached, NULL);
}

void
rep_fields_size_some(const struct rep_report *rep, struct rep_hist *h,
		     const uint64_t *reached, const uint64_t *texts)
{
	size_t n;

	for (n = 0; n < rep->o.hist.nr_fields; n++)
		if (rep->o.hist.fields[n].evsel == h->evsel)
			h->field_len[n] = field_len(rep, h, n, reached, texts);
}

void
rep_field_keep_raw(struct rep_report *rep, struct rep_hent *e)
{
	unsigned char *copy;

	if (!e->raw || !e->raw_len) {
		e->raw = NULL;
		e->raw_len = 0;
		return;
	}
	copy = xmalloc(e->raw_len);
	memcpy(copy, e->raw, e->raw_len);
	if (rep->nr_raw_copies == rep->cap_raw_copies) {
		rep->cap_raw_copies = rep->cap_raw_copies ? 2 * rep->cap_raw_copies : 64;
		rep->raw_copies = xreallocarray(rep->raw_copies, rep->cap_raw_copies,
						sizeof(*rep->raw_copies));
	}
	rep->raw_copies[rep->nr_raw_copies++] = copy;
	e->raw = copy;
}
