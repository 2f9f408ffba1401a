/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/sample-int.h - pieces of the sample decoder that the decoders of
 * other records share.
 */
#ifndef PD_FORMAT_SAMPLE_INT_H
#define PD_FORMAT_SAMPLE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "format/compiler.h"
#include "format/cursor.h"
#include "pdata/sample.h"

/*
 * Where a decoder explains its first failure: the field, its offset in
 * the record and why (pd_sample_explain(), pd_event_explain()).  The
 * decoders take a NULL sink on the fast path and tell only where they
 * have already found a failure, so the sink costs a decode nothing.
 */
struct pd_why {
	char *buf;		/* snprintf(3) rules; NULL when size is 0 */
	size_t size;
	const unsigned char *rec;	/* byte 0 of the record */
	size_t len;		/* the whole text's length */
	bool told;		/* later failures follow from it: untold */
};

/* Tell why in printf style; w may be NULL.  Returns err. */
int pd_why_fail(struct pd_why *w, int err, const char *fmt, ...)
	PD_PRINTF(3, 4);

/*
 * "FIELD: NEED bytes at byte AT of the record, but LEFT are left", for a
 * field of need bytes that does not fit at the cursor.  Returns err.
 */
int pd_why_short(struct pd_why *w, const struct pd_cursor *c, int err,
		 const char *field, uint64_t need);

/*
 * "FIELD: NR UNIT need NR * EACH bytes at byte AT of the record, but LEFT
 * are left", for a count whose items do not fit at the cursor.
 */
int pd_why_count(struct pd_why *w, const struct pd_cursor *c, int err,
		 const char *field, uint64_t nr, const char *unit,
		 uint64_t each);

/*
 * Take a view of nr u64 values, or of len bytes, from the cursor.  A count
 * that does not fit in what is left sets short_read and leaves the view
 * empty: nothing past the end is ever pointed at.
 */
static inline bool
pd_take_u64s(struct pd_cursor *c, uint64_t nr, struct pd_u64_array *out)
{
	out->swap = c->swap;
	out->nr = 0;
	out->p = NULL;
	if (nr > cur_left(c) / 8) {
		c->short_read = true;
		return false;
	}
	out->nr = (size_t)nr;
	out->p = nr ? cur_bytes(c, out->nr * 8) : NULL;
	return !c->short_read;
}

static inline bool
pd_take_bytes(struct pd_cursor *c, uint64_t len, struct pd_bytes *out)
{
	out->len = 0;
	out->p = NULL;
	if (len > cur_left(c)) {
		c->short_read = true;
		return false;
	}
	out->len = (size_t)len;
	out->p = len ? cur_bytes(c, out->len) : NULL;
	return !c->short_read;
}

/*
 * Read a read_format block (SAMPLE's READ field, or the body of
 * PERF_RECORD_READ).  Returns false when it does not fit; then c is left
 * with short_read set and why, if not NULL, told which field failed.
 */
bool pd_read_parse(struct pd_cursor *c, uint64_t read_format,
		   struct pd_read *out, struct pd_why *why);

/*
 * Decode the sample_id trailer that ends rec's len bytes at buf; the
 * caller has checked that len covers header and trailer.
 */
void pd_sample_id_parse_trailer(const unsigned char *buf, size_t len,
				bool swap, uint64_t sample_type,
				struct pd_sample_id *out);

#endif /* PD_FORMAT_SAMPLE_INT_H */
