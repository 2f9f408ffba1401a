/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/sample.c - decode the body of PERF_RECORD_SAMPLE and the
 * sample_id trailer of the other kernel records.
 *
 * The field order is the kernel's output order (perf-record-decoding.md
 * §3.1, perf-data-file-format.md §8), not the order of the sample_type
 * bits.  Every count and size is checked against the bytes left before a
 * view is taken, so a lying count fails the sample instead of pointing
 * past the record.
 */
#include "config.h"

#include <string.h>

#include "format/cursor.h"
#include "format/sample-int.h"
#include "pdata/errors.h"
#include "pdata/sample.h"

#ifdef WORDS_BIGENDIAN
#define HOST_BIG_ENDIAN true
#else
#define HOST_BIG_ENDIAN false
#endif

#define TRAILER_BITS							\
	(PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID |		\
	 PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU | PD_SAMPLE_IDENTIFIER)

/* perf checks these against header.size before anything else. */
#define FIXED_BITS							\
	(PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP | PD_SAMPLE_TID |		\
	 PD_SAMPLE_TIME | PD_SAMPLE_ADDR | PD_SAMPLE_ID |		\
	 PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU | PD_SAMPLE_PERIOD)

bool
pd_file_big_endian(bool swap)
{
	return HOST_BIG_ENDIAN != swap;
}

int
pd_sample_id_pos(uint64_t sample_type)
{
	if (sample_type & PD_SAMPLE_IDENTIFIER)
		return 0;
	if (!(sample_type & PD_SAMPLE_ID))
		return -1;
	return __builtin_popcountll(sample_type &
				    (PD_SAMPLE_IP | PD_SAMPLE_TID |
				     PD_SAMPLE_TIME | PD_SAMPLE_ADDR));
}

int
pd_sample_is_pos(uint64_t sample_type)
{
	if (sample_type & PD_SAMPLE_IDENTIFIER)
		return 1;
	if (!(sample_type & PD_SAMPLE_ID))
		return -1;
	return 1 + __builtin_popcountll(sample_type &
					(PD_SAMPLE_CPU | PD_SAMPLE_STREAM_ID));
}

size_t
pd_sample_fixed_size(uint64_t sample_type)
{
	return 8 * (size_t)__builtin_popcountll(sample_type & FIXED_BITS);
}

size_t
pd_sample_id_trailer_size(uint64_t sample_type)
{
	return 8 * (size_t)__builtin_popcountll(sample_type & TRAILER_BITS);
}

void
pd_sample_id_init(struct pd_sample_id *id)
{
	*id = (struct pd_sample_id){
		.pid = (uint32_t)-1,
		.tid = (uint32_t)-1,
		.time = (uint64_t)-1,
		.id = (uint64_t)-1,
		.stream_id = (uint64_t)-1,
		.cpu = (uint32_t)-1,
	};
}

bool
pd_read_parse(struct pd_cursor *c, uint64_t read_format, struct pd_read *out)
{
	uint64_t fmt = read_format;

	*out = (struct pd_read){ .format = fmt, .swap = c->swap };
	if (fmt & PD_FORMAT_GROUP) {
		uint64_t nr = cur_u64(c);

		out->time_enabled = cur_u64_if(c, fmt,
					       PD_FORMAT_TOTAL_TIME_ENABLED);
		out->time_running = cur_u64_if(c, fmt,
					       PD_FORMAT_TOTAL_TIME_RUNNING);
		out->stride = 8 * (1 + !!(fmt & PD_FORMAT_ID) +
				   !!(fmt & PD_FORMAT_LOST));
		if (nr > cur_left(c) / out->stride) {
			c->short_read = true;
			return false;
		}
		out->nr = (size_t)nr;
		out->group = nr ? cur_bytes(c, out->nr * out->stride) : NULL;
		return !c->short_read;
	}
	out->one.value = cur_u64(c);
	out->time_enabled = cur_u64_if(c, fmt, PD_FORMAT_TOTAL_TIME_ENABLED);
	out->time_running = cur_u64_if(c, fmt, PD_FORMAT_TOTAL_TIME_RUNNING);
	/* perf reads the id unconditionally; we honour the bit (§3.3) */
	out->one.id = cur_u64_if(c, fmt, PD_FORMAT_ID);
	out->one.lost = cur_u64_if(c, fmt, PD_FORMAT_LOST);
	if (c->short_read)
		return false;
	out->nr = 1;
	return true;
}

/*
 * The kernel appends the counters for every branch-sampling member of a
 * group whose events log branch counters; perf decides from the group
 * leader (perf-record-decoding.md §3.7).  We see one attr, so its
 * COUNTERS bit decides: callers set it for such groups (pdata/sample.h).
 */
static void
branch_parse(struct pd_cursor *c, uint64_t branch_sample_type,
	     struct pd_branch_stack *b)
{
	uint64_t nr = cur_u64(c);
	size_t per = 24;

	b->swap = c->swap;
	b->big_endian = pd_file_big_endian(c->swap);
	b->has_hw_idx = (branch_sample_type & PD_BRANCH_HW_INDEX) != 0;
	b->has_counters = (branch_sample_type & PD_BRANCH_COUNTERS) != 0;
	if (b->has_hw_idx)
		b->hw_idx = cur_u64(c);
	if (b->has_counters)
		per += 8;
	if (nr > cur_left(c) / per) {
		c->short_read = true;
		return;
	}
	b->nr = (size_t)nr;
	if (!nr)
		return;
	b->entries = cur_bytes(c, b->nr * 24);
	if (b->has_counters)
		b->counters = cur_bytes(c, b->nr * 8);
}

static void
regs_parse(struct pd_cursor *c, uint64_t mask, struct pd_regs *r)
{
	r->mask = mask;
	r->abi = cur_u64(c);
	if (r->abi != PD_REGS_ABI_NONE)
		pd_take_u64s(c, (uint64_t)__builtin_popcountll(mask), &r->regs);
}

static void
sample_init(const struct pd_attr *attr, const struct pd_record *rec,
	    struct pd_sample *s)
{
	*s = (struct pd_sample){
		.type = attr->sample_type,
		.misc = rec->header.misc,
		.cpumode = rec->header.misc & PD_MISC_CPUMODE_MASK,
		.id = (uint64_t)-1,
		.pid = (uint32_t)-1,
		.tid = (uint32_t)-1,
		.time = (uint64_t)-1,
		.stream_id = (uint64_t)-1,
		.cpu = (uint32_t)-1,
		.period = attr->sample_period,
		.data_src = PD_MEM_DATA_SRC_NONE,
	};
	s->callchain.swap = rec->swap;
	s->user_regs.regs.swap = rec->swap;
	s->intr_regs.regs.swap = rec->swap;
}

/*
 * Checks common to both entry points; on success c covers the record
 * body (after the header).
 */
static int
sample_begin(const struct pd_attr *attr, const struct pd_record *rec,
	     struct pd_cursor *c)
{
	if (attr->sample_type & ~PD_SAMPLE_KNOWN_MASK)
		return -PD_E_UNSUPPORTED;
	if (rec->size < PD_EVENT_HEADER_SIZE || !rec->data)
		return -PD_E_BAD_SIZE;
	if (rec->size - PD_EVENT_HEADER_SIZE <
	    pd_sample_fixed_size(attr->sample_type))
		return -PD_E_BAD_SAMPLE;
	cur_init(c, rec->data + PD_EVENT_HEADER_SIZE,
		 rec->size - PD_EVENT_HEADER_SIZE, rec->swap);
	return 0;
}

int
pd_sample_decode(const struct pd_attr *attr, const struct pd_record *rec,
		 struct pd_sample *out)
{
	struct pd_sample *s = out;
	struct pd_cursor c;
	uint64_t t, v;
	int err;

	if (!attr || !rec || !out)
		return -PD_E_INVAL;
	sample_init(attr, rec, s);
	if (rec->header.type != PD_RECORD_SAMPLE)
		return -PD_E_INVAL;
	err = sample_begin(attr, rec, &c);
	if (err)
		return err;
	t = attr->sample_type;

	if (t & PD_SAMPLE_IDENTIFIER)
		s->id = cur_u64(&c);
	s->ip = cur_u64_if(&c, t, PD_SAMPLE_IP);
	if (t & PD_SAMPLE_TID) {
		s->pid = cur_u32(&c);
		s->tid = cur_u32(&c);
	}
	if (t & PD_SAMPLE_TIME)
		s->time = cur_u64(&c);
	s->addr = cur_u64_if(&c, t, PD_SAMPLE_ADDR);
	if (t & PD_SAMPLE_ID)
		s->id = cur_u64(&c);
	if (t & PD_SAMPLE_STREAM_ID)
		s->stream_id = cur_u64(&c);
	if (t & PD_SAMPLE_CPU) {
		s->cpu = cur_u32(&c);
		s->cpu_res = cur_u32(&c);
	}
	if (t & PD_SAMPLE_PERIOD)
		s->period = cur_u64(&c);
	if (t & PD_SAMPLE_READ)
		pd_read_parse(&c, attr->read_format, &s->read);
	if (t & PD_SAMPLE_CALLCHAIN)
		pd_take_u64s(&c, cur_u64(&c), &s->callchain);
	/* the kernel pads size so the next field is 8-aligned (§3.6) */
	if (t & PD_SAMPLE_RAW)
		pd_take_bytes(&c, cur_u32(&c), &s->raw);
	if (t & PD_SAMPLE_BRANCH_STACK)
		branch_parse(&c, attr->branch_sample_type, &s->branch);
	if (t & PD_SAMPLE_REGS_USER)
		regs_parse(&c, attr->sample_regs_user, &s->user_regs);
	if (t & PD_SAMPLE_STACK_USER) {
		s->user_stack.size = cur_u64(&c);
		/* dyn_size is there only when size is not 0 (§3.11) */
		if (s->user_stack.size) {
			pd_take_bytes(&c, s->user_stack.size,
				      &s->user_stack.data);
			s->user_stack.dyn_size = cur_u64(&c);
			if (s->user_stack.dyn_size > s->user_stack.size)
				return -PD_E_BAD_SAMPLE;
		}
	}
	if (t & PD_SAMPLE_WEIGHT_TYPE) {
		v = cur_u64(&c);
		s->weight = v;
		/*
		 * The union is declared per byte order so that the u64 value
		 * is the same for both: var1 is always its low half (§3.8).
		 */
		if (t & PD_SAMPLE_WEIGHT_STRUCT)
			s->weight_struct = (struct pd_weight_struct){
				.var1 = (uint32_t)v,
				.var2 = (uint16_t)(v >> 32),
				.var3 = (uint16_t)(v >> 48),
			};
	}
	if (t & PD_SAMPLE_DATA_SRC)
		s->data_src = cur_u64(&c);
	s->transaction = cur_u64_if(&c, t, PD_SAMPLE_TRANSACTION);
	if (t & PD_SAMPLE_REGS_INTR)
		regs_parse(&c, attr->sample_regs_intr, &s->intr_regs);
	s->phys_addr = cur_u64_if(&c, t, PD_SAMPLE_PHYS_ADDR);
	s->cgroup = cur_u64_if(&c, t, PD_SAMPLE_CGROUP);
	s->data_page_size = cur_u64_if(&c, t, PD_SAMPLE_DATA_PAGE_SIZE);
	s->code_page_size = cur_u64_if(&c, t, PD_SAMPLE_CODE_PAGE_SIZE);
	if (t & PD_SAMPLE_AUX)
		pd_take_bytes(&c, cur_u64(&c), &s->aux);

	return c.short_read ? -PD_E_BAD_SAMPLE : 0;
}

void
pd_sample_id_parse_trailer(const unsigned char *buf, size_t len, bool swap,
			   uint64_t sample_type, struct pd_sample_id *out)
{
	const unsigned char *p = buf + len;
	uint64_t t = sample_type;

	pd_sample_id_init(out);
	out->type = t & TRAILER_BITS;
	if (t & PD_SAMPLE_IDENTIFIER) {
		p -= 8;
		out->id = pd_load_u64(p, swap);
	}
	if (t & PD_SAMPLE_CPU) {
		p -= 8;
		out->cpu = pd_load_u32(p, swap);
		out->cpu_res = pd_load_u32(p + 4, swap);
	}
	if (t & PD_SAMPLE_STREAM_ID) {
		p -= 8;
		out->stream_id = pd_load_u64(p, swap);
	}
	if (t & PD_SAMPLE_ID) {
		p -= 8;
		out->id = pd_load_u64(p, swap);
	}
	if (t & PD_SAMPLE_TIME) {
		p -= 8;
		out->time = pd_load_u64(p, swap);
	}
	if (t & PD_SAMPLE_TID) {
		p -= 8;
		out->pid = pd_load_u32(p, swap);
		out->tid = pd_load_u32(p + 4, swap);
	}
}

int
pd_sample_id_decode(const struct pd_attr *attr, const struct pd_record *rec,
		    struct pd_sample_id *out)
{
	struct pd_cursor c;
	uint64_t t;
	int err;

	if (!attr || !rec || !out)
		return -PD_E_INVAL;
	pd_sample_id_init(out);
	t = attr->sample_type;
	if (rec->header.type == PD_RECORD_SAMPLE) {
		err = sample_begin(attr, rec, &c);
		if (err)
			return err;
		out->type = t & TRAILER_BITS;
		if (t & PD_SAMPLE_IDENTIFIER)
			out->id = cur_u64(&c);
		if (t & PD_SAMPLE_IP)
			cur_skip(&c, 8);
		if (t & PD_SAMPLE_TID) {
			out->pid = cur_u32(&c);
			out->tid = cur_u32(&c);
		}
		if (t & PD_SAMPLE_TIME)
			out->time = cur_u64(&c);
		if (t & PD_SAMPLE_ADDR)
			cur_skip(&c, 8);
		if (t & PD_SAMPLE_ID)
			out->id = cur_u64(&c);
		if (t & PD_SAMPLE_STREAM_ID)
			out->stream_id = cur_u64(&c);
		if (t & PD_SAMPLE_CPU) {
			out->cpu = cur_u32(&c);
			out->cpu_res = cur_u32(&c);
		}
		return c.short_read ? -PD_E_BAD_SAMPLE : 0;
	}
	if (rec->header.type >= PD_RECORD_USER_TYPE_START ||
	    !pd_attr_has(attr, PD_ATTR_SAMPLE_ID_ALL))
		return 0;
	if (t & ~PD_SAMPLE_KNOWN_MASK)
		return -PD_E_UNSUPPORTED;
	if (rec->size < PD_EVENT_HEADER_SIZE || !rec->data)
		return -PD_E_BAD_SIZE;
	if (rec->size - PD_EVENT_HEADER_SIZE < pd_sample_id_trailer_size(t))
		return -PD_E_BAD_RECORD;
	pd_sample_id_parse_trailer(rec->data, rec->size, rec->swap, t, out);
	return 0;
}
