/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * script/out.c - pscript's output: one buffer, written with write(2) in
 * blocks of SCR_OUT_BLOCK bytes, and the few number formats every line
 * uses, without the cost of printf.
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
#include <unistd.h>

#include "lib/xalloc.h"
#include "script/scr.h"

#define SCR_OUT_BLOCK	(1u << 20)

void
scr_out_init(struct scr_out *o, int fd)
{
	memset(o, 0, sizeof(*o));
	o->fd = fd;
	o->cap = 2 * SCR_OUT_BLOCK;
	o->buf = xmalloc(o->cap);
}

void
scr_out_free(struct scr_out *o)
{
	free(o->buf);
	o->buf = NULL;
	o->cap = o->len = 0;
}

bool
scr_out_flush(struct scr_out *o)
{
	size_t done = 0;

	while (done < o->len && !o->broken) {
		ssize_t n = write(o->fd, o->buf + done, o->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			o->broken = true;
			if (errno != EPIPE)
				o->err = errno;
			break;
		}
		done += (size_t)n;
	}
	o->len = 0;
	o->flushes++;
	return !o->broken;
}

void
scr_out_grow(struct scr_out *o, size_t need)
{
	if (o->len >= SCR_OUT_BLOCK)
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
