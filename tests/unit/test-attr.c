/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-attr.c - struct perf_event_attr of every ABI size, in
 * both byte orders, to and from struct pd_attr; and the event names perf
 * derives from an attr.
 */
#include "config.h"

#include <string.h>

#include "pdata/bitfield.h"
#include "pdata/errors.h"
#include "pdata/records.h"
#include "tests/unit/attr.h"
#include "tests/unit/buf.h"
#include "tests/unit/t.h"

static const uint32_t abi_sizes[] = {
	PD_ATTR_SIZE_VER0, PD_ATTR_SIZE_VER1, PD_ATTR_SIZE_VER2,
	PD_ATTR_SIZE_VER3, PD_ATTR_SIZE_VER4, PD_ATTR_SIZE_VER5,
	PD_ATTR_SIZE_VER6, PD_ATTR_SIZE_VER7, PD_ATTR_SIZE_VER8,
	PD_ATTR_SIZE_VER9, 160,
};

static struct pd_attr
sample_attr(void)
{
	struct pd_attr a = {
		.type = 8,
		.config = 0x1122334455667788ULL,
		.sample_period = 4000,
		.sample_type = 0x1ffffff,
		.read_format = 0x1f,
		.flags = (1ULL << PD_ATTR_DISABLED) | (1ULL << PD_ATTR_FREQ) |
			 (2ULL << PD_ATTR_PRECISE_IP) |
			 (1ULL << PD_ATTR_SAMPLE_ID_ALL) |
			 (1ULL << PD_ATTR_EXCLUDE_GUEST) | (1ULL << PD_ATTR_MMAP2) |
			 (1ULL << PD_ATTR_DEFER_OUTPUT),
		.wakeup_events = 0xa1a2a3a4,
		.bp_type = 0xb1b2b3b4,
		.config1 = 0xc1c2c3c4c5c6c7c8ULL,
		.config2 = 0xd1d2d3d4d5d6d7d8ULL,
		.branch_sample_type = 0xfffff,
		.sample_regs_user = 0xff0fff,
		.sample_stack_user = 65528,
		.clockid = -7,
		.sample_regs_intr = 0x1ffffffffULL,
		.aux_watermark = 0x12345,
		.sample_max_stack = 127,
		.reserved_2 = 0xbeef,
		.aux_sample_size = 0x4242,
		.aux_action = PD_AUX_PAUSE | PD_AUX_RESUME,
		.sig_data = 0x5151515151515151ULL,
		.config3 = 0x3333,
		.config4 = 0x4444,
	};

	return a;
}

/* Lay a out in size bytes of the given order and decode it back. */
static int
attr_roundtrip(const struct pd_attr *a, uint32_t size, bool be,
	       struct pd_attr *got)
{
	struct tbuf b;
	int rc;

	tb_init(&b, be);
	tb_attr(&b, a, size, size, 0);
	rc = pd_attr_decode(b.p, b.len, be, got);
	tb_free(&b);
	return rc;
}

static void
test_sizes(bool be)
{
	struct pd_attr a = sample_attr();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(abi_sizes); i++) {
		uint32_t size = abi_sizes[i];
		struct pd_attr got, want = tattr_expect(&a, size, size);
		struct tbuf b;
		char what[64];

		snprintf(what, sizeof(what), "%s size %u", be ? "BE" : "LE", size);
		tb_init(&b, be);
		tb_attr(&b, &a, size, size, 0);
		T(pd_attr_decode(b.p, b.len, be, &got) == 0, "%s: decode", what);
		tattr_check(&got, &want, what);
		/* an entry longer than the attr's own size: only size bytes count */
		tb_zeros(&b, 24);
		memset(b.p + size, 0xff, 24);
		T(pd_attr_decode(b.p, b.len, be, &got) == 0, "%s: decode, padded", what);
		tattr_check(&got, &want, what);
		tb_free(&b);
	}
}

static void
test_each_flag(bool be)
{
	unsigned int p;

	for (p = 0; p < 64; p++) {
		struct pd_attr a = { .type = 1 }, got;
		uint64_t want = p == PD_ATTR_PRECISE_IP + 1 ? 2ULL << PD_ATTR_PRECISE_IP :
				1ULL << p;

		/* bits 40..63 are reserved: they are 1-bit fields too */
		a.flags = want;
		T(attr_roundtrip(&a, PD_ATTR_SIZE_VER7, be, &got) == 0,
		  "flag %u: decode", p);
		T_EQ_U64(got.flags, want, be ? "BE flag" : "LE flag");
	}
}

static void
test_precise_ip(bool be)
{
	unsigned int level;

	for (level = 0; level < 4; level++) {
		struct pd_attr a = { .type = 0 }, got;

		a.flags = (uint64_t)level << PD_ATTR_PRECISE_IP | 1ULL << PD_ATTR_SAMPLE_ID_ALL;
		T(attr_roundtrip(&a, PD_ATTR_SIZE_VER5, be, &got) == 0,
		  "precise_ip %u", level);
		T(pd_attr_precise_ip(&got) == level, "%s precise_ip %u read as %u",
		  be ? "BE" : "LE", level, pd_attr_precise_ip(&got));
		T(pd_attr_has(&got, PD_ATTR_SAMPLE_ID_ALL), "sample_id_all beside precise_ip");
	}
}

static void
test_bad(void)
{
	unsigned char buf[PD_ATTR_SIZE_MAX] = { 0 };
	struct pd_attr got;

	T(pd_attr_decode(buf, PD_ATTR_SIZE_VER0 - 1, false, &got) == -PD_E_BAD_ATTR,
	  "fewer than 64 bytes");
	buf[4] = 32;	/* attr.size 32 */
	T(pd_attr_decode(buf, sizeof(buf), false, &got) == -PD_E_BAD_ATTR,
	  "attr.size 32");
	buf[4] = 0;	/* size 0: the oldest files, 64 bytes */
	buf[0] = 3;
	T(pd_attr_decode(buf, PD_ATTR_SIZE_VER0, false, &got) == 0, "attr.size 0");
	T(got.type == 3 && got.size == 0, "attr.size 0: type and size");
	/* attr.size larger than what the file holds: what is there counts */
	buf[4] = (unsigned char)PD_ATTR_SIZE_VER7;
	memset(buf + 72, 0xaa, 8);	/* branch_sample_type, beyond len */
	T(pd_attr_decode(buf, PD_ATTR_SIZE_VER1, false, &got) == 0, "short entry");
	T(got.branch_sample_type == 0, "bytes past the entry are not read");
}

static void
test_encode_roundtrip(void)
{
	struct pd_attr a = sample_attr(), got;
	unsigned char buf[PD_ATTR_SIZE_MAX];
	size_t i;

	for (i = 0; i + 1 < ARRAY_SIZE(abi_sizes); i++) {
		struct pd_attr want = tattr_expect(&a, abi_sizes[i], abi_sizes[i]);

		pd_attr_encode(&a, abi_sizes[i], buf);
		T(pd_attr_decode(buf, abi_sizes[i], false, &got) == 0, "encode %u", abi_sizes[i]);
		tattr_check(&got, &want, "encode/decode");
	}
}

struct name_case {
	uint32_t type;
	uint64_t config;
	uint64_t flags;
	const char *want;
};

#define EXCL(f)	(1ULL << PD_ATTR_EXCLUDE_##f)
#define PREC(n)	((uint64_t)(n) << PD_ATTR_PRECISE_IP)

/* Names and modifiers as perf 6.1 prints them (checked against fixtures). */
static const struct name_case names[] = {
	{ PD_TYPE_HARDWARE, 0, 0, "cycles:HG" },
	{ PD_TYPE_HARDWARE, 0, EXCL(GUEST), "cycles" },
	{ PD_TYPE_HARDWARE, 0, PREC(3), "cycles:ppp" },
	{ PD_TYPE_HARDWARE, 0, PREC(3) | EXCL(GUEST), "cycles:pppH" },
	{ PD_TYPE_HARDWARE, 0, EXCL(KERNEL) | EXCL(HV) | EXCL(GUEST), "cycles:uH" },
	{ PD_TYPE_HARDWARE, 0, EXCL(USER) | EXCL(HV) | EXCL(GUEST), "cycles:kH" },
	{ PD_TYPE_HARDWARE, 1, EXCL(HOST), "instructions:G" },
	{ PD_TYPE_HARDWARE, 4, PREC(2), "branches:pp" },
	{ PD_TYPE_HARDWARE, 9, EXCL(GUEST), "ref-cycles" },
	{ PD_TYPE_HARDWARE, 42, EXCL(GUEST), "unknown-hardware" },
	{ PD_TYPE_HARDWARE, 0x400000000ULL, PREC(3), "cpu/cycles/:ppp" },
	{ PD_TYPE_SOFTWARE, 0, 0, "cpu-clock:HG" },
	{ PD_TYPE_SOFTWARE, 0, PREC(3), "cpu-clock:ppp" },
	{ PD_TYPE_SOFTWARE, 9, 0, "dummy:HG" },
	{ PD_TYPE_SOFTWARE, 10, EXCL(GUEST), "unknown-software" },
	{ PD_TYPE_HW_CACHE, 0x10000, EXCL(GUEST), "L1-dcache-load-misses" },
	{ PD_TYPE_HW_CACHE, 0x0, EXCL(GUEST), "L1-dcache-loads" },
	{ PD_TYPE_HW_CACHE, 0x10103, EXCL(GUEST), "dTLB-store-misses" },
	{ PD_TYPE_HW_CACHE, 0x104, EXCL(GUEST), "invalid-cache" },
	{ PD_TYPE_HW_CACHE, 0x7, EXCL(GUEST), "unknown-ext-hardware-cache-type" },
	{ PD_TYPE_RAW, 0xc4, EXCL(GUEST), "raw 0xc4" },
	{ PD_TYPE_RAW, 0x1cd, PREC(2), "raw 0x1cd:pp" },
	{ PD_TYPE_TRACEPOINT, 0x2f, 0, "unknown tracepoint" },
	{ 8, 0x4000, 0, "unknown attr type: 8" },
};

static void
test_names(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct pd_attr a = { .type = names[i].type, .config = names[i].config,
				     .flags = names[i].flags };
		char buf[128];

		pd_attr_default_name(&a, buf, sizeof(buf));
		T_EQ_STR(buf, names[i].want, "derived name");
	}
}

static void
test_breakpoint_name(void)
{
	struct pd_attr a = { .type = PD_TYPE_BREAKPOINT, .config1 = 0x1234,
			     .bp_type = 3, .flags = EXCL(GUEST) };
	char buf[128], tiny[8];

	pd_attr_default_name(&a, buf, sizeof(buf));
	T_EQ_STR(buf, "mem:0x1234:rw", "breakpoint name");
	T(pd_attr_default_name(&a, tiny, sizeof(tiny)) < sizeof(tiny), "a small buffer");
	T(strlen(tiny) < sizeof(tiny), "a small buffer stays terminated");
}

/* pd_bitfield_move(), which attrs and branch entries share */
static void
test_bitfield(void)
{
	static const struct pd_bitfield two[] = {
		{ .shift = 15, .width = 2 },
	};
	static const struct pd_bitfield all[] = {
		{ .shift = 0, .width = 64 },
	};
	uint64_t w = 0x0123456789abcdefULL;
	unsigned int k;

	/* one-bit flags: bit p and bit nbits - 1 - p trade places */
	T_EQ_U64(pd_bitfield_from_be(1ULL << 63, 64, NULL, 0), 1, "bit 63");
	T_EQ_U64(pd_bitfield_to_be(1, 64, NULL, 0), 1ULL << 63, "bit 0");
	T_EQ_U64(pd_bitfield_from_be(1U << 31, 32, NULL, 0), 1, "u32 bit 31");
	T_EQ_U64(pd_bitfield_from_be(1ULL << 40, 32, NULL, 0), 0,
		 "u32: bits past nbits dropped");
	/* a 2-bit field keeps its value: LE 15..16 is BE 47..48 */
	T_EQ_U64(pd_bitfield_from_be(2ULL << 47, 64, two, 1), 2ULL << 15,
		 "2-bit field from BE");
	T_EQ_U64(pd_bitfield_to_be(2ULL << 15, 64, two, 1), 2ULL << 47,
		 "2-bit field to BE");
	T_EQ_U64(pd_bitfield_from_be(2ULL << 47, 64, NULL, 0), 1ULL << 15,
		 "the same bits as flags");
	T_EQ_U64(pd_bitfield_from_be(w, 64, all, 1), w, "one 64-bit field");
	/* the two directions undo each other */
	for (k = 0; k < 64; k++) {
		w = 0x9e3779b97f4a7c15ULL * (k + 1);
		T_EQ_U64(pd_bitfield_to_be(pd_bitfield_from_be(w, 64, two, 1),
					   64, two, 1), w, "to_be(from_be)");
		T_EQ_U64(pd_bitfield_from_be(pd_bitfield_to_be(w, 64, two, 1),
					     64, two, 1), w, "from_be(to_be)");
	}
}

int
main(void)
{
	test_sizes(false);
	test_sizes(true);
	test_each_flag(false);
	test_each_flag(true);
	test_precise_ip(false);
	test_precise_ip(true);
	test_bad();
	test_encode_roundtrip();
	test_names();
	test_breakpoint_name();
	test_bitfield();
	return t_done("attr");
}
