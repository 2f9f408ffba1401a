/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * format/sample.c - decode the body of PERF_RECORD_SAMPLE and the
 * sample_id trailer of the other kernel records.
 *
 * The field order is the kernel's output order (doc/perf-records.md
 * §3.1, doc/perf-data-format.md §8), not the order of the sample_type
 * bits.  Every count and size is checked against the bytes left before a
 * view is taken, so a lying count fails the sample instead of pointing
 * past the record.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "format/compiler.h"
#include "format/cursor.h"
#include "format/sample-int.h"
#include "pdata/errors.h"
#include "pdata/sample.h"

#define TRAILER_BITS							\
	(PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID |		\
	 PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU | PD_SAMPLE_IDENTIFIER)

/* perf checks these against header.size before anything else. */
#define FIXED_BITS							\
	(PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP | PD_SAMPLE_TID |		\
	 PD_SAMPLE_TIME | PD_SAMPLE_ADDR | PD_SAMPLE_ID |		\
	 PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU | PD_SAMPLE_PERIOD)

int
pd_why_fail(struct pd_why *w, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!w || w->told)
		return err;
	w->told = true;
	va_start(ap, fmt);
	n = vsnprintf(w->buf, w->size, fmt, ap);
	va_end(ap);
	w->len = n > 0 ? (size_t)n : 0;
	return err;
}

/* Where the cursor stands: its offset in the record, and what is left. */
static size_t
why_at(const struct pd_why *w, const struct pd_cursor *c)
{
	return (size_t)(c->p - w->rec);
}

static size_t
why_left(const struct pd_cursor *c)
{
	return (size_t)(c->end - c->p);
}

int
pd_why_short(struct pd_why *w, const struct pd_cursor *c, int err,
	     const char *field, uint64_t need)
{
	if (!w)
		return err;
	return pd_why_fail(w, err, "%s: %" PRIu64 " bytes at byte %zu of the record, but %zu are left",
			   field, need, why_at(w, c), why_left(c));
}

int
pd_why_count(struct pd_why *w, const struct pd_cursor *c, int err,
	     const char *field, uint64_t nr, const char *unit, uint64_t each)
{
	if (!w)
		return err;
	if (each && nr > UINT64_MAX / each)
		return pd_why_fail(w, err, "%s: %" PRIu64 " %s of %" PRIu64 " bytes each at byte %zu of the record overflow a 64-bit size, and %zu bytes are left",
				   field, nr, unit, each, why_at(w, c),
				   why_left(c));
	return pd_why_fail(w, err, "%s: %" PRIu64 " %s need %" PRIu64 " bytes at byte %zu of the record, but %zu are left",
			   field, nr, unit, nr * each, why_at(w, c),
			   why_left(c));
}

/*
 * The readers of the fields after the fixed part.  Each tells why when
 * its field does not fit; with a constant NULL sink they are the plain
 * cursor reads.
 */
static PD_ALWAYS_INLINE uint64_t
walk_u64(struct pd_cursor *c, struct pd_why *why, const char *field)
{
	if (why && cur_left(c) < 8)
		pd_why_short(why, c, -PD_E_BAD_SAMPLE, field, 8);
	return cur_u64(c);
}

static PD_ALWAYS_INLINE uint32_t
walk_u32(struct pd_cursor *c, struct pd_why *why, const char *field)
{
	if (why && cur_left(c) < 4)
		pd_why_short(why, c, -PD_E_BAD_SAMPLE, field, 4);
	return cur_u32(c);
}

static PD_ALWAYS_INLINE void
walk_u64s(struct pd_cursor *c, struct pd_why *why, const char *field,
	  uint64_t nr, struct pd_u64_array *out)
{
	if (!pd_take_u64s(c, nr, out) && why)
		pd_why_count(why, c, -PD_E_BAD_SAMPLE, field, nr, "entries", 8);
}

static PD_ALWAYS_INLINE void
walk_bytes(struct pd_cursor *c, struct pd_why *why, const char *field,
	   uint64_t len, struct pd_bytes *out)
{
	if (!pd_take_bytes(c, len, out) && why)
		pd_why_short(why, c, -PD_E_BAD_SAMPLE, field, len);
}

/*
 * The set bits of x.  Without -mpopcnt, __builtin_popcountll() is a call
 * into libgcc, and the fixed-size check runs on every sample.
 */
static PD_ALWAYS_INLINE unsigned int
bits64(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ULL;
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (unsigned int)((x * 0x0101010101010101ULL) >> 56);
}

int
pd_sample_id_pos(uint64_t sample_type)
{
	if (sample_type & PD_SAMPLE_IDENTIFIER)
		return 0;
	if (!(sample_type & PD_SAMPLE_ID))
		return -1;
	return (int)bits64(sample_type & (PD_SAMPLE_IP | PD_SAMPLE_TID |
					  PD_SAMPLE_TIME | PD_SAMPLE_ADDR));
}

int
pd_sample_is_pos(uint64_t sample_type)
{
	if (sample_type & PD_SAMPLE_IDENTIFIER)
		return 1;
	if (!(sample_type & PD_SAMPLE_ID))
		return -1;
	return 1 + (int)bits64(sample_type &
			       (PD_SAMPLE_CPU | PD_SAMPLE_STREAM_ID));
}

size_t
pd_sample_fixed_size(uint64_t sample_type)
{
	return 8 * (size_t)bits64(sample_type & FIXED_BITS);
}

size_t
pd_sample_id_trailer_size(uint64_t sample_type)
{
	return 8 * (size_t)bits64(sample_type & TRAILER_BITS);
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

static PD_ALWAYS_INLINE bool
read_walk(struct pd_cursor *c, uint64_t fmt, struct pd_read *out,
	  struct pd_why *why)
{
	*out = (struct pd_read){ .format = fmt, .swap = c->swap };
	if (fmt & PD_FORMAT_GROUP) {
		uint64_t nr = walk_u64(c, why, "read nr");

		if (fmt & PD_FORMAT_TOTAL_TIME_ENABLED)
			out->time_enabled = walk_u64(c, why,
						     "read time_enabled");
		if (fmt & PD_FORMAT_TOTAL_TIME_RUNNING)
			out->time_running = walk_u64(c, why,
						     "read time_running");
		out->stride = 8 * (1 + !!(fmt & PD_FORMAT_ID) +
				   !!(fmt & PD_FORMAT_LOST));
		if (nr > cur_left(c) / out->stride) {
			pd_why_count(why, c, -PD_E_BAD_SAMPLE, "read group",
				     nr, "entries", out->stride);
			c->short_read = true;
			return false;
		}
		out->nr = (size_t)nr;
		out->group = nr ? cur_bytes(c, out->nr * out->stride) : NULL;
		return !c->short_read;
	}
	out->one.value = walk_u64(c, why, "read value");
	if (fmt & PD_FORMAT_TOTAL_TIME_ENABLED)
		out->time_enabled = walk_u64(c, why, "read time_enabled");
	if (fmt & PD_FORMAT_TOTAL_TIME_RUNNING)
		out->time_running = walk_u64(c, why, "read time_running");
	/*
	 * perf reads the id unconditionally; we honour the bit
	 * (doc/perf-records.md §3.3)
	 */
	if (fmt & PD_FORMAT_ID)
		out->one.id = walk_u64(c, why, "read id");
	if (fmt & PD_FORMAT_LOST)
		out->one.lost = walk_u64(c, why, "read lost");
	if (c->short_read)
		return false;
	out->nr = 1;
	return true;
}

bool
pd_read_parse(struct pd_cursor *c, uint64_t read_format, struct pd_read *out,
	      struct pd_why *why)
{
	return read_walk(c, read_format, out, why);
}

/*
 * The kernel appends the counters for every branch-sampling member of a
 * group whose events log branch counters; perf decides from the group
 * leader (doc/perf-records.md §3.7).  We see one attr, so its
 * COUNTERS bit decides: callers set it for such groups (pdata/sample.h).
 */
static PD_ALWAYS_INLINE void
branch_walk(struct pd_cursor *c, uint64_t branch_sample_type,
	    struct pd_branch_stack *b, struct pd_why *why)
{
	uint64_t nr = walk_u64(c, why, "branch stack nr");
	size_t per = 24;

	b->swap = c->swap;
	b->big_endian = pd_file_big_endian(c->swap);
	b->has_hw_idx = (branch_sample_type & PD_BRANCH_HW_INDEX) != 0;
	b->has_counters = (branch_sample_type & PD_BRANCH_COUNTERS) != 0;
	if (b->has_hw_idx)
		b->hw_idx = walk_u64(c, why, "branch stack hw_idx");
	if (b->has_counters)
		per += 8;
	if (nr > cur_left(c) / per) {
		pd_why_count(why, c, -PD_E_BAD_SAMPLE, "branch stack", nr,
			     "entries", per);
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

static PD_ALWAYS_INLINE void
regs_walk(struct pd_cursor *c, uint64_t mask, struct pd_regs *r, bool intr,
	  struct pd_why *why)
{
	r->mask = mask;
	r->abi = walk_u64(c, why, intr ? "intr regs abi" : "user regs abi");
	if (r->abi != PD_REGS_ABI_NONE)
		walk_u64s(c, why, intr ? "intr regs" : "user regs",
			  (uint64_t)bits64(mask), &r->regs);
}

/*
 * size, the bytes, then dyn_size, which is there only when size is not 0
 * (§3.11).  The view is set even for size 0: dump tools find the size
 * word 8 bytes before it.
 */
static PD_ALWAYS_INLINE int
stack_walk(struct pd_cursor *c, struct pd_user_stack *st, struct pd_why *why)
{
	st->size = walk_u64(c, why, "user stack size");
	if (!st->size) {
		st->data.p = c->p;
		return 0;
	}
	walk_bytes(c, why, "user stack", st->size, &st->data);
	st->dyn_size = walk_u64(c, why, "user stack dyn_size");
	if (st->dyn_size > st->size)
		return pd_why_fail(why, -PD_E_BAD_SAMPLE,
				   "user stack dyn_size: %" PRIu64 " at byte %zu of the record is larger than the size %" PRIu64,
				   st->dyn_size, why ? why_at(why, c) - 8 : 0,
				   st->size);
	return 0;
}

/*
 * Zeroes a whole struct pd_sample.  With its size known, the compiler
 * writes a "rep stos", whose start-up cost was half of decoding a
 * sample; hiding the size makes it call memset(), which is fast at this
 * size.
 */
static PD_ALWAYS_INLINE void
sample_zero(struct pd_sample *s)
{
	size_t n = sizeof(*s);

#if defined(__GNUC__)
	__asm__("" : "+r"(n));
#endif
	memset(s, 0, n);
}

static void
sample_init(const struct pd_attr *attr, const struct pd_record *rec,
	    struct pd_sample *s)
{
	sample_zero(s);
	s->type = attr->sample_type;
	s->misc = rec->header.misc;
	s->cpumode = rec->header.misc & PD_MISC_CPUMODE_MASK;
	s->id = (uint64_t)-1;
	s->pid = (uint32_t)-1;
	s->tid = (uint32_t)-1;
	s->time = (uint64_t)-1;
	s->stream_id = (uint64_t)-1;
	s->cpu = (uint32_t)-1;
	s->period = attr->sample_period;
	s->data_src = PD_MEM_DATA_SRC_NONE;
	s->callchain.swap = rec->swap;
	s->user_regs.regs.swap = rec->swap;
	s->intr_regs.regs.swap = rec->swap;
}

/*
 * Checks common to both entry points; on success c covers the record
 * body (after the header).
 */
static PD_ALWAYS_INLINE int
sample_begin(const struct pd_attr *attr, const struct pd_record *rec,
	     struct pd_cursor *c, struct pd_why *why)
{
	uint64_t unknown = attr->sample_type &
			   ~(uint64_t)PD_SAMPLE_KNOWN_MASK;
	size_t fixed;

	/* the codes are spelled out: c is set only when 0 is returned */
	if (unknown) {
		pd_why_fail(why, -PD_E_UNSUPPORTED,
			    "sample_type %#" PRIx64 ": bits %#" PRIx64 " are beyond those pdata knows",
			    attr->sample_type, unknown);
		return -PD_E_UNSUPPORTED;
	}
	if (!rec->data) {
		pd_why_fail(why, -PD_E_BAD_SIZE, "the record has no bytes");
		return -PD_E_BAD_SIZE;
	}
	if (rec->size < PD_EVENT_HEADER_SIZE) {
		pd_why_fail(why, -PD_E_BAD_SIZE,
			    "record size %" PRIu32 " is below the %d-byte header",
			    rec->size, PD_EVENT_HEADER_SIZE);
		return -PD_E_BAD_SIZE;
	}
	cur_init(c, rec->data + PD_EVENT_HEADER_SIZE,
		 rec->size - PD_EVENT_HEADER_SIZE, rec->swap);
	fixed = pd_sample_fixed_size(attr->sample_type);
	if (cur_left(c) < fixed)
		return pd_why_short(why, c, -PD_E_BAD_SAMPLE,
				    "the fixed fields (IDENTIFIER to PERIOD)",
				    fixed);
	return 0;
}

/*
 * The one walk over a sample's fields, in the kernel's order.  why is
 * NULL for pd_sample_decode(): inlined there, every "tell why" folds
 * away.  The fixed fields have nothing to tell: sample_begin() checked
 * that they fit.
 */
static PD_ALWAYS_INLINE int
sample_walk(const struct pd_attr *attr, const struct pd_record *rec,
	    struct pd_sample *s, struct pd_why *why)
{
	struct pd_cursor c;
	uint64_t t, v;
	int err;

	if (!attr || !rec)
		return pd_why_fail(why, -PD_E_INVAL, "no %s",
				   attr ? "record" : "attr");
	sample_init(attr, rec, s);
	if (rec->header.type != PD_RECORD_SAMPLE)
		return pd_why_fail(why, -PD_E_INVAL,
				   "record type %" PRIu32 " is not a SAMPLE (%d)",
				   rec->header.type, PD_RECORD_SAMPLE);
	err = sample_begin(attr, rec, &c, why);
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
		read_walk(&c, attr->read_format, &s->read, why);
	if (t & PD_SAMPLE_CALLCHAIN) {
		v = walk_u64(&c, why, "callchain nr");
		walk_u64s(&c, why, "callchain", v, &s->callchain);
	}
	/* the kernel pads size so the next field is 8-aligned (§3.6) */
	if (t & PD_SAMPLE_RAW) {
		v = walk_u32(&c, why, "raw size");
		walk_bytes(&c, why, "raw", v, &s->raw);
	}
	if (t & PD_SAMPLE_BRANCH_STACK)
		branch_walk(&c, attr->branch_sample_type, &s->branch, why);
	if (t & PD_SAMPLE_REGS_USER)
		regs_walk(&c, attr->sample_regs_user, &s->user_regs, false,
			  why);
	if (t & PD_SAMPLE_STACK_USER) {
		err = stack_walk(&c, &s->user_stack, why);
		if (err)
			return err;
	}
	if (t & PD_SAMPLE_WEIGHT_TYPE) {
		v = walk_u64(&c, why, "weight");
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
		s->data_src = walk_u64(&c, why, "data_src");
	if (t & PD_SAMPLE_TRANSACTION)
		s->transaction = walk_u64(&c, why, "transaction");
	if (t & PD_SAMPLE_REGS_INTR)
		regs_walk(&c, attr->sample_regs_intr, &s->intr_regs, true,
			  why);
	if (t & PD_SAMPLE_PHYS_ADDR)
		s->phys_addr = walk_u64(&c, why, "phys_addr");
	if (t & PD_SAMPLE_CGROUP)
		s->cgroup = walk_u64(&c, why, "cgroup");
	if (t & PD_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = walk_u64(&c, why, "data_page_size");
	if (t & PD_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = walk_u64(&c, why, "code_page_size");
	if (t & PD_SAMPLE_AUX) {
		v = walk_u64(&c, why, "aux size");
		walk_bytes(&c, why, "aux", v, &s->aux);
	}

	if (c.short_read)
		return pd_why_fail(why, -PD_E_BAD_SAMPLE,
				   "the record ends inside a field");
	return 0;
}

int
pd_sample_decode(const struct pd_attr *attr, const struct pd_record *rec,
		 struct pd_sample *out)
{
	if (!out)
		return -PD_E_INVAL;
	return sample_walk(attr, rec, out, NULL);
}

/*
 * The fixed head of a SAMPLE, IDENTIFIER to CPU, in perf_event_open(2)'s
 * order, into the sample_id fields of *head (which keeps its values for
 * the fields sample_type lacks) and *ip.
 */
static void
head_read(struct pd_cursor *c, uint64_t t, struct pd_sample_id *head,
	  uint64_t *ip)
{
	if (t & PD_SAMPLE_IDENTIFIER)
		head->id = cur_u64(c);
	*ip = cur_u64_if(c, t, PD_SAMPLE_IP);
	if (t & PD_SAMPLE_TID) {
		head->pid = cur_u32(c);
		head->tid = cur_u32(c);
	}
	if (t & PD_SAMPLE_TIME)
		head->time = cur_u64(c);
	if (t & PD_SAMPLE_ADDR)
		cur_skip(c, 8);
	if (t & PD_SAMPLE_ID)
		head->id = cur_u64(c);
	if (t & PD_SAMPLE_STREAM_ID)
		head->stream_id = cur_u64(c);
	if (t & PD_SAMPLE_CPU) {
		head->cpu = cur_u32(c);
		head->cpu_res = cur_u32(c);
	}
}

#define KEY_BITS	(FIXED_BITS | PD_SAMPLE_CALLCHAIN | PD_SAMPLE_RAW)

int
pd_sample_key_decode(const struct pd_attr *attr, const struct pd_record *rec,
		     struct pd_sample_key *out)
{
	struct pd_sample_id head;
	struct pd_cursor c;
	uint64_t t;
	int err;

	if (!attr || !rec || !out)
		return -PD_E_INVAL;
	t = attr->sample_type;
	if (t & ~(uint64_t)KEY_BITS)
		return 1;
	if (rec->header.type != PD_RECORD_SAMPLE)
		return -PD_E_INVAL;
	err = sample_begin(attr, rec, &c, NULL);
	if (err)
		return err;
	pd_sample_id_init(&head);
	/* the fixed fields fit: sample_begin() checked */
	head_read(&c, t, &head, &out->ip);
	out->id = head.id;
	out->pid = head.pid;
	out->tid = head.tid;
	out->time = head.time;
	out->cpu = head.cpu;
	out->period = attr->sample_period;
	out->cpumode = rec->header.misc & PD_MISC_CPUMODE_MASK;
	if (t & PD_SAMPLE_PERIOD)
		out->period = cur_u64(&c);
	if (t & PD_SAMPLE_CALLCHAIN)
		pd_take_u64s(&c, cur_u64(&c), &out->callchain);
	else
		out->callchain = (struct pd_u64_array){ .swap = rec->swap };
	out->raw = (struct pd_bytes){ 0 };
	if (t & PD_SAMPLE_RAW)
		pd_take_bytes(&c, cur_u32(&c), &out->raw);
	return c.short_read ? -PD_E_BAD_SAMPLE : 0;
}

int
pd_sample_time(const struct pd_attr *attr, const struct pd_record *rec,
	       uint64_t *time)
{
	struct pd_sample_id id;
	uint64_t t;
	size_t at;
	int err;

	if (!attr || !rec || !time)
		return -PD_E_INVAL;
	t = attr->sample_type;
	if (rec->header.type != PD_RECORD_SAMPLE || !(t & PD_SAMPLE_TIME) ||
	    (t & ~(uint64_t)PD_SAMPLE_KNOWN_MASK) || !rec->data ||
	    rec->size < PD_EVENT_HEADER_SIZE + pd_sample_fixed_size(t)) {
		err = pd_sample_id_decode(attr, rec, &id);
		*time = id.time;
		return err;
	}
	/* TIME follows IDENTIFIER, IP and TID, a u64 each (§3.1) */
	at = PD_EVENT_HEADER_SIZE +
	     8 * (size_t)bits64(t & (PD_SAMPLE_IDENTIFIER | PD_SAMPLE_IP |
				     PD_SAMPLE_TID));
	*time = pd_load_u64(rec->data + at, rec->swap);
	return 0;
}

size_t
pd_sample_explain(const struct pd_attr *attr, const struct pd_record *rec,
		  char *why, size_t len)
{
	struct pd_why w = {
		.buf = why,
		.size = len,
		.rec = rec ? rec->data : NULL,
	};
	struct pd_sample scratch;

	if (len)
		why[0] = '\0';
	sample_walk(attr, rec, &scratch, &w);
	return w.len;
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
	uint64_t t, ip;
	int err;

	if (!attr || !rec || !out)
		return -PD_E_INVAL;
	pd_sample_id_init(out);
	t = attr->sample_type;
	if (rec->header.type == PD_RECORD_SAMPLE) {
		err = sample_begin(attr, rec, &c, NULL);
		if (err)
			return err;
		out->type = t & TRAILER_BITS;
		head_read(&c, t, out, &ip);
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
