/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * record/synth-buf.c - one synthesised record in a pd_wbuf: its header,
 * padding and emission.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "record/synth-int.h"

void
rec_buf_start(struct pd_wbuf *b, uint32_t type, uint16_t misc)
{
	struct pd_event_header h = { .type = type, .misc = misc };

	b->len = 0;
	pd_wbuf_bytes(b, &h, sizeof(h));
}

void
rec_buf_align(struct pd_wbuf *b)
{
	pd_wbuf_zeros(b, (8 - b->len % 8) % 8);
}

void
rec_buf_str(struct pd_wbuf *b, const char *s, size_t len)
{
	size_t padded = (len + 1 + 7) & ~(size_t)7;

	pd_wbuf_bytes(b, s, len);
	pd_wbuf_zeros(b, padded - len);
}

int
rec_buf_emit(struct pd_wbuf *b, const struct rec_synth_opts *o,
	     rec_emit_fn emit, void *ctx)
{
	struct pd_event_header h;

	pd_wbuf_zeros(b, o ? rec_synth_id_hdr_size(o->attr) : 0);
	if (b->nomem)
		return -ENOMEM;
	if (b->len > PD_RECORD_MAX_SIZE)
		return -E2BIG;
	memcpy(&h, b->p, sizeof(h));
	h.size = (uint16_t)b->len;
	memcpy(b->p, &h, sizeof(h));
	return emit(ctx, b->p, b->len);
}
