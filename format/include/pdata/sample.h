/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * pdata/sample.h - decode PERF_RECORD_SAMPLE and the sample_id trailer of
 * the other kernel records.
 *
 * Decoding copies the scalar fields into struct pd_sample in host byte
 * order.  Arrays stay where they are: they are views into the record's
 * bytes (file byte order, possibly unaligned), read one element at a time
 * with the inline accessors below, which do the copy and the byte swap.
 * Views borrow pd_record.data and die with it.
 *
 * Layout: doc/perf-records.md §3, doc/perf-data-format.md §8 and
 * §11.2; byte order: doc/perf-data-format.md §14.4 and §14.6.
 */
#ifndef PDATA_SAMPLE_H
#define PDATA_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pdata/abi.h"
#include "pdata/bitfield.h"
#include "pdata/errors.h"
#include "pdata/records.h"

/* nr u64 values at p, in the file's byte order. */
struct pd_u64_array {
	const unsigned char *p;		/* NULL when nr is 0 */
	size_t nr;
	bool swap;
};

/* Value i, or 0 when i is out of range. */
static inline uint64_t
pd_u64_array_get(const struct pd_u64_array *a, size_t i)
{
	uint64_t v;

	if (i >= a->nr)
		return 0;
	memcpy(&v, a->p + 8 * i, sizeof(v));
	return a->swap ? __builtin_bswap64(v) : v;
}

/* Opaque bytes, left in the producer's order (raw, stack, aux, payloads). */
struct pd_bytes {
	const unsigned char *p;		/* NULL when len is 0 */
	size_t len;
};

/* One value of a read_format block (doc/perf-records.md §3.3). */
struct pd_read_value {
	uint64_t value;
	uint64_t id;		/* 0 unless read_format has PD_FORMAT_ID */
	uint64_t lost;		/* 0 unless read_format has PD_FORMAT_LOST */
};

struct pd_read {
	uint64_t format;	/* attr.read_format */
	uint64_t time_enabled;	/* 0 unless PD_FORMAT_TOTAL_TIME_ENABLED */
	uint64_t time_running;	/* 0 unless PD_FORMAT_TOTAL_TIME_RUNNING */
	size_t nr;		/* the group's nr; 1 without PD_FORMAT_GROUP */
	/* use pd_read_value_get() rather than these */
	struct pd_read_value one;	/* the value without PD_FORMAT_GROUP */
	const unsigned char *group;	/* group entries, stride bytes each */
	unsigned int stride;
	bool swap;
};

/* Value i of the block; returns 0, or -PD_E_INVAL when i >= r->nr. */
static inline int
pd_read_value_get(const struct pd_read *r, size_t i, struct pd_read_value *out)
{
	const unsigned char *p;
	uint64_t v[3] = { 0, 0, 0 };
	unsigned int k, n;

	if (i >= r->nr) {
		memset(out, 0, sizeof(*out));
		return -PD_E_INVAL;
	}
	if (!(r->format & PD_FORMAT_GROUP)) {
		*out = r->one;
		return 0;
	}
	p = r->group + (size_t)r->stride * i;
	n = r->stride / 8;
	for (k = 0; k < n; k++) {
		memcpy(&v[k], p + 8 * k, 8);
		if (r->swap)
			v[k] = __builtin_bswap64(v[k]);
	}
	out->value = v[0];
	k = 1;
	out->id = (r->format & PD_FORMAT_ID) ? v[k++] : 0;
	out->lost = (r->format & PD_FORMAT_LOST) ? v[k] : 0;
	return 0;
}

/* One branch of a branch stack, every flag field decoded. */
struct pd_branch_entry {
	uint64_t from;
	uint64_t to;
	/*
	 * The flags word with the little-endian bit numbering of the
	 * PD_BRFL_* constants, whatever the writer's byte order.
	 */
	uint64_t flags;
	bool mispred;
	bool predicted;
	bool in_tx;
	bool abort;
	uint16_t cycles;
	uint8_t type;		/* PD_BR_* */
	uint8_t spec;		/* PD_BR_SPEC_* */
	uint8_t new_type;	/* PD_BR_NEW_*, when type is PD_BR_EXTEND_ABI */
	uint8_t priv;		/* PD_BR_PRIV_* */
};

struct pd_branch_stack {
	size_t nr;
	bool has_hw_idx;	/* branch_sample_type has PD_BRANCH_HW_INDEX */
	uint64_t hw_idx;	/* 0 when !has_hw_idx */
	bool has_counters;	/* branch_sample_type has PD_BRANCH_COUNTERS */
	/* use pd_branch_entry_get() and pd_branch_counter_get() */
	const unsigned char *entries;	/* nr entries of 24 bytes */
	const unsigned char *counters;	/* nr u64, or NULL */
	bool swap;
	bool big_endian;	/* the writer put bitfields from the MSB */
};

/*
 * The flags word in the PD_BRFL_* numbering: a big-endian writer's
 * bitfield is mirrored field by field (doc/perf-records.md §3.7).
 */
static inline uint64_t
pd_branch_flags_normalize(uint64_t word, bool big_endian)
{
	/* the one-bit flags (mispred .. abort) need no row */
	static const struct pd_bitfield wide[] = {
		{ PD_BRFL_CYCLES_SHIFT, PD_BRFL_CYCLES_WIDTH },
		{ PD_BRFL_TYPE_SHIFT, PD_BRFL_TYPE_WIDTH },
		{ PD_BRFL_SPEC_SHIFT, PD_BRFL_SPEC_WIDTH },
		{ PD_BRFL_NEW_TYPE_SHIFT, PD_BRFL_NEW_TYPE_WIDTH },
		{ PD_BRFL_PRIV_SHIFT, PD_BRFL_PRIV_WIDTH },
		/* the reserved bits above, one field in perf's struct */
		{ PD_BRFL_INFO_BITS, 64 - PD_BRFL_INFO_BITS },
	};

	if (!big_endian)
		return word;
	return pd_bitfield_from_be(word, 64, wide,
				   sizeof(wide) / sizeof(wide[0]));
}

static inline unsigned int
pd_branch_flag_field(uint64_t flags, unsigned int shift, unsigned int width)
{
	return (unsigned int)((flags >> shift) & ((1ULL << width) - 1));
}

/* Set e's flags word (PD_BRFL_* numbering) and every field it holds. */
static inline void
pd_branch_entry_set_flags(struct pd_branch_entry *e, uint64_t flags)
{
	e->flags = flags;
	e->mispred = pd_branch_flag_field(flags, PD_BRFL_MISPRED_SHIFT, 1);
	e->predicted = pd_branch_flag_field(flags, PD_BRFL_PREDICTED_SHIFT, 1);
	e->in_tx = pd_branch_flag_field(flags, PD_BRFL_IN_TX_SHIFT, 1);
	e->abort = pd_branch_flag_field(flags, PD_BRFL_ABORT_SHIFT, 1);
	e->cycles = (uint16_t)pd_branch_flag_field(flags, PD_BRFL_CYCLES_SHIFT,
						   PD_BRFL_CYCLES_WIDTH);
	e->type = (uint8_t)pd_branch_flag_field(flags, PD_BRFL_TYPE_SHIFT,
						PD_BRFL_TYPE_WIDTH);
	e->spec = (uint8_t)pd_branch_flag_field(flags, PD_BRFL_SPEC_SHIFT,
						PD_BRFL_SPEC_WIDTH);
	e->new_type = (uint8_t)pd_branch_flag_field(flags, PD_BRFL_NEW_TYPE_SHIFT,
						    PD_BRFL_NEW_TYPE_WIDTH);
	e->priv = (uint8_t)pd_branch_flag_field(flags, PD_BRFL_PRIV_SHIFT,
						PD_BRFL_PRIV_WIDTH);
}

/* Entry i (0 is the most recent branch); 0, or -PD_E_INVAL when i >= nr. */
static inline int
pd_branch_entry_get(const struct pd_branch_stack *b, size_t i,
		    struct pd_branch_entry *out)
{
	const unsigned char *p;
	uint64_t v[3];
	unsigned int k;

	if (i >= b->nr) {
		memset(out, 0, sizeof(*out));
		return -PD_E_INVAL;
	}
	p = b->entries + 24 * i;
	for (k = 0; k < 3; k++) {
		memcpy(&v[k], p + 8 * k, 8);
		if (b->swap)
			v[k] = __builtin_bswap64(v[k]);
	}
	out->from = v[0];
	out->to = v[1];
	pd_branch_entry_set_flags(out, pd_branch_flags_normalize(v[2], b->big_endian));
	return 0;
}

/*
 * The branch counters word of entry i (doc/perf-records.md §3.7,
 * "Branch counters"), or 0 when there are none or i >= nr.
 */
static inline uint64_t
pd_branch_counter_get(const struct pd_branch_stack *b, size_t i)
{
	uint64_t v;

	if (!b->counters || i >= b->nr)
		return 0;
	memcpy(&v, b->counters + 8 * i, sizeof(v));
	return b->swap ? __builtin_bswap64(v) : v;
}

/* REGS_USER or REGS_INTR. */
struct pd_regs {
	uint64_t abi;		/* PD_REGS_ABI_*; 0: absent, no values follow */
	uint64_t mask;		/* the attr's register mask */
	/* one value per set bit of mask, ascending; empty when abi is 0 */
	struct pd_u64_array regs;
};

/* The value of register number reg; false when the sample lacks it. */
static inline bool
pd_regs_get(const struct pd_regs *r, unsigned int reg, uint64_t *val)
{
	size_t idx;

	if (reg >= 64 || !r->regs.nr || !((r->mask >> reg) & 1))
		return false;
	idx = (size_t)__builtin_popcountll(r->mask & ((1ULL << reg) - 1));
	*val = pd_u64_array_get(&r->regs, idx);
	return true;
}

/*
 * The registers of r in ascending number, with their values: start with
 * *rest = r->mask; each call takes the lowest register left in *rest and
 * returns true, until the mask or the values run out.
 */
static inline bool
pd_regs_next(const struct pd_regs *r, uint64_t *rest, unsigned int *reg,
	     uint64_t *val)
{
	size_t idx;

	if (!*rest)
		return false;
	idx = (size_t)(__builtin_popcountll(r->mask) -
		       __builtin_popcountll(*rest & r->mask));
	if (idx >= r->regs.nr)
		return false;
	*reg = (unsigned int)__builtin_ctzll(*rest);
	*rest &= *rest - 1;
	*val = pd_u64_array_get(&r->regs, idx);
	return true;
}

struct pd_user_stack {
	uint64_t size;		/* bytes copied; 0 when absent */
	/*
	 * size bytes from the user SP up.  When the sample has STACK_USER,
	 * data.p is set even for size 0 (then len is 0): the size word is
	 * the 8 bytes before it.
	 */
	struct pd_bytes data;
	uint64_t dyn_size;	/* of those, bytes valid (<= size); 0 */
};

/* PD_SAMPLE_WEIGHT_STRUCT: the three parts of the one u64 (§3.8). */
struct pd_weight_struct {
	uint32_t var1;		/* bits 0..31: weight, e.g. load latency */
	uint16_t var2;		/* bits 32..47: instruction latency */
	uint16_t var3;		/* bits 48..63: retire latency, stage cycles */
};

/*
 * A decoded sample.  Each field holds perf's default when its
 * sample_type bit is clear (doc/perf-records.md §3.2).
 */
struct pd_sample {
	uint64_t type;		/* the attr's sample_type */
	uint16_t misc;		/* header.misc */
	uint8_t cpumode;	/* misc & PD_MISC_CPUMODE_MASK */
	uint64_t id;		/* IDENTIFIER or ID; (u64)-1 */
	uint64_t ip;		/* 0 */
	uint32_t pid, tid;	/* (u32)-1 */
	uint64_t time;		/* (u64)-1 */
	uint64_t addr;		/* 0 */
	uint64_t stream_id;	/* (u64)-1 */
	uint32_t cpu;		/* (u32)-1 */
	uint32_t cpu_res;	/* the u32 after cpu; 0 */
	uint64_t period;	/* attr.sample_period (a frequency with freq) */
	struct pd_read read;	/* nr 0 */
	struct pd_u64_array callchain;	/* ips, PD_CONTEXT_* markers; empty */
	struct pd_bytes raw;	/* empty */
	struct pd_branch_stack branch;	/* nr 0 */
	struct pd_regs user_regs;	/* abi 0 */
	struct pd_user_stack user_stack; /* size 0 */
	uint64_t weight;	/* WEIGHT or WEIGHT_STRUCT: the whole u64; 0 */
	struct pd_weight_struct weight_struct;	/* WEIGHT_STRUCT only; 0 */
	uint64_t data_src;	/* PD_MEM_DATA_SRC_NONE */
	uint64_t transaction;	/* 0 */
	struct pd_regs intr_regs;	/* abi 0 */
	uint64_t phys_addr;	/* 0 */
	uint64_t cgroup;	/* 0 */
	uint64_t data_page_size; /* 0 */
	uint64_t code_page_size; /* 0 */
	struct pd_bytes aux;	/* empty */
};

static inline bool
pd_sample_has(const struct pd_sample *s, uint64_t bit)
{
	return (s->type & bit) != 0;
}

/*
 * Decode a PERF_RECORD_SAMPLE with the attr of its event.
 *
 * Branch counters follow the entries when attr->branch_sample_type has
 * PD_BRANCH_COUNTERS.  The kernel writes them for every branch-sampling
 * member of a group that logs them, so for a member without the bit pass
 * a copy of its attr with the bit set when another event of its group
 * has it (perf keeps that fact on the leader, §3.7).
 *
 * Returns 0; -PD_E_UNSUPPORTED when sample_type has bits beyond
 * PD_SAMPLE_KNOWN_MASK; -PD_E_BAD_SAMPLE when a field, a count or a size
 * does not fit in rec->size bytes (nothing beyond them is ever read);
 * -PD_E_BAD_SIZE when rec->size is below the header; -PD_E_INVAL when rec
 * is not a SAMPLE.  Bytes after the last field are ignored, as perf does.
 * On error *out is unspecified; pd_sample_explain() says what failed.
 */
int pd_sample_decode(const struct pd_attr *attr, const struct pd_record *rec,
		     struct pd_sample *out);

/*
 * Why pd_sample_decode() fails on rec: the field, its byte offset in the
 * record (the header included) and the cause, e.g. "callchain: 1000
 * entries need 8000 bytes at byte 40 of the record, but 8 are left".
 * The text follows snprintf(3) into why (size len; why may be NULL when
 * len is 0) and its whole length is returned: 0, with why "", when the
 * sample decodes.  The decoder walks the record once more to tell this,
 * so call it on the error path only.
 */
size_t pd_sample_explain(const struct pd_attr *attr,
			 const struct pd_record *rec, char *why, size_t len);

/*
 * What identifies a sample for a report that counts repeats: its
 * leading fixed fields and its callchain, read in place.
 */
struct pd_sample_key {
	uint64_t id;		/* IDENTIFIER or ID; (u64)-1 */
	uint64_t ip;		/* 0 */
	uint64_t time;		/* (u64)-1 */
	uint64_t period;	/* attr.sample_period */
	uint32_t pid, tid;	/* (u32)-1 */
	uint32_t cpu;		/* (u32)-1 */
	uint8_t cpumode;	/* misc & PD_MISC_CPUMODE_MASK */
	struct pd_u64_array callchain;	/* empty without CALLCHAIN */
	struct pd_bytes raw;		/* empty without RAW */
};

/*
 * The key of a SAMPLE whose attr's sample_type has no bits but
 * IDENTIFIER to PERIOD, CALLCHAIN and RAW, without the cost of decoding
 * the whole sample: the fields are those pd_sample_decode() would give.
 * Returns 0; 1, with *out unspecified, when sample_type has other bits
 * (call pd_sample_decode() instead); or the error pd_sample_decode()
 * returns for rec, as with these bits it fails exactly when this does.
 */
int pd_sample_key_decode(const struct pd_attr *attr,
			 const struct pd_record *rec,
			 struct pd_sample_key *out);

/* The sample_id fields of any record (doc/perf-data-format.md §11.2). */
struct pd_sample_id {
	uint64_t type;		/* the trailer bits of sample_type; 0 if none */
	uint32_t pid, tid;	/* (u32)-1 */
	uint64_t time;		/* (u64)-1 */
	uint64_t id;		/* IDENTIFIER or ID; (u64)-1 */
	uint64_t stream_id;	/* (u64)-1 */
	uint32_t cpu;		/* (u32)-1 */
	uint32_t cpu_res;	/* 0 */
};

/* Set every field of *id to its "absent" value. */
void pd_sample_id_init(struct pd_sample_id *id);

/*
 * The sample_id of rec.  For a kernel record other than SAMPLE it is the
 * trailer, parsed backwards from the record end, and only when attr has
 * sample_id_all; for a SAMPLE it is read from the fixed leading fields.
 * Otherwise (user records, no sample_id_all) every field keeps its absent
 * value and 0 is returned.
 *
 * Returns 0, -PD_E_BAD_RECORD when the record is shorter than its
 * trailer, -PD_E_BAD_SAMPLE when a SAMPLE is shorter than its fixed
 * fields, -PD_E_UNSUPPORTED for unknown sample_type bits, or
 * -PD_E_BAD_SIZE.
 */
int pd_sample_id_decode(const struct pd_attr *attr, const struct pd_record *rec,
			struct pd_sample_id *out);

/*
 * The time of rec into *time, as pd_sample_id_decode() gives it (and with
 * its return value), for the cost of one load on a SAMPLE.
 */
int pd_sample_time(const struct pd_attr *attr, const struct pd_record *rec,
		   uint64_t *time);

/*
 * Layout facts for the reader (doc/perf-data-format.md §11.1).
 *
 * pd_sample_id_pos: index in u64 after the header of the id in a SAMPLE,
 * -1 when sample_type has neither IDENTIFIER nor ID.
 * pd_sample_is_pos: index in u64 counted back from the record end (1 is
 * the last u64) of the id in a sample_id trailer, or -1.
 * pd_sample_fixed_size: bytes after the header taken by the fixed-size
 * leading fields (IDENTIFIER up to PERIOD); a SAMPLE is at least
 * PD_EVENT_HEADER_SIZE + this.
 * pd_sample_id_trailer_size: bytes of the sample_id trailer.
 */
int pd_sample_id_pos(uint64_t sample_type);
int pd_sample_is_pos(uint64_t sample_type);
size_t pd_sample_fixed_size(uint64_t sample_type);
size_t pd_sample_id_trailer_size(uint64_t sample_type);

#endif /* PDATA_SAMPLE_H */
