/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * symbol/archive-inline-codec.c - the inline frames table of an archive
 * entry's payload (doc/symbol-archive.md, "Inline frames"), after its
 * call frame information: for each address a report expanded, its
 * frames' names and source lines, as length-prefixed strings (zstd
 * takes care of their repeats).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbol/archive-int.h"

/* a frame's strings are at most this long, as a path or a C++ name */
#define INL_STRING_MAX		65536

static void
put_string(struct ar_buf *out, const char *s, bool own)
{
	size_t n = s ? strlen(s) : 0;

	ar_buf_uv(out, own ? 0 : n + 1);
	ar_buf_add(out, s, n);
}

void
ar_inline_encode(const struct sym_ar_inlines *t, struct ar_buf *out)
{
	uint64_t prev = 0;

	ar_buf_uv(out, t->nr_addrs);
	for (size_t i = 0; i < t->nr_addrs; i++) {
		const struct sym_ar_inline *a = &t->addrs[i];

		ar_buf_uv(out, a->addr - prev - (i ? 1 : 0));
		prev = a->addr;
		ar_buf_uv(out, a->nr);
		for (uint32_t k = 0; k < a->nr; k++) {
			const struct sym_ar_inline_frame *f =
				&t->frames[a->first + k];

			put_string(out, f->name, !f->name);
			put_string(out, f->srcline, false);
		}
	}
}

static int
inl_fail(char *why, size_t whysz, const struct ar_rd *r,
	 const unsigned char *base, const char *what)
{
	snprintf(why, whysz, "payload offset %zu: inline frames: %s",
		 (size_t)(r->p - base), what);
	return -EINVAL;
}

/*
 * One pass over the table: with t NULL, counts frames and text bytes
 * and checks every rule; with t, fills it (text at *text).
 */
static const char *
inl_walk(struct ar_rd *r, size_t nr_addrs, struct sym_ar_inlines *t,
	 char **text, size_t *nr_frames, uint64_t *text_bytes)
{
	uint64_t addr = 0, gap, nf, len;

	*nr_frames = 0;
	*text_bytes = 0;
	for (size_t i = 0; i < nr_addrs; i++) {
		gap = ar_rd_uv(r);
		if (i && (gap == UINT64_MAX || addr + gap + 1 <= addr))
			return "addresses out of order";
		addr = i ? addr + gap + 1 : gap;
		nf = ar_rd_uv(r);
		if (r->bad || !nf || nf > ar_rd_left(r) / 2)
			return "bad frame count";
		if (t)
			t->addrs[i] = (struct sym_ar_inline){
				.addr = addr, .first = (uint32_t)*nr_frames,
				.nr = (uint32_t)nf };
		for (uint64_t k = 0; k < 2 * nf; k++) {
			const unsigned char *s;
			char **dst = NULL;

			len = ar_rd_uv(r);
			if (r->bad || len > INL_STRING_MAX ||
			    (k % 2 && !len) || len - !!len > ar_rd_left(r))
				return "a string cut short or too long";
			if (!len)
				continue;
			s = ar_rd_bytes(r, (size_t)(len - 1));
			if (memchr(s, 0, (size_t)(len - 1)))
				return "a string holds a NUL byte";
			*text_bytes += len;
			if (!t)
				continue;
			dst = k % 2 ? (char **)&t->frames[*nr_frames + k / 2]
					       .srcline :
				      (char **)&t->frames[*nr_frames + k / 2]
					       .name;
			memcpy(*text, s, (size_t)(len - 1));
			(*text)[len - 1] = '\0';
			*dst = *text;
			*text += len;
		}
		*nr_frames += (size_t)nf;
	}
	return NULL;
}

int
ar_inline_decode(struct ar_rd *r, const unsigned char *base,
		 uint64_t *budget, struct sym_ar_inlines **out, char *why,
		 size_t whysz)
{
	struct ar_rd probe;
	struct sym_ar_inlines *t;
	size_t nr_addrs, nr_frames;
	uint64_t text, size, n;
	const char *bad;
	char *p;

	*out = NULL;
	n = ar_rd_uv(r);
	if (r->bad || n > ar_rd_left(r) / 3)
		return inl_fail(why, whysz, r, base, "bad address count");
	if (!n)
		return 0;
	nr_addrs = (size_t)n;
	probe = *r;
	bad = inl_walk(&probe, nr_addrs, NULL, NULL, &nr_frames, &text);
	if (bad)
		return inl_fail(why, whysz, &probe, base, bad);
	size = sizeof(*t) + nr_addrs * sizeof(*t->addrs) +
	       nr_frames * sizeof(*t->frames) + text;
	if (size > *budget) {
		snprintf(why, whysz, "inline frames of %" PRIu64 " bytes, "
			 "past the archive's limit", size);
		return -EFBIG;
	}
	t = calloc(1, (size_t)size);
	if (!t)
		return -ENOMEM;
	t->addrs = (struct sym_ar_inline *)(t + 1);
	t->nr_addrs = nr_addrs;
	t->frames = (struct sym_ar_inline_frame *)(t->addrs + nr_addrs);
	t->nr_frames = nr_frames;
	p = (char *)(t->frames + nr_frames);
	inl_walk(r, nr_addrs, t, &p, &nr_frames, &text);
	*budget -= size;
	*out = t;
	return 0;
}
