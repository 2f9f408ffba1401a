/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/attr.h - perf_event_attr images for the unit tests.
 *
 * tb_attr() lays a struct pd_attr out as a writer of the buffer's byte
 * order would (doc/perf-data-format.md §3.3, the bitfield words by
 * §14.4); tattr_expect() says what a reader must make of such an image,
 * and tattr_check() compares two attrs field by field, one check each.
 */
#ifndef PD_TESTS_ATTR_H
#define PD_TESTS_ATTR_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pdata/records.h"
#include "tests/unit/buf.h"
#include "tests/unit/t.h"

/* Every field of perf_event_attr up to PD_ATTR_SIZE_VER9, in file order. */
static const struct tattr_field {
	const char *name;
	size_t off;		/* in the on-disk attr */
	unsigned int width;
	size_t member;		/* in struct pd_attr */
} tattr_fields[] = {
#define TATTR_FIELD(name, off, width)					\
	{ #name, (off), (width), offsetof(struct pd_attr, name) }
	TATTR_FIELD(type, 0, 4),
	TATTR_FIELD(size, 4, 4),
	TATTR_FIELD(config, 8, 8),
	TATTR_FIELD(sample_period, 16, 8),
	TATTR_FIELD(sample_type, 24, 8),
	TATTR_FIELD(read_format, 32, 8),
	TATTR_FIELD(flags, 40, 8),
	TATTR_FIELD(wakeup_events, 48, 4),
	TATTR_FIELD(bp_type, 52, 4),
	TATTR_FIELD(config1, 56, 8),
	TATTR_FIELD(config2, 64, 8),
	TATTR_FIELD(branch_sample_type, 72, 8),
	TATTR_FIELD(sample_regs_user, 80, 8),
	TATTR_FIELD(sample_stack_user, 88, 4),
	TATTR_FIELD(clockid, 92, 4),
	TATTR_FIELD(sample_regs_intr, 96, 8),
	TATTR_FIELD(aux_watermark, 104, 4),
	TATTR_FIELD(sample_max_stack, 108, 2),
	TATTR_FIELD(reserved_2, 110, 2),
	TATTR_FIELD(aux_sample_size, 112, 4),
	TATTR_FIELD(aux_action, 116, 4),
	TATTR_FIELD(sig_data, 120, 8),
	TATTR_FIELD(config3, 128, 8),
	TATTR_FIELD(config4, 136, 8),
#undef TATTR_FIELD
};

static inline uint64_t
tattr_get(const struct pd_attr *a, const struct tattr_field *f)
{
	const char *p = (const char *)a + f->member;
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;

	switch (f->width) {
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	default:
		memcpy(&v64, p, 8);
		return v64;
	}
}

/*
 * The flag word as a writer of b's order lays the bitfield out: every
 * bit a field of its own, reserved ones included, but precise_ip.
 */
static inline uint64_t
tattr_flags_word(const struct tbuf *b, uint64_t le)
{
	unsigned int f[64][2], n = 0, p;

	for (p = 0; p < 64; p++, n++) {
		f[n][0] = p;
		f[n][1] = 1;
		if (p == PD_ATTR_PRECISE_IP)
			f[n][1] = PD_ATTR_PRECISE_IP_WIDTH, p++;
	}
	return tb_bitfield_word(b, le, n, (const unsigned int (*)[2])f);
}

/* aux_action: a 32-bit bitfield word of 1-bit fields, mirrored in BE. */
static inline uint32_t
tattr_aux_action_word(const struct tbuf *b, uint32_t le)
{
	uint32_t out = 0;
	unsigned int p;

	if (!b->big_endian)
		return le;
	for (p = 0; p < 32; p++)
		out |= ((le >> p) & 1U) << (31 - p);
	return out;
}

/*
 * Append attr a as nbytes bytes, size_field in its size field: cut short
 * when nbytes is below the 144 bytes we know, else followed by bytes of
 * fill (junk a reader must ignore, or zeros).
 */
static inline void
tb_attr(struct tbuf *b, const struct pd_attr *a, uint32_t size_field,
	size_t nbytes, unsigned char fill)
{
	struct tbuf t;
	size_t i;

	tb_init(&t, b->big_endian);
	for (i = 0; i < ARRAY_SIZE(tattr_fields); i++) {
		uint64_t v = tattr_get(a, &tattr_fields[i]);

		if (tattr_fields[i].off == 4)
			v = size_field;
		else if (tattr_fields[i].off == 40)
			v = tattr_flags_word(b, v);
		else if (tattr_fields[i].off == 116)
			v = tattr_aux_action_word(b, (uint32_t)v);
		tb_uint(&t, v, tattr_fields[i].width);
	}
	tb_bytes(b, t.p, nbytes < t.len ? nbytes : t.len);
	for (i = t.len; i < nbytes; i++)
		tb_u8(b, fill);
	tb_free(&t);
}

/*
 * What a reader must make of a written with size_field in entry_bytes
 * bytes: the fields both cover, zeros beyond (size 0 means VER0).
 */
static inline struct pd_attr
tattr_expect(const struct pd_attr *a, uint32_t size_field, size_t entry_bytes)
{
	struct pd_attr want = *a;
	size_t used = size_field ? size_field : PD_ATTR_SIZE_VER0, i;

	if (used > entry_bytes)
		used = entry_bytes;
	for (i = 0; i < ARRAY_SIZE(tattr_fields); i++)
		if (tattr_fields[i].off + tattr_fields[i].width > used)
			memset((char *)&want + tattr_fields[i].member, 0,
			       tattr_fields[i].width);
	want.size = size_field;
	return want;
}

static inline void
tattr_check(const struct pd_attr *got, const struct pd_attr *want,
	    const char *what)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tattr_fields); i++) {
		uint64_t g = tattr_get(got, &tattr_fields[i]);
		uint64_t w = tattr_get(want, &tattr_fields[i]);

		T(g == w, "%s: attr.%s: got %#" PRIx64 ", want %#" PRIx64,
		  what, tattr_fields[i].name, g, w);
	}
}

#endif /* PD_TESTS_ATTR_H */
