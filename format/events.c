/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/events.c - decode every record type but PERF_RECORD_SAMPLE.
 *
 * One decoder per type, found through a table indexed by the type.  The
 * dispatcher peels the sample_id trailer off kernel records first
 * (doc/perf-data-format.md §11.2), so each decoder sees only its own
 * payload through a bounded cursor and reads it like the layout tables
 * of doc/perf-records.md §2 and doc/perf-data-format.md §7 read.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "format/compiler.h"
#include "format/cursor.h"
#include "format/sample-int.h"
#include "pdata/errors.h"
#include "pdata/events.h"

/* What a decoder sees of its record. */
struct ev_ctx {
	struct pd_cursor c;	/* the payload, sample_id trailer excluded */
	const struct pd_attr *attr;	/* NULL when the event is unknown */
	const struct pd_record *rec;
	struct pd_why *why;	/* NULL unless a failure is explained */
};

/* The offset in the record of the cursor's next byte. */
static size_t
ev_at(const struct ev_ctx *x, const struct pd_cursor *c)
{
	return (size_t)(c->p - x->rec->data);
}

/*
 * The next n bytes at c hold field: 0, or -PD_E_BAD_RECORD telling why
 * (and c left short) when they are not there.
 */
static int
ev_need(struct ev_ctx *x, struct pd_cursor *c, size_t n, const char *field)
{
	if (cur_left(c) >= n)
		return 0;
	pd_why_short(x->why, c, -PD_E_BAD_RECORD, field, n);
	c->short_read = true;
	return -PD_E_BAD_RECORD;
}

/* nr items of each bytes fit at the cursor: 0, or -PD_E_BAD_RECORD. */
static int
ev_check_count(struct ev_ctx *x, uint64_t nr, uint64_t each,
	       const char *field)
{
	if (nr <= cur_left(&x->c) / each)
		return 0;
	return pd_why_count(x->why, &x->c, -PD_E_BAD_RECORD, field, nr,
			    "entries", each);
}

static void
ev_take_u64s(struct ev_ctx *x, uint64_t nr, struct pd_u64_array *out,
	     const char *field)
{
	if (!pd_take_u64s(&x->c, nr, out))
		pd_why_count(x->why, &x->c, -PD_E_BAD_RECORD, field, nr,
			     "entries", 8);
}

static void
ev_take_bytes(struct ev_ctx *x, uint64_t len, struct pd_bytes *out,
	      const char *field)
{
	if (!pd_take_bytes(&x->c, len, out))
		pd_why_short(x->why, &x->c, -PD_E_BAD_RECORD, field, len);
}

/* A string field of width bytes; NULL, 0 after a short read. */
static void
take_str(struct pd_cursor *c, size_t width, struct pd_str *out)
{
	const unsigned char *p = cur_bytes(c, width);

	out->s = (const char *)p;
	out->len = p ? pd_strnlen(out->s, width) : 0;
}

/* A string that runs to the end of the payload (NUL-padded to 8). */
static void
take_str_rest(struct pd_cursor *c, struct pd_str *out)
{
	take_str(c, cur_left(c), out);
}

static int
decode_mmap(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_mmap *e = &ev->mmap;

	e->pid = cur_u32(c);
	e->tid = cur_u32(c);
	e->start = cur_u64(c);
	e->len = cur_u64(c);
	e->pgoff = cur_u64(c);
	take_str_rest(c, &e->filename);
	return 0;
}

static int
decode_mmap2(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_mmap2 *e = &ev->mmap2;

	e->pid = cur_u32(c);
	e->tid = cur_u32(c);
	e->start = cur_u64(c);
	e->len = cur_u64(c);
	e->pgoff = cur_u64(c);
	e->has_build_id = (x->rec->header.misc & PD_MISC_MMAP_BUILD_ID) != 0;
	if (e->has_build_id) {
		e->build_id_size = cur_u8(c);
		cur_skip(c, 3);
		cur_copy(c, e->build_id, sizeof(e->build_id));
		if (e->build_id_size > sizeof(e->build_id))
			return pd_why_fail(x->why, -PD_E_BAD_RECORD,
					   "build_id_size: %u at byte %zu of the record is larger than %d",
					   e->build_id_size, ev_at(x, c) - 24,
					   PD_BUILD_ID_SIZE);
	} else {
		e->maj = cur_u32(c);
		e->min = cur_u32(c);
		e->ino = cur_u64(c);
		e->ino_generation = cur_u64(c);
	}
	e->prot = cur_u32(c);
	e->flags = cur_u32(c);
	take_str_rest(c, &e->filename);
	return 0;
}

static int
decode_lost(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;

	ev->lost.id = cur_u64(c);
	ev->lost.lost = cur_u64(c);
	return 0;
}

static int
decode_comm(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;

	ev->comm.pid = cur_u32(c);
	ev->comm.tid = cur_u32(c);
	take_str_rest(c, &ev->comm.comm);
	return 0;
}

static int
decode_fork(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_fork *e = &ev->fork;

	e->pid = cur_u32(c);
	e->ppid = cur_u32(c);
	e->tid = cur_u32(c);
	e->ptid = cur_u32(c);
	e->time = cur_u64(c);
	return 0;
}

static int
decode_throttle(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;

	ev->throttle.time = cur_u64(c);
	ev->throttle.id = cur_u64(c);
	ev->throttle.stream_id = cur_u64(c);
	return 0;
}

static int
decode_read(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;

	if (!x->attr)
		return pd_why_fail(x->why, -PD_E_INVAL,
				   "read values: no attr to give their read_format");
	ev->read.pid = cur_u32(c);
	ev->read.tid = cur_u32(c);
	pd_read_parse(c, x->attr->read_format, &ev->read.values, x->why);
	return 0;
}

static int
decode_aux(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;

	ev->aux.aux_offset = cur_u64(c);
	ev->aux.aux_size = cur_u64(c);
	ev->aux.flags = cur_u64(c);
	return 0;
}

static int
decode_itrace_start(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;

	ev->itrace_start.pid = cur_u32(c);
	ev->itrace_start.tid = cur_u32(c);
	return 0;
}

static int
decode_lost_samples(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;

	ev->lost_samples.lost = cur_u64(c);
	return 0;
}

static int
decode_switch(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_switch *e = &ev->context_switch;

	e->out = (x->rec->header.misc & PD_MISC_SWITCH_OUT) != 0;
	e->preempt = (x->rec->header.misc & PD_MISC_SWITCH_OUT_PREEMPT) != 0;
	e->next_prev_pid = (uint32_t)-1;
	e->next_prev_tid = (uint32_t)-1;
	if (x->rec->header.type == PD_RECORD_SWITCH_CPU_WIDE) {
		e->next_prev_pid = cur_u32(c);
		e->next_prev_tid = cur_u32(c);
	}
	return 0;
}

static int
decode_namespaces(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_namespaces *e = &ev->namespaces;
	uint64_t nr;
	int err;

	e->pid = cur_u32(c);
	e->tid = cur_u32(c);
	nr = cur_u64(c);
	err = ev_check_count(x, nr, 16, "namespaces link_info");
	if (err)
		return err;
	e->nr_namespaces = nr;
	pd_take_u64s(c, 2 * nr, &e->link_info);
	return 0;
}

static int
decode_ksymbol(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_ksymbol *e = &ev->ksymbol;

	e->addr = cur_u64(c);
	e->len = cur_u32(c);
	e->ksym_type = cur_u16(c);
	e->flags = cur_u16(c);
	take_str_rest(c, &e->name);
	return 0;
}

static int
decode_bpf_event(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_bpf_event *e = &ev->bpf;

	e->type = cur_u16(c);
	e->flags = cur_u16(c);
	e->id = cur_u32(c);
	cur_copy(c, e->tag, sizeof(e->tag));
	return 0;
}

static int
decode_cgroup(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;

	ev->cgroup.id = cur_u64(c);
	take_str_rest(c, &ev->cgroup.path);
	return 0;
}

static int
decode_text_poke(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_text_poke *e = &ev->text_poke;

	e->addr = cur_u64(c);
	e->old_len = cur_u16(c);
	e->new_len = cur_u16(c);
	ev_take_bytes(x, e->old_len, &e->old_bytes, "old bytes");
	ev_take_bytes(x, e->new_len, &e->new_bytes, "new bytes");
	return 0;
}

static int
decode_aux_output_hw_id(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;

	ev->aux_output_hw_id.hw_id = cur_u64(c);
	return 0;
}

static int
decode_callchain_deferred(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	uint64_t nr;

	ev->callchain_deferred.cookie = cur_u64(c);
	nr = cur_u64(c);
	ev_take_u64s(x, nr, &ev->callchain_deferred.ips, "callchain");
	return 0;
}

/*
 * The attr carries its own size at offset 4 (0 in the oldest files,
 * meaning PD_ATTR_SIZE_VER0); the ids fill the rest of the record
 * (doc/perf-data-format.md §7.3).
 */
static int
decode_header_attr(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_header_attr *e = &ev->attr;
	const unsigned char *p = c->p;
	uint32_t size;
	int err;

	size = pd_load_u32(p + 4, c->swap);
	if (size == 0)
		size = PD_ATTR_SIZE_VER0;
	if (size < PD_ATTR_SIZE_VER0)
		return pd_why_fail(x->why, -PD_E_BAD_ATTR,
				   "attr size: %" PRIu32 " at byte %zu of the record is below %d",
				   size, ev_at(x, c) + 4, PD_ATTR_SIZE_VER0);
	if (size > cur_left(c))
		return pd_why_short(x->why, c, -PD_E_BAD_RECORD, "attr", size);
	err = pd_attr_decode(p, size, c->swap, &e->attr);
	if (err)
		return pd_why_fail(x->why, err, "attr at byte %zu: %s",
				   ev_at(x, c), pd_strerror(err));
	cur_skip(c, size);
	pd_take_u64s(c, cur_left(c) / 8, &e->ids);
	return 0;
}

static int
decode_event_type(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	size_t width;

	ev->event_type.event_id = cur_u64(c);
	width = cur_left(c);
	if (width > PD_EVENT_TYPE_NAME_LEN)
		width = PD_EVENT_TYPE_NAME_LEN;
	take_str(c, width, &ev->event_type.name);
	return 0;
}

static int
decode_tracing_data(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;

	ev->tracing_data.size = cur_u32(c);
	return 0;
}

static int
decode_build_id(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_build_id *e = &ev->build_id;
	uint8_t size;

	e->pid = (int32_t)cur_u32(c);
	cur_copy(c, e->build_id, sizeof(e->build_id));
	size = cur_u8(c);
	cur_skip(c, 3);
	if (!(x->rec->header.misc & PD_MISC_BUILD_ID_SIZE))
		size = PD_BUILD_ID_SIZE;
	else if (size > PD_BUILD_ID_SIZE)
		return pd_why_fail(x->why, -PD_E_BAD_RECORD,
				   "build-id size: %u at byte %zu of the record is larger than %d",
				   size, ev_at(x, c) - 4, PD_BUILD_ID_SIZE);
	e->size = size;
	take_str_rest(c, &e->filename);
	return 0;
}

static int
decode_nothing(struct ev_ctx *x, union pd_event *ev)
{
	return 0;
}

/*
 * The machine_pid/vcpu half is there when the record is long enough for
 * it (doc/perf-data-format.md §7.4).
 */
static int
decode_id_index(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_id_index *e = &ev->id_index;
	uint64_t nr = cur_u64(c);
	int err;

	e->swap = c->swap;
	err = ev_check_count(x, nr, 32, "id index");
	if (err)
		return err;
	e->nr = (size_t)nr;
	if (!nr)
		return 0;
	e->entries = cur_bytes(c, e->nr * 32);
	if (cur_left(c) / 16 >= e->nr) {
		e->has_vm = true;
		e->entries2 = cur_bytes(c, e->nr * 16);
	}
	return 0;
}

static int
decode_auxtrace_info(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;

	ev->auxtrace_info.type = cur_u32(c);
	ev->auxtrace_info.reserved = cur_u32(c);
	pd_take_u64s(c, cur_left(c) / 8, &ev->auxtrace_info.priv);
	return 0;
}

static int
decode_auxtrace(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_auxtrace *e = &ev->auxtrace;

	e->size = cur_u64(c);
	e->offset = cur_u64(c);
	e->reference = cur_u64(c);
	e->idx = cur_u32(c);
	e->tid = cur_u32(c);
	e->cpu = cur_u32(c);
	e->reserved = cur_u32(c);
	return 0;
}

/*
 * fmt 0 has no time: msg starts where time would be.  perf cuts msg after
 * its NUL (and pads to 8) unless fmt 2 needs the fields behind it.
 */
static int
decode_auxtrace_error(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_auxtrace_error *e = &ev->auxtrace_error;
	size_t width;
	int err;

	e->type = cur_u32(c);
	e->code = cur_u32(c);
	e->cpu = cur_u32(c);
	e->pid = cur_u32(c);
	e->tid = cur_u32(c);
	e->fmt = cur_u32(c);
	e->ip = cur_u64(c);
	if (e->fmt >= 1) {
		err = ev_need(x, c, 8, "time");
		if (err)
			return err;
		e->time = cur_u64(c);
	}
	if (e->fmt >= 2) {
		err = ev_need(x, c, PD_AUXTRACE_ERROR_MSG_LEN + 8,
			      "msg, machine_pid and vcpu");
		if (err)
			return err;
		take_str(c, PD_AUXTRACE_ERROR_MSG_LEN, &e->msg);
		e->machine_pid = cur_u32(c);
		e->vcpu = cur_u32(c);
		return 0;
	}
	width = cur_left(c);
	if (width > PD_AUXTRACE_ERROR_MSG_LEN)
		width = PD_AUXTRACE_ERROR_MSG_LEN;
	take_str(c, width, &e->msg);
	return 0;
}

static int
decode_thread_map(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_thread_map *e = &ev->thread_map;
	uint64_t nr = cur_u64(c);
	int err;

	e->swap = c->swap;
	err = ev_check_count(x, nr, 24, "thread map");
	if (err)
		return err;
	e->nr = (size_t)nr;
	e->entries = nr ? cur_bytes(c, e->nr * 24) : NULL;
	return 0;
}

static int
cpu_map_cpus(struct ev_ctx *x, struct pd_cursor *c, struct pd_cpu_map *m)
{
	int err = ev_need(x, c, 2, "cpu map nr");

	if (err)
		return err;
	m->nr = cur_u16(c);
	if (!m->nr)
		return 0;
	m->data = cur_bytes(c, m->nr * 2);
	if (!m->data)
		return pd_why_count(x->why, c, -PD_E_BAD_RECORD, "cpu map",
				    m->nr, "cpus", 2);
	return 0;
}

static int
cpu_map_mask(struct ev_ctx *x, struct pd_cursor *c, struct pd_cpu_map *m)
{
	int err = ev_need(x, c, 4, "cpu map nr and long_size");

	if (err)
		return err;
	m->nr = cur_u16(c);
	m->long_size = cur_u16(c);
	if (m->long_size != 4 && m->long_size != 8)
		return pd_why_fail(x->why, -PD_E_BAD_RECORD,
				   "cpu map long_size: %u at byte %zu of the record is neither 4 nor 8",
				   m->long_size, ev_at(x, c) - 2);
	if (m->long_size == 8) {
		err = ev_need(x, c, 4, "cpu map padding");
		if (err)
			return err;
		cur_skip(c, 4);
	}
	if (!m->nr)
		return 0;
	m->data = cur_bytes(c, m->nr * m->long_size);
	if (!m->data)
		return pd_why_count(x->why, c, -PD_E_BAD_RECORD, "cpu map",
				    m->nr, "words", m->long_size);
	return 0;
}

static int
cpu_map_range(struct ev_ctx *x, struct pd_cursor *c, struct pd_cpu_map *m)
{
	int err = ev_need(x, c, 6, "cpu map range");

	if (err)
		return err;
	m->any_cpu = cur_u8(c) != 0;
	cur_skip(c, 1);
	m->start_cpu = cur_u16(c);
	m->end_cpu = cur_u16(c);
	if (m->end_cpu < m->start_cpu)
		return pd_why_fail(x->why, -PD_E_BAD_RECORD,
				   "cpu map range: end_cpu %u at byte %zu of the record is below start_cpu %u",
				   m->end_cpu, ev_at(x, c) - 2, m->start_cpu);
	return 0;
}

/*
 * struct perf_record_cpu_map_data is packed, so the fields after the
 * u16 type are at odd offsets (doc/perf-data-format.md §7.5).  c is the
 * record's cursor, or EVENT_UPDATE's view of its payload.
 */
static int
cpu_map_parse(struct ev_ctx *x, struct pd_cursor *c, struct pd_cpu_map *m)
{
	int err;

	*m = (struct pd_cpu_map){ .swap = c->swap };
	err = ev_need(x, c, 2, "cpu map type");
	if (err)
		return err;
	m->type = cur_u16(c);
	switch (m->type) {
	case PD_CPU_MAP_CPUS:
		return cpu_map_cpus(x, c, m);
	case PD_CPU_MAP_MASK:
		return cpu_map_mask(x, c, m);
	case PD_CPU_MAP_RANGE:
		return cpu_map_range(x, c, m);
	}
	return pd_why_fail(x->why, -PD_E_UNSUPPORTED,
			   "cpu map type: %u at byte %zu of the record is unknown",
			   m->type, ev_at(x, c) - 2);
}

int
pd_cpu_map_next(const struct pd_cpu_map *m, size_t *pos, int *cpu)
{
	size_t n, bits_per, bit;
	uint64_t word;

	switch (m->type) {
	case PD_CPU_MAP_CPUS:
		if (*pos >= m->nr)
			return 0;
		word = pd_load_u16(m->data + 2 * *pos, m->swap);
		*cpu = word == 0xffff ? -1 : (int)word;
		(*pos)++;
		return 1;
	case PD_CPU_MAP_MASK:
		bits_per = 8 * (size_t)m->long_size;
		while (*pos < m->nr * bits_per) {
			bit = *pos % bits_per;
			n = *pos / bits_per;
			if (m->long_size == 8)
				word = pd_load_u64(m->data + 8 * n, m->swap);
			else
				word = pd_load_u32(m->data + 4 * n, m->swap);
			word >>= bit;
			if (!word) {
				*pos += bits_per - bit;
				continue;
			}
			*pos += (size_t)__builtin_ctzll(word);
			*cpu = (int)*pos;
			(*pos)++;
			return 1;
		}
		return 0;
	case PD_CPU_MAP_RANGE:
		n = (size_t)(m->end_cpu - m->start_cpu) + 1 + m->any_cpu;
		if (m->end_cpu < m->start_cpu || *pos >= n)
			return 0;
		if (m->any_cpu && *pos == 0)
			*cpu = -1;
		else
			*cpu = m->start_cpu + (int)(*pos - m->any_cpu);
		(*pos)++;
		return 1;
	}
	return 0;
}

static int
decode_cpu_map(struct ev_ctx *x, union pd_event *ev)
{
	return cpu_map_parse(x, &x->c, &ev->cpu_map.map);
}

static int
decode_stat_config(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	uint64_t nr = cur_u64(c);
	int err;

	err = ev_check_count(x, nr, 16, "stat config");
	if (err)
		return err;
	ev->stat_config.nr = nr;
	pd_take_u64s(c, 2 * nr, &ev->stat_config.entries);
	return 0;
}

static int
decode_stat(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_stat *e = &ev->stat;

	e->id = cur_u64(c);
	e->cpu = cur_u32(c);
	e->thread = cur_u32(c);
	e->val = cur_u64(c);
	e->ena = cur_u64(c);
	e->run = cur_u64(c);
	return 0;
}

static int
decode_stat_round(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;

	ev->stat_round.type = cur_u64(c);
	ev->stat_round.time = cur_u64(c);
	return 0;
}

static int
decode_event_update(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_event_update *e = &ev->event_update;
	struct pd_cursor body;
	uint64_t bits;
	int err;

	e->type = cur_u64(c);
	e->id = cur_u64(c);
	body = *c;
	pd_take_bytes(c, cur_left(c), &e->payload);
	switch (e->type) {
	case PD_EVENT_UPDATE_UNIT:
	case PD_EVENT_UPDATE_NAME:
		take_str_rest(&body, &e->str);
		break;
	case PD_EVENT_UPDATE_SCALE:
		err = ev_need(x, &body, 8, "scale");
		if (err)
			return err;
		/* an IEEE 754 binary64 in the file's byte order */
		bits = cur_u64(&body);
		memcpy(&e->scale, &bits, sizeof(e->scale));
		break;
	case PD_EVENT_UPDATE_CPUS:
		return cpu_map_parse(x, &body, &e->cpus);
	}
	return 0;
}

/* The old form ends after time_zero; only whole forms are accepted. */
static int
decode_time_conv(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_time_conv *e = &ev->time_conv;
	int err;

	e->time_shift = cur_u64(c);
	e->time_mult = cur_u64(c);
	e->time_zero = cur_u64(c);
	if (!cur_left(c))
		return 0;
	err = ev_need(x, c, 24, "time_cycles, time_mask and the caps");
	if (err)
		return err;
	e->has_cycles = true;
	e->time_cycles = cur_u64(c);
	e->time_mask = cur_u64(c);
	e->cap_user_time_zero = cur_u8(c);
	e->cap_user_time_short = cur_u8(c);
	cur_skip(c, 6);
	return 0;
}

static int
decode_feature(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;

	ev->feature.feat_id = cur_u64(c);
	pd_take_bytes(c, cur_left(c), &ev->feature.payload);
	return 0;
}

static int
decode_compressed(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;

	ev->compressed.data_size = cur_left(c);
	pd_take_bytes(c, cur_left(c), &ev->compressed.data);
	return 0;
}

/*
 * Some perf versions wrote data_size past the record end
 * (doc/perf-data-format.md §10.1): such a record is corrupt.
 */
static int
decode_compressed2(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;

	ev->compressed.data_size = cur_u64(c);
	if (ev->compressed.data_size > cur_left(c))
		return pd_why_short(x->why, c, -PD_E_BAD_RECORD, "data",
				    ev->compressed.data_size);
	pd_take_bytes(c, ev->compressed.data_size, &ev->compressed.data);
	return 0;
}

static int
decode_bpf_metadata(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_bpf_metadata *e = &ev->bpf_metadata;
	const size_t entry = PD_BPF_METADATA_KEY_LEN +
			     PD_BPF_METADATA_VALUE_LEN;
	uint64_t nr;
	int err;

	take_str(c, PD_BPF_PROG_NAME_LEN, &e->prog_name);
	nr = cur_u64(c);
	err = ev_check_count(x, nr, entry, "bpf metadata");
	if (err)
		return err;
	e->nr_entries = (size_t)nr;
	e->entries = nr ? cur_bytes(c, e->nr_entries * entry) : NULL;
	return 0;
}

static int
decode_schedstat(struct ev_ctx *x, union pd_event *ev)
{
	struct pd_cursor *c = &x->c;
	struct pd_ev_schedstat *e = &ev->schedstat;
	uint16_t last;

	e->timestamp = cur_u64(c);
	e->cpu = cur_u32(c);
	e->version = cur_u16(c);
	last = cur_u16(c);
	if (x->rec->header.type == PD_RECORD_SCHEDSTAT_DOMAIN)
		e->domain = last;
	pd_take_bytes(c, cur_left(c), &e->counters);
	return 0;
}

struct event_ops {
	size_t min_size;	/* payload bytes every such record has */
	int (*decode)(struct ev_ctx *x, union pd_event *ev);
};

#define EV(type_, fn_, min_) [type_] = { .min_size = (min_), .decode = (fn_) }

static const struct event_ops event_ops[] = {
	EV(PD_RECORD_MMAP,		decode_mmap,		32),
	EV(PD_RECORD_LOST,		decode_lost,		16),
	EV(PD_RECORD_COMM,		decode_comm,		8),
	EV(PD_RECORD_EXIT,		decode_fork,		24),
	EV(PD_RECORD_THROTTLE,		decode_throttle,	24),
	EV(PD_RECORD_UNTHROTTLE,	decode_throttle,	24),
	EV(PD_RECORD_FORK,		decode_fork,		24),
	EV(PD_RECORD_READ,		decode_read,		16),
	EV(PD_RECORD_MMAP2,		decode_mmap2,		64),
	EV(PD_RECORD_AUX,		decode_aux,		24),
	EV(PD_RECORD_ITRACE_START,	decode_itrace_start,	8),
	EV(PD_RECORD_LOST_SAMPLES,	decode_lost_samples,	8),
	EV(PD_RECORD_SWITCH,		decode_switch,		0),
	EV(PD_RECORD_SWITCH_CPU_WIDE,	decode_switch,		8),
	EV(PD_RECORD_NAMESPACES,	decode_namespaces,	16),
	EV(PD_RECORD_KSYMBOL,		decode_ksymbol,		16),
	EV(PD_RECORD_BPF_EVENT,		decode_bpf_event,	16),
	EV(PD_RECORD_CGROUP,		decode_cgroup,		8),
	EV(PD_RECORD_TEXT_POKE,		decode_text_poke,	12),
	EV(PD_RECORD_AUX_OUTPUT_HW_ID,	decode_aux_output_hw_id, 8),
	EV(PD_RECORD_CALLCHAIN_DEFERRED, decode_callchain_deferred, 16),
	EV(PD_RECORD_HEADER_ATTR,	decode_header_attr,	64),
	EV(PD_RECORD_HEADER_EVENT_TYPE,	decode_event_type,	8),
	EV(PD_RECORD_HEADER_TRACING_DATA, decode_tracing_data,	4),
	EV(PD_RECORD_HEADER_BUILD_ID,	decode_build_id,	28),
	EV(PD_RECORD_FINISHED_ROUND,	decode_nothing,		0),
	EV(PD_RECORD_ID_INDEX,		decode_id_index,	8),
	EV(PD_RECORD_AUXTRACE_INFO,	decode_auxtrace_info,	8),
	EV(PD_RECORD_AUXTRACE,		decode_auxtrace,	40),
	EV(PD_RECORD_AUXTRACE_ERROR,	decode_auxtrace_error,	32),
	EV(PD_RECORD_THREAD_MAP,	decode_thread_map,	8),
	EV(PD_RECORD_CPU_MAP,		decode_cpu_map,		2),
	EV(PD_RECORD_STAT_CONFIG,	decode_stat_config,	8),
	EV(PD_RECORD_STAT,		decode_stat,		40),
	EV(PD_RECORD_STAT_ROUND,	decode_stat_round,	16),
	EV(PD_RECORD_EVENT_UPDATE,	decode_event_update,	16),
	EV(PD_RECORD_TIME_CONV,		decode_time_conv,	24),
	EV(PD_RECORD_HEADER_FEATURE,	decode_feature,		8),
	EV(PD_RECORD_COMPRESSED,	decode_compressed,	0),
	EV(PD_RECORD_FINISHED_INIT,	decode_nothing,		0),
	EV(PD_RECORD_COMPRESSED2,	decode_compressed2,	8),
	EV(PD_RECORD_BPF_METADATA,	decode_bpf_metadata,
	   PD_BPF_PROG_NAME_LEN + 8),
	EV(PD_RECORD_SCHEDSTAT_CPU,	decode_schedstat,	16),
	EV(PD_RECORD_SCHEDSTAT_DOMAIN,	decode_schedstat,	16),
};

/*
 * Peel the sample_id trailer off a kernel record (§11.2): *len is left
 * at the payload's length.
 */
static PD_ALWAYS_INLINE int
event_trailer(const struct pd_attr *attr, const struct pd_record *rec,
	      union pd_event *out, size_t *len, struct pd_why *why)
{
	uint64_t t = attr->sample_type;
	uint64_t unknown = t & ~(uint64_t)PD_SAMPLE_KNOWN_MASK;
	size_t trailer;

	if (unknown)
		return pd_why_fail(why, -PD_E_UNSUPPORTED,
				   "sample_type %#" PRIx64 ": bits %#" PRIx64 " are beyond those pdata knows",
				   t, unknown);
	trailer = pd_sample_id_trailer_size(t);
	if (*len < trailer)
		return pd_why_fail(why, -PD_E_BAD_RECORD,
				   "sample_id trailer: %zu bytes (sample_type %#" PRIx64 "), but the record has %zu after its header",
				   trailer, t, *len);
	pd_sample_id_parse_trailer(rec->data, rec->size, rec->swap, t,
				   &out->base.sample_id);
	*len -= trailer;
	return 0;
}

/*
 * The one walk over a record, for pd_event_decode() (why NULL: inlined
 * there, the telling folds away) and pd_event_explain().
 */
static PD_ALWAYS_INLINE int
event_walk(const struct pd_attr *attr, const struct pd_record *rec,
	   union pd_event *out, struct pd_why *why)
{
	const struct event_ops *ops;
	struct ev_ctx x = { .attr = attr, .rec = rec, .why = why };
	uint32_t type;
	size_t len;
	int err;

	if (!rec)
		return pd_why_fail(why, -PD_E_INVAL, "no record");
	memset(out, 0, sizeof(*out));
	out->base.header = rec->header;
	pd_sample_id_init(&out->base.sample_id);
	type = rec->header.type;
	if (type == PD_RECORD_SAMPLE)
		return pd_why_fail(why, -PD_E_INVAL,
				   "a SAMPLE is decoded by pd_sample_decode()");
	if (type >= ARRAY_SIZE(event_ops) || !event_ops[type].decode)
		return pd_why_fail(why, -PD_E_UNSUPPORTED,
				   "record type %" PRIu32 " is unknown to pdata",
				   type);
	ops = &event_ops[type];
	if (!rec->data)
		return pd_why_fail(why, -PD_E_BAD_SIZE,
				   "the record has no bytes");
	if (rec->size < PD_EVENT_HEADER_SIZE)
		return pd_why_fail(why, -PD_E_BAD_SIZE,
				   "record size %" PRIu32 " is below the %d-byte header",
				   rec->size, PD_EVENT_HEADER_SIZE);
	len = rec->size - PD_EVENT_HEADER_SIZE;
	if (type < PD_RECORD_USER_TYPE_START && attr &&
	    pd_attr_has(attr, PD_ATTR_SAMPLE_ID_ALL)) {
		err = event_trailer(attr, rec, out, &len, why);
		if (err)
			return err;
	}
	if (len < ops->min_size)
		return pd_why_fail(why, -PD_E_BAD_RECORD,
				   "the fixed fields: %zu bytes at byte %d of the record, but %zu are left%s",
				   ops->min_size, PD_EVENT_HEADER_SIZE, len,
				   len < rec->size - PD_EVENT_HEADER_SIZE ?
				   " before the sample_id trailer" : "");
	cur_init(&x.c, rec->data + PD_EVENT_HEADER_SIZE, len, rec->swap);
	err = ops->decode(&x, out);
	if (err)
		return pd_why_fail(why, err, "%s", pd_strerror(err));
	if (x.c.short_read)
		return pd_why_fail(why, -PD_E_BAD_RECORD,
				   "the payload ends inside a field at byte %zu of the record",
				   ev_at(&x, &x.c));
	return 0;
}

int
pd_event_decode(const struct pd_attr *attr, const struct pd_record *rec,
		union pd_event *out)
{
	if (!out)
		return -PD_E_INVAL;
	return event_walk(attr, rec, out, NULL);
}

size_t
pd_event_explain(const struct pd_attr *attr, const struct pd_record *rec,
		 char *why, size_t len)
{
	struct pd_why w = {
		.buf = why,
		.size = len,
		.rec = rec ? rec->data : NULL,
	};
	union pd_event scratch;

	if (len)
		why[0] = '\0';
	event_walk(attr, rec, &scratch, &w);
	return w.len;
}
