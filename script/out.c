/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * script/out.c - pscript's output: one buffer, written with writev(2) in
 * blocks of about SCR_OUT_BLOCK bytes, and the few number formats every
 * line uses, without the cost of printf.  A long text kept elsewhere (a
 * stack's, printed again for each sample of that stack) goes into the
 * block as a reference, so that its bytes are copied once, by the
 * kernel, not twice.
 *
 * A reader that goes away (pscript | head) is not an error: the first
 * EPIPE marks the output broken and everything after it is dropped.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "script/scr.h"

#define SCR_OUT_BLOCK	(1u << 20)
/* the buffer's first size: it doubles as text comes, to a block and more */
#define SCR_OUT_FIRST	(4u << 10)
/* pieces a block holds (under IOV_MAX, 1024 on Linux) */
#define SCR_OUT_PIECES	1000
/* a shorter kept text is copied: a piece costs more than the copy */
#define SCR_OUT_REF_MIN	256

void
scr_out_init(struct scr_out *o, int fd)
{
	memset(o, 0, sizeof(*o));
	o->fd = fd;
	o->cap = SCR_OUT_FIRST;
	o->buf = xmalloc(o->cap);
}

void
scr_out_free(struct scr_out *o)
{
	free(o->buf);
	free(o->pieces);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}

/* the pieces and the rest of buf as iov[]; how many */
static int
out_iov(const struct scr_out *o, struct iovec *iov)
{
	size_t i;
	int n = 0;

	for (i = 0; i < o->nr_pieces; i++) {
		const struct scr_out_piece *p = &o->pieces[i];

		iov[n].iov_base = (void *)(p->ref ? p->ref : o->buf + p->off);
		iov[n++].iov_len = p->len;
	}
	if (o->len > o->mark) {
		iov[n].iov_base = o->buf + o->mark;
		iov[n++].iov_len = o->len - o->mark;
	}
	return n;
}

/* iov[0..nr) less its first done bytes */
static int
iov_skip(struct iovec *iov, int nr, size_t done, struct iovec **first)
{
	while (nr > 0 && done >= iov->iov_len) {
		done -= iov->iov_len;
		iov++;
		nr--;
	}
	if (nr > 0) {
		iov->iov_base = (char *)iov->iov_base + done;
		iov->iov_len -= done;
	}
	*first = iov;
	return nr;
}

static void
out_writev(struct scr_out *o, struct iovec *iov, int nr)
{
	while (nr > 0 && !o->broken) {
		ssize_t n = writev(o->fd, iov, nr);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			o->broken = true;
			if (errno != EPIPE)
				o->err = errno;
			break;
		}
		nr = iov_skip(iov, nr, (size_t)n, &iov);
	}
}

bool
scr_out_flush(struct scr_out *o)
{
	struct iovec iov[SCR_OUT_PIECES + 1];

	out_writev(o, iov, out_iov(o, iov));
	o->len = o->mark = 0;
	o->nr_pieces = 0;
	o->ref_bytes = 0;
	o->flushes++;
	return !o->broken;
}

static void
add_piece(struct scr_out *o, const char *ref, size_t off, size_t len)
{
	if (!o->pieces)
		o->pieces = xreallocarray(NULL, SCR_OUT_PIECES,
					  sizeof(*o->pieces));
	o->pieces[o->nr_pieces++] = (struct scr_out_piece){
		.ref = ref, .off = off, .len = len
	};
}

void
scr_out_ref(struct scr_out *o, const char *text, size_t n)
{
	if (n < SCR_OUT_REF_MIN) {
		scr_out_add(o, text, n);
		return;
	}
	if (o->nr_pieces + 2 > SCR_OUT_PIECES ||
	    o->len + o->ref_bytes >= SCR_OUT_BLOCK)
		scr_out_flush(o);
	if (o->len > o->mark)
		add_piece(o, NULL, o->mark, o->len - o->mark);
	add_piece(o, text, 0, n);
	o->mark = o->len;
	o->ref_bytes += n;
}

void
scr_out_grow(struct scr_out *o, size_t need)
{
	if (o->len + o->ref_bytes >= SCR_OUT_BLOCK)
		scr_out_flush(o);
	if (o->cap - o->len >= need)
		return;
	while (o->cap - o->len < need)
		o->cap *= 2;
	o->buf = xrealloc(o->buf, o->cap);
}

void
scr_out_printf(struct scr_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(scr_out_room(o, 256), 256, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= 256) {
		va_start(ap, fmt);
		vsnprintf(scr_out_room(o, (size_t)n + 1), (size_t)n + 1, fmt,
			  ap);
		va_end(ap);
	}
	o->len += (size_t)n;
}

void
scr_out_pad(struct scr_out *o, const char *s, unsigned int width)
{
	size_t n = strlen(s);
	char *p;

	if (n < width) {
		p = scr_out_room(o, width - n);
		memset(p, ' ', width - n);
		o->len += width - n;
	}
	scr_out_add(o, s, n);
}

/* digits of v (at most 20) right-aligned in tmp; returns the first */
static char *
fmt_digits(char *end, uint64_t v, unsigned int base)
{
	static const char hex[] = "0123456789abcdef";
	char *p = end;

	do {
		*--p = hex[v % base];
		v /= base;
	} while (v);
	return p;
}

static void
put_num(struct scr_out *o, const char *p, size_t n, bool neg,
	unsigned int width, bool left)
{
	size_t len = n + neg, pad = width > len ? width - len : 0;
	char *d = scr_out_room(o, len + pad);

	if (!left) {
		memset(d, ' ', pad);
		d += pad;
	}
	if (neg)
		*d++ = '-';
	memcpy(d, p, n);
	d += n;
	if (left)
		memset(d, ' ', pad);
	o->len += len + pad;
}

void
scr_out_hex(struct scr_out *o, uint64_t v, unsigned int width)
{
	char tmp[24], *p = fmt_digits(tmp + sizeof(tmp), v, 16);

	put_num(o, p, (size_t)(tmp + sizeof(tmp) - p), false, width, false);
}

void
scr_out_u64(struct scr_out *o, uint64_t v, unsigned int width, bool left)
{
	char tmp[24], *p = fmt_digits(tmp + sizeof(tmp), v, 10);

	put_num(o, p, (size_t)(tmp + sizeof(tmp) - p), false, width, left);
}

void
scr_out_s64(struct scr_out *o, int64_t v, unsigned int width, bool left)
{
	uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	char tmp[24], *p = fmt_digits(tmp + sizeof(tmp), m, 10);

	put_num(o, p, (size_t)(tmp + sizeof(tmp) - p), v < 0, width, left);
}
