/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/unit/test-events.c - pd_event_decode() for every record type but
 * SAMPLE, on byte images of both byte orders.
 *
 * Each kernel record is built four times: without an attr, with an attr
 * lacking sample_id_all (no trailer may be peeled), and with two trailer
 * layouts.  Every decoded value is compared with what was written.  Then
 * every cut of every image is decoded from a buffer of exactly that
 * size: cuts below the record's structural minimum must fail, and any
 * that decode must keep all their views inside the cut (ASan/UBSan watch
 * the reads).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdata/errors.h"
#include "pdata/events.h"
#include "tests/unit/attr.h"
#include "tests/unit/buf.h"
#include "tests/unit/record.h"
#include "tests/unit/t.h"

#define STRICT ((size_t)-1)

#define STR_EQ(v, want, field)						\
	T((v).len == strlen(want) && (v).s &&				\
	  memcmp((v).s, (want), (v).len) == 0,				\
	  "%s: %s: got \"%.*s\", want \"%s\"", ctx, (field),		\
	  (int)(v).len, (v).s ? (v).s : "", (want))

/* the values of every trailer */
static const struct pd_sample_id trailer = {
	.pid = 0x10203040U,
	.tid = 0x50607080U,
	.time = 0x0011223344556677ULL,
	.id = 0x1d1d1d1d2e2e2e2eULL,
	.stream_id = 0x5a5a5a5a00000001ULL,
	.cpu = 0x0000000cU,
	.cpu_res = 0x00000abcU,
};

#define ATTR_READ_FORMAT (PD_FORMAT_GROUP | PD_FORMAT_TOTAL_TIME_ENABLED | \
			  PD_FORMAT_TOTAL_TIME_RUNNING | PD_FORMAT_ID |	\
			  PD_FORMAT_LOST)

static struct pd_attr attrs[4];

static void
attrs_init(void)
{
	unsigned int k;

	for (k = 1; k < 4; k++) {
		attrs[k].size = PD_ATTR_SIZE_VER7;
		attrs[k].read_format = ATTR_READ_FORMAT;
		attrs[k].sample_period = 1000;
	}
	/* a trailer would be 32 bytes, but there is none */
	attrs[1].sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |
		PD_SAMPLE_ID | PD_SAMPLE_CPU | PD_SAMPLE_PERIOD;
	attrs[2].sample_type = SAMPLE_ID_BITS | PD_SAMPLE_IP |
		PD_SAMPLE_CALLCHAIN | PD_SAMPLE_PERIOD;
	attrs[2].flags = 1ULL << PD_ATTR_SAMPLE_ID_ALL;
	attrs[3].sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID | PD_SAMPLE_TIME |
		PD_SAMPLE_PERIOD;
	attrs[3].flags = (1ULL << PD_ATTR_SAMPLE_ID_ALL) |
		(1ULL << PD_ATTR_MMAP2);
}

static bool
has_trailer(const struct pd_attr *attr, uint32_t type)
{
	return attr && type < PD_RECORD_USER_TYPE_START &&
	       ((attr->flags >> PD_ATTR_SAMPLE_ID_ALL) & 1);
}

static size_t
trailer_len(const struct pd_attr *attr, uint32_t type)
{
	if (!has_trailer(attr, type))
		return 0;
	return 8 * (size_t)__builtin_popcountll(attr->sample_type &
						SAMPLE_ID_BITS);
}

/* n bytes at p lie inside [buf, buf + len); reading them feeds ASan. */
static void
view_in(const void *p, size_t n, const unsigned char *buf, size_t len,
	const char *what)
{
	uintptr_t a = (uintptr_t)p, lo = (uintptr_t)buf;
	volatile unsigned char sink = 0;
	size_t i;

	if (!n)
		return;
	T(p && a >= lo && a - lo <= len && n <= len - (a - lo),
	  "%s: view %s (%zu bytes at +%td) outside the record (%zu)", ctx,
	  what, n, (const unsigned char *)p - buf, len);
	for (i = 0; i < n; i++)
		sink ^= ((const unsigned char *)p)[i];
	(void)sink;
}

static void
cpu_map_views(const struct pd_cpu_map *m, const unsigned char *buf,
	      size_t len)
{
	size_t width = m->type == PD_CPU_MAP_CPUS ? 2 : m->long_size;
	size_t pos = 0;
	int cpu, n = 0;

	if (m->type != PD_CPU_MAP_RANGE)
		view_in(m->data, m->nr * width, buf, len, "cpu map");
	while (pd_cpu_map_next(m, &pos, &cpu) == 1 && n < 100000)
		n++;
}

/* Check that every view of a decoded record stays inside it. */
static void
touch_event(const union pd_event *ev, const unsigned char *buf, size_t len)
{
	size_t i;

	switch (ev->header.type) {
	case PD_RECORD_MMAP:
		view_in(ev->mmap.filename.s, ev->mmap.filename.len, buf, len,
			"filename");
		break;
	case PD_RECORD_MMAP2:
		view_in(ev->mmap2.filename.s, ev->mmap2.filename.len, buf,
			len, "filename");
		break;
	case PD_RECORD_COMM:
		view_in(ev->comm.comm.s, ev->comm.comm.len, buf, len, "comm");
		break;
	case PD_RECORD_READ:
		if (ev->read.values.format & PD_FORMAT_GROUP)
			view_in(ev->read.values.group,
				ev->read.values.nr * ev->read.values.stride,
				buf, len, "read group");
		break;
	case PD_RECORD_NAMESPACES:
		view_in(ev->namespaces.link_info.p,
			ev->namespaces.link_info.nr * 8, buf, len, "links");
		break;
	case PD_RECORD_KSYMBOL:
		view_in(ev->ksymbol.name.s, ev->ksymbol.name.len, buf, len,
			"name");
		break;
	case PD_RECORD_CGROUP:
		view_in(ev->cgroup.path.s, ev->cgroup.path.len, buf, len,
			"path");
		break;
	case PD_RECORD_TEXT_POKE:
		view_in(ev->text_poke.old_bytes.p, ev->text_poke.old_bytes.len,
			buf, len, "old");
		view_in(ev->text_poke.new_bytes.p, ev->text_poke.new_bytes.len,
			buf, len, "new");
		break;
	case PD_RECORD_CALLCHAIN_DEFERRED:
		view_in(ev->callchain_deferred.ips.p,
			ev->callchain_deferred.ips.nr * 8, buf, len, "ips");
		break;
	case PD_RECORD_HEADER_ATTR:
		view_in(ev->attr.ids.p, ev->attr.ids.nr * 8, buf, len, "ids");
		break;
	case PD_RECORD_HEADER_EVENT_TYPE:
		view_in(ev->event_type.name.s, ev->event_type.name.len, buf,
			len, "name");
		break;
	case PD_RECORD_HEADER_BUILD_ID:
		view_in(ev->build_id.filename.s, ev->build_id.filename.len,
			buf, len, "filename");
		break;
	case PD_RECORD_ID_INDEX:
		view_in(ev->id_index.entries, ev->id_index.nr * 32, buf, len,
			"entries");
		if (ev->id_index.has_vm)
			view_in(ev->id_index.entries2, ev->id_index.nr * 16,
				buf, len, "entries2");
		break;
	case PD_RECORD_AUXTRACE_INFO:
		view_in(ev->auxtrace_info.priv.p,
			ev->auxtrace_info.priv.nr * 8, buf, len, "priv");
		break;
	case PD_RECORD_AUXTRACE_ERROR:
		view_in(ev->auxtrace_error.msg.s, ev->auxtrace_error.msg.len,
			buf, len, "msg");
		break;
	case PD_RECORD_THREAD_MAP:
		view_in(ev->thread_map.entries, ev->thread_map.nr * 24, buf,
			len, "entries");
		for (i = 0; i < ev->thread_map.nr; i++) {
			struct pd_thread_map_entry e = { 0 };

			pd_thread_map_get(&ev->thread_map, i, &e);
			view_in(e.comm.s, e.comm.len, buf, len, "comm");
		}
		break;
	case PD_RECORD_CPU_MAP:
		cpu_map_views(&ev->cpu_map.map, buf, len);
		break;
	case PD_RECORD_STAT_CONFIG:
		view_in(ev->stat_config.entries.p,
			ev->stat_config.entries.nr * 8, buf, len, "entries");
		break;
	case PD_RECORD_EVENT_UPDATE:
		view_in(ev->event_update.payload.p,
			ev->event_update.payload.len, buf, len, "payload");
		view_in(ev->event_update.str.s, ev->event_update.str.len, buf,
			len, "str");
		if (ev->event_update.type == PD_EVENT_UPDATE_CPUS)
			cpu_map_views(&ev->event_update.cpus, buf, len);
		break;
	case PD_RECORD_HEADER_FEATURE:
		view_in(ev->feature.payload.p, ev->feature.payload.len, buf,
			len, "payload");
		break;
	case PD_RECORD_COMPRESSED:
	case PD_RECORD_COMPRESSED2:
		view_in(ev->compressed.data.p, ev->compressed.data.len, buf,
			len, "data");
		break;
	case PD_RECORD_BPF_METADATA:
		view_in(ev->bpf_metadata.prog_name.s,
			ev->bpf_metadata.prog_name.len, buf, len, "prog");
		view_in(ev->bpf_metadata.entries,
			ev->bpf_metadata.nr_entries *
			(PD_BPF_METADATA_KEY_LEN + PD_BPF_METADATA_VALUE_LEN),
			buf, len, "entries");
		break;
	case PD_RECORD_SCHEDSTAT_CPU:
	case PD_RECORD_SCHEDSTAT_DOMAIN:
		view_in(ev->schedstat.counters.p, ev->schedstat.counters.len,
			buf, len, "counters");
		break;
	}
}

/*
 * The record under test: rec_begin() starts it, the test appends its
 * body, and rec_ok() or rec_end() with rec_rc() close and decode it.  The
 * event's views point into it until the next rec_begin().
 */
static struct {
	struct tbuf b;
	size_t at;
	union pd_event ev;
} cur;

static struct tbuf *
rec_begin(bool be, uint32_t type, uint16_t misc)
{
	tb_free(&cur.b);
	tb_init(&cur.b, be);
	cur.at = tb_begin_record(&cur.b, type, misc);
	return &cur.b;
}

/* Append the trailer the attr asks for (kernel records only) and close. */
static void
rec_end(const struct pd_attr *attr)
{
	uint32_t type = (uint32_t)tb_load(&cur.b, cur.at, 4);

	if (has_trailer(attr, type))
		tb_sample_id(&cur.b, attr->sample_type, &trailer);
	tb_end_record(&cur.b, cur.at);
}

/* Decode the whole closed record: its rc, the event in cur.ev. */
static int
rec_rc(const struct pd_attr *attr)
{
	struct pd_record rec;

	make_rec(&rec, &cur.b, cur.b.p, cur.b.len);
	return pd_event_decode(attr, &rec, &cur.ev);
}

/*
 * pd_event_explain() of a record that fails: a text whose "at byte N"
 * lies inside the record and whose "but K are left" reaches the payload's
 * end (where the sample_id trailer begins).
 */
static void
check_explained(const struct pd_attr *attr, const struct pd_record *rec)
{
	char why[512];
	size_t n = pd_event_explain(attr, rec, why, sizeof(why));
	size_t end = rec->size;
	const char *at = strstr(why, " at byte ");
	unsigned long long off, left;

	T(n > 0 && n == strlen(why), "%s: cut %u: explained as \"%s\"", ctx,
	  (unsigned int)rec->size, why);
	if (!at || sscanf(at, " at byte %llu", &off) != 1)
		return;
	if (end >= PD_EVENT_HEADER_SIZE + trailer_len(attr, rec->header.type))
		end -= trailer_len(attr, rec->header.type);
	T(off <= end, "%s: cut %u: offset past the payload: %s", ctx,
	  (unsigned int)rec->size, why);
	at = strstr(at, ", but ");
	if (at && sscanf(at, ", but %llu are left", &left) == 1)
		T(off + left == end,
		  "%s: cut %u: offset and bytes left disagree: %s", ctx,
		  (unsigned int)rec->size, why);
}

/*
 * Close the record, then decode every cut of it: below min (STRICT: the
 * whole record) a cut must fail.  Then decode it whole: it must succeed,
 * with the header and the trailer as written.
 */
static const union pd_event *
rec_ok(const struct pd_attr *attr, size_t min)
{
	const struct tbuf *b = &cur.b;
	union pd_event *ev = &cur.ev;
	struct pd_record rec;
	union pd_event cut_ev;
	size_t cut;
	int rc;

	rec_end(attr);
	if (min == STRICT)
		min = b->len;
	for (cut = 0; cut < b->len; cut++) {
		unsigned char *copy = cut_rec(&rec, b, cut);

		rc = pd_event_decode(attr, &rec, &cut_ev);
		if (cut < min)
			T(rc < 0, "%s: cut at %zu of %zu decoded", ctx, cut,
			  b->len);
		if (rc == 0)
			touch_event(&cut_ev, copy, cut);
		else
			check_explained(attr, &rec);
		free(copy);
		nr_cuts++;
	}
	make_rec(&rec, b, b->p, b->len);
	rc = pd_event_decode(attr, &rec, ev);
	T(rc == 0, "%s: decode: %d (%s)", ctx, rc, pd_strerror(rc));
	T(pd_event_explain(attr, &rec, NULL, 0) == 0,
	  "%s: a good record explained", ctx);
	if (rc == 0) {
		touch_event(ev, b->p, b->len);
		EQ(ev->header.type, rec.header.type, "header type");
		EQ(ev->header.misc, rec.header.misc, "header misc");
		EQ(ev->header.size, b->len, "header size");
		check_trailer_fields(&ev->base.sample_id,
				     has_trailer(attr, ev->header.type) ?
				     attr->sample_type : 0, &trailer, "sid ");
	}
	nr_images++;
	return ev;
}

/* The payload's structural minimum plus the header and the trailer. */
static size_t
min_ok(const struct pd_attr *attr, size_t payload)
{
	uint32_t type = (uint32_t)tb_load(&cur.b, cur.at, 4);

	return PD_EVENT_HEADER_SIZE + payload + trailer_len(attr, type);
}

/* ---- kernel records ---- */

static void
test_mmap(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_MMAP, PD_MISC_USER | PD_MISC_MMAP_DATA);
	tb_u32(b, 4242);
	tb_u32(b, 4243);
	tb_u64(b, 0x00007f0000001000ULL);
	tb_u64(b, 0x21000);
	tb_u64(b, 0x3000);
	tb_str_padded(b, "/usr/lib/x86_64-linux-gnu/libc.so.6", 8);
	ev = rec_ok(attr, min_ok(attr, 32));
	EQ(ev->mmap.pid, 4242, "pid");
	EQ(ev->mmap.tid, 4243, "tid");
	EQ(ev->mmap.start, 0x00007f0000001000ULL, "start");
	EQ(ev->mmap.len, 0x21000, "len");
	EQ(ev->mmap.pgoff, 0x3000, "pgoff");
	STR_EQ(ev->mmap.filename, "/usr/lib/x86_64-linux-gnu/libc.so.6",
	       "filename");

	/* a filename with no NUL at all: the view stops at the trailer */
	b = rec_begin(be, PD_RECORD_MMAP, PD_MISC_KERNEL);
	tb_u32(b, (uint32_t)-1);
	tb_u32(b, 0);
	tb_u64(b, 0xffffffff81000000ULL);
	tb_u64(b, 0x1206448);
	tb_u64(b, 0xffffffff81000000ULL);
	tb_bytes(b, "[kernel.kallsym]", 16);
	ev = rec_ok(attr, min_ok(attr, 32));
	STR_EQ(ev->mmap.filename, "[kernel.kallsym]", "unterminated");
	EQ(ev->mmap.pid, (uint32_t)-1, "kernel pid");
}

static void
test_mmap2(bool be, const struct pd_attr *attr)
{
	static const uint8_t bid[20] = {
		0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
		13, 14, 15, 16,
	};
	const union pd_event *ev;
	struct tbuf *b;
	unsigned int size;

	b = rec_begin(be, PD_RECORD_MMAP2, PD_MISC_USER);
	tb_u32(b, 6938);
	tb_u32(b, 6939);
	tb_u64(b, 0x557077adf000ULL);
	tb_u64(b, 0x1000);
	tb_u64(b, 0x1000);
	tb_u32(b, 0xfe);
	tb_u32(b, 0x01);
	tb_u64(b, 5308782);
	tb_u64(b, 1957147173);
	tb_u32(b, 5);		/* PROT_READ | PROT_EXEC */
	tb_u32(b, 2);		/* MAP_PRIVATE */
	tb_str_padded(b, "/tmp/exp/work", 8);
	ev = rec_ok(attr, min_ok(attr, 64));
	EQ(ev->mmap2.pid, 6938, "pid");
	EQ(ev->mmap2.tid, 6939, "tid");
	EQ(ev->mmap2.start, 0x557077adf000ULL, "start");
	EQ(ev->mmap2.len, 0x1000, "len");
	EQ(ev->mmap2.pgoff, 0x1000, "pgoff");
	EQ(ev->mmap2.has_build_id, false, "has_build_id");
	EQ(ev->mmap2.maj, 0xfe, "maj");
	EQ(ev->mmap2.min, 1, "min");
	EQ(ev->mmap2.ino, 5308782, "ino");
	EQ(ev->mmap2.ino_generation, 1957147173, "ino_generation");
	EQ(ev->mmap2.build_id_size, 0, "build_id_size");
	EQ(ev->mmap2.prot, 5, "prot");
	EQ(ev->mmap2.flags, 2, "flags");
	STR_EQ(ev->mmap2.filename, "/tmp/exp/work", "filename");

	for (size = 16; size <= 21; size += 4) {
		b = rec_begin(be, PD_RECORD_MMAP2,
			      PD_MISC_USER | PD_MISC_MMAP_BUILD_ID);
		tb_u32(b, 1);
		tb_u32(b, 2);
		tb_u64(b, 0x400000);
		tb_u64(b, 0x2000);
		tb_u64(b, 0);
		tb_u8(b, (uint8_t)size);
		tb_u8(b, 0);
		tb_u16(b, 0);
		tb_bytes(b, bid, 20);
		tb_u32(b, 7);
		tb_u32(b, 1);
		tb_str_padded(b, "/bin/true", 8);
		if (size > 20) {
			rec_end(attr);
			T(rec_rc(attr) == -PD_E_BAD_RECORD,
			  "%s: build id size 24", ctx);
			continue;
		}
		ev = rec_ok(attr, min_ok(attr, 64));
		EQ(ev->mmap2.has_build_id, true, "bid has_build_id");
		EQ(ev->mmap2.build_id_size, size, "bid size");
		T(memcmp(ev->mmap2.build_id, bid, 20) == 0, "%s: build id",
		  ctx);
		EQ(ev->mmap2.maj | ev->mmap2.min, 0, "bid maj/min");
		EQ(ev->mmap2.ino | ev->mmap2.ino_generation, 0, "bid ino");
		EQ(ev->mmap2.prot, 7, "bid prot");
		EQ(ev->mmap2.flags, 1, "bid flags");
		EQ(ev->mmap2.start, 0x400000, "bid start");
		STR_EQ(ev->mmap2.filename, "/bin/true", "bid filename");
	}
}

static void
test_lost(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_LOST, 0);
	tb_u64(b, 0x1122334455667788ULL);
	tb_u64(b, 99);
	ev = rec_ok(attr, STRICT);
	EQ(ev->lost.id, 0x1122334455667788ULL, "id");
	EQ(ev->lost.lost, 99, "lost");
}

static void
test_comm(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_COMM, PD_MISC_COMM_EXEC);
	tb_u32(b, 100);
	tb_u32(b, 101);
	tb_str_padded(b, "sleep", 8);
	ev = rec_ok(attr, min_ok(attr, 8));
	EQ(ev->comm.pid, 100, "pid");
	EQ(ev->comm.tid, 101, "tid");
	STR_EQ(ev->comm.comm, "sleep", "comm");
	EQ(ev->header.misc, PD_MISC_COMM_EXEC, "misc");

	/* 16 characters: no NUL inside the record */
	b = rec_begin(be, PD_RECORD_COMM, 0);
	tb_u32(b, 7);
	tb_u32(b, 8);
	tb_bytes(b, "abcdefghijklmnop", 16);
	ev = rec_ok(attr, min_ok(attr, 8));
	STR_EQ(ev->comm.comm, "abcdefghijklmnop", "comm 16");
}

static void
fork_exit(bool be, const struct pd_attr *attr, uint32_t type)
{
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, type, 0);
	tb_u32(b, 10);
	tb_u32(b, 11);
	tb_u32(b, 12);
	tb_u32(b, 13);
	tb_u64(b, 0x0000123456789abcULL);
	ev = rec_ok(attr, STRICT);
	EQ(ev->fork.pid, 10, "pid");
	EQ(ev->fork.ppid, 11, "ppid");
	EQ(ev->fork.tid, 12, "tid");
	EQ(ev->fork.ptid, 13, "ptid");
	EQ(ev->fork.time, 0x0000123456789abcULL, "time");
}

static void
test_fork(bool be, const struct pd_attr *attr)
{
	fork_exit(be, attr, PD_RECORD_FORK);
	fork_exit(be, attr, PD_RECORD_EXIT);
}

static void
test_throttle(bool be, const struct pd_attr *attr)
{
	uint32_t type;

	for (type = PD_RECORD_THROTTLE; type <= PD_RECORD_UNTHROTTLE; type++) {
		const union pd_event *ev;
		struct tbuf *b;

		b = rec_begin(be, type, 0);
		tb_u64(b, 0x0102030405060708ULL);
		tb_u64(b, 0x1112131415161718ULL);
		tb_u64(b, 0x2122232425262728ULL);
		ev = rec_ok(attr, STRICT);
		EQ(ev->throttle.time, 0x0102030405060708ULL, "time");
		EQ(ev->throttle.id, 0x1112131415161718ULL, "id");
		EQ(ev->throttle.stream_id, 0x2122232425262728ULL, "stream_id");
	}
}

static void
test_read(bool be, const struct pd_attr *attr)
{
	struct pd_attr one;
	struct pd_read_value v = { 0 };
	const union pd_event *ev;
	struct tbuf *b;
	size_t i;

	/* the group form of the attrs' read_format */
	b = rec_begin(be, PD_RECORD_READ, 0);
	tb_u32(b, 55);
	tb_u32(b, 56);
	tb_u64(b, 2);
	tb_u64(b, 0x0e0e0e0e00000001ULL);
	tb_u64(b, 0x0f0f0f0f00000002ULL);
	for (i = 0; i < 2; i++) {
		tb_u64(b, 0x1000 + i);
		tb_u64(b, 0x2000 + i);
		tb_u64(b, 0x3000 + i);
	}
	if (!attr) {
		rec_end(attr);
		T(rec_rc(NULL) == -PD_E_INVAL, "%s: READ without attr", ctx);
		return;
	}
	ev = rec_ok(attr, STRICT);
	EQ(ev->read.pid, 55, "pid");
	EQ(ev->read.tid, 56, "tid");
	EQ(ev->read.values.format, ATTR_READ_FORMAT, "format");
	EQ(ev->read.values.nr, 2, "nr");
	EQ(ev->read.values.time_enabled, 0x0e0e0e0e00000001ULL, "enabled");
	EQ(ev->read.values.time_running, 0x0f0f0f0f00000002ULL, "running");
	for (i = 0; i < 2; i++) {
		T(pd_read_value_get(&ev->read.values, i, &v) == 0,
		  "%s: value %zu", ctx, i);
		EQ(v.value, 0x1000 + i, "value");
		EQ(v.id, 0x2000 + i, "id");
		EQ(v.lost, 0x3000 + i, "lost");
	}

	/* the single form, without LOST */
	one = *attr;
	one.read_format = PD_FORMAT_TOTAL_TIME_ENABLED | PD_FORMAT_ID;
	b = rec_begin(be, PD_RECORD_READ, 0);
	tb_u32(b, 57);
	tb_u32(b, 58);
	tb_u64(b, 0xabc);
	tb_u64(b, 0xdef);
	tb_u64(b, 0x123);
	ev = rec_ok(&one, STRICT);
	EQ(ev->read.values.nr, 1, "one nr");
	EQ(ev->read.values.time_enabled, 0xdef, "one enabled");
	EQ(ev->read.values.time_running, 0, "one running");
	T(pd_read_value_get(&ev->read.values, 0, &v) == 0, "%s: one", ctx);
	EQ(v.value, 0xabc, "one value");
	EQ(v.id, 0x123, "one id");
	EQ(v.lost, 0, "one lost");
}

static void
test_aux(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_AUX, 0);
	tb_u64(b, 0x0000000100000000ULL);
	tb_u64(b, 0x8000);
	tb_u64(b, PD_AUX_FLAG_TRUNCATED | PD_AUX_FLAG_PARTIAL | 0x100);
	ev = rec_ok(attr, STRICT);
	EQ(ev->aux.aux_offset, 0x0000000100000000ULL, "aux_offset");
	EQ(ev->aux.aux_size, 0x8000, "aux_size");
	EQ(ev->aux.flags, 0x105, "flags");
}

static void
test_itrace_start(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_ITRACE_START, 0);
	tb_u32(b, 0x0a0b0c0d);
	tb_u32(b, 0x01020304);
	ev = rec_ok(attr, STRICT);
	EQ(ev->itrace_start.pid, 0x0a0b0c0d, "pid");
	EQ(ev->itrace_start.tid, 0x01020304, "tid");
}

static void
test_lost_samples(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_LOST_SAMPLES, PD_MISC_LOST_SAMPLES_BPF);
	tb_u64(b, 0x0000000700000003ULL);
	ev = rec_ok(attr, STRICT);
	EQ(ev->lost_samples.lost, 0x0000000700000003ULL, "lost");
	EQ(ev->header.misc, PD_MISC_LOST_SAMPLES_BPF, "misc");
}

static void
test_switch(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_SWITCH,
		      PD_MISC_SWITCH_OUT | PD_MISC_SWITCH_OUT_PREEMPT);
	ev = rec_ok(attr, STRICT);
	EQ(ev->context_switch.out, true, "out");
	EQ(ev->context_switch.preempt, true, "preempt");
	EQ(ev->context_switch.next_prev_pid, (uint32_t)-1, "next_prev_pid");
	EQ(ev->context_switch.next_prev_tid, (uint32_t)-1, "next_prev_tid");

	b = rec_begin(be, PD_RECORD_SWITCH_CPU_WIDE, 0);
	tb_u32(b, 0x11);
	tb_u32(b, 0x22);
	ev = rec_ok(attr, STRICT);
	EQ(ev->context_switch.out, false, "in");
	EQ(ev->context_switch.preempt, false, "in preempt");
	EQ(ev->context_switch.next_prev_pid, 0x11, "cpu-wide pid");
	EQ(ev->context_switch.next_prev_tid, 0x22, "cpu-wide tid");
}

static void
test_namespaces(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;
	size_t i;

	b = rec_begin(be, PD_RECORD_NAMESPACES, 0);
	tb_u32(b, 31);
	tb_u32(b, 32);
	tb_u64(b, PD_NR_NAMESPACES);
	for (i = 0; i < PD_NR_NAMESPACES; i++) {
		tb_u64(b, 0xd000 + i);
		tb_u64(b, 0xf0000000ULL + i);
	}
	ev = rec_ok(attr, STRICT);
	EQ(ev->namespaces.pid, 31, "pid");
	EQ(ev->namespaces.tid, 32, "tid");
	EQ(ev->namespaces.nr_namespaces, PD_NR_NAMESPACES, "nr");
	EQ(ev->namespaces.link_info.nr, 2 * PD_NR_NAMESPACES, "links");
	for (i = 0; i < PD_NR_NAMESPACES; i++) {
		EQ(pd_u64_array_get(&ev->namespaces.link_info, 2 * i),
		   0xd000 + i, "dev");
		EQ(pd_u64_array_get(&ev->namespaces.link_info, 2 * i + 1),
		   0xf0000000ULL + i, "ino");
	}
}

static void
test_ksymbol(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_KSYMBOL, PD_MISC_KERNEL);
	tb_u64(b, 0xffffffffc0001000ULL);
	tb_u32(b, 0x123);
	tb_u16(b, PD_KSYMBOL_TYPE_BPF);
	tb_u16(b, PD_KSYMBOL_FLAGS_UNREGISTER);
	tb_str_padded(b, "bpf_prog_6deef7357e7b4530_sd_fw", 8);
	ev = rec_ok(attr, min_ok(attr, 16));
	EQ(ev->ksymbol.addr, 0xffffffffc0001000ULL, "addr");
	EQ(ev->ksymbol.len, 0x123, "len");
	EQ(ev->ksymbol.ksym_type, PD_KSYMBOL_TYPE_BPF, "ksym_type");
	EQ(ev->ksymbol.flags, PD_KSYMBOL_FLAGS_UNREGISTER, "flags");
	STR_EQ(ev->ksymbol.name, "bpf_prog_6deef7357e7b4530_sd_fw", "name");
}

static void
test_bpf_event(bool be, const struct pd_attr *attr)
{
	static const uint8_t tag[8] = { 0x6d, 0xee, 0xf7, 0x35, 0x7e, 0x7b,
					0x45, 0x30 };
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_BPF_EVENT, 0);
	tb_u16(b, PD_BPF_EVENT_PROG_UNLOAD);
	tb_u16(b, 0x8001);
	tb_u32(b, 0x00abcdef);
	tb_bytes(b, tag, 8);
	ev = rec_ok(attr, STRICT);
	EQ(ev->bpf.type, PD_BPF_EVENT_PROG_UNLOAD, "type");
	EQ(ev->bpf.flags, 0x8001, "flags");
	EQ(ev->bpf.id, 0x00abcdef, "id");
	T(memcmp(ev->bpf.tag, tag, 8) == 0, "%s: tag", ctx);
}

static void
test_cgroup(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_CGROUP, 0);
	tb_u64(b, 0x0000000100002345ULL);
	tb_str_padded(b, "/user.slice/user-1000.slice", 8);
	ev = rec_ok(attr, min_ok(attr, 8));
	EQ(ev->cgroup.id, 0x0000000100002345ULL, "id");
	STR_EQ(ev->cgroup.path, "/user.slice/user-1000.slice", "path");
}

static void
test_text_poke(bool be, const struct pd_attr *attr)
{
	static const unsigned char old[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	static const unsigned char new[6] = { 0xe9, 0x01, 0x02, 0x03, 0x04,
					      0x90 };
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_TEXT_POKE, PD_MISC_KERNEL);
	tb_u64(b, 0xffffffff81234567ULL);
	tb_u16(b, 5);
	tb_u16(b, 6);
	tb_bytes(b, old, 5);
	tb_bytes(b, new, 6);
	tb_zeros(b, 1);		/* 4 + 11 + 1: 8-aligned */
	ev = rec_ok(attr, min_ok(attr, 12 + 11));
	EQ(ev->text_poke.addr, 0xffffffff81234567ULL, "addr");
	EQ(ev->text_poke.old_len, 5, "old_len");
	EQ(ev->text_poke.new_len, 6, "new_len");
	EQ(ev->text_poke.old_bytes.len, 5, "old bytes len");
	EQ(ev->text_poke.new_bytes.len, 6, "new bytes len");
	T(memcmp(ev->text_poke.old_bytes.p, old, 5) == 0, "%s: old", ctx);
	T(memcmp(ev->text_poke.new_bytes.p, new, 6) == 0, "%s: new", ctx);
}

static void
test_aux_output_hw_id(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_AUX_OUTPUT_HW_ID, 0);
	tb_u64(b, 0x0000000000c0ffeeULL);
	ev = rec_ok(attr, STRICT);
	EQ(ev->aux_output_hw_id.hw_id, 0xc0ffee, "hw_id");
}

static void
test_callchain_deferred(bool be, const struct pd_attr *attr)
{
	static const uint64_t ips[4] = {
		PD_CONTEXT_USER, 0x00005555deadbeefULL, 0x00005555cafe0000ULL,
		0x00007fff00000001ULL,
	};
	const union pd_event *ev;
	struct tbuf *b;
	size_t i;

	b = rec_begin(be, PD_RECORD_CALLCHAIN_DEFERRED, PD_MISC_USER);
	tb_u64(b, 0xc00c1e0000000042ULL);
	tb_u64(b, 4);
	for (i = 0; i < 4; i++)
		tb_u64(b, ips[i]);
	ev = rec_ok(attr, STRICT);
	EQ(ev->callchain_deferred.cookie, 0xc00c1e0000000042ULL, "cookie");
	EQ(ev->callchain_deferred.ips.nr, 4, "nr");
	for (i = 0; i < 4; i++)
		EQ(pd_u64_array_get(&ev->callchain_deferred.ips, i), ips[i],
		   "ip");
}

/* ---- user records ---- */

/* The attr of the HEADER_ATTR records: precise_ip 1, every field set. */
#define ATTR_FLAGS_LE	((1ULL << PD_ATTR_DISABLED) |			\
			 (1ULL << PD_ATTR_PRECISE_IP) |			\
			 (1ULL << PD_ATTR_SAMPLE_ID_ALL) |		\
			 (1ULL << PD_ATTR_MMAP2) |			\
			 (1ULL << PD_ATTR_DEFER_CALLCHAIN))

static const struct pd_attr header_attr = {
	.type = PD_TYPE_RAW,
	.config = 0x01c2,
	.sample_period = 100003,
	.sample_type = 0x10587,
	.read_format = PD_FORMAT_ID,
	.flags = ATTR_FLAGS_LE,
	.wakeup_events = 7,
	.config1 = 0x1111,
	.config2 = 0x2222,
	.branch_sample_type = PD_BRANCH_ANY | PD_BRANCH_HW_INDEX,
	.sample_regs_user = 0xff0000000000000fULL,
	.sample_stack_user = 8192,
	.clockid = 1,
	.sample_regs_intr = 0x00000000000f0000ULL,
	.aux_watermark = 4096,
	.sample_max_stack = 127,
	.aux_sample_size = 0x400,
	.sig_data = 0x5151,
	.config3 = 0x3333,
};

static void
test_header_attr(bool be, const struct pd_attr *attr)
{
	static const struct {
		uint32_t size;		/* attr.size field */
		size_t bytes;		/* bytes in the record */
		size_t ids;
	} forms[] = {
		{ PD_ATTR_SIZE_VER8, PD_ATTR_SIZE_VER8, 3 },
		{ 0, PD_ATTR_SIZE_VER0, 2 },
		{ PD_ATTR_SIZE_VER5, PD_ATTR_SIZE_VER5, 0 },
		{ 160, 160, 1 },	/* newer than we know */
	};
	const union pd_event *ev;
	struct tbuf *b;
	size_t f, i, n;

	for (f = 0; f < ARRAY_SIZE(forms); f++) {
		b = rec_begin(be, PD_RECORD_HEADER_ATTR, 0);
		tb_attr(b, &header_attr, forms[f].size, forms[f].bytes, 0);
		for (i = 0; i < forms[f].ids; i++)
			tb_u64(b, 0x9000000000000000ULL + i);
		ev = rec_ok(attr, 8 + forms[f].bytes);
		EQ(ev->attr.attr.type, PD_TYPE_RAW, "attr type");
		EQ(ev->attr.attr.size, forms[f].size, "attr size");
		EQ(ev->attr.attr.config, 0x01c2, "attr config");
		EQ(ev->attr.attr.sample_period, 100003, "attr period");
		EQ(ev->attr.attr.sample_type, 0x10587, "attr sample_type");
		EQ(ev->attr.attr.read_format, PD_FORMAT_ID, "attr read_format");
		EQ(ev->attr.attr.flags, ATTR_FLAGS_LE, "attr flags");
		EQ(pd_attr_precise_ip(&ev->attr.attr), 1, "attr precise_ip");
		EQ(ev->attr.attr.wakeup_events, 7, "attr wakeup");
		EQ(ev->attr.attr.config1, 0x1111, "attr config1");
		EQ(ev->attr.attr.config2, forms[f].bytes > PD_ATTR_SIZE_VER0 ?
		   0x2222 : 0, "attr config2");
		n = forms[f].bytes;
		EQ(ev->attr.attr.branch_sample_type, n >= PD_ATTR_SIZE_VER2 ?
		   PD_BRANCH_ANY | PD_BRANCH_HW_INDEX : 0, "attr branch");
		EQ(ev->attr.attr.sample_regs_user, n >= PD_ATTR_SIZE_VER3 ?
		   0xff0000000000000fULL : 0, "attr regs_user");
		EQ(ev->attr.attr.sample_stack_user, n >= PD_ATTR_SIZE_VER3 ?
		   8192 : 0, "attr stack_user");
		EQ(ev->attr.attr.clockid, n >= PD_ATTR_SIZE_VER3 ? 1 : 0,
		   "attr clockid");
		EQ(ev->attr.attr.sample_regs_intr, n >= PD_ATTR_SIZE_VER4 ?
		   0xf0000 : 0, "attr regs_intr");
		EQ(ev->attr.attr.aux_watermark, n >= PD_ATTR_SIZE_VER5 ?
		   4096 : 0, "attr aux_watermark");
		EQ(ev->attr.attr.sample_max_stack, n >= PD_ATTR_SIZE_VER5 ?
		   127 : 0, "attr max_stack");
		EQ(ev->attr.attr.aux_sample_size, n >= PD_ATTR_SIZE_VER6 ?
		   0x400 : 0, "attr aux_sample_size");
		EQ(ev->attr.attr.sig_data, n >= PD_ATTR_SIZE_VER7 ? 0x5151 : 0,
		   "attr sig_data");
		EQ(ev->attr.attr.config3, n >= PD_ATTR_SIZE_VER8 ? 0x3333 : 0,
		   "attr config3");
		EQ(ev->attr.ids.nr, forms[f].ids, "ids");
		for (i = 0; i < forms[f].ids; i++)
			EQ(pd_u64_array_get(&ev->attr.ids, i),
			   0x9000000000000000ULL + i, "id");
	}
}

static void
test_header_attr_bad(bool be)
{
	/* attr.size below VER0 */
	tb_attr(rec_begin(be, PD_RECORD_HEADER_ATTR, 0), &header_attr, 32,
		PD_ATTR_SIZE_VER0, 0);
	rec_end(NULL);
	T(rec_rc(NULL) == -PD_E_BAD_ATTR, "%s: attr size 32", ctx);

	/* attr.size past the record */
	tb_attr(rec_begin(be, PD_RECORD_HEADER_ATTR, 0), &header_attr,
		PD_ATTR_SIZE_VER7 + 8, PD_ATTR_SIZE_VER7, 0);
	rec_end(NULL);
	T(rec_rc(NULL) == -PD_E_BAD_RECORD, "%s: attr size past the end", ctx);
}

static void
test_event_type(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_HEADER_EVENT_TYPE, 0);
	tb_u64(b, 0x0000000000000123ULL);
	tb_bytes(b, "sched:sched_switch", 18);
	tb_zeros(b, PD_EVENT_TYPE_NAME_LEN - 18);
	ev = rec_ok(attr, 16);
	EQ(ev->event_type.event_id, 0x123, "event_id");
	STR_EQ(ev->event_type.name, "sched:sched_switch", "name");
}

static void
test_tracing_data(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_HEADER_TRACING_DATA, 0);
	tb_u32(b, 5376);
	tb_u32(b, 0);
	ev = rec_ok(attr, 12);
	EQ(ev->tracing_data.size, 5376, "size");
}

static void
test_build_id(bool be, const struct pd_attr *attr)
{
	static const uint8_t bid[20] = {
		0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x10, 0x32,
		0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe, 0xaa, 0xbb, 0xcc, 0xdd,
	};
	static const struct {
		uint16_t misc;
		uint8_t size_byte;
		uint8_t want;		/* 0: the record is bad */
	} forms[] = {
		{ PD_MISC_USER | PD_MISC_BUILD_ID_SIZE, 16, 16 },
		{ PD_MISC_KERNEL | PD_MISC_BUILD_ID_SIZE, 20, 20 },
		{ PD_MISC_USER, 0, 20 },	/* perf inject -b: no size */
		{ PD_MISC_USER | PD_MISC_BUILD_ID_SIZE, 21, 0 },
	};
	const union pd_event *ev;
	struct tbuf *b;
	size_t f;

	for (f = 0; f < ARRAY_SIZE(forms); f++) {
		b = rec_begin(be, PD_RECORD_HEADER_BUILD_ID, forms[f].misc);
		tb_u32(b, (uint32_t)-1);
		tb_bytes(b, bid, 20);
		tb_u8(b, forms[f].size_byte);
		tb_u8(b, 0);
		tb_u16(b, 0);
		tb_str_padded(b, "/usr/lib/x86_64-linux-gnu/ld-linux.so.2",
			      64);
		if (!forms[f].want) {
			rec_end(attr);
			T(rec_rc(attr) == -PD_E_BAD_RECORD,
			  "%s: build id size 21", ctx);
			continue;
		}
		ev = rec_ok(attr, 8 + 28);
		EQ(ev->build_id.pid, -1, "pid");
		EQ(ev->build_id.size, forms[f].want, "size");
		T(memcmp(ev->build_id.build_id, bid, 20) == 0, "%s: build id",
		  ctx);
		STR_EQ(ev->build_id.filename,
		       "/usr/lib/x86_64-linux-gnu/ld-linux.so.2", "filename");
	}
}

static void
test_no_payload(bool be, const struct pd_attr *attr)
{
	static const uint32_t types[] = {
		PD_RECORD_FINISHED_ROUND, PD_RECORD_FINISHED_INIT,
	};
	const union pd_event *ev;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		rec_begin(be, types[i], 0);
		ev = rec_ok(attr, STRICT);
		EQ(ev->base.header.type, types[i], "type");
	}
}

static void
test_id_index(bool be, const struct pd_attr *attr)
{
	struct pd_id_index_entry e = { 0 };
	const union pd_event *ev;
	struct tbuf *b;
	size_t i;
	int vm;

	for (vm = 0; vm < 2; vm++) {
		b = rec_begin(be, PD_RECORD_ID_INDEX, 0);
		tb_u64(b, 3);
		for (i = 0; i < 3; i++) {
			tb_u64(b, 549 + i);
			tb_u64(b, i);
			tb_u64(b, i == 2 ? (uint64_t)-1 : i);
			tb_u64(b, 8139);
		}
		if (vm)
			for (i = 0; i < 3; i++) {
				tb_u64(b, 4000 + i);
				tb_u64(b, 10 + i);
			}
		ev = rec_ok(attr, 16 + 3 * 32);
		EQ(ev->id_index.nr, 3, "nr");
		EQ(ev->id_index.has_vm, vm, "has_vm");
		for (i = 0; i < 3; i++) {
			T(pd_id_index_get(&ev->id_index, i, &e) == 0,
			  "%s: entry %zu", ctx, i);
			EQ(e.id, 549 + i, "id");
			EQ(e.idx, i, "idx");
			EQ(e.cpu, i == 2 ? (uint64_t)-1 : i, "cpu");
			EQ(e.tid, 8139, "tid");
			EQ(e.machine_pid, vm ? 4000 + i : 0, "machine_pid");
			EQ(e.vcpu, vm ? 10 + i : (uint64_t)-1, "vcpu");
		}
		T(pd_id_index_get(&ev->id_index, 3, &e) == -PD_E_INVAL,
		  "%s: entry past nr", ctx);
	}
}

static void
test_auxtrace_info(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;
	size_t i;

	b = rec_begin(be, PD_RECORD_AUXTRACE_INFO, 0);
	tb_u32(b, 1);
	tb_u32(b, 0);
	for (i = 0; i < 4; i++)
		tb_u64(b, 0x7070707000000000ULL + i);
	ev = rec_ok(attr, 16);
	EQ(ev->auxtrace_info.type, 1, "type");
	EQ(ev->auxtrace_info.priv.nr, 4, "priv nr");
	for (i = 0; i < 4; i++)
		EQ(pd_u64_array_get(&ev->auxtrace_info.priv, i),
		   0x7070707000000000ULL + i, "priv");
}

static void
test_auxtrace(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_AUXTRACE, 0);
	tb_u64(b, 0x10000);
	tb_u64(b, 0x0000000200000000ULL);
	tb_u64(b, 0x9e3779b97f4a7c15ULL);
	tb_u32(b, 3);
	tb_u32(b, 1234);
	tb_u32(b, 5);
	tb_u32(b, 0);
	ev = rec_ok(attr, STRICT);
	EQ(ev->auxtrace.size, 0x10000, "size");
	EQ(ev->auxtrace.offset, 0x0000000200000000ULL, "offset");
	EQ(ev->auxtrace.reference, 0x9e3779b97f4a7c15ULL, "reference");
	EQ(ev->auxtrace.idx, 3, "idx");
	EQ(ev->auxtrace.tid, 1234, "tid");
	EQ(ev->auxtrace.cpu, 5, "cpu");
}

static void
test_auxtrace_error(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;
	uint32_t fmt;

	for (fmt = 0; fmt <= 2; fmt++) {
		b = rec_begin(be, PD_RECORD_AUXTRACE_ERROR, 0);
		tb_u32(b, 1);
		tb_u32(b, 6);
		tb_u32(b, 2);
		tb_u32(b, 300);
		tb_u32(b, 301);
		tb_u32(b, fmt);
		tb_u64(b, 0x00007f00000000a0ULL);
		if (fmt >= 1)
			tb_u64(b, 0x0000001122334455ULL);
		if (fmt >= 2) {
			tb_bytes(b, "Lost trace data", 15);
			tb_zeros(b, PD_AUXTRACE_ERROR_MSG_LEN - 15);
			tb_u32(b, 777);
			tb_u32(b, 3);
		} else {
			tb_str_padded(b, "Lost trace data", 8);
		}
		ev = rec_ok(attr, fmt == 2 ? STRICT : fmt ? 48 : 40);
		EQ(ev->auxtrace_error.type, 1, "type");
		EQ(ev->auxtrace_error.code, 6, "code");
		EQ(ev->auxtrace_error.cpu, 2, "cpu");
		EQ(ev->auxtrace_error.pid, 300, "pid");
		EQ(ev->auxtrace_error.tid, 301, "tid");
		EQ(ev->auxtrace_error.fmt, fmt, "fmt");
		EQ(ev->auxtrace_error.ip, 0x00007f00000000a0ULL, "ip");
		EQ(ev->auxtrace_error.time, fmt ? 0x0000001122334455ULL : 0,
		   "time");
		STR_EQ(ev->auxtrace_error.msg, "Lost trace data", "msg");
		EQ(ev->auxtrace_error.machine_pid, fmt == 2 ? 777 : 0,
		   "machine_pid");
		EQ(ev->auxtrace_error.vcpu, fmt == 2 ? 3 : 0, "vcpu");
	}
}

static void
test_thread_map(bool be, const struct pd_attr *attr)
{
	struct pd_thread_map_entry e = { 0 };
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_THREAD_MAP, 0);
	tb_u64(b, 2);
	tb_u64(b, 8139);
	tb_bytes(b, "ls", 2);
	tb_zeros(b, 14);
	tb_u64(b, (uint64_t)-1);
	tb_bytes(b, "0123456789abcdef", 16);
	ev = rec_ok(attr, STRICT);
	EQ(ev->thread_map.nr, 2, "nr");
	T(pd_thread_map_get(&ev->thread_map, 0, &e) == 0, "%s: 0", ctx);
	EQ(e.pid, 8139, "pid 0");
	STR_EQ(e.comm, "ls", "comm 0");
	T(pd_thread_map_get(&ev->thread_map, 1, &e) == 0, "%s: 1", ctx);
	EQ(e.pid, (uint64_t)-1, "pid 1");
	STR_EQ(e.comm, "0123456789abcdef", "comm 1 (16 chars, no NUL)");
	T(pd_thread_map_get(&ev->thread_map, 2, &e) == -PD_E_INVAL,
	  "%s: past nr", ctx);
}

/* The CPUs of a map, in enumeration order. */
static void
check_cpus(const struct pd_cpu_map *m, const int *want, size_t n)
{
	size_t pos = 0, i = 0;
	int cpu;

	while (pd_cpu_map_next(m, &pos, &cpu) == 1) {
		T(i < n && cpu == want[i], "%s: cpu %zu is %d, want %d", ctx,
		  i, cpu, i < n ? want[i] : -999);
		i++;
		if (i > n)
			break;
	}
	EQ(i, n, "cpu count");
}

/*
 * The cpu map data of doc/perf-data-format.md §7.5 (after the record
 * header, or the update's id).
 */
static size_t
put_cpu_map(struct tbuf *b, int form)
{
	size_t start = b->len;

	switch (form) {
	case 0:			/* CPUS 0, 2 and "any" */
		tb_u16(b, PD_CPU_MAP_CPUS);
		tb_u16(b, 3);
		tb_u16(b, 0);
		tb_u16(b, 2);
		tb_u16(b, 0xffff);
		break;
	case 1:			/* MASK, 32-bit words */
		tb_u16(b, PD_CPU_MAP_MASK);
		tb_u16(b, 2);
		tb_u16(b, 4);
		tb_u32(b, 0x80000005);
		tb_u32(b, 0x00000001);
		break;
	case 2:			/* MASK, 64-bit words after 4 pad bytes */
		tb_u16(b, PD_CPU_MAP_MASK);
		tb_u16(b, 2);
		tb_u16(b, 8);
		tb_zeros(b, 4);
		tb_u64(b, 0x8000000000000002ULL);
		tb_u64(b, 0x0000000000000002ULL);
		break;
	case 3:			/* RANGE with "any" */
		tb_u16(b, PD_CPU_MAP_RANGE);
		tb_u8(b, 1);
		tb_u8(b, 0);
		tb_u16(b, 4);
		tb_u16(b, 7);
		break;
	case 4:			/* RANGE without, one CPU */
		tb_u16(b, PD_CPU_MAP_RANGE);
		tb_u8(b, 0);
		tb_u8(b, 0);
		tb_u16(b, 9);
		tb_u16(b, 9);
		break;
	}
	return b->len - start;
}

static const int cpus0[] = { 0, 2, -1 };
static const int cpus1[] = { 0, 2, 31, 32 };
static const int cpus2[] = { 1, 63, 65 };
static const int cpus3[] = { -1, 4, 5, 6, 7 };
static const int cpus4[] = { 9 };
static const struct {
	const int *cpus;
	size_t n;
	uint16_t type;
	size_t nr;
} cpu_forms[] = {
	{ cpus0, 3, PD_CPU_MAP_CPUS, 3 },
	{ cpus1, 4, PD_CPU_MAP_MASK, 2 },
	{ cpus2, 3, PD_CPU_MAP_MASK, 2 },
	{ cpus3, 5, PD_CPU_MAP_RANGE, 0 },
	{ cpus4, 1, PD_CPU_MAP_RANGE, 0 },
};

static void
test_cpu_map(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;
	size_t data;
	int f;

	for (f = 0; f < (int)ARRAY_SIZE(cpu_forms); f++) {
		b = rec_begin(be, PD_RECORD_CPU_MAP, 0);
		data = put_cpu_map(b, f);
		tb_zeros(b, (8 - b->len % 8) % 8);
		ev = rec_ok(attr, 8 + data);
		EQ(ev->cpu_map.map.type, cpu_forms[f].type, "map type");
		EQ(ev->cpu_map.map.nr, cpu_forms[f].nr, "map nr");
		check_cpus(&ev->cpu_map.map, cpu_forms[f].cpus, cpu_forms[f].n);
	}
}

static void
test_cpu_map_bad(bool be)
{
	static const struct {
		uint16_t w[4];
		int want;
	} bad[] = {
		{ { PD_CPU_MAP_RANGE, 0, 7, 4 }, -PD_E_BAD_RECORD },
		{ { PD_CPU_MAP_MASK, 1, 2, 0 }, -PD_E_BAD_RECORD },
		{ { PD_CPU_MAP_CPUS, 9, 0, 0 }, -PD_E_BAD_RECORD },
		{ { 9, 0, 0, 0 }, -PD_E_UNSUPPORTED },
	};
	struct tbuf *b;
	size_t i, k;
	int rc;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		b = rec_begin(be, PD_RECORD_CPU_MAP, 0);
		if (bad[i].w[0] == PD_CPU_MAP_RANGE) {
			tb_u16(b, bad[i].w[0]);
			tb_u8(b, 0);
			tb_u8(b, 0);
			tb_u16(b, bad[i].w[2]);
			tb_u16(b, bad[i].w[3]);
		} else {
			for (k = 0; k < 4; k++)
				tb_u16(b, bad[i].w[k]);
		}
		rec_end(NULL);
		rc = rec_rc(NULL);
		T(rc == bad[i].want, "%s: bad cpu map %zu: %d", ctx, i, rc);
	}
}

static void
test_stat_config(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;
	size_t i;

	b = rec_begin(be, PD_RECORD_STAT_CONFIG, 0);
	tb_u64(b, 3);
	for (i = 0; i < 3; i++) {
		tb_u64(b, i);
		tb_u64(b, 0x0100000000000000ULL + i);
	}
	ev = rec_ok(attr, STRICT);
	EQ(ev->stat_config.nr, 3, "nr");
	for (i = 0; i < 3; i++) {
		EQ(pd_u64_array_get(&ev->stat_config.entries, 2 * i), i, "tag");
		EQ(pd_u64_array_get(&ev->stat_config.entries, 2 * i + 1),
		   0x0100000000000000ULL + i, "val");
	}
}

static void
test_stat(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_STAT, 0);
	tb_u64(b, 0x0000000000000225ULL);
	tb_u32(b, 3);
	tb_u32(b, 4);
	tb_u64(b, 0x1000000000000001ULL);
	tb_u64(b, 0x2000000000000002ULL);
	tb_u64(b, 0x3000000000000003ULL);
	ev = rec_ok(attr, STRICT);
	EQ(ev->stat.id, 0x225, "id");
	EQ(ev->stat.cpu, 3, "cpu");
	EQ(ev->stat.thread, 4, "thread");
	EQ(ev->stat.val, 0x1000000000000001ULL, "val");
	EQ(ev->stat.ena, 0x2000000000000002ULL, "ena");
	EQ(ev->stat.run, 0x3000000000000003ULL, "run");

	b = rec_begin(be, PD_RECORD_STAT_ROUND, 0);
	tb_u64(b, 1);
	tb_u64(b, 0x0000000123456789ULL);
	ev = rec_ok(attr, STRICT);
	EQ(ev->stat_round.type, 1, "round type");
	EQ(ev->stat_round.time, 0x0000000123456789ULL, "round time");
}

static void
test_event_update(bool be, const struct pd_attr *attr)
{
	const double scale = 1e-6;
	const union pd_event *ev;
	struct tbuf *b;
	uint64_t bits;
	size_t data;
	int f;

	b = rec_begin(be, PD_RECORD_EVENT_UPDATE, 0);
	tb_u64(b, PD_EVENT_UPDATE_UNIT);
	tb_u64(b, 549);
	tb_str_padded(b, "msec", 8);
	ev = rec_ok(attr, 24);
	EQ(ev->event_update.type, PD_EVENT_UPDATE_UNIT, "type");
	EQ(ev->event_update.id, 549, "id");
	STR_EQ(ev->event_update.str, "msec", "unit");
	EQ(ev->event_update.payload.len, 8, "payload len");

	b = rec_begin(be, PD_RECORD_EVENT_UPDATE, 0);
	tb_u64(b, PD_EVENT_UPDATE_NAME);
	tb_u64(b, 550);
	tb_str_padded(b, "cycles:u", 8);
	ev = rec_ok(attr, 24);
	STR_EQ(ev->event_update.str, "cycles:u", "name");

	memcpy(&bits, &scale, sizeof(bits));
	b = rec_begin(be, PD_RECORD_EVENT_UPDATE, 0);
	tb_u64(b, PD_EVENT_UPDATE_SCALE);
	tb_u64(b, 551);
	tb_u64(b, bits);
	ev = rec_ok(attr, STRICT);
	T(ev->event_update.scale == scale, "%s: scale %g", ctx,
	  ev->event_update.scale);

	for (f = 0; f < (int)ARRAY_SIZE(cpu_forms); f++) {
		b = rec_begin(be, PD_RECORD_EVENT_UPDATE, 0);
		tb_u64(b, PD_EVENT_UPDATE_CPUS);
		tb_u64(b, 552);
		data = put_cpu_map(b, f);
		tb_zeros(b, (8 - b->len % 8) % 8);
		ev = rec_ok(attr, 24 + data);
		EQ(ev->event_update.id, 552, "cpus id");
		EQ(ev->event_update.cpus.type, cpu_forms[f].type, "cpus type");
		check_cpus(&ev->event_update.cpus, cpu_forms[f].cpus,
			   cpu_forms[f].n);
	}

	/* a type we do not know: only the payload view */
	b = rec_begin(be, PD_RECORD_EVENT_UPDATE, 0);
	tb_u64(b, 99);
	tb_u64(b, 553);
	tb_u64(b, 0x0102030405060708ULL);
	ev = rec_ok(attr, 24);
	EQ(ev->event_update.type, 99, "unknown type");
	EQ(ev->event_update.payload.len, 8, "unknown payload");
}

static void
test_time_conv(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	union pd_event bad;
	struct pd_record rec;
	struct tbuf *b;
	size_t cut;
	int form;

	for (form = 0; form < 2; form++) {
		b = rec_begin(be, PD_RECORD_TIME_CONV, 0);
		tb_u64(b, 31);
		tb_u64(b, 0x0000000012345678ULL);
		tb_u64(b, 0xfffffff000000000ULL);
		if (form) {
			tb_u64(b, 0x0000abcdef000000ULL);
			tb_u64(b, 0x00ffffffffffffffULL);
			tb_u8(b, 1);
			tb_u8(b, 1);
			tb_zeros(b, 6);
		}
		ev = rec_ok(attr, form ? 32 : STRICT);
		EQ(ev->time_conv.time_shift, 31, "shift");
		EQ(ev->time_conv.time_mult, 0x12345678, "mult");
		EQ(ev->time_conv.time_zero, 0xfffffff000000000ULL, "zero");
		EQ(ev->time_conv.has_cycles, form, "has_cycles");
		EQ(ev->time_conv.time_cycles, form ? 0x0000abcdef000000ULL : 0,
		   "cycles");
		EQ(ev->time_conv.time_mask, form ? 0x00ffffffffffffffULL : 0,
		   "mask");
		EQ(ev->time_conv.cap_user_time_zero, form, "cap zero");
		EQ(ev->time_conv.cap_user_time_short, form, "cap short");
		/* a size between the two forms is neither */
		for (cut = 33; form && cut < 56; cut++) {
			make_rec(&rec, b, b->p, cut);
			T(pd_event_decode(attr, &rec, &bad) == -PD_E_BAD_RECORD,
			  "%s: time_conv size %zu", ctx, cut);
		}
	}
}

static void
test_feature(bool be, const struct pd_attr *attr)
{
	const union pd_event *ev;
	struct tbuf *b;

	/* perf 6.1 does not pad the payload: size 8 + 8 + 68 */
	b = rec_begin(be, PD_RECORD_HEADER_FEATURE, 0);
	tb_u64(b, PD_FEAT_HOSTNAME);
	tb_header_string(b, "myhost");
	ev = rec_ok(attr, 16);
	EQ(ev->feature.feat_id, PD_FEAT_HOSTNAME, "feat_id");
	EQ(ev->feature.payload.len, 68, "payload len");
	EQ(tb_get_uint(ev->feature.payload.p, 4, be), 64, "payload string len");
	T(memcmp(ev->feature.payload.p + 4, "myhost", 7) == 0,
	  "%s: payload", ctx);
	EQ(ev->header.size, 84, "size");
}

static void
test_compressed(bool be, const struct pd_attr *attr)
{
	static const unsigned char z[13] = {
		0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x58, 1, 2, 3, 4, 5, 6, 7,
	};
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_COMPRESSED, 0);
	tb_bytes(b, z, sizeof(z));
	ev = rec_ok(attr, 8);
	EQ(ev->compressed.data_size, 13, "data_size");
	EQ(ev->compressed.data.len, 13, "data len");
	T(memcmp(ev->compressed.data.p, z, 13) == 0, "%s: data", ctx);

	b = rec_begin(be, PD_RECORD_COMPRESSED2, 0);
	tb_u64(b, sizeof(z));
	tb_bytes(b, z, sizeof(z));
	tb_zeros(b, 3);
	ev = rec_ok(attr, 16 + 13);
	EQ(ev->compressed.data_size, 13, "2: data_size");
	EQ(ev->compressed.data.len, 13, "2: data len");
	T(memcmp(ev->compressed.data.p, z, 13) == 0, "%s: 2: data", ctx);

	/*
	 * the overflowed data_size of the perf 6.16 writer bug
	 * (doc/perf-data-format.md §10.1)
	 */
	b = rec_begin(be, PD_RECORD_COMPRESSED2, 0);
	tb_u64(b, 0x10010);
	tb_bytes(b, z, sizeof(z));
	tb_zeros(b, 3);
	rec_end(attr);
	T(rec_rc(attr) == -PD_E_BAD_RECORD,
	  "%s: data_size past the record", ctx);
}

static void
test_bpf_metadata(bool be, const struct pd_attr *attr)
{
	struct pd_bpf_metadata_entry e = { 0 };
	const union pd_event *ev;
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_BPF_METADATA, 0);
	tb_bytes(b, "perf_sample_filter", 18);
	tb_zeros(b, PD_BPF_PROG_NAME_LEN - 18);
	tb_u64(b, 2);
	tb_bytes(b, "version", 7);
	tb_zeros(b, PD_BPF_METADATA_KEY_LEN - 7);
	tb_bytes(b, "\"1.0\"", 5);
	tb_zeros(b, PD_BPF_METADATA_VALUE_LEN - 5);
	/* a key and a value that fill their fields */
	tb_zeros(b, 0);
	{
		char key[PD_BPF_METADATA_KEY_LEN];
		char val[PD_BPF_METADATA_VALUE_LEN];

		memset(key, 'k', sizeof(key));
		memset(val, 'v', sizeof(val));
		tb_bytes(b, key, sizeof(key));
		tb_bytes(b, val, sizeof(val));
	}
	ev = rec_ok(attr, STRICT);
	STR_EQ(ev->bpf_metadata.prog_name, "perf_sample_filter", "prog");
	EQ(ev->bpf_metadata.nr_entries, 2, "nr");
	T(pd_bpf_metadata_get(&ev->bpf_metadata, 0, &e) == 0, "%s: 0", ctx);
	STR_EQ(e.key, "version", "key 0");
	STR_EQ(e.value, "\"1.0\"", "value 0");
	T(pd_bpf_metadata_get(&ev->bpf_metadata, 1, &e) == 0, "%s: 1", ctx);
	EQ(e.key.len, PD_BPF_METADATA_KEY_LEN, "key 1 len");
	EQ(e.value.len, PD_BPF_METADATA_VALUE_LEN, "value 1 len");
	T(pd_bpf_metadata_get(&ev->bpf_metadata, 2, &e) == -PD_E_INVAL,
	  "%s: past nr", ctx);
}

static void
test_schedstat(bool be, const struct pd_attr *attr)
{
	uint32_t type;
	size_t i;

	for (type = PD_RECORD_SCHEDSTAT_CPU;
	     type <= PD_RECORD_SCHEDSTAT_DOMAIN; type++) {
		bool dom = type == PD_RECORD_SCHEDSTAT_DOMAIN;
		const union pd_event *ev;
		struct tbuf *b;

		b = rec_begin(be, type, 0);
		tb_u64(b, 0x0000000100000002ULL);
		tb_u32(b, 17);
		tb_u16(b, 17);
		tb_u16(b, dom ? 3 : 0);
		for (i = 0; i < 5; i++)
			tb_u64(b, 0xc000 + i);
		tb_u32(b, 0xc0de);
		tb_u32(b, 0);
		ev = rec_ok(attr, 24);
		EQ(ev->schedstat.timestamp, 0x0000000100000002ULL, "timestamp");
		EQ(ev->schedstat.cpu, 17, "cpu");
		EQ(ev->schedstat.version, 17, "version");
		EQ(ev->schedstat.domain, dom ? 3 : 0, "domain");
		EQ(ev->schedstat.counters.len, 48, "counters len");
		EQ(tb_get_uint(ev->schedstat.counters.p + 8, 8, be), 0xc001,
		   "counter 1");
	}
}

/* ---- malformed records common to all types ---- */

static void
test_malformed(bool be)
{
	static const uint32_t unknown[] = {
		PD_RECORD_KERNEL_MAX, 63, PD_RECORD_USER_MAX, 200,
		PD_RECORD_SP_KERNEL_SYMBOL, 0,
	};
	union pd_event ev;
	struct pd_record rec;
	struct tbuf *b;
	size_t i;
	uint64_t nr;

	for (i = 0; i < ARRAY_SIZE(unknown); i++) {
		b = rec_begin(be, unknown[i], 0);
		tb_u64(b, 0);
		rec_end(NULL);
		T(rec_rc(&attrs[2]) == -PD_E_UNSUPPORTED,
		  "%s: type %u", ctx, unknown[i]);
		EQ(cur.ev.header.type, unknown[i], "unknown: header kept");
	}

	b = rec_begin(be, PD_RECORD_SAMPLE, 0);
	tb_u64(b, 0);
	rec_end(NULL);
	make_rec(&rec, b, b->p, b->len);
	T(pd_event_decode(&attrs[2], &rec, &ev) == -PD_E_INVAL,
	  "%s: SAMPLE", ctx);
	rec.header.type = PD_RECORD_LOST;
	rec.size = 7;
	T(pd_event_decode(NULL, &rec, &ev) == -PD_E_BAD_SIZE, "%s: size 7",
	  ctx);
	T(pd_event_decode(NULL, NULL, &ev) == -PD_E_INVAL, "%s: no rec", ctx);

	/* a trailer longer than the record */
	b = rec_begin(be, PD_RECORD_LOST, 0);
	tb_u64(b, 1);
	tb_u64(b, 2);
	rec_end(NULL);
	T(rec_rc(&attrs[2]) == -PD_E_BAD_RECORD,
	  "%s: trailer past the start", ctx);

	/* counts that lie, some so large they overflow a multiplication */
	for (nr = 1ULL << 60; nr; nr = nr == 1ULL << 60 ? (uint64_t)-1 :
	     nr == (uint64_t)-1 ? 0x0aaaaaaaaaaaaaabULL :
	     nr == 0x0aaaaaaaaaaaaaabULL ? 0x100 : 0) {
		static const struct {
			uint32_t type;
			size_t before;	/* u64 before the count */
		} counted[] = {
			{ PD_RECORD_NAMESPACES, 1 },
			{ PD_RECORD_CALLCHAIN_DEFERRED, 1 },
			{ PD_RECORD_ID_INDEX, 0 },
			{ PD_RECORD_THREAD_MAP, 0 },
			{ PD_RECORD_STAT_CONFIG, 0 },
			{ PD_RECORD_COMPRESSED2, 0 },
		};
		size_t k, j;

		for (k = 0; k < ARRAY_SIZE(counted); k++) {
			b = rec_begin(be, counted[k].type, 0);
			for (j = 0; j < counted[k].before; j++)
				tb_u64(b, 0x77);
			tb_u64(b, nr);
			tb_u64(b, 0x1234);
			tb_u64(b, 0x5678);
			rec_end(NULL);
			T(rec_rc(NULL) == -PD_E_BAD_RECORD,
			  "%s: type %u count %#llx", ctx, counted[k].type,
			  (unsigned long long)nr);
		}
		/* BPF_METADATA: the count after the 512-byte name */
		b = rec_begin(be, PD_RECORD_BPF_METADATA, 0);
		tb_zeros(b, PD_BPF_PROG_NAME_LEN);
		tb_u64(b, nr);
		tb_zeros(b, 16);
		rec_end(NULL);
		T(rec_rc(NULL) == -PD_E_BAD_RECORD,
		  "%s: bpf metadata count", ctx);
	}

	/* TEXT_POKE lengths past the record */
	b = rec_begin(be, PD_RECORD_TEXT_POKE, 0);
	tb_u64(b, 0xffffffff81000000ULL);
	tb_u16(b, 0xffff);
	tb_u16(b, 0xffff);
	tb_zeros(b, 4);
	rec_end(NULL);
	T(rec_rc(NULL) == -PD_E_BAD_RECORD,
	  "%s: text_poke lengths", ctx);
}

/* The closed record under test fails, and want says why. */
static void
expect_why(const struct pd_attr *attr, const char *want)
{
	struct pd_record rec;
	char why[256];
	size_t n;

	make_rec(&rec, &cur.b, cur.b.p, cur.b.len);
	T(pd_event_decode(attr, &rec, &cur.ev) < 0, "%s: %s: decodes", ctx,
	  want);
	n = pd_event_explain(attr, &rec, why, sizeof(why));
	T_EQ_STR(why, want, ctx);
	T_EQ_U64(n, strlen(want), want);
}

static void
test_explain(bool be)
{
	struct tbuf *b;

	b = rec_begin(be, PD_RECORD_THREAD_MAP, 0);
	tb_u64(b, 1000);
	tb_u64(b, 0x1234);
	rec_end(NULL);
	expect_why(NULL, "thread map: 1000 entries need 24000 bytes at byte 16 of the record, but 8 are left");

	b = rec_begin(be, PD_RECORD_LOST, 0);
	tb_u64(b, 1);
	rec_end(NULL);
	expect_why(NULL, "the fixed fields: 16 bytes at byte 8 of the record, but 8 are left");
	b = rec_begin(be, PD_RECORD_LOST, 0);
	tb_u64(b, 1);
	rec_end(&attrs[3]);
	expect_why(&attrs[3], "the fixed fields: 16 bytes at byte 8 of the record, but 8 are left before the sample_id trailer");

	b = rec_begin(be, PD_RECORD_LOST, 0);
	tb_u64(b, 1);
	tb_u64(b, 2);
	rec_end(NULL);
	expect_why(&attrs[2], "sample_id trailer: 48 bytes (sample_type 0x103e7), but the record has 16 after its header");

	b = rec_begin(be, 200, 0);
	rec_end(NULL);
	expect_why(NULL, "record type 200 is unknown to pdata");

	b = rec_begin(be, PD_RECORD_READ, 0);
	tb_u64(b, 1);
	tb_u64(b, 2);
	rec_end(NULL);
	expect_why(NULL, "read values: no attr to give their read_format");

	b = rec_begin(be, PD_RECORD_CPU_MAP, 0);
	tb_u16(b, PD_CPU_MAP_MASK);
	tb_u16(b, 1);
	tb_u16(b, 2);
	tb_u16(b, 0);
	rec_end(NULL);
	expect_why(NULL, "cpu map long_size: 2 at byte 12 of the record is neither 4 nor 8");

	b = rec_begin(be, PD_RECORD_AUXTRACE_ERROR, 0);
	tb_zeros(b, 20);
	tb_u32(b, 1);		/* fmt 1: a time follows ip */
	tb_u64(b, 0xffffffff81000000ULL);
	rec_end(NULL);
	expect_why(NULL, "time: 8 bytes at byte 40 of the record, but 0 are left");

	b = rec_begin(be, PD_RECORD_TEXT_POKE, 0);
	tb_u64(b, 0xffffffff81000000ULL);
	tb_u16(b, 0xffff);
	tb_u16(b, 1);
	tb_zeros(b, 4);
	rec_end(NULL);
	expect_why(NULL, "old bytes: 65535 bytes at byte 20 of the record, but 4 are left");

	b = rec_begin(be, PD_RECORD_HEADER_BUILD_ID, PD_MISC_BUILD_ID_SIZE);
	tb_u32(b, (uint32_t)-1);
	tb_zeros(b, PD_BUILD_ID_SIZE);
	tb_u8(b, 21);
	tb_zeros(b, 3);
	tb_zeros(b, 8);
	rec_end(NULL);
	expect_why(NULL, "build-id size: 21 at byte 32 of the record is larger than 20");
}

static const struct {
	const char *name;
	void (*fn)(bool be, const struct pd_attr *attr);
} tests[] = {
	{ "MMAP", test_mmap },
	{ "MMAP2", test_mmap2 },
	{ "LOST", test_lost },
	{ "COMM", test_comm },
	{ "FORK/EXIT", test_fork },
	{ "THROTTLE", test_throttle },
	{ "READ", test_read },
	{ "AUX", test_aux },
	{ "ITRACE_START", test_itrace_start },
	{ "LOST_SAMPLES", test_lost_samples },
	{ "SWITCH", test_switch },
	{ "NAMESPACES", test_namespaces },
	{ "KSYMBOL", test_ksymbol },
	{ "BPF_EVENT", test_bpf_event },
	{ "CGROUP", test_cgroup },
	{ "TEXT_POKE", test_text_poke },
	{ "AUX_OUTPUT_HW_ID", test_aux_output_hw_id },
	{ "CALLCHAIN_DEFERRED", test_callchain_deferred },
	{ "HEADER_ATTR", test_header_attr },
	{ "EVENT_TYPE", test_event_type },
	{ "TRACING_DATA", test_tracing_data },
	{ "BUILD_ID", test_build_id },
	{ "FINISHED_*", test_no_payload },
	{ "ID_INDEX", test_id_index },
	{ "AUXTRACE_INFO", test_auxtrace_info },
	{ "AUXTRACE", test_auxtrace },
	{ "AUXTRACE_ERROR", test_auxtrace_error },
	{ "THREAD_MAP", test_thread_map },
	{ "CPU_MAP", test_cpu_map },
	{ "STAT_CONFIG", test_stat_config },
	{ "STAT/STAT_ROUND", test_stat },
	{ "EVENT_UPDATE", test_event_update },
	{ "TIME_CONV", test_time_conv },
	{ "HEADER_FEATURE", test_feature },
	{ "COMPRESSED", test_compressed },
	{ "BPF_METADATA", test_bpf_metadata },
	{ "SCHEDSTAT", test_schedstat },
};

int
main(void)
{
	size_t i;
	int be, k;

	attrs_init();
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		for (be = 0; be < 2; be++)
			for (k = 0; k < 4; k++) {
				snprintf(ctx, sizeof(ctx), "%s %s attr%d",
					 tests[i].name, be ? "BE" : "LE", k);
				tests[i].fn(be, k ? &attrs[k] : NULL);
			}
	for (be = 0; be < 2; be++) {
		snprintf(ctx, sizeof(ctx), "malformed %s", be ? "BE" : "LE");
		test_header_attr_bad(be);
		test_cpu_map_bad(be);
		test_malformed(be);
		test_explain(be);
	}
	tb_free(&cur.b);
	printf("events: %u images, %u truncations\n", nr_images, nr_cuts);
	return t_done("events");
}
