/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/buf.h - build perf.data byte images in either byte order.
 *
 * A struct tbuf grows as values are appended; each put_* writes its value
 * in the buffer's byte order (big_endian true: as a big-endian writer
 * would).  Tests build every record twice, once per order, and expect the
 * same decoded values.  HOST_BE is the host's order, the one a reader
 * needs no swap for.
 */
#ifndef PD_TESTS_BUF_H
#define PD_TESTS_BUF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef WORDS_BIGENDIAN
#define HOST_BE	true
#else
#define HOST_BE	false
#endif

struct tbuf {
	unsigned char *p;
	size_t len, cap;
	bool big_endian;
};

static inline void
tb_init(struct tbuf *b, bool big_endian)
{
	memset(b, 0, sizeof(*b));
	b->big_endian = big_endian;
}

static inline void
tb_free(struct tbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static inline void
tb_bytes(struct tbuf *b, const void *src, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;

		while (cap < b->len + n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p)
			abort();
		b->cap = cap;
	}
	if (src)
		memcpy(b->p + b->len, src, n);
	else
		memset(b->p + b->len, 0, n);
	b->len += n;
}

static inline void
tb_zeros(struct tbuf *b, size_t n)
{
	tb_bytes(b, NULL, n);
}

static inline void
tb_uint(struct tbuf *b, uint64_t v, unsigned int width)
{
	unsigned char tmp[8];
	unsigned int i;

	for (i = 0; i < width; i++) {
		unsigned int shift = b->big_endian ? 8 * (width - 1 - i) : 8 * i;

		tmp[i] = (unsigned char)(v >> shift);
	}
	tb_bytes(b, tmp, width);
}

static inline void tb_u8(struct tbuf *b, uint8_t v) { tb_uint(b, v, 1); }
static inline void tb_u16(struct tbuf *b, uint16_t v) { tb_uint(b, v, 2); }
static inline void tb_u32(struct tbuf *b, uint32_t v) { tb_uint(b, v, 4); }
static inline void tb_u64(struct tbuf *b, uint64_t v) { tb_uint(b, v, 8); }

/* The width-byte value at p, in the given byte order. */
static inline uint64_t
tb_get_uint(const unsigned char *p, unsigned int width, bool big_endian)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < width; i++)
		v = (v << 8) | p[big_endian ? i : width - 1 - i];
	return v;
}

/* A value written earlier at offset at, read back in b's byte order. */
static inline uint64_t
tb_load(const struct tbuf *b, size_t at, unsigned int width)
{
	return tb_get_uint(b->p + at, width, b->big_endian);
}

/* Append v if t has bit: the fields of a layout chosen by sample_type. */
static inline void
tb_u64_if(struct tbuf *b, uint64_t t, uint64_t bit, uint64_t v)
{
	if (t & bit)
		tb_u64(b, v);
}

/* Overwrite a value written earlier (e.g. a size known only at the end). */
static inline void
tb_patch(struct tbuf *b, size_t at, uint64_t v, unsigned int width)
{
	size_t len = b->len;

	b->len = at;
	tb_uint(b, v, width);
	b->len = len;
}

/* A string zero-padded to a multiple of align (NUL included). */
static inline void
tb_str_padded(struct tbuf *b, const char *s, size_t align)
{
	size_t n = strlen(s) + 1;
	size_t padded = (n + align - 1) / align * align;

	tb_bytes(b, s, n - 1);
	tb_zeros(b, padded - (n - 1));
}

/* A perf_header_string: u32 len then the string padded to 64 (perf's rule). */
static inline void
tb_header_string(struct tbuf *b, const char *s)
{
	size_t padded = (strlen(s) + 1 + 63) / 64 * 64;

	tb_u32(b, (uint32_t)padded);
	tb_str_padded(b, s, 64);
}

/*
 * A record header; returns its offset so the size can be patched with
 * tb_end_record() once the body is written.
 */
static inline size_t
tb_begin_record(struct tbuf *b, uint32_t type, uint16_t misc)
{
	size_t at = b->len;

	tb_u32(b, type);
	tb_u16(b, misc);
	tb_u16(b, 0);
	return at;
}

static inline void
tb_end_record(struct tbuf *b, size_t at)
{
	tb_patch(b, at + 6, b->len - at, 2);
}

/*
 * The 8-byte attr flags word as a writer of this byte order lays out the
 * bitfield: a field at little-endian bit p, width w, moves to bit
 * 64 - p - w of the big-endian word (doc/perf-data-format.md §14.4).
 */
static inline uint64_t
tb_bitfield_word(const struct tbuf *b, uint64_t le_value, unsigned int nfields,
		 const unsigned int (*fields)[2])
{
	uint64_t out = 0;
	unsigned int i;

	if (!b->big_endian)
		return le_value;
	for (i = 0; i < nfields; i++) {
		unsigned int p = fields[i][0], w = fields[i][1];
		uint64_t mask = (w == 64) ? ~0ULL : ((1ULL << w) - 1);
		uint64_t v = (le_value >> p) & mask;

		out |= v << (64 - p - w);
	}
	return out;
}

#endif /* PD_TESTS_BUF_H */
