/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/synth-buf.c - a growable buffer for one synthesised record.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "lib/xalloc.h"
#include "record/synth-int.h"

void
rec_buf_put(struct rec_buf *b, const void *src, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, src, n);
	b->len += n;
}

void
rec_buf_zero(struct rec_buf *b, size_t n)
{
	static const unsigned char z[64];

	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);

		rec_buf_put(b, z, k);
		n -= k;
	}
}

void
rec_buf_u16(struct rec_buf *b, uint16_t v)
{
	rec_buf_put(b, &v, sizeof(v));
}

void
rec_buf_u32(struct rec_buf *b, uint32_t v)
{
	rec_buf_put(b, &v, sizeof(v));
}

void
rec_buf_u64(struct rec_buf *b, uint64_t v)
{
	rec_buf_put(b, &v, sizeof(v));
}

void
rec_buf_start(struct rec_buf *b, uint32_t type, uint16_t misc)
{
	struct pd_event_header h = { .type = type, .misc = misc };

	b->len = 0;
	rec_buf_put(b, &h, sizeof(h));
}

void
rec_buf_align(struct rec_buf *b)
{
	rec_buf_zero(b, (8 - b->len % 8) % 8);
}

void
rec_buf_str(struct rec_buf *b, const char *s, size_t len)
{
	size_t padded = (len + 1 + 7) & ~(size_t)7;

	rec_buf_put(b, s, len);
	rec_buf_zero(b, padded - len);
}

int
rec_buf_emit(struct rec_buf *b, const struct rec_synth_opts *o,
	     rec_emit_fn emit, void *ctx)
{
	struct pd_event_header h;

	rec_buf_zero(b, o ? rec_synth_id_hdr_size(o->attr) : 0);
	if (b->len > PD_RECORD_MAX_SIZE)
		return -E2BIG;
	memcpy(&h, b->p, sizeof(h));
	h.size = (uint16_t)b->len;
	memcpy(b->p, &h, sizeof(h));
	return emit(ctx, b->p, b->len);
}
