/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/tools/pd-byteswap.c - rewrite a perf.data file in the other byte
 * order: the exact image a writer of that order would have produced.
 *
 * Usage: pd-byteswap IN OUT.  A little-endian file becomes big-endian and
 * a big-endian one little-endian, so the tool is its own inverse.
 *
 * Every scalar is reversed in place according to its C type; strings,
 * build ids, RAW, AUX and user-stack sample data, AUXTRACE and tracing
 * blobs keep their bytes; the attr flag word, aux_action and the
 * branch-entry flag word are C bitfields, which a big-endian compiler
 * allocates from the most significant bit, so they are moved field by
 * field (doc/perf-data-format.md §14).  Nothing changes size or place.
 *
 * The library finds the records and the event that owns each one; the
 * layouts below are written from the format documents, not from the
 * library's decoders, so that the two can check each other (every attr
 * is decoded by the library from both images and must come out the
 * same).  Each byte of the file is claimed by at most one structure: a
 * byte met twice is an error, and nonzero bytes that no structure
 * accounts for (stale slack in the feature table, junk after the last
 * section) are copied unchanged and listed on stderr.
 *
 * Refused, with a message, because no exact image can be made without
 * guessing: unknown record types and feature ids, COMPRESSED and
 * COMPRESSED2 records (recompressing the swapped stream cannot give back
 * the producer's bytes), BPF_PROG_INFO entries (bpf_prog_info and its
 * arrays would need their own tables), simpleperf's own records and its
 * v1 FILE feature, PERFFILE (v1) files and --threads directories.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pdata/events.h"
#include "pdata/reader.h"
#include "pdata/sample.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#ifdef WORDS_BIGENDIAN
#define HOST_BIG_ENDIAN true
#else
#define HOST_BIG_ENDIAN false
#endif

/* simpleperf's feature ids (record_file_format.h in AOSP system/extras) */
#define SP_FEAT_FILE			128
#define SP_FEAT_META_INFO		129
#define SP_FEAT_DEBUG_UNWIND		130
#define SP_FEAT_DEBUG_UNWIND_FILE	131
#define SP_FEAT_FILE2			132

enum claim {
	CLAIM_NONE = 0,
	CLAIM_SWAPPED,		/* a scalar, reversed */
	CLAIM_OPAQUE,		/* bytes that keep their order */
};

struct conv {
	const char *name;
	const unsigned char *in;
	unsigned char *out;
	unsigned char *claim;	/* enum claim per byte */
	uint64_t len;
	bool in_be;		/* the input's writer was big-endian */
	bool failed;
	char err[512];
	struct pd_reader *r;
	bool have_nrcpus;
	uint32_t nr_cpus_avail;	/* sizes CPU_TOPOLOGY's optional parts */
};

/* A window [pos, end) of the file, walked front to back. */
struct span {
	struct conv *c;
	uint64_t pos;
	uint64_t end;
};

struct bitfield {
	unsigned char shift;	/* little-endian bit numbering */
	unsigned char width;
};

static void __attribute__((format(printf, 3, 4)))
conv_fail(struct conv *c, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->failed)
		return;
	c->failed = true;
	n = snprintf(c->err, sizeof(c->err), "offset %#" PRIx64 ": ", off);
	if (n < 0 || (size_t)n >= sizeof(c->err))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(c->err + n, sizeof(c->err) - (size_t)n, fmt, ap);
	va_end(ap);
}

static bool
conv_claim(struct conv *c, uint64_t off, uint64_t n, enum claim how)
{
	uint64_t i;

	if (c->failed)
		return false;
	if (off > c->len || n > c->len - off) {
		conv_fail(c, off, "%" PRIu64 " bytes run past the end of the file", n);
		return false;
	}
	for (i = 0; i < n; i++) {
		if (c->claim[off + i] != CLAIM_NONE) {
			conv_fail(c, off + i, "these bytes belong to two structures");
			return false;
		}
		c->claim[off + i] = (unsigned char)how;
	}
	return true;
}

/* The value of the w-byte scalar at off, read in the input's order. */
static uint64_t
conv_load(const struct conv *c, uint64_t off, unsigned int w)
{
	uint64_t v = 0;
	unsigned int i;

	if (off > c->len || w > c->len - off)
		return 0;
	for (i = 0; i < w; i++) {
		unsigned int k = c->in_be ? i : w - 1 - i;

		v = v << 8 | c->in[off + k];
	}
	return v;
}

/* Reverse the w-byte scalar at off; returns its value. */
static uint64_t
conv_flip(struct conv *c, uint64_t off, unsigned int w)
{
	unsigned int i;

	if (!conv_claim(c, off, w, CLAIM_SWAPPED))
		return 0;
	for (i = 0; i < w; i++)
		c->out[off + i] = c->in[off + w - 1 - i];
	return conv_load(c, off, w);
}

static void
conv_opaque(struct conv *c, uint64_t off, uint64_t n)
{
	conv_claim(c, off, n, CLAIM_OPAQUE);
}

/*
 * Move every field of a bitfield word of nbytes bytes from one
 * allocation to the other: a field at little-endian bit p of width w
 * sits at bit 8 * nbytes - p - w of the big-endian word (§14.4).  The
 * table must cover every bit of the word.
 */
static void
conv_bits(struct conv *c, uint64_t off, unsigned int nbytes,
	  const struct bitfield *f, size_t nf)
{
	unsigned int nbits = 8 * nbytes, i;
	uint64_t word, out = 0, covered = 0;
	size_t k;

	if (!conv_claim(c, off, nbytes, CLAIM_SWAPPED))
		return;
	word = conv_load(c, off, nbytes);
	for (k = 0; k < nf; k++) {
		unsigned int p = f[k].shift, w = f[k].width;
		uint64_t mask = w == 64 ? UINT64_MAX : (1ULL << w) - 1;
		unsigned int from = c->in_be ? nbits - p - w : p;
		unsigned int to = c->in_be ? p : nbits - p - w;

		covered += w;
		out |= ((word >> from) & mask) << to;
	}
	/* a table with a gap would drop bits */
	if (covered != nbits) {
		conv_fail(c, off, "a bitfield table covers %" PRIu64 " of %u bits",
			  covered, nbits);
		return;
	}
	/* stored in the output's order, the input's opposite */
	for (i = 0; i < nbytes; i++) {
		unsigned int k2 = c->in_be ? i : nbytes - 1 - i;

		c->out[off + k2] = (unsigned char)(out >> (8 * i));
	}
}

static struct span
span_make(struct conv *c, uint64_t pos, uint64_t len)
{
	struct span s = { .c = c, .pos = pos, .end = pos + len };

	if (pos > c->len || len > c->len - pos) {
		conv_fail(c, pos, "a structure of %" PRIu64 " bytes runs past the end of the file", len);
		s.end = s.pos;
	}
	return s;
}

static uint64_t
span_left(const struct span *s)
{
	return s->pos < s->end ? s->end - s->pos : 0;
}

/* A count read from the file promises more elements than are left. */
static void
span_overflow(struct span *s, const char *what)
{
	conv_fail(s->c, s->pos, "%s: the count runs past the end of the structure (%" PRIu64 " bytes left)",
		  what, span_left(s));
}

static bool
span_need(struct span *s, uint64_t n, const char *what)
{
	if (s->c->failed)
		return false;
	if (span_left(s) < n) {
		conv_fail(s->c, s->pos, "%s needs %" PRIu64 " bytes, %" PRIu64 " left",
			  what, n, span_left(s));
		return false;
	}
	return true;
}

static uint64_t
sp_u(struct span *s, unsigned int w, const char *what)
{
	uint64_t v;

	if (!span_need(s, w, what))
		return 0;
	v = conv_flip(s->c, s->pos, w);
	s->pos += w;
	return v;
}

static uint16_t
sp_u16(struct span *s, const char *what)
{
	return (uint16_t)sp_u(s, 2, what);
}

static uint32_t
sp_u32(struct span *s, const char *what)
{
	return (uint32_t)sp_u(s, 4, what);
}

static uint64_t
sp_u64(struct span *s, const char *what)
{
	return sp_u(s, 8, what);
}

static void
sp_u64s(struct span *s, uint64_t n, const char *what)
{
	uint64_t i;

	if (n > span_left(s) / 8) {
		span_overflow(s, what);
		return;
	}
	for (i = 0; i < n && !s->c->failed; i++)
		sp_u64(s, what);
}

static void
sp_u32s(struct span *s, uint64_t n, const char *what)
{
	uint64_t i;

	if (n > span_left(s) / 4) {
		span_overflow(s, what);
		return;
	}
	for (i = 0; i < n && !s->c->failed; i++)
		sp_u32(s, what);
}

static void
sp_bytes(struct span *s, uint64_t n, const char *what)
{
	if (!span_need(s, n, what))
		return;
	conv_opaque(s->c, s->pos, n);
	s->pos += n;
}

static void
sp_rest(struct span *s)
{
	sp_bytes(s, span_left(s), "the rest");
}

static void
sp_bits(struct span *s, unsigned int nbytes, const struct bitfield *f,
	size_t nf, const char *what)
{
	if (!span_need(s, nbytes, what))
		return;
	conv_bits(s->c, s->pos, nbytes, f, nf);
	s->pos += nbytes;
}

/* struct perf_header_string: u32 len, then len bytes (§4.2) */
static void
sp_string(struct span *s, const char *what)
{
	uint32_t len = sp_u32(s, what);

	sp_bytes(s, len, what);
}

static void
sp_strlist(struct span *s, const char *what)
{
	uint32_t nr = sp_u32(s, what), i;

	for (i = 0; i < nr && !s->c->failed; i++)
		sp_string(s, what);
}

/* attr.flags (doc/perf-data-format.md §3.3; 38, 39 are the newest) */
static const struct bitfield attr_flag_fields[] = {
	{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 }, { 5, 1 }, { 6, 1 },
	{ 7, 1 }, { 8, 1 }, { 9, 1 }, { 10, 1 }, { 11, 1 }, { 12, 1 },
	{ 13, 1 }, { 14, 1 },
	{ PD_ATTR_PRECISE_IP, PD_ATTR_PRECISE_IP_WIDTH },
	{ 17, 1 }, { 18, 1 }, { 19, 1 }, { 20, 1 }, { 21, 1 }, { 22, 1 },
	{ 23, 1 }, { 24, 1 }, { 25, 1 }, { 26, 1 }, { 27, 1 }, { 28, 1 },
	{ 29, 1 }, { 30, 1 }, { 31, 1 }, { 32, 1 }, { 33, 1 }, { 34, 1 },
	{ 35, 1 }, { 36, 1 }, { 37, 1 }, { 38, 1 }, { 39, 1 },
	{ 40, 24 },		/* __reserved_1 */
};

/* attr.aux_action: aux_start_paused, aux_pause, aux_resume, __reserved_3 */
static const struct bitfield aux_action_fields[] = {
	{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 29 },
};

/* perf_branch_entry's flag word (doc/perf-records.md §3.7) */
static const struct bitfield branch_flag_fields[] = {
	{ PD_BRFL_MISPRED_SHIFT, 1 },
	{ PD_BRFL_PREDICTED_SHIFT, 1 },
	{ PD_BRFL_IN_TX_SHIFT, 1 },
	{ PD_BRFL_ABORT_SHIFT, 1 },
	{ PD_BRFL_CYCLES_SHIFT, PD_BRFL_CYCLES_WIDTH },
	{ PD_BRFL_TYPE_SHIFT, PD_BRFL_TYPE_WIDTH },
	{ PD_BRFL_SPEC_SHIFT, PD_BRFL_SPEC_WIDTH },
	{ PD_BRFL_NEW_TYPE_SHIFT, PD_BRFL_NEW_TYPE_WIDTH },
	{ PD_BRFL_PRIV_SHIFT, PD_BRFL_PRIV_WIDTH },
	{ PD_BRFL_INFO_BITS, 64 - PD_BRFL_INFO_BITS },
};

enum attr_kind {
	AF_SCALAR,
	AF_FLAGS,
	AF_AUX_ACTION,
};

/*
 * struct perf_event_attr up to PD_ATTR_SIZE_VER9
 * (doc/perf-data-format.md §3.3)
 */
static const struct {
	unsigned char off;
	unsigned char width;
	unsigned char kind;
} attr_fields[] = {
	{ 0, 4, AF_SCALAR },		/* type */
	{ 4, 4, AF_SCALAR },		/* size */
	{ 8, 8, AF_SCALAR },		/* config */
	{ 16, 8, AF_SCALAR },		/* sample_period */
	{ 24, 8, AF_SCALAR },		/* sample_type */
	{ 32, 8, AF_SCALAR },		/* read_format */
	{ 40, 8, AF_FLAGS },
	{ 48, 4, AF_SCALAR },		/* wakeup_events */
	{ 52, 4, AF_SCALAR },		/* bp_type */
	{ 56, 8, AF_SCALAR },		/* config1 */
	{ 64, 8, AF_SCALAR },		/* config2 */
	{ 72, 8, AF_SCALAR },		/* branch_sample_type */
	{ 80, 8, AF_SCALAR },		/* sample_regs_user */
	{ 88, 4, AF_SCALAR },		/* sample_stack_user */
	{ 92, 4, AF_SCALAR },		/* clockid */
	{ 96, 8, AF_SCALAR },		/* sample_regs_intr */
	{ 104, 4, AF_SCALAR },		/* aux_watermark */
	{ 108, 2, AF_SCALAR },		/* sample_max_stack */
	{ 110, 2, AF_SCALAR },		/* __reserved_2 */
	{ 112, 4, AF_SCALAR },		/* aux_sample_size */
	{ 116, 4, AF_AUX_ACTION },
	{ 120, 8, AF_SCALAR },		/* sig_data */
	{ 128, 8, AF_SCALAR },		/* config3 */
	{ 136, 8, AF_SCALAR },		/* config4 */
};

/*
 * One perf_event_attr of stored bytes at off.  Bytes past the newest
 * struct we know can only be carried over when they are zero: their
 * types are unknown.  The result is decoded by the library on both sides
 * and must give the same attr.
 */
static void
conv_attr(struct conv *c, uint64_t off, uint64_t stored)
{
	struct pd_attr before, after;
	bool in_swap = c->in_be != HOST_BIG_ENDIAN;
	size_t i;

	if (stored < PD_ATTR_SIZE_VER0) {
		conv_fail(c, off, "an attr of %" PRIu64 " bytes is smaller than PERF_ATTR_SIZE_VER0", stored);
		return;
	}
	if (off > c->len || stored > c->len - off) {
		conv_fail(c, off, "an attr of %" PRIu64 " bytes runs past the end of the file", stored);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(attr_fields); i++) {
		uint64_t at = off + attr_fields[i].off;

		if (attr_fields[i].off + attr_fields[i].width > stored)
			break;
		switch (attr_fields[i].kind) {
		case AF_FLAGS:
			conv_bits(c, at, 8, attr_flag_fields,
				  ARRAY_SIZE(attr_flag_fields));
			break;
		case AF_AUX_ACTION:
			conv_bits(c, at, 4, aux_action_fields,
				  ARRAY_SIZE(aux_action_fields));
			break;
		default:
			conv_flip(c, at, attr_fields[i].width);
			break;
		}
	}
	if (stored > PD_ATTR_SIZE_MAX) {
		for (i = PD_ATTR_SIZE_MAX; i < stored; i++)
			if (c->in[off + i]) {
				conv_fail(c, off + i, "the attr holds fields newer than PERF_ATTR_SIZE_VER9; their types are unknown");
				return;
			}
		conv_opaque(c, off + PD_ATTR_SIZE_MAX,
			    stored - PD_ATTR_SIZE_MAX);
	}
	if (c->failed)
		return;
	if (pd_attr_decode(c->in + off, stored, in_swap, &before) ||
	    pd_attr_decode(c->out + off, stored, !in_swap, &after)) {
		conv_fail(c, off, "the library rejects this attr");
		return;
	}
	if (memcmp(&before, &after, sizeof(before)))
		conv_fail(c, off, "pd_attr_decode() reads the converted attr differently from the original");
}

/* The sample_id trailer, forward order (doc/perf-data-format.md §11.2). */
static void
conv_trailer(struct span *s, uint64_t t)
{
	if (t & PD_SAMPLE_TID) {
		sp_u32(s, "sample_id pid");
		sp_u32(s, "sample_id tid");
	}
	if (t & PD_SAMPLE_TIME)
		sp_u64(s, "sample_id time");
	if (t & PD_SAMPLE_ID)
		sp_u64(s, "sample_id id");
	if (t & PD_SAMPLE_STREAM_ID)
		sp_u64(s, "sample_id stream_id");
	if (t & PD_SAMPLE_CPU) {
		sp_u32(s, "sample_id cpu");
		sp_u32(s, "sample_id res");
	}
	if (t & PD_SAMPLE_IDENTIFIER)
		sp_u64(s, "sample_id identifier");
}

/* A read_format block (doc/perf-records.md §3.3): only u64s. */
static void
conv_read_values(struct span *s, uint64_t rf)
{
	uint64_t per = 1 + !!(rf & PD_FORMAT_ID) + !!(rf & PD_FORMAT_LOST);

	if (rf & PD_FORMAT_GROUP) {
		uint64_t nr = sp_u64(s, "read nr");

		if (rf & PD_FORMAT_TOTAL_TIME_ENABLED)
			sp_u64(s, "read time_enabled");
		if (rf & PD_FORMAT_TOTAL_TIME_RUNNING)
			sp_u64(s, "read time_running");
		if (nr > span_left(s) / 8 / per) {
			span_overflow(s, "read group values");
			return;
		}
		sp_u64s(s, nr * per, "read group values");
		return;
	}
	sp_u64(s, "read value");
	if (rf & PD_FORMAT_TOTAL_TIME_ENABLED)
		sp_u64(s, "read time_enabled");
	if (rf & PD_FORMAT_TOTAL_TIME_RUNNING)
		sp_u64(s, "read time_running");
	if (rf & PD_FORMAT_ID)
		sp_u64(s, "read id");
	if (rf & PD_FORMAT_LOST)
		sp_u64(s, "read lost");
}

static void
conv_regs(struct span *s, uint64_t mask, const char *what)
{
	uint64_t abi = sp_u64(s, what);

	if (abi)
		sp_u64s(s, (uint64_t)__builtin_popcountll(mask), what);
}

/* PERF_RECORD_SAMPLE in the kernel's field order (doc/perf-data-format.md §8) */
static void
conv_sample(struct span *s, const struct pd_attr *a)
{
	uint64_t t = a->sample_type;

	if (t & ~PD_SAMPLE_KNOWN_MASK) {
		conv_fail(s->c, s->pos, "sample_type %#" PRIx64 " has bits we do not know", t);
		return;
	}
	if (t & PD_SAMPLE_IDENTIFIER)
		sp_u64(s, "identifier");
	if (t & PD_SAMPLE_IP)
		sp_u64(s, "ip");
	if (t & PD_SAMPLE_TID) {
		sp_u32(s, "pid");
		sp_u32(s, "tid");
	}
	if (t & PD_SAMPLE_TIME)
		sp_u64(s, "time");
	if (t & PD_SAMPLE_ADDR)
		sp_u64(s, "addr");
	if (t & PD_SAMPLE_ID)
		sp_u64(s, "id");
	if (t & PD_SAMPLE_STREAM_ID)
		sp_u64(s, "stream_id");
	if (t & PD_SAMPLE_CPU) {
		sp_u32(s, "cpu");
		sp_u32(s, "cpu res");
	}
	if (t & PD_SAMPLE_PERIOD)
		sp_u64(s, "period");
	if (t & PD_SAMPLE_READ)
		conv_read_values(s, a->read_format);
	if (t & PD_SAMPLE_CALLCHAIN)
		sp_u64s(s, sp_u64(s, "callchain nr"), "callchain");
	if (t & PD_SAMPLE_RAW)
		sp_bytes(s, sp_u32(s, "raw size"), "raw data");
	if (t & PD_SAMPLE_BRANCH_STACK) {
		uint64_t nr = sp_u64(s, "branch nr"), i;

		if (a->branch_sample_type & PD_BRANCH_HW_INDEX)
			sp_u64(s, "branch hw_idx");
		if (nr > span_left(s) / 24) {
			span_overflow(s, "branch entries");
			return;
		}
		for (i = 0; i < nr && !s->c->failed; i++) {
			sp_u64(s, "branch from");
			sp_u64(s, "branch to");
			sp_bits(s, 8, branch_flag_fields,
				ARRAY_SIZE(branch_flag_fields), "branch flags");
		}
		if (a->branch_sample_type & PD_BRANCH_COUNTERS)
			sp_u64s(s, nr, "branch counters");
	}
	if (t & PD_SAMPLE_REGS_USER)
		conv_regs(s, a->sample_regs_user, "user regs");
	if (t & PD_SAMPLE_STACK_USER) {
		uint64_t size = sp_u64(s, "user stack size");

		sp_bytes(s, size, "user stack");
		if (size)
			sp_u64(s, "user stack dyn_size");
	}
	/* WEIGHT_STRUCT and DATA_SRC are unions whose u64 keeps its value */
	if (t & PD_SAMPLE_WEIGHT_TYPE)
		sp_u64(s, "weight");
	if (t & PD_SAMPLE_DATA_SRC)
		sp_u64(s, "data_src");
	if (t & PD_SAMPLE_TRANSACTION)
		sp_u64(s, "transaction");
	if (t & PD_SAMPLE_REGS_INTR)
		conv_regs(s, a->sample_regs_intr, "intr regs");
	if (t & PD_SAMPLE_PHYS_ADDR)
		sp_u64(s, "phys_addr");
	if (t & PD_SAMPLE_CGROUP)
		sp_u64(s, "cgroup");
	if (t & PD_SAMPLE_DATA_PAGE_SIZE)
		sp_u64(s, "data_page_size");
	if (t & PD_SAMPLE_CODE_PAGE_SIZE)
		sp_u64(s, "code_page_size");
	if (t & PD_SAMPLE_AUX)
		sp_bytes(s, sp_u64(s, "aux size"), "aux data");
	/* perf ignores bytes after the last field; so do we */
	sp_rest(s);
}

/* A cpu map (§7.5) at the span's position; it ends the record. */
static void
conv_cpu_map(struct span *s)
{
	uint16_t type = sp_u16(s, "cpu map type");
	uint16_t nr, long_size;

	switch (type) {
	case PD_CPU_MAP_CPUS:
		nr = sp_u16(s, "cpu map nr");
		if (nr > span_left(s) / 2) {
			span_need(s, 2ULL * nr, "cpu map cpus");
			return;
		}
		while (nr-- && !s->c->failed)
			sp_u16(s, "cpu map cpu");
		break;
	case PD_CPU_MAP_MASK:
		nr = sp_u16(s, "cpu map nr");
		long_size = sp_u16(s, "cpu map long_size");
		if (long_size == 4) {
			sp_u32s(s, nr, "cpu map mask");
		} else if (long_size == 8) {
			sp_bytes(s, 4, "cpu map pad");
			sp_u64s(s, nr, "cpu map mask");
		} else {
			conv_fail(s->c, s->pos, "cpu map long_size %u", long_size);
		}
		break;
	case PD_CPU_MAP_RANGE:
		sp_bytes(s, 2, "cpu map any_cpu, pad");
		sp_u16(s, "cpu map start_cpu");
		sp_u16(s, "cpu map end_cpu");
		break;
	default:
		conv_fail(s->c, s->pos, "cpu map type %u is unknown", type);
		return;
	}
	sp_rest(s);
}

static const struct pd_attr *
record_attr(struct conv *c, const struct pd_record *rec)
{
	const struct pd_evsel *ev;
	size_t i, n = pd_reader_nr_evsels(c->r);
	uint64_t mask = PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID |
			PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU |
			PD_SAMPLE_IDENTIFIER;

	if (rec->evsel >= 0)
		return &pd_reader_evsel(c->r, (size_t)rec->evsel)->attr;
	if (!n)
		return NULL;
	/* an unknown id: any event will do if all have the same trailer */
	ev = pd_reader_evsel(c->r, 0);
	for (i = 1; i < n; i++) {
		const struct pd_attr *a = &pd_reader_evsel(c->r, i)->attr;

		if ((a->sample_type & mask) != (ev->attr.sample_type & mask) ||
		    pd_attr_has(a, PD_ATTR_SAMPLE_ID_ALL) !=
		    pd_attr_has(&ev->attr, PD_ATTR_SAMPLE_ID_ALL))
			return NULL;
	}
	return &ev->attr;
}

/*
 * Kernel records (1..22): the payload, then the sample_id trailer when
 * the owning event has sample_id_all (doc/perf-records.md §2); byte
 * order: doc/perf-data-format.md §14.6.
 */
static void
conv_kernel_record(struct conv *c, const struct pd_record *rec)
{
	uint64_t off = rec->offset;
	uint32_t type = rec->header.type;
	const struct pd_attr *a = record_attr(c, rec);
	struct span s, tr;
	uint64_t tsize = 0, nr;
	uint16_t old_len, new_len;

	if (!a && (type == PD_RECORD_SAMPLE || type == PD_RECORD_READ ||
		   pd_reader_nr_evsels(c->r) > 0)) {
		conv_fail(c, off, "cannot tell which event owns this %s record",
			  pd_record_type_name(type));
		return;
	}
	s = span_make(c, off + PD_EVENT_HEADER_SIZE,
		      rec->size - PD_EVENT_HEADER_SIZE);
	if (type == PD_RECORD_SAMPLE) {
		conv_sample(&s, a);
		return;
	}
	if (a && pd_attr_has(a, PD_ATTR_SAMPLE_ID_ALL)) {
		tsize = pd_sample_id_trailer_size(a->sample_type);
		if (tsize > span_left(&s)) {
			conv_fail(c, off, "a %s record of %u bytes is shorter than its %" PRIu64 "-byte sample_id",
				  pd_record_type_name(type), rec->size, tsize);
			return;
		}
		s.end -= tsize;
	}
	tr = span_make(c, s.end, tsize);

	switch (type) {
	case PD_RECORD_MMAP:
		sp_u32(&s, "pid");
		sp_u32(&s, "tid");
		sp_u64s(&s, 3, "start, len, pgoff");
		sp_rest(&s);		/* filename */
		break;
	case PD_RECORD_MMAP2:
		sp_u32(&s, "pid");
		sp_u32(&s, "tid");
		sp_u64s(&s, 3, "start, len, pgoff");
		if (rec->header.misc & PD_MISC_MMAP_BUILD_ID) {
			sp_bytes(&s, 2, "build_id_size, reserved");
			sp_u16(&s, "reserved");
			sp_bytes(&s, PD_BUILD_ID_SIZE, "build id");
		} else {
			sp_u32(&s, "maj");
			sp_u32(&s, "min");
			sp_u64(&s, "ino");
			sp_u64(&s, "ino_generation");
		}
		sp_u32(&s, "prot");
		sp_u32(&s, "flags");
		sp_rest(&s);
		break;
	case PD_RECORD_LOST:
		sp_u64(&s, "id");
		sp_u64(&s, "lost");
		break;
	case PD_RECORD_COMM:
		sp_u32(&s, "pid");
		sp_u32(&s, "tid");
		sp_rest(&s);
		break;
	case PD_RECORD_EXIT:
	case PD_RECORD_FORK:
		sp_u32s(&s, 4, "pid, ppid, tid, ptid");
		sp_u64(&s, "time");
		break;
	case PD_RECORD_THROTTLE:
	case PD_RECORD_UNTHROTTLE:
		sp_u64s(&s, 3, "time, id, stream_id");
		break;
	case PD_RECORD_READ:
		sp_u32(&s, "pid");
		sp_u32(&s, "tid");
		conv_read_values(&s, a->read_format);
		break;
	case PD_RECORD_AUX:
		sp_u64s(&s, 3, "aux_offset, aux_size, flags");
		break;
	case PD_RECORD_ITRACE_START:
		sp_u32(&s, "pid");
		sp_u32(&s, "tid");
		break;
	case PD_RECORD_LOST_SAMPLES:
		sp_u64(&s, "lost");
		break;
	case PD_RECORD_SWITCH:
		break;
	case PD_RECORD_SWITCH_CPU_WIDE:
		sp_u32(&s, "next_prev_pid");
		sp_u32(&s, "next_prev_tid");
		break;
	case PD_RECORD_NAMESPACES:
		sp_u32(&s, "pid");
		sp_u32(&s, "tid");
		nr = sp_u64(&s, "nr_namespaces");
		if (nr > span_left(&s) / 16) {
			span_overflow(&s, "namespaces");
			break;
		}
		sp_u64s(&s, 2 * nr, "namespace dev, ino");
		break;
	case PD_RECORD_KSYMBOL:
		sp_u64(&s, "addr");
		sp_u32(&s, "len");
		sp_u16(&s, "ksym_type");
		sp_u16(&s, "flags");
		sp_rest(&s);
		break;
	case PD_RECORD_BPF_EVENT:
		sp_u16(&s, "type");
		sp_u16(&s, "flags");
		sp_u32(&s, "id");
		sp_bytes(&s, PD_BPF_TAG_SIZE, "tag");
		break;
	case PD_RECORD_CGROUP:
		sp_u64(&s, "id");
		sp_rest(&s);
		break;
	case PD_RECORD_TEXT_POKE:
		sp_u64(&s, "addr");
		old_len = sp_u16(&s, "old_len");
		new_len = sp_u16(&s, "new_len");
		sp_bytes(&s, (uint64_t)old_len + new_len, "bytes");
		break;
	case PD_RECORD_AUX_OUTPUT_HW_ID:
		sp_u64(&s, "hw_id");
		break;
	case PD_RECORD_CALLCHAIN_DEFERRED:
		sp_u64(&s, "cookie");
		sp_u64s(&s, sp_u64(&s, "nr"), "ips");
		break;
	default:
		conv_fail(c, off, "kernel record type %u is unknown; its layout cannot be guessed", type);
		return;
	}
	/* padding between the fixed fields and the trailer */
	sp_rest(&s);
	conv_trailer(&tr, a ? a->sample_type : 0);
	if (span_left(&tr))
		conv_fail(c, tr.pos, "the sample_id trailer has %" PRIu64 " bytes too many", span_left(&tr));
}

/* A build-id record after its 8-byte header (§5.2). */
static void
conv_build_id_body(struct span *s, bool old_layout)
{
	if (old_layout) {
		sp_bytes(s, 24, "build id");
	} else {
		sp_u32(s, "build-id pid");
		sp_bytes(s, PD_BUILD_ID_SIZE, "build id");
		sp_bytes(s, 2, "build-id size byte, reserved1");
		sp_u16(s, "build-id reserved2");
	}
	sp_rest(s);
}

/*
 * The BUILD_ID feature: build-id records back to back.  The oldest
 * layout has no pid: perf tells it by the text "nel.kallsyms]" where the
 * newer one's file name begins.
 */
static void
conv_build_ids(struct span *s)
{
	bool old_layout = false;

	if (span_left(s) >= 36 + 13 &&
	    !memcmp(s->c->in + s->pos + 36, "nel.kallsyms]", 13))
		old_layout = true;
	while (span_left(s) && !s->c->failed) {
		uint64_t start = s->pos;
		uint16_t size;
		struct span r;

		if (span_left(s) < PD_EVENT_HEADER_SIZE) {
			/* perf's readers stop here too */
			sp_rest(s);
			break;
		}
		size = (uint16_t)conv_load(s->c, start + 6, 2);
		if (size < 32 || size > span_left(s)) {
			conv_fail(s->c, start, "build-id record of size %u", size);
			return;
		}
		r = span_make(s->c, start, size);
		sp_u32(&r, "build-id type");
		sp_u16(&r, "build-id misc");
		sp_u16(&r, "build-id size");
		conv_build_id_body(&r, old_layout);
		s->pos = start + size;
	}
}

static void
conv_event_desc(struct span *s)
{
	uint32_t nr = sp_u32(s, "EVENT_DESC nr"), i;
	uint32_t attr_size = sp_u32(s, "EVENT_DESC attr_size");

	for (i = 0; i < nr && !s->c->failed; i++) {
		uint32_t nr_ids;

		if (!span_need(s, attr_size, "EVENT_DESC attr"))
			return;
		conv_attr(s->c, s->pos, attr_size);
		s->pos += attr_size;
		nr_ids = sp_u32(s, "EVENT_DESC nr_ids");
		sp_string(s, "EVENT_DESC name");
		sp_u64s(s, nr_ids, "EVENT_DESC ids");
	}
}

static void
conv_cpu_topology(struct span *s)
{
	struct conv *c = s->c;

	sp_strlist(s, "package cpus");
	sp_strlist(s, "thread cpus");
	if (!span_left(s) || c->failed)
		return;
	if (!c->have_nrcpus) {
		conv_fail(c, s->pos, "CPU_TOPOLOGY has per-CPU ids but the file has no NRCPUS");
		return;
	}
	sp_u32s(s, 2ULL * c->nr_cpus_avail, "core and socket ids");
	if (span_left(s) < 4)
		return;
	sp_strlist(s, "die cpus");
	sp_u32s(s, c->nr_cpus_avail, "die ids");
}

static void
conv_bpf_btf(struct span *s)
{
	uint32_t nr = sp_u32(s, "BPF_BTF count"), i;

	for (i = 0; i < nr && !s->c->failed; i++) {
		uint32_t size;

		sp_u32(s, "BTF id");
		size = sp_u32(s, "BTF data_size");
		/* BTF states its own byte order in its header */
		sp_bytes(s, size, "BTF data");
	}
}

static void
conv_pmu_caps(struct span *s)
{
	uint32_t nr = sp_u32(s, "PMU_CAPS nr"), i;

	for (i = 0; i < nr && !s->c->failed; i++) {
		uint32_t caps = sp_u32(s, "nr_caps"), k;

		for (k = 0; k < caps && !s->c->failed; k++) {
			sp_string(s, "cap name");
			sp_string(s, "cap value");
		}
		sp_string(s, "pmu name");
	}
}

static void
conv_cpu_domain_info(struct span *s)
{
	uint32_t version = sp_u32(s, "schedstat version");

	sp_u32(s, "max_sched_domains");
	while (span_left(s) >= 8 && !s->c->failed) {
		uint32_t nr, i;

		sp_u32(s, "cpu");
		nr = sp_u32(s, "nr_domains");
		for (i = 0; i < nr && !s->c->failed; i++) {
			sp_u32(s, "domain");
			if (version >= 17)
				sp_string(s, "dname");
			sp_string(s, "cpumask");
			sp_string(s, "cpulist");
		}
	}
}

/*
 * One feature payload (§5).  Trailing bytes past the layout (pipe-mode
 * padding) keep their place.
 */
static void
conv_feature(struct span *s, uint64_t feat)
{
	struct conv *c = s->c;
	uint32_t nr, i;

	switch (feat) {
	case PD_FEAT_TRACING_DATA:
		/* the blob states its own byte order */
		break;
	case PD_FEAT_BUILD_ID:
		conv_build_ids(s);
		break;
	case PD_FEAT_HOSTNAME:
	case PD_FEAT_OSRELEASE:
	case PD_FEAT_VERSION:
	case PD_FEAT_ARCH:
	case PD_FEAT_CPUDESC:
	case PD_FEAT_CPUID:
		sp_string(s, pd_feature_name((unsigned int)feat));
		break;
	case PD_FEAT_NRCPUS:
		c->nr_cpus_avail = sp_u32(s, "nr_cpus_avail");
		sp_u32(s, "nr_cpus_online");
		c->have_nrcpus = !c->failed;
		break;
	case PD_FEAT_TOTAL_MEM:
	case PD_FEAT_CLOCKID:
	case PD_FEAT_DIR_FORMAT:
		sp_u64(s, pd_feature_name((unsigned int)feat));
		break;
	case PD_FEAT_CMDLINE:
		sp_strlist(s, "CMDLINE");
		break;
	case PD_FEAT_EVENT_DESC:
		conv_event_desc(s);
		break;
	case PD_FEAT_CPU_TOPOLOGY:
		conv_cpu_topology(s);
		break;
	case PD_FEAT_NUMA_TOPOLOGY:
		nr = sp_u32(s, "NUMA nr");
		for (i = 0; i < nr && !c->failed; i++) {
			sp_u32(s, "node");
			sp_u64(s, "mem_total");
			sp_u64(s, "mem_free");
			sp_string(s, "cpus");
		}
		break;
	case PD_FEAT_BRANCH_STACK:
	case PD_FEAT_STAT:
		if (span_left(s))
			conv_fail(c, s->pos, "%s should be empty", pd_feature_name((unsigned int)feat));
		break;
	case PD_FEAT_PMU_MAPPINGS:
		nr = sp_u32(s, "PMU_MAPPINGS nr");
		for (i = 0; i < nr && !c->failed; i++) {
			sp_u32(s, "pmu type");
			sp_string(s, "pmu name");
		}
		break;
	case PD_FEAT_GROUP_DESC:
		nr = sp_u32(s, "GROUP_DESC nr");
		for (i = 0; i < nr && !c->failed; i++) {
			sp_string(s, "group name");
			sp_u32(s, "leader_idx");
			sp_u32(s, "nr_members");
		}
		break;
	case PD_FEAT_AUXTRACE:
		/* perf writes a count first, simpleperf does not: all u64 */
	case PD_FEAT_MEM_TOPOLOGY:
		if (span_left(s) % 8)
			conv_fail(c, s->pos, "%s is not a whole number of u64",
				  pd_feature_name((unsigned int)feat));
		sp_u64s(s, span_left(s) / 8,
			pd_feature_name((unsigned int)feat));
		break;
	case PD_FEAT_CACHE:
		sp_u32(s, "CACHE version");
		nr = sp_u32(s, "CACHE nr");
		for (i = 0; i < nr && !c->failed; i++) {
			sp_u32s(s, 4, "level, line_size, sets, ways");
			sp_string(s, "cache type");
			sp_string(s, "cache size");
			sp_string(s, "cache map");
		}
		break;
	case PD_FEAT_SAMPLE_TIME:
		sp_u64s(s, 2, "SAMPLE_TIME");
		break;
	case PD_FEAT_BPF_PROG_INFO:
		if (sp_u32(s, "BPF_PROG_INFO count"))
			conv_fail(c, s->pos, "BPF_PROG_INFO entries are not supported: bpf_prog_info and its arrays have layouts of their own");
		break;
	case PD_FEAT_BPF_BTF:
		conv_bpf_btf(s);
		break;
	case PD_FEAT_COMPRESSED:
		sp_u32s(s, 5, "COMPRESSED");
		break;
	case PD_FEAT_CPU_PMU_CAPS:
	case PD_FEAT_HYBRID_TOPOLOGY:
		nr = sp_u32(s, pd_feature_name((unsigned int)feat));
		for (i = 0; i < nr && !c->failed; i++) {
			sp_string(s, "name");
			sp_string(s, "value");
		}
		break;
	case PD_FEAT_CLOCK_DATA:
		sp_u32(s, "CLOCK_DATA version");
		sp_u32(s, "CLOCK_DATA clockid");
		sp_u64s(s, 2, "CLOCK_DATA times");
		break;
	case PD_FEAT_PMU_CAPS:
		conv_pmu_caps(s);
		break;
	case PD_FEAT_CPU_DOMAIN_INFO:
		conv_cpu_domain_info(s);
		break;
	case SP_FEAT_META_INFO:
	case SP_FEAT_DEBUG_UNWIND:
	case SP_FEAT_DEBUG_UNWIND_FILE:
		/* NUL-terminated text, a protobuf message, a file's bytes */
		break;
	case SP_FEAT_FILE2:
		/* u32 size, then a protobuf message, per file */
		while (span_left(s) && !c->failed)
			sp_bytes(s, sp_u32(s, "FILE2 size"), "FILE2 message");
		break;
	case SP_FEAT_FILE:
		conv_fail(c, s->pos, "simpleperf's FILE feature (v1) is not supported");
		return;
	default:
		conv_fail(c, s->pos, "feature %" PRIu64 " is unknown; its layout cannot be guessed", feat);
		return;
	}
	sp_rest(s);
}

static void
conv_header_attr(struct conv *c, const struct pd_record *rec)
{
	uint64_t off = rec->offset + PD_EVENT_HEADER_SIZE;
	uint64_t room = rec->size - PD_EVENT_HEADER_SIZE;
	uint32_t size;
	struct span s;

	if (room < PD_ATTR_SIZE_VER0) {
		conv_fail(c, rec->offset, "HEADER_ATTR of %u bytes", rec->size);
		return;
	}
	size = (uint32_t)conv_load(c, off + 4, 4);
	if (!size)
		size = PD_ATTR_SIZE_VER0;
	if (size > room || (room - size) % 8) {
		conv_fail(c, rec->offset, "HEADER_ATTR: attr.size %u does not fit a record of %u bytes",
			  size, rec->size);
		return;
	}
	conv_attr(c, off, size);
	s = span_make(c, off + size, room - size);
	sp_u64s(&s, span_left(&s) / 8, "HEADER_ATTR ids");
}

/* User records (64..), §7 and §14.6. */
static void
conv_user_record(struct conv *c, const struct pd_record *rec)
{
	uint32_t type = rec->header.type;
	struct span s = span_make(c, rec->offset + PD_EVENT_HEADER_SIZE,
				  rec->size - PD_EVENT_HEADER_SIZE);
	uint64_t v, nr;
	uint32_t fmt;

	switch (type) {
	case PD_RECORD_HEADER_ATTR:
		conv_header_attr(c, rec);
		return;
	case PD_RECORD_HEADER_EVENT_TYPE:
		sp_u64(&s, "event_id");
		break;
	case PD_RECORD_HEADER_TRACING_DATA:
		if (!rec->payload_size) {
			conv_fail(c, rec->offset, "a tracing-data record with its data inside (simpleperf's) is not supported");
			return;
		}
		sp_u32(&s, "tracing data size");
		if (span_left(&s) >= 4)
			sp_u32(&s, "pad");
		break;
	case PD_RECORD_HEADER_BUILD_ID:
		conv_build_id_body(&s, false);
		return;
	case PD_RECORD_FINISHED_ROUND:
	case PD_RECORD_FINISHED_INIT:
		break;
	case PD_RECORD_ID_INDEX:
	case PD_RECORD_STAT_CONFIG:
	case PD_RECORD_STAT_ROUND:
		if (span_left(&s) % 8)
			conv_fail(c, rec->offset, "%s is not a whole number of u64",
				  pd_record_type_name(type));
		sp_u64s(&s, span_left(&s) / 8, pd_record_type_name(type));
		break;
	case PD_RECORD_AUXTRACE_INFO:
		sp_u32(&s, "auxtrace type");
		sp_u32(&s, "reserved");
		sp_u64s(&s, span_left(&s) / 8, "auxtrace priv");
		break;
	case PD_RECORD_AUXTRACE:
		sp_u64s(&s, 3, "size, offset, reference");
		sp_u32s(&s, 4, "idx, tid, cpu, reserved");
		break;
	case PD_RECORD_AUXTRACE_ERROR:
		sp_u32s(&s, 5, "type, code, cpu, pid, tid");
		fmt = sp_u32(&s, "fmt");
		sp_u64(&s, "ip");
		if (fmt >= 1)
			sp_u64(&s, "time");
		sp_bytes(&s, PD_AUXTRACE_ERROR_MSG_LEN, "msg");
		if (fmt >= 2) {
			sp_u32(&s, "machine_pid");
			sp_u32(&s, "vcpu");
		}
		break;
	case PD_RECORD_THREAD_MAP:
		nr = sp_u64(&s, "nr");
		if (nr > span_left(&s) / 24) {
			span_overflow(&s, "thread map entries");
			break;
		}
		while (nr-- && !c->failed) {
			sp_u64(&s, "pid");
			sp_bytes(&s, PD_THREAD_MAP_COMM_LEN, "comm");
		}
		break;
	case PD_RECORD_CPU_MAP:
		conv_cpu_map(&s);
		break;
	case PD_RECORD_STAT:
		sp_u64(&s, "id");
		sp_u32(&s, "cpu");
		sp_u32(&s, "thread");
		sp_u64s(&s, 3, "val, ena, run");
		break;
	case PD_RECORD_EVENT_UPDATE:
		v = sp_u64(&s, "type");
		sp_u64(&s, "id");
		switch (v) {
		case PD_EVENT_UPDATE_UNIT:
		case PD_EVENT_UPDATE_NAME:
			break;
		case PD_EVENT_UPDATE_SCALE:
			sp_u64(&s, "scale");
			break;
		case PD_EVENT_UPDATE_CPUS:
			conv_cpu_map(&s);
			break;
		default:
			conv_fail(c, rec->offset, "EVENT_UPDATE type %" PRIu64 " is unknown", v);
			return;
		}
		break;
	case PD_RECORD_TIME_CONV:
		sp_u64s(&s, 3, "time_shift, time_mult, time_zero");
		if (span_left(&s) >= 16)
			sp_u64s(&s, 2, "time_cycles, time_mask");
		break;
	case PD_RECORD_HEADER_FEATURE:
		v = sp_u64(&s, "feat_id");
		if (c->failed)
			return;
		/* the end marker of perf 6.0..6.18, or of the newest perf */
		if (!span_left(&s) &&
		    (v == PD_FEAT_LAST_61 || v == PD_FEAT_KNOWN))
			return;
		conv_feature(&s, v);
		return;
	case PD_RECORD_COMPRESSED:
	case PD_RECORD_COMPRESSED2:
		conv_fail(c, rec->offset, "compressed data (perf record -z) is not supported: the swapped records would have to be compressed again, which cannot give back the producer's bytes");
		return;
	case PD_RECORD_BPF_METADATA:
		sp_bytes(&s, PD_BPF_PROG_NAME_LEN, "prog_name");
		sp_u64(&s, "nr_entries");
		break;
	default:
		conv_fail(c, rec->offset, "record type %u is unknown; its layout cannot be guessed", type);
		return;
	}
	sp_rest(&s);
}

static void
conv_record(struct conv *c, const struct pd_record *rec)
{
	uint32_t type = rec->header.type;

	if (rec->origin != PD_ORIGIN_FILE) {
		conv_fail(c, rec->offset, "a decompressed record");
		return;
	}
	if (rec->size < PD_EVENT_HEADER_SIZE || rec->offset > c->len ||
	    rec->size > c->len - rec->offset ||
	    memcmp(rec->data, c->in + rec->offset, rec->size)) {
		conv_fail(c, rec->offset, "the reader's record is not where the file has it");
		return;
	}
	if (type >= PD_RECORD_SP_START) {
		conv_fail(c, rec->offset, "simpleperf's record type %u is not supported", type);
		return;
	}
	conv_flip(c, rec->offset, 4);
	conv_flip(c, rec->offset + 4, 2);
	conv_flip(c, rec->offset + 6, 2);
	if (type < PD_RECORD_USER_TYPE_START)
		conv_kernel_record(c, rec);
	else
		conv_user_record(c, rec);
	/* AUXTRACE data and pipe-mode tracing data follow the record */
	if (rec->payload_size && !c->failed)
		conv_opaque(c, rec->offset + rec->size, rec->payload_size);
}

static void
reader_warn(void *ctx, uint64_t offset, const char *msg)
{
	const struct conv *c = ctx;

	if (offset == UINT64_MAX)
		fprintf(stderr, "pd-byteswap: %s: warning: %s\n", c->name, msg);
	else
		fprintf(stderr, "pd-byteswap: %s: warning: offset %#" PRIx64 ": %s\n",
			c->name, offset, msg);
}

static void
conv_records(struct conv *c)
{
	struct pd_record rec;
	int got = 0;

	while (!c->failed && (got = pd_reader_next(c->r, &rec)) > 0)
		conv_record(c, &rec);
	if (!c->failed && got < 0)
		conv_fail(c, 0, "%s", pd_reader_errmsg(c->r));
}

/* File mode (§1.1): header, ids, attrs, records, feature table, features. */
static void
conv_file_mode(struct conv *c, const struct pd_file_info *info)
{
	uint64_t hdr_words = info->header_size / 8, i, n;
	uint64_t features[PD_FEAT_BITS / 64] = { 0 };
	uint64_t feat_at, et_off, et_size;
	struct span s;

	s = span_make(c, 0, info->header_size);
	sp_u64s(&s, hdr_words, "file header");
	if (info->header_size >= PD_FILE_HEADER_SIZE)
		for (i = 0; i < PD_FEAT_BITS / 64; i++)
			features[i] = conv_load(c, 72 + 8 * i, 8);

	/*
	 * The obsolete event_types section of old perf: struct
	 * perf_trace_event_type { u64 event_id; char name[64]; }.
	 */
	et_off = conv_load(c, 56, 8);
	et_size = conv_load(c, 64, 8);
	if (et_size % (8 + PD_EVENT_TYPE_NAME_LEN)) {
		conv_fail(c, 56, "an event_types section of %" PRIu64 " bytes", et_size);
		return;
	}
	s = span_make(c, et_off, et_size);
	while (span_left(&s) && !c->failed) {
		sp_u64(&s, "event_types id");
		sp_bytes(&s, PD_EVENT_TYPE_NAME_LEN, "event_types name");
	}

	if (info->attr_size <= 16 || info->attrs_size % info->attr_size) {
		conv_fail(c, 16, "attr_size %" PRIu64 " does not divide the attr section (%" PRIu64 " bytes)",
			  info->attr_size, info->attrs_size);
		return;
	}
	n = info->attrs_size / info->attr_size;
	for (i = 0; i < n && !c->failed; i++) {
		uint64_t at = info->attrs_offset + i * info->attr_size;
		uint64_t stored = info->attr_size - 16;
		uint64_t ids_off, ids_size;
		struct span ids;

		conv_attr(c, at, stored);
		s = span_make(c, at + stored, 16);
		ids_off = sp_u64(&s, "ids offset");
		ids_size = sp_u64(&s, "ids size");
		if (c->failed)
			return;
		if (ids_size % 8) {
			conv_fail(c, at + stored, "an id array of %" PRIu64 " bytes", ids_size);
			return;
		}
		ids = span_make(c, ids_off, ids_size);
		sp_u64s(&ids, ids_size / 8, "ids");
	}
	if (c->failed)
		return;

	conv_records(c);
	if (c->failed || info->header_size < PD_FILE_HEADER_SIZE ||
	    !info->data_size)
		return;

	feat_at = info->feat_offset;
	for (i = 0; i < PD_FEAT_BITS && !c->failed; i++) {
		uint64_t off, size;
		struct span p;

		if (!((features[i / 64] >> (i % 64)) & 1))
			continue;
		s = span_make(c, feat_at, 16);
		off = sp_u64(&s, "feature section offset");
		size = sp_u64(&s, "feature section size");
		feat_at += 16;
		if (c->failed)
			return;
		p = span_make(c, off, size);
		conv_feature(&p, i);
	}
}

static void
conv_pipe_mode(struct conv *c)
{
	struct span s = span_make(c, 0, PD_PIPE_HEADER_SIZE);

	sp_u64s(&s, 2, "pipe header");
	if (!c->failed)
		conv_records(c);
}

/*
 * Bytes no structure claimed should be zero (padding, slack entries of
 * the feature table).  Others are copied unchanged and listed: a reader
 * never looks at them, but we cannot say what a writer of the other byte
 * order would have put there.
 */
static void
conv_report_unclaimed(const struct conv *c)
{
	uint64_t i = 0, start;

	while (i < c->len) {
		if (c->claim[i] != CLAIM_NONE || !c->in[i]) {
			i++;
			continue;
		}
		start = i;
		while (i < c->len && c->claim[i] == CLAIM_NONE)
			i++;
		fprintf(stderr, "pd-byteswap: %s: warning: bytes %#" PRIx64 "..%#" PRIx64 " belong to no structure of the format; copied unchanged\n",
			c->name, start, i - 1);
	}
}

static int
read_file(const char *path, unsigned char **buf, uint64_t *len)
{
	struct stat st;
	uint64_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int err = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;

		close(fd);
		return err;
	}
	*len = (uint64_t)st.st_size;
	*buf = malloc(*len ? *len : 1);
	if (!*buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got < *len) {
		ssize_t n = read(fd, *buf + got, *len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? -errno : -EIO;

			close(fd);
			return err;
		}
		got += (uint64_t)n;
	}
	close(fd);
	return 0;
}

static int
write_file(const char *path, const unsigned char *buf, uint64_t len)
{
	uint64_t done = 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			close(fd);
			return err;
		}
		done += (uint64_t)n;
	}
	if (close(fd) < 0)
		return -errno;
	return 0;
}

static void
usage(FILE *out)
{
	fputs("Usage: pd-byteswap IN OUT\n"
	      "Rewrite the perf.data file IN in the other byte order, as a writer of\n"
	      "that order would have written it, into OUT.\n", out);
}

int
main(int argc, char **argv)
{
	struct pd_reader_opts opts = { .warn = reader_warn };
	struct conv c = { 0 };
	const struct pd_file_info *info;
	unsigned char *in = NULL;
	int err, status = 1;

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (argc != 3) {
		usage(stderr);
		return 2;
	}
	c.name = argv[1];
	opts.warn_ctx = &c;
	err = read_file(argv[1], &in, &c.len);
	if (err) {
		fprintf(stderr, "pd-byteswap: %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	c.in = in;
	c.out = malloc(c.len ? c.len : 1);
	c.claim = calloc(c.len ? c.len : 1, 1);
	if (!c.out || !c.claim) {
		fprintf(stderr, "pd-byteswap: out of memory\n");
		goto out;
	}
	memcpy(c.out, c.in, c.len);

	err = pd_reader_open(&c.r, argv[1], &opts);
	if (err) {
		fprintf(stderr, "pd-byteswap: %s: %s\n", argv[1], pd_reader_errmsg(c.r));
		goto out;
	}
	info = pd_reader_info(c.r);
	c.in_be = info->big_endian;
	if (info->version != 2) {
		conv_fail(&c, 0, "PERFFILE (version 1) files are not supported");
	} else if (info->mode == PD_MODE_FILE) {
		conv_file_mode(&c, info);
	} else if (info->mode == PD_MODE_PIPE) {
		conv_pipe_mode(&c);
	} else {
		conv_fail(&c, 0, "directories (perf record --threads) are not supported");
	}
	if (c.failed) {
		fprintf(stderr, "pd-byteswap: %s: %s\n", argv[1], c.err);
		goto out;
	}
	conv_report_unclaimed(&c);
	err = write_file(argv[2], c.out, c.len);
	if (err) {
		fprintf(stderr, "pd-byteswap: %s: %s\n", argv[2], strerror(-err));
		goto out;
	}
	status = 0;
out:
	pd_reader_close(c.r);
	free(c.claim);
	free(c.out);
	free(in);
	return status;
}
