/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/cursor.h - a bounded, byte-order-aware reader over untrusted bytes.
 *
 * Every read checks the remaining length.  A read past the end sets the
 * sticky short_read flag and returns 0; later reads return 0 too, so a
 * decoder reads its fields like the man page describes them and checks
 * short_read once at the end.  Bytes may be unaligned: records after a
 * COMPRESSED record or a pipe-mode HEADER_FEATURE start at any offset.
 */
#ifndef PD_FORMAT_CURSOR_H
#define PD_FORMAT_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct pd_cursor {
	const unsigned char *start;
	const unsigned char *p;
	const unsigned char *end;
	bool swap;		/* file byte order differs from the host's */
	bool short_read;	/* a read ran past end */
};

static inline void
cur_init(struct pd_cursor *c, const void *buf, size_t len, bool swap)
{
	c->start = buf;
	c->p = buf;
	c->end = c->p + len;
	c->swap = swap;
	c->short_read = false;
}

static inline size_t
cur_left(const struct pd_cursor *c)
{
	return c->short_read ? 0 : (size_t)(c->end - c->p);
}

static inline size_t
cur_pos(const struct pd_cursor *c)
{
	return (size_t)(c->p - c->start);
}

static inline bool
cur_need(struct pd_cursor *c, size_t n)
{
	if (c->short_read || (size_t)(c->end - c->p) < n) {
		c->short_read = true;
		return false;
	}
	return true;
}

static inline uint8_t
cur_u8(struct pd_cursor *c)
{
	if (!cur_need(c, 1))
		return 0;
	return *c->p++;
}

static inline uint16_t
cur_u16(struct pd_cursor *c)
{
	uint16_t v;

	if (!cur_need(c, sizeof(v)))
		return 0;
	memcpy(&v, c->p, sizeof(v));
	c->p += sizeof(v);
	return c->swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t
cur_u32(struct pd_cursor *c)
{
	uint32_t v;

	if (!cur_need(c, sizeof(v)))
		return 0;
	memcpy(&v, c->p, sizeof(v));
	c->p += sizeof(v);
	return c->swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t
cur_u64(struct pd_cursor *c)
{
	uint64_t v;

	if (!cur_need(c, sizeof(v)))
		return 0;
	memcpy(&v, c->p, sizeof(v));
	c->p += sizeof(v);
	return c->swap ? __builtin_bswap64(v) : v;
}

static inline uint64_t
cur_u64_if(struct pd_cursor *c, uint64_t mask, uint64_t bit)
{
	return (mask & bit) ? cur_u64(c) : 0;
}

/* Returns a pointer to n bytes in place (NULL on a short read) and skips them. */
static inline const unsigned char *
cur_bytes(struct pd_cursor *c, size_t n)
{
	const unsigned char *p;

	if (!cur_need(c, n))
		return NULL;
	p = c->p;
	c->p += n;
	return p;
}

static inline void
cur_copy(struct pd_cursor *c, void *dst, size_t n)
{
	const unsigned char *p = cur_bytes(c, n);

	if (p)
		memcpy(dst, p, n);
	else
		memset(dst, 0, n);
}

static inline void
cur_skip(struct pd_cursor *c, size_t n)
{
	(void)cur_bytes(c, n);
}

/* Load helpers for fixed offsets in a buffer already known to be long enough. */
static inline uint64_t
pd_load_u64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap64(v) : v;
}

static inline uint32_t
pd_load_u32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint16_t
pd_load_u16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap16(v) : v;
}

#endif /* PD_FORMAT_CURSOR_H */
