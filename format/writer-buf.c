/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/writer-buf.c - the growable output buffer of writer-int.h.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/writer-int.h"

/*
 * perf pads every header string to this (NAME_ALIGN,
 * doc/perf-data-format.md §4.2)
 */
#define STRING_ALIGN	64

static unsigned char *
wbuf_grow(struct pd_wbuf *b, size_t n)
{
	size_t cap;
	unsigned char *p;

	if (b->nomem)
		return NULL;
	if (n > SIZE_MAX - b->len) {
		b->nomem = true;
		return NULL;
	}
	if (b->len + n > b->cap) {
		cap = b->cap ? b->cap : 256;
		while (cap < b->len + n) {
			if (cap > SIZE_MAX / 2) {
				cap = b->len + n;
				break;
			}
			cap *= 2;
		}
		p = realloc(b->p, cap);
		if (!p) {
			b->nomem = true;
			return NULL;
		}
		b->p = p;
		b->cap = cap;
	}
	p = b->p + b->len;
	b->len += n;
	return p;
}

void
pd_wbuf_bytes(struct pd_wbuf *b, const void *src, size_t n)
{
	unsigned char *p = wbuf_grow(b, n);

	if (p && n)
		memcpy(p, src, n);
}

void
pd_wbuf_zeros(struct pd_wbuf *b, size_t n)
{
	unsigned char *p = wbuf_grow(b, n);

	if (p && n)
		memset(p, 0, n);
}

void
pd_wbuf_u8(struct pd_wbuf *b, uint8_t v)
{
	pd_wbuf_bytes(b, &v, sizeof(v));
}

void
pd_wbuf_u16(struct pd_wbuf *b, uint16_t v)
{
	pd_wbuf_bytes(b, &v, sizeof(v));
}

void
pd_wbuf_u32(struct pd_wbuf *b, uint32_t v)
{
	pd_wbuf_bytes(b, &v, sizeof(v));
}

void
pd_wbuf_u64(struct pd_wbuf *b, uint64_t v)
{
	pd_wbuf_bytes(b, &v, sizeof(v));
}

void
pd_wbuf_string(struct pd_wbuf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	size_t padded;

	if (n > UINT32_MAX - STRING_ALIGN) {
		b->nomem = true;
		return;
	}
	padded = (n + 1 + STRING_ALIGN - 1) / STRING_ALIGN * STRING_ALIGN;
	pd_wbuf_u32(b, (uint32_t)padded);
	pd_wbuf_bytes(b, s ? s : "", n);
	pd_wbuf_zeros(b, padded - n);
}

void
pd_wbuf_free(struct pd_wbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}
